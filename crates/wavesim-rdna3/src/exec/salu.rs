//! Scalar ALU: SOP1, SOP2, SOPK and SOPC (RDNA3 ISA, chapter 6 "Scalar ALU Operations" and
//! sections 16.1-16.4).
//!
//! Program-control ops that happen to use these encodings (s_getpc/s_setpc/s_swappc/s_rfe,
//! s_call, s_getreg/s_setreg, s_sendmsg_rtn, s_waitcnt_*, s_version) live in `sopp.rs`.
//!
//! Operand rules (RDNA3 ISA guide, Wave State, "SGPR out-of-range behaviour" and "NULL"):
//! - sources go through `operand::read_scalar`: NULL and out-of-range read 0, TTMPs read 0 unless
//!   STATUS.PRIV, 64-bit SGPR operands ignore the LSB of the register number;
//! - a destination write that is dropped because the register is out of range or a TTMP without
//!   PRIV also leaves SCC unchanged; NULL drops the value but SCC still updates.
//!
//! SCC (RDNA3 ISA guide, Wave State, "SCC"): compares give the result, arithmetic the carry/borrow/overflow,
//! logical and bit ops "result != 0", moves leave it alone.

use crate::decode::{opnd, Inst};
use crate::exec::operand::{read_scalar, read_scalar64, read_sgpr, s64, write_sgpr, write_sgpr64};
use crate::exec::{ExecError, Flow, Handler};
use crate::isa::{Op, Ty};
use crate::wave::Wave;

/// Result of every handler that falls through.
const NEXT: Result<Flow, ExecError> = Ok(Flow::Next);

/// 32-bit scalar source `k`.
#[inline(always)]
pub(crate) fn s32(w: &Wave, i: &Inst, k: usize) -> u32 {
    read_scalar(w, i, i.src[k], Ty::B32) as u32
}

/// 64-bit signed scalar source `k`: like `s64`, but a 32-bit literal is sign-extended (the
/// operand is typed i64 in the ISA pseudo-code).
#[inline(always)]
fn si64(w: &Wave, i: &Inst, k: usize) -> u64 {
    read_scalar64(w, i, i.src[k], Ty::I64)
}

/// Writes a 32-bit result and, if the write was not dropped, SCC.
#[inline(always)]
fn put32(w: &mut Wave, i: &Inst, d: u32, scc: bool) -> Result<Flow, ExecError> {
    if write_sgpr(w, i.dst[0], d) {
        w.scc = scc;
    }
    NEXT
}

/// Writes a 64-bit result and, if the write was not dropped, SCC.
#[inline(always)]
fn put64(w: &mut Wave, i: &Inst, d: u64, scc: bool) -> Result<Flow, ExecError> {
    if write_sgpr64(w, i.dst[0], d) {
        w.scc = scc;
    }
    NEXT
}

/// Writes a 32-bit result without touching SCC.
#[inline(always)]
fn mov32(w: &mut Wave, i: &Inst, d: u32) -> Result<Flow, ExecError> {
    write_sgpr(w, i.dst[0], d);
    NEXT
}

/// Writes a 64-bit result without touching SCC.
#[inline(always)]
fn mov64(w: &mut Wave, i: &Inst, d: u64) -> Result<Flow, ExecError> {
    write_sgpr64(w, i.dst[0], d);
    NEXT
}

/// SOPC / SOPK compares only set SCC.
#[inline(always)]
fn cmp(w: &mut Wave, scc: bool) -> Result<Flow, ExecError> {
    w.scc = scc;
    NEXT
}

/// SOPK's 16-bit immediate, sign-extended.
#[inline(always)]
fn simm(i: &Inst) -> i32 {
    i.imm as i16 as i32
}

/// SOPK's 16-bit immediate, zero-extended (s_cmpk_*_u32).
#[inline(always)]
fn uimm(i: &Inst) -> u32 {
    i.imm as u32 & 0xffff
}

/// s_cmpk_* compare the SGPR named by the SDST field, which the decoder puts in `src[0]`.
#[inline(always)]
fn sopk_src(w: &Wave, i: &Inst) -> u32 {
    s32(w, i, 0)
}

/// s_addk/s_mulk read and write D0 (the SDST field, `dst[0]`).
#[inline(always)]
fn sopk_d(w: &Wave, i: &Inst) -> u32 {
    read_scalar(w, i, i.dst[0], Ty::B32) as u32
}

/// Mask of the low `n` bits; `n >= 32` gives all ones (the ISA's `(1U << n) - 1U` with the shift
/// done in a wide enough type).
#[inline(always)]
fn ones32(n: u32) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1u32 << n) - 1
    }
}

#[inline(always)]
fn ones64(n: u32) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

/// s_bfe_u32: offset S1[4:0], width S1[22:16]. Widths above 32 extract every remaining bit
/// (the field mask saturates at all ones).
#[inline(always)]
fn bfe_u32(a: u32, b: u32) -> u32 {
    (a >> (b & 31)) & ones32((b >> 16) & 0x7f)
}

/// s_bfe_i32: as bfe_u32 on the arithmetically shifted input, then sign-extended from bit
/// `width - 1`; width 0 gives 0 (`signextFromBit` of the ISA pseudo-code).
#[inline(always)]
fn bfe_i32(a: u32, b: u32) -> u32 {
    let width = (b >> 16) & 0x7f;
    let field = (((a as i32) >> (b & 31)) as u32) & ones32(width);
    match width {
        0 => 0,
        1..=31 => (((field << (32 - width)) as i32) >> (32 - width)) as u32,
        _ => field,
    }
}

#[inline(always)]
fn bfe_u64(a: u64, b: u32) -> u64 {
    (a >> (b & 63)) & ones64((b >> 16) & 0x7f)
}

#[inline(always)]
fn bfe_i64(a: u64, b: u32) -> u64 {
    let width = (b >> 16) & 0x7f;
    let field = (((a as i64) >> (b & 63)) as u64) & ones64(width);
    match width {
        0 => 0,
        1..=63 => (((field << (64 - width)) as i64) >> (64 - width)) as u64,
        _ => field,
    }
}

/// Index of the lowest set bit, -1 if none (s_ctz_i32_*).
#[inline(always)]
fn ctz(v: u64, zero: bool) -> u32 {
    if zero {
        u32::MAX
    } else {
        v.trailing_zeros()
    }
}

/// s_cls_i32: number of leading bits equal to the sign bit, counting from bit 30 (so the
/// result is the position of the first differing bit below the sign); -1 if all bits equal.
#[inline(always)]
fn cls32(v: u32) -> u32 {
    let y = v ^ (((v as i32) >> 31) as u32);
    if y == 0 {
        u32::MAX
    } else {
        y.leading_zeros()
    }
}

#[inline(always)]
fn cls64(v: u64) -> u32 {
    let y = v ^ (((v as i64) >> 63) as u64);
    if y == 0 {
        u32::MAX
    } else {
        y.leading_zeros()
    }
}

/// s_quadmask: bit i of the result = any bit set in nibble i of the input.
#[inline(always)]
fn quadmask(v: u64, nibbles: u32) -> u64 {
    let mut r = 0u64;
    for q in 0..nibbles {
        r |= (((v >> (4 * q)) & 0xf != 0) as u64) << q;
    }
    r
}

/// s_wqm: every nibble with any bit set becomes 0xf (whole quad mode).
#[inline(always)]
fn wqm64(v: u64) -> u64 {
    let any = (v | v >> 1 | v >> 2 | v >> 3) & 0x1111_1111_1111_1111;
    any * 0xf
}

/// s_bitreplicate_b64_b32: bit i of the input goes to bits 2i and 2i+1.
#[inline(always)]
fn bitreplicate(v: u32) -> u64 {
    let mut r = 0u64;
    for b in 0..32 {
        r |= (((v >> b) & 1) as u64 * 3) << (2 * b);
    }
    r
}

/// The raw 64-bit EXEC register (both halves; the _b64 exec ops work on all 64 bits in either
/// wave size, the wave32 lane mask only matters to vector instructions).
#[inline(always)]
fn exec_raw(w: &Wave) -> u64 {
    w.sgpr[opnd::EXEC_LO as usize] as u64 | (w.sgpr[opnd::EXEC_HI as usize] as u64) << 32
}

#[inline(always)]
fn set_exec_raw(w: &mut Wave, v: u64) {
    w.sgpr[opnd::EXEC_LO as usize] = v as u32;
    w.sgpr[opnd::EXEC_HI as usize] = (v >> 32) as u32;
}

/// s_*_saveexec_b32: saveexec = EXEC; EXEC = f(S0, EXEC); D = saveexec; SCC = EXEC != 0.
/// EXEC is written even when D is out of range (RDNA3 ISA guide, Wave State); SCC then stays unchanged.
#[inline(always)]
fn saveexec32(w: &mut Wave, i: &Inst, f: impl FnOnce(u32, u32) -> u32) -> Result<Flow, ExecError> {
    let s = s32(w, i, 0);
    let saved = w.sgpr[opnd::EXEC_LO as usize];
    w.sgpr[opnd::EXEC_LO as usize] = f(s, saved);
    if write_sgpr(w, i.dst[0], saved) {
        w.scc = w.sgpr[opnd::EXEC_LO as usize] != 0;
    }
    NEXT
}

#[inline(always)]
fn saveexec64(w: &mut Wave, i: &Inst, f: impl FnOnce(u64, u64) -> u64) -> Result<Flow, ExecError> {
    let s = s64(w, i, 0);
    let saved = exec_raw(w);
    set_exec_raw(w, f(s, saved));
    if write_sgpr64(w, i.dst[0], saved) {
        w.scc = exec_raw(w) != 0;
    }
    NEXT
}

/// s_and_not{0,1}_wrexec: EXEC = f(S0, EXEC); D = EXEC; SCC = EXEC != 0.
#[inline(always)]
fn wrexec32(w: &mut Wave, i: &Inst, f: impl FnOnce(u32, u32) -> u32) -> Result<Flow, ExecError> {
    let s = s32(w, i, 0);
    let e = f(s, w.sgpr[opnd::EXEC_LO as usize]);
    w.sgpr[opnd::EXEC_LO as usize] = e;
    if write_sgpr(w, i.dst[0], e) {
        w.scc = w.sgpr[opnd::EXEC_LO as usize] != 0;
    }
    NEXT
}

#[inline(always)]
fn wrexec64(w: &mut Wave, i: &Inst, f: impl FnOnce(u64, u64) -> u64) -> Result<Flow, ExecError> {
    let s = s64(w, i, 0);
    let e = f(s, exec_raw(w));
    set_exec_raw(w, e);
    if write_sgpr64(w, i.dst[0], e) {
        w.scc = exec_raw(w) != 0;
    }
    NEXT
}

/// Register range of a relatively indexed SGPR operand (RDNA3 ISA guide, Wave State, "S_MOVREL"): the index must
/// stay within the range of the base operand: [SGPR0..VCC_HI], [TTMP0..TTMP15], or — for any
/// other base — the base itself. Returns the absolute register, or None when out of range.
#[inline(always)]
fn movrel_target(base: u16, index: u32, regs: u16) -> Option<u16> {
    let last = match base {
        0..=107 => 107,
        108..=123 => 123,
        _ => return if index == 0 { Some(base) } else { None },
    };
    let addr = base as u64 + index as u64;
    if addr + regs as u64 - 1 > last {
        None
    } else {
        Some(addr as u16)
    }
}

/// s_movrels source read: an out-of-range source reads S0 (RDNA3 ISA guide, Wave State).
#[inline(always)]
fn movrel_read(w: &Wave, i: &Inst, base: u16, index: u32, wide: bool) -> u64 {
    if base > 127 {
        // Constants and literals are not indexable; the index has to be 0 for them.
        return if index == 0 {
            if wide {
                s64(w, i, 0)
            } else {
                s32(w, i, 0) as u64
            }
        } else if wide {
            read_sgpr(w, 0) as u64 | (read_sgpr(w, 1) as u64) << 32
        } else {
            read_sgpr(w, 0) as u64
        };
    }
    let regs = if wide { 2 } else { 1 };
    let r = movrel_target(base, index, regs).unwrap_or(0);
    if wide {
        read_sgpr(w, r) as u64 | (read_sgpr(w, r + 1) as u64) << 32
    } else {
        read_sgpr(w, r) as u64
    }
}

/// The handler for each SOP1/SOP2/SOPK/SOPC ALU op.
pub fn handler(op: Op) -> Option<Handler> {
    use Op::*;
    // The RDNA3.5 SALU float instructions have their own module.
    if let Some(h) = crate::exec::salu_float::handler(op) {
        return Some(h);
    }
    let h: Handler = match op {
        // ---------------------------------------------------------------- SOP2 arithmetic
        S_ADD_U32 => |w, i, _| {
            let t = s32(w, i, 0) as u64 + s32(w, i, 1) as u64;
            put32(w, i, t as u32, t >> 32 != 0)
        },
        S_SUB_U32 => |w, i, _| {
            let (a, b) = (s32(w, i, 0), s32(w, i, 1));
            put32(w, i, a.wrapping_sub(b), b > a)
        },
        S_ADD_I32 => |w, i, _| {
            let (a, b) = (s32(w, i, 0), s32(w, i, 1));
            let d = a.wrapping_add(b);
            // Signed overflow: operands agree in sign and the result does not.
            put32(w, i, d, (a ^ b) >> 31 == 0 && (a ^ d) >> 31 != 0)
        },
        S_SUB_I32 => |w, i, _| {
            let (a, b) = (s32(w, i, 0), s32(w, i, 1));
            let d = a.wrapping_sub(b);
            put32(w, i, d, (a ^ b) >> 31 != 0 && (a ^ d) >> 31 != 0)
        },
        S_ADDC_U32 => |w, i, _| {
            let t = s32(w, i, 0) as u64 + s32(w, i, 1) as u64 + w.scc as u64;
            put32(w, i, t as u32, t >> 32 != 0)
        },
        S_SUBB_U32 => |w, i, _| {
            let (a, b, c) = (s32(w, i, 0), s32(w, i, 1), w.scc as u32);
            let borrow = b as u64 + c as u64 > a as u64;
            put32(w, i, a.wrapping_sub(b).wrapping_sub(c), borrow)
        },
        S_ABSDIFF_I32 => |w, i, _| {
            let d = (s32(w, i, 0) as i32).wrapping_sub(s32(w, i, 1) as i32);
            // 0x80000000 stays negative (ISA example), like s_abs_i32.
            let d = d.wrapping_abs() as u32;
            put32(w, i, d, d != 0)
        },
        S_LSHL1_ADD_U32 => |w, i, _| lshl_add(w, i, 1),
        S_LSHL2_ADD_U32 => |w, i, _| lshl_add(w, i, 2),
        S_LSHL3_ADD_U32 => |w, i, _| lshl_add(w, i, 3),
        S_LSHL4_ADD_U32 => |w, i, _| lshl_add(w, i, 4),
        S_MIN_I32 => |w, i, _| {
            let (a, b) = (s32(w, i, 0), s32(w, i, 1));
            let first = (a as i32) < (b as i32);
            put32(w, i, if first { a } else { b }, first)
        },
        S_MIN_U32 => |w, i, _| {
            let (a, b) = (s32(w, i, 0), s32(w, i, 1));
            put32(w, i, a.min(b), a < b)
        },
        S_MAX_I32 => |w, i, _| {
            let (a, b) = (s32(w, i, 0), s32(w, i, 1));
            let first = (a as i32) > (b as i32);
            put32(w, i, if first { a } else { b }, first)
        },
        S_MAX_U32 => |w, i, _| {
            let (a, b) = (s32(w, i, 0), s32(w, i, 1));
            put32(w, i, a.max(b), a > b)
        },
        S_MUL_I32 => |w, i, _| mov32(w, i, s32(w, i, 0).wrapping_mul(s32(w, i, 1))),
        S_MUL_HI_U32 => |w, i, _| {
            let p = s32(w, i, 0) as u64 * s32(w, i, 1) as u64;
            mov32(w, i, (p >> 32) as u32)
        },
        S_MUL_HI_I32 => |w, i, _| {
            let p = s32(w, i, 0) as i32 as i64 * s32(w, i, 1) as i32 as i64;
            mov32(w, i, (p >> 32) as u32)
        },

        // ---------------------------------------------------------------- SOP2 shifts, bits
        S_LSHL_B32 => |w, i, _| {
            let d = s32(w, i, 0) << (s32(w, i, 1) & 31);
            put32(w, i, d, d != 0)
        },
        S_LSHR_B32 => |w, i, _| {
            let d = s32(w, i, 0) >> (s32(w, i, 1) & 31);
            put32(w, i, d, d != 0)
        },
        S_ASHR_I32 => |w, i, _| {
            let d = ((s32(w, i, 0) as i32) >> (s32(w, i, 1) & 31)) as u32;
            put32(w, i, d, d != 0)
        },
        S_LSHL_B64 => |w, i, _| {
            let d = s64(w, i, 0) << (s32(w, i, 1) & 63);
            put64(w, i, d, d != 0)
        },
        S_LSHR_B64 => |w, i, _| {
            let d = s64(w, i, 0) >> (s32(w, i, 1) & 63);
            put64(w, i, d, d != 0)
        },
        S_ASHR_I64 => |w, i, _| {
            let d = ((si64(w, i, 0) as i64) >> (s32(w, i, 1) & 63)) as u64;
            put64(w, i, d, d != 0)
        },
        S_BFE_U32 => |w, i, _| {
            let d = bfe_u32(s32(w, i, 0), s32(w, i, 1));
            put32(w, i, d, d != 0)
        },
        S_BFE_I32 => |w, i, _| {
            let d = bfe_i32(s32(w, i, 0), s32(w, i, 1));
            put32(w, i, d, d != 0)
        },
        S_BFE_U64 => |w, i, _| {
            let d = bfe_u64(s64(w, i, 0), s32(w, i, 1));
            put64(w, i, d, d != 0)
        },
        S_BFE_I64 => |w, i, _| {
            let d = bfe_i64(si64(w, i, 0), s32(w, i, 1));
            put64(w, i, d, d != 0)
        },
        S_BFM_B32 => |w, i, _| {
            let d = ones32(s32(w, i, 0) & 31) << (s32(w, i, 1) & 31);
            mov32(w, i, d)
        },
        S_BFM_B64 => |w, i, _| {
            let d = ones64(s32(w, i, 0) & 63) << (s32(w, i, 1) & 63);
            mov64(w, i, d)
        },

        // ---------------------------------------------------------------- SOP2 logic
        S_AND_B32 => |w, i, _| logic32(w, i, |a, b| a & b),
        S_OR_B32 => |w, i, _| logic32(w, i, |a, b| a | b),
        S_XOR_B32 => |w, i, _| logic32(w, i, |a, b| a ^ b),
        S_NAND_B32 => |w, i, _| logic32(w, i, |a, b| !(a & b)),
        S_NOR_B32 => |w, i, _| logic32(w, i, |a, b| !(a | b)),
        S_XNOR_B32 => |w, i, _| logic32(w, i, |a, b| !(a ^ b)),
        S_AND_NOT1_B32 => |w, i, _| logic32(w, i, |a, b| a & !b),
        S_OR_NOT1_B32 => |w, i, _| logic32(w, i, |a, b| a | !b),
        S_AND_B64 => |w, i, _| logic64(w, i, |a, b| a & b),
        S_OR_B64 => |w, i, _| logic64(w, i, |a, b| a | b),
        S_XOR_B64 => |w, i, _| logic64(w, i, |a, b| a ^ b),
        S_NAND_B64 => |w, i, _| logic64(w, i, |a, b| !(a & b)),
        S_NOR_B64 => |w, i, _| logic64(w, i, |a, b| !(a | b)),
        S_XNOR_B64 => |w, i, _| logic64(w, i, |a, b| !(a ^ b)),
        S_AND_NOT1_B64 => |w, i, _| logic64(w, i, |a, b| a & !b),
        S_OR_NOT1_B64 => |w, i, _| logic64(w, i, |a, b| a | !b),

        // ---------------------------------------------------------------- SOP2 select, pack
        S_CSELECT_B32 => |w, i, _| {
            let d = if w.scc { s32(w, i, 0) } else { s32(w, i, 1) };
            mov32(w, i, d)
        },
        S_CSELECT_B64 => |w, i, _| {
            let d = if w.scc { s64(w, i, 0) } else { s64(w, i, 1) };
            mov64(w, i, d)
        },
        S_PACK_LL_B32_B16 => |w, i, _| mov32(w, i, (s32(w, i, 0) & 0xffff) | s32(w, i, 1) << 16),
        S_PACK_LH_B32_B16 => {
            |w, i, _| mov32(w, i, (s32(w, i, 0) & 0xffff) | (s32(w, i, 1) & 0xffff_0000))
        }
        S_PACK_HH_B32_B16 => {
            |w, i, _| mov32(w, i, s32(w, i, 0) >> 16 | (s32(w, i, 1) & 0xffff_0000))
        }
        S_PACK_HL_B32_B16 => |w, i, _| mov32(w, i, s32(w, i, 0) >> 16 | s32(w, i, 1) << 16),

        // ---------------------------------------------------------------- SOP1 moves
        S_MOV_B32 => |w, i, _| mov32(w, i, s32(w, i, 0)),
        S_MOV_B64 => |w, i, _| mov64(w, i, s64(w, i, 0)),
        S_CMOV_B32 => |w, i, _| {
            if w.scc {
                mov32(w, i, s32(w, i, 0))
            } else {
                NEXT
            }
        },
        S_CMOV_B64 => |w, i, _| {
            if w.scc {
                mov64(w, i, s64(w, i, 0))
            } else {
                NEXT
            }
        },
        S_MOVRELS_B32 => |w, i, _| {
            let v = movrel_read(w, i, i.src[0], w.m0(), false);
            mov32(w, i, v as u32)
        },
        S_MOVRELS_B64 => |w, i, _| {
            // The LSBs of the base and of the index are ignored for 64-bit moves (RDNA3 ISA guide, Wave State).
            let base = if i.src[0] < 128 {
                i.src[0] & !1
            } else {
                i.src[0]
            };
            let v = movrel_read(w, i, base, w.m0() & !1, true);
            mov64(w, i, v)
        },
        S_MOVRELD_B32 => |w, i, _| {
            let v = s32(w, i, 0);
            if let Some(r) = movrel_dst(i.dst[0], w.m0(), 1) {
                write_sgpr(w, r, v);
            }
            NEXT
        },
        S_MOVRELD_B64 => |w, i, _| {
            let v = s64(w, i, 0);
            if let Some(r) = movrel_dst(i.dst[0] & !1, w.m0() & !1, 2) {
                write_sgpr64(w, r, v);
            }
            NEXT
        },
        S_MOVRELSD_2_B32 => |w, i, _| {
            // Source index M0[9:0], destination index M0[25:16].
            let m0 = w.m0();
            let v = movrel_read(w, i, i.src[0], m0 & 0x3ff, false) as u32;
            if let Some(r) = movrel_dst(i.dst[0], (m0 >> 16) & 0x3ff, 1) {
                write_sgpr(w, r, v);
            }
            NEXT
        },

        // ---------------------------------------------------------------- SOP1 bit ops
        S_BREV_B32 => |w, i, _| mov32(w, i, s32(w, i, 0).reverse_bits()),
        S_BREV_B64 => |w, i, _| mov64(w, i, s64(w, i, 0).reverse_bits()),
        S_CTZ_I32_B32 => |w, i, _| {
            let v = s32(w, i, 0);
            mov32(w, i, ctz(v as u64, v == 0))
        },
        S_CTZ_I32_B64 => |w, i, _| {
            let v = s64(w, i, 0);
            mov32(w, i, ctz(v, v == 0))
        },
        S_CLZ_I32_U32 => |w, i, _| {
            let v = s32(w, i, 0);
            mov32(w, i, if v == 0 { u32::MAX } else { v.leading_zeros() })
        },
        S_CLZ_I32_U64 => |w, i, _| {
            let v = s64(w, i, 0);
            mov32(w, i, if v == 0 { u32::MAX } else { v.leading_zeros() })
        },
        S_CLS_I32 => |w, i, _| mov32(w, i, cls32(s32(w, i, 0))),
        S_CLS_I32_I64 => |w, i, _| mov32(w, i, cls64(s64(w, i, 0))),
        S_SEXT_I32_I8 => |w, i, _| mov32(w, i, s32(w, i, 0) as i8 as i32 as u32),
        S_SEXT_I32_I16 => |w, i, _| mov32(w, i, s32(w, i, 0) as i16 as i32 as u32),
        S_BITSET0_B32 => |w, i, _| {
            let d = read_scalar(w, i, i.dst[0], Ty::B32) as u32 & !(1 << (s32(w, i, 0) & 31));
            mov32(w, i, d)
        },
        S_BITSET1_B32 => |w, i, _| {
            let d = read_scalar(w, i, i.dst[0], Ty::B32) as u32 | 1 << (s32(w, i, 0) & 31);
            mov32(w, i, d)
        },
        S_BITSET0_B64 => |w, i, _| {
            let d = read_scalar64(w, i, i.dst[0], Ty::B64) & !(1u64 << (s32(w, i, 0) & 63));
            mov64(w, i, d)
        },
        S_BITSET1_B64 => |w, i, _| {
            let d = read_scalar64(w, i, i.dst[0], Ty::B64) | 1u64 << (s32(w, i, 0) & 63);
            mov64(w, i, d)
        },
        S_BITREPLICATE_B64_B32 => |w, i, _| mov64(w, i, bitreplicate(s32(w, i, 0))),
        S_ABS_I32 => |w, i, _| {
            // abs(0x80000000) stays 0x80000000 (ISA functional example).
            let d = (s32(w, i, 0) as i32).wrapping_abs() as u32;
            put32(w, i, d, d != 0)
        },
        S_BCNT0_I32_B32 => |w, i, _| {
            let d = s32(w, i, 0).count_zeros();
            put32(w, i, d, d != 0)
        },
        S_BCNT0_I32_B64 => |w, i, _| {
            let d = s64(w, i, 0).count_zeros();
            put32(w, i, d, d != 0)
        },
        S_BCNT1_I32_B32 => |w, i, _| {
            let d = s32(w, i, 0).count_ones();
            put32(w, i, d, d != 0)
        },
        S_BCNT1_I32_B64 => |w, i, _| {
            let d = s64(w, i, 0).count_ones();
            put32(w, i, d, d != 0)
        },
        S_QUADMASK_B32 => |w, i, _| {
            let d = quadmask(s32(w, i, 0) as u64, 8) as u32;
            put32(w, i, d, d != 0)
        },
        S_QUADMASK_B64 => |w, i, _| {
            let d = quadmask(s64(w, i, 0), 16);
            put64(w, i, d, d != 0)
        },
        S_WQM_B32 => |w, i, _| {
            let d = wqm64(s32(w, i, 0) as u64) as u32;
            put32(w, i, d, d != 0)
        },
        S_WQM_B64 => |w, i, _| {
            let d = wqm64(s64(w, i, 0));
            put64(w, i, d, d != 0)
        },
        S_NOT_B32 => |w, i, _| {
            let d = !s32(w, i, 0);
            put32(w, i, d, d != 0)
        },
        S_NOT_B64 => |w, i, _| {
            let d = !s64(w, i, 0);
            put64(w, i, d, d != 0)
        },

        // ---------------------------------------------------------------- SOP1 EXEC masks
        S_AND_SAVEEXEC_B32 => |w, i, _| saveexec32(w, i, |s, e| s & e),
        S_OR_SAVEEXEC_B32 => |w, i, _| saveexec32(w, i, |s, e| s | e),
        S_XOR_SAVEEXEC_B32 => |w, i, _| saveexec32(w, i, |s, e| s ^ e),
        S_NAND_SAVEEXEC_B32 => |w, i, _| saveexec32(w, i, |s, e| !(s & e)),
        S_NOR_SAVEEXEC_B32 => |w, i, _| saveexec32(w, i, |s, e| !(s | e)),
        S_XNOR_SAVEEXEC_B32 => |w, i, _| saveexec32(w, i, |s, e| !(s ^ e)),
        S_AND_NOT0_SAVEEXEC_B32 => |w, i, _| saveexec32(w, i, |s, e| !s & e),
        S_OR_NOT0_SAVEEXEC_B32 => |w, i, _| saveexec32(w, i, |s, e| !s | e),
        S_AND_NOT1_SAVEEXEC_B32 => |w, i, _| saveexec32(w, i, |s, e| s & !e),
        S_OR_NOT1_SAVEEXEC_B32 => |w, i, _| saveexec32(w, i, |s, e| s | !e),
        S_AND_SAVEEXEC_B64 => |w, i, _| saveexec64(w, i, |s, e| s & e),
        S_OR_SAVEEXEC_B64 => |w, i, _| saveexec64(w, i, |s, e| s | e),
        S_XOR_SAVEEXEC_B64 => |w, i, _| saveexec64(w, i, |s, e| s ^ e),
        S_NAND_SAVEEXEC_B64 => |w, i, _| saveexec64(w, i, |s, e| !(s & e)),
        S_NOR_SAVEEXEC_B64 => |w, i, _| saveexec64(w, i, |s, e| !(s | e)),
        S_XNOR_SAVEEXEC_B64 => |w, i, _| saveexec64(w, i, |s, e| !(s ^ e)),
        S_AND_NOT0_SAVEEXEC_B64 => |w, i, _| saveexec64(w, i, |s, e| !s & e),
        S_OR_NOT0_SAVEEXEC_B64 => |w, i, _| saveexec64(w, i, |s, e| !s | e),
        S_AND_NOT1_SAVEEXEC_B64 => |w, i, _| saveexec64(w, i, |s, e| s & !e),
        S_OR_NOT1_SAVEEXEC_B64 => |w, i, _| saveexec64(w, i, |s, e| s | !e),
        S_AND_NOT0_WREXEC_B32 => |w, i, _| wrexec32(w, i, |s, e| !s & e),
        S_AND_NOT1_WREXEC_B32 => |w, i, _| wrexec32(w, i, |s, e| s & !e),
        S_AND_NOT0_WREXEC_B64 => |w, i, _| wrexec64(w, i, |s, e| !s & e),
        S_AND_NOT1_WREXEC_B64 => |w, i, _| wrexec64(w, i, |s, e| s & !e),

        // ---------------------------------------------------------------- SOPC
        S_CMP_EQ_I32 | S_CMP_EQ_U32 => |w, i, _| cmp(w, s32(w, i, 0) == s32(w, i, 1)),
        S_CMP_LG_I32 | S_CMP_LG_U32 => |w, i, _| cmp(w, s32(w, i, 0) != s32(w, i, 1)),
        S_CMP_GT_I32 => |w, i, _| cmp(w, (s32(w, i, 0) as i32) > s32(w, i, 1) as i32),
        S_CMP_GE_I32 => |w, i, _| cmp(w, s32(w, i, 0) as i32 >= s32(w, i, 1) as i32),
        S_CMP_LT_I32 => |w, i, _| cmp(w, (s32(w, i, 0) as i32) < s32(w, i, 1) as i32),
        S_CMP_LE_I32 => |w, i, _| cmp(w, s32(w, i, 0) as i32 <= s32(w, i, 1) as i32),
        S_CMP_GT_U32 => |w, i, _| cmp(w, s32(w, i, 0) > s32(w, i, 1)),
        S_CMP_GE_U32 => |w, i, _| cmp(w, s32(w, i, 0) >= s32(w, i, 1)),
        S_CMP_LT_U32 => |w, i, _| cmp(w, s32(w, i, 0) < s32(w, i, 1)),
        S_CMP_LE_U32 => |w, i, _| cmp(w, s32(w, i, 0) <= s32(w, i, 1)),
        S_BITCMP0_B32 => |w, i, _| cmp(w, s32(w, i, 0) >> (s32(w, i, 1) & 31) & 1 == 0),
        S_BITCMP1_B32 => |w, i, _| cmp(w, s32(w, i, 0) >> (s32(w, i, 1) & 31) & 1 == 1),
        S_BITCMP0_B64 => |w, i, _| cmp(w, s64(w, i, 0) >> (s32(w, i, 1) & 63) & 1 == 0),
        S_BITCMP1_B64 => |w, i, _| cmp(w, s64(w, i, 0) >> (s32(w, i, 1) & 63) & 1 == 1),
        S_CMP_EQ_U64 => |w, i, _| cmp(w, s64(w, i, 0) == s64(w, i, 1)),
        S_CMP_LG_U64 => |w, i, _| cmp(w, s64(w, i, 0) != s64(w, i, 1)),

        // ---------------------------------------------------------------- SOPK
        S_MOVK_I32 => |w, i, _| mov32(w, i, simm(i) as u32),
        S_CMOVK_I32 => |w, i, _| {
            if w.scc {
                mov32(w, i, simm(i) as u32)
            } else {
                NEXT
            }
        },
        S_CMPK_EQ_I32 => |w, i, _| cmp(w, sopk_src(w, i) as i32 == simm(i)),
        S_CMPK_LG_I32 => |w, i, _| cmp(w, sopk_src(w, i) as i32 != simm(i)),
        S_CMPK_GT_I32 => |w, i, _| cmp(w, sopk_src(w, i) as i32 > simm(i)),
        S_CMPK_GE_I32 => |w, i, _| cmp(w, sopk_src(w, i) as i32 >= simm(i)),
        S_CMPK_LT_I32 => |w, i, _| cmp(w, (sopk_src(w, i) as i32) < simm(i)),
        S_CMPK_LE_I32 => |w, i, _| cmp(w, sopk_src(w, i) as i32 <= simm(i)),
        S_CMPK_EQ_U32 => |w, i, _| cmp(w, sopk_src(w, i) == uimm(i)),
        S_CMPK_LG_U32 => |w, i, _| cmp(w, sopk_src(w, i) != uimm(i)),
        S_CMPK_GT_U32 => |w, i, _| cmp(w, sopk_src(w, i) > uimm(i)),
        S_CMPK_GE_U32 => |w, i, _| cmp(w, sopk_src(w, i) >= uimm(i)),
        S_CMPK_LT_U32 => |w, i, _| cmp(w, sopk_src(w, i) < uimm(i)),
        S_CMPK_LE_U32 => |w, i, _| cmp(w, sopk_src(w, i) <= uimm(i)),
        S_ADDK_I32 => |w, i, _| {
            let (a, k) = (sopk_d(w, i), simm(i) as u32);
            let d = a.wrapping_add(k);
            put32(w, i, d, (a ^ k) >> 31 == 0 && (a ^ d) >> 31 != 0)
        },
        S_MULK_I32 => |w, i, _| mov32(w, i, sopk_d(w, i).wrapping_mul(simm(i) as u32)),
        _ => return None,
    };
    Some(h)
}

/// s_lshl{1..4}_add_u32: D = (S0 << n) + S1, SCC = carry out of the 64-bit sum.
#[inline(always)]
fn lshl_add(w: &mut Wave, i: &Inst, n: u32) -> Result<Flow, ExecError> {
    let t = ((s32(w, i, 0) as u64) << n) + s32(w, i, 1) as u64;
    put32(w, i, t as u32, t >> 32 != 0)
}

#[inline(always)]
fn logic32(w: &mut Wave, i: &Inst, f: impl FnOnce(u32, u32) -> u32) -> Result<Flow, ExecError> {
    let d = f(s32(w, i, 0), s32(w, i, 1));
    put32(w, i, d, d != 0)
}

#[inline(always)]
fn logic64(w: &mut Wave, i: &Inst, f: impl FnOnce(u64, u64) -> u64) -> Result<Flow, ExecError> {
    let d = f(s64(w, i, 0), s64(w, i, 1));
    put64(w, i, d, d != 0)
}

/// s_movreld destination: out of range writes nothing (RDNA3 ISA guide, Wave State).
#[inline(always)]
fn movrel_dst(base: u16, index: u32, regs: u16) -> Option<u16> {
    if base > 127 {
        return None;
    }
    movrel_target(base, index, regs)
}
