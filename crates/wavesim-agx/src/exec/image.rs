//! `image_write`: Mesa's image stores (`agx_emit_image_store`, packed by `agx_pack.c`'s
//! AGX_OPCODE_IMAGE_WRITE, Mesa 25.0; Mesa 22.3's gallium driver has no images) through a PBE
//! descriptor (cmdbuf.xml `PBE`, 24 bytes) named like a texture (`texture::texture_descriptor`:
//! an index into the bound state, a register holding it, or bindless). Image loads are
//! `texture_load`s on the image's TEXTURE descriptor (`texture.rs`).
//!
//! The PBE fields read: dimension (0-3), layout (4-5), channels (6-12), type (13-15), the 2-bit
//! swizzles (16-23), width - 1 (24) and height - 1 (38) of level 0, `Samples` (56), the buffer
//! address >> 4 (64-99), `Level` (100-103), then for twiddled images levels - 1 (104-107) and
//! layers - 1 (108-121), for linear ones the row pitch minus 4 (104-124, the gallium driver's
//! `ail_get_linear_stride_B(...) - 4`); `Page-aligned layers` (124, twiddled), `sRGB` (125),
//! `Extended` (127). A twiddled image of more than one level is laid out with its whole chain
//! (`miptree.rs`: Mesa 25.0 allocates every level, the hardware's strides counting them). Formats: every
//! uncompressed one Mesa describes (`formats.rs`, which gives each conversion and its source),
//! from 16- or 32-bit registers (a float register exactly; an integer register zero- or
//! sign-extended as the format's type reads it). The PBE swizzle says which source component
//! each stored channel takes: Mesa's `agx_batch_upload_pbe` sets `swizzle_X = i` when the
//! format's channel X holds component i (B8G8R8A8's first channel, blue, takes component 2), so
//! stored channel c takes component `swizzle[c]`.
//! The level written is the descriptor's `Level` when the LOD operand is 0, which every producer
//! in Mesa 25.0 and Mesa's main branch passes (GL and Vulkan image views are one level, bound
//! through the PBE `Level` by `agx_batch_upload_pbe` / `hk_image_view.c`, whose `Levels` is the
//! resource's; asahi exposes no SPV_AMD_shader_image_load_store_lod, though its compiler
//! compiles GLSL's `imageStoreLodAMD` into an image_write with the LOD in a register,
//! `agx_emit_image_store`; libagx's `compression.cl` and `agx_nir_lower_tilebuffer.c` store at
//! LOD 0; `legalize_image_lod` only narrows the operand to 16 bits; cmdbuf.xml names `Level`
//! and `Levels` only). How a nonzero operand combines with `Level` thus has neither a public
//! source nor a producer to observe: a typed error by default, and under the approximation
//! opt-in ([`WaveState::approximate`]) the documented intent of SPV_AMD_shader_image_load_store_lod
//! (the LOD selects a level relative to the view's base level): level `Level + LOD` of the
//! `Levels` (the operand a signed 16-bit value; outside the levels a typed error), each SIMD-group
//! execution counted as [`NONZERO_LOD`] (`corpus/agx/glsl_img/store_lod_amd`);
//! a texel outside the level or a layer outside the layers is a typed error (GL: the store has
//! no effect; whether the hardware drops it is not documented). Mesa lowers cube images to 2D
//! arrays and 1D images to 2D, so 2D and 2D array are the kinds modelled.

use super::formats::{Format, NumKind, Value};
use super::miptree::{full_chain, Miptree};
use super::texture::{array_layer, check_coordinates, coordinate_bits, texture_descriptor};
use super::{active, missing, Fault, Ops, WaveState};
use crate::operand::{Operand, RegFile};
use wavesim_core::memory::DeviceMemory;
use wavesim_core::observe::AccessKind;

/// The opt-in's name for an `image_write` at a nonzero LOD operand (module comment).
pub const NONZERO_LOD: &str =
    "image_write at a nonzero LOD (SPV_AMD_shader_image_load_store_lod: the view's level + LOD)";

fn unsupported(what: impl Into<String>) -> Fault {
    Fault::UnsupportedForm { what: what.into() }
}

fn bits(b: &[u8; 24], start: u32, size: u32) -> u64 {
    let v = u128::from_le_bytes(b[..16].try_into().unwrap_or([0; 16]));
    ((v >> start) & ((1u128 << size) - 1)) as u64
}

/// The PBE fields this module reads (module comment).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PbeDesc {
    pub dimension: u64,
    pub layout: u64,
    pub channels: u64,
    pub ty: u64,
    pub swizzle: [u64; 4],
    pub width: u32,
    pub height: u32,
    pub samples: u64,
    pub address: u64,
    pub level: u32,
    pub levels: u32,
    pub layers: u32,
    pub linear_pitch: u64,
    pub page_aligned_layers: bool,
    pub srgb: bool,
    pub extended: bool,
}

impl PbeDesc {
    pub fn decode(b: &[u8; 24]) -> PbeDesc {
        PbeDesc {
            dimension: bits(b, 0, 4),
            layout: bits(b, 4, 2),
            channels: bits(b, 6, 7),
            ty: bits(b, 13, 3),
            swizzle: [
                bits(b, 16, 2),
                bits(b, 18, 2),
                bits(b, 20, 2),
                bits(b, 22, 2),
            ],
            width: bits(b, 24, 14) as u32 + 1,
            height: bits(b, 38, 14) as u32 + 1,
            samples: bits(b, 56, 1),
            address: bits(b, 64, 36) << 4,
            level: bits(b, 100, 4) as u32,
            levels: bits(b, 104, 4) as u32 + 1,
            layers: bits(b, 108, 14) as u32 + 1,
            linear_pitch: bits(b, 104, 21) + 4,
            page_aligned_layers: bits(b, 124, 1) == 1,
            srgb: bits(b, 125, 1) == 1,
            extended: bits(b, 127, 1) == 1,
        }
    }
}

/// Mesa's packing sets `u1` (bit 23, part of its exact encoding), the coherency bits `u3` (43-46:
/// 9, or 15 for coherent images) and leaves `u2`, `u5` and the rounding bit clear; other values
/// are forms with no public meaning.
fn check_form(o: &Ops<'_>) -> Result<(), Fault> {
    let (u1, u2, u3, u5, round) = (
        o.field("u1"),
        o.field("u2"),
        o.field("u3"),
        o.field("u5"),
        o.field("round"),
    );
    if u1 != 1 || u2 != 0 || !matches!(u3, 9 | 15) || u5 != 0 || round != 0 {
        return Err(unsupported(format!(
            "image_write with u1 = {u1}, u2 = {u2}, u3 = {u3}, u5 = {u5}, round = {round} (Mesa \
             emits 1, 0, 9 or 15, 0, rte)"
        )));
    }
    Ok(())
}

pub(super) fn image_write(w: &mut WaveState, o: &Ops<'_>, dev: &DeviceMemory) -> Result<(), Fault> {
    check_form(o)?;
    let n = o.field("n");
    let (axes, array) = match n {
        2 => (2, false),
        3 => (2, true),
        _ => {
            return Err(unsupported(format!(
                "image_write to texture kind {n} (2D and 2D array are modelled; Mesa lowers 1D \
                 and cube images to them)"
            )))
        }
    };
    let src = match o.op("R")? {
        Operand::Tuple(r, _) => r.clone(),
        _ => return Err(missing("R")),
    };
    let coords = match o.op("C")? {
        Operand::Tuple(r, _) => r.clone(),
        _ => return Err(missing("C")),
    };
    check_coordinates(&coords, axes, array)?;
    let lod_op = o.op("D")?.clone();
    if !matches!(lod_op, Operand::Reg(..) | Operand::Imm(_)) {
        return Err(missing("D"));
    }
    let mut relative = false;
    for lane in active(w).collect::<Vec<_>>() {
        // a 16-bit operand (`legalize_image_lod`), signed as NIR's i2i16 leaves it
        let lod = match &lod_op {
            Operand::Reg(r, _) => i64::from(w.read(*r, lane)? as u16 as i16),
            Operand::Imm(v) => i64::from(*v as u16 as i16),
            _ => return Err(missing("D")),
        };
        if lod != 0 && !w.approximate {
            return Err(unsupported(format!(
                "thread {lane}: image_write at LOD {lod} (how a nonzero LOD combines with the \
                 PBE's Level has no public source; `approximate = true` writes level Level + LOD)"
            )));
        }
        relative |= lod != 0;
        let p = PbeDesc::decode(&texture_descriptor(w, o, dev, lane)?);
        let fmt = Format::new(p.channels, p.ty, p.srgb)?;
        if p.dimension != n || p.samples != 0 || p.extended {
            return Err(unsupported(format!(
                "image_write kind {n} on a PBE descriptor of dimension {}, samples {}, extended {}",
                p.dimension, p.samples, p.extended
            )));
        }
        let tree = match p.layout {
            0 => Miptree::linear(p.width, p.height, p.linear_pitch, fmt.bytes()),
            2 => {
                let levels = if p.levels > 1 {
                    p.levels.max(full_chain(p.width, p.height, 1))
                } else {
                    1
                };
                Miptree::twiddled(
                    p.width,
                    p.height,
                    levels,
                    fmt.bytes(),
                    p.page_aligned_layers,
                )?
            }
            l => return Err(unsupported(format!("image layout {l}"))),
        };
        let index = i64::from(p.level) + lod;
        let level = *usize::try_from(index)
            .ok()
            .and_then(|i| tree.levels.get(i))
            .ok_or_else(|| {
                unsupported(format!(
                    "thread {lane}: PBE level {} + LOD {lod} of {} levels",
                    p.level,
                    tree.levels.len()
                ))
            })?;
        let [x, y, _] = coordinate_bits(w, &coords, axes, array, lane)?;
        let layer = if array {
            array_layer(w, &coords, axes, lane)?
        } else {
            0
        };
        let layers = if p.layout == 0 { 1 } else { p.layers };
        if x >= level.width || y >= level.height || layer >= layers {
            return Err(unsupported(format!(
                "thread {lane}: image_write to texel ({x}, {y}) layer {layer} outside {}x{} x {layers} \
                 (GL: no effect; the hardware's behaviour is not documented)",
                level.width, level.height
            )));
        }
        let layer_offset = match tree.layer_stride {
            Some(stride) => stride * u64::from(layer),
            None => 0,
        };
        // the stored channels' source components, read as the format's type
        let mut values = [Value::Int(0); 4];
        for (v, &k) in values.iter_mut().zip(&p.swizzle).take(fmt.components()) {
            let r = *src.get(k as usize).ok_or_else(|| missing("R"))?;
            let raw = w.read(r, lane)?;
            let wide = r.file == RegFile::R32;
            *v = match (fmt.kind, wide) {
                (NumKind::Uint, true) => Value::Int(i64::from(raw as u32)),
                (NumKind::Uint, false) => Value::Int(i64::from(raw as u16)),
                (NumKind::Sint, true) => Value::Int(i64::from(raw as u32 as i32)),
                (NumKind::Sint, false) => Value::Int(i64::from(raw as u16 as i16)),
                (_, true) => Value::Float(f32::from_bits(raw as u32)),
                (_, false) => Value::Float(half::f16::from_bits(raw as u16).to_f32()),
            };
        }
        let bytes = fmt.encode(values)?;
        let addr = p
            .address
            .wrapping_add(layer_offset)
            .wrapping_add(tree.texel_offset(index as usize, x, y)?);
        dev.write(addr, &bytes)
            .map_err(|source| Fault::Memory { lane, source })?;
        let mut value = [0u8; 8];
        let low = bytes.len().min(8);
        value[..low].copy_from_slice(&bytes[..low]);
        // seen by traces and `--check races` as a store to the texture's memory
        w.record(
            AccessKind::Store,
            "texture",
            lane,
            addr,
            fmt.bytes(),
            u64::from_le_bytes(value),
        );
    }
    if relative {
        *w.approximated.entry(NONZERO_LOD).or_insert(0) += 1;
    }
    Ok(())
}
