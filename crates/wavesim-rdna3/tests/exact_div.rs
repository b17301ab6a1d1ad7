//! v_div_scale_f32/f64 and v_div_fmas_f32/f64 as RDNA3 silicon computes them.
//!
//! Expected values: the RDNA3 ISA guide's V_DIV_SCALE / V_DIV_FMAS pseudocode, corrected where
//! measurements on RDNA3 hardware differ (tinygrad `test/amd/hw/test_vop3.py`, classes
//! TestDivScale, TestDivFmas, TestDivScaleF64, TestDivFmasF64; those ran wave32 under a
//! default kernel descriptor, MODE = f32 denormals flushed, f16/f64 denormals kept). See
//! docs/EXACTNESS.md. Every case runs in wave32 and wave64, one case per lane (so VCC differs
//! per lane), with the mask written to VCC and to an SGPR pair.
//! Words from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding`.

use wavesim_rdna3::testing::Harness;

/// MODE of a default kernel descriptor: round to nearest even, f32 denormals flushed
/// (.amdhsa_float_denorm_mode_32 = 0), f16/f64 denormals kept (mode_16_64 = 3), DX10_CLAMP, IEEE.
const MODE_KD_DEFAULT: u32 = 0xc0 | 1 << 8 | 1 << 9;
/// The same with f32 denormals kept.
const MODE_DENORM: u32 = 0xf0 | 1 << 8 | 1 << 9;
const VCC_LO: usize = 106;
const VCC_HI: usize = 107;

const DIV_SCALE_F32_VCC: [u32; 2] = [0xd6fc6a02, 0x04020300]; // v_div_scale_f32 v2, vcc_lo, v0, v1, v0 (wave64: vcc)
const DIV_SCALE_F32_S10: [u32; 2] = [0xd6fc0a02, 0x04020300]; // v_div_scale_f32 v2, s10, v0, v1, v0
const DIV_SCALE_F64_VCC: [u32; 2] = [0xd6fd6a04, 0x04020500]; // v_div_scale_f64 v[4:5], vcc_lo, v[0:1], v[2:3], v[0:1]
const DIV_FMAS_F32: [u32; 2] = [0xd6370003, 0x040a0300]; // v_div_fmas_f32 v3, v0, v1, v2
const DIV_FMAS_F64: [u32; 2] = [0xd6380006, 0x04120500]; // v_div_fmas_f64 v[6:7], v[0:1], v[2:3], v[4:5]
const DIV_FMAS_F32_SGPR_CONST: [u32; 2] = [0xd6370003, 0x03ca0200]; // v_div_fmas_f32 v3, s0, v1, 1.0

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn p2(e: i32) -> f32 {
    2f32.powi(e)
}

fn harness(w64: bool, mode: u32) -> Harness {
    let mut h = Harness::new(w64);
    h.wave.hw.mode = mode;
    h
}

fn mask_of(h: &Harness, lo: usize) -> u64 {
    let m = h.s(lo) as u64;
    if h.wave.lanes() == 64 {
        m | (h.s(lo + 1) as u64) << 32
    } else {
        m
    }
}

/// (numerator n, denominator d, result of v_div_scale(n, d, n), VCC bit): the numerator call
/// of LLVM's expansion, S0 = S2 = n, S1 = d.
fn f32_cases() -> Vec<(u32, u32, Option<u32>, bool)> {
    vec![
        // No scaling: S0 unchanged, VCC 0 (TestDivScale vcc_zero, preserves_input).
        (f(1.0), f(4.0), Some(f(1.0)), false),
        (f(2.0), f(4.0), Some(f(2.0)), false),
        // Zero denominator or numerator: NaN and VCC 1 (measured; the guide leaves VCC 0).
        (f(1.0), f(0.0), None, true),
        (f(0.0), f(1.0), None, true),
        (f(-0.0), f(-3.0), None, true),
        // Denormal denominator with f32 denormals flushed: it is a zero, NaN and VCC 1.
        (f(1.0), 0x0000_0001, None, true),
        // Tiny numerator (exponent field 1 <= 23): scaled by 2^64, VCC 1 (measured); the
        // quotient 2^-126 / 1.0 may be denormal judged from the exponents.
        (0x0080_0000, f(1.0), Some(f(p2(-126 + 64))), true),
        // Quotient would be denormal with 1/S1 denormal (S1 = 2^127): VCC 1, S0 kept.
        (f(1.0), 0x7f00_0000, Some(f(1.0)), true),
        // Quotient denormal, ordinary denominator: the numerator is scaled up by 2^64.
        (f(1e-30), f(3e10), Some(f(1e-30 * p2(64))), true),
        // Ordinary quotient, tiny numerator and small denominator (exponent gap > -126):
        // the guide's "numerator is tiny" branch, both operands scaled, VCC 0.
        (f(p2(-110)), f(p2(-100)), Some(f(p2(-46))), false),
    ]
}

#[test]
fn div_scale_f32_numerator_call_per_lane() {
    let cases = f32_cases();
    let n = cases.len();
    for w64 in [false, true] {
        for words in [DIV_SCALE_F32_VCC, DIV_SCALE_F32_S10] {
            let mut h = harness(w64, MODE_KD_DEFAULT);
            h.set_v(0, |l| cases[l % n].0);
            h.set_v(1, |l| cases[l % n].1);
            let lo = if words == DIV_SCALE_F32_VCC {
                VCC_LO
            } else {
                10
            };
            h.wave.sgpr[lo] = 0x5a5a_5a5a;
            h.wave.sgpr[lo + 1] = 0xa5a5_a5a5;
            h.run(&words).unwrap();
            let mut want_mask = 0u64;
            for l in 0..h.wave.lanes() {
                let (a, b, want, bit) = cases[l % n];
                want_mask |= (bit as u64) << l;
                let got = h.v(2, l);
                match want {
                    Some(w) => assert_eq!(got, w, "wave64={w64} lane {l}: {a:#x} / {b:#x}"),
                    None => assert!(f32::from_bits(got).is_nan(), "wave64={w64} lane {l}"),
                }
            }
            assert_eq!(mask_of(&h, lo), want_mask, "wave64={w64} sdst s{lo}");
            if !w64 {
                // wave32 writes only the low SGPR of the pair.
                assert_eq!(h.s(lo + 1), 0xa5a5_a5a5);
            }
        }
    }
}

/// The denominator call of LLVM's expansion, S0 = S1 = d, S2 = n.
#[test]
fn div_scale_f32_denominator_call() {
    // (n, d, result, vcc)
    let cases: [(u32, u32, u32, bool); 5] = [
        // exponent(S2) - exponent(S1) >= 96 with S0 == S1: the denominator is scaled by 2^64
        // and VCC set (TestDivScale large_exp_diff_scales_denom).
        (0x7f7f_ffff, f(1.0), f(p2(64)), true),
        // Quotient denormal: the denominator call leaves S0 and sets VCC.
        (f(1e-30), f(3e10), f(3e10), true),
        // Huge denominator (1/S1 denormal) alone: both calls scale down by 2^64.
        (f(1e30), 0x7f00_0000, f(p2(127 - 64)), false),
        // Tiny numerator: both operands scaled up by 2^64, VCC 0.
        (f(p2(-110)), f(p2(-100)), f(p2(-36)), false),
        (f(6.0), f(3.0), f(3.0), false),
    ];
    for w64 in [false, true] {
        let mut h = harness(w64, MODE_KD_DEFAULT);
        // v_div_scale_f32 v2, vcc, v0, v1, v0 with v0 = d, v1 = d ... S2 must be n: use the
        // s10 form with registers v0 = S0 = d, v1 = S1 = d, v2 = S2 = n:
        // v_div_scale_f32 v3, s10, v0, v1, v2
        h.set_v(0, |l| cases[l % 5].1);
        h.set_v(1, |l| cases[l % 5].1);
        h.set_v(2, |l| cases[l % 5].0);
        h.run(&[0xd6fc0a03, 0x040a0300]).unwrap(); // v_div_scale_f32 v3, s10, v0, v1, v2
        let mut want_mask = 0u64;
        for l in 0..h.wave.lanes() {
            let (_, _, want, bit) = cases[l % 5];
            want_mask |= (bit as u64) << l;
            assert_eq!(h.v(3, l), want, "wave64={w64} lane {l}");
        }
        assert_eq!(mask_of(&h, 10), want_mask, "wave64={w64}");
    }
}

/// With f32 denormals kept, a denormal denominator is not a zero. The guide's branch order
/// decides: 1.0 / 2^-149 has an exponent-field gap of 127 >= 96 (VCC 1, S0 = S2 kept);
/// 2^-100 / 2^-149 (gap 27) takes "S1 is denormal": S0 scaled by 2^64, VCC 0.
#[test]
fn div_scale_f32_denormal_denominator_with_denormals_on() {
    for w64 in [false, true] {
        let mut h = harness(w64, MODE_DENORM);
        h.set_v(0, |l| if l % 2 == 0 { f(1.0) } else { f(p2(-100)) });
        h.set_v(1, |_| 0x0000_0001);
        h.run(&DIV_SCALE_F32_VCC).unwrap();
        for l in 0..h.wave.lanes() {
            let want = if l % 2 == 0 { f(1.0) } else { f(p2(-36)) };
            assert_eq!(h.v(2, l), want, "wave64={w64} lane {l}");
        }
        assert_eq!(
            mask_of(&h, VCC_LO),
            0x5555_5555_5555_5555 & mask_of_lanes(w64)
        );
    }
}

fn mask_of_lanes(w64: bool) -> u64 {
    if w64 {
        u64::MAX
    } else {
        0xffff_ffff
    }
}

fn set_d(h: &mut Harness, r: usize, x: impl Fn(usize) -> f64) {
    h.set_v(r, |l| x(l).to_bits() as u32);
    h.set_v(r + 1, |l| (x(l).to_bits() >> 32) as u32);
}

fn d(h: &Harness, r: usize, l: usize) -> f64 {
    f64::from_bits(h.v(r, l) as u64 | (h.v(r + 1, l) as u64) << 32)
}

/// TestDivScaleF64: normal values keep S0 with VCC 0; zero denominators give NaN with VCC 1,
/// lane by lane (lanes 1 and 3 of every 4 divide by zero).
#[test]
fn div_scale_f64_per_lane_vcc() {
    for w64 in [false, true] {
        let mut h = harness(w64, MODE_KD_DEFAULT);
        set_d(&mut h, 0, |l| 2.0 + (l % 7) as f64);
        set_d(
            &mut h,
            2,
            |l| if l % 4 == 1 || l % 4 == 3 { 0.0 } else { 2.0 },
        );
        h.wave.sgpr[VCC_LO] = 0xffff_ffff;
        h.wave.sgpr[VCC_HI] = 0xffff_ffff;
        h.run(&DIV_SCALE_F64_VCC).unwrap();
        let mut want_mask = 0u64;
        for l in 0..h.wave.lanes() {
            if l % 2 == 1 {
                want_mask |= 1 << l;
                assert!(d(&h, 4, l).is_nan(), "wave64={w64} lane {l}");
            } else {
                assert_eq!(d(&h, 4, l), 2.0 + (l % 7) as f64, "wave64={w64} lane {l}");
            }
        }
        assert_eq!(mask_of(&h, VCC_LO), want_mask, "wave64={w64}");
        if !w64 {
            assert_eq!(h.s(VCC_HI), 0xffff_ffff, "wave32 leaves VCC_HI");
        }
        // sqrt(2) / sqrt(2) style call: S0 = S1 = sqrt2, S2 = 1.0, no scaling.
        let mut h = harness(w64, MODE_KD_DEFAULT);
        set_d(&mut h, 0, |_| std::f64::consts::SQRT_2);
        set_d(&mut h, 2, |_| 1.0);
        // v_div_scale_f64 v[4:5], vcc, v[0:1], v[0:1], v[2:3]
        h.run(&[0xd6fd6a04, 0x040a0100]).unwrap();
        assert_eq!(d(&h, 4, 0), std::f64::consts::SQRT_2);
        assert_eq!(mask_of(&h, VCC_LO), 0);
        // Tiny f64 numerator 2^-1022 / 1.0 sets VCC and scales by 2^128 (the f64 twin of the
        // measured f32 case), and the exponent-gap branch scales the denominator by 2^128.
        let mut h = harness(w64, MODE_KD_DEFAULT);
        set_d(
            &mut h,
            0,
            |l| if l % 2 == 0 { f64::MIN_POSITIVE } else { 1.0 },
        );
        set_d(&mut h, 2, |_| 1.0);
        set_d(&mut h, 6, |l| {
            if l % 2 == 0 {
                f64::MIN_POSITIVE
            } else {
                f64::MAX
            }
        });
        // v_div_scale_f64 v[4:5], vcc, v[0:1], v[2:3], v[6:7]
        h.run(&[0xd6fd6a04, 0x041a0500]).unwrap();
        for l in 0..h.wave.lanes() {
            let want = if l % 2 == 0 {
                f64::MIN_POSITIVE * 2f64.powi(128)
            } else {
                2f64.powi(128)
            };
            assert_eq!(d(&h, 4, l), want, "wave64={w64} lane {l}");
        }
        let all = if w64 { u64::MAX } else { 0xffff_ffff };
        assert_eq!(mask_of(&h, VCC_LO), all);
    }
}

/// v_div_fmas_f32: VCC 0 is a plain fma; VCC 1 scales by 2^+64 when |S2| >= 2.0 and by 2^-64
/// when |S2| < 2.0 (TestDivFmas no_scale, scale_up, scale_down, per_lane_vcc). Lanes take the
/// VCC bit pattern 0b0101 repeated, plus one lane group per (a, b, c) triple.
#[test]
fn div_fmas_f32_scale_follows_vcc_and_s2_per_lane() {
    let triples: [(f32, f32, f32); 4] = [
        (1.0, 1.0, 2.0),
        (2.0, 3.0, 1.0),
        (1.0, 1.0, 1.0),
        (-1.0, 1.0, -4.0),
    ];
    for w64 in [false, true] {
        let mut h = harness(w64, MODE_KD_DEFAULT);
        h.set_v(0, |l| f(triples[(l / 2) % 4].0));
        h.set_v(1, |l| f(triples[(l / 2) % 4].1));
        h.set_v(2, |l| f(triples[(l / 2) % 4].2));
        let vcc = 0x5555_5555_5555_5555u64 & !(1 << 40);
        h.wave.sgpr[VCC_LO] = vcc as u32;
        h.wave.sgpr[VCC_HI] = (vcc >> 32) as u32;
        h.run(&DIV_FMAS_F32).unwrap();
        for l in 0..h.wave.lanes() {
            let (a, b, c) = triples[(l / 2) % 4];
            let fma = a.mul_add(b, c);
            let want = if vcc >> l & 1 == 0 {
                fma
            } else if c.abs() >= 2.0 {
                fma * p2(64)
            } else {
                fma * p2(-64)
            };
            assert_eq!(h.v(3, l), f(want), "wave64={w64} lane {l} ({a}, {b}, {c})");
        }
    }
}

/// The same rule with an SGPR and an inline constant as S0 / S2 (the VCC bit still comes from
/// VCC; S2 = 1.0 scales down).
#[test]
fn div_fmas_f32_scalar_and_constant_operands() {
    for w64 in [false, true] {
        let mut h = harness(w64, MODE_KD_DEFAULT);
        h.wave.sgpr[0] = f(3.0);
        h.set_v(1, |l| f(l as f32));
        h.wave.sgpr[VCC_LO] = 0xaaaa_aaaa;
        h.wave.sgpr[VCC_HI] = 0xaaaa_aaaa;
        h.run(&DIV_FMAS_F32_SGPR_CONST).unwrap();
        for l in 0..h.wave.lanes() {
            let fma = 3.0f32.mul_add(l as f32, 1.0);
            let want = if l % 2 == 1 { fma * p2(-64) } else { fma };
            assert_eq!(h.v(3, l), f(want), "wave64={w64} lane {l}");
        }
    }
}

/// v_div_fmas_f64: 2^+128 when S2's exponent field exceeds 1023, else 2^-128
/// (TestDivFmasF64), per lane.
#[test]
fn div_fmas_f64_scale_follows_vcc_and_s2_per_lane() {
    let triples: [(f64, f64, f64); 3] = [(1.0, 1.0, 2.0), (2.0, 3.0, 1.0), (1.0, 1.0, 1.0)];
    for w64 in [false, true] {
        let mut h = harness(w64, MODE_KD_DEFAULT);
        set_d(&mut h, 0, |l| triples[l % 3].0);
        set_d(&mut h, 2, |l| triples[l % 3].1);
        set_d(&mut h, 4, |l| triples[l % 3].2);
        let vcc = 0x0f0f_3333_5555_a5a5u64;
        h.wave.sgpr[VCC_LO] = vcc as u32;
        h.wave.sgpr[VCC_HI] = (vcc >> 32) as u32;
        h.run(&DIV_FMAS_F64).unwrap();
        for l in 0..h.wave.lanes() {
            let (a, b, c) = triples[l % 3];
            let fma = a.mul_add(b, c);
            let want = if vcc >> l & 1 == 0 {
                fma
            } else if c >= 2.0 {
                fma * 2f64.powi(128)
            } else {
                fma * 2f64.powi(-128)
            };
            assert_eq!(d(&h, 6, l), want, "wave64={w64} lane {l}");
        }
    }
}

/// div_scale writing VCC, then div_fmas reading it: the tan() pattern of TestDivScaleFmasF64
/// (normal values, VCC 0 in every lane, a plain fma).
#[test]
fn div_scale_then_div_fmas_f64() {
    for w64 in [false, true] {
        let mut h = harness(w64, MODE_KD_DEFAULT);
        set_d(&mut h, 0, |l| l as f64 + 2.0);
        set_d(&mut h, 2, |_| 1.0);
        h.run(&[
            0xd6fd6a04, 0x04020500, // v_div_scale_f64 v[4:5], vcc_lo, v[0:1], v[2:3], v[0:1]
            0xd6380008, 0x04120504, // v_div_fmas_f64 v[8:9], v[4:5], v[2:3], v[4:5]
        ])
        .unwrap();
        assert_eq!(mask_of(&h, VCC_LO), 0);
        for l in 0..h.wave.lanes() {
            assert_eq!(d(&h, 8, l), 2.0 * (l as f64 + 2.0), "wave64={w64} lane {l}");
        }
    }
}

/// Scalar and constant operands: a uniform zero denominator in s0 gives NaN and VCC in every
/// active lane; a uniform denominator with per-lane numerators gives per-lane bits; inactive
/// lanes write 0 into the mask.
#[test]
fn div_scale_scalar_and_constant_operands() {
    for w64 in [false, true] {
        let mut h = harness(w64, MODE_KD_DEFAULT);
        h.wave.sgpr[0] = 0;
        let exec = 0xffff_0000_ffff_00ffu64;
        h.wave.set_exec(exec);
        h.run(&[0xd6fc0a02, 0x03c80000]).unwrap(); // v_div_scale_f32 v2, s10, s0, s0, 1.0
        let lanes = if w64 { u64::MAX } else { 0xffff_ffff };
        assert_eq!(mask_of(&h, 10), exec & lanes, "wave64={w64}");
        for l in (0..h.wave.lanes()).filter(|l| exec >> l & 1 != 0) {
            assert!(f32::from_bits(h.v(2, l)).is_nan());
        }
        // v_div_scale_f32 v2, s10, v0, s0, v0 with s0 = 3e10: lanes with numerator 1e-30 have a
        // denormal quotient (VCC, scaled by 2^64); lanes with 1.0 do not.
        h.wave.set_exec(u64::MAX);
        h.wave.sgpr[0] = f(3e10);
        h.set_v(0, |l| if l % 3 == 0 { f(1e-30) } else { f(1.0) });
        h.run(&[0xd6fc0a02, 0x04000100]).unwrap();
        let mut want = 0u64;
        for l in 0..h.wave.lanes() {
            if l % 3 == 0 {
                want |= 1 << l;
                assert_eq!(h.v(2, l), f(1e-30 * p2(64)), "lane {l}");
            } else {
                assert_eq!(h.v(2, l), f(1.0), "lane {l}");
            }
        }
        assert_eq!(mask_of(&h, 10), want, "wave64={w64}");
    }
}

/// v_div_fmas with input modifiers: the scale follows S2 after its modifiers (here none) and
/// the fma uses -S0 * |S1|.
#[test]
fn div_fmas_with_modifiers() {
    for w64 in [false, true] {
        let mut h = harness(w64, MODE_KD_DEFAULT);
        h.set_v(0, |_| f(2.0));
        h.set_v(1, |_| f(-3.0));
        h.set_v(2, |l| f(if l % 2 == 0 { 10.0 } else { 1.0 }));
        h.wave.sgpr[VCC_LO] = u32::MAX;
        h.wave.sgpr[VCC_HI] = u32::MAX;
        h.run(&[0xd6370203, 0x240a0300]).unwrap(); // v_div_fmas_f32 v3, -v0, |v1|, v2
        for l in 0..h.wave.lanes() {
            let want = if l % 2 == 0 {
                (-6.0f32 + 10.0) * p2(64)
            } else {
                (-6.0f32 + 1.0) * p2(-64)
            };
            assert_eq!(h.v(3, l), f(want), "wave64={w64} lane {l}");
        }
    }
}
