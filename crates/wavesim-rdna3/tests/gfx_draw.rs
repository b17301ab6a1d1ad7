//! Draws compared pixel for pixel with a reference rasteriser written here from the rules in
//! `gfx::draw`'s documentation (snapping to 1/256 pixel, edge functions with the top-left rule,
//! perspective-correct barycentrics, LESS depth test) and the pixel shader's source
//! (corpus/gfx/ll/draw_ps_gradient.ll: colour = fma(J, P20, fma(I, P10, P0)) per channel, with
//! P10 = c1 - c0 and P20 = c2 - c0 in f32), converted to UNORM8 by round-to-nearest-even.

use std::path::PathBuf;
use wavesim_rdna3::gfx::draw::{draw, ColorFormat, DrawConfig, ExportFormat, RenderTarget};

fn obj(w64: bool, name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/gfx/obj")
        .join(if w64 { "w64" } else { "w32" })
        .join(format!("{name}.o"));
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// A vertex: clip position and colour.
#[derive(Clone, Copy)]
struct V {
    pos: [f32; 4],
    col: [f32; 4],
}

fn buffer(vs: &[V]) -> Vec<u8> {
    vs.iter()
        .flat_map(|v| {
            v.pos
                .iter()
                .chain(v.col.iter())
                .flat_map(|x| x.to_le_bytes())
        })
        .collect()
}

fn config(vs: &[V], w: u32, h: u32, depth: bool, vs64: bool, ps64: bool) -> DrawConfig {
    DrawConfig {
        vs: obj(vs64, "draw_vs"),
        ps: obj(ps64, "draw_ps_gradient"),
        vertex_buffer: buffer(vs),
        vertex_count: vs.len() as u32,
        num_attributes: 1,
        flat_attributes: 0,
        vs_uniforms: vec![],
        ps_uniforms: vec![],
        textures: vec![],
        width: w,
        height: h,
        targets: vec![RenderTarget {
            format: ColorFormat::Rgba8Unorm,
            export: ExportFormat::F32,
            clear: [0.0, 0.0, 0.0, 1.0],
        }],
        depth_clear: depth.then_some(1.0),
        vs_wave64: vs64,
        ps_wave64: ps64,
        max_wave_insts: 1_000_000,
        pipeline: Default::default(),
    }
}

// ---- the reference ---------------------------------------------------------------------------

fn to_unorm(x: f32) -> u8 {
    if x.is_nan() {
        0
    } else {
        (x.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8
    }
}

/// Renders the triangle list the way the documented pipeline does, one pixel at a time.
fn reference(vs: &[V], w: u32, h: u32, depth_test: bool) -> Vec<u8> {
    let mut img = vec![0u8; (w * h * 4) as usize];
    for px in img.chunks_exact_mut(4) {
        px.copy_from_slice(&[0, 0, 0, 255]);
    }
    let mut zbuf = vec![1.0f32; (w * h) as usize];
    for t in vs.chunks_exact(3) {
        // Screen positions in 1/256 pixel, y down.
        let snap = |v: &V| {
            let (x, y, wc) = (v.pos[0] as f64, v.pos[1] as f64, v.pos[3] as f64);
            let sx = (x / wc * 0.5 + 0.5) * w as f64;
            let sy = (0.5 - y / wc * 0.5) * h as f64;
            ((sx * 256.0).round() as i64, (sy * 256.0).round() as i64)
        };
        let p: Vec<(i64, i64)> = t.iter().map(snap).collect();
        let area2 = (p[1].0 - p[0].0) * (p[2].1 - p[0].1) - (p[2].0 - p[0].0) * (p[1].1 - p[0].1);
        if area2 == 0 {
            continue;
        }
        let s = area2.signum();
        for py in 0..h as i64 {
            for px in 0..w as i64 {
                let (cx, cy) = (px * 256 + 128, py * 256 + 128);
                let mut e = [0i64; 3];
                let mut inside = true;
                for k in 0..3 {
                    let (a, b) = (p[(k + 1) % 3], p[(k + 2) % 3]);
                    e[k] = (b.0 - a.0) * (cy - a.1) - (b.1 - a.1) * (cx - a.0);
                    let (v, dx, dy) = (s * e[k], s * (b.0 - a.0), s * (b.1 - a.1));
                    let top_left = (dy == 0 && dx > 0) || dy < 0;
                    inside &= v > 0 || (v == 0 && top_left);
                }
                if !inside {
                    continue;
                }
                let b: Vec<f64> = e.iter().map(|&x| x as f64 / area2 as f64).collect();
                let q: Vec<f64> = (0..3).map(|k| b[k] / t[k].pos[3] as f64).collect();
                let sum = q[0] + q[1] + q[2];
                let (i, j) = ((q[1] / sum) as f32, (q[2] / sum) as f32);
                let z = (0..3)
                    .map(|k| b[k] * (t[k].pos[2] as f64 / t[k].pos[3] as f64))
                    .sum::<f64>() as f32;
                let at = (py as u32 * w + px as u32) as usize;
                if depth_test {
                    if z.is_nan() || z >= zbuf[at] {
                        continue;
                    }
                    zbuf[at] = z;
                }
                for c in 0..4 {
                    let p0 = t[0].col[c];
                    let p10 = t[1].col[c] - p0;
                    let p20 = t[2].col[c] - p0;
                    let v = j.mul_add(p20, i.mul_add(p10, p0));
                    img[at * 4 + c] = to_unorm(v);
                }
            }
        }
    }
    img
}

fn compare(name: &str, vs: &[V], w: u32, h: u32, depth: bool) {
    let want = reference(vs, w, h, depth);
    let lit = want.chunks_exact(4).filter(|p| p[..3] != [0, 0, 0]).count();
    assert!(
        lit > (w * h / 8) as usize,
        "{name}: scene covers only {lit} pixels"
    );
    for (vs64, ps64) in [(false, false), (true, true), (false, true)] {
        let r = draw(&config(vs, w, h, depth, vs64, ps64))
            .unwrap_or_else(|e| panic!("{name} vs64={vs64} ps64={ps64}: {e}"));
        let got = &r.targets[0].bytes;
        let bad: Vec<(u32, u32)> = (0..w * h)
            .filter(|&i| {
                got[i as usize * 4..i as usize * 4 + 4] != want[i as usize * 4..i as usize * 4 + 4]
            })
            .map(|i| (i % w, i / w))
            .collect();
        assert!(
            bad.is_empty(),
            "{name} vs64={vs64} ps64={ps64}: {} pixels differ, first {:?}",
            bad.len(),
            &bad[..bad.len().min(8)]
        );
        assert!(r.stats.ps_waves > 0 && r.stats.vs_waves > 0);
        assert!(r.stats.pixels_shaded as usize >= lit);
    }
}

fn v(x: f32, y: f32, z: f32, w: f32, c: [f32; 3]) -> V {
    V {
        pos: [x * w, y * w, z * w, w],
        col: [c[0], c[1], c[2], 1.0],
    }
}

#[test]
fn gradient_triangle() {
    let tri = [
        v(-0.9, -0.8, 0.5, 1.0, [1.0, 0.0, 0.0]),
        v(0.85, -0.6, 0.5, 1.0, [0.0, 1.0, 0.0]),
        v(-0.1, 0.9, 0.5, 1.0, [0.0, 0.0, 1.0]),
    ];
    compare("gradient", &tri, 64, 48, false);
}

#[test]
fn perspective_gradient_triangle_clockwise() {
    // Different w per vertex: the perspective-correct weights differ from the linear ones; the
    // clockwise winding checks that both orientations are drawn.
    let tri = [
        v(-0.9, -0.8, 0.2, 1.0, [1.0, 0.0, 0.0]),
        v(-0.1, 0.9, 0.6, 4.0, [0.0, 0.0, 1.0]),
        v(0.85, -0.6, 0.9, 2.0, [0.0, 1.0, 0.0]),
    ];
    compare("perspective", &tri, 50, 50, false);
}

#[test]
fn overlapping_triangles_with_depth() {
    // The second triangle is nearer in its left part and farther in its right part (z varies),
    // so the LESS test keeps each one where it is in front.
    let tris = [
        v(-0.9, -0.9, 0.5, 1.0, [1.0, 0.2, 0.2]),
        v(0.9, -0.9, 0.5, 1.0, [1.0, 0.2, 0.2]),
        v(0.0, 0.9, 0.5, 1.0, [1.0, 0.2, 0.2]),
        v(-0.9, 0.8, 0.1, 1.0, [0.2, 0.2, 1.0]),
        v(0.9, 0.7, 0.9, 1.0, [0.2, 1.0, 0.2]),
        v(-0.2, -0.95, 0.3, 1.5, [0.2, 0.2, 1.0]),
    ];
    compare("depth", &tris, 64, 64, true);
}

#[test]
fn shared_edges_cover_each_pixel_once() {
    // Two triangles of a quad share a diagonal; with the top-left rule no pixel is in both and
    // none is in neither (checked on the coverage, via pixels_shaded).
    let quad = [
        v(-1.0, -1.0, 0.5, 1.0, [1.0, 1.0, 1.0]),
        v(1.0, -1.0, 0.5, 1.0, [1.0, 1.0, 1.0]),
        v(1.0, 1.0, 0.5, 1.0, [1.0, 1.0, 1.0]),
        v(-1.0, -1.0, 0.5, 1.0, [1.0, 1.0, 1.0]),
        v(1.0, 1.0, 0.5, 1.0, [1.0, 1.0, 1.0]),
        v(-1.0, 1.0, 0.5, 1.0, [1.0, 1.0, 1.0]),
    ];
    let r = draw(&config(&quad, 16, 16, false, false, false)).unwrap();
    assert_eq!(r.stats.pixels_shaded, 256);
    compare("quad", &quad, 16, 16, false);
}

#[test]
fn png_of_a_draw_decodes_to_the_image() {
    let tri = [
        v(-0.9, -0.8, 0.5, 1.0, [1.0, 0.0, 0.0]),
        v(0.85, -0.6, 0.5, 1.0, [0.0, 1.0, 0.0]),
        v(-0.1, 0.9, 0.5, 1.0, [0.0, 0.0, 1.0]),
    ];
    let r = draw(&config(&tri, 32, 32, false, false, false)).unwrap();
    let png_bytes = r.targets[0].png().unwrap();
    let dec = png::Decoder::new(&png_bytes[..]);
    let mut rd = dec.read_info().unwrap();
    let mut buf = vec![0; rd.output_buffer_size()];
    let info = rd.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (32, 32));
    assert_eq!(&buf[..info.buffer_size()], &r.targets[0].bytes[..]);
}

// ---- a textured quad -------------------------------------------------------------------------

const TW: u32 = 4;
const TH: u32 = 4;

fn checker() -> Vec<u8> {
    (0..TW * TH)
        .flat_map(|i| {
            let (x, y) = (i % TW, i / TW);
            [
                (x * 80) as u8,
                (y * 80) as u8,
                if (x + y) % 2 == 0 { 255 } else { 0 },
                255,
            ]
        })
        .collect()
}

/// S# (RDNA3 ISA Table 51): ClampLastTexel in x and y (2), bilinear mag and min filters.
fn bilinear_clamp() -> [u32; 4] {
    [2 | 2 << 3, 0xfff << 12, 1 << 20 | 1 << 22, 0]
}

/// The PS of draw_ps_texture.ll for one pixel: (u, v) interpolated, then bilinear sampling
/// with clamp-to-last-texel in texel space (u * 4 - 0.5), UNORM8 texels c / 255.
fn texture_reference(t: &[V], w: u32, h: u32) -> Vec<u8> {
    let tex = checker();
    let fetch = |x: i64, y: i64| {
        let (x, y) = (
            x.clamp(0, TW as i64 - 1) as u32,
            y.clamp(0, TH as i64 - 1) as u32,
        );
        let i = ((y * TW + x) * 4) as usize;
        [0, 1, 2, 3].map(|c| tex[i + c] as f32 / 255.0)
    };
    let mut img = vec![0u8; (w * h * 4) as usize];
    for px in img.chunks_exact_mut(4) {
        px.copy_from_slice(&[0, 0, 0, 255]);
    }
    for tri in t.chunks_exact(3) {
        let snap = |v: &V| {
            let (x, y, wc) = (v.pos[0] as f64, v.pos[1] as f64, v.pos[3] as f64);
            (
                ((x / wc * 0.5 + 0.5) * w as f64 * 256.0).round() as i64,
                ((0.5 - y / wc * 0.5) * h as f64 * 256.0).round() as i64,
            )
        };
        let p: Vec<(i64, i64)> = tri.iter().map(snap).collect();
        let area2 = (p[1].0 - p[0].0) * (p[2].1 - p[0].1) - (p[2].0 - p[0].0) * (p[1].1 - p[0].1);
        let s = area2.signum();
        for py in 0..h as i64 {
            for px in 0..w as i64 {
                let (cx, cy) = (px * 256 + 128, py * 256 + 128);
                let mut e = [0i64; 3];
                let mut inside = area2 != 0;
                for k in 0..3 {
                    let (a, b) = (p[(k + 1) % 3], p[(k + 2) % 3]);
                    e[k] = (b.0 - a.0) * (cy - a.1) - (b.1 - a.1) * (cx - a.0);
                    let (v, dx, dy) = (s * e[k], s * (b.0 - a.0), s * (b.1 - a.1));
                    inside &= v > 0 || (v == 0 && ((dy == 0 && dx > 0) || dy < 0));
                }
                if !inside {
                    continue;
                }
                let q: Vec<f64> = (0..3)
                    .map(|k| e[k] as f64 / area2 as f64 / tri[k].pos[3] as f64)
                    .collect();
                let sum: f64 = q.iter().sum();
                let (i, j) = ((q[1] / sum) as f32, (q[2] / sum) as f32);
                let interp = |c: usize| {
                    let p0 = tri[0].col[c];
                    j.mul_add(tri[2].col[c] - p0, i.mul_add(tri[1].col[c] - p0, p0))
                };
                let (u, v) = (interp(0) * TW as f32 - 0.5, interp(1) * TH as f32 - 0.5);
                let (x0, y0) = (u.floor(), v.floor());
                let (a, b) = (u - x0, v - y0);
                let (x0, y0) = (x0 as i64, y0 as i64);
                let (t00, t10, t01, t11) = (
                    fetch(x0, y0),
                    fetch(x0 + 1, y0),
                    fetch(x0, y0 + 1),
                    fetch(x0 + 1, y0 + 1),
                );
                let at = ((py as u32 * w + px as u32) * 4) as usize;
                for c in 0..4 {
                    let top = t00[c] * (1.0 - a) + t10[c] * a;
                    let bot = t01[c] * (1.0 - a) + t11[c] * a;
                    img[at + c] = to_unorm(top * (1.0 - b) + bot * b);
                }
            }
        }
    }
    img
}

#[test]
fn textured_quad_with_bilinear_filtering() {
    let uv = |x: f32, y: f32, w: f32, u: f32, v: f32| V {
        pos: [x * w, y * w, 0.5 * w, w],
        col: [u, v, 0.0, 1.0],
    };
    // A quad in perspective (the top edge farther away), uv covering the texture.
    let quad = [
        uv(-0.8, -0.8, 1.0, 0.0, 1.0),
        uv(0.8, -0.8, 1.0, 1.0, 1.0),
        uv(0.5, 0.7, 2.0, 1.0, 0.0),
        uv(-0.8, -0.8, 1.0, 0.0, 1.0),
        uv(0.5, 0.7, 2.0, 1.0, 0.0),
        uv(-0.5, 0.7, 2.0, 0.0, 0.0),
    ];
    let (w, h) = (40, 32);
    let want = texture_reference(&quad, w, h);
    for (vs64, ps64) in [(false, false), (true, true)] {
        let mut cfg = config(&quad, w, h, false, vs64, ps64);
        cfg.vs = obj(vs64, "draw_vs_uv");
        cfg.ps = obj(ps64, "draw_ps_texture");
        cfg.textures = vec![wavesim_rdna3::gfx::draw::Texture {
            format: 42,
            width: TW,
            height: TH,
            data: checker(),
            sampler: bilinear_clamp(),
        }];
        let r = draw(&cfg).unwrap_or_else(|e| panic!("{e}"));
        let got = &r.targets[0].bytes;
        let bad: Vec<u32> = (0..w * h)
            .filter(|&i| {
                got[i as usize * 4..i as usize * 4 + 4] != want[i as usize * 4..i as usize * 4 + 4]
            })
            .collect();
        assert!(
            bad.is_empty(),
            "ps64={ps64}: {} pixels differ, first {:?}",
            bad.len(),
            &bad[..bad.len().min(5)]
        );
        let lit = want.chunks_exact(4).filter(|p| p[..3] != [0, 0, 0]).count();
        assert!(lit > 300, "{lit}");
    }
}

#[test]
fn gradient_with_the_vinterp_pixel_shader() {
    // corpus/gfx/ll/ps_interp_persp.ll interpolates with lds_param_load + v_interp_p10_f32 /
    // v_interp_p2_f32: fma(P10, I, P0) then fma(P20, J, tmp), the same value the reference
    // computes. Cross-checks the LDS parameter layout against the VINTERP lane convention.
    let tri = [
        v(-0.9, -0.8, 0.2, 1.0, [1.0, 0.0, 0.0]),
        v(-0.1, 0.9, 0.6, 4.0, [0.0, 0.0, 1.0]),
        v(0.85, -0.6, 0.9, 2.0, [0.0, 1.0, 0.0]),
    ];
    let (w, h) = (48, 40);
    let want = reference(&tri, w, h, false);
    for wave64 in [false, true] {
        let mut cfg = config(&tri, w, h, false, wave64, wave64);
        cfg.ps = obj(wave64, "ps_interp_persp");
        let r = draw(&cfg).unwrap_or_else(|e| panic!("{e}"));
        assert!(r.targets[0].bytes == want, "wave64={wave64}");
    }
}

#[test]
fn packed_16_bit_export_to_an_rgba16f_target() {
    // corpus/gfx/ll/ps_pk16.ll exports v_cvt_pk_rtz_f16_f32(x, y) and (1/3, 1) with EN = 0x3;
    // with ExportFormat::F16 (SPI_SHADER_COL_FORMAT FP16_ABGR) the host reads VSRC0 = {G, R},
    // VSRC1 = {A, B}. Every covered pixel of a full-screen quad gets its centre (x, y) rounded
    // toward zero to f16.
    let quad = [
        v(-1.0, -1.0, 0.5, 1.0, [0.0; 3]),
        v(1.0, -1.0, 0.5, 1.0, [0.0; 3]),
        v(1.0, 1.0, 0.5, 1.0, [0.0; 3]),
        v(-1.0, -1.0, 0.5, 1.0, [0.0; 3]),
        v(1.0, 1.0, 0.5, 1.0, [0.0; 3]),
        v(-1.0, 1.0, 0.5, 1.0, [0.0; 3]),
    ];
    let (w, h) = (12, 10);
    let mut cfg = config(&quad, w, h, false, false, false);
    cfg.ps = obj(false, "ps_pk16");
    cfg.targets = vec![RenderTarget {
        format: ColorFormat::Rgba16Float,
        export: ExportFormat::F16,
        clear: [0.0; 4],
    }];
    let r = draw(&cfg).unwrap();
    let rtz = |x: f32| {
        let hh = half::f16::from_f32(x);
        if hh.to_f32().abs() > x.abs() {
            hh.to_bits() - 1
        } else {
            hh.to_bits()
        }
    };
    let b = &r.targets[0].bytes;
    for y in 0..h {
        for x in 0..w {
            let i = ((y * w + x) * 8) as usize;
            let got: Vec<u16> = (0..4)
                .map(|c| u16::from_le_bytes([b[i + 2 * c], b[i + 2 * c + 1]]))
                .collect();
            let want = [
                rtz(x as f32 + 0.5),
                rtz(y as f32 + 0.5),
                rtz(f32::from_bits(0x3eaaaaab)),
                rtz(1.0),
            ];
            assert_eq!(got, want, "pixel ({x}, {y})");
        }
    }
}
