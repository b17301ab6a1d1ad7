//! The depth and stencil tests and their buffer updates (Vulkan 1.3 "Fragment Operations":
//! "Depth Bounds Test", "Stencil Test", "Depth Test"), in the spec's order: the depth bounds
//! test (the stored depth za must lie in [minDepthBounds, maxDepthBounds], else the fragment
//! is dropped before the stencil test and changes nothing; without a depth buffer it passes),
//! the stencil test, the depth test, then the stencil op chosen by both outcomes and the depth
//! write.
//!
//! Depth is D32_SFLOAT: no conversion and no clamp unless depth clamp is on (then zf is clamped
//! to [min(minDepth, maxDepth), max(minDepth, maxDepth)]). Comparisons are IEEE: with a NaN
//! operand every op but NOT_EQUAL and ALWAYS fails. D16_UNORM: zf is converted to the format
//! before the test and the write ("Depth Test": a fixed-point attachment compares and stores
//! the converted value; "Fixed-Point Data Conversions": clamp to [0, 1], then one of the two
//! integers nearest zf x 65535, "should" round to nearest): [`d16`] rounds to nearest with
//! ties to even (the spec leaves the tie to the implementation; which way the gfx11 DB breaks
//! one is not documented, and a tie needs zf x 65535 to be exactly k + 1/2), NaN to 0. Without a depth (stencil) buffer the depth
//! (stencil) test passes and nothing is written, as the spec says for a missing attachment.

use crate::gfx::pipeline::{
    CompareOp, DepthBias, DepthFormat, DepthStencilState, StencilFace, StencilOp,
};

/// The depth bias o of a polygon (Vulkan 1.3 "Depth Bias"): o = m x slope + r x constant,
/// clamped to `clamp` when it is non-zero (min for a positive clamp, max for a negative one),
/// added to every fragment's rasterised depth before depth clamping and conversion. m =
/// max(|dzf/dxf|, |dzf/dyf|) of the snapped triangle's plane (`dz`), the approximation the
/// spec allows for sqrt(dzf/dxf^2 + dzf/dyf^2); r, the minimum resolvable difference: 2^-16
/// for D16_UNORM (RADV programs PA_SU_POLY_OFFSET_DB_FMT_CNTL.POLY_OFFSET_NEG_NUM_DB_BITS =
/// -16) and 2^(e - 23) for D32_SFLOAT, e the exponent of the largest |zf| of the vertices
/// (-126 when it is 0 or subnormal; RADV: NEG_NUM_DB_BITS -23 with DB_IS_FLOAT_FMT). Computed
/// in f64. The spec leaves m and r approximate: which approximation gfx11's PA makes is not
/// documented, so results are compared with other implementations within the spec's
/// tolerance, not bit for bit.
pub fn bias_offset(b: &DepthBias, (dzdx, dzdy): (f64, f64), z: [f64; 3], f: DepthFormat) -> f64 {
    let m = dzdx.abs().max(dzdy.abs());
    let r = match f {
        DepthFormat::D16Unorm => 2f64.powi(-16),
        DepthFormat::D32Sfloat => {
            let zmax = z.iter().fold(0f64, |a, v| a.max(v.abs())) as f32;
            let e = ((zmax.to_bits() >> 23 & 0xff) as i32 - 127).max(-126);
            2f64.powi(e - 23)
        }
    };
    let o = m * b.slope as f64 + r * b.constant as f64;
    let c = b.clamp as f64;
    if c > 0.0 {
        o.min(c)
    } else if c < 0.0 {
        o.max(c)
    } else {
        o
    }
}

/// The 16-bit value D16_UNORM stores for depth `z` (the module documentation).
pub fn d16(z: f32) -> u16 {
    if z.is_nan() {
        return 0;
    }
    (z.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u16
}

/// The f32 a D16_UNORM buffer holds for its value `k`.
pub fn d16_value(k: u16) -> f32 {
    k as f32 / 65535.0
}

/// `a op b` (the incoming value first: LESS passes when incoming < stored).
pub fn compare<T: PartialOrd>(op: CompareOp, a: T, b: T) -> bool {
    match op {
        CompareOp::Never => false,
        CompareOp::Less => a < b,
        CompareOp::Equal => a == b,
        CompareOp::LessOrEqual => a <= b,
        CompareOp::Greater => a > b,
        CompareOp::NotEqual => a != b,
        CompareOp::GreaterOrEqual => a >= b,
        CompareOp::Always => true,
    }
}

/// The stencil value `op` makes of `s` (before the write mask).
pub fn stencil_op(op: StencilOp, s: u8, reference: u8) -> u8 {
    match op {
        StencilOp::Keep => s,
        StencilOp::Zero => 0,
        StencilOp::Replace => reference,
        StencilOp::IncrementAndClamp => s.saturating_add(1),
        StencilOp::DecrementAndClamp => s.saturating_sub(1),
        StencilOp::Invert => !s,
        StencilOp::IncrementAndWrap => s.wrapping_add(1),
        StencilOp::DecrementAndWrap => s.wrapping_sub(1),
    }
}

/// The depth and stencil buffers of a draw.
pub struct DepthStencil<'a> {
    pub state: &'a DepthStencilState,
    pub depth: Option<&'a mut Vec<f32>>,
    pub stencil: Option<&'a mut Vec<u8>>,
}

impl DepthStencil<'_> {
    /// Tests fragment `z` at pixel index `i` of a front- or back-facing primitive and updates the
    /// buffers; whether the fragment survives to the colour stage.
    pub fn test(&mut self, i: usize, z: f32, front: bool) -> bool {
        let st = self.state;
        let z = match st.depth_range_clamp {
            Some((lo, hi)) => z.clamp(lo, hi),
            None => z,
        };
        let z = match st.depth_format {
            DepthFormat::D32Sfloat => z,
            DepthFormat::D16Unorm => d16_value(d16(z)),
        };
        let face: &StencilFace = if front { &st.front } else { &st.back };
        if let (Some((lo, hi)), Some(d)) = (st.depth_bounds, &self.depth) {
            if !(lo <= d[i] && d[i] <= hi) {
                return false;
            }
        }
        let stencil_pass = match (&self.stencil, st.stencil_test) {
            (Some(s), true) => {
                let m = face.compare_mask;
                compare(face.compare_op, face.reference & m, s[i] & m)
            }
            _ => true,
        };
        let depth_pass = stencil_pass
            && match (&self.depth, st.depth_test) {
                (Some(d), true) => compare(st.depth_compare, z, d[i]),
                _ => true,
            };
        if let (Some(s), true) = (self.stencil.as_deref_mut(), st.stencil_test) {
            let op = if !stencil_pass {
                face.fail_op
            } else if !depth_pass {
                face.depth_fail_op
            } else {
                face.pass_op
            };
            let new = stencil_op(op, s[i], face.reference);
            s[i] = (s[i] & !face.write_mask) | (new & face.write_mask);
        }
        if depth_pass && st.depth_test && st.depth_write {
            if let Some(d) = self.depth.as_deref_mut() {
                d[i] = z;
            }
        }
        depth_pass
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_compare_op() {
        use CompareOp::*;
        // (op, 1 op 2, 2 op 2, 3 op 2), straight from the op's name.
        let table = [
            (Never, false, false, false),
            (Less, true, false, false),
            (Equal, false, true, false),
            (LessOrEqual, true, true, false),
            (Greater, false, false, true),
            (NotEqual, true, false, true),
            (GreaterOrEqual, false, true, true),
            (Always, true, true, true),
        ];
        for (op, lt, eq, gt) in table {
            assert_eq!(
                [
                    compare(op, 1.0, 2.0),
                    compare(op, 2.0, 2.0),
                    compare(op, 3.0, 2.0)
                ],
                [lt, eq, gt],
                "{op:?}"
            );
        }
        // NaN: only NOT_EQUAL and ALWAYS pass.
        let nan: Vec<_> = [
            Never,
            Less,
            Equal,
            LessOrEqual,
            Greater,
            NotEqual,
            GreaterOrEqual,
            Always,
        ]
        .iter()
        .map(|&op| compare(op, f32::NAN, 0.5))
        .collect();
        assert_eq!(nan, [false, false, false, false, false, true, false, true]);
    }

    /// D16_UNORM: k = round(clamp(z, 0, 1) x 65535), ties to even. 0.25 x 65535 = 16383.75 ->
    /// 16384; 0.5 x 65535 = 32767.5 (a tie, exact in f32) -> 32768 (even); 1.5 clamps to 1 ->
    /// 65535; -1 -> 0; NaN -> 0. Depths closer than a step compare equal after the conversion:
    /// 0.25 + 2^-18 gives 16383.75 + 0.25 = 16384.0 -> 16384, so LESS against a stored 16384
    /// fails; 0.25 - 1/65535 gives 16382.75 -> 16383, which passes and is stored.
    #[test]
    fn d16_conversion_and_test() {
        assert_eq!(
            [0.25f32, 0.5, 1.5, -1.0, f32::NAN, 0.0, 1.0].map(d16),
            [16384, 32768, 65535, 0, 0, 0, 65535]
        );
        for k in [0u16, 1, 2, 16384, 32767, 65534, 65535] {
            assert_eq!(d16(d16_value(k)), k);
        }
        let st = DepthStencilState {
            depth_format: DepthFormat::D16Unorm,
            ..Default::default()
        };
        let mut depth = vec![d16_value(d16(0.25))];
        let mut ds = DepthStencil {
            state: &st,
            depth: Some(&mut depth),
            stencil: None,
        };
        assert!(!ds.test(0, 0.25 + 1.0 / 262144.0, true));
        assert!(ds.test(0, 0.25 - 1.0 / 65535.0, true));
        assert_eq!(depth, [d16_value(16383)]);
    }

    /// The DB's range clamp acts on the incoming depth before the test and the write: with
    /// [0, 1], z = 1.25 is stored as 1.0 and -0.5 as 0.0 (ALWAYS with writes).
    #[test]
    fn the_range_clamp_comes_first() {
        let st = DepthStencilState {
            depth_compare: CompareOp::Always,
            depth_range_clamp: Some((0.0, 1.0)),
            ..Default::default()
        };
        let mut depth = vec![0.5f32, 0.5];
        let mut ds = DepthStencil {
            state: &st,
            depth: Some(&mut depth),
            stencil: None,
        };
        assert!(ds.test(0, 1.25, true) && ds.test(1, -0.5, true));
        assert_eq!(depth, [1.0, 0.0]);
    }

    /// Depth bounds [0.25, 0.5] test the stored value, not the fragment's: stored 0.25 and 0.5
    /// pass (bounds inclusive), 0.75 fails and then neither the stencil (INVERT on every
    /// outcome) nor the depth changes; the fragment's own z 0.9 plays no part (ALWAYS).
    #[test]
    fn depth_bounds_test_the_stored_depth() {
        let inv = StencilFace {
            fail_op: StencilOp::Invert,
            pass_op: StencilOp::Invert,
            depth_fail_op: StencilOp::Invert,
            ..Default::default()
        };
        let st = DepthStencilState {
            depth_compare: CompareOp::Always,
            depth_bounds: Some((0.25, 0.5)),
            stencil_test: true,
            front: inv,
            back: inv,
            stencil_clear: Some(0),
            ..Default::default()
        };
        let mut depth = vec![0.25f32, 0.5, 0.75];
        let mut sten = vec![1u8, 1, 1];
        let mut ds = DepthStencil {
            state: &st,
            depth: Some(&mut depth),
            stencil: Some(&mut sten),
        };
        assert_eq!(
            [0, 1, 2].map(|i| ds.test(i, 0.9, true)),
            [true, true, false]
        );
        assert_eq!(depth, [0.9, 0.9, 0.75]);
        assert_eq!(sten, [0xfe, 0xfe, 1]);
    }

    /// Depth bias by hand: a plane rising 0.01 per pixel in x and 0.004 in y gives m = 0.01;
    /// slope 2 adds 0.02. Vertices up to 0.75 (exponent -1) give r = 2^-24 for D32, so
    /// constant 8 adds 2^-21; D16's r is 2^-16, constant 8 adds 2^-13. A clamp of 2^-6 caps
    /// 0.02 + 2^-21 at 2^-6; -2^-10 caps a negative -0.02 at -2^-10.
    #[test]
    fn depth_bias_by_the_rule() {
        let dz = (0.01, -0.004);
        let z = [0.5, 0.75, 0.25];
        let b = |constant, slope, clamp| DepthBias {
            constant,
            slope,
            clamp,
        };
        let d32 = DepthFormat::D32Sfloat;
        assert_eq!(bias_offset(&b(0.0, 2.0, 0.0), dz, z, d32), 0.02);
        assert_eq!(bias_offset(&b(8.0, 0.0, 0.0), dz, z, d32), 2f64.powi(-21));
        let d16 = DepthFormat::D16Unorm;
        assert_eq!(bias_offset(&b(8.0, 0.0, 0.0), dz, z, d16), 2f64.powi(-13));
        assert_eq!(bias_offset(&b(8.0, 2.0, 0.015625), dz, z, d32), 0.015625);
        let c = -1.0 / 1024.0;
        assert_eq!(bias_offset(&b(0.0, -2.0, c), dz, z, d32), c as f64);
        // Vertices at 0: r = 2^(-126 - 23).
        let flat = [0.0; 3];
        assert_eq!(
            bias_offset(&b(1.0, 0.0, 0.0), (0.0, 0.0), flat, d32),
            2f64.powi(-149)
        );
    }

    #[test]
    fn every_stencil_op() {
        use StencilOp::*;
        // s = 0, 200, 255 with reference 7.
        let table = [
            (Keep, [0, 200, 255]),
            (Zero, [0, 0, 0]),
            (Replace, [7, 7, 7]),
            (IncrementAndClamp, [1, 201, 255]),
            (DecrementAndClamp, [0, 199, 254]),
            (Invert, [255, 55, 0]),
            (IncrementAndWrap, [1, 201, 0]),
            (DecrementAndWrap, [255, 199, 254]),
        ];
        for (op, want) in table {
            assert_eq!(
                [0u8, 200, 255].map(|s| stencil_op(op, s, 7)),
                want,
                "{op:?}"
            );
        }
    }

    #[test]
    fn masks_faces_and_the_op_each_outcome_picks() {
        let face = StencilFace {
            fail_op: StencilOp::Zero,
            pass_op: StencilOp::IncrementAndWrap,
            depth_fail_op: StencilOp::Invert,
            compare_op: CompareOp::Equal,
            compare_mask: 0x0f,
            write_mask: 0xf0,
            reference: 0x13,
        };
        let st = DepthStencilState {
            stencil_test: true,
            front: face,
            back: StencilFace {
                compare_op: CompareOp::Never,
                ..face
            },
            stencil_clear: Some(0),
            ..Default::default()
        };
        let mut depth = vec![0.5f32; 3];
        let mut sten = vec![0x23u8, 0x24, 0x23];
        let mut ds = DepthStencil {
            state: &st,
            depth: Some(&mut depth),
            stencil: Some(&mut sten),
        };
        // Pixel 0: (0x13 & 0x0f) == (0x23 & 0x0f): stencil passes; z 0.25 < 0.5 passes:
        // pass_op 0x23 + 1 = 0x24, written through 0xf0: (0x23 & 0x0f) | (0x24 & 0xf0) = 0x23.
        assert!(ds.test(0, 0.25, true));
        // Pixel 1: 3 != 4: fail_op zero, through the mask: 0x24 & 0x0f = 0x04; depth untouched.
        assert!(!ds.test(1, 0.25, true));
        // Pixel 2, back face: NEVER fails: zero -> 0x03.
        assert!(!ds.test(2, 0.25, false));
        assert_eq!(sten, [0x23, 0x04, 0x03]);
        assert_eq!(depth, [0.25, 0.5, 0.5]);
        // Depth fail (0.75 >= 0.5 fails LESS): invert 0x23 -> 0xdc, masked: 0x03 | 0xd0 = 0xd3.
        let mut depth = vec![0.5f32];
        let mut sten = vec![0x23u8];
        let mut ds = DepthStencil {
            state: &st,
            depth: Some(&mut depth),
            stencil: Some(&mut sten),
        };
        assert!(!ds.test(0, 0.75, true));
        assert_eq!(sten, [0xd3]);
    }
}
