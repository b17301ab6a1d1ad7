//! Static checks of an R700 program against the ISA's programming rules, over every clause of
//! the decoded program (executed or not). Each rule names its source; `wavesim run --check`
//! prints the findings and exits with 3. The executor also stops with a typed error when a run
//! reaches some of these (PV/PS without a previous group, AR without MOVA, kcache outside the
//! locked lines, stack overflow); the checks find them on paths a run does not take, and the
//! rules the hardware does not stop for (same-group reads, constant read ports, fetch clause
//! dependencies) give wrong values without any error.

use std::fmt;

use crate::decode::{bits, sel, AluGroup, AluInst, CfKind, FetchRow, Program, SLOT_T};
use crate::isa::{AluExec, CfAluExec, CfExec, FetchExec};

/// Which checks run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Checks {
    pub group: bool,
    pub pvps: bool,
    pub ar: bool,
    pub consts: bool,
    pub stack: bool,
    pub tex: bool,
}

/// The names `--check` takes for R700.
pub const NAMES: &str = "group, pvps, ar, consts, stack, tex (or all)";

impl Checks {
    pub const ALL: Checks = Checks {
        group: true,
        pvps: true,
        ar: true,
        consts: true,
        stack: true,
        tex: true,
    };
    /// `all` or a comma-separated list of [`NAMES`].
    pub fn parse(s: &str) -> Result<Checks, String> {
        let mut c = Checks {
            group: false,
            pvps: false,
            ar: false,
            consts: false,
            stack: false,
            tex: false,
        };
        for p in s.split(',').map(str::trim) {
            match p {
                "all" => c = Checks::ALL,
                "group" => c.group = true,
                "pvps" => c.pvps = true,
                "ar" => c.ar = true,
                "consts" => c.consts = true,
                "stack" => c.stack = true,
                "tex" => c.tex = true,
                _ => return Err(format!("R700 check `{p}`: the R700 checks are {NAMES}")),
            }
        }
        Ok(c)
    }
}

/// The rule a finding breaks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rule {
    /// Two slots of one instruction group write the same GPR channel: which value the GPR keeps
    /// is not defined by the slot order (Mesa `r600_asm.c`, `merge_inst_groups`, never merges
    /// two writes of one channel into a group). A slot *reading* a channel another slot of its
    /// group writes is not a finding: every slot reads its operands before the group writes
    /// (R700 ISA reference, 4.7 "ALU instruction groups"), so it reads the value from before the
    /// group, and llc-19 relies on that (hundreds of such reads in corpus/r700).
    SameGroupGpr,
    /// PV/PS read where the previous group of the clause produced no such value, or in a
    /// clause's first group (R700 ISA reference, 2.5: PV and PS hold the previous instruction
    /// group's results and do not survive a clause boundary).
    PvPsAcrossClause,
    /// A relative operand indexed by AR with no MOVA in an earlier group of the same ALU clause
    /// (R700 ISA reference, 2.5: AR is valid only in the clause that wrote it, from the next
    /// group on).
    ArOutsideClause,
    /// A kcache constant outside the lines the CF_ALU instruction locked (R700 ISA reference,
    /// CF_ALU_WORD0/1 KCACHE_MODE: 0 = nothing locked, 1 = one 16-constant line, 2 = two).
    KcacheBank,
    /// More than two constant-file/kcache channel pairs ([XY] or [ZW] of one constant) read by
    /// one group: R700 has two constant read ports per group (Mesa `r600_asm.c`
    /// `reserve_cfile`; LLVM `R600InstrInfo::fitsConstReadLimitations`).
    ConstReadPorts,
    /// The CF program needs more stack entries than the object reserves (STACK_SIZE), or pops
    /// what it never pushed (R700 ISA reference, 3.6 "Stack and branching": loops take a whole
    /// entry, pushes a quarter).
    StackDepth,
    /// A fetch instruction whose address GPR an earlier instruction of the same fetch clause
    /// writes (Mesa `r600_asm.c`, `r600_bytecode_add_tex`: a TEX clause cannot fetch data and use
    /// it as a lookup address; the fetches of a clause may complete in any order).
    TexClauseDependency,
}

impl Rule {
    pub fn name(self) -> &'static str {
        match self {
            Rule::SameGroupGpr => "SameGroupGpr",
            Rule::PvPsAcrossClause => "PvPsAcrossClause",
            Rule::ArOutsideClause => "ArOutsideClause",
            Rule::KcacheBank => "KcacheBank",
            Rule::ConstReadPorts => "ConstReadPorts",
            Rule::StackDepth => "StackDepth",
            Rule::TexClauseDependency => "TexClauseDependency",
        }
    }
}

/// One finding: the rule, the CF instruction, the clause address and the text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Finding {
    pub rule: Rule,
    pub cf_pc: u32,
    /// The ALU group's or fetch instruction's address, inside a clause.
    pub clause_pc: Option<u32>,
    pub msg: String,
}

impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} at CF @{}", self.rule.name(), self.cf_pc)?;
        if let Some(p) = self.clause_pc {
            write!(f, ", clause @{p}")?;
        }
        write!(f, ": {}", self.msg)
    }
}

const SLOT: [char; 5] = ['x', 'y', 'z', 'w', 't'];
const CHAN: [char; 4] = ['X', 'Y', 'Z', 'W'];

/// The GPR channel an ALU instruction writes, if it writes a plain (non-relative) GPR.
fn gpr_dst(i: &AluInst) -> Option<(u8, u8)> {
    let special = crate::text::is_pred_dst(i) || crate::text::is_ar_dst(i);
    (i.write && !i.dst_rel && !special).then_some((i.dst_gpr, i.dst_chan))
}

fn text(i: &AluInst) -> String {
    crate::text::alu_text(i).trim().to_string()
}

/// Runs `checks` over `p`; `stack_limit` is the object's STACK_SIZE in entries (or the chip's
/// maximum).
pub fn check(p: &Program, checks: Checks, stack_limit: u32) -> Vec<Finding> {
    let mut out = Vec::new();
    for c in &p.cf {
        match c.kind {
            CfKind::Alu(_) => {
                let Some(clause) = p.alu.get(&c.alu_addr()) else {
                    continue;
                };
                let kcache = [
                    (bits(c.w0, 30, 2), bits(c.w0, 22, 4)),
                    (bits(c.w1, 0, 2), bits(c.w0, 26, 4)),
                ];
                let mut ar_set = [false; 4];
                let mut prev: Option<&AluGroup> = None;
                for g in &clause.groups {
                    let mut f = |rule, msg: String| {
                        out.push(Finding {
                            rule,
                            cf_pc: c.addr,
                            clause_pc: Some(g.addr),
                            msg,
                        })
                    };
                    if checks.group {
                        for (k, i) in g.insts.iter().enumerate() {
                            let Some(d) = gpr_dst(i) else { continue };
                            if let Some(o) = g.insts[k + 1..].iter().find(|o| gpr_dst(o) == Some(d))
                            {
                                f(
                                    Rule::SameGroupGpr,
                                    format!(
                                        "slots {} `{}` and {} `{}` of one group both write T{}.{}",
                                        SLOT[i.slot as usize],
                                        text(i),
                                        SLOT[o.slot as usize],
                                        text(o),
                                        d.0,
                                        CHAN[d.1 as usize & 3]
                                    ),
                                );
                            }
                        }
                    }
                    if checks.pvps {
                        for i in &g.insts {
                            for s in i.srcs() {
                                let have = match (s.sel, prev) {
                                    (sel::PV, Some(pg)) => pg
                                        .insts
                                        .iter()
                                        .any(|o| o.slot == (s.chan & 3) && o.slot != SLOT_T),
                                    (sel::PS, Some(pg)) => {
                                        pg.insts.iter().any(|o| o.slot == SLOT_T)
                                    }
                                    (sel::PV | sel::PS, None) => false,
                                    _ => continue,
                                };
                                if !have {
                                    let what = if s.sel == sel::PV {
                                        format!("PV.{}", SLOT[s.chan as usize & 3])
                                    } else {
                                        "PS".into()
                                    };
                                    let why = if prev.is_none() {
                                        "in the first group of its clause (PV/PS do not cross a clause boundary)".to_string()
                                    } else {
                                        format!(
                                            "but the previous group (@{}) has no such slot",
                                            prev.map_or(0, |p| p.addr)
                                        )
                                    };
                                    f(
                                        Rule::PvPsAcrossClause,
                                        format!(
                                            "slot {} `{}` reads {what} {why}",
                                            SLOT[i.slot as usize],
                                            text(i)
                                        ),
                                    );
                                }
                            }
                        }
                    }
                    let uses_ar = |i: &AluInst| {
                        i.index_mode <= 3
                            && (i.srcs().iter().any(|s| s.rel && s.sel < sel::KCACHE_END)
                                || (i.dst_rel && i.write))
                    };
                    if checks.ar {
                        for i in g.insts.iter().filter(|i| uses_ar(i)) {
                            if !ar_set[i.index_mode as usize] {
                                f(
                                    Rule::ArOutsideClause,
                                    format!(
                                        "slot {} `{}` is indexed by AR.{}, which no MOVA in an earlier group of this ALU clause wrote",
                                        SLOT[i.slot as usize], text(i), ['x', 'y', 'z', 'w'][i.index_mode as usize]
                                    ),
                                );
                            }
                        }
                    }
                    if checks.consts {
                        let mut ports: Vec<(u16, u8)> = Vec::new();
                        for i in &g.insts {
                            for s in i.srcs() {
                                let kc = (sel::KCACHE0..sel::KCACHE_END).contains(&s.sel);
                                if kc {
                                    let bank = usize::from(s.sel >= sel::KCACHE1);
                                    let n = (s.sel
                                        - if bank == 0 {
                                            sel::KCACHE0
                                        } else {
                                            sel::KCACHE1
                                        }) as u32;
                                    let (mode, _) = kcache[bank];
                                    let lines = match mode {
                                        0 => 0,
                                        1 => 1,
                                        2 => 2,
                                        _ => u32::MAX,
                                    };
                                    if lines != u32::MAX && !s.rel && n >= 16 * lines {
                                        f(
                                            Rule::KcacheBank,
                                            format!(
                                                "slot {} `{}` reads KC{bank}[{n}], but the CF_ALU instruction locked {lines} line(s) ({} constants) for bank {bank}",
                                                SLOT[i.slot as usize], text(i), 16 * lines
                                            ),
                                        );
                                    }
                                }
                                if kc || s.sel >= sel::CFILE {
                                    let pair = (s.sel, (s.chan & 3) / 2);
                                    if !ports.contains(&pair) {
                                        ports.push(pair);
                                    }
                                }
                            }
                        }
                        if ports.len() > 2 {
                            f(
                                Rule::ConstReadPorts,
                                format!(
                                    "the group reads {} constant channel pairs; R700 reads at most 2 per group",
                                    ports.len()
                                ),
                            );
                        }
                    }
                    for i in &g.insts {
                        if matches!(i.row.exec, AluExec::Mova(_)) {
                            ar_set[i.dst_chan as usize & 3] = true;
                        }
                    }
                    prev = Some(g);
                }
            }
            CfKind::Normal(r)
                if checks.tex && matches!(r.exec, CfExec::TexClause | CfExec::VtxClause) =>
            {
                let Some(clause) = p.fetch.get(&c.w0) else {
                    continue;
                };
                let mut written: Vec<(u32, u32)> = Vec::new();
                for fi in &clause.insts {
                    let exec = match fi.row {
                        FetchRow::Tex(r) => r.exec,
                        FetchRow::Vtx(r) => r.exec,
                    };
                    if matches!(exec, FetchExec::LdsRead | FetchExec::LdsWrite) {
                        continue;
                    }
                    let src = bits(fi.w[0], 16, 7);
                    if let Some((_, at)) = written.iter().find(|(g, _)| *g == src) {
                        out.push(Finding {
                            rule: Rule::TexClauseDependency,
                            cf_pc: c.addr,
                            clause_pc: Some(fi.addr),
                            msg: format!(
                                "`{}` takes its address from T{src}, which the fetch at @{at} of the same clause writes",
                                crate::text::fetch_text(fi).trim()
                            ),
                        });
                    }
                    // DST_SEL_X..W (TEX/VTX_WORD1 bits 9..20), 7 = masked: all masked writes nothing.
                    let writes = (0..4).any(|k| bits(fi.w[1], 9 + 3 * k, 3) != 7);
                    if writes {
                        written.push((bits(fi.w[1], 0, 7), fi.addr));
                    }
                }
            }
            _ => {}
        }
    }
    if checks.stack {
        stack_check(p, stack_limit, &mut out);
    }
    out
}

/// Walks the CF program in address order (llc's structured control flow: every PUSH is closed
/// by a POP or an ALU_POP*_AFTER further down, every LOOP_START by its LOOP_END; the pops of a
/// JUMP or ELSE belong to the path that skips the matching POP, so they are not counted) and
/// reports the deepest point when it needs more than `limit` entries, or a pop below zero.
fn stack_check(p: &Program, limit: u32, out: &mut Vec<Finding>) {
    let (mut full, mut sub) = (0i64, 0i64);
    let mut worst: Option<(u32, i64)> = None;
    for c in &p.cf {
        let (dfull, dsub_before, dsub_after) = match c.kind {
            CfKind::Alu(r) => match r.exec {
                CfAluExec::PushBefore => (0, 1, 0),
                CfAluExec::PopAfter => (0, 0, -1),
                CfAluExec::Pop2After => (0, 0, -2),
                _ => (0, 0, 0),
            },
            CfKind::Normal(r) => match r.exec {
                CfExec::Push => (0, 1, 0),
                CfExec::Pop => (0, -(c.pop_count() as i64), 0),
                CfExec::LoopStart { .. } => (1, 0, 0),
                CfExec::LoopEnd => (-1, 0, 0),
                _ => (0, 0, 0),
            },
            CfKind::Export(_) => (0, 0, 0),
        };
        full += dfull;
        sub += dsub_before;
        let need = full + (sub.max(0) + 3) / 4;
        if need > limit as i64 && worst.is_none_or(|(_, n)| need > n) {
            worst = Some((c.addr, need));
        }
        sub += dsub_after;
        if full < 0 || sub < 0 {
            out.push(Finding {
                rule: Rule::StackDepth,
                cf_pc: c.addr,
                clause_pc: None,
                msg: format!(
                    "`{}` pops a stack entry that nothing pushed",
                    crate::text::cf_text(c).trim()
                ),
            });
            full = full.max(0);
            sub = sub.max(0);
        }
    }
    if let Some((at, need)) = worst {
        out.push(Finding {
            rule: Rule::StackDepth,
            cf_pc: at,
            clause_pc: None,
            msg: format!("the program needs {need} stack entries here, the object reserves {limit} (STACK_SIZE)"),
        });
    }
}
