//! The HSA side of RDNA3: code objects (ELF, kernel descriptors, msgpack metadata), kernel
//! arguments, the AQL packet and the launch of a kernel as the ROCm runtime and the command
//! processor perform it (AMDGPUUsage, "Code Object", "Kernel Dispatch", "Initial Kernel
//! Execution State"). The ISA-neutral engine never sees any of this: it gets a [`Launch`].
//!
//! [`Launch`]: crate::dispatch::Launch

pub mod bundle;
pub mod codeobj;
pub mod hostcall;
pub mod kernarg;
pub mod launch;
pub mod printf;
mod progcache;
pub mod raw;

use thiserror::Error;

/// What can go wrong launching a kernel, each with a message a user can act on.
#[derive(Debug, Error)]
pub enum HsaError {
    #[error(transparent)]
    CodeObject(#[from] codeobj::CodeObjectError),
    #[error("unknown kernel `{name}`; the code object has: {available}")]
    UnknownKernel { name: String, available: String },
    #[error("{0}")]
    Args(String),
    #[error(transparent)]
    Dispatch(#[from] crate::dispatch::DispatchError),
    /// A memory fault, with where its address lies relative to the kernel's buffer arguments
    /// ("argument 3 (y), offset 4000 of its 4000-byte buffer" or "outside every allocation").
    #[error("{error} ({place})")]
    Fault {
        error: crate::dispatch::DispatchError,
        place: String,
    },
    #[error("memory: {0}")]
    Memory(#[from] wavesim_core::memory::MemError),
    #[error("code: {0}")]
    Decode(#[from] crate::decode::DecodeError),
    /// A hostcall request wavesim cannot serve (an unknown service id, a malformed message);
    /// the error names the request, the wave and the instruction that waited for it.
    #[error("{error}")]
    Hostcall {
        error: crate::dispatch::DispatchError,
    },
    /// The kernel aborted (`s_trap 2`, llvm.trap, as a failed `assert` does after printing its
    /// message), which ROCm's trap handler turns into the end of the dispatch. `stdout` and
    /// `stderr` hold what the kernel printed through hostcall before.
    #[error("{error}{}", stderr_note(stderr))]
    Aborted {
        error: crate::dispatch::DispatchError,
        stdout: String,
        stderr: String,
    },
}

impl From<wavesim_core::LaunchError> for HsaError {
    /// A bad geometry is a bad launch, as the dispatcher reports it.
    fn from(e: wavesim_core::LaunchError) -> HsaError {
        HsaError::Dispatch(e.into())
    }
}

impl From<wavesim_core::limits::TooLarge> for HsaError {
    /// A size over wavesim's limit is a bad argument of the launch (C ABI: WAVESIM_ERR_ARGS).
    fn from(e: wavesim_core::limits::TooLarge) -> HsaError {
        HsaError::Args(e.to_string())
    }
}

/// The kernel's stderr text after an abort's error (the assertion message), if any.
pub fn stderr_note(stderr: &str) -> String {
    if stderr.is_empty() {
        String::new()
    } else {
        format!("; the kernel wrote to stderr: {}", stderr.trim_end())
    }
}
