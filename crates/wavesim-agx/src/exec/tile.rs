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
//! Formats (field F, applegpu's names): `u8norm` stores each component as
//! `round_half_even(clamp(v, 0, 1) * 255)` (NaN as 0) and loads `byte / 255` correctly rounded
//! (the GL 4.6 unsigned-normalized conversions, 2.3.5.1-2, with round to nearest); `i8`, `i16`,
//! `i32` move the low bits unchanged; `f16` moves 16-bit floats. The register source is 16- or
//! 32-bit (Rt); a float format converts from and to the register's width. Other formats, a
//! non-immediate or partial sample mask (`S`: Mesa 22.3 packs all-ones), or a nonzero `C` are
//! typed errors.
//!
//! `wait_pix`/`signal_pix` order tile-buffer accesses of overlapping pixels across groups in
//! primitive order (Asahi's "pixel ordering" waits, applegpu `wait_pix`/`signal_pix`). wavesim
//! shades one group at a time, in primitive order, so every wait is already satisfied when it
//! executes: they complete immediately, which is their documented effect here, not a skipped one.

use super::{active, missing, Fault, Ops, WaveState};
use crate::operand::{Operand, RegFile};
use wavesim_core::observe::AccessKind;

/// Bytes of one pixel in the tile buffer (`pixel_stride_in_8_bytes = 1`).
pub const PIXEL_STRIDE: usize = 8;
/// Tile edge in pixels (`AGX_SHARED_LAYOUT_32X32`).
pub const TILE_EDGE: u32 = 32;
/// Bytes of the whole tile buffer.
pub const TILE_BYTES: usize = PIXEL_STRIDE * (TILE_EDGE * TILE_EDGE) as usize;

/// Byte offset of pixel (x, y)'s storage in the tile buffer.
pub fn pixel_offset(x: u32, y: u32) -> usize {
    PIXEL_STRIDE * ((y % TILE_EDGE) * TILE_EDGE + x % TILE_EDGE) as usize
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
    match o.op("S")? {
        Operand::Imm(0xFF) => {}
        s => {
            return Err(unsupported(format!(
                "tile access sample mask {s:?} (Mesa 22.3 packs the immediate 0xff: every sample)"
            )))
        }
    }
    if o.field("C") != 0 {
        return Err(unsupported(format!("tile access C = {}", o.field("C"))));
    }
    let offset = o.field("O") as usize;
    let regs = match o.op("R")? {
        Operand::Tuple(r, _) => r.clone(),
        _ => return Err(missing("R")),
    };
    let mask = o.field("mask");
    if offset + 4 * size > PIXEL_STRIDE {
        return Err(unsupported(format!(
            "tile access of 4 x {name} at byte {offset}: beyond the {PIXEL_STRIDE}-byte pixel"
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
    if tg.len() < TILE_BYTES {
        return Err(unsupported(format!(
            "tile access with {} bytes of tile memory ({TILE_BYTES})",
            tg.len()
        )));
    }
    for lane in active(w).collect::<Vec<_>>() {
        let all = w.coverage.all();
        let killed = w.coverage.killed.get(lane).is_some_and(|k| *k & all == all);
        if !load && w.coverage.samples > 0 && killed {
            continue;
        }
        let at = pixel_offset(xs[lane], ys[lane]) + offset;
        let mut ri = 0;
        for c in 0..4usize {
            if mask >> c & 1 == 0 {
                continue;
            }
            let reg = *regs.get(ri).ok_or_else(|| missing("R"))?;
            ri += 1;
            let wide = matches!(reg.file, RegFile::R32 | RegFile::U32);
            let bytes = &mut tg[at + c * size..at + (c + 1) * size];
            if load {
                let mut raw = 0u64;
                for (k, b) in bytes.iter().enumerate() {
                    raw |= (*b as u64) << (8 * k);
                }
                let v = match format {
                    4 => float_bits(raw as f64 / 255.0, wide),
                    3 if wide => f32::from(half::f16::from_bits(raw as u16)).to_bits() as u64,
                    _ => raw,
                };
                let byte = (at + c * size) as u64;
                w.record(AccessKind::Load, "tile", lane, byte, size as u64, raw);
                w.write(reg, lane, v as u128)?;
            } else {
                let v = w.read(reg, lane)?;
                let raw = match format {
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
