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
pub mod exec;
pub mod isa;
pub mod results;
pub mod runner;
pub mod semantics;
pub mod text;
pub mod texture;

pub use asm::assemble;
pub use decode::Program;
pub use disasm::Syntax;
pub use elf::{is_r700_object, load as load_object, R700Object};
pub use isa::Chip;

use thiserror::Error;

/// A word that does not decode, with its address (8-byte units from the start of `.text`).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("R700 decode error at @{addr} (byte {byte}): {message}", byte = addr * 8)]
pub struct DecodeError {
    pub addr: u32,
    pub message: String,
}

impl DecodeError {
    pub fn at(addr: u32, message: impl Into<String>) -> DecodeError {
        DecodeError {
            addr,
            message: message.into(),
        }
    }
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum LoadError {
    #[error("R700 object: {0}")]
    Elf(String),
    #[error("R700 object: e_flags {0:#x} names no R700 chip (rv710 = 5, rv730 = 6, rv770 = 7)")]
    UnknownChip(u32),
    #[error(transparent)]
    Decode(#[from] DecodeError),
}

#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("R700 assembler, line {line}: {message}")]
pub struct AsmError {
    pub line: usize,
    pub message: String,
}

/// A loaded, decoded shader.
#[derive(Clone)]
pub struct Shader {
    pub program: Program,
    /// `.AMDGPU.config` pairs (empty for raw bytes).
    pub config: Vec<(u32, u32)>,
    pub entry: Option<String>,
}

impl Shader {
    pub fn from_object_bytes(bytes: &[u8]) -> Result<Shader, LoadError> {
        let obj = elf::load(bytes)?;
        let program = Program::decode(obj.chip, &obj.text)?;
        Ok(Shader {
            program,
            config: obj.config,
            entry: obj.entry,
        })
    }

    /// Bare `.text` bytes for a given chip (`wavesim disasm --raw --target rv770`).
    pub fn from_raw(chip: Chip, text: &[u8]) -> Result<Shader, DecodeError> {
        Ok(Shader {
            program: Program::decode(chip, text)?,
            config: Vec::new(),
            entry: None,
        })
    }

    pub fn chip(&self) -> Chip {
        self.program.chip
    }

    /// Program body in llc's syntax; each line starts with a tab, as llc prints it.
    pub fn disassemble(&self, syntax: Syntax) -> String {
        disasm::disassemble_program(&self.program, syntax)
    }

    /// The `.AMDGPU.config` registers by name, one per line.
    pub fn config_text(&self) -> String {
        self.config
            .iter()
            .map(|(r, v)| format!("{}\n", elf::describe_config(*r, *v)))
            .collect()
    }

    /// NUM_GPRS and STACK_SIZE from SQ_PGM_RESOURCES_PS/VS, if present.
    pub fn resources(&self) -> Option<(u32, u32)> {
        self.config
            .iter()
            .find(|(r, _)| matches!(*r, 0x28850 | 0x28868 | 0x288D4 | 0x288E8))
            .map(|(_, v)| (v & 0xff, (v >> 8) & 0xff))
    }

    /// DB_SHADER_CONTROL.KILL_ENABLE.
    pub fn kill_enable(&self) -> bool {
        self.config
            .iter()
            .any(|(r, v)| *r == 0x2880C && v & 0x40 != 0)
    }

    /// Full listing for a front end: config registers by name, then the program.
    pub fn listing(&self) -> String {
        let mut s = format!("; chip {}\n", self.chip().name());
        for line in self.config_text().lines() {
            s += &format!("; {line}\n");
        }
        s + &self.disassemble(Syntax::Full)
    }
}
