//! DPP control 0x142 (GFX9 row_bcast15, reserved in the RDNA3 ISA) on a VOPC: RDNA3 hardware
//! reads lane 0 of each row (tinygrad `test/amd/hw/test_dpp.py`,
//! TestVOPCDPP16.test_row_bcast15_materializes_vcc: v0 = lane id, `v_cmp_eq_u32` with 0x142
//! and bound_ctrl in wave64 sets VCC for lanes 0, 16, 32, 48 only). Words: llvm-mc-19
//! `v_cmp_eq_u32_dpp vcc, v0, v0 row_share:0 ... bound_ctrl:1` with the control field set to
//! 0x142 (LLVM 19 no longer assembles row_bcast for gfx11).

use wavesim_rdna3::testing::Harness;

const VCC_LO: usize = 106;
const EXEC_LO: usize = 126;

fn mask(h: &Harness, lo: usize) -> u64 {
    let m = h.s(lo) as u64;
    if h.wave.lanes() == 64 {
        m | (h.s(lo + 1) as u64) << 32
    } else {
        m
    }
}

/// VCC bits of lanes 0, 16, 32, 48 (those within the wave).
fn row_starts(w64: bool) -> u64 {
    if w64 {
        0x0001_0001_0001_0001
    } else {
        0x0001_0001
    }
}

#[test]
fn row_bcast15_vopc_writes_vcc_for_row_lane_0() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.set_v(0, |l| l as u32);
        h.wave.sgpr[VCC_LO] = 0xffff_ffff;
        h.wave.sgpr[VCC_LO + 1] = 0xffff_ffff;
        // v_cmp_eq_u32_dpp vcc, v0, v0 (ctrl 0x142) row_mask:0xf bank_mask:0xf bound_ctrl:1
        h.run(&[0x7c9400fa, 0xff094200]).unwrap();
        assert_eq!(mask(&h, VCC_LO), row_starts(w64), "wave64={w64}");
        if !w64 {
            assert_eq!(h.s(VCC_LO + 1), 0xffff_ffff, "wave32 leaves VCC_HI");
        }
        // Then v_cndmask materialises it (the hardware test's check): v1 = vcc ? 1 : 0.
        h.set_v(2, |_| 0);
        h.set_v(3, |_| 1);
        h.run(&[0x02020702]).unwrap(); // v_cndmask_b32_e32 v1, v2, v3, vcc
        for l in 0..h.wave.lanes() {
            assert_eq!(h.v(1, l), (l % 16 == 0) as u32, "wave64={w64} lane {l}");
        }
    }
}

#[test]
fn row_bcast15_vop3_vopc_and_cmpx() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        // v0 = lane id except in lanes 16..31, where every lane holds 16: the compare with
        // row lane 0 (16) is then true in the whole second row.
        h.set_v(0, |l| if (16..32).contains(&l) { 16 } else { l as u32 });
        // v_cmp_eq_u32_e64_dpp s[4:5], v0, v0 (ctrl 0x142) bound_ctrl:1
        h.run(&[0xd44a0004, 0x000200fa, 0xff094200]).unwrap();
        let want = row_starts(w64) | 0xffff_0000;
        assert_eq!(mask(&h, 4), want, "wave64={w64}");
        // v_cmpx_eq_u32_dpp v0, v0 (ctrl 0x142) bound_ctrl:1 writes EXEC.
        h.run(&[0x7d9400fa, 0xff094200]).unwrap();
        assert_eq!(mask(&h, EXEC_LO), want, "wave64={w64}");
    }
}
