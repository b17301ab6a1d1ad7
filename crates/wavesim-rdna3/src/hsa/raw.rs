//! The raw dispatch ABI for emulator drop-ins (tinygrad's mock GPU and the like): a dispatch
//! described by the registers a driver programs before a PM4 `DISPATCH_DIRECT`, not by a code
//! object. The caller gives
//! - the code at its host address (bytes after the code, such as descriptors and notes, are
//!   tolerated: they are decoded lazily as far as they go and only fail if executed);
//! - the user SGPR values `COMPUTE_USER_DATA_0..15`, which the wave finds in `s0..` exactly as
//!   the hardware loads them (USER_SGPR_COUNT of them, followed by the system SGPRs RSRC2
//!   enables);
//! - `COMPUTE_PGM_RSRC1/2/3` as programmed, decoded by the layout of LLVM's AMDGPUUsage
//!   ("compute_pgm_rsrc1 for GFX6-GFX12", "compute_pgm_rsrc2 for GFX6-GFX12",
//!   "compute_pgm_rsrc3 for GFX10-GFX11" tables; the same bit positions as LLVM's
//!   `AMDHSAKernelDescriptor.h`): every field either changes the initial wave state as it does
//!   on hardware, is one wavesim honours by construction (see [`ComputeResources::check`]), or
//!   is a [`RawError::Unsupported`] / [`RawError::Reserved`] naming it;
//! - the wave size (`COMPUTE_DISPATCH_INITIATOR.CS_W32_EN`, bit 15 on gfx10+, as the Linux
//!   amdgpu register headers `gc_11_0_0_sh_mask.h` define it; it is not part of RSRC1/2/3);
//! - the scratch bytes per work-item and the target;
//! - optionally the host address ranges the caller mapped for the device. With ranges, an
//!   access outside them is a typed error naming the lane and address
//!   ([`RawError::OutsideHostRanges`]); without, every address is a host address as in
//!   `run_asm` (unsandboxed).

use super::codeobj::{kcp, rsrc2, KernelDescriptor};
use crate::decode::{DecodeError, Inst};
use crate::dispatch::ExecConfig;
use crate::dispatch::{DispatchError, Launch, Rdna3Dispatch};
use crate::exec::operand::{APERTURE_SIZE, PRIVATE_APERTURE};
use crate::exec::{ExecError, Program};
pub use crate::isa::Target;
use crate::trace::{NoObserver, Observer};
use crate::wave::{status, Wave};
use thiserror::Error;
use wavesim_core::engine::{self, Backend, Stop, WaveSlot};
use wavesim_core::memory::{DeviceMemory, MemError};
use wavesim_core::{limits, DispatchStats, Geometry, Location};

/// COMPUTE_USER_DATA registers on gfx11 (COMPUTE_USER_DATA_0..15).
pub const MAX_USER_SGPRS: usize = 16;

/// `COMPUTE_DISPATCH_INITIATOR.CS_W32_EN` (gfx10+): the dispatch runs wave32 (else wave64).
pub const DISPATCH_INITIATOR_CS_W32_EN: u32 = 1 << 15;

/// A bit field of a compute register: name, first bit, width (AMDGPUUsage tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub name: &'static str,
    pub shift: u32,
    pub width: u32,
}

impl Field {
    const fn new(name: &'static str, shift: u32, width: u32) -> Field {
        Field { name, shift, width }
    }

    /// The field's value in `reg`.
    pub fn get(self, reg: u32) -> u32 {
        (reg >> self.shift) & (((1u64 << self.width) - 1) as u32)
    }
}

/// COMPUTE_PGM_RSRC1 on gfx11 (AMDGPUUsage, "compute_pgm_rsrc1 for GFX6-GFX12").
pub mod rsrc1_fields {
    use super::Field;
    pub const GRANULATED_WORKITEM_VGPR_COUNT: Field = Field::new("VGPRS", 0, 6);
    /// GRANULATED_WAVEFRONT_SGPR_COUNT: AMDGPUUsage calls it reserved on gfx10+, yet llc-19
    /// and clang-19 write the granulated count there for gfx11 (e.g. 0x60af0080); the hardware
    /// ignores it (every gfx10+ wave has 106 SGPRs), and so does wavesim.
    pub const SGPRS: Field = Field::new("SGPRS", 6, 4);
    pub const PRIORITY: Field = Field::new("PRIORITY", 10, 2);
    pub const FLOAT_ROUND_MODE_32: Field = Field::new("FLOAT_ROUND_MODE_32", 12, 2);
    pub const FLOAT_ROUND_MODE_16_64: Field = Field::new("FLOAT_ROUND_MODE_16_64", 14, 2);
    pub const FLOAT_DENORM_MODE_32: Field = Field::new("FLOAT_DENORM_MODE_32", 16, 2);
    pub const FLOAT_DENORM_MODE_16_64: Field = Field::new("FLOAT_DENORM_MODE_16_64", 18, 2);
    pub const PRIV: Field = Field::new("PRIV", 20, 1);
    pub const DX10_CLAMP: Field = Field::new("DX10_CLAMP", 21, 1);
    pub const DEBUG_MODE: Field = Field::new("DEBUG_MODE", 22, 1);
    pub const IEEE_MODE: Field = Field::new("IEEE_MODE", 23, 1);
    pub const BULKY: Field = Field::new("BULKY", 24, 1);
    pub const CDBG_USER: Field = Field::new("CDBG_USER", 25, 1);
    pub const FP16_OVFL: Field = Field::new("FP16_OVFL", 26, 1);
    pub const RESERVED_27_28: Field = Field::new("RSRC1[28:27] (reserved)", 27, 2);
    pub const WGP_MODE: Field = Field::new("WGP_MODE", 29, 1);
    pub const MEM_ORDERED: Field = Field::new("MEM_ORDERED", 30, 1);
    pub const FWD_PROGRESS: Field = Field::new("FWD_PROGRESS", 31, 1);
}

/// COMPUTE_PGM_RSRC2 (AMDGPUUsage, "compute_pgm_rsrc2 for GFX6-GFX12"; register names in
/// parentheses where the hardware register calls the field differently).
pub mod rsrc2_fields {
    use super::Field;
    pub const SCRATCH_EN: Field = Field::new("SCRATCH_EN", 0, 1);
    pub const USER_SGPR: Field = Field::new("USER_SGPR_COUNT", 1, 5);
    pub const TRAP_PRESENT: Field = Field::new("TRAP_PRESENT", 6, 1);
    pub const TGID_X_EN: Field = Field::new("TGID_X_EN", 7, 1);
    pub const TGID_Y_EN: Field = Field::new("TGID_Y_EN", 8, 1);
    pub const TGID_Z_EN: Field = Field::new("TGID_Z_EN", 9, 1);
    pub const TG_SIZE_EN: Field = Field::new("TG_SIZE_EN", 10, 1);
    pub const TIDIG_COMP_CNT: Field = Field::new("TIDIG_COMP_CNT", 11, 2);
    pub const EXCP_EN_ADDRESS_WATCH: Field =
        Field::new("EXCP_EN_MSB[0] (ENABLE_EXCEPTION_ADDRESS_WATCH)", 13, 1);
    pub const EXCP_EN_MEMORY: Field = Field::new("EXCP_EN_MSB[1] (ENABLE_EXCEPTION_MEMORY)", 14, 1);
    pub const LDS_SIZE: Field = Field::new("LDS_SIZE", 15, 9);
    /// The seven IEEE/integer exception enables, in MODE.EXCP_EN order.
    pub const EXCP_EN: Field = Field::new("EXCP_EN", 24, 7);
    pub const RESERVED_31: Field = Field::new("RSRC2[31] (reserved)", 31, 1);
}

/// COMPUTE_PGM_RSRC3 on gfx11 (AMDGPUUsage, "compute_pgm_rsrc3 for GFX10-GFX11").
pub mod rsrc3_fields {
    use super::Field;
    pub const SHARED_VGPR_COUNT: Field = Field::new("SHARED_VGPR_COUNT", 0, 4);
    pub const INST_PREF_SIZE: Field = Field::new("INST_PREF_SIZE", 4, 6);
    pub const TRAP_ON_START: Field = Field::new("TRAP_ON_START", 10, 1);
    pub const TRAP_ON_END: Field = Field::new("TRAP_ON_END", 11, 1);
    pub const RESERVED_12_30: Field = Field::new("RSRC3[30:12] (reserved)", 12, 19);
    pub const IMAGE_OP: Field = Field::new("IMAGE_OP", 31, 1);
}

/// What the raw dispatch ABI refuses, each naming the register field or value at fault.
#[derive(Debug, Error)]
pub enum RawError {
    /// A field whose effect wavesim cannot reproduce.
    #[error("COMPUTE_PGM_{register}.{field} = {value} is not supported by wavesim: {why}")]
    Unsupported {
        register: &'static str,
        field: &'static str,
        value: u32,
        why: &'static str,
    },
    /// A reserved field that is not 0.
    #[error("COMPUTE_PGM_{register}: {field} = {value:#x}, must be 0")]
    Reserved {
        register: &'static str,
        field: &'static str,
        value: u32,
    },
    #[error(
        "RSRC2.USER_SGPR_COUNT = {count} needs {count} COMPUTE_USER_DATA values; {given} given \
         (at most {MAX_USER_SGPRS})"
    )]
    UserSgprs { count: u32, given: usize },
    #[error("wave size {0}: 32 or 64 (COMPUTE_DISPATCH_INITIATOR.CS_W32_EN)")]
    WaveSize(u32),
    #[error("unknown target `{0}`: gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151 (or 1100.., 110000..)")]
    Target(String),
    #[error("raw dispatch: {0}")]
    Launch(String),
    #[error("raw dispatch: no code: {0}")]
    Code(#[from] DecodeError),
    #[error("raw dispatch: host address ranges: {0}")]
    Ranges(MemError),
    /// An access outside the host ranges the caller mapped; `error` names the instruction, the
    /// lane and the address.
    #[error("{error} (outside the host address ranges the caller mapped for the device)")]
    OutsideHostRanges { error: DispatchError },
    #[error(transparent)]
    Dispatch(#[from] DispatchError),
}

impl RawError {
    /// The lane and address of an access outside the mapped host ranges.
    pub fn outside_lane_addr(&self) -> Option<(u32, u64)> {
        match self {
            RawError::OutsideHostRanges {
                error:
                    DispatchError::Exec {
                        error: ExecError::MemoryFault { lane, addr, .. },
                        ..
                    },
            } => Some((*lane, *addr)),
            _ => None,
        }
    }
}

/// The target of a name (`gfx1100`) or number (`1100`, or KFD's `gfx_target_version`
/// `110000`, as tinygrad's mock reports it).
pub fn target_from(name_or_number: &str) -> Result<Target, RawError> {
    let s = name_or_number.trim();
    let name = match s.parse::<u32>() {
        Ok(n) if n >= 100_000 => format!("gfx{}{:x}{:x}", n / 10_000, (n / 100) % 100, n % 100),
        Ok(n) => format!("gfx{n}"),
        Err(_) => s.to_ascii_lowercase(),
    };
    Target::from_name(&name).ok_or_else(|| RawError::Target(s.to_string()))
}

/// COMPUTE_PGM_RSRC1/2/3 decoded field by field (gfx11 layout).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ComputeResources {
    // RSRC1
    pub vgpr_granules: u32,
    pub sgpr_granules: u32,
    pub priority: u32,
    pub float_round_32: u32,
    pub float_round_16_64: u32,
    pub float_denorm_32: u32,
    pub float_denorm_16_64: u32,
    pub privileged: bool,
    pub dx10_clamp: bool,
    pub debug_mode: bool,
    pub ieee_mode: bool,
    pub bulky: bool,
    pub cdbg_user: bool,
    pub fp16_ovfl: bool,
    pub rsrc1_reserved: u32,
    pub wgp_mode: bool,
    pub mem_ordered: bool,
    pub fwd_progress: bool,
    // RSRC2
    pub scratch_en: bool,
    pub user_sgpr_count: u32,
    pub trap_present: bool,
    pub workgroup_id: [bool; 3],
    pub tg_size_en: bool,
    /// TIDIG_COMP_CNT: 0 = X, 1 = X and Y, 2 (or 3) = X, Y and Z.
    pub workitem_id_components: u32,
    pub excp_address_watch: bool,
    pub excp_memory: bool,
    /// LDS in 512-byte granules (gfx7-gfx11: 128 dwords).
    pub lds_granules: u32,
    /// MODE.EXCP_EN[6:0]: invalid, input denormal, divide by zero, overflow, underflow,
    /// inexact, integer divide by zero.
    pub excp_en: u32,
    pub rsrc2_reserved: u32,
    // RSRC3
    pub shared_vgpr_count: u32,
    pub inst_pref_size: u32,
    pub trap_on_start: bool,
    pub trap_on_end: bool,
    pub rsrc3_reserved: u32,
    pub image_op: bool,
}

impl ComputeResources {
    /// Splits the three registers into their fields (no checks; see [`ComputeResources::check`]).
    pub fn decode(rsrc1: u32, rsrc2: u32, rsrc3: u32) -> ComputeResources {
        use rsrc1_fields as r1;
        use rsrc2_fields as r2;
        use rsrc3_fields as r3;
        let b = |f: Field, r: u32| f.get(r) != 0;
        ComputeResources {
            vgpr_granules: r1::GRANULATED_WORKITEM_VGPR_COUNT.get(rsrc1),
            sgpr_granules: r1::SGPRS.get(rsrc1),
            priority: r1::PRIORITY.get(rsrc1),
            float_round_32: r1::FLOAT_ROUND_MODE_32.get(rsrc1),
            float_round_16_64: r1::FLOAT_ROUND_MODE_16_64.get(rsrc1),
            float_denorm_32: r1::FLOAT_DENORM_MODE_32.get(rsrc1),
            float_denorm_16_64: r1::FLOAT_DENORM_MODE_16_64.get(rsrc1),
            privileged: b(r1::PRIV, rsrc1),
            dx10_clamp: b(r1::DX10_CLAMP, rsrc1),
            debug_mode: b(r1::DEBUG_MODE, rsrc1),
            ieee_mode: b(r1::IEEE_MODE, rsrc1),
            bulky: b(r1::BULKY, rsrc1),
            cdbg_user: b(r1::CDBG_USER, rsrc1),
            fp16_ovfl: b(r1::FP16_OVFL, rsrc1),
            rsrc1_reserved: r1::RESERVED_27_28.get(rsrc1),
            wgp_mode: b(r1::WGP_MODE, rsrc1),
            mem_ordered: b(r1::MEM_ORDERED, rsrc1),
            fwd_progress: b(r1::FWD_PROGRESS, rsrc1),
            scratch_en: b(r2::SCRATCH_EN, rsrc2),
            user_sgpr_count: r2::USER_SGPR.get(rsrc2),
            trap_present: b(r2::TRAP_PRESENT, rsrc2),
            workgroup_id: [
                b(r2::TGID_X_EN, rsrc2),
                b(r2::TGID_Y_EN, rsrc2),
                b(r2::TGID_Z_EN, rsrc2),
            ],
            tg_size_en: b(r2::TG_SIZE_EN, rsrc2),
            workitem_id_components: r2::TIDIG_COMP_CNT.get(rsrc2),
            excp_address_watch: b(r2::EXCP_EN_ADDRESS_WATCH, rsrc2),
            excp_memory: b(r2::EXCP_EN_MEMORY, rsrc2),
            lds_granules: r2::LDS_SIZE.get(rsrc2),
            excp_en: r2::EXCP_EN.get(rsrc2),
            rsrc2_reserved: r2::RESERVED_31.get(rsrc2),
            shared_vgpr_count: r3::SHARED_VGPR_COUNT.get(rsrc3),
            inst_pref_size: r3::INST_PREF_SIZE.get(rsrc3),
            trap_on_start: b(r3::TRAP_ON_START, rsrc3),
            trap_on_end: b(r3::TRAP_ON_END, rsrc3),
            rsrc3_reserved: r3::RESERVED_12_30.get(rsrc3),
            image_op: b(r3::IMAGE_OP, rsrc3),
        }
    }

    /// Refuses what wavesim cannot honour. Ignored as gfx11 hardware ignores it: SGPRS.
    /// Honoured without a visible effect, because the functional model already behaves that
    /// way: BULKY (a workgroup alone on its compute unit: each host worker runs one workgroup
    /// at a time, so no workgroup shares a worker's LDS or registers), MEM_ORDERED (every access completes in order before
    /// the next instruction, so counter ordering is unobservable), FWD_PROGRESS (the scheduler
    /// gives every wave turns), INST_PREF_SIZE (no instruction cache model), IMAGE_OP (a
    /// graphics-pipeline synchronisation hint). Everything else changes the initial state.
    pub fn check(&self) -> Result<(), RawError> {
        let unsupported = |register, field: Field, value, why| {
            Err(RawError::Unsupported {
                register,
                field: field.name,
                value,
                why,
            })
        };
        let reserved = |register, field: Field, value| {
            Err(RawError::Reserved {
                register,
                field: field.name,
                value,
            })
        };
        const NO_TRAP: &str = "the raw ABI installs no trap handler";
        if self.rsrc1_reserved != 0 {
            return reserved("RSRC1", rsrc1_fields::RESERVED_27_28, self.rsrc1_reserved);
        }
        if self.debug_mode {
            return unsupported(
                "RSRC1",
                rsrc1_fields::DEBUG_MODE,
                1,
                "single-step debug traps need a trap handler; the raw ABI installs none",
            );
        }
        if self.cdbg_user {
            return unsupported(
                "RSRC1",
                rsrc1_fields::CDBG_USER,
                1,
                "debugger-controlled waves are not modelled",
            );
        }
        if self.rsrc2_reserved != 0 {
            return reserved("RSRC2", rsrc2_fields::RESERVED_31, self.rsrc2_reserved);
        }
        if self.trap_present {
            return unsupported("RSRC2", rsrc2_fields::TRAP_PRESENT, 1, NO_TRAP);
        }
        if self.excp_address_watch {
            return unsupported(
                "RSRC2",
                rsrc2_fields::EXCP_EN_ADDRESS_WATCH,
                1,
                "address watch points are not modelled and the raw ABI installs no trap handler",
            );
        }
        if self.excp_memory {
            return unsupported("RSRC2", rsrc2_fields::EXCP_EN_MEMORY, 1, NO_TRAP);
        }
        if self.user_sgpr_count as usize > MAX_USER_SGPRS {
            return unsupported(
                "RSRC2",
                rsrc2_fields::USER_SGPR,
                self.user_sgpr_count,
                "gfx11 has 16 COMPUTE_USER_DATA registers",
            );
        }
        if self.shared_vgpr_count != 0 {
            return unsupported(
                "RSRC3",
                rsrc3_fields::SHARED_VGPR_COUNT,
                self.shared_vgpr_count,
                "shared VGPRs (subvector mode) are not modelled",
            );
        }
        if self.trap_on_start {
            return unsupported("RSRC3", rsrc3_fields::TRAP_ON_START, 1, NO_TRAP);
        }
        if self.trap_on_end {
            return unsupported("RSRC3", rsrc3_fields::TRAP_ON_END, 1, NO_TRAP);
        }
        if self.rsrc3_reserved != 0 {
            return reserved("RSRC3", rsrc3_fields::RESERVED_12_30, self.rsrc3_reserved);
        }
        Ok(())
    }
}

/// One dispatch of the raw ABI.
#[derive(Clone, Copy, Debug)]
pub struct RawDispatch<'a> {
    /// The code: its first byte is the entry point and is executed at its host address. Bytes
    /// after the kernel's last instruction are tolerated.
    pub code: &'a [u8],
    /// Workgroups in X, Y, Z (the `DISPATCH_DIRECT` dimensions).
    pub groups: [u32; 3],
    /// Work-items per workgroup (`COMPUTE_NUM_THREAD_X/Y/Z`).
    pub local: [u32; 3],
    /// `COMPUTE_USER_DATA_0..`: at least RSRC2.USER_SGPR_COUNT values, at most 16.
    pub user_sgprs: &'a [u32],
    pub rsrc1: u32,
    pub rsrc2: u32,
    pub rsrc3: u32,
    /// Wave64 (`COMPUTE_DISPATCH_INITIATOR.CS_W32_EN` = 0) or wave32.
    pub wave64: bool,
    /// Private (scratch) bytes per work-item, used when RSRC2.SCRATCH_EN is set.
    pub scratch_lane_bytes: u32,
    pub target: Target,
    /// The host ranges `(address, bytes)` the caller mapped for the device; `None`: every
    /// address is a host address.
    pub host_ranges: Option<&'a [(u64, u64)]>,
    /// Watchdog: most instructions one wave may execute.
    pub max_wave_insts: u64,
}

/// The engine back end of a raw dispatch: the RDNA3 dispatch, with the user SGPRs and the
/// STATUS fields of RSRC1 put into every wave after the usual initial state.
struct RawBackend<'a> {
    inner: Rdna3Dispatch<'a>,
    user: [u32; MAX_USER_SGPRS],
    user_count: usize,
    /// STATUS bits the CP sets from RSRC1: PRIV [5] and SPI_PRIO [2:1] (= PRIORITY).
    status: u32,
}

impl Backend for RawBackend<'_> {
    type Wave = Wave;
    type Inst = Inst;
    type Group = Vec<u8>;
    type Error = ExecError;
    const END: &'static str = <Rdna3Dispatch as Backend>::END;
    const BARRIER: &'static str = <Rdna3Dispatch as Backend>::BARRIER;

    fn geometry(&self) -> &Geometry {
        self.inner.geometry()
    }
    fn lanes(&self) -> u32 {
        self.inner.lanes()
    }
    fn threads(&self) -> usize {
        self.inner.threads()
    }
    fn max_wave_insts(&self) -> u64 {
        self.inner.max_wave_insts()
    }
    fn quantum(&self) -> u64 {
        self.inner.quantum()
    }
    fn check(&self) -> Result<(), DispatchError> {
        self.inner.check()
    }
    fn new_wave(&self) -> Wave {
        self.inner.new_wave()
    }
    fn new_group(&self) -> Vec<u8> {
        self.inner.new_group()
    }
    fn start_group(&self, lds: &mut Vec<u8>, wg: [u32; 3], waves: u32) {
        self.inner.start_group(lds, wg, waves)
    }
    fn start_wave(&self, w: &mut Wave, at: WaveSlot) {
        // The launch enables no descriptor user SGPRs (code_properties 0), so init_wave puts
        // only the system SGPRs, after USER_SGPR_COUNT; the user SGPRs are the caller's.
        self.inner.start_wave(w, at);
        w.sgpr[..self.user_count].copy_from_slice(&self.user[..self.user_count]);
        w.hw.status |= self.status;
    }
    #[inline]
    fn run_wave<O: Observer<Wave, Inst> + ?Sized>(
        &self,
        w: &mut Wave,
        lds: &mut Vec<u8>,
        mem: &DeviceMemory,
        budget: u64,
        obs: &mut O,
    ) -> Result<Stop, (ExecError, u64)> {
        self.inner.run_wave(w, lds, mem, budget, obs)
    }
    fn wave_insts(&self, w: &Wave) -> u64 {
        self.inner.wave_insts(w)
    }
    fn lane_insts(&self, w: &Wave) -> u64 {
        self.inner.lane_insts(w)
    }
    fn pc(&self, w: &Wave) -> u64 {
        self.inner.pc(w)
    }
    fn location(&self, w: &Wave, pc: u64) -> Location {
        self.inner.location(w, pc)
    }
}

/// Decodes `code` at `base`, ignoring what follows the last whole instruction (descriptors,
/// notes, padding that ends inside an instruction); such bytes only fail if executed.
fn decode_tolerant(code: &[u8], base: u64, target: Target) -> Result<Program, RawError> {
    let mut len = code.len() & !3;
    loop {
        match Program::new_for(&code[..len], base, target) {
            Ok(p) if !p.insts.is_empty() => return Ok(p),
            Ok(_) => return Err(RawError::Launch("no code (fewer than 4 bytes)".into())),
            Err(DecodeError::Truncated { offset, .. }) if offset > 0 && offset < len => {
                len = offset
            }
            Err(e) => return Err(e.into()),
        }
    }
}

/// Runs a raw dispatch.
///
/// # Safety
/// The code bytes and every address the kernel touches must be valid host memory for the
/// access, and nothing else may access that memory while the kernel runs; with `host_ranges`
/// this is required of the ranges only (accesses outside them are errors).
pub unsafe fn run(d: &RawDispatch) -> Result<DispatchStats, RawError> {
    // SAFETY: forwarded to the caller (documented above).
    unsafe { run_partial(d, [0; 3]) }
}

/// Runs a raw dispatch with `COMPUTE_DISPATCH_INITIATOR.PARTIAL_TG_EN`: the last workgroup of
/// dimension `k` has `partial[k]` work-items in it (`COMPUTE_NUM_THREAD_*.NUM_THREAD_PARTIAL`)
/// when that is non-zero, the others `local[k]`. That is an HSA grid of
/// `(groups - 1) * local + partial` work-items, whose partial last workgroups the dispatch
/// already lays out (fewer waves; EXEC of the last wave covers only its work-items).
///
/// # Safety
/// As for [`run`].
pub unsafe fn run_partial(d: &RawDispatch, partial: [u32; 3]) -> Result<DispatchStats, RawError> {
    let res = ComputeResources::decode(d.rsrc1, d.rsrc2, d.rsrc3);
    res.check()?;
    let count = res.user_sgpr_count as usize;
    if d.user_sgprs.len() < count || d.user_sgprs.len() > MAX_USER_SGPRS {
        return Err(RawError::UserSgprs {
            count: res.user_sgpr_count,
            given: d.user_sgprs.len(),
        });
    }
    let mut grid = super::launch::grid_of(d.groups, d.local).map_err(RawError::Launch)?;
    for k in 0..3 {
        if partial[k] > d.local[k] {
            return Err(RawError::Launch(format!(
                "dimension {k}: {} work-items in the partial workgroup, more than the {} of a full one",
                partial[k], d.local[k]
            )));
        }
        if partial[k] != 0 {
            // grid_of checked groups * local; this is smaller.
            grid[k] = grid[k] - d.local[k] + partial[k];
        }
    }
    let geo = Geometry::new(&grid, &d.local).map_err(DispatchError::from)?;
    let base = d.code.as_ptr() as u64;
    let prog = super::progcache::program(
        d.code,
        base,
        d.target,
        super::progcache::Decoding::Tolerant,
        || decode_tolerant(d.code, base, d.target),
    )?;

    // The descriptor a compiler would have written for these registers: MODE, the VGPR
    // allocation and WGP mode come from the same decoding a code object's launch uses.
    let desc = KernelDescriptor {
        compute_pgm_rsrc1: d.rsrc1,
        compute_pgm_rsrc2: d.rsrc2,
        compute_pgm_rsrc3: d.rsrc3,
        kernel_code_properties: if d.wave64 {
            0
        } else {
            kcp::ENABLE_WAVEFRONT_SIZE32
        },
        ..KernelDescriptor::default()
    };
    let scratch_lane_bytes = if res.scratch_en {
        limits::scratch_lane_bytes("scratch bytes per work-item", d.scratch_lane_bytes as u64)
            .map_err(|e| RawError::Launch(e.to_string()))?
    } else {
        0
    };
    let mut launch = Launch {
        kernel_name: "raw dispatch".into(),
        prog: &prog,
        entry: base,
        pc_display_base: base,
        wave64: d.wave64,
        num_vgprs: desc.vgpr_count().clamp(1, 256) as u16,
        mode: desc.initial_mode(),
        // No descriptor user SGPRs: the caller's COMPUTE_USER_DATA values go to s0.. instead.
        code_properties: 0,
        rsrc2: d.rsrc2 & !rsrc2::ENABLE_TRAP_HANDLER,
        packed_tid: true,
        geo,
        lds_bytes: res.lds_granules * 512,
        wgp_mode: desc.wgp_mode(),
        scratch_lane_bytes,
        scratch_addr: 0,
        kernarg_addr: 0,
        dispatch_ptr: 0,
        queue_ptr: 0,
        dispatch_id: 0,
        // Workgroups on every core, as the CLI and run_asm run them (identical results for
        // race-free kernels; `WAVESIM_THREADS=1` or `engine::set_default_threads(1)` runs them
        // one after another, in order). The scratch buffer below has a slot per worker.
        threads: wavesim_core::engine::default_threads(),
        max_wave_insts: d.max_wave_insts,
        cfg: ExecConfig::default(),
        trap: None,
        host: None,
    };
    // Scratch on the host (8-byte words: host mode accesses memory with atomics of up to 8
    // bytes); with host ranges it becomes one more range.
    let words = usize::try_from(launch.scratch_bytes().div_ceil(8))
        .map_err(|_| RawError::Launch("scratch too large".into()))?;
    let mut scratch: Vec<u64> = Vec::new();
    scratch
        .try_reserve_exact(words)
        .map_err(|_| RawError::Launch(format!("cannot allocate {} scratch bytes", words * 8)))?;
    scratch.resize(words, 0);
    if words > 0 {
        launch.scratch_addr = scratch.as_mut_ptr() as u64;
    }
    let mem = match d.host_ranges {
        None => {
            // SAFETY: forwarded to the caller (documented above).
            unsafe { DeviceMemory::host() }
        }
        Some(ranges) => {
            let mut all = ranges.to_vec();
            if words > 0 {
                all.push((launch.scratch_addr, (words * 8) as u64));
            }
            // SAFETY: the caller vouches for its ranges; the scratch range is ours, alive
            // until the dispatch ends.
            unsafe { DeviceMemory::host_ranges(&all) }.map_err(RawError::Ranges)?
        }
    };
    let mut user = [0u32; MAX_USER_SGPRS];
    user[..count].copy_from_slice(&d.user_sgprs[..count]);
    let backend = RawBackend {
        inner: Rdna3Dispatch::new(&launch),
        user,
        user_count: count,
        status: if res.privileged { status::PRIV } else { 0 } | (res.priority << 1),
    };
    let r = engine::run(&backend, &mem, &mut NoObserver);
    // A fault is "outside the ranges" when the access is not wholly inside one of them (it may
    // start inside one and end past it); a private-segment fault (an offset beyond the lane's
    // scratch, reported in the private aperture) is not.
    let outside = |addr: u64, size: u32| {
        mem.find(addr, size.max(1) as u64).is_err()
            && addr.wrapping_sub(PRIVATE_APERTURE) >= APERTURE_SIZE
            && d.host_ranges.is_some()
    };
    let r = match r {
        Ok(stats) => Ok(stats),
        Err(
            error @ DispatchError::Exec {
                error: ExecError::MemoryFault { addr, size, .. },
                ..
            },
        ) if outside(addr, size) => Err(RawError::OutsideHostRanges { error }),
        Err(e) => Err(e.into()),
    };
    drop(backend);
    drop(scratch);
    r
}
