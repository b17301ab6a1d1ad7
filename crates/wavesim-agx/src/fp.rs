//! Floating point as AGX's ALU computes it, following the model applegpu's emulator checks against an
//! M1 (`hwtest.py`): sources widen exactly to f64 (32-bit sources flush denormals to zero, 16-bit sources
//! keep them); multiply-add is computed once, rounded to odd at f64 precision, then rounded to nearest
//! even at the destination size, so the result is the correctly rounded fused operation. 32-bit results
//! flush to zero when the exponent is below the normal range before rounding; 16-bit results keep
//! subnormals. Any NaN input gives the canonical NaN.
//!
//! Values travel as `u64`/`u128` bit patterns wider than the destination on purpose: a rounding carry out
//! of the exponent of a NaN propagates exactly as in applegpu's integer arithmetic, and the destination
//! register write truncates.

/// f64 bits of 1.0.
pub const F64_ONE: u64 = 0x3FF0_0000_0000_0000;
/// The NaN every NaN-producing operation returns.
pub const F64_CANONICAL_NAN: u64 = 0x7FF8_0000_0000_0000;

const SIGN: u64 = 1 << 63;

fn is_nan(b: u64) -> bool {
    (b >> 52) & 0x7FF == 0x7FF && b & ((1 << 52) - 1) != 0
}
fn is_inf(b: u64) -> bool {
    b & !SIGN == 0x7FF0_0000_0000_0000
}
fn is_zero(b: u64) -> bool {
    b & !SIGN == 0
}

/// `v >> shift`, rounded to nearest, ties to even.
fn round_shift_rne(v: u64, shift: u32) -> u64 {
    if shift == 0 {
        return v;
    }
    if shift >= 64 {
        // Everything is below half an ulp except when shift == 64 and v > 2^63.
        return u64::from(shift == 64 && v > (1 << 63));
    }
    let kept = v >> shift;
    let rem = v & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    if rem > half || (rem == half && kept & 1 == 1) {
        kept + 1
    } else {
        kept
    }
}

/// Widen f16 bits to f64 bits exactly (subnormals kept).
pub fn f16_to_f64(bits: u64) -> u64 {
    half::f16::from_bits(bits as u16).to_f64().to_bits()
}

/// Widen f32 bits to f64 bits, flushing subnormal inputs to a zero of the same sign.
#[inline]
pub fn f32_to_f64_ftz(bits: u64) -> u64 {
    let bits = bits as u32;
    if (bits >> 23) & 0xFF == 0 {
        return ((bits >> 31) as u64) << 63;
    }
    (f32::from_bits(bits) as f64).to_bits()
}

/// Narrow f64 bits to f32 bits, nearest-even; `ftz` flushes results below the normal range (judged
/// before rounding) to zero.
pub fn f64_to_f32(bits: u64, ftz: bool) -> u64 {
    narrow(bits, 8, 23, ftz)
}

/// Narrow f64 bits to f16 bits, nearest-even, subnormals kept.
pub fn f64_to_f16(bits: u64) -> u64 {
    narrow(bits, 5, 10, false)
}

fn narrow(bits: u64, exp_bits: u32, frac_bits: u32, ftz: bool) -> u64 {
    let s = bits >> 63;
    let e = ((bits >> 52) & 0x7FF) as i64;
    let f = bits & ((1 << 52) - 1);
    let max_e = (1i64 << exp_bits) - 1;
    let bias = (1i64 << (exp_bits - 1)) - 1;
    let sign = s << (exp_bits + frac_bits);
    let drop = 52 - frac_bits;
    if e == 0x7FF {
        return sign + ((max_e as u64) << frac_bits) + round_shift_rne(f, drop);
    }
    if e == 0 && f == 0 {
        return sign;
    }
    let e = e - 1023 + bias;
    if e <= 0 {
        if ftz {
            return sign;
        }
        // Subnormal: the implicit bit joins the fraction and the shift grows by the exponent deficit.
        let shift = drop as i64 + 1 - e;
        return sign + round_shift_rne(f | (1 << 52), shift.min(64) as u32);
    }
    if e >= max_e {
        return sign + ((max_e as u64) << frac_bits);
    }
    sign + ((e as u64) << frac_bits) + round_shift_rne(f, drop)
}

/// Fused multiply-add `x * y + z` on f64 bit patterns, rounded to odd.
///
/// The operands come from 16/32-bit sources or 8-bit immediates (at most 24 significant bits), so the
/// product is exact in f64 and cannot overflow or underflow; the sum is rounded to nearest by the host
/// and its exact error recovered (TwoSum), which gives the round-to-odd result: the sum itself when
/// exact, otherwise whichever of the two bracketing doubles has an odd significand.
pub fn fma_round_to_odd(x: u64, y: u64, z: u64) -> u64 {
    if is_nan(x) || is_nan(y) || is_nan(z) {
        return F64_CANONICAL_NAN;
    }
    if (is_inf(x) && is_zero(y)) || (is_zero(x) && is_inf(y)) {
        return F64_CANONICAL_NAN;
    }
    let (xf, yf, zf) = (f64::from_bits(x), f64::from_bits(y), f64::from_bits(z));
    let p = xf * yf;
    if p.is_infinite() && zf.is_infinite() && p.is_sign_negative() != zf.is_sign_negative() {
        return F64_CANONICAL_NAN;
    }
    let s = p + zf;
    if !s.is_finite() {
        return s.to_bits();
    }
    // TwoSum: err = (p + z) - s exactly.
    let bp = s - zf;
    let bz = s - bp;
    let err = (p - bp) + (zf - bz);
    if err == 0.0 {
        return s.to_bits();
    }
    let sb = s.to_bits();
    if sb & 1 == 1 {
        return sb;
    }
    // Step one ulp towards the exact value.
    if (err > 0.0) == (s > 0.0) {
        sb.wrapping_add(1)
    } else {
        sb.wrapping_sub(1)
    }
}

/// Clamp to [0, 1]: negative values (including -0) and NaN become +0.
pub fn saturate(bits: u64) -> u64 {
    if bits >> 63 != 0 || is_nan(bits) {
        0
    } else if bits > F64_ONE {
        F64_ONE
    } else {
        bits
    }
}

/// Narrow f64 bits rounding toward zero (for `convert ... rtz`): nearest-even, then one step towards
/// zero when that rounded away; an overflow becomes the largest finite value.
pub fn narrow_toward_zero(bits: u64, to_f16: bool) -> u64 {
    let r = if to_f16 {
        f64_to_f16(bits)
    } else {
        f64_to_f32(bits, false)
    };
    let x = f64::from_bits(bits);
    if !x.is_finite() {
        return r;
    }
    let back = if to_f16 {
        f16_to_f64(r)
    } else {
        (f32::from_bits(r as u32) as f64).to_bits()
    };
    let back = f64::from_bits(back);
    if back.abs() > x.abs() {
        // same sign, magnitude one step down (from infinity: the largest finite value)
        r - 1
    } else {
        r
    }
}
