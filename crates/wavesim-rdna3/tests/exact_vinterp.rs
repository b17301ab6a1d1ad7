//! VINTERP outside a pixel shader: the RDNA3 ISA guide's pseudocode reads P0 from quad lane 0
//! (of SRC2) and P10 from quad lane 1 (of SRC0) for v_interp_p10_*, P20 from quad lane 2 for
//! v_interp_p2_*; S1 (and S2 of P2) come from the lane itself. The first two tests repeat the
//! hardware runs of tinygrad's `test/amd/hw/test_vinterp.py` (212 / 224 and 12 / 24) over
//! every quad, in wave32 and wave64. Words from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100
//! -show-encoding`; the SGPR S1 form (which the hardware test uses and LLVM 19 does not
//! assemble) is built from the VINTERP layout.

use wavesim_rdna3::testing::Harness;

const P10_F32: [u32; 2] = [0xcd000004, 0x040e0501]; // v_interp_p10_f32 v4, v1, v2, v3
const P2_F32: [u32; 2] = [0xcd010005, 0x04120501]; // v_interp_p2_f32 v5, v1, v2, v4
const P10_F16: [u32; 2] = [0xcd020004, 0x040e0501]; // v_interp_p10_f16_f32 v4, v1, v2, v3
const P10_F16_OPSEL: [u32; 2] = [0xcd022804, 0x040e0501]; // ... op_sel:[1,0,1,0]
const P2_F16_OPSEL: [u32; 2] = [0xcd034805, 0x04120501]; // v_interp_p2_f16_f32 v5, v1, v2, v4 op_sel:[1,0,0,1]
const P10_RTZ: [u32; 2] = [0xcd040004, 0x040e0501]; // v_interp_p10_rtz_f16_f32 v4, v1, v2, v3
const P2_RTZ: [u32; 2] = [0xcd050005, 0x04120501]; // v_interp_p2_rtz_f16_f32 v5, v1, v2, v4
const P10_NEG_CLAMP_WAIT: [u32; 2] = [0xcd008304, 0xa40e0501]; // v_interp_p10_f32 v4, -v1, v2, -v3 clamp wait_exp:3

fn f(x: f32) -> u32 {
    x.to_bits()
}
fn h16(x: f32) -> u32 {
    half::f16::from_f32(x).to_bits() as u32
}
fn harness(w64: bool) -> Harness {
    let mut h = Harness::new(w64);
    h.wave.hw.mode = 0xf0 | 1 << 8 | 1 << 9;
    h
}

/// VINTERP with S1 = s2: `v_interp_p10_f32 v4, v1, s2, v3` (src0 v1, src1 s2, src2 v3).
fn p10_f32_sgpr(op: u32) -> [u32; 2] {
    [0xcd00_0004 | op << 16, (256 + 3) << 18 | 2 << 9 | (256 + 1)]
}

#[test]
fn p10_f32_reads_quad_lanes_1_and_0() {
    for w64 in [false, true] {
        let mut h = harness(w64);
        h.set_v(1, |l| f(l as f32 + 100.0));
        h.set_v(3, |l| f(l as f32 + 10.0));
        h.wave.sgpr[2] = f(2.0);
        h.run(&p10_f32_sgpr(0)).unwrap();
        for l in 0..h.wave.lanes() {
            let q = (l & !3) as f32;
            assert_eq!(
                h.v(4, l),
                f((q + 1.0 + 100.0) * 2.0 + q + 10.0),
                "wave64={w64} lane {l}"
            );
        }
        assert_eq!(h.v(4, 0), f(212.0));
        assert_eq!(h.v(4, 5), f(224.0));
        // The same with S1 in a VGPR that differs per lane (S1 is the lane's own).
        h.set_v(2, |l| f(l as f32));
        h.run(&P10_F32).unwrap();
        for l in 0..h.wave.lanes() {
            let q = (l & !3) as f32;
            assert_eq!(h.v(4, l), f((q + 101.0) * l as f32 + q + 10.0), "lane {l}");
        }
    }
}

#[test]
fn p10_f16_f32_reads_f16_attributes() {
    for w64 in [false, true] {
        let mut h = harness(w64);
        h.set_v(1, |l| 0xdead_0000 | h16(l as f32));
        h.set_v(3, |l| 0xbeef_0000 | h16(l as f32 + 10.0));
        h.wave.sgpr[2] = f(2.0);
        h.run(&p10_f32_sgpr(2)).unwrap(); // v_interp_p10_f16_f32 v4, v1, s2, v3
        for l in 0..h.wave.lanes() {
            let q = (l & !3) as f32;
            assert_eq!(
                h.v(4, l),
                f((q + 1.0) * 2.0 + q + 10.0),
                "wave64={w64} lane {l}"
            );
        }
        assert_eq!(h.v(4, 2), f(12.0));
        assert_eq!(h.v(4, 6), f(24.0));
        // op_sel:[1,0,1,0]: the high halves.
        let mut h = harness(w64);
        h.set_v(1, |l| h16(l as f32 * 0.5) << 16 | 0x7c00);
        h.set_v(2, |_| f(4.0));
        h.set_v(3, |l| h16(l as f32) << 16 | 0xfc00);
        h.run(&P10_F16_OPSEL).unwrap();
        for l in 0..h.wave.lanes() {
            let q = (l & !3) as f32;
            assert_eq!(h.v(4, l), f((q + 1.0) * 0.5 * 4.0 + q), "lane {l}");
        }
        h.set_v(2, |_| f(3.0));
        h.set_v(1, |l| h16(l as f32));
        h.set_v(3, |l| h16(-(l as f32)));
        h.run(&P10_F16).unwrap();
        for l in 0..h.wave.lanes() {
            let q = (l & !3) as f32;
            assert_eq!(h.v(4, l), f((q + 1.0) * 3.0 - q), "lane {l}");
        }
    }
}

#[test]
fn p2_reads_quad_lane_2_and_its_own_s2() {
    for w64 in [false, true] {
        let mut h = harness(w64);
        h.set_v(1, |l| f(l as f32 * 2.0));
        h.set_v(2, |l| f(l as f32 + 1.0));
        h.set_v(4, |l| f(1000.0 + l as f32));
        h.run(&P2_F32).unwrap();
        for l in 0..h.wave.lanes() {
            let p20 = ((l & !3) + 2) as f32 * 2.0;
            let want = p20 * (l as f32 + 1.0) + 1000.0 + l as f32;
            assert_eq!(h.v(5, l), f(want), "wave64={w64} lane {l}");
        }
        // f16 attribute from the high half, f16 result into the high half (low half kept).
        let mut h = harness(w64);
        h.set_v(1, |l| h16(l as f32) << 16 | 0x1234);
        h.set_v(2, |_| f(0.5));
        h.set_v(4, |l| f(l as f32));
        h.set_v(5, |_| 0x5555_abcd);
        h.run(&P2_F16_OPSEL).unwrap();
        for l in 0..h.wave.lanes() {
            let p20 = ((l & !3) + 2) as f32;
            let want = h16(p20 * 0.5 + l as f32) << 16 | 0xabcd;
            assert_eq!(h.v(5, l), want, "wave64={w64} lane {l}");
        }
    }
}

/// The quad reads ignore EXEC: an active lane 0 still reads lanes 1 (P10) and 0 (P0); lanes
/// that are off keep their destination.
#[test]
fn cross_lane_reads_ignore_exec() {
    for w64 in [false, true] {
        let mut h = harness(w64);
        h.set_v(1, |l| f(l as f32 + 1.0));
        h.set_v(2, |_| f(1.0));
        h.set_v(3, |l| f(l as f32 * 100.0));
        h.set_v(4, |_| 0xdead_beef);
        let exec = 0x1111_1111_1111_1111u64;
        h.wave.set_exec(exec);
        h.run(&P10_F32).unwrap();
        for l in 0..h.wave.lanes() {
            let q = l & !3;
            let want = if exec >> l & 1 != 0 {
                f((q + 2) as f32 + q as f32 * 100.0)
            } else {
                0xdead_beef
            };
            assert_eq!(h.v(4, l), want, "wave64={w64} lane {l}");
        }
    }
}

/// neg on src0 and src2, clamp, wait_exp (no exports are outstanding: the wait ends at once).
#[test]
fn neg_clamp_and_wait_exp() {
    for w64 in [false, true] {
        let mut h = harness(w64);
        h.set_v(1, |_| f(0.25));
        h.set_v(2, |l| f(if l % 2 == 0 { 2.0 } else { -8.0 }));
        h.set_v(3, |_| f(-0.25));
        h.run(&P10_NEG_CLAMP_WAIT).unwrap();
        for l in 0..h.wave.lanes() {
            // -0.25 * S1 + 0.25: 2.0 -> -0.25 -> clamped 0; -8.0 -> 2.25 -> clamped 1.0.
            let want = if l % 2 == 0 { 0.0 } else { 1.0 };
            assert_eq!(h.v(4, l), f(want), "wave64={w64} lane {l}");
        }
    }
}

/// The RTZ forms round toward zero whatever MODE says (MODE here: round to nearest even).
#[test]
fn rtz_forms_round_toward_zero() {
    for w64 in [false, true] {
        let mut h = harness(w64);
        h.set_v(1, |_| h16(1.0));
        h.set_v(2, |_| 0x3eaa_aaab); // 1/3 rounded up in f32
        h.set_v(3, |_| h16(1.0));
        h.run(&P10_F16).unwrap();
        assert_eq!(
            h.v(4, 0),
            0x3faa_aaab,
            "nearest even: 1 + 0x3eaaaaab rounds up"
        );
        h.run(&P10_RTZ).unwrap();
        assert_eq!(h.v(4, 0), 0x3faa_aaaa, "toward zero");
        // P2: fma(1.0, 0.9999, 0) = 0.9999 in f32, then to f16: 1.0 nearest, 0x3bff toward zero.
        h.set_v(2, |_| f(0.9999));
        h.set_v(4, |_| 0);
        h.set_v(5, |_| 0xffff_0000);
        h.run(&P2_RTZ).unwrap();
        assert_eq!(h.v(5, 1), 0xffff_3bff);
        h.run(&[0xcd030005, 0x04120501]).unwrap(); // v_interp_p2_f16_f32 v5, v1, v2, v4
        assert_eq!(h.v(5, 1), 0xffff_3c00);
    }
}

/// SRC0 names a VGPR of other lanes; a scalar there is a typed error, not a guess.
#[test]
fn scalar_attribute_operand_is_an_error() {
    let mut h = harness(false);
    // v_interp_p10_f32 v4, s1, v2, v3 (built from the layout; LLVM does not assemble it)
    let err = h
        .run(&[0xcd00_0004, (256 + 3) << 18 | (256 + 2) << 9 | 1])
        .unwrap_err();
    assert!(err.to_string().contains("must be a VGPR"), "{err}");
}
