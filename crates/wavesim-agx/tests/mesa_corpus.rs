//! Real shaders: shader-db's vertex shaders as Mesa 22.3.6's asahi driver compiled them, each run as a
//! job (`corpus/agx/mesa22/*.toml`: the binary as uploaded, the bytes the driver placed for the draw,
//! the push ranges' uniforms) and compared with llvmpipe rendering the same GLSL with the same
//! inputs (`*.ref`, transform feedback of the outputs). `tools/agx/mesa_corpus.py` writes both.
//!
//! Agreement: integer and bit-identical results are compared exactly; where the words differ, both
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

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/agx/mesa22")
}

/// Relative tolerance (see the module comment).
const TOL: f32 = 1.0 / 65536.0;

fn agree(got: u32, want: u32) -> bool {
    if got == want {
        return true;
    }
    let (g, w) = (f32::from_bits(got), f32::from_bits(want));
    if !g.is_finite() || !w.is_finite() {
        return false;
    }
    (g - w).abs() <= TOL * g.abs().max(w.abs()).max(1.0)
}

/// The hand check of [`agree`]: equal words agree, 1.0 and 1.0 + 2^-20 agree, 1.0 and 1.001 do not,
/// integers 3 and 4 (denormal floats) agree only because both are below 1 in magnitude: an
/// integer output that differs by a small amount would pass, so the corpus test also reports the
/// inexact count, which stays small.
#[test]
fn tolerance_rule() {
    assert!(agree(7, 7));
    assert!(agree(1f32.to_bits(), (1.0 + 1.0 / 1048576.0f32).to_bits()));
    assert!(!agree(1f32.to_bits(), 1.001f32.to_bits()));
    assert!(!agree(f32::NAN.to_bits(), 0));
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

#[test]
fn mesa_compiled_vertex_shaders_match_llvmpipe() {
    let dir = corpus();
    let mut jobs: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    jobs.sort();
    let (mut compared, mut inexact, mut failures) = (0usize, 0usize, vec![]);
    for job in &jobs {
        let name = job.file_stem().unwrap().to_string_lossy().to_string();
        let cfg = RunConfig::from_toml(&std::fs::read_to_string(job).unwrap()).unwrap();
        let got = match run_in_dir(&cfg, &dir, None) {
            Ok(r) => outputs(&r.text),
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let refs = std::fs::read_to_string(job.with_extension("ref")).unwrap();
        for line in refs.lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            let (v, s) = (f[0].parse().unwrap(), f[1].parse().unwrap());
            let want = u32::from_str_radix(f[2], 16).unwrap();
            compared += 1;
            match got.get(&(v, s)) {
                None => failures.push(format!("{name}: vertex {v} slot {s} not stored")),
                Some(&g) if !agree(g, want) => failures.push(format!(
                    "{name}: vertex {v} slot {s}: {g:#010x} ({}), llvmpipe {want:#010x} ({})",
                    f32::from_bits(g),
                    f32::from_bits(want)
                )),
                Some(&g) => inexact += usize::from(g != want),
            }
        }
    }
    eprintln!(
        "{} shaders, {compared} output components, {inexact} within tolerance but not bit-equal",
        jobs.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(jobs.len() >= 200, "{} shaders", jobs.len());
}
