//! Stencil buffers as RADV sets them up: a render pass with a colour target and a
//! D32_SFLOAT_S8_UINT attachment of optimal tiling (RADV: depth and stencil planes 64KB_Z_X
//! with HTILE holding stencil fields), cleared by the render pass, then up to two passes:
//! the three triangles of tests/graphics/depth_tris.vert (z 0.25, 0.75, 0.5; two clockwise and
//! one counter-clockwise in framebuffer coordinates, so both faces occur) with the case's
//! depth/stencil state, and a cover pass (fullscreen.vert + cover.frag, z 0, depth test off)
//! that colours only pixels passing its stencil test (stencil-then-cover). Colour, depth and
//! stencil are copied to buffers (vkCmdCopyImageToBuffer: RADV's compute copy reads both planes
//! through the texture unit and TC-compatible HTILE) and compared with lavapipe exactly (every
//! texel of all three images) and with the Vulkan rule at pixels away from triangle edges
//! (`check_rule`, an independent implementation of "Stencil Test" and "Depth Test").
//!
//! Each run is a child process (this binary again, WAVESIM_STENCIL_CASE).

use ash::vk;

#[allow(dead_code)]
mod vulkan_draw;
use vulkan_draw::{err, Gpu};
#[allow(dead_code)]
mod depth_pass;

const W: u32 = 64;
const H: u32 = 64;

/// A VkStencilOpState as a const.
const fn face(
    compare: vk::CompareOp,
    (fail, pass, depth_fail): (vk::StencilOp, vk::StencilOp, vk::StencilOp),
    (compare_mask, write_mask, reference): (u32, u32, u32),
) -> vk::StencilOpState {
    vk::StencilOpState {
        fail_op: fail,
        pass_op: pass,
        depth_fail_op: depth_fail,
        compare_op: compare,
        compare_mask,
        write_mask,
        reference,
    }
}

use vk::CompareOp as C;
use vk::StencilOp as S;

/// One pass's depth/stencil state.
#[derive(Clone, Copy, Debug)]
struct Ds {
    depth_test: bool,
    depth_write: bool,
    depth_compare: vk::CompareOp,
    stencil_test: bool,
    front: vk::StencilOpState,
    back: vk::StencilOpState,
}

/// One case: clear values, the triangles' pass (front face, colour written or not) and the
/// cover pass's stencil state (None: no cover pass).
#[derive(Clone, Copy, Debug)]
struct Case {
    name: &'static str,
    depth_clear: f32,
    stencil_clear: u32,
    front_face: vk::FrontFace,
    tris: Ds,
    tris_color: bool,
    cover: Option<vk::StencilOpState>,
    /// An S8_UINT attachment (no depth plane) instead of D32_SFLOAT_S8_UINT.
    s8: bool,
}

const KEEP3: (S, S, S) = (S::KEEP, S::KEEP, S::KEEP);
const NO_DEPTH: Ds = Ds {
    depth_test: false,
    depth_write: false,
    depth_compare: C::ALWAYS,
    stencil_test: true,
    front: face(C::ALWAYS, KEEP3, (0xff, 0xff, 0)),
    back: face(C::ALWAYS, KEEP3, (0xff, 0xff, 0)),
};

const CASES: &[Case] = &[
    // Stencil-then-cover: count the triangles over each pixel (INCREMENT_AND_WRAP, no colour),
    // then colour the pixels covered exactly twice.
    Case {
        name: "count_then_cover",
        depth_clear: 1.0,
        stencil_clear: 0,
        front_face: vk::FrontFace::COUNTER_CLOCKWISE,
        tris: Ds {
            front: face(
                C::ALWAYS,
                (S::KEEP, S::INCREMENT_AND_WRAP, S::KEEP),
                (0xff, 0xff, 0),
            ),
            back: face(
                C::ALWAYS,
                (S::KEEP, S::INCREMENT_AND_WRAP, S::KEEP),
                (0xff, 0xff, 0),
            ),
            ..NO_DEPTH
        },
        tris_color: false,
        cover: Some(face(C::EQUAL, KEEP3, (0xff, 0, 2))),
        s8: false,
    },
    // Front and back faces differ (clockwise is front: triangles 0 and 1 front, 2 back), with
    // the depth test: REPLACE / INVERT on pass, DECREMENT_AND_CLAMP / INCREMENT_AND_CLAMP on
    // depth fail, write masks; then cover where the stencil is not the clear value.
    Case {
        name: "faces_depth_fail",
        depth_clear: 1.0,
        stencil_clear: 0,
        front_face: vk::FrontFace::CLOCKWISE,
        tris: Ds {
            depth_test: true,
            depth_write: true,
            depth_compare: C::LESS,
            stencil_test: true,
            front: face(
                C::ALWAYS,
                (S::KEEP, S::REPLACE, S::DECREMENT_AND_CLAMP),
                (0xff, 0x3f, 0xb5),
            ),
            back: face(
                C::ALWAYS,
                (S::KEEP, S::INVERT, S::INCREMENT_AND_CLAMP),
                (0xff, 0xff, 0x11),
            ),
        },
        tris_color: true,
        cover: Some(face(C::NOT_EQUAL, KEEP3, (0xff, 0, 0))),
        s8: false,
    },
    // A stencil clear to 0x0c (not a fast-clear value: RADV's meta draw writes it) and compare
    // masks: front LESS with mask 0x0e and reference 0x0a ((0x0a & 0x0e) < (s & 0x0e)),
    // failing to ZERO, passing to DECREMENT_AND_WRAP; back GREATER_OR_EQUAL with reference
    // 0x0d, fail INCREMENT_AND_WRAP, pass ZERO. Cover: pixels whose stencil is 0x0b.
    Case {
        name: "masks_clear0c",
        depth_clear: 1.0,
        stencil_clear: 0x0c,
        front_face: vk::FrontFace::COUNTER_CLOCKWISE,
        tris: Ds {
            front: face(
                C::LESS,
                (S::ZERO, S::DECREMENT_AND_WRAP, S::KEEP),
                (0x0e, 0xff, 0x0a),
            ),
            back: face(
                C::GREATER_OR_EQUAL,
                (S::INCREMENT_AND_WRAP, S::ZERO, S::KEEP),
                (0xff, 0xff, 0x0d),
            ),
            ..NO_DEPTH
        },
        tris_color: true,
        cover: Some(face(C::EQUAL, KEEP3, (0xff, 0, 0x0b))),
        s8: false,
    },
    // Every remaining compare op on the triangles, with a depth clear to 0.6 (RADV's meta
    // draw for both aspects) and the depth test GREATER: EQUAL / NOT_EQUAL / LESS_OR_EQUAL /
    // GREATER / NEVER across front (clockwise) and back, decrements at 0 clamping and wrapping.
    Case {
        name: "compares_clear06",
        depth_clear: 0.6,
        stencil_clear: 0,
        front_face: vk::FrontFace::CLOCKWISE,
        tris: Ds {
            depth_test: true,
            depth_write: false,
            depth_compare: C::GREATER,
            stencil_test: true,
            front: face(
                C::LESS_OR_EQUAL,
                (S::INVERT, S::DECREMENT_AND_WRAP, S::DECREMENT_AND_CLAMP),
                (0xff, 0xff, 0),
            ),
            back: face(
                C::NOT_EQUAL,
                (S::REPLACE, S::INCREMENT_AND_CLAMP, S::ZERO),
                (0xff, 0xff, 0x40),
            ),
        },
        tris_color: true,
        cover: Some(face(C::GREATER, KEEP3, (0xff, 0, 0x80))),
        s8: false,
    },
    Case {
        name: "never_equal",
        depth_clear: 1.0,
        stencil_clear: 0,
        front_face: vk::FrontFace::CLOCKWISE,
        tris: Ds {
            front: face(C::NEVER, (S::INVERT, S::KEEP, S::KEEP), (0xff, 0xf0, 0)),
            back: face(C::EQUAL, (S::ZERO, S::REPLACE, S::KEEP), (0xff, 0xff, 0x99)),
            ..NO_DEPTH
        },
        tris_color: true,
        cover: None,
        s8: false,
    },
    // The same two with an S8_UINT attachment: a stencil plane without depth.
    Case {
        name: "s8_count_then_cover",
        depth_clear: 1.0,
        stencil_clear: 0,
        front_face: vk::FrontFace::COUNTER_CLOCKWISE,
        tris: Ds {
            front: face(
                C::ALWAYS,
                (S::KEEP, S::INCREMENT_AND_WRAP, S::KEEP),
                (0xff, 0xff, 0),
            ),
            back: face(
                C::ALWAYS,
                (S::KEEP, S::INCREMENT_AND_WRAP, S::KEEP),
                (0xff, 0xff, 0),
            ),
            ..NO_DEPTH
        },
        tris_color: false,
        cover: Some(face(C::EQUAL, KEEP3, (0xff, 0, 2))),
        s8: true,
    },
    Case {
        name: "s8_masks_clear0c",
        depth_clear: 1.0,
        stencil_clear: 0x0c,
        front_face: vk::FrontFace::COUNTER_CLOCKWISE,
        tris: Ds {
            front: face(
                C::LESS,
                (S::ZERO, S::DECREMENT_AND_WRAP, S::KEEP),
                (0x0e, 0xff, 0x0a),
            ),
            back: face(
                C::GREATER_OR_EQUAL,
                (S::INCREMENT_AND_WRAP, S::ZERO, S::KEEP),
                (0xff, 0xff, 0x0d),
            ),
            ..NO_DEPTH
        },
        tris_color: true,
        cover: Some(face(C::EQUAL, KEEP3, (0xff, 0, 0x0b))),
        s8: true,
    },
];

/// A pipeline of `shaders` over the whole target with `ds`, writing colour or not.
///
/// # Safety
/// Vulkan calls on a valid device.
unsafe fn pipeline(
    gpu: &Gpu,
    shaders: (&[u32], &[u32]),
    (ds, color, front_face): (&Ds, bool, vk::FrontFace),
    layout: vk::PipelineLayout,
    rp: vk::RenderPass,
) -> Result<vk::Pipeline, String> {
    let dsi = vk::PipelineDepthStencilStateCreateInfo::default()
        .depth_test_enable(ds.depth_test)
        .depth_write_enable(ds.depth_write)
        .depth_compare_op(ds.depth_compare)
        .stencil_test_enable(ds.stencil_test)
        .front(ds.front)
        .back(ds.back);
    let rs = vk::PipelineRasterizationStateCreateInfo::default()
        .polygon_mode(vk::PolygonMode::FILL)
        .cull_mode(vk::CullModeFlags::NONE)
        .front_face(front_face)
        .line_width(1.0);
    depth_pass::pipeline(gpu, shaders, (&rs, color), &dsi, layout, rp)
}

/// Renders `c`; returns the colour image (64x64 RGBA8), the depth image (f32) and the
/// stencil image (u8), rows packed.
fn render(c: &Case) -> Result<Vec<u8>, String> {
    let tris = (
        vulkan_draw::spv("depth_tris.vert.spv")?,
        vulkan_draw::spv("tri.frag.spv")?,
    );
    let cover = (
        vulkan_draw::spv("fullscreen.vert.spv")?,
        vulkan_draw::spv("cover.frag.spv")?,
    );
    // SAFETY: every Vulkan call follows the specification's valid usage: objects are created
    // before use; the process exits after reading the result (the driver frees the rest).
    unsafe {
        let gpu = Gpu::graphics()?;
        let (format, aspects, copies): (_, _, &[_]) = if c.s8 {
            (
                vk::Format::S8_UINT,
                vk::ImageAspectFlags::STENCIL,
                &[(vk::ImageAspectFlags::STENCIL, 1)],
            )
        } else {
            (
                vk::Format::D32_SFLOAT_S8_UINT,
                vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL,
                &[
                    (vk::ImageAspectFlags::DEPTH, 4),
                    (vk::ImageAspectFlags::STENCIL, 1),
                ],
            )
        };
        let p = depth_pass::begin(
            &gpu,
            format,
            aspects,
            vk::ClearDepthStencilValue {
                depth: c.depth_clear,
                stencil: c.stencil_clear,
            },
        )?;
        let d = &gpu.device;
        let layout = d
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default(), None)
            .map_err(err("vkCreatePipelineLayout"))?;
        let p_tris = pipeline(
            &gpu,
            (&tris.0, &tris.1),
            (&c.tris, c.tris_color, c.front_face),
            layout,
            p.rp,
        )?;
        d.cmd_bind_pipeline(p.cmd, vk::PipelineBindPoint::GRAPHICS, p_tris);
        d.cmd_draw(p.cmd, 9, 1, 0, 0);
        if let Some(s) = c.cover {
            let ds = Ds {
                depth_test: false,
                depth_write: false,
                depth_compare: C::ALWAYS,
                stencil_test: true,
                front: s,
                back: s,
            };
            let p_cover = pipeline(
                &gpu,
                (&cover.0, &cover.1),
                (&ds, true, c.front_face),
                layout,
                p.rp,
            )?;
            d.cmd_bind_pipeline(p.cmd, vk::PipelineBindPoint::GRAPHICS, p_cover);
            d.cmd_draw(p.cmd, 3, 1, 0, 0);
        }
        depth_pass::finish(&gpu, &p, copies)
    }
}

/// The child process's entry: renders WAVESIM_STENCIL_CASE into WAVESIM_STENCIL_OUT.
#[test]
fn child_entry() {
    depth_pass::child_entry(
        ("WAVESIM_STENCIL_CASE", "WAVESIM_STENCIL_OUT"),
        CASES,
        |c| c.name,
        render,
    );
}

fn run_child(name: &str, radv: bool) -> Result<Vec<u8>, String> {
    vulkan_draw::child_bytes(
        ("WAVESIM_STENCIL_CASE", "WAVESIM_STENCIL_OUT"),
        name,
        radv,
        &[],
    )
}

const TEXELS: usize = (W * H) as usize;

/// The depth and stencil images of a result.
fn planes<'a>(c: &Case, bytes: &'a [u8]) -> (Option<Vec<f32>>, &'a [u8]) {
    if c.s8 {
        return (None, &bytes[4 * TEXELS..5 * TEXELS]);
    }
    let z = bytes[4 * TEXELS..8 * TEXELS]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect();
    (Some(z), &bytes[8 * TEXELS..9 * TEXELS])
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

/// `a op b` for a VkCompareOp (for stencil: the masked reference first).
fn passes<T: PartialOrd>(op: vk::CompareOp, a: T, b: T) -> bool {
    match op {
        C::NEVER => false,
        C::LESS => a < b,
        C::EQUAL => a == b,
        C::LESS_OR_EQUAL => a <= b,
        C::GREATER => a > b,
        C::NOT_EQUAL => a != b,
        C::GREATER_OR_EQUAL => a >= b,
        _ => true,
    }
}

/// VkStencilOp applied to `s` (Vulkan 1.3 "Stencil Test", table "Stencil operations").
fn stencil_op(op: vk::StencilOp, s: u8, reference: u8) -> u8 {
    match op {
        S::KEEP => s,
        S::ZERO => 0,
        S::REPLACE => reference,
        S::INCREMENT_AND_CLAMP => s.saturating_add(1),
        S::DECREMENT_AND_CLAMP => s.saturating_sub(1),
        S::INVERT => !s,
        S::INCREMENT_AND_WRAP => s.wrapping_add(1),
        _ => s.wrapping_sub(1),
    }
}

/// One fragment through "Stencil Test" then "Depth Test" (Vulkan 1.3, 28.x): the stencil test
/// compares (reference & compareMask) op (stored & compareMask); a failing fragment applies
/// failOp; a passing one runs the depth test (incoming op stored) and applies passOp or
/// depthFailOp; the new value is written through writeMask. Whether colour is written.
fn fragment(ds: &Ds, f: &vk::StencilOpState, z: f32, (zb, sb): (&mut f32, &mut u8)) -> bool {
    let m = f.compare_mask as u8;
    let r = f.reference as u8;
    let s_pass = !ds.stencil_test || passes(f.compare_op, r & m, *sb & m);
    let z_pass = s_pass && (!ds.depth_test || passes(ds.depth_compare, z, *zb));
    if ds.stencil_test {
        let op = if !s_pass {
            f.fail_op
        } else if !z_pass {
            f.depth_fail_op
        } else {
            f.pass_op
        };
        let wm = f.write_mask as u8;
        *sb = (*sb & !wm) | (stencil_op(op, *sb, r) & wm);
    }
    if z_pass && ds.depth_test && ds.depth_write {
        *zb = z;
    }
    z_pass
}

/// The Vulkan rule at the pixels at least 0.75 pixel from every triangle edge: returns the
/// number of pixels checked; panics on a difference. Facing: Vulkan's a = -1/2 sum(x_i
/// y_(i+1) - x_(i+1) y_i) in framebuffer coordinates, a > 0 counter-clockwise ("Basic Polygon
/// Rasterization").
fn check_rule(c: &Case, got: &[u8]) -> usize {
    let (depth, sten) = planes(c, got);
    let mut checked = 0;
    for py in 0..H as usize {
        'pixel: for px in 0..W as usize {
            let p = [px as f32 + 0.5, py as f32 + 0.5];
            let (mut z, mut s, mut rgba) = (c.depth_clear, c.stencil_clear as u8, [0u8, 0, 0, 255]);
            for (v, tz, col) in TRIANGLES {
                let fb = v.map(|[x, y]| [(x + 1.0) * W as f32 / 2.0, (y + 1.0) * H as f32 / 2.0]);
                let mut inside = 0;
                let mut a = 0.0;
                for k in 0..3 {
                    let (u, w) = (fb[k], fb[(k + 1) % 3]);
                    a -= 0.5 * (u[0] * w[1] - w[0] * u[1]);
                    let (ex, ey) = (w[0] - u[0], w[1] - u[1]);
                    let d = (ex * (p[1] - u[1]) - ey * (p[0] - u[0])) / ex.hypot(ey);
                    if d.abs() < 0.75 {
                        continue 'pixel;
                    }
                    inside += (d > 0.0) as i32 * 2 - 1;
                }
                if inside.abs() != 3 {
                    continue;
                }
                let ccw = a > 0.0;
                let front = ccw == (c.front_face == vk::FrontFace::COUNTER_CLOCKWISE);
                let f = if front { &c.tris.front } else { &c.tris.back };
                if fragment(&c.tris, f, tz, (&mut z, &mut s)) && c.tris_color {
                    rgba = col;
                }
            }
            if let Some(cf) = c.cover {
                // The cover triangle's edge x + y = 2 W passes within 0.75 of pixel (63, 63).
                if px + py == 2 * W as usize - 2 {
                    continue 'pixel;
                }
                let ds = Ds {
                    depth_test: false,
                    depth_write: false,
                    depth_compare: C::ALWAYS,
                    stencil_test: true,
                    front: cf,
                    back: cf,
                };
                if fragment(&ds, &cf, 0.0, (&mut z, &mut s)) {
                    rgba = [255, 255, 0, 255];
                }
            }
            let i = py * W as usize + px;
            if let Some(d) = &depth {
                assert_eq!(d[i], z, "{}: depth at ({px}, {py})", c.name);
            }
            assert_eq!(sten[i], s, "{}: stencil at ({px}, {py})", c.name);
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
fn radv_stencil_matches_lavapipe() {
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
        let lvp = run_child(c.name, false).unwrap_or_else(|e| panic!("{e}"));
        check_rule(c, &lvp);
        let ((zr, sr), (zl, sl)) = (planes(c, &radv), planes(c, &lvp));
        let (zr, zl) = (zr.unwrap_or_default(), zl.unwrap_or_default());
        let diff_depth = zr.iter().zip(&zl).filter(|(a, b)| a != b).count();
        let diff_stencil = sr.iter().zip(sl).filter(|(a, b)| a != b).count();
        let diff_color = radv[..4 * TEXELS]
            .chunks(4)
            .zip(lvp[..4 * TEXELS].chunks(4))
            .filter(|(a, b)| a != b)
            .count();
        eprintln!(
            "{}: {checked} pixels follow the Vulkan rule; {diff_depth} depth, {diff_stencil} stencil and {diff_color} colour texels differ from lavapipe",
            c.name
        );
        if diff_depth + diff_stencil + diff_color != 0 {
            failures.push(format!(
                "{}: {diff_depth} depth, {diff_stencil} stencil and {diff_color} colour texels differ from lavapipe",
                c.name
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
