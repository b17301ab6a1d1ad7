//! What a run gives back per thread and how it fails: below both the runner (which configures a draw)
//! and the backend (which runs its waves), so neither imports the other's types.

use thiserror::Error;

use crate::exec::Export;

#[derive(Debug, Error)]
pub enum RunError {
    #[error("R700 run configuration: {0}")]
    Config(String),
    #[error(transparent)]
    Exec(#[from] crate::exec::ExecError),
    #[error(transparent)]
    Asm(#[from] crate::error::AsmError),
    #[error(transparent)]
    Decode(#[from] crate::error::DecodeError),
    /// The engine stopped the draw (watchdog, invalid launch).
    #[error("R700 draw: {0}")]
    Dispatch(String),
}

#[derive(Clone, Debug, PartialEq)]
pub struct ThreadResult {
    /// Killed by KILL* or CF KILL (cleared from the valid mask).
    pub killed: bool,
    pub exports: Vec<Export>,
}
