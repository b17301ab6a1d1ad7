//! Per-thread stack (scratch) loads and stores: `stack_load`/`stack_store`, which Mesa's compiler emits
//! for register spills (`agx_lower_spill.c`) and NIR scratch access (`agx_emit_load_scratch`).
//!
//! Rule sources: Mesa's `agx_pack.c` packs both like `device_load` (format, mask, register tuple R,
//! index O) with constant fields i1 = 1, i2 = 0, i5 = 4; `agx_lower_spill.c` gives O in bytes ("Calculate
//! stack offset in bytes") and the format by register size (i16 for 16-bit, i32 for 32-bit registers,
//! i8 for byte scratch). Component i of the mask is at byte O + i * element size (the layout of a
//! spilled vector, mirroring `device_load`). Each thread's stack is private: wavesim keeps the bytes a
//! thread stored, and a load of bytes the thread never stored is a typed error (the hardware's
//! contents there are whatever the stack held). `stack_adjust` (Mesa's emission is disabled) and
//! `stack_get_ptr` (Mesa never emits it) have no semantics here.

use super::{active, missing, require_fields, Fault, Ops, WaveState, SIMD_WIDTH};
use crate::operand::{Operand, RegFile};
use wavesim_core::observe::AccessKind;

/// `stack_load` (`load` true) and `stack_store`.
pub(super) fn stack_access(w: &mut WaveState, o: &Ops<'_>, load: bool) -> Result<(), Fault> {
    require_fields(o, "stack access", &[("i1", 1), ("i2", 0), ("i5", 4)])?;
    let regs = match o.op("R")? {
        Operand::Tuple(r, _) => r.clone(),
        _ => return Err(missing("R")),
    };
    let wide = regs.first().is_some_and(|r| r.file == RegFile::R32);
    let format = o.field("F");
    let size: u32 = match (format, wide) {
        (0, false) => 1,
        (1, false) => 2,
        (2, true) => 4,
        _ => {
            return Err(Fault::UnsupportedForm {
                what: format!(
                    "stack format {format} with {}-bit registers (Mesa's spills: i8/i16 with 16-bit, i32 with 32-bit)",
                    if wide { 32 } else { 16 }
                ),
            })
        }
    };
    let mask = o.field("mask");
    if w.stack.len() < SIMD_WIDTH {
        w.stack.resize(SIMD_WIDTH, Default::default());
    }
    for lane in active(w).collect::<Vec<_>>() {
        let offset = match o.op("O")? {
            Operand::Imm(v) => *v,
            Operand::Reg(r, _) => w.read(*r, lane)? as u32 as i64,
            _ => return Err(missing("O")),
        };
        let mut regs_left = regs.iter();
        for i in 0..4i64 {
            if mask >> i & 1 == 0 {
                continue;
            }
            let reg = *regs_left.next().ok_or_else(|| missing("R"))?;
            let addr = offset + i * i64::from(size);
            let addr = u32::try_from(addr).map_err(|_| Fault::UnsupportedForm {
                what: format!("stack offset {addr} (thread {lane}) is negative"),
            })?;
            if load {
                let mut v = 0u128;
                for k in 0..size {
                    let byte = w.stack[lane].get(&(addr + k)).copied().ok_or_else(|| {
                        Fault::UnsupportedForm {
                            what: format!(
                                "thread {lane} loads stack byte {} that it never stored",
                                addr + k
                            ),
                        }
                    })?;
                    v |= u128::from(byte) << (8 * k);
                }
                w.record(
                    AccessKind::Load,
                    "stack",
                    lane,
                    addr.into(),
                    size.into(),
                    v as u64,
                );
                w.write(reg, lane, v)?;
            } else {
                let v = w.read(reg, lane)?;
                let stored = v & (u64::MAX >> (64 - 8 * size));
                w.record(
                    AccessKind::Store,
                    "stack",
                    lane,
                    addr.into(),
                    size.into(),
                    stored,
                );
                for k in 0..size {
                    w.stack[lane].insert(addr + k, (v >> (8 * k)) as u8);
                }
            }
        }
    }
    Ok(())
}
