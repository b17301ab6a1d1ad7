//! Helper-program instructions (`doorbell`, `jmp_if_skipping_doorbell`, `map`/`unmap`) and
//! `uniform_store`. Rule sources: Mesa's `agx_pack.c`/`agx_opcodes.py` (encodings and the constant
//! fields Mesa emits), `helper.cl` (protocol, see `crate::helper`), applegpu's description of
//! `uniform_store`. Encodings with field values Mesa never emits are typed errors: their meaning is
//! not public.

use super::{active, Fault, Flow, Ops, WaveState, SIMD_WIDTH};
use crate::helper::{HelperEvent, DOORBELL_NEXT, SR_HELPER_ARG_H, SR_HELPER_ARG_L, SR_HELPER_OP};
use crate::operand::{Operand, Reg, RegFile};

fn no_port(o: &Ops<'_>) -> Fault {
    Fault::Unsupported {
        name: o.d.encoding().name,
    }
}

/// `jmp_if_skipping_doorbell`: branch when no thread is active. Mesa emits it as the first half of
/// every doorbell (`agx_opcodes.py` packs "doorbell" as `20 00 06 00 28 imm`: this jump, 6 bytes
/// ahead, then the 2-byte doorbell), and Mesa's helper program reaches a doorbell inside an `if`
/// whose threads may all be disabled (the refusal after `if_icmp r0l, ueq, r8, 0` at 0x168), where it
/// must not ring: so the jump skips the doorbell exactly when no thread is active.
pub(super) fn jmp_if_skipping_doorbell(w: &WaveState, o: &Ops<'_>) -> Result<Flow, Fault> {
    let off = match o.op("off")? {
        Operand::Offset(v) => *v,
        _ => return Err(super::missing("off")),
    };
    Ok(if w.exec == 0 {
        Flow::Jump(w.pc.wrapping_add(off as u64))
    } else {
        Flow::Next
    })
}

/// `doorbell imm`: record the code; code 32 (next) takes the next scripted request into sr144
/// (operation) and sr146/sr147 (argument). Needs a helper port; a doorbell with no active thread
/// (never emitted by Mesa, which guards it with `jmp_if_skipping_doorbell`) is an error.
pub(super) fn doorbell(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    let code = o.field("imm") as u8;
    if w.helper.is_none() {
        return Err(no_port(o));
    }
    if w.exec == 0 {
        return Err(Fault::Helper(
            "doorbell with no active thread (Mesa always skips it then)".into(),
        ));
    }
    let port = w.helper.as_mut().ok_or_else(|| no_port(o))?;
    port.events.push(HelperEvent::Doorbell(code));
    if code == DOORBELL_NEXT {
        let req = port.requests.pop_front().ok_or_else(|| {
            Fault::Helper("doorbell 32 (next request) with no request left".into())
        })?;
        let (op, arg) = (req.op, req.arg);
        port.current = Some(req);
        w.special.insert(SR_HELPER_OP, [op; SIMD_WIDTH]);
        w.special.insert(SR_HELPER_ARG_L, [arg; SIMD_WIDTH]);
        w.special.insert(SR_HELPER_ARG_H, [0; SIMD_WIDTH]);
    }
    Ok(())
}

/// The value of `reg` in the active threads, which must agree (a uniform action of the group).
fn uniform_value(w: &WaveState, reg: Reg, what: &str) -> Result<Option<u64>, Fault> {
    let mut value = None;
    for l in active(w) {
        let v = w.read(reg, l)?;
        if value.is_some_and(|x| x != v) {
            return Err(Fault::UnsupportedForm {
                what: format!("{what} of a value that differs between active threads"),
            });
        }
        value = Some(v);
    }
    Ok(value)
}

/// `map`/`unmap target0, R, slot` (Mesa's `stack_map`/`stack_unmap`): set slot `v` of the requesting
/// group's stack mapping to R, or read it back into R. Only the field values Mesa's `agx_pack.c` emits
/// (target0, q1 = q2 = q3 = 0, q4 = q5 = 16) are accepted.
pub(super) fn stack_map(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    if w.helper.is_none() {
        return Err(no_port(o));
    }
    let fields = [
        ("target", 0),
        ("q1", 0),
        ("q2", 0),
        ("q3", 0),
        ("q4", 16),
        ("q5", 16),
    ];
    for (name, want) in fields {
        if o.field(name) != want {
            return Err(Fault::UnsupportedForm {
                what: format!(
                    "map/unmap with {name} = {} (Mesa emits {want})",
                    o.field(name)
                ),
            });
        }
    }
    let slot = o.field("v") as u32;
    if slot > 3 {
        return Err(Fault::UnsupportedForm {
            what: format!("stack block slot {slot} (Mesa uses 0-3)"),
        });
    }
    let reg = match o.op("R")? {
        Operand::Reg(r, _) if r.file == RegFile::R32 => *r,
        _ => return Err(super::missing("R")),
    };
    let map = match o.field("op") {
        1 => true,
        0 => false,
        other => {
            return Err(Fault::UnsupportedForm {
                what: format!("map operation {other}"),
            })
        }
    };
    let Some(value) = (if map {
        uniform_value(w, reg, "map")?
    } else {
        Some(0)
    }) else {
        return Ok(()); // no active thread: nothing happens
    };
    if w.exec == 0 {
        return Ok(());
    }
    let port = w.helper.as_mut().ok_or_else(|| no_port(o))?;
    let current = port
        .current
        .as_mut()
        .ok_or_else(|| Fault::Helper("map/unmap before any request".into()))?;
    let entry = &mut current.mapped[slot as usize];
    if map {
        *entry = Some(value as u32);
        port.events.push(HelperEvent::Map {
            slot,
            value: value as u32,
        });
    } else {
        let v = entry.take().ok_or_else(|| {
            Fault::Helper(format!(
                "unmap of stack block slot {slot}, which is not mapped"
            ))
        })?;
        port.events.push(HelperEvent::Unmap { slot, value: v });
        for l in active(w) {
            w.write(reg, l, v as u128)?;
        }
    }
    Ok(())
}

/// `uniform_store unk, F, mask, b, R, O, s`: uniform halves O, O+1, ... = the 16-bit registers of R
/// (applegpu: "R is stored to offset O, ... an index in 16-bit units into the uniform registers";
/// Mesa's `agx_pack.c`: always format i16 with 16-bit registers, unk = 2, b = 0, since "the encoding
/// that should be 32-bit annoyingly doesn't work"). The value must agree across the active threads
/// (a preamble computes uniform values); other field values are typed errors.
pub(super) fn uniform_store(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    let want = [("unk", 2), ("F", 1), ("b", 0), ("Rt", 0), ("s", 0)];
    for (name, v) in want {
        if o.field(name) != v {
            return Err(Fault::UnsupportedForm {
                what: format!(
                    "uniform_store with {name} = {} (Mesa emits only {v})",
                    o.field(name)
                ),
            });
        }
    }
    let mask = o.field("mask");
    if !matches!(mask, 1 | 3 | 7 | 15) {
        return Err(Fault::UnsupportedForm {
            what: format!("uniform_store mask {mask:#b} (Mesa emits x, xy, xyz, xyzw)"),
        });
    }
    let regs = match o.op("R")? {
        Operand::Tuple(r, _) => r.clone(),
        _ => return Err(super::missing("R")),
    };
    // Mesa's offset is always an immediate; a register offset's meaning is not public.
    let base = match o.op("O")? {
        Operand::Imm(v) if *v >= 0 => *v,
        _ => {
            return Err(Fault::UnsupportedForm {
                what: "uniform_store offset other than a non-negative immediate".into(),
            })
        }
    };
    for (i, reg) in regs.iter().enumerate() {
        let Some(v) = uniform_value(w, *reg, "uniform_store")? else {
            return Ok(());
        };
        let slot = base as usize + i;
        let u = w.uniforms.get_mut(slot).ok_or(Fault::UnsupportedForm {
            what: format!("uniform half {slot} is beyond the 512 uniform halves"),
        })?;
        *u = v as u16;
    }
    Ok(())
}
