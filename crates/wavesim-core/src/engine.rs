//! The engine: everything above one wave that does not depend on the ISA.
//!
//! A back end (RDNA3, R700, AGX) implements [`Backend`]: it creates and initialises waves and the
//! state a workgroup's waves share (LDS), runs one wave until it blocks, finishes or faults, and
//! describes a PC for error messages. [`run`] does the rest, the same for every ISA:
//!
//! - workgroups in x-fastest order, on one thread or on a rayon pool of `threads` workers, each
//!   worker reusing its waves and group state;
//! - inside a workgroup the waves take turns (round robin) for at most [`Backend::quantum`]
//!   instructions or until they reach a barrier or end, so a wave that spins on a flag another
//!   wave sets still makes progress; a barrier completes when every wave that has not ended waits
//!   at it (a wave that ended counts as arrived; the RDNA3 ISA guide (Shader Concepts), "Workgroups");
//! - the watchdog (most instructions one wave may run) and barrier-deadlock detection;
//! - [`DispatchStats`] and errors with their [`Location`];
//! - an enabled observer runs the workgroups in order on the calling thread, so what it sees is
//!   the deterministic order of a one-thread run.
//!
//! With `threads > 1`, race-free kernels give the same results, and the error reported is always
//! the one of the lowest-numbered failing workgroup.

use crate::error::{DispatchError, Location};
use crate::grid::Geometry;
use crate::memory::DeviceMemory;
use crate::observe::{NoObserver, Observer};
use crate::stats::DispatchStats;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Instant;

/// Default turn length: instructions a wave runs before the next wave of its workgroup.
pub const QUANTUM: u64 = 4096;

/// How a wave's turn ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    /// The wave reached a barrier and waits for the rest of its workgroup.
    Barrier,
    /// The wave ended (it never runs again).
    End,
    /// The turn's instruction budget ran out.
    Quantum,
}

/// Which wave of the dispatch a [`Backend::start_wave`] call sets up.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaveSlot {
    pub workgroup: [u32; 3],
    /// Index of the wave in its workgroup.
    pub index: u32,
    /// Waves in this workgroup.
    pub count: u32,
    /// The worker (host thread) running the workgroup, `0..worker_slots(..)`: the index of
    /// per-worker resources such as a scratch area.
    pub worker: u64,
}

/// An ISA back end, prepared for one dispatch (the program decoded, the launch parameters
/// known). Methods take `&self`: the back end is shared by the workers.
pub trait Backend: Sync {
    /// The programmer-visible state of one wave.
    type Wave: Send;
    /// A decoded instruction (what observers see).
    type Inst;
    /// The state the waves of one workgroup share (LDS, ...), reused across workgroups.
    type Group: Send;
    /// What one instruction can do wrong.
    type Error: Clone + Send;

    /// The program's end and barrier instructions, named in watchdog and deadlock messages.
    const END: &'static str;
    const BARRIER: &'static str;

    fn geometry(&self) -> &Geometry;
    /// Work-items per wave.
    fn lanes(&self) -> u32;
    /// Host threads for workgroups (1 = in order on the calling thread).
    fn threads(&self) -> usize;
    /// Watchdog: most instructions one wave may execute.
    fn max_wave_insts(&self) -> u64;
    /// Turn length (see the module documentation).
    fn quantum(&self) -> u64 {
        QUANTUM
    }
    /// Checks the launch before anything runs (the geometry is checked by [`run`]).
    fn check(&self) -> Result<(), DispatchError<Self::Error>> {
        Ok(())
    }

    fn new_wave(&self) -> Self::Wave;
    fn new_group(&self) -> Self::Group;
    /// Prepares `group` for workgroup `wg` of `waves` waves.
    fn start_group(&self, group: &mut Self::Group, wg: [u32; 3], waves: u32);
    /// Sets up `w` with its initial state; `w` may hold a previous wave's state.
    fn start_wave(&self, w: &mut Self::Wave, at: WaveSlot);
    /// Runs `w` for at most `budget` instructions. An error comes with the PC of the
    /// instruction that raised it.
    fn run_wave<O: Observer<Self::Wave, Self::Inst> + ?Sized>(
        &self,
        w: &mut Self::Wave,
        group: &mut Self::Group,
        mem: &DeviceMemory,
        budget: u64,
        obs: &mut O,
    ) -> Result<Stop, (Self::Error, u64)>;
    /// Starts `waves[k]` as wave `at.index + k` of its workgroup ([`Backend::start_wave`]) and
    /// runs its first turn ([`Backend::run_wave`] with the budget `quantum` and the watchdog
    /// `limit` leave it), for k = 0, 1, ... in order, stopping after the first wave whose turn
    /// does not end it (or fails) or after the last. Returns that wave's `k` and its turn's
    /// result; the waves before it ended. The default does exactly that; a back end may run
    /// such waves with less work per wave, with the same states, counts and errors.
    ///
    /// `waves[k]` for k < `reused` holds a wave that this back end started earlier in the same
    /// dispatch and that only its own calls have touched since (the engine's worker waves): a
    /// back end may then start it by undoing only what its code can have changed.
    #[allow(clippy::too_many_arguments)]
    fn first_turns<O: Observer<Self::Wave, Self::Inst> + ?Sized>(
        &self,
        waves: &mut [Self::Wave],
        at: WaveSlot,
        reused: usize,
        group: &mut Self::Group,
        mem: &DeviceMemory,
        quantum: u64,
        limit: u64,
        obs: &mut O,
    ) -> (usize, Result<Stop, (Self::Error, u64)>) {
        let _ = reused;
        let last = waves.len().saturating_sub(1);
        for (k, w) in waves.iter_mut().enumerate() {
            self.start_wave(
                w,
                WaveSlot {
                    index: at.index + k as u32,
                    ..at
                },
            );
            let budget = quantum.min(limit.saturating_sub(self.wave_insts(w)));
            let r = self.run_wave(w, group, mem, budget, obs);
            if k == last || !matches!(r, Ok(Stop::End)) {
                return (k, r);
            }
        }
        // No waves: nothing ran.
        (0, Ok(Stop::End))
    }
    /// Instructions `w` has executed since it started, per wave and per active lane.
    fn wave_insts(&self, w: &Self::Wave) -> u64;
    fn lane_insts(&self, w: &Self::Wave) -> u64;
    /// The wave's current PC (for watchdog and deadlock messages).
    fn pc(&self, w: &Self::Wave) -> u64;
    /// Where `w` is when it is at `pc`: kernel, workgroup, wave, displayed PC, instruction text.
    fn location(&self, w: &Self::Wave, pc: u64) -> Location;
    /// Called when a workgroup stops, finished or failed, with its waves and group state (a
    /// harness can take them back here). The default does nothing.
    fn retire(&self, waves: &mut [Self::Wave], group: &mut Self::Group) {
        let _ = (waves, group);
    }
}

/// Per-worker resources in use at the same time: one per host thread that may run a
/// workgroup (a worker runs one workgroup at a time).
/// `threads` is what the launch asks for; the engine runs on
/// [`crate::limits::host_threads`] of them (at most one per workgroup and
/// [`crate::limits::MAX_HOST_THREADS`]).
pub fn worker_slots(geo: &Geometry, threads: usize) -> u64 {
    crate::limits::host_threads(threads, geo.total_workgroups()) as u64
}

/// Reusable per-worker state: waves and the group state.
struct Worker<B: Backend> {
    waves: Vec<B::Wave>,
    /// `waves[..started]` have been started by an earlier workgroup of this dispatch (the
    /// worker lives for one dispatch; `Backend::first_turns`'s `reused`).
    started: usize,
    group: B::Group,
    at_barrier: Vec<bool>,
    ended: Vec<bool>,
}

impl<B: Backend> Worker<B> {
    fn new(b: &B) -> Worker<B> {
        Worker {
            waves: Vec::new(),
            started: 0,
            group: b.new_group(),
            at_barrier: Vec::new(),
            ended: Vec::new(),
        }
    }
}

/// Counts of one finished workgroup.
#[derive(Default)]
struct GroupCounts {
    wave_insts: u64,
    lane_insts: u64,
    waves: u64,
}

fn run_workgroup<B: Backend, O: Observer<B::Wave, B::Inst> + ?Sized>(
    b: &B,
    mem: &DeviceMemory,
    wg: [u32; 3],
    worker: u64,
    wk: &mut Worker<B>,
    obs: &mut O,
) -> Result<GroupCounts, DispatchError<B::Error>> {
    let items = b.geometry().items_in(wg);
    let n_items = items[0] * items[1] * items[2];
    let n_waves = n_items.div_ceil(b.lanes()) as usize;
    while wk.waves.len() < n_waves {
        wk.waves.push(b.new_wave());
    }
    b.start_group(&mut wk.group, wg, n_waves as u32);
    wk.at_barrier.clear();
    wk.at_barrier.resize(n_waves, false);
    wk.ended.clear();
    wk.ended.resize(n_waves, false);
    let start = Starts {
        wg,
        worker,
        count: n_waves as u32,
        reused: wk.started,
    };
    let r = turns(b, mem, wk, n_waves, start, obs);
    // Every wave of the workgroup is started by now, also after an error (`turns`).
    wk.started = wk.started.max(n_waves);
    b.retire(&mut wk.waves[..n_waves], &mut wk.group);
    r
}

/// Where the waves of one workgroup start ([`Backend::start_wave`]).
#[derive(Clone, Copy)]
struct Starts {
    wg: [u32; 3],
    worker: u64,
    count: u32,
    /// The worker's waves below this index were started by an earlier workgroup.
    reused: usize,
}

impl Starts {
    fn slot(&self, index: usize) -> WaveSlot {
        WaveSlot {
            workgroup: self.wg,
            index: index as u32,
            count: self.count,
            worker: self.worker,
        }
    }

    fn start<B: Backend>(&self, b: &B, w: &mut B::Wave, index: usize) {
        b.start_wave(w, self.slot(index));
    }
}

/// The waves of one workgroup take turns until all have ended. Each wave is started
/// ([`Backend::start_wave`]) right before its first turn, so its state is fresh in the cache
/// when it runs; starting touches nothing but the wave, so this is the same as starting all
/// of them first. After an error the waves that had not started yet are started, so
/// [`Backend::retire`] sees every wave of the workgroup started as before.
fn turns<B: Backend, O: Observer<B::Wave, B::Inst> + ?Sized>(
    b: &B,
    mem: &DeviceMemory,
    wk: &mut Worker<B>,
    n_waves: usize,
    start: Starts,
    obs: &mut O,
) -> Result<GroupCounts, DispatchError<B::Error>> {
    let waves = &mut wk.waves[..n_waves];
    let mut started = 0usize;
    let r = take_turns(
        b,
        mem,
        waves,
        &mut wk.group,
        &mut wk.at_barrier[..],
        &mut wk.ended[..],
        &mut started,
        start,
        obs,
    );
    if r.is_err() {
        for (i, w) in waves.iter_mut().enumerate().skip(started) {
            start.start(b, w, i);
        }
    }
    r
}

#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn take_turns<B: Backend, O: Observer<B::Wave, B::Inst> + ?Sized>(
    b: &B,
    mem: &DeviceMemory,
    waves: &mut [B::Wave],
    group: &mut B::Group,
    at_barrier: &mut [bool],
    ended: &mut [bool],
    started: &mut usize,
    start: Starts,
    obs: &mut O,
) -> Result<GroupCounts, DispatchError<B::Error>> {
    let n_waves = waves.len();
    let limit = b.max_wave_insts();
    let mut live = n_waves;
    let mut c = GroupCounts {
        waves: n_waves as u64,
        ..Default::default()
    };
    // A single wave never waits: its barriers complete at once (RDNA3 ISA guide, Shader Concepts: a one-wave workgroup
    // treats s_barrier as s_nop), so it runs without turns.
    let quantum = if n_waves == 1 { u64::MAX } else { b.quantum() };
    // Waves waiting at the barrier.
    let mut waiting = 0usize;
    while live > 0 {
        let mut i = 0;
        while i < n_waves {
            let stop = if i == *started {
                // The waves from `i` on start here, in order; the back end runs the first turns
                // of those that end in it in one call (`Backend::first_turns`).
                let (k, r) = b.first_turns(
                    &mut waves[i..],
                    start.slot(i),
                    start.reused.saturating_sub(i),
                    group,
                    mem,
                    quantum,
                    limit,
                    obs,
                );
                for (j, w) in waves.iter().enumerate().skip(i).take(k) {
                    ended[j] = true;
                    live -= 1;
                    c.wave_insts += b.wave_insts(w);
                    c.lane_insts += b.lane_insts(w);
                }
                i += k;
                *started = i + 1;
                r
            } else if ended[i] || at_barrier[i] {
                i += 1;
                continue;
            } else {
                let w = &mut waves[i];
                let budget = quantum.min(limit.saturating_sub(b.wave_insts(w)));
                b.run_wave(w, group, mem, budget, obs)
            };
            let w = &mut waves[i];
            let stop = stop.map_err(|(error, pc)| DispatchError::Exec {
                at: Box::new(b.location(w, pc)),
                error,
            })?;
            i += 1;
            match stop {
                Stop::End => {
                    ended[i - 1] = true;
                    live -= 1;
                    // The wave's counts are final.
                    c.wave_insts += b.wave_insts(w);
                    c.lane_insts += b.lane_insts(w);
                    continue;
                }
                Stop::Barrier if n_waves > 1 => {
                    at_barrier[i - 1] = true;
                    waiting += 1;
                    continue;
                }
                Stop::Barrier | Stop::Quantum => {}
            }
            if b.wave_insts(w) >= limit {
                let at = Box::new(b.location(w, b.pc(w)));
                let waiting: Vec<u32> = (0..n_waves as u32)
                    .filter(|&j| at_barrier[j as usize])
                    .collect();
                return Err(if waiting.is_empty() {
                    DispatchError::Watchdog {
                        at,
                        limit,
                        end: B::END,
                    }
                } else {
                    DispatchError::BarrierDeadlock {
                        at,
                        waiting,
                        limit,
                        barrier: B::BARRIER,
                    }
                });
            }
        }
        // The barrier completes when every wave that has not ended is waiting at it.
        if waiting > 0 && waiting == live {
            at_barrier.iter_mut().for_each(|b| *b = false);
            waiting = 0;
        }
    }
    Ok(c)
}

/// Runs a dispatch to completion with `obs` seeing every instruction. Without an enabled
/// observer, workgroups run on `b.threads()` workers.
pub fn run<B: Backend, O: Observer<B::Wave, B::Inst> + ?Sized>(
    b: &B,
    mem: &DeviceMemory,
    obs: &mut O,
) -> Result<DispatchStats, DispatchError<B::Error>> {
    b.geometry().check()?;
    b.check()?;
    if b.max_wave_insts() == 0 {
        return Err(DispatchError::BadLaunch(
            "the instruction limit is 0".into(),
        ));
    }
    let start = Instant::now();
    let geo = *b.geometry();
    let total = geo.total_workgroups();
    let mut stats = DispatchStats {
        workgroups: total,
        ..Default::default()
    };
    let threads = crate::limits::host_threads(b.threads(), total);
    let progress = Progress::new(total);
    if threads == 1 || total == 1 || obs.enabled() {
        let mut wk = Worker::new(b);
        for i in 0..total {
            let c = run_workgroup(b, mem, geo.workgroup_id(i), 0, &mut wk, obs)?;
            stats.wave_instructions += c.wave_insts;
            stats.lane_instructions += c.lane_insts;
            stats.waves += c.waves;
            progress.inc();
        }
    } else {
        let c = run_parallel(b, mem, threads, total, &progress)?;
        stats.wave_instructions = c.wave_insts;
        stats.lane_instructions = c.lane_insts;
        stats.waves = c.waves;
    }
    stats.elapsed = start.elapsed();
    Ok(stats)
}

/// Workgroups done / total and the rate on stderr, for dispatches of at least
/// [`PROGRESS_MIN_WORKGROUPS`] workgroups when stderr is a terminal (and `WAVESIM_NO_PROGRESS` is
/// not set); otherwise nothing at all (one `None` test per workgroup). indicatif draws at most
/// a few times a second and only once the dispatch has run for a moment.
struct Progress(Option<indicatif::ProgressBar>);

/// Dispatches with fewer workgroups finish too fast to need a bar.
pub const PROGRESS_MIN_WORKGROUPS: u64 = 256;

impl Progress {
    // Out of line: `run` (and the workgroup loop inlined into it) stays as small as without it.
    #[cold]
    #[inline(never)]
    fn new(total: u64) -> Progress {
        use std::io::IsTerminal;
        if total < PROGRESS_MIN_WORKGROUPS
            || !std::io::stderr().is_terminal()
            || std::env::var_os("WAVESIM_NO_PROGRESS").is_some()
        {
            return Progress(None);
        }
        let bar = indicatif::ProgressBar::with_draw_target(
            Some(total),
            indicatif::ProgressDrawTarget::stderr_with_hz(4),
        );
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{elapsed_precise} [{bar:40}] {pos}/{len} workgroups ({per_sec}, eta {eta})",
        ) {
            bar.set_style(style.progress_chars("=> "));
        }
        Progress(Some(bar))
    }

    #[inline]
    fn inc(&self) {
        if let Some(b) = &self.0 {
            tick(b);
        }
    }
}

#[cold]
#[inline(never)]
fn tick(b: &indicatif::ProgressBar) {
    b.inc(1);
}

impl Drop for Progress {
    fn drop(&mut self) {
        if let Some(b) = &self.0 {
            b.finish_and_clear();
        }
    }
}

/// The worker pool of `threads` threads, started on first use and kept for the process: starting
/// threads costs tens of microseconds per dispatch, more than a small kernel runs.
fn pool(threads: usize) -> Result<Arc<rayon::ThreadPool>, rayon::ThreadPoolBuildError> {
    static POOLS: Mutex<Vec<(usize, Arc<rayon::ThreadPool>)>> = Mutex::new(Vec::new());
    let mut pools = POOLS.lock().unwrap_or_else(|p| p.into_inner());
    if let Some((_, p)) = pools.iter().find(|(n, _)| *n == threads) {
        return Ok(p.clone());
    }
    let p = Arc::new(
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("wavesim-worker-{i}"))
            .build()?,
    );
    pools.push((threads, p.clone()));
    Ok(p)
}

/// The thread count [`set_default_threads`] chose (0: none).
static DEFAULT_THREADS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Sets what [`default_threads`] gives from now on, process-wide and over `WAVESIM_THREADS`
/// (1: every dispatch that asks runs its workgroups one after another, in order, on the calling
/// thread); 0 restores the default.
pub fn set_default_threads(threads: usize) {
    DEFAULT_THREADS.store(threads, std::sync::atomic::Ordering::Relaxed);
}

/// The number of host threads dispatches use unless told otherwise: the count
/// [`set_default_threads`] set, else `WAVESIM_THREADS` when set
/// to a positive number, else every core the process may run on. Results do not depend on it for
/// race-free kernels (workgroups are independent; an enabled observer runs them in order).
pub fn default_threads() -> usize {
    match DEFAULT_THREADS.load(std::sync::atomic::Ordering::Relaxed) {
        0 => {}
        n => return n,
    }
    std::env::var("WAVESIM_THREADS")
        .ok()
        .and_then(|v| v.trim().parse::<usize>().ok())
        .filter(|&n| n > 0)
        .unwrap_or_else(|| {
            // Asked once: the answer reads cgroup files, microseconds per call.
            static CORES: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
            *CORES.get_or_init(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        })
}

/// Workgroups on a rayon pool of `threads` workers.
fn run_parallel<B: Backend>(
    b: &B,
    mem: &DeviceMemory,
    threads: usize,
    total: u64,
    progress: &Progress,
) -> Result<GroupCounts, DispatchError<B::Error>> {
    use rayon::prelude::*;
    let pool = pool(threads)
        .map_err(|e| DispatchError::BadLaunch(format!("cannot start {threads} threads: {e}")))?;
    let geo = *b.geometry();
    let slots = worker_slots(&geo, threads);
    let first_err = AtomicUsize::new(usize::MAX);
    let errors: Mutex<Vec<(u64, DispatchError<B::Error>)>> = Mutex::new(Vec::new());
    let (wi, li, nw) = (AtomicU64::new(0), AtomicU64::new(0), AtomicU64::new(0));
    pool.install(|| {
        (0..total).into_par_iter().for_each_init(
            || Worker::new(b),
            |wk, i| {
                // Workgroups after a failed one are skipped; earlier ones still run, so the
                // error reported is the lowest-numbered one, whatever the thread timing.
                if i as usize > first_err.load(Ordering::Relaxed) {
                    return;
                }
                let worker = rayon::current_thread_index().unwrap_or(0) as u64 % slots;
                let wg = geo.workgroup_id(i);
                match run_workgroup(b, mem, wg, worker, wk, &mut NoObserver) {
                    Ok(c) => {
                        wi.fetch_add(c.wave_insts, Ordering::Relaxed);
                        li.fetch_add(c.lane_insts, Ordering::Relaxed);
                        nw.fetch_add(c.waves, Ordering::Relaxed);
                        progress.inc();
                    }
                    Err(e) => {
                        first_err.fetch_min(i as usize, Ordering::Relaxed);
                        if let Ok(mut v) = errors.lock() {
                            v.push((i, e));
                        }
                    }
                }
            },
        )
    });
    let errs = errors.into_inner().unwrap_or_else(|p| p.into_inner());
    if let Some((_, e)) = errs.into_iter().min_by_key(|(i, _)| *i) {
        return Err(e);
    }
    Ok(GroupCounts {
        wave_insts: wi.into_inner(),
        lane_insts: li.into_inner(),
        waves: nw.into_inner(),
    })
}
