//! Dual-issue VALU (VOPD): two VOP2-like operations read their sources before either writes.

use crate::decode::Inst;
use crate::exec::{op_name, Ctx, ExecError, Flow, Handler};
use crate::isa::Op;
use crate::wave::Wave;

/// VOPD instructions are dispatched through `exec`, not through per-op handlers.
pub fn handler(op: Op) -> Option<Handler> {
    let _ = op;
    None
}

pub fn exec(_w: &mut Wave, inst: &Inst, _ctx: &mut Ctx) -> Result<Flow, ExecError> {
    Err(ExecError::Unimplemented {
        name: op_name(inst),
    })
}
