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

// ------------------------------------------------------------------------------------------------
// Encodings LLVM rejects that the hardware executes (`iflags::LLVM_REJECTS`): each decodes with
// the hardware's fields, prints and lists exactly as llvm-objdump-19 prints it (texts below from
// `llvm-objdump-19 -d --mcpu=gfx1100` on the same words), and runs with the seed-000 / ISA
// result.
// ------------------------------------------------------------------------------------------------

use wavesim_rdna3::disasm::disassemble_raw;
use wavesim_rdna3::testing::Harness;
use wavesim_rdna3::wave::status;

/// The instruction texts of a listing of `words` (wave32), without the address comments.
fn listed(words: &[u32]) -> Vec<String> {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    disassemble_raw(&bytes, false)
        .expect("lists")
        .lines()
        .map(|l| l.split("//").next().unwrap().trim().to_string())
        .collect()
}

/// Decodes `words` as one executable instruction LLVM rejects; checks that it prints as
/// `.long` of its first dword in both spellings and that a listing shows `objdump` (the texts
/// llvm-objdump prints for the same words: after the `.long` it goes on with the next dword).
fn rejected(words: &[u32], objdump: &[&str]) -> Inst {
    let i = dec(words);
    assert!(!i.is_invalid(), "{words:08x?} executes");
    assert!(i.llvm_rejects() && i.flags & iflags::LLVM_REJECTS != 0);
    assert_eq!(i.word0, words[0]);
    assert_eq!(i.listed_len(), 4);
    let long = format!(".long {:#010x}", words[0]);
    assert_eq!(format(&i, 0, false), long);
    assert_eq!(format(&i, 0, true), long);
    assert_eq!(listed(words), objdump, "listing of {words:08x?}");
    i
}

/// `rejected`, and the instruction is exactly the one of the `legal` encoding (the same
/// instruction with the ignored field zero / the ignored bits clear).
fn same_as_legal(words: &[u32], legal: &[u32], objdump: &[&str]) -> Inst {
    let i = rejected(words, objdump);
    let mut l = dec(legal);
    assert!(!l.llvm_rejects(), "{legal:08x?} is legal");
    l.flags |= iflags::LLVM_REJECTS;
    l.word0 = words[0];
    if l.enc == Enc::Vopd {
        l.imm = words[0] as i32; // VOPD keeps its first dword in imm
    }
    assert_eq!(i, l, "{words:08x?} vs {legal:08x?}");
    i
}

/// A 256-byte buffer of dwords 0x100 + i at s[2:3].
fn smem_setup(w64: bool) -> (Harness, u64) {
    let mut h = Harness::new(w64);
    let buf = h.mem.alloc(256, 256).unwrap();
    for k in 0..64u64 {
        h.mem.write_u32(buf + 4 * k, 0x100 + k as u32).unwrap();
    }
    h.wave.sgpr[2] = buf as u32;
    h.wave.sgpr[3] = (buf >> 32) as u32;
    (h, buf)
}

/// SMEM destinations LLVM rejects (RDNA3 ISA guide, Wave State: data running from the SGPRs/VCC into the TTMPs or
/// past the TTMPs is dropped register by register; wide destinations are aligned; nothing is
/// loaded into NULL/M0/EXEC).
#[test]
fn smem_destinations_past_their_region() {
    // s_load_b128 s[104:107], s[2:3], 0x0 (sdata 104): s104, s105, VCC written, TTMPs not (even
    // in the trap handler).
    let w = [0xf408_1a01, 0xf800_0000];
    let i = rejected(&w, &[".long 0xf4081a01", ".long 0xf8000000"]);
    assert_eq!(
        (i.op, i.enc, i.dst[0], i.src[0]),
        (Op::S_LOAD_B128, Enc::Smem, 104, 2)
    );
    // s_load_b64 <vcc_hi>: the LSB is ignored, VCC is loaded.
    let wv = [0xf404_1ac1, 0xf800_0000];
    let i = rejected(&wv, &[".long 0xf4041ac1", ".long 0xf8000000"]);
    assert_eq!((i.op, i.dst[0]), (Op::S_LOAD_B64, opnd::VCC_LO));
    // s_load_b64 <exec_hi>: aligned to EXEC, which SMEM cannot load.
    let we = [0xf404_1fc1, 0xf800_0000];
    let i = rejected(&we, &[".long 0xf4041fc1", ".long 0xf8000000"]);
    assert_eq!(i.dst[0], opnd::EXEC_LO);
    // s_load_b256 ttmp[12:19]: ttmp12..15 written, nothing past the TTMPs.
    let wt = [0xf40c_1e01, 0xf800_0000];
    let i = rejected(&wt, &[".long 0xf40c1e01", ".long 0xf8000000"]);
    assert_eq!((i.op, i.dst[0]), (Op::S_LOAD_B256, opnd::TTMP0 + 12));
    for w64 in [false, true] {
        let (mut h, _) = smem_setup(w64);
        h.wave.hw.status |= status::PRIV;
        h.wave.sgpr[108] = 0x55;
        h.run(&w).expect("runs");
        let got: Vec<u32> = (104..=108).map(|r| h.s(r)).collect();
        assert_eq!(got, [0x100, 0x101, 0x102, 0x103, 0x55], "wave64={w64}");
        h.wave.sgpr[106] = 0;
        h.wave.sgpr[107] = 0;
        h.run(&wv).expect("runs");
        assert_eq!(h.wave.vcc() & 0xffff_ffff, 0x100);
        assert_eq!((h.s(106), h.s(107)), (0x100, 0x101));
        let exec = (h.s(126), h.s(127));
        h.run(&we).expect("runs");
        assert_eq!((h.s(126), h.s(127)), exec, "EXEC is not loaded");
        h.wave.sgpr[124] = 0x77;
        h.wave.sgpr[125] = 0x99;
        h.run(&wt).expect("runs");
        let got: Vec<u32> = (120..=125).map(|r| h.s(r)).collect();
        assert_eq!(
            got,
            [0x100, 0x101, 0x102, 0x103, 0x77, 0x99],
            "wave64={w64}"
        );
        // Outside the trap handler the TTMPs are not written at all.
        h.wave.hw.status &= !status::PRIV;
        h.wave.sgpr[104] = 0;
        h.wave.sgpr[108] = 0x55;
        h.run(&w).expect("runs");
        assert_eq!((h.s(104), h.s(107), h.s(108)), (0x100, 0x103, 0x55));
    }
}

/// s_buffer_load_b32 s10, s[104:107], 0x4: LLVM has no 128-bit descriptor at s104, the hardware
/// reads the V# from s104, s105, vcc_lo, vcc_hi (RDNA3 ISA guide, Wave State: a 128-bit V# stays in one region).
#[test]
fn s_buffer_load_descriptor_at_s104() {
    let w = [0xf420_02b4, 0xf800_0004];
    let i = rejected(&w, &[".long 0xf42002b4", ".long 0xf8000004"]);
    assert_eq!(
        (i.op, i.dst[0], i.src[0], i.imm),
        (Op::S_BUFFER_LOAD_B32, 10, 104, 4)
    );
    for w64 in [false, true] {
        let (mut h, buf) = smem_setup(w64);
        h.wave.sgpr[104] = buf as u32;
        h.wave.sgpr[105] = (buf >> 32) as u32 & 0xffff; // stride 0
        h.wave.sgpr[106] = 256; // num_records (vcc_lo)
        h.wave.sgpr[107] = 0;
        h.run(&w).expect("runs");
        assert_eq!(h.s(10), 0x101, "wave64={w64}");
        // num_records 4: the dword at offset 4 is out of range and reads 0.
        h.wave.sgpr[106] = 4;
        h.run(&w).expect("runs");
        assert_eq!(h.s(10), 0);
    }
}

/// 64-bit scalar operands at vcc_hi / exec_hi: LLVM has no such register pair; the hardware
/// ignores the LSB of a 64-bit SGPR address (RDNA3 ISA guide, Wave State) and uses VCC / EXEC.
#[test]
fn wide_scalar_operands_at_vcc_hi_and_exec_hi() {
    // s_mov_b64 s[0:1], <107> = s_mov_b64 s[0:1], vcc (BE80016A).
    let i = same_as_legal(&[0xbe80_016b], &[0xbe80_016a], &[".long 0xbe80016b"]);
    assert_eq!((i.op, i.src[0]), (Op::S_MOV_B64, opnd::VCC_LO));
    // s_mov_b64 <127>, s[2:3] = s_mov_b64 exec, s[2:3] (BEFE0102).
    let i = same_as_legal(&[0xbeff_0102], &[0xbefe_0102], &[".long 0xbeff0102"]);
    assert_eq!(i.dst[0], opnd::EXEC_LO);
    // v_add_f64 v[0:1], <107>, v[2:3] = v_add_f64 v[0:1], vcc, v[2:3].
    let add = [0xd727_0000, 0x0002_046b];
    same_as_legal(
        &add,
        &[0xd727_0000, 0x0002_046a],
        &[".long 0xd7270000", ".long 0x0002046b"],
    );
    // v_cvt_f32_f64_e32 v0, <107> = v_cvt_f32_f64_e32 v0, vcc.
    let cvt = [0x7e00_1e6b];
    same_as_legal(&cvt, &[0x7e00_1e6a], &[".long 0x7e001e6b"]);
    for w64 in [false, true] {
        let lanes = if w64 { 64 } else { 32 };
        let mut h = Harness::new(w64);
        h.wave.sgpr[106] = 0x9abc_def0;
        h.wave.sgpr[107] = 0x1234_5678;
        h.run(&[0xbe80_016b]).expect("runs");
        assert_eq!((h.s(0), h.s(1)), (0x9abc_def0, 0x1234_5678));
        // EXEC = s[2:3] = 0x5 (exec_hi 0).
        h.wave.sgpr[2] = 0x5;
        h.wave.sgpr[3] = 0;
        h.run(&[0xbeff_0102]).expect("runs");
        assert_eq!((h.s(126), h.s(127)), (0x5, 0));
        // VCC = 1.0 (f64); v[2:3] = lane as f64; EXEC = lanes 0 and 2.
        h.wave.sgpr[106] = 0;
        h.wave.sgpr[107] = 0x3ff0_0000;
        h.set_v(2, |l| (l as f64).to_bits() as u32);
        h.set_v(3, |l| ((l as f64).to_bits() >> 32) as u32);
        h.set_v(0, |_| 0xdead);
        h.set_v(1, |_| 0xbeef);
        h.run(&add).expect("runs");
        for l in 0..lanes {
            let got = h.v(0, l) as u64 | (h.v(1, l) as u64) << 32;
            let want = if l == 0 || l == 2 {
                (1.0 + l as f64).to_bits()
            } else {
                0xbeef_0000_dead
            };
            assert_eq!(got, want, "wave64={w64} lane {l}");
        }
        // v_cvt_f32_f64 of VCC = 1.5: 1.5f32 in the enabled lanes.
        h.wave.sgpr[107] = 0x3ff8_0000;
        h.run(&cvt).expect("runs");
        assert_eq!(
            (h.v(0, 0), h.v(0, 1), h.v(0, 2)),
            (0x3fc0_0000, 0xdead, 0x3fc0_0000)
        );
    }
}

/// SOPP without an operand and VOP1 without a destination: LLVM wants the unused immediate /
/// vdst field zero, the hardware does not read it.
#[test]
fn unused_sopp_immediate_and_vop1_vdst() {
    // s_wait_idle with simm16 = 1, then s_mov_b32 s0, 5: objdump lists the s_mov after it.
    let i = same_as_legal(&[0xbf8a_0001], &[0xbf8a_0000], &[".long 0xbf8a0001"]);
    assert_eq!((i.op, i.imm), (Op::S_WAIT_IDLE, 0));
    assert_eq!(
        listed(&[0xbf8a_0001, 0xbe80_0085]),
        [".long 0xbf8a0001", "s_mov_b32 s0, 5"]
    );
    // v_nop with vdst field 5.
    let i = same_as_legal(&[0x7e0a_0000], &[0x7e00_0000], &[".long 0x7e0a0000"]);
    assert_eq!(i.op, Op::V_NOP);
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.set_v(5, |l| l as u32);
        h.run(&[0xbf8a_0001, 0xbe80_0085, 0x7e0a_0000])
            .expect("runs");
        assert_eq!(h.s(0), 5);
        assert!(
            (0..32).all(|l| h.v(5, l) == l as u32),
            "v_nop writes nothing"
        );
    }
}

/// VOP3 fields of sources the op does not have: a non-zero src2 field of a two-source op and
/// neg/op_sel bits of the missing src2 are ignored by the hardware; a literal or DPP marker
/// there stays invalid (would the hardware read another dword?).
#[test]
fn vop3_absent_source_fields_are_ignored() {
    // v_add_f32_e64 v1, v2, v3 with src2 = v0; objdump goes on with the second dword.
    let add = [0xd503_0001, 0x0402_0702];
    let i = same_as_legal(
        &add,
        &[0xd503_0001, 0x0002_0702],
        &[".long 0xd5030001", "v_dot2acc_f32_f16 v1, v2, v3"],
    );
    assert_eq!((i.op, i.len, i.src[2]), (Op::V_ADD_F32, 8, 0));
    // src2 = literal: not defined.
    let i = first(&[0xd503_0001, 0x03fe_0702, 0x1234_5678]);
    assert!(i.is_invalid());
    assert_eq!(listed(&[0xd503_0001, 0x03fe_0702])[0], ".long 0xd5030001");
    // src2 = DPP16 marker (250): not defined either.
    assert!(first(&[0xd503_0001, 0x03ea_0702, 0]).is_invalid());
    // v_add_f16_e64 v1, v2, v3 with neg on src2.
    let f16 = [0xd532_0001, 0x8002_0702];
    let i = same_as_legal(
        &f16,
        &[0xd532_0001, 0x0002_0702],
        &[".long 0xd5320001", "s_add_u32 s2, s2, s7"],
    );
    assert_eq!(i.neg, 0);
    // v_add_nc_u16 v1, v2, v3 with op_sel bit 2 (src2): ignored; objdump rejects both dwords.
    let u16 = [0xd703_2001, 0x0002_0702];
    let i = same_as_legal(
        &u16,
        &[0xd703_0001, 0x0002_0702],
        &[".long 0xd7032001", ".long 0x00020702"],
    );
    assert_eq!(i.op_sel, 0);
    for w64 in [false, true] {
        let lanes = if w64 { 64 } else { 32 };
        let exec: u64 = 0x3333_3333_3333_3333 & (u64::MAX >> (64 - lanes));
        let mut h = Harness::new(w64);
        h.wave.set_exec(exec);
        h.set_v(0, |_| 0x7f80_0000); // +inf in the ignored src2 field's register
        h.set_v(2, |l| (l as f32).to_bits());
        h.set_v(3, |_| 0.5f32.to_bits());
        h.set_v(1, |_| 0x1111_1111);
        h.run(&add).expect("runs");
        for l in 0..lanes {
            let want = if exec >> l & 1 != 0 {
                (l as f32 + 0.5).to_bits()
            } else {
                0x1111_1111
            };
            assert_eq!(h.v(1, l), want, "wave64={w64} lane {l}");
        }
        // 1.0 + 2.0 = 3.0 (f16 0x4200), not negated; the high half is kept.
        h.wave.set_exec(u64::MAX);
        h.set_v(1, |_| 0x1111_1111);
        h.set_v(2, |_| 0x0000_3c00);
        h.set_v(3, |_| 0x0000_4000);
        h.run(&f16).expect("runs");
        assert!((0..lanes).all(|l| h.v(1, l) == 0x1111_4200), "wave64={w64}");
        // 5 + 7 = 12 from the low halves.
        h.set_v(2, |_| 0x0001_0005);
        h.set_v(3, |_| 0x0002_0007);
        h.run(&u16).expect("runs");
        assert!((0..lanes).all(|l| h.v(1, l) & 0xffff == 12), "wave64={w64}");
    }
}

/// VOP3P: neg_lo / op_sel bits of the missing src2 and a non-zero src2 field of the two-source
/// v_pk_add_f16 are ignored by the hardware.
#[test]
fn vop3p_absent_source_fields_are_ignored() {
    let legal = [0xcc0f_4001, 0x1802_0702]; // v_pk_add_f16 v1, v2, v3
    let cases: [([u32; 2], [&str; 2]); 3] = [
        // neg_lo bit of src2
        (
            [0xcc0f_4001, 0x9802_0702],
            [".long 0xcc0f4001", "s_cselect_b32 s2, s2, s7"],
        ),
        // op_sel bit of src2
        (
            [0xcc0f_6001, 0x1802_0702],
            [".long 0xcc0f6001", "v_mul_hi_u32_u24_e32 v1, v2, v3"],
        ),
        // src2 field = v0
        (
            [0xcc0f_4001, 0x1c02_0702],
            [".long 0xcc0f4001", ".long 0x1c020702"],
        ),
    ];
    for (words, text) in cases {
        let i = same_as_legal(&words, &legal, &text);
        assert_eq!(
            (i.op, i.neg, i.op_sel, i.src[2]),
            (Op::V_PK_ADD_F16, 0, 0, 0)
        );
        for w64 in [false, true] {
            let lanes = if w64 { 64 } else { 32 };
            let mut h = Harness::new(w64);
            h.wave.set_exec(0b110);
            h.set_v(0, |_| 0x7c00_7c00);
            h.set_v(1, |_| 0x1111_1111);
            h.set_v(2, |_| 0x4000_3c00); // (hi 2.0, lo 1.0)
            h.set_v(3, |_| 0x3c00_3800); // (hi 1.0, lo 0.5)
            h.run(&words).expect("runs");
            for l in 0..lanes {
                let want = if l == 1 || l == 2 {
                    0x4200_3e00
                } else {
                    0x1111_1111
                };
                assert_eq!(h.v(1, l), want, "{words:08x?} wave64={w64} lane {l}");
            }
        }
    }
}

/// v_dual_mov_b32 has no vsrc1: a non-zero field (X or Y) is ignored by the hardware. VOPD is
/// wave32 only.
#[test]
fn vopd_mov_vsrc1_is_ignored() {
    let legal = [0xca10_0102, 0x0104_0105]; // v_dual_mov_b32 v1, v2 :: v_dual_mov_b32 v4, v5
    for (words, text) in [
        (
            [0xca10_0f02, 0x0104_0105],
            [".long 0xca100f02", ".long 0x01040105"],
        ),
        (
            [0xca10_0102, 0x0104_1305],
            [".long 0xca100102", ".long 0x01041305"],
        ),
    ] {
        let i = same_as_legal(&words, &legal, &text);
        assert_eq!((i.op, i.op_y), (Op::V_MOV_B32, Op::V_MOV_B32));
        let mut h = Harness::new(false);
        h.wave.set_exec(0xffff_0000);
        h.set_v(2, |l| 0x200 + l as u32);
        h.set_v(5, |l| 0x500 + l as u32);
        h.set_v(1, |_| 1);
        h.set_v(4, |_| 4);
        h.run(&words).expect("runs");
        for l in 0..32 {
            let on = l >= 16;
            assert_eq!(h.v(1, l), if on { 0x200 + l as u32 } else { 1 }, "lane {l}");
            assert_eq!(h.v(4, l), if on { 0x500 + l as u32 } else { 4 }, "lane {l}");
        }
    }
}

/// DS register fields an op does not use (vdst and data1 of ds_store_b32): ignored by the
/// hardware.
#[test]
fn ds_unused_register_fields_are_ignored() {
    let legal = [0xd834_0000, 0x0000_0201]; // ds_store_b32 v1, v2
    for (words, text) in [
        (
            [0xd834_0000, 0x0700_0201],
            [".long 0xd8340000", "v_add_f32_e32 v128, s1, v1"],
        ),
        (
            [0xd834_0000, 0x0005_0201],
            [".long 0xd8340000", ".long 0x00050201"],
        ),
    ] {
        let i = same_as_legal(&words, &legal, &text);
        assert_eq!(i.op, Op::DS_STORE_B32);
        for w64 in [false, true] {
            let lanes = if w64 { 64 } else { 32 };
            let exec: u64 = 0x0f0f_0f0f_0f0f_0f0f & (u64::MAX >> (64 - lanes));
            let mut h = Harness::new(w64);
            h.wave.set_exec(exec);
            h.set_v(1, |l| 4 * l as u32);
            h.set_v(2, |l| 0xabc0 + l as u32);
            h.set_v(7, |_| 7);
            h.run(&words).expect("runs");
            for l in 0..lanes {
                let got = u32::from_le_bytes(h.lds[4 * l..4 * l + 4].try_into().unwrap());
                let want = if exec >> l & 1 != 0 {
                    0xabc0 + l as u32
                } else {
                    0
                };
                assert_eq!(got, want, "{words:08x?} wave64={w64} lane {l}");
                assert_eq!(h.v(7, l), 7);
            }
        }
    }
}
