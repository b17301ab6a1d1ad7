//! Wave-state rules of the RDNA3 ISA guide (Wave State) / 002 that cut across instruction families: out-of-range VGPR
//! sources (VGPR0; VOPD: address % 4), multi-destination instructions writing nothing when a
//! destination is out of range, the wave64 second half reading VCC_HI, TTMP reads from VALU
//! instructions with and without STATUS.PRIV.
//!
//! Instruction words come from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding`.

use wavesim_rdna3::testing::Harness;
use wavesim_rdna3::wave::{status, Wave};

const SIZES: [bool; 2] = [false, true];
const VCC_LO: usize = 106;
const VCC_HI: usize = 107;
const TTMP0: usize = 108;

/// A harness whose wave has only `vgprs` VGPRs.
fn small(wave64: bool, vgprs: u16) -> Harness {
    let mut h = Harness::new(wave64);
    h.wave = Wave::new(wave64, vgprs);
    h.wave.set_exec(u64::MAX);
    h
}

#[test]
fn an_out_of_range_vgpr_source_reads_vgpr0() {
    for w in SIZES {
        let mut h = small(w, 8);
        h.set_v(0, |l| 100 + l as u32);
        h.set_v(1, |_| 7);
        h.set_v(2, |_| 5);
        h.run(&[0x4a020509]).unwrap(); // v_add_nc_u32_e32 v1, v9, v2
        for l in 0..h.wave.lanes() {
            assert_eq!(
                h.v(1, l),
                105 + l as u32,
                "src0 v9 -> v0, wave64={w} lane {l}"
            );
        }
        h.set_v(1, |_| 7);
        h.run(&[0x4a021302]).unwrap(); // v_add_nc_u32_e32 v1, v2, v9
        assert_eq!(
            h.v(1, 3),
            108,
            "vsrc1 v9 -> v0 (not v9 % 4 = v1), wave64={w}"
        );
    }
}

#[test]
fn vopd_out_of_range_sources_read_address_mod_4() {
    let mut h = small(false, 8);
    h.set_v(0, |_| 1000);
    h.set_v(1, |l| 11 + l as u32);
    h.set_v(2, |l| 22 + l as u32);
    h.run(&[0xca100109, 0x0404010e]).unwrap(); // v_dual_mov_b32 v4, v9 :: v_dual_mov_b32 v5, v14
    for l in 0..32 {
        assert_eq!(h.v(4, l), 11 + l as u32, "v9 % 4 = v1, lane {l}");
        assert_eq!(h.v(5, l), 22 + l as u32, "v14 % 4 = v2, lane {l}");
    }
}

#[test]
fn multi_destination_ops_write_nothing_when_a_vgpr_is_out_of_range() {
    for w in SIZES {
        // v_div_scale_f32 v9 (out of range), vcc: VCC keeps its value.
        let mut h = small(w, 8);
        h.wave.sgpr[VCC_LO] = 0xdead_beef;
        h.wave.sgpr[VCC_HI] = 0xfeed_f00d;
        h.set_v(0, |_| 1e-30f32.to_bits());
        h.set_v(1, |_| 3e10f32.to_bits());
        h.run(&[0xd6fc6a09, 0x04020301]).unwrap(); // v_div_scale_f32 v9, vcc, v1, v1, v0
        assert_eq!(
            (h.s(VCC_LO), h.s(VCC_HI)),
            (0xdead_beef, 0xfeed_f00d),
            "wave64={w}"
        );
        // v_mad_u64_u32 v[7:8] (v8 out of range), s4 / s[4:5]: neither v7 nor the carry.
        let mut h = small(w, 8);
        h.wave.sgpr[4] = 0x1111;
        h.wave.sgpr[5] = 0x2222;
        h.set_v(1, |_| 0xffff_ffff);
        h.set_v(2, |_| 0xffff_ffff);
        h.set_v(7, |_| 0x7777);
        h.run(&[0xd6fe0407, 0x02020501]).unwrap(); // v_mad_u64_u32 v[7:8], s4, v1, v2, 0
        assert_eq!(h.v(7, 0), 0x7777, "wave64={w}");
        assert_eq!((h.s(4), h.s(5)), (0x1111, 0x2222), "wave64={w}");
        // In range (16 VGPRs) the same instruction writes both.
        let mut h = small(w, 16);
        h.set_v(1, |_| 0xffff_ffff);
        h.set_v(2, |_| 0xffff_ffff);
        h.run(&[0xd6fe0407, 0x02020501]).unwrap();
        // 0xffffffff^2 = 0xfffffffe_00000001, no carry out of 64 bits.
        assert_eq!((h.v(7, 0), h.v(8, 0)), (1, 0xffff_fffe), "wave64={w}");
        assert_eq!(h.s(4), 0);
    }
}

#[test]
fn div_fmas_reads_the_lane_s_own_vcc_bit_vcc_hi_in_the_second_half() {
    // fma(1, 1, 1) = 2; with the lane's VCC bit set v_div_fmas scales the result by 2^-64
    // (S2 = 1.0 < 2.0; measured on RDNA3 hardware, see ops::div_fmas).
    let two = 2f32.to_bits();
    let scaled = 2f32.powi(-63).to_bits();
    for w in SIZES {
        let mut h = Harness::new(w);
        h.set_v(0, |_| 1f32.to_bits());
        h.wave.sgpr[VCC_LO] = 0xffff_0000;
        h.wave.sgpr[VCC_HI] = 0x0000_ffff;
        h.run(&[0xd6370002, 0x04020100]).unwrap(); // v_div_fmas_f32 v2, v0, v0, v0
        for l in 0..h.wave.lanes() {
            let vcc = (0x0000_ffff_ffff_0000u64 >> l) & 1 != 0;
            let want = if vcc { scaled } else { two };
            assert_eq!(h.v(2, l), want, "wave64={w} lane {l}");
        }
    }
}

#[test]
fn valu_reads_ttmps_as_zero_outside_the_trap_handler() {
    for w in SIZES {
        let mut h = Harness::new(w);
        h.wave.sgpr[TTMP0] = 0x1234_5678;
        h.run(&[0x7e02026c]).unwrap(); // v_mov_b32_e32 v1, ttmp0
        assert_eq!(h.v(1, 0), 0, "PRIV = 0, wave64={w}");
        h.wave.hw.status |= status::PRIV;
        h.run(&[0x7e02026c]).unwrap();
        assert_eq!(h.v(1, 0), 0x1234_5678, "PRIV = 1, wave64={w}");
    }
}

#[test]
fn a_wave_without_vgprs_runs_valu_as_nops() {
    // Every VGPR is out of range: destinations make the instruction a NOP and sources read v0
    // (RDNA3 ISA guide, Wave State), which must therefore exist even in a wave built with no VGPRs.
    for w64 in [false, true] {
        let mut h = small(w64, 0);
        h.wave.sgpr[0] = 7;
        // v_mov_b32_e32 v1, v2 ; v_add_nc_u32_e32 v0, s0, v3
        h.run(&[0x7e02_0302, 0x4a00_0600]).expect("runs");
        assert!(h.wave.ended);
        assert_eq!(h.wave.vgpr_get(0, 0), 0);
    }
}
