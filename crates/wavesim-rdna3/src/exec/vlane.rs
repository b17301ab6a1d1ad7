//! Cross-lane VALU: v_readlane / v_readfirstlane / v_writelane, v_permlane16 / x16 / 64, and
//! the M0-indexed moves and swaps v_movrel{d,s,sd,sd_2}_b32, v_swap_b32, v_swaprel_b32
//! (RDNA3 ISA 7.8 "VGPR Indexing" and the opcode pseudocode).
//!
//! v_readlane, v_readfirstlane and v_writelane ignore EXEC and are issued once in wave64 (seed
//! 000 "instruction skipping"); the permlanes and moves honour EXEC like any VALU op.

use crate::decode::{opnd, Dpp, Inst};
use crate::exec::dpp;
use crate::exec::operand::{read_scalar, vdst32, vdst_in_range, write_sgpr, Lanes32};
use crate::exec::{Ctx, ExecError, Flow, Handler};
use crate::isa::{Op, Ty};
use crate::wave::{Wave, LANES};

type R = Result<Flow, ExecError>;

/// The SGPR a v_readlane / v_readfirstlane writes (its vdst field). Decoders before the
/// readlane special case stored it as a VGPR code; both forms are accepted.
#[inline]
fn sgpr_dst(inst: &Inst) -> u16 {
    let d = inst.dst[0];
    if d >= opnd::VGPR0 {
        d - opnd::VGPR0
    } else {
        d
    }
}

/// The VGPR number a source code names, if it is a VGPR.
#[inline]
fn vgpr_of(code: u16) -> Option<usize> {
    opnd::is_vgpr(code).then(|| (code - opnd::VGPR0) as usize)
}

/// A 32-bit scalar operand (SGPR, M0, constant, literal).
#[inline]
fn scalar(w: &Wave, inst: &Inst, code: u16) -> u32 {
    read_scalar(w, inst, code, Ty::B32) as u32
}

/// Value of source `k` in lane `lane`: a VGPR's lane, or the scalar operand.
#[inline]
fn lane_value(w: &Wave, inst: &Inst, k: usize, lane: usize) -> u32 {
    let code = inst.src[k];
    match vgpr_of(code) {
        Some(r) => w.vrow(r)[lane],
        None => scalar(w, inst, code),
    }
}

/// v_readlane_b32: SGPR = VGPR[lane][src0]; the lane select (SGPR, M0 or constant) keeps only
/// the bits of a valid lane number (ISA 7.2.1: "ignoring upper bits of the lane number").
fn readlane(w: &mut Wave, inst: &Inst, _: &mut Ctx) -> R {
    let lane = (scalar(w, inst, inst.src[1]) as usize) & (w.lanes() - 1);
    let v = lane_value(w, inst, 0, lane);
    write_sgpr(w, sgpr_dst(inst), v);
    Ok(Flow::Next)
}

/// v_readfirstlane_b32: the lowest active lane, lane 0 when EXEC is zero.
fn readfirstlane(w: &mut Wave, inst: &Inst, _: &mut Ctx) -> R {
    let exec = w.exec();
    let lane = if exec == 0 {
        0
    } else {
        exec.trailing_zeros() as usize
    };
    let v = lane_value(w, inst, 0, lane);
    write_sgpr(w, sgpr_dst(inst), v);
    Ok(Flow::Next)
}

/// v_writelane_b32: VGPR[lane][vdst] = S0 regardless of EXEC.
fn writelane(w: &mut Wave, inst: &Inst, _: &mut Ctx) -> R {
    let v = scalar(w, inst, inst.src[0]);
    let lane = (scalar(w, inst, inst.src[1]) as usize) & (w.lanes() - 1);
    if vdst_in_range(w, inst.dst[0], 1) {
        w.vgpr_set((inst.dst[0] - opnd::VGPR0) as usize, lane, v);
    }
    Ok(Flow::Next)
}

/// v_permlane16_b32 (`cross` = false) and v_permlanex16_b32 (`cross` = true): lane i of each
/// row reads lane sel[i] (4 bits of {S2, S1}) of its own row, or of the other row of its pair
/// (0<->1, 2<->3). OPSEL[0] is FI and OPSEL[1] BOUND_CTRL as in DPP16: a source lane disabled
/// by EXEC is read anyway with FI=1, else reads 0 with BOUND_CTRL=1, else the lane keeps its
/// destination (RDNA3 ISA: V_PERMLANE16_B32 and the DPP16 BC/FI rules).
fn permlane16(w: &mut Wave, inst: &Inst, cross: bool) -> R {
    let sel = scalar(w, inst, inst.src[1]) as u64 | (scalar(w, inst, inst.src[2]) as u64) << 32;
    let fi = inst.op_sel & 1 != 0;
    let bc = inst.op_sel & 2 != 0;
    let exec = w.exec();
    let mut src = [0u32; LANES];
    match vgpr_of(inst.src[0]) {
        Some(r) => src.copy_from_slice(w.vrow(r)),
        None => src = [scalar(w, inst, inst.src[0]); LANES],
    }
    let mut d = [0u32; LANES];
    let mut kill = 0u64;
    let n = w.lanes();
    for (l, dl) in d.iter_mut().enumerate().take(n) {
        let row = l / 16;
        let from_row = if cross { row ^ 1 } else { row };
        let s = from_row * 16 + ((sel >> (4 * (l & 15))) & 15) as usize;
        if fi || (exec >> s) & 1 != 0 {
            *dl = src[s];
        } else if bc {
            *dl = 0;
        } else {
            kill |= 1 << l;
        }
    }
    vdst32(w, inst.dst[0], &d, exec & !kill);
    Ok(Flow::Next)
}

/// v_permlane64_b32: wave64 lanes read lane i ^ 32; a no-op in wave32 (ISA: "treated as scalar
/// NOP in wave32").
fn permlane64(w: &mut Wave, inst: &Inst, _: &mut Ctx) -> R {
    if !w.wave64 {
        return Ok(Flow::Next);
    }
    let mut src = [0u32; LANES];
    match vgpr_of(inst.src[0]) {
        Some(r) => src.copy_from_slice(w.vrow(r)),
        None => src = [scalar(w, inst, inst.src[0]); LANES],
    }
    let mut d = [0u32; LANES];
    for l in 0..LANES {
        d[l] = src[l ^ 32];
    }
    let m = w.exec();
    vdst32(w, inst.dst[0], &d, m);
    Ok(Flow::Next)
}

/// A VGPR index relative to M0 (RDNA3 ISA guide, Wave State, V_MOVREL ranges): `None` when base + index leaves the
/// wave's VGPRs (or the index exceeds 255).
#[inline]
fn rel(w: &Wave, base: usize, index: u32) -> Option<usize> {
    let r = base as u64 + index as u64;
    (index <= 255 && r < w.num_vgprs as u64).then_some(r as usize)
}

/// Reads source 0 of a movrel op at VGPR `r` (DPP applies as for any src0).
fn row_with_dpp(w: &Wave, inst: &Inst, r: usize) -> (Lanes32, u64) {
    let mut out = [0u32; LANES];
    let kill = if inst.dpp != Dpp::None {
        dpp::apply(w, inst, w.vrow(r), &mut out)
    } else {
        out.copy_from_slice(w.vrow(r));
        0
    };
    (out, kill)
}

/// The v_movrel family. `src_idx` / `dst_idx` are the M0-derived offsets of source and
/// destination (None: not relative). An out-of-range relative source reads VGPR0 and an
/// out-of-range destination makes the instruction a NOP (RDNA3 ISA guide, Wave State).
fn movrel(w: &mut Wave, inst: &Inst, src_idx: Option<u32>, dst_idx: Option<u32>) -> R {
    let (vals, kill) = match (vgpr_of(inst.src[0]), src_idx) {
        (Some(r), Some(ix)) => row_with_dpp(w, inst, rel(w, r, ix).unwrap_or(0)),
        (Some(r), None) => row_with_dpp(w, inst, r),
        (None, _) => {
            let v = scalar(w, inst, inst.src[0]);
            ([v; LANES], 0)
        }
    };
    let Some(d) = vgpr_of(inst.dst[0]) else {
        return Ok(Flow::Next);
    };
    let d = match dst_idx {
        Some(ix) => match rel(w, d, ix) {
            Some(d) => d,
            None => return Ok(Flow::Next),
        },
        None => d,
    };
    let m = w.exec() & !kill;
    vdst32(w, opnd::vgpr(d as u32), &vals, m);
    Ok(Flow::Next)
}

/// Swaps VGPRs `a` and `b` in the active lanes; if either is out of range nothing is written
/// (RDNA3 ISA guide, Wave State: "V_SWAP and V_SWAPREL: both are destinations").
fn swap_rows(w: &mut Wave, a: Option<usize>, b: Option<usize>) -> R {
    let (Some(a), Some(b)) = (a, b) else {
        return Ok(Flow::Next);
    };
    if a >= w.num_vgprs as usize || b >= w.num_vgprs as usize {
        return Ok(Flow::Next);
    }
    let mut ra = [0u32; LANES];
    let mut rb = [0u32; LANES];
    ra.copy_from_slice(w.vrow(a));
    rb.copy_from_slice(w.vrow(b));
    let m = w.exec();
    vdst32(w, opnd::vgpr(a as u32), &rb, m);
    vdst32(w, opnd::vgpr(b as u32), &ra, m);
    Ok(Flow::Next)
}

/// The ops of this family that wavesim implements.
pub fn handler(op: Op) -> Option<Handler> {
    let h: Handler = match op {
        Op::V_READLANE_B32 => readlane,
        Op::V_READFIRSTLANE_B32 => readfirstlane,
        Op::V_WRITELANE_B32 => writelane,
        Op::V_PERMLANE16_B32 => |w, i, _| permlane16(w, i, false),
        Op::V_PERMLANEX16_B32 => |w, i, _| permlane16(w, i, true),
        Op::V_PERMLANE64_B32 => permlane64,
        // VGPR[dst + M0] = VGPR[src]
        Op::V_MOVRELD_B32 => |w, i, _| {
            let m0 = w.m0();
            movrel(w, i, None, Some(m0))
        },
        // VGPR[dst] = VGPR[src + M0]
        Op::V_MOVRELS_B32 => |w, i, _| {
            let m0 = w.m0();
            movrel(w, i, Some(m0), None)
        },
        // VGPR[dst + M0] = VGPR[src + M0]
        Op::V_MOVRELSD_B32 => |w, i, _| {
            let m0 = w.m0();
            movrel(w, i, Some(m0), Some(m0))
        },
        // VGPR[dst + M0[25:16]] = VGPR[src + M0[9:0]]
        Op::V_MOVRELSD_2_B32 => |w, i, _| {
            let m0 = w.m0();
            movrel(w, i, Some(m0 & 0x3ff), Some((m0 >> 16) & 0x3ff))
        },
        Op::V_SWAP_B32 => |w, i, _| swap_rows(w, vgpr_of(i.dst[0]), vgpr_of(i.src[0])),
        // tmp = VGPR[src + M0[9:0]]; VGPR[src + M0[9:0]] = VGPR[dst + M0[25:16]]; VGPR[dst..] = tmp
        Op::V_SWAPREL_B32 => |w, i, _| {
            let m0 = w.m0();
            let s = vgpr_of(i.src[0]).and_then(|r| rel(w, r, m0 & 0x3ff));
            let d = vgpr_of(i.dst[0]).and_then(|r| rel(w, r, (m0 >> 16) & 0x3ff));
            swap_rows(w, d, s)
        },
        _ => return None,
    };
    Some(h)
}
