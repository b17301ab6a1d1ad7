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
