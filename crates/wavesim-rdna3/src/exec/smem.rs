//! Scalar memory (SMEM): s_load_*, s_buffer_load_*, cache invalidation.

use crate::exec::Handler;
use crate::isa::Op;

/// The ops of this family that wavesim implements.
pub fn handler(op: Op) -> Option<Handler> {
    let _ = op;
    None
}
