//! Fuzz-style robustness test of the decoder and the disassembler: random words (fixed seeds,
//! xorshift PRNG) must never panic, every decoded instruction must print, lengths must be sane,
//! and an instruction cut off by the end of the code must be reported as truncated at its offset.

use wavesim_rdna3::decode::{decode, decode_all, DecodeError, Inst};
use wavesim_rdna3::disasm::{disassemble_raw, format};

struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn word(&mut self) -> u32 {
        (self.next() >> 16) as u32
    }
}

/// Biases the top bits towards the instruction encodings so every format gets exercised, not
/// just the VOP2 half of the space that uniform words mostly hit.
const PREFIXES: [(u32, u32); 14] = [
    (0xbe80_0000, 0xff80_0000), // SOP1
    (0xbf00_0000, 0xff80_0000), // SOPC
    (0xbf80_0000, 0xff80_0000), // SOPP
    (0xb000_0000, 0xf000_0000), // SOPK
    (0xf400_0000, 0xfc00_0000), // SMEM
    (0xd400_0000, 0xfc00_0000), // VOP3
    (0xcc00_0000, 0xfc00_0000), // VOP3P / VINTERP / LDSDIR
    (0xc800_0000, 0xfc00_0000), // VOPD
    (0xd800_0000, 0xfc00_0000), // DS
    (0xdc00_0000, 0xfc00_0000), // FLAT
    (0xe000_0000, 0xfc00_0000), // MUBUF
    (0xe800_0000, 0xfc00_0000), // MTBUF
    (0xf000_0000, 0xfc00_0000), // MIMG
    (0xf800_0000, 0xfc00_0000), // EXP
];

fn random_code(rng: &mut XorShift, words: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(words * 4);
    for _ in 0..words {
        let mut w = rng.word();
        let r = rng.next() % 16;
        if (r as usize) < PREFIXES.len() {
            let (p, m) = PREFIXES[r as usize];
            w = p | (w & !m);
        }
        // Sprinkle the special source codes (literal, DPP markers) into the low byte.
        if rng.next().is_multiple_of(8) {
            w = (w & !0xff) | [0xff, 0xfa, 0xe9, 0xea][(rng.next() % 4) as usize];
        }
        out.extend_from_slice(&w.to_le_bytes());
    }
    out
}

#[test]
fn random_words_decode_and_print() {
    const WORDS: usize = 1 << 20;
    let mut total = 0usize;
    let mut invalid = 0usize;
    let mut rejected = 0usize;
    for seed in [
        0x9e37_79b9_7f4a_7c15u64,
        0x1234_5678_9abc_def1,
        0x0bad_cafe_f00d_d00d,
    ] {
        let mut rng = XorShift(seed);
        let code = random_code(&mut rng, WORDS / 3);
        let mut off = 0;
        while off < code.len() {
            let inst = match decode(&code[off..], off) {
                Ok(i) => i,
                Err(DecodeError::Truncated {
                    offset,
                    needed,
                    available,
                }) => {
                    assert_eq!(offset, off, "truncation names the instruction's offset");
                    assert!(needed > available, "truncated means not enough bytes");
                    assert_eq!(available, code.len() - off);
                    break;
                }
            };
            assert!(
                matches!(inst.len, 4 | 8 | 12 | 16 | 20),
                "odd length {} at {off:#x}",
                inst.len
            );
            assert!(off + inst.len as usize <= code.len());
            let text = format(&inst, off as u64, false);
            assert!(!text.is_empty());
            let text64 = format(&inst, off as u64, true);
            assert!(!text64.is_empty());
            if inst.is_invalid() {
                invalid += 1;
                assert_eq!(text, format!(".long {:#010x}", inst.lit));
            } else if inst.llvm_rejects() {
                // Executable, but printed like LLVM prints it: the first dword as data.
                rejected += 1;
                let w0 = u32::from_le_bytes(code[off..off + 4].try_into().unwrap());
                assert_eq!(text, format!(".long {w0:#010x}"));
                assert_eq!(text64, text);
                assert_eq!(inst.listed_len(), 4);
            } else {
                assert_eq!(inst.listed_len(), inst.len);
            }
            total += 1;
            off += inst.len as usize;
        }
    }
    println!(
        "fuzz: {total} instructions decoded and printed, {invalid} invalid words, \
         {rejected} executable words LLVM rejects"
    );
    assert!(rejected > 0);
    assert!(total > 300_000);
    assert!(invalid > 0 && invalid < total);
}

#[test]
fn truncated_instruction_is_an_error_naming_the_offset() {
    // s_mov_b32 s0, lit (8 bytes) after a 4-byte s_nop: cut the literal off.
    let mut code = Vec::new();
    code.extend_from_slice(&0xbf80_0000u32.to_le_bytes()); // s_nop 0
    code.extend_from_slice(&0xbe80_00ffu32.to_le_bytes()); // s_mov_b32 s0, <literal missing>
    let err = decode_all(&code).unwrap_err();
    assert_eq!(
        err,
        DecodeError::Truncated {
            offset: 4,
            needed: 8,
            available: 4
        }
    );
    assert!(err.to_string().contains("0x4"), "{err}");
    // The listing shows the cut-off instruction like llvm-objdump does: its first dword as data.
    assert_eq!(
        disassemble_raw(&code, false).expect("lists"),
        "\ts_nop 0                                                    // 000000000000: BF800000\n\
         \t.long 0xbe8000ff                                           // 000000000004: BE8000FF\n"
    );
    // A partial word at the end is truncated too.
    let err = decode_all(&[0x00, 0x00, 0x80, 0xbf, 0x12]).unwrap_err();
    assert_eq!(
        err,
        DecodeError::Truncated {
            offset: 4,
            needed: 4,
            available: 1
        }
    );
    // VOP3 needs its second dword.
    let vop3 = 0xd503_0001u32.to_le_bytes();
    assert!(matches!(
        decode(&vop3, 0x40),
        Err(DecodeError::Truncated {
            offset: 0x40,
            needed: 8,
            available: 4
        })
    ));
}

#[test]
fn invalid_words_keep_their_bits() {
    // 0xd5030001 0x0001a302: v_add_f32_e64 v1, v2, <source code 209> - a code that names
    // nothing (LLVM rejects it, the hardware defines nothing for it).
    let code = [0xd503_0001u32, 0x0001_a302];
    let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
    let i = decode(&bytes, 0).unwrap();
    assert!(i.is_invalid());
    assert_eq!((i.len, i.listed_len()), (4, 4));
    assert_eq!(i, Inst::invalid(0xd503_0001));
    assert_eq!(format(&i, 0, false), ".long 0xd5030001");
    // 0xd5030001 0x04020702: v_add_f32_e64 with a non-zero unused src2 field. LLVM rejects it,
    // the hardware ignores the field: an 8-byte instruction that lists as `.long` + 4 bytes.
    let code = [0xd503_0001u32, 0x0402_0702];
    let bytes: Vec<u8> = code.iter().flat_map(|w| w.to_le_bytes()).collect();
    let i = decode(&bytes, 0).unwrap();
    assert!(!i.is_invalid() && i.llvm_rejects());
    assert_eq!((i.len, i.listed_len()), (8, 4));
    assert_eq!(format(&i, 0, false), ".long 0xd5030001");
}
