//! Compressed texel formats Mesa's `ail_pixel_format` (`src/asahi/layout/formats.c`, Mesa 25.0)
//! puts in descriptors, by cmdbuf.xml `Channels` value, decoded one texel at a time from its
//! block with well-kept decoders: `bcdec_rs` (a port of bcdec, BC1-BC7) and `texture2ddecoder`
//! (ETC2), and EAC R11/RG11 by hand ([`eac11`]). Where each result is exact:
//! - BC7 (D3D11 functional spec, "BC7 format": integer endpoints and 6-bit weights
//!   `(64 - w) e0 + w e1 + 32 >> 6`, 8-bit results) and BC6H (the same spec's unquantize and
//!   integer interpolation to f16 bits): exact, 8-bit values / 255 and f16s.
//! - ETC2 RGB8, RGBA8 (with its 8-bit EAC alpha) and RGB8A1 (Khronos Data Format Specification
//!   1.3, "ETC2 Compressed Texture Image Formats": every mode ends in 8-bit integers): exact.
//! - BC2's explicit 4-bit alpha (a / 15) and, in BC3/BC4/BC5, the values a texel's index takes
//!   straight from an endpoint (a / 255; SNORM max(a / 127, -1)) or the 6-value mode's constants
//!   0 and 1 (-1 and 1 for SNORM) (D3D10 "Block Compression"): exact.
//! - The rest depends on interpolation precision no public source gives for Apple's hardware:
//!   BC1-BC3 colours (the 5:6:5 endpoints' expansion and the 1/3, 2/3 and 1/2 palette entries;
//!   vendors round differently, and D3D10 itself allows a tolerance) and BC3-BC5's interpolated
//!   alpha/red/green entries. They run only under the approximation opt-in, counted as
//!   [`BLOCK_INTERPOLATION`]: bcdec's decode is the documented intent (its 8-bit BC1-3 palette
//!   rounds the ideal D3D10 weights from the 5/6-bit endpoints to nearest; its BC4/BC5 entries
//!   are D3D10's `(k a0 + (7 - k) a1) / 7` in f32).
//! - EAC R11/RG11, unsigned and signed (Khronos Data Format Specification 1.3, "Format Unsigned
//!   R11 EAC" and "Format Signed R11 EAC"): exact, 11-bit integers / 2047 (signed / 1023). No
//!   crate decodes them exactly (`texture2ddecoder`'s EAC R11/RG11 round to 8 bits), so the
//!   decoder is written here; it is a table and three lines of arithmetic.
//! - ASTC, the 14 2D footprints 4x4-12x12 (cmdbuf.xml 0x60-0x6D, UNORM, optionally sRGB):
//!   exact, by the decoder written from the Khronos Data Format Specification in [`super::astc`]
//!   (no crate keeps the UNORM16/FP16 results: `astc-decode` rounds to 8 bits). Mesa's UNORM
//!   descriptor asks for linear LDR operation mode with `decode_float16` (GL and Vulkan's
//!   default; Mesa sets no decode-mode state): a texel is its UNORM16 result converted to FP16,
//!   and an sRGB one the top 8 bits through the sRGB table. Where the spec leaves the result to
//!   the implementation, the read is a typed error: in linear mode the error colour ("magenta or
//!   NaNs") and HDR endpoint modes (an implementation "may substitute HDR operation mode" and
//!   decode them; which Apple's does is not public; both give the error colour in our decode).
//!   In sRGB mode the error colour is magenta, as the spec fixes it.
//!
//! sRGB blocks (BC1-3, BC7, ETC2) decode R, G and B through the M1's measured table as 8-bit
//! sRGB texels do (`formats.rs`).

use super::astc::{self, Texel};
use super::Fault;
use crate::srgb_table::SRGB_TO_LINEAR;

fn unsupported(what: impl Into<String>) -> Fault {
    Fault::UnsupportedForm { what: what.into() }
}

/// The name BC1-3 colours and BC3-5 interpolated entries are counted and refused under.
pub const BLOCK_INTERPOLATION: &str = "compressed texel interpolation";

/// A block codec.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    Bc1,
    Bc2,
    Bc3,
    Bc4,
    Bc5,
    Bc6h {
        signed: bool,
    },
    Bc7,
    Etc2Rgb8,
    Etc2Rgba8,
    Etc2Rgb8a1,
    /// EAC R11 (cmdbuf.xml `EAC R11`, 0x5B), unsigned or signed by the descriptor's type.
    EacR11,
    /// EAC RG11 (0x5C): two R11 halves, red then green.
    EacRg11,
    /// ASTC of a 2D footprint (cmdbuf.xml 0x60-0x6D in `astc::FOOTPRINTS` order).
    Astc {
        width: u32,
        height: u32,
    },
}

impl Codec {
    /// The codec of a cmdbuf.xml `Channels` value and the `Type` (0 unorm, 1 snorm, 4 float)
    /// Mesa pairs with it, `None` when the value names no compressed format; PVRTC (which ail
    /// never uses) is a typed error.
    pub fn of(channels: u64, ty: u64) -> Option<Result<Codec, Fault>> {
        const UNORM: u64 = 0;
        const SNORM: u64 = 1;
        const FLOAT: u64 = 4;
        let codec = match (channels, ty) {
            (0x58, UNORM) => Codec::Etc2Rgb8,
            (0x59, UNORM) => Codec::Etc2Rgba8,
            (0x5A, UNORM) => Codec::Etc2Rgb8a1,
            (0x5B, UNORM | SNORM) => Codec::EacR11,
            (0x5C, UNORM | SNORM) => Codec::EacRg11,
            (0x74, UNORM) => Codec::Bc1,
            (0x75, UNORM) => Codec::Bc2,
            (0x76, UNORM) => Codec::Bc3,
            (0x77, UNORM | SNORM) => Codec::Bc4,
            (0x78, UNORM | SNORM) => Codec::Bc5,
            (0x79, FLOAT) => Codec::Bc6h { signed: true },
            (0x7A, FLOAT) => Codec::Bc6h { signed: false },
            (0x7B, UNORM) => Codec::Bc7,
            (0x60..=0x6D, UNORM) => {
                let (width, height) = astc::FOOTPRINTS[(channels - 0x60) as usize];
                Codec::Astc { width, height }
            }
            (0x50 | 0x51 | 0x58..=0x7B, _) => {
                return Some(Err(unsupported(format!(
                    "compressed channels {channels:#x} of type {ty} (not a pairing Mesa's \
                     ail_pixel_format has)"
                ))))
            }
            _ => return None,
        };
        Some(Ok(codec))
    }

    /// Texels a block covers, (width, height).
    pub fn block(self) -> (u32, u32) {
        match self {
            Codec::Astc { width, height } => (width, height),
            _ => (4, 4),
        }
    }

    /// Bytes a block.
    pub fn bytes(self) -> u64 {
        match self {
            Codec::Bc1 | Codec::Bc4 | Codec::Etc2Rgb8 | Codec::Etc2Rgb8a1 | Codec::EacR11 => 8,
            _ => 16,
        }
    }

    /// Whether Mesa pairs the codec with sRGB (`ail_pixel_format`'s sRGB entries).
    pub fn has_srgb(self) -> bool {
        matches!(
            self,
            Codec::Bc1
                | Codec::Bc2
                | Codec::Bc3
                | Codec::Bc7
                | Codec::Etc2Rgb8
                | Codec::Etc2Rgba8
                | Codec::Etc2Rgb8a1
                | Codec::Astc { .. }
        )
    }

    /// Texel (x, y) (within the block's footprint) of `block`: its (R, G, B, A) and whether the
    /// value is one of the interpolated ones only the opt-in computes (see the module's notes).
    pub fn texel(
        self,
        block: &[u8],
        (x, y): (u32, u32),
        snorm: bool,
        srgb: bool,
    ) -> Result<([f64; 4], bool), Fault> {
        let (bw, bh) = self.block();
        if block.len() as u64 != self.bytes() || x >= bw || y >= bh {
            return Err(unsupported(format!(
                "{self:?} texel ({x}, {y}) of a {}-byte block",
                block.len()
            )));
        }
        let i = (y * 4 + x) as usize;
        let rgba8 = |px: [u8; 4]| -> [f64; 4] {
            std::array::from_fn(|c| {
                if srgb && c < 3 {
                    f64::from_bits(SRGB_TO_LINEAR[px[c] as usize])
                } else {
                    f64::from(px[c]) / 255.0
                }
            })
        };
        let bcdec_rgba = |f: fn(&[u8], &mut [u8], usize)| {
            let mut out = [0u8; 64];
            f(block, &mut out, 16);
            [out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]]
        };
        let etc = |f: fn(&[u8], &mut [u32])| {
            let mut out = [0u32; 16];
            f(block, &mut out);
            // texture2ddecoder writes rows of BGRA words
            let [b, g, r, a] = out[i].to_le_bytes();
            [r, g, b, a]
        };
        Ok(match self {
            Codec::Bc1 => (rgba8(bcdec_rgba(bcdec_rs::bc1)), true),
            Codec::Bc2 => (rgba8(bcdec_rgba(bcdec_rs::bc2)), true),
            Codec::Bc3 => (rgba8(bcdec_rgba(bcdec_rs::bc3)), true),
            Codec::Bc7 => (rgba8(bcdec_rgba(bcdec_rs::bc7)), false),
            Codec::Etc2Rgb8 => (rgba8(etc(texture2ddecoder::decode_etc2_rgb_block)), false),
            Codec::Etc2Rgba8 => (rgba8(etc(texture2ddecoder::decode_etc2_rgba8_block)), false),
            Codec::Etc2Rgb8a1 => (rgba8(etc(texture2ddecoder::decode_etc2_rgba1_block)), false),
            Codec::Bc6h { signed } => {
                let mut out = [0u16; 48];
                bcdec_rs::bc6h_half(block, &mut out, 12, signed);
                let h = |c: usize| half::f16::from_bits(out[3 * i + c]).to_f64();
                let v = [h(0), h(1), h(2), 1.0];
                if v.iter().any(|c| c.is_nan()) {
                    return Err(unsupported(
                        "NaN BC6H texel (how the texture unit passes NaNs on is not public)",
                    ));
                }
                (v, false)
            }
            Codec::Bc4 => {
                let (r, approx) = bc4_value(&block[..8], i, snorm);
                ([r, 0.0, 0.0, 1.0], approx)
            }
            Codec::Bc5 => {
                let (r, ar) = bc4_value(&block[..8], i, snorm);
                let (g, ag) = bc4_value(&block[8..], i, snorm);
                ([r, g, 0.0, 1.0], ar || ag)
            }
            Codec::EacR11 => ([eac11(block, (x, y), snorm), 0.0, 0.0, 1.0], false),
            Codec::EacRg11 => {
                let r = eac11(&block[..8], (x, y), snorm);
                let g = eac11(&block[8..], (x, y), snorm);
                ([r, g, 0.0, 1.0], false)
            }
            Codec::Astc { width, height } => {
                (astc_texel(block, (width, height), (x, y), srgb)?, false)
            }
        })
    }
}

/// Texel (x, y) of an ASTC block as the texture unit returns it (see the module's notes): FP16
/// values in linear mode, the sRGB table on R, G, B's top 8 bits and A / 255 in sRGB mode.
fn astc_texel(
    block: &[u8],
    (width, height): (u32, u32),
    (x, y): (u32, u32),
    srgb: bool,
) -> Result<[f64; 4], Fault> {
    let mode = if srgb {
        astc::Mode::Srgb
    } else {
        astc::Mode::LinearLdr
    };
    let bytes: [u8; 16] = block
        .try_into()
        .map_err(|_| unsupported(format!("ASTC block of {} bytes", block.len())))?;
    let texels = astc::decode_block(&bytes, (width, height), mode)
        .ok_or_else(|| unsupported(format!("ASTC footprint {width}x{height}")))?;
    let texel = texels
        .get((y * width + x) as usize)
        .copied()
        .ok_or_else(|| unsupported(format!("ASTC texel ({x}, {y}) of {width}x{height}")))?;
    match texel {
        Texel::Fp16(v) => Ok(v.map(|h| half::f16::from_bits(h).to_f64())),
        Texel::Unorm8(v) => Ok(std::array::from_fn(|c| {
            if c < 3 {
                f64::from_bits(SRGB_TO_LINEAR[v[c] as usize])
            } else {
                f64::from(v[c]) / 255.0
            }
        })),
        // the sRGB operation mode's error colour is opaque magenta
        Texel::Error if srgb => Ok([1.0, 0.0, 1.0, 1.0]),
        Texel::Error | Texel::Undefined => Err(unsupported(format!(
            "ASTC {width}x{height} texel ({x}, {y}) of an illegal block or an HDR endpoint mode in \
             linear mode (the spec lets the implementation return magenta or NaNs, or decode HDR; \
             Apple's choice is not public)"
        ))),
    }
}

/// One BC4 channel's texel `i` (D3D10 "Block Compression", BC4): endpoints a0, a1 (bytes 0, 1;
/// signed for SNORM), 3-bit indices from bit 16. Index 0 / 1 is the endpoint; with a0 > a1 the
/// other six are interpolated, otherwise indices 2-5 are and 6, 7 are the constants 0 (SNORM -1)
/// and 1. Interpolated entries come from bcdec's f32 decode and are flagged.
fn bc4_value(block: &[u8], i: usize, snorm: bool) -> (f64, bool) {
    let bits = u64::from_le_bytes(std::array::from_fn(|k| block[k]));
    let index = (bits >> (16 + 3 * i)) & 7;
    let endpoint = |b: u8| {
        if snorm {
            (f64::from(b as i8) / 127.0).max(-1.0)
        } else {
            f64::from(b) / 255.0
        }
    };
    let eight_values = if snorm {
        (block[0] as i8) > (block[1] as i8)
    } else {
        block[0] > block[1]
    };
    match index {
        0 => (endpoint(block[0]), false),
        1 => (endpoint(block[1]), false),
        6 if !eight_values => (if snorm { -1.0 } else { 0.0 }, false),
        7 if !eight_values => (1.0, false),
        _ => {
            let mut out = [0f32; 16];
            bcdec_rs::bc4_float(block, &mut out, 4, snorm);
            (f64::from(out[i]), true)
        }
    }
}

/// The EAC modifier tables by table index (Khronos Data Format Specification 1.3, "Intensity
/// modifier sets for RGBA8 ETC2 alpha component", which R11 EAC shares).
const EAC_MODIFIERS: [[i32; 8]; 16] = [
    [-3, -6, -9, -15, 2, 5, 8, 14],
    [-3, -7, -10, -13, 2, 6, 9, 12],
    [-2, -5, -8, -13, 1, 4, 7, 12],
    [-2, -4, -6, -13, 1, 3, 5, 12],
    [-3, -6, -8, -12, 2, 5, 7, 11],
    [-3, -7, -9, -11, 2, 6, 8, 10],
    [-4, -7, -8, -11, 3, 6, 7, 10],
    [-3, -5, -8, -11, 2, 4, 7, 10],
    [-2, -6, -8, -10, 1, 5, 7, 9],
    [-2, -5, -8, -10, 1, 4, 7, 9],
    [-2, -4, -8, -10, 1, 3, 7, 9],
    [-2, -5, -7, -10, 1, 4, 6, 9],
    [-3, -4, -7, -10, 2, 3, 6, 9],
    [-1, -2, -3, -10, 0, 1, 2, 9],
    [-4, -6, -8, -9, 3, 5, 7, 8],
    [-3, -5, -7, -9, 2, 4, 6, 8],
];

/// Texel (x, y) of one 8-byte R11 EAC channel as the texture unit returns it (Khronos Data Format
/// Specification 1.3, "Format Unsigned R11 EAC" / "Format Signed R11 EAC"). The block is one
/// big-endian 64-bit word: base codeword (bits 63-56; signed two's complement for signed, -128
/// read as -127), multiplier (55-52), table index (51-48), then 3-bit indices, pixel k = 4x + y
/// at bits 47 - 3k down to 45 - 3k. The 11-bit value is
/// - unsigned: clamp(base * 8 + 4 + modifier * multiplier * 8, 0, 2047),
/// - signed: clamp(base * 8 + modifier * multiplier * 8, -1023, 1023),
///
/// where a multiplier of 0 stands for 1/8 (the term is just the modifier).
///
/// To float, two texts. (1) The same sections define the decoded value as clamp1((base + 0.5)
/// / 255.875 plus modifier * multiplier / 255.875) (signed: base / 127.875 ...), of which the
/// 11-bit integer is "the exact representation": value / 2047, signed value / 1023, which is
/// also GL's UNORM/SNORM rule for an 11-bit channel (GL 4.6 2.3.4, the rule `formats.rs` uses).
/// (2) They also let an implementation widen the value to 16 bits by bit replication first
/// ((x << 5) + (x >> 6); signed (x << 5) + (x >> 5) on the magnitude) "for filtering", and
/// normalised that differs in the last bits (668 -> 21386 / 65535 = 0.3263294... against
/// 668 / 2047 = 0.3263312...). Which of the two Apple's texture unit does is not public; (1)
/// decided, being the value the format is defined to represent, (2) only an allowance.
fn eac11(block: &[u8], (x, y): (u32, u32), signed: bool) -> f64 {
    let bits = u64::from_be_bytes(std::array::from_fn(|k| block.get(k).copied().unwrap_or(0)));
    let base = (bits >> 56) as u8;
    let multiplier = ((bits >> 52) & 0xF) as i32;
    let table = ((bits >> 48) & 0xF) as usize;
    let k = 4 * x + y;
    let index = ((bits >> (45 - 3 * k)) & 7) as usize;
    let modifier = EAC_MODIFIERS[table][index];
    let step = if multiplier == 0 {
        modifier
    } else {
        modifier * multiplier * 8
    };
    if signed {
        let base = i32::from((base as i8).max(-127));
        f64::from((base * 8 + step).clamp(-1023, 1023)) / 1023.0
    } else {
        f64::from((i32::from(base) * 8 + 4 + step).clamp(0, 2047)) / 2047.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Packs (value, bits) fields from bit 0 up into a little-endian block.
    fn pack(fields: &[(u64, u32)], bytes: usize) -> Vec<u8> {
        let (mut v, mut at) = (0u128, 0);
        for &(f, b) in fields {
            v |= u128::from(f) << at;
            at += b;
        }
        v.to_le_bytes()[..bytes].to_vec()
    }

    fn rgba8(v: [f64; 4]) -> [u32; 4] {
        v.map(|c| (c * 255.0).round() as u32)
    }

    /// BC7 mode 6 (D3D11 "BC7 format mode reference": mode bits 0000001, then R0 R1 G0 G1 B0 B1
    /// A0 A1 of 7 bits, P0, P1, then 4-bit indices, the first 3 bits). Endpoints are (c << 1) |
    /// p: e0 = (255, 1, 129, 255) (7-bit 127, 0, 64, 127 with P0 = 1), e1 = (0, 254, 128, 254)
    /// (0, 127, 64, 127 with P1 = 0). Weights (4-bit table) index 15 -> 64, 5 -> 21; a value is
    /// ((64 - w) e0 + w e1 + 32) >> 6. Texel 0 (index 0) = e0; texel 1 (index 15) = e1; texel 2
    /// (index 5): R (43 * 255 + 32) >> 6 = 171, G (43 + 21 * 254 + 32) >> 6 = 84, B (43 * 129 +
    /// 21 * 128 + 32) >> 6 = 129, A (43 * 255 + 21 * 254 + 32) >> 6 = 255. Exact: no opt-in.
    #[test]
    fn bc7_mode_6() {
        let b = pack(
            &[
                (0b100_0000, 7),
                (127, 7),
                (0, 7),
                (0, 7),
                (127, 7),
                (64, 7),
                (64, 7),
                (127, 7),
                (127, 7),
                (1, 1),
                (0, 1),
                (0, 3),
                (15, 4),
                (5, 4),
            ],
            16,
        );
        let t = |x| Codec::Bc7.texel(&b, (x, 0), false, false).unwrap();
        assert_eq!(t(0), ([255.0, 1.0, 129.0, 255.0].map(|c| c / 255.0), false));
        assert_eq!(rgba8(t(1).0), [0, 254, 128, 254]);
        assert_eq!(rgba8(t(2).0), [171, 84, 129, 255]);
    }

    /// BC6H mode 11 (D3D11 "BC6H format": mode bits 00011, then RW GW BW RX GX BX of 10 bits,
    /// 4-bit indices from bit 65, the first 3 bits), unsigned. Unquantize (10 bits): 0 -> 0,
    /// 1023 -> 0xFFFF, else ((c << 16) + 0x8000) >> 10; finish: (c * 31) >> 6 is the f16's bits.
    /// e0 = (0, 512, 1023): 0; 512 -> 32800 -> 15887 = 0x3E0F; 1023 -> 0xFFFF -> 31743 = 0x7BFF
    /// (65504). e1 = (1023, 0, 100): 0x7BFF, 0, 100 -> 6432 -> 3115 = 0x0C2B. Texel 0 index 0,
    /// texel 1 index 15 (weight 64).
    #[test]
    fn bc6h_mode_11_unsigned() {
        let b = pack(
            &[
                (0b00011, 5),
                (0, 10),
                (512, 10),
                (1023, 10),
                (1023, 10),
                (0, 10),
                (100, 10),
                (0, 3),
                (15, 4),
            ],
            16,
        );
        let codec = Codec::Bc6h { signed: false };
        let h = |bits: u16| half::f16::from_bits(bits).to_f64();
        assert_eq!(
            codec.texel(&b, (0, 0), false, false).unwrap(),
            ([0.0, h(0x3E0F), h(0x7BFF), 1.0], false)
        );
        assert_eq!(
            codec.texel(&b, (1, 0), false, false).unwrap(),
            ([h(0x7BFF), 0.0, h(0x0C2B), 1.0], false)
        );
    }

    /// ETC2 RGB8 in ETC1's individual mode (Khronos Data Format Specification, ETC1: diff bit 0,
    /// bytes 0-2 hold R1 R2, G1 G2, B1 B2 as 4-bit pairs extended by replication; byte 3 table1
    /// (bits 7-5), table2 (4-2), diff (1), flip (0); bytes 4-5 / 6-7 the index MSBs / LSBs as
    /// big-endian words, pixel i = 4x + y at bit i). flip 0: x < 2 is subblock 1. Base 1 (8, 4,
    /// 2) -> (0x88, 0x44, 0x22), base 2 (15, 0, 0) -> (0xFF, 0, 0); table 0's modifiers: index 0
    /// +2, 3 -8. Texel (0, 0) index 0: (0x8A, 0x46, 0x24); (1, 0) (pixel 4) index 3: (0x80, 0x3C,
    /// 0x1A); (3, 0) index 0 on base 2: (255 (clamped from 257), 2, 2). Alpha 255.
    #[test]
    fn etc2_individual_mode() {
        let b = [0x8F, 0x40, 0x20, 0x00, 0x00, 0x10, 0x00, 0x10];
        let t = |x| rgba8(Codec::Etc2Rgb8.texel(&b, (x, 0), false, false).unwrap().0);
        assert_eq!(t(0), [0x8A, 0x46, 0x24, 255]);
        assert_eq!(t(1), [0x80, 0x3C, 0x1A, 255]);
        assert_eq!(t(3), [255, 2, 2, 255]);
    }

    /// BC4 (D3D10): a0 = 200 > a1 = 100 (eight values): index 0 -> 200/255 and 1 -> 100/255 are
    /// exact, index 2 (6/7 a0 + 1/7 a1) is interpolated and flagged. a0 = 100 <= a1 = 200 (six
    /// values): index 6 -> 0, 7 -> 1, exact. SNORM: a0 = -128 reads -1 (D3D10 clamps it to -127).
    #[test]
    fn bc4_exact_and_interpolated_entries() {
        let b = pack(&[(200, 8), (100, 8), (0, 3), (1, 3), (2, 3)], 8);
        let t = |b: &[u8], x, snorm| Codec::Bc4.texel(b, (x, 0), snorm, false).unwrap();
        assert_eq!(t(&b, 0, false), ([200.0 / 255.0, 0.0, 0.0, 1.0], false));
        assert_eq!(t(&b, 1, false), ([100.0 / 255.0, 0.0, 0.0, 1.0], false));
        let (v, flagged) = t(&b, 2, false);
        assert!(flagged && (v[0] - 1300.0 / 1785.0).abs() < 1e-6);
        let b = pack(&[(100, 8), (200, 8), (6, 3), (7, 3)], 8);
        assert_eq!(t(&b, 0, false), ([0.0, 0.0, 0.0, 1.0], false));
        assert_eq!(t(&b, 1, false), ([1.0, 0.0, 0.0, 1.0], false));
        let b = pack(&[(0x80, 8), (0x10, 8), (0, 3)], 8);
        assert_eq!(t(&b, 0, true), ([-1.0, 0.0, 0.0, 1.0], false));
    }

    /// BC1 colours are always flagged (the 5:6:5 expansion and the palette's rounding are the
    /// vendor's): c0 = pure red 0xF800, index 0 -> (255, 0, 0, 255) under bcdec's rule.
    #[test]
    fn bc1_is_flagged() {
        let b = [0x00, 0xF8, 0x1F, 0x00, 0, 0, 0, 0];
        let (v, flagged) = Codec::Bc1.texel(&b, (0, 0), false, false).unwrap();
        assert_eq!((rgba8(v), flagged), ([255, 0, 0, 255], true));
    }

    #[test]
    fn formats_without_an_exact_decoder_are_errors() {
        // ASTC only as UNORM (Mesa's ail_pixel_format), PVRTC never
        for (ch, ty) in [(0x60, 1), (0x6D, 4), (0x50, 0)] {
            assert!(matches!(Codec::of(ch, ty), Some(Err(_))));
        }
        assert_eq!(
            Codec::of(0x63, 0).unwrap().unwrap(),
            Codec::Astc {
                width: 6,
                height: 5
            }
        );
        // EAC with a type Mesa never pairs with it (uint)
        assert!(matches!(Codec::of(0x5B, 2), Some(Err(_))));
        assert!(Codec::of(0x28, 0).is_none());
    }

    /// An R11 EAC block: the big-endian word of base, multiplier, table and the 3-bit index of
    /// each pixel k = 4x + y (`eac11`).
    fn eac_block(base: u8, multiplier: u64, table: u64, index: [u64; 16]) -> [u8; 8] {
        let mut w = u64::from(base) << 56 | multiplier << 52 | table << 48;
        for (k, i) in index.iter().enumerate() {
            w |= i << (45 - 3 * k);
        }
        w.to_be_bytes()
    }

    fn r11(b: &[u8], (x, y): (u32, u32), snorm: bool) -> f64 {
        let (v, flagged) = Codec::EacR11.texel(b, (x, y), snorm, false).unwrap();
        assert!(!flagged);
        assert_eq!(v[1..], [0.0, 0.0, 1.0]);
        v[0]
    }

    /// Unsigned R11 (Khronos DFS, "Format Unsigned R11 EAC", its worked examples): base 103,
    /// table 13 ([-1, -2, -3, -10, 0, 1, 2, 9]), multiplier 2, pixel b = (0, 1) index 3
    /// (modifier -10): 103 * 8 + 4 - 10 * 2 * 8 = 828 - 160 = 668 -> 668 / 2047. Pixel a = (0, 0)
    /// index 4 (modifier 0): 828. Pixel e = (1, 0) index 7 (9): 828 + 144 = 972. Multiplier 0
    /// (1/8): pixel b 828 - 10 = 818 (the spec's second example), pixel e 828 + 9 = 837.
    #[test]
    fn eac_r11_unsigned() {
        let mut index = [0; 16];
        (index[0], index[1], index[4]) = (4, 3, 7);
        let b = eac_block(103, 2, 13, index);
        assert_eq!(r11(&b, (0, 1), false), 668.0 / 2047.0);
        assert_eq!(r11(&b, (0, 0), false), 828.0 / 2047.0);
        assert_eq!(r11(&b, (1, 0), false), 972.0 / 2047.0);
        let b = eac_block(103, 0, 13, index);
        assert_eq!(r11(&b, (0, 1), false), 818.0 / 2047.0);
        assert_eq!(r11(&b, (1, 0), false), 837.0 / 2047.0);
    }

    /// Unsigned clamping, table 15 ([-3, -5, -7, -9, 2, 4, 6, 8]), multiplier 15: base 255,
    /// index 7: 2044 + 8 * 15 * 8 = 3004 -> 2047 (1.0); index 4: 2044 + 240 = 2284 -> 2047;
    /// index 0 with multiplier 0: 2044 - 3 = 2041 (unclamped). Base 0, index 3: 4 - 1080 -> 0.
    #[test]
    fn eac_r11_unsigned_clamps() {
        let mut index = [0; 16];
        (index[0], index[1]) = (7, 4);
        let b = eac_block(255, 15, 15, index);
        assert_eq!(r11(&b, (0, 0), false), 1.0);
        assert_eq!(r11(&b, (0, 1), false), 1.0);
        let b = eac_block(255, 0, 15, [0; 16]);
        assert_eq!(r11(&b, (2, 3), false), 2041.0 / 2047.0);
        let b = eac_block(0, 15, 15, [3; 16]);
        assert_eq!(r11(&b, (3, 3), false), 0.0);
    }

    /// Signed R11 (Khronos DFS, "Format Signed R11 EAC", its worked examples): base 60, table 13,
    /// multiplier 2, pixel b index 3: 480 - 160 = 320 -> 320 / 1023; multiplier 0: 480 - 10 = 470
    /// (the spec's text says base 65 there but computes with 60). Base -5 (0xFB), multiplier 3,
    /// pixel p = (3, 3) index 7 (9): -40 + 216 = 176. Clamping, table 15, multiplier 15: base 127
    /// index 7: 1016 + 960 -> 1023 (1.0); base -127 index 3: -1016 - 1080 -> -1023 (-1.0). Base
    /// -128 reads as -127: with multiplier 0, index 0 (-3): -1016 - 3 = -1019.
    #[test]
    fn eac_r11_signed() {
        let mut index = [0; 16];
        index[1] = 3;
        let b = eac_block(60, 2, 13, index);
        assert_eq!(r11(&b, (0, 1), true), 320.0 / 1023.0);
        let b = eac_block(60, 0, 13, index);
        assert_eq!(r11(&b, (0, 1), true), 470.0 / 1023.0);
        index[15] = 7;
        let b = eac_block(0xFB, 3, 13, index);
        assert_eq!(r11(&b, (3, 3), true), 176.0 / 1023.0);
        let b = eac_block(127, 15, 15, [7; 16]);
        assert_eq!(r11(&b, (1, 2), true), 1.0);
        let b = eac_block(0x81, 15, 15, [3; 16]);
        assert_eq!(r11(&b, (2, 1), true), -1.0);
        let b = eac_block(0x80, 0, 15, [0; 16]);
        assert_eq!(r11(&b, (0, 0), true), -1019.0 / 1023.0);
    }

    /// RG11 (Khronos DFS, "Format Unsigned RG11 EAC"): bytes 0-7 are red, 8-15 green, each an
    /// R11 block. Red: base 103, table 13, multiplier 2, pixel g = (1, 2) index 3 -> 668. Green:
    /// base 10, table 0 ([-3, -6, -9, -15, 2, 5, 8, 14]), multiplier 1, pixel g index 6 (8):
    /// 84 + 64 = 148. Signed, the same bytes: red 824 - 160 = 664 / 1023, green 80 + 64 = 144 /
    /// 1023.
    #[test]
    fn eac_rg11_two_channels() {
        let (mut ri, mut gi) = ([0; 16], [0; 16]);
        (ri[6], gi[6]) = (3, 6);
        let mut b = eac_block(103, 2, 13, ri).to_vec();
        b.extend(eac_block(10, 1, 0, gi));
        let t = |snorm| Codec::EacRg11.texel(&b, (1, 2), snorm, false).unwrap();
        assert_eq!(
            t(false),
            ([668.0 / 2047.0, 148.0 / 2047.0, 0.0, 1.0], false)
        );
        assert_eq!(t(true), ([664.0 / 1023.0, 144.0 / 1023.0, 0.0, 1.0], false));
        assert!(matches!(Codec::of(0x5C, 1), Some(Ok(Codec::EacRg11))));
        assert!(matches!(Codec::of(0x5B, 0), Some(Ok(Codec::EacR11))));
    }
}
