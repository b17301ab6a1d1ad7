//! Vector compares (VOPC): v_cmp_* and v_cmpx_* writing lane masks to VCC/SGPRs/EXEC.

use crate::exec::Handler;
use crate::isa::Op;

/// The ops of this family that wavesim implements.
pub fn handler(op: Op) -> Option<Handler> {
    let _ = op;
    None
}
