//! `simd_matrix_fmadd32`/`simd_matrix_fmadd16`: no public source gives the hardware's rule, so by
//! default they stop with a typed error; under the explicit opt-in they compute Metal's
//! `simdgroup_multiply_accumulate(d, a, b, c)`, d = a * b + c on 8x8 matrices (Metal Shading
//! Language Specification, SIMD-group matrix functions), counted and named.
//!
//! The layout the expected values use, written here from the sources (not from the executor):
//! tinygrad's Metal WMMA emulator (`tinygrad/runtime/ops_python.py`, `c_map(lane, elem)` =
//! (column elem + (lane%2)*2 + ((lane//8)%2)*4, row (lane//2)%4 + (lane//16)*4)) and tinygrad's
//! ThunderKittens Metal port (`global_to_register.metal`: qid = lane/4, simd_y = (qid & 4) +
//! (lane/2)%4, simd_x = (qid & 2)*2 + (lane%2)*2, elements [0] and [1] at simd_x and simd_x + 1).
//! Both give the same (row, column) for every thread and element.

mod common;

use wavesim_agx::exec::{Fault, WaveState, SIMD_WIDTH};
use wavesim_agx::runner::{run as run_job, RunConfig};

use common::run_asm as exec;

/// (row, column) of element `e` of thread `lane`, in the ThunderKittens form.
fn position(lane: usize, e: usize) -> (usize, usize) {
    let qid = lane / 4;
    (
        (qid & 4) + (lane / 2) % 4,
        (qid & 2) * 2 + (lane % 2) * 2 + e,
    )
}

/// The two sources' forms agree, and the 64 (row, column) pairs are all distinct.
#[test]
fn layout_sources_agree_and_cover_the_matrix() {
    let mut seen = [[false; 8]; 8];
    for lane in 0..SIMD_WIDTH {
        for e in 0..2 {
            let tinygrad = (
                (lane / 2) % 4 + (lane / 16) * 4,
                e + (lane % 2) * 2 + ((lane / 8) % 2) * 4,
            );
            let (r, c) = position(lane, e);
            assert_eq!((r, c), tinygrad, "lane {lane} element {e}");
            assert!(!seen[r][c], "({r}, {c}) twice");
            seen[r][c] = true;
        }
    }
}

const FMA32: &str = "simd_matrix_fmadd32 r6_r7, r0_r1, r2_r3, r4_r5";

/// Put matrices A, B, C (f32) into r0_r1, r2_r3, r4_r5 of every thread by the layout.
fn load32(w: &mut WaveState, a: &[[f32; 8]; 8], b: &[[f32; 8]; 8], c: &[[f32; 8]; 8]) {
    for lane in 0..SIMD_WIDTH {
        for e in 0..2 {
            let (r, col) = position(lane, e);
            w.set_reg32(e, lane, a[r][col].to_bits());
            w.set_reg32(2 + e, lane, b[r][col].to_bits());
            w.set_reg32(4 + e, lane, c[r][col].to_bits());
        }
    }
}

fn matrix(f: impl Fn(usize, usize) -> f32) -> [[f32; 8]; 8] {
    std::array::from_fn(|r| std::array::from_fn(|c| f(r, c)))
}

#[test]
fn off_by_default() {
    for src in [
        FMA32,
        "simd_matrix_fmadd16 r3l_r3h, r0l_r0h, r1l_r1h, r2l_r2h",
    ] {
        let mut w = WaveState::new(8);
        match exec(&mut w, src) {
            Err(Fault::Unsupported { name }) => assert!(src.starts_with(name), "{name}"),
            other => panic!("{src}: {other:?}"),
        }
        assert!(w.approximated.is_empty());
    }
}

/// A lower-triangular of ones (A[r][k] = 1 for k <= r), B[k][c] = c + 1 in every row:
/// (A x B)[r][c] = sum over k <= r of (c + 1) = (r + 1)(c + 1). (B x A would give
/// sum over k >= c of (k + 1), A x B-transposed (r + 1)(r + 2)/2: both differ.) C[r][c] = 100 r + 10 c
/// marks every element. All values are small integers, exact in f32, so rounding cannot matter.
#[test]
fn hand_product_in_every_thread() {
    let a = matrix(|r, k| if k <= r { 1.0 } else { 0.0 });
    let b = matrix(|_, c| (c + 1) as f32);
    let c = matrix(|r, col| (100 * r + 10 * col) as f32);
    let mut w = WaveState::new(8);
    w.approximate = true;
    load32(&mut w, &a, &b, &c);
    exec(&mut w, FMA32).unwrap();
    for lane in 0..SIMD_WIDTH {
        for e in 0..2 {
            let (r, col) = position(lane, e);
            let want = ((r + 1) * (col + 1) + 100 * r + 10 * col) as f32;
            assert_eq!(
                f32::from_bits(w.reg32(6 + e, lane)),
                want,
                "lane {lane} element {e}"
            );
        }
    }
    assert_eq!(w.approximated.get("simd_matrix_fmadd32"), Some(&1));
}

/// identity x B + 0 = B, written over A (the destination may be a source); twice, counted twice.
#[test]
fn identity_times_b_is_b() {
    let id = matrix(|r, c| if r == c { 1.0 } else { 0.0 });
    let b = matrix(|r, c| (8 * r + c) as f32 - 20.5);
    let zero = matrix(|_, _| 0.0);
    let mut w = WaveState::new(8);
    w.approximate = true;
    load32(&mut w, &id, &b, &zero);
    exec(
        &mut w,
        "simd_matrix_fmadd32 r6_r7, r0_r1, r2_r3, r4_r5\nsimd_matrix_fmadd32 r0_r1, r0_r1, r2_r3, r4_r5",
    )
    .unwrap();
    for lane in 0..SIMD_WIDTH {
        for e in 0..2 {
            let (r, c) = position(lane, e);
            assert_eq!(f32::from_bits(w.reg32(6 + e, lane)), b[r][c]);
            assert_eq!(f32::from_bits(w.reg32(e, lane)), b[r][c]);
        }
    }
    assert_eq!(w.approximated.get("simd_matrix_fmadd32"), Some(&2));
}

/// fmadd16 on half registers (pairs r0l_r0h: element 0 in the low half): A[r][k] = 2 on the
/// diagonal, B[k][c] = r - c, C = 1: D[r][c] = 2 (r - c) + 1, exact in f16. The neg modifier on C
/// gives 2 (r - c) - 1.
#[test]
fn fmadd16_half_registers() {
    let h = |v: f32| half::f16::from_f32(v).to_bits();
    let mut w = WaveState::new(8);
    w.approximate = true;
    for lane in 0..SIMD_WIDTH {
        for e in 0..2 {
            let (r, c) = position(lane, e);
            w.set_half(e, lane, h(if r == c { 2.0 } else { 0.0 }));
            w.set_half(2 + e, lane, h(r as f32 - c as f32));
            w.set_half(4 + e, lane, h(1.0));
        }
    }
    exec(
        &mut w,
        "simd_matrix_fmadd16 r3l_r3h, r0l_r0h, r1l_r1h, r2l_r2h\n\
         simd_matrix_fmadd16 r4l_r4h, r0l_r0h, r1l_r1h, r2l_r2h.neg",
    )
    .unwrap();
    for lane in 0..SIMD_WIDTH {
        for e in 0..2 {
            let (r, c) = position(lane, e);
            let d = 2.0 * (r as f32 - c as f32);
            assert_eq!(w.half(6 + e, lane), h(d + 1.0), "lane {lane} element {e}");
            assert_eq!(
                w.half(8 + e, lane),
                h(d - 1.0),
                "lane {lane} element {e} (neg C)"
            );
        }
    }
    assert_eq!(w.approximated.get("simd_matrix_fmadd16"), Some(&2));
}

/// The matrices need the whole group: one inactive thread is a typed error, nothing is written
/// and nothing counted.
#[test]
fn inactive_thread_is_an_error() {
    let mut w = WaveState::new(8);
    w.approximate = true;
    w.exec = u32::MAX >> 1;
    match exec(&mut w, FMA32) {
        Err(Fault::UnsupportedForm { what }) => assert!(what.contains("inactive"), "{what}"),
        other => panic!("{other:?}"),
    }
    assert!(w.approximated.is_empty());
}

/// A job under the opt-in names the instruction and its count in its output.
#[test]
fn job_output_names_it() {
    let job = "kind = \"compute\"\napproximate = true\nnr_gprs = 8\n\
               asm = \"simd_matrix_fmadd32 r6_r7, r0_r1, r2_r3, r4_r5\\nstop\"\n\
               [compute]\ngrid = [64]\nlocal = [32]\n";
    let r = run_job(&RunConfig::from_toml(job).unwrap(), None).unwrap();
    assert!(r.text.contains("simd_matrix_fmadd32 x2"), "{}", r.text);
}
