//! Dispatch: a grid of work-items -> workgroups -> waves, each wave started with the state the
//! hardware gives a compute wave (RDNA3 ISA guide, Wave State, "Initial wave state"; AMDGPUUsage, "Initial Kernel
//! Execution State"), and the waves of a workgroup run together with a shared LDS and s_barrier
//! (RDNA3 ISA guide, Shader Concepts, "Workgroups").
//!
//! Scheduling is deterministic: workgroups in x-fastest order, and inside a workgroup the waves
//! take turns (round robin) for at most [`QUANTUM`] instructions or until they reach s_barrier or
//! s_endpgm. With `threads > 1` workgroups run on a rayon pool; race-free kernels give identical
//! results, and the error reported is always the one of the lowest-numbered failing workgroup.

use crate::decode::{opnd, Enc, Inst};
use crate::exec::{self, Ctx, ExecError, Flow, Program};
use crate::isa::Op;
use crate::rsrc::{kcp, rsrc2};
use crate::trace::{InstLoc, NoObserver, Observer};
use crate::wave::{status, Wave};
use std::borrow::Cow;
use wavesim_core::engine::{self, Backend, Stop, WaveSlot};
use wavesim_core::memory::DeviceMemory;
pub use wavesim_core::{DispatchStats, Geometry, Location};

pub use wavesim_core::engine::QUANTUM;
pub use wavesim_core::grid::MAX_WORKGROUP_ITEMS;

/// A dispatch's settings: what changes instruction behaviour (passed to the executor in its
/// `Ctx`) and which engine runs the waves (here, where the dispatch is configured, so that
/// the executor knows nothing of the JIT tier).
#[derive(Clone, Debug)]
pub struct ExecConfig {
    /// SH_MEM_CONFIG.alignment_mode (0 DWORD, 1 DWORD_STRICT, 2 STRICT, 3 UNALIGNED).
    pub alignment_mode: u8,
    /// Interpreter, JIT or both (`jit::Engine`; the default is `auto` unless the environment
    /// variable `WAVESIM_ENGINE` names another).
    pub engine: crate::jit::Engine,
}

impl Default for ExecConfig {
    /// As hardware runs compute: amdgpu programs SH_MEM_CONFIG.alignment_mode = UNALIGNED for
    /// gfx11 (`DEFAULT_SH_MEM_CONFIG`), and LLVM relies on it for unaligned global/LDS accesses.
    fn default() -> Self {
        ExecConfig {
            alignment_mode: exec::flat::align_mode::UNALIGNED,
            engine: crate::jit::Engine::default(),
        }
    }
}

/// LDS one workgroup may use (RDNA3 ISA guide, Shader Concepts: up to 64 KiB in CU and in WGP mode).
pub const MAX_LDS_BYTES: u32 = 65536;
/// LDS is allocated in 1024-byte blocks (RDNA3 ISA guide, Wave State, "LDS"); accesses inside the last block are in
/// range, as on hardware.
pub const LDS_GRANULE: u32 = 1024;
/// Default watchdog: wave-instructions one wave may execute.
pub const DEFAULT_MAX_WAVE_INSTRUCTIONS: u64 = 100_000_000;
/// FLAT_SCRATCH must be 256-byte aligned (RDNA3 ISA guide, Wave State, "FLAT_SCRATCH").
pub const SCRATCH_WAVE_ALIGN: u64 = 256;

/// Why a dispatch failed: the engine's error with RDNA3's instruction errors.
pub type DispatchError = wavesim_core::DispatchError<ExecError>;

/// TBA must be 256-byte aligned: the SQ_SHADER_TBA registers hold address bits [47:8].
pub const TBA_ALIGN: u64 = 256;

/// A trap handler installed for a dispatch, as the driver installs one per process: code at TBA
/// and a data area at TMA (RDNA3 ISA guide, Wave State, "Trap and exception registers": TBA/TMA are shared by all
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
    /// The runtime's host services (the hostcall listener), if the launch has any.
    pub host: Option<&'a dyn exec::HostServices>,
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
        engine::worker_slots(&self.geo, self.threads)
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

/// PCs are 48-bit byte addresses (RDNA3 ISA guide, Wave State, {TTMP1, TTMP0} holds PC[47:0]).
const PC_MASK: u64 = (1 << 48) - 1;

/// The byte addresses a program's code covers.
fn code_range(p: &Program) -> std::ops::Range<u64> {
    p.base..p.base + 4 * p.index_of_dword.len().saturating_sub(1) as u64
}

/// The text of an instruction for error messages, as llvm-objdump prints it.
fn inst_text(inst: &Inst, pc: u64, wave64: bool) -> String {
    crate::disasm::format(inst, pc, wave64)
}

/// HW_ID1 of wave `wave_idx` of a workgroup (field layout: Mesa's gfx11 register description,
/// `SQ_WAVE_HW_ID1`: WAVE_ID [4:0], SIMD_ID [9:8], WGP_ID [13:10], SA_ID [16], SE_ID [20:18],
/// DP_RATE [31:29]). The RDNA3 ISA guide calls HW_ID unpredictable (it names where the hardware put
/// the wave), so the values are wavesim's placement model, the one the cycle model uses: every
/// workgroup on WGP 0 of SA 0 of SE 0, wave `i` on SIMD `i % 4` in WGP mode and on SIMD `i % 2` (the
/// first CU's two SIMDs) in CU mode, in wave slot `i / SIMDs`. DP_RATE reads 0.
pub fn hw_id1(wgp_mode: bool, wave_idx: u32) -> u32 {
    let simds = workgroup_simds(wgp_mode);
    let simd = wave_idx % simds;
    let slot = (wave_idx / simds) & 0x1f;
    slot | simd << 8
}

/// The SIMDs a workgroup's waves spread over: a WGP's four in WGP mode, one CU's two in CU mode
/// (RDNA3 ISA guide, Shader Concepts, "CU mode and WGP mode"); wave `i` sits on SIMD
/// `i % workgroup_simds`. Shared by HW_ID1 and the cycle model.
pub fn workgroup_simds(wgp_mode: bool) -> u32 {
    if wgp_mode {
        4
    } else {
        2
    }
}

/// Sets up `w` as wave `wave_idx` of `n_waves` of workgroup `wg` (RDNA3 ISA guide, Wave State, "Initial wave
/// state": SGPRs are packed in order, only enabled values are loaded; EXEC = the lanes that hold
/// work-items; FLAT_SCRATCH = the wave's scratch or 0).
pub fn init_wave(w: &mut Wave, l: &Launch, wg: [u32; 3], wave_idx: u32, n_waves: u32, slot: u64) {
    init_wave_common(w, l, wave_idx, slot);
    init_wave_own(w, l, wg, wave_idx, n_waves, slot, usize::MAX);
}

/// The state [`init_wave`] gives every wave of a launch alike, given where its scratch lies
/// (`wave_idx` and `slot` choose only that): PC, the scalar operand space with the user SGPRs
/// (zero elsewhere), SCC, the hardware registers but HW_ID1, TBA/TMA and scratch.
fn init_wave_common(w: &mut Wave, l: &Launch, wave_idx: u32, slot: u64) {
    w.pc = l.entry;
    w.sgpr = [0; 128];
    w.scc = false;
    w.hw = Default::default();
    w.hw.mode = l.mode;
    // Trap handler: TBA/TMA and STATUS.TRAP_EN (COMPUTE_PGM_RSRC2.TRAP_PRESENT, set by the CP
    // when the runtime installed a handler); without one s_trap is a NOP and errors end the
    // dispatch (RDNA3 ISA guide, Wave State, "STATUS.TRAP_EN").
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
    let scratch_offset = wave_scratch_offset(l, wave_idx, slot);
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
}

/// Offset of wave `wave_idx`'s scratch from the launch's scratch area, for the workgroup the
/// worker with scratch slot `slot` runs.
fn wave_scratch_offset(l: &Launch, wave_idx: u32, slot: u64) -> u64 {
    let wave_scratch = l.wave_scratch_bytes();
    let slot_bytes = l.geo.max_waves_per_group(l.wave64) as u64 * wave_scratch;
    slot * slot_bytes + wave_idx as u64 * wave_scratch
}

/// The state of [`init_wave`] that differs from wave to wave, over what
/// [`init_wave_common`] wrote: the first `vgpr_rows` VGPR rows zeroed, HW_ID1, the wave's
/// place and counters, the system SGPRs (workgroup ids and info, the private segment's wave
/// offset), the work-item ids and EXEC.
fn init_wave_own(
    w: &mut Wave,
    l: &Launch,
    wg: [u32; 3],
    wave_idx: u32,
    n_waves: u32,
    slot: u64,
    vgpr_rows: usize,
) {
    init_wave_in(
        w,
        l,
        &GroupStart::of(l, wg, n_waves),
        wave_idx,
        slot,
        vgpr_rows,
    );
}

/// What [`init_wave_own`] works out the same for every wave of a workgroup: where it is, its
/// work-items per dimension and in all, its waves.
#[derive(Clone, Copy)]
struct GroupStart {
    wg: [u32; 3],
    items: [u32; 3],
    n_items: u32,
    n_waves: u32,
}

impl GroupStart {
    fn of(l: &Launch, wg: [u32; 3], n_waves: u32) -> GroupStart {
        let items = l.geo.items_in(wg);
        GroupStart {
            wg,
            items,
            n_items: items[0] * items[1] * items[2],
            n_waves,
        }
    }
}

/// [`init_wave_own`] for wave `wave_idx` of the workgroup `g` describes.
#[inline(always)]
fn init_wave_in(
    w: &mut Wave,
    l: &Launch,
    g: &GroupStart,
    wave_idx: u32,
    slot: u64,
    vgpr_rows: usize,
) {
    let (wg, items, n_items, n_waves) = (g.wg, g.items, g.n_items, g.n_waves);
    let zeroed = vgpr_rows
        .saturating_mul(crate::wave::LANES)
        .min(w.vgpr.len());
    // Work-item ids and EXEC.
    let lanes = if l.wave64 { 64 } else { 32 };
    // One-dimensional workgroups (the common case): v0 = x = f0 + lane, so the lanes are a
    // ramp, written with row 0's zeros in one pass (y and z are 0 whatever the packing or id
    // count); the other rows are zeroed from row 1 on.
    let rows = match w.vgpr.split_first_chunk_mut::<{ crate::wave::LANES }>() {
        Some(r) if items[1] == 1 && items[2] == 1 && w.num_vgprs >= 1 => Some(r),
        _ => None,
    };
    let one_d = rows.is_some();
    if let Some((row0, rest)) = rows {
        let f0 = wave_idx * lanes;
        let active = n_items.saturating_sub(f0).min(lanes);
        ramp(row0, f0, active);
        let rest_len = zeroed.saturating_sub(crate::wave::LANES).min(rest.len());
        rest[..rest_len].fill(0);
        w.set_exec(if active == 64 {
            u64::MAX
        } else {
            (1u64 << active) - 1
        });
    } else {
        w.vgpr[..zeroed].fill(0);
    }
    w.hw.hw_id1 = hw_id1(l.wgp_mode, wave_idx);
    w.wave_id = wave_idx;
    w.workgroup = wg;
    w.wave_insts = 0;
    w.lane_insts = 0;
    w.ended = false;
    w.cnt = Default::default();
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
        put(w, wave_scratch_offset(l, wave_idx, slot) as u32);
    }

    if one_d {
        return;
    }
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

/// Row 0 of a one-dimensional workgroup's wave: work-item `f0 + lane` in each of the first
/// `active` lanes, 0 in the others. A full wave32 or wave64 (every wave but a workgroup's
/// partial last one) is a plain ramp the compiler writes as a few vector adds and stores.
#[inline(always)]
fn ramp(row: &mut [u32; crate::wave::LANES], f0: u32, active: u32) {
    fn plain<const N: usize>(r: &mut [u32; N], f0: u32) {
        for (lane, v) in r.iter_mut().enumerate() {
            *v = f0.wrapping_add(lane as u32);
        }
    }
    if active == 32 {
        if let Some((lo, hi)) = row.split_first_chunk_mut::<32>() {
            plain(lo, f0);
            hi.fill(0);
            return;
        }
    }
    if active == 64 {
        plain(row, f0);
        return;
    }
    for (lane, v) in row.iter_mut().enumerate() {
        let lane = lane as u32;
        *v = if lane < active {
            f0.wrapping_add(lane)
        } else {
            0
        };
    }
}

/// A program prepared for the hot loop: instructions, their addresses and their handlers side
/// by side (the handlers are the decoded program's table, `Program::handlers`), so stepping is
/// indexed loads and an indirect call. The instruction index follows the PC:
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
    handlers: Cow<'a, [exec::Handler]>,
    /// Subtracted from kernel PCs / trap handler PCs for observers ([`InstLoc::pc`]).
    pc_base: u64,
    tba: u64,
    /// Compiled blocks of the kernel's code (`jit`), unless the engine is the interpreter.
    jit: Option<crate::jit::Tier<'a>>,
}

/// The sentinel after the kernel's last instruction (see [`Linked`]), at the address right
/// after that instruction; the step loop has already moved `w.pc` past the sentinel.
fn past_the_end(w: &mut Wave, inst: &Inst, _: &mut Ctx) -> Result<Flow, ExecError> {
    w.pc = w.pc.wrapping_sub(inst.len as u64);
    Err(ExecError::PcOutOfCode { pc: w.pc })
}

impl<'a> Linked<'a> {
    fn new(prog: &'a Program, trap: Option<&'a Program>) -> Linked<'a> {
        let Some(t) = trap else {
            return Linked {
                prog,
                trap,
                insts: Cow::Borrowed(&prog.insts),
                pcs: Cow::Borrowed(&prog.pcs),
                handlers: Cow::Borrowed(&prog.handlers),
                pc_base: 0,
                tba: 0,
                jit: None,
            };
        };
        let end = code_range(prog).end;
        let mut insts = prog.insts.clone();
        let mut pcs = prog.pcs.clone();
        let mut handlers = prog.handlers.clone();
        // Any instruction will do for the sentinel: its handler uses only its length.
        if let Some(&any) = prog.insts.first().or(t.insts.first()) {
            insts.push(any);
            pcs.push(end);
            handlers.push(past_the_end);
        }
        insts.extend_from_slice(&t.insts);
        pcs.extend_from_slice(&t.pcs);
        handlers.extend_from_slice(&t.handlers);
        Linked {
            prog,
            trap,
            insts: Cow::Owned(insts),
            pcs: Cow::Owned(pcs),
            handlers: Cow::Owned(handlers),
            pc_base: 0,
            tba: t.base,
            jit: None,
        }
    }

    /// Enters compiled code for the kernel's instructions under `engine` (see `jit`), compiled
    /// for waves starting with MODE `mode`.
    fn with_jit(
        mut self,
        engine: crate::jit::Engine,
        wave64: bool,
        num_vgprs: u16,
        mode: u32,
    ) -> Self {
        self.jit = crate::jit::Tier::new(engine, self.prog, wave64, num_vgprs, mode);
        self
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
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn run_slice<O: Observer<Wave, Inst> + ?Sized>(
    w: &mut Wave,
    code: &Linked,
    mem: &DeviceMemory,
    lds: &mut [u8],
    cfg: &ExecConfig,
    host: Option<&dyn exec::HostServices>,
    budget: u64,
    obs: &mut O,
) -> Result<Stop, (ExecError, u64)> {
    let ctx = &mut Ctx {
        mem,
        lds,
        alignment_mode: cfg.alignment_mode,
        host,
    };
    let idx = code.index_at(w.pc)?;
    slice(w, code, ctx, budget, obs, idx, 0)
}

/// What the step loop does after instruction `idx` gave `r` (anything but `Flow::Next`, which
/// it handles inline): the index to go on at, or the turn's result.
#[inline(always)]
fn after(
    w: &mut Wave,
    code: &Linked,
    idx: usize,
    r: Result<Flow, ExecError>,
) -> Result<usize, Result<Stop, (ExecError, u64)>> {
    match r {
        Ok(Flow::Next) => Ok(idx + 1),
        Ok(Flow::Jump) => code.index_at(w.pc).map_err(Err),
        Ok(Flow::Barrier) => Err(Ok(Stop::Barrier)),
        Ok(Flow::End) => {
            w.ended = true;
            Err(Ok(Stop::End))
        }
        // Memory violations enter the trap handler when one is installed (as in
        // the step loop (`exec::memory_exception`)); other errors end the wave.
        Err(e) => memory_trap(w, e, code, idx).map_err(Err),
    }
}

/// The step loop of [`run_slice`] from instruction `idx` with `budget` instructions left and
/// `lane_insts` lane-instructions run in this turn not yet added to the wave's count.
#[inline(always)]
fn slice<O: Observer<Wave, Inst> + ?Sized>(
    w: &mut Wave,
    code: &Linked,
    ctx: &mut Ctx,
    budget: u64,
    obs: &mut O,
    mut idx: usize,
    mut lane_insts: u64,
) -> Result<Stop, (ExecError, u64)> {
    let insts = &code.insts[..];
    let pcs = &code.pcs[..insts.len()];
    let handlers = &code.handlers[..insts.len()];
    // Lane-instructions: EXEC rarely changes between instructions, so its popcount is cached.
    let (mut last_exec, mut last_count) = (0u64, 0u64);
    let mut result = Ok(Stop::Quantum);
    // Compiled blocks only when no observer watches instructions one by one.
    let jit = code.jit.as_ref().filter(|_| !obs.enabled());
    let mut left = budget;
    while left > 0 {
        let r = if let Some(ran) =
            jit.and_then(|j| j.step(w, idx, left, &mut lane_insts, ctx, handlers))
        {
            w.wave_insts += ran.insts;
            // A block never runs past the budget it was given (`Tier::step`).
            left = left.saturating_sub(ran.insts);
            idx = ran.idx;
            // A block either ran to an exit or one of its interpreted instructions (`idx`
            // now) stopped it with this result.
            match ran.stop {
                None => continue,
                Some(r) => r,
            }
        } else {
            left -= 1;
            // Falling off the last instruction leaves the code (a PC past the end).
            let (Some(inst), Some(&pc), Some(&handler)) =
                (insts.get(idx), pcs.get(idx), handlers.get(idx))
            else {
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
            w.pc = pc + inst.len as u64;
            w.wave_insts += 1;
            let r = handler(w, inst, ctx);
            if obs.enabled() {
                obs.after(&code.loc(w, idx), w, inst);
            }
            r
        };
        // The common case first, as a plain predicted branch (a `match` here compiles to a
        // jump table: one more indirect branch per instruction).
        if matches!(r, Ok(Flow::Next)) {
            idx += 1;
            continue;
        }
        match after(w, code, idx, r) {
            Ok(i) => idx = i,
            Err(r) => {
                result = r;
                break;
            }
        }
    }
    w.lane_insts += lane_insts;
    result
}

/// A launch prepared for the engine: the RDNA3 back end of one dispatch.
pub struct Rdna3Dispatch<'a> {
    l: &'a Launch<'a>,
    code: Linked<'a>,
    /// VGPR rows a wave start must zero: those the code can reach (see [`vgpr_rows_reached`]).
    vgpr_rows: usize,
    /// Whether the code can write LDS at all; when it cannot, a worker's LDS stays zero from its
    /// first workgroup on and is not zeroed again.
    lds_writable: bool,
    /// What every wave starts with, for launches without scratch (see [`WaveTemplate`]).
    template: Option<WaveTemplate>,
    /// The groups of four scalar operand slots (bit g: `sgpr[4g..4g + 4]`) the code can write
    /// ([`sgpr_groups_written`]), when that is known: a wave this dispatch started before gets
    /// only those back from the template.
    sgpr_groups: Option<u32>,
    /// The index of the entry's instruction in `code`.
    entry_idx: Option<usize>,
}

/// The state [`init_wave_common`] gives every wave of a launch without scratch (where it does
/// not depend on the wave's place): built once per dispatch and copied into each wave at its
/// start, so a wave start works out only its own part ([`init_wave_own`]). With scratch, each
/// wave's FLAT_SCRATCH and scratch SGPRs differ and the waves start the long way.
struct WaveTemplate {
    sgpr: [u32; 128],
    hw: crate::wave::HwRegs,
    tba: u64,
    tma: u64,
}

impl WaveTemplate {
    fn of(l: &Launch) -> Option<WaveTemplate> {
        if l.scratch_lane_bytes != 0 {
            return None;
        }
        let mut w = Wave::new(l.wave64, 1);
        init_wave_common(&mut w, l, 0, 0);
        Some(WaveTemplate {
            sgpr: w.sgpr,
            hw: w.hw,
            tba: w.tba,
            tma: w.tma,
        })
    }

    /// [`init_wave_common`] for any wave of the launch the template was made for.
    fn apply(&self, w: &mut Wave, l: &Launch) {
        w.sgpr = self.sgpr;
        self.apply_but_sgprs(w, l);
    }

    /// [`Self::apply`] for a wave started from this template before whose scalar operand slots
    /// differ from it at most in the groups of four `groups` has (bit g: `sgpr[4g..4g + 4]`):
    /// those are copied back, the others already hold the template's values. (The 512-byte
    /// copy was ~75 host instructions of saxpy's ~1,700 a wave; its code writes 4 groups.)
    #[inline(always)]
    fn apply_groups(&self, w: &mut Wave, l: &Launch, groups: u32) {
        let mut g = groups;
        while g != 0 {
            let k = 4 * g.trailing_zeros() as usize;
            if let (Some(d), Some(s)) = (w.sgpr.get_mut(k..k + 4), self.sgpr.get(k..k + 4)) {
                d.copy_from_slice(s);
            }
            g &= g - 1;
        }
        self.apply_but_sgprs(w, l);
    }

    #[inline(always)]
    fn apply_but_sgprs(&self, w: &mut Wave, l: &Launch) {
        w.pc = l.entry;
        w.scc = false;
        w.hw.clone_from(&self.hw);
        w.tba = self.tba;
        w.tma = self.tma;
        w.scratch_base = 0;
        w.scratch_lane_bytes = 0;
    }
}

impl<'a> Rdna3Dispatch<'a> {
    /// [`Backend::start_wave`] for wave `index` of the workgroup `g` describes; `reused`: `w`
    /// is a wave this dispatch started before and only its code has run on since
    /// (`Backend::first_turns`).
    #[inline(always)]
    fn start_in(&self, w: &mut Wave, g: &GroupStart, index: u32, worker: u64, reused: bool) {
        if w.wave64 != self.l.wave64 || w.num_vgprs != self.l.num_vgprs {
            *w = self.new_wave();
        }
        let l = self.l;
        match (&self.template, self.sgpr_groups) {
            (Some(t), Some(groups)) if reused => t.apply_groups(w, l, groups),
            (Some(t), _) => t.apply(w, l),
            (None, _) => init_wave_common(w, l, index, worker),
        }
        init_wave_in(w, l, g, index, worker, self.vgpr_rows);
    }

    /// Links the kernel's code with the trap handler's, once per dispatch.
    pub fn new(l: &'a Launch<'a>) -> Rdna3Dispatch<'a> {
        let mut code = Linked::new(l.prog, l.trap.as_ref().map(|t| t.prog)).with_jit(
            l.cfg.engine,
            l.wave64,
            l.num_vgprs,
            l.mode,
        );
        code.pc_base = l.pc_display_base;
        // Without a trap handler a wave runs only what its entry reaches (a handler can
        // return anywhere: then every instruction counts).
        let reach = match l.trap {
            None => l.prog.index_at(l.entry).and_then(|e| reachable(l.prog, e)),
            Some(_) => None,
        };
        let rows = match &reach {
            Some(r) => {
                vgpr_rows_reached(code.insts.iter().zip(r).filter(|(_, &k)| k).map(|(i, _)| i))
            }
            None => vgpr_rows_reached(code.insts.iter()),
        }
        .unwrap_or(usize::MAX);
        let vgpr_rows = rows.clamp(1, (l.num_vgprs as usize).max(1));
        let lds_writable = code.insts.iter().any(may_write_lds);
        // What the code can write is known only for what the entry reaches (no trap handler,
        // no indirect jump).
        let sgpr_groups = reach.as_ref().and_then(|r| {
            sgpr_groups_written(code.insts.iter().zip(r).filter(|(_, &k)| k).map(|(i, _)| i))
        });
        Rdna3Dispatch {
            l,
            entry_idx: code.index_at(l.entry).ok(),
            code,
            vgpr_rows,
            lds_writable,
            template: WaveTemplate::of(l),
            sgpr_groups,
        }
    }
}

/// One past the highest VGPR row any instruction of `insts` can touch, or `None` when one
/// indexes VGPRs through M0 (v_movrel*, v_swaprel_b32 reach any row). Registers are zeroed at
/// wave start for determinism (their contents are undefined on hardware); rows no instruction
/// names cannot be read, so zeroing stops there. This is what makes a wave start cheap when the
/// VGPR count is generous (`run_asm` allocates all 256). Each operand names the first register of
/// its tuple; [`tuple_rows`] says how many rows from there an instruction's operands may span.
fn vgpr_rows_reached<'i>(insts: impl IntoIterator<Item = &'i Inst>) -> Option<usize> {
    let mut rows = 0usize;
    for i in insts {
        if matches!(
            i.op,
            Op::V_MOVRELD_B32
                | Op::V_MOVRELS_B32
                | Op::V_MOVRELSD_B32
                | Op::V_MOVRELSD_2_B32
                | Op::V_SWAPREL_B32
        ) {
            return None;
        }
        let span = tuple_rows(i);
        let mut reach = |code: u16| {
            if opnd::is_vgpr(code) {
                rows = rows.max((code - opnd::VGPR0) as usize + span);
            }
        };
        i.dst.iter().chain(&i.src).for_each(|&c| reach(c));
        if i.enc == Enc::Mimg {
            // NSA: the address VGPRs after the first are the literal's bytes.
            i.lit
                .to_le_bytes()
                .iter()
                .for_each(|&b| reach(opnd::vgpr(b as u32)));
        }
    }
    Some(rows)
}

/// The groups of four scalar operand slots (bit g: `sgpr[4g..4g + 4]`) that `insts` can write,
/// or `None` when one writes a slot chosen at run time (s_movreld_b32/b64: M0 plus the
/// destination). Each destination below 128 counts with the widest operand of its signature
/// (at least a 64-bit pair: a wave64 lane mask), as [`tuple_rows`] counts VGPR tuples; VCC,
/// M0, NULL and EXEC always count, for the writes no operand names (VOPC and carry ops' VCC
/// in VOP2/VOPC encodings, v_cmpx and s_*_saveexec's EXEC). Nothing else writes the scalar
/// slots: trap entry needs a trap handler, and with one (as with an indirect jump) nothing
/// is known ([`reachable`]). The start of a wave writes EXEC and its system SGPRs itself.
fn sgpr_groups_written<'i>(insts: impl IntoIterator<Item = &'i Inst>) -> Option<u32> {
    let group = |code: u16| 1u32 << (code / 4);
    let mut groups = group(opnd::VCC_LO) | group(opnd::NULL);
    for i in insts {
        if matches!(i.op, Op::S_MOVRELD_B32 | Op::S_MOVRELD_B64) {
            return None;
        }
        let s = i.op.sig();
        let span = s
            .dst
            .iter()
            .chain(&s.src)
            .map(|t| t.dwords() as u16)
            .max()
            .unwrap_or(0)
            .max(2);
        for &code in i.dst.iter().filter(|&&c| c < 128) {
            for c in code..(code + span).min(128) {
                groups |= group(c);
            }
        }
    }
    Some(groups)
}

/// The instructions of `prog` a wave starting at index `entry` can execute, or None when that
/// is not known: an indirect jump (s_setpc_b64, s_swappc_b64, s_rfe_b64, and s_call_b64, whose
/// return is one) can go anywhere. Every branch counts both its target and the next
/// instruction (more than s_branch needs: it only widens the set); s_endpgm ends a path; a
/// branch to no instruction is an error there and runs nothing. These are all the ways the
/// handlers change the PC (`exec::sopp`: `Flow::Jump`, `Flow::End`) besides trap entry, which
/// needs a trap handler (the caller counts every instruction then).
fn reachable(prog: &Program, entry: usize) -> Option<Vec<bool>> {
    let mut seen = vec![false; prog.insts.len()];
    let mut todo = vec![entry];
    while let Some(i) = todo.pop() {
        // Past the last instruction the wave leaves the code (an error).
        let (Some(s), Some(inst), Some(&pc)) =
            (seen.get_mut(i), prog.insts.get(i), prog.pcs.get(i))
        else {
            continue;
        };
        if *s {
            continue;
        }
        *s = true;
        match inst.op {
            Op::S_SETPC_B64 | Op::S_SWAPPC_B64 | Op::S_RFE_B64 | Op::S_CALL_B64 => return None,
            Op::S_ENDPGM | Op::S_ENDPGM_SAVED => continue,
            _ => {}
        }
        if let Some(t) = crate::disasm::branch_target(inst, pc) {
            if let Some(k) = prog.index_at(t & PC_MASK) {
                todo.push(k);
            }
        }
        todo.push(i + 1);
    }
    Some(seen)
}

/// Rows from its first register that any VGPR operand of `i` may span. ALU encodings: the
/// widest operand of the instruction's signature (the table's types give every ALU operand's
/// width: `v[1:2]` of v_mad_u64_u32 is its `u64`; VOPD's halves are both counted), applied to
/// each of its operands. FLAT/GLOBAL/SCRATCH and DS: the widest data operand of the signature
/// (b128 for a 64-bit compare-swap) and at least 2, a 64-bit address. Everything else (MUBUF and
/// MTBUF with TFE, MIMG's dmask-sized data, exports, LDS-direct): 16 rows, which cover the widest
/// tuple of any instruction (WMMA's 8-row A/B/D, 12 BVH address VGPRs, b128 data plus TFE).
fn tuple_rows(i: &Inst) -> usize {
    const WIDEST_TUPLE: usize = 16;
    let widest = |op: Op| {
        let s = op.sig();
        s.dst
            .iter()
            .chain(&s.src)
            .map(|t| t.dwords() as usize)
            .max()
            .unwrap_or(0)
    };
    match i.enc {
        Enc::Vop1 | Enc::Vop2 | Enc::Vop3 | Enc::Vopc | Enc::Vop3sd | Enc::Vop3p | Enc::Vinterp => {
            widest(i.op).max(1)
        }
        Enc::Vopd => widest(i.op).max(widest(i.op_y)).max(1),
        Enc::Flat | Enc::Global | Enc::Scratch | Enc::Ds => widest(i.op).max(2),
        _ => WIDEST_TUPLE,
    }
}

/// Whether `i` can write LDS: DS instructions, FLAT (its address may fall in the LDS
/// aperture) and buffer instructions (conservatively, for their LDS forms).
fn may_write_lds(i: &Inst) -> bool {
    matches!(i.enc, Enc::Ds | Enc::Flat | Enc::Mubuf | Enc::Mtbuf)
}

impl Backend for Rdna3Dispatch<'_> {
    type Wave = Wave;
    type Inst = Inst;
    /// The workgroup's LDS.
    type Group = Vec<u8>;
    type Error = ExecError;
    const END: &'static str = "s_endpgm";
    const BARRIER: &'static str = "s_barrier";

    fn geometry(&self) -> &Geometry {
        &self.l.geo
    }
    fn lanes(&self) -> u32 {
        self.l.lanes() as u32
    }
    fn threads(&self) -> usize {
        self.l.threads
    }
    fn max_wave_insts(&self) -> u64 {
        self.l.max_wave_insts
    }
    fn check(&self) -> Result<(), DispatchError> {
        self.l.check()?;
        if self.l.scratch_lane_bytes != 0 && self.l.scratch_addr == 0 {
            return Err(DispatchError::BadLaunch(
                "the kernel needs scratch but no scratch area was provided".into(),
            ));
        }
        Ok(())
    }
    fn new_wave(&self) -> Wave {
        Wave::new(self.l.wave64, self.l.num_vgprs)
    }
    fn new_group(&self) -> Vec<u8> {
        Vec::new()
    }
    fn start_group(&self, lds: &mut Vec<u8>, _wg: [u32; 3], _waves: u32) {
        // LDS contents are undefined at launch on hardware; zero for determinism (code that
        // cannot write LDS keeps the zeros of the worker's first workgroup).
        let size = self.l.lds_alloc();
        if self.lds_writable || lds.len() != size {
            lds.clear();
            lds.resize(size, 0);
        }
    }
    fn start_wave(&self, w: &mut Wave, at: WaveSlot) {
        let g = GroupStart::of(self.l, at.workgroup, at.count);
        self.start_in(w, &g, at.index, at.worker, false);
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
        run_slice(
            w,
            &self.code,
            mem,
            lds,
            &self.l.cfg,
            self.l.host,
            budget,
            obs,
        )
    }
    /// With the entry's block compiled in its final form (`jit::Tier::entry`), each wave
    /// enters it directly after its start, with the context, the block and the region cache
    /// found once for all of them; what follows the block (anything but s_endpgm inside it)
    /// goes on in the step loop as after any block. Otherwise the engine's default.
    fn first_turns<O: Observer<Wave, Inst> + ?Sized>(
        &self,
        waves: &mut [Wave],
        at: WaveSlot,
        reused: usize,
        lds: &mut Vec<u8>,
        mem: &DeviceMemory,
        quantum: u64,
        limit: u64,
        obs: &mut O,
    ) -> (usize, Result<Stop, (ExecError, u64)>) {
        let last = waves.len().saturating_sub(1);
        let code = &self.code;
        let jit_entry = match (&code.jit, self.entry_idx) {
            (Some(j), Some(e)) if !obs.enabled() => j.entry(e).map(|e| (j, e)),
            _ => None,
        };
        let Some((jit, entry)) = jit_entry else {
            let g = GroupStart::of(self.l, at.workgroup, at.count);
            for (k, w) in waves.iter_mut().enumerate() {
                self.start_in(w, &g, at.index + k as u32, at.worker, k < reused);
                let budget = quantum.min(limit.saturating_sub(w.wave_insts));
                let r = self.run_wave(w, lds, mem, budget, obs);
                if k == last || !matches!(r, Ok(Stop::End)) {
                    return (k, r);
                }
            }
            return (0, Ok(Stop::End));
        };
        let ctx = &mut Ctx {
            mem,
            lds,
            alignment_mode: self.l.cfg.alignment_mode,
            host: self.l.host,
        };
        let handlers = &code.handlers[..code.insts.len()];
        let g = GroupStart::of(self.l, at.workgroup, at.count);
        for (k, w) in waves.iter_mut().enumerate() {
            self.start_in(w, &g, at.index + k as u32, at.worker, k < reused);
            let budget = quantum.min(limit.saturating_sub(w.wave_insts));
            let mut lane_insts = 0;
            // As the step loop's first iteration (`slice`) at the entry.
            let r = match jit.run_entry(&entry, w, budget, &mut lane_insts, ctx, handlers) {
                None => slice(w, code, ctx, budget, obs, entry.idx(), 0),
                Some(ran) => {
                    w.wave_insts += ran.insts;
                    let left = budget.saturating_sub(ran.insts);
                    match ran.stop {
                        None => slice(w, code, ctx, left, obs, ran.idx, lane_insts),
                        Some(r) => match after(w, code, ran.idx, r) {
                            Ok(i) => slice(w, code, ctx, left, obs, i, lane_insts),
                            Err(r) => {
                                w.lane_insts += lane_insts;
                                r
                            }
                        },
                    }
                }
            };
            if k == last || !matches!(r, Ok(Stop::End)) {
                return (k, r);
            }
        }
        (0, Ok(Stop::End))
    }
    fn wave_insts(&self, w: &Wave) -> u64 {
        w.wave_insts
    }
    fn lane_insts(&self, w: &Wave) -> u64 {
        w.lane_insts
    }
    fn pc(&self, w: &Wave) -> u64 {
        w.pc
    }
    fn location(&self, w: &Wave, pc: u64) -> Location {
        *self.l.location(w, pc)
    }
}

/// Runs a dispatch to completion.
pub fn run(l: &Launch, mem: &DeviceMemory) -> Result<DispatchStats, DispatchError> {
    engine::run(&Rdna3Dispatch::new(l), mem, &mut NoObserver)
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
pub fn run_observed<O: Observer<Wave, Inst> + ?Sized>(
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
    obs: &mut dyn Observer<Wave, Inst>,
) -> Result<DispatchStats, DispatchError> {
    engine::run(&Rdna3Dispatch::new(l), mem, obs)
}

/// The back end of [`run_wave_alone`]: one wave whose state the caller prepared, moved into the
/// engine for the run and handed back when the workgroup retires.
struct PreparedWave<'a> {
    code: Linked<'a>,
    geo: Geometry,
    cfg: &'a ExecConfig,
    lanes: u32,
    limit: u64,
    state: std::sync::Mutex<Option<(Wave, Vec<u8>)>>,
}

impl PreparedWave<'_> {
    fn take(&self) -> Option<(Wave, Vec<u8>)> {
        self.state.lock().ok()?.take()
    }
    fn put(&self, w: Wave, lds: Vec<u8>) {
        if let Ok(mut s) = self.state.lock() {
            *s = Some((w, lds));
        }
    }
}

impl Backend for PreparedWave<'_> {
    type Wave = Wave;
    type Inst = Inst;
    type Group = Vec<u8>;
    type Error = ExecError;
    const END: &'static str = "s_endpgm";
    const BARRIER: &'static str = "s_barrier";

    fn geometry(&self) -> &Geometry {
        &self.geo
    }
    fn lanes(&self) -> u32 {
        self.lanes
    }
    fn threads(&self) -> usize {
        1
    }
    fn max_wave_insts(&self) -> u64 {
        self.limit
    }
    fn new_wave(&self) -> Wave {
        // A placeholder: `start_wave` moves the prepared wave in.
        Wave::new(self.lanes == 64, 1)
    }
    fn new_group(&self) -> Vec<u8> {
        Vec::new()
    }
    fn start_group(&self, lds: &mut Vec<u8>, _wg: [u32; 3], _waves: u32) {
        if let Some((w, l)) = self.take() {
            *lds = l;
            self.put(w, Vec::new());
        }
    }
    fn start_wave(&self, w: &mut Wave, _at: WaveSlot) {
        if let Some((prepared, lds)) = self.take() {
            *w = prepared;
            self.put(Wave::new(w.wave64, 1), lds);
        }
    }
    fn run_wave<O: Observer<Wave, Inst> + ?Sized>(
        &self,
        w: &mut Wave,
        lds: &mut Vec<u8>,
        mem: &DeviceMemory,
        budget: u64,
        obs: &mut O,
    ) -> Result<Stop, (ExecError, u64)> {
        run_slice(w, &self.code, mem, lds, self.cfg, None, budget, obs)
    }
    fn wave_insts(&self, w: &Wave) -> u64 {
        w.wave_insts
    }
    fn lane_insts(&self, w: &Wave) -> u64 {
        w.lane_insts
    }
    fn pc(&self, w: &Wave) -> u64 {
        w.pc
    }
    fn location(&self, w: &Wave, pc: u64) -> Location {
        let prog = self.code.prog;
        Location {
            kernel: "wave".into(),
            workgroup: w.workgroup,
            wave: w.wave_id,
            pc,
            inst: prog
                .index_at(pc)
                .map(|i| inst_text(&prog.insts[i], pc, w.wave64))
                .unwrap_or_default(),
            trap_handler: false,
        }
    }
    fn retire(&self, waves: &mut [Wave], lds: &mut Vec<u8>) {
        if let Some(w) = waves.first_mut() {
            let placeholder = Wave::new(w.wave64, 1);
            self.put(std::mem::replace(w, placeholder), std::mem::take(lds));
        }
    }
}

/// Runs one wave whose state the caller set up (registers, EXEC, PC, TBA...) through the engine
/// as a one-wave dispatch, the loop every dispatch uses: from its PC until it ends or faults, or
/// until it has run `max_insts` more instructions (the watchdog). `lds` is its workgroup's LDS.
/// The wave and the LDS hold the final state afterwards, also after an error (the PC then points
/// after the failing instruction).
pub fn run_wave_alone(
    w: &mut Wave,
    lds: &mut Vec<u8>,
    prog: &Program,
    mem: &DeviceMemory,
    cfg: &ExecConfig,
    max_insts: u64,
) -> Result<DispatchStats, DispatchError> {
    run_wave_alone_observed(w, lds, prog, mem, cfg, max_insts, &mut NoObserver)
}

/// [`run_wave_alone`] with an observer seeing every instruction (issue-model tests).
pub fn run_wave_alone_observed<O: Observer<Wave, Inst> + ?Sized>(
    w: &mut Wave,
    lds: &mut Vec<u8>,
    prog: &Program,
    mem: &DeviceMemory,
    cfg: &ExecConfig,
    max_insts: u64,
    obs: &mut O,
) -> Result<DispatchStats, DispatchError> {
    let lanes = w.lanes() as u32;
    let b = PreparedWave {
        code: Linked::new(prog, None).with_jit(cfg.engine, w.wave64, w.num_vgprs, w.hw.mode),
        geo: Geometry::new(&[lanes], &[lanes])?,
        cfg,
        lanes,
        limit: w.wave_insts.saturating_add(max_insts),
        state: std::sync::Mutex::new(Some((
            std::mem::replace(w, Wave::new(w.wave64, 1)),
            std::mem::take(lds),
        ))),
    };
    let r = engine::run(&b, mem, obs);
    if let Some((back, l)) = b.take() {
        *w = back;
        *lds = l;
    }
    r
}
