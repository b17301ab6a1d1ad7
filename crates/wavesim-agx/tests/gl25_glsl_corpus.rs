//! corpus/agx/gl25glsl: application GLSL (shader-db's public collection and piglit's GLSL
//! 1.10-1.30 execution tests) compiled by Mesa 25.0.7's own GLSL front end and linker and its
//! asahi compiler, the fragment program linked as the gallium driver links it (prolog, main
//! part, FS epilog, end-of-tile program; tools/agx/glsl_graphics.c --glsl,
//! tools/agx/gl25_glsl_corpus.py), run as `abi = "mesa-25.0-linked"` jobs with every input
//! constant, the harness's uniforms in uniform block 0 and its 4x4 RGBA8 textures (twiddled,
//! NEAREST), and compared with llvmpipe drawing the same fragment shader with the same inputs.
//!
//! Agreement: colour bytes within 1 (f16 outputs and fused multiply-adds against llvmpipe's f32),
//! and the stored image equals the tile buffer.
//!
//! The programs' vertex shaders (compiled alone, as separable programs: a hardware vertex shader,
//! attributes from the prolog, outputs through the UVS) run as `abi = "mesa-current"` vertex jobs
//! over the harness's three vertices (every attribute fed the same three vec4s) against
//! llvmpipe's transform feedback of gl_Position and every output: each word bit-equal or within
//! 2^-16 relative (fused multiply-adds, llvmpipe's own transcendentals), any NaN equal to any NaN.
//!
//! CI runs every 8th job (a few seconds); `WAVESIM_AGX_GL25GLSL=all` runs them all, and
//! `WAVESIM_AGX_GL25GLSL_DIR` points the tests at another folder of such jobs.

use std::path::Path;
use wavesim_agx::runner::{run_in_dir, RunConfig};

#[path = "common/agree.rs"]
mod agree;
#[path = "common/linked_output.rs"]
mod linked_output;

/// Jobs in corpus/agx/gl25glsl (tools/agx/gl25_glsl_corpus.py's summary.txt lists the programs
/// without one and why).
const JOBS: usize = 841;

/// Vertex jobs (NAME.vs.toml) in corpus/agx/gl25glsl.
const VERTEX_JOBS: usize = 849;

/// Jobs known to disagree with llvmpipe (vertex jobs NAME.vs), each with the reason (a change
/// either way fails).
const KNOWN_DIFFERENT: [(&str, &str); 2] = [
    (
        "shaderdb_unity_99-Water.vs",
        "output 4 of vertex 1 follows the sign of a cos of large angles: Mesa's agx_lower_sincos \
         reduces in f32, llvmpipe more accurately (docs/AGX.md, Mesa 22.3 corpus: the same \
         shader, +0.7067 against -0.7067)",
    ),
    (
        "shaderdb_unity_57-DeferredDirectional",
        "undefined GLSL with the harness's inputs: _LightDir is not unit length, so \
         tmpvar_9 = max(0, dot(N, -_LightDir.xyz)) is 17.05 and pow(1.0001 - tmpvar_9, 5.0) has \
         a negative base (GLSL 4.60 8.2: pow is undefined for x < 0). For asahi \
         (lower_fpow) nir_opt_algebraic's inexact `fexp2(flog2(a) * 5.0) -> a*a*a*a*a` gives \
         -1.07e6 (the program's three fmul32 at 0x2a8-0x2b4), tmpvar_19 about -1e10 and \
         exp2(-tmpvar_19) = +inf: white, as wavesim; llvmpipe evaluates exp2(5 log2(x)) = NaN \
         and stores NaN as 0: black. llvmpipe given the same GLSL with pow(x, 5.0) written \
         x*x*x*x*x draws white (255, 255, 255, 128) at every pixel",
    ),
];

/// Whether `mine` (this job's failures) agrees with KNOWN_DIFFERENT; pushes what does not.
fn judge(name: &str, mine: Vec<String>, failures: &mut Vec<String>) {
    let known = KNOWN_DIFFERENT.iter().find(|(k, _)| *k == name);
    match (known, mine.is_empty()) {
        (None, false) => failures.extend(mine),
        (Some((_, why)), true) => {
            failures.push(format!("{name}: listed as different ({why}) but matches"))
        }
        _ => {}
    }
}

fn check(dir: &Path, name: &str, failures: &mut Vec<String>) -> (usize, usize) {
    let job = std::fs::read_to_string(dir.join(format!("{name}.job.toml"))).unwrap();
    let cfg = RunConfig::from_toml(&job).unwrap();
    let text = match run_in_dir(&cfg, dir, None) {
        Ok(r) => r.text,
        Err(e) => {
            failures.push(format!("{name}: {e}"));
            return (0, 0);
        }
    };
    let image = linked_output::image(&text, "rt");
    let tile = linked_output::tile_records(&text);
    let refs = std::fs::read_to_string(dir.join(format!("{name}.ref"))).unwrap();
    let (mut pixels, mut inexact) = (0, 0);
    let mut differ = 0;
    for line in refs.lines() {
        let v: Vec<u32> = line
            .split_whitespace()
            .map(|c| c.parse().unwrap())
            .collect();
        let (x, y) = (v[0], v[1]);
        let want: Vec<u8> = v[2..6].iter().map(|&c| c as u8).collect();
        let at = 4 * (y * 16 + x) as usize;
        let got = image.get(at..at + 4).unwrap_or_default();
        pixels += 1;
        let close = got.len() == 4 && got.iter().zip(&want).all(|(g, w)| g.abs_diff(*w) <= 1);
        if !close {
            if differ == 0 {
                failures.push(format!("{name}: pixel {x} {y}: {got:?}, llvmpipe {want:?}"));
            }
            differ += 1;
        }
        inexact += usize::from(close && got != want.as_slice());
        if tile.get(&(x, y)).map(|t| &t[..4]) != Some(got) {
            failures.push(format!(
                "{name}: pixel {x} {y}: the image is not the tile buffer"
            ));
        }
    }
    (pixels, inexact)
}

#[test]
fn mesa25_glsl_front_end_fragment_programs_match_llvmpipe() {
    let (dir, names, committed) = jobs(".job.toml");
    let all = std::env::var("WAVESIM_AGX_GL25GLSL").is_ok_and(|v| v == "all");
    let (mut run, mut pixels, mut inexact) = (0, 0, 0);
    let mut failures = vec![];
    for (i, name) in names.iter().enumerate() {
        if !all && i % 8 != 0 {
            continue;
        }
        run += 1;
        let mut mine = vec![];
        let (p, n) = check(&dir, name, &mut mine);
        pixels += p;
        inexact += n;
        judge(name, mine, &mut failures);
    }
    println!(
        "gl25glsl: {run} of {} jobs run, {pixels} pixels ({inexact} within 1 but not equal)",
        names.len()
    );
    failures.truncate(40);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    if committed {
        assert_eq!(names.len(), JOBS, "corpus/agx/gl25glsl jobs");
    }
}

/// The jobs of `suffix` in the corpus (or WAVESIM_AGX_GL25GLSL_DIR), and whether that is the
/// committed corpus.
fn jobs(suffix: &str) -> (std::path::PathBuf, Vec<String>, bool) {
    let other = std::env::var("WAVESIM_AGX_GL25GLSL_DIR").ok();
    let dir = match &other {
        Some(d) => Path::new(d).to_path_buf(),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/agx/gl25glsl"),
    };
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter_map(|n| n.strip_suffix(suffix).map(str::to_string))
        .collect();
    names.sort();
    (dir, names, other.is_none())
}

#[test]
fn mesa25_glsl_front_end_vertex_shaders_match_llvmpipe() {
    let (dir, names, committed) = jobs(".vs.toml");
    let all = std::env::var("WAVESIM_AGX_GL25GLSL").is_ok_and(|v| v == "all");
    let (mut run, mut words, mut inexact, mut approximate) = (0, 0, 0, 0);
    let mut failures = vec![];
    for (i, name) in names.iter().enumerate() {
        if !all && i % 8 != 0 {
            continue;
        }
        run += 1;
        let job = std::fs::read_to_string(dir.join(format!("{name}.vs.toml"))).unwrap();
        let cfg = RunConfig::from_toml(&job).unwrap();
        let mut mine = vec![];
        let text = match run_in_dir(&cfg, &dir, None) {
            Ok(r) => r.text,
            Err(e) => {
                judge(
                    &format!("{name}.vs"),
                    vec![format!("{name}.vs: {e}")],
                    &mut failures,
                );
                continue;
            }
        };
        let got = linked_output::vertex_outputs(&text);
        let refs = std::fs::read_to_string(dir.join(format!("{name}.vs.ref"))).unwrap();
        // under the approximation opt-in (sin_pt_1/2, rsqrt_special as their documented
        // intent) 2^-10, as tests/mesa_corpus.rs: llvmpipe's own sin/cos and wavesim's intent
        // differ by about 1e-4 relative for the large angles real shaders give them
        let tol = if cfg.approximate {
            1.0 / 1024.0
        } else {
            1.0 / 65536.0
        };
        approximate += usize::from(cfg.approximate);
        for (v, slot, want) in linked_output::vertex_reference(&refs) {
            words += 1;
            match got.get(&(v, slot)) {
                Some(&g) if agree::agree_within(g, want, tol) => inexact += usize::from(g != want),
                other => {
                    mine.push(format!(
                        "{name}.vs: vertex {v} slot {slot}: {other:08x?}, llvmpipe {want:08x}"
                    ));
                    break;
                }
            }
        }
        judge(&format!("{name}.vs"), mine, &mut failures);
    }
    println!(
        "gl25glsl vertex: {run} of {} jobs run ({approximate} under the approximation opt-in), \
         {words} words ({inexact} within the tolerance but not equal)",
        names.len()
    );
    failures.truncate(40);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    if committed {
        assert_eq!(names.len(), VERTEX_JOBS, "corpus/agx/gl25glsl vertex jobs");
    }
}
