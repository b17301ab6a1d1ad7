//! Dispatch: a grid of work-items -> workgroups -> waves, each wave started with the state the
//! hardware gives a compute wave (seed 000, "Initial wave state"; AMDGPUUsage, "Initial Kernel
//! Execution State"), and the waves of a workgroup run together with a shared LDS and s_barrier
//! (seed 002, "Workgroups").
//!
//! Scheduling is deterministic: workgroups in x-fastest order, and inside a workgroup the waves
//! take turns (round robin) for at most [`QUANTUM`] instructions or until they reach s_barrier or
//! s_endpgm. With `threads > 1` workgroups run on a rayon pool; race-free kernels give identical
//! results, and the error reported is always the one of the lowest-numbered failing workgroup.

use crate::codeobj::{kcp, rsrc2, KernArg, ValueKind};
use crate::decode::Inst;
use crate::exec::operand::{PRIVATE_APERTURE, SHARED_APERTURE};
use crate::exec::{self, Ctx, ExecConfig, ExecError, Flow, Program};
use crate::trace::{InstLoc, NoObserver, Observer};
use crate::wave::{status, Wave};
use std::borrow::Cow;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use thiserror::Error;
use wavesim_core::memory::DeviceMemory;

/// Instructions a wave runs before the next wave of its workgroup gets a turn (so a wave that
/// spins on a flag another wave sets still makes progress).
pub const QUANTUM: u64 = 4096;
/// Most work-items in one workgroup (seed 002).
pub const MAX_WORKGROUP_ITEMS: u32 = 1024;
/// LDS one workgroup may use (seed 002: up to 64 KiB in CU and in WGP mode).
pub const MAX_LDS_BYTES: u32 = 65536;
/// LDS is allocated in 1024-byte blocks (seed 000, "LDS"); accesses inside the last block are in
/// range, as on hardware.
pub const LDS_GRANULE: u32 = 1024;
/// Default watchdog: wave-instructions one wave may execute.
pub const DEFAULT_MAX_WAVE_INSTRUCTIONS: u64 = 100_000_000;
/// FLAT_SCRATCH must be 256-byte aligned (seed 000, "FLAT_SCRATCH").
pub const SCRATCH_WAVE_ALIGN: u64 = 256;

/// Where something went wrong: enough for a user to find it in the disassembly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub kernel: String,
    pub workgroup: [u32; 3],
    /// Wave index inside the workgroup.
    pub wave: u32,
    /// Address of the instruction in the code object (ELF virtual address for code objects), or
    /// its offset from TBA when `trap_handler` is set.
    pub pc: u64,
    /// The instruction as the disassembler prints it (empty when the PC is not an instruction).
    pub inst: String,
    /// The PC is in the installed trap handler, not in the kernel's code.
    pub trap_handler: bool,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x, y, z] = self.workgroup;
        write!(
            f,
            "kernel {}, workgroup ({x},{y},{z}), wave {}, PC {:#x}",
            self.kernel, self.wave, self.pc
        )?;
        if self.trap_handler {
            write!(f, " in the trap handler")?;
        }
        if !self.inst.is_empty() {
            write!(f, " `{}`", self.inst)?;
        }
        Ok(())
    }
}

/// Why a dispatch failed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DispatchError {
    #[error("invalid dispatch: {0}")]
    BadLaunch(String),
    #[error("{at}: {error}")]
    Exec { at: Box<Location>, error: ExecError },
    #[error("{at}: watchdog: {limit} instructions executed without reaching s_endpgm")]
    Watchdog { at: Box<Location>, limit: u64 },
    #[error(
        "{at}: barrier deadlock: waves {waiting:?} wait at s_barrier while this wave ran \
         {limit} instructions without reaching it"
    )]
    BarrierDeadlock {
        at: Box<Location>,
        waiting: Vec<u32>,
        limit: u64,
    },
}

/// Counters of one dispatch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DispatchStats {
    pub workgroups: u64,
    pub waves: u64,
    /// Instructions executed, counted once per wave.
    pub wave_instructions: u64,
    /// Instructions executed, counted once per active lane (EXEC bits at issue).
    pub lane_instructions: u64,
    pub elapsed: Duration,
}

/// Grid shape of a dispatch, in work-items (as AQL and OpenCL count).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Geometry {
    pub grid: [u32; 3],
    pub local: [u32; 3],
    /// Number of dimensions the user gave (1..=3): `hidden_grid_dims` and the packet's setup.
    pub dims: u16,
    /// OpenCL global work offset (`hidden_global_offset_*`).
    pub offset: [u64; 3],
}

impl Geometry {
    /// A geometry of `dims` dimensions; missing trailing dimensions are 1.
    pub fn new(grid: &[u32], local: &[u32]) -> Result<Geometry, DispatchError> {
        let bad = |m: String| Err(DispatchError::BadLaunch(m));
        if grid.is_empty() || grid.len() > 3 || local.len() > 3 {
            return bad("the grid has 1 to 3 dimensions".into());
        }
        if !local.is_empty() && local.len() != grid.len() {
            return bad(format!(
                "--global has {} dimensions but --local has {}",
                grid.len(),
                local.len()
            ));
        }
        let mut g = [1u32; 3];
        let mut l = [1u32; 3];
        g[..grid.len()].copy_from_slice(grid);
        l[..local.len()].copy_from_slice(local);
        let geo = Geometry {
            grid: g,
            local: l,
            dims: grid.len() as u16,
            offset: [0; 3],
        };
        geo.check()?;
        Ok(geo)
    }

    fn check(&self) -> Result<(), DispatchError> {
        let bad = |m: String| Err(DispatchError::BadLaunch(m));
        if self.grid.contains(&0) {
            return bad(format!("grid size {:?} has a zero dimension", self.grid));
        }
        if self.local.contains(&0) {
            return bad(format!(
                "workgroup size {:?} has a zero dimension",
                self.local
            ));
        }
        if !(1..=3).contains(&self.dims) {
            return bad(format!("{} grid dimensions", self.dims));
        }
        let items = self.local.iter().map(|&v| v as u64).product::<u64>();
        if items > MAX_WORKGROUP_ITEMS as u64 {
            return bad(format!(
                "workgroup of {items} work-items ({}x{}x{}); at most {MAX_WORKGROUP_ITEMS}",
                self.local[0], self.local[1], self.local[2]
            ));
        }
        Ok(())
    }

    /// Workgroups per dimension (the last one may be partial).
    pub fn workgroups(&self) -> [u32; 3] {
        [0, 1, 2].map(|i| self.grid[i].div_ceil(self.local[i]))
    }

    /// Work-items of workgroup `wg` per dimension (smaller at the grid's upper edge).
    pub fn items_in(&self, wg: [u32; 3]) -> [u32; 3] {
        [0, 1, 2].map(|i| {
            let start = wg[i] as u64 * self.local[i] as u64;
            (self.grid[i] as u64 - start).min(self.local[i] as u64) as u32
        })
    }

    /// Waves of a full workgroup.
    pub fn max_waves_per_group(&self, wave64: bool) -> u32 {
        let items = self.local[0] * self.local[1] * self.local[2];
        items.div_ceil(if wave64 { 64 } else { 32 })
    }
}

/// The hidden kernel arguments (code object v5 implicit arguments) of a dispatch.
#[derive(Debug, Clone, Copy, Default)]
pub struct HiddenValues {
    pub dynamic_lds: u32,
    pub queue_ptr: u64,
    /// Buffers the runtime would provide (printf, hostcall, heap); 0 = none (a kernel that uses
    /// one then faults at address 0, which names the problem).
    pub printf_buffer: u64,
    pub hostcall_buffer: u64,
    pub heap_v1: u64,
}

/// Writes every hidden argument of `args` into `kernarg` (code object v5 semantics; AMDGPUUsage,
/// "Code Object V5 Metadata", and the device libraries: `hidden_block_count_*` counts the full
/// workgroups, `hidden_remainder_*` the work-items of the partial last one, so that
/// `get_local_size` = id < block_count ? group_size : remainder).
pub fn write_hidden_args(kernarg: &mut [u8], args: &[KernArg], geo: &Geometry, h: &HiddenValues) {
    for a in args {
        let v: u64 = match &a.kind {
            ValueKind::HiddenBlockCountX => (geo.grid[0] / geo.local[0]) as u64,
            ValueKind::HiddenBlockCountY => (geo.grid[1] / geo.local[1]) as u64,
            ValueKind::HiddenBlockCountZ => (geo.grid[2] / geo.local[2]) as u64,
            ValueKind::HiddenGroupSizeX => geo.local[0] as u64,
            ValueKind::HiddenGroupSizeY => geo.local[1] as u64,
            ValueKind::HiddenGroupSizeZ => geo.local[2] as u64,
            ValueKind::HiddenRemainderX => (geo.grid[0] % geo.local[0]) as u64,
            ValueKind::HiddenRemainderY => (geo.grid[1] % geo.local[1]) as u64,
            ValueKind::HiddenRemainderZ => (geo.grid[2] % geo.local[2]) as u64,
            ValueKind::HiddenGlobalOffsetX => geo.offset[0],
            ValueKind::HiddenGlobalOffsetY => geo.offset[1],
            ValueKind::HiddenGlobalOffsetZ => geo.offset[2],
            ValueKind::HiddenGridDims => geo.dims as u64,
            ValueKind::HiddenDynamicLdsSize => h.dynamic_lds as u64,
            // High halves of the flat apertures (the 64-bit aperture bases have zero low halves).
            ValueKind::HiddenPrivateBase => PRIVATE_APERTURE >> 32,
            ValueKind::HiddenSharedBase => SHARED_APERTURE >> 32,
            ValueKind::HiddenQueuePtr => h.queue_ptr,
            ValueKind::HiddenPrintfBuffer => h.printf_buffer,
            ValueKind::HiddenHostcallBuffer => h.hostcall_buffer,
            ValueKind::HiddenHeapV1 => h.heap_v1,
            // No device-side enqueue, completion actions or multi-grid sync: null.
            ValueKind::HiddenDefaultQueue
            | ValueKind::HiddenCompletionAction
            | ValueKind::HiddenMultigridSyncArg
            | ValueKind::HiddenNone => 0,
            _ => continue,
        };
        let (off, size) = (a.offset as usize, (a.size as usize).min(8));
        if let Some(dst) = kernarg.get_mut(off..off + size) {
            dst.copy_from_slice(&v.to_le_bytes()[..size]);
        }
    }
}

/// The 64-byte AQL kernel dispatch packet (hsa_kernel_dispatch_packet_t) the dispatch pointer
/// SGPRs point to; code object v4 kernels read the workgroup and grid sizes from it.
pub fn aql_packet(
    geo: &Geometry,
    private_segment_size: u32,
    group_segment_size: u32,
    kernel_object: u64,
    kernarg_address: u64,
) -> [u8; 64] {
    let mut p = [0u8; 64];
    // Header: packet type KERNEL_DISPATCH (2), system-scope acquire and release fences.
    let header: u16 = 2 | (2 << 9) | (2 << 11);
    p[0..2].copy_from_slice(&header.to_le_bytes());
    p[2..4].copy_from_slice(&geo.dims.to_le_bytes());
    for i in 0..3 {
        p[4 + 2 * i..6 + 2 * i].copy_from_slice(&(geo.local[i] as u16).to_le_bytes());
        p[12 + 4 * i..16 + 4 * i].copy_from_slice(&geo.grid[i].to_le_bytes());
    }
    p[24..28].copy_from_slice(&private_segment_size.to_le_bytes());
    p[28..32].copy_from_slice(&group_segment_size.to_le_bytes());
    p[32..40].copy_from_slice(&kernel_object.to_le_bytes());
    p[40..48].copy_from_slice(&kernarg_address.to_le_bytes());
    p
}

/// TBA must be 256-byte aligned: the SQ_SHADER_TBA registers hold address bits [47:8].
pub const TBA_ALIGN: u64 = 256;

/// A trap handler installed for a dispatch, as the driver installs one per process: code at TBA
/// and a data area at TMA (seed 000, "Trap and exception registers": TBA/TMA are shared by all
/// waves and read-only to them, reachable with s_sendmsg_rtn_b64 MSG_RTN_GET_TBA/TMA). With one
/// installed the CP sets COMPUTE_PGM_RSRC2.TRAP_PRESENT (AMDGPUUsage: the descriptor's
/// ENABLE_TRAP_HANDLER bit must be 0 and "represents" it), so every wave starts with
/// STATUS.TRAP_EN = 1: s_trap, MEMVIOL, illegal instructions and the exceptions MODE.EXCP_EN
/// enables enter the handler at TBA with STATUS.PRIV set, and s_rfe_b64 returns.
#[derive(Clone, Copy, Debug)]
pub struct TrapHandler<'a> {
    /// The handler's code, decoded with its first byte at `tba` (`Program::new(code, tba)`).
    pub prog: &'a Program,
    /// Device address of the handler's first instruction (256-byte aligned).
    pub tba: u64,
    /// Device address of the handler's data (whatever the handler makes of it; 0 = none).
    pub tma: u64,
}

/// Everything that is the same for every wave of a dispatch.
#[derive(Clone, Debug)]
pub struct Launch<'a> {
    /// For errors.
    pub kernel_name: String,
    pub prog: &'a Program,
    /// Address of the first instruction (the same address space as `prog`).
    pub entry: u64,
    /// Subtracted from PCs in error messages (the load base, so they match the ELF/objdump).
    pub pc_display_base: u64,
    pub wave64: bool,
    /// VGPRs each wave is allocated.
    pub num_vgprs: u16,
    /// Initial MODE register.
    pub mode: u32,
    /// kernel_code_properties: which user SGPRs to preload.
    pub code_properties: u16,
    /// COMPUTE_PGM_RSRC2: USER_SGPR_COUNT, workgroup id / info enables, private segment,
    /// VGPR work-item id count.
    pub rsrc2: u32,
    /// gfx11 packs the work-item ids in v0 (x | y << 10 | z << 20); else v0, v1, v2.
    pub packed_tid: bool,
    pub geo: Geometry,
    /// LDS bytes per workgroup (static + dynamic).
    pub lds_bytes: u32,
    /// WGP mode (else CU mode); both give a workgroup up to 64 KiB of LDS.
    pub wgp_mode: bool,
    /// Private bytes per work-item (0: no scratch).
    pub scratch_lane_bytes: u32,
    /// Device address of the scratch area of [`Launch::scratch_bytes`] bytes.
    pub scratch_addr: u64,
    pub kernarg_addr: u64,
    pub dispatch_ptr: u64,
    pub queue_ptr: u64,
    pub dispatch_id: u64,
    /// Host threads running workgroups (1 = in order on the calling thread).
    pub threads: usize,
    /// Watchdog: most instructions one wave may execute.
    pub max_wave_insts: u64,
    pub cfg: ExecConfig,
    /// The trap handler, if one is installed (STATUS.TRAP_EN, TBA, TMA; see [`TrapHandler`]).
    pub trap: Option<TrapHandler<'a>>,
}

impl Launch<'_> {
    fn lanes(&self) -> u64 {
        if self.wave64 {
            64
        } else {
            32
        }
    }

    /// Scratch bytes of one wave (256-byte aligned so every wave's FLAT_SCRATCH is).
    pub fn wave_scratch_bytes(&self) -> u64 {
        (self.lanes() * self.scratch_lane_bytes as u64).next_multiple_of(SCRATCH_WAVE_ALIGN)
    }

    /// Scratch slots: one per host thread that may run a workgroup at the same time.
    fn slots(&self) -> u64 {
        let wgs = self
            .geo
            .workgroups()
            .iter()
            .map(|&v| v as u64)
            .product::<u64>();
        if self.threads <= 1 || wgs == 1 {
            1
        } else {
            self.threads as u64
        }
    }

    /// Device bytes the caller must provide at `scratch_addr`: one workgroup's scratch per host
    /// thread (a thread runs one workgroup at a time).
    pub fn scratch_bytes(&self) -> u64 {
        if self.scratch_lane_bytes == 0 {
            return 0;
        }
        self.slots() * self.geo.max_waves_per_group(self.wave64) as u64 * self.wave_scratch_bytes()
    }

    /// LDS allocated per workgroup (whole 1024-byte blocks).
    pub fn lds_alloc(&self) -> usize {
        self.lds_bytes.next_multiple_of(LDS_GRANULE) as usize
    }

    fn check(&self) -> Result<(), DispatchError> {
        self.geo.check()?;
        let bad = |m: String| Err(DispatchError::BadLaunch(m));
        if self.lds_bytes > MAX_LDS_BYTES {
            return bad(format!(
                "{} bytes of LDS per workgroup (static + dynamic); at most {MAX_LDS_BYTES}",
                self.lds_bytes
            ));
        }
        if self.num_vgprs == 0 || self.num_vgprs > 256 {
            return bad(format!("{} VGPRs per wave; 1 to 256", self.num_vgprs));
        }
        if self.prog.index_at(self.entry).is_none() {
            return bad(format!(
                "entry point {:#x} is not an instruction",
                self.entry.wrapping_sub(self.pc_display_base)
            ));
        }
        if self.max_wave_insts == 0 {
            return bad("the instruction limit is 0".into());
        }
        if let Some(t) = &self.trap {
            if t.tba % TBA_ALIGN != 0 || t.tba & !PC_MASK != 0 {
                return bad(format!(
                    "trap handler address (TBA) {:#x} is not a 48-bit address aligned to \
                     {TBA_ALIGN} bytes",
                    t.tba
                ));
            }
            if t.prog.index_at(t.tba).is_none() {
                return bad(format!(
                    "the trap handler's code does not start with an instruction at TBA {:#x}",
                    t.tba
                ));
            }
            let (a, b) = (code_range(self.prog), code_range(t.prog));
            if a.start < b.end && b.start < a.end {
                return bad("the trap handler's code overlaps the kernel's code".into());
            }
        }
        Ok(())
    }

    fn location(&self, w: &Wave, pc: u64) -> Box<Location> {
        // The handler's code, when the PC lies there; its PCs are shown relative to TBA.
        let in_trap = self
            .trap
            .as_ref()
            .filter(|t| code_range(t.prog).contains(&pc));
        let (prog, base) = match in_trap {
            Some(t) => (t.prog, t.tba),
            None => (self.prog, self.pc_display_base),
        };
        let inst = match prog.index_at(pc) {
            Some(i) => inst_text(&prog.insts[i], pc, w.wave64),
            None => String::new(),
        };
        Box::new(Location {
            kernel: self.kernel_name.clone(),
            workgroup: w.workgroup,
            wave: w.wave_id,
            pc: pc.wrapping_sub(base),
            inst,
            trap_handler: in_trap.is_some(),
        })
    }
}

/// PCs are 48-bit byte addresses (seed 000, {TTMP1, TTMP0} holds PC[47:0]).
const PC_MASK: u64 = (1 << 48) - 1;

/// The byte addresses a program's code covers.
fn code_range(p: &Program) -> std::ops::Range<u64> {
    p.base..p.base + 4 * p.index_of_dword.len().saturating_sub(1) as u64
}

/// The text of an instruction for error messages, as llvm-objdump prints it.
fn inst_text(inst: &Inst, pc: u64, wave64: bool) -> String {
    crate::disasm::format(inst, pc, wave64)
}

/// Sets up `w` as wave `wave_idx` of `n_waves` of workgroup `wg` (seed 000, "Initial wave
/// state": SGPRs are packed in order, only enabled values are loaded; EXEC = the lanes that hold
/// work-items; FLAT_SCRATCH = the wave's scratch or 0).
pub fn init_wave(w: &mut Wave, l: &Launch, wg: [u32; 3], wave_idx: u32, n_waves: u32, slot: u64) {
    w.pc = l.entry;
    w.sgpr = [0; 128];
    w.scc = false;
    w.vgpr.fill(0);
    w.hw = Default::default();
    w.hw.mode = l.mode;
    w.wave_id = wave_idx;
    w.workgroup = wg;
    w.wave_insts = 0;
    w.lane_insts = 0;
    w.ended = false;
    w.cnt = Default::default();
    // Trap handler: TBA/TMA and STATUS.TRAP_EN (COMPUTE_PGM_RSRC2.TRAP_PRESENT, set by the CP
    // when the runtime installed a handler); without one s_trap is a NOP and errors end the
    // dispatch (seed 000, "STATUS.TRAP_EN").
    match &l.trap {
        Some(t) => {
            w.tba = t.tba;
            w.tma = t.tma;
            w.hw.status |= status::TRAP_EN;
        }
        None => {
            w.tba = 0;
            w.tma = 0;
        }
    }

    // Scratch of this wave.
    let wave_scratch = l.wave_scratch_bytes();
    let slot_bytes = l.geo.max_waves_per_group(l.wave64) as u64 * wave_scratch;
    let scratch_offset = slot * slot_bytes + wave_idx as u64 * wave_scratch;
    if l.scratch_lane_bytes != 0 {
        w.scratch_base = l.scratch_addr + scratch_offset;
        w.scratch_lane_bytes = l.scratch_lane_bytes;
    } else {
        w.scratch_base = 0;
        w.scratch_lane_bytes = 0;
    }
    exec::flat::init_flat_scratch(w);

    // User SGPRs, in the order of AMDGPUUsage "Initial Kernel Execution State".
    let mut s = 0usize;
    let mut put = |w: &mut Wave, vals: &[u32]| {
        for &v in vals {
            if s < 106 {
                w.sgpr[s] = v;
            }
            s += 1;
        }
    };
    let lo_hi = |v: u64| [v as u32, (v >> 32) as u32];
    let p = l.code_properties;
    if p & kcp::ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER != 0 {
        // A V# covering the dispatch's scratch area; the wave adds its wave offset SGPR.
        let base = l.scratch_addr;
        put(
            w,
            &[
                base as u32,
                (base >> 32) as u32 & 0xffff,
                l.scratch_bytes().min(u32::MAX as u64) as u32,
                0,
            ],
        );
    }
    if p & kcp::ENABLE_SGPR_DISPATCH_PTR != 0 {
        put(w, &lo_hi(l.dispatch_ptr));
    }
    if p & kcp::ENABLE_SGPR_QUEUE_PTR != 0 {
        put(w, &lo_hi(l.queue_ptr));
    }
    if p & kcp::ENABLE_SGPR_KERNARG_SEGMENT_PTR != 0 {
        put(w, &lo_hi(l.kernarg_addr));
    }
    if p & kcp::ENABLE_SGPR_DISPATCH_ID != 0 {
        put(w, &lo_hi(l.dispatch_id));
    }
    if p & kcp::ENABLE_SGPR_FLAT_SCRATCH_INIT != 0 {
        put(w, &lo_hi(w.scratch_base));
    }
    if p & kcp::ENABLE_SGPR_PRIVATE_SEGMENT_SIZE != 0 {
        put(w, &[l.scratch_lane_bytes]);
    }
    // System SGPRs start right after USER_SGPR_COUNT user SGPRs.
    let r2 = l.rsrc2;
    let mut s = ((r2 >> rsrc2::USER_SGPR_COUNT_SHIFT) & rsrc2::USER_SGPR_COUNT_MASK) as usize;
    let mut put = |w: &mut Wave, v: u32| {
        if s < 106 {
            w.sgpr[s] = v;
        }
        s += 1;
    };
    if r2 & rsrc2::ENABLE_SGPR_WORKGROUP_ID_X != 0 {
        put(w, wg[0]);
    }
    if r2 & rsrc2::ENABLE_SGPR_WORKGROUP_ID_Y != 0 {
        put(w, wg[1]);
    }
    if r2 & rsrc2::ENABLE_SGPR_WORKGROUP_ID_Z != 0 {
        put(w, wg[2]);
    }
    if r2 & rsrc2::ENABLE_SGPR_WORKGROUP_INFO != 0 {
        // {first_wave[31], ordered_append_term[16:6] = 0, threadgroup_size_in_waves[5:0]}
        put(w, (u32::from(wave_idx == 0) << 31) | (n_waves & 0x3f));
    }
    if r2 & rsrc2::ENABLE_PRIVATE_SEGMENT != 0 {
        put(w, scratch_offset as u32);
    }

    // Work-item ids and EXEC.
    let items = l.geo.items_in(wg);
    let n_items = items[0] * items[1] * items[2];
    let lanes = if l.wave64 { 64 } else { 32 };
    let id_count = ((r2 >> rsrc2::ENABLE_VGPR_WORKITEM_ID_SHIFT) & 3).min(2) + 1;
    let mut exec = 0u64;
    // Flat work-item index f = wave_idx * lanes + lane = x + items[0] * (y + items[1] * z);
    // divide once for the first lane, then step x, y, z like an odometer.
    let f0 = wave_idx * lanes;
    let (mut x, mut y, mut z) = (
        f0 % items[0],
        (f0 / items[0]) % items[1],
        f0 / (items[0] * items[1]),
    );
    for lane in 0..lanes {
        if f0 + lane >= n_items {
            break;
        }
        exec |= 1 << lane;
        let (cx, cy, cz) = (x, y, z);
        x += 1;
        if x == items[0] {
            x = 0;
            y += 1;
            if y == items[1] {
                y = 0;
                z += 1;
            }
        }
        let (x, y, z) = (cx, cy, cz);
        let (y, z) = (
            if id_count >= 2 { y } else { 0 },
            if id_count >= 3 { z } else { 0 },
        );
        let lane = lane as usize;
        if l.packed_tid {
            w.vgpr_set(0, lane, x | y << 10 | z << 20);
        } else {
            w.vgpr_set(0, lane, x);
            if id_count >= 2 {
                w.vgpr_set(1, lane, y);
            }
            if id_count >= 3 {
                w.vgpr_set(2, lane, z);
            }
        }
    }
    w.set_exec(exec);
}

/// How a wave's turn ended.
enum Stop {
    Barrier,
    End,
    Quantum,
}

/// One instruction of a [`Linked`] program: its handler, resolved once per dispatch, and the
/// address of the instruction after it.
#[derive(Clone, Copy)]
struct Slot {
    handler: exec::Handler,
    next_pc: u64,
}

/// A program prepared for the hot loop: the handler of every instruction looked up once, so
/// stepping is an indexed load and an indirect call. The instruction index follows the PC:
/// after `Flow::Next` it is the next index, and only a jump looks the new PC up.
///
/// With a trap handler installed the handler's instructions follow the kernel's, after a
/// sentinel that stops a wave falling off the end of the kernel's code (so it never flows into
/// the handler); without one the kernel's instructions are borrowed as they are.
struct Linked<'a> {
    prog: &'a Program,
    trap: Option<&'a Program>,
    insts: Cow<'a, [Inst]>,
    pcs: Cow<'a, [u64]>,
    slots: Vec<Slot>,
    /// Subtracted from kernel PCs / trap handler PCs for observers ([`InstLoc::pc`]).
    pc_base: u64,
    tba: u64,
}

/// The sentinel after the kernel's last instruction (see [`Linked`]); `w.pc` is the address
/// right after that instruction.
fn past_the_end(w: &mut Wave, _: &Inst, _: &mut Ctx) -> Result<Flow, ExecError> {
    Err(ExecError::PcOutOfCode { pc: w.pc })
}

impl<'a> Linked<'a> {
    fn new(prog: &'a Program, trap: Option<&'a Program>) -> Linked<'a> {
        let slot = |(inst, &pc): (&Inst, &u64)| Slot {
            handler: exec::handler_for(inst),
            next_pc: pc + inst.len as u64,
        };
        let mut slots: Vec<Slot> = prog.insts.iter().zip(&prog.pcs).map(slot).collect();
        let Some(t) = trap else {
            return Linked {
                prog,
                trap,
                insts: Cow::Borrowed(&prog.insts),
                pcs: Cow::Borrowed(&prog.pcs),
                slots,
                pc_base: 0,
                tba: 0,
            };
        };
        let end = code_range(prog).end;
        let mut insts = prog.insts.clone();
        let mut pcs = prog.pcs.clone();
        // Any instruction will do for the sentinel: its handler ignores it.
        if let Some(&any) = prog.insts.first().or(t.insts.first()) {
            insts.push(any);
            pcs.push(end);
            slots.push(Slot {
                handler: past_the_end,
                next_pc: end,
            });
        }
        insts.extend_from_slice(&t.insts);
        pcs.extend_from_slice(&t.pcs);
        slots.extend(t.insts.iter().zip(&t.pcs).map(slot));
        Linked {
            prog,
            trap,
            insts: Cow::Owned(insts),
            pcs: Cow::Owned(pcs),
            slots,
            pc_base: 0,
            tba: t.base,
        }
    }

    /// Where the instruction at index `idx` (a valid index) is, for observers.
    #[cold]
    #[inline(never)]
    fn loc(&self, w: &Wave, idx: usize) -> InstLoc {
        let addr = self.pcs[idx];
        let trap_handler = idx > self.prog.insts.len();
        let base = if trap_handler { self.tba } else { self.pc_base };
        InstLoc {
            workgroup: w.workgroup,
            wave: w.wave_id,
            pc: addr.wrapping_sub(base),
            addr,
            trap_handler,
        }
    }

    /// The index of the instruction at `pc`, or the error of jumping there.
    fn index_at(&self, pc: u64) -> Result<usize, (ExecError, u64)> {
        if let Some(i) = self.prog.index_at(pc) {
            return Ok(i);
        }
        // The handler's instructions start after the kernel's and the sentinel.
        if let Some(t) = self.trap {
            if let Some(i) = t.index_at(pc) {
                return Ok(i + self.prog.insts.len() + 1);
            }
        }
        let inside = code_range(self.prog).contains(&pc)
            || self.trap.is_some_and(|t| code_range(t).contains(&pc));
        let e = if inside {
            ExecError::BadJump { target: pc }
        } else {
            ExecError::PcOutOfCode { pc }
        };
        Err((e, pc))
    }
}

/// An instruction at index `idx` failed with `e`: a memory violation with a trap handler
/// installed enters it (`exec::memory_exception`) and the wave continues at TBA; any other error
/// is returned with the instruction's PC. Out of line, so the step loop stays small.
#[cold]
#[inline(never)]
fn memory_trap(
    w: &mut Wave,
    e: ExecError,
    code: &Linked,
    idx: usize,
) -> Result<usize, (ExecError, u64)> {
    match exec::memory_exception(w, e) {
        Ok(_) => code.index_at(w.pc),
        Err(e) => Err((e, code.pcs[idx])),
    }
}

/// Runs `w` for up to `budget` instructions. On an error, returns it with the PC of the
/// instruction that raised it. `obs` sees every instruction when it is enabled (with
/// [`NoObserver`] the checks are constant `false` and this is the plain loop).
#[inline]
fn run_slice<O: Observer + ?Sized>(
    w: &mut Wave,
    code: &Linked,
    ctx: &mut Ctx,
    budget: u64,
    obs: &mut O,
) -> Result<Stop, (ExecError, u64)> {
    let insts = &code.insts[..];
    let slots = &code.slots[..insts.len()];
    let mut idx = code.index_at(w.pc)?;
    // Lane-instructions: EXEC rarely changes between instructions, so its popcount is cached.
    let mut lane_insts = 0u64;
    let (mut last_exec, mut last_count) = (0u64, 0u64);
    let mut result = Ok(Stop::Quantum);
    for _ in 0..budget {
        // Falling off the last instruction leaves the code (a PC past the end).
        let (Some(inst), Some(slot)) = (insts.get(idx), slots.get(idx)) else {
            result = code.index_at(w.pc).map(|_| Stop::Quantum);
            break;
        };
        let exec_mask = w.exec();
        if exec_mask != last_exec {
            last_exec = exec_mask;
            last_count = exec_mask.count_ones() as u64;
        }
        lane_insts += last_count;
        if obs.enabled() {
            obs.before(&code.loc(w, idx), w, inst);
        }
        w.pc = slot.next_pc;
        w.wave_insts += 1;
        let r = (slot.handler)(w, inst, ctx);
        if obs.enabled() {
            obs.after(&code.loc(w, idx), w, inst);
        }
        // The common case first, as a plain predicted branch (a `match` here compiles to a
        // jump table: one more indirect branch per instruction).
        if matches!(r, Ok(Flow::Next)) {
            idx += 1;
            continue;
        }
        match r {
            Ok(Flow::Next) => idx += 1,
            Ok(Flow::Jump) => match code.index_at(w.pc) {
                Ok(i) => idx = i,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            },
            Ok(Flow::Barrier) => {
                result = Ok(Stop::Barrier);
                break;
            }
            Ok(Flow::End) => {
                w.ended = true;
                result = Ok(Stop::End);
                break;
            }
            // Memory violations enter the trap handler when one is installed (as in
            // `exec::step`); other errors end the wave.
            Err(e) => match memory_trap(w, e, code, idx) {
                Ok(i) => idx = i,
                Err(e) => {
                    result = Err(e);
                    break;
                }
            },
        }
    }
    w.lane_insts += lane_insts;
    result
}

/// Reusable per-thread state: waves and LDS.
struct Worker {
    waves: Vec<Wave>,
    lds: Vec<u8>,
    at_barrier: Vec<bool>,
}

impl Worker {
    fn new() -> Worker {
        Worker {
            waves: Vec::new(),
            lds: Vec::new(),
            at_barrier: Vec::new(),
        }
    }
}

/// Runs one workgroup to completion; returns (wave-instructions, lane-instructions, waves).
fn run_workgroup<O: Observer + ?Sized>(
    l: &Launch,
    code: &Linked,
    mem: &DeviceMemory,
    wg: [u32; 3],
    slot: u64,
    wk: &mut Worker,
    obs: &mut O,
) -> Result<(u64, u64, u64), DispatchError> {
    let items = l.geo.items_in(wg);
    let n_items = items[0] * items[1] * items[2];
    let lanes = if l.wave64 { 64 } else { 32 };
    let n_waves = n_items.div_ceil(lanes) as usize;
    while wk.waves.len() < n_waves {
        wk.waves.push(Wave::new(l.wave64, l.num_vgprs));
    }
    for (i, w) in wk.waves[..n_waves].iter_mut().enumerate() {
        if w.wave64 != l.wave64 || w.num_vgprs != l.num_vgprs {
            *w = Wave::new(l.wave64, l.num_vgprs);
        }
        init_wave(w, l, wg, i as u32, n_waves as u32, slot);
    }
    // LDS contents are undefined at launch on hardware; zero for determinism.
    let lds_len = l.lds_alloc();
    wk.lds.clear();
    wk.lds.resize(lds_len, 0);
    wk.at_barrier.clear();
    wk.at_barrier.resize(n_waves, false);

    let mut ctx = Ctx {
        mem,
        lds: &mut wk.lds[..],
        cfg: &l.cfg,
    };
    let waves = &mut wk.waves[..n_waves];
    let at_barrier = &mut wk.at_barrier[..];
    let limit = l.max_wave_insts;
    let mut live = n_waves;
    // A single wave never waits: its barriers complete at once (seed 002: a one-wave workgroup
    // treats s_barrier as s_nop), so it runs without turns.
    let quantum = if n_waves == 1 { u64::MAX } else { QUANTUM };
    while live > 0 {
        for i in 0..n_waves {
            let w = &mut waves[i];
            if w.ended || at_barrier[i] {
                continue;
            }
            let budget = quantum.min(limit - w.wave_insts);
            let stop = run_slice(w, code, &mut ctx, budget, obs).map_err(|(error, pc)| {
                DispatchError::Exec {
                    at: l.location(w, pc),
                    error,
                }
            })?;
            match stop {
                Stop::End => live -= 1,
                Stop::Barrier => at_barrier[i] = n_waves > 1,
                Stop::Quantum => {}
            }
            if !w.ended && !at_barrier[i] && w.wave_insts >= limit {
                let at = l.location(w, w.pc);
                let waiting: Vec<u32> = (0..n_waves as u32)
                    .filter(|&j| at_barrier[j as usize])
                    .collect();
                return Err(if waiting.is_empty() {
                    DispatchError::Watchdog { at, limit }
                } else {
                    DispatchError::BarrierDeadlock { at, waiting, limit }
                });
            }
        }
        // The barrier completes when every wave that has not ended is waiting at it (a wave
        // that ended counts as arrived).
        let waiting = at_barrier.iter().filter(|&&b| b).count();
        if waiting > 0 && waiting == live {
            at_barrier.iter_mut().for_each(|b| *b = false);
        }
    }
    let (mut wi, mut li) = (0, 0);
    for w in waves.iter() {
        wi += w.wave_insts;
        li += w.lane_insts;
    }
    Ok((wi, li, n_waves as u64))
}

/// Runs a dispatch to completion.
pub fn run(l: &Launch, mem: &DeviceMemory) -> Result<DispatchStats, DispatchError> {
    run_with(l, mem, &mut NoObserver)
}

/// Runs a dispatch to completion with `obs` seeing every instruction (see [`Observer`]). An
/// enabled observer makes the dispatch run its workgroups in order on the calling thread,
/// whatever `l.threads` says, so what it sees is in the deterministic order of a one-thread
/// run (workgroups x-fastest, the waves of a workgroup in turns of [`QUANTUM`]).
///
/// Both paths are compiled here, once: without an enabled observer this is [`run`] (the step
/// loop instantiated for [`NoObserver`] in this crate, whoever calls), with one the loop
/// instantiated for `dyn Observer` (tracing need not be fast; callers' generics do not
/// duplicate the loop).
pub fn run_observed<O: Observer + ?Sized>(
    l: &Launch,
    mem: &DeviceMemory,
    obs: &mut O,
) -> Result<DispatchStats, DispatchError> {
    if !obs.enabled() {
        return run(l, mem);
    }
    let mut obs = obs;
    run_dyn(l, mem, &mut obs)
}

#[inline(never)]
fn run_dyn(
    l: &Launch,
    mem: &DeviceMemory,
    obs: &mut dyn Observer,
) -> Result<DispatchStats, DispatchError> {
    run_with(l, mem, obs)
}

fn run_with<O: Observer + ?Sized>(
    l: &Launch,
    mem: &DeviceMemory,
    obs: &mut O,
) -> Result<DispatchStats, DispatchError> {
    l.check()?;
    if l.scratch_lane_bytes != 0 && l.scratch_addr == 0 {
        return Err(DispatchError::BadLaunch(
            "the kernel needs scratch but no scratch area was provided".into(),
        ));
    }
    let start = Instant::now();
    let mut code = Linked::new(l.prog, l.trap.as_ref().map(|t| t.prog));
    code.pc_base = l.pc_display_base;
    let counts = l.geo.workgroups();
    let total = counts.iter().map(|&v| v as u64).product::<u64>();
    let wg_of = |i: u64| {
        let x = (i % counts[0] as u64) as u32;
        let y = ((i / counts[0] as u64) % counts[1] as u64) as u32;
        let z = (i / (counts[0] as u64 * counts[1] as u64)) as u32;
        [x, y, z]
    };
    let mut stats = DispatchStats {
        workgroups: total,
        ..Default::default()
    };
    let threads = l.threads.max(1);
    if threads == 1 || total == 1 || obs.enabled() {
        let mut wk = Worker::new();
        for i in 0..total {
            let (wi, li, nw) = run_workgroup(l, &code, mem, wg_of(i), 0, &mut wk, obs)?;
            stats.wave_instructions += wi;
            stats.lane_instructions += li;
            stats.waves += nw;
        }
    } else {
        use rayon::prelude::*;
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .map_err(|e| {
                DispatchError::BadLaunch(format!("cannot start {threads} threads: {e}"))
            })?;
        let first_err = AtomicUsize::new(usize::MAX);
        let errors: Mutex<Vec<(u64, DispatchError)>> = Mutex::new(Vec::new());
        let (wi, li, nw) = (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
        pool.install(|| {
            (0..total)
                .into_par_iter()
                .for_each_init(Worker::new, |wk, i| {
                    // Workgroups after a failed one are skipped; earlier ones still run, so the
                    // error reported is the lowest-numbered one, whatever the thread timing.
                    if i as usize > first_err.load(Ordering::Relaxed) {
                        return;
                    }
                    let slot = rayon::current_thread_index().unwrap_or(0) as u64 % l.slots();
                    match run_workgroup(l, &code, mem, wg_of(i), slot, wk, &mut NoObserver) {
                        Ok((a, b, c)) => {
                            wi.fetch_add(a, Ordering::Relaxed);
                            li.fetch_add(b, Ordering::Relaxed);
                            nw.fetch_add(c, Ordering::Relaxed);
                        }
                        Err(e) => {
                            first_err.fetch_min(i as usize, Ordering::Relaxed);
                            if let Ok(mut v) = errors.lock() {
                                v.push((i, e));
                            }
                        }
                    }
                })
        });
        let errs = errors.into_inner().unwrap_or_else(|p| p.into_inner());
        if let Some((_, e)) = errs.into_iter().min_by_key(|(i, _)| *i) {
            return Err(e);
        }
        stats.wave_instructions = wi.into_inner();
        stats.lane_instructions = li.into_inner();
        stats.waves = nw.into_inner();
    }
    stats.elapsed = start.elapsed();
    Ok(stats)
}
