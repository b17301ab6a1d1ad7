//! VOPD dual issue (RDNA3 ISA 7.6): both halves read their sources before either writes, the
//! shared literal / K, v_dual_cndmask with VCC, v_dual_dot2acc, inline constants, EXEC, the
//! wave64 skip and the destination range rule.
//! Words from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding`.

use wavesim_rdna3::testing::Harness;
use wavesim_rdna3::wave::Wave;

const MODE_DEFAULT: u32 = 0xf0 | 1 << 8 | 1 << 9;

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn h32() -> Harness {
    let mut h = Harness::new(false);
    h.wave.hw.mode = MODE_DEFAULT;
    h
}

#[test]
fn both_halves_read_old_values() {
    let mut h = h32();
    h.set_v(0, |l| l as u32);
    h.set_v(1, |l| 100 + l as u32);
    h.wave.set_exec(!(1u64 << 3) & 0xffff_ffff);
    // v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v1, v0 (a swap)
    h.run(&[0xca100101, 0x00000100]).unwrap();
    assert_eq!((h.v(0, 5), h.v(1, 5)), (105, 5));
    assert_eq!((h.v(0, 3), h.v(1, 3)), (3, 103), "inactive lane untouched");
}

#[test]
fn fmac_and_integer_half() {
    let mut h = h32();
    h.set_v(0, |_| f(0.5));
    h.set_v(1, |_| f(2.0));
    h.set_v(2, |_| f(3.0));
    h.set_v(4, |_| 0xffffffff);
    h.set_v(5, |_| 2);
    // v_dual_fmac_f32 v0, v1, v2 :: v_dual_add_nc_u32 v3, v4, v5
    h.run(&[0xc8200501, 0x00020b04]).unwrap();
    assert_eq!((h.v(0, 7), h.v(3, 7)), (f(6.5), 1));
}

#[test]
fn fmaak_and_fmamk_share_the_literal() {
    let mut h = h32();
    h.set_v(1, |_| f(3.0));
    h.set_v(2, |_| f(4.0));
    h.set_v(4, |_| f(5.0));
    h.set_v(5, |_| f(1.0));
    // v_dual_fmaak_f32 v0, v1, v2, 2.0 :: v_dual_fmamk_f32 v3, v4, 2.0, v5
    h.run(&[0xc8440501, 0x00020b04, 0x40000000]).unwrap();
    assert_eq!(h.v(0, 0), f(14.0), "3 * 4 + K");
    assert_eq!(h.v(3, 0), f(11.0), "5 * K + 1");
}

#[test]
fn cndmask_uses_vcc_and_lshlrev() {
    let mut h = h32();
    h.wave.set_vcc(0b1010);
    h.set_v(1, |_| 111);
    h.set_v(2, |_| 222);
    h.set_v(4, |_| 33); // shift count & 31 = 1
    h.set_v(5, |_| 0x40000001);
    // v_dual_cndmask_b32 v0, v1, v2 :: v_dual_lshlrev_b32 v3, v4, v5
    h.run(&[0xca620501, 0x00020b04]).unwrap();
    assert_eq!(
        [h.v(0, 0), h.v(0, 1), h.v(0, 2), h.v(0, 3)],
        [111, 222, 111, 222]
    );
    assert_eq!(h.v(3, 0), 0x80000002);
}

#[test]
fn dot2acc_and_and() {
    let mut h = h32();
    h.set_v(0, |_| f(0.5));
    h.set_v(1, |_| 0x4000_3c00); // f16 (1.0, 2.0)
    h.set_v(2, |_| 0x4200_4000); // f16 (2.0, 3.0)
    h.set_v(4, |_| 0xff00ff00);
    h.set_v(5, |_| 0x0ff00ff0);
    // v_dual_dot2acc_f32_f16 v0, v1, v2 :: v_dual_and_b32 v3, v4, v5
    h.run(&[0xcb240501, 0x00020b04]).unwrap();
    assert_eq!(h.v(0, 9), f(8.5), "0.5 + 1 * 2 + 2 * 3");
    assert_eq!(h.v(3, 9), 0x0f000f00);
    // v_dual_dot2acc_f32_f16 v0, 1.0, v2 :: v_dual_mov_b32 v3, 0x12345678: the inline 1.0
    // feeds both halves (f16 0x3c00 duplicated)
    h.set_v(0, |_| f(0.5));
    h.run(&[0xcb1004f2, 0x000200ff, 0x12345678]).unwrap();
    assert_eq!(h.v(0, 0), f(5.5), "0.5 + 2 + 3");
    assert_eq!(h.v(3, 0), 0x12345678);
}

#[test]
fn float_pairs() {
    let mut h = h32();
    h.set_v(1, |_| f(5.0));
    h.set_v(2, |_| f(2.0));
    h.set_v(4, |_| f(1.0));
    h.set_v(5, |_| f(8.0));
    // v_dual_sub_f32 v0, v1, v2 :: v_dual_subrev_f32 v3, v4, v5
    h.run(&[0xc94c0501, 0x00020b04]).unwrap();
    assert_eq!((h.v(0, 0), h.v(3, 0)), (f(3.0), f(7.0)));
    // v_dual_min_f32 v0, v1, v2 :: v_dual_max_f32 v3, v4, v5 (a quiet NaN loses)
    h.set_v(5, |_| 0x7fc00000);
    h.run(&[0xcad40501, 0x00020b04]).unwrap();
    assert_eq!((h.v(0, 0), h.v(3, 0)), (f(2.0), f(1.0)));
    // v_dual_mul_dx9_zero_f32 v0, v1, v2 :: v_dual_mul_f32 v3, v4, v5: 0 * inf = 0 (DX9),
    // 0 * inf = NaN (IEEE)
    h.set_v(1, |_| 0);
    h.set_v(2, |_| f(f32::INFINITY));
    h.set_v(4, |_| 0);
    h.set_v(5, |_| f(f32::INFINITY));
    h.run(&[0xc9c60501, 0x00020b04]).unwrap();
    assert_eq!(h.v(0, 0), 0);
    assert!(f32::from_bits(h.v(3, 0)).is_nan());
    // v_dual_add_f32 v0, 2.0, v2 :: v_dual_mov_b32 v3, s1
    h.set_v(2, |_| f(1.5));
    h.wave.sgpr[1] = 0xabcdef;
    h.run(&[0xc91004f4, 0x00020001]).unwrap();
    assert_eq!((h.v(0, 0), h.v(3, 0)), (f(3.5), 0xabcdef));
}

#[test]
fn skipped_in_wave64() {
    let mut h = Harness::new(true);
    h.set_v(1, |_| 7);
    // v_dual_mov_b32 v0, v1 :: v_dual_mov_b32 v1, v0
    h.run(&[0xca100101, 0x00000100]).unwrap();
    assert_eq!((h.v(0, 0), h.v(1, 0)), (0, 7));
}

#[test]
fn out_of_range_destination_drops_both() {
    let mut h = h32();
    h.wave = Wave::new(false, 4);
    h.wave.set_exec(u64::MAX);
    h.set_v(1, |_| f(3.0));
    h.set_v(2, |_| f(4.0));
    // v_dual_fmaak_f32 v0, v1, v2, 2.0 :: v_dual_fmamk_f32 v3, v4, 2.0, v5 - v4/v5 are out of
    // range (read as v0 / v1), v3 is in range; all destinations exist, so both are written.
    h.run(&[0xc8440501, 0x00020b04, 0x40000000]).unwrap();
    assert_eq!(h.v(0, 0), f(14.0));
    assert_eq!(h.v(3, 0), f(3.0), "old v0 (0) * K + v1 (3)");
    // v_dual_fmac_f32 v0, v1, v2 :: v_dual_add_nc_u32 v3, v4, v5 with only 3 VGPRs: v3 is out
    // of range, so neither half writes.
    let mut h = h32();
    h.wave = Wave::new(false, 3);
    h.wave.set_exec(u64::MAX);
    h.set_v(0, |_| f(1.0));
    h.set_v(1, |_| f(2.0));
    h.set_v(2, |_| f(3.0));
    h.run(&[0xc8200501, 0x00020b04]).unwrap();
    assert_eq!(h.v(0, 0), f(1.0));
}
