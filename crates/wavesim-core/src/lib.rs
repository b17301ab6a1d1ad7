//! The ISA-neutral core of wavesim: emulated device memory, errors, dispatch geometry, stats.
pub mod memory;
