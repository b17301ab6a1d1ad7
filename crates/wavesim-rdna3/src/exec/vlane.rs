//! Cross-lane VALU: readlane, readfirstlane, writelane, permlane16/x16, movrel.

use crate::exec::Handler;
use crate::isa::Op;

/// The ops of this family that wavesim implements.
pub fn handler(op: Op) -> Option<Handler> {
    let _ = op;
    None
}
