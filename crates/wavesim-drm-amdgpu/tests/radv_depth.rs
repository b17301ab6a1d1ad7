//! Depth buffers as RADV sets them up: a render pass with a colour target and a D32_SFLOAT
//! depth attachment (optimal tiling: RADV lays it out 64KB_Z_X with HTILE, as
//! `radv_use_htile_for_image` gives every depth image of 8x8 texels or more), cleared by the
//! render pass (RADV's fast clear writes HTILE alone for 0.0 and 1.0, its meta draw otherwise),
//! three triangles at constant depths drawn with a depth test, and both images copied to
//! buffers (vkCmdCopyImageToBuffer: RADV's compute meta copy reads the depth through the
//! texture unit with TC-compatible HTILE).
//!
//! The triangles (tests/graphics/depth_tris.vert) sit at z = 0.25 (red), 0.75 (green) and 0.5
//! (blue), drawn in that order, with viewport depth 0..1: a fragment's depth is exactly its
//! triangle's z, so the depth image holds exactly the clear value or one of the three depths
//! and is compared exactly, with lavapipe's rendering and with the Vulkan rule at chosen
//! pixels (`rule_pixels`).
//!
//! Each run is a child process (this binary again, WAVESIM_DEPTH_CASE).

use ash::vk;

#[allow(dead_code)]
mod vulkan_draw;
use vulkan_draw::{err, Gpu};
#[allow(dead_code)]
mod depth_pass;

const W: u32 = 64;
const H: u32 = 64;

/// One case: the depth clear value, compare op and depth writes.
#[derive(Clone, Copy, Debug)]
struct Case {
    name: &'static str,
    clear: f32,
    compare: vk::CompareOp,
    write: bool,
    /// D16_UNORM instead of D32_SFLOAT.
    d16: bool,
    /// The depth bounds test's (min, max).
    bounds: Option<(f32, f32)>,
    /// The pixel shader exports gl_FragDepth (fragdepth.frag) instead of keeping the
    /// triangle's depth.
    export: bool,
}

const CASES: &[Case] = &[
    // Fast clears (RADV clears TC-compatible HTILE only to 0.0 or 1.0).
    Case {
        name: "less_clear1",
        clear: 1.0,
        compare: vk::CompareOp::LESS,
        write: true,
        d16: false,
        bounds: None,
        export: false,
    },
    Case {
        name: "greater_clear0",
        clear: 0.0,
        compare: vk::CompareOp::GREATER,
        write: true,
        d16: false,
        bounds: None,
        export: false,
    },
    Case {
        name: "lequal_clear1_nowrite",
        clear: 1.0,
        compare: vk::CompareOp::LESS_OR_EQUAL,
        write: false,
        d16: false,
        bounds: None,
        export: false,
    },
    // 0.6: not a fast-clear value; RADV clears with its meta draw (depth written by the DB).
    Case {
        name: "greater_clear06",
        clear: 0.6,
        compare: vk::CompareOp::GREATER_OR_EQUAL,
        write: true,
        d16: false,
        bounds: None,
        export: false,
    },
    Case {
        name: "always_clear06",
        clear: 0.6,
        compare: vk::CompareOp::ALWAYS,
        write: true,
        d16: false,
        bounds: None,
        export: false,
    },
    Case {
        name: "notequal_clear1",
        clear: 1.0,
        compare: vk::CompareOp::NOT_EQUAL,
        write: true,
        d16: false,
        bounds: None,
        export: false,
    },
    // D16_UNORM: the depths convert to 16384, 49151 and 32768 (0.5 x 65535 = 32767.5, a tie,
    // rounded to even), the clears to 65535, 0 and 39321 (0.6 x 65535 = 39321 exactly).
    Case {
        name: "d16_less_clear1",
        clear: 1.0,
        compare: vk::CompareOp::LESS,
        write: true,
        d16: true,
        bounds: None,
        export: false,
    },
    Case {
        name: "d16_greater_clear0",
        clear: 0.0,
        compare: vk::CompareOp::GREATER,
        write: true,
        d16: true,
        bounds: None,
        export: false,
    },
    Case {
        name: "d16_lequal_clear06",
        clear: 0.6,
        compare: vk::CompareOp::LESS_OR_EQUAL,
        write: true,
        d16: true,
        bounds: None,
        export: false,
    },
    // The depth bounds test reads the stored depth: after a clear to 0.6 with ALWAYS, the
    // triangles at 0.75 and 0.5 draw only where the stored depth is in [0.5, 0.7] (the clear,
    // not over the 0.25 triangle); after a clear to 1.0 with bounds [0.7, 1.0], the 0.5
    // triangle draws over the clear and the 0.75 triangle but not over the 0.25 one.
    Case {
        name: "bounds_always_clear06",
        clear: 0.6,
        compare: vk::CompareOp::ALWAYS,
        write: true,
        d16: false,
        bounds: Some((0.5, 0.7)),
        export: false,
    },
    Case {
        name: "bounds_always_clear1",
        clear: 1.0,
        compare: vk::CompareOp::ALWAYS,
        write: true,
        d16: false,
        bounds: Some((0.7, 1.0)),
        export: false,
    },
    // gl_FragDepth = (6 x + 3 - 64) / 256 at column x, -0.24 to 1.24: the DB clamps it to the
    // viewport's [0, 1] (RADV: PA_SC_VPORT_ZMIN/ZMAX_0 0 and 1 without depth clamp), and D16
    // converts the clamped value.
    Case {
        name: "export_always",
        clear: 0.5,
        compare: vk::CompareOp::ALWAYS,
        write: true,
        d16: false,
        bounds: None,
        export: true,
    },
    Case {
        name: "export_d16_less",
        clear: 0.6,
        compare: vk::CompareOp::LESS,
        write: true,
        d16: true,
        bounds: None,
        export: true,
    },
];

/// Renders `c`; returns the colour image (64x64 RGBA8) followed by the depth image (64x64
/// f32), rows packed.
fn render(c: &Case) -> Result<Vec<u8>, String> {
    let vert = vulkan_draw::spv("depth_tris.vert.spv")?;
    let frag = vulkan_draw::spv(if c.export {
        "fragdepth.frag.spv"
    } else {
        "tri.frag.spv"
    })?;
    // SAFETY: every Vulkan call follows the specification's valid usage: objects are created
    // before use; the process exits after reading the result (the driver frees the rest).
    unsafe {
        let gpu = Gpu::graphics_with(
            &vk::PhysicalDeviceFeatures::default().depth_bounds(c.bounds.is_some()),
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
                depth: c.clear,
                stencil: 0,
            },
        )?;
        let layout = gpu
            .device
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default(), None)
            .map_err(err("vkCreatePipelineLayout"))?;
        let ms = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let (lo, hi) = c.bounds.unwrap_or((0.0, 1.0));
        let ds = vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(true)
            .depth_write_enable(c.write)
            .depth_compare_op(c.compare)
            .depth_bounds_test_enable(c.bounds.is_some())
            .min_depth_bounds(lo)
            .max_depth_bounds(hi);
        let pipeline =
            gpu.full_target_pipeline_with((&vert, &frag), (&ms, Some(&ds)), layout, p.rp)?;
        gpu.device
            .cmd_bind_pipeline(p.cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
        gpu.device.cmd_draw(p.cmd, 9, 1, 0, 0);
        depth_pass::finish(&gpu, &p, &[(vk::ImageAspectFlags::DEPTH, bpp)])
    }
}

/// The child process's entry: renders WAVESIM_DEPTH_CASE into WAVESIM_DEPTH_OUT.
#[test]
fn child_entry() {
    depth_pass::child_entry(
        ("WAVESIM_DEPTH_CASE", "WAVESIM_DEPTH_OUT"),
        CASES,
        |c| c.name,
        render,
    );
}

fn run_child(name: &str, radv: bool) -> Result<Vec<u8>, String> {
    vulkan_draw::child_bytes(("WAVESIM_DEPTH_CASE", "WAVESIM_DEPTH_OUT"), name, radv, &[])
}

/// The depth image's texels of a result (D16_UNORM's values k as k / 65535).
fn depths(c: &Case, bytes: &[u8]) -> Vec<f32> {
    depth_pass::depth_texels(c.d16, bytes)
}

/// A depth as the attachment stores it: D16_UNORM converts to round(z x 65535) (Vulkan 1.3
/// "Fixed-Point Data Conversions": the nearest of the two neighbours; the one tie here, 0.5,
/// rounds to even), read back as k / 65535.
fn stored(c: &Case, z: f32) -> f32 {
    if c.d16 {
        (z.clamp(0.0, 1.0) * 65535.0).round_ties_even() / 65535.0
    } else {
        z
    }
}

/// depth_tris.vert's triangles (NDC x, y) with their depth and RGBA8 colour.
const TRIANGLES: [([[f32; 2]; 3], f32, [u8; 4]); 3] = [
    (
        [[-0.9, -0.9], [0.5, -0.9], [-0.9, 0.5]],
        0.25,
        [255, 0, 0, 255],
    ),
    (
        [[-0.5, -0.6], [0.9, -0.2], [0.2, 0.9]],
        0.75,
        [0, 255, 0, 255],
    ),
    (
        [[-0.7, 0.1], [0.8, 0.8], [0.3, -0.8]],
        0.5,
        [0, 0, 255, 255],
    ),
];

/// `a op b` for a VkCompareOp (the incoming depth first).
fn passes(op: vk::CompareOp, a: f32, b: f32) -> bool {
    match op {
        vk::CompareOp::NEVER => false,
        vk::CompareOp::LESS => a < b,
        vk::CompareOp::EQUAL => a == b,
        vk::CompareOp::LESS_OR_EQUAL => a <= b,
        vk::CompareOp::GREATER => a > b,
        vk::CompareOp::NOT_EQUAL => a != b,
        vk::CompareOp::GREATER_OR_EQUAL => a >= b,
        _ => true,
    }
}

/// The Vulkan rule at the pixels at least 0.75 pixel from every triangle edge (where coverage
/// does not hang on rasterisation details): the depth attachment starts at the clear value and
/// the colour at the clear colour; each covering triangle in draw order passes the depth bounds
/// test (the stored depth in [min, max]) and the depth test
/// when `z op stored` (its z: viewport depth 0..1 maps z_ndc to itself), then writes its colour
/// and, with depth writes, its z. Returns the number of pixels checked; panics on a difference.
fn check_rule(c: &Case, got: &[u8]) -> usize {
    let depth = depths(c, got);
    let mut checked = 0;
    for py in 0..H as usize {
        'pixel: for px in 0..W as usize {
            // Framebuffer position of NDC (x, y): ((x + 1) * W / 2, (y + 1) * H / 2).
            let p = [px as f32 + 0.5, py as f32 + 0.5];
            let (mut z, mut rgba) = (stored(c, c.clear), [0u8, 0, 0, 255]);
            for (v, tz, col) in TRIANGLES {
                let fb = v.map(|[x, y]| [(x + 1.0) * W as f32 / 2.0, (y + 1.0) * H as f32 / 2.0]);
                let mut inside = 0;
                for k in 0..3 {
                    let (a, b) = (fb[k], fb[(k + 1) % 3]);
                    let (ex, ey) = (b[0] - a[0], b[1] - a[1]);
                    let d = (ex * (p[1] - a[1]) - ey * (p[0] - a[0])) / ex.hypot(ey);
                    if d.abs() < 0.75 {
                        continue 'pixel;
                    }
                    inside += (d > 0.0) as i32 * 2 - 1;
                }
                // fragdepth.frag's export, clamped to [0, 1] (the viewport's depth range).
                let tz = if c.export {
                    ((6 * px + 3) as f32 / 256.0 - 0.25).clamp(0.0, 1.0)
                } else {
                    tz
                };
                let tz = stored(c, tz);
                // "Depth Bounds Test": the stored depth, bounds inclusive.
                let in_bounds = c.bounds.is_none_or(|(lo, hi)| lo <= z && z <= hi);
                if inside.abs() == 3 && in_bounds && passes(c.compare, tz, z) {
                    rgba = col;
                    if c.write {
                        z = tz;
                    }
                }
            }
            let i = py * W as usize + px;
            assert_eq!(depth[i], z, "{}: depth at ({px}, {py})", c.name);
            assert_eq!(
                got[4 * i..4 * i + 4],
                rgba,
                "{}: colour at ({px}, {py})",
                c.name
            );
            checked += 1;
        }
    }
    checked
}

#[test]
fn radv_depth_matches_lavapipe() {
    let mut failures = Vec::new();
    for c in CASES {
        let radv = match run_child(c.name, true) {
            Ok(b) => b,
            Err(e) => {
                failures.push(format!("{}: {e}", c.name));
                continue;
            }
        };
        let checked = check_rule(c, &radv);
        assert!(checked > 2500, "{}: only {checked} pixels checked", c.name);
        if c.bounds.is_some() {
            // Lavapipe of Mesa 22.3 has no depthBounds feature: the rule alone decides.
            eprintln!(
                "{}: {checked} pixels follow the Vulkan rule (no lavapipe reference)",
                c.name
            );
            continue;
        }
        let lvp = run_child(c.name, false).unwrap_or_else(|e| panic!("{e}"));
        let (dr, dl) = (depths(c, &radv), depths(c, &lvp));
        let diff_depth = dr.iter().zip(&dl).filter(|(a, b)| a != b).count();
        let diff_color = radv[..4 * (W * H) as usize]
            .chunks(4)
            .zip(lvp[..4 * (W * H) as usize].chunks(4))
            .filter(|(a, b)| a != b)
            .count();
        eprintln!(
            "{}: {checked} pixels follow the Vulkan rule; {diff_depth} depth and {diff_color} colour texels differ from lavapipe",
            c.name
        );
        if diff_depth + diff_color != 0 {
            failures.push(format!(
                "{}: {diff_depth} depth and {diff_color} colour texels differ from lavapipe",
                c.name
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
