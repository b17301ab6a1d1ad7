//! The assembler: llc-19's R600 text syntax (as [`crate::disasm`] prints it, with optional
//! `; field:value` extras) back to `.text` words. It exists because LLVM has no R600 assembler, and lets
//! tests write the programs LLVM never emits.
//!
//! Text without extras encodes the fields llc leaves implicit the way LLVM 19's R600 back end does
//! (CF BARRIER = 1, VTX_READ_eg's fixed format fields, EXPORT ELEM_SIZE = 3), so llc output assembles to
//! llc's bytes wherever llc's text carries the information.

use std::collections::BTreeMap;

use crate::decode::{sel, AluInst, CfInst, FetchInst, FetchRow};
use crate::error::AsmError;
use crate::isa::{self, AluEnc, AluRow, CfForm};
use crate::text;

/// A named bit field of an instruction's words: (name, word index, low bit, width).
type Field = (&'static str, usize, u32, u32);

const CF_FIELDS: &[Field] = &[
    ("addr", 0, 0, 32),
    ("pop", 1, 0, 3),
    ("cf_const", 1, 3, 5),
    ("cond", 1, 8, 2),
    ("count", 1, 10, 3),
    ("call_count", 1, 13, 6),
    ("count3", 1, 19, 1),
    ("r20", 1, 20, 1),
    ("eop", 1, 21, 1),
    ("vpm", 1, 22, 1),
    ("inst", 1, 23, 7),
    ("wqm", 1, 30, 1),
    ("barrier", 1, 31, 1),
];
const CF_ALU_FIELDS: &[Field] = &[
    ("kc0_bank", 0, 22, 4),
    ("kc1_bank", 0, 26, 4),
    ("kc0_mode", 0, 30, 2),
    ("kc1_mode", 1, 0, 2),
    ("kc0_addr", 1, 2, 8),
    ("kc1_addr", 1, 10, 8),
    ("alt_const", 1, 25, 1),
    ("wqm", 1, 30, 1),
    ("barrier", 1, 31, 1),
];
const EXPORT_FIELDS: &[Field] = &[
    ("base", 0, 0, 13),
    ("type", 0, 13, 2),
    ("rw_rel", 0, 22, 1),
    ("index_gpr", 0, 23, 7),
    ("elem_size", 0, 30, 2),
    ("w1lo", 1, 0, 12),
    ("comp_mask", 1, 12, 4),
    ("r16", 1, 16, 1),
    ("burst", 1, 17, 4),
    ("eop", 1, 21, 1),
    ("vpm", 1, 22, 1),
    ("inst", 1, 23, 7),
    ("wqm", 1, 30, 1),
    ("barrier", 1, 31, 1),
];
const ALU_OP2_FIELDS: &[Field] = &[
    ("s0", 0, 0, 13),
    ("s1", 0, 13, 13),
    ("index_mode", 0, 26, 3),
    ("abs0", 1, 0, 1),
    ("abs1", 1, 1, 1),
    ("uem", 1, 2, 1),
    ("up", 1, 3, 1),
    ("write", 1, 4, 1),
    ("op2", 1, 7, 11),
    ("dst_gpr", 1, 21, 7),
    ("dst_chan", 1, 29, 2),
];
const ALU_OP3_FIELDS: &[Field] = &[
    ("s0", 0, 0, 13),
    ("s1", 0, 13, 13),
    ("index_mode", 0, 26, 3),
    ("s2", 1, 0, 13),
    ("op3", 1, 13, 5),
    ("dst_gpr", 1, 21, 7),
    ("dst_chan", 1, 29, 2),
];
const TEX_FIELDS: &[Field] = &[
    ("inst_mod", 0, 5, 2),
    ("fwq", 0, 7, 1),
    ("src_rel", 0, 23, 1),
    ("alt_const", 0, 24, 1),
    ("w0hi", 0, 25, 7),
    ("dst_rel", 1, 7, 1),
    ("r8", 1, 8, 1),
    ("dst_sel", 1, 9, 12),
    ("lod_bias", 1, 21, 7),
    ("offsets", 2, 0, 15),
    ("src_sel", 2, 20, 12),
    ("w3", 3, 0, 32),
];
const VTX_FIELDS: &[Field] = &[
    ("fetch_type", 0, 5, 2),
    ("fwq", 0, 7, 1),
    ("buffer_id", 0, 8, 8),
    ("src_rel", 0, 23, 1),
    ("mfc", 0, 26, 6),
    ("dst_rel", 1, 7, 1),
    ("r8", 1, 8, 1),
    ("dst_sel", 1, 9, 12),
    ("ucf", 1, 21, 1),
    ("dfmt", 1, 22, 6),
    ("nfa", 1, 28, 2),
    ("fca", 1, 30, 1),
    ("srf", 1, 31, 1),
    ("w2hi", 2, 16, 16),
    ("w3", 3, 0, 32),
];
/// MEM_DSW_WORD0..2 (DS_LOCAL_WRITE) and MEM_DSR_WORD0..2 (DS_LOCAL_READ): the fields the text does
/// not carry. Positions: R700 ISA reference, microcode formats, as a public Wii U ("Latte", an R700
/// derivative) header's MEM_DSW/MEM_DSR bit-field structs give them.
const DSW_FIELDS: &[Field] = &[
    ("w0r5", 0, 5, 3),
    ("src_rel_mode", 0, 18, 2),
    ("dst_index_ext", 1, 6, 2),
    ("w1r8", 1, 8, 8),
    ("dst_stride_ext", 1, 23, 2),
    ("w1r25", 1, 25, 6),
    ("simd_wave_rel", 1, 31, 1),
    ("burst_cnt", 2, 0, 4),
    ("w2hi", 2, 4, 28),
    ("w3", 3, 0, 32),
];
const DSR_FIELDS: &[Field] = &[
    ("w0r5", 0, 5, 3),
    ("src_rel_mode", 0, 18, 2),
    ("rd_offset", 0, 26, 6),
    ("dst_rel_mode", 1, 7, 2),
    ("w1r13", 1, 13, 3),
    ("broadcast", 1, 16, 1),
    ("waterfall", 1, 17, 1),
    ("w1r18", 1, 18, 2),
    ("mux_cntl", 1, 20, 3),
    ("w1hi", 1, 23, 9),
    ("burst_cnt", 2, 0, 4),
    ("w2hi", 2, 4, 28),
    ("w3", 3, 0, 32),
];
/// Whole-word overrides: the last resort that keeps every word representable.
const RAW_FIELDS: &[Field] = &[
    ("raw0", 0, 0, 32),
    ("raw1", 1, 0, 32),
    ("raw2", 2, 0, 32),
    ("raw3", 3, 0, 32),
];

fn get(w: &[u32], f: &Field) -> u32 {
    let v = w[f.1] >> f.2;
    if f.3 == 32 {
        v
    } else {
        v & ((1 << f.3) - 1)
    }
}
fn set(w: &mut [u32], f: &Field, v: u32) {
    let mask = if f.3 == 32 {
        u32::MAX
    } else {
        ((1u32 << f.3) - 1) << f.2
    };
    w[f.1] = (w[f.1] & !mask) | ((v << f.2) & mask);
}

/// The `name:value` pairs that turn `encoded` (from the printed text) into `actual`.
fn diff(fields: &[Field], actual: &[u32], encoded: Option<Vec<u32>>) -> String {
    let mut parts = Vec::new();
    let mut enc = match encoded {
        Some(e) if e.len() == actual.len() => e,
        _ => {
            return actual
                .iter()
                .enumerate()
                .map(|(i, w)| format!("raw{i}:{w:#x}"))
                .collect::<Vec<_>>()
                .join(" ");
        }
    };
    for f in fields {
        if f.1 < actual.len() && get(actual, f) != get(&enc, f) {
            parts.push(format!("{}:{}", f.0, get(actual, f)));
            set(&mut enc, f, get(actual, f));
        }
    }
    for (i, (a, e)) in actual.iter().zip(enc.iter()).enumerate() {
        if a != e {
            parts.push(format!("raw{i}:{a:#x}"));
        }
    }
    parts.join(" ")
}

pub(crate) fn cf_extras(c: &CfInst) -> String {
    let text = text::cf_text(c);
    let fields = match c.kind {
        crate::decode::CfKind::Alu(_) => CF_ALU_FIELDS,
        crate::decode::CfKind::Export(_) => EXPORT_FIELDS,
        crate::decode::CfKind::Normal(_) => CF_FIELDS,
    };
    diff(
        fields,
        &[c.w0, c.w1],
        encode_cf(&text, "").ok().map(|w| w.to_vec()),
    )
}

pub(crate) fn alu_extras(i: &AluInst) -> String {
    let text = text::alu_text(i);
    let fields = if i.row.enc == AluEnc::Op3 {
        ALU_OP3_FIELDS
    } else {
        ALU_OP2_FIELDS
    };
    diff(
        fields,
        &[i.w0, i.w1],
        encode_alu(&text, "").ok().map(|w| w.to_vec()),
    )
}

pub(crate) fn fetch_extras(f: &FetchInst) -> String {
    let text = text::fetch_text(f);
    let fields = match f.row {
        FetchRow::Tex(_) => TEX_FIELDS,
        FetchRow::Vtx(r) if r.exec == isa::FetchExec::LdsWrite => DSW_FIELDS,
        FetchRow::Vtx(r) if r.exec == isa::FetchExec::LdsRead => DSR_FIELDS,
        FetchRow::Vtx(_) => VTX_FIELDS,
    };
    diff(
        fields,
        &f.w,
        encode_fetch(&text, "").ok().map(|w| w.to_vec()),
    )
}

fn apply_extras(fields: &[Field], words: &mut [u32], extras: &str) -> Result<(), String> {
    for tok in extras.split_whitespace() {
        let (k, v) = tok
            .split_once(':')
            .ok_or_else(|| format!("extra `{tok}` is not name:value"))?;
        let val = parse_num(v).ok_or_else(|| format!("extra `{tok}` has no number"))?;
        let f = fields
            .iter()
            .chain(RAW_FIELDS.iter())
            .find(|f| f.0 == k)
            .ok_or_else(|| format!("unknown field `{k}` here"))?;
        if f.1 >= words.len() {
            return Err(format!("field `{k}` is outside this instruction"));
        }
        set(words, f, val);
    }
    Ok(())
}

/// When the extras give every word raw (`raw0:.. raw1:..`), those words are the instruction: the
/// disassembler emits them for words whose text llc's syntax cannot express (reserved selects and the
/// like), and the printed text is then only a reading aid.
fn all_raw<const N: usize>(extras: &str) -> Option<[u32; N]> {
    let mut w = [0u32; N];
    let mut seen = [false; N];
    for tok in extras.split_whitespace() {
        let (k, v) = tok.split_once(':')?;
        if let Some(i) = k.strip_prefix("raw").and_then(|i| i.parse::<usize>().ok()) {
            if i < N {
                w[i] = parse_num(v)?;
                seen[i] = true;
            }
        }
    }
    seen.iter().all(|s| *s).then_some(w)
}

fn parse_num(s: &str) -> Option<u32> {
    let s = s.trim();
    if let Some(h) = s.strip_prefix("0x") {
        u32::from_str_radix(h, 16).ok()
    } else if let Some(n) = s.strip_prefix('-') {
        n.parse::<u32>()
            .ok()
            .map(|v| (v as i32).wrapping_neg() as u32)
    } else {
        s.parse().ok()
    }
}

fn parse_addr(s: &str) -> Result<u32, String> {
    let s = s.trim();
    s.strip_prefix('@')
        .and_then(parse_num)
        .ok_or_else(|| format!("expected @address, found `{s}`"))
}

fn chan_of(c: char) -> Option<u32> {
    match c {
        'X' | 'x' => Some(0),
        'Y' | 'y' => Some(1),
        'Z' | 'z' => Some(2),
        'W' | 'w' => Some(3),
        _ => None,
    }
}

fn rsel_of(c: char) -> Option<u32> {
    match c {
        '0' => Some(4),
        '1' => Some(5),
        '_' => Some(7),
        c => chan_of(c),
    }
}

/// `T12` -> 12.
fn parse_t(s: &str) -> Result<u32, String> {
    s.trim()
        .strip_prefix('T')
        .and_then(|n| n.parse::<u32>().ok())
        .filter(|n| *n < 128)
        .ok_or_else(|| format!("expected a register T0..T127, found `{s}`"))
}

/// `T12.XYZW` -> (12, [sels]).
fn parse_t_swz(s: &str) -> Result<(u32, [u32; 4]), String> {
    let (r, sw) = s
        .trim()
        .split_once('.')
        .ok_or_else(|| format!("expected Tn.swizzle, found `{s}`"))?;
    let g = parse_t(r)?;
    let cs: Vec<char> = sw.chars().collect();
    if cs.len() != 4 {
        return Err(format!("swizzle `{sw}` must have four selects"));
    }
    let mut out = [0; 4];
    for (k, c) in cs.iter().enumerate() {
        out[k] = rsel_of(*c).ok_or_else(|| format!("bad swizzle select `{c}`"))?;
    }
    Ok((g, out))
}

fn cf_row_by_name(name: &str) -> Option<&'static isa::CfRow> {
    isa::CF
        .iter()
        .find(|r| r.llc == name)
        .or_else(|| isa::CF.iter().find(|r| r.isa == name))
}

/// Encodes one CF line (without the leading tab) plus extras.
pub fn encode_cf(text: &str, extras: &str) -> Result<[u32; 2], String> {
    if let Some(w) = all_raw::<2>(extras) {
        return Ok(w);
    }
    let text = text.trim();
    let (name, rest) = text.split_once(' ').unwrap_or((text, ""));
    let mut w = [0u32; 2];
    let fields: &[Field];
    if let Some(r) = isa::CF_ALU.iter().find(|r| r.llc == name) {
        // NAME COUNT, @ADDR, KC0[..], KC1[..]
        let parts: Vec<&str> = rest.splitn(3, ", ").collect();
        if parts.len() != 3 {
            return Err(format!(
                "`{text}`: expected `{name} COUNT, @ADDR, KC0[..], KC1[..]`"
            ));
        }
        let count = parse_num(parts[0])
            .filter(|c| *c < 128)
            .ok_or_else(|| format!("bad ALU count `{}`", parts[0]))?;
        let addr = parse_addr(parts[1])?;
        if addr >= 1 << 22 {
            return Err(format!("ALU clause address {addr} does not fit 22 bits"));
        }
        let (k0, k1) = parts[2]
            .split_once(", ")
            .ok_or_else(|| format!("`{text}`: expected KC0[..], KC1[..]"))?;
        let kc = |s: &str, which: &str| -> Result<(u32, u32, u32), String> {
            let inner = s
                .trim()
                .strip_prefix(which)
                .and_then(|x| x.strip_prefix('['))
                .and_then(|x| x.strip_suffix(']'))
                .ok_or_else(|| format!("expected {which}[...], found `{s}`"))?;
            if inner.is_empty() {
                return Ok((0, 0, 0));
            }
            // CBb:lo-hi
            let (b, range) = inner
                .strip_prefix("CB")
                .and_then(|x| x.split_once(':'))
                .ok_or_else(|| format!("bad kcache `{inner}`"))?;
            let (lo, hi) = range
                .split_once('-')
                .ok_or_else(|| format!("bad kcache range `{range}`"))?;
            let (b, lo, hi) = (
                parse_num(b).ok_or("bad kcache bank")?,
                parse_num(lo).ok_or("bad kcache start")?,
                parse_num(hi).ok_or("bad kcache end")?,
            );
            let mode = match hi.checked_sub(lo) {
                Some(16) => 1,
                Some(32) => 2,
                _ => {
                    return Err(format!(
                        "kcache range `{range}` is neither 16 nor 32 constants"
                    ))
                }
            };
            if lo % 16 != 0 || lo / 16 > 255 || b > 15 {
                return Err(format!("kcache `{inner}` out of range"));
            }
            Ok((mode, b, lo / 16))
        };
        let (m0, b0, a0) = kc(k0, "KC0")?;
        let (m1, b1, a1) = kc(k1, "KC1")?;
        w[0] = addr | b0 << 22 | b1 << 26 | m0 << 30;
        w[1] = m1 | a0 << 2 | a1 << 10 | count << 18 | (r.opcode as u32) << 26 | 1 << 31;
        fields = CF_ALU_FIELDS;
    } else if name == "EXPORT" {
        let rest = rest.trim();
        if rest.contains('.') {
            let (g, s) = parse_t_swz(rest)?;
            w[0] = g << 15 | 3 << 30;
            w[1] = s[0] | s[1] << 3 | s[2] << 6 | s[3] << 9 | 0x27 << 23 | 1 << 31;
        } else {
            let g = parse_t(rest)?;
            w[0] = g << 15;
            w[1] = 0x20 << 23 | 1 << 31;
        }
        fields = EXPORT_FIELDS;
    } else if name == "PAD" {
        fields = CF_FIELDS;
    } else if name == "CF_END" {
        w[1] = 1 << 21 | 1 << 31;
        fields = CF_FIELDS;
    } else {
        let r = cf_row_by_name(name).ok_or_else(|| format!("unknown CF instruction `{name}`"))?;
        w[1] = (r.opcode as u32) << 23 | 1 << 31;
        match r.form {
            CfForm::Bare => {
                if !rest.trim().is_empty() {
                    return Err(format!("`{name}` takes no operands"));
                }
            }
            CfForm::Clause => {
                let (cnt, a) = rest
                    .trim()
                    .split_once(' ')
                    .ok_or_else(|| format!("`{text}`: expected `{name} CNT @ADDR`"))?;
                let cnt = parse_num(cnt)
                    .filter(|c| *c < 16)
                    .ok_or_else(|| format!("bad fetch count `{cnt}`"))?;
                w[0] = parse_addr(a)?;
                w[1] |= (cnt & 7) << 10 | (cnt >> 3) << 19;
            }
            CfForm::Addr => w[0] = parse_addr(rest)?,
            CfForm::AddrPop => {
                let (a, p) = rest
                    .trim()
                    .split_once(' ')
                    .ok_or_else(|| format!("`{text}`: expected `{name} @ADDR POP:n`"))?;
                w[0] = parse_addr(a)?;
                let p = p
                    .trim()
                    .strip_prefix("POP:")
                    .and_then(parse_num)
                    .filter(|p| *p < 8)
                    .ok_or_else(|| format!("bad POP count `{p}`"))?;
                w[1] |= p;
            }
        }
        fields = CF_FIELDS;
    }
    apply_extras(fields, &mut w, extras)?;
    Ok(w)
}

struct Src {
    sel: u32,
    chan: u32,
    rel: bool,
    neg: bool,
    abs: bool,
}

fn parse_src(s: &str) -> Result<Src, String> {
    let mut t = s.trim();
    let mut src = Src {
        sel: 0,
        chan: 0,
        rel: false,
        neg: false,
        abs: false,
    };
    if let Some(x) = t.strip_prefix('-') {
        src.neg = true;
        t = x;
    }
    if let Some(x) = t.strip_suffix('+') {
        src.rel = true;
        t = x;
    }
    if let Some(x) = t.strip_prefix('|').and_then(|x| x.strip_suffix('|')) {
        src.abs = true;
        t = x;
    }
    let dot_chan = |t: &str| -> Result<(String, u32), String> {
        let (a, c) = t
            .rsplit_once('.')
            .ok_or_else(|| format!("operand `{t}` has no channel"))?;
        let mut cs = c.chars();
        match (cs.next().and_then(chan_of), cs.next()) {
            (Some(ch), None) => Ok((a.to_string(), ch)),
            _ => Err(format!("bad channel in `{t}`")),
        }
    };
    match t {
        "0.0" => src.sel = sel::ZERO as u32,
        "1.0" => src.sel = sel::ONE as u32,
        "1" => src.sel = sel::ONE_INT as u32,
        "M_1_INT" => src.sel = sel::M_ONE_INT as u32,
        "0.5" => src.sel = sel::HALF as u32,
        "PS" => src.sel = sel::PS as u32,
        _ => {
            let (base, ch) = dot_chan(t)?;
            src.chan = ch;
            if let Some(n) = base
                .strip_prefix("T(")
                .and_then(|x| x.strip_suffix(" + AR.x)"))
            {
                src.sel = n
                    .parse::<u32>()
                    .ok()
                    .filter(|n| *n < 128)
                    .ok_or_else(|| format!("bad register in `{t}`"))?;
                if !src.rel {
                    return Err(format!(
                        "`{t}`: AR-relative operand without the `+` relative flag"
                    ));
                }
            } else if let Some(n) = base.strip_prefix("KC0[").and_then(|x| x.strip_suffix(']')) {
                src.sel = 128
                    + n.parse::<u32>()
                        .ok()
                        .filter(|n| *n < 32)
                        .ok_or_else(|| format!("bad kcache index in `{t}`"))?;
            } else if let Some(n) = base.strip_prefix("KC1[").and_then(|x| x.strip_suffix(']')) {
                src.sel = 160
                    + n.parse::<u32>()
                        .ok()
                        .filter(|n| *n < 32)
                        .ok_or_else(|| format!("bad kcache index in `{t}`"))?;
            } else if base == "literal" {
                src.sel = sel::LITERAL as u32;
            } else if base == "PV" {
                src.sel = sel::PV as u32;
            } else if let Some(n) = base.strip_prefix('C') {
                src.sel = 256
                    + n.parse::<u32>()
                        .ok()
                        .filter(|n| *n < 256)
                        .ok_or_else(|| format!("bad constant-file index in `{t}`"))?;
            } else if let Some(n) = base.strip_prefix("SEL") {
                src.sel = n
                    .parse::<u32>()
                    .ok()
                    .filter(|n| *n < 512)
                    .ok_or_else(|| format!("bad select in `{t}`"))?;
            } else {
                src.sel = parse_t(&base)?;
            }
        }
    }
    Ok(src)
}

fn alu_row_by_name(name: &str) -> Option<&'static AluRow> {
    // The unique ISA name wins (llc prints opcode 0x43 as PRED_SETGE_INT, the ISA name of 0x44).
    isa::ALU
        .iter()
        .find(|r| r.isa == name)
        .or_else(|| isa::ALU.iter().find(|r| r.llc == name))
}

/// Splits `NAME[_SAT] rest` for ALU text; names may contain a space ("MUL NON-IEEE").
fn split_alu_name(text: &str) -> Result<(&'static AluRow, bool, &str), String> {
    let mut best: Option<(&'static AluRow, usize)> = None;
    for r in isa::ALU {
        for n in [r.isa, r.llc] {
            if let Some(rest) = text.strip_prefix(n) {
                if (rest.starts_with(' ') || rest.starts_with("_SAT "))
                    && best.is_none_or(|(_, l)| n.len() > l)
                {
                    best = Some((alu_row_by_name(n).unwrap_or(r), n.len()));
                }
            }
        }
    }
    let (row, len) = best.ok_or_else(|| format!("unknown ALU instruction in `{text}`"))?;
    let rest = &text[len..];
    match rest.strip_prefix("_SAT") {
        Some(r) => Ok((row, true, r)),
        None => Ok((row, false, rest)),
    }
}

/// Encodes one ALU instruction line (without the leading tab) plus extras.
pub fn encode_alu(text: &str, extras: &str) -> Result<[u32; 2], String> {
    if let Some(w) = all_raw::<2>(extras) {
        return Ok(w);
    }
    // llc ends an instruction with ", <pred_sel> <bank_swizzle>", both possibly empty.
    let t = text.trim();
    let owned = if t.ends_with(',') {
        format!("{t} ")
    } else {
        t.to_string()
    };
    let text = owned.as_str();
    let (row, clamp, rest) = split_alu_name(text)?;
    // " * DST..." or "   DST..."
    let rest = rest.strip_prefix(' ').unwrap_or(rest);
    let (last, rest) = match rest.strip_prefix('*') {
        Some(r) => (true, r),
        None => (false, rest),
    };
    let mut rest = rest.trim_start();
    let mut uem = false;
    let mut up = false;
    if let Some(r) = rest.strip_prefix("ExecMask,") {
        uem = true;
        rest = r;
    }
    if let Some(r) = rest.strip_prefix("Pred,") {
        up = true;
        rest = r;
    }
    let parts: Vec<&str> = rest.split(", ").collect();
    let nsrc = row.srcs as usize;
    if parts.len() != nsrc + 2 {
        return Err(format!(
            "`{text}`: {} takes {} source operand(s)",
            row.isa, nsrc
        ));
    }
    // Destination.
    let mut d = parts[0].trim();
    let mut omod = 0;
    for (t, v) in [(" * 2.0", 1), (" * 4.0", 2), (" / 2.0", 3)] {
        if let Some(x) = d.strip_suffix(t) {
            omod = v;
            d = x;
        }
    }
    let mut dst_rel = false;
    if let Some(x) = d.strip_suffix('+') {
        dst_rel = true;
        d = x;
    }
    let mut write = true;
    if let Some(x) = d.strip_suffix(" (MASKED)") {
        write = false;
        d = x;
    }
    let (dst_gpr, dst_chan) = match d {
        "PredicateBit" | "AR.x" => (0, 0),
        _ => {
            let s = parse_src(&format!("{d}{}", if dst_rel { "+" } else { "" }))?;
            if s.sel >= 128 || s.neg || s.abs {
                return Err(format!("bad destination `{d}`"));
            }
            (s.sel, s.chan)
        }
    };
    let mut srcs = Vec::new();
    for p in &parts[1..1 + nsrc] {
        srcs.push(parse_src(p)?);
    }
    // Predicate select and bank swizzle.
    let tail = parts[nsrc + 1].trim();
    let mut pred_sel = 0;
    let mut t = tail;
    for (txt, v) in [("Pred_sel_zero", 2), ("Pred_sel_one", 3), ("Pred_sel_1", 1)] {
        if let Some(x) = t.strip_prefix(txt) {
            pred_sel = v;
            t = x.trim_start();
        }
    }
    let bs = match t {
        "" => 0,
        "BS:VEC_021/SCL_122" => 1,
        "BS:VEC_120/SCL_212" => 2,
        "BS:VEC_102/SCL_221" => 3,
        "BS:VEC_201" => 4,
        "BS:VEC_210" => 5,
        "BS:6" => 6,
        "BS:7" => 7,
        _ => return Err(format!("bad predicate select / bank swizzle `{tail}`")),
    };
    let src_bits = |s: &Src| s.sel | (s.rel as u32) << 9 | s.chan << 10 | (s.neg as u32) << 12;
    let mut w0 = (index_free(&srcs, 0, src_bits)) | (index_free(&srcs, 1, src_bits)) << 13;
    w0 |= pred_sel << 29 | (last as u32) << 31;
    let mut w1 =
        bs << 18 | dst_gpr << 21 | (dst_rel as u32) << 28 | dst_chan << 29 | (clamp as u32) << 31;
    match row.enc {
        AluEnc::Op3 => {
            if !write || omod != 0 || uem || up || srcs.iter().any(|s| s.abs) {
                return Err(format!("`{text}`: OP3 instructions have no write mask, output modifier, update flags or abs"));
            }
            w1 |= index_free(&srcs, 2, src_bits) | (row.opcode as u32) << 13;
        }
        AluEnc::Op2 => {
            let abs = |k: usize| srcs.get(k).is_some_and(|s| s.abs) as u32;
            w1 |= abs(0)
                | abs(1) << 1
                | (uem as u32) << 2
                | (up as u32) << 3
                | (write as u32) << 4
                | omod << 5;
            w1 |= (row.opcode as u32) << 7;
        }
    }
    let mut w = [w0, w1];
    let fields = if row.enc == AluEnc::Op3 {
        ALU_OP3_FIELDS
    } else {
        ALU_OP2_FIELDS
    };
    apply_extras(fields, &mut w, extras)?;
    Ok(w)
}

fn index_free(srcs: &[Src], k: usize, f: impl Fn(&Src) -> u32) -> u32 {
    srcs.get(k).map(f).unwrap_or(0)
}

/// Encodes one fetch instruction line plus extras.
pub fn encode_fetch(text: &str, extras: &str) -> Result<[u32; 4], String> {
    if let Some(w) = all_raw::<4>(extras) {
        return Ok(w);
    }
    let text = text.trim();
    let (name, rest) = text
        .split_once(' ')
        .ok_or_else(|| format!("`{text}`: missing operands"))?;
    let mut w = [0u32; 4];
    if let Some(r) = isa::TEX.iter().find(|r| r.llc == name) {
        // DST.SWZ, SRC.SWZ RID:n SID:n CT:cccc
        let (d, rest) = rest
            .split_once(", ")
            .ok_or_else(|| format!("`{text}`: expected DST, SRC"))?;
        let toks: Vec<&str> = rest.split_whitespace().collect();
        if toks.len() != 4 {
            return Err(format!("`{text}`: expected `SRC RID:n SID:n CT:cccc`"));
        }
        let (dg, ds) = parse_t_swz(d)?;
        let (sg, ss) = parse_t_swz(toks[0])?;
        let rid = toks[1]
            .strip_prefix("RID:")
            .and_then(parse_num)
            .filter(|v| *v < 256)
            .ok_or("bad RID")?;
        let sid = toks[2]
            .strip_prefix("SID:")
            .and_then(parse_num)
            .filter(|v| *v < 32)
            .ok_or("bad SID")?;
        let ct = toks[3].strip_prefix("CT:").ok_or("bad CT")?;
        if ct.len() != 4 {
            return Err("CT needs four letters".into());
        }
        let mut ctb = 0;
        for (k, c) in ct.chars().enumerate() {
            match c {
                'U' => {}
                'N' => ctb |= 1 << k,
                _ => return Err(format!("bad coordinate type `{c}`")),
            }
        }
        w[0] = r.opcode as u32 | rid << 8 | sg << 16;
        w[1] = dg | ds[0] << 9 | ds[1] << 12 | ds[2] << 15 | ds[3] << 18 | ctb << 28;
        w[2] = sid << 15 | ss[0] << 20 | ss[1] << 23 | ss[2] << 26 | ss[3] << 29;
        apply_extras(TEX_FIELDS, &mut w, extras)?;
    } else if let Some(r) = isa::VTX
        .iter()
        .find(|r| r.llc == name && r.exec == isa::FetchExec::LdsWrite)
    {
        // MEM_DS_LOCAL_WRITE Tsrc.SWZ INDEX:n STRIDE:n
        let toks: Vec<&str> = rest.split_whitespace().collect();
        if toks.len() != 3 {
            return Err(format!(
                "`{text}`: expected `{name} Tsrc.SWZ INDEX:n STRIDE:n`"
            ));
        }
        let (sg, ss) = parse_t_swz(toks[0])?;
        let index = toks[1]
            .strip_prefix("INDEX:")
            .and_then(parse_num)
            .filter(|v| *v < 64)
            .ok_or("bad INDEX (0..63)")?;
        let stride = toks[2]
            .strip_prefix("STRIDE:")
            .and_then(parse_num)
            .filter(|v| *v < 128)
            .ok_or("bad STRIDE (0..127)")?;
        w[0] = r.vc_inst as u32
            | (r.mem_op.unwrap_or(0) as u32) << 8
            | sg << 11
            | ss[0] << 20
            | ss[1] << 23
            | ss[2] << 26
            | ss[3] << 29;
        w[1] = index | stride << 16;
        apply_extras(DSW_FIELDS, &mut w, extras)?;
    } else if let Some(r) = isa::VTX
        .iter()
        .find(|r| r.llc == name && r.exec == isa::FetchExec::LdsRead)
    {
        // MEM_DS_LOCAL_READ Tdst.MASK, Tsrc.BO (bank id, dword offset)
        let (d, s) = rest
            .split_once(", ")
            .ok_or_else(|| format!("`{text}`: expected `{name} Tdst.MASK, Tsrc.XY`"))?;
        let (dg, dm) = d.trim().split_once('.').ok_or("expected Tdst.MASK")?;
        let dg = parse_t(dg)?;
        let dm: Vec<char> = dm.chars().collect();
        if dm.len() != 4 {
            return Err("the destination mask needs four characters".into());
        }
        let mut wr = 0;
        for (k, c) in dm.iter().enumerate() {
            match (c, chan_of(*c)) {
                ('_', _) => {}
                (_, Some(ch)) if ch == k as u32 => wr |= 1 << k,
                _ => return Err(format!("bad destination mask character `{c}`")),
            }
        }
        let (sg, ss) = s.trim().split_once('.').ok_or("expected Tsrc.XY")?;
        let sg = parse_t(sg)?;
        let sc: Vec<u32> = ss
            .chars()
            .map(|c| rsel_of(c).ok_or_else(|| format!("bad source select `{c}`")))
            .collect::<Result<_, _>>()?;
        if sc.len() != 2 {
            return Err("the address source needs two selects (bank id, dword offset)".into());
        }
        w[0] = r.vc_inst as u32
            | (r.mem_op.unwrap_or(0) as u32) << 8
            | sg << 11
            | sc[0] << 20
            | sc[1] << 23;
        w[1] = dg | wr << 9;
        apply_extras(DSR_FIELDS, &mut w, extras)?;
    } else if let Some(r) = isa::VTX.iter().find(|r| r.llc == name) {
        let parts: Vec<&str> = rest.split(", ").collect();
        if parts.len() != 3 {
            return Err(format!("`{text}`: expected `{name} Tdst, Tsrc.C, offset`"));
        }
        let dg = parse_t(parts[0])?;
        let (sg, sc) = parts[1].trim().split_once('.').ok_or("bad VTX source")?;
        let sg = parse_t(sg)?;
        let mut cs = sc.chars();
        let sc = match (cs.next().and_then(chan_of), cs.next()) {
            (Some(c), None) => c,
            _ => return Err(format!("bad VTX source channel `{sc}`")),
        };
        let off = parse_num(parts[2])
            .filter(|v| *v < 65536)
            .ok_or("bad VTX offset")?;
        w[0] = r.vc_inst as u32 | (r.mem_op.unwrap_or(0) as u32) << 8 | sg << 16 | sc << 24;
        w[1] = dg;
        w[2] = off;
        if r.vc_inst == 0 {
            // LLVM's TEX_VTX_CONSTBUF fixed fields (R600Instructions.td) and the mega-fetch bit
            // (R600MCCodeEmitter) for R700.
            w[0] |= 2 << 5 | 16 << 26;
            w[1] |= 1 << 12 | 2 << 15 | 3 << 18 | 35 << 22 | 2 << 28 | 1 << 30 | 1 << 31;
            w[2] |= 1 << 19;
        }
        apply_extras(VTX_FIELDS, &mut w, extras)?;
    } else {
        return Err(format!("unknown fetch instruction `{name}`"));
    }
    Ok(w)
}

fn parse_literal_line(t: &str) -> Option<[u32; 2]> {
    let (a, b) = t.split_once(", ")?;
    let num = |s: &str| -> Option<u32> {
        let n = s.trim().split_once('(')?.0;
        n.parse::<i64>()
            .ok()
            .filter(|v| *v >= i32::MIN as i64 && *v <= u32::MAX as i64)
            .map(|v| v as u32)
    };
    Some([num(a)?, num(b)?])
}

#[derive(Clone, Copy, PartialEq)]
enum Section {
    Cf,
    Alu,
    Fetch,
}

/// Assembles program text into `.text` bytes. Lines: CF instructions, then `ALU clause starting at N:`
/// and `Fetch clause starting at N:` sections; `;` starts extras after an instruction, or a comment on a
/// line of its own.
pub fn assemble(src: &str) -> Result<Vec<u8>, AsmError> {
    let mut words: BTreeMap<u32, u32> = BTreeMap::new(); // dword index -> value
    let mut put = |addr_dw: u32, ws: &[u32], line: usize| -> Result<(), AsmError> {
        for (k, w) in ws.iter().enumerate() {
            let a = addr_dw.saturating_add(k as u32);
            if a >= (1 << 24) {
                return Err(AsmError {
                    line,
                    message: "address too large".into(),
                });
            }
            if words.insert(a, *w).is_some() {
                return Err(AsmError {
                    line,
                    message: format!("two instructions at byte offset {}", a * 4),
                });
            }
        }
        Ok(())
    };
    let mut section = Section::Cf;
    let mut pc = 0u32; // 8-byte units
    for (ln, raw) in src.lines().enumerate() {
        let line = ln + 1;
        let err = |m: String| AsmError { line, message: m };
        let t = raw.trim();
        if t.is_empty() || t.starts_with(';') {
            continue;
        }
        let (text, extras) = match t.split_once(';') {
            Some((a, b)) => (a.trim_end(), b.trim()),
            None => (t, ""),
        };
        // Keep trailing spaces of ALU text irrelevant: the encoders trim.
        if let Some(n) = text
            .strip_prefix("ALU clause starting at ")
            .and_then(|x| x.strip_suffix(':'))
        {
            pc = parse_num(n)
                .filter(|a| *a < 1 << 22)
                .ok_or_else(|| err(format!("bad clause address `{n}`")))?;
            section = Section::Alu;
            continue;
        }
        if let Some(n) = text
            .strip_prefix("Fetch clause starting at ")
            .and_then(|x| x.strip_suffix(':'))
        {
            pc = parse_num(n)
                .filter(|a| *a < 1 << 22)
                .ok_or_else(|| err(format!("bad clause address `{n}`")))?;
            section = Section::Fetch;
            continue;
        }
        match section {
            Section::Cf => {
                let w = encode_cf(text, extras).map_err(err)?;
                put(pc * 2, &w, line)?;
                pc += 1;
            }
            Section::Alu => {
                // Literal lines start with a number; instructions with a mnemonic.
                let w = if text.starts_with(|c: char| c.is_ascii_digit() || c == '-') {
                    parse_literal_line(text)
                        .ok_or_else(|| err(format!("bad literal line `{text}`")))?
                } else {
                    encode_alu(text, extras).map_err(err)?
                };
                put(pc * 2, &w, line)?;
                pc += 1;
            }
            Section::Fetch => {
                let w = encode_fetch(text, extras).map_err(err)?;
                put(pc * 2, &w, line)?;
                pc += 2;
            }
        }
    }
    let end = words.keys().next_back().map(|k| k + 1).unwrap_or(0);
    let end = end.div_ceil(2) * 2;
    let mut out = Vec::with_capacity(end as usize * 4);
    for i in 0..end {
        out.extend_from_slice(&words.get(&i).copied().unwrap_or(0).to_le_bytes());
    }
    Ok(out)
}
