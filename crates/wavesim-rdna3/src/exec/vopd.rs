//! Dual-issue VALU (VOPD, RDNA3 ISA 7.6): two VOP2-like operations X and Y in one
//! instruction. Both read all their sources before either writes ("the 'read' gets the old
//! value"); they share the one literal (also the K of v_dual_fmaak/fmamk).
//!
//! Rules modelled: VOPD is wave32-only and "skipped for wave64" (ISA 7.6), so a wave64 VOPD does
//! nothing; an out-of-range source VGPR reads VGPR (address % 4) (RDNA3 ISA guide, Wave State); if either
//! destination is out of range neither is written (RDNA3 ISA guide, Wave State, multiple destinations);
//! v_dual_cndmask selects with VCC; v_dual_dot2acc_f32_f16 accumulates into its destination and
//! an inline constant source feeds both halves (ISA 7.5.1: "duplicate lo to hi").

use crate::decode::{opnd, Inst};
use crate::exec::operand::{
    dot_inline_const, read_scalar, vdst32, vdst_in_range, vrow_lanes, FpMode, Lanes32,
};
use crate::exec::vfloat::fpexc;
use crate::exec::vfloat::ops;
use crate::exec::vfloat::soft::{self, F16, F32};
use crate::exec::vfloat::{host_fma32, host_lanes32};
use crate::exec::{Ctx, ExecError, Flow, Handler};
use crate::isa::{Op, Ty};
use crate::wave::{Wave, LANES};
use std::mem::MaybeUninit;

/// VOPD instructions are dispatched through `exec`, not through per-op handlers.
pub fn handler(op: Op) -> Option<Handler> {
    let _ = op;
    None
}

/// A VOPD source operand for all lanes: a VGPR row is borrowed (no copy), a scalar or
/// constant is splatted into `buf`. `dot` marks v_dual_dot2acc's packed f16 sources.
#[inline(always)]
fn read<'a>(
    w: &'a Wave,
    inst: &Inst,
    code: u16,
    dot: bool,
    buf: &'a mut MaybeUninit<Lanes32>,
) -> &'a Lanes32 {
    if opnd::is_vgpr(code) {
        let mut r = (code - opnd::VGPR0) as usize;
        if r >= w.num_vgprs as usize {
            r %= 4;
        }
        return vrow_lanes(w, r);
    }
    let v = match dot_inline_const(code, Ty::PkF16).filter(|_| dot) {
        Some(v) => v,
        None => read_scalar(w, inst, code, Ty::B32) as u32,
    };
    buf.write([v; LANES])
}

/// Lanes of a VOPD component: VOPD runs in wave32 only (ISA 7.6), so loops have a fixed count
/// the compiler can unroll and vectorise.
const VOPD_LANES: usize = 32;

/// An f32 op over the lanes: through the host FPU when MODE allows (`host`: round to nearest
/// even without exception detection, with its denormal flushing, `vfloat::host_lanes32`), then
/// lanes whose host result is NaN are redone exactly so NaN propagation follows the ISA; the
/// exact op for every lane otherwise.
#[inline(always)]
fn f32_lanes<const N: usize>(
    host: Option<(bool, bool)>,
    srcs: [&Lanes32; N],
    out: &mut Lanes32,
    op: impl Fn([f32; N]) -> f32,
    exact: impl Fn([u32; N]) -> u32,
) {
    match host {
        Some(ftz) => host_lanes32(srcs, out, VOPD_LANES, ftz, op, exact),
        None => {
            for (l, o) in out[..VOPD_LANES].iter_mut().enumerate() {
                *o = exact(core::array::from_fn(|k| srcs[k][l]));
            }
        }
    }
}

/// `f32_lanes` for fused multiply-add: the host path runs all lanes through `hostfma` (the
/// FMA instruction when the CPU has one; same IEEE result as `mul_add`).
#[inline(always)]
fn fma_lanes(
    host: Option<(bool, bool)>,
    srcs: [&Lanes32; 3],
    out: &mut Lanes32,
    exact: impl Fn([u32; 3]) -> u32,
) {
    match host {
        Some(ftz) => host_fma32(srcs, out, VOPD_LANES, ftz, exact),
        None => {
            let [a, b, c] = srcs;
            for l in 0..VOPD_LANES {
                out[l] = exact([a[l], b[l], c[l]]);
            }
        }
    }
}

/// Computes one component (X or Y) into `out`: `s0`, `s1` are its sources, `d` the old value
/// of its destination, `k` the shared literal.
fn component(
    w: &Wave,
    op: Op,
    s0: &Lanes32,
    s1: &Lanes32,
    d: &Lanes32,
    k: u32,
    out: &mut Lanes32,
) -> Result<(), ExecError> {
    let m = FpMode::of(w);
    let host = m.f32.host_flush();
    let fma_exact = |[a, b, c]: [u32; 3]| ops::fma(F32, a as u64, b as u64, c as u64, &m) as u32;
    let n = VOPD_LANES;
    match op {
        Op::V_FMAC_F32 => fma_lanes(host, [s0, s1, d], out, fma_exact),
        Op::V_FMAAK_F32 => fma_lanes(host, [s0, s1, &[k; LANES]], out, fma_exact),
        // D = S0 * K + S1
        Op::V_FMAMK_F32 => fma_lanes(host, [s0, &[k; LANES], s1], out, fma_exact),
        Op::V_MUL_F32 => f32_lanes(
            host,
            [s0, s1],
            out,
            |[a, b]| a * b,
            |[a, b]| ops::mul(F32, a as u64, b as u64, &m) as u32,
        ),
        Op::V_ADD_F32 => f32_lanes(
            host,
            [s0, s1],
            out,
            |[a, b]| a + b,
            |[a, b]| ops::add(F32, a as u64, b as u64, &m) as u32,
        ),
        Op::V_SUB_F32 => f32_lanes(
            host,
            [s0, s1],
            out,
            |[a, b]| a - b,
            |[a, b]| ops::sub(F32, a as u64, b as u64, &m) as u32,
        ),
        Op::V_SUBREV_F32 => f32_lanes(
            host,
            [s1, s0],
            out,
            |[a, b]| a - b,
            |[a, b]| ops::sub(F32, a as u64, b as u64, &m) as u32,
        ),
        Op::V_MUL_DX9_ZERO_F32 => {
            (0..n).for_each(|l| out[l] = ops::mul_dx9(F32, s0[l] as u64, s1[l] as u64, &m) as u32)
        }
        Op::V_MAX_F32 => {
            (0..n).for_each(|l| out[l] = ops::max(F32, s0[l] as u64, s1[l] as u64, &m) as u32)
        }
        Op::V_MIN_F32 => {
            (0..n).for_each(|l| out[l] = ops::min(F32, s0[l] as u64, s1[l] as u64, &m) as u32)
        }
        Op::V_MOV_B32 => out[..n].copy_from_slice(&s0[..n]),
        Op::V_CNDMASK_B32 => {
            let vcc = w.vcc();
            (0..n).for_each(|l| out[l] = if (vcc >> l) & 1 != 0 { s1[l] } else { s0[l] });
        }
        // D = D + S0.lo * S1.lo + S0.hi * S1.hi (f16 products are exact in f32).
        Op::V_DOT2ACC_F32_F16 => (0..n).for_each(|l| {
            let up = |x: u32| soft::convert(F16, F32, (x & 0xffff) as u64, &soft::FpCtl::IEEE);
            let mut t = d[l] as u64;
            for sh in [0, 16] {
                let p = ops::mul(F32, up(s0[l] >> sh), up(s1[l] >> sh), &m);
                t = ops::add(F32, t, p, &m);
            }
            out[l] = t as u32;
        }),
        Op::V_ADD_NC_U32 => (0..n).for_each(|l| out[l] = s0[l].wrapping_add(s1[l])),
        Op::V_LSHLREV_B32 => (0..n).for_each(|l| out[l] = s1[l] << (s0[l] & 31)),
        Op::V_AND_B32 => (0..n).for_each(|l| out[l] = s0[l] & s1[l]),
        _ => return Err(ExecError::Unimplemented { name: op.name() }),
    }
    Ok(())
}

pub fn exec(w: &mut Wave, inst: &Inst, _ctx: &mut Ctx) -> Result<Flow, ExecError> {
    if w.wave64 {
        // RDNA3 ISA 7.6: "legal only for wave32 ... It is skipped for wave64."
        return Ok(Flow::Next);
    }
    let (opx, opy) = (inst.op, inst.op_y);
    let k = inst.lit;
    let dotx = opx == Op::V_DOT2ACC_F32_F16;
    let doty = opy == Op::V_DOT2ACC_F32_F16;
    let mut bufs = [MaybeUninit::uninit(); 6];
    let [b0, b1, b2, b3, b4, b5] = &mut bufs;
    let (x0, x1) = (
        read(w, inst, inst.src[0], dotx, b0),
        read(w, inst, inst.src[1], dotx, b1),
    );
    let (y0, y1) = (
        read(w, inst, inst.src[2], doty, b2),
        read(w, inst, inst.src[3], doty, b3),
    );
    let dx = read(w, inst, inst.dst[0], false, b4);
    let dy = read(w, inst, inst.dst[1], false, b5);
    let mut rx = [0u32; LANES];
    let mut ry = [0u32; LANES];
    let m = w.exec();
    let mode = FpMode::of(w);
    if mode.detect {
        // Float exceptions come only from executing lanes: the others get the inputs of the
        // first executing lane, so they raise nothing new (their results are discarded).
        if m == 0 {
            return Ok(Flow::Next);
        }
        let mut srcs = [*x0, *x1, *dx, *y0, *y1, *dy];
        {
            let first = m.trailing_zeros() as usize;
            for v in srcs.iter_mut() {
                let x0 = v[first];
                for (l, x) in v.iter_mut().enumerate() {
                    if m >> l & 1 == 0 {
                        *x = x0;
                    }
                }
            }
        }
        let [x0, x1, dx, y0, y1, dy] = srcs;
        fpexc::begin(&mode);
        component(w, opx, &x0, &x1, &dx, k, &mut rx)?;
        component(w, opy, &y0, &y1, &dy, k, &mut ry)?;
    } else {
        component(w, opx, x0, x1, dx, k, &mut rx)?;
        component(w, opy, y0, y1, dy, k, &mut ry)?;
    }
    if !vdst_in_range(w, inst.dst[0], 1) || !vdst_in_range(w, inst.dst[1], 1) {
        return Ok(Flow::Next);
    }
    vdst32(w, inst.dst[0], &rx, m);
    vdst32(w, inst.dst[1], &ry, m);
    fpexc::finish(w, inst, &mode, Flow::Next)
}
