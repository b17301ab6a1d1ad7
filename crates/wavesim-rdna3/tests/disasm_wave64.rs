//! Wave64 spelling of lane masks: `format(.., wave64 = true)` must print what
//! `llvm-objdump-19 -d --mcpu=gfx1100 --mattr=+wavefrontsize64` prints (VCC as `vcc`, scalar
//! lane masks as SGPR pairs), and the wave32 spelling otherwise. Words and texts below were
//! produced with llvm-mc-19 / llvm-objdump-19.

use wavesim_rdna3::decode::decode;
use wavesim_rdna3::disasm::format;

fn text(words: &[u32], wave64: bool) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let inst = decode(&bytes, 0).expect("decodes");
    assert_eq!(inst.len as usize, bytes.len(), "length of {words:08x?}");
    format(&inst, 0, wave64)
}

const CASES: &[(&[u32], &str, &str)] = &[
    (
        &[0x7c98_0002],
        "v_cmp_gt_u32_e32 vcc_lo, s2, v0",
        "v_cmp_gt_u32_e32 vcc, s2, v0",
    ),
    (
        &[0x0202_0702],
        "v_cndmask_b32_e32 v1, v2, v3, vcc_lo",
        "v_cndmask_b32_e32 v1, v2, v3, vcc",
    ),
    (
        &[0x4004_0805],
        "v_add_co_ci_u32_e32 v2, vcc_lo, s5, v4, vcc_lo",
        "v_add_co_ci_u32_e32 v2, vcc, s5, v4, vcc",
    ),
    (
        &[0xd4cc_007e, 0x0002_0405],
        "v_cmpx_gt_u32_e64 s5, v2",
        "v_cmpx_gt_u32_e64 s5, v2",
    ),
    (
        &[0xd700_0400, 0x0002_0204],
        "v_add_co_u32 v0, s4, s4, v1",
        "v_add_co_u32 v0, s[4:5], s4, v1",
    ),
    (
        &[0xd501_0001, 0x001a_0702],
        "v_cndmask_b32_e64 v1, v2, v3, s6",
        "v_cndmask_b32_e64 v1, v2, v3, s[6:7]",
    ),
    (
        &[0x0202_06fa, 0xff00_4a02],
        "v_cndmask_b32_dpp v1, v2, v3, vcc_lo quad_perm:[2,2,0,1] row_mask:0xf bank_mask:0xf",
        "v_cndmask_b32_dpp v1, v2, v3, vcc quad_perm:[2,2,0,1] row_mask:0xf bank_mask:0xf",
    ),
    (
        &[0xd520_0402, 0x001a_0702],
        "v_add_co_ci_u32_e64 v2, s4, v2, v3, s6",
        "v_add_co_ci_u32_e64 v2, s[4:5], v2, v3, s[6:7]",
    ),
    (
        &[0xd6fe_7c01, 0x0400_0c0f],
        "v_mad_u64_u32 v[1:2], null, s15, s6, v[0:1]",
        "v_mad_u64_u32 v[1:2], null, s15, s6, v[0:1]",
    ),
    // Scalar instructions keep their own widths.
    (
        &[0xbe82_206a],
        "s_and_saveexec_b32 s2, vcc_lo",
        "s_and_saveexec_b32 s2, vcc_lo",
    ),
];

#[test]
fn lane_masks_follow_the_wave_size() {
    for (words, w32, w64) in CASES {
        assert_eq!(text(words, false), *w32, "wave32 {words:08x?}");
        assert_eq!(text(words, true), *w64, "wave64 {words:08x?}");
    }
}
