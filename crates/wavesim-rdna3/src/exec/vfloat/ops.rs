//! Per-lane semantics of the floating-point VALU ops, on raw bit patterns (RDNA3 ISA opcode
//! pseudocode). Inputs arrive with abs/neg already applied; each function applies MODE's input
//! flushing and rounding itself through `FpMode`.
//!
//! Transcendentals (rcp, rsq, sqrt, exp, log, sin, cos): the hardware guarantees about 1 ULP.
//! wavesim evaluates them in f64 (sqrt and division correctly rounded, exp2/log2/sin/cos to
//! within an f64 ULP) and rounds once to the destination, so results are the correctly rounded
//! value in all but rare near-tie cases and always within the ISA's 1 ULP. They honour denormal
//! flushing; rounding is to nearest even.

use super::soft::{self, exc, FpFmt, Round, F16, F32, F64};
use crate::exec::operand::FpMode;

/// An input operand flushed per MODE (raising the input-denormal / sNaN exceptions when
/// exceptions are being detected).
#[inline]
fn flush_in(f: FpFmt, x: u64, m: &FpMode) -> u64 {
    soft::input(f, x, &m.ctl(f))
}

#[inline]
fn raise(f: FpFmt, m: &FpMode, bits: u32) {
    soft::raise(&m.ctl(f), bits)
}

#[inline]
fn flush_out(f: FpFmt, x: u64, m: &FpMode) -> u64 {
    if m.ctl(f).ftz_out {
        f.flush(x)
    } else {
        x
    }
}

pub fn add(f: FpFmt, a: u64, b: u64, m: &FpMode) -> u64 {
    soft::add(f, a, b, &m.ctl(f))
}

pub fn sub(f: FpFmt, a: u64, b: u64, m: &FpMode) -> u64 {
    // a - b = a + (-b), except that a NaN b propagates with its own sign.
    if f.is_nan(b) && !f.is_nan(flush_in(f, a, m)) {
        return f.quiet(b);
    }
    soft::add(f, a, b ^ f.sign_bit(), &m.ctl(f))
}

pub fn mul(f: FpFmt, a: u64, b: u64, m: &FpMode) -> u64 {
    soft::mul(f, a, b, &m.ctl(f))
}

pub fn fma(f: FpFmt, a: u64, b: u64, c: u64, m: &FpMode) -> u64 {
    soft::fma(f, a, b, c, &m.ctl(f))
}

/// DX9 rule: 0 * anything (NaN, inf included) = +0.
pub fn mul_dx9(f: FpFmt, a: u64, b: u64, m: &FpMode) -> u64 {
    let (fa, fb) = (flush_in(f, a, m), flush_in(f, b, m));
    if f.is_zero(fa) || f.is_zero(fb) {
        return 0;
    }
    mul(f, a, b, m)
}

/// DX9 rule: if either factor is 0 the result is the addend unchanged.
pub fn fma_dx9(f: FpFmt, a: u64, b: u64, c: u64, m: &FpMode) -> u64 {
    let (fa, fb) = (flush_in(f, a, m), flush_in(f, b, m));
    if f.is_zero(fa) || f.is_zero(fb) {
        return c;
    }
    fma(f, a, b, c, m)
}

/// `a < b` with -0 < +0 (the ISA's LT_NEG_ZERO).
fn lt_neg_zero(f: FpFmt, a: u64, b: u64) -> bool {
    let (x, y) = (soft::to_f64(f, a), soft::to_f64(f, b));
    x < y || (x == 0.0 && y == 0.0 && f.sign(a) && !f.sign(b))
}

/// `a > b` with +0 > -0 (the ISA's GT_NEG_ZERO).
fn gt_neg_zero(f: FpFmt, a: u64, b: u64) -> bool {
    let (x, y) = (soft::to_f64(f, a), soft::to_f64(f, b));
    x > y || (x == 0.0 && y == 0.0 && !f.sign(a) && f.sign(b))
}

/// v_min_*/v_max_* (ISA pseudocode): with MODE.IEEE an sNaN input returns itself quieted and a
/// qNaN input returns the other operand; without it any NaN returns the other operand.
fn minmax(f: FpFmt, a: u64, b: u64, m: &FpMode, max: bool) -> u64 {
    let (a, b) = (flush_in(f, a, m), flush_in(f, b, m));
    if m.ieee {
        if f.is_snan(a) {
            return f.quiet(a);
        }
        if f.is_snan(b) {
            return f.quiet(b);
        }
    }
    if f.is_nan(b) {
        return flush_out(f, a, m);
    }
    if f.is_nan(a) {
        return flush_out(f, b, m);
    }
    let pick_a = if max {
        gt_neg_zero(f, a, b)
    } else {
        lt_neg_zero(f, a, b)
    };
    flush_out(f, if pick_a { a } else { b }, m)
}

pub fn min(f: FpFmt, a: u64, b: u64, m: &FpMode) -> u64 {
    minmax(f, a, b, m, false)
}

pub fn max(f: FpFmt, a: u64, b: u64, m: &FpMode) -> u64 {
    minmax(f, a, b, m, true)
}

/// v_med3_*: with any NaN input the result is min3; otherwise the median (ISA pseudocode,
/// comparing the max3 result with `==`, so -0 and +0 are equal there).
pub fn med3(f: FpFmt, a: u64, b: u64, c: u64, m: &FpMode) -> u64 {
    let (fa, fb, fc) = (flush_in(f, a, m), flush_in(f, b, m), flush_in(f, c, m));
    if f.is_nan(fa) || f.is_nan(fb) || f.is_nan(fc) {
        return min(f, min(f, a, b, m), c, m);
    }
    let mx = soft::to_f64(f, max(f, max(f, a, b, m), c, m));
    if mx == soft::to_f64(f, fa) {
        max(f, b, c, m)
    } else if mx == soft::to_f64(f, fb) {
        max(f, a, c, m)
    } else {
        max(f, a, b, m)
    }
}

/// Float to float conversion (input flushed per the source type, output rounded per the
/// destination type's MODE fields).
pub fn cvt(from: FpFmt, to: FpFmt, x: u64, m: &FpMode) -> u64 {
    soft::convert(from, to, flush_in(from, x, m), &m.ctl(to))
}

/// Float to integer: truncate toward zero, saturate to [lo, hi], NaN gives 0 (ISA f32_to_i32
/// and friends).
pub fn to_int(f: FpFmt, x: u64, m: &FpMode, lo: i64, hi: i64) -> u64 {
    let v = soft::to_f64(f, flush_in(f, x, m));
    if v.is_nan() {
        raise(f, m, exc::INVALID);
        return 0;
    }
    let t = v.trunc();
    if t < lo as f64 || t > hi as f64 {
        // Out of range (infinity included): saturated, an invalid conversion per IEEE.
        raise(f, m, exc::INVALID);
    }
    (t.clamp(lo as f64, hi as f64) as i64) as u64
}

/// Integer to float, rounded per MODE of the destination.
pub fn from_int(f: FpFmt, v: i64, m: &FpMode) -> u64 {
    soft::from_i64(f, v, &m.ctl(f))
}

/// f16_to_snorm / f32_to_snorm: clamp to [-1, 1], scale by 32767, round to nearest even; NaN 0.
pub fn to_snorm(f: FpFmt, x: u64, m: &FpMode) -> u64 {
    let v = soft::to_f64(f, flush_in(f, x, m));
    if v.is_nan() {
        return 0;
    }
    ((v.clamp(-1.0, 1.0) * 32767.0).round_ties_even() as i64 as u64) & 0xffff
}

/// f16_to_unorm / f32_to_unorm: clamp to [0, 1], scale by 65535, round to nearest even; NaN 0.
pub fn to_unorm(f: FpFmt, x: u64, m: &FpMode) -> u64 {
    let v = soft::to_f64(f, flush_in(f, x, m));
    if v.is_nan() {
        return 0;
    }
    (v.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u64
}

/// v_trunc/v_floor/v_ceil/v_rndne: exact, NaN quieted.
pub fn round_int(f: FpFmt, x: u64, rm: Round, m: &FpMode) -> u64 {
    // Rounding to an integral value is exact by definition (no inexact flag); flush_in raises
    // the input exceptions.
    flush_out(f, soft::round_int(f, flush_in(f, x, m), rm), m)
}

/// v_fract: S0 + -floor(S0), then capped at the largest value below 1.0. For a tiny negative
/// S0 the sum rounds up to 1.0; the hardware (CI and later) returns 0x3f7fffff (f32) instead,
/// the OpenCL `fmin(x - floor(x), 0x1.fffffep-1f)` definition: LLVM relies on it (its
/// `amdgcn.fract` constant folding applies that minimum, and it emits no clamp after v_fract
/// except on SI, whose v_fract lacked it). inf gives NaN (inf - inf).
pub fn fract(f: FpFmt, x: u64, m: &FpMode) -> u64 {
    let x = flush_in(f, x, m);
    if f.is_nan(x) {
        return f.quiet(x);
    }
    let fl = soft::round_int(f, x, Round::Down);
    let r = soft::add(f, x, fl ^ f.sign_bit(), &m.ctl(f));
    // The result is >= +0 unless NaN; 1.0 is the only value to cap.
    let below_one = ((f.bias() as u64) << f.mbits) - 1;
    if !f.is_nan(r) && r > below_one {
        below_one
    } else {
        r
    }
}

/// v_ldexp: S0 * 2^S1.
pub fn ldexp(f: FpFmt, x: u64, n: i32, m: &FpMode) -> u64 {
    soft::ldexp(f, x, n, &m.ctl(f))
}

/// v_frexp_mant: the significand scaled into [0.5, 1) with the sign of S0; inf/NaN return S0.
pub fn frexp_mant(f: FpFmt, x: u64, m: &FpMode) -> u64 {
    let x = flush_in(f, x, m);
    if f.is_nan(x) || f.is_inf(x) || f.is_zero(x) {
        return x;
    }
    let (s, _, mant) = f.unpack(x);
    // Normalise the significand so its MSB sits at the hidden-bit position, exponent -1.
    let lz = mant.leading_zeros() as i32 - (63 - f.mbits as i32);
    let norm = mant << lz;
    f.zero(s) | ((f.bias() - 1) as u64) << f.mbits | (norm & f.mant_mask())
}

/// v_frexp_exp: the exponent e with S0 = mant * 2^e, mant in [0.5, 1); 0 for inf/NaN/zero.
pub fn frexp_exp(f: FpFmt, x: u64, m: &FpMode) -> i32 {
    let x = flush_in(f, x, m);
    if f.is_nan(x) || f.is_inf(x) || f.is_zero(x) {
        return 0;
    }
    let (_, e, mant) = f.unpack(x);
    e + 64 - mant.leading_zeros() as i32
}

/// A special-case-free evaluation in f64 rounded into `f`; NaN inputs propagate quieted and a
/// NaN produced from a non-NaN input is the default NaN.
fn via_f64(f: FpFmt, x: u64, m: &FpMode, g: impl Fn(f64) -> f64) -> u64 {
    let x = flush_in(f, x, m);
    if f.is_nan(x) {
        return f.quiet(x);
    }
    let r = g(soft::to_f64(f, x));
    if r.is_nan() {
        // sqrt/log of a negative number, sin/cos of infinity.
        raise(f, m, exc::INVALID);
        return f.default_nan(true);
    }
    let c = m.ctl(f).with_round(Round::NearestEven);
    soft::from_f64(f, r, &c)
}

/// Raises divide-by-zero when the (flushed) input is zero: 1/0, rsq(0), log(0).
#[inline]
fn div0_if_zero(f: FpFmt, x: u64, m: &FpMode) {
    if m.detect && f.is_zero(f.flush_in(x, &m.ctl(f))) {
        raise(f, m, exc::DIV0);
    }
}

pub fn rcp(f: FpFmt, x: u64, m: &FpMode) -> u64 {
    div0_if_zero(f, x, m);
    via_f64(f, x, m, |v| 1.0 / v)
}

/// v_rcp_iflag_f32: the reciprocal of v_rcp_f32, but as a step of integer division it raises
/// only the integer divide-by-zero exception, never a float one (RDNA3 ISA V_RCP_IFLAG_F32:
/// "Can only raise integer DIV_BY_ZERO exception").
pub fn rcp_iflag(x: u64, m: &FpMode) -> u64 {
    if !m.detect {
        return rcp(F32, x, m);
    }
    let before = soft::take_flags();
    let r = rcp(F32, x, m);
    // Drop the float flags of this lane, keep those of earlier lanes.
    soft::take_flags();
    soft::raise(&m.f32, before);
    if F32.is_zero(F32.flush_in(x, &m.f32)) {
        raise(F32, m, exc::INT_DIV0);
    }
    r
}

pub fn sqrt(f: FpFmt, x: u64, m: &FpMode) -> u64 {
    via_f64(f, x, m, f64::sqrt)
}

/// 1/sqrt: rsq(-0) = -inf, rsq(+inf) = +0 (ISA examples).
pub fn rsq(f: FpFmt, x: u64, m: &FpMode) -> u64 {
    div0_if_zero(f, x, m);
    via_f64(f, x, m, |v| if v == 0.0 { 1.0 / v } else { 1.0 / v.sqrt() })
}

pub fn exp2(f: FpFmt, x: u64, m: &FpMode) -> u64 {
    via_f64(f, x, m, f64::exp2)
}

/// log2: log(±0) = -inf, log(negative) = NaN (ISA examples).
pub fn log2(f: FpFmt, x: u64, m: &FpMode) -> u64 {
    div0_if_zero(f, x, m);
    via_f64(f, x, m, |v| {
        if v == 0.0 {
            f64::NEG_INFINITY
        } else {
            v.log2()
        }
    })
}

/// sin/cos of 2*pi*S0 (S0 in revolutions). The argument is reduced exactly to a quarter turn
/// and a remainder in [-1/8, 1/8] turn, so quarter turns give exact 0 and ±1. An exact zero
/// from a non-zero input is +0; sin(±0) = ±0.
pub fn sincos(f: FpFmt, x: u64, m: &FpMode, cos: bool) -> u64 {
    let xf = flush_in(f, x, m);
    if !cos && f.is_zero(xf) {
        return xf;
    }
    via_f64(f, x, m, |v| {
        if v.is_infinite() {
            return f64::NAN;
        }
        let t = v * 4.0; // exact for every f16/f32 input and f64 below 2^1021
        let q = t.round_ties_even();
        let r = (t - q) * core::f64::consts::FRAC_PI_2;
        let quadrant = (q.rem_euclid(4.0)) as u32 + cos as u32;
        let res = match quadrant & 3 {
            0 => r.sin(),
            1 => r.cos(),
            2 => -r.sin(),
            _ => -r.cos(),
        };
        if res == 0.0 {
            0.0
        } else {
            res
        }
    })
}

/// v_cvt_off_f32_i4: S0[3:0] as a signed 4-bit integer divided by 16.
pub fn cvt_off_i4(x: u64) -> u64 {
    let v = ((x as u32) << 28) as i32 >> 28;
    (v as f32 / 16.0).to_bits() as u64
}

/// v_div_fixup (ISA pseudocode): S0 quotient, S1 denominator, S2 numerator.
pub fn div_fixup(f: FpFmt, q: u64, d: u64, n: u64, m: &FpMode) -> u64 {
    let (q, d, n) = (flush_in(f, q, m), flush_in(f, d, m), flush_in(f, n, m));
    let sign_out = f.sign(d) != f.sign(n);
    if f.is_nan(n) {
        return f.quiet(n);
    }
    if f.is_nan(d) {
        return f.quiet(d);
    }
    if (f.is_zero(d) && f.is_zero(n)) || (f.is_inf(d) && f.is_inf(n)) {
        // 0/0 and inf/inf.
        raise(f, m, exc::INVALID);
        return f.default_nan(true);
    }
    if f.is_zero(d) {
        // x/0 of a finite non-zero x (or of inf, which is exact and raises nothing).
        if !f.is_inf(n) {
            raise(f, m, exc::DIV0);
        }
        return f.inf(sign_out);
    }
    if f.is_inf(n) {
        return f.inf(sign_out);
    }
    if f.is_inf(d) || f.is_zero(n) {
        return f.zero(sign_out);
    }
    if f != F16 {
        // Quotient too small for the format: UNDERFLOW (zero); S1 inf/NaN already handled.
        let under = if f == F64 { -1075 } else { -150 };
        if (f.exp_field(n) as i64) - (f.exp_field(d) as i64) < under {
            return f.zero(sign_out);
        }
    }
    if f.is_nan(q) {
        // The quotient the macro computed overflowed on the way (inf - inf in its fma
        // refinements, e.g. 1e28 / 1e-31 where even the 2^64-scaled quotient exceeds the
        // range): the hardware returns OVERFLOW (signed infinity), not the NaN.
        return f.inf(sign_out);
    }
    f.zero(sign_out) | (q & f.abs_mask())
}

/// Scale used by v_div_scale / v_div_fmas (2^64 for f32, 2^128 for f64), then the exponent
/// gap and tiny-numerator thresholds of v_div_scale (RDNA3 ISA guide, V_DIV_SCALE_F32/F64).
fn scales(f: FpFmt) -> (i32, i64, i64) {
    if f == F64 {
        (128, 768, 53)
    } else {
        (64, 96, 23)
    }
}

/// The exponent of a nonzero finite value with denormals normalised (x = 1.m * 2^e).
fn true_exp(f: FpFmt, x: u64) -> i64 {
    let (_, e, m) = f.unpack(x);
    e as i64 + 63 - m.leading_zeros() as i64
}

/// v_div_scale (RDNA3 ISA guide pseudocode, corrected by hardware measurements): returns
/// (result, VCC bit). S0 is the value to scale (the numerator or the denominator), S1 the
/// denominator, S2 the numerator. The bit is per lane ("VCC = 0" of the pseudocode clears
/// only the lane's own bit, as every VOP3SD carry-out does).
///
/// Where the guide's text and the silicon differ, the measurements on RDNA3 hardware in
/// tinygrad's `test/amd/hw/test_vop3.py` (TestDivScale, TestDivScaleF64) decide:
/// - a zero numerator or denominator gives NaN *and sets VCC* (the guide leaves VCC 0). With
///   f32 denormals flushed (the default kernel MODE) a denormal denominator is a zero here.
/// - "S2 / S1 is denormal" is the exponent test the hardware can make before dividing: the
///   quotient may be denormal when the true exponents differ by -126 or less (-1022 for f64).
///   So 2^-126 / 1.0 (exponent 1 <= 23, "tiny numerator") sets VCC and scales the numerator
///   by 2^64, as measured; the guide's exact reading would take the tiny-numerator branch and
///   leave VCC clear.
/// - "1/S1 is denormal" is read in the operation's own format (the guide writes DENORM.f64,
///   never true for an f32 S1): 1.0 / 2^127 measured VCC = 1 with S0 unchanged.
///
/// Where nothing was measured the guide decides, except in one branch: huge denominator and
/// denormal quotient. The guide scales the denominator up by 2^64 there, which overflows (it
/// is above 2^126); wavesim scales it down, so that LLVM's division expansion stays correctly
/// rounded (x / 1e38); v_div_fmas then scales the small refined quotient down as the VCC bit
/// says.
pub fn div_scale(f: FpFmt, s0: u64, d: u64, n: u64, m: &FpMode) -> (u64, bool) {
    let c = m.ctl(f);
    let (s0, d, n) = (
        soft::input(f, s0, &c),
        soft::input(f, d, &c),
        soft::input(f, n, &c),
    );
    let (up, big_gap, tiny_exp) = scales(f);
    if f.is_zero(n) || f.is_zero(d) {
        return (f.default_nan(true), true);
    }
    let (en, ed) = (f.exp_field(n) as i64, f.exp_field(d) as i64);
    let min_exp = if f == F64 { -1022 } else { -126 };
    // "1/S1 is denormal" in the operation's own format (S1 above 2^126 / 2^1022).
    let fd = soft::to_f64(f, d);
    let min_normal = if f == F64 {
        f64::MIN_POSITIVE
    } else {
        f32::MIN_POSITIVE as f64
    };
    let rcp_denorm = 1.0 / fd.abs() < min_normal;
    // "S2/S1 is denormal": the quotient may fall below the smallest normal.
    let quot_denorm = true_exp(f, n) - true_exp(f, d) <= min_exp;
    let scaled = |x: u64, e: i32| soft::ldexp(f, x, e, &c);
    if en - ed >= big_gap {
        (if s0 == d { scaled(s0, up) } else { s0 }, true)
    } else if f.is_denorm(d) {
        (scaled(s0, up), false)
    } else if rcp_denorm && quot_denorm {
        (if s0 == d { scaled(s0, -up) } else { s0 }, true)
    } else if rcp_denorm {
        (scaled(s0, -up), false)
    } else if quot_denorm {
        (if s0 == n { scaled(s0, up) } else { s0 }, true)
    } else if en <= tiny_exp {
        (scaled(s0, up), false)
    } else {
        (s0, false)
    }
}

/// v_div_fmas: fma(S0, S1, S2), scaled when the lane's VCC bit is set.
///
/// The RDNA3 ISA guide writes the factor as 2^32 (f32) / 2^64 (f64). The hardware applies
/// 2^+64 when S2's exponent field is above the bias (|S2| >= 2) and 2^-64 otherwise (2^+-128
/// for f64), lane by lane as its VCC bit says: measured in tinygrad's
/// `test/amd/hw/test_vop3.py` (TestDivFmas scale_up / scale_down / per_lane_vcc,
/// TestDivFmasF64). In LLVM's division expansion S2 is the refined scaled quotient, large
/// when v_div_scale scaled the denominator up and small when it scaled the numerator up, so
/// this is the undo of v_div_scale. The scale is applied to the exact fma with one rounding
/// (a denormal result is rounded once, as the correctly rounded division needs).
pub fn div_fmas(f: FpFmt, a: u64, b: u64, c: u64, vcc: bool, m: &FpMode) -> u64 {
    if vcc {
        let bias = if f == F64 { 1023 } else { 127 };
        let k = scales(f).0;
        let k = if f.exp_field(c) > bias { k } else { -k };
        soft::fma_scaled(f, a, b, c, k, &m.ctl(f))
    } else {
        fma(f, a, b, c, m)
    }
}

/// The cube-map face of (x, y, z) (v_cubeid/sc/tc/ma share the major-axis choice).
#[inline]
fn cube_axis(x: f64, y: f64, z: f64) -> u8 {
    if z.abs() >= x.abs() && z.abs() >= y.abs() {
        2
    } else if y.abs() >= x.abs() {
        1
    } else {
        0
    }
}

pub fn cubeid(x: u64, y: u64, z: u64, m: &FpMode) -> u64 {
    let [x, y, z] = [x, y, z].map(|v| soft::to_f64(F32, flush_in(F32, v, m)));
    let id: f32 = match cube_axis(x, y, z) {
        2 => {
            if z < 0.0 {
                5.0
            } else {
                4.0
            }
        }
        1 => {
            if y < 0.0 {
                3.0
            } else {
                2.0
            }
        }
        _ => {
            if x < 0.0 {
                1.0
            } else {
                0.0
            }
        }
    };
    id.to_bits() as u64
}

pub fn cubesc(x: u64, y: u64, z: u64, m: &FpMode) -> u64 {
    let (xb, zb) = (flush_in(F32, x, m), flush_in(F32, z, m));
    let [fx, fy, fz] = [x, y, z].map(|v| soft::to_f64(F32, flush_in(F32, v, m)));
    let neg = |v: u64| v ^ F32.sign_bit();
    match cube_axis(fx, fy, fz) {
        2 => {
            if fz < 0.0 {
                neg(xb)
            } else {
                xb
            }
        }
        1 => xb,
        _ => {
            if fx < 0.0 {
                zb
            } else {
                neg(zb)
            }
        }
    }
}

pub fn cubetc(x: u64, y: u64, z: u64, m: &FpMode) -> u64 {
    let (yb, zb) = (flush_in(F32, y, m), flush_in(F32, z, m));
    let [fx, fy, fz] = [x, y, z].map(|v| soft::to_f64(F32, flush_in(F32, v, m)));
    let neg = |v: u64| v ^ F32.sign_bit();
    match cube_axis(fx, fy, fz) {
        1 => {
            if fy < 0.0 {
                neg(zb)
            } else {
                zb
            }
        }
        _ => neg(yb),
    }
}

pub fn cubema(x: u64, y: u64, z: u64, m: &FpMode) -> u64 {
    let [fx, fy, fz] = [x, y, z].map(|v| soft::to_f64(F32, flush_in(F32, v, m)));
    let major = match cube_axis(fx, fy, fz) {
        2 => z,
        1 => y,
        _ => x,
    };
    mul(F32, major, 2.0f32.to_bits() as u64, m)
}

/// v_mullit_f32 (ISA pseudocode).
pub fn mullit(a: u64, b: u64, c: u64, m: &FpMode) -> u64 {
    let (fb, fc) = (flush_in(F32, b, m), flush_in(F32, c, m));
    let neg_max = F32.max_finite(true);
    let vb = soft::to_f64(F32, fb);
    let vc = soft::to_f64(F32, fc);
    if fb == neg_max || vb == f64::NEG_INFINITY || vb.is_nan() || vc <= 0.0 || vc.is_nan() {
        return neg_max;
    }
    mul(F32, a, b, m)
}

/// 2/pi as a 1201-bit binary fraction, most significant bit first, for v_trig_preop_f64:
/// bit 1200 of the ISA's `1201'B(2.0 / PI)` is the MSB of word 0.
const TWO_OVER_PI: [u64; 19] = include!("two_over_pi.in");

/// Bit `i` (1200 = first fractional bit) of the ISA's 1201-bit 2/pi constant; 0 outside.
fn two_over_pi_bit(i: i64) -> u64 {
    if !(0..=1200).contains(&i) {
        return 0;
    }
    let pos = (1200 - i) as usize; // 0 = MSB
    TWO_OVER_PI[pos / 64] >> (63 - pos % 64) & 1
}

/// v_trig_preop_f64: 53 bits of 2/pi starting S1[4:0]*53 bits (plus an exponent-dependent
/// shift) below the binary point, scaled so a large S0 times it keeps its integer part small.
pub fn trig_preop(x: u64, sel: u32) -> u64 {
    let e = F64.exp_field(x) as i64;
    let mut shift = (sel & 31) as i64 * 53;
    if e > 1077 {
        shift += e - 1077;
    }
    // Bits [1200-shift .. 1200-shift-52] of the constant form the 53-bit integer result.
    let mut r: u64 = 0;
    for k in 0..53 {
        r = r << 1 | two_over_pi_bit(1200 - shift - k);
    }
    let mut scale = -53 - shift;
    if e >= 1968 {
        scale += 128;
    }
    soft::round_pack(F64, false, scale as i32, r as u128, &soft::FpCtl::IEEE)
}
