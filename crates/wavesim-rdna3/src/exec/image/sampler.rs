//! The image sampler (S#, RDNA3 ISA 10.6, Table 51): the fields sampling reads.

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampler {
    /// Clamp/wrap mode per axis: 0 Wrap, 1 Mirror, 2 ClampLastTexel, 3 MirrorOnceLastTexel,
    /// 4 ClampHalfBorder, 5 MirrorOnceHalfBorder, 6 ClampBorder, 7 MirrorOnceBorder.
    pub clamp: [u32; 3],
    pub force_unnormalized: bool,
    /// Minimum / maximum LOD (u4.8) and LOD bias (s6.8).
    pub min_lod: f32,
    pub max_lod: f32,
    pub lod_bias: f32,
    /// 0 point, 1 bilinear (2/3 anisotropic).
    pub mag_filter: u32,
    pub min_filter: u32,
    /// 0 none (base level), 1 point, 2 linear.
    pub mip_filter: u32,
    /// 0 transparent black, 1 opaque black, 2 opaque white, 3 from the border colour pointer.
    pub border_color_type: u32,
    /// DEPTH_COMPARE_FUNC (word 0 bits 14:12, SQ_TEX_DEPTH_COMPARE in Mesa's register
    /// descriptions): 0 never, 1 less, 2 equal, 3 less-equal, 4 greater, 5 not-equal,
    /// 6 greater-equal, 7 always; the reference is the left operand (Vulkan's "reference OP
    /// texel").
    pub compare_func: u32,
}

impl Sampler {
    /// The depth comparison of `reference` against `texel`: 1.0 when it passes, else 0.0.
    pub fn compare(&self, reference: f32, texel: f32) -> f32 {
        let pass = match self.compare_func {
            0 => false,
            1 => reference < texel,
            2 => reference == texel,
            3 => reference <= texel,
            4 => reference > texel,
            5 => reference != texel,
            6 => reference >= texel,
            _ => true,
        };
        if pass {
            1.0
        } else {
            0.0
        }
    }

    pub fn parse(d: &[u32; 4]) -> Sampler {
        let bits = |w: usize, lo: u32, n: u32| (d[w] >> lo) & ((1 << n) - 1);
        let lod_bias = {
            let v = bits(2, 0, 14) as i32;
            let v = (v << 18) >> 18; // sign-extend s6.8
            v as f32 / 256.0
        };
        Sampler {
            clamp: [bits(0, 0, 3), bits(0, 3, 3), bits(0, 6, 3)],
            force_unnormalized: bits(0, 15, 1) != 0,
            min_lod: bits(1, 0, 12) as f32 / 256.0,
            max_lod: bits(1, 12, 12) as f32 / 256.0,
            lod_bias,
            mag_filter: bits(2, 20, 2),
            min_filter: bits(2, 22, 2),
            mip_filter: bits(2, 26, 2),
            border_color_type: bits(3, 30, 2),
            compare_func: bits(0, 12, 3),
        }
    }
}
