//! `st_tile` / `ld_tile` and `wait_pix` as Mesa 22.3's `agx_pack.c` packs them (exec/tile.rs).

use wavesim_agx::exec::tile::{pixel_offset, TILE_BYTES};
use wavesim_agx::exec::{run, Fault, Memories, Program, WaveState, SIMD_WIDTH};
use wavesim_core::memory::DeviceMemory;

/// Mesa 22.3 `agx_pack.c`, AGX_OPCODE_LD_TILE / ST_TILE: D = agx_pack_alu_dst (bit 1: 32-bit, bits
/// 2-9: register in 16-bit units), format at bit 24, mask at bit 36, 0x0380FC << 40; loads set
/// bits 6 and 35.
fn tile_word(load: bool, reg16: u64, wide: bool, format: u64, mask: u64) -> [u8; 8] {
    let d = reg16 << 2 | if wide { 2 } else { 0 };
    let raw = 0x09
        | if load { 1 << 6 | 1 << 35 } else { 0 }
        | (d & 0xFF) << 7
        | format << 24
        | mask << 36
        | 0x0380FC << 40
        | (d >> 8) << 60;
    raw.to_le_bytes()
}

fn fragment_wave(nr_gprs: usize) -> WaveState {
    let mut w = WaveState::new(nr_gprs);
    let xs: [u32; SIMD_WIDTH] = std::array::from_fn(|l| l as u32 % 8 + 3);
    let ys: [u32; SIMD_WIDTH] = std::array::from_fn(|l| l as u32 / 8 + 33);
    w.special.insert(80, xs);
    w.special.insert(81, ys);
    w
}

/// u8norm stores round_half_even(clamp(v, 0, 1) * 255): 0 -> 0, 0.5 -> 127.5 -> 128 (even),
/// 1 -> 255, 2 -> 255 (clamped), at the thread's pixel (x mod 32, y mod 32), 8 bytes a pixel; a
/// load of the same bytes into 16-bit registers gives byte / 255 as f16: 128 / 255 = 0.50196 =
/// 2^-1 x 1.0039, mantissa 0.0039 x 1024 = 4.02 -> 4: 0x3804; 255 -> 1.0 = 0x3C00; 0 -> 0.
#[test]
fn st_tile_then_ld_tile_u8norm() {
    let mut code = tile_word(false, 8, true, 4, 0xF).to_vec(); // st_tile r4..r7 (f32), u8norm
    code.extend(tile_word(true, 20, false, 4, 0xF)); // ld_tile r10l..r11h (f16)
    code.extend([0x88, 0x00]); // stop
    let program = Program::new(code);
    let mut w = fragment_wave(12);
    for lane in 0..SIMD_WIDTH {
        for (r, v) in [(4, 0.0f32), (5, 0.5), (6, 1.0), (7, 2.0)] {
            w.set_reg32(r, lane, v.to_bits());
        }
    }
    let dev = DeviceMemory::new();
    let mut tg = vec![0u8; TILE_BYTES];
    let mut mem = Memories {
        device: &dev,
        threadgroup: &mut tg,
    };
    run(&mut w, &program, &mut mem, 10).unwrap();
    for lane in 0..SIMD_WIDTH {
        let (x, y) = (lane as u32 % 8 + 3, lane as u32 / 8 + 33);
        let at = pixel_offset(x, y);
        assert_eq!(at, 8 * ((y as usize - 32) * 32 + x as usize));
        assert_eq!(&tg[at..at + 4], &[0, 128, 255, 255], "lane {lane}");
        assert_eq!(
            [20, 21, 22, 23].map(|h| w.half(h, lane)),
            [0, 0x3804, 0x3C00, 0x3C00]
        );
    }
}

/// A NaN stores as 0; a partial mask writes only its components (x and w here).
#[test]
fn st_tile_nan_and_mask() {
    let mut code = tile_word(false, 8, true, 4, 0b1001).to_vec();
    code.extend([0x88, 0x00]);
    let mut w = fragment_wave(8);
    for lane in 0..SIMD_WIDTH {
        w.set_reg32(4, lane, f32::NAN.to_bits());
        w.set_reg32(5, lane, 1f32.to_bits());
    }
    let dev = DeviceMemory::new();
    let mut tg = vec![7u8; TILE_BYTES];
    let mut mem = Memories {
        device: &dev,
        threadgroup: &mut tg,
    };
    run(&mut w, &Program::new(code), &mut mem, 10).unwrap();
    let at = pixel_offset(3, 33);
    assert_eq!(&tg[at..at + 4], &[0, 7, 7, 255]);
}

/// `writeout` (Mesa 22.3: 0x48 | imm << 8, = applegpu's `wait_pix`) completes in a fragment run
/// and is a typed error outside one (no pixel); a tile access outside a fragment run too.
#[test]
fn wait_pix_needs_a_fragment_run() {
    let mut code = (0x48u32 | 0xC200 << 8).to_le_bytes().to_vec();
    code.extend([0x88, 0x00]);
    let program = Program::new(code);
    assert!(wavesim_agx::decode(&program.code)
        .unwrap()
        .text(0)
        .starts_with("wait_pix"));
    let dev = DeviceMemory::new();
    let mut tg = vec![0u8; TILE_BYTES];
    let mut mem = Memories {
        device: &dev,
        threadgroup: &mut tg,
    };
    let mut w = fragment_wave(4);
    run(&mut w, &program, &mut mem, 10).unwrap();
    let mut w = WaveState::new(4);
    let err = run(&mut w, &program, &mut mem, 10).unwrap_err();
    assert!(matches!(err.fault, Fault::UnsupportedForm { .. }), "{err}");
    let mut code = tile_word(false, 8, true, 4, 1).to_vec();
    code.extend([0x88, 0x00]);
    let err = run(&mut WaveState::new(8), &Program::new(code), &mut mem, 10).unwrap_err();
    assert!(matches!(err.fault, Fault::UnsupportedForm { .. }), "{err}");
}
