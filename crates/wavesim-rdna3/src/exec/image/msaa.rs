//! Multisampled 2D images of gfx11: where sample s of texel (x, y) of a slice lies. gfx11 has
//! no FMASK: every sample is stored (one fragment per sample), inside the tiled block. The rule
//! is addrlib's for gfx1100 (Mesa's `Gfx11Lib::ComputeSurfaceAddrFromCoordMacroTiled` with
//! numSamples > 1: the mode's swizzle pattern over x, y, slice and sample, which RADV lays its
//! multisampled images out with):
//!
//! - blocks of 64 KiB hold 2^w x 2^h texels x all their samples (`ComputeThinBlockDimension`
//!   shrinks the block's texels by the sample count); rows of blocks are the width rounded up
//!   to whole blocks, a slice the height rounded up; slices follow one another;
//! - inside a block each bit of the byte offset is the XOR of some x, y, slice and sample bits
//!   (`MSAA_EQUATIONS` in swizzle_equations.rs, generated from addrlib by
//!   tools/radv/addrlib_goldens.sh), XORed with the T# base's bits below the block (the pipe/bank
//!   XOR of the _X modes);
//! - gfx11's multisampled colour modes are Z and R order (`Gfx11MsaaSwModeMask`); those of
//!   64 KiB blocks are laid out here, one mip level (Vulkan has no multisampled mip chains).
//!
//! A multisampled T# (type 2D_MSAA or 2D_MSAA_ARRAY) gives its sample count as log2 in
//! LAST_LEVEL (Mesa's `gfx10_make_texture_descriptor`: "LAST_LEVEL = log2(samples)" with
//! BASE_LEVEL 0 for MSAA); tests/gfx_image_layout.rs checks addresses against addrlib's.

use super::swizzle::{mode_name, MsaaEquation, MSAA_EQUATIONS};
use crate::exec::ExecError;

/// The layout of one multisampled image.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MsaaTiling {
    eq: &'static MsaaEquation,
    pitch_blocks: u64,
    slice_bytes: u64,
    xor: u64,
    /// Samples per texel.
    pub samples: u32,
}

impl MsaaTiling {
    /// The layout of a `width` x `height` image of `samples` samples of `bpp`-byte texels at
    /// `base` (pipe/bank XOR included) with SW_MODE `sw_mode`. Err: why it is not laid out.
    pub fn new(
        sw_mode: u32,
        (width, height): (u32, u32),
        samples: u32,
        base: u64,
        bpp: u64,
    ) -> Result<MsaaTiling, ExecError> {
        let ls = samples.trailing_zeros();
        let eq = MSAA_EQUATIONS
            .iter()
            .find(|q| {
                q.0 == sw_mode
                    && q.1 == ls
                    && bpp.is_power_of_two()
                    && q.2 == bpp.trailing_zeros()
                    && samples.is_power_of_two()
            })
            .ok_or_else(|| {
                ExecError::Other(format!(
                    "multisampled image: swizzle mode {sw_mode} ({}) with {samples} samples of \
                     {bpp}-byte texels is not laid out (64KB_Z_X and 64KB_R_X with 2, 4 or 8 \
                     samples are)",
                    mode_name(sw_mode)
                ))
            })?;
        let (blk, bw, bh) = (eq.3, eq.4, eq.5);
        let pitch_blocks = (width as u64).div_ceil(1 << bw);
        let rows = (height as u64).div_ceil(1 << bh);
        Ok(MsaaTiling {
            eq,
            pitch_blocks,
            slice_bytes: (pitch_blocks * rows) << blk,
            xor: base & ((1u64 << blk) - 1),
            samples,
        })
    }

    /// Byte address of `sample` of texel (x, y) of `slice` of the image at `base`.
    pub fn texel_addr(&self, base: u64, slice: u32, x: u32, y: u32, sample: u32) -> u64 {
        let (blk, bw, bh) = (self.eq.3, self.eq.4, self.eq.5);
        let coords = [x, y, slice, sample];
        let mut off = 0u64;
        for (bit, masks) in self.eq.6.iter().enumerate().take(blk as usize) {
            let v = masks
                .iter()
                .zip(coords)
                .fold(0, |v, (m, c)| v ^ (m & c).count_ones() & 1);
            off |= (v as u64) << bit;
        }
        let block = (y >> bh) as u64 * self.pitch_blocks + (x >> bw) as u64;
        let aligned = base & !((1u64 << blk) - 1);
        aligned + slice as u64 * self.slice_bytes + (block << blk) + (off ^ self.xor)
    }
}
