//! Seeing inside an AGX run (docs/INSIDE.md, "AGX"): observers of the SIMD-group executor
//! (`wavesim_core::observe::Observer<WaveState, Inst>`) that write a text trace, count statistics
//! (instructions by kind, SIMD-group and thread instructions, exec-mask divergence), record a
//! timeline and check uniform reads against what the job set. The uninitialised-register check
//! is the executor's own poison tracking (`AgxCompute::checking_init`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::io::Write;

use wavesim_core::observe::{
    write_accesses, write_lane_change, InstLoc, Observer, TimelineSpan, TraceFilter, TraceSink,
};

use crate::exec::{Inst, WaveState, SIMD_WIDTH};
use crate::operand::{Operand, RegFile};
use wavesim_core::observe::AccessKind;

/// Registers before the traced instruction.
struct Snapshot {
    regs: Vec<[u32; SIMD_WIDTH]>,
    exec: u32,
    uniforms: Vec<u16>,
}

fn regs32(w: &WaveState) -> Vec<[u32; SIMD_WIDTH]> {
    (0..w.halves.len() / 2)
        .map(|r| std::array::from_fn(|l| w.reg32(r, l)))
        .collect()
}

/// Writes one line per executed instruction and one per register it changed:
///
/// ```text
/// wg (0,0,0) w 0  0x4  EXEC=0xffffffff  get_sr           r1, sr80 (thread_position_in_grid.x)
///     r1: [0]=0x00000000 [1]=0x00000001 ...
/// ```
///
/// The PC is the byte offset in the program, the text applegpu's syntax; EXEC the active
/// threads at issue. Changes are found by comparing every 32-bit GPR in every thread (r0 holds
/// r0l, the exec-mask stack counter), EXEC and the uniforms before and after the instruction.
pub struct Tracer<W: Write> {
    sink: TraceSink<W>,
    pending: bool,
    snap: Snapshot,
}

impl<W: Write> Tracer<W> {
    pub fn new(out: W, filter: TraceFilter, limit: u64) -> Tracer<W> {
        Tracer {
            sink: TraceSink::new(out, filter, limit),
            pending: false,
            snap: Snapshot {
                regs: Vec::new(),
                exec: 0,
                uniforms: Vec::new(),
            },
        }
    }
    pub fn traced(&self) -> u64 {
        self.sink.traced()
    }
    pub fn finish(self) -> std::io::Result<W> {
        self.sink.finish()
    }
}

impl<W: Write> Observer<WaveState, Inst> for Tracer<W> {
    fn before(&mut self, loc: &InstLoc, w: &WaveState, inst: &Inst) {
        self.pending = self.sink.start(loc);
        if !self.pending {
            return;
        }
        self.snap.regs = regs32(w);
        self.snap.exec = w.exec;
        self.snap.uniforms.clone_from(&w.uniforms);
        let [x, y, z] = loc.workgroup;
        let _ = writeln!(
            self.sink.line,
            "wg ({x},{y},{z}) w {}  {:#x}  EXEC={:#010x}  {}",
            loc.wave,
            loc.pc,
            w.exec,
            inst.text.trim_end()
        );
        self.sink.emit();
    }

    fn after(&mut self, _loc: &InstLoc, w: &WaveState, _inst: &Inst) {
        if !std::mem::take(&mut self.pending) {
            return;
        }
        let s = &self.snap;
        let line = &mut self.sink.line;
        for (r, old) in s.regs.iter().enumerate() {
            let new: [u32; SIMD_WIDTH] = std::array::from_fn(|l| w.reg32(r, l));
            write_lane_change(line, &format!("r{r}"), &new, old, |l| s.exec >> l & 1 != 0);
        }
        if w.exec != s.exec {
            let _ = writeln!(line, "    exec = {:#010x}", w.exec);
        }
        for (u, (new, old)) in w.uniforms.chunks(2).zip(s.uniforms.chunks(2)).enumerate() {
            if new != old {
                let v = new[0] as u32 | (*new.get(1).unwrap_or(&0) as u32) << 16;
                let _ = writeln!(line, "    u{u} = {v:#010x}");
            }
        }
        write_accesses(line, w.accesses.as_deref().unwrap_or(&[]));
        self.sink.emit();
    }
}

/// What `--stats` counts for AGX.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// SIMD-group instructions by mnemonic.
    pub by_kind: BTreeMap<String, u64>,
    pub simd_instructions: u64,
    /// Sum over instructions of the active threads.
    pub thread_instructions: u64,
    /// Instructions issued with some but not all of the group's threads active.
    pub divergent: u64,
    /// Instructions issued with no thread active (control flow skipped by the exec-mask stack).
    pub idle: u64,
    /// Instructions that changed EXEC.
    pub exec_changes: u64,
    pending_exec: u32,
}

impl Observer<WaveState, Inst> for Stats {
    fn before(&mut self, _loc: &InstLoc, w: &WaveState, inst: &Inst) {
        let m = inst
            .text
            .split_whitespace()
            .next()
            .unwrap_or("?")
            .to_string();
        *self.by_kind.entry(m).or_default() += 1;
        self.simd_instructions += 1;
        self.thread_instructions += w.exec.count_ones() as u64;
        if w.exec == 0 {
            self.idle += 1;
        } else if w.exec != w.present {
            self.divergent += 1;
        }
        self.pending_exec = w.exec;
    }
    fn after(&mut self, _loc: &InstLoc, w: &WaveState, _inst: &Inst) {
        if w.exec != self.pending_exec {
            self.exec_changes += 1;
        }
    }
}

impl Stats {
    pub fn to_text(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(t, "SIMD-group instructions: {}", self.simd_instructions);
        let _ = writeln!(t, "thread instructions:     {}", self.thread_instructions);
        let pct = |n: u64| {
            if self.simd_instructions == 0 {
                0.0
            } else {
                100.0 * n as f64 / self.simd_instructions as f64
            }
        };
        let _ = writeln!(
            t,
            "divergent:               {} ({:.1}%, some threads inactive), {} with no thread active, {} changed EXEC",
            self.divergent,
            pct(self.divergent),
            self.idle,
            self.exec_changes
        );
        let mut v: Vec<(&String, &u64)> = self.by_kind.iter().collect();
        v.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let list: Vec<String> = v.iter().map(|(k, n)| format!("{k} {n}")).collect();
        let _ = writeln!(t, "by kind:                 {}", list.join(", "));
        t
    }
}

/// A timeline with one tick per instruction of each SIMD group (wavesim has no AGX cycle
/// model: the ticks order the instructions, they are not cycles).
#[derive(Default)]
pub struct Timeline {
    pub spans: Vec<TimelineSpan>,
    clock: BTreeMap<([u32; 3], u32), u64>,
}

impl Observer<WaveState, Inst> for Timeline {
    fn before(&mut self, loc: &InstLoc, _w: &WaveState, inst: &Inst) {
        let t = self.clock.entry((loc.workgroup, loc.wave)).or_default();
        self.spans.push(TimelineSpan {
            workgroup: loc.workgroup,
            wave: loc.wave,
            name: inst
                .text
                .split_whitespace()
                .next()
                .unwrap_or("?")
                .to_string(),
            cat: "inst",
            start: *t,
            dur: 1,
            pc: loc.pc,
        });
        *t += 1;
    }
}

/// A check finding: its name (`UniformRange`, `ThreadgroupRace`), the instruction and what is
/// wrong.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Finding {
    pub name: &'static str,
    pub pc: u64,
    pub text: String,
    pub msg: String,
}

impl std::fmt::Display for Finding {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} at {:#x} `{}`: {}",
            self.name,
            self.pc,
            self.text.trim(),
            self.msg
        )
    }
}

/// The uniform-range check: an instruction reading a uniform register the job did not set.
/// Uniforms are the driver's push (Mesa's asahi compiler README, "Uniform registers": u0.. hold
/// what the driver uploads for the shader, the preamble's `uniform_store`s add more); one the
/// job never wrote holds nothing defined. One finding per (instruction, register).
#[derive(Default)]
pub struct UniformCheck {
    /// Uniform halves set by the job (bit per `u{n/2}l/h`).
    set: Vec<bool>,
    seen: BTreeSet<(u64, u16)>,
    pub findings: Vec<Finding>,
}

impl UniformCheck {
    /// The runner fills in what the job set ([`AgxObserver::uniforms_set`]).
    pub fn new() -> UniformCheck {
        UniformCheck {
            set: Vec::new(),
            seen: BTreeSet::new(),
            findings: Vec::new(),
        }
    }
}

impl Observer<WaveState, Inst> for UniformCheck {
    fn before(&mut self, loc: &InstLoc, _w: &WaveState, inst: &Inst) {
        for op in &inst.decoded.operands {
            let regs: &[crate::operand::Reg] = match op {
                Operand::Reg(r, _) => std::slice::from_ref(r),
                Operand::Tuple(v, _) => v,
                _ => continue,
            };
            for r in regs.iter().filter(|r| r.file.is_uniform()) {
                let (first, count) = match r.file {
                    RegFile::U16 => (r.n as usize, 1),
                    RegFile::U32 => (2 * r.n as usize, 2),
                    _ => (2 * r.n as usize, 4),
                };
                let unset =
                    (first..first + count).any(|h| !self.set.get(h).copied().unwrap_or(false));
                if unset && self.seen.insert((loc.pc, r.n)) {
                    self.findings.push(Finding {
                        name: "UniformRange",
                        pc: loc.pc,
                        text: inst.text.clone(),
                        msg: format!("reads {r}, which the job did not set (no [[uniform]] or argument covers it)"),
                    });
                }
            }
        }
    }
}

/// One SIMD group's last access of a threadgroup byte.
#[derive(Clone, Copy)]
struct Touch {
    group: u32,
    /// `threadgroup_barrier`s the group had passed.
    epoch: u32,
    pc: u64,
    lane: u32,
    kind: AccessKind,
}

/// The threadgroup-memory ordering check (`--check barriers`): two SIMD groups of one threadgroup
/// touch the same threadgroup byte, at least one of them writing, with no `threadgroup_barrier`
/// between them. Mesa's asahi compiler (`agx_compile.c`, `agx_emit_intrinsic`, the `barrier`
/// intrinsic) orders shared-memory accesses between the threads of a workgroup with
/// `threadgroup_barrier` alone, as Metal does (Metal Shading Language Specification,
/// "Threadgroup and SIMD-Group Synchronization Functions": `threadgroup_barrier` makes the
/// threadgroup's memory operations before it visible to its threads after it); nothing else
/// orders two SIMD groups. Inside one SIMD group the threads run one instruction together, so
/// program order orders them.
///
/// Observed runs execute a threadgroup's SIMD groups in turns, each up to its next barrier, so a
/// group's barrier count is its epoch: two accesses of different groups are ordered exactly when
/// their epochs differ. Two atomics do not race; a plain load against another group's atomic is
/// not reported (a compare-and-swap loop starts with one; RDNA3's stale-read rule decides such
/// pairs there, this check does not follow values). One finding per pair of instructions.
#[derive(Default)]
pub struct BarrierCheck {
    workgroup: Option<[u32; 3]>,
    epochs: BTreeMap<u32, u32>,
    /// Per threadgroup byte, each group's last load and last write (store or atomic).
    shadow: std::collections::HashMap<u64, Vec<Touch>>,
    texts: BTreeMap<u64, String>,
    seen: BTreeSet<(u64, u64)>,
    pub findings: Vec<Finding>,
}

fn writes(k: AccessKind) -> bool {
    k != AccessKind::Load
}

impl Observer<WaveState, Inst> for BarrierCheck {
    fn before(&mut self, loc: &InstLoc, _w: &WaveState, _inst: &Inst) {
        if self.workgroup != Some(loc.workgroup) {
            self.workgroup = Some(loc.workgroup);
            self.epochs.clear();
            self.shadow.clear();
        }
    }

    fn after(&mut self, loc: &InstLoc, w: &WaveState, inst: &Inst) {
        let group = loc.wave;
        let epoch = *self.epochs.entry(group).or_default();
        for a in w.accesses.iter().flatten() {
            if a.space != "threadgroup" {
                continue;
            }
            for byte in a.addr..a.addr + a.size as u64 {
                let touches = self.shadow.entry(byte).or_default();
                for t in touches.iter() {
                    let conflict = t.group != group
                        && t.epoch == epoch
                        // A plain store against anything; atomics against each other and
                        // loads against atomics are not reported (see above).
                        && (t.kind == AccessKind::Store || a.kind == AccessKind::Store);
                    if conflict && self.seen.insert((t.pc, loc.pc)) {
                        let [x, y, z] = loc.workgroup;
                        let other = self.texts.get(&t.pc).map_or("", |s| s.trim());
                        self.findings.push(Finding {
                            name: "ThreadgroupRace",
                            pc: loc.pc,
                            text: inst.text.clone(),
                            msg: format!(
                                "SIMD group {group} thread {} {} threadgroup byte {byte:#x}, which SIMD group {} thread {} {} at {:#x} `{other}` with no threadgroup_barrier between (threadgroup ({x},{y},{z}))",
                                a.lane,
                                match a.kind {
                                    AccessKind::Load => "loads",
                                    AccessKind::Store => "stores",
                                    AccessKind::Atomic => "changes atomically",
                                },
                                t.group,
                                t.lane,
                                match t.kind {
                                    AccessKind::Load => "loaded",
                                    AccessKind::Store => "stored",
                                    AccessKind::Atomic => "changed atomically",
                                },
                                t.pc
                            ),
                        });
                    }
                }
                touches.retain(|t| !(t.group == group && writes(t.kind) == writes(a.kind)));
                touches.push(Touch {
                    group,
                    epoch,
                    pc: loc.pc,
                    lane: a.lane,
                    kind: a.kind,
                });
                self.texts
                    .entry(loc.pc)
                    .or_insert_with(|| inst.text.clone());
            }
        }
        if inst.text.split_whitespace().next() == Some("threadgroup_barrier") {
            *self.epochs.entry(group).or_default() += 1;
        }
    }
}

/// One SIMD group's access of a device byte, for [`RaceCheck`].
#[derive(Clone, Copy)]
struct DeviceTouch {
    workgroup: [u32; 3],
    group: u32,
    /// `threadgroup_barrier`s the group had passed.
    epoch: u32,
    pc: u64,
    lane: u32,
    kind: AccessKind,
}

/// At most this many loads and this many writes of a device byte are kept, each of a different
/// SIMD group: a later conflicting access meets at least one of another group (a race is found,
/// not necessarily every pair of it).
const DEVICE_TOUCHES: usize = 2;

/// The device-memory race check (`--check races`): two SIMD groups touch the same device byte,
/// at least one of them writing, and nothing orders them. SIMD groups of different threadgroups
/// of one dispatch are never ordered (Metal Shading Language Specification, "Threadgroup and
/// SIMD-Group Synchronization Functions": barriers synchronise the threads of one threadgroup;
/// OpenCL 3.0, 3.3.1, likewise for work-groups); groups of one threadgroup are ordered by a
/// `threadgroup_barrier` between them (counted as in [`BarrierCheck`]; wavesim takes the
/// barrier to order device memory too, as Mesa's `agx_compile.c` emits the one instruction for
/// the workgroup barrier whatever memory it covers, so a missing device fence inside a
/// threadgroup is not found). Two atomics do not race. Unlike `--check barriers`, an atomic
/// against a plain access is reported both ways: a plain store loses or overwrites the atomic's
/// update, and a plain load of a word another group changes atomically reads a value that may be
/// stale (a compare-and-swap loop's first read is such a load; no program of the corpus has
/// one). Accesses checked: `device` loads, stores and atomics and `texture` reads (texels are
/// device memory). One finding per pair of instructions.
#[derive(Default)]
pub struct RaceCheck {
    epochs: BTreeMap<([u32; 3], u32), u32>,
    shadow: std::collections::HashMap<u64, Vec<DeviceTouch>>,
    texts: BTreeMap<u64, String>,
    seen: BTreeSet<(u64, u64)>,
    pub findings: Vec<Finding>,
}

impl Observer<WaveState, Inst> for RaceCheck {
    fn after(&mut self, loc: &InstLoc, w: &WaveState, inst: &Inst) {
        let (wg, group) = (loc.workgroup, loc.wave);
        let epoch = *self.epochs.entry((wg, group)).or_default();
        for a in w.accesses.iter().flatten() {
            if a.space != "device" && a.space != "texture" {
                continue;
            }
            for byte in a.addr..a.addr.saturating_add(a.size as u64) {
                let touches = self.shadow.entry(byte).or_default();
                for t in touches.iter() {
                    let other = t.workgroup != wg || t.group != group;
                    let unordered = t.workgroup != wg || t.epoch == epoch;
                    let conflict = other
                        && unordered
                        && (writes(t.kind) || writes(a.kind))
                        && !(t.kind == AccessKind::Atomic && a.kind == AccessKind::Atomic);
                    if conflict && self.seen.insert((t.pc, loc.pc)) {
                        let verb = |k: AccessKind, now: bool| match (k, now) {
                            (AccessKind::Load, true) => "loads",
                            (AccessKind::Store, true) => "stores",
                            (AccessKind::Atomic, true) => "changes atomically",
                            (AccessKind::Load, false) => "loaded",
                            (AccessKind::Store, false) => "stored",
                            (AccessKind::Atomic, false) => "changed atomically",
                        };
                        let text = self.texts.get(&t.pc).map_or("", |s| s.trim());
                        let [x, y, z] = wg;
                        let [tx, ty, tz] = t.workgroup;
                        let order = if t.workgroup == wg {
                            "no threadgroup_barrier between"
                        } else {
                            "different threadgroups, which nothing orders"
                        };
                        self.findings.push(Finding {
                            name: "DeviceRace",
                            pc: loc.pc,
                            text: inst.text.clone(),
                            msg: format!(
                                "threadgroup ({x},{y},{z}) SIMD group {group} thread {} {} device byte {byte:#x}, which threadgroup ({tx},{ty},{tz}) SIMD group {} thread {} {} at {:#x} `{text}` ({order})",
                                a.lane,
                                verb(a.kind, true),
                                t.group,
                                t.lane,
                                verb(t.kind, false),
                                t.pc
                            ),
                        });
                    }
                }
                // Keep this group's last access of the kind (load / write), then at most
                // DEVICE_TOUCHES of each kind, the newest.
                touches.retain(|t| {
                    !(t.workgroup == wg && t.group == group && writes(t.kind) == writes(a.kind))
                });
                touches.push(DeviceTouch {
                    workgroup: wg,
                    group,
                    epoch,
                    pc: loc.pc,
                    lane: a.lane,
                    kind: a.kind,
                });
                let same_kind = touches
                    .iter()
                    .filter(|t| writes(t.kind) == writes(a.kind))
                    .count();
                if same_kind > DEVICE_TOUCHES {
                    if let Some(i) = touches
                        .iter()
                        .position(|t| writes(t.kind) == writes(a.kind))
                    {
                        touches.remove(i);
                    }
                }
                self.texts
                    .entry(loc.pc)
                    .or_insert_with(|| inst.text.clone());
            }
        }
        if inst.text.split_whitespace().next() == Some("threadgroup_barrier") {
            *self.epochs.entry((wg, group)).or_default() += 1;
        }
    }
}

/// An observer of AGX runs that the runner tells which uniform halves the job set, before the
/// dispatch (the `[[uniform]]`s of a compute job; a grid kernel's pushed arguments and
/// preamble results).
pub trait AgxObserver: Observer<WaveState, Inst> {
    fn uniforms_set(&mut self, set: &[bool]) {
        let _ = set;
    }
    /// True if the observer checks uniform reads (and so needs [`AgxObserver::uniforms_set`]).
    fn checks_uniforms(&self) -> bool {
        false
    }
}

impl AgxObserver for wavesim_core::observe::NoObserver {}

impl<W: Write> AgxObserver for Inside<W> {
    fn uniforms_set(&mut self, set: &[bool]) {
        if let Some(u) = &mut self.uniforms {
            u.set = set.to_vec();
        }
    }
    fn checks_uniforms(&self) -> bool {
        self.uniforms.is_some()
    }
}

/// Everything `wavesim run --target agx` can ask to see at once.
pub struct Inside<W: Write> {
    pub tracer: Option<Tracer<W>>,
    pub stats: Option<Stats>,
    pub timeline: Option<Timeline>,
    pub uniforms: Option<UniformCheck>,
    pub barriers: Option<BarrierCheck>,
    pub races: Option<RaceCheck>,
}

impl<W: Write> Observer<WaveState, Inst> for Inside<W> {
    fn enabled(&self) -> bool {
        self.tracer.is_some()
            || self.stats.is_some()
            || self.timeline.is_some()
            || self.uniforms.is_some()
            || self.barriers.is_some()
            || self.races.is_some()
    }
    fn before(&mut self, loc: &InstLoc, w: &WaveState, i: &Inst) {
        if let Some(t) = &mut self.tracer {
            t.before(loc, w, i);
        }
        if let Some(t) = &mut self.stats {
            t.before(loc, w, i);
        }
        if let Some(t) = &mut self.timeline {
            t.before(loc, w, i);
        }
        if let Some(t) = &mut self.uniforms {
            t.before(loc, w, i);
        }
        if let Some(t) = &mut self.barriers {
            t.before(loc, w, i);
        }
    }
    fn after(&mut self, loc: &InstLoc, w: &WaveState, i: &Inst) {
        if let Some(t) = &mut self.tracer {
            t.after(loc, w, i);
        }
        if let Some(t) = &mut self.stats {
            t.after(loc, w, i);
        }
        if let Some(t) = &mut self.barriers {
            t.after(loc, w, i);
        }
        if let Some(t) = &mut self.races {
            t.after(loc, w, i);
        }
    }
}

/// The byte offsets of the instructions of `code`, decoded from its start to the first bytes that
/// do not decode: where a step debugger can stop.
pub fn instruction_starts(code: &[u8]) -> BTreeSet<u64> {
    let mut starts = BTreeSet::new();
    let mut pc = 0usize;
    while pc < code.len() {
        let Ok(d) = crate::decode::decode(&code[pc..]) else {
            break;
        };
        starts.insert(pc as u64);
        pc += d.size.max(2);
    }
    starts
}
