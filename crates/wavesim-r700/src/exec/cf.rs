//! The CF program loop: runs one wave's control-flow instructions (clauses, jumps, loops, calls,
//! stack pushes and pops) until it ends, faults or its budget runs out.

use super::*;
use crate::isa::{CfAluRow, CfRow};

/// Runs a wave for at most `budget` CF instructions: until its program ends (END_OF_PROGRAM, or past
/// the last CF instruction), it faults, or the budget runs out (then it resumes where it stopped).
/// `obs` sees every CF instruction (clauses run inside their CF instruction).
pub fn run_wave<O: Observer<Wave, Step> + ?Sized>(
    program: &Program,
    drv: &mut DriverState,
    w: &mut Wave,
    budget: u64,
    obs: &mut O,
) -> Result<Stop, ExecError> {
    let fetch_shader = drv.fetch_shader.take();
    let r = run_wave_inner(program, fetch_shader.as_ref(), drv, w, budget, obs);
    drv.fetch_shader = fetch_shader;
    r
}

fn run_wave_inner<O: Observer<Wave, Step> + ?Sized>(
    program: &Program,
    fetch_shader: Option<&Program>,
    drv: &mut DriverState,
    w: &mut Wave,
    budget: u64,
    obs: &mut O,
) -> Result<Stop, ExecError> {
    if w.ended {
        return Ok(Stop::End);
    }
    let mut prog = match (w.in_fetch, fetch_shader) {
        (Some(_), Some(fs)) => fs,
        _ => program,
    };
    let mut ctx = Ctx {
        program: prog,
        drv,
        cf_pc: 0,
        wave_base: w.base,
    };
    let mut pc: u32 = w.pc;
    let mut ran = 0u64;
    loop {
        w.pc = pc;
        if ran >= budget {
            return Ok(Stop::Quantum);
        }
        ran += 1;
        let Some(c) = prog.cf.get(pc as usize).copied() else {
            if let Some(ret) = w.in_fetch.take() {
                // The fetch shader ended without RETURN: drop its call entry and resume.
                w.stack.pop();
                prog = program;
                ctx.program = program;
                pc = ret;
                continue;
            }
            w.ended = true;
            return Ok(Stop::End);
        };
        ctx.cf_pc = pc;
        w.cf_executed += 1;
        let iloc = step_loc(w, pc);
        if obs.enabled() {
            obs.pause_mem(&iloc, w, &Step::Cf(c), &mut DriverMemory::new(ctx.drv));
            begin_step(w);
            obs.before(&iloc, w, &Step::Cf(c));
        }
        let mut next = pc + 1;
        // VALID_PIXEL_MODE on CF_DWORD instructions makes the instruction treat invalid (killed or
        // never-covered) pixels as inactive, and on instructions that pop it deactivates invalid
        // pixels after the restore (R700 ISA reference 3.6.2). wavesim keeps killed and uncovered
        // pixels out of the active state at all times (PixelState::Killed / Invalid are never
        // restored by a pop), so the bit changes nothing here.
        //
        // WHOLE_QUAD_MODE: "if the WHOLE_QUAD_MODE bit is set, all four threads in the quad execute if
        // at least one ... is set to execute" (R700 ISA reference, 6.3), and "whole quad mode normally
        // is exited automatically when reaching the end of scope for the branch-loop instruction that
        // began in whole quad mode" (3.6.2). A plain ALU clause (CF_INST_ALU) and a TEX/VTX clause are
        // no branch-loop instructions: their scope is the instruction, so the other pixels of a
        // partly active quad (lanes 4q..4q+3) run that clause as the quad's other threads (their GPRs
        // take the results, as any thread's do) and return to their own state after it. The
        // branch-loop forms (PUSH, ALU_PUSH_BEFORE, ELSE, ... whose scope runs to a later POP), exports
        // (whether a helper's export reaches the target is not stated) and a clause that changes the
        // active mask itself (KILL, PRED_SET with UPDATE_EXEC_MASK) are typed errors where a quad is
        // partly active; where none is, the bit turns nothing on. decaf-emu's translator ignores the bit
        // as an optimisation hint and Cemu asserts it is clear, so neither decides more.
        // (WHOLE_QUAD_MODE is bit 30 of word 1 in the CF, CF_ALU and CF_ALLOC_EXPORT formats alike.)
        // (the states before, the states the clause runs with)
        let mut wqm_saved: Option<(Vec<PixelState>, Vec<PixelState>)> = None;
        if c.whole_quad_mode() {
            let partly: Vec<usize> = (0..w.lanes / 4)
                .filter(|&q| {
                    let on = (4 * q..4 * q + 4).filter(|&l| w.active(l)).count();
                    on != 0 && on != 4
                })
                .collect();
            if let Some(&q) = partly.first() {
                let clause_scoped = match c.kind {
                    CfKind::Alu(r) => r.exec == CfAluExec::Alu,
                    CfKind::Normal(r) => matches!(r.exec, CfExec::TexClause | CfExec::VtxClause),
                    CfKind::Export(_) => false,
                };
                let unused = partly
                    .iter()
                    .flat_map(|&q| 4 * q..4 * q + 4)
                    .find(|&l| w.state[l] == PixelState::Invalid);
                if !clause_scoped || unused.is_some() {
                    let why = if let Some(l) = unused {
                        format!("lane {l} is a thread slot the wave does not use, no pixel to run as a helper")
                    } else {
                        "helper pixels stay on to the end of a branch-loop instruction's scope or take part in an export, which the sources wavesim uses do not describe".into()
                    };
                    return Err(ExecError::NotModelled {
                        loc: cf_loc(&ctx, &c),
                        what: format!(
                            "WHOLE_QUAD_MODE with a partly active quad (lanes {}..{})",
                            4 * q,
                            4 * q + 3
                        ),
                        why,
                    });
                }
                let saved = w.state.clone();
                for &q in &partly {
                    for l in 4 * q..4 * q + 4 {
                        w.state[l] = PixelState::Active;
                    }
                }
                wqm_saved = Some((saved, w.state.clone()));
            }
        }
        match c.kind {
            CfKind::Alu(r) => run_cf_alu(&mut ctx, w, &c, r, obs)?,
            CfKind::Export(r) => do_export(&ctx, w, &c, r)?,
            CfKind::Normal(r) => match r.exec {
                CfExec::Return => match w.stack.pop() {
                    Some(StackEntry::Call { ret, saved_program }) => {
                        if saved_program {
                            if let Some(r) = w.in_fetch.take() {
                                prog = program;
                                ctx.program = program;
                                next = r;
                            } else {
                                next = ret;
                            }
                        } else {
                            next = ret;
                        }
                    }
                    _ => {
                        return Err(fault(
                            cf_loc(&ctx, &c),
                            "RETURN without a CALL entry on top of the stack",
                        ))
                    }
                },
                CfExec::CallFs => {
                    if let Some(fs) = fetch_shader {
                        if w.in_fetch.is_some() {
                            return Err(fault(cf_loc(&ctx, &c), "CALL_FS inside the fetch shader"));
                        }
                        push(
                            w,
                            &ctx,
                            &c,
                            StackEntry::Call {
                                ret: pc + 1,
                                saved_program: true,
                            },
                        )?;
                        w.in_fetch = Some(pc + 1);
                        // The fetch shader runs as a subroutine; its RETURN (or end) comes back here.
                        prog = fs;
                        ctx.program = fs;
                        pc = 0;
                        continue;
                    }
                    // No fetch shader: the runner preloaded the GPRs a fetch shader would have written.
                }
                _ => next = run_cf_normal(&mut ctx, w, &c, r, pc, obs)?,
            },
        }
        if let Some((saved, on)) = wqm_saved {
            // The clause ran with the partly active quads wholly on: no lane may have changed state
            // (a KILL, an exec-mask update), and each returns to its own state.
            if w.state != on {
                return Err(ExecError::NotModelled {
                    loc: cf_loc(&ctx, &c),
                    what: "WHOLE_QUAD_MODE on a clause that changes the active mask (KILL or PRED_SET with UPDATE_EXEC_MASK) with a partly active quad".into(),
                    why: "how a helper pixel's kill or predicate combines with its own state is not in the sources wavesim uses".into(),
                });
            }
            w.state = saved;
        }
        if c.end_of_program() {
            if let Some(ret) = w.in_fetch.take() {
                // The fetch shader ended without RETURN: drop its call entry and resume.
                w.stack.pop();
                prog = program;
                ctx.program = program;
                pc = ret;
                continue;
            }
            w.ended = true;
            if obs.enabled() {
                obs.after(&iloc, w, &Step::Cf(c));
            }
            return Ok(Stop::End);
        }
        pc = next;
        if obs.enabled() {
            w.pc = pc;
            obs.after(&iloc, w, &Step::Cf(c));
        }
    }
}

/// A CF_ALU instruction: the stack push before, the ALU clause, its exec-mask update and the pops
/// or ELSE after (R700 ISA reference 3.6).
fn run_cf_alu<O: Observer<Wave, Step> + ?Sized>(
    ctx: &mut Ctx,
    w: &mut Wave,
    c: &CfInst,
    r: &CfAluRow,
    obs: &mut O,
) -> Result<(), ExecError> {
    let prog = ctx.program;
    let clause = &prog.alu[&c.alu_addr()];
    if r.exec == CfAluExec::PushBefore {
        let saved = w.state.clone();
        push(w, ctx, c, StackEntry::Push { saved })?;
    }
    let before = w.state.clone();
    run_alu_clause(ctx, w, c, clause, obs)?;
    // Exec-mask update from the clause's last PRED_SET* with UPDATE_EXEC_MASK.
    if let Some(upd) = w.exec_update.take() {
        let inactive = match r.exec {
            CfAluExec::Break => PixelState::InactiveBreak,
            CfAluExec::Continue => PixelState::InactiveContinue,
            _ => PixelState::InactiveBranch,
        };
        for (l, u) in upd.iter().enumerate() {
            if w.state[l] == PixelState::Active && before[l] == PixelState::Active && !u {
                w.state[l] = inactive;
            }
        }
    }
    match r.exec {
        CfAluExec::PopAfter => pop_n(w, ctx, c, 1)?,
        CfAluExec::Pop2After => pop_n(w, ctx, c, 2)?,
        CfAluExec::ElseAfter => do_else(w, ctx, c)?,
        _ => {}
    }
    Ok(())
}

/// A CF_DWORD instruction other than RETURN and CALL_FS (which switch programs and run in the CF
/// loop); returns the next CF address.
fn run_cf_normal<O: Observer<Wave, Step> + ?Sized>(
    ctx: &mut Ctx,
    w: &mut Wave,
    c: &CfInst,
    r: &CfRow,
    pc: u32,
    obs: &mut O,
) -> Result<u32, ExecError> {
    let cond = cond_true(ctx, c);
    let mut next = pc + 1;
    match r.exec {
        CfExec::Nop => {}
        CfExec::TexClause | CfExec::VtxClause => {
            let prog = ctx.program;
            let clause = &prog.fetch[&c.w0];
            for f in &clause.insts {
                if obs.enabled() {
                    let loc = step_loc(w, f.addr);
                    let step = Step::Fetch { cf: *c, inst: *f };
                    obs.pause_mem(&loc, w, &step, &mut DriverMemory::new(ctx.drv));
                    begin_step(w);
                    obs.before(&loc, w, &step);
                    run_fetch(ctx, w, f)?;
                    obs.after(&loc, w, &step);
                } else {
                    run_fetch(ctx, w, f)?;
                }
            }
        }
        CfExec::Jump => {
            if !(cond && w.any_active()) {
                pop_n(w, ctx, c, c.pop_count())?;
                next = c.w0;
            }
        }
        CfExec::Push => {
            // "If all pixels fail the test, PUSH does not push anything onto the stack;
            // instead, it performs POP_COUNT pops, then jumps" (R700 ISA reference 3.7.2).
            if cond && w.any_active() {
                let saved = w.state.clone();
                push(w, ctx, c, StackEntry::Push { saved })?;
            } else {
                pop_n(w, ctx, c, c.pop_count())?;
                next = c.w0;
            }
        }
        CfExec::Else => {
            do_else(w, ctx, c)?;
            if !(cond && w.any_active()) {
                pop_n(w, ctx, c, c.pop_count())?;
                next = c.w0;
            }
        }
        CfExec::PushElse => {
            let saved = w.state.clone();
            push(w, ctx, c, StackEntry::Push { saved })?;
            do_else(w, ctx, c)?;
            if !w.any_active() {
                next = c.w0;
            }
        }
        CfExec::Pop => {
            // "Pop instructions never jump" (R700 ISA reference 3.7.2): ADDR is unused.
            // POP pops POP_COUNT entries (possibly none) and then applies the condition
            // test to the result: pixels that fail it become inactive.
            pop_n(w, ctx, c, c.pop_count())?;
            if !cond {
                for s in w.state.iter_mut() {
                    if *s == PixelState::Active {
                        *s = PixelState::InactiveBranch;
                    }
                }
            }
        }
        CfExec::PopJump | CfExec::PopPush | CfExec::PopPushElse => {
            return Err(ExecError::NotModelled {
                loc: cf_loc(ctx, c),
                what: r.isa.into(),
                // Searched: Mesa's r600 driver (r600_isa.c lists the opcodes; no emitter or the sb
                // optimizer issues them), decaf-emu ("Unimplemented" in its translators), Cemu (the
                // cases are commented out), and the R700 ISA reference's stored pages (3.7.2's table
                // and chapter 9's CF descriptions reachable here cover JUMP/PUSH/POP/ELSE, not these).
                why: "no source gives the combined pop/jump/push forms' order of pop, condition test and jump".into(),
            });
        }
        CfExec::LoopStart { al } => loop_start(ctx, w, c, al, cond, &mut next)?,
        CfExec::LoopEnd => loop_end(ctx, w, c, cond, &mut next)?,
        CfExec::LoopBreak | CfExec::LoopContinue => {
            loop_break_or_continue(ctx, w, c, r, cond, &mut next)?
        }
        CfExec::Call => {
            if cond && w.any_active() {
                push(
                    w,
                    ctx,
                    c,
                    StackEntry::Call {
                        ret: pc + 1,
                        saved_program: false,
                    },
                )?;
                next = c.w0;
            }
        }
        CfExec::Return | CfExec::CallFs => {
            // They switch programs, so the CF loop itself runs them.
            return Err(fault(cf_loc(ctx, c), "RETURN/CALL_FS run in the CF loop"));
        }
        CfExec::Kill => {
            if cond {
                for s in w.state.iter_mut() {
                    if *s == PixelState::Active {
                        *s = PixelState::Killed;
                    }
                }
            }
            if !w.any_active() {
                pop_n(w, ctx, c, c.pop_count())?;
                next = c.w0;
            }
        }
        CfExec::Emit => {
            return Err(ExecError::NotModelled {
                loc: cf_loc(ctx, c),
                what: r.isa.into(),
                why: "geometry-shader emission is not modelled".into(),
            })
        }
        CfExec::NotModelled(why) => {
            return Err(ExecError::NotModelled {
                loc: cf_loc(ctx, c),
                what: r.isa.into(),
                why: why.into(),
            })
        }
    }
    Ok(next)
}

/// LOOP_START, LOOP_START_NO_AL and LOOP_START_DX10: push a loop entry (R700 ISA reference 3.7.4).
fn loop_start(
    ctx: &Ctx,
    w: &mut Wave,
    c: &CfInst,
    al: LoopAl,
    cond: bool,
    next: &mut u32,
) -> Result<(), ExecError> {
    let (count, init, inc) = match al {
        LoopAl::Dx10 => (u32::MAX, 0, 0),
        _ => {
            let k = c.cf_const() as usize;
            let lc = ctx.drv.loop_constants.get(k).copied().ok_or_else(|| {
                fault(
                    cf_loc(ctx, c),
                    format!("loop constant I{k} is not set by the runner"),
                )
            })?;
            (lc.count, lc.init, lc.inc)
        }
    };
    let prev_al = w.al;
    let (al_val, inc) = match al {
        LoopAl::FromConstant => (init, inc),
        _ => (w.al.unwrap_or(0), 0),
    };
    let saved = w.state.clone();
    push(
        w,
        ctx,
        c,
        StackEntry::Loop {
            saved,
            counter: count,
            dx10: al == LoopAl::Dx10,
            al: al_val,
            inc,
            sets_al: al == LoopAl::FromConstant,
            prev_al,
        },
    )?;
    if al == LoopAl::FromConstant {
        w.al = Some(al_val);
    }
    if count == 0 || !(cond && w.any_active()) {
        exit_loop(w, ctx, c)?;
        *next = c.w0;
    }
    Ok(())
}

/// LOOP_END: end the iteration, then loop back to the body or leave the loop.
fn loop_end(
    ctx: &Ctx,
    w: &mut Wave,
    c: &CfInst,
    cond: bool,
    next: &mut u32,
) -> Result<(), ExecError> {
    // Pushes left inside the body (a LOOP_BREAK/LOOP_CONTINUE that jumped here past
    // their POP) end with the iteration: pop them, restoring their pixels.
    while let Some(StackEntry::Push { .. }) = w.stack.last() {
        if let Some(StackEntry::Push { saved }) = w.stack.pop() {
            restore_from(&saved, &mut w.state, false);
        }
    }
    let Some(StackEntry::Loop {
        saved,
        counter,
        dx10,
        al,
        inc,
        sets_al,
        ..
    }) = w.stack.last_mut()
    else {
        return Err(fault(
            cf_loc(ctx, c),
            "LOOP_END without a loop entry on top of the stack",
        ));
    };
    // Pixels that continued rejoin at the end of the iteration.
    for (l, s) in saved.iter().enumerate() {
        if *s == PixelState::Active && w.state[l] == PixelState::InactiveContinue {
            w.state[l] = PixelState::Active;
        }
    }
    if !*dx10 {
        *counter = counter.saturating_sub(1);
    }
    *al = al.wrapping_add(*inc);
    let (again, sets_al, al_now) = (
        *counter > 0 && w.state.contains(&PixelState::Active),
        *sets_al,
        *al,
    );
    if again && cond {
        if sets_al {
            w.al = Some(al_now);
        }
        // LOOP_END's ADDR is the first instruction of the loop body.
        *next = c.w0;
    } else {
        exit_loop(w, ctx, c)?;
    }
    Ok(())
}

/// LOOP_BREAK and LOOP_CONTINUE: deactivate the pixels that pass the condition.
fn loop_break_or_continue(
    ctx: &Ctx,
    w: &mut Wave,
    c: &CfInst,
    r: &CfRow,
    cond: bool,
    next: &mut u32,
) -> Result<(), ExecError> {
    if !w.stack.iter().any(|e| matches!(e, StackEntry::Loop { .. })) {
        return Err(fault(
            cf_loc(ctx, c),
            "LOOP_BREAK/LOOP_CONTINUE outside a loop",
        ));
    }
    let to = if r.exec == CfExec::LoopBreak {
        PixelState::InactiveBreak
    } else {
        PixelState::InactiveContinue
    };
    if cond {
        for s in w.state.iter_mut() {
            if *s == PixelState::Active {
                *s = to;
            }
        }
    }
    if !w.any_active() {
        pop_n(w, ctx, c, c.pop_count())?;
        *next = c.w0;
    }
    Ok(())
}

fn exit_loop(w: &mut Wave, ctx: &Ctx, c: &CfInst) -> Result<(), ExecError> {
    match w.stack.pop() {
        Some(StackEntry::Loop { saved, prev_al, .. }) => {
            restore_from(&saved, &mut w.state, true);
            w.al = prev_al;
            Ok(())
        }
        _ => Err(fault(
            cf_loc(ctx, c),
            "loop exit without a loop entry on top of the stack",
        )),
    }
}

/// The observer's location of the step at `addr`: `@N` units as the disassembly shows them, the
/// byte offset in `.text` as the address.
pub(super) fn step_loc(w: &Wave, addr: u32) -> InstLoc {
    InstLoc {
        workgroup: w.workgroup,
        wave: 0,
        pc: addr as u64,
        addr: addr as u64 * 8,
        trap_handler: false,
    }
}
