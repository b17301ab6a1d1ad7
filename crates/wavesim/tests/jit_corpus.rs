//! The JIT tier against the interpreter on every corpus dispatch (corpus/runs.toml, the runs
//! `corpus.rs` checks), in wave32 and wave64: each runs through the Rust API under
//! `Engine::Interp` and under `Engine::Jit`, and every buffer (inputs and outputs), the printf
//! text, the wave- and lane-instruction counts and the outcome must be identical bit for bit.
//! The runs' reference outputs are `corpus.rs`'s business; this test needs no expectation files.
//!
//! A second test runs every dispatch again with f32 denormals flushed (the code objects'
//! FLOAT_DENORM_MODE_32 set to 0, `run_asm`'s and `-cl-denorms-are-zero`'s setting) under
//! `Engine::Interp`, `Engine::Jit` and `Engine::Auto`, with the same comparison.

#[path = "common/denorm32.rs"]
mod denorm32;

use serde::Deserialize;
use std::path::PathBuf;
use wavesim::{parse_spec, run_specs, ArgSpec, Device, Engine, Geometry};

#[derive(Deserialize)]
struct RunFile {
    run: Vec<Run>,
}

#[derive(Deserialize)]
struct Run {
    name: String,
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

/// Everything a run produces that must not depend on the engine.
#[derive(PartialEq, Eq, Debug)]
struct Outcome {
    result: Result<(u64, u64, u64, u64), String>,
    printf: String,
    buffers: Vec<Option<Vec<u8>>>,
}

/// Runs `r` from the `w` (w32/w64) corpus under `engine`, with the kernels'
/// FLOAT_DENORM_MODE_32 replaced by `denorm32` if given.
fn run(r: &Run, w: &str, engine: Engine, denorm32: Option<u32>) -> Outcome {
    let data = corpus().join("data");
    let specs: Result<Vec<ArgSpec>, String> = r
        .args
        .iter()
        .map(|a| parse_spec(a).map(|s| s.relative_to(&data)))
        .collect();
    let fail = |e: String| Outcome {
        result: Err(e),
        printf: String::new(),
        buffers: Vec::new(),
    };
    let specs = match specs {
        Ok(s) => s,
        Err(e) => return fail(e),
    };
    let mut dev = Device::new();
    dev.max_wave_instructions = 2_000_000;
    dev.cfg.engine = engine;
    // One thread: workgroups in order, so kernels whose counts depend on how workgroups
    // interleave (atomic retry loops) are deterministic and comparable.
    dev.threads = 1;
    if let Some(o) = &r.offset {
        dev.global_offset[..o.len()].copy_from_slice(o);
    }
    let path = corpus()
        .join(format!("gfx1100-{w}"))
        .join(format!("{}.hsaco", r.object));
    let bytes = match std::fs::read(&path) {
        Ok(b) => b,
        Err(e) => return fail(e.to_string()),
    };
    let bytes = match denorm32 {
        Some(m) => match denorm32::with_denorm32(&bytes, m) {
            Ok(b) => b,
            Err(e) => return fail(e),
        },
        None => bytes,
    };
    let module = match dev.load(&bytes) {
        Ok(m) => m,
        Err(e) => return fail(e.to_string()),
    };
    let geo = match Geometry::new(&r.global, &r.local) {
        Ok(g) => g,
        Err(e) => return fail(e.to_string()),
    };
    match run_specs(&mut dev, &module, &r.kernel, &geo, &specs) {
        Ok(out) => Outcome {
            result: Ok((
                out.stats.workgroups,
                out.stats.waves,
                out.stats.wave_instructions,
                out.stats.lane_instructions,
            )),
            printf: out.printf,
            buffers: out.buffers,
        },
        Err(e) => fail(e.to_string()),
    }
}

#[test]
fn every_corpus_run_is_identical_under_interp_and_jit() {
    compare_engines(&[Engine::Jit], None);
}

#[test]
fn every_corpus_run_is_identical_under_every_engine_with_f32_denormals_flushed() {
    compare_engines(&[Engine::Jit, Engine::Auto], Some(0));
}

/// Runs every corpus dispatch under the interpreter and under `engines`, all with
/// FLOAT_DENORM_MODE_32 `denorm32` (None: as compiled), and requires identical outcomes.
fn compare_engines(engines: &[Engine], denorm32: Option<u32>) {
    let text = std::fs::read_to_string(corpus().join("runs.toml")).expect("corpus/runs.toml");
    let runs = toml::from_str::<RunFile>(&text)
        .expect("runs.toml parses")
        .run;
    assert!(runs.len() > 20, "{} corpus runs", runs.len());
    let before = wavesim_rdna3::jit::compile_stats();
    let mut differ = Vec::new();
    let mut ok = 0;
    for r in &runs {
        for w in ["w32", "w64"] {
            let want = run(r, w, Engine::Interp, denorm32);
            if want.result.is_ok() {
                ok += 1;
            }
            for &engine in engines {
                let got = run(r, w, engine, denorm32);
                if want != got {
                    let what = if want.result != got.result {
                        format!("outcome {:?} vs {:?}", want.result, got.result)
                    } else if want.printf != got.printf {
                        "printf text".to_string()
                    } else {
                        let i = want
                            .buffers
                            .iter()
                            .zip(&got.buffers)
                            .position(|(a, b)| a != b)
                            .unwrap_or(usize::MAX);
                        format!("buffer of argument {i}")
                    };
                    differ.push(format!("{} {w} {engine}: {what}", r.name));
                }
            }
        }
    }
    let after = wavesim_rdna3::jit::compile_stats();
    let compiled = after.instructions - before.instructions;
    let callbacks = after.callbacks - before.callbacks;
    println!(
        "{ok} corpus runs completed; {compiled} instructions compiled by the JIT, {callbacks} \
         run inside compiled blocks through their interpreter handlers"
    );
    assert!(
        differ.is_empty(),
        "the JIT differs from the interpreter:\n{}",
        differ.join("\n")
    );
    assert!(ok > runs.len(), "only {ok} runs completed");
    assert!(compiled > 1000, "only {compiled} instructions compiled");
    // Memory instructions, waits, atomics etc. run inside compiled blocks (`jit::cache::call`).
    assert!(callbacks > 1000, "only {callbacks} callbacks compiled");
}
