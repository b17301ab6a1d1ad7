//! Every corpus shader runs, and its exports equal an independent host evaluation of the same IR:
//! corpus/r700/ref/NAME.txt, made by tools/r700/make_refs.py (the IR retargeted to the host, the
//! llvm.r600.* intrinsics modelled in tools/r700/host_runtime.c, run by lli-19) with the inputs in
//! corpus/r700/run/NAME.toml. Integer and IEEE add/mul results must be bit-exact; shaders whose IR uses
//! transcendental functions or division (which the R600 back end expands into RECIP/RSQ/EXP/LOG/SIN
//! sequences) are compared within the tolerance listed below, per shader.

use std::collections::BTreeMap;
use std::path::PathBuf;

use wavesim_r700::exec::ExportTarget;
use wavesim_r700::runner::{run, RunConfig};
use wavesim_r700::Shader;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/r700")
}

/// (max ulps, max absolute difference) per shader; (0, 0.0) = bit-exact.
fn tolerance(name: &str) -> (u32, f32) {
    match name {
        // a / b is MUL_IEEE(a, RECIP_IEEE(b)): two roundings.
        "ps_fdiv" => (2, 0.0),
        // sqrt(x) is RECIP_IEEE(RECIPSQRT_IEEE(x)); 1/sqrt adds a third rounding.
        "ps_sqrt" | "ps_rsq" => (3, 0.0),
        // exp2/log2 go through LLVM's denormal-range rescaling around EXP_IEEE/LOG_IEEE.
        "ps_exp_log" => (2, 1e-6),
        // pow = exp2(y * log2(x)): the log's rounding is scaled by y.
        "ps_pow" => (64, 1e-5),
        // sin/cos: LLVM reduces x/(2*pi) with FRACT in f32 before SIN/COS, an absolute error ~|x| * 2^-24.
        "ps_sin_cos" => (0, 2e-6),
        _ => (0, 0.0),
    }
}

fn close(a: u32, b: u32, (ulp, abs): (u32, f32)) -> bool {
    if a == b {
        return true;
    }
    let (x, y) = (f32::from_bits(a), f32::from_bits(b));
    if x.is_nan() && y.is_nan() {
        return true;
    }
    if (x - y).abs() <= abs {
        return true;
    }
    x.is_sign_negative() == y.is_sign_negative()
        && (a as i64 - b as i64).unsigned_abs() <= ulp as u64
}

fn parse_target(s: &str) -> ExportTarget {
    if let Some(n) = s.strip_prefix("pixel") {
        ExportTarget::Pixel(n.parse().unwrap())
    } else if let Some(n) = s.strip_prefix("pos") {
        ExportTarget::Position(n.parse().unwrap())
    } else if let Some(n) = s.strip_prefix("param") {
        ExportTarget::Parameter(n.parse().unwrap())
    } else if let Some(r) = s.strip_prefix("stream") {
        let (st, rest) = r.split_once('[').unwrap();
        ExportTarget::Stream(
            st.parse().unwrap(),
            rest.trim_end_matches(']').parse().unwrap(),
        )
    } else {
        panic!("unknown target {s}")
    }
}

type Expected = BTreeMap<usize, (bool, BTreeMap<ExportTarget, [Option<u32>; 4]>)>;

fn expected(name: &str) -> Expected {
    let text = std::fs::read_to_string(corpus().join("ref").join(format!("{name}.txt"))).unwrap();
    let mut m: Expected = BTreeMap::new();
    for line in text.lines() {
        let t: Vec<&str> = line.split_whitespace().collect();
        let th: usize = t[1].parse().unwrap();
        let e = m.entry(th).or_default();
        if t[2] == "killed" {
            e.0 = true;
            continue;
        }
        let v: Vec<Option<u32>> = t[3..7]
            .iter()
            .map(|x| {
                if *x == "_" {
                    None
                } else {
                    Some(u32::from_str_radix(x, 16).unwrap())
                }
            })
            .collect();
        e.1.insert(parse_target(t[2]), [v[0], v[1], v[2], v[3]]);
    }
    m
}

/// Compares a run's threads `first..` with the host reference; returns the number of components compared.
fn compare(
    chip: &str,
    name: &str,
    res: &wavesim_r700::runner::RunResult,
    first: usize,
    failures: &mut Vec<String>,
) -> usize {
    let exp = expected(name);
    let tol = tolerance(name);
    let mut compared = 0;
    for (k, got) in res.threads.iter().enumerate() {
        let t = first + k;
        let (killed, targets) = exp.get(&t).cloned().unwrap_or_default();
        if got.killed != killed {
            failures.push(format!(
                "{chip}/{name} thread {t}: killed = {}, host says {killed}",
                got.killed
            ));
            continue;
        }
        if killed {
            continue;
        }
        let mut last: BTreeMap<ExportTarget, [Option<u32>; 4]> = BTreeMap::new();
        for e in &got.exports {
            last.insert(e.target, e.value);
        }
        if last.keys().collect::<Vec<_>>() != targets.keys().collect::<Vec<_>>() {
            failures.push(format!(
                "{chip}/{name} thread {t}: targets {:?}, host {:?}",
                last.keys(),
                targets.keys()
            ));
            continue;
        }
        for (tg, want) in &targets {
            let g = last[tg];
            for c in 0..4 {
                let ok = match (g[c], want[c]) {
                    (Some(a), Some(b)) => close(a, b, tol),
                    (None, None) => true,
                    _ => false,
                };
                compared += 1;
                if !ok {
                    failures.push(format!(
                        "{chip}/{name} thread {t} {tg}.{}: got {:?} ({:?}), host {:?} ({:?})",
                        "xyzw".as_bytes()[c] as char,
                        g[c].map(|b| format!("{b:08x}")),
                        g[c].map(f32::from_bits),
                        want[c].map(|b| format!("{b:08x}")),
                        want[c].map(f32::from_bits)
                    ));
                }
            }
        }
    }
    compared
}

/// Each thread alone in its wave: every branch is then uniform, so the jump-taken paths of JUMP, ELSE,
/// LOOP_BREAK and LOOP_START (skipped when no pixel is active) run too.
#[test]
fn corpus_single_thread_waves_equal_host_evaluation() {
    let mut failures = Vec::new();
    let mut compared = 0;
    for name in names() {
        let obj = std::fs::read(corpus().join("obj/rv770").join(format!("{name}.o"))).unwrap();
        let sh = Shader::from_object_bytes(&obj).unwrap();
        let cfg = RunConfig::from_toml(
            &std::fs::read_to_string(corpus().join("run").join(format!("{name}.toml"))).unwrap(),
        )
        .unwrap();
        for t in 0..cfg.thread_count().unwrap() {
            let mut one = cfg.clone();
            one.threads = Some(1);
            for g in one.gpr.iter_mut() {
                g.values = vec![g.values[t].clone()];
            }
            match run(&sh, &one) {
                Ok(r) => compared += compare("rv770", &name, &r, t, &mut failures),
                Err(e) => failures.push(format!("{name} thread {t} alone: {e}")),
            }
        }
    }
    assert!(compared > 3000, "{compared}");
    assert!(
        failures.is_empty(),
        "{} mismatches:\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}

fn names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus().join("ll"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| {
            e.file_name()
                .to_string_lossy()
                .trim_end_matches(".ll")
                .to_string()
        })
        .collect();
    names.sort();
    names
}

#[test]
fn corpus_exports_equal_host_evaluation_on_all_chips() {
    let names = names();
    assert!(names.len() >= 40);
    let mut failures = Vec::new();
    let mut compared = 0;
    for chip in ["rv770", "rv730", "rv710"] {
        for name in &names {
            let obj =
                std::fs::read(corpus().join("obj").join(chip).join(format!("{name}.o"))).unwrap();
            let sh = Shader::from_object_bytes(&obj).unwrap();
            let cfg = RunConfig::from_toml(
                &std::fs::read_to_string(corpus().join("run").join(format!("{name}.toml")))
                    .unwrap(),
            )
            .unwrap();
            let res = match run(&sh, &cfg) {
                Ok(r) => r,
                Err(e) => {
                    failures.push(format!("{chip}/{name}: {e}"));
                    continue;
                }
            };
            compared += compare(chip, name, &res, 0, &mut failures);
        }
    }
    assert!(
        failures.is_empty(),
        "{} mismatches ({compared} components compared):\n{}",
        failures.len(),
        failures[..failures.len().min(40)].join("\n")
    );
}
