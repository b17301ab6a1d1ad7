//! Per-thread stack (scratch) loads and stores: `stack_load`/`stack_store`, which Mesa's compiler emits
//! for register spills (`agx_lower_spill.c`) and NIR scratch access (`agx_emit_load_scratch`).
//!
//! Rule sources: Mesa's `agx_pack.c` packs both like `device_load` (format, mask, register tuple R,
//! index O) with constant fields i1 = 1, i2 = 0, i5 = 4; `agx_lower_spill.c` gives O in bytes ("Calculate
//! stack offset in bytes") and the format by register size (i16 for 16-bit, i32 for 32-bit registers,
//! i8 for byte scratch). Component i of the mask is at byte O + i * element size (the layout of a
//! spilled vector, mirroring `device_load`). Each thread's stack is private: wavesim keeps the bytes a
//! thread stored, and a load of bytes the thread never stored is a typed error (the hardware's
//! contents there are whatever the stack held). `stack_get_ptr` (Mesa never emits it) has no
//! semantics here.
//!
//! `stack_adjust`: Mesa 25.0's `agx_pack.c` packs it as 0x10100b5 | i1 = 1 << 26 | i2 = 2 << 36 |
//! 1 << 47 with a signed 16-bit size in bits 20-23, 32-35 and 56-63. Its low byte is `stack_store`'s
//! opcode, and applegpu matches `stack_store` before its `TODO.stack_adjust` row (which that row's
//! pattern always shadows), so the word decodes and disassembles as a `stack_store` with mask 0,
//! i2 = 2 and O the size; wavesim recognises Mesa's whole word there. Mesa 25.0's
//! `agx_compile.c` emits `stack_adjust(ALIGN(DIV_ROUND_UP(scratch_size_B, 4) + 10, 4))` at the
//! start of every shader with scratch ("Apple always allocate 40 more bytes in the entrypoint"),
//! and the negated value at the end of a fragment shader run inside the sample loop; so `v` counts
//! 4-byte words. wavesim models it as opening and closing the wave's one stack frame of 4v bytes:
//! stack accesses then must lie inside it (one outside is a typed error), a second frame, a release
//! that does not match the open frame, and any other field values than Mesa packs (i0 = 0, i1 = 1,
//! i2 = 2, i3 = i4 = 0) are typed errors; releasing the frame ends every thread's stack contents.
//! Code without `stack_adjust` (Mesa 22.3 disabled its emission) addresses the stack as before.

use super::{active, missing, require_fields, Fault, Ops, WaveState, SIMD_WIDTH};
use crate::operand::{Operand, RegFile};
use wavesim_core::observe::AccessKind;

/// The bits of Mesa's `stack_adjust` outside its size field (`agx_pack.c`).
const ADJUST_BITS: u64 = 0x10100b5 | 1 << 26 | 2 << 36 | 1 << 47;
/// Its size field: bits 20-23, 32-35, 56-63.
const ADJUST_SIZE: u64 = 0xF << 20 | 0xF << 32 | 0xFF << 56;

/// `stack_load` (`load` true) and `stack_store` (or Mesa's `stack_adjust`, which decodes as one).
pub(super) fn stack_access(w: &mut WaveState, o: &Ops<'_>, load: bool) -> Result<(), Fault> {
    let word = o.word() as u64;
    if !load && o.word() >> 64 == 0 && word & !ADJUST_SIZE == ADJUST_BITS {
        let v = (word >> 20 & 0xF | (word >> 32 & 0xF) << 4 | (word >> 56) << 8) as u16 as i16;
        return stack_adjust(w, v);
    }
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
    let frame = w.stack_frame;
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
            if frame != 0 && u64::from(addr) + u64::from(size) > u64::from(frame) {
                return Err(Fault::UnsupportedForm {
                    what: format!(
                        "stack bytes {addr}..{} (thread {lane}) outside the {frame}-byte frame stack_adjust opened",
                        addr + size
                    ),
                });
            }
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

/// `stack_adjust v`: open (v > 0) or release (v < 0, the open frame's size) the wave's stack frame of
/// 4|v| bytes (module comment).
fn stack_adjust(w: &mut WaveState, v: i16) -> Result<(), Fault> {
    let bytes = u32::from(v.unsigned_abs()) * 4;
    let open = w.stack_frame;
    if open == 0 && v > 0 {
        w.stack_frame = bytes;
    } else if open != 0 && v < 0 && open == bytes {
        w.stack_frame = 0;
        w.stack.clear();
    } else {
        return Err(Fault::UnsupportedForm {
            what: format!(
                "stack_adjust {v} with a {open}-byte frame open (Mesa opens one frame at the \
                 entry and releases it with the negated size)"
            ),
        });
    }
    Ok(())
}
