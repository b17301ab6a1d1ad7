//! `texture_sample` / `texture_load` with Mesa 22.3's descriptors (`src/asahi/lib/cmdbuf.xml`:
//! TEXTURE, 24 bytes; SAMPLER, 8 bytes), bound as the driver binds them (`agx_build_pipeline`: the
//! texture and sampler state arrays; the instruction names entry `ts{T}` / `ss{S}`).
//!
//! Image layout (Mesa's `src/asahi/layout`, `ail_initialize_twiddled` and `ail_tile`): a twiddled
//! level is cut into tiles stored row by row (`ceil(width / tile width)` tiles a row), the elements
//! of a tile in Morton order (x in the even bits, y in the odd ones). Level 0's tiles are the
//! format's largest (64x64 for 4-byte texels) unless the image is narrower or lower than one such
//! tile; then the level starts the power-of-two miptree and its tile is square with the smaller of
//! the width and height rounded up to powers of two. A linear image has rows of `stride + 16`
//! bytes (`cfg.stride = linear stride - 16`).
//!
//! What is sampled: 1D, 2D, 2D array, 3D and cube images (cube faces by GL 4.6 Table 8.19,
//! sampled with clamp to edge or seamlessly, below; faces, array layers and 3D slices are layers `layer_stride` apart;
//! an array's layer is the integer Mesa's `agx_nir_lower_array_texture` computes, one outside the
//! layer count a typed error), texels of every uncompressed format Mesa's driver describes
//! (`formats.rs`: 8/16/32-bit unorm, snorm, uint, sint and float channels, packed and
//! shared-exponent formats, sRGB, depth and stencil as their colour formats), exact in f64 and
//! rounded once to the destination width (GL 4.6, 2.3.5.1), integer formats' values written as
//! integers, the descriptor's swizzle applied (R, G, B, A, 1, 0; 1 is the integer 1 for integer
//! formats). Filtering: nearest, magnified and minified; linear (either way, trilinear in a 3D
//! image's 8 texels) only under the approximation opt-in (the hardware's filter weights are not
//! public: GL 4.6 8.14.2's formula in f64, counted as [`LINEAR_FILTER`]). A cube map's linear
//! footprint past a face's edge clamps to it with the sampler's `Seamful cube maps` bit, and
//! otherwise reads the neighbouring face's texel by GL 4.6 8.13's seamless rule
//! ([`cube_neighbour`]; the hardware's own edge rule has no public source, and Mesa's drivers
//! clear the bit exactly when GL's TEXTURE_CUBE_MAP_SEAMLESS or Vulkan's default asks for
//! seamless filtering); a corner texel GL leaves to the implementation unless the other three
//! are equal, so only that case runs. The LOD (explicit; automatic or
//! biased from the quad, [`AUTO_LOD`]; from explicit gradients, [`GRADIENT_LOD`], with Mesa's
//! minimum clamp in mode 12; the last two only under the opt-in) is read only when it decides
//! something: with a mip filter (the level, GL 4.6 8.14.3) or with different magnification and
//! minification filters (lambda <= c magnifies, GL 4.6 8.14; a lambda within 2^-6 of c is a
//! typed error). With equal filters and no mip filter GL samples the base level whatever the
//! LOD. The texel is `floor(u)` of the coordinate scaled by the size (unless
//! the sampler takes pixel coordinates) plus the texel offset, wrapped by the sampler's mode: clamp
//! to edge, repeat, mirrored repeat, mirror clamp to edge, clamp to border (GL 4.6, 8.14.2) with
//! the sampler's border colour (Mesa 25.0's `Border colour`: transparent black, opaque black,
//! opaque white, or the custom BORDER following the sampler, [`border_colour`]). A NaN coordinate is a typed error (GL leaves it undefined).
//! `texture_load` (Mesa's `txf`) takes integer texel coordinates (plus offsets) and an integer
//! level (Mesa 22.3 packs `lod_min` with the LOD register) and reads that texel of that level; an
//! out-of-range texel or level is a typed error (GL: undefined). Shadow compare (the `compare`
//! bit, reference in O) compares with the sampler's function on R32 float textures (GL 4.6
//! 8.23.1) and puts 1.0 or 0.0 in the depth's place before the swizzle. Offsets (the `Ot` bit,
//! Mesa's packed 4-bit values in O after the reference) are added to the integer texel. Gathers
//! (`q6`: R, G, B or A, no comparison) of 2D and 2D array images return component c after the
//! swizzle of GL 4.6 8.14.2's footprint in GL's order (see [`gather_component`]); the texel choice
//! is `floor(u - 1/2)`, as exact as nearest filtering's `floor(u)`, so no opt-in. The `kill` bit
//! and a register-indexed texture or sampler are typed errors.

use super::compressed::BLOCK_INTERPOLATION;
use super::formats::{Format, NumKind};
use super::miptree::{full_chain, minify, Level, Miptree};
use super::{active, missing, Fault, Ops, WaveState, SIMD_WIDTH};
use crate::operand::{Operand, Reg, RegFile};
use wavesim_core::memory::DeviceMemory;
use wavesim_core::observe::AccessKind;

fn bits(b: &[u8], start: u32, size: u32) -> u64 {
    let mut v = 0u128;
    for (i, x) in b.iter().enumerate().take(16) {
        v |= (*x as u128) << (8 * i);
    }
    ((v >> start) & ((1u128 << size) - 1)) as u64
}

fn unsupported(what: impl Into<String>) -> Fault {
    Fault::UnsupportedForm { what: what.into() }
}

/// The fields of a TEXTURE descriptor this module reads (cmdbuf.xml bit positions).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextureDesc {
    pub dimension: u64,
    pub layout: u64,
    pub channels: u64,
    pub ty: u64,
    pub swizzle: [u64; 4],
    pub width: u32,
    pub height: u32,
    pub first_level: u64,
    pub last_level: u64,
    pub address: u64,
    pub srgb: bool,
    /// `sRGB 2-channel` (bit 109): Mesa sets it with sRGB on two-channel formats.
    pub srgb_2_channel: bool,
    /// `Unk mipmapped` (bit 102): the image has a whole miptree, which its layer stride counts.
    pub mipmapped: bool,
    /// `Page-aligned layers` (bit 126; Mesa 22.3's `Unk tiled`, set on every twiddled texture).
    pub page_aligned_layers: bool,
    /// `Stride` (linear images) and `Depth` share bits 110-127.
    pub stride_or_depth: u64,
}

impl TextureDesc {
    pub fn decode(b: &[u8; 24]) -> TextureDesc {
        TextureDesc {
            dimension: bits(b, 0, 4),
            layout: bits(b, 4, 2),
            channels: bits(b, 6, 7),
            ty: bits(b, 13, 3),
            swizzle: [
                bits(b, 16, 3),
                bits(b, 19, 3),
                bits(b, 22, 3),
                bits(b, 25, 3),
            ],
            width: bits(b, 28, 14) as u32 + 1,
            height: bits(b, 42, 14) as u32 + 1,
            first_level: bits(b, 56, 4),
            last_level: bits(b, 60, 4),
            address: bits(b, 66, 36) << 4,
            srgb: bits(b, 108, 1) == 1,
            srgb_2_channel: bits(b, 109, 1) == 1,
            mipmapped: bits(b, 102, 1) == 1,
            page_aligned_layers: bits(b, 126, 1) == 1,
            stride_or_depth: bits(b, 110, 18),
        }
    }
}

/// The fields of a SAMPLER descriptor this module reads.
#[derive(Debug, Clone, PartialEq)]
pub struct SamplerDesc {
    pub magnify_linear: bool,
    pub minify_linear: bool,
    pub mip_filter: u64,
    pub wrap: [u64; 3],
    pub pixel_coordinates: bool,
    /// `Compare func` (bits 39-41): Lequal, Gequal, Less, Greater, Equal, Not Equal, Always,
    /// Never. The driver fills it whatever the sampler's compare mode (`agx_create_sampler_state`);
    /// the instruction's `compare` bit says whether it applies.
    pub compare_func: u64,
    /// `Minimum LOD` / `Maximum LOD` (bits 0-9, 10-19): unsigned fixed point with 6 fraction bits
    /// (`__gen_pack_lod` in Mesa's `gen_pack.py`, clamped by the packer to 0..14).
    pub min_lod: f64,
    pub max_lod: f64,
    /// `Seamful cube maps` (bit 57, named in Mesa 25.0's cmdbuf.xml; 22.3 leaves it 0): cube
    /// filtering clamps to the face's edge instead of reading across to the next face.
    pub seamful_cube_maps: bool,
    /// `Border colour` (bits 55-56, Mesa 25.0's cmdbuf.xml): transparent black, opaque black,
    /// opaque white, custom (the BORDER after the sampler, [`WaveState::borders`]).
    pub border_colour: u64,
}

impl SamplerDesc {
    pub fn decode(b: &[u8; 8]) -> SamplerDesc {
        SamplerDesc {
            magnify_linear: bits(b, 23, 1) == 1,
            minify_linear: bits(b, 25, 1) == 1,
            mip_filter: bits(b, 27, 2),
            wrap: [bits(b, 29, 3), bits(b, 32, 3), bits(b, 35, 3)],
            pixel_coordinates: bits(b, 38, 1) == 1,
            compare_func: bits(b, 39, 3),
            min_lod: bits(b, 0, 10) as f64 / 64.0,
            max_lod: bits(b, 10, 10) as f64 / 64.0,
            seamful_cube_maps: bits(b, 57, 1) == 1,
            border_colour: bits(b, 55, 2),
        }
    }
}

/// Byte offset of texel (x, y) of level 0 of layer 0 (`miptree.rs`).
pub fn texel_offset(t: &TextureDesc, x: u32, y: u32) -> Result<u64, Fault> {
    let bytes = check_texture(t)?.bytes();
    Miptree::new(
        t.layout,
        (t.width, t.height, bytes),
        1,
        t.stride_or_depth,
        t.page_aligned_layers,
    )?
    .texel_offset(0, x, y)
}

/// GL 4.6 8.13, Table 8.19: the face a cube-map direction selects (layer order +X, -X, +Y, -Y,
/// +Z, -Z) and its (s, t) in [0, 1]: s = (sc / |ma| + 1) / 2, t = (tc / |ma| + 1) / 2. Ties
/// between axes (which the table leaves open) are a typed error.
fn cube_face(x: f32, y: f32, z: f32) -> Result<(u32, f64, f64), Fault> {
    let (face, sc, tc, ma) = table_8_19(x, y, z).ok_or_else(|| {
        unsupported(format!(
            "cube direction ({x}, {y}, {z}) with no single major axis"
        ))
    })?;
    let ma = f64::from(ma);
    Ok((
        face,
        (f64::from(sc) / ma + 1.0) / 2.0,
        (f64::from(tc) / ma + 1.0) / 2.0,
    ))
}

/// GL 4.6 Table 8.19 on any signed numbers: the face of direction (x, y, z) and its (sc, tc,
/// |ma|); `None` when no axis is strictly the largest.
fn table_8_19<T>(x: T, y: T, z: T) -> Option<(u32, T, T, T)>
where
    T: Copy + PartialOrd + Default + std::ops::Neg<Output = T>,
{
    let abs = |v: T| if v < T::default() { -v } else { v };
    let zero = T::default();
    let (ax, ay, az) = (abs(x), abs(y), abs(z));
    Some(if ax > ay && ax > az {
        if x >= zero {
            (0, -z, -y, ax)
        } else {
            (1, z, -y, ax)
        }
    } else if ay > ax && ay > az {
        if y >= zero {
            (2, x, z, ay)
        } else {
            (3, x, -z, ay)
        }
    } else if az > ax && az > ay {
        if z >= zero {
            (4, x, -y, az)
        } else {
            (5, -x, -y, az)
        }
    } else {
        return None;
    })
}

/// GL 4.6 8.14.2 (Table 8.20) wrap of texel index `i` into `0..n`; `None` is a border texel
/// (clamp to border with `i` outside the image: GL's wrap clamps to -1 or n there, a texel the
/// border colour stands for). Cmdbuf.xml's `Clamp (GL)` (4, GL's legacy CLAMP) is an error.
fn wrap(mode: u64, i: i64, n: u32) -> Result<Option<u32>, Fault> {
    let n = n as i64;
    Ok(Some(match mode {
        0 => i.clamp(0, n - 1),
        1 => i.rem_euclid(n),
        2 => {
            let m = i.rem_euclid(2 * n);
            if m < n {
                m
            } else {
                2 * n - 1 - m
            }
        }
        3 if (0..n).contains(&i) => i,
        3 => return Ok(None),
        // MIRROR_CLAMP_TO_EDGE: clamp(mirror(i), 0, n - 1), mirror(a) = a >= 0 ? a : -(1 + a)
        5 => (if i >= 0 { i } else { -(1 + i) }).min(n - 1),
        m => return Err(unsupported(format!("wrap mode {m}"))),
    } as u32))
}

/// Where a filter's texel index (before wrapping) lies: a texel of the image (x, y, layer or
/// slice), a border texel, or a seamless cube footprint's corner with the three texels GL names
/// for it.
enum Texel {
    At((u32, u32, u32)),
    Border,
    Corner([(u32, u32, u32); 3]),
}

/// The level being read, as [`Texel`]s are resolved on it: the size per axis, the axes wrapped
/// (`spatial`), the sampler's wrap modes, and for a cube map its face and whether filtering is
/// seamless.
struct TexelPlace {
    size: [u32; 3],
    spatial: usize,
    wrap: [u64; 3],
    face: Option<(u32, bool)>,
    lane: usize,
}

impl TexelPlace {
    fn resolve(&self, x: i64, y: i64, z: i64) -> Result<Texel, Fault> {
        let Some((face, seamless)) = self.face else {
            let mut at = [x, y, z];
            for (d, v) in at.iter_mut().enumerate().take(self.spatial) {
                match wrap(self.wrap[d], *v, self.size[d])? {
                    Some(i) => *v = i64::from(i),
                    None => return Ok(Texel::Border),
                }
            }
            return Ok(Texel::At((at[0] as u32, at[1] as u32, at[2] as u32)));
        };
        // GL 4.6 8.13: cube maps ignore the wrap modes for s and t: clamp to the face's edge, or
        // with seamless filtering read the texel beyond the edge from the neighbouring face
        let n = i64::from(self.size[0]);
        if self.size[0] != self.size[1] {
            return Err(unsupported(format!(
                "thread {}: cube face of {}x{} texels (faces are square)",
                self.lane, self.size[0], self.size[1]
            )));
        }
        let inside = |i: i64| (0..n).contains(&i);
        let clamp = |i: i64| i.clamp(0, n - 1) as u32;
        Ok(match (inside(x), inside(y)) {
            (true, true) => Texel::At((x as u32, y as u32, face)),
            _ if !seamless => Texel::At((clamp(x), clamp(y), face)),
            // the corner's three texels: beside it across each edge, and the face's own corner
            (false, false) => {
                let (xi, yi) = (i64::from(clamp(x)), i64::from(clamp(y)));
                Texel::Corner([
                    cube_neighbour(face, xi, y, n)?,
                    (clamp(x), clamp(y), face),
                    cube_neighbour(face, x, yi, n)?,
                ])
            }
            _ => Texel::At(cube_neighbour(face, x, y, n)?),
        })
    }
}

/// GL 4.6 Table 8.19 for face `f`: the direction (x, y, z) whose major axis is the face's, with
/// sc, tc and ma as given.
fn cube_direction(f: u32, sc: i64, tc: i64, ma: i64) -> [i64; 3] {
    match f {
        0 => [ma, -tc, -sc],
        1 => [-ma, -tc, sc],
        2 => [sc, ma, tc],
        3 => [sc, -ma, -tc],
        4 => [sc, -tc, ma],
        _ => [-sc, -tc, -ma],
    }
}

/// The texel (face, i, j) seamless filtering reads for index (x, y) one texel outside face `f`
/// of n x n texels across one edge (GL 4.6 8.13: the texel of the neighbouring face). Exactly, in
/// integers: the texel's centre on the face's plane is the direction of (sc, tc, ma) = (2x + 1 -
/// n, 2y + 1 - n, n) (Table 8.19's s = (sc / |ma| + 1) / 2 scaled by n); Table 8.19 selects its
/// face, and the texel there is floor(n (sc' + |ma'|) / (2 |ma'|)). The centre one half texel
/// beyond the edge projects inside the neighbouring face's edge row (n (j + 1) / (n + 1) lies in
/// (j, j + 1) for j < n), so this is the texel GL means.
fn cube_neighbour(f: u32, x: i64, y: i64, n: i64) -> Result<(u32, u32, u32), Fault> {
    // (i, j, face) as `Image::texel` takes them
    let [dx, dy, dz] = cube_direction(f, 2 * x + 1 - n, 2 * y + 1 - n, n);
    let (face, sc, tc, ma) = table_8_19(dx, dy, dz)
        .ok_or_else(|| unsupported(format!("cube texel ({x}, {y}) of face {f} beyond a corner")))?;
    let texel = |c: i64| ((n * (c + ma)).div_euclid(2 * ma)).clamp(0, n - 1) as u32;
    Ok((texel(sc), texel(tc), face))
}

/// The sampler's border colour as a texel of `format` (R, G, B, A in the format's channel order,
/// before the descriptor's swizzle): Mesa's `agx_border.c` says the texture descriptor's swizzle
/// is applied to the border colour, so it packs a custom colour "like it would be encoded in
/// memory", and Honeykrypton's RGBA4 opaque-black workaround (`hk_sampler.c`) shows the fixed
/// colours are swizzled the same way. Fixed colours: (0, 0, 0, 0), (0, 0, 0, 1), (1, 1, 1, 1),
/// the 1 being the integer 1 for integer formats (Mesa maps Vulkan's INT and FLOAT colours to the
/// same value). Custom (`agx_pack_border`): one 32-bit word per channel in the format's channel
/// order, an integer as it is (clamped by Mesa to the channel's range), a float as f32 (32-bit
/// channels) or f16 in the low half (narrower ones), a normalized value as the format's own
/// b-bit encoding (read as `formats.rs` reads a texel). A word Mesa's packer cannot produce (a
/// value beyond the channel, nonzero high bits), a NaN, and custom colours for sRGB (Mesa packs
/// 12 bits whose sRGB decode is not public), R11G11B10, R9G9B9E5 and compressed formats (Mesa
/// packs these specially, `get_channel_info`, with no public decode) are typed errors; a channel the format lacks Mesa packs as 0 and
/// reads as a texel's would (0, 0, 1: GL 4.6 Table 15.1).
fn border_colour(
    s: &SamplerDesc,
    format: &Format,
    border: Option<&[u8; 16]>,
    lane: usize,
) -> Result<[f64; 4], Fault> {
    let custom = match s.border_colour {
        0 => return Ok([0.0; 4]),
        1 => return Ok([0.0, 0.0, 0.0, 1.0]),
        2 => return Ok([1.0; 4]),
        _ => border.ok_or_else(|| {
            unsupported(format!(
                "thread {lane}: custom border colour with compact sampler state (no BORDER bound)"
            ))
        })?,
    };
    let bad = |why: String| unsupported(format!("thread {lane}: custom border colour {why}"));
    if format.srgb {
        return Err(bad(
            "on an sRGB texture (Mesa packs 12-bit sRGB values; their decode is not public)".into(),
        ));
    }
    let widths = format.plain_widths().ok_or_else(|| {
        bad(format!(
            "on packed-float or compressed channels {:#x} (Mesa's packing has no public decode)",
            format.channels
        ))
    })?;
    let mut out = [0.0, 0.0, 0.0, 1.0];
    for (c, v) in out.iter_mut().enumerate() {
        let word = u32::from_le_bytes([
            custom[4 * c],
            custom[4 * c + 1],
            custom[4 * c + 2],
            custom[4 * c + 3],
        ]);
        let Some(&b) = widths.get(c) else {
            if word != 0 {
                return Err(bad(format!(
                    "word {word:#x} for channel {c} the format lacks (Mesa packs 0)"
                )));
            }
            continue;
        };
        let (signed, max) = (word as i32, (1u64 << b) - 1);
        let half_max = (1i64 << (b - 1)) - 1;
        *v = match format.kind {
            NumKind::Unorm if u64::from(word) <= max => f64::from(word) / max as f64,
            NumKind::Snorm if (-half_max..=half_max).contains(&i64::from(signed)) => {
                f64::from(signed) / half_max as f64
            }
            NumKind::Uint if u64::from(word) <= max => f64::from(word),
            NumKind::Sint if (-half_max - 1..=half_max).contains(&i64::from(signed)) => {
                f64::from(signed)
            }
            NumKind::Float if b == 32 && !f32::from_bits(word).is_nan() => {
                f64::from(f32::from_bits(word))
            }
            NumKind::Float if b < 32 && word >> 16 == 0 => {
                let h = half::f16::from_bits(word as u16);
                if h.is_nan() {
                    return Err(bad(format!("channel {c} is a NaN")));
                }
                h.to_f64()
            }
            kind => {
                return Err(bad(format!(
                    "word {word:#x} for a {b}-bit {kind:?} channel {c} (not a value Mesa's \
                     agx_pack_border writes)"
                )))
            }
        };
    }
    Ok(out)
}

/// The descriptor's texel format (`formats.rs`); Mesa sets `sRGB 2-channel` exactly with sRGB on
/// a two-channel format (`agx_pack_texture`), and a descriptor that does otherwise has no public
/// meaning.
pub(super) fn check_texture(t: &TextureDesc) -> Result<Format, Fault> {
    let format = Format::new(t.channels, t.ty, t.srgb)?;
    if t.srgb_2_channel != (t.srgb && format.components() == 2) {
        return Err(unsupported(format!(
            "texture sRGB {} with sRGB 2-channel {} on channels {:#x}",
            t.srgb, t.srgb_2_channel, t.channels
        )));
    }
    Ok(format)
}

/// A bound image as one thread reads it: the descriptor, its texel format and its levels (the
/// miptree holds `last_level + 1` levels, or the whole chain for a mipmapped image; the view's
/// base level is `first_level`).
struct Image {
    t: TextureDesc,
    format: Format,
    tree: Miptree,
    /// A compressed texel read was one of the interpolated values only the opt-in computes
    /// (`compressed.rs`).
    interpolated: std::cell::Cell<bool>,
}

impl Image {
    fn new(t: TextureDesc) -> Result<Image, Fault> {
        let format = check_texture(&t)?;
        if t.first_level > t.last_level {
            return Err(unsupported(format!(
                "texture base level {} above its last level {}",
                t.first_level, t.last_level
            )));
        }
        // a mipmapped image's layers hold the whole chain (3D images count their depth)
        let mut levels = t.last_level as u32 + 1;
        if t.mipmapped {
            let depth = if t.dimension == 5 {
                (t.stride_or_depth & 0x3FFF) as u32 + 1
            } else {
                1
            };
            levels = levels.max(full_chain(t.width, t.height, depth));
        }
        let tree = if format.codec().is_some() {
            Miptree::new_compressed(
                t.layout,
                (t.width, t.height, format.bytes()),
                format.codec().map_or((4, 4), |c| c.block()),
                levels,
                t.page_aligned_layers,
            )?
        } else {
            Miptree::new(
                t.layout,
                (t.width, t.height, format.bytes()),
                levels,
                t.stride_or_depth,
                t.page_aligned_layers,
            )?
        };
        Ok(Image {
            t,
            format,
            tree,
            interpolated: Default::default(),
        })
    }

    fn level(&self, level: usize) -> Result<Level, Fault> {
        self.tree
            .levels
            .get(level)
            .copied()
            .ok_or_else(|| unsupported(format!("texture level {level}")))
    }

    /// The texel's (R, G, B, A), exact in f64 (`Format::decode`), rounded once when written; a
    /// compressed image's from its block (`compressed.rs`), an interpolated value only under
    /// the opt-in.
    fn texel(
        &self,
        level: usize,
        (x, y, layer): (u32, u32, u32),
        dev: &DeviceMemory,
        (w, lane): (&mut WaveState, usize),
    ) -> Result<[f64; 4], Fault> {
        let layer_offset = if layer == 0 {
            0
        } else {
            self.tree
                .layer_stride
                .ok_or_else(|| unsupported("layered linear image"))?
                * u64::from(layer)
        };
        let codec = self.format.codec();
        let (bw, bh) = codec.map_or((1, 1), |c| c.block());
        let (ex, ey) = (x / bw, y / bh);
        let addr = self
            .t
            .address
            .wrapping_add(layer_offset)
            .wrapping_add(self.tree.texel_offset(level, ex, ey)?);
        let size = self.format.bytes();
        let mut b = [0u8; 16];
        let b = &mut b[..size as usize];
        dev.read(addr, b)
            .map_err(|source| Fault::Memory { lane, source })?;
        let mut value = [0u8; 8];
        let low = b.len().min(8);
        value[..low].copy_from_slice(&b[..low]);
        w.record(
            AccessKind::Load,
            "texture",
            lane,
            addr,
            size,
            u64::from_le_bytes(value),
        );
        let Some(codec) = codec else {
            return self.format.decode(b);
        };
        let snorm = self.format.kind == NumKind::Snorm;
        let (v, interpolated) = codec.texel(b, (x % bw, y % bh), snorm, self.format.srgb)?;
        if interpolated {
            if !w.approximate {
                return Err(Fault::Unsupported {
                    name: BLOCK_INTERPOLATION,
                });
            }
            self.interpolated.set(true);
        }
        Ok(v)
    }
}

/// The border colour of the thread's sampler (`border_colour`), its BORDER being the bound
/// custom colour of the same index when the sampler state is extended.
fn border_colour_of(
    w: &WaveState,
    o: &Ops<'_>,
    s: &SamplerDesc,
    format: &Format,
    lane: usize,
) -> Result<[f64; 4], Fault> {
    if s.border_colour != 3 {
        return border_colour(s, format, None, lane);
    }
    let i = sampler_index(w, o, lane)?;
    border_colour(s, format, w.borders.get(i), lane)
}

/// The texture descriptor a thread's instruction names (`agx_pack_texture`, Mesa 25.0; applegpu's
/// texture operand): `Tt` 0 an immediate index into the bound texture state (`ts{i}`), 1 a
/// 16-bit register holding that index (Mesa's `nir_tex_src_texture_offset`), 3 bindless: the
/// 64-bit uniform `U` plus the 32-bit register's byte offset is the address of the 24-byte
/// descriptor in device memory (`agx_translate_bindless_handle`: "a 64-bit uniform base address
/// summed with a 32-bit register index", the index a byte offset). `Tt` 2 Mesa never emits.
pub(super) fn texture_descriptor(
    w: &WaveState,
    o: &Ops<'_>,
    dev: &DeviceMemory,
    lane: usize,
) -> Result<[u8; 24], Fault> {
    let bound = |i: u64| {
        w.textures.get(i as usize).copied().ok_or_else(|| {
            unsupported(format!(
                "texture state ts{i} not bound ({} bound)",
                w.textures.len()
            ))
        })
    };
    match (o.field("Tt"), o.op("T")?) {
        (0, Operand::Text(s)) => bound(
            s.trim_start_matches("ts")
                .parse::<u64>()
                .map_err(|_| missing("T"))?,
        ),
        (1, Operand::Reg(r, _)) => bound(w.read(*r, lane)? & 0xFFFF),
        (3, Operand::Reg(r, _)) => {
            let base = match o.op("U")? {
                Operand::Reg(u, _) => w.read(*u, lane)?,
                _ => return Err(missing("U")),
            };
            let addr = base.wrapping_add(w.read(*r, lane)? & 0xFFFF_FFFF);
            let mut b = [0u8; 24];
            dev.read(addr, &mut b)
                .map_err(|source| Fault::Memory { lane, source })?;
            Ok(b)
        }
        (tt, _) => Err(unsupported(format!(
            "texture operand form Tt = {tt} (Mesa emits 0, 1 and 3)"
        ))),
    }
}

/// The index of the sampler state a thread's instruction names.
fn sampler_index(w: &WaveState, o: &Ops<'_>, lane: usize) -> Result<usize, Fault> {
    Ok(match o.op("S")? {
        Operand::Text(s) => s
            .trim_start_matches("ss")
            .parse::<usize>()
            .map_err(|_| missing("S"))?,
        Operand::Reg(r, _) => (w.read(*r, lane)? & 0xFFFF) as usize,
        _ => return Err(missing("S")),
    })
}

/// The sampler a thread's instruction names (`agx_pack_sampler`): `St` 0 an immediate index
/// into the bound sampler state (`ss{i}`), 1 a 16-bit register holding it.
fn sampler_descriptor(w: &WaveState, o: &Ops<'_>, lane: usize) -> Result<[u8; 8], Fault> {
    let i = sampler_index(w, o, lane)?;
    w.samplers.get(i).copied().ok_or_else(|| {
        unsupported(format!(
            "sampler state ss{i} not bound ({} bound)",
            w.samplers.len()
        ))
    })
}

/// How far from a level boundary a LOD must be for the level to be certain. The hardware's LOD
/// arithmetic is not public; cmdbuf.xml's LOD clamps carry 6 fraction bits, so a LOD within
/// 2^-6 of the point where the chosen level changes is a typed error rather than a guess.
const LOD_MARGIN: f64 = 1.0 / 64.0;

/// GL 4.6 8.14.3: the levels a sample reads and their weights, for the LOD `lambda` (already
/// biased; clamped here to the sampler's minimum and maximum, 8.14.1), from the view's base
/// level `first_level` to `last_level`. No mip filter: the base level. NEAREST: the base level
/// for lambda <= 1/2, else `base + ceil(lambda + 1/2) - 1` up to the last level (with the same
/// filter both ways the magnification threshold c does not change the texel). LINEAR (only under
/// the approximation opt-in, its weights being the hardware's): levels `base + floor(lambda)` and
/// the next, weights 1 - frac and frac, both clamped to the last level; lambda <= 0 the base level.
fn mip_levels(
    t: &TextureDesc,
    s: &SamplerDesc,
    lambda: Option<f64>,
    lane: usize,
) -> Result<Vec<(usize, f64)>, Fault> {
    let (base, q) = (t.first_level as usize, t.last_level as usize);
    if s.mip_filter == 0 {
        return Ok(vec![(base, 1.0)]);
    }
    let Some(lambda) = lambda else {
        return Err(unsupported(format!(
            "thread {lane}: a mip filter without a LOD"
        )));
    };
    match s.mip_filter {
        1 => {
            let nearest = |l: f64| {
                if l <= 0.5 {
                    base
                } else {
                    (base + ((l + 0.5).ceil() as usize).saturating_sub(1)).min(q)
                }
            };
            let level = nearest(lambda);
            if nearest(lambda - LOD_MARGIN) != level || nearest(lambda + LOD_MARGIN) != level {
                return Err(unsupported(format!(
                    "thread {lane}: LOD {lambda} within 2^-6 of a level boundary (the hardware's \
                     LOD precision is not public)"
                )));
            }
            Ok(vec![(level, 1.0)])
        }
        2 => {
            if lambda <= 0.0 {
                return Ok(vec![(base, 1.0)]);
            }
            let d1 = (base + lambda.floor() as usize).min(q);
            let d2 = (d1 + 1).min(q);
            let a = lambda - lambda.floor();
            Ok(vec![(d1, 1.0 - a), (d2, a)])
        }
        m => Err(unsupported(format!("mip filter {m}"))),
    }
}

/// GL 4.6 8.14.1's clamp of the (biased) LOD to [max(the sampler's minimum, the instruction's
/// minimum clamp), the sampler's maximum] (the clamp as ARB_sparse_texture_clamp's `lodClamp`
/// adds it, which Mesa's `nir_tex_src_min_lod` is); a NaN or an empty range is a typed error (GL:
/// undefined).
fn clamp_lod(s: &SamplerDesc, lambda: f64, min_clamp: f64, lane: usize) -> Result<f64, Fault> {
    let lo = s.min_lod.max(min_clamp);
    if lambda.is_nan() || lo.is_nan() || lo > s.max_lod {
        return Err(unsupported(format!(
            "thread {lane}: LOD {lambda} with the range {lo}..{} (GL: undefined)",
            s.max_lod
        )));
    }
    Ok(lambda.clamp(lo, s.max_lod))
}

/// GL 4.6 8.14's magnification threshold c: 0.5 when the magnification filter is LINEAR and the
/// minification filter NEAREST_MIPMAP_NEAREST or NEAREST_MIPMAP_LINEAR, else 0. lambda <= c
/// magnifies.
fn magnification_threshold(s: &SamplerDesc) -> f64 {
    if s.magnify_linear && !s.minify_linear && s.mip_filter != 0 {
        0.5
    } else {
        0.0
    }
}

/// GL 4.6 8.14.1 from explicit gradients (Mesa's txd, LOD modes 4 and 12), the opt-in's
/// documented intent (the hardware's LOD arithmetic is not public): `grads` in Mesa's order
/// (`agx_emit_tex`: d/dx then d/dy of each coordinate in turn), each scaled by the base level's
/// size on its axis (1 with pixel coordinates); rho = max(|d/dx|, |d/dy|) (Euclidean lengths),
/// lambda = log2(rho), in f64.
fn gradient_lod(grads: &[f64], scale: [f64; 3]) -> f64 {
    let (mut x, mut y) = (0f64, 0f64);
    for (d, pair) in grads.chunks(2).enumerate().take(3) {
        x += (pair[0] * scale[d]).powi(2);
        y += (pair.get(1).copied().unwrap_or(0.0) * scale[d]).powi(2);
    }
    x.sqrt().max(y.sqrt()).log2()
}

/// The name gradient LOD with a mip filter (or mixed filters) is counted and refused under (see
/// [`gradient_lod`]).
pub const GRADIENT_LOD: &str = "texture gradient LOD";

/// GL 4.6 8.23.1 with the sampler's `Compare func` (cmdbuf.xml order): 1.0 when D_ref OP D_t
/// holds, else 0.0. A float depth texture clamps neither value (GL: clamping applies to
/// fixed-point depth formats only). A NaN on either side is a typed error: GL leaves it open.
fn depth_compare(func: u64, d_ref: f32, d_t: f64, lane: usize) -> Result<f64, Fault> {
    let d_ref = f64::from(d_ref);
    if d_ref.is_nan() || d_t.is_nan() {
        return Err(unsupported(format!(
            "thread {lane}: depth comparison with a NaN (reference {d_ref}, texel {d_t})"
        )));
    }
    let pass = match func {
        0 => d_ref <= d_t,
        1 => d_ref >= d_t,
        2 => d_ref < d_t,
        3 => d_ref > d_t,
        4 => d_ref == d_t,
        5 => d_ref != d_t,
        6 => true,
        _ => false,
    };
    Ok(if pass { 1.0 } else { 0.0 })
}

/// Texel offsets as Mesa 22.3 packs them (`agx_emit_tex`): component c in bits 4c..4c+3, two's
/// complement (-8..7).
fn unpack_offsets(packed: u64) -> [i64; 3] {
    std::array::from_fn(|c| {
        let v = (packed >> (4 * c) & 0xF) as i64;
        if v >= 8 {
            v - 16
        } else {
            v
        }
    })
}

pub(super) fn texture_access(
    w: &mut WaveState,
    o: &Ops<'_>,
    dev: &DeviceMemory,
    load: bool,
) -> Result<(), Fault> {
    if o.field("kill") != 0 {
        return Err(unsupported(format!(
            "texture kill (kill = {})",
            o.field("kill")
        )));
    }
    let gather = gather_component(o.field("q6"))?;
    // Mesa 22.3 (`agx_pack.c`): the shadow bit is `compare` (23), the offset bit is `Ot` (91);
    // O names the reference (32-bit) and then the packed offsets (read as 16 bits, applegpu).
    let shadow = o.field("compare") != 0;
    let with_offsets = o.field("Ot") != 0;
    let (ref_reg, off_reg) = match o.op("O")? {
        Operand::Empty => (None, None),
        Operand::Tuple(r, _) => {
            let mut it = r.iter().copied();
            let reference = if shadow { it.next() } else { None };
            let offsets = if with_offsets { it.next() } else { None };
            (reference, offsets)
        }
        _ => return Err(missing("O")),
    };
    if shadow && ref_reg.is_none() || with_offsets && off_reg.is_none() {
        return Err(missing("O"));
    }
    if shadow && load {
        return Err(unsupported("texel fetch with a depth comparison"));
    }
    // q3 (bits 43-46): Mesa packs 12 for textures ("XXX" in `agx_pack.c`) and sets bit 0 for
    // image loads (the load sees the latest image store) and bit 1 for coherent ones; memory here
    // is coherent, so those change nothing, and any other value is a form with no public meaning.
    let q3 = o.field("q3");
    if !(q3 == 0xC || load && matches!(q3, 0xD | 0xF)) {
        return Err(unsupported(format!(
            "texture q3 = {q3:#x} (Mesa packs 0xc, and 0xd or 0xf for image loads)"
        )));
    }
    let n = o.field("n");
    let lod_mode = o.field("lod");
    if gather.is_some() {
        check_gather_form(load, n, lod_mode, o.field("mask"))?;
    }
    // tex_1d, tex_2d, tex_2d_array, tex_3d, tex_cube: (spatial axes, layered by an integer index)
    let (axes, array) = match n {
        0 => (1, false),
        2 => (2, false),
        3 => (2, true),
        5 | 6 => (3, false),
        _ => {
            return Err(unsupported(format!(
                "texture kind {n} (1D, 2D, 2D array, 3D and cube images are modelled)"
            )))
        }
    };
    let coords = match o.op("C")? {
        Operand::Tuple(r, _) => r.clone(),
        _ => return Err(missing("C")),
    };
    let dst = match o.op("R")? {
        Operand::Tuple(r, _) => r.clone(),
        _ => return Err(missing("R")),
    };
    // The LOD operand: for `lod_min` (Mesa's explicit LOD, 2 from a uniform, 6 from a register) a
    // 16-bit value, f16 for a sample and the integer level for a fetch (`agx_pack_lod`; Mesa
    // lowers LODs to 16 bits). Automatic, biased and gradient modes give no explicit LOD.
    let explicit_lod = match (lod_mode, o.op("D")?) {
        (2 | 6, Operand::Reg(r, _)) => Some(*r),
        (2 | 6, _) => return Err(missing("D")),
        _ => None,
    };
    if load && lod_mode != 0 && explicit_lod.is_none() {
        return Err(unsupported(format!("texel fetch with LOD mode {lod_mode}")));
    }
    let mask = o.field("mask");
    check_coordinates(&coords, axes, array)?;
    if load && n == 6 {
        return Err(unsupported("texel fetch from a cube map"));
    }
    if with_offsets && n == 6 {
        return Err(unsupported("texel offsets on a cube map (GLSL has none)"));
    }
    // Automatic LOD (modes 0, and 1 / 5 with a bias from a uniform / register) reads the quad's
    // coordinates, so every thread's are taken before any result is written.
    // Gradient modes (4, 12: Mesa's txd, with a minimum for 12) name 32-bit registers: the
    // derivatives, then the minimum LOD.
    let grad_regs: Vec<Reg> = match (lod_mode, o.op("D")?) {
        (4 | 12, Operand::Tuple(r, _)) => r.clone(),
        (4 | 12, _) => return Err(missing("D")),
        _ => Vec::new(),
    };
    let bias_reg = match (lod_mode, o.op("D")?) {
        (1 | 5, Operand::Reg(r, _)) => Some(*r),
        (1 | 5, _) => return Err(missing("D")),
        _ => None,
    };
    let lanes: Vec<usize> = active(w).collect();
    let mut quad_coords = [None; SIMD_WIDTH];
    if matches!(lod_mode, 0 | 1 | 5) && !load && gather.is_none() {
        for &l in &lanes {
            quad_coords[l] = Some(coordinate_bits(w, &coords, axes, array, l)?);
        }
    }
    let mut linear_filtered = false;
    let mut auto_lod_used = false;
    let mut grad_lod_used = false;
    let mut block_interpolated = false;
    for lane in lanes {
        // The descriptors are the thread's own: a register-indexed or bindless handle may differ
        // between threads.
        let img = Image::new(TextureDesc::decode(&texture_descriptor(w, o, dev, lane)?))?;
        let t = &img.t;
        if t.dimension != n {
            return Err(unsupported(format!(
                "texture kind {n} on a descriptor of dimension {}",
                t.dimension
            )));
        }
        if shadow && !(img.format.channels == 0x21 && img.format.kind == NumKind::Float) {
            // GL 4.6 8.23.1: the comparison's result is undefined unless the texture is a depth
            // one; for Z16 unorm (R16 unorm) GL clamps the reference to [0, 1], and Mesa 25.0
            // hands the hardware the 32-bit reference unconverted (`agx_compile.c`,
            // nir_tex_src_comparator; no NIR lowering clamps or quantizes it), so whether the
            // hardware clamps it and compares at 16 bits or in f32 is not public
            return Err(unsupported(
                "depth comparison on a texture that is not R32 float",
            ));
        }
        let integer = img.format.is_integer().then_some(img.format.kind);
        let s = if load {
            None
        } else {
            let s = SamplerDesc::decode(&sampler_descriptor(w, o, lane)?);
            // Nearest, or linear (only under the opt-in, checked once the sample's filter is
            // known). A gather reads the four texels of GL's LINEAR
            // footprint at the base level whatever the filters (GL 4.6 8.14.2, textureGather),
            // so they do not decide anything for it.
            let any_linear = s.magnify_linear || s.minify_linear;
            if gather.is_none() && integer.is_some() && (any_linear || s.mip_filter == 2) {
                // GL 4.6 8.17: an integer texture with a linear filter is incomplete
                return Err(unsupported(
                    "linear filtering of an integer texture (GL: incomplete texture)",
                ));
            }
            Some(s)
        };
        // `Depth` is 14 bits at 110 (minus 1); bit 126 above it is `Unk tiled`. For arrays it is
        // the layer count.
        let depth = (t.stride_or_depth & 0x3FFF) as u32 + 1;
        if (array || n >= 5) && img.tree.layer_stride.is_none() {
            return Err(unsupported("layered linear image"));
        }
        let values = coordinate_bits(w, &coords, axes, array, lane)?;
        let offsets = match off_reg {
            Some(r) => {
                let packed = w.read(r, lane)? & 0xFFFF;
                if packed >> (4 * axes) != 0 {
                    return Err(unsupported(format!(
                        "thread {lane}: texel offsets {packed:#x} beyond the image's {axes} axes"
                    )));
                }
                unpack_offsets(packed)
            }
            None => [0; 3],
        };
        // A cube direction selects a face (the layer) and normalized (s, t) on it; the face is
        // sampled as a 2D image with clamp-to-edge (GL 4.6 8.13: cube maps ignore the wrap modes
        // for s and t).
        let mut layer = 0u32;
        let mut cube_st = None;
        if n == 6 {
            let [x, y, z] = values.map(f32::from_bits);
            if x.is_nan() || y.is_nan() || z.is_nan() {
                return Err(unsupported(format!(
                    "thread {lane}: NaN texture coordinate"
                )));
            }
            let (face, s_, t_) = cube_face(x, y, z)?;
            layer = face;
            cube_st = Some([s_, t_]);
        }
        if array {
            // Mesa's `agx_nir_lower_array_texture` gives the layer as an integer already rounded
            // and clamped to the layer count; one outside it is a typed error.
            layer = array_layer(w, &coords, axes, lane)?;
            if layer >= depth {
                return Err(unsupported(format!(
                    "thread {lane}: layer {layer} outside 0..{depth}"
                )));
            }
        }
        let lod_value = match explicit_lod {
            Some(r) => Some(w.read(r, lane)? & 0xFFFF),
            None => None,
        };
        let mut filter_linear = false;
        let levels = match &s {
            // texelFetch: the level is the view's base plus the integer LOD (GL 4.6 11.1.3.2);
            // outside the view's levels GL leaves the result undefined
            None => {
                let level = t.first_level + lod_value.unwrap_or(0);
                if level > t.last_level {
                    return Err(unsupported(format!(
                        "thread {lane}: texel fetch from level {level} of {}..={}",
                        t.first_level, t.last_level
                    )));
                }
                vec![(level as usize, 1.0)]
            }
            Some(_) if gather.is_some() => vec![(t.first_level as usize, 1.0)],
            Some(s) => {
                // The LOD decides the level (a mip filter) and, when the filters differ, whether
                // the sample is magnified (GL 4.6 8.14); otherwise it is not read.
                let needs_lod = s.mip_filter != 0 || s.magnify_linear != s.minify_linear;
                let mut lambda = lod_value.map(|v| half::f16::from_bits(v as u16).to_f64());
                let mut min_clamp = f64::NEG_INFINITY;
                if needs_lod && matches!(lod_mode, 4 | 12) {
                    if !w.approximate {
                        return Err(Fault::Unsupported { name: GRADIENT_LOD });
                    }
                    let pairs = grad_regs.len() / 2;
                    if !matches!(n, 0 | 2 | 3 | 5) {
                        // Mesa never emits it for cube maps: `agx_nir_lower_texture.c` sets
                        // nir_lower_tex's `lower_txd_cube_map`, turning a cube txd into an
                        // explicit LOD computed in the shader
                        return Err(unsupported(format!(
                            "gradient LOD on texture kind {n} (1D, 2D, 2D array and 3D are \
                             modelled; Mesa lowers cube-map gradients to explicit LODs)"
                        )));
                    }
                    let mut grads = Vec::with_capacity(2 * pairs);
                    for r in &grad_regs[..2 * pairs] {
                        grads.push(f64::from(f32::from_bits(w.read(*r, lane)? as u32)));
                    }
                    if lod_mode == 12 {
                        // Mesa pads the 16-bit minimum to 32 bits (`agx_pad_to_32`): the f16 is
                        // the low half
                        let r = *grad_regs.last().ok_or_else(|| missing("D"))?;
                        min_clamp = half::f16::from_bits(w.read(r, lane)? as u16).to_f64();
                    }
                    let scale = lod_scale(&img, s, depth)?;
                    lambda = Some(gradient_lod(&grads, scale));
                    grad_lod_used = true;
                }
                if lambda.is_none() && needs_lod && matches!(lod_mode, 0 | 1 | 5) {
                    if !w.approximate {
                        return Err(Fault::Unsupported { name: AUTO_LOD });
                    }
                    let scale = lod_scale(&img, s, depth)?;
                    let bias = match bias_reg {
                        Some(r) => half::f16::from_bits(w.read(r, lane)? as u16).to_f64(),
                        None => 0.0,
                    };
                    lambda = Some(automatic_lod(n, &quad_coords, scale, lane)? + bias);
                    auto_lod_used = true;
                }
                let lambda = match lambda {
                    Some(l) => Some(clamp_lod(s, l, min_clamp, lane)?),
                    None if needs_lod => {
                        return Err(unsupported(format!(
                            "thread {lane}: LOD mode {lod_mode} gives no LOD"
                        )))
                    }
                    None => None,
                };
                // GL 4.6 8.14: lambda <= c magnifies (the base level, the magnification filter);
                // with different filters, a lambda within 2^-6 of c is a typed error (the
                // hardware's LOD precision is not public, as for the level choice)
                let c = magnification_threshold(s);
                let minified = match lambda {
                    Some(l) if s.magnify_linear != s.minify_linear => {
                        if (l - c).abs() < LOD_MARGIN {
                            return Err(unsupported(format!(
                                "thread {lane}: LOD {l} within 2^-6 of the magnification \
                                 threshold {c} (the hardware's LOD precision is not public)"
                            )));
                        }
                        l > c
                    }
                    Some(l) => l > c,
                    None => false,
                };
                filter_linear = if minified {
                    s.minify_linear
                } else {
                    s.magnify_linear
                };
                if minified {
                    mip_levels(t, s, lambda, lane)?
                } else {
                    vec![(t.first_level as usize, 1.0)]
                }
            }
        };
        if s.is_some() && gather.is_none() && (filter_linear || levels.len() > 1) {
            if !w.approximate {
                return Err(Fault::Unsupported {
                    name: LINEAR_FILTER,
                });
            }
            linear_filtered = true;
        }
        let border = match &s {
            Some(s) => Some(border_colour_of(w, o, s, &img.format, lane)?),
            None => None,
        };
        let mut px = [0f64; 4];
        let mut first = true;
        for &(level_index, level_weight) in &levels {
            let level = img.level(level_index)?;
            // a 3D image's level l has max(depth >> l, 1) slices (`miptree.rs`)
            let slices = match n {
                6 => 6,
                5 => minify(depth, level_index as u32),
                _ => depth,
            };
            let size = [level.width, level.height, slices];
            // Per spatial axis, the texel indices before wrapping and their weights: one of weight
            // 1 (nearest, texel fetches), or two (linear). Axes the image lacks, and the
            // layer of arrays and cube maps, hold the fixed `layer`.
            let mut taps: [Vec<(i64, f64)>; 3] = [
                vec![(0, 1.0)],
                vec![(0, 1.0)],
                vec![(i64::from(layer), 1.0)],
            ];
            let spatial = if n == 6 { 2 } else { axes };
            for (d, slot) in taps.iter_mut().enumerate().take(spatial) {
                let raw = values[d];
                *slot = match &s {
                    None => {
                        // texelFetchOffset: the offset is added to the integer texel (GL 4.6,
                        // 11.1.3.2)
                        let i = i64::from(raw as i32) + offsets[d];
                        if !(0..i64::from(size[d])).contains(&i) {
                            return Err(unsupported(format!(
                                "thread {lane}: texel {i} outside 0..{} (GL: undefined)",
                                size[d]
                            )));
                        }
                        vec![(i, 1.0)]
                    }
                    Some(s) => {
                        let c = match cube_st {
                            Some(st) => st[d],
                            None => f64::from(f32::from_bits(raw)),
                        };
                        if c.is_nan() {
                            return Err(unsupported(format!(
                                "thread {lane}: NaN texture coordinate"
                            )));
                        }
                        let u = if s.pixel_coordinates {
                            c
                        } else {
                            c * f64::from(size[d])
                        };
                        let floor = |u: f64| {
                            u.floor().clamp(-(1i64 << 40) as f64, (1i64 << 40) as f64) as i64
                                + offsets[d]
                        };
                        if filter_linear || gather.is_some() {
                            // GL 4.6 8.14.2, LINEAR (and textureGather's footprint): i0 =
                            // floor(u - 1/2), i1 = i0 + 1, each wrapped, weights 1 - a and a for
                            // a = frac(u - 1/2) (u plus the integer offset)
                            let i0 = floor(u - 0.5);
                            let a = (u - 0.5) - (u - 0.5).floor();
                            vec![(i0, 1.0 - a), (i0 + 1, a)]
                        } else {
                            // GL 4.6 8.14.2, NEAREST: u = s * size + offset, i = wrap(floor(u));
                            // the offset is an integer, so floor(u) = floor(s * size) + offset.
                            vec![(floor(u), 1.0)]
                        }
                    }
                };
            }
            // One texel: the image's, or the border colour when any axis is outside (GL 4.6
            // 8.14.2: a border texel has the border colour in every component), compared first
            // when the instruction compares (GL 4.6 8.23.1: the comparison applies to each texel
            // the filter reads, a border texel's depth being the border's).
            let place = TexelPlace {
                size,
                spatial,
                wrap: s.as_ref().map_or([0; 3], |s| s.wrap),
                face: cube_st.map(|_| (layer, s.as_ref().is_some_and(|s| !s.seamful_cube_maps))),
                lane,
            };
            let mut fetch = |x: i64, y: i64, z: i64| {
                let mut read = |(x, y, z)| img.texel(level_index, (x, y, z), dev, (&mut *w, lane));
                let mut v = match place.resolve(x, y, z)? {
                    Texel::At(at) => read(at)?,
                    Texel::Border => {
                        border.ok_or_else(|| unsupported("border texel without a sampler"))?
                    }
                    Texel::Corner(others) => {
                        // GL 4.6 8.13: a seamless footprint's corner texel has no face; GL
                        // recommends the mean of the three others and requires their value
                        // when they are equal. Only that case is certain.
                        let a = read(others[0])?;
                        if read(others[1])? != a || read(others[2])? != a {
                            return Err(unsupported(format!(
                                "thread {lane}: seamless cube footprint on a cube corner whose \
                                 three texels differ (GL 4.6 8.13 leaves the fourth open)"
                            )));
                        }
                        a
                    }
                };
                if let (Some(r), Some(s)) = (ref_reg, &s) {
                    let d_ref = f32::from_bits(w.read(r, lane)? as u32);
                    v[0] = depth_compare(s.compare_func, d_ref, v[0], lane)?;
                }
                Ok::<[f64; 4], Fault>(v)
            };
            if let Some(comp) = gather {
                // GL 4.6 8.14.2, textureGather: component `comp` (after the descriptor's swizzle)
                // of the texels (i0, j1), (i1, j1), (i1, j0), (i0, j0), in that order. Mesa's
                // `agx_emit_tex` hands the hardware's four results to NIR's tg4 unreordered, so
                // the hardware's order is GL's (the driver is conformant with it). A shadow
                // gather (the compare bit) returns each texel's comparison (GL 4.6 8.23.1).
                let (i, j) = ([taps[0][0].0, taps[0][1].0], [taps[1][0].0, taps[1][1].0]);
                let mut out = [0f64; 4];
                for (v, (x, y)) in
                    out.iter_mut()
                        .zip([(i[0], j[1]), (i[1], j[1]), (i[1], j[0]), (i[0], j[0])])
                {
                    let texel_value = fetch(x, y, i64::from(layer))?;
                    *v = swizzled(&texel_value, t.swizzle[comp])?;
                }
                write_result(w, &dst, mask, lane, out, integer)?;
                break;
            }
            // The weighted sum of the taps in f64 (exact for nearest: one tap of weight 1); the
            // comparison's result takes the depth's place (R) and goes through the descriptor's
            // swizzle like a texel: Mesa reads the result from the first component and leaves
            // GL's depth texture mode (R, RRR1, ...) to the view's swizzle.
            for &(z, wz) in &taps[2] {
                for &(y, wy) in &taps[1] {
                    for &(x, wx) in &taps[0] {
                        let texel_value = fetch(x, y, z)?;
                        let weight = level_weight * wx * wy * wz;
                        for (acc, v) in px.iter_mut().zip(texel_value) {
                            // the first product is stored, not added to +0 (a nearest -0.0
                            // stays -0.0)
                            *acc = if first { weight * v } else { *acc + weight * v };
                        }
                        first = false;
                    }
                }
            }
        }
        block_interpolated |= img.interpolated.get();
        if gather.is_some() {
            continue;
        }
        let mut out = [0f64; 4];
        for (v, &k) in out.iter_mut().zip(&t.swizzle) {
            *v = swizzled(&px, k)?;
        }
        write_result(w, &dst, mask, lane, out, integer)?;
    }
    if linear_filtered {
        *w.approximated.entry(LINEAR_FILTER).or_insert(0) += 1;
    }
    if auto_lod_used {
        *w.approximated.entry(AUTO_LOD).or_insert(0) += 1;
    }
    if grad_lod_used {
        *w.approximated.entry(GRADIENT_LOD).or_insert(0) += 1;
    }
    if block_interpolated {
        *w.approximated.entry(BLOCK_INTERPOLATION).or_insert(0) += 1;
    }
    Ok(())
}

/// The base level's size on each axis, the derivatives' scale in GL 4.6 8.14.1 (1 with pixel
/// coordinates).
fn lod_scale(img: &Image, s: &SamplerDesc, depth: u32) -> Result<[f64; 3], Fault> {
    let base = img.level(img.t.first_level as usize)?;
    Ok(if s.pixel_coordinates {
        [1.0; 3]
    } else {
        [
            f64::from(base.width),
            f64::from(base.height),
            f64::from(minify(depth, img.t.first_level as u32)),
        ]
    })
}

/// GL 4.6 8.14.1's level of detail from implicit derivatives, the opt-in's documented intent (the
/// hardware's derivative and LOD arithmetic are not public): the coordinates scaled by the base
/// level's size; the derivatives are fine ones within the 2x2 quad (thread 4q + dx + 2dy, as
/// `dfdx`/`dfdy`): d/dx from the thread's row, d/dy from its column; rho = max(|d/dx|, |d/dy|)
/// (Euclidean lengths over the image's axes: 1D, 2D, 2D array, 3D), lambda = log2(rho), in f64.
/// A cube map's (s, t) derivatives are GL 4.6 8.13's: with the thread's own face, sc, tc and
/// |ma| (Table 8.19) and their derivatives taken from the directions' differences in that face's
/// frame, ds/dx = (dsc/dx |ma| - sc d|ma|/dx) / (2 ma^2) (and so on), scaled by the face's size.
/// A quad thread that is not running is a typed error.
fn automatic_lod(
    n: u64,
    quad_coords: &[Option<[u32; 3]>; SIMD_WIDTH],
    scale: [f64; 3],
    lane: usize,
) -> Result<f64, Fault> {
    let axes = match n {
        0 => 1,
        2 | 3 => 2,
        5 | 6 => 3,
        _ => {
            return Err(unsupported(format!(
                "automatic LOD on texture kind {n} (1D, 2D, 2D array, 3D and cube are modelled)"
            )))
        }
    };
    let coords = |l: usize| -> Result<[f64; 3], Fault> {
        let b = quad_coords[l].ok_or_else(|| {
            unsupported(format!(
                "thread {lane}: automatic LOD with quad thread {l} not running"
            ))
        })?;
        Ok(std::array::from_fn(|d| {
            if d < axes {
                f64::from(f32::from_bits(b[d]))
            } else {
                0.0
            }
        }))
    };
    let quad = lane & !3;
    let (row, col) = (quad + (lane & 2), quad + (lane & 1));
    let (x0, x1, y0, y1) = (
        coords(row)?,
        coords(row + 1)?,
        coords(col)?,
        coords(col + 2)?,
    );
    let diff = |a: [f64; 3], b: [f64; 3]| -> [f64; 3] { std::array::from_fn(|d| b[d] - a[d]) };
    let (dx, dy) = (diff(x0, x1), diff(y0, y1));
    let length = |v: [f64; 3]| v.iter().map(|c| c * c).sum::<f64>().sqrt();
    let rho = if n == 6 {
        let own = coords(lane)?;
        let (face, _, _, _) = table_8_19(own[0], own[1], own[2]).ok_or_else(|| {
            unsupported(format!(
                "thread {lane}: cube direction {own:?} with no single major axis"
            ))
        })?;
        let [sc, tc, ma] = cube_frame(face, own);
        let st = |d: [f64; 3]| -> [f64; 3] {
            let [dsc, dtc, dma] = cube_frame(face, d);
            [
                (dsc * ma - sc * dma) / (2.0 * ma * ma) * scale[0],
                (dtc * ma - tc * dma) / (2.0 * ma * ma) * scale[1],
                0.0,
            ]
        };
        length(st(dx)).max(length(st(dy)))
    } else {
        let scaled = |v: [f64; 3]| -> [f64; 3] { std::array::from_fn(|d| v[d] * scale[d]) };
        length(scaled(dx)).max(length(scaled(dy)))
    };
    Ok(rho.log2())
}

/// GL 4.6 Table 8.19's (sc, tc, |ma|) of face `f` as a linear map of (x, y, z) (the major axis
/// with the face's sign), so that it also maps derivatives.
fn cube_frame(f: u32, [x, y, z]: [f64; 3]) -> [f64; 3] {
    match f {
        0 => [-z, -y, x],
        1 => [z, -y, -x],
        2 => [x, z, y],
        3 => [x, -z, -y],
        4 => [x, -y, z],
        _ => [-x, -y, -z],
    }
}

/// The name automatic LOD with a mip filter is counted and refused under (see
/// [`automatic_lod`]).
pub const AUTO_LOD: &str = "texture automatic LOD";

/// applegpu's coordinate operand: 32-bit registers, except that an array's form names 16-bit
/// halves, two per 32-bit coordinate and then the layer in one half (Mesa's lowering computes it
/// as a 32-bit integer whose low half this is).
pub(super) fn check_coordinates(coords: &[Reg], axes: usize, array: bool) -> Result<(), Fault> {
    let well_formed = if array {
        coords.len() == 2 * axes + 1 && coords.iter().all(|r| r.file == RegFile::R16)
    } else {
        coords.len() >= axes && coords.iter().all(|r| r.file == RegFile::R32)
    };
    if well_formed {
        Ok(())
    } else {
        Err(unsupported("16-bit texture coordinates"))
    }
}

/// The 32 bits of each of the first `axes` coordinates (see [`check_coordinates`]).
pub(super) fn coordinate_bits(
    w: &WaveState,
    coords: &[Reg],
    axes: usize,
    array: bool,
    lane: usize,
) -> Result<[u32; 3], Fault> {
    let mut values = [0u32; 3];
    for (d, v) in values.iter_mut().enumerate().take(axes) {
        *v = if array {
            w.read(coords[2 * d], lane)? as u32 | (w.read(coords[2 * d + 1], lane)? as u32) << 16
        } else {
            w.read(coords[d], lane)? as u32
        };
    }
    Ok(values)
}

/// An array form's layer: the 16-bit half after the coordinates.
pub(super) fn array_layer(
    w: &WaveState,
    coords: &[Reg],
    axes: usize,
    lane: usize,
) -> Result<u32, Fault> {
    Ok(w.read(coords[2 * axes], lane)? as u32)
}

/// The component a gather reads, from applegpu's `q6` field (bits 86-90): 0 none, 2 / 6 / 10 / 14
/// gather R / G / B / A (Mesa's `agx_gather_for_nir` value shifted up one: 0b001, 0b011, 0b101,
/// 0b111 at bit 87, `agx_pack.c`). A shadow gather is the same with the `compare` bit. applegpu's
/// `compare` (1) and `gather_depth` (3) forms, the low bit set, Mesa never emits.
fn gather_component(q6: u64) -> Result<Option<usize>, Fault> {
    match q6 {
        0 => Ok(None),
        2 | 6 | 10 | 14 => Ok(Some((q6 >> 2) as usize)),
        _ => Err(unsupported(format!(
            "texture q6 = {q6} (gathers of R, G, B or A are modelled)"
        ))),
    }
}

/// The gathers modelled: `texture_sample` of a 2D, 2D array or cube image (GL's textureGather
/// takes no 1D or 3D sampler), with or without a depth comparison, the automatic LOD mode (GL's
/// gathers take no LOD or bias; the base level is read) and all four components written: Mesa's
/// `agx_emit_tex` always asks for all four, as destination masking "doesn't seem to work properly
/// for gathers", so a partial mask's effect is unknown.
fn check_gather_form(load: bool, n: u64, lod: u64, mask: u64) -> Result<(), Fault> {
    let why = if load {
        "a texel fetch"
    } else if !matches!(n, 2 | 3 | 6) {
        "a texture kind other than 2D, 2D array or cube"
    } else if lod != 0 {
        "an LOD mode other than automatic"
    } else if mask != 0xF {
        "a write mask other than xyzw"
    } else {
        return Ok(());
    };
    Err(unsupported(format!(
        "texture gather with {why} (n = {n}, lod = {lod}, mask = {mask:#x})"
    )))
}

/// Component `k` of the descriptor's swizzle (cmdbuf.xml: R, G, B, A, 1, 0) of texel `px`.
pub(super) fn swizzled(px: &[f64; 4], k: u64) -> Result<f64, Fault> {
    Ok(match k {
        0..=3 => px[k as usize],
        4 => 1.0,
        5 => 0.0,
        k => return Err(unsupported(format!("swizzle {k}"))),
    })
}

/// Writes the components `mask` selects, contiguously from R's first register, each rounded once
/// to the register's width; an integer format's values (`integer`) as integers: 32 bits, or 16
/// when the value fits the 16-bit register as the format's signedness reads it (a wider value is
/// a typed error: whether the hardware truncates or clamps it is not public).
pub(super) fn write_result(
    w: &mut WaveState,
    dst: &[Reg],
    mask: u64,
    lane: usize,
    out: [f64; 4],
    integer: Option<NumKind>,
) -> Result<(), Fault> {
    let mut regs = dst.iter();
    for (c, v) in out.into_iter().enumerate() {
        if mask >> c & 1 == 0 {
            continue;
        }
        let reg = *regs.next().ok_or_else(|| missing("R"))?;
        let wide = matches!(reg.file, RegFile::R32);
        let bits = if let Some(kind) = integer {
            let i = v as i64;
            let fits = match kind {
                NumKind::Sint => (-(1 << 15)..1 << 15).contains(&i),
                _ => (0..1 << 16).contains(&i),
            };
            if !wide && !fits {
                return Err(unsupported(format!(
                    "thread {lane}: integer texel {i} into a 16-bit register"
                )));
            }
            (i as u32 & if wide { u32::MAX } else { 0xFFFF }) as u128
        } else if wide {
            (v as f32).to_bits() as u128
        } else {
            half::f16::from_f64(v).to_bits() as u128
        };
        w.write(reg, lane, bits)?;
    }
    Ok(())
}

/// The name linear filtering is counted and refused under: the hardware's filter weights (their
/// precision, the rounding of the weighted sum) are not public, so without the opt-in
/// ([`WaveState::approximate`]) a linear sampler stops; with it, the GL 4.6 8.14.2 formula is
/// evaluated in f64 and rounded once to the destination.
pub const LINEAR_FILTER: &str = "texture linear filter";
