//! An ASTC block decoder written from the Khronos Data Format Specification's chapter "ASTC
//! Compressed Texture Image Formats" (the DataFormat repository's `astc.txt`, 2025), for the
//! 2D footprints 4x4 to 12x12 (the LDR and HDR profiles are 2D only, and Mesa's
//! `ail_pixel_format` gives the texture unit only the 14 2D footprints, cmdbuf.xml 0x60-0x6D).
//!
//! What a texel decodes to depends on the operation mode ("sRGB, Linear LDR and HDR Operation
//! Modes"), with decode mode `decode_float16`:
//! - linear LDR / HDR: FP16 bit patterns. An LDR component's UNORM16 interpolation result C is
//!   1.0 when C = 65535, otherwise C / 65536 rounded toward zero to FP16 ("Weight
//!   Application"); an HDR component's 16-bit result goes through the spec's mantissa
//!   transform, Inf/NaN becoming 0x7BFF;
//! - sRGB: the top 8 bits of each component (R, G, B for the sRGB EOTF, which the caller
//!   applies), endpoints expanded as `e << 8 | 0x80`. The current text applies that expansion to
//!   alpha too; the 1.1 text said alpha is bit-replicated, which ARM's and the dEQP decoders
//!   never did (astc-encoder issue 447); the current text decided.
//!
//! HDR endpoint modes and HDR void-extent blocks decode only in HDR mode; elsewhere they, and
//! every illegal encoding of "Illegal Encodings", give [`Texel::Error`], the error colour
//! (whose value is the operation mode's: magenta, or in linear LDR and HDR mode magenta or
//! NaNs at the implementation's choice). 3D blocks are not decoded (no profile the texture
//! unit is given has them).

mod endpoints;
mod ise;

use ise::Range;

/// The operation mode a block is decoded in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Srgb,
    LinearLdr,
    Hdr,
}

/// One decoded texel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Texel {
    /// The error colour.
    Error,
    /// An HDR void-extent colour that is Inf or NaN: "undefined behavior".
    Undefined,
    /// Linear LDR and HDR mode: FP16 bit patterns of R, G, B, A.
    Fp16([u16; 4]),
    /// sRGB mode: 8-bit UNORM R', G', B' (before the sRGB EOTF) and A.
    Unorm8([u8; 4]),
}

/// The 2D block footprints of the LDR and HDR profiles ("ASTC 2D footprint and bit rates").
pub const FOOTPRINTS: [(u32, u32); 14] = [
    (4, 4),
    (5, 4),
    (5, 5),
    (6, 5),
    (6, 6),
    (8, 5),
    (8, 6),
    (8, 8),
    (10, 5),
    (10, 6),
    (10, 8),
    (10, 10),
    (12, 10),
    (12, 12),
];

fn bits(v: u128, at: u32, n: u32) -> u32 {
    if n == 0 || at >= 128 {
        return 0;
    }
    ((v >> at) & ((1u128 << n) - 1)) as u32
}

/// A block mode's weight grid ("Block Mode", the 2D layout).
#[derive(Debug, Clone, Copy)]
struct BlockMode {
    width: u32,
    height: u32,
    dual_plane: bool,
    range: Range,
}

/// The 11-bit block mode, `None` when reserved (void-extent blocks are caught before).
fn block_mode(m: u32) -> Option<BlockMode> {
    let bit = |i: u32| (m >> i) & 1;
    let a = (m >> 5) & 3;
    let b = (m >> 7) & 3;
    let (width, height, rho, dual_plane, high);
    if m & 3 != 0 {
        // rho0 = bit 4, rho1 = bit 0, rho2 = bit 1
        rho = bit(4) | (m & 3) << 1;
        (width, height) = match (m >> 2) & 3 {
            0 => (b + 4, a + 2),
            1 => (b + 8, a + 2),
            2 => (a + 2, b + 8),
            _ if bit(8) == 0 => (a + 2, (b & 1) + 6),
            _ => ((b & 1) + 2, a + 2),
        };
        (dual_plane, high) = (bit(10) == 1, bit(9) == 1);
    } else {
        // rho0 = bit 4, rho1 = bit 2, rho2 = bit 3
        if (m >> 2) & 3 == 0 {
            return None;
        }
        rho = bit(4) | ((m >> 2) & 3) << 1;
        (width, height, dual_plane, high) = match b {
            0 => (12, a + 2, bit(10) == 1, bit(9) == 1),
            1 => (a + 2, 12, bit(10) == 1, bit(9) == 1),
            2 => (a + 6, ((m >> 9) & 3) + 6, false, false),
            _ => match a {
                0 => (6, 10, bit(10) == 1, bit(9) == 1),
                1 => (10, 6, bit(10) == 1, bit(9) == 1),
                _ => return None,
            },
        };
    }
    Some(BlockMode {
        width,
        height,
        dual_plane,
        range: ise::weight_range(high, rho)?,
    })
}

/// UNORM16 to FP16 as "Weight Application" says for `decode_float16`: 65535 is 1.0, anything
/// else C / 65536 rounded toward zero (below 4 a subnormal, C << 8).
pub fn unorm16_to_fp16(c: u32) -> u16 {
    if c >= 0xFFFF {
        return 0x3C00;
    }
    if c < 4 {
        return (c << 8) as u16;
    }
    // c in [2^(15 - lz), 2^(16 - lz)): the value is in [2^(-1 - lz), 2^(-lz))
    let lz = (c as u16).leading_zeros();
    let mantissa = ((c << (lz + 1)) & 0xFFFF) >> 6;
    ((14 - lz) << 10 | mantissa) as u16
}

/// An HDR component's interpolated 16-bit value to FP16 ("Weight Application", HDR endpoint
/// modes): top five bits the exponent, the 11-bit mantissa through the piecewise transform.
fn lns_to_fp16(c: u32) -> u16 {
    let e = (c & 0xF800) >> 11;
    let m = c & 0x7FF;
    let mt = if m < 512 {
        3 * m
    } else if m >= 1536 {
        5 * m - 2048
    } else {
        4 * m - 512
    };
    let cf = (e << 10) + (mt >> 3);
    if cf >= 0x7C00 {
        0x7BFF
    } else {
        cf as u16
    }
}

/// The partition of texel (x, y, z) ("Partition Pattern Generation").
fn select_partition(seed: u32, (x, y, z): (u32, u32, u32), count: u32, small_block: bool) -> u32 {
    let (x, y, z) = if small_block {
        (x << 1, y << 1, z << 1)
    } else {
        (x, y, z)
    };
    let seed = seed + (count - 1) * 1024;
    let rnum = hash52(seed);
    let nib = |s: u32| (rnum >> s) & 0xF;
    let mut s = [
        nib(0),
        nib(4),
        nib(8),
        nib(12),
        nib(16),
        nib(20),
        nib(24),
        nib(28),
        nib(18),
        nib(22),
        nib(26),
        rnum.rotate_left(2) & 0xF,
    ];
    for v in &mut s {
        *v *= *v;
    }
    let (sh1, sh2) = if seed & 1 != 0 {
        (
            if seed & 2 != 0 { 4 } else { 5 },
            if count == 3 { 6 } else { 5 },
        )
    } else {
        (
            if count == 3 { 6 } else { 5 },
            if seed & 2 != 0 { 4 } else { 5 },
        )
    };
    let sh3 = if seed & 0x10 != 0 { sh1 } else { sh2 };
    for (i, v) in s.iter_mut().enumerate() {
        *v >>= match i {
            0 | 2 | 4 | 6 => sh1,
            1 | 3 | 5 | 7 => sh2,
            _ => sh3,
        };
    }
    let a = (s[0] * x + s[1] * y + s[10] * z + (rnum >> 14)) & 0x3F;
    let b = (s[2] * x + s[3] * y + s[11] * z + (rnum >> 10)) & 0x3F;
    let mut c = (s[4] * x + s[5] * y + s[8] * z + (rnum >> 6)) & 0x3F;
    let mut d = (s[6] * x + s[7] * y + s[9] * z + (rnum >> 2)) & 0x3F;
    if count < 4 {
        d = 0;
    }
    if count < 3 {
        c = 0;
    }
    if a >= b && a >= c && a >= d {
        0
    } else if b >= c && b >= d {
        1
    } else if c >= d {
        2
    } else {
        3
    }
}

fn hash52(p: u32) -> u32 {
    let mut p = p;
    p ^= p >> 15;
    p = p.wrapping_sub(p << 17);
    p = p.wrapping_add(p << 7);
    p = p.wrapping_add(p << 4);
    p ^= p >> 5;
    p = p.wrapping_add(p << 16);
    p ^= p >> 7;
    p ^= p >> 3;
    p ^= p << 6;
    p ^= p >> 17;
    p
}

/// Every texel of a 16-byte block of footprint `(bw, bh)`, in raster order; `None` for a
/// footprint that is not one of [`FOOTPRINTS`].
pub fn decode_block(block: &[u8; 16], (bw, bh): (u32, u32), mode: Mode) -> Option<Vec<Texel>> {
    if !FOOTPRINTS.contains(&(bw, bh)) {
        return None;
    }
    let n = (bw * bh) as usize;
    Some(decode(block, (bw, bh), mode).unwrap_or_else(|| vec![Texel::Error; n]))
}

/// The block's texels, `None` for an illegal encoding (the whole block the error colour).
fn decode(block: &[u8; 16], (bw, bh): (u32, u32), mode: Mode) -> Option<Vec<Texel>> {
    let v = u128::from_le_bytes(*block);
    let n = (bw * bh) as usize;
    let m = bits(v, 0, 11);
    if m & 0x1FF == 0x1FC {
        return void_extent(v, n, mode);
    }
    let bm = block_mode(m)?;
    if bm.width > bw || bm.height > bh {
        return None;
    }
    let planes = if bm.dual_plane { 2 } else { 1 };
    let weight_count = bm.width * bm.height * planes;
    if weight_count > 64 {
        return None;
    }
    let weight_bits = bm.range.stream_bits(weight_count);
    if !(24..=96).contains(&weight_bits) {
        return None;
    }
    let partitions = bits(v, 11, 2) + 1;
    if bm.dual_plane && partitions == 4 {
        return None;
    }
    // colour endpoint modes ("Color Endpoint Mode")
    let mut extra_cem_bits = 0;
    let (seed, cems, mut config_bits) = if partitions == 1 {
        (0, vec![bits(v, 13, 4)], 17)
    } else if bits(v, 23, 2) == 0 {
        (
            bits(v, 13, 10),
            vec![bits(v, 25, 4); partitions as usize],
            29,
        )
    } else {
        extra_cem_bits = 3 * partitions - 4;
        let extra = bits(v, 128 - weight_bits - extra_cem_bits, extra_cem_bits);
        let full = bits(v, 23, 6) | extra << 6;
        let base = (full & 3) - 1;
        let cems = (0..partitions)
            .map(|i| {
                let class = base + ((full >> (2 + i)) & 1);
                class << 2 | ((full >> (2 + partitions + 2 * i)) & 3)
            })
            .collect();
        (bits(v, 13, 10), cems, 25 + 3 * partitions)
    };
    let ccs = bits(v, 128 - weight_bits - extra_cem_bits - 2, 2);
    if bm.dual_plane {
        config_bits += 2;
    }
    let colour_values: u32 = cems.iter().map(|&c| endpoints::value_count(c)).sum();
    if colour_values > 18 {
        return None;
    }
    let remaining = 128i32 - config_bits as i32 - weight_bits as i32;
    if remaining < (13 * colour_values).div_ceil(5) as i32 {
        return None;
    }
    let colour_range = *ise::COLOUR_RANGES
        .iter()
        .find(|r| r.stream_bits(colour_values) as i32 <= remaining)?;
    let colour_start = if partitions == 1 { 17 } else { 29 };
    let raw = ise::decode(
        v,
        (
            colour_start,
            colour_start + colour_range.stream_bits(colour_values),
        ),
        colour_values,
        colour_range,
    );
    let values: Vec<i32> = raw
        .into_iter()
        .map(|x| ise::unquantise_colour(colour_range, x))
        .collect();
    let mut at = 0usize;
    let ends: Vec<endpoints::Endpoints> = cems
        .iter()
        .map(|&c| {
            let k = endpoints::value_count(c) as usize;
            let e = endpoints::decode(c, values.get(at..at + k).unwrap_or(&[]));
            at += k;
            e
        })
        .collect();
    // weights: the stream grows down from bit 127
    let weights: Vec<u32> = ise::decode(v.reverse_bits(), (0, weight_bits), weight_count, bm.range)
        .into_iter()
        .map(|x| ise::unquantise_weight(bm.range, x))
        .collect();
    let ds = (1024 + bw / 2) / (bw - 1);
    let dt = (1024 + bh / 2) / (bh - 1);
    let mut out = Vec::with_capacity(n);
    for y in 0..bh {
        for x in 0..bw {
            // weight infill, bilinear ("Weight Infill")
            let gs = (ds * x * (bm.width - 1) + 32) >> 6;
            let gt = (dt * y * (bm.height - 1) + 32) >> 6;
            let (js, fs, jt, ft) = (gs >> 4, gs & 0xF, gt >> 4, gt & 0xF);
            let v0 = js + jt * bm.width;
            let w11 = (fs * ft + 8) >> 4;
            let (w10, w01) = (ft - w11, fs - w11);
            let w00 = 16 - fs - ft + w11;
            let plane_weight = |plane: u32| {
                let p = |i: u32| {
                    weights
                        .get((i * planes + plane) as usize)
                        .copied()
                        .unwrap_or(0)
                };
                (p(v0) * w00
                    + p(v0 + 1) * w01
                    + p(v0 + bm.width) * w10
                    + p(v0 + bm.width + 1) * w11
                    + 8)
                    >> 4
            };
            let i0 = plane_weight(0);
            let i1 = if bm.dual_plane { plane_weight(1) } else { i0 };
            let part = if partitions > 1 {
                select_partition(seed, (x, y, 0), partitions, n < 31)
            } else {
                0
            };
            let e = ends.get(part as usize)?;
            out.push(apply(
                e,
                |c| if bm.dual_plane && c == ccs { i1 } else { i0 },
                mode,
            ));
        }
    }
    Some(out)
}

/// Interpolate a partition's endpoints with component c's weight `weight(c)` ("Weight
/// Application").
fn apply(e: &endpoints::Endpoints, weight: impl Fn(u32) -> u32, mode: Mode) -> Texel {
    let lerp = |c0: u32, c1: u32, i: u32| (c0 * (64 - i) + c1 * i + 32) / 64;
    let mut fp16 = [0u16; 4];
    let mut unorm8 = [0u8; 4];
    for c in 0..4 {
        let hdr = if c == 3 { e.hdr_alpha } else { e.hdr_rgb };
        let (e0, e1) = (e.e0[c] as u32, e.e1[c] as u32);
        let i = weight(c as u32);
        if hdr {
            if mode != Mode::Hdr {
                return Texel::Error;
            }
            fp16[c] = lns_to_fp16(lerp(e0 << 4, e1 << 4, i));
        } else if mode == Mode::Srgb {
            unorm8[c] = (lerp(e0 << 8 | 0x80, e1 << 8 | 0x80, i) >> 8) as u8;
        } else {
            fp16[c] = unorm16_to_fp16(lerp(e0 << 8 | e0, e1 << 8 | e1, i));
        }
    }
    if mode == Mode::Srgb {
        Texel::Unorm8(unorm8)
    } else {
        Texel::Fp16(fp16)
    }
}

/// A 2D void-extent block ("Void-Extent Blocks"): bits 10 and 11 must be 1, each axis's minimum
/// below its maximum unless all four coordinates are all ones; bit 9 says HDR (FP16 colours,
/// the error colour outside HDR mode), otherwise UNORM16 colours.
fn void_extent(v: u128, n: usize, mode: Mode) -> Option<Vec<Texel>> {
    if bits(v, 10, 2) != 3 {
        return None;
    }
    let (min_s, max_s, min_t, max_t) = (
        bits(v, 12, 13),
        bits(v, 25, 13),
        bits(v, 38, 13),
        bits(v, 51, 13),
    );
    let all_ones = [min_s, max_s, min_t, max_t].iter().all(|&c| c == 0x1FFF);
    if !all_ones && (min_s >= max_s || min_t >= max_t) {
        return None;
    }
    let colour: [u32; 4] = std::array::from_fn(|c| bits(v, 64 + 16 * c as u32, 16));
    let texel = if bits(v, 9, 1) == 1 {
        match mode {
            Mode::Hdr if colour.iter().any(|&c| c & 0x7C00 == 0x7C00) => Texel::Undefined,
            Mode::Hdr => Texel::Fp16(colour.map(|c| c as u16)),
            _ => Texel::Error,
        }
    } else if mode == Mode::Srgb {
        Texel::Unorm8(colour.map(|c| (c >> 8) as u8))
    } else {
        Texel::Fp16(colour.map(unorm16_to_fp16))
    };
    Some(vec![texel; n])
}

#[cfg(test)]
mod tests;
