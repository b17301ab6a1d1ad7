//! LDSDIR: LDS_PARAM_LOAD and LDS_DIRECT_LOAD (RDNA3 ISA 12.2 "Pixel Parameter Interpolation",
//! 12.2.1 "LDS Parameter Loads", 12.4 "LDS Direct Load"; RDNA3 ISA guide, 3.3 "Instruction skipping").
//!
//! - LDS_PARAM_LOAD: M0 = { 1'b0, new_prim_mask[15:1], lds_param_offset[15:0] }. Bit q of
//!   new_prim_mask says quad q starts a new primitive (quad 0 always does), so quad q uses
//!   primitive `prim# = popcount(new_prim_mask[q:1])` and the wave holds `numPrims =
//!   popcount(new_prim_mask[quads-1:1]) + 1` primitives. The dword read for ATTR/ATTR_CHAN is at
//!   `lds_param_offset / 4 + attr * numPrims * 12 + prim# * 12 + vertex * 4 + chan`
//!   (P0.xyzw, P10.xyzw, P20.xyzw per primitive). Quad lanes 0, 1, 2 receive P0, P10, P20 and
//!   lane 3 receives zero. lds_param_offset[6:0] must be zero and ATTR at most 32; anything else
//!   stops with an error naming the field.
//! - LDS_DIRECT_LOAD (ISA 12.4): M0 = { 13'b0, DataType[2:0], LDS_address[15:0] }; the address
//!   is a byte address that "must be DWORD aligned" and one DWORD is read and broadcast.
//!   DataType 0 unsigned byte, 1 unsigned short, 2 DWORD, 4 signed byte, 5 signed short: the
//!   byte/short types take the low 8/16 bits of the DWORD, zero- or sign-extended. 3 ("unused"),
//!   6 and 7 ("reserved") and a misaligned address stop with an error naming them.
//! - Both use EXEC per quad: if any lane of a quad is in EXEC all four lanes are written (ISA
//!   12.2.1). Reads outside the workgroup's LDS return zero (RDNA3 ISA guide, ch. 3 "Wave state", LDS out of range).
//! - Both count in EXP_CNT, and both are skipped when EXEC == 0 and EXP_CNT == 0 (ISA 12.2.1.2,
//!   RDNA3 ISA guide, ch. 3 "Wave state"). A destination VGPR out of range still performs the read with EXEC forced to zero:
//!   nothing is written.
//! - WAIT_VDST waits for outstanding VALU results; the functional model completes every VALU
//!   instruction as it issues, so there is never anything to wait for. The pixel-shader wait for
//!   STATUS.LDS_READY likewise ends at once: the host loads parameters before the wave starts.

use crate::decode::{opnd, Inst};
use crate::exec::lds_bytes::lds_load;
use crate::exec::operand::vdst_in_range;
use crate::exec::{Ctx, ExecError, Flow, Handler};
use crate::isa::Op;
use crate::wave::{Wave, LANES};

pub fn handler(op: Op) -> Option<Handler> {
    match op {
        Op::LDS_PARAM_LOAD => Some(param_load),
        Op::LDS_DIRECT_LOAD => Some(direct_load),
        _ => None,
    }
}

/// EXEC widened to whole quads.
pub fn quad_exec(exec: u64) -> u64 {
    let mut m = 0u64;
    for q in 0..16 {
        if exec >> (4 * q) & 0xf != 0 {
            m |= 0xf << (4 * q);
        }
    }
    m
}

/// The skip rule and the issue: Ok(None) when skipped, else the quad mask to write (zero when
/// the destination is out of range).
fn issue(w: &mut Wave, inst: &Inst) -> Option<u64> {
    let exec = w.exec();
    if exec == 0 && w.cnt.exp == 0 {
        return None;
    }
    w.cnt.exp_issue();
    if !vdst_in_range(w, inst.dst[0], 1) {
        return Some(0);
    }
    Some(quad_exec(exec) & w.lane_mask())
}

fn lds_dword(lds: &[u8], byte: u64) -> u32 {
    lds_load::<4>(lds, byte).map_or(0, u32::from_le_bytes)
}

/// Primitive index of each quad and the number of primitives, from new_prim_mask[15:1].
pub fn prims_of_quads(new_prim_mask: u32, quads: usize) -> ([u32; 16], u32) {
    let mut prim = [0u32; 16];
    let mut p = 0;
    for (q, slot) in prim.iter_mut().enumerate().take(quads) {
        if q > 0 && new_prim_mask >> q & 1 != 0 {
            p += 1;
        }
        *slot = p;
    }
    (prim, p + 1)
}

fn param_load(w: &mut Wave, inst: &Inst, ctx: &mut Ctx) -> Result<Flow, ExecError> {
    let attr = (inst.imm2 >> 2) as u64;
    let chan = (inst.imm2 & 3) as u64;
    let m0 = w.m0();
    let offset = m0 & 0xffff;
    if attr > 32 {
        return Err(ExecError::Other(format!(
            "lds_param_load: attribute {attr} (ATTR is 0-32)"
        )));
    }
    if offset & 0x7f != 0 {
        return Err(ExecError::Other(format!(
            "lds_param_load: M0 lds_param_offset {offset:#x} has bits [6:0] set (must be zero)"
        )));
    }
    let Some(write) = issue(w, inst) else {
        return Ok(Flow::Next);
    };
    // M0[30:16] = new_prim_mask[15:1]: bit q of the mask is M0 bit 15 + q.
    let new_prim_mask = (m0 >> 15) & 0xfffe;
    let quads = w.lanes() / 4;
    let (prim, num_prims) = prims_of_quads(new_prim_mask, quads);
    let mut vals = [0u32; LANES];
    for q in 0..quads {
        if write >> (4 * q) & 0xf == 0 {
            continue;
        }
        for v in 0..3u64 {
            let dword = offset as u64 / 4
                + attr * num_prims as u64 * 12
                + prim[q] as u64 * 12
                + v * 4
                + chan;
            vals[4 * q + v as usize] = lds_dword(ctx.lds, dword * 4);
        }
    }
    let r = (inst.dst[0] - opnd::VGPR0) as usize;
    if let Some(row) = w.vrow_mut(r) {
        for (l, x) in row.iter_mut().enumerate() {
            if write >> l & 1 != 0 {
                *x = vals[l];
            }
        }
    }
    Ok(Flow::Next)
}

fn direct_load(w: &mut Wave, inst: &Inst, ctx: &mut Ctx) -> Result<Flow, ExecError> {
    let m0 = w.m0();
    let dtype = m0 >> 16 & 7;
    if matches!(dtype, 3 | 6 | 7) {
        return Err(ExecError::Other(format!(
            "lds_direct_load: M0 data type {dtype} (0-2, 4 and 5 are defined)"
        )));
    }
    if m0 & 3 != 0 {
        return Err(ExecError::Other(format!(
            "lds_direct_load: M0 address {:#x} is not DWORD aligned (ISA 12.4)",
            m0 & 0xffff
        )));
    }
    let Some(write) = issue(w, inst) else {
        return Ok(Flow::Next);
    };
    let d = lds_dword(ctx.lds, (m0 & 0xffff) as u64);
    let v = match dtype {
        0 => d & 0xff,
        4 => d as u8 as i8 as i32 as u32,
        1 => d & 0xffff,
        5 => d as u16 as i16 as i32 as u32,
        _ => d,
    };
    let r = (inst.dst[0] - opnd::VGPR0) as usize;
    if let Some(row) = w.vrow_mut(r) {
        for (l, x) in row.iter_mut().enumerate() {
            if write >> l & 1 != 0 {
                *x = v;
            }
        }
    }
    Ok(Flow::Next)
}
