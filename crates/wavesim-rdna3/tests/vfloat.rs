//! Floating-point VALU: values the RDNA3 ISA defines (IEEE-754 results, MODE rounding and
//! denormal control, NaN rules of the opcode pseudocode, modifiers), wave32 and wave64.
//! Instruction words come from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding`.

use wavesim_rdna3::testing::Harness;

/// MODE: round to nearest even, all denormals kept, DX10_CLAMP and IEEE set (what compute
/// kernels start with).
const MODE_DEFAULT: u32 = 0xf0 | 1 << 8 | 1 << 9;

fn h(w64: bool) -> Harness {
    let mut h = Harness::new(w64);
    h.wave.hw.mode = MODE_DEFAULT;
    h
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn set_f(h: &mut Harness, r: usize, x: f32) {
    h.set_v(r, |_| x.to_bits());
}

fn set_d(h: &mut Harness, r: usize, x: f64) {
    let b = x.to_bits();
    h.set_v(r, |_| b as u32);
    h.set_v(r + 1, |_| (b >> 32) as u32);
}

fn d(h: &Harness, r: usize, lane: usize) -> f64 {
    f64::from_bits(h.v(r, lane) as u64 | (h.v(r + 1, lane) as u64) << 32)
}

/// Runs a binary f32 op `words` (dst v2, srcs v0, v1) on one pair of inputs, returns v2 bits.
fn bin32(mode: u32, words: &[u32], a: u32, b: u32) -> u32 {
    let mut h = h(false);
    h.wave.hw.mode = mode;
    h.set_v(0, |_| a);
    h.set_v(1, |_| b);
    h.run(words).unwrap();
    h.v(2, 0)
}

fn un32(mode: u32, words: &[u32], a: u32) -> u32 {
    bin32(mode, words, a, 0)
}

const ADD_F32: [u32; 1] = [0x06040300]; // v_add_f32_e32 v2, v0, v1
const SUB_F32: [u32; 1] = [0x08040300]; // v_sub_f32_e32 v2, v0, v1
const MUL_F32: [u32; 1] = [0x10040300]; // v_mul_f32_e32 v2, v0, v1
const MIN_F32: [u32; 1] = [0x1e040300]; // v_min_f32_e32 v2, v0, v1
const MAX_F32: [u32; 1] = [0x20040300]; // v_max_f32_e32 v2, v0, v1

#[test]
fn add_f32_exec_masks_wave32_and_wave64() {
    for w64 in [false, true] {
        let mut h = h(w64);
        h.set_v(0, |l| f(l as f32));
        h.set_v(1, |_| f(0.5));
        h.set_v(2, |_| 0xdead_beef);
        let exec = 0x8000_0001_5555_5555u64;
        h.wave.set_exec(exec);
        h.run(&ADD_F32).unwrap();
        for l in 0..64 {
            let active = l < h.wave.lanes() && exec >> l & 1 != 0;
            let want = if active {
                f(l as f32 + 0.5)
            } else {
                0xdead_beef
            };
            assert_eq!(h.v(2, l), want, "wave64={w64} lane {l}");
        }
    }
}

#[test]
fn exec_zero_writes_nothing() {
    let mut h = h(true);
    h.set_v(2, |_| 7);
    h.wave.set_exec(0);
    h.run(&ADD_F32).unwrap();
    assert!((0..64).all(|l| h.v(2, l) == 7));
}

#[test]
fn out_of_range_vgpr_destination_is_a_nop() {
    let mut h = h(false);
    h.wave.num_vgprs = 128;
    h.set_v(0, |_| f(1.0));
    h.set_v(1, |_| f(2.0));
    let before = h.wave.vgpr.clone();
    h.run(&[0x07900300]).unwrap(); // v_add_f32_e32 v200, v0, v1
    assert_eq!(h.wave.vgpr, before);
}

#[test]
fn constants_and_scalar_sources() {
    let mut h = h(false);
    h.set_v(1, |l| f(l as f32));
    h.wave.sgpr[4] = f(10.0);
    h.run(&[0x060402f2]).unwrap(); // v_add_f32_e32 v2, 1.0, v1
    assert_eq!(h.v(2, 3), f(4.0));
    h.run(&[0x06040204]).unwrap(); // v_add_f32_e32 v2, s4, v1
    assert_eq!(h.v(2, 3), f(13.0));
}

#[test]
fn nan_rules() {
    let qnan = 0x7fc0_1234;
    let snan = 0x7f80_0001;
    // NaN inputs propagate quieted, src0 first.
    assert_eq!(bin32(MODE_DEFAULT, &ADD_F32, qnan, f(1.0)), qnan);
    assert_eq!(bin32(MODE_DEFAULT, &ADD_F32, f(1.0), snan), 0x7fc0_0001);
    assert_eq!(
        bin32(MODE_DEFAULT, &ADD_F32, 0xffc0_0005, qnan),
        0xffc0_0005
    );
    // Invalid operations give the ISA's default NaN 0xffc00000.
    let inf = f(f32::INFINITY);
    assert_eq!(bin32(MODE_DEFAULT, &SUB_F32, inf, inf), 0xffc0_0000);
    assert_eq!(bin32(MODE_DEFAULT, &MUL_F32, inf, 0), 0xffc0_0000);
    // Signed zeros: -0 + -0 = -0, -0 + +0 = +0 in RNE, -0 in round-down.
    assert_eq!(
        bin32(MODE_DEFAULT, &ADD_F32, 0x8000_0000, 0x8000_0000),
        0x8000_0000
    );
    assert_eq!(bin32(MODE_DEFAULT, &ADD_F32, 0x8000_0000, 0), 0);
    assert_eq!(
        bin32(MODE_DEFAULT | 0b10, &SUB_F32, f(1.0), f(1.0)),
        0x8000_0000
    );
}

#[test]
fn rounding_modes_f32() {
    let one = f(1.0);
    let tie = f(2f32.powi(-24)); // exactly half an ULP of 1.0
    let above = f(3.0 * 2f32.powi(-25)); // 0.75 ULP
    let rne = MODE_DEFAULT;
    let rup = MODE_DEFAULT | 1;
    let rdn = MODE_DEFAULT | 2;
    let rtz = MODE_DEFAULT | 3;
    assert_eq!(bin32(rne, &ADD_F32, one, tie), one, "tie to even");
    assert_eq!(bin32(rne, &ADD_F32, one, above), one + 1);
    assert_eq!(bin32(rup, &ADD_F32, one, tie), one + 1);
    assert_eq!(bin32(rtz, &ADD_F32, one, above), one);
    assert_eq!(bin32(rdn, &ADD_F32, one, above), one);
    // Negative: round-down goes away from zero, round-up toward.
    let mone = f(-1.0);
    let mtie = f(-(2f32.powi(-24)));
    assert_eq!(bin32(rdn, &ADD_F32, mone, mtie), mone + 1);
    assert_eq!(bin32(rup, &ADD_F32, mone, mtie), mone);
    // Overflow: RNE/RUP to +inf, RTZ/RDN to MAX.
    let max = f(f32::MAX);
    assert_eq!(bin32(rne, &MUL_F32, max, f(2.0)), f(f32::INFINITY));
    assert_eq!(bin32(rtz, &MUL_F32, max, f(2.0)), max);
    assert_eq!(bin32(rdn, &MUL_F32, max, f(2.0)), max);
    assert_eq!(bin32(rup, &MUL_F32, f(-f32::MAX), f(2.0)), f(-f32::MAX));
    // f64/f16 rounding bits [3:2] do not affect f32.
    assert_eq!(bin32(MODE_DEFAULT | 0b1100, &ADD_F32, one, above), one + 1);
}

#[test]
fn denormal_modes_f32() {
    let tiny = 0x0000_0001; // smallest f32 denormal
    let minnorm = f(f32::MIN_POSITIVE);
    let keep = MODE_DEFAULT; // FP_DENORM f32 = 3
    let flush_all = MODE_DEFAULT & !0x30; // f32 = 0
    let flush_out = (MODE_DEFAULT & !0x30) | 0x10; // f32 = 1: inputs kept, outputs flushed
    let flush_in = (MODE_DEFAULT & !0x30) | 0x20; // f32 = 2: inputs flushed, outputs kept
    assert_eq!(bin32(keep, &ADD_F32, tiny, tiny), 2);
    assert_eq!(bin32(flush_all, &ADD_F32, tiny, tiny), 0);
    assert_eq!(
        bin32(flush_all, &ADD_F32, tiny | 0x8000_0000, 0x8000_0000),
        0x8000_0000
    );
    assert_eq!(bin32(flush_out, &ADD_F32, tiny, minnorm), minnorm + 1);
    assert_eq!(bin32(flush_in, &ADD_F32, tiny, minnorm), minnorm);
    // Output: MIN_POSITIVE * 0.5 is a denormal.
    assert_eq!(bin32(keep, &MUL_F32, minnorm, f(0.5)), 0x0040_0000);
    assert_eq!(bin32(flush_out, &MUL_F32, minnorm, f(0.5)), 0);
    assert_eq!(bin32(flush_in, &MUL_F32, minnorm, f(0.5)), 0x0040_0000);
    // f64/f16 denormal bits do not affect f32.
    assert_eq!(bin32(MODE_DEFAULT & !0xc0, &ADD_F32, tiny, tiny), 2);
}

#[test]
fn abs_neg_clamp_omod() {
    // v_add_f32_e64 v2, -v0, |v1|
    assert_eq!(
        bin32(MODE_DEFAULT, &[0xd5030202, 0x20020300], f(3.0), f(-5.0)),
        f(2.0)
    );
    // neg on a NaN flips only its sign bit
    assert_eq!(
        bin32(MODE_DEFAULT, &[0xd5030202, 0x20020300], 0x7fc0_0000, f(1.0)),
        0xffc0_0000
    );
    let clamp = [0xd5038002, 0x00020300]; // v_add_f32_e64 v2, v0, v1 clamp
    assert_eq!(bin32(MODE_DEFAULT, &clamp, f(0.75), f(0.75)), f(1.0));
    assert_eq!(bin32(MODE_DEFAULT, &clamp, f(-0.75), f(0.25)), 0);
    assert_eq!(bin32(MODE_DEFAULT, &clamp, f(0.25), f(0.25)), f(0.5));
    // NaN clamps to 0 with DX10_CLAMP, passes through without it.
    assert_eq!(bin32(MODE_DEFAULT, &clamp, 0x7fc0_0000, 0), 0);
    assert_eq!(
        bin32(MODE_DEFAULT & !(1 << 8), &clamp, 0x7fc0_0000, 0),
        0x7fc0_0000
    );
    // Output modifier: applied only with MODE.IEEE clear.
    let mul2 = [0xd5080002, 0x08020300]; // v_mul_f32_e64 v2, v0, v1 mul:2
    let div2 = [0xd5080002, 0x18020300]; // v_mul_f32_e64 v2, v0, v1 div:2
    let no_ieee = MODE_DEFAULT & !(1 << 9);
    assert_eq!(bin32(no_ieee, &mul2, f(3.0), f(5.0)), f(30.0));
    assert_eq!(bin32(no_ieee, &div2, f(3.0), f(5.0)), f(7.5));
    assert_eq!(bin32(MODE_DEFAULT, &mul2, f(3.0), f(5.0)), f(15.0));
}

#[test]
fn fma_forms_round_once() {
    // a*b = 1 - 2^-46 exactly; with c = -1 the fused result is -2^-46, unfused 0.
    let a = 1.0 + 2f32.powi(-23);
    let b = 1.0 - 2f32.powi(-23);
    let want = f(-(2f32.powi(-46)));
    for mode in [MODE_DEFAULT, MODE_DEFAULT | 3, MODE_DEFAULT & !0x30] {
        let mut h = h(true);
        h.wave.hw.mode = mode;
        set_f(&mut h, 0, a);
        set_f(&mut h, 1, b);
        set_f(&mut h, 2, -1.0);
        h.run(&[0xd6130003, 0x040a0300]).unwrap(); // v_fma_f32 v3, v0, v1, v2
        assert_eq!(h.v(3, 63), want);
        h.run(&[0x56040300]).unwrap(); // v_fmac_f32_e32 v2, v0, v1
        assert_eq!(h.v(2, 63), want);
    }
    let mut h = h(false);
    set_f(&mut h, 0, 3.0);
    set_f(&mut h, 1, 1.0);
    h.run(&[0x58040300, 0x40000000]).unwrap(); // v_fmamk_f32 v2, v0, 0x40000000, v1
    assert_eq!(h.v(2, 0), f(7.0));
    h.run(&[0x5a040300, 0x40000000]).unwrap(); // v_fmaak_f32 v2, v0, v1, 0x40000000
    assert_eq!(h.v(2, 0), f(5.0));
}

#[test]
fn min_max_ieee_and_zero_sign() {
    let qnan = 0x7fc0_0000;
    let snan = 0x7f80_0001;
    let no_ieee = MODE_DEFAULT & !(1 << 9);
    assert_eq!(bin32(MODE_DEFAULT, &MIN_F32, 0, 0x8000_0000), 0x8000_0000);
    assert_eq!(bin32(MODE_DEFAULT, &MAX_F32, 0x8000_0000, 0), 0);
    assert_eq!(bin32(MODE_DEFAULT, &MIN_F32, qnan, f(2.0)), f(2.0));
    assert_eq!(bin32(MODE_DEFAULT, &MAX_F32, f(2.0), qnan), f(2.0));
    assert_eq!(bin32(MODE_DEFAULT, &MIN_F32, f(2.0), snan), 0x7fc0_0001);
    assert_eq!(bin32(no_ieee, &MIN_F32, f(2.0), snan), f(2.0));
    assert_eq!(bin32(MODE_DEFAULT, &MIN_F32, f(-3.0), f(2.0)), f(-3.0));
    // v_med3_f32 v3, v0, v1, v2
    let mut h = h(false);
    set_f(&mut h, 0, 5.0);
    set_f(&mut h, 1, -1.0);
    set_f(&mut h, 2, 2.0);
    h.run(&[0xd61f0003, 0x040a0300]).unwrap();
    assert_eq!(h.v(3, 0), f(2.0));
    h.run(&[0xd61c0003, 0x040a0300]).unwrap(); // v_max3_f32
    assert_eq!(h.v(3, 0), f(5.0));
    h.run(&[0xd6190003, 0x040a0300]).unwrap(); // v_min3_f32
    assert_eq!(h.v(3, 0), f(-1.0));
}

#[test]
fn f16_halves_op_sel_and_true16() {
    let mut h = h(false);
    // v0 = {hi 3.0, lo 1.0}, v1 = {hi 0.5, lo 2.0} in f16
    h.set_v(0, |_| 0x4200_3c00);
    h.set_v(1, |_| 0x3800_4000);
    h.set_v(2, |_| 0xaaaa_bbbb);
    h.run(&[0x64040300]).unwrap(); // v_add_f16_e32 v2, v0, v1: low halves, high half kept
    assert_eq!(h.v(2, 0), 0xaaaa_4200);
    // v_pack_b32_f16 v2, v0, v1 op_sel:[1,0,0]: {v1.l, v0.h}
    h.run(&[0xd7110802, 0x00020300]).unwrap();
    assert_eq!(h.v(2, 0), 0x4000_4200);
    // e32 true16: src0 register 129 means v1.h: v_add_f16_e32 v2, v1.h, v1.l
    h.set_v(2, |_| 0xaaaa_bbbb);
    h.run(&[0x64040381]).unwrap();
    assert_eq!(h.v(2, 0), 0xaaaa_4100); // 0.5 + 2.0 = 2.5
                                        // v_fma_f16 v3, v0, v1, v2 op_sel:[0,1,0,1]: v0.l * v1.h + v2.l -> v3.h
    h.set_v(2, |_| 0x0000_3c00);
    h.set_v(3, |_| 0x1234_5678);
    h.run(&[0xd6485003, 0x040a0300]).unwrap();
    assert_eq!(h.v(3, 0), 0x3e00_5678); // 1.0 * 0.5 + 1.0 = 1.5
}

#[test]
fn f16_rounding_and_denormals_use_the_f64_mode_bits() {
    let mut h = h(false);
    // 1.0 + 2^-11 (half an f16 ULP): RNE ties to 1.0, RUP (f16 mode bits [3:2] = 1) to next.
    h.set_v(0, |_| 0x3c00);
    h.set_v(1, |_| 0x1000);
    h.run(&[0x64040300]).unwrap();
    assert_eq!(h.v(2, 0) & 0xffff, 0x3c00);
    h.wave.hw.mode = MODE_DEFAULT | 1 << 2;
    h.run(&[0x64040300]).unwrap();
    assert_eq!(h.v(2, 0) & 0xffff, 0x3c01);
    // f32 rounding bits do not affect f16
    h.wave.hw.mode = MODE_DEFAULT | 1;
    h.run(&[0x64040300]).unwrap();
    assert_eq!(h.v(2, 0) & 0xffff, 0x3c00);
    // denormal f16 inputs flush with FP_DENORM[7:6] = 0
    h.set_v(0, |_| 0x0001);
    h.set_v(1, |_| 0x0001);
    h.wave.hw.mode = MODE_DEFAULT;
    h.run(&[0x64040300]).unwrap();
    assert_eq!(h.v(2, 0) & 0xffff, 0x0002);
    h.wave.hw.mode = MODE_DEFAULT & !0xc0;
    h.run(&[0x64040300]).unwrap();
    assert_eq!(h.v(2, 0) & 0xffff, 0x0000);
}

#[test]
fn conversions() {
    let cvt_i32 = [0x7e041100]; // v_cvt_i32_f32_e32 v2, v0
    let cvt_u32 = [0x7e040f00]; // v_cvt_u32_f32_e32 v2, v0
    assert_eq!(un32(MODE_DEFAULT, &cvt_i32, f(-2.7)), (-2i32) as u32);
    assert_eq!(un32(MODE_DEFAULT, &cvt_i32, f(3e9)), i32::MAX as u32);
    assert_eq!(un32(MODE_DEFAULT, &cvt_i32, f(-3e9)), i32::MIN as u32);
    assert_eq!(un32(MODE_DEFAULT, &cvt_i32, 0x7fc0_0000), 0);
    assert_eq!(un32(MODE_DEFAULT, &cvt_u32, f(-1.0)), 0);
    assert_eq!(un32(MODE_DEFAULT, &cvt_u32, f(5e9)), u32::MAX);
    let cvt_f32_i32 = [0x7e040b00]; // v_cvt_f32_i32_e32 v2, v0
    assert_eq!(
        un32(MODE_DEFAULT, &cvt_f32_i32, 16_777_217),
        f(16_777_216.0)
    );
    assert_eq!(
        un32(MODE_DEFAULT | 1, &cvt_f32_i32, 16_777_217),
        f(16_777_218.0)
    );
    assert_eq!(un32(MODE_DEFAULT, &cvt_f32_i32, (-5i32) as u32), f(-5.0));
    let cvt_f32_u32 = [0x7e040d00];
    assert_eq!(
        un32(MODE_DEFAULT, &cvt_f32_u32, u32::MAX),
        f(4_294_967_296.0)
    );
    assert_eq!(
        un32(MODE_DEFAULT | 3, &cvt_f32_u32, u32::MAX),
        f(4_294_967_040.0)
    );
    // f32 -> f16: rounding per the f16 (f64) mode bits, overflow to inf, NaN quieted
    let cvt_f16 = [0x7e041500]; // v_cvt_f16_f32_e32 v2, v0
    let r = |mode, x| un32(mode, &cvt_f16, x) & 0xffff;
    assert_eq!(r(MODE_DEFAULT, f(1.0 + 2f32.powi(-11))), 0x3c00);
    assert_eq!(r(MODE_DEFAULT | 1 << 2, f(1.0 + 2f32.powi(-11))), 0x3c01);
    assert_eq!(r(MODE_DEFAULT, f(70000.0)), 0x7c00);
    assert_eq!(r(MODE_DEFAULT | 3 << 2, f(70000.0)), 0x7bff);
    assert_eq!(r(MODE_DEFAULT, 0x7f80_0001), 0x7e00);
    assert_eq!(r(MODE_DEFAULT, f(2f32.powi(-24))), 0x0001);
    assert_eq!(r(MODE_DEFAULT & !0xc0, f(2f32.powi(-24))), 0x0000);
    let cvt_f32_f16 = [0x7e041700]; // v_cvt_f32_f16_e32 v2, v0
    assert_eq!(un32(MODE_DEFAULT, &cvt_f32_f16, 0xffff_c500), f(-5.0)); // high half ignored
    assert_eq!(un32(MODE_DEFAULT, &cvt_f32_f16, 0x0001), f(2f32.powi(-24)));
    // v_cvt_nearest_i32_f32: floor(x + 0.5)
    let near = [0x7e041900];
    assert_eq!(un32(MODE_DEFAULT, &near, f(2.5)), 3);
    assert_eq!(un32(MODE_DEFAULT, &near, f(-2.5)), (-2i32) as u32);
    // v_cvt_f32_ubyte2, v_cvt_off_f32_i4
    assert_eq!(un32(MODE_DEFAULT, &[0x7e042700], 0x11c8_3344), f(200.0));
    assert_eq!(un32(MODE_DEFAULT, &[0x7e041d00], 0xf), f(-0.0625));
    assert_eq!(un32(MODE_DEFAULT, &[0x7e041d00], 0x7), f(0.4375));
    // v_cvt_pk_rtz_f16_f32: always toward zero
    let pk = bin32(
        MODE_DEFAULT,
        &[0x5e040300],
        f(1.0 + 2f32.powi(-11) * 1.5),
        f(-70000.0),
    );
    assert_eq!(pk, 0xfbff_3c00);
}

#[test]
fn f64_ops_and_conversions() {
    let mut h = h(true);
    set_d(&mut h, 0, 1.0 + f64::EPSILON);
    set_d(&mut h, 2, 1.0 - f64::EPSILON);
    set_d(&mut h, 4, -1.0);
    h.run(&[0xd6140006, 0x04120500]).unwrap(); // v_fma_f64 v[6:7], v[0:1], v[2:3], v[4:5]
    assert_eq!(d(&h, 6, 40), -(f64::EPSILON * f64::EPSILON));
    h.run(&[0xd7270004, 0x00020500]).unwrap(); // v_add_f64 v[4:5], v[0:1], v[2:3]
    assert_eq!(d(&h, 4, 0), 2.0);
    // round toward zero via MODE[3:2] = 3
    h.wave.hw.mode = MODE_DEFAULT | 3 << 2;
    set_d(&mut h, 0, 1.0);
    set_d(&mut h, 2, f64::EPSILON * 0.75);
    h.run(&[0xd7270004, 0x00020500]).unwrap();
    assert_eq!(d(&h, 4, 0), 1.0);
    h.wave.hw.mode = MODE_DEFAULT;
    h.run(&[0xd7270004, 0x00020500]).unwrap();
    assert_eq!(d(&h, 4, 0), 1.0 + f64::EPSILON);
    // v_cvt_f32_f64 v2, v[0:1] (rounding per f32 mode), v_cvt_f64_f32, v_cvt_i32_f64
    set_d(&mut h, 0, 1.0 + 2f64.powi(-24) + 2f64.powi(-40));
    h.run(&[0x7e041f00]).unwrap();
    assert_eq!(h.v(2, 0), f(1.0 + 2f32.powi(-23)));
    set_f(&mut h, 0, -0.1);
    h.run(&[0x7e042100]).unwrap(); // v_cvt_f64_f32 v[2:3], v0
    assert_eq!(d(&h, 2, 5), -0.1f32 as f64);
    set_d(&mut h, 0, -7.9);
    h.run(&[0x7e040700]).unwrap(); // v_cvt_i32_f64 v2, v[0:1]
    assert_eq!(h.v(2, 0), (-7i32) as u32);
    // f64 min with -0/+0
    set_d(&mut h, 0, 0.0);
    set_d(&mut h, 2, -0.0);
    h.run(&[0xd7290004, 0x00020500]).unwrap(); // v_min_f64
    assert_eq!(d(&h, 4, 0).to_bits(), (-0.0f64).to_bits());
    // v_fract_f64, v_ldexp_f64, v_rcp_f64, v_sqrt_f64
    set_d(&mut h, 0, -1.25);
    h.run(&[0x7e047d00]).unwrap();
    assert_eq!(d(&h, 2, 0), 0.75);
    h.set_v(2, |_| (-3i32) as u32);
    h.run(&[0xd72b0004, 0x00020500]).unwrap(); // v_ldexp_f64 v[4:5], v[0:1], v2
    assert_eq!(d(&h, 4, 0), -1.25 / 8.0);
    set_d(&mut h, 0, 4.0);
    h.run(&[0x7e045f00]).unwrap();
    assert_eq!(d(&h, 2, 0), 0.25);
    h.run(&[0x7e046900]).unwrap();
    assert_eq!(d(&h, 2, 0), 2.0);
}

#[test]
fn transcendental_isa_examples() {
    let m = MODE_DEFAULT;
    let rcp = [0x7e045500];
    let rsq = [0x7e045d00];
    let sqrt = [0x7e046700];
    let exp = [0x7e044b00];
    let log = [0x7e044f00];
    let sin = [0x7e046b00];
    let cos = [0x7e046d00];
    // The worked examples of the RDNA3 ISA opcode descriptions.
    assert_eq!(un32(m, &rcp, 0xff80_0000), 0x8000_0000);
    assert_eq!(un32(m, &rcp, 0xc000_0000), 0xbf00_0000);
    assert_eq!(un32(m, &rcp, 0x8000_0000), 0xff80_0000);
    assert_eq!(un32(m, &rcp, 0x7f80_0000), 0);
    assert_eq!(un32(m, &rsq, 0xff80_0000), 0xffc0_0000);
    assert_eq!(un32(m, &rsq, 0x8000_0000), 0xff80_0000);
    assert_eq!(un32(m, &rsq, 0x4080_0000), 0x3f00_0000);
    assert_eq!(un32(m, &rsq, 0x7f80_0000), 0);
    assert_eq!(un32(m, &sqrt, 0xff80_0000), 0xffc0_0000);
    assert_eq!(un32(m, &sqrt, 0x8000_0000), 0x8000_0000);
    assert_eq!(un32(m, &sqrt, 0x4080_0000), 0x4000_0000);
    assert_eq!(un32(m, &exp, 0xff80_0000), 0);
    assert_eq!(un32(m, &exp, 0x8000_0000), 0x3f80_0000);
    assert_eq!(un32(m, &exp, 0x7f80_0000), 0x7f80_0000);
    assert_eq!(un32(m, &log, 0xbf80_0000), 0xffc0_0000);
    assert_eq!(un32(m, &log, 0x8000_0000), 0xff80_0000);
    assert_eq!(un32(m, &log, 0x3f80_0000), 0);
    assert_eq!(un32(m, &sin, 0xff80_0000), 0xffc0_0000);
    assert_eq!(un32(m, &sin, 0xff7f_ffff), 0);
    assert_eq!(un32(m, &sin, 0x8000_0000), 0x8000_0000);
    assert_eq!(un32(m, &sin, 0x3e80_0000), 0x3f80_0000);
    assert_eq!(un32(m, &cos, 0xff7f_ffff), 0x3f80_0000);
    assert_eq!(un32(m, &cos, 0x8000_0000), 0x3f80_0000);
    assert_eq!(un32(m, &cos, 0x3e80_0000), 0);
    // Correctly rounded values elsewhere.
    assert_eq!(un32(m, &sqrt, f(2.0)), f(2f32.sqrt()));
    assert_eq!(un32(m, &rcp, f(3.0)), f(1.0 / 3.0));
    assert_eq!(un32(m, &exp, f(0.5)), f(std::f32::consts::SQRT_2));
    // denormal input flushed: rcp(denormal) = +inf with f32 input flushing
    assert_eq!(un32(m & !0x30, &rcp, 1), 0x7f80_0000);
}

#[test]
fn rounding_to_integers_and_frexp() {
    let m = MODE_DEFAULT;
    let floor = [0x7e044900];
    let ceil = [0x7e044500];
    let trunc = [0x7e044300];
    let rndne = [0x7e044700];
    let fract = [0x7e044100];
    assert_eq!(un32(m, &floor, f(-1.5)), f(-2.0));
    assert_eq!(un32(m, &ceil, f(-0.5)), f(-0.0));
    assert_eq!(un32(m, &ceil, f(1.25)), f(2.0));
    assert_eq!(un32(m, &trunc, f(-2.75)), f(-2.0));
    assert_eq!(un32(m, &rndne, f(2.5)), f(2.0));
    assert_eq!(un32(m, &rndne, f(3.5)), f(4.0));
    assert_eq!(un32(m, &rndne, f(-0.5)), f(-0.0));
    assert_eq!(un32(m, &fract, f(-1.25)), f(0.75));
    // fract of a tiny negative: S0 + -floor(S0) rounds to 1.0, which v_fract caps at the
    // largest f32 below 1.0 (OpenCL fract's fmin(x - floor(x), 0x1.fffffep-1f)).
    assert_eq!(un32(m, &fract, f(-1e-10)), 0x3f7f_ffff);
    // -2^-149, the smallest negative denormal.
    assert_eq!(un32(m, &fract, 0x8000_0001), 0x3f7f_ffff);
    // 1 - 2^-25 is a tie between 1 - 2^-24 and 1.0, rounding to even gives 1.0: capped too.
    assert_eq!(un32(m, &fract, f(-(2f32.powi(-25)))), 0x3f7f_ffff);
    // -2^-24 gives exactly 1 - 2^-24 (no rounding, no cap); -0 gives +0.
    assert_eq!(un32(m, &fract, f(-(2f32.powi(-24)))), 0x3f7f_ffff);
    assert_eq!(un32(m, &fract, f(-(2f32.powi(-23)))), 0x3f7f_fffe);
    assert_eq!(un32(m, &fract, f(-0.0)), 0);
    assert_eq!(un32(m, &fract, f(f32::INFINITY)), 0xffc0_0000);
    let mant = [0x7e048100];
    let expo = [0x7e047f00];
    assert_eq!(un32(m, &mant, f(-12.0)), f(-0.75));
    assert_eq!(un32(m, &expo, f(-12.0)), 4);
    assert_eq!(un32(m, &mant, 1), f(0.5)); // denormal 2^-149 normalised
    assert_eq!(un32(m, &expo, 1), (-148i32) as u32);
    assert_eq!(un32(m, &expo, f(f32::INFINITY)), 0);
    assert_eq!(un32(m, &mant, f(f32::INFINITY)), f(f32::INFINITY));
    // v_ldexp_f32 v2, v0, v1
    assert_eq!(
        bin32(m, &[0xd71c0002, 0x00020300], f(3.0), (-2i32) as u32),
        f(0.75)
    );
    assert_eq!(
        bin32(m, &[0xd71c0002, 0x00020300], f(1.0), (-149i32) as u32),
        1
    );
    assert_eq!(
        bin32(m, &[0xd71c0002, 0x00020300], f(1.0), 200),
        f(f32::INFINITY)
    );
}

/// LLVM's f32 division expansion of v2 = v0 / v1: v2 = div_scale(d, d, n), v3 = div_scale(n, d,
/// n) (vcc), rcp, Newton steps, div_fmas, div_fixup.
const F32_DIV: [u32; 20] = [
    0xd6fc0a02, 0x04020301, // v_div_scale_f32 v2, s10, v1, v1, v0
    0xd6fc6a03, 0x04020300, // v_div_scale_f32 v3, vcc_lo, v0, v1, v0
    0x7e085502, // v_rcp_f32_e32 v4, v2
    0xd6130005, 0x23ca0902, // v_fma_f32 v5, -v2, v4, 1.0
    0xd6130004, 0x04120905, // v_fma_f32 v4, v5, v4, v4
    0x100a0903, // v_mul_f32_e32 v5, v3, v4
    0xd6130006, 0x240e0b02, // v_fma_f32 v6, -v2, v5, v3
    0xd6130005, 0x04160906, // v_fma_f32 v5, v6, v4, v5
    0xd6130002, 0x240e0b02, // v_fma_f32 v2, -v2, v5, v3
    0xd6370002, 0x04160902, // v_div_fmas_f32 v2, v2, v4, v5
    0xd6270002, 0x04020302, // v_div_fixup_f32 v2, v2, v1, v0
];

/// LLVM's f32 division expansion gives the correctly rounded quotient.
#[test]
fn division_sequence() {
    for (n, dd) in [
        (1.0f32, 3.0f32),
        (10.0, -7.0),
        (1e-30, 3e10),
        (1e38, 0.3),
        (3e38, 0.75),
        (5.0, 0.0),
        (0.0, 0.0),
    ] {
        let mut h = h(false);
        set_f(&mut h, 0, n);
        set_f(&mut h, 1, dd);
        h.run(&F32_DIV).unwrap();
        let want = n / dd;
        if want.is_nan() {
            assert_eq!(h.v(2, 0), 0xffc0_0000, "{n}/{dd}");
        } else {
            assert_eq!(h.v(2, 0), want.to_bits(), "{n}/{dd}");
        }
    }
}

#[test]
fn cndmask_uses_vcc_and_sgpr_masks() {
    let mut h = h(true);
    h.set_v(0, |_| 1);
    h.set_v(1, |_| 2);
    h.wave.set_vcc(0x8000_0000_0000_0001);
    h.run(&[0x02040300]).unwrap(); // v_cndmask_b32_e32 v2, v0, v1, vcc
    assert_eq!((h.v(2, 0), h.v(2, 1), h.v(2, 63)), (2, 1, 2));
    h.wave.sgpr[4] = 0;
    h.wave.sgpr[5] = 0x4000_0000;
    h.run(&[0xd5010002, 0x00120300]).unwrap(); // v_cndmask_b32_e64 v2, v0, v1, s[4:5]
    assert_eq!((h.v(2, 0), h.v(2, 62), h.v(2, 63)), (1, 2, 1));
}

#[test]
fn trig_preop_gives_bits_of_two_over_pi() {
    let mut h = h(false);
    set_d(&mut h, 0, 1.0);
    h.set_v(2, |_| 0);
    h.run(&[0xd72f0004, 0x00020500]).unwrap(); // v_trig_preop_f64 v[4:5], v[0:1], v2
                                               // The first 53 bits of 2/pi (0.a2f9836e4e441529...) truncated, as an f64.
    assert_eq!(d(&h, 4, 0).to_bits(), 0x3fe4_5f30_6dc9_c882);
    h.set_v(2, |_| 1);
    h.run(&[0xd72f0004, 0x00020500]).unwrap();
    // Bits 54..106 scaled by 2^-106: the remainder of 2/pi after the first chunk.
    let rest = d(&h, 4, 0);
    assert!(rest > 0.0 && rest < 2f64.powi(-53));
    assert_eq!(
        rest + f64::from_bits(0x3fe4_5f30_6dc9_c882),
        std::f64::consts::FRAC_2_PI
    );
}

#[test]
fn div_scale_writes_mask_in_wave64() {
    let mut h = h(true);
    set_f(&mut h, 0, 1.0);
    set_f(&mut h, 1, 1.0);
    // numerator tiny relative to the denominator: S2/S1 denormal sets VCC and scales S2.
    h.set_v(2, |l| if l == 40 { f(1e-30) } else { f(1.0) });
    set_f(&mut h, 1, 1e10);
    h.set_v(0, |l| if l == 40 { f(1e-30) } else { f(1.0) });
    h.wave.sgpr[106] = 0xffff_ffff;
    h.wave.sgpr[107] = 0xffff_ffff;
    h.run(&[0xd6fc6a03, 0x04020300]).unwrap(); // v_div_scale_f32 v3, vcc, v0, v1, v0
    assert_eq!(h.wave.vcc(), 1 << 40);
    assert_eq!(h.v(3, 40), f(1e-30 * 2f32.powi(64)));
    assert_eq!(h.v(3, 0), f(1.0));
}

/// v_fract caps at the largest value below 1.0 in every width (f16 0x3bff, f64
/// 0x3fef_ffff_ffff_ffff), lane by lane, wave32 and wave64 with EXEC partly off.
#[test]
fn fract_caps_below_one_all_widths() {
    for w64 in [false, true] {
        let mut h = h(w64);
        // f16: lanes alternate -2^-20 (1 - 2^-20 rounds to 1.0 in f16) and -1.25 (0.75).
        h.set_v(0, |l| if l % 2 == 0 { 0x8000 | 0x0010 } else { 0xbd00 });
        h.set_v(2, |_| 0xdead_0000);
        h.wave.set_exec(0xffff_0000_ffff_fffe);
        h.run(&[0x7e04bf00]).unwrap(); // v_fract_f16_e32 v2, v0
        for l in 0..h.wave.lanes() {
            let active = 0xffff_0000_ffff_fffeu64 >> l & 1 != 0;
            let want = match (active, l % 2) {
                (false, _) => 0xdead_0000,
                // a VOP1 f16 result keeps the destination's high half
                (true, 0) => 0xdead_3bff,
                _ => 0xdead_3a00,
            };
            assert_eq!(h.v(2, l), want, "f16 wave64={w64} lane {l}");
        }
        // f64: -2^-60 -> 1 - 2^-60 rounds to 1.0 -> capped; 2.75 -> 0.75.
        h.wave.set_exec(u64::MAX);
        h.set_v(0, |_| 0);
        h.set_v(1, |l| if l < 8 { 0xbc30_0000 } else { 0x4006_0000 });
        h.run(&[0x7e047d00]).unwrap(); // v_fract_f64_e32 v[2:3], v[0:1]
        for l in 0..h.wave.lanes() {
            let want = if l < 8 {
                0x3fef_ffff_ffff_ffff
            } else {
                0.75f64.to_bits()
            };
            assert_eq!(d(&h, 2, l).to_bits(), want, "f64 wave64={w64} lane {l}");
        }
    }
}

/// LLVM's correctly rounded f32 division expansion in lanes of one wave: quotients that
/// overflow even after v_div_scale's 2^64 scaling (the fma refinements meet inf - inf; the
/// hardware's v_div_fixup returns OVERFLOW, a signed infinity, for the NaN), and denominators
/// above 2^126 with denormal quotients (v_div_scale's "1/S1 denormal" test is an f64 test,
/// never true for f32, so the numerator is scaled up instead of the denominator to +inf).
#[test]
fn division_sequence_overflow_and_huge_denominators() {
    let cases: [(u32, u32); 10] = [
        (0x7f7f_ffff, 0x0000_0001), // FLT_MAX / 2^-149 = +inf
        (0x6f16_890e, 0x8c28_50a2), // 4.66e28 / -1.30e-31 = -inf (normal operands)
        (0xedcc_277f, 0x093e_ce5a), // -7.9e27 / 2.3e-33 = -inf
        (0xf536_69cb, 0x8000_3375), // -2.3e32 / -1.8e-41 = +inf
        (0x3b65_2682, 0x7e90_127b), // 0.0035 / 9.6e37: a denormal quotient
        (0x3f80_0000, 0x7e90_127b), // 1 / 9.6e37: denormal
        (0x3f80_0000, 0x7f7f_ffff), // 1 / FLT_MAX: denormal
        (0x7f00_0000, 0x7f7f_ffff), // 2^127 / FLT_MAX: normal, huge denominator
        (0x3f80_0000, 0x4040_0000), // 1 / 3
        (0x0000_0400, 0x0000_0003), // denormal / denormal = 341.33
    ];
    for w64 in [false, true] {
        let mut h = h(w64);
        let n = cases.len();
        h.set_v(0, |l| cases[l % n].0);
        h.set_v(1, |l| cases[l % n].1);
        h.run(&F32_DIV).unwrap();
        for l in 0..h.wave.lanes() {
            let (a, b) = (
                f32::from_bits(cases[l % n].0),
                f32::from_bits(cases[l % n].1),
            );
            // Rust's f32 division is IEEE correctly rounded (denormals kept).
            let want = (a / b).to_bits();
            assert_eq!(h.v(2, l), want, "wave64={w64} lane {l}: {a:e} / {b:e}");
        }
    }
}

/// xorshift64 for reproducible operand sweeps.
fn xorshift(s: &mut u64) -> u64 {
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    *s
}

/// LLVM's division expansions exist to give the IEEE quotient; with v_div_scale,
/// v_div_fmas and v_div_fixup behaving as the hardware does they must, for every operand pair
/// (all exponents: zeros, denormals, huge, infinities; NaN results only compared as NaN).
#[test]
fn division_sequences_are_correctly_rounded_over_random_operands() {
    const F64_DIV: [u32; 21] = [
        0xd6fd0a04, 0x04020502, // v_div_scale_f64 v[4:5], s10, v[2:3], v[2:3], v[0:1]
        0xd6fd6a06, 0x04020500, // v_div_scale_f64 v[6:7], vcc_lo, v[0:1], v[2:3], v[0:1]
        0x7e105f04, // v_rcp_f64_e32 v[8:9], v[4:5]
        0xd614000a, 0x23ca1104, // v_fma_f64 v[10:11], -v[4:5], v[8:9], 1.0
        0xd6140008, 0x04221508, // v_fma_f64 v[8:9], v[8:9], v[10:11], v[8:9]
        0xd614000a, 0x23ca1104, // v_fma_f64 v[10:11], -v[4:5], v[8:9], 1.0
        0xd6140008, 0x04221508, // v_fma_f64 v[8:9], v[8:9], v[10:11], v[8:9]
        0xd728000a, 0x00021106, // v_mul_f64 v[10:11], v[6:7], v[8:9]
        0xd614000c, 0x241a1504, // v_fma_f64 v[12:13], -v[4:5], v[10:11], v[6:7]
        0xd638000c, 0x042a110c, // v_div_fmas_f64 v[12:13], v[12:13], v[8:9], v[10:11]
        0xd6280004, 0x0402050c, // v_div_fixup_f64 v[4:5], v[12:13], v[2:3], v[0:1]
    ];
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    // Operand pairs: odd rounds take random bit patterns (NaN inputs replaced by 1.0); even
    // rounds put the exponent difference next to v_div_scale's thresholds (denormal quotient,
    // overflow, the big-gap test) with random denominator exponents (denormal and huge ones
    // included) and random mantissas.
    fn pair(s: &mut u64, round: usize, ebits: u32, mbits: u32) -> (u64, u64) {
        let width = 1 + ebits + mbits;
        let mask = if width == 64 {
            u64::MAX
        } else {
            (1u64 << width) - 1
        };
        let emax = (1u64 << ebits) - 1;
        let is_nan = |x: u64| (x >> mbits) & emax == emax && x & ((1u64 << mbits) - 1) != 0;
        let one = (emax >> 1) << mbits;
        if round % 2 == 1 {
            let (a, b) = (xorshift(s) & mask, xorshift(s) & mask);
            return (
                if is_nan(a) { one } else { a },
                if is_nan(b) { one } else { b },
            );
        }
        let bias = (emax >> 1) as i64;
        let thresholds = [-bias + 1, -bias - (mbits as i64), bias, 3 * bias / 4 + 1, 0];
        let r = xorshift(s);
        let t = thresholds[(r % 5) as usize] + (r >> 8) as i64 % 5 - 2;
        let eb = (r >> 16) as i64 % (emax as i64);
        let ea = (eb + t).clamp(0, emax as i64 - 1);
        let m = (1u64 << mbits) - 1;
        let a = (xorshift(s) & m) | (ea as u64) << mbits | (r >> 40 & 1) << (width - 1);
        let b = (xorshift(s) & m) | (eb as u64) << mbits | (r >> 41 & 1) << (width - 1);
        (a, b)
    }
    for round in 0..200 {
        let w64 = round % 4 >= 2;
        let mut h = h(w64);
        let ops: Vec<(u32, u32)> = (0..64)
            .map(|_| {
                let (a, b) = pair(&mut seed, round, 8, 23);
                (a as u32, b as u32)
            })
            .collect();
        h.set_v(0, |l| ops[l].0);
        h.set_v(1, |l| ops[l].1);
        h.run(&F32_DIV).unwrap();
        for (l, &(x, y)) in ops.iter().enumerate().take(h.wave.lanes()) {
            let (a, b) = (f32::from_bits(x), f32::from_bits(y));
            let (got, want) = (f32::from_bits(h.v(2, l)), a / b);
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "f32 {a:e} / {b:e} ({x:#x} / {y:#x}): got {got:e} want {want:e}"
            );
        }
    }
    for round in 0..200 {
        let w64 = round % 4 >= 2;
        let mut h = h(w64);
        let ops: Vec<(u64, u64)> = (0..64).map(|_| pair(&mut seed, round, 11, 52)).collect();
        h.set_v(0, |l| ops[l].0 as u32);
        h.set_v(1, |l| (ops[l].0 >> 32) as u32);
        h.set_v(2, |l| ops[l].1 as u32);
        h.set_v(3, |l| (ops[l].1 >> 32) as u32);
        h.run(&F64_DIV).unwrap();
        for (l, &(x, y)) in ops.iter().enumerate().take(h.wave.lanes()) {
            let (a, b) = (f64::from_bits(x), f64::from_bits(y));
            let (got, want) = (d(&h, 4, l), a / b);
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "f64 {a:e} / {b:e} ({x:#x} / {y:#x}): got {got:e} want {want:e}"
            );
        }
    }
}

/// The host fast paths (VOP2, VOP3, VOPD; f32 and f64) under every FP_DENORM setting, rounding
/// to nearest even: each lane must be what the exact soft-float core computes with that
/// setting's flushing. The rule (RDNA3 ISA guide, MODE register FP_DENORM: bit 0 of a format's
/// pair allows input denormals, bit 1 output denormals): a denormal input reads as the zero of
/// its sign when input denormals are off; a result that rounds to a denormal is written as the
/// zero of its sign when output denormals are off. Values are drawn around the denormal range
/// (denormals, the smallest normals, numbers near 2^-64 whose products are denormal).
#[test]
fn flushed_host_paths_match_soft_float() {
    use wavesim_rdna3::exec::vfloat::soft::{self, FpCtl, NanPolicy, Round, F32, F64};
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let tiny32 = |r: u64| -> u32 {
        let sign = (r as u32) & 0x8000_0000;
        let mant = (r >> 8) as u32 & 0x007f_ffff;
        let exp = match r >> 40 & 7 {
            0 | 1 => 0,
            2 => 1 + (r >> 44) as u32 % 3,
            3 | 4 => 0x30 + (r >> 44) as u32 % 0x20,
            5 => 0x7f,
            _ => (r >> 44) as u32 & 0xff,
        };
        sign | exp << 23 | mant
    };
    let ctl = |den: u32| FpCtl {
        rm: Round::NearestEven,
        ftz_in: den & 1 == 0,
        ftz_out: den & 2 == 0,
        detect: false,
        nan: NanPolicy::RDNA3,
    };
    const FMA_F32: [u32; 2] = [0xd613_0003, 0x040a_0300]; // v_fma_f32 v3, v0, v1, v2
    const FMAC_F32: [u32; 1] = [0x5604_0300]; // v_fmac_f32_e32 v2, v0, v1
    const ADD_F64: [u32; 2] = [0xd727_0004, 0x0002_0500]; // v_add_f64 v[4:5], v[0:1], v[2:3]
    const MUL_F64: [u32; 2] = [0xd728_0004, 0x0002_0500]; // v_mul_f64 v[4:5], v[0:1], v[2:3]
    const FMA_F64: [u32; 2] = [0xd614_0006, 0x0412_0500]; // v_fma_f64 v[6:7], v[0:1], v[2:3], v[4:5]
                                                          // v_dual_mul_f32 v2, v0, v1 :: v_dual_add_f32 v3, v9, v10
    const DUAL_MUL_ADD: [u32; 2] = [0xc8c8_0300, 0x0202_1509];
    // v_dual_fmac_f32 v4, v0, v1 :: v_dual_sub_f32 v5, v9, v10
    const DUAL_FMAC_SUB: [u32; 2] = [0xc80a_0300, 0x0404_1509];
    let mut checked = 0;
    for den in 0..4u32 {
        let c = ctl(den);
        // f32 and f64 settings alike, DX10_CLAMP and IEEE set.
        let mode = den << 4 | den << 6 | 0x300;
        for _ in 0..40 {
            let rows: Vec<[u32; 64]> = (0..11)
                .map(|_| core::array::from_fn(|_| tiny32(next())))
                .collect();
            let run = |w64: bool, words: &[u32]| -> Harness {
                let mut h = h(w64);
                h.wave.hw.mode = mode;
                for (r, row) in rows.iter().enumerate() {
                    h.set_v(r, |l| row[l]);
                }
                h.run(words).unwrap();
                h
            };
            let (a, b) = (&rows[0], &rows[1]);
            let neg = |x: u32| (x ^ 0x8000_0000) as u64;
            // (instruction, destination row, expected lane `l` of the rows under a control)
            type Want = fn(usize, &[[u32; 64]], FpCtl) -> u64;
            let f32_cases: [(&[u32], usize, Want); 4] = [
                (&ADD_F32, 2, |l, r, c| {
                    soft::add(F32, r[0][l] as u64, r[1][l] as u64, &c)
                }),
                (&MUL_F32, 2, |l, r, c| {
                    soft::mul(F32, r[0][l] as u64, r[1][l] as u64, &c)
                }),
                (&FMA_F32, 3, |l, r, c| {
                    soft::fma(F32, r[0][l] as u64, r[1][l] as u64, r[2][l] as u64, &c)
                }),
                (&FMAC_F32, 2, |l, r, c| {
                    soft::fma(F32, r[0][l] as u64, r[1][l] as u64, r[2][l] as u64, &c)
                }),
            ];
            for (words, dst, want) in f32_cases {
                let got = run(true, words);
                for l in 0..64 {
                    let w = want(l, &rows, c) as u32;
                    assert_eq!(got.v(dst, l), w, "mode {mode:#x} {words:x?} lane {l}");
                    checked += 1;
                }
            }
            // v_sub_f32 = a + (-b), except for a NaN S1 (its own sign propagates): skipped.
            let got = run(false, &SUB_F32);
            for l in 0..32 {
                if F32.is_nan(a[l] as u64) || F32.is_nan(b[l] as u64) {
                    continue;
                }
                let w = soft::add(F32, a[l] as u64, neg(b[l]), &c) as u32;
                assert_eq!(got.v(2, l), w, "mode {mode:#x} v_sub_f32 lane {l}");
            }
            // VOPD (wave32): both components from the same rows.
            let (x, y) = (&rows[9], &rows[10]);
            let got = run(false, &DUAL_MUL_ADD);
            let got2 = run(false, &DUAL_FMAC_SUB);
            for l in 0..32 {
                let mul = soft::mul(F32, a[l] as u64, b[l] as u64, &c) as u32;
                let add = soft::add(F32, x[l] as u64, y[l] as u64, &c) as u32;
                let fmac = soft::fma(F32, a[l] as u64, b[l] as u64, rows[4][l] as u64, &c) as u32;
                assert_eq!(got.v(2, l), mul, "mode {mode:#x} v_dual_mul_f32 lane {l}");
                assert_eq!(got.v(3, l), add, "mode {mode:#x} v_dual_add_f32 lane {l}");
                assert_eq!(
                    got2.v(4, l),
                    fmac,
                    "mode {mode:#x} v_dual_fmac_f32 lane {l}"
                );
                if !F32.is_nan(y[l] as u64) && !F32.is_nan(x[l] as u64) {
                    let sub = soft::add(F32, x[l] as u64, neg(y[l]), &c) as u32;
                    assert_eq!(got2.v(5, l), sub, "mode {mode:#x} v_dual_sub_f32 lane {l}");
                }
                checked += 4;
            }
            // f64: the rows as (low, high) word pairs; the high words are tiny f32 patterns,
            // which as f64 high words are denormals (exponent field 0) and tiny normals.
            let d = |r: usize, l: usize| rows[r][l] as u64 | (rows[r + 1][l] as u64) << 32;
            let pair =
                |h: &Harness, r: usize, l: usize| h.v(r, l) as u64 | (h.v(r + 1, l) as u64) << 32;
            let (add, mul, fma) = (
                run(true, &ADD_F64),
                run(true, &MUL_F64),
                run(true, &FMA_F64),
            );
            for l in 0..64 {
                let (p, q, s) = (d(0, l), d(2, l), d(4, l));
                assert_eq!(
                    pair(&add, 4, l),
                    soft::add(F64, p, q, &c),
                    "mode {mode:#x} v_add_f64 lane {l}"
                );
                assert_eq!(
                    pair(&mul, 4, l),
                    soft::mul(F64, p, q, &c),
                    "mode {mode:#x} v_mul_f64 lane {l}"
                );
                assert_eq!(
                    pair(&fma, 6, l),
                    soft::fma(F64, p, q, s, &c),
                    "mode {mode:#x} v_fma_f64 lane {l}"
                );
                checked += 3;
            }
        }
    }
    assert!(checked > 50_000, "{checked} lanes checked");
}
