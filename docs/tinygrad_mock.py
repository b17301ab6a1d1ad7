"""wavesim as the emulator behind tinygrad's mock AMD GPU (test/mockgpu/amd); see docs/TINYGRAD.md.

`WavesimRemu` is a drop-in for the mock's `PythonRemu` (test/mockgpu/helpers.py): the same
attributes and the same `run_asm(lib, lib_sz, gx, gy, gz, lx, ly, lz, args_ptr)`, plus the registers
the mock already holds but does not pass today (RSRC1, RSRC3, the wave size from the
DISPATCH_DIRECT initiator, the target). It calls the C ABI `wavesim_dispatch_raw` of libwavesim.so
(`cargo build -p wavesim` builds it; `WAVESIM_LIB` names another path) through ctypes.

`dispatch_direct` below is the mock's `PM4Executor._exec_dispatch_direct` reduced to what the
emulator call needs, so the tests at the end run the register path the mock runs:

    cargo build -p wavesim && python3 -m pytest -q docs/tinygrad_mock.py
"""
import ctypes
import os
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent

# gfx11 register offsets (Linux amdgpu gc_11_0_0_offset.h; the mock adds GC_BASE__INST0_SEG0).
regCOMPUTE_NUM_THREAD_X = 0x1BA7
regCOMPUTE_PGM_LO = 0x1BAC
regCOMPUTE_PGM_RSRC1 = 0x1BB2
regCOMPUTE_PGM_RSRC2 = 0x1BB3
regCOMPUTE_TMPRING_SIZE = 0x1BB8
regCOMPUTE_PGM_RSRC3 = 0x1BC8
regCOMPUTE_USER_DATA_0 = 0x1BE0
CS_W32_EN = 1 << 15  # COMPUTE_DISPATCH_INITIATOR (gc_11_0_0_sh_mask.h)


class HostRange(ctypes.Structure):
    _fields_ = [("start", ctypes.c_uint64), ("size", ctypes.c_uint64)]


class RawDispatch(ctypes.Structure):
    """`wavesim_raw_dispatch` of include/wavesim.h (field by field, same order)."""

    _fields_ = [
        ("code", ctypes.c_void_p),
        ("code_size", ctypes.c_uint64),
        ("user_data", ctypes.POINTER(ctypes.c_uint32)),
        ("user_data_count", ctypes.c_uint32),
        ("rsrc1", ctypes.c_uint32),
        ("rsrc2", ctypes.c_uint32),
        ("rsrc3", ctypes.c_uint32),
        ("groups", ctypes.c_uint32 * 3),
        ("local", ctypes.c_uint32 * 3),
        ("wave_size", ctypes.c_uint32),
        ("scratch_size", ctypes.c_uint32),
        ("target", ctypes.c_char_p),
        ("ranges", ctypes.POINTER(HostRange)),
        ("range_count", ctypes.c_uint64),
        ("max_wave_instructions", ctypes.c_uint64),
    ]


def load_library(path=None):
    """libwavesim.so: `path`, $WAVESIM_LIB, or the cargo build in this checkout."""
    candidates = [path, os.environ.get("WAVESIM_LIB")]
    candidates += [ROOT / "target" / p / "libwavesim.so" for p in ("debug", "release")]
    for c in candidates:
        if c and pathlib.Path(c).exists():
            lib = ctypes.CDLL(str(c))
            lib.wavesim_dispatch_raw.argtypes = [ctypes.POINTER(RawDispatch)]
            lib.wavesim_dispatch_raw.restype = ctypes.c_int32
            lib.wavesim_last_error.restype = ctypes.c_char_p
            return lib
    raise FileNotFoundError("libwavesim.so not found: run `cargo build -p wavesim` or set WAVESIM_LIB")


class WavesimRemu:
    """Drop-in for the mock's PythonRemu: set the attributes, then call run_asm."""

    valid_mem_ranges: set = set()
    rsrc1: int = 0
    rsrc2: int = 0x19C
    rsrc3: int = 0
    scratch_size: int = 0  # bytes per work-item
    arch: str = "rdna3"
    user_data: list = []  # COMPUTE_USER_DATA_0.. (USER_SGPR_COUNT of them)
    wave32: bool = True  # DISPATCH_INITIATOR.CS_W32_EN
    target: str = "gfx1100"  # or the KFD gfx_target_version, e.g. "110000"

    def __init__(self, lib_path=None):
        self.lib = load_library(lib_path)

    def run_asm(self, lib, lib_sz, gx, gy, gz, lx, ly, lz, args_ptr):
        """Runs the dispatch; returns 0, raises RuntimeError with wavesim's message otherwise.

        `args_ptr` is unused: the kernarg pointer is already in `user_data`, where the driver put it.
        """
        del args_ptr
        user = (ctypes.c_uint32 * max(len(self.user_data), 1))(*self.user_data)
        ranges = (HostRange * max(len(self.valid_mem_ranges), 1))(*sorted(self.valid_mem_ranges))
        d = RawDispatch(
            code=lib, code_size=lib_sz, user_data=user, user_data_count=len(self.user_data),
            rsrc1=self.rsrc1, rsrc2=self.rsrc2, rsrc3=self.rsrc3,
            groups=(ctypes.c_uint32 * 3)(gx, gy, gz), local=(ctypes.c_uint32 * 3)(lx, ly, lz),
            wave_size=32 if self.wave32 else 64, scratch_size=self.scratch_size,
            target=self.target.encode(), ranges=ranges, range_count=len(self.valid_mem_ranges),
            max_wave_instructions=0,
        )
        rc = self.lib.wavesim_dispatch_raw(ctypes.byref(d))
        if rc != 0:
            raise RuntimeError(f"wavesim ({rc}): {self.lib.wavesim_last_error().decode()}")
        return 0


def dispatch_direct(remu, regs, mapped_ranges, packet, target="gfx1100"):
    """What the mock's `_exec_dispatch_direct` does with a DISPATCH_DIRECT packet
    (`packet` = its 4 dwords: workgroups X, Y, Z and the dispatch initiator), given the SH
    registers `regs` and its mapped ranges; the lines marked NEW are the ones the mock adds."""
    gl, initiator = packet[:3], packet[3]
    prg_addr = (regs[regCOMPUTE_PGM_LO] + (regs[regCOMPUTE_PGM_LO + 1] << 32)) << 8
    args_addr = regs[regCOMPUTE_USER_DATA_0] + (regs[regCOMPUTE_USER_DATA_0 + 1] << 32)
    lc = [regs[i] for i in range(regCOMPUTE_NUM_THREAD_X, regCOMPUTE_NUM_THREAD_X + 3)]
    rsrc2 = regs[regCOMPUTE_PGM_RSRC2]
    user_sgpr_count = (rsrc2 >> 1) & 0x1F
    user_data = [regs.get(regCOMPUTE_USER_DATA_0 + i, 0) for i in range(user_sgpr_count)]
    prg_sz = 0
    for st, sz in mapped_ranges:
        if st <= prg_addr < st + sz:
            prg_sz = sz - (prg_addr - st)
    wavesize = (regs.get(regCOMPUTE_TMPRING_SIZE, 0) >> 12) & 0x3FFF
    remu.valid_mem_ranges = mapped_ranges
    remu.rsrc2 = rsrc2
    remu.scratch_size = wavesize * 4
    remu.user_data = user_data
    remu.rsrc1 = regs[regCOMPUTE_PGM_RSRC1]  # NEW
    remu.rsrc3 = regs.get(regCOMPUTE_PGM_RSRC3, 0)  # NEW
    remu.wave32 = bool(initiator & CS_W32_EN)  # NEW
    remu.target = target  # NEW
    return remu.run_asm(prg_addr, prg_sz, *gl, *lc, args_addr)


# ---- tests (pytest) ------------------------------------------------------------------------


def _aligned(n):
    """n zeroed bytes at a 256-byte aligned host address (COMPUTE_PGM_LO holds address >> 8)."""
    raw = ctypes.create_string_buffer(n + 256)
    addr = (ctypes.addressof(raw) + 255) & ~255
    return raw, addr


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
    ranges = {(code_addr, 4096)} | ({(out_addr, out_size)} if map_output else set())
    return keep, regs, ranges


def test_mock_registers_reach_the_waves():
    remu = WavesimRemu()
    keep_out, out = _aligned(64 * 24)
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
    keep_out, out = _aligned(64 * 24)
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
    keep_out, out = _aligned(64 * 24)
    keep, regs, ranges = _mock_state(out, 64 * 24, 1 << 22)  # RSRC1.DEBUG_MODE
    try:
        dispatch_direct(remu, regs, ranges, [1, 1, 1, CS_W32_EN | 1])
    except RuntimeError as e:
        assert "DEBUG_MODE" in str(e), str(e)
    else:
        raise AssertionError("DEBUG_MODE was accepted")
    del keep, keep_out
