//! RADV's captured pixel shaders run on wavesim's RDNA3 executor with the launch state read
//! from their captures alone (tests/graphics/captures/*/registers.txt: SPI_PS_INPUT_ENA/ADDR,
//! SPI_SHADER_PGM_RSRC1/2_PS, SPI_SHADER_USER_DATA_PS_n, SPI_PS_IN_CONTROL.PS_W32_EN), and
//! export what their GLSL says, derived here from the RDNA3 ISA guide's rules:
//! - interpolation (VINTERP, 16.13): v_interp_p10_f32 = fma(P10, I, P0), v_interp_p2_f32 =
//!   fma(P20, J, that), with P0 = vertex 0's value, P10 = v1 - v0, P20 = v2 - v0 (the SPI's
//!   parameter layout);
//! - v_cvt_pk_rtz_f16_f32: two f32 rounded toward zero to f16, src0 in the low half;
//! - SPI_SHADER_COL_FORMAT 4 (FP16_ABGR): `exp mrt0` of two dwords, (R, G) then (B, A).

use half::f16;
use std::collections::HashMap;
use std::path::PathBuf;
use wavesim_core::memory::DeviceMemory;
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::gfx::pal::initial_mode;
use wavesim_rdna3::gfx::ps::{
    canonical_start, run_ps_wave, Attribute, PrimParams, PsWaveSetup, PS_INPUT_VGPRS,
};

const BASE: u64 = 0x1_0000;

fn capture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/graphics/captures")
        .join(name)
}

/// registers.txt: register name -> value.
fn registers(name: &str) -> HashMap<String, u32> {
    let text = std::fs::read_to_string(capture(name).join("registers.txt")).unwrap();
    text.lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            let v = u32::from_str_radix(f[3].trim_start_matches("0x"), 16).unwrap();
            (f[2].to_string(), v)
        })
        .collect()
}

/// f32 -> f16 rounded toward zero, from `half`'s round-to-nearest result.
fn f16_rtz(x: f32) -> u32 {
    let h = f16::from_f32(x);
    (if h.to_f32().abs() > x.abs() {
        h.to_bits() - 1
    } else {
        h.to_bits()
    }) as u32
}

fn pack(lo: f32, hi: f32) -> u32 {
    f16_rtz(lo) | f16_rtz(hi) << 16
}

/// Per lane barycentrics I and J with full f32 mantissas.
fn bary(l: usize) -> (f32, f32) {
    let i = (l as f32 * 0.0371 + 0.0137) / 3.0;
    let j = 1.0 - i - (l as f32 * 0.0113 + 0.071) / 7.0;
    (i, j)
}

/// SPI_PS_INPUT_ENA bits (RDNA3 ISA guide, 3.3 "Initial wave state").
const PERSP_CENTER: usize = 1;
const LINEAR_CENTER: usize = 5;
const POS_X_FLOAT: usize = 8;
const POS_Y_FLOAT: usize = 9;

/// The pixel column of lane `l` (a block 8 pixels wide) as POS_X_FLOAT gives it: the centre.
fn pos_x(l: usize) -> f32 {
    (l % 8) as f32 + 0.5
}

/// The pixel row of lane `l` (a block 8 pixels wide) as POS_Y_FLOAT gives it: the centre.
fn pos_y(l: usize) -> f32 {
    (l / 8) as f32 + 0.5
}

/// Linear (noperspective) barycentrics: different from the perspective ones.
fn linear_bary(l: usize) -> (f32, f32) {
    let (i, j) = bary(63 - l);
    (j * 0.75, i * 0.5)
}

/// The captured PS of `name` run over one wave whose lanes all cover one primitive with the
/// smooth attribute `attr0` per vertex; returns (wave64, the export records).
fn run(name: &str, attr0: [[f32; 4]; 3]) -> (bool, Vec<wavesim_rdna3::gfx::ExportRecord>) {
    run_attrs(
        name,
        vec![Attribute {
            vertices: attr0,
            flat: false,
        }],
    )
}

/// `run` with several attributes; every lane gets PERSP_CENTER = `bary`, LINEAR_CENTER =
/// `linear_bary` and POS_Y_FLOAT = `pos_y` (the ENA bits decide which the wave loads).
fn run_attrs(
    name: &str,
    attributes: Vec<Attribute>,
) -> (bool, Vec<wavesim_rdna3::gfx::ExportRecord>) {
    run_with(name, attributes, &DeviceMemory::default(), &[])
}

/// `run_attrs` with device memory and user SGPRs replaced (`(index, value)`): a captured
/// pointer names the application's memory, which the test builds anew.
fn run_with(
    name: &str,
    attributes: Vec<Attribute>,
    mem: &DeviceMemory,
    user_patch: &[(usize, u32)],
) -> (bool, Vec<wavesim_rdna3::gfx::ExportRecord>) {
    let r = registers(name);
    let wave64 = r["SPI_PS_IN_CONTROL"] >> 15 & 1 == 0;
    let lanes = if wave64 { 64 } else { 32 };
    let rsrc1 = r["SPI_SHADER_PGM_RSRC1_PS"];
    let rsrc2 = r["SPI_SHADER_PGM_RSRC2_PS"];
    // RSRC2.USER_SGPR [5:1] user SGPRs, from USER_DATA_PS_0 on.
    let mut user: Vec<u32> = (0..(rsrc2 >> 1 & 0x1f))
        .map(|k| r[&format!("SPI_SHADER_USER_DATA_PS_{k}")])
        .collect();
    for &(k, v) in user_patch {
        user[k] = v;
    }
    let inputs = (0..lanes)
        .map(|l| {
            let mut v = [0u32; PS_INPUT_VGPRS];
            let (i, j) = bary(l);
            let p = canonical_start(PERSP_CENTER);
            v[p] = i.to_bits();
            v[p + 1] = j.to_bits();
            let (li, lj) = linear_bary(l);
            let q = canonical_start(LINEAR_CENTER);
            v[q] = li.to_bits();
            v[q + 1] = lj.to_bits();
            v[canonical_start(POS_X_FLOAT)] = pos_x(l).to_bits();
            v[canonical_start(POS_Y_FLOAT)] = pos_y(l).to_bits();
            v
        })
        .collect();
    let setup = PsWaveSetup {
        wave64,
        // RSRC1.VGPRS [5:0]: granules of 8 (wave32) or 4 (wave64) VGPRs.
        num_vgprs: (((rsrc1 & 0x3f) + 1) * if wave64 { 4 } else { 8 }) as u16,
        spi_ps_input_ena: r["SPI_PS_INPUT_ENA"],
        spi_ps_input_addr: r["SPI_PS_INPUT_ADDR"],
        rsrc2,
        user_sgprs: user,
        exec: if wave64 { u64::MAX } else { 0xffff_ffff },
        inputs,
        quad_prims: vec![0; lanes / 4],
        prims: vec![PrimParams { attributes }],
        lds_param_offset: 0,
        lds_bytes: 65536,
        skip_export: false,
        mode: initial_mode(rsrc1),
        scratch_addr: 0,
        scratch_lane_bytes: 0,
    };
    let code = std::fs::read(capture(name).join("hw_ps.bin")).unwrap();
    let prog = Program::new(&code, BASE).unwrap();
    let res =
        run_ps_wave(&prog, BASE, &setup, mem, 10_000).unwrap_or_else(|e| panic!("{name}: {e}"));
    (wave64, res.exports)
}

#[test]
fn radv_clear_ps_exports_the_clear_colour_from_user_sgprs() {
    // RADV's clear: v_cvt_pk_rtz_f16_f32 v0, s2, s3; v_cvt_pk_rtz_f16_f32 v1, s4, s5; exp mrt0
    // v0, v1. s2..s5 are USER_DATA_PS_2..5, the render pass's clear colour (0, 0, 0, 1).
    let r = registers("clear");
    assert_eq!(r["SPI_SHADER_COL_FORMAT"], 4);
    let c: Vec<f32> = (2..6)
        .map(|k| f32::from_bits(r[&format!("SPI_SHADER_USER_DATA_PS_{k}")]))
        .collect();
    assert_eq!(c, [0.0, 0.0, 0.0, 1.0]);
    let (wave64, ex) = run("clear", [[0.0; 4]; 3]);
    assert_eq!(ex.len(), 1);
    assert_eq!((ex[0].target, ex[0].en, ex[0].done), (0, 0x3, true));
    for l in 0..if wave64 { 64 } else { 32 } {
        assert_eq!(ex[0].data[0][l], pack(c[0], c[1]), "lane {l}");
        assert_eq!(ex[0].data[1][l], pack(c[2], c[3]), "lane {l}");
    }
}

#[test]
fn radv_tri_ps_exports_the_interpolated_colour() {
    // tri.frag: outColor = vec4(color, 1.0), color = attribute 0 (SPI_PS_INPUT_CNTL_0 offset 0).
    // The vertices' colours are tri.vert's (vertex k: channel k is 1), so red = 1 - I - J
    // (P0 1, P10 and P20 -1), green = I (P10), blue = J (P20): a swapped P10/P20 or channel
    // would show.
    let r = registers("tri");
    assert_eq!(r["SPI_SHADER_COL_FORMAT"], 4);
    assert_eq!(r["SPI_PS_INPUT_CNTL_0"] & 0x3f, 0);
    let v = [
        [1.0, 0.0, 0.0, 0.0],
        [0.0, 1.0, 0.0, 0.0],
        [0.0, 0.0, 1.0, 0.0],
    ];
    let (wave64, ex) = run("tri", v);
    assert_eq!(ex.len(), 1);
    assert_eq!((ex[0].target, ex[0].en, ex[0].done), (0, 0x3, true));
    let interp = |c: usize, i: f32, j: f32| {
        let (p0, p10, p20) = (v[0][c], v[1][c] - v[0][c], v[2][c] - v[0][c]);
        p20.mul_add(j, p10.mul_add(i, p0))
    };
    for l in 0..if wave64 { 64 } else { 32 } {
        let (i, j) = bary(l);
        let (red, green, blue) = (interp(0, i, j), interp(1, i, j), interp(2, i, j));
        assert_eq!(ex[0].data[0][l], pack(red, green), "lane {l}");
        assert_eq!(ex[0].data[1][l], pack(blue, 1.0), "lane {l}");
    }
}

/// Three vertices' colours with no symmetry between channels or vertices.
const COLOURS: [[f32; 4]; 3] = [
    [0.9, 0.2, 0.4, 0.0],
    [0.1, 0.8, 0.3, 0.0],
    [0.6, 0.5, 0.95, 0.0],
];

/// P0 + P10 I + P20 J as v_interp_p10_f32 / v_interp_p2_f32 compute it.
fn interp(v: &[[f32; 4]; 3], c: usize, i: f32, j: f32) -> f32 {
    let (p0, p10, p20) = (v[0][c], v[1][c] - v[0][c], v[2][c] - v[0][c]);
    p20.mul_add(j, p10.mul_add(i, p0))
}

#[test]
fn radv_depth_ps_exports_frag_depth_to_mrtz() {
    // depth.frag: gl_FragDepth = clamp(color.r * 0.5 + gl_FragCoord.y / 128.0, 0, 1) (MRTZ,
    // SPI_SHADER_Z_FORMAT 1: 32_R), outColor = vec4(color, 1) (MRT0, FP16_ABGR). ENA 0x202:
    // PERSP_CENTER and POS_Y_FLOAT. Both products are exact (powers of two), so the one rounding
    // of ACO's v_fma_f32 ... clamp equals the GLSL's rounding of the sum.
    let r = registers("depth");
    assert_eq!(r["SPI_PS_INPUT_ENA"], 0x202);
    assert_eq!(r["SPI_SHADER_Z_FORMAT"], 1);
    let v = COLOURS;
    let (wave64, ex) = run("depth", v);
    assert_eq!(ex.len(), 2);
    assert_eq!((ex[0].target, ex[0].en, ex[0].done), (8, 0x1, false));
    assert_eq!((ex[1].target, ex[1].en, ex[1].done), (0, 0x3, true));
    for l in 0..if wave64 { 64 } else { 32 } {
        let (i, j) = bary(l);
        let c = |k| interp(&v, k, i, j);
        let depth = (c(0) * 0.5 + pos_y(l) / 128.0).clamp(0.0, 1.0);
        assert_eq!(ex[0].data[0][l], depth.to_bits(), "lane {l}");
        assert_eq!(ex[1].data[0][l], pack(c(0), c(1)), "lane {l}");
        assert_eq!(ex[1].data[1][l], pack(c(2), 1.0), "lane {l}");
    }
}

#[test]
fn radv_flat_ps_reads_flat_noperspective_and_smooth_inputs() {
    // flat.frag: outColor = vec4(float(id & 15) / 15, uv.x * color.g, uv.y, 1). RADV's linking
    // (registers.txt): attribute 0 holds color.g (smooth, PERSP_CENTER), attribute 1 the flat
    // id (SPI_PS_INPUT_CNTL_1: OFFSET 1, FLAT_SHADE), attribute 2 uv (noperspective,
    // LINEAR_CENTER). A flat attribute reads vertex 0's value. ACO divides by 15 as a multiply
    // by the f32 nearest 1/15 (0x3d888889 in the listing).
    let r = registers("flat");
    assert_eq!(r["SPI_PS_INPUT_ENA"], 0x22);
    assert_eq!(r["SPI_PS_INPUT_CNTL_1"], 0x401);
    let color_g = [
        [0.3, 0.0, 0.0, 0.0],
        [0.7, 0.0, 0.0, 0.0],
        [0.2, 0.0, 0.0, 0.0],
    ];
    // tri.vert-style ids 7k + 1 as bit patterns; the provoking vertex's is 1 + 7 * 2 = 15.
    let id = |k: u32| f32::from_bits(7 * k + 1);
    let ids = [
        [id(2), 0.0, 0.0, 0.0],
        [id(0), 0.0, 0.0, 0.0],
        [id(1), 0.0, 0.0, 0.0],
    ];
    let uv = [
        [0.125, 0.875, 0.0, 0.0],
        [0.875, 0.875, 0.0, 0.0],
        [0.5, 0.125, 0.0, 0.0],
    ];
    let attr = |vertices, flat| Attribute { vertices, flat };
    let (wave64, ex) = run_attrs(
        "flat",
        vec![attr(color_g, false), attr(ids, true), attr(uv, false)],
    );
    assert_eq!(ex.len(), 1);
    assert_eq!((ex[0].target, ex[0].en, ex[0].done), (0, 0x3, true));
    let inv15 = f32::from_bits(0x3d88_8889);
    assert_eq!(inv15, 1.0f32 / 15.0);
    for l in 0..if wave64 { 64 } else { 32 } {
        let (i, j) = bary(l);
        let (li, lj) = linear_bary(l);
        let first = ((15u32 & 15) as f32) * inv15;
        let second = interp(&uv, 0, li, lj) * interp(&color_g, 0, i, j);
        assert_eq!(ex[0].data[0][l], pack(first, second), "lane {l}");
        assert_eq!(
            ex[0].data[1][l],
            pack(interp(&uv, 1, li, lj), 1.0),
            "lane {l}"
        );
    }
}

#[test]
fn radv_discard_ps_kills_a_checkerboard_and_exports_the_rest() {
    // discard.frag: p = ivec2(gl_FragCoord.xy) >> 2; discard if (p.x ^ p.y) & 1; else
    // outColor = vec4(color.rg, fract(gl_FragCoord.x / 7.0), 1). ENA 0x302: PERSP_CENTER,
    // POS_X_FLOAT, POS_Y_FLOAT. The lanes cover an 8-wide block: lane l is pixel (l % 8, l / 8),
    // so the killed lanes are those with exactly one of x, y in 4..7 (x / 4 != y / 4). ACO
    // divides by 7 as a multiply by the f32 nearest 1/7 (0x3e124925 in the listing), then
    // v_fract_f32 (x - floor(x)). The export carries the surviving lanes only.
    let r = registers("discard");
    assert_eq!(r["SPI_PS_INPUT_ENA"], 0x302);
    let v = [
        [0.25, 0.5, 0.0, 0.0],
        [0.75, 0.125, 0.0, 0.0],
        [0.5, 1.0, 0.0, 0.0],
    ];
    let (wave64, ex) = run("discard", v);
    assert_eq!(ex.len(), 1);
    assert_eq!((ex[0].target, ex[0].en, ex[0].done), (0, 0x3, true));
    let inv7 = f32::from_bits(0x3e12_4925);
    assert_eq!(inv7, 1.0f32 / 7.0);
    let lanes = if wave64 { 64 } else { 32 };
    let alive = |l: usize| (l % 8) / 4 == (l / 8) / 4;
    let want_exec = (0..lanes)
        .filter(|&l| alive(l))
        .fold(0u64, |m, l| m | 1 << l);
    assert_eq!(ex[0].exec, want_exec);
    for l in 0..lanes {
        let (i, j) = bary(l);
        let (d0, d1) = if alive(l) {
            let x = pos_x(l) * inv7;
            (
                pack(interp(&v, 0, i, j), interp(&v, 1, i, j)),
                pack(x - x.floor(), 1.0),
            )
        } else {
            (0, 0)
        };
        assert_eq!([ex[0].data[0][l], ex[0].data[1][l]], [d0, d1], "lane {l}");
    }
}

#[test]
fn radv_deriv_ps_takes_quad_differences() {
    // deriv.frag: dx = dFdx(color) * 32, dy = dFdy(color) * 32; outColor = (|dx.r| + |dy.g|,
    // fwidth(color.b) * 16, length(dx), 1). ACO's listing takes coarse differences within each
    // quad (lanes 4q..4q+3: top-left, top-right, bottom-left, bottom-right) with DPP
    // quad_perm: dFdx = c(lane 1) - c(lane 0), dFdy = c(lane 2) - c(lane 0), the same for all
    // four lanes; it contracts |32 dx.r| + |32 dy.g| into fma(32, |dy.g|, |32 dx.r|) and
    // computes fwidth as (|dx.b| + |dy.b|) * 16 with the unscaled differences. length() goes
    // through v_sqrt_f32, whose last bit is the implementation's: only the alpha half of
    // that dword (1.0) is checked.
    let v = COLOURS;
    let (wave64, ex) = run("deriv", v);
    assert_eq!(ex.len(), 1);
    assert_eq!((ex[0].target, ex[0].en, ex[0].done), (0, 0x3, true));
    let c = |l: usize, k: usize| {
        let (i, j) = bary(l);
        interp(&v, k, i, j)
    };
    for l in 0..if wave64 { 64 } else { 32 } {
        let q = l & !3;
        let dx = |k| c(q + 1, k) - c(q, k);
        let dy = |k| c(q + 2, k) - c(q, k);
        let first = 32f32.mul_add(dy(1).abs(), (32.0 * dx(0)).abs());
        let second = (dx(2).abs() + dy(2).abs()) * 16.0;
        assert_eq!(ex[0].data[0][l], pack(first, second), "lane {l}");
        assert_eq!(ex[0].data[1][l] >> 16, 0x3c00, "lane {l}");
    }
}

#[test]
fn radv_ubo_ps_loads_its_uniform_buffer_through_descriptor_set_0() {
    // ubo.frag: c = color * u.tint; outColor = (u.mode & 1) != 0 ? c.bgra : c. RADV passes
    // descriptor set 0 as a 32-bit address in USER_DATA_PS_2 (the listing: s_mov_b32 s3, 0;
    // s_load_b128 s[4:7], s[2:3]: the set's first descriptor is the uniform buffer's V#), then
    // s_buffer_load_b128 s[0:3] (tint) and s_buffer_load_b32 s4 at 0x10 (mode). The captured
    // address named the application's memory; the test builds a set and a buffer in its own
    // memory (below 4 GiB, as RADV's 32-bit descriptor addresses are) and puts the set's
    // address in PS_2. The colour is attribute 0 (four smooth channels).
    let r = registers("vbuf");
    assert_eq!(r["SPI_SHADER_PGM_RSRC2_PS"] >> 1 & 0x1f, 3);
    let mut mem = DeviceMemory::default();
    let set = mem.alloc(16, 256).unwrap();
    let ubo = mem.alloc(32, 256).unwrap();
    assert!(set >> 32 == 0);
    let tint = [1.0f32, 0.5, 0.25, 0.75];
    for (k, t) in tint.iter().enumerate() {
        mem.write_u32(ubo + 4 * k as u64, t.to_bits()).unwrap();
    }
    mem.write_u32(ubo + 16, 1).unwrap(); // mode 1: swizzle to bgra
                                         // A raw buffer V# (gfx11 layout: base [47:0], stride 0, num_records 32 bytes, dst_sel
                                         // XYZW, format 32_FLOAT, OOB_SELECT 3).
    let vsharp = [
        ubo as u32,
        (ubo >> 32) as u32,
        32,
        4 | 5 << 3 | 6 << 6 | 7 << 9 | 22 << 12 | 3 << 28,
    ];
    for (k, w) in vsharp.iter().enumerate() {
        mem.write_u32(set + 4 * k as u64, *w).unwrap();
    }
    let v = [
        [0.9, 0.2, 0.4, 1.0],
        [0.1, 0.8, 0.3, 0.5],
        [0.6, 0.5, 0.95, 0.25],
    ];
    let attr = vec![Attribute {
        vertices: v,
        flat: false,
    }];
    let (wave64, ex) = run_with("vbuf", attr, &mem, &[(2, set as u32)]);
    assert_eq!(ex.len(), 1);
    assert_eq!((ex[0].target, ex[0].en, ex[0].done), (0, 0x3, true));
    for l in 0..if wave64 { 64 } else { 32 } {
        let (i, j) = bary(l);
        let c = |k: usize| interp(&v, k, i, j) * tint[k];
        // mode & 1: (b, g, r, a).
        assert_eq!(ex[0].data[0][l], pack(c(2), c(1)), "lane {l}");
        assert_eq!(ex[0].data[1][l], pack(c(0), c(3)), "lane {l}");
    }
}
