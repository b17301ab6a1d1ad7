//! ALU clauses: source operand reads (GPRs, clause temporaries, constants, kcache, PV/PS, literals,
//! relative addressing), instruction groups over the x/y/z/w/t slots and the double-precision slot pairs.

use super::*;

fn slot_char(s: u8) -> Option<u8> {
    Some(s)
}

/// Reads one ALU source for one lane.
#[allow(clippy::too_many_arguments)]
fn read_src(
    ctx: &Ctx,
    w: &Wave,
    i: &AluInst,
    g: &AluGroup,
    k: usize,
    l: usize,
    clause_pc: u32,
) -> Result<u32, ExecError> {
    let s = &i.src[k];
    let loc = |msg: String| {
        fault(
            ctx.loc(
                Some(clause_pc),
                slot_char(i.slot),
                crate::text::alu_text(i),
                Some(l),
            ),
            msg,
        )
    };
    let index = |w: &Wave| -> Result<i32, ExecError> {
        match i.index_mode {
            m @ 0..=3 => w.ar[m as usize].as_ref().map(|a| a[l]).ok_or_else(|| {
                loc(format!(
                    "relative operand uses AR.{} which no MOVA wrote in this ALU clause",
                    ['x', 'y', 'z', 'w'][m as usize]
                ))
            }),
            INDEX_LOOP => w.al.ok_or_else(|| {
                loc("relative operand uses the loop index aL outside a LOOP_START loop".into())
            }),
            m => Err(loc(format!("INDEX_MODE {m} is reserved"))),
        }
    };
    let mut v = match s.sel {
        r if r < sel::GPR_END && s.rel && i.index_mode >= INDEX_GLOBAL => {
            let g = global_index(ctx, w, i, r as i32, l).map_err(loc)?;
            ctx.drv.global_gprs[g][s.chan as usize & 3]
        }
        r if r < sel::GPR_END => {
            let reg = r as i32 + if s.rel { index(w)? } else { 0 };
            read_gpr(ctx, w, reg, s.chan as usize, l).map_err(loc)?
        }
        r if r < sel::KCACHE_END => {
            let bank = if r < sel::KCACHE1 { 0 } else { 1 };
            let n = (r - if bank == 0 {
                sel::KCACHE0
            } else {
                sel::KCACHE1
            }) as i32;
            let (mode, cb, line) = w.kcache[bank];
            let lines = match mode {
                0 => {
                    return Err(loc(format!(
                        "KC{bank} is read but the CF_ALU instruction locked no kcache lines for it"
                    )))
                }
                1 => 1,
                2 => 2,
                _ => {
                    return Err(loc(
                        "kcache lock mode LOCK_LOOP_INDEX is not modelled".into()
                    ))
                }
            };
            let idx = n + if s.rel { index(w)? } else { 0 };
            if !s.rel && n >= 16 * lines {
                return Err(loc(format!(
                    "KC{bank}[{n}] is outside the {lines} locked kcache line(s)"
                )));
            }
            let addr = line as i32 * 16 + idx;
            let buf = ctx
                .drv
                .constant_buffers
                .get(cb as usize)
                .ok_or_else(|| loc(format!("constant buffer {cb} is not bound")))?;
            let e = usize::try_from(addr)
                .ok()
                .and_then(|a| buf.get(a))
                .ok_or_else(|| {
                    loc(format!(
                        "constant {addr} is past the end of constant buffer {cb} ({} vec4s)",
                        buf.len()
                    ))
                })?;
            e[s.chan as usize]
        }
        sel::ZERO => 0,
        sel::ONE => ONE_F,
        sel::ONE_INT => 1,
        sel::M_ONE_INT => u32::MAX,
        sel::HALF => 0x3F00_0000,
        sel::LITERAL => *g.literals.get(s.chan as usize).ok_or_else(|| {
            loc(format!(
                "literal.{} has no literal dword in this group",
                "xyzw".as_bytes()[s.chan as usize] as char
            ))
        })?,
        sel::PV => w.pv[s.chan as usize]
            .as_ref()
            .map(|v| v[l])
            .ok_or_else(|| {
                loc(
                    "PV read, but the previous group of this clause did not write that channel"
                        .into(),
                )
            })?,
        sel::PS => w.ps.as_ref().map(|v| v[l]).ok_or_else(|| {
            loc("PS read, but the previous group of this clause had no trans result".into())
        })?,
        r if r >= sel::CFILE => {
            let idx = (r - sel::CFILE) as i32 + if s.rel { index(w)? } else { 0 };
            let e = usize::try_from(idx)
                .ok()
                .filter(|i| *i < 512)
                .ok_or_else(|| loc(format!("constant-file index {idx} is outside c0..c511")))?;
            ctx.drv
                .constant_file
                .get(e)
                .map(|v| v[s.chan as usize])
                .ok_or_else(|| loc(format!("constant-file entry c{e} is not set by the runner")))?
        }
        r => return Err(loc(format!("source select {r} is reserved on R700"))),
    };
    if s.abs {
        v &= 0x7FFF_FFFF;
    }
    if s.neg {
        v ^= 0x8000_0000;
    }
    Ok(v)
}

/// Reads source `k` of `i` for every thread into `out`: one copy or fill for plain GPRs, constants,
/// literals and PV/PS; thread by thread (with its errors for active threads only) otherwise.
fn read_src_all(
    ctx: &Ctx,
    w: &Wave,
    i: &AluInst,
    g: &AluGroup,
    k: usize,
    clause_pc: u32,
    out: &mut [u32],
) -> Result<(), ExecError> {
    let s = &i.src[k];
    let chan = s.chan as usize & 3;
    let fast = match s.sel {
        r if r < sel::GPR_END && !s.rel => match gpr_kind(ctx, r as i32) {
            Ok(GprKind::Normal(x)) => {
                out.copy_from_slice(&w.gpr[x][chan]);
                true
            }
            _ => false,
        },
        sel::ZERO => {
            out.fill(0);
            true
        }
        sel::ONE => {
            out.fill(ONE_F);
            true
        }
        sel::ONE_INT => {
            out.fill(1);
            true
        }
        sel::M_ONE_INT => {
            out.fill(u32::MAX);
            true
        }
        sel::HALF => {
            out.fill(0x3F00_0000);
            true
        }
        sel::LITERAL => match g.literals.get(chan) {
            Some(v) => {
                out.fill(*v);
                true
            }
            None => false,
        },
        sel::PV => match &w.pv[chan] {
            Some(v) => {
                out.copy_from_slice(v);
                true
            }
            None => false,
        },
        sel::PS => match &w.ps {
            Some(v) => {
                out.copy_from_slice(v);
                true
            }
            None => false,
        },
        _ => false,
    };
    if fast {
        if s.abs {
            out.iter_mut().for_each(|v| *v &= 0x7FFF_FFFF);
        }
        if s.neg {
            out.iter_mut().for_each(|v| *v ^= 0x8000_0000);
        }
        return Ok(());
    }
    for (l, o) in out.iter_mut().enumerate() {
        if w.active(l) {
            *o = read_src(ctx, w, i, g, k, l, clause_pc)?;
        }
    }
    Ok(())
}

/// GPR read with the clause-temporary and SIMD-global mapping.
fn read_gpr(ctx: &Ctx, w: &Wave, reg: i32, chan: usize, l: usize) -> Result<u32, String> {
    match gpr_kind(ctx, reg)? {
        GprKind::Normal(r) => Ok(w.gpr[r][chan][l]),
        GprKind::Temp(t) => w
            .temps
            .get(t)
            .and_then(|x| x[chan].as_ref())
            .map(|v| v[l])
            .ok_or_else(|| {
                format!(
                    "clause temporary {t} (T{reg}.{}) read before this ALU clause wrote it",
                    "XYZW".as_bytes()[chan] as char
                )
            }),
    }
}

enum GprKind {
    Normal(usize),
    Temp(usize),
}

/// INDEX_MODE values (R700 ISA reference, ALU_WORD0).
const INDEX_LOOP: u8 = 4;
const INDEX_GLOBAL: u8 = 5;
const INDEX_GLOBAL_AR_X: u8 = 6;

/// The SIMD-global GPR a relative operand names under INDEX_GLOBAL / INDEX_GLOBAL_AR_X.
fn global_index(ctx: &Ctx, w: &Wave, i: &AluInst, sel: i32, l: usize) -> Result<usize, String> {
    let a = match i.index_mode {
        INDEX_GLOBAL => sel,
        _ => {
            let ar = w.ar[0]
                .as_ref()
                .ok_or("INDEX_GLOBAL_AR_X uses AR.x which no MOVA wrote in this ALU clause")?;
            sel + ar[l]
        }
    };
    usize::try_from(a)
        .ok()
        .filter(|a| *a < ctx.drv.global_gprs.len())
        .ok_or_else(|| {
            format!(
                "SIMD-global GPR {a} does not exist (the driver set {} global GPRs)",
                ctx.drv.global_gprs.len()
            )
        })
}

fn gpr_kind(ctx: &Ctx, reg: i32) -> Result<GprKind, String> {
    let temps = ctx.drv.clause_temp_gprs as i32;
    if !(0..128).contains(&reg) {
        return Err(format!("GPR index {reg} is outside T0..T127"));
    }
    if reg >= 128 - temps {
        return Ok(GprKind::Temp((reg - (128 - temps)) as usize));
    }
    let usable = 127 - 2 * temps;
    if reg >= usable {
        return Err(format!(
            "T{reg} is not addressable with {temps} clause temporaries (127 - 2 x {temps} GPRs)"
        ));
    }
    if ctx.drv.num_gprs != 0 && reg as u32 >= ctx.drv.num_gprs {
        return Err(format!(
            "T{reg} is beyond the program's NUM_GPRS = {}",
            ctx.drv.num_gprs
        ));
    }
    Ok(GprKind::Normal(reg as usize))
}

fn omod_clamp(i: &AluInst, v: u32) -> u32 {
    // Without OMOD or CLAMP the result is written as computed (selects such as CND* and MIN/MAX keep
    // their operand's bits, denormal or not).
    if !i.row.float_out || (i.omod == 0 && !i.clamp) {
        return v;
    }
    let mut x = f32::from_bits(v);
    x = match i.omod {
        1 => x * 2.0,
        2 => x * 4.0,
        3 => x * 0.5,
        _ => x,
    };
    if i.clamp {
        // Clamp to [0, 1]; NaN becomes 0 (R700 ISA reference, CLAMP).
        x = if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
    }
    sem::ftz(x).to_bits()
}

struct SlotResult {
    inst: AluInst,
    /// Address of the instruction (its ALU slot) for error locations.
    pc: u32,
    values: Vec<u32>,
    /// lanes that execute this instruction (active and predicate passes)
    exec: Vec<bool>,
}

pub(super) fn run_alu_clause<O: Observer<Wave, Step> + ?Sized>(
    ctx: &mut Ctx,
    w: &mut Wave,
    c: &CfInst,
    clause: &crate::decode::AluClause,
    obs: &mut O,
) -> Result<(), ExecError> {
    use crate::decode::bits;
    // Per-clause state starts fresh (R700 ISA reference 2.5: AR, PV, PS, the predicate and the clause
    // temporaries persist for one ALU clause only).
    w.ar = Default::default();
    w.pv = Default::default();
    w.ps = None;
    w.pred = vec![false; w.lanes];
    w.exec_update = None;
    w.temps = (0..ctx.drv.clause_temp_gprs)
        .map(|_| Default::default())
        .collect();
    w.kcache = [
        (bits(c.w0, 30, 2), bits(c.w0, 22, 4), bits(c.w1, 2, 8)),
        (bits(c.w1, 0, 2), bits(c.w0, 26, 4), bits(c.w1, 10, 8)),
    ];
    if bits(c.w1, 25, 1) != 0 {
        return Err(ExecError::NotModelled {
            loc: cf_loc(ctx, c),
            what: "ALT_CONST".into(),
            why: "the alternate constant set is not modelled".into(),
        });
    }
    for g in &clause.groups {
        if obs.enabled() {
            let loc = super::cf::step_loc(w, g.addr);
            let step = Step::Alu {
                cf: *c,
                group: g.clone(),
            };
            obs.pause_mem(&loc, w, &step, &mut DriverMemory::new(ctx.drv));
            begin_step(w);
            obs.before(&loc, w, &step);
            run_group(ctx, w, g)?;
            obs.after(&loc, w, &step);
        } else {
            run_group(ctx, w, g)?;
        }
        w.alu_groups += 1;
        w.lane_groups += w.state.iter().filter(|s| **s == PixelState::Active).count() as u64;
    }
    Ok(())
}

fn run_group(ctx: &mut Ctx, w: &mut Wave, g: &AluGroup) -> Result<(), ExecError> {
    let lanes = w.lanes;
    let mut results: Vec<SlotResult> = Vec::with_capacity(g.insts.len());
    let mut fx = GroupEffects {
        new_ar: Default::default(),
        new_pred: None,
        kills: vec![false; lanes],
    };
    // Reductions (DOT4, CUBE, MAX4) combine the four vector slots.
    let reduction: Vec<&AluInst> = g
        .insts
        .iter()
        .filter(|i| i.row.unit == Unit::Reduction)
        .collect();
    let mut red_vals: Option<Vec<[u32; 4]>> = None;
    let mut pair64: Option<Vec<[u32; 4]>> = None;
    let mut bufs = [vec![0u32; lanes], vec![0u32; lanes], vec![0u32; lanes]];
    for (k, i) in g.insts.iter().enumerate() {
        let clause_pc = g.addr + k as u32;
        let loc =
            |l: Option<usize>| ctx.loc(Some(clause_pc), Some(i.slot), crate::text::alu_text(i), l);
        let nm = |what: &str, why: &str| ExecError::NotModelled {
            loc: loc(None),
            what: what.into(),
            why: why.into(),
        };
        if i.index_mode > INDEX_GLOBAL_AR_X {
            return Err(fault(
                loc(None),
                format!("INDEX_MODE {} is reserved", i.index_mode),
            ));
        }
        let mut values = vec![0u32; lanes];
        let mut exec = vec![false; lanes];
        for l in 0..lanes {
            exec[l] = w.active(l)
                && match i.pred_sel {
                    0 => true,
                    2 => !w.pred[l],
                    3 => w.pred[l],
                    _ => return Err(fault(loc(None), "PRED_SEL 1 is reserved")),
                };
        }
        if let AluExec::NotModelled(why) = i.row.exec {
            if exec.iter().any(|e| *e) {
                return Err(nm(i.row.isa, why));
            }
            results.push(SlotResult {
                inst: *i,
                pc: clause_pc,
                values,
                exec,
            });
            continue;
        }
        // CLAMP and the output modifier are defined for float results; a bit applied to an integer
        // or bit-pattern row is not ignored but reported.
        if !i.row.float_out
            && !matches!(i.row.exec, AluExec::Pair64(_))
            && (i.omod != 0 || i.clamp)
            && exec.iter().any(|e| *e)
        {
            return Err(nm(
                &format!("{} with CLAMP or an output modifier", i.row.isa),
                "CLAMP and OMOD scale and clamp float results; what they do to an integer result is not in the sources wavesim uses",
            ));
        }
        if let AluExec::Pair64(op) = i.row.exec {
            run_pair64_slot(ctx, w, g, i, op, &mut pair64, &mut values, &loc)?;
            results.push(SlotResult {
                inst: *i,
                pc: clause_pc,
                values,
                exec,
            });
            continue;
        }
        if i.row.unit == Unit::Reduction && red_vals.is_none() {
            red_vals = Some(run_reduction(ctx, w, g, i, &reduction, &loc)?);
        }
        // Gather each source for all threads at once (a copy for plain GPRs and constants).
        let nsrc = if i.row.unit == Unit::Reduction {
            0
        } else {
            i.row.srcs as usize
        };
        for (k, buf) in bufs.iter_mut().enumerate().take(nsrc) {
            read_src_all(ctx, w, i, g, k, clause_pc, buf)?;
        }
        // Plain per-thread functions run as tight loops over the gathered sources.
        let active: Vec<bool> = (0..lanes).map(|l| w.active(l)).collect();
        let plain = match i.row.exec {
            AluExec::Un(f) => {
                for l in (0..lanes).filter(|l| active[*l]) {
                    values[l] = omod_clamp(i, f(bufs[0][l]));
                }
                true
            }
            AluExec::Bin(f) => {
                for l in (0..lanes).filter(|l| active[*l]) {
                    values[l] = omod_clamp(i, f(bufs[0][l], bufs[1][l]));
                }
                true
            }
            AluExec::Tri(f) => {
                for l in (0..lanes).filter(|l| active[*l]) {
                    values[l] = omod_clamp(i, f(bufs[0][l], bufs[1][l], bufs[2][l]));
                }
                true
            }
            _ => false,
        };
        if !plain {
            run_lanes(
                w,
                i,
                &exec,
                &active,
                &bufs,
                red_vals.as_deref(),
                &mut fx,
                &mut values,
                &loc,
            )?;
        }
        results.push(SlotResult {
            inst: *i,
            pc: clause_pc,
            values,
            exec,
        });
    }
    // Writes happen after every instruction of the group read its operands.
    write_group_results(ctx, w, &results)?;
    commit_group(w, results, fx);
    Ok(())
}

/// Effects of an instruction group that take hold only after every slot read its operands.
struct GroupEffects {
    new_ar: [Option<Vec<i32>>; 4],
    new_pred: Option<Vec<bool>>,
    kills: Vec<bool>,
}

/// One slot of a double-precision instruction: runs the X/Y pair once per group (`pair64` caches
/// it) and takes this slot's half of each thread's result.
#[allow(clippy::too_many_arguments)]
fn run_pair64_slot(
    ctx: &Ctx,
    w: &Wave,
    g: &AluGroup,
    i: &AluInst,
    op: Pair64Op,
    pair64: &mut Option<Vec<[u32; 4]>>,
    values: &mut [u32],
    loc: &impl Fn(Option<usize>) -> Location,
) -> Result<(), ExecError> {
    let lanes = w.lanes;
    let nm = |what: &str, why: &str| ExecError::NotModelled {
        loc: loc(None),
        what: what.into(),
        why: why.into(),
    };
    if ctx.program.chip != Chip::Rv770 {
        return Err(fault(
                loc(None),
                format!(
                    "{} is a double-precision instruction; {:?} has no double-precision unit (only RV770-class R700 chips do)",
                    i.row.isa, ctx.program.chip
                ),
            ));
    }
    if i.clamp || i.omod != 0 {
        return Err(nm(
            "OMOD/CLAMP on a double-precision instruction",
            "the sources wavesim uses do not say how they act on a 64-bit result",
        ));
    }
    if pair64.is_none() {
        *pair64 = Some(run_pair64(ctx, w, g, i, op)?);
    }
    let pv = pair64.as_ref().map(|p| &p[..]).unwrap_or(&[]);
    let slot = i.slot as usize;
    if i.write && !op.writes().get(slot).copied().unwrap_or(false) {
        return Err(nm(
            &format!(
                "{} {}-slot result",
                i.row.isa,
                ['X', 'Y', 'Z', 'W', 'T'][slot.min(4)]
            ),
            "the sources wavesim uses leave this slot's destination unwritten",
        ));
    }
    for l in 0..lanes {
        if w.active(l) {
            // A slot without a defined result carries none (commit_group leaves a four-slot op's PV
            // unset there, so reading it is an error).
            values[l] = pv.get(l).and_then(|p| p.get(slot)).copied().unwrap_or(0);
        }
    }
    Ok(())
}

/// DOT4, CUBE and MAX4: the four vector slots together, per active thread (R700 ISA reference 4.7).
fn run_reduction(
    ctx: &Ctx,
    w: &Wave,
    g: &AluGroup,
    i: &AluInst,
    reduction: &[&AluInst],
    loc: &impl Fn(Option<usize>) -> Location,
) -> Result<Vec<[u32; 4]>, ExecError> {
    let lanes = w.lanes;
    if reduction.len() != 4
        || reduction.iter().any(|r| r.row.opcode != i.row.opcode)
        || !(0..4).all(|s| reduction.iter().any(|r| r.slot == s))
    {
        return Err(fault(
            loc(None),
            format!("{} must fill the four vector slots of its group", i.row.isa),
        ));
    }
    let mut rv = vec![[0u32; 4]; lanes];
    for (l, out) in rv.iter_mut().enumerate() {
        if !w.active(l) {
            continue;
        }
        let mut s0 = [0u32; 4];
        let mut s1 = [0u32; 4];
        for r in reduction {
            let kk = g
                .insts
                .iter()
                .position(|x| std::ptr::eq(x, *r))
                .unwrap_or(0);
            s0[r.slot as usize] = read_src(ctx, w, r, g, 0, l, g.addr + kk as u32)?;
            if r.row.srcs > 1 {
                s1[r.slot as usize] = read_src(ctx, w, r, g, 1, l, g.addr + kk as u32)?;
            }
        }
        *out = match i.row.exec {
            AluExec::Dot4 { ieee } => {
                let f = |x: u32| sem::ftz(f32::from_bits(x));
                let mut acc = 0.0f32;
                for c in 0..4 {
                    let p = if ieee {
                        sem::ftz(f(s0[c]) * f(s1[c]))
                    } else {
                        sem::legacy_mul_f(f(s0[c]), f(s1[c]))
                    };
                    acc = sem::ftz(acc + p);
                }
                [acc.to_bits(); 4]
            }
            AluExec::Cube => {
                // Operands as the ISA lays them out: src0 = (z, z, x, y), src1 = (y, x, z, z).
                let f = |x: u32| sem::ftz(f32::from_bits(x));
                sem::cube(f(s0[2]), f(s0[3]), f(s0[0]))
            }
            AluExec::Max4 => {
                let m = s0
                    .iter()
                    .fold(f32::NEG_INFINITY, |a, b| a.max(f32::from_bits(*b)));
                [m.to_bits(); 4]
            }
            _ => {
                return Err(fault(
                    loc(None),
                    "reduction row without reduction semantics",
                ))
            }
        };
    }
    Ok(rv)
}

/// The per-thread instructions that are not plain functions of their sources (SET*, PRED_SET*,
/// KILL*, MOVA*, reductions, CND*): their values, and their predicate, exec-mask, AR and kill effects.
#[allow(clippy::too_many_arguments)]
fn run_lanes(
    w: &mut Wave,
    i: &AluInst,
    exec: &[bool],
    active: &[bool],
    bufs: &[Vec<u32>; 3],
    red_vals: Option<&[[u32; 4]]>,
    fx: &mut GroupEffects,
    values: &mut [u32],
    loc: &impl Fn(Option<usize>) -> Location,
) -> Result<(), ExecError> {
    let lanes = w.lanes;
    let nm = |what: &str, why: &str| ExecError::NotModelled {
        loc: loc(None),
        what: what.into(),
        why: why.into(),
    };
    for l in 0..lanes {
        if !active[l] {
            continue;
        }
        let src = |k: usize| -> Result<u32, ExecError> { Ok(bufs[k][l]) };
        let v = match i.row.exec {
            AluExec::Nop => 0,
            AluExec::Un(f) => f(src(0)?),
            AluExec::Bin(f) => f(src(0)?, src(1)?),
            AluExec::Tri(f) => f(src(0)?, src(1)?, src(2)?),
            AluExec::Set {
                cmp,
                ty,
                int_result,
            } => {
                let t = compare(cmp, ty, src(0)?, src(1)?);
                match (t, int_result) {
                    (true, true) => u32::MAX,
                    (false, true) => 0,
                    (true, false) => ONE_F,
                    (false, false) => 0,
                }
            }
            AluExec::PredSet { .. }
            | AluExec::PredSetInv
            | AluExec::PredSetPop
            | AluExec::PredSetClr
            | AluExec::PredSetRestore => {
                let (v, t) = match i.row.exec {
                    AluExec::PredSet {
                        cmp,
                        ty,
                        push: false,
                    } => {
                        let t = compare(cmp, ty, src(0)?, src(1)?);
                        (if t { ONE_F } else { 0 }, t)
                    }
                    AluExec::PredSet {
                        cmp, ty: CmpTy::I32, ..
                    } => sem::pred_set_push_int(cmp, src(0)?, src(1)?),
                    AluExec::PredSet { cmp, .. } => sem::pred_set_push(cmp, src(0)?, src(1)?),
                    AluExec::PredSetInv => sem::pred_set_inv(src(0)?),
                    AluExec::PredSetPop => {
                        if exec[l] && f32::from_bits(src(1)?) != 1.0 {
                            return Err(nm(
                                "PRED_SET_POP with src1 other than 1.0",
                                "the sources wavesim uses define popping one level only",
                            ));
                        }
                        sem::pred_set_pop_one(src(0)?)
                    }
                    AluExec::PredSetClr => sem::pred_set_clr(),
                    _ => sem::pred_set_restore(src(0)?),
                };
                if exec[l] {
                    if i.update_pred {
                        fx.new_pred.get_or_insert_with(|| w.pred.clone())[l] = t;
                    }
                    if i.update_exec_mask {
                        w.exec_update.get_or_insert_with(|| vec![true; lanes])[l] = t;
                    }
                }
                v
            }
            AluExec::MulLit(scale) => match sem::mul_lit(src(0)?, src(1)?, src(2)?, scale) {
                Some(v) => v,
                None if exec[l] => {
                    return Err(nm(
                        i.row.isa,
                        "a zero times an infinity or NaN, or a scaled -FLT_MAX sentinel: the sources wavesim uses leave MUL_LIT's result open",
                    ))
                }
                None => 0,
            },
            AluExec::Kill { cmp, ty } => {
                let t = compare(cmp, ty, src(0)?, src(1)?);
                if t && exec[l] {
                    fx.kills[l] = true;
                }
                if t {
                    ONE_F
                } else {
                    0
                }
            }
            AluExec::Mova(kind) => {
                if i.write {
                    return Err(nm("MOVA with the GPR write enabled", "the value MOVA* writes to its GPR is not documented in the sources wavesim uses"));
                }
                let x = src(0)?;
                // AR = the integer index, clamped to [-256, 255] (R700 ISA reference, MOVA*).
                let a = match kind {
                    MovaKind::Round => f32::from_bits(x).round_ties_even() as i32,
                    MovaKind::Floor => f32::from_bits(x).floor() as i32,
                    MovaKind::Int => x as i32,
                }
                .clamp(-256, 255);
                if exec[l] {
                    fx.new_ar[i.dst_chan as usize].get_or_insert_with(|| {
                        w.ar[i.dst_chan as usize].clone().unwrap_or(vec![0; lanes])
                    })[l] = a;
                }
                a as u32
            }
            AluExec::Dot4 { .. } | AluExec::Cube | AluExec::Max4 => red_vals
                .as_ref()
                .map(|r| r[l][i.slot as usize & 3])
                .unwrap_or(0),
            AluExec::Cnd { cmp, ty } => {
                let a = src(0)?;
                let t = match ty {
                    CmpTy::F32 => compare(cmp, CmpTy::F32, a, 0),
                    _ => compare(cmp, ty, a, 0),
                };
                if t {
                    src(1)?
                } else {
                    src(2)?
                }
            }
            AluExec::NotModelled(_) | AluExec::Pair64(_) => 0,
        };
        values[l] = omod_clamp(i, v);
    }
    Ok(())
}

/// Writes each slot's result to its destination GPR (or clause temporary, or SIMD-global GPR) for
/// the threads that executed it.
fn write_group_results(
    ctx: &mut Ctx,
    w: &mut Wave,
    results: &[SlotResult],
) -> Result<(), ExecError> {
    let lanes = w.lanes;
    for r in results {
        let i = &r.inst;
        if !i.write {
            continue;
        }
        // Fast path: a direct destination in the ordinary GPRs, written for the executing threads.
        if !i.dst_rel {
            if let Ok(GprKind::Normal(x)) = gpr_kind(ctx, i.dst_gpr as i32) {
                let dst = &mut w.gpr[x][i.dst_chan as usize & 3];
                for l in 0..lanes {
                    if r.exec[l] {
                        dst[l] = r.values[l];
                    }
                }
                continue;
            }
        }
        for l in 0..lanes {
            if !r.exec[l] {
                continue;
            }
            let base = i.dst_gpr as i32;
            if i.dst_rel && i.index_mode >= INDEX_GLOBAL {
                let g = global_index(ctx, w, i, base, l).map_err(|m| {
                    fault(
                        ctx.loc(Some(r.pc), Some(i.slot), crate::text::alu_text(i), Some(l)),
                        m,
                    )
                })?;
                // Threads write in lane order; the last write of the group wins.
                ctx.drv.global_gprs[g][i.dst_chan as usize & 3] = r.values[l];
                continue;
            }
            let reg = if i.dst_rel {
                let ix = match i.index_mode {
                    m @ 0..=3 => w.ar[m as usize].as_ref().map(|a| a[l]),
                    _ => w.al,
                };
                let loc = ctx.loc(Some(r.pc), Some(i.slot), crate::text::alu_text(i), Some(l));
                base + ix
                    .ok_or_else(|| fault(loc, "relative destination without a valid AR/aL index"))?
            } else {
                base
            };
            let chan = i.dst_chan as usize;
            let kind = gpr_kind(ctx, reg).map_err(|m| {
                fault(
                    ctx.loc(Some(r.pc), Some(i.slot), crate::text::alu_text(i), Some(l)),
                    m,
                )
            })?;
            match kind {
                GprKind::Normal(x) => w.gpr[x][chan][l] = r.values[l],
                GprKind::Temp(t) => {
                    w.temps[t][chan].get_or_insert_with(|| vec![0; lanes])[l] = r.values[l]
                }
            }
        }
    }
    Ok(())
}

/// PV/PS, AR, the predicate and kills from the group, for the next group.
fn commit_group(w: &mut Wave, results: Vec<SlotResult>, fx: GroupEffects) {
    let mut pv: [Option<Vec<u32>>; 4] = Default::default();
    let mut ps = None;
    for r in results {
        if r.inst.slot == SLOT_T {
            ps = Some(r.values);
        } else if matches!(r.inst.row.exec, AluExec::Pair64(op)
            if op.four_slots() && !op.writes()[r.inst.slot as usize])
        {
            // No defined value: a later PV.Z/PV.W read is an error, not a guess.
        } else {
            pv[r.inst.slot as usize] = Some(r.values);
        }
    }
    w.pv = pv;
    w.ps = ps;
    for (k, a) in fx.new_ar.into_iter().enumerate() {
        if a.is_some() {
            w.ar[k] = a;
        }
    }
    if let Some(p) = fx.new_pred {
        w.pred = p;
    }
    for (l, k) in fx.kills.iter().enumerate() {
        if *k {
            w.state[l] = PixelState::Killed;
        }
    }
}

/// Runs a double-precision instruction over the X/Y slot pair of group `g` (layout: `isa::Pair64Op`)
/// for every active thread; returns the X, Y, Z and W slots' results per thread (those
/// `Pair64Op::writes` leaves undefined are 0 and never reach a register). Arithmetic is IEEE-754
/// binary64 with round to nearest even. Denormal and NaN operands and results stop with a typed error:
/// the sources wavesim uses do not give R700's double-precision denormal or NaN rules.
fn run_pair64(
    ctx: &Ctx,
    w: &Wave,
    g: &AluGroup,
    i: &AluInst,
    op: Pair64Op,
) -> Result<Vec<[u32; 4]>, ExecError> {
    let find = |slot: u8| {
        g.insts
            .iter()
            .enumerate()
            .find(|(_, x)| x.slot == slot && x.row.enc == i.row.enc && x.row.opcode == i.row.opcode)
    };
    let lanes = w.lanes;
    let pc_of = |k: usize| g.addr + k as u32;
    let loc = |l: Option<usize>| ctx.loc(Some(g.addr), Some(i.slot), crate::text::alu_text(i), l);
    let nsrc = match op {
        Pair64Op::Add | Pair64Op::Mul | Pair64Op::Ldexp => 2,
        _ => 1,
    };
    let mut hi = [vec![0u32; lanes], vec![0u32; lanes]];
    let mut lo = [vec![0u32; lanes], vec![0u32; lanes]];
    if op.four_slots() {
        let (Some((kx, x)), Some((ky, y)), Some((kz, z)), Some((kw, wi))) =
            (find(0), find(1), find(2), find(3))
        else {
            return Err(fault(
                loc(None),
                format!("{} must fill the four vector slots of its group", i.row.isa),
            ));
        };
        let slots = [(kx, x), (ky, y), (kz, z), (kw, wi)];
        let high = op.high_slots();
        let mut other = vec![0u32; lanes];
        for k in 0..nsrc {
            // The first high-dword slot and the first low-dword slot give the operand; the other
            // slots carry copies (Mesa's emitters give them the same sources). Which copy the
            // hardware reads is not stated, so copies that differ are an error.
            let first = |want: bool| (0..4).find(|&s| high[s] == want).unwrap_or(0);
            let (fh, fl) = (first(true), first(false));
            read_src_all(ctx, w, slots[fh].1, g, k, pc_of(slots[fh].0), &mut hi[k])?;
            read_src_all(ctx, w, slots[fl].1, g, k, pc_of(slots[fl].0), &mut lo[k])?;
            for (s, &(kk, inst)) in slots.iter().enumerate() {
                if s == fh || s == fl {
                    continue;
                }
                let want = if high[s] { &hi[k] } else { &lo[k] };
                read_src_all(ctx, w, inst, g, k, pc_of(kk), &mut other)?;
                if let Some(l) = (0..lanes).find(|&l| w.active(l) && other[l] != want[l]) {
                    return Err(ExecError::NotModelled {
                        loc: loc(Some(l)),
                        what: format!("{} with different copies of an operand dword", i.row.isa),
                        why: "which slot's copy the unit reads is not in the sources wavesim uses"
                            .into(),
                    });
                }
            }
        }
    } else {
        let (Some((kx, x)), Some((ky, y))) = (find(0), find(1)) else {
            return Err(fault(
                loc(None),
                format!(
                    "{} must occupy both the X and Y slots of its group",
                    i.row.isa
                ),
            ));
        };
        for k in 0..nsrc {
            read_src_all(ctx, w, x, g, k, pc_of(kx), &mut hi[k])?;
            read_src_all(ctx, w, y, g, k, pc_of(ky), &mut lo[k])?;
        }
    }
    let nm = |l: usize, what: String| ExecError::NotModelled {
        loc: loc(Some(l)),
        what,
        why: "R700 double-precision denormal and NaN rules are not in the sources wavesim uses"
            .into(),
    };
    let special = |v: f64| v.is_nan() || v.is_subnormal();
    let mut out = vec![[0u32; 4]; lanes];
    for (l, o) in out.iter_mut().enumerate() {
        if !w.active(l) {
            continue;
        }
        let d = |k: usize| f64::from_bits((hi[k][l] as u64) << 32 | lo[k][l] as u64);
        let split = |r: f64| [r.to_bits() as u32, (r.to_bits() >> 32) as u32, 0, 0];
        *o = match op {
            Pair64Op::Add | Pair64Op::Fract => {
                let a = d(0);
                let r = if op == Pair64Op::Add {
                    let b = d(1);
                    if special(a) || special(b) {
                        return Err(nm(l, format!("{} of {a:e} and {b:e}", i.row.isa)));
                    }
                    a + b
                } else {
                    if special(a) || a.is_infinite() {
                        return Err(nm(l, format!("FRACT_64 of {a:e}")));
                    }
                    // a - floor(a): exact for a >= 0 (floor(a) = 0, or Sterbenz since
                    // floor(a) <= a <= 2 floor(a)); for negative a it rounds to nearest even
                    // (assumption: the sources used do not state FRACT_64's rounding).
                    a - a.floor()
                };
                if special(r) {
                    return Err(nm(l, format!("{} result {r:e}", i.row.isa)));
                }
                split(r)
            }
            Pair64Op::Mul => {
                let (a, b) = (d(0), d(1));
                if special(a) || special(b) {
                    return Err(nm(l, format!("MUL_64 of {a:e} and {b:e}")));
                }
                let r = a * b;
                if special(r) {
                    return Err(nm(l, format!("MUL_64 result {r:e}")));
                }
                split(r)
            }
            Pair64Op::F32ToF64 => {
                let a = f32::from_bits(hi[0][l]);
                if a.is_nan() || a.is_subnormal() {
                    return Err(nm(l, format!("FLT32_TO_FLT64 of {a:e}")));
                }
                split(a as f64)
            }
            Pair64Op::F64ToF32 => {
                let a = d(0);
                let r = a as f32;
                if special(a) || r.is_subnormal() || (r == 0.0 && a != 0.0) {
                    return Err(nm(l, format!("FLT64_TO_FLT32 of {a:e}")));
                }
                [r.to_bits(), 0, 0, 0]
            }
            Pair64Op::Frexp => {
                // frexp (C99 7.12.6.4; GLSL 4.60 8.3 frexp): a = m * 2^e, 0.5 <= |m| < 1; zero gives
                // a zero of the same sign and e = 0. Infinities and NaNs are undefined in GLSL and
                // left open by the sources: errors, as are denormals (see above).
                let a = d(0);
                if special(a) || a.is_infinite() {
                    return Err(nm(l, format!("FREXP_64 of {a:e}")));
                }
                let (m, e) = frexp(a);
                let m = split(m);
                [0, e as u32, m[0], m[1]]
            }
            Pair64Op::Ldexp => {
                // ldexp (C99 7.12.6.6; GLSL 4.60 8.3 ldexp): a * 2^e, exact unless it leaves the
                // normal range. The integer exponent is src1 of both slots (Mesa's tgsi_op2_64 gives
                // the X and Y slots the same exponent); which slot the unit reads is not stated, so
                // different values are an error.
                let a = d(0);
                let (ex, ey) = (hi[1][l] as i32, lo[1][l] as i32);
                if ex != ey {
                    return Err(ExecError::NotModelled {
                        loc: loc(Some(l)),
                        what: format!("LDEXP_64 with exponents {ex} (X) and {ey} (Y)"),
                        why: "which slot's exponent the unit reads is not in the sources wavesim uses".into(),
                    });
                }
                if special(a) {
                    return Err(nm(l, format!("LDEXP_64 of {a:e}")));
                }
                let r = ldexp(a, ex);
                if special(r) || (r == 0.0 && a != 0.0) {
                    return Err(nm(l, format!("LDEXP_64 result of {a:e} * 2^{ex}")));
                }
                split(r)
            }
        };
    }
    Ok(out)
}

/// frexp of a finite, normal or zero binary64: (m, e) with a = m * 2^e and 0.5 <= |m| < 1.
fn frexp(a: f64) -> (f64, i32) {
    if a == 0.0 {
        return (a, 0);
    }
    let bits = a.to_bits();
    let e = ((bits >> 52) & 0x7FF) as i32 - 1022;
    // Replace the biased exponent by 1022 (2^-1): the mantissa keeps its bits and sign.
    (f64::from_bits((bits & !(0x7FF << 52)) | (1022 << 52)), e)
}

/// a * 2^e by exact power-of-two steps (each step is exact while the result stays normal).
fn ldexp(a: f64, e: i32) -> f64 {
    let mut r = a;
    let mut e = e.clamp(-2200, 2200);
    while e != 0 {
        let k = e.clamp(-1000, 1000);
        r *= f64::from_bits(((1023 + k) as u64) << 52);
        e -= k;
    }
    r
}
