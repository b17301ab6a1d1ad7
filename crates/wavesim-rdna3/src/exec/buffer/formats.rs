//! Buffer data formats and the conversions between memory and VGPRs (RDNA3 ISA guide, Buffer Instructions, "Buffer data",
//! "D16 instructions"; RDNA3 ISA "Data formats").
//!
//! gfx11 names a format with one 7-bit code ("BUF_FMT", in MTBUF's FORMAT field and in V# word 3)
//! that combines the data format (component sizes) and the numeric format. The table below is the
//! one LLVM 19's gfx11 disassembler prints (`format:[BUF_FMT_8_8_UNORM]` = 14, ...): codes 1..=63;
//! 0 is BUF_FMT_INVALID and 64..=127 name nothing.
//!
//! Component layout: a data-format name lists the components from the most significant bit down,
//! so X is the *last* number and sits in the lowest bits (2_10_10_10 = X[9:0] Y[19:10] Z[29:20]
//! W[31:30]; 10_11_11 = X[10:0] Y[21:11] Z[31:22]); this is how drivers use them (R10G10B10A2 is
//! 2_10_10_10, R11G11B10_FLOAT is 10_11_11). Formats with 8/16/32-bit components store X first.
//!
//! Conversions (memory -> VGPR):
//! - UNORM: `u / (2^n - 1)`, SNORM: `max(s / (2^(n-1) - 1), -1.0)` (both codes -2^(n-1) and
//!   -(2^(n-1)-1) give -1.0), USCALED/SSCALED: the integer as a float, all rounded to nearest even;
//! - UINT/SINT: zero-/sign-extended;
//! - FLOAT: f16, f11 and f10 widen exactly (f11/f10 are unsigned floats with a 5-bit exponent and
//!   6/5 mantissa bits), f32 is copied.
//!
//! D16 loads give 16 bits: float formats become f16 — f32 by *truncation* (RDNA3 ISA guide, Buffer Instructions: "float32 to
//! float16 uses truncation"), f16/f11/f10 exactly — and UNORM/SNORM/SCALED values are rounded to
//! the nearest f16 (ties to even, the RDNA3 ISA guide (Buffer Instructions): "other conversions round to nearest even"); UINT/SINT
//! keep the low 16 bits of the zero-/sign-extended value.
//!
//! Conversions (VGPR -> memory, stores):
//! - UNORM/SNORM: NaN -> 0, clamp to [0, 1] / [-1, 1], scale, round to nearest even;
//! - USCALED/SSCALED: NaN -> 0, round to nearest even, clamp to the component's integer range;
//! - UINT/SINT: the 32-bit integer clamped (saturated) to the component's range;
//! - FLOAT: f32 -> f16/f11/f10 rounds to nearest even (an overflow becomes +-inf, NaN stays NaN;
//!   f11/f10 have no sign: negative values and -inf become 0).
//!
//! D16 stores take 16 bits per component: an f16 (float, UNORM, SNORM, SCALED formats; widened
//! exactly and converted as above) or a 16-bit integer (UINT zero-extended, SINT sign-extended).

/// The numeric format: how component bits are interpreted.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Num {
    Unorm,
    Snorm,
    Uscaled,
    Sscaled,
    Uint,
    Sint,
    Float,
}

impl Num {
    /// True if VGPR values of this format are integers (else floats).
    #[inline]
    pub fn is_int(self) -> bool {
        matches!(self, Num::Uint | Num::Sint)
    }
}

/// One gfx11 buffer format: its components and numeric format.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BufFmt {
    /// Components in memory (1..=4).
    pub comps: u8,
    /// Bits of each component.
    pub bits: [u8; 4],
    /// Bit position of each component within the element (8/16/32-bit components: i * bits).
    pub shift: [u8; 4],
    /// Element size in bytes (1, 2, 4, 8, 12 or 16): what one format access moves.
    pub bytes: u8,
    pub num: Num,
}

const fn uniform(comps: u8, bits: u8, num: Num) -> BufFmt {
    BufFmt {
        comps,
        bits: [bits; 4],
        shift: [0, bits, bits * 2, bits * 3],
        bytes: comps * bits / 8,
        num,
    }
}

const fn packed(bits: [u8; 4], comps: u8, num: Num) -> BufFmt {
    BufFmt {
        comps,
        bits,
        shift: [0, bits[0], bits[0] + bits[1], bits[0] + bits[1] + bits[2]],
        bytes: 4,
        num,
    }
}

use Num::*;

/// gfx11 BUF_FMT codes 0..=63 (index = code; 0 = INVALID).
const TABLE: [Option<BufFmt>; 64] = [
    None,                                      // 0 INVALID
    Some(uniform(1, 8, Unorm)),                // 1 8_UNORM
    Some(uniform(1, 8, Snorm)),                // 2 8_SNORM
    Some(uniform(1, 8, Uscaled)),              // 3 8_USCALED
    Some(uniform(1, 8, Sscaled)),              // 4 8_SSCALED
    Some(uniform(1, 8, Uint)),                 // 5 8_UINT
    Some(uniform(1, 8, Sint)),                 // 6 8_SINT
    Some(uniform(1, 16, Unorm)),               // 7 16_UNORM
    Some(uniform(1, 16, Snorm)),               // 8 16_SNORM
    Some(uniform(1, 16, Uscaled)),             // 9 16_USCALED
    Some(uniform(1, 16, Sscaled)),             // 10 16_SSCALED
    Some(uniform(1, 16, Uint)),                // 11 16_UINT
    Some(uniform(1, 16, Sint)),                // 12 16_SINT
    Some(uniform(1, 16, Float)),               // 13 16_FLOAT
    Some(uniform(2, 8, Unorm)),                // 14 8_8_UNORM
    Some(uniform(2, 8, Snorm)),                // 15 8_8_SNORM
    Some(uniform(2, 8, Uscaled)),              // 16 8_8_USCALED
    Some(uniform(2, 8, Sscaled)),              // 17 8_8_SSCALED
    Some(uniform(2, 8, Uint)),                 // 18 8_8_UINT
    Some(uniform(2, 8, Sint)),                 // 19 8_8_SINT
    Some(uniform(1, 32, Uint)),                // 20 32_UINT
    Some(uniform(1, 32, Sint)),                // 21 32_SINT
    Some(uniform(1, 32, Float)),               // 22 32_FLOAT
    Some(uniform(2, 16, Unorm)),               // 23 16_16_UNORM
    Some(uniform(2, 16, Snorm)),               // 24 16_16_SNORM
    Some(uniform(2, 16, Uscaled)),             // 25 16_16_USCALED
    Some(uniform(2, 16, Sscaled)),             // 26 16_16_SSCALED
    Some(uniform(2, 16, Uint)),                // 27 16_16_UINT
    Some(uniform(2, 16, Sint)),                // 28 16_16_SINT
    Some(uniform(2, 16, Float)),               // 29 16_16_FLOAT
    Some(packed([11, 11, 10, 0], 3, Float)),   // 30 10_11_11_FLOAT
    Some(packed([10, 11, 11, 0], 3, Float)),   // 31 11_11_10_FLOAT
    Some(packed([2, 10, 10, 10], 4, Unorm)),   // 32 10_10_10_2_UNORM
    Some(packed([2, 10, 10, 10], 4, Snorm)),   // 33 10_10_10_2_SNORM
    Some(packed([2, 10, 10, 10], 4, Uint)),    // 34 10_10_10_2_UINT
    Some(packed([2, 10, 10, 10], 4, Sint)),    // 35 10_10_10_2_SINT
    Some(packed([10, 10, 10, 2], 4, Unorm)),   // 36 2_10_10_10_UNORM
    Some(packed([10, 10, 10, 2], 4, Snorm)),   // 37 2_10_10_10_SNORM
    Some(packed([10, 10, 10, 2], 4, Uscaled)), // 38 2_10_10_10_USCALED
    Some(packed([10, 10, 10, 2], 4, Sscaled)), // 39 2_10_10_10_SSCALED
    Some(packed([10, 10, 10, 2], 4, Uint)),    // 40 2_10_10_10_UINT
    Some(packed([10, 10, 10, 2], 4, Sint)),    // 41 2_10_10_10_SINT
    Some(uniform(4, 8, Unorm)),                // 42 8_8_8_8_UNORM
    Some(uniform(4, 8, Snorm)),                // 43 8_8_8_8_SNORM
    Some(uniform(4, 8, Uscaled)),              // 44 8_8_8_8_USCALED
    Some(uniform(4, 8, Sscaled)),              // 45 8_8_8_8_SSCALED
    Some(uniform(4, 8, Uint)),                 // 46 8_8_8_8_UINT
    Some(uniform(4, 8, Sint)),                 // 47 8_8_8_8_SINT
    Some(uniform(2, 32, Uint)),                // 48 32_32_UINT
    Some(uniform(2, 32, Sint)),                // 49 32_32_SINT
    Some(uniform(2, 32, Float)),               // 50 32_32_FLOAT
    Some(uniform(4, 16, Unorm)),               // 51 16_16_16_16_UNORM
    Some(uniform(4, 16, Snorm)),               // 52 16_16_16_16_SNORM
    Some(uniform(4, 16, Uscaled)),             // 53 16_16_16_16_USCALED
    Some(uniform(4, 16, Sscaled)),             // 54 16_16_16_16_SSCALED
    Some(uniform(4, 16, Uint)),                // 55 16_16_16_16_UINT
    Some(uniform(4, 16, Sint)),                // 56 16_16_16_16_SINT
    Some(uniform(4, 16, Float)),               // 57 16_16_16_16_FLOAT
    Some(uniform(3, 32, Uint)),                // 58 32_32_32_UINT
    Some(uniform(3, 32, Sint)),                // 59 32_32_32_SINT
    Some(uniform(3, 32, Float)),               // 60 32_32_32_FLOAT
    Some(uniform(4, 32, Uint)),                // 61 32_32_32_32_UINT
    Some(uniform(4, 32, Sint)),                // 62 32_32_32_32_SINT
    Some(uniform(4, 32, Float)),               // 63 32_32_32_32_FLOAT
];

/// The format with gfx11 BUF_FMT code `code` (None for INVALID and undefined codes).
#[inline]
pub fn buf_fmt(code: u32) -> Option<BufFmt> {
    TABLE.get(code as usize).copied().flatten()
}

impl BufFmt {
    /// Raw bits of component `c` from the element's dwords (little-endian, dword 0 first).
    #[inline]
    pub fn get(&self, words: &[u32; 4], c: usize) -> u32 {
        let bits = self.bits[c] as u32;
        if bits == 32 {
            return words[c];
        }
        let v = words[0] as u64 | (words[1] as u64) << 32;
        ((v >> self.shift[c]) & ((1u64 << bits) - 1)) as u32
    }

    /// Stores raw bits `raw` of component `c` into the element's dwords.
    #[inline]
    pub fn set(&self, words: &mut [u32; 4], c: usize, raw: u32) {
        let bits = self.bits[c] as u32;
        if bits == 32 {
            words[c] = raw;
            return;
        }
        let mask = (1u64 << bits) - 1;
        let mut v = words[0] as u64 | (words[1] as u64) << 32;
        v = (v & !(mask << self.shift[c])) | ((raw as u64 & mask) << self.shift[c]);
        words[0] = v as u32;
        words[1] = (v >> 32) as u32;
    }
}

// ------------------------------------------------------------------------------------------------
// Small floats with a 5-bit exponent (bias 15): f16 (10 mantissa bits, signed), f11 (6, unsigned),
// f10 (5, unsigned).

/// Rounds `x` to a float with a 5-bit exponent and `m` mantissa bits: to nearest even, or toward
/// zero when `rtz`. Unsigned formats (`signed == false`) turn negative values into 0. NaN stays a
/// (quiet) NaN keeping the top mantissa bits; overflow gives inf (toward zero: the largest finite).
pub fn f64_to_e5(x: f64, m: u32, signed: bool, rtz: bool) -> u32 {
    let b = x.to_bits();
    let neg = b >> 63 != 0;
    let sbit = if signed && neg { 1 << (m + 5) } else { 0 };
    let inf = 0x1f << m;
    let exp = ((b >> 52) & 0x7ff) as i32;
    let frac = b & ((1u64 << 52) - 1);
    if exp == 0x7ff && frac != 0 {
        // NaN: quiet, payload from the top of the mantissa.
        return sbit | inf | (1 << (m - 1)) | (frac >> (52 - m)) as u32;
    }
    if neg && !signed {
        return 0;
    }
    if exp == 0x7ff {
        return sbit | inf;
    }
    if exp == 0 {
        // Zero or an f64 denormal: far below half the smallest target denormal.
        return sbit;
    }
    let full = frac | 1u64 << 52; // value = full * 2^(exp - 1075)
    let e = exp - 1023 + 15; // the target's biased exponent if the result is normal
    let shift = 52 - m as i32 + if e >= 1 { 0 } else { 1 - e };
    if shift > 53 {
        // Below half the smallest denormal: rounds to zero either way.
        return sbit;
    }
    let q = full >> shift;
    let rem = full & ((1u64 << shift) - 1);
    let half = 1u64 << (shift - 1);
    let mut r = q as u32;
    if !rtz && (rem > half || (rem == half && q & 1 == 1)) {
        r += 1;
    }
    // Normal: q carries the implicit bit at position m, so adding (e - 1) << m gives the
    // encoding; a rounding carry moves into the exponent on its own.
    let bits = if e >= 1 {
        (((e - 1) as u32) << m) + r
    } else {
        r
    };
    if bits >= inf {
        return sbit | if rtz { inf - 1 } else { inf };
    }
    sbit | bits
}

/// Widens a 5-bit-exponent float with `m` mantissa bits to f32 (exact).
pub fn e5_to_f32(v: u32, m: u32, signed: bool) -> u32 {
    let sign = if signed { (v >> (m + 5)) & 1 } else { 0 };
    let exp = (v >> m) & 0x1f;
    let frac = v & ((1 << m) - 1);
    let mag = if exp == 0x1f {
        0x7f80_0000 | frac << (23 - m)
    } else if exp == 0 {
        if frac == 0 {
            0
        } else {
            // Denormal frac * 2^(-14 - m): normalise on the highest set bit p.
            let p = 31 - frac.leading_zeros();
            let e = p as i32 - 14 - m as i32 + 127;
            (e as u32) << 23 | (frac - (1 << p)) << (23 - p)
        }
    } else {
        (exp + 112) << 23 | frac << (23 - m)
    };
    sign << 31 | mag
}

/// f16 bits of an f11 (m = 6) or f10 (m = 5) value: same exponent, mantissa padded (exact).
#[inline]
fn e5_to_f16(v: u32, m: u32) -> u32 {
    (v >> m & 0x1f) << 10 | (v & ((1 << m) - 1)) << (10 - m)
}

#[inline]
fn f16_to_f64(h: u32) -> f64 {
    f32::from_bits(e5_to_f32(h, 10, true)) as f64
}

/// Mantissa bits of the float of a component width (16 -> f16, 11 -> f11, 10 -> f10).
#[inline]
fn small_mant(bits: u32) -> u32 {
    match bits {
        16 => 10,
        11 => 6,
        _ => 5,
    }
}

// ------------------------------------------------------------------------------------------------
// Memory -> VGPR

#[inline]
fn sext(raw: u32, bits: u32) -> i32 {
    ((raw << (32 - bits)) as i32) >> (32 - bits)
}

/// The real value of a UNORM/SNORM/SCALED component (exact in f64 for widths up to 16 bits).
#[inline]
fn norm_value(num: Num, bits: u32, raw: u32) -> f64 {
    match num {
        Unorm => raw as f64 / ((1u64 << bits) - 1) as f64,
        Snorm => (sext(raw, bits) as f64 / ((1u64 << (bits - 1)) - 1) as f64).max(-1.0),
        Uscaled => raw as f64,
        _ => sext(raw, bits) as f64,
    }
}

/// The 32-bit VGPR value of a component with raw bits `raw` (`bits` wide).
pub fn unpack32(num: Num, bits: u32, raw: u32) -> u32 {
    match num {
        Uint => raw,
        Sint => sext(raw, bits) as u32,
        Float => match bits {
            32 => raw,
            16 => e5_to_f32(raw, 10, true),
            b => e5_to_f32(raw, small_mant(b), false),
        },
        // f64 -> f32 rounds to nearest even; the f64 quotient is within 2^-53 of the exact one,
        // which cannot straddle an f32 rounding boundary for these short periodic fractions.
        _ => (norm_value(num, bits, raw) as f32).to_bits(),
    }
}

/// The 16-bit VGPR value (D16) of a component with raw bits `raw`.
pub fn unpack16(num: Num, bits: u32, raw: u32) -> u32 {
    match num {
        Uint => raw & 0xffff,
        Sint => sext(raw, bits) as u32 & 0xffff,
        Float => match bits {
            // the RDNA3 ISA guide (Buffer Instructions): f32 -> f16 by truncation.
            32 => f64_to_e5(f32::from_bits(raw) as f64, 10, true, true),
            16 => raw,
            b => e5_to_f16(raw, small_mant(b)),
        },
        _ => f64_to_e5(norm_value(num, bits, raw), 10, true, false),
    }
}

/// The VGPR value of SEL_1 for a numeric format: 1 for integers, 1.0 otherwise.
#[inline]
pub fn one32(num: Num) -> u32 {
    if num.is_int() {
        1
    } else {
        0x3f80_0000
    }
}

/// SEL_1 as a 16-bit (D16) value: 1 or f16 1.0.
#[inline]
pub fn one16(num: Num) -> u32 {
    if num.is_int() {
        1
    } else {
        0x3c00
    }
}

// ------------------------------------------------------------------------------------------------
// VGPR -> memory

/// A component value on its way to memory: a float (VGPR f32 or D16 f16) or an integer.
#[derive(Clone, Copy, Debug)]
pub enum StoreVal {
    /// f32 bits from a 32-bit VGPR.
    F32(u32),
    /// f16 bits from a D16 VGPR half.
    F16(u32),
    /// An integer (32-bit VGPR, or a D16 half zero-/sign-extended by the caller).
    Int(u32),
}

/// The store value a VGPR holds for numeric format `num` (`d16`: a 16-bit half in the low bits).
#[inline]
pub fn store_val(num: Num, d16: bool, v: u32) -> StoreVal {
    match (num, d16) {
        (Uint, false) | (Sint, false) => StoreVal::Int(v),
        (Uint, true) => StoreVal::Int(v & 0xffff),
        (Sint, true) => StoreVal::Int(v as u16 as i16 as i32 as u32),
        (_, false) => StoreVal::F32(v),
        (_, true) => StoreVal::F16(v & 0xffff),
    }
}

/// SEL_1 on a store: 1 or 1.0.
#[inline]
pub fn store_one(num: Num) -> StoreVal {
    if num.is_int() {
        StoreVal::Int(1)
    } else {
        StoreVal::F32(0x3f80_0000)
    }
}

impl StoreVal {
    #[inline]
    fn as_f64(self) -> f64 {
        match self {
            StoreVal::F32(b) => f32::from_bits(b) as f64,
            StoreVal::F16(h) => f16_to_f64(h),
            // Integer data stored with a float format is read as the float with those bits.
            StoreVal::Int(b) => f32::from_bits(b) as f64,
        }
    }

    #[inline]
    fn as_u32(self) -> u32 {
        match self {
            StoreVal::Int(v) | StoreVal::F32(v) | StoreVal::F16(v) => v,
        }
    }
}

/// Clamps and rounds (ties to even) `x` into [lo, hi]; NaN -> 0.
#[inline]
fn round_clamp(x: f64, lo: f64, hi: f64) -> i64 {
    if x.is_nan() {
        return 0;
    }
    x.clamp(lo, hi).round_ties_even() as i64
}

/// Raw memory bits (`bits` wide) of a component value.
pub fn pack(num: Num, bits: u32, v: StoreVal) -> u32 {
    let mask = if bits == 32 {
        u32::MAX
    } else {
        (1u32 << bits) - 1
    };
    let umax = mask as i64;
    let smax = (1i64 << (bits - 1)) - 1;
    match num {
        Unorm => {
            let x = v.as_f64();
            let x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
            // x has at most 24 significant bits, so the product is exact in f64.
            (x * umax as f64).round_ties_even() as u32
        }
        Snorm => {
            let x = v.as_f64();
            let x = if x.is_nan() { 0.0 } else { x.clamp(-1.0, 1.0) };
            ((x * smax as f64).round_ties_even() as i64 as u32) & mask
        }
        Uscaled => round_clamp(v.as_f64(), 0.0, umax as f64) as u32,
        Sscaled => (round_clamp(v.as_f64(), -(smax as f64) - 1.0, smax as f64) as u32) & mask,
        Uint => (v.as_u32() as i64).min(umax) as u32,
        Sint => ((v.as_u32() as i32 as i64).clamp(-smax - 1, smax) as u32) & mask,
        Float => match (bits, v) {
            (32, StoreVal::F16(h)) => e5_to_f32(h, 10, true),
            (32, _) => v.as_u32(),
            (16, StoreVal::F16(h)) => h,
            (b, _) => f64_to_e5(v.as_f64(), small_mant(b), b == 16, false),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f16(x: f32) -> u32 {
        f64_to_e5(x as f64, 10, true, false)
    }

    #[test]
    fn f16_round_trip_matches_half_crate() {
        // Every f16 widens exactly and narrows back to itself (NaNs stay NaN).
        for h in 0..=0xffffu32 {
            let f = e5_to_f32(h, 10, true);
            let back = f64_to_e5(f32::from_bits(f) as f64, 10, true, false);
            if h & 0x7c00 == 0x7c00 && h & 0x3ff != 0 {
                assert!(f32::from_bits(f).is_nan());
                assert_eq!(back & 0x7e00, 0x7e00, "{h:#x}");
            } else {
                assert_eq!(
                    f,
                    half::f16::from_bits(h as u16).to_f32().to_bits(),
                    "{h:#x}"
                );
                assert_eq!(back, h, "{h:#x}");
            }
        }
        // RNE against the half crate on a sweep of f32 values.
        for i in 0..200_000u32 {
            let b = i.wrapping_mul(0x9e37_79b9);
            let x = f32::from_bits(b);
            if x.is_nan() {
                continue;
            }
            assert_eq!(f16(x), half::f16::from_f32(x).to_bits() as u32, "{b:#x}");
        }
    }

    #[test]
    fn f16_truncation() {
        // 1 + 2^-11 + 2^-12 lies above the midpoint: RNE rounds up, truncation does not.
        let x = 1.0f64 + 2f64.powi(-11) + 2f64.powi(-12);
        assert_eq!(f64_to_e5(x, 10, true, false), 0x3c01);
        assert_eq!(f64_to_e5(x, 10, true, true), 0x3c00);
        // 70000 overflows: inf to nearest, 65504 (0x7bff) toward zero.
        assert_eq!(f64_to_e5(70000.0, 10, true, false), 0x7c00);
        assert_eq!(f64_to_e5(70000.0, 10, true, true), 0x7bff);
        assert_eq!(f64_to_e5(-70000.0, 10, true, true), 0xfbff);
    }
}
