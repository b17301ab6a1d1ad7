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
}
