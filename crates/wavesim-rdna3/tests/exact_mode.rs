//! The initial MODE of code run without a kernel descriptor (the C ABI's `run_asm`) is the
//! MODE a default kernel descriptor gives: f32 denormals flushed, f16/f64 denormals kept,
//! round to nearest even, DX10_CLAMP and IEEE on (AMDGPUUsage ".amdhsa_kernel" defaults).

use wavesim_rdna3::codeobj::KernelDescriptor;
use wavesim_rdna3::exec::operand::MODE_KERNEL_DESCRIPTOR_DEFAULT;
use wavesim_rdna3::testing::Harness;

/// The 64 descriptor bytes llvm-mc-19 -triple=amdgcn-amd-amdhsa -mcpu=gfx1100 writes for an
/// `.amdhsa_kernel` that only sets next_free_vgpr/sgpr: COMPUTE_PGM_RSRC1 = 0x60ac0000,
/// kernel_code_properties = 0x0400 (wave32).
fn default_descriptor() -> KernelDescriptor {
    let mut b = [0u8; 64];
    b[48..52].copy_from_slice(&0x60ac_0000u32.to_le_bytes());
    b[52..56].copy_from_slice(&0x0000_0080u32.to_le_bytes());
    b[56..58].copy_from_slice(&0x0400u16.to_le_bytes());
    KernelDescriptor::parse(&b).unwrap()
}

#[test]
fn run_asm_mode_is_the_default_descriptor_mode() {
    assert_eq!(
        default_descriptor().initial_mode(),
        MODE_KERNEL_DESCRIPTOR_DEFAULT
    );
    assert_eq!(MODE_KERNEL_DESCRIPTOR_DEFAULT, 0x3c0);
}

/// Under that MODE, v_mul_f32 2.0 * denormal gives +0 (the f32 input is flushed), while an
/// f16 denormal is kept (2.0 * 2^-24 = 2^-23 in f16).
#[test]
fn f32_denormals_flush_f16_are_kept() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.wave.hw.mode = MODE_KERNEL_DESCRIPTOR_DEFAULT;
        h.set_v(0, |l| 1 + l as u32); // f32 denormals
        h.run(&[0x100200f4]).unwrap(); // v_mul_f32_e32 v1, 2.0, v0
        for l in 0..h.wave.lanes() {
            assert_eq!(h.v(1, l), 0, "wave64={w64} lane {l}");
        }
        h.set_v(0, |_| 0x0001); // f16 2^-24
        h.set_v(1, |_| 0);
        h.run(&[0x6a0200f4]).unwrap(); // v_mul_f16_e32 v1, 2.0, v0
        assert_eq!(h.v(1, 0), 0x0002);
    }
}

/// Through the real `run_asm` path (`hsa::launch::run_host_asm`, host memory): one work-item
/// stores v_mul_f32(2.0, 2^-149) = +0 (f32 denormal flushed) and v_mul_f16(2.0, 2^-24) = 2^-23
/// (f16 denormal kept) to the buffer whose address is the kernarg.
#[test]
fn run_host_asm_starts_with_the_default_descriptor_mode() {
    let words: [u32; 13] = [
        0xf4040080, 0xf8000000, // s_load_b64 s[2:3], s[0:1], 0x0
        0x7e020281, // v_mov_b32_e32 v1, 1
        0x100202f4, // v_mul_f32_e32 v1, 2.0, v1
        0x7e040281, // v_mov_b32_e32 v2, 1
        0x6a0404f4, // v_mul_f16_e32 v2, 2.0, v2
        0x7e000280, // v_mov_b32_e32 v0, 0
        0xbf89fc07, // s_waitcnt lgkmcnt(0)
        0xdc6a0000, 0x00020100, // global_store_b32 v0, v1, s[2:3]
        0xdc6a0004, 0x00020200, // global_store_b32 v0, v2, s[2:3] offset:4
        0xbfb00000, // s_endpgm
    ];
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut out = [0xdead_beefu32; 2];
    let kernarg: [u64; 1] = [out.as_mut_ptr() as u64];
    // SAFETY: the kernel reads the 8-byte kernarg and writes the two words of `out`, both live
    // host memory that nothing else touches during the call.
    unsafe {
        wavesim_rdna3::hsa::launch::run_host_asm(
            &code,
            [1, 1, 1],
            [1, 1, 1],
            kernarg.as_ptr() as u64,
            0,
            0,
            1000,
            wavesim_rdna3::isa::Target::Gfx1100,
        )
    }
    .unwrap();
    assert_eq!(out, [0, 0x0002]);
}
