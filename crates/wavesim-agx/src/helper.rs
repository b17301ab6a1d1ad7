//! The host side of Mesa's helper-program protocol, so that a helper program (asahi_clc's
//! `libagx_helper`, e.g. Mesa's stack-allocation service `src/asahi/lib/shaders/helper.cl`) can run.
//!
//! What is public about the protocol comes from Mesa (no Apple document describes it):
//! - `agx_opcodes.py` names the special registers: sr20 `core_id`, sr144 `helper_op`, sr146/sr147
//!   `helper_arg_l`/`helper_arg_h`; `agx_compile.c` reads them with `get_sr`.
//! - `helper.cl` names the doorbell codes: 32 = next request, 48 = acknowledge, 49 = refuse. After
//!   "next", the program reads the request's operation from sr144 and its argument from sr146; before
//!   the first one, sr146/sr147 hold the helper's own argument (the header address).
//! - `stack_map`/`stack_unmap` (`map`/`unmap`, four block slots 0-3): the service maps the requesting
//!   SIMD group's stack blocks on an allocation and reads them back on a free.
//!
//! wavesim models the requesting side as a scripted queue of [`HelperRequest`]s and records every
//! doorbell and stack mapping as a [`HelperEvent`]; tests compare these with a model of the service.

use std::collections::VecDeque;

/// Doorbell code: the helper is ready for the next request (Mesa's `DB_NEXT`).
pub const DOORBELL_NEXT: u8 = 32;
/// Doorbell code: request done (Mesa's `DB_ACK`).
pub const DOORBELL_ACK: u8 = 48;
/// Doorbell code: request refused (Mesa's `DB_NACK`).
pub const DOORBELL_NACK: u8 = 49;

/// Special registers of the helper protocol (`agx_opcodes.py`'s names).
pub const SR_CORE_ID: u64 = 20;
pub const SR_HELPER_OP: u64 = 144;
pub const SR_HELPER_ARG_L: u64 = 146;
pub const SR_HELPER_ARG_H: u64 = 147;

/// One request from a SIMD group to the helper.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HelperRequest {
    /// Operation (`helper.cl`: 0 stack alloc, 1 stack free, 4/5 threadgroup alloc/free, 15 end).
    pub op: u32,
    /// Argument (sr146 after the doorbell; for a stack allocation, the size bucket).
    pub arg: u32,
    /// The requesting group's mapped stack blocks (slots 0-3) when it makes the request; `None` where
    /// nothing is mapped.
    pub mapped: [Option<u32>; 4],
}

/// What the helper did, in order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HelperEvent {
    /// A doorbell rang with this code.
    Doorbell(u8),
    /// `map`: stack block slot `slot` of the requesting group now holds `value`.
    Map { slot: u32, value: u32 },
    /// `unmap`: stack block slot `slot` was read back (its value) and is no longer mapped.
    Unmap { slot: u32, value: u32 },
}

/// The requesting side of the protocol, attached to the helper's SIMD group
/// ([`crate::exec::WaveState::helper`]).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct HelperPort {
    /// Requests not yet taken.
    pub requests: VecDeque<HelperRequest>,
    /// The request being served (its stack mapping changes with `map`/`unmap`).
    pub current: Option<HelperRequest>,
    pub events: Vec<HelperEvent>,
}

impl HelperPort {
    pub fn new(requests: impl IntoIterator<Item = HelperRequest>) -> HelperPort {
        HelperPort {
            requests: requests.into_iter().collect(),
            current: None,
            events: vec![],
        }
    }
}
