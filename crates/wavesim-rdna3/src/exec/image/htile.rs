//! HTILE: the depth buffer's metadata on gfx11, one 32-bit word per 8x8-pixel tile, as the DB
//! keeps it and the texture unit reads it when a T# has COMPRESSION_EN ("TC-compatible HTILE").
//!
//! Where a tile's word lies: addrlib's HTILE address for gfx1100 (Mesa's `src/amd/addrlib`,
//! `Gfx11Lib::HwlComputeHtileInfo` / `HwlComputeHtileAddrFromCoord`), which RADV lays HTILE
//! out with (Mesa's `ac_surface.c`: pipe- and RB-aligned, the depth surface's swizzle mode; a
//! depth surface has no pipe/bank XOR): the surface is cut into meta blocks of
//! 2^w x 2^h pixels (2048 x 1024 for 64KB_Z_X on the shim's 32-pipe device), rows of blocks
//! `pitch / 2^w` long (the width rounded up to whole blocks), slices one after another; inside a
//! block each bit of the byte offset is the XOR of some bits of the pixel's x and y and the
//! slice (the equation of `htile_equations.rs`, generated from addrlib by
//! tools/radv/addrlib_goldens.sh; tests/gfx_htile.rs checks addresses against addrlib's own).
//!
//! What a word says (Mesa's `radv_get_htile_initial_value` and
//! `radv_get_htile_fast_clear_value`, `radv_meta_clear.c` / `radv_private.h`, 22.3):
//! - depth only (DB_STENCIL_INFO.TILE_STENCIL_DISABLE = 1): Max Z [31:18], Min Z [17:4],
//!   ZMask [3:0];
//! - depth and stencil: Z Range [31:12] (Max Z in its top 14 bits [31:18], a delta below),
//!   SMem [9:8], SR1 [7:6], SR0 [5:4], ZMask [3:0].
//!
//! ZMask 0 is a cleared tile (every pixel holds the clear value: the DB's DB_DEPTH_CLEAR; RADV's
//! fast clear writes such words and nothing else); 0xf is an expanded tile (the depth surface's
//! memory holds every pixel: RADV's initial value 0xfffc000f / 0xfffff3ff); the values between
//! are depth planes the DB compresses to, which wavesim neither writes nor reads (an error
//! naming them). Min/Max Z (and SR0/SR1) are hierarchical-test summaries: conservative bounds
//! that let the DB skip work; they never change a result, and wavesim writes the full range.
//!
//! The texture unit has no DB_DEPTH_CLEAR: it takes a cleared tile's value from Max Z, a 14-bit
//! fraction of 1. RADV fast-clears TC-compatible HTILE only to 0.0 and 1.0
//! (`radv_is_fast_clear_depth_allowed`), which 0 and 0x3fff encode exactly; other Max Z values
//! of a cleared tile are refused (the unit's rounding of them is not documented).

use crate::exec::ExecError;

/// (depth SW_MODE, log2 meta block width and height in pixels, log2 meta block bytes, per
/// byte-offset bit [x mask, y mask, slice mask]).
type HtileEquation = (u32, u32, u32, u32, &'static [[u32; 3]]);

include!("htile_equations.rs");

/// ZMask [3:0] of a cleared tile.
pub const ZMASK_CLEARED: u32 = 0;
/// ZMask [3:0] of an expanded (uncompressed) tile.
pub const ZMASK_EXPANDED: u32 = 0xf;
/// An expanded depth-only tile with the full Z range: RADV's `radv_get_htile_initial_value`
/// for TILE_STENCIL_DISABLE images.
pub const EXPANDED_DEPTH_ONLY: u32 = 0xfffc_000f;
/// An expanded depth-and-stencil tile (SMem 3, SR0/SR1 3 "unknown", full Z range): RADV's
/// initial value for images with stencil.
pub const EXPANDED_WITH_STENCIL: u32 = 0xffff_f3ff;

/// RADV's fast-clear word for a depth-only image (`radv_get_htile_fast_clear_value`): Min Z =
/// Max Z = round(depth * 0x3fff), ZMask 0.
pub fn depth_only_clear_word(depth: f32) -> u32 {
    let z = (depth * 0x3fff as f32).round() as u32 & 0x3fff;
    z << 18 | z << 4
}

/// What a tile's word says about its depth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileDepth {
    /// Every pixel is the clear value (ZMask 0); `max_z` is the word's 14-bit Max Z.
    Cleared { max_z: u32 },
    /// Memory holds every pixel (ZMask 0xf).
    Expanded,
}

/// Decodes a tile's word (both HTILE formats keep ZMask in [3:0] and Max Z in [31:18]).
pub fn tile_depth(word: u32) -> Result<TileDepth, String> {
    match word & 0xf {
        ZMASK_CLEARED => Ok(TileDepth::Cleared { max_z: word >> 18 }),
        ZMASK_EXPANDED => Ok(TileDepth::Expanded),
        z => Err(format!(
            "HTILE word {word:#010x}: ZMask {z} (depth compressed to planes) is not modelled"
        )),
    }
}

/// What a depth-and-stencil tile's word says about its stencil.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileStencil {
    /// Every pixel is the stencil clear value (SMem 0: RADV's fast clear).
    Cleared,
    /// Memory holds every pixel (SMem 3: RADV's initial value).
    Expanded,
}

/// Decodes SMem [9:8] of a depth-and-stencil tile's word (TILE_STENCIL_DISABLE 0). SMem 1 and
/// 2 (stencil compressed) are errors naming them: neither RADV's clears nor the DB here write
/// them.
pub fn tile_stencil(word: u32) -> Result<TileStencil, String> {
    match word >> 8 & 3 {
        0 => Ok(TileStencil::Cleared),
        3 => Ok(TileStencil::Expanded),
        s => Err(format!(
            "HTILE word {word:#010x}: SMem {s} (stencil compressed) is not modelled"
        )),
    }
}

/// Where the HTILE words of one depth surface lie.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HtileLayout {
    eq: &'static HtileEquation,
    pitch_blocks: u64,
    slice_bytes: u64,
    slices: u32,
}

impl HtileLayout {
    /// The HTILE of a `width` x `height` x `slices` single-sample, one-level depth surface of
    /// swizzle mode `sw_mode`. Err: a mode addrlib gives no HTILE for (Gfx11Lib accepts the
    /// Z modes 64KB_Z_X and 256KB_Z_X).
    pub fn new(sw_mode: u32, width: u32, height: u32, slices: u32) -> Result<HtileLayout, String> {
        let Some(eq) = HTILE_EQUATIONS.iter().find(|q| q.0 == sw_mode) else {
            return Err(format!(
                "HTILE of a depth surface with swizzle mode {sw_mode}: only 64KB_Z_X (24) and 256KB_Z_X (28) have one"
            ));
        };
        let (bw, bh, blk) = (eq.1, eq.2, eq.3);
        let pitch_blocks = (width.max(1) as u64).div_ceil(1 << bw);
        let height_blocks = (height.max(1) as u64).div_ceil(1 << bh);
        Ok(HtileLayout {
            eq,
            pitch_blocks,
            slice_bytes: (pitch_blocks * height_blocks) << blk,
            slices: slices.max(1),
        })
    }

    /// Bytes of the whole HTILE (addrlib's htileBytes).
    pub fn bytes(&self) -> u64 {
        self.slice_bytes * self.slices as u64
    }

    /// Byte offset of the word of the tile holding pixel (x, y) of `slice`.
    pub fn offset(&self, x: u32, y: u32, slice: u32) -> u64 {
        let (bw, bh, blk) = (self.eq.1, self.eq.2, self.eq.3);
        let mut off = 0u64;
        for (bit, m) in self.eq.4.iter().enumerate() {
            let v =
                ((m[0] & x).count_ones() + (m[1] & y).count_ones() + (m[2] & slice).count_ones())
                    & 1;
            off |= (v as u64) << bit;
        }
        let block = (y >> bh) as u64 * self.pitch_blocks + (x >> bw) as u64;
        slice as u64 * self.slice_bytes + (block << blk) + off
    }
}

/// The texture unit's view of a T#'s TC-compatible HTILE: the words' base address (the T#'s
/// META_DATA_ADDRESS) and layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TcHtile {
    pub base: u64,
    pub layout: HtileLayout,
}

impl TcHtile {
    /// Pixel (x, y) of `slice` as the texture unit reads it: Some(value) of a cleared tile,
    /// None when memory holds it. `read_word` reads the 32-bit word at an address.
    pub fn cleared_value(
        &self,
        (x, y, slice): (u32, u32, u32),
        read_word: impl FnOnce(u64) -> Result<u32, ExecError>,
    ) -> Result<Option<f32>, ExecError> {
        let word = read_word(self.base + self.layout.offset(x, y, slice))?;
        match tile_depth(word).map_err(ExecError::Other)? {
            TileDepth::Expanded => Ok(None),
            TileDepth::Cleared { max_z: 0 } => Ok(Some(0.0)),
            TileDepth::Cleared { max_z: 0x3fff } => Ok(Some(1.0)),
            TileDepth::Cleared { max_z } => Err(ExecError::Other(format!(
                "TC-compatible HTILE word {word:#010x}: a tile cleared to Max Z {max_z:#x} (only 0.0 and 1.0 are read: RADV fast-clears TC-compatible HTILE to those alone)"
            ))),
        }
    }
}

/// The TC-compatible HTILE of a 256-bit T# `d` with COMPRESSION_EN (word 6 bit 21): its
/// META_DATA_ADDRESS (word 6 [31:24] address bits 15:8, word 7 bits 47:16: Mesa's
/// `si_set_mutable_tex_desc_fields` writes meta_va >> 8 and >> 16 there), for an image of
/// swizzle mode `sw_mode`, resource type `ty` (RDNA3 ISA Table 50: 9 2D, 13 2D array), `levels`
/// mip levels and `slices` slices. Refused: compression on other than a one-level 2D depth image
/// of a Z mode (DCC), META_PIPE_ALIGNED 0 (RADV pipe-aligns depth metadata; unaligned HTILE has
/// another layout) and WRITE_COMPRESS_ENABLE (compressed writes).
pub(crate) fn tc_htile(
    d: &[u32],
    sw_mode: u32,
    ty: u32,
    (width, height, slices): (u32, u32, u32),
    levels: u32,
) -> Result<TcHtile, ExecError> {
    let refuse = |why: &str| {
        Err(ExecError::Other(format!(
            "image resource with COMPRESSION_EN: {why} (TC-compatible HTILE of one-level 2D depth images is emulated; DCC is not)"
        )))
    };
    if !matches!(sw_mode, 24 | 28) {
        return refuse(&format!("swizzle mode {sw_mode} is not a Z mode"));
    }
    if !matches!(ty, 9 | 13) || levels != 1 {
        return refuse(&format!("resource type {ty} with {levels} mip levels"));
    }
    let (w6, w7) = (d[6], d[7]);
    if w6 >> 19 & 1 == 0 {
        return refuse("META_PIPE_ALIGNED is 0");
    }
    if w6 >> 20 & 1 != 0 {
        return refuse("WRITE_COMPRESS_ENABLE is set");
    }
    let layout = HtileLayout::new(sw_mode, width, height, slices).map_err(ExecError::Other)?;
    Ok(TcHtile {
        base: (w7 as u64) << 16 | ((w6 >> 24) as u64) << 8,
        layout,
    })
}

/// The bytes of a `bytes`-byte depth texel holding `value` (0.0 or 1.0): a 32-bit float
/// (D32_SFLOAT, read as 32_FLOAT) or 16-bit UNORM (D16_UNORM).
pub(crate) fn depth_texel(value: f32, bytes: usize) -> Result<Vec<u8>, ExecError> {
    match bytes {
        4 => Ok(value.to_le_bytes().to_vec()),
        2 => Ok((((value * 65535.0).round() as u16).to_le_bytes()).to_vec()),
        b => Err(ExecError::Other(format!(
            "TC-compatible HTILE over {b}-byte texels: only 16- and 32-bit depth is read"
        ))),
    }
}

/// Reads texel (x, y) of `slice` at `addr` into `out` as the texture unit does: through the
/// TC-compatible HTILE `h` when there is one (a cleared tile gives its clear value, an expanded
/// one memory). `fault(addr, size)` is the error of a read outside device memory.
pub(crate) fn read_texel(
    mem: &wavesim_core::memory::DeviceMemory,
    h: Option<&TcHtile>,
    (x, y, slice): (u32, u32, u32),
    addr: u64,
    out: &mut [u8],
    fault: impl Fn(u64, u64) -> ExecError,
) -> Result<(), ExecError> {
    if let (Some(h), 1) = (h, out.len()) {
        // A stencil texel (the stencil plane's T# of a depth/stencil image, 8_UINT): SMem of the
        // tile's word. The unit has no DB_STENCIL_CLEAR; RADV fast-clears the stencil of
        // TC-compatible HTILE only to 0 (`radv_is_fast_clear_stencil_allowed`, Mesa 22.3), the
        // value a cleared tile gives here.
        let a = h.base + h.layout.offset(x, y, slice);
        let mut w = [0u8; 4];
        mem.read(a, &mut w).map_err(|_| fault(a, 4))?;
        match tile_stencil(u32::from_le_bytes(w)).map_err(ExecError::Other)? {
            TileStencil::Cleared => {
                out[0] = 0;
                return Ok(());
            }
            TileStencil::Expanded => {
                return mem
                    .read(addr, out)
                    .map_err(|_| fault(addr, out.len() as u64))
            }
        }
    }
    if let Some(h) = h {
        let cleared = h.cleared_value((x, y, slice), |a| {
            let mut w = [0u8; 4];
            mem.read(a, &mut w).map_err(|_| fault(a, 4))?;
            Ok(u32::from_le_bytes(w))
        })?;
        if let Some(v) = cleared {
            out.copy_from_slice(&depth_texel(v, out.len())?);
            return Ok(());
        }
    }
    mem.read(addr, out)
        .map_err(|_| fault(addr, out.len() as u64))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RADV's words (radv_meta_clear.c): clear to 1.0 gives Max Z = Min Z = 0x3fff, ZMask 0:
    /// 0x3fff << 18 | 0x3fff << 4 = 0xfffffff0; to 0.0 gives 0.
    #[test]
    fn clear_words_follow_radv() {
        assert_eq!(depth_only_clear_word(1.0), 0xffff_fff0);
        assert_eq!(depth_only_clear_word(0.0), 0);
        assert_eq!(
            tile_depth(0xffff_fff0),
            Ok(TileDepth::Cleared { max_z: 0x3fff })
        );
        assert_eq!(tile_depth(EXPANDED_DEPTH_ONLY), Ok(TileDepth::Expanded));
        assert_eq!(tile_depth(EXPANDED_WITH_STENCIL), Ok(TileDepth::Expanded));
        assert!(tile_depth(0xffff_fff3).is_err());
    }

    /// The texture unit's stencil texels (1-byte reads of a TC-compatible HTILE image): a tile
    /// whose word has SMem 0 reads 0 whatever memory holds (0x77 here), SMem 3 reads memory,
    /// SMem 1 is an error naming it; a 4-byte (depth) read of the SMem-0 tile still goes by
    /// ZMask (0xf: expanded, memory).
    #[test]
    fn stencil_texels_read_through_smem() {
        let mut mem = wavesim_core::memory::DeviceMemory::new();
        let layout = HtileLayout::new(24, 16, 16, 1).unwrap();
        let base = mem.alloc(layout.bytes(), 256).unwrap();
        let data = mem.alloc(256, 256).unwrap();
        mem.write(data, &[0x77; 256]).unwrap();
        let h = TcHtile { base, layout };
        let put = |m: &wavesim_core::memory::DeviceMemory, x, y, w: u32| {
            m.write_u32(base + layout.offset(x, y, 0), w).unwrap()
        };
        // Tile (0,0): ZMask 0xf, SMem 0; tile (8,0): expanded; tile (0,8): SMem 1.
        put(&mem, 0, 0, 0xffff_f0ff);
        put(&mem, 8, 0, EXPANDED_WITH_STENCIL);
        put(&mem, 0, 8, 0xffff_f1ff);
        let fault = |a, _| ExecError::Other(format!("fault at {a:#x}"));
        let read = |xy: (u32, u32), n: usize| {
            let mut out = vec![0xaau8; n];
            read_texel(&mem, Some(&h), (xy.0, xy.1, 0), data, &mut out, fault).map(|_| out)
        };
        assert_eq!(read((3, 3), 1).unwrap(), [0]);
        assert_eq!(read((9, 3), 1).unwrap(), [0x77]);
        assert_eq!(read((3, 3), 4).unwrap(), [0x77; 4]);
        let e = read((3, 9), 1).unwrap_err();
        assert!(format!("{e:?}").contains("SMem 1"), "{e:?}");
    }

    /// RADV's words with stencil (radv_get_htile_fast_clear_value / initial value): a clear
    /// of depth and stencil to (1.0, 0) gives Z Range 0x3fff << 6 at [31:12], SMem 0, SR0/SR1
    /// 0xf, ZMask 0: 0xfffc00f0; the initial value 0xfffff3ff has SMem 3.
    #[test]
    fn stencil_words_follow_radv() {
        assert_eq!(tile_stencil(0xfffc_00f0), Ok(TileStencil::Cleared));
        assert_eq!(
            tile_depth(0xfffc_00f0),
            Ok(TileDepth::Cleared { max_z: 0x3fff })
        );
        assert_eq!(
            tile_stencil(EXPANDED_WITH_STENCIL),
            Ok(TileStencil::Expanded)
        );
        assert!(tile_stencil(0xfffc_01f0).unwrap_err().contains("SMem 1"));
    }
}
