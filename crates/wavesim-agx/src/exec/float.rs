//! Float ALU: fused multiply-add family, unary rounding and transcendentals, conversions.

use super::{
    active, dst_reg, float_src, int_src, missing, per_thread, require_approximate, sign_extend,
    Fault, Ops, WaveState, SIMD_WIDTH,
};
use crate::fp;
use crate::operand::{Operand, Reg};
use crate::table_types::Sem;

/// f16/f32 fused multiply-add, add and multiply: rounded once (see `fp`), 32-bit forms through f32
/// before a 16-bit destination (applegpu).
pub(super) fn fma_family(w: &mut WaveState, o: &Ops<'_>, sem: Sem) -> Result<(), Fault> {
    let dop = o.op("D")?;
    let dst = dst_reg(dop)?;
    let a_op = o.op("A")?;
    let b_op = o.op("B")?;
    let c_op = if matches!(sem, Sem::FMadd32 | Sem::FMadd16) {
        Some(o.op("C")?)
    } else {
        None
    };
    let sat = o.field("S") != 0;
    // Fast path: a 32-bit form into a 32-bit register without saturation. The sources are exactly
    // representable in f32 (f16, flushed f32 and the 8-bit immediates all are), so when the host's
    // correctly rounded f32 fused multiply-add is finite and either zero or above the smallest normal,
    // it equals the round-to-odd-then-nearest result (a zero keeps the exact result's sign in both, and
    // nothing flushes). Otherwise (NaN, infinities, results near or below the normal range) the exact
    // path below decides.
    let fast =
        !sat && dst.file.bits() == 32 && matches!(sem, Sem::FMadd32 | Sem::FAdd32 | Sem::FMul32);
    per_thread(w, dop, |w, l| {
        let a = float_src(w, a_op, l)?;
        let b = float_src(w, b_op, l)?;
        if fast {
            let (af, bf) = (f64::from_bits(a) as f32, f64::from_bits(b) as f32);
            let host = match sem {
                Sem::FMadd32 => {
                    let c =
                        f64::from_bits(float_src(w, c_op.ok_or_else(|| missing("C"))?, l)?) as f32;
                    (af.is_finite() && bf.is_finite() && c.is_finite()).then(|| af.mul_add(bf, c))
                }
                Sem::FAdd32 => (af.is_finite() && bf.is_finite()).then(|| af.mul_add(1.0, bf)),
                _ => (af.is_finite() && bf.is_finite()).then(|| af.mul_add(bf, 0.0)),
            };
            if let Some(r) =
                host.filter(|r| r.is_finite() && (*r == 0.0 || r.abs() > f32::MIN_POSITIVE))
            {
                return Ok(r.to_bits() as u128);
            }
        }
        let r = match sem {
            Sem::FMadd32 | Sem::FMadd16 => {
                let c = float_src(w, c_op.ok_or_else(|| missing("C"))?, l)?;
                fp::fma_round_to_odd(a, b, c)
            }
            Sem::FAdd32 | Sem::FAdd16 => fp::fma_round_to_odd(a, fp::F64_ONE, b),
            _ => fp::fma_round_to_odd(a, b, 0),
        };
        // 32-bit forms round to f32 first (so a 16-bit destination double-rounds).
        let r = if matches!(sem, Sem::FMadd32 | Sem::FAdd32 | Sem::FMul32) {
            widen_f32_result(fp::f64_to_f32(r, true))
        } else {
            r
        };
        Ok(float_result(r, dst, sat))
    })?;
    Ok(())
}

/// Rounding and transcendental unary ops: computed in f64 from the widened source, rounded to the
/// destination (see the module documentation of `exec`).
pub(super) fn unary(w: &mut WaveState, o: &Ops<'_>, sem: Sem) -> Result<(), Fault> {
    map_unary(w, o, |a| match sem {
        Sem::Floor => a.floor(),
        Sem::Ceil => a.ceil(),
        Sem::Trunc => a.trunc(),
        Sem::Rint => a.round_ties_even(),
        Sem::Rcp => 1.0 / a,
        Sem::Rsqrt => 1.0 / a.sqrt(),
        Sem::Log2 => a.log2(),
        _ => a.exp2(),
    })
}

/// D = f(A) per active thread: A widened to f64, the result (NaN canonical) rounded to D.
fn map_unary(w: &mut WaveState, o: &Ops<'_>, f: impl Fn(f64) -> f64) -> Result<(), Fault> {
    let dop = o.op("D")?;
    let dst = dst_reg(dop)?;
    let a_op = o.op("A")?;
    let sat = o.field("S") != 0;
    per_thread(w, dop, |w, l| {
        let r = f(f64::from_bits(float_src(w, a_op, l)?));
        let r = if r.is_nan() {
            fp::F64_CANONICAL_NAN
        } else {
            r.to_bits()
        };
        Ok(float_result(r, dst, sat))
    })?;
    Ok(())
}

/// `sin_pt_1`, `sin_pt_2`, `rsqrt_special` under the explicit opt-in ([`WaveState::approximate`]):
/// the M1's approximations are not public, so these compute the documented intent instead, and each
/// execution is counted in [`WaveState::approximated`] by name. Without the opt-in they stop with
/// `Fault::Unsupported`.
/// - `rsqrt_special` (applegpu: "can be used to implement fast sqrt as rsqrt_special(x) * x, by
///   handling special-cases differently"; Mesa lowers `fsqrt` to exactly that product): 1/sqrt(x),
///   except +-0 -> +0 and +inf -> +inf so that the product is sqrt(x) there too (0, -0, inf).
/// - `sin_pt_1`/`sin_pt_2` (applegpu: sin_pt_1 takes the angle in quarter turns q in [0, 4), its
///   intermediate result goes to sin_pt_2, "and the two results are multiplied to give sin"; Mesa
///   names them `fixup` and `sinc`): sin_pt_1(q) = t, q folded into [-1, 1] with sin(t pi/2) =
///   sin(q pi/2) (t = q, 2 - q, q - 4 by quadrant); sin_pt_2(t) = sin(t pi/2) / t (pi/2 at 0), so
///   sin_pt_1(q) * sin_pt_2(sin_pt_1(q)) = sin(q pi/2) up to rounding.
pub(super) fn approximation(
    w: &mut WaveState,
    o: &Ops<'_>,
    sem: Sem,
    name: &'static str,
) -> Result<(), Fault> {
    require_approximate(w, name)?;
    let half_pi = std::f64::consts::FRAC_PI_2;
    map_unary(w, o, |a| match sem {
        Sem::RsqrtSpecial if a == 0.0 => 0.0,
        Sem::RsqrtSpecial if a == f64::INFINITY => f64::INFINITY,
        Sem::RsqrtSpecial => 1.0 / a.sqrt(),
        Sem::SinPt1 if !(0.0..4.0).contains(&a) => f64::NAN,
        Sem::SinPt1 if a < 1.0 => a,
        Sem::SinPt1 if a < 3.0 => 2.0 - a,
        Sem::SinPt1 => a - 4.0,
        _ if a == 0.0 => half_pi,
        _ => (a * half_pi).sin() / a,
    })?;
    *w.approximated.entry(name).or_insert(0) += 1;
    Ok(())
}

/// `convert`: integer to float or float to integer by the encoded mode (mode names from applegpu's
/// table, as Mesa's `agx_opcodes.py` `convert`). Integer sources are truncated to the mode's width and
/// sign-extended for signed modes, then rounded to the destination float (f16 for a 16-bit destination,
/// f32 otherwise) by the `round` field (rte: nearest even, rtz: toward zero). Float sources (f16 or f32
/// by register size; f32 denormals flush) are rounded by the same field and saturate to the mode's
/// integer range, NaN giving 0 (wavesim's rule: the hardware's out-of-range behaviour is not documented
/// publicly; saturation is what Metal's and OpenCL's saturating conversions require).
pub(super) fn convert(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    let mode = o.field("mode");
    let rtz = match o.field("round") {
        0 => true,
        1 => false,
        r => {
            return Err(Fault::UnsupportedForm {
                what: format!("convert rounding mode {r}"),
            })
        }
    };
    let dop = o.op("D")?;
    let dst = dst_reg(dop)?;
    let src = o.op("src")?;
    enum Kind {
        IntToFloat { bits: u32, signed: bool },
        FloatToInt { bits: u32, signed: bool },
    }
    let kind = match mode {
        0 => Kind::IntToFloat {
            bits: 8,
            signed: false,
        },
        1 => Kind::IntToFloat {
            bits: 8,
            signed: true,
        },
        4 => Kind::FloatToInt {
            bits: 16,
            signed: false,
        },
        5 => Kind::FloatToInt {
            bits: 16,
            signed: true,
        },
        6 => Kind::IntToFloat {
            bits: 16,
            signed: false,
        },
        7 => Kind::IntToFloat {
            bits: 16,
            signed: true,
        },
        8 => Kind::FloatToInt {
            bits: 32,
            signed: false,
        },
        9 => Kind::FloatToInt {
            bits: 32,
            signed: true,
        },
        10 => Kind::IntToFloat {
            bits: 32,
            signed: false,
        },
        11 => Kind::IntToFloat {
            bits: 32,
            signed: true,
        },
        m => {
            return Err(Fault::UnsupportedForm {
                what: format!("convert mode {m}"),
            })
        }
    };
    per_thread(w, dop, |w, l| {
        Ok(match kind {
            Kind::IntToFloat { bits, signed } => {
                let v = int_src(w, src, l)? as u64 & ((1u64 << bits) - 1);
                let x = if signed {
                    sign_extend(v, bits) as f64
                } else {
                    v as f64
                };
                let to_f16 = dst.file.bits() == 16;
                let r = if rtz {
                    fp::narrow_toward_zero(x.to_bits(), to_f16)
                } else if to_f16 {
                    fp::f64_to_f16(x.to_bits())
                } else {
                    fp::f64_to_f32(x.to_bits(), false)
                };
                r as u128
            }
            Kind::FloatToInt { bits, signed } => {
                let x = match src {
                    Operand::Reg(..) => f64::from_bits(float_src(w, src, l)?),
                    _ => {
                        return Err(Fault::UnsupportedForm {
                            what: "convert from an immediate float".into(),
                        })
                    }
                };
                let r = if rtz { x.trunc() } else { x.round_ties_even() };
                let (lo, hi) = if signed {
                    (
                        -(2f64.powi(bits as i32 - 1)),
                        2f64.powi(bits as i32 - 1) - 1.0,
                    )
                } else {
                    (0.0, 2f64.powi(bits as i32) - 1.0)
                };
                if r.is_nan() {
                    0
                } else {
                    r.clamp(lo, hi) as i64 as u128
                }
            }
        })
    })
}

/// f32 result bits widened back to f64 (no flush: the value was already flushed when narrowed).
pub(super) fn widen_f32_result(bits: u64) -> u64 {
    // Bits beyond 32 only arise from a NaN rounding carry; they keep their weight as in applegpu.
    let s = bits >> 31;
    let e = (bits >> 23) & 0xFF;
    let f = bits & 0x7F_FFFF;
    let (e, f) = if e == 0xFF {
        (0x7FFu64, f)
    } else if e == 0 {
        if f == 0 {
            (0, 0)
        } else {
            let v = (f32::from_bits(f as u32) as f64).to_bits();
            return (s << 63) | v;
        }
    } else {
        (e + 1023 - 127, f)
    };
    (s << 63) | (e << 52) | (f << 29)
}

/// Round an f64 result to the destination: saturate if `sat`, then f16 (subnormals kept) or f32 (flush).
pub(super) fn float_result(bits: u64, dst: Reg, sat: bool) -> u128 {
    let bits = if sat { fp::saturate(bits) } else { bits };
    if dst.file.bits() == 16 {
        fp::f64_to_f16(bits) as u128
    } else {
        fp::f64_to_f32(bits, true) as u128
    }
}

/// `dfdx` / `dfdy`: the fine derivative within the thread's 2x2 quad (threads 4q..4q+3, thread
/// 4q + dx + 2dy at pixel (dx, dy), the quad order of Vulkan's derivative groups): A at the right
/// (lower) pixel minus A at the left (upper) pixel of the thread's row (column), rounded once like
/// `fadd` (round to odd at f64, then to the destination). The neighbour's value is
/// read whether or not that thread is active (helper threads exist for this). Source of the rule:
/// the Vulkan/GL definition of fine derivatives; applegpu has the encodings but no semantics.
pub(super) fn derivative(w: &mut WaveState, o: &Ops<'_>, vertical: bool) -> Result<(), Fault> {
    let dop = o.op("D")?;
    let dst = dst_reg(dop)?;
    let a_op = o.op("A")?;
    let sat = o.field("S") != 0;
    let step = if vertical { 2 } else { 1 };
    // Every thread's result is computed before any is written: the destination may be the source
    // (Mesa emits `dfdy r6, r6`), and a thread must see its neighbour's value from before this
    // instruction, not the neighbour's derivative.
    let mut results = [(0usize, 0u128); SIMD_WIDTH];
    let mut n = 0;
    for l in active(w) {
        let low = l & !step;
        let a = float_src(w, a_op, low)?;
        let b = float_src(w, a_op, low | step)?;
        let r = fp::fma_round_to_odd(b, fp::F64_ONE, a ^ (1 << 63));
        results[n] = (l, float_result(r, dst, sat));
        n += 1;
    }
    for &(l, v) in &results[..n] {
        w.write(dst, l, v)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::fp;

    /// The exact path of `fma_family` for a 32-bit form into a 32-bit register (applegpu's rounding).
    fn exact(a: f32, b: f32, c: f32) -> u32 {
        let w = |x: f32| fp::f32_to_f64_ftz(x.to_bits() as u64);
        let r = fp::fma_round_to_odd(w(a), w(b), w(c));
        let r = super::widen_f32_result(fp::f64_to_f32(r, true));
        super::float_result(
            r,
            crate::operand::Reg {
                file: crate::operand::RegFile::R32,
                n: 0,
            },
            false,
        ) as u32
    }

    /// Where the fast path answers, it answers what the exact path does.
    #[test]
    fn fast_fma_path_agrees_with_the_exact_path() {
        let specials = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            0.5,
            3.0,
            f32::MIN_POSITIVE,
            -f32::MIN_POSITIVE,
            f32::MIN_POSITIVE * 1.5,
            f32::MAX,
            -f32::MAX,
            1e-20,
            1e20,
            16_777_217.0,
            1.0 + f32::EPSILON,
            1e-30,
            2.0f32.powi(-63),
        ];
        let mut x = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        let mut checked = 0;
        for i in 0..200_000 {
            let pick = |r: u64| -> f32 {
                match r % 4 {
                    0 => specials[(r >> 8) as usize % specials.len()],
                    1 => f32::from_bits((r >> 16) as u32),
                    // products near the bottom of the normal range
                    2 => f32::from_bits(0x1f00_0000 | ((r >> 16) as u32 & 0x80ff_ffff)),
                    _ => ((r >> 16) as u32 as f32) * if r & 1 == 1 { -1e-3 } else { 1e-3 },
                }
            };
            let (a, b, c) = (
                pick(next()),
                pick(next()),
                if i % 3 == 0 { 0.0 } else { pick(next()) },
            );
            // flushed inputs are what the fast path receives
            let flush = |v: f32| f64::from_bits(fp::f32_to_f64_ftz(v.to_bits() as u64)) as f32;
            let (fa, fb, fc) = (flush(a), flush(b), flush(c));
            if !(fa.is_finite() && fb.is_finite() && fc.is_finite()) {
                continue;
            }
            let r = fa.mul_add(fb, fc);
            if r.is_finite() && (r == 0.0 || r.abs() > f32::MIN_POSITIVE) {
                assert_eq!(r.to_bits(), exact(a, b, c), "{a:e} * {b:e} + {c:e}");
                checked += 1;
            }
        }
        assert!(checked > 100_000);
    }
}
