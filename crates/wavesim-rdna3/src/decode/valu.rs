//! Decoding the vector ALU formats: VOP1, VOP2, VOPC (with DPP), VOP3, VOP3SD, VOP3P,
//! VINTERP, LDSDIR and VOPD, and the VALU operand checks they share.

use super::fields::*;
use super::inst::*;
use crate::isa::{Fmak, Fmt, Lookup, Op, Ty};

/// Is `code` a valid 9-bit VALU source (not counting DPP markers)?
pub(super) fn valid_vsrc(code: u16, dwords: u8) -> bool {
    code >= opnd::VGPR0 || valid_ssrc(code, dwords)
}

/// DPP16 / DPP8 control word following a VOP1/VOP2/VOPC/VOP3/VOP3P instruction.
pub(super) fn decode_dpp(i: &mut Inst, sel: u16, dw: u32, e32: bool) {
    i.src[0] = opnd::vgpr(dw & 0xff);
    if sel == opnd::DPP16 {
        i.dpp = Dpp::Dpp16 {
            ctrl: bits(dw, 16, 8) as u16,
            fi: dw & (1 << 18) != 0,
            bound_ctrl: dw & (1 << 19) != 0,
            row_mask: bits(dw, 31, 28) as u8,
            bank_mask: bits(dw, 27, 24) as u8,
        };
        // The e32 forms carry src0/src1 neg/abs in the DPP word.
        if e32 {
            i.neg = (bits(dw, 20, 20) | bits(dw, 22, 22) << 1) as u8;
            i.abs = (bits(dw, 21, 21) | bits(dw, 23, 23) << 1) as u8;
        }
    } else {
        i.dpp = Dpp::Dpp8 {
            sel: dw >> 8,
            fi: sel == opnd::DPP8FI,
        };
    }
}

#[inline]
pub(super) fn is_dpp_sel(s: u16) -> bool {
    s == opnd::DPP16 || s == opnd::DPP8 || s == opnd::DPP8FI
}

/// v_fmamk/v_fmaak: the K constant is a literal operand in the middle / at the end.
#[inline]
pub(super) fn is_fmak(op: Op) -> bool {
    op.facts().fmak != Fmak::None
}

pub(super) fn decode_vop12c(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let (op, enc) = match w0 >> 25 {
        0x3f => (lk.find(Fmt::Vop1, bits(w0, 16, 9)), Enc::Vop1),
        0x3e => (lk.find(Fmt::Vopc, bits(w0, 24, 17)), Enc::Vopc),
        opc => (lk.find(Fmt::Vop2, opc), Enc::Vop2),
    };
    let Some(op) = op else {
        return Ok(None);
    };
    // v_illegal is only the all-zero word.
    if op == Op::V_ILLEGAL && w0 != 0 {
        return Ok(None);
    }
    let sig = *op.sig();
    let mut i = Inst::new(op, enc, 4);
    let src0 = bits(w0, 8, 0) as u16;
    let vsrc1 = opnd::vgpr(bits(w0, 16, 9));
    let vdst = bits(w0, 24, 17);
    let dpp = is_dpp_sel(src0);
    match enc {
        Enc::Vop1 => {
            if sig.dst[0] != Ty::None {
                // v_readfirstlane_b32 writes an SGPR from the vdst field.
                i.dst[0] = if op == Op::V_READFIRSTLANE_B32 {
                    if !valid_lane_read_dst(vdst as u16) {
                        return Ok(None);
                    }
                    vdst as u16
                } else {
                    opnd::vgpr(vdst)
                };
            } else if vdst != 0 {
                // v_nop / v_pipeflush: the hardware does not use the vdst field.
                w.reject(&mut i);
            }
            // v_nop / v_pipeflush ignore the src0 field.
            if sig.src[0] != Ty::None {
                i.src[0] = src0;
            }
        }
        Enc::Vop2 => {
            i.dst[0] = opnd::vgpr(vdst);
            i.src[0] = src0;
            match op.facts().fmak {
                Fmak::Mk => {
                    i.src[1] = opnd::LITERAL;
                    i.src[2] = vsrc1;
                }
                Fmak::Ak => {
                    i.src[1] = vsrc1;
                    i.src[2] = opnd::LITERAL;
                }
                Fmak::None => {
                    i.src[1] = vsrc1;
                    if sig.src[2] == Ty::Mask {
                        i.src[2] = opnd::VCC_LO;
                    }
                    if sig.dst[1] == Ty::Mask {
                        i.dst[1] = opnd::VCC_LO;
                    }
                }
            }
        }
        _ => {
            i.dst[1] = if op.info().flags & crate::isa::flags::WRITES_EXEC != 0 {
                opnd::EXEC_LO
            } else {
                opnd::VCC_LO
            };
            i.src[0] = src0;
            i.src[1] = vsrc1;
        }
    }
    // 16-bit operands of e32/DPP encodings are in LLVM 19's "Lo128" classes (gfx1100 without
    // real-true16): a 16-bit VGPR destination (and v_ldexp_f16's exponent, the fmamk/fmaak
    // vsrc) of v128 or above is rejected. The hardware reads the field as a true16 register,
    // the high half of v[n-128] (RDNA3 ISA guide, 16-bit VOP1/VOP2/VOPC operands; measured in
    // tinygrad test/amd/hw test_vop2.py TestVop2F16HiHalf), so it decodes and executes.
    if sig.dst[0].is_16bit() && op != Op::V_MOV_B16 && i.dst[0] >= opnd::VGPR0 + 128 {
        w.reject(&mut i);
    }
    if matches!(op, Op::V_LDEXP_F16 | Op::V_FMAMK_F16 | Op::V_FMAAK_F16)
        && i.src[if op == Op::V_FMAMK_F16 { 2 } else { 1 }] >= opnd::VGPR0 + 128
    {
        w.reject(&mut i);
    }
    if is_fmak(op) {
        i.flags |= iflags::LIT;
    }
    if dpp {
        if !has_dpp(op) {
            return Ok(None);
        }
        let sel = src0;
        decode_dpp(&mut i, sel, w.get(1)?, true);
        i.len = 8;
        // Input modifiers only on sources that take them.
        let (fm, im) = dpp_e32_mods(op);
        // abs on an integer source is accepted and not printed; it stays as encoded.
        if i.neg & !(fm | im) != 0 || i.abs & !(fm | im) != 0 {
            return Ok(None);
        }
        if !valu_fits(&i) {
            return Ok(None);
        }
        return Ok(Some(i));
    }
    if sig.src[0] != Ty::None {
        if let Some(pair) = hw_pair(i.src[0], dw(sig.src[0])) {
            w.reject(&mut i);
            i.src[0] = pair;
        } else if !valid_vsrc(i.src[0], dw(sig.src[0])) {
            return Ok(None);
        }
        i.src[0] = align_sreg(i.src[0], dw(sig.src[0]));
    }
    if !valu_fits(&i) {
        return Ok(None);
    }
    take_literal(w, &mut i, 1)?;
    Ok(Some(i))
}

/// The op a VOP3 opcode names: VOP3-only rows first, then the promoted VOPC/VOP2/VOP1 rows.
pub(super) fn vop3_op(lk: &Lookup, opc: u32) -> Option<(Op, Enc)> {
    if let Some(op) = lk.find(Fmt::Vop3, opc) {
        return Some((op, Enc::Vop3));
    }
    if let Some(op) = lk.find(Fmt::Vop3sd, opc) {
        return Some((op, Enc::Vop3sd));
    }
    let promoted = match opc {
        0x000..=0x0ff => lk.find(Fmt::Vopc, opc),
        0x100..=0x17f => lk.find(Fmt::Vop2, opc - 0x100),
        0x180..=0x1ff => lk.find(Fmt::Vop1, opc - 0x180),
        _ => None,
    }?;
    if promoted.info().flags & crate::isa::flags::NO_VOP3 != 0 {
        return None;
    }
    // VOP2 carry forms use the VOP3SD layout (sdst in bits 14:8).
    if promoted.sig().dst[1] == Ty::Mask {
        return Some((promoted, Enc::Vop3sd));
    }
    Some((promoted, Enc::Vop3))
}

/// Checks the modifier bits of a VOP3/VOP3SD instruction against the op's capabilities. Returns
/// false when LLVM would reject the encoding. Bits LLVM accepts but does not print (op_sel of
/// the 16-bit ops it models without op_sel, abs/neg of integer sources) stay in the `Inst` as
/// encoded: the hardware honours op_sel on every 16-bit operand, and the executor ignores
/// float modifiers on integer operands by itself. The disassembler masks them when printing.
pub(super) fn vop3_check_mods(i: &Inst, m: &Vop3Mods, sd: bool) -> bool {
    let n = i.op.sig().num_src();
    let exist = ((1u16 << n) - 1) as u8;
    let (neg, abs) = (i.neg, i.abs);
    if m.ign_mods {
        // Modifier bits of sources that exist are ignored; others must be zero.
        if neg & !exist != 0 || (!sd && abs & !exist != 0) {
            return false;
        }
    } else {
        let negok = m.fmods | m.imods;
        if neg & !negok != 0 {
            return false;
        }
        // abs on an integer-modifier source is ignored, elsewhere it must be zero.
        if !sd && abs & !(m.fmods | m.imods) != 0 {
            return false;
        }
    }
    // An op_sel bit for a missing src2 is invalid when the op has op_sel at all.
    if !sd && m.op_sel != 0 && n == 2 && i.op_sel & 4 != 0 {
        return false;
    }
    if i.clamp && !m.clamp {
        return false;
    }
    if i.omod != 0 && !m.omod {
        return false;
    }
    true
}

pub(super) fn decode_vop3(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some((op, enc)) = vop3_op(lk, bits(w0, 25, 16)) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let sig = *op.sig();
    let n = sig.num_src();
    let mut i = Inst::new(op, enc, 8);
    let vdst = bits(w0, 7, 0) as u16;
    let sd = enc == Enc::Vop3sd;
    if sd {
        i.dst[1] = bits(w0, 14, 8) as u16;
    } else {
        i.abs = bits(w0, 10, 8) as u8;
        i.op_sel = bits(w0, 14, 11) as u8;
    }
    i.clamp = w0 & (1 << 15) != 0;
    let raw = src_fields(w1);
    i.omod = bits(w1, 28, 27) as u8;
    i.neg = bits(w1, 31, 29) as u8;
    // Destination: VOPC writes a lane mask from the vdst field; v_readlane writes an SGPR.
    if op.fmt() == Fmt::Vopc {
        // The lane-mask destination decodes like a scalar source (constants are accepted by
        // LLVM and printed with a remark); codes that name nothing are invalid. v_cmpx has no
        // destination operand and ignores the field.
        if sig.dst[0] == Ty::Mask && (!valid_ssrc(vdst, 1) || vdst == opnd::LITERAL) {
            return Ok(None);
        }
        i.dst[1] = vdst;
    } else if op == Op::V_READLANE_B32 {
        if !valid_lane_read_dst(vdst) {
            return Ok(None);
        }
        i.dst[0] = vdst;
    } else if sig.dst[0] != Ty::None {
        i.dst[0] = opnd::vgpr(vdst as u32);
    } else if vdst != 0 {
        // No destination: the hardware does not use the field.
        w.reject(&mut i);
    }
    if sd && sig.dst[1] == Ty::Mask && !valid_sdst(i.dst[1], 1) {
        return Ok(None);
    }
    if !take_srcs(w, &mut i, &raw, n) {
        return Ok(None);
    }
    let m = vop3_mods(op);
    // neg/abs/op_sel bits of sources the op does not have: LLVM rejects them, the hardware has
    // nothing to apply them to.
    let absent = !((1u8 << n) - 1) & 0b111;
    let absent_sel = if !sd && m.op_sel != 0 && n == 2 { 4 } else { 0 };
    if (i.neg | i.abs) & absent != 0 || i.op_sel & absent_sel != 0 {
        w.reject(&mut i);
        i.neg &= !absent;
        i.abs &= !absent;
        i.op_sel &= !absent_sel;
    }
    if !vop3_check_mods(&i, &m, sd) {
        return Ok(None);
    }
    if n > 0 && is_dpp_sel(raw[0]) {
        if !has_dpp(op) {
            return Ok(None);
        }
        // The 16-bit integer ops keep their (sext) neg bits in the DPP form.
        if m.ign_mods && !matches!(op, Op::V_PERMLANE16_B32 | Op::V_PERMLANEX16_B32) {
            i.neg = bits(w1, 31, 29) as u8 & ((1u8 << n) - 1);
        }
        return vop3_dpp(w, i, raw[0], n);
    }
    for k in 0..n {
        if let Some(pair) = hw_pair(i.src[k], dw(sig.src[k])) {
            w.reject(&mut i);
            i.src[k] = pair;
        } else if !valid_vsrc(i.src[k], dw(sig.src[k])) {
            return Ok(None);
        }
        if sig.src[k].dwords() >= 2 || sig.src[k] == Ty::Mask {
            i.src[k] = align_sreg(i.src[k], dw(sig.src[k]));
        }
    }
    if !valu_fits(&i) {
        return Ok(None);
    }
    take_literal(w, &mut i, 2)?;
    Ok(Some(i))
}

/// The three 9-bit source fields of a VOP3/VOP3P second dword.
pub(super) fn src_fields(w1: u32) -> [u16; 3] {
    [
        bits(w1, 8, 0) as u16,
        bits(w1, 17, 9) as u16,
        bits(w1, 26, 18) as u16,
    ]
}

/// The `n` source fields of a VOP3/VOP3P word: the op's sources are taken as they are. LLVM
/// wants the fields of sources the op does not have to be zero; the hardware ignores them,
/// unless one names the literal or a DPP marker (whether another dword is fetched then is not
/// defined: false).
pub(super) fn take_srcs(w: &Words, i: &mut Inst, raw: &[u16; 3], n: usize) -> bool {
    for (k, &c) in raw.iter().enumerate() {
        if k >= n {
            if c == opnd::LITERAL || is_dpp_sel(c) {
                return false;
            }
            if c != 0 {
                w.reject(i);
            }
        } else {
            i.src[k] = c;
        }
    }
    true
}

/// The rest of a VOP3/VOP3P DPP form (src0 field `sel`, `n` sources): the DPP dword, valid
/// src1/src2, and an optional literal after the DPP dword.
pub(super) fn vop3_dpp(
    w: &Words,
    mut i: Inst,
    sel: u16,
    n: usize,
) -> Result<Option<Inst>, DecodeError> {
    let sig = *i.op.sig();
    decode_dpp(&mut i, sel, w.get(2)?, false);
    for k in 1..n {
        if !valid_vsrc(i.src[k], dw(sig.src[k])) {
            return Ok(None);
        }
    }
    // LLVM 19 also decodes a literal constant in src1/src2 of the VOP3 DPP forms (it follows the
    // DPP dword).
    take_literal(w, &mut i, 3)?;
    Ok(Some(i))
}

pub(super) fn decode_vop3p(
    w: &Words,
    w0: u32,
    lk: &Lookup,
    wave64: bool,
) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Vop3p, bits(w0, 22, 16)) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let sig = *op.sig();
    let n = sig.num_src();
    let mut i = Inst::new(op, Enc::Vop3p, 8);
    i.dst[0] = opnd::vgpr(bits(w0, 7, 0));
    i.neg_hi = bits(w0, 10, 8) as u8;
    i.op_sel = bits(w0, 13, 11) as u8;
    i.op_sel_hi = (bits(w1, 28, 27) | bits(w0, 14, 14) << 2) as u8;
    i.clamp = w0 & (1 << 15) != 0;
    let raw = src_fields(w1);
    i.neg = bits(w1, 31, 29) as u8;
    // op_sel, neg_lo and neg_hi bits of a source the op does not have make the word invalid
    // (op_sel_hi bits do not).
    let absent = !((1u8 << n) - 1) & 0b111;
    if (i.op_sel | i.neg | i.neg_hi) & absent != 0 {
        // The hardware has no source to apply them to.
        w.reject(&mut i);
        i.op_sel &= !absent;
        i.neg &= !absent;
        i.neg_hi &= !absent;
    }
    if !take_srcs(w, &mut i, &raw, n) {
        return Ok(None);
    }
    if n > 0 && is_dpp_sel(raw[0]) {
        // Of the VOP3P instructions only v_fma_mix* and v_dot2_f32_f16 have DPP forms.
        if !is_fma_mix(op) && op != Op::V_DOT2_F32_F16 {
            return Ok(None);
        }
        return vop3_dpp(w, i, raw[0], n);
    }
    // Register widths: WMMA's D and C matrices depend on the wave size.
    let acc = is_wmma(op).then(|| wmma_acc_dwords(wave64));
    let width = |k: usize| match acc {
        Some(a) if k == 2 => a,
        _ => dw(sig.src[k]),
    };
    for k in 0..n {
        if !valid_vsrc(i.src[k], width(k)) {
            return Ok(None);
        }
        if width(k) >= 2 {
            i.src[k] = align_sreg(i.src[k], width(k));
        }
    }
    if let Some(a) = acc {
        let fits = vfits(i.dst[0], a)
            && (0..n).all(|k| {
                let c = i.src[k];
                vfits(c, width(k)) && (c >= opnd::VGPR0 || sreg_fits(c, width(k)))
            });
        if !fits {
            return Ok(None);
        }
    }
    if is_wmma(op) {
        let int = !matches!(
            op,
            Op::V_WMMA_F32_16X16X16_F16
                | Op::V_WMMA_F32_16X16X16_BF16
                | Op::V_WMMA_F16_16X16X16_F16
                | Op::V_WMMA_BF16_16X16X16_BF16
        );
        if (!wmma_has_op_sel(op) && i.op_sel != 0) || (i.clamp && !int) {
            return Ok(None);
        }
    }
    if acc.is_none() && !valu_fits(&i) {
        return Ok(None);
    }
    take_literal(w, &mut i, 2)?;
    Ok(Some(i))
}

pub(super) fn decode_vinterp(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Vinterp, bits(w0, 22, 16)) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let mut i = Inst::new(op, Enc::Vinterp, 8);
    i.dst[0] = opnd::vgpr(bits(w0, 7, 0));
    i.imm = bits(w0, 10, 8) as i32;
    i.op_sel = bits(w0, 14, 11) as u8;
    i.clamp = w0 & (1 << 15) != 0;
    i.src[0] = bits(w1, 8, 0) as u16;
    i.src[1] = bits(w1, 17, 9) as u16;
    i.src[2] = bits(w1, 26, 18) as u16;
    i.neg = bits(w1, 31, 29) as u8;
    for k in 0..3 {
        if !valid_vsrc(i.src[k], 1) || is_dpp_sel(i.src[k]) {
            return Ok(None);
        }
    }
    // Only the f16 forms select halves.
    if i.op_sel != 0 && matches!(op, Op::V_INTERP_P10_F32 | Op::V_INTERP_P2_F32) {
        return Ok(None);
    }
    // The sources are VGPRs; LLVM still decodes a literal there (and prints it with a remark).
    take_literal(w, &mut i, 2)?;
    Ok(Some(i))
}

pub(super) fn decode_ldsdir(w0: u32, lk: &Lookup) -> Option<Inst> {
    if bits(w0, 23, 22) != 0 {
        return None;
    }
    let op = lk.find(Fmt::Ldsdir, bits(w0, 21, 20))?;
    let mut i = Inst::new(op, Enc::Ldsdir, 4);
    i.dst[0] = opnd::vgpr(bits(w0, 7, 0));
    i.imm = bits(w0, 19, 16) as i32;
    i.imm2 = bits(w0, 15, 8);
    Some(i)
}

/// VOPD component opcodes (RDNA3 ISA, "VOPD"): X uses 0-13, Y uses 0-18 (16-18 Y only).
pub const VOPD_OPS: [Option<Op>; 19] = [
    Some(Op::V_FMAC_F32),
    Some(Op::V_FMAAK_F32),
    Some(Op::V_FMAMK_F32),
    Some(Op::V_MUL_F32),
    Some(Op::V_ADD_F32),
    Some(Op::V_SUB_F32),
    Some(Op::V_SUBREV_F32),
    Some(Op::V_MUL_DX9_ZERO_F32),
    Some(Op::V_MOV_B32),
    Some(Op::V_CNDMASK_B32),
    Some(Op::V_MAX_F32),
    Some(Op::V_MIN_F32),
    Some(Op::V_DOT2ACC_F32_F16),
    // v_dual_dot2c_f32_bf16: LLVM 19 does not decode it for gfx1100.
    None,
    None,
    None,
    Some(Op::V_ADD_NC_U32),
    Some(Op::V_LSHLREV_B32),
    Some(Op::V_AND_B32),
];

pub(super) fn decode_vopd(w: &Words, w0: u32) -> Result<Option<Inst>, DecodeError> {
    let opx = bits(w0, 25, 22) as usize;
    let opy = bits(w0, 21, 17) as usize;
    if opx > 12 {
        return Ok(None);
    }
    let (Some(Some(x)), Some(Some(y))) = (VOPD_OPS.get(opx), VOPD_OPS.get(opy)) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let mut i = Inst::new(*x, Enc::Vopd, 8);
    i.op_y = *y;
    i.imm2 = opy as u32;
    i.imm = w0 as i32;
    i.src[0] = bits(w0, 8, 0) as u16;
    i.src[1] = opnd::vgpr(bits(w0, 16, 9));
    i.src[2] = bits(w1, 8, 0) as u16;
    i.src[3] = opnd::vgpr(bits(w1, 16, 9));
    let vdstx = bits(w1, 31, 24);
    i.dst[0] = opnd::vgpr(vdstx);
    // VDSTY's low bit is implied: the opposite of VDSTX's, so the two land in different banks.
    i.dst[1] = opnd::vgpr((bits(w1, 23, 17) << 1) | ((vdstx & 1) ^ 1));
    for s in [i.src[0], i.src[2]] {
        if !valid_vsrc(s, 1) || is_dpp_sel(s) {
            return Ok(None);
        }
    }
    // v_dual_mov_b32 has no vsrc1: LLVM wants the field zero, the hardware does not read it.
    if *x == Op::V_MOV_B32 && bits(w0, 16, 9) != 0 {
        w.reject(&mut i);
        i.src[1] = opnd::VGPR0;
    }
    if *y == Op::V_MOV_B32 && bits(w1, 16, 9) != 0 {
        w.reject(&mut i);
        i.src[3] = opnd::VGPR0;
    }
    let k = |op: Op| op.facts().fmak != Fmak::None;
    if k(*x) || k(*y) {
        i.flags |= iflags::LIT;
    }
    take_literal(w, &mut i, 2)?;
    Ok(Some(i))
}

/// v_fma_mix*: VOP3P encodings with VOP3-style modifiers (neg_hi bits are abs).
pub fn is_fma_mix(op: Op) -> bool {
    op.facts().fma_mix
}

/// Wave matrix multiply-accumulate instructions.
pub fn is_wmma(op: Op) -> bool {
    op.facts().wmma
}

/// The 16-bit-accumulator WMMAs have op_sel/op_sel_hi (and no clamp); the others have neither
/// op_sel nor op_sel_hi; the integer ones take clamp.
pub fn wmma_has_op_sel(op: Op) -> bool {
    op.facts().wmma_op_sel
}

/// Input modifiers of the VOP1/VOP2/VOPC DPP forms: (float `neg`/`abs` sources, integer `sext`
/// sources), from the table (v_ldexp_f16's exponent and v_mov_b16's source take sext there).
pub fn dpp_e32_mods(op: Op) -> (u8, u8) {
    let f = op.facts();
    (f.dpp_fmods, f.dpp_imods)
}

/// Does the VALU instruction have DPP forms (DPP16 and DPP8)? (The table's `dpp` fact: not for
/// 64-bit operands, lane reads, swaps, v_fmac_dx9_zero_f32, ...; LLVM 19, gfx11.)
pub fn has_dpp(op: Op) -> bool {
    op.facts().dpp
}

/// Do all VALU register operands (destinations and sources) fit in their register files?
pub(super) fn valu_fits(i: &Inst) -> bool {
    let sig = i.op.sig();
    let dst_ok = (0..2).all(|k| {
        let t = sig.dst[k];
        t == Ty::None || t == Ty::Mask || vfits(i.dst[k], dw(t))
    });
    let src_ok = (0..sig.num_src()).all(|k| {
        let t = sig.src[k];
        let c = i.src[k];
        t == Ty::Mask || (vfits(c, dw(t)) && (c >= opnd::VGPR0 || sreg_fits(c, dw(t))))
    });
    dst_ok && src_ok
}
