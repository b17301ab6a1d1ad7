//! What decoding gives: `Inst`, one decoded instruction (a small `Copy` value), with its
//! encoding, operand codes and flags, and `DecodeError`. The executor, the disassembler and the
//! JIT read only this; the family decoders (`salu`, `valu`, `mem`, `mimg`) build it.

use crate::isa::Op;
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

impl Inst {
    pub(super) fn new(op: Op, enc: Enc, len: u8) -> Inst {
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

pub use crate::isa::Vop3Mods;

/// The VOP3 (e64) modifier capabilities of `op` (VOP1/VOP2/VOPC promoted or VOP3-only): the
/// table's facts column.
#[inline]
pub fn vop3_mods(op: Op) -> Vop3Mods {
    op.facts().vop3
}

/// VGPRs of a WMMA D or C matrix operand (RDNA3 ISA, "WMMA": 8 per lane in wave32, 4 in wave64).
pub fn wmma_acc_dwords(wave64: bool) -> u8 {
    if wave64 {
        4
    } else {
        8
    }
}
