//! Pixel-shader waves: the RDNA3 ISA guide's (3.3 "Initial wave state") SPI_PS_INPUT_ENA/ADDR VGPR packing on hand-built layouts, and
//! the PS shaders of corpus/gfx (llc-19 `amdgcn--amdpal`, gfx1100, wave32 and wave64) run with
//! the launch state read from their PAL metadata, each checked against a model written from the
//! shader's LLVM IR.

#![allow(clippy::needless_range_loop)] // lane and component loops index several arrays

use std::path::PathBuf;
use wavesim_core::memory::DeviceMemory;
use wavesim_rdna3::gfx::pal::PalObject;
use wavesim_rdna3::gfx::ps::{
    canonical_start, ps_vgpr_layout, run_ps_wave, Attribute, PrimParams, PsLaunchError,
    PsWaveSetup, PS_INPUT_VGPRS,
};
use wavesim_rdna3::gfx::ExportRecord;

// ---- the VGPR layout rule --------------------------------------------------------------------

#[test]
fn layout_with_every_term_is_the_canonical_table() {
    // the RDNA3 ISA guide (Wave State) "Pixel shader VGPR input control": with every term enabled the terms follow each
    // other from v0 with 2,2,2,3,2,2,2 barycentric VGPRs and 1 for each of the other nine.
    let l = ps_vgpr_layout(0xffff, 0xffff).unwrap();
    let want = [0, 2, 4, 6, 9, 11, 13, 15, 16, 17, 18, 19, 20, 21, 22, 23];
    for k in 0..16 {
        assert_eq!(l[k], Some(want[k]), "term {k}");
        assert_eq!(canonical_start(k), want[k]);
    }
    assert_eq!(PS_INPUT_VGPRS, 24);
}

#[test]
fn addr_equal_ena_packs_toward_v0() {
    // ENA = ADDR = PERSP_CENTER | POS_X | POS_Z | FRONT_FACE: v0-v1, v2, v3, v4.
    let m = 1 << 1 | 1 << 8 | 1 << 10 | 1 << 12;
    let l = ps_vgpr_layout(m, m).unwrap();
    let got: Vec<(usize, usize)> = (0..16).filter_map(|k| l[k].map(|v| (k, v))).collect();
    assert_eq!(got, [(1, 0), (8, 2), (10, 3), (12, 4)]);
    // LINEAR_CENTROID alone: v0-v1.
    let l = ps_vgpr_layout(1 << 6, 1 << 6).unwrap();
    assert_eq!(l[6], Some(0));
}

#[test]
fn addr_not_equal_ena_keeps_room_for_unloaded_terms() {
    // ADDR reserves PERSP_SAMPLE (2) and PULL_MODEL (3) that ENA does not load: PERSP_CENTER
    // then sits at v2, LINEAR_SAMPLE at v2 + 2 + 3 = v7, and POS_Y (POS_X is not in ADDR) at v9.
    let addr = 1 | 1 << 1 | 1 << 3 | 1 << 4 | 1 << 9;
    let ena = 1 << 1 | 1 << 4 | 1 << 9;
    let l = ps_vgpr_layout(ena, addr).unwrap();
    assert_eq!(l[0], None, "in ADDR only: not loaded");
    assert_eq!(l[1], Some(2));
    assert_eq!(l[3], None);
    assert_eq!(l[4], Some(7));
    assert_eq!(l[9], Some(9));
}

#[test]
fn invalid_ena_addr_combinations_are_refused() {
    // The seed: an ENA bit must have its ADDR bit.
    assert_eq!(
        ps_vgpr_layout(0x3, 0x1),
        Err(PsLaunchError::EnaNotInAddr { ena: 3, addr: 1 })
    );
    // The SPI needs a barycentric term.
    assert_eq!(
        ps_vgpr_layout(1 << 8, 0xffff),
        Err(PsLaunchError::NoBarycentric(1 << 8))
    );
    assert!(matches!(
        ps_vgpr_layout(1 << 16 | 1, 0x1ffff),
        Err(PsLaunchError::UndefinedBits(_))
    ));
}

#[test]
fn every_ena_subset_packs_in_term_order() {
    // Exhaustive over the 2^16 ENA values with ADDR == ENA: each loaded term starts where the
    // previous loaded term ended (packed in order of the enabled terms), the first at v0.
    for ena in 1u32..=0xffff {
        let r = ps_vgpr_layout(ena, ena);
        if ena & 0x7f == 0 {
            assert!(r.is_err());
            continue;
        }
        let l = r.unwrap();
        let mut next = 0;
        for (k, &(_, n)) in wavesim_rdna3::gfx::ps::PS_INPUT_TERMS.iter().enumerate() {
            if ena >> k & 1 != 0 {
                assert_eq!(l[k], Some(next), "ena {ena:#x} term {k}");
                next += n;
            } else {
                assert_eq!(l[k], None);
            }
        }
    }
}

// ---- corpus shaders --------------------------------------------------------------------------

fn object(w64: bool, name: &str) -> PalObject {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/gfx/obj")
        .join(if w64 { "w64" } else { "w32" })
        .join(format!("{name}.o"));
    let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    PalObject::parse(&bytes).unwrap()
}

fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

/// Per-lane inputs in the all-terms layout: distinct floats for the float terms, pixel centres
/// for POS_X/POS_Y, small integers
/// for FRONT_FACE (12), ANCILLARY (13), SAMPLE_COVERAGE (14) and POS_FIXED_PT (15).
fn inputs(lanes: usize) -> Vec<[u32; PS_INPUT_VGPRS]> {
    (0..lanes)
        .map(|l| {
            let mut v = [0u32; PS_INPUT_VGPRS];
            for (s, x) in v.iter_mut().enumerate().take(20) {
                *x = (s as f32 * 1.25 + l as f32 * 0.5 + 0.375).to_bits();
            }
            // Pixel centres of a 8-wide block for POS_X / POS_Y.
            v[16] = ((l % 8) as f32 + 0.5).to_bits();
            v[17] = ((l / 8) as f32 + 0.5).to_bits();
            v[20] = (l % 2) as u32;
            v[21] = 3 * l as u32;
            v[22] = 1 << (l % 4);
            v[23] = 7 * l as u32 + 0x10001;
            v
        })
        .collect()
}

struct Run {
    exports: Vec<ExportRecord>,
    inputs: Vec<[u32; PS_INPUT_VGPRS]>,
    lanes: usize,
    exec: u64,
}

fn run(name: &str, w64: bool, exec: u64, prims: Vec<PrimParams>, quad_prims: Vec<u32>) -> Run {
    let obj = object(w64, name);
    let (mut setup, entry): (PsWaveSetup, u64) = obj.ps_setup(w64).unwrap();
    let lanes = if w64 { 64 } else { 32 };
    setup.inputs = inputs(lanes);
    setup.exec = exec;
    if !prims.is_empty() {
        setup.prims = prims;
        setup.quad_prims = quad_prims;
    }
    let mem = DeviceMemory::default();
    let r = run_ps_wave(&obj.program, entry, &setup, &mem, 100_000)
        .unwrap_or_else(|e| panic!("{name} w64={w64}: {e}"));
    Run {
        exports: r.exports,
        inputs: setup.inputs,
        lanes,
        exec,
    }
}

fn full(w64: bool) -> u64 {
    if w64 {
        u64::MAX
    } else {
        0xffff_ffff
    }
}

/// Checks one export against `model(lane inputs, lane) -> [Option<u32>; 4]` (None: disabled).
fn check(
    r: &Run,
    k: usize,
    target: u8,
    done: bool,
    model: impl Fn(&[u32; 24], usize) -> [Option<u32>; 4],
) {
    let e = &r.exports[k];
    assert_eq!((e.target, e.done), (target, done), "export {k}");
    for l in 0..r.lanes {
        let want = model(&r.inputs[l], l);
        for c in 0..4 {
            match want[c] {
                Some(v) if r.exec >> l & 1 != 0 => {
                    assert!(e.en >> c & 1 != 0, "export {k} comp {c} disabled");
                    assert_eq!(
                        e.data[c][l],
                        v,
                        "export {k} lane {l} comp {c}: {} vs {}",
                        f(e.data[c][l]),
                        f(v)
                    );
                }
                Some(_) => {}
                None => assert!(e.en >> c & 1 == 0, "export {k} comp {c} enabled"),
            }
        }
    }
}

const POS_X: usize = 15 + 1; // canonical slot of POS_X_FLOAT (term 8)
const POS_Y: usize = 17;
const POS_Z: usize = 18;
const POS_W: usize = 19;

#[test]
fn ps_const() {
    for w64 in [false, true] {
        let r = run("ps_const", w64, full(w64), vec![], vec![]);
        assert_eq!(r.exports.len(), 1);
        check(&r, 0, 0, true, |_, _| {
            [1.0f32, 0.5, 0.25, 1.0].map(|x| Some(x.to_bits()))
        });
    }
}

#[test]
fn ps_pos_xy() {
    // SPI_PS_INPUT_ENA 0x301: PERSP_SAMPLE v0-v1, POS_X v2, POS_Y v3.
    for w64 in [false, true] {
        let r = run(
            "ps_pos_xy",
            w64,
            0x0f0f_f00f_ffff_ff01 & full(w64),
            vec![],
            vec![],
        );
        check(&r, 0, 0, true, |i, _| {
            [
                Some((f(i[POS_X]) * 0.0625).to_bits()),
                Some((f(i[POS_Y]) * 0.125).to_bits()),
                None,
                None,
            ]
        });
    }
}

#[test]
fn ps_pos_zw_face() {
    // ENA 0xfc01: PERSP_SAMPLE plus POS_X..POS_FIXED_PT (every term after the barycentrics).
    for w64 in [false, true] {
        let r = run("ps_pos_zw_face", w64, full(w64), vec![], vec![]);
        check(&r, 0, 0, true, |i, _| {
            let sel = if i[20] != 0 { 1.0f32 } else { -1.0 };
            [
                Some((f(i[POS_Z]) * f(i[POS_W])).to_bits()),
                Some(sel.to_bits()),
                Some((i[21] as f32).to_bits()),
                Some((i[22] as f32 + i[23] as f32).to_bits()),
            ]
        });
    }
}

#[test]
fn ps_center_raw() {
    // ENA 0x22: PERSP_CENTER v0-v1, LINEAR_CENTER v2-v3.
    for w64 in [false, true] {
        let r = run("ps_center_raw", w64, full(w64), vec![], vec![]);
        check(&r, 0, 0, true, |i, _| {
            [Some(i[2]), Some(i[3]), Some(i[11]), Some(i[12])]
        });
    }
}

#[test]
fn ps_pull_model() {
    // ENA 0xc: PERSP_CENTROID v0-v1, PULL_MODEL v2-v4.
    for w64 in [false, true] {
        let r = run("ps_pull_model", w64, full(w64), vec![], vec![]);
        check(&r, 0, 0, true, |i, _| {
            [Some(i[6]), Some(i[7]), Some(i[8]), Some(i[5])]
        });
    }
}

#[test]
fn ps_addr_ne_ena() {
    // ENA 0x110 (LINEAR_SAMPLE, POS_X) inside ADDR 0xffff: the terms keep their all-terms VGPRs
    // (LINEAR_SAMPLE v9-v10, POS_X v16).
    for w64 in [false, true] {
        let obj = object(w64, "ps_addr_ne_ena");
        let (s, _) = obj.ps_setup(w64).unwrap();
        assert_eq!((s.spi_ps_input_ena, s.spi_ps_input_addr), (0x110, 0xffff));
        let r = run("ps_addr_ne_ena", w64, full(w64), vec![], vec![]);
        check(&r, 0, 0, true, |i, _| {
            [Some((f(i[POS_X]) + f(i[9])).to_bits()), None, None, None]
        });
    }
}

#[test]
fn ps_two_mrts_depth() {
    for w64 in [false, true] {
        let r = run("ps_two_mrts_depth", w64, full(w64), vec![], vec![]);
        assert_eq!(r.exports.len(), 3);
        check(&r, 0, 8, false, |i, _| {
            [Some((f(i[POS_Z]) * 0.5).to_bits()), None, None, None]
        });
        check(&r, 1, 0, false, |i, _| {
            let (x, y) = (f(i[POS_X]), f(i[POS_Y]));
            [
                Some(x.to_bits()),
                Some(y.to_bits()),
                Some((x - y).to_bits()),
                Some(1f32.to_bits()),
            ]
        });
        check(&r, 2, 1, true, |i, _| {
            let p = (f(i[POS_X]) * f(i[POS_Y])).to_bits();
            [Some(p); 4]
        });
    }
}

#[test]
fn ps_kill() {
    // Pixels with x < 4.5 are discarded: the export's EXEC keeps the others.
    for w64 in [false, true] {
        let exec = full(w64) & !0x10;
        let r = run("ps_kill", w64, exec, vec![], vec![]);
        let ins = inputs(r.lanes);
        let keep: u64 = (0..r.lanes)
            .filter(|&l| exec >> l & 1 != 0 && f(ins[l][POS_X]) >= 4.5)
            .fold(0, |m, l| m | 1 << l);
        assert_eq!(r.exports[0].exec, keep);
        let r2 = Run { exec: keep, ..r };
        check(&r2, 0, 0, true, |i, _| {
            [
                Some(i[POS_X]),
                Some(i[POS_Y]),
                Some(0),
                Some(1f32.to_bits()),
            ]
        });
    }
    // All discarded: the null export (EN = 0, DONE, EXEC = 0) is still made.
    let r = run("ps_kill", false, 0x3, vec![], vec![]);
    assert_eq!(r.exports.len(), 1);
    assert_eq!(
        (r.exports[0].en, r.exports[0].exec, r.exports[0].done),
        (0, 0, true)
    );
}

/// f32 -> f16 rounding toward zero (the pkrtz conversion), written from IEEE 754 binary16.
fn f16_rtz(x: f32) -> u16 {
    let h = half::f16::from_f32(x);
    // from_f32 rounds to nearest; step toward zero when that went up in magnitude.
    if h.to_f32().abs() > x.abs() {
        half::f16::from_bits(h.to_bits() - 1).to_bits()
    } else {
        h.to_bits()
    }
}

#[test]
fn ps_pk16() {
    for w64 in [false, true] {
        let r = run("ps_pk16", w64, full(w64), vec![], vec![]);
        check(&r, 0, 0, true, |i, _| {
            let rg = f16_rtz(f(i[POS_X])) as u32 | (f16_rtz(f(i[POS_Y])) as u32) << 16;
            let ba = f16_rtz(f32::from_bits(0x3eaaaaab)) as u32 | (f16_rtz(1.0) as u32) << 16;
            [Some(rg), Some(ba), None, None]
        });
    }
}

fn attr(v: [[f32; 4]; 3], flat: bool) -> Attribute {
    Attribute { vertices: v, flat }
}

#[test]
fn ps_flat_dpp() {
    // Attributes 0.x and 1.z, two primitives (quads 0-2 and the rest): every lane receives its
    // quad's P0, i.e. vertex 0 of its primitive (flat attributes: P0 = provoking vertex).
    for w64 in [false, true] {
        let quads = if w64 { 16 } else { 8 };
        let prim = |p: f32| PrimParams {
            attributes: vec![
                attr([[p, 1.0, 2.0, 3.0], [9.0; 4], [8.0; 4]], true),
                attr([[0.0, 0.0, 10.0 + p, 0.0], [7.0; 4], [6.0; 4]], false),
            ],
        };
        let qp: Vec<u32> = (0..quads).map(|q| u32::from(q >= 3)).collect();
        let r = run(
            "ps_flat_dpp",
            w64,
            full(w64) & !0xf0,
            vec![prim(100.0), prim(200.0)],
            qp,
        );
        check(&r, 0, 0, true, |_, l| {
            let p = if l / 4 >= 3 { 200.0f32 } else { 100.0 };
            [Some(p.to_bits()), Some((10.0 + p).to_bits()), None, None]
        });
    }
}

#[test]
fn corpus_ena_addr_combinations_are_covered() {
    // Every SPI_PS_INPUT_ENA/ADDR pair LLVM produced for the corpus' pixel shaders is run by a
    // test above; this lists them so a new shader with a new pair shows up here.
    let mut pairs = std::collections::BTreeSet::new();
    for name in [
        "ps_const",
        "ps_pos_xy",
        "ps_pos_zw_face",
        "ps_center_raw",
        "ps_pull_model",
        "ps_addr_ne_ena",
        "ps_two_mrts_depth",
        "ps_kill",
        "ps_pk16",
        "ps_flat_dpp",
        "ps_linear_centroid",
        "ps_sample_w",
        "ps_mrt8",
        "ps_discard_depth",
        "ps_face_select",
        "draw_ps_gradient",
        "draw_ps_texture",
        "ps_interp_persp",
        "ps_interp_linear_f16",
        "ps_interp_f16_halves",
        "ps_interp_mods",
    ] {
        for w64 in [false, true] {
            let (s, _) = object(w64, name).ps_setup(w64).unwrap();
            pairs.insert((s.spi_ps_input_ena, s.spi_ps_input_addr));
            ps_vgpr_layout(s.spi_ps_input_ena, s.spi_ps_input_addr).unwrap();
        }
    }
    let want: std::collections::BTreeSet<(u32, u32)> = [
        (0x1, 0x1),
        (0x2, 0x2),
        (0xc, 0xc),
        (0x20, 0x20),
        (0x22, 0x22),
        (0x40, 0x40),
        (0x801, 0x801),
        (0xf01, 0xf01),
        (0x1020, 0x1020),
        (0x110, 0xffff),
        (0x301, 0x301),
        (0x701, 0x701),
        (0xfc01, 0xfc01),
    ]
    .into();
    assert_eq!(pairs, want);
}

#[test]
fn ps_linear_centroid() {
    // ENA 0x40: LINEAR_CENTROID alone in v0-v1.
    for w64 in [false, true] {
        let r = run("ps_linear_centroid", w64, full(w64), vec![], vec![]);
        check(&r, 0, 0, true, |i, _| {
            [
                Some(i[13]),
                Some(i[14]),
                Some((f(i[13]) + f(i[14])).to_bits()),
                None,
            ]
        });
    }
}

#[test]
fn ps_sample_w() {
    // ENA 0x801: PERSP_SAMPLE v0-v1, POS_W v2.
    for w64 in [false, true] {
        let r = run("ps_sample_w", w64, full(w64), vec![], vec![]);
        check(&r, 0, 0, true, |i, _| {
            [
                Some((f(i[0]) * f(i[POS_W])).to_bits()),
                Some((f(i[1]) * f(i[POS_W])).to_bits()),
                None,
                None,
            ]
        });
    }
}

#[test]
fn ps_mrt8() {
    // Eight exports, MRTk = (x + k, y, k, 1), DONE only on MRT7.
    for w64 in [false, true] {
        let r = run("ps_mrt8", w64, full(w64), vec![], vec![]);
        assert_eq!(r.exports.len(), 8);
        for k in 0..8u8 {
            check(&r, k as usize, k, k == 7, |i, _| {
                [
                    Some((f(i[POS_X]) + k as f32).to_bits()),
                    Some(i[POS_Y]),
                    Some((k as f32).to_bits()),
                    Some(1f32.to_bits()),
                ]
            });
        }
    }
}

#[test]
fn ps_discard_depth() {
    // Pixels with y < 1.5 are discarded; MRTZ = z * w, then MRT0 = (x, y, z * w, 1).
    for w64 in [false, true] {
        let r = run("ps_discard_depth", w64, full(w64), vec![], vec![]);
        let ins = inputs(r.lanes);
        let keep: u64 = (0..r.lanes)
            .filter(|&l| f(ins[l][POS_Y]) >= 1.5)
            .fold(0, |m, l| m | 1 << l);
        assert_eq!((r.exports[0].exec, r.exports[1].exec), (keep, keep));
        let r = Run { exec: keep, ..r };
        check(&r, 0, 8, false, |i, _| {
            [
                Some((f(i[POS_Z]) * f(i[POS_W])).to_bits()),
                None,
                None,
                None,
            ]
        });
        check(&r, 1, 0, true, |i, _| {
            let d = (f(i[POS_Z]) * f(i[POS_W])).to_bits();
            [
                Some(i[POS_X]),
                Some(i[POS_Y]),
                Some(d),
                Some(1f32.to_bits()),
            ]
        });
    }
}

#[test]
fn ps_face_select() {
    // ENA 0x1020: LINEAR_CENTER v0-v1, FRONT_FACE v2.
    for w64 in [false, true] {
        let r = run("ps_face_select", w64, full(w64), vec![], vec![]);
        check(&r, 0, 0, true, |i, _| {
            [
                Some(if i[20] != 0 { i[11] } else { i[12] }),
                None,
                None,
                None,
            ]
        });
    }
}

/// P0 + I * P10 + J * P20 with two fmas, as v_interp_p10_f32 / v_interp_p2_f32 compute it
/// (RDNA3 ISA 12.3).
fn interp(v: [f32; 3], i: f32, j: f32) -> f32 {
    let (p0, p10, p20) = (v[0], v[1] - v[0], v[2] - v[0]);
    j.mul_add(p20, i.mul_add(p10, p0))
}

#[test]
fn ps_interp_persp() {
    // Attribute 0.xyzw interpolated with the persp-center I, J (ENA = ADDR = 0x2: v0, v1;
    // canonical slots 2 and 3).
    for w64 in [false, true] {
        let attr = Attribute {
            vertices: [
                [1.0, 2.0, 3.0, 4.0],
                [5.0, -2.0, 0.5, 4.0],
                [-3.0, 8.0, 0.25, 0.0],
            ],
            flat: false,
        };
        let quads = if w64 { 16 } else { 8 };
        let r = run(
            "ps_interp_persp",
            w64,
            full(w64),
            vec![PrimParams {
                attributes: vec![attr.clone()],
            }],
            vec![0; quads],
        );
        check(&r, 0, 0, true, |i, _| {
            let (pi, pj) = (f(i[2]), f(i[3]));
            [0, 1, 2, 3].map(|c| {
                let v = [
                    attr.vertices[0][c],
                    attr.vertices[1][c],
                    attr.vertices[2][c],
                ];
                Some(interp(v, pi, pj).to_bits())
            })
        });
    }
}
