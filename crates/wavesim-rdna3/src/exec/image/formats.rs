//! Image data formats (RDNA3 ISA 10.7, Table 52) and their conversion to and from the VGPR data
//! format (10.4.1: 32-bit float for UNORM/SRGB/FLOAT formats, 32-bit integers for UINT/SINT).
//!
//! Conversions: UNORM8 reads as `b / 255` (f32 division, exact for every byte), writes as
//! round-to-nearest-even(clamp(x, 0, 1) * 255) with NaN -> 0 (D3D's float-to-UNORM rule); SRGB
//! reads through the sRGB curve (x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055)^2.4, computed
//! in f64 and rounded to f32; hardware uses a table whose values the guide does not give) and
//! writes through its inverse; FLOAT16 through IEEE binary16 (round to nearest even); FLOAT32 as
//! bits. Missing components read as G = B = 0, A = 1 (the texture unit's canonical RGBA).

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
}

pub const R8_UNORM: u32 = 1;
pub const RG8_UNORM: u32 = 14;
pub const R32_UINT: u32 = 20;
pub const R32_SINT: u32 = 21;
pub const R32_FLOAT: u32 = 22;
pub const RGBA8_UNORM: u32 = 42;
pub const RGBA8_UINT: u32 = 46;
pub const RGBA16_FLOAT: u32 = 57;
pub const RGBA32_UINT: u32 = 61;
pub const RGBA32_FLOAT: u32 = 63;
pub const RGBA8_SRGB: u32 = 66;

impl Format {
    pub fn of(id: u32) -> Result<Format, ExecError> {
        let f = |bytes, comps, kind| Format {
            id,
            bytes,
            comps,
            kind,
        };
        Ok(match id {
            R8_UNORM => f(1, 1, Kind::Float),
            RG8_UNORM => f(2, 2, Kind::Float),
            R32_UINT => f(4, 1, Kind::Uint),
            R32_SINT => f(4, 1, Kind::Sint),
            R32_FLOAT => f(4, 1, Kind::Float),
            RGBA8_UNORM | RGBA8_SRGB => f(4, 4, Kind::Float),
            RGBA8_UINT => f(4, 4, Kind::Uint),
            RGBA16_FLOAT => f(8, 4, Kind::Float),
            RGBA32_UINT => f(16, 4, Kind::Uint),
            RGBA32_FLOAT => f(16, 4, Kind::Float),
            _ => {
                return Err(ExecError::Other(format!(
                    "image data format {id} is not emulated (R8/RG8/RGBA8 UNORM, RGBA8 SRGB, \
                     R32/RGBA32 FLOAT/UINT, R32_SINT, RGBA8_UINT, RGBA16_FLOAT are)"
                )))
            }
        })
    }

    /// Whether the format's components are UNORM (fixed point in [0, 1]).
    pub fn is_unorm(&self) -> bool {
        matches!(self.id, R8_UNORM | RG8_UNORM | RGBA8_UNORM)
    }

    /// The texel's RGBA as VGPR bits (float or integer per the format).
    pub fn decode(&self, b: &[u8]) -> [u32; 4] {
        let one = match self.kind {
            Kind::Float => 1f32.to_bits(),
            _ => 1,
        };
        let mut c = [0, 0, 0, one];
        let unorm = |x: u8| (x as f32 / 255.0).to_bits();
        match self.id {
            R8_UNORM | RG8_UNORM | RGBA8_UNORM => {
                for k in 0..self.comps {
                    c[k] = unorm(b[k]);
                }
            }
            RGBA8_SRGB => {
                for k in 0..3 {
                    c[k] = (srgb_to_linear(b[k] as f64 / 255.0) as f32).to_bits();
                }
                c[3] = unorm(b[3]);
            }
            RGBA8_UINT => {
                for k in 0..4 {
                    c[k] = b[k] as u32;
                }
            }
            RGBA16_FLOAT => {
                for k in 0..4 {
                    let h = u16::from_le_bytes([b[2 * k], b[2 * k + 1]]);
                    c[k] = half::f16::from_bits(h).to_f32().to_bits();
                }
            }
            _ => {
                for k in 0..self.comps {
                    c[k] = u32::from_le_bytes([b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]]);
                }
            }
        }
        c
    }

    /// Bytes of a texel from RGBA VGPR bits.
    pub fn encode(&self, c: [u32; 4]) -> Vec<u8> {
        let f = |k: usize| f32::from_bits(c[k]);
        match self.id {
            R8_UNORM | RG8_UNORM | RGBA8_UNORM => (0..self.comps).map(|k| unorm8(f(k))).collect(),
            RGBA8_SRGB => {
                let mut v: Vec<u8> = (0..3)
                    .map(|k| {
                        let x = f(k);
                        if x.is_nan() {
                            0
                        } else {
                            unorm8(linear_to_srgb(x.clamp(0.0, 1.0) as f64) as f32)
                        }
                    })
                    .collect();
                v.push(unorm8(f(3)));
                v
            }
            RGBA8_UINT => (0..4).map(|k| c[k].min(255) as u8).collect(),
            RGBA16_FLOAT => (0..4)
                .flat_map(|k| half::f16::from_f32(f(k)).to_bits().to_le_bytes())
                .collect(),
            _ => (0..self.comps).flat_map(|k| c[k].to_le_bytes()).collect(),
        }
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
