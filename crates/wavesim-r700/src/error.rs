//! The crate's load, decode and assembler errors: the lowest layer, so every module can name them.

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
