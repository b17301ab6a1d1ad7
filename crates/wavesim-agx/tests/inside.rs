//! Seeing inside AGX runs of the corpus's jobs (corpus/agx/examples): the trace, statistics and
//! timeline observers see every instruction of compute, grid-kernel, vertex and fragment jobs
//! (the Mesa 22.3 gallium jobs of corpus/agx/mesa22 too); the checks run clean.

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

/// Vertex and fragment jobs, the split-ABI examples and every Mesa 22.3 gallium job of
/// corpus/agx/mesa22, run under the tracer, statistics, timeline and `check_init` with the same
/// outputs as without; the statistics and the timeline see the same instructions. The uniform
/// check needs the uniforms a job sets, which a vertex or fragment job does not list: refused.
#[test]
fn vertex_and_fragment_jobs_are_seen_whole() {
    let mesa22 = examples().join("../mesa22");
    let mut jobs: Vec<PathBuf> = vec![
        examples().join("attributes_vertex.toml"),
        examples().join("gradient_fragment.toml"),
    ];
    let mut names: Vec<PathBuf> = std::fs::read_dir(&mesa22)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "toml"))
        .collect();
    names.sort();
    assert!(names.len() > 400, "{}", names.len());
    jobs.extend(names);
    let (mut vertex, mut fragment) = (0, 0);
    for path in &jobs {
        let mut cfg = RunConfig::from_toml(&std::fs::read_to_string(path).unwrap()).unwrap();
        // Some shaders use sin_pt_1/2 (mesa_corpus.rs runs them under the opt-in too).
        cfg.approximate = true;
        let dir = path.parent().unwrap();
        let plain = run_in_dir(&cfg, dir, None).unwrap();
        let mut obs = all();
        obs.uniforms = None;
        obs.tracer = Some(Tracer::new(Vec::new(), TraceFilter::default(), 50));
        let seen = run_observed_in_dir(&cfg, dir, None, &mut obs, true)
            .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert_eq!(plain.text, seen.text, "{}", path.display());
        let stats = obs.stats.unwrap();
        assert!(stats.simd_instructions > 0, "{}", path.display());
        assert_eq!(
            obs.timeline.unwrap().spans.len() as u64,
            stats.simd_instructions,
            "{}",
            path.display()
        );
        let trace = String::from_utf8(obs.tracer.unwrap().finish().unwrap()).unwrap();
        assert!(trace.starts_with("wg (0,0,0) w 0  0x"), "{trace}");
        match cfg.kind {
            wavesim_agx::runner::Kind::Vertex => vertex += 1,
            _ => fragment += 1,
        }
        let mut u = Inside {
            tracer: None::<Tracer<Vec<u8>>>,
            stats: None,
            timeline: None,
            uniforms: Some(UniformCheck::new()),
        };
        let e = run_observed_in_dir(&cfg, dir, None, &mut u, false).unwrap_err();
        assert!(e.to_string().contains("uniforms check"), "{e}");
    }
    assert!(vertex > 100 && fragment > 200, "{vertex} {fragment}");
}

/// A split-ABI fragment prolog runs at addresses of its own: observing such a draw is an error.
#[test]
fn a_fragment_prolog_is_not_observed_silently() {
    let mut cfg = job("gradient_fragment.toml");
    if let Some(f) = &mut cfg.fragment {
        f.prolog_asm = Some("stop\n".into());
    }
    run_in_dir(&cfg, &examples(), None).unwrap();
    let e =
        run_observed_in_dir(&cfg, &examples(), None, &mut all_but_uniforms(), false).unwrap_err();
    assert!(e.to_string().contains("prolog"), "{e}");
}

fn all_but_uniforms() -> Inside<Vec<u8>> {
    let mut o = all();
    o.uniforms = None;
    o
}
