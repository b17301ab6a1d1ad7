//! Real compute shaders: GLSL 4.50 compute shaders (`corpus/agx/glsl/*.comp`) compiled by Mesa
//! 25.0.7's asahi compiler (glslangValidator -V, then tools/agx/glsl_compute.c: spirv_to_nir, the
//! passes the gallium driver runs on a compute shader, `agx_compile_shader_nir`), each run as a
//! grid-kernel job (`NAME.job.toml`: binding N's buffer address is argument N) and compared with
//! Debian's llvmpipe running the same GLSL on the same buffers (`NAME.ref`, every buffer after the
//! dispatch). tools/agx/glsl_compute_corpus.py writes the binaries, jobs and references.
//!
//! Agreement: every word equal, except in the buffers a shader's `// compare: B f32` line names:
//! those words are read as f32 and must agree within 2^-16 relative to the larger magnitude (or
//! absolute below 1), 2^-10 when the shader runs under the approximation opt-in (`// approximate`:
//! `sqrt` is `rsqrt_special` times x, `sin`/`cos` are `sin_pt_1`/`sin_pt_2`), any NaN equal to
//! any NaN. The reasons are those of tests/mesa_corpus.rs: Mesa's back end fuses multiply-adds
//! where llvmpipe rounds twice (saxpy's `a * x + y` differs by one ulp in 63 of 200 values),
//! reassociates, and llvmpipe's transcendentals are its own polynomials.

use std::collections::BTreeMap;
use std::path::Path;
use wavesim_agx::runner::{run_in_dir, RunConfig};

#[path = "common/agree.rs"]
mod agree;
use agree::agree_within;

fn agree(got: u32, want: u32, tol: f32) -> bool {
    agree_within(got, want, tol)
}

/// The hand check of [`agree`]: 1.0 and its next float agree at 2^-16, 1.0 and 1.0005 only at
/// 2^-10 (0.0005 > 2^-16 = 0.0000153, < 2^-10 = 0.000977), 1.0 and 1.001 not even there, two NaNs agree, infinity and the largest
/// float do not, 100.0 and 100.001 agree at 2^-16 (0.001 <= 100 * 2^-16 = 0.0015).
#[test]
fn tolerance_rule() {
    let t16 = 1.0 / 65536.0;
    assert!(agree(1f32.to_bits(), 1f32.to_bits() + 1, t16));
    assert!(!agree(1f32.to_bits(), 1.0005f32.to_bits(), t16));
    assert!(agree(1f32.to_bits(), 1.0005f32.to_bits(), 1.0 / 1024.0));
    assert!(!agree(1f32.to_bits(), 1.001f32.to_bits(), 1.0 / 1024.0));
    assert!(agree(0x7fc0_0000, 0xffc0_0001, t16));
    assert!(!agree(f32::INFINITY.to_bits(), f32::MAX.to_bits(), t16));
    assert!(agree(100f32.to_bits(), 100.001f32.to_bits(), t16));
}

/// `bN: W W ...` (the job's u32 outputs) or `N: HEX HEX ...` (the reference) as {N: words}.
fn buffers(text: &str, prefix: &str, radix: u32) -> BTreeMap<u32, Vec<u32>> {
    let mut m = BTreeMap::new();
    for line in text.lines().filter(|l| l.starts_with(prefix)) {
        let Some((name, words)) = line.split_once(':') else {
            continue;
        };
        let Ok(b) = name[prefix.len()..].parse() else {
            continue;
        };
        let w = words
            .split_whitespace()
            .map(|v| u32::from_str_radix(v, radix).unwrap())
            .collect();
        m.insert(b, w);
    }
    m
}

#[test]
fn mesa_compiled_compute_shaders_match_llvmpipe() {
    check_corpus("glsl", 17);
}

/// Piglit's compute shader_tests that Mesa compiles (tools/agx/piglit_compute.py rewrote them as
/// the GL state tracker lowers atomic counters and default-block uniforms): llvmpipe's buffers
/// and piglit's own probes (`// probe: BINDING WORD VALUE`) must both hold.
#[test]
fn piglit_compute_shaders_match_llvmpipe_and_their_probes() {
    check_corpus("piglit", 23);
}

fn check_corpus(part: &str, count: usize) {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/agx")
        .join(part);
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter_map(|n| n.strip_suffix(".comp").map(str::to_string))
        .collect();
    names.sort();
    let mut failures = vec![];
    let (mut words, mut inexact, mut approximated, mut probes) = (0, 0, 0, 0);
    for name in &names {
        let source = std::fs::read_to_string(dir.join(format!("{name}.comp"))).unwrap();
        let float_buffers: Vec<u32> = source
            .lines()
            .filter_map(|l| l.strip_prefix("// compare: "))
            .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
            .collect();
        let job = std::fs::read_to_string(dir.join(format!("{name}.job.toml"))).unwrap();
        let cfg = RunConfig::from_toml(&job).unwrap();
        let tol = if cfg.approximate {
            approximated += 1;
            1.0 / 1024.0
        } else {
            1.0 / 65536.0
        };
        let got = match run_in_dir(&cfg, &dir, None) {
            Ok(r) => buffers(&r.text, "b", 10),
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        for probe in source.lines().filter_map(|l| l.strip_prefix("// probe: ")) {
            let f: Vec<u32> = probe
                .split_whitespace()
                .map(|v| {
                    v.strip_prefix("0x")
                        .map_or_else(|| v.parse(), |h| u32::from_str_radix(h, 16))
                        .unwrap()
                })
                .collect();
            probes += 1;
            match got.get(&f[0]).and_then(|b| b.get(f[1] as usize)) {
                Some(&g) if g == f[2] => {}
                other => failures.push(format!(
                    "{name}: piglit probes binding {} word {} == {:#x}, got {other:?}",
                    f[0], f[1], f[2]
                )),
            }
        }
        let refs = std::fs::read_to_string(dir.join(format!("{name}.ref"))).unwrap();
        for (b, want) in buffers(&refs, "", 16) {
            let Some(g) = got.get(&b) else {
                failures.push(format!("{name}: buffer {b} not printed"));
                continue;
            };
            let floats = float_buffers.contains(&b);
            for (i, (&g, &w)) in g.iter().zip(&want).enumerate() {
                words += 1;
                let ok = if floats { agree(g, w, tol) } else { g == w };
                if !ok {
                    failures.push(format!(
                        "{name}: binding {b} word {i}: {g:#010x}, llvmpipe {w:#010x}"
                    ));
                }
                inexact += usize::from(ok && g != w);
            }
            if g.len() != want.len() {
                failures.push(format!("{name}: binding {b}: {} words", g.len()));
            }
        }
    }
    println!(
        "{part}: {} shaders ({approximated} under the opt-in), {words} words, {inexact} equal \
         only within the tolerance, {probes} piglit probes",
        names.len()
    );
    failures.truncate(40);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(names.len(), count, "corpus/agx/{part} shaders");
}

/// GLSL compute shaders reading textures and images (`corpus/agx/glsl_tex`): texelFetch,
/// texture/textureLod with NEAREST filters on 2D, 3D and cube textures of several formats, and
/// imageLoad, bound as the gallium driver binds them (tools/agx/glsl_compute.c: texture unit N
/// in ts N with its sampler in ss N + 1, image unit N's TEXTURE descriptor in ts 2N + T).
#[test]
fn mesa_compiled_texture_and_image_shaders_match_llvmpipe() {
    check_corpus("glsl_tex", 8);
}
