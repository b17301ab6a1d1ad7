//! The image resource (T#) and its memory layout (RDNA3 ISA 10.5 "Image Resource", Table 50).
//!
//! Fields read: base address (bits 39:0, address bits 47:8), max mip (51:48), format (59:52),
//! width-1 (75:62), height-1 (91:78), dst_sel_x/y/z/w (98:96 ... 107:105), base level (111:108),
//! last level (115:112), swizzle mode (120:116, linear only), type (127:124); with a 256-bit T# also depth / last array slice (140:128)
//! and base array (156:144). A T# of all zeros is unbound: loads return zeros and nothing is
//! written (Table 50).
//!
//! Layout (wavesim's; the ISA guide leaves the tiling to the driver's addressing library): images
//! are linear. Mip level m has `max(1, width >> m)` x `max(1, height >> m)` texels per slice,
//! rows without padding, slices one after another, and level m+1 follows level m. Levels count
//! from the resource's mip 0 (the view's base level is an index into them).

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
    /// Slices of an array resource (last slice + 1); 1 otherwise.
    pub slices: u32,
    pub base_array: u32,
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
        let array = matches!(ty, ty::D1_ARRAY | ty::D2_ARRAY);
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
            base_array: if wide { field(d, 144, 13) } else { 0 },
        };
        if !unbound && !matches!(ty, ty::D1 | ty::D2 | ty::D1_ARRAY | ty::D2_ARRAY) {
            return Err(ExecError::Other(format!(
                "image resource type {ty}: wavesim emulates 1D, 2D, 1D-array and 2D-array images \
                 (3D, cube, MSAA and buffer T#s are not emulated)"
            )));
        }
        // SW_MODE (120:116): 0 is linear; the swizzled modes need addrlib's address
        // equations, which the texel addressing here does not implement (RADV tiles every
        // optimal-tiling image).
        let sw_mode = field(d, 116, 5);
        if !unbound && sw_mode != 0 {
            return Err(ExecError::Other(format!(
                "image resource swizzle mode {sw_mode}: wavesim reads linear images only (SW_MODE 0)"
            )));
        }
        if !unbound && array && !wide {
            return Err(ExecError::Other(
                "an array image needs a 256-bit T# (r128 = 0)".into(),
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

    /// Byte address of texel (x, y) of `slice` at resource mip `level`, for `bpp`-byte texels.
    pub fn texel_addr(&self, level: u32, slice: u32, x: u32, y: u32, bpp: u64) -> u64 {
        let mut off = 0u64;
        for m in 0..level {
            let (w, h) = self.mip_dims(m);
            off += w as u64 * h as u64 * self.slices as u64 * bpp;
        }
        let (w, h) = self.mip_dims(level);
        self.base + off + ((slice as u64 * h as u64 + y as u64) * w as u64 + x as u64) * bpp
    }

    /// Mip levels in the view.
    pub fn view_levels(&self) -> u32 {
        self.last_level.saturating_sub(self.base_level) + 1
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
    (0..levels)
        .map(|m| (width >> m).max(1) as u64 * (height >> m).max(1) as u64 * texel_bytes)
        .sum()
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
    /// of tests/radv_shader_db.rs): SW_MODE 0, so it parses; the same words with SW_MODE 24
    /// (gfx11's 64 KiB R_X swizzle, which RADV picks for optimal tiling) are refused.
    #[test]
    fn swizzled_images_are_refused() {
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
        assert_eq!((r.width, r.height, r.ty), (64, 64, ty::D2));
        let mut tiled = linear;
        tiled[3] |= 24 << 20;
        let e = ImageResource::parse(&tiled).expect_err("a swizzled T#");
        assert!(e.to_string().contains("swizzle mode 24"), "{e}");
    }
}
