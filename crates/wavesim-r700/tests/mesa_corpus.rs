//! Real shaders from Mesa's r600 driver (Mesa 22.3.6, RV770/RV730/RV710 on the radeon no-op DRM shim)
//! compiled from shader-db's application shaders, run with the state the driver set for their draw,
//! against llvmpipe running the same GLSL with the same inputs (corpus/r700/mesa/, rebuilt by
//! tools/mesa/run_corpus.sh and tools/r700/mesa_corpus.py; see docs/R700.md).
//!
//! Every program in the corpus must match on all three chips: vertex shaders (run with their fetch
//! shader over the three vertices of the draw) in every export llvmpipe's transform feedback gives,
//! pixel shaders (one 2x2 quad) in every render target the program writes, and killed pixels. A
//! program listed in `corpus/r700/mesa/known.txt` is one whose outputs legitimately differ (the line
//! says why); those must still run without an error. A line whose reason starts with `excluded:`
//! names a program whose run is not comparable (it would stop on a typed error for a rule no public
//! source gives, or it reads out of bounds on purpose); it is not run.
//!
//! Exactness: outputs agree within `TOLERANCE` (`EXP_LOG_TOLERANCE` for shaders that run
//! EXP/LOG), see there why bit equality is not what either side promises, or within
//! `SENSITIVITY_FACTOR` times their rounding sensitivity (sums whose terms cancel); NaN agrees with
//! any NaN. The test prints how many programs agree bit for bit. WAVESIM_MESA_CORPUS=DIR runs another
//! converted corpus; WAVESIM_MESA_CORPUS_ERRORS=1 prints each program's largest difference;
//! WAVESIM_MESA_CORPUS_SLOW=1 also runs the programs a corpus lists in slow.txt (minutes).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use wavesim_r700::inside::check::Checks;
use wavesim_r700::runner::{self, RunConfig};
use wavesim_r700::{Chip, Shader, Syntax};

const CHIPS: [&str; 3] = ["rv770", "rv730", "rv710"];

/// Every comparison allows 2^-20 of the larger magnitude (absolute below 1): about 8 ulps. Bit
/// equality is not what either side promises: GLSL lets a compiler re-associate and contract
/// expressions not marked `precise` (GLSL 4.60, 4.7.1), and NIR optimises the same GLSL into
/// different expressions for r600 (which fuses a * b + c into ffma and emits MULADD_IEEE) and for
/// llvmpipe (which lowers ffma to a multiply and an add); llvmpipe converts UNORM8 texels by
/// multiplying by 1/255 (not the correctly rounded c / 255 wavesim's texture unit gives) and
/// approximates rsqrt, sin and cos. The corpus stays within about 4 ulps (5e-7 relative).
const TOLERANCE: f64 = 1.0 / 1048576.0;

/// Shaders that run EXP_IEEE or LOG_* (pow, exp, log) allow 2^-10: llvmpipe's exp2/log2 are
/// polynomial approximations (gallivm's lp_bld_arit.c) good to about 2^-20, and pow(x, y) =
/// exp2(y log2 x) multiplies log2's error by y (specular exponents of 16 to 128 in the corpus).
const EXP_LOG_TOLERANCE: f64 = 1.0 / 1024.0;

const EXP_LOG_OPS: [&str; 3] = ["EXP_IEEE", "LOG_IEEE", "LOG_CLAMPED"];

/// A component outside `TOLERANCE` still agrees when the difference is within `SENSITIVITY_FACTOR`
/// times its rounding sensitivity: the largest change `PERTURBATIONS` reruns of the same shader
/// make in it when every normal float input word (constant buffers, vertex buffers, input GPRs) is
/// scaled by 1 + k 2^-22, k in {0, 1, 2} varying from word to word. A sum whose terms cancel (the
/// skinning shaders' cross products of dual quaternions) keeps only the high bits of its terms, so
/// the last-place rounding in which r600's fused multiply-adds and llvmpipe's separate multiplies
/// and adds differ comes out many ulps large in the result; an input change of a few ulps exposes
/// the same amplification. Checked against a binary64 evaluation for tesseract 251 (`world[0].z` of
/// vertex 1: binary64 -7.1095001, wavesim -7.1094971, llvmpipe -7.1095276). Scaling by
/// non-negative k never moves a positive input across an integer (the harness's floats are
/// multiples of 1/128 or exact integers), so array indices computed from inputs do not change.
const SENSITIVITY_FACTOR: f64 = 16.0;
const PERTURBATIONS: u64 = 3;

fn corpus() -> PathBuf {
    match std::env::var_os("WAVESIM_MESA_CORPUS") {
        Some(d) => PathBuf::from(d),
        None => Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/r700/mesa"),
    }
}

/// `stage.chip.ext` when the chip's file differs from rv770's, else `stage.ext`.
fn chip_file(dir: &Path, stage: &str, chip: &str, ext: &str) -> PathBuf {
    let own = dir.join(format!("{stage}.{chip}.{ext}"));
    if own.exists() {
        own
    } else {
        dir.join(format!("{stage}.{ext}"))
    }
}

#[derive(Debug)]
enum Expect {
    Killed,
    Export(String, [Option<u32>; 4]),
}

fn parse_expect(text: &str) -> BTreeMap<(String, usize), Vec<Expect>> {
    let mut m: BTreeMap<(String, usize), Vec<Expect>> = BTreeMap::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let p: Vec<&str> = line.split_whitespace().collect();
        let key = (p[0].to_string(), p[1].parse::<usize>().unwrap());
        let e = if p[2] == "killed" {
            Expect::Killed
        } else {
            let mut v = [None; 4];
            for (k, w) in p[3..7].iter().enumerate() {
                v[k] = u32::from_str_radix(w, 16).ok();
            }
            Expect::Export(p[2].to_string(), v)
        };
        m.entry(key).or_default().push(e);
    }
    m
}

/// The run configuration with every normal float word of its constant buffers, vertex buffers and
/// input GPRs scaled by 1 + k 2^-22 (k in {0, 1, 2} from a hash of `seed` and the word's position).
fn perturbed(toml_text: &str, seed: u64) -> Result<String, String> {
    let mut v: toml::Value = toml::from_str(toml_text).map_err(|e| e.to_string())?;
    let mut n = 0u64;
    let mut word = |x: &mut toml::Value| {
        if let Some(bits) = x
            .as_str()
            .and_then(|t| t.strip_prefix("0x"))
            .and_then(|h| u32::from_str_radix(h, 16).ok())
        {
            n += 1;
            let exp = (bits >> 23) & 0xff;
            if exp != 0 && exp != 0xff {
                let h = (seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ n)
                    .wrapping_mul(0xBF58_476D_1CE4_E5B9);
                let k = ((h >> 33) % 3) as f64;
                let f = (f32::from_bits(bits) as f64 * (1.0 + k / 4_194_304.0)) as f32;
                *x = toml::Value::String(format!("0x{:08x}", f.to_bits()));
            }
        }
    };
    fn each(x: &mut toml::Value, f: &mut dyn FnMut(&mut toml::Value)) {
        match x {
            toml::Value::Array(a) => a.iter_mut().for_each(|y| each(y, f)),
            _ => f(x),
        }
    }
    for (table, key) in [
        ("constant_buffer", "values"),
        ("fetch_constant", "data"),
        ("gpr", "values"),
    ] {
        if let Some(list) = v.get_mut(table).and_then(|t| t.as_array_mut()) {
            for t in list {
                if let Some(x) = t.get_mut(key) {
                    each(x, &mut word);
                }
            }
        }
    }
    toml::to_string(&v).map_err(|e| e.to_string())
}

/// The exports of `PERTURBATIONS` runs with perturbed inputs (see `SENSITIVITY_FACTOR`).
fn perturbed_runs(shader: &Shader, toml_text: &str) -> Result<Vec<runner::RunResult>, String> {
    (1..=PERTURBATIONS)
        .map(|seed| {
            let cfg =
                RunConfig::from_toml(&perturbed(toml_text, seed)?).map_err(|e| e.to_string())?;
            runner::run(shader, &cfg).map_err(|e| e.to_string())
        })
        .collect()
}

/// Runs one stage of one program on one chip; Ok(true) when it matches llvmpipe, Ok(false) with
/// the first difference in `why`, Err for a run error.
fn check_stage(
    dir: &Path,
    stage: &str,
    chip: &str,
    expect: &BTreeMap<(String, usize), Vec<Expect>>,
    why: &mut String,
    stats: &mut Stats,
) -> Result<bool, String> {
    let bin = std::fs::read(chip_file(dir, stage, chip, "bin")).map_err(|e| e.to_string())?;
    let toml =
        std::fs::read_to_string(chip_file(dir, stage, chip, "toml")).map_err(|e| e.to_string())?;
    let chip_id = Chip::from_name(chip).ok_or_else(|| format!("chip {chip}"))?;
    let shader = Shader::from_raw(chip_id, &bin).map_err(|e| e.to_string())?;
    let text = shader.disassemble(Syntax::Llc);
    let exp_log = EXP_LOG_OPS
        .iter()
        .any(|op| text.contains(&format!(" {op} ")));
    stats.transcendental |= exp_log;
    let tol = if exp_log {
        EXP_LOG_TOLERANCE
    } else {
        TOLERANCE
    };
    let cfg = RunConfig::from_toml(&toml).map_err(|e| e.to_string())?;
    // Seeing inside (docs/INSIDE.md, "R700 checks"): what Mesa's r600 emits keeps the ISA's
    // static rules, so every driver-compiled shader and its fetch shader is clean under them.
    let findings = runner::check(&shader, &cfg, Checks::ALL).map_err(|e| e.to_string())?;
    if let Some(f) = findings.first() {
        return Err(format!("{} check findings, first: {f}", findings.len()));
    }
    let res = runner::run(&shader, &cfg).map_err(|e| e.to_string())?;
    let mut perturbed: Option<Vec<runner::RunResult>> = None;
    for ((st, thread), list) in expect.iter() {
        if st != stage {
            continue;
        }
        let t = res
            .threads
            .get(*thread)
            .ok_or_else(|| format!("no thread {thread}"))?;
        for e in list {
            match e {
                Expect::Killed => {
                    if !t.killed {
                        *why = format!("{stage} thread {thread}: llvmpipe discarded it");
                        return Ok(false);
                    }
                }
                Expect::Export(target, want) => {
                    if t.killed {
                        *why = format!("{stage} thread {thread}: killed, llvmpipe wrote it");
                        return Ok(false);
                    }
                    let got = t
                        .exports
                        .iter()
                        .rev()
                        .find(|x| x.target.to_string() == *target)
                        .map(|x| x.value);
                    let Some(got) = got else {
                        *why = format!("{stage} thread {thread}: no {target} export");
                        return Ok(false);
                    };
                    for c in 0..4 {
                        if let Some(w) = want[c] {
                            if let Some(g) = got[c] {
                                let e = rel_error(g, w);
                                if e > stats.worst {
                                    stats.worst = e;
                                }
                            }
                            let mut ok = got[c].is_some_and(|g| rel_error(g, w) <= tol);
                            if let (false, Some(g)) = (ok, got[c]) {
                                if perturbed.is_none() {
                                    perturbed = Some(perturbed_runs(&shader, &toml)?);
                                }
                                let delta = perturbed
                                    .iter()
                                    .flatten()
                                    .filter_map(|r| {
                                        let x = r
                                            .threads
                                            .get(*thread)?
                                            .exports
                                            .iter()
                                            .rev()
                                            .find(|x| x.target.to_string() == *target)?;
                                        Some(abs_diff(x.value[c]?, g))
                                    })
                                    .fold(0.0, f64::max);
                                let d = abs_diff(g, w);
                                if d <= SENSITIVITY_FACTOR * delta {
                                    ok = true;
                                    stats.sensitive = stats.sensitive.max(d / delta);
                                }
                            }
                            if !ok {
                                *why = format!(
                                    "{stage} thread {thread} {target}.{}: wavesim {:?} llvmpipe {:?} ({w:08x})",
                                    ["x", "y", "z", "w"][c],
                                    got[c].map(f32::from_bits),
                                    f32::from_bits(w)
                                );
                                return Ok(false);
                            }
                        }
                    }
                }
            }
        }
    }
    Ok(true)
}

/// What one program's comparison found: the largest difference (relative to the larger magnitude,
/// or absolute below 1; 0 when bit-exact) and whether it runs a transcendental op.
#[derive(Default)]
struct Stats {
    worst: f64,
    transcendental: bool,
    /// The largest difference accepted by rounding sensitivity, over that sensitivity (0: none).
    sensitive: f64,
}

fn abs_diff(a: u32, b: u32) -> f64 {
    let (x, y) = (f32::from_bits(a) as f64, f32::from_bits(b) as f64);
    if x.is_nan() && y.is_nan() {
        return 0.0;
    }
    let d = (x - y).abs();
    if d.is_nan() {
        f64::INFINITY
    } else {
        d
    }
}

fn rel_error(got: u32, want: u32) -> f64 {
    if got == want {
        return 0.0;
    }
    let (g, w) = (f32::from_bits(got) as f64, f32::from_bits(want) as f64);
    if g.is_nan() && w.is_nan() {
        return 0.0;
    }
    if !g.is_finite() || !w.is_finite() {
        return f64::INFINITY;
    }
    (g - w).abs() / g.abs().max(w.abs()).max(1.0)
}

fn known(root: &Path) -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(root.join("known.txt")).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && l.contains(": "))
        .map(|l| {
            let (a, b) = l.split_once(": ").unwrap();
            (a.to_string(), b.to_string())
        })
        .collect()
}

/// Why a program's outputs may legitimately differ from llvmpipe's, from the notes the converter
/// writes into expect.txt or corpus/r700/mesa/known.txt.
/// A shadow sampler on the harness's color texture makes what it returns undefined, so that note
/// decides before a layout ambiguity does. (The harness gives every shadow sampler type it binds a
/// depth texture with the compare mode on, so the converter writes the note only for one it could
/// not give one; no corpus program has it now.)
fn excuse(expect_text: &str, known: &BTreeMap<String, String>, name: &str) -> Option<String> {
    let note = |prefix: &str| {
        expect_text
            .lines()
            .find_map(|l| l.strip_prefix(prefix).map(str::to_string))
    };
    if let Some(n) = note("# shadow-sampler: ") {
        return Some(format!(
            "undefined: shadow sampler {n} on a color texture without depth compare"
        ));
    }
    if let Some(n) = note("# layout-ambiguous: ") {
        return Some(format!(
            "reference ambiguous: the r600 NIR packs part of {n} without naming which components"
        ));
    }
    known.get(name).cloned()
}

#[test]
fn mesa_r600_shaders_match_llvmpipe() {
    check_corpus(&corpus());
}

/// The same check over piglit's GLSL 1.10-1.30 execution tests (corpus/r700/piglit, built by
/// tools/r700/piglit_corpus.sh with the same harness and converter).
#[test]
fn piglit_r600_shaders_match_llvmpipe() {
    check_corpus(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/r700/piglit"));
}

fn check_corpus(root: &Path) {
    let known = known(root);
    let slow_text = std::fs::read_to_string(root.join("slow.txt")).unwrap_or_default();
    let slow: Vec<String> = slow_text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .map(String::from)
        .collect();
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(root)
        .expect("a corpus directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.join("expect.txt").exists())
        .collect();
    dirs.sort();
    let (mut matched, mut exact, mut sensitive, mut failures) = (0, 0, 0, Vec::new());
    let mut excused: BTreeMap<String, usize> = BTreeMap::new();
    for dir in &dirs {
        let name = dir.file_name().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(dir.join("expect.txt")).unwrap();
        // Programs listed in slow.txt (loops of up to millions of iterations with the harness's
        // integer uniforms) take seconds to minutes each: run with WAVESIM_MESA_CORPUS_SLOW=1.
        if slow.contains(&name) && std::env::var_os("WAVESIM_MESA_CORPUS_SLOW").is_none() {
            *excused.entry("slow, not run".into()).or_default() += 1;
            continue;
        }
        // Programs whose run is not comparable for a stated reason (known.txt "excluded: ...")
        // are not run: they would stop on a typed error for a rule no source gives.
        if known.get(&name).is_some_and(|w| w.starts_with("excluded:")) {
            *excused.entry("excluded, not run".into()).or_default() += 1;
            continue;
        }
        let started = std::time::Instant::now();
        let expect = parse_expect(&text);
        let mut first: Option<String> = None;
        let mut run_error = false;
        let mut stats = Stats::default();
        for chip in CHIPS {
            for stage in ["vs", "ps"] {
                let mut why = String::new();
                match check_stage(dir, stage, chip, &expect, &mut why, &mut stats) {
                    Ok(true) => {}
                    Ok(false) => {
                        first.get_or_insert(format!("{name} on {chip}: {why}"));
                    }
                    Err(e) => {
                        run_error |= first.is_none();
                        first.get_or_insert(format!("{name} {stage} on {chip}: run error: {e}"));
                    }
                }
            }
        }
        if std::env::var_os("WAVESIM_MESA_CORPUS_ERRORS").is_some() {
            eprintln!(
                "ERR {name} {:e} {} sensitivity ratio {:.2} ({} ms)",
                stats.worst,
                stats.transcendental,
                stats.sensitive,
                started.elapsed().as_millis()
            );
        }
        if let (Some(f), Some(_)) = (&first, std::env::var_os("WAVESIM_MESA_CORPUS_ERRORS")) {
            eprintln!("FIRST {f}");
        }
        match (first, excuse(&text, &known, &name)) {
            (None, _) => {
                matched += 1;
                if stats.worst == 0.0 {
                    exact += 1;
                }
                if stats.sensitive > 0.0 {
                    sensitive += 1;
                }
            }
            // No corpus program may stop on an error: a difference can be excused, a run error
            // cannot (exclude the program with its reason instead).
            (Some(f), _) if run_error => failures.push(f),
            (Some(_), Some(why)) => {
                let class = why.split(':').next().unwrap_or("").to_string();
                *excused.entry(class).or_default() += 1;
            }
            (Some(f), None) => failures.push(f),
        }
    }
    // Each program is a vertex shader, its fetch shader and a pixel shader.
    eprintln!(
        "{}: {matched} of {} programs ({} shaders) match llvmpipe on rv770, rv730 and rv710 \
         ({exact} bit for bit, {sensitive} within their rounding sensitivity); not compared: \
         {excused:?}",
        root.display(),
        dirs.len(),
        3 * matched
    );
    assert!(
        failures.is_empty(),
        "{} programs differ from llvmpipe:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert!(matched >= 1, "the corpus is empty");
}
