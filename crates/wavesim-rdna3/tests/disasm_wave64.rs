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

fn raw(words: &[u32], wave64: bool) -> String {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    wavesim_rdna3::disasm::disassemble_raw(&bytes, wave64).expect("lists")
}

/// VOPD is wave32-only: objdump's wave64 listing prints its first dword as `.long` and decodes
/// the second dword as an instruction of its own. Words: `v_dual_mul_f32 v2, v1, v1 ::
/// v_dual_mul_f32 v3, s4, v5` then `v_mov_b32_e32 v0, 0`.
#[test]
fn vopd_is_data_in_wave64_listings() {
    let words = [0xc8c6_0301, 0x0202_0a04, 0x7e00_0280];
    assert_eq!(
        raw(&words, false),
        "\tv_dual_mul_f32 v2, v1, v1 :: v_dual_mul_f32 v3, s4, v5     // 000000000000: C8C60301 02020A04\n\
         \tv_mov_b32_e32 v0, 0                                        // 000000000008: 7E000280\n"
    );
    assert_eq!(
        raw(&words, true),
        "\t.long 0xc8c60301                                           // 000000000000: C8C60301\n\
         \tv_cndmask_b32_e32 v1, s4, v5, vcc                          // 000000000004: 02020A04\n\
         \tv_mov_b32_e32 v0, 0                                        // 000000000008: 7E000280\n"
    );
    // A VOPD decoded for wave32 and printed with the wave64 spelling.
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let inst = decode(&bytes, 0).expect("decodes");
    assert_eq!(format(&inst, 0, true), ".long 0xc8c60301");
    let inst = wavesim_rdna3::decode::decode_wave64(&bytes, 0).expect("decodes");
    assert!(inst.is_invalid());
    assert_eq!(inst.len, 4);
}

/// WMMA's D and C matrices are 8 VGPRs in wave32 and 4 in wave64; the range check follows
/// (v[252:255] fits only in wave64), and LLVM's wave64 decoder attaches a literal C.
#[test]
fn wmma_accumulator_width_follows_the_wave_size() {
    // v_wmma_f32_16x16x16_f16 with D = v1, A = v12, B = v3, C = v4.
    let w = [0xcc40_0001, 0x1c12_070c];
    assert_eq!(
        text(&w, false),
        "v_wmma_f32_16x16x16_f16 v[1:8], v[12:19], v[3:10], v[4:11]"
    );
    let bytes: Vec<u8> = w.iter().flat_map(|w| w.to_le_bytes()).collect();
    let i64 = wavesim_rdna3::decode::decode_wave64(&bytes, 0).expect("decodes");
    assert_eq!(
        format(&i64, 0, true),
        "v_wmma_f32_16x16x16_f16 v[1:4], v[12:19], v[3:10], v[4:7]"
    );
    // D = v252: only the wave64 form exists.
    let w = [0xcc40_40fc, 0x1c12_0702];
    assert_eq!(
        raw(&w, true),
        "\tv_wmma_f32_16x16x16_f16 v[252:255], v[2:9], v[3:10], v[4:7]// 000000000000: CC4040FC 1C120702\n"
    );
    assert!(raw(&w, false).starts_with("\t.long 0xcc4040fc"));
    // C = s4: a register-class remark with the wave's tuple width.
    let w = [0xcc40_0001, 0x2012_070c];
    assert_eq!(
        text(&w, false),
        "v_wmma_f32_16x16x16_f16 v[1:8], v[12:19], v[3:10], s[4:11]/*Invalid register, operand has 'VReg_256' register class*/ neg_lo:[1,0,0]"
    );
    assert_eq!(
        raw(&w, true),
        "\tv_wmma_f32_16x16x16_f16 v[1:4], v[12:19], v[3:10], s[4:7]/*Invalid register, operand has 'VReg_128' register class*/ neg_lo:[1,0,0]// 000000000000: CC400001 2012070C\n"
    );
    // C = literal 1.0: wave32 prints 0, wave64 the value.
    let w = [0xcc40_4013, 0x1bfe_28ff, 0x3f80_0000];
    assert!(raw(&w, true).starts_with(
        "\tv_wmma_f32_16x16x16_f16 v[19:22], 1.0/*Invalid immediate*/, v[20:27], 1.0// "
    ));
}

/// In wave64 a lane-mask operand is an SGPR pair: LLVM drops bit 0 of an odd register number.
#[test]
fn odd_lane_mask_registers_print_as_the_pair() {
    // v_cmp_f_f16_e64 with sdst field 1.
    let w = [0xd400_0001, 0x0002_0702];
    assert_eq!(text(&w, false), "v_cmp_f_f16_e64 s1, v2, v3");
    assert_eq!(text(&w, true), "v_cmp_f_f16_e64 s[0:1], v2, v3");
}
