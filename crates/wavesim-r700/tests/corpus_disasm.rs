//! Disassembly equals llc-19's text for every corpus shader on rv770, rv730 and rv710, and the assembler
//! rebuilds every object's `.text` from the disassembly.
//!
//! Goldens: corpus/r700/asm/CHIP/NAME.s, made by corpus/r700/build.sh from the same IR as obj/CHIP/NAME.o.
//! Compared: every line of the function body (between `NAME:` and `.Lfunc_end0:`), byte for byte
//! including llc's trailing spaces, except lines that are only comments (`; %bb.0:` block labels carry
//! IR block names that are not in the object); and the `.AMDGPU.config` `.long` pairs.

use std::path::PathBuf;

use wavesim_r700::{assemble, Chip, Shader, Syntax};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/r700")
}

fn shaders(chip: &str) -> Vec<(String, Vec<u8>, String)> {
    let dir = corpus().join("obj").join(chip);
    let mut v: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "o"))
        .collect();
    v.sort();
    v.into_iter()
        .map(|p| {
            let name = p.file_stem().unwrap().to_string_lossy().into_owned();
            let obj = std::fs::read(&p).unwrap();
            let s =
                std::fs::read_to_string(corpus().join("asm").join(chip).join(format!("{name}.s")))
                    .unwrap();
            (name, obj, s)
        })
        .collect()
}

/// The function body lines of llc's output, comment-only lines removed.
fn golden_body(s: &str, entry: &str) -> Vec<String> {
    let start = format!("{entry}:");
    let mut on = false;
    let mut out = Vec::new();
    for line in s.lines() {
        if !on {
            if line.starts_with(&start) {
                on = true;
            }
            continue;
        }
        if line.starts_with(".Lfunc_end") {
            break;
        }
        if line.trim_start().starts_with(';') {
            continue;
        }
        out.push(line.to_string());
    }
    out
}

fn golden_config(s: &str) -> Vec<u32> {
    let mut on = false;
    let mut v = Vec::new();
    for line in s.lines() {
        let t = line.trim();
        if t.starts_with(".section") {
            on = t.contains(".AMDGPU.config");
            continue;
        }
        if t == ".text" {
            on = false;
        }
        if on {
            if let Some(n) = t.strip_prefix(".long") {
                v.push(n.trim().parse::<u32>().unwrap());
            }
        }
    }
    v
}

#[test]
fn corpus_has_at_least_40_shaders_per_chip() {
    for chip in ["rv770", "rv730", "rv710"] {
        assert!(shaders(chip).len() >= 40, "{chip}: {}", shaders(chip).len());
    }
}

#[test]
fn disassembly_equals_llc_text_on_all_chips() {
    let mut failures = Vec::new();
    let mut checked = 0;
    for chip in ["rv770", "rv730", "rv710"] {
        for (name, obj, s) in shaders(chip) {
            let sh =
                Shader::from_object_bytes(&obj).unwrap_or_else(|e| panic!("{chip}/{name}: {e}"));
            assert_eq!(
                sh.chip(),
                Chip::from_name(chip).unwrap(),
                "{chip}/{name}: chip from e_flags"
            );
            let entry = sh.entry.clone().unwrap_or_else(|| "main".into());
            let want = golden_body(&s, &entry);
            assert!(!want.is_empty(), "{chip}/{name}: empty golden body");
            let got: Vec<String> = sh
                .disassemble(Syntax::Llc)
                .lines()
                .map(str::to_string)
                .collect();
            if got != want {
                let k = got
                    .iter()
                    .zip(&want)
                    .position(|(a, b)| a != b)
                    .unwrap_or(got.len().min(want.len()));
                failures.push(format!(
                    "{chip}/{name}: line {k}:\n  got  {:?}\n  want {:?}",
                    got.get(k),
                    want.get(k)
                ));
            }
            let cfg: Vec<u32> = sh.config.iter().flat_map(|(r, v)| [*r, *v]).collect();
            assert_eq!(cfg, golden_config(&s), "{chip}/{name}: .AMDGPU.config");
            checked += 1;
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {checked} differ:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn assembler_round_trips_every_corpus_object() {
    for chip in ["rv770", "rv730", "rv710"] {
        for (name, obj, _) in shaders(chip) {
            let sh = Shader::from_object_bytes(&obj).unwrap();
            let text = sh.disassemble(Syntax::Full);
            assert!(
                !text.contains("raw"),
                "{chip}/{name}: a word needed a raw override:\n{text}"
            );
            let bytes = assemble(&text).unwrap_or_else(|e| panic!("{chip}/{name}: {e}\n{text}"));
            let elf = wavesim_r700::load_object(&obj).unwrap();
            assert_eq!(
                bytes, elf.text,
                "{chip}/{name}: assemble(disassemble(obj)) != .text\n{text}"
            );
        }
    }
}

#[test]
fn llc_text_assembles_where_it_is_complete() {
    // Shaders whose llc text carries every field (no exports' hidden fields aside): the ALU and fetch
    // clause words assembled from llc's own lines equal the object's.
    for (name, obj, _) in shaders("rv770") {
        let sh = Shader::from_object_bytes(&obj).unwrap();
        for cl in sh.program.alu.values() {
            for g in &cl.groups {
                for i in &g.insts {
                    let t = wavesim_r700::disasm::alu_text(i);
                    let w = wavesim_r700::asm::encode_alu(&t, "")
                        .unwrap_or_else(|e| panic!("{name}: {t}: {e}"));
                    if w != [i.w0, i.w1] {
                        // Only fields llc does not print may differ.
                        let full = wavesim_r700::asm::encode_alu(&t, &extras_of(&sh, i)).unwrap();
                        assert_eq!(full, [i.w0, i.w1], "{name}: {t}");
                    }
                }
            }
        }
    }
}

fn extras_of(sh: &Shader, i: &wavesim_r700::decode::AluInst) -> String {
    let full = sh.disassemble(Syntax::Full);
    let t = wavesim_r700::disasm::alu_text(i);
    full.lines()
        .find_map(|l| {
            l.trim_start_matches('\t')
                .strip_prefix(t.as_str())
                .and_then(|r| r.strip_prefix(" ; "))
                .map(str::to_string)
        })
        .unwrap_or_default()
}
