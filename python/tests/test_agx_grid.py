"""An asahi_clc grid kernel through Python's run_agx: the shipped job
corpus/agx/examples/saxpy_grid_kernel.toml against a numpy model of corpus/agx/kernels/saxpy.cl,
and a job whose argument does not fit the kernel's report raising an error that names it."""

import os

import numpy as np
import pytest

import wavesim

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
EXAMPLES = os.path.join(ROOT, "corpus", "agx", "examples")


def example():
    with open(os.path.join(EXAMPLES, "saxpy_grid_kernel.toml")) as f:
        return f.read()


def printed(text, buffer):
    line = next(l for l in text.splitlines() if l.startswith(buffer + ":"))
    return np.array([float(v) for v in line.split()[1:]], dtype=np.float32)


def test_grid_kernel_job_matches_saxpy():
    text, pngs = wavesim.run_agx(example(), None, EXAMPLES)
    i = np.arange(40, dtype=np.float32)
    x = i * np.float32(0.5) - np.float32(5)
    y = np.float32(100) - np.float32(3) * i
    # a * x is a multiple of 0.25 and y an integer: exact in f32, fused or not
    want = np.float32(2.5) * x + y
    assert np.array_equal(printed(text, "y"), want)
    assert pngs == []


def test_grid_kernel_argument_mismatch_is_named():
    with pytest.raises(wavesim.WavesimError, match="argument 2 `a`"):
        wavesim.run_agx(example().replace("f32 = 2.5", "u64 = 2"), None, EXAMPLES)
