//! Render targets: their formats, the float <-> stored conversions, and the files a draw writes
//! (PNG for viewing, NumPy `.npy` for the raw values).
//!
//! Conversions: UNORM8 = the rounding of [`UnormRounding`] of clamp(x, 0, 1) * 255 (NaN -> 0),
//! read back as c / 255; RGBA16F is IEEE binary16, round to nearest even; RGBA32F is stored as is.
//!
//! A multisampled target holds `samples` texels per pixel, sample-major inside the pixel:
//! sample s of pixel (x, y) is texel (y * width + x) * samples + s.

use crate::gfx::pipeline::UnormRounding;

/// Render-target formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorFormat {
    Rgba8Unorm,
    Rgba16Float,
    Rgba32Float,
}

/// A render target after the draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub format: ColorFormat,
    /// Samples per pixel (1, 2, 4 or 8).
    pub samples: u32,
    /// Stored texels, row-major, the samples of a pixel together, in the format's bytes (RGBA8:
    /// 4 bytes; RGBA16F: 8; RGBA32F: 16).
    pub bytes: Vec<u8>,
}

#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct ImageError(pub String);

pub fn texel_bytes(f: ColorFormat) -> usize {
    match f {
        ColorFormat::Rgba8Unorm => 4,
        ColorFormat::Rgba16Float => 8,
        ColorFormat::Rgba32Float => 16,
    }
}

/// Whether the format is fixed-point (blending clamps to [0, 1]).
pub fn is_unorm(f: ColorFormat) -> bool {
    f == ColorFormat::Rgba8Unorm
}

pub fn unorm8(x: f32, r: UnormRounding) -> u8 {
    if x.is_nan() {
        return 0;
    }
    let v = x.clamp(0.0, 1.0) * 255.0;
    match r {
        UnormRounding::NearestEven => v.round_ties_even() as u8,
        UnormRounding::D3d => (v + 0.5).floor() as u8,
    }
}

impl Image {
    /// A `width` x `height` target filled with `clear`.
    pub fn new(
        width: u32,
        height: u32,
        format: ColorFormat,
        clear: [f32; 4],
        r: UnormRounding,
    ) -> Result<Image, ImageError> {
        Image::new_multisampled((width, height, 1), format, clear, r)
    }

    /// A `width` x `height` target of `samples` samples per pixel, every sample `clear`.
    pub fn new_multisampled(
        (width, height, samples): (u32, u32, u32),
        format: ColorFormat,
        clear: [f32; 4],
        r: UnormRounding,
    ) -> Result<Image, ImageError> {
        let texels = width as usize * height as usize * samples as usize;
        let n = texels * texel_bytes(format);
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(n)
            .map_err(|_| ImageError(format!("cannot allocate a {n}-byte render target")))?;
        let mut img = Image {
            width,
            height,
            format,
            samples,
            bytes,
        };
        let texel = img.encode(clear, r);
        for _ in 0..texels {
            img.bytes.extend_from_slice(&texel);
        }
        Ok(img)
    }

    /// The stored bytes of a colour.
    fn encode(&self, c: [f32; 4], r: UnormRounding) -> Vec<u8> {
        match self.format {
            ColorFormat::Rgba8Unorm => c.map(|x| unorm8(x, r)).to_vec(),
            ColorFormat::Rgba16Float => c
                .iter()
                .flat_map(|&x| half::f16::from_f32(x).to_bits().to_le_bytes())
                .collect(),
            ColorFormat::Rgba32Float => c.iter().flat_map(|x| x.to_le_bytes()).collect(),
        }
    }

    /// Writes the components of `c` whose bit is set in `mask` (R = 1, G = 2, B = 4, A = 8)
    /// to sample 0 of (x, y).
    pub fn store(&mut self, x: u32, y: u32, c: [f32; 4], mask: u8, r: UnormRounding) {
        self.store_sample((x, y, 0), c, mask, r)
    }

    fn texel(&self, x: u32, y: u32, s: u32) -> usize {
        ((y as usize * self.width as usize + x as usize) * self.samples as usize + s as usize)
            * texel_bytes(self.format)
    }

    /// [`Image::store`] to sample `s`.
    pub fn store_sample(
        &mut self,
        (x, y, s): (u32, u32, u32),
        c: [f32; 4],
        mask: u8,
        r: UnormRounding,
    ) {
        let b = texel_bytes(self.format);
        let cb = b / 4;
        let at = self.texel(x, y, s);
        let enc = self.encode(c, r);
        for k in 0..4 {
            if mask >> k & 1 != 0 {
                self.bytes[at + k * cb..at + (k + 1) * cb]
                    .copy_from_slice(&enc[k * cb..(k + 1) * cb]);
            }
        }
    }

    /// The colour stored at sample 0 of (x, y), as floats.
    pub fn load(&self, x: u32, y: u32) -> [f32; 4] {
        self.load_sample(x, y, 0)
    }

    /// The colour stored at sample `s` of (x, y), as floats.
    pub fn load_sample(&self, x: u32, y: u32, s: u32) -> [f32; 4] {
        let b = texel_bytes(self.format);
        let t = &self.bytes[self.texel(x, y, s)..][..b];
        match self.format {
            ColorFormat::Rgba8Unorm => [0, 1, 2, 3].map(|k| t[k] as f32 / 255.0),
            ColorFormat::Rgba16Float => {
                [0, 1, 2, 3].map(|k| half::f16::from_le_bytes([t[2 * k], t[2 * k + 1]]).to_f32())
            }
            ColorFormat::Rgba32Float => [0, 1, 2, 3]
                .map(|k| f32::from_le_bytes([t[4 * k], t[4 * k + 1], t[4 * k + 2], t[4 * k + 3]])),
        }
    }

    /// The image as an 8-bit RGBA PNG (float formats converted as UNORM8 with round to nearest
    /// even; only for viewing: the raw values are in [`Image::npy`]). A multisampled image is
    /// shown resolved: per pixel the mean of its samples' floats, then UNORM8 as above.
    pub fn png(&self) -> Result<Vec<u8>, ImageError> {
        encode_png(
            self.width,
            self.height,
            png::ColorType::Rgba,
            &self.view_rgba8(),
        )
    }

    /// The 8-bit RGBA pixels [`Image::png`] encodes, rows packed.
    pub fn view_rgba8(&self) -> Vec<u8> {
        let n = (self.width * self.height) as usize;
        let mut rgba = Vec::with_capacity(n * 4);
        for i in 0..n {
            let (x, y) = (i as u32 % self.width, i as u32 / self.width);
            match self.format {
                _ if self.samples > 1 => {
                    let mut sum = [0.0f64; 4];
                    for s in 0..self.samples {
                        let c = self.load_sample(x, y, s);
                        for k in 0..4 {
                            sum[k] += c[k] as f64;
                        }
                    }
                    rgba.extend(sum.map(|v| {
                        unorm8((v / self.samples as f64) as f32, UnormRounding::NearestEven)
                    }));
                }
                ColorFormat::Rgba8Unorm => rgba.extend_from_slice(&self.bytes[i * 4..i * 4 + 4]),
                _ => rgba.extend(
                    self.load(x, y)
                        .map(|c| unorm8(c, UnormRounding::NearestEven)),
                ),
            }
        }
        rgba
    }

    /// The stored values as a NumPy array of shape (height, width, 4), or (height, width,
    /// samples, 4) when multisampled: dtype u1 (RGBA8), <f2 (RGBA16F) or <f4 (RGBA32F).
    pub fn npy(&self) -> Vec<u8> {
        let dtype = match self.format {
            ColorFormat::Rgba8Unorm => "|u1",
            ColorFormat::Rgba16Float => "<f2",
            ColorFormat::Rgba32Float => "<f4",
        };
        if self.samples > 1 {
            return npy(
                dtype,
                &[self.height, self.width, self.samples, 4],
                &self.bytes,
            );
        }
        npy(dtype, &[self.height, self.width, 4], &self.bytes)
    }
}

pub fn encode_png(
    width: u32,
    height: u32,
    color: png::ColorType,
    data: &[u8],
) -> Result<Vec<u8>, ImageError> {
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(color);
        enc.set_depth(png::BitDepth::Eight);
        let mut wr = enc.write_header().map_err(|e| ImageError(e.to_string()))?;
        wr.write_image_data(data)
            .map_err(|e| ImageError(e.to_string()))?;
    }
    Ok(out)
}

/// A NumPy `.npy` file (format version 1.0: magic, header length, a Python dict literal padded
/// with spaces to a multiple of 64 bytes and ended by a newline, then the C-order data).
pub fn npy(dtype: &str, shape: &[u32], data: &[u8]) -> Vec<u8> {
    let dims: Vec<String> = shape.iter().map(|d| d.to_string()).collect();
    let shape = if dims.len() == 1 {
        format!("({},)", dims[0])
    } else {
        format!("({})", dims.join(", "))
    };
    let mut header = format!("{{'descr': '{dtype}', 'fortran_order': False, 'shape': {shape}, }}");
    // magic (6) + version (2) + length (2) + header + '\n' is a multiple of 64.
    while (10 + header.len() + 1) % 64 != 0 {
        header.push(' ');
    }
    header.push('\n');
    let mut out = b"\x93NUMPY\x01\x00".to_vec();
    out.extend_from_slice(&(header.len() as u16).to_le_bytes());
    out.extend_from_slice(header.as_bytes());
    out.extend_from_slice(data);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unorm_rounding_rules() {
        // 0.5 * 255 = 127.5 exactly: ties-even gives 128, floor(127.5 + 0.5) = 128 as well;
        // 2.5 / 255 * 255 rounds in f32 to 2.5: even -> 2, D3D -> 3.
        let x = 2.5f32 / 255.0;
        assert_eq!(x * 255.0, 2.5);
        assert_eq!(unorm8(x, UnormRounding::NearestEven), 2);
        assert_eq!(unorm8(x, UnormRounding::D3d), 3);
        assert_eq!(unorm8(0.5, UnormRounding::NearestEven), 128);
        assert_eq!(unorm8(-1.0, UnormRounding::D3d), 0);
        assert_eq!(unorm8(f32::NAN, UnormRounding::D3d), 0);
        assert_eq!(unorm8(7.0, UnormRounding::NearestEven), 255);
    }

    #[test]
    fn write_masks_keep_the_stored_components() {
        let mut img = Image::new(
            1,
            1,
            ColorFormat::Rgba32Float,
            [1.0, 2.0, 3.0, 4.0],
            UnormRounding::NearestEven,
        )
        .unwrap();
        img.store(0, 0, [9.0; 4], 0b1010, UnormRounding::NearestEven);
        assert_eq!(img.load(0, 0), [1.0, 9.0, 3.0, 9.0]);
    }

    #[test]
    fn npy_header_is_aligned() {
        let f = npy("<f4", &[2, 3], &[0; 24]);
        assert_eq!(&f[..8], b"\x93NUMPY\x01\x00");
        let hl = u16::from_le_bytes([f[8], f[9]]) as usize;
        assert_eq!((10 + hl) % 64, 0);
        let h = std::str::from_utf8(&f[10..10 + hl]).unwrap();
        assert!(h.starts_with("{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }"));
        assert!(h.ends_with('\n'));
        assert_eq!(f.len(), 10 + hl + 24);
    }
}
