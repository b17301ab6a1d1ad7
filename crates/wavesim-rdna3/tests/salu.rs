//! Scalar ALU (SOP1, SOP2, SOPK, SOPC) execution tests.
//!
//! Instruction words come from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding` (assembly
//! in the comment next to each word; hand-made words say so). Expected values are worked out
//! from the RDNA3 ISA pseudo-code and the RDNA3 ISA guide's operand rules, in wave32 and wave64.

use wavesim_rdna3::exec::{salu, sopp, ExecError};
use wavesim_rdna3::isa::{Fmt, Op};
use wavesim_rdna3::testing::Harness;
use wavesim_rdna3::wave::status;

const SIZES: [bool; 2] = [false, true];
const TTMP0: usize = 108;
const M0: usize = 125;
const EXEC_LO: usize = 126;
const EXEC_HI: usize = 127;
const VCC_HI: usize = 107;

/// A fresh wave of the given size with `init` SGPRs and SCC set, after running `words`.
fn run(wave64: bool, scc: bool, init: &[(usize, u32)], words: &[u32]) -> Harness {
    let mut h = Harness::new(wave64);
    h.wave.scc = scc;
    for &(r, v) in init {
        h.wave.sgpr[r] = v;
    }
    h.run(words).expect("program runs");
    h
}

/// Lets programs of different lengths share one array.
fn progs<const N: usize>(p: [&'static [u32]; N]) -> [&'static [u32]; N] {
    p
}

fn s64(h: &Harness, r: usize) -> u64 {
    h.s(r) as u64 | (h.s(r + 1) as u64) << 32
}

fn lo(v: u64) -> u32 {
    v as u32
}
fn hi(v: u64) -> u32 {
    (v >> 32) as u32
}

// ------------------------------------------------------------------------------------------
// SOP2 arithmetic
// ------------------------------------------------------------------------------------------

#[test]
fn add_u32_sets_scc_to_carry() {
    for w in SIZES {
        let h = run(
            w,
            false,
            &[(1, 0xffff_ffff), (2, 1), (4, 5), (5, 7)],
            &[
                0x80000201, // s_add_u32 s0, s1, s2
                0x98038081, // s_cselect_b32 s3, 1, 0
                0x80060504, // s_add_u32 s6, s4, s5
            ],
        );
        assert_eq!(h.s(0), 0);
        assert_eq!(h.s(3), 1, "0xffffffff + 1 carries");
        assert_eq!(h.s(6), 12);
        assert!(!h.wave.scc, "5 + 7 does not carry");
    }
}

#[test]
fn add_u32_addc_u32_chain_is_a_64_bit_add() {
    for w in SIZES {
        // 0x1_ffffffff + 0x2_00000001 = 0x4_00000000
        let h = run(
            w,
            false,
            &[(2, 0xffff_ffff), (3, 1), (4, 1), (5, 2)],
            &[
                0x80000402, // s_add_u32 s0, s2, s4
                0x82010503, // s_addc_u32 s1, s3, s5
            ],
        );
        assert_eq!(s64(&h, 0), 0x4_0000_0000);
        assert!(!h.wave.scc);
        // Carry out of the high half too: 0xffffffff + 0 + carry-in 1.
        let h = run(
            w,
            true,
            &[(1, 0xffff_ffff)],
            &[
                0x82008001, // s_addc_u32 s0, s1, 0
            ],
        );
        assert_eq!(h.s(0), 0);
        assert!(h.wave.scc);
    }
}

#[test]
fn sub_u32_subb_u32_chain_is_a_64_bit_sub() {
    for w in SIZES {
        // 0x1_00000000 - 1 = 0x0_ffffffff: the low half borrows, the high half absorbs it.
        let h = run(
            w,
            false,
            &[(2, 0), (3, 1), (4, 1), (5, 0)],
            &[
                0x80800402, // s_sub_u32 s0, s2, s4
                0x98068081, // s_cselect_b32 s6, 1, 0
                0x82810503, // s_subb_u32 s1, s3, s5
            ],
        );
        assert_eq!(s64(&h, 0), 0xffff_ffff);
        assert_eq!(h.s(6), 1, "low half borrowed");
        assert!(!h.wave.scc, "1 - 0 - 1 does not borrow");
        // 0 - 0 - borrow-in = 0xffffffff with a borrow out.
        let h = run(
            w,
            true,
            &[],
            &[
                0x82808080, // s_subb_u32 s0, 0, 0
            ],
        );
        assert_eq!(h.s(0), 0xffff_ffff);
        assert!(h.wave.scc);
        // 5 - 7 borrows.
        let h = run(
            w,
            false,
            &[(1, 5), (2, 7)],
            &[
                0x80800201, // s_sub_u32 s0, s1, s2
            ],
        );
        assert_eq!(h.s(0), (-2i32) as u32);
        assert!(h.wave.scc);
    }
}

#[test]
fn add_sub_i32_set_scc_to_signed_overflow() {
    for w in SIZES {
        let cases_add = [
            (0x7fff_ffffu32, 1u32, 0x8000_0000u32, true),
            (0xffff_ffff, 1, 0, false), // unsigned carry but no signed overflow
            (0x8000_0000, 0x8000_0000, 0, true),
            (0xffff_fffe, 0xffff_ffff, 0xffff_fffd, false),
        ];
        for (a, b, d, scc) in cases_add {
            let h = run(
                w,
                !scc,
                &[(1, a), (2, b)],
                &[
                    0x81000201, // s_add_i32 s0, s1, s2
                ],
            );
            assert_eq!((h.s(0), h.wave.scc), (d, scc), "s_add_i32 {a:#x} {b:#x}");
        }
        let cases_sub = [
            (0x8000_0000u32, 1u32, 0x7fff_ffffu32, true),
            (5, 7, (-2i32) as u32, false),
            (0x7fff_ffff, 0xffff_ffff, 0x8000_0000, true),
            (0, 0x8000_0000, 0x8000_0000, true),
        ];
        for (a, b, d, scc) in cases_sub {
            let h = run(
                w,
                !scc,
                &[(1, a), (2, b)],
                &[
                    0x81800201, // s_sub_i32 s0, s1, s2
                ],
            );
            assert_eq!((h.s(0), h.wave.scc), (d, scc), "s_sub_i32 {a:#x} {b:#x}");
        }
    }
}

#[test]
fn absdiff_i32_matches_isa_examples() {
    // RDNA3 ISA S_ABSDIFF_I32 functional examples; SCC = result != 0.
    let cases = [
        (2u32, 5u32, 3u32),
        (0xffff_ffff, 0, 1),
        (0x8000_0000, 0, 0x8000_0000),
        (0x8000_0000, 1, 0x7fff_ffff),
        (0x8000_0000, 0xffff_ffff, 0x7fff_ffff),
        (0x8000_0000, 0xffff_fffe, 0x7fff_fffe),
        (7, 7, 0),
    ];
    for w in SIZES {
        for (a, b, d) in cases {
            let h = run(
                w,
                d == 0,
                &[(1, a), (2, b)],
                &[
                    0x83000201, // s_absdiff_i32 s0, s1, s2
                ],
            );
            assert_eq!((h.s(0), h.wave.scc), (d, d != 0), "absdiff {a:#x} {b:#x}");
        }
    }
}

#[test]
fn lshl_add_u32_sets_scc_to_carry_of_the_sum() {
    for w in SIZES {
        let h = run(
            w,
            false,
            &[(1, 0x4000_0000), (2, 1)],
            &[
                0x87800201, // s_lshl2_add_u32 s0, s1, s2
            ],
        );
        assert_eq!(
            (h.s(0), h.wave.scc),
            (1, true),
            "(0x40000000 << 2) + 1 = 0x1_00000001"
        );
        let h = run(
            w,
            true,
            &[(1, 3), (2, 4)],
            &[
                0x87800201, // s_lshl2_add_u32 s0, s1, s2
            ],
        );
        assert_eq!((h.s(0), h.wave.scc), (16, false));
        let h = run(
            w,
            false,
            &[(1, 0x0fff_ffff), (2, 0x10)],
            &[
                0x88800201, // s_lshl4_add_u32 s0, s1, s2
            ],
        );
        assert_eq!((h.s(0), h.wave.scc), (0, true));
        let h = run(
            w,
            true,
            &[(1, 0x7fff_ffff), (2, 1)],
            &[
                0x87000201, // s_lshl1_add_u32 s0, s1, s2
            ],
        );
        assert_eq!((h.s(0), h.wave.scc), (0xffff_ffff, false));
        let h = run(
            w,
            false,
            &[(1, 0x2000_0000), (2, 0)],
            &[
                0x88000201, // s_lshl3_add_u32 s0, s1, s2
            ],
        );
        assert_eq!((h.s(0), h.wave.scc), (0, true));
    }
}

#[test]
fn min_max_set_scc_when_the_first_operand_is_selected() {
    for w in SIZES {
        let h = run(
            w,
            false,
            &[(1, 0xffff_ffff), (2, 1)],
            &[
                0x89000201, // s_min_i32 s0, s1, s2
                0x98038081, // s_cselect_b32 s3, 1, 0
                0x89840201, // s_min_u32 s4, s1, s2
                0x98058081, // s_cselect_b32 s5, 1, 0
                0x8a060201, // s_max_i32 s6, s1, s2
                0x98078081, // s_cselect_b32 s7, 1, 0
                0x8a880201, // s_max_u32 s8, s1, s2
            ],
        );
        assert_eq!(
            (h.s(0), h.s(3)),
            (0xffff_ffff, 1),
            "min_i32(-1, 1) = -1, first"
        );
        assert_eq!((h.s(4), h.s(5)), (1, 0), "min_u32 picks the second");
        assert_eq!((h.s(6), h.s(7)), (1, 0), "max_i32(-1, 1) = 1, second");
        assert_eq!((h.s(8), h.wave.scc), (0xffff_ffff, true));
        // Equal operands: "<" / ">" are false, so the second is selected and SCC = 0.
        let h = run(
            w,
            true,
            &[(1, 3), (2, 3)],
            &[
                0x8a000201, // s_max_i32 s0, s1, s2
            ],
        );
        assert_eq!((h.s(0), h.wave.scc), (3, false));
    }
}

#[test]
fn multiplies_leave_scc_alone() {
    for w in SIZES {
        let h = run(
            w,
            true,
            &[
                (1, 0x1_0000),
                (2, 0x1_0001),
                (3, 0xffff_ffff),
                (4, (-2i32) as u32),
                (5, 0x8000_0000),
            ],
            &[
                0x960a0201, // s_mul_i32 s10, s1, s2
                0x968b0303, // s_mul_hi_u32 s11, s3, s3
                0x970c0303, // s_mul_hi_i32 s12, s3, s3
                0x970d8304, // s_mul_hi_i32 s13, s4, 3
                0x970e0505, // s_mul_hi_i32 s14, s5, s5
                0x968f0505, // s_mul_hi_u32 s15, s5, s5
            ],
        );
        assert_eq!(h.s(10), 0x0001_0000, "0x10000 * 0x10001 = 0x1_0001_0000");
        assert_eq!(h.s(11), 0xffff_fffe, "0xffffffff^2 = 0xfffffffe_00000001");
        assert_eq!(h.s(12), 0, "(-1) * (-1) = 1");
        assert_eq!(h.s(13), 0xffff_ffff, "-2 * 3 = -6");
        assert_eq!(h.s(14), 0x4000_0000, "(-2^31)^2 = 2^62");
        assert_eq!(h.s(15), 0x4000_0000, "(2^31)^2 = 2^62");
        assert!(h.wave.scc);
    }
}

// ------------------------------------------------------------------------------------------
// SOP2 shifts and bit fields
// ------------------------------------------------------------------------------------------

#[test]
fn shifts_use_the_low_bits_of_the_count_and_set_scc_to_nonzero() {
    for w in SIZES {
        let h = run(
            w,
            false,
            &[(1, 0x8000_0001), (2, 33)],
            &[
                0x84000201, // s_lshl_b32 s0, s1, s2
            ],
        );
        assert_eq!(
            (h.s(0), h.wave.scc),
            (2, true),
            "count 33 uses bits [4:0] = 1"
        );
        let h = run(
            w,
            true,
            &[(1, 0x8000_0000)],
            &[
                0x84008101, // s_lshl_b32 s0, s1, 1
            ],
        );
        assert_eq!((h.s(0), h.wave.scc), (0, false));
        let h = run(
            w,
            false,
            &[(1, 0x8000_0000)],
            &[
                0x85009f01, // s_lshr_b32 s0, s1, 31
                0x86028401, // s_ashr_i32 s2, s1, 4
            ],
        );
        assert_eq!(h.s(0), 1);
        assert_eq!(h.s(2), 0xf800_0000);
        assert!(h.wave.scc);
        // 64-bit: count bits [5:0].
        let h = run(
            w,
            false,
            &[(2, 0x8000_0001), (3, 0), (4, 65)],
            &[
                0x84800402, // s_lshl_b64 s[0:1], s[2:3], s4
            ],
        );
        assert_eq!(s64(&h, 0), 0x1_0000_0002);
        let h = run(
            w,
            false,
            &[(2, 0), (3, 0x8000_0000)],
            &[
                0x8680bf02, // s_ashr_i64 s[0:1], s[2:3], 63
                0x8584bf02, // s_lshr_b64 s[4:5], s[2:3], 63
            ],
        );
        assert_eq!(s64(&h, 0), u64::MAX);
        assert_eq!(s64(&h, 4), 1);
        let h = run(
            w,
            true,
            &[(2, 1), (3, 0)],
            &[
                0x85808102, // s_lshr_b64 s[0:1], s[2:3], 1
            ],
        );
        assert_eq!((s64(&h, 0), h.wave.scc), (0, false));
    }
}

#[test]
fn bfe_extracts_offset_and_width_packed_in_src1() {
    for w in SIZES {
        // offset 4, width 8 (S1[4:0], S1[22:16]).
        let h = run(
            w,
            false,
            &[(1, 0x1234_5678), (2, 8 << 16 | 4)],
            &[
                0x93000201, // s_bfe_u32 s0, s1, s2
            ],
        );
        assert_eq!((h.s(0), h.wave.scc), (0x67, true));
        // Signed: the 4-bit field 0xf is -1.
        let h = run(
            w,
            false,
            &[(1, 0xf0), (2, 4 << 16 | 4)],
            &[
                0x93800201, // s_bfe_i32 s0, s1, s2
            ],
        );
        assert_eq!(h.s(0), 0xffff_ffff);
        // A positive signed field stays positive.
        let h = run(
            w,
            false,
            &[(1, 0x70), (2, 4 << 16 | 4)],
            &[
                0x93800201, // s_bfe_i32 s0, s1, s2
            ],
        );
        assert_eq!(h.s(0), 7);
        // Width 0 extracts nothing: result 0, SCC 0.
        let h = run(
            w,
            true,
            &[(1, 0xffff_ffff), (2, 5)],
            &[
                0x93000201, // s_bfe_u32 s0, s1, s2
                0x93830201, // s_bfe_i32 s3, s1, s2
            ],
        );
        assert_eq!((h.s(0), h.s(3), h.wave.scc), (0, 0, false));
        // Offset uses S1[4:0] only; bits between [15:5] are ignored.
        let h = run(
            w,
            false,
            &[(1, 0x8000_0000), (2, 1 << 16 | 0x7e0 | 31)],
            &[
                0x93000201, // s_bfe_u32 s0, s1, s2
            ],
        );
        assert_eq!(h.s(0), 1);
        // 64-bit: offset S1[5:0].
        let h = run(
            w,
            false,
            &[(2, 0x9abc_def0), (3, 0x1234_5678), (4, 16 << 16 | 28)],
            &[
                0x94000402, // s_bfe_u64 s[0:1], s[2:3], s4
            ],
        );
        assert_eq!(s64(&h, 0), 0x6789);
        let h = run(
            w,
            false,
            &[(2, 0), (3, 0xf000), (4, 4 << 16 | 44)],
            &[
                0x94800402, // s_bfe_i64 s[0:1], s[2:3], s4
            ],
        );
        assert_eq!((s64(&h, 0), h.wave.scc), (u64::MAX, true));
    }
}

#[test]
fn bfm_builds_masks_without_touching_scc() {
    for w in SIZES {
        let h = run(
            w,
            true,
            &[(1, 36)],
            &[
                0x95008884, // s_bfm_b32 s0, 4, 8
                0x95028001, // s_bfm_b32 s2, s1, 0
                0x95849c88, // s_bfm_b64 s[4:5], 8, 28
                0x95038580, // s_bfm_b32 s3, 0, 5
            ],
        );
        assert_eq!(h.s(0), 0xf00);
        assert_eq!(h.s(2), 0xf, "size uses S0[4:0]: 36 -> 4");
        assert_eq!(s64(&h, 4), 0xff << 28);
        assert_eq!(h.s(3), 0);
        assert!(h.wave.scc);
    }
}

// ------------------------------------------------------------------------------------------
// SOP2 logic, select, pack
// ------------------------------------------------------------------------------------------

#[test]
fn logic_ops_set_scc_to_result_nonzero() {
    for w in SIZES {
        let init = [(1, 0xf0f0), (2, 0x0ff0), (3, 0xffff_ffff)];
        let h = run(
            w,
            false,
            &init,
            &[
                0x8b0a0201, // s_and_b32 s10, s1, s2
                0x8c0b0201, // s_or_b32 s11, s1, s2
                0x8d0c0201, // s_xor_b32 s12, s1, s2
                0x8e0d0201, // s_nand_b32 s13, s1, s2
                0x8f0e0201, // s_nor_b32 s14, s1, s2
                0x900f0201, // s_xnor_b32 s15, s1, s2
                0x91100201, // s_and_not1_b32 s16, s1, s2
                0x92110201, // s_or_not1_b32 s17, s1, s2
            ],
        );
        assert_eq!(h.s(10), 0x00f0);
        assert_eq!(h.s(11), 0xfff0);
        assert_eq!(h.s(12), 0xff00);
        assert_eq!(h.s(13), !0x00f0);
        assert_eq!(h.s(14), !0xfff0);
        assert_eq!(h.s(15), !0xff00);
        assert_eq!(h.s(16), 0xf000);
        assert_eq!(h.s(17), 0xf0f0 | !0x0ff0);
        assert!(h.wave.scc);
        for words in progs([
            &[
                0x8b008fff, 0x000000f0, // s_and_b32 s0, 0xf0, 0x0f
            ],
            &[
                0x8e000303, // s_nand_b32 s0, s3, s3
            ],
            &[
                0x92000380, // s_or_not1_b32 s0, 0, s3
            ],
            &[
                0x8d000303, // s_xor_b32 s0, s3, s3
            ],
        ]) {
            let h = run(w, true, &init, words);
            assert_eq!((h.s(0), h.wave.scc), (0, false));
        }
        // 64-bit forms see both halves.
        let init = [
            (2, 0x0000_ffff),
            (3, 0xff00_0000),
            (4, 0x0000_00ff),
            (5, 0x0f00_0000),
        ];
        let h = run(
            w,
            false,
            &init,
            &[
                0x8b8a0402, // s_and_b64 s[10:11], s[2:3], s[4:5]
                0x8c8c0402, // s_or_b64 s[12:13], s[2:3], s[4:5]
                0x8d8e0402, // s_xor_b64 s[14:15], s[2:3], s[4:5]
                0x91900402, // s_and_not1_b64 s[16:17], s[2:3], s[4:5]
                0x92920402, // s_or_not1_b64 s[18:19], s[2:3], s[4:5]
                0x8e940402, // s_nand_b64 s[20:21], s[2:3], s[4:5]
                0x8f960402, // s_nor_b64 s[22:23], s[2:3], s[4:5]
                0x90980402, // s_xnor_b64 s[24:25], s[2:3], s[4:5]
            ],
        );
        let (a, b) = (0xff00_0000_0000_ffffu64, 0x0f00_0000_0000_00ffu64);
        assert_eq!(s64(&h, 10), a & b);
        assert_eq!(s64(&h, 12), a | b);
        assert_eq!(s64(&h, 14), a ^ b);
        assert_eq!(s64(&h, 16), a & !b);
        assert_eq!(s64(&h, 18), a | !b);
        assert_eq!(s64(&h, 20), !(a & b));
        assert_eq!(s64(&h, 22), !(a | b));
        assert_eq!(s64(&h, 24), !(a ^ b));
        // Only the high half is non-zero: SCC still 1.
        let h = run(
            w,
            false,
            &[(2, 0), (3, 1)],
            &[
                0x8b80c102, // s_and_b64 s[0:1], s[2:3], -1
            ],
        );
        assert!(h.wave.scc);
    }
}

#[test]
fn cselect_and_pack() {
    for w in SIZES {
        let init = [
            (1, 0x1111_2222),
            (2, 0x3333_4444),
            (4, 1),
            (5, 2),
            (6, 3),
            (7, 4),
        ];
        let h = run(
            w,
            true,
            &init,
            &[
                0x980a0201, // s_cselect_b32 s10, s1, s2
                0x988c0604, // s_cselect_b64 s[12:13], s[4:5], s[6:7]
                0x99140201, // s_pack_ll_b32_b16 s20, s1, s2
                0x99950201, // s_pack_lh_b32_b16 s21, s1, s2
                0x9a160201, // s_pack_hh_b32_b16 s22, s1, s2
                0x9a970201, // s_pack_hl_b32_b16 s23, s1, s2
            ],
        );
        assert_eq!(h.s(10), 0x1111_2222);
        assert_eq!(s64(&h, 12), 2 << 32 | 1);
        assert_eq!(h.s(20), 0x4444_2222);
        assert_eq!(h.s(21), 0x3333_2222);
        assert_eq!(h.s(22), 0x3333_1111);
        assert_eq!(h.s(23), 0x4444_1111);
        assert!(h.wave.scc, "select/pack leave SCC");
        let h = run(
            w,
            false,
            &init,
            &[
                0x980a0201, // s_cselect_b32 s10, s1, s2
                0x988c0604, // s_cselect_b64 s[12:13], s[4:5], s[6:7]
            ],
        );
        assert_eq!(h.s(10), 0x3333_4444);
        assert_eq!(s64(&h, 12), 4 << 32 | 3);
        assert!(!h.wave.scc);
    }
}

// ------------------------------------------------------------------------------------------
// SOP1
// ------------------------------------------------------------------------------------------

#[test]
fn moves_leave_scc_and_widen_constants_per_type() {
    for w in SIZES {
        for scc in [false, true] {
            let h = run(
                w,
                scc,
                &[(1, 0xdead_beef)],
                &[
                    0xbe800001, // s_mov_b32 s0, s1
                    0xbe8201c1, // s_mov_b64 s[2:3], -1
                    0xbe8401f2, // s_mov_b64 s[4:5], 1.0
                    0xbe8601ff, 0x80000000, // s_mov_b64 s[6:7], 0x80000000
                    0xbe8800f2, // s_mov_b32 s8, 1.0
                    0xbe8900d0, // s_mov_b32 s9, -16
                    0xbe8a00ff, 0x12345678, // s_mov_b32 s10, 0x12345678
                ],
            );
            assert_eq!(h.s(0), 0xdead_beef);
            assert_eq!(s64(&h, 2), u64::MAX, "inline -1 sign-extends to 64 bits");
            assert_eq!(
                s64(&h, 4),
                0x3ff0_0000_0000_0000,
                "inline 1.0 is an f64 in a 64-bit op"
            );
            assert_eq!(s64(&h, 6), 0x8000_0000, "a literal zero-extends for b64");
            assert_eq!(h.s(8), 0x3f80_0000);
            assert_eq!(h.s(9), (-16i32) as u32);
            assert_eq!(h.s(10), 0x1234_5678);
            assert_eq!(h.wave.scc, scc);
        }
    }
}

#[test]
fn cmov_moves_only_when_scc_is_set() {
    for w in SIZES {
        let init = [(0, 7), (1, 9), (2, 10), (3, 11), (4, 12), (5, 13)];
        let h = run(
            w,
            false,
            &init,
            &[
                0xbe800201, // s_cmov_b32 s0, s1
                0xbe820304, // s_cmov_b64 s[2:3], s[4:5]
                0xb1018000, // s_cmovk_i32 s1, 0x8000
            ],
        );
        assert_eq!((h.s(0), s64(&h, 2), h.s(1)), (7, 11 << 32 | 10, 9));
        let h = run(
            w,
            true,
            &init,
            &[
                0xbe800201, // s_cmov_b32 s0, s1
                0xbe820304, // s_cmov_b64 s[2:3], s[4:5]
                0xb1018000, // s_cmovk_i32 s1, 0x8000
            ],
        );
        assert_eq!(
            (h.s(0), s64(&h, 2), h.s(1)),
            (9, 13 << 32 | 12, 0xffff_8000)
        );
        assert!(h.wave.scc);
    }
}

#[test]
fn bit_counting_matches_isa_examples() {
    for w in SIZES {
        let ctz = [
            (0xaaaa_aaaau32, 1u32),
            (0x5555_5555, 0),
            (0, u32::MAX),
            (0xffff_ffff, 0),
            (0x0001_0000, 16),
        ];
        for (v, d) in ctz {
            let h = run(
                w,
                false,
                &[(1, v)],
                &[
                    0xbe800801, // s_ctz_i32_b32 s0, s1
                ],
            );
            assert_eq!(h.s(0), d, "ctz {v:#x}");
        }
        let clz = [
            (0u32, u32::MAX),
            (0x0000_cccc, 16),
            (0xffff_3333, 0),
            (0x7fff_ffff, 1),
            (0x8000_0000, 0),
        ];
        for (v, d) in clz {
            let h = run(
                w,
                false,
                &[(1, v)],
                &[
                    0xbe800a01, // s_clz_i32_u32 s0, s1
                ],
            );
            assert_eq!(h.s(0), d, "clz {v:#x}");
        }
        let cls = [
            (0u32, u32::MAX),
            (0x0000_cccc, 16),
            (0xffff_3333, 16),
            (0x7fff_ffff, 1),
            (0x8000_0000, 1),
            (0xffff_ffff, u32::MAX),
        ];
        for (v, d) in cls {
            let h = run(
                w,
                false,
                &[(1, v)],
                &[
                    0xbe800c01, // s_cls_i32 s0, s1
                ],
            );
            assert_eq!(h.s(0), d, "cls {v:#x}");
        }
        let h = run(
            w,
            true,
            &[
                (2, 0),
                (3, 0x100),
                (4, 0),
                (5, 0),
                (6, 1),
                (7, 0),
                (8, 0),
                (9, 0xffff_ffff),
            ],
            &[
                0xbe8a0902, // s_ctz_i32_b64 s10, s[2:3]
                0xbe8b0904, // s_ctz_i32_b64 s11, s[4:5]
                0xbe8c0b06, // s_clz_i32_u64 s12, s[6:7]
                0xbe8d0b04, // s_clz_i32_u64 s13, s[4:5]
                0xbe8e0d08, // s_cls_i32_i64 s14, s[8:9]
                0xbe8f0d04, // s_cls_i32_i64 s15, s[4:5]
            ],
        );
        assert_eq!(h.s(10), 40);
        assert_eq!(h.s(11), u32::MAX);
        assert_eq!(h.s(12), 63);
        assert_eq!(h.s(13), u32::MAX);
        assert_eq!(
            h.s(14),
            32,
            "0xffffffff_00000000: bit 31 is the first to differ"
        );
        assert_eq!(h.s(15), u32::MAX);
        assert!(h.wave.scc, "ctz/clz/cls do not write SCC");
    }
}

#[test]
fn bcnt_counts_and_sets_scc_to_nonzero() {
    for w in SIZES {
        let cases = [
            (0u32, 32u32, 0u32),
            (0xcccc_cccc, 16, 16),
            (0xffff_ffff, 0, 32),
        ];
        for (v, zeros, ones) in cases {
            let h = run(
                w,
                false,
                &[(1, v)],
                &[
                    0xbe801601, // s_bcnt0_i32_b32 s0, s1
                    0x98028081, // s_cselect_b32 s2, 1, 0
                    0xbe831801, // s_bcnt1_i32_b32 s3, s1
                ],
            );
            assert_eq!((h.s(0), h.s(2)), (zeros, (zeros != 0) as u32));
            assert_eq!((h.s(3), h.wave.scc), (ones, ones != 0));
        }
        let h = run(
            w,
            false,
            &[(2, 1), (3, 0xffff_ffff), (4, 0xffff_ffff), (5, 0xffff_ffff)],
            &[
                0xbe801902, // s_bcnt1_i32_b64 s0, s[2:3]
                0xbe811702, // s_bcnt0_i32_b64 s1, s[2:3]
                0xbe861704, // s_bcnt0_i32_b64 s6, s[4:5]
            ],
        );
        assert_eq!((h.s(0), h.s(1)), (33, 31));
        assert_eq!((h.s(6), h.wave.scc), (0, false));
    }
}

#[test]
fn sext_brev_bitset_bitreplicate() {
    for w in SIZES {
        let h = run(
            w,
            true,
            &[
                (1, 0x1234_5680),
                (2, 0x7f),
                (3, 0x8000),
                (4, 1),
                (10, 0xffff_ffff),
                (12, 0),
                (13, 0),
            ],
            &[
                0xbe940e01, // s_sext_i32_i8 s20, s1
                0xbe950e02, // s_sext_i32_i8 s21, s2
                0xbe960f03, // s_sext_i32_i16 s22, s3
                0xbe970404, // s_brev_b32 s23, s4
                0xbe980504, // s_brev_b64 s[24:25], s[4:5]
                0xbe8a10a4, // s_bitset0_b32 s10, 36
                0xbe8c13a8, // s_bitset1_b64 s[12:13], 40
                0xbe9a1485, // s_bitreplicate_b64_b32 s[26:27], 5
            ],
        );
        assert_eq!(h.s(20), 0xffff_ff80, "only S0[7:0] counts");
        assert_eq!(h.s(21), 0x7f);
        assert_eq!(h.s(22), 0xffff_8000);
        assert_eq!(h.s(23), 0x8000_0000);
        assert_eq!(s64(&h, 24), 1 << 63, "s[4:5] = 1 reversed");
        assert_eq!(h.s(10), 0xffff_ffef, "bit index uses S0[4:0]: 36 -> 4");
        assert_eq!(s64(&h, 12), 1 << 40);
        assert_eq!(s64(&h, 26), 0x33);
        assert!(h.wave.scc);
        let h = run(
            w,
            false,
            &[(1, 0x8000_0001)],
            &[
                0xbe821401, // s_bitreplicate_b64_b32 s[2:3], s1
                0xbe8211bf, // s_bitset0_b64 s[2:3], 63
            ],
        );
        assert_eq!(s64(&h, 2), 0x4000_0000_0000_0003);
    }
}

#[test]
fn abs_matches_isa_examples() {
    let cases = [
        (1u32, 1u32),
        (0x7fff_ffff, 0x7fff_ffff),
        (0x8000_0000, 0x8000_0000),
        (0x8000_0001, 0x7fff_ffff),
        (0x8000_0002, 0x7fff_fffe),
        (0xffff_ffff, 1),
        (0, 0),
    ];
    for w in SIZES {
        for (v, d) in cases {
            let h = run(
                w,
                d == 0,
                &[(1, v)],
                &[
                    0xbe801501, // s_abs_i32 s0, s1
                ],
            );
            assert_eq!((h.s(0), h.wave.scc), (d, d != 0), "abs {v:#x}");
        }
    }
}

#[test]
fn quadmask_wqm_not() {
    for w in SIZES {
        let h = run(
            w,
            false,
            &[(1, 0x0000_0f01), (2, 0x10), (3, 0x8000_0000)],
            &[
                0xbe8a1a01, // s_quadmask_b32 s10, s1
                0xbe8c1b02, // s_quadmask_b64 s[12:13], s[2:3]
                0xbe8e1c01, // s_wqm_b32 s14, s1
                0xbe901d02, // s_wqm_b64 s[16:17], s[2:3]
                0xbe921e01, // s_not_b32 s18, s1
                0xbe941f02, // s_not_b64 s[20:21], s[2:3]
            ],
        );
        assert_eq!(h.s(10), 0x5);
        assert_eq!(s64(&h, 12), 0x8002);
        assert_eq!(h.s(14), 0x0000_0f0f);
        assert_eq!(s64(&h, 16), 0xf000_0000_0000_00f0);
        assert_eq!(h.s(18), !0x0000_0f01);
        assert_eq!(s64(&h, 20), !0x8000_0000_0000_0010u64);
        assert!(h.wave.scc);
        for words in progs([
            &[
                0xbe801a80, // s_quadmask_b32 s0, 0
            ],
            &[
                0xbe801d80, // s_wqm_b64 s[0:1], 0
            ],
            &[
                0xbe801ec1, // s_not_b32 s0, -1
            ],
            &[
                0xbe801fc1, // s_not_b64 s[0:1], -1
            ],
        ]) {
            let h = run(w, true, &[], words);
            assert!(!h.wave.scc);
        }
    }
}

// ------------------------------------------------------------------------------------------
// EXEC manipulation
// ------------------------------------------------------------------------------------------

#[test]
fn saveexec_b32_ops() {
    let s1 = 0x00ff_00ffu32;
    let e = 0x0000_ffffu32;
    let cases: [(&[u32], u32); 10] = [
        (
            &[
                0xbe802001, // s_and_saveexec_b32 s0, s1
            ],
            s1 & e,
        ),
        (
            &[
                0xbe802201, // s_or_saveexec_b32 s0, s1
            ],
            s1 | e,
        ),
        (
            &[
                0xbe802401, // s_xor_saveexec_b32 s0, s1
            ],
            s1 ^ e,
        ),
        (
            &[
                0xbe802601, // s_nand_saveexec_b32 s0, s1
            ],
            !(s1 & e),
        ),
        (
            &[
                0xbe802801, // s_nor_saveexec_b32 s0, s1
            ],
            !(s1 | e),
        ),
        (
            &[
                0xbe802a01, // s_xnor_saveexec_b32 s0, s1
            ],
            !(s1 ^ e),
        ),
        (
            &[
                0xbe802c01, // s_and_not0_saveexec_b32 s0, s1
            ],
            !s1 & e,
        ),
        (
            &[
                0xbe802e01, // s_or_not0_saveexec_b32 s0, s1
            ],
            !s1 | e,
        ),
        (
            &[
                0xbe803001, // s_and_not1_saveexec_b32 s0, s1
            ],
            s1 & !e,
        ),
        (
            &[
                0xbe803201, // s_or_not1_saveexec_b32 s0, s1
            ],
            s1 | !e,
        ),
    ];
    for w in SIZES {
        for (words, new_exec) in cases {
            let h = run(
                w,
                new_exec == 0,
                &[(1, s1), (EXEC_LO, e), (EXEC_HI, 0xabcd)],
                words,
            );
            assert_eq!(h.s(0), e, "D = old EXEC_LO");
            assert_eq!(h.s(EXEC_LO), new_exec);
            assert_eq!(h.s(EXEC_HI), 0xabcd, "_b32 leaves EXEC_HI");
            assert_eq!(h.wave.scc, new_exec != 0);
        }
        let h = run(
            w,
            true,
            &[(EXEC_LO, e)],
            &[
                0xbe802080, // s_and_saveexec_b32 s0, 0
            ],
        );
        assert_eq!((h.s(EXEC_LO), h.wave.scc), (0, false));
    }
}

#[test]
fn saveexec_b64_ops() {
    let s = 0x0f0f_0f0f_0f0f_0f0fu64;
    let e = 0xffff_0000_0000_ffffu64;
    let cases: [(&[u32], u64); 10] = [
        (
            &[
                0xbe802102, // s_and_saveexec_b64 s[0:1], s[2:3]
            ],
            s & e,
        ),
        (
            &[
                0xbe802302, // s_or_saveexec_b64 s[0:1], s[2:3]
            ],
            s | e,
        ),
        (
            &[
                0xbe802502, // s_xor_saveexec_b64 s[0:1], s[2:3]
            ],
            s ^ e,
        ),
        (
            &[
                0xbe802702, // s_nand_saveexec_b64 s[0:1], s[2:3]
            ],
            !(s & e),
        ),
        (
            &[
                0xbe802902, // s_nor_saveexec_b64 s[0:1], s[2:3]
            ],
            !(s | e),
        ),
        (
            &[
                0xbe802b02, // s_xnor_saveexec_b64 s[0:1], s[2:3]
            ],
            !(s ^ e),
        ),
        (
            &[
                0xbe802d02, // s_and_not0_saveexec_b64 s[0:1], s[2:3]
            ],
            !s & e,
        ),
        (
            &[
                0xbe802f02, // s_or_not0_saveexec_b64 s[0:1], s[2:3]
            ],
            !s | e,
        ),
        (
            &[
                0xbe803102, // s_and_not1_saveexec_b64 s[0:1], s[2:3]
            ],
            s & !e,
        ),
        (
            &[
                0xbe803302, // s_or_not1_saveexec_b64 s[0:1], s[2:3]
            ],
            s | !e,
        ),
    ];
    for w in SIZES {
        for (words, new_exec) in cases {
            let init = [(2, lo(s)), (3, hi(s)), (EXEC_LO, lo(e)), (EXEC_HI, hi(e))];
            let h = run(w, false, &init, words);
            assert_eq!(s64(&h, 0), e);
            assert_eq!(s64(&h, EXEC_LO), new_exec);
            assert_eq!(h.wave.scc, new_exec != 0);
        }
    }
    // wave64: the lanes of both halves count for EXECZ afterwards.
    let h = run(
        true,
        false,
        &[
            (2, 0),
            (3, 1),
            (EXEC_LO, 0xffff_ffff),
            (EXEC_HI, 0xffff_ffff),
        ],
        &[
            0xbe802102, // s_and_saveexec_b64 s[0:1], s[2:3]
        ],
    );
    assert_eq!(h.wave.exec(), 1 << 32);
    assert!(h.wave.scc);
}

#[test]
fn wrexec_writes_the_new_exec_to_both() {
    for w in SIZES {
        let h = run(
            w,
            false,
            &[(1, 0x00ff_00ff), (EXEC_LO, 0x0000_ffff)],
            &[
                0xbe803601, // s_and_not1_wrexec_b32 s0, s1
            ],
        );
        assert_eq!(
            (h.s(0), h.s(EXEC_LO), h.wave.scc),
            (0x00ff_0000, 0x00ff_0000, true)
        );
        let h = run(
            w,
            false,
            &[(1, 0x00ff_00ff), (EXEC_LO, 0x0000_ffff)],
            &[
                0xbe803401, // s_and_not0_wrexec_b32 s0, s1
            ],
        );
        assert_eq!(
            (h.s(0), h.s(EXEC_LO), h.wave.scc),
            (0x0000_ff00, 0x0000_ff00, true)
        );
        let init = [(2, 1), (3, 1), (EXEC_LO, 1), (EXEC_HI, 3)];
        let h = run(
            w,
            true,
            &init,
            &[
                0xbe803502, // s_and_not0_wrexec_b64 s[0:1], s[2:3]
            ],
        );
        assert_eq!(
            (s64(&h, 0), s64(&h, EXEC_LO), h.wave.scc),
            (2 << 32, 2 << 32, true)
        );
        let h = run(
            w,
            true,
            &init,
            &[
                0xbe803702, // s_and_not1_wrexec_b64 s[0:1], s[2:3]
            ],
        );
        assert_eq!((s64(&h, 0), s64(&h, EXEC_LO), h.wave.scc), (0, 0, false));
    }
}

#[test]
fn saveexec_writes_exec_even_when_the_destination_is_dropped() {
    for w in SIZES {
        // ttmp0 is not writable outside the trap handler: D and SCC stay, EXEC changes.
        let h = run(
            w,
            true,
            &[(1, 0), (EXEC_LO, 0xffff), (TTMP0, 0x5555)],
            &[
                0xbeec2001, // s_and_saveexec_b32 ttmp0, s1
            ],
        );
        assert_eq!(h.s(EXEC_LO), 0);
        assert_eq!(h.s(TTMP0), 0x5555);
        assert!(h.wave.scc, "failed TTMP write: SCC not updated");
        let h = run(
            w,
            true,
            &[(1, 0), (EXEC_LO, 0xffff)],
            &[
                0xbeee3601, // s_and_not1_wrexec_b32 ttmp2, s1
            ],
        );
        assert_eq!(h.s(EXEC_LO), 0);
        assert!(h.wave.scc);
        // NULL: nothing written but SCC follows EXEC.
        let h = run(
            w,
            true,
            &[(1, 0), (EXEC_LO, 0xffff)],
            &[
                0xbefc2001, // s_and_saveexec_b32 null, s1
            ],
        );
        assert_eq!((h.s(EXEC_LO), h.wave.scc), (0, false));
    }
}

// ------------------------------------------------------------------------------------------
// M0-relative moves
// ------------------------------------------------------------------------------------------

#[test]
fn movrel_reads_and_writes_relative_to_m0() {
    for w in SIZES {
        let h = run(
            w,
            false,
            &[(M0, 2), (7, 0x77), (1, 0x11), (8, 0x88), (9, 0x99)],
            &[
                0xbe804005, // s_movrels_b32 s0, s5
                0xbe944201, // s_movreld_b32 s20, s1
            ],
        );
        assert_eq!(h.s(0), 0x77, "s5 + 2 = s7");
        assert_eq!(h.s(22), 0x11, "s20 + 2 = s22");
        // 64-bit: LSBs of base and index are ignored (M0 = 3 acts as 2).
        let h = run(
            w,
            false,
            &[(M0, 3), (6, 0x66), (7, 0x77), (2, 0x22), (3, 0x33)],
            &[
                0xbe804104, // s_movrels_b64 s[0:1], s[4:5]
                0xbe8a4302, // s_movreld_b64 s[10:11], s[2:3]
            ],
        );
        assert_eq!(s64(&h, 0), 0x77 << 32 | 0x66);
        assert_eq!(s64(&h, 12), 0x33 << 32 | 0x22);
        // ISA example: m0 = (20 << 16) | 10; s_movrelsd_2_b32 s5, s7 moves s17 into s25.
        let h = run(
            w,
            false,
            &[(M0, 20 << 16 | 10), (17, 0x1717)],
            &[
                0xbe854407, // s_movrelsd_2_b32 s5, s7
            ],
        );
        assert_eq!(h.s(25), 0x1717);
    }
}

#[test]
fn movrel_out_of_range_reads_s0_and_drops_writes() {
    for w in SIZES {
        // s100 + 7 = VCC_HI is still in the SGPR range.
        let h = run(
            w,
            false,
            &[(M0, 7), (VCC_HI, 0x1070), (0, 0xabc)],
            &[
                0xbe814064, // s_movrels_b32 s1, s100
            ],
        );
        assert_eq!(h.s(1), 0x1070);
        // s100 + 8 would be ttmp0: out of range, the source reads s0.
        let h = run(
            w,
            false,
            &[(M0, 8), (TTMP0, 0x1080), (0, 0xabc)],
            &[
                0xbe814064, // s_movrels_b32 s1, s100
            ],
        );
        assert_eq!(h.s(1), 0xabc);
        // Huge index: also s0.
        let h = run(
            w,
            false,
            &[(M0, 0xffff_fff0), (0, 0xabc)],
            &[
                0xbe81400a, // s_movrels_b32 s1, s10
            ],
        );
        assert_eq!(h.s(1), 0xabc);
        // Out-of-range destination: nothing written, even in the trap handler.
        let mut hh = Harness::new(w);
        hh.wave.hw.status |= status::PRIV;
        hh.wave.sgpr[M0] = 8;
        hh.wave.sgpr[1] = 0x5;
        let before = hh.wave.sgpr;
        hh.run(&[
            0xbee44201, // s_movreld_b32 s100, s1
        ])
        .unwrap();
        assert_eq!(hh.wave.sgpr, before);
        // A 64-bit pair must start at or below VCC_LO: s104 + 4 = s108 is out of range.
        let h = run(
            w,
            false,
            &[(M0, 4), (0, 0xa), (1, 0xb)],
            &[
                0xbe824168, // s_movrels_b64 s[2:3], s[104:105]
            ],
        );
        assert_eq!(s64(&h, 2), 0xb << 32 | 0xa);
    }
}

// ------------------------------------------------------------------------------------------
// SOPC
// ------------------------------------------------------------------------------------------

#[test]
fn compares_set_scc() {
    for w in SIZES {
        let init = [(1, 0xffff_ffff), (2, 1)];
        let cases: [(&[u32], bool); 14] = [
            (
                &[
                    0xbf000101, // s_cmp_eq_i32 s1, s1
                ],
                true,
            ),
            (
                &[
                    0xbf010201, // s_cmp_lg_i32 s1, s2
                ],
                true,
            ),
            (
                &[
                    0xbf020201, // s_cmp_gt_i32 s1, s2
                ],
                false,
            ),
            (
                &[
                    0xbf030202, // s_cmp_ge_i32 s2, s2
                ],
                true,
            ),
            (
                &[
                    0xbf040201, // s_cmp_lt_i32 s1, s2
                ],
                true,
            ),
            (
                &[
                    0xbf050102, // s_cmp_le_i32 s2, s1
                ],
                false,
            ),
            (
                &[
                    0xbf060201, // s_cmp_eq_u32 s1, s2
                ],
                false,
            ),
            (
                &[
                    0xbf070101, // s_cmp_lg_u32 s1, s1
                ],
                false,
            ),
            (
                &[
                    0xbf080201, // s_cmp_gt_u32 s1, s2
                ],
                true,
            ),
            (
                &[
                    0xbf090102, // s_cmp_ge_u32 s2, s1
                ],
                false,
            ),
            (
                &[
                    0xbf0a0201, // s_cmp_lt_u32 s1, s2
                ],
                false,
            ),
            (
                &[
                    0xbf0b0202, // s_cmp_le_u32 s2, s2
                ],
                true,
            ),
            (
                &[
                    0xbf0aff02, 0x80000000, // s_cmp_lt_u32 s2, 0x80000000
                ],
                true,
            ),
            (
                &[
                    0xbf04ff02, 0x80000000, // s_cmp_lt_i32 s2, 0x80000000
                ],
                false,
            ),
        ];
        for (k, (words, scc)) in cases.into_iter().enumerate() {
            let h = run(w, !scc, &init, words);
            assert_eq!(h.wave.scc, scc, "case {k}: {words:x?}");
        }
        let init = [(1, 0b10), (2, 0), (3, 0x100), (4, 0), (5, 0x101)];
        let cases: [(&[u32], bool); 8] = [
            (
                &[
                    0xbf0da101, // s_bitcmp1_b32 s1, 33
                ],
                true,
            ),
            (
                &[
                    0xbf0c8101, // s_bitcmp0_b32 s1, 1
                ],
                false,
            ),
            (
                &[
                    0xbf0c8001, // s_bitcmp0_b32 s1, 0
                ],
                true,
            ),
            (
                &[
                    0xbf0fa802, // s_bitcmp1_b64 s[2:3], 40
                ],
                true,
            ),
            (
                &[
                    0xbf0eff02, 0x00000068, // s_bitcmp0_b64 s[2:3], 104
                ],
                false,
            ),
            (
                &[
                    0xbf0f8802, // s_bitcmp1_b64 s[2:3], 8
                ],
                false,
            ),
            (
                &[
                    0xbf100402, // s_cmp_eq_u64 s[2:3], s[4:5]
                ],
                false,
            ),
            (
                &[
                    0xbf110402, // s_cmp_lg_u64 s[2:3], s[4:5]
                ],
                true,
            ),
        ];
        for (k, (words, scc)) in cases.into_iter().enumerate() {
            let h = run(w, !scc, &init, words);
            assert_eq!(h.wave.scc, scc, "case {k}: {words:x?}");
        }
        let h = run(
            w,
            false,
            &[(2, 5), (3, 6)],
            &[
                0xbf100202, // s_cmp_eq_u64 s[2:3], s[2:3]
            ],
        );
        assert!(h.wave.scc);
    }
}

// ------------------------------------------------------------------------------------------
// SOPK
// ------------------------------------------------------------------------------------------

#[test]
fn sopk_immediates_sign_or_zero_extend() {
    for w in SIZES {
        let h = run(
            w,
            true,
            &[],
            &[
                0xb0008000, // s_movk_i32 s0, 0x8000
                0xb0017fff, // s_movk_i32 s1, 0x7fff
            ],
        );
        assert_eq!((h.s(0), h.s(1)), (0xffff_8000, 0x7fff));
        assert!(h.wave.scc);
        let init = [(0, 0xffff_ffff), (1, 0x10)];
        let cases: [(&[u32], bool); 14] = [
            (
                &[
                    0xb180ffff, // s_cmpk_eq_i32 s0, 0xffff
                ],
                true,
            ), // -1 == -1
            (
                &[
                    0xb480ffff, // s_cmpk_eq_u32 s0, 0xffff
                ],
                false,
            ), // 0xffffffff != 0xffff
            (
                &[
                    0xb200ffff, // s_cmpk_lg_i32 s0, 0xffff
                ],
                false,
            ),
            (
                &[
                    0xb500ffff, // s_cmpk_lg_u32 s0, 0xffff
                ],
                true,
            ),
            (
                &[
                    0xb3818000, // s_cmpk_lt_i32 s1, 0x8000
                ],
                false,
            ), // 16 < -32768
            (
                &[
                    0xb6818000, // s_cmpk_lt_u32 s1, 0x8000
                ],
                true,
            ), // 16 < 32768
            (
                &[
                    0xb2818000, // s_cmpk_gt_i32 s1, 0x8000
                ],
                true,
            ),
            (
                &[
                    0xb5808000, // s_cmpk_gt_u32 s0, 0x8000
                ],
                true,
            ),
            (
                &[
                    0xb3010010, // s_cmpk_ge_i32 s1, 0x10
                ],
                true,
            ),
            (
                &[
                    0xb6010011, // s_cmpk_ge_u32 s1, 0x11
                ],
                false,
            ),
            (
                &[
                    0xb400ffff, // s_cmpk_le_i32 s0, 0xffff
                ],
                true,
            ),
            (
                &[
                    0xb700ffff, // s_cmpk_le_u32 s0, 0xffff
                ],
                false,
            ),
            (
                &[
                    0xb401000f, // s_cmpk_le_i32 s1, 0xf
                ],
                false,
            ),
            (
                &[
                    0xb7010010, // s_cmpk_le_u32 s1, 0x10
                ],
                true,
            ),
        ];
        for (k, (words, scc)) in cases.into_iter().enumerate() {
            let h = run(w, !scc, &init, words);
            assert_eq!(h.wave.scc, scc, "case {k}: {words:x?}");
        }
    }
}

#[test]
fn addk_sets_scc_to_signed_overflow_and_mulk_leaves_it() {
    for w in SIZES {
        let h = run(
            w,
            false,
            &[(0, 0x7fff_ffff)],
            &[
                0xb7800001, // s_addk_i32 s0, 0x1
            ],
        );
        assert_eq!((h.s(0), h.wave.scc), (0x8000_0000, true));
        let h = run(
            w,
            true,
            &[(0, 0)],
            &[
                0xb780ffff, // s_addk_i32 s0, 0xffff
            ],
        );
        assert_eq!((h.s(0), h.wave.scc), (0xffff_ffff, false));
        let h = run(
            w,
            false,
            &[(0, 0x8000_0000)],
            &[
                0xb7808000, // s_addk_i32 s0, 0x8000
            ],
        );
        assert_eq!((h.s(0), h.wave.scc), (0x7fff_8000, true));
        let h = run(
            w,
            true,
            &[(0, 3)],
            &[
                0xb800fffe, // s_mulk_i32 s0, 0xfffe
            ],
        );
        assert_eq!((h.s(0), h.wave.scc), ((-6i32) as u32, true));
    }
}

// ------------------------------------------------------------------------------------------
// Operand rules of the RDNA3 ISA guide (Wave State)
// ------------------------------------------------------------------------------------------

#[test]
fn null_destination_drops_the_value_but_updates_scc() {
    for w in SIZES {
        let h = run(
            w,
            false,
            &[(1, 0xffff_ffff), (2, 1)],
            &[
                0x807c0201, // s_add_u32 null, s1, s2
            ],
        );
        assert!(h.wave.scc);
        assert_eq!(h.s(124), 0);
        let h = run(
            w,
            true,
            &[],
            &[
                0xbf06807c, // s_cmp_eq_u32 null, 0
            ],
        );
        assert!(h.wave.scc, "NULL reads 0");
    }
}

#[test]
fn ttmp_writes_need_priv_and_a_failed_write_keeps_scc() {
    for w in SIZES {
        let h = run(
            w,
            false,
            &[(1, 0xffff_ffff), (2, 1), (TTMP0, 7)],
            &[
                0x806c0201, // s_add_u32 ttmp0, s1, s2
                0xbeee01c1, // s_mov_b64 ttmp[2:3], -1
            ],
        );
        assert_eq!(h.s(TTMP0), 7);
        assert_eq!((h.s(TTMP0 + 2), h.s(TTMP0 + 3)), (0, 0));
        assert!(!h.wave.scc, "failed TTMP write: SCC not updated");
        // Reads return 0 outside the trap handler.
        let h = run(
            w,
            false,
            &[(TTMP0, 7)],
            &[
                0xbe80006c, // s_mov_b32 s0, ttmp0
            ],
        );
        assert_eq!(h.s(0), 0);
        // In the trap handler both work.
        let mut h = Harness::new(w);
        h.wave.hw.status |= status::PRIV;
        h.wave.sgpr[1] = 0xffff_ffff;
        h.wave.sgpr[2] = 1;
        h.wave.sgpr[TTMP0 + 4] = 9;
        h.run(&[
            0x806c0201, // s_add_u32 ttmp0, s1, s2
            0xbe830070, // s_mov_b32 s3, ttmp4
        ])
        .unwrap();
        assert_eq!(h.s(TTMP0), 0);
        assert!(h.wave.scc);
        assert_eq!(h.s(3), 9);
    }
}

#[test]
fn sixty_four_bit_operands_ignore_the_register_lsb() {
    for w in SIZES {
        let h = run(
            w,
            false,
            &[(2, 0x2222), (3, 0x3333), (4, 0x4444)],
            &[
                0xbe840103, // s_mov_b64 s[4:5], s[3:4] (hand-made: odd source reads s[2:3])
            ],
        );
        assert_eq!(s64(&h, 4), 0x3333 << 32 | 0x2222);
        let h = run(
            w,
            false,
            &[(2, 0x2222), (3, 0x3333)],
            &[
                0xbe850102, // s_mov_b64 s[5:6], s[2:3] (hand-made: odd destination writes s[4:5])
            ],
        );
        assert_eq!(s64(&h, 4), 0x3333 << 32 | 0x2222);
        assert_eq!(h.s(6), 0);
    }
}

#[test]
fn special_registers_as_operands() {
    for w in SIZES {
        let h = run(
            w,
            true,
            &[(1, 0x1234)],
            &[
                0xbefd0001, // s_mov_b32 m0, s1
                0x8002817d, // s_add_u32 s2, m0, 1
                0xbe8300fd, // s_mov_b32 s3, src_scc
                0xbe84007e, // s_mov_b32 s4, exec_lo
            ],
        );
        assert_eq!(h.s(M0), 0x1234);
        assert_eq!(h.s(2), 0x1235);
        assert_eq!(
            h.s(3),
            0,
            "SCC was cleared by the s_add_u32 before it was read"
        );
        assert_eq!(h.s(4), h.wave.exec() as u32);
        let h = run(
            w,
            true,
            &[],
            &[
                0xbe8300fd, // s_mov_b32 s3, src_scc
            ],
        );
        assert_eq!(h.s(3), 1);
    }
}

#[test]
fn a_literal_sign_extends_only_for_signed_64_bit_operands() {
    for w in SIZES {
        // s_ashr_i64 reads S0 as i64, so the 32-bit literal 0x80000000 is -2^31.
        let h = run(
            w,
            false,
            &[],
            &[
                0x868084ff, 0x80000000, // s_ashr_i64 s[0:1], 0x80000000, 4
                0x858284ff, 0x80000000, // s_lshr_b64 s[2:3], 0x80000000, 4
            ],
        );
        assert_eq!(s64(&h, 0), 0xffff_ffff_f800_0000);
        assert_eq!(s64(&h, 2), 0x0800_0000);
    }
}

// ------------------------------------------------------------------------------------------
// Coverage of the table
// ------------------------------------------------------------------------------------------

#[test]
fn every_scalar_op_has_exactly_one_handler() {
    let mut n = 0;
    for &op in Op::ALL {
        if !matches!(
            op.fmt(),
            Fmt::Sop1 | Fmt::Sop2 | Fmt::Sopk | Fmt::Sopc | Fmt::Sopp
        ) {
            continue;
        }
        n += 1;
        let a = salu::handler(op).is_some();
        let b = sopp::handler(op).is_some();
        assert!(a ^ b, "{} claimed by salu: {a}, sopp: {b}", op.name());
    }
    assert!(n >= 200, "the table lists {n} scalar ops");
}

#[test]
fn unsupported_scalar_op_reports_its_name() {
    let mut h = Harness::new(false);
    let err = h
        .run(&[
            0xbb000001, // s_subvector_loop_begin s0, 1
        ])
        .unwrap_err();
    assert_eq!(
        err,
        ExecError::Unimplemented {
            name: "s_subvector_loop_begin"
        }
    );
}
