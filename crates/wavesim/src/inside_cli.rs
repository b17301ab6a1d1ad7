//! `wavesim run --check ... --timeline FILE.json --stats`: runs the dispatch with the issue
//! model and checkers of `wavesim_rdna3::inside` as its observer, then prints the findings on
//! stderr, writes the timeline and prints the issue statistics. Kept apart from `main.rs`'s
//! argument handling so the two evolve separately.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use wavesim::inside::{check_padding, timeline, Checks, Inside, InsideConfig};
use wavesim::Module;

/// Set when a check found something: `main` then exits with code 3 (after the outputs were
/// written).
static FINDINGS: AtomicBool = AtomicBool::new(false);

/// Exit code of a run whose checks found something.
pub const FINDINGS_EXIT_CODE: u8 = 3;

pub fn had_findings() -> bool {
    FINDINGS.load(Ordering::Relaxed)
}

/// What the user asked to see inside the run.
#[derive(Clone, Debug, Default)]
pub struct InsideOptions {
    pub checks: Option<Checks>,
    pub timeline: Option<PathBuf>,
    pub stats: bool,
}

impl InsideOptions {
    /// True if the run needs the observer.
    pub fn wanted(&self) -> bool {
        self.checks.is_some() || self.timeline.is_some() || self.stats
    }

    /// The observer for `kernel` of `module`: its cycle model in the kernel's CU or WGP mode
    /// (the descriptor's COMPUTE_PGM_RSRC1.WGP_MODE).
    pub fn observer(&self, module: &Module, kernel: &str) -> Inside {
        Inside::new(InsideConfig {
            checks: self.checks.unwrap_or_default(),
            timeline: self.timeline.is_some(),
            wgp_mode: module
                .kernel(kernel)
                .map_or(true, |k| k.descriptor.wgp_mode()),
            ..Default::default()
        })
    }

    /// After the dispatch (its outputs already written): findings on stderr, the timeline
    /// file, the statistics text to append to `--stats`.
    pub fn finish(&self, mut obs: Inside, module: &Module, kernel: &str) -> Result<String, String> {
        obs.finish();
        if self.checks.is_some_and(|c| c.hazards) {
            if let Some(f) = check_padding(module.program()) {
                obs.add_finding(f);
            }
        }
        if let Some(path) = &self.timeline {
            let json = timeline::chrome_trace(obs.spans(), kernel);
            let text = serde_json_to_string(&json);
            std::fs::write(path, text)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        }
        if self.checks.is_some() {
            for f in obs.findings() {
                eprintln!("wavesim: {f}");
            }
            let n = obs.finding_count();
            if n > obs.findings().len() as u64 {
                eprintln!(
                    "wavesim: ... {} more findings not shown",
                    n - obs.findings().len() as u64
                );
            }
            if n > 0 {
                eprintln!("wavesim: {n} findings");
                FINDINGS.store(true, Ordering::Relaxed);
            }
        }
        Ok(if self.stats {
            obs.stats().to_text()
        } else {
            String::new()
        })
    }
}

fn serde_json_to_string(v: &wavesim::inside::timeline::Json) -> String {
    v.to_string()
}

// ---- R700 and AGX: the same flags through their back ends' observers ----

use std::io::{BufWriter, Write};
use wavesim::TraceFilter;

/// `--trace` and its options.
#[derive(Clone, Debug)]
pub struct TraceOptions {
    pub out: Option<PathBuf>,
    pub filter: TraceFilter,
    pub limit: u64,
}

/// What `wavesim run` asked to see, before it is known which ISA runs.
#[derive(Clone, Debug, Default)]
pub struct See {
    pub trace: Option<TraceOptions>,
    pub stats: bool,
    /// The `--check` list as given (each ISA has its own checks).
    pub check: Option<String>,
    pub timeline: Option<PathBuf>,
}

fn trace_writer(t: &TraceOptions) -> Result<Box<dyn Write>, String> {
    Ok(match &t.out {
        Some(p) => Box::new(BufWriter::new(
            std::fs::File::create(p).map_err(|e| format!("cannot create {}: {e}", p.display()))?,
        )),
        None => Box::new(BufWriter::new(std::io::stdout())),
    })
}

/// The trace's end: a reader that went away (`| head`) is not an error.
fn trace_done(t: &TraceOptions, written: std::io::Result<Box<dyn Write>>) -> Result<(), String> {
    match written {
        Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
            let to = t
                .out
                .as_ref()
                .map_or("standard output".into(), |p| p.display().to_string());
            Err(format!("cannot write the trace to {to}: {e}"))
        }
        _ => Ok(()),
    }
}

fn report_findings(found: &[String]) {
    for f in found {
        eprintln!("wavesim: {f}");
    }
    if !found.is_empty() {
        eprintln!("wavesim: {} findings", found.len());
        FINDINGS.store(true, Ordering::Relaxed);
    }
}

fn write_file(path: &std::path::Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

/// `wavesim run SHADER.o --config RUN.toml [--trace ...] [--stats] [--check LIST] [--timeline F]`:
/// runs the R700 shader with the observers asked for; returns the text to print after the
/// exports (`--stats`).
/// Why an R700 or AGX command failed: a configuration the run cannot take as given (TOML that
/// does not parse, a value outside its range, kernel arguments that do not fit: exit 2, like a bad
/// RDNA3 `--arg`), or a run that failed (exit 1).
#[derive(Debug)]
pub struct CliError {
    pub usage: bool,
    pub msg: String,
}

impl From<String> for CliError {
    fn from(msg: String) -> CliError {
        CliError { usage: false, msg }
    }
}

impl From<&str> for CliError {
    fn from(msg: &str) -> CliError {
        msg.to_string().into()
    }
}

/// A configuration error (exit 2).
pub fn config_error(msg: impl Into<String>) -> CliError {
    CliError {
        usage: true,
        msg: msg.into(),
    }
}

/// An R700 run's error: its configuration's (exit 2) or the run's (exit 1).
pub fn r700_error(e: wavesim::r700::runner::RunError) -> CliError {
    CliError {
        usage: matches!(e, wavesim::r700::runner::RunError::Config(_)),
        msg: e.to_string(),
    }
}

/// An AGX job's error: its configuration's or arguments' (exit 2) or the run's (exit 1).
pub fn agx_error(e: wavesim::agx::runner::RunError) -> CliError {
    use wavesim::agx::runner::RunError as E;
    CliError {
        usage: matches!(e, E::Config(_) | E::Argument { .. }),
        msg: e.to_string(),
    }
}

pub fn run_r700(
    shader: &wavesim::r700::Shader,
    cfg: &wavesim::r700::runner::RunConfig,
    see: &See,
) -> Result<(wavesim::r700::runner::RunResult, String), CliError> {
    use wavesim::r700::inside::{check, Inside, Stats, Timeline, Tracer};
    let checks =
        (see.check.as_deref().map(check::Checks::parse).transpose()).map_err(config_error)?;
    let tracer = match &see.trace {
        Some(t) => Some(Tracer::new(trace_writer(t)?, t.filter, t.limit)),
        None => None,
    };
    let mut obs = Inside {
        tracer,
        stats: see.stats.then(Stats::default),
        timeline: see.timeline.as_ref().map(|_| Timeline::default()),
    };
    let run = if obs.tracer.is_some() || obs.stats.is_some() || obs.timeline.is_some() {
        let run = wavesim::r700::runner::run_observed(shader, cfg, &mut obs);
        if let (Some(t), Some(tr)) = (&see.trace, obs.tracer.take()) {
            trace_done(t, tr.finish())?;
        }
        run
    } else {
        wavesim::r700::runner::run(shader, cfg)
    }
    .map_err(r700_error)?;
    if let (Some(path), Some(tl)) = (&see.timeline, &obs.timeline) {
        let title = shader.entry.as_deref().unwrap_or("r700");
        write_file(
            path,
            &wavesim_core::observe::chrome_trace_json(&tl.spans, title, "1 us = 1 step"),
        )?;
    }
    if let Some(c) = checks {
        let found = wavesim::r700::runner::check(shader, cfg, c).map_err(r700_error)?;
        report_findings(&found.iter().map(|f| f.to_string()).collect::<Vec<_>>());
    }
    Ok((run, obs.stats.map(|s| s.to_text()).unwrap_or_default()))
}

/// The AGX checks `--check` takes.
const AGX_CHECKS: &str = "init, uniforms, barriers, races (or all)";

/// The AGX checks asked for.
#[derive(Clone, Copy, Debug, Default)]
pub struct AgxChecks {
    pub init: bool,
    pub uniforms: bool,
    pub barriers: bool,
    pub races: bool,
}

/// `--check LIST` for AGX.
pub fn agx_checks(list: Option<&str>) -> Result<AgxChecks, String> {
    let mut c = AgxChecks::default();
    for p in list.into_iter().flat_map(|l| l.split(',')).map(str::trim) {
        match p {
            "all" => {
                c = AgxChecks {
                    init: true,
                    uniforms: true,
                    barriers: true,
                    races: true,
                }
            }
            "init" => c.init = true,
            "uniforms" => c.uniforms = true,
            "barriers" => c.barriers = true,
            "races" => c.races = true,
            _ => return Err(format!("AGX check `{p}`: the AGX checks are {AGX_CHECKS}")),
        }
    }
    Ok(c)
}

/// `wavesim run --target agx --config JOB.toml [...]` with the observers asked for; returns the
/// text to print after the job's outputs (`--stats`).
pub fn run_agx(
    cfg: &wavesim::agx::runner::RunConfig,
    dir: &std::path::Path,
    code: Option<&[u8]>,
    see: &See,
) -> Result<(wavesim::agx::runner::RunResult, String), CliError> {
    use wavesim::agx::inside::{
        BarrierCheck, Inside, RaceCheck, Stats, Timeline, Tracer, UniformCheck,
    };
    let AgxChecks {
        init,
        uniforms,
        barriers,
        races,
    } = agx_checks(see.check.as_deref()).map_err(config_error)?;
    use wavesim::agx::runner::Kind;
    let graphics = matches!(cfg.kind, Kind::Vertex | Kind::Fragment);
    let tracer = match &see.trace {
        Some(t) => Some(Tracer::new(trace_writer(t)?, t.filter, t.limit)),
        None => None,
    };
    let mut obs = Inside {
        tracer,
        stats: see.stats.then(Stats::default),
        timeline: see.timeline.as_ref().map(|_| Timeline::default()),
        // `all` on a vertex or fragment job: the checks that apply (`main` refused a named
        // `uniforms` there).
        uniforms: (uniforms && !graphics).then(UniformCheck::new),
        barriers: barriers.then(BarrierCheck::default),
        races: races.then(RaceCheck::default),
    };
    let run = wavesim::agx::runner::run_observed_in_dir(cfg, dir, code, &mut obs, init);
    if let (Some(t), Some(tr)) = (&see.trace, obs.tracer.take()) {
        trace_done(t, tr.finish())?;
    }
    let run = match run {
        // --check init: a read of a register nothing wrote is the check's finding.
        Err(e) if init && e.to_string().contains("undefined (poisoned)") => {
            report_findings(&[format!("UninitRegister: {e}")]);
            return Err(
                "the run stopped at the read of an uninitialised register (--check init)".into(),
            );
        }
        r => r.map_err(agx_error)?,
    };
    if let (Some(path), Some(tl)) = (&see.timeline, &obs.timeline) {
        write_file(
            path,
            &wavesim_core::observe::chrome_trace_json(&tl.spans, "agx", "1 us = 1 instruction"),
        )?;
    }
    let found: Vec<String> = (obs.uniforms.iter().flat_map(|u| &u.findings))
        .chain(obs.barriers.iter().flat_map(|b| &b.findings))
        .chain(obs.races.iter().flat_map(|b| &b.findings))
        .map(|f| f.to_string())
        .collect();
    report_findings(&found);
    Ok((run, obs.stats.map(|s| s.to_text()).unwrap_or_default()))
}
