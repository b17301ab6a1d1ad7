//! Fuzzing: random words and mutated corpus objects go through decode, both disassembly syntaxes, the
//! assembler and the runner; nothing may panic (errors are fine). Deterministic seeds; a few seconds in
//! debug builds.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;

use wavesim_r700::runner::{run, RunConfig};
use wavesim_r700::{assemble, Chip, Shader, Syntax};

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
}

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/r700")
}

fn small_cfg() -> RunConfig {
    let mut text = String::from(
        "threads = 5\nmax_cf_per_wave = 2000\nclause_temp_gprs = 2\nbool_constants = 5\n",
    );
    text += "constant_file = [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]\n";
    text += "[[gpr]]\nreg = 0\nvalues = [[0.5, 1, -2.0, 3], [1.5, 0, 2.0, 7], [0.0, 0.0, 0.0, 0.0], [9.0, 1.0, 1.0, 1.0], [-1.0, 2, 3, 4]]\n";
    text +=
        "[[constant_buffer]]\nindex = 0\nvalues = [[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0]]\n";
    text += "[[loop_constant]]\nindex = 0\ncount = 3\ninit = 0\ninc = 1\n";
    text += "[[texture]]\nresource = 0\nwidth = 1\nheight = 1\nformat = \"rgba8\"\ndata = [1, 2, 3, 4]\n";
    text += "[[sampler]]\nid = 0\nfilter = \"bilinear\"\n";
    text += "[global_gprs]\nvalues = [[1, 2, 3, 4], [5, 6, 7, 8]]\n";
    RunConfig::from_toml(&text).unwrap()
}

/// Decode, print, reassemble and run one shader; returns a panic message if anything panicked.
fn exercise(sh: &Shader, cfg: &RunConfig) {
    let llc = sh.disassemble(Syntax::Llc);
    let full = sh.disassemble(Syntax::Full);
    assert!(llc.lines().count() == full.lines().count());
    // The full text is lossless for every decoded word it prints: reassembling and disassembling again
    // gives the same text.
    let bytes = assemble(&full)
        .unwrap_or_else(|e| panic!("full disassembly does not assemble: {e}\n{full}"));
    let again = Shader::from_raw(sh.chip(), &bytes)
        .unwrap_or_else(|e| panic!("reassembled program does not decode: {e}\n{full}"));
    assert_eq!(again.disassemble(Syntax::Full), full);
    let _ = sh.listing();
    let _ = run(sh, cfg);
}

#[test]
fn random_words_never_panic() {
    let cfg = small_cfg();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut decoded = 0;
    for case in 0..3000 {
        // A random CF program (real CF_INST values, random other fields, small addresses) followed by
        // slots whose ALU opcode fields name real table rows; every fourth case is plain random words.
        let ncf = 1 + rng.below(6) as usize;
        let nslots = 1 + rng.below(20) as usize;
        let mut words: Vec<u32> = (0..2 * (ncf + nslots)).map(|_| rng.next() as u32).collect();
        if case % 4 != 0 {
            let units = (ncf + nslots) as u64;
            for k in 0..ncf {
                let (w0, w1) = (&mut words[2 * k], rng.next() as u32);
                let count = rng.below(4.min(nslots as u64)) as u32;
                let addr = ncf as u32 + rng.below(nslots as u64 - count as u64) as u32;
                words[2 * k + 1] = match rng.below(4) {
                    0 => {
                        *w0 = addr | (*w0 & 0xFFC0_0000);
                        (w1 & 0xC003_FFFF & !(0x7F << 18))
                            | (8 + rng.below(8) as u32) << 26
                            | count << 18
                    }
                    1 => {
                        *w0 = (ncf as u32 + rng.below(nslots as u64 / 2) as u32 * 2).min(addr);
                        (w1 & !(0x7F << 23) & !(0x7 << 10) & !(1 << 19))
                            | (1 + rng.below(2) as u32) << 23
                    }
                    2 => (w1 & !(0x7F << 23) & !(1 << 29)) | (0x20 + rng.below(9) as u32) << 23,
                    _ => {
                        *w0 = rng.below(units) as u32;
                        (w1 & !(0x7F << 23) & !(1 << 29)) | (rng.below(0x19) as u32) << 23
                    }
                };
            }
            for k in ncf..ncf + nslots {
                let row = &wavesim_r700::isa::ALU
                    [rng.below(wavesim_r700::isa::ALU.len() as u64) as usize];
                let w1 = &mut words[2 * k + 1];
                *w1 = match row.enc {
                    wavesim_r700::isa::AluEnc::Op2 => {
                        (*w1 & !(0x7FF << 7)) | (row.opcode as u32) << 7
                    }
                    wavesim_r700::isa::AluEnc::Op3 => {
                        (*w1 & !(0x1F << 13)) | (row.opcode as u32) << 13
                    }
                };
                if rng.below(3) != 0 {
                    words[2 * k] |= 1 << 31;
                }
                // Mostly small GPR and inline-constant selects.
                if rng.below(2) == 0 {
                    let sel =
                        [0u32, 1, 2, 128, 248, 249, 253, 254, 255, 256][rng.below(10) as usize];
                    words[2 * k] = (words[2 * k] & !0x1FF) | sel;
                }
            }
        }
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let chip = [Chip::Rv770, Chip::Rv730, Chip::Rv710][case % 3];
        let r = catch_unwind(AssertUnwindSafe(|| match Shader::from_raw(chip, &bytes) {
            Ok(sh) => {
                exercise(&sh, &cfg);
                true
            }
            Err(e) => {
                if std::env::var("FUZZ_DEBUG").is_ok() {
                    eprintln!("{}", e.message);
                }
                false
            }
        }));
        match r {
            Ok(true) => decoded += 1,
            Ok(false) => {}
            Err(e) => panic!(
                "case {case}: panic {:?} on words {words:08x?}",
                e.downcast_ref::<String>()
            ),
        }
    }
    assert!(
        decoded > 150,
        "only {decoded} random programs decoded; the fuzz test would test little"
    );
}

#[test]
fn mutated_corpus_objects_never_panic() {
    let cfg = small_cfg();
    let mut rng = Rng(0xD1B5_4A32_D192_ED03);
    let dir = corpus().join("obj/rv770");
    let mut objs: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    objs.sort();
    let mut loaded = 0;
    for case in 0..2500 {
        let (name, orig) = &objs[case % objs.len()];
        let mut b = orig.clone();
        let text_heavy = rng.below(4) != 0;
        for _ in 0..1 + rng.below(4) {
            // Mostly hit .text (at 0x100 in llc's objects), sometimes anywhere in the file.
            let i = if text_heavy && b.len() > 0x110 {
                0x100 + rng.below(0x60.min(b.len() as u64 - 0x100)) as usize
            } else {
                rng.below(b.len() as u64) as usize
            };
            b[i] ^= 1 << rng.below(8);
        }
        if rng.below(20) == 0 {
            b.truncate(rng.below(b.len() as u64) as usize);
        }
        let r = catch_unwind(AssertUnwindSafe(|| {
            if let Ok(sh) = Shader::from_object_bytes(&b) {
                exercise(&sh, &cfg);
                true
            } else {
                false
            }
        }));
        match r {
            Ok(true) => loaded += 1,
            Ok(false) => {}
            Err(e) => panic!(
                "case {case} ({name}): panic {:?}",
                e.downcast_ref::<String>()
            ),
        }
    }
    assert!(loaded > 500, "only {loaded} mutated objects loaded");
}
