//! Blending (Vulkan 1.3 "The Framebuffer": "Blending", "Blend Factors", "Blend Operations").
//!
//! For a fixed-point (UNORM) target the source, destination and constant values are clamped to
//! [0, 1] before blending, as the spec requires; float targets blend unclamped. The arithmetic is
//! f32 with one rounding per operation: ADD = (s * sf) + (d * df), SUBTRACT = (s * sf) - (d * df),
//! REVERSE_SUBTRACT = (d * df) - (s * sf), MIN = min(s, d), MAX = max(s, d) (no factors). The
//! result is then stored with the target's conversion. SRC1 factors read the PS's MRT1 export
//! (dual-source blending, target 0 only).

use crate::gfx::pipeline::{BlendAttachment, BlendFactor, BlendOp};

/// The blend inputs of one fragment and target.
pub struct Inputs {
    pub src: [f32; 4],
    pub src1: [f32; 4],
    pub dst: [f32; 4],
    pub constant: [f32; 4],
}

/// Factor `f` for colour component `c` (0-2) or alpha (3).
fn factor(f: BlendFactor, c: usize, i: &Inputs) -> f32 {
    use BlendFactor::*;
    let (s, s1, d, k) = (i.src, i.src1, i.dst, i.constant);
    let alpha = c == 3;
    match f {
        Zero => 0.0,
        One => 1.0,
        SrcColor => s[c],
        OneMinusSrcColor => 1.0 - s[c],
        DstColor => d[c],
        OneMinusDstColor => 1.0 - d[c],
        SrcAlpha => s[3],
        OneMinusSrcAlpha => 1.0 - s[3],
        DstAlpha => d[3],
        OneMinusDstAlpha => 1.0 - d[3],
        ConstantColor => k[c],
        OneMinusConstantColor => 1.0 - k[c],
        ConstantAlpha => k[3],
        OneMinusConstantAlpha => 1.0 - k[3],
        // (f, f, f, 1) with f = min(As, 1 - Ad).
        SrcAlphaSaturate if alpha => 1.0,
        SrcAlphaSaturate => s[3].min(1.0 - d[3]),
        Src1Color => s1[c],
        OneMinusSrc1Color => 1.0 - s1[c],
        Src1Alpha => s1[3],
        OneMinusSrc1Alpha => 1.0 - s1[3],
    }
}

pub fn uses_src1(a: &BlendAttachment) -> bool {
    use BlendFactor::*;
    a.enable
        && [a.src_color, a.dst_color, a.src_alpha, a.dst_alpha]
            .iter()
            .any(|f| {
                matches!(
                    f,
                    Src1Color | OneMinusSrc1Color | Src1Alpha | OneMinusSrc1Alpha
                )
            })
}

/// The blended colour (the source as is when blending is off).
pub fn blend(a: &BlendAttachment, inputs: &Inputs, unorm: bool) -> [f32; 4] {
    if !a.enable {
        return inputs.src;
    }
    let cl = |v: [f32; 4]| {
        if unorm {
            v.map(|x| x.clamp(0.0, 1.0))
        } else {
            v
        }
    };
    let i = Inputs {
        src: cl(inputs.src),
        src1: cl(inputs.src1),
        dst: cl(inputs.dst),
        constant: cl(inputs.constant),
    };
    [0, 1, 2, 3].map(|c| {
        let (sf, df, op) = if c == 3 {
            (a.src_alpha, a.dst_alpha, a.alpha_op)
        } else {
            (a.src_color, a.dst_color, a.color_op)
        };
        let (s, d) = (i.src[c], i.dst[c]);
        match op {
            BlendOp::Add => s * factor(sf, c, &i) + d * factor(df, c, &i),
            BlendOp::Subtract => s * factor(sf, c, &i) - d * factor(df, c, &i),
            BlendOp::ReverseSubtract => d * factor(df, c, &i) - s * factor(sf, c, &i),
            BlendOp::Min => s.min(d),
            BlendOp::Max => s.max(d),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use BlendFactor::*;

    fn att(sc: BlendFactor, dc: BlendFactor, op: BlendOp) -> BlendAttachment {
        BlendAttachment {
            enable: true,
            src_color: sc,
            dst_color: dc,
            color_op: op,
            src_alpha: sc,
            dst_alpha: dc,
            alpha_op: op,
            write_mask: 0xf,
        }
    }

    const I: Inputs = Inputs {
        src: [0.5, 0.25, 1.0, 0.75],
        src1: [0.125, 0.5, 0.0, 0.25],
        dst: [0.25, 1.0, 0.5, 0.5],
        constant: [0.0, 0.5, 1.0, 0.25],
    };

    #[test]
    fn every_factor_with_add() {
        // With dst factor ZERO the result is s * sf (components R, G, B, A); each row is the
        // spec's table entry for the factor, multiplied out by hand from I.
        let rows: [(BlendFactor, [f32; 4]); 19] = [
            (Zero, [0.0; 4]),
            (One, [0.5, 0.25, 1.0, 0.75]),
            (SrcColor, [0.25, 0.0625, 1.0, 0.5625]),
            (OneMinusSrcColor, [0.25, 0.1875, 0.0, 0.1875]),
            (DstColor, [0.125, 0.25, 0.5, 0.375]),
            (OneMinusDstColor, [0.375, 0.0, 0.5, 0.375]),
            (SrcAlpha, [0.375, 0.1875, 0.75, 0.5625]),
            (OneMinusSrcAlpha, [0.125, 0.0625, 0.25, 0.1875]),
            (DstAlpha, [0.25, 0.125, 0.5, 0.375]),
            (OneMinusDstAlpha, [0.25, 0.125, 0.5, 0.375]),
            (ConstantColor, [0.0, 0.125, 1.0, 0.1875]),
            (OneMinusConstantColor, [0.5, 0.125, 0.0, 0.5625]),
            (ConstantAlpha, [0.125, 0.0625, 0.25, 0.1875]),
            (OneMinusConstantAlpha, [0.375, 0.1875, 0.75, 0.5625]),
            // f = min(0.75, 1 - 0.5) = 0.5 for RGB, 1 for A.
            (SrcAlphaSaturate, [0.25, 0.125, 0.5, 0.75]),
            (Src1Color, [0.0625, 0.125, 0.0, 0.1875]),
            (OneMinusSrc1Color, [0.4375, 0.125, 1.0, 0.5625]),
            (Src1Alpha, [0.125, 0.0625, 0.25, 0.1875]),
            (OneMinusSrc1Alpha, [0.375, 0.1875, 0.75, 0.5625]),
        ];
        for (f, want) in rows {
            assert_eq!(blend(&att(f, Zero, BlendOp::Add), &I, true), want, "{f:?}");
        }
    }

    #[test]
    fn every_op() {
        // src * SRC_ALPHA (0.75) and dst * ONE_MINUS_SRC_ALPHA (0.25):
        // s' = (0.375, 0.1875, 0.75, 0.5625), d' = (0.0625, 0.25, 0.125, 0.125).
        let a = |op| blend(&att(SrcAlpha, OneMinusSrcAlpha, op), &I, true);
        assert_eq!(a(BlendOp::Add), [0.4375, 0.4375, 0.875, 0.6875]);
        assert_eq!(a(BlendOp::Subtract), [0.3125, -0.0625, 0.625, 0.4375]);
        assert_eq!(
            a(BlendOp::ReverseSubtract),
            [-0.3125, 0.0625, -0.625, -0.4375]
        );
        // MIN / MAX ignore the factors.
        assert_eq!(a(BlendOp::Min), [0.25, 0.25, 0.5, 0.5]);
        assert_eq!(a(BlendOp::Max), [0.5, 1.0, 1.0, 0.75]);
    }

    #[test]
    fn unorm_targets_clamp_inputs_float_targets_do_not() {
        let i = Inputs {
            src: [2.0, -1.0, 0.5, 1.0],
            src1: [0.0; 4],
            dst: [0.5; 4],
            constant: [0.0; 4],
        };
        let a = att(One, One, BlendOp::Add);
        // UNORM: (1 + 0.5, 0 + 0.5, 0.5 + 0.5, 1 + 0.5) before the store clamps again.
        assert_eq!(blend(&a, &i, true), [1.5, 0.5, 1.0, 1.5]);
        assert_eq!(blend(&a, &i, false), [2.5, -0.5, 1.0, 1.5]);
        assert!(!uses_src1(&a) && uses_src1(&att(Src1Color, Zero, BlendOp::Add)));
    }
}
