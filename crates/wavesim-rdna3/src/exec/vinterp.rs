//! VINTERP: v_interp_p10_f32, v_interp_p2_f32 and their f16 / round-toward-zero forms.
//!
//! The RDNA3 ISA guide's pseudocode (section "VINTERP") reads the attribute operand from other
//! lanes of the lane's quad, whatever the shader type: with `base = laneId & ~3`,
//!
//! - P10: `D = fma(VGPR[base + 1][SRC0], S1, VGPR[base][SRC2])` (P10 and P0 of the quad);
//! - P2:  `D = fma(VGPR[base + 2][SRC0], S1, S2)` (P20 of the quad, S2 the P10 result).
//!
//! Measured on RDNA3 hardware in a compute wave (tinygrad `test/amd/hw/test_vinterp.py`): with
//! v1 = lane + 100, v3 = lane + 10, S1 = 2.0, `v_interp_p10_f32 v4, v1, s2, v3` gives 212 in
//! lanes 0-3 (101 * 2 + 10) and 224 in lanes 4-7 (105 * 2 + 14); the f16 form likewise. The
//! cross-lane reads ignore EXEC (the pseudocode indexes the VGPR file directly).
//!
//! The f16_f32 forms widen their f16 operands to f32 (exact, the f16 denormal mode applies on
//! input as for v_cvt_f32_f16) and compute the fma in f32. P2_F16_F32 then converts the f32
//! result to f16 (`16'F(fma(...))`: two roundings, as the pseudocode writes it). The RTZ forms
//! round both steps toward zero regardless of MODE. The guide's pseudocode gives
//! V_INTERP_P2_RTZ_F16_F32 an f32 destination; its name and LLVM's operand types (f16
//! result, like V_INTERP_P2_F16_F32) decide here: an f16 written to the op_sel[3] half.
//!
//! Fields: op_sel selects the half of each f16 operand (bit 0 src0, bit 2 src2) and of an f16
//! destination (bit 3); neg negates each source; clamp clamps the result to [0, 1]. wait_exp
//! waits until at most that many exports and parameter loads are outstanding before the
//! instruction runs; the functional model completes those as they issue (their data is already
//! in place), so the wait ends at once and lowers EXP_CNT as s_waitcnt_expcnt does.
//! SRC0 (and SRC2 of P10) name VGPRs of other lanes; a scalar or constant there has no lane
//! to read and stops with a typed error.

use crate::decode::{opnd, Inst};
use crate::exec::operand::{src_mods, vdst16, vdst32, vsrc_typed, FpMode, Lanes32, Lanes64};
use crate::exec::vfloat::{clamp01, fpexc, ops, soft};
use crate::exec::{ExecError, Flow, Handler};
use crate::isa::{Op, Ty};
use crate::wave::{Wave, LANES};
use soft::{Round, F16, F32};

type R = Result<Flow, ExecError>;

/// Which interpolation step and which types.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Form {
    /// P10 (quad lanes 1 and 0) or P2 (quad lane 2, S2 own lane).
    p10: bool,
    /// f16 attribute operands (src0, and src2 of P10).
    f16_in: bool,
    /// f16 result (P2 f16 forms).
    f16_out: bool,
    /// Round toward zero (the RTZ forms).
    rtz: bool,
}

/// A source that the pseudocode reads as `VGPR[lane][SRC]`: the VGPR index.
fn vgpr_index(inst: &Inst, k: usize) -> Result<usize, ExecError> {
    let code = inst.src[k];
    if opnd::is_vgpr(code) {
        Ok((code - opnd::VGPR0) as usize)
    } else {
        Err(ExecError::Other(format!(
            "{}: source {k} must be a VGPR (it is read from another lane of the quad)",
            inst.op.name()
        )))
    }
}

/// The attribute value a lane reads from `row` at quad lane `ql`, as f32 bits with its neg.
fn attr(inst: &Inst, k: usize, form: Form, row: &[u32], lane: usize, ql: usize, m: &FpMode) -> u64 {
    let v = row[(lane & !3) + ql];
    if form.f16_in {
        let h = if inst.op_sel >> k & 1 != 0 {
            v >> 16
        } else {
            v & 0xffff
        };
        let h = src_mods(inst, k, Ty::F16, h as u64);
        ops::cvt(F16, F32, h, m)
    } else {
        src_mods(inst, k, Ty::F32, v as u64)
    }
}

fn interp(w: &mut Wave, inst: &Inst, form: Form) -> R {
    // wait_exp: exports and parameter loads complete as they issue; only the count drops.
    w.cnt.exp = w.cnt.exp.min(inst.imm.clamp(0, 7) as u8);
    let r0 = vgpr_index(inst, 0)?;
    let r2 = if form.p10 {
        Some(vgpr_index(inst, 2)?)
    } else {
        None
    };
    let mut s1: Lanes64 = [0; LANES];
    vsrc_typed(w, inst, 1, Ty::F32, &mut s1);
    let mut s2: Lanes64 = [0; LANES];
    if !form.p10 {
        vsrc_typed(w, inst, 2, Ty::F32, &mut s2);
    }
    let mask = w.exec();
    let mut m = FpMode::of(w);
    if form.rtz {
        m.f32 = m.f32.with_round(Round::Zero);
        m.f64 = m.f64.with_round(Round::Zero);
    }
    fpexc::begin(&m);
    let mut out: Lanes32 = [0; LANES];
    let (row0, row2) = (w.vrow(r0), r2.map(|r| w.vrow(r)));
    for l in 0..w.lanes() {
        if mask >> l & 1 == 0 {
            continue;
        }
        let (a, c) = match row2 {
            Some(row2) => (
                attr(inst, 0, form, row0, l, 1, &m),
                attr(inst, 2, form, row2, l, 0, &m),
            ),
            None => (attr(inst, 0, form, row0, l, 2, &m), s2[l]),
        };
        let mut r = ops::fma(F32, a, s1[l], c, &m);
        if form.f16_out {
            r = ops::cvt(F32, F16, r, &m);
            if inst.clamp {
                r = clamp01(F16, r, m.dx10_clamp);
            }
        } else if inst.clamp {
            r = clamp01(F32, r, m.dx10_clamp);
        }
        out[l] = r as u32;
    }
    if form.f16_out {
        vdst16(w, inst.dst[0], inst.op_sel & 8 != 0, &out, mask);
    } else {
        vdst32(w, inst.dst[0], &out, mask);
    }
    fpexc::finish(w, inst, &m, Flow::Next)
}

const fn form(p10: bool, f16_in: bool, f16_out: bool, rtz: bool) -> Form {
    Form {
        p10,
        f16_in,
        f16_out,
        rtz,
    }
}

pub fn handler(op: Op) -> Option<Handler> {
    let h: Handler = match op {
        Op::V_INTERP_P10_F32 => |w, i, _| interp(w, i, form(true, false, false, false)),
        Op::V_INTERP_P2_F32 => |w, i, _| interp(w, i, form(false, false, false, false)),
        Op::V_INTERP_P10_F16_F32 => |w, i, _| interp(w, i, form(true, true, false, false)),
        Op::V_INTERP_P2_F16_F32 => |w, i, _| interp(w, i, form(false, true, true, false)),
        Op::V_INTERP_P10_RTZ_F16_F32 => |w, i, _| interp(w, i, form(true, true, false, true)),
        Op::V_INTERP_P2_RTZ_F16_F32 => |w, i, _| interp(w, i, form(false, true, true, true)),
        _ => return None,
    };
    Some(h)
}
