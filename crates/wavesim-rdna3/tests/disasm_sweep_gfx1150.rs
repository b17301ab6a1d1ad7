//! RDNA3.5 sweep: every case of the gfx11 sweep decoded for gfx1150 must print exactly what
//! `llvm-objdump-19 -d -z --mcpu=gfx1150` printed. Goldens: tests/golden/sweep_gfx1150, made by
//! `python3 tools/sweep/gen_sweep.py --mcpu gfx1150`. A file starting `# full` lists every case
//! of its format (the SALU formats, where gfx1150 has more opcodes); a file starting `# diff`
//! lists the cases whose gfx1150 text differs from the gfx1100 text, and the other cases of
//! tests/golden/sweep/FORMAT.txt must print their gfx1100 text on gfx1150 too.

use std::collections::HashMap;
use std::path::PathBuf;
use wavesim_rdna3::decode::{decode_for, DecodeError, Inst};
use wavesim_rdna3::disasm::format;
use wavesim_rdna3::isa::Target;

type Case = Vec<(Vec<u32>, String)>;

fn parse(text: &str) -> Vec<Case> {
    let mut cases: Vec<Case> = Vec::new();
    let mut cur: Option<Case> = None;
    for l in text.lines() {
        if l.starts_with('#') {
            continue;
        }
        if l.trim().is_empty() {
            if let Some(c) = cur.take() {
                cases.push(c);
            }
            cur = Some(Vec::new());
            continue;
        }
        let (words, t) = l.split_once('\t').expect("WORDS<TAB>TEXT");
        let words = words
            .split_whitespace()
            .map(|w| u32::from_str_radix(w, 16).expect("hex word"))
            .collect();
        cur.get_or_insert_with(Vec::new)
            .push((words, t.to_string()));
    }
    if let Some(c) = cur {
        cases.push(c);
    }
    cases.retain(|c| !c.is_empty());
    cases
}

fn words_of(c: &Case) -> Vec<u32> {
    c.iter().flat_map(|l| l.0.clone()).collect()
}

fn check(case: &Case, target: Target) -> Result<(), String> {
    check_w(case, target, false)
}

fn check_w(case: &Case, target: Target, wave64: bool) -> Result<(), String> {
    let words = words_of(case);
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut off = 0;
    for (want_words, want_text) in case {
        let inst = match decode_for(&bytes[off..], off, target, wave64) {
            Ok(i) => i,
            Err(DecodeError::Truncated { .. }) => Inst::invalid(words[off / 4]),
        };
        let got = format(&inst, off as u64, wave64);
        let got_words = &words[off / 4..(off + inst.listed_len() as usize).min(bytes.len()) / 4];
        if got != *want_text || got_words != want_words.as_slice() {
            return Err(format!(
                "{want_words:08X?}\n    want {want_text}\n    got  {got}   [{got_words:08X?}]"
            ));
        }
        off += inst.listed_len() as usize;
    }
    Ok(())
}

fn dir(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(rel)
}

#[test]
fn sweep_gfx1150_matches_llvm_objdump() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir("tests/golden/sweep_gfx1150"))
        .expect("golden dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert!(files.len() >= 25, "{} golden files", files.len());
    let (mut total, mut pass, mut fails) = (0usize, 0usize, Vec::new());
    let mut salu_float_cases = 0;
    for f in &files {
        let fmt = f.file_stem().unwrap().to_string_lossy().to_string();
        let text = std::fs::read_to_string(f).unwrap();
        let own = parse(&text);
        let cases: Vec<Case> = if text.starts_with("# full") {
            own
        } else {
            assert!(text.starts_with("# diff"), "{fmt}: header");
            let mut by_words: HashMap<Vec<u32>, Case> =
                own.into_iter().map(|c| (words_of(&c), c)).collect();
            let base =
                std::fs::read_to_string(dir("tests/golden/sweep").join(format!("{fmt}.txt")))
                    .unwrap();
            let merged: Vec<Case> = parse(&base)
                .into_iter()
                .map(|c| by_words.remove(&words_of(&c)).unwrap_or(c))
                .collect();
            assert!(by_words.is_empty(), "{fmt}: diff cases not in ../sweep");
            merged
        };
        for c in &cases {
            total += 1;
            if c[0].1.contains("_f32 ") || c[0].1.contains("_f16 ") {
                salu_float_cases += (fmt.starts_with("SOP")) as usize;
            }
            match check(c, Target::Gfx1150) {
                Ok(()) => pass += 1,
                Err(e) if fails.len() < 80 => fails.push(format!("[{fmt}] {e}")),
                Err(_) => {}
            }
        }
    }
    println!("gfx1150 sweep: {pass} / {total} cases, {salu_float_cases} SALU float cases");
    assert!(fails.is_empty(), "{}\n{pass} / {total}", fails.join("\n"));
    assert!(salu_float_cases > 500, "{salu_float_cases}");
}

/// The formats with RDNA3.5 opcodes in wave64 (`llvm-objdump-19 --mcpu=gfx1150
/// --mattr=+wavefrontsize64`): tests/golden/sweep_gfx1150_wave64/FORMAT.txt lists the cases of
/// the full gfx1150 file whose wave64 text differs (none for the scalar formats: their text
/// does not depend on the wave size); every other case must print its wave32 text.
#[test]
fn sweep_gfx1150_wave64_matches_llvm_objdump() {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir("tests/golden/sweep_gfx1150_wave64"))
        .expect("golden dir")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|x| x == "txt"))
        .collect();
    files.sort();
    assert_eq!(files.len(), 4, "SOP1, SOP2, SOPC, SOPP");
    let mut n = 0;
    for f in &files {
        let name = f.file_name().unwrap();
        let mut by_words: HashMap<Vec<u32>, Case> = parse(&std::fs::read_to_string(f).unwrap())
            .into_iter()
            .map(|c| (words_of(&c), c))
            .collect();
        let full = std::fs::read_to_string(dir("tests/golden/sweep_gfx1150").join(name)).unwrap();
        assert!(full.starts_with("# full"));
        for c in parse(&full) {
            let c = by_words.remove(&words_of(&c)).unwrap_or(c);
            check_w(&c, Target::Gfx1150, true).unwrap_or_else(|e| panic!("{name:?}: {e}"));
            n += 1;
        }
        assert!(by_words.is_empty());
    }
    assert!(n > 5000, "{n} cases");
}

/// The RDNA3.5 opcodes do not exist for gfx1100: the same words print as `.long` there, as
/// llvm-objdump-19 --mcpu=gfx1100 prints them (s_add_f32 s0, s1, s2; s_singleuse_vdst 0x1).
#[test]
fn rdna35_opcodes_are_invalid_on_gfx1100() {
    for (w, text115) in [
        (0xa000_0201u32, "s_add_f32 s0, s1, s2"),
        (0xbf93_0001, "s_singleuse_vdst 0x1"),
        (0xbf41_0100, "s_cmp_lt_f32 s0, s1"),
    ] {
        let b = w.to_le_bytes();
        let i100 = decode_for(&b, 0, Target::Gfx1100, false).unwrap();
        assert_eq!(format(&i100, 0, false), format!(".long {w:#010x}"));
        let i115 = decode_for(&b, 0, Target::Gfx1150, false).unwrap();
        assert_eq!(format(&i115, 0, false), text115);
    }
}
