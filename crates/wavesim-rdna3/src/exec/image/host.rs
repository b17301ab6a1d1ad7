//! Images as the host hands them to an OpenCL kernel (`image2d_t` arguments of `wavesim run`):
//! format names, the OpenCL channel type and order each data format stands for, and PNG files
//! for the 8-bit formats.
//!
//! The texel bytes are the image's linear layout (`resource::image_bytes`: rows without padding,
//! one mip); a PNG is converted to and from it channel by channel (R8 <-> grey, RG8 -> RGB with
//! blue 0, the RGBA8 formats <-> RGBA; 8 bits per channel, no colour conversion: an sRGB image's
//! bytes are its encoded values).

use super::formats;
use super::resource::cl;

/// A data format an image argument may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HostFormat {
    /// The name `image:FMT:...` uses.
    pub name: &'static str,
    /// The T# data format (RDNA3 ISA 10.7, Table 52; see [`formats`]).
    pub format: u32,
    /// The OpenCL channel data type and order (cl.h values) the image object records for
    /// `get_image_channel_data_type` / `get_image_channel_order`.
    pub cl_type: u32,
    pub cl_order: u32,
    /// Bytes per texel.
    pub texel_bytes: u64,
    /// 8-bit channels (1, 2 or 4 of them): the formats a PNG file can hold.
    pub png_channels: Option<usize>,
}

const fn hf(
    name: &'static str,
    format: u32,
    cl_type: u32,
    cl_order: u32,
    texel_bytes: u64,
    png_channels: Option<usize>,
) -> HostFormat {
    HostFormat {
        name,
        format,
        cl_type,
        cl_order,
        texel_bytes,
        png_channels,
    }
}

/// Every format an image argument may name; each is one the image unit emulates.
pub const HOST_FORMATS: [HostFormat; 11] = [
    hf("r8", formats::R8_UNORM, cl::UNORM_INT8, cl::R, 1, Some(1)),
    hf(
        "rg8",
        formats::RG8_UNORM,
        cl::UNORM_INT8,
        cl::RG,
        2,
        Some(2),
    ),
    hf(
        "rgba8",
        formats::RGBA8_UNORM,
        cl::UNORM_INT8,
        cl::RGBA,
        4,
        Some(4),
    ),
    hf(
        "srgba8",
        formats::RGBA8_SRGB,
        cl::UNORM_INT8,
        cl::SRGBA,
        4,
        Some(4),
    ),
    hf(
        "rgba8ui",
        formats::RGBA8_UINT,
        cl::UNSIGNED_INT8,
        cl::RGBA,
        4,
        Some(4),
    ),
    hf("r32f", formats::R32_FLOAT, cl::FLOAT, cl::R, 4, None),
    hf(
        "r32ui",
        formats::R32_UINT,
        cl::UNSIGNED_INT32,
        cl::R,
        4,
        None,
    ),
    hf("r32i", formats::R32_SINT, cl::SIGNED_INT32, cl::R, 4, None),
    hf(
        "rgba16f",
        formats::RGBA16_FLOAT,
        cl::HALF_FLOAT,
        cl::RGBA,
        8,
        None,
    ),
    hf(
        "rgba32f",
        formats::RGBA32_FLOAT,
        cl::FLOAT,
        cl::RGBA,
        16,
        None,
    ),
    hf(
        "rgba32ui",
        formats::RGBA32_UINT,
        cl::UNSIGNED_INT32,
        cl::RGBA,
        16,
        None,
    ),
];

/// The format called `name`, or an error listing the names.
pub fn host_format(name: &str) -> Result<HostFormat, String> {
    HOST_FORMATS
        .iter()
        .find(|f| f.name == name)
        .copied()
        .ok_or_else(|| {
            let names: Vec<&str> = HOST_FORMATS.iter().map(|f| f.name).collect();
            format!(
                "unknown image format `{name}` (one of {})",
                names.join(", ")
            )
        })
}

/// The format whose T# data format is `format`.
pub fn host_format_of(format: u32) -> Option<HostFormat> {
    HOST_FORMATS.iter().find(|f| f.format == format).copied()
}

/// Bytes of a `width` x `height` image of `f` (one mip, rows without padding).
pub fn host_image_bytes(f: &HostFormat, width: u32, height: u32) -> u64 {
    width as u64 * height as u64 * f.texel_bytes
}

/// Reads a PNG file's bytes into the texel bytes of a `width` x `height` image of `f`; the PNG
/// must have those dimensions and `f` must be an 8-bit format.
pub fn png_to_texels(
    f: &HostFormat,
    width: u32,
    height: u32,
    png: &[u8],
) -> Result<Vec<u8>, String> {
    let channels = f
        .png_channels
        .ok_or_else(|| format!("a PNG cannot hold a {} image (8-bit formats only)", f.name))?;
    let mut dec = png::Decoder::new(png);
    // Palette and low bit depths expand to 8-bit channels; 16-bit channels are cut to 8.
    dec.set_transformations(png::Transformations::normalize_to_color8());
    let mut rd = dec.read_info().map_err(|e| format!("not a PNG: {e}"))?;
    let mut buf = vec![0u8; rd.output_buffer_size()];
    let info = rd
        .next_frame(&mut buf)
        .map_err(|e| format!("bad PNG: {e}"))?;
    if (info.width, info.height) != (width, height) {
        return Err(format!(
            "the PNG is {}x{}, the image argument {width}x{height}",
            info.width, info.height
        ));
    }
    let (color, _) = rd.output_color_type();
    let src_ch = color.samples();
    let mut out = Vec::with_capacity(width as usize * height as usize * channels);
    for row in buf.chunks(info.line_size).take(height as usize) {
        for px in row.chunks(src_ch).take(width as usize) {
            // As RGBA: grey repeats into R, G and B; a missing alpha is opaque.
            let rgba = match px.len() {
                1 => [px[0], px[0], px[0], 255],
                2 => [px[0], px[0], px[0], px[1]],
                3 => [px[0], px[1], px[2], 255],
                _ => [px[0], px[1], px[2], px[3]],
            };
            out.extend_from_slice(&rgba[..channels]);
        }
    }
    Ok(out)
}

/// Writes the texel bytes of a `width` x `height` image of `f` as a PNG (8-bit formats).
pub fn texels_to_png(
    f: &HostFormat,
    width: u32,
    height: u32,
    texels: &[u8],
) -> Result<Vec<u8>, String> {
    let channels = f.png_channels.ok_or_else(|| {
        format!(
            "a {} image cannot be written as a PNG (8-bit formats only)",
            f.name
        )
    })?;
    let n = width as usize * height as usize;
    if texels.len() < n * channels {
        return Err(format!(
            "{} bytes for a {width}x{height} {} image",
            texels.len(),
            f.name
        ));
    }
    let (color, data): (png::ColorType, Vec<u8>) = match channels {
        1 => (png::ColorType::Grayscale, texels[..n].to_vec()),
        2 => (
            png::ColorType::Rgb,
            texels[..2 * n]
                .chunks(2)
                .flat_map(|p| [p[0], p[1], 0])
                .collect(),
        ),
        _ => (png::ColorType::Rgba, texels[..4 * n].to_vec()),
    };
    let mut out = Vec::new();
    {
        let mut enc = png::Encoder::new(&mut out, width, height);
        enc.set_color(color);
        enc.set_depth(png::BitDepth::Eight);
        let mut wr = enc.write_header().map_err(|e| e.to_string())?;
        wr.write_image_data(&data).map_err(|e| e.to_string())?;
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_host_format_is_emulated_with_its_size() {
        for f in HOST_FORMATS {
            let e = formats::Format::of(f.format).unwrap();
            assert_eq!(e.bytes, f.texel_bytes, "{}", f.name);
            if let Some(c) = f.png_channels {
                assert_eq!(c as u64, f.texel_bytes, "{}", f.name);
            }
            assert_eq!(host_format(f.name).unwrap(), f);
            assert_eq!(host_format_of(f.format).unwrap(), f);
        }
        assert!(host_format("bgra8").is_err());
    }

    #[test]
    fn png_round_trips_8_bit_images() {
        let (w, h) = (3u32, 2u32);
        for name in ["r8", "rgba8", "rgba8ui"] {
            let f = host_format(name).unwrap();
            let tex: Vec<u8> = (0..host_image_bytes(&f, w, h))
                .map(|i| (i * 41 % 256) as u8)
                .collect();
            let png = texels_to_png(&f, w, h, &tex).unwrap();
            assert_eq!(png_to_texels(&f, w, h, &png).unwrap(), tex, "{name}");
            assert!(png_to_texels(&f, w + 1, h, &png).is_err());
        }
        // RG8 is written as RGB with blue 0 and reads back as its R and G.
        let f = host_format("rg8").unwrap();
        let tex = vec![1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
        let png = texels_to_png(&f, w, h, &tex).unwrap();
        assert_eq!(png_to_texels(&f, w, h, &png).unwrap(), tex);
        let f32img = host_format("r32f").unwrap();
        assert!(texels_to_png(&f32img, w, h, &[0; 24]).is_err());
        assert!(png_to_texels(&f32img, w, h, &png).is_err());
    }
}
