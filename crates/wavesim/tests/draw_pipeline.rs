//! The fixed-function pipeline of `wavesim draw`, state by state: each test draws a scene with
//! real llc-19 shaders (corpus/gfx/ll/draw_*.ll, built by corpus/gfx/build.sh) and compares every
//! pixel with the image the Vulkan rule gives, derived by hand in the comments.
//!
//! Conventions of the derivations: with the default viewport (y up) a W x H target maps NDC x to
//! xf = W/2 + W/2 x and y to yf = H/2 - H/2 y (framebuffer y down). `rect` draws the pixel
//! rectangle [x0, x1) x [y0, y1) as two triangles whose corners are pixel corners, so pixel centres
//! (p + 0.5) are never on an edge and the covered pixels are exactly x0..x1 by y0..y1. The vertex
//! colours of a primitive are equal, so the PS's P0 + I * P10 + J * P20 is P0 exactly (P10 = P20 = 0).

use std::path::PathBuf;
use wavesim::gfx::draw::{draw, DrawResult};
use wavesim::gfx::scene::DrawSpec;
use wavesim::gfx::targets::Image;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/gfx/draw")
}

fn run(scene: &str) -> DrawResult {
    let spec = DrawSpec::parse(scene).unwrap_or_else(|e| panic!("{e}\n{scene}"));
    let cfg = spec.config(&dir()).unwrap();
    draw(&cfg).unwrap_or_else(|e| panic!("{e}"))
}

fn run_err(scene: &str) -> String {
    let spec = DrawSpec::parse(scene).unwrap();
    match spec.config(&dir()).and_then(|c| draw(&c)) {
        Ok(_) => panic!("the scene drew"),
        Err(e) => e.to_string(),
    }
}

const VS: &str = "vs = \"../obj/w32/draw_vs.o\"\nps = \"../obj/w32/draw_ps_gradient.o\"\n";

fn head(w: u32, h: u32, extra: &str) -> String {
    format!("{VS}width = {w}\nheight = {h}\n{extra}\n")
}

fn target(format: &str, clear: [f32; 4], extra: &str) -> String {
    format!("[[targets]]\nformat = \"{format}\"\nclear = {clear:?}\n{extra}\n")
}

fn vertex(p: [f32; 4], c: [f32; 4]) -> String {
    format!("[[vertices]]\nposition = {p:?}\nattributes = [{c:?}]\n")
}

/// NDC of framebuffer point (sx, sy) under the default viewport of a w x h target.
fn ndc(sx: f32, sy: f32, w: u32, h: u32) -> (f32, f32) {
    (sx / w as f32 * 2.0 - 1.0, 1.0 - sy / h as f32 * 2.0)
}

/// Pixel rectangle [x0, x1) x [y0, y1) at depth z in one colour, as two triangles wound
/// counter-clockwise (Vulkan's a > 0) or clockwise in framebuffer coordinates.
#[allow(clippy::too_many_arguments)]
fn rect(
    w: u32,
    h: u32,
    x0: f32,
    y0: f32,
    x1: f32,
    y1: f32,
    z: f32,
    c: [f32; 4],
    ccw: bool,
) -> String {
    let p = |sx, sy| {
        let (x, y) = ndc(sx, sy, w, h);
        [x, y, z, 1.0]
    };
    let (tl, tr, br, bl) = (p(x0, y0), p(x1, y0), p(x1, y1), p(x0, y1));
    // (TL, TR, BR) in y-down coordinates has shoelace sum (x1-x0)(y1-y0) > 0, so Vulkan's
    // a = -sum/2 < 0: clockwise. The reversed order is counter-clockwise.
    let order = if ccw {
        [tl, br, tr, tl, bl, br]
    } else {
        [tl, tr, br, tl, br, bl]
    };
    order.iter().map(|&q| vertex(q, c)).collect()
}

fn rgba8(img: &Image, x: u32, y: u32) -> [u8; 4] {
    let i = ((y * img.width + x) * 4) as usize;
    [
        img.bytes[i],
        img.bytes[i + 1],
        img.bytes[i + 2],
        img.bytes[i + 3],
    ]
}

fn check8(name: &str, img: &Image, want: impl Fn(u32, u32) -> [u8; 4]) {
    let mut bad = Vec::new();
    for y in 0..img.height {
        for x in 0..img.width {
            let (got, w) = (rgba8(img, x, y), want(x, y));
            if got != w {
                bad.push(format!("({x}, {y}): {got:?} want {w:?}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{name}: {} pixels differ: {:?}",
        bad.len(),
        &bad[..bad.len().min(8)]
    );
}

fn check_f32(name: &str, img: &Image, tol: f32, want: impl Fn(u32, u32) -> [f32; 4]) {
    let mut bad = Vec::new();
    for y in 0..img.height {
        for x in 0..img.width {
            let (got, w) = (img.load(x, y), want(x, y));
            if (0..4).any(|k| (got[k] - w[k]).abs() > tol || got[k].is_nan()) {
                bad.push(format!("({x}, {y}): {got:?} want {w:?}"));
            }
        }
    }
    assert!(
        bad.is_empty(),
        "{name}: {} pixels differ: {:?}",
        bad.len(),
        &bad[..bad.len().min(8)]
    );
}

const RED: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const GREEN: [f32; 4] = [0.0, 1.0, 0.0, 1.0];
const BLUE: [f32; 4] = [0.0, 0.0, 1.0, 1.0];
const BLACK: [f32; 4] = [0.0, 0.0, 0.0, 1.0];
const R8: [u8; 4] = [255, 0, 0, 255];
const G8: [u8; 4] = [0, 255, 0, 255];
const B8: [u8; 4] = [0, 0, 255, 255];
const K8: [u8; 4] = [0, 0, 0, 255];

#[test]
fn a_vertex_far_off_screen_is_clipped_at_the_guard_band() {
    // 64 x 64. v0 = (-0.4921875, -0.5, 0, 1) -> (16.25, 48); v2 = (0.4921875, -0.5, 0, 1) ->
    // (47.75, 48); v1 = (1, 1, 0, 2e-5) -> xf = 32 + 32 / 2e-5 = 1600032, yf = 32 - 1600000: far
    // outside the +-2^20 guard band, so the clipper cuts both edges to v1 (the new vertices lie on
    // the same lines). Coverage: below the top vertex the triangle is bounded by
    // - y < 48 (the bottom edge; centres are at .5): py <= 47;
    // - the left edge through (16.25, 48) with slope dx/dy = -1600015.75 / 1600016: at a centre
    //   row cy it sits at x = 64.25 - cy - (48 - cy) * 1.6e-7, and a centre is inside when right of
    //   it: cx + cy > 64.25 - 1e-5, i.e. px + py + 1 >= 65;
    // - the right edge through (47.75, 48) with dx/dy = -1599984.25 / 1600016: x = 95.75 - cy -
    //   (48 - cy) * 2e-5, inside when left of it: px + py + 1 <= 95.
    // Snapping (1/256 px) moves the far vertices by < 1/256 px at 1.6e6 px, which tilts the edges
    // by < 1e-8 px over the 48 rows here: no centre is that close (the nearest are 0.25 px off).
    let mut s = head(64, 64, "") + &target("rgba8_unorm", BLACK, "");
    s += &vertex([-0.4921875, -0.5, 0.0, 1.0], GREEN);
    s += &vertex([1.0, 1.0, 0.0, 2e-5], GREEN);
    s += &vertex([0.4921875, -0.5, 0.0, 1.0], GREEN);
    let r = run(&s);
    assert_eq!((r.stats.clipped, r.stats.clipped_away), (1, 0));
    check8("far vertex", &r.targets[0], |x, y| {
        let d = x + y;
        if y <= 47 && (64..=94).contains(&d) {
            G8
        } else {
            K8
        }
    });
}

/// A full-screen quad of a 64 x 4 target with clip z = 2 x (w = 1).
fn z_ramp(extra: &str) -> String {
    let mut s = head(64, 4, extra) + &target("rgba8_unorm", BLACK, "");
    for (x, y) in [
        (-1.0f32, -1.0f32),
        (1.0, -1.0),
        (1.0, 1.0),
        (-1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
    ] {
        s += &vertex([x, y, 2.0 * x, 1.0], RED);
    }
    s
}

#[test]
fn near_and_far_planes_clip_and_depth_clamp_does_not() {
    // z = 2x: z >= 0 from x = 0 and z <= w = 1 up to x = 0.5; the cuts are at t = 0.5 of each
    // edge (t = d_in / (d_in - d_out) = 2 / 4 and 1 / 2), exactly x = 0 and x = 0.5, i.e.
    // xf = 32 and 48: pixels 32..=47 in every row.
    let r = run(&z_ramp(""));
    assert_eq!(r.stats.clipped, 2);
    check8("near/far", &r.targets[0], |x, _| {
        if (32..48).contains(&x) {
            R8
        } else {
            K8
        }
    });
    // With depth clamp nothing is cut; the depth written (test ALWAYS) is zf = 2 * xd at the
    // pixel centre, xd = (px + 0.5) / 32 - 1, clamped to the depth range [0, 1].
    let r = run(&z_ramp(
        "[rasterization]\ndepth_clamp = true\n[depth]\nclear = 0.5\ncompare = \"always\"",
    ));
    assert_eq!(r.stats.clipped, 0);
    check8("depth clamp", &r.targets[0], |_, _| R8);
    let d = r.depth.unwrap();
    for (i, &z) in d.iter().enumerate() {
        let px = (i % 64) as f64;
        let want = (2.0 * ((px + 0.5) / 32.0 - 1.0)).clamp(0.0, 1.0) as f32;
        // Interior values go through f64 barycentrics rounded once to f32: within 1 ulp.
        assert!((z - want).abs() <= 1e-7, "pixel {i}: {z} want {want}");
    }
}

/// Triangle A: framebuffer (0,0), (16,0), (0,16), clockwise (shoelace 256 > 0, a < 0); it covers
/// the centres with cx + cy < 16 (its hypotenuse is a right edge: ties out): px + py <= 14.
/// Triangle B: (32,32), (32,16), (16,32), counter-clockwise (shoelace -256); it covers
/// cx + cy >= 48 (its hypotenuse is a left edge: ties in): px + py >= 47.
fn two_windings(raster: &str) -> (DrawResult, impl Fn(u32, u32) -> (bool, bool)) {
    let mut s = head(32, 32, raster) + &target("rgba8_unorm", BLACK, "");
    for (sx, sy) in [(0.0, 0.0), (16.0, 0.0), (0.0, 16.0)] {
        let (x, y) = ndc(sx, sy, 32, 32);
        s += &vertex([x, y, 0.5, 1.0], RED);
    }
    for (sx, sy) in [(32.0, 32.0), (32.0, 16.0), (16.0, 32.0)] {
        let (x, y) = ndc(sx, sy, 32, 32);
        s += &vertex([x, y, 0.5, 1.0], GREEN);
    }
    (run(&s), |x: u32, y: u32| (x + y <= 14, x + y >= 47))
}

#[test]
fn culling_and_front_face() {
    // (cull mode, front face, A drawn, B drawn): A is back-facing and B front-facing when
    // counter-clockwise is front, and the other way round when clockwise is.
    let cases = [
        ("none", "counter_clockwise", true, true),
        ("back", "counter_clockwise", false, true),
        ("front", "counter_clockwise", true, false),
        ("front_and_back", "counter_clockwise", false, false),
        ("back", "clockwise", true, false),
        ("front", "clockwise", false, true),
    ];
    for (cull, face, a, b) in cases {
        let (r, cover) = two_windings(&format!(
            "[rasterization]\ncull_mode = \"{cull}\"\nfront_face = \"{face}\""
        ));
        assert_eq!(
            r.stats.culled,
            u64::from(!a) + u64::from(!b),
            "{cull} {face}"
        );
        check8(
            &format!("cull {cull} {face}"),
            &r.targets[0],
            |x, y| match cover(x, y) {
                (true, _) if a => R8,
                (_, true) if b => G8,
                _ => K8,
            },
        );
    }
}

#[test]
fn blending_with_alpha_and_write_masks() {
    // Clear (0, 0, 1, 1); rect [4,12)^2 with (1, 0.5, 0, 0.5), SRC_ALPHA / ONE_MINUS_SRC_ALPHA:
    // R = 1 * 0.5 + 0 * 0.5 = 0.5 -> 127.5 -> 128 (ties to even); G = 0.5 * 0.5 = 0.25 -> 63.75
    // -> 64; B = 0 + 1 * 0.5 = 0.5 -> 128; A = 0.5 * 0.5 + 1 * 0.5 = 0.75 -> 191.25 -> 191.
    let blend = "blend = { src_color = \"src_alpha\", dst_color = \"one_minus_src_alpha\" }";
    let s = head(16, 16, "")
        + &target("rgba8_unorm", [0.0, 0.0, 1.0, 1.0], blend)
        + &rect(
            16,
            16,
            4.0,
            4.0,
            12.0,
            12.0,
            0.5,
            [1.0, 0.5, 0.0, 0.5],
            true,
        );
    let r = run(&s);
    let inside = |x: u32, y: u32| (4..12).contains(&x) && (4..12).contains(&y);
    check8("alpha blend", &r.targets[0], |x, y| {
        if inside(x, y) {
            [128, 64, 128, 191]
        } else {
            [0, 0, 255, 255]
        }
    });
    // Write mask "rb": only R and B of (1, 0.5, 0, 0.5) are stored: (255, 0, 0, 255) over the
    // clear (0, 0, 255, 255) keeps G = 0 and A = 255.
    let s = head(16, 16, "")
        + &target("rgba8_unorm", [0.0, 0.0, 1.0, 1.0], "write_mask = \"rb\"")
        + &rect(
            16,
            16,
            4.0,
            4.0,
            12.0,
            12.0,
            0.5,
            [1.0, 0.5, 0.0, 0.5],
            true,
        );
    check8("write mask", &run(&s).targets[0], |x, y| {
        if inside(x, y) {
            [255, 0, 0, 255]
        } else {
            [0, 0, 255, 255]
        }
    });
    // Float target, ONE + ONE over (0.25, 0, 0, 0): rect [0,8) (0.5, 1, 0, 0) and rect [4,12)
    // (0.5, 0, 2, 0): the overlap [4,8) holds 0.25 + 0.5 + 0.5 = 1.25, 1, 2, 0, unclamped.
    let add = "blend = { src_color = \"one\", dst_color = \"one\" }";
    let s = head(16, 4, "")
        + &target("rgba32_float", [0.25, 0.0, 0.0, 0.0], add)
        + &rect(16, 4, 0.0, 0.0, 8.0, 4.0, 0.5, [0.5, 1.0, 0.0, 0.0], true)
        + &rect(16, 4, 4.0, 0.0, 12.0, 4.0, 0.5, [0.5, 0.0, 2.0, 0.0], true);
    check_f32("additive float", &run(&s).targets[0], 0.0, |x, _| {
        let mut c = [0.25, 0.0, 0.0, 0.0];
        if x < 8 {
            c = [c[0] + 0.5, c[1] + 1.0, c[2], c[3]];
        }
        if (4..12).contains(&x) {
            c = [c[0] + 0.5, c[1], c[2] + 2.0, c[3]];
        }
        c
    });
    // Constant colour and REVERSE_SUBTRACT: result = dst * ONE - src * CONSTANT_COLOR with
    // constant (0.5, 0.25, 1, 0) and src (1, 1, 0.5, 1) over the clear (1, 1, 1, 1):
    // (1 - 0.5, 1 - 0.25, 1 - 0.5, 1 - 0) = (0.5, 0.75, 0.5, 1).
    let rs = "blend = { src_color = \"constant_color\", dst_color = \"one\", color_op = \"reverse_subtract\" }";
    let s = head(8, 8, "blend_constants = [0.5, 0.25, 1.0, 0.0]")
        + &target("rgba32_float", [1.0; 4], rs)
        + &rect(8, 8, 0.0, 0.0, 8.0, 8.0, 0.5, [1.0, 1.0, 0.5, 1.0], true);
    check_f32("constant colour", &run(&s).targets[0], 0.0, |_, _| {
        [0.5, 0.75, 0.5, 1.0]
    });
}

#[test]
fn per_target_blending_and_dual_source() {
    // draw_ps_two exports attribute 0 to MRT0 and attribute 1 to MRT1; draw_vs_two reads four
    // float4 inputs per vertex (position, A, B, offset) from one binding of stride 64.
    // Target 0 (clear (0, 0.5, 1, 1)) blends SRC1_COLOR / ONE_MINUS_SRC1_COLOR (dual source:
    // src1 = MRT1 = B) with src A = (1, 1, 0.5, 1), B = (0.5, 0.25, 0.5, 0.5):
    // R = 1 * 0.5 + 0 * 0.5 = 0.5, G = 1 * 0.25 + 0.5 * 0.75 = 0.625, B = 0.5 * 0.5 + 1 * 0.5 =
    // 0.75, A (alpha factors default to the colour ones: SRC1_COLOR's alpha is B.a = 0.5) =
    // 1 * 0.5 + 1 * 0.5 = 1. Target 1 (clear 0.25) takes MAX(B, dst) = (0.5, 0.25, 0.5, 0.5).
    let mut data = Vec::new();
    let (a, b) = ([1.0, 1.0, 0.5, 1.0], [0.5, 0.25, 0.5, 0.5]);
    for (x, y) in [
        (-1.0f32, -1.0f32),
        (1.0, -1.0),
        (1.0, 1.0),
        (-1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
    ] {
        data.extend([x, y, 0.5, 1.0]);
        data.extend(a);
        data.extend(b);
        data.extend([0.0f32; 4]);
    }
    let s = format!(
        "vs = \"../obj/w32/draw_vs_two.o\"\nps = \"../obj/w32/draw_ps_two.o\"\nwidth = 8\nheight = 8\n\
         attributes = 2\n[draw]\nvertex_count = 6\n\
         [[vertex_buffers]]\nstride = 64\nf32 = {data:?}\n\
         [[vertex_inputs]]\nlocation = 0\nbinding = 0\nformat = \"r32g32b32a32_sfloat\"\n\
         [[vertex_inputs]]\nlocation = 1\nbinding = 0\nformat = \"r32g32b32a32_sfloat\"\noffset = 16\n\
         [[vertex_inputs]]\nlocation = 2\nbinding = 0\nformat = \"r32g32b32a32_sfloat\"\noffset = 32\n\
         [[vertex_inputs]]\nlocation = 3\nbinding = 0\nformat = \"r32g32b32a32_sfloat\"\noffset = 48\n"
    ) + &target(
        "rgba32_float",
        [0.0, 0.5, 1.0, 1.0],
        "blend = { src_color = \"src1_color\", dst_color = \"one_minus_src1_color\" }",
    ) + &target(
        "rgba32_float",
        [0.25; 4],
        "blend = { src_color = \"one\", dst_color = \"one\", color_op = \"max\" }",
    );
    let r = run(&s);
    check_f32("dual source", &r.targets[0], 0.0, |_, _| {
        [0.5, 0.625, 0.75, 1.0]
    });
    check_f32("max", &r.targets[1], 0.0, |_, _| [0.5, 0.25, 0.5, 0.5]);
    // SRC1 factors on target 1 are refused.
    let bad = s.replace(
        "src_color = \"one\", dst_color = \"one\", color_op = \"max\"",
        "src_color = \"src1_alpha\", dst_color = \"one\"",
    );
    assert!(run_err(&bad).contains("dual-source"), "{}", run_err(&bad));
}

#[test]
fn stencil_front_and_back_faces() {
    // 16 x 16, stencil cleared to 3. A = [0,10) x [0,16), counter-clockwise (front), red:
    // front state ALWAYS, pass REPLACE with reference 5. Then B = [6,16) x [0,16), clockwise
    // (back), green: back state EQUAL 5, pass INCREMENT_AND_CLAMP, fail ZERO.
    // Columns 0-5: A only: stencil 5, red. 6-9: A then B: 5 == 5 passes -> 6, green.
    // 10-15: B only: 3 != 5 fails -> 0, colour stays the clear.
    let s = head(
        16,
        16,
        "[stencil]\nclear = 3\n\
         front = { compare = \"always\", pass = \"replace\", reference = 5 }\n\
         back = { compare = \"equal\", pass = \"increment_and_clamp\", fail = \"zero\", reference = 5 }",
    ) + &target("rgba8_unorm", BLACK, "")
        + &rect(16, 16, 0.0, 0.0, 10.0, 16.0, 0.5, RED, true)
        + &rect(16, 16, 6.0, 0.0, 16.0, 16.0, 0.5, GREEN, false);
    let r = run(&s);
    check8("stencil colour", &r.targets[0], |x, _| match x {
        0..=5 => R8,
        6..=9 => G8,
        _ => K8,
    });
    let st = r.stencil.unwrap();
    for (i, &v) in st.iter().enumerate() {
        let want = match i % 16 {
            0..=5 => 5,
            6..=9 => 6,
            _ => 0,
        };
        assert_eq!(v, want, "stencil at {i}");
    }
}

#[test]
fn stencil_depth_fail_and_masks() {
    // Depth cleared to 0.5, stencil to 0. A = [0,10) at z = 0.25, front: ALWAYS, REPLACE 0x0f.
    // B = [6,16) at z = 0.75, back: NOT_EQUAL 0, fail DECREMENT_AND_WRAP, depth-fail INVERT,
    // write mask 0x3c. Columns 6-9: 0x0f != 0 passes, 0.75 < 0.25 fails (LESS): INVERT 0x0f =
    // 0xf0 through 0x3c: (0x0f & !0x3c) | (0xf0 & 0x3c) = 0x03 | 0x30 = 0x33; A's red stays.
    // Columns 10-15: 0 != 0 fails: 0 - 1 wraps to 0xff, masked: 0x3c; no colour.
    let s = head(
        16,
        4,
        "[depth]\nclear = 0.5\n[stencil]\n\
         front = { compare = \"always\", pass = \"replace\", reference = 15 }\n\
         back = { compare = \"not_equal\", fail = \"decrement_and_wrap\", depth_fail = \"invert\", write_mask = 60 }",
    ) + &target("rgba8_unorm", BLACK, "")
        + &rect(16, 4, 0.0, 0.0, 10.0, 4.0, 0.25, RED, true)
        + &rect(16, 4, 6.0, 0.0, 16.0, 4.0, 0.75, GREEN, false);
    let r = run(&s);
    check8("depth fail colour", &r.targets[0], |x, _| {
        if x < 10 {
            R8
        } else {
            K8
        }
    });
    let st = r.stencil.unwrap();
    let d = r.depth.unwrap();
    for i in 0..64 {
        let (sw, dw) = match i % 16 {
            0..=5 => (0x0f, 0.25),
            6..=9 => (0x33, 0.25),
            _ => (0x3c, 0.5),
        };
        assert_eq!((st[i], d[i]), (sw, dw), "pixel {i}");
    }
}

/// Blue rects 8 pixels wide side by side on a 24 x 4 target, rect k at x in [8k, 8k + 8) and
/// depth zs[k].
fn strips(zs: &[f32]) -> String {
    zs.iter()
        .enumerate()
        .map(|(k, &z)| {
            let x0 = 8.0 * k as f32;
            rect(24, 4, x0, 0.0, x0 + 8.0, 4.0, z, BLUE, true)
        })
        .collect()
}

#[test]
fn every_depth_compare_op_and_the_write_switch() {
    // 24 x 4, depth cleared to 0.5; three disjoint rects at z = 0.25 ([0,8)), 0.5 ([8,16)) and
    // 0.75 ([16,24)). A rect is drawn (and its z written) where `z op 0.5` holds.
    type Rule = fn(f32) -> bool;
    let ops: [(&str, Rule); 8] = [
        ("never", |_| false),
        ("less", |z| z < 0.5),
        ("equal", |z| z == 0.5),
        ("less_or_equal", |z| z <= 0.5),
        ("greater", |z| z > 0.5),
        ("not_equal", |z| z != 0.5),
        ("greater_or_equal", |z| z >= 0.5),
        ("always", |_| true),
    ];
    let zs = [0.25f32, 0.5, 0.75];
    for (op, pass) in ops {
        for write in [true, false] {
            let mut s = head(
                24,
                4,
                &format!("[depth]\nclear = 0.5\ncompare = \"{op}\"\nwrite = {write}"),
            ) + &target("rgba8_unorm", BLACK, "");
            s += &strips(&zs);
            let r = run(&s);
            check8(&format!("depth {op}"), &r.targets[0], |x, _| {
                if pass(zs[x as usize / 8]) {
                    B8
                } else {
                    K8
                }
            });
            for (i, &d) in r.depth.as_ref().unwrap().iter().enumerate() {
                let z = zs[i % 24 / 8];
                let want = if write && pass(z) { z } else { 0.5 };
                assert_eq!(d, want, "{op} write={write} pixel {i}");
            }
        }
    }
}

#[test]
fn d16_depth_rounds_before_the_test_and_the_write() {
    // [depth] format = "d16_unorm": a depth d is stored as k / 65535 with k = round(clamp(d, 0, 1)
    // x 65535), ties to even (Vulkan "Fixed-Point Data Conversions"; the clear value too).
    // 24 x 4, clear 1.0 (k = 65535, stored 1.0), LESS, three rects:
    //   z = 0.25: 0.25 x 65535 = 16383.75 -> k = 16384 (up)
    //   z = 0.5:  32767.5, a tie -> k = 32768 (the even one)
    //   z = 0.75: 49151.25 -> k = 49151 (down)
    let zs = [(0.25f32, 16384u16), (0.5, 32768), (0.75, 49151)];
    let mut s = head(24, 4, "[depth]\nclear = 1.0\nformat = \"d16_unorm\"")
        + &target("rgba8_unorm", BLACK, "");
    s += &strips(&zs.map(|(z, _)| z));
    let r = run(&s);
    check8("d16", &r.targets[0], |_, _| B8);
    for (i, &d) in r.depth.as_ref().unwrap().iter().enumerate() {
        assert_eq!(d, zs[i % 24 / 8].1 as f32 / 65535.0, "pixel {i}");
    }
    // The test compares converted values: clear 0.5 is stored as 32768 / 65535; a rect at
    // z = 0.500003 (f32 0.50000298...; x 65535 = 32767.695 -> 32768) passes EQUAL, which with
    // D32 (0.500003 != 0.5) it does not.
    for (format, drawn) in [("d16_unorm", true), ("d32_sfloat", false)] {
        let s = head(
            8,
            4,
            &format!("[depth]\nclear = 0.5\nformat = \"{format}\"\ncompare = \"equal\""),
        ) + &target("rgba8_unorm", BLACK, "")
            + &rect(8, 4, 0.0, 0.0, 8.0, 4.0, 0.500003, RED, true);
        check8(
            format,
            &run(&s).targets[0],
            |_, _| if drawn { R8 } else { K8 },
        );
    }
}

#[test]
fn depth_bounds_test_the_stored_depth() {
    // Vulkan "Depth Bounds Test": a fragment passes when minDepthBounds <= the stored depth <=
    // maxDepthBounds, whatever its own depth. 24 x 4, clear 0.5, bounds [0.4, 0.6], ALWAYS:
    //   rect 1, x in [0, 16), z = 0.7: stored 0.5 is in bounds -> red, depth 0.7;
    //   rect 2, x in [8, 24), z = 0.3: over [8, 16) the stored 0.7 is out of bounds -> stays red,
    //   0.7; over [16, 24) the stored 0.5 is in bounds -> green, 0.3.
    let s = head(
        24,
        4,
        "[depth]\nclear = 0.5\ncompare = \"always\"\n[depth.bounds]\nmin = 0.4\nmax = 0.6",
    ) + &target("rgba8_unorm", BLACK, "")
        + &rect(24, 4, 0.0, 0.0, 16.0, 4.0, 0.7, RED, true)
        + &rect(24, 4, 8.0, 0.0, 24.0, 4.0, 0.3, GREEN, true);
    let r = run(&s);
    check8("bounds", &r.targets[0], |x, _| if x < 16 { R8 } else { G8 });
    for (i, &d) in r.depth.as_ref().unwrap().iter().enumerate() {
        let want = if i % 24 < 16 { 0.7 } else { 0.3 };
        assert_eq!(d, want, "pixel {i}");
    }
    // The bounds are inclusive: with clear 0.4 = min every rect-1 pixel passes; with enable =
    // false nothing is bounded (both rects draw everywhere they cover).
    for (bounds, want_mid) in [
        ("[depth.bounds]\nmin = 0.4\nmax = 0.4", R8),
        ("[depth.bounds]\nenable = false", G8),
    ] {
        let s = head(
            24,
            4,
            &format!("[depth]\nclear = 0.4\ncompare = \"always\"\n{bounds}"),
        ) + &target("rgba8_unorm", BLACK, "")
            + &rect(24, 4, 0.0, 0.0, 16.0, 4.0, 0.7, RED, true)
            + &rect(24, 4, 8.0, 0.0, 24.0, 4.0, 0.3, GREEN, true);
        check8(bounds, &run(&s).targets[0], |x, _| match x {
            0..8 => R8,
            8..16 => want_mid,
            _ => G8,
        });
    }
}

#[test]
fn depth_bias_constant_slope_and_clamp() {
    // Vulkan "Depth Bias": o = m x slope + r x constant, clamped to `clamp` when non-zero, added
    // to the rasterised depth; m = max(|dz/dx|, |dz/dy|), r = 2^-16 for D16_UNORM and 2^(e - 23)
    // for D32_SFLOAT, e the exponent of the largest vertex |z|. Flat rects at z = 0.25 (m = 0),
    // 8 x 4, clear 1.0, ALWAYS:
    //   D32, constant 4: e = -2, r = 2^-25, o = 2^-23; 0.25 + 2^-23 is an f32 (ulp 2^-25).
    //   D16, constant 100: o = 100 / 65536; (0.25 + o) x 65535 = 16383.75 + 99.9985 =
    //     16483.7485 -> k = 16484.
    //   D16, constant 100, clamp 0.001: o = min(0.0015259, 0.001) = 0.001; 0.251 x 65535 =
    //     16449.285 -> k = 16449.
    // (Fractions near .5 are avoided: whether z x 65535 is rounded to f32 before the rounding
    // to an integer decides those, and the Vulkan rule does not say.)
    for (format, bias, want) in [
        ("d32_sfloat", "constant = 4.0", 0.25 + 2f32.powi(-23)),
        ("d16_unorm", "constant = 100.0", 16484.0 / 65535.0),
        (
            "d16_unorm",
            "constant = 100.0\nclamp = 0.001",
            16449.0 / 65535.0,
        ),
    ] {
        let s = head(
            8,
            4,
            &format!(
                "[depth]\nclear = 1.0\nformat = \"{format}\"\ncompare = \"always\"\n\
                 [rasterization.depth_bias]\n{bias}"
            ),
        ) + &target("rgba8_unorm", BLACK, "")
            + &rect(8, 4, 0.0, 0.0, 8.0, 4.0, 0.25, RED, true);
        let r = run(&s);
        for (i, &d) in r.depth.as_ref().unwrap().iter().enumerate() {
            assert_eq!(d, want, "{format} {bias} pixel {i}");
        }
    }
    // Slope: 16 x 4, one rect from z = 0.25 at x = 0 to 0.75 at x = 16, so dz/dx = 1/32 and
    // dz/dy = 0: m = 1/32, slope 2, constant 0 -> o = 1/16. Pixel x (centre x + 0.5) stores
    // 0.25 + (x + 0.5) / 32 + 1/16 (D32; within 1e-6 for the interpolation's rounding).
    let mut s = head(
        16,
        4,
        "[depth]\nclear = 1.0\ncompare = \"always\"\n[rasterization.depth_bias]\nslope = 2.0",
    ) + &target("rgba8_unorm", BLACK, "");
    for (x, y, z) in [
        (-1.0f32, 1.0f32, 0.25f32),
        (1.0, -1.0, 0.75),
        (1.0, 1.0, 0.75),
        (-1.0, 1.0, 0.25),
        (-1.0, -1.0, 0.25),
        (1.0, -1.0, 0.75),
    ] {
        s += &vertex([x, y, z, 1.0], RED);
    }
    let r = run(&s);
    for (i, &d) in r.depth.as_ref().unwrap().iter().enumerate() {
        let want = 0.25 + ((i % 16) as f32 + 0.5) / 32.0 + 1.0 / 16.0;
        assert!((d - want).abs() < 1e-6, "slope pixel {i}: {d} want {want}");
    }
}

#[test]
fn scissor_limits_fragments() {
    // A full-screen rect with scissor (3, 5) 7 x 4: pixels x in 3..10, y in 5..9.
    let s = head(16, 16, "[scissor]\nx = 3\ny = 5\nwidth = 7\nheight = 4")
        + &target("rgba8_unorm", BLACK, "")
        + &rect(16, 16, 0.0, 0.0, 16.0, 16.0, 0.5, RED, true);
    check8("scissor", &run(&s).targets[0], |x, y| {
        if (3..10).contains(&x) && (5..9).contains(&y) {
            R8
        } else {
            K8
        }
    });
}

#[test]
fn viewport_and_depth_range() {
    // 32 x 16 target, viewport x = 8, y = 4, 16 x 8, depth 0.25..0.75 (positive height: Vulkan's
    // y down). xf = 16 + 8 xd, yf = 8 + 4 yd, zf = 0.5 zd + 0.25. A quad at NDC x in [-1, 3],
    // y in [-1, 0], z = 1: xf in [8, 40], yf in [4, 8], zf = 0.75. The part past the viewport's
    // right edge (xf = 24) is inside the guard band and not clipped, but fragments are limited to
    // the viewport rectangle: pixels x in 8..24, y in 4..8, depth 0.75 (clear 0, ALWAYS).
    let mut s = head(
        32,
        16,
        "[viewport]\nx = 8\ny = 4\nwidth = 16\nheight = 8\nmin_depth = 0.25\nmax_depth = 0.75\n\
         [depth]\nclear = 0.0\ncompare = \"always\"",
    ) + &target("rgba8_unorm", BLACK, "");
    for (x, y) in [
        (-1.0f32, -1.0f32),
        (3.0, -1.0),
        (3.0, 0.0),
        (-1.0, -1.0),
        (3.0, 0.0),
        (-1.0, 0.0),
    ] {
        s += &vertex([x, y, 1.0, 1.0], GREEN);
    }
    let r = run(&s);
    assert_eq!(r.stats.clipped, 0);
    let inside = |x: u32, y: u32| (8..24).contains(&x) && (4..8).contains(&y);
    check8("viewport", &r.targets[0], |x, y| {
        if inside(x, y) {
            G8
        } else {
            K8
        }
    });
    for (i, &d) in r.depth.unwrap().iter().enumerate() {
        let want = if inside(i as u32 % 32, i as u32 / 32) {
            0.75
        } else {
            0.0
        };
        assert_eq!(d, want, "depth at {i}");
    }
}

/// The corners of pixel rect [x0,x1) x [y0,y1) of a 16 x 16 target as four vertices TL, BL, TR,
/// BR (a strip of two triangles covering it).
fn corners(x0: f32, y0: f32, x1: f32, y1: f32, c: [f32; 4]) -> String {
    [(x0, y0), (x0, y1), (x1, y0), (x1, y1)]
        .iter()
        .map(|&(sx, sy)| {
            let (x, y) = ndc(sx, sy, 16, 16);
            vertex([x, y, 0.5, 1.0], c)
        })
        .collect()
}

#[test]
fn indexed_strips_with_restart_lists_with_offsets_and_fans() {
    let verts = corners(0.0, 0.0, 8.0, 8.0, RED) + &corners(8.0, 8.0, 16.0, 16.0, GREEN);
    let both = |x: u32, y: u32| match (x < 8, y < 8) {
        (true, true) => R8,
        (false, false) => G8,
        _ => K8,
    };
    // A u16 strip 0 1 2 3 | 4 5 6 7: restart ends the first strip; each strip TL, BL, TR, BR
    // makes (TL, BL, TR) and (BL, BR, TR) (Vulkan's strip order), covering its rect.
    let s = head(
        16,
        16,
        "topology = \"triangle_strip\"\nprimitive_restart = true\n\
         [indices]\ntype = \"u16\"\nvalues = [0, 1, 2, 3, 65535, 4, 5, 6, 7]",
    ) + &target("rgba8_unorm", BLACK, "")
        + &verts;
    let r = run(&s);
    assert_eq!(r.stats.primitives, 4);
    check8("strip restart", &r.targets[0], both);
    // Without restart 0xffff is an index (vertex 65535 does not exist): an error.
    let e = run_err(&s.replace("primitive_restart = true", "primitive_restart = false"));
    assert!(e.contains("65535"), "{e}");
    // A u32 list from first_index 3 with vertex_offset 4: indices 0 1 2 2 1 3 -> vertices 4..8:
    // only the green rect (the skipped 9 9 9 would be out of range).
    let s = head(
        16,
        16,
        "[indices]\ntype = \"u32\"\nvalues = [9, 9, 9, 0, 1, 2, 2, 1, 3]\nfirst_index = 3\nvertex_offset = 4",
    ) + &target("rgba8_unorm", BLACK, "")
        + &verts;
    check8("list offset", &run(&s).targets[0], |x, y| {
        if x >= 8 && y >= 8 {
            G8
        } else {
            K8
        }
    });
    // A fan TL, TR, BR, BL (indices 0 2 3 1) covers the red rect: triangles (TR, BR, TL) and
    // (BR, BL, TL).
    let s = head(
        16,
        16,
        "topology = \"triangle_fan\"\n[indices]\ntype = \"u16\"\nvalues = [0, 2, 3, 1]",
    ) + &target("rgba8_unorm", BLACK, "")
        + &verts;
    check8("fan", &run(&s).targets[0], |x, y| {
        if x < 8 && y < 8 {
            R8
        } else {
            K8
        }
    });
}

#[test]
fn instanced_draw_with_per_instance_attributes_and_packed_formats() {
    // Binding 0 (per vertex, stride 12): position as R32G32_SFLOAT (z, w default to 0, 1) and a
    // B8G8R8A8_UNORM colour B (location 2, unused by the single target). Binding 1 (per
    // instance, stride 12): offset R32G32_SFLOAT (location 3), colour A R8G8B8A8_UNORM
    // (location 1). The base rect is pixels [0,4)^2 of 16 x 16; instance element k moves it by
    // (0.5 k, -0.5 k) NDC = (4 k, 4 k) pixels. Instances 1..=3 (first_instance 1) read elements
    // 1, 2, 3: green at [4,8)^2, blue at [8,12)^2, white at [12,16)^2; element 0 (red) is never
    // read. UNORM8 c / 255 stored again as UNORM8 gives c back.
    let mut vb: Vec<u8> = Vec::new();
    for (sx, sy) in [
        (0.0, 0.0),
        (0.0, 4.0),
        (4.0, 4.0),
        (0.0, 0.0),
        (4.0, 4.0),
        (4.0, 0.0),
    ] {
        let (x, y) = ndc(sx, sy, 16, 16);
        vb.extend(x.to_le_bytes());
        vb.extend(y.to_le_bytes());
        vb.extend([9, 9, 9, 9]);
    }
    let mut ib: Vec<u8> = Vec::new();
    let cols = [
        [255u8, 0, 0, 255],
        [0, 255, 0, 255],
        [0, 0, 255, 255],
        [255, 255, 255, 255],
    ];
    for (k, c) in cols.iter().enumerate() {
        ib.extend((0.5 * k as f32).to_le_bytes());
        ib.extend((-0.5 * k as f32).to_le_bytes());
        ib.extend(c);
    }
    let s = format!(
        "vs = \"../obj/w32/draw_vs_two.o\"\nps = \"../obj/w32/draw_ps_gradient.o\"\nwidth = 16\nheight = 16\n\
         attributes = 2\n[draw]\nvertex_count = 6\ninstance_count = 3\nfirst_instance = 1\n\
         [[vertex_buffers]]\nstride = 12\nu8 = {vb:?}\n\
         [[vertex_buffers]]\nstride = 12\ninput_rate = \"instance\"\nu8 = {ib:?}\n\
         [[vertex_inputs]]\nlocation = 0\nbinding = 0\nformat = \"r32g32_sfloat\"\n\
         [[vertex_inputs]]\nlocation = 2\nbinding = 0\nformat = \"b8g8r8a8_unorm\"\noffset = 8\n\
         [[vertex_inputs]]\nlocation = 3\nbinding = 1\nformat = \"r32g32_sfloat\"\n\
         [[vertex_inputs]]\nlocation = 1\nbinding = 1\nformat = \"r8g8b8a8_unorm\"\noffset = 8\n"
    ) + &target("rgba8_unorm", BLACK, "");
    let r = run(&s);
    assert_eq!((r.stats.primitives, r.stats.vs_waves), (6, 1));
    check8("instances", &r.targets[0], |x, y| {
        let k = x / 4;
        if k == y / 4 && k >= 1 {
            cols[k as usize]
        } else {
            K8
        }
    });
}

#[test]
fn points_squares_sizes_and_whole_point_clipping() {
    // Size 3 (the scene's point size; draw_vs exports none). A point at framebuffer (4, 4): the
    // square [2.5, 5.5)^2 holds the centres 2.5 (on the left/top edge: in), 3.5, 4.5; 5.5 is on
    // the right/bottom edge (out): pixels 2..=4. At (11, 11): [9.5, 12.5): pixels 9..=11. A point
    // at NDC x = 1.05 (xf = 16.4) is outside the view volume: discarded whole, though its square
    // reaches pixel 15.
    let mut s = head(
        16,
        16,
        "topology = \"point_list\"\n[rasterization]\npoint_size = 3.0",
    ) + &target("rgba8_unorm", BLACK, "");
    for (sx, sy) in [(4.0, 4.0), (11.0, 11.0)] {
        let (x, y) = ndc(sx, sy, 16, 16);
        s += &vertex([x, y, 0.5, 1.0], RED);
    }
    s += &vertex([1.05, 0.0, 0.5, 1.0], RED);
    let r = run(&s);
    assert_eq!(r.stats.clipped_away, 1);
    let sq = |x: u32, y: u32, lo: u32| (lo..lo + 3).contains(&x) && (lo..lo + 3).contains(&y);
    check8("points", &r.targets[0], |x, y| {
        if sq(x, y, 2) || sq(x, y, 9) {
            R8
        } else {
            K8
        }
    });
    // The VS's own size (POS1.x of draw_vs_extra) wins: size 2 at (8, 8) covers [7, 9)^2.
    let (x, y) = ndc(8.0, 8.0, 16, 16);
    let data = [x, y, 0.5, 1.0, 0.0, 0.0, 1.0, 1.0, 0.0, 0.0, 0.0, 2.0];
    let s = format!(
        "vs = \"../obj/w32/draw_vs_extra.o\"\nps = \"../obj/w32/draw_ps_gradient.o\"\nwidth = 16\nheight = 16\n\
         topology = \"point_list\"\nattributes = 1\n[draw]\nvertex_count = 1\n\
         [[vertex_buffers]]\nstride = 48\nf32 = {data:?}\n\
         [[vertex_inputs]]\nlocation = 0\nbinding = 0\nformat = \"r32g32b32a32_sfloat\"\n\
         [[vertex_inputs]]\nlocation = 1\nbinding = 0\nformat = \"r32g32b32a32_sfloat\"\noffset = 16\n\
         [[vertex_inputs]]\nlocation = 2\nbinding = 0\nformat = \"r32g32b32a32_sfloat\"\noffset = 32\n"
    ) + &target("rgba8_unorm", BLACK, "");
    check8("point size", &run(&s).targets[0], |x, y| {
        if (7..9).contains(&x) && (7..9).contains(&y) {
            B8
        } else {
            K8
        }
    });
}

#[test]
fn user_clip_distances() {
    // draw_vs_extra exports POS2.x = extra.x as ClipDistance[0]; a full-screen quad whose
    // distance is its NDC x keeps x >= 0: the cut at t = 0.5 of each edge is exactly x = 0, so
    // pixels 8..16 of a 16-wide target.
    let mut data = Vec::new();
    for (x, y) in [
        (-1.0f32, -1.0f32),
        (1.0, -1.0),
        (1.0, 1.0),
        (-1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
    ] {
        data.extend([x, y, 0.5, 1.0, 0.0, 1.0, 0.0, 1.0, x, 0.0, 0.0, 1.0]);
    }
    let s = format!(
        "vs = \"../obj/w32/draw_vs_extra.o\"\nps = \"../obj/w32/draw_ps_gradient.o\"\nwidth = 16\nheight = 4\n\
         attributes = 1\n[draw]\nvertex_count = 6\n[rasterization]\nclip_distances = 1\n\
         [[vertex_buffers]]\nstride = 48\nf32 = {data:?}\n\
         [[vertex_inputs]]\nlocation = 0\nbinding = 0\nformat = \"r32g32b32a32_sfloat\"\n\
         [[vertex_inputs]]\nlocation = 1\nbinding = 0\nformat = \"r32g32b32a32_sfloat\"\noffset = 16\n\
         [[vertex_inputs]]\nlocation = 2\nbinding = 0\nformat = \"r32g32b32a32_sfloat\"\noffset = 32\n"
    ) + &target("rgba8_unorm", BLACK, "");
    let r = run(&s);
    assert_eq!(r.stats.clipped, 2);
    check8(
        "clip distance",
        &r.targets[0],
        |x, _| if x >= 8 { G8 } else { K8 },
    );
    // Asking for more distances than the VS exports (POS2.w is exported, POS3 is not) is an error.
    let e = run_err(&s.replace("clip_distances = 1", "clip_distances = 5"));
    assert!(e.contains("POS3"), "{e}");
}

#[test]
fn rectangular_lines() {
    // 32 x 32, line list, constant colour. Each line is the rectangle of its width along the
    // segment (Vulkan's strict lines), rasterised with the top-left rule:
    // - (2, 5) -> (10, 5), width 1: [2, 10) x [4.5, 5.5): centre row 4.5 is on the top edge (in),
    //   x centres 2.5..9.5: pixels (2..=9, 4);
    // - (20, 2) -> (20, 12), width 3: [18.5, 21.5) x [2, 12): pixels (18..=20, 2..=11);
    // - (4, 14) -> (20, 30), width 1 (45 degrees): a centre is within 0.5 of the line when
    //   |(cx - 4) - (cy - 14)| / sqrt 2 < 0.5, i.e. py = px + 10 (the next diagonals are 0.71
    //   away), and between the ends when 0 <= (cx - 4) + (cy - 14) < 32, i.e. 2 px - 7 in
    //   [0, 32): px = 4..=19.
    let seg = |a: (f32, f32), b: (f32, f32)| {
        let (ax, ay) = ndc(a.0, a.1, 32, 32);
        let (bx, by) = ndc(b.0, b.1, 32, 32);
        vertex([ax, ay, 0.5, 1.0], GREEN) + &vertex([bx, by, 0.5, 1.0], GREEN)
    };
    let base = head(32, 32, "topology = \"line_list\"") + &target("rgba8_unorm", BLACK, "");
    let s1 = base.clone() + &seg((2.0, 5.0), (10.0, 5.0)) + &seg((4.0, 14.0), (20.0, 30.0));
    check8("thin lines", &run(&s1).targets[0], |x, y| {
        let h = y == 4 && (2..=9).contains(&x);
        let d = (4..=19).contains(&x) && y == x + 10;
        if h || d {
            G8
        } else {
            K8
        }
    });
    let s3 = head(
        32,
        32,
        "topology = \"line_list\"\n[rasterization]\nline_width = 3.0",
    ) + &target("rgba8_unorm", BLACK, "")
        + &seg((20.0, 2.0), (20.0, 12.0));
    check8("wide line", &run(&s3).targets[0], |x, y| {
        if (18..=20).contains(&x) && (2..=11).contains(&y) {
            G8
        } else {
            K8
        }
    });
    // A line strip a -> b -> c is the lines (a, b), (b, c): (2,5)->(10,5)->(10,13) width 1:
    // row 4 x 2..=9 and column [9.5, 10.5) x [5, 13): pixels (9, 5..=12)... the second line's
    // rectangle is x in [9.5, 10.5): centre 9.5 is on its left edge (in): pixel 9.
    let pts: String = [(2.0, 5.0), (10.0, 5.0), (10.0, 13.0)]
        .iter()
        .map(|&(sx, sy)| {
            let (x, y) = ndc(sx, sy, 32, 32);
            vertex([x, y, 0.5, 1.0], GREEN)
        })
        .collect();
    let s = head(32, 32, "topology = \"line_strip\"") + &target("rgba8_unorm", BLACK, "") + &pts;
    check8("line strip", &run(&s).targets[0], |x, y| {
        if (y == 4 && (2..=9).contains(&x)) || (x == 9 && (5..=12).contains(&y)) {
            G8
        } else {
            K8
        }
    });
}

#[test]
fn line_attributes_interpolate_along_the_segment() {
    // (2, 5) red -> (10, 5) blue into a float target: at the centre of pixel (px, 4),
    // t = ((px + 0.5) - 2) / 8 and the colour is (1 - t, 0, t, 1); within 1e-6 (the f64
    // barycentrics are rounded to f32 and the PS computes P0 + I P10 + J P20 with two fmas).
    let (ax, ay) = ndc(2.0, 5.0, 32, 8);
    let (bx, by) = ndc(10.0, 5.0, 32, 8);
    let s = head(32, 8, "topology = \"line_list\"")
        + &target("rgba32_float", [0.0; 4], "")
        + &vertex([ax, ay, 0.5, 1.0], RED)
        + &vertex([bx, by, 0.5, 1.0], BLUE);
    check_f32("line gradient", &run(&s).targets[0], 1e-6, |x, y| {
        if y == 4 && (2..=9).contains(&x) {
            let t = (x as f32 + 0.5 - 2.0) / 8.0;
            [1.0 - t, 0.0, t, 1.0]
        } else {
            [0.0; 4]
        }
    });
}

#[test]
fn float_targets_keep_values_and_unorm_rounding_is_selectable() {
    // RGBA32F stores the exported floats as they are (no [0, 1] clamp, no 8-bit step); RGBA16F
    // rounds to binary16, and 2.5, -1, 0.125, 100 are exact there. The .npy holds the raw bytes.
    let c = [2.5, -1.0, 0.125, 100.0];
    for fmt in ["rgba32_float", "rgba16_float"] {
        let s = head(8, 8, "")
            + &target(fmt, [0.0; 4], "")
            + &rect(8, 8, 0.0, 0.0, 4.0, 8.0, 0.5, c, true);
        let r = run(&s);
        check_f32(
            fmt,
            &r.targets[0],
            0.0,
            |x, _| if x < 4 { c } else { [0.0; 4] },
        );
        let npy = r.targets[0].npy();
        assert_eq!(
            &npy[npy.len() - r.targets[0].bytes.len()..],
            &r.targets[0].bytes[..]
        );
    }
    // UNORM8 of x with x * 255 = 2.5 exactly (x = 2.5f32 / 255, and 255 x rounds back to 2.5):
    // Vulkan's nearest with ties to even gives 2, D3D's floor(x * 255 + 0.5) gives 3.
    let x = 2.5f32 / 255.0;
    assert_eq!(x * 255.0, 2.5);
    for (rule, want) in [("vulkan", 2u8), ("d3d", 3)] {
        let s = head(4, 4, &format!("unorm_rounding = \"{rule}\""))
            + &target("rgba8_unorm", [0.0; 4], "")
            + &rect(4, 4, 0.0, 0.0, 4.0, 4.0, 0.5, [x, x, x, 1.0], true);
        check8(rule, &run(&s).targets[0], |_, _| [want, want, want, 255]);
    }
}

#[test]
fn bad_pipeline_settings_are_errors() {
    let base = head(8, 8, "")
        + &target("rgba8_unorm", BLACK, "")
        + &rect(8, 8, 0.0, 0.0, 8.0, 8.0, 0.5, RED, true);
    for (extra, says) in [
        ("topology = \"quads\"", "topology"),
        ("[rasterization]\ncull_mode = \"sideways\"", "cull_mode"),
        ("[rasterization]\nline_width = 0.0", "line width"),
        ("[scissor]\nx = -1\ny = 0\nwidth = 4\nheight = 4", "scissor"),
        (
            "[viewport]\nx = 0\ny = 0\nwidth = 0\nheight = 8",
            "viewport",
        ),
        (
            "[depth]\nclear = 1.0\ncompare = \"sometimes\"",
            "depth compare",
        ),
        ("depth_clear = 1.0\n[depth]\nclear = 1.0", "give one"),
        (
            "[depth]\nclear = 1.0\nformat = \"d24_unorm\"",
            "depth format",
        ),
        (
            "[depth]\nclear = 1.0\n[depth.bounds]\nmin = 0.5\nmax = 1.5",
            "within [0, 1]",
        ),
        (
            "[depth]\nclear = 1.0\n[depth.bounds]\nmin = 0.5",
            "needs min and max",
        ),
        (
            "[depth]\nclear = 1.0\n[depth.bounds]\nenable = false\nmax = 0.5",
            "enable = false",
        ),
        ("[depth]\nclear = 1.0\n[depth.bounds]\nmean = 0.5", "mean"),
        (
            "[rasterization.depth_bias]\nconstant = 1.0",
            "without a depth buffer",
        ),
        (
            "depth_clear = 1.0\n[rasterization.depth_bias]\nslope = nan",
            "finite",
        ),
        (
            "depth_clear = 1.0\n[rasterization.depth_bias]\nscale = 1.0",
            "scale",
        ),
        (
            "topology = \"line_list\"\ndepth_clear = 1.0\n[rasterization.depth_bias]\nconstant = 1.0",
            "depth bias with",
        ),
    ] {
        let s = base.replacen("\n[[targets]]", &format!("\n{extra}\n[[targets]]"), 1);
        let e = match DrawSpec::parse(&s) {
            Err(e) => e.to_string(),
            Ok(_) => run_err(&s),
        };
        assert!(e.contains(says), "{extra}: {e}");
    }
}

#[test]
fn the_documented_scene_keys_parse() {
    // docs/GRAPHICS.md's two ```toml blocks: the first is a whole scene (every key with its
    // default), the second the vertex-input keys, completed here with the required ones.
    let doc = std::fs::read_to_string(dir().join("../../../docs/GRAPHICS.md")).unwrap();
    let blocks: Vec<&str> = doc
        .split("```toml\n")
        .skip(1)
        .map(|b| b.split("```").next().unwrap())
        .collect();
    assert_eq!(blocks.len(), 2);
    let cfg = DrawSpec::parse(blocks[0]).unwrap().config(&dir()).unwrap();
    assert_eq!(cfg.pipeline.depth_stencil.stencil_clear, Some(0));
    assert_eq!(cfg.pipeline.blend.attachments.len(), 1);
    let ds = &cfg.pipeline.depth_stencil;
    assert_eq!(
        ds.depth_format,
        wavesim::gfx::pipeline::DepthFormat::D32Sfloat
    );
    assert_eq!(ds.depth_bounds, Some((0.0, 1.0)));
    assert_eq!(
        cfg.pipeline.rasterization.depth_bias,
        Some(wavesim::gfx::pipeline::DepthBias::default())
    );
    let second = format!("{VS}width = 4\nheight = 4\n[draw]\nvertex_count = 1\n[[targets]]\nformat = \"rgba8_unorm\"\n{}", blocks[1]);
    let cfg = DrawSpec::parse(&second).unwrap().config(&dir()).unwrap();
    assert_eq!(cfg.pipeline.vertex_input.unwrap().attributes.len(), 1);
}

/// Mutated scenes never panic: pipeline.toml with one of its numbers (not the size) replaced by
/// an extreme value and a random topology, drawn; each draw returns an image or an error.
#[test]
fn mutated_scenes_draw_or_fail_cleanly() {
    let base = std::fs::read_to_string(dir().join("pipeline.toml")).unwrap();
    let nasty = [
        "0",
        "-1",
        "1e30",
        "-1e30",
        "nan",
        "inf",
        "65535",
        "4294967295",
        "-2147483648",
        "2e-45",
        "0.5",
        "3",
        "1e-30",
    ];
    let topologies = [
        "point_list",
        "line_list",
        "line_strip",
        "triangle_list",
        "triangle_strip",
        "triangle_fan",
    ];
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    // Byte ranges of the numbers outside comments and the width/height lines.
    let mut spans = Vec::new();
    let mut at = 0;
    for line in base.split_inclusive('\n') {
        let code = line.split('#').next().unwrap_or("");
        if !code.starts_with("width") && !code.starts_with("height") {
            let b = code.as_bytes();
            let mut i = 0;
            while i < b.len() {
                if b[i].is_ascii_digit() && (i == 0 || !b[i - 1].is_ascii_alphabetic()) {
                    let s = i;
                    while i < b.len()
                        && (b[i].is_ascii_alphanumeric() || b[i] == b'.' || b[i] == b'-')
                    {
                        i += 1;
                    }
                    spans.push((at + s, at + i));
                }
                i += 1;
            }
        }
        at += line.len();
    }
    assert!(spans.len() > 50);
    let (mut ok, mut err) = (0, 0);
    for _ in 0..300 {
        let (s, e) = spans[next(spans.len())];
        let mut t = format!("{}{}{}", &base[..s], nasty[next(nasty.len())], &base[e..]);
        t = format!("topology = \"{}\"\n{t}", topologies[next(topologies.len())]);
        let r = DrawSpec::parse(&t)
            .and_then(|spec| spec.config(&dir()))
            .and_then(|c| draw(&c));
        match r {
            Ok(_) => ok += 1,
            Err(_) => err += 1,
        }
    }
    assert!(ok > 0 && err > 0, "{ok} drew, {err} failed");
}

// Multisampling. The standard locations (Vulkan 1.3 "Multisampling", table "Standard sample
// locations"), in 1/16 pixel from the pixel's corner: 2x (12, 12), (4, 4); 4x (6, 2), (14, 6),
// (2, 10), (10, 14); 8x (9, 5), (7, 11), (13, 9), (5, 3), (3, 13), (1, 7), (11, 15), (15, 1).

/// The RGBA32F colour of sample `s` of (x, y).
fn sample(img: &Image, x: u32, y: u32, s: u32) -> [f32; 4] {
    img.load_sample(x, y, s)
}

#[test]
fn four_samples_are_covered_per_sample_with_the_top_left_rule() {
    // 8 x 2, 4x. A red rect [4.5, 8) x [0, 2): in column 4 the samples right of x = 4.5 are
    // 1 (x = 4 + 14/16) and 3 (4 + 10/16); columns 5-7 are covered whole, 0-3 not at all.
    let ms = "[multisample]\nsamples = 4";
    let s = head(8, 2, ms)
        + &target("rgba32_float", BLACK, "")
        + &rect(8, 2, 4.5, 0.0, 8.0, 2.0, 0.5, RED, true);
    let r = run(&s);
    let img = &r.targets[0];
    assert_eq!(img.samples, 4);
    for y in 0..2 {
        for x in 0..8 {
            for k in 0..4 {
                let covered = x >= 5 || (x == 4 && (k == 1 || k == 3));
                let want = if covered { RED } else { BLACK };
                assert_eq!(sample(img, x, y, k), want, "pixel ({x}, {y}) sample {k}");
            }
        }
    }
    // The rect [4.375, 4.625): sample 0 (x = 4.375) lies on its left edge (included), sample 3
    // (x = 4.625) on its right edge (excluded), samples 1 (4.875) and 2 (4.125) outside.
    let s = head(8, 2, ms)
        + &target("rgba32_float", BLACK, "")
        + &rect(8, 2, 4.375, 0.0, 4.625, 2.0, 0.5, GREEN, true);
    let img = &run(&s).targets[0];
    for k in 0..4 {
        let want = if k == 0 { GREEN } else { BLACK };
        assert_eq!(sample(img, 4, 0, k), want, "sample {k}");
    }
}

#[test]
fn two_and_eight_samples_at_their_standard_locations() {
    // A rect [0, 0.5) x [0, 1) over pixel (0, 0): the samples with x < 8/16 are covered
    // (x = 8/16 would be on the right edge: out). 2x: sample 1 (4, 4). 8x: samples 1 (7, 11),
    // 3 (5, 3), 4 (3, 13), 5 (1, 7).
    for (n, want) in [(2u32, 0b10u32), (8, 0b0011_1010)] {
        let s = head(2, 1, &format!("[multisample]\nsamples = {n}"))
            + &target("rgba32_float", BLACK, "")
            + &rect(2, 1, 0.0, 0.0, 0.5, 1.0, 0.5, BLUE, true);
        let img = &run(&s).targets[0];
        for k in 0..n {
            let c = if want >> k & 1 != 0 { BLUE } else { BLACK };
            assert_eq!(sample(img, 0, 0, k), c, "{n}x sample {k}");
        }
    }
}

#[test]
fn the_sample_mask_removes_samples_before_shading() {
    // 4x, sample_mask 0b0101: a full-screen rect writes samples 0 and 2 only. With mask 0b0010
    // and a rect over column 4 from x = 4.5 (samples 1 and 3 covered, see above) only sample 1.
    let s = head(4, 1, "[multisample]\nsamples = 4\nsample_mask = 5")
        + &target("rgba32_float", BLACK, "")
        + &rect(4, 1, 0.0, 0.0, 4.0, 1.0, 0.5, RED, true);
    let img = &run(&s).targets[0];
    for x in 0..4 {
        for k in 0..4 {
            let want = if k % 2 == 0 { RED } else { BLACK };
            assert_eq!(sample(img, x, 0, k), want, "({x}, 0) sample {k}");
        }
    }
    let s = head(8, 1, "[multisample]\nsamples = 4\nsample_mask = 2")
        + &target("rgba32_float", BLACK, "")
        + &rect(8, 1, 4.5, 0.0, 8.0, 1.0, 0.5, RED, true);
    let r = run(&s);
    for k in 0..4 {
        let want = if k == 1 { RED } else { BLACK };
        assert_eq!(sample(&r.targets[0], 4, 0, k), want, "sample {k}");
    }
    // A mask without any existing sample shades nothing.
    let s = head(4, 1, "[multisample]\nsamples = 4\nsample_mask = 0xf0")
        + &target("rgba32_float", BLACK, "")
        + &rect(4, 1, 0.0, 0.0, 4.0, 1.0, 0.5, RED, true);
    assert_eq!(run(&s).stats.pixels_shaded, 0);
}

#[test]
fn each_sample_is_depth_tested_with_its_own_depth() {
    // 8 x 1, 4x, depth cleared to 1, LESS. First a red rect [0, 4.5) at z = 0.25 (column 4:
    // samples 0 (x = 4.375) and 2 (4.125)), then a green full rect at z = 0.5: it passes where
    // the depth is still 1 and fails where red wrote 0.25. Column 4 ends red at samples 0, 2 and
    // green at 1, 3.
    let ms = "[multisample]\nsamples = 4\n[depth]\nclear = 1.0";
    let s = head(8, 1, ms)
        + &target("rgba32_float", BLACK, "")
        + &rect(8, 1, 0.0, 0.0, 4.5, 1.0, 0.25, RED, true)
        + &rect(8, 1, 0.0, 0.0, 8.0, 1.0, 0.5, GREEN, true);
    let r = run(&s);
    let d = r.depth.as_ref().unwrap();
    assert_eq!(d.len(), 8 * 4);
    for x in 0..8u32 {
        for k in 0..4u32 {
            let red = x < 4 || (x == 4 && k % 2 == 0);
            let (c, z) = if red { (RED, 0.25) } else { (GREEN, 0.5) };
            assert_eq!(sample(&r.targets[0], x, 0, k), c, "({x}, 0) sample {k}");
            assert_eq!(d[(x * 4 + k) as usize], z, "depth of ({x}, 0) sample {k}");
        }
    }
    // A depth ramp z = xf / 8 over an 8 x 1 target (NDC z = (x_ndc + 1) / 2): each sample keeps
    // the depth at its own location, (px + sx / 16) / 8, exact in f32 (multiples of 2^-7).
    let mut s = head(8, 1, ms) + &target("rgba32_float", BLACK, "");
    for (x, y) in [
        (-1.0f32, -1.0f32),
        (1.0, -1.0),
        (1.0, 1.0),
        (-1.0, -1.0),
        (1.0, 1.0),
        (-1.0, 1.0),
    ] {
        s += &vertex([x, y, (x + 1.0) / 2.0, 1.0], RED);
    }
    let r = run(&s);
    let d = r.depth.as_ref().unwrap();
    let sx = [6.0f32, 14.0, 2.0, 10.0];
    for x in 0..8 {
        for k in 0..4 {
            let want = (x as f32 + sx[k] / 16.0) / 8.0;
            assert_eq!(d[x * 4 + k], want, "depth of ({x}, 0) sample {k}");
        }
    }
}

#[test]
fn centroid_terms_move_to_the_first_covered_sample() {
    // ps_linear_centroid exports LINEAR_CENTROID (I, J, I + J). The triangle (0, 0), (8, 0),
    // (0, 8) in framebuffer coordinates (vertex order v0, v1, v2) has linear barycentrics
    // I = b1 = x / 8, J = b2 = y / 8 at (x, y); its inside is x + y < 8.
    // 4x pixel (4, 3): samples 0 (4.375, 3.125) and 2 (4.125, 3.625) are inside, 1 and 3 not.
    // RADV's centroid order for the standard 4x locations (all at squared distance 40 from the
    // centre) is 0, 1, 2, 3: the centroid is sample 0, I = 4.375 / 8, J = 3.125 / 8.
    // Pixel (1, 1) is covered whole: its centroid is its centre (1.5, 1.5), I = J = 0.1875.
    let mut s = String::from(
        "vs = \"../obj/w32/draw_vs.o\"\nps = \"../obj/w32/ps_linear_centroid.o\"\nwidth = 8\n\
         height = 8\n[multisample]\nsamples = 4\n",
    ) + &target("rgba32_float", [0.0; 4], "");
    for (fx, fy) in [(0.0f32, 0.0f32), (8.0, 0.0), (0.0, 8.0)] {
        let (x, y) = ndc(fx, fy, 8, 8);
        s += &vertex([x, y, 0.5, 1.0], RED);
    }
    let r = run(&s);
    let img = &r.targets[0];
    let (i, j) = (4.375f32 / 8.0, 3.125f32 / 8.0);
    for k in [0, 2] {
        assert_eq!(
            sample(img, 4, 3, k)[..3],
            [i, j, i + j],
            "pixel (4, 3) sample {k}"
        );
    }
    for k in [1, 3] {
        assert_eq!(sample(img, 4, 3, k), [0.0; 4], "pixel (4, 3) sample {k}");
    }
    assert_eq!(sample(img, 1, 1, 2)[..3], [0.1875, 0.1875, 0.375]);
}

#[test]
fn multisampled_scenes_refuse_what_is_not_executed() {
    // ps_sample_w reads PERSP_SAMPLE: per-sample interpolation needs sample shading.
    let mut s = String::from(
        "vs = \"../obj/w32/draw_vs.o\"\nps = \"../obj/w32/ps_sample_w.o\"\nwidth = 4\n\
         height = 4\n[multisample]\nsamples = 4\n",
    ) + &target("rgba32_float", [0.0; 4], "");
    s += &rect(4, 4, 0.0, 0.0, 4.0, 4.0, 0.5, RED, true);
    let e = run_err(&s);
    assert!(e.contains("per-sample interpolation"), "{e}");
    let s = head(4, 4, "[multisample]\nsamples = 3")
        + &target("rgba32_float", BLACK, "")
        + &rect(4, 4, 0.0, 0.0, 4.0, 4.0, 0.5, RED, true);
    let e = run_err(&s);
    assert!(e.contains("3 samples per pixel"), "{e}");
}

#[test]
fn a_multisampled_target_writes_every_sample_and_views_resolved() {
    // 4x RGBA8: column 4 of a rect from x = 4.5 holds red at samples 1 and 3, black (0, 0, 0, 1)
    // at 0 and 2: the PNG shows the mean, (0.5, 0, 0, 1) -> 128 (127.5 ties to even 128).
    let s = head(8, 1, "[multisample]\nsamples = 4")
        + &target("rgba8_unorm", BLACK, "")
        + &rect(8, 1, 4.5, 0.0, 8.0, 1.0, 0.5, RED, true);
    let img = &run(&s).targets[0];
    assert_eq!(img.bytes.len(), 8 * 4 * 4);
    let npy = img.npy();
    assert!(String::from_utf8_lossy(&npy[..128]).contains("'shape': (1, 8, 4, 4)"));
    let buf = img.view_rgba8();
    assert_eq!(&buf[16..20], &[128, 0, 0, 255]);
    assert_eq!(&buf[12..16], &[0, 0, 0, 255]);
    assert_eq!(&buf[20..24], &[255, 0, 0, 255]);
}

#[test]
fn sample_shading_runs_the_pixel_shader_per_sample_at_its_location() {
    // ps_pos_xy exports (POS_X / 16, POS_Y / 8). Shaded per sample, POS_X/Y are the sample's
    // position: sample k of pixel (x, y) holds ((x + sx_k / 16) / 16, (y + sy_k / 16) / 8), with
    // the 4x locations sx = 6, 14, 2, 10 and sy = 2, 6, 10, 14 (exact in f32).
    let ms = "[multisample]\nsamples = 4\nsample_shading = true";
    let mut s = String::from(
        "vs = \"../obj/w32/draw_vs.o\"\nps = \"../obj/w32/ps_pos_xy.o\"\nwidth = 4\nheight = 2\n",
    );
    s += ms;
    s += "\n";
    s += &target("rgba32_float", [0.0; 4], "");
    s += &rect(4, 2, 0.0, 0.0, 4.0, 2.0, 0.5, RED, true);
    let r = run(&s);
    let (sx, sy) = ([6.0f32, 14.0, 2.0, 10.0], [2.0f32, 6.0, 10.0, 14.0]);
    for y in 0..2 {
        for x in 0..4 {
            for k in 0..4 {
                let want = [
                    (x as f32 + sx[k] / 16.0) / 16.0,
                    (y as f32 + sy[k] / 16.0) / 8.0,
                ];
                let got = sample(&r.targets[0], x, y, k as u32);
                assert_eq!(got[..2], want, "pixel ({x}, {y}) sample {k}");
            }
        }
    }
    // ps_sample_w exports PERSP_SAMPLE (I, J) * POS_W. The triangle (0, 0), (8, 0), (0, 8) at
    // w = 1 has I = x / 8, J = y / 8 and POS_W = 1: at sample 2 of pixel (1, 1), (1.125, 1.625),
    // I = 0.140625, J = 0.203125; at sample 1, (1.875, 1.375): 0.234375, 0.171875.
    let mut s = String::from(
        "vs = \"../obj/w32/draw_vs.o\"\nps = \"../obj/w32/ps_sample_w.o\"\nwidth = 8\nheight = 8\n",
    );
    s += ms;
    s += "\n";
    s += &target("rgba32_float", [0.0; 4], "");
    for (fx, fy) in [(0.0f32, 0.0f32), (8.0, 0.0), (0.0, 8.0)] {
        let (x, y) = ndc(fx, fy, 8, 8);
        s += &vertex([x, y, 0.5, 1.0], RED);
    }
    let img = &run(&s).targets[0];
    assert_eq!(sample(img, 1, 1, 2)[..2], [0.140625, 0.203125]);
    assert_eq!(sample(img, 1, 1, 1)[..2], [0.234375, 0.171875]);
    // Centroid terms under sample shading are refused by name.
    let mut s = String::from(
        "vs = \"../obj/w32/draw_vs.o\"\nps = \"../obj/w32/ps_linear_centroid.o\"\nwidth = 4\nheight = 4\n",
    );
    s += ms;
    s += "\n";
    s += &target("rgba32_float", [0.0; 4], "");
    s += &rect(4, 4, 0.0, 0.0, 4.0, 4.0, 0.5, RED, true);
    let e = run_err(&s);
    assert!(e.contains("under sample shading"), "{e}");
}

#[test]
fn an_exported_sample_mask_removes_samples_after_shading() {
    // ps_sample_mask exports MRTZ.z = 5 and MRT0 = green. With mask_export_channel = 2 a full
    // 4x rect writes samples 0 and 2 only; with pSampleMask 0b0110 as well, sample 2 alone
    // (coverage & pSampleMask & exported mask). A pipeline naming a channel the shader does
    // not export fails by name.
    let scene = |extra: &str| {
        let mut s = String::from(
            "vs = \"../obj/w32/draw_vs.o\"\nps = \"../obj/w32/ps_sample_mask.o\"\nwidth = 4\nheight = 2\n",
        );
        s += "[multisample]\nsamples = 4\n";
        s += extra;
        s += "\n";
        s += &target("rgba32_float", BLACK, "");
        s + &rect(4, 2, 0.0, 0.0, 4.0, 2.0, 0.5, RED, true)
    };
    for (extra, want) in [
        ("mask_export_channel = 2", 0b0101u32),
        ("mask_export_channel = 2\nsample_mask = 6", 0b0100),
        ("", 0b1111),
    ] {
        let img = &run(&scene(extra)).targets[0];
        for x in 0..4 {
            for k in 0..4 {
                let c = if want >> k & 1 != 0 { GREEN } else { BLACK };
                assert_eq!(sample(img, x, 1, k), c, "{extra:?}: ({x}, 1) sample {k}");
            }
        }
    }
    let e = run_err(&scene("mask_export_channel = 1"));
    assert!(e.contains("MRTZ channel 1"), "{e}");
}
