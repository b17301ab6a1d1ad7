"""wavesim as the emulator behind tinygrad's mock AMD GPU (test/mockgpu/amd); docs/TINYGRAD.md.

In tinygrad's test/mockgpu/amd/amdgpu.py::

    from wavesim.tinygrad import WavesimRemu, MappedRanges
    remu = WavesimRemu()                      # was: remu = PythonRemu()
    # AMDGPU.__init__: self.mapped_ranges = MappedRanges()   (was: set())

``WavesimRemu`` is a drop-in for the mock's ``PythonRemu``: the same attributes and the same
``run_asm(lib, lib_sz, gx, gy, gz, lx, ly, lz, args_ptr)``, plus the registers the mock holds
but does not pass today (RSRC1, RSRC3, the wave size from the DISPATCH_DIRECT initiator, the
target). ``MappedRanges`` is a set of ``(start, size)`` host ranges kept inside wavesim: the mock
adds and removes ranges as it maps and unmaps memory, and a dispatch hands wavesim the table
instead of copying every range. A plain set still works (it is copied on every dispatch).

``dispatch_direct`` is the mock's ``PM4Executor._exec_dispatch_direct`` reduced to what the
emulator call needs; the package's tests drive it as the mock does.
"""

import sys

from ._native import HostRanges, dispatch_raw

__all__ = [
    "WavesimRemu",
    "MappedRanges",
    "dispatch_direct",
    "gfx_target_name",
    "CS_W32_EN",
    "regCOMPUTE_NUM_THREAD_X",
    "regCOMPUTE_PGM_LO",
    "regCOMPUTE_PGM_RSRC1",
    "regCOMPUTE_PGM_RSRC2",
    "regCOMPUTE_TMPRING_SIZE",
    "regCOMPUTE_PGM_RSRC3",
    "regCOMPUTE_USER_DATA_0",
]

# gfx11 register offsets (Linux amdgpu gc_11_0_0_offset.h; the mock adds GC_BASE__INST0_SEG0).
regCOMPUTE_NUM_THREAD_X = 0x1BA7
regCOMPUTE_PGM_LO = 0x1BAC
regCOMPUTE_PGM_RSRC1 = 0x1BB2
regCOMPUTE_PGM_RSRC2 = 0x1BB3
regCOMPUTE_TMPRING_SIZE = 0x1BB8
regCOMPUTE_PGM_RSRC3 = 0x1BC8
regCOMPUTE_USER_DATA_0 = 0x1BE0
CS_W32_EN = 1 << 15  # COMPUTE_DISPATCH_INITIATOR (gc_11_0_0_sh_mask.h)


class MappedRanges:
    """A set of ``(start, size)`` host ranges held by wavesim (``add``, ``remove``,
    ``discard``, ``in``, ``len``, iteration), for the mock's ``AMDGPU.mapped_ranges``."""

    def __init__(self, ranges=(), exact=False):
        self._table = HostRanges(list(ranges), exact)

    def add(self, r):
        if r not in self._table:
            self._table.add(*r)

    def remove(self, r):
        if r not in self._table:
            raise KeyError(r)
        self._table.remove(*r)

    def discard(self, r):
        if r in self._table:
            self._table.remove(*r)

    def __contains__(self, r):
        return tuple(r) in self._table

    def __len__(self):
        return len(self._table)

    def __iter__(self):
        return iter(self._table.list())


def gfx_target_name(version):
    """KFD's gfx_target_version (``110000``, ``110501``) as a processor name (``gfx1100``,
    ``gfx1151``): major * 10000 + minor * 100 + stepping, minor and stepping in hex digits."""
    v = int(version)
    return f"gfx{v // 10000}{(v // 100) % 100:x}{v % 100:x}"


def _mock_gfx_target_version():
    """GFX_TARGET_VERSION of tinygrad's mock, when its module is loaded."""
    for name, mod in list(sys.modules.items()):
        if "mockgpu" in name and hasattr(mod, "GFX_TARGET_VERSION"):
            return mod.GFX_TARGET_VERSION
    return None


class WavesimRemu:
    """Drop-in for the mock's PythonRemu: set the attributes, then call run_asm."""

    valid_mem_ranges = set()
    rsrc1: int = 0
    rsrc2: int = 0x19C
    rsrc3: int = 0
    scratch_size: int = 0  # bytes per work-item
    arch: str = "rdna3"
    user_data: list = []  # COMPUTE_USER_DATA_0.. (USER_SGPR_COUNT of them)
    wave32: bool = True  # DISPATCH_INITIATOR.CS_W32_EN
    # The processor: "gfx1100", or KFD's number ("110000"). The mock's `DEV.arch` is empty under
    # DEV=MOCKKFD+AMD:LLVM; then `gfx_target_version` decides, or else the mock module's
    # GFX_TARGET_VERSION.
    target: str = "gfx1100"
    gfx_target_version = None

    def _target(self):
        if self.target:
            return str(self.target)
        v = self.gfx_target_version
        if v is None:
            v = _mock_gfx_target_version()
        if v is None:
            raise RuntimeError(
                "wavesim: no target: `target` is empty and no GFX_TARGET_VERSION was given"
            )
        return gfx_target_name(v)

    def _ranges(self):
        r = self.valid_mem_ranges
        if isinstance(r, MappedRanges):
            return r._table
        if isinstance(r, HostRanges):
            return r
        return HostRanges(sorted(r))  # a plain set: copied for this dispatch

    def run_asm(self, lib, lib_sz, gx, gy, gz, lx, ly, lz, args_ptr):
        """Runs the dispatch; returns 0, raises RuntimeError with wavesim's message otherwise.

        `args_ptr` is unused: the kernarg pointer is already in `user_data`, where the driver
        put it.
        """
        del args_ptr
        try:
            dispatch_raw(
                lib, lib_sz, list(self.user_data), self.rsrc1, self.rsrc2, self.rsrc3,
                [gx, gy, gz], [lx, ly, lz], 32 if self.wave32 else 64, self.scratch_size,
                self._target(), self._ranges(),
            )
        except Exception as e:  # wavesim.WavesimError: the message names the fault
            raise RuntimeError(f"wavesim: {e}") from e
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
