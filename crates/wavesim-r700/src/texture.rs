//! Texture resources (1-D, 1-D array, 2-D, 2-D array, 3-D and cube maps; SQ_TEX_RESOURCE DIM) and samplers
//! for TEX_SAMPLE, TEX_LD and GET_TEXTURE_RESINFO: RGBA8 (unorm), RGBA32F and one-component 32-bit
//! float (depth) texels, the resource's DST_SEL swizzle; point and
//! bilinear filtering; wrap, clamp-to-edge and border-colour addressing (R700 ISA reference, 2.5 texture
//! samplers/resources and the border colour; SQ_TEX_SAMPLER_WORD0 clamp modes in AMD's R700 register
//! reference). Bilinear weights are computed in binary32 (the hardware's weight quantisation is not in the
//! sources wavesim uses; tests use texel-exact or midpoint coordinates).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexFormat {
    Rgba8Unorm,
    Rgba32Float,
    /// One binary32 component (FMT_32_FLOAT, what Mesa's r600 driver gives PIPE_FORMAT_Z32_FLOAT
    /// depth textures): the texel's X; Y/Z/W do not exist, so the resource swizzle must not select
    /// them (checked by `Texture::set_swizzle`).
    Depth32Float,
}

/// SQ_TEX_RESOURCE_WORD4 DST_SEL_X..W values (R700 ISA reference, texture resource; Mesa's
/// `r600_get_swizzle_combined`): 0..3 select the fetched X/Y/Z/W, 4 gives 0.0 and 5 gives 1.0.
pub const SEL_0: u8 = 4;
pub const SEL_1: u8 = 5;

/// SQ_TEX_RESOURCE_WORD0 DIM (the dimensions R700 resources have; MSAA forms are not modelled).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexDim {
    D1,
    D1Array,
    D2,
    D2Array,
    D3,
    Cube,
}

#[derive(Clone, Debug)]
pub struct Texture {
    pub dim: TexDim,
    pub width: u32,
    pub height: u32,
    pub format: TexFormat,
    /// Texels decoded to floats, row-major.
    pub texels: Vec<[f32; 4]>,
    /// Mip levels 1, 2, ... (level k is max(1, width >> k) x max(1, height >> k), the D3D/GL mip-chain
    /// rule the resource's BASE_LEVEL..LAST_LEVEL range follows); empty for a single-level texture.
    pub mips: Vec<Texture>,
    /// For a cube-map resource (SQ_TEX_RESOURCE DIM = cube): its six faces in the face-id order of the
    /// CUBE instruction (+X, -X, +Y, -Y, +Z, -Z); empty for a 2-D texture. A cube's own `texels` are
    /// unused.
    pub faces: Vec<Texture>,
    /// The layers of a 1-D or 2-D array, or the depth slices of a 3-D texture (each a 2-D texture with
    /// its own mip levels; a 1-D layer has height 1); empty otherwise. The resource's own `texels` are
    /// unused then.
    pub slices: Vec<Texture>,
    /// The resource's DST_SEL_X..W (SQ_TEX_RESOURCE_WORD4): which fetched component, 0.0 or 1.0
    /// each result component takes before the instruction's own DST_SEL (identity by default).
    pub swizzle: [u8; 4],
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Filter {
    Point,
    Bilinear,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Wrap {
    Repeat,
    ClampToEdge,
    Border,
}

/// SQ_TEX_SAMPLER_WORD0 MIP_FILTER: none (the base level), point (nearest level) or linear (blend of the
/// two nearest levels).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MipFilter {
    None,
    Point,
    Linear,
}

/// SQ_TEX_SAMPLER_WORD0 DEPTH_COMPARE_FUNCTION for SAMPLE_C*: the test is `reference OP texel`
/// (Mesa's r600 driver maps GL's compare functions, defined as `r OP D_t`, to these values unchanged).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CompareFunc {
    Never,
    Less,
    Equal,
    LessEqual,
    Greater,
    NotEqual,
    GreaterEqual,
    Always,
}

impl CompareFunc {
    /// IEEE comparisons: with a NaN operand only NOTEQUAL (and ALWAYS) pass.
    pub fn test(self, reference: f32, texel: f32) -> bool {
        match self {
            CompareFunc::Never => false,
            CompareFunc::Less => reference < texel,
            CompareFunc::Equal => reference == texel,
            CompareFunc::LessEqual => reference <= texel,
            CompareFunc::Greater => reference > texel,
            CompareFunc::NotEqual => reference != texel,
            CompareFunc::GreaterEqual => reference >= texel,
            CompareFunc::Always => true,
        }
    }
}

#[derive(Clone, Copy, Debug)]
pub struct Sampler {
    pub filter: Filter,
    pub wrap_u: Wrap,
    pub wrap_v: Wrap,
    /// CLAMP_Z and Z_FILTER (3-D textures only): addressing and filter across depth slices.
    pub wrap_w: Wrap,
    pub z_filter: Filter,
    pub border: [f32; 4],
    pub mip_filter: MipFilter,
    pub compare: Option<CompareFunc>,
}

impl Texture {
    pub fn new(
        width: u32,
        height: u32,
        format: TexFormat,
        bytes: &[u8],
    ) -> Result<Texture, String> {
        if width == 0 || height == 0 || width > 8192 || height > 8192 {
            return Err(format!("texture size {width}x{height} is outside 1..8192"));
        }
        let n = (width * height) as usize;
        let (name, per_texel) = match format {
            TexFormat::Rgba8Unorm => ("RGBA8", 4),
            TexFormat::Rgba32Float => ("RGBA32F", 16),
            TexFormat::Depth32Float => ("depth32f", 4),
        };
        if bytes.len() != n * per_texel {
            return Err(format!(
                "{name} texture {width}x{height} needs {} bytes, got {}",
                n * per_texel,
                bytes.len()
            ));
        }
        let f32_at = |c: &[u8], k: usize| {
            f32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]])
        };
        let chunks = bytes.chunks_exact(per_texel);
        let texels = match format {
            TexFormat::Rgba8Unorm => chunks
                .map(|c| std::array::from_fn(|k| c[k] as f32 / 255.0))
                .collect(),
            TexFormat::Rgba32Float => chunks
                .map(|c| std::array::from_fn(|k| f32_at(c, k)))
                .collect(),
            // Y/Z/W are never read: `set_swizzle` refuses a swizzle that selects them.
            TexFormat::Depth32Float => chunks.map(|c| [f32_at(c, 0), 0.0, 0.0, 0.0]).collect(),
        };
        Ok(Texture {
            dim: TexDim::D2,
            width,
            height,
            format,
            texels,
            mips: Vec::new(),
            faces: Vec::new(),
            slices: Vec::new(),
            swizzle: [0, 1, 2, 3],
        })
    }

    /// A 1-D texture (`width` texels; a 2-D texture of height 1 that is sampled at its only row).
    pub fn new_1d(width: u32, format: TexFormat, bytes: &[u8]) -> Result<Texture, String> {
        let mut t = Texture::new(width, 1, format, bytes)?;
        t.dim = TexDim::D1;
        Ok(t)
    }

    /// A 1-D array, 2-D array or 3-D texture from its `n` layers' (slices') bytes, one after another.
    pub fn new_layered(
        dim: TexDim,
        width: u32,
        height: u32,
        n: u32,
        format: TexFormat,
        bytes: &[u8],
    ) -> Result<Texture, String> {
        if n == 0 || n > 8192 || bytes.is_empty() || !bytes.len().is_multiple_of(n as usize) {
            return Err(format!(
                "{n} layers (slices) of equal size do not make up {} bytes",
                bytes.len()
            ));
        }
        let slices = bytes
            .chunks_exact(bytes.len() / n as usize)
            .enumerate()
            .map(|(k, b)| {
                Texture::new(width, height, format, b).map_err(|e| format!("layer/slice {k}: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Texture {
            dim,
            width,
            height,
            format,
            texels: Vec::new(),
            mips: Vec::new(),
            faces: Vec::new(),
            slices,
            swizzle: [0, 1, 2, 3],
        })
    }

    /// A cube map from its six faces' bytes, one `width` x `height` face after another in face-id order
    /// (+X, -X, +Y, -Y, +Z, -Z).
    pub fn new_cube(
        width: u32,
        height: u32,
        format: TexFormat,
        bytes: &[u8],
    ) -> Result<Texture, String> {
        // No data would be six empty faces (and a zero chunk size below).
        if bytes.is_empty() {
            return Err("a cube map needs data for its six faces".into());
        }
        if !bytes.len().is_multiple_of(6) {
            return Err(format!(
                "a cube map needs six equal faces, got {} bytes",
                bytes.len()
            ));
        }
        let faces = bytes
            .chunks_exact(bytes.len() / 6)
            .enumerate()
            .map(|(k, b)| {
                Texture::new(width, height, format, b).map_err(|e| format!("cube face {k}: {e}"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Texture {
            dim: TexDim::Cube,
            width,
            height,
            format,
            texels: Vec::new(),
            mips: Vec::new(),
            faces,
            slices: Vec::new(),
            swizzle: [0, 1, 2, 3],
        })
    }

    /// Sets the resource's DST_SEL_X..W (values 0..5, see `SEL_0`/`SEL_1`). A one-component format
    /// has no Y/Z/W to select: Mesa's r600 driver composes depth formats with XXXX
    /// (`r600_translate_texformat`), so it never asks for them, and what the unit would return is
    /// not in the sources wavesim uses.
    pub fn set_swizzle(&mut self, swizzle: [u8; 4]) -> Result<(), String> {
        if swizzle.iter().any(|&s| s > SEL_1) {
            return Err(format!("resource swizzle {swizzle:?} has a select above 5"));
        }
        if self.format == TexFormat::Depth32Float && swizzle.iter().any(|s| (1..=3).contains(s)) {
            return Err(
                "a depth32f texture has only X: its resource swizzle may select x, 0 or 1".into(),
            );
        }
        self.swizzle = swizzle;
        Ok(())
    }

    /// The resource swizzle applied to fetched components `raw`.
    pub fn swizzled(&self, raw: [u32; 4]) -> [u32; 4] {
        self.swizzle.map(|s| match s {
            0..=3 => raw[s as usize],
            SEL_0 => 0,
            _ => 1.0f32.to_bits(),
        })
    }

    pub fn is_cube(&self) -> bool {
        !self.faces.is_empty()
    }

    /// Adds mip level `levels()` from its bytes (same format as level 0): for a cube map six faces and
    /// for an array every layer, one after another, each `max(1, size >> k)` texels a side. 3-D mip
    /// chains (whose depth halves too) are not modelled.
    pub fn push_mip(&mut self, bytes: &[u8]) -> Result<(), String> {
        let parts = match self.dim {
            TexDim::Cube => &mut self.faces,
            TexDim::D1Array | TexDim::D2Array => &mut self.slices,
            TexDim::D3 => return Err("3-D textures with mip levels are not modelled".into()),
            TexDim::D1 | TexDim::D2 => return self.push_mip_2d(bytes),
        };
        let n = parts.len();
        if n == 0 || bytes.is_empty() || !bytes.len().is_multiple_of(n) {
            return Err(format!(
                "a mip level of {n} faces/layers needs {n} equal parts, got {} bytes",
                bytes.len()
            ));
        }
        for (p, b) in parts.iter_mut().zip(bytes.chunks_exact(bytes.len() / n)) {
            p.push_mip_2d(b)?;
        }
        Ok(())
    }

    fn push_mip_2d(&mut self, bytes: &[u8]) -> Result<(), String> {
        let k = self.mips.len() as u32 + 1;
        if k > 13 {
            return Err("at most 14 mip levels (8192 >> 13 = 1)".into());
        }
        let (w, h) = ((self.width >> k).max(1), (self.height >> k).max(1));
        if w == 1
            && h == 1
            && self
                .mips
                .last()
                .is_some_and(|m| m.width == 1 && m.height == 1)
        {
            return Err(format!("mip level {k} is past the 1x1 level"));
        }
        let level = Texture::new(w, h, self.format, bytes)
            .map_err(|e| format!("mip level {k} ({w}x{h}): {e}"))?;
        self.mips.push(level);
        Ok(())
    }

    /// Mip levels (of each face or layer for cube maps and arrays).
    pub fn levels(&self) -> usize {
        match self.faces.first().or(self.slices.first()) {
            Some(p) if self.dim != TexDim::D3 => p.levels(),
            _ => 1 + self.mips.len(),
        }
    }

    /// Level `k` of a 1-D or 2-D texture (or of one face or layer); None past the chain.
    pub fn level_checked(&self, k: usize) -> Option<&Texture> {
        match k {
            0 => Some(self),
            _ => self.mips.get(k - 1),
        }
    }

    fn level(&self, k: usize) -> &Texture {
        match k.checked_sub(1).and_then(|i| self.mips.get(i)) {
            Some(m) => m,
            None => self,
        }
    }
}

/// Which level(s) a level-of-detail selects and with what weight. `lod` is binary32 (the hardware's LOD
/// precision is not in the sources wavesim uses). MIP_FILTER none samples the base level; point takes the
/// nearest level (halves round up); linear blends floor(lod) and the next level by the fraction, clamped
/// to the chain.
pub fn select_levels(t: &Texture, s: &Sampler, lod: f32) -> Result<(usize, usize, f32), String> {
    if lod.is_nan() {
        return Err("the level of detail is NaN".into());
    }
    let last = (t.levels() - 1) as f32;
    let l = lod.clamp(0.0, last);
    Ok(match s.mip_filter {
        MipFilter::None => (0, 0, 0.0),
        MipFilter::Point => {
            let k = (l + 0.5).floor().min(last) as usize;
            (k, k, 0.0)
        }
        MipFilter::Linear => {
            let k = l.floor();
            let f = l - k;
            let k = k as usize;
            (k, (k + 1).min(t.levels() - 1), f)
        }
    })
}

/// Samples the texture at `lod` (see [`select_levels`]).
pub fn sample_lod(t: &Texture, s: &Sampler, u: f32, v: f32, lod: f32) -> Result<[u32; 4], String> {
    let (a, b, f) = select_levels(t, s, lod)?;
    let x = sample(t.level(a), s, u, v)?;
    if a == b || f == 0.0 {
        return Ok(x);
    }
    let y = sample(t.level(b), s, u, v)?;
    Ok(std::array::from_fn(|k| {
        let (p, q) = (f32::from_bits(x[k]), f32::from_bits(y[k]));
        (p + (q - p) * f).to_bits()
    }))
}

/// Texel coordinate after addressing, or None for the border colour.
fn address(i: i64, size: u32, wrap: Wrap) -> Option<u32> {
    let n = size as i64;
    match wrap {
        Wrap::Repeat => Some(i.rem_euclid(n) as u32),
        Wrap::ClampToEdge => Some(i.clamp(0, n - 1) as u32),
        Wrap::Border => (0..n).contains(&i).then_some(i as u32),
    }
}

fn texel(t: &Texture, s: &Sampler, x: i64, y: i64) -> [f32; 4] {
    match (
        address(x, t.width, s.wrap_u),
        address(y, t.height, s.wrap_v),
    ) {
        (Some(x), Some(y)) => t.texels[(y * t.width + x) as usize],
        _ => s.border,
    }
}

/// Samples level 0 at normalized (u, v); returns raw bits of the four channels.
pub fn sample(t: &Texture, s: &Sampler, u: f32, v: f32) -> Result<[u32; 4], String> {
    if !u.is_finite() || !v.is_finite() {
        return Err(format!("texture coordinate ({u}, {v}) is not finite"));
    }
    let x = u as f64 * t.width as f64;
    let y = v as f64 * t.height as f64;
    let out = match s.filter {
        Filter::Point => texel(t, s, x.floor() as i64, y.floor() as i64),
        Filter::Bilinear => {
            let (x, y) = (x - 0.5, y - 0.5);
            let (x0, y0) = (x.floor(), y.floor());
            let (fx, fy) = ((x - x0) as f32, (y - y0) as f32);
            let (x0, y0) = (x0 as i64, y0 as i64);
            let a = texel(t, s, x0, y0);
            let b = texel(t, s, x0.saturating_add(1), y0);
            let c = texel(t, s, x0, y0.saturating_add(1));
            let d = texel(t, s, x0.saturating_add(1), y0.saturating_add(1));
            std::array::from_fn(|k| {
                let top = a[k] + (b[k] - a[k]) * fx;
                let bot = c[k] + (d[k] - c[k]) * fx;
                top + (bot - top) * fy
            })
        }
    };
    Ok(out.map(f32::to_bits))
}

/// Samples a cube map at the coordinates Mesa's r600 driver builds from the CUBE instruction's result
/// (`r600_nir_lower_cube_to_2darray` in Mesa's sfn_nir_lower_tex.cpp): x = sc / |2 ma| + 1.5,
/// y = tc / |2 ma| + 1.5 and the face id in z, since CUBE returns 2 ma. The face coordinates are therefore
/// s = x - 1 and t = y - 1, which equal the OpenGL 4.6 specification's s = (sc / |ma| + 1) / 2 and
/// t = (tc / |ma| + 1) / 2 (8.13 "Cube Map Texture Selection"); the two sources agree. How the texture unit
/// filters across a face edge (seamless or per-face clamping) is not in the sources wavesim uses, so a
/// point sample outside the face or a bilinear footprint that leaves it is an error, as is a face id other
/// than 0..5.
pub fn sample_cube(
    t: &Texture,
    s: &Sampler,
    x: f32,
    y: f32,
    face: f32,
    lod: f32,
) -> Result<[u32; 4], String> {
    if !(face.fract() == 0.0 && (0.0..=5.0).contains(&face)) {
        return Err(format!("cube face id {face} is not one of 0..5"));
    }
    let f = t
        .faces
        .get(face as usize)
        .ok_or_else(|| "the resource is not a cube map".to_string())?;
    let (u, v) = (x - 1.0, y - 1.0);
    if !u.is_finite() || !v.is_finite() {
        return Err(format!("cube coordinate ({x}, {y}) is not finite"));
    }
    // Mip levels of a cube map are levels of each face (the same chain rule as 2-D textures); the edge
    // test applies at every level the LOD selects.
    let (a, b, w) = select_levels(f, s, lod)?;
    for k in [a, b] {
        let l = f.level(k);
        let (px, py) = (u as f64 * l.width as f64, v as f64 * l.height as f64);
        let inside = |p: f64, n: u32| match s.filter {
            Filter::Point => p >= 0.0 && p.floor() < n as f64,
            Filter::Bilinear => p - 0.5 >= 0.0 && (p - 0.5).floor() + 1.0 < n as f64,
        };
        if (k == a || w != 0.0) && (!inside(px, l.width) || !inside(py, l.height)) {
            return Err(format!(
                "cube face {face} level {k} sample at ({u}, {v}) reaches past the face's edge (edge filtering is not in the sources wavesim uses)"
            ));
        }
    }
    sample_lod(f, s, u, v, lod)
}

/// The layer an array coordinate selects. Mesa's r600 emitters put the layer in Z, rounded to the
/// nearest even integer by an RNDNE before the fetch and marked unnormalized (sfn_instr_tex.cpp,
/// `prepare_source`: "array index always goes into z", `z_unnormalized`); they do not clamp it, so the
/// texture unit clamps it to the layers as OpenGL 4.6 (8.14.2, "layer = clamp(RNE(r), 0, d - 1)")
/// requires. How the unit treats a layer that is not an integer (or a normalized one) is not in the
/// sources used: an error.
pub fn array_layer(t: &Texture, z: f32, normalized: bool) -> Result<&Texture, String> {
    if normalized {
        return Err("an array layer coordinate marked normalized (Mesa marks it unnormalized; the unit's rule for normalized layers is not in the sources used)".into());
    }
    if !z.is_finite() || z.fract() != 0.0 {
        return Err(format!(
            "array layer coordinate {z} is not an integer (Mesa rounds it with RNDNE first; the unit's rounding is not in the sources used)"
        ));
    }
    let n = t.slices.len();
    if n == 0 {
        return Err("the resource is not an array".into());
    }
    Ok(&t.slices[(z.max(0.0) as usize).min(n - 1)])
}

/// Samples a 3-D texture (one level) at normalized (u, v, w): each slice is filtered in x/y as a 2-D
/// texture, then Z_FILTER point takes the slice containing w (addressed by CLAMP_Z) and linear blends the
/// two nearest slices by the binary32 fraction, as bilinear blends texels (OpenGL 4.6, 8.14.2, the
/// three-dimensional case of LINEAR).
pub fn sample_3d(t: &Texture, s: &Sampler, u: f32, v: f32, w: f32) -> Result<[u32; 4], String> {
    if !w.is_finite() {
        return Err(format!("texture coordinate w = {w} is not finite"));
    }
    let d = t.slices.len() as u32;
    let slice = |k: i64| -> Result<[f32; 4], String> {
        Ok(match address(k, d, s.wrap_w) {
            Some(k) => sample(&t.slices[k as usize], s, u, v)?.map(f32::from_bits),
            None => s.border,
        })
    };
    let z = w as f64 * d as f64;
    let out = match s.z_filter {
        Filter::Point => slice(z.floor() as i64)?,
        Filter::Bilinear => {
            let z = z - 0.5;
            let z0 = z.floor();
            let f = (z - z0) as f32;
            let (a, b) = (slice(z0 as i64)?, slice((z0 as i64).saturating_add(1))?);
            std::array::from_fn(|k| a[k] + (b[k] - a[k]) * f)
        }
    };
    Ok(out.map(f32::to_bits))
}

/// TEX_LD: the texel at integer coordinates (x, y) of level `lod` of `t` (a 1-D or 2-D texture, one
/// layer, or one slice), without sampler state (OpenGL 4.6, 8.14.2 / GLSL texelFetch, which Mesa's r600
/// driver and Cemu's Latte decompiler both map to LD). Coordinates or levels outside the texture give
/// undefined results in OpenGL: an error here.
pub fn load(t: &Texture, x: i32, y: i32, lod: i32) -> Result<[u32; 4], String> {
    let l = usize::try_from(lod)
        .ok()
        .and_then(|k| t.level_checked(k))
        .ok_or_else(|| {
            format!(
                "texel fetch level {lod} is outside the texture's {} levels",
                t.levels()
            )
        })?;
    if x < 0 || y < 0 || x as u32 >= l.width || y as u32 >= l.height {
        return Err(format!(
            "texel fetch at ({x}, {y}) is outside level {lod}'s {}x{} texels",
            l.width, l.height
        ));
    }
    Ok(l.texels[(y as u32 * l.width + x as u32) as usize].map(f32::to_bits))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn huge_coordinates_do_not_overflow() {
        let t = Texture::new(
            2,
            1,
            TexFormat::Rgba8Unorm,
            &[255, 0, 0, 255, 0, 255, 0, 255],
        )
        .unwrap();
        for filter in [Filter::Point, Filter::Bilinear] {
            for wrap in [Wrap::Repeat, Wrap::ClampToEdge, Wrap::Border] {
                let s = Sampler {
                    filter,
                    wrap_u: wrap,
                    wrap_v: wrap,
                    wrap_w: wrap,
                    z_filter: Filter::Point,
                    border: [0.0; 4],
                    mip_filter: MipFilter::None,
                    compare: None,
                };
                for u in [f32::MAX, f32::MIN, 1e30, -1e30] {
                    assert!(sample(&t, &s, u, u).is_ok());
                }
                assert!(sample(&t, &s, f32::NAN, 0.0).is_err());
            }
        }
    }
}
