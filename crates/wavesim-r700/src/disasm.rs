//! Disassembly in llc-19's R600 text syntax (`R600InstPrinter`, the asm strings of
//! `R600Instructions.td`), so that the program body equals `llc-19 -filetype=asm` line for line.
//!
//! llc's text omits some encoded fields (export type/base/done/end-of-program, the VTX buffer id,
//! index modes, ...). [`Syntax::Full`] appends those that differ from what the assembler would encode for
//! the printed text as `; name:value` pairs, so that `assemble(disassemble_full(x)) == x`.

use std::fmt::Write;

use crate::decode::Program;
pub use crate::text::{alu_text, cf_text, fetch_text, fmt_e, fmt_literal};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// Exactly llc's text.
    Llc,
    /// llc's text plus `; field:value` for fields llc does not print.
    Full,
}

/// The program body as llc prints it: CF program, then every clause in address order, one line each
/// (each line starts with a tab, as in llc's output).
pub fn disassemble_program(p: &Program, syntax: Syntax) -> String {
    let mut out = String::new();
    let extras = |line: String, e: String| {
        if e.is_empty() {
            line
        } else {
            format!("{line} ; {e}")
        }
    };
    for c in &p.cf {
        let t = cf_text(c);
        let line = match syntax {
            Syntax::Llc => t,
            Syntax::Full => extras(t, crate::asm::cf_extras(c)),
        };
        let _ = writeln!(out, "\t{line}");
    }
    // Merge ALU and fetch clauses by address.
    let mut addrs: Vec<(u32, bool)> = p.alu.keys().map(|a| (*a, true)).collect();
    addrs.extend(p.fetch.keys().map(|a| (*a, false)));
    addrs.sort();
    for (a, is_alu) in addrs {
        if is_alu {
            let cl = &p.alu[&a];
            let _ = writeln!(out, "\tALU clause starting at {a}:");
            for g in &cl.groups {
                for i in &g.insts {
                    let t = alu_text(i);
                    let line = match syntax {
                        Syntax::Llc => t,
                        Syntax::Full => extras(t, crate::asm::alu_extras(i)),
                    };
                    let _ = writeln!(out, "\t{line}");
                }
                for pair in g.literals.chunks(2) {
                    let _ = writeln!(out, "\t{}, {}", fmt_literal(pair[0]), fmt_literal(pair[1]));
                }
            }
        } else {
            let cl = &p.fetch[&a];
            let _ = writeln!(out, "\tFetch clause starting at {a}:");
            for f in &cl.insts {
                let t = fetch_text(f);
                let line = match syntax {
                    Syntax::Llc => t,
                    Syntax::Full => extras(t, crate::asm::fetch_extras(f)),
                };
                let _ = writeln!(out, "\t{line}");
            }
        }
    }
    out
}
