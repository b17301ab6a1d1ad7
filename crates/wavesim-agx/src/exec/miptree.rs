//! Where a texel of a level and layer of an image lies, for texels of 1, 2, 4, 8 or 16 bytes:
//! Mesa's `ail` layout (`src/asahi/layout/layout.c`, `ail_initialize_twiddled`, and
//! `tiling.c`, Mesa 22.3; the same rules in 25.0's `layout.c` for uncompressed images).
//!
//! A twiddled layer holds the whole miptree. Levels whose width and height both reach the format's
//! largest tile (`ail_get_max_tile_size`: one 16 KiB page, 128x128 texels of 1 byte, 128x64 of 2,
//! 64x64 of 4, 64x32 of 8, 32x32 of 16) form the "large" miptree: 64x64 tiles, level l taking
//! `(stx * sty) >> 2l` tiles plus one column, one row and one corner of padding where the level's
//! tile counts were odd at some halving (`stx`, `sty`: level 0's tile counts). From the first level
//! below one tile either way (`ail_min_mip_below`) the "power-of-two" miptree takes over: the
//! level's width and height rounded up to powers of two (once, at that level, then halved), one
//! square tile whose side is the smaller of the level's true width and height rounded up to a
//! power of two (Mesa 25.0's `ail_initialize_twiddled`: "based on the true mipmap level size, not
//! the POT rounded size"; 22.3 took the smaller rounded side, which differs for sizes like 33x33
//! at level 1, where 25.0's is the fixed rule). Each level is padded to a cache line (128 bytes).
//! The layer stride is the miptree's size, rounded to a page (16 KiB) when the descriptor says
//! `Page-aligned layers` (25.0's name for TEXTURE bit 126 and PBE bit 124; 22.3 calls the texture
//! bit `Unk tiled` and sets it on every twiddled texture, whose layers it always page-aligns).
//! The miptree a stride counts is the whole chain, log2(max(width, height[, depth for 3D])) + 1
//! levels, for a mipmapped image (25.0's `ail_make_miptree`: "Hardware strides are based on the
//! maximum number of levels"), whatever the view's last level. Inside a level, tiles are stored row by row
//! (`ceil(level width / tile width)` a row), texels inside a tile in Morton order (x in the even
//! bits, y in the odd ones). A linear image is one level of rows `stride + 16` bytes apart
//! (cmdbuf.xml: `Stride` holds the row pitch minus 16, in 16-byte units).
//!
//! A compressed image is laid out the same way in blocks (`ail_initialize_twiddled` on
//! elements: a block (4x4 texels, or an ASTC footprint) of 8 or 16 bytes is one element),
//! except where ail says "compressed": a padded large level counts one more block a row for its
//! tiles (`stride_el`), and the power-of-two tree rounds level 0's block counts up before
//! minifying, its tiles the smaller rounded side.
//!
//! A 3D image's slices are its layers (`ail_get_layer_level_B`: layer z's level l), so level l
//! of a 3D image is slice z < max(depth >> l, 1) of each layer's level l.

use super::Fault;

const LAYOUT_LINEAR: u64 = 0;
const LAYOUT_TWIDDLED: u64 = 2;

/// One level: its byte offset inside a layer, its size in texels (pixels, for compressed
/// formats), its tile in elements (texels or compressed blocks), and the elements a row counts
/// for its tiles (ail's `stride_el`: the row's blocks, plus one in a padded large level of a
/// compressed image).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    pub offset: u64,
    pub width: u32,
    pub height: u32,
    pub tile: (u32, u32),
    pub stride_el: u32,
}

/// An image's levels and the bytes between its layers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Miptree {
    pub levels: Vec<Level>,
    /// Bytes between array layers, cube faces and 3D slices (twiddled images only).
    pub layer_stride: Option<u64>,
    linear_pitch: Option<u64>,
    /// Bytes a texel.
    bytes: u64,
}

pub fn minify(x: u32, l: u32) -> u32 {
    (x >> l.min(31)).max(1)
}

/// `ail_initialize_twiddled`'s first level of the power-of-two miptree: the first whose width
/// or height in blocks (`(bw, bh)` pixels each) is below one tile, halving the pixel sizes from
/// level 0's whole blocks.
fn pot_level((w_el, h_el): (u32, u32), (bw, bh): (u32, u32), (tw, th): (u32, u32)) -> u32 {
    let (mut w_px, mut h_px, mut level) = (bw * w_el, bh * h_el, 0);
    while w_px.div_ceil(bw) >= tw && h_px.div_ceil(bh) >= th {
        w_px = minify(w_px, 1);
        h_px = minify(h_px, 1);
        level += 1;
    }
    level
}

fn unsupported(what: impl Into<String>) -> Fault {
    Fault::UnsupportedForm { what: what.into() }
}

impl Miptree {
    /// The layout of an image of `width` x `height` texels of `bytes` bytes with `levels` levels.
    /// `layout` and `pitch_field` are the descriptor's `Layout` and `Stride` fields,
    /// `page_aligned` its `Page-aligned layers` bit.
    pub fn new(
        layout: u64,
        (width, height, bytes): (u32, u32, u64),
        levels: u32,
        pitch_field: u64,
        page_aligned: bool,
    ) -> Result<Miptree, Fault> {
        match layout {
            LAYOUT_LINEAR => {
                if levels != 1 {
                    return Err(unsupported(format!(
                        "linear image with {levels} levels (ail: linear images have one)"
                    )));
                }
                Ok(Self::linear(width, height, (pitch_field << 4) + 16, bytes))
            }
            LAYOUT_TWIDDLED => Self::twiddled(width, height, levels, bytes, page_aligned),
            l => Err(unsupported(format!("texture layout {l}"))),
        }
    }

    /// [`Miptree::new`] for a compressed format of `block` pixels a block and `bytes` a block
    /// (ail: twiddled only; Mesa never makes a linear compressed image).
    pub fn new_compressed(
        layout: u64,
        (width, height, bytes): (u32, u32, u64),
        block: (u32, u32),
        levels: u32,
        page_aligned: bool,
    ) -> Result<Miptree, Fault> {
        match layout {
            LAYOUT_TWIDDLED => {
                Self::twiddled_blocks((width, height), block, levels, bytes, page_aligned)
            }
            l => Err(unsupported(format!("texture layout {l}"))),
        }
    }

    /// One linear level of rows `pitch` bytes apart.
    pub fn linear(width: u32, height: u32, pitch: u64, bytes: u64) -> Miptree {
        Miptree {
            levels: vec![Level {
                offset: 0,
                width,
                height,
                tile: (width, 1),
                stride_el: width,
            }],
            layer_stride: None,
            linear_pitch: Some(pitch),
            bytes,
        }
    }

    pub fn twiddled(
        width: u32,
        height: u32,
        levels: u32,
        bytes: u64,
        page_aligned: bool,
    ) -> Result<Miptree, Fault> {
        Self::twiddled_blocks((width, height), (1, 1), levels, bytes, page_aligned)
    }

    /// `ail_initialize_twiddled` for elements of `bytes` bytes covering `(bw, bh)` pixels (1x1
    /// for uncompressed formats, the block for compressed ones, whose rules differ where ail
    /// says "compressed": the padded stride, and the power-of-two tree rounded before minifying
    /// with tiles from that rounded size).
    pub fn twiddled_blocks(
        (width, height): (u32, u32),
        (bw, bh): (u32, u32),
        levels: u32,
        bytes: u64,
        page_aligned: bool,
    ) -> Result<Miptree, Fault> {
        let (tw, th) = match bytes {
            1 => (128, 128),
            2 => (128, 64),
            4 => (64, 64),
            8 => (64, 32),
            16 => (32, 32),
            b => return Err(unsupported(format!("twiddled image of {b}-byte texels"))),
        };
        let compressed = (bw, bh) != (1, 1);
        let (w_el, h_el) = (width.div_ceil(bw), height.div_ceil(bh));
        let (stx, sty) = (w_el.div_ceil(tw) as u64, h_el.div_ceil(th) as u64);
        let pot_level = pot_level((w_el, h_el), (bw, bh), (tw, th));
        let mut offset = 0u64;
        let mut out = Vec::new();
        for l in 0..pot_level.min(levels) {
            let mask = (1u64 << l) - 1;
            let (pad_left, pad_bottom) = (stx & mask != 0, sty & mask != 0);
            let mut tiles = (stx * sty) >> (2 * l);
            if pad_left {
                tiles += sty >> l;
            }
            if pad_bottom {
                tiles += stx >> l;
            }
            if pad_left && pad_bottom {
                tiles += 1;
            }
            out.push(Level {
                offset,
                width: minify(width, l),
                height: minify(height, l),
                tile: (tw, th),
                stride_el: minify(width, l).div_ceil(bw) + u32::from(compressed && pad_left),
            });
            offset = (offset + bytes * tiles * u64::from(tw * th)).next_multiple_of(128);
        }
        let (mut potw, mut poth) = if compressed {
            (
                minify(w_el.next_power_of_two(), pot_level),
                minify(h_el.next_power_of_two(), pot_level),
            )
        } else {
            (
                minify(w_el, pot_level).next_power_of_two(),
                minify(h_el, pot_level).next_power_of_two(),
            )
        };
        for l in pot_level..levels {
            let side = if compressed {
                potw.min(poth).next_power_of_two()
            } else {
                minify(w_el.min(h_el), l).next_power_of_two()
            };
            out.push(Level {
                offset,
                width: minify(width, l),
                height: minify(height, l),
                tile: (side, side),
                stride_el: minify(width, l).div_ceil(bw),
            });
            offset = (offset + bytes * u64::from(potw) * u64::from(poth)).next_multiple_of(128);
            potw = minify(potw, 1);
            poth = minify(poth, 1);
        }
        Ok(Miptree {
            levels: out,
            layer_stride: Some(if page_aligned {
                offset.next_multiple_of(0x4000)
            } else {
                offset
            }),
            linear_pitch: None,
            bytes,
        })
    }

    /// Byte offset of element (x, y) (a texel, or a compressed block) of `level` inside a layer.
    pub fn texel_offset(&self, level: usize, x: u32, y: u32) -> Result<u64, Fault> {
        let l = self
            .levels
            .get(level)
            .ok_or_else(|| unsupported(format!("level {level} of {}", self.levels.len())))?;
        if let Some(pitch) = self.linear_pitch {
            return Ok(u64::from(y) * pitch + u64::from(x) * self.bytes);
        }
        let (tw, th) = l.tile;
        let per_row = u64::from(l.stride_el.div_ceil(tw));
        let tile = u64::from(y / th) * per_row + u64::from(x / tw);
        let within = space_bits(x % tw) | space_bits(y % th) << 1;
        Ok(l.offset + (tile * u64::from(tw * th) + within) * self.bytes)
    }
}

/// The levels of a whole chain down to 1x1(x1): log2 of the largest side, plus one.
pub fn full_chain(width: u32, height: u32, depth: u32) -> u32 {
    width.max(height).max(depth).max(1).ilog2() + 1
}

/// Morton spreading of the low 7 bits (`ail_space_bits`).
fn space_bits(x: u32) -> u64 {
    (0..7).fold(0, |v, i| v | (((x >> i) & 1) as u64) << (2 * i))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn power_of_two_tiles_follow_the_true_level_size() {
        // 33x33, 2 levels: pot level 0 (33 < 64); level 0 is 64x64 rounded (16384 bytes), tile
        // next_pow2(33) = 64; level 1 (16x16) at 16384, tile next_pow2(16) = 16 (22.3's rule
        // would take the rounded 32); the layer, unaligned, ends at 16384 + 32 * 32 * 4 = 20480
        let m = Miptree::new(LAYOUT_TWIDDLED, (33, 33, 4), 2, 0, false).unwrap();
        assert_eq!((m.levels[1].offset, m.levels[1].tile), (16384, (16, 16)));
        assert_eq!(m.layer_stride, Some(20480));
        assert_eq!(full_chain(33, 33, 1), 6);
        assert_eq!(full_chain(4, 4, 16), 5);
    }

    #[test]
    fn pot_level_follows_ail() {
        // 63 < 64: level 0 is already below a tile; 64: level 1 (32) is; 100: level 1 (50);
        // 128: level 2 (32)
        assert_eq!(
            [63, 64, 100, 128].map(|x| pot_level((x, 4096), (1, 1), (64, 64))),
            [0, 1, 1, 2]
        );
    }

    #[test]
    fn compressed_levels_follow_ail() {
        // BC1 (8-byte 4x4 blocks: 64x32 tiles), 260x130 pixels: 65x33 blocks, stx = 2, sty = 2;
        // pot level: 260x130 (65x33 blocks) reaches a tile, 130x65 (33x17) does not: 1. Level 0:
        // 4 tiles of 2048 blocks = 65536 bytes, stride 65. Level 1: the power-of-two tree rounded
        // first: next_pow2(65) = 128 >> 1 = 64, next_pow2(33) = 64 >> 1 = 32 blocks (16384
        // bytes), tile min(64, 32) = 32; stride ceil(130 / 4) = 33. Level 2 at 81920: 32x16
        // blocks, tile 16.
        let m = Miptree::new_compressed(LAYOUT_TWIDDLED, (260, 130, 8), (4, 4), 3, false).unwrap();
        let got: Vec<_> = m
            .levels
            .iter()
            .map(|l| (l.offset, l.width, l.height, l.tile.0, l.stride_el))
            .collect();
        assert_eq!(
            got,
            vec![
                (0, 260, 130, 64, 65),
                (65536, 130, 65, 32, 33),
                (81920, 65, 32, 16, 17)
            ]
        );
        // block (33, 20) of level 1: tiles of 32, ceil(stride 33 / 32) = 2 a row; tile 0 * 2 + 1
        // = 1, inside (1, 20): x bit 0 -> 1, y = 0b10100 in the odd bits -> 0b1000100000 = 544:
        // (1024 + 545) * 8 bytes after the level's start
        assert_eq!(m.texel_offset(1, 33, 20).unwrap(), 65536 + (1024 + 545) * 8);
    }

    #[test]
    fn large_then_power_of_two_levels() {
        // 100x70, 3 levels: stx = 2, sty = 2, pot level min(1, 1) = 1. Level 0: 4 tiles of 16 KiB
        // = 65536 bytes at 0. Level 1 (50x35) is the power-of-two tree's first: 64x64 (rounded up
        // once), tile 64, 16384 bytes at 65536. Level 2 (25x17): 32x32, 4096 bytes at 81920.
        // Layer: 86016 rounded to 16 KiB = 98304.
        let m = Miptree::new(LAYOUT_TWIDDLED, (100, 70, 4), 3, 0, true).unwrap();
        let got: Vec<_> = m
            .levels
            .iter()
            .map(|l| (l.offset, l.width, l.height, l.tile.0))
            .collect();
        assert_eq!(
            got,
            vec![(0, 100, 70, 64), (65536, 50, 35, 64), (81920, 25, 17, 32)]
        );
        assert_eq!(m.layer_stride, Some(98304));
        // 320x200, 2 levels: stx = 5, sty = 4; level 1: 20 >> 2 = 5 tiles, stx odd (pad_left):
        // + sty >> 1 = 2 -> 7 tiles; level 0: 20 tiles = 327680 bytes
        let m = Miptree::new(LAYOUT_TWIDDLED, (320, 200, 4), 2, 0, true).unwrap();
        assert_eq!(m.levels[1].offset, 327680);
        assert_eq!(
            m.layer_stride,
            Some((327680u64 + 7 * 16384).next_multiple_of(0x4000))
        );
    }
}
