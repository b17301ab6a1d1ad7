//! The tile buffer (`ld_tile`/`st_tile`, applegpu's "TODO.ld/st_tile" row; Mesa 22.3's
//! `AGX_OPCODE_LD_TILE`/`ST_TILE`, `agx_pack.c`) and the pixel-order waits (`wait_pix`, Mesa 22.3's
//! `writeout`; `signal_pix`).
//!
//! The tile buffer is the fragment group's threadgroup memory laid out as Mesa 22.3's driver
//! configures it (`agx_build_pipeline`: `AGX_SHARED_LAYOUT_32X32`, `pixel_stride_in_8_bytes = 1`,
//! 32 x 256 bytes per threadgroup): pixel (x, y) of the 32x32 tile owns bytes `8 (32 (y mod 32) +
//! x mod 32)` onward. Only `ld_tile`/`st_tile` reach it in a fragment shader, so the order of the
//! pixels inside is not observable; within a pixel, a format's components sit at the byte offset
//! `O` (render target 0 is offset 0 in Mesa 22.3, the only one its compiler emits: "todo: MRT").
//! The thread's pixel is the one `get_sr` sr80/sr81 report (the fragment runner sets both). A
//! store of a thread whose samples are all killed (`sample_mask`) writes nothing: Mesa 22.3
//! implements `discard` as a demote (`agx_emit_discard`: the sample mask, not the exec mask, stops
//! the pixel's write).
//!
//! Multisampled tiles (Mesa 25.0, [`TileLayout`], `WaveState::tile_layout`): each pixel holds
//! one record per sample. The access's sample mask `S` (an immediate or a 16-bit register, as
//! `agx_pack.c` packs `local_store_pixel`/`local_load_pixel`) names the samples: a store writes
//! every named sample that `sample_mask` has not killed (rule 1 of Mesa's
//! `agx_nir_lower_sample_mask.c`: nothing is written for discarded samples), the same value to
//! each (Mesa's epilog stores with 0xff outside sample shading: one colour for the pixel's
//! samples); a load must name exactly one sample (Mesa's loads run inside its sample loops), a
//! wider one is a typed error.
//!
//! Formats (field F, applegpu's names): `u8norm` stores each component as
//! `round_half_even(clamp(v, 0, 1) * 255)` (NaN as 0) and loads `byte / 255` correctly rounded
//! (the GL 4.6 unsigned-normalized conversions, 2.3.5.1-2, with round to nearest); `i8`, `i16`,
//! `i32` move the low bits unchanged; `f16` moves 16-bit floats. The register source is 16- or
//! 32-bit (Rt); a float format converts from and to the register's width. Other formats or a
//! nonzero `C` are typed errors.
//!
//! `wait_pix`/`signal_pix` order tile-buffer accesses of overlapping pixels across groups in
//! primitive order (Asahi's "pixel ordering" waits, applegpu `wait_pix`/`signal_pix`). wavesim
//! shades one group at a time, in primitive order, so every wait is already satisfied when it
//! executes: they complete immediately, which is their documented effect here, not a skipped one.

use super::{active, missing, Fault, Ops, WaveState};
use crate::operand::{Operand, RegFile};
use wavesim_core::observe::AccessKind;

/// Bytes of one sample in the tile buffer (`pixel_stride_in_8_bytes = 1`; Mesa 25.0's
/// `sample_size_B` for up to two RGBA8 render targets).
pub const PIXEL_STRIDE: usize = 8;
/// Tile edge in pixels of a single-sampled tile (`AGX_SHARED_LAYOUT_32X32`).
pub const TILE_EDGE: u32 = 32;
/// Bytes of a single-sampled tile buffer.
pub const TILE_BYTES: usize = PIXEL_STRIDE * (TILE_EDGE * TILE_EDGE) as usize;

/// The tile buffer of a draw: samples per pixel and the tile's size in pixels, each sample
/// `PIXEL_STRIDE` bytes. Mesa 25.0's `agx_build_tilebuffer_layout` (`agx_tilebuffer.c`): the
/// sample size is the render targets' bytes rounded up to 8, and the tile the largest of 32x32,
/// 32x16, 16x16 whose `sample size x samples x pixels` stays within 32767 bytes
/// (`MAX_BYTES_PER_TILE`); for 8-byte samples that is 32x32 at 1 and 2 samples, 32x16 at 4.
/// Where inside the tile buffer a pixel's samples sit is the hardware's and not observable
/// (only `ld_tile`/`st_tile` and the end-of-tile store reach it): wavesim keeps a pixel's
/// samples together, row-major pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TileLayout {
    pub samples: u32,
    pub width: u32,
    pub height: u32,
}

impl TileLayout {
    /// One sample, 32x32 pixels.
    pub const SINGLE: TileLayout = TileLayout {
        samples: 1,
        width: TILE_EDGE,
        height: TILE_EDGE,
    };

    /// The layout Mesa builds for 8-byte samples at `samples` (1, 2 or 4: G13's counts).
    pub fn for_samples(samples: u32) -> Option<TileLayout> {
        if ![1, 2, 4].contains(&samples) {
            return None;
        }
        // agx_select_tile_size: the first of 32x32, 32x16, 16x16 within MAX_BYTES_PER_TILE
        let per_pixel = PIXEL_STRIDE as u32 * samples;
        let (width, height) = [(32, 32), (32, 16), (16, 16)]
            .into_iter()
            .find(|(w, h)| per_pixel * w * h <= 32767)?;
        Some(TileLayout {
            samples,
            width,
            height,
        })
    }

    /// Bytes of the whole tile buffer.
    pub fn bytes(&self) -> usize {
        PIXEL_STRIDE * (self.samples * self.width * self.height) as usize
    }

    /// Bit mask of every sample of a pixel.
    pub fn all_samples(&self) -> u8 {
        ((1u32 << self.samples.min(8)) - 1) as u8
    }

    /// Byte offset of sample `s` of pixel (x, y).
    pub fn offset(&self, x: u32, y: u32, s: u32) -> usize {
        let px = (y % self.height) * self.width + x % self.width;
        PIXEL_STRIDE * (px * self.samples + s) as usize
    }
}

/// Byte offset of pixel (x, y)'s storage in a single-sampled tile buffer.
pub fn pixel_offset(x: u32, y: u32) -> usize {
    TileLayout::SINGLE.offset(x, y, 0)
}

fn unsupported(what: String) -> Fault {
    Fault::UnsupportedForm { what }
}

/// `round_half_even(clamp(v, 0, 1) * 255)`, NaN as 0.
pub fn to_unorm8(v: f32) -> u8 {
    if v.is_nan() {
        return 0;
    }
    (f64::from(v.clamp(0.0, 1.0)) * 255.0).round_ties_even() as u8
}

pub(super) fn tile_access(w: &mut WaveState, o: &Ops<'_>, tg: &mut [u8]) -> Result<(), Fault> {
    let load = o.field("load") == 1;
    let format = o.field("F");
    let (size, name) = match format {
        0 => (1, "i8"),
        1 => (2, "i16"),
        2 => (4, "i32"),
        3 => (2, "f16"),
        4 => (1, "u8norm"),
        f => return Err(unsupported(format!("tile buffer format {f}"))),
    };
    let mask_op = o.op("S")?.clone();
    if o.field("C") != 0 {
        return Err(unsupported(format!("tile access C = {}", o.field("C"))));
    }
    let offset = o.field("O") as usize;
    let regs = match o.op("R")? {
        Operand::Tuple(r, _) => r.clone(),
        _ => return Err(missing("R")),
    };
    let components = o.field("mask");
    // components sit at consecutive `size`-byte places: the highest one in the mask bounds it
    let span = (u64::BITS - (components & 0xF).leading_zeros()) as usize;
    if offset + span * size > PIXEL_STRIDE {
        return Err(unsupported(format!(
            "tile access of {span} x {name} at byte {offset}: beyond the {PIXEL_STRIDE}-byte \
             sample"
        )));
    }
    let (xs, ys) = match (w.special.get(&80), w.special.get(&81)) {
        (Some(x), Some(y)) => (*x, *y),
        _ => {
            return Err(unsupported(
                "tile access outside a fragment run (no pixel position)".into(),
            ))
        }
    };
    let layout = w.tile_layout;
    if tg.len() < layout.bytes() {
        return Err(unsupported(format!(
            "tile access with {} bytes of tile memory ({} for {} samples of {}x{} pixels)",
            tg.len(),
            layout.bytes(),
            layout.samples,
            layout.width,
            layout.height
        )));
    }
    for lane in active(w).collect::<Vec<_>>() {
        // The samples S names (an immediate, or a 16-bit register: Mesa's
        // `agx_nir_lower_to_per_sample` masks it with the sample being shaded); 0xff is every
        // sample of the pixel.
        let mask = match &mask_op {
            Operand::Imm(v) => *v as u8,
            Operand::Reg(r, _) => w.read(*r, lane)? as u8,
            _ => return Err(missing("S")),
        } & layout.all_samples();
        // Stores skip killed samples (Mesa's sample_mask rule 1: kills precede the stores).
        let killed = w.coverage.killed.get(lane).copied().unwrap_or(0);
        let samples: Vec<u32> = if load {
            // A load returns one sample's value: several would need a rule for combining them
            // that no public source gives (Mesa loads inside its sample loops, one sample).
            if mask.count_ones() != 1 {
                return Err(unsupported(format!(
                    "thread {lane}: ld_tile of sample mask {mask:#x} ({} samples: one sample's \
                     value is defined)",
                    layout.samples
                )));
            }
            vec![mask.trailing_zeros()]
        } else {
            (0..layout.samples)
                .filter(|s| (mask & !killed) >> s & 1 == 1)
                .collect()
        };
        let access = Access {
            regs: &regs,
            components,
            format,
            size,
            load,
        };
        for sample in samples {
            let at = layout.offset(xs[lane], ys[lane], sample) + offset;
            tile_sample(w, lane, tg, at, &access)?;
        }
    }
    Ok(())
}

/// What one `ld_tile`/`st_tile` moves: the registers, the component mask, the format (field F)
/// and its component size in bytes.
struct Access<'a> {
    regs: &'a [crate::operand::Reg],
    components: u64,
    format: u64,
    size: usize,
    load: bool,
}

/// One sample of an access, at byte `at` of the tile buffer: each component in `a.components`
/// from or to the next register.
fn tile_sample(
    w: &mut WaveState,
    lane: usize,
    tg: &mut [u8],
    at: usize,
    a: &Access<'_>,
) -> Result<(), Fault> {
    let mut ri = 0;
    for c in 0..4usize {
        if a.components >> c & 1 == 0 {
            continue;
        }
        let reg = *a.regs.get(ri).ok_or_else(|| missing("R"))?;
        ri += 1;
        let wide = matches!(reg.file, RegFile::R32 | RegFile::U32);
        let size = a.size;
        let bytes = &mut tg[at + c * size..at + (c + 1) * size];
        if a.load {
            let mut raw = 0u64;
            for (k, b) in bytes.iter().enumerate() {
                raw |= (*b as u64) << (8 * k);
            }
            let v = match a.format {
                4 => float_bits(raw as f64 / 255.0, wide),
                3 if wide => f32::from(half::f16::from_bits(raw as u16)).to_bits() as u64,
                _ => raw,
            };
            let byte = (at + c * size) as u64;
            w.record(AccessKind::Load, "tile", lane, byte, size as u64, raw);
            w.write(reg, lane, v as u128)?;
        } else {
            let v = w.read(reg, lane)?;
            let raw = match a.format {
                4 => to_unorm8(reg_float(v, wide)) as u64,
                3 if wide => half::f16::from_f32(f32::from_bits(v as u32)).to_bits() as u64,
                _ => v,
            };
            bytes.copy_from_slice(&raw.to_le_bytes()[..size]);
            let stored = raw & (u64::MAX >> (64 - 8 * size));
            w.record(
                AccessKind::Store,
                "tile",
                lane,
                (at + c * size) as u64,
                size as u64,
                stored,
            );
        }
    }
    Ok(())
}

/// A register's float value: f32 bits in a 32-bit register, f16 bits in a 16-bit one.
fn reg_float(v: u64, wide: bool) -> f32 {
    if wide {
        f32::from_bits(v as u32)
    } else {
        f32::from(half::f16::from_bits(v as u16))
    }
}

/// `x` rounded once to the register's float width.
fn float_bits(x: f64, wide: bool) -> u64 {
    if wide {
        (x as f32).to_bits() as u64
    } else {
        half::f16::from_f64(x).to_bits() as u64
    }
}

/// `wait_pix` / `signal_pix`: see the module comment.
pub(super) fn pixel_order(w: &WaveState) -> Result<(), Fault> {
    if !w.special.contains_key(&80) {
        return Err(unsupported(
            "pixel-order wait outside a fragment run".into(),
        ));
    }
    Ok(())
}
