//! Control flow: the r0l execution-mask stack, selects, branches, calls.

use super::{
    active, dst_reg, int_src, missing, per_thread, update_stack, Compare, Fault, Flow, Ops,
    WaveState,
};
use crate::operand::{Operand, Reg, RegFile};

/// `pop_exec`: r0l -= n (not below 0) in every thread.
pub(super) fn pop_exec(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    let n = o.field("n") as u16;
    update_stack(w, |_, _, v| Ok(v.saturating_sub(n)))?;
    Ok(())
}

/// `if_[if]cmp`: threads already disabled nest one level deeper (+n); enabled threads whose comparison
/// fails are disabled (r0l = 1) (applegpu).
pub(super) fn if_cmp(w: &mut WaveState, o: &Ops<'_>, float: bool) -> Result<(), Fault> {
    let n = o.field("n") as u16;
    let cmp = Compare::of(o, float)?;
    update_stack(w, |w, l, v| {
        Ok(if v != 0 {
            v.wrapping_add(n)
        } else if !(cmp.eval(w, l)?) {
            1
        } else {
            v
        })
    })?;
    Ok(())
}

/// `else_[if]cmp`: enabled threads are disabled (r0l = n); threads disabled by the innermost level
/// (r0l = 1) are enabled when the comparison holds (applegpu).
pub(super) fn else_cmp(w: &mut WaveState, o: &Ops<'_>, float: bool) -> Result<(), Fault> {
    let n = o.field("n") as u16;
    let cmp = Compare::of(o, float)?;
    update_stack(w, |w, l, v| {
        Ok(match v {
            0 => n,
            1 => {
                if cmp.eval(w, l)? {
                    0
                } else {
                    1
                }
            }
            v => v,
        })
    })?;
    Ok(())
}

/// `while_[if]cmp`: threads below level n continue (r0l = 0) while the comparison holds, else leave
/// the loop (r0l = n) (applegpu).
pub(super) fn while_cmp(w: &mut WaveState, o: &Ops<'_>, float: bool) -> Result<(), Fault> {
    let n = o.field("n") as u16;
    let cmp = Compare::of(o, float)?;
    update_stack(w, |w, l, v| {
        Ok(if v < n {
            if cmp.eval(w, l)? {
                0
            } else {
                n
            }
        } else {
            v
        })
    })?;
    Ok(())
}

/// `icmpsel`/`fcmpsel`: X where the comparison holds, else Y.
pub(super) fn cmpsel(w: &mut WaveState, o: &Ops<'_>, float: bool) -> Result<(), Fault> {
    let cmp = Compare::of(o, float)?;
    let (dop, x, y) = (o.op("D")?, o.op("X")?, o.op("Y")?);
    per_thread(w, dop, |w, l| {
        let c = cmp.eval(w, l)?;
        Ok(int_src(w, if c { x } else { y }, l)? as u128)
    })?;
    Ok(())
}

/// `jmp_exec_any` / `jmp_exec_none`: branch when any / no thread is active (applegpu's pseudocode).
pub(super) fn jmp_exec(w: &mut WaveState, o: &Ops<'_>, any_active: bool) -> Result<Flow, Fault> {
    let off = match o.op("off")? {
        Operand::Offset(v) => *v,
        _ => return Err(missing("off")),
    };
    let any = w.exec != 0;
    if any == (any_active) {
        return Ok(Flow::Jump(w.pc.wrapping_add(off as u64)));
    }
    Ok(Flow::Next)
}

/// `call`: r1 = the return address in the active threads, then branch (applegpu's pseudocode; seed
/// 001: r1 is the link register).
pub(super) fn call(w: &mut WaveState, o: &Ops<'_>) -> Result<Flow, Fault> {
    let off = match o.op("off")? {
        Operand::Offset(v) => *v,
        _ => return Err(missing("off")),
    };
    let pc = w.pc;
    let link = Reg {
        file: RegFile::R32,
        n: 1,
    };
    for l in active(w) {
        w.write(link, l, (pc + o.d.size as u64) as u128)?;
    }
    Ok(Flow::Jump(pc.wrapping_add(off as u64)))
}

/// `ret`: branch to the register's value, which must agree across the active threads.
pub(super) fn ret(w: &mut WaveState, o: &Ops<'_>) -> Result<Flow, Fault> {
    let r = dst_reg(o.op("reg32")?)?;
    let mut target = None;
    for l in active(w) {
        let t = w.read(r, l)?;
        if target.is_some_and(|x| x != t) {
            return Err(Fault::DivergentReturn);
        }
        target = Some(t);
    }
    // With no active thread the return is taken by none; fall through.
    if let Some(t) = target {
        return Ok(Flow::Jump(t));
    }
    Ok(Flow::Next)
}
