//! Seeing inside an R700 run (docs/INSIDE.md, "R700"): observers of the executor's steps (every CF
//! instruction, each ALU instruction group and each fetch instruction of the clauses they run,
//! [`crate::exec::Step`]) that write a text trace, count statistics and record a timeline, and
//! [`check`], the static checks of the R700 ISA reference's programming rules.
//!
//! The observers see what the engine gives every ISA (`wavesim_core::observe::Observer`); the
//! run is the one `runner::run_observed` does, waves in order on one thread.

pub mod check;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::Write;

use wavesim_core::observe::{
    write_lane_change, InstLoc, Observer, TimelineSpan, TraceFilter, TraceSink,
};

use crate::decode::{CfKind, FetchRow};
use crate::exec::{PixelState, Step, Wave};

const CHAN: [char; 4] = ['X', 'Y', 'Z', 'W'];
const SLOTS: [char; 5] = ['x', 'y', 'z', 'w', 't'];

/// The active mask of a wave, bit per thread.
fn active_mask(w: &Wave) -> u64 {
    w.state
        .iter()
        .enumerate()
        .filter(|(_, s)| **s == PixelState::Active)
        .fold(0u64, |m, (l, _)| m | 1 << l)
}

/// What an instruction changed: the GPRs and the active mask before it ran.
struct Snapshot {
    gpr: Vec<[Vec<u32>; 4]>,
    active: u64,
    exports: usize,
}

/// Writes one line per executed step and one per register it changed:
///
/// ```text
/// wg (0,0,0) w 0  @2  ACTIVE=0x00000000ffffffff  ALU 4 @6 KC0[CB0:0-15]
/// wg (0,0,0) w 0  @6  ACTIVE=0x00000000ffffffff  (ALU clause of @2) x: MUL_IEEE T0.X, T0.X, KC0[0].X; t: ...
///     T0.X: [0]=0x3f800000 [1-31]=0x40000000
/// ```
///
/// The PC is the step's `@N` address (8-byte units) as `wavesim disasm` shows it; an ALU group
/// lists its slots (`x:` .. `t:`), a clause step names the CF instruction that runs it. Changes
/// are found by comparing the GPRs (every channel, every thread), the active mask and the
/// threads' exports before and after the step, so a register written with the value it held is
/// not listed; a CF instruction that runs a clause shows only what its clause's steps did not
/// (its active-mask and stack effects).
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
                gpr: Vec::new(),
                active: 0,
                exports: 0,
            },
        }
    }
    /// Steps traced so far.
    pub fn traced(&self) -> u64 {
        self.sink.traced()
    }
    /// Ends the trace (see `TraceSink::finish`).
    pub fn finish(self) -> std::io::Result<W> {
        self.sink.finish()
    }
}

/// True for a CF instruction whose clause's steps are traced on their own.
fn runs_clause(s: &Step) -> bool {
    match s {
        Step::Cf(c) => match c.kind {
            CfKind::Alu(_) => true,
            CfKind::Normal(r) => matches!(
                r.exec,
                crate::isa::CfExec::TexClause | crate::isa::CfExec::VtxClause
            ),
            CfKind::Export(_) => false,
        },
        _ => false,
    }
}

impl<W: Write> Observer<Wave, Step> for Tracer<W> {
    fn before(&mut self, loc: &InstLoc, w: &Wave, s: &Step) {
        self.pending = self.sink.start(loc);
        if !self.pending {
            return;
        }
        let snap = &mut self.snap;
        snap.active = active_mask(w);
        snap.exports = w.exports.iter().map(Vec::len).sum();
        if !runs_clause(s) {
            snap.gpr.clone_from(&w.gpr);
        }
        let [x, y, z] = loc.workgroup;
        let inside = match s {
            Step::Cf(_) => String::new(),
            Step::Alu { cf, .. } => format!("(ALU clause of @{}) ", cf.addr),
            Step::Fetch { cf, .. } => format!("(fetch clause of @{}) ", cf.addr),
        };
        let _ = writeln!(
            self.sink.line,
            "wg ({x},{y},{z}) w {}  @{}  ACTIVE={:#018x}  {inside}{}",
            loc.wave,
            loc.pc,
            snap.active,
            s.text()
        );
        self.sink.emit();
    }

    fn after(&mut self, _loc: &InstLoc, w: &Wave, s: &Step) {
        if !std::mem::take(&mut self.pending) {
            return;
        }
        let snap = &self.snap;
        let line = &mut self.sink.line;
        let active = |l: usize| snap.active >> l & 1 != 0;
        if !runs_clause(s) {
            for (r, (new, old)) in w.gpr.iter().zip(&snap.gpr).enumerate() {
                for c in 0..4 {
                    write_lane_change(line, &format!("T{r}.{}", CHAN[c]), &new[c], &old[c], active);
                }
            }
        }
        let now = active_mask(w);
        if now != snap.active {
            let _ = writeln!(line, "    ACTIVE = {now:#018x}");
        }
        let exports: usize = w.exports.iter().map(Vec::len).sum();
        if exports != snap.exports {
            let _ = writeln!(
                line,
                "    exports: +{}",
                exports - snap.exports.min(exports)
            );
        }
        self.sink.emit();
    }
}

/// What `--stats` counts for R700: instructions by kind, clauses, ALU slot use and fetches.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// CF instructions executed (per wave), by mnemonic.
    pub cf: BTreeMap<String, u64>,
    /// ALU instructions executed (per wave), by mnemonic.
    pub alu: BTreeMap<String, u64>,
    /// Fetch instructions executed (per wave), by mnemonic.
    pub fetch: BTreeMap<String, u64>,
    pub alu_clauses: u64,
    pub tex_clauses: u64,
    pub vtx_clauses: u64,
    pub alu_groups: u64,
    /// Executed groups with the x, y, z, w, t slot filled.
    pub slots: [u64; 5],
    /// Literal dwords of the executed groups.
    pub literals: u64,
    pub tex_instructions: u64,
    pub vtx_instructions: u64,
    /// Sum over executed ALU groups of the threads active in them.
    pub thread_groups: u64,
}

fn mnemonic(text: &str) -> String {
    text.split_whitespace().next().unwrap_or("?").to_string()
}

impl Observer<Wave, Step> for Stats {
    fn before(&mut self, _loc: &InstLoc, w: &Wave, s: &Step) {
        match s {
            Step::Cf(c) => {
                *self.cf.entry(mnemonic(&s.text())).or_default() += 1;
                match c.kind {
                    CfKind::Alu(_) => self.alu_clauses += 1,
                    CfKind::Normal(r) => match r.exec {
                        crate::isa::CfExec::TexClause => self.tex_clauses += 1,
                        crate::isa::CfExec::VtxClause => self.vtx_clauses += 1,
                        _ => {}
                    },
                    CfKind::Export(_) => {}
                }
            }
            Step::Alu { group, .. } => {
                self.alu_groups += 1;
                self.literals += group.literals.len() as u64;
                self.thread_groups +=
                    w.state.iter().filter(|s| **s == PixelState::Active).count() as u64;
                for i in &group.insts {
                    self.slots[(i.slot as usize).min(4)] += 1;
                    *self.alu.entry(i.row.isa.to_string()).or_default() += 1;
                }
            }
            Step::Fetch { inst, .. } => {
                match inst.row {
                    FetchRow::Tex(_) => self.tex_instructions += 1,
                    FetchRow::Vtx(_) => self.vtx_instructions += 1,
                }
                let text = crate::text::fetch_text(inst);
                *self.fetch.entry(mnemonic(&text)).or_default() += 1;
            }
        }
    }
}

impl Stats {
    /// The text `wavesim run --stats` prints.
    pub fn to_text(&self) -> String {
        let mut t = String::new();
        let _ = writeln!(
            t,
            "clauses:           {} ALU, {} TEX, {} VTX",
            self.alu_clauses, self.tex_clauses, self.vtx_clauses
        );
        let filled: u64 = self.slots.iter().sum();
        let per = if self.alu_groups > 0 {
            filled as f64 / self.alu_groups as f64
        } else {
            0.0
        };
        let _ = writeln!(
            t,
            "ALU groups:        {} ({filled} instructions, {per:.2} of 5 slots per group, {} literal dwords)",
            self.alu_groups, self.literals
        );
        let use_: Vec<String> = (0..5)
            .map(|k| format!("{} {}", SLOTS[k], self.slots[k]))
            .collect();
        let _ = writeln!(t, "ALU slot use:      {}", use_.join(", "));
        let _ = writeln!(
            t,
            "fetches:           {} TEX, {} VTX",
            self.tex_instructions, self.vtx_instructions
        );
        for (what, map) in [("CF", &self.cf), ("ALU", &self.alu), ("fetch", &self.fetch)] {
            if map.is_empty() {
                continue;
            }
            let mut v: Vec<(&String, &u64)> = map.iter().collect();
            v.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
            let list: Vec<String> = v.iter().map(|(k, n)| format!("{k} {n}")).collect();
            let _ = writeln!(
                t,
                "{what} by kind:{}{}",
                " ".repeat(11 - what.len()),
                list.join(", ")
            );
        }
        t
    }
}

/// Records a timeline: each wave's steps one after another, one tick per ALU group, fetch
/// instruction or CF instruction without a clause (wavesim has no R700 cycle model: the ticks
/// order the steps, they are not cycles); a clause's CF instruction spans its clause's steps.
#[derive(Default)]
pub struct Timeline {
    pub spans: Vec<TimelineSpan>,
    clock: BTreeMap<([u32; 3], u32), u64>,
    open: Option<(usize, u64)>,
}

impl Observer<Wave, Step> for Timeline {
    fn before(&mut self, loc: &InstLoc, _w: &Wave, s: &Step) {
        let t = *self.clock.entry((loc.workgroup, loc.wave)).or_default();
        let (cat, name) = match s {
            Step::Cf(_) => ("cf", s.text()),
            Step::Alu { group, .. } => (
                "alu",
                group
                    .insts
                    .iter()
                    .map(|i| i.row.isa)
                    .collect::<Vec<_>>()
                    .join(" | "),
            ),
            Step::Fetch { .. } => ("fetch", s.text()),
        };
        self.spans.push(TimelineSpan {
            workgroup: loc.workgroup,
            wave: loc.wave,
            name,
            cat,
            start: t,
            dur: 1,
            pc: loc.pc,
        });
        if runs_clause(s) {
            self.open = Some((self.spans.len() - 1, t));
        }
    }
    fn after(&mut self, loc: &InstLoc, _w: &Wave, s: &Step) {
        let clock = self.clock.entry((loc.workgroup, loc.wave)).or_default();
        if runs_clause(s) {
            if let Some((i, start)) = self.open.take() {
                self.spans[i].dur = (*clock - start).max(1);
                *clock = start + self.spans[i].dur;
            }
        } else {
            *clock += 1;
        }
    }
}

/// Everything `wavesim run` can ask to see at once: any of a trace, statistics and a timeline.
pub struct Inside<W: Write> {
    pub tracer: Option<Tracer<W>>,
    pub stats: Option<Stats>,
    pub timeline: Option<Timeline>,
}

impl<W: Write> Observer<Wave, Step> for Inside<W> {
    fn enabled(&self) -> bool {
        self.tracer.is_some() || self.stats.is_some() || self.timeline.is_some()
    }
    fn before(&mut self, loc: &InstLoc, w: &Wave, s: &Step) {
        if let Some(t) = &mut self.tracer {
            t.before(loc, w, s);
        }
        if let Some(t) = &mut self.stats {
            t.before(loc, w, s);
        }
        if let Some(t) = &mut self.timeline {
            t.before(loc, w, s);
        }
    }
    fn after(&mut self, loc: &InstLoc, w: &Wave, s: &Step) {
        if let Some(t) = &mut self.tracer {
            t.after(loc, w, s);
        }
        if let Some(t) = &mut self.timeline {
            t.after(loc, w, s);
        }
    }
}

/// The addresses a step debugger can stop at (`@N`, 8-byte units as `wavesim disasm` lists them):
/// every CF instruction, ALU instruction group and fetch instruction of the program.
pub fn step_addresses(p: &crate::decode::Program) -> std::collections::BTreeSet<u64> {
    let mut starts: std::collections::BTreeSet<u64> = p.cf.iter().map(|c| c.addr as u64).collect();
    for c in p.alu.values() {
        starts.extend(c.groups.iter().map(|g| g.addr as u64));
    }
    for c in p.fetch.values() {
        starts.extend(c.insts.iter().map(|f| f.addr as u64));
    }
    starts
}
