//! The decoder keeps what the hardware executes even where llvm-objdump prints less: bits LLVM
//! accepts but does not print stay in `Inst`, and the printer masks them. Each test checks both
//! sides: the decoded fields (what the executor reads) and the LLVM text (what objdump prints for
//! the same words, obtained with llvm-objdump-19 -d --mcpu=gfx1100).

use wavesim_rdna3::decode::{decode, iflags, opnd, Enc, Inst};
use wavesim_rdna3::disasm::format;
use wavesim_rdna3::isa::Op;

/// Decodes the first instruction of `words`.
fn first(words: &[u32]) -> Inst {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    decode(&bytes, 0).expect("no truncation")
}

/// Decodes `words` as exactly one instruction.
fn dec(words: &[u32]) -> Inst {
    let i = first(words);
    assert_eq!(i.len as usize, words.len() * 4, "length of {words:08X?}");
    i
}

fn v(n: u16) -> u16 {
    opnd::VGPR0 + n
}

/// v_add_f16_e64 v1, v2, v3 with op_sel:[1,1,1] (VOP3 word0 bits 14:11 = src0, src1, src2, dst:
/// 0b1011). LLVM 19 models v_add_f16_e64 as a "fake16" op without op_sel and prints nothing,
/// but the hardware reads the high halves of v2 and v3 and writes the high half of v1.
#[test]
fn vop3_op_sel_of_fake16_op_survives() {
    let w0 = 0xD532_0000 | 0b1011 << 11 | 1; // v_add_f16_e64 (VOP3 opcode 0x132), vdst v1
    assert_eq!(w0, 0xD532_5801);
    let i = dec(&[w0, 0x0002_0702]); // src0 v2, src1 v3
    assert_eq!(i.op, Op::V_ADD_F16);
    assert_eq!(i.enc, Enc::Vop3);
    assert_eq!(i.op_sel, 0b1011, "src0, src1 and dst high-half selects");
    assert_eq!((i.dst[0], i.src[0], i.src[1]), (v(1), v(2), v(3)));
    assert_eq!(format(&i, 0, false), "v_add_f16_e64 v1, v2, v3");

    // Only the destination select: v_cvt_f16_f32_e64 v1, v2 op_sel:[0,1] (bit 14).
    let i = dec(&[0xD58A_4001, 0x0000_0102]);
    assert_eq!(i.op, Op::V_CVT_F16_F32);
    assert_eq!(i.op_sel, 0b1000);
    assert_eq!(format(&i, 0, false), "v_cvt_f16_f32_e64 v1, v2");
}

/// Ops LLVM gives op_sel print only their own slots, from the same raw field.
#[test]
fn vop3_op_sel_printed_where_llvm_has_it() {
    // v_fma_f16 v1, v2, v3, v4 op_sel:[1,0,1,1]: field 0b1101.
    let i = dec(&[0xD648_6801, 0x0412_0702]);
    assert_eq!(i.op, Op::V_FMA_F16);
    assert_eq!(i.op_sel, 0b1101);
    assert_eq!(
        format(&i, 0, false),
        "v_fma_f16 v1, v2, v3, v4 op_sel:[1,0,1,1]"
    );
}

/// abs on v_ldexp_f32's integer exponent (bit 9) and neg/abs on the sources of a 16-bit integer
/// op are accepted by LLVM and not printed; they are kept as encoded (the executor applies
/// float modifiers to float operands only).
#[test]
fn integer_source_modifier_bits_survive() {
    let i = dec(&[0xD71C_0201, 0x0002_0702]);
    assert_eq!(i.op, Op::V_LDEXP_F32);
    assert_eq!(i.abs, 0b010);
    assert_eq!(format(&i, 0, false), "v_ldexp_f32 v1, v2, v3");
    // The neg bit of the exponent is LLVM's sext().
    let i = dec(&[0xD71C_0201, 0x4002_0702]);
    assert_eq!((i.abs, i.neg), (0b010, 0b010));
    assert_eq!(format(&i, 0, false), "v_ldexp_f32 v1, v2, sext(v3)");

    // v_add_nc_u16 v1, v2, v3 with abs = 0b011 and neg = 0b011.
    let i = dec(&[0xD703_0301, 0x6002_0702]);
    assert_eq!(i.op, Op::V_ADD_NC_U16);
    assert_eq!((i.abs, i.neg), (0b011, 0b011));
    assert_eq!(format(&i, 0, false), "v_add_nc_u16 v1, v2, v3");
}

/// Modifier bits whose hardware meaning is not defined keep the whole word invalid (printed as
/// `.long`); neg on a source the op does not have is ignored by the hardware (see
/// `absent_source_modifiers_are_ignored`).
#[test]
fn rejected_modifier_bits_stay_invalid() {
    // neg on src2 of the two-source v_add_f16_e64: executable, printed as `.long`.
    let i = first(&[0xD532_0001, 0x8002_0702]);
    assert!(!i.is_invalid() && i.llvm_rejects());
    assert_eq!(format(&i, 0, false), ".long 0xd5320001");
    // omod on v_add_nc_u16.
    let i = first(&[0xD703_0001, 0x0802_0702]);
    assert!(i.is_invalid());
}

/// image_sample_l v12, v30, s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D_MSAA_ARRAY: LLVM has
/// no variant for 5 address and 4 data dwords of a sampling op on an MSAA dimension and prints
/// the default widths, but the instruction reads x, y, slice, fragment and lod and returns four
/// channels.
#[test]
fn mimg_counts_are_the_hardware_ones() {
    let i = dec(&[0xF074_0F1C, 0x1002_0C1E]);
    assert_eq!(i.op, Op::IMAGE_SAMPLE_L);
    assert_eq!(i.imm, 5, "address VGPRs: 4 coordinates + lod");
    assert_eq!(i.imm2 >> 8 & 0xff, 4, "data VGPRs: dmask 0xf");
    assert_eq!(i.imm2 & 0xf, 0xf);
    assert_eq!(i.imm2 >> 4 & 7, 7);
    assert_eq!(
        format(&i, 0, false),
        "image_sample_l v12, v30, s[8:15], s[16:19] dmask:0xf dim:SQ_RSRC_IMG_2D_MSAA_ARRAY"
    );
    // With d16 and tfe a gather4 returns 2 + 1 dwords and reads x, y; LLVM has no 3-dword
    // gather4 form and prints its default widths (4 data, 1 address VGPR).
    let i = dec(&[0xF0BE_0104, 0x1022_0C1E]);
    assert_eq!(i.op, Op::IMAGE_GATHER4);
    assert_eq!((i.imm, i.imm2 >> 8 & 0xff), (2, 3));
    assert_eq!(
        i.flags & (iflags::D16 | iflags::TFE),
        iflags::D16 | iflags::TFE
    );
    assert_eq!(
        format(&i, 0, false),
        "image_gather4 v[12:15], v30, s[8:15], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D tfe d16"
    );
}

/// ds_gws_init v1 gds as llvm-mc encodes it: the data0 VGPR sits in the addr field.
#[test]
fn ds_gws_data0_from_addr_field() {
    let i = dec(&[0xD866_0000, 0x0000_0001]);
    assert_eq!(i.op, Op::DS_GWS_INIT);
    assert_eq!(i.src[1], v(1), "data0");
    assert!(i.flags & iflags::GDS != 0);
    assert_eq!(format(&i, 0, false), "ds_gws_init v1 gds");
    // Without the gds bit there is no such instruction.
    assert!(first(&[0xD864_0000, 0x0000_0001]).is_invalid());
    // ds_gws_barrier v255 offset:16 gds.
    let i = dec(&[0xD876_0010, 0x0000_00FF]);
    assert_eq!((i.op, i.src[1], i.imm), (Op::DS_GWS_BARRIER, v(255), 16));
    assert_eq!(format(&i, 0, false), "ds_gws_barrier v255 offset:16 gds");
}

/// End to end: the op_sel bits LLVM does not print reach the executor. v_add_f16_e64 v1, v2, v3
/// op_sel:[1,1,1] adds the high halves (2.0 + 4.0 = 6.0 = 0x4600) into the high half of v1 and
/// keeps its low half; v_cvt_f16_f32_e64 v1, v2 op_sel:[0,1] writes 1.0 (0x3c00) to the high
/// half. Lanes disabled by EXEC keep v1.
#[test]
fn fake16_op_sel_reaches_the_executor() {
    use wavesim_rdna3::testing::Harness;
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        let exec: u64 = 0x5555_5555_5555_5555 & (u64::MAX >> (64 - lanes));
        let mut h = Harness::new(wave64);
        h.wave.set_exec(exec);
        h.set_v(2, |l| 0x4000_3c00 + l as u32); // hi 2.0, lo 1.0 (+ lane in the low bits)
        h.set_v(3, |_| 0x4400_3800); // hi 4.0, lo 0.5
        h.set_v(1, |_| 0x1111_2222);
        h.run(&[0xD532_5801, 0x0002_0702]).expect("runs");
        for l in 0..lanes {
            let want = if exec >> l & 1 != 0 {
                0x4600_2222
            } else {
                0x1111_2222
            };
            assert_eq!(h.v(1, l), want, "wave64={wave64} lane {l}");
        }
        let mut h = Harness::new(wave64);
        h.set_v(2, |_| 0x3f80_0000); // 1.0f32
        h.set_v(1, |_| 0x1111_2222);
        h.run(&[0xD58A_4001, 0x0000_0102]).expect("runs");
        for l in 0..lanes {
            assert_eq!(h.v(1, l), 0x3c00_2222, "wave64={wave64} lane {l}");
        }
    }
}
