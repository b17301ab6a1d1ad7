//! Assembler for applegpu's syntax, derived from the same table: a mnemonic selects candidate rows (by
//! name and the row's mnemonic rule), each operand is encoded by the inverse of its kind's decoding, and
//! the first row whose encoding decodes back to that row wins. The short form is used when the long
//! form's extra bytes are zero.
//!
//! Syntax: one instruction per line or `;`-separated; `#` and `//` start comments; branch targets are
//! `pc+N` / `pc-N` (bytes from the instruction). Trailing operands that print as nothing (`lsl 0`,
//! no mask, empty enum names) and trailing immediate/enum/binary fields may be omitted (zero).

use crate::decode::find_encoding;
use crate::operand::{float_immediate, DstKind, OperandKind, SrcKind, FCOND_NAMES, ICOND_NAMES};
use crate::table::ENCODINGS;
use crate::table_types::{AsmDst, Encoding, Mnem};

/// Why a line does not assemble.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum AsmError {
    #[error("line {line}: unknown mnemonic `{mnem}`")]
    UnknownMnemonic { line: usize, mnem: String },
    #[error("line {line}: `{text}` does not fit any encoding of `{mnem}`: {reason}")]
    NoEncoding {
        line: usize,
        mnem: String,
        text: String,
        reason: String,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum File {
    R16,
    R32,
    R64,
    U16,
    U32,
    U64,
}

#[derive(Debug, Clone, Copy)]
struct ParsedReg {
    file: File,
    n: u64,
    cache: bool,
    discard: bool,
    sx: bool,
    abs: bool,
    neg: bool,
}

fn parse_reg(s: &str) -> Option<ParsedReg> {
    let mut parts = s.split('.');
    let base = parts.next()?;
    let mut r = parse_reg_name(base)?;
    for flag in parts {
        match flag {
            "cache" => r.cache = true,
            "discard" => r.discard = true,
            "sx" => r.sx = true,
            "abs" => r.abs = true,
            "neg" => r.neg = true,
            _ => return None,
        }
    }
    Some(r)
}

fn parse_reg_name(s: &str) -> Option<ParsedReg> {
    let mk = |file, n| ParsedReg {
        file,
        n,
        cache: false,
        discard: false,
        sx: false,
        abs: false,
        neg: false,
    };
    let (uniform, rest) = if let Some(r) = s.strip_prefix('r') {
        (false, r)
    } else if let Some(r) = s.strip_prefix('u') {
        (true, r)
    } else {
        return None;
    };
    if let Some((a, b)) = rest.split_once('_') {
        let a: u64 = a.parse().ok()?;
        let b: u64 = b
            .strip_prefix(if uniform { 'u' } else { 'r' })?
            .parse()
            .ok()?;
        if b != a + 1 {
            return None;
        }
        return Some(mk(if uniform { File::U64 } else { File::R64 }, a));
    }
    if let Some(n) = rest.strip_suffix('l') {
        let n: u64 = n.parse().ok()?;
        return Some(mk(if uniform { File::U16 } else { File::R16 }, 2 * n));
    }
    if let Some(n) = rest.strip_suffix('h') {
        let n: u64 = n.parse().ok()?;
        return Some(mk(if uniform { File::U16 } else { File::R16 }, 2 * n + 1));
    }
    let n: u64 = rest.parse().ok()?;
    Some(mk(if uniform { File::U32 } else { File::R32 }, n))
}

/// A register tuple `r4_r5_r6` or `r2l_r2h`: (is 32-bit, first number in its file's units, count).
fn parse_tuple(s: &str) -> Option<(bool, u64, u64)> {
    let regs: Vec<ParsedReg> = s.split('_').map(parse_reg_name).collect::<Option<_>>()?;
    let first = regs.first()?;
    if !regs.iter().all(|r| r.file == first.file) || !matches!(first.file, File::R16 | File::R32) {
        return None;
    }
    if regs.windows(2).any(|w| w[1].n != w[0].n + 1) {
        return None;
    }
    Some((first.file == File::R32, first.n, regs.len() as u64))
}

fn parse_int(s: &str) -> Option<i64> {
    let (neg, t) = match s.strip_prefix('-') {
        Some(t) => (true, t),
        None => (false, s),
    };
    let v = if let Some(h) = t.strip_prefix("0x") {
        i64::from_str_radix(h, 16).ok()?
    } else if let Some(b) = t.strip_prefix("0b") {
        i64::from_str_radix(b, 2).ok()?
    } else {
        t.parse().ok()?
    };
    Some(if neg { -v } else { v })
}

/// The 8-bit float immediate whose printed value is `s`, else an integer 0..=255.
fn parse_float_imm(s: &str) -> Option<u64> {
    if s.contains('.') {
        return (0..256u64).find(|&i| format!("{:?}", float_immediate(i)) == s);
    }
    parse_int(s).and_then(|v| u64::try_from(v).ok())
}

/// A float immediate with optional `.abs`/`.neg` suffixes: (8-bit code, modifier bits).
fn parse_float_imm_with_mods(s: &str) -> Option<(u64, u64)> {
    let mut m = 0;
    let mut t = s;
    loop {
        if let Some(r) = t.strip_suffix(".neg") {
            m |= 2;
            t = r;
        } else if let Some(r) = t.strip_suffix(".abs") {
            m |= 1;
            t = r;
        } else {
            break;
        }
    }
    parse_float_imm(t).map(|v| (v, m))
}

#[derive(Clone)]
struct Enc<'a> {
    enc: &'a Encoding,
    /// Address of the instruction (absolute branch targets are relative to it).
    pc: u64,
    /// Registers given for a mask-counted register list.
    mask_count: Option<u64>,
    fields: Vec<(&'static str, u64)>,
}

impl Enc<'_> {
    fn set(&mut self, name: &str, value: u64) -> Result<(), String> {
        let f = self
            .enc
            .fields
            .iter()
            .find(|f| f.name == name)
            .ok_or_else(|| format!("no field {name}"))?;
        let width: u32 = f.parts.iter().map(|p| p.1 as u32).sum();
        if width < 64 && value >> width != 0 {
            return Err(format!(
                "{value:#x} does not fit field {name} ({width} bits)"
            ));
        }
        match self.fields.iter_mut().find(|(n, _)| *n == name) {
            Some(slot) => slot.1 = value,
            None => self.fields.push((f.name, value)),
        }
        Ok(())
    }
    fn get(&self, name: &str) -> u64 {
        self.fields
            .iter()
            .find(|(n, _)| *n == name)
            .map(|f| f.1)
            .unwrap_or(0)
    }
    fn set_sub(&mut self, name: &str, suffix: &str, value: u64) -> Result<(), String> {
        self.set(&format!("{name}{suffix}"), value)
    }

    fn word(&self) -> u128 {
        let mut w = self.enc.bits;
        for (name, value) in &self.fields {
            // `set` only stores names of this row's fields
            let Some(f) = self.enc.fields.iter().find(|f| f.name == *name) else {
                continue;
            };
            let mut shift = 0;
            for &(start, size) in f.parts {
                let part = ((*value >> shift) as u128) & ((1u128 << size) - 1);
                w = (w & !(((1u128 << size) - 1) << start)) | (part << start);
                shift += size as u32;
            }
        }
        let (short, long) = self.enc.sizes;
        if short != long {
            w &= !(1u128 << self.enc.length_bit);
            if w >> (8 * short as u32) != 0 {
                w |= 1u128 << self.enc.length_bit;
            }
        }
        w
    }
}

fn hint_bits(r: &ParsedReg) -> u64 {
    if r.cache {
        2
    } else if r.discard {
        3
    } else {
        1
    }
}

/// A register or a register pair (`r0_r1`, `r0h_r1l`) with flags, for paired operands.
fn parse_reg_or_pair(s: &str, paired: bool) -> Option<ParsedReg> {
    if !paired {
        return parse_reg(s);
    }
    let (tuple_part, flags) = s.split_once('.').unwrap_or((s, ""));
    let (is32, n, count) = parse_tuple(tuple_part).filter(|t| t.2 == 2)?;
    let _ = count;
    let first = if is32 {
        format!("r{n}")
    } else {
        format!("r{}{}", n / 2, if n & 1 == 1 { 'h' } else { 'l' })
    };
    let with_flags = if flags.is_empty() {
        first
    } else {
        format!("{first}.{flags}")
    };
    parse_reg(&with_flags)
}

fn encode_dst(e: &mut Enc<'_>, name: &str, k: DstKind, s: &str) -> Result<(), String> {
    let r = parse_reg_or_pair(s, k.paired).ok_or("expected a register")?;
    let (value, t) = match r.file {
        File::R16 => (r.n, 0),
        File::R32 if k.allow32 => (r.n << 1, 2),
        File::R64 if k.allow64 => ((r.n << 1) | 1, 2),
        _ => return Err(format!("{s} is not a valid destination")),
    };
    e.set(name, value)?;
    e.set_sub(name, "t", t | u64::from(r.cache))
}

fn encode_src(e: &mut Enc<'_>, name: &str, k: SrcKind, s: &str) -> Result<(), String> {
    let has = |e: &Enc<'_>, suffix: &str| {
        e.enc
            .fields
            .iter()
            .any(|f| f.name == format!("{name}{suffix}"))
    };
    if let Some(r) = parse_reg_or_pair(s, k.paired) {
        let (t, value) = match r.file {
            File::U16 => (0b0100 | ((r.n >> 8) & 1), r.n & 0xFF),
            File::U32 => {
                let v = r.n << 1;
                (0b0110 | ((v >> 8) & 1), v & 0xFF)
            }
            File::R16 => (hint_bits(&r), r.n),
            File::R32 if k.allow32 => (0b1000 | hint_bits(&r), r.n << 1),
            File::R64 if k.allow64 => (0b1100 | hint_bits(&r), r.n << 1),
            _ => return Err(format!("{s} is not a valid source here")),
        };
        e.set(name, value)?;
        e.set_sub(name, "t", t)?;
        if has(e, "s") {
            e.set_sub(name, "s", u64::from(r.sx))?;
        } else if r.sx {
            return Err("no sign extension on this source".into());
        }
        if has(e, "m") {
            e.set_sub(name, "m", u64::from(r.abs) | u64::from(r.neg) << 1)?;
        } else if r.abs || r.neg {
            return Err("no float modifiers on this source".into());
        }
        return Ok(());
    }
    let (v, m) = if k.float {
        parse_float_imm_with_mods(s)
            .ok_or_else(|| format!("`{s}` is not a register or 8-bit immediate"))?
    } else {
        (
            parse_int(s)
                .and_then(|v| u64::try_from(v).ok())
                .ok_or_else(|| format!("`{s}` is not a register or immediate"))?,
            0,
        )
    };
    if v >= 256 {
        return Err(format!("`{s}` is not an 8-bit immediate"));
    }
    e.set(name, v)?;
    e.set_sub(name, "t", 0)?;
    if has(e, "s") {
        e.set_sub(name, "s", 0)?;
    }
    if has(e, "m") {
        e.set_sub(name, "m", m)?;
    }
    Ok(())
}

fn encode_operand(e: &mut Enc<'_>, name: &str, kind: OperandKind, s: &str) -> Result<(), String> {
    use OperandKind as K;
    let empty = s.is_empty();
    match kind {
        K::ImplicitR0l => {
            let r = parse_reg(s)
                .filter(|r| r.file == File::R16 && r.n == 0)
                .ok_or("expected r0l")?;
            e.set_sub(name, "t", u64::from(r.cache))
        }
        K::Dst(k) => encode_dst(e, name, k, s),
        K::Src(k) => encode_src(e, name, k, s),
        K::CmpselSrc => {
            let is32 = e.get("Dt") & 2 != 0;
            if let Some(r) = parse_reg(s) {
                let (t, v) = match (r.file, is32) {
                    (File::R16, false) => (hint_bits(&r), r.n),
                    (File::R32, true) => (hint_bits(&r), r.n << 1),
                    (File::U16, false) => (0b110, r.n),
                    (File::U32, true) => (0b110, r.n << 1),
                    _ => return Err(format!("{s} does not match the destination size")),
                };
                e.set(name, v & 0xFF)?;
                e.set_sub(
                    name,
                    "t",
                    t | if matches!(r.file, File::U16 | File::U32) {
                        (v >> 8) & 1
                    } else {
                        0
                    },
                )
            } else {
                let v = parse_int(s)
                    .filter(|v| (0..256).contains(v))
                    .ok_or("expected a register or 8-bit immediate")?;
                e.set(name, v as u64)?;
                e.set_sub(name, "t", 0b100)
            }
        }
        K::TruthTable => {
            if s.len() != 4 || !s.chars().all(|c| c == '0' || c == '1') {
                return Err("expected a 4-digit truth table".into());
            }
            for (i, c) in s.chars().enumerate() {
                e.set_sub(name, &i.to_string(), u64::from(c == '1'))?;
            }
            Ok(())
        }
        K::Immediate | K::Binary(_) | K::StackAdjustment => {
            if empty {
                return e.set(name, 0);
            }
            let v = parse_int(s).ok_or_else(|| format!("`{s}` is not an integer"))?;
            let v = if matches!(kind, K::StackAdjustment) {
                (v as u64) & 0xFFFF
            } else {
                u64::try_from(v).map_err(|_| "negative")?
            };
            e.set(name, v)
        }
        K::Enum(values) => {
            let current = e.get(name);
            if values.iter().any(|(k, n)| *k as u64 == current && *n == s) {
                // an earlier operand already chose the value (e.g. register-sourced `sample`)
                return Ok(());
            }
            if let Some((k, _)) = values.iter().find(|(_, n)| *n == s) {
                return e.set(name, *k as u64);
            }
            if empty {
                return e.set(name, 0);
            }
            // Integers stand for values without a name (named values print by name).
            let v = parse_int(s)
                .and_then(|v| u64::try_from(v).ok())
                .filter(|v| !values.iter().any(|(k, _)| *k as u64 == *v))
                .ok_or_else(|| format!("unknown value `{s}`"))?;
            e.set(name, v)
        }
        K::BranchOffset(size) => {
            let t = s.replace(' ', "");
            let v = if let Some(r) = t.strip_prefix("pc+") {
                parse_int(r)
            } else if let Some(r) = t.strip_prefix("pc-") {
                parse_int(r).map(|v| -v)
            } else if let Some(r) = t.strip_prefix("0x-") {
                // absolute target as the disassembler prints it
                i64::from_str_radix(r, 16).ok().map(|a| -a - e.pc as i64)
            } else if let Some(r) = t.strip_prefix("0x") {
                i64::from_str_radix(r, 16).ok().map(|a| a - e.pc as i64)
            } else {
                None
            }
            .ok_or("expected pc+N, pc-N or an absolute 0x target")?;
            let masked = (v as u64) & ((1u64 << size) - 1);
            let back = ((masked << (64 - size)) as i64) >> (64 - size);
            if back != v {
                return Err("branch offset out of range".into());
            }
            e.set(name, masked)
        }
        K::Reg32 | K::ExReg32 => {
            let r = parse_reg(s)
                .filter(|r| r.file == File::R32)
                .ok_or("expected a 32-bit register")?;
            e.set(name, r.n)
        }
        K::UReg64 => {
            let r = parse_reg(s)
                .filter(|r| r.file == File::U64)
                .ok_or("expected a 64-bit uniform")?;
            e.set(name, r.n)
        }
        K::StackReg32 => {
            let r = parse_reg(s)
                .filter(|r| r.file == File::R32)
                .ok_or("expected a 32-bit register")?;
            e.set(name, r.n << 1)
        }
        K::Shift | K::MemoryShift => {
            let field = if matches!(kind, K::Shift) { "s" } else { name };
            if empty {
                return e.set(field, 0);
            }
            let v = s
                .strip_prefix("lsl ")
                .and_then(parse_int)
                .ok_or("expected lsl N")?;
            e.set(field, v as u64)
        }
        K::Mask => {
            if empty {
                return e.set(name, 0);
            }
            let m = s
                .strip_prefix("mask ")
                .and_then(parse_int)
                .ok_or("expected mask 0x...")? as u64;
            let bits = (m + 1).trailing_zeros() as u64;
            if m.wrapping_add(1) & m != 0 || bits == 0 || bits > 32 {
                return Err("mask must be 2^n - 1".into());
            }
            e.set(name, if bits == 32 { 0 } else { bits })
        }
        K::ICond | K::FCond => {
            let names = if matches!(kind, K::ICond) {
                ICOND_NAMES
            } else {
                FCOND_NAMES
            };
            let v = names
                .iter()
                .find(|(_, n)| *n == s)
                .map(|(k, _)| *k)
                .or_else(|| parse_int(s).and_then(|v| u64::try_from(v).ok()))
                .ok_or_else(|| format!("unknown condition `{s}`"))?;
            e.set("cc", v & 7)?;
            if e.enc.fields.iter().any(|f| f.name == "ccn") {
                e.set("ccn", v >> 3)
            } else if v > 7 {
                Err("this encoding has no inverted conditions".into())
            } else {
                Ok(())
            }
        }
        K::MemoryIndex => {
            if let Some(r) = parse_reg(s) {
                if r.file != File::R32 {
                    return Err("memory index register must be 32-bit".into());
                }
                e.set_sub(name, "t", 0)?;
                e.set(name, r.n << 1)
            } else {
                let v = parse_int(s)
                    .filter(|v| (-0x8000..0x8000).contains(v))
                    .ok_or("expected a register or 16-bit offset")?;
                e.set_sub(name, "t", 1)?;
                e.set(name, (v as u64) & 0xFFFF)
            }
        }
        K::ThreadgroupIndex => {
            if let Some(r) = parse_reg(s) {
                if r.file != File::R16 {
                    return Err("threadgroup index register must be 16-bit".into());
                }
                e.set_sub(name, "t", 0)?;
                e.set(name, r.n)
            } else {
                let v = parse_int(s)
                    .filter(|v| (-0x8000..0x8000).contains(v))
                    .ok_or("expected a register or 16-bit offset")?;
                e.set_sub(name, "t", 1)?;
                e.set(name, (v as u64) & 0xFFFF)
            }
        }
        K::MemoryBase => {
            let r = parse_reg(s).ok_or("expected a 64-bit base")?;
            let t = match r.file {
                File::R64 => 0,
                File::U64 => 1,
                _ => return Err("expected a 64-bit base".into()),
            };
            e.set_sub(name, "t", t)?;
            e.set(name, r.n << 1)
        }
        K::MemoryReg | K::ThreadgroupMemoryReg(false) => {
            if empty {
                // no register: the mask selects none
                e.mask_count = Some(0);
                e.set_sub(name, "t", 0)?;
                return e.set(name, 0);
            }
            let (is32, n, count) = parse_tuple(s).ok_or("expected consecutive registers")?;
            // checked once every operand is encoded (the mask may come later)
            e.mask_count = Some(count);
            e.set_sub(name, "t", u64::from(is32))?;
            e.set(name, if is32 { n << 1 } else { n })
        }
        K::ThreadgroupMemoryReg(true) => {
            let (is32, n, count) = parse_tuple(s)
                .filter(|t| t.2 == 1)
                .ok_or("expected one register")?;
            let _ = count;
            e.set_sub(name, "a", 1)?;
            e.set_sub(name, "t", u64::from(is32))?;
            e.set(name, if is32 { n << 1 } else { n })
        }
        K::VarRegister | K::VarTripleRegister => {
            let (is32, n, count) = parse_tuple(s).ok_or("expected consecutive registers")?;
            let per = if matches!(kind, K::VarTripleRegister) {
                3
            } else {
                1
            };
            if count % per != 0 || count / per == 0 || count / per > 4 {
                return Err("bad register count".into());
            }
            e.set("count", (count / per) % 4)?;
            e.set_sub(name, "t", u64::from(is32))?;
            e.set(name, if is32 { n << 1 } else { n })
        }
        K::SampleMask(flags_type) => {
            let (reg, v) = match parse_reg(s) {
                Some(r) if r.file == File::R16 => (true, r.n),
                Some(_) => return Err("expected a 16-bit register".into()),
                None => (
                    false,
                    parse_int(s)
                        .and_then(|v| u64::try_from(v).ok())
                        .ok_or("expected a register or immediate")?,
                ),
            };
            // flags_type 2: 0 = immediate; flags_type 1: 0 = register
            e.set_sub(name, "t", u64::from(reg == (flags_type == 2)))?;
            e.set(name, v)
        }
        K::DiscardMask | K::UvsIndex | K::PbeLod => match parse_reg(s) {
            Some(r) if r.file == File::R16 => {
                e.set_sub(name, "t", 0)?;
                e.set(name, r.n)
            }
            Some(_) => Err("expected a 16-bit register".into()),
            None => {
                let v = parse_int(s)
                    .and_then(|v| u64::try_from(v).ok())
                    .ok_or("expected a register or immediate")?;
                e.set_sub(name, "t", 1)?;
                e.set(name, v)
            }
        },
        K::Zs => {
            let (is32, n, count) = parse_tuple(s).ok_or("expected 16-bit registers")?;
            if is32 || !(1..=3).contains(&count) {
                return Err("expected 1 to 3 16-bit registers".into());
            }
            e.set("z", u64::from(count >= 2))?;
            e.set("s", count & 1)?;
            e.set(name, n)
        }
        K::Cf | K::CfPerspective => {
            if let Some(v) = s.strip_prefix("cf").and_then(|v| v.parse::<u64>().ok()) {
                if matches!(kind, K::Cf) {
                    e.set_sub(name, "t", 0)?;
                }
                return e.set(name, v);
            }
            let r = parse_reg(s)
                .filter(|r| r.file == File::R16 && matches!(kind, K::Cf))
                .ok_or("expected cfN")?;
            e.set_sub(name, "t", 1)?;
            e.set(name, r.n)
        }
        K::TextureStateDest | K::SamplerStateDest => {
            let prefix = if matches!(kind, K::TextureStateDest) {
                "ts"
            } else {
                "ss"
            };
            let v = s
                .strip_prefix(prefix)
                .and_then(|v| v.parse::<u64>().ok())
                .ok_or("expected a state register")?;
            e.set(name, v)
        }
        K::AsyncMemoryReg => {
            let r = parse_reg(s).ok_or("expected a 64-bit register")?;
            let t = match r.file {
                File::R64 => 0,
                File::U64 => 1,
                _ => return Err("expected a 64-bit register".into()),
            };
            e.set_sub(name, "t", t)?;
            e.set(name, r.n << 1)
        }
        K::AsyncMemoryBase => {
            let regs: Vec<ParsedReg> = s
                .split('_')
                .map(parse_reg_name)
                .collect::<Option<_>>()
                .ok_or("expected registers")?;
            let first = *regs.first().ok_or("expected registers")?;
            let t = match first.file {
                File::R32 => 0,
                File::U32 => 1,
                _ => return Err("expected 32-bit registers".into()),
            };
            if regs
                .iter()
                .enumerate()
                .any(|(i, r)| r.file != first.file || r.n != first.n + i as u64)
                || regs.len() as u64 != if e.get("F") != 0 { 5 } else { 3 }
            {
                return Err("register count or order".into());
            }
            e.set_sub(name, "t", t)?;
            e.set(name, first.n)
        }
        K::AtomicSource | K::Reg32x44 => {
            let r = parse_reg(s)
                .filter(|r| matches!(r.file, File::R32 | File::R64))
                .ok_or("expected a register")?;
            e.set(name, r.n << 1)
        }
        K::AtomicDestination => {
            let r = parse_reg(s)
                .filter(|r| r.file == File::R32)
                .ok_or("expected a 32-bit register")?;
            e.set_sub(name, "t", 1)?;
            e.set(name, r.n << 1)
        }
        K::TileToMemoryReg => {
            let r = parse_reg(s)
                .filter(|r| r.file == File::R16)
                .ok_or("expected a 16-bit register")?;
            e.set(name, r.n)
        }
        K::PbeSourceReg => {
            let (is32, n, count) = parse_tuple(s)
                .filter(|t| t.2 == 4)
                .ok_or("expected four registers")?;
            let _ = count;
            e.set_sub(name, "t", u64::from(is32))?;
            e.set(name, if is32 { n << 1 } else { n })
        }
        K::IterSampleId => {
            if empty {
                return e.set(name, 0);
            }
            let v = match parse_reg(s) {
                Some(r) if r.file == File::R16 => {
                    // a register sample index is interpolation mode 3
                    e.set("interpolation", 3)?;
                    r.n
                }
                Some(_) => return Err("expected a 16-bit register".into()),
                None => parse_int(s)
                    .and_then(|v| u64::try_from(v).ok())
                    .ok_or("expected a sample")?,
            };
            e.set(name, v)
        }
        K::ThreadgroupMemoryBase => {
            if s == "0" {
                e.set_sub(name, "t", 2)?;
                return e.set(name, 0);
            }
            let r = parse_reg(s).ok_or("expected a 16-bit register, uniform or 0")?;
            match r.file {
                File::R16 => {
                    e.set_sub(name, "t", 0)?;
                    e.set(name, r.n)
                }
                File::U16 => {
                    e.set_sub(name, "t", 1 | ((r.n >> 8) << 1))?;
                    e.set(name, r.n & 0xFF)
                }
                _ => Err("expected a 16-bit register, uniform or 0".into()),
            }
        }
        K::SReg32 => {
            let t = s.split(" (").next().unwrap_or("");
            let v: u64 = t
                .strip_prefix("sr")
                .and_then(|v| v.parse().ok())
                .ok_or("expected srN")?;
            e.set(name, v)
        }
        other => Err(format!("operand kind {other:?} is not assembled")),
    }
}

/// Rewrite alias mnemonics to their row's mnemonic and operand list, with field presets.
/// A candidate row for a mnemonic: row index, operand strings in row order, preset fields.
type Candidate = (usize, Vec<String>, Vec<(&'static str, u64)>);

fn candidates(mnem: &str, ops: &[String]) -> Vec<Candidate> {
    let mut out = vec![];
    let (base, sat) = match mnem.strip_suffix(".sat") {
        Some(b) => (b, 1),
        None => (mnem, 0),
    };
    for (i, enc) in ENCODINGS.iter().enumerate() {
        let ops = ops.to_vec();
        match enc.mnem {
            Mnem::Plain | Mnem::ElseICmpAlias if enc.name == mnem => out.push((i, ops, vec![])),
            Mnem::LdstTileAlias if mnem == "ld_tile" || mnem == "st_tile" => {
                let mut o = vec![if mnem == "ld_tile" { "1" } else { "0" }.to_string()];
                o.extend(ops);
                out.push((i, o, vec![]));
            }
            Mnem::MapAlias if mnem == "map" || mnem == "unmap" => {
                let mut o = vec![mnem.to_string()];
                o.extend(ops);
                out.push((i, o, vec![]));
            }
            Mnem::MapAlias if mnem == "TODO.map" => out.push((i, ops, vec![])),
            Mnem::Saturatable if enc.name == base => out.push((i, ops, vec![("S", sat)])),
            Mnem::IAddSub if base == "iadd" || base == "isub" => {
                out.push((i, ops, vec![("S", sat), ("N", u64::from(base == "isub"))]))
            }
            Mnem::IMAddSub if base == "imadd" || base == "imsub" => {
                out.push((i, ops, vec![("S", sat), ("N", u64::from(base == "imsub"))]))
            }
            Mnem::BitopAlias => {
                let binary = [
                    ("and", "0001"),
                    ("or", "0111"),
                    ("xor", "0110"),
                    ("nand", "1110"),
                    ("nor", "1000"),
                    ("xnor", "1001"),
                ];
                let unary = [("not", "1010"), ("mov", "0101")];
                if mnem == "bitop" || mnem == "bitop_mov_a" {
                    out.push((i, ops, vec![]));
                } else if let Some((_, tt)) = binary.iter().find(|(n, _)| *n == mnem) {
                    let mut o = vec![tt.to_string()];
                    o.extend(ops);
                    out.push((i, o, vec![]));
                } else if let Some((_, tt)) = unary.iter().find(|(n, _)| *n == mnem) {
                    let mut o = vec![tt.to_string()];
                    o.extend(ops);
                    o.push("0".into());
                    out.push((i, o, vec![]));
                }
            }
            Mnem::IfFCmpAlias => {
                if mnem == enc.name {
                    out.push((i, ops, vec![]));
                } else if mnem == "push_exec" || mnem == "update_exec" {
                    let n = if mnem == "push_exec" {
                        ops.get(1).cloned().unwrap_or_default()
                    } else {
                        "0".into()
                    };
                    let o = vec![
                        ops.first().cloned().unwrap_or_default(),
                        "eq".into(),
                        "0.0".into(),
                        "0.0".into(),
                        n,
                    ];
                    out.push((i, o, vec![]));
                }
            }
            _ => {}
        }
    }
    out
}

/// Assemble one instruction.
pub fn assemble_instruction(text: &str, pc: u64) -> Result<Vec<u8>, AsmError> {
    assemble_line(text, 1, pc)
}

fn assemble_line(text: &str, line: usize, pc: u64) -> Result<Vec<u8>, AsmError> {
    let text = text.trim();
    let (mnem, rest) = text.split_once(char::is_whitespace).unwrap_or((text, ""));
    let ops: Vec<String> = if rest.trim().is_empty() {
        vec![]
    } else {
        rest.split(',').map(|s| s.trim().to_string()).collect()
    };
    let cands = candidates(mnem, &ops);
    if cands.is_empty() {
        return Err(AsmError::UnknownMnemonic {
            line,
            mnem: mnem.to_string(),
        });
    }
    let mut reason = String::new();
    for (index, ops, presets) in cands {
        let enc = &ENCODINGS[index];
        match try_encode(enc, &ops, &presets, pc) {
            Ok(word) if find_encoding(word) == Some(index) => {
                let size = enc.size_of(word);
                return Ok((0..size).map(|k| (word >> (8 * k)) as u8).collect());
            }
            Ok(_) => reason = format!("encodes as a different instruction ({})", enc.name),
            Err(r) => reason = r,
        }
    }
    Err(AsmError::NoEncoding {
        line,
        mnem: mnem.to_string(),
        text: text.to_string(),
        reason,
    })
}

fn try_encode(
    enc: &Encoding,
    ops: &[String],
    presets: &[(&'static str, u64)],
    pc: u64,
) -> Result<u128, String> {
    let mut e = Enc {
        enc,
        pc,
        mask_count: None,
        fields: vec![],
    };
    for &(name, v) in presets {
        if enc.fields.iter().any(|f| f.name == name) {
            e.set(name, v)?;
        } else if v != 0 {
            return Err(format!("no field {name}"));
        }
    }
    if ops.len() > enc.operands.len() {
        return Err("too many operands".into());
    }
    if enc.asm_dst != AsmDst::Any {
        let want = if enc.asm_dst == AsmDst::R16 {
            File::R16
        } else {
            File::R32
        };
        if parse_reg(ops.first().map(String::as_str).unwrap_or("")).map(|r| r.file) != Some(want) {
            return Err("destination size selects the other row".into());
        }
    }
    let e = encode_from(e, 0, ops)?;
    Ok(e.word())
}

/// Encode rows `row..` from `ops`; an operand that can print as nothing is tried both consuming the next
/// string and as empty (the disassembler drops empty operands from the list).
fn encode_from<'a>(e: Enc<'a>, row: usize, ops: &[String]) -> Result<Enc<'a>, String> {
    let Some(r) = e.enc.operands.get(row) else {
        if !ops.is_empty() {
            return Err("too many operands".into());
        }
        if let Some(count) = e.mask_count {
            if e.get("mask").count_ones() as u64 != count {
                return Err("register count differs from the mask".into());
            }
        }
        return Ok(e);
    };
    let mut first_err = None;
    if let Some(s) = ops.first() {
        let mut e1 = e.clone();
        match encode_operand(&mut e1, r.name, r.kind, s)
            .and_then(|_| encode_from(e1, row + 1, &ops[1..]))
        {
            Ok(done) => return Ok(done),
            Err(err) => first_err = Some(err),
        }
    }
    let mut e2 = e;
    match encode_operand(&mut e2, r.name, r.kind, "").and_then(|_| encode_from(e2, row + 1, ops)) {
        Ok(done) => Ok(done),
        Err(err) => Err(first_err.unwrap_or(err)),
    }
}

/// Assemble a program: instructions separated by newlines or `;`, comments after `#` or `//`.
pub fn assemble(source: &str) -> Result<Vec<u8>, AsmError> {
    let mut out = vec![];
    for (i, line) in source.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        let line = line.split("//").next().unwrap_or("");
        for part in line.split(';') {
            if !part.trim().is_empty() {
                let pc = out.len() as u64;
                out.extend(assemble_line(part, i + 1, pc)?);
            }
        }
    }
    Ok(out)
}
