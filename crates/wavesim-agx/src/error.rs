//! The decoder's error: the lowest layer, so every module that decodes can name it.

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
