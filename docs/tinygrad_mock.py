"""wavesim as the emulator behind tinygrad's mock AMD GPU (test/mockgpu/amd); see docs/TINYGRAD.md.

The adapter ships in the Python package as ``wavesim.tinygrad`` (``pip install ./python``); this
file re-exports it for older instructions and keeps the mock-path tests, which run the register
path the mock runs:

    pip install ./python && python3 -m pytest -q docs/tinygrad_mock.py
"""
import ctypes
import pathlib

from wavesim.tinygrad import *  # noqa: F401,F403
from wavesim.tinygrad import (
    CS_W32_EN,
    MappedRanges,
    WavesimRemu,
    dispatch_direct,
    regCOMPUTE_NUM_THREAD_X,
    regCOMPUTE_PGM_LO,
    regCOMPUTE_PGM_RSRC1,
    regCOMPUTE_PGM_RSRC2,
    regCOMPUTE_PGM_RSRC3,
    regCOMPUTE_USER_DATA_0,
)

ROOT = pathlib.Path(__file__).resolve().parent.parent


# ---- tests (pytest) ------------------------------------------------------------------------


def _aligned(n):
    """n zeroed bytes at a 256-byte aligned host address (COMPUTE_PGM_LO holds address >> 8)."""
    raw = ctypes.create_string_buffer(n + 256)
    addr = (ctypes.addressof(raw) + 255) & ~255
    return raw, addr


def _apart(n):
    """n zeroed bytes a whole page away from every other buffer's pages: the device maps ranges
    in whole 4 KiB pages, so an unmapped output must not share a page with the mapped code."""
    raw = ctypes.create_string_buffer(n + 3 * 4096)
    return raw, ((ctypes.addressof(raw) + 4095) & ~4095) + 4096


def _mock_state(out_addr, out_size, rsrc1, map_output=True):
    """Registers and mapped ranges as the mock has them for crates/wavesim/tests/data/raw/
    state.bin: 4 user SGPRs (s[0:1] = output pointer, then two marker values), workgroup ids X,
    Y, Z and the workgroup info enabled (RSRC2), 2 x 3 x 4 workgroups of one work-item."""
    code = (ROOT / "crates/wavesim/tests/data/raw/state.bin").read_bytes()
    keep, code_addr = _aligned(4096)
    ctypes.memmove(code_addr, code, len(code))
    regs = {
        regCOMPUTE_PGM_LO: (code_addr >> 8) & 0xFFFFFFFF, regCOMPUTE_PGM_LO + 1: code_addr >> 40,
        regCOMPUTE_PGM_RSRC1: rsrc1,
        regCOMPUTE_PGM_RSRC2: 4 << 1 | 1 << 7 | 1 << 8 | 1 << 9 | 1 << 10,
        regCOMPUTE_PGM_RSRC3: 0,
        regCOMPUTE_NUM_THREAD_X: 1, regCOMPUTE_NUM_THREAD_X + 1: 1, regCOMPUTE_NUM_THREAD_X + 2: 1,
        regCOMPUTE_USER_DATA_0: out_addr & 0xFFFFFFFF, regCOMPUTE_USER_DATA_0 + 1: out_addr >> 32,
        regCOMPUTE_USER_DATA_0 + 2: 0x1234, regCOMPUTE_USER_DATA_0 + 3: 0x5678,
    }
    ranges = MappedRanges([(code_addr, 4096)] + ([(out_addr, out_size)] if map_output else []))
    return keep, regs, ranges


def test_mock_registers_reach_the_waves():
    remu = WavesimRemu()
    keep_out, out = _apart(64 * 24)
    # RSRC1: FLOAT_ROUND_MODE_32 = 1 (toward +inf), FLOAT_DENORM_MODE_32 = 0 (flush),
    # FLOAT_DENORM_MODE_16_64 = 3, DX10_CLAMP, IEEE, PRIV (as tinygrad sets it on gfx11).
    rsrc1 = 1 << 12 | 3 << 18 | 1 << 21 | 1 << 23 | 1 << 20
    keep, regs, ranges = _mock_state(out, 64 * 24, rsrc1)
    assert dispatch_direct(remu, regs, ranges, [2, 3, 4, CS_W32_EN | 1]) == 0
    words = (ctypes.c_uint32 * (16 * 24)).from_address(out)
    for z in range(4):
        for y in range(3):
            for x in range(2):
                r = words[16 * (x + 2 * (y + 3 * z)):][:11]
                assert r[:4] == [out & 0xFFFFFFFF, out >> 32, 0x1234, 0x5678]
                assert r[4:7] == [x, y, z]
                assert r[7] == (1 << 31 | 1)
                # RDNA3 MODE: FP_ROUND [3:0], FP_DENORM [7:4], DX10_CLAMP [8], IEEE [9].
                assert r[8] == 1 | 3 << 6 | 1 << 8 | 1 << 9
                assert r[9] & (1 << 5)  # STATUS.PRIV
    del keep, keep_out


def test_an_access_outside_the_mapped_ranges_is_an_error():
    remu = WavesimRemu()
    keep_out, out = _apart(64 * 24)
    keep, regs, ranges = _mock_state(out, 64 * 24, 0, map_output=False)
    try:
        dispatch_direct(remu, regs, ranges, [1, 1, 1, CS_W32_EN | 1])
    except RuntimeError as e:
        msg = str(e)
        assert "lane 0" in msg and hex(out) in msg and "outside the host address ranges" in msg, msg
    else:
        raise AssertionError("the store outside the mapped ranges was not reported")
    del keep, keep_out


def test_an_unsupported_field_is_named():
    remu = WavesimRemu()
    keep_out, out = _apart(64 * 24)
    keep, regs, ranges = _mock_state(out, 64 * 24, 1 << 22)  # RSRC1.DEBUG_MODE
    try:
        dispatch_direct(remu, regs, ranges, [1, 1, 1, CS_W32_EN | 1])
    except RuntimeError as e:
        assert "DEBUG_MODE" in str(e), str(e)
    else:
        raise AssertionError("DEBUG_MODE was accepted")
    del keep, keep_out
