//! DPP16 / DPP8 source swizzles lane by lane (RDNA3 ISA 7.7): every DPP16 pattern, row and
//! bank masks, BOUND_CTRL and FI with disabled and out-of-row source lanes, DPP8 with and
//! without FI, DPP on VOP2 and VOP3 ops, wave32 and wave64.
//! Words from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding`.

use wavesim_rdna3::testing::Harness;

const OLD: u32 = 0xdead;

fn src(l: usize) -> u32 {
    100 + l as u32
}

/// Runs `v_mov_b32_dpp v0, v1 <dpp>` (v1 = 100 + lane, v0 = OLD) under `exec`; returns v0.
fn mov_dpp(w64: bool, words: &[u32], exec: u64) -> Vec<u32> {
    let mut h = Harness::new(w64);
    h.set_v(0, |_| OLD);
    h.set_v(1, src);
    h.wave.set_exec(exec);
    h.run(words).unwrap();
    (0..h.wave.lanes()).map(|l| h.v(0, l)).collect()
}

/// Checks a DPP16 pattern with all lanes active: `from(lane)` is the lane read, or None for an
/// out-of-row source (which then reads `oob`, or keeps OLD when `oob` is None).
fn check16(name: &str, words: &[u32], from: impl Fn(usize) -> Option<usize>, oob: Option<u32>) {
    for w64 in [false, true] {
        let got = mov_dpp(w64, words, u64::MAX);
        for (l, &g) in got.iter().enumerate() {
            let want = match from(l) {
                Some(s) => src(s),
                None => oob.unwrap_or(OLD),
            };
            assert_eq!(g, want, "{name} lane {l} wave64={w64}");
        }
    }
}

#[test]
fn dpp16_patterns() {
    let row = |l: usize| l & !15;
    // quad_perm:[3,2,1,0]
    check16(
        "quad_perm",
        &[0x7e0002fa, 0xff001b01],
        |l| Some((l & !3) | (3 - (l & 3))),
        None,
    );
    // row_shl:1 - lane r reads r + 1; lane 15 of each row has no source and keeps v0
    check16(
        "row_shl:1",
        &[0x7e0002fa, 0xff010101],
        |l| (l % 16 < 15).then(|| l + 1),
        None,
    );
    // row_shr:3 bound_ctrl:1 - lanes 0-2 of each row read zero
    check16(
        "row_shr:3 bc",
        &[0x7e0002fa, 0xff091301],
        |l| (l % 16 >= 3).then(|| l - 3),
        Some(0),
    );
    // row_ror:4
    check16(
        "row_ror:4",
        &[0x7e0002fa, 0xff012401],
        |l| Some(row(l) + (l % 16 + 12) % 16),
        None,
    );
    // row_mirror
    check16(
        "row_mirror",
        &[0x7e0002fa, 0xff014001],
        |l| Some(row(l) + 15 - l % 16),
        None,
    );
    // row_half_mirror
    check16(
        "row_half_mirror",
        &[0x7e0002fa, 0xff014101],
        |l| Some((l & !7) + 7 - l % 8),
        None,
    );
    // row_share:5
    check16(
        "row_share:5",
        &[0x7e0002fa, 0xff015501],
        |l| Some(row(l) + 5),
        None,
    );
    // row_xmask:3
    check16(
        "row_xmask:3",
        &[0x7e0002fa, 0xff016301],
        |l| Some(row(l) + ((l % 16) ^ 3)),
        None,
    );
}

#[test]
fn dpp16_row_and_bank_masks_gate_writes() {
    for w64 in [false, true] {
        // quad_perm:[0,1,2,3] (identity) row_mask:0x5 bank_mask:0x6
        let got = mov_dpp(w64, &[0x7e0002fa, 0x5600e401], u64::MAX);
        for (l, &g) in got.iter().enumerate() {
            let row_on = [0, 2].contains(&(l / 16));
            let bank_on = [1, 2].contains(&((l % 16) / 4));
            let want = if row_on && bank_on { src(l) } else { OLD };
            assert_eq!(g, want, "lane {l} wave64={w64}");
        }
    }
}

#[test]
fn dpp16_bound_ctrl_and_fetch_inactive() {
    for w64 in [false, true] {
        // Lane 4 (and 36) inactive: lane 5 reads it through row_shr:1.
        let exec = !(1u64 << 4 | 1 << 36);
        let lane_mask = if w64 { u64::MAX } else { u32::MAX as u64 };
        // row_shr:1, BC=0 FI=0: a disabled source lane disables the write
        let got = mov_dpp(w64, &[0x7e0002fa, 0xff011101], exec);
        assert_eq!(got[5], OLD);
        assert_eq!(got[4], OLD, "inactive lane not written");
        assert_eq!(got[6], src(5));
        assert_eq!(got[0], OLD, "out of row keeps the old value");
        // row_shr:1 fi:1: the disabled lane is fetched; out-of-row still decided by BC=0
        let got = mov_dpp(w64, &[0x7e0002fa, 0xff051101], exec);
        assert_eq!(got[5], src(4));
        assert_eq!(got[16], OLD);
        // row_shr:1 bound_ctrl:1 fi:1: out-of-row reads zero, disabled lanes are fetched
        let got = mov_dpp(w64, &[0x7e0002fa, 0xff0d1101], exec);
        assert_eq!(got[5], src(4));
        assert_eq!(got[16], 0);
        assert_eq!(got[0], 0);
        if w64 {
            assert_eq!(got[37], src(36));
            assert_eq!(got[48], 0);
        }
        // row_shr:3 bound_ctrl:1 (FI=0): a disabled source reads zero
        let got = mov_dpp(w64, &[0x7e0002fa, 0xff091301], exec & lane_mask);
        assert_eq!(got[7], 0);
        assert_eq!(got[8], src(5));
    }
}

#[test]
fn dpp8_swizzles_within_groups_of_eight() {
    for w64 in [false, true] {
        // dpp8:[7,6,5,4,3,2,1,0]
        let got = mov_dpp(w64, &[0x7e0002e9, 0x05397701], u64::MAX);
        for (l, &g) in got.iter().enumerate() {
            assert_eq!(g, src((l & !7) + 7 - l % 8), "lane {l}");
        }
        // dpp8:[1,1,1,1,0,0,0,0] with lane 1 inactive: DPP8 reads 0, DPP8FI reads the value
        let exec = !(1u64 << 1);
        let got = mov_dpp(w64, &[0x7e0002e9, 0x00024901], exec);
        assert_eq!(&got[..8], &[0, OLD, 0, 0, src(0), src(0), src(0), src(0)]);
        assert_eq!(got[8], src(9));
        let got = mov_dpp(w64, &[0x7e0002ea, 0x00024901], exec);
        assert_eq!(&got[..4], &[src(1), OLD, src(1), src(1)]);
    }
}

#[test]
fn dpp_on_vop2_and_vop3_integer_ops() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.set_v(0, |_| OLD);
        h.set_v(1, src);
        h.set_v(2, |l| 1000 * l as u32);
        // v_add_nc_u32_dpp v0, v1, v2 row_shr:1 bound_ctrl:1 - DPP applies to src0 only
        h.run(&[0x4a0004fa, 0xff091101]).unwrap();
        for l in 0..h.wave.lanes() {
            let s0 = if l % 16 == 0 { 0 } else { src(l - 1) };
            assert_eq!(h.v(0, l), s0 + 1000 * l as u32, "lane {l}");
        }
        h.set_v(0, |_| OLD);
        // v_add_nc_u32_e64_dpp v0, v1, v2 row_shl:2 (BC=0: lanes 14, 15 keep v0)
        h.run(&[0xd5250000, 0x000204fa, 0xff010201]).unwrap();
        for l in 0..h.wave.lanes() {
            let want = if l % 16 >= 14 {
                OLD
            } else {
                src(l + 2) + 1000 * l as u32
            };
            assert_eq!(h.v(0, l), want, "lane {l}");
        }
    }
}
