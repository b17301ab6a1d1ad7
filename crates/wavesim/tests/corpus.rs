//! Every corpus dispatch (corpus/runs.toml), in wave32 and wave64, through the Rust API and
//! through `wavesim run`, compared with its reference output under the run's rule.
//!
//! The full pass/fail table is printed (`cargo test -p wavesim --test corpus -- --nocapture`).
//! The test asserts only on the runs listed in `tests/corpus_pass.txt` (`RUN w32` / `RUN w64`
//! lines), the runs known to pass; the list only grows. A run that passes but is not listed is
//! reported so it can be added.

use serde::Deserialize;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use wavesim::{parse_spec, run_specs, ArgSpec, Device, Geometry};

#[derive(Deserialize, Clone, Debug)]
struct RunFile {
    run: Vec<Run>,
}

#[derive(Deserialize, Clone, Debug)]
struct Run {
    name: String,
    object: String,
    kernel: String,
    global: Vec<u32>,
    local: Vec<u32>,
    #[serde(default)]
    offset: Option<Vec<u64>>,
    args: Vec<String>,
    expect: BTreeMap<String, String>,
    #[serde(default)]
    expect_w64: BTreeMap<String, String>,
    #[serde(default)]
    compare: BTreeMap<String, String>,
}

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

fn runs() -> Vec<Run> {
    let text = std::fs::read_to_string(corpus().join("runs.toml")).expect("corpus/runs.toml");
    toml::from_str::<RunFile>(&text)
        .expect("runs.toml parses")
        .run
}

/// `RUN w32` / `RUN w64` entries known to pass.
fn expected_pass() -> BTreeSet<(String, String)> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/corpus_pass.txt");
    let text = std::fs::read_to_string(p).unwrap_or_default();
    text.lines()
        .map(|l| l.trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (r, w) = l.split_once(' ').expect("line: RUN w32|w64");
            (r.to_string(), w.trim().to_string())
        })
        .collect()
}

/// Expected bytes of each checked argument for wave size `w` ("w32"/"w64").
fn expectations(r: &Run, w: &str) -> Vec<(usize, PathBuf, String)> {
    let mut e = r.expect.clone();
    if w == "w64" {
        for (k, v) in &r.expect_w64 {
            e.insert(k.clone(), v.clone());
        }
    }
    e.iter()
        .map(|(k, f)| {
            let i: usize = k.parse().expect("expect key is an argument index");
            let rule = r
                .compare
                .get(k)
                .cloned()
                .unwrap_or_else(|| "exact".to_string());
            (i, corpus().join("data").join(f), rule)
        })
        .collect()
}

/// Maps float bits to integers ordered like the values (+0 and -0 both 0).
fn ordinal(bits: u64, nbits: u32) -> i128 {
    let sign = 1u64 << (nbits - 1);
    if bits & sign != 0 {
        -((bits ^ sign) as i128)
    } else {
        bits as i128
    }
}

fn is_nan(bits: u64, nbits: u32) -> bool {
    let (exp_mask, man_mask) = match nbits {
        16 => (0x7c00u64, 0x3ffu64),
        32 => (0x7f80_0000, 0x7f_ffff),
        _ => (0x7ff0_0000_0000_0000, 0xf_ffff_ffff_ffff),
    };
    bits & exp_mask == exp_mask && bits & man_mask != 0
}

/// None if `got` matches `want` under the corpus README's rule, else the first difference.
fn compare(got: &[u8], want: &[u8], rule: &str) -> Option<String> {
    if got.len() != want.len() {
        return Some(format!("length {} != {}", got.len(), want.len()));
    }
    let parts: Vec<&str> = rule.split(':').collect();
    let (ulps, ty) = match parts.as_slice() {
        ["exact"] => {
            let i = got.iter().zip(want).position(|(a, b)| a != b)?;
            let n = got.iter().zip(want).filter(|(a, b)| a != b).count();
            return Some(format!(
                "byte {i}: got {:#04x} want {:#04x} ({n} bytes differ)",
                got[i], want[i]
            ));
        }
        ["exact_nan", t] => (0u64, *t),
        ["ulp", n] => (n.parse().unwrap(), "f32"),
        ["ulp", n, t] => (n.parse().unwrap(), *t),
        _ => return Some(format!("unknown comparison rule {rule}")),
    };
    let nbits: u32 = match ty {
        "f16" => 16,
        "f32" => 32,
        "f64" => 64,
        _ => return Some(format!("unknown type in rule {rule}")),
    };
    let sz = (nbits / 8) as usize;
    let mut bad = 0usize;
    let mut first = None;
    for (i, (g, w)) in got.chunks(sz).zip(want.chunks(sz)).enumerate() {
        let mut gb = [0u8; 8];
        let mut wb = [0u8; 8];
        gb[..sz].copy_from_slice(g);
        wb[..sz].copy_from_slice(w);
        let (g, w) = (u64::from_le_bytes(gb), u64::from_le_bytes(wb));
        let ok = if is_nan(g, nbits) || is_nan(w, nbits) {
            is_nan(g, nbits) && is_nan(w, nbits)
        } else if ulps == 0 {
            g == w
        } else {
            (ordinal(g, nbits) - ordinal(w, nbits)).unsigned_abs() <= ulps as u128
        };
        if !ok {
            bad += 1;
            first.get_or_insert(format!("element {i}: got {g:#x} want {w:#x}"));
        }
    }
    first.map(|f| format!("{f} ({bad} elements differ under {rule})"))
}

fn code_object(r: &Run, w: &str) -> PathBuf {
    corpus()
        .join(format!("gfx1100-{w}"))
        .join(format!("{}.hsaco", r.object))
}

/// Runs `r` for wave size `w` through the Rust API; Ok(()) if every expectation holds.
fn run_api(r: &Run, w: &str) -> Result<(), String> {
    run_api_threads(r, w, 1)
}

/// [`run_api`] with workgroups on `threads` host threads.
fn run_api_threads(r: &Run, w: &str, threads: usize) -> Result<(), String> {
    let data = corpus().join("data");
    let specs: Vec<ArgSpec> = r
        .args
        .iter()
        .map(|a| parse_spec(a).map(|s| s.relative_to(&data)))
        .collect::<Result<_, _>>()?;
    let mut dev = Device::new();
    dev.max_wave_instructions = 2_000_000;
    dev.threads = threads;
    if let Some(o) = &r.offset {
        dev.global_offset[..o.len()].copy_from_slice(o);
    }
    let bytes = std::fs::read(code_object(r, w)).map_err(|e| e.to_string())?;
    let module = dev.load(&bytes).map_err(|e| e.to_string())?;
    let geo = Geometry::new(&r.global, &r.local).map_err(|e| e.to_string())?;
    let out = run_specs(&mut dev, &module, &r.kernel, &geo, &specs).map_err(|e| e.to_string())?;
    for (i, file, rule) in expectations(r, w) {
        let want = std::fs::read(&file).map_err(|e| format!("{}: {e}", file.display()))?;
        let got = out
            .buffers
            .get(i)
            .and_then(|b| b.as_ref())
            .ok_or_else(|| format!("argument {i} is not a buffer"))?;
        if let Some(d) = compare(got, &want, &rule) {
            return Err(format!("argument {i}: {d}"));
        }
    }
    Ok(())
}

/// Runs `r` through `wavesim run`, writing the checked buffers to files.
fn run_cli(r: &Run, w: &str, tmp: &Path) -> Result<(), String> {
    let checks = expectations(r, w);
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_wavesim"));
    cmd.current_dir(corpus().join("data"))
        .arg("run")
        .arg(code_object(r, w))
        .arg("--kernel")
        .arg(&r.kernel)
        .arg("--global")
        .arg(
            r.global
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(","),
        )
        .arg("--local")
        .arg(
            r.local
                .iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(","),
        )
        .arg("--max-instructions")
        .arg("2000000");
    if let Some(o) = &r.offset {
        cmd.arg("--offset").arg(
            o.iter()
                .map(|v| v.to_string())
                .collect::<Vec<_>>()
                .join(","),
        );
    }
    let mut outs = Vec::new();
    for (i, a) in r.args.iter().enumerate() {
        let spec = match checks.iter().find(|c| c.0 == i) {
            Some(_) => {
                let out = tmp.join(format!("{}.{w}.a{i}.out", r.name));
                outs.push((i, out.clone()));
                format!("{a}:{}", out.display())
            }
            None => a.clone(),
        };
        cmd.arg("--arg").arg(spec);
    }
    let o = cmd.output().map_err(|e| e.to_string())?;
    if !o.status.success() {
        return Err(format!(
            "exit {:?}: {}",
            o.status.code(),
            String::from_utf8_lossy(&o.stderr).trim()
        ));
    }
    for (i, file, rule) in checks {
        let want = std::fs::read(&file).map_err(|e| e.to_string())?;
        let out = &outs.iter().find(|x| x.0 == i).unwrap().1;
        let got = std::fs::read(out).map_err(|e| format!("{}: {e}", out.display()))?;
        if let Some(d) = compare(&got, &want, &rule) {
            return Err(format!("argument {i}: {d}"));
        }
    }
    Ok(())
}

/// Runs `f` over `jobs` on two threads (CI machines have two cores).
fn parallel<T: Sync, R: Send>(jobs: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, R)>> = Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= jobs.len() {
                    break;
                }
                // A panic inside wavesim would be a bug: report it as that run's failure.
                let r = f(&jobs[i]);
                results.lock().unwrap().push((i, r));
            });
        }
    });
    let mut v = results.into_inner().unwrap();
    v.sort_by_key(|x| x.0);
    v.into_iter().map(|x| x.1).collect()
}

fn first_line(s: &str) -> String {
    let s = s.lines().next().unwrap_or("");
    if s.len() > 160 {
        format!("{}...", &s[..160])
    } else {
        s.to_string()
    }
}

#[test]
fn corpus_runs_through_the_rust_api() {
    let runs = runs();
    assert!(!runs.is_empty());
    let jobs: Vec<(Run, &str)> = runs
        .iter()
        .flat_map(|r| [(r.clone(), "w32"), (r.clone(), "w64")])
        .collect();
    let results = parallel(&jobs, |(r, w)| {
        std::panic::catch_unwind(|| run_api(r, w))
            .unwrap_or_else(|_| Err("PANIC inside wavesim".to_string()))
    });
    let expected = expected_pass();
    let mut passed = 0;
    let mut regressions = Vec::new();
    let mut new_passes = Vec::new();
    println!("\n{:<34} {:<4} result", "run", "wave");
    for ((r, w), res) in jobs.iter().zip(&results) {
        let key = (r.name.clone(), w.to_string());
        match res {
            Ok(()) => {
                passed += 1;
                println!("{:<34} {:<4} pass", r.name, w);
                if !expected.contains(&key) {
                    new_passes.push(format!("{} {w}", r.name));
                }
            }
            Err(e) => {
                println!("{:<34} {:<4} FAIL {}", r.name, w, first_line(e));
                if expected.contains(&key) {
                    regressions.push(format!("{} {w}: {e}", r.name));
                }
            }
        }
    }
    println!(
        "\ncorpus (Rust API): {passed} of {} runs pass; {} listed in tests/corpus_pass.txt",
        jobs.len(),
        expected.len()
    );
    if !new_passes.is_empty() {
        println!("passing but not yet listed in tests/corpus_pass.txt (add them):");
        for p in &new_passes {
            println!("{p}");
        }
    }
    let unknown: Vec<_> = expected
        .iter()
        .filter(|(r, w)| !jobs.iter().any(|(j, jw)| &j.name == r && jw == w))
        .collect();
    assert!(
        unknown.is_empty(),
        "corpus_pass.txt names unknown runs: {unknown:?}"
    );
    assert!(
        regressions.is_empty(),
        "runs listed as passing fail:\n{}",
        regressions.join("\n")
    );
}

#[test]
fn corpus_runs_through_the_cli() {
    let runs = runs();
    let expected = expected_pass();
    let jobs: Vec<(Run, &str)> = runs
        .iter()
        .flat_map(|r| [(r.clone(), "w32"), (r.clone(), "w64")])
        .filter(|(r, w)| expected.contains(&(r.name.clone(), w.to_string())))
        .collect();
    let tmp = std::env::temp_dir().join(format!("wavesim-corpus-cli-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let results = parallel(&jobs, |(r, w)| run_cli(r, w, &tmp));
    let mut failures = Vec::new();
    for ((r, w), res) in jobs.iter().zip(&results) {
        if let Err(e) = res {
            failures.push(format!("{} {w}: {e}", r.name));
        }
    }
    let _ = std::fs::remove_dir_all(&tmp);
    println!(
        "corpus (wavesim run): {} of {} listed runs pass",
        jobs.len() - failures.len(),
        jobs.len()
    );
    assert!(
        failures.is_empty(),
        "wavesim run failed:\n{}",
        failures.join("\n")
    );
}

/// Workgroups on several host threads give the reference results too (race-free kernels, and
/// kernels whose atomics commute), for the listed runs with many workgroups.
#[test]
fn listed_runs_pass_with_parallel_workgroups() {
    let expected = expected_pass();
    let jobs: Vec<(Run, &str)> = runs()
        .into_iter()
        .flat_map(|r| [(r.clone(), "w32"), (r, "w64")])
        .filter(|(r, w)| expected.contains(&(r.name.clone(), w.to_string())))
        .filter(|(r, _)| {
            let wgs: u64 = r
                .global
                .iter()
                .zip(&r.local)
                .map(|(g, l)| g.div_ceil(*l) as u64)
                .product();
            wgs >= 4
        })
        .collect();
    let mut failures = Vec::new();
    for (r, w) in &jobs {
        if let Err(e) = run_api_threads(r, w, 3) {
            failures.push(format!("{} {w}: {e}", r.name));
        }
    }
    println!(
        "parallel workgroups: {} of {} listed runs pass",
        jobs.len() - failures.len(),
        jobs.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn comparison_rules() {
    // exact
    assert!(compare(&[1, 2], &[1, 2], "exact").is_none());
    assert!(compare(&[1, 2], &[1, 3], "exact").is_some());
    // ulp:1:f32: 1.0 vs next float up passes, two steps fails; +0 vs -0 passes; NaNs match.
    let f = |v: &[u32]| v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
    assert!(compare(&f(&[0x3f80_0000]), &f(&[0x3f80_0001]), "ulp:1:f32").is_none());
    assert!(compare(&f(&[0x3f80_0000]), &f(&[0x3f80_0002]), "ulp:1").is_some());
    assert!(compare(&f(&[0x8000_0000]), &f(&[0]), "ulp:1:f32").is_none());
    assert!(compare(&f(&[0x7fc0_0000]), &f(&[0x7fc0_0001]), "exact_nan:f32").is_none());
    assert!(compare(&f(&[0x7fc0_0000]), &f(&[0x3f80_0000]), "ulp:9:f32").is_some());
    // -1 ulp across zero: smallest negative subnormal vs +0 is one step.
    assert!(compare(&f(&[0x8000_0001]), &f(&[0]), "ulp:1:f32").is_none());
    // f16 two-byte elements.
    assert!(compare(&[0x00, 0x3c], &[0x01, 0x3c], "ulp:1:f16").is_none());
}
