//! Decoding gfx11 machine code into `Inst`, driven by the instruction table (`crate::isa`).
//!
//! Field layouts follow the RDNA3 ISA "Microcode Formats" chapter (checked against
//! `llvm-mc-19 -show-encoding`). Every word either decodes to an instruction the table defines or
//! to `Inst::invalid` (the raw word kept, printed as `.long` like llvm-objdump does); only running
//! out of bytes in the middle of an instruction is an error.

use crate::isa::{Fmt, Lookup, Op, Ty};
use thiserror::Error;

/// Operand codes use the hardware's 9-bit source space (RDNA3 ISA, "Scalar/Vector operands").
pub mod opnd {
    pub const VCC_LO: u16 = 106;
    pub const VCC_HI: u16 = 107;
    pub const TTMP0: u16 = 108;
    pub const NULL: u16 = 124;
    pub const M0: u16 = 125;
    pub const EXEC_LO: u16 = 126;
    pub const EXEC_HI: u16 = 127;
    pub const INT_ZERO: u16 = 128;
    pub const INT_POS_MAX: u16 = 192;
    pub const INT_NEG_MAX: u16 = 208;
    pub const DPP8: u16 = 233;
    pub const DPP8FI: u16 = 234;
    pub const SHARED_BASE: u16 = 235;
    pub const SHARED_LIMIT: u16 = 236;
    pub const PRIVATE_BASE: u16 = 237;
    pub const PRIVATE_LIMIT: u16 = 238;
    pub const POPS_EXITING_WAVE_ID: u16 = 239;
    pub const FLOAT_FIRST: u16 = 240;
    pub const INV_2PI: u16 = 248;
    pub const DPP16: u16 = 250;
    pub const VCCZ: u16 = 251;
    pub const EXECZ: u16 = 252;
    pub const SCC: u16 = 253;
    pub const LDS_DIRECT: u16 = 254;
    pub const LITERAL: u16 = 255;
    pub const VGPR0: u16 = 256;

    #[inline]
    pub const fn vgpr(n: u32) -> u16 {
        VGPR0 + (n as u16 & 0xff)
    }
    #[inline]
    pub const fn is_vgpr(code: u16) -> bool {
        code >= VGPR0
    }
}

/// The encoding an instruction was decoded from (one `Op` can have several).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[repr(u8)]
pub enum Enc {
    Invalid,
    Sop1,
    Sop2,
    Sopk,
    Sopc,
    Sopp,
    Smem,
    Vop1,
    Vop2,
    Vopc,
    Vop3,
    Vop3sd,
    Vop3p,
    Vopd,
    Vinterp,
    Ldsdir,
    Ds,
    Mubuf,
    Mtbuf,
    Mimg,
    Exp,
    Flat,
    Global,
    Scratch,
}

/// Data-parallel-primitive operand swizzle of src0 (RDNA3 ISA, "DPP16" and "DPP8").
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Dpp {
    #[default]
    None,
    Dpp16 {
        ctrl: u16,
        row_mask: u8,
        bank_mask: u8,
        bound_ctrl: bool,
        fi: bool,
    },
    /// Eight 3-bit lane selects, lane i of each group of 8 reads lane `sel[i]`.
    Dpp8 { sel: u32, fi: bool },
}

/// Bits of `Inst::flags` (memory and misc. control bits).
pub mod iflags {
    pub const GLC: u16 = 1 << 0;
    pub const SLC: u16 = 1 << 1;
    pub const DLC: u16 = 1 << 2;
    pub const GDS: u16 = 1 << 3;
    pub const OFFEN: u16 = 1 << 4;
    pub const IDXEN: u16 = 1 << 5;
    pub const TFE: u16 = 1 << 6;
    pub const LDS: u16 = 1 << 7;
    /// SCRATCH: a VGPR address is present (`sve`).
    pub const SVE: u16 = 1 << 8;
    /// The instruction carries a 32-bit literal in `Inst::lit`.
    pub const LIT: u16 = 1 << 9;
    /// EXP: done / row / vm bits.
    pub const DONE: u16 = 1 << 10;
    pub const ROW: u16 = 1 << 11;
    pub const VM: u16 = 1 << 12;
    /// MIMG: a16, d16, unorm, r128, lwe, nsa.
    pub const A16: u16 = 1 << 13;
    pub const D16: u16 = 1 << 14;
    pub const UNORM: u16 = 1 << 15;
}

/// One decoded instruction. Fields are used per encoding as documented; unused fields are zero.
///
/// Operand codes (`dst`, `src`) are in the 9-bit source space of `opnd` (VGPR n = 256 + n).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Inst {
    pub op: Op,
    pub enc: Enc,
    /// Length in bytes (4, 8, 12 or 16; NSA image instructions up to 20).
    pub len: u8,
    /// Destinations: VALU vdst / SALU sdst in `dst[0]`; VOP3SD/VOPC-e64 scalar dst in `dst[1]`;
    /// VOPD: X destination in `dst[0]`, Y destination in `dst[1]`. Memory: vdst / sdata.
    pub dst: [u16; 2],
    /// Sources: ALU src0..src2 (VOPD: X srcs in src[0..2], Y srcs in src[2..4]).
    /// DS: addr, data0, data1. FLAT: addr, data, saddr. MUBUF/MTBUF: vaddr, vdata, srsrc, soffset.
    /// SMEM: sbase, soffset. MIMG: vaddr, srsrc, ssamp. EXP: vsrc0..3.
    pub src: [u16; 4],
    /// Literal constant (valid when `flags & LIT`).
    pub lit: u32,
    /// Immediate: SOPP/SOPK simm16, memory offset (sign-extended where the format is signed),
    /// DS offset0 | offset1 << 8, LDSDIR/VINTERP wait counts, EXP target.
    pub imm: i32,
    /// Second immediate: MTBUF format, MIMG dmask | dim << 4, EXP enable mask, LDSDIR attr,
    /// VOPD Y opcode index.
    pub imm2: u32,
    pub flags: u16,
    /// VOP3/VOP3P/VINTERP input modifiers: bit i applies to src i.
    pub neg: u8,
    pub abs: u8,
    /// VOP3P: neg_hi (shares the bits of `abs` in the encoding).
    pub neg_hi: u8,
    /// op_sel: bits 0-2 sources, bit 3 destination. VOP3P: low-half selects.
    pub op_sel: u8,
    /// VOP3P: high-half selects (bits 0-2).
    pub op_sel_hi: u8,
    pub clamp: bool,
    pub omod: u8,
    pub dpp: Dpp,
    /// VOPD: the Y instruction.
    pub op_y: Op,
}

/// Errors of the decoder: only the end of the code can stop it.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DecodeError {
    #[error("truncated instruction at offset {offset:#x}: needs {needed} bytes, {available} left")]
    Truncated {
        offset: usize,
        needed: usize,
        available: usize,
    },
}

#[inline]
fn bits(w: u32, hi: u32, lo: u32) -> u32 {
    (w >> lo) & ((1u32 << (hi - lo + 1)) - 1)
}

#[inline]
fn sext(v: u32, width: u32) -> i32 {
    ((v << (32 - width)) as i32) >> (32 - width)
}

/// Reads little-endian dwords on demand and reports truncation.
struct Words<'a> {
    bytes: &'a [u8],
    offset: usize,
}

impl Words<'_> {
    fn get(&self, i: usize) -> Result<u32, DecodeError> {
        let at = i * 4;
        match self.bytes.get(at..at + 4) {
            Some(b) => Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]])),
            None => Err(DecodeError::Truncated {
                offset: self.offset,
                needed: at + 4,
                available: self.bytes.len(),
            }),
        }
    }
}

impl Inst {
    fn new(op: Op, enc: Enc, len: u8) -> Inst {
        Inst {
            op,
            enc,
            len,
            dst: [0; 2],
            src: [0; 4],
            lit: 0,
            imm: 0,
            imm2: 0,
            flags: 0,
            neg: 0,
            abs: 0,
            neg_hi: 0,
            op_sel: 0,
            op_sel_hi: 0,
            clamp: false,
            omod: 0,
            dpp: Dpp::None,
            op_y: Op::ALL[0],
        }
    }

    /// A word the table does not define: kept raw in `lit`, 4 bytes long.
    pub fn invalid(word: u32) -> Inst {
        let mut i = Inst::new(Op::ALL[0], Enc::Invalid, 4);
        i.lit = word;
        i
    }

    pub fn is_invalid(&self) -> bool {
        self.enc == Enc::Invalid
    }

    pub fn has_literal(&self) -> bool {
        self.flags & iflags::LIT != 0
    }
}

/// Decodes the instruction at the start of `bytes`. `offset` is only used in errors.
pub fn decode(bytes: &[u8], offset: usize) -> Result<Inst, DecodeError> {
    let w = Words { bytes, offset };
    let w0 = w.get(0)?;
    let lk = Lookup::get();
    let hi6 = w0 >> 26;
    let hi9 = w0 >> 23;
    let inst = if w0 >> 31 == 0 {
        decode_vop12c(&w, w0, lk)?
    } else if hi9 == 0x17d {
        decode_sop1(&w, w0, lk)?
    } else if hi9 == 0x17e {
        decode_sopc(&w, w0, lk)?
    } else if hi9 == 0x17f {
        lk.find(Fmt::Sopp, bits(w0, 22, 16)).map(|op| {
            let mut i = Inst::new(op, Enc::Sopp, 4);
            i.imm = sext(w0 & 0xffff, 16);
            i
        })
    } else if w0 >> 28 == 0xb {
        match lk.find(Fmt::Sopk, bits(w0, 27, 23)) {
            Some(op) => {
                let mut i = Inst::new(op, Enc::Sopk, 4);
                i.dst[0] = bits(w0, 22, 16) as u16;
                i.imm = sext(w0 & 0xffff, 16);
                // s_setreg_imm32_b32 carries its data as a 32-bit literal.
                if op == Op::S_SETREG_IMM32_B32 {
                    i.flags |= iflags::LIT;
                }
                take_literal(&w, &mut i, 1)?;
                Some(i)
            }
            None => None,
        }
    } else if w0 >> 30 == 2 {
        decode_sop2(&w, w0, lk)?
    } else {
        match hi6 {
            0x3d => decode_smem(&w, w0, lk)?,
            0x35 => decode_vop3(&w, w0, lk)?,
            0x33 if bits(w0, 25, 24) == 0 => decode_vop3p(&w, w0, lk)?,
            0x33 if bits(w0, 25, 24) == 1 => decode_vinterp(&w, w0, lk)?,
            0x33 if bits(w0, 25, 24) == 2 => decode_ldsdir(w0, lk),
            0x32 => decode_vopd(&w, w0, lk)?,
            0x36 => decode_ds(&w, w0, lk)?,
            0x37 => decode_flat(&w, w0, lk)?,
            0x38 => decode_mubuf(&w, w0, lk)?,
            0x3a => decode_mtbuf(&w, w0, lk)?,
            0x3c => decode_mimg(&w, w0, lk)?,
            0x3e => decode_exp(&w, w0, lk)?,
            _ => None,
        }
    };
    Ok(inst.unwrap_or_else(|| Inst::invalid(w0)))
}

/// Fetches the literal if any source uses it; sets `len`.
fn take_literal(w: &Words, i: &mut Inst, base_words: usize) -> Result<(), DecodeError> {
    i.len = (base_words * 4) as u8;
    if i.src.iter().any(|&s| s == opnd::LITERAL) || i.flags & iflags::LIT != 0 {
        i.lit = w.get(base_words)?;
        i.flags |= iflags::LIT;
        i.len += 4;
    }
    Ok(())
}

fn decode_sop1(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Sop1, bits(w0, 15, 8)) else {
        return Ok(None);
    };
    let mut i = Inst::new(op, Enc::Sop1, 4);
    i.dst[0] = bits(w0, 22, 16) as u16;
    i.src[0] = bits(w0, 7, 0) as u16;
    if op.sig().src[0] == Ty::None {
        i.src[0] = 0;
    }
    take_literal(w, &mut i, 1)?;
    Ok(Some(i))
}

fn decode_sop2(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Sop2, bits(w0, 29, 23)) else {
        return Ok(None);
    };
    let mut i = Inst::new(op, Enc::Sop2, 4);
    i.dst[0] = bits(w0, 22, 16) as u16;
    i.src[0] = bits(w0, 7, 0) as u16;
    i.src[1] = bits(w0, 15, 8) as u16;
    take_literal(w, &mut i, 1)?;
    Ok(Some(i))
}

fn decode_sopc(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Sopc, bits(w0, 22, 16)) else {
        return Ok(None);
    };
    let mut i = Inst::new(op, Enc::Sopc, 4);
    i.src[0] = bits(w0, 7, 0) as u16;
    i.src[1] = bits(w0, 15, 8) as u16;
    take_literal(w, &mut i, 1)?;
    Ok(Some(i))
}

fn decode_smem(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Smem, bits(w0, 25, 18)) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let mut i = Inst::new(op, Enc::Smem, 8);
    i.dst[0] = bits(w0, 12, 6) as u16;
    i.src[0] = (bits(w0, 5, 0) << 1) as u16;
    i.src[1] = bits(w1, 31, 25) as u16;
    i.imm = sext(bits(w1, 20, 0), 21);
    if w0 & (1 << 14) != 0 {
        i.flags |= iflags::GLC;
    }
    if w0 & (1 << 13) != 0 {
        i.flags |= iflags::DLC;
    }
    Ok(Some(i))
}

/// DPP16 / DPP8 control word following a VOP1/VOP2/VOPC/VOP3/VOP3P instruction.
fn decode_dpp(i: &mut Inst, sel: u16, dw: u32) {
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
        if matches!(i.enc, Enc::Vop1 | Enc::Vop2 | Enc::Vopc) {
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
fn is_dpp_sel(s: u16) -> bool {
    s == opnd::DPP16 || s == opnd::DPP8 || s == opnd::DPP8FI
}

fn decode_vop12c(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let (op, enc) = match w0 >> 25 {
        0x3f => (lk.find(Fmt::Vop1, bits(w0, 16, 9)), Enc::Vop1),
        0x3e => (lk.find(Fmt::Vopc, bits(w0, 24, 17)), Enc::Vopc),
        opc => (lk.find(Fmt::Vop2, opc), Enc::Vop2),
    };
    let Some(op) = op else {
        return Ok(None);
    };
    let mut i = Inst::new(op, enc, 4);
    i.src[0] = bits(w0, 8, 0) as u16;
    match enc {
        Enc::Vop1 => i.dst[0] = opnd::vgpr(bits(w0, 24, 17)),
        Enc::Vop2 => {
            i.dst[0] = opnd::vgpr(bits(w0, 24, 17));
            i.src[1] = opnd::vgpr(bits(w0, 16, 9));
        }
        _ => {
            i.dst[0] = opnd::VCC_LO;
            i.src[1] = opnd::vgpr(bits(w0, 16, 9));
        }
    }
    // v_fmamk/v_fmaak always carry a literal (the K constant).
    if matches!(
        op,
        Op::V_FMAMK_F32 | Op::V_FMAAK_F32 | Op::V_FMAMK_F16 | Op::V_FMAAK_F16
    ) {
        i.flags |= iflags::LIT;
    }
    if is_dpp_sel(i.src[0]) {
        let sel = i.src[0];
        decode_dpp(&mut i, sel, w.get(1)?);
        i.len = 8;
        return Ok(Some(i));
    }
    take_literal(w, &mut i, 1)?;
    Ok(Some(i))
}

/// The op a VOP3 opcode names: VOP3-only rows first, then the promoted VOPC/VOP2/VOP1 rows.
fn vop3_op(lk: &Lookup, opc: u32) -> Option<(Op, Enc)> {
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
    Some((promoted, Enc::Vop3))
}

fn decode_vop3(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some((op, enc)) = vop3_op(lk, bits(w0, 25, 16)) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let mut i = Inst::new(op, enc, 8);
    i.dst[0] = bits(w0, 7, 0) as u16;
    if enc == Enc::Vop3sd {
        i.dst[1] = bits(w0, 14, 8) as u16;
    } else {
        i.abs = bits(w0, 10, 8) as u8;
        i.op_sel = bits(w0, 14, 11) as u8;
    }
    // VOPC promoted to VOP3 writes a scalar mask; the encoding's vdst field holds the SGPR.
    if op.fmt() == Fmt::Vopc {
        i.dst[1] = i.dst[0];
        i.dst[0] = 0;
    } else {
        i.dst[0] = opnd::vgpr(i.dst[0] as u32);
    }
    i.clamp = w0 & (1 << 15) != 0;
    i.src[0] = bits(w1, 8, 0) as u16;
    i.src[1] = bits(w1, 17, 9) as u16;
    i.src[2] = bits(w1, 26, 18) as u16;
    i.omod = bits(w1, 28, 27) as u8;
    i.neg = bits(w1, 31, 29) as u8;
    if is_dpp_sel(i.src[0]) {
        let sel = i.src[0];
        decode_dpp(&mut i, sel, w.get(2)?);
        i.len = 12;
        return Ok(Some(i));
    }
    take_literal(w, &mut i, 2)?;
    Ok(Some(i))
}

fn decode_vop3p(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Vop3p, bits(w0, 22, 16)) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let mut i = Inst::new(op, Enc::Vop3p, 8);
    i.dst[0] = opnd::vgpr(bits(w0, 7, 0));
    i.neg_hi = bits(w0, 10, 8) as u8;
    i.op_sel = bits(w0, 13, 11) as u8;
    i.op_sel_hi = (bits(w1, 28, 27) | bits(w0, 14, 14) << 2) as u8;
    i.clamp = w0 & (1 << 15) != 0;
    i.src[0] = bits(w1, 8, 0) as u16;
    i.src[1] = bits(w1, 17, 9) as u16;
    i.src[2] = bits(w1, 26, 18) as u16;
    i.neg = bits(w1, 31, 29) as u8;
    if is_dpp_sel(i.src[0]) {
        let sel = i.src[0];
        decode_dpp(&mut i, sel, w.get(2)?);
        i.len = 12;
        return Ok(Some(i));
    }
    take_literal(w, &mut i, 2)?;
    Ok(Some(i))
}

fn decode_vinterp(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
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
    Ok(Some(i))
}

fn decode_ldsdir(w0: u32, lk: &Lookup) -> Option<Inst> {
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

fn decode_vopd(w: &Words, w0: u32, _lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let opx = bits(w0, 25, 22) as usize;
    let opy = bits(w0, 21, 17) as usize;
    let (Some(Some(x)), Some(Some(y))) = (VOPD_OPS.get(opx), VOPD_OPS.get(opy)) else {
        return Ok(None);
    };
    if opx > 13 {
        return Ok(None);
    }
    let w1 = w.get(1)?;
    let mut i = Inst::new(*x, Enc::Vopd, 8);
    i.op_y = *y;
    i.imm2 = opy as u32;
    i.src[0] = bits(w0, 8, 0) as u16;
    i.src[1] = opnd::vgpr(bits(w0, 16, 9));
    i.src[2] = bits(w1, 8, 0) as u16;
    i.src[3] = opnd::vgpr(bits(w1, 16, 9));
    let vdstx = bits(w1, 24, 17);
    i.dst[0] = opnd::vgpr(vdstx);
    // VDSTY's low bit is implied: the opposite of VDSTX's, so the two land in different banks.
    i.dst[1] = opnd::vgpr((bits(w1, 31, 25) << 1) | ((vdstx & 1) ^ 1));
    let k = |op: Op| matches!(op, Op::V_FMAAK_F32 | Op::V_FMAMK_F32);
    if k(*x) || k(*y) {
        i.flags |= iflags::LIT;
    }
    take_literal(w, &mut i, 2)?;
    Ok(Some(i))
}

fn decode_ds(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
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
    Ok(Some(i))
}

fn decode_flat(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
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
    i.imm = sext(bits(w0, 12, 0), 13);
    mem_cache_bits(&mut i, w0, 14, 15, 13);
    i.src[0] = opnd::vgpr(bits(w1, 7, 0));
    i.src[1] = opnd::vgpr(bits(w1, 15, 8));
    i.src[2] = bits(w1, 22, 16) as u16;
    if w1 & (1 << 23) != 0 {
        i.flags |= iflags::SVE;
    }
    i.dst[0] = opnd::vgpr(bits(w1, 31, 24));
    Ok(Some(i))
}

fn mem_cache_bits(i: &mut Inst, w0: u32, glc: u32, slc: u32, dlc: u32) {
    if w0 & (1 << glc) != 0 {
        i.flags |= iflags::GLC;
    }
    if w0 & (1 << slc) != 0 {
        i.flags |= iflags::SLC;
    }
    if w0 & (1 << dlc) != 0 {
        i.flags |= iflags::DLC;
    }
}

/// The second dword shared by MUBUF and MTBUF.
fn buffer_word1(i: &mut Inst, w1: u32) {
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
}

fn decode_mubuf(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
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
    Ok(Some(i))
}

fn decode_mtbuf(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Mtbuf, bits(w0, 18, 15)) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let mut i = Inst::new(op, Enc::Mtbuf, 8);
    i.imm = bits(w0, 11, 0) as i32;
    i.imm2 = bits(w0, 25, 19);
    mem_cache_bits(&mut i, w0, 14, 12, 13);
    buffer_word1(&mut i, w1);
    Ok(Some(i))
}

fn decode_mimg(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Mimg, bits(w0, 25, 18)) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let mut i = Inst::new(op, Enc::Mimg, 8);
    let nsa = bits(w0, 1, 0);
    // dmask, dim, unorm, dlc, glc, slc, r128/a16/d16 (RDNA3 ISA, "MIMG").
    i.imm2 = bits(w0, 11, 8) | bits(w0, 4, 2) << 4;
    i.imm = nsa as i32;
    if w0 & (1 << 7) != 0 {
        i.flags |= iflags::UNORM;
    }
    mem_cache_bits(&mut i, w0, 14, 12, 13);
    if w0 & (1 << 16) != 0 {
        i.flags |= iflags::A16;
    }
    if w1 & (1 << 21) != 0 {
        i.flags |= iflags::TFE;
    }
    if w1 & (1 << 22) != 0 {
        i.flags |= iflags::LDS; // lwe
    }
    if w1 & (1 << 23) != 0 {
        i.flags |= iflags::D16;
    }
    i.src[0] = opnd::vgpr(bits(w1, 7, 0));
    i.dst[0] = opnd::vgpr(bits(w1, 15, 8));
    i.src[1] = (bits(w1, 20, 16) << 2) as u16;
    i.src[2] = (bits(w1, 30, 26) << 2) as u16;
    if nsa != 0 {
        // Non-sequential addresses: one extra dword per four address VGPRs.
        let mut lit = 0;
        for k in 0..nsa as usize {
            lit = w.get(2 + k)?;
        }
        i.lit = lit;
        i.len = (8 + 4 * nsa) as u8;
    }
    Ok(Some(i))
}

fn decode_exp(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
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

/// Decodes a whole code region into (byte offset, instruction) pairs.
pub fn decode_all(bytes: &[u8]) -> Result<Vec<(usize, Inst)>, DecodeError> {
    let mut out = Vec::with_capacity(bytes.len() / 6);
    let mut pc = 0;
    while pc < bytes.len() {
        let inst = decode(&bytes[pc..], pc).map_err(|e| match e {
            DecodeError::Truncated {
                needed, available, ..
            } => DecodeError::Truncated {
                offset: pc,
                needed,
                available,
            },
        })?;
        out.push((pc, inst));
        pc += inst.len as usize;
    }
    Ok(out)
}
