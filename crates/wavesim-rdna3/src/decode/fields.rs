//! The field helpers every family decoder uses: bit extraction, the dword reader with its
//! truncation rule, and operand validity as LLVM's gfx11 decoder checks it. Below the family
//! decoders and the dispatcher (`decode::decode`), which both call into it.

use super::inst::*;
use crate::isa::{Target, Ty};

#[inline]
pub(super) fn bits(w: u32, hi: u32, lo: u32) -> u32 {
    (w >> lo) & ((1u32 << (hi - lo + 1)) - 1)
}

#[inline]
pub(super) fn sext(v: u32, width: u32) -> i32 {
    ((v << (32 - width)) as i32) >> (32 - width)
}

/// Reads little-endian dwords on demand and reports truncation.
pub(super) struct Words<'a> {
    pub(super) bytes: &'a [u8],
    pub(super) offset: usize,
    /// Set once the instruction is known to be one LLVM rejects: running out of bytes after that
    /// point gives `Inst::invalid` (LLVM would print `.long` without reading further).
    pub(super) rejected: std::cell::Cell<bool>,
    /// Whose opcodes exist (RDNA3 or RDNA3.5).
    pub(super) target: Target,
}

impl Words<'_> {
    pub(super) fn get(&self, i: usize) -> Result<u32, DecodeError> {
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
    pub(super) fn reject(&self, i: &mut Inst) {
        i.flags |= iflags::LLVM_REJECTS;
        self.rejected.set(true);
    }
}

// ------------------------------------------------------------------------------------------------
// Operand validity (what LLVM's gfx11 decoder accepts)
// ------------------------------------------------------------------------------------------------

/// Is `code` (8 or 9 bits) a valid scalar-or-constant source of a `dwords`-wide operand?
/// Codes 209-232 and 249 name nothing; DPP markers are handled by the callers.
pub(super) fn valid_ssrc(code: u16, dwords: u8) -> bool {
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
pub(super) fn valid_lane_read_dst(code: u16) -> bool {
    valid_ssrc(code, 1) && code != opnd::LITERAL
}

/// Does a scalar register range starting at (aligned) `code` stay inside its register file?
/// Special registers (vcc, exec, ...) are accepted at any width; the printer remarks on them.
pub(super) fn sreg_fits(code: u16, dwords: u8) -> bool {
    let last = code + dwords.max(1) as u16 - 1;
    match code {
        0..=105 => last <= 105,
        108..=123 => last <= 123,
        _ => true,
    }
}

/// Aligns a scalar register code to the operand width (LLVM decodes `code >> shift`).
pub(super) fn align_sreg(code: u16, dwords: u8) -> u16 {
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
pub(super) fn hw_pair(code: u16, dwords: u8) -> Option<u16> {
    match code {
        opnd::VCC_HI | opnd::EXEC_HI if dwords == 2 => Some(code - 1),
        _ => None,
    }
}

/// Operand width in dwords for a table type (lane masks are one SGPR in the encoding).
pub(super) fn dw(t: Ty) -> u8 {
    t.dwords()
}

/// Fetches the literal if any source uses it; sets `len` to the base length plus the literal.
pub(super) fn take_literal(w: &Words, i: &mut Inst, base_words: usize) -> Result<(), DecodeError> {
    i.len = (base_words * 4) as u8;
    if i.src.contains(&opnd::LITERAL) || i.flags & iflags::LIT != 0 {
        i.lit = w.get(base_words)?;
        i.flags |= iflags::LIT;
        i.len += 4;
    }
    Ok(())
}

pub(super) fn mem_cache_bits(i: &mut Inst, w0: u32, glc: u32, slc: u32, dlc: u32) {
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

pub(super) fn valid_sdst(code: u16, dwords: u8) -> bool {
    match code {
        0..=105 | 108..=123 | 124 | 106 | 126 => true,
        107 | 125 | 127 => dwords == 1,
        _ => false,
    }
}

/// Does a VGPR range of `dwords` starting at `code` stay inside v0-v255?
pub(super) fn vfits(code: u16, dwords: u8) -> bool {
    dwords == 0 || code < opnd::VGPR0 || (code - opnd::VGPR0) as u32 + dwords.max(1) as u32 <= 256
}
