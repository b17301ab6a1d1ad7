//! Operand text: registers and ranges, inline constants and literals by operand type, register
//! class remarks, modifiers, DPP and swizzle controls.

use super::*;

pub(super) fn range(prefix: &str, first: u32, dwords: u32) -> String {
    if dwords <= 1 {
        format!("{prefix}{first}")
    } else {
        format!("{prefix}[{}:{}]", first, first + dwords - 1)
    }
}

/// Name of a scalar register or special source for an operand `dwords` wide (0 counts as 1).
pub(super) fn sreg(code: u16, dwords: u32) -> String {
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

pub(super) fn vreg(code: u16, dwords: u32) -> String {
    range("v", (code - opnd::VGPR0) as u32, dwords.max(1))
}

/// Any register operand (VGPR or scalar).
pub(super) fn reg(code: u16, dwords: u32) -> String {
    if opnd::is_vgpr(code) {
        vreg(code, dwords)
    } else {
        sreg(code, dwords)
    }
}

// ------------------------------------------------------------------------------------------------
// Constants
// ------------------------------------------------------------------------------------------------

pub(super) fn hex(v: u64) -> String {
    format!("{v:#x}")
}

/// LLVM `printImmediate32`: small integers in decimal, the inline float values by name.
pub(super) fn imm32(v: u32) -> String {
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
pub(super) fn f64_hi_name(hi: u32) -> Option<&'static str> {
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

pub(super) fn half_name(v: u16) -> Option<&'static str> {
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

pub(super) fn bf16_name(v: u16) -> Option<&'static str> {
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
pub(super) fn imm16bf(v: u16) -> String {
    let s = v as i16;
    if (-16..=64).contains(&s) {
        return s.to_string();
    }
    bf16_name(v)
        .map(str::to_string)
        .unwrap_or_else(|| hex(v as u64))
}

/// LLVM `printImmediate16` (float 16-bit operands).
pub(super) fn imm16f(v: u16) -> String {
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
pub(super) fn imm16i(v: u32) -> String {
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

pub(super) const FLOAT_NAMES: [&str; 8] =
    ["0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0"];
pub(super) const HALF_BITS: [u16; 9] = [
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
];

/// How an inline constant or literal prints for an operand of type `t`.
pub(super) fn constant(code: u16, t: Ty, lit: u32) -> String {
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
pub(super) enum ConstClass {
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
pub(super) fn is_const(code: u16) -> bool {
    (128..=208).contains(&code) || (240..=248).contains(&code) || code == opnd::LITERAL
}

/// A scalar or vector source of type `t` (register, inline constant or literal).
pub(super) fn src(code: u16, t: Ty, lit: u32, wave64: bool) -> String {
    if is_const(code) {
        constant(code, t, lit)
    } else {
        reg(code, ty_dwords(t, wave64))
    }
}

/// Register width of an operand type; lane masks are a pair in wave64.
pub(super) fn ty_dwords(t: Ty, wave64: bool) -> u32 {
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

pub(super) fn invalid_reg(class: &str) -> String {
    format!("/*Invalid register, operand has '{class}' register class*/")
}

pub(super) const INVALID_IMM: &str = "/*Invalid immediate*/";

/// v_fmamk/v_fmaak (the table's `fmak` fact).
pub(super) fn is_fmak(op: Op) -> bool {
    op.facts().fmak != crate::isa::Fmak::None
}

/// The class of a VOP3 source that only admits VGPRs (the table's register-class facts: lane
/// reads/permutes, VGPR moves).
pub(super) fn vop3_vgpr_class(op: Op, k: usize) -> Option<&'static str> {
    match op.facts().src_class.get(k) {
        Some(RegClass::Vgpr) => Some("VGPR_32"),
        _ => None,
    }
}

/// The class of a VOP3 source that only admits scalar registers (lane selects, v_writelane's
/// data).
pub(super) fn vop3_sgpr_class(op: Op, k: usize) -> Option<&'static str> {
    match op.facts().src_class.get(k) {
        Some(RegClass::SRegOrLds) => Some("SRegOrLds_32"),
        Some(RegClass::SReg) => Some("SReg_32"),
        _ => None,
    }
}

/// A source whose operand class only admits registers of `class` (v_readfirstlane_b32:
/// VRegOrLds_32; v_movrels*/v_swap*: VGPR_32): SGPRs get a register remark, constants an
/// immediate remark; null and the src_* values are accepted as inline values.
pub(super) fn reg_class_src(code: u16, lit: u32, class: &str) -> String {
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
pub(super) fn is_inline_value(code: u16) -> bool {
    matches!(code, opnd::NULL | 235..=239 | 251..=253)
}

/// The SGPR destination of v_readfirstlane_b32 / v_readlane_b32 (see the decoder): constants
/// and src_lds_direct print with LLVM's remarks.
pub(super) fn lane_read_dst(code: u16) -> String {
    if is_const(code) {
        format!("{}{INVALID_IMM}", constant(code, Ty::B32, 0))
    } else if code == opnd::LDS_DIRECT {
        format!("{}{}", sreg(code, 1), invalid_reg("SReg_32"))
    } else {
        sreg(code, 1)
    }
}

/// True16-era LLVM gives 16-bit e32 operands a "Lo128" class: VGPRs 128-255 are not allowed.
pub(super) fn lo128_bad(code: u16) -> bool {
    opnd::is_vgpr(code) && code - opnd::VGPR0 >= 128
}

pub(super) fn smem_dst_remark(code: u16, dwords: u32) -> String {
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
pub(super) fn mods_text(base: String, neg: bool, abs: bool, is_imm: bool) -> String {
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
pub(super) fn wmma_acc_ty(op: Op) -> Ty {
    match op {
        Op::V_WMMA_F16_16X16X16_F16 => Ty::F16,
        Op::V_WMMA_BF16_16X16X16_BF16 => Ty::Bf16,
        _ => Ty::B32,
    }
}

pub(super) fn cache_bits(s: &mut String, f: u32) {
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

pub(super) fn join(name: &str, ops: &[String]) -> String {
    if ops.is_empty() {
        name.to_string()
    } else {
        format!("{name} {}", ops.join(", "))
    }
}

/// ds_swizzle_b32 offset: QUAD_PERM when bits 15:8 are 0x80, a bitmask permutation (shown as
/// SWAP, REVERSE, BROADCAST or the per-bit pattern) when bit 15 is clear, else decimal.
pub(super) fn swizzle(v: u16) -> String {
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

pub(super) fn dpp_ctrl(c: u16) -> String {
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
