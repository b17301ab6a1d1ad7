//! RDNA3.5 corpus: every code object in corpus/gfx1150-w32, gfx1150-w64, gfx1151-w32 and
//! gfx1151-w64 (clang-19 -mcpu=gfx1150 / gfx1151) must disassemble exactly as
//! `llvm-objdump-19 -d --mcpu=gfx1150` / `--mcpu=gfx1151` did (the `.objdump` next to each
//! `.hsaco`, made by corpus/build.sh), with whitespace normalised. `disassemble_elf` takes the
//! target from the ELF machine. The objects must contain SALU float instructions.

use std::path::Path;
use wavesim_rdna3::disasm::disassemble_elf;

fn lines(s: &str) -> Vec<String> {
    s.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn rdna35_corpus_matches_llvm_objdump() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let (mut objects, mut salu_float) = (0, 0);
    for dir in ["gfx1150-w32", "gfx1150-w64", "gfx1151-w32", "gfx1151-w64"] {
        let mut files: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{dir}: {e}"))
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "hsaco"))
            .collect();
        files.sort();
        for f in files {
            let golden = std::fs::read_to_string(f.with_extension("objdump")).unwrap();
            let ours = disassemble_elf(&std::fs::read(&f).unwrap()).unwrap();
            let (want, got) = (lines(&golden), lines(&ours));
            for k in 0..want.len().max(got.len()) {
                assert_eq!(want.get(k), got.get(k), "{} line {}", f.display(), k + 1);
            }
            salu_float += want
                .iter()
                .filter(|l| l.starts_with("s_") && (l.contains("_f32 ") || l.contains("_f16 ")))
                .count();
            objects += 1;
        }
    }
    println!("{objects} objects, {salu_float} SALU float lines");
    assert!(objects >= 8, "{objects} objects");
    assert!(salu_float >= 100, "{salu_float} SALU float instructions");
}
