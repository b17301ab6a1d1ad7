"""The step debugger for R700 shaders and AGX jobs (``wavesim.debug_r700`` / ``wavesim.debug_agx``)
on corpus programs: breakpoints (an address inside no instruction refused), steps, register and
memory reads and writes, and the run finishing with its outputs."""

import os

import pytest

import wavesim

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
MESA22 = os.path.join(ROOT, "corpus", "agx", "mesa22")


def read(*path, mode="r"):
    with open(os.path.join(ROOT, *path), mode) as f:
        return f.read()


def test_r700_breaks_reads_writes_and_finishes():
    obj = read("corpus", "r700", "obj", "rv770", "ps_else_tex.o", mode="rb")
    cfg = read("corpus", "r700", "run", "ps_else_tex.toml")
    plain, _ = wavesim.run_r700(obj, cfg)
    s, first = wavesim.debug_r700(obj, cfg)
    assert first[0] == "start" and first[3] == 0
    # @13 lies between the CF program and the ALU clause at @14.
    with pytest.raises(wavesim.WavesimError, match="@13 is not the start of an instruction"):
        s.break_at(13)
    s.break_at(15)
    stop = s.cont()
    assert stop[:4] == ("break", (0, 0, 0), 0, 15)
    assert stop[4].startswith("w: NOT_INT")
    # SETGT_DX10 (T0.X > 0) of lanes 0-3 (T0.X = -3, 0.75, 4.5, -1.5) wrote 0, ~0, ~0, 0.
    assert s.read_reg("T2.W")[:4] == [0, 0xFFFFFFFF, 0xFFFFFFFF, 0]
    s.write_reg("T1.X", 2, 0x40000000)
    assert s.read_reg("T1.X")[2] == 0x40000000
    assert s.step()[:4] == ("step", (0, 0, 0), 0, 16)
    # ps_else_tex's constant buffer 0, entry 0 = (-3.0, -2.5, -2.0, -1.5) in its configuration.
    assert s.read_mem(0, 8) == bytes.fromhex("000040c0000020c0")
    with pytest.raises(wavesim.WavesimError, match="no address space `device`"):
        s.read_mem(0, 4, space="device")
    with pytest.raises(wavesim.WavesimError, match="T<n>"):
        s.read_reg("R1.X")
    # Thread 2 takes the ELSE path, which never reads T1: the exports are unchanged.
    assert s.finish() == plain
    with pytest.raises(wavesim.WavesimError, match="finished"):
        s.step()


def test_agx_device_memory_write_changes_a_vertex():
    cfg = read("corpus", "agx", "mesa22", "0ad_6.0000.vs.toml")
    plain, _ = wavesim.run_agx(cfg, None, MESA22)
    s, first = wavesim.debug_agx(cfg, None, MESA22)
    assert first == ("start", (0, 0, 0), 0, 0, "imadd            r0, r5.sx, 4, 0")
    with pytest.raises(wavesim.WavesimError, match="0x9 is not the start"):
        s.break_at(9)
    s.break_at(8)
    assert s.cont()[:4] == ("break", (0, 0, 0), 0, 8)
    # Thread 1 loads vertex 1's position at u0_u1 + 16 (r0 = vertex_id * 4 elements): 3.0, -1.0.
    assert s.read_mem(0x10000010, 8) == bytes.fromhex("00004040 000080bf")
    s.write_mem(0x10000010, (0x41200000).to_bytes(4, "little"))
    assert s.step()[:4] == ("step", (0, 0, 0), 0, 16)
    assert s.read_reg("r0")[:3] == [0xBF800000, 0x41200000, 0xBF800000]
    with pytest.raises(wavesim.WavesimError, match="outside the group's 0 bytes"):
        s.read_mem(0, 4, "threadgroup")
    out = s.finish()
    assert out == plain.replace(
        "vertex 1 instance 0: out0=0x40400000", "vertex 1 instance 0: out0=0x41200000"
    )
    assert out != plain


def test_agx_register_write_and_run_to_the_end():
    cfg = read("corpus", "agx", "examples", "saxpy_grid_kernel.toml")
    examples = os.path.join(ROOT, "corpus", "agx", "examples")
    plain, _ = wavesim.run_agx(cfg, None, examples)
    s, _ = wavesim.debug_agx(cfg, None, examples)
    with pytest.raises(wavesim.WavesimError, match="no r200"):
        s.read_reg("r200")
    assert s.cont()[0] == "finished"
    with pytest.raises(wavesim.WavesimError, match="finished"):
        s.cont()
    s, _ = wavesim.debug_agx(cfg, None, examples)
    assert s.finish() == plain


def test_device_debug_takes_every_isa():
    """``Device.debug`` with a shader and ``config=`` is ``debug_r700``, with ``target="agx"``
    ``debug_agx``; RDNA3's arguments next to a configuration are refused."""
    dev = wavesim.Device(threads=1)
    obj = os.path.join(ROOT, "corpus", "r700", "obj", "rv770", "vs_fetch.o")
    cfg = read("corpus", "r700", "run", "vs_fetch.toml")
    s, first = dev.debug(obj, config=cfg)
    assert first[:4] == ("start", (0, 0, 0), 0, 0)
    # vs_fetch: thread 0's T0.X = -3.0 becomes FLT_TO_INT(-3) & 15 = 13, so its VTX_READ (@6)
    # reads buffer 1 at 13 * 16 = 0xd0: constant buffer 1's entry 13 = 125.0 + 2 * 13 = 151.0.
    s.break_at(6)
    assert s.cont()[:4] == ("break", (0, 0, 0), 0, 6)
    assert s.read_mem(0xD0, 4, space="cb1") == (0x43170000).to_bytes(4, "little")
    s.write_mem(0xD0, (0x41200000).to_bytes(4, "little"), space="cb1")
    assert s.read_mem(0xD0, 4, space="vb1") == (0x41200000).to_bytes(4, "little")
    assert s.finish().startswith("thread 0 pos0 = 10 151.5 152 152.5\n")

    job = read("corpus", "agx", "mesa22", "0ad_6.0000.vs.toml")
    s, first = dev.debug(target="agx", config=job, config_dir=MESA22)
    assert first[0] == "start" and first[3] == 0
    plain, _ = wavesim.debug_agx(job, None, MESA22)
    assert s.finish() == plain.finish()

    with pytest.raises(wavesim.WavesimError, match="for RDNA3 code objects"):
        dev.debug(obj, "main", 64, config=cfg)
    with pytest.raises(wavesim.WavesimError, match="target 'r700'"):
        dev.debug(obj, config=cfg, target="r700")
    with pytest.raises(wavesim.WavesimError, match="give config=TOML"):
        dev.debug(target="agx")
    with pytest.raises(wavesim.WavesimError, match="give module, kernel and grid"):
        dev.debug()
