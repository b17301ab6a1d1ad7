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
use vulkan_draw::{err, Gpu, FULL_TARGET};

const W: u32 = 64;
const H: u32 = 64;

/// One case: the depth clear value, compare op and depth writes.
#[derive(Clone, Copy, Debug)]
struct Case {
    name: &'static str,
    clear: f32,
    compare: vk::CompareOp,
    write: bool,
}

const CASES: &[Case] = &[
    // Fast clears (RADV clears TC-compatible HTILE only to 0.0 or 1.0).
    Case {
        name: "less_clear1",
        clear: 1.0,
        compare: vk::CompareOp::LESS,
        write: true,
    },
    Case {
        name: "greater_clear0",
        clear: 0.0,
        compare: vk::CompareOp::GREATER,
        write: true,
    },
    Case {
        name: "lequal_clear1_nowrite",
        clear: 1.0,
        compare: vk::CompareOp::LESS_OR_EQUAL,
        write: false,
    },
    // 0.6: not a fast-clear value; RADV clears with its meta draw (depth written by the DB).
    Case {
        name: "greater_clear06",
        clear: 0.6,
        compare: vk::CompareOp::GREATER_OR_EQUAL,
        write: true,
    },
    Case {
        name: "always_clear06",
        clear: 0.6,
        compare: vk::CompareOp::ALWAYS,
        write: true,
    },
    Case {
        name: "notequal_clear1",
        clear: 1.0,
        compare: vk::CompareOp::NOT_EQUAL,
        write: true,
    },
];

/// Renders `c`; returns the colour image (64x64 RGBA8) followed by the depth image (64x64
/// f32), rows packed.
fn render(c: &Case) -> Result<Vec<u8>, String> {
    let vert = vulkan_draw::spv("depth_tris.vert.spv")?;
    let frag = vulkan_draw::spv("tri.frag.spv")?;
    // SAFETY: every Vulkan call follows the specification's valid usage: objects are created
    // before use; the process exits after reading the result (the driver frees the rest).
    unsafe {
        let gpu = Gpu::graphics()?;
        let d = &gpu.device;
        let cformat = vk::Format::R8G8B8A8_UNORM;
        let dformat = vk::Format::D32_SFLOAT;
        let none = vk::MemoryPropertyFlags::empty();
        let (color, _) = gpu.color_image(
            cformat,
            vk::ImageTiling::OPTIMAL,
            vk::ImageLayout::UNDEFINED,
            vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
            none,
        )?;
        let (depth, _) = gpu.color_image(
            dformat,
            vk::ImageTiling::OPTIMAL,
            vk::ImageLayout::UNDEFINED,
            vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
            none,
        )?;
        let view = |image, format, aspect_mask| {
            d.create_image_view(
                &vk::ImageViewCreateInfo::default()
                    .image(image)
                    .view_type(vk::ImageViewType::TYPE_2D)
                    .format(format)
                    .subresource_range(vk::ImageSubresourceRange {
                        aspect_mask,
                        level_count: 1,
                        layer_count: 1,
                        ..Default::default()
                    }),
                None,
            )
            .map_err(err("vkCreateImageView"))
        };
        let views = [
            view(color, cformat, vk::ImageAspectFlags::COLOR)?,
            view(depth, dformat, vk::ImageAspectFlags::DEPTH)?,
        ];
        let src = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;
        let att = [
            vk::AttachmentDescription::default()
                .format(cformat)
                .samples(vk::SampleCountFlags::TYPE_1)
                .load_op(vk::AttachmentLoadOp::CLEAR)
                .store_op(vk::AttachmentStoreOp::STORE)
                .initial_layout(vk::ImageLayout::UNDEFINED)
                .final_layout(src),
            vk::AttachmentDescription::default()
                .format(dformat)
                .samples(vk::SampleCountFlags::TYPE_1)
                .load_op(vk::AttachmentLoadOp::CLEAR)
                .store_op(vk::AttachmentStoreOp::STORE)
                .stencil_load_op(vk::AttachmentLoadOp::DONT_CARE)
                .stencil_store_op(vk::AttachmentStoreOp::DONT_CARE)
                .initial_layout(vk::ImageLayout::UNDEFINED)
                .final_layout(src),
        ];
        let cref = [vk::AttachmentReference::default()
            .attachment(0)
            .layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)];
        let dref = vk::AttachmentReference::default()
            .attachment(1)
            .layout(vk::ImageLayout::DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
        let sub = [vk::SubpassDescription::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .color_attachments(&cref)
            .depth_stencil_attachment(&dref)];
        // The attachments' writes before the copies' reads (the render pass's end).
        let dep = [vk::SubpassDependency::default()
            .src_subpass(0)
            .dst_subpass(vk::SUBPASS_EXTERNAL)
            .src_stage_mask(
                vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT
                    | vk::PipelineStageFlags::LATE_FRAGMENT_TESTS,
            )
            .dst_stage_mask(vk::PipelineStageFlags::TRANSFER)
            .src_access_mask(
                vk::AccessFlags::COLOR_ATTACHMENT_WRITE
                    | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE,
            )
            .dst_access_mask(vk::AccessFlags::TRANSFER_READ)];
        let rp = d
            .create_render_pass(
                &vk::RenderPassCreateInfo::default()
                    .attachments(&att)
                    .subpasses(&sub)
                    .dependencies(&dep),
                None,
            )
            .map_err(err("vkCreateRenderPass"))?;
        let fb = d
            .create_framebuffer(
                &vk::FramebufferCreateInfo::default()
                    .render_pass(rp)
                    .attachments(&views)
                    .width(W)
                    .height(H)
                    .layers(1),
                None,
            )
            .map_err(err("vkCreateFramebuffer"))?;
        let layout = d
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default(), None)
            .map_err(err("vkCreatePipelineLayout"))?;
        let ms = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let ds = vk::PipelineDepthStencilStateCreateInfo::default()
            .depth_test_enable(true)
            .depth_write_enable(c.write)
            .depth_compare_op(c.compare);
        let pipeline =
            gpu.full_target_pipeline_with((&vert, &frag), (&ms, Some(&ds)), layout, rp)?;

        let texels = (W * H) as usize;
        let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let readback = |bytes: usize| -> Result<(vk::Buffer, vk::DeviceMemory), String> {
            let b = d
                .create_buffer(
                    &vk::BufferCreateInfo::default()
                        .size(bytes as u64)
                        .usage(vk::BufferUsageFlags::TRANSFER_DST),
                    None,
                )
                .map_err(err("vkCreateBuffer"))?;
            let m = gpu.allocate(d.get_buffer_memory_requirements(b), host)?;
            d.bind_buffer_memory(b, m, 0)
                .map_err(err("vkBindBufferMemory"))?;
            Ok((b, m))
        };
        let (cbuf, cmem) = readback(4 * texels)?;
        let (dbuf, dmem) = readback(4 * texels)?;

        let (_pool, cmd) = vulkan_draw::command_buffer(d, gpu.family)?;
        d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
            .map_err(err("vkBeginCommandBuffer"))?;
        let clears = [
            vk::ClearValue {
                color: vk::ClearColorValue {
                    float32: [0.0, 0.0, 0.0, 1.0],
                },
            },
            vk::ClearValue {
                depth_stencil: vk::ClearDepthStencilValue {
                    depth: c.clear,
                    stencil: 0,
                },
            },
        ];
        d.cmd_begin_render_pass(
            cmd,
            &vk::RenderPassBeginInfo::default()
                .render_pass(rp)
                .framebuffer(fb)
                .render_area(FULL_TARGET)
                .clear_values(&clears),
            vk::SubpassContents::INLINE,
        );
        d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
        d.cmd_draw(cmd, 9, 1, 0, 0);
        d.cmd_end_render_pass(cmd);
        let region = |aspect_mask| {
            [vk::BufferImageCopy::default()
                .image_subresource(vk::ImageSubresourceLayers {
                    aspect_mask,
                    layer_count: 1,
                    ..Default::default()
                })
                .image_extent(vk::Extent3D {
                    width: W,
                    height: H,
                    depth: 1,
                })]
        };
        d.cmd_copy_image_to_buffer(cmd, color, src, cbuf, &region(vk::ImageAspectFlags::COLOR));
        d.cmd_copy_image_to_buffer(cmd, depth, src, dbuf, &region(vk::ImageAspectFlags::DEPTH));
        gpu.finish_and_wait(
            cmd,
            vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::TRANSFER_WRITE,
        )?;
        let mut out = Vec::with_capacity(8 * texels);
        for m in [cmem, dmem] {
            let p = d
                .map_memory(m, 0, 4 * texels as u64, vk::MemoryMapFlags::empty())
                .map_err(err("vkMapMemory"))? as *const u8;
            out.extend_from_slice(std::slice::from_raw_parts(p, 4 * texels));
        }
        Ok(out)
    }
}

/// The child process's entry: renders WAVESIM_DEPTH_CASE into WAVESIM_DEPTH_OUT.
#[test]
fn child_entry() {
    let (Ok(name), Ok(out)) = (
        std::env::var("WAVESIM_DEPTH_CASE"),
        std::env::var("WAVESIM_DEPTH_OUT"),
    ) else {
        return;
    };
    let c = CASES
        .iter()
        .find(|c| c.name == name)
        .unwrap_or_else(|| panic!("no case {name}"));
    let bytes = render(c).unwrap_or_else(|e| panic!("{name}: {e}"));
    std::fs::write(out, bytes).expect("writing the result");
}

fn run_child(name: &str, radv: bool) -> Result<Vec<u8>, String> {
    vulkan_draw::child_bytes(("WAVESIM_DEPTH_CASE", "WAVESIM_DEPTH_OUT"), name, radv, &[])
}

/// The depth image's texels of a result.
fn depths(bytes: &[u8]) -> Vec<f32> {
    bytes[4 * (W * H) as usize..]
        .chunks_exact(4)
        .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
        .collect()
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
/// the colour at the clear colour; each covering triangle in draw order passes the depth test
/// when `z op stored` (its z: viewport depth 0..1 maps z_ndc to itself), then writes its colour
/// and, with depth writes, its z. Returns the number of pixels checked; panics on a difference.
fn check_rule(c: &Case, got: &[u8]) -> usize {
    let depth = depths(got);
    let mut checked = 0;
    for py in 0..H as usize {
        'pixel: for px in 0..W as usize {
            // Framebuffer position of NDC (x, y): ((x + 1) * W / 2, (y + 1) * H / 2).
            let p = [px as f32 + 0.5, py as f32 + 0.5];
            let (mut z, mut rgba) = (c.clear, [0u8, 0, 0, 255]);
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
                if inside.abs() == 3 && passes(c.compare, tz, z) {
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
        let lvp = run_child(c.name, false).unwrap_or_else(|e| panic!("{e}"));
        let (dr, dl) = (depths(&radv), depths(&lvp));
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
