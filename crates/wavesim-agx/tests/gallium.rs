//! Mesa 22.3's gallium draw setup (`wavesim_agx::gallium`): a monolithic binary with its preamble,
//! uniforms as the push ranges load them, r5/r6 preloaded, everything else poisoned.

use wavesim_agx::abi::AbiError;
use wavesim_agx::assemble;
use wavesim_agx::gallium::{run_vertex, Shader};
use wavesim_core::memory::DeviceMemory;

fn shader(main: &str, preamble: Option<&str>, nr_gprs: usize) -> Shader {
    let mut code = assemble(main).unwrap();
    let preamble_offset = preamble.map(|p| {
        let at = code.len() as u32;
        code.extend(assemble(p).unwrap());
        at
    });
    Shader {
        code,
        main_offset: 0,
        preamble_offset,
        nr_gprs,
        nr_preamble_gprs: 4,
        uniforms: vec![0; 512],
        approximate: false,
        textures: vec![],
        samplers: vec![],
    }
}

/// The preamble runs first and its `uniform_store` (halves 8-9 = r2) reaches the main part, which
/// adds the vertex id (r5) to it and stores it to output slot 4; r6 (the instance id) goes to
/// slot 0. Expected: out4 = 0x100 + vertex id (integer add of the preamble's 0x100), out0 = instance.
#[test]
fn preamble_uniforms_and_preloaded_ids() {
    let mut s = shader(
        "iadd r8, u4, r5\nst_var 0, r8, 4\nst_var_final 0, r6, 0\nstop",
        Some("mov_imm r2, 0x100\nuniform_store 2, i16, xy, 0, r2l_r2h, 8\nstop"),
        9,
    );
    s.uniforms[0] = 0xDEAD; // a pushed half the shader does not read
    let dev = DeviceMemory::new();
    let run = run_vertex(&s, 3, 2, &dev).unwrap();
    assert_eq!(run.invocations.len(), 6);
    for (i, inv) in run.invocations.iter().enumerate() {
        assert_eq!(
            (inv.vertex_id, inv.instance_id),
            (i as u32 % 3, i as u32 / 3)
        );
        assert_eq!(
            inv.varyings,
            vec![(4, 0x100 + inv.vertex_id), (0, inv.instance_id)]
        );
    }
}

/// r0-r4 and r7 are not inputs under this driver: reading one is a typed error naming it.
#[test]
fn registers_other_than_r5_r6_are_undefined() {
    let s = shader("iadd r8, r7, r5\nst_var_final 0, r8, 0\nstop", None, 9);
    let err = run_vertex(&s, 1, 1, &DeviceMemory::new()).unwrap_err();
    assert!(matches!(err, AbiError::Exec { .. }), "{err}");
    assert!(err.to_string().contains("r7"), "{err}");
}

/// Offsets past the code and more than 128 registers are configuration errors.
#[test]
fn bad_offsets_are_errors() {
    let mut s = shader("stop", None, 8);
    s.preamble_offset = Some(64);
    assert!(matches!(
        run_vertex(&s, 1, 1, &DeviceMemory::new()),
        Err(AbiError::Config { .. })
    ));
    let mut s = shader("stop", None, 129);
    s.nr_gprs = 129;
    assert!(matches!(
        run_vertex(&s, 1, 1, &DeviceMemory::new()),
        Err(AbiError::Config { .. })
    ));
}

/// Mesa's `iter` packing (`agx_pack.c`, AGX_OPCODE_ITER: 0x21, dest at bit 7, L, cf at bit 16,
/// channels at bit 30), centre interpolation, no perspective.
fn iter_word(dst_half: u64, cf: u64, channels: u64) -> [u8; 8] {
    let d = dst_half << 2 | 2;
    (0x21 | (d & 0xFF) << 7 | 1 << 15 | cf << 16 | channels << 30 | (d >> 8) << 56).to_le_bytes()
}

/// Mesa 22.3's `st_tile` packing (see tests/tile.rs): r4-r7, 32-bit, u8norm, xyzw.
const ST_TILE_R4_U8NORM: u64 = 0x09 | 0x22 << 7 | 4 << 24 | 0xF << 36 | 0x0380FC << 40;

/// A 40x36 framebuffer (two 32x32 tiles each way, partial 8x4 groups at the edges): each pixel's
/// render target 0 holds u8norm of (A(x+0.5) + B(y+0.5) + C) for the planes [1/64, 0, 0],
/// [0, 1/64, 0], [0, 0, 0.25] and the constant 1.0, the planes moved to each tile's corner by the
/// runner: bytes round_half_even(255 (x+0.5)/64) clamped, the same for y, round(63.75) = 64, 255.
#[test]
fn fragment_draw_stores_render_target_0() {
    let mut code = iter_word(8, 0, 3).to_vec();
    code.extend(assemble(&format!("mov_imm r7, {}", 1f32.to_bits())).unwrap());
    code.extend(ST_TILE_R4_U8NORM.to_le_bytes());
    code.extend(assemble("wait_pix 12, 0\nstop").unwrap());
    let mut s = shader("stop", None, 8);
    s.code = code;
    let draw = wavesim_agx::gallium::FragmentDraw {
        width: 40,
        height: 36,
        coefficients: vec![
            [1.0 / 64.0, 0.0, 0.0],
            [0.0, 1.0 / 64.0, 0.0],
            [0.0, 0.0, 0.25],
        ],
        back_facing: None,
        end_of_tile: None,
        samples: 1,
        triangle: None,
    };
    let r = wavesim_agx::gallium::run_fragment(&s, &draw, &DeviceMemory::new()).unwrap();
    let unorm = |v: f64| (v.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8;
    for y in 0..36u32 {
        for x in 0..40u32 {
            let px = r.pixels[(y * 40 + x) as usize];
            let want = [
                unorm((f64::from(x) + 0.5) / 64.0),
                unorm((f64::from(y) + 0.5) / 64.0),
                64,
                255,
            ];
            assert_eq!(px[..4], want, "pixel {x} {y}");
        }
    }
}

/// Mesa 22.3 packs every interpolated `iter` with bit 46 set (applegpu's `elide`): the value read is
/// the plain interpolation, the same as with the bit clear (A(x+0.5) + B(y+0.5) + C here).
#[test]
fn iter_with_mesa_22_3_bit_46_reads_the_same() {
    let draw = wavesim_agx::gallium::FragmentDraw {
        width: 8,
        height: 4,
        coefficients: vec![
            [1.0 / 64.0, 0.0, 0.0],
            [0.0, 1.0 / 64.0, 0.0],
            [0.0, 0.0, 0.25],
        ],
        back_facing: None,
        end_of_tile: None,
        samples: 1,
        triangle: None,
    };
    let mut results = vec![];
    for bit46 in [0u64, 1 << 46] {
        let word = u64::from_le_bytes(iter_word(8, 0, 3)) | bit46;
        let mut code = word.to_le_bytes().to_vec();
        code.extend(assemble(&format!("mov_imm r7, {}", 1f32.to_bits())).unwrap());
        code.extend(ST_TILE_R4_U8NORM.to_le_bytes());
        code.extend(assemble("stop").unwrap());
        let mut s = shader("stop", None, 8);
        s.code = code;
        let r = wavesim_agx::gallium::run_fragment(&s, &draw, &DeviceMemory::new()).unwrap();
        assert_eq!(r.pixels[9][..4], [6, 6, 64, 255]); // (1, 1): 255 * 1.5 / 64 = 5.98 -> 6
        results.push(r.pixels);
    }
    assert_eq!(results[0], results[1]);
}

/// gl_FrontFacing under the 22.3 driver: `get_sr sr62` (Mesa's `load_back_face_agx`, 1 when
/// back-facing) converted to float and stored u8norm: byte 0 is 255 for a back-facing draw and 0
/// for a front-facing one (round(clamp(v, 0, 1) * 255)); with no facing given the read is a typed
/// error naming sr62.
#[test]
fn fragment_draw_facing_is_sr62() {
    let mut code = assemble("get_sr r4, sr62\nconvert u32_to_f, r4, r4, rte").unwrap();
    code.extend(assemble("mov_imm r5, 0\nmov_imm r6, 0\nmov_imm r7, 0").unwrap());
    code.extend(ST_TILE_R4_U8NORM.to_le_bytes());
    code.extend(assemble("stop").unwrap());
    let mut s = shader("stop", None, 8);
    s.code = code;
    for (back, want) in [(Some(false), 0u8), (Some(true), 255), (None, 1)] {
        let draw = wavesim_agx::gallium::FragmentDraw {
            width: 8,
            height: 4,
            coefficients: vec![],
            back_facing: back,
            end_of_tile: None,
            samples: 1,
            triangle: None,
        };
        match wavesim_agx::gallium::run_fragment(&s, &draw, &DeviceMemory::new()) {
            Ok(r) => {
                assert!(back.is_some());
                assert!(r.pixels.iter().all(|p| p[0] == want), "{back:?}");
            }
            Err(e) => {
                assert!(back.is_none());
                assert!(e.to_string().contains("sr62"), "{e}");
            }
        }
    }
}
