//! Vector compares (VOPC and their VOP3 forms): v_cmp_* write a lane mask to VCC (e32) or to
//! an SGPR / aligned pair / NULL (e64); v_cmpx_* write EXEC only (gfx11: no VCC/SGPR result).
//!
//! Rules (RDNA3 ISA VOPC pseudocode, the RDNA3 ISA guide (Wave State, Shader Concepts)): a lane that is inactive (EXEC off, or its DPP
//! source invalid) writes 0 into the mask; the mask is written even when EXEC is zero (VALU
//! writing SGPRs is never skipped); wave64 writes 64 bits. Float compares are IEEE (ordered
//! unless the name says otherwise, -0 == +0) on inputs flushed per MODE.FP_DENORM;
//! v_cmp_class tests the raw bits of S0 against the class mask in S1 and does not flush.
//!
//! Every opcode gets a monomorphised handler: `T` = operand type, `C` = condition (the low bits
//! of the VOPC opcode: 16 float conditions, 8 integer ones), `X` = writes EXEC.

use crate::decode::{opnd, Enc, Inst};
use crate::exec::operand::{vsrc32_ref, vsrc_typed, write_mask, FpMode, Lanes64};
use crate::exec::vfloat::fpexc;
use crate::exec::vfloat::soft::{self, FpFmt};
use crate::exec::{Ctx, ExecError, Flow, Handler};
use crate::isa::{flags, Fmt, Op, Ty};
use crate::wave::{Wave, LANES};
use std::mem::MaybeUninit;

// Operand types, as const-generic parameters.
const T_F16: u8 = 0;
const T_F32: u8 = 1;
const T_F64: u8 = 2;
const T_I16: u8 = 3;
const T_U16: u8 = 4;
const T_I32: u8 = 5;
const T_U32: u8 = 6;
const T_I64: u8 = 7;
const T_U64: u8 = 8;

const fn ty_of(t: u8) -> Ty {
    match t {
        T_F16 => Ty::F16,
        T_F32 => Ty::F32,
        T_F64 => Ty::F64,
        T_I16 => Ty::I16,
        T_U16 => Ty::U16,
        T_I32 => Ty::I32,
        T_U32 => Ty::U32,
        T_I64 => Ty::I64,
        _ => Ty::U64,
    }
}

const fn fmt_of(t: u8) -> FpFmt {
    match t {
        T_F16 => soft::F16,
        T_F32 => soft::F32,
        _ => soft::F64,
    }
}

/// Float condition `c` (VOPC opcode bits [3:0]): F LT EQ LE GT LG GE O U NGE NLG NGT NLE NEQ
/// NLT T.
#[inline(always)]
pub(crate) fn fcond(c: u8, a: f64, b: f64) -> bool {
    use core::cmp::Ordering::{Equal, Greater, Less};
    // `None` = unordered (a NaN operand): only U, the N* forms and T are true then.
    let o = a.partial_cmp(&b);
    let lt = o == Some(Less);
    let eq = o == Some(Equal);
    let gt = o == Some(Greater);
    match c {
        0 => false,
        1 => lt,
        2 => eq,
        3 => lt || eq,
        4 => gt,
        5 => lt || gt,
        6 => gt || eq,
        7 => o.is_some(),
        8 => o.is_none(),
        9 => !(gt || eq),
        10 => !(lt || gt),
        11 => !gt,
        12 => !(lt || eq),
        13 => !eq,
        14 => !lt,
        _ => true,
    }
}

/// Integer condition `c` (VOPC opcode bits [2:0]): F LT EQ LE GT NE GE T.
#[inline(always)]
fn icond<V: PartialOrd>(c: u8, a: V, b: V) -> bool {
    match c {
        0 => false,
        1 => a < b,
        2 => a == b,
        3 => a <= b,
        4 => a > b,
        5 => a != b,
        6 => a >= b,
        _ => true,
    }
}

/// Writes the compare result: EXEC for v_cmpx, else VCC (e32) or the e64 scalar destination.
#[inline]
fn write_result<const X: bool>(w: &mut Wave, inst: &Inst, bits: u64) {
    let bits = bits & w.lane_mask();
    if X {
        w.set_exec(bits);
    } else {
        let dst = if inst.enc == Enc::Vop3 {
            inst.dst[1]
        } else {
            opnd::VCC_LO
        };
        write_mask(w, dst, bits);
    }
}

/// Fetches both sources; returns the lanes that take part (EXEC minus invalid DPP lanes).
#[inline(always)]
fn sources(w: &Wave, inst: &Inst, t0: Ty, t1: Ty, a: &mut Lanes64, b: &mut Lanes64) -> u64 {
    let kill = vsrc_typed(w, inst, 0, t0, a) | vsrc_typed(w, inst, 1, t1, b);
    w.exec() & !kill
}

fn cmp<const T: u8, const C: u8, const X: bool>(
    w: &mut Wave,
    inst: &Inst,
    _: &mut Ctx,
) -> Result<Flow, ExecError> {
    let ty = ty_of(T);
    let (active, bits, mode) = if ty.dwords() == 2 {
        let (mut a, mut b) = ([0u64; LANES], [0u64; LANES]);
        let active = sources(w, inst, ty, ty, &mut a, &mut b);
        let (bits, mode) = cmp_bits::<T, C, u64>(w, active, &a, &b);
        (active, bits, mode)
    } else {
        // 16/32-bit operands: VGPR rows are borrowed, not copied and widened.
        let mut kill = 0;
        let (mut ba, mut bb) = (MaybeUninit::uninit(), MaybeUninit::uninit());
        let a = vsrc32_ref(w, inst, 0, ty, &mut ba, &mut kill);
        let b = vsrc32_ref(w, inst, 1, ty, &mut bb, &mut kill);
        let active = w.exec() & !kill;
        let (bits, mode) = cmp_bits::<T, C, u32>(w, active, a, b);
        (active, bits, mode)
    };
    write_result::<X>(w, inst, bits & active);
    match mode {
        Some(mode) => fpexc::finish(w, inst, &mode, Flow::Next),
        None => Ok(Flow::Next),
    }
}

/// The compare result of every lane of the wave (the caller masks it with `active`), and the
/// MODE when float exceptions are being detected (the caller then finishes them).
#[inline(always)]
fn cmp_bits<const T: u8, const C: u8, L: Copy + Into<u64>>(
    w: &Wave,
    active: u64,
    a: &[L; LANES],
    b: &[L; LANES],
) -> (u64, Option<FpMode>) {
    let n = w.lanes();
    let mut bits = 0u64;
    if T <= T_F64 {
        let f = fmt_of(T);
        let mode = FpMode::of(w);
        let ctl = mode.ctl(f);
        if mode.detect {
            // Compares raise invalid for a signalling NaN and input denormal for a subnormal
            // input (RDNA3 ISA 3.4.9), in the lanes that execute.
            fpexc::begin(&mode);
            for l in 0..n {
                if active >> l & 1 != 0 {
                    soft::input(f, a[l].into(), &ctl);
                    soft::input(f, b[l].into(), &ctl);
                }
            }
        }
        for l in 0..n {
            let (x, y) = (f.flush_in(a[l].into(), &ctl), f.flush_in(b[l].into(), &ctl));
            let r = match T {
                T_F32 => fcond(
                    C,
                    f32::from_bits(x as u32) as f64,
                    f32::from_bits(y as u32) as f64,
                ),
                T_F64 => fcond(C, f64::from_bits(x), f64::from_bits(y)),
                _ => fcond(C, soft::to_f64(f, x), soft::to_f64(f, y)),
            };
            bits |= (r as u64) << l;
        }
        if mode.detect {
            return (bits, Some(mode));
        }
    } else {
        for l in 0..n {
            let (x, y): (u64, u64) = (a[l].into(), b[l].into());
            let r = match T {
                T_I16 => icond(C, x as u16 as i16, y as u16 as i16),
                T_U16 => icond(C, x as u16, y as u16),
                T_I32 => icond(C, x as u32 as i32, y as u32 as i32),
                T_U32 => icond(C, x as u32, y as u32),
                T_I64 => icond(C, x as i64, y as i64),
                _ => icond(C, x, y),
            };
            bits |= (r as u64) << l;
        }
    }
    (bits, None)
}

/// v_cmp_class: S1 bits select classes of S0 — 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal,
/// 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf.
fn class<const T: u8, const X: bool>(
    w: &mut Wave,
    inst: &Inst,
    _: &mut Ctx,
) -> Result<Flow, ExecError> {
    let f = fmt_of(T);
    let (mut a, mut b) = ([0u64; LANES], [0u64; LANES]);
    let active = sources(w, inst, ty_of(T), Ty::U32, &mut a, &mut b);
    let mut bits = 0u64;
    for l in 0..w.lanes() {
        let x = a[l];
        let neg = f.sign(x);
        let k = if f.is_snan(x) {
            0
        } else if f.is_nan(x) {
            1
        } else if f.is_inf(x) {
            if neg {
                2
            } else {
                9
            }
        } else if f.exp_field(x) != 0 {
            if neg {
                3
            } else {
                8
            }
        } else if !f.is_zero(x) {
            if neg {
                4
            } else {
                7
            }
        } else if neg {
            5
        } else {
            6
        };
        bits |= (b[l] >> k & 1) << l;
    }
    write_result::<X>(w, inst, bits & active);
    Ok(Flow::Next)
}

macro_rules! float_row {
    ($t:expr, $x:expr) => {
        [
            cmp::<{ $t }, 0, { $x }> as Handler,
            cmp::<{ $t }, 1, { $x }>,
            cmp::<{ $t }, 2, { $x }>,
            cmp::<{ $t }, 3, { $x }>,
            cmp::<{ $t }, 4, { $x }>,
            cmp::<{ $t }, 5, { $x }>,
            cmp::<{ $t }, 6, { $x }>,
            cmp::<{ $t }, 7, { $x }>,
            cmp::<{ $t }, 8, { $x }>,
            cmp::<{ $t }, 9, { $x }>,
            cmp::<{ $t }, 10, { $x }>,
            cmp::<{ $t }, 11, { $x }>,
            cmp::<{ $t }, 12, { $x }>,
            cmp::<{ $t }, 13, { $x }>,
            cmp::<{ $t }, 14, { $x }>,
            cmp::<{ $t }, 15, { $x }>,
        ]
    };
}

macro_rules! int_row {
    ($t:expr, $x:expr) => {
        [
            cmp::<{ $t }, 0, { $x }> as Handler,
            cmp::<{ $t }, 1, { $x }>,
            cmp::<{ $t }, 2, { $x }>,
            cmp::<{ $t }, 3, { $x }>,
            cmp::<{ $t }, 4, { $x }>,
            cmp::<{ $t }, 5, { $x }>,
            cmp::<{ $t }, 6, { $x }>,
            cmp::<{ $t }, 7, { $x }>,
        ]
    };
}

fn float_handler(t: u8, c: usize, x: bool) -> Handler {
    let rows: [[[Handler; 16]; 2]; 3] = [
        [float_row!(T_F16, false), float_row!(T_F16, true)],
        [float_row!(T_F32, false), float_row!(T_F32, true)],
        [float_row!(T_F64, false), float_row!(T_F64, true)],
    ];
    rows[t as usize][x as usize][c & 15]
}

fn int_handler(t: u8, c: usize, x: bool) -> Handler {
    let rows: [[[Handler; 8]; 2]; 6] = [
        [int_row!(T_I16, false), int_row!(T_I16, true)],
        [int_row!(T_U16, false), int_row!(T_U16, true)],
        [int_row!(T_I32, false), int_row!(T_I32, true)],
        [int_row!(T_U32, false), int_row!(T_U32, true)],
        [int_row!(T_I64, false), int_row!(T_I64, true)],
        [int_row!(T_U64, false), int_row!(T_U64, true)],
    ];
    rows[(t - T_I16) as usize][x as usize][c & 7]
}

/// Every VOPC opcode: the type comes from the table signature, the condition from the low
/// opcode bits (the VOPC opcode map repeats the condition order per type).
pub fn handler(op: Op) -> Option<Handler> {
    let info = op.info();
    if info.fmt != Fmt::Vopc {
        return None;
    }
    let x = info.flags & flags::WRITES_EXEC != 0;
    let t = match info.sig.src[0] {
        Ty::F16 => T_F16,
        Ty::F32 => T_F32,
        Ty::F64 => T_F64,
        Ty::I16 => T_I16,
        Ty::U16 => T_U16,
        Ty::I32 => T_I32,
        Ty::U32 => T_U32,
        Ty::I64 => T_I64,
        Ty::U64 => T_U64,
        _ => return None,
    };
    let c = info.opc as usize;
    if op.facts().class {
        let h: Handler = match (t, x) {
            (T_F16, false) => class::<T_F16, false>,
            (T_F16, true) => class::<T_F16, true>,
            (T_F32, false) => class::<T_F32, false>,
            (T_F32, true) => class::<T_F32, true>,
            (T_F64, false) => class::<T_F64, false>,
            (T_F64, true) => class::<T_F64, true>,
            _ => return None,
        };
        return Some(h);
    }
    Some(if t <= T_F64 {
        float_handler(t, c, x)
    } else {
        int_handler(t, c, x)
    })
}
