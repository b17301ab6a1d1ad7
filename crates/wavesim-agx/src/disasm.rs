//! Disassembly listings in the layout of applegpu's `disassemble.py`: `{offset:4x}: {hex bytes:<20} {text}`,
//! a blank line before a run of zero words, which are skipped, `<disassembly failed>` for 2 bytes that
//! match no encoding, and the listing ends after `stop`.

use crate::decode::{decode_as, find_encoding, word_at};
use crate::DecodeError;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One listing line (without newline) per instruction of `code`, addresses starting at `base`.
///
/// Words that decode to a reserved operand form applegpu cannot print make its script fail; here they
/// are an error naming the offset.
pub fn listing(code: &[u8], base: u64) -> Result<Vec<String>, DisasmError> {
    let mut lines = vec![];
    let mut p = 0usize;
    let mut skipping = false;
    while p < code.len() {
        let word = word_at(&code[p..]);
        if !skipping && word & 0xFFFF_FFFF == 0 {
            lines.push(String::new());
            skipping = true;
        }
        if skipping {
            if word & 0xFFFF == 0 {
                p += 2;
                continue;
            }
            skipping = false;
        }
        let pc = p as u64 + base;
        match find_encoding(word) {
            Some(index) => {
                let d =
                    decode_as(index, word).map_err(|source| DisasmError { offset: pc, source })?;
                lines.extend(d.notes.iter().cloned());
                let end = (p + d.size).min(code.len());
                lines.push(format!(
                    "{:4x}: {:<20} {}",
                    pc,
                    hex(&code[p..end]),
                    d.text(pc)
                ));
                p += d.size;
                if d.encoding().name == "stop" {
                    break;
                }
            }
            None => {
                let end = (p + 2).min(code.len());
                lines.push(format!(
                    "{:4x}: {:<20} <disassembly failed>",
                    pc,
                    hex(&code[p..end])
                ));
                p += 2;
            }
        }
    }
    Ok(lines)
}

/// The listing as one string, each line followed by a newline (what `disassemble.py` prints).
pub fn disassemble_raw(code: &[u8], base: u64) -> Result<String, DisasmError> {
    let mut s = String::new();
    for line in listing(code, base)? {
        s.push_str(&line);
        s.push('\n');
    }
    Ok(s)
}

/// Text of the single instruction at the start of `code` at address `pc`.
pub fn instruction_text(code: &[u8], pc: u64) -> Result<String, DecodeError> {
    let d = crate::decode::decode(code)?;
    Ok(d.text(pc))
}

/// An instruction of a listing that cannot be decoded.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[error("offset {offset:#x}: {source}")]
pub struct DisasmError {
    pub offset: u64,
    pub source: DecodeError,
}
