//! Tiled ("swizzled") 2D and 3D images of gfx11: where texel (x, y) of a slice (or depth z) lies
//! for the T#'s SW_MODE. The ISA guide leaves the layout to the driver's addressing library, so the rule is
//! addrlib's for gfx1100 (Mesa's `src/amd/addrlib`, `Gfx11Lib::ComputeSurfaceAddrFromCoordMacroTiled`
//! with the swizzle patterns of `gfx11SwizzlePattern.h`), which RADV lays images out with:
//!
//! - the image is cut into blocks of 256 B, 4 KiB or 64 KiB (the mode's size) of
//!   2^w x 2^h texels (x 2^d slices for the "thick" 3D modes); rows of blocks are `pitch / 2^w`
//!   blocks long, the pitch and height being the width and height rounded up to whole blocks;
//!   slices (slabs of 2^d depth slices for a 3D image) follow one another;
//! - inside a block, each bit of the byte offset is the XOR of some bits of the texel's x, y
//!   and slice or z (the mode's equation, which mixes in the pipe and bank bits);
//! - for the _X modes, the T# base address bits below the block size are the pipe/bank XOR
//!   (Mesa's `ac_descriptors.c` ORs the surface's `tile_swizzle` into the base), XORed into the
//!   offset inside every block.
//!
//! The equations (`swizzle_equations.rs`) are generated from addrlib by
//! tools/radv/addrlib_goldens.sh for the device wavesim's amdgpu shim reports (GB_ADDR_CONFIG
//! 0x545: 32 pipes, 256-byte pipe interleave); tests/gfx_image_layout.rs checks whole addresses
//! against addrlib's. Covered: the 2D, non-PRT modes with blocks up to 64 KiB (256B_D, 4KB_D,
//! 64KB_D, 4KB_D_X, 64KB_Z_X, 64KB_D_X, 64KB_R_X) for 2D, 2D-array and cube images (a cube is
//! laid out as a 2D array of 6 faces per cube); the 3D modes (Gfx11Rsrc3dSwModeMask without PRT
//! and 256 KiB blocks: thick 4KB_S, 64KB_S, 4KB_S_X, 64KB_S_X, 64KB_D_X, thin 64KB_Z_X and
//! 64KB_R_X) for 3D images; mip chains with their mip tail (`mip_tail.rs`).

use super::mip_tail::{mip_chain, Block, MipPlace, MAX_LEVELS};
use crate::exec::ExecError;

/// (SW_MODE, 3D (1) or 2D (0), log2 bytes per element, log2 block bytes, log2 block width,
/// height and depth, per byte-offset bit: [x mask, y mask, slice (z) mask]).
type Equation = (u32, u32, u32, u32, u32, u32, u32, [[u32; 3]; 16]);

/// A multisampled surface's equation: (SW_MODE, log2 samples, log2 bytes per element, log2
/// block bytes, log2 block width and height, per byte-offset bit: [x, y, slice, sample masks]);
/// see exec::image::msaa.
pub(super) type MsaaEquation = (u32, u32, u32, u32, u32, u32, [[u32; 4]; 16]);

include!("swizzle_equations.rs");

/// SW_MODE names (addrlib's `AddrSwizzleMode`), for messages.
pub(super) fn mode_name(m: u32) -> &'static str {
    match m {
        1 => "256B_S",
        2 => "256B_D",
        5 => "4KB_S",
        6 => "4KB_D",
        9 => "64KB_S",
        10 => "64KB_D",
        17 => "64KB_S_T",
        18 => "64KB_D_T",
        21 => "4KB_S_X",
        22 => "4KB_D_X",
        24 => "64KB_Z_X",
        25 => "64KB_S_X",
        26 => "64KB_D_X",
        27 => "64KB_R_X",
        28 => "256KB_Z_X",
        29 => "256KB_S_X",
        30 => "256KB_D_X",
        31 => "256KB_R_X",
        _ => "reserved",
    }
}

/// The layout of one tiled image: its equation, row of blocks and slice (or slab) size.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tiling {
    eq: &'static Equation,
    /// Each mip level's place in a slice's (slab's) chain.
    levels: [MipPlace; MAX_LEVELS],
    /// Bytes of one slice (2D) or slab of 2^d depth slices (3D), the whole mip chain.
    slice_bytes: u64,
    /// The base's bits below the block size: the pipe/bank XOR of an _X mode.
    xor: u64,
}

/// What a tiled image is to addrlib: a 2D image (2D, 2D array, cube) or a 3D one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    TwoD,
    ThreeD,
    /// Other resource types (1D): named in the refusal.
    Other(&'static str),
}

impl Tiling {
    /// The tiling of a `width` x `height` image at `base` (the T#'s, pipe/bank XOR included)
    /// with SW_MODE `sw_mode` != 0, `levels` mip levels and `bpp`-byte texels. Err: why wavesim
    /// does not lay it out.
    pub fn new(
        sw_mode: u32,
        shape: Shape,
        (width, height): (u32, u32),
        levels: u32,
        base: u64,
        bpp: u64,
    ) -> Result<Tiling, ExecError> {
        let refuse = |why: String| {
            Err(ExecError::Other(format!(
                "image resource swizzle mode {sw_mode} ({}): {why}",
                mode_name(sw_mode)
            )))
        };
        let three_d = match shape {
            Shape::TwoD => 0,
            Shape::ThreeD => 1,
            Shape::Other(what) => {
                return refuse(format!(
                    "wavesim lays out tiled 2D, 2D-array, cube and 3D images, not {what} ones"
                ))
            }
        };
        if !(1..=MAX_LEVELS as u32).contains(&levels) {
            return refuse(format!("{levels} mip levels"));
        }
        let e = bpp.trailing_zeros();
        let Some(eq) = EQUATIONS
            .iter()
            .find(|q| q.0 == sw_mode && q.1 == three_d && q.2 == e && bpp.is_power_of_two())
        else {
            return refuse(format!(
                "not laid out for {bpp}-byte texels of a {} image",
                if three_d == 1 { "3D" } else { "2D" }
            ));
        };
        let blk = eq.3;
        let blk_mask = (1u64 << blk) - 1;
        // _X modes: SW_MODE 20-31 (addrlib's IsXor), the 4 KiB and 64 KiB ones covered here.
        let xor = if sw_mode >= 20 { base & blk_mask } else { 0 };
        if sw_mode < 20 && base & blk_mask != 0 {
            return refuse(format!(
                "base {base:#x} is not aligned to the {}-byte block",
                1u64 << blk
            ));
        }
        let block = Block {
            log2_bytes: blk,
            log2_w: eq.4,
            log2_h: eq.5,
            log2_d: eq.6,
            log2_texel: e,
            // addrlib's IsZOrderSwizzle / IsRtOptSwizzle (gfx11's SwizzleModeTable).
            z_or_r: matches!(sw_mode, 24 | 27 | 28 | 31),
        };
        let (levels, slice_bytes) = mip_chain(block, (width, height), levels);
        Ok(Tiling {
            eq,
            levels,
            slice_bytes,
            xor,
        })
    }

    /// Byte address of texel (x, y) of `slice` (a 3D image's z) of level 0 of the image at
    /// `base`.
    pub fn texel_addr(&self, base: u64, slice: u32, x: u32, y: u32) -> u64 {
        self.level_texel_addr(base, 0, slice, x, y)
    }

    /// Byte address of texel (x, y) of `slice` (a 3D image's z) of mip `level` of the image at
    /// `base` (Gfx11Lib::ComputeSurfaceAddrFromCoordMacroTiled: the block row uses the
    /// untranslated coordinates, the equation those moved by the level's place in the tail).
    pub fn level_texel_addr(&self, base: u64, level: u32, slice: u32, x: u32, y: u32) -> u64 {
        let (blk, bw, bh, bd) = (self.eq.3, self.eq.4, self.eq.5, self.eq.6);
        let place = self.levels[(level as usize).min(MAX_LEVELS - 1)];
        let coords = [x + place.tail.0, y + place.tail.1, slice];
        let mut off = 0u64;
        for (bit, masks) in self.eq.7.iter().enumerate().take(blk as usize) {
            let v = masks
                .iter()
                .zip(coords)
                .fold(0, |v, (m, c)| v ^ (m & c).count_ones() & 1);
            off |= (v as u64) << bit;
        }
        let block = (y >> bh) as u64 * place.pitch_blocks + (x >> bw) as u64;
        let aligned = base & !((1u64 << blk) - 1);
        aligned
            + (slice >> bd) as u64 * self.slice_bytes
            + place.offset
            + (block << blk)
            + (off ^ self.xor)
    }
}
