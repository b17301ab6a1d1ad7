//! Multisampling in the linked-program runner (`wavesim_agx::gallium` with `samples` > 1): the
//! tile buffer's layout, per-sample `st_tile`/`ld_tile`, `sample_mask` kills per sample, the
//! sample-count and coverage special registers, Mesa's sample loop (agx_fast_link's header and
//! footer) and the multisampled end-of-tile store. Expected values are derived from the rules in
//! each test's comment.

use wavesim_agx::assemble;
use wavesim_agx::exec::tile::TileLayout;
use wavesim_agx::exec::{Memories, Program, WaveState, SIMD_WIDTH};
#[path = "common/gallium_shader.rs"]
mod gallium_shader;

use gallium_shader::shader;
use wavesim_agx::gallium::{run_fragment, EndOfTile, FragmentDraw, FragmentRun};
use wavesim_core::memory::DeviceMemory;

fn draw(width: u32, height: u32, samples: u32, end_of_tile: Option<EndOfTile>) -> FragmentDraw {
    FragmentDraw {
        width,
        height,
        coefficients: vec![],
        back_facing: None,
        end_of_tile,
        samples,
        triangle: None,
    }
}

fn run(asm: &str, width: u32, height: u32, samples: u32) -> Result<FragmentRun, String> {
    let code = assemble(asm).map_err(|e| e.to_string())?;
    run_fragment(
        &shader(code),
        &draw(width, height, samples, None),
        &DeviceMemory::new(),
    )
    .map_err(|e| e.to_string())
}

/// Sample `s` of pixel (x, y) in a run's records.
fn record(r: &FragmentRun, width: u32, x: u32, y: u32, s: u32) -> [u8; 8] {
    r.pixels[((y * width + x) * r.samples + s) as usize]
}

/// Mesa's agx_select_tile_size with 8-byte samples: the first of 32x32, 32x16, 16x16 whose
/// `8 x samples x pixels` is at most 32767. 1 sample: 8 x 1024 = 8192; 2: 16384 (32x32); 4:
/// 32 x 1024 = 32768 > 32767, so 32x16 at 16384 bytes. G13 has no other counts.
#[test]
fn tile_layout_follows_agx_select_tile_size() {
    let size = |n| TileLayout::for_samples(n).map(|l| (l.width, l.height, l.bytes()));
    assert_eq!(size(1), Some((32, 32, 8192)));
    assert_eq!(size(2), Some((32, 32, 16384)));
    assert_eq!(size(4), Some((32, 16, 16384)));
    assert_eq!(size(3), None);
    assert_eq!(size(8), None);
    // a pixel's samples are consecutive 8-byte records: sample 3 of pixel (1, 0) at 4 samples
    // is record 1 * 4 + 3 = 7, byte 56; pixel (0, 17) of a 32x16 tile is row 1: record 32 * 4
    let l = TileLayout::for_samples(4).unwrap();
    assert_eq!(l.offset(1, 0, 3), 56);
    assert_eq!(l.offset(0, 17, 0), 8 * 32 * 4);
}

/// `st_tile` with the immediate mask 255 writes every sample of the pixel that is not killed
/// (Mesa's sample_mask rule 1). The shader kills samples 1 and 3 (`sample_mask 0xA, 0`), tests
/// the rest (`sample_mask 0xffff, 255`: rule 2) and stores 1.0 in all four channels: samples 0
/// and 2 hold u8norm(1.0) = 255, samples 1 and 3 keep the zeroed tile. 4 samples, 40x20 pixels
/// (two 32x16 tiles each way).
#[test]
fn store_skips_killed_samples() {
    let one = 1f32.to_bits();
    let asm = format!(
        "mov_imm r0h, 10\nsample_mask r0h, 0\nmov_imm r0h, 65535\nsample_mask r0h, 255\n\
         mov_imm r4, {one}\nmov_imm r5, {one}\nmov_imm r6, {one}\nmov_imm r7, {one}\n\
         st_tile r4_r5_r6_r7, u8norm, 0, xyzw, 0, 255, 0\nstop"
    );
    let r = run(&asm, 40, 20, 4).unwrap();
    assert_eq!(r.samples, 4);
    assert_eq!(r.pixels.len(), 40 * 20 * 4);
    for (x, y) in [(0, 0), (39, 19), (33, 17), (5, 16)] {
        for s in 0..4 {
            let want = if s % 2 == 0 {
                [255, 255, 255, 255]
            } else {
                [0; 4]
            };
            assert_eq!(
                record(&r, 40, x, y, s)[..4],
                want,
                "pixel {x} {y} sample {s}"
            );
        }
    }
}

/// A register sample mask (as Mesa's per-sample lowering gives it): r0h = 4 stores sample 2 only.
/// `ld_tile` of one sample (mask 4) reads it back (255 -> 1.0 exactly), and `st_tile` mask 1
/// copies it to sample 0; sample 1 and 3 stay 0. An `ld_tile` naming two samples has no defined
/// single value: a typed error.
#[test]
fn register_mask_and_single_sample_load() {
    let one = 1f32.to_bits();
    let asm = format!(
        "mov_imm r0h, 4\nmov_imm r4, {one}\nmov_imm r5, 0\nmov_imm r6, {one}\nmov_imm r7, 0\n\
         st_tile r4_r5_r6_r7, u8norm, 0, xyzw, 0, r0h, 0\n\
         ld_tile r8_r9_r10_r11, u8norm, 0, xyzw, 0, 4, 0\n\
         st_tile r8_r9_r10_r11, u8norm, 0, xyzw, 0, 1, 0\nstop"
    );
    let r = run(&asm, 8, 4, 4).unwrap();
    for s in 0..4 {
        let want = if s % 2 == 0 { [255, 0, 255, 0] } else { [0; 4] };
        assert_eq!(record(&r, 8, 3, 2, s)[..4], want, "sample {s}");
    }
    let bad = asm.replace("xyzw, 0, 4, 0", "xyzw, 0, 5, 0");
    let e = run(&bad, 8, 4, 4).unwrap_err();
    assert!(e.contains("ld_tile of sample mask 0x5"), "{e}");
}

/// sr14 is log2 of the sample count (Mesa's `load_samples_log2_agx`) and sr124 the pixel's
/// input coverage (`load_sample_mask_in`): every sample, the draw covering the framebuffer. As
/// i32 tile data (`st_tile r2_r3, i32, xy`: bytes 0-3 and 4-7 of the sample): 2 samples give 1
/// and 0b11, 4 samples 2 and 0b1111, 1 sample 0 and 1.
#[test]
fn sample_count_and_coverage_registers() {
    let asm = "get_sr r2, sr14\nget_sr r3, sr124\nst_tile r2_r3, i32, 0, xy, 0, 255, 0\nstop";
    for (samples, log2, mask) in [(1u32, 0u32, 1u32), (2, 1, 3), (4, 2, 15)] {
        let r = run(asm, 8, 4, samples).unwrap();
        for s in 0..samples {
            let rec = record(&r, 8, 7, 3, s);
            assert_eq!(rec[..4], log2.to_le_bytes(), "{samples} samples");
            assert_eq!(rec[4..], mask.to_le_bytes(), "{samples} samples");
        }
    }
}

/// Mesa's sample loop as agx_fast_link links it (agx_linker.c): `mov_imm r0l, 0; mov_imm r1l,
/// 1`, the body, `iadd r1l, 0, r1l, lsl 1; while_icmp r0l, ult, r1l, (1 << n) - 1;
/// jmp_exec_any BODY; pop_exec r0l, 1; stop`. The body stores sample id / 4 (the id from
/// `ffs r1l`, the bit being shaded) to sample `r1l & 255`. The loop runs r1l = 1, 2, 4, 8 at 4
/// samples: sample s holds u8norm(s / 4) = round_half_even(255 s / 4) = 0, 64 (63.75), 128
/// (127.5, the even neighbour), 191 (191.25). At 2 samples (END 3): 0 and 64.
#[test]
fn mesa_sample_loop_shades_each_sample() {
    for samples in [2u32, 4] {
        let end = (1 << samples) - 1;
        let asm = format!(
            "mov_imm r0l, 0\nmov_imm r1l, 1\n\
             ffs r2, r1l\nconvert s32_to_f, r2, r2, rte\nfmul32 r4, r2, 0.25\n\
             mov_imm r5, 0\nmov_imm r6, 0\nmov_imm r7, 0\nand r0h, 255, r1l\n\
             wait_pix 12, 0\nst_tile r4_r5_r6_r7, u8norm, 0, xyzw, 0, r0h, 0\n\
             iadd r1l, 0, r1l, lsl 1\nwhile_icmp r0l, ult, r1l, {end}, 1\n\
             jmp_exec_any 0x8\npop_exec r0l, 1\nstop"
        );
        let r = run(&asm, 16, 8, samples).unwrap();
        let want = [0u8, 64, 128, 191];
        for (x, y) in [(0, 0), (15, 7), (9, 4)] {
            for s in 0..samples {
                assert_eq!(
                    record(&r, 16, x, y, s)[0],
                    want[s as usize],
                    "{samples} samples: pixel {x} {y} sample {s}"
                );
            }
        }
    }
}

/// A 16x16 4-sample twiddled RGBA8 PBE as the gallium driver fills it for a multisampled image:
/// dimension 4 (2D multisampled), layout 2 (twiddled), channels 0x28, swizzle RGBA, width and
/// height - 1, Samples 1 (4 samples), software words aligned width 16, 16x16 tile (log2 4), sample
/// count log2 2 (cmdbuf.xml PBE).
fn ms_pbe(address: u64, samples_field: u128) -> [u8; 24] {
    let mut v: u128 = 4 | 2 << 4 | 0x28 << 6 | (1 << 2 | 2 << 4 | 3 << 6) << 16;
    v |= 15 << 24 | 15 << 38 | samples_field << 56 | u128::from(address >> 4) << 64;
    let hi: u64 = 16 | 4 << (155 - 128) | 4 << (158 - 128) | 2 << (188 - 128);
    let mut out = [0u8; 24];
    out[..16].copy_from_slice(&v.to_le_bytes());
    out[16..].copy_from_slice(&hi.to_le_bytes());
    out
}

/// The main part of the multisampled store tests: Mesa's sample loop writing red = 16 x + s per
/// sample (i8 data from r2l, the other three bytes r2h, r3l, r3h = 0: `st_tile` i8 moves each
/// register's low byte).
const RED_PER_SAMPLE: &str = "mov_imm r0l, 0\nmov_imm r1l, 1\n\
     get_sr r2, sr80\nffs r3, r1l\niadd r2, r3, r2, lsl 4\n\
     mov_imm r3, 0\nand r0h, 255, r1l\n\
     st_tile r2l_r2h_r3l_r3h, i8, 0, xyzw, 0, r0h, 0\n\
     iadd r1l, 0, r1l, lsl 1\nwhile_icmp r0l, ult, r1l, 15, 1\n\
     jmp_exec_any 0x8\npop_exec r0l, 1\nstop";

/// Mesa 25.0's end-of-tile program for a 4-sample RGBA8 tile, as its compiler emitted it
/// (corpus/agx/gl25msaa/end_of_tile_4x.bin): `mov_imm r0l, 0; image_write_block r0l,
/// r0l_r0h_r1l_r1h_r2l, 0, ts0, tex_2d_ms, rte, u8norm, 0, 9, 1; stop` (wavesim's assembler
/// does not take the block store's coordinate operand).
fn eot_4x() -> Vec<u8> {
    let mut eot = assemble("mov_imm r0l, 0").unwrap();
    eot.extend([0xb1, 0x80, 0x00, 0x80, 0x00, 0x4c, 0x00, 0x00, 0x0a, 0x00]);
    eot.extend(assemble("stop").unwrap());
    eot
}

/// The multisampled end-of-tile store (Mesa's `agx_build_end_of_tile_shader` for a 4-sample tile:
/// `image_write_block` of kind tex_2d_ms): sample s of pixel (x, y) goes to libagx's address
/// (Morton(x, y) << 2 | s) * 4 in the one 16x16 software tile. The main part writes red =
/// 16 x + s per sample through Mesa's sample loop (i8 data from r2l, the other three bytes r2h,
/// r3l, r3h = 0: `st_tile` i8 moves each register's low byte). Pixel (3, 1): Morton 0b111 = 7,
/// so sample 2 sits at byte (7 * 4 + 2) * 4 = 120 and holds 3 * 16 + 2 = 50. A PBE claiming 2
/// samples for this 4-sample tile is refused.
#[test]
fn multisampled_end_of_tile_store() {
    for (samples_field, ok) in [(1u128, true), (0, false)] {
        let mut dev = DeviceMemory::new();
        let image = dev.alloc(16 * 16 * 4 * 4, 64).unwrap();
        let end_of_tile = EndOfTile {
            code: eot_4x(),
            nr_gprs: 3,
            pbe: ms_pbe(image, samples_field),
            more_pbes: vec![],
            clear: None,
        };
        let r = run_fragment(
            &shader(assemble(RED_PER_SAMPLE).unwrap()),
            &draw(16, 16, 4, Some(end_of_tile)),
            &dev,
        );
        match r {
            Ok(_) => {
                assert!(ok);
                let mut b = [0u8; 4];
                dev.read(image + 120, &mut b).unwrap();
                assert_eq!(b, [50, 0, 0, 0]);
                // every sample: red = 16 x + s at its libagx address
                for y in 0..16u32 {
                    for x in 0..16u32 {
                        let mut morton = 0;
                        for bit in 0..4 {
                            morton |= (x >> bit & 1) << (2 * bit) | (y >> bit & 1) << (2 * bit + 1);
                        }
                        for s in 0..4 {
                            dev.read(image + u64::from((morton * 4 + s) * 4), &mut b)
                                .unwrap();
                            assert_eq!(b[0], (16 * x + s) as u8, "pixel {x} {y} sample {s}");
                        }
                    }
                }
            }
            Err(e) => {
                assert!(!ok, "{e}");
                assert!(e.to_string().contains("2 samples"), "{e}");
            }
        }
    }
}

/// Sample counts G13 does not have are configuration errors.
#[test]
fn sample_counts_other_than_1_2_4_are_refused() {
    let e = run("stop", 8, 4, 8).unwrap_err();
    assert!(e.contains("8 samples (1, 2 or 4)"), "{e}");
}

/// `zs_emit` under Mesa's sample loop (as Mesa emits it for gl_FragDepth with sample shading:
/// `and r0h, 255, r1l; zs_emit r0h, r2l_r2h`): each pass tests and gives a value to its own
/// sample only, so Mesa's "zs_emit once" holds per sample. Depth = sample id / 8 + x / 64 (exact
/// in f32): sample s of pixel (x, y) gets s / 8 + x / 64. The word is Mesa's (`41020420`: S the
/// register r0h, T r2, z), which wavesim's assembler does not take.
#[test]
fn zs_emit_per_sample_in_the_sample_loop() {
    // `wait_pix 2, 0` holds the zs_emit word's place while the loop's branch is assembled
    let mut code = assemble(
        "mov_imm r0l, 0\nmov_imm r1l, 1\n\
         get_sr r3, sr80\nconvert u32_to_f, r3, r3, rte\nfmul32 r3, r3, 0.015625\n\
         ffs r2, r1l\nconvert s32_to_f, r2, r2, rte\nfmul32 r2, r2, 0.125\nfadd32 r2, r2, r3\n\
         and r0h, 255, r1l\nwait_pix 1, 0\nwait_pix 2, 0\n\
         iadd r1l, 0, r1l, lsl 1\nwhile_icmp r0l, ult, r1l, 15, 1\njmp_exec_any 0x8\n\
         pop_exec r0l, 1\nstop",
    )
    .unwrap();
    let at = code
        .windows(4)
        .position(|w| w == [0x48, 0x02, 0x00, 0x00])
        .unwrap();
    code[at..at + 4].copy_from_slice(&[0x41, 0x02, 0x04, 0x20]);
    let r = run_fragment(&shader(code), &draw(8, 4, 4, None), &DeviceMemory::new()).unwrap();
    for y in 0..4u32 {
        for x in 0..8u32 {
            for s in 0..4u32 {
                let want = s as f32 / 8.0 + x as f32 / 64.0;
                let i = ((y * 8 + x) * 4 + s) as usize;
                assert_eq!(r.depth[i], Some(want), "pixel {x} {y} sample {s}");
            }
        }
    }
}

/// What the multisampled end-of-tile store writes, a multisampled `texture_load` (Mesa's txf_ms,
/// `texelFetch(sampler2DMS, p, s)`, as tests/texture_ms.rs packs it) reads back: the store
/// addresses the image from the PBE's software words (16x16 tile, aligned width 16, 2^2
/// samples), the load from the TEXTURE descriptor alone (ail's tile for 16-byte elements of a
/// 16x16 image: one 16x16 tile). The main part writes red = 16 x + s (as in
/// `multisampled_end_of_tile_store`); thread l fetches pixel (l mod 16, l / 2), sample l mod 4,
/// and reads (16 x + s) / 255 in f32 for red and 0 for the rest.
#[test]
fn multisampled_fetch_reads_what_the_end_of_tile_store_wrote() {
    let mut dev = DeviceMemory::new();
    let image = dev.alloc(16 * 16 * 4 * 4, 64).unwrap();
    let end_of_tile = EndOfTile {
        code: eot_4x(),
        nr_gprs: 3,
        pbe: ms_pbe(image, 1),
        more_pbes: vec![],
        clear: None,
    };
    run_fragment(
        &shader(assemble(RED_PER_SAMPLE).unwrap()),
        &draw(16, 16, 4, Some(end_of_tile)),
        &dev,
    )
    .unwrap();
    // TEXTURE: dimension 4, twiddled, R8G8B8A8 unorm, swizzle RGBA, 16x16, Samples 1 (4)
    let v: u128 = 4
        | 2 << 4
        | 0x28 << 6
        | (1 << 3 | 2 << 6 | 3 << 9) << 16
        | 15 << 28
        | 15 << 42
        | 1 << 64
        | u128::from(image >> 4) << 66;
    let mut desc = [0u8; 24];
    desc[..16].copy_from_slice(&v.to_le_bytes());
    let word: u64 = 0x31 | 1 << 6 | 1 << 8 | 16 << 9 | 8 << 16 | 4 << 40 | 12 << 43 | 0xF << 48;
    let mut code = word.to_le_bytes().to_vec();
    code.extend([0x88, 0x00]);
    let mut w = WaveState::new(12);
    w.textures = vec![desc];
    let pick = |l: usize| [l as u32 % 16, l as u32 / 2, l as u32 % 4];
    for l in 0..SIMD_WIDTH {
        for (i, v) in pick(l).into_iter().enumerate() {
            w.set_reg32(4 + i, l, v);
        }
    }
    let mut tg = vec![];
    let mut mem = Memories {
        device: &dev,
        threadgroup: &mut tg,
    };
    wavesim_agx::exec::run(&mut w, &Program::new(code), &mut mem, 10).unwrap();
    for l in 0..SIMD_WIDTH {
        let [x, _, s] = pick(l);
        let red = ((16 * x + s) as f32 / 255.0).to_bits();
        let got = [8, 9, 10, 11].map(|r| w.reg32(r, l));
        assert_eq!(got, [red, 0, 0, 0], "thread {l}");
    }
}
