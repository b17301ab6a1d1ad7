//! Decoding: the first table row whose exact/mask pattern matches the word (applegpu's order), its fields
//! and operands.

use crate::error::DecodeError;
use crate::fields::Fields;
use crate::operand::{Ctx, Operand};
use crate::table::ENCODINGS;
use crate::table_types::{Encoding, Mnem};

/// The longest AGX instruction, in bytes.
pub const MAX_INSTRUCTION_BYTES: usize = 12;

/// Little-endian value of up to the first 12 bytes of `code` (missing bytes read as zero).
pub fn word_at(code: &[u8]) -> u128 {
    let mut n = 0u128;
    for (i, &b) in code.iter().take(MAX_INSTRUCTION_BYTES).enumerate() {
        n |= (b as u128) << (8 * i);
    }
    n
}

/// Index of the first encoding matching `word`.
pub fn find_encoding(word: u128) -> Option<usize> {
    ENCODINGS.iter().position(|e| e.matches(word))
}

/// A decoded instruction.
#[derive(Debug, Clone)]
pub struct Decoded {
    /// Row of [`ENCODINGS`].
    pub index: usize,
    pub size: usize,
    /// The instruction's bits (truncated to `size`).
    pub word: u128,
    pub fields: Fields,
    /// Operands in the table's order (before alias rewriting).
    pub operands: Vec<Operand>,
    /// Diagnostic lines applegpu's disassembler prints while decoding this word (reserved source
    /// encodings).
    pub notes: Vec<String>,
}

impl Decoded {
    pub fn encoding(&self) -> &'static Encoding {
        &ENCODINGS[self.index]
    }

    /// Mnemonic and printed operands, after the row's mnemonic and alias rules.
    pub fn mnemonic_and_operands(&self) -> (String, Vec<&Operand>) {
        let enc = self.encoding();
        let f = &self.fields;
        let sat = if f.get_or_zero("S") != 0 { ".sat" } else { "" };
        let mut mnem = match enc.mnem {
            Mnem::Saturatable => format!("{}{}", enc.name, sat),
            Mnem::IAddSub => format!(
                "{}{}",
                if f.get_or_zero("N") != 0 {
                    "isub"
                } else {
                    "iadd"
                },
                sat
            ),
            Mnem::IMAddSub => format!(
                "{}{}",
                if f.get_or_zero("N") != 0 {
                    "imsub"
                } else {
                    "imadd"
                },
                sat
            ),
            _ => enc.name.to_string(),
        };
        let ops: Vec<&Operand> = self.operands.iter().collect();
        let text = |i: usize| ops.get(i).map(|o| o.text(0)).unwrap_or_default();
        let ops = match enc.mnem {
            Mnem::BitopAlias => {
                let tt = text(0);
                let binary = [
                    ("0001", "and"),
                    ("0111", "or"),
                    ("0110", "xor"),
                    ("1110", "nand"),
                    ("1000", "nor"),
                    ("1001", "xnor"),
                ];
                let unary = [("1010", "not"), ("0101", "mov")];
                if let Some((_, a)) = binary.iter().find(|(k, _)| *k == tt) {
                    mnem = a.to_string();
                    ops[1..].to_vec()
                } else if let Some((_, a)) = unary.iter().find(|(k, _)| *k == tt && text(3) == "0")
                {
                    mnem = a.to_string();
                    ops[1..3].to_vec()
                } else if tt == "0011" || tt == "1100" {
                    mnem = "bitop_mov_a".to_string();
                    ops
                } else {
                    ops
                }
            }
            Mnem::IfFCmpAlias if text(1) == "eq" && text(2) == "0.0" && text(3) == "0.0" => {
                if text(4) == "0" {
                    mnem = "update_exec".to_string();
                    vec![ops[0]]
                } else {
                    mnem = "push_exec".to_string();
                    vec![ops[0], ops[4]]
                }
            }
            Mnem::ElseICmpAlias if text(1) == "eq" && text(2) == "0.0" && text(3) == "0.0" => {
                mnem = "else_exec".to_string();
                vec![ops[0], ops[4]]
            }
            Mnem::LdstTileAlias => {
                mnem = if text(0) != "0" { "ld_tile" } else { "st_tile" }.to_string();
                ops[1..].to_vec()
            }
            Mnem::MapAlias => match text(0).as_str() {
                "unmap" | "map" => {
                    mnem = text(0);
                    ops[1..].to_vec()
                }
                _ => {
                    mnem = "TODO.map".to_string();
                    ops
                }
            },
            _ => ops,
        };
        (mnem, ops)
    }

    /// The instruction in applegpu's syntax: mnemonic padded to 16 columns, a space, the non-empty
    /// operands joined by `, `; `pc` is the instruction's address (branch targets print absolute).
    pub fn text(&self, pc: u64) -> String {
        let (mnem, ops) = self.mnemonic_and_operands();
        let ops: Vec<String> = ops
            .iter()
            .map(|o| o.text(pc))
            .filter(|s| !s.is_empty())
            .collect();
        format!("{:<16} {}", mnem, ops.join(", "))
    }
}

/// Decode the instruction at the start of `code`.
pub fn decode(code: &[u8]) -> Result<Decoded, DecodeError> {
    let word = word_at(code);
    let index = find_encoding(word).ok_or(DecodeError::NoEncoding {
        word: (word & 0xFFFF) as u16,
    })?;
    decode_as(index, word)
}

/// Decode `word` with row `index`.
pub fn decode_as(index: usize, word: u128) -> Result<Decoded, DecodeError> {
    let enc = &ENCODINGS[index];
    let size = enc.size_of(word);
    let word = enc.truncate(word);
    let fields = enc.field_values(word);
    let mut notes = vec![];
    let mut operands = Vec::with_capacity(enc.operands.len());
    for row in enc.operands {
        let mut cx = Ctx {
            fields: &fields,
            notes: &mut notes,
        };
        operands.push(row.kind.decode(row.name, &mut cx)?);
    }
    Ok(Decoded {
        index,
        size,
        word,
        fields,
        operands,
        notes,
    })
}
