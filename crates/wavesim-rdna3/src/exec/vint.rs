//! Integer and bit VALU: 16/32/64-bit integer arithmetic, shifts, bit fields, sad, mads, carries
//! (VOP1, VOP2, VOP3 and VOP3SD forms). Semantics follow the RDNA3 ISA opcode pseudocode.
//!
//! Every op is one handler chosen once per opcode: it fetches its sources into lane arrays
//! (`operand::vsrc32_typed`: op_sel / true16 halves, DPP on src0), runs a per-lane closure that
//! the compiler inlines into a vectorisable loop, and writes the lanes of EXEC (minus lanes a DPP
//! row/bank mask or invalid source disabled). Integer ops take no abs/neg modifiers (RDNA3 ISA
//! 7.2.2.1); the clamp bit saturates to the destination type where the ISA says the op "supports
//! saturation" (ISA 7.2.3.1: signed [min_int, max_int], unsigned [0, max_uint]).

use crate::decode::{opnd, Enc, Inst};
use crate::exec::operand::{
    dst16, read_mask, read_scalar, read_sgpr, vdst16, vdst32, vdst64, vdst_in_range, vsrc32_ref,
    vsrc32_typed, vsrc64, write_mask, Lanes32, Lanes64,
};
use crate::exec::{Ctx, ExecError, Flow, Handler};
use crate::isa::{Op, Ty};
use crate::wave::{Wave, LANES};
use std::mem::MaybeUninit;

type R = Result<Flow, ExecError>;

/// Source `k` typed `ty` (16-bit types: the op_sel / true16 half, zero-extended), with the DPP
/// kill mask ORed into `kill`.
#[inline(always)]
pub(crate) fn src(w: &Wave, inst: &Inst, k: usize, ty: Ty, kill: &mut u64) -> Lanes32 {
    let mut out = [0u32; LANES];
    *kill |= vsrc32_typed(w, inst, k, ty, &mut out);
    out
}

/// 64-bit source `k` (VGPR pair, aligned SGPR pair, or a constant widened per `ty`).
#[inline(always)]
pub(crate) fn src64(w: &Wave, inst: &Inst, k: usize, ty: Ty, kill: &mut u64) -> Lanes64 {
    let mut out = [0u64; LANES];
    *kill |= vsrc64(w, inst, k, ty, &mut out);
    out
}

/// Lanes an ordinary VALU op writes: EXEC minus lanes DPP disabled.
#[inline(always)]
pub(crate) fn wmask(w: &Wave, kill: u64) -> u64 {
    w.exec() & !kill
}

/// Writes a 32-bit result to `dst[0]`.
#[inline(always)]
fn put32(w: &mut Wave, inst: &Inst, d: &Lanes32, kill: u64) -> R {
    let m = wmask(w, kill);
    vdst32(w, inst.dst[0], d, m);
    Ok(Flow::Next)
}

/// Writes a 16-bit result into the half of `dst[0]` that op_sel[3] / true16 selects; the other
/// half keeps its value (RDNA3 ISA 7.2.1 OPSEL: "dest_vgpr = {prev[31:16], result[15:0]}").
#[inline(always)]
fn put16(w: &mut Wave, inst: &Inst, d: &Lanes32, kill: u64) -> R {
    let m = wmask(w, kill);
    let (code, hi) = dst16(inst);
    vdst16(w, code, hi, d, m);
    Ok(Flow::Next)
}

#[inline(always)]
fn un32(w: &mut Wave, i: &Inst, t: Ty, f: impl Fn(u32) -> u32) -> R {
    let mut kill = 0;
    let mut ba = MaybeUninit::uninit();
    let a = vsrc32_ref(w, i, 0, t, &mut ba, &mut kill);
    let mut d = [0u32; LANES];
    for l in 0..LANES {
        d[l] = f(a[l]);
    }
    put32(w, i, &d, kill)
}

#[inline(always)]
fn bin32(w: &mut Wave, i: &Inst, t: [Ty; 2], f: impl Fn(u32, u32) -> u32) -> R {
    let mut kill = 0;
    let (mut ba, mut bb) = (MaybeUninit::uninit(), MaybeUninit::uninit());
    let a = vsrc32_ref(w, i, 0, t[0], &mut ba, &mut kill);
    let b = vsrc32_ref(w, i, 1, t[1], &mut bb, &mut kill);
    let mut d = [0u32; LANES];
    for l in 0..LANES {
        d[l] = f(a[l], b[l]);
    }
    put32(w, i, &d, kill)
}

/// Like `bin32` with the lane number (v_mbcnt).
#[inline(always)]
fn bin32_lane(w: &mut Wave, i: &Inst, f: impl Fn(usize, u32, u32) -> u32) -> R {
    let mut kill = 0;
    let a = src(w, i, 0, Ty::B32, &mut kill);
    let b = src(w, i, 1, Ty::U32, &mut kill);
    let mut d = [0u32; LANES];
    for l in 0..LANES {
        d[l] = f(l, a[l], b[l]);
    }
    put32(w, i, &d, kill)
}

#[inline(always)]
fn tri32(w: &mut Wave, i: &Inst, t: [Ty; 3], f: impl Fn(u32, u32, u32) -> u32) -> R {
    let mut kill = 0;
    let mut bufs = [MaybeUninit::uninit(); 3];
    let [ba, bb, bc] = &mut bufs;
    let a = vsrc32_ref(w, i, 0, t[0], ba, &mut kill);
    let b = vsrc32_ref(w, i, 1, t[1], bb, &mut kill);
    let c = vsrc32_ref(w, i, 2, t[2], bc, &mut kill);
    let mut d = [0u32; LANES];
    for l in 0..LANES {
        d[l] = f(a[l], b[l], c[l]);
    }
    put32(w, i, &d, kill)
}

#[inline(always)]
fn un16(w: &mut Wave, i: &Inst, f: impl Fn(u32) -> u32) -> R {
    let mut kill = 0;
    let a = src(w, i, 0, Ty::B16, &mut kill);
    let mut d = [0u32; LANES];
    for l in 0..LANES {
        d[l] = f(a[l]);
    }
    put16(w, i, &d, kill)
}

#[inline(always)]
fn bin16(w: &mut Wave, i: &Inst, f: impl Fn(u32, u32) -> u32) -> R {
    let mut kill = 0;
    let a = src(w, i, 0, Ty::B16, &mut kill);
    let b = src(w, i, 1, Ty::B16, &mut kill);
    let mut d = [0u32; LANES];
    for l in 0..LANES {
        d[l] = f(a[l], b[l]);
    }
    put16(w, i, &d, kill)
}

#[inline(always)]
fn tri16(w: &mut Wave, i: &Inst, f: impl Fn(u32, u32, u32) -> u32) -> R {
    let mut kill = 0;
    let a = src(w, i, 0, Ty::B16, &mut kill);
    let b = src(w, i, 1, Ty::B16, &mut kill);
    let c = src(w, i, 2, Ty::B16, &mut kill);
    let mut d = [0u32; LANES];
    for l in 0..LANES {
        d[l] = f(a[l], b[l], c[l]);
    }
    put16(w, i, &d, kill)
}

/// 64-bit shifts: src0 = shift count (32-bit), src1 = 64-bit data.
#[inline(always)]
fn shift64(w: &mut Wave, i: &Inst, t: Ty, f: impl Fn(u32, u64) -> u64) -> R {
    let mut kill = 0;
    let a = src(w, i, 0, Ty::U32, &mut kill);
    let b = src64(w, i, 1, t, &mut kill);
    let mut d = [0u64; LANES];
    for l in 0..LANES {
        d[l] = f(a[l], b[l]);
    }
    let m = wmask(w, kill);
    vdst64(w, i.dst[0], &d, m);
    Ok(Flow::Next)
}

#[inline(always)]
fn sx16(v: u32) -> i32 {
    v as u16 as i16 as i32
}

#[inline(always)]
fn sx24(v: u32) -> i64 {
    ((v << 8) as i32 >> 8) as i64
}

#[inline(always)]
fn u24(v: u32) -> u64 {
    (v & 0xff_ffff) as u64
}

/// Saturates to the unsigned range of `bits` bits.
#[inline(always)]
fn sat_u(v: i64, bits: u32) -> u32 {
    v.clamp(0, (1i64 << bits) - 1) as u32
}

/// Saturates to the signed range of `bits` bits (returned as raw low bits).
#[inline(always)]
fn sat_i(v: i64, bits: u32) -> u32 {
    v.clamp(-(1i64 << (bits - 1)), (1i64 << (bits - 1)) - 1) as u32 & (u32::MAX >> (32 - bits))
}

/// Leading/trailing bit counts (v_clz_i32_u32, v_ctz_i32_b32, v_cls_i32): -1 when none found.
#[inline(always)]
fn clz(v: u32) -> u32 {
    if v == 0 {
        u32::MAX
    } else {
        v.leading_zeros()
    }
}
#[inline(always)]
fn ctz(v: u32) -> u32 {
    if v == 0 {
        u32::MAX
    } else {
        v.trailing_zeros()
    }
}
#[inline(always)]
fn cls(v: u32) -> u32 {
    // Bits after the sign bit equal to it (the ISA counts from bit 30 down, starting at 1).
    let x = if (v as i32) < 0 { !v } else { v };
    if x == 0 {
        u32::MAX
    } else {
        x.leading_zeros()
    }
}

/// |x - y| for unsigned values.
#[inline(always)]
fn absdiff(x: u32, y: u32) -> u32 {
    x.abs_diff(y)
}

/// Sum of absolute byte differences (v_sad_u8 without the accumulator); `masked` skips bytes
/// whose reference byte (from `b`) is zero (v_msad_u8).
#[inline(always)]
fn sad8(a: u32, b: u32, masked: bool) -> u32 {
    let mut s = 0;
    for k in 0..4 {
        let (x, y) = ((a >> (8 * k)) & 0xff, (b >> (8 * k)) & 0xff);
        if !(masked && y == 0) {
            s += absdiff(x, y);
        }
    }
    s
}

/// v_perm_b32 byte selector over the 64-bit value {S0, S1} (ISA BYTE_PERMUTE).
#[inline(always)]
fn perm_byte(data: u64, sel: u32) -> u32 {
    let byte = |i: u32| ((data >> (8 * i)) & 0xff) as u32;
    match sel {
        0..=7 => byte(sel),
        8 => ((byte(1) >> 7) & 1) * 0xff,
        9 => ((byte(3) >> 7) & 1) * 0xff,
        10 => ((byte(5) >> 7) & 1) * 0xff,
        11 => ((byte(7) >> 7) & 1) * 0xff,
        12 => 0,
        _ => 0xff,
    }
}

#[inline(always)]
fn perm(s0: u32, s1: u32, sel: u32) -> u32 {
    let data = (s0 as u64) << 32 | s1 as u64;
    let mut d = 0;
    for k in 0..4 {
        d |= perm_byte(data, (sel >> (8 * k)) & 0xff) << (8 * k);
    }
    d
}

/// The scalar destination of a carry-out op: `dst[1]` of VOP3SD; VCC for the e32 forms. The
/// VOP3 (e64) form of a VOP2 carry op is VOP3SD-encoded, so its SDST field (bits 14:8) landed
/// in the abs (10:8) and op_sel (14:11) fields when it was decoded as plain VOP3.
#[inline]
fn carry_dst(inst: &Inst) -> u16 {
    match inst.enc {
        Enc::Vop3sd => inst.dst[1],
        Enc::Vop3 => inst.abs as u16 | (inst.op_sel as u16) << 3,
        _ => opnd::VCC_LO,
    }
}

/// The carry-in mask: src2 in the e64 form, VCC in the e32 form (wave64 reads the 64-bit pair,
/// so the second half's carry comes from SSRC+1 / VCC_HI as the RDNA3 ISA guide (Shader Concepts) requires).
#[inline]
fn carry_in(w: &Wave, inst: &Inst) -> u64 {
    if matches!(inst.enc, Enc::Vop3 | Enc::Vop3sd) {
        read_mask(w, inst, inst.src[2])
    } else {
        w.vcc()
    }
}

/// Runs an add/sub with carry-out: `f(a, b, carry_in) -> (result, carry_out)`. The carry mask
/// is written for every lane of the wave (inactive lanes read 0, the VALU mask convention), even
/// when EXEC is zero (RDNA3 ISA guide, Wave State: VALU ops writing SGPRs are not skipped). If the VGPR destination
/// is out of range nothing is written (RDNA3 ISA guide, Wave State, multiple destinations).
#[inline(always)]
fn carry_op(w: &mut Wave, i: &Inst, cin: bool, f: impl Fn(u32, u32, u32) -> (u32, bool)) -> R {
    let mut kill = 0;
    let a = src(w, i, 0, Ty::U32, &mut kill);
    let b = src(w, i, 1, Ty::U32, &mut kill);
    let ci = if cin { carry_in(w, i) } else { 0 };
    let mut d = [0u32; LANES];
    let mut co = 0u64;
    for l in 0..LANES {
        let (r, c) = f(a[l], b[l], (ci >> l) as u32 & 1);
        d[l] = r;
        co |= (c as u64) << l;
    }
    let m = wmask(w, kill);
    if !vdst_in_range(w, i.dst[0], 1) {
        return Ok(Flow::Next);
    }
    vdst32(w, i.dst[0], &d, m);
    let sd = carry_dst(i);
    if sd == opnd::VCC_LO && matches!(i.enc, Enc::Vop2) {
        w.set_vcc(co & m);
    } else {
        write_mask(w, sd, co & m);
    }
    Ok(Flow::Next)
}

/// v_mad_u64_u32 / v_mad_i64_i32: {D1.u1, D0.u64} = 65-bit S0 * S1 + S2 (VOP3SD).
fn mad64(w: &mut Wave, i: &Inst, signed: bool) -> R {
    let mut kill = 0;
    let (mut ba, mut bb) = (MaybeUninit::uninit(), MaybeUninit::uninit());
    let a = vsrc32_ref(w, i, 0, Ty::U32, &mut ba, &mut kill);
    let b = vsrc32_ref(w, i, 1, Ty::U32, &mut bb, &mut kill);
    let c = src64(w, i, 2, if signed { Ty::I64 } else { Ty::U64 }, &mut kill);
    let mut d = [0u64; LANES];
    let mut co = 0u64;
    // Only the wave's lanes: the 128-bit lane math does not vectorise, and wave32 would
    // otherwise compute 32 results that are never written.
    for l in 0..w.lanes() {
        // The 65-bit result in 64-bit arithmetic: the 32x32 product always fits in 64 bits,
        // so the 65th bit comes from the add alone.
        let (lo, bit64) = if signed {
            let p = a[l] as i32 as i64 * b[l] as i32 as i64;
            let c = c[l] as i64;
            let (sum, ov) = p.overflowing_add(c);
            // On overflow p and c have the same sign, which is the sign of the true sum; bit 64
            // of the 65-bit two's complement result is that sign.
            let neg = if ov { c < 0 } else { sum < 0 };
            let lo = match (i.clamp && ov, c < 0) {
                (true, true) => i64::MIN,
                (true, false) => i64::MAX,
                (false, _) => sum,
            };
            (lo as u64, neg)
        } else {
            let p = a[l] as u64 * b[l] as u64;
            let (lo, carry) = p.overflowing_add(c[l]);
            (if i.clamp && carry { u64::MAX } else { lo }, carry)
        };
        d[l] = lo;
        co |= (bit64 as u64) << l;
    }
    let m = wmask(w, kill);
    if !vdst_in_range(w, i.dst[0], 2) {
        return Ok(Flow::Next);
    }
    vdst64(w, i.dst[0], &d, m);
    write_mask(w, i.dst[1], co & m);
    Ok(Flow::Next)
}

/// v_qsad_pk_u16_u8 / v_mqsad_pk_u16_u8: four (m)sad_u8 over byte windows of the 64-bit S0,
/// each accumulated onto one 16-bit field of S2 and truncated to 16 bits (clamp: saturated).
fn qsad(w: &mut Wave, i: &Inst, masked: bool) -> R {
    let mut kill = 0;
    let a = src64(w, i, 0, Ty::B64, &mut kill);
    let b = src(w, i, 1, Ty::U32, &mut kill);
    let c = src64(w, i, 2, Ty::B64, &mut kill);
    let mut d = [0u64; LANES];
    for l in 0..LANES {
        let mut r = 0u64;
        for k in 0..4 {
            let win = (a[l] >> (8 * k)) as u32;
            let acc = (c[l] >> (16 * k)) & 0xffff;
            let s = sad8(win, b[l], masked) as u64 + acc;
            let s = if i.clamp { s.min(0xffff) } else { s & 0xffff };
            r |= s << (16 * k);
        }
        d[l] = r;
    }
    let m = wmask(w, kill);
    vdst64(w, i.dst[0], &d, m);
    Ok(Flow::Next)
}

/// Reads a 128-bit source (v_mqsad_u32_u8's S2): four consecutive VGPRs or SGPRs; an inline
/// constant or literal fills the low dword (the others read 0).
fn src128(w: &Wave, inst: &Inst, k: usize) -> [Lanes32; 4] {
    let code = inst.src[k];
    let mut out = [[0u32; LANES]; 4];
    if opnd::is_vgpr(code) {
        let r = (code - opnd::VGPR0) as usize;
        for (j, o) in out.iter_mut().enumerate() {
            o.copy_from_slice(w.vrow(r + j));
        }
    } else if code < 128 {
        let base = code & !3;
        for (j, o) in out.iter_mut().enumerate() {
            *o = [read_sgpr(w, base + j as u16); LANES];
        }
    } else {
        out[0] = [read_scalar(w, inst, code, Ty::B32) as u32; LANES];
    }
    out
}

/// v_mqsad_u32_u8: four msad_u8 over byte windows of S0, each added to one dword of S2.
fn mqsad_u32(w: &mut Wave, i: &Inst) -> R {
    let mut kill = 0;
    let a = src64(w, i, 0, Ty::B64, &mut kill);
    let b = src(w, i, 1, Ty::U32, &mut kill);
    let c = src128(w, i, 2);
    let mut d = [[0u32; LANES]; 4];
    for l in 0..LANES {
        for k in 0..4 {
            let win = (a[l] >> (8 * k)) as u32;
            let s = sad8(win, b[l], true) as u64 + c[k][l] as u64;
            d[k][l] = if i.clamp {
                s.min(u32::MAX as u64) as u32
            } else {
                s as u32
            };
        }
    }
    let m = wmask(w, kill);
    if !vdst_in_range(w, i.dst[0], 4) {
        return Ok(Flow::Next);
    }
    for (k, dk) in d.iter().enumerate() {
        vdst32(w, i.dst[0] + k as u16, dk, m);
    }
    Ok(Flow::Next)
}

/// v_mad_u32_u16 / v_mad_i32_i16: 16-bit factors (op_sel halves), 32-bit addend and result.
fn mad32_16(w: &mut Wave, i: &Inst, signed: bool) -> R {
    let mut kill = 0;
    let t = if signed { Ty::I16 } else { Ty::U16 };
    let a = src(w, i, 0, t, &mut kill);
    let b = src(w, i, 1, t, &mut kill);
    let c = src(w, i, 2, Ty::U32, &mut kill);
    let mut d = [0u32; LANES];
    for l in 0..LANES {
        d[l] = if signed {
            let r = sx16(a[l]) as i64 * sx16(b[l]) as i64 + c[l] as i32 as i64;
            if i.clamp {
                sat_i(r, 32)
            } else {
                r as u32
            }
        } else {
            let r = a[l] as i64 * b[l] as i64 + c[l] as i64;
            if i.clamp {
                sat_u(r, 32)
            } else {
                r as u32
            }
        };
    }
    put32(w, i, &d, kill)
}

/// The 16-bit value `d` of a VOP3 16-bit op with the saturating clamp of type (un)signed.
#[inline(always)]
fn res16(v: i64, clamp: bool, signed: bool) -> u32 {
    match (clamp, signed) {
        (false, _) => v as u32 & 0xffff,
        (true, false) => sat_u(v, 16),
        (true, true) => sat_i(v, 16),
    }
}

#[inline(always)]
fn res32(v: i64, clamp: bool, signed: bool) -> u32 {
    match (clamp, signed) {
        (false, _) => v as u32,
        (true, false) => sat_u(v, 32),
        (true, true) => sat_i(v, 32),
    }
}

/// Builds a `Handler` from a body over (wave, inst).
macro_rules! h {
    (|$w:ident, $i:ident| $body:expr) => {
        Some((|$w: &mut Wave, $i: &Inst, _: &mut Ctx| $body) as Handler)
    };
}

/// The ops of this family that wavesim implements.
pub fn handler(op: Op) -> Option<Handler> {
    use Ty::{B32, B64, I32, I64, U16, U32};
    match op {
        // ---- 32-bit add/sub (clamp saturates: ISA "supports saturation") ----
        Op::V_ADD_NC_U32 => h!(|w, i| {
            let c = i.clamp;
            bin32(w, i, [U32, U32], |a, b| {
                res32(a as i64 + b as i64, c, false)
            })
        }),
        Op::V_SUB_NC_U32 => h!(|w, i| {
            let c = i.clamp;
            bin32(w, i, [U32, U32], |a, b| {
                res32(a as i64 - b as i64, c, false)
            })
        }),
        Op::V_SUBREV_NC_U32 => h!(|w, i| {
            let c = i.clamp;
            bin32(w, i, [U32, U32], |a, b| {
                res32(b as i64 - a as i64, c, false)
            })
        }),
        Op::V_ADD_NC_I32 => h!(|w, i| {
            let c = i.clamp;
            bin32(w, i, [I32, I32], |a, b| {
                res32(a as i32 as i64 + b as i32 as i64, c, true)
            })
        }),
        Op::V_SUB_NC_I32 => h!(|w, i| {
            let c = i.clamp;
            bin32(w, i, [I32, I32], |a, b| {
                res32(a as i32 as i64 - b as i32 as i64, c, true)
            })
        }),
        // ---- carries (VCC.u64[laneId] = carry / borrow out) ----
        Op::V_ADD_CO_U32 => h!(|w, i| {
            let c = i.clamp;
            carry_op(w, i, false, |a, b, _| {
                let t = a as u64 + b as u64;
                (res32(t as i64, c, false), t >> 32 != 0)
            })
        }),
        Op::V_SUB_CO_U32 => h!(|w, i| {
            let c = i.clamp;
            carry_op(w, i, false, |a, b, _| {
                (res32(a as i64 - b as i64, c, false), b > a)
            })
        }),
        Op::V_SUBREV_CO_U32 => h!(|w, i| {
            let c = i.clamp;
            carry_op(w, i, false, |a, b, _| {
                (res32(b as i64 - a as i64, c, false), a > b)
            })
        }),
        Op::V_ADD_CO_CI_U32 => h!(|w, i| {
            let c = i.clamp;
            carry_op(w, i, true, |a, b, ci| {
                let t = a as u64 + b as u64 + ci as u64;
                (res32(t as i64, c, false), t >> 32 != 0)
            })
        }),
        Op::V_SUB_CO_CI_U32 => h!(|w, i| {
            let c = i.clamp;
            carry_op(w, i, true, |a, b, ci| {
                let t = a as i64 - b as i64 - ci as i64;
                (res32(t, c, false), b as u64 + ci as u64 > a as u64)
            })
        }),
        Op::V_SUBREV_CO_CI_U32 => h!(|w, i| {
            let c = i.clamp;
            carry_op(w, i, true, |a, b, ci| {
                let t = b as i64 - a as i64 - ci as i64;
                (res32(t, c, false), a as u64 + ci as u64 > b as u64)
            })
        }),
        // ---- 16-bit add/sub/mul/mad ----
        Op::V_ADD_NC_U16 => h!(|w, i| {
            let c = i.clamp;
            bin16(w, i, |a, b| res16(a as i64 + b as i64, c, false))
        }),
        Op::V_SUB_NC_U16 => h!(|w, i| {
            let c = i.clamp;
            bin16(w, i, |a, b| res16(a as i64 - b as i64, c, false))
        }),
        Op::V_ADD_NC_I16 => h!(|w, i| {
            let c = i.clamp;
            bin16(w, i, |a, b| res16(sx16(a) as i64 + sx16(b) as i64, c, true))
        }),
        Op::V_SUB_NC_I16 => h!(|w, i| {
            let c = i.clamp;
            bin16(w, i, |a, b| res16(sx16(a) as i64 - sx16(b) as i64, c, true))
        }),
        Op::V_MUL_LO_U16 => h!(|w, i| {
            let c = i.clamp;
            bin16(w, i, |a, b| res16(a as i64 * b as i64, c, false))
        }),
        Op::V_MAD_U16 => h!(|w, i| {
            let cl = i.clamp;
            tri16(w, i, |a, b, c| {
                res16(a as i64 * b as i64 + c as i64, cl, false)
            })
        }),
        Op::V_MAD_I16 => h!(|w, i| {
            let cl = i.clamp;
            tri16(w, i, |a, b, c| {
                res16(sx16(a) as i64 * sx16(b) as i64 + sx16(c) as i64, cl, true)
            })
        }),
        Op::V_MAD_U32_U16 => h!(|w, i| mad32_16(w, i, false)),
        Op::V_MAD_I32_I16 => h!(|w, i| mad32_16(w, i, true)),
        // ---- multiplies ----
        Op::V_MUL_LO_U32 => h!(|w, i| bin32(w, i, [U32, U32], |a, b| a.wrapping_mul(b))),
        Op::V_MUL_HI_U32 => h!(|w, i| {
            bin32(w, i, [U32, U32], |a, b| {
                ((a as u64 * b as u64) >> 32) as u32
            })
        }),
        Op::V_MUL_HI_I32 => h!(|w, i| {
            bin32(w, i, [I32, I32], |a, b| {
                ((a as i32 as i64 * b as i32 as i64) >> 32) as u32
            })
        }),
        Op::V_MUL_U32_U24 => h!(|w, i| {
            let c = i.clamp;
            bin32(w, i, [U32, U32], |a, b| {
                res32((u24(a) * u24(b)) as i64, c, false)
            })
        }),
        Op::V_MUL_HI_U32_U24 => {
            h!(|w, i| { bin32(w, i, [U32, U32], |a, b| ((u24(a) * u24(b)) >> 32) as u32) })
        }
        Op::V_MUL_I32_I24 => h!(|w, i| {
            let c = i.clamp;
            bin32(w, i, [I32, I32], |a, b| res32(sx24(a) * sx24(b), c, true))
        }),
        Op::V_MUL_HI_I32_I24 => {
            h!(|w, i| { bin32(w, i, [I32, I32], |a, b| ((sx24(a) * sx24(b)) >> 32) as u32) })
        }
        Op::V_MAD_U32_U24 => h!(|w, i| {
            let cl = i.clamp;
            tri32(w, i, [U32, U32, U32], |a, b, c| {
                // 32'U(S0.u24) * 32'U(S1.u24) is taken mod 2^32 before the add.
                let p = (u24(a) * u24(b)) as u32 as i64;
                res32(p + c as i64, cl, false)
            })
        }),
        Op::V_MAD_I32_I24 => h!(|w, i| {
            let cl = i.clamp;
            tri32(w, i, [I32, I32, I32], |a, b, c| {
                let p = (sx24(a) * sx24(b)) as i32 as i64;
                res32(p + c as i32 as i64, cl, true)
            })
        }),
        Op::V_MAD_U64_U32 => h!(|w, i| mad64(w, i, false)),
        Op::V_MAD_I64_I32 => h!(|w, i| mad64(w, i, true)),
        // ---- three-input adds / shifts-and-adds ----
        Op::V_ADD3_U32 => h!(|w, i| {
            tri32(w, i, [U32, U32, U32], |a, b, c| {
                a.wrapping_add(b).wrapping_add(c)
            })
        }),
        Op::V_XAD_U32 => h!(|w, i| tri32(w, i, [U32, U32, U32], |a, b, c| (a ^ b).wrapping_add(c))),
        Op::V_LSHL_ADD_U32 => h!(|w, i| {
            tri32(w, i, [U32, U32, U32], |a, b, c| {
                (a << (b & 31)).wrapping_add(c)
            })
        }),
        Op::V_ADD_LSHL_U32 => h!(|w, i| {
            tri32(w, i, [U32, U32, U32], |a, b, c| {
                a.wrapping_add(b) << (c & 31)
            })
        }),
        Op::V_LSHL_OR_B32 => h!(|w, i| tri32(w, i, [B32, U32, B32], |a, b, c| (a << (b & 31)) | c)),
        Op::V_AND_OR_B32 => h!(|w, i| tri32(w, i, [B32, B32, B32], |a, b, c| (a & b) | c)),
        Op::V_OR3_B32 => h!(|w, i| tri32(w, i, [B32, B32, B32], |a, b, c| a | b | c)),
        Op::V_XOR3_B32 => h!(|w, i| tri32(w, i, [B32, B32, B32], |a, b, c| a ^ b ^ c)),
        // ---- shifts (counts masked to the data width, ISA S0[4:0] / [3:0] / [5:0]) ----
        Op::V_LSHLREV_B32 => h!(|w, i| bin32(w, i, [U32, B32], |a, b| b << (a & 31))),
        Op::V_LSHRREV_B32 => h!(|w, i| bin32(w, i, [U32, B32], |a, b| b >> (a & 31))),
        Op::V_ASHRREV_I32 => {
            h!(|w, i| { bin32(w, i, [U32, I32], |a, b| ((b as i32) >> (a & 31)) as u32) })
        }
        Op::V_LSHLREV_B16 => h!(|w, i| bin16(w, i, |a, b| (b << (a & 15)) & 0xffff)),
        Op::V_LSHRREV_B16 => h!(|w, i| bin16(w, i, |a, b| (b & 0xffff) >> (a & 15))),
        Op::V_ASHRREV_I16 => h!(|w, i| bin16(w, i, |a, b| (sx16(b) >> (a & 15)) as u32 & 0xffff)),
        Op::V_LSHLREV_B64 => h!(|w, i| shift64(w, i, B64, |a, b| b << (a & 63))),
        Op::V_LSHRREV_B64 => h!(|w, i| shift64(w, i, B64, |a, b| b >> (a & 63))),
        Op::V_ASHRREV_I64 => h!(|w, i| shift64(w, i, I64, |a, b| ((b as i64) >> (a & 63)) as u64)),
        // ---- bitwise ----
        Op::V_AND_B32 => h!(|w, i| bin32(w, i, [B32, B32], |a, b| a & b)),
        Op::V_OR_B32 => h!(|w, i| bin32(w, i, [B32, B32], |a, b| a | b)),
        Op::V_XOR_B32 => h!(|w, i| bin32(w, i, [B32, B32], |a, b| a ^ b)),
        Op::V_XNOR_B32 => h!(|w, i| bin32(w, i, [B32, B32], |a, b| !(a ^ b))),
        Op::V_NOT_B32 => h!(|w, i| un32(w, i, B32, |a| !a)),
        Op::V_AND_B16 => h!(|w, i| bin16(w, i, |a, b| a & b)),
        Op::V_OR_B16 => h!(|w, i| bin16(w, i, |a, b| a | b)),
        Op::V_XOR_B16 => h!(|w, i| bin16(w, i, |a, b| a ^ b)),
        Op::V_NOT_B16 => h!(|w, i| un16(w, i, |a| !a & 0xffff)),
        // ---- bit fields and counts ----
        Op::V_BFE_U32 => h!(|w, i| {
            tri32(w, i, [U32, U32, U32], |a, b, c| {
                let (off, width) = (b & 31, c & 31);
                (a >> off) & ((1u32 << width).wrapping_sub(1))
            })
        }),
        Op::V_BFE_I32 => h!(|w, i| {
            tri32(w, i, [I32, U32, U32], |a, b, c| {
                let (off, width) = (b & 31, c & 31);
                if width == 0 {
                    return 0;
                }
                // signext_from_bit: sign-extend the `width`-bit field.
                let f = (a >> off) & ((1u32 << width) - 1);
                (((f << (32 - width)) as i32) >> (32 - width)) as u32
            })
        }),
        Op::V_BFI_B32 => h!(|w, i| tri32(w, i, [B32, B32, B32], |a, b, c| (a & b) | (!a & c))),
        Op::V_BFM_B32 => h!(|w, i| {
            bin32(w, i, [U32, U32], |a, b| {
                ((1u32 << (a & 31)).wrapping_sub(1)) << (b & 31)
            })
        }),
        Op::V_BCNT_U32_B32 => {
            h!(|w, i| bin32(w, i, [B32, U32], |a, b| a.count_ones().wrapping_add(b)))
        }
        Op::V_MBCNT_LO_U32_B32 => h!(|w, i| {
            bin32_lane(w, i, |l, a, b| {
                let below = ((1u64 << l) - 1) as u32;
                (a & below).count_ones().wrapping_add(b)
            })
        }),
        Op::V_MBCNT_HI_U32_B32 => h!(|w, i| {
            bin32_lane(w, i, |l, a, b| {
                let below = (((1u64 << l) - 1) >> 32) as u32;
                (a & below).count_ones().wrapping_add(b)
            })
        }),
        Op::V_BFREV_B32 => h!(|w, i| un32(w, i, B32, |a| a.reverse_bits())),
        Op::V_CLZ_I32_U32 => h!(|w, i| un32(w, i, U32, clz)),
        Op::V_CTZ_I32_B32 => h!(|w, i| un32(w, i, B32, ctz)),
        Op::V_CLS_I32 => h!(|w, i| un32(w, i, I32, cls)),
        Op::V_ALIGNBIT_B32 => h!(|w, i| {
            tri32(w, i, [B32, B32, U32], |a, b, c| {
                (((a as u64) << 32 | b as u64) >> (c & 31)) as u32
            })
        }),
        Op::V_ALIGNBYTE_B32 => h!(|w, i| {
            tri32(w, i, [B32, B32, U32], |a, b, c| {
                (((a as u64) << 32 | b as u64) >> ((c & 3) * 8)) as u32
            })
        }),
        Op::V_PERM_B32 => h!(|w, i| tri32(w, i, [B32, B32, B32], perm)),
        // ---- sad / lerp ----
        Op::V_SAD_U8 => h!(|w, i| {
            let cl = i.clamp;
            tri32(w, i, [U32, U32, U32], |a, b, c| {
                res32(sad8(a, b, false) as i64 + c as i64, cl, false)
            })
        }),
        Op::V_SAD_HI_U8 => h!(|w, i| {
            let cl = i.clamp;
            tri32(w, i, [U32, U32, U32], |a, b, c| {
                res32(((sad8(a, b, false) as i64) << 16) + c as i64, cl, false)
            })
        }),
        Op::V_SAD_U16 => h!(|w, i| {
            let cl = i.clamp;
            tri32(w, i, [U32, U32, U32], |a, b, c| {
                let s = absdiff(a & 0xffff, b & 0xffff) + absdiff(a >> 16, b >> 16);
                res32(s as i64 + c as i64, cl, false)
            })
        }),
        Op::V_SAD_U32 => h!(|w, i| {
            let cl = i.clamp;
            tri32(w, i, [U32, U32, U32], |a, b, c| {
                res32(absdiff(a, b) as i64 + c as i64, cl, false)
            })
        }),
        Op::V_MSAD_U8 => h!(|w, i| {
            let cl = i.clamp;
            tri32(w, i, [U32, U32, U32], |a, b, c| {
                res32(sad8(a, b, true) as i64 + c as i64, cl, false)
            })
        }),
        Op::V_QSAD_PK_U16_U8 => h!(|w, i| qsad(w, i, false)),
        Op::V_MQSAD_PK_U16_U8 => h!(|w, i| qsad(w, i, true)),
        Op::V_MQSAD_U32_U8 => h!(|w, i| mqsad_u32(w, i)),
        Op::V_LERP_U8 => h!(|w, i| {
            tri32(w, i, [U32, U32, U32], |a, b, c| {
                let mut d = 0;
                for k in 0..4 {
                    let s = 8 * k;
                    let v = ((a >> s) & 0xff) + ((b >> s) & 0xff) + ((c >> s) & 1);
                    d |= (v >> 1) << s;
                }
                d
            })
        }),
        // ---- min / max / med3 ----
        Op::V_MIN_I32 => h!(|w, i| bin32(w, i, [I32, I32], |a, b| (a as i32).min(b as i32) as u32)),
        Op::V_MAX_I32 => h!(|w, i| bin32(w, i, [I32, I32], |a, b| (a as i32).max(b as i32) as u32)),
        Op::V_MIN_U32 => h!(|w, i| bin32(w, i, [U32, U32], |a, b| a.min(b))),
        Op::V_MAX_U32 => h!(|w, i| bin32(w, i, [U32, U32], |a, b| a.max(b))),
        Op::V_MIN3_I32 => h!(|w, i| {
            tri32(w, i, [I32, I32, I32], |a, b, c| {
                (a as i32).min(b as i32).min(c as i32) as u32
            })
        }),
        Op::V_MAX3_I32 => h!(|w, i| {
            tri32(w, i, [I32, I32, I32], |a, b, c| {
                (a as i32).max(b as i32).max(c as i32) as u32
            })
        }),
        Op::V_MIN3_U32 => h!(|w, i| tri32(w, i, [U32, U32, U32], |a, b, c| a.min(b).min(c))),
        Op::V_MAX3_U32 => h!(|w, i| tri32(w, i, [U32, U32, U32], |a, b, c| a.max(b).max(c))),
        Op::V_MED3_I32 => h!(|w, i| {
            tri32(w, i, [I32, I32, I32], |a, b, c| {
                med3(a as i32, b as i32, c as i32) as u32
            })
        }),
        Op::V_MED3_U32 => h!(|w, i| tri32(w, i, [U32, U32, U32], med3)),
        Op::V_MAXMIN_U32 => h!(|w, i| tri32(w, i, [U32, U32, U32], |a, b, c| a.max(b).min(c))),
        Op::V_MINMAX_U32 => h!(|w, i| tri32(w, i, [U32, U32, U32], |a, b, c| a.min(b).max(c))),
        Op::V_MAXMIN_I32 => h!(|w, i| {
            tri32(w, i, [I32, I32, I32], |a, b, c| {
                (a as i32).max(b as i32).min(c as i32) as u32
            })
        }),
        Op::V_MINMAX_I32 => h!(|w, i| {
            tri32(w, i, [I32, I32, I32], |a, b, c| {
                (a as i32).min(b as i32).max(c as i32) as u32
            })
        }),
        Op::V_MIN_I16 => h!(|w, i| bin16(w, i, |a, b| sx16(a).min(sx16(b)) as u32 & 0xffff)),
        Op::V_MAX_I16 => h!(|w, i| bin16(w, i, |a, b| sx16(a).max(sx16(b)) as u32 & 0xffff)),
        Op::V_MIN_U16 => h!(|w, i| bin16(w, i, |a, b| a.min(b))),
        Op::V_MAX_U16 => h!(|w, i| bin16(w, i, |a, b| a.max(b))),
        Op::V_MIN3_I16 => h!(|w, i| {
            tri16(w, i, |a, b, c| {
                sx16(a).min(sx16(b)).min(sx16(c)) as u32 & 0xffff
            })
        }),
        Op::V_MAX3_I16 => h!(|w, i| {
            tri16(w, i, |a, b, c| {
                sx16(a).max(sx16(b)).max(sx16(c)) as u32 & 0xffff
            })
        }),
        Op::V_MIN3_U16 => h!(|w, i| tri16(w, i, |a, b, c| a.min(b).min(c))),
        Op::V_MAX3_U16 => h!(|w, i| tri16(w, i, |a, b, c| a.max(b).max(c))),
        Op::V_MED3_I16 => h!(
            |w, i| tri16(w, i, |a, b, c| med3(sx16(a), sx16(b), sx16(c)) as u32
                & 0xffff)
        ),
        Op::V_MED3_U16 => h!(|w, i| tri16(w, i, med3)),
        // ---- integer conversions / packing ----
        Op::V_CVT_I32_I16 => h!(|w, i| un32(w, i, Ty::I16, |a| sx16(a) as u32)),
        Op::V_CVT_U32_U16 => h!(|w, i| un32(w, i, U16, |a| a & 0xffff)),
        // u32_to_u16 / i32_to_i16 saturate (LLVM lowers integer clamps to these instructions).
        Op::V_CVT_PK_U16_U32 => {
            h!(|w, i| { bin32(w, i, [U32, U32], |a, b| a.min(0xffff) | b.min(0xffff) << 16) })
        }
        Op::V_CVT_PK_I16_I32 => h!(|w, i| {
            bin32(w, i, [I32, I32], |a, b| {
                sat_i(a as i32 as i64, 16) | sat_i(b as i32 as i64, 16) << 16
            })
        }),
        Op::V_SAT_PK_U8_I16 => h!(|w, i| {
            let mut kill = 0;
            let a = src(w, i, 0, B32, &mut kill);
            let mut d = [0u32; LANES];
            for l in 0..LANES {
                let s8 = |v: u32| sx16(v).clamp(0, 255) as u32;
                d[l] = s8(a[l]) | s8(a[l] >> 16) << 8;
            }
            put16(w, i, &d, kill)
        }),
        // v_illegal (the all-zero word) raises the illegal-instruction exception: the trap
        // handler runs if one is installed, else the dispatch ends with an error naming the word.
        Op::V_ILLEGAL => {
            h!(|w, i| crate::exec::sopp::illegal(w, i, ExecError::InvalidInstruction { word: 0 }))
        }
        // ---- no-ops by definition (RDNA3 ISA: "Do nothing") ----
        Op::V_NOP | Op::V_PIPEFLUSH => h!(|_w, _i| Ok(Flow::Next)),
        _ => None,
    }
}

/// Median of three (ISA: max3 == S0 ? max(S1, S2) : max3 == S1 ? max(S0, S2) : max(S0, S1)).
#[inline(always)]
fn med3<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    let mx = a.max(b).max(c);
    if mx == a {
        b.max(c)
    } else if mx == b {
        a.max(c)
    } else {
        a.max(b)
    }
}
