//! RDNA3.5 (gfx1150/gfx1151) SALU floating-point instructions: s_add/sub/mul/fmac/min/max
//! f32 and f16, s_fmamk_f32/s_fmaak_f32, s_cvt_*, s_ceil/floor/trunc/rndne and s_cmp_*_f32/f16
//! (table rows flagged `GFX115`).
//!
//! Semantics: the RDNA3.5 ISA guide's pseudocode for these opcodes (`D0.f32 = S0.f32 + S1.f32`,
//! `fma(S0, SIMM32, S1)` for s_fmamk, `fma(S0, S1, D0)` for s_fmac, the VALU's min/max rules
//! with LT_NEG_ZERO / GT_NEG_ZERO and MODE.IEEE, `SCC = S0 < S1` and the negated compares,
//! s_cvt_pk_rtz_f16_f32 rounding toward zero, s_cvt_hi_f32_f16 reading S0[31:16]). They are
//! computed by the same software float core as the VALU ones, under the wave's MODE
//! (rounding, denormal flushing and exception reporting of the f32 and f16/f64 fields), and
//! they leave SCC alone except for the compares.
//!
//! Two points the pseudocode does not settle, decided here:
//! - a 16-bit result (`D0.f16 = ...`) is written zero-extended to the whole SGPR;
//! - a 16-bit source reads the low half of an SGPR, and an inline constant is the f16 value
//!   ("16-bit operands get the 16-bit constant in the low bits and zeros in the high bits",
//!   RDNA3 ISA guide 4.1), so s_cvt_hi_f32_f16 of a constant reads zeros (of a 32-bit
//!   literal, its high half).

use crate::decode::{opnd, Inst};
use crate::exec::operand::{read_scalar, write_sgpr, FpMode};
use crate::exec::vcmp::fcond;
use crate::exec::vfloat::{fpexc, ops, soft};
use crate::exec::{ExecError, Flow, Handler};
use crate::isa::{Op, Ty};
use crate::wave::Wave;
use soft::{FpFmt, Round, F16, F32};

type R = Result<Flow, ExecError>;

/// Source `k` as raw bits of format `f` (f16: the low half of the 32-bit value).
fn src(w: &Wave, i: &Inst, k: usize, f: FpFmt) -> u64 {
    if f == F16 {
        read_scalar(w, i, i.src[k], Ty::F16) & 0xffff
    } else {
        read_scalar(w, i, i.src[k], Ty::F32) & 0xffff_ffff
    }
}

/// Runs `f` under the wave's MODE and writes its 32-bit result to the destination SGPR.
fn run(w: &mut Wave, i: &Inst, f: impl FnOnce(&Wave, &FpMode) -> u64) -> R {
    let m = FpMode::of(w);
    fpexc::begin(&m);
    let d = f(w, &m);
    write_sgpr(w, i.dst[0], d as u32);
    fpexc::finish(w, i, &m, Flow::Next)
}

fn bin(w: &mut Wave, i: &Inst, f: FpFmt, op: fn(FpFmt, u64, u64, &FpMode) -> u64) -> R {
    run(w, i, |w, m| op(f, src(w, i, 0, f), src(w, i, 1, f), m))
}

fn un(w: &mut Wave, i: &Inst, from: FpFmt, op: impl FnOnce(u64, &FpMode) -> u64) -> R {
    run(w, i, |w, m| op(src(w, i, 0, from), m))
}

/// s_fmac: D = fma(S0, S1, D).
fn fmac(w: &mut Wave, i: &Inst, f: FpFmt) -> R {
    run(w, i, |w, m| {
        let mask = if f == F16 { 0xffff } else { 0xffff_ffff };
        let d = read_scalar(w, i, i.dst[0], Ty::B32) & mask;
        ops::fma(f, src(w, i, 0, f), src(w, i, 1, f), d, m)
    })
}

/// s_fmamk / s_fmaak: the table puts K where the pseudocode has it, so both are
/// fma(src0, src1, src2).
fn fmak(w: &mut Wave, i: &Inst) -> R {
    run(w, i, |w, m| {
        ops::fma(
            F32,
            src(w, i, 0, F32),
            src(w, i, 1, F32),
            src(w, i, 2, F32),
            m,
        )
    })
}

/// s_cmp_*_f32/f16: SCC = condition (SOPC opcode bits [3:0], the VOPC float conditions).
fn cmp(w: &mut Wave, i: &Inst, f: FpFmt) -> R {
    let m = FpMode::of(w);
    let c = m.ctl(f);
    fpexc::begin(&m);
    // input() raises invalid for a signalling NaN and input denormal, as VALU compares do.
    let a = soft::input(f, src(w, i, 0, f), &c);
    let b = soft::input(f, src(w, i, 1, f), &c);
    w.scc = fcond(
        i.op.info().opc as u8 & 15,
        soft::to_f64(f, a),
        soft::to_f64(f, b),
    );
    fpexc::finish(w, i, &m, Flow::Next)
}

fn round(w: &mut Wave, i: &Inst, f: FpFmt, rm: Round) -> R {
    un(w, i, f, |a, m| ops::round_int(f, a, rm, m))
}

pub fn handler(op: Op) -> Option<Handler> {
    use Op::*;
    let h: Handler = match op {
        S_ADD_F32 => |w, i, _| bin(w, i, F32, ops::add),
        S_SUB_F32 => |w, i, _| bin(w, i, F32, ops::sub),
        S_MUL_F32 => |w, i, _| bin(w, i, F32, ops::mul),
        S_MIN_F32 => |w, i, _| bin(w, i, F32, ops::min),
        S_MAX_F32 => |w, i, _| bin(w, i, F32, ops::max),
        S_ADD_F16 => |w, i, _| bin(w, i, F16, ops::add),
        S_SUB_F16 => |w, i, _| bin(w, i, F16, ops::sub),
        S_MUL_F16 => |w, i, _| bin(w, i, F16, ops::mul),
        S_MIN_F16 => |w, i, _| bin(w, i, F16, ops::min),
        S_MAX_F16 => |w, i, _| bin(w, i, F16, ops::max),
        S_FMAC_F32 => |w, i, _| fmac(w, i, F32),
        S_FMAC_F16 => |w, i, _| fmac(w, i, F16),
        S_FMAMK_F32 | S_FMAAK_F32 => |w, i, _| fmak(w, i),
        S_CVT_PK_RTZ_F16_F32 => |w, i, _| {
            run(w, i, |w, m| {
                let rtz = m.f64.with_round(Round::Zero);
                let h = |x: u64| soft::convert(F32, F16, soft::input(F32, x, &m.f32), &rtz);
                h(src(w, i, 0, F32)) | h(src(w, i, 1, F32)) << 16
            })
        },
        S_CEIL_F32 => |w, i, _| round(w, i, F32, Round::Up),
        S_FLOOR_F32 => |w, i, _| round(w, i, F32, Round::Down),
        S_TRUNC_F32 => |w, i, _| round(w, i, F32, Round::Zero),
        S_RNDNE_F32 => |w, i, _| round(w, i, F32, Round::NearestEven),
        S_CEIL_F16 => |w, i, _| round(w, i, F16, Round::Up),
        S_FLOOR_F16 => |w, i, _| round(w, i, F16, Round::Down),
        S_TRUNC_F16 => |w, i, _| round(w, i, F16, Round::Zero),
        S_RNDNE_F16 => |w, i, _| round(w, i, F16, Round::NearestEven),
        S_CVT_F32_I32 => |w, i, _| {
            run(w, i, |w, m| {
                let v = read_scalar(w, i, i.src[0], Ty::I32) as u32 as i32;
                ops::from_int(F32, v as i64, m)
            })
        },
        S_CVT_F32_U32 => |w, i, _| {
            run(w, i, |w, m| {
                let v = read_scalar(w, i, i.src[0], Ty::U32) as u32;
                ops::from_int(F32, v as i64, m)
            })
        },
        S_CVT_I32_F32 => |w, i, _| {
            un(w, i, F32, |a, m| {
                ops::to_int(F32, a, m, i32::MIN as i64, i32::MAX as i64) & 0xffff_ffff
            })
        },
        S_CVT_U32_F32 => |w, i, _| un(w, i, F32, |a, m| ops::to_int(F32, a, m, 0, u32::MAX as i64)),
        S_CVT_F16_F32 => |w, i, _| un(w, i, F32, |a, m| ops::cvt(F32, F16, a, m)),
        S_CVT_F32_F16 => |w, i, _| un(w, i, F16, |a, m| ops::cvt(F16, F32, a, m)),
        S_CVT_HI_F32_F16 => |w, i, _| {
            run(w, i, |w, m| {
                // A literal is 32 bits; registers give their high half, constants zeros.
                let v = if i.src[0] == opnd::LITERAL {
                    i.lit as u64
                } else {
                    read_scalar(w, i, i.src[0], Ty::F16)
                };
                ops::cvt(F16, F32, v >> 16 & 0xffff, m)
            })
        },
        S_CMP_LT_F32 | S_CMP_EQ_F32 | S_CMP_LE_F32 | S_CMP_GT_F32 | S_CMP_LG_F32 | S_CMP_GE_F32
        | S_CMP_O_F32 | S_CMP_U_F32 | S_CMP_NGE_F32 | S_CMP_NLG_F32 | S_CMP_NGT_F32
        | S_CMP_NLE_F32 | S_CMP_NEQ_F32 | S_CMP_NLT_F32 => |w, i, _| cmp(w, i, F32),
        S_CMP_LT_F16 | S_CMP_EQ_F16 | S_CMP_LE_F16 | S_CMP_GT_F16 | S_CMP_LG_F16 | S_CMP_GE_F16
        | S_CMP_O_F16 | S_CMP_U_F16 | S_CMP_NGE_F16 | S_CMP_NLG_F16 | S_CMP_NGT_F16
        | S_CMP_NLE_F16 | S_CMP_NEQ_F16 | S_CMP_NLT_F16 => |w, i, _| cmp(w, i, F16),
        _ => return None,
    };
    Some(h)
}
