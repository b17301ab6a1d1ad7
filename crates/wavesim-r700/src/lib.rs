//! AMD R700 (rv770, rv730, rv710) for wavesim: load llc-19's R600 objects, decode the CF program, ALU
//! clauses and fetch clauses, disassemble in llc's text syntax, assemble that syntax back to words, and
//! run shaders with the programmer-visible state of the R700 ISA reference (2.5 "Program state").
//!
//! Library API for front ends:
//! - [`is_r700_object`] — ELF detection (ELF32, EM_AMDGPU, e_flags = an R700 chip);
//! - [`load_object`] / [`Shader::from_object_bytes`] / [`Shader::from_raw`] — parse;
//! - [`Shader::disassemble`] — llc text ([`Syntax::Llc`]) or lossless text ([`Syntax::Full`]);
//! - [`assemble`] — text to `.text` bytes;
//! - [`runner::RunConfig`] + [`runner::run`] — run with a TOML configuration, exports per target.

pub mod asm;
pub mod backend;
pub mod decode;
pub mod disasm;
pub mod elf;
pub mod error;
pub mod exec;
pub mod inside;
pub mod isa;
pub mod results;
pub mod runner;
pub mod semantics;
pub mod shader;
pub mod text;
pub mod texture;

pub use asm::assemble;
pub use decode::Program;
pub use disasm::Syntax;
pub use elf::{is_r700_object, load as load_object, R700Object};
pub use error::{AsmError, DecodeError, LoadError};
pub use isa::Chip;
pub use shader::Shader;
