//! Every VINTERP form in real pixel shaders: corpus/gfx/ll/ps_interp_f16_halves.ll
//! (`v_interp_p10_f16_f32` / `v_interp_p2_f16_f32` on both halves of a packed attribute, with
//! op_sel, and the `_rtz_` forms) and ps_interp_mods.ll (`v_interp_p10_f32` / `v_interp_p2_f32`
//! with negated sources and clamp, `v_interp_p2_f16_f32` with clamp), compiled by llc-19 for
//! gfx1100 in wave32 and wave64, with wait_exp 0, 1 and 7.
//!
//! Expected values come from the RDNA3 ISA guide's pseudocode (16.13 "VINTERP Instructions"),
//! with base = laneId & ~3 and P0, P10, P20 in quad lanes 0, 1, 2 (12.2.1 "LDS Parameter
//! Loads"):
//!
//! - P10_F32:      D = fma(P10, S1, P0)
//! - P2_F32:       D = fma(P20, S1, S2)
//! - P10_F16_F32:  D.f32 = fma(32'F(P10.f16), S1.f32, 32'F(P0.f16))
//! - P2_F16_F32:   D.f16 = 16'F(fma(32'F(P20.f16), S1.f32, S2.f32)) (two roundings)
//! - the RTZ forms: the same with both roundings toward zero.
//!
//! The model computes each fma exactly (in f64, checked exact by a two-sum), then rounds to f32
//! and to f16 (the `half` crate, IEEE binary16) to nearest even (MODE from the PAL metadata:
//! FLOAT_MODE 0xf0, round to nearest) or toward zero. Neg negates the source, clamp clamps the
//! rounded result to [0, 1].

#![allow(clippy::needless_range_loop)] // lane and component loops index several arrays

mod gfx_params;

use gfx_params::{bary, execs, lds};
use half::f16;
use std::path::PathBuf;
use wavesim_core::memory::DeviceMemory;
use wavesim_rdna3::gfx::pal::PalObject;
use wavesim_rdna3::gfx::ps::{run_ps_wave_with_lds, PsWaveSetup, PS_INPUT_VGPRS};
use wavesim_rdna3::gfx::ExportRecord;

fn object(w64: bool, name: &str) -> PalObject {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/gfx/obj")
        .join(if w64 { "w64" } else { "w32" })
        .join(format!("{name}.o"));
    PalObject::parse(&std::fs::read(&p).unwrap()).unwrap()
}

/// a * b + c exactly: the product of two f32 is exact in f64 (48 significant bits); the sum is
/// checked exact with Knuth's two-sum, so the test data cannot silently leave the model.
fn fma_exact(a: f32, b: f32, c: f32) -> f64 {
    let (p, c) = (a as f64 * b as f64, c as f64);
    let s = p + c;
    let bb = s - p;
    let err = (p - (s - bb)) + (c - bb);
    assert_eq!(
        err, 0.0,
        "fma({a}, {b}, {c}) is not exact in f64: choose other test data"
    );
    s
}

/// An exact value rounded to f32: to nearest even (Rust's `as`) or toward zero.
fn to_f32(x: f64, rtz: bool) -> f32 {
    let t = x as f32;
    if rtz && (t as f64).abs() > x.abs() {
        f32::from_bits(t.to_bits() - 1)
    } else {
        t
    }
}

/// An f32 rounded to f16: to nearest even (`half`) or toward zero.
fn to_f16(x: f32, rtz: bool) -> f16 {
    let h = f16::from_f32(x);
    if rtz && h.to_f32().abs() > x.abs() {
        f16::from_bits(h.to_bits() - 1)
    } else {
        h
    }
}

/// P0, P10 and P20 of one attribute channel.
#[derive(Clone, Copy)]
struct Params {
    p0: f32,
    p10: f32,
    p20: f32,
}

/// v_interp_p10_* then v_interp_p2_* with f32 results, source negation as `neg`.
fn interp_f32(p: Params, i: f32, j: f32, neg_attr: bool, neg_i: bool) -> f32 {
    let s = if neg_attr { -1.0 } else { 1.0 };
    let i = if neg_i { -i } else { i };
    let t = to_f32(fma_exact(s * p.p10, i, s * p.p0), false);
    to_f32(fma_exact(s * p.p20, j, t), false)
}

/// v_interp_p10_f16_f32 then v_interp_p2_f16_f32 (or the RTZ pair): f16 attribute values.
fn interp_f16(p: Params, i: f32, j: f32, rtz: bool) -> f16 {
    let t = to_f32(fma_exact(p.p10, i, p.p0), rtz);
    to_f16(to_f32(fma_exact(p.p20, j, t), rtz), rtz)
}

/// The inputs in the all-terms layout with I, J at canonical slot `slot` and `slot + 1`
/// (PERSP_CENTER 2, LINEAR_CENTER 11).
fn inputs(lanes: usize, slot: usize) -> Vec<[u32; PS_INPUT_VGPRS]> {
    (0..lanes)
        .map(|l| {
            let mut v = [0u32; PS_INPUT_VGPRS];
            let (i, j) = bary(l);
            v[slot] = i.to_bits();
            v[slot + 1] = j.to_bits();
            v
        })
        .collect()
}

fn h(x: f32) -> f16 {
    f16::from_f32(x)
}

fn pair(lo: f16, hi: f16) -> u32 {
    lo.to_bits() as u32 | (hi.to_bits() as u32) << 16
}

fn run(name: &str, w64: bool, exec: u64, lds_image: Vec<u8>) -> (Vec<ExportRecord>, usize) {
    let obj = object(w64, name);
    let (mut setup, entry): (PsWaveSetup, u64) = obj.ps_setup(w64).unwrap();
    // ENA = ADDR = 0x2: PERSP_CENTER alone in v0-v1; 0x20: LINEAR_CENTER alone in v0-v1.
    let ena = (setup.spi_ps_input_ena, setup.spi_ps_input_addr);
    let slot = match ena {
        (0x2, 0x2) => 2,
        (0x20, 0x20) => 11,
        other => panic!("{name}: ENA/ADDR {other:x?}"),
    };
    let lanes = if w64 { 64 } else { 32 };
    setup.inputs = inputs(lanes, slot);
    setup.exec = exec;
    let r = run_ps_wave_with_lds(
        &obj.program,
        entry,
        &setup,
        lds_image,
        &DeviceMemory::default(),
        10_000,
    )
    .unwrap_or_else(|e| panic!("{name} w64={w64}: {e}"));
    (r.exports, lanes)
}

#[test]
fn f16_and_rtz_interpolation_of_both_halves() {
    // attr0.x = (a, b), attr0.y = (c, d): P0, P10, P20 of each as f16 pairs.
    let a = [h(0.3333), h(-1.713), h(2.918)];
    let b = [h(-7.25), h(0.0419), h(-3.1)];
    let c = [h(1.0009766), h(0.6667), h(-0.2222)];
    let d = [h(12.34), h(-5.678), h(9.876)];
    let words = [[
        [0, 1, 2].map(|v| pair(a[v], b[v])),
        [0, 1, 2].map(|v| pair(c[v], d[v])),
        [0; 3],
        [0; 3],
    ]];
    let params = |x: [f16; 3]| Params {
        p0: x[0].to_f32(),
        p10: x[1].to_f32(),
        p20: x[2].to_f32(),
    };
    let mut rounded_differently = 0;
    for w64 in [false, true] {
        for exec in execs(w64) {
            let (ex, lanes) = run("ps_interp_f16_halves", w64, exec, lds(&words));
            assert_eq!(ex.len(), 2);
            assert_eq!((ex[0].target, ex[0].en, ex[0].done), (0, 0xf, false));
            assert_eq!((ex[1].target, ex[1].en, ex[1].done), (1, 0x3, true));
            for l in (0..lanes).filter(|l| exec >> l & 1 != 0) {
                let (i, j) = bary(l);
                let ra = interp_f16(params(a), i, j, false);
                let rb = interp_f16(params(b), i, j, false);
                let rc = interp_f16(params(c), i, j, true);
                let rd = interp_f16(params(d), i, j, true);
                if interp_f16(params(c), i, j, false) != rc {
                    rounded_differently += 1;
                }
                let want = [ra, rb, rc, rd].map(|x| x.to_f32().to_bits());
                for k in 0..4 {
                    assert_eq!(ex[0].data[k][l], want[k], "w64={w64} lane {l} MRT0.{k}");
                }
                assert_eq!(ex[1].data[0][l], pair(ra, rb), "w64={w64} lane {l} MRT1.x");
                assert_eq!(ex[1].data[1][l], pair(rc, rd), "w64={w64} lane {l} MRT1.y");
            }
        }
    }
    // The data exercise the rounding: toward zero differs from nearest in some lanes.
    assert!(rounded_differently > 0);
}

#[test]
fn negated_sources_and_clamp() {
    // attr0.x: f32 P0, P10, P20; attr1.x: an f16 pair whose low half is interpolated.
    let p = Params {
        p0: 0.40625,
        p10: -0.7109375,
        p20: 337.0 / 1024.0,
    };
    let q = [h(0.8125), h(0.4375), h(0.6)];
    let words = [
        [
            [p.p0, p.p10, p.p20].map(f32::to_bits),
            [0; 3],
            [0; 3],
            [0; 3],
        ],
        [
            [0, 1, 2].map(|v| pair(q[v], h(-1.0))),
            [0; 3],
            [0; 3],
            [0; 3],
        ],
    ];
    let qp = Params {
        p0: q[0].to_f32(),
        p10: q[1].to_f32(),
        p20: q[2].to_f32(),
    };
    let (mut clamped_low, mut clamped_high) = (0, 0);
    for w64 in [false, true] {
        for exec in execs(w64) {
            let (ex, lanes) = run("ps_interp_mods", w64, exec, lds(&words));
            assert_eq!(ex.len(), 1);
            assert_eq!((ex[0].target, ex[0].en, ex[0].done), (0, 0xf, true));
            for l in (0..lanes).filter(|l| exec >> l & 1 != 0) {
                let (i, j) = bary(l);
                // clamp(interp(-attr0.x)): v_interp_p10_f32 -v2, v0, -v2; p2 -v2 ... clamp.
                let x = interp_f32(p, i, j, true, false);
                clamped_low += (x < 0.0) as u32;
                let x = x.clamp(0.0, 1.0);
                // clamp on the f16 result of v_interp_p2_f16_f32.
                let y = interp_f16(qp, i, j, false);
                clamped_high += (y.to_f32() > 1.0) as u32;
                let y = y.clamp(h(0.0), h(1.0)).to_f32();
                // interp with -I: v_interp_p10_f32 v0, v2, -v0, v2.
                let z = interp_f32(p, i, j, false, true);
                let want = [x, y, z, 1.0].map(f32::to_bits);
                for k in 0..4 {
                    assert_eq!(ex[0].data[k][l], want[k], "w64={w64} lane {l} comp {k}");
                }
            }
        }
    }
    assert!(
        clamped_low > 0 && clamped_high > 0,
        "{clamped_low} {clamped_high}"
    );
}

#[test]
fn linear_f16_high_half() {
    // corpus/gfx/ll/ps_interp_linear_f16.ll: the high half of attr1.x with the LINEAR_CENTER
    // I, J (op_sel:[1,0,1,0] on p10, [1,0,0,0] on p2), widened to f32 in MRT0.x.
    let x = [h(-0.6543), h(3.21), h(-1.0137)];
    let words = [
        [[0; 3]; 4],
        [
            [0, 1, 2].map(|v| pair(h(100.0), x[v])),
            [0; 3],
            [0; 3],
            [0; 3],
        ],
    ];
    let p = Params {
        p0: x[0].to_f32(),
        p10: x[1].to_f32(),
        p20: x[2].to_f32(),
    };
    for w64 in [false, true] {
        for exec in execs(w64) {
            let (ex, lanes) = run("ps_interp_linear_f16", w64, exec, lds(&words));
            assert_eq!(
                (ex.len(), ex[0].target, ex[0].en, ex[0].done),
                (1, 0, 1, true)
            );
            for l in (0..lanes).filter(|l| exec >> l & 1 != 0) {
                let (i, j) = bary(l);
                let want = interp_f16(p, i, j, false).to_f32().to_bits();
                assert_eq!(ex[0].data[0][l], want, "w64={w64} lane {l}");
            }
        }
    }
}
