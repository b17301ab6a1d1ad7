//! `sin_pt_1`, `sin_pt_2`, `rsqrt_special`: no public source gives the M1's approximations, so by
//! default they stop with a typed error; under the explicit opt-in they compute the documented intent
//! (applegpu's notes; Mesa's lowerings `fsqrt = x * rsqrt_special(x)` and
//! `sin = sin_pt_1(q) * sin_pt_2(sin_pt_1(q))` with q = 4 fract(x / tau)), and every execution is
//! counted and named.

mod common;

use wavesim_agx::exec::{Fault, WaveState, SIMD_WIDTH};
use wavesim_agx::runner::{run as run_job, RunConfig, RunError};

use common::run_asm as exec;

#[test]
fn off_by_default() {
    for name in ["sin_pt_1", "sin_pt_2", "rsqrt_special"] {
        let mut w = WaveState::new(4);
        match exec(&mut w, &format!("{name} r1, r0")) {
            Err(Fault::Unsupported { name: n }) => assert_eq!(n, name),
            other => panic!("{name}: {other:?}"),
        }
    }
}

/// sin_pt_1 folds q in [0, 4) to t in [-1, 1] (t = q, 2 - q, q - 4 by quadrant: exact in f32);
/// sin_pt_2(t) = sin(t pi/2) / t rounded to f32 (pi/2 at 0); their product is sin(q pi/2).
#[test]
fn sine_as_documented() {
    let qs: Vec<f32> = (0..SIMD_WIDTH).map(|l| l as f32 * 0.125).collect(); // 0 .. 3.875
    let mut w = WaveState::new(8);
    w.approximate = true;
    for (l, q) in qs.iter().enumerate() {
        w.set_reg32(0, l, q.to_bits());
    }
    exec(
        &mut w,
        "sin_pt_1 r1, r0\nsin_pt_2 r2, r1\nfmul32 r3, r1, r2",
    )
    .unwrap();
    for (l, &q) in qs.iter().enumerate() {
        let t = if q < 1.0 {
            q
        } else if q < 3.0 {
            2.0 - q
        } else {
            q - 4.0
        };
        assert_eq!(f32::from_bits(w.reg32(1, l)), t, "sin_pt_1({q})");
        let half_pi = std::f64::consts::FRAC_PI_2;
        let s = if t == 0.0 {
            half_pi
        } else {
            (f64::from(t) * half_pi).sin() / f64::from(t)
        } as f32;
        assert_eq!(f32::from_bits(w.reg32(2, l)), s, "sin_pt_2({t})");
        let sin = (f64::from(q) * half_pi).sin();
        let got = f64::from(f32::from_bits(w.reg32(3, l)));
        assert!((got - sin).abs() < 2e-7, "sin(q = {q}): {got} vs {sin}");
    }
    assert_eq!(w.approximated.get("sin_pt_1"), Some(&1));
    assert_eq!(w.approximated.get("sin_pt_2"), Some(&1));
}

/// x * rsqrt_special(x) = sqrt(x), the special cases included (rsqrt_special(+-0) = +0, of inf = inf).
#[test]
fn rsqrt_special_as_documented() {
    let xs = [4.0f32, 0.0, -0.0, f32::INFINITY, 0.25, -1.0, 2.0];
    let mut w = WaveState::new(8);
    w.approximate = true;
    for (l, x) in xs.iter().enumerate() {
        w.set_reg32(0, l, x.to_bits());
    }
    exec(&mut w, "rsqrt_special r1, r0\nfmul32 r2, r0, r1").unwrap();
    for (l, &x) in xs.iter().enumerate() {
        let got = f32::from_bits(w.reg32(2, l));
        let want = x.sqrt();
        if want.is_nan() {
            assert!(got.is_nan(), "sqrt({x})");
        } else if x == 2.0 {
            // 1/sqrt(2) rounded, times 2: within an ulp of sqrt(2)
            assert!((got - want).abs() <= f32::EPSILON * 2.0, "sqrt(2): {got}");
        } else {
            // as values: the sign of a zero product is fmul32's business
            assert_eq!(got, want, "sqrt({x}) = {got}");
        }
    }
    assert_eq!(w.approximated.get("rsqrt_special"), Some(&1));
}

/// The job file's opt-in: refused without it, counted and named with it (compute, vertex); not for
/// grid kernels.
#[test]
fn job_opt_in_is_counted_and_named() {
    let job = |extra: &str| {
        format!("kind = \"compute\"\n{extra}nr_gprs = 4\nasm = \"rsqrt_special r1, r0\\nrsqrt_special r2, r0\\nstop\"\n[compute]\ngrid = [64]\nlocal = [32]\n")
    };
    match run_job(&RunConfig::from_toml(&job("")).unwrap(), None) {
        Err(RunError::Dispatch(e)) => assert!(e.to_string().contains("rsqrt_special"), "{e}"),
        other => panic!("{other:?}"),
    }
    let r = run_job(
        &RunConfig::from_toml(&job("approximate = true\n")).unwrap(),
        None,
    )
    .unwrap();
    // two SIMD groups, two instructions each
    assert!(
        r.text.contains(
            "# approximated (documented intent, not the hardware's rule): rsqrt_special x4"
        ),
        "{}",
        r.text
    );
    // a vertex job: one group of 3 vertices, sin_pt_1 once
    let vertex = "kind = \"vertex\"\napproximate = true\nnr_gprs = 8\nasm = \"mov_imm r0, 0\\nsin_pt_1 r1, r0\\nstop\"\n[vertex]\nvertex_count = 3\n";
    let r = run_job(&RunConfig::from_toml(vertex).unwrap(), None).unwrap();
    assert!(r.text.contains("rule): sin_pt_1 x1"), "{}", r.text);
    // grid kernels take the opt-in too (tests/glsl_compute.rs runs Mesa-compiled ones under it);
    // this one stops for its missing [grid_kernel] table, not for the key
    let grid = "kind = \"grid_kernel\"\napproximate = true\nasm = \"stop\"\n";
    match run_job(&RunConfig::from_toml(grid).unwrap(), None) {
        Err(RunError::Config(what)) => assert!(what.contains("[grid_kernel]"), "{what}"),
        other => panic!("{other:?}"),
    }
}
