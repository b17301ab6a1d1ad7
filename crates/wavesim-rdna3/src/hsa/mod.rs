//! The HSA side of RDNA3: code objects (ELF, kernel descriptors, msgpack metadata), kernel
//! arguments, the AQL packet and the launch of a kernel as the ROCm runtime and the command
//! processor perform it (AMDGPUUsage, "Code Object", "Kernel Dispatch", "Initial Kernel
//! Execution State"). The ISA-neutral engine never sees any of this: it gets a [`Launch`].
//!
//! [`Launch`]: crate::dispatch::Launch

pub mod bundle;
pub mod codeobj;
pub mod kernarg;
pub mod launch;
pub mod printf;
pub mod raw;

use thiserror::Error;

/// What a hostcall request's error says after its location.
pub const HOSTCALL_UNSUPPORTED: &str = "the kernel made a hostcall request through its \
    hidden_hostcall_buffer (HIP device malloc, __ockl_hostcall_*); hostcall services are not \
    supported by wavesim";

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
    /// The kernel used its hostcall buffer (`hidden_hostcall_buffer`): a hostcall request
    /// (HIP device malloc, `__ockl_hostcall_*`), which needs a host thread serving the buffer.
    #[error("{error}: {}", HOSTCALL_UNSUPPORTED)]
    HostcallUnsupported {
        error: crate::dispatch::DispatchError,
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
