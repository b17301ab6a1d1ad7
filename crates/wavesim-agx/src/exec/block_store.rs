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
//! arrays, multisampling and other constants are typed errors.

use super::miptree::Miptree;
use super::texture::texture_descriptor;
use super::tile::{pixel_offset, PIXEL_STRIDE, TILE_BYTES, TILE_EDGE};
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
    if q0 != 0 || q1 != 9 || q2 != 1 || n != 2 || round != 0 {
        return Err(unsupported(format!(
            "image_write_block with explicit coordinates {q0}, q1 = {q1}, q2 = {q2}, kind {n}, \
             round {round} (modelled: Mesa's end-of-tile store to a 2D image, q1 = 9, q2 = 1, rte)"
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
    if offset + 4 > PIXEL_STRIDE || tg.len() < TILE_BYTES {
        return Err(unsupported(format!(
            "image_write_block of 4 bytes at {offset} in a {PIXEL_STRIDE}-byte pixel, {} bytes of \
             tile memory",
            tg.len()
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
    if !rgba8 || p.dimension != 2 || p.samples != 0 || p.extended || p.level != 0 {
        return Err(unsupported(format!(
            "image_write_block to a PBE descriptor of channels {:#x}, type {}, swizzle {:?}, sRGB \
             {}, dimension {}, samples {}, extended {}, level {} (modelled: RGBA8 unorm 2D level 0)",
            p.channels, p.ty, p.swizzle, p.srgb, p.dimension, p.samples, p.extended, p.level
        )));
    }
    let tree = match p.layout {
        // RGBA8: 4-byte texels (checked above); level 0 sits at offset 0 whatever the chain.
        0 => Miptree::linear(p.width, p.height, p.linear_pitch, 4),
        2 => Miptree::twiddled(p.width, p.height, p.levels, 4, p.page_aligned_layers)?,
        l => return Err(unsupported(format!("image layout {l}"))),
    };
    let [x0, y0] = origin;
    for y in y0..(y0 + TILE_EDGE).min(p.height) {
        for x in x0..(x0 + TILE_EDGE).min(p.width) {
            let at = pixel_offset(x, y) + offset;
            let bytes = &tg[at..at + 4];
            let addr = p.address.wrapping_add(tree.texel_offset(0, x, y)?);
            dev.write(addr, bytes).map_err(|source| Fault::Memory {
                lane: first,
                source,
            })?;
            let value = u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]]);
            w.record(AccessKind::Store, "texture", first, addr, 4, value.into());
        }
    }
    Ok(())
}
