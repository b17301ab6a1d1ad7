//! Floating-point VALU: f16/f32/f64 arithmetic, conversions, transcendentals, division helpers.

use crate::exec::Handler;
use crate::isa::Op;

/// The ops of this family that wavesim implements.
pub fn handler(op: Op) -> Option<Handler> {
    let _ = op;
    None
}
