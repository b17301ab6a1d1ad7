//! Images and samplers as the host hands them to an OpenCL kernel (`image2d_t` and `sampler_t`
//! arguments of `wavesim run`): format names, the OpenCL channel type and order each data format
//! stands for, PNG files for the 8-bit formats, and the S# of an OpenCL sampler.
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

/// OpenCL addressing modes (`CLK_ADDRESS_*`) by the name a `sampler:` argument uses, with the
/// S# clamp mode each stands for (RDNA3 ISA 10.6, Table 51: 0 Wrap, 1 Mirror, 2 ClampLastTexel,
/// 6 ClampBorder), as the ROCm device library's gfx10+ sampler table (`opencl.bc`,
/// `__translate_sampler_initializer`) encodes them: NONE and CLAMP clamp to the border.
pub const CL_ADDRESSING: [(&str, u32); 5] = [
    ("none", 6),
    ("clamp_to_edge", 2),
    ("clamp", 6),
    ("repeat", 0),
    ("mirrored_repeat", 1),
];

/// The 128-bit S# of an OpenCL sampler (normalized or unnormalized coordinates, an addressing
/// mode of [`CL_ADDRESSING`], nearest or linear filtering), with the words the ROCm device
/// library's gfx10+ sampler table gives the same sampler value (so a `sampler_t` argument
/// samples as a `__constant sampler_t` does): word 0 the clamp mode of x, y and z, bits 12-13
/// and 28 set, FORCE_UNNORMALIZED (bit 15) for unnormalized coordinates; word 1 MAX_LOD 0xfff
/// (bits 23:12); word 2 bit 29 set, XY_MAG_FILTER and XY_MIN_FILTER (bits 21:20, 23:22) 1 for
/// linear; word 3 BORDER_COLOR_TYPE (bits 31:30) 1, opaque black.
pub fn opencl_sampler(
    normalized: bool,
    addressing: &str,
    linear: bool,
) -> Result<[u32; 4], String> {
    let clamp = CL_ADDRESSING
        .iter()
        .find(|(n, _)| *n == addressing)
        .map(|&(_, c)| c)
        .ok_or_else(|| {
            let names: Vec<&str> = CL_ADDRESSING.iter().map(|(n, _)| *n).collect();
            format!(
                "unknown addressing mode `{addressing}` (one of {})",
                names.join(", ")
            )
        })?;
    let w0 = clamp | clamp << 3 | clamp << 6 | 0x3000 | u32::from(!normalized) << 15 | 1 << 28;
    let filter = if linear { 1 << 20 | 1 << 22 } else { 0 };
    Ok([w0, 0xfff << 12, 1 << 29 | filter, 1 << 30])
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

    #[test]
    fn opencl_samplers_are_the_device_librarys_s_sharps() {
        // Entries of the ROCm device library's gfx10+ table (opencl.bc), by sampler value:
        // CLK_NORMALIZED_COORDS_TRUE 1, ADDRESS_CLAMP_TO_EDGE 2 / CLAMP 4 / REPEAT 6 /
        // MIRRORED_REPEAT 8, FILTER_NEAREST 0x10 / LINEAR 0x20.
        let lib = |w0: u32, w2: u32| [w0, 16773120, w2, 1073741824];
        let nearest = 536870912;
        let linear = 542113792;
        assert_eq!(
            opencl_sampler(false, "none", false).unwrap(),
            lib(268480950, nearest)
        );
        assert_eq!(
            opencl_sampler(true, "none", false).unwrap(),
            lib(268448182, nearest)
        );
        assert_eq!(
            opencl_sampler(false, "clamp_to_edge", false).unwrap(),
            lib(268480658, nearest)
        );
        assert_eq!(
            opencl_sampler(true, "clamp_to_edge", true).unwrap(),
            lib(268447890, linear)
        );
        assert_eq!(
            opencl_sampler(false, "clamp", true).unwrap(),
            lib(268480950, linear)
        );
        assert_eq!(
            opencl_sampler(false, "repeat", false).unwrap(),
            lib(268480512, nearest)
        );
        assert_eq!(
            opencl_sampler(true, "repeat", true).unwrap(),
            lib(268447744, linear)
        );
        assert_eq!(
            opencl_sampler(false, "mirrored_repeat", false).unwrap(),
            lib(268480585, nearest)
        );
        assert_eq!(
            opencl_sampler(true, "mirrored_repeat", false).unwrap(),
            lib(268447817, nearest)
        );
        assert!(opencl_sampler(true, "wrap", false).is_err());
    }
}
