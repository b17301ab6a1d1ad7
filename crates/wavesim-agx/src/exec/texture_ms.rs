//! `texture_load` of a 2D multisampled image (kind tex_2d_ms, and tex_2d_ms_array): GLSL's
//! `texelFetch(sampler2DMS, p, s)`, Mesa's `nir_texop_txf_ms`, which the gallium asahi driver's
//! resolve blits and the background program of a multisampled tile (`agx_bg_eot.c`) also emit.
//!
//! The form, as Mesa 25.0.7 emits it: `agx_lod_mode_for_nir` gives txf_ms the automatic LOD mode
//! (0) with the immediate LOD 0 ("no mipmapping"); `agx_nir_lower_texture.c`
//! (`lower_regular_texture`) legalizes the sample index to 16 bits and appends it, zero-extended to
//! 32 bits (`nir_u2u32`), as the coordinate after x and y, of which the instruction reads the low
//! half (applegpu's coordinate operand for tex_2d_ms: x and y as pairs of halves, then one half);
//! the array form (tex_2d_ms_array, TEXTURE dimension 8) packs the sample into the low and the
//! layer into the high half of that word (`nir_pack_32_2x16_split`), the layer selecting one of
//! `Depth` layers ail's layer stride apart. No offsets, comparison or gather: GLSL has none for
//! multisampled samplers.
//!
//! The image: TEXTURE descriptor (cmdbuf.xml) of dimension 2D multisampled (4), `Samples` at bit 64
//! (Sample Count: 0 = 2, 1 = 4), one level, twiddled (ail: "Multisampled linear layouts not
//! supported"). ail lays a multisampled image out as a single-sampled twiddled one whose elements
//! are a pixel's samples together (`ail_get_block_size_B`: block size times sample count), so
//! sample s of pixel (x, y) is at the pixel's twiddled index shifted by log2 of the count, plus s:
//! the rule libagx's `libagx_image_texel_address` computes from the PBE's software words, which the
//! end-of-tile store (`block_store.rs`) follows too; both use [`ms_sample_address`]. The tile and
//! aligned width that the PBE carries in software words, a TEXTURE descriptor does not have: they
//! are ail's for that element size (`Miptree::twiddled`, level 0), aligned width = width rounded up
//! to the tile width (what `agx_batch_upload_pbe` writes into the PBE).
//!
//! A texel outside the image or a sample index at or above the count is a typed error (GL 4.6
//! 11.1.3.2: undefined).

use super::formats::Format;
use super::miptree::Miptree;
use super::texture::{
    array_layer, check_coordinates, check_texture, coordinate_bits, swizzled, texture_descriptor,
    write_result, TextureDesc,
};
use super::{active, missing, Fault, Ops, WaveState};
use crate::operand::{Operand, Reg, RegFile};
use wavesim_core::memory::DeviceMemory;

fn unsupported(what: impl Into<String>) -> Fault {
    Fault::UnsupportedForm { what: what.into() }
}

/// The byte address of sample `s` of pixel (x, y) in a twiddled multisampled image at `base`:
/// libagx `calculate_twiddled_coordinates` (tiles of `tile` pixels row by row over
/// `aligned_width`, Morton order inside a tile, x in the even bits) gives the pixel's index;
/// `libagx_image_texel_address` shifts it by `samples_log2`, adds s and scales by the sample's
/// `bytes`.
pub(super) fn ms_sample_address(
    base: u64,
    (tile_w, tile_h): (u32, u32),
    aligned_width: u32,
    samples_log2: u32,
    (x, y, s): (u32, u32, u32),
    bytes: u64,
) -> u64 {
    let (ox, oy) = (x & (tile_w - 1), y & (tile_h - 1));
    let mut morton = 0u64;
    for bit in 0..16 {
        morton |= u64::from(ox >> bit & 1) << (2 * bit);
        morton |= u64::from(oy >> bit & 1) << (2 * bit + 1);
    }
    let px = u64::from(y & !(tile_h - 1)) * u64::from(aligned_width)
        + u64::from(x & !(tile_w - 1)) * u64::from(tile_h)
        + morton;
    base.wrapping_add(((px << samples_log2) + u64::from(s)) * bytes)
}

/// A bound multisampled image: its format, sample count, ail tile and aligned width.
struct MsImage {
    t: TextureDesc,
    format: Format,
    samples: u32,
    tile: (u32, u32),
    aligned_width: u32,
    layers: u32,
    layer_stride: u64,
}

impl MsImage {
    fn new(desc: &[u8; 24], array: bool) -> Result<MsImage, Fault> {
        let t = TextureDesc::decode(desc);
        let format = check_texture(&t)?;
        // cmdbuf.xml TEXTURE `Samples` (bit 64), `Compression` (106-107)
        let samples = if desc[8] & 1 == 1 { 4 } else { 2 };
        let compression = desc[13] >> 2 & 3;
        if t.dimension != if array { 8 } else { 4 }
            || t.layout != 2
            || compression != 0
            || t.first_level != 0
            || t.last_level != 0
            || format.codec().is_some()
        {
            return Err(unsupported(format!(
                "multisampled texture_load on a descriptor of dimension {}, layout {}, \
                 compression {compression}, levels {}..={}, channels {:#x} (modelled: 2D \
                 multisampled (array) as the instruction's kind, twiddled, uncompressed, one \
                 level, an uncompressed format)",
                t.dimension, t.layout, t.first_level, t.last_level, t.channels
            )));
        }
        let element = format.bytes() * u64::from(samples);
        let tree = Miptree::twiddled(t.width, t.height, 1, element, t.page_aligned_layers)?;
        let tile = tree
            .levels
            .first()
            .map(|l| l.tile)
            .ok_or_else(|| missing("T"))?;
        // an array's layers (`Depth`, 14 bits at 110, minus 1) lie ail's layer stride apart
        // (libagx adds layer x the PBE's layer stride in samples: the same bytes)
        let layers = if array {
            (t.stride_or_depth & 0x3FFF) as u32 + 1
        } else {
            1
        };
        Ok(MsImage {
            aligned_width: t.width.next_multiple_of(tile.0),
            layers,
            layer_stride: tree.layer_stride.unwrap_or(0),
            t,
            format,
            samples,
            tile,
        })
    }
}

/// `texture_load` of kind tex_2d_ms or tex_2d_ms_array (see the module comment). q3 is Mesa's 12
/// for textures (`agx_pack.c`), and 0xd (0xf coherent) for the image-load form of
/// `imageLoad(image2DMS)`: `agx_emit_image_load` gives it the same coordinates (the sample index
/// moved into a 32-bit register, or packed with the layer), the automatic LOD mode with LOD 0
/// ("Multisampled images do not support mipmapping") and the image's TEXTURE descriptor, which
/// the gallium driver packs from the image view as it packs a sampler2DMS
/// (`agx_upload_textures`: `util_image_to_sampler_view`, `agx_pack_texture`); bits 0 and 1 of
/// q3 order the load after image stores, which wavesim's coherent memory already does (as for
/// single-sampled image loads, `texture.rs`).
pub(super) fn texture_load_ms(
    w: &mut WaveState,
    o: &Ops<'_>,
    dev: &DeviceMemory,
) -> Result<(), Fault> {
    let (lod, q6, ot, compare, kill, q3) = (
        o.field("lod"),
        o.field("q6"),
        o.field("Ot"),
        o.field("compare"),
        o.field("kill"),
        o.field("q3"),
    );
    if lod != 0 || q6 != 0 || ot != 0 || compare != 0 || kill != 0 || !matches!(q3, 0xC | 0xD | 0xF)
    {
        return Err(unsupported(format!(
            "multisampled texture_load with LOD mode {lod}, q6 = {q6}, offsets {ot}, compare \
             {compare}, kill {kill}, q3 = {q3:#x} (Mesa's txf_ms and multisampled image load: \
             automatic LOD mode with LOD 0, no gather, offsets, comparison or kill, q3 = 0xc, \
             or 0xd / 0xf for image loads)"
        )));
    }
    match o.op("D")? {
        Operand::Imm(0) => {}
        _ => {
            return Err(unsupported(
                "multisampled texture_load with an LOD other than the immediate 0",
            ))
        }
    }
    let coords = match o.op("C")? {
        Operand::Tuple(r, _) => r.clone(),
        _ => return Err(missing("C")),
    };
    // applegpu's coordinate operand for tex_2d_ms: 16-bit halves, two per 32-bit x and y, then
    // one half, the low half of Mesa's zero-extended sample index (the array form's layout).
    // applegpu lists the same five halves for tex_2d_ms_array; Mesa's `agx_compile.c` gives that
    // coordinate as the 32-bit pair (sample, layer), so the layer is the half after the fifth.
    let array = o.field("n") == 8;
    check_coordinates(&coords, 2, true)?;
    let layer_reg = Reg {
        file: RegFile::R16,
        n: coords[4].n + 1,
    };
    let dst = match o.op("R")? {
        Operand::Tuple(r, _) => r.clone(),
        _ => return Err(missing("R")),
    };
    let mask = o.field("mask");
    let lanes: Vec<usize> = active(w).collect();
    for lane in lanes {
        let desc = texture_descriptor(w, o, dev, lane)?;
        let img = MsImage::new(&desc, array)?;
        let [x, y, _] = coordinate_bits(w, &coords, 2, true, lane)?;
        let s = array_layer(w, &coords, 2, lane)?;
        let layer = if array {
            w.read(layer_reg, lane)? as u32
        } else {
            0
        };
        if x >= img.t.width || y >= img.t.height || s >= img.samples || layer >= img.layers {
            return Err(unsupported(format!(
                "thread {lane}: texel ({x}, {y}) sample {s} layer {layer} outside the {}x{} \
                 image of {} samples and {} layers (GL: undefined)",
                img.t.width, img.t.height, img.samples, img.layers
            )));
        }
        let size = img.format.bytes();
        let addr = ms_sample_address(
            img.t
                .address
                .wrapping_add(u64::from(layer) * img.layer_stride),
            img.tile,
            img.aligned_width,
            img.samples.ilog2(),
            (x, y, s),
            size,
        );
        let mut b = [0u8; 16];
        let b = &mut b[..size as usize];
        w.load_recorded(dev, "texture", lane, addr, b)?;
        let px = img.format.decode(b)?;
        let mut out = [0f64; 4];
        for (c, v) in out.iter_mut().enumerate() {
            *v = swizzled(&px, img.t.swizzle[c])?;
        }
        let integer = img.format.is_integer().then_some(img.format.kind);
        write_result(w, &dst, mask, lane, out, integer)?;
    }
    Ok(())
}
