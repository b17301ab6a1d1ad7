//! The image resource (T#) and its memory layout (RDNA3 ISA 10.5 "Image Resource", Table 50).
//!
//! Fields read: base address (bits 39:0, address bits 47:8), max mip (51:48), format (59:52),
//! width-1 (75:62), height-1 (91:78), dst_sel_x/y/z/w (98:96 ... 107:105), base level (111:108),
//! last level (115:112), swizzle mode (120:116), type (127:124); with a 256-bit T#
//! also depth / last array slice (140:128), the pitch's high bit (141) and base array (156:144).
//! A cube's slices are its faces (6 per cube, DEPTH the last one); a 3D image's DEPTH is its
//! depth - 1.
//! A T# of all zeros is unbound: loads return zeros and nothing is written (Table 50).
//!
//! Layout of a linear image (SW_MODE 0). The ISA guide leaves the layout to the driver's
//! addressing library, so the rule is addrlib's for gfx11 (Mesa's `src/amd/addrlib`,
//! `Gfx11Lib::HwlComputeSurfaceInfoLinear` and `Lib::ComputeSurfaceAddrFromCoordLinear`), which
//! is what RADV lays a linear image out with; tests/image_layout.rs checks it against addrlib's
//! own addresses (tools/radv/addrlib_goldens.sh):
//! - mip level m has `max(1, width >> m)` x `max(1, height >> m)` texels (height 1 for 1D), but
//!   its place in memory is sized from ceil(width / 2^m) x ceil(height / 2^m) (addrlib's
//!   `GetMipSize`); its rows are the (ceil) width rounded up to a multiple of 256 /
//!   bytes-per-texel texels apart (rows start 256-byte aligned);
//! - a slice holds the whole mip chain (MAX_MIP + 1 levels), the *smallest* level first: level
//!   m starts after levels MAX_MIP down to m + 1; slices follow one another;
//! - custom pitch (gfx10.3+): for 1D and 2D images, the DEPTH field (plus PITCH_MSB at bit 13
//!   of word 4) holds pitch - 1 when the pitch is larger than the width (Mesa's register
//!   description `gfx11-rsrc.json`, SQ_IMG_RSRC_WORD4.PITCH_MSB: "the pitch if pitch > width";
//!   `ac_descriptors.c` writes it for images with `uses_custom_pitch`); addrlib honours a custom
//!   pitch for one-level images only.
//!
//! Levels count from the resource's mip 0 (the view's base level is an index into them).

use crate::exec::ExecError;

/// Resource types (Table 50).
pub mod ty {
    pub const BUF: u32 = 0;
    pub const D1: u32 = 8;
    pub const D2: u32 = 9;
    pub const D3: u32 = 10;
    pub const CUBE: u32 = 11;
    pub const D1_ARRAY: u32 = 12;
    pub const D2_ARRAY: u32 = 13;
    pub const D2_MSAA: u32 = 14;
    pub const D2_MSAA_ARRAY: u32 = 15;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ImageResource {
    pub unbound: bool,
    pub base: u64,
    pub max_mip: u32,
    pub format: u32,
    pub width: u32,
    pub height: u32,
    pub dst_sel: [u32; 4],
    pub base_level: u32,
    pub last_level: u32,
    pub ty: u32,
    /// Slices of an array or cube resource (last slice + 1: a cube has 6 per cube), the depth
    /// of a 3D resource (DEPTH + 1); 1 otherwise.
    pub slices: u32,
    pub base_array: u32,
    /// A 1D/2D image's custom row pitch in texels (DEPTH and PITCH_MSB + 1, when larger than
    /// the width); see the module documentation.
    pub custom_pitch: Option<u32>,
    /// The layout of a tiled image (SW_MODE != 0); None: linear.
    pub tiling: Option<super::swizzle::Tiling>,
    /// The layout of a multisampled image (types 2D_MSAA and 2D_MSAA_ARRAY), with its sample
    /// count (exec::image::msaa); `tiling` is then None.
    pub msaa: Option<super::msaa::MsaaTiling>,
    /// TC-compatible HTILE (COMPRESSION_EN on a depth image, `htile`); None: none.
    pub htile: Option<super::htile::TcHtile>,
}

fn field(d: &[u32], lo: u32, width: u32) -> u32 {
    let word = (lo / 32) as usize;
    let sh = lo % 32;
    let mut v = (d[word] as u64) >> sh;
    if sh + width > 32 {
        v |= (d[word + 1] as u64) << (32 - sh);
    }
    (v & ((1u64 << width) - 1)) as u32
}

impl ImageResource {
    /// Parses a 128-bit (`d.len() == 4`) or 256-bit T#.
    pub fn parse(d: &[u32]) -> Result<ImageResource, ExecError> {
        let unbound = d.iter().all(|&x| x == 0);
        let ty = field(d, 124, 4);
        let wide = d.len() == 8;
        // Cubes are arrays of faces (RADV's DEPTH is the last layer: Mesa's
        // gfx10_make_texture_descriptor); a 3D T#'s DEPTH is the depth - 1.
        let array = matches!(
            ty,
            ty::D1_ARRAY | ty::D2_ARRAY | ty::CUBE | ty::D3 | ty::D2_MSAA_ARRAY
        );
        let msaa = matches!(ty, ty::D2_MSAA | ty::D2_MSAA_ARRAY);
        let r = ImageResource {
            unbound,
            base: (field(d, 0, 32) as u64 | (field(d, 32, 8) as u64) << 32) << 8,
            max_mip: field(d, 48, 4),
            format: field(d, 52, 8),
            width: field(d, 62, 14) + 1,
            height: field(d, 78, 14) + 1,
            dst_sel: [
                field(d, 96, 3),
                field(d, 99, 3),
                field(d, 102, 3),
                field(d, 105, 3),
            ],
            base_level: field(d, 108, 4),
            last_level: field(d, 112, 4),
            ty,
            slices: if wide && array {
                field(d, 128, 13) + 1
            } else {
                1
            },
            // A 3D T#'s BASE_ARRAY is ignored when sampled (Mesa's gfx10_make_texture_descriptor:
            // "In SRV mode, BASE_ARRAY is ignored").
            base_array: if wide && ty != ty::D3 {
                field(d, 144, 13)
            } else {
                0
            },
            custom_pitch: None,
            tiling: None,
            msaa: None,
            htile: None,
        };
        let mut r = r;
        if wide && matches!(ty, ty::D1 | ty::D2) {
            let pitch = (field(d, 128, 13) | field(d, 141, 1) << 13) + 1;
            if pitch > r.width {
                r.custom_pitch = Some(pitch);
            }
        }
        if !unbound
            && !matches!(
                ty,
                ty::D1
                    | ty::D2
                    | ty::D1_ARRAY
                    | ty::D2_ARRAY
                    | ty::CUBE
                    | ty::D3
                    | ty::D2_MSAA
                    | ty::D2_MSAA_ARRAY
            )
        {
            return Err(ExecError::Other(format!(
                "image resource type {ty}: wavesim emulates 1D, 2D, 3D, cube, 1D-array, \
                 2D-array and 2D MSAA (array) images (buffer T#s are not emulated)"
            )));
        }
        // COMPRESSION_EN (word 6 bit 21, Mesa's gfx11-rsrc.json): compressed texels with
        // metadata. On a Z swizzle mode, TC-compatible HTILE (RADV sets it for sampled depth
        // images of 8x8 texels and more): read through `htile`. DCC (colour) is not emulated.
        let compressed = !unbound && wide && field(d, 213, 1) != 0;
        // SW_MODE (120:116): 0 is linear; the swizzled modes (RADV tiles every optimal-tiling
        // image) follow addrlib's equations (exec::image::swizzle), for the T#'s format.
        let sw_mode = field(d, 116, 5);
        if !unbound && msaa {
            // LAST_LEVEL holds log2(samples) (exec::image::msaa).
            let bpp = super::formats::Format::of(r.format)?.bytes;
            r.msaa = Some(super::msaa::MsaaTiling::new(
                sw_mode,
                (r.width, r.height),
                1 << r.last_level,
                r.base,
                bpp,
            )?);
        } else if !unbound && sw_mode != 0 {
            if r.custom_pitch.is_some() {
                return Err(ExecError::Other(format!(
                    "image resource swizzle mode {sw_mode}: a custom pitch (DEPTH) applies to \
                     linear images only"
                )));
            }
            let bpp = super::formats::Format::of(r.format)?.bytes;
            use super::swizzle::Shape;
            let shape = match ty {
                ty::D2 | ty::D2_ARRAY | ty::CUBE => Shape::TwoD,
                ty::D3 => Shape::ThreeD,
                _ => Shape::Other("1D"),
            };
            r.tiling = Some(super::swizzle::Tiling::new(
                sw_mode,
                shape,
                (r.width, r.height),
                r.max_mip + 1,
                r.base,
                bpp,
            )?);
        }
        if compressed {
            r.htile = Some(super::htile::tc_htile(
                d,
                sw_mode,
                ty,
                (r.width, r.height, r.slices),
                r.max_mip + 1,
            )?);
        }
        if !unbound && array && !wide {
            return Err(ExecError::Other(
                "an array, cube or 3D image needs a 256-bit T# (r128 = 0)".into(),
            ));
        }
        // A linear 3D image: addrlib's linear 3D layout is not checked here (RADV tiles the
        // 3D images of optimal tiling).
        if !unbound && ty == ty::D3 && sw_mode == 0 {
            return Err(ExecError::Other(
                "a linear 3D image: only tiled 3D layouts are emulated".into(),
            ));
        }
        Ok(r)
    }

    pub fn mip_dims(&self, level: u32) -> (u32, u32) {
        let h = if matches!(self.ty, ty::D1 | ty::D1_ARRAY) {
            1
        } else {
            self.height
        };
        ((self.width >> level).max(1), (h >> level).max(1))
    }

    /// The linear layout of this resource for `bpp`-byte texels.
    pub fn layout(&self, bpp: u64) -> LinearLayout {
        let h = if matches!(self.ty, ty::D1 | ty::D1_ARRAY) {
            1
        } else {
            self.height
        };
        LinearLayout::new(self.width, h, self.max_mip + 1, bpp, self.custom_pitch)
    }

    /// Byte address of texel (x, y) of `slice` at resource mip `level`, for `bpp`-byte texels
    /// (the linear layout of the module documentation).
    /// A tiled image is laid out for its format's texel size (swizzle::Tiling).
    pub fn texel_addr(&self, level: u32, slice: u32, x: u32, y: u32, bpp: u64) -> u64 {
        match &self.tiling {
            Some(t) => t.level_texel_addr(self.base, level, slice, x, y),
            None => self.base + self.layout(bpp).texel_offset(level, slice, x, y),
        }
    }

    /// Mip levels in the view.
    pub fn view_levels(&self) -> u32 {
        self.last_level.saturating_sub(self.base_level) + 1
    }
}

/// Where the texels of a linear image lie (the module documentation's rule): per mip level its
/// byte offset inside a slice and its row pitch in bytes, and the bytes of one slice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinearLayout {
    /// (offset in the slice, row pitch in bytes, rows) of each level, level 0 first.
    pub levels: Vec<(u64, u64, u32)>,
    pub bpp: u64,
    pub slice_bytes: u64,
}

impl LinearLayout {
    /// `levels` mips of a `width` x `height` image of `bpp`-byte texels (a power of two: the
    /// formats of `formats`); `custom_pitch` (texels) applies to a one-level image only.
    pub fn new(
        width: u32,
        height: u32,
        levels: u32,
        bpp: u64,
        custom_pitch: Option<u32>,
    ) -> LinearLayout {
        // Gfx11Lib::HwlComputeSurfaceInfoLinear: pitch alignment 256 / bytes-per-element.
        let align = (256 / bpp.max(1)).max(1);
        let pitch = |w: u32| (w as u64).div_ceil(align) * align * bpp;
        let levels = levels.max(1);
        // addrlib sizes levels with ShiftCeil (Lib::GetMipSize in addrlib2.h): the layout of
        // level m reserves ceil(width / 2^m) x ceil(height / 2^m) texels, though the level's
        // texels (and its bounds) are floor(width / 2^m) (mip_dims).
        let ceil = |x: u32, m: u32| ((x.max(1) as u64 + (1u64 << m) - 1) >> m) as u32;
        let dims = |m: u32| (ceil(width, m), ceil(height, m));
        let mut out = vec![(0, 0, 0); levels as usize];
        let mut at = 0u64;
        for m in (0..levels).rev() {
            let (w, h) = dims(m);
            let row = match custom_pitch {
                Some(p) if levels == 1 => p as u64 * bpp,
                _ => pitch(w),
            };
            out[m as usize] = (at, row, h);
            at += row * h as u64;
        }
        LinearLayout {
            levels: out,
            bpp,
            slice_bytes: at,
        }
    }

    /// Byte offset of texel (x, y) of `slice` at `level` from the image's base.
    pub fn texel_offset(&self, level: u32, slice: u32, x: u32, y: u32) -> u64 {
        let (off, row, _) = self.levels.get(level as usize).copied().unwrap_or_default();
        slice as u64 * self.slice_bytes + off + y as u64 * row + x as u64 * self.bpp
    }

    /// The image's bytes in this layout from level 0 of one slice given with rows packed
    /// (`width` texels each); the padding and the other levels are zero.
    pub fn from_packed_level0(&self, width: u32, packed: &[u8]) -> Vec<u8> {
        let (off, row, rows) = self.levels[0];
        let mut out = vec![0u8; self.slice_bytes as usize];
        let n = (width as u64 * self.bpp) as usize;
        for (y, src) in packed.chunks(n.max(1)).take(rows as usize).enumerate() {
            let at = (off + y as u64 * row) as usize;
            out[at..at + src.len()].copy_from_slice(src);
        }
        out
    }

    /// Level 0 of slice 0 of `bytes` (this layout) with its rows packed (`width` texels each).
    pub fn packed_level0(&self, width: u32, bytes: &[u8]) -> Vec<u8> {
        let (off, row, rows) = self.levels[0];
        let n = (width as u64 * self.bpp) as usize;
        (0..rows as u64)
            .flat_map(|y| {
                let at = (off + y * row) as usize;
                bytes.get(at..at + n).unwrap_or(&[]).iter().copied()
            })
            .collect()
    }
}

/// Sets `width` bits at bit `lo` of a descriptor.
fn set(d: &mut [u32], lo: u32, width: u32, v: u64) {
    for b in 0..width {
        let bit = lo + b;
        let (w, sh) = ((bit / 32) as usize, bit % 32);
        d[w] = (d[w] & !(1 << sh)) | (((v >> b) & 1) as u32) << sh;
    }
}

/// A 256-bit T# for a linear 2D image of `levels` mips at `base` (256-byte aligned) in the layout
/// above, identity dst_sel, the whole mip chain in view (Table 50).
pub fn image_descriptor(base: u64, format: u32, width: u32, height: u32, levels: u32) -> [u32; 8] {
    let mut d = [0u32; 8];
    set(&mut d, 0, 40, base >> 8);
    set(&mut d, 48, 4, levels.clamp(1, 16) as u64 - 1);
    set(&mut d, 52, 8, format as u64);
    set(&mut d, 62, 14, width.max(1) as u64 - 1);
    set(&mut d, 78, 14, height.max(1) as u64 - 1);
    for (k, sel) in [4u64, 5, 6, 7].into_iter().enumerate() {
        set(&mut d, 96 + 3 * k as u32, 3, sel);
    }
    set(&mut d, 112, 4, levels.clamp(1, 16) as u64 - 1);
    set(&mut d, 124, 4, ty::D2 as u64);
    d
}

/// Bytes of a 2D image's whole mip chain in the layout above.
pub fn image_bytes(width: u32, height: u32, levels: u32, texel_bytes: u64) -> u64 {
    LinearLayout::new(width, height, levels, texel_bytes, None).slice_bytes
}

/// OpenCL channel data types and orders (cl.h values) for [`opencl_image_object`].
pub mod cl {
    pub const UNORM_INT8: u32 = 0x10D2;
    pub const SIGNED_INT32: u32 = 0x10D9;
    pub const UNSIGNED_INT8: u32 = 0x10DA;
    pub const UNSIGNED_INT32: u32 = 0x10DC;
    pub const HALF_FLOAT: u32 = 0x10DD;
    pub const FLOAT: u32 = 0x10DE;
    pub const R: u32 = 0x10B0;
    pub const RG: u32 = 0x10B2;
    pub const RGBA: u32 = 0x10B5;
    pub const SRGBA: u32 = 0x10C1;
}

/// The 48-byte image object an OpenCL `image2d_t` argument points to on AMDGPU: the 256-bit T#,
/// then (as the ROCm device library's `__ockl_image_*` accessors read it) dword 8 the OpenCL
/// channel data type, dword 9 the channel order and dword 10 the width; dword 11 is zero.
pub fn opencl_image_object(t: [u32; 8], data_type: u32, order: u32, width: u32) -> [u32; 12] {
    let mut o = [0u32; 12];
    o[..8].copy_from_slice(&t);
    o[8] = data_type;
    o[9] = order;
    o[10] = width;
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RADV's T# for a 64x64 R8G8B8A8_UNORM image with linear tiling (read from a shim capture
    /// of tests/radv_shader_db.rs): SW_MODE 0. The same words with SW_MODE 24 (gfx11's
    /// 64KB_Z_X, which RADV picks for optimal tiling) parse as tiled, also with two mip
    /// levels (exec::image::mip_tail); with a 256 KiB mode (28) they are refused by name.
    #[test]
    fn swizzled_images_parse_or_are_refused_by_name() {
        let linear = [
            0x0100_0800,
            0xc2a0_0000,
            0x000f_c00f,
            0x9000_0fac,
            0,
            0x0040_0000,
            0,
            0,
        ];
        let r = ImageResource::parse(&linear).expect("a linear T#");
        assert_eq!((r.width, r.height, r.ty, r.tiling), (64, 64, ty::D2, None));
        let mut tiled = linear;
        tiled[3] |= 24 << 20;
        assert!(ImageResource::parse(&tiled)
            .expect("64KB_Z_X")
            .tiling
            .is_some());
        let mut mips = tiled;
        mips[1] |= 1 << 16; // MAX_MIP 1
        assert_eq!(
            ImageResource::parse(&mips)
                .expect("a tiled mip chain")
                .max_mip,
            1
        );
        let mut big = linear;
        big[3] |= 28 << 20;
        let e = ImageResource::parse(&big).expect_err("a 256 KiB block");
        assert!(e.to_string().contains("swizzle mode 28 (256KB_Z_X)"), "{e}");
    }
}
