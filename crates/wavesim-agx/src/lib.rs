//! Apple AGX (G13) for wavesim: one instruction table (`table.rs`, generated from applegpu's instruction
//! descriptors by `tools/agx/gen_table.py`) drives decoding, disassembly in applegpu's syntax, assembly and
//! the executor's dispatch; the asahi compiler README's split-program register ABI (Mesa's `src/asahi/compiler/README.md`)
//! is implemented by the ABI runners.
//!
//! Entry points:
//! - [`disassemble_raw`]`(code, base)`: the listing `disassemble.py` prints for raw code (offset, hex
//!   bytes, text), to the last byte; [`disassemble_raw_until_stop`] ends after the first `stop` as the
//!   script does by default; [`listing`] gives the lines; [`decode()`] one instruction.
//! - [`asm::assemble`]`(source)`: applegpu-syntax assembly to bytes.
//! - [`compute::AgxCompute`] + [`compute::ComputeLaunch`]: a compute dispatch on
//!   `wavesim_core::engine::run` (uniforms = the kernel's arguments, grid, threadgroup memory).
//! - [`abi::run_vertex`] / [`abi::run_fragment`]: the asahi compiler README's non-monolithic vertex and fragment
//!   programs (prolog and epilog work done by wavesim; render targets as PNG via
//!   [`abi::FragmentResult::png`]).
//! - [`kernel::GridKernel`]: an asahi_clc grid kernel dispatched as Mesa's driver does (arguments in
//!   uniform halves at byte offset / 2, promoted constants, the preamble run once).
//! - [`gallium::run_vertex`]: a shader as Mesa 22.3's gallium driver compiled and set it up
//!   (monolithic binary with a preamble, uniforms from push ranges).
//! - [`helper::HelperPort`]: the requesting side of a helper program's doorbell protocol.
//! - [`exec::run`] on an [`exec::WaveState`] and [`exec::Program`]: one SIMD group, for harnesses.

pub mod abi;
pub mod asm;
pub mod compute;
pub mod decode;
pub mod disasm;
pub mod error;
pub mod exec;
pub mod fields;
pub mod fp;
pub mod gallium;
pub mod helper;
pub mod inside;
pub mod kernel;
pub mod operand;
pub mod raster;
pub mod runner;
mod srgb_table;
pub mod table;
pub mod table_types;

pub use decode::{decode, Decoded};
pub use disasm::{
    disassemble_raw, disassemble_raw_until_stop, listing, listing_until_stop, DisasmError,
};
pub use error::DecodeError;

/// Assemble applegpu-syntax source (see [`asm`]).
pub use asm::assemble;
