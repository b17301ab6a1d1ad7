//! Emulated device memory: a sandboxed 64-bit address space of allocations.

/// The device address space guest code can reach.
#[derive(Debug, Default)]
pub struct DeviceMemory {}
