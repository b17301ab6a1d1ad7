//! Cross-lane VALU (RDNA3 ISA opcode pseudocode, the RDNA3 ISA guide (Wave State)): v_readlane / v_readfirstlane /
//! v_writelane ignore EXEC; permlane16 / x16 rotations, FI and BOUND_CTRL; permlane64;
//! M0-relative moves and swaps with their out-of-range rules. wave32 and wave64.
//! Words from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding`.

use wavesim_rdna3::testing::Harness;
use wavesim_rdna3::wave::Wave;

const M0: usize = 125;

fn lanes(h: &Harness, r: usize) -> Vec<u32> {
    (0..h.wave.lanes()).map(|l| h.v(r, l)).collect()
}

#[test]
fn readlane_selects_lane_modulo_wave_size_and_ignores_exec() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.set_v(1, |l| 1000 + l as u32);
        h.wave.set_exec(0);
        // v_readlane_b32 s5, v1, 7
        h.run(&[0xd7600005, 0x00010f01]).unwrap();
        assert_eq!(h.s(5), 1007);
        // v_readlane_b32 s5, v1, s6 with s6 = 37: lane 37 & (lanes - 1)
        h.wave.sgpr[6] = 37;
        h.run(&[0xd7600005, 0x00000d01]).unwrap();
        assert_eq!(h.s(5), if w64 { 1037 } else { 1005 });
        // v_readlane_b32 s5, v1, m0
        h.wave.sgpr[M0] = 3;
        h.run(&[0xd7600005, 0x0000fb01]).unwrap();
        assert_eq!(h.s(5), 1003);
    }
}

#[test]
fn readfirstlane_uses_lowest_active_lane_or_lane_zero() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.set_v(1, |l| 1000 + l as u32);
        // v_readfirstlane_b32 s5, v1
        h.wave.set_exec(0b1000);
        h.run(&[0x7e0a0501]).unwrap();
        assert_eq!(h.s(5), 1003);
        h.wave.set_exec(0);
        h.run(&[0x7e0a0501]).unwrap();
        assert_eq!(h.s(5), 1000);
        if w64 {
            h.wave.set_exec(1 << 40);
            h.run(&[0x7e0a0501]).unwrap();
            assert_eq!(h.s(5), 1040);
        }
    }
}

#[test]
fn writelane_writes_even_with_exec_zero() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.wave.set_exec(0);
        h.wave.sgpr[1] = 77;
        // v_writelane_b32 v0, s1, 5
        h.run(&[0xd7610000, 0x00010a01]).unwrap();
        assert_eq!(h.v(0, 5), 77);
        assert_eq!(h.v(0, 4), 0);
        // v_writelane_b32 v0, 0x1234, s2 with s2 = 70: lane 70 & (lanes - 1) = 6
        h.wave.sgpr[2] = 70;
        h.run(&[0xd7610000, 0x000004ff, 0x00001234]).unwrap();
        assert_eq!(h.v(0, 6), 0x1234);
    }
}

/// s2/s3 selects rotating each row by one lane (the ISA's v_permlane16_b32 example).
fn rot_selects(h: &mut Harness) {
    h.wave.sgpr[2] = 0x87654321;
    h.wave.sgpr[3] = 0x0fedcba9;
}

#[test]
fn permlane16_and_x16_rotate() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        rot_selects(&mut h);
        h.set_v(1, |l| 1000 + l as u32);
        // v_permlane16_b32 v0, v1, s2, s3
        h.run(&[0xd65b0000, 0x000c0501]).unwrap();
        for l in 0..h.wave.lanes() {
            let s = (l & !15) + (l + 1) % 16;
            assert_eq!(h.v(0, l), 1000 + s as u32, "permlane16 lane {l}");
        }
        // v_permlanex16_b32 v0, v1, s2, s3: the other row of the pair
        h.run(&[0xd65c0000, 0x000c0501]).unwrap();
        for l in 0..h.wave.lanes() {
            let other = ((l / 16) ^ 1) * 16;
            assert_eq!(
                h.v(0, l),
                1000 + (other + (l + 1) % 16) as u32,
                "permlanex16 lane {l}"
            );
        }
    }
}

#[test]
fn permlane16_fetch_inactive_and_bound_ctrl() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        rot_selects(&mut h);
        h.set_v(1, |l| 1000 + l as u32);
        let exec = 0x7fff7fff_7fff7fffu64 & h.wave.lane_mask();
        h.wave.set_exec(exec);
        // Lane 14 reads lane 15, which is inactive.
        h.set_v(0, |_| 5);
        h.run(&[0xd65b0000, 0x000c0501]).unwrap();
        assert_eq!((h.v(0, 14), h.v(0, 13), h.v(0, 15)), (5, 1014, 5));
        // op_sel:[1,0] = FI: fetch it anyway
        h.run(&[0xd65b0800, 0x000c0501]).unwrap();
        assert_eq!(h.v(0, 14), 1015);
        assert_eq!(h.v(0, 30), 1031);
        // op_sel:[0,1] = BOUND_CTRL: read zero
        h.run(&[0xd65b1000, 0x000c0501]).unwrap();
        assert_eq!(h.v(0, 14), 0);
        assert_eq!(h.v(0, 15), 5, "an inactive lane is never written");
    }
}

#[test]
fn permlane64_swaps_halves_in_wave64_only() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.set_v(1, |l| 1000 + l as u32);
        h.set_v(0, |_| 7);
        h.wave.set_exec(h.wave.lane_mask() & !(1 << 3));
        // v_permlane64_b32 v0, v1
        h.run(&[0x7e00cf01]).unwrap();
        if w64 {
            assert_eq!(h.v(0, 0), 1032);
            assert_eq!(h.v(0, 40), 1008);
            assert_eq!(h.v(0, 3), 7, "EXEC of the destination lane applies");
        } else {
            assert!(lanes(&h, 0).iter().all(|&v| v == 7), "a NOP in wave32");
        }
    }
}

#[test]
fn movrel_family() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        for r in 0..32 {
            h.set_v(r, |l| 100 * r as u32 + l as u32);
        }
        h.wave.sgpr[M0] = 10;
        // v_movreld_b32 v5, v7: v15 = v7
        h.run(&[0x7e0a8507]).unwrap();
        assert_eq!(h.v(15, 2), 702);
        // v_movrels_b32 v5, v7: v5 = v17
        h.run(&[0x7e0a8707]).unwrap();
        assert_eq!(h.v(5, 2), 1702);
        // v_movrels_b32_e64 v5, v7 (same op, VOP3 form)
        h.set_v(5, |_| 0);
        h.run(&[0xd5c30005, 0x00000107]).unwrap();
        assert_eq!(h.v(5, 2), 1702);
        // v_movrelsd_b32 v5, v7: v15 = v17
        h.run(&[0x7e0a8907]).unwrap();
        assert_eq!(h.v(15, 3), 1703);
        // v_movrelsd_2_b32 v5, v7 with M0 = (20 << 16) | 10: v25 = v17
        h.wave.sgpr[M0] = 20 << 16 | 10;
        h.run(&[0x7e0a9107]).unwrap();
        assert_eq!(h.v(25, 4), 1704);
    }
}

#[test]
fn movrel_out_of_range() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.wave = Wave::new(w64, 32);
        h.wave.set_exec(u64::MAX);
        for r in 0..32 {
            h.set_v(r, |l| 100 * r as u32 + l as u32);
        }
        h.wave.sgpr[M0] = 100;
        // v_movrels_b32 v5, v7: v107 does not exist, so VGPR0 is read
        h.run(&[0x7e0a8707]).unwrap();
        assert_eq!(h.v(5, 1), 1);
        // v_movreld_b32 v5, v7: destination out of range, nothing written
        let before: Vec<Vec<u32>> = (0..32).map(|r| lanes(&h, r)).collect();
        h.run(&[0x7e0a8507]).unwrap();
        let after: Vec<Vec<u32>> = (0..32).map(|r| lanes(&h, r)).collect();
        assert_eq!(before, after);
    }
}

#[test]
fn swap_and_swaprel() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        for r in 0..16 {
            h.set_v(r, |l| 100 * r as u32 + l as u32);
        }
        h.wave.set_exec(h.wave.lane_mask() & !1);
        // v_swap_b32 v0, v1
        h.run(&[0x7e00cb01]).unwrap();
        assert_eq!((h.v(0, 1), h.v(1, 1)), (101, 1));
        assert_eq!((h.v(0, 0), h.v(1, 0)), (0, 100), "inactive lane untouched");
        // v_swaprel_b32 v5, v7 with M0 = (2 << 16) | 3: swaps v10 (src + 3) and v7 (dst + 2)
        h.wave.sgpr[M0] = 2 << 16 | 3;
        h.run(&[0x7e0ad107]).unwrap();
        assert_eq!((h.v(10, 2), h.v(7, 2)), (702, 1002));
        // Either side out of range: nothing happens.
        let mut h = Harness::new(w64);
        h.wave = Wave::new(w64, 12);
        h.wave.set_exec(u64::MAX);
        h.set_v(7, |_| 7);
        h.set_v(10, |_| 10);
        h.wave.sgpr[M0] = 20 << 16 | 3;
        h.run(&[0x7e0ad107]).unwrap();
        assert_eq!((h.v(7, 0), h.v(10, 0)), (7, 10));
    }
}
