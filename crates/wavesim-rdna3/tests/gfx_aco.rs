//! Mesa ACO output: the pixel shaders and the compute shader of corpus/gfx/aco (GLSL compiled by
//! Mesa 22.3's RADV on its null gfx1100 device, wave32 and wave64; `corpus/gfx/aco/build.sh`
//! rebuilds them) disassemble
//! as llvm-mc-19 does and run with the launch state a driver gives them, their exports checked
//! against models written from the GLSL source.
//!
//! The launch state comes from what ACO says the shader reads (its `p_startpgm` line, kept in
//! `wNN/NAME.txt`): s[0:1] two user SGPRs (unused here), s2 PRIM_MASK (so USER_SGPR = 2 in
//! SPI_SHADER_PGM_RSRC2_PS), then the VGPRs SPI_PS_INPUT_ENA packs toward v0 (RDNA3 ISA guide,
//! 3.3 "Initial wave state"): PERSP_CENTER I, J in v0-v1 (ENA 0x2), plus POS_X_FLOAT and
//! POS_Y_FLOAT in v2, v3 for gl_FragCoord (ENA 0x302). The listing does not show RADV's
//! SPI_SHADER_PGM_RSRC1 float mode; the tests use round to nearest (IEEE's default, which the
//! GLSL does not change) with DX10 clamp, and no test value is a denormal, so the denormal
//! modes do not matter.
//! Which attribute slot holds which input is the driver's choice (RADV's linking of the VS
//! outputs); each test says the slots the listing reads.
//!
//! Interpolation follows the RDNA3 ISA guide's VINTERP pseudocode (16.13): P10 step
//! fma(P10, I, P0), P2 step fma(P20, J, that); the f16 forms widen P0/P10/P20 from f16 and round
//! the P2 result to f16. ACO contracts `a * b + c` into one fma (v_fma_f32 in the listing).

#![allow(clippy::needless_range_loop)] // lane and component loops index several arrays

mod gfx_params;

use gfx_params::{bary, execs, lds};
use half::f16;
use std::path::PathBuf;
use wavesim_core::memory::DeviceMemory;
use wavesim_rdna3::disasm::format;
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::gfx::pal::initial_mode;
use wavesim_rdna3::gfx::ps::{run_ps_wave_with_lds, PrimParams, PsWaveSetup, PS_INPUT_VGPRS};
use wavesim_rdna3::gfx::ExportRecord;

const BASE: u64 = 0x1_0000;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/gfx/aco")
}

fn wdir(w64: bool) -> &'static str {
    if w64 {
        "w64"
    } else {
        "w32"
    }
}

fn program(w64: bool, name: &str) -> Program {
    let p = dir().join(wdir(w64)).join(format!("{name}.bin"));
    let code = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    Program::new(&code, BASE).unwrap()
}

const SHADERS: [&str; 4] = ["ps_interp", "ps_f16", "ps_flat_coord", "cs_scale"];

#[test]
fn aco_shaders_disassemble_as_llvm_mc() {
    let norm = |l: &str| l.split_whitespace().collect::<Vec<_>>().join(" ");
    let mut checked = 0;
    for w64 in [false, true] {
        for name in SHADERS {
            let p = program(w64, name);
            let golden =
                std::fs::read_to_string(dir().join(wdir(w64)).join(format!("{name}.dis"))).unwrap();
            let want: Vec<String> = golden.lines().map(norm).filter(|l| !l.is_empty()).collect();
            assert_eq!(p.insts.len(), want.len(), "{name} w64={w64}");
            for (k, inst) in p.insts.iter().enumerate() {
                assert_eq!(norm(&format(inst, p.pcs[k], w64)), want[k], "{name} {k}");
                checked += 1;
            }
        }
    }
    assert!(checked > 100, "{checked}");
}

/// a * b + c rounded once to f32: IEEE 754 fusedMultiplyAdd (the host's `mul_add`).
fn fma(a: f32, b: f32, c: f32) -> f32 {
    a.mul_add(b, c)
}

/// f32 -> f16 toward zero (v_cvt_pk_rtz_f16_f32), from the `half` crate's nearest rounding.
fn f16_rtz(x: f32) -> u16 {
    let h = f16::from_f32(x);
    if h.to_f32().abs() > x.abs() {
        h.to_bits() - 1
    } else {
        h.to_bits()
    }
}

/// P0, P10, P20 of one attribute channel.
type P = [f32; 3];

fn interp(p: P, i: f32, j: f32) -> f32 {
    fma(p[2], j, fma(p[1], i, p[0]))
}

/// Per lane: I, J (full-mantissa fractions) and the pixel centre (x + 0.5, y + 0.5) of an 8-wide
/// block.
fn lane_inputs(l: usize) -> [u32; PS_INPUT_VGPRS] {
    let mut v = [0u32; PS_INPUT_VGPRS];
    let (i, j) = bary(l);
    v[2] = i.to_bits(); // PERSP_CENTER (canonical slots 2, 3)
    v[3] = j.to_bits();
    v[16] = ((l % 8) as f32 + 0.5).to_bits(); // POS_X_FLOAT
    v[17] = ((l / 8) as f32 + 0.5).to_bits(); // POS_Y_FLOAT
    v
}

fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

fn run(
    name: &str,
    w64: bool,
    exec: u64,
    ena: u32,
    lds_image: Vec<u8>,
) -> (Vec<ExportRecord>, usize) {
    let lanes = if w64 { 64 } else { 32 };
    let setup = PsWaveSetup {
        wave64: w64,
        num_vgprs: 32,
        spi_ps_input_ena: ena,
        spi_ps_input_addr: ena,
        rsrc2: 2 << 1, // USER_SGPR = 2: PRIM_MASK lands in s2
        user_sgprs: vec![0; 2],
        exec,
        inputs: (0..lanes).map(lane_inputs).collect(),
        quad_prims: vec![0; lanes / 4],
        prims: vec![PrimParams::default()],
        lds_param_offset: 0,
        lds_bytes: 65536,
        skip_export: false,
        // FLOAT_MODE 0xc0 (round to nearest; f32 denormals flushed, f16/f64 kept), DX10_CLAMP.
        mode: initial_mode(0xc0 << 12 | 1 << 21),
        scratch_addr: 0,
        scratch_lane_bytes: 0,
    };
    let r = run_ps_wave_with_lds(
        &program(w64, name),
        BASE,
        &setup,
        lds_image,
        &DeviceMemory::default(),
        10_000,
    )
    .unwrap_or_else(|e| panic!("{name} w64={w64}: {e}"));
    (r.exports, lanes)
}

fn bits(p: P) -> [u32; 3] {
    p.map(f32::to_bits)
}

#[test]
fn aco_ps_interp() {
    // o = color * uv.x + uv.y; the listing reads color from attr0.xyzw and uv from attr1.xy.
    let color: [P; 4] = [
        [0.25, 0.5, -0.125],
        [1.0, -0.75, 0.375],
        [-2.5, 1.25, 0.625],
        [0.8125, 0.0625, -0.3125],
    ];
    let uv: [P; 2] = [[0.1, 0.7, -0.05], [0.9, -0.3, 0.2]];
    let words = [color.map(bits), [bits(uv[0]), bits(uv[1]), [0; 3], [0; 3]]];
    for w64 in [false, true] {
        for exec in execs(w64) {
            let (ex, lanes) = run("ps_interp", w64, exec, 0x2, lds(&words));
            assert_eq!(ex.len(), 1);
            assert_eq!((ex[0].target, ex[0].en, ex[0].done), (0, 0xf, true));
            for l in (0..lanes).filter(|l| exec >> l & 1 != 0) {
                let v = lane_inputs(l);
                let (i, j) = (f(v[2]), f(v[3]));
                let (u, w) = (interp(uv[0], i, j), interp(uv[1], i, j));
                for c in 0..4 {
                    let want = fma(interp(color[c], i, j), u, w);
                    assert_eq!(
                        ex[0].data[c][l],
                        want.to_bits(),
                        "w64={w64} lane {l} comp {c}"
                    );
                }
            }
        }
    }
}

#[test]
fn aco_ps_f16() {
    // o = vec4(color * 2.0hf) with a 16-bit input: color.c in the low half of attr0's channel c (v_interp_p10_f16_f32 / v_interp_p2_f16_f32 with op_sel 0; the high halves hold
    // a NaN that must not be read), doubled with v_pk_mul_f16 and widened to f32.
    let h = |x: f32| f16::from_f32(x);
    let color: [[f16; 3]; 4] = [
        [h(0.3333), h(-1.713), h(2.918)],
        [h(-7.25), h(0.0419), h(-3.1)],
        [h(1.0009766), h(0.6667), h(-0.2222)],
        [h(12.34), h(-5.678), h(9.876)],
    ];
    let nan_hi = |x: f16| x.to_bits() as u32 | 0x7e00 << 16;
    let words = [color.map(|c| c.map(nan_hi))];
    for w64 in [false, true] {
        for exec in execs(w64) {
            let (ex, lanes) = run("ps_f16", w64, exec, 0x2, lds(&words));
            assert_eq!(
                (ex.len(), ex[0].target, ex[0].en, ex[0].done),
                (1, 0, 0xf, true)
            );
            for l in (0..lanes).filter(|l| exec >> l & 1 != 0) {
                let v = lane_inputs(l);
                let (i, j) = (f(v[2]), f(v[3]));
                for c in 0..4 {
                    let p = color[c].map(f16::to_f32);
                    // 16'F(fma(P20, J, fma(P10, I, P0))), then * 2 in f16 (exact here).
                    let r = f16::from_f32(interp(p, i, j));
                    let want = f16::from_f32(r.to_f32() * 2.0).to_f32();
                    assert_eq!(
                        ex[0].data[c][l],
                        want.to_bits(),
                        "w64={w64} lane {l} comp {c}"
                    );
                }
            }
        }
    }
}

#[test]
fn aco_ps_flat_coord() {
    // o = (color.x * x, color.y * x, color.z + y, uv.y) for gl_FragCoord (x, y), a flat color
    // (attr1: P0 of the quad's lane 0, broadcast by DPP quad_perm [0,0,0,0]) and uv.y (attr0.x:
    // RADV dropped the unused uv.x); an RGBA8 target, so two 16-bit exports of pairs rounded
    // toward zero (v_cvt_pk_rtz_f16_f32), EN = 0x3.
    let color = [1.5f32, -0.375, 2.25, 9.0];
    let uvy: P = [0.3, 0.45, -0.2];
    let flat = |x: f32| [x.to_bits(), 0x7fc0_0000, 0x7fc0_0000]; // P10/P20 unused for flat
    let words = [[bits(uvy), [0; 3], [0; 3], [0; 3]], color.map(flat)];
    for w64 in [false, true] {
        for exec in execs(w64) {
            let (ex, lanes) = run("ps_flat_coord", w64, exec, 0x302, lds(&words));
            assert_eq!(
                (ex.len(), ex[0].target, ex[0].en, ex[0].done),
                (1, 0, 0x3, true)
            );
            for l in (0..lanes).filter(|l| exec >> l & 1 != 0) {
                let v = lane_inputs(l);
                let (i, j, x, y) = (f(v[2]), f(v[3]), f(v[16]), f(v[17]));
                let o = [color[0] * x, color[1] * x, color[2] + y, interp(uvy, i, j)];
                let pk = |a: f32, b: f32| f16_rtz(a) as u32 | (f16_rtz(b) as u32) << 16;
                assert_eq!(ex[0].data[0][l], pk(o[0], o[1]), "w64={w64} lane {l} xy");
                assert_eq!(ex[0].data[1][l], pk(o[2], o[3]), "w64={w64} lane {l} zw");
            }
        }
    }
}

#[test]
fn aco_cs_scale() {
    // corpus/gfx/aco/cs_scale.comp: data[i] = data[i] * 2 + i for i < n, 64 invocations per
    // workgroup. RADV's launch state, as ACO's p_startpgm line lists it: s[0:1] (unused here),
    // the push constants in user SGPRs s[2:3] (the buffer's device address) and s4 (n), the
    // workgroup id x in s5 (USER_SGPR = 5, TGID_X_EN), and the work-item id x in v0 bits 9:0
    // (gfx11 packs the ids in v0). A wave32 build runs a workgroup as two waves (ids 0-31,
    // 32-63). ACO contracts `x * 2 + i` into v_fmac_f32 (x * 2 is exact, so the model is one
    // rounding of the sum either way).
    use wavesim_rdna3::testing::Harness;
    use wavesim_rdna3::wave::Wave;
    let (groups, n) = (3u32, 150u32);
    let data: Vec<f32> = (0..groups * 64)
        .map(|i| (i as f32 * 1.37).sin() * 1000.0 + 0.1)
        .collect();
    for w64 in [false, true] {
        let prog = program(w64, "cs_scale");
        let mut h = Harness::new(w64);
        let bytes: Vec<u8> = data.iter().flat_map(|v| v.to_le_bytes()).collect();
        let addr = h.mem.alloc(bytes.len() as u64, 256).unwrap();
        h.mem.write(addr, &bytes).unwrap();
        let lanes = if w64 { 64 } else { 32 };
        for g in 0..groups {
            for k in 0..64 / lanes {
                let mut w = Wave::new(w64, 256);
                w.set_exec(u64::MAX);
                w.hw.status = h.wave.hw.status;
                w.sgpr[2] = addr as u32;
                w.sgpr[3] = (addr >> 32) as u32;
                w.sgpr[4] = n;
                w.sgpr[5] = g;
                for l in 0..lanes {
                    w.vgpr_set(0, l, (k * lanes + l) as u32);
                }
                w.pc = BASE;
                h.wave = w;
                h.run_program(&prog, 10_000)
                    .unwrap_or_else(|e| panic!("w64={w64} group {g} wave {k}: {e}"));
            }
        }
        let mut out = vec![0u8; bytes.len()];
        h.mem.read(addr, &mut out).unwrap();
        for (i, c) in out.chunks_exact(4).enumerate() {
            let got = f32::from_le_bytes(c.try_into().unwrap());
            let want = if (i as u32) < n {
                data[i] * 2.0 + i as f32
            } else {
                data[i]
            };
            assert_eq!(got.to_bits(), want.to_bits(), "w64={w64} element {i}");
        }
    }
}
