//! Buffer memory instructions (MUBUF, MTBUF) with V# resources, as seed 004 describes.

use crate::exec::Handler;
use crate::isa::Op;

/// The ops of this family that wavesim implements.
pub fn handler(op: Op) -> Option<Handler> {
    let _ = op;
    None
}
