//! Disassembly equals applegpu's on random valid words of every encoding (goldens made by
//! tools/agx/gen_disasm_goldens.py, which runs applegpu's disassembler).

use wavesim_agx::disassemble_raw_until_stop as disassemble_raw;

fn parse_hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn disassembly_matches_applegpu_goldens() {
    let text = include_str!("../../../corpus/agx/disasm_goldens.txt");
    let mut records: Vec<(Vec<u8>, String)> = vec![];
    for line in text.lines() {
        if let Some(h) = line.strip_prefix("= ") {
            records.push((parse_hex(h), String::new()));
        } else {
            let r = records
                .last_mut()
                .expect("golden file starts with a record");
            r.1.push_str(line);
            r.1.push('\n');
        }
    }
    assert!(records.len() > 3000, "goldens cover every encoding");
    let mut failures = vec![];
    let mut errors = 0;
    for (code, expected) in &records {
        let got = disassemble_raw(code, 0);
        let ok = match (&got, expected.as_str()) {
            (Err(_), "!error\n") => {
                errors += 1;
                true
            }
            (Ok(s), e) => s == e,
            _ => false,
        };
        if !ok {
            failures.push(format!(
                "{}\n  applegpu: {:?}\n  wavesim:  {:?}",
                hex(code),
                expected,
                got
            ));
        }
    }
    assert!(errors > 0, "the goldens include words applegpu rejects");
    assert!(
        failures.is_empty(),
        "{} of {} differ:\n{}",
        failures.len(),
        records.len(),
        failures[..failures.len().min(30)].join("\n")
    );
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
