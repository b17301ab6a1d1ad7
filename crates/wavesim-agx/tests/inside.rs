//! Seeing inside AGX runs of the corpus's jobs (corpus/agx/examples): the trace, statistics and
//! timeline observers see every instruction of compute, grid-kernel, vertex and fragment jobs
//! (the Mesa 22.3 gallium jobs of corpus/agx/mesa22 too); the checks run clean.

use std::path::{Path, PathBuf};

use wavesim_agx::inside::{BarrierCheck, Inside, RaceCheck, Stats, Timeline, Tracer, UniformCheck};
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
        barriers: Some(BarrierCheck::default()),
        races: Some(RaceCheck::default()),
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
        let b = obs.barriers.unwrap();
        assert!(b.findings.is_empty(), "{name}: {:?}", b.findings);
        let r = obs.races.unwrap();
        assert!(r.findings.is_empty(), "{name}: {:?}", r.findings);
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
        let races = &obs.barriers.as_ref().unwrap().findings;
        assert!(races.is_empty(), "{}: {races:?}", path.display());
        let races = &obs.races.as_ref().unwrap().findings;
        assert!(races.is_empty(), "{}: {races:?}", path.display());
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
            barriers: None,
            races: None,
        };
        let e = run_observed_in_dir(&cfg, dir, None, &mut u, false).unwrap_err();
        assert!(e.to_string().contains("uniforms check"), "{e}");
    }
    // 248 + 1 vertex jobs, 268 + 1 fragment jobs (corpus/agx/mesa22 and the two examples).
    assert_eq!((vertex, fragment), (249, 269));
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

/// A compute job of `grid` threads in threadgroups of `local`, 16 registers, 256 bytes of
/// threadgroup memory, `in` (u32 i * 1000, one per thread) at u0_u1 and `out` (4 bytes per
/// thread) at u2_u3.
fn compute_job(asm: &str, grid: u32, local: u32) -> RunConfig {
    let input: Vec<String> = (0..grid).map(|i| (1000 * i).to_string()).collect();
    RunConfig::from_toml(&format!(
        "kind = \"compute\"\nnr_gprs = 16\nasm = \"\"\"{asm}\"\"\"\n\
         [[buffer]]\nname = \"in\"\nu32 = [{}]\n[[buffer]]\nname = \"out\"\nsize = {}\n\
         [[uniform]]\nslot = 0\nbuffer = \"in\"\n[[uniform]]\nslot = 4\nbuffer = \"out\"\n\
         [compute]\ngrid = [{grid}, 1, 1]\nlocal = [{local}, 1, 1]\nthreadgroup_memory = 256\n",
        input.join(", "),
        4 * grid
    ))
    .unwrap()
}

/// Two threadgroups of 64 threads (two SIMD groups each).
fn threadgroup_job(asm: &str) -> RunConfig {
    compute_job(asm, 128, 64)
}

/// The findings of the threadgroup check (`races` false) or the device race check.
fn findings(cfg: &RunConfig, races: bool) -> Vec<String> {
    let mut obs = Inside::<Vec<u8>> {
        tracer: None,
        stats: None,
        timeline: None,
        uniforms: None,
        barriers: (!races).then(BarrierCheck::default),
        races: races.then(RaceCheck::default),
    };
    run_observed_in_dir(cfg, Path::new("."), None, &mut obs, true).unwrap();
    let f = (obs.barriers.map(|b| b.findings))
        .or(obs.races.map(|r| r.findings))
        .unwrap_or_default();
    f.iter().map(|f| f.to_string()).collect()
}

fn barrier_findings(asm: &str) -> Vec<String> {
    findings(&threadgroup_job(asm), false)
}

/// Thread lid stores word lid, then reads word 63 - lid (crates/wavesim-agx/tests/compute.rs).
const REVERSE: &str = include_str!("data/threadgroup_reverse.s");

/// With the barrier the exchange is ordered: clean. Without it, SIMD group 0 (threads 0-31)
/// runs to its end first: it stores words 0-31 and loads words 63-32, which SIMD group 1 then
/// stores (a store after another group's load of byte 0x80, word 32, which thread 31 loads and
/// thread 32 = group 1's thread 0 stores), then group 1 loads words 31-0 that group 0 stored
/// (thread 0 of group 1 loads word 31, byte 0x7c, which group 0's thread 31 stored). Two pairs
/// of instructions, each reported once although both threadgroups race.
#[test]
fn a_missing_threadgroup_barrier_is_found() {
    assert_eq!(barrier_findings(REVERSE), Vec::<String>::new());
    let racy = REVERSE.replace("    threadgroup_barrier\n", "");
    let f = barrier_findings(&racy);
    assert_eq!(f.len(), 2, "{f:#?}");
    assert!(
        f[0].starts_with("ThreadgroupRace at 0x1a `threadgroup_store")
            && f[0].contains("SIMD group 1 thread 0 stores threadgroup byte 0x80, which SIMD group 0 thread 31 loaded at 0x28"),
        "{f:#?}"
    );
    assert!(
        f[1].starts_with("ThreadgroupRace at 0x28 `threadgroup_load")
            && f[1].contains("SIMD group 1 thread 0 loads threadgroup byte 0x7c, which SIMD group 0 thread 31 stored at 0x1a"),
        "{f:#?}"
    );
}

/// Atomics on one word from both SIMD groups, and plain loads of it, are not races; plain stores
/// of it are.
#[test]
fn threadgroup_atomics_do_not_race_stores_do() {
    let atomics = "
    get_sr r1, sr80
    threadgroup_atomic add, r6, 0, 0, r1, 0, 2, 128, 0
    threadgroup_load i32, x, r5, 0, 0
    stop
";
    assert_eq!(barrier_findings(atomics), Vec::<String>::new());
    let store = atomics.replace(
        "threadgroup_load i32, x, r5, 0, 0",
        "threadgroup_store i32, x, r1, 0, 0",
    );
    let f = barrier_findings(&store);
    // Group 1's atomic after group 0's store, then group 1's store after group 0's atomic.
    assert_eq!(f.len(), 2, "{f:#?}");
    // Group 0 runs first: its atomics, then its stores (the check keeps a group's last write of
    // a byte: thread 31's store). Group 1's atomic meets that plain store, then group 1's store
    // meets it too (two plain stores of different groups).
    assert!(f[0].starts_with("ThreadgroupRace at 0x4 `threadgroup_atomic") && f[0].contains("SIMD group 1 thread 0 changes atomically threadgroup byte 0x0, which SIMD group 0 thread 31 stored at 0xe"), "{f:#?}");
    assert!(f[1].starts_with("ThreadgroupRace at 0xe `threadgroup_store") && f[1].contains("SIMD group 1 thread 0 stores threadgroup byte 0x0, which SIMD group 0 thread 31 stored at 0xe"), "{f:#?}");
}

/// The device race check on two threadgroups of one SIMD group each (grid 64, local 32).
fn race_findings(asm: &str) -> Vec<String> {
    findings(&compute_job(asm, 64, 32), true)
}

/// Thread lid of each threadgroup stores lid to out[lid]: the two threadgroups store the same
/// 128 bytes, which nothing orders. Threadgroup 0 runs first; threadgroup 1's thread 0 stores
/// byte 0 of out, which threadgroup 0's thread 0 stored: one pair of instructions (the store
/// at 0x4 against itself), reported once. Storing to out[gid] instead (disjoint words) is clean.
#[test]
fn plain_stores_of_two_threadgroups_race() {
    let store = "
    get_sr r1, sr48
    device_store 0, i32, x, r1, u2_u3, r1, unsigned, , 0
    stop
";
    let f = race_findings(store);
    assert_eq!(f.len(), 1, "{f:#?}");
    assert!(
        f[0].starts_with("DeviceRace at 0x4 `device_store")
            && f[0].contains("threadgroup (1,0,0) SIMD group 0 thread 0 stores device byte 0x")
            && f[0].contains("which threadgroup (0,0,0) SIMD group 0 thread 0 stored at 0x4")
            && f[0].ends_with("(different threadgroups, which nothing orders)"),
        "{f:#?}"
    );
    assert_eq!(
        race_findings(&store.replace("sr48", "sr80")),
        Vec::<String>::new()
    );
}

/// Every thread adds 1 to out[0] atomically, then loads out[0] with a plain load. Threadgroup 0
/// runs first: its 32 atomics (the last thread 31) and its loads (the last thread 31). Then
/// threadgroup 1's atomic meets threadgroup 0's plain load, and its load meets threadgroup 0's
/// atomic: two findings, atomic against plain both ways. Atomics alone (the load removed) are
/// clean: two atomics do not race.
#[test]
fn atomics_race_plain_accesses_of_other_threadgroups() {
    let atomic_then_load = "
    get_sr r1, sr80
    mov_imm r4, 1
    mov_imm r2, 0
    iadd r6, u2, 0
    iadd r7, u3, 0
    atomic add, 0, r10, r6_r7, 0, signed, r4, 1, 0, 1, 4, 2
    device_load 0, i32, x, r5, u2_u3, r2, unsigned
    wait 0
    stop
";
    let f = race_findings(atomic_then_load);
    assert_eq!(f.len(), 2, "{f:#?}");
    assert!(
        f[0].starts_with("DeviceRace at 0x20 `atomic")
            && f[0].contains(
                "threadgroup (1,0,0) SIMD group 0 thread 0 changes atomically device byte 0x"
            )
            && f[0].contains("which threadgroup (0,0,0) SIMD group 0 thread 31 loaded at 0x28"),
        "{f:#?}"
    );
    assert!(
        f[1].starts_with("DeviceRace at 0x28 `device_load")
            && f[1].contains("threadgroup (1,0,0) SIMD group 0 thread 0 loads device byte 0x")
            && f[1].contains(
                "which threadgroup (0,0,0) SIMD group 0 thread 31 changed atomically at 0x20"
            ),
        "{f:#?}"
    );
    let atomics_only =
        atomic_then_load.replace("    device_load 0, i32, x, r5, u2_u3, r2, unsigned\n", "");
    assert_eq!(race_findings(&atomics_only), Vec::<String>::new());
}
