//! Every row of the table, including the four rows applegpu's disassembler never reaches (an earlier row
//! matches their words first), decodes random words of its own pattern as applegpu's descriptor does
//! (goldens: tools/agx/gen_row_goldens.py).

use wavesim_agx::decode::{decode_as, word_at};
use wavesim_agx::table::ENCODINGS;

#[test]
fn every_row_decodes_as_applegpu() {
    let text = include_str!("../../../corpus/agx/disasm_rows.txt");
    let mut rows = std::collections::BTreeSet::new();
    let mut failures = vec![];
    for line in text.lines() {
        let mut parts = line.splitn(3, '\t');
        let (index, hex, want) = (
            parts.next().unwrap(),
            parts.next().unwrap(),
            parts.next().unwrap(),
        );
        let index: usize = index.parse().unwrap();
        let code: Vec<u8> = (0..hex.len())
            .step_by(2)
            .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
            .collect();
        rows.insert(index);
        let got = decode_as(index, word_at(&code)).map(|d| d.text(0));
        let ok = match (&got, want) {
            (Err(_), "!error") => true,
            (Ok(t), w) => t == w,
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "row {index} {hex}: applegpu {want:?}, wavesim {got:?}"
            ));
        }
    }
    assert_eq!(rows.len(), ENCODINGS.len(), "every row has goldens");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
