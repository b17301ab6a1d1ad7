//! Decoding `.text` into the CF program, ALU clauses (VLIW groups with literals) and fetch clauses.
//!
//! Word layouts: R700 ISA reference chapter 10 (microcode formats), as given by Mesa's `r700_sq.h`
//! and LLVM's `R600InstrFormats.td`. Addresses are in 8-byte units (one CF word pair, one ALU slot;
//! a fetch instruction takes two units).

use std::collections::BTreeMap;

use crate::error::DecodeError;
use crate::isa::{self, AluEnc, AluRow, CfAluRow, CfRow, Chip, ExportRow, TexRow, Unit, VtxRow};

/// `(w >> lo) & mask(n)`.
#[inline]
pub fn bits(w: u32, lo: u32, n: u32) -> u32 {
    (w >> lo) & ((1u32 << n) - 1)
}

/// ALU source selects (R700 ISA reference, 10.? ALU_WORD0.SRC*_SEL).
pub mod sel {
    pub const GPR_END: u16 = 128;
    pub const KCACHE0: u16 = 128;
    pub const KCACHE1: u16 = 160;
    pub const KCACHE_END: u16 = 192;
    pub const ZERO: u16 = 248;
    pub const ONE: u16 = 249;
    pub const ONE_INT: u16 = 250;
    pub const M_ONE_INT: u16 = 251;
    pub const HALF: u16 = 252;
    pub const LITERAL: u16 = 253;
    pub const PV: u16 = 254;
    pub const PS: u16 = 255;
    /// 256..511: the constant file (cfile), c[sel - 256].
    pub const CFILE: u16 = 256;
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct AluSrc {
    pub sel: u16,
    pub chan: u8,
    pub rel: bool,
    pub neg: bool,
    pub abs: bool,
}

/// Vector slots x, y, z, w are 0..=3; the transcendental slot is 4.
pub const SLOT_T: u8 = 4;

#[derive(Clone, Copy)]
pub struct AluInst {
    pub row: &'static AluRow,
    pub w0: u32,
    pub w1: u32,
    pub src: [AluSrc; 3],
    pub dst_gpr: u8,
    pub dst_chan: u8,
    pub dst_rel: bool,
    pub clamp: bool,
    /// OP2 write mask bit; OP3 instructions always write.
    pub write: bool,
    pub omod: u8,
    pub update_exec_mask: bool,
    pub update_pred: bool,
    pub pred_sel: u8,
    pub last: bool,
    pub bank_swizzle: u8,
    pub index_mode: u8,
    pub slot: u8,
}

impl AluInst {
    pub fn decode(w0: u32, w1: u32) -> Result<AluInst, String> {
        let op3 = bits(w1, 15, 3) != 0;
        let (enc, opcode) = if op3 {
            (AluEnc::Op3, bits(w1, 13, 5) as u16)
        } else {
            (AluEnc::Op2, bits(w1, 7, 11) as u16)
        };
        let row = isa::alu_row(enc, opcode)
            .ok_or_else(|| format!("no R700 ALU {enc:?} instruction has opcode {opcode:#x}"))?;
        let s0 = AluSrc {
            sel: bits(w0, 0, 9) as u16,
            rel: bits(w0, 9, 1) != 0,
            chan: bits(w0, 10, 2) as u8,
            neg: bits(w0, 12, 1) != 0,
            abs: !op3 && bits(w1, 0, 1) != 0,
        };
        let s1 = AluSrc {
            sel: bits(w0, 13, 9) as u16,
            rel: bits(w0, 22, 1) != 0,
            chan: bits(w0, 23, 2) as u8,
            neg: bits(w0, 25, 1) != 0,
            abs: !op3 && bits(w1, 1, 1) != 0,
        };
        let s2 = if op3 {
            AluSrc {
                sel: bits(w1, 0, 9) as u16,
                rel: bits(w1, 9, 1) != 0,
                chan: bits(w1, 10, 2) as u8,
                neg: bits(w1, 12, 1) != 0,
                abs: false,
            }
        } else {
            AluSrc::default()
        };
        Ok(AluInst {
            row,
            w0,
            w1,
            src: [s0, s1, s2],
            dst_gpr: bits(w1, 21, 7) as u8,
            dst_rel: bits(w1, 28, 1) != 0,
            dst_chan: bits(w1, 29, 2) as u8,
            clamp: bits(w1, 31, 1) != 0,
            write: op3 || bits(w1, 4, 1) != 0,
            omod: if op3 { 0 } else { bits(w1, 5, 2) as u8 },
            update_exec_mask: !op3 && bits(w1, 2, 1) != 0,
            update_pred: !op3 && bits(w1, 3, 1) != 0,
            pred_sel: bits(w0, 29, 2) as u8,
            last: bits(w0, 31, 1) != 0,
            bank_swizzle: bits(w1, 18, 3) as u8,
            index_mode: bits(w0, 26, 3) as u8,
            slot: 0,
        })
    }

    /// The sources this instruction reads (its row's operand count).
    pub fn srcs(&self) -> &[AluSrc] {
        &self.src[..self.row.srcs as usize]
    }
}

#[derive(Clone)]
pub struct AluGroup {
    /// Address (8-byte units) of the group's first slot.
    pub addr: u32,
    pub insts: Vec<AluInst>,
    /// Literal constants (0, 2 or 4 dwords) following the group.
    pub literals: Vec<u32>,
}

#[derive(Clone)]
pub struct AluClause {
    pub addr: u32,
    pub slots: u32,
    pub groups: Vec<AluGroup>,
}

#[derive(Clone, Copy)]
pub enum FetchRow {
    Tex(&'static TexRow),
    Vtx(&'static VtxRow),
}

#[derive(Clone, Copy)]
pub struct FetchInst {
    pub addr: u32,
    pub w: [u32; 4],
    pub row: FetchRow,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FetchKind {
    Tex,
    Vtx,
}

#[derive(Clone)]
pub struct FetchClause {
    pub addr: u32,
    pub kind: FetchKind,
    pub insts: Vec<FetchInst>,
}

#[derive(Clone, Copy)]
pub enum CfKind {
    Normal(&'static CfRow),
    Alu(&'static CfAluRow),
    Export(&'static ExportRow),
}

#[derive(Clone, Copy)]
pub struct CfInst {
    pub addr: u32,
    pub w0: u32,
    pub w1: u32,
    pub kind: CfKind,
}

impl CfInst {
    pub fn decode(addr: u32, w0: u32, w1: u32) -> Result<CfInst, String> {
        // CF_ALU_WORD1.CF_INST occupies bits 29:26 with values 8..15, so bit 29 is set; every other CF
        // instruction's 7-bit CF_INST (bits 29:23) is below 64 and leaves it clear.
        let kind = if bits(w1, 29, 1) != 0 {
            let op = bits(w1, 26, 4) as u8;
            CfKind::Alu(
                isa::CF_ALU
                    .iter()
                    .find(|r| r.opcode == op)
                    .ok_or_else(|| format!("no R700 CF_ALU instruction has CF_INST {op}"))?,
            )
        } else {
            let op = bits(w1, 23, 7) as u8;
            if let Some(r) = isa::EXPORT.iter().find(|r| r.opcode == op) {
                CfKind::Export(r)
            } else {
                CfKind::Normal(
                    isa::CF
                        .iter()
                        .find(|r| r.opcode == op)
                        .ok_or_else(|| format!("no R700 CF instruction has CF_INST {op:#x}"))?,
                )
            }
        };
        Ok(CfInst { addr, w0, w1, kind })
    }
    pub fn end_of_program(&self) -> bool {
        match self.kind {
            CfKind::Alu(_) => false,
            _ => bits(self.w1, 21, 1) != 0,
        }
    }
    /// Fetch clauses: COUNT (bits 12:10) with COUNT_3 (bit 19) as its fourth bit.
    pub fn fetch_count_field(&self) -> u32 {
        bits(self.w1, 10, 3) | (bits(self.w1, 19, 1) << 3)
    }
    pub fn pop_count(&self) -> u32 {
        bits(self.w1, 0, 3)
    }
    pub fn cf_const(&self) -> u32 {
        bits(self.w1, 3, 5)
    }
    pub fn cond(&self) -> u32 {
        bits(self.w1, 8, 2)
    }
    pub fn call_count(&self) -> u32 {
        bits(self.w1, 13, 6)
    }
    /// VALID_PIXEL_MODE (not present in CF_ALU words, whose bit 22 belongs to COUNT).
    pub fn valid_pixel_mode(&self) -> bool {
        !matches!(self.kind, CfKind::Alu(_)) && bits(self.w1, 22, 1) != 0
    }
    pub fn whole_quad_mode(&self) -> bool {
        bits(self.w1, 30, 1) != 0
    }
    pub fn barrier(&self) -> bool {
        bits(self.w1, 31, 1) != 0
    }
    /// ALU clauses: address, slot count.
    pub fn alu_addr(&self) -> u32 {
        bits(self.w0, 0, 22)
    }
    pub fn alu_count_field(&self) -> u32 {
        bits(self.w1, 18, 7)
    }
}

/// A decoded R700 program.
#[derive(Clone)]
pub struct Program {
    pub chip: Chip,
    pub words: Vec<u32>,
    pub cf: Vec<CfInst>,
    pub alu: BTreeMap<u32, AluClause>,
    pub fetch: BTreeMap<u32, FetchClause>,
}

fn slot_pair(words: &[u32], addr: u32) -> Option<(u32, u32)> {
    let i = addr as usize * 2;
    Some((*words.get(i)?, *words.get(i + 1)?))
}

/// Decodes one ALU clause of `slots` 64-bit slots at `addr`.
pub fn decode_alu_clause(words: &[u32], addr: u32, slots: u32) -> Result<AluClause, DecodeError> {
    let mut groups = Vec::new();
    let end = addr + slots;
    let mut pc = addr;
    while pc < end {
        let gaddr = pc;
        let mut insts: Vec<AluInst> = Vec::new();
        let mut used = [false; 5];
        loop {
            if pc >= end {
                return Err(DecodeError::at(
                    pc,
                    "ALU clause ends inside an instruction group (no LAST bit)",
                ));
            }
            let (w0, w1) = slot_pair(words, pc)
                .ok_or_else(|| DecodeError::at(pc, "ALU clause runs past the end of .text"))?;
            let mut inst = AluInst::decode(w0, w1).map_err(|m| DecodeError::at(pc, m))?;
            if insts.len() == 5 {
                return Err(DecodeError::at(
                    pc,
                    "ALU instruction group has more than five instructions",
                ));
            }
            // Slot assignment (R700 ISA reference, 4.7.1 "ALU instruction groups"): a vector-capable
            // instruction goes to the slot of its destination channel unless that slot is taken, in
            // which case it (or a trans-only instruction) goes to the trans slot.
            let chan = inst.dst_chan as usize;
            let slot = match inst.row.unit {
                Unit::Trans => SLOT_T,
                Unit::Vector | Unit::Reduction if used[chan] => {
                    return Err(DecodeError::at(
                        pc,
                        format!(
                            "{} needs vector slot {} which is already taken",
                            inst.row.isa,
                            "xyzw".as_bytes()[chan] as char
                        ),
                    ))
                }
                Unit::Vector | Unit::Reduction => chan as u8,
                Unit::Any if !used[chan] => chan as u8,
                Unit::Any => SLOT_T,
            };
            if used[slot as usize] {
                return Err(DecodeError::at(
                    pc,
                    "ALU instruction group uses the trans slot twice",
                ));
            }
            used[slot as usize] = true;
            inst.slot = slot;
            let last = inst.last;
            insts.push(inst);
            pc += 1;
            if last {
                break;
            }
        }
        let mut nlit = 0u32;
        for i in &insts {
            for s in i.srcs() {
                if s.sel == sel::LITERAL {
                    nlit = nlit.max(s.chan as u32 + 1);
                }
            }
        }
        let pairs = nlit.div_ceil(2);
        let mut literals = Vec::new();
        for _ in 0..pairs {
            if pc >= end {
                return Err(DecodeError::at(
                    pc,
                    "ALU clause ends before the group's literal constants",
                ));
            }
            let (a, b) = slot_pair(words, pc).ok_or_else(|| {
                DecodeError::at(pc, "literal constants run past the end of .text")
            })?;
            literals.push(a);
            literals.push(b);
            pc += 1;
        }
        groups.push(AluGroup {
            addr: gaddr,
            insts,
            literals,
        });
    }
    Ok(AluClause {
        addr,
        slots,
        groups,
    })
}

pub fn decode_fetch_clause(
    words: &[u32],
    addr: u32,
    count: u32,
    kind: FetchKind,
) -> Result<FetchClause, DecodeError> {
    let mut insts = Vec::new();
    for k in 0..count {
        let a = addr + 2 * k;
        let i = a as usize * 2;
        let w: [u32; 4] = match words.get(i..i + 4) {
            Some(s) => [s[0], s[1], s[2], s[3]],
            None => {
                return Err(DecodeError::at(
                    a,
                    "fetch clause runs past the end of .text",
                ))
            }
        };
        let row = match kind {
            FetchKind::Tex => {
                let op = bits(w[0], 0, 5) as u8;
                FetchRow::Tex(isa::TEX.iter().find(|r| r.opcode == op).ok_or_else(|| {
                    DecodeError::at(a, format!("no R700 TEX instruction has TEX_INST {op:#x}"))
                })?)
            }
            FetchKind::Vtx => {
                let vc = bits(w[0], 0, 5) as u8;
                let mem_op = bits(w[0], 8, 3) as u8;
                FetchRow::Vtx(
                    isa::VTX
                        .iter()
                        .find(|r| r.vc_inst == vc && r.mem_op.is_none_or(|m| m == mem_op))
                        .ok_or_else(|| DecodeError::at(a, format!("no R700 vertex-cache instruction has VC_INST {vc} (MEM_OP {mem_op})")))?,
                )
            }
        };
        insts.push(FetchInst { addr: a, w, row });
    }
    Ok(FetchClause { addr, kind, insts })
}

impl Program {
    /// Decodes `.text` bytes (little-endian dwords).
    pub fn decode(chip: Chip, text: &[u8]) -> Result<Program, DecodeError> {
        if text.len() & 7 != 0 {
            return Err(DecodeError::at(
                0,
                format!(
                    ".text is {} bytes, not a whole number of 64-bit words",
                    text.len()
                ),
            ));
        }
        let words: Vec<u32> = text
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        let units = (words.len() / 2) as u32;
        let mut cf = Vec::new();
        let mut alu = BTreeMap::new();
        let mut fetch: BTreeMap<u32, FetchClause> = BTreeMap::new();
        let mut end = units;
        let mut pc = 0;
        while pc < end {
            let (w0, w1) = slot_pair(&words, pc)
                .ok_or_else(|| DecodeError::at(pc, "CF program runs past .text"))?;
            let inst = CfInst::decode(pc, w0, w1).map_err(|m| DecodeError::at(pc, m))?;
            match inst.kind {
                CfKind::Alu(_) => {
                    let a = inst.alu_addr();
                    let n = inst.alu_count_field() + 1;
                    if a <= pc || a + n > units {
                        return Err(DecodeError::at(pc, format!("ALU clause @{a} with {n} slots is outside .text after the CF program")));
                    }
                    end = end.min(a);
                    if let std::collections::btree_map::Entry::Vacant(e) = alu.entry(a) {
                        e.insert(decode_alu_clause(&words, a, n)?);
                    }
                }
                CfKind::Normal(r) if r.form == isa::CfForm::Clause => {
                    let a = inst.w0;
                    let n = inst.fetch_count_field() + 1;
                    let kind = if matches!(r.exec, isa::CfExec::TexClause) {
                        FetchKind::Tex
                    } else {
                        FetchKind::Vtx
                    };
                    if a <= pc || a as u64 + 2 * n as u64 > units as u64 {
                        return Err(DecodeError::at(pc, format!("fetch clause @{a} with {n} instructions is outside .text after the CF program")));
                    }
                    end = end.min(a);
                    if let Some(c) = fetch.get(&a) {
                        if c.kind != kind {
                            return Err(DecodeError::at(
                                pc,
                                format!("clause @{a} is used both as TEX and VTX clause"),
                            ));
                        }
                    } else {
                        fetch.insert(a, decode_fetch_clause(&words, a, n, kind)?);
                    }
                }
                _ => {}
            }
            cf.push(inst);
            pc += 1;
        }
        // Clauses must not overlap one another.
        let mut spans: Vec<(u32, u32)> = alu.values().map(|c| (c.addr, c.addr + c.slots)).collect();
        spans.extend(
            fetch
                .values()
                .map(|c| (c.addr, c.addr + 2 * c.insts.len() as u32)),
        );
        spans.sort();
        for w in spans.windows(2) {
            if w[1].0 < w[0].1 {
                return Err(DecodeError::at(
                    w[1].0,
                    format!("clause @{} overlaps the clause @{}", w[1].0, w[0].0),
                ));
            }
        }
        Ok(Program {
            chip,
            words,
            cf,
            alu,
            fetch,
        })
    }
}
