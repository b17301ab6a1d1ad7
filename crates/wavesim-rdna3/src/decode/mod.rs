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

//!
//! Files: `inst` (the decoded form), `fields` (helpers the family decoders share), the family
//! decoders `salu`, `valu`, `mem`, `mimg`, and here the dispatcher that picks a family by the
//! encoding bits. Arrows point down: this module uses the families, they use `fields` and
//! `inst`, never this module.

use crate::isa::{Lookup, Target};

mod fields;
mod inst;
mod mem;
mod mimg;
mod salu;
mod valu;

pub use mem::*;
pub use mimg::*;
use salu::*;
pub use valu::*;

use fields::{bits, Words};
pub use inst::*;

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
