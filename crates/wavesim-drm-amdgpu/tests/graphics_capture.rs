//! RADV's graphics shaders as the DRM shim captured them (tests/graphics/captures, made by
//! tests/graphics/capture.sh from real RADV 22.3.6 pipelines) disassemble with wavesim's
//! RDNA3 disassembler exactly as llvm-objdump-19 printed them (the `.objdump` goldens the same
//! script wrote, in the wave size the captured registers select): every instruction's words
//! and text.

use std::path::Path;
use wavesim_rdna3::decode::{decode, decode_wave64};
use wavesim_rdna3::disasm::format;

/// Compares one program with its golden; returns the number of instructions.
fn check(bin: &Path, golden: &str) -> usize {
    let bytes = std::fs::read(bin).unwrap_or_else(|e| panic!("{}: {e}", bin.display()));
    let mut lines = golden.lines();
    let header = lines.next().expect("golden header");
    let wave64 = match header.split(':').next() {
        Some("# wave64") => true,
        Some("# wave32") => false,
        _ => panic!("{}: header {header:?}", bin.display()),
    };
    let mut off = 0usize;
    let mut n = 0;
    for l in lines.filter(|l| !l.is_empty()) {
        let (words, text) = l.split_once('\t').expect("WORDS<TAB>TEXT");
        let want: Vec<u32> = words
            .split_whitespace()
            .map(|w| u32::from_str_radix(w, 16).expect("hex word"))
            .collect();
        let inst = if wave64 {
            decode_wave64(&bytes[off..], off)
        } else {
            decode(&bytes[off..], off)
        }
        .unwrap_or_else(|e| panic!("{} +{off:#x}: {e}", bin.display()));
        let len = inst.listed_len() as usize;
        let got: Vec<u32> = bytes[off..off + len]
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect();
        assert_eq!(got, want, "{} +{off:#x}: words", bin.display());
        assert_eq!(
            format(&inst, off as u64, wave64),
            text,
            "{} +{off:#x}",
            bin.display()
        );
        off += len;
        n += 1;
    }
    assert_eq!(off, bytes.len(), "{}: the golden ends early", bin.display());
    n
}

#[test]
fn captured_radv_graphics_shaders_disassemble_as_llvm_objdump() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/graphics/captures");
    let mut pipelines: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("{}: {e}", root.display()))
        .map(|d| d.expect("entry").path())
        .collect();
    pipelines.sort();
    let mut programs = 0;
    let mut instructions = 0;
    for dir in &pipelines {
        for stage in ["hw_gs", "hw_ps"] {
            let golden = std::fs::read_to_string(dir.join(format!("{stage}.objdump")))
                .unwrap_or_else(|e| panic!("{}/{stage}.objdump: {e}", dir.display()));
            instructions += check(&dir.join(format!("{stage}.bin")), &golden);
            programs += 1;
        }
    }
    // capture.sh keeps RADV's clear and nine application pipelines (one of them wave32), two
    // programs each; every golden line is one instruction (800 in the committed captures).
    assert_eq!(programs, 20, "{pipelines:?}");
    assert!(instructions > 700, "{instructions}");
}
