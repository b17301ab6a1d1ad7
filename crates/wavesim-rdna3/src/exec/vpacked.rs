//! VOP3P: packed 16-bit math (v_pk_*), dot products (v_dot2/4/8), v_fma_mix* and WMMA
//! (RDNA3 ISA 7.5 "Packed Math", 7.9 "WMMA" and the VOP3P opcode pseudocode).
//!
//! Packed operands: OPSEL bit k picks the half of source k feeding the low result, OPSEL_HI
//! bit k the half feeding the high result; NEG / NEG_HI negate the low / high float inputs.
//!
//! Inline constants (RDNA3 ISA 7.5.1 and 7.2.1): for packed 16-bit float operands an inline
//! float constant is its f16 encoding in bits [15:0] with [31:16] zero, so OPSEL_HI=1 reads 0
//! there (the assembler folds the literal 0x00003c00, not 0x3c003c00, into `1.0`). Integer
//! inline constants are their 32-bit two's-complement value, as LLVM assumes when it folds the
//! literal 0xffffffff into `-1` for v_pk_*_i16 (the ISA text says only that the value is in the
//! low 16 bits; the high half is the part the two sources disagree on). The dot
//! instructions have their own rules (ISA 7.5.1 table): v_dot4/v_dot8 use the 32-bit inline
//! value and ignore OPSEL; v_dot2_f32_bf16 uses the upper 16 bits of the f32 constant in both
//! halves; WMMA replicates a 16-bit C-matrix constant into both halves.

use crate::decode::{opnd, Inst};
use crate::exec::operand::{read_scalar, vdst32, vdst_in_range, vsrc32, FpMode, Lanes32};
use crate::exec::vfloat::soft::{self, FpCtl, FpFmt, BF16, F16, F32};
use crate::exec::vfloat::{fpexc, ops};
use crate::exec::{Ctx, ExecError, Flow, Handler};
use crate::isa::{Op, Ty};
use crate::wave::{Wave, LANES};

type R = Result<Flow, ExecError>;

/// How an inline constant becomes a 32-bit packed operand.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Konst {
    /// Packed f16: float constants as f16 in [15:0]; integers as 32-bit values.
    F16,
    /// Packed 16-bit integers: the 32-bit value (floats as f32 bit patterns).
    Int,
    /// v_dot2_f32_bf16 sources 0/1: upper 16 bits of the 32-bit constant in both halves.
    Bf16Rep,
}

#[inline]
fn is_inline_const(code: u16) -> bool {
    matches!(code, 128..=208 | 240..=248)
}

/// Raw 32-bit source `k` of a VOP3P instruction (DPP on src0), with the packed inline-constant
/// rule `kind`. Returns the lanes and the DPP kill mask.
fn psrc(w: &Wave, inst: &Inst, k: usize, kind: Konst) -> (Lanes32, u64) {
    let code = inst.src[k];
    let mut out = [0u32; LANES];
    if is_inline_const(code) {
        let v = match kind {
            Konst::F16 if code >= 240 => read_scalar(w, inst, code, Ty::F16) as u32,
            Konst::Bf16Rep => {
                let hi = read_scalar(w, inst, code, Ty::F32) as u32 >> 16;
                hi | hi << 16
            }
            _ => read_scalar(w, inst, code, Ty::B32) as u32,
        };
        return ([v; LANES], 0);
    }
    let kill = vsrc32(w, inst, k, Ty::B32, &mut out);
    (out, kill)
}

/// The (low, high) 16-bit inputs of packed source `k`: OPSEL / OPSEL_HI select the halves.
#[inline(always)]
fn halves(inst: &Inst, k: usize, v: u32) -> (u32, u32) {
    let pick = |hi: bool| if hi { v >> 16 } else { v & 0xffff };
    (
        pick(inst.op_sel >> k & 1 != 0),
        pick(inst.op_sel_hi >> k & 1 != 0),
    )
}

/// Float input modifiers of a packed source: NEG flips the low input's sign, NEG_HI the high's.
#[inline(always)]
fn fneg(inst: &Inst, k: usize, (lo, hi): (u32, u32)) -> (u32, u32) {
    let lo = lo ^ (((inst.neg >> k) & 1) as u32) << 15;
    let hi = hi ^ (((inst.neg_hi >> k) & 1) as u32) << 15;
    (lo, hi)
}

/// Packed 16-bit op over `N` sources: `f` maps the N low (then high) inputs to a 16-bit result.
#[inline(always)]
fn pk<const N: usize>(w: &mut Wave, inst: &Inst, kind: Konst, f: impl Fn([u32; N]) -> u32) -> R {
    let mut kill = 0;
    let srcs: [Lanes32; N] = core::array::from_fn(|k| {
        let (v, kl) = psrc(w, inst, k, kind);
        kill |= kl;
        v
    });
    let float = kind == Konst::F16;
    // With float exceptions enabled only executing lanes may raise them (fpexc).
    let mode = FpMode::of(w);
    let detect = float && mode.detect;
    let live = w.exec() & !kill;
    if detect {
        fpexc::begin(&mode);
    }
    let mut d = [0u32; LANES];
    for l in 0..LANES {
        if detect && live >> l & 1 == 0 {
            continue;
        }
        let mut lo = [0u32; N];
        let mut hi = [0u32; N];
        for k in 0..N {
            let mut hv = halves(inst, k, srcs[k][l]);
            if float {
                hv = fneg(inst, k, hv);
            }
            lo[k] = hv.0;
            hi[k] = hv.1;
        }
        d[l] = (f(lo) & 0xffff) | (f(hi) & 0xffff) << 16;
    }
    vdst32(w, inst.dst[0], &d, live);
    if detect {
        return fpexc::finish(w, inst, &mode, Flow::Next);
    }
    Ok(Flow::Next)
}

#[inline(always)]
fn sx16(v: u32) -> i64 {
    v as u16 as i16 as i64
}

/// A 16-bit integer result, saturated when CLAMP is set (ISA: clamp to the type's range).
#[inline(always)]
fn r16(v: i64, clamp: bool, signed: bool) -> u32 {
    if !clamp {
        return v as u32 & 0xffff;
    }
    if signed {
        v.clamp(-0x8000, 0x7fff) as u32 & 0xffff
    } else {
        v.clamp(0, 0xffff) as u32
    }
}

/// Float clamp to [0, 1] (-0 becomes +0; NaN becomes 0 when MODE.DX10_CLAMP is set).
#[inline(always)]
fn clamp01(f: FpFmt, v: u64, dx10: bool) -> u64 {
    if f.is_nan(v) {
        return if dx10 { 0 } else { v };
    }
    if f.sign(v) {
        return 0;
    }
    let one = (f.bias() as u64) << f.mbits;
    v.min(one)
}

/// Packed f16 op: `f` on (inputs, MODE); CLAMP clamps each half to [0, 1].
#[inline(always)]
fn pkf<const N: usize>(w: &mut Wave, inst: &Inst, f: impl Fn([u64; N], &FpMode) -> u64) -> R {
    let m = FpMode::of(w);
    let clamp = inst.clamp;
    pk::<N>(w, inst, Konst::F16, |x| {
        let r = f(x.map(|v| v as u64), &m);
        if clamp {
            clamp01(F16, r, m.dx10_clamp) as u32
        } else {
            r as u32
        }
    })
}

/// The f32 accumulator input (src2) of v_dot2_f32_*: NEG_HI[2] acts as abs, NEG[2] as neg
/// (the ISA's {NEG_HI[2], NEG[2]} = {ABS, NEG} on a 32-bit source).
fn f32_src2(w: &Wave, inst: &Inst) -> Lanes32 {
    let mut c = [0u32; LANES];
    if is_inline_const(inst.src[2]) {
        c = [read_scalar(w, inst, inst.src[2], Ty::F32) as u32; LANES];
    } else {
        vsrc32(w, inst, 2, Ty::F32, &mut c);
    }
    let abs = (inst.neg_hi >> 2) & 1 != 0;
    let neg = (inst.neg >> 2) & 1 != 0;
    if abs || neg {
        for v in c.iter_mut() {
            if abs {
                *v &= 0x7fff_ffff;
            }
            if neg {
                *v ^= 0x8000_0000;
            }
        }
    }
    c
}

/// v_dot2_f32_f16 / v_dot2_f32_bf16: tmp = S2; tmp += a.lo * b.lo; tmp += a.hi * b.hi in f32
/// (ISA pseudocode order). The 16-bit products are exact in f32, so each step is one f32
/// fused multiply-add rounded per MODE's f32 fields.
fn dot2_f32(w: &mut Wave, inst: &Inst, half: FpFmt) -> R {
    let kind = if half == BF16 {
        Konst::Bf16Rep
    } else {
        Konst::F16
    };
    let (a, ka) = psrc(w, inst, 0, kind);
    let (b, kb) = psrc(w, inst, 1, kind);
    let c = f32_src2(w, inst);
    let m = FpMode::of(w);
    let ctl = FpCtl::IEEE;
    let live = w.exec() & !(ka | kb);
    fpexc::begin(&m);
    let mut d = [0u32; LANES];
    for l in 0..LANES {
        if m.detect && live >> l & 1 == 0 {
            continue;
        }
        // v_dot2_f32_bf16 ignores OPSEL for inline constants (they are replicated already).
        let (alo, ahi) = fneg(inst, 0, halves(inst, 0, a[l]));
        let (blo, bhi) = fneg(inst, 1, halves(inst, 1, b[l]));
        let up = |x: u32| soft::convert(half, F32, x as u64, &ctl);
        let mut t = c[l] as u64;
        t = ops::fma(F32, up(alo), up(blo), t, &m);
        t = ops::fma(F32, up(ahi), up(bhi), t, &m);
        if inst.clamp {
            t = clamp01(F32, t, m.dx10_clamp);
        }
        d[l] = t as u32;
    }
    vdst32(w, inst.dst[0], &d, live);
    fpexc::finish(w, inst, &m, Flow::Next)
}

/// v_dot4_{i32_iu8,u32_u8} / v_dot8_{i32_iu4,u32_u4}: `bits`-wide elements; for the IU forms
/// NEG[0] / NEG[1] say whether A / B are signed (ISA 7.5). CLAMP saturates the 32-bit result.
fn dot_int(w: &mut Wave, inst: &Inst, bits: u32, iu: bool) -> R {
    let (a, ka) = psrc(w, inst, 0, Konst::Int);
    let (b, kb) = psrc(w, inst, 1, Konst::Int);
    let mut kill = ka | kb;
    let mut c = [0u32; LANES];
    kill |= vsrc32(w, inst, 2, Ty::B32, &mut c);
    let (sa, sb) = (iu && inst.neg & 1 != 0, iu && inst.neg & 2 != 0);
    let n = 32 / bits;
    let mask = (1u32 << bits) - 1;
    let ext = |v: u32, signed: bool| -> i64 {
        if signed {
            ((v << (32 - bits)) as i32 >> (32 - bits)) as i64
        } else {
            v as i64
        }
    };
    let mut d = [0u32; LANES];
    for l in 0..LANES {
        let mut t: i64 = if iu { c[l] as i32 as i64 } else { c[l] as i64 };
        for e in 0..n {
            let x = (a[l] >> (bits * e)) & mask;
            let y = (b[l] >> (bits * e)) & mask;
            t += ext(x, sa) * ext(y, sb);
        }
        d[l] = match (inst.clamp, iu) {
            (false, _) => t as u32,
            (true, true) => t.clamp(i32::MIN as i64, i32::MAX as i64) as u32,
            (true, false) => t.clamp(0, u32::MAX as i64) as u32,
        };
    }
    let m = w.exec() & !kill;
    vdst32(w, inst.dst[0], &d, m);
    Ok(Flow::Next)
}

/// v_fma_mix_f32 / v_fma_mixlo_f16 / v_fma_mixhi_f16: each input is src[31:0] as f32
/// ({OPSEL_HI, OPSEL} = 0x/01), src[15:0] as f16 (10) or src[31:16] as f16 (11); NEG_HI is abs
/// and NEG is neg for every input; the fma is done in f32. `out`: 0 = f32, 1 = f16 into the low
/// half, 2 = f16 into the high half (the other half is kept).
fn fma_mix(w: &mut Wave, inst: &Inst, out: u8) -> R {
    let m = FpMode::of(w);
    let mut kill = 0;
    let srcs: [Lanes32; 3] = core::array::from_fn(|k| {
        let code = inst.src[k];
        let f16in = inst.op_sel_hi >> k & 1 != 0;
        if is_inline_const(code) {
            let ty = if f16in { Ty::F16 } else { Ty::F32 };
            [read_scalar(w, inst, code, ty) as u32; LANES]
        } else {
            let mut o = [0u32; LANES];
            kill |= vsrc32(w, inst, k, Ty::B32, &mut o);
            o
        }
    });
    let ident = FpCtl::IEEE;
    let dst_row: Option<Lanes32> = if out == 0 {
        None
    } else {
        let mut r = [0u32; LANES];
        r.copy_from_slice(w.vrow((inst.dst[0] - opnd::VGPR0) as usize));
        Some(r)
    };
    let live = w.exec() & !kill;
    fpexc::begin(&m);
    let mut d = [0u32; LANES];
    for l in 0..LANES {
        if m.detect && live >> l & 1 == 0 {
            continue;
        }
        let x: [u64; 3] = core::array::from_fn(|k| {
            let v = srcs[k][l];
            let mut f = if inst.op_sel_hi >> k & 1 == 0 {
                v as u64
            } else {
                let h = if inst.op_sel >> k & 1 != 0 {
                    v >> 16
                } else {
                    v & 0xffff
                };
                soft::convert(F16, F32, h as u64, &ident)
            };
            if inst.neg_hi >> k & 1 != 0 {
                f &= 0x7fff_ffff;
            }
            if inst.neg >> k & 1 != 0 {
                f ^= 0x8000_0000;
            }
            f
        });
        let mut r = ops::fma(F32, x[0], x[1], x[2], &m);
        if inst.clamp {
            r = clamp01(F32, r, m.dx10_clamp);
        }
        d[l] = match (out, &dst_row) {
            (1, Some(old)) => (old[l] & 0xffff_0000) | ops::cvt(F32, F16, r, &m) as u32,
            (2, Some(old)) => (old[l] & 0xffff) | (ops::cvt(F32, F16, r, &m) as u32) << 16,
            _ => r as u32,
        };
    }
    vdst32(w, inst.dst[0], &d, live);
    fpexc::finish(w, inst, &m, Flow::Next)
}

// ---------------------------------------------------------------------------------------------
// WMMA (RDNA3 ISA 7.9). Register layout implemented, for M = N = K = 16:
//   A (16-bit types): lane m (0-15) holds row m; element k is in VGPR k/2, half k%2 (low first).
//     IU8: VGPR k/4, byte k%4. IU4: VGPR k/8, nibble k%8. Lanes 16-63 are expected to replicate
//     lanes 0-15 and are not read.
//   B: lane n (0-15) holds column n, packed over k exactly like A.
//   C / D: element (m, n) is in lane n + 16 * (m % R), VGPR m / R, with R = 2 rows per VGPR in
//     wave32 (8 VGPRs) and R = 4 in wave64 (4 VGPRs). 16-bit C/D use the half OPSEL[2] selects
//     (the other half of D is kept).
// All lanes are written regardless of EXEC (pseudocode: EXEC = -1 around the operation).
// Float types: D = C + sum over k in order 0..15 of A[m][k] * B[k][n], each step one f32 fused
// multiply-add rounded to nearest even with denormals kept (16-bit products are exact in f32),
// then rounded once to the 16-bit D type. The hardware's internal summation order is not
// documented; results equal this model whenever the partial sums are exact.
// ---------------------------------------------------------------------------------------------

#[derive(Clone, Copy, PartialEq, Eq)]
enum WmmaIn {
    F16,
    Bf16,
    Iu8,
    Iu4,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum WmmaOut {
    F32,
    F16,
    Bf16,
    I32,
}

/// Element `k` of the packed lane value list `regs` (one VGPR value per entry) for input type
/// `t`, as raw bits.
#[inline]
fn wmma_elem(t: WmmaIn, regs: &[u32; 8], k: usize) -> u32 {
    match t {
        WmmaIn::F16 | WmmaIn::Bf16 => (regs[k / 2] >> (16 * (k % 2))) & 0xffff,
        WmmaIn::Iu8 => (regs[k / 4] >> (8 * (k % 4))) & 0xff,
        WmmaIn::Iu4 => (regs[k / 8] >> (4 * (k % 8))) & 0xf,
    }
}

fn wmma(w: &mut Wave, inst: &Inst, tin: WmmaIn, tout: WmmaOut) -> R {
    let rows_per_vgpr = if w.wave64 { 4 } else { 2 };
    let c_vgprs = 16 / rows_per_vgpr;
    let in_vgprs = match tin {
        WmmaIn::F16 | WmmaIn::Bf16 => 8,
        WmmaIn::Iu8 => 4,
        WmmaIn::Iu4 => 2,
    };
    if !vdst_in_range(w, inst.dst[0], c_vgprs) {
        return Ok(Flow::Next);
    }
    // A rows (lane m) and B columns (lane n), lanes 0-15.
    let load = |k: usize| -> [[u32; 8]; 16] {
        let code = inst.src[k];
        let mut out = [[0u32; 8]; 16];
        if opnd::is_vgpr(code) {
            let r = (code - opnd::VGPR0) as usize;
            for j in 0..in_vgprs {
                let row = w.vrow(r + j);
                for (lane, o) in out.iter_mut().enumerate() {
                    o[j] = row[lane];
                }
            }
        }
        out
    };
    let a = load(0);
    let b = load(1);
    let hi16 = inst.op_sel & 4 != 0;
    // C matrix, element (m, n).
    let mut c = [[0u32; 16]; 16];
    let code = inst.src[2];
    let konst = is_inline_const(code) || code == opnd::LITERAL || code < 128;
    let kval = if konst {
        match tout {
            // Only inline constants are replicated; an SGPR or literal is used as it is.
            WmmaOut::F16 | WmmaOut::Bf16 if !is_inline_const(code) => {
                read_scalar(w, inst, code, Ty::B32) as u32
            }
            WmmaOut::F16 => {
                let v = read_scalar(w, inst, code, Ty::F16) as u32 & 0xffff;
                v | v << 16
            }
            WmmaOut::Bf16 => {
                let v = read_scalar(w, inst, code, Ty::F32) as u32 >> 16;
                v | v << 16
            }
            _ => read_scalar(w, inst, code, Ty::B32) as u32,
        }
    } else {
        0
    };
    let cbase = (code.wrapping_sub(opnd::VGPR0)) as usize;
    for (mrow, crow) in c.iter_mut().enumerate() {
        for (n, cv) in crow.iter_mut().enumerate() {
            let raw = if konst {
                kval
            } else {
                w.vrow(cbase + mrow / rows_per_vgpr)[n + 16 * (mrow % rows_per_vgpr)]
            };
            *cv = match tout {
                WmmaOut::F16 | WmmaOut::Bf16 => {
                    if hi16 {
                        raw >> 16
                    } else {
                        raw & 0xffff
                    }
                }
                _ => raw,
            };
        }
    }
    let neg_lo = inst.neg;
    let neg_hi = inst.neg_hi;
    let mut d = [[0u32; 16]; 16];
    match tin {
        WmmaIn::Iu8 | WmmaIn::Iu4 => {
            let bits = if tin == WmmaIn::Iu8 { 8 } else { 4 };
            let (sa, sb) = (neg_lo & 1 != 0, neg_lo & 2 != 0);
            let ext = |v: u32, s: bool| -> i64 {
                if s {
                    ((v << (32 - bits)) as i32 >> (32 - bits)) as i64
                } else {
                    v as i64
                }
            };
            for (mrow, drow) in d.iter_mut().enumerate() {
                for (n, dv) in drow.iter_mut().enumerate() {
                    let mut t = c[mrow][n] as i32 as i64;
                    for k in 0..16 {
                        t += ext(wmma_elem(tin, &a[mrow], k), sa)
                            * ext(wmma_elem(tin, &b[n], k), sb);
                    }
                    *dv = if inst.clamp {
                        t.clamp(i32::MIN as i64, i32::MAX as i64) as u32
                    } else {
                        t as u32
                    };
                }
            }
        }
        WmmaIn::F16 | WmmaIn::Bf16 => {
            let half = if tin == WmmaIn::F16 { F16 } else { BF16 };
            let ieee = FpCtl::IEEE;
            let up = |h: FpFmt, x: u32| soft::convert(h, F32, x as u64, &ieee) as u32;
            // NEG / NEG_HI [1:0] negate the low / high 16-bit elements of A and B; {NEG_HI[2],
            // NEG[2]} are {ABS, NEG} on C.
            let sgn = |src: usize, k: usize| -> u32 {
                let bits = if k.is_multiple_of(2) { neg_lo } else { neg_hi };
                (((bits >> src) & 1) as u32) << 15
            };
            let af: [[u32; 16]; 16] = core::array::from_fn(|mrow| {
                core::array::from_fn(|k| up(half, wmma_elem(tin, &a[mrow], k) ^ sgn(0, k)))
            });
            let bf: [[u32; 16]; 16] = core::array::from_fn(|n| {
                core::array::from_fn(|k| up(half, wmma_elem(tin, &b[n], k) ^ sgn(1, k)))
            });
            let (cabs, cneg) = (neg_hi & 4 != 0, neg_lo & 4 != 0);
            for (mrow, drow) in d.iter_mut().enumerate() {
                for (n, dv) in drow.iter_mut().enumerate() {
                    let mut cv = c[mrow][n];
                    let (cfmt, sign) = match tout {
                        WmmaOut::F16 => (F16, 0x8000),
                        WmmaOut::Bf16 => (BF16, 0x8000),
                        _ => (F32, 0x8000_0000),
                    };
                    if cabs {
                        cv &= !sign;
                    }
                    if cneg {
                        cv ^= sign;
                    }
                    let mut t = up(cfmt, cv);
                    for k in 0..16 {
                        t = fma_f32_rne(af[mrow][k], bf[n][k], t);
                    }
                    *dv = match tout {
                        WmmaOut::F16 => soft::convert(F32, F16, t as u64, &ieee) as u32,
                        WmmaOut::Bf16 => soft::convert(F32, BF16, t as u64, &ieee) as u32,
                        _ => t,
                    };
                }
            }
        }
    }
    // Scatter D (all lanes, EXEC ignored).
    let dbase = (inst.dst[0] - opnd::VGPR0) as usize;
    let lanes = w.lanes();
    for j in 0..c_vgprs {
        let Some(row) = w.vrow_mut(dbase + j) else {
            continue;
        };
        for (l, slot) in row.iter_mut().enumerate().take(lanes) {
            let mrow = j * rows_per_vgpr + l / 16;
            let v = d[mrow][l % 16];
            *slot = match tout {
                WmmaOut::F16 | WmmaOut::Bf16 => {
                    if hi16 {
                        (*slot & 0xffff) | v << 16
                    } else {
                        (*slot & 0xffff_0000) | (v & 0xffff)
                    }
                }
                _ => v,
            };
        }
    }
    Ok(Flow::Next)
}

/// f32 fused multiply-add, round to nearest even, denormals kept: the host FPU, with NaN
/// results redone exactly so NaN propagation follows `soft`.
#[inline(always)]
fn fma_f32_rne(a: u32, b: u32, c: u32) -> u32 {
    let r = f32::from_bits(a).mul_add(f32::from_bits(b), f32::from_bits(c));
    if r.is_nan() {
        soft::fma(F32, a as u64, b as u64, c as u64, &FpCtl::IEEE) as u32
    } else {
        r.to_bits()
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
    use Konst::Int;
    match op {
        Op::V_PK_ADD_U16 => h!(|w, i| {
            let c = i.clamp;
            pk::<2>(w, i, Int, |[a, b]| r16(a as i64 + b as i64, c, false))
        }),
        Op::V_PK_SUB_U16 => h!(|w, i| {
            let c = i.clamp;
            pk::<2>(w, i, Int, |[a, b]| r16(a as i64 - b as i64, c, false))
        }),
        Op::V_PK_ADD_I16 => h!(|w, i| {
            let c = i.clamp;
            pk::<2>(w, i, Int, |[a, b]| r16(sx16(a) + sx16(b), c, true))
        }),
        Op::V_PK_SUB_I16 => h!(|w, i| {
            let c = i.clamp;
            pk::<2>(w, i, Int, |[a, b]| r16(sx16(a) - sx16(b), c, true))
        }),
        Op::V_PK_MUL_LO_U16 => h!(|w, i| {
            let c = i.clamp;
            pk::<2>(w, i, Int, |[a, b]| r16(a as i64 * b as i64, c, false))
        }),
        Op::V_PK_MAD_U16 => h!(|w, i| {
            let cl = i.clamp;
            pk::<3>(w, i, Int, |[a, b, c]| {
                r16(a as i64 * b as i64 + c as i64, cl, false)
            })
        }),
        Op::V_PK_MAD_I16 => h!(|w, i| {
            let cl = i.clamp;
            pk::<3>(w, i, Int, |[a, b, c]| {
                r16(sx16(a) * sx16(b) + sx16(c), cl, true)
            })
        }),
        Op::V_PK_MAX_I16 => h!(|w, i| pk::<2>(w, i, Int, |[a, b]| sx16(a).max(sx16(b)) as u32)),
        Op::V_PK_MIN_I16 => h!(|w, i| pk::<2>(w, i, Int, |[a, b]| sx16(a).min(sx16(b)) as u32)),
        Op::V_PK_MAX_U16 => h!(|w, i| pk::<2>(w, i, Int, |[a, b]| a.max(b))),
        Op::V_PK_MIN_U16 => h!(|w, i| pk::<2>(w, i, Int, |[a, b]| a.min(b))),
        // Shift counts: S0[3:0] of each half.
        Op::V_PK_LSHLREV_B16 => h!(|w, i| pk::<2>(w, i, Int, |[a, b]| b << (a & 15))),
        Op::V_PK_LSHRREV_B16 => h!(|w, i| pk::<2>(w, i, Int, |[a, b]| b >> (a & 15))),
        Op::V_PK_ASHRREV_I16 => {
            h!(|w, i| pk::<2>(w, i, Int, |[a, b]| (sx16(b) >> (a & 15)) as u32))
        }
        Op::V_PK_ADD_F16 => h!(|w, i| pkf::<2>(w, i, |[a, b], m| ops::add(F16, a, b, m))),
        Op::V_PK_MUL_F16 => h!(|w, i| pkf::<2>(w, i, |[a, b], m| ops::mul(F16, a, b, m))),
        Op::V_PK_FMA_F16 => h!(|w, i| pkf::<3>(w, i, |[a, b, c], m| ops::fma(F16, a, b, c, m))),
        Op::V_PK_MIN_F16 => h!(|w, i| pkf::<2>(w, i, |[a, b], m| ops::min(F16, a, b, m))),
        Op::V_PK_MAX_F16 => h!(|w, i| pkf::<2>(w, i, |[a, b], m| ops::max(F16, a, b, m))),
        Op::V_DOT2_F32_F16 => h!(|w, i| dot2_f32(w, i, F16)),
        Op::V_DOT2_F32_BF16 => h!(|w, i| dot2_f32(w, i, BF16)),
        Op::V_DOT4_I32_IU8 => h!(|w, i| dot_int(w, i, 8, true)),
        Op::V_DOT4_U32_U8 => h!(|w, i| dot_int(w, i, 8, false)),
        Op::V_DOT8_I32_IU4 => h!(|w, i| dot_int(w, i, 4, true)),
        Op::V_DOT8_U32_U4 => h!(|w, i| dot_int(w, i, 4, false)),
        Op::V_FMA_MIX_F32 => h!(|w, i| fma_mix(w, i, 0)),
        Op::V_FMA_MIXLO_F16 => h!(|w, i| fma_mix(w, i, 1)),
        Op::V_FMA_MIXHI_F16 => h!(|w, i| fma_mix(w, i, 2)),
        Op::V_WMMA_F32_16X16X16_F16 => h!(|w, i| wmma(w, i, WmmaIn::F16, WmmaOut::F32)),
        Op::V_WMMA_F32_16X16X16_BF16 => h!(|w, i| wmma(w, i, WmmaIn::Bf16, WmmaOut::F32)),
        Op::V_WMMA_F16_16X16X16_F16 => h!(|w, i| wmma(w, i, WmmaIn::F16, WmmaOut::F16)),
        Op::V_WMMA_BF16_16X16X16_BF16 => h!(|w, i| wmma(w, i, WmmaIn::Bf16, WmmaOut::Bf16)),
        Op::V_WMMA_I32_16X16X16_IU8 => h!(|w, i| wmma(w, i, WmmaIn::Iu8, WmmaOut::I32)),
        Op::V_WMMA_I32_16X16X16_IU4 => h!(|w, i| wmma(w, i, WmmaIn::Iu4, WmmaOut::I32)),
        _ => None,
    }
}
