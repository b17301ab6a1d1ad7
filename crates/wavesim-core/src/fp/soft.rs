//! Exact IEEE-754 binary arithmetic on raw bit patterns, with the rounding modes, denormal
//! flushing and NaN rules of a GPU's float unit as parameters ([`FpCtl`], [`NanPolicy`]).
//!
//! Every operation computes the exact result (products are exact in `u128`; sums are aligned in a
//! 128-bit frame with the smaller operand's lost bits jammed into a sticky bit far below the
//! rounding position) and rounds it once with `round_pack`. That makes add/mul/fma/conversions
//! correctly rounded in all four MODE.FP_ROUND modes for f16, bf16, f32 and f64 alike. The
//! executors use the host FPU instead when the mode is round-to-nearest-even (the host is
//! IEEE-exact then, with denormals flushed around it as [`FpCtl::host_flush`] says); tests
//! check both paths agree.
//!
//! NaN rules differ between GPUs and are the [`NanPolicy`] of the control: RDNA3
//! ([`NanPolicy::RDNA3`]; RDNA3 ISA pseudocode and its worked examples) propagates a NaN input
//! quieted, the first NaN source in operand order winning, and an invalid operation (inf-inf,
//! 0*inf, ...) returns the negative default NaN (0xffc00000 for f32, as the ISA's
//! V_LOG_F32(-1.0) example shows).

use std::cell::Cell;

/// IEEE exception flags as MODE.EXCP_EN / TRAPSTS.EXCP number them (RDNA3 ISA 3.4.9).
pub mod exc {
    /// Invalid operation (0 * inf, inf - inf, sqrt(-x), ...) or a signalling NaN input.
    pub const INVALID: u32 = 1 << 0;
    /// An input operand was subnormal.
    pub const DENORM: u32 = 1 << 1;
    /// Float x / 0 (rcp, rsq, log of zero; the fixup of a division by zero).
    pub const DIV0: u32 = 1 << 2;
    /// The rounded result is larger than the largest finite number.
    pub const OVERFLOW: u32 = 1 << 3;
    /// The exact result is non-zero and smaller than the smallest normal number.
    pub const UNDERFLOW: u32 = 1 << 4;
    /// The rounded result differs from the exact one.
    pub const INEXACT: u32 = 1 << 5;
    /// Integer x / 0 (v_rcp_iflag_f32 of zero).
    pub const INT_DIV0: u32 = 1 << 6;
}

thread_local! {
    /// Exception flags raised since the last `take_flags`, only while an `FpCtl` has `detect`
    /// set (MODE.EXCP_EN != 0); the default path never touches it.
    static FLAGS: Cell<u32> = const { Cell::new(0) };
}

/// Records exception `bits` if the control asks for exception detection.
#[inline(always)]
pub fn raise(c: &FpCtl, bits: u32) {
    if c.detect {
        FLAGS.with(|f| f.set(f.get() | bits));
    }
}

/// Returns and clears the exception flags raised on this thread.
#[inline]
pub fn take_flags() -> u32 {
    FLAGS.with(|f| f.replace(0))
}

/// An input operand: raises DENORM for a subnormal (before flushing) and INVALID for a
/// signalling NaN, then applies MODE's input flushing.
#[inline(always)]
pub fn input(f: FpFmt, x: u64, c: &FpCtl) -> u64 {
    if c.detect {
        if f.is_denorm(x) {
            raise(c, exc::DENORM);
        }
        if f.is_snan(x) {
            raise(c, exc::INVALID);
        }
    }
    f.flush_in(x, c)
}

/// An IEEE binary format: exponent and fraction widths.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FpFmt {
    pub ebits: u32,
    pub mbits: u32,
}

pub const F16: FpFmt = FpFmt {
    ebits: 5,
    mbits: 10,
};
pub const BF16: FpFmt = FpFmt { ebits: 8, mbits: 7 };
pub const F32: FpFmt = FpFmt {
    ebits: 8,
    mbits: 23,
};
pub const F64: FpFmt = FpFmt {
    ebits: 11,
    mbits: 52,
};

/// MODE.FP_ROUND encoding (RDNA3 ISA, "MODE register").
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Round {
    NearestEven = 0,
    Up = 1,
    Down = 2,
    Zero = 3,
}

impl Round {
    pub const fn from_bits(b: u32) -> Round {
        match b & 3 {
            0 => Round::NearestEven,
            1 => Round::Up,
            2 => Round::Down,
            _ => Round::Zero,
        }
    }
}

/// How an ISA forms NaN results.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct NanPolicy {
    /// A NaN input propagates to the result, quieted, the first NaN operand winning; when false
    /// every NaN result is the default NaN (ARM's "default NaN" mode).
    pub propagate: bool,
    /// The default NaN (of invalid operations) has its sign bit set.
    pub default_negative: bool,
}

impl NanPolicy {
    /// RDNA3: propagate the first NaN operand quieted; invalid operations give 0xffc00000 (f32).
    pub const RDNA3: NanPolicy = NanPolicy {
        propagate: true,
        default_negative: true,
    };
}

/// Rounding, denormal and NaN control for one operand type (for RDNA3 from MODE, see
/// `operand::FpMode` there).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FpCtl {
    pub rm: Round,
    /// Denormal inputs read as zero of the same sign.
    pub ftz_in: bool,
    /// Denormal results are written as zero of the same sign (after rounding).
    pub ftz_out: bool,
    /// Record IEEE exception flags (`raise`): set while MODE.EXCP_EN has an enabled bit, so
    /// the default path skips the bookkeeping (and the host-FPU fast paths, which cannot
    /// report flags, are not taken because `is_ieee` is false).
    pub detect: bool,
    pub nan: NanPolicy,
}

impl FpCtl {
    /// Round to nearest even, denormals kept, RDNA3's NaN rules: what the host FPU computes
    /// for every non-NaN result (the RDNA3 fast paths fix NaN lanes up afterwards).
    pub const IEEE: FpCtl = FpCtl {
        rm: Round::NearestEven,
        ftz_in: false,
        ftz_out: false,
        detect: false,
        nan: NanPolicy::RDNA3,
    };

    #[inline]
    pub fn is_ieee(&self) -> bool {
        *self == FpCtl::IEEE
    }

    /// Whether the host FPU, with denormal inputs flushed before the operation and a
    /// denormal result flushed after it (both to a zero of the same sign), gives this
    /// control's result for every add, multiply, fused multiply-add and conversion whose result
    /// is not NaN: `Some((flush inputs, flush outputs))` when rounding is to nearest even,
    /// exceptions are not detected and NaNs follow RDNA3's rule (the fast paths redo NaN lanes),
    /// None otherwise. The exact operations above round once and flush a denormal result after
    /// rounding (`round_pack`), which is what flushing the host's correctly rounded result
    /// does; a flushed input is the zero the host then sees.
    #[inline]
    pub fn host_flush(&self) -> Option<(bool, bool)> {
        let plain = FpCtl {
            ftz_in: false,
            ftz_out: false,
            ..*self
        };
        plain.is_ieee().then_some((self.ftz_in, self.ftz_out))
    }

    /// The same control with a fixed rounding mode (e.g. v_cvt_pk_rtz_f16_f32).
    #[inline]
    pub fn with_round(self, rm: Round) -> FpCtl {
        FpCtl { rm, ..self }
    }
}

impl FpFmt {
    #[inline]
    pub const fn bias(self) -> i32 {
        (1 << (self.ebits - 1)) - 1
    }
    #[inline]
    pub const fn sign_bit(self) -> u64 {
        1 << (self.ebits + self.mbits)
    }
    #[inline]
    pub const fn mant_mask(self) -> u64 {
        (1 << self.mbits) - 1
    }
    #[inline]
    pub const fn exp_max(self) -> u64 {
        (1 << self.ebits) - 1
    }
    #[inline]
    pub const fn abs_mask(self) -> u64 {
        self.sign_bit() - 1
    }
    #[inline]
    pub const fn quiet_bit(self) -> u64 {
        1 << (self.mbits - 1)
    }
    /// Biased exponent field.
    #[inline]
    pub const fn exp_field(self, x: u64) -> u64 {
        (x >> self.mbits) & self.exp_max()
    }
    #[inline]
    pub const fn sign(self, x: u64) -> bool {
        x & self.sign_bit() != 0
    }
    #[inline]
    pub const fn is_nan(self, x: u64) -> bool {
        self.exp_field(x) == self.exp_max() && x & self.mant_mask() != 0
    }
    #[inline]
    pub const fn is_snan(self, x: u64) -> bool {
        self.is_nan(x) && x & self.quiet_bit() == 0
    }
    #[inline]
    pub const fn is_inf(self, x: u64) -> bool {
        x & self.abs_mask() == self.exp_max() << self.mbits
    }
    #[inline]
    pub const fn is_zero(self, x: u64) -> bool {
        x & self.abs_mask() == 0
    }
    #[inline]
    pub const fn is_denorm(self, x: u64) -> bool {
        self.exp_field(x) == 0 && x & self.mant_mask() != 0
    }
    #[inline]
    pub const fn quiet(self, x: u64) -> u64 {
        x | self.quiet_bit()
    }
    /// A quiet NaN with an empty payload, negative or positive (0xffc00000 / 0x7fc00000 for f32).
    #[inline]
    pub const fn default_nan(self, negative: bool) -> u64 {
        ((negative as u64) * self.sign_bit()) | (self.exp_max() << self.mbits) | self.quiet_bit()
    }
    #[inline]
    pub const fn inf(self, neg: bool) -> u64 {
        (neg as u64) << (self.ebits + self.mbits) | self.exp_max() << self.mbits
    }
    #[inline]
    pub const fn max_finite(self, neg: bool) -> u64 {
        ((neg as u64) << (self.ebits + self.mbits)) | ((self.exp_max() << self.mbits) - 1)
    }
    #[inline]
    pub const fn zero(self, neg: bool) -> u64 {
        (neg as u64) << (self.ebits + self.mbits)
    }
    /// Flushes a denormal to zero of the same sign.
    #[inline]
    pub const fn flush(self, x: u64) -> u64 {
        if self.is_denorm(x) {
            x & self.sign_bit()
        } else {
            x
        }
    }
    /// Input denormal handling per MODE.FP_DENORM.
    #[inline]
    pub const fn flush_in(self, x: u64, c: &FpCtl) -> u64 {
        if c.ftz_in {
            self.flush(x)
        } else {
            x
        }
    }
    /// Finite value as (sign, exponent of the integer significand's LSB, significand).
    #[inline]
    pub const fn unpack(self, x: u64) -> (bool, i32, u64) {
        let e = self.exp_field(x) as i32;
        let m = x & self.mant_mask();
        let emin = 1 - self.bias() - self.mbits as i32;
        if e == 0 {
            (self.sign(x), emin, m)
        } else {
            (self.sign(x), e + emin - 1, m | 1 << self.mbits)
        }
    }
}

/// `x >> n`, ORing every bit shifted out into bit 0 (sticky).
#[inline]
fn jam(x: u128, n: u32) -> u128 {
    if n == 0 {
        x
    } else if n >= 128 {
        (x != 0) as u128
    } else {
        (x >> n) | ((x & ((1u128 << n) - 1)) != 0) as u128
    }
}

/// Rounds `(-1)^sign * mag * 2^exp` to format `f`. `mag` may carry a jammed sticky bit in bit 0
/// as long as it lies at least two bits below the format's rounding position (all callers keep
/// it there). An exact zero must be handled by the caller (its sign depends on the operation).
pub fn round_pack(f: FpFmt, sign: bool, exp: i32, mag: u128, c: &FpCtl) -> u64 {
    if mag == 0 {
        return f.zero(sign);
    }
    let msb = 127 - mag.leading_zeros() as i32;
    let top = exp + msb;
    let emin = 1 - f.bias();
    let mut lsb = if top < emin {
        emin - f.mbits as i32
    } else {
        top - f.mbits as i32
    };
    let shift = lsb - exp;
    let (mut q, inexact, cmp_half) = if shift <= 0 {
        // Exact: the value needs no more bits than the format has.
        (mag << (-shift) as u32, false, core::cmp::Ordering::Less)
    } else if shift > 127 {
        let half = if shift == 128 {
            mag.cmp(&(1u128 << 127))
        } else {
            core::cmp::Ordering::Less
        };
        (0u128, true, half)
    } else {
        let s = shift as u32;
        let rem = mag & ((1u128 << s) - 1);
        (mag >> s, rem != 0, rem.cmp(&(1u128 << (s - 1))))
    };
    let up = match c.rm {
        Round::NearestEven => {
            cmp_half == core::cmp::Ordering::Greater
                || (cmp_half == core::cmp::Ordering::Equal && q & 1 == 1)
        }
        Round::Zero => false,
        Round::Up => inexact && !sign,
        Round::Down => inexact && sign,
    };
    if c.detect {
        // Underflow: the exact non-zero value lies below the smallest normal (ISA 3.4.9:
        // "the exact or rounded result is less than the smallest normal").
        let mut e = if inexact { exc::INEXACT } else { 0 };
        if top < emin {
            e |= exc::UNDERFLOW;
        }
        raise(c, e);
    }
    q += up as u128;
    if q >> (f.mbits + 1) != 0 {
        // Rounding carried into a new binade; q was all ones so this shift is exact.
        q >>= 1;
        lsb += 1;
    }
    let (biased, frac) = if q >> f.mbits == 0 {
        (0i64, q as u64)
    } else {
        (
            (lsb + f.mbits as i32 + f.bias()) as i64,
            (q as u64) & f.mant_mask(),
        )
    };
    if biased >= f.exp_max() as i64 {
        raise(c, exc::OVERFLOW | exc::INEXACT);
        let to_inf = match c.rm {
            Round::NearestEven => true,
            Round::Zero => false,
            Round::Up => !sign,
            Round::Down => sign,
        };
        return if to_inf {
            f.inf(sign)
        } else {
            f.max_finite(sign)
        };
    }
    if c.ftz_out && biased == 0 && frac != 0 {
        // Flushing a tiny result loses it: inexact (and tiny, so underflow, raised above).
        raise(c, exc::INEXACT);
        return f.zero(sign);
    }
    f.zero(sign) | (biased as u64) << f.mbits | frac
}

/// Rounds a finite value of format `from` into format `to` (also used to apply output
/// flushing/rounding to a value already in `to`).
#[inline]
pub fn convert(from: FpFmt, to: FpFmt, x: u64, c: &FpCtl) -> u64 {
    if from.is_nan(x) {
        if from.is_snan(x) {
            raise(c, exc::INVALID);
        }
        // Quiet, keep the top payload bits (RDNA3: NaNs propagate through conversions).
        let payload = (x & from.mant_mask()) as u128;
        let p = if to.mbits >= from.mbits {
            (payload << (to.mbits - from.mbits)) as u64
        } else {
            (payload >> (from.mbits - to.mbits)) as u64
        };
        return to.quiet(to.inf(from.sign(x)) | p);
    }
    if from.is_inf(x) {
        return to.inf(from.sign(x));
    }
    let (s, e, m) = from.unpack(x);
    round_pack(to, s, e, m as u128, c)
}

/// Exact signed sum of two unpacked values, returned as (sign, exp, mag) ready for
/// `round_pack`; an exact zero comes back as mag 0 with the IEEE sign (-0 only for -0 + -0, or
/// for exact cancellation when rounding down).
fn add_exact(a: (bool, i32, u128), b: (bool, i32, u128), rm: Round) -> (bool, i32, u128) {
    let (sa, ea, ma) = a;
    let (sb, eb, mb) = b;
    if ma == 0 && mb == 0 {
        let s = if sa == sb { sa } else { rm == Round::Down };
        return (s, 0, 0);
    }
    if ma == 0 {
        return b;
    }
    if mb == 0 {
        return a;
    }
    // Frame: the larger operand's MSB at bit 125 (room for the carry); the smaller one is
    // shifted into the frame, jamming what falls off the bottom (>= 72 bits below the larger
    // operand's significand, so the sticky never reaches a rounding position).
    let ta = ea + (127 - ma.leading_zeros() as i32);
    let tb = eb + (127 - mb.leading_zeros() as i32);
    let frame = ta.max(tb) - 125;
    let place = |e: i32, m: u128| -> u128 {
        let s = e - frame;
        if s >= 0 {
            m << s as u32
        } else {
            jam(m, (-s) as u32)
        }
    };
    let (xa, xb) = (place(ea, ma), place(eb, mb));
    if sa == sb {
        (sa, frame, xa + xb)
    } else if xa > xb {
        (sa, frame, xa - xb)
    } else if xb > xa {
        (sb, frame, xb - xa)
    } else {
        (rm == Round::Down, frame, 0)
    }
}

#[inline]
fn unpack128(f: FpFmt, x: u64) -> (bool, i32, u128) {
    let (s, e, m) = f.unpack(x);
    (s, e, m as u128)
}

/// The default NaN of an invalid operation, raising INVALID.
#[inline]
pub fn invalid(f: FpFmt, c: &FpCtl) -> u64 {
    raise(c, exc::INVALID);
    f.default_nan(c.nan.default_negative)
}

/// The NaN result for NaN inputs under the control's [`NanPolicy`]: the first NaN operand,
/// quieted, or the default NaN.
#[inline]
pub fn nan_of(f: FpFmt, xs: &[u64], c: &FpCtl) -> Option<u64> {
    let n = xs.iter().find(|&&x| f.is_nan(x))?;
    Some(if c.nan.propagate {
        f.quiet(*n)
    } else {
        f.default_nan(c.nan.default_negative)
    })
}

/// a + b (inputs already input-flushed by the caller via `c`).
pub fn add(f: FpFmt, a: u64, b: u64, c: &FpCtl) -> u64 {
    let (a, b) = (input(f, a, c), input(f, b, c));
    if let Some(n) = nan_of(f, &[a, b], c) {
        return n;
    }
    match (f.is_inf(a), f.is_inf(b)) {
        (true, true) if f.sign(a) != f.sign(b) => return invalid(f, c),
        (true, _) => return a,
        (_, true) => return b,
        _ => {}
    }
    let (s, e, m) = add_exact(unpack128(f, a), unpack128(f, b), c.rm);
    round_pack(f, s, e, m, c)
}

/// a * b.
pub fn mul(f: FpFmt, a: u64, b: u64, c: &FpCtl) -> u64 {
    let (a, b) = (input(f, a, c), input(f, b, c));
    if let Some(n) = nan_of(f, &[a, b], c) {
        return n;
    }
    let s = f.sign(a) != f.sign(b);
    let (ia, ib) = (f.is_inf(a), f.is_inf(b));
    if ia || ib {
        if f.is_zero(a) || f.is_zero(b) {
            return invalid(f, c);
        }
        return f.inf(s);
    }
    let (_, ea, ma) = f.unpack(a);
    let (_, eb, mb) = f.unpack(b);
    round_pack(f, s, ea + eb, ma as u128 * mb as u128, c)
}

/// The exact value of fma(a, b, c) as (sign, exp, mag), or the final result for NaN, infinite
/// and exact-zero cases.
fn fma_exact(f: FpFmt, a: u64, b: u64, cc: u64, c: &FpCtl) -> Result<(bool, i32, u128), u64> {
    let (a, b, cc) = (input(f, a, c), input(f, b, c), input(f, cc, c));
    if let Some(n) = nan_of(f, &[a, b, cc], c) {
        return Err(n);
    }
    let sp = f.sign(a) != f.sign(b);
    let (ia, ib, ic) = (f.is_inf(a), f.is_inf(b), f.is_inf(cc));
    if ia || ib {
        if f.is_zero(a) || f.is_zero(b) || (ic && f.sign(cc) != sp) {
            return Err(invalid(f, c));
        }
        return Err(f.inf(sp));
    }
    if ic {
        return Err(cc);
    }
    let (_, ea, ma) = f.unpack(a);
    let (_, eb, mb) = f.unpack(b);
    let p = (sp, ea + eb, ma as u128 * mb as u128);
    let (s, e, m) = add_exact(p, unpack128(f, cc), c.rm);
    if m == 0 {
        return Err(f.zero(s));
    }
    Ok((s, e, m))
}

/// fma(a, b, c) = a * b + c with a single rounding.
pub fn fma(f: FpFmt, a: u64, b: u64, cc: u64, c: &FpCtl) -> u64 {
    match fma_exact(f, a, b, cc, c) {
        Ok((s, e, m)) => round_pack(f, s, e, m, c),
        Err(v) => v,
    }
}

/// fma(a, b, c) * 2^k with one rounding (v_div_fmas applies its 2^+-64 / 2^+-128 to the exact
/// fma, see `ops::div_fmas`).
pub fn fma_scaled(f: FpFmt, a: u64, b: u64, cc: u64, k: i32, c: &FpCtl) -> u64 {
    match fma_exact(f, a, b, cc, c) {
        Ok((s, e, m)) => round_pack(f, s, e + k, m, c),
        Err(v) => v,
    }
}

/// x * 2^n, rounded (ldexp; also the output modifier).
pub fn ldexp(f: FpFmt, x: u64, n: i32, c: &FpCtl) -> u64 {
    let x = input(f, x, c);
    if f.is_nan(x) {
        return f.quiet(x);
    }
    if f.is_inf(x) || f.is_zero(x) {
        return x;
    }
    let (s, e, m) = f.unpack(x);
    // Clamp the scale: beyond +-4096 every format has already overflowed/underflowed.
    round_pack(f, s, e.saturating_add(n.clamp(-4096, 4096)), m as u128, c)
}

/// A signed integer rounded into format `f`.
#[inline]
pub fn from_i64(f: FpFmt, v: i64, c: &FpCtl) -> u64 {
    round_pack(f, v < 0, 0, v.unsigned_abs() as u128, c)
}

/// Bits of a host f64 rounded into format `f` (for values computed in f64, e.g. sqrt).
#[inline]
pub fn from_f64(f: FpFmt, x: f64, c: &FpCtl) -> u64 {
    convert(F64, f, x.to_bits(), c)
}

/// A finite, NaN or infinite value of format `f` as a host f64 (exact for every format here).
#[inline]
pub fn to_f64(f: FpFmt, x: u64) -> f64 {
    if f == F64 {
        return f64::from_bits(x);
    }
    f64::from_bits(convert(f, F64, x, &FpCtl::IEEE))
}

/// Round to an integral value in the given direction (v_trunc/v_floor/v_ceil/v_rndne); exact.
pub fn round_int(f: FpFmt, x: u64, rm: Round) -> u64 {
    if f.is_nan(x) {
        return f.quiet(x);
    }
    if f.is_inf(x) || f.is_zero(x) {
        return x;
    }
    let (s, e, m) = f.unpack(x);
    if e >= 0 {
        return x;
    }
    let c = FpCtl { rm, ..FpCtl::IEEE };
    // Round the significand at the binary point, then re-pack (result is an integer).
    let sh = (-e) as u32;
    let m = m as u128;
    let (q, rem, half) = if sh >= 100 {
        (0u128, m, u128::MAX)
    } else {
        (m >> sh, m & ((1u128 << sh) - 1), 1u128 << (sh - 1))
    };
    let inexact = rem != 0;
    let up = match rm {
        Round::NearestEven => rem > half || (rem == half && q & 1 == 1),
        Round::Zero => false,
        Round::Up => inexact && !s,
        Round::Down => inexact && s,
    };
    let q = q + up as u128;
    if q == 0 {
        return f.zero(s);
    }
    round_pack(f, s, 0, q, &c)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The NaN policy decides NaN results: RDNA3 propagates the first NaN operand quieted and
    /// gives the negative default NaN for invalid operations; a default-NaN ISA gives its
    /// default NaN for both.
    #[test]
    fn nan_policy_decides_nan_results() {
        let snan = 0x7f80_0001u64; // signalling NaN with payload 1
        let qnan = 0xffc0_0123u64;
        let inf = 0x7f80_0000u64;
        let ninf = 0xff80_0000u64;
        let rdna3 = FpCtl::IEEE;
        assert_eq!(add(F32, 1, snan, &rdna3), 0x7fc0_0001, "first NaN, quieted");
        assert_eq!(
            mul(F32, qnan, snan, &rdna3),
            qnan,
            "the first NaN operand wins"
        );
        assert_eq!(add(F32, inf, ninf, &rdna3), 0xffc0_0000, "inf - inf");
        let arm = FpCtl {
            nan: NanPolicy {
                propagate: false,
                default_negative: false,
            },
            ..FpCtl::IEEE
        };
        assert_eq!(add(F32, 1, snan, &arm), 0x7fc0_0000);
        assert_eq!(fma(F32, qnan, 1, 2, &arm), 0x7fc0_0000);
        assert_eq!(add(F32, inf, ninf, &arm), 0x7fc0_0000);
        assert_eq!(F64.default_nan(true), 0xfff8_0000_0000_0000);
        assert_eq!(F16.default_nan(false), 0x7e00);
    }
}
