//! Disassembly listings in the layout of applegpu's `disassemble.py`: `{offset:4x}: {hex bytes:<20} {text}`,
//! a blank line before a run of zero words, which are skipped, `<disassembly failed>` for 2 bytes that
//! match no encoding. `disassemble.py` ends its listing after the first `stop` (its `STOP_ON_STOP`,
//! on by default); wavesim's listing goes on to the last byte as the script does with that switch off,
//! because code after a `stop` is real (Mesa's compiled helper ends in traps and a padding word, asahi_clc
//! puts the preamble after the main part). [`listing_until_stop`] gives the script's default.

use crate::decode::{decode_as, find_encoding, word_at};
use crate::error::DecodeError;

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One listing line (without newline) per instruction of `code`, addresses starting at `base`, to the
/// last byte (a run of zero words is one blank line, as in `disassemble.py`).
///
/// Words that decode to a reserved operand form applegpu cannot print make its script fail; here they
/// are an error naming the offset.
pub fn listing(code: &[u8], base: u64) -> Result<Vec<String>, DisasmError> {
    list(code, base, false)
}

/// [`listing`] ending after the first `stop`, as `disassemble.py` prints by default.
pub fn listing_until_stop(code: &[u8], base: u64) -> Result<Vec<String>, DisasmError> {
    list(code, base, true)
}

fn list(code: &[u8], base: u64, stop_on_stop: bool) -> Result<Vec<String>, DisasmError> {
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
                if stop_on_stop && d.encoding().name == "stop" {
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

/// The listing of every byte as one string, each line followed by a newline (what `disassemble.py`
/// prints with `STOP_ON_STOP = False`).
pub fn disassemble_raw(code: &[u8], base: u64) -> Result<String, DisasmError> {
    Ok(joined(listing(code, base)?))
}

/// The listing up to the first `stop` as one string (what `disassemble.py` prints by default).
pub fn disassemble_raw_until_stop(code: &[u8], base: u64) -> Result<String, DisasmError> {
    Ok(joined(listing_until_stop(code, base)?))
}

fn joined(lines: Vec<String>) -> String {
    let mut s = String::new();
    for line in lines {
        s.push_str(&line);
        s.push('\n');
    }
    s
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
