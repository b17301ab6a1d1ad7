//! `zs_emit` and `image_write_block` (Mesa 25.0's FS epilog and end-of-tile program), words packed
//! as Mesa's `agx_pack.c` packs them (AGX_OPCODE_ZS_EMIT, AGX_OPCODE_BLOCK_IMAGE_STORE), run by
//! the fragment runner of `wavesim_agx::gallium` (8x4 groups of quads over 32x32 tiles).

use wavesim_agx::assemble;
use wavesim_agx::exec::{run, Memories, Program, WaveState};
use wavesim_agx::gallium::{run_fragment, EndOfTile, FragmentDraw, FragmentRun, Shader};
use wavesim_core::memory::DeviceMemory;

fn shader(code: Vec<u8>, nr_gprs: usize) -> Shader {
    Shader {
        code,
        main_offset: 0,
        preamble_offset: None,
        nr_gprs,
        nr_preamble_gprs: 0,
        uniforms: vec![0; 512],
        approximate: false,
        textures: vec![],
        samplers: vec![],
    }
}

fn draw(width: u32, height: u32, end_of_tile: Option<EndOfTile>) -> FragmentDraw {
    FragmentDraw {
        width,
        height,
        coefficients: vec![],
        back_facing: None,
        end_of_tile,
        samples: 1,
        triangle: None,
    }
}

/// AGX_OPCODE_ZS_EMIT: 0x41, S immediate (bit 8) or a 16-bit register at bits 9-14 (24-25 high),
/// T's first half at 16-21 (26-27 high), zs (1 = z, 2 = s, 3 = both) at bit 29.
fn zs_emit(s: u32, s_imm: bool, t_half: u32, zs: u32) -> Vec<u8> {
    (0x41
        | u32::from(s_imm) << 8
        | (s & 63) << 9
        | (t_half & 63) << 16
        | (t_half >> 6) << 26
        | (s >> 6) << 24
        | zs << 29)
        .to_le_bytes()
        .to_vec()
}

/// Pixel position as floats: r8 = x, r9 = y.
const XY: &str = "get_sr r10, sr80\nget_sr r11, sr81\nconvert u32_to_f, r8, r10, rte\nconvert u32_to_f, r9, r11, rte\n";

fn run_zs(code: Vec<u8>, width: u32, height: u32) -> Result<FragmentRun, String> {
    run_fragment(
        &shader(code, 12),
        &draw(width, height, None),
        &DeviceMemory::new(),
    )
    .map_err(|e| e.to_string())
}

/// Depth = x / 16 + y / 256 (exact in f32 for these pixels) from r2 (halves 4-5), mask 0xff: every
/// pixel's sample 0 gets exactly that value (Mesa's epilog: `zs_emit 255, r2l_r2h`).
#[test]
fn zs_emit_gives_each_pixel_its_depth() {
    let mut code = assemble(&format!(
        "{XY}fmul32 r2, r8, 0.0625\nmov_imm r3, {}\nfmadd32 r2, r9, r3, r2",
        (1.0f32 / 256.0).to_bits()
    ))
    .unwrap();
    code.extend(zs_emit(0xFF, true, 4, 1));
    code.extend(assemble("stop").unwrap());
    let r = run_zs(code, 40, 36).unwrap();
    for y in 0..36u32 {
        for x in 0..40u32 {
            let want = x as f32 / 16.0 + y as f32 / 256.0;
            assert_eq!(r.depth[(y * 40 + x) as usize], Some(want), "pixel {x} {y}");
            assert_eq!(r.stencil[(y * 40 + x) as usize], None);
        }
    }
}

/// z and s together: T = r2 (depth, halves 4-5) then r3l (half 6, the stencil's low 8 bits).
/// Stencil 0x1234 + x gives 0x34 + x; depth 0.75.
#[test]
fn zs_emit_depth_and_stencil() {
    let mut code = assemble(&format!(
        "get_sr r10, sr80\nmov_imm r2, {}\nmov_imm r3, 0x1234\niadd r3, r3, r10",
        0.75f32.to_bits()
    ))
    .unwrap();
    code.extend(zs_emit(0xFF, true, 4, 3));
    code.extend(assemble("stop").unwrap());
    let r = run_zs(code, 8, 4).unwrap();
    for (i, (z, s)) in r.depth.iter().zip(&r.stencil).enumerate() {
        assert_eq!(*z, Some(0.75));
        assert_eq!(*s, Some(0x34 + (i as u8 % 8)), "pixel {i}");
    }
}

/// The sample mask from a register: r1l = 0 names no sample, so nothing is tested; by Mesa's
/// sample_mask rule 2 a shaded sample must be killed or tested, so the runner stops with an
/// ABI violation. With r1l = 1 sample 0 is tested and written.
#[test]
fn zs_emit_mask_in_a_register() {
    for (mask, ok) in [(0u32, false), (1, true)] {
        let mut code = assemble(&format!(
            "mov_imm r1l, {mask}\nmov_imm r2, {}",
            0.5f32.to_bits()
        ))
        .unwrap();
        code.extend(zs_emit(2, false, 4, 1));
        code.extend(assemble("stop").unwrap());
        match run_zs(code, 8, 4) {
            Ok(r) => {
                assert!(ok);
                assert!(r.depth.iter().all(|z| *z == Some(0.5)));
            }
            Err(e) => {
                assert!(!ok);
                assert!(e.contains("neither killed nor tested"), "{e}");
            }
        }
    }
}

/// Mesa's rule 5: zs_emit once. A second one tests samples already tested: a typed error. u0 set
/// (bits 22-23) is no form Mesa emits; outside a fragment run there are no samples.
#[test]
fn zs_emit_refusals() {
    let mut code = assemble(&format!("mov_imm r2, {}", 0.5f32.to_bits())).unwrap();
    code.extend(zs_emit(0xFF, true, 4, 1));
    code.extend(zs_emit(0xFF, true, 4, 1));
    code.extend(assemble("stop").unwrap());
    let e = run_zs(code, 8, 4).unwrap_err();
    assert!(e.contains("already tested"), "{e}");

    let mut code = assemble(&format!("mov_imm r2, {}", 0.5f32.to_bits())).unwrap();
    let mut word = zs_emit(0xFF, true, 4, 1);
    word[2] |= 0x40; // bit 22: u0 = 1
    code.extend(&word);
    code.extend(assemble("stop").unwrap());
    let e = run_zs(code, 8, 4).unwrap_err();
    assert!(e.contains("u0 = 1"), "{e}");

    let mut w = WaveState::new(8);
    let dev = DeviceMemory::new();
    let mut tg = vec![];
    let mut mem = Memories {
        device: &dev,
        threadgroup: &mut tg,
    };
    let mut code = zs_emit(0xFF, true, 4, 1);
    code.extend(assemble("stop").unwrap());
    let e = run(&mut w, &Program::new(code), &mut mem, 10).unwrap_err();
    assert!(e.to_string().contains("outside a fragment run"), "{e}");
}

/// AGX_OPCODE_BLOCK_IMAGE_STORE as `agx_pack.c` packs Mesa's end-of-tile store: format F, the
/// offset register R (16-bit units), no coordinates, texture state T (immediate), dimension 2D,
/// the length bit, bit 31 (`unk1`, D = immediate LOD 0), q1 = 9, `unk3` (q2) = 1.
fn block_store(format: u32, r_half: u32, t: u32, explicit: bool) -> Vec<u8> {
    let word0: u32 = 0xB1
        | 1 << 15
        | (format & 1) << 8
        | (r_half & 63) << 9
        | u32::from(explicit) << 23
        | 1 << 31;
    let word1: u32 = (t & 63) | 2 << 8 | 9 << 11 | (r_half >> 6) << 24;
    let word2: u16 = (format >> 1) as u16 | 1 << 3 | ((t >> 6) as u16) << 14;
    let mut v = word0.to_le_bytes().to_vec();
    v.extend(word1.to_le_bytes());
    v.extend(word2.to_le_bytes());
    v
}

/// Mesa's `st_tile` packing (tests/tile.rs): r4-r7, 32-bit, u8norm, xyzw, byte offset 0.
const ST_TILE_R4_U8NORM: u64 = 0x09 | 0x22 << 7 | 4 << 24 | 0xF << 36 | 0x0380FC << 40;

/// cmdbuf.xml PBE of a linear `w` x `h` RGBA8 unorm 2D image at `addr` (the fields
/// exec/image.rs reads: dimension 2, layout 0, channels 0x28, identity swizzle, sizes - 1, the
/// address >> 4 at bit 64, row pitch - 4 at bit 104).
fn pbe(w: u32, h: u32, addr: u64) -> [u8; 24] {
    let v: u128 = 2
        | 0x28 << 6
        | (1 << 2 | 2 << 4 | 3 << 6) << 16 // swizzle 0, 1, 2, 3
        | u128::from(w - 1) << 24
        | u128::from(h - 1) << 38
        | u128::from(addr >> 4) << 64
        | u128::from(w * 4 - 4) << 104;
    let mut b = [0u8; 24];
    b[..16].copy_from_slice(&v.to_le_bytes());
    b
}

/// The shader stores u8norm(x / 64), u8norm(y / 64), 0.25, 1 into the tile buffer; the end-of-tile
/// program (`mov_imm r0l, 0` and the block store of render target 0 from offset 0) copies each
/// 32x32 tile to the image whose PBE is `desc`, texel (x, y) at `at(x, y)` bytes from its start.
/// Each texel is the tile buffer's 4 bytes: [round(x/64*255), round(y/64*255), round(0.25*255) =
/// 64, 255].
fn check_block_store(
    w: u32,
    h: u32,
    bytes: u64,
    desc: impl Fn(u64) -> [u8; 24],
    at: impl Fn(u32, u32) -> u64,
) {
    let mut code = assemble(&format!(
        "{XY}mov_imm r3, {}\nfmul32 r4, r8, r3\nfmul32 r5, r9, r3\nmov_imm r6, {}\nmov_imm r7, {}",
        (1.0f32 / 64.0).to_bits(),
        0.25f32.to_bits(),
        1.0f32.to_bits()
    ))
    .unwrap();
    code.extend(ST_TILE_R4_U8NORM.to_le_bytes());
    code.extend(assemble("stop").unwrap());
    let mut dev = DeviceMemory::new();
    let image = dev.alloc(bytes, 16).unwrap();
    let mut eot = assemble("mov_imm r0l, 0").unwrap();
    eot.extend(block_store(4, 0, 0, false));
    eot.extend(assemble("stop").unwrap());
    let end = EndOfTile {
        code: eot,
        nr_gprs: 2,
        pbe: desc(image),
        more_pbes: vec![],
        clear: None,
    };
    let r = run_fragment(&shader(code, 12), &draw(w, h, Some(end)), &dev).unwrap();
    let unorm = |v: f32| (v.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8;
    for y in 0..h {
        for x in 0..w {
            let mut got = [0u8; 4];
            dev.read(image + at(x, y), &mut got).unwrap();
            let want = [unorm(x as f32 / 64.0), unorm(y as f32 / 64.0), 64, 255];
            assert_eq!(got, want, "texel {x} {y}");
            assert_eq!(r.pixels[(y * w + x) as usize][..4], want);
        }
    }
}

/// A linear 40x36 image: 4 tiles, the right and bottom ones clipped; texel (x, y) at (y w + x) 4.
#[test]
fn block_store_copies_every_tile_to_the_image() {
    let (w, h) = (40u32, 36u32);
    check_block_store(
        w,
        h,
        u64::from(w * h * 4),
        |a| pbe(w, h, a),
        |x, y| u64::from((y * w + x) * 4),
    );
}

/// A twiddled render target (PBE layout 2 at bits 4-5, one level): 70x36 RGBA8 is below one
/// 64x64 tile in height, so level 0 starts ail's power-of-two tree: 128x64 texels (32 KiB), its
/// tile the smaller true side rounded up, next_pow2(36) = 64, two tiles a row (ceil(70 / 64)).
/// Texel (x, y) is at ((y / 64) 2 + x / 64) 4096 + morton(x % 64, y % 64) texels, morton putting
/// x's bits at the even positions and y's at the odd ones (`ail_space_bits`); 6 32x32 fragment
/// tiles (the right column clipped to 6 pixels) land across both image tiles.
#[test]
fn block_store_to_a_twiddled_image() {
    let (w, h) = (70u32, 36u32);
    let spread = |v: u32| (0..6).fold(0u64, |m, i| m | u64::from(v >> i & 1) << (2 * i));
    let twiddled = |a: u64| {
        let mut d = pbe(w, h, a);
        d[0] = d[0] & !0x30 | 2 << 4;
        // bits 104-124 held the linear pitch; a twiddled PBE has levels - 1 = 0 there
        let mut v = u128::from_le_bytes(d[..16].try_into().unwrap());
        v &= !(((1u128 << 21) - 1) << 104);
        d[..16].copy_from_slice(&v.to_le_bytes());
        d
    };
    check_block_store(w, h, 128 * 64 * 4, twiddled, |x, y| {
        let tile = u64::from(y / 64 * 2 + x / 64);
        (tile * 4096 + (spread(x % 64) | spread(y % 64) << 1)) * 4
    });
}

/// Forms no source gives a rule for, and misuse: explicit coordinates, another tile format (i8),
/// another texture than RGBA8 (the PBE's channels), threads disagreeing on the offset, and a
/// block store outside an end-of-tile run.
#[test]
fn block_store_refusals() {
    let (w, h) = (8u32, 4u32);
    let main = {
        let mut c = assemble("mov_imm r4, 0\nmov_imm r5, 0\nmov_imm r6, 0\nmov_imm r7, 0").unwrap();
        c.extend(ST_TILE_R4_U8NORM.to_le_bytes());
        c.extend(assemble("stop").unwrap());
        c
    };
    let cases: [(&str, Vec<u8>, bool, &str); 3] = [
        (
            "mov_imm r0l, 0",
            block_store(4, 0, 0, true),
            false,
            "explicit coordinates 1",
        ),
        (
            "mov_imm r0l, 0",
            block_store(0, 0, 0, false),
            false,
            "tile format 0",
        ),
        (
            "mov_imm r0l, 0",
            block_store(4, 0, 0, false),
            true,
            "channels",
        ),
    ];
    for (pre, word, bad_pbe, needle) in cases {
        let mut dev = DeviceMemory::new();
        let image = dev.alloc(u64::from(w * h * 4), 16).unwrap();
        let mut eot = assemble(pre).unwrap();
        eot.extend(word);
        eot.extend(assemble("stop").unwrap());
        let mut desc = pbe(w, h, image);
        if bad_pbe {
            desc[0] ^= 0x40; // channels 0x29
        }
        let end = EndOfTile {
            code: eot,
            nr_gprs: 2,
            pbe: desc,
            more_pbes: vec![],
            clear: None,
        };
        let e = run_fragment(&shader(main.clone(), 8), &draw(w, h, Some(end)), &dev)
            .unwrap_err()
            .to_string();
        assert!(e.contains(needle), "{needle}: {e}");
    }
    // directly on a SIMD group: no tile, then threads whose offsets (r0l) differ
    let mut dev = DeviceMemory::new();
    let image = dev.alloc(u64::from(w * h * 4), 16).unwrap();
    let mut tg = vec![0u8; 8192];
    let mut code = block_store(4, 0, 0, false);
    code.extend(assemble("stop").unwrap());
    for tile in [None, Some([0, 0])] {
        let mut wave = WaveState::new(2);
        wave.textures = vec![pbe(w, h, image)];
        wave.tile_origin = tile;
        for lane in 0..32 {
            wave.set_half(0, lane, (lane as u16 & 1) * 4);
        }
        let mut mem = Memories {
            device: &dev,
            threadgroup: &mut tg,
        };
        let e = run(&mut wave, &Program::new(code.clone()), &mut mem, 10).unwrap_err();
        let needle = if tile.is_none() {
            "outside an end-of-tile run"
        } else {
            "offset differs"
        };
        assert!(e.to_string().contains(needle), "{e}");
    }
}
