//! `image_write_block` (Mesa's `block_image_store`): the end-of-tile store of a render target from
//! the tile buffer to its image. Mesa 25.0 emits it only in the end-of-tile program
//! (`agx_bg_eot.c`, `agx_build_end_of_tile_shader`: one `image_store_block_agx` per render target,
//! texture state `rt` holding the render target's PBE descriptor, the render target's byte offset
//! in the tile buffer's pixel, implicit coordinates, the tile buffer's physical format), packed by
//! `agx_pack.c` AGX_OPCODE_BLOCK_IMAGE_STORE: R the offset register (32-bit, Mesa's "top half
//! ignored"), C the coordinates (absent: q0 = explicit coordinates is 0), D the immediate LOD 0
//! (bit 31 set), T the texture handle, F the format, q1 = 9 and q2 = 1 (Mesa's constants).
//!
//! No public source gives the per-thread behaviour. wavesim's reading, from how Mesa uses it (one
//! store per render target in a program that computes no pixel position): the instruction stores
//! the whole tile the group ends (`WaveState::tile_origin`, 32x32 pixels of the tile buffer,
//! clipped to the image) once per SIMD group, the offset register agreeing across the active
//! threads; each pixel's bytes at the offset are the texel in format F. Modelled: u8norm (the
//! tile buffer already holds the unorm bytes `st_tile` stored, `tile.rs`) into RGBA8 unorm PBE
//! images, linear or twiddled, 2D, level and layer 0. Explicit coordinates, other formats,
//! arrays and other constants are typed errors.
//!
//! Multisampled tiles (`n` = tex_2d_ms, which `agx_build_end_of_tile_shader` emits when the tile
//! buffer has more than one sample) store every sample of every pixel. The PBE then has
//! dimension 2D multisampled (4), `Samples` (0: 2, 1: 4; cmdbuf.xml "Sample Count") equal to the
//! tile's, a twiddled layout, and the software words the gallium driver fills for multisampled
//! images (`agx_batch_upload_pbe`: `Aligned width MSAA (sw)`, `Tile width/height (sw)`, `Sample
//! count log2 (sw)`). Where sample s of pixel (x, y) lies is the layout Mesa's own software
//! stores to multisampled images use (libagx `texture.cl`, `libagx_image_texel_address`): the
//! pixel's index in the twiddled order (tiles of the software tile size in row-major order over
//! the aligned width, Morton order inside a tile, x in the even bits), shifted left by the sample
//! count's log2, plus s, times the 4-byte texel. wavesim takes that rule (the hardware's block
//! store and Mesa's image stores must agree for the driver's resolves and `texelFetch` of the
//! same image) and checks the hardware fields against the software ones.

use super::miptree::Miptree;
use super::texture::texture_descriptor;
use super::texture_ms::ms_sample_address;
use super::tile::PIXEL_STRIDE;
use super::{active, missing, Fault, Ops, WaveState};
use crate::exec::image::PbeDesc;
use crate::operand::Operand;
use wavesim_core::memory::DeviceMemory;
use wavesim_core::observe::AccessKind;

fn unsupported(what: String) -> Fault {
    Fault::UnsupportedForm { what }
}

pub(super) fn image_write_block(
    w: &mut WaveState,
    o: &Ops<'_>,
    dev: &DeviceMemory,
    tg: &[u8],
) -> Result<(), Fault> {
    let (q0, q1, q2, n, format, round) = (
        o.field("q0"),
        o.field("q1"),
        o.field("q2"),
        o.field("n"),
        o.field("F"),
        o.field("round"),
    );
    let ms = n == 4;
    if q0 != 0 || q1 != 9 || q2 != 1 || !(n == 2 || ms) || round != 0 {
        return Err(unsupported(format!(
            "image_write_block with explicit coordinates {q0}, q1 = {q1}, q2 = {q2}, kind {n}, \
             round {round} (modelled: Mesa's end-of-tile store to a 2D or 2D multisampled image, \
             q1 = 9, q2 = 1, rte)"
        )));
    }
    let layout = w.tile_layout;
    if ms != (layout.samples > 1) {
        return Err(unsupported(format!(
            "image_write_block of kind {n} from a tile of {} samples (Mesa stores tex_2d_ms \
             exactly when the tile buffer is multisampled)",
            layout.samples
        )));
    }
    if format != 4 {
        return Err(unsupported(format!(
            "image_write_block of tile format {format} (u8norm is modelled)"
        )));
    }
    match o.op("D")? {
        Operand::Imm(0) => {}
        _ => {
            return Err(unsupported(
                "image_write_block at a LOD other than the immediate 0".into(),
            ))
        }
    }
    let lanes: Vec<usize> = active(w).collect();
    let Some(&first) = lanes.first() else {
        return Ok(());
    };
    let origin = w.tile_origin.ok_or_else(|| {
        unsupported("image_write_block outside an end-of-tile run (no tile)".into())
    })?;
    let reg = match o.op("R")? {
        Operand::Reg(r, _) => *r,
        _ => return Err(missing("R")),
    };
    let offset = w.read(reg, first)? as u16 as usize;
    for &lane in &lanes {
        if w.read(reg, lane)? as u16 as usize != offset {
            return Err(unsupported(format!(
                "image_write_block: thread {lane}'s tile offset differs from thread {first}'s"
            )));
        }
    }
    if offset + 4 > PIXEL_STRIDE || tg.len() < layout.bytes() {
        return Err(unsupported(format!(
            "image_write_block of 4 bytes at {offset} in a {PIXEL_STRIDE}-byte sample, {} bytes of \
             tile memory ({} needed)",
            tg.len(),
            layout.bytes()
        )));
    }
    let desc = texture_descriptor(w, o, dev, first)?;
    for &lane in &lanes {
        if texture_descriptor(w, o, dev, lane)? != desc {
            return Err(unsupported(format!(
                "image_write_block: thread {lane}'s descriptor differs from thread {first}'s"
            )));
        }
    }
    let p = PbeDesc::decode(&desc);
    let rgba8 = p.channels == 0x28 && p.ty == 0 && p.swizzle == [0, 1, 2, 3] && !p.srgb;
    // where each (x, y, sample) goes: the multisampled rule, or the level-0 texel
    type Texel<'a> = Box<dyn Fn(u32, u32, u32) -> Result<u64, Fault> + 'a>;
    let texel: Texel<'_> = if ms {
        if !rgba8 || p.extended || p.level != 0 {
            return Err(unsupported(format!(
                "multisampled image_write_block to a PBE descriptor of channels {:#x}, type {}, \
                 swizzle {:?}, sRGB {}, extended {}, level {} (modelled: RGBA8 unorm, level 0)",
                p.channels, p.ty, p.swizzle, p.srgb, p.extended, p.level
            )));
        }
        let (p, samples) = (&p, layout.samples);
        Box::new(move |x, y, s| ms_texel_offset(p, &desc, samples, x, y, s))
    } else {
        if !rgba8 || p.dimension != 2 || p.samples != 0 || p.extended || p.level != 0 {
            return Err(unsupported(format!(
                "image_write_block to a PBE descriptor of channels {:#x}, type {}, swizzle {:?}, \
                 sRGB {}, dimension {}, samples {}, extended {}, level {} (modelled: RGBA8 unorm \
                 2D level 0)",
                p.channels, p.ty, p.swizzle, p.srgb, p.dimension, p.samples, p.extended, p.level
            )));
        }
        let tree = match p.layout {
            // RGBA8: 4-byte texels (checked above); level 0 sits at offset 0 whatever the chain.
            0 => Miptree::linear(p.width, p.height, p.linear_pitch, 4),
            2 => Miptree::twiddled(p.width, p.height, p.levels, 4, p.page_aligned_layers)?,
            l => return Err(unsupported(format!("image layout {l}"))),
        };
        let address = p.address;
        Box::new(move |x, y, _| Ok(address.wrapping_add(tree.texel_offset(0, x, y)?)))
    };
    store_tile(
        w,
        dev,
        tg,
        offset,
        origin,
        (p.width, p.height),
        first,
        texel,
    )
}

/// Stores every sample of the tile at `origin` (clipped to the image's `size`) from byte `offset`
/// of each sample's record to the address `texel` gives for (x, y, sample).
#[allow(clippy::too_many_arguments)]
fn store_tile(
    w: &mut WaveState,
    dev: &DeviceMemory,
    tg: &[u8],
    offset: usize,
    [x0, y0]: [u32; 2],
    (width, height): (u32, u32),
    lane: usize,
    texel: impl Fn(u32, u32, u32) -> Result<u64, Fault>,
) -> Result<(), Fault> {
    let layout = w.tile_layout;
    for y in y0..(y0 + layout.height).min(height) {
        for x in x0..(x0 + layout.width).min(width) {
            for s in 0..layout.samples {
                let at = layout.offset(x, y, s) + offset;
                let bytes = &tg[at..at + 4];
                let addr = texel(x, y, s)?;
                dev.write(addr, bytes)
                    .map_err(|source| Fault::Memory { lane, source })?;
                let value = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
                w.record(AccessKind::Store, "texture", lane, addr, 4, value.into());
            }
        }
    }
    Ok(())
}

/// The address of sample `s` of pixel (x, y) in a twiddled multisampled RGBA8 image
/// (`libagx_image_texel_address`, see the module comment), after checking the descriptor's
/// hardware fields against its software words.
fn ms_texel_offset(
    p: &PbeDesc,
    desc: &[u8; 24],
    samples: u32,
    x: u32,
    y: u32,
    s: u32,
) -> Result<u64, Fault> {
    let word = u64::from_le_bytes(desc[16..24].try_into().unwrap_or_default());
    let field = |start: u32, size: u32| (word >> (start - 128)) & ((1 << size) - 1);
    // cmdbuf.xml PBE: Aligned width MSAA (sw) 128+15, Tile width/height (sw) log2 at 155/158,
    // Sample count log2 (sw) at 188
    let aligned_width = field(128, 15) as u32;
    let (tile_w, tile_h) = (1u32 << field(155, 3), 1u32 << field(158, 3));
    let log2 = field(188, 2) as u32;
    let hw_samples = if p.samples == 1 { 4 } else { 2 };
    if p.dimension != 4
        || p.layout != 2
        || hw_samples != samples
        || 1 << log2 != samples
        || aligned_width < p.width
        || !aligned_width.is_multiple_of(tile_w)
    {
        return Err(unsupported(format!(
            "multisampled image_write_block to a PBE of dimension {}, layout {}, {hw_samples} \
             samples, software words: aligned width {aligned_width}, tile {tile_w}x{tile_h}, \
             2^{log2} samples (modelled: 2D multisampled, twiddled, {samples} samples as the tile, \
             the aligned width a multiple of the tile width and at least the image's)",
            p.dimension, p.layout
        )));
    }
    Ok(ms_sample_address(
        p.address,
        (tile_w, tile_h),
        aligned_width,
        log2,
        (x, y, s),
        4,
    ))
}
