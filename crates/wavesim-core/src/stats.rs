//! Counters of one dispatch, kept the same way for every ISA.

use std::time::Duration;

/// Counters of one dispatch.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DispatchStats {
    pub workgroups: u64,
    pub waves: u64,
    /// Instructions executed, counted once per wave.
    pub wave_instructions: u64,
    /// Instructions executed, counted once per active lane (the execution mask at issue).
    pub lane_instructions: u64,
    pub elapsed: Duration,
}
