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
