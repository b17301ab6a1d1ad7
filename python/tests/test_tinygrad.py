"""The packaged tinygrad adapter (wavesim.tinygrad): the mock's register path, the range table
kept inside wavesim, and the target taken from GFX_TARGET_VERSION when DEV.arch is empty."""

import ctypes
import pathlib
import sys
import types

import pytest

from wavesim.tinygrad import (
    CS_W32_EN,
    MappedRanges,
    WavesimRemu,
    dispatch_direct,
    gfx_target_name,
    regCOMPUTE_NUM_THREAD_X,
    regCOMPUTE_PGM_LO,
    regCOMPUTE_PGM_RSRC1,
    regCOMPUTE_PGM_RSRC2,
    regCOMPUTE_USER_DATA_0,
)

# state.bin (crates/wavesim/tests/data/raw/build.sh): stores s0..s3, the workgroup ids X, Y, Z,
# the workgroup info, MODE and STATUS of each wave at s[0:1] + 64 * flat workgroup id.
STATE = pathlib.Path(__file__).resolve().parents[2] / "crates/wavesim/tests/data/raw/state.bin"


def aligned(n):
    raw = ctypes.create_string_buffer(n + 256)
    return raw, (ctypes.addressof(raw) + 255) & ~255


def apart(n):
    """n zeroed bytes a whole page away from every other buffer's pages: the device maps ranges
    in whole 4 KiB pages, so an unmapped output must not share a page with the mapped code."""
    raw = ctypes.create_string_buffer(n + 3 * 4096)
    return raw, ((ctypes.addressof(raw) + 4095) & ~4095) + 4096


def registers(code_addr, out_addr):
    """The mock's SH registers for state.bin: 4 user SGPRs (output pointer, two markers),
    workgroup ids and info enabled, one work-item per workgroup."""
    return {
        regCOMPUTE_PGM_LO: (code_addr >> 8) & 0xFFFFFFFF, regCOMPUTE_PGM_LO + 1: code_addr >> 40,
        regCOMPUTE_PGM_RSRC1: 0,
        regCOMPUTE_PGM_RSRC2: 4 << 1 | 1 << 7 | 1 << 8 | 1 << 9 | 1 << 10,
        regCOMPUTE_NUM_THREAD_X: 1, regCOMPUTE_NUM_THREAD_X + 1: 1, regCOMPUTE_NUM_THREAD_X + 2: 1,
        regCOMPUTE_USER_DATA_0: out_addr & 0xFFFFFFFF, regCOMPUTE_USER_DATA_0 + 1: out_addr >> 32,
        regCOMPUTE_USER_DATA_0 + 2: 0x1234, regCOMPUTE_USER_DATA_0 + 3: 0x5678,
    }


@pytest.fixture
def kernel():
    keep_code, code = aligned(4096)
    data = STATE.read_bytes()
    ctypes.memmove(code, data, len(data))
    keep_out, out = apart(64 * 24)
    yield code, out
    del keep_code, keep_out


def run(remu, code, out, ranges, groups=(2, 3, 4), target="gfx1100"):
    return dispatch_direct(remu, registers(code, out), ranges, [*groups, CS_W32_EN | 1], target)


def check_state(out, groups=(2, 3, 4)):
    words = (ctypes.c_uint32 * (16 * 24)).from_address(out)
    gx, gy, gz = groups
    for z in range(gz):
        for y in range(gy):
            for x in range(gx):
                r = words[16 * (x + gx * (y + gy * z)):][:7]
                assert r[:4] == [out & 0xFFFFFFFF, out >> 32, 0x1234, 0x5678]
                assert r[4:7] == [x, y, z]


def test_the_range_table_is_a_set_kept_in_wavesim(kernel):
    code, out = kernel
    ranges = MappedRanges()
    # The mock maps many buffers; the table keeps them as they come and go.
    for i in range(2000):
        ranges.add((0x7000_0000_0000 + i * 0x10000, 0x1000))
    ranges.add((code, 4096))
    ranges.add((out, 64 * 24))
    assert len(ranges) == 2002 and (code, 4096) in ranges
    remu = WavesimRemu()
    assert run(remu, code, out, ranges) == 0
    check_state(out)
    # Unmapping the output: the next dispatch's store is outside every range.
    ranges.remove((out, 64 * 24))
    assert (out, 64 * 24) not in ranges and len(ranges) == 2001
    with pytest.raises(RuntimeError, match="outside the host address ranges"):
        run(remu, code, out, ranges, groups=(1, 1, 1))
    with pytest.raises(KeyError):
        ranges.remove((out, 64 * 24))
    ranges.discard((out, 64 * 24))  # no error, as for a set
    assert sorted(ranges)[-1][0] >= 0x7000_0000_0000


def test_a_plain_set_of_ranges_still_works(kernel):
    code, out = kernel
    assert run(WavesimRemu(), code, out, {(code, 4096), (out, 64 * 24)}) == 0
    check_state(out)


def test_the_target_comes_from_gfx_target_version_when_dev_arch_is_empty(kernel):
    code, out = kernel
    # KFD numbers: major * 10000 + minor * 100 + stepping (minor, stepping as hex digits).
    assert gfx_target_name(110000) == "gfx1100"
    assert gfx_target_name(110501) == "gfx1151"
    remu = WavesimRemu()
    remu.gfx_target_version = 110000
    assert run(remu, code, out, {(code, 4096), (out, 64 * 24)}, target="") == 0
    check_state(out)
    # Not given: the mock module's GFX_TARGET_VERSION (an RDNA4 mock is refused by name).
    remu = WavesimRemu()
    mock = types.ModuleType("test.mockgpu.amd.amdgpu")
    mock.GFX_TARGET_VERSION = 120000
    sys.modules[mock.__name__] = mock
    try:
        with pytest.raises(RuntimeError, match="gfx1200"):
            run(remu, code, out, {(code, 4096), (out, 64 * 24)}, target="")
    finally:
        del sys.modules[mock.__name__]
    with pytest.raises(RuntimeError, match="no target"):
        run(WavesimRemu(), code, out, {(code, 4096), (out, 64 * 24)}, target="")
