//! 2-D texture resources and samplers for TEX_SAMPLE: RGBA8 (unorm) and RGBA32F texels; point and
//! bilinear filtering; wrap, clamp-to-edge and border-colour addressing (R700 ISA reference, 2.5 texture
//! samplers/resources and the border colour; SQ_TEX_SAMPLER_WORD0 clamp modes in AMD's R700 register
//! reference). Bilinear weights are computed in binary32 (the hardware's weight quantisation is not in the
//! sources wavesim uses; tests use texel-exact or midpoint coordinates).

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexFormat {
    Rgba8Unorm,
    Rgba32Float,
}

#[derive(Clone, Debug)]
pub struct Texture {
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
        let texels = match format {
            TexFormat::Rgba8Unorm => {
                if bytes.len() != n * 4 {
                    return Err(format!(
                        "RGBA8 texture {width}x{height} needs {} bytes, got {}",
                        n * 4,
                        bytes.len()
                    ));
                }
                bytes
                    .chunks_exact(4)
                    .map(|c| std::array::from_fn(|k| c[k] as f32 / 255.0))
                    .collect()
            }
            TexFormat::Rgba32Float => {
                if bytes.len() != n * 16 {
                    return Err(format!(
                        "RGBA32F texture {width}x{height} needs {} bytes, got {}",
                        n * 16,
                        bytes.len()
                    ));
                }
                bytes
                    .chunks_exact(16)
                    .map(|c| {
                        std::array::from_fn(|k| {
                            f32::from_le_bytes([c[4 * k], c[4 * k + 1], c[4 * k + 2], c[4 * k + 3]])
                        })
                    })
                    .collect()
            }
        };
        Ok(Texture {
            width,
            height,
            format,
            texels,
            mips: Vec::new(),
            faces: Vec::new(),
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
            width,
            height,
            format,
            texels: Vec::new(),
            mips: Vec::new(),
            faces,
        })
    }

    pub fn is_cube(&self) -> bool {
        !self.faces.is_empty()
    }

    /// Adds mip level `self.mips.len() + 1` from its bytes (same format as level 0).
    pub fn push_mip(&mut self, bytes: &[u8]) -> Result<(), String> {
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

    pub fn levels(&self) -> usize {
        1 + self.mips.len()
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
    let (px, py) = (u as f64 * f.width as f64, v as f64 * f.height as f64);
    let inside = |p: f64, n: u32| match s.filter {
        Filter::Point => p >= 0.0 && p.floor() < n as f64,
        Filter::Bilinear => p - 0.5 >= 0.0 && (p - 0.5).floor() + 1.0 < n as f64,
    };
    if !inside(px, f.width) || !inside(py, f.height) {
        return Err(format!(
            "cube face {face} sample at ({u}, {v}) reaches past the face's edge (edge filtering is not in the sources wavesim uses)"
        ));
    }
    sample(f, s, u, v)
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
