//! Floating-point exceptions of VALU instructions (RDNA3 ISA 3.4.9 "Trap and Exception
//! registers", 3.4.2 MODE).
//!
//! The float core (`soft`, `ops`) records IEEE exception flags while `FpMode::detect` is set:
//! MODE.EXCP_EN has an enabled VALU exception bit and MODE.DX10_CLAMP (which suppresses VALU
//! exceptions) is clear. A float instruction then brackets its lane loop with `begin` /
//! `finish`; only lanes that execute raise flags. `finish` ORs the flags into TRAPSTS.EXCP
//! (sticky) and, for an exception enabled in MODE.EXCP_EN:
//! - with a trap handler (STATUS.TRAP_EN) and the wave not already in it: trap entry with
//!   trapID 0 (RDNA3 ISA guide, Wave State: "TRAP_ID is zero for exceptions"). Exceptions do not cancel the result
//!   (ISA table: "Result" column), so the instruction's writes stand and the saved PC is the next
//!   instruction's: s_rfe resumes after the excepting instruction;
//! - without one: the dispatch ends with `ExecError::FpException` naming the exception (the
//!   dispatcher adds the instruction). The ISA would ignore the exception here; wavesim reports
//!   it because a program that enables exceptions wants to know (issue 3, "Traps").
//!
//! Not modelled: TRAPSTS.EXCP accumulation while every EXCP_EN bit is clear (it would cost every
//! float instruction the bookkeeping); INEXACT of float-to-integer conversions (the ISA ties it
//! to the CLAMP bit).

use crate::decode::Inst;
use crate::exec::operand::FpMode;
use crate::exec::trap::enter_trap;
use crate::exec::vfloat::soft::{self, exc};
use crate::exec::{ExecError, Flow};
use crate::wave::{status, Wave};

/// TRAPSTS.EXCP bits a VALU instruction can set (the same numbering as MODE.EXCP_EN).
pub const TRAPSTS_EXCP_VALU: u32 = 0x7f;

/// The name of the lowest exception bit set in `bits`.
pub fn name(bits: u32) -> &'static str {
    match bits & bits.wrapping_neg() {
        exc::INVALID => "invalid operation",
        exc::DENORM => "input denormal",
        exc::DIV0 => "float divide by zero",
        exc::OVERFLOW => "overflow",
        exc::UNDERFLOW => "underflow",
        exc::INEXACT => "inexact",
        exc::INT_DIV0 => "integer divide by zero",
        _ => "unknown",
    }
}

/// Starts collecting the flags of one instruction.
#[inline(always)]
pub fn begin(m: &FpMode) {
    if m.detect {
        soft::take_flags();
    }
}

/// Ends an instruction that computed its lanes after `begin`: commits the collected flags.
#[inline(always)]
pub fn finish(w: &mut Wave, inst: &Inst, m: &FpMode, flow: Flow) -> Result<Flow, ExecError> {
    if !m.detect {
        return Ok(flow);
    }
    commit(w, inst, soft::take_flags(), flow)
}

/// Records `flags` in TRAPSTS.EXCP and takes the trap (or reports the error) for the enabled
/// ones; `flow` is what the instruction does otherwise.
#[cold]
pub fn commit(w: &mut Wave, _inst: &Inst, flags: u32, flow: Flow) -> Result<Flow, ExecError> {
    let flags = flags & TRAPSTS_EXCP_VALU;
    if flags == 0 {
        return Ok(flow);
    }
    w.hw.trapsts |= flags;
    let enabled = flags & (w.hw.mode >> 12) & TRAPSTS_EXCP_VALU;
    if enabled == 0 {
        return Ok(flow);
    }
    if w.hw.status & status::TRAP_EN != 0 {
        // Inside the trap handler exceptions are only recorded (no nested trap entry).
        if w.privileged() {
            return Ok(flow);
        }
        let next = w.pc;
        return Ok(enter_trap(w, 0, next));
    }
    Err(ExecError::FpException {
        what: name(enabled),
    })
}
