//! The gfx11 registers the PM4 executor accepts, one row each: byte address, name, and what
//! the emulator does with a write. Addresses are those of Mesa's generated register tables
//! (`src/amd/registers/gfx11.json`, used as `R_00B830_COMPUTE_PGM_LO` etc. in `sid.h`) and
//! the Linux `gc_11_0_0_offset.h` header. A register without a row is an error naming its
//! address: never silently stored or dropped.

/// What a register write does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Use {
    /// Read by the dispatch (its value shapes the waves).
    Dispatch,
    /// A hint for the hardware's scheduler, CU masks, performance counters or tracing, with
    /// no effect on any value a shader computes; the reason says why.
    NoFunctionalEffect(&'static str),
}

pub struct Reg {
    pub addr: u32,
    pub name: &'static str,
    pub usage: Use,
}

const fn d(addr: u32, name: &'static str) -> Reg {
    Reg {
        addr,
        name,
        usage: Use::Dispatch,
    }
}
const fn h(addr: u32, name: &'static str, why: &'static str) -> Reg {
    Reg {
        addr,
        name,
        usage: Use::NoFunctionalEffect(why),
    }
}

const CU_MASK: &str = "CU enable mask: which CUs run waves (results do not depend on placement)";
const LIMITS: &str = "wave/workgroup launch limits per CU (scheduling only)";
const ACCUM: &str = "values the SQ's performance counters accumulate (not modelled)";
const PERF: &str =
    "performance counter / statistics enable (not modelled; no shader-visible effect)";

pub const COMPUTE_DISPATCH_INITIATOR: u32 = 0xb800;
pub const COMPUTE_DIM_X: u32 = 0xb804;
pub const COMPUTE_START_X: u32 = 0xb810;
pub const COMPUTE_START_Y: u32 = 0xb814;
pub const COMPUTE_START_Z: u32 = 0xb818;
pub const COMPUTE_NUM_THREAD_X: u32 = 0xb81c;
pub const COMPUTE_NUM_THREAD_Y: u32 = 0xb820;
pub const COMPUTE_NUM_THREAD_Z: u32 = 0xb824;
pub const COMPUTE_PGM_LO: u32 = 0xb830;
pub const COMPUTE_PGM_HI: u32 = 0xb834;
pub const COMPUTE_PGM_RSRC1: u32 = 0xb848;
pub const COMPUTE_PGM_RSRC2: u32 = 0xb84c;
pub const COMPUTE_TMPRING_SIZE: u32 = 0xb860;
pub const COMPUTE_PGM_RSRC3: u32 = 0xb8a0;
pub const COMPUTE_USER_DATA_0: u32 = 0xb900;

/// Compute shader registers (SH space, SET_SH_REG).
pub static SH_REGS: &[Reg] = &[
    d(COMPUTE_DISPATCH_INITIATOR, "COMPUTE_DISPATCH_INITIATOR"),
    d(0xb804, "COMPUTE_DIM_X"),
    d(0xb808, "COMPUTE_DIM_Y"),
    d(0xb80c, "COMPUTE_DIM_Z"),
    d(COMPUTE_START_X, "COMPUTE_START_X"),
    d(COMPUTE_START_Y, "COMPUTE_START_Y"),
    d(COMPUTE_START_Z, "COMPUTE_START_Z"),
    d(COMPUTE_NUM_THREAD_X, "COMPUTE_NUM_THREAD_X"),
    d(COMPUTE_NUM_THREAD_Y, "COMPUTE_NUM_THREAD_Y"),
    d(COMPUTE_NUM_THREAD_Z, "COMPUTE_NUM_THREAD_Z"),
    h(0xb828, "COMPUTE_PIPELINESTAT_ENABLE", PERF),
    h(0xb82c, "COMPUTE_PERFCOUNT_ENABLE", PERF),
    d(COMPUTE_PGM_LO, "COMPUTE_PGM_LO"),
    d(COMPUTE_PGM_HI, "COMPUTE_PGM_HI"),
    // gfx11's scratch base for the dispatch (address >> 8, then >> 40). The shim backs each
    // dispatch's scratch with `hsa::raw`'s own per-lane memory instead: scratch is private to
    // its lane and reached only through scratch instructions, so where it lives is invisible.
    h(
        0xb840,
        "COMPUTE_DISPATCH_SCRATCH_BASE_LO",
        "scratch backing address (raw dispatch allocates its own)",
    ),
    h(
        0xb844,
        "COMPUTE_DISPATCH_SCRATCH_BASE_HI",
        "scratch backing address (raw dispatch allocates its own)",
    ),
    d(COMPUTE_PGM_RSRC1, "COMPUTE_PGM_RSRC1"),
    d(COMPUTE_PGM_RSRC2, "COMPUTE_PGM_RSRC2"),
    h(0xb854, "COMPUTE_RESOURCE_LIMITS", LIMITS),
    h(0xb858, "COMPUTE_STATIC_THREAD_MGMT_SE0", CU_MASK),
    h(0xb85c, "COMPUTE_STATIC_THREAD_MGMT_SE1", CU_MASK),
    d(COMPUTE_TMPRING_SIZE, "COMPUTE_TMPRING_SIZE"),
    h(0xb864, "COMPUTE_STATIC_THREAD_MGMT_SE2", CU_MASK),
    h(0xb868, "COMPUTE_STATIC_THREAD_MGMT_SE3", CU_MASK),
    h(0xb890, "COMPUTE_USER_ACCUM_0", ACCUM),
    h(0xb894, "COMPUTE_USER_ACCUM_1", ACCUM),
    h(0xb898, "COMPUTE_USER_ACCUM_2", ACCUM),
    h(0xb89c, "COMPUTE_USER_ACCUM_3", ACCUM),
    d(COMPUTE_PGM_RSRC3, "COMPUTE_PGM_RSRC3"),
    h(0xb8ac, "COMPUTE_STATIC_THREAD_MGMT_SE4", CU_MASK),
    h(0xb8b0, "COMPUTE_STATIC_THREAD_MGMT_SE5", CU_MASK),
    h(0xb8b4, "COMPUTE_STATIC_THREAD_MGMT_SE6", CU_MASK),
    h(0xb8b8, "COMPUTE_STATIC_THREAD_MGMT_SE7", CU_MASK),
    h(
        0xb8bc,
        "COMPUTE_DISPATCH_INTERLEAVE",
        "how many workgroups go to one SE before the next (placement only)",
    ),
    d(0xb900, "COMPUTE_USER_DATA_0"),
    d(0xb904, "COMPUTE_USER_DATA_1"),
    d(0xb908, "COMPUTE_USER_DATA_2"),
    d(0xb90c, "COMPUTE_USER_DATA_3"),
    d(0xb910, "COMPUTE_USER_DATA_4"),
    d(0xb914, "COMPUTE_USER_DATA_5"),
    d(0xb918, "COMPUTE_USER_DATA_6"),
    d(0xb91c, "COMPUTE_USER_DATA_7"),
    d(0xb920, "COMPUTE_USER_DATA_8"),
    d(0xb924, "COMPUTE_USER_DATA_9"),
    d(0xb928, "COMPUTE_USER_DATA_10"),
    d(0xb92c, "COMPUTE_USER_DATA_11"),
    d(0xb930, "COMPUTE_USER_DATA_12"),
    d(0xb934, "COMPUTE_USER_DATA_13"),
    d(0xb938, "COMPUTE_USER_DATA_14"),
    d(0xb93c, "COMPUTE_USER_DATA_15"),
];

/// SH registers live at byte addresses 0xb000..0xc000 (SET_SH_REG's offsets are dwords from
/// 0xb000; Mesa `sid.h` SI_SH_REG_OFFSET). The graphics stages' SH registers, context
/// registers (0x28000..) and user-config registers (0x30000..) are `graphics`'.
pub const SH_BASE: u32 = 0xb000;

pub fn sh_reg(addr: u32) -> Option<&'static Reg> {
    SH_REGS.iter().find(|r| r.addr == addr)
}

/// Index of a register in the state array (SH space, one slot per dword).
pub fn slot(addr: u32) -> usize {
    ((addr - SH_BASE) / 4) as usize
}
