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
//!   is defined by the ISA or the RDNA3 ISA guide (Wave State), decodes to that instruction with the hardware's field
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
//!     the hardware ignores the LSB of a 64-bit SGPR address (RDNA3 ISA guide, Wave State) and uses VCC / EXEC;
//!   - an SMEM destination that runs past its register region (s[104:107] reaches into VCC,
//!     ttmp[12:19] past ttmp15) or names vcc_hi/M0/exec_hi as a wide destination: the RDNA3 ISA guide (Wave State)
//!     aligns the address, drops the dwords outside the region and loads nothing into
//!     NULL/M0/EXEC (the executor applies those rules to the aligned `dst[0]`);
//!   - an s_buffer_load descriptor at s[104:107] (RDNA3 ISA guide, Wave State: a 128-bit V# is forced into one
//!     region, s104, s105, vcc_lo, vcc_hi).
//! - Everything else LLVM rejects stays `Inst::invalid` (raw word in `lit`, 4 bytes): source
//!   codes that name no register (209-232, 249), modifier bits on sources that take none, clamp
//!   or omod on ops without them, fields whose hardware meaning is not defined. Only running out
//!   of bytes in the middle of an instruction is an error (an instruction LLVM rejects that is cut
//!   off decodes as `Inst::invalid`, as LLVM never reads past its first dword).
//!
//! Decoding never allocates; an `Inst` is a small `Copy` value.

use crate::isa::{Fmak, Fmt, Lookup, MemKind, Op, Target, Ty};
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

pub use crate::isa::Vop3Mods;

/// The VOP3 (e64) modifier capabilities of `op` (VOP1/VOP2/VOPC promoted or VOP3-only): the
/// table's facts column.
#[inline]
pub fn vop3_mods(op: Op) -> Vop3Mods {
    op.facts().vop3
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
/// hardware ignores the LSB of a 64-bit SGPR address (RDNA3 ISA guide, Wave State, "SGPR alignment") and uses VCC /
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

mod mem;
mod mimg;
mod salu;
mod valu;

pub use mem::*;
pub use mimg::*;
use salu::*;
pub use valu::*;

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
