//! Entering the trap handler, which s_trap, illegal instructions, float exceptions and memory
//! violations share; below the families that raise them.

use crate::exec::Flow;
use crate::wave::{status, Wave};

/// PC values are 48-bit byte addresses; reads sign-extend them to 64 bits (RDNA3 ISA guide, Wave State).
pub const PC_MASK: u64 = (1 << 48) - 1;

/// Trap entry, as hardware performs it for s_trap, exceptions and illegal instructions (RDNA3
/// ISA guide, Wave State, "Trap and exception registers"): {TTMP1, TTMP0} = {7'h0, HT = 0, trapID[7:0],
/// PC[47:0]}, STATUS.PRIV = 1, PC = TBA. The caller checks STATUS.TRAP_EN. Trap entry is done by
/// hardware, so the TTMP writes do not need PRIV.
pub fn enter_trap(w: &mut Wave, trap_id: u32, pc: u64) -> Flow {
    let pc = pc & PC_MASK;
    w.sgpr[108] = pc as u32;
    w.sgpr[109] = (pc >> 32) as u32 | (trap_id & 0xff) << 16;
    w.hw.status |= status::PRIV;
    w.pc = w.tba & PC_MASK;
    Flow::Jump
}
