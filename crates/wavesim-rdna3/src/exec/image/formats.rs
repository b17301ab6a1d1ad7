//! Image data formats (RDNA3 ISA 10.7, Table 52) and their conversion to and from the VGPR data
//! format (10.4.1: 32-bit float for UNORM/SNORM/SCALED/SRGB/FLOAT formats, 32-bit integers for
//! UINT/SINT).
//!
//! gfx11 names image and buffer formats with one shared code (Mesa's gfx11-rsrc.json,
//! GFX11_FORMAT: 1 8_UNORM ... 63 32_32_32_32_FLOAT, 64-66 the SRGB forms), so codes 1..=63
//! take their component layout and conversions from the buffer unit's table
//! (exec::buffer::formats: UNORM `u / (2^n - 1)`, SNORM, SCALED, UINT/SINT zero-/sign-extended,
//! f16/f11/f10 widened; stores clamp integers to the component's range and round floats to
//! nearest even). The three-component 32_32_32 formats (58-60) are buffer-only: Vulkan has no
//! R32G32B32 image on AMD (RADV reports no image support for them), so an image T# naming them
//! is refused. SRGB (66, 8_8_8_8_SRGB) reads RGB through the sRGB curve (x <= 0.04045 ? x / 12.92
//! : ((x + 0.055) / 1.055)^2.4, computed in f64 and rounded to f32; hardware uses a table whose
//! values the guide does not give) and writes through its inverse; alpha is UNORM8. Missing
//! components read as G = B = 0, A = 1 (the texture unit's canonical RGBA).

use crate::exec::buffer::formats::{buf_fmt, pack, unpack32, BufFmt, Num, StoreVal};
use crate::exec::ExecError;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Float,
    Uint,
    Sint,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Format {
    pub id: u32,
    pub bytes: u64,
    pub comps: usize,
    pub kind: Kind,
    /// The components' layout and numeric format (for SRGB: the UNORM8 layout).
    layout: BufFmt,
}

pub const R8_UNORM: u32 = 1;
pub const RG8_UNORM: u32 = 14;
pub const R32_UINT: u32 = 20;
pub const R32_SINT: u32 = 21;
pub const R32_FLOAT: u32 = 22;
pub const RGBA8_UNORM: u32 = 42;
pub const RGBA8_UINT: u32 = 46;
pub const RG32_UINT: u32 = 48;
pub const RGBA16_UINT: u32 = 55;
pub const RGBA16_SINT: u32 = 56;
pub const RGBA16_FLOAT: u32 = 57;
pub const RGBA32_UINT: u32 = 61;
pub const RGBA32_FLOAT: u32 = 63;
pub const RGBA8_SRGB: u32 = 66;

impl Format {
    pub fn of(id: u32) -> Result<Format, ExecError> {
        let layout = match id {
            RGBA8_SRGB => buf_fmt(RGBA8_UNORM),
            58..=60 => None,
            _ => buf_fmt(id),
        };
        let Some(layout) = layout else {
            return Err(ExecError::Other(format!(
                "image data format {id} is not emulated (GFX11_FORMAT 1-57, 61-63 and \
                 8_8_8_8_SRGB are)"
            )));
        };
        Ok(Format {
            id,
            bytes: layout.bytes as u64,
            comps: layout.comps as usize,
            kind: match layout.num {
                Num::Uint => Kind::Uint,
                Num::Sint => Kind::Sint,
                _ => Kind::Float,
            },
            layout,
        })
    }

    /// Whether the format's components are UNORM (fixed point in [0, 1]).
    pub fn is_unorm(&self) -> bool {
        self.layout.num == Num::Unorm && self.id != RGBA8_SRGB
    }

    /// The texel's RGBA as VGPR bits (float or integer per the format).
    pub fn decode(&self, b: &[u8]) -> [u32; 4] {
        let mut words = [0u32; 4];
        for (k, chunk) in b.chunks(4).take(4).enumerate() {
            let mut w = [0u8; 4];
            w[..chunk.len()].copy_from_slice(chunk);
            words[k] = u32::from_le_bytes(w);
        }
        let l = &self.layout;
        let one = match self.kind {
            Kind::Float => 1f32.to_bits(),
            _ => 1,
        };
        let mut c = [0, 0, 0, one];
        for (k, x) in c.iter_mut().enumerate().take(self.comps) {
            let raw = l.get(&words, k);
            *x = if self.id == RGBA8_SRGB && k < 3 {
                (srgb_to_linear(raw as f64 / 255.0) as f32).to_bits()
            } else {
                unpack32(l.num, l.bits[k] as u32, raw)
            };
        }
        c
    }

    /// Bytes of a texel from RGBA VGPR bits.
    pub fn encode(&self, c: [u32; 4]) -> Vec<u8> {
        let l = &self.layout;
        let mut words = [0u32; 4];
        for (k, &x) in c.iter().enumerate().take(self.comps) {
            let v = if self.kind == Kind::Float {
                StoreVal::F32(x)
            } else {
                StoreVal::Int(x)
            };
            let raw = if self.id == RGBA8_SRGB && k < 3 {
                let x = f32::from_bits(x);
                if x.is_nan() {
                    0
                } else {
                    unorm8(linear_to_srgb(x.clamp(0.0, 1.0) as f64) as f32) as u32
                }
            } else {
                pack(l.num, l.bits[k] as u32, v)
            };
            l.set(&mut words, k, raw);
        }
        words
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .take(self.bytes as usize)
            .collect()
    }
}

pub fn unorm8(x: f32) -> u8 {
    if x.is_nan() {
        0
    } else {
        (x.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8
    }
}

pub fn srgb_to_linear(x: f64) -> f64 {
    if x <= 0.04045 {
        x / 12.92
    } else {
        ((x + 0.055) / 1.055).powf(2.4)
    }
}

pub fn linear_to_srgb(x: f64) -> f64 {
    if x <= 0.0031308 {
        x * 12.92
    } else {
        1.055 * x.powf(1.0 / 2.4) - 0.055
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 16_16_16_16_UINT (RADV's view for copying 64-bit texels): four little-endian u16, X
    /// first, zero-extended; stores saturate at 0xffff.
    #[test]
    fn rgba16_uint_round_trip() {
        let f = Format::of(RGBA16_UINT).unwrap();
        assert_eq!((f.bytes, f.comps, f.kind), (8, 4, Kind::Uint));
        let b = [0x01, 0x00, 0xff, 0xff, 0x34, 0x12, 0x00, 0x80];
        assert_eq!(f.decode(&b), [1, 0xffff, 0x1234, 0x8000]);
        assert_eq!(f.encode([1, 0xffff, 0x1234, 0x8000]), b);
        assert_eq!(f.encode([0x1_0000, 0, 0, 0])[..2], [0xff, 0xff]);
    }

    /// 16_16_16_16_SINT: sign-extended; stores clamp to [-32768, 32767].
    #[test]
    fn rgba16_sint_round_trip() {
        let f = Format::of(RGBA16_SINT).unwrap();
        let b = [0xff, 0xff, 0x00, 0x80, 0xff, 0x7f, 0x02, 0x00];
        assert_eq!(f.decode(&b), [-1i32 as u32, -32768i32 as u32, 32767, 2]);
        assert_eq!(f.encode(f.decode(&b)), b);
        let clamped = f.encode([-40000i32 as u32, 40000, 0, 0]);
        assert_eq!(clamped[..4], [0x00, 0x80, 0xff, 0x7f]);
    }

    /// 32_32_UINT: two dwords; B = 0, A = 1 (integer one) on reads.
    #[test]
    fn rg32_uint_reads_missing_components_as_0_0_1() {
        let f = Format::of(RG32_UINT).unwrap();
        let b = [1, 2, 3, 4, 5, 6, 7, 8];
        assert_eq!(f.decode(&b), [0x0403_0201, 0x0807_0605, 0, 1]);
    }

    /// The bits of an RGBA16F texel survive a copy through the 16_16_16_16_UINT view.
    #[test]
    fn rgba16f_bits_copy_through_the_uint_view() {
        let (u, h) = (
            Format::of(RGBA16_UINT).unwrap(),
            Format::of(RGBA16_FLOAT).unwrap(),
        );
        let texel = [0x00, 0x3c, 0x00, 0xbc, 0x01, 0x00, 0xff, 0x7b]; // 1, -1, 2^-24, 65504
        assert_eq!(u.encode(u.decode(&texel)), texel);
        assert_eq!(
            h.decode(&texel).map(f32::from_bits),
            [1.0, -1.0, 2f32.powi(-24), 65504.0]
        );
    }

    #[test]
    fn buffer_only_and_unknown_codes_are_refused() {
        assert!(Format::of(59).is_err());
        assert!(Format::of(67).is_err());
        assert!(Format::of(0).is_err());
    }
}
