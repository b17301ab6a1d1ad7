"""Tests of the installed `wavesim` package (pip install ./python), on the committed corpus."""

import os

import numpy as np
import pytest

import wavesim

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def corpus(p):
    return os.path.join(ROOT, "corpus", p)


def test_saxpy_numpy_in_and_out():
    dev = wavesim.Device()
    mod = dev.load(corpus("gfx1100-w32/saxpy.hsaco"))
    n = 1000
    x = np.arange(n, dtype=np.float32) * 0.5
    y = np.ones(n, dtype=np.float32)
    want = np.float32(2.5) * x + y  # each product and sum is exact in f32 here
    dev.dispatch(mod, "saxpy", 1024, 256, n, 2.5, x, y)
    assert np.array_equal(y, want)
    # x is `const float*`: read, never written back, so unchanged.
    assert np.array_equal(x, np.arange(n, dtype=np.float32) * 0.5)


def test_arguments_are_checked_against_the_metadata():
    dev = wavesim.Device()
    mod = dev.load(corpus("gfx1100-w32/saxpy.hsaco"))
    x = np.zeros(4, np.float32)
    y = np.zeros(4, np.float32)
    with pytest.raises(wavesim.WavesimError, match="takes 4 arguments, got 3"):
        dev.dispatch(mod, "saxpy", 4, 4, 4, 1.0, x)
    with pytest.raises(wavesim.WavesimError, match=r"argument 1 .*uint.*integer type"):
        dev.dispatch(mod, "saxpy", 4, 4, 1000.0, 1.0, x, y)
    with pytest.raises(wavesim.WavesimError, match="out of range for uint"):
        dev.dispatch(mod, "saxpy", 4, 4, -1, 1.0, x, y)
    with pytest.raises(wavesim.WavesimError, match="points to float32; the array is float64"):
        dev.dispatch(mod, "saxpy", 4, 4, 4, 1.0, x.astype(np.float64), y)
    with pytest.raises(wavesim.WavesimError, match="give a numpy array, not list"):
        dev.dispatch(mod, "saxpy", 4, 4, 4, 1.0, [0.0] * 4, y)
    with pytest.raises(wavesim.WavesimError, match="unknown kernel `nope`"):
        dev.dispatch(mod, "nope", 4, 4)


def test_wavesim_errors_carry_the_message():
    dev = wavesim.Device()
    mod = dev.load(corpus("gfx1100-w32/saxpy.hsaco"))
    x = np.zeros(4, np.float32)
    y = np.zeros(64, np.float32)
    # n = 8 but x has 4 floats: work-item 4 faults 16 bytes into x.
    with pytest.raises(wavesim.WavesimError, match=r"memory fault: lane 4.*argument 3"):
        dev.dispatch(mod, "saxpy", 8, 8, 8, 1.0, x, y)
    with pytest.raises(wavesim.WavesimError, match="no ELF magic"):
        dev.load(b"not an object")


def test_vectors_structs_and_reqd_work_group_size():
    dev = wavesim.Device()
    mod = dev.load(corpus("printf/args.hsaco"))
    out = np.zeros(10, np.float32)
    struct = np.array([7], np.int32).tobytes() + np.array([2.5], np.float32).tobytes()
    struct += np.array([-3, 0], np.int16).tobytes()
    dev.dispatch(
        mod, "byvalue", 1, 1, out, np.array([1, 2, 3, 4], np.float32), (-5, 6), struct, 9
    )
    assert out.tolist() == [1, 2, 3, 4, -5, 6, 7, 2.5, -3, 9]
    ids = np.zeros(128, np.uint32)
    dev.dispatch(mod, "fill_ids", 128, None, ids)  # block from reqd_work_group_size(64,1,1)
    assert ids.tolist() == [64000 + i % 64 for i in range(128)]


def test_printf_text_is_returned():
    dev = wavesim.Device()
    mod = dev.load(corpus("printf/printf.hsaco"))
    x = np.fromfile(corpus("printf/x.bin"), dtype=np.float32)
    text = dev.dispatch(mod, "hello", 8, 8, x, 8)
    with open(corpus("printf/expected.txt")) as f:
        pocl = f.read()
    assert sorted(text.splitlines()) == sorted(pocl.splitlines())
    assert dev.printf_output == text


def test_hip_bundle_demangled_names_and_dynamic_shared():
    dev = wavesim.Device()
    mod = dev.load(corpus("hip/kernels.co"))
    assert "_Z5saxpyifPKfPf" in mod.kernels
    x = np.arange(100, dtype=np.float32)
    y = np.full(100, 0.5, np.float32)
    dev.dispatch(mod, "saxpy", 128, 64, 100, 3.0, x, y)
    assert np.array_equal(y, 3 * np.arange(100, dtype=np.float32) + 0.5)
    data = np.arange(128, dtype=np.float32)
    dev.dispatch(mod, "reverse_block", 128, 64, data, dynamic_shared=256)
    assert data.tolist() == [(i // 64) * 64 + 63 - i % 64 for i in range(128)]
    with pytest.raises(wavesim.WavesimError, match="ambiguous"):
        dev.dispatch(mod, "scale", 4, 4, np.zeros(4, np.float32), 2.0)
    assert wavesim.demangle("_Z5saxpyifPKfPf") == "saxpy(int, float, float const*, float*)"


def test_disassemble_r700_and_agx():
    with open(corpus("gfx1100-w32/saxpy.hsaco"), "rb") as f:
        text = wavesim.disassemble(f.read())
    assert "s_endpgm" in text
    assert "s_endpgm" in wavesim.disassemble(bytes.fromhex("0000b0bf"), raw=True)
    with open(corpus("r700/obj/rv770/ps_fadd_fmul.o"), "rb") as f:
        obj = f.read()
    with open(corpus("r700/run/ps_fadd_fmul.toml")) as f:
        cfg = f.read()
    exports, png = wavesim.run_r700(obj, cfg)
    with open(corpus("r700/ref/ps_fadd_fmul.txt")) as f:
        ref = f.read().splitlines()
    assert len(exports.splitlines()) == len(ref)
    assert exports.splitlines()[0].split(" = ")[0] == " ".join(ref[0].split()[:3])
    agx_dir = corpus("agx/examples")
    with open(os.path.join(agx_dir, "gradient_fragment.toml")) as f:
        text, pngs = wavesim.run_agx(f.read(), None, agx_dir)
    assert "rt0 pixel(0,0)" in text
    assert pngs and pngs[0][:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(wavesim.WavesimError):
        wavesim.run_agx("not = [valid", None, agx_dir)


def test_run_asm_on_host_memory():
    # s_load_b64 s[2:3], s[0:1], 0x0 ; s_waitcnt lgkmcnt(0) ; v_mov_b32 v1, 42 ;
    # v_lshlrev_b32 v0, 2, v0 ; global_store_b32 v0, v1, s[2:3] ; s_endpgm
    # (llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding)
    code = bytes.fromhex(
        "800004f4000000f8" "07fc89bf" "aa02027e" "82000030" "00006adc00010200" "0000b0bf"
    )
    out = np.zeros(32, np.uint32)
    kernarg = np.array([out.ctypes.data], np.uint64)
    wavesim.run_asm(code, 1, 32, kernarg, rsrc2=0)
    assert out.tolist() == [42] * 32


def test_draw_renders_the_shipped_scenes():
    # wavesim.draw runs `wavesim draw`: the example scenes render to the PNGs committed next to
    # them (which the Rust graphics tests check against an independent rasteriser).
    for scene in ["gradient", "depth"]:
        pngs = wavesim.draw(corpus("gfx/draw/%s.toml" % scene))
        with open(corpus("gfx/draw/%s.png" % scene), "rb") as f:
            assert pngs[0] == f.read(), scene
    with pytest.raises(wavesim.WavesimError, match="no-such-scene.toml"):
        wavesim.draw("no-such-scene.toml")
