//! Cold start over many distinct small kernels, the shape of a test suite such as tinygrad's
//! (hundreds of kernels, each dispatched a few times): every dispatch of corpus/runs.toml (clang-19
//! gfx1100 code objects of corpus/build.sh, wave32 and wave64, about 150 distinct kernels) runs
//! once per engine in a fresh process, one thread, nothing compiled beforehand, and the total
//! wall time per engine is printed with the JIT's compile counters.
//!
//! `cargo bench -p wavesim --bench many_kernels` runs interp, jit and auto, each in its own
//! child process (the compiled-code cache is process-wide); `WAVESIM_MANY_ROUNDS=N` dispatches
//! every run N times (default 1; a kernel a suite dispatches again is compiled only once).
//! Runs go through `Device::dispatch` (the JIT and its cache are the raw ABI's too).
//! `WAVESIM_MANY_FULL=1` compiles every block at the optimising tier at once
//! (`jit::optimise_at_once`, the JIT before it had a quick tier), for comparison.

use serde::Deserialize;
use std::path::PathBuf;
use std::time::Instant;
use wavesim::{parse_spec, run_specs, ArgSpec, Device, Engine, Geometry};

#[derive(Deserialize)]
struct RunFile {
    run: Vec<Run>,
}

#[derive(Deserialize)]
struct Run {
    object: String,
    kernel: String,
    global: Vec<u32>,
    local: Vec<u32>,
    #[serde(default)]
    offset: Option<Vec<u64>>,
    args: Vec<String>,
}

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

/// Runs every corpus dispatch `rounds` times under `engine`; prints one summary line.
fn child(engine: Engine, rounds: u32) {
    let text = std::fs::read_to_string(corpus().join("runs.toml")).expect("corpus/runs.toml");
    let runs: RunFile = toml::from_str(&text).expect("runs.toml parses");
    let data = corpus().join("data");
    // (Workgroups run on this thread: `dev.threads = 1` below.)
    let full = std::env::var_os("WAVESIM_MANY_FULL").is_some_and(|v| v != "0");
    wavesim_rdna3::jit::optimise_at_once(full);
    let mut dispatches = 0u32;
    let mut failed = 0u32;
    let before = wavesim_rdna3::jit::compile_stats();
    let t0 = Instant::now();
    for _ in 0..rounds {
        for w in ["w32", "w64"] {
            for r in &runs.run {
                let specs: Vec<ArgSpec> = r
                    .args
                    .iter()
                    .map(|a| parse_spec(a).map(|s| s.relative_to(&data)))
                    .collect::<Result<_, _>>()
                    .expect("argument specs parse");
                let bytes = std::fs::read(
                    corpus()
                        .join(format!("gfx1100-{w}"))
                        .join(format!("{}.hsaco", r.object)),
                )
                .expect("code object");
                let mut dev = Device::new();
                dev.cfg.engine = engine;
                dev.threads = 1;
                if let Some(o) = &r.offset {
                    dev.global_offset[..o.len()].copy_from_slice(o);
                }
                let module = dev.load(&bytes).expect("code object loads");
                let geo = Geometry::new(&r.global, &r.local).expect("geometry");
                dispatches += 1;
                // (A few corpus runs end in an expected error: they count, as in a suite.)
                if run_specs(&mut dev, &module, &r.kernel, &geo, &specs).is_err() {
                    failed += 1;
                }
            }
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    let after = wavesim_rdna3::jit::compile_stats();
    println!(
        "{:<7} {dispatches:>10} {failed:>6} {:>10.3} {:>9.3} {:>8.2} {:>8}",
        engine.name(),
        secs,
        secs * 1e3 / dispatches as f64,
        (after.nanos - before.nanos) as f64 * 1e-9,
        after.blocks - before.blocks,
    );
}

fn main() {
    let rounds: u32 = std::env::var("WAVESIM_MANY_ROUNDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    if let Ok(e) = std::env::var("WAVESIM_MANY_CHILD") {
        child(e.parse().expect("engine name"), rounds);
        return;
    }
    println!(
        "engine  dispatches errors    total s   ms/disp  jit s   blocks  ({rounds} round(s), one thread, cold{})",
        if std::env::var_os("WAVESIM_MANY_FULL").is_some_and(|v| v != "0") {
            ", optimising tier at once"
        } else {
            ""
        }
    );
    let exe = std::env::current_exe().expect("own path");
    for e in ["interp", "jit", "auto"] {
        let st = std::process::Command::new(&exe)
            .env("WAVESIM_MANY_CHILD", e)
            .env_remove("WAVESIM_JIT_CACHE")
            .status()
            .expect("run the child");
        assert!(st.success(), "{e}: the child failed");
    }
}
