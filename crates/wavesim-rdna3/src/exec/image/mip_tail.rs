//! Mip chains of tiled images on gfx11: where each level of a tiled image lies inside a slice
//! (or a 3D image's slab), and the mip tail. The ISA guide leaves the layout to the driver's
//! addressing library; the rule here is addrlib's for gfx1100 (Mesa 22.3.6's `src/amd/addrlib`:
//! `Gfx11Lib::ComputeSurfaceInfoMacroTiled`, `ComputeSurfaceInfoMicroTiled`,
//! `ComputeSurfaceAddrFromCoordMacroTiled`, `GetMaxNumMipsInTail`, `IsInMipTail`, and
//! `Lib::GetMipTailDim`), which RADV lays its images out with and the texture unit follows:
//!
//! - level m's layout size is ceil(width / 2^m) x ceil(height / 2^m) texels (addrlib's
//!   `GetMipSize`), rounded up to whole blocks;
//! - 256-byte blocks (256B_D): the levels follow one another inside a slice, the smallest first;
//! - 4 KiB and 64 KiB blocks: the small levels share one block, the mip tail. Level m is the
//!   first in the tail when its size fits the tail's largest level (the block halved in width
//!   for thin modes; for thick 3D modes halved in height, width or depth as log2(block bytes)
//!   mod 3 is 0, 1 or 2; for the Z and R modes with 1- and 2-byte texels shrunk further by the
//!   256-byte block's shape) and at most `GetMaxNumMipsInTail` levels remain (8 for 4 KiB and 12
//!   for 64 KiB thin blocks, 5 and 10 thick). Inside a slice the tail block comes first, then the
//!   levels above it from the smallest to level 0;
//! - a level in the tail sits at a texel offset inside the tail block: its index from the tail's
//!   end `k` gives the byte offset `k << 8` (k <= 6) or `16 << k`, whose odd and even bits,
//!   de-interleaved, count 256-byte blocks in x and y (swapped for odd block sizes); the texel
//!   (x, y) of the level is addressed as (x + tail x, y + tail y) in the block's equation;
//! - slices (3D: slabs of the block's depth) hold the whole chain each.

/// 256-byte blocks' texel dimensions per log2 bytes per texel (addrlib's `Block256_2d`, and
/// gfx11's `Block256_3d` for thick 3D blocks).
const BLOCK256_2D: [(u32, u32); 5] = [(16, 16), (16, 8), (8, 8), (8, 4), (4, 4)];
const BLOCK256_3D: [(u32, u32); 5] = [(8, 4), (4, 4), (4, 4), (4, 2), (2, 2)];

/// addrlib's levels are at most 16 (the T#'s 4-bit MAX_MIP).
pub const MAX_LEVELS: usize = 16;

/// Where one level lies inside a slice's (slab's) mip chain.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct MipPlace {
    /// Byte offset of the level's first block from the start of the chain.
    pub offset: u64,
    /// Blocks per row of blocks of the level (0 for a level in the tail: one block).
    pub pitch_blocks: u64,
    /// Texel offset (x, y) of a tail level inside the tail block; (0, 0) otherwise.
    pub tail: (u32, u32),
}

/// A swizzle mode's block: log2 of its bytes, width, height and depth (texels; depth 0 for
/// thin blocks), log2 bytes per texel, and whether the mode is Z or R ordered (addrlib's
/// `IsZOrderSwizzle`/`IsRtOptSwizzle`: 64KB_Z_X, 64KB_R_X, 256KB_Z_X, 256KB_R_X).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    pub log2_bytes: u32,
    pub log2_w: u32,
    pub log2_h: u32,
    pub log2_d: u32,
    pub log2_texel: u32,
    pub z_or_r: bool,
}

/// addrlib's `GetMaxNumMipsInTail`: how many levels the tail block can hold.
fn max_mips_in_tail(log2_block: u32, thin: bool) -> u32 {
    let eff = if thin {
        log2_block
    } else {
        log2_block - (log2_block - 8) / 3
    };
    if eff <= 11 {
        1 + (1 << (eff - 9))
    } else {
        eff - 4
    }
}

/// ceil(x / 2^m) for x >= 1 (addrlib's `ShiftCeil` over `Max(x, 1)`).
fn shift_ceil(x: u32, m: u32) -> u64 {
    let x = x.max(1) as u64;
    (x + (1u64 << m) - 1) >> m
}

/// The places of `levels` (1..=16) levels of a `width` x `height` image with texels of
/// 2^`b.log2_texel` bytes, and the bytes of one slice (thin) or slab of 2^log2_d slices
/// (thick) holding the whole chain.
pub fn mip_chain(
    b: Block,
    (width, height): (u32, u32),
    levels: u32,
) -> ([MipPlace; MAX_LEVELS], u64) {
    let levels = levels.clamp(1, MAX_LEVELS as u32);
    let (bw, bh, bd) = (1u64 << b.log2_w, 1u64 << b.log2_h, 1u64 << b.log2_d);
    let texel = 1u64 << b.log2_texel;
    let e = (b.log2_texel as usize).min(4);
    let align = |x: u64, a: u64| x.div_ceil(a) * a;
    let dims = |m: u32| {
        let (w, h) = (shift_ceil(width, m), shift_ceil(height, m));
        (align(w, bw), align(h, bh))
    };
    let mut places = [MipPlace::default(); MAX_LEVELS];
    // ComputeSurfaceInfoMicroTiled: the levels one after another, the smallest first.
    if b.log2_bytes == 8 {
        let mut at = 0;
        for m in (0..levels).rev() {
            let (pitch, rows) = dims(m);
            places[m as usize] = MipPlace {
                offset: at,
                pitch_blocks: pitch / bw,
                tail: (0, 0),
            };
            at += pitch * rows * texel;
        }
        return (places, at);
    }
    // ComputeSurfaceInfoMacroTiled.
    let thin = b.log2_d == 0;
    if levels == 1 {
        let (pitch, rows) = dims(0);
        places[0].pitch_blocks = pitch / bw;
        return (places, pitch * rows * texel * bd);
    }
    // Lib::GetMipTailDim: the tail's largest level.
    let (mut tw, mut th) = (bw, bh);
    if thin {
        tw >>= 1;
    } else {
        match b.log2_bytes % 3 {
            0 => th >>= 1,
            1 => tw >>= 1,
            _ => {} // the depth halves; gfx11's IsInMipTail does not look at depth
        }
    }
    let tail_w = tw;
    if b.z_or_r && e <= 1 {
        tw /= BLOCK256_2D[e].0 as u64 / BLOCK256_2D[2].0 as u64;
        th /= BLOCK256_2D[e].1 as u64 / BLOCK256_2D[2].1 as u64;
    }
    let max_in_tail = max_mips_in_tail(b.log2_bytes, thin);
    let block_bytes = 1u64 << b.log2_bytes;
    let mut first_tail = levels;
    let mut chain = 0u64;
    let mut level_slab = [0u64; MAX_LEVELS];
    for m in 0..levels {
        let (w, h) = (shift_ceil(width, m), shift_ceil(height, m));
        if w <= tw && h <= th && levels - m <= max_in_tail {
            first_tail = m;
            chain += block_bytes / bd;
            break;
        }
        let (pitch, rows) = dims(m);
        let slice = pitch * rows * texel;
        places[m as usize].pitch_blocks = pitch / bw;
        level_slab[m as usize] = slice * bd;
        chain += slice;
    }
    let mut at = if first_tail != levels { block_bytes } else { 0 };
    for m in (0..first_tail).rev() {
        places[m as usize].offset = at;
        at += level_slab[m as usize];
    }
    for m in first_tail..levels {
        let k = max_in_tail - 1 - (m - first_tail);
        let off = if k > 6 { 16u32 << k } else { k << 8 };
        // De-interleave: odd bits from bit 9 up count in x, even bits from bit 8 in y.
        let (mut x, mut y) = (0u32, 0u32);
        for i in 0..6 {
            x |= (off >> (9 + 2 * i) & 1) << i;
            y |= (off >> (8 + 2 * i) & 1) << i;
        }
        if b.log2_bytes & 1 != 0 {
            std::mem::swap(&mut x, &mut y);
            if e & 1 != 0 {
                y = y << 1 | (x & 1);
                x >>= 1;
            }
        }
        let (uw, uh) = if thin { BLOCK256_2D[e] } else { BLOCK256_3D[e] };
        places[m as usize] = MipPlace {
            offset: 0,
            pitch_blocks: tail_w / bw,
            tail: (x * uw, y * uh),
        };
    }
    (places, chain * bd)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 64KB_Z_X with 4-byte texels: 128x128 blocks; the tail's largest level is 64x128 and holds
    /// up to 12 levels. A 256x256 image with 9 levels (256 ... 1): level 0 (256x256, 4 blocks)
    /// and level 1 (128x128, 1 block) are outside; levels 2-8 (64 ... 1) are in the tail, whose
    /// block comes first: level 1 at 64 KiB, level 0 at 128 KiB, a slice of 6 blocks. Level 2 is
    /// index k = 12 - 1 = 11 from the tail's end: offset 16 << 11 = 0x8000, bit 15 = odd bit
    /// 15 -> x bit 3: x = 8 blocks of 8 texels = 64; level 8 is k = 5: 0x500 = bits 8 and 10:
    /// y bits 0 and 1 -> y = 3 blocks of 8 = 24.
    #[test]
    fn z_x_tail_follows_addrlib_rule() {
        let b = Block {
            log2_bytes: 16,
            log2_w: 7,
            log2_h: 7,
            log2_d: 0,
            log2_texel: 2,
            z_or_r: true,
        };
        let (p, slice) = mip_chain(b, (256, 256), 9);
        assert_eq!(slice, 6 << 16);
        assert_eq!((p[0].offset, p[0].pitch_blocks), (2 << 16, 2));
        assert_eq!((p[1].offset, p[1].pitch_blocks), (1 << 16, 1));
        assert_eq!((p[2].offset, p[2].tail), (0, (64, 0)));
        assert_eq!(p[8].tail, (0, 24));
    }

    /// 256B_D: no tail; a 20x20 image of 4-byte texels (8x8 blocks): levels 24x24, 16x16 (10
    /// ceil), 8x8 (5), 8x8 (3), 8x8 (2) blocks-rounded: 2304, 1024, 256, 256, 256 bytes, the
    /// smallest first.
    #[test]
    fn micro_tiled_levels_follow_one_another() {
        let b = Block {
            log2_bytes: 8,
            log2_w: 3,
            log2_h: 3,
            log2_d: 0,
            log2_texel: 2,
            z_or_r: false,
        };
        let (p, slice) = mip_chain(b, (20, 20), 5);
        assert_eq!(slice, 2304 + 1024 + 3 * 256);
        assert_eq!(p[4].offset, 0);
        assert_eq!(p[1].offset, 768);
        assert_eq!((p[0].offset, p[0].pitch_blocks), (1792, 3));
    }
}
