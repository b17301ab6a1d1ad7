//! Listings of code that does not end on an instruction boundary, and of code objects whose
//! instructions run across symbols: the lines llvm-objdump-19 -d --mcpu=gfx1100 prints for the
//! same bytes (assembled with llvm-mc-19 from `.long` / `.byte` directives).

use wavesim_rdna3::disasm::disassemble_raw;

fn raw(bytes: &[u8]) -> String {
    disassemble_raw(bytes, false).expect("listing never fails")
}

fn le(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[test]
fn trailing_bytes_print_as_byte_directives() {
    let nop = le(&[0xbf80_0000]); // s_nop 0
    let mut code = nop.clone();
    code.push(0x01);
    assert_eq!(
        raw(&code),
        "\ts_nop 0                                                    // 000000000000: BF800000\n\
         \t.byte 0x01                                                 // 000000000004: 01\n"
    );
    let mut code = nop.clone();
    code.extend_from_slice(&[0x01, 0x02, 0x03]);
    assert_eq!(
        raw(&code),
        "\ts_nop 0                                                    // 000000000000: BF800000\n\
         \t.byte 0x01, 0x02, 0x03                                     // 000000000004: 01 02 03\n"
    );
    // Two bytes alone.
    assert_eq!(
        raw(&[0x11, 0x22]),
        "\t.byte 0x11, 0x22                                           // 000000000000: 11 22\n"
    );
    assert_eq!(raw(&[]), "");
}

#[test]
fn cut_off_instructions_print_their_first_dword_as_long() {
    // v_add_f16_e64 without its second dword, then two stray bytes.
    let mut code = le(&[0xbf80_0000, 0xd532_0001]);
    code.extend_from_slice(&[0x02, 0x07]);
    assert_eq!(
        raw(&code),
        "\ts_nop 0                                                    // 000000000000: BF800000\n\
         \t.long 0xd5320001                                           // 000000000004: D5320001\n\
         \t.byte 0x02, 0x07                                           // 000000000008: 02 07\n"
    );
    // v_mov_b32 with a literal that is missing.
    assert_eq!(
        raw(&le(&[0x7e02_02ff])),
        "\t.long 0x7e0202ff                                           // 000000000000: 7E0202FF\n"
    );
    // An image load with non-sequential addresses needs 3 dwords: both dwords print as data.
    assert_eq!(
        raw(&le(&[0x7e00_0280, 0xf000_0f05, 0x0002_0105])),
        "\tv_mov_b32_e32 v0, 0                                        // 000000000000: 7E000280\n\
         \t.long 0xf0000f05                                           // 000000000004: F0000F05\n\
         \t.long 0x00020105                                           // 000000000008: 00020105\n"
    );
}

/// tests/golden/listing/edges.o (source edges.s): an instruction running into the next symbol
/// is decoded whole, the next symbol is listed from its own address again, and the end of the
/// section cuts an instruction off (`.long`) and leaves two bytes (`.byte`).
#[test]
fn code_object_listing_matches_objdump_at_symbol_and_section_ends() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden/listing");
    let obj = std::fs::read(dir.join("edges.o")).expect("edges.o");
    let want = std::fs::read_to_string(dir.join("edges.objdump")).expect("edges.objdump");
    let got = wavesim_rdna3::disasm::disassemble_elf(&obj).expect("parses");
    let norm = |s: &str| -> Vec<String> {
        s.lines()
            .map(|l| l.trim_end().to_string())
            .filter(|l| !l.is_empty())
            .collect()
    };
    assert_eq!(norm(&got), norm(&want));
}
