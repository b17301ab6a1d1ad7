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
use crate::isa::{Fmt, Op, Target, Ty};
use std::fmt::Write;

/// Errors of the whole-object disassembler.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Elf(#[from] elf::ElfError),
    #[error(transparent)]
    Decode(#[from] decode::DecodeError),
}

// ------------------------------------------------------------------------------------------------
// Registers
// ------------------------------------------------------------------------------------------------

fn range(prefix: &str, first: u32, dwords: u32) -> String {
    if dwords <= 1 {
        format!("{prefix}{first}")
    } else {
        format!("{prefix}[{}:{}]", first, first + dwords - 1)
    }
}

/// Name of a scalar register or special source for an operand `dwords` wide (0 counts as 1).
fn sreg(code: u16, dwords: u32) -> String {
    let d = dwords.max(1);
    match code {
        0..=105 => range("s", code as u32, d),
        106 => if d == 1 { "vcc_lo" } else { "vcc" }.into(),
        107 => "vcc_hi".into(),
        108..=123 => range("ttmp", (code - 108) as u32, d),
        124 => "null".into(),
        125 => "m0".into(),
        126 => if d == 1 { "exec_lo" } else { "exec" }.into(),
        127 => "exec_hi".into(),
        235 => "src_shared_base".into(),
        236 => "src_shared_limit".into(),
        237 => "src_private_base".into(),
        238 => "src_private_limit".into(),
        239 => "src_pops_exiting_wave_id".into(),
        251 => "src_vccz".into(),
        252 => "src_execz".into(),
        253 => "src_scc".into(),
        254 => "src_lds_direct".into(),
        _ => format!("/*unknown {code}*/"),
    }
}

fn vreg(code: u16, dwords: u32) -> String {
    range("v", (code - opnd::VGPR0) as u32, dwords.max(1))
}

/// Any register operand (VGPR or scalar).
fn reg(code: u16, dwords: u32) -> String {
    if opnd::is_vgpr(code) {
        vreg(code, dwords)
    } else {
        sreg(code, dwords)
    }
}

// ------------------------------------------------------------------------------------------------
// Constants
// ------------------------------------------------------------------------------------------------

fn hex(v: u64) -> String {
    format!("{v:#x}")
}

/// LLVM `printImmediate32`: small integers in decimal, the inline float values by name.
fn imm32(v: u32) -> String {
    let s = v as i32;
    if (-16..=64).contains(&s) {
        return s.to_string();
    }
    match v {
        0x3f00_0000 => "0.5".into(),
        0xbf00_0000 => "-0.5".into(),
        0x3f80_0000 => "1.0".into(),
        0xbf80_0000 => "-1.0".into(),
        0x4000_0000 => "2.0".into(),
        0xc000_0000 => "-2.0".into(),
        0x4080_0000 => "4.0".into(),
        0xc080_0000 => "-4.0".into(),
        0x3e22_f983 => "0.15915494".into(),
        _ => hex(v as u64),
    }
}

/// The name of a 64-bit float constant's high half, if it is one of the inline values.
fn f64_hi_name(hi: u32) -> Option<&'static str> {
    Some(match hi {
        0x3fe0_0000 => "0.5",
        0xbfe0_0000 => "-0.5",
        0x3ff0_0000 => "1.0",
        0xbff0_0000 => "-1.0",
        0x4000_0000 => "2.0",
        0xc000_0000 => "-2.0",
        0x4010_0000 => "4.0",
        0xc010_0000 => "-4.0",
        _ => return None,
    })
}

fn half_name(v: u16) -> Option<&'static str> {
    Some(match v {
        0x3800 => "0.5",
        0xb800 => "-0.5",
        0x3c00 => "1.0",
        0xbc00 => "-1.0",
        0x4000 => "2.0",
        0xc000 => "-2.0",
        0x4400 => "4.0",
        0xc400 => "-4.0",
        0x3118 => "0.15915494",
        _ => return None,
    })
}

fn bf16_name(v: u16) -> Option<&'static str> {
    Some(match v {
        0x3f00 => "0.5",
        0xbf00 => "-0.5",
        0x3f80 => "1.0",
        0xbf80 => "-1.0",
        0x4000 => "2.0",
        0xc000 => "-2.0",
        0x4080 => "4.0",
        0xc080 => "-4.0",
        0x3e22 => "0.15915494",
        _ => return None,
    })
}

/// LLVM `printImmediateBF16` (bf16 operands).
fn imm16bf(v: u16) -> String {
    let s = v as i16;
    if (-16..=64).contains(&s) {
        return s.to_string();
    }
    bf16_name(v)
        .map(str::to_string)
        .unwrap_or_else(|| hex(v as u64))
}

/// LLVM `printImmediate16` (float 16-bit operands).
fn imm16f(v: u16) -> String {
    let s = v as i16;
    if (-16..=64).contains(&s) {
        return s.to_string();
    }
    half_name(v)
        .map(str::to_string)
        .unwrap_or_else(|| hex(v as u64))
}

/// LLVM 19 `printImmediateInt16` (integer 16-bit operands): small integers (judged on all 32
/// bits), then the 32-bit float constants by name, else the low 16 bits in hex.
fn imm16i(v: u32) -> String {
    let s = v as i32;
    if (-16..=64).contains(&s) {
        return s.to_string();
    }
    let f = imm32(v);
    if f.contains('.') {
        return f;
    }
    hex((v & 0xffff) as u64)
}

const FLOAT_NAMES: [&str; 8] = ["0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"];
const HALF_BITS: [u16; 9] = [
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
];

/// How an inline constant or literal prints for an operand of type `t`.
fn constant(code: u16, t: Ty, lit: u32) -> String {
    let class = ConstClass::of(t);
    if code == opnd::LITERAL {
        return match class {
            ConstClass::B32 => imm32(lit),
            ConstClass::I64 => {
                if lit <= 64 {
                    lit.to_string()
                } else {
                    hex(lit as u64)
                }
            }
            ConstClass::F64 => {
                if lit == 0 {
                    "0".into()
                } else {
                    f64_hi_name(lit)
                        .map(str::to_string)
                        .unwrap_or_else(|| hex(lit as u64))
                }
            }
            ConstClass::F16 => imm16f(lit as u16),
            ConstClass::I16 => imm16i(lit),
            ConstClass::PkF16 => {
                // LLVM printImmediateV216: integers, 16-bit float constants, else 32-bit hex.
                if (-16..=64).contains(&(lit as i32)) {
                    (lit as i32).to_string()
                } else if let Some(n) = (lit <= 0xffff).then(|| half_name(lit as u16)).flatten() {
                    n.to_string()
                } else {
                    hex(lit as u64)
                }
            }
            ConstClass::PkI16 => imm32(lit),
            ConstClass::Bf16 => imm16bf(lit as u16),
            ConstClass::PkBf16 => {
                if (-16..=64).contains(&(lit as i32)) {
                    (lit as i32).to_string()
                } else if let Some(n) = (lit <= 0xffff).then(|| bf16_name(lit as u16)).flatten() {
                    n.to_string()
                } else {
                    hex(lit as u64)
                }
            }
        };
    }
    match code {
        128..=192 => (code as i32 - 128).to_string(),
        193..=208 => (192 - code as i32).to_string(),
        240..=247 => match class {
            ConstClass::I16 => imm16i(HALF_BITS[(code - 240) as usize] as u32),
            _ => FLOAT_NAMES[(code - 240) as usize].into(),
        },
        248 => match class {
            ConstClass::I64 | ConstClass::F64 => "0.15915494309189532".into(),
            ConstClass::I16 => "0x3118".into(),
            _ => "0.15915494".into(),
        },
        _ => sreg(code, 1),
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ConstClass {
    B32,
    I64,
    F64,
    F16,
    I16,
    PkF16,
    PkI16,
    Bf16,
    PkBf16,
}

impl ConstClass {
    fn of(t: Ty) -> ConstClass {
        match t {
            Ty::B64 | Ty::I64 | Ty::U64 => ConstClass::I64,
            Ty::F64 => ConstClass::F64,
            Ty::F16 => ConstClass::F16,
            Ty::B16 | Ty::I16 | Ty::U16 => ConstClass::I16,
            Ty::Bf16 => ConstClass::Bf16,
            Ty::PkF16 => ConstClass::PkF16,
            Ty::PkBf16 => ConstClass::PkBf16,
            Ty::PkI16 | Ty::PkU16 => ConstClass::PkI16,
            _ => ConstClass::B32,
        }
    }
}

#[inline]
fn is_const(code: u16) -> bool {
    (128..=208).contains(&code) || (240..=248).contains(&code) || code == opnd::LITERAL
}

/// A scalar or vector source of type `t` (register, inline constant or literal).
fn src(code: u16, t: Ty, lit: u32, wave64: bool) -> String {
    if is_const(code) {
        constant(code, t, lit)
    } else {
        reg(code, ty_dwords(t, wave64))
    }
}

/// Register width of an operand type; lane masks are a pair in wave64.
fn ty_dwords(t: Ty, wave64: bool) -> u32 {
    match t {
        Ty::Mask => {
            if wave64 {
                2
            } else {
                1
            }
        }
        _ => t.dwords() as u32,
    }
}

fn invalid_reg(class: &str) -> String {
    format!("/*Invalid register, operand has '{class}' register class*/")
}

const INVALID_IMM: &str = "/*Invalid immediate*/";

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

struct Printer<'a> {
    i: &'a Inst,
    w64: bool,
}

/// The type a SALU source prints as. LLVM 19 (gfx1150) gives the RDNA3.5 f16 instructions
/// operand classes other than f16 in its printer: the SOP1 ones print their source as a 32-bit
/// operand, the s_cmp_*_f16 ones as a 16-bit integer operand (inline float constants in hex,
/// `0xbc00`); the SOP2 f16 ones print as f16. Execution uses the table's f16 type.
fn salu_print_ty(op: Op, t: Ty) -> Ty {
    if t != Ty::F16 {
        return t;
    }
    match op.fmt() {
        Fmt::Sop1 => Ty::B32,
        Fmt::Sopc => Ty::I16,
        _ => t,
    }
}

/// Instructions whose SALU source is a register class (no constants): LLVM prints a constant
/// there with an "Invalid immediate" remark.
fn salu_src_reg_only(op: Op) -> bool {
    matches!(
        op,
        Op::S_MOVRELS_B32 | Op::S_MOVRELS_B64 | Op::S_SETPC_B64 | Op::S_RFE_B64
    )
}

impl Printer<'_> {
    fn name(&self) -> &'static str {
        self.i.op.name()
    }

    fn lit(&self) -> u32 {
        self.i.lit
    }

    // ---------------- scalar ----------------

    fn salu(&self) -> String {
        let i = self.i;
        let sig = i.op.sig();
        let mut ops: Vec<String> = Vec::new();
        if sig.dst[0] != Ty::None {
            ops.push(sreg(i.dst[0], ty_dwords(sig.dst[0], self.w64)));
        }
        for k in 0..sig.num_src() {
            let t = sig.src[k];
            if t == Ty::Sendmsg {
                ops.push(sendmsg(i.imm as u16));
                continue;
            }
            let c = i.src[k];
            if (i.op == Op::S_FMAMK_F32 && k == 1) || (i.op == Op::S_FMAAK_F32 && k == 2) {
                // The K constant prints in hex, as v_fmamk/v_fmaak's.
                ops.push(hex(self.lit() as u64));
                continue;
            }
            let mut s = src(c, salu_print_ty(i.op, t), self.lit(), self.w64);
            if is_const(c) && salu_src_reg_only(i.op) {
                s = if c == opnd::LITERAL {
                    imm32(self.lit())
                } else {
                    constant(c, Ty::B32, 0)
                };
                s.push_str(INVALID_IMM);
            } else if c == opnd::LDS_DIRECT {
                s.push_str(&invalid_reg("SReg_32"));
            }
            ops.push(s);
        }
        join(self.name(), &ops)
    }

    fn sopk(&self) -> String {
        let i = self.i;
        let op = i.op;
        let sig = op.sig();
        let imm = i.imm as u16;
        let name = self.name();
        match op {
            Op::S_VERSION => format!("{name} {}", version(imm)),
            Op::S_GETREG_B32 => format!("{name} {}, {}", sreg(i.dst[0], 1), hwreg(imm)),
            Op::S_SETREG_B32 => format!("{name} {}, {}", hwreg(imm), sreg(i.src[1], 1)),
            Op::S_SETREG_IMM32_B32 => format!("{name} {}, {}", hwreg(imm), imm32(self.lit())),
            _ => {
                let r = if sig.dst[0] != Ty::None {
                    sreg(i.dst[0], ty_dwords(sig.dst[0], self.w64))
                } else {
                    sreg(i.src[0], ty_dwords(sig.src[0], self.w64))
                };
                let v = if sig.src.contains(&Ty::Label) {
                    imm.to_string()
                } else {
                    hex(imm as u64)
                };
                format!("{name} {r}, {v}")
            }
        }
    }

    fn sopp(&self) -> String {
        let i = self.i;
        let imm = i.imm as u16;
        let name = self.name();
        match i.op.sig().src[0] {
            Ty::None => {
                if i.op == Op::S_ENDPGM && imm != 0 {
                    format!("{name} {imm}")
                } else {
                    name.to_string()
                }
            }
            Ty::Label => format!("{name} {imm}"),
            Ty::Imm16 => format!("{name} {}", hex(imm as u64)),
            Ty::Imm16Inline | Ty::Simm16 => format!("{name} {}", imm32(imm as u32)),
            Ty::Waitcnt => format!("{name} {}", waitcnt(imm)),
            Ty::DelayAlu => format!("{name} {}", delay_alu(imm)),
            Ty::Sendmsg => format!("{name} {}", sendmsg(imm)),
            Ty::Depctr => format!("{name} {}", depctr(imm)),
            Ty::Hwreg => format!("{name} {}", hwreg(imm)),
            _ => format!("{name} {}", hex(imm as u64)),
        }
    }

    fn smem(&self) -> String {
        let i = self.i;
        let op = i.op;
        let sig = op.sig();
        let name = self.name();
        if sig.num_src() == 0 {
            return name.to_string();
        }
        let mut ops = Vec::new();
        let base_ty = if sig.src[0] == Ty::Simm16 {
            ops.push(imm32(i.imm2));
            sig.src[1]
        } else {
            let dwd = ty_dwords(sig.dst[0], false);
            let mut d = sreg(i.dst[0], dwd);
            d.push_str(&smem_dst_remark(i.dst[0], dwd));
            ops.push(d);
            sig.src[0]
        };
        let bd = base_ty.dwords() as u32;
        let mut b = sreg(i.src[0], bd);
        if bd == 4
            && !(i.src[0] <= 105 || (108..=123).contains(&i.src[0]) || i.src[0] == opnd::NULL)
        {
            b.push_str(&invalid_reg("SReg_128"));
        }
        ops.push(b);
        let off = i.imm;
        let soff = i.src[1];
        let offs = if off < 0 {
            format!("-{:#x}", -(off as i64))
        } else {
            format!("{off:#x}")
        };
        let mut last = if soff == opnd::NULL {
            if off == 0 {
                "null".to_string()
            } else {
                offs
            }
        } else {
            let mut t = sreg(soff, 1);
            if off != 0 {
                let _ = write!(t, " offset:{offs}");
            }
            t
        };
        if i.flags & iflags::GLC != 0 {
            last.push_str(" glc");
        }
        if i.flags & iflags::DLC != 0 {
            last.push_str(" dlc");
        }
        ops.push(last);
        join(name, &ops)
    }

    // ---------------- vector ALU ----------------

    /// A VALU source with float input modifiers.
    fn src_fmods(&self, k: usize, t: Ty, code: u16) -> String {
        let base = src(code, t, self.lit(), self.w64);
        self.wrap_mods(k, base, is_const(code))
    }

    /// A VALU source with integer input modifiers (`sext`).
    fn src_imods(&self, k: usize, t: Ty, code: u16) -> String {
        let base = src(code, t, self.lit(), self.w64);
        if self.i.neg >> k & 1 != 0 {
            format!("sext({base})")
        } else {
            base
        }
    }

    fn vop_e32(&self) -> String {
        let i = self.i;
        let op = i.op;
        let sig = op.sig();
        if op == Op::V_MOV_B16 {
            return self.mov_b16();
        }
        let single = op.info().flags & crate::isa::flags::NO_VOP3 != 0
            || is_fmak(op)
            || matches!(op, Op::V_NOP | Op::V_PIPEFLUSH);
        let dpp = i.dpp != Dpp::None;
        let mut name = self.name().to_string();
        if dpp {
            if i.enc != Enc::Vopc {
                name.push_str("_dpp");
            }
        } else if !single {
            name.push_str("_e32");
        }
        let n = sig.num_src();
        if sig.dst[0] == Ty::None && n == 0 && sig.dst[1] == Ty::None {
            return name;
        }
        let sixteen = |t: Ty| t.is_16bit();
        let mut ops: Vec<String> = Vec::new();
        // Destinations.
        match i.enc {
            Enc::Vopc => {
                if sig.dst[0] == Ty::Mask {
                    ops.push(sreg(opnd::VCC_LO, ty_dwords(Ty::Mask, self.w64)));
                }
            }
            _ => {
                if sig.dst[0] != Ty::None {
                    ops.push(if op == Op::V_READFIRSTLANE_B32 {
                        lane_read_dst(i.dst[0])
                    } else {
                        reg(i.dst[0], ty_dwords(sig.dst[0], self.w64))
                    });
                }
                if sig.dst[1] == Ty::Mask {
                    ops.push(sreg(opnd::VCC_LO, ty_dwords(Ty::Mask, self.w64)));
                }
            }
        }
        // Sources.
        let kpos = match op {
            Op::V_FMAMK_F32 | Op::V_FMAMK_F16 => 1,
            Op::V_FMAAK_F32 | Op::V_FMAAK_F16 => 2,
            _ => usize::MAX,
        };
        for k in 0..n {
            let t = sig.src[k];
            let code = i.src[k];
            if t == Ty::Mask {
                ops.push(sreg(opnd::VCC_LO, ty_dwords(Ty::Mask, self.w64)));
                continue;
            }
            if k == kpos {
                // The K constant prints as the raw 32-bit literal.
                ops.push(hex(self.lit() as u64));
                continue;
            }
            if op == Op::V_READFIRSTLANE_B32 {
                ops.push(reg_class_src(code, self.lit(), "VRegOrLds_32"));
                continue;
            }
            if vgpr_only_src(op) {
                ops.push(reg_class_src(code, self.lit(), "VGPR_32"));
                continue;
            }
            let mut s = if dpp && k < 2 {
                if decode::dpp_e32_mods(op).1 >> k & 1 != 0 {
                    self.src_imods(k, t, code)
                } else {
                    self.src_fmods(k, t, code)
                }
            } else {
                src(code, t, self.lit(), self.w64)
            };
            // 16-bit compares (incl. v_cmp_class_f16's u32 mask operand) are Lo128 throughout.
            let lo = if i.enc == Enc::Vopc { sig.src[0] } else { t };
            if sixteen(lo) && lo128_bad(code) {
                let class = if k == 0 && !dpp {
                    "VS_32_Lo128"
                } else {
                    "VGPR_32_Lo128"
                };
                // The remark goes inside |...| of an abs source.
                let r = invalid_reg(class);
                if s.ends_with('|') {
                    s.pop();
                    s.push_str(&r);
                    s.push('|');
                } else {
                    s.push_str(&r);
                }
            }
            ops.push(s);
        }
        let mut s = join(&name, &ops);
        s.push_str(&self.dpp_suffix());
        s
    }

    /// v_mov_b16 is a true16 instruction: 16-bit register halves print as `vN.l` / `vN.h`
    /// (bit 7 of an 8-bit VGPR field selects the high half).
    fn mov_b16(&self) -> String {
        let i = self.i;
        let dpp = i.dpp != Dpp::None;
        let half = |code: u16| {
            let n = code - opnd::VGPR0;
            format!("v{}.{}", n & 0x7f, if n & 0x80 != 0 { 'h' } else { 'l' })
        };
        let d = half(i.dst[0]);
        let code = i.src[0];
        let sv = if opnd::is_vgpr(code) {
            let h = half(code);
            if dpp && i.neg & 1 != 0 {
                format!("sext({h})")
            } else {
                h
            }
        } else if dpp {
            self.src_imods(0, Ty::B16, code)
        } else {
            src(code, Ty::B16, self.lit(), self.w64)
        };
        let name = if dpp {
            "v_mov_b16_dpp"
        } else {
            "v_mov_b16_e32"
        };
        let mut s = format!("{name} {d}, {sv}");
        s.push_str(&self.dpp_suffix());
        s
    }

    /// Applies src k's neg/abs modifiers to already-printed operand text.
    fn wrap_mods(&self, k: usize, base: String, is_imm: bool) -> String {
        let neg = self.i.neg >> k & 1 != 0;
        let abs = self.i.abs >> k & 1 != 0;
        mods_text(base, neg, abs, is_imm)
    }

    fn dpp_suffix(&self) -> String {
        match self.i.dpp {
            Dpp::None => String::new(),
            Dpp::Dpp8 { sel, fi } => {
                let mut s = String::from(" dpp8:[");
                for k in 0..8 {
                    if k > 0 {
                        s.push(',');
                    }
                    let _ = write!(s, "{}", sel >> (3 * k) & 7);
                }
                s.push(']');
                if fi {
                    s.push_str(" fi:1");
                }
                s
            }
            Dpp::Dpp16 {
                ctrl,
                row_mask,
                bank_mask,
                bound_ctrl,
                fi,
            } => {
                let mut s = String::from(" ");
                s.push_str(&dpp_ctrl(ctrl));
                let _ = write!(s, " row_mask:{row_mask:#x} bank_mask:{bank_mask:#x}");
                if bound_ctrl {
                    s.push_str(" bound_ctrl:1");
                }
                if fi {
                    s.push_str(" fi:1");
                }
                s
            }
        }
    }

    fn vop3(&self) -> String {
        let i = self.i;
        let op = i.op;
        let sig = op.sig();
        let m = decode::vop3_mods(op);
        let promoted = matches!(op.fmt(), Fmt::Vop1 | Fmt::Vop2 | Fmt::Vopc);
        let dpp = i.dpp != Dpp::None;
        let mut name = self.name().to_string();
        if (promoted || dpp) && !matches!(op, Op::V_NOP | Op::V_PIPEFLUSH) {
            name.push_str("_e64");
        }
        if dpp {
            name.push_str("_dpp");
        }
        let n = sig.num_src();
        let mut ops: Vec<String> = Vec::new();
        if op.fmt() == Fmt::Vopc {
            if sig.dst[0] == Ty::Mask {
                ops.push(self.mask_dst(i.dst[1]));
            }
        } else {
            if sig.dst[0] != Ty::None {
                let dwd = ty_dwords(sig.dst[0], self.w64);
                ops.push(if op == Op::V_READLANE_B32 {
                    lane_read_dst(i.dst[0])
                } else {
                    reg(i.dst[0], dwd)
                });
            }
            if sig.dst[1] == Ty::Mask {
                ops.push(self.mask_reg(i.dst[1]));
            }
        }
        for k in 0..n {
            let mut t = sig.src[k];
            // The exponent of v_ldexp_f16_e64 prints constants as f16.
            if op == Op::V_LDEXP_F16 {
                t = Ty::F16;
            }
            let code = i.src[k];
            let s = if let Some(class) = vop3_vgpr_class(op, k) {
                reg_class_src(code, self.lit(), class)
            } else if let Some(class) = vop3_sgpr_class(op, k) {
                let mut s = src(code, t, self.lit(), self.w64);
                if opnd::is_vgpr(code) {
                    s.push_str(&invalid_reg(class));
                }
                s
            } else if t.dwords() > 2 && is_const(code) {
                // VGPR tuples wider than 64 bits take no constants.
                format!("{}{INVALID_IMM}", src(code, Ty::B32, self.lit(), self.w64))
            } else if t == Ty::Mask {
                self.mask_src(code)
            } else if m.fmods >> k & 1 != 0 {
                self.src_fmods(k, t, code)
            } else if m.imods >> k & 1 != 0 || (dpp && m.ign_mods) {
                self.src_imods(k, t, code)
            } else {
                src(code, t, self.lit(), self.w64)
            };
            ops.push(s);
        }
        let mut s = join(&name, &ops);
        if m.op_sel != 0 {
            s.push_str(&self.op_sel_text(&m));
        }
        if i.clamp {
            s.push_str(" clamp");
        }
        match i.omod {
            1 => s.push_str(" mul:2"),
            2 => s.push_str(" mul:4"),
            3 => s.push_str(" div:2"),
            _ => {}
        }
        s.push_str(&self.dpp_suffix());
        s
    }

    /// A lane-mask source (carry-in, v_cndmask select): an SGPR (pair) other than EXEC;
    /// anything else prints with LLVM's remark.
    fn mask_src(&self, code: u16) -> String {
        if is_const(code) {
            let v = if code == opnd::LITERAL {
                imm32(self.lit())
            } else {
                constant(code, Ty::B32, 0)
            };
            return format!("{v}{INVALID_IMM}");
        }
        let mut s = if opnd::is_vgpr(code) {
            reg(code, ty_dwords(Ty::Mask, self.w64))
        } else {
            self.mask_reg(code)
        };
        if opnd::is_vgpr(code) || matches!(code, opnd::EXEC_LO | opnd::EXEC_HI) {
            s.push_str(&invalid_reg("SReg_1_XEXEC"));
        }
        s
    }

    /// A scalar lane-mask register: one SGPR in wave32, an SGPR pair in wave64, where LLVM
    /// decodes the field as a 64-bit register and drops bit 0 of an odd SGPR/TTMP number.
    fn mask_reg(&self, code: u16) -> String {
        let code = match code {
            0..=105 if self.w64 => code & !1,
            108..=123 if self.w64 => opnd::TTMP0 + ((code - opnd::TTMP0) & !1),
            _ => code,
        };
        sreg(code, ty_dwords(Ty::Mask, self.w64))
    }

    /// A lane-mask destination of VOPC e64 / VOP3SD: constants print with a remark.
    fn mask_dst(&self, code: u16) -> String {
        if is_const(code) {
            format!("{}{INVALID_IMM}", constant(code, Ty::B32, 0))
        } else {
            self.mask_reg(code)
        }
    }

    fn op_sel_text(&self, m: &decode::Vop3Mods) -> String {
        let i = self.i;
        let n = i.op.sig().num_src();
        // The decoder keeps every encoded op_sel bit; LLVM prints only the ones the op has.
        let sel = i.op_sel & m.op_sel;
        if sel == 0 {
            return String::new();
        }
        if matches!(i.op, Op::V_PERMLANE16_B32 | Op::V_PERMLANEX16_B32) {
            return format!(" op_sel:[{},{}]", sel & 1, sel >> 1 & 1);
        }
        // v_fmac_f16's op_sel also has a slot for its tied accumulator.
        let n = if i.op == Op::V_FMAC_F16 { 3 } else { n };
        let mut s = String::from(" op_sel:[");
        for k in 0..n {
            let _ = write!(s, "{},", sel >> k & 1);
        }
        if m.op_sel & 8 != 0 {
            let _ = write!(s, "{}", sel >> 3 & 1);
        } else {
            s.pop();
        }
        s.push(']');
        s
    }

    fn vop3p(&self) -> String {
        let i = self.i;
        let op = i.op;
        let sig = op.sig();
        let n = sig.num_src();
        let dpp = i.dpp != Dpp::None;
        let mut name = self.name().to_string();
        if dpp {
            name.push_str("_e64_dpp");
        }
        let mix = decode::is_fma_mix(op);
        let wmma = decode::is_wmma(op);
        let dst_dwords = if wmma {
            decode::wmma_acc_dwords(self.w64) as u32
        } else {
            ty_dwords(sig.dst[0], self.w64)
        };
        let mut ops: Vec<String> = vec![reg(i.dst[0], dst_dwords)];
        for k in 0..n {
            let t = sig.src[k];
            let code = i.src[k];
            let text = if mix {
                // v_fma_mix*: VOP3-style modifiers (neg_lo = neg, neg_hi = abs). Their DPP form
                // takes a VGPR src1.
                let mut base = src(code, t, self.lit(), self.w64);
                if dpp && k == 1 {
                    if code == opnd::LITERAL {
                        // Not an operand of the (VGPR) class: printed as a plain 32-bit value.
                        base = imm32(self.lit());
                    }
                    if is_const(code) {
                        base.push_str(INVALID_IMM);
                    } else if !opnd::is_vgpr(code) && !is_inline_value(code) {
                        base.push_str(&invalid_reg("VGPR_32"));
                    }
                }
                let neg = i.neg >> k & 1 != 0;
                let abs = i.neg_hi >> k & 1 != 0;
                mods_text(base, neg, abs, is_const(code))
            } else if wmma {
                self.wmma_src(k, t, code)
            } else {
                src(code, t, self.lit(), self.w64)
            };
            ops.push(text);
        }
        let mut s = join(&name, &ops);
        let mask = (1u8 << n) - 1;
        let list = |v: u8| {
            let mut t = String::from("[");
            for k in 0..n {
                if k > 0 {
                    t.push(',');
                }
                let _ = write!(t, "{}", v >> k & 1);
            }
            t.push(']');
            t
        };
        if i.op_sel & mask != 0 {
            let _ = write!(s, " op_sel:{}", list(i.op_sel));
        }
        // Packed math defaults op_sel_hi to all ones; the mix ops (not packed) to zeros; the
        // 32-bit-accumulator WMMAs have no op_sel_hi at all.
        let hi_default = if mix { 0 } else { mask };
        if (!wmma || decode::wmma_has_op_sel(op)) && i.op_sel_hi & mask != hi_default {
            let _ = write!(s, " op_sel_hi:{}", list(i.op_sel_hi));
        }
        if !mix {
            if i.neg & mask != 0 {
                let _ = write!(s, " neg_lo:{}", list(i.neg));
            }
            if i.neg_hi & mask != 0 {
                let _ = write!(s, " neg_hi:{}", list(i.neg_hi));
            }
        }
        if i.clamp {
            s.push_str(" clamp");
        }
        s.push_str(&self.dpp_suffix());
        s
    }

    /// A WMMA source: matrices live in VGPR tuples, so constants and SGPRs get remarks (src2, the
    /// accumulator, also accepts inline constants).
    fn wmma_src(&self, k: usize, t: Ty, code: u16) -> String {
        let dwd = ty_dwords(t, self.w64);
        if k == 2 {
            if code == opnd::LITERAL {
                // LLVM's wave32 decoder does not attach the literal to the accumulator operand
                // (it prints 0); the wave64 one does.
                return if self.w64 {
                    imm32(self.lit())
                } else {
                    "0x0".into()
                };
            }
            if code == opnd::INV_2PI && !self.w64 {
                // The 256-bit wave32 accumulator prints 1/(2*pi) with 64-bit precision.
                return constant(code, Ty::F64, 0);
            }
            if is_const(code) {
                return constant(code, wmma_acc_ty(self.i.op), self.lit());
            }
            let acc = decode::wmma_acc_dwords(self.w64) as u32;
            let mut r = reg(code, acc);
            if !opnd::is_vgpr(code) && !is_inline_value(code) {
                r.push_str(&invalid_reg(&format!("VReg_{}", acc * 32)));
            }
            return r;
        }
        if is_const(code) {
            let v = if code == opnd::LITERAL {
                imm32(self.lit())
            } else {
                constant(code, Ty::B32, 0)
            };
            return format!("{v}{INVALID_IMM}");
        }
        let mut r = reg(code, dwd);
        if !opnd::is_vgpr(code) && !is_inline_value(code) {
            r.push_str(&invalid_reg(&format!("VReg_{}", dwd * 32)));
        }
        r
    }

    fn vopd(&self) -> String {
        let i = self.i;
        let half = |op: Op, d: u16, s0: u16, s1: u16| -> String {
            let name = format!("v_dual_{}", &op.name()[2..]);
            let lit = self.lit();
            // With a K-constant op in the pair LLVM decodes the shared literal as a 32-bit
            // value for both halves; otherwise it follows the op's type (packed f16 for dot2acc).
            let has_k = [i.op, i.op_y]
                .iter()
                .any(|o| matches!(o, Op::V_FMAAK_F32 | Op::V_FMAMK_F32));
            let t = if has_k { Ty::B32 } else { op.sig().src[0] };
            let a = src(s0, t, lit, self.w64);
            let k = hex(lit as u64);
            let b = vreg(s1, 1);
            let d = vreg(d, 1);
            match op {
                Op::V_MOV_B32 => format!("{name} {d}, {a}"),
                Op::V_FMAMK_F32 => format!("{name} {d}, {a}, {k}, {b}"),
                Op::V_FMAAK_F32 => format!("{name} {d}, {a}, {b}, {k}"),
                _ => format!("{name} {d}, {a}, {b}"),
            }
        };
        format!(
            "{} :: {}",
            half(i.op, i.dst[0], i.src[0], i.src[1]),
            half(i.op_y, i.dst[1], i.src[2], i.src[3])
        )
    }

    fn vinterp(&self) -> String {
        let i = self.i;
        let sig = i.op.sig();
        let mut ops = vec![vreg(i.dst[0], 1)];
        for k in 0..3 {
            let code = i.src[k];
            // The remark goes right after the operand, inside neg(...) for constants.
            let t = sig.src[k];
            let neg = i.neg >> k & 1 != 0;
            let s = if is_const(code) {
                let v = if code == opnd::LITERAL {
                    imm32(self.lit())
                } else {
                    src(code, t, 0, self.w64)
                };
                let c = format!("{v}{INVALID_IMM}");
                if neg {
                    format!("neg({c})")
                } else {
                    c
                }
            } else {
                let mut r = reg(code, 1);
                if !opnd::is_vgpr(code) && !is_inline_value(code) {
                    r.push_str(&invalid_reg("VGPR_32"));
                }
                if neg {
                    format!("-{r}")
                } else {
                    r
                }
            };
            ops.push(s);
        }
        let mut s = join(self.name(), &ops);
        if i.clamp {
            s.push_str(" clamp");
        }
        if i.op_sel != 0 {
            let _ = write!(
                s,
                " op_sel:[{},{},{},{}]",
                i.op_sel & 1,
                i.op_sel >> 1 & 1,
                i.op_sel >> 2 & 1,
                i.op_sel >> 3 & 1
            );
        }
        let _ = write!(s, " wait_exp:{}", i.imm);
        s
    }

    fn ldsdir(&self) -> String {
        let i = self.i;
        let d = vreg(i.dst[0], 1);
        if i.op == Op::LDS_PARAM_LOAD {
            format!(
                "{} {d}, attr{}.{} wait_vdst:{}",
                self.name(),
                i.imm2 >> 2,
                ['x', 'y', 'z', 'w'][(i.imm2 & 3) as usize],
                i.imm
            )
        } else {
            format!("{} {d} wait_vdst:{}", self.name(), i.imm)
        }
    }

    // ---------------- memory ----------------

    fn ds(&self) -> String {
        let i = self.i;
        let sig = i.op.sig();
        let name = self.name();
        let mut ops: Vec<String> = Vec::new();
        if sig.dst[0] != Ty::None {
            ops.push(vreg(i.dst[0], ty_dwords(sig.dst[0], false)));
        }
        if decode::ds_has_addr(i.op) {
            ops.push(vreg(i.src[0], 1));
        }
        for k in 0..sig.num_src() {
            ops.push(vreg(i.src[1 + k], ty_dwords(sig.src[k], false)));
        }
        let mut s = join(name, &ops);
        let off = i.imm as u32;
        if name.contains("2addr") {
            let (o0, o1) = (off & 0xff, off >> 8 & 0xff);
            if o0 != 0 {
                let _ = write!(s, " offset0:{o0}");
            }
            if o1 != 0 {
                let _ = write!(s, " offset1:{o1}");
            }
        } else if i.op == Op::DS_SWIZZLE_B32 {
            s.push_str(&swizzle(off as u16));
        } else if off != 0 {
            let _ = write!(s, " offset:{off}");
        }
        if i.flags & iflags::GDS != 0 {
            s.push_str(" gds");
        }
        s
    }

    fn flat(&self) -> String {
        let i = self.i;
        let sig = i.op.sig();
        let name = self.name();
        let mut ops: Vec<String> = Vec::new();
        if sig.dst[0] != Ty::None && decode::returns_data(i) {
            ops.push(vreg(i.dst[0], ty_dwords(sig.dst[0], false)));
        }
        let saddr = i.src[2];
        let addr = match i.enc {
            Enc::Scratch => {
                if i.flags & iflags::SVE != 0 {
                    vreg(i.src[0], 1)
                } else {
                    "off".into()
                }
            }
            Enc::Global if saddr != opnd::NULL => vreg(i.src[0], 1),
            _ => vreg(i.src[0], 2),
        };
        if decode::flat_has_vaddr(i.op) {
            ops.push(addr);
        }
        if sig.num_src() > 0 {
            ops.push(vreg(i.src[1], ty_dwords(sig.src[0], false)));
        }
        match i.enc {
            Enc::Global => ops.push(if saddr == opnd::NULL {
                "off".into()
            } else {
                sreg(saddr, 2)
            }),
            Enc::Scratch => ops.push(if saddr == opnd::NULL {
                "off".into()
            } else if saddr == opnd::EXEC_HI {
                format!("exec_hi{}", invalid_reg("SReg_32_XEXEC_HI"))
            } else {
                sreg(saddr, 1)
            }),
            _ => {}
        }
        let mut s = join(name, &ops);
        if i.imm != 0 {
            let _ = write!(s, " offset:{}", i.imm);
        }
        cache_bits(&mut s, i.flags);
        s
    }

    fn buffer(&self) -> String {
        let i = self.i;
        let sig = i.op.sig();
        let name = self.name();
        let data_ty = if sig.dst[0] != Ty::None {
            sig.dst[0]
        } else {
            sig.src[0]
        };
        if sig.dst[0] == Ty::None && sig.num_src() == 0 && !name.contains("_lds_") {
            return name.to_string();
        }
        let mut ops: Vec<String> = Vec::new();
        let mut dwd = ty_dwords(data_ty, false);
        if sig.src[0] != Ty::None && sig.dst[0] != Ty::None {
            // Atomics print the (wider) data operand.
            dwd = ty_dwords(sig.src[0], false);
        }
        if i.flags & iflags::TFE != 0 {
            dwd += 1;
        }
        if data_ty != Ty::None {
            ops.push(vreg(i.src[1], dwd));
        }
        let addr = match (i.flags & iflags::OFFEN != 0, i.flags & iflags::IDXEN != 0) {
            (true, true) => vreg(i.src[0], 2),
            (false, false) => "off".into(),
            _ => vreg(i.src[0], 1),
        };
        ops.push(addr);
        ops.push(sreg(i.src[2], 4));
        let mut soffset = src(i.src[3], Ty::B32, self.lit(), false);
        if i.src[3] == opnd::LDS_DIRECT {
            // LDS_DIRECT is a source code but not a register of soffset's class.
            soffset.push_str(&invalid_reg("SReg_32"));
        }
        ops.push(soffset);
        let mut s = join(name, &ops);
        if i.enc == Enc::Mtbuf && i.imm2 != 1 {
            match BUF_FORMATS.get(i.imm2 as usize) {
                Some(n) => {
                    let _ = write!(s, " format:[BUF_FMT_{n}]");
                }
                None => {
                    let _ = write!(s, " format:{}", i.imm2);
                }
            }
        }
        if i.flags & iflags::IDXEN != 0 {
            s.push_str(" idxen");
        }
        if i.flags & iflags::OFFEN != 0 {
            s.push_str(" offen");
        }
        if i.imm != 0 {
            let _ = write!(s, " offset:{}", i.imm);
        }
        cache_bits(&mut s, i.flags);
        if i.flags & iflags::TFE != 0 {
            s.push_str(" tfe");
        }
        s
    }

    fn mimg(&self) -> String {
        let i = self.i;
        let name = self.name();
        let info = decode::MimgOpInfo::of(i.op);
        let dmask = i.imm2 & 0xf;
        let dim = i.imm2 >> 4 & 7;
        let nsa = i.flags & iflags::NSA != 0;
        let a16 = i.flags & iflags::A16 != 0;
        let nsa_reg = |k: u32| opnd::vgpr(i.lit >> (8 * (k - 1)) & 0xff);
        if let decode::MimgKind::Bvh { is64 } = info.kind {
            let addr = if nsa {
                let v: Vec<String> = decode::bvh_nsa_widths(is64, a16)
                    .iter()
                    .enumerate()
                    .map(|(k, &n)| {
                        let r = if k == 0 { i.src[0] } else { nsa_reg(k as u32) };
                        vreg(r, n)
                    })
                    .collect();
                format!("[{}]", v.join(", "))
            } else {
                vreg(i.src[0], i.imm as u32)
            };
            let mut s = join(name, &[vreg(i.dst[0], 4), addr, sreg(i.src[1], 4)]);
            if a16 {
                s.push_str(" a16");
            }
            return s;
        }
        let (data, addr) = mimg_llvm_widths(i, &info);
        let mut ops: Vec<String> = vec![vreg(i.dst[0], info.llvm_data_regs(data))];
        if nsa {
            // Up to five address operands; the fifth holds all remaining address VGPRs.
            let n = addr.min(5);
            let mut v = vec![vreg(i.src[0], 1)];
            for k in 1..n {
                let width = if k == 4 { addr - 4 } else { 1 };
                v.push(vreg(nsa_reg(k), width));
            }
            ops.push(format!("[{}]", v.join(", ")));
        } else {
            ops.push(vreg(i.src[0], addr));
        }
        ops.push(sreg(i.src[1], 8));
        if info.sampler() {
            ops.push(sreg(i.src[2], 4));
        }
        // LLVM's NSA sampler syntax has an extra space after the mnemonic.
        let mut s = if info.sampler() && nsa {
            format!("{name}  {}", ops.join(", "))
        } else {
            join(name, &ops)
        };
        if dmask != 0 {
            let _ = write!(s, " dmask:{dmask:#x}");
        }
        let _ = write!(s, " dim:SQ_RSRC_IMG_{}", DIMS[dim as usize & 7]);
        if i.flags & iflags::UNORM != 0 {
            s.push_str(" unorm");
        }
        cache_bits(&mut s, i.flags);
        if i.flags & iflags::R128 != 0 {
            s.push_str(" r128");
        }
        if a16 {
            s.push_str(" a16");
        }
        if i.flags & iflags::TFE != 0 {
            s.push_str(" tfe");
        }
        if i.flags & iflags::LDS != 0 {
            s.push_str(" lwe");
        }
        if i.flags & iflags::D16 != 0 {
            s.push_str(" d16");
        }
        s
    }

    fn exp(&self) -> String {
        let i = self.i;
        let tgt = i.imm as u32;
        let t = exp_target(tgt);
        let mut ops = Vec::new();
        for k in 0..4 {
            ops.push(if i.imm2 >> k & 1 != 0 {
                vreg(i.src[k], 1)
            } else {
                "off".into()
            });
        }
        let mut s = format!("exp {t} {}", ops.join(", "));
        if i.flags & iflags::DONE != 0 {
            s.push_str(" done");
        }
        if i.flags & iflags::ROW != 0 {
            s.push_str(" row_en");
        }
        s
    }
}

/// The data and address widths LLVM 19 prints for an image instruction (its `convertMIMGInst`):
/// the decoder tables hold one form per opcode (default widths); it is widened to the sizes the
/// dmask/d16/tfe and dimension/a16 fields call for only if LLVM has a variant of exactly those
/// sizes and the widened register tuples stay within v0-v255. Otherwise the default widths are
/// printed, whatever the hardware reads.
fn mimg_llvm_widths(i: &Inst, info: &decode::MimgOpInfo) -> (u32, u32) {
    let nsa = i.flags & iflags::NSA != 0;
    let def_data = info.llvm_default_data();
    let def_addr = info.llvm_default_addr(nsa);
    let data = i.imm2 >> 8 & 0xff;
    let mut addr = i.imm as u32;
    if !nsa && addr > 12 {
        addr = 16;
    }
    // With non-sequential addresses, more than the default count means the last address
    // operand becomes a tuple ("partial NSA").
    let partial = nsa && addr > def_addr;
    if data == def_data && addr == def_addr {
        return (def_data, def_addr);
    }
    if info.llvm_data_variants() >> data & 1 == 0 || info.llvm_addr_variants(nsa) >> addr & 1 == 0 {
        return (def_data, def_addr);
    }
    let vdata = (i.dst[0] - opnd::VGPR0) as u32;
    if data != def_data && vdata + info.llvm_data_regs(data) - 1 > 255 {
        return (def_data, def_addr);
    }
    if addr != def_addr && (!nsa || partial) {
        let (first, width) = if partial {
            (i.lit >> 24 & 0xff, addr - 4)
        } else {
            ((i.src[0] - opnd::VGPR0) as u32, addr)
        };
        if first + width - 1 > 255 {
            return (def_data, def_addr);
        }
    }
    (data, addr)
}

/// gfx11 unified buffer formats 0-63 (MTBUF `format`); 1 is the default and not printed.
const BUF_FORMATS: [&str; 64] = [
    "INVALID",
    "8_UNORM",
    "8_SNORM",
    "8_USCALED",
    "8_SSCALED",
    "8_UINT",
    "8_SINT",
    "16_UNORM",
    "16_SNORM",
    "16_USCALED",
    "16_SSCALED",
    "16_UINT",
    "16_SINT",
    "16_FLOAT",
    "8_8_UNORM",
    "8_8_SNORM",
    "8_8_USCALED",
    "8_8_SSCALED",
    "8_8_UINT",
    "8_8_SINT",
    "32_UINT",
    "32_SINT",
    "32_FLOAT",
    "16_16_UNORM",
    "16_16_SNORM",
    "16_16_USCALED",
    "16_16_SSCALED",
    "16_16_UINT",
    "16_16_SINT",
    "16_16_FLOAT",
    "10_11_11_FLOAT",
    "11_11_10_FLOAT",
    "10_10_10_2_UNORM",
    "10_10_10_2_SNORM",
    "10_10_10_2_UINT",
    "10_10_10_2_SINT",
    "2_10_10_10_UNORM",
    "2_10_10_10_SNORM",
    "2_10_10_10_USCALED",
    "2_10_10_10_SSCALED",
    "2_10_10_10_UINT",
    "2_10_10_10_SINT",
    "8_8_8_8_UNORM",
    "8_8_8_8_SNORM",
    "8_8_8_8_USCALED",
    "8_8_8_8_SSCALED",
    "8_8_8_8_UINT",
    "8_8_8_8_SINT",
    "32_32_UINT",
    "32_32_SINT",
    "32_32_FLOAT",
    "16_16_16_16_UNORM",
    "16_16_16_16_SNORM",
    "16_16_16_16_USCALED",
    "16_16_16_16_SSCALED",
    "16_16_16_16_UINT",
    "16_16_16_16_SINT",
    "16_16_16_16_FLOAT",
    "32_32_32_UINT",
    "32_32_32_SINT",
    "32_32_32_FLOAT",
    "32_32_32_32_UINT",
    "32_32_32_32_SINT",
    "32_32_32_32_FLOAT",
];

const DIMS: [&str; 8] = [
    "1D",
    "2D",
    "3D",
    "CUBE",
    "1D_ARRAY",
    "2D_ARRAY",
    "2D_MSAA",
    "2D_MSAA_ARRAY",
];

fn is_fmak(op: Op) -> bool {
    matches!(
        op,
        Op::V_FMAMK_F32 | Op::V_FMAAK_F32 | Op::V_FMAMK_F16 | Op::V_FMAAK_F16
    )
}

/// VOP3 sources that are VGPR classes (lane reads/permutes, VGPR moves).
fn vop3_vgpr_class(op: Op, k: usize) -> Option<&'static str> {
    match (op, k) {
        (Op::V_READLANE_B32 | Op::V_PERMLANE16_B32 | Op::V_PERMLANEX16_B32, 0) => Some("VGPR_32"),
        _ if vgpr_only_src(op) => Some("VGPR_32"),
        _ => None,
    }
}

/// VOP3 sources that are scalar classes (lane selects, v_writelane's data).
fn vop3_sgpr_class(op: Op, k: usize) -> Option<&'static str> {
    match (op, k) {
        (Op::V_WRITELANE_B32, 0) => Some("SRegOrLds_32"),
        (Op::V_READLANE_B32 | Op::V_WRITELANE_B32, 1) => Some("SReg_32"),
        (Op::V_PERMLANE16_B32 | Op::V_PERMLANEX16_B32, 1 | 2) => Some("SReg_32"),
        _ => None,
    }
}

/// VOP1 instructions whose source is a VGPR class (data movement within the VGPR file).
fn vgpr_only_src(op: Op) -> bool {
    matches!(
        op,
        Op::V_MOVRELS_B32
            | Op::V_MOVRELSD_B32
            | Op::V_MOVRELSD_2_B32
            | Op::V_SWAP_B32
            | Op::V_SWAPREL_B32
            | Op::V_PERMLANE64_B32
    )
}

/// A source whose operand class only admits registers of `class` (v_readfirstlane_b32:
/// VRegOrLds_32; v_movrels*/v_swap*: VGPR_32): SGPRs get a register remark, constants an
/// immediate remark; null and the src_* values are accepted as inline values.
fn reg_class_src(code: u16, lit: u32, class: &str) -> String {
    if opnd::is_vgpr(code) {
        return vreg(code, 1);
    }
    if is_const(code) {
        let v = if code == opnd::LITERAL {
            imm32(lit)
        } else {
            constant(code, Ty::B32, 0)
        };
        return format!("{v}{INVALID_IMM}");
    }
    let r = sreg(code, 1);
    if is_inline_value(code) || (code == opnd::LDS_DIRECT && class == "VRegOrLds_32") {
        r
    } else {
        format!("{r}{}", invalid_reg(class))
    }
}

/// Registers LLVM treats as inline values (never "invalid" for a register class).
fn is_inline_value(code: u16) -> bool {
    matches!(code, opnd::NULL | 235..=239 | 251..=253)
}

/// The SGPR destination of v_readfirstlane_b32 / v_readlane_b32 (see the decoder): constants
/// and src_lds_direct print with LLVM's remarks.
fn lane_read_dst(code: u16) -> String {
    if is_const(code) {
        format!("{}{INVALID_IMM}", constant(code, Ty::B32, 0))
    } else if code == opnd::LDS_DIRECT {
        format!("{}{}", sreg(code, 1), invalid_reg("SReg_32"))
    } else {
        sreg(code, 1)
    }
}

/// True16-era LLVM gives 16-bit e32 operands a "Lo128" class: VGPRs 128-255 are not allowed.
fn lo128_bad(code: u16) -> bool {
    opnd::is_vgpr(code) && code - opnd::VGPR0 >= 128
}

fn smem_dst_remark(code: u16, dwords: u32) -> String {
    let special = !(code <= 105 || (108..=123).contains(&code) || code == opnd::NULL);
    if !special {
        return String::new();
    }
    match (dwords, code) {
        (1, opnd::EXEC_LO) | (1, opnd::EXEC_HI) | (1, opnd::M0) => invalid_reg("SReg_32_XM0_XEXEC"),
        (2, opnd::EXEC_LO) => invalid_reg("SReg_64_XEXEC"),
        (4, _) => invalid_reg("SReg_128"),
        (8, _) => invalid_reg("SReg_256"),
        (16, _) => invalid_reg("SReg_512"),
        _ => String::new(),
    }
}

/// Float input modifiers around an operand: `-x`, `|x|`, `-|x|`, and `neg(c)` for a negated
/// constant without abs (LLVM avoids `-1` meaning neg(1)).
fn mods_text(base: String, neg: bool, abs: bool, is_imm: bool) -> String {
    if neg && !abs && is_imm {
        return format!("neg({base})");
    }
    let mut s = String::new();
    if neg {
        s.push('-');
    }
    if abs {
        let _ = write!(s, "|{base}|");
    } else {
        s.push_str(&base);
    }
    s
}

/// Type the WMMA accumulator's inline constants print as.
fn wmma_acc_ty(op: Op) -> Ty {
    match op {
        Op::V_WMMA_F16_16X16X16_F16 => Ty::F16,
        Op::V_WMMA_BF16_16X16X16_BF16 => Ty::Bf16,
        _ => Ty::B32,
    }
}

fn cache_bits(s: &mut String, f: u32) {
    if f & iflags::GLC != 0 {
        s.push_str(" glc");
    }
    if f & iflags::SLC != 0 {
        s.push_str(" slc");
    }
    if f & iflags::DLC != 0 {
        s.push_str(" dlc");
    }
}

fn join(name: &str, ops: &[String]) -> String {
    if ops.is_empty() {
        name.to_string()
    } else {
        format!("{name} {}", ops.join(", "))
    }
}

/// ds_swizzle_b32 offset: QUAD_PERM when bits 15:8 are 0x80, a bitmask permutation (shown as
/// SWAP, REVERSE, BROADCAST or the per-bit pattern) when bit 15 is clear, else decimal.
fn swizzle(v: u16) -> String {
    if v == 0 {
        return String::new();
    }
    if v & 0xff00 == 0x8000 {
        return format!(
            " offset:swizzle(QUAD_PERM,{},{},{},{})",
            v & 3,
            v >> 2 & 3,
            v >> 4 & 3,
            v >> 6 & 3
        );
    }
    if v & 0x8000 != 0 {
        return format!(" offset:{v}");
    }
    let and = v & 0x1f;
    let or = v >> 5 & 0x1f;
    let xor = v >> 10 & 0x1f;
    if and == 0x1f && or == 0 && xor.count_ones() == 1 {
        return format!(" offset:swizzle(SWAP,{xor})");
    }
    if and == 0x1f && or == 0 && xor > 0 && (xor + 1).is_power_of_two() {
        return format!(" offset:swizzle(REVERSE,{})", xor + 1);
    }
    let group = 0x1f - and + 1;
    if group > 1 && group.is_power_of_two() && or < group && xor == 0 {
        return format!(" offset:swizzle(BROADCAST,{group},{or})");
    }
    let p0 = (or) ^ xor;
    let p1 = ((0x1f & and) | or) ^ xor;
    let mut pat = String::new();
    for b in (0..5).rev() {
        let (a, c) = (p0 >> b & 1, p1 >> b & 1);
        pat.push(match (a, c) {
            (0, 0) => '0',
            (1, 1) => '1',
            (0, _) => 'p',
            _ => 'i',
        });
    }
    format!(" offset:swizzle(BITMASK_PERM,\"{pat}\")")
}

fn dpp_ctrl(c: u16) -> String {
    match c {
        0x000..=0x0ff => format!(
            "quad_perm:[{},{},{},{}]",
            c & 3,
            c >> 2 & 3,
            c >> 4 & 3,
            c >> 6 & 3
        ),
        0x101..=0x10f => format!("row_shl:{}", c & 0xf),
        0x111..=0x11f => format!("row_shr:{}", c & 0xf),
        0x121..=0x12f => format!("row_ror:{}", c & 0xf),
        0x130 => "/* wave_shl is not supported starting from GFX10 */".into(),
        0x134 => "/* wave_rol is not supported starting from GFX10 */".into(),
        0x138 => "/* wave_shr is not supported starting from GFX10 */".into(),
        0x13c => "/* wave_ror is not supported starting from GFX10 */".into(),
        0x140 => "row_mirror".into(),
        0x141 => "row_half_mirror".into(),
        0x142 | 0x143 => "/* row_bcast is not supported starting from GFX10 */".into(),
        0x150..=0x15f => format!("row_share:{}", c & 0xf),
        0x160..=0x16f => format!("row_xmask:{}", c & 0xf),
        _ => "/* Invalid dpp_ctrl value */".into(),
    }
}

// ------------------------------------------------------------------------------------------------
// Symbolic immediates (s_waitcnt, s_delay_alu, sendmsg, hwreg, depctr, s_version, exp targets)
// ------------------------------------------------------------------------------------------------

/// gfx11 s_waitcnt: vmcnt [15:10], lgkmcnt [9:4], expcnt [2:0]; counters at their maximum are
/// left out unless all are.
fn waitcnt(v: u16) -> String {
    let vm = v >> 10 & 0x3f;
    let lgkm = v >> 4 & 0x3f;
    let exp = v & 7;
    let all = vm == 0x3f && lgkm == 0x3f && exp == 7;
    let mut parts = Vec::new();
    if vm != 0x3f || all {
        parts.push(format!("vmcnt({vm})"));
    }
    if exp != 7 || all {
        parts.push(format!("expcnt({exp})"));
    }
    if lgkm != 0x3f || all {
        parts.push(format!("lgkmcnt({lgkm})"));
    }
    parts.join(" ")
}

fn delay_alu(v: u16) -> String {
    const IDS: [&str; 12] = [
        "NO_DEP",
        "VALU_DEP_1",
        "VALU_DEP_2",
        "VALU_DEP_3",
        "VALU_DEP_4",
        "TRANS32_DEP_1",
        "TRANS32_DEP_2",
        "TRANS32_DEP_3",
        "FMA_ACCUM_CYCLE_1",
        "SALU_CYCLE_1",
        "SALU_CYCLE_2",
        "SALU_CYCLE_3",
    ];
    const SKIPS: [&str; 6] = ["SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"];
    let id = |x: u16| {
        IDS.get(x as usize)
            .copied()
            .unwrap_or("/* invalid instid value */")
    };
    let mut parts = Vec::new();
    let id0 = v & 0xf;
    let skip = v >> 4 & 7;
    let id1 = v >> 7 & 0xf;
    if id0 != 0 {
        parts.push(format!("instid0({})", id(id0)));
    }
    if skip != 0 {
        parts.push(format!(
            "instskip({})",
            SKIPS
                .get(skip as usize)
                .copied()
                .unwrap_or("/* invalid instskip value */")
        ));
    }
    if id1 != 0 {
        parts.push(format!("instid1({})", id(id1)));
    }
    if parts.is_empty() {
        "0".into()
    } else {
        parts.join(" | ")
    }
}

/// gfx11 message names (the message id is bits 7:0; op and stream are not used on gfx11).
fn msg_name(id: u16) -> Option<&'static str> {
    Some(match id {
        1 => "MSG_INTERRUPT",
        2 => "MSG_HS_TESSFACTOR",
        3 => "MSG_DEALLOC_VGPRS",
        5 => "MSG_STALL_WAVE_GEN",
        6 => "MSG_HALT_WAVES",
        9 => "MSG_GS_ALLOC_REQ",
        128 => "MSG_RTN_GET_DOORBELL",
        129 => "MSG_RTN_GET_DDID",
        130 => "MSG_RTN_GET_TMA",
        131 => "MSG_RTN_GET_REALTIME",
        132 => "MSG_RTN_SAVE_WAVE",
        133 => "MSG_RTN_GET_TBA",
        134 => "MSG_RTN_GET_TBA_TO_PC",
        _ => return None,
    })
}

fn sendmsg(v: u16) -> String {
    let id = v & 0xff;
    if let Some(n) = msg_name(id) {
        format!("sendmsg({n})")
    } else if v >> 8 == 0 {
        format!("sendmsg({id}, 0, 0)")
    } else {
        v.to_string()
    }
}

fn hwreg_name(id: u16) -> Option<&'static str> {
    Some(match id {
        1 => "HW_REG_MODE",
        2 => "HW_REG_STATUS",
        3 => "HW_REG_TRAPSTS",
        5 => "HW_REG_GPR_ALLOC",
        6 => "HW_REG_LDS_ALLOC",
        7 => "HW_REG_IB_STS",
        15 => "HW_REG_SH_MEM_BASES",
        18 => "HW_REG_PERF_SNAPSHOT_PC_LO",
        19 => "HW_REG_PERF_SNAPSHOT_PC_HI",
        20 => "HW_REG_FLAT_SCR_LO",
        21 => "HW_REG_FLAT_SCR_HI",
        23 => "HW_REG_HW_ID1",
        24 => "HW_REG_HW_ID2",
        27 => "HW_REG_PERF_SNAPSHOT_DATA",
        29 => "HW_REG_SHADER_CYCLES",
        _ => return None,
    })
}

/// hwreg(id[5:0], offset[10:6], size-1[15:11]); offset and size are printed unless the default
/// (0, 32).
fn hwreg(v: u16) -> String {
    let id = v & 0x3f;
    let off = v >> 6 & 0x1f;
    let size = (v >> 11 & 0x1f) + 1;
    let name = hwreg_name(id)
        .map(str::to_string)
        .unwrap_or_else(|| id.to_string());
    if off == 0 && size == 32 {
        format!("hwreg({name})")
    } else {
        format!("hwreg({name}, {off}, {size})")
    }
}

/// gfx11 s_waitcnt_depctr fields: (name, shift, width).
const DEPCTR: [(&str, u16, u16); 7] = [
    ("depctr_hold_cnt", 7, 1),
    ("depctr_sa_sdst", 0, 1),
    ("depctr_va_vdst", 12, 4),
    ("depctr_va_sdst", 9, 3),
    ("depctr_va_ssrc", 8, 1),
    ("depctr_va_vcc", 1, 1),
    ("depctr_vm_vsrc", 2, 3),
];

fn depctr(v: u16) -> String {
    let mut covered = 0u16;
    let mut non_default = false;
    for (_, sh, w) in DEPCTR {
        let mask = ((1u16 << w) - 1) << sh;
        covered |= mask;
        if v & mask != mask {
            non_default = true;
        }
    }
    if v & !covered != 0 {
        return hex(v as u64);
    }
    let mut parts = Vec::new();
    for (name, sh, w) in DEPCTR {
        let max = (1u16 << w) - 1;
        let val = v >> sh & max;
        if val != max || !non_default {
            parts.push(format!("{name}({val})"));
        }
    }
    parts.join(" ")
}

/// s_version: the version code (bits 7:0) with the W64/W32/MDP flag bits (13, 14, 15) as LLVM's
/// expression printer spells them; any of bits 12:8 set makes it a plain hex number.
fn version(v: u16) -> String {
    if v & 0x1f00 != 0 {
        return hex(v as u64);
    }
    let code = v & 0xff;
    let mut s = match code {
        0 => "UC_VERSION_GFX7".to_string(),
        4 => "UC_VERSION_GFX10".into(),
        6 => "UC_VERSION_GFX11".into(),
        9 => "UC_VERSION_GFX12".into(),
        _ => code.to_string(),
    };
    let mut nflags = 0;
    for (bit, n) in [
        (13, "UC_VERSION_W64_BIT"),
        (14, "UC_VERSION_W32_BIT"),
        (15, "UC_VERSION_MDP_BIT"),
    ] {
        if v >> bit & 1 != 0 {
            if nflags > 0 {
                s = format!("({s})");
            }
            s = format!("{s}|{n}");
            nflags += 1;
        }
    }
    s
}

/// gfx11 export targets (no null or parameter targets; params go through LDS).
fn exp_target(t: u32) -> String {
    match t {
        0..=7 => format!("mrt{t}"),
        8 => "mrtz".into(),
        12..=16 => format!("pos{}", t - 12),
        20 => "prim".into(),
        21 | 22 => format!("dual_src_blend{}", t - 21),
        _ => format!("invalid_target_{t}"),
    }
}
