//! Seeing inside AGX runs of the corpus's jobs (corpus/agx/examples): the trace, statistics and
//! timeline observers see every instruction; the checks run clean; vertex and fragment jobs
//! refuse observers (their ABI parts run outside the engine's observer path).

use std::path::{Path, PathBuf};

use wavesim_agx::inside::{Inside, Stats, Timeline, Tracer, UniformCheck};
use wavesim_agx::runner::{run_in_dir, run_observed_in_dir, RunConfig};
use wavesim_core::observe::{NoObserver, TraceFilter};

fn examples() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/agx/examples")
}

fn job(name: &str) -> RunConfig {
    RunConfig::from_toml(&std::fs::read_to_string(examples().join(name)).unwrap()).unwrap()
}

fn all() -> Inside<Vec<u8>> {
    Inside {
        tracer: Some(Tracer::new(Vec::new(), TraceFilter::default(), u64::MAX)),
        stats: Some(Stats::default()),
        timeline: Some(Timeline::default()),
        uniforms: Some(UniformCheck::new()),
    }
}

#[test]
fn compute_and_grid_kernel_jobs_are_seen_whole_and_run_clean() {
    for name in ["collatz_kernel.toml", "saxpy_grid_kernel.toml"] {
        let cfg = job(name);
        let dir: &Path = &examples();
        let plain = run_in_dir(&cfg, dir, None).unwrap();
        let mut obs = all();
        let seen = run_observed_in_dir(&cfg, dir, None, &mut obs, true).unwrap();
        assert_eq!(plain.text, seen.text, "{name}: observing changes nothing");
        let stats = obs.stats.unwrap();
        // "# N SIMD groups, M instructions" is the engine's count.
        let m: u64 = plain
            .text
            .lines()
            .find_map(|l| l.strip_prefix("# ").and_then(|l| l.split(", ").nth(1)))
            .and_then(|s| s.trim_end_matches(" instructions").parse().ok())
            .unwrap();
        assert_eq!(stats.simd_instructions, m, "{name}");
        assert_eq!(stats.by_kind.values().sum::<u64>(), m);
        let tracer = obs.tracer.unwrap();
        assert_eq!(tracer.traced(), m);
        let text = String::from_utf8(tracer.finish().unwrap()).unwrap();
        assert_eq!(
            text.lines().filter(|l| l.starts_with("wg (")).count() as u64,
            m
        );
        assert!(text.contains("EXEC=0x"), "{name}");
        assert!(
            text.lines().any(|l| l.starts_with("    r")),
            "{name}: register changes"
        );
        assert_eq!(obs.timeline.unwrap().spans.len() as u64, m);
        let u = obs.uniforms.unwrap();
        assert!(u.findings.is_empty(), "{name}: {:?}", u.findings);
    }
}

/// collatz's threads leave the loop at different counts: the exec mask diverges.
#[test]
fn divergence_is_counted() {
    let mut obs = all();
    run_observed_in_dir(
        &job("collatz_kernel.toml"),
        &examples(),
        None,
        &mut obs,
        false,
    )
    .unwrap();
    let s = obs.stats.unwrap();
    assert!(s.divergent > 0 && s.exec_changes > 0, "{s:?}");
    assert!(s.thread_instructions < 32 * s.simd_instructions);
}

/// A uniform the job did not set is a finding (u0 is set, u4 is not), one per instruction and
/// register however many groups run it.
#[test]
fn an_unset_uniform_is_found() {
    let asm = "mov_imm r1, 0\niadd r2, u4, r1\nstop\n";
    let cfg = RunConfig::from_toml(&format!(
        "kind = \"compute\"\nasm = \"\"\"\n{asm}\"\"\"\n[[uniform]]\nslot = 0\nu32 = 7\n[compute]\ngrid = [1, 1, 1]\nlocal = [32, 1, 1]\n"
    ))
    .unwrap();
    let mut obs = all();
    run_observed_in_dir(&cfg, Path::new("."), None, &mut obs, false).unwrap();
    let f = obs.uniforms.unwrap().findings;
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(f[0].msg.contains("u4"), "{f:?}");
}

/// Reading a register nothing wrote stops with the poison error under check_init, and runs
/// (reading wavesim's zero) without it.
#[test]
fn an_uninitialised_register_is_found() {
    let cfg = RunConfig::from_toml(
        "kind = \"compute\"\nasm = \"\"\"\nmov_imm r1, 0\niadd r2, r3, r1\nstop\n\"\"\"\n[compute]\ngrid = [1, 1, 1]\nlocal = [32, 1, 1]\n",
    )
    .unwrap();
    run_observed_in_dir(&cfg, Path::new("."), None, &mut NoObserver, false).unwrap();
    let e = run_observed_in_dir(&cfg, Path::new("."), None, &mut NoObserver, true).unwrap_err();
    assert!(e.to_string().contains("r3"), "{e}");
    assert!(e.to_string().contains("undefined (poisoned)"), "{e}");
}

#[test]
fn vertex_and_fragment_jobs_refuse_observers() {
    for name in ["attributes_vertex.toml", "gradient_fragment.toml"] {
        let mut obs = all();
        let e = run_observed_in_dir(&job(name), &examples(), None, &mut obs, false).unwrap_err();
        assert!(e.to_string().contains("compute"), "{name}: {e}");
    }
}
