//! Fused multiply-add over lane arrays through the host's FMA instruction when the CPU has one.
//!
//! On the baseline x86-64 target `f32::mul_add`/`f64::mul_add` compile to calls of libm's
//! `fmaf`/`fma`, one call per lane, which also keeps the lane loop from vectorising. The loops
//! here are compiled a second time with `#[target_feature(enable = "fma")]` and chosen at run
//! time (std caches the CPUID result). Both variants compute the IEEE 754 fusedMultiplyAdd
//! (one rounding, round to nearest even), so the results are bit-identical; only the speed
//! differs. Each variant is its own non-inlined function so the surrounding handlers' code is
//! unchanged (an earlier attempt that inlined the wrapper moved mandelbrot's code around).

/// One 32-bit value per lane of a wave of up to 64 lanes.
pub type Lanes32 = [u32; 64];
/// One 64-bit value per lane.
pub type Lanes64 = [u64; 64];

/// `out[l] = fma(a[l], b[l], c[l])` on the f32 bit patterns of lanes `0..n` (`n` <= 64).
#[inline]
pub fn f32_lanes(a: &Lanes32, b: &Lanes32, c: &Lanes32, out: &mut Lanes32, n: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU supports FMA (checked just above).
            unsafe { f32_lanes_fma(a, b, c, out, n) };
            return;
        }
    }
    f32_lanes_soft(a, b, c, out, n)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
#[inline(never)]
fn f32_lanes_fma(a: &Lanes32, b: &Lanes32, c: &Lanes32, out: &mut Lanes32, n: usize) {
    let n = n.min(out.len());
    for l in 0..n {
        out[l] = f32::from_bits(a[l])
            .mul_add(f32::from_bits(b[l]), f32::from_bits(c[l]))
            .to_bits();
    }
}

#[inline(never)]
fn f32_lanes_soft(a: &Lanes32, b: &Lanes32, c: &Lanes32, out: &mut Lanes32, n: usize) {
    let n = n.min(out.len());
    for l in 0..n {
        out[l] = f32::from_bits(a[l])
            .mul_add(f32::from_bits(b[l]), f32::from_bits(c[l]))
            .to_bits();
    }
}

/// `out[l] = fma(a[l], b[l], c[l])` on the f64 bit patterns of lanes `0..n` (`n` <= 64).
#[inline]
pub fn f64_lanes(a: &Lanes64, b: &Lanes64, c: &Lanes64, out: &mut Lanes64, n: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU supports FMA (checked just above).
            unsafe { f64_lanes_fma(a, b, c, out, n) };
            return;
        }
    }
    f64_lanes_soft(a, b, c, out, n)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
#[inline(never)]
fn f64_lanes_fma(a: &Lanes64, b: &Lanes64, c: &Lanes64, out: &mut Lanes64, n: usize) {
    let n = n.min(out.len());
    for l in 0..n {
        out[l] = f64::from_bits(a[l])
            .mul_add(f64::from_bits(b[l]), f64::from_bits(c[l]))
            .to_bits();
    }
}

#[inline(never)]
fn f64_lanes_soft(a: &Lanes64, b: &Lanes64, c: &Lanes64, out: &mut Lanes64, n: usize) {
    let n = n.min(out.len());
    for l in 0..n {
        out[l] = f64::from_bits(a[l])
            .mul_add(f64::from_bits(b[l]), f64::from_bits(c[l]))
            .to_bits();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    const LANES: usize = 64;

    /// Both variants against the definition: exact product plus addend, one rounding. Cases
    /// where a separate multiply and add would round differently, plus specials.
    #[test]
    fn matches_fused_definition() {
        let cases: [(f32, f32, f32); 6] = [
            // (1+2^-12)^2 - 1 = 2^-11 + 2^-24: exact in f32 only when fused.
            (1.0 + 2f32.powi(-12), 1.0 + 2f32.powi(-12), -1.0),
            (3.0, 0.5, 0.25),
            (f32::MAX, 2.0, -f32::MAX),
            (1e-38, 1e-2, 0.0),
            (f32::INFINITY, 0.0, 1.0),
            (-0.0, 1.0, 0.0),
        ];
        let mut a = [0u32; LANES];
        let mut b = [0u32; LANES];
        let mut c = [0u32; LANES];
        for (l, &(x, y, z)) in cases.iter().enumerate() {
            (a[l], b[l], c[l]) = (x.to_bits(), y.to_bits(), z.to_bits());
        }
        let mut out = [0xdead_beefu32; LANES];
        f32_lanes(&a, &b, &c, &mut out, cases.len());
        let mut soft = [0xdead_beefu32; LANES];
        f32_lanes_soft(&a, &b, &c, &mut soft, cases.len());
        // The f64 product of two f32 values is exact, and for these cases so is the f64 sum, so
        // the one rounding is the final conversion to f32.
        let expect = |x: f32, y: f32, z: f32| (x as f64 * y as f64 + z as f64) as f32;
        for (l, &(x, y, z)) in cases.iter().enumerate() {
            let e = expect(x, y, z);
            if e.is_nan() {
                assert!(f32::from_bits(out[l]).is_nan(), "lane {l}");
                assert!(f32::from_bits(soft[l]).is_nan(), "lane {l}");
            } else {
                assert_eq!(out[l], e.to_bits(), "lane {l}");
                assert_eq!(soft[l], e.to_bits(), "lane {l}");
            }
        }
        assert_eq!(out[0], (2f32.powi(-11) + 2f32.powi(-24)).to_bits());
        // Lanes at and past n are not written.
        assert_eq!(out[cases.len()], 0xdead_beef);
    }

    /// f64: a case only a fused operation gets right, an overflow, a tiny result and a NaN.
    #[test]
    fn f64_matches_fused_definition() {
        let e = 2f64.powi(-27);
        // (1+e)^2 - 1 = 2e + e^2, exactly representable; unfused it rounds to 2e.
        let cases: [(f64, f64, f64, f64); 4] = [
            (1.0 + e, 1.0 + e, -1.0, 2.0 * e + e * e),
            (f64::MAX, 2.0, 0.0, f64::INFINITY),
            // 2^-1074 spelled as bits: powi(-1074) computes 1/2^1074 and gives 0 unoptimised.
            (2f64.powi(-600), 2f64.powi(-474), 0.0, f64::from_bits(1)),
            (f64::INFINITY, 0.0, 1.0, f64::NAN),
        ];
        let mut a = [0u64; LANES];
        let mut b = [0u64; LANES];
        let mut c = [0u64; LANES];
        for (l, &(x, y, z, _)) in cases.iter().enumerate() {
            (a[l], b[l], c[l]) = (x.to_bits(), y.to_bits(), z.to_bits());
        }
        let mut out = [7u64; LANES];
        let mut soft = [7u64; LANES];
        f64_lanes(&a, &b, &c, &mut out, cases.len());
        f64_lanes_soft(&a, &b, &c, &mut soft, cases.len());
        for (l, &(_, _, _, e)) in cases.iter().enumerate() {
            for r in [out[l], soft[l]] {
                if e.is_nan() {
                    assert!(f64::from_bits(r).is_nan(), "lane {l}");
                } else {
                    assert_eq!(r, e.to_bits(), "lane {l}");
                }
            }
        }
        assert_eq!(out[cases.len()], 7);
    }
}
