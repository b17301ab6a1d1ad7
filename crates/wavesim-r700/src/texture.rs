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

#[derive(Clone, Copy, Debug)]
pub struct Sampler {
    pub filter: Filter,
    pub wrap_u: Wrap,
    pub wrap_v: Wrap,
    pub border: [f32; 4],
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
        })
    }
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
                };
                for u in [f32::MAX, f32::MIN, 1e30, -1e30] {
                    assert!(sample(&t, &s, u, u).is_ok());
                }
                assert!(sample(&t, &s, f32::NAN, 0.0).is_err());
            }
        }
    }
}
