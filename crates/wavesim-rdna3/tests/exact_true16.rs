//! 16-bit VALU operands on VGPR high halves, as RDNA3 hardware reads and writes them.
//!
//! Rule (RDNA3 ISA guide, VOP1/VOP2/VOPC 16-bit operands; LLVM's true16 `vN.h` operands): in
//! the 32-bit encodings a 16-bit VGPR operand field of 128 or more names the high half of
//! v[n-128]; a 16-bit result written there keeps the low half (and a result written to a low
//! half keeps the high half). The VOP3 forms select halves with op_sel (bits 0-2 sources,
//! bit 3 the destination). Expected values also match the hardware runs in tinygrad's
//! `test/amd/hw` (test_vop2.py TestHiHalfOps / TestVop2F16HiHalf, test_vop1.py hi-half
//! conversions, test_vopc.py TestCmpFloat, test_vop3.py test_v_fmac_f16_hi_dest).
//!
//! LLVM 19 assembles `.h` operands only for a few opcodes (v_add_f16, v_mul_f16, v_mov_b16
//! with -mattr=+real-true16) and never op_sel on most VOP3 16-bit forms, so the words are
//! built here from the encoding layouts (RDNA3 ISA guide, chapter 15 "Microcode formats").

use wavesim_rdna3::testing::Harness;

const VGPR: u32 = 256;
const VCC_LO: usize = 106;

fn vop2(op: u32, vdst: u32, src0: u32, vsrc1: u32) -> u32 {
    op << 25 | vdst << 17 | vsrc1 << 9 | src0
}
fn vop1(op: u32, vdst: u32, src0: u32) -> u32 {
    0x3f << 25 | vdst << 17 | op << 9 | src0
}
fn vopc(op: u32, src0: u32, vsrc1: u32) -> u32 {
    0x3e << 25 | op << 17 | vsrc1 << 9 | src0
}
fn vop3(op: u32, vdst: u32, op_sel: u32, s0: u32, s1: u32, s2: u32) -> [u32; 2] {
    [
        0b110101 << 26 | op << 16 | op_sel << 11 | vdst,
        s2 << 18 | s1 << 9 | s0,
    ]
}

const V_ADD_F16: u32 = 0x32;
const V_MUL_F16: u32 = 0x35;
const V_FMAC_F16: u32 = 0x36;
const V_CVT_F16_F32: u32 = 0x0a;
const V_CVT_F32_F16: u32 = 0x0b;
const V_MOV_B16: u32 = 0x1c;
const V_CVT_I16_F16: u32 = 0x53;
const V_CMP_LT_F16: u32 = 0x01;
const V_CMP_EQ_F16: u32 = 0x02;
const V_CMP_LG_F16: u32 = 0x05;
const V_CMP_EQ_U16: u32 = 0x3a;

fn h16(x: f32) -> u32 {
    half::f16::from_f32(x).to_bits() as u32
}

fn harness(w64: bool) -> Harness {
    let mut h = Harness::new(w64);
    h.wave.hw.mode = 0xf0 | 1 << 8 | 1 << 9;
    h
}

fn vcc(h: &Harness) -> u64 {
    let lo = h.s(VCC_LO) as u64;
    if h.wave.lanes() == 64 {
        lo | (h.s(VCC_LO + 1) as u64) << 32
    } else {
        lo
    }
}

/// Lane l holds f16 values that differ per lane: low half l, high half 2l + 1.
fn lane_pair(l: usize) -> u32 {
    h16(2.0 * l as f32 + 1.0) << 16 | h16(l as f32)
}

#[test]
fn vop2_sources_on_both_halves() {
    for w64 in [false, true] {
        let mut h = harness(w64);
        h.set_v(0, lane_pair);
        h.set_v(1, |l| 0xabcd_0000 | h16(0.5 * l as f32));
        h.set_v(2, |_| 0x1234_5678);
        h.set_v(3, |_| 0x1234_5678);
        h.set_v(4, |_| 0x1234_5678);
        h.run(&[
            vop2(V_ADD_F16, 2, VGPR, 128),       // v_add_f16_e32 v2.l, v0.l, v0.h
            vop2(V_MUL_F16, 3, VGPR + 128, 1),   // v_mul_f16_e32 v3.l, v0.h, v1.l
            vop2(V_ADD_F16, 4, VGPR + 128, 128), // v_add_f16_e32 v4.l, v0.h, v0.h
        ])
        .unwrap();
        for l in 0..h.wave.lanes() {
            let (lo, hi) = (l as f32, 2.0 * l as f32 + 1.0);
            // A low-half result keeps the destination's high half.
            assert_eq!(
                h.v(2, l),
                0x1234_0000 | h16(lo + hi),
                "wave64={w64} lane {l}"
            );
            assert_eq!(
                h.v(3, l),
                0x1234_0000 | h16(hi * 0.5 * l as f32),
                "lane {l}"
            );
            assert_eq!(h.v(4, l), 0x1234_0000 | h16(hi + hi), "lane {l}");
        }
    }
}

#[test]
fn vop2_high_destination_keeps_the_low_half() {
    for w64 in [false, true] {
        let mut h = harness(w64);
        h.set_v(0, |l| 0x0000_be00 | l as u32);
        h.set_v(1, |l| h16(l as f32));
        h.set_v(2, |_| h16(2.0));
        h.set_v(5, lane_pair);
        h.set_v(6, |l| 0x7777_0000 | l as u32);
        h.run(&[
            vop2(V_ADD_F16, 128, VGPR + 1, 2), // v_add_f16_e32 v0.h, v1.l, v2.l
            vop2(V_ADD_F16, 134, VGPR + 1, 128 + 5), // v_add_f16_e32 v6.h, v1.l, v5.h
        ])
        .unwrap();
        for l in 0..h.wave.lanes() {
            let x = l as f32;
            assert_eq!(
                h.v(0, l),
                h16(x + 2.0) << 16 | 0xbe00 | l as u32,
                "lane {l}"
            );
            assert_eq!(
                h.v(6, l),
                h16(x + 2.0 * x + 1.0) << 16 | l as u32,
                "lane {l}"
            );
        }
    }
}

/// v_fmac_f16_e32: the accumulator D is read from the half the destination names.
#[test]
fn fmac_f16_e32_on_the_high_half() {
    for w64 in [false, true] {
        let mut h = harness(w64);
        // v0 = {hi 0.5 + l, lo 0xdead}; v1 = 2.0, v2 = 3.0
        h.set_v(0, |l| h16(0.5 + l as f32) << 16 | 0xdead);
        h.set_v(1, |_| h16(2.0));
        h.set_v(2, |_| h16(3.0));
        // v3 = {hi 2.0, lo 1.0} for the vsrc1-high form; v4 accumulator 3.0 in the low half.
        h.set_v(3, |_| 0x4000_3c00);
        h.set_v(4, |l| 0x5555_0000 | h16(3.0 + l as f32));
        h.run(&[
            vop2(V_FMAC_F16, 128, VGPR + 1, 2), // v_fmac_f16_e32 v0.h, v1.l, v2.l
            vop2(V_FMAC_F16, 4, VGPR + 3, 128 + 3), // v_fmac_f16_e32 v4.l, v3.l, v3.h
        ])
        .unwrap();
        for l in 0..h.wave.lanes() {
            let x = l as f32;
            assert_eq!(h.v(0, l), h16(0.5 + x + 6.0) << 16 | 0xdead, "lane {l}");
            assert_eq!(h.v(4, l), 0x5555_0000 | h16(3.0 + x + 2.0), "lane {l}");
        }
        // With a literal: v_fmac_f16_e32 v0.h, 0x3518, v1.l (D.h = D.h + lit * 0.0).
        let mut h = harness(w64);
        h.set_v(0, |_| 0x3800_3c00);
        h.set_v(1, |_| 0x3800_0000);
        h.run(&[vop2(V_FMAC_F16, 128, 255, 1), 0x3518]).unwrap();
        assert_eq!(h.v(0, 0), 0x3800_3c00);
    }
}

#[test]
fn vop1_high_halves() {
    for w64 in [false, true] {
        let mut h = harness(w64);
        h.set_v(0, |l| if l % 2 == 0 { 0x4000_3c00 } else { 0xc000_3c00 });
        h.set_v(3, |_| 0xdead_0000);
        h.set_v(4, |l| (l as f32).to_bits());
        h.set_v(5, |_| 0x0000_dead);
        h.set_v(6, |_| 0xbeef_dead);
        h.set_v(7, |_| 0);
        h.run(&[
            vop1(V_CVT_F32_F16, 1, VGPR + 128), // v_cvt_f32_f16_e32 v1, v0.h
            vop1(V_CVT_I16_F16, 2, VGPR + 128), // v_cvt_i16_f16_e32 v2.l, v0.h
            vop1(V_CVT_F16_F32, 3, VGPR + 4),   // v_cvt_f16_f32_e32 v3.l, v4
            vop1(V_CVT_F16_F32, 128 + 5, VGPR + 4), // v_cvt_f16_f32_e32 v5.h, v4
            vop1(V_MOV_B16, 7, VGPR + 128 + 6), // v_mov_b16_e32 v7.l, v6.h
        ])
        .unwrap();
        for l in 0..h.wave.lanes() {
            let hi = if l % 2 == 0 { 2.0f32 } else { -2.0 };
            assert_eq!(h.v(1, l), hi.to_bits(), "lane {l}");
            assert_eq!(h.v(2, l) & 0xffff, (hi as i16 as u16) as u32, "lane {l}");
            assert_eq!(h.v(3, l), 0xdead_0000 | h16(l as f32), "lane {l}");
            assert_eq!(h.v(5, l), h16(l as f32) << 16 | 0xdead, "lane {l}");
            assert_eq!(h.v(7, l), 0xbeef, "lane {l}");
        }
        // v_mov_b16_e32 v0.h, 0x5678 keeps the low half.
        let mut h = harness(w64);
        h.set_v(0, |_| 0x0000_dead);
        h.run(&[0x7f0038ff, 0x0000_5678]).unwrap();
        assert_eq!(h.v(0, 0), 0x5678_dead);
        // v_cvt_f16_f32_e32 v0, v0 keeps the source's high half: 1.0 -> 0x3f80_3c00.
        let mut h = harness(w64);
        h.set_v(0, |_| 1f32.to_bits());
        h.run(&[vop1(V_CVT_F16_F32, 0, VGPR)]).unwrap();
        assert_eq!(h.v(0, 0), 0x3f80_3c00);
    }
}

#[test]
fn vopc_high_halves_write_vcc_per_lane() {
    for w64 in [false, true] {
        let mut h = harness(w64);
        // v0: lo = 3.0 in even lanes / 1.0 in odd lanes, hi = 3.0; v1: lo 3.0, hi 7.0.
        h.set_v(0, |l| {
            0x4200_0000 | if l % 2 == 0 { 0x4200 } else { 0x3c00 }
        });
        h.set_v(1, |_| 0x4700_4200);
        let even = 0x5555_5555_5555_5555u64 & if w64 { u64::MAX } else { 0xffff_ffff };
        let all = if w64 { u64::MAX } else { 0xffff_ffff };
        h.run(&[vopc(V_CMP_EQ_F16, VGPR, 128)]).unwrap(); // v_cmp_eq_f16_e32 vcc, v0.l, v0.h
        assert_eq!(vcc(&h), even, "wave64={w64}");
        h.run(&[vopc(V_CMP_LG_F16, VGPR, 128)]).unwrap(); // v_cmp_lg_f16_e32 vcc, v0.l, v0.h
        assert_eq!(vcc(&h), all & !even);
        h.run(&[vopc(V_CMP_EQ_F16, VGPR + 128, 1)]).unwrap(); // v_cmp_eq_f16_e32 vcc, v0.h, v1.l
        assert_eq!(vcc(&h), all);
        h.run(&[vopc(V_CMP_LT_F16, VGPR + 128, 128 + 1)]).unwrap(); // v0.h < v1.h
        assert_eq!(vcc(&h), all);
        h.run(&[vopc(V_CMP_EQ_U16, VGPR + 128, 128 + 1)]).unwrap(); // v0.h == v1.h (u16)
        assert_eq!(vcc(&h), 0);
    }
}

/// The VOP3 forms: op_sel bits 0-2 pick source halves, bit 3 the destination half.
#[test]
fn vop3_op_sel_halves() {
    for w64 in [false, true] {
        let mut h = harness(w64);
        h.set_v(0, lane_pair);
        h.set_v(1, |_| h16(2.0));
        h.set_v(2, |_| h16(3.0));
        h.set_v(3, |l| h16(1.0 + l as f32) << 16 | 0x0bad);
        h.set_v(4, |_| 0xffff_ffff);
        let mut words = vec![];
        words.extend(vop3(0x132, 4, 0b0001, VGPR, VGPR, 0)); // v_add_f16_e64 v4, v0.h, v0.l
        words.extend(vop3(0x248, 3, 0b1100, VGPR + 1, VGPR + 2, VGPR + 3)); // v_fma_f16 v3.h, v1.l, v2.l, v3.h
        words.extend(vop3(0x136, 5, 0b1000, VGPR + 1, VGPR + 2, 0)); // v_fmac_f16_e64 v5.h, v1.l, v2.l (D = v5.h)
        words.extend(vop3(0x001, 8, 0b0011, VGPR, VGPR + 3, 0)); // v_cmp_lt_f16_e64 s8, v0.h, v3.h
        h.set_v(5, |l| h16(0.25 * l as f32) << 16 | 0x1111);
        h.run(&words).unwrap();
        for l in 0..h.wave.lanes() {
            let (lo, hi) = (l as f32, 2.0 * l as f32 + 1.0);
            assert_eq!(h.v(4, l), 0xffff_0000 | h16(hi + lo), "lane {l}");
            assert_eq!(h.v(3, l), h16(6.0 + 1.0 + lo) << 16 | 0x0bad, "lane {l}");
            assert_eq!(h.v(5, l), h16(0.25 * lo + 6.0) << 16 | 0x1111, "lane {l}");
        }
        // v0.h = 2l + 1 < v3.h (now 7 + l) for l < 6.
        let mut want = 0u64;
        for l in 0..h.wave.lanes() {
            if 2 * l + 1 < 7 + l {
                want |= 1 << l;
            }
        }
        let got = h.s(8) as u64 | if w64 { (h.s(9) as u64) << 32 } else { 0 };
        assert_eq!(got, want, "wave64={w64}");
    }
}

/// DPP on a high-half src0: the swizzle moves whole VGPRs, then the half is taken.
#[test]
fn dpp_src0_high_half() {
    for w64 in [false, true] {
        let mut h = harness(w64);
        h.set_v(0, lane_pair);
        h.set_v(1, |_| 0);
        // v_add_f16_dpp v1.l, v0.h, v0.l quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
        h.run(&[0x640200fa, 0xff00b180]).unwrap();
        for l in 0..h.wave.lanes() {
            let src = l ^ 1;
            let want = h16(2.0 * src as f32 + 1.0 + l as f32);
            assert_eq!(h.v(1, l), want, "wave64={w64} lane {l}");
        }
    }
}

/// Disassembly still matches llvm-objdump-19 -d --mcpu=gfx1100 (no real-true16): a 16-bit
/// e32 destination of v128+ prints as `.long`, a source as `v128` with LLVM's comment.
#[test]
fn high_half_words_disassemble_like_llvm_objdump_19() {
    let words = [0x65000501u32, 0x6d000501, 0x7f0b1404, 0x64030100];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let text = wavesim_rdna3::disasm::disassemble_raw(&bytes, false).unwrap();
    let want = "\t.long 0x65000501                                           // 000000000000: 65000501\n\
                \t.long 0x6d000501                                           // 000000000004: 6D000501\n\
                \t.long 0x7f0b1404                                           // 000000000008: 7F0B1404\n\
                \tv_add_f16_e32 v1, v0, v128/*Invalid register, operand has 'VGPR_32_Lo128' register class*/// 00000000000C: 64030100\n";
    assert_eq!(text, want);
}
