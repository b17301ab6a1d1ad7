//! Apple AGX (G13) for wavesim: one instruction table (`table.rs`, generated from applegpu's instruction
//! descriptors by `tools/agx/gen_table.py`) drives decoding, disassembly in applegpu's syntax, assembly and
//! the executor's dispatch; seed 001's split-program register ABI (Mesa's `src/asahi/compiler/README.md`)
//! is implemented by the ABI runner.

pub mod abi;
pub mod asm;
pub mod compute;
pub mod decode;
pub mod disasm;
pub mod exec;
pub mod fp;
pub mod operand;
mod srgb_table;
pub mod table;
pub mod table_types;

pub use decode::{decode, Decoded};
pub use disasm::{disassemble_raw, listing, DisasmError};

/// A word that cannot be decoded.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum DecodeError {
    #[error("no encoding matches {word:#06x}")]
    NoEncoding { word: u16 },
    #[error("register {n} is out of range")]
    RegisterOutOfRange { n: u64 },
    #[error("reserved encoding: {what}")]
    Malformed { what: &'static str },
    #[error("table row lacks field {field}")]
    MissingField { field: String },
}
