//! Decoding the scalar formats: SOP1, SOP2, SOPC, SOPK, SOPP and SMEM.

use super::fields::*;
use super::inst::*;
use crate::isa::{Fmak, Fmt, Lookup, Op, Ty};

/// Scalar operand checks for SOP1/SOP2/SOPC: sets the aligned codes, or returns false.
pub(super) fn scalar_srcs(w: &Words, i: &mut Inst, codes: &[u16]) -> bool {
    let sig = *i.op.sig();
    for (k, &c) in codes.iter().enumerate() {
        let t = sig.src[k];
        if t == Ty::None {
            continue;
        }
        if let Some(pair) = hw_pair(c, dw(t)) {
            w.reject(i);
            i.src[k] = pair;
            continue;
        }
        if !valid_ssrc(c, dw(t)) {
            return false;
        }
        i.src[k] = align_sreg(c, dw(t));
    }
    true
}

/// Sets the scalar destination `code` (aligned to the op's `dst[0]` width), or returns false when
/// it is not a valid destination of that width.
pub(super) fn set_sdst(w: &Words, i: &mut Inst, code: u16) -> bool {
    let n = dw(i.op.sig().dst[0]);
    if let Some(pair) = hw_pair(code, n) {
        w.reject(i);
        i.dst[0] = pair;
        return true;
    }
    if !valid_sdst(code, n) {
        return false;
    }
    i.dst[0] = align_sreg(code, n);
    true
}

pub(super) fn decode_sop1(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Sop1, bits(w0, 15, 8)) else {
        return Ok(None);
    };
    let mut i = Inst::new(op, Enc::Sop1, 4);
    let sig = *op.sig();
    if sig.dst[0] != Ty::None && !set_sdst(w, &mut i, bits(w0, 22, 16) as u16) {
        return Ok(None);
    }
    if sig.src[0] == Ty::Sendmsg {
        i.imm = bits(w0, 7, 0) as i32;
    } else if !scalar_srcs(w, &mut i, &[bits(w0, 7, 0) as u16]) {
        return Ok(None);
    }
    take_literal(w, &mut i, 1)?;
    Ok(Some(i))
}

pub(super) fn decode_sop2(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Sop2, bits(w0, 29, 23)) else {
        return Ok(None);
    };
    let mut i = Inst::new(op, Enc::Sop2, 4);
    if !set_sdst(w, &mut i, bits(w0, 22, 16) as u16) {
        return Ok(None);
    }
    let fmak = op.facts().fmak;
    if fmak != Fmak::None {
        // RDNA3.5: the literal K is the middle (fmamk) or last (fmaak) source, as in the VOP2
        // v_fmamk/v_fmaak forms; the literal dword is always present.
        let (a, b) = (bits(w0, 7, 0) as u16, bits(w0, 15, 8) as u16);
        if !valid_ssrc(a, 1) || !valid_ssrc(b, 1) {
            return Ok(None);
        }
        i.src[0] = a;
        if fmak == Fmak::Mk {
            (i.src[1], i.src[2]) = (opnd::LITERAL, b);
        } else {
            (i.src[1], i.src[2]) = (b, opnd::LITERAL);
        }
        i.flags |= iflags::LIT;
        take_literal(w, &mut i, 1)?;
        return Ok(Some(i));
    }
    if !scalar_srcs(w, &mut i, &[bits(w0, 7, 0) as u16, bits(w0, 15, 8) as u16]) {
        return Ok(None);
    }
    take_literal(w, &mut i, 1)?;
    Ok(Some(i))
}

pub(super) fn decode_sopc(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Sopc, bits(w0, 22, 16)) else {
        return Ok(None);
    };
    let mut i = Inst::new(op, Enc::Sopc, 4);
    if !scalar_srcs(w, &mut i, &[bits(w0, 7, 0) as u16, bits(w0, 15, 8) as u16]) {
        return Ok(None);
    }
    take_literal(w, &mut i, 1)?;
    Ok(Some(i))
}

pub(super) fn decode_sopk(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Sopk, bits(w0, 27, 23)) else {
        return Ok(None);
    };
    let mut i = Inst::new(op, Enc::Sopk, 4);
    let sig = *op.sig();
    let r = bits(w0, 22, 16) as u16;
    i.imm = sext(w0 & 0xffff, 16);
    if sig.dst[0] != Ty::None {
        if !set_sdst(w, &mut i, r) {
            return Ok(None);
        }
    } else if matches!(sig.src[0], Ty::Hwreg) {
        // s_setreg_b32 hwreg, sdata / s_setreg_imm32_b32 hwreg, literal.
        if op == Op::S_SETREG_IMM32_B32 {
            i.src[1] = opnd::LITERAL;
        } else {
            if !valid_sdst(r, 1) {
                return Ok(None);
            }
            i.src[1] = r;
        }
    } else if sig.src[0] != Ty::None && sig.src[0] != Ty::Imm16 {
        if !valid_sdst(r, dw(sig.src[0])) {
            return Ok(None);
        }
        i.src[0] = r;
    }
    take_literal(w, &mut i, 1)?;
    Ok(Some(i))
}

pub(super) fn decode_sopp(w: &Words, w0: u32, lk: &Lookup) -> Option<Inst> {
    let op = lk.find(Fmt::Sopp, bits(w0, 22, 16))?;
    let mut i = Inst::new(op, Enc::Sopp, 4);
    i.imm = sext(w0 & 0xffff, 16);
    // LLVM wants a zero immediate on instructions without an operand (s_endpgm prints it
    // instead); the hardware does not read the field.
    if op.sig().src[0] == Ty::None && op != Op::S_ENDPGM && w0 & 0xffff != 0 {
        w.reject(&mut i);
        i.imm = 0;
    }
    Some(i)
}

pub(super) fn decode_smem(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Smem, bits(w0, 25, 18)) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let mut i = Inst::new(op, Enc::Smem, 8);
    let sig = *op.sig();
    let sdata = bits(w0, 12, 6) as u16;
    if sig.dst[0] != Ty::None {
        let n = dw(sig.dst[0]);
        if !set_sdst(w, &mut i, sdata) || !sreg_fits(i.dst[0], n) {
            // A destination crossing its register region, or a wide one at vcc_hi/M0/exec_hi:
            // the RDNA3 ISA guide (Wave State) aligns it, drops the dwords outside the region and loads nothing into
            // NULL/M0/EXEC (the executor applies these rules to the aligned code).
            w.reject(&mut i);
            let mask = match n {
                1 => 0,
                2 => 1,
                _ => 3,
            };
            i.dst[0] = sdata & !mask;
        }
    } else {
        i.imm2 = sdata as u32;
    }
    let base_ty = if sig.src[0] == Ty::Simm16 {
        sig.src[1]
    } else {
        sig.src[0]
    };
    i.src[0] = align_sreg((bits(w0, 5, 0) << 1) as u16, dw(base_ty).max(2));
    // A 128-bit buffer descriptor at s104 would run past s105 (SGPR_128 ends at s[100:103]).
    // The hardware reads s104, s105, vcc_lo, vcc_hi (RDNA3 ISA guide, Wave State: a 128-bit V# stays in one region).
    if dw(base_ty) == 4 && i.src[0] == 104 {
        w.reject(&mut i);
    }
    i.src[1] = bits(w1, 31, 25) as u16;
    i.imm = sext(bits(w1, 20, 0), 21);
    if w0 & (1 << 14) != 0 {
        i.flags |= iflags::GLC;
    }
    if w0 & (1 << 13) != 0 {
        i.flags |= iflags::DLC;
    }
    // Cache invalidations and ATC probes take no cache-policy bits.
    if sig.dst[0] == Ty::None && i.flags & (iflags::GLC | iflags::DLC) != 0 {
        return Ok(None);
    }
    Ok(Some(i))
}
