//! Real shaders: shader-db's vertex and fragment shaders as Mesa 22.3.6's asahi driver compiled
//! them, each run as a job (`corpus/agx/mesa22/*.toml`: the binary as uploaded, the bytes the driver
//! placed for the draw, the push ranges' uniforms) and compared with llvmpipe rendering the same GLSL
//! with the same inputs (`*.ref`). `tools/agx/mesa_corpus.py` writes both. Vertex shaders run three
//! vertices, compared with llvmpipe's transform feedback of the outputs; fragment shaders run a
//! 16x16 target with every input held constant (coefficient planes [0, 0, value]), compared with
//! llvmpipe drawing the same fragment shader behind a vertex shader writing the same constants.
//!
//! Fragment agreement: render target 0 is RGBA8 unorm in both; each byte within 1 of llvmpipe's.
//! The f32 -> unorm8 conversion rounds to nearest in both, but the value converted differs in its
//! last bits for the reasons below, and Mesa's asahi back end stores the colour from 16-bit
//! registers (`agx_nir_lower_mediump` outputs) while llvmpipe converts f32: a value within an f16
//! rounding of a half-way point between two bytes may land on either.
//!
//! One vertex shader's output is ill-conditioned in the angle reduction of `sin`/`cos`
//! (unity_99-Water: a sign follows the last bits of a `cos`); its reference is llvmpipe running
//! the GLSL with Mesa's f32 reduction written in (`MESA_SINCOS` in the script, docs/AGX.md).
//!
//! Vertex agreement: integer and bit-identical results are compared exactly; where the words differ, both
//! are read as f32 and must agree within 2^-16 relative to the larger magnitude (or 2^-16 absolute
//! below 1). The two compilers round differently in three places that no exact rule can bridge:
//! Mesa's asahi back end fuses multiply-adds (`fuse_ffma32`, one rounding) where llvmpipe rounds
//! the product, the two order reassociated sums differently, and llvmpipe's transcendentals
//! (`inversesqrt`, `exp2`, `log2`, `sin`) are its own polynomial approximations while wavesim's
//! AGX `rsqrt`/`exp2`/`log2` are correctly rounded. Every shader must also store every output the
//! reference captured, and nothing may stop on an error.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use wavesim_agx::runner::{run_in_dir, RunConfig};

#[path = "common/agree.rs"]
mod agree;
use agree::agree_within;

fn corpus() -> PathBuf {
    corpus_part("mesa22")
}

fn corpus_part(part: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/agx")
        .join(part)
}

/// Shaders expected to stop on a typed error, with the error they must give: a change either way
/// fails the test. (Empty: every job runs.)
const KNOWN_STOPS: [(&str, &str); 0] = [];

/// The rows whose hardware rule no public source gives (opt-in, `exec::WaveState::approximate`).
const APPROXIMATIONS: [&str; 3] = ["sin_pt_1", "sin_pt_2", "rsqrt_special"];

/// Relative tolerance (see the module comment).
const TOL: f32 = 1.0 / 65536.0;

fn agree(got: u32, want: u32) -> bool {
    agree_within(got, want, TOL)
}

/// Tolerance for the outputs of a shader run under the approximation opt-in: `sin`/`cos` become
/// `sin_pt_1`/`sin_pt_2` run as their documented intent (sin(q pi/2) of the reduced angle), while
/// llvmpipe evaluates its own polynomial; for the large arguments real shaders give them (time
/// times a speed) the two differ by about 1e-4 relative, far above TOL and far below 2^-10.
const APPROX_TOL: f32 = 1.0 / 1024.0;

/// The hand check of [`agree`]: equal words agree, 1.0 and 1.0 + 2^-20 agree, 1.0 and 1.001 do not,
/// any two NaNs agree, infinity and the largest finite value do not,
/// integers 3 and 4 (denormal floats) agree only because both are below 1 in magnitude: an
/// integer output that differs by a small amount would pass, so the corpus test also reports the
/// inexact count, which stays small.
#[test]
fn tolerance_rule() {
    assert!(agree(7, 7));
    assert!(agree(1f32.to_bits(), (1.0 + 1.0 / 1048576.0f32).to_bits()));
    assert!(!agree(1f32.to_bits(), 1.001f32.to_bits()));
    assert!(!agree(f32::NAN.to_bits(), 0));
    assert!(agree(0x7fc0_0000, 0xffc0_0000));
    assert!(!agree(f32::INFINITY.to_bits(), f32::MAX.to_bits()));
    assert!(agree(3, 4));
}

/// Each `vertex V instance 0: outS=0xW ...` line as {(V, S): W} (a slot stored twice keeps the last).
fn outputs(text: &str) -> BTreeMap<(u32, u32), u32> {
    let mut m = BTreeMap::new();
    for line in text.lines().filter(|l| l.starts_with("vertex ")) {
        let v: u32 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
        for item in line.split_whitespace().filter(|w| w.starts_with("out")) {
            let (slot, value) = item[3..].split_once("=0x").unwrap();
            m.insert(
                (v, slot.parse().unwrap()),
                u32::from_str_radix(value, 16).unwrap(),
            );
        }
    }
    m
}

/// Each `pixel X Y: B0 B1 ...` line as {(X, Y): [B0..B3]}.
fn pixels(text: &str) -> BTreeMap<(u32, u32), Vec<u32>> {
    let mut m = BTreeMap::new();
    for line in text.lines().filter(|l| l.starts_with("pixel ")) {
        let (at, bytes) = line.split_once(':').unwrap();
        let xy: Vec<u32> = at
            .split_whitespace()
            .skip(1)
            .map(|v| v.parse().unwrap())
            .collect();
        let b: Vec<u32> = bytes
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        m.insert((xy[0], xy[1]), b[..4].to_vec());
    }
    m
}

/// Compares one fragment job's render target 0 with llvmpipe's; returns the bytes off by one.
fn compare_fragment(
    name: &str,
    text: &str,
    refs: &str,
    failures: &mut Vec<String>,
) -> (usize, usize) {
    let got = pixels(text);
    let (mut compared, mut inexact) = (0, 0);
    for line in refs.lines() {
        let f: Vec<u32> = line
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        let want = &f[2..6];
        compared += 4;
        match got.get(&(f[0], f[1])) {
            None => failures.push(format!("{name}: pixel {} {} not shaded", f[0], f[1])),
            Some(g) if g.iter().zip(want).any(|(a, b)| a.abs_diff(*b) > 1) => failures.push(
                format!("{name}: pixel {} {}: {g:?}, llvmpipe {want:?}", f[0], f[1]),
            ),
            Some(g) => inexact += g.iter().zip(want).filter(|(a, b)| a != b).count(),
        }
    }
    (compared, inexact)
}

/// Compares one vertex job's outputs with llvmpipe's; returns the words equal only within TOL.
fn compare_vertex(
    name: &str,
    text: &str,
    refs: &str,
    tol: f32,
    failures: &mut Vec<String>,
) -> (usize, usize) {
    let got = outputs(text);
    let (mut compared, mut inexact) = (0, 0);
    for line in refs.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let (v, s) = (f[0].parse().unwrap(), f[1].parse().unwrap());
        let want = u32::from_str_radix(f[2], 16).unwrap();
        compared += 1;
        match got.get(&(v, s)) {
            None => failures.push(format!("{name}: vertex {v} slot {s} not stored")),
            Some(&g) if !agree_within(g, want, tol) => failures.push(format!(
                "{name}: vertex {v} slot {s}: {g:#010x} ({}), llvmpipe {want:#010x} ({})",
                f32::from_bits(g),
                f32::from_bits(want)
            )),
            Some(&g) => inexact += usize::from(g != want),
        }
    }
    (compared, inexact)
}

#[test]
fn mesa_compiled_shaders_match_llvmpipe() {
    let matched = check_corpus(&corpus());
    assert!(matched >= 200, "{matched} shaders match");
}

/// Piglit's vertex and fragment shader_tests (their [test] sections left out: the inputs are the
/// harness's, as for shader-db) compiled by the same driver, `corpus/agx/piglit22`.
#[test]
fn piglit_shaders_match_llvmpipe() {
    let matched = check_corpus(&corpus_part("piglit22"));
    assert_eq!(matched, PIGLIT_JOBS, "piglit jobs that match");
}

/// Jobs in corpus/agx/piglit22 (tools/agx/mesa_corpus.py over tools/mesa/run_corpus.sh's dumps).
const PIGLIT_JOBS: usize = 1023;

/// Runs every job in `dir` against its reference; returns how many matched (panics on a failure).
fn check_corpus(dir: &Path) -> usize {
    let mut jobs: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    jobs.sort();
    let mut failures = vec![];
    let mut totals = BTreeMap::new();
    let mut approximated = 0;
    let mut stops = 0;
    for job in &jobs {
        let name = job.file_stem().unwrap().to_string_lossy().to_string();
        let fragment = name.ends_with(".fs");
        let mut cfg = RunConfig::from_toml(&std::fs::read_to_string(job).unwrap()).unwrap();
        if let Some((_, what)) = KNOWN_STOPS.iter().find(|(n, _)| *n == name) {
            cfg.approximate = true;
            match run_in_dir(&cfg, dir, None) {
                Err(e) if e.to_string().contains(what) => stops += 1,
                other => failures.push(format!("{name}: expected to stop on {what}: {other:?}")),
            }
            continue;
        }
        let text = match run_in_dir(&cfg, dir, None) {
            Ok(r) => r.text,
            // The one allowed stop: an approximation without its opt-in (no public rule gives
            // the hardware's `sin_pt_1`/`sin_pt_2`/`rsqrt_special`); with it, the job runs and is
            // compared like the others, and its output names what was approximated.
            Err(e)
                if APPROXIMATIONS
                    .iter()
                    .any(|a| e.to_string().contains(&format!("`{a}` has no semantics"))) =>
            {
                cfg.approximate = true;
                match run_in_dir(&cfg, dir, None) {
                    Ok(r) => {
                        assert!(r.text.contains("# approximated"), "{name}");
                        approximated += 1;
                        r.text
                    }
                    Err(e) => {
                        failures.push(format!("{name} (approximations opted in): {e}"));
                        continue;
                    }
                }
            }
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let refs = std::fs::read_to_string(job.with_extension("ref")).unwrap();
        let (n, inexact) = if fragment {
            compare_fragment(&name, &text, &refs, &mut failures)
        } else {
            let tol = if cfg.approximate { APPROX_TOL } else { TOL };
            compare_vertex(&name, &text, &refs, tol, &mut failures)
        };
        let t = totals
            .entry(if fragment { "fragment" } else { "vertex" })
            .or_insert((0, 0, 0, 0));
        *t = (
            t.0 + 1,
            t.1 + n,
            t.2 + inexact,
            t.3 + usize::from(cfg.approximate),
        );
    }
    for (stage, (shaders, n, inexact, approx)) in &totals {
        eprintln!(
            "{stage}: {shaders} shaders ({approx} under the approximation opt-in), {n} values \
             compared, {inexact} within tolerance but not equal"
        );
    }
    eprintln!("{approximated} stopped on an approximation and ran with the opt-in");
    eprintln!("{stops} stop on an unmodelled texture kind (KNOWN_STOPS)");
    assert_eq!(stops, KNOWN_STOPS.len());
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    totals.values().map(|t| t.0).sum::<usize>()
}
