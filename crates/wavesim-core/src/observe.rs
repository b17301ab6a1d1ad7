//! Seeing inside a dispatch (DESIGN.md, "Seeing inside"): the [`Observer`] hooks every back
//! end's run loop calls around each instruction a wave executes, and [`TraceFilter`], which
//! selects the waves a tracer follows.
//!
//! The run loops are generic over the observer; with [`NoObserver`] `enabled()` is a constant
//! `false`, so the hooks and everything computed for them compile away and the loop is the same
//! machine code as without observers. A dispatch with an enabled observer runs its workgroups one
//! after the other on the calling thread, in the deterministic order of a `threads = 1` run
//! (workgroups x-fastest, the waves of a workgroup in turns), so a trace is reproducible.
//!
//! `W` is the back end's wave state and `I` its decoded instruction.

/// Where an instruction executes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct InstLoc {
    pub workgroup: [u32; 3],
    /// Wave index inside the workgroup.
    pub wave: u32,
    /// The instruction's address as error messages show it: relative to the code object (so it
    /// matches `llvm-objdump` / `wavesim disasm`), or to TBA when `trap_handler` is set.
    pub pc: u64,
    /// The instruction's address in the device address space (what `s_getpc_b64` sees).
    pub addr: u64,
    /// The instruction is in the installed trap handler.
    pub trap_handler: bool,
}

/// One memory access of one thread, as a back end reports it to observers (the AGX executor
/// records them in its wave state while an observer is enabled; a tracer prints them after the
/// instruction's register changes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemAccess {
    pub kind: AccessKind,
    /// The address space, as the back end names it (AGX `device`, `threadgroup`; R700 `cb3`,
    /// `vb160`, `lds`, `param`, ...).
    pub space: &'static str,
    pub lane: u32,
    pub addr: u64,
    /// Bytes accessed (1, 2, 4 or 8).
    pub size: u8,
    /// The value loaded or stored; for an atomic, the value memory held before it.
    pub value: u64,
}

/// Appends an access to a back end's list of the running instruction's accesses, which it keeps
/// only while an observer is enabled (`None`: nothing to do).
#[inline(always)]
pub fn record_access(
    list: &mut Option<Vec<MemAccess>>,
    kind: AccessKind,
    space: &'static str,
    lane: usize,
    addr: u64,
    size: u64,
    value: u64,
) {
    if let Some(v) = list {
        v.push(MemAccess {
            kind,
            space,
            lane: lane as u32,
            addr,
            size: size as u8,
            value,
        });
    }
}

/// What a [`MemAccess`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessKind {
    Load,
    Store,
    /// A read-modify-write; `value` is the old value.
    Atomic,
}

impl AccessKind {
    pub fn name(self) -> &'static str {
        match self {
            AccessKind::Load => "load",
            AccessKind::Store => "store",
            AccessKind::Atomic => "atomic",
        }
    }
}

/// Appends one line per (kind, space) of `accesses`, in order of first appearance:
/// `    device load 4B: [0] 0x1000=0x3f800000 [1] 0x1004=0x40000000`.
pub fn write_accesses(line: &mut String, accesses: &[MemAccess]) {
    use std::fmt::Write as _;
    let mut done: Vec<(AccessKind, &str, u8)> = Vec::new();
    for a in accesses {
        let key = (a.kind, a.space, a.size);
        if done.contains(&key) {
            continue;
        }
        done.push(key);
        let _ = write!(line, "    {} {} {}B:", a.space, a.kind.name(), a.size);
        for b in accesses.iter().filter(|b| (b.kind, b.space, b.size) == key) {
            let w = 2 * b.size as usize;
            let _ = write!(
                line,
                " [{}] {:#x}={:#0w$x}",
                b.lane,
                b.addr,
                b.value,
                w = w + 2
            );
        }
        line.push('\n');
    }
}

/// The interned name `PREFIX` + `n` of a numbered address space (R700: constant buffer `cb3`,
/// vertex buffer `vb160`): [`MemAccess::space`] and [`MemoryView::spaces`] hold `&'static str`,
/// and the few hundred names a run can use are made once and kept.
pub fn numbered_space(prefix: &'static str, n: u32) -> &'static str {
    use std::collections::BTreeMap;
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<BTreeMap<(&'static str, u32), &'static str>>> = OnceLock::new();
    let names = NAMES.get_or_init(Default::default);
    // A poisoned lock only means another thread panicked while inserting; the map is still whole.
    let mut m = names.lock().unwrap_or_else(|e| e.into_inner());
    m.entry((prefix, n))
        .or_insert_with(|| Box::leak(format!("{prefix}{n}").into_boxed_str()))
}

/// Memory a paused run lets a step debugger read and write ([`Observer::pause_mem`]).
pub trait MemoryView {
    /// The address spaces, the default (a bare address) first.
    fn spaces(&self) -> &[&'static str];
    /// Reads `out.len()` bytes at `addr` of space `space` (an index into [`MemoryView::spaces`]).
    fn read(&self, space: usize, addr: u64, out: &mut [u8]) -> Result<(), String>;
    /// Writes `data` at `addr` of space `space`.
    fn write(&mut self, space: usize, addr: u64, data: &[u8]) -> Result<(), String>;
}

/// When a step debugger that stops in [`Observer::pause`] stops: before the first instruction,
/// at breakpoints (instruction starts only) and after a step; never once the user let the run
/// go (`release`). Shared by the CLI's and Python's R700 and AGX debuggers.
#[derive(Clone, Debug, Default)]
pub struct StopRule {
    starts: std::collections::BTreeSet<u64>,
    breaks: std::collections::BTreeSet<u64>,
    started: bool,
    stepping: bool,
    released: bool,
}

impl StopRule {
    /// `starts`: the addresses of the program's instructions.
    pub fn new(starts: std::collections::BTreeSet<u64>) -> StopRule {
        StopRule {
            starts,
            ..StopRule::default()
        }
    }
    /// Adds a breakpoint; `false` (and none added) when `pc` is not an instruction start.
    #[must_use]
    pub fn break_at(&mut self, pc: u64) -> bool {
        self.starts.contains(&pc) && {
            self.breaks.insert(pc);
            true
        }
    }
    pub fn clear_break(&mut self, pc: u64) {
        self.breaks.remove(&pc);
    }
    /// Stop again before the next instruction.
    pub fn step(&mut self) {
        self.stepping = true;
    }
    /// No more stops: the run goes to its end.
    pub fn release(&mut self) {
        self.released = true;
    }
    pub fn released(&self) -> bool {
        self.released
    }
    /// Whether to stop before the instruction at `pc`, and why (`start`, `break`, `step`).
    pub fn stop_at(&mut self, pc: u64) -> Option<&'static str> {
        if self.released {
            return None;
        }
        let first = !std::mem::replace(&mut self.started, true);
        let hit = self.breaks.contains(&pc);
        let why = match (hit, first, self.stepping) {
            (true, _, _) => "break",
            (false, true, _) => "start",
            (false, false, true) => "step",
            _ => return None,
        };
        self.stepping = false;
        Some(why)
    }
}

/// Hooks the dispatch loop calls around every executed instruction. All methods have no-op
/// defaults; implement the ones you need.
pub trait Observer<W: ?Sized, I: ?Sized> {
    /// `false` turns the hooks off; the loop checks it before computing anything for them (it is
    /// a constant for [`NoObserver`], so the check compiles away).
    #[inline(always)]
    fn enabled(&self) -> bool {
        true
    }
    /// Before the instruction runs: `wave.pc` is the instruction's address, the registers hold
    /// its inputs.
    #[inline(always)]
    fn before(&mut self, loc: &InstLoc, wave: &W, inst: &I) {
        let _ = (loc, wave, inst);
    }
    /// Right before [`Observer::before`], with the wave writable: where a step debugger stops
    /// and lets its user change registers. The R700 and AGX run loops call it (RDNA3's step API
    /// is its own `Debugger`, which drives the back end one instruction at a time).
    #[inline(always)]
    fn pause(&mut self, loc: &InstLoc, wave: &mut W, inst: &I) {
        let _ = (loc, wave, inst);
    }
    /// [`Observer::pause`] with the run's memory readable and writable, for the run loops that
    /// can lend it (AGX: device and threadgroup memory); by default it calls `pause`.
    #[inline(always)]
    fn pause_mem(&mut self, loc: &InstLoc, wave: &mut W, inst: &I, mem: &mut dyn MemoryView) {
        let _ = mem;
        self.pause(loc, wave, inst)
    }
    /// After the instruction's semantics ran and before the loop acts on the outcome (a jump,
    /// the end of the wave, an error or entering the trap handler): the registers hold what the
    /// instruction wrote; `wave.pc` is the next PC (the branch target after a taken branch).
    #[inline(always)]
    fn after(&mut self, loc: &InstLoc, wave: &W, inst: &I) {
        let _ = (loc, wave, inst);
    }
}

/// No observer: the plain, parallel, full-speed dispatch.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoObserver;

impl<W: ?Sized, I: ?Sized> Observer<W, I> for NoObserver {
    #[inline(always)]
    fn enabled(&self) -> bool {
        false
    }
}

impl<W: ?Sized, I: ?Sized, O: Observer<W, I> + ?Sized> Observer<W, I> for &mut O {
    #[inline(always)]
    fn enabled(&self) -> bool {
        (**self).enabled()
    }
    #[inline(always)]
    fn before(&mut self, loc: &InstLoc, wave: &W, inst: &I) {
        (**self).before(loc, wave, inst)
    }
    #[inline(always)]
    fn pause(&mut self, loc: &InstLoc, wave: &mut W, inst: &I) {
        (**self).pause(loc, wave, inst)
    }
    #[inline(always)]
    fn pause_mem(&mut self, loc: &InstLoc, wave: &mut W, inst: &I, mem: &mut dyn MemoryView) {
        (**self).pause_mem(loc, wave, inst, mem)
    }
    #[inline(always)]
    fn after(&mut self, loc: &InstLoc, wave: &W, inst: &I) {
        (**self).after(loc, wave, inst)
    }
}

/// Which waves a [`TextTracer`] traces; `None` fields match every wave.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TraceFilter {
    pub workgroup: Option<[u32; 3]>,
    pub wave: Option<u32>,
}

impl TraceFilter {
    /// Parses the CLI form: comma-separated `wg=X[,Y[,Z]]` (missing dimensions are 0) and/or
    /// `wave=N`, e.g. `wg=1,0,0`, `wave=2`, `wg=3,wave=1`; several filters must all match.
    pub fn parse(s: &str) -> Result<TraceFilter, String> {
        let mut f = TraceFilter::default();
        let bad = || {
            format!(
                "trace filter `{s}`: expected wg=X[,Y[,Z]] and/or wave=N (e.g. wg=1,0,0,wave=2)"
            )
        };
        let mut key: Option<&str> = None;
        let mut wg: Vec<u32> = Vec::new();
        for part in s.split(',').map(str::trim) {
            let value = match part.split_once('=') {
                Some((k, v)) => {
                    key = Some(k.trim());
                    v.trim()
                }
                // A bare number continues wg=X,Y,Z.
                None if key == Some("wg") => part,
                None => return Err(bad()),
            };
            let n: u32 = value.parse().map_err(|_| bad())?;
            match key {
                Some("wg") if wg.len() < 3 => wg.push(n),
                Some("wave") if part.contains('=') && f.wave.is_none() => f.wave = Some(n),
                _ => return Err(bad()),
            }
        }
        if !wg.is_empty() {
            let mut g = [0u32; 3];
            g[..wg.len()].copy_from_slice(&wg);
            f.workgroup = Some(g);
        }
        if f.workgroup.is_none() && f.wave.is_none() {
            return Err(bad());
        }
        Ok(f)
    }

    /// True if the filter selects wave `wave` of workgroup `wg`.
    pub fn matches(&self, wg: [u32; 3], wave: u32) -> bool {
        self.workgroup.is_none_or(|g| g == wg) && self.wave.is_none_or(|w| w == wave)
    }

    /// Combines two filters (both must match); `None` if they select different waves.
    pub fn and(self, o: TraceFilter) -> Option<TraceFilter> {
        fn both<T: PartialEq>(a: Option<T>, b: Option<T>) -> Option<Option<T>> {
            match (a, b) {
                (Some(x), Some(y)) if x != y => None,
                (a, b) => Some(a.or(b)),
            }
        }
        Some(TraceFilter {
            workgroup: both(self.workgroup, o.workgroup)?,
            wave: both(self.wave, o.wave)?,
        })
    }
}

/// Default [`TextTracer`] limit: traced instructions before the trace is cut.
pub const DEFAULT_TRACE_LIMIT: u64 = 100_000;

/// The part of a text tracer every ISA shares: the [`TraceFilter`], the instruction limit, the
/// line being built and the first write error. An ISA's tracer calls [`TraceSink::start`] in its
/// `before` hook, writes the instruction's line into [`TraceSink::line`], [`TraceSink::emit`]s
/// it, and in `after` (when `start` said yes) writes the changed registers.
pub struct TraceSink<W: std::io::Write> {
    out: W,
    filter: TraceFilter,
    limit: u64,
    traced: u64,
    cut: bool,
    error: Option<std::io::Error>,
    /// The text not yet written.
    pub line: String,
}

impl<W: std::io::Write> TraceSink<W> {
    pub fn new(out: W, filter: TraceFilter, limit: u64) -> TraceSink<W> {
        TraceSink {
            out,
            filter,
            limit,
            traced: 0,
            cut: false,
            error: None,
            line: String::new(),
        }
    }

    /// True if the instruction at `loc` is traced: its wave passes the filter, the limit is not
    /// reached and nothing failed to write.
    pub fn start(&mut self, loc: &InstLoc) -> bool {
        if self.error.is_some() || !self.filter.matches(loc.workgroup, loc.wave) {
            return false;
        }
        if self.traced >= self.limit {
            self.cut = true;
            return false;
        }
        self.traced += 1;
        true
    }

    /// Instructions traced so far.
    pub fn traced(&self) -> u64 {
        self.traced
    }

    /// Writes [`TraceSink::line`] (the first write error stops the trace).
    pub fn emit(&mut self) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(self.line.as_bytes()) {
                self.error = Some(e);
            }
        }
        self.line.clear();
    }

    /// Ends the trace: the note when the limit cut it, the flush, the writer or the first error.
    pub fn finish(mut self) -> std::io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if self.cut {
            writeln!(
                self.out,
                "... trace cut after {} instructions (trace limit); the dispatch ran on",
                self.limit
            )?;
        }
        self.out.flush()?;
        Ok(self.out)
    }
}

/// Appends `    NAME: [lane]=0x.. [a-b]=0x..` (or `    NAME = 0x.. (all active lanes)`) for a
/// per-lane register whose values went from `old` to `new`: the lanes `active` selects and every
/// lane that changed, consecutive lanes with one value as a range. Nothing when nothing changed.
pub fn write_lane_change(
    line: &mut String,
    name: &str,
    new: &[u32],
    old: &[u32],
    active: impl Fn(usize) -> bool,
) {
    use std::fmt::Write as _;
    let lanes = new.len().min(old.len());
    if new[..lanes] == old[..lanes] {
        return;
    }
    let changed = |l: usize| new[l] != old[l];
    let shown = |l: usize| active(l) || changed(l);
    let mut first: Option<u32> = None;
    let uniform = (0..lanes)
        .filter(|&l| shown(l))
        .all(|l| *first.get_or_insert(new[l]) == new[l]);
    let only_active = (0..lanes).all(|l| !changed(l) || active(l));
    if let (true, true, Some(v)) = (uniform, only_active, first) {
        let _ = writeln!(line, "    {name} = {v:#010x} (all active lanes)");
        return;
    }
    let _ = write!(line, "    {name}:");
    let mut l = 0;
    while l < lanes {
        if !shown(l) {
            l += 1;
            continue;
        }
        let mut end = l;
        while end + 1 < lanes && shown(end + 1) && new[end + 1] == new[l] {
            end += 1;
        }
        if end == l {
            let _ = write!(line, " [{l}]={:#010x}", new[l]);
        } else {
            let _ = write!(line, " [{l}-{end}]={:#010x}", new[l]);
        }
        l = end + 1;
    }
    line.push('\n');
}

/// One span of a timeline: what a wave did from `start` for `dur` ticks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TimelineSpan {
    pub workgroup: [u32; 3],
    pub wave: u32,
    pub name: String,
    pub cat: &'static str,
    pub start: u64,
    pub dur: u64,
    pub pc: u64,
}

/// `spans` in Chrome's trace event format (what `chrome://tracing` and Perfetto open): one
/// process per workgroup named `title wg (x,y,z)`, one track per wave, one complete event
/// (`"ph": "X"`) per span. `unit` says what a tick is.
pub fn chrome_trace_json(spans: &[TimelineSpan], title: &str, unit: &str) -> String {
    use std::collections::BTreeMap;
    use std::fmt::Write as _;
    fn esc(s: &str) -> String {
        let mut o = String::with_capacity(s.len());
        for c in s.chars() {
            match c {
                '"' => o.push_str("\\\""),
                '\\' => o.push_str("\\\\"),
                c if (c as u32) < 0x20 => {
                    let _ = write!(o, "\\u{:04x}", c as u32);
                }
                c => o.push(c),
            }
        }
        o
    }
    let mut pids: BTreeMap<[u32; 3], usize> = BTreeMap::new();
    let mut tids: BTreeMap<([u32; 3], u32), ()> = BTreeMap::new();
    for s in spans {
        let n = pids.len();
        pids.entry(s.workgroup).or_insert(n);
        tids.insert((s.workgroup, s.wave), ());
    }
    let mut ev: Vec<String> = Vec::with_capacity(spans.len() + 2 * pids.len());
    for (wg, pid) in &pids {
        ev.push(format!(
            "{{\"name\": \"process_name\", \"ph\": \"M\", \"pid\": {pid}, \"tid\": 0, \"args\": {{\"name\": \"{} wg ({},{},{})\"}}}}",
            esc(title),
            wg[0],
            wg[1],
            wg[2]
        ));
    }
    for (wg, wave) in tids.keys() {
        ev.push(format!(
            "{{\"name\": \"thread_name\", \"ph\": \"M\", \"pid\": {}, \"tid\": {wave}, \"args\": {{\"name\": \"wave {wave}\"}}}}",
            pids[wg]
        ));
    }
    for s in spans {
        ev.push(format!(
            "{{\"name\": \"{}\", \"cat\": \"{}\", \"ph\": \"X\", \"ts\": {}, \"dur\": {}, \"pid\": {}, \"tid\": {}, \"args\": {{\"pc\": \"{:#x}\"}}}}",
            esc(&s.name),
            esc(s.cat),
            s.start,
            s.dur,
            pids[&s.workgroup],
            s.wave,
            s.pc
        ));
    }
    format!(
        "{{\"traceEvents\": [\n{}\n], \"displayTimeUnit\": \"ns\", \"otherData\": {{\"generator\": \"wavesim\", \"time_unit\": \"{}\"}}}}\n",
        ev.join(",\n"),
        esc(unit)
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn filter_parses_and_combines() {
        let f = TraceFilter::parse("wg=1,2,3").unwrap();
        assert_eq!(f.workgroup, Some([1, 2, 3]));
        assert_eq!(f.wave, None);
        let f = TraceFilter::parse("wg=4").unwrap();
        assert_eq!(f.workgroup, Some([4, 0, 0]));
        let f = TraceFilter::parse("wave=2").unwrap();
        assert_eq!((f.workgroup, f.wave), (None, Some(2)));
        let f = TraceFilter::parse("wg=1,0,wave=3").unwrap();
        assert_eq!((f.workgroup, f.wave), (Some([1, 0, 0]), Some(3)));
        assert!(f.matches([1, 0, 0], 3));
        assert!(!f.matches([1, 0, 0], 2));
        assert!(!f.matches([0, 0, 0], 3));
        for bad in ["", "wg=", "wg=1,2,3,4", "wave=1,2", "x=1", "wave=-1", "1"] {
            assert!(TraceFilter::parse(bad).is_err(), "{bad}");
        }
        let a = TraceFilter::parse("wave=1").unwrap();
        let b = TraceFilter::parse("wg=2").unwrap();
        assert_eq!(
            a.and(b),
            Some(TraceFilter {
                workgroup: Some([2, 0, 0]),
                wave: Some(1)
            })
        );
        assert_eq!(a.and(TraceFilter::parse("wave=2").unwrap()), None);
    }

    /// The first instruction stops, then breakpoints (instruction starts only) and steps; a
    /// released rule never stops.
    #[test]
    fn stop_rule_stops_at_start_breaks_and_steps() {
        let mut r = StopRule::new([0, 4, 8, 16].into_iter().collect());
        assert!(!r.break_at(6));
        assert!(r.break_at(8));
        assert_eq!(r.stop_at(0), Some("start"));
        assert_eq!(r.stop_at(4), None);
        assert_eq!(r.stop_at(8), Some("break"));
        r.step();
        assert_eq!(r.stop_at(16), Some("step"));
        assert_eq!(r.stop_at(4), None);
        r.clear_break(8);
        assert_eq!(r.stop_at(8), None);
        assert!(r.break_at(4));
        r.release();
        assert!(r.released());
        assert_eq!(r.stop_at(4), None);
    }

    #[test]
    fn numbered_spaces_are_interned() {
        let a = numbered_space("cb", 3);
        assert_eq!(a, "cb3");
        assert!(std::ptr::eq(a, numbered_space("cb", 3)));
        assert_eq!(numbered_space("vb", 160), "vb160");
    }

    /// Accesses are grouped by kind, space and size, lanes in order, values as wide as the access.
    #[test]
    fn accesses_print_grouped() {
        let a = |kind, space, lane, addr, size, value| MemAccess {
            kind,
            space,
            lane,
            addr,
            size,
            value,
        };
        let mut line = String::new();
        write_accesses(
            &mut line,
            &[
                a(AccessKind::Load, "device", 0, 0x1000, 4, 0x3f80_0000),
                a(AccessKind::Store, "threadgroup", 1, 8, 2, 0xab),
                a(AccessKind::Load, "device", 1, 0x1004, 4, 2),
            ],
        );
        assert_eq!(
            line,
            "    device load 4B: [0] 0x1000=0x3f800000 [1] 0x1004=0x00000002\n    threadgroup store 2B: [1] 0x8=0x00ab\n"
        );
    }

    /// Lane changes: active lanes and changed lanes shown, equal neighbours as a range.
    #[test]
    fn lane_changes_print_ranges() {
        let mut line = String::new();
        write_lane_change(&mut line, "T1.x", &[5, 5, 7, 0], &[0, 0, 0, 0], |l| l < 3);
        assert_eq!(line, "    T1.x: [0-1]=0x00000005 [2]=0x00000007\n");
        line.clear();
        write_lane_change(&mut line, "r2", &[9, 9, 0], &[1, 1, 0], |l| l < 2);
        assert_eq!(line, "    r2 = 0x00000009 (all active lanes)\n");
        line.clear();
        write_lane_change(&mut line, "r2", &[1], &[1], |_| true);
        assert!(line.is_empty());
    }

    /// The timeline is JSON with a process per workgroup and escaped names.
    #[test]
    fn timeline_json_escapes_names() {
        let s = TimelineSpan {
            workgroup: [1, 0, 0],
            wave: 0,
            name: "say \"hi\"".into(),
            cat: "alu",
            start: 3,
            dur: 2,
            pc: 8,
        };
        let j = chrome_trace_json(&[s], "k", "1 us = 1 step");
        assert!(j.contains("\"name\": \"say \\\"hi\\\"\""), "{j}");
        assert!(j.contains("\"ts\": 3, \"dur\": 2"), "{j}");
        assert!(j.contains("k wg (1,0,0)"), "{j}");
    }
}
