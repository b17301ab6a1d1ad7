//! One instruction's text in llc-19's R600 syntax (`R600InstPrinter`, the asm strings of
//! `R600Instructions.td`): the printers the disassembler, the assembler's `; field:value` extras and the
//! executor's error locations all use. It sits below `asm` and `disasm` so neither imports the other's
//! helpers.

use crate::decode::{bits, sel, AluInst, AluSrc, CfInst, CfKind, FetchInst, FetchRow};
use crate::isa::{AluEnc, AluExec, CfForm, ExportKind, FetchExec};

pub(crate) const CHAN: [char; 4] = ['X', 'Y', 'Z', 'W'];

/// C `printf("%.6e")` as LLVM's `raw_ostream << double` prints it (NaN as `nan`, infinities as `INF`).
pub fn fmt_e(v: f64) -> String {
    if v.is_nan() {
        return "nan".into();
    }
    if v.is_infinite() {
        return if v < 0.0 { "-INF".into() } else { "INF".into() };
    }
    let s = format!("{v:.6e}");
    let (m, e) = s.split_once('e').unwrap_or((&s, "0"));
    let exp: i32 = e.parse().unwrap_or(0);
    format!("{m}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
}

/// `N(float)` as llc prints a literal dword.
pub fn fmt_literal(v: u32) -> String {
    format!("{}({})", v as i32, fmt_e(f32::from_bits(v) as f64))
}

pub(crate) fn rsel(v: u32) -> &'static str {
    match v {
        0 => "X",
        1 => "Y",
        2 => "Z",
        3 => "W",
        4 => "0",
        5 => "1",
        7 => "_",
        _ => "",
    }
}

pub(crate) fn src_name(s: &AluSrc) -> String {
    let c = CHAN[s.chan as usize & 3];
    match s.sel {
        g if g < sel::GPR_END => {
            if s.rel {
                format!("T({g} + AR.x).{c}")
            } else {
                format!("T{g}.{c}")
            }
        }
        k if k < sel::KCACHE1 => format!("KC0[{}].{c}", k - sel::KCACHE0),
        k if k < sel::KCACHE_END => format!("KC1[{}].{c}", k - sel::KCACHE1),
        sel::ZERO => "0.0".into(),
        sel::ONE => "1.0".into(),
        sel::ONE_INT => "1".into(),
        sel::M_ONE_INT => "M_1_INT".into(),
        sel::HALF => "0.5".into(),
        sel::LITERAL => format!("literal.{}", c.to_ascii_lowercase()),
        sel::PV => format!("PV.{c}"),
        sel::PS => "PS".into(),
        k if k >= sel::CFILE => format!("C{}.{c}", k - sel::CFILE),
        k => format!("SEL{k}.{c}"),
    }
}

fn src_text(s: &AluSrc, with_abs: bool) -> String {
    let mut t = String::new();
    if s.neg {
        t.push('-');
    }
    let abs = with_abs && s.abs;
    if abs {
        t.push('|');
    }
    t += &src_name(s);
    if abs {
        t.push('|');
    }
    // llc prints the relative flag as '+' after GPR operands; relative kcache/cfile operands get it too.
    if s.rel {
        t.push('+');
    }
    t
}

pub(crate) fn is_pred_dst(i: &AluInst) -> bool {
    matches!(
        i.row.exec,
        AluExec::PredSet { .. }
            | AluExec::PredSetInv
            | AluExec::PredSetPop
            | AluExec::PredSetClr
            | AluExec::PredSetRestore
    ) && (i.update_pred || i.update_exec_mask)
        && i.dst_gpr == 0
        && i.dst_chan == 0
        && !i.dst_rel
}

pub(crate) fn is_ar_dst(i: &AluInst) -> bool {
    matches!(i.row.exec, AluExec::Mova(_)) && i.dst_gpr == 0 && i.dst_chan == 0 && !i.dst_rel
}

fn dst_name(i: &AluInst) -> String {
    if is_pred_dst(i) {
        return "PredicateBit".into();
    }
    if is_ar_dst(i) {
        return "AR.x".into();
    }
    let c = CHAN[i.dst_chan as usize & 3];
    if i.dst_rel {
        format!("T({} + AR.x).{c}", i.dst_gpr)
    } else {
        format!("T{}.{c}", i.dst_gpr)
    }
}

pub(crate) fn pred_sel_text(p: u8) -> &'static str {
    match p {
        0 => "",
        1 => "Pred_sel_1",
        2 => "Pred_sel_zero",
        _ => "Pred_sel_one",
    }
}

pub(crate) fn bank_swizzle_text(b: u8) -> &'static str {
    match b {
        0 => "",
        1 => "BS:VEC_021/SCL_122",
        2 => "BS:VEC_120/SCL_212",
        3 => "BS:VEC_102/SCL_221",
        4 => "BS:VEC_201",
        5 => "BS:VEC_210",
        6 => "BS:6",
        _ => "BS:7",
    }
}

pub(crate) fn omod_text(o: u8) -> &'static str {
    match o {
        1 => " * 2.0",
        2 => " * 4.0",
        3 => " / 2.0",
        _ => "",
    }
}

/// One ALU instruction as llc prints it (without the leading tab).
pub fn alu_text(i: &AluInst) -> String {
    let r = i.row;
    let clamp = if i.clamp { "_SAT" } else { "" };
    let last = if i.last { '*' } else { ' ' };
    let dst = dst_name(i);
    let dst_rel = if i.dst_rel { "+" } else { "" };
    let ps = pred_sel_text(i.pred_sel);
    let bs = bank_swizzle_text(i.bank_swizzle);
    match r.enc {
        AluEnc::Op3 => {
            let s: Vec<String> = i.src.iter().map(|s| src_text(s, false)).collect();
            format!(
                "  {}{clamp} {last} {dst}{dst_rel}, {}, {}, {}, {ps}{bs}",
                r.llc, s[0], s[1], s[2]
            )
        }
        AluEnc::Op2 => {
            let masked = if i.write { "" } else { " (MASKED)" };
            let omod = omod_text(i.omod);
            let head = format!("  {}{clamp} {last} ", r.llc);
            let d = format!("{dst}{masked}{dst_rel}{omod}");
            match r.srcs {
                0 => format!("{head}{d}, {ps} {bs}"),
                1 => format!("{head}{d}, {}, {ps} {bs}", src_text(&i.src[0], true)),
                _ => {
                    let uem = if i.update_exec_mask { "ExecMask," } else { "" };
                    let up = if i.update_pred { "Pred," } else { "" };
                    format!(
                        "{head}{uem}{up}{d}, {}, {}, {ps} {bs}",
                        src_text(&i.src[0], true),
                        src_text(&i.src[1], true)
                    )
                }
            }
        }
    }
}

fn kcache_text(mode: u32, bank: u32, addr: u32) -> String {
    if mode == 0 {
        return String::new();
    }
    let line = if mode == 1 { 16 } else { 32 };
    format!("CB{bank}:{}-{}", addr * 16, addr * 16 + line)
}

/// One CF instruction as llc prints it.
pub fn cf_text(c: &CfInst) -> String {
    match c.kind {
        CfKind::Alu(r) => {
            let (w0, w1) = (c.w0, c.w1);
            format!(
                "{} {}, @{}, KC0[{}], KC1[{}]",
                r.llc,
                c.alu_count_field(),
                c.alu_addr(),
                kcache_text(bits(w0, 30, 2), bits(w0, 22, 4), bits(w1, 2, 8)),
                kcache_text(bits(w1, 0, 2), bits(w0, 26, 4), bits(w1, 10, 8)),
            )
        }
        CfKind::Export(r) => {
            let gpr = bits(c.w0, 15, 7);
            match r.kind {
                ExportKind::Swizzle => format!(
                    "EXPORT T{gpr}.{}{}{}{}",
                    rsel(bits(c.w1, 0, 3)),
                    rsel(bits(c.w1, 3, 3)),
                    rsel(bits(c.w1, 6, 3)),
                    rsel(bits(c.w1, 9, 3))
                ),
                ExportKind::Buffer => format!("EXPORT T{gpr}"),
            }
        }
        CfKind::Normal(r) => {
            if c.w0 == 0 && c.w1 == 0 {
                return "PAD".into();
            }
            if r.opcode == 0 && c.end_of_program() {
                return "CF_END".into();
            }
            match r.form {
                CfForm::Bare => r.llc.into(),
                CfForm::Clause => format!("{} {} @{}", r.llc, c.fetch_count_field(), c.w0),
                CfForm::Addr => format!("{} @{}", r.llc, c.w0),
                CfForm::AddrPop => format!("{} @{} POP:{}", r.llc, c.w0, c.pop_count()),
            }
        }
    }
}

/// One fetch instruction as llc prints it (TEX lines carry llc's two-space indent, VTX lines none).
pub fn fetch_text(f: &FetchInst) -> String {
    let w = &f.w;
    match f.row {
        FetchRow::Tex(r) => {
            let ct: String = (0..4)
                .map(|k| if bits(w[1], 28 + k, 1) != 0 { 'N' } else { 'U' })
                .collect();
            format!(
                "  {} T{}.{}{}{}{}, T{}.{}{}{}{} RID:{} SID:{} CT:{ct}",
                r.llc,
                bits(w[1], 0, 7),
                rsel(bits(w[1], 9, 3)),
                rsel(bits(w[1], 12, 3)),
                rsel(bits(w[1], 15, 3)),
                rsel(bits(w[1], 18, 3)),
                bits(w[0], 16, 7),
                rsel(bits(w[2], 20, 3)),
                rsel(bits(w[2], 23, 3)),
                rsel(bits(w[2], 26, 3)),
                rsel(bits(w[2], 29, 3)),
                bits(w[0], 8, 8),
                bits(w[2], 15, 5),
            )
        }
        // MEM_DSW / MEM_DSR words (R700 ISA reference, microcode formats; field positions in the
        // README's LDS section): wavesim's own text, since llc never prints them.
        FetchRow::Vtx(r) if r.exec == FetchExec::LdsWrite => format!(
            "{} T{}.{}{}{}{} INDEX:{} STRIDE:{}",
            r.llc,
            bits(w[0], 11, 7),
            rsel(bits(w[0], 20, 3)),
            rsel(bits(w[0], 23, 3)),
            rsel(bits(w[0], 26, 3)),
            rsel(bits(w[0], 29, 3)),
            bits(w[1], 0, 6),
            bits(w[1], 16, 7),
        ),
        FetchRow::Vtx(r) if r.exec == FetchExec::LdsRead => {
            let mask: String = (0..4)
                .map(|k| {
                    if bits(w[1], 9 + k, 1) != 0 {
                        CHAN[k as usize]
                    } else {
                        '_'
                    }
                })
                .collect();
            format!(
                "{} T{}.{mask}, T{}.{}{}",
                r.llc,
                bits(w[1], 0, 7),
                bits(w[0], 11, 7),
                rsel(bits(w[0], 20, 3)),
                rsel(bits(w[0], 23, 3)),
            )
        }
        FetchRow::Vtx(r) => format!(
            "{} T{}, T{}.{}, {}",
            r.llc,
            bits(w[1], 0, 7),
            bits(w[0], 16, 7),
            CHAN[bits(w[0], 24, 2) as usize],
            bits(w[2], 0, 16)
        ),
    }
}
