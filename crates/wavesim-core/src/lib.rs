//! The ISA-neutral core of wavesim: emulated device memory, the engine every back end plugs into
//! (dispatch geometry, the workgroup scheduler, barriers, watchdog), errors with their location,
//! statistics and the observer interface. It depends on no ISA crate.
pub mod elf;
pub mod engine;
pub mod error;
pub mod fp;
pub mod grid;
pub mod limits;
pub mod memory;
pub mod observe;
pub mod stats;

pub use engine::{Backend, Stop, WaveSlot};
pub use error::{DispatchError, LaunchError, Location};
pub use grid::Geometry;
pub use memory::DeviceMemory;
pub use observe::{InstLoc, NoObserver, Observer, TraceFilter};
pub use stats::DispatchStats;
