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
    write_accesses, write_lane_change, InstLoc, Observer, TimelineSpan, TraceFilter, TraceSink,
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

/// A TEX instruction that reads its texture at coordinates (SAMPLE* and TEX_LD), and its
/// resource, sampler (None for TEX_LD) and four coordinate sources: per active thread the
/// components TEX_WORD2 SRC_SEL_X..W select from SRC_GPR (0..3 a channel, 4 = 0.0, 5 = 1.0,
/// 7 = unused; R700 ISA reference, TEX_WORD0/TEX_WORD2), SRC_GPR relative to aL when SRC_REL is
/// set. The texture unit reads decoded texels, not bytes of memory, so a trace shows the
/// resource and the coordinates (not addresses).
pub fn tex_coordinates(w: &Wave, s: &Step) -> Option<TexRead> {
    use crate::decode::bits;
    use crate::isa::FetchExec;
    let Step::Fetch { inst, .. } = s else {
        return None;
    };
    let FetchRow::Tex(row) = inst.row else {
        return None;
    };
    let sampler = match row.exec {
        FetchExec::Sample { .. } => Some(bits(inst.w[2], 15, 5)),
        FetchExec::Load => None,
        _ => return None,
    };
    let mut gpr = bits(inst.w[0], 16, 7) as i64;
    if bits(inst.w[0], 23, 1) != 0 {
        gpr += w.loop_index()? as i64;
    }
    let regs = w.gpr.get(usize::try_from(gpr).ok()?)?;
    let sel = [20, 23, 26, 29].map(|lo| bits(inst.w[2], lo, 3));
    let coords = (0..w.lanes)
        .filter(|&l| w.state[l] == PixelState::Active)
        .map(|l| {
            let c = sel.map(|k| match k {
                0..=3 => Some(regs[k as usize][l]),
                4 => Some(0),
                5 => Some(0x3f80_0000),
                _ => None,
            });
            (l as u32, c)
        })
        .collect();
    Some(TexRead {
        resource: bits(inst.w[0], 8, 8),
        sampler,
        coords,
    })
}

/// What [`tex_coordinates`] finds.
pub struct TexRead {
    pub resource: u32,
    /// The sampler of a SAMPLE*; None for TEX_LD (integer texel coordinates, no sampler).
    pub sampler: Option<u32>,
    /// Per active thread, the X, Y, Z, W sources (None: select 7, unused).
    pub coords: Vec<(u32, [Option<u32>; 4])>,
}

impl TexRead {
    /// `    tex0 sample (sampler 0): [0] (0.5, 0.25, _, _) ...`, floats for a sample, integers
    /// for TEX_LD.
    pub fn write(&self, line: &mut String) {
        let _ = match self.sampler {
            Some(sm) => write!(line, "    tex{} sample (sampler {sm}):", self.resource),
            None => write!(
                line,
                "    tex{} load (texel coordinates, level in W):",
                self.resource
            ),
        };
        for (l, c) in &self.coords {
            let v: Vec<String> = c
                .iter()
                .map(|x| match (x, self.sampler) {
                    (None, _) => "_".to_string(),
                    (Some(x), Some(_)) => format!("{}", f32::from_bits(*x)),
                    (Some(x), None) => format!("{}", *x as i32),
                })
                .collect();
            let _ = write!(line, " [{l}] ({})", v.join(", "));
        }
        line.push('\n');
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
        // The coordinates are read before the fetch may overwrite their GPR.
        if let Some(t) = tex_coordinates(w, s) {
            t.write(&mut self.sink.line);
        }
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
        if !runs_clause(s) {
            if let Some(a) = &w.accesses {
                write_accesses(line, a);
            }
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
    /// Thread memory accesses (VTX fetches, LDS, exports) by space, kind and size: (count, bytes).
    pub accesses: BTreeMap<(String, &'static str), (u64, u64)>,
    /// Thread texture reads (SAMPLE*, TEX_LD) by resource.
    pub tex_reads: BTreeMap<u32, u64>,
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
                if let Some(t) = tex_coordinates(w, s) {
                    *self.tex_reads.entry(t.resource).or_default() += t.coords.len() as u64;
                }
                let text = crate::text::fetch_text(inst);
                *self.fetch.entry(mnemonic(&text)).or_default() += 1;
            }
        }
    }
    fn after(&mut self, _loc: &InstLoc, w: &Wave, s: &Step) {
        self.count_accesses(w, s);
    }
}

impl Stats {
    /// Counts the accesses of a step (in `after`; a CF instruction that runs a clause has none
    /// of its own).
    fn count_accesses(&mut self, w: &Wave, s: &Step) {
        if runs_clause(s) {
            return;
        }
        for a in w.accesses.iter().flatten() {
            let e = self
                .accesses
                .entry((a.space.to_string(), a.kind.name()))
                .or_default();
            e.0 += 1;
            e.1 += a.size as u64;
        }
    }

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
        if !self.accesses.is_empty() {
            let list: Vec<String> = self
                .accesses
                .iter()
                .map(|((space, kind), (n, b))| format!("{space} {kind} {n} ({b} B)"))
                .collect();
            let _ = writeln!(t, "memory accesses:   {}", list.join(", "));
        }
        if !self.tex_reads.is_empty() {
            let list: Vec<String> = self
                .tex_reads
                .iter()
                .map(|(r, n)| format!("tex{r} {n}"))
                .collect();
            let _ = writeln!(
                t,
                "texture reads:     {} (thread reads by resource)",
                list.join(", ")
            );
        }
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
        if let Some(t) = &mut self.stats {
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
