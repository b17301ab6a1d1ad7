//! Corpus test: every code object in corpus/gfx1100-w32 and corpus/gfx1100-w64 must disassemble
//! exactly as llvm-objdump-19 did (the `.objdump` golden next to each `.hsaco`), line by line
//! with whitespace normalised: section headers, `<symbol>:` labels and every instruction line
//! (text, address, words and branch-target annotation).

use std::path::{Path, PathBuf};
use wavesim_rdna3::disasm::disassemble_elf;

fn norm(l: &str) -> String {
    l.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn lines(s: &str) -> Vec<String> {
    s.lines().map(norm).filter(|l| !l.is_empty()).collect()
}

fn corpus_dirs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    ["gfx1100-w32", "gfx1100-w64"]
        .iter()
        .map(|d| root.join(d))
        .collect()
}

#[test]
fn corpus_matches_llvm_objdump() {
    let mut objects = 0;
    let mut instructions = 0;
    let mut failures = Vec::new();
    for dir in corpus_dirs() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap_or_else(|e| panic!("reading {}: {e}", dir.display()))
            .map(|e| e.expect("dir entry").path())
            .filter(|p| p.extension().is_some_and(|x| x == "hsaco"))
            .collect();
        files.sort();
        for f in files {
            let golden_path = f.with_extension("objdump");
            let Ok(golden) = std::fs::read_to_string(&golden_path) else {
                failures.push(format!(
                    "{}: no golden {}",
                    f.display(),
                    golden_path.display()
                ));
                continue;
            };
            let bytes = std::fs::read(&f).expect("read hsaco");
            let ours = match disassemble_elf(&bytes) {
                Ok(s) => s,
                Err(e) => {
                    failures.push(format!("{}: {e}", f.display()));
                    continue;
                }
            };
            objects += 1;
            let want = lines(&golden);
            let got = lines(&ours);
            instructions += want.iter().filter(|l| l.contains("// ")).count();
            let n = want.len().max(got.len());
            for k in 0..n {
                let (w, g) = (want.get(k), got.get(k));
                if w != g {
                    let ctx: Vec<String> = want[k.saturating_sub(2)..k]
                        .iter()
                        .map(|l| format!("      {l}"))
                        .collect();
                    failures.push(format!(
                        "{} line {}:\n{}\n  want {}\n  got  {}",
                        f.display(),
                        k + 1,
                        ctx.join("\n"),
                        w.map(String::as_str).unwrap_or("<end>"),
                        g.map(String::as_str).unwrap_or("<end>")
                    ));
                    break;
                }
            }
        }
    }
    println!("corpus: {objects} code objects, {instructions} instruction lines compared");
    assert!(objects > 0, "no code objects found");
    if !failures.is_empty() {
        panic!(
            "{} of {objects} code objects differ from llvm-objdump:\n{}",
            failures.len(),
            failures[..failures.len().min(10)].join("\n")
        );
    }
}
