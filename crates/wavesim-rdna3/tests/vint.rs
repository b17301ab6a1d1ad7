//! Integer and bit VALU: values the RDNA3 ISA pseudocode defines, wave32 and wave64, EXEC
//! masking, carries, saturation (clamp), masked shift counts, 16-bit halves, out-of-range
//! destinations. Instruction words come from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100
//! -show-encoding` (the assembly is in the comment next to each).

use wavesim_rdna3::testing::Harness;
use wavesim_rdna3::wave::Wave;

/// Runs `words` with case `i` in lane `i` (wave32) and in lanes `i` and `i + 32` (wave64):
/// v1, v2, v3 = the case's inputs, v0 = `v0_init`. Checks v0 of every case against the
/// expected value in both wave sizes.
fn check(name: &str, words: &[u32], v0_init: u32, cases: &[([u32; 3], u32)]) {
    assert!(cases.len() <= 32);
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        let c = |l: usize| cases[(l % 32) % cases.len()].0;
        h.set_v(0, |_| v0_init);
        h.set_v(1, |l| c(l)[0]);
        h.set_v(2, |l| c(l)[1]);
        h.set_v(3, |l| c(l)[2]);
        h.run(words).unwrap();
        for (i, (ins, want)) in cases.iter().enumerate() {
            let lanes: &[usize] = if w64 { &[i, i + 32] } else { &[i] };
            for &l in lanes {
                assert_eq!(
                    h.v(0, l),
                    *want,
                    "{name} inputs {ins:#x?} lane {l} wave64={w64}: got {:#x}, want {want:#x}",
                    h.v(0, l)
                );
            }
        }
    }
}

#[test]
fn add_sub_32_and_saturation() {
    // v_add_nc_u32 v0, v1, v2
    check(
        "v_add_nc_u32",
        &[0x4a000501],
        0,
        &[
            ([1, 2, 0], 3),
            ([0xffffffff, 1, 0], 0),
            ([0x80000000, 0x80000000, 0], 0),
        ],
    );
    // v_add_nc_u32_e64 v0, v1, v2 clamp: saturates to 0xffffffff
    check(
        "v_add_nc_u32 clamp",
        &[0xd5258000, 0x00020501],
        0,
        &[([0xffffffff, 2, 0], 0xffffffff), ([5, 6, 0], 11)],
    );
    // v_sub_nc_i32 v0, v1, v2 clamp: signed saturation
    check(
        "v_sub_nc_i32 clamp",
        &[0xd7258000, 0x00020501],
        0,
        &[
            ([0x80000000, 1, 0], 0x80000000),
            ([0x7fffffff, 0xffffffff, 0], 0x7fffffff),
            ([5, 7, 0], 0xfffffffe),
        ],
    );
    // v_add_nc_u32 v0, 64, v2 / -16 / literal (inline integer constants and a literal)
    check("add 64", &[0x4a0004c0], 0, &[([0, 1, 0], 65)]);
    check("add -16", &[0x4a0004d0], 0, &[([0, 1, 0], 0xfffffff1)]);
    check(
        "add lit",
        &[0x4a0004ff, 0x12345678],
        0,
        &[([0, 1, 0], 0x12345679)],
    );
}

#[test]
fn multiplies() {
    // v_mul_lo_u32 v0, v1, v2
    check(
        "v_mul_lo_u32",
        &[0xd72c0000, 0x00020501],
        0,
        &[([0x10000, 0x10000, 0], 0), ([0xffffffff, 0xffffffff, 0], 1)],
    );
    // v_mul_hi_u32 v0, v1, v2
    check(
        "v_mul_hi_u32",
        &[0xd72d0000, 0x00020501],
        0,
        &[
            ([0xffffffff, 0xffffffff, 0], 0xfffffffe),
            ([0x10000, 0x10000, 0], 1),
        ],
    );
    // v_mul_hi_i32 v0, v1, v2
    check(
        "v_mul_hi_i32",
        &[0xd72e0000, 0x00020501],
        0,
        &[
            ([0xffffffff, 0xffffffff, 0], 0),
            ([0x80000000, 2, 0], 0xffffffff),
            ([0x7fffffff, 0x7fffffff, 0], 0x3fffffff),
        ],
    );
    // v_mul_u32_u24 v0, v1, v2: only bits [23:0] of each input count
    check(
        "v_mul_u32_u24",
        &[0x16000501],
        0,
        &[
            ([0xff000002, 0x01000003, 0], 6),
            ([0xffffff, 0xffffff, 0], 0xfe000001),
        ],
    );
    // v_mul_hi_u32_u24 v0, v1, v2
    check(
        "v_mul_hi_u32_u24",
        &[0x18000501],
        0,
        &[([0xffffff, 0xffffff, 0], 0xffff)],
    );
    // v_mul_i32_i24 v0, v1, v2: 24-bit signed inputs
    check(
        "v_mul_i32_i24",
        &[0x12000501],
        0,
        &[
            ([0x00ffffff, 5, 0], 0xfffffffb),
            ([0x00800000, 2, 0], 0xff000000),
            ([0xff000004, 3, 0], 12),
        ],
    );
    // v_mul_hi_i32_i24 v0, v1, v2
    check(
        "v_mul_hi_i32_i24",
        &[0x14000501],
        0,
        &[
            ([0x800000, 0x800000, 0], 0x4000),
            ([0xffffff, 1, 0], 0xffffffff),
        ],
    );
    // v_mad_u32_u24 v0, v1, v2, v3: product + addend wraps mod 2^32
    check(
        "v_mad_u32_u24",
        &[0xd60b0000, 0x040e0501],
        0,
        &[([0xff000002, 3, 0xffffffff], 5)],
    );
}

#[test]
fn shifts_mask_their_counts() {
    // v_lshlrev_b32 v0, v1, v2 (count in v1)
    check(
        "v_lshlrev_b32",
        &[0x30000501],
        0,
        &[
            ([33, 1, 0], 2),
            ([31, 1, 0], 0x80000000),
            ([32, 0xff, 0], 0xff),
        ],
    );
    // v_ashrrev_i32 v0, v1, v2
    check(
        "v_ashrrev_i32",
        &[0x34000501],
        0,
        &[
            ([31, 0x80000000, 0], 0xffffffff),
            ([33, 0x80000000, 0], 0xc0000000),
        ],
    );
    // v_lshlrev_b16 v0, v1, v2: count [3:0]; the high half of v0 is kept
    check(
        "v_lshlrev_b16",
        &[0xd7380000, 0x00020501],
        0x55555555,
        &[([17, 0xabcd8001, 0], 0x55550002)],
    );
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.set_v(1, |_| 65);
        h.set_v(6, |_| 0);
        h.set_v(7, |_| 0x80000000);
        // v_lshrrev_b64 v[4:5], v1, v[6:7]: count [5:0] = 1
        h.run(&[0xd73d0004, 0x00020d01]).unwrap();
        assert_eq!((h.v(4, 3), h.v(5, 3)), (0, 0x40000000));
        h.set_v(1, |_| 68);
        // v_ashrrev_i64 v[4:5], v1, v[6:7]: count 4, sign bits shifted in
        h.run(&[0xd73e0004, 0x00020d01]).unwrap();
        assert_eq!((h.v(4, 3), h.v(5, 3)), (0, 0xf8000000));
    }
}

#[test]
fn bit_fields_and_counts() {
    // v_bfe_u32 v0, v1, v2, v3 (data, offset, width; both [4:0])
    check(
        "v_bfe_u32",
        &[0xd6100000, 0x040e0501],
        0,
        &[
            ([0xabcd1234, 8, 8], 0x12),
            ([0xabcd1234, 36, 4], 0x3),
            ([0xabcd1234, 0, 0], 0),
            ([0xffffffff, 0, 31], 0x7fffffff),
            ([0xabcd1234, 28, 8], 0xa),
        ],
    );
    // v_bfe_i32 v0, v1, v2, v3: sign-extends the field
    check(
        "v_bfe_i32",
        &[0xd6110000, 0x040e0501],
        0,
        &[
            ([0x80, 0, 8], 0xffffff80),
            ([0x12345678, 4, 4], 7),
            ([0xf0, 4, 4], 0xffffffff),
            ([0xf0, 4, 0], 0),
        ],
    );
    // v_bfi_b32 v0, v1, v2, v3: (S0 & S1) | (~S0 & S2)
    check(
        "v_bfi_b32",
        &[0xd6120000, 0x040e0501],
        0,
        &[([0xff00ff00, 0x12345678, 0xabcdef01], 0x12cd5601)],
    );
    // v_bfm_b32 v0, v1, v2: ((1 << size) - 1) << offset
    check(
        "v_bfm_b32",
        &[0xd71d0000, 0x00020501],
        0,
        &[
            ([8, 4, 0], 0xff0),
            ([32, 3, 0], 0),
            ([31, 1, 0], 0xfffffffe),
        ],
    );
    // v_bcnt_u32_b32 v0, v1, v2
    check(
        "v_bcnt_u32_b32",
        &[0xd71e0000, 0x00020501],
        0,
        &[([0xf0f0f0f0, 5, 0], 21)],
    );
    // ISA functional examples of v_clz_i32_u32 / v_ctz_i32_b32 / v_cls_i32
    check(
        "v_clz_i32_u32",
        &[0x7e007301],
        0,
        &[
            ([0, 0, 0], 0xffffffff),
            ([0x800000ff, 0, 0], 0),
            ([0x100000ff, 0, 0], 3),
            ([0x0000ffff, 0, 0], 16),
            ([1, 0, 0], 31),
        ],
    );
    check(
        "v_ctz_i32_b32",
        &[0x7e007501],
        0,
        &[
            ([0, 0, 0], 0xffffffff),
            ([0xff000001, 0, 0], 0),
            ([0xff000008, 0, 0], 3),
            ([0xffff0000, 0, 0], 16),
            ([0x80000000, 0, 0], 31),
        ],
    );
    check(
        "v_cls_i32",
        &[0x7e007701],
        0,
        &[
            ([0, 0, 0], 0xffffffff),
            ([0x40000000, 0, 0], 1),
            ([0x80000000, 0, 0], 1),
            ([0x0fffffff, 0, 0], 4),
            ([0xffff0000, 0, 0], 16),
            ([0xfffffffe, 0, 0], 31),
            ([0xffffffff, 0, 0], 0xffffffff),
        ],
    );
    // v_bfrev_b32 v0, v1
    check(
        "v_bfrev_b32",
        &[0x7e007101],
        0,
        &[([1, 0, 0], 0x80000000), ([0x12345678, 0, 0], 0x1e6a2c48)],
    );
}

#[test]
fn mbcnt_gives_lane_ids() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        // v_mbcnt_lo_u32_b32 v0, -1, 0 ; v_mbcnt_hi_u32_b32 v0, -1, v0
        h.run(&[0xd71f0000, 0x000100c1, 0xd7200000, 0x000200c1])
            .unwrap();
        for l in 0..h.wave.lanes() {
            assert_eq!(h.v(0, l), l as u32, "wave64={w64}");
        }
        // Counting set mask bits below the lane: mask 0b1011 in v1 (lo) and v2 (hi).
        h.set_v(1, |_| 0b1011);
        h.set_v(2, |_| 1);
        // v_mbcnt_lo_u32_b32 v0, v1, 0 ; v_mbcnt_hi_u32_b32 v0, v2, v0
        let lo = 0xd71f0000u32;
        h.run(&[lo, 0x00010101, 0xd7200000, 0x00020102]).unwrap();
        assert_eq!(h.v(0, 0), 0);
        assert_eq!(h.v(0, 1), 1);
        assert_eq!(h.v(0, 2), 2);
        assert_eq!(h.v(0, 4), 3);
        if w64 {
            // Lanes >= 32 count all of the low mask plus the high mask bits below them.
            assert_eq!(h.v(0, 32), 3);
            assert_eq!(h.v(0, 33), 4);
        }
    }
}

#[test]
fn align_and_perm() {
    // v_alignbit_b32 v0, v1, v2, v3: ({S0, S1} >> S2[4:0])[31:0]
    check(
        "v_alignbit_b32",
        &[0xd6160000, 0x040e0501],
        0,
        &[
            ([0x12345678, 0x9abcdef0, 8], 0x789abcde),
            ([0x12345678, 0x9abcdef0, 40], 0x789abcde),
            ([0x12345678, 0x9abcdef0, 0], 0x9abcdef0),
        ],
    );
    // v_alignbyte_b32 v0, v1, v2, v3: shift by S2[1:0] bytes
    check(
        "v_alignbyte_b32",
        &[0xd6170000, 0x040e0501],
        0,
        &[
            ([0x12345678, 0x9abcdef0, 1], 0x789abcde),
            ([0x12345678, 0x9abcdef0, 5], 0x789abcde),
            ([0x12345678, 0x9abcdef0, 3], 0x3456789a),
        ],
    );
    // v_perm_b32 v0, v1, v2, v3: bytes of {S0, S1}; 8-11 sign of bytes 1/3/5/7; 12 = 0; 13+ = 0xff
    check(
        "v_perm_b32",
        &[0xd6440000, 0x040e0501],
        0,
        &[
            ([0x11223344, 0x55667788, 0x07060504], 0x11223344),
            ([0x11223344, 0x55667788, 0x0c0d0800], 0x00ff0088),
            ([0xf0000000, 0x0000f000, 0x0a0b0908], 0x00ff00ff),
            ([0, 0, 0x0e0f0d0c], 0xffffff00),
        ],
    );
}

#[test]
fn sad_family_and_lerp() {
    check(
        "v_sad_u8",
        &[0xd6220000, 0x040e0501],
        0,
        &[
            ([0x01020304, 0x04030201, 10], 18),
            ([0xff00ff00, 0x00ff00ff, 0], 1020),
        ],
    );
    check(
        "v_sad_hi_u8",
        &[0xd6230000, 0x040e0501],
        0,
        &[([0x01020304, 0x04030201, 10], 0x8000a)],
    );
    check(
        "v_sad_u16",
        &[0xd6240000, 0x040e0501],
        0,
        &[([0x0001ffff, 0xffff0001, 1], 0x1fffd)],
    );
    check(
        "v_sad_u32",
        &[0xd6250000, 0x040e0501],
        0,
        &[([5, 0xffffffff, 3], 0xfffffffd), ([0xffffffff, 0, 2], 1)],
    );
    // v_msad_u8: bytes whose reference (S1) byte is 0 are skipped
    check(
        "v_msad_u8",
        &[0xd6390000, 0x040e0501],
        0,
        &[([0x01020304, 0x00030201, 0], 5)],
    );
    // v_lerp_u8: per byte (a + b + round bit) >> 1
    check(
        "v_lerp_u8",
        &[0xd6150000, 0x040e0501],
        0,
        &[
            ([0x01020304, 0x01020305, 0x01000100], 0x01020304),
            ([0xff, 0xff, 1], 0xff),
            ([3, 0, 1], 2),
            ([3, 0, 0], 1),
        ],
    );
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.set_v(6, |_| 0x04030201);
        h.set_v(7, |_| 0x08070605);
        h.set_v(1, |_| 0x04030201);
        h.set_v(8, |_| 0x0002_0001);
        h.set_v(9, |_| 0x0004_0003);
        // v_qsad_pk_u16_u8 v[4:5], v[6:7], v1, v[8:9]
        h.run(&[0xd63a0004, 0x04220306]).unwrap();
        assert_eq!((h.v(4, 5), h.v(5, 5)), (0x0006_0001, 0x0010_000b));
        h.set_v(1, |_| 0x04030200);
        for (k, v) in [100, 200, 300, 400].into_iter().enumerate() {
            h.set_v(14 + k, |_| v);
        }
        // v_mqsad_u32_u8 v[10:13], v[6:7], v1, v[14:17]
        h.run(&[0xd63d000a, 0x043a0306]).unwrap();
        assert_eq!(
            [h.v(10, 1), h.v(11, 1), h.v(12, 1), h.v(13, 1)],
            [100, 203, 306, 409]
        );
    }
}

#[test]
fn min_max_med3() {
    let neg = |x: i32| x as u32;
    check(
        "v_med3_i32",
        &[0xd6200000, 0x040e0501],
        0,
        &[
            ([1, 3, 2], 2),
            ([neg(-5), 7, 0], 0),
            ([5, 5, 1], 5),
            ([0x80000000, 0x7fffffff, 0], 0),
        ],
    );
    check(
        "v_med3_u32",
        &[0xd6210000, 0x040e0501],
        0,
        &[([0xffffffff, 0, 7], 7)],
    );
    check(
        "v_min3_i32",
        &[0xd61a0000, 0x040e0501],
        0,
        &[([neg(-1), 5, 3], neg(-1))],
    );
    // v_maxmin_i32: min(max(S0, S1), S2)
    check(
        "v_maxmin_i32",
        &[0xd6640000, 0x040e0501],
        0,
        &[([1, 5, 3], 3), ([neg(-1), neg(-5), 0], neg(-1))],
    );
    // v_minmax_u32: max(min(S0, S1), S2)
    check(
        "v_minmax_u32",
        &[0xd6630000, 0x040e0501],
        0,
        &[([10, 20, 15], 15), ([0xffffffff, 3, 1], 3)],
    );
    // 16-bit: result in v0[15:0], v0[31:16] kept
    check(
        "v_max_i16",
        &[0xd70a0000, 0x00020501],
        0xaaaa0000,
        &[
            ([0x8000, 1, 0], 0xaaaa0001),
            ([0xfffffffe, 0x0000ffff, 0], 0xaaaaffff),
        ],
    );
    check(
        "v_med3_i16",
        &[0xd6500000, 0x040e0501],
        0,
        &[([0x8000, 0x7fff, 0], 0)],
    );
    check(
        "v_min3_u16",
        &[0xd64b0000, 0x040e0501],
        0,
        &[([5, 3, 0xffff], 3)],
    );
}

#[test]
fn sixteen_bit_arith_op_sel_and_clamp() {
    // v_add_nc_i16 v0, v1, v2 clamp
    check(
        "v_add_nc_i16 clamp",
        &[0xd70d8000, 0x00020501],
        0,
        &[
            ([0x7fff, 1, 0], 0x7fff),
            ([0x8000, 0xffff, 0], 0x8000),
            ([5, 0xfffe, 0], 3),
        ],
    );
    // v_add_nc_u16 v0, v1, v2 (wraps)
    check(
        "v_add_nc_u16",
        &[0xd7030000, 0x00020501],
        0,
        &[([0xffff, 2, 0], 1)],
    );
    // v_sub_nc_u16 v0, v1, v2 clamp
    check(
        "v_sub_nc_u16 clamp",
        &[0xd7048000, 0x00020501],
        0,
        &[([3, 5, 0], 0), ([10, 3, 0], 7)],
    );
    // v_add_nc_u16 v0.h, v1.h, v2.l: op_sel[0] (bit 11) and op_sel[3] (bit 14) set by hand
    check(
        "v_add_nc_u16 op_sel",
        &[0xd7030000 | 1 << 11 | 1 << 14, 0x00020501],
        0xaaaabbbb,
        &[([0x00050009, 0x12340003, 0], 0x0008bbbb)],
    );
    // v_mad_u16 v0, v1, v2, v3
    check(
        "v_mad_u16",
        &[0xd6410000, 0x040e0501],
        0,
        &[([0xffff, 0xffff, 5], 6)],
    );
    // v_mad_u32_u16 v0, v1, v2, v3 and with op_sel:[1,1,0,0]
    check(
        "v_mad_u32_u16",
        &[0xd6590000, 0x040e0501],
        0,
        &[([0x0001ffff, 0x0002ffff, 10], 0xfffe000b)],
    );
    check(
        "v_mad_u32_u16 hi",
        &[0xd6591800, 0x040e0501],
        0,
        &[([0x0001ffff, 0x0002ffff, 10], 12)],
    );
    // v_mad_i32_i16 v0, v1, v2, v3
    check(
        "v_mad_i32_i16",
        &[0xd65a0000, 0x040e0501],
        0,
        &[([0xffff, 3, 0xfffffff0], 0xffffffed)],
    );
}

#[test]
fn conversions_and_packing() {
    // v_cvt_pk_u16_u32 / v_cvt_pk_i16_i32 saturate each half
    check(
        "v_cvt_pk_u16_u32",
        &[0xd7230000, 0x00020501],
        0,
        &[([0x12345, 7, 0], 0x0007ffff)],
    );
    check(
        "v_cvt_pk_i16_i32",
        &[0xd7240000, 0x00020501],
        0,
        &[
            ([0xffff0000, 0x8000, 0], 0x7fff8000),
            ([5, 0xfffffffb, 0], 0xfffb0005),
        ],
    );
    // v_sat_pk_u8_i16 v0, v1: 16-bit result into v0[15:0]
    check(
        "v_sat_pk_u8_i16",
        &[0x7e00c501],
        0x12345678,
        &[
            ([0x0100ff80, 0, 0], 0x1234ff00),
            ([0x007f0005, 0, 0], 0x12347f05),
        ],
    );
    // v_cvt_i32_i16 v0, v1
    check(
        "v_cvt_i32_i16",
        &[0x7e00d501],
        0,
        &[([0x12348001, 0, 0], 0xffff8001)],
    );
}

#[test]
fn three_input_logic_and_adds() {
    check(
        "v_xad_u32",
        &[0xd6450000, 0x040e0501],
        0,
        &[([0xf0, 0x0f, 1], 0x100)],
    );
    check(
        "v_lshl_add_u32",
        &[0xd6460000, 0x040e0501],
        0,
        &[([1, 33, 5], 7)],
    );
    check(
        "v_add_lshl_u32",
        &[0xd6470000, 0x040e0501],
        0,
        &[([1, 2, 4], 48)],
    );
    check(
        "v_lshl_or_b32",
        &[0xd6560000, 0x040e0501],
        0,
        &[([1, 4, 1], 17)],
    );
    check(
        "v_and_or_b32",
        &[0xd6570000, 0x040e0501],
        0,
        &[([0xff00, 0x0ff0, 1], 0x0f01)],
    );
    check("v_or3_b32", &[0xd6580000, 0x040e0501], 0, &[([1, 2, 4], 7)]);
    check(
        "v_xor3_b32",
        &[0xd6400000, 0x040e0501],
        0,
        &[([7, 1, 2], 4)],
    );
    check(
        "v_add3_u32",
        &[0xd6550000, 0x040e0501],
        0,
        &[([0xffffffff, 1, 5], 5)],
    );
    check(
        "v_xnor_b32",
        &[0x3c000501],
        0,
        &[([0xf0f0f0f0, 0xff00ff00, 0], 0xf00ff00f)],
    );
    check("v_not_b32", &[0x7e006f01], 0, &[([0, 0, 0], 0xffffffff)]);
}

/// Expected carry mask over the wave's lanes: `f(lane)` for lanes in `exec`, 0 elsewhere.
fn mask_of(lanes: usize, exec: u64, f: impl Fn(usize) -> bool) -> u64 {
    (0..lanes)
        .filter(|&l| exec >> l & 1 != 0 && f(l))
        .fold(0, |m, l| m | 1 << l)
}

#[test]
fn add_co_carry_out_exec_partial() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        let n = h.wave.lanes();
        let exec = h.wave.lane_mask() & !(1 << 4) & !(1 << 40);
        h.wave.set_exec(exec);
        h.set_v(0, |_| 0xdead);
        h.set_v(1, |_| 0xffffffff);
        h.set_v(2, |l| (l % 3) as u32);
        // v_add_co_u32 v0, s4, v1, v2 (s[4:5] in wave64)
        h.run(&[0xd7000400, 0x00020501]).unwrap();
        let want = mask_of(n, exec, |l| l % 3 != 0);
        let got = h.s(4) as u64 | if w64 { (h.s(5) as u64) << 32 } else { 0 };
        assert_eq!(got, want, "wave64={w64}");
        assert_eq!(h.v(0, 4), 0xdead, "inactive lane kept");
        assert_eq!(h.v(0, 5), 1);
        assert_eq!(h.v(0, 3), 0xffffffff);
        if w64 {
            assert_eq!(h.v(0, 40), 0xdead);
            assert_eq!(h.v(0, 41), (41 % 3) as u32 - 1);
        }
    }
}

#[test]
fn carry_mask_written_with_exec_zero() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.wave.set_exec(0);
        h.wave.sgpr[4] = 0xdeadbeef;
        h.wave.sgpr[5] = 0xdeadbeef;
        h.set_v(1, |_| 0xffffffff);
        h.set_v(2, |_| 1);
        h.run(&[0xd7000400, 0x00020501]).unwrap();
        assert_eq!(h.s(4), 0);
        assert_eq!(h.s(5), if w64 { 0 } else { 0xdeadbeef });
    }
}

#[test]
fn add_co_ci_vcc_wave64_uses_high_half() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        let vcc_in: u64 = 0x0000_ffff_5555_5555 & h.wave.lane_mask();
        h.wave.set_vcc(vcc_in);
        h.set_v(1, |_| 0xffffffff);
        h.set_v(2, |_| 0);
        // v_add_co_ci_u32 v0, vcc_lo, v1, v2, vcc_lo
        h.run(&[0x40000501]).unwrap();
        assert_eq!(h.wave.vcc(), vcc_in, "carry out = carry in here");
        for l in 0..h.wave.lanes() {
            let want = if vcc_in >> l & 1 != 0 { 0 } else { 0xffffffff };
            assert_eq!(h.v(0, l), want, "lane {l}");
        }
    }
}

#[test]
fn sub_co_ci_e64_borrows() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        let cin: u64 = 0xf0f0_0000_0000_00ff & h.wave.lane_mask();
        h.wave.sgpr[6] = cin as u32;
        h.wave.sgpr[7] = (cin >> 32) as u32;
        h.set_v(1, |_| 5);
        h.set_v(2, |l| if l == 2 { 6 } else { 5 });
        // v_sub_co_ci_u32_e64 v0, s8, v1, v2, s6
        h.run(&[0xd5210800, 0x001a0501]).unwrap();
        let want = cin | 1 << 2;
        let got = h.s(8) as u64 | if w64 { (h.s(9) as u64) << 32 } else { 0 };
        assert_eq!(got, want);
        assert_eq!(h.v(0, 0), 0xffffffff);
        assert_eq!(h.v(0, 8), 0);
        assert_eq!(h.v(0, 2), 0xfffffffe, "5 - 6 - 1");
        // v_subrev_co_u32 v0, s4, v1, v2: v2 - v1, borrow when v1 > v2
        h.set_v(1, |l| l as u32);
        h.set_v(2, |_| 10);
        h.run(&[0xd7020400, 0x00020501]).unwrap();
        let n = h.wave.lanes();
        let got = h.s(4) as u64 | if w64 { (h.s(5) as u64) << 32 } else { 0 };
        assert_eq!(got, mask_of(n, u64::MAX, |l| l > 10));
        assert_eq!(h.v(0, 11), 0xffffffff);
        assert_eq!(h.v(0, 3), 7);
    }
}

#[test]
fn mad_64_with_carry() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        // lane 0: (2^32-1)^2 + 2^64-1 overflows 64 bits; lane 1: 2 * 3 + 4
        h.set_v(1, |l| if l == 0 { 0xffffffff } else { 2 });
        h.set_v(2, |l| if l == 0 { 0xffffffff } else { 3 });
        h.set_v(6, |l| if l == 0 { 0xffffffff } else { 4 });
        h.set_v(7, |l| if l == 0 { 0xffffffff } else { 0 });
        // v_mad_u64_u32 v[4:5], s10, v1, v2, v[6:7]
        h.run(&[0xd6fe0a04, 0x041a0501]).unwrap();
        assert_eq!((h.v(4, 0), h.v(5, 0)), (0, 0xfffffffe));
        assert_eq!((h.v(4, 1), h.v(5, 1)), (10, 0));
        assert_eq!(h.s(10), 1);
        // ... with clamp: saturates to 2^64-1
        h.run(&[0xd6fe8a04, 0x041a0501]).unwrap();
        assert_eq!((h.v(4, 0), h.v(5, 0)), (0xffffffff, 0xffffffff));
        // v_mad_i64_i32: -1 * 1 + 0 = -1, bit 64 of the 65-bit result is the sign
        h.set_v(1, |l| if l == 0 { 0xffffffff } else { 2 });
        h.set_v(2, |l| if l == 0 { 1 } else { 3 });
        h.set_v(6, |l| if l == 0 { 0 } else { 4 });
        h.set_v(7, |_| 0);
        h.run(&[0xd6ff0a04, 0x041a0501]).unwrap();
        assert_eq!((h.v(4, 0), h.v(5, 0)), (0xffffffff, 0xffffffff));
        assert_eq!((h.v(4, 1), h.v(5, 1)), (10, 0));
        assert_eq!(h.s(10), 1);
    }
}

#[test]
fn out_of_range_destination_is_a_nop() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.wave = Wave::new(w64, 8);
        h.wave.set_exec(u64::MAX);
        h.wave.sgpr[4] = 0x1234;
        h.set_v(1, |_| 0xffffffff);
        h.set_v(2, |_| 1);
        // v_add_nc_u32 v10, v1, v2 ; v_add_co_u32 v10, s4, v1, v2
        h.run(&[0x4a140501, 0xd700040a, 0x00020501]).unwrap();
        assert_eq!(h.s(4), 0x1234, "no destination is written");
        for r in 0..8 {
            if r != 1 && r != 2 {
                assert_eq!(h.v(r, 0), 0);
            }
        }
    }
}

#[test]
fn every_valu_op_is_claimed() {
    use wavesim_rdna3::exec::FAMILIES;
    use wavesim_rdna3::isa::{Fmt, Op};
    let missing: Vec<&str> = Op::ALL
        .iter()
        .filter(|op| {
            matches!(
                op.fmt(),
                Fmt::Vop1 | Fmt::Vop2 | Fmt::Vop3 | Fmt::Vop3sd | Fmt::Vop3p | Fmt::Vopc
            )
        })
        .filter(|&&op| FAMILIES.iter().all(|(_, f)| f(op).is_none()))
        .map(|op| op.name())
        .collect();
    assert!(missing.is_empty(), "unclaimed VALU ops: {missing:?}");
}
