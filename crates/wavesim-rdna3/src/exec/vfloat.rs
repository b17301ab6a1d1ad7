//! Floating-point VALU: f16/f32/f64 arithmetic, conversions, transcendentals, division helpers
//! (VOP1, VOP2, VOP3, VOP3SD forms), plus the generic moves/selects v_mov_b32, v_mov_b16 and
//! v_cndmask_b32/b16.
//!
//! Every op is one handler chosen once per opcode. A handler fetches its typed sources into
//! lane arrays (`operand::vsrc_typed`: op_sel / true16 halves, abs/neg, DPP), runs a per-lane
//! function on raw bits (`ops`, exact via `soft`), applies the output modifier and clamp, and
//! writes the EXEC-masked lanes (`operand::vdst_typed`, 16-bit results keep the other half).
//! f32/f64 add, sub, mul and fma take a host-FPU fast path when MODE rounds to nearest even
//! without exception detection and no modifiers are set, under every FP_DENORM setting
//! (inputs flushed before, the result after, as MODE asks); NaN lanes are redone exactly so
//! NaN propagation stays the ISA's.

pub mod fpexc;
/// The software float core and host FMA live in wavesim-core (shared by every back end).
pub use wavesim_core::fp::{hostfma, soft};
pub mod ops;

use crate::decode::{opnd, Dpp, Inst};
use crate::exec::operand::{
    dot_inline_const, float_fmt, read_mask, src_mods, vdst32, vdst_as_src, vdst_in_range,
    vdst_typed, vrow_lanes, vsrc32_ref, vsrc_typed, write_mask, FpMode, Lanes32, Lanes64,
};
use crate::exec::{ExecError, Flow, Handler};
use crate::isa::{Op, Ty};
use crate::wave::{Wave, LANES};
use soft::{FpFmt, Round, BF16, F32, F64};
use std::mem::MaybeUninit;

type R = Result<Flow, ExecError>;

/// Where a source value comes from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Src {
    /// Instruction source k (with its modifiers).
    S(usize),
    /// The destination register itself (v_fmac_*: D is the addend).
    Acc,
    /// Instruction source k of a dot instruction without OPSEL for it: an inline constant
    /// feeds its 16-bit value to both halves (`operand::dot_inline_const`).
    Dup(usize),
}

use Src::{Acc, Dup, S};

/// Fills `out` with one source; returns the DPP kill mask.
#[inline]
fn fetch(w: &Wave, inst: &Inst, s: Src, ty: Ty, out: &mut Lanes64) -> u64 {
    match s {
        S(k) => vsrc_typed(w, inst, k, ty, out),
        Acc => {
            vdst_as_src(w, inst, ty, out);
            0
        }
        Dup(k) => match dot_inline_const(inst.src[k], ty) {
            Some(v) => {
                *out = [src_mods(inst, k, ty, v as u64); LANES];
                0
            }
            None => vsrc_typed(w, inst, k, ty, out),
        },
    }
}

/// The output modifier (omod: *2, *4, /2) and clamp of VOP3, applied to a float result.
/// Per the ISA omod is ignored while MODE.IEEE is set; clamp saturates to [0, 1] and turns NaN
/// into 0 when MODE.DX10_CLAMP is set (otherwise NaN passes through).
fn post(inst: &Inst, dty: Ty, m: &FpMode, out: &mut [u64]) {
    if inst.omod == 0 && !inst.clamp {
        return;
    }
    let Some(f) = float_fmt(dty) else { return };
    let packed = matches!(dty, Ty::PkF16 | Ty::PkBf16);
    let one = |v: u64| -> u64 {
        let mut v = v;
        if inst.omod != 0 && !m.ieee {
            let n = [0, 1, 2, -1][inst.omod as usize & 3];
            v = soft::ldexp(f, v, n, &m.ctl(f));
        }
        if inst.clamp {
            v = clamp01(f, v, m.dx10_clamp);
        }
        v
    };
    for v in out.iter_mut() {
        *v = if packed {
            one(*v & 0xffff) | one(*v >> 16) << 16
        } else {
            one(*v)
        };
    }
}

/// Clamp to [0, 1]: negative values (and -0) become +0, NaN becomes 0 under DX10_CLAMP.
pub(crate) fn clamp01(f: FpFmt, v: u64, dx10: bool) -> u64 {
    if f.is_nan(v) {
        return if dx10 { 0 } else { v };
    }
    if f.sign(v) {
        return 0;
    }
    let one = (f.bias() as u64) << f.mbits;
    if v > one {
        one
    } else {
        v
    }
}

/// The generic VALU executor: `N` typed sources, a typed destination, a per-lane function of
/// the source bits, the lane index and the MODE.
#[inline(always)]
fn run<const N: usize>(
    w: &mut Wave,
    inst: &Inst,
    srcs: [(Src, Ty); N],
    dty: Ty,
    f: impl Fn([u64; N], usize, &FpMode) -> u64,
) -> R {
    let mut vals = [[0u64; LANES]; N];
    let mut kill = 0;
    for k in 0..N {
        kill |= fetch(w, inst, srcs[k].0, srcs[k].1, &mut vals[k]);
    }
    let mask = w.exec() & !kill;
    if mask == 0 {
        // No lane writes and no scalar destination: nothing changes.
        return Ok(Flow::Next);
    }
    let m = FpMode::of(w);
    fpexc::begin(&m);
    let n = w.lanes();
    let mut out = [0u64; LANES];
    for l in 0..n {
        if mask >> l & 1 != 0 {
            out[l] = f(core::array::from_fn(|k| vals[k][l]), l, &m);
        }
    }
    if m.detect {
        // Output modifiers round too; only executing lanes may raise.
        for (l, v) in out[..n].iter_mut().enumerate() {
            if mask >> l & 1 != 0 {
                post(inst, dty, &m, core::slice::from_mut(v));
            }
        }
    } else {
        post(inst, dty, &m, &mut out[..n]);
    }
    vdst_typed(w, inst, dty, &out, mask);
    fpexc::finish(w, inst, &m, Flow::Next)
}

fn un(w: &mut Wave, i: &Inst, s: Ty, d: Ty, f: impl Fn(u64, &FpMode) -> u64) -> R {
    run(w, i, [(S(0), s)], d, |[a], _, m| f(a, m))
}

fn bin(w: &mut Wave, i: &Inst, s: [Ty; 2], d: Ty, f: impl Fn(u64, u64, &FpMode) -> u64) -> R {
    run(w, i, [(S(0), s[0]), (S(1), s[1])], d, |[a, b], _, m| {
        f(a, b, m)
    })
}

fn tri(w: &mut Wave, i: &Inst, t: Ty, f: impl Fn(u64, u64, u64, &FpMode) -> u64) -> R {
    run(
        w,
        i,
        [(S(0), t), (S(1), t), (S(2), t)],
        t,
        |[a, b, c], _, m| f(a, b, c, m),
    )
}

/// The host path's denormal flushing (flush inputs, flush outputs) for format `f`, when the
/// host FPU gives the ISA's result: no input/output modifiers, no DPP, and MODE rounds to
/// nearest even without exception detection, whatever its FP_DENORM setting
/// (`FpCtl::host_flush`).
#[inline(always)]
fn host_mode(inst: &Inst, m: &FpMode, f: FpFmt) -> Option<(bool, bool)> {
    if (inst.abs | inst.neg) != 0 || inst.clamp || inst.omod != 0 || inst.dpp != Dpp::None {
        return None;
    }
    m.ctl(f).host_flush()
}

/// `x` (f32 bits) with a denormal replaced by `x & keep`: `keep` is all ones to keep it, the
/// sign bit alone to flush it to a zero of the same sign (`FpFmt::flush`). Branch-free, so
/// lane loops stay vectorisable.
#[inline(always)]
pub(crate) fn ftz32(x: u32, keep: u32) -> u32 {
    if x & 0x7f80_0000 == 0 {
        x & keep
    } else {
        x
    }
}

/// `ftz32` for f64 bits.
#[inline(always)]
pub(crate) fn ftz64(x: u64, keep: u64) -> u64 {
    if x & 0x7ff0_0000_0000_0000 == 0 {
        x & keep
    } else {
        x
    }
}

/// `ftz32`'s masks (input, output) for a (flush inputs, flush outputs) pair.
#[inline(always)]
pub(crate) fn keep32((i, o): (bool, bool)) -> (u32, u32) {
    let k = |f: bool| if f { 0x8000_0000 } else { u32::MAX };
    (k(i), k(o))
}

/// An f32 op over lanes `0..n` through the host FPU (`host` on f32 values) in a vectorisable
/// loop, inputs and result flushed as `ftz` says (`host_mode`); then lanes whose result is NaN
/// are redone by `exact` (on the unflushed inputs) so NaN propagation is the ISA's. Shared by
/// the VOP1/2/3 handlers and VOPD's components.
#[inline(always)]
pub(crate) fn host_lanes32<const N: usize>(
    srcs: [&Lanes32; N],
    out: &mut Lanes32,
    n: usize,
    ftz: (bool, bool),
    host: impl Fn([f32; N]) -> f32,
    exact: impl Fn([u32; N]) -> u32,
) {
    let lane = |l: usize| -> [u32; N] { core::array::from_fn(|k| srcs[k][l]) };
    let n = n.min(LANES);
    let mut any_nan = false;
    if ftz == (false, false) {
        for (l, o) in out[..n].iter_mut().enumerate() {
            let r = host(lane(l).map(f32::from_bits)).to_bits();
            any_nan |= r & 0x7fff_ffff > 0x7f80_0000;
            *o = r;
        }
    } else {
        // Flushing a NaN result changes nothing, so the NaN test below still finds it.
        let (ki, ko) = keep32(ftz);
        for (l, o) in out[..n].iter_mut().enumerate() {
            let x = lane(l).map(|v| f32::from_bits(ftz32(v, ki)));
            let r = ftz32(host(x).to_bits(), ko);
            any_nan |= r & 0x7fff_ffff > 0x7f80_0000;
            *o = r;
        }
    }
    if any_nan {
        for (l, o) in out[..n].iter_mut().enumerate() {
            if *o & 0x7fff_ffff > 0x7f80_0000 {
                *o = exact(lane(l));
            }
        }
    }
}

/// `host_lanes32` for the fused multiply-add `a * b + c`, through `hostfma` (the FMA
/// instruction when the CPU has it).
#[inline(always)]
pub(crate) fn host_fma32(
    [a, b, c]: [&Lanes32; 3],
    out: &mut Lanes32,
    n: usize,
    ftz: (bool, bool),
    exact: impl Fn([u32; 3]) -> u32,
) {
    let n = n.min(LANES);
    let (ki, ko) = keep32(ftz);
    if ftz.0 {
        let f = |x: &Lanes32| -> Lanes32 { core::array::from_fn(|l| ftz32(x[l], ki)) };
        hostfma::f32_lanes(&f(a), &f(b), &f(c), out, n);
    } else {
        hostfma::f32_lanes(a, b, c, out, n);
    }
    if ftz.1 {
        for o in &mut out[..n] {
            *o = ftz32(*o, ko);
        }
    }
    // NaN results are redone exactly so NaN propagation is the ISA's.
    let mut any_nan = false;
    for o in &out[..n] {
        any_nan |= *o & 0x7fff_ffff > 0x7f80_0000;
    }
    if any_nan {
        for l in 0..n {
            if out[l] & 0x7fff_ffff > 0x7f80_0000 {
                out[l] = exact([a[l], b[l], c[l]]);
            }
        }
    }
}

/// The sources of an f32 op on the host path, borrowed from the register file (`host_mode`:
/// no DPP, no modifiers, so these are exactly what `vsrc32` would copy); scalars are splatted
/// into `bufs`.
#[inline(always)]
fn host_srcs<'a, const N: usize>(
    w: &'a Wave,
    inst: &Inst,
    srcs: [Src; N],
    bufs: &'a mut [MaybeUninit<Lanes32>; N],
) -> [&'a Lanes32; N] {
    let mut kill = 0;
    let mut k = 0;
    bufs.each_mut().map(|buf| {
        let s = srcs[k];
        k += 1;
        match s {
            // (Dup sources belong to the dot ops, which never come through here.)
            S(j) | Dup(j) => vsrc32_ref(w, inst, j, Ty::F32, buf, &mut kill),
            Acc => vrow_lanes(w, (inst.dst[0] - opnd::VGPR0) as usize),
        }
    })
}

/// f32 op with a host fast path (`host` on f32 values) and the exact path `exact`.
#[inline(always)]
fn f32_op<const N: usize>(
    w: &mut Wave,
    inst: &Inst,
    srcs: [Src; N],
    host: impl Fn([f32; N]) -> f32,
    exact: impl Fn([u64; N], &FpMode) -> u64,
) -> R {
    let m = FpMode::of(w);
    if let Some(ftz) = host_mode(inst, &m, F32) {
        let mask = w.exec();
        if mask == 0 {
            return Ok(Flow::Next);
        }
        let mut bufs = [MaybeUninit::<Lanes32>::uninit(); N];
        let vals = host_srcs(w, inst, srcs, &mut bufs);
        let mut out: Lanes32 = [0; LANES];
        host_lanes32(vals, &mut out, w.lanes(), ftz, host, |x| {
            exact(x.map(|v| v as u64), &m) as u32
        });
        vdst32(w, inst.dst[0], &out, mask);
        return Ok(Flow::Next);
    }
    let srcs = srcs.map(|s| (s, Ty::F32));
    run(w, inst, srcs, Ty::F32, |x, _, m| exact(x, m))
}

/// f32 fused multiply-add `S0 * S1 + S2` (sources in `srcs`), like `f32_op` but the host
/// path computes all lanes at once through `hostfma` (the FMA instruction when the CPU has it).
#[inline(always)]
fn f32_fma_op(w: &mut Wave, inst: &Inst, srcs: [Src; 3]) -> R {
    let m = FpMode::of(w);
    if let Some(ftz) = host_mode(inst, &m, F32) {
        let mask = w.exec();
        if mask == 0 {
            return Ok(Flow::Next);
        }
        let mut bufs = [MaybeUninit::<Lanes32>::uninit(); 3];
        let vals = host_srcs(w, inst, srcs, &mut bufs);
        let mut out: Lanes32 = [0; LANES];
        host_fma32(vals, &mut out, w.lanes(), ftz, |[a, b, c]| {
            ops::fma(soft::F32, a as u64, b as u64, c as u64, &m) as u32
        });
        vdst32(w, inst.dst[0], &out, mask);
        return Ok(Flow::Next);
    }
    let srcs = srcs.map(|s| (s, Ty::F32));
    run(w, inst, srcs, Ty::F32, |[a, b, c], _, m| {
        ops::fma(soft::F32, a, b, c, m)
    })
}

/// f64 op with a host fast path, like `f32_op`.
#[inline(always)]
fn f64_op<const N: usize>(
    w: &mut Wave,
    inst: &Inst,
    host: impl Fn([f64; N]) -> f64,
    exact: impl Fn([u64; N], &FpMode) -> u64,
) -> R {
    let m = FpMode::of(w);
    let srcs: [(Src, Ty); N] = core::array::from_fn(|k| (S(k), Ty::F64));
    match host_mode(inst, &m, F64) {
        Some((false, false)) => run(w, inst, srcs, Ty::F64, |x, _, m| {
            let r = host(x.map(f64::from_bits));
            if r.is_nan() {
                exact(x, m)
            } else {
                r.to_bits()
            }
        }),
        Some(ftz) => {
            let (ki, ko) = keep64(ftz);
            run(w, inst, srcs, Ty::F64, |x, _, m| {
                let r = host(x.map(|v| f64::from_bits(ftz64(v, ki))));
                if r.is_nan() {
                    exact(x, m)
                } else {
                    ftz64(r.to_bits(), ko)
                }
            })
        }
        None => run(w, inst, srcs, Ty::F64, |x, _, m| exact(x, m)),
    }
}

/// `ftz64`'s masks (input, output) for a (flush inputs, flush outputs) pair.
#[inline(always)]
fn keep64((i, o): (bool, bool)) -> (u64, u64) {
    let k = |f: bool| if f { 1 << 63 } else { u64::MAX };
    (k(i), k(o))
}

/// v_fma_f64: `f64_op` with the host path computing all lanes at once through `hostfma` (the
/// FMA instruction when the CPU has it); executing lanes whose result is NaN are redone exactly.
fn f64_fma(w: &mut Wave, inst: &Inst, _: &mut crate::exec::Ctx) -> R {
    let m = FpMode::of(w);
    let exact = |[a, b, c]: [u64; 3], m: &FpMode| ops::fma(soft::F64, a, b, c, m);
    let Some(ftz) = host_mode(inst, &m, F64) else {
        let srcs: [(Src, Ty); 3] = core::array::from_fn(|k| (S(k), Ty::F64));
        return run(w, inst, srcs, Ty::F64, |x, _, m| exact(x, m));
    };
    // As `run`, with `post` left out: host_mode means no output modifier and no clamp.
    let mut vals = [[0u64; LANES]; 3];
    let mut kill = 0;
    for (k, v) in vals.iter_mut().enumerate() {
        kill |= fetch(w, inst, S(k), Ty::F64, v);
    }
    let mask = w.exec() & !kill;
    if mask == 0 {
        return Ok(Flow::Next);
    }
    fpexc::begin(&m);
    let n = w.lanes();
    let mut out = [0u64; LANES];
    let (ki, ko) = keep64(ftz);
    if ftz.0 {
        let f = |x: &Lanes64| -> Lanes64 { core::array::from_fn(|l| ftz64(x[l], ki)) };
        hostfma::f64_lanes(&f(&vals[0]), &f(&vals[1]), &f(&vals[2]), &mut out, n);
    } else {
        hostfma::f64_lanes(&vals[0], &vals[1], &vals[2], &mut out, n);
    }
    if ftz.1 {
        for o in &mut out[..n] {
            *o = ftz64(*o, ko);
        }
    }
    let mut any_nan = false;
    for o in &out[..n] {
        any_nan |= *o & !(1 << 63) > 0x7ff0_0000_0000_0000;
    }
    if any_nan {
        for l in 0..n {
            if mask >> l & 1 != 0 && out[l] & !(1 << 63) > 0x7ff0_0000_0000_0000 {
                out[l] = exact([vals[0][l], vals[1][l], vals[2][l]], &m);
            }
        }
    }
    vdst_typed(w, inst, Ty::F64, &out, mask);
    fpexc::finish(w, inst, &m, Flow::Next)
}

/// 16-bit sign-extended value of a 16-bit integer source.
#[inline]
fn sext16(v: u64) -> i64 {
    v as u16 as i16 as i64
}

/// v_cndmask: D = mask[lane] ? S1 : S0, the mask being VCC (e32) or src2 (VOP3). Sources take
/// float abs/neg like the hardware's VOP3 form allows.
fn cndmask(w: &mut Wave, inst: &Inst, ty: Ty) -> R {
    let sel = if inst.enc == crate::decode::Enc::Vop3 {
        read_mask(w, inst, inst.src[2])
    } else {
        w.vcc()
    };
    run(w, inst, [(S(0), ty), (S(1), ty)], ty, |[a, b], l, _| {
        if sel >> l & 1 != 0 {
            b
        } else {
            a
        }
    })
}

/// v_div_scale_f32/f64 (VOP3SD): writes the scaled value and a lane mask (VCC-like, inactive
/// lanes 0) to `dst[1]`. An out-of-range VGPR destination writes nothing (RDNA3 ISA guide, Wave State).
fn exec_div_scale(w: &mut Wave, inst: &Inst, f: FpFmt) -> R {
    let ty = if f == F64 { Ty::F64 } else { Ty::F32 };
    if !vdst_in_range(w, inst.dst[0], ty.dwords() as usize) {
        return Ok(Flow::Next);
    }
    let mut v = [[0u64; LANES]; 3];
    let mut kill = 0;
    for (k, vk) in v.iter_mut().enumerate() {
        kill |= vsrc_typed(w, inst, k, ty, vk);
    }
    let mask = w.exec() & !kill;
    let m = FpMode::of(w);
    fpexc::begin(&m);
    let mut out = [0u64; LANES];
    let mut vcc = 0u64;
    for l in 0..w.lanes() {
        if mask >> l & 1 != 0 {
            let (r, bit) = ops::div_scale(f, v[0][l], v[1][l], v[2][l], &m);
            out[l] = r;
            vcc |= (bit as u64) << l;
        }
    }
    post(inst, ty, &m, &mut out);
    vdst_typed(w, inst, ty, &out, mask);
    write_mask(w, inst.dst[1], vcc);
    fpexc::finish(w, inst, &m, Flow::Next)
}

/// v_div_fmas_f32/f64: fma scaled when the lane's VCC bit is set (VCC is implicit, even in
/// VOP3).
fn exec_div_fmas(w: &mut Wave, inst: &Inst, f: FpFmt) -> R {
    let ty = if f == F64 { Ty::F64 } else { Ty::F32 };
    let vcc = w.vcc();
    run(
        w,
        inst,
        [(S(0), ty), (S(1), ty), (S(2), ty)],
        ty,
        |[a, b, c], l, m| ops::div_fmas(f, a, b, c, vcc >> l & 1 != 0, m),
    )
}

/// v_dot2 with the ISA pseudocode's separately rounded steps: tmp = S2; tmp += lo*lo;
/// tmp += hi*hi, products and sums rounded in the accumulator format `acc` (products of the
/// 16-bit halves are converted exactly first when `acc` is wider).
fn dot2(half: FpFmt, acc: FpFmt, a: u64, b: u64, c: u64, m: &FpMode) -> u64 {
    let widen = |x: u64| -> u64 {
        if half == acc {
            x
        } else {
            soft::convert(half, acc, x, &m.ctl(acc))
        }
    };
    let mut t = c;
    for sh in [0, 16] {
        let p = ops::mul(acc, widen(a >> sh & 0xffff), widen(b >> sh & 0xffff), m);
        t = ops::add(acc, t, p, m);
    }
    t
}

/// MODE as v_dot2_f16_f16 / v_dot2_bf16_bf16 see it: round to nearest even always; f16 keeps
/// denormals, bf16 flushes all of them (RDNA3 ISA 7.2.4: "DOT2_F16_F16 and DOT2_BF16_BF16
/// support round-to-nearest-even rounding. DOT2_F16_F16 supports denorms, and DOT2_BF16_BF16
/// disables all denorms").
fn dot2_mode(m: &FpMode, bf16: bool) -> FpMode {
    let fix = |c: soft::FpCtl| soft::FpCtl {
        rm: Round::NearestEven,
        ftz_in: bf16,
        ftz_out: bf16,
        detect: c.detect,
        nan: c.nan,
    };
    // bf16 uses the f32 fields of `FpMode::ctl`, f16 the f64/f16 ones; set both.
    FpMode {
        f32: fix(m.f32),
        f64: fix(m.f64),
        ..*m
    }
}

/// Packs two 16-bit results (low half from `lo`).
#[inline]
fn pk(lo: u64, hi: u64) -> u64 {
    (lo & 0xffff) | (hi & 0xffff) << 16
}

/// The ops of this family that wavesim implements.
pub fn handler(op: Op) -> Option<Handler> {
    use ops::*;
    use Ty::*;
    let h: Handler = match op {
        // ---- moves and selects (generic, float modifiers allowed) ----
        Op::V_MOV_B32 => |w, i, _| un(w, i, F32, B32, |a, _| a),
        Op::V_MOV_B16 => |w, i, _| un(w, i, F16, B16, |a, _| a),
        Op::V_CNDMASK_B32 => |w, i, _| cndmask(w, i, F32),
        Op::V_CNDMASK_B16 => |w, i, _| cndmask(w, i, F16),

        // ---- f32 arithmetic ----
        Op::V_ADD_F32 => |w, i, _| {
            f32_op(
                w,
                i,
                [S(0), S(1)],
                |[a, b]| a + b,
                |[a, b], m| add(soft::F32, a, b, m),
            )
        },
        Op::V_SUB_F32 => |w, i, _| {
            f32_op(
                w,
                i,
                [S(0), S(1)],
                |[a, b]| a - b,
                |[a, b], m| sub(soft::F32, a, b, m),
            )
        },
        Op::V_SUBREV_F32 => |w, i, _| {
            f32_op(
                w,
                i,
                [S(0), S(1)],
                |[a, b]| b - a,
                |[a, b], m| sub(soft::F32, b, a, m),
            )
        },
        Op::V_MUL_F32 => |w, i, _| {
            f32_op(
                w,
                i,
                [S(0), S(1)],
                |[a, b]| a * b,
                |[a, b], m| mul(soft::F32, a, b, m),
            )
        },
        Op::V_FMA_F32 => |w, i, _| f32_fma_op(w, i, [S(0), S(1), S(2)]),
        Op::V_FMAC_F32 => |w, i, _| f32_fma_op(w, i, [S(0), S(1), Acc]),
        Op::V_FMAMK_F32 => |w, i, _| f32_fma_op(w, i, [S(0), S(1), S(2)]),
        Op::V_FMAAK_F32 => |w, i, _| f32_fma_op(w, i, [S(0), S(1), S(2)]),
        Op::V_MUL_DX9_ZERO_F32 => {
            |w, i, _| bin(w, i, [F32, F32], F32, |a, b, m| mul_dx9(soft::F32, a, b, m))
        }
        Op::V_FMAC_DX9_ZERO_F32 => |w, i, _| {
            run(
                w,
                i,
                [(S(0), F32), (S(1), F32), (Acc, F32)],
                F32,
                |[a, b, c], _, m| fma_dx9(soft::F32, a, b, c, m),
            )
        },
        Op::V_FMA_DX9_ZERO_F32 => {
            |w, i, _| tri(w, i, F32, |a, b, c, m| fma_dx9(soft::F32, a, b, c, m))
        }
        Op::V_MIN_F32 => |w, i, _| bin(w, i, [F32, F32], F32, |a, b, m| min(soft::F32, a, b, m)),
        Op::V_MAX_F32 => |w, i, _| bin(w, i, [F32, F32], F32, |a, b, m| max(soft::F32, a, b, m)),
        Op::V_MIN3_F32 => |w, i, _| {
            tri(w, i, F32, |a, b, c, m| {
                min(soft::F32, min(soft::F32, a, b, m), c, m)
            })
        },
        Op::V_MAX3_F32 => |w, i, _| {
            tri(w, i, F32, |a, b, c, m| {
                max(soft::F32, max(soft::F32, a, b, m), c, m)
            })
        },
        Op::V_MED3_F32 => |w, i, _| tri(w, i, F32, |a, b, c, m| med3(soft::F32, a, b, c, m)),
        Op::V_MAXMIN_F32 => |w, i, _| {
            tri(w, i, F32, |a, b, c, m| {
                min(soft::F32, max(soft::F32, a, b, m), c, m)
            })
        },
        Op::V_MINMAX_F32 => |w, i, _| {
            tri(w, i, F32, |a, b, c, m| {
                max(soft::F32, min(soft::F32, a, b, m), c, m)
            })
        },
        Op::V_LDEXP_F32 => |w, i, _| {
            bin(w, i, [F32, I32], F32, |a, b, m| {
                ldexp(soft::F32, a, b as u32 as i32, m)
            })
        },
        Op::V_MULLIT_F32 => |w, i, _| tri(w, i, F32, mullit),
        Op::V_CUBEID_F32 => |w, i, _| tri(w, i, F32, cubeid),
        Op::V_CUBESC_F32 => |w, i, _| tri(w, i, F32, cubesc),
        Op::V_CUBETC_F32 => |w, i, _| tri(w, i, F32, cubetc),
        Op::V_CUBEMA_F32 => |w, i, _| tri(w, i, F32, cubema),
        Op::V_DIV_FIXUP_F32 => {
            |w, i, _| tri(w, i, F32, |a, b, c, m| div_fixup(soft::F32, a, b, c, m))
        }
        Op::V_DIV_FMAS_F32 => |w, i, _| exec_div_fmas(w, i, soft::F32),
        Op::V_DIV_SCALE_F32 => |w, i, _| exec_div_scale(w, i, soft::F32),

        // ---- f32 unary ----
        Op::V_FRACT_F32 => |w, i, _| un(w, i, F32, F32, |a, m| fract(soft::F32, a, m)),
        Op::V_TRUNC_F32 => |w, i, _| {
            un(w, i, F32, F32, |a, m| {
                round_int(soft::F32, a, Round::Zero, m)
            })
        },
        Op::V_CEIL_F32 => {
            |w, i, _| un(w, i, F32, F32, |a, m| round_int(soft::F32, a, Round::Up, m))
        }
        Op::V_FLOOR_F32 => |w, i, _| {
            un(w, i, F32, F32, |a, m| {
                round_int(soft::F32, a, Round::Down, m)
            })
        },
        Op::V_RNDNE_F32 => |w, i, _| {
            un(w, i, F32, F32, |a, m| {
                round_int(soft::F32, a, Round::NearestEven, m)
            })
        },
        Op::V_EXP_F32 => |w, i, _| un(w, i, F32, F32, |a, m| exp2(soft::F32, a, m)),
        Op::V_LOG_F32 => |w, i, _| un(w, i, F32, F32, |a, m| log2(soft::F32, a, m)),
        Op::V_RCP_F32 => |w, i, _| un(w, i, F32, F32, |a, m| rcp(soft::F32, a, m)),
        // The same reciprocal; only its exceptions differ (integer divide by zero only).
        Op::V_RCP_IFLAG_F32 => |w, i, _| un(w, i, F32, F32, rcp_iflag),
        Op::V_RSQ_F32 => |w, i, _| un(w, i, F32, F32, |a, m| rsq(soft::F32, a, m)),
        Op::V_SQRT_F32 => |w, i, _| un(w, i, F32, F32, |a, m| sqrt(soft::F32, a, m)),
        Op::V_SIN_F32 => |w, i, _| un(w, i, F32, F32, |a, m| sincos(soft::F32, a, m, false)),
        Op::V_COS_F32 => |w, i, _| un(w, i, F32, F32, |a, m| sincos(soft::F32, a, m, true)),
        Op::V_FREXP_MANT_F32 => |w, i, _| un(w, i, F32, F32, |a, m| frexp_mant(soft::F32, a, m)),
        Op::V_FREXP_EXP_I32_F32 => |w, i, _| {
            un(w, i, F32, I32, |a, m| {
                frexp_exp(soft::F32, a, m) as u32 as u64
            })
        },

        // ---- conversions ----
        Op::V_CVT_I32_F32 => |w, i, _| {
            un(w, i, F32, I32, |a, m| {
                to_int(soft::F32, a, m, i32::MIN as i64, i32::MAX as i64) & 0xffff_ffff
            })
        },
        Op::V_CVT_U32_F32 => |w, i, _| {
            un(w, i, F32, U32, |a, m| {
                to_int(soft::F32, a, m, 0, u32::MAX as i64)
            })
        },
        Op::V_CVT_I32_F64 => |w, i, _| {
            un(w, i, F64, I32, |a, m| {
                to_int(soft::F64, a, m, i32::MIN as i64, i32::MAX as i64) & 0xffff_ffff
            })
        },
        Op::V_CVT_U32_F64 => |w, i, _| {
            un(w, i, F64, U32, |a, m| {
                to_int(soft::F64, a, m, 0, u32::MAX as i64)
            })
        },
        Op::V_CVT_F32_I32 => |w, i, _| {
            un(w, i, I32, F32, |a, m| {
                from_int(soft::F32, a as u32 as i32 as i64, m)
            })
        },
        Op::V_CVT_F32_U32 => |w, i, _| {
            un(w, i, U32, F32, |a, m| {
                from_int(soft::F32, a as u32 as i64, m)
            })
        },
        Op::V_CVT_F64_I32 => |w, i, _| {
            un(w, i, I32, F64, |a, m| {
                from_int(soft::F64, a as u32 as i32 as i64, m)
            })
        },
        Op::V_CVT_F64_U32 => |w, i, _| {
            un(w, i, U32, F64, |a, m| {
                from_int(soft::F64, a as u32 as i64, m)
            })
        },
        Op::V_CVT_F32_UBYTE0 => |w, i, _| {
            un(w, i, U32, F32, |a, m| {
                from_int(soft::F32, (a & 0xff) as i64, m)
            })
        },
        Op::V_CVT_F32_UBYTE1 => |w, i, _| {
            un(w, i, U32, F32, |a, m| {
                from_int(soft::F32, (a >> 8 & 0xff) as i64, m)
            })
        },
        Op::V_CVT_F32_UBYTE2 => |w, i, _| {
            un(w, i, U32, F32, |a, m| {
                from_int(soft::F32, (a >> 16 & 0xff) as i64, m)
            })
        },
        Op::V_CVT_F32_UBYTE3 => |w, i, _| {
            un(w, i, U32, F32, |a, m| {
                from_int(soft::F32, (a >> 24 & 0xff) as i64, m)
            })
        },
        Op::V_CVT_NEAREST_I32_F32 => |w, i, _| {
            un(w, i, F32, I32, |a, m| {
                let t = add(soft::F32, a, 0x3f00_0000, m);
                let fl = round_int(soft::F32, t, Round::Down, m);
                to_int(soft::F32, fl, m, i32::MIN as i64, i32::MAX as i64) & 0xffff_ffff
            })
        },
        Op::V_CVT_FLOOR_I32_F32 => |w, i, _| {
            un(w, i, F32, I32, |a, m| {
                let fl = round_int(soft::F32, a, Round::Down, m);
                to_int(soft::F32, fl, m, i32::MIN as i64, i32::MAX as i64) & 0xffff_ffff
            })
        },
        Op::V_CVT_OFF_F32_I4 => |w, i, _| un(w, i, I32, F32, |a, _| cvt_off_i4(a)),
        Op::V_CVT_F16_F32 => |w, i, _| un(w, i, F32, F16, |a, m| cvt(soft::F32, soft::F16, a, m)),
        Op::V_CVT_F32_F16 => |w, i, _| un(w, i, F16, F32, |a, m| cvt(soft::F16, soft::F32, a, m)),
        Op::V_CVT_F32_F64 => |w, i, _| un(w, i, F64, F32, |a, m| cvt(soft::F64, soft::F32, a, m)),
        Op::V_CVT_F64_F32 => |w, i, _| un(w, i, F32, F64, |a, m| cvt(soft::F32, soft::F64, a, m)),
        Op::V_CVT_F16_U16 => |w, i, _| {
            un(w, i, U16, F16, |a, m| {
                from_int(soft::F16, (a & 0xffff) as i64, m)
            })
        },
        Op::V_CVT_F16_I16 => |w, i, _| un(w, i, I16, F16, |a, m| from_int(soft::F16, sext16(a), m)),
        Op::V_CVT_U16_F16 => |w, i, _| {
            un(w, i, F16, U16, |a, m| {
                to_int(soft::F16, a, m, 0, u16::MAX as i64)
            })
        },
        Op::V_CVT_I16_F16 => |w, i, _| {
            un(w, i, F16, I16, |a, m| {
                to_int(soft::F16, a, m, i16::MIN as i64, i16::MAX as i64) & 0xffff
            })
        },
        Op::V_CVT_NORM_I16_F16 => |w, i, _| un(w, i, F16, I16, |a, m| to_snorm(soft::F16, a, m)),
        Op::V_CVT_NORM_U16_F16 => |w, i, _| un(w, i, F16, U16, |a, m| to_unorm(soft::F16, a, m)),
        Op::V_CVT_PK_RTZ_F16_F32 => |w, i, _| {
            bin(w, i, [F32, F32], PkF16, |a, b, m| {
                let c = m.f64.with_round(Round::Zero);
                let h = |x: u64| {
                    soft::convert(soft::F32, soft::F16, soft::input(soft::F32, x, &m.f32), &c)
                };
                pk(h(a), h(b))
            })
        },
        Op::V_CVT_PK_I16_F32 => |w, i, _| {
            bin(w, i, [F32, F32], B32, |a, b, m| {
                let c = |x| to_int(soft::F32, x, m, i16::MIN as i64, i16::MAX as i64);
                pk(c(a), c(b))
            })
        },
        Op::V_CVT_PK_U16_F32 => |w, i, _| {
            bin(w, i, [F32, F32], B32, |a, b, m| {
                let c = |x| to_int(soft::F32, x, m, 0, u16::MAX as i64);
                pk(c(a), c(b))
            })
        },
        Op::V_CVT_PK_NORM_I16_F16 => |w, i, _| {
            bin(w, i, [F16, F16], B32, |a, b, m| {
                pk(to_snorm(soft::F16, a, m), to_snorm(soft::F16, b, m))
            })
        },
        Op::V_CVT_PK_NORM_U16_F16 => |w, i, _| {
            bin(w, i, [F16, F16], B32, |a, b, m| {
                pk(to_unorm(soft::F16, a, m), to_unorm(soft::F16, b, m))
            })
        },
        Op::V_CVT_PK_NORM_I16_F32 => |w, i, _| {
            bin(w, i, [F32, F32], B32, |a, b, m| {
                pk(to_snorm(soft::F32, a, m), to_snorm(soft::F32, b, m))
            })
        },
        Op::V_CVT_PK_NORM_U16_F32 => |w, i, _| {
            bin(w, i, [F32, F32], B32, |a, b, m| {
                pk(to_unorm(soft::F32, a, m), to_unorm(soft::F32, b, m))
            })
        },
        Op::V_CVT_PK_U8_F32 => |w, i, _| {
            run(
                w,
                i,
                [(S(0), F32), (S(1), U32), (S(2), B32)],
                B32,
                |[a, b, c], _, m| {
                    // f32_to_u8: like f32_to_u32 (truncate, NaN 0) saturated to a byte.
                    let byte = to_int(soft::F32, a, m, 0, 255);
                    let sh = (b & 3) * 8;
                    (c & !(0xff << sh)) | byte << sh
                },
            )
        },
        Op::V_PACK_B32_F16 => |w, i, _| bin(w, i, [F16, F16], B32, |a, b, _| pk(a, b)),

        // ---- f16 ----
        Op::V_ADD_F16 => |w, i, _| bin(w, i, [F16, F16], F16, |a, b, m| add(soft::F16, a, b, m)),
        Op::V_SUB_F16 => |w, i, _| bin(w, i, [F16, F16], F16, |a, b, m| sub(soft::F16, a, b, m)),
        Op::V_SUBREV_F16 => |w, i, _| bin(w, i, [F16, F16], F16, |a, b, m| sub(soft::F16, b, a, m)),
        Op::V_MUL_F16 => |w, i, _| bin(w, i, [F16, F16], F16, |a, b, m| mul(soft::F16, a, b, m)),
        Op::V_FMA_F16 => |w, i, _| tri(w, i, F16, |a, b, c, m| fma(soft::F16, a, b, c, m)),
        Op::V_FMAC_F16 => |w, i, _| {
            run(
                w,
                i,
                [(S(0), F16), (S(1), F16), (Acc, F16)],
                F16,
                |[a, b, c], _, m| fma(soft::F16, a, b, c, m),
            )
        },
        Op::V_FMAMK_F16 => |w, i, _| {
            run(
                w,
                i,
                [(S(0), F16), (S(1), F16), (S(2), F16)],
                F16,
                |[a, b, c], _, m| fma(soft::F16, a, b, c, m),
            )
        },
        Op::V_FMAAK_F16 => |w, i, _| {
            run(
                w,
                i,
                [(S(0), F16), (S(1), F16), (S(2), F16)],
                F16,
                |[a, b, c], _, m| fma(soft::F16, a, b, c, m),
            )
        },
        Op::V_PK_FMAC_F16 => |w, i, _| {
            run(
                w,
                i,
                [(S(0), PkF16), (S(1), PkF16), (Acc, PkF16)],
                PkF16,
                |[a, b, c], _, m| {
                    let h = |s: u32| {
                        fma(
                            soft::F16,
                            a >> s & 0xffff,
                            b >> s & 0xffff,
                            c >> s & 0xffff,
                            m,
                        )
                    };
                    pk(h(0), h(16))
                },
            )
        },
        Op::V_MIN_F16 => |w, i, _| bin(w, i, [F16, F16], F16, |a, b, m| min(soft::F16, a, b, m)),
        Op::V_MAX_F16 => |w, i, _| bin(w, i, [F16, F16], F16, |a, b, m| max(soft::F16, a, b, m)),
        Op::V_MIN3_F16 => |w, i, _| {
            tri(w, i, F16, |a, b, c, m| {
                min(soft::F16, min(soft::F16, a, b, m), c, m)
            })
        },
        Op::V_MAX3_F16 => |w, i, _| {
            tri(w, i, F16, |a, b, c, m| {
                max(soft::F16, max(soft::F16, a, b, m), c, m)
            })
        },
        Op::V_MED3_F16 => |w, i, _| tri(w, i, F16, |a, b, c, m| med3(soft::F16, a, b, c, m)),
        Op::V_MAXMIN_F16 => |w, i, _| {
            tri(w, i, F16, |a, b, c, m| {
                min(soft::F16, max(soft::F16, a, b, m), c, m)
            })
        },
        Op::V_MINMAX_F16 => |w, i, _| {
            tri(w, i, F16, |a, b, c, m| {
                max(soft::F16, min(soft::F16, a, b, m), c, m)
            })
        },
        Op::V_LDEXP_F16 => |w, i, _| {
            bin(w, i, [F16, I16], F16, |a, b, m| {
                ldexp(soft::F16, a, sext16(b) as i32, m)
            })
        },
        Op::V_DIV_FIXUP_F16 => {
            |w, i, _| tri(w, i, F16, |a, b, c, m| div_fixup(soft::F16, a, b, c, m))
        }
        Op::V_FRACT_F16 => |w, i, _| un(w, i, F16, F16, |a, m| fract(soft::F16, a, m)),
        Op::V_TRUNC_F16 => |w, i, _| {
            un(w, i, F16, F16, |a, m| {
                round_int(soft::F16, a, Round::Zero, m)
            })
        },
        Op::V_CEIL_F16 => {
            |w, i, _| un(w, i, F16, F16, |a, m| round_int(soft::F16, a, Round::Up, m))
        }
        Op::V_FLOOR_F16 => |w, i, _| {
            un(w, i, F16, F16, |a, m| {
                round_int(soft::F16, a, Round::Down, m)
            })
        },
        Op::V_RNDNE_F16 => |w, i, _| {
            un(w, i, F16, F16, |a, m| {
                round_int(soft::F16, a, Round::NearestEven, m)
            })
        },
        Op::V_RCP_F16 => |w, i, _| un(w, i, F16, F16, |a, m| rcp(soft::F16, a, m)),
        Op::V_RSQ_F16 => |w, i, _| un(w, i, F16, F16, |a, m| rsq(soft::F16, a, m)),
        Op::V_SQRT_F16 => |w, i, _| un(w, i, F16, F16, |a, m| sqrt(soft::F16, a, m)),
        Op::V_EXP_F16 => |w, i, _| un(w, i, F16, F16, |a, m| exp2(soft::F16, a, m)),
        Op::V_LOG_F16 => |w, i, _| un(w, i, F16, F16, |a, m| log2(soft::F16, a, m)),
        Op::V_SIN_F16 => |w, i, _| un(w, i, F16, F16, |a, m| sincos(soft::F16, a, m, false)),
        Op::V_COS_F16 => |w, i, _| un(w, i, F16, F16, |a, m| sincos(soft::F16, a, m, true)),
        Op::V_FREXP_MANT_F16 => |w, i, _| un(w, i, F16, F16, |a, m| frexp_mant(soft::F16, a, m)),
        Op::V_FREXP_EXP_I16_F16 => |w, i, _| {
            un(w, i, F16, I16, |a, m| {
                frexp_exp(soft::F16, a, m) as u16 as u64
            })
        },
        Op::V_DOT2_F16_F16 => |w, i, _| {
            run(
                w,
                i,
                [(Dup(0), PkF16), (Dup(1), PkF16), (S(2), F16)],
                F16,
                |[a, b, c], _, m| dot2(soft::F16, soft::F16, a, b, c, &dot2_mode(m, false)),
            )
        },
        Op::V_DOT2_BF16_BF16 => |w, i, _| {
            run(
                w,
                i,
                [(Dup(0), PkBf16), (Dup(1), PkBf16), (S(2), Bf16)],
                Bf16,
                |[a, b, c], _, m| dot2(BF16, BF16, a, b, c, &dot2_mode(m, true)),
            )
        },
        Op::V_DOT2ACC_F32_F16 => |w, i, _| {
            run(
                w,
                i,
                [(Dup(0), PkF16), (Dup(1), PkF16), (Acc, F32)],
                F32,
                |[a, b, c], _, m| dot2(soft::F16, soft::F32, a, b, c, m),
            )
        },

        // ---- f64 ----
        Op::V_ADD_F64 => {
            |w, i, _| f64_op(w, i, |[a, b]| a + b, |[a, b], m| add(soft::F64, a, b, m))
        }
        Op::V_MUL_F64 => {
            |w, i, _| f64_op(w, i, |[a, b]| a * b, |[a, b], m| mul(soft::F64, a, b, m))
        }
        Op::V_FMA_F64 => f64_fma,
        Op::V_MIN_F64 => |w, i, _| bin(w, i, [F64, F64], F64, |a, b, m| min(soft::F64, a, b, m)),
        Op::V_MAX_F64 => |w, i, _| bin(w, i, [F64, F64], F64, |a, b, m| max(soft::F64, a, b, m)),
        Op::V_LDEXP_F64 => |w, i, _| {
            bin(w, i, [F64, I32], F64, |a, b, m| {
                ldexp(soft::F64, a, b as u32 as i32, m)
            })
        },
        Op::V_DIV_FIXUP_F64 => {
            |w, i, _| tri(w, i, F64, |a, b, c, m| div_fixup(soft::F64, a, b, c, m))
        }
        Op::V_DIV_FMAS_F64 => |w, i, _| exec_div_fmas(w, i, soft::F64),
        Op::V_DIV_SCALE_F64 => |w, i, _| exec_div_scale(w, i, soft::F64),
        Op::V_TRIG_PREOP_F64 => {
            |w, i, _| bin(w, i, [F64, U32], F64, |a, b, _| trig_preop(a, b as u32))
        }
        Op::V_TRUNC_F64 => |w, i, _| {
            un(w, i, F64, F64, |a, m| {
                round_int(soft::F64, a, Round::Zero, m)
            })
        },
        Op::V_CEIL_F64 => {
            |w, i, _| un(w, i, F64, F64, |a, m| round_int(soft::F64, a, Round::Up, m))
        }
        Op::V_FLOOR_F64 => |w, i, _| {
            un(w, i, F64, F64, |a, m| {
                round_int(soft::F64, a, Round::Down, m)
            })
        },
        Op::V_RNDNE_F64 => |w, i, _| {
            un(w, i, F64, F64, |a, m| {
                round_int(soft::F64, a, Round::NearestEven, m)
            })
        },
        Op::V_FRACT_F64 => |w, i, _| un(w, i, F64, F64, |a, m| fract(soft::F64, a, m)),
        Op::V_RCP_F64 => |w, i, _| un(w, i, F64, F64, |a, m| rcp(soft::F64, a, m)),
        Op::V_RSQ_F64 => |w, i, _| un(w, i, F64, F64, |a, m| rsq(soft::F64, a, m)),
        Op::V_SQRT_F64 => |w, i, _| un(w, i, F64, F64, |a, m| sqrt(soft::F64, a, m)),
        Op::V_FREXP_MANT_F64 => |w, i, _| un(w, i, F64, F64, |a, m| frexp_mant(soft::F64, a, m)),
        Op::V_FREXP_EXP_I32_F64 => |w, i, _| {
            un(w, i, F64, I32, |a, m| {
                frexp_exp(soft::F64, a, m) as u32 as u64
            })
        },
        _ => return Option::None,
    };
    Some(h)
}
