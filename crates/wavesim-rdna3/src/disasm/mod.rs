//! gfx11 disassembly in exactly the syntax `llvm-objdump-19 -d --mcpu=gfx1100` prints.
//!
//! `format` renders one decoded instruction; `listing` renders a code region as objdump lines
//! (`\t<text padded to 59 columns>// <12-digit address>: <words>`); `disassemble_elf` renders a
//! whole code object. Operand text follows LLVM's AMDGPU instruction printer: registers and
//! ranges, inline constants and literals printed according to the operand's type, VOP3/VOP3P
//! modifiers, DPP controls, and the `/*Invalid register...*/` remarks LLVM adds when an encoding
//! names a register its operand class does not allow.
//!
//! `wave64` selects the lane-mask spelling: `vcc`/`s[0:1]` instead of `vcc_lo`/`s0` (what
//! llvm-objdump prints with `--mattr=+wavefrontsize64`; plain `--mcpu=gfx1100` is wave32).

use crate::decode::{self, iflags, opnd, Dpp, Enc, Inst};
use crate::elf;
use crate::isa::{Fmak, Fmt, Op, RegClass, Target, Ty};
use std::fmt::Write;

/// Errors of the whole-object disassembler.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Elf(#[from] elf::ElfError),
    #[error(transparent)]
    Decode(#[from] decode::DecodeError),
}

mod mem;
mod operands;
mod salu;
mod symbolic;
mod valu;

use operands::*;
use symbolic::*;

// ------------------------------------------------------------------------------------------------
// Entry points
// ------------------------------------------------------------------------------------------------

/// The instruction text exactly as `llvm-objdump-19 -d --mcpu=gfx1100` prints it (without the
/// trailing `// address: words` comment). `pc` is the instruction's address (used by nothing
/// printed in the text itself; branch targets are printed as the raw offset like LLVM does).
/// With `wave64` the spelling of `--mattr=+wavefrontsize64`: a VOPD instruction prints as
/// `.long` of its first dword (`listing` then continues with its second dword, as objdump does).
pub fn format(inst: &Inst, pc: u64, wave64: bool) -> String {
    let _ = pc;
    let p = Printer {
        i: inst,
        w64: wave64,
    };
    // Encodings LLVM rejects print as their first dword, whatever the hardware makes of them.
    if inst.llvm_rejects() {
        return format!(".long {:#010x}", inst.word0);
    }
    let mut s = match inst.enc {
        Enc::Invalid => format!(".long {:#010x}", inst.lit),
        // VOPD (dual issue) exists in wave32 only: LLVM's wave64 disassembler does not decode
        // it and prints the first dword as data (listings then go on with the next dword).
        Enc::Vopd if wave64 => format!(".long {:#010x}", inst.imm as u32),
        Enc::Sop1 | Enc::Sop2 | Enc::Sopc => p.salu(),
        Enc::Sopk => p.sopk(),
        Enc::Sopp => p.sopp(),
        Enc::Smem => p.smem(),
        Enc::Vop1 | Enc::Vop2 | Enc::Vopc => p.vop_e32(),
        Enc::Vop3 | Enc::Vop3sd => p.vop3(),
        Enc::Vop3p => p.vop3p(),
        Enc::Vopd => p.vopd(),
        Enc::Vinterp => p.vinterp(),
        Enc::Ldsdir => p.ldsdir(),
        Enc::Ds => p.ds(),
        Enc::Flat | Enc::Global | Enc::Scratch => p.flat(),
        Enc::Mubuf | Enc::Mtbuf => p.buffer(),
        Enc::Mimg => p.mimg(),
        Enc::Exp => p.exp(),
    };
    while s.ends_with(' ') {
        s.pop();
    }
    s
}

/// The target address of a branch (SOPP label operand, s_call), if `inst` is one.
pub fn branch_target(inst: &Inst, pc: u64) -> Option<u64> {
    let label = match inst.enc {
        Enc::Sopp => inst.op.sig().src[0] == Ty::Label,
        Enc::Sopk => inst.op.sig().src[0] == Ty::Label,
        _ => false,
    };
    if !label {
        return None;
    }
    Some(
        pc.wrapping_add(4)
            .wrapping_add((inst.imm as i64 * 4) as u64),
    )
}

/// One objdump line for an instruction: text padded to 59 columns, address and words.
pub fn line(inst: &Inst, pc: u64, bytes: &[u8], wave64: bool) -> String {
    let text = format(inst, pc, wave64);
    let mut out = String::with_capacity(100);
    let _ = write!(out, "\t{text:<59}// {pc:012X}:");
    for c in bytes.chunks(4).take(inst.listed_len() as usize / 4) {
        let mut b = [0u8; 4];
        b[..c.len()].copy_from_slice(c);
        let _ = write!(out, " {:08X}", u32::from_le_bytes(b));
    }
    out
}

/// Listing of a code region loaded at `base`: one objdump line per instruction, with objdump's
/// branch target annotation ` <sym+0x..>` when `symbolize` names the target.
///
/// Code that ends inside an instruction is listed the way llvm-objdump lists it: an
/// instruction cut off by the end prints as `.long` of its first dword (and listing goes on
/// with the next dword), and 1-3 trailing bytes print as one `.byte 0x.., ..` line. (The
/// decoder itself reports `DecodeError::Truncated`; executing such code is an error.) The
/// result is therefore always `Ok`.
pub fn listing(
    code: &[u8],
    base: u64,
    wave64: bool,
    symbolize: &dyn Fn(u64) -> Option<String>,
) -> Result<Vec<String>, decode::DecodeError> {
    listing_for(code, base, wave64, Target::Gfx1100, symbolize)
}

/// `listing` for `target`: what `llvm-objdump-19 -d --mcpu=gfx1150` prints for RDNA3.5 code.
pub fn listing_for(
    code: &[u8],
    base: u64,
    wave64: bool,
    target: Target,
    symbolize: &dyn Fn(u64) -> Option<String>,
) -> Result<Vec<String>, decode::DecodeError> {
    let mut out = Vec::new();
    let range = Range {
        code,
        base,
        wave64,
        target,
    };
    list_range(&mut out, &range, 0, code.len(), symbolize);
    Ok(out)
}

/// The bytes a listing covers and how to decode them.
struct Range<'a> {
    code: &'a [u8],
    /// Address of `code[0]`.
    base: u64,
    wave64: bool,
    target: Target,
}

/// Lists the instructions starting in `code[lo..hi]` (`code[0]` is at address `base`). Like
/// objdump, an instruction may extend past `hi` (into the next symbol's range) as long as the
/// bytes exist; only the end of `code` truncates.
fn list_range(
    out: &mut Vec<String>,
    r: &Range,
    lo: usize,
    hi: usize,
    symbolize: &dyn Fn(u64) -> Option<String>,
) {
    let (code, base, wave64) = (r.code, r.base, r.wave64);
    let mut off = lo;
    while off < hi {
        let rest = &code[off..];
        let pc = base + off as u64;
        let decoded = decode::decode_for(rest, off, r.target, wave64);
        let inst = match decoded {
            Ok(i) => i,
            Err(decode::DecodeError::Truncated { .. }) if rest.len() >= 4 => {
                Inst::invalid(u32::from_le_bytes([rest[0], rest[1], rest[2], rest[3]]))
            }
            Err(decode::DecodeError::Truncated { .. }) => {
                out.push(byte_line(rest, pc));
                return;
            }
        };
        let mut l = line(&inst, pc, rest, wave64);
        if let Some(t) = branch_target(&inst, pc) {
            if let Some(sym) = symbolize(t) {
                let _ = write!(l, " <{sym}>");
            }
        }
        out.push(l);
        // After a `.long`, objdump goes on with the next dword (not the hardware length).
        off += inst.listed_len() as usize;
    }
}

/// objdump's line for 1-3 bytes that do not make a dword: `.byte 0x01, 0x02  // addr: 01 02`.
fn byte_line(bytes: &[u8], pc: u64) -> String {
    let text = bytes
        .iter()
        .map(|b| format!("{b:#04x}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut out = format!("\t{:<59}// {pc:012X}:", format!(".byte {text}"));
    for b in bytes {
        let _ = write!(out, " {b:02X}");
    }
    out
}

/// Listing of bare instruction bytes, addresses starting at 0: objdump's line format for the
/// same bytes in a `.text` section, without symbols (llvm-objdump itself cannot read raw
/// binaries), hence without branch-target annotations. Never fails (see `listing`).
pub fn disassemble_raw(code: &[u8], wave64: bool) -> Result<String, decode::DecodeError> {
    disassemble_raw_for(code, wave64, Target::Gfx1100)
}

/// `disassemble_raw` for `target` (`llvm-objdump-19 --mcpu=gfx1150` for RDNA3.5).
pub fn disassemble_raw_for(
    code: &[u8],
    wave64: bool,
    target: Target,
) -> Result<String, decode::DecodeError> {
    let lines = listing_for(code, 0, wave64, target, &|_| None)?;
    let mut s = String::new();
    for l in lines {
        s.push_str(&l);
        s.push('\n');
    }
    Ok(s)
}

/// A code object printed the way `llvm-objdump-19 -d --mcpu=gfx1100` prints it (from the
/// "Disassembly of section" line on): each executable section, a `<symbol>:` label before every
/// function symbol, objdump lines with branch annotations.
pub fn disassemble_elf(bytes: &[u8]) -> Result<String, Error> {
    let obj = elf::CodeObject::parse(bytes)?;
    // The ISA variant from the ELF machine (gfx1150/gfx1151 objects print as `--mcpu` of their
    // own processor does); unknown machines print as gfx1100.
    let target = Target::from_elf_mach(obj.e_flags & 0xff).unwrap_or_default();
    let mut s = String::new();
    for sec in &obj.text_sections {
        let _ = write!(s, "\nDisassembly of section {}:\n", sec.name);
        // Symbols inside this section, sorted by address.
        let mut syms: Vec<&elf::Symbol> = obj
            .symbols
            .iter()
            .filter(|y| y.section == sec.index && y.is_label)
            .collect();
        syms.sort_by(|a, b| a.address.cmp(&b.address).then(a.name.cmp(&b.name)));
        let symbolize = |t: u64| -> Option<String> {
            let best = syms.iter().rev().find(|y| y.address <= t)?;
            let off = t - best.address;
            Some(if off == 0 {
                best.name.clone()
            } else {
                format!("{}+{:#x}", best.name, off)
            })
        };
        // Split the section at symbol addresses.
        let mut starts: Vec<u64> = syms.iter().map(|y| y.address).collect();
        starts.dedup();
        let end = sec.address + sec.data.len() as u64;
        let mut cuts: Vec<u64> = vec![sec.address];
        cuts.extend(
            starts
                .iter()
                .copied()
                .filter(|&a| a > sec.address && a < end),
        );
        cuts.push(end);
        for win in cuts.windows(2) {
            let (a, b) = (win[0], win[1]);
            for y in syms.iter().filter(|y| y.address == a) {
                let _ = write!(s, "\n{:016x} <{}>:\n", a, y.name);
            }
            let lo = (a - sec.address) as usize;
            let hi = (b - sec.address) as usize;
            let mut lines = Vec::new();
            let range = Range {
                code: &sec.data,
                base: sec.address,
                wave64: false,
                target,
            };
            list_range(&mut lines, &range, lo, hi, &symbolize);
            for l in lines {
                s.push_str(&l);
                s.push('\n');
            }
        }
    }
    Ok(s)
}

// ------------------------------------------------------------------------------------------------
// Per-format printing
// ------------------------------------------------------------------------------------------------

pub(super) struct Printer<'a> {
    i: &'a Inst,
    w64: bool,
}

impl Printer<'_> {
    fn name(&self) -> &'static str {
        self.i.op.name()
    }

    fn lit(&self) -> u32 {
        self.i.lit
    }
}
