//! Local data share instructions (DS) with seed 000's alignment and out-of-range rules.

use crate::exec::Handler;
use crate::isa::Op;

/// The ops of this family that wavesim implements.
pub fn handler(op: Op) -> Option<Handler> {
    let _ = op;
    None
}
