//! Vector compares (VOPC / VOP3 forms): lane masks to VCC, SGPRs or EXEC, per the RDNA3 ISA
//! pseudocode, wave32 and wave64. Words from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100`.

use wavesim_rdna3::testing::Harness;

const MODE_DEFAULT: u32 = 0xf0 | 1 << 8 | 1 << 9;

fn h(w64: bool) -> Harness {
    let mut h = Harness::new(w64);
    h.wave.hw.mode = MODE_DEFAULT;
    h
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

const CMP_LT_F32: [u32; 1] = [0x7c220300]; // v_cmp_lt_f32_e32 vcc_lo, v0, v1

/// Runs a one-lane-pattern compare: lane l compares a(l) with b(l); returns VCC.
fn vcc_of(w64: bool, words: &[u32], a: impl Fn(usize) -> u32, b: impl Fn(usize) -> u32) -> u64 {
    let mut h = h(w64);
    h.set_v(0, a);
    h.set_v(1, b);
    h.run(words).unwrap();
    h.wave.vcc()
}

#[test]
fn lt_f32_wave32_writes_vcc_lo_only() {
    let mut h = h(false);
    h.set_v(0, |l| f(l as f32));
    h.set_v(1, |_| f(10.0));
    h.wave.sgpr[107] = 0x1234_5678; // VCC_HI untouched in wave32
    h.wave.set_exec(0x0000_ffff);
    h.run(&CMP_LT_F32).unwrap();
    // lanes 0..9 are < 10, lanes 16..31 inactive -> 0
    assert_eq!(h.s(106), 0x3ff);
    assert_eq!(h.s(107), 0x1234_5678);
}

#[test]
fn e64_to_sgpr_pair_wave64_and_exec_zero_still_writes() {
    let mut h = h(true);
    h.set_v(0, |l| f(l as f32));
    h.set_v(1, |_| f(40.0));
    h.wave.set_exec(0xffff_0000_ffff_ffff);
    h.run(&[0xd4110004, 0x00020300]).unwrap(); // v_cmp_lt_f32_e64 s[4:5], v0, v1
    let got = h.s(4) as u64 | (h.s(5) as u64) << 32;
    assert_eq!(got, ((1u64 << 40) - 1) & 0xffff_0000_ffff_ffff);
    // EXEC = 0: the SGPR result is still written (all zero), the RDNA3 ISA guide (Wave State).
    h.wave.sgpr[4] = 0xffff_ffff;
    h.wave.sgpr[5] = 0xffff_ffff;
    h.wave.set_exec(0);
    h.run(&[0xd4110004, 0x00020300]).unwrap();
    assert_eq!((h.s(4), h.s(5)), (0, 0));
}

#[test]
fn e64_to_single_sgpr_wave32_and_null() {
    let mut h = h(false);
    h.set_v(0, |l| f(l as f32));
    h.set_v(1, |_| f(3.0));
    h.run(&[0xd4110004, 0x00020300]).unwrap(); // v_cmp_lt_f32_e64 s4, v0, v1
    assert_eq!(h.s(4), 0b111);
    assert_eq!(h.s(5), 0);
}

#[test]
fn float_conditions_with_nan_and_signed_zero() {
    let nan = 0x7fc0_0000;
    // lane 0: 1 vs 2, lane 1: NaN vs 1, lane 2: -0 vs +0, lane 3: 2 vs 1
    let a = |l: usize| [f(1.0), nan, 0x8000_0000, f(2.0)][l % 4];
    let b = |l: usize| [f(2.0), f(1.0), 0, f(1.0)][l % 4];
    let m = |words: &[u32]| vcc_of(false, words, a, b) & 0xf;
    assert_eq!(m(&CMP_LT_F32), 0b0001);
    assert_eq!(m(&[0x7c300300]), 0b0010); // v_cmp_u_f32: unordered
    assert_eq!(m(&[0x7c3a0300]), 0b1011); // v_cmp_neq_f32: !(a == b), true on NaN
    assert_eq!(m(&[0x7c2a0300]), 0b1001); // v_cmp_lg_f32: ordered and not equal
    assert_eq!(m(&[0x7c240300]), 0b0100); // v_cmp_eq_f32: -0 == +0
}

#[test]
fn denormal_inputs_flush_in_compares() {
    // 2^-149 == 0 only when f32 input denormals are flushed.
    let mut h = h(false);
    h.set_v(0, |_| 1);
    h.set_v(1, |_| 0);
    h.run(&[0x7c240300]).unwrap(); // v_cmp_eq_f32_e32 vcc_lo, v0, v1
    assert_eq!(h.s(106), 0);
    h.wave.hw.mode = MODE_DEFAULT & !0x30;
    h.run(&[0x7c240300]).unwrap();
    assert_eq!(h.s(106), u32::MAX);
}

#[test]
fn cmpx_writes_exec_only() {
    for w64 in [false, true] {
        let mut h = h(w64);
        h.set_v(0, |l| f(l as f32));
        h.set_v(1, |_| f(36.0));
        h.wave.set_vcc(0x5a5a);
        h.wave.set_exec(0xaaaa_aaaa_aaaa_aaaa);
        h.run(&[0x7d220300]).unwrap(); // v_cmpx_lt_f32_e32 v0, v1
        let want = if w64 {
            ((1u64 << 36) - 1) & 0xaaaa_aaaa_aaaa_aaaa
        } else {
            0xaaaa_aaaa
        };
        assert_eq!(h.wave.exec(), want, "wave64={w64}");
        assert_eq!(h.wave.vcc(), 0x5a5a);
        // e64 form (destination field is EXEC), re-evaluated on the new EXEC
        h.set_v(1, |_| f(4.0));
        h.run(&[0xd491007e, 0x00020300]).unwrap(); // v_cmpx_lt_f32_e64 v0, v1
        assert_eq!(h.wave.exec(), 0b1010);
    }
}

#[test]
fn class_f32() {
    // lanes: sNaN, qNaN, -inf, -1, -denorm, -0, +0, +denorm, +1, +inf
    let vals = [
        0x7f80_0001u32,
        0x7fc0_0000,
        0xff80_0000,
        f(-1.0),
        0x8000_0001,
        0x8000_0000,
        0,
        1,
        f(1.0),
        0x7f80_0000,
    ];
    for bit in 0..10 {
        let m = vcc_of(false, &[0x7cfc0300], |l| vals[l % 10], |_| 1 << bit); // v_cmp_class_f32
        assert_eq!(m & 0x3ff, 1 << bit, "class bit {bit}");
    }
    // class does not flush denormals even when MODE flushes them
    let mut h = h(false);
    h.wave.hw.mode = MODE_DEFAULT & !0x30;
    h.set_v(0, |_| 1);
    h.set_v(1, |_| 1 << 7);
    h.run(&[0x7cfc0300]).unwrap();
    assert_eq!(h.s(106), u32::MAX);
    // v_cmpx_class_f32: EXEC <- class result
    h.set_v(0, |l| if l < 3 { 0x7fc0_0000 } else { 0 });
    h.set_v(1, |_| 0b10);
    h.run(&[0x7dfc0300]).unwrap();
    assert_eq!(h.wave.exec(), 0b111);
}

#[test]
fn integer_compares() {
    let a = |l: usize| [5u32, (-3i32) as u32, 7, 0x8000_0000][l % 4];
    let b = |l: usize| [5u32, 2, 9, 1][l % 4];
    assert_eq!(vcc_of(false, &[0x7c940300], a, b) & 0xf, 0b0001); // v_cmp_eq_u32
    assert_eq!(vcc_of(false, &[0x7c820300], a, b) & 0xf, 0b1110); // v_cmp_lt_i32: signed
                                                                  // v_cmp_lt_i64_e32 vcc_lo, v[0:1], v[2:3]: -1 < 1, 2^32 < 1 false
    let mut h = h(true);
    h.set_v(0, |l| [u32::MAX, 0][l % 2]);
    h.set_v(1, |l| [u32::MAX, 1][l % 2]);
    h.set_v(2, |_| 1);
    h.set_v(3, |_| 0);
    h.run(&[0x7ca20500]).unwrap();
    assert_eq!(h.wave.vcc(), 0x5555_5555_5555_5555);
    // v_cmp_gt_u16_e64 s4, v0, v1 on the low halves: 0xffff > 0x0001
    let mut h = Harness::new(false);
    h.set_v(0, |_| 0x0000_ffff);
    h.set_v(1, |_| 0xffff_0001);
    h.run(&[0xd43c0004, 0x00020300]).unwrap();
    assert_eq!(h.s(4), u32::MAX);
}

#[test]
fn f16_compare_true16_high_half() {
    let mut h = h(false);
    // v1 = {hi 1.0, lo 3.0}; v0.l = 2.0
    h.set_v(0, |_| 0x0000_4000);
    h.set_v(1, |_| 0x3c00_4200);
    h.run(&[0x7c020300]).unwrap(); // v_cmp_lt_f16_e32 vcc_lo, v0, v1: 2 < 3
    assert_eq!(h.s(106), u32::MAX);
    // src0 register 129 = v1.h (true16): 1.0 < v0.l = 2.0
    h.run(&[0x7c020181]).unwrap(); // v_cmp_lt_f16_e32 vcc_lo, v1.h, v0.l
    assert_eq!(h.s(106), u32::MAX);
    h.set_v(0, |_| 0x0000_3800); // 0.5
    h.run(&[0x7c020181]).unwrap();
    assert_eq!(h.s(106), 0);
}
