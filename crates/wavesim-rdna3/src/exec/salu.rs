//! Scalar ALU: SOP1, SOP2, SOPK and SOPC (RDNA3 ISA, "Scalar ALU operations").

use crate::exec::Handler;
use crate::isa::Op;

/// The ops of this family that wavesim implements.
pub fn handler(op: Op) -> Option<Handler> {
    let _ = op;
    None
}
