//! Program control (SOPP): branches, s_endpgm, barriers, waits, traps, messages; s_getreg/s_setreg.

use crate::exec::Handler;
use crate::isa::Op;

/// The ops of this family that wavesim implements.
pub fn handler(op: Op) -> Option<Handler> {
    let _ = op;
    None
}
