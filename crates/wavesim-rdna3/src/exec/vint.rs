//! Integer and bit VALU: 16/32/64-bit integer arithmetic, shifts, bit fields, sad, mads.

use crate::exec::Handler;
use crate::isa::Op;

/// The ops of this family that wavesim implements.
pub fn handler(op: Op) -> Option<Handler> {
    let _ = op;
    None
}
