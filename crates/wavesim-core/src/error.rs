//! Errors of a dispatch, with the place they happened: what a user needs to find the
//! instruction in the disassembly. Every back end reports through these, so the CLI, the C ABI
//! and Python print one format for every ISA.

use thiserror::Error;

/// Where something went wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    pub kernel: String,
    pub workgroup: [u32; 3],
    /// Wave index inside the workgroup.
    pub wave: u32,
    /// Address of the instruction as the back end's disassembler shows it (for RDNA3 code
    /// objects the ELF address; relative to TBA when `trap_handler` is set).
    pub pc: u64,
    /// The instruction as the disassembler prints it (empty when the PC is not an instruction).
    pub inst: String,
    /// The PC is in the installed trap handler, not in the kernel's code.
    pub trap_handler: bool,
}

impl std::fmt::Display for Location {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [x, y, z] = self.workgroup;
        write!(
            f,
            "kernel {}, workgroup ({x},{y},{z}), wave {}, PC {:#x}",
            self.kernel, self.wave, self.pc
        )?;
        if self.trap_handler {
            write!(f, " in the trap handler")?;
        }
        if !self.inst.is_empty() {
            write!(f, " `{}`", self.inst)?;
        }
        Ok(())
    }
}

/// A launch that cannot run (bad geometry, limits, missing resources), found before any wave
/// starts.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("invalid dispatch: {0}")]
pub struct LaunchError(pub String);

impl<E> From<LaunchError> for DispatchError<E> {
    fn from(e: LaunchError) -> Self {
        DispatchError::BadLaunch(e.0)
    }
}

/// Why a dispatch failed; `E` is the back end's instruction-level error (what one instruction
/// did wrong: a memory fault with lane and address, an invalid word, ...).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum DispatchError<E> {
    #[error("invalid dispatch: {0}")]
    BadLaunch(String),
    #[error("{at}: {error}")]
    Exec { at: Box<Location>, error: E },
    #[error("{at}: watchdog: {limit} instructions executed without reaching {end}")]
    Watchdog {
        at: Box<Location>,
        limit: u64,
        /// The back end's end-of-program instruction (`s_endpgm`, ...), for the message.
        end: &'static str,
    },
    #[error(
        "{at}: barrier deadlock: waves {waiting:?} wait at {barrier} while this wave ran \
         {limit} instructions without reaching it"
    )]
    BarrierDeadlock {
        at: Box<Location>,
        waiting: Vec<u32>,
        limit: u64,
        /// The back end's barrier instruction (`s_barrier`, ...), for the message.
        barrier: &'static str,
    },
}
