//! Packed VALU (VOP3P): v_pk_*, dot products, v_fma_mix*, WMMA.

use crate::exec::Handler;
use crate::isa::Op;

/// The ops of this family that wavesim implements.
pub fn handler(op: Op) -> Option<Handler> {
    let _ = op;
    None
}
