//! Decoding the memory and export formats: DS, FLAT/GLOBAL/SCRATCH, MUBUF, MTBUF and EXP.

use super::fields::*;
use super::inst::*;
use crate::isa::{Fmt, Lookup, MemKind, Op, Ty};

/// global_load/store_addtid_b32 address by lane id: no VGPR address.
pub fn flat_has_vaddr(op: Op) -> bool {
    !op.facts().no_addr
}

/// The SGPR a SCRATCH instruction adds to its private offset, or None for "no SADDR".
///
/// On gfx11 "off" is NULL (124), but SADDR = 0x7f (EXEC_HI's code) is also "no SADDR": gfx10.3
/// spelled "off" that way for scratch (LLVM issue #53136, "vaddr=saddr=off ... is specified by
/// encoding SADDR=EXEC_HI"), Mesa 22.3's ACO still emits it for gfx11 scratch without a VGPR
/// address (`aco_assembler.cpp` took `gfx < GFX11` into that branch only later, in
/// `emit_flatlike_instruction`) and RADV 22.3 ran such shaders on RDNA3 boards, and a public
/// report of RDNA3 hardware (the knod project's "disable GFX11 FLAT SADDR with NULL, not 127")
/// found 127 accepted as "no SADDR" where NULL was meant. A scratch offset taken from EXEC_HI
/// would have no use. LLVM 19 disassembles the field as an invalid `exec_hi`; the disassembler
/// prints that, the executor treats it as NULL.
pub fn scratch_saddr(inst: &Inst) -> Option<u16> {
    match inst.src[2] {
        opnd::NULL | opnd::EXEC_HI => None,
        s => Some(s),
    }
}

/// Memory atomics (FLAT/GLOBAL/SCRATCH, MUBUF, MIMG) return the old value only when GLC is set.
pub fn is_mem_atomic(op: Op) -> bool {
    op.facts().mem == MemKind::Atomic
}

/// Does the memory instruction write its `dst[0]` (loads, and atomics with GLC)?
pub fn returns_data(i: &Inst) -> bool {
    i.op.sig().dst[0] != Ty::None && (!is_mem_atomic(i.op) || i.flags & iflags::GLC != 0)
}

/// DS instructions that take a VGPR address (the others work on M0 / the wave id).
pub fn ds_has_addr(op: Op) -> bool {
    !op.facts().no_addr
}

pub(super) fn decode_ds(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Ds, bits(w0, 25, 18)) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let mut i = Inst::new(op, Enc::Ds, 8);
    i.imm = bits(w0, 15, 0) as i32;
    if w0 & (1 << 17) != 0 {
        i.flags |= iflags::GDS;
    }
    i.src[0] = opnd::vgpr(bits(w1, 7, 0));
    i.src[1] = opnd::vgpr(bits(w1, 15, 8));
    i.src[2] = opnd::vgpr(bits(w1, 23, 16));
    i.dst[0] = opnd::vgpr(bits(w1, 31, 24));
    let sig = *op.sig();
    if matches!(
        op,
        Op::DS_GWS_INIT
            | Op::DS_GWS_SEMA_V
            | Op::DS_GWS_SEMA_BR
            | Op::DS_GWS_SEMA_P
            | Op::DS_GWS_BARRIER
            | Op::DS_GWS_SEMA_RELEASE_ALL
    ) {
        // Global wave sync ops exist only with the gds bit set; their data0 VGPR (if any) is
        // encoded in the addr field and every other operand field is zero (LLVM's gfx11
        // encoding of DS_GWS_*; `ds_gws_init v1 gds` = D8660000 00000001).
        let data0 = bits(w1, 7, 0);
        if i.flags & iflags::GDS == 0 || bits(w1, 31, 8) != 0 || (sig.num_src() == 0 && data0 != 0)
        {
            return Ok(None);
        }
        i.src = [0; 4];
        if sig.num_src() > 0 {
            i.src[1] = opnd::vgpr(data0);
        }
        i.dst[0] = 0;
        return Ok(Some(i));
    }
    // Operand fields the instruction does not use: LLVM wants them zero, the hardware does not
    // read them (decoded as if zero). Register ranges must fit.
    let n = sig.num_src();
    if sig.dst[0] == Ty::None && bits(w1, 31, 24) != 0 {
        w.reject(&mut i);
        i.dst[0] = opnd::VGPR0;
    }
    if n < 1 && bits(w1, 15, 8) != 0 {
        w.reject(&mut i);
        i.src[1] = opnd::VGPR0;
    }
    if n < 2 && bits(w1, 23, 16) != 0 {
        w.reject(&mut i);
        i.src[2] = opnd::VGPR0;
    }
    if !ds_has_addr(op) && bits(w1, 7, 0) != 0 {
        w.reject(&mut i);
        i.src[0] = opnd::VGPR0;
    }
    if !vfits(i.dst[0], dw(sig.dst[0]))
        || !vfits(i.src[1], dw(sig.src[0]))
        || !vfits(i.src[2], dw(sig.src[1]))
    {
        return Ok(None);
    }
    // Lane permutes and the BVH stack op have no GDS form.
    if i.flags & iflags::GDS != 0
        && matches!(
            op,
            Op::DS_PERMUTE_B32 | Op::DS_BPERMUTE_B32 | Op::DS_BVH_STACK_RTN_B32
        )
    {
        return Ok(None);
    }
    // The GS register ops (no address; the offset selects the register) exist only with gds.
    if i.flags & iflags::GDS == 0 && matches!(op, Op::DS_ADD_GS_REG_RTN | Op::DS_SUB_GS_REG_RTN) {
        return Ok(None);
    }
    // ds_nop takes no offset or gds bit either.
    if op == Op::DS_NOP && bits(w0, 17, 0) != 0 {
        return Ok(None);
    }
    Ok(Some(i))
}

pub(super) fn decode_flat(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let (fmt, enc) = match bits(w0, 17, 16) {
        0 => (Fmt::Flat, Enc::Flat),
        1 => (Fmt::Scratch, Enc::Scratch),
        2 => (Fmt::Global, Enc::Global),
        _ => return Ok(None),
    };
    let Some(op) = lk.find(fmt, bits(w0, 24, 18)) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let mut i = Inst::new(op, enc, 8);
    // FLAT offsets are unsigned; GLOBAL and SCRATCH offsets are signed 13-bit.
    i.imm = if enc == Enc::Flat {
        bits(w0, 12, 0) as i32
    } else {
        sext(bits(w0, 12, 0), 13)
    };
    mem_cache_bits(&mut i, w0, 14, 15, 13);
    i.src[0] = opnd::vgpr(bits(w1, 7, 0));
    i.src[1] = opnd::vgpr(bits(w1, 15, 8));
    i.src[2] = bits(w1, 22, 16) as u16;
    if w1 & (1 << 23) != 0 {
        i.flags |= iflags::SVE;
    }
    i.dst[0] = opnd::vgpr(bits(w1, 31, 24));
    let sig = *op.sig();
    // FLAT has no scalar address; only SCRATCH has the sve bit.
    if enc == Enc::Flat && i.src[2] != opnd::NULL {
        return Ok(None);
    }
    if enc != Enc::Scratch && i.flags & iflags::SVE != 0 {
        return Ok(None);
    }
    // GLOBAL's scalar address is an SGPR pair (or null).
    if enc == Enc::Global && i.src[2] != opnd::NULL {
        if !valid_sdst(i.src[2], 2) {
            return Ok(None);
        }
        i.src[2] = align_sreg(i.src[2], 2);
    }
    let addr_dw = match enc {
        _ if !flat_has_vaddr(op) => 0,
        Enc::Flat => 2,
        Enc::Global if i.src[2] == opnd::NULL => 2,
        _ => 1,
    };
    if !vfits(i.src[0], addr_dw)
        || (returns_data(&i) && !vfits(i.dst[0], dw(sig.dst[0])))
        || !vfits(i.src[1], dw(sig.src[0]))
    {
        return Ok(None);
    }
    Ok(Some(i))
}

/// The second dword shared by MUBUF and MTBUF.
pub(super) fn buffer_word1(i: &mut Inst, w1: u32) {
    i.src[0] = opnd::vgpr(bits(w1, 7, 0));
    i.src[1] = opnd::vgpr(bits(w1, 15, 8));
    i.src[2] = (bits(w1, 20, 16) << 2) as u16;
    i.src[3] = bits(w1, 31, 24) as u16;
    if w1 & (1 << 21) != 0 {
        i.flags |= iflags::TFE;
    }
    if w1 & (1 << 22) != 0 {
        i.flags |= iflags::OFFEN;
    }
    if w1 & (1 << 23) != 0 {
        i.flags |= iflags::IDXEN;
    }
    if i.op.sig().dst[0] != Ty::None {
        i.dst[0] = i.src[1];
    }
}

/// Operand checks shared by MUBUF and MTBUF: soffset must name a register or inline constant,
/// the data VGPRs (plus one for tfe) must fit in v0-v255.
pub(super) fn buffer_valid(i: &Inst) -> bool {
    let sig = i.op.sig();
    let soff = i.src[3];
    if !valid_ssrc(soff, 1) || !sreg_fits(i.src[2], 4) {
        return false;
    }
    // Atomics and LDS loads have no tfe form; cache invalidations take no operand bits at all.
    let facts = i.op.facts();
    if i.flags & iflags::TFE != 0
        && (facts.mem == MemKind::Atomic || facts.lds || i.enc == Enc::Mtbuf)
    {
        return false;
    }
    let mut data = dw(sig.dst[0]).max(dw(sig.src[0]));
    if data > 0 && i.flags & iflags::TFE != 0 {
        data += 1;
    }
    let addr = match (i.flags & iflags::OFFEN != 0, i.flags & iflags::IDXEN != 0) {
        (true, true) => 2,
        (false, false) => 0,
        _ => 1,
    };
    vfits(i.src[1], data) && vfits(i.src[0], addr)
}

pub(super) fn decode_mubuf(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Mubuf, bits(w0, 25, 18)) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let mut i = Inst::new(op, Enc::Mubuf, 8);
    i.imm = bits(w0, 11, 0) as i32;
    mem_cache_bits(&mut i, w0, 14, 12, 13);
    if w0 & (1 << 16) != 0 {
        i.flags |= iflags::LDS;
    }
    buffer_word1(&mut i, w1);
    if op.facts().mem == MemKind::Cache {
        // The cache invalidations have no operands: LLVM ignores the offset, the slc and lds
        // bits and the register fields (soffset is not even read as a literal) but rejects
        // glc, dlc, tfe, idxen and offen.
        let bad = iflags::GLC | iflags::DLC | iflags::TFE | iflags::OFFEN;
        return Ok((i.flags & (bad | iflags::IDXEN) == 0).then_some(i));
    }
    if !buffer_valid(&i) {
        return Ok(None);
    }
    // soffset may be a literal constant.
    take_literal(w, &mut i, 2)?;
    Ok(Some(i))
}

pub(super) fn decode_mtbuf(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Mtbuf, bits(w0, 18, 15)) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let mut i = Inst::new(op, Enc::Mtbuf, 8);
    i.imm = bits(w0, 11, 0) as i32;
    i.imm2 = bits(w0, 25, 19);
    mem_cache_bits(&mut i, w0, 14, 12, 13);
    buffer_word1(&mut i, w1);
    if !buffer_valid(&i) {
        return Ok(None);
    }
    // soffset may be a literal constant.
    take_literal(w, &mut i, 2)?;
    Ok(Some(i))
}

pub(super) fn decode_exp(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Exp, 0) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let mut i = Inst::new(op, Enc::Exp, 8);
    i.imm2 = bits(w0, 3, 0);
    i.imm = bits(w0, 9, 4) as i32;
    if w0 & (1 << 11) != 0 {
        i.flags |= iflags::DONE;
    }
    if w0 & (1 << 13) != 0 {
        i.flags |= iflags::ROW;
    }
    if w0 & (1 << 12) != 0 {
        i.flags |= iflags::VM;
    }
    for k in 0..4 {
        i.src[k] = opnd::vgpr(bits(w1, 8 * k as u32 + 7, 8 * k as u32));
    }
    Ok(Some(i))
}
