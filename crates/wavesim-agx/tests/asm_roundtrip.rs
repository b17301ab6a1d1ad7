//! The assembler inverts the disassembler: every golden instruction whose operand kinds the assembler
//! supports re-assembles to bytes that disassemble to the same text.

use wavesim_agx::asm::assemble_instruction;
use wavesim_agx::decode::decode;

fn parse_hex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

#[test]
fn assembler_round_trips_disassembly() {
    let text = include_str!("../../../corpus/agx/disasm_goldens.txt");
    let mut tried = 0;
    let mut ok = 0;
    let mut failures = std::collections::BTreeMap::<String, (usize, String)>::new();
    for line in text.lines() {
        let Some(h) = line.strip_prefix("= ") else {
            continue;
        };
        let code = parse_hex(h);
        let Ok(d) = decode(&code) else { continue };
        let want = d.text(0);
        if want.contains("None") || !d.notes.is_empty() {
            continue;
        }
        tried += 1;
        let name = d.encoding().name.to_string();
        match assemble_instruction(&want, 0).map(|b| decode(&b).map(|d2| d2.text(0))) {
            Ok(Ok(got)) if got == want => ok += 1,
            other => {
                let e = failures.entry(name).or_insert((0, String::new()));
                e.0 += 1;
                e.1 = format!("{want:?} -> {other:?}");
            }
        }
    }
    let report: Vec<String> = failures
        .iter()
        .map(|(k, v)| format!("{k}: {} e.g. {}", v.0, v.1))
        .collect();
    eprintln!("round-tripped {ok} of {tried}\n{}", report.join("\n"));
    // Rows whose operands the assembler does not cover (texture/image/varying/tile/async/atomic forms)
    // are listed in `ASSEMBLER_SKIPS`; everything else must round-trip.
    let unexpected: Vec<&String> = report
        .iter()
        .filter(|r| {
            !ASSEMBLER_SKIPS
                .iter()
                .any(|s| r.starts_with(&format!("{s}:")))
        })
        .collect();
    assert!(unexpected.is_empty(), "{unexpected:#?}");
    assert!(ok > 2500);
}

const ASSEMBLER_SKIPS: &[&str] = &[
    "texture_sample",
    "texture_load",
    "image_write",
    "image_write_block",
    "simd_matrix_fmadd16",
    "simd_matrix_fmadd32",
];

/// Mesa's `agx_linker.c` (at Mesa 702c038b916) hand-encodes the per-sample loop; its bytes, with the
/// comments Mesa gives them, are an independent check of the assembler.
#[test]
fn assembler_matches_mesa_hand_encoded_sample_loop() {
    let cases: &[(&str, &[u8])] = &[
        (
            "mov_imm r0, 0x10000, 0b0",
            &[0x62, 0x01, 0x00, 0x00, 0x01, 0x00],
        ),
        (
            "iadd r0h, 0, r0h, lsl 1",
            &[0x0e, 0x02, 0x00, 0x10, 0x84, 0x00, 0x00, 0x00],
        ),
        (
            "while_icmp r0l, ult, r0h, 0, 1",
            &[0x52, 0x2c, 0x41, 0x00, 0x00, 0x00],
        ),
        ("jmp_exec_any pc+0", &[0x00, 0xc0, 0x00, 0x00, 0x00, 0x00]),
        ("pop_exec r0l, 1", &[0x52, 0x0e, 0x00, 0x00, 0x00, 0x00]),
        ("stop", &[0x88, 0x00]),
        ("trap", &[0x08, 0x00]),
    ];
    for (text, bytes) in cases {
        assert_eq!(
            assemble_instruction(text, 0).unwrap(),
            bytes.to_vec(),
            "{text}"
        );
    }
}
