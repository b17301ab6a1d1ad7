//! The R700 executor: one wavefront steps through the CF program clause by clause with the
//! programmer-visible state of the R700 ISA reference, 2.5 "Program state" (R700 ISA reference, 2.5 Program State):
//!
//! - GPRs (4 x 32 bits per thread), `127 - 2 * clause_temps` usable, and the clause temporaries, which
//!   live only for one ALU clause and cannot be reached by fetch or export;
//! - AR, written by MOVA*, valid for the rest of the ALU clause;
//! - the 512-entry constant file and the kcache banks locked by each CF_ALU instruction;
//! - PV/PS (results of the previous instruction group), valid within one ALU clause;
//! - the predicate (one bit per thread, one ALU clause) and PRED_SEL;
//! - per-pixel state (active, inactive-branch, inactive-break, inactive-continue, killed) giving the
//!   active and valid masks; exec-mask updates take effect at the end of the ALU clause;
//! - the stack (pushes, loops, calls) with its depth limit;
//! - the loop index aL and the integer loop constant I;
//! - SIMD-global GPRs shared by all threads of the SIMD, fetch constants, texture resources and samplers.
//!
//! The loop is shaped for the shared engine: [`Wave`] is the per-wave state, [`run_wave`] runs one wave
//! until it ends or faults (with a budget), and [`describe_pc`] turns a location into text.

// Per-lane loops index several parallel arrays (GPR channels, masks, results) by lane.
#![allow(clippy::needless_range_loop)]

use crate::decode::{sel, AluGroup, AluInst, CfInst, CfKind, FetchInst, FetchRow, Program, SLOT_T};
use crate::isa::{
    AluExec, CfAluExec, CfExec, Chip, CmpTy, ExportKind, FetchExec, LoopAl, MovaKind, Pair64Op,
    TexLod, Unit,
};
use crate::semantics::{self as sem, compare, ONE_F};
use crate::texture::{self, MipFilter, Sampler, Texture};
use wavesim_core::observe::{
    numbered_space, record_access, AccessKind, InstLoc, MemAccess, MemoryView, Observer,
};

use thiserror::Error;

mod alu;
mod cf;
mod export;
mod fetch;
mod lds;

use alu::run_alu_clause;
pub use cf::run_wave;
use export::do_export;
use fetch::run_fetch;
use lds::run_lds;

/// What an observer sees (`wavesim_core::observe::Observer<Wave, Step>`): every CF instruction,
/// and inside the clause a CF instruction runs, each ALU instruction group and each fetch
/// instruction. The hooks' `InstLoc::pc` is the step's address in 8-byte units (CF `@N`, the
/// group's first slot, the fetch instruction), one address space for all three (R700 ISA reference,
/// 3.1: clause addresses count 64-bit words from the program's start).
#[derive(Clone)]
pub enum Step {
    Cf(CfInst),
    /// One ALU instruction group and the CF_ALU instruction whose clause holds it.
    Alu {
        cf: CfInst,
        group: AluGroup,
    },
    /// One TEX/VTX instruction and the CF instruction whose clause holds it.
    Fetch {
        cf: CfInst,
        inst: FetchInst,
    },
}

impl Step {
    /// The CF instruction running (itself, or the one whose clause holds the step).
    pub fn cf(&self) -> &CfInst {
        match self {
            Step::Cf(c) | Step::Alu { cf: c, .. } | Step::Fetch { cf: c, .. } => c,
        }
    }
    /// Disassembly text: one line per CF or fetch instruction, one per slot of a group
    /// (`x: ...`, `t: ...`).
    pub fn text(&self) -> String {
        match self {
            Step::Cf(c) => crate::text::cf_text(c).trim().to_string(),
            Step::Fetch { inst, .. } => crate::text::fetch_text(inst).trim().to_string(),
            Step::Alu { group, .. } => group
                .insts
                .iter()
                .map(|i| {
                    format!(
                        "{}: {}",
                        ['x', 'y', 'z', 'w', 't'][(i.slot as usize).min(4)],
                        crate::text::alu_text(i).trim()
                    )
                })
                .collect::<Vec<_>>()
                .join("; "),
        }
    }
}

/// Where an error happened.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Location {
    /// CF instruction address (8-byte units).
    pub cf_pc: u32,
    /// Address of the clause instruction (ALU slot or fetch instruction), if inside a clause.
    pub clause_pc: Option<u32>,
    /// ALU slot (x, y, z, w, t).
    pub slot: Option<char>,
    /// Disassembled instruction.
    pub text: String,
    /// Thread (lane) within the wave, and the wave's first global thread.
    pub lane: Option<usize>,
    pub wave_base: usize,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "CF @{}", self.cf_pc)?;
        if let Some(p) = self.clause_pc {
            write!(f, ", clause @{p}")?;
        }
        if let Some(s) = self.slot {
            write!(f, " slot {s}")?;
        }
        if let Some(l) = self.lane {
            write!(f, ", thread {}", self.wave_base + l)?;
        }
        write!(f, ": `{}`", self.text.trim())
    }
}

#[derive(Debug, Error, Clone, PartialEq)]
pub enum ExecError {
    #[error("{loc}: {msg}")]
    Fault { loc: Location, msg: String },
    #[error("{loc}: stack overflow: {needed} entries needed, the program's limit is {limit}")]
    StackOverflow {
        loc: Location,
        needed: u32,
        limit: u32,
    },
    #[error("{loc}: {what} is not modelled by wavesim: {why}")]
    NotModelled {
        loc: Location,
        what: String,
        why: String,
    },
}

/// Per-pixel state (R700 ISA reference, 2.5 "per-pixel state", 3.6 "Stack and branching").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PixelState {
    Active,
    InactiveBranch,
    InactiveBreak,
    InactiveContinue,
    Killed,
    /// A thread slot the wave does not use (partial wavefront).
    Invalid,
}

/// Integer loop constant I (R700 ISA reference, 2.5: 96 bits = count, init, inc).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LoopConstant {
    pub count: u32,
    pub init: i32,
    pub inc: i32,
}

/// A vertex-fetch constant: where the buffer is and how it is strided.
#[derive(Clone, Debug, Default)]
pub struct FetchConstant {
    /// Buffer contents (little-endian).
    pub data: Vec<u8>,
    /// Byte offset of element 0 in `data` (the fetch constant's base address).
    pub base: u32,
    pub stride: u32,
    /// Format used when a VTX instruction sets USE_CONST_FIELDS (data format, num format, signed).
    pub format: Option<(u32, u32, bool)>,
    /// The fetch constant is constant buffer `id`'s copy (the runner's rule): observers name its
    /// accesses `cb<id>`, not `vb<id>`, and a debugger's write to the buffer changes both.
    pub constant_buffer: bool,
}

/// Everything a driver sets before a draw: the state the runner fills in.
#[derive(Clone, Default)]
pub struct DriverState {
    /// Constant buffers by index (kcache banks and VTX constant-buffer fetches), vec4 dwords.
    pub constant_buffers: Vec<Vec<[u32; 4]>>,
    /// The 512-entry constant file (ALU selects 256..511 and relative addressing).
    pub constant_file: Vec<[u32; 4]>,
    pub loop_constants: Vec<LoopConstant>,
    pub bool_constants: u32,
    pub fetch_constants: Vec<Option<FetchConstant>>,
    pub textures: Vec<Option<Texture>>,
    pub samplers: Vec<Option<Sampler>>,
    /// Number of clause-temporary GPRs (0..=4); they take GPR addresses 128-n..127.
    pub clause_temp_gprs: u32,
    /// SIMD-global GPRs, shared by every thread of the SIMD. ALU operands reach them with the REL bit
    /// and INDEX_MODE = GLOBAL (5: absolute address SEL) or GLOBAL_AR_X (6: SEL + AR.x); R700 ISA
    /// reference 2.6.1.1 "the global GPRs are accessed through an index_mode (simd-global) ... as an
    /// absolute address ... in conjunction with the src-rel/dest-rel fields"; the mode numbers are
    /// those of AMD's register headers (R7xx_SQ_INDEX_GLOBAL = 5, _GLOBAL_AR_X = 6).
    pub global_gprs: Vec<[u32; 4]>,
    /// NUM_GPRS from the object's SQ_PGM_RESOURCES (0 = no limit beyond the ISA's).
    pub num_gprs: u32,
    /// STACK_SIZE from the object (entries); None = the chip's maximum (raw programs).
    pub stack_size: Option<u32>,
    /// A fetch subroutine for CALL_FS; `None` means the runner preloaded the fetched GPRs.
    pub fetch_shader: Option<Program>,
    /// True when lanes 4q..4q+3 of every wave are one 2x2 pixel quad, in the order (x, y), (x + 1, y),
    /// (x, y + 1), (x + 1, y + 1) (the runner's pixel grids with even sides); GET_GRADIENTS needs it.
    pub quads: bool,
}

/// One exported vector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Export {
    pub target: ExportTarget,
    /// Components; `None` for masked components (swizzle `_` or comp_mask off).
    pub value: [Option<u32>; 4],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ExportTarget {
    Pixel(u32),
    Position(u32),
    Parameter(u32),
    /// Memory stream (stream, array base + element).
    Stream(u32, u32),
    Other(u32, u32),
}

impl std::fmt::Display for ExportTarget {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ExportTarget::Pixel(n) => write!(f, "pixel{n}"),
            ExportTarget::Position(n) => write!(f, "pos{n}"),
            ExportTarget::Parameter(n) => write!(f, "param{n}"),
            ExportTarget::Stream(s, n) => write!(f, "stream{s}[{n}]"),
            ExportTarget::Other(k, n) => write!(f, "export{k}[{n}]"),
        }
    }
}

enum StackEntry {
    Push {
        saved: Vec<PixelState>,
    },
    Loop {
        saved: Vec<PixelState>,
        counter: u32,
        dx10: bool,
        al: i32,
        inc: i32,
        sets_al: bool,
        prev_al: Option<i32>,
    },
    Call {
        ret: u32,
        saved_program: bool,
    },
}

/// One wavefront's state.
pub struct Wave {
    pub lanes: usize,
    pub base: usize,
    /// gpr[reg][chan][lane]
    pub gpr: Vec<[Vec<u32>; 4]>,
    pub state: Vec<PixelState>,
    pub exports: Vec<Vec<Export>>,
    stack: Vec<StackEntry>,
    /// Loop index aL of the innermost LOOP_START (None outside loops that set it).
    al: Option<i32>,
    // per-clause state
    ar: [Option<Vec<i32>>; 4],
    pv: [Option<Vec<u32>>; 4],
    ps: Option<Vec<u32>>,
    pred: Vec<bool>,
    exec_update: Option<Vec<bool>>,
    temps: Vec<[Option<Vec<u32>>; 4]>,
    kcache: [(u32, u32, u32); 2],
    pub cf_executed: u64,
    pub alu_groups: u64,
    /// Sum over executed ALU groups of the threads active in them.
    pub lane_groups: u64,
    /// Next CF instruction (8-byte units) and, inside the fetch shader, where CALL_FS returns to.
    pub pc: u32,
    pub in_fetch: Option<u32>,
    pub ended: bool,
    /// The engine's workgroup of this wave (one wave per workgroup).
    pub workgroup: [u32; 3],
    /// The local data share this wave's group sees (created by the first DS_LOCAL_WRITE).
    lds: Option<Box<Lds>>,
    /// Per-thread gradients loaded by SET_GRADIENTS_H ([0]) and SET_GRADIENTS_V ([1]) for SAMPLE_G;
    /// None until the first SET_GRADIENTS (the ISA gives them no initial value).
    grads: [Option<Vec<[u32; 4]>>; 2],
    /// The memory accesses of the step being run (VTX fetches, LDS, exports), while an observer
    /// is enabled (the run loops clear it after the pause before each step); `None` otherwise.
    pub accesses: Option<Vec<MemAccess>>,
}

/// R700 LDS: 16 KB per SIMD (R700 ISA reference, 2.5 Program State, "LDS ... reads up to 16KB"), modelled as 4 banks of 1024 dwords.
/// A dword no thread has written reads as an error: the ISA gives LDS no initial contents.
struct Lds {
    data: Vec<u32>,
    written: Vec<bool>,
}

const LDS_BANKS: usize = 4;
const LDS_BANK_DWORDS: usize = 1024;

const MAX_GPR: usize = 128;

impl Wave {
    pub fn new(lanes: usize, base: usize, used: usize) -> Wave {
        let mut state = vec![PixelState::Active; lanes];
        for s in state.iter_mut().skip(used) {
            *s = PixelState::Invalid;
        }
        Wave {
            lanes,
            base,
            gpr: (0..MAX_GPR)
                .map(|_| std::array::from_fn(|_| vec![0u32; lanes]))
                .collect(),
            state,
            exports: vec![Vec::new(); lanes],
            stack: Vec::new(),
            al: None,
            ar: Default::default(),
            pv: Default::default(),
            ps: None,
            pred: vec![false; lanes],
            exec_update: None,
            temps: Vec::new(),
            kcache: [(0, 0, 0); 2],
            cf_executed: 0,
            alu_groups: 0,
            lane_groups: 0,
            pc: 0,
            in_fetch: None,
            ended: false,
            workgroup: [0; 3],
            lds: None,
            grads: [None, None],
            accesses: None,
        }
    }
    /// The loop index aL (None outside loops that set it), for observers that resolve
    /// SRC_REL / DST_REL operands.
    pub fn loop_index(&self) -> Option<i32> {
        self.al
    }
    /// Records a memory access for observers (nothing when none is enabled).
    fn record(
        &mut self,
        kind: AccessKind,
        space: &'static str,
        lane: usize,
        addr: u64,
        value: u32,
    ) {
        record_access(&mut self.accesses, kind, space, lane, addr, 4, value.into());
    }
    fn active(&self, l: usize) -> bool {
        self.state[l] == PixelState::Active
    }
    fn any_active(&self) -> bool {
        self.state.contains(&PixelState::Active)
    }
    /// Threads not killed (the valid mask).
    pub fn valid(&self, l: usize) -> bool {
        !matches!(self.state[l], PixelState::Killed | PixelState::Invalid)
    }
}

/// Starts a step for observers, after the pause (where a debugger still sees the previous step's
/// accesses): its accesses begin empty.
fn begin_step(w: &mut Wave) {
    match &mut w.accesses {
        Some(v) => v.clear(),
        None => w.accesses = Some(Vec::new()),
    }
}

/// The memory of an R700 run a step debugger reads and writes ([`Observer::pause_mem`]): the
/// constant buffers (`cb0`..`cb15`, 16 bytes per entry, what kcache and constant-buffer VTX
/// fetches read) and the fetch constants' buffers (`vb0`..`vb175`, byte offsets as a VTX fetch's
/// address). Writing `cbN` also writes its VTX copy (fetch constant N, when it is the copy).
pub struct DriverMemory<'a> {
    drv: &'a mut DriverState,
    /// Made on first use: most pauses of an observed run do not stop.
    names: std::cell::OnceCell<Vec<&'static str>>,
}

impl<'a> DriverMemory<'a> {
    pub fn new(drv: &'a mut DriverState) -> DriverMemory<'a> {
        DriverMemory {
            drv,
            names: Default::default(),
        }
    }
}

impl MemoryView for DriverMemory<'_> {
    fn spaces(&self) -> &[&'static str] {
        self.names.get_or_init(|| {
            (0..16)
                .map(|i| numbered_space("cb", i))
                .chain((0..self.drv.fetch_constants.len() as u32).map(|i| numbered_space("vb", i)))
                .collect()
        })
    }
    fn read(&self, space: usize, addr: u64, out: &mut [u8]) -> Result<(), String> {
        for (k, b) in out.iter_mut().enumerate() {
            let a = addr + k as u64;
            *b = if space < 16 {
                let e = self
                    .drv
                    .constant_buffers
                    .get(space)
                    .and_then(|cb| cb.get((a / 16) as usize))
                    .ok_or_else(|| format!("cb{space} has no byte {a:#x}"))?;
                e[(a / 4 % 4) as usize].to_le_bytes()[(a % 4) as usize]
            } else {
                let id = space - 16;
                *self
                    .drv
                    .fetch_constants
                    .get(id)
                    .and_then(|f| f.as_ref())
                    .and_then(|f| f.data.get(a as usize))
                    .ok_or_else(|| format!("vb{id} has no byte {a:#x}"))?
            };
        }
        Ok(())
    }
    fn write(&mut self, space: usize, addr: u64, data: &[u8]) -> Result<(), String> {
        // Check every byte first: a write is all or nothing.
        let mut probe = vec![0u8; data.len()];
        self.read(space, addr, &mut probe)?;
        for (k, &b) in data.iter().enumerate() {
            let a = addr + k as u64;
            let id = if space < 16 { space } else { space - 16 };
            if space < 16 {
                let e =
                    &mut self.drv.constant_buffers[space][(a / 16) as usize][(a / 4 % 4) as usize];
                let mut bytes = e.to_le_bytes();
                bytes[(a % 4) as usize] = b;
                *e = u32::from_le_bytes(bytes);
            }
            if let Some(Some(f)) = self.drv.fetch_constants.get_mut(id) {
                if space >= 16 || f.constant_buffer {
                    if let Some(x) = f.data.get_mut(a as usize) {
                        *x = b;
                    }
                }
            }
        }
        Ok(())
    }
}

struct Ctx<'a> {
    program: &'a Program,
    drv: &'a mut DriverState,
    cf_pc: u32,
    wave_base: usize,
}

impl Ctx<'_> {
    fn loc(
        &self,
        clause_pc: Option<u32>,
        slot: Option<u8>,
        text: String,
        lane: Option<usize>,
    ) -> Location {
        Location {
            cf_pc: self.cf_pc,
            clause_pc,
            slot: slot.map(|s| ['x', 'y', 'z', 'w', 't'][(s as usize).min(4)]),
            text,
            lane,
            wave_base: self.wave_base,
        }
    }
}

fn cf_loc(ctx: &Ctx, c: &CfInst) -> Location {
    ctx.loc(None, None, crate::text::cf_text(c), None)
}

fn fault(loc: Location, msg: impl Into<String>) -> ExecError {
    ExecError::Fault {
        loc,
        msg: msg.into(),
    }
}

/// Stack usage in entries: loops and calls take a whole entry, pushes a quarter entry (R700 ISA
/// reference 3.6.2; the accounting LLVM's R600ControlFlowFinalizer CFStack mirrors).
fn stack_entries(stack: &[StackEntry]) -> u32 {
    let mut full = 0;
    let mut sub: u32 = 0;
    for e in stack {
        match e {
            StackEntry::Push { .. } => sub += 1,
            _ => full += 1,
        }
    }
    full + sub.div_ceil(4)
}

fn push(w: &mut Wave, ctx: &Ctx, c: &CfInst, e: StackEntry) -> Result<(), ExecError> {
    w.stack.push(e);
    let limit = ctx
        .drv
        .stack_size
        .unwrap_or(ctx.program.chip.max_stack_entries())
        .min(ctx.program.chip.max_stack_entries());
    let needed = stack_entries(&w.stack);
    if needed > limit {
        return Err(ExecError::StackOverflow {
            loc: cf_loc(ctx, c),
            needed,
            limit,
        });
    }
    Ok(())
}

/// Restores pixels that a branch inside this level made inactive.
fn restore_from(saved: &[PixelState], state: &mut [PixelState], loop_exit: bool) {
    for (s, cur) in saved.iter().zip(state.iter_mut()) {
        if *s == PixelState::Active {
            let back = match cur {
                PixelState::InactiveBranch => true,
                PixelState::InactiveBreak | PixelState::InactiveContinue => loop_exit,
                _ => false,
            };
            if back {
                *cur = PixelState::Active;
            }
        }
    }
}

fn pop_n(w: &mut Wave, ctx: &Ctx, c: &CfInst, n: u32) -> Result<(), ExecError> {
    for _ in 0..n {
        match w.stack.pop() {
            Some(StackEntry::Push { saved }) => restore_from(&saved, &mut w.state, false),
            Some(_) => {
                return Err(fault(
                    cf_loc(ctx, c),
                    "POP reached a loop or call entry on the stack",
                ))
            }
            None => return Err(fault(cf_loc(ctx, c), "stack underflow")),
        }
    }
    Ok(())
}

fn cond_true(ctx: &Ctx, c: &CfInst) -> bool {
    match c.cond() {
        0 => true,
        1 => false,
        2 => ctx.drv.bool_constants >> c.cf_const() & 1 != 0,
        _ => ctx.drv.bool_constants >> c.cf_const() & 1 == 0,
    }
}

/// ELSE on the pixel state: active pixels become inactive-branch, and pixels this level's push saw
/// active but a branch deactivated become active (R700 ISA reference, ELSE).
fn do_else(w: &mut Wave, ctx: &Ctx, c: &CfInst) -> Result<(), ExecError> {
    let saved = match w.stack.last() {
        Some(StackEntry::Push { saved }) => saved.clone(),
        _ => {
            return Err(fault(
                cf_loc(ctx, c),
                "ELSE without a PUSH entry on top of the stack",
            ))
        }
    };
    for (l, s) in saved.iter().enumerate() {
        match w.state[l] {
            PixelState::Active => w.state[l] = PixelState::InactiveBranch,
            PixelState::InactiveBranch if *s == PixelState::Active => {
                w.state[l] = PixelState::Active
            }
            _ => {}
        }
    }
    Ok(())
}

pub use wavesim_core::engine::Stop;

/// Text of the instruction at a CF address, for error messages and debuggers.
pub fn describe_pc(p: &Program, cf_pc: u32) -> String {
    p.cf.get(cf_pc as usize)
        .map(crate::text::cf_text)
        .unwrap_or_else(|| format!("@{cf_pc}: past the CF program"))
}
