//! Triangle coverage (`wavesim_agx::raster`) and partial coverage in the linked-program runner
//! (`gallium::FragmentDraw::triangle`): which samples an edge covers, the top-left opt-in for
//! samples on an edge, helpers, sr124 and the tile writes. Expected values are derived by hand
//! in each test's comment.
//!
//! Sample positions (Mesa's `agx_default_sample_positions`, 1/16 pixel): 1 sample (0.5, 0.5);
//! 2 samples s0 (0.75, 0.75), s1 (0.25, 0.25); 4 samples s0 (0.375, 0.125), s1 (0.875, 0.375),
//! s2 (0.125, 0.625), s3 (0.625, 0.875).

use wavesim_agx::abi::AbiError;
use wavesim_agx::assemble;
use wavesim_agx::exec::{centroid_offset, default_sample_positions, PARTIAL_CENTROID};
#[path = "common/gallium_shader.rs"]
mod gallium_shader;

use gallium_shader::shader;
use wavesim_agx::gallium::{run_fragment, FragmentDraw, FragmentRun};
use wavesim_agx::raster::{FillRule, RasterError, Triangle};
use wavesim_agx::runner::{RunConfig, RunError};
use wavesim_core::memory::DeviceMemory;

fn tri(v: [[f64; 2]; 3], rule: FillRule) -> Triangle {
    Triangle::new(v, rule).unwrap()
}

fn cov(t: &Triangle, x: u32, y: u32, samples: u32) -> Result<u8, RasterError> {
    t.pixel_coverage(x, y, &default_sample_positions(samples).unwrap())
}

/// The 3 vertex orders of each winding give the same coverage (the rule does not depend on
/// which vertex comes first or on the winding).
fn orders(v: [[f64; 2]; 3]) -> Vec<[[f64; 2]; 3]> {
    vec![
        v,
        [v[1], v[2], v[0]],
        [v[2], v[0], v[1]],
        [v[0], v[2], v[1]],
        [v[2], v[1], v[0]],
        [v[1], v[0], v[2]],
    ]
}

#[test]
fn a_vertical_edge_covers_the_samples_right_of_it() {
    // left edge x = 0.5 from (0.5, -8) to (0.5, 16), third vertex (16, 4); over pixel (0, 0)
    // (y in [0, 1)) the other edges are far away (edge (0.5,-8)-(16,4) is at y = -8 + 12 (x -
    // 0.5) / 15.5 < -7, edge (16,4)-(0.5,16) at y > 15). At 4 samples those with x > 0.5 are
    // covered: s1 (0.875) and s3 (0.625): 0b1010; at 2 samples s0 (0.75): 0b01; at 1 sample the
    // centre (0.5, 0.5) lies on the edge: a typed error, and under top-left the edge is a left
    // edge (interior to its right), so it owns the centre: 1.
    for v in orders([[0.5, -8.0], [16.0, 4.0], [0.5, 16.0]]) {
        let t = tri(v, FillRule::Exact);
        assert_eq!(cov(&t, 0, 0, 4), Ok(0b1010));
        assert_eq!(cov(&t, 0, 0, 2), Ok(0b01));
        assert!(matches!(
            cov(&t, 0, 0, 1),
            Err(RasterError::OnEdge {
                x: 0,
                y: 0,
                sample: 0,
                ..
            })
        ));
        assert_eq!(cov(&tri(v, FillRule::TopLeft), 0, 0, 1), Ok(1));
        // pixel (1, 0) lies wholly right of the edge: every sample
        assert_eq!(cov(&t, 1, 0, 4), Ok(0b1111));
        // pixel (-1, 0) does not exist; pixel (0, 20) is above the triangle (y > 16)
        assert_eq!(cov(&t, 0, 20, 4), Ok(0));
    }
}

#[test]
fn a_diagonal_edge_splits_the_four_samples() {
    // edge y = x through pixel (0, 0): (0, 0) - (16, 16), third vertex (-16, 16): the interior is
    // y > x. s0 (0.375, 0.125) and s1 (0.875, 0.375) have y < x, s2 (0.125, 0.625) and s3
    // (0.625, 0.875) y > x: 0b1100. The triangle (0, 0) (16, 0) (16, 16) on the other side gets
    // 0b0011. Pixel (3, 2) (x in [3, 4), y in [2, 3)) lies below the line: the first triangle
    // covers none of its samples, the second all four.
    for v in orders([[0.0, 0.0], [16.0, 16.0], [-16.0, 16.0]]) {
        let t = tri(v, FillRule::Exact);
        assert_eq!(cov(&t, 0, 0, 4), Ok(0b1100));
        assert_eq!(cov(&t, 3, 2, 4), Ok(0));
    }
    for v in orders([[0.0, 0.0], [16.0, 0.0], [16.0, 16.0]]) {
        let t = tri(v, FillRule::Exact);
        assert_eq!(cov(&t, 0, 0, 4), Ok(0b0011));
        assert_eq!(cov(&t, 3, 2, 4), Ok(0b1111));
    }
}

#[test]
fn samples_on_a_shared_edge_belong_to_exactly_one_triangle_under_top_left() {
    // The 2-sample positions (0.75, 0.75) and (0.25, 0.25) both lie on y = x. Triangle A (0, 0)
    // (16, 16) (-16, 16) has its interior at y > x: the interior's direction from the edge is
    // (-1, 1), pointing left, so the edge is a right edge and owns nothing: A covers 0 of pixel
    // (0, 0). Triangle B (0, 0) (16, 0) (16, 16), interior y < x, direction (1, -1): a left edge,
    // B covers both: 0b11. Without the opt-in, both are typed errors.
    for v in orders([[0.0, 0.0], [16.0, 16.0], [-16.0, 16.0]]) {
        assert_eq!(cov(&tri(v, FillRule::TopLeft), 0, 0, 2), Ok(0));
        assert!(matches!(
            cov(&tri(v, FillRule::Exact), 0, 0, 2),
            Err(RasterError::OnEdge { .. })
        ));
    }
    for v in orders([[0.0, 0.0], [16.0, 0.0], [16.0, 16.0]]) {
        assert_eq!(cov(&tri(v, FillRule::TopLeft), 0, 0, 2), Ok(0b11));
    }
    // A horizontal edge y = 0.5 through the centre of pixel (2, 0): triangle C (-8, 0.5) (8, 0.5)
    // (0, 8) lies above it in y (interior y > 0.5), so the edge is at its smaller y, a top edge:
    // C owns the centre. Triangle D (-8, 0.5) (0, -8) (8, 0.5), interior y < 0.5, does not.
    for v in orders([[-8.0, 0.5], [8.0, 0.5], [0.0, 8.0]]) {
        assert_eq!(cov(&tri(v, FillRule::TopLeft), 2, 0, 1), Ok(1));
    }
    for v in orders([[-8.0, 0.5], [0.0, -8.0], [8.0, 0.5]]) {
        assert_eq!(cov(&tri(v, FillRule::TopLeft), 2, 0, 1), Ok(0));
    }
}

#[test]
fn a_sample_on_an_edges_line_outside_the_triangle_is_not_a_tie() {
    // Triangle (0.5, 0) (4, 0) (0.5, 4): the centre of pixel (0, 6), (0.5, 6.5), lies on the
    // line x = 0.5 of its left edge but above the triangle (y > 4, outside the hypotenuse x + 0.875
    // y = 4): outside, no tie and no error, coverage 0. Pixel (0, 1)'s centre (0.5, 1.5) is on the
    // edge itself: the tie error.
    let t = tri([[0.5, 0.0], [4.0, 0.0], [0.5, 4.0]], FillRule::Exact);
    assert_eq!(cov(&t, 0, 6, 1), Ok(0));
    assert_eq!(cov(&t, 0, 6, 4), Ok(0));
    assert!(matches!(
        cov(&t, 0, 1, 1),
        Err(RasterError::OnEdge { edge: 2, .. })
    ));
}

#[test]
fn vertices_off_the_subpixel_grid_and_degenerate_triangles() {
    // 8 subpixel bits: 1/256 is on the grid, 1/512 is not
    assert!(Triangle::new(
        [[1.0 / 256.0, 0.0], [4.0, 0.0], [0.0, 4.0]],
        FillRule::Exact
    )
    .is_ok());
    assert!(matches!(
        Triangle::new(
            [[0.0, 0.0], [4.0, 1.0 / 512.0], [0.0, 4.0]],
            FillRule::Exact
        ),
        Err(RasterError::OffGrid { vertex: 1, .. })
    ));
    assert!(matches!(
        Triangle::new([[0.0, 0.0], [4.0, 0.0], [f64::NAN, 4.0]], FillRule::Exact),
        Err(RasterError::OffGrid { vertex: 2, .. })
    ));
    assert!(Triangle::new([[0.0, 0.0], [4.0, 0.0], [0.0, 65536.0]], FillRule::Exact).is_err());
    // zero area (collinear): covers nothing, even the samples on its line
    let t = tri([[0.0, 0.0], [8.0, 8.0], [16.0, 16.0]], FillRule::Exact);
    assert_eq!(t.doubled_area(), 0);
    assert_eq!(cov(&t, 0, 0, 2), Ok(0));
    // doubled area in (1/256 px)^2: (4 * 256) * (4 * 256), positive counter-clockwise (y up)
    let t = tri([[0.0, 0.0], [4.0, 0.0], [0.0, 4.0]], FillRule::Exact);
    assert_eq!(t.doubled_area(), 1024 * 1024);
}

fn draw(width: u32, height: u32, samples: u32, t: Option<Triangle>) -> FragmentDraw {
    FragmentDraw {
        width,
        height,
        coefficients: vec![[0.0, 0.0, 1.0]],
        back_facing: None,
        end_of_tile: None,
        samples,
        triangle: t,
    }
}

fn run(asm: &str, d: &FragmentDraw) -> Result<FragmentRun, String> {
    run_fragment(&shader(assemble(asm).unwrap()), d, &DeviceMemory::new())
        .map_err(|e| e.to_string())
}

fn record(r: &FragmentRun, width: u32, x: u32, y: u32, s: u32) -> [u8; 8] {
    r.pixels[((y * width + x) * r.samples + s) as usize]
}

/// Each thread stores its sr124 (`get_sr r2, sr124`, i32 into bytes 0-3) and its quad's
/// thread-1 sr124 (`quad_shuffle r3, r2, 1`, bytes 4-7) to every sample (`st_tile` mask 255).
const STORE_COVERAGE: &str = "get_sr r2, sr124\nquad_shuffle r3, r2, 1\n\
                              st_tile r2_r3, i32, 0, xy, 0, 255, 0\nstop";

#[test]
fn partial_coverage_writes_only_covered_samples_and_helpers_write_nothing() {
    // 8x4 framebuffer, 4 samples, triangle (0.5, 0) (8, 0) (0.5, 4) (doubled area 7.5 * 4 > 0).
    // Its left edge x = 0.5 and hypotenuse x + 1.875 y = 8 (through (8, 0) and (0.5, 4)).
    // Pixel (0, 0): left edge: s1 (0.875, 0.375) and s3 (0.625, 0.875) right of x = 0.5; both
    // under the hypotenuse (0.875 + 0.7 < 8): sr124 = 0b1010; samples 1 and 3 hold 10 (0xA),
    // 0 and 2 stay 0 (the tile starts zeroed). Its quad's thread 1 is pixel (1, 0), wholly
    // inside: 15.
    // Pixel (7, 3): sample s0 (7.375, 3.125): 7.375 + 1.875 * 3.125 = 13.23 > 8: outside, and so
    // every sample: pixel (7, 3) uncovered. Its quad (6..7, 2..3): pixel (6, 2) s0 (6.375, 2.125)
    // gives 6.375 + 3.98 = 10.4 > 8, all samples outside: the quad (6, 2) has no covered pixel
    // and does not run; nothing is written there.
    // Pixel (4, 2): s2 (4.125, 2.625): 4.125 + 4.92 = 9.05 > 8 outside; s0 (4.375, 2.125):
    // 4.375 + 3.98 = 8.36 outside; s1 (4.875, 2.375): 9.33 outside; s3 (4.625, 2.875) 10.0:
    // outside: uncovered. Its quad (4..5, 2..3): pixel (4, 3), (5, 2), (5, 3) are further out:
    // no covered pixel, not run.
    // Pixel (3, 2): s0 (3.375, 2.125): 3.375 + 3.984 = 7.36 < 8 inside; s1 (3.875, 2.375):
    // 3.875 + 4.453 = 8.33 outside; s2 (3.125, 2.625): 3.125 + 4.922 = 8.05 outside; s3
    // (3.625, 2.875): 9.02 outside: sr124 = 0b0001. Its quad (2..3, 2..3): pixel (3, 3) s0
    // (3.375, 3.125): 3.375 + 5.86 = 9.23 outside, all outside: a helper, sr124 0, writes
    // nothing; pixel (2, 3) s0: 2.375 + 5.86 = 8.23 outside, s2 (2.125, 3.625) 8.92: a helper too.
    // Pixel (2, 2) (quad thread 0) reads thread 1 = pixel (3, 2): 1.
    let t = tri([[0.5, 0.0], [8.0, 0.0], [0.5, 4.0]], FillRule::Exact);
    let r = run(STORE_COVERAGE, &draw(8, 4, 4, Some(t))).unwrap();
    let word = |x, y, s, half: usize| {
        let b = record(&r, 8, x, y, s);
        u32::from_le_bytes(b[4 * half..4 * half + 4].try_into().unwrap())
    };
    for s in 0..4 {
        let covered = 0b1010 >> s & 1 == 1;
        assert_eq!(
            word(0, 0, s, 0),
            if covered { 10 } else { 0 },
            "(0,0) sample {s}"
        );
        assert_eq!(word(0, 0, s, 1), if covered { 15 } else { 0 });
        assert_eq!(word(1, 0, s, 0), 15);
        assert_eq!(word(3, 2, s, 0), if s == 0 { 1 } else { 0 });
        for (x, y) in [(3, 3), (2, 3), (4, 2), (6, 2), (7, 3)] {
            assert_eq!(record(&r, 8, x, y, s), [0; 8], "({x},{y}) sample {s}");
        }
    }
    let (x, y) = (2, 2);
    let covered_22 = {
        // pixel (2, 2): s0 (2.375, 2.125) 6.36 in; s1 (2.875, 2.375) 7.33 in; s2 (2.125, 2.625)
        // 7.05 in; s3 (2.625, 2.875) 8.02 out: 0b0111
        0b0111
    };
    for s in 0..4 {
        let want = if covered_22 >> s & 1 == 1 { 1 } else { 0 };
        assert_eq!(
            word(x, y, s, 1),
            want,
            "(2,2) sample {s}: its quad's thread 1"
        );
    }
}

#[test]
fn without_a_triangle_every_sample_is_covered_and_a_tie_stops_the_draw() {
    // no triangle: sr124 = 0b11 everywhere at 2 samples
    let r = run(STORE_COVERAGE, &draw(8, 4, 2, None)).unwrap();
    assert!(r.pixels.iter().all(|p| p[0] == 3 && p[4] == 3));
    // the 1-sample centre of pixel (0, 0) on the left edge x = 0.5: a typed error naming it
    let t = tri([[0.5, 0.0], [8.0, 0.0], [0.5, 4.0]], FillRule::Exact);
    let e = run(STORE_COVERAGE, &draw(8, 4, 1, Some(t))).unwrap_err();
    assert!(
        e.contains("pixel (0, 0) sample 0 lies exactly on edge"),
        "{e}"
    );
    // top-left: the left edge owns it: pixel (0, 0) covered
    let t = tri([[0.5, 0.0], [8.0, 0.0], [0.5, 4.0]], FillRule::TopLeft);
    let r = run(STORE_COVERAGE, &draw(8, 4, 1, Some(t))).unwrap();
    assert_eq!(record(&r, 8, 0, 0, 0)[0], 1);
}

#[test]
fn centroid_at_a_partially_covered_pixel_is_a_typed_error() {
    // iter r2, cf0 at the centroid, stored to the tile: full coverage reads the centre (plane
    // [0, 0, 1] = 1.0 = 0x3f800000); the 4-sample triangle above covers pixel (0, 0) partially
    let asm = "iter r2, cf0, centroid, 0b0, 0, 0, 0, 0, 0\nmov_imm r3, 0\n\
               st_tile r2_r3, i32, 0, xy, 0, 255, 0\nstop";
    let r = run(asm, &draw(8, 4, 4, None)).unwrap();
    assert_eq!(record(&r, 8, 5, 3, 2)[..4], 1.0f32.to_bits().to_le_bytes());
    let t = tri([[0.5, 0.0], [8.0, 0.0], [0.5, 4.0]], FillRule::Exact);
    let e = run(asm, &draw(8, 4, 4, Some(t))).unwrap_err();
    assert!(
        e.contains("centroid interpolation at a pixel with samples"),
        "{e}"
    );
}

#[test]
fn centroid_under_the_opt_in_is_the_first_covered_sample() {
    // exec::centroid_offset: the lowest-numbered covered sample's position, the centre with none
    // (4 samples: s0 (0.375, 0.125), s1 (0.875, 0.375), s2 (0.125, 0.625), s3 (0.625, 0.875);
    // 2 samples: s0 (0.75, 0.75), s1 (0.25, 0.25))
    let four = default_sample_positions(4).unwrap();
    let two = default_sample_positions(2).unwrap();
    assert_eq!(centroid_offset(0b1010, &four), (0.875, 0.375));
    assert_eq!(centroid_offset(0b1000, &four), (0.625, 0.875));
    assert_eq!(centroid_offset(0b0110, &four), (0.875, 0.375));
    assert_eq!(centroid_offset(0, &four), (0.5, 0.5));
    assert_eq!(centroid_offset(0b10, &two), (0.25, 0.25));

    // The triangle of `partial_coverage_writes_only_covered_samples_and_helpers_write_nothing`
    // at 4 samples, plane [1, 16, 0] (value x + 16 y at the framebuffer position, exact in f32
    // for these sixteenths), `iter` at the centroid into r2 and its quad's thread 3 (the pixel
    // at +1, +1) into r3, both stored to every sample. By that test's coverage:
    // - pixel (0, 0), samples 0b1010: s1 (0.875, 0.375): 0.875 + 16 * 0.375 = 6.875 (stored to
    //   samples 1 and 3); its thread 3 is pixel (1, 1): s0 (1.375, 1.125) gives 1.375 + 1.875 *
    //   1.125 = 3.48 < 8, s3 (1.625, 1.875) 5.14 < 8, and every sample right of x = 0.5: fully
    //   covered, the centre (1.5, 1.5): 1.5 + 24 = 25.5;
    // - pixel (1, 0), fully covered: the centre (1.5, 0.5): 1.5 + 8 = 9.5;
    // - pixel (2, 2), samples 0b0111: s0 (2.375, 2.125): 2.375 + 34 = 36.375; its thread 3 is
    //   pixel (3, 3), a helper (no covered sample): the centre (3.5, 3.5): 3.5 + 56 = 59.5;
    // - pixel (3, 2), samples 0b0001: s0 (3.375, 2.125): 3.375 + 34 = 37.375.
    // One SIMD group (8x4 pixels) runs the `iter` once: counted once.
    let asm = "iter r2, cf0, centroid, 0b0, 0, 0, 0, 0, 0\nquad_shuffle r3, r2, 3\n\
               st_tile r2_r3, i32, 0, xy, 0, 255, 0\nstop";
    let t = tri([[0.5, 0.0], [8.0, 0.0], [0.5, 4.0]], FillRule::Exact);
    let mut d = draw(8, 4, 4, Some(t));
    d.coefficients = vec![[1.0, 16.0, 0.0]];
    let mut sh = shader(assemble(asm).unwrap());
    sh.approximate = true;
    let r = run_fragment(&sh, &d, &DeviceMemory::new()).unwrap();
    let word = |x, y, s, half: usize| {
        let b = record(&r, 8, x, y, s);
        f32::from_le_bytes(b[4 * half..4 * half + 4].try_into().unwrap())
    };
    assert_eq!((word(0, 0, 1, 0), word(0, 0, 3, 0)), (6.875, 6.875));
    assert_eq!(word(0, 0, 1, 1), 25.5);
    assert_eq!(record(&r, 8, 0, 0, 0), [0; 8], "(0, 0) sample 0 uncovered");
    assert_eq!(word(1, 0, 2, 0), 9.5);
    assert_eq!((word(2, 2, 0, 0), word(2, 2, 0, 1)), (36.375, 59.5));
    assert_eq!(word(3, 2, 0, 0), 37.375);
    assert_eq!(
        r.approximated.get(PARTIAL_CENTROID),
        Some(&1),
        "{:?}",
        r.approximated
    );
}

/// A linked-program job storing sr124 (as `STORE_COVERAGE`) over 16x16 pixels at 4 samples with
/// `extra` `[fragment]` lines; the end-of-tile program and PBE of corpus/agx/gl25cover's 4-sample
/// jobs (the linked ABI needs one).
fn job(abi: &str, extra: &str) -> String {
    format!(
        "kind = \"fragment\"\nabi = \"{abi}\"\nnr_gprs = 16\nasm = \"\"\"\n{STORE_COVERAGE}\n\"\"\"\n\
         [gallium]\nmain_offset = 0\n[end_of_tile]\ncode = \"end_of_tile_4x.bin\"\nnr_gprs = 1\n\
         pbe = [266603044, 16778176, 0, 0, 536870928, 536870913]\nimage = \"rt\"\n\
         [fragment]\nwidth = 16\nheight = 16\nsamples = 4\n{extra}\n\
         [[buffer]]\nname = \"rt\"\nsize = 4096\n"
    )
}

fn run_job(text: &str) -> Result<String, RunError> {
    let cfg = RunConfig::from_toml(text).unwrap();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/agx/gl25cover");
    wavesim_agx::runner::run_in_dir(&cfg, &dir, None).map(|r| r.text)
}

#[test]
fn job_files_name_the_triangle() {
    // the triangle of `partial_coverage_...`: pixel (0, 0) has samples 1 and 3 (sr124 = 10)
    let text = run_job(&job(
        "mesa-25.0-linked",
        "triangle = [[0.5, 0.0], [8.0, 0.0], [0.5, 4.0]]",
    ))
    .unwrap();
    assert!(
        text.contains("pixel 0 0 sample 1: 10 0 0 0 15 0 0 0"),
        "{text}"
    );
    assert!(
        text.contains("pixel 0 0 sample 0: 0 0 0 0 0 0 0 0"),
        "{text}"
    );
    // a vertex off the 1/256 grid, an unknown rule, a rule without a triangle: configuration
    // errors; a triangle under another ABI: refused
    for (abi, extra) in [
        (
            "mesa-25.0-linked",
            "triangle = [[0.5, 0.001], [8.0, 0.0], [0.5, 4.0]]",
        ),
        (
            "mesa-25.0-linked",
            "triangle = [[0.5, 0.0], [8.0, 0.0], [0.5, 4.0]]\nfill_rule = \"bottom-left\"",
        ),
        ("mesa-25.0-linked", "fill_rule = \"top-left\""),
        (
            "mesa-22.3",
            "triangle = [[0.5, 0.0], [8.0, 0.0], [0.5, 4.0]]",
        ),
        (
            "mesa-current",
            "triangle = [[0.5, 0.0], [8.0, 0.0], [0.5, 4.0]]",
        ),
    ] {
        let mut text = job(abi, extra);
        if abi != "mesa-25.0-linked" {
            // the other ABIs take no end-of-tile program, the split-program ABI no [gallium]
            // (refused first otherwise)
            let from = if abi == "mesa-22.3" {
                "[end_of_tile]"
            } else {
                "[gallium]"
            };
            let a = text.find(from).unwrap();
            let b = text.find("[fragment]").unwrap();
            text.replace_range(a..b, "");
        }
        match run_job(&text) {
            Err(RunError::Config(what)) => {
                assert!(
                    what.contains("triangle") || what.contains("fill_rule"),
                    "{what}"
                )
            }
            other => panic!("{abi} {extra}: {other:?}"),
        }
    }
    // a sample on an edge (the 1-sample centre of pixel (0, 0) on x = 0.5) stops the draw with
    // the rasteriser's typed error
    let tie = job(
        "mesa-25.0-linked",
        "triangle = [[0.5, 0.0], [8.0, 0.0], [0.5, 4.0]]",
    )
    .replace("samples = 4", "samples = 1");
    assert!(matches!(
        run_job(&tie),
        Err(RunError::Abi(AbiError::Raster(RasterError::OnEdge { .. })))
    ));
}

#[test]
fn helpers_make_no_device_writes() {
    // Each thread stores its sr124 to word y * 8 + x of a buffer filled with 0xffffffff
    // (`device_store ... r5, u2_u3, r1`: address u2_u3 + 4 r1) and adds 1 to word 64 with a device
    // atomic. Triangle and pixels as in `partial_coverage_...` (8x4, 4 samples): pixel (0, 0)
    // covered with 0b1010, (3, 2) with 0b0001, (2, 2) with 0b0111; pixels (3, 3) and (2, 3) are
    // helpers of quad (2..3, 2..3): the hardware predicates their writes off, so their words keep
    // 0xffffffff (a store would give 0). Quads without covered pixels do not run: pixel (6, 2)
    // keeps 0xffffffff too. The atomic (`atomic add ... u2_u3, r7` with r7 = 64: word 64, the form Mesa emits
    // without a return value) counts the covered pixels only: the triangle's pixels with a
    // covered sample, counted from the coverage rule itself (`pixel_coverage`).
    let asm = "get_sr r1, sr80\nget_sr r2, sr81\niadd r1, r1, r2, lsl 3\nget_sr r5, sr124\n\
               device_store 0, i32, x, r5, u2_u3, r1, unsigned, , 0\nmov_imm r6, 1\n\
               mov_imm r7, 64\natomic add, 0, r8, u2_u3, r7, unsigned, r6, 1, 0, 1, 4, 2\nstop";
    let mut dev = DeviceMemory::new();
    let base = dev.alloc(65 * 4, 16).unwrap();
    dev.write(base, &[0xff; 64 * 4]).unwrap();
    dev.write_u32(base + 256, 0).unwrap();
    let mut s = shader(assemble(asm).unwrap());
    for (i, h) in [
        base as u16,
        (base >> 16) as u16,
        (base >> 32) as u16,
        (base >> 48) as u16,
    ]
    .into_iter()
    .enumerate()
    {
        s.uniforms[4 + i] = h;
    }
    let t = tri([[0.5, 0.0], [8.0, 0.0], [0.5, 4.0]], FillRule::Exact);
    run_fragment(&s, &draw(8, 4, 4, Some(t.clone())), &dev).unwrap();
    let word = |x: u64, y: u64| dev.read_u32(base + 4 * (y * 8 + x)).unwrap();
    assert_eq!(word(0, 0), 0b1010);
    assert_eq!(word(3, 2), 0b0001);
    assert_eq!(word(2, 2), 0b0111);
    for (x, y) in [(3, 3), (2, 3), (6, 2), (7, 3)] {
        assert_eq!(word(x, y), u32::MAX, "({x},{y})");
    }
    let positions = default_sample_positions(4).unwrap();
    let covered = (0..4)
        .flat_map(|y| (0..8).map(move |x| (x, y)))
        .filter(|&(x, y)| t.pixel_coverage(x, y, &positions).unwrap() != 0)
        .count();
    assert_eq!(dev.read_u32(base + 256).unwrap() as usize, covered);
}
