//! Depth bias as RADV programs it (PA_SU_POLY_OFFSET_*): one triangle whose depth slopes in x
//! and y (tests/graphics/slope_tri.vert: z 0.2, 0.8, 0.5 at its corners) drawn with a depth
//! bias into a D32_SFLOAT or D16_UNORM attachment (optimal tiling, HTILE) cleared to 1.0, depth
//! test ALWAYS with writes; the depth image is copied back (tests/depth_pass).
//!
//! Vulkan 1.3 "Depth Bias" leaves m (the slope: sqrt(dz/dx^2 + dz/dy^2) or the max of the two
//! magnitudes) and r (the minimum resolvable difference) to the implementation, so the depth
//! values are compared within a tolerance, stated per case, never bit for bit: every pixel
//! both drivers cover must agree with lavapipe within `tol`, and at pixels 0.75 pixel or more
//! inside the triangle with the rule computed here: the plane's z at the pixel centre plus o =
//! m x slope + r x constant (clamped), m = max(|dz/dx|, |dz/dy|), r = 2^(e - 23) (e the exponent
//! of the largest vertex depth, 0.8: e = -1) for D32_SFLOAT and 2^-16 for D16_UNORM.
//!
//! Each run is a child process (this binary again, WAVESIM_BIAS_CASE).

use ash::vk;

#[allow(dead_code)]
mod vulkan_draw;
use vulkan_draw::{err, Gpu};
#[allow(dead_code)]
mod depth_pass;

const W: u32 = 64;
const H: u32 = 64;

#[derive(Clone, Copy, Debug)]
struct Case {
    name: &'static str,
    d16: bool,
    constant: f32,
    slope: f32,
    clamp: f32,
}

const CASES: &[Case] = &[
    // o = 10000 x 2^-24 = 5.96e-4.
    Case {
        name: "d32_constant",
        d16: false,
        constant: 10000.0,
        slope: 0.0,
        clamp: 0.0,
    },
    // o = 1.5 m, m about 0.0134 (the triangle's steeper direction).
    Case {
        name: "d32_slope",
        d16: false,
        constant: 0.0,
        slope: 1.5,
        clamp: 0.0,
    },
    // 4 m + 100 r is above 0.01: clamped to 0.01.
    Case {
        name: "d32_clamped",
        d16: false,
        constant: 100.0,
        slope: 4.0,
        clamp: 0.01,
    },
    // Negative: -500 r - m, clamped at -0.005.
    Case {
        name: "d32_negative",
        d16: false,
        constant: -500.0,
        slope: -1.0,
        clamp: -0.005,
    },
    // D16: o = 64 x 2^-16 + m.
    Case {
        name: "d16_both",
        d16: true,
        constant: 64.0,
        slope: 1.0,
        clamp: 0.0,
    },
];

/// The triangle's vertices (NDC x, y, z).
const TRI: [[f32; 3]; 3] = [[-0.9, -0.9, 0.2], [0.9, -0.7, 0.8], [-0.6, 0.9, 0.5]];

/// Renders `c`; returns the colour image (RGBA8) then the depth image (f32 or u16).
fn render(c: &Case) -> Result<Vec<u8>, String> {
    let vert = vulkan_draw::spv("slope_tri.vert.spv")?;
    let frag = vulkan_draw::spv("tri.frag.spv")?;
    // SAFETY: every Vulkan call follows the specification's valid usage: objects are created
    // before use; the process exits after reading the result (the driver frees the rest).
    unsafe {
        let gpu = Gpu::graphics_with(
            &vk::PhysicalDeviceFeatures::default().depth_bias_clamp(c.clamp != 0.0),
        )?;
        let (format, bpp) = if c.d16 {
            (vk::Format::D16_UNORM, 2)
        } else {
            (vk::Format::D32_SFLOAT, 4)
        };
        let p = depth_pass::begin(
            &gpu,
            format,
            vk::ImageAspectFlags::DEPTH,
            vk::ClearDepthStencilValue {
                depth: 1.0,
                stencil: 0,
            },
        )?;
        let d = &gpu.device;
        let layout = d
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default(), None)
            .map_err(err("vkCreatePipelineLayout"))?;
        let ds = vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(true)
            .depth_write_enable(true)
            .depth_compare_op(vk::CompareOp::ALWAYS);
        let rs = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(vk::CullModeFlags::NONE)
            .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
            .line_width(1.0)
            .depth_bias_enable(true)
            .depth_bias_constant_factor(c.constant)
            .depth_bias_slope_factor(c.slope)
            .depth_bias_clamp(c.clamp);
        let pipeline = depth_pass::pipeline(&gpu, (&vert, &frag), (&rs, true), &ds, layout, p.rp)?;
        d.cmd_bind_pipeline(p.cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
        d.cmd_draw(p.cmd, 3, 1, 0, 0);
        depth_pass::finish(&gpu, &p, &[(vk::ImageAspectFlags::DEPTH, bpp)])
    }
}

/// The child process's entry: renders WAVESIM_BIAS_CASE into WAVESIM_BIAS_OUT.
#[test]
fn child_entry() {
    depth_pass::child_entry(
        ("WAVESIM_BIAS_CASE", "WAVESIM_BIAS_OUT"),
        CASES,
        |c| c.name,
        render,
    );
}

/// The depth image of a result as f64 (D16_UNORM's k as k / 65535).
fn depths(c: &Case, bytes: &[u8]) -> Vec<f64> {
    depth_pass::depth_texels(c.d16, bytes)
        .into_iter()
        .map(f64::from)
        .collect()
}

/// The rule's depth at pixel (px, py) if it lies 0.75 pixel or more inside the triangle.
fn rule(c: &Case, px: usize, py: usize) -> Option<f64> {
    // Framebuffer coordinates: ((x + 1) W / 2, (y + 1) H / 2), z unchanged (depth 0..1).
    let v = TRI.map(|[x, y, z]| {
        [
            (x as f64 + 1.0) * W as f64 / 2.0,
            (y as f64 + 1.0) * H as f64 / 2.0,
            z as f64,
        ]
    });
    let p = [px as f64 + 0.5, py as f64 + 0.5];
    let mut inside = 0;
    for k in 0..3 {
        let (a, b) = (v[k], v[(k + 1) % 3]);
        let (ex, ey) = (b[0] - a[0], b[1] - a[1]);
        let d = (ex * (p[1] - a[1]) - ey * (p[0] - a[0])) / ex.hypot(ey);
        if d.abs() < 0.75 {
            return None;
        }
        inside += (d > 0.0) as i32 * 2 - 1;
    }
    if inside.abs() != 3 {
        return None;
    }
    // The plane z = z0 + A (x - x0) + B (y - y0).
    let (dx1, dy1, dz1) = (v[1][0] - v[0][0], v[1][1] - v[0][1], v[1][2] - v[0][2]);
    let (dx2, dy2, dz2) = (v[2][0] - v[0][0], v[2][1] - v[0][1], v[2][2] - v[0][2]);
    let det = dx1 * dy2 - dx2 * dy1;
    let (a, b) = ((dz1 * dy2 - dz2 * dy1) / det, (dx1 * dz2 - dx2 * dz1) / det);
    let z = v[0][2] + a * (p[0] - v[0][0]) + b * (p[1] - v[0][1]);
    let m = a.abs().max(b.abs());
    let r = if c.d16 {
        2f64.powi(-16)
    } else {
        2f64.powi(-24)
    };
    let mut o = m * c.slope as f64 + r * c.constant as f64;
    let cl = c.clamp as f64;
    if cl > 0.0 {
        o = o.min(cl);
    } else if cl < 0.0 {
        o = o.max(cl);
    }
    let z = z + o;
    Some(if c.d16 {
        (z.clamp(0.0, 1.0) * 65535.0).round() / 65535.0
    } else {
        z
    })
}

/// The triangle's m = max(|dz/dx|, |dz/dy|) (dz/dx = 0.01339..., from `rule`'s plane).
const M: f64 = 0.0134;

/// The tolerance against the rule (same m and r as the rule, so only rasterisation differs):
/// vertex snapping to 1/256 pixel moves each vertex by up to 1/512 pixel in x and y, the
/// plane's z at a pixel by up to 2 x M / 512 = 5.3e-5; plus a D16 step for D16.
fn rule_tolerance(c: &Case) -> f64 {
    2.0 * M / 512.0 + if c.d16 { 1.0 / 65535.0 } else { 0.0 }
}

/// The tolerance against lavapipe: the rule's, plus 42% of the slope term (sqrt(2) - 1: the
/// two m the spec allows differ by at most that factor) plus, for D16, 2^-16 x |constant|
/// (fixed-point r is implementation-dependent up to 2 x 2^-16: lavapipe's is 2^-15, the
/// measured 64-step difference at constant 64).
fn lavapipe_tolerance(c: &Case) -> f64 {
    let r = if c.d16 { 2f64.powi(-16) } else { 0.0 };
    rule_tolerance(c) + 0.42 * M * c.slope.abs() as f64 + r * c.constant.abs() as f64
}

#[test]
fn radv_depth_bias_matches_lavapipe_within_tolerance() {
    let mut failures = Vec::new();
    for c in CASES {
        let vars = ("WAVESIM_BIAS_CASE", "WAVESIM_BIAS_OUT");
        let radv = match vulkan_draw::child_bytes(vars, c.name, true, &[]) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{}: {e}", c.name));
                continue;
            }
        };
        let lvp =
            vulkan_draw::child_bytes(vars, c.name, false, &[]).unwrap_or_else(|e| panic!("{e}"));
        let (zr, zl) = (depths(c, &radv), depths(c, &lvp));
        let (tol, tol_lvp) = (rule_tolerance(c), lavapipe_tolerance(c));
        let (mut worst_lvp, mut worst_rule, mut both, mut checked) = (0f64, 0f64, 0, 0);
        for py in 0..H as usize {
            for px in 0..W as usize {
                let i = py * W as usize + px;
                if zr[i] != 1.0 && zl[i] != 1.0 {
                    both += 1;
                    worst_lvp = worst_lvp.max((zr[i] - zl[i]).abs());
                }
                if let Some(z) = rule(c, px, py) {
                    checked += 1;
                    worst_rule = worst_rule.max((zr[i] - z).abs());
                }
            }
        }
        eprintln!(
            "{}: {both} pixels drawn by both, largest difference from lavapipe {worst_lvp:.3e} (tolerance {tol_lvp:.3e}); {checked} pixels against the rule, largest difference {worst_rule:.3e} (tolerance {tol:.3e})",
            c.name
        );
        assert!(
            checked > 800 && both > checked,
            "{}: too few pixels",
            c.name
        );
        if worst_lvp > tol_lvp || worst_rule > tol {
            failures.push(format!("{}: beyond the tolerance", c.name));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
