//! The R700 executor: one wavefront steps through the CF program clause by clause with the
//! programmer-visible state of the R700 ISA reference, 2.5 "Program state" (seed 003):
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
use wavesim_core::observe::{InstLoc, Observer};

use thiserror::Error;

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
}

/// R700 LDS: 16 KB per SIMD (seed 003, "LDS ... reads up to 16KB"), modelled as 4 banks of 1024 dwords.
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
        }
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
    ctx.loc(None, None, crate::disasm::cf_text(c), None)
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

/// Runs a wave for at most `budget` CF instructions: until its program ends (END_OF_PROGRAM, or past
/// the last CF instruction), it faults, or the budget runs out (then it resumes where it stopped).
/// `obs` sees every CF instruction (clauses run inside their CF instruction).
pub fn run_wave<O: Observer<Wave, CfInst> + ?Sized>(
    program: &Program,
    drv: &mut DriverState,
    w: &mut Wave,
    budget: u64,
    obs: &mut O,
) -> Result<Stop, ExecError> {
    let fetch_shader = drv.fetch_shader.take();
    let r = run_wave_inner(program, fetch_shader.as_ref(), drv, w, budget, obs);
    drv.fetch_shader = fetch_shader;
    r
}

fn run_wave_inner<O: Observer<Wave, CfInst> + ?Sized>(
    program: &Program,
    fetch_shader: Option<&Program>,
    drv: &mut DriverState,
    w: &mut Wave,
    budget: u64,
    obs: &mut O,
) -> Result<Stop, ExecError> {
    if w.ended {
        return Ok(Stop::End);
    }
    let mut prog = match (w.in_fetch, fetch_shader) {
        (Some(_), Some(fs)) => fs,
        _ => program,
    };
    let mut ctx = Ctx {
        program: prog,
        drv,
        cf_pc: 0,
        wave_base: w.base,
    };
    let mut pc: u32 = w.pc;
    let mut ran = 0u64;
    loop {
        w.pc = pc;
        if ran >= budget {
            return Ok(Stop::Quantum);
        }
        ran += 1;
        let Some(c) = prog.cf.get(pc as usize).copied() else {
            if let Some(ret) = w.in_fetch.take() {
                // The fetch shader ended without RETURN: drop its call entry and resume.
                w.stack.pop();
                prog = program;
                ctx.program = program;
                pc = ret;
                continue;
            }
            w.ended = true;
            return Ok(Stop::End);
        };
        ctx.cf_pc = pc;
        w.cf_executed += 1;
        let iloc = InstLoc {
            workgroup: w.workgroup,
            wave: 0,
            // `@N` units as the disassembly shows them; the byte offset in `.text` as the address.
            pc: pc as u64,
            addr: pc as u64 * 8,
            trap_handler: false,
        };
        if obs.enabled() {
            obs.before(&iloc, w, &c);
        }
        let mut next = pc + 1;
        // VALID_PIXEL_MODE on CF_DWORD instructions makes the instruction treat invalid (killed or
        // never-covered) pixels as inactive, and on instructions that pop it deactivates invalid
        // pixels after the restore (R700 ISA reference 3.6.2). wavesim keeps killed and uncovered
        // pixels out of the active state at all times (PixelState::Killed / Invalid are never
        // restored by a pop), so the bit changes nothing here. WHOLE_QUAD_MODE, which would activate
        // inactive pixels of a partly active quad, is not modelled.
        // (WHOLE_QUAD_MODE is bit 30 of word 1 in the CF, CF_ALU and CF_ALLOC_EXPORT formats alike.)
        if c.whole_quad_mode() {
            return Err(ExecError::NotModelled {
                loc: cf_loc(&ctx, &c),
                what: "WHOLE_QUAD_MODE".into(),
                why: "whole-quad execution (helper pixels for gradients) is not modelled".into(),
            });
        }
        match c.kind {
            CfKind::Alu(r) => {
                let clause = &prog.alu[&c.alu_addr()];
                if r.exec == CfAluExec::PushBefore {
                    let saved = w.state.clone();
                    push(w, &ctx, &c, StackEntry::Push { saved })?;
                }
                let before = w.state.clone();
                run_alu_clause(&mut ctx, w, &c, clause)?;
                // Exec-mask update from the clause's last PRED_SET* with UPDATE_EXEC_MASK.
                if let Some(upd) = w.exec_update.take() {
                    let inactive = match r.exec {
                        CfAluExec::Break => PixelState::InactiveBreak,
                        CfAluExec::Continue => PixelState::InactiveContinue,
                        _ => PixelState::InactiveBranch,
                    };
                    for (l, u) in upd.iter().enumerate() {
                        if w.state[l] == PixelState::Active && before[l] == PixelState::Active && !u
                        {
                            w.state[l] = inactive;
                        }
                    }
                }
                match r.exec {
                    CfAluExec::PopAfter => pop_n(w, &ctx, &c, 1)?,
                    CfAluExec::Pop2After => pop_n(w, &ctx, &c, 2)?,
                    CfAluExec::ElseAfter => do_else(w, &ctx, &c)?,
                    _ => {}
                }
            }
            CfKind::Export(r) => do_export(&ctx, w, &c, r)?,
            CfKind::Normal(r) => {
                let cond = cond_true(&ctx, &c);
                match r.exec {
                    CfExec::Nop => {}
                    CfExec::TexClause | CfExec::VtxClause => {
                        let clause = &prog.fetch[&c.w0];
                        for f in &clause.insts {
                            run_fetch(&mut ctx, w, f)?;
                        }
                    }
                    CfExec::Jump => {
                        if !(cond && w.any_active()) {
                            pop_n(w, &ctx, &c, c.pop_count())?;
                            next = c.w0;
                        }
                    }
                    CfExec::Push => {
                        // "If all pixels fail the test, PUSH does not push anything onto the stack;
                        // instead, it performs POP_COUNT pops, then jumps" (R700 ISA reference 3.7.2).
                        if cond && w.any_active() {
                            let saved = w.state.clone();
                            push(w, &ctx, &c, StackEntry::Push { saved })?;
                        } else {
                            pop_n(w, &ctx, &c, c.pop_count())?;
                            next = c.w0;
                        }
                    }
                    CfExec::Else => {
                        do_else(w, &ctx, &c)?;
                        if !(cond && w.any_active()) {
                            pop_n(w, &ctx, &c, c.pop_count())?;
                            next = c.w0;
                        }
                    }
                    CfExec::PushElse => {
                        let saved = w.state.clone();
                        push(w, &ctx, &c, StackEntry::Push { saved })?;
                        do_else(w, &ctx, &c)?;
                        if !w.any_active() {
                            next = c.w0;
                        }
                    }
                    CfExec::Pop => {
                        // "Pop instructions never jump" (R700 ISA reference 3.7.2): ADDR is unused.
                        // POP pops POP_COUNT entries (possibly none) and then applies the condition
                        // test to the result: pixels that fail it become inactive.
                        pop_n(w, &ctx, &c, c.pop_count())?;
                        if !cond {
                            for s in w.state.iter_mut() {
                                if *s == PixelState::Active {
                                    *s = PixelState::InactiveBranch;
                                }
                            }
                        }
                    }
                    CfExec::PopJump | CfExec::PopPush | CfExec::PopPushElse => {
                        return Err(ExecError::NotModelled {
                            loc: cf_loc(&ctx, &c),
                            what: r.isa.into(),
                            why: "the combined pop/jump/push forms are not modelled".into(),
                        })
                    }
                    CfExec::LoopStart { al } => {
                        let (count, init, inc) = match al {
                            LoopAl::Dx10 => (u32::MAX, 0, 0),
                            _ => {
                                let k = c.cf_const() as usize;
                                let lc =
                                    ctx.drv.loop_constants.get(k).copied().ok_or_else(|| {
                                        fault(
                                            cf_loc(&ctx, &c),
                                            format!("loop constant I{k} is not set by the runner"),
                                        )
                                    })?;
                                (lc.count, lc.init, lc.inc)
                            }
                        };
                        let prev_al = w.al;
                        let (al_val, inc) = match al {
                            LoopAl::FromConstant => (init, inc),
                            _ => (w.al.unwrap_or(0), 0),
                        };
                        let saved = w.state.clone();
                        push(
                            w,
                            &ctx,
                            &c,
                            StackEntry::Loop {
                                saved,
                                counter: count,
                                dx10: al == LoopAl::Dx10,
                                al: al_val,
                                inc,
                                sets_al: al == LoopAl::FromConstant,
                                prev_al,
                            },
                        )?;
                        if al == LoopAl::FromConstant {
                            w.al = Some(al_val);
                        }
                        if count == 0 || !(cond && w.any_active()) {
                            exit_loop(w, &ctx, &c)?;
                            next = c.w0;
                        }
                    }
                    CfExec::LoopEnd => {
                        // Pushes left inside the body (a LOOP_BREAK/LOOP_CONTINUE that jumped here past
                        // their POP) end with the iteration: pop them, restoring their pixels.
                        while let Some(StackEntry::Push { .. }) = w.stack.last() {
                            if let Some(StackEntry::Push { saved }) = w.stack.pop() {
                                restore_from(&saved, &mut w.state, false);
                            }
                        }
                        let Some(StackEntry::Loop {
                            saved,
                            counter,
                            dx10,
                            al,
                            inc,
                            sets_al,
                            ..
                        }) = w.stack.last_mut()
                        else {
                            return Err(fault(
                                cf_loc(&ctx, &c),
                                "LOOP_END without a loop entry on top of the stack",
                            ));
                        };
                        // Pixels that continued rejoin at the end of the iteration.
                        for (l, s) in saved.iter().enumerate() {
                            if *s == PixelState::Active
                                && w.state[l] == PixelState::InactiveContinue
                            {
                                w.state[l] = PixelState::Active;
                            }
                        }
                        if !*dx10 {
                            *counter = counter.saturating_sub(1);
                        }
                        *al = al.wrapping_add(*inc);
                        let (again, sets_al, al_now) = (
                            *counter > 0 && w.state.contains(&PixelState::Active),
                            *sets_al,
                            *al,
                        );
                        if again && cond {
                            if sets_al {
                                w.al = Some(al_now);
                            }
                            // LOOP_END's ADDR is the first instruction of the loop body.
                            next = c.w0;
                        } else {
                            exit_loop(w, &ctx, &c)?;
                        }
                    }
                    CfExec::LoopBreak | CfExec::LoopContinue => {
                        if !w.stack.iter().any(|e| matches!(e, StackEntry::Loop { .. })) {
                            return Err(fault(
                                cf_loc(&ctx, &c),
                                "LOOP_BREAK/LOOP_CONTINUE outside a loop",
                            ));
                        }
                        let to = if r.exec == CfExec::LoopBreak {
                            PixelState::InactiveBreak
                        } else {
                            PixelState::InactiveContinue
                        };
                        if cond {
                            for s in w.state.iter_mut() {
                                if *s == PixelState::Active {
                                    *s = to;
                                }
                            }
                        }
                        if !w.any_active() {
                            pop_n(w, &ctx, &c, c.pop_count())?;
                            next = c.w0;
                        }
                    }
                    CfExec::Call => {
                        if cond && w.any_active() {
                            push(
                                w,
                                &ctx,
                                &c,
                                StackEntry::Call {
                                    ret: pc + 1,
                                    saved_program: false,
                                },
                            )?;
                            next = c.w0;
                        }
                    }
                    CfExec::Return => match w.stack.pop() {
                        Some(StackEntry::Call { ret, saved_program }) => {
                            if saved_program {
                                if let Some(r) = w.in_fetch.take() {
                                    prog = program;
                                    ctx.program = program;
                                    next = r;
                                } else {
                                    next = ret;
                                }
                            } else {
                                next = ret;
                            }
                        }
                        _ => {
                            return Err(fault(
                                cf_loc(&ctx, &c),
                                "RETURN without a CALL entry on top of the stack",
                            ))
                        }
                    },
                    CfExec::CallFs => {
                        if let Some(fs) = fetch_shader {
                            if w.in_fetch.is_some() {
                                return Err(fault(
                                    cf_loc(&ctx, &c),
                                    "CALL_FS inside the fetch shader",
                                ));
                            }
                            push(
                                w,
                                &ctx,
                                &c,
                                StackEntry::Call {
                                    ret: pc + 1,
                                    saved_program: true,
                                },
                            )?;
                            w.in_fetch = Some(pc + 1);
                            // The fetch shader runs as a subroutine; its RETURN (or end) comes back here.
                            prog = fs;
                            ctx.program = fs;
                            pc = 0;
                            continue;
                        }
                        // No fetch shader: the runner preloaded the GPRs a fetch shader would have written.
                    }
                    CfExec::Kill => {
                        if cond {
                            for s in w.state.iter_mut() {
                                if *s == PixelState::Active {
                                    *s = PixelState::Killed;
                                }
                            }
                        }
                        if !w.any_active() {
                            pop_n(w, &ctx, &c, c.pop_count())?;
                            next = c.w0;
                        }
                    }
                    CfExec::Emit => {
                        return Err(ExecError::NotModelled {
                            loc: cf_loc(&ctx, &c),
                            what: r.isa.into(),
                            why: "geometry-shader emission is not modelled".into(),
                        })
                    }
                    CfExec::NotModelled(why) => {
                        return Err(ExecError::NotModelled {
                            loc: cf_loc(&ctx, &c),
                            what: r.isa.into(),
                            why: why.into(),
                        })
                    }
                }
            }
        }
        if c.end_of_program() {
            if let Some(ret) = w.in_fetch.take() {
                // The fetch shader ended without RETURN: drop its call entry and resume.
                w.stack.pop();
                prog = program;
                ctx.program = program;
                pc = ret;
                continue;
            }
            w.ended = true;
            if obs.enabled() {
                obs.after(&iloc, w, &c);
            }
            return Ok(Stop::End);
        }
        pc = next;
        if obs.enabled() {
            w.pc = pc;
            obs.after(&iloc, w, &c);
        }
    }
}

fn exit_loop(w: &mut Wave, ctx: &Ctx, c: &CfInst) -> Result<(), ExecError> {
    match w.stack.pop() {
        Some(StackEntry::Loop { saved, prev_al, .. }) => {
            restore_from(&saved, &mut w.state, true);
            w.al = prev_al;
            Ok(())
        }
        _ => Err(fault(
            cf_loc(ctx, c),
            "loop exit without a loop entry on top of the stack",
        )),
    }
}

fn do_export(
    ctx: &Ctx,
    w: &mut Wave,
    c: &CfInst,
    r: &crate::isa::ExportRow,
) -> Result<(), ExecError> {
    use crate::decode::bits;
    let base = bits(c.w0, 0, 13);
    let ty = bits(c.w0, 13, 2);
    let mut gpr = bits(c.w0, 15, 7);
    // RW_REL (CF_ALLOC_EXPORT_WORD0 bit 22): 1 = RW_GPR is relative to the loop index aL (R700 ISA
    // reference, CF_ALLOC_EXPORT_WORD0).
    if bits(c.w0, 22, 1) != 0 {
        let al = w.al.ok_or_else(|| {
            fault(
                cf_loc(ctx, c),
                "RW_REL export outside a loop that sets aL (no loop index to add)",
            )
        })?;
        let e = gpr as i64 + al as i64;
        if !(0..128).contains(&e) {
            return Err(fault(
                cf_loc(ctx, c),
                format!("export GPR T{gpr} + aL ({al}) = {e} is outside the GPRs"),
            ));
        }
        gpr = e as u32;
    }
    let burst = bits(c.w1, 17, 4) + 1;
    let vpm = c.valid_pixel_mode();
    let temp_base = 128 - ctx.drv.clause_temp_gprs;
    for b in 0..burst {
        let g = gpr + b;
        if g >= temp_base
            || g as usize >= MAX_GPR
            || (ctx.drv.num_gprs != 0 && g >= ctx.drv.num_gprs)
        {
            return Err(fault(
                cf_loc(ctx, c),
                format!("export reads T{g}, outside the program's GPRs (or a clause temporary)"),
            ));
        }
        for l in 0..w.lanes {
            let on = if vpm { w.valid(l) } else { w.active(l) };
            if !on {
                continue;
            }
            let read = |ch: usize| w.gpr[g as usize][ch][l];
            let (target, value) = match r.kind {
                ExportKind::Swizzle => {
                    let mut v = [None; 4];
                    for (k, item) in v.iter_mut().enumerate() {
                        *item = match bits(c.w1, 3 * k as u32, 3) {
                            s @ 0..=3 => Some(read(s as usize)),
                            4 => Some(0),
                            5 => Some(ONE_F),
                            7 => None,
                            s => {
                                return Err(fault(
                                    cf_loc(ctx, c),
                                    format!("export swizzle select {s} is reserved"),
                                ));
                            }
                        };
                    }
                    let t = match ty {
                        0 => ExportTarget::Pixel(base + b),
                        // Position exports use array bases 60..63 (R700 ISA reference, EXPORT).
                        1 if base >= 60 => ExportTarget::Position(base - 60 + b),
                        1 => {
                            return Err(fault(
                                cf_loc(ctx, c),
                                format!("position export with array base {base} (60..63 expected)"),
                            ));
                        }
                        2 => ExportTarget::Parameter(base + b),
                        _ => ExportTarget::Other(ty, base + b),
                    };
                    (t, v)
                }
                ExportKind::Buffer => {
                    if ty & 1 != 0 {
                        return Err(ExecError::NotModelled {
                            loc: cf_loc(ctx, c),
                            what: "indexed memory export".into(),
                            why: "WRITE_IND/READ_IND memory exports are not modelled".into(),
                        });
                    }
                    let mask = bits(c.w1, 12, 4);
                    let mut v = [None; 4];
                    for (k, item) in v.iter_mut().enumerate() {
                        if mask >> k & 1 != 0 {
                            *item = Some(read(k));
                        }
                    }
                    let t = match r.stream {
                        Some(s) => ExportTarget::Stream(s as u32, base + b),
                        None => ExportTarget::Other(r.opcode as u32, base + b),
                    };
                    (t, v)
                }
            };
            w.exports[l].push(Export { target, value });
        }
    }
    Ok(())
}

fn slot_char(s: u8) -> Option<u8> {
    Some(s)
}

/// Reads one ALU source for one lane.
#[allow(clippy::too_many_arguments)]
fn read_src(
    ctx: &Ctx,
    w: &Wave,
    i: &AluInst,
    g: &AluGroup,
    k: usize,
    l: usize,
    clause_pc: u32,
) -> Result<u32, ExecError> {
    let s = &i.src[k];
    let loc = |msg: String| {
        fault(
            ctx.loc(
                Some(clause_pc),
                slot_char(i.slot),
                crate::disasm::alu_text(i),
                Some(l),
            ),
            msg,
        )
    };
    let index = |w: &Wave| -> Result<i32, ExecError> {
        match i.index_mode {
            m @ 0..=3 => w.ar[m as usize].as_ref().map(|a| a[l]).ok_or_else(|| {
                loc(format!(
                    "relative operand uses AR.{} which no MOVA wrote in this ALU clause",
                    ['x', 'y', 'z', 'w'][m as usize]
                ))
            }),
            INDEX_LOOP => w.al.ok_or_else(|| {
                loc("relative operand uses the loop index aL outside a LOOP_START loop".into())
            }),
            m => Err(loc(format!("INDEX_MODE {m} is reserved"))),
        }
    };
    let mut v = match s.sel {
        r if r < sel::GPR_END && s.rel && i.index_mode >= INDEX_GLOBAL => {
            let g = global_index(ctx, w, i, r as i32, l).map_err(loc)?;
            ctx.drv.global_gprs[g][s.chan as usize & 3]
        }
        r if r < sel::GPR_END => {
            let reg = r as i32 + if s.rel { index(w)? } else { 0 };
            read_gpr(ctx, w, reg, s.chan as usize, l).map_err(loc)?
        }
        r if r < sel::KCACHE_END => {
            let bank = if r < sel::KCACHE1 { 0 } else { 1 };
            let n = (r - if bank == 0 {
                sel::KCACHE0
            } else {
                sel::KCACHE1
            }) as i32;
            let (mode, cb, line) = w.kcache[bank];
            let lines = match mode {
                0 => {
                    return Err(loc(format!(
                        "KC{bank} is read but the CF_ALU instruction locked no kcache lines for it"
                    )))
                }
                1 => 1,
                2 => 2,
                _ => {
                    return Err(loc(
                        "kcache lock mode LOCK_LOOP_INDEX is not modelled".into()
                    ))
                }
            };
            let idx = n + if s.rel { index(w)? } else { 0 };
            if !s.rel && n >= 16 * lines {
                return Err(loc(format!(
                    "KC{bank}[{n}] is outside the {lines} locked kcache line(s)"
                )));
            }
            let addr = line as i32 * 16 + idx;
            let buf = ctx
                .drv
                .constant_buffers
                .get(cb as usize)
                .ok_or_else(|| loc(format!("constant buffer {cb} is not bound")))?;
            let e = usize::try_from(addr)
                .ok()
                .and_then(|a| buf.get(a))
                .ok_or_else(|| {
                    loc(format!(
                        "constant {addr} is past the end of constant buffer {cb} ({} vec4s)",
                        buf.len()
                    ))
                })?;
            e[s.chan as usize]
        }
        sel::ZERO => 0,
        sel::ONE => ONE_F,
        sel::ONE_INT => 1,
        sel::M_ONE_INT => u32::MAX,
        sel::HALF => 0x3F00_0000,
        sel::LITERAL => *g.literals.get(s.chan as usize).ok_or_else(|| {
            loc(format!(
                "literal.{} has no literal dword in this group",
                "xyzw".as_bytes()[s.chan as usize] as char
            ))
        })?,
        sel::PV => w.pv[s.chan as usize]
            .as_ref()
            .map(|v| v[l])
            .ok_or_else(|| {
                loc(
                    "PV read, but the previous group of this clause did not write that channel"
                        .into(),
                )
            })?,
        sel::PS => w.ps.as_ref().map(|v| v[l]).ok_or_else(|| {
            loc("PS read, but the previous group of this clause had no trans result".into())
        })?,
        r if r >= sel::CFILE => {
            let idx = (r - sel::CFILE) as i32 + if s.rel { index(w)? } else { 0 };
            let e = usize::try_from(idx)
                .ok()
                .filter(|i| *i < 512)
                .ok_or_else(|| loc(format!("constant-file index {idx} is outside c0..c511")))?;
            ctx.drv
                .constant_file
                .get(e)
                .map(|v| v[s.chan as usize])
                .ok_or_else(|| loc(format!("constant-file entry c{e} is not set by the runner")))?
        }
        r => return Err(loc(format!("source select {r} is reserved on R700"))),
    };
    if s.abs {
        v &= 0x7FFF_FFFF;
    }
    if s.neg {
        v ^= 0x8000_0000;
    }
    Ok(v)
}

/// Reads source `k` of `i` for every thread into `out`: one copy or fill for plain GPRs, constants,
/// literals and PV/PS; thread by thread (with its errors for active threads only) otherwise.
fn read_src_all(
    ctx: &Ctx,
    w: &Wave,
    i: &AluInst,
    g: &AluGroup,
    k: usize,
    clause_pc: u32,
    out: &mut [u32],
) -> Result<(), ExecError> {
    let s = &i.src[k];
    let chan = s.chan as usize & 3;
    let fast = match s.sel {
        r if r < sel::GPR_END && !s.rel => match gpr_kind(ctx, r as i32) {
            Ok(GprKind::Normal(x)) => {
                out.copy_from_slice(&w.gpr[x][chan]);
                true
            }
            _ => false,
        },
        sel::ZERO => {
            out.fill(0);
            true
        }
        sel::ONE => {
            out.fill(ONE_F);
            true
        }
        sel::ONE_INT => {
            out.fill(1);
            true
        }
        sel::M_ONE_INT => {
            out.fill(u32::MAX);
            true
        }
        sel::HALF => {
            out.fill(0x3F00_0000);
            true
        }
        sel::LITERAL => match g.literals.get(chan) {
            Some(v) => {
                out.fill(*v);
                true
            }
            None => false,
        },
        sel::PV => match &w.pv[chan] {
            Some(v) => {
                out.copy_from_slice(v);
                true
            }
            None => false,
        },
        sel::PS => match &w.ps {
            Some(v) => {
                out.copy_from_slice(v);
                true
            }
            None => false,
        },
        _ => false,
    };
    if fast {
        if s.abs {
            out.iter_mut().for_each(|v| *v &= 0x7FFF_FFFF);
        }
        if s.neg {
            out.iter_mut().for_each(|v| *v ^= 0x8000_0000);
        }
        return Ok(());
    }
    for (l, o) in out.iter_mut().enumerate() {
        if w.active(l) {
            *o = read_src(ctx, w, i, g, k, l, clause_pc)?;
        }
    }
    Ok(())
}

/// GPR read with the clause-temporary and SIMD-global mapping.
fn read_gpr(ctx: &Ctx, w: &Wave, reg: i32, chan: usize, l: usize) -> Result<u32, String> {
    match gpr_kind(ctx, reg)? {
        GprKind::Normal(r) => Ok(w.gpr[r][chan][l]),
        GprKind::Temp(t) => w
            .temps
            .get(t)
            .and_then(|x| x[chan].as_ref())
            .map(|v| v[l])
            .ok_or_else(|| {
                format!(
                    "clause temporary {t} (T{reg}.{}) read before this ALU clause wrote it",
                    "XYZW".as_bytes()[chan] as char
                )
            }),
    }
}

enum GprKind {
    Normal(usize),
    Temp(usize),
}

/// INDEX_MODE values (R700 ISA reference, ALU_WORD0).
const INDEX_LOOP: u8 = 4;
const INDEX_GLOBAL: u8 = 5;
const INDEX_GLOBAL_AR_X: u8 = 6;

/// The SIMD-global GPR a relative operand names under INDEX_GLOBAL / INDEX_GLOBAL_AR_X.
fn global_index(ctx: &Ctx, w: &Wave, i: &AluInst, sel: i32, l: usize) -> Result<usize, String> {
    let a = match i.index_mode {
        INDEX_GLOBAL => sel,
        _ => {
            let ar = w.ar[0]
                .as_ref()
                .ok_or("INDEX_GLOBAL_AR_X uses AR.x which no MOVA wrote in this ALU clause")?;
            sel + ar[l]
        }
    };
    usize::try_from(a)
        .ok()
        .filter(|a| *a < ctx.drv.global_gprs.len())
        .ok_or_else(|| {
            format!(
                "SIMD-global GPR {a} does not exist (the driver set {} global GPRs)",
                ctx.drv.global_gprs.len()
            )
        })
}

fn gpr_kind(ctx: &Ctx, reg: i32) -> Result<GprKind, String> {
    let temps = ctx.drv.clause_temp_gprs as i32;
    if !(0..128).contains(&reg) {
        return Err(format!("GPR index {reg} is outside T0..T127"));
    }
    if reg >= 128 - temps {
        return Ok(GprKind::Temp((reg - (128 - temps)) as usize));
    }
    let usable = 127 - 2 * temps;
    if reg >= usable {
        return Err(format!(
            "T{reg} is not addressable with {temps} clause temporaries (127 - 2 x {temps} GPRs)"
        ));
    }
    if ctx.drv.num_gprs != 0 && reg as u32 >= ctx.drv.num_gprs {
        return Err(format!(
            "T{reg} is beyond the program's NUM_GPRS = {}",
            ctx.drv.num_gprs
        ));
    }
    Ok(GprKind::Normal(reg as usize))
}

fn omod_clamp(i: &AluInst, v: u32) -> u32 {
    // Without OMOD or CLAMP the result is written as computed (selects such as CND* and MIN/MAX keep
    // their operand's bits, denormal or not).
    if !i.row.float_out || (i.omod == 0 && !i.clamp) {
        return v;
    }
    let mut x = f32::from_bits(v);
    x = match i.omod {
        1 => x * 2.0,
        2 => x * 4.0,
        3 => x * 0.5,
        _ => x,
    };
    if i.clamp {
        // Clamp to [0, 1]; NaN becomes 0 (R700 ISA reference, CLAMP).
        x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    }
    sem::ftz(x).to_bits()
}

struct SlotResult {
    inst: AluInst,
    /// Address of the instruction (its ALU slot) for error locations.
    pc: u32,
    values: Vec<u32>,
    /// lanes that execute this instruction (active and predicate passes)
    exec: Vec<bool>,
}

fn run_alu_clause(
    ctx: &mut Ctx,
    w: &mut Wave,
    c: &CfInst,
    clause: &crate::decode::AluClause,
) -> Result<(), ExecError> {
    use crate::decode::bits;
    // Per-clause state starts fresh (R700 ISA reference 2.5: AR, PV, PS, the predicate and the clause
    // temporaries persist for one ALU clause only).
    w.ar = Default::default();
    w.pv = Default::default();
    w.ps = None;
    w.pred = vec![false; w.lanes];
    w.exec_update = None;
    w.temps = (0..ctx.drv.clause_temp_gprs)
        .map(|_| Default::default())
        .collect();
    w.kcache = [
        (bits(c.w0, 30, 2), bits(c.w0, 22, 4), bits(c.w1, 2, 8)),
        (bits(c.w1, 0, 2), bits(c.w0, 26, 4), bits(c.w1, 10, 8)),
    ];
    if bits(c.w1, 25, 1) != 0 {
        return Err(ExecError::NotModelled {
            loc: cf_loc(ctx, c),
            what: "ALT_CONST".into(),
            why: "the alternate constant set is not modelled".into(),
        });
    }
    for g in &clause.groups {
        run_group(ctx, w, g)?;
        w.alu_groups += 1;
        w.lane_groups += w.state.iter().filter(|s| **s == PixelState::Active).count() as u64;
    }
    Ok(())
}

fn run_group(ctx: &mut Ctx, w: &mut Wave, g: &AluGroup) -> Result<(), ExecError> {
    let lanes = w.lanes;
    let mut results: Vec<SlotResult> = Vec::with_capacity(g.insts.len());
    let mut new_ar: [Option<Vec<i32>>; 4] = Default::default();
    let mut new_pred: Option<Vec<bool>> = None;
    let mut kills = vec![false; lanes];
    // Reductions (DOT4, CUBE, MAX4) combine the four vector slots.
    let reduction: Vec<&AluInst> = g
        .insts
        .iter()
        .filter(|i| i.row.unit == Unit::Reduction)
        .collect();
    let mut red_vals: Option<Vec<[u32; 4]>> = None;
    let mut pair64: Option<Vec<[u32; 2]>> = None;
    let mut bufs = [vec![0u32; lanes], vec![0u32; lanes], vec![0u32; lanes]];
    for (k, i) in g.insts.iter().enumerate() {
        let clause_pc = g.addr + k as u32;
        let loc = |l: Option<usize>| {
            ctx.loc(Some(clause_pc), Some(i.slot), crate::disasm::alu_text(i), l)
        };
        let nm = |what: &str, why: &str| ExecError::NotModelled {
            loc: loc(None),
            what: what.into(),
            why: why.into(),
        };
        if i.index_mode > INDEX_GLOBAL_AR_X {
            return Err(fault(
                loc(None),
                format!("INDEX_MODE {} is reserved", i.index_mode),
            ));
        }
        let mut values = vec![0u32; lanes];
        let mut exec = vec![false; lanes];
        for l in 0..lanes {
            exec[l] = w.active(l)
                && match i.pred_sel {
                    0 => true,
                    2 => !w.pred[l],
                    3 => w.pred[l],
                    _ => return Err(fault(loc(None), "PRED_SEL 1 is reserved")),
                };
        }
        if let AluExec::NotModelled(why) = i.row.exec {
            if exec.iter().any(|e| *e) {
                return Err(nm(i.row.isa, why));
            }
            results.push(SlotResult {
                inst: *i,
                pc: clause_pc,
                values,
                exec,
            });
            continue;
        }
        if let AluExec::Pair64(op) = i.row.exec {
            if ctx.program.chip != Chip::Rv770 {
                return Err(fault(
                    loc(None),
                    format!(
                        "{} is a double-precision instruction; {:?} has no double-precision unit (only RV770-class R700 chips do)",
                        i.row.isa, ctx.program.chip
                    ),
                ));
            }
            if i.clamp || i.omod != 0 {
                return Err(nm(
                    "OMOD/CLAMP on a double-precision instruction",
                    "the sources wavesim uses do not say how they act on a 64-bit result",
                ));
            }
            if pair64.is_none() {
                pair64 = Some(run_pair64(ctx, w, g, i, op)?);
            }
            let pv = pair64.as_ref().map(|p| &p[..]).unwrap_or(&[]);
            if op == Pair64Op::F64ToF32 && i.slot == 1 && i.write {
                return Err(nm(
                    "FLT64_TO_FLT32 Y-slot result",
                    "the sources wavesim uses leave the Y slot's destination unwritten",
                ));
            }
            for l in 0..lanes {
                if w.active(l) {
                    values[l] = pv.get(l).map(|p| p[i.slot as usize & 1]).unwrap_or(0);
                }
            }
            results.push(SlotResult {
                inst: *i,
                pc: clause_pc,
                values,
                exec,
            });
            continue;
        }
        if i.row.unit == Unit::Reduction && red_vals.is_none() {
            if reduction.len() != 4
                || reduction.iter().any(|r| r.row.opcode != i.row.opcode)
                || !(0..4).all(|s| reduction.iter().any(|r| r.slot == s))
            {
                return Err(fault(
                    loc(None),
                    format!("{} must fill the four vector slots of its group", i.row.isa),
                ));
            }
            let mut rv = vec![[0u32; 4]; lanes];
            for (l, out) in rv.iter_mut().enumerate() {
                if !w.active(l) {
                    continue;
                }
                let mut s0 = [0u32; 4];
                let mut s1 = [0u32; 4];
                for r in &reduction {
                    let kk = g
                        .insts
                        .iter()
                        .position(|x| std::ptr::eq(x, *r))
                        .unwrap_or(0);
                    s0[r.slot as usize] = read_src(ctx, w, r, g, 0, l, g.addr + kk as u32)?;
                    if r.row.srcs > 1 {
                        s1[r.slot as usize] = read_src(ctx, w, r, g, 1, l, g.addr + kk as u32)?;
                    }
                }
                *out = match i.row.exec {
                    AluExec::Dot4 { ieee } => {
                        let f = |x: u32| sem::ftz(f32::from_bits(x));
                        let mut acc = 0.0f32;
                        for c in 0..4 {
                            let p = if ieee {
                                sem::ftz(f(s0[c]) * f(s1[c]))
                            } else {
                                sem::legacy_mul_f(f(s0[c]), f(s1[c]))
                            };
                            acc = sem::ftz(acc + p);
                        }
                        [acc.to_bits(); 4]
                    }
                    AluExec::Cube => {
                        // Operands as the ISA lays them out: src0 = (z, z, x, y), src1 = (y, x, z, z).
                        let f = |x: u32| sem::ftz(f32::from_bits(x));
                        sem::cube(f(s0[2]), f(s0[3]), f(s0[0]))
                    }
                    AluExec::Max4 => {
                        let m = s0
                            .iter()
                            .fold(f32::NEG_INFINITY, |a, b| a.max(f32::from_bits(*b)));
                        [m.to_bits(); 4]
                    }
                    _ => {
                        return Err(fault(
                            loc(None),
                            "reduction row without reduction semantics",
                        ))
                    }
                };
            }
            red_vals = Some(rv);
        }
        // Gather each source for all threads at once (a copy for plain GPRs and constants).
        let nsrc = if i.row.unit == Unit::Reduction {
            0
        } else {
            i.row.srcs as usize
        };
        for (k, buf) in bufs.iter_mut().enumerate().take(nsrc) {
            read_src_all(ctx, w, i, g, k, clause_pc, buf)?;
        }
        // Plain per-thread functions run as tight loops over the gathered sources.
        let active: Vec<bool> = (0..lanes).map(|l| w.active(l)).collect();
        let plain = match i.row.exec {
            AluExec::Un(f) => {
                for l in (0..lanes).filter(|l| active[*l]) {
                    values[l] = omod_clamp(i, f(bufs[0][l]));
                }
                true
            }
            AluExec::Bin(f) => {
                for l in (0..lanes).filter(|l| active[*l]) {
                    values[l] = omod_clamp(i, f(bufs[0][l], bufs[1][l]));
                }
                true
            }
            AluExec::Tri(f) => {
                for l in (0..lanes).filter(|l| active[*l]) {
                    values[l] = omod_clamp(i, f(bufs[0][l], bufs[1][l], bufs[2][l]));
                }
                true
            }
            _ => false,
        };
        for l in 0..lanes {
            if plain || !active[l] {
                continue;
            }
            let src = |k: usize| -> Result<u32, ExecError> { Ok(bufs[k][l]) };
            let v = match i.row.exec {
                AluExec::Nop => 0,
                AluExec::Un(f) => f(src(0)?),
                AluExec::Bin(f) => f(src(0)?, src(1)?),
                AluExec::Tri(f) => f(src(0)?, src(1)?, src(2)?),
                AluExec::Set {
                    cmp,
                    ty,
                    int_result,
                } => {
                    let t = compare(cmp, ty, src(0)?, src(1)?);
                    match (t, int_result) {
                        (true, true) => u32::MAX,
                        (false, true) => 0,
                        (true, false) => ONE_F,
                        (false, false) => 0,
                    }
                }
                AluExec::PredSet { cmp, ty, push } => {
                    if push {
                        return Err(nm(i.row.isa, "the *_PUSH predicate forms are not modelled"));
                    }
                    let t = compare(cmp, ty, src(0)?, src(1)?);
                    if exec[l] {
                        if i.update_pred {
                            new_pred.get_or_insert_with(|| w.pred.clone())[l] = t;
                        }
                        if i.update_exec_mask {
                            w.exec_update.get_or_insert_with(|| vec![true; lanes])[l] = t;
                        }
                    }
                    if t {
                        ONE_F
                    } else {
                        0
                    }
                }
                AluExec::PredSetInv
                | AluExec::PredSetPop
                | AluExec::PredSetClr
                | AluExec::PredSetRestore => {
                    return Err(nm(
                        i.row.isa,
                        "the predicate stack helpers are not modelled",
                    ))
                }
                AluExec::Kill { cmp, ty } => {
                    let t = compare(cmp, ty, src(0)?, src(1)?);
                    if t && exec[l] {
                        kills[l] = true;
                    }
                    if t {
                        ONE_F
                    } else {
                        0
                    }
                }
                AluExec::Mova(kind) => {
                    if i.write {
                        return Err(nm("MOVA with the GPR write enabled", "the value MOVA* writes to its GPR is not documented in the sources wavesim uses"));
                    }
                    let x = src(0)?;
                    // AR = the integer index, clamped to [-256, 255] (R700 ISA reference, MOVA*).
                    let a = match kind {
                        MovaKind::Round => f32::from_bits(x).round_ties_even() as i32,
                        MovaKind::Floor => f32::from_bits(x).floor() as i32,
                        MovaKind::Int => x as i32,
                    }
                    .clamp(-256, 255);
                    if exec[l] {
                        new_ar[i.dst_chan as usize].get_or_insert_with(|| {
                            w.ar[i.dst_chan as usize].clone().unwrap_or(vec![0; lanes])
                        })[l] = a;
                    }
                    a as u32
                }
                AluExec::Dot4 { .. } | AluExec::Cube | AluExec::Max4 => red_vals
                    .as_ref()
                    .map(|r| r[l][i.slot as usize & 3])
                    .unwrap_or(0),
                AluExec::Cnd { cmp, ty } => {
                    let a = src(0)?;
                    let t = match ty {
                        CmpTy::F32 => compare(cmp, CmpTy::F32, a, 0),
                        _ => compare(cmp, ty, a, 0),
                    };
                    if t {
                        src(1)?
                    } else {
                        src(2)?
                    }
                }
                AluExec::NotModelled(_) | AluExec::Pair64(_) => 0,
            };
            values[l] = omod_clamp(i, v);
        }
        results.push(SlotResult {
            inst: *i,
            pc: clause_pc,
            values,
            exec,
        });
    }
    // Writes happen after every instruction of the group read its operands.
    for r in &results {
        let i = &r.inst;
        if !i.write {
            continue;
        }
        // Fast path: a direct destination in the ordinary GPRs, written for the executing threads.
        if !i.dst_rel {
            if let Ok(GprKind::Normal(x)) = gpr_kind(ctx, i.dst_gpr as i32) {
                let dst = &mut w.gpr[x][i.dst_chan as usize & 3];
                for l in 0..lanes {
                    if r.exec[l] {
                        dst[l] = r.values[l];
                    }
                }
                continue;
            }
        }
        for l in 0..lanes {
            if !r.exec[l] {
                continue;
            }
            let base = i.dst_gpr as i32;
            if i.dst_rel && i.index_mode >= INDEX_GLOBAL {
                let g = global_index(ctx, w, i, base, l).map_err(|m| {
                    fault(
                        ctx.loc(
                            Some(r.pc),
                            Some(i.slot),
                            crate::disasm::alu_text(i),
                            Some(l),
                        ),
                        m,
                    )
                })?;
                // Threads write in lane order; the last write of the group wins.
                ctx.drv.global_gprs[g][i.dst_chan as usize & 3] = r.values[l];
                continue;
            }
            let reg = if i.dst_rel {
                let ix = match i.index_mode {
                    m @ 0..=3 => w.ar[m as usize].as_ref().map(|a| a[l]),
                    _ => w.al,
                };
                let loc = ctx.loc(
                    Some(r.pc),
                    Some(i.slot),
                    crate::disasm::alu_text(i),
                    Some(l),
                );
                base + ix
                    .ok_or_else(|| fault(loc, "relative destination without a valid AR/aL index"))?
            } else {
                base
            };
            let chan = i.dst_chan as usize;
            let kind = gpr_kind(ctx, reg).map_err(|m| {
                fault(
                    ctx.loc(
                        Some(r.pc),
                        Some(i.slot),
                        crate::disasm::alu_text(i),
                        Some(l),
                    ),
                    m,
                )
            })?;
            match kind {
                GprKind::Normal(x) => w.gpr[x][chan][l] = r.values[l],
                GprKind::Temp(t) => {
                    w.temps[t][chan].get_or_insert_with(|| vec![0; lanes])[l] = r.values[l]
                }
            }
        }
    }
    // PV/PS for the next group: every slot's result (R700 ISA reference 4.7.4).
    let mut pv: [Option<Vec<u32>>; 4] = Default::default();
    let mut ps = None;
    for r in results {
        if r.inst.slot == SLOT_T {
            ps = Some(r.values);
        } else {
            pv[r.inst.slot as usize] = Some(r.values);
        }
    }
    w.pv = pv;
    w.ps = ps;
    for (k, a) in new_ar.into_iter().enumerate() {
        if a.is_some() {
            w.ar[k] = a;
        }
    }
    if let Some(p) = new_pred {
        w.pred = p;
    }
    for (l, k) in kills.iter().enumerate() {
        if *k {
            w.state[l] = PixelState::Killed;
        }
    }
    Ok(())
}

fn run_fetch(ctx: &mut Ctx, w: &mut Wave, f: &FetchInst) -> Result<(), ExecError> {
    use crate::decode::bits;
    let text = crate::disasm::fetch_text(f);
    let loc = |l: Option<usize>| ctx.loc(Some(f.addr), None, text.clone(), l);
    let exec = match f.row {
        FetchRow::Tex(r) => r.exec,
        FetchRow::Vtx(r) => r.exec,
    };
    if matches!(exec, FetchExec::LdsRead | FetchExec::LdsWrite) {
        return run_lds(ctx, w, f, exec == FetchExec::LdsWrite);
    }
    let wd = &f.w;
    // SRC_REL/DST_REL (TEX/VTX_WORD0 bit 23, WORD1 bit 7): 1 = the GPR address is relative to the
    // loop index aL (R700 ISA reference, fetch microcode fields; the same rule as the R500's
    // "RELATIVE: add aL before lookup" texture addresses).
    let rel = |g: u32, is_rel: bool, what: &str| -> Result<u32, ExecError> {
        if !is_rel {
            return Ok(g);
        }
        let al = w.al.ok_or_else(|| {
            fault(
                loc(None),
                format!("{what} is relative to aL, but no LOOP_START has set the loop index"),
            )
        })?;
        let e = g as i64 + al as i64;
        if !(0..128).contains(&e) {
            return Err(fault(
                loc(None),
                format!("{what} T{g} + aL ({al}) = {e} is outside the GPRs"),
            ));
        }
        Ok(e as u32)
    };
    let src_gpr = rel(bits(wd[0], 16, 7), bits(wd[0], 23, 1) != 0, "SRC_GPR")?;
    let dst_gpr = rel(bits(wd[1], 0, 7), bits(wd[1], 7, 1) != 0, "DST_GPR")?;
    let temp_base = 128 - ctx.drv.clause_temp_gprs;
    for g in [src_gpr, dst_gpr] {
        if g >= temp_base || (ctx.drv.num_gprs != 0 && g >= ctx.drv.num_gprs) {
            return Err(fault(
                loc(None),
                format!("fetch uses T{g}, outside the program's GPRs or a clause temporary"),
            ));
        }
    }
    let dst_sel = [
        bits(wd[1], 9, 3),
        bits(wd[1], 12, 3),
        bits(wd[1], 15, 3),
        bits(wd[1], 18, 3),
    ];
    let mut out = vec![[0u32; 4]; w.lanes];
    match exec {
        FetchExec::Sample { compare, lod } => {
            let name = match f.row {
                FetchRow::Tex(r) => r.llc,
                FetchRow::Vtx(r) => r.llc,
            };
            if lod == TexLod::Gradients {
                return Err(ExecError::NotModelled {
                    loc: loc(None),
                    what: name.into(),
                    why: "gradient sampling needs the pixel quad's derivatives, not modelled"
                        .into(),
                });
            }
            if bits(wd[1], 21, 7) != 0 {
                return Err(ExecError::NotModelled {
                    loc: loc(None),
                    what: "TEX_WORD1 LOD_BIAS".into(),
                    why: "the instruction's LOD bias encoding is not in the sources wavesim uses"
                        .into(),
                });
            }
            if compare && dst_sel.iter().any(|s| (1..=3).contains(s)) {
                return Err(ExecError::NotModelled {
                    loc: loc(None),
                    what: format!("{name} result channels Y/Z/W"),
                    why: "the sources wavesim uses define the comparison result in X only".into(),
                });
            }
            let rid = bits(wd[0], 8, 8) as usize;
            let sid = bits(wd[2], 15, 5) as usize;
            let tex = ctx
                .drv
                .textures
                .get(rid)
                .and_then(|t| t.as_ref())
                .ok_or_else(|| fault(loc(None), format!("texture resource {rid} is not bound")))?;
            let smp = ctx
                .drv
                .samplers
                .get(sid)
                .and_then(|t| t.as_ref())
                .ok_or_else(|| fault(loc(None), format!("sampler {sid} is not bound")))?;
            let src_sel = [
                bits(wd[2], 20, 3),
                bits(wd[2], 23, 3),
                bits(wd[2], 26, 3),
                bits(wd[2], 29, 3),
            ];
            let ct = [bits(wd[1], 28, 1), bits(wd[1], 29, 1)];
            let offs = [bits(wd[2], 0, 5), bits(wd[2], 5, 5)];
            for (l, o) in out.iter_mut().enumerate() {
                if !w.active(l) {
                    continue;
                }
                let comp = |s: u32| -> Result<f32, ExecError> {
                    Ok(match s {
                        0..=3 => f32::from_bits(w.gpr[src_gpr as usize][s as usize][l]),
                        4 => 0.0,
                        5 => 1.0,
                        _ => {
                            return Err(fault(
                                loc(Some(l)),
                                format!("texture source select {s} is reserved"),
                            ))
                        }
                    })
                };
                let mut uv = [comp(src_sel[0])?, comp(src_sel[1])?];
                for k in 0..2 {
                    // Unnormalized coordinates (CT = U) are texel units (R700 ISA reference, TEX_WORD1).
                    if ct[k] == 0 {
                        uv[k] /= if k == 0 {
                            tex.width as f32
                        } else {
                            tex.height as f32
                        };
                    }
                    // Offsets are signed 5-bit values in half texels (R700 ISA reference, TEX_WORD2).
                    let off = ((offs[k] as i32) << 27 >> 27) as f32 * 0.5;
                    if off != 0.0 {
                        uv[k] += off
                            / if k == 0 {
                                tex.width as f32
                            } else {
                                tex.height as f32
                            };
                    }
                }
                // LOD source (R700 ISA TEX instructions; operand layout as Mesa's r600 emitter
                // builds it): SAMPLE_L takes the LOD from W, SAMPLE_LZ uses 0; implicit and biased
                // LODs need the quad's derivatives, which are only irrelevant when a single level can
                // be chosen (one level, or MIP_FILTER none = the base level).
                let single = tex.levels() == 1 || smp.mip_filter == MipFilter::None;
                let lod_value = match lod {
                    TexLod::Zero => 0.0,
                    TexLod::Explicit => comp(src_sel[3])?,
                    _ if single => 0.0,
                    _ => {
                        return Err(ExecError::NotModelled {
                            loc: loc(Some(l)),
                            what: format!("{name} on a mipmapped texture"),
                            why: "the implicit level of detail needs the pixel quad's derivatives, not modelled".into(),
                        })
                    }
                };
                if compare {
                    // SAMPLE_C*: reference in W, or in Z for the forms whose W holds the LOD or
                    // bias (Mesa's r600 emitter); result = (reference OP texel.x) ? 1.0 : 0.0.
                    let func = smp.compare.ok_or_else(|| {
                        fault(
                            loc(Some(l)),
                            format!("{name} needs a sampler with a depth compare function"),
                        )
                    })?;
                    if smp.filter != texture::Filter::Point
                        || (smp.mip_filter == MipFilter::Linear && tex.levels() > 1)
                    {
                        return Err(ExecError::NotModelled {
                            loc: loc(Some(l)),
                            what: format!("{name} with linear filtering"),
                            why: "how filtered comparison results are combined is implementation-defined; only point sampling is modelled".into(),
                        });
                    }
                    let reference = match lod {
                        TexLod::Explicit | TexLod::Bias => comp(src_sel[2])?,
                        _ => comp(src_sel[3])?,
                    };
                    let t = texture::sample_lod(tex, smp, uv[0], uv[1], lod_value)
                        .map_err(|m| fault(loc(Some(l)), m))?;
                    let pass = func.test(reference, f32::from_bits(t[0]));
                    *o = [if pass { ONE_F } else { 0 }; 4];
                    continue;
                }
                *o = texture::sample_lod(tex, smp, uv[0], uv[1], lod_value)
                    .map_err(|m| fault(loc(Some(l)), m))?;
            }
        }
        FetchExec::VertexFetch => {
            let id = bits(wd[0], 8, 8) as usize;
            let fc = ctx
                .drv
                .fetch_constants
                .get(id)
                .and_then(|x| x.as_ref())
                .ok_or_else(|| {
                    fault(
                        loc(None),
                        format!("vertex-fetch constant {id} is not bound"),
                    )
                })?;
            let sel_x = bits(wd[0], 24, 2) as usize;
            let offset = bits(wd[2], 0, 16);
            let (dfmt, nfa, signed) = if bits(wd[1], 21, 1) != 0 {
                fc.format.ok_or_else(|| {
                    fault(
                        loc(None),
                        "USE_CONST_FIELDS is set but the fetch constant has no format",
                    )
                })?
            } else {
                (
                    bits(wd[1], 22, 6),
                    bits(wd[1], 28, 2),
                    bits(wd[1], 30, 1) != 0,
                )
            };
            if bits(wd[2], 16, 2) != 0 {
                return Err(ExecError::NotModelled {
                    loc: loc(None),
                    what: "ENDIAN_SWAP".into(),
                    why: "byte-swapped fetches are not modelled".into(),
                });
            }
            let (ncomp, size, float, byte) = match dfmt {
                0x0D => (1, 4, false, false),
                0x0E => (1, 4, true, false),
                0x1D => (2, 4, false, false),
                0x1E => (2, 4, true, false),
                0x2F => (3, 4, false, false),
                0x30 => (3, 4, true, false),
                0x22 => (4, 4, false, false),
                0x23 => (4, 4, true, false),
                0x1A => (4, 1, false, true),
                d => {
                    return Err(ExecError::NotModelled {
                        loc: loc(None),
                        what: format!("vertex data format {d:#x}"),
                        why: "only 32-bit x1..x4 (int/float) and 8_8_8_8 formats are modelled"
                            .into(),
                    })
                }
            };
            for (l, o) in out.iter_mut().enumerate() {
                if !w.active(l) {
                    continue;
                }
                let index = w.gpr[src_gpr as usize][sel_x][l] as u64;
                // Address = base + index * stride + OFFSET (R700 ISA reference, vertex fetch).
                let addr = fc.base as u64 + index * fc.stride as u64 + offset as u64;
                let len = ncomp as u64 * size as u64;
                if addr + len > fc.data.len() as u64 {
                    return Err(fault(
                        loc(Some(l)),
                        format!("vertex fetch of {len} bytes at offset {addr} (index {index}) is past the end of fetch constant {id}'s {}-byte buffer", fc.data.len()),
                    ));
                }
                *o = [0, 0, 0, ONE_F];
                if !float && !byte && nfa == 1 {
                    o[3] = 1; // integer formats fill a missing W with integer 1
                }
                for k in 0..ncomp {
                    let a = (addr + (k * size) as u64) as usize;
                    o[k] = if byte {
                        let b = fc.data[a];
                        match (nfa, signed) {
                            (0, false) => (b as f32 / 255.0).to_bits(),
                            (0, true) => ((b as i8 as f32) / 127.0).max(-1.0).to_bits(),
                            (1, false) => b as u32,
                            (1, true) => b as i8 as i32 as u32,
                            (_, false) => (b as f32).to_bits(),
                            (_, true) => (b as i8 as f32).to_bits(),
                        }
                    } else {
                        let v = u32::from_le_bytes([
                            fc.data[a],
                            fc.data[a + 1],
                            fc.data[a + 2],
                            fc.data[a + 3],
                        ]);
                        match (float, nfa, signed) {
                            (true, _, _) | (false, 1, _) => v,
                            (false, 2, false) => (v as f32).to_bits(),
                            (false, 2, true) => (v as i32 as f32).to_bits(),
                            _ => {
                                return Err(ExecError::NotModelled {
                                    loc: loc(Some(l)),
                                    what: "normalized 32-bit vertex format".into(),
                                    why: "not modelled".into(),
                                })
                            }
                        }
                    };
                }
            }
        }
        FetchExec::LdsRead | FetchExec::LdsWrite => {
            return Err(fault(loc(None), "LDS instructions run through run_lds"))
        }
        FetchExec::NotModelled(why) => {
            let name = match f.row {
                FetchRow::Tex(r) => r.llc,
                FetchRow::Vtx(r) => r.llc,
            };
            return Err(ExecError::NotModelled {
                loc: loc(None),
                what: name.into(),
                why: why.into(),
            });
        }
    }
    for (l, o) in out.iter().enumerate() {
        if !w.active(l) {
            continue;
        }
        for (k, s) in dst_sel.iter().enumerate() {
            let v = match s {
                0..=3 => o[*s as usize],
                4 => 0,
                5 => ONE_F,
                7 => continue,
                _ => {
                    return Err(fault(
                        loc(Some(l)),
                        format!("destination select {s} is reserved"),
                    ))
                }
            };
            w.gpr[dst_gpr as usize][k][l] = v;
        }
    }
    Ok(())
}

/// Runs a double-precision instruction over the X/Y slot pair of group `g` (layout: `isa::Pair64Op`)
/// for every active thread; returns (X-slot result, Y-slot result) per thread. Arithmetic is IEEE-754
/// binary64 with round to nearest even. Denormal and NaN operands and results stop with a typed error:
/// the sources wavesim uses do not give R700's double-precision denormal or NaN rules.
fn run_pair64(
    ctx: &Ctx,
    w: &Wave,
    g: &AluGroup,
    i: &AluInst,
    op: Pair64Op,
) -> Result<Vec<[u32; 2]>, ExecError> {
    let find = |slot: u8| {
        g.insts
            .iter()
            .enumerate()
            .find(|(_, x)| x.slot == slot && x.row.enc == i.row.enc && x.row.opcode == i.row.opcode)
    };
    let lanes = w.lanes;
    let pc_of = |k: usize| g.addr + k as u32;
    let loc = |l: Option<usize>| ctx.loc(Some(g.addr), Some(i.slot), crate::disasm::alu_text(i), l);
    let (Some((kx, x)), Some((ky, y))) = (find(0), find(1)) else {
        return Err(fault(
            loc(None),
            format!(
                "{} must occupy both the X and Y slots of its group",
                i.row.isa
            ),
        ));
    };
    let nsrc = if op == Pair64Op::Add { 2 } else { 1 };
    let mut hi = [vec![0u32; lanes], vec![0u32; lanes]];
    let mut lo = [vec![0u32; lanes], vec![0u32; lanes]];
    for k in 0..nsrc {
        read_src_all(ctx, w, x, g, k, pc_of(kx), &mut hi[k])?;
        read_src_all(ctx, w, y, g, k, pc_of(ky), &mut lo[k])?;
    }
    let nm = |l: usize, what: String| ExecError::NotModelled {
        loc: loc(Some(l)),
        what,
        why: "R700 double-precision denormal and NaN rules are not in the sources wavesim uses"
            .into(),
    };
    let special = |v: f64| v.is_nan() || v.is_subnormal();
    let mut out = vec![[0u32; 2]; lanes];
    for (l, o) in out.iter_mut().enumerate() {
        if !w.active(l) {
            continue;
        }
        let d = |k: usize| f64::from_bits((hi[k][l] as u64) << 32 | lo[k][l] as u64);
        let split = |r: f64| [r.to_bits() as u32, (r.to_bits() >> 32) as u32];
        *o = match op {
            Pair64Op::Add | Pair64Op::Fract => {
                let a = d(0);
                let r = if op == Pair64Op::Add {
                    let b = d(1);
                    if special(a) || special(b) {
                        return Err(nm(l, format!("{} of {a:e} and {b:e}", i.row.isa)));
                    }
                    a + b
                } else {
                    if special(a) || a.is_infinite() {
                        return Err(nm(l, format!("FRACT_64 of {a:e}")));
                    }
                    // a - floor(a): exact for a >= 0 (floor(a) = 0, or Sterbenz since
                    // floor(a) <= a <= 2 floor(a)); for negative a it rounds to nearest even
                    // (assumption: the sources used do not state FRACT_64's rounding).
                    a - a.floor()
                };
                if special(r) {
                    return Err(nm(l, format!("{} result {r:e}", i.row.isa)));
                }
                split(r)
            }
            Pair64Op::F32ToF64 => {
                let a = f32::from_bits(hi[0][l]);
                if a.is_nan() || a.is_subnormal() {
                    return Err(nm(l, format!("FLT32_TO_FLT64 of {a:e}")));
                }
                split(a as f64)
            }
            Pair64Op::F64ToF32 => {
                let a = d(0);
                let r = a as f32;
                if special(a) || r.is_subnormal() || (r == 0.0 && a != 0.0) {
                    return Err(nm(l, format!("FLT64_TO_FLT32 of {a:e}")));
                }
                [r.to_bits(), 0]
            }
        };
    }
    Ok(out)
}

/// DS_LOCAL_WRITE (MEM_DSW) and DS_LOCAL_READ (MEM_DSR), R700 ISA reference 2.6.2 "Local data share"
/// and seed 003 ("LDS: owner writes, everyone reads"; 16 KB).
///
/// Write: each active thread writes the four dwords of its source selects to bank `thread_id mod 4`
/// at `bank_offset = (thread_id >> 2) * DST_STRIDE + DST_INDEX` (ISA 2.6.2; DST_STRIDE 4..64 and
/// DST_INDEX 0..60 dwords, multiples of 4). A thread can only reach its own slots: the address comes
/// from the instruction and its own id, never from a register (the owner-writes rule). The bank is
/// thread_id mod 4 because the formula steps the offset once per four threads and 4 banks x 1024
/// dwords is the 16 KB the ISA gives (DST_STRIDE 64 x 16 quads = 1024).
/// SIMD_WAVE_REL: 0 = thread id within the wavefront, 1 = relative to the first thread of the group;
/// wavesim runs one wavefront per group, so both are the lane index.
///
/// Read: each active thread reads the aligned four-dword entry at (bank id = first address select,
/// dword bank offset = second) of its source GPR (ISA 2.6.2, DSR_MUX_NONE: "any aligned four-dword
/// entry"), writing the components whose DST_WR_* bits are set.
fn run_lds(ctx: &mut Ctx, w: &mut Wave, f: &FetchInst, write: bool) -> Result<(), ExecError> {
    use crate::decode::bits;
    let text = crate::disasm::fetch_text(f);
    let loc = |l: Option<usize>| ctx.loc(Some(f.addr), None, text.clone(), l);
    let wd = &f.w;
    let not_modelled = |what: &str, why: &str| ExecError::NotModelled {
        loc: loc(None),
        what: what.into(),
        why: why.into(),
    };
    let src_gpr = bits(wd[0], 11, 7) as usize;
    let temp_base = 128 - ctx.drv.clause_temp_gprs;
    let check_gpr = |g: usize| -> Result<(), ExecError> {
        if g as u32 >= temp_base || (ctx.drv.num_gprs != 0 && g as u32 >= ctx.drv.num_gprs) {
            return Err(fault(
                loc(None),
                format!("LDS access uses T{g}, outside the program's GPRs or a clause temporary"),
            ));
        }
        Ok(())
    };
    check_gpr(src_gpr)?;
    if bits(wd[0], 18, 2) != 0 {
        return Err(not_modelled(
            "LDS SRC_REL_MODE",
            "relative LDS source GPRs are not modelled",
        ));
    }
    if bits(wd[2], 0, 4) != 0 {
        return Err(not_modelled(
            "LDS BURST_CNT",
            "the R700 ISA text wavesim uses does not define LDS bursts",
        ));
    }
    if write {
        let index = bits(wd[1], 0, 6) as usize;
        let stride = bits(wd[1], 16, 7) as usize;
        if bits(wd[1], 6, 2) != 0 || bits(wd[1], 23, 2) != 0 {
            return Err(not_modelled(
                "DST_INDEX_EXT/DST_STRIDE_EXT",
                "the R700 ISA text gives DST_INDEX 0..60 and DST_STRIDE 4..64 only",
            ));
        }
        // Legal values (ISA 2.6.2): stride 4, 8, ..., 64; index multiples of 4 up to 60.
        if stride == 0 || stride > 64 || !stride.is_multiple_of(4) {
            return Err(fault(
                loc(None),
                format!("DST_STRIDE {stride} is not a legal LDS stride (4, 8, ..., 64 dwords)"),
            ));
        }
        if index > 60 || !index.is_multiple_of(4) {
            return Err(fault(
                loc(None),
                format!("DST_INDEX {index} is not a legal LDS index (0, 4, ..., 60 dwords)"),
            ));
        }
        let sels = [
            bits(wd[0], 20, 3),
            bits(wd[0], 23, 3),
            bits(wd[0], 26, 3),
            bits(wd[0], 29, 3),
        ];
        let lds = w.lds.get_or_insert_with(|| {
            Box::new(Lds {
                data: vec![0; LDS_BANKS * LDS_BANK_DWORDS],
                written: vec![false; LDS_BANKS * LDS_BANK_DWORDS],
            })
        });
        for l in 0..w.lanes {
            if w.state[l] != PixelState::Active {
                continue;
            }
            let bank = l % LDS_BANKS;
            let offset = (l >> 2) * stride + index;
            if offset + 4 > LDS_BANK_DWORDS {
                return Err(fault(
                    loc(Some(l)),
                    format!("LDS write at bank {bank} dword {offset} is past the 16 KB local data share"),
                ));
            }
            for (k, s) in sels.iter().enumerate() {
                let v = match s {
                    0..=3 => w.gpr[src_gpr][*s as usize][l],
                    4 => 0,
                    5 => ONE_F,
                    _ => {
                        return Err(fault(
                            loc(Some(l)),
                            format!("LDS write source select {s} is reserved"),
                        ))
                    }
                };
                let a = bank * LDS_BANK_DWORDS + offset + k;
                lds.data[a] = v;
                lds.written[a] = true;
            }
        }
        return Ok(());
    }
    let dst_gpr = bits(wd[1], 0, 7) as usize;
    check_gpr(dst_gpr)?;
    if bits(wd[1], 7, 2) != 0 {
        return Err(not_modelled(
            "LDS DST_REL_MODE",
            "relative LDS destination GPRs are not modelled",
        ));
    }
    if bits(wd[0], 26, 6) != 0 {
        return Err(not_modelled(
            "LDS RD_OFFSET",
            "the R700 ISA text wavesim uses does not say how RD_OFFSET enters the read address",
        ));
    }
    if bits(wd[1], 16, 1) != 0 {
        return Err(not_modelled(
            "LDS broadcast read",
            "the R700 ISA text wavesim uses does not give the broadcast read's address rule in full",
        ));
    }
    // WATERFALL only serialises the four threads of a pass (ISA 2.6.2): no visible effect.
    // MUX_CNTL: the ISA lists DSR_MUX_NONE, DSR_MUX_FFT_PERMUTE, DSR_MUX_WORD_SELECT; wavesim takes
    // them as 0, 1, 2 in that order (assumption: the sources used do not print the numbers).
    match bits(wd[1], 20, 3) {
        0 => {}
        1 => {
            return Err(not_modelled(
                "DSR_MUX_FFT_PERMUTE",
                "the butterfly permutation is not defined in the sources wavesim uses",
            ))
        }
        2 => {
            return Err(not_modelled(
                "DSR_MUX_WORD_SELECT",
                "which GPR component a single-dword read fills is not defined in the sources wavesim uses",
            ))
        }
        m => return Err(fault(loc(None), format!("LDS MUX_CNTL {m} is reserved"))),
    }
    let sels = [bits(wd[0], 20, 3), bits(wd[0], 23, 3)];
    let wr: Vec<usize> = (0..4)
        .filter(|k| bits(wd[1], 9 + *k as u32, 1) != 0)
        .collect();
    let mut out = Vec::new();
    for l in 0..w.lanes {
        if w.state[l] != PixelState::Active {
            continue;
        }
        let mut addr = [0u32; 2];
        for (k, s) in sels.iter().enumerate() {
            addr[k] = match s {
                0..=3 => w.gpr[src_gpr][*s as usize][l],
                _ => {
                    return Err(fault(
                        loc(Some(l)),
                        format!("LDS read address select {s} is not a GPR component"),
                    ))
                }
            };
        }
        let (bank, offset) = (addr[0] as usize, addr[1] as usize);
        if bank >= LDS_BANKS {
            return Err(fault(
                loc(Some(l)),
                format!("LDS read names bank {bank}; the local data share has banks 0..3"),
            ));
        }
        if !offset.is_multiple_of(4) || offset + 4 > LDS_BANK_DWORDS {
            return Err(fault(
                loc(Some(l)),
                format!("LDS read at bank {bank} dword {offset} is not an aligned four-dword entry inside the 16 KB local data share"),
            ));
        }
        let base = bank * LDS_BANK_DWORDS + offset;
        let lds = w.lds.as_ref();
        let mut v = [0u32; 4];
        for (k, slot) in v.iter_mut().enumerate() {
            match lds {
                Some(m) if m.written[base + k] => *slot = m.data[base + k],
                _ => {
                    return Err(fault(
                        loc(Some(l)),
                        format!(
                            "LDS read of bank {bank} dword {} that no thread has written",
                            offset + k
                        ),
                    ))
                }
            }
        }
        out.push((l, v));
    }
    for (l, v) in out {
        for k in &wr {
            w.gpr[dst_gpr][*k][l] = v[*k];
        }
    }
    Ok(())
}

/// Text of the instruction at a CF address, for error messages and debuggers.
pub fn describe_pc(p: &Program, cf_pc: u32) -> String {
    p.cf.get(cf_pc as usize)
        .map(crate::disasm::cf_text)
        .unwrap_or_else(|| format!("@{cf_pc}: past the CF program"))
}
