"""The step API (issue 16) from Python: break at a PC or on a condition, step one wave, read and
write registers and memory, continue. saxpy's code is the committed clang-19 object; the PCs
come from its committed listing (corpus/gfx1100-w32/saxpy.objdump)."""

import os
import struct

import numpy as np
import pytest

import wavesim

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
SAXPY = os.path.join(ROOT, "corpus", "gfx1100-w32", "saxpy.hsaco")
STORE_PC = 0x1FA4  # global_store_b32 v[3:4], v1, off  (y[i] = a * x[i] + y[i])


def session(n=64):
    dev = wavesim.Device()
    mod = dev.load(SAXPY)
    x = np.arange(n, dtype=np.float32)
    y = np.ones(n, dtype=np.float32)
    return dev.debug(mod, "saxpy", n, 32, n, 2.0, x, y), x, y


def test_break_at_a_pc_read_and_write_a_vgpr_then_finish():
    s, x, y = session()
    s.break_at(STORE_PC)
    ev = s.cont()
    assert ev == ("breakpoint", 0, STORE_PC)
    assert s.pc(0) == STORE_PC
    assert s.next_instruction(0).startswith("global_store_b32 v[3:4], v1, off")
    # v1 holds the value about to be stored: 2 * x[i] + 1 for lane i of workgroup 0, wave 0.
    v1 = s.read_vgpr(0, 1)
    assert len(v1) == 32
    got = np.array(v1, dtype=np.uint32).view(np.float32)
    assert np.array_equal(got, 2.0 * x[:32] + 1.0)
    # Replace lane 3's value: the store writes it.
    s.write_vgpr(0, 1, 3, struct.unpack("<I", struct.pack("<f", -7.0))[0])
    s.clear_break(STORE_PC)
    outs = s.finish()
    assert outs[0] is None and outs[1] is None and outs[2] is not None
    out_y = np.frombuffer(outs[3], dtype=np.float32)
    want = 2.0 * x + 1.0
    want[3] = -7.0
    assert np.array_equal(out_y, want)


def test_step_one_wave_and_the_pc_moves():
    s, _, _ = session()
    assert s.wave_count() == 1
    assert s.workgroup() == [0, 0, 0]
    pc0 = s.pc(0)
    assert pc0 == 0x1F00  # the kernel's entry (<saxpy>: in the listing)
    ev = s.step(0)
    assert ev == ("stepped", 0, False)
    assert s.pc(0) > pc0
    assert not s.ended(0)


def test_break_on_a_condition_and_edit_memory():
    s, x, _ = session()
    # v0 holds the packed work-item ids (RDNA3 ISA, initial wave state): lane 5 has x id 5.
    k = s.break_if("vgpr", 5, index=0, lane=5)
    assert s.cont() == ("condition", 0, k)
    s.clear_conditions()
    # The buffer arguments' device addresses: overwrite x[0] with 10 before anything reads it.
    xa = s.buffers[2]
    assert np.array_equal(np.frombuffer(s.read_mem(xa, 16), np.float32), x[:4])
    s.write_mem(xa, struct.pack("<f", 10.0))
    # SGPRs are readable and writable (s0 is left alone: the kernarg pointer).
    s.write_sgpr(0, 100, 1234)
    assert s.read_sgpr(0, 100) == 1234
    out_y = np.frombuffer(s.finish()[3], np.float32)
    assert out_y[0] == 21.0 and out_y[1] == 3.0
    with pytest.raises(wavesim.WavesimError, match="finished"):
        s.cont()


def test_errors_are_wavesim_errors():
    s, _, _ = session()
    with pytest.raises(wavesim.WavesimError, match="no wave 5"):
        s.read_sgpr(5, 0)
    with pytest.raises(wavesim.WavesimError, match="no v300"):
        s.read_vgpr(0, 300)
    with pytest.raises(wavesim.WavesimError, match="kind `pc`"):
        s.break_if("pc", 0)
    with pytest.raises(wavesim.WavesimError):
        s.read_mem(0, 4)
    assert s.cont() == ("finished",)
