//! Seeing inside a dispatch: the RDNA3 ISA guide's issue model, a cycle model, and the waits, hazards,
//! races and init checkers, all as one [`Observer`] ([`Inside`]). None of it changes an
//! architectural result: the observer only reads the wave before each instruction runs, and a
//! dispatch without it runs the plain step loop.
//!
//! # Issue model (RDNA3 ISA guide, Shader Concepts "wave32 and wave64", the RDNA3 ISA guide (Wave State) "Instruction skipping: EXEC==0")
//! Every instruction produces [`IssueEvent`]s: scalar instructions, branches, messages and exports
//! issue once; VALU and VMEM (LDS, buffer, flat, global, scratch) issue twice in wave64, low half
//! then high half, both reading the state from before the instruction. With EXEC == 0:
//! - VALU is skipped unless it writes an SGPR/VCC (then it issues, twice in wave64); v_nop,
//!   v_pipeflush, v_readlane, v_readfirstlane, v_writelane (and buffer_gl0/gl1_inv) are never
//!   skipped and issue once; WMMA is never skipped; in wave64 a half whose EXEC bits are zero is
//!   skipped (v_cmpx: one half at most).
//! - VMEM is skipped only when VMcnt == VScnt == 0; otherwise in wave64 one half with zero EXEC
//!   may be skipped but not both.
//! - LDS is skipped only when LGKMcnt == 0; GDS/GWS never.
//! - Exports are skipped unless DONE or the target is POS0.
//! - LDS_PARAM_LOAD / LDS_DIRECT_LOAD are skipped when EXPcnt == 0.
//!
//! The counters are the model's own (operations issued and not yet completed at the issue
//! cycle), so the skips never touch the architectural state.
//!
//! # Cycle model (a simple, documented model, not a measurement)
//! Each workgroup runs on its own WGP from cycle 0 (no limit on resident workgroups); its waves
//! sit on SIMD `wave % 4` in WGP mode and `wave % 2` in CU mode ([`InsideConfig::wgp_mode`]).
//! A SIMD issues one VALU pass per cycle (wave64: two passes), shared by
//! its waves; any other instruction takes one cycle of its wave. A VALU result is ready
//! [`CycleModel::valu_latency`] cycles after its last pass (transcendentals
//! [`CycleModel::trans_latency`], SALU [`CycleModel::salu_latency`]); a dependent ALU instruction
//! waits for it (the hardware interlock). Memory operations complete after a latency drawn
//! deterministically from a range per kind (hash of wave, PC and sequence number); loads
//! complete in order among loads, stores among stores, LDS among LDS, and scalar loads out of
//! order (RDNA3 ISA, "Data dependency resolution"), each decrementing its counters when it
//! completes. s_waitcnt stalls the wave until its counters are at most the given values;
//! s_barrier releases every wave at the last arrival; s_nop N takes N + 1 cycles.
//!
//! # Checks
//! See [`Checks`] and [`FindingKind`]: what each reports and the rule behind it.

pub mod class;
pub mod hazard;
mod stale;
pub mod timeline;

use crate::decode::{opnd, Inst};
use crate::disasm;
use crate::exec::flat::private_addr;
use crate::exec::Program;
use crate::isa::Op;
use crate::wave::{Wave, LANES};
use class::{classify, cnt, Class, Family, RegRun, Space};
use hazard::{HazardState, Severity};
use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::rc::Rc;
use wavesim_core::observe::{InstLoc, Observer};

/// Which checks run (`--check waits,hazards,races,init`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Checks {
    /// Reads of registers whose load may not have completed; export/GDS data overwritten
    /// before EXPcnt says it was read; s_barrier with this wave's memory operations in flight.
    pub waits: bool,
    /// gfx11 hazards (see [`hazard`]): wait states the hardware does not interlock
    /// (correctness), `s_delay_alu` LLVM's AMDGPUInsertDelayAlu would insert (stall only);
    /// missing shader padding.
    pub hazards: bool,
    /// Global/LDS accesses to the same bytes by different waves without a barrier between; a
    /// plain load against another wave's atomic only when the loaded value reaches a memory
    /// write (the stale-read rule, see `stale`).
    pub races: bool,
    /// Reads of VGPR lanes, LDS bytes or scratch bytes nothing wrote in this dispatch.
    pub init: bool,
}

impl Checks {
    pub const ALL: Checks = Checks {
        waits: true,
        hazards: true,
        races: true,
        init: true,
    };

    /// Parses a comma-separated subset of `waits,hazards,races,init` (or `all`).
    pub fn parse(s: &str) -> Result<Checks, String> {
        let mut c = Checks::default();
        for part in s.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match part {
                "waits" => c.waits = true,
                "hazards" => c.hazards = true,
                "races" => c.races = true,
                "init" => c.init = true,
                "all" => c = Checks::ALL,
                _ => {
                    return Err(format!(
                        "unknown check `{part}`: expected a list of waits, hazards, races, init \
                         (or all)"
                    ))
                }
            }
        }
        if c == Checks::default() {
            return Err("--check: name at least one of waits, hazards, races, init".into());
        }
        Ok(c)
    }

    pub fn any(&self) -> bool {
        self.waits || self.hazards || self.races || self.init
    }
}

/// What a finding is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FindingKind {
    /// A register read while a load writing it may still be in flight (the counter could still
    /// be above the value needed).
    MissingWait,
    /// An export's / GDS instruction's data VGPR overwritten before EXPcnt says it was read.
    DataOverwritten,
    /// s_barrier while this wave's stores or LDS operations may be in flight (other waves may
    /// not see them after the barrier).
    BarrierInFlight,
    /// An ALU instruction reading a register a VALU, transcendental or SALU instruction is
    /// still computing, with no `s_delay_alu` that LLVM's AMDGPUInsertDelayAlu would put there.
    /// Severity: a stall, not a wrong result (RDNA3 interlocks these dependencies).
    MissingDelayAlu,
    /// A gfx11 hazard the hardware does not interlock (GCNHazardRecognizer's gfx11 rules:
    /// a missing `s_waitcnt_depctr`, `v_nop`, `v_mov` or LDSDIR wait field). Severity: the
    /// result can be wrong.
    HazardWaitState,
    /// The code is not followed by 256 bytes of padding (RDNA3 ISA guide, Shader Concepts, "Shader padding").
    Padding,
    /// Accesses to the same bytes by two waves with no barrier between: a write and a plain
    /// access (not both atomic), or a plain load and an atomic when the loaded value reaches a
    /// memory write (`race (stale read)`).
    Race,
    UninitVgpr,
    UninitLds,
    UninitScratch,
}

impl FindingKind {
    pub fn check_name(self) -> &'static str {
        match self {
            FindingKind::MissingWait
            | FindingKind::DataOverwritten
            | FindingKind::BarrierInFlight => "waits",
            FindingKind::MissingDelayAlu | FindingKind::HazardWaitState | FindingKind::Padding => {
                "hazards"
            }
            FindingKind::Race => "races",
            _ => "init",
        }
    }

    /// `stall` for a missing `s_delay_alu` (the hardware interlocks; only time is lost),
    /// `correctness` for everything else (the result can be wrong).
    pub fn severity(self) -> &'static str {
        match self {
            FindingKind::MissingDelayAlu => "stall",
            _ => "correctness",
        }
    }
}

/// One problem a check found. `text` names both PCs, the instructions and the register or
/// address.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub kind: FindingKind,
    /// PC (relative to the code object) of the instruction where it was seen, and of the other
    /// instruction involved (the load, the producer, the other access), if any.
    pub pc: u64,
    pub other_pc: Option<u64>,
    pub text: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.kind.check_name(), self.text)
    }
}

/// Which half of a wave64 instruction an issue event is (wave32 and scalar: `Once`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    Once,
    Lo,
    Hi,
}

/// One issue slot of one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IssueEvent {
    pub workgroup: [u32; 3],
    pub wave: u32,
    pub pc: u64,
    pub op: Op,
    pub pass: Pass,
    /// False when the pass was skipped (EXEC == 0 rules).
    pub issued: bool,
    pub cycle: u64,
}

/// Parameters of the cycle model (see the module documentation).
#[derive(Clone, Copy, Debug)]
pub struct CycleModel {
    pub valu_latency: u64,
    pub trans_latency: u64,
    pub salu_latency: u64,
    /// Inclusive latency ranges of memory operations.
    pub smem: (u64, u64),
    pub lds: (u64, u64),
    pub vmem_load: (u64, u64),
    pub vmem_store: (u64, u64),
    pub export: (u64, u64),
}

impl Default for CycleModel {
    fn default() -> CycleModel {
        CycleModel {
            valu_latency: 5,
            trans_latency: 10,
            salu_latency: 2,
            smem: (30, 60),
            lds: (20, 40),
            vmem_load: (300, 500),
            vmem_store: (200, 300),
            export: (20, 40),
        }
    }
}

/// What `--stats` adds from the issue model, per kernel.
#[derive(Clone, Debug, Default)]
pub struct IssueStats {
    /// Cycles from the start to the end of the longest workgroup.
    pub issue_cycles: u64,
    /// Instructions per family (issued or skipped).
    pub mix: BTreeMap<Family, u64>,
    /// Vector instructions, the lanes active over them and the lanes they could have used.
    pub vector_insts: u64,
    pub active_lanes: u64,
    pub lane_slots: u64,
    /// Passes skipped by the EXEC == 0 rules.
    pub skipped_passes: u64,
    /// Bytes accessed (active lanes x access size) per space.
    pub bytes: BTreeMap<Space, u64>,
    /// Cycles waves stalled in s_waitcnt and at barriers.
    pub wait_stall_cycles: u64,
    pub barrier_stall_cycles: u64,
}

impl IssueStats {
    /// Active lanes / lanes available over vector instructions.
    pub fn lane_efficiency(&self) -> f64 {
        if self.lane_slots == 0 {
            0.0
        } else {
            self.active_lanes as f64 / self.lane_slots as f64
        }
    }

    /// The text `--stats` prints.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        use std::fmt::Write as _;
        let _ = writeln!(s, "issue cycles:      {}", self.issue_cycles);
        let _ = writeln!(
            s,
            "lane efficiency:   {:.1}% ({} of {} lanes over {} vector instructions)",
            100.0 * self.lane_efficiency(),
            self.active_lanes,
            self.lane_slots,
            self.vector_insts
        );
        let mix: Vec<String> = self
            .mix
            .iter()
            .map(|(f, n)| format!("{} {n}", f.name()))
            .collect();
        let _ = writeln!(s, "instruction mix:   {}", mix.join(", "));
        let bytes: Vec<String> = self
            .bytes
            .iter()
            .map(|(sp, n)| format!("{} {n}", sp.name()))
            .collect();
        let _ = writeln!(
            s,
            "memory bytes:      {}",
            if bytes.is_empty() {
                "none".to_string()
            } else {
                bytes.join(", ")
            }
        );
        let _ = writeln!(
            s,
            "stall cycles:      waitcnt {}, barrier {}",
            self.wait_stall_cycles, self.barrier_stall_cycles
        );
        let _ = writeln!(s, "skipped passes:    {}", self.skipped_passes);
        s
    }
}

/// A memory operation in flight.
#[derive(Clone, Debug)]
struct PendingOp {
    counters: u8,
    /// Counters a wait has guaranteed it for (the checker's view, independent of timing).
    waited: u8,
    smem: bool,
    lds: bool,
    done: u64,
    pc: u64,
    idx: u32,
    dst: Option<RegRun>,
    late_reads: Vec<RegRun>,
}

impl PendingOp {
    fn complete_for_checks(&self) -> bool {
        self.waited != 0
    }
}

/// One access recorded in the race shadow.
#[derive(Clone, Copy, Debug)]
struct Access {
    wg: [u32; 3],
    wave: u32,
    epoch: u32,
    pc: u64,
    idx: u32,
    atomic: bool,
    /// A plain load's instance id (see [`stale`]); 0 for other accesses.
    load: u64,
}

#[derive(Clone, Copy, Debug, Default)]
struct Shadow {
    write: Option<Access>,
    /// The last read of each of up to [`READERS`] waves (a write must be checked against
    /// every wave that read the byte in its barrier interval, not only the last reader).
    reads: [Option<Access>; READERS],
}

const READERS: usize = 4;

struct WaveModel {
    simd: usize,
    t: u64,
    ready: Vec<u64>,
    pending: Vec<PendingOp>,
    seq: u64,
    /// The hazard rules' state.
    hz: HazardState,
    /// VGPR lanes written in this dispatch, one mask per VGPR.
    vinit: Vec<u64>,
    scratch_written: HashSet<u64>,
    epoch: u32,
    /// Waiting at barrier generation `epoch - 1` (released when it issues again).
    at_barrier: bool,
    /// Which span track this wave has in the timeline.
    track: u32,
    end: u64,
    /// The stale-read rule's data flow (races only; empty otherwise): the load instances each
    /// register's value derives from, by [`reg_index`], and those of scratch dwords by address.
    taint: Vec<stale::Taint>,
    scratch_taint: HashMap<u64, stale::Taint>,
}

impl WaveModel {
    fn new(simd: usize, track: u32) -> WaveModel {
        let mut vinit = vec![0u64; 256];
        // v0 holds the packed work-item ids (RDNA3 ISA guide, Wave State, "Initial wave state").
        vinit[0] = u64::MAX;
        WaveModel {
            simd,
            t: 0,
            ready: vec![0; 512],
            pending: Vec::new(),
            seq: 0,
            hz: HazardState::new(),
            vinit,
            scratch_written: HashSet::new(),
            epoch: 0,
            at_barrier: false,
            track,
            end: 0,
            taint: Vec::new(),
            scratch_taint: HashMap::new(),
        }
    }

    /// Ops with counter `c` still counted at `cycle`.
    fn outstanding(&self, c: u8, cycle: u64) -> usize {
        self.pending
            .iter()
            .filter(|o| o.counters & c != 0 && o.done > cycle)
            .count()
    }
}

/// Register code -> index into the 512-entry per-register arrays (SGPR codes 0..127, VGPRs
/// 256..511 -> 128..383).
fn reg_index(code: u16) -> Option<usize> {
    match code {
        0..=127 => Some(code as usize),
        256..=511 => Some(code as usize - 128),
        _ => None,
    }
}

fn reg_name(code: u16) -> String {
    if code >= opnd::VGPR0 {
        format!("v{}", code - opnd::VGPR0)
    } else {
        match code {
            opnd::VCC_LO => "vcc_lo".into(),
            opnd::VCC_HI => "vcc_hi".into(),
            opnd::M0 => "m0".into(),
            opnd::EXEC_LO => "exec_lo".into(),
            opnd::EXEC_HI => "exec_hi".into(),
            108..=123 => format!("ttmp{}", code - 108),
            c => format!("s{c}"),
        }
    }
}

/// A deterministic pick in `[lo, hi]`.
fn pick(range: (u64, u64), key: u64) -> u64 {
    let mut x = key.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x ^= x >> 31;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^= x >> 29;
    range.0 + x % (range.1 - range.0 + 1).max(1)
}

/// A timeline span (see [`timeline`]).
#[derive(Clone, Debug)]
pub struct Span {
    pub workgroup: [u32; 3],
    pub wave: u32,
    pub simd: u32,
    pub name: &'static str,
    pub start: u64,
    pub dur: u64,
    pub pc: u64,
    /// "inst", "wait" or "barrier".
    pub cat: &'static str,
}

/// Settings of an [`Inside`] observer.
#[derive(Clone, Copy, Debug)]
pub struct InsideConfig {
    pub checks: Checks,
    pub model: CycleModel,
    /// Keep every [`IssueEvent`] (tests; memory grows with the run).
    pub record_events: bool,
    /// Keep timeline spans of the first `timeline_workgroups` workgroups.
    pub timeline: bool,
    pub timeline_workgroups: u64,
    /// Most findings kept (the count goes on).
    pub max_findings: usize,
    /// The kernel's WGP mode (COMPUTE_PGM_RSRC1.WGP_MODE; `Launch::wgp_mode`). In WGP mode a
    /// workgroup's waves spread over both CUs of the work-group processor, its four SIMDs; in
    /// CU mode they stay on one CU, its two SIMDs (RDNA3 ISA guide, "Work-group processor
    /// modes: CU mode and WGP mode"). The cycle model places wave w on SIMD w % 4 or w % 2.
    /// LDS is the same for the program in both modes: up to 64 KiB per workgroup
    /// (`dispatch::MAX_LDS_BYTES`).
    pub wgp_mode: bool,
}

impl Default for InsideConfig {
    fn default() -> InsideConfig {
        InsideConfig {
            checks: Checks::default(),
            model: CycleModel::default(),
            record_events: false,
            timeline: false,
            timeline_workgroups: 16,
            max_findings: 1000,
            wgp_mode: true,
        }
    }
}

/// The issue model, cycle model and checkers as one observer. Run a dispatch with it
/// (`dispatch::run_observed`, or the facade's `dispatch_with_observer`), then read
/// [`Inside::findings`], [`Inside::stats`], [`Inside::events`], [`Inside::spans`].
pub struct Inside {
    cfg: InsideConfig,
    /// Subtracted from `InstLoc::addr` to show PCs; set from the first instruction seen.
    classes: HashMap<u64, Rc<Class>>,
    /// Instruction texts by index (findings refer to instructions by index).
    texts: Vec<String>,
    text_of: HashMap<u64, u32>,
    waves: HashMap<([u32; 3], u32), WaveModel>,
    group: Option<[u32; 3]>,
    groups_seen: u64,
    barrier_release: Vec<u64>,
    simd_busy: Vec<Vec<u64>>,
    lds_shadow: HashMap<u32, Shadow>,
    lds_init: Vec<u64>,
    global_shadow: HashMap<u64, Shadow>,
    stale_state: stale::StaleState,
    findings: Vec<Finding>,
    finding_count: u64,
    seen: HashSet<(FindingKind, u64, u64, u16)>,
    stats: IssueStats,
    events: Vec<IssueEvent>,
    spans: Vec<Span>,
    tracks: u32,
}

impl Inside {
    pub fn new(cfg: InsideConfig) -> Inside {
        Inside {
            cfg,
            classes: HashMap::new(),
            texts: Vec::new(),
            text_of: HashMap::new(),
            waves: HashMap::new(),
            group: None,
            groups_seen: 0,
            barrier_release: Vec::new(),
            simd_busy: vec![Vec::new(); 4],
            lds_shadow: HashMap::new(),
            lds_init: vec![0; 65536 / 64],
            global_shadow: HashMap::new(),
            stale_state: stale::StaleState::default(),
            findings: Vec::new(),
            finding_count: 0,
            seen: HashSet::new(),
            stats: IssueStats::default(),
            events: Vec::new(),
            spans: Vec::new(),
            tracks: 0,
        }
    }

    /// Findings so far (at most `max_findings`; [`Inside::finding_count`] counts them all).
    pub fn findings(&self) -> &[Finding] {
        &self.findings
    }

    pub fn finding_count(&self) -> u64 {
        self.finding_count
    }

    /// Issue statistics; call after the dispatch (or [`Inside::finish`]).
    pub fn stats(&self) -> &IssueStats {
        &self.stats
    }

    pub fn events(&self) -> &[IssueEvent] {
        &self.events
    }

    pub fn spans(&self) -> &[Span] {
        &self.spans
    }

    /// Ends the dispatch: closes the last workgroup's accounting.
    pub fn finish(&mut self) {
        self.close_group();
    }

    /// Adds a finding found outside the dispatch (e.g. [`check_padding`]).
    pub fn add_finding(&mut self, f: Finding) {
        self.finding_count += 1;
        if self.findings.len() < self.cfg.max_findings {
            self.findings.push(f);
        }
    }

    fn report(&mut self, kind: FindingKind, pc: u64, other: Option<u64>, reg: u16, text: String) {
        if !self.seen.insert((kind, pc, other.unwrap_or(u64::MAX), reg)) {
            return;
        }
        self.add_finding(Finding {
            kind,
            pc,
            other_pc: other,
            text,
        });
    }

    fn text_index(&mut self, loc: &InstLoc, inst: &Inst, wave64: bool) -> u32 {
        if let Some(&i) = self.text_of.get(&loc.addr) {
            return i;
        }
        let t = disasm::format(inst, loc.addr, wave64);
        let i = self.texts.len() as u32;
        self.texts.push(t);
        self.text_of.insert(loc.addr, i);
        i
    }

    fn close_group(&mut self) {
        if self.group.take().is_none() {
            return;
        }
        let end = self
            .waves
            .values()
            .map(|w| w.t.max(w.end))
            .max()
            .unwrap_or(0);
        self.stats.issue_cycles = self.stats.issue_cycles.max(end);
        self.waves.clear();
        self.barrier_release.clear();
        for s in &mut self.simd_busy {
            s.clear();
        }
        self.lds_shadow.clear();
        self.lds_init.iter_mut().for_each(|b| *b = 0);
        self.stale_state.close_group();
    }

    /// First free VALU cycle >= `t` on `simd` for `n` consecutive passes; books them.
    fn book_valu(&mut self, simd: usize, t: u64, n: u64) -> u64 {
        let busy = &mut self.simd_busy[simd];
        let free = |busy: &Vec<u64>, c: u64| -> bool {
            let (i, b) = ((c / 64) as usize, c % 64);
            busy.get(i).is_none_or(|w| w >> b & 1 == 0)
        };
        let mut c = t;
        loop {
            if (0..n).all(|k| free(busy, c + k)) {
                break;
            }
            c += 1;
        }
        for k in 0..n {
            let cc = c + k;
            let i = (cc / 64) as usize;
            if busy.len() <= i {
                busy.resize(i + 1, 0);
            }
            busy[i] |= 1 << (cc % 64);
        }
        c
    }
}

/// The code-object padding check (RDNA3 ISA guide, Shader Concepts, "Shader padding requirement": 64 dwords after the
/// end of the code, S_CODE_END recommended, because of instruction prefetch). `text_end` is the
/// byte offset of the end of the code section (the program's code ends there).
pub fn check_padding(prog: &Program) -> Option<Finding> {
    let end = prog.base + 4 * prog.index_of_dword.len().saturating_sub(1) as u64;
    // The end of the last instruction that is not padding.
    let last = prog
        .insts
        .iter()
        .zip(&prog.pcs)
        .rev()
        .find(|(i, _)| i.op != Op::S_CODE_END)
        .map(|(i, &pc)| pc + i.len as u64)?;
    let pad = end.saturating_sub(last);
    (pad < 256).then(|| Finding {
        kind: FindingKind::Padding,
        pc: last,
        other_pc: None,
        text: format!(
            "the code ends at {last:#x} with only {pad} bytes after it; 256 bytes (64 dwords, \
             s_code_end) must follow the code because of instruction prefetch"
        ),
    })
}

fn f_is_smem(c: &Class) -> bool {
    c.family == Family::Smem
}

/// s_waitcnt fields (gfx11: vmcnt [15:10], lgkmcnt [9:4], expcnt [2:0]) as (counter, value).
fn wait_targets(inst: &Inst) -> Vec<(u8, usize)> {
    let imm = inst.imm as u32 & 0xffff;
    match inst.op {
        Op::S_WAITCNT => vec![
            (cnt::VM, (imm >> 10 & 0x3f) as usize),
            (cnt::LGKM, (imm >> 4 & 0x3f) as usize),
            (cnt::EXP, (imm & 7) as usize),
        ],
        Op::S_WAITCNT_VSCNT => vec![(cnt::VS, (imm & 0x3f) as usize)],
        Op::S_WAITCNT_VMCNT => vec![(cnt::VM, (imm & 0x3f) as usize)],
        Op::S_WAITCNT_LGKMCNT => vec![(cnt::LGKM, (imm & 0x3f) as usize)],
        Op::S_WAITCNT_EXPCNT => vec![(cnt::EXP, (imm & 7) as usize)],
        _ => Vec::new(),
    }
}

impl Inside {
    /// Per-lane accesses (address, bytes) of a memory instruction, from the state before it.
    fn lane_accesses(c: &Class, inst: &Inst, w: &Wave, exec: u64) -> Vec<(usize, u64, u32)> {
        let mut out = Vec::new();
        let Some(space) = c.space else { return out };
        let lanes = w.lanes();
        let size = c.size.max(1);
        match space {
            Space::Lds => {
                let name = inst.op.name();
                let row = w.vrow((inst.src[0].saturating_sub(opnd::VGPR0)) as usize);
                if name.contains("2addr") {
                    let stride = if name.contains("stride64") { 64 } else { 1 };
                    let o0 = (inst.imm & 0xff) as u64 * size as u64 * stride;
                    let o1 = (inst.imm >> 8 & 0xff) as u64 * size as u64 * stride;
                    for l in (0..lanes).filter(|l| exec >> l & 1 != 0) {
                        let a = row[l] as u64;
                        out.push((l, (a + o0) & 0xffff_ffff, size));
                        out.push((l, (a + o1) & 0xffff_ffff, size));
                    }
                } else if !name.contains("addtid")
                    && !name.starts_with("ds_append")
                    && !name.starts_with("ds_consume")
                    && !name.starts_with("ds_gws")
                {
                    let off = (inst.imm & 0xffff) as u64;
                    for l in (0..lanes).filter(|l| exec >> l & 1 != 0) {
                        out.push((l, (row[l] as u64 + off) & 0xffff_ffff, size));
                    }
                }
            }
            Space::Global | Space::Flat => {
                let vaddr = inst.src[0].saturating_sub(opnd::VGPR0) as usize;
                let lo = w.vrow(vaddr);
                let saddr = inst.src[2];
                let imm = if space == Space::Flat {
                    (inst.imm & 0xfff) as u64
                } else {
                    inst.imm as i64 as u64
                };
                for l in (0..lanes).filter(|l| exec >> l & 1 != 0) {
                    let a = if space == Space::Global && saddr != opnd::NULL {
                        let s = (saddr & !1) as usize;
                        let base = w.sgpr[s] as u64
                            | (w.sgpr.get(s + 1).copied().unwrap_or(0) as u64) << 32;
                        base.wrapping_add(lo[l] as u64)
                    } else {
                        lo[l] as u64 | (w.vrow(vaddr + 1)[l] as u64) << 32
                    };
                    out.push((l, a.wrapping_add(imm), size));
                }
            }
            Space::Scratch => {
                let soff = crate::decode::scratch_saddr(inst)
                    .map_or(0, |s| w.sgpr.get(s as usize).copied().unwrap_or(0) as i64);
                let sve = inst.flags & crate::decode::iflags::SVE != 0;
                let row = w.vrow(inst.src[0].saturating_sub(opnd::VGPR0) as usize);
                for l in (0..lanes).filter(|l| exec >> l & 1 != 0) {
                    let v = if sve { row[l] as i64 } else { 0 };
                    let off = (soff + inst.imm as i64 + v) as u64;
                    // One entry per dword of the lane's access (scratch is swizzled per dword).
                    for d in 0..size.div_ceil(4) as u64 {
                        out.push((l, private_addr(w, l, off + 4 * d), size.min(4)));
                    }
                }
            }
            Space::Buffer
                if matches!(
                    inst.enc,
                    crate::decode::Enc::Mubuf | crate::decode::Enc::Mtbuf
                ) =>
            {
                use crate::exec::buffer::address::{lane_addrs, Addresser};
                use crate::exec::buffer::resource::BufferResource;
                let rsrc = BufferResource::read(w, inst.src[2]);
                let soffset = match inst.src[3] {
                    opnd::NULL => 0,
                    c if c < 128 => w.sgpr.get(c as usize).copied().unwrap_or(0),
                    c if (opnd::INT_ZERO..=opnd::INT_POS_MAX).contains(&c) => {
                        (c - opnd::INT_ZERO) as u32
                    }
                    _ => 0,
                };
                // A reserved swizzle faults in the instruction itself: no access to record.
                if let Ok(a) = Addresser::new(&rsrc, soffset) {
                    let mut lanes_at = [Default::default(); LANES];
                    lane_addrs(w, inst, rsrc.add_tid, &mut lanes_at);
                    for l in (0..lanes).filter(|l| exec >> l & 1 != 0) {
                        if !a.out_of_range(lanes_at[l], 0, size as u64) {
                            out.push((l, a.addr(lanes_at[l], 0), size));
                        }
                    }
                }
            }
            _ => {}
        }
        out
    }

    fn race_text(
        &self,
        lds: bool,
        addr: u64,
        o: &Access,
        o_write: bool,
        me: &Access,
        write: bool,
    ) -> String {
        let space = if lds { "LDS" } else { "global" };
        let who = |x: &Access, verb: &str| {
            format!(
                "wg ({},{},{}) wave {} {verb} at PC {:#x} `{}`",
                x.wg[0], x.wg[1], x.wg[2], x.wave, x.pc, self.texts[x.idx as usize]
            )
        };
        format!(
            "race on {space} address {addr:#x}: {} and {} with no barrier between",
            who(o, if o_write { "wrote" } else { "read" }),
            who(me, if write { "writes" } else { "reads" })
        )
    }

    fn race_check(&mut self, lds: bool, addr: u64, me: Access, write: bool) {
        let cell = if lds {
            self.lds_shadow.entry(addr as u32).or_default()
        } else {
            self.global_shadow.entry(addr).or_default()
        };
        // Concurrent: another wave, and another workgroup or the same barrier interval.
        let concurrent =
            |o: &Access| -> bool { o.wg != me.wg || (o.wave != me.wave && o.epoch == me.epoch) };
        // A race needs a write and a non-atomic access, and a plain read against another
        // wave's atomic read-modify-write is not one by itself: LLVM emits an atomic load as a
        // plain ds_load_b32 / global_load_b32 (lds_atomics' `atomic_add(&hist[i], 0u)`, the
        // first load of every CAS loop), so machine code cannot tell it from a non-atomic read.
        // Such a pair (no barrier between, either first) goes to the stale-read rule (see
        // [`stale`]), which reports it when the value read reaches a memory write.
        let mut stale: [Option<(Access, Access)>; READERS] = [None; READERS];
        if !write {
            if let Some(o) = cell.write.filter(|o| o.atomic && concurrent(o)) {
                stale[0] = Some((me, o));
            }
        } else if me.atomic {
            for (s, o) in stale.iter_mut().zip(&cell.reads) {
                *s = o.filter(|o| concurrent(o)).map(|o| (o, me));
            }
        }
        let mut hit: Option<(Access, bool)> = None;
        if let Some(o) = cell
            .write
            .filter(|o| concurrent(o) && (!o.atomic || (write && !me.atomic)))
        {
            hit = Some((o, true));
        } else if write && !me.atomic {
            if let Some(o) = cell.reads.iter().flatten().find(|o| concurrent(o)) {
                hit = Some((*o, false));
            }
        }
        if write {
            cell.write = Some(me);
        } else {
            // Replace this wave's entry, else a free slot, else the oldest epoch's.
            let slot = cell
                .reads
                .iter()
                .position(|r| r.is_some_and(|r| r.wg == me.wg && r.wave == me.wave))
                .or_else(|| cell.reads.iter().position(|r| r.is_none()))
                .unwrap_or_else(|| {
                    (0..READERS)
                        .min_by_key(|&i| cell.reads[i].map_or(0, |r| r.epoch))
                        .unwrap_or(0)
                });
            cell.reads[slot] = Some(me);
        }
        if let Some((o, o_write)) = hit {
            let text = self.race_text(lds, addr, &o, o_write, &me, write);
            self.report(FindingKind::Race, me.pc, Some(o.pc), 0, text);
        }
        for (load, atomic) in stale.into_iter().flatten() {
            self.note_stale_read(lds, addr, load, atomic);
        }
    }
}

impl Observer<Wave, Inst> for Inside {
    fn enabled(&self) -> bool {
        true
    }

    fn before(&mut self, loc: &InstLoc, w: &Wave, inst: &Inst) {
        if self.group != Some(loc.workgroup) {
            self.close_group();
            self.group = Some(loc.workgroup);
            self.groups_seen += 1;
        }
        let idx = self.text_index(loc, inst, w.wave64);
        let c = match self.classes.get(&loc.addr) {
            Some(c) => c.clone(),
            None => {
                let c = Rc::new(classify(inst, w.wave64));
                self.classes.insert(loc.addr, c.clone());
                c
            }
        };
        let key = (loc.workgroup, loc.wave);
        let simds = crate::dispatch::workgroup_simds(self.cfg.wgp_mode) as usize;
        if !self.waves.contains_key(&key) {
            let track = self.tracks;
            self.tracks += 1;
            self.waves
                .insert(key, WaveModel::new(loc.wave as usize % simds, track));
        }
        let checks = self.cfg.checks;
        let model = self.cfg.model;
        let exec = w.exec();
        let lanes = w.lanes() as u64;
        // Inserted above; an observer never panics, so a missing entry skips the instruction.
        let Some(mut wm) = self.waves.remove(&key) else {
            return;
        };

        // A wave released from a barrier continues at the last arrival.
        if wm.at_barrier {
            wm.at_barrier = false;
            let release = self
                .barrier_release
                .get(wm.epoch as usize - 1)
                .copied()
                .unwrap_or(wm.t);
            if release > wm.t {
                self.stats.barrier_stall_cycles += release - wm.t;
                self.span(loc, &wm, "s_barrier wait", wm.t, release - wm.t, "barrier");
                wm.t = release;
            }
        }

        // --- waits: reads of registers a load in flight writes.
        if checks.waits {
            for r in &c.regs.reads {
                for code in r.codes() {
                    if let Some(op) = wm.pending.iter().rev().find(|o| {
                        !o.complete_for_checks() && o.dst.is_some_and(|d| d.contains(code))
                    }) {
                        let (opc, oidx, ocnt) = (op.pc, op.idx, op.counters);
                        let text = format!(
                            "{} read at PC {:#x} `{}` while the load at PC {opc:#x} `{}` that \
                             writes it may be in flight (no s_waitcnt {} covers it)",
                            reg_name(code),
                            loc.pc,
                            self.texts[idx as usize],
                            self.texts[oidx as usize],
                            cnt::ALL
                                .iter()
                                .filter(|&&k| ocnt & k != 0)
                                .map(|&k| cnt::name(k))
                                .collect::<Vec<_>>()
                                .join("/")
                        );
                        self.report(FindingKind::MissingWait, loc.pc, Some(opc), code, text);
                    }
                }
            }
            // A load writing a register an earlier scalar load in flight also writes: scalar
            // loads return out of order, so the earlier one may land last (RDNA3 ISA, "Data
            // dependency resolution"; LLVM's SIInsertWaitcnts waits for WAW too).
            if c.loads || f_is_smem(&c) {
                for r in &c.regs.writes {
                    for code in r.codes() {
                        if let Some(op) = wm.pending.iter().find(|o| {
                            o.smem
                                && !o.complete_for_checks()
                                && o.dst.is_some_and(|d| d.contains(code))
                        }) {
                            let (opc, oidx) = (op.pc, op.idx);
                            let text = format!(
                                "{} written by the load at PC {:#x} `{}` while the scalar load at                                  PC {opc:#x} `{}` that also writes it may be in flight and land                                  after it (no s_waitcnt lgkmcnt covers it)",
                                reg_name(code),
                                loc.pc,
                                self.texts[idx as usize],
                                self.texts[oidx as usize]
                            );
                            self.report(FindingKind::MissingWait, loc.pc, Some(opc), code, text);
                        }
                    }
                }
            }
            for r in &c.regs.writes {
                for code in r.codes() {
                    if let Some(op) = wm.pending.iter().find(|o| {
                        o.waited & cnt::EXP == 0 && o.late_reads.iter().any(|d| d.contains(code))
                    }) {
                        let (opc, oidx) = (op.pc, op.idx);
                        let text = format!(
                            "{} overwritten at PC {:#x} `{}` before the instruction at PC \
                             {opc:#x} `{}` read it (needs s_waitcnt expcnt)",
                            reg_name(code),
                            loc.pc,
                            self.texts[idx as usize],
                            self.texts[oidx as usize]
                        );
                        self.report(FindingKind::DataOverwritten, loc.pc, Some(opc), code, text);
                    }
                }
            }
            if c.family == Family::Barrier {
                if let Some(op) = wm
                    .pending
                    .iter()
                    .find(|o| !o.complete_for_checks() && (o.lds || o.counters & cnt::VS != 0))
                {
                    let (opc, oidx) = (op.pc, op.idx);
                    let text = format!(
                        "s_barrier at PC {:#x} while the memory operation at PC {opc:#x} `{}` may \
                         be in flight (other waves may not see it after the barrier)",
                        loc.pc, self.texts[oidx as usize]
                    );
                    self.report(FindingKind::BarrierInFlight, loc.pc, Some(opc), 0, text);
                }
            }
        }

        // --- the cycle at which the instruction can issue.
        let mut t = wm.t;
        let alu = matches!(
            c.family,
            Family::Valu | Family::Trans | Family::Wmma | Family::Salu
        ) || c.family.is_vector();
        if alu {
            for r in &c.regs.reads {
                for code in r.codes() {
                    if let Some(i) = reg_index(code) {
                        t = t.max(wm.ready[i]);
                    }
                }
            }
        }
        if c.family == Family::Waitcnt {
            let targets = wait_targets(inst);
            // Timing: wait until each counter is at most its value.
            let mut until = t;
            for &(k, n) in &targets {
                let mut dones: Vec<u64> = wm
                    .pending
                    .iter()
                    .filter(|o| o.counters & k != 0 && o.done > t)
                    .map(|o| o.done)
                    .collect();
                if dones.len() > n {
                    dones.sort_unstable();
                    until = until.max(dones[dones.len() - n - 1]);
                }
            }
            if until > t {
                self.stats.wait_stall_cycles += until - t;
                self.span(loc, &wm, "s_waitcnt stall", t, until - t, "wait");
                t = until;
            }
            // Checks: what the wait guarantees (RDNA3 ISA, "Data dependency resolution": loads
            // return in order among loads, stores among stores, LDS among LDS; scalar memory
            // out of order, so LGKMcnt(N > 0) guarantees nothing while one is in flight except
            // for the LDS operations older than the N youngest).
            for &(k, n) in &targets {
                let unwaited: Vec<usize> = (0..wm.pending.len())
                    .filter(|&i| wm.pending[i].counters & k != 0 && wm.pending[i].waited & k == 0)
                    .collect();
                let mixed = k == cnt::LGKM && unwaited.iter().any(|&i| !wm.pending[i].lds);
                if n == 0 {
                    unwaited.iter().for_each(|&i| wm.pending[i].waited |= k);
                } else if !mixed {
                    let m = unwaited.len().saturating_sub(n);
                    unwaited[..m]
                        .iter()
                        .for_each(|&i| wm.pending[i].waited |= k);
                } else {
                    let lds: Vec<usize> = unwaited
                        .into_iter()
                        .filter(|&i| wm.pending[i].lds)
                        .collect();
                    let m = lds.len().saturating_sub(n);
                    lds[..m].iter().for_each(|&i| wm.pending[i].waited |= k);
                }
            }
        }
        // Drop operations that are complete in both views.
        wm.pending
            .retain(|o| !(o.complete_for_checks() && o.done <= t));
        if wm.pending.len() > 4096 {
            wm.pending.drain(..2048);
        }

        // --- issue events (RDNA3 ISA guide, Shader Concepts halves, the RDNA3 ISA guide (Wave State) skip rules).
        let f = c.family;
        let halves: [u64; 2] = [exec & 0xffff_ffff, exec >> 32];
        let mut passes: Vec<(Pass, bool)> = Vec::with_capacity(2);
        let two = w.wave64 && f.is_vector() && !c.never_skip_once;
        let whole_skip = match f {
            Family::Valu | Family::Trans => {
                exec == 0 && !c.writes_sgpr && !c.never_skip_once && !c.writes_exec
            }
            Family::Wmma => false,
            Family::Vmem => {
                exec == 0
                    && !c.never_skip_once
                    && wm.outstanding(cnt::VM, t) == 0
                    && wm.outstanding(cnt::VS, t) == 0
            }
            Family::Lds => exec == 0 && wm.outstanding(cnt::LGKM, t) == 0,
            Family::Export => {
                // EXP target 12 is POS0; imm2 holds the enable mask, DONE is a flag.
                exec == 0 && inst.flags & crate::decode::iflags::DONE == 0 && inst.imm != 12
            }
            Family::LdsDirect => exec == 0 && wm.outstanding(cnt::EXP, t) == 0,
            _ => false,
        };
        if !two {
            passes.push((Pass::Once, !whole_skip));
        } else if whole_skip {
            passes.push((Pass::Lo, false));
            passes.push((Pass::Hi, false));
        } else {
            // A half with no active lane may be skipped, except for VALUs writing SGPRs and
            // WMMA; never both halves (VMEM/LDS/v_cmpx: the instruction still issues once).
            let may_skip =
                |h: usize| -> bool { halves[h] == 0 && !(c.writes_sgpr || f == Family::Wmma) };
            let mut lo = may_skip(0);
            let hi = may_skip(1);
            if lo && hi {
                lo = false;
            }
            passes.push((Pass::Lo, !lo));
            passes.push((Pass::Hi, !hi));
        }
        let issued_passes = passes.iter().filter(|p| p.1).count() as u64;
        self.stats.skipped_passes += passes.len() as u64 - issued_passes;
        *self.stats.mix.entry(f).or_default() += 1;
        if f.is_vector() {
            self.stats.vector_insts += 1;
            self.stats.active_lanes += exec.count_ones() as u64;
            self.stats.lane_slots += lanes;
        }

        // --- timing of the issue.
        let issue_at;
        let mut dur = 1u64;
        let valu = matches!(f, Family::Valu | Family::Trans | Family::Wmma);
        if valu && issued_passes > 0 {
            let per = if f == Family::Wmma { 16 } else { 1 };
            issue_at = self.book_valu(wm.simd, t, issued_passes * per);
            dur = issued_passes * per;
        } else {
            issue_at = t;
            if inst.op == Op::S_NOP {
                dur = (inst.imm as u64 & 0xf) + 1;
            } else if f.is_vector() {
                dur = issued_passes.max(1);
            }
        }
        if self.cfg.record_events {
            for (k, &(pass, issued)) in passes.iter().enumerate() {
                self.events.push(IssueEvent {
                    workgroup: loc.workgroup,
                    wave: loc.wave,
                    pc: loc.pc,
                    op: inst.op,
                    pass,
                    issued,
                    cycle: issue_at + k as u64,
                });
            }
        }
        wm.t = issue_at + dur;
        wm.end = wm.t;
        self.span(loc, &wm, inst.op.name(), issue_at, dur, "inst");
        let any_issued = issued_passes > 0;

        // --- memory: bytes, in-flight operations, races, init.
        let acc = if c.space.is_some() && any_issued {
            Self::lane_accesses(&c, inst, w, exec)
        } else {
            Vec::new()
        };
        if let Some(space) = c.space.filter(|_| any_issued) {
            let bytes = if space == Space::Scalar {
                c.size as u64
            } else {
                acc.iter().map(|a| a.2 as u64).sum()
            };
            *self.stats.bytes.entry(space).or_default() += bytes;
        }
        if c.counters != 0 && any_issued {
            wm.seq += 1;
            let lat_key = (loc.wave as u64) << 48 ^ loc.pc << 8 ^ wm.seq;
            let (range, in_order_cls): ((u64, u64), u8) = match f {
                Family::Smem => (model.smem, 0),
                Family::Lds | Family::Gds => (model.lds, 1),
                Family::Export | Family::LdsDirect => (model.export, 2),
                Family::Message => ((1, 1), 0),
                _ if c.loads => (model.vmem_load, 3),
                _ => (model.vmem_store, 4),
            };
            let mut done = issue_at + dur + pick(range, lat_key);
            if in_order_cls != 0 {
                // In order within its class: not before the previous one of the class.
                let prev = wm
                    .pending
                    .iter()
                    .filter(|o| {
                        let cls = if o.smem {
                            0
                        } else if o.lds {
                            1
                        } else if o.counters & cnt::EXP != 0 {
                            2
                        } else if o.counters & cnt::VM != 0 {
                            3
                        } else {
                            4
                        };
                        cls == in_order_cls
                    })
                    .map(|o| o.done)
                    .max()
                    .unwrap_or(0);
                done = done.max(prev);
            }
            let dst = c
                .regs
                .writes
                .first()
                .copied()
                .filter(|_| c.loads || f == Family::Smem);
            wm.pending.push(PendingOp {
                counters: c.counters,
                waited: 0,
                smem: f == Family::Smem || f == Family::Message,
                lds: matches!(f, Family::Lds | Family::Gds),
                done,
                pc: loc.pc,
                idx,
                dst,
                late_reads: c.late_reads.clone(),
            });
        }
        let mut load = 0;
        if checks.races
            && matches!(
                c.space,
                Some(Space::Lds | Space::Global | Space::Flat | Space::Buffer)
            )
        {
            let lds = c.space == Some(Space::Lds);
            if c.loads && !c.atomic && any_issued {
                load = self.stale_state.next_load(lds);
            }
            let me = Access {
                wg: loc.workgroup,
                wave: loc.wave,
                epoch: wm.epoch,
                pc: loc.pc,
                idx,
                atomic: c.atomic,
                load,
            };
            let write = c.stores;
            for &(_, a, n) in &acc {
                for b in 0..n as u64 {
                    self.race_check(lds, a + b, me, write);
                }
            }
        }
        if checks.init && c.loads {
            match c.space {
                Some(Space::Lds) => {
                    for &(l, a, n) in &acc {
                        let unwritten = (0..n as u64).map(|b| a + b).find(|&b| {
                            b < 65536 && self.lds_init[(b / 64) as usize] >> (b % 64) & 1 == 0
                        });
                        if let Some(b) = unwritten {
                            let text = format!(
                                "LDS byte {b:#x} read by lane {l} at PC {:#x} `{}` (wg ({},{},{}) \
                                 wave {}) was never written in this dispatch",
                                loc.pc,
                                self.texts[idx as usize],
                                loc.workgroup[0],
                                loc.workgroup[1],
                                loc.workgroup[2],
                                loc.wave
                            );
                            self.report(FindingKind::UninitLds, loc.pc, None, 0, text);
                            break;
                        }
                    }
                }
                Some(Space::Scratch) => {
                    for &(l, a, _) in &acc {
                        if !wm.scratch_written.contains(&a) {
                            let text = format!(
                                "scratch dword at device address {a:#x} read by lane {l} at PC \
                                 {:#x} `{}` was never written by this wave",
                                loc.pc, self.texts[idx as usize]
                            );
                            self.report(FindingKind::UninitScratch, loc.pc, None, 0, text);
                            break;
                        }
                    }
                }
                _ => {}
            }
        }
        if c.stores {
            match c.space {
                Some(Space::Lds) => {
                    for &(_, a, n) in &acc {
                        for b in (0..n as u64).map(|b| a + b).filter(|&b| b < 65536) {
                            self.lds_init[(b / 64) as usize] |= 1 << (b % 64);
                        }
                    }
                }
                Some(Space::Scratch) => {
                    for &(_, a, _) in &acc {
                        wm.scratch_written.insert(a);
                    }
                }
                _ => {}
            }
        }

        // --- races: where loaded values go (the stale-read rule, see `stale`).
        let lane_mask = w.lane_mask();
        if checks.races && any_issued {
            let all_active = exec & lane_mask == lane_mask;
            self.stale_flow(&mut wm, &c, inst, loc.pc, idx, all_active, load, &acc);
        }

        // --- init: VGPR lanes read before any write.
        if checks.init && valu && any_issued && inst.op != Op::V_READLANE_B32 {
            let cross_lane = inst.dpp != crate::decode::Dpp::None
                || inst.op.name().contains("permlane")
                || inst.op.name().contains("readfirstlane");
            if !cross_lane {
                // 32-bit operands only: compilers legitimately read an undefined half of a
                // 64-bit operand whose other half alone decides the result (clang-19 adds a
                // zero-extended 32-bit value with v_mad_u64_u32 v[1:2], null, s, s, v[0:1] and
                // v1 never written).
                for r in c.regs.reads.iter().filter(|r| r.count == 1) {
                    for code in r.codes().filter(|&c| c >= opnd::VGPR0) {
                        let row = (code - opnd::VGPR0) as usize;
                        let missing =
                            exec & lane_mask & !wm.vinit.get(row).copied().unwrap_or(u64::MAX);
                        if missing != 0 {
                            let text = format!(
                                "{} lane {} read at PC {:#x} `{}` was never written in this \
                                 dispatch (wg ({},{},{}) wave {})",
                                reg_name(code),
                                missing.trailing_zeros(),
                                loc.pc,
                                self.texts[idx as usize],
                                loc.workgroup[0],
                                loc.workgroup[1],
                                loc.workgroup[2],
                                loc.wave
                            );
                            self.report(FindingKind::UninitVgpr, loc.pc, None, code, text);
                        }
                    }
                }
            }
        }
        // Lanes a vector write defines: the active ones (a write with EXEC == 0 defines none).
        for r in &c.regs.writes {
            for code in r.codes().filter(|&c| c >= opnd::VGPR0) {
                if let Some(m) = wm.vinit.get_mut((code - opnd::VGPR0) as usize) {
                    *m |= exec;
                }
            }
        }

        // --- hazards: s_delay_alu and the gfx11 wait-state rules (see `hazard`).
        if checks.hazards {
            let hits = wm.hz.step(inst, &c, loc.pc, idx, w.wave64);
            for h in hits {
                let kind = match h.severity {
                    Severity::Stall => FindingKind::MissingDelayAlu,
                    Severity::Correctness => FindingKind::HazardWaitState,
                };
                let text = match h.severity {
                    Severity::Stall => format!(
                        "stall (not a wrong result: RDNA3 interlocks ALU dependencies): `{}` at \
                         PC {:#x} reads {} written by `{}` at PC {:#x}, which is still in \
                         flight; LLVM's AMDGPUInsertDelayAlu would put {} before it",
                        self.texts[idx as usize],
                        loc.pc,
                        reg_name(h.reg),
                        self.texts[h.other_idx as usize],
                        h.other_pc,
                        h.needed
                    ),
                    Severity::Correctness => format!(
                        "correctness hazard ({}): `{}` at PC {:#x} after `{}` at PC {:#x} \
                         ({}): the hardware does not interlock this; needs {}",
                        h.rule,
                        self.texts[idx as usize],
                        loc.pc,
                        self.texts[h.other_idx as usize],
                        h.other_pc,
                        reg_name(h.reg),
                        h.needed
                    ),
                };
                self.report(kind, loc.pc, Some(h.other_pc), h.reg, text);
            }
        }

        // --- results: ready times and producers.
        let latency = match f {
            Family::Valu => model.valu_latency,
            Family::Trans => model.trans_latency,
            Family::Wmma => model.valu_latency * 4,
            Family::Salu => model.salu_latency,
            _ => 0,
        };
        for r in &c.regs.writes {
            for code in r.codes() {
                let Some(i) = reg_index(code) else { continue };
                if latency > 0 {
                    wm.ready[i] = issue_at + dur + latency;
                }
                // An ALU write replaces what a load in flight will write only in the
                // checker's view of the register (the load still lands later).
                if !c.loads && f != Family::Smem {
                    for o in wm.pending.iter_mut() {
                        if o.dst.is_some_and(|d| d.contains(code)) && !o.complete_for_checks() {
                            // Keep the op (its counters still count); stop checking its
                            // destination.
                            o.dst = None;
                        }
                    }
                }
            }
        }

        if f == Family::Barrier {
            let gen = wm.epoch as usize;
            if self.barrier_release.len() <= gen {
                self.barrier_release.resize(gen + 1, 0);
            }
            self.barrier_release[gen] = self.barrier_release[gen].max(wm.t);
            wm.epoch += 1;
            wm.at_barrier = true;
        }
        self.waves.insert(key, wm);
    }
}

impl Inside {
    #[allow(clippy::too_many_arguments)]
    fn span(
        &mut self,
        loc: &InstLoc,
        wm: &WaveModel,
        name: &'static str,
        start: u64,
        dur: u64,
        cat: &'static str,
    ) {
        if !self.cfg.timeline || self.groups_seen > self.cfg.timeline_workgroups {
            return;
        }
        if self.spans.len() >= 4_000_000 {
            return;
        }
        let _ = wm.track;
        self.spans.push(Span {
            workgroup: loc.workgroup,
            wave: loc.wave,
            simd: wm.simd as u32,
            name,
            start,
            dur,
            pc: loc.pc,
            cat,
        });
    }
}

/// Every lane a VGPR has (for tests).
pub const ALL_LANES: usize = LANES;
