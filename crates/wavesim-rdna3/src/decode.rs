//! Decoding gfx11 machine code into `Inst`, driven by the instruction table (`crate::isa`).
//!
//! Field layouts follow the RDNA3 ISA "Microcode Formats" chapter (checked against
//! `llvm-mc-19 -show-encoding`). One decode serves two readers: the executor, which needs what
//! the hardware does with the bits, and the disassembler, which must print exactly what LLVM 19's
//! gfx1100 disassembler (llvm-objdump) prints. Policy:
//!
//! - An encoding LLVM decodes gives the instruction LLVM prints, with every bit the hardware
//!   honours kept as encoded (the printer masks bits LLVM accepts but does not print).
//! - An encoding LLVM rejects only because of its own operand model, where the hardware's meaning
//!   is defined by the ISA or seed 000, decodes to that instruction with the hardware's field
//!   values and `iflags::LLVM_REJECTS` set: `disasm::format` prints it as `.long` of its first
//!   dword (`Inst::word0`), and a listing goes on with the next dword (`Inst::listed_len`) like
//!   objdump, while `Inst::len` is the length the hardware consumes. The cases:
//!   - operand fields (VOP1/VOP3/VOP3P source or destination fields, DS register fields, the VOPD
//!     `v_dual_mov_b32` vsrc1, the SOPP immediate) that the opcode does not use are non-zero:
//!     the hardware ignores them (they are cleared in the `Inst`). A VOP3/VOP3P unused source
//!     field holding the literal or a DPP marker stays invalid: whether the hardware would then
//!     fetch another dword is not defined;
//!   - neg/abs/op_sel bits of VOP3/VOP3P sources the opcode does not have: ignored (cleared);
//!   - a 64-bit scalar operand starting at vcc_hi or exec_hi (SALU/VALU source or destination):
//!     the hardware ignores the LSB of a 64-bit SGPR address (seed 000) and uses VCC / EXEC;
//!   - an SMEM destination that runs past its register region (s[104:107] reaches into VCC,
//!     ttmp[12:19] past ttmp15) or names vcc_hi/M0/exec_hi as a wide destination: seed 000
//!     aligns the address, drops the dwords outside the region and loads nothing into
//!     NULL/M0/EXEC (the executor applies those rules to the aligned `dst[0]`);
//!   - an s_buffer_load descriptor at s[104:107] (seed 000: a 128-bit V# is forced into one
//!     region, s104, s105, vcc_lo, vcc_hi).
//! - Everything else LLVM rejects stays `Inst::invalid` (raw word in `lit`, 4 bytes): source
//!   codes that name no register (209-232, 249), modifier bits on sources that take none, clamp
//!   or omod on ops without them, fields whose hardware meaning is not defined. Only running out
//!   of bytes in the middle of an instruction is an error (an instruction LLVM rejects that is cut
//!   off decodes as `Inst::invalid`, as LLVM never reads past its first dword).
//!
//! Decoding never allocates; an `Inst` is a small `Copy` value.

use crate::isa::{Fmt, Lookup, Op, Target, Ty};
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
    pub const GLC: u32 = 1 << 0;
    pub const SLC: u32 = 1 << 1;
    pub const DLC: u32 = 1 << 2;
    pub const GDS: u32 = 1 << 3;
    pub const OFFEN: u32 = 1 << 4;
    pub const IDXEN: u32 = 1 << 5;
    pub const TFE: u32 = 1 << 6;
    /// MUBUF: the load writes LDS. MIMG: `lwe`.
    pub const LDS: u32 = 1 << 7;
    /// SCRATCH: a VGPR address is present (`sve`).
    pub const SVE: u32 = 1 << 8;
    /// The instruction carries a 32-bit literal in `Inst::lit`.
    pub const LIT: u32 = 1 << 9;
    /// EXP: done / row / vm bits.
    pub const DONE: u32 = 1 << 10;
    pub const ROW: u32 = 1 << 11;
    pub const VM: u32 = 1 << 12;
    /// MIMG: a16, d16, unorm, r128, non-sequential addresses.
    pub const A16: u32 = 1 << 13;
    pub const D16: u32 = 1 << 14;
    pub const UNORM: u32 = 1 << 15;
    pub const R128: u32 = 1 << 16;
    pub const NSA: u32 = 1 << 17;
    /// LLVM 19's disassembler rejects this encoding (llvm-objdump prints `.long` of its first
    /// dword), but the hardware executes it as decoded (see the module policy).
    pub const LLVM_REJECTS: u32 = 1 << 18;
}

/// One decoded instruction. Fields are used per encoding as documented; unused fields are zero.
///
/// Operand codes (`dst`, `src`) are in the 9-bit source space of `opnd` (VGPR n = 256 + n).
/// Sources are in assembly order (the order of `op.sig().src`); a source that is the literal
/// constant has code `opnd::LITERAL` and its value in `lit`. Scalar register operands wider than
/// 32 bits are aligned the way the hardware and LLVM read them (an SGPR pair starts at an even
/// register, 128 bits and more at a multiple of 4).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Inst {
    pub op: Op,
    pub enc: Enc,
    /// Length in bytes (4 to 20).
    pub len: u8,
    /// Destinations: VALU vdst / SALU sdst in `dst[0]`; the lane-mask destination of VOPC (e32:
    /// VCC_LO, v_cmpx_e32: EXEC_LO, e64: the sdst field), of VOP3SD and of the carry-out VOP2
    /// forms in `dst[1]`; VOPD: X destination in `dst[0]`, Y destination in `dst[1]`.
    /// Memory: vdst / sdata in `dst[0]` when the instruction returns data.
    pub dst: [u16; 2],
    /// Sources: ALU src0..src2 in assembly order (VOPD: X srcs in src[0..2], Y srcs in src[2..4];
    /// the implicit VCC of e32 carry-in/cndmask forms is spelled out as VCC_LO; v_fmamk's K is
    /// src[1], v_fmaak's src[2], both as LITERAL). DS: addr, data0, data1. FLAT: addr, data,
    /// saddr. MUBUF/MTBUF: vaddr, vdata, srsrc, soffset. SMEM: sbase, soffset.
    /// MIMG: vaddr0, srsrc, ssamp. EXP: vsrc0..3. SOPK with a register source (s_cmpk_*,
    /// s_waitcnt_*cnt): src[0]; s_setreg*: src[1] (the data).
    pub src: [u16; 4],
    /// Literal constant (valid when `flags & LIT`). MIMG with NSA: the address VGPRs 1..4, one
    /// per byte.
    pub lit: u32,
    /// Immediate: SOPP/SOPK simm16 (sign-extended), memory offset (sign-extended where the format
    /// is signed), DS offset0 | offset1 << 8, LDSDIR wait_vdst, VINTERP wait_exp, EXP target,
    /// MIMG number of address VGPRs, s_getreg/s_setreg hwreg, VOPD the first dword as encoded
    /// (LLVM has no VOPD in wave64 and lists it as `.long`).
    pub imm: i32,
    /// Second immediate: MTBUF format, MIMG dmask | dim << 4 | data VGPR count << 8, EXP enable mask, LDSDIR
    /// attr << 2 | channel, VOPD Y opcode index, s_atc_probe* probe bits.
    pub imm2: u32,
    pub flags: u32,
    /// VOP3/VOP3P/VINTERP/DPP input modifiers: bit i applies to src i. For sources LLVM gives
    /// integer modifiers (v_ldexp's exponent), `neg` bit i is `sext`.
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
    /// The first dword as encoded (what llvm-objdump prints as `.long` for an encoding it
    /// rejects).
    pub word0: u32,
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
    /// Set once the instruction is known to be one LLVM rejects: running out of bytes after that
    /// point gives `Inst::invalid` (LLVM would print `.long` without reading further).
    rejected: std::cell::Cell<bool>,
    /// Whose opcodes exist (RDNA3 or RDNA3.5).
    target: Target,
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

    /// Marks `i` as an encoding LLVM rejects and the hardware executes (module policy).
    fn reject(&self, i: &mut Inst) {
        i.flags |= iflags::LLVM_REJECTS;
        self.rejected.set(true);
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
            word0: 0,
        }
    }

    /// A word the table does not define: kept raw in `lit`, 4 bytes long.
    pub fn invalid(word: u32) -> Inst {
        let mut i = Inst::new(Op::ALL[0], Enc::Invalid, 4);
        i.lit = word;
        i.word0 = word;
        i
    }

    /// No instruction the hardware defines (the executor raises an invalid-instruction error).
    pub fn is_invalid(&self) -> bool {
        self.enc == Enc::Invalid
    }

    /// llvm-objdump prints this word as `.long` (invalid, or executable but rejected by LLVM).
    #[inline]
    pub fn llvm_rejects(&self) -> bool {
        self.enc == Enc::Invalid || self.flags & iflags::LLVM_REJECTS != 0
    }

    /// Bytes a listing advances by: llvm-objdump goes on with the next dword after a `.long`,
    /// even where the hardware's instruction (`len`) is longer.
    #[inline]
    pub fn listed_len(&self) -> u8 {
        if self.llvm_rejects() {
            4
        } else {
            self.len
        }
    }

    pub fn has_literal(&self) -> bool {
        self.flags & iflags::LIT != 0
    }

    /// Number of sources in assembly order.
    pub fn num_src(&self) -> usize {
        self.op.sig().num_src()
    }
}

/// Which VOP3 modifiers an opcode takes, as LLVM 19's gfx11 VOP3 profiles define them.
///
/// `fmods` (bit i): src i takes `neg`/`abs` (float input modifiers). `imods` (bit i): src i takes
/// the integer modifier `sext` (the neg bit; abs is ignored). `ign_mods`: neg/abs bits are
/// accepted and ignored (16-bit integer ops whose modifier operands only carry op_sel).
/// `op_sel`: which op_sel bits (0-2 sources, 3 destination) exist; other op_sel bits are ignored.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Vop3Mods {
    pub fmods: u8,
    pub imods: u8,
    pub ign_mods: bool,
    pub clamp: bool,
    pub omod: bool,
    pub op_sel: u8,
}

#[inline]
fn is_float(t: Ty) -> bool {
    t.is_float()
}

/// The VOP3 (e64) modifier capabilities of `op` (VOP1/VOP2/VOPC promoted or VOP3-only).
pub fn vop3_mods(op: Op) -> Vop3Mods {
    use Op::*;
    let sig = op.sig();
    let n = sig.num_src();
    let all = (1u8 << n) - 1;
    let mut m = Vop3Mods::default();
    let mut fmods = 0u8;
    for (i, t) in sig.src.iter().take(n).enumerate() {
        if is_float(*t) {
            fmods |= 1 << i;
        }
    }
    let dst_float = is_float(sig.dst[0]);
    let src0_float = sig.src[0] != Ty::None && is_float(sig.src[0]);
    match op {
        // Lane selects of v_cndmask take float modifiers (gfx10+); no clamp.
        V_CNDMASK_B32 | V_CNDMASK_B16 => {
            m.fmods = 0b011;
        }
        V_CMP_CLASS_F16 | V_CMP_CLASS_F32 | V_CMP_CLASS_F64 | V_CMPX_CLASS_F16
        | V_CMPX_CLASS_F32 | V_CMPX_CLASS_F64 => {
            m.fmods = 0b001;
        }
        V_DOT2_F16_F16 | V_DOT2_BF16_BF16 => {
            m.fmods = 0b111;
            m.op_sel = 0b1100;
        }
        V_PERMLANE16_B32 | V_PERMLANEX16_B32 => {
            m.ign_mods = true;
            m.op_sel = 0b0011;
        }
        V_PACK_B32_F16 | V_CVT_PK_NORM_I16_F16 | V_CVT_PK_NORM_U16_F16 => {
            m.fmods = 0b011;
            m.clamp = true;
            m.op_sel = 0b1011;
        }
        V_ADD_NC_U16 | V_SUB_NC_U16 | V_ADD_NC_I16 | V_SUB_NC_I16 => {
            m.ign_mods = true;
            m.clamp = true;
            m.op_sel = 0b1011;
        }
        V_MAD_U16 | V_MAD_I16 | V_MIN3_I16 | V_MIN3_U16 | V_MAX3_I16 | V_MAX3_U16 | V_MED3_I16
        | V_MED3_U16 | V_MAD_U32_U16 | V_MAD_I32_I16 => {
            m.ign_mods = true;
            m.clamp = true;
            m.op_sel = 0b1111;
        }
        // In VOP3 the exponent of v_ldexp_f16 takes float modifiers like the mantissa.
        V_LDEXP_F16 => {
            m.fmods = 0b011;
            m.clamp = true;
            m.omod = true;
        }
        V_FMAC_F16 => {
            m.fmods = 0b011;
            m.clamp = true;
            m.omod = true;
            m.op_sel = 0b1011;
        }
        V_FMA_F16 | V_MIN3_F16 | V_MAX3_F16 | V_MED3_F16 | V_DIV_FIXUP_F16 => {
            m.fmods = 0b111;
            m.clamp = true;
            m.omod = true;
            m.op_sel = 0b1111;
        }
        V_LDEXP_F32 | V_LDEXP_F64 | V_TRIG_PREOP_F64 => {
            m.fmods = 0b001;
            m.imods = 0b010;
            m.clamp = true;
            m.omod = true;
        }
        V_CVT_PK_U8_F32 => {
            m.fmods = 0b001;
            m.imods = 0b110;
            m.clamp = true;
        }
        V_CVT_PK_I16_F32
        | V_CVT_PK_U16_F32
        | V_CVT_PK_NORM_I16_F32
        | V_CVT_PK_NORM_U16_F32
        | V_CVT_NEAREST_I32_F32
        | V_CVT_FLOOR_I32_F32
        | V_FREXP_EXP_I32_F32 => {
            m.fmods = fmods;
            m.clamp = true;
        }
        // Carry and 64-bit multiply-add ops: the bits above vdst hold sdst; clamp only.
        V_ADD_CO_CI_U32 | V_SUB_CO_CI_U32 | V_SUBREV_CO_CI_U32 | V_MAD_U64_U32 | V_MAD_I64_I32
        | V_ADD_CO_U32 | V_SUB_CO_U32 | V_SUBREV_CO_U32 => {
            m.clamp = true;
        }
        V_MAD_I32_I24 | V_MAD_U32_U24 | V_SAD_U8 | V_SAD_HI_U8 | V_SAD_U16 | V_SAD_U32
        | V_MSAD_U8 | V_QSAD_PK_U16_U8 | V_MQSAD_PK_U16_U8 | V_MQSAD_U32_U8 | V_MUL_I32_I24
        | V_MUL_U32_U24 | V_ADD_NC_U32 | V_SUB_NC_U32 | V_SUBREV_NC_U32 | V_SUB_NC_I32
        | V_ADD_NC_I32 => {
            m.clamp = true;
        }
        _ => {
            if op.fmt() == Fmt::Vopc {
                // Float compares: modifiers and clamp, no omod; integer compares: nothing.
                if fmods != 0 {
                    m.fmods = all;
                    m.clamp = true;
                }
            } else if src0_float || fmods != 0 {
                m.fmods = fmods;
                m.clamp = true;
                m.omod = true;
            } else if dst_float {
                // Integer to float conversions: clamp and output modifier, no input modifiers.
                m.clamp = true;
                m.omod = true;
            }
        }
    }
    m
}

/// Decodes the instruction at the start of `bytes`. `offset` is only used in errors.
///
/// The operand rules are those of wave32 code (LLVM's default for gfx1100); `decode_wave64`
/// applies the wave64 ones. Both give the same result for everything but VOPD and WMMA.
pub fn decode(bytes: &[u8], offset: usize) -> Result<Inst, DecodeError> {
    decode_mode(bytes, offset, false, Target::Gfx1100)
}

/// Decodes the instruction at the start of `bytes` for `target` (wave32 or wave64 operand
/// rules): the opcodes of RDNA3.5 (`Target::Gfx1150`) decode only there.
pub fn decode_for(
    bytes: &[u8],
    offset: usize,
    target: Target,
    wave64: bool,
) -> Result<Inst, DecodeError> {
    decode_mode(bytes, offset, wave64, target)
}

/// Decodes an instruction of wave64 code (what llvm-objdump decodes with
/// `--mattr=+wavefrontsize64`): VOPD (dual issue, wave32 only) does not exist and decodes as an
/// invalid first dword, and the D and C matrices of WMMA are 4 VGPRs instead of 8 (a lane
/// holds half as many elements), so register ranges are checked at that width.
pub fn decode_wave64(bytes: &[u8], offset: usize) -> Result<Inst, DecodeError> {
    decode_mode(bytes, offset, true, Target::Gfx1100)
}

/// VGPRs of a WMMA D or C matrix operand (RDNA3 ISA, "WMMA": 8 per lane in wave32, 4 in wave64).
pub fn wmma_acc_dwords(wave64: bool) -> u8 {
    if wave64 {
        4
    } else {
        8
    }
}

fn decode_mode(
    bytes: &[u8],
    offset: usize,
    wave64: bool,
    target: Target,
) -> Result<Inst, DecodeError> {
    let w = Words {
        bytes,
        offset,
        rejected: std::cell::Cell::new(false),
        target,
    };
    let w0 = w.get(0)?;
    let inst = match decode_fields(&w, w0, wave64) {
        Ok(i) => i,
        Err(_) if w.rejected.get() => None,
        Err(e) => return Err(e),
    };
    let mut inst = inst.unwrap_or_else(|| Inst::invalid(w0));
    inst.word0 = w0;
    Ok(inst)
}

fn decode_fields(w: &Words, w0: u32, wave64: bool) -> Result<Option<Inst>, DecodeError> {
    let lk = Lookup::for_target(w.target);
    let inst = if w0 >> 31 == 0 {
        decode_vop12c(w, w0, lk)?
    } else {
        match w0 >> 23 {
            0x17d => decode_sop1(w, w0, lk)?,
            0x17e => decode_sopc(w, w0, lk)?,
            0x17f => decode_sopp(w, w0, lk),
            _ if w0 >> 28 == 0xb => decode_sopk(w, w0, lk)?,
            _ if w0 >> 30 == 2 => decode_sop2(w, w0, lk)?,
            _ => match w0 >> 26 {
                0x3d => decode_smem(w, w0, lk)?,
                0x35 => decode_vop3(w, w0, lk)?,
                0x33 => match bits(w0, 25, 24) {
                    // VOP3P: bits 31:23 are 0x198 (bit 23 clear).
                    0 if w0 & (1 << 23) != 0 => None,
                    0 => decode_vop3p(w, w0, lk, wave64)?,
                    1 => decode_vinterp(w, w0, lk)?,
                    2 => decode_ldsdir(w0, lk),
                    _ => None,
                },
                0x32 if wave64 => None,
                0x32 => decode_vopd(w, w0)?,
                0x36 => decode_ds(w, w0, lk)?,
                0x37 => decode_flat(w, w0, lk)?,
                0x38 => decode_mubuf(w, w0, lk)?,
                0x3a => decode_mtbuf(w, w0, lk)?,
                0x3c => decode_mimg(w, w0, lk)?,
                0x3e => decode_exp(w, w0, lk)?,
                _ => None,
            },
        }
    };
    Ok(inst)
}

// ------------------------------------------------------------------------------------------------
// Operand validity (what LLVM's gfx11 decoder accepts)
// ------------------------------------------------------------------------------------------------

/// Is `code` (8 or 9 bits) a valid scalar-or-constant source of a `dwords`-wide operand?
/// Codes 209-232 and 249 name nothing; DPP markers are handled by the callers.
fn valid_ssrc(code: u16, dwords: u8) -> bool {
    match code {
        0..=105 | 108..=123 | 124 | 126 => true,
        // vcc_hi, m0, exec_hi have no 64-bit form.
        107 | 125 | 127 => dwords == 1,
        106 => true,
        128..=208 | 240..=248 | 255 => true,
        235..=239 | 251..=253 => true,
        254 => dwords == 1,
        _ => false,
    }
}

/// The SGPR destination of v_readfirstlane_b32 / v_readlane_b32: LLVM decodes the 8-bit field
/// like a 32-bit scalar source (constants and src_* values decode and print with a remark; the
/// executor drops a write to them), except the literal and DPP markers.
fn valid_lane_read_dst(code: u16) -> bool {
    valid_ssrc(code, 1) && code != opnd::LITERAL
}

/// Does a scalar register range starting at (aligned) `code` stay inside its register file?
/// Special registers (vcc, exec, ...) are accepted at any width; the printer remarks on them.
fn sreg_fits(code: u16, dwords: u8) -> bool {
    let last = code + dwords.max(1) as u16 - 1;
    match code {
        0..=105 => last <= 105,
        108..=123 => last <= 123,
        _ => true,
    }
}

/// Aligns a scalar register code to the operand width (LLVM decodes `code >> shift`).
fn align_sreg(code: u16, dwords: u8) -> u16 {
    let mask = match dwords {
        0 | 1 => 0,
        2 => 1,
        _ => 3,
    };
    match code {
        0..=105 => code & !mask,
        108..=123 => opnd::TTMP0 + ((code - opnd::TTMP0) & !mask),
        _ => code,
    }
}

/// A 64-bit scalar operand starting at vcc_hi or exec_hi, which LLVM has no register for: the
/// hardware ignores the LSB of a 64-bit SGPR address (seed 000, "SGPR alignment") and uses VCC /
/// EXEC. Returns the aligned code.
fn hw_pair(code: u16, dwords: u8) -> Option<u16> {
    match code {
        opnd::VCC_HI | opnd::EXEC_HI if dwords == 2 => Some(code - 1),
        _ => None,
    }
}

/// Operand width in dwords for a table type (lane masks are one SGPR in the encoding).
fn dw(t: Ty) -> u8 {
    t.dwords()
}

/// Fetches the literal if any source uses it; sets `len` to the base length plus the literal.
fn take_literal(w: &Words, i: &mut Inst, base_words: usize) -> Result<(), DecodeError> {
    i.len = (base_words * 4) as u8;
    if i.src.contains(&opnd::LITERAL) || i.flags & iflags::LIT != 0 {
        i.lit = w.get(base_words)?;
        i.flags |= iflags::LIT;
        i.len += 4;
    }
    Ok(())
}

// ------------------------------------------------------------------------------------------------
// Scalar formats
// ------------------------------------------------------------------------------------------------

/// Scalar operand checks for SOP1/SOP2/SOPC: sets the aligned codes, or returns false.
fn scalar_srcs(w: &Words, i: &mut Inst, codes: &[u16]) -> bool {
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

fn valid_sdst(code: u16, dwords: u8) -> bool {
    match code {
        0..=105 | 108..=123 | 124 | 106 | 126 => true,
        107 | 125 | 127 => dwords == 1,
        _ => false,
    }
}

/// Sets the scalar destination `code` (aligned to the op's `dst[0]` width), or returns false when
/// it is not a valid destination of that width.
fn set_sdst(w: &Words, i: &mut Inst, code: u16) -> bool {
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

fn decode_sop1(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
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

fn decode_sop2(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Sop2, bits(w0, 29, 23)) else {
        return Ok(None);
    };
    let mut i = Inst::new(op, Enc::Sop2, 4);
    if !set_sdst(w, &mut i, bits(w0, 22, 16) as u16) {
        return Ok(None);
    }
    if matches!(op, Op::S_FMAMK_F32 | Op::S_FMAAK_F32) {
        // RDNA3.5: the literal K is the middle (fmamk) or last (fmaak) source, as in the VOP2
        // v_fmamk/v_fmaak forms; the literal dword is always present.
        let (a, b) = (bits(w0, 7, 0) as u16, bits(w0, 15, 8) as u16);
        if !valid_ssrc(a, 1) || !valid_ssrc(b, 1) {
            return Ok(None);
        }
        i.src[0] = a;
        if op == Op::S_FMAMK_F32 {
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

fn decode_sopc(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
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

fn decode_sopk(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
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

fn decode_sopp(w: &Words, w0: u32, lk: &Lookup) -> Option<Inst> {
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

fn decode_smem(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
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
            // seed 000 aligns it, drops the dwords outside the region and loads nothing into
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
    // The hardware reads s104, s105, vcc_lo, vcc_hi (seed 000: a 128-bit V# stays in one region).
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

// ------------------------------------------------------------------------------------------------
// Vector ALU formats
// ------------------------------------------------------------------------------------------------

/// Is `code` a valid 9-bit VALU source (not counting DPP markers)?
fn valid_vsrc(code: u16, dwords: u8) -> bool {
    code >= opnd::VGPR0 || valid_ssrc(code, dwords)
}

/// DPP16 / DPP8 control word following a VOP1/VOP2/VOPC/VOP3/VOP3P instruction.
fn decode_dpp(i: &mut Inst, sel: u16, dw: u32, e32: bool) {
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
fn is_dpp_sel(s: u16) -> bool {
    s == opnd::DPP16 || s == opnd::DPP8 || s == opnd::DPP8FI
}

/// v_fmamk/v_fmaak: the K constant is a literal operand in the middle / at the end.
#[inline]
fn is_fmak(op: Op) -> bool {
    matches!(
        op,
        Op::V_FMAMK_F32 | Op::V_FMAAK_F32 | Op::V_FMAMK_F16 | Op::V_FMAAK_F16
    )
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
            match op {
                Op::V_FMAMK_F32 | Op::V_FMAMK_F16 => {
                    i.src[1] = opnd::LITERAL;
                    i.src[2] = vsrc1;
                }
                Op::V_FMAAK_F32 | Op::V_FMAAK_F16 => {
                    i.src[1] = vsrc1;
                    i.src[2] = opnd::LITERAL;
                }
                _ => {
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
fn vop3_check_mods(i: &Inst, m: &Vop3Mods, sd: bool) -> bool {
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

fn decode_vop3(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
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
fn src_fields(w1: u32) -> [u16; 3] {
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
fn take_srcs(w: &Words, i: &mut Inst, raw: &[u16; 3], n: usize) -> bool {
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
fn vop3_dpp(w: &Words, mut i: Inst, sel: u16, n: usize) -> Result<Option<Inst>, DecodeError> {
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

fn decode_vop3p(
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

fn decode_ldsdir(w0: u32, lk: &Lookup) -> Option<Inst> {
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

fn decode_vopd(w: &Words, w0: u32) -> Result<Option<Inst>, DecodeError> {
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
    let k = |op: Op| matches!(op, Op::V_FMAAK_F32 | Op::V_FMAMK_F32);
    if k(*x) || k(*y) {
        i.flags |= iflags::LIT;
    }
    take_literal(w, &mut i, 2)?;
    Ok(Some(i))
}

// ------------------------------------------------------------------------------------------------
// Memory formats
// ------------------------------------------------------------------------------------------------

/// global_load/store_addtid_b32 address by lane id: no VGPR address.
pub fn flat_has_vaddr(op: Op) -> bool {
    !matches!(op, Op::GLOBAL_LOAD_ADDTID_B32 | Op::GLOBAL_STORE_ADDTID_B32)
}

/// Memory atomics (FLAT/GLOBAL/SCRATCH, MUBUF, MIMG) return the old value only when GLC is set.
pub fn is_mem_atomic(op: Op) -> bool {
    matches!(
        op.fmt(),
        Fmt::Flat | Fmt::Global | Fmt::Scratch | Fmt::Mubuf | Fmt::Mimg
    ) && op.name().contains("_atomic_")
}

/// Does the memory instruction write its `dst[0]` (loads, and atomics with GLC)?
pub fn returns_data(i: &Inst) -> bool {
    i.op.sig().dst[0] != Ty::None && (!is_mem_atomic(i.op) || i.flags & iflags::GLC != 0)
}

/// v_fma_mix*: VOP3P encodings with VOP3-style modifiers (neg_hi bits are abs).
pub fn is_fma_mix(op: Op) -> bool {
    matches!(
        op,
        Op::V_FMA_MIX_F32 | Op::V_FMA_MIXLO_F16 | Op::V_FMA_MIXHI_F16
    )
}

/// Wave matrix multiply-accumulate instructions.
pub fn is_wmma(op: Op) -> bool {
    op.name().starts_with("v_wmma_")
}

/// The 16-bit-accumulator WMMAs have op_sel/op_sel_hi (and no clamp); the others have neither
/// op_sel nor op_sel_hi; the integer ones take clamp.
pub fn wmma_has_op_sel(op: Op) -> bool {
    matches!(
        op,
        Op::V_WMMA_F16_16X16X16_F16 | Op::V_WMMA_BF16_16X16X16_BF16
    )
}

/// Input modifiers of the VOP1/VOP2/VOPC DPP forms: (float `neg`/`abs` sources, integer `sext`
/// sources). v_ldexp_f16's exponent takes sext here (but float modifiers in VOP3); v_mov_b16's
/// source takes sext (LLVM prints `sext(vN.l)`, accepts and ignores abs).
pub fn dpp_e32_mods(op: Op) -> (u8, u8) {
    match op {
        Op::V_LDEXP_F16 => (0b01, 0b10),
        Op::V_MOV_B16 => (0, 0b01),
        _ => (vop3_mods(op).fmods & 0b11, 0),
    }
}

/// Does the VALU instruction have DPP forms (DPP16 and DPP8)? Not for 64-bit operands, not for
/// lane reads, swaps and v_fmac_dx9_zero_f32 (LLVM 19, gfx11).
pub fn has_dpp(op: Op) -> bool {
    let sig = op.sig();
    if sig.num_src() == 0 || is_fmak(op) {
        return false;
    }
    let wide = |t: &Ty| t.dwords() >= 2;
    if sig.dst.iter().any(wide) || sig.src.iter().any(wide) {
        return false;
    }
    !matches!(
        op,
        Op::V_READFIRSTLANE_B32
            | Op::V_SWAP_B32
            | Op::V_PERMLANE64_B32
            | Op::V_SWAPREL_B32
            | Op::V_FMAC_DX9_ZERO_F32
            | Op::V_FMA_DX9_ZERO_F32
            | Op::V_DIV_FIXUP_F32
            | Op::V_DIV_FMAS_F32
            | Op::V_DIV_SCALE_F32
            | Op::V_PERMLANE16_B32
            | Op::V_PERMLANEX16_B32
            | Op::V_MUL_LO_U32
            | Op::V_MUL_HI_U32
            | Op::V_MUL_HI_I32
            | Op::V_READLANE_B32
            | Op::V_WRITELANE_B32
    )
}

/// Do all VALU register operands (destinations and sources) fit in their register files?
fn valu_fits(i: &Inst) -> bool {
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

/// Does a VGPR range of `dwords` starting at `code` stay inside v0-v255?
fn vfits(code: u16, dwords: u8) -> bool {
    dwords == 0 || code < opnd::VGPR0 || (code - opnd::VGPR0) as u32 + dwords.max(1) as u32 <= 256
}

/// DS instructions that take a VGPR address (the others work on M0 / the wave id).
pub fn ds_has_addr(op: Op) -> bool {
    !matches!(
        op,
        Op::DS_NOP
            | Op::DS_CONSUME
            | Op::DS_APPEND
            | Op::DS_STORE_ADDTID_B32
            | Op::DS_LOAD_ADDTID_B32
            | Op::DS_GWS_INIT
            | Op::DS_GWS_SEMA_V
            | Op::DS_GWS_SEMA_BR
            | Op::DS_GWS_SEMA_P
            | Op::DS_GWS_BARRIER
            | Op::DS_GWS_SEMA_RELEASE_ALL
            | Op::DS_ADD_GS_REG_RTN
            | Op::DS_SUB_GS_REG_RTN
    )
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
    if i.op.sig().dst[0] != Ty::None {
        i.dst[0] = i.src[1];
    }
}

/// Operand checks shared by MUBUF and MTBUF: soffset must name a register or inline constant,
/// the data VGPRs (plus one for tfe) must fit in v0-v255.
fn buffer_valid(i: &Inst) -> bool {
    let sig = i.op.sig();
    let soff = i.src[3];
    if !valid_ssrc(soff, 1) || !sreg_fits(i.src[2], 4) {
        return false;
    }
    // Atomics and LDS loads have no tfe form; cache invalidations take no operand bits at all.
    let name = i.op.name();
    if i.flags & iflags::TFE != 0
        && (name.contains("_atomic_") || name.contains("_lds_") || i.enc == Enc::Mtbuf)
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
    if matches!(op, Op::BUFFER_GL0_INV | Op::BUFFER_GL1_INV) {
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
    if !buffer_valid(&i) {
        return Ok(None);
    }
    // soffset may be a literal constant.
    take_literal(w, &mut i, 2)?;
    Ok(Some(i))
}

/// What an image opcode is, as far as operand widths go (RDNA3 ISA "MIMG"; the variant sets
/// follow LLVM 19's MIMG instruction definitions, which the disassembler has to reproduce).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MimgKind {
    /// image_load*, image_get_resinfo: no sampler.
    Load,
    /// image_store*.
    Store,
    /// image_atomic_* except cmpswap.
    Atomic,
    /// image_atomic_cmpswap: data and compare value.
    AtomicCmpswap,
    /// image_msaa_load: returns four channels like gather4.
    MsaaLoad,
    /// image_sample*, image_get_lod.
    Sample,
    /// image_gather4*: always four channels.
    Gather,
    /// image_bvh_intersect_ray / image_bvh64_intersect_ray.
    Bvh { is64: bool },
}

/// Address and data properties of an image opcode, derived from its mnemonic (LLVM's
/// `MIMGBaseOpcode` fields): extra arguments (offset, bias, z-compare), gradients (16-bit with
/// the `_g16` forms), a lod/clamp/mip argument, whether it has coordinates and a d16 form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MimgOpInfo {
    pub kind: MimgKind,
    pub extra: u32,
    pub gradients: bool,
    pub g16: bool,
    pub lod: bool,
    pub coords: bool,
    pub has_d16: bool,
}

/// Bit set of the dword counts `lo..=hi`.
const fn dword_set(lo: u32, hi: u32) -> u32 {
    ((1u32 << (hi + 1)) - 1) & !((1u32 << lo) - 1)
}

impl MimgOpInfo {
    pub fn of(op: Op) -> MimgOpInfo {
        let name = op.name();
        let mut m = MimgOpInfo {
            kind: MimgKind::Load,
            extra: 0,
            gradients: false,
            g16: false,
            lod: false,
            coords: true,
            has_d16: true,
        };
        let parts: Vec<&str> = name.split('_').collect();
        let has = |s: &str| parts.iter().skip(2).any(|p| *p == s);
        if name.starts_with("image_bvh") {
            m.kind = MimgKind::Bvh {
                is64: name.starts_with("image_bvh64"),
            };
            m.has_d16 = false;
        } else if name.starts_with("image_sample")
            || name.starts_with("image_gather4")
            || name == "image_get_lod"
        {
            m.kind = if name.starts_with("image_gather4") {
                MimgKind::Gather
            } else {
                MimgKind::Sample
            };
            // The address layout of a sample variant: [offset] [bias] [z-compare] [gradients]
            // coordinates [lod/clamp].
            m.extra = u32::from(has("o")) + u32::from(has("b")) + u32::from(has("c"));
            m.gradients = has("d");
            m.g16 = has("g16");
            m.lod = has("l") || has("cl");
            m.has_d16 = name != "image_get_lod";
        } else if name.starts_with("image_atomic") {
            m.kind = if name.starts_with("image_atomic_cmpswap") {
                MimgKind::AtomicCmpswap
            } else {
                MimgKind::Atomic
            };
            m.has_d16 = false;
        } else if name == "image_msaa_load" {
            m.kind = MimgKind::MsaaLoad;
        } else {
            m.kind = if name.starts_with("image_store") {
                MimgKind::Store
            } else {
                MimgKind::Load
            };
            m.lod = has("mip") || name == "image_get_resinfo";
            m.coords = name != "image_get_resinfo";
            m.has_d16 = !name.contains("_pck") && name != "image_get_resinfo";
        }
        m
    }

    /// The instruction has a sampler operand (ssamp).
    pub fn sampler(&self) -> bool {
        matches!(self.kind, MimgKind::Sample | MimgKind::Gather)
    }

    /// Number of address VGPRs the instruction reads (LLVM `getAddrSizeMIMGOp` for gfx11, which
    /// has separate g16 opcodes: a16 alone does not pack the gradients).
    pub fn addr_dwords(&self, dim: u32, a16: bool) -> u32 {
        // (coordinates, gradients) per dimension: 1D 2D 3D CUBE 1D_ARRAY 2D_ARRAY 2D_MSAA
        // 2D_MSAA_ARRAY.
        const COORDS: [u32; 8] = [1, 2, 3, 3, 2, 3, 3, 4];
        const GRADS: [u32; 8] = [2, 4, 6, 4, 2, 4, 4, 4];
        let d = dim as usize & 7;
        if let MimgKind::Bvh { is64 } = self.kind {
            return match (is64, a16) {
                (false, false) => 11,
                (false, true) => 8,
                (true, false) => 12,
                (true, true) => 9,
            };
        }
        let comps = if self.coords { COORDS[d] } else { 0 } + u32::from(self.lod);
        let mut words = self.extra + if a16 { comps.div_ceil(2) } else { comps };
        if self.gradients {
            words += if self.g16 {
                (GRADS[d] / 2).next_multiple_of(2)
            } else {
                GRADS[d]
            };
        }
        words
    }

    /// Address sizes of a sample/gather variant over all dimensions without MSAA and both a16
    /// settings (LLVM `MIMG_Sampler_AddrSizes::AllNumAddrWords`), as a bit set.
    fn sample_addr_words(&self) -> u32 {
        let (lo, hi) = match (self.gradients, self.g16, self.lod) {
            (true, true, false) => (2, 7),
            (true, true, true) => (2, 8),
            (true, false, false) => (2, 9),
            (true, false, true) => (2, 10),
            (false, _, false) => (1, 3),
            (false, _, true) => (1, 4),
        };
        dword_set(lo + self.extra, hi + self.extra)
    }

    /// Address sizes (bit n = n dwords) LLVM has an instruction variant for, with sequential
    /// (`nsa == false`) or non-sequential addresses. Not meaningful for BVH.
    pub fn llvm_addr_variants(&self, nsa: bool) -> u32 {
        match self.kind {
            MimgKind::Sample | MimgKind::Gather => {
                let all = self.sample_addr_words();
                if nsa {
                    all & dword_set(2, 12)
                } else {
                    // Besides every exact size, codegen's rounded sizes 4, 8 and 16.
                    let mut v = all;
                    if all & dword_set(3, 4) != 0 {
                        v |= 1 << 4;
                    }
                    if all & dword_set(5, 8) != 0 {
                        v |= 1 << 8;
                    }
                    if all & dword_set(13, 16) != 0 {
                        v |= 1 << 16;
                    }
                    v
                }
            }
            _ => {
                if nsa {
                    dword_set(2, 4)
                } else {
                    dword_set(1, 4)
                }
            }
        }
    }

    /// The address size of the variant LLVM's decoder tables hold: the smallest sequential one,
    /// the largest non-sequential one with at most five addresses.
    pub fn llvm_default_addr(&self, nsa: bool) -> u32 {
        let v = self.llvm_addr_variants(nsa);
        if nsa {
            31 - (v & dword_set(0, 5)).leading_zeros()
        } else {
            v.trailing_zeros()
        }
    }

    /// Data sizes (bit n = n dwords) LLVM has a variant for.
    pub fn llvm_data_variants(&self) -> u32 {
        match self.kind {
            MimgKind::Gather => 1 << 2 | 1 << 4 | 1 << 5,
            MimgKind::MsaaLoad => dword_set(2, 5),
            MimgKind::Atomic => 1 << 1 | 1 << 2 | 1 << 4,
            MimgKind::AtomicCmpswap => 1 << 2 | 1 << 4,
            MimgKind::Bvh { .. } => 1 << 4,
            _ => dword_set(1, 5),
        }
    }

    /// The data size of the variant LLVM's decoder tables hold.
    pub fn llvm_default_data(&self) -> u32 {
        match self.kind {
            MimgKind::Gather | MimgKind::MsaaLoad | MimgKind::Bvh { .. } => 4,
            MimgKind::AtomicCmpswap => 2,
            _ => 1,
        }
    }

    /// Registers LLVM's data operand spans for a variant of `dwords` data dwords: the 4-dword
    /// variant of the plain atomics has a 5-register (160-bit) data class in LLVM 19.
    pub fn llvm_data_regs(&self, dwords: u32) -> u32 {
        if self.kind == MimgKind::Atomic && dwords == 4 {
            5
        } else {
            dwords
        }
    }
}

/// Number of address VGPRs an image instruction reads (see `MimgOpInfo::addr_dwords`).
pub fn mimg_addr_dwords(op: Op, dim: u32, a16: bool) -> u32 {
    MimgOpInfo::of(op).addr_dwords(dim, a16)
}

/// BVH non-sequential address operands (node pointer, ray extent, origin, direction, inverse
/// direction; a16 packs direction and inverse direction into two tuples): VGPRs per operand.
pub fn bvh_nsa_widths(is64: bool, a16: bool) -> &'static [u32] {
    match (is64, a16) {
        (false, false) => &[1, 1, 3, 3, 3],
        (false, true) => &[1, 1, 3, 3],
        (true, false) => &[2, 1, 3, 3, 3],
        (true, true) => &[2, 1, 3, 3],
    }
}

/// A 256-bit resource descriptor operand LLVM accepts: an aligned SGPR octet up to s[96:103],
/// ttmp[0:7]..ttmp[8:15], or null.
fn srsrc256_ok(code: u32) -> bool {
    code <= 96 || (108..=116).contains(&code) || code == opnd::NULL as u32
}

/// A 128-bit descriptor operand (sampler, BVH resource): s[0:3]..s[100:103], ttmp quads, null.
fn srsrc128_ok(code: u32) -> bool {
    code <= 100 || (108..=120).contains(&code) || code == opnd::NULL as u32
}

fn decode_mimg(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Mimg, bits(w0, 25, 18)) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let mut i = Inst::new(op, Enc::Mimg, 8);
    let info = MimgOpInfo::of(op);
    let nsa = w0 & 1 != 0;
    let dim = bits(w0, 4, 2);
    let dmask = bits(w0, 11, 8);
    // dmask, dim, unorm, dlc, glc, slc, r128, a16, d16 (RDNA3 ISA, "MIMG").
    i.imm2 = dmask | dim << 4;
    if w0 & (1 << 7) != 0 {
        i.flags |= iflags::UNORM;
    }
    mem_cache_bits(&mut i, w0, 14, 12, 13);
    if w0 & (1 << 15) != 0 {
        i.flags |= iflags::R128;
    }
    if w0 & (1 << 16) != 0 {
        i.flags |= iflags::A16;
    }
    if w0 & (1 << 17) != 0 {
        i.flags |= iflags::D16;
    }
    if w1 & (1 << 21) != 0 {
        i.flags |= iflags::TFE;
    }
    if w1 & (1 << 22) != 0 {
        i.flags |= iflags::LDS; // lwe
    }
    let vaddr = bits(w1, 7, 0);
    let vdata = bits(w1, 15, 8);
    let srsrc = bits(w1, 20, 16) << 2;
    let ssamp = bits(w1, 30, 26) << 2;
    i.src[0] = opnd::vgpr(vaddr);
    i.dst[0] = opnd::vgpr(vdata);
    i.src[1] = srsrc as u16;
    i.src[2] = ssamp as u16;
    let a16 = i.flags & iflags::A16 != 0;
    let d16 = i.flags & iflags::D16 != 0;
    let tfe = i.flags & iflags::TFE != 0;
    // Fields an opcode does not have must be zero (LLVM has no encoding with them set): the
    // sampler of non-sampling ops, d16 of ops without a 16-bit form.
    if (!info.sampler() && ssamp != 0) || (d16 && !info.has_d16) {
        return Ok(None);
    }
    let addrs = info.addr_dwords(dim, a16);
    // Registers must exist for the operand classes of the form LLVM decodes first (its default
    // widths); a tuple running past v255 or a descriptor outside the SGPR/TTMP tuples does not
    // decode.
    if let MimgKind::Bvh { is64 } = info.kind {
        // The ray-tracing ops have fixed fields: dmask 0xf, unorm, r128, 1D, no d16/tfe/lwe/cache
        // bits; the resource is 128 bits.
        let fixed = dmask == 0xf
            && i.flags & (iflags::UNORM | iflags::R128) == iflags::UNORM | iflags::R128
            && dim == 0
            && i.flags & (iflags::D16 | iflags::TFE | iflags::LDS | iflags::GLC | iflags::SLC) == 0
            && i.flags & iflags::DLC == 0;
        if !fixed || !srsrc128_ok(srsrc) || vdata > 252 {
            return Ok(None);
        }
        i.imm2 |= 4 << 8;
        i.imm = addrs as i32;
        if nsa {
            let extra = w.get(2)?;
            let widths = bvh_nsa_widths(is64, a16);
            // LLVM cannot print tuples that run past v255 (llvm-objdump 19 crashes on them):
            // treat them as undecodable.
            let regs = [
                vaddr,
                extra & 0xff,
                extra >> 8 & 0xff,
                extra >> 16 & 0xff,
                extra >> 24,
            ];
            if widths.iter().zip(regs).any(|(&n, r)| r + n - 1 > 255) {
                return Ok(None);
            }
            i.flags |= iflags::NSA;
            i.lit = extra;
            i.len = 12;
        } else if vaddr + addrs - 1 > 255 {
            return Ok(None);
        }
        return Ok(Some(i));
    }
    if !srsrc256_ok(srsrc) || (info.sampler() && !srsrc128_ok(ssamp)) {
        return Ok(None);
    }
    let def_data = info.llvm_data_regs(info.llvm_default_data());
    if vdata + def_data - 1 > 255 || (!nsa && vaddr + info.llvm_default_addr(false) - 1 > 255) {
        return Ok(None);
    }
    // Data VGPRs the hardware transfers: one per enabled channel (four for gather4 and
    // msaa_load), two 16-bit channels per VGPR with d16, plus one for the tfe/lwe status.
    let chans = match info.kind {
        MimgKind::Gather | MimgKind::MsaaLoad => 4,
        _ => dmask.count_ones().max(1),
    };
    let mut vdwords = if d16 { chans.div_ceil(2) } else { chans };
    if tfe {
        vdwords += 1;
    }
    i.imm2 |= vdwords << 8;
    i.imm = addrs as i32;
    if nsa {
        // Non-sequential addresses: up to five address VGPRs (the fifth starts the tuple of all
        // remaining ones), the second to fifth one per byte of one extra dword.
        i.flags |= iflags::NSA;
        i.lit = w.get(2)?;
        i.len = 12;
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
    decode_all_for(bytes, Target::Gfx1100)
}

/// Decodes a whole code region of `target` (wave32 operand rules, as `decode_all`).
pub fn decode_all_for(bytes: &[u8], target: Target) -> Result<Vec<(usize, Inst)>, DecodeError> {
    let mut out = Vec::with_capacity(bytes.len() / 6);
    let mut pc = 0;
    while pc < bytes.len() {
        let inst = decode_mode(&bytes[pc..], pc, false, target)?;
        out.push((pc, inst));
        pc += inst.len as usize;
    }
    Ok(out)
}
