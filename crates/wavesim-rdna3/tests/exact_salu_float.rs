//! RDNA3.5 (gfx1150/gfx1151) SALU float instructions. Expected values follow the RDNA3.5 ISA
//! guide's pseudocode (IEEE results under MODE's rounding and denormal fields; min/max with
//! -0 < +0 and MODE.IEEE's NaN rules; conversions saturating, NaN to 0; compares setting SCC);
//! s_fmamk_f32 also as measured on gfx1150 hardware (tinygrad `test/amd/hw/test_sop.py`,
//! test_s_fmamk_f32: 2 * 3 + 1 = 7; test_s_fmamk_f32_negative: -2 * 4 + 10 = 2). SALU results
//! do not depend on the wave size; every case runs in wave32 and wave64. Words from
//! `llvm-mc-19 -arch=amdgcn -mcpu=gfx1150 -show-encoding`.

use wavesim_rdna3::exec::{ExecError, Program};
use wavesim_rdna3::isa::Target;
use wavesim_rdna3::testing::{Harness, S_ENDPGM};
use wavesim_rdna3::wave::Wave;

/// MODE: round to nearest even, all denormals kept, DX10_CLAMP, IEEE.
const MODE_DENORM: u32 = 0xf0 | 1 << 8 | 1 << 9;
/// MODE of a default kernel descriptor: f32 denormals flushed.
const MODE_FLUSH32: u32 = 0xc0 | 1 << 8 | 1 << 9;

fn run_mode(
    words: &[u32],
    s: &[u32],
    w64: bool,
    mode: u32,
    target: Target,
) -> Result<Wave, ExecError> {
    let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    bytes.extend_from_slice(&S_ENDPGM.to_le_bytes());
    let prog = Program::new_for(&bytes, 0, target).map_err(|e| ExecError::Other(e.to_string()))?;
    let mut h = Harness::new(w64);
    h.wave.hw.mode = mode;
    h.wave.sgpr[2] = 0xdead_beef;
    h.wave.sgpr[..s.len()].copy_from_slice(s);
    h.wave.scc = true;
    h.wave.pc = 0;
    h.run_program(&prog, 100)?;
    Ok(h.wave)
}

/// Runs `words` (gfx1150) with s0, s1, s2 = `s`; returns s2 and SCC, checked equal in both
/// wave sizes.
fn run(words: &[u32], s: &[u32]) -> (u32, bool) {
    run_m(words, s, MODE_DENORM)
}

fn run_m(words: &[u32], s: &[u32], mode: u32) -> (u32, bool) {
    let a = run_mode(words, s, false, mode, Target::Gfx1150).unwrap();
    let b = run_mode(words, s, true, mode, Target::Gfx1150).unwrap();
    assert_eq!((a.sgpr[2], a.scc), (b.sgpr[2], b.scc), "wave32 vs wave64");
    (a.sgpr[2], a.scc)
}

fn f(x: f32) -> u32 {
    x.to_bits()
}
fn h(x: f32) -> u32 {
    half::f16::from_f32(x).to_bits() as u32
}

const FMAMK: [u32; 2] = [0xa3020100, 0x40400000]; // s_fmamk_f32 s2, s0, 0x40400000, s1
const FMAAK: [u32; 2] = [0xa2820100, 0x40400000]; // s_fmaak_f32 s2, s0, s1, 0x40400000

#[test]
fn fma_forms() {
    // Measured on gfx1150: 2 * 3 + 1 = 7 and -2 * 4 + 10 = 2.
    assert_eq!(run(&FMAMK, &[f(2.0), f(1.0)]).0, f(7.0));
    assert_eq!(
        run(&[0xa3020100, 0x40800000], &[f(-2.0), f(10.0)]).0,
        f(2.0)
    );
    // s_fmaak_f32: S0 * S1 + K.
    assert_eq!(run(&FMAAK, &[f(2.0), f(5.0)]).0, f(13.0));
    // s_fmac_f32: D = S0 * S1 + D (s2 = D).
    let (d, scc) = run(&[0xa3820100], &[f(1.5), f(4.0), f(0.25)]);
    assert_eq!(d, f(6.25));
    assert!(scc, "arithmetic leaves SCC alone");
    // One rounding: (1 + 2^-12)^2 - 1 keeps the 2^-24 term of the exact product.
    let x = 1.0 + 2f32.powi(-12);
    assert_eq!(
        run(&[0xa3820100], &[f(x), f(x), f(-1.0)]).0,
        f(x.mul_add(x, -1.0))
    );
    // s_fmac_f16 on the low halves; the result is zero-extended.
    let (d, _) = run(
        &[0xa7020100],
        &[0xffff_0000 | h(1.5), h(2.0), 0xabcd_0000 | h(0.5)],
    );
    assert_eq!(d, h(3.5));
}

#[test]
fn arithmetic_rounding_and_modes() {
    let third = f(1.0 / 3.0);
    assert_eq!(run(&[0xa0020100], &[f(1.0), f(2.0)]).0, f(3.0)); // s_add_f32
    assert_eq!(run(&[0xa0820100], &[f(1.0), f(3.0)]).0, f(-2.0)); // s_sub_f32
    assert_eq!(
        run(&[0xa2020100], &[third, f(3.0)]).0,
        f((1.0f32 / 3.0) * 3.0)
    ); // s_mul_f32
    assert_eq!(
        run(&[0xa2020100], &[f(f32::MAX), f(2.0)]).0,
        f(f32::INFINITY)
    );
    // Inline constant 1.0 is the f32 1.0 for f32 ops and the f16 1.0 for f16 ops.
    assert_eq!(run(&[0xa00200f2], &[f(0.5)]).0, f(1.5)); // s_add_f32 s2, 1.0, s0
    assert_eq!(run(&[0xa48200f2], &[h(0.5)]).0, h(1.5)); // s_add_f16 s2, 1.0, s0
                                                         // f16 ops use the low halves, round in f16 and zero-extend.
    assert_eq!(
        run(&[0xa4820100], &[0x1234_0000 | h(1.0), h(2048.0)]).0,
        h(2048.0)
    ); // 2049 -> 2048
    assert_eq!(
        run(&[0xa6820100], &[h(300.0), h(300.0)]).0,
        h(f32::INFINITY)
    ); // s_mul_f16
       // Denormals: kept with MODE denormals on, flushed (input and output) with f32 flushing.
    let tiny = 0x0000_0010;
    assert_eq!(run_m(&[0xa0020100], &[tiny, tiny], MODE_DENORM).0, 0x20);
    assert_eq!(run_m(&[0xa0020100], &[tiny, tiny], MODE_FLUSH32).0, 0);
    // Round toward zero (MODE.FP_ROUND f32 = 3): 1 + 2^-24 + 2^-25... stays 1.0.
    let rtz = MODE_DENORM | 3;
    assert_eq!(
        run_m(&[0xa0020100], &[f(1.0), f(1.5 * 2f32.powi(-24))], rtz).0,
        f(1.0)
    );
    assert_eq!(
        run_m(
            &[0xa0020100],
            &[f(1.0), f(1.5 * 2f32.powi(-24))],
            MODE_DENORM
        )
        .0,
        0x3f80_0001
    );
}

#[test]
fn min_max_zero_sign_and_nan() {
    let qnan = 0x7fc0_0000;
    let snan = 0x7fa0_0000;
    assert_eq!(run(&[0xa1020100], &[f(-0.0), f(0.0)]).0, f(-0.0)); // s_min_f32
    assert_eq!(run(&[0xa1820100], &[f(-0.0), f(0.0)]).0, f(0.0)); // s_max_f32
    assert_eq!(run(&[0xa1020100], &[qnan, f(2.0)]).0, f(2.0));
    // MODE.IEEE: a signalling NaN input gives the quieted NaN.
    assert_eq!(run(&[0xa1820100], &[snan, f(2.0)]).0, 0x7fe0_0000);
    assert_eq!(run(&[0xa6020100], &[h(-1.0), h(3.0)]).0, h(3.0)); // s_max_f16
}

#[test]
fn conversions() {
    let cvt = |op: u32, x: u32| run(&[op], &[x]).0;
    const CVT_I32_F32: u32 = 0xbe826600;
    const CVT_U32_F32: u32 = 0xbe826700;
    assert_eq!(cvt(CVT_I32_F32, f(-2.7)), -2i32 as u32);
    assert_eq!(cvt(CVT_I32_F32, f(3e9)), i32::MAX as u32);
    assert_eq!(cvt(CVT_I32_F32, f(-3e9)), i32::MIN as u32);
    assert_eq!(cvt(CVT_I32_F32, 0x7fc0_0000), 0);
    assert_eq!(cvt(CVT_U32_F32, f(-1.0)), 0);
    assert_eq!(cvt(CVT_U32_F32, f(5e9)), u32::MAX);
    assert_eq!(cvt(0xbe826400, -7i32 as u32), f(-7.0)); // s_cvt_f32_i32
    assert_eq!(cvt(0xbe826500, u32::MAX), f(4294967296.0)); // s_cvt_f32_u32 rounds
    assert_eq!(cvt(0xbe826800, f(1.0 / 3.0)), h(1.0 / 3.0)); // s_cvt_f16_f32
    assert_eq!(cvt(0xbe826900, 0xffff_0000 | h(-2.5)), f(-2.5)); // s_cvt_f32_f16
    assert_eq!(cvt(0xbe826a00, h(0.75) << 16 | h(9.0)), f(0.75)); // s_cvt_hi_f32_f16
                                                                  // s_cvt_pk_rtz_f16_f32: toward zero, S0 in the low half.
    let (d, _) = run(&[0xa4020100], &[f(1.0 / 3.0), f(-65520.0)]);
    assert_eq!(d, 0x3555 | 0xfbff << 16);
}

#[test]
fn rounding_to_integers() {
    let r = |op: u32, x: f32| f32::from_bits(run(&[op], &[f(x)]).0);
    for x in [-2.5f32, -0.4, 0.5, 1.5, 2.5, 7.0] {
        assert_eq!(r(0xbe826000, x).to_bits(), x.ceil().to_bits(), "ceil {x}");
        assert_eq!(r(0xbe826100, x).to_bits(), x.floor().to_bits(), "floor {x}");
        assert_eq!(r(0xbe826200, x).to_bits(), x.trunc().to_bits(), "trunc {x}");
        assert_eq!(
            r(0xbe826300, x).to_bits(),
            x.round_ties_even().to_bits(),
            "rndne {x}"
        );
    }
    assert_eq!(run(&[0xbe826e00], &[h(2.5)]).0, h(2.0)); // s_rndne_f16
}

#[test]
fn compares_set_scc() {
    let nan = 0x7fc0_0000;
    let c = |op: u32, a: u32, b: u32| run(&[op], &[a, b]).1;
    const LT: u32 = 0xbf410100;
    const NGE: u32 = 0xbf490100;
    const O: u32 = 0xbf470100;
    const U: u32 = 0xbf480100;
    assert!(c(LT, f(1.0), f(2.0)));
    assert!(!c(LT, f(2.0), f(1.0)));
    assert!(!c(LT, nan, f(1.0)));
    assert!(c(NGE, nan, f(1.0)), "nge is true when unordered");
    assert!(!c(NGE, f(3.0), f(1.0)));
    assert!(c(O, f(1.0), f(-1.0)));
    assert!(!c(O, nan, f(1.0)));
    assert!(c(U, f(1.0), nan));
    assert!(
        c(0xbf520100, 0xaaaa_0000 | h(3.0), h(3.0)),
        "s_cmp_eq_f16 on low halves"
    );
    assert!(c(0xbf5e0100, h(2.0), h(1.0)), "s_cmp_nlt_f16");
    assert!(!c(0xbf5e0100, h(0.5), h(1.0)));
    // -0 == +0
    assert!(c(0xbf420100, f(-0.0), f(0.0)));
}

/// On gfx1100 the same words are illegal instructions, not SALU float math.
#[test]
fn rdna35_words_are_illegal_on_gfx1100() {
    let e = run_mode(
        &FMAMK,
        &[f(2.0), f(1.0)],
        false,
        MODE_DENORM,
        Target::Gfx1100,
    );
    assert!(
        matches!(e, Err(ExecError::InvalidInstruction { .. })),
        "{:?}",
        e.map(|w| w.sgpr[2])
    );
    // s_singleuse_vdst is a hint on gfx1150: nothing changes.
    let w = run_mode(&[0xbf930001], &[1, 2], true, MODE_DENORM, Target::Gfx1150).unwrap();
    assert_eq!(
        (w.sgpr[0], w.sgpr[1], w.sgpr[2], w.scc),
        (1, 2, 0xdead_beef, true)
    );
}
