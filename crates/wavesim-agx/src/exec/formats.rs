//! Texel formats: what a TEXTURE or PBE descriptor's `Channels`, `Type` and `sRGB` fields name
//! (Mesa's `cmdbuf.xml`, the same values in 22.3 and 25.0), how a texel's bytes read as the four
//! values a sample returns, and how an image store writes values back.
//!
//! The formats are the uncompressed ones Mesa's asahi driver puts in descriptors: Mesa 25.0's
//! `ail_pixel_format` table (`src/asahi/layout/formats.c`) with the channel layouts and types it
//! pairs, which include Mesa 22.3's `agx_pixel_format` ones. Depth and stencil formats are among
//! them under their colour names (Z16 unorm is R16 unorm, Z32F is R32 float, S8 is R8 uint), and
//! so are Mesa's luminance/alpha/intensity formats (one or two channels, the view's swizzle
//! placing them). Compressed formats are blocks `compressed.rs` decodes (BC1-BC7, ETC2, EAC,
//! ASTC); the 4:2:2 ones and Mesa's software-only R32G32B32 value are typed
//! errors. The channels of a texel are little-endian bit fields from bit 0 in the
//! order the channel name gives (R5G6B5: R in bits 0-4, as Gallium's `PIPE_FORMAT_R5G6B5_UNORM`,
//! which Mesa maps to it unswizzled).
//!
//! Reads (GL 4.6 2.3.5 and 8.24, Vulkan 1.3 "Fixed-Point Data Conversions"; every result is
//! exact in f64 and rounded once when written to a register):
//! - UNORM: c / (2^b - 1); SNORM: max(c / (2^(b-1) - 1), -1) (c two's complement);
//! - UINT / SINT: the integer (zero- or sign-extended);
//! - FLOAT: f16 / f32 as they are; R11G11B10: two unsigned 11-bit floats and one 10-bit (GL 4.6
//!   2.3.4.3-4: 5-bit exponent, bias 15); R9G9B9E5: each 9-bit mantissa times 2^(E - 15 - 9)
//!   (GL 4.6 8.5.2);
//! - sRGB (8-bit UNORM only, as Mesa uses it): R, G and B through the M1's measured sRGB table
//!   (applegpu's, `srgb_table.rs`; the M1's values are not GL 8.24's formula rounded, and it is
//!   the only measured rule), alpha linear;
//! - a channel the format lacks reads as 0 (G, B) or 1 (A), GL 4.6 Table 15.1; for integer
//!   formats the 1 is the integer 1.
//!
//! Writes (image stores): UNORM `round(clamp(v, 0, 1) * (2^b - 1))`, SNORM
//! `round(clamp(v, -1, 1) * (2^(b-1) - 1))`, NaN as 0 (the tile buffer's u8norm rule, `tile.rs`).
//! Rounding to nearest is what GL 4.6 2.3.5.2 and Vulkan ask implementations for. Ties are rare:
//! v (2^b - 1) = k + 1/2 needs (2k + 1) / (2 (2^b - 1)) to be dyadic, so 2^b - 1 divides 2k + 1:
//! only v = 1/2 (and -1/2 for SNORM), where ties to even and ties away from zero agree (2^(b-1)
//! for UNORM, +-2^(b-2) for SNORM); the tile buffer's u8norm stores use the same rule. Float formats round to nearest even (Mesa's `agx_pack.c` leaves image_write's `rtz` bit
//! clear, the non-default being round toward zero); R11G11B10 clamps as GL 4.6 2.3.4.3-4 says
//! (negative values and -inf to 0, finite values above the largest finite one to it, +inf
//! stays); R9G9B9E5 is GL 4.6 8.5.2's shared-exponent algorithm (its own `floor(x + 1/2)`
//! rounding). An integer out of the format's range (GL 4.6 8.26: undefined), a NaN into a format
//! narrower than f32 (the NaN's encoding is not public) and sRGB stores (the linear-to-sRGB
//! rounding is not public) are typed errors.

use super::compressed::Codec;
use super::memory::small_float;
use super::Fault;
use crate::srgb_table::SRGB_TO_LINEAR;

fn unsupported(what: impl Into<String>) -> Fault {
    Fault::UnsupportedForm { what: what.into() }
}

/// cmdbuf.xml `Texture Type`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumKind {
    Unorm,
    Snorm,
    Uint,
    Sint,
    Float,
}

/// How the bit fields of a texel are numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Packing {
    /// Each field is one channel of the format's type.
    Plain,
    /// R11G11B10 float.
    SmallFloats,
    /// R9G9B9E5 float.
    SharedExponent,
    /// Blocks of a compressed format (`compressed.rs`; 4x4 texels, ASTC its footprint).
    Block(Codec),
}

/// A texel format a descriptor names.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Format {
    /// cmdbuf.xml `Channels` value.
    pub channels: u64,
    pub kind: NumKind,
    pub srgb: bool,
    widths: &'static [u32],
    packing: Packing,
}

/// Channel layouts: (cmdbuf.xml value, name, field widths from bit 0, the types Mesa pairs with it
/// in `ail_pixel_format`).
const LAYOUTS: &[(u64, &str, &[u32], &[NumKind])] = {
    use NumKind::*;
    &[
        (0x00, "R8", &[8], &[Unorm, Snorm, Uint, Sint]),
        (0x09, "R16", &[16], &[Unorm, Snorm, Uint, Sint, Float]),
        (0x0A, "R8G8", &[8, 8], &[Unorm, Snorm, Uint, Sint]),
        (0x0B, "R5G6B5", &[5, 6, 5], &[Unorm]),
        (0x0C, "R4G4B4A4", &[4, 4, 4, 4], &[Unorm]),
        (0x0E, "R5G5B5A1", &[5, 5, 5, 1], &[Unorm]),
        (0x21, "R32", &[32], &[Uint, Sint, Float]),
        (
            0x23,
            "R16G16",
            &[16, 16],
            &[Unorm, Snorm, Uint, Sint, Float],
        ),
        (0x25, "R11G11B10", &[11, 11, 10], &[Float]),
        (0x26, "R10G10B10A2", &[10, 10, 10, 2], &[Unorm, Uint, Sint]),
        (0x27, "R9G9B9E5", &[9, 9, 9, 5], &[Float]),
        (0x28, "R8G8B8A8", &[8, 8, 8, 8], &[Unorm, Snorm, Uint, Sint]),
        (0x31, "R32G32", &[32, 32], &[Uint, Sint, Float]),
        (
            0x32,
            "R16G16B16A16",
            &[16, 16, 16, 16],
            &[Unorm, Snorm, Uint, Sint, Float],
        ),
        (
            0x38,
            "R32G32B32A32",
            &[32, 32, 32, 32],
            &[Uint, Sint, Float],
        ),
    ]
};

/// sRGB layouts (Mesa: R8, R8G8 and R8G8B8A8 UNORM).
const SRGB_LAYOUTS: [u64; 3] = [0x00, 0x0A, 0x28];

impl Format {
    /// The format of a descriptor's `Channels`, `Type` and `sRGB` fields; one Mesa never builds
    /// is a typed error naming the fields.
    pub fn new(channels: u64, ty: u64, srgb: bool) -> Result<Format, Fault> {
        let kind = match ty {
            0 => NumKind::Unorm,
            1 => NumKind::Snorm,
            2 => NumKind::Uint,
            3 => NumKind::Sint,
            4 => NumKind::Float,
            t => {
                return Err(unsupported(format!(
                    "texture type {t} (unorm, snorm, uint, sint and float are modelled)"
                )))
            }
        };
        if let Some(codec) = Codec::of(channels, ty) {
            let codec = codec?;
            if srgb && !codec.has_srgb() {
                return Err(unsupported(format!(
                    "sRGB {codec:?} (not a format Mesa's ail_pixel_format has)"
                )));
            }
            return Ok(Format {
                channels,
                kind,
                srgb,
                widths: &[],
                packing: Packing::Block(codec),
            });
        }
        let Some(&(_, name, widths, kinds)) = LAYOUTS.iter().find(|l| l.0 == channels) else {
            return Err(unsupported(format!(
                "texel channels {channels:#x} (compressed, 4:2:2 and Mesa's software R32G32B32 \
                 formats are not modelled)"
            )));
        };
        if !kinds.contains(&kind) {
            return Err(unsupported(format!(
                "texel format {name} of type {kind:?} (not a pairing Mesa's ail_pixel_format has)"
            )));
        }
        if srgb && !(kind == NumKind::Unorm && SRGB_LAYOUTS.contains(&channels)) {
            return Err(unsupported(format!(
                "sRGB {name} {kind:?} (Mesa's sRGB formats are 8-bit unorm)"
            )));
        }
        let packing = match channels {
            0x25 => Packing::SmallFloats,
            0x27 => Packing::SharedExponent,
            _ => Packing::Plain,
        };
        Ok(Format {
            channels,
            kind,
            srgb,
            widths,
            packing,
        })
    }

    /// Bytes a texel (a block, for compressed formats).
    pub fn bytes(&self) -> u64 {
        match self.packing {
            Packing::Block(codec) => codec.bytes(),
            _ => u64::from(self.widths.iter().sum::<u32>() / 8),
        }
    }

    /// The compressed format's block codec (`Codec::block` texels a block), `None` otherwise.
    pub fn codec(&self) -> Option<Codec> {
        match self.packing {
            Packing::Block(codec) => Some(codec),
            _ => None,
        }
    }

    /// Channels the format stores (R9G9B9E5's exponent is not one).
    pub fn components(&self) -> usize {
        match self.packing {
            Packing::SharedExponent => 3,
            Packing::Block(Codec::Bc4 | Codec::EacR11) => 1,
            Packing::Block(Codec::Bc5 | Codec::EacRg11) => 2,
            Packing::Block(Codec::Bc6h { .. }) => 3,
            Packing::Block(_) => 4,
            _ => self.widths.len(),
        }
    }

    /// The field widths of a format whose fields are its channels (not R11G11B10 or R9G9B9E5).
    pub fn plain_widths(&self) -> Option<&'static [u32]> {
        (self.packing == Packing::Plain).then_some(self.widths)
    }

    /// Integer formats return integers (GL's integer samplers).
    pub fn is_integer(&self) -> bool {
        matches!(self.kind, NumKind::Uint | NumKind::Sint)
    }

    /// The texel's bit fields, from bit 0 up.
    fn fields(&self, bytes: &[u8]) -> Vec<u64> {
        let mut word = 0u128;
        for (i, b) in bytes.iter().enumerate().take(16) {
            word |= u128::from(*b) << (8 * i);
        }
        let mut at = 0;
        self.widths
            .iter()
            .map(|&b| {
                let v = (word >> at) as u64 & (u64::MAX >> (64 - b));
                at += b;
                v
            })
            .collect()
    }

    /// The texel's (R, G, B, A) read from its `bytes()` bytes: exact in f64 (integers too, being
    /// 32 bits at most). A NaN texel is a typed error (how the texture unit passes NaNs on is
    /// not public).
    pub fn decode(&self, bytes: &[u8]) -> Result<[f64; 4], Fault> {
        let f = self.fields(bytes);
        let mut out = [0.0, 0.0, 0.0, 1.0];
        match self.packing {
            Packing::Block(codec) => {
                return Err(unsupported(format!("{codec:?} block read as one texel")))
            }
            Packing::SmallFloats => {
                out[0] = small_float(f[0], 6);
                out[1] = small_float(f[1], 6);
                out[2] = small_float(f[2], 5);
            }
            Packing::SharedExponent => {
                let scale = 2f64.powi(f[3] as i32 - 15 - 9);
                for c in 0..3 {
                    out[c] = f[c] as f64 * scale;
                }
            }
            Packing::Plain => {
                for (c, (&v, &b)) in f.iter().zip(self.widths).enumerate() {
                    out[c] = match self.kind {
                        NumKind::Unorm if self.srgb && c < 3 => {
                            f64::from_bits(SRGB_TO_LINEAR[v as usize & 255])
                        }
                        NumKind::Unorm => v as f64 / ((1u64 << b) - 1) as f64,
                        NumKind::Snorm => {
                            (sign_extend(v, b) as f64 / ((1u64 << (b - 1)) - 1) as f64).max(-1.0)
                        }
                        NumKind::Uint => v as f64,
                        NumKind::Sint => sign_extend(v, b) as f64,
                        NumKind::Float if b == 16 => half::f16::from_bits(v as u16).to_f64(),
                        NumKind::Float => f64::from(f32::from_bits(v as u32)),
                    };
                }
            }
        }
        if out.iter().any(|v| v.is_nan()) {
            return Err(unsupported(
                "NaN texel (how the texture unit passes NaNs on is not public)",
            ));
        }
        Ok(out)
    }

    /// The `bytes()` bytes an image store writes for the register values `v` (R, G, B, A in the
    /// format's channel order; `Value::Float` for float and normalized formats, `Value::Int` for
    /// integer ones).
    pub fn encode(&self, v: [Value; 4]) -> Result<Vec<u8>, Fault> {
        if self.srgb {
            return Err(unsupported(
                "sRGB image store (the hardware's linear-to-sRGB rounding is not public)",
            ));
        }
        let fields: Vec<u64> = match self.packing {
            Packing::Block(codec) => {
                return Err(unsupported(format!(
                    "image store to a {codec:?} compressed image (Mesa's writeable images are \
                     never compressed)"
                )))
            }
            Packing::SmallFloats => vec![
                to_small_float(v[0].float()?, 6)?,
                to_small_float(v[1].float()?, 6)?,
                to_small_float(v[2].float()?, 5)?,
            ],
            Packing::SharedExponent => {
                to_rgb9e5([v[0].float()?, v[1].float()?, v[2].float()?])?.to_vec()
            }
            Packing::Plain => {
                let mut out = Vec::new();
                for (&b, &x) in self.widths.iter().zip(&v) {
                    out.push(match self.kind {
                        NumKind::Unorm => {
                            let f = x.float()?;
                            let max = ((1u64 << b) - 1) as f64;
                            if f.is_nan() {
                                0
                            } else {
                                (f64::from(f.clamp(0.0, 1.0)) * max).round_ties_even() as u64
                            }
                        }
                        NumKind::Snorm => {
                            let f = x.float()?;
                            let max = ((1u64 << (b - 1)) - 1) as f64;
                            let i = if f.is_nan() {
                                0
                            } else {
                                (f64::from(f.clamp(-1.0, 1.0)) * max).round_ties_even() as i64
                            };
                            i as u64 & (u64::MAX >> (64 - b))
                        }
                        NumKind::Uint => {
                            let i = x.int()?;
                            if !(0..1i64 << b).contains(&i) {
                                return Err(out_of_range(i, b, "uint"));
                            }
                            i as u64
                        }
                        NumKind::Sint => {
                            let i = x.int()?;
                            let half = 1i64 << (b - 1);
                            if !(-half..half).contains(&i) {
                                return Err(out_of_range(i, b, "sint"));
                            }
                            i as u64 & (u64::MAX >> (64 - b))
                        }
                        NumKind::Float if b == 16 => {
                            let f = x.float()?;
                            if f.is_nan() {
                                return Err(nan_store());
                            }
                            u64::from(half::f16::from_f32(f).to_bits())
                        }
                        NumKind::Float => u64::from(x.float()?.to_bits()),
                    });
                }
                out
            }
        };
        let mut word = 0u128;
        let mut at = 0;
        for (&f, &b) in fields.iter().zip(self.widths) {
            word |= u128::from(f) << at;
            at += b;
        }
        Ok(word.to_le_bytes()[..self.bytes() as usize].to_vec())
    }
}

/// A register value an image store converts: a float (from a 32- or 16-bit register, exactly)
/// for float and normalized formats, an integer for integer ones.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Value {
    Float(f32),
    Int(i64),
}

impl Value {
    fn float(self) -> Result<f32, Fault> {
        match self {
            Value::Float(f) => Ok(f),
            Value::Int(_) => Err(unsupported("integer value for a float image format")),
        }
    }

    fn int(self) -> Result<i64, Fault> {
        match self {
            Value::Int(i) => Ok(i),
            Value::Float(_) => Err(unsupported("float value for an integer image format")),
        }
    }
}

fn out_of_range(i: i64, b: u32, kind: &str) -> Fault {
    unsupported(format!(
        "image store of {i} into a {b}-bit {kind} channel (GL 4.6 8.26: undefined)"
    ))
}

fn nan_store() -> Fault {
    unsupported("image store of a NaN into a format narrower than f32 (its encoding is not public)")
}

/// floor(log2(f)) of a positive normal f64, from its exponent bits (exact, unlike `log2`).
fn floor_log2(f: f64) -> i32 {
    ((f.to_bits() >> 52) & 0x7FF) as i32 - 1023
}

fn sign_extend(v: u64, bits: u32) -> i64 {
    ((v << (64 - bits)) as i64) >> (64 - bits)
}

/// An unsigned float with a 5-bit exponent (bias 15) and `mant` mantissa bits, rounded to nearest
/// even, clamped as GL 4.6 2.3.4.3-4 says.
fn to_small_float(f: f32, mant: u32) -> Result<u64, Fault> {
    if f.is_nan() {
        return Err(nan_store());
    }
    if f == f32::INFINITY {
        return Ok(0x1F << mant);
    }
    if f <= 0.0 {
        return Ok(0);
    }
    let largest = (30u64 << mant) | ((1 << mant) - 1);
    let f = f64::from(f);
    // the quantum of f's binade (or of the denormals, 2^(-14 - mant))
    let e = floor_log2(f).max(-14);
    let quantum = 2f64.powi(e - mant as i32);
    let n = (f / quantum).round_ties_even() as u64;
    let (e, n) = if n >= 2 << mant {
        (e + 1, n / 2)
    } else {
        (e, n)
    };
    let bits = if n < 1 << mant {
        n // denormal (e = -14)
    } else {
        ((e + 15) as u64) << mant | (n - (1 << mant))
    };
    Ok(bits.min(largest))
}

/// GL 4.6 8.5.2, RGB9_E5: N = 9 mantissa bits, B = 15, Emax = 31.
fn to_rgb9e5(c: [f32; 3]) -> Result<[u64; 4], Fault> {
    const N: i32 = 9;
    const B: i32 = 15;
    if c.iter().any(|v| v.is_nan()) {
        return Err(nan_store());
    }
    let sharedexp_max = f64::from((1 << N) - 1) / f64::from(1 << N) * 2f64.powi(31 - B);
    let rc = c.map(|v| f64::from(v).clamp(0.0, sharedexp_max));
    let maxc = rc[0].max(rc[1]).max(rc[2]);
    let log = if maxc > 0.0 { floor_log2(maxc) } else { -B - 1 };
    let mut exp_shared = (-B - 1).max(log) + 1 + B;
    let maxs = (maxc / 2f64.powi(exp_shared - B - N) + 0.5).floor();
    if maxs == f64::from(1 << N) {
        exp_shared += 1;
    }
    let scale = 2f64.powi(exp_shared - B - N);
    let m = rc.map(|v| (v / scale + 0.5).floor() as u64);
    Ok([m[0], m[1], m[2], exp_shared as u64])
}
