//! Whole draws executed from the graphics ring: RADV compiles and programs a pipeline, the shim
//! runs its NGG vertex shader, the rasteriser and its pixel shader on wavesim
//! (`gfx_draw.rs`), and the image is compared with lavapipe's rendering of the same pipeline
//! (committed goldens in tests/graphics/goldens/, written by tools/radv/goldens.sh).
//!
//! The target is a 64x64 image (R8G8B8A8_UNORM, or R16G16B16A16_SFLOAT / R32G32B32A32_SFLOAT
//! for a few cases) with linear tiling in host-visible memory, filled with a background by the
//! host and loaded by the render pass (no clear: a clear is a draw of RADV's own meta
//! pipeline), read back through the mapping.
//!
//! Comparison (`compare`): a pixel whose coverage differs (background in one image, drawn in
//! the other) is allowed only on a primitive's edge, i.e. when the golden's 3x3 neighbourhood
//! holds both background and drawn pixels; a covered pixel's channels may differ by at most
//! the case's tolerance: 0 for the integer hash shader in RGBA8; 1 UNORM8 step for
//! interpolated colours (lavapipe's f32 interpolation and RADV's f16 exports round apart);
//! 2^-11 for float targets (lavapipe interpolates from unsnapped vertex positions, the
//! rasteriser from positions snapped to 1/256 pixel; RADV's FP16 export rounds toward zero).
//!
//! Each run is a child process (this binary again, WAVESIM_RADV_CASE), so the ICD and
//! LD_PRELOAD apply to it alone.

use ash::vk;
use std::path::{Path, PathBuf};

// The Vulkan setup and child runner shared with vulkan_compute.rs (its triangle is not drawn
// here).
#[allow(dead_code)]
mod vulkan_draw;
use vulkan_draw::{err, Gpu, PipelineState, COLOR_RANGE};

const W: u32 = 64;
const H: u32 = 64;
/// The host's background texel (RGBA8): no shader here writes it.
const BACKGROUND: [u8; 4] = [0x11, 0x22, 0x33, 0x44];

/// One pipeline: its SPIR-V (tests/graphics/NAME.spv), the draw, the fixed-function state,
/// the channel tolerance.
#[derive(Clone, Debug)]
struct Case {
    name: String,
    vert: &'static str,
    frag: &'static str,
    topology: vk::PrimitiveTopology,
    vertices: u32,
    instances: u32,
    cull: vk::CullModeFlags,
    front_face: vk::FrontFace,
    /// x, y, width, height (height < 0 flips y, VK_KHR_maintenance1).
    viewport: [f32; 4],
    /// x, y, width, height.
    scissor: [u32; 4],
    /// Blending (None: off) and the blend constants.
    blend: Option<Blend>,
    /// Vertices from a vertex buffer (vbuf.vert with push constants), optionally indexed.
    mesh: Option<Mesh>,
    /// The target's format: R8G8B8A8_UNORM, R16G16B16A16_SFLOAT or R32G32B32A32_SFLOAT.
    format: vk::Format,
    /// Largest channel difference: UNORM8 steps, or units of 2^-16 for float formats.
    tolerance: u32,
}

impl Case {
    /// `vertices` x `instances` of `topology` over the whole RGBA8 target: no culling,
    /// counter-clockwise front faces, no blending, no vertex buffer.
    fn new(
        name: String,
        (vert, frag): (&'static str, &'static str),
        topology: vk::PrimitiveTopology,
        (vertices, instances): (u32, u32),
        tolerance: u32,
    ) -> Case {
        Case {
            name,
            vert,
            frag,
            topology,
            vertices,
            instances,
            cull: vk::CullModeFlags::NONE,
            front_face: vk::FrontFace::COUNTER_CLOCKWISE,
            viewport: [0.0, 0.0, W as f32, H as f32],
            scissor: [0, 0, W, H],
            blend: None,
            mesh: None,
            format: vk::Format::R8G8B8A8_UNORM,
            tolerance,
        }
    }
}

/// A draw from [`mesh_vertices`]: (index type, indices) or None for a non-indexed draw of
/// `Case::vertices`; primitive restart; firstIndex and vertexOffset.
#[derive(Clone, Debug)]
struct Mesh {
    indices: Option<(vk::IndexType, Vec<u32>)>,
    restart: bool,
    first_index: u32,
    vertex_offset: i32,
}

/// A 5x5 grid of vertices (binding 0, stride 24: position R32G32_SFLOAT at 0, colour
/// R8G8B8A8_UNORM at 8), bytes.
fn mesh_vertices() -> Vec<u8> {
    let mut v = Vec::new();
    for i in 0..25u32 {
        let (x, y) = ((i % 5) as f32, (i / 5) as f32);
        let pos = [x / 4.0 * 1.6 - 0.8 + 0.03 * y, y / 4.0 * 1.6 - 0.8];
        for p in pos {
            v.extend_from_slice(&p.to_le_bytes());
        }
        let col = [
            (i * 37 % 256) as u8,
            (i * 91 % 256) as u8,
            (255 - i * 10) as u8,
            (i * 9) as u8,
        ];
        v.extend_from_slice(&col);
        v.extend_from_slice(&[0; 12]);
    }
    v
}

/// The grid's 4x4 quads as a triangle list (mixed winding), and as one strip per row with
/// the restart index between rows.
fn mesh_list() -> Vec<u32> {
    let mut v = Vec::new();
    for q in 0..16u32 {
        let (x, y) = (q % 4, q / 4);
        let a = y * 5 + x;
        if q % 3 == 0 {
            v.extend_from_slice(&[a, a + 5, a + 1, a + 1, a + 5, a + 6]);
        } else {
            v.extend_from_slice(&[a, a + 1, a + 5, a + 1, a + 6, a + 5]);
        }
    }
    v
}

fn mesh_strips(restart: u32) -> Vec<u32> {
    let mut v = Vec::new();
    for y in 0..4u32 {
        if y > 0 {
            v.push(restart);
        }
        for x in 0..5u32 {
            v.extend_from_slice(&[y * 5 + x, (y + 1) * 5 + x]);
        }
    }
    v
}

/// One attachment's blend state: (src, dst, op) for colour and for alpha.
#[derive(Clone, Copy, Debug)]
struct Blend {
    color: (vk::BlendFactor, vk::BlendFactor, vk::BlendOp),
    alpha: (vk::BlendFactor, vk::BlendFactor, vk::BlendOp),
    constants: [f32; 4],
}

/// The corpus: every geometry with every pixel shader that reads its `color`, under four
/// culling/front-face states and a second viewport (y flipped) with a scissor; and the flat
/// pipeline.
fn cases() -> Vec<Case> {
    use vk::PrimitiveTopology as T;
    let geometry = [
        ("tri", "tri.vert", T::TRIANGLE_LIST, 3, 1),
        ("grid", "grid.vert", T::TRIANGLE_LIST, 384, 1),
        ("inst", "inst.vert", T::TRIANGLE_LIST, 3, 4),
        ("strip", "strip.vert", T::TRIANGLE_STRIP, 24, 1),
        ("fan", "fan.vert", T::TRIANGLE_FAN, 18, 1),
    ];
    // hash.frag's channels are exact multiples of 1/255; the others interpolate.
    let frags = [
        ("tri", "tri.frag", 1),
        ("discard", "discard.frag", 1),
        ("deriv", "deriv.frag", 1),
        ("math", "math.frag", 1),
        ("depth", "depth.frag", 1),
        ("hash", "hash.frag", 0),
        ("ops", "ops.frag", 1),
    ];
    let ccw = vk::FrontFace::COUNTER_CLOCKWISE;
    let raster = [
        ("", vk::CullModeFlags::NONE, ccw),
        ("_cullback", vk::CullModeFlags::BACK, ccw),
        ("_cullfront", vk::CullModeFlags::FRONT, ccw),
        (
            "_cw_cullback",
            vk::CullModeFlags::BACK,
            vk::FrontFace::CLOCKWISE,
        ),
    ];
    let inner = ([8.0, 60.0, 48.0, -52.0], [4, 6, 50, 40]);
    let mut out = Vec::new();
    for (g, vert, topology, vertices, instances) in geometry {
        for (f, frag, tolerance) in frags {
            let base = Case::new(
                format!("{g}_{f}"),
                (vert, frag),
                topology,
                (vertices, instances),
                tolerance,
            );
            for (r, cull, front_face) in raster {
                out.push(Case {
                    name: format!("{g}_{f}{r}"),
                    cull,
                    front_face,
                    ..base.clone()
                });
            }
            out.push(Case {
                name: format!("{g}_{f}_viewport"),
                viewport: inner.0,
                scissor: inner.1,
                ..base
            });
        }
    }
    out.push(Case::new(
        "flat".into(),
        ("flat.vert", "flat.frag"),
        T::TRIANGLE_LIST,
        (3, 1),
        1,
    ));
    // Blending over the host's background (a non-zero destination) with every blend op and
    // the constant, destination and alpha factors.
    use vk::{BlendFactor as F, BlendOp as O};
    let k = [0.25, 0.5, 0.75, 0.625];
    let blends = [
        (
            "alpha",
            (F::SRC_ALPHA, F::ONE_MINUS_SRC_ALPHA, O::ADD),
            (F::ONE, F::ZERO, O::ADD),
        ),
        ("add", (F::ONE, F::ONE, O::ADD), (F::ONE, F::ONE, O::ADD)),
        (
            "mul",
            (F::DST_COLOR, F::ZERO, O::ADD),
            (F::ZERO, F::DST_ALPHA, O::ADD),
        ),
        (
            "constsub",
            (F::CONSTANT_COLOR, F::ONE_MINUS_CONSTANT_ALPHA, O::SUBTRACT),
            (F::ONE, F::ONE, O::REVERSE_SUBTRACT),
        ),
        ("minmax", (F::ONE, F::ONE, O::MIN), (F::ONE, F::ONE, O::MAX)),
        (
            "invdst",
            (F::ONE_MINUS_DST_COLOR, F::SRC_COLOR, O::ADD),
            (F::SRC_ALPHA_SATURATE, F::ONE_MINUS_DST_ALPHA, O::ADD),
        ),
    ];
    for (g, vert, topology, vertices, instances) in [geometry[1], geometry[4]] {
        for (f, frag, tolerance) in [frags[0], frags[3], frags[5], frags[6]] {
            for (b, color, alpha) in blends {
                out.push(Case {
                    blend: Some(Blend {
                        color,
                        alpha,
                        constants: k,
                    }),
                    ..Case::new(
                        format!("{g}_{f}_blend_{b}"),
                        (vert, frag),
                        topology,
                        (vertices, instances),
                        tolerance.max(1),
                    )
                });
            }
        }
    }
    // Vertex buffers, push constants and index buffers. (vertexOffset -1 is avoided: RADV
    // 22.3 takes it for its "unknown" marker of the last base vertex and then never writes
    // the base-vertex user SGPR, which the shim refuses as a register nobody wrote.)
    let list = mesh_list();
    let u16s = vk::IndexType::UINT16;
    let u32s = vk::IndexType::UINT32;
    let meshes = [
        ("vbuf", T::TRIANGLE_LIST, None, false, 0, 0, 24),
        (
            "idx16",
            T::TRIANGLE_LIST,
            Some((u16s, list.clone())),
            false,
            0,
            0,
            96,
        ),
        (
            "idx32",
            T::TRIANGLE_LIST,
            Some((u32s, list.clone())),
            false,
            0,
            0,
            96,
        ),
        (
            "idx16_offset",
            T::TRIANGLE_LIST,
            Some((u16s, list.clone())),
            false,
            12,
            2,
            72,
        ),
        (
            "idx16_restart",
            T::TRIANGLE_STRIP,
            Some((u16s, mesh_strips(0xffff))),
            true,
            0,
            0,
            43,
        ),
        (
            "idx32_restart",
            T::TRIANGLE_STRIP,
            Some((u32s, mesh_strips(u32::MAX))),
            true,
            0,
            0,
            43,
        ),
        (
            "idx32_strip",
            T::TRIANGLE_STRIP,
            Some((u32s, mesh_strips(3))),
            false,
            0,
            0,
            43,
        ),
    ];
    for (m, topology, indices, restart, first_index, vertex_offset, count) in meshes {
        for (r, cull, front_face) in [raster[0], raster[1]] {
            out.push(Case {
                cull,
                front_face,
                mesh: Some(Mesh {
                    indices: indices.clone(),
                    restart,
                    first_index,
                    vertex_offset,
                }),
                ..Case::new(
                    format!("mesh_{m}{r}"),
                    ("vbuf.vert", "vcol.frag"),
                    topology,
                    (count, 1),
                    1,
                )
            });
        }
    }
    // Points (gl_PointSize 1 to 6) and lines (width 1) with the interpolating and the
    // integer pixel shaders.
    for (g, vert, topology, vertices) in [
        ("points", "points.vert", T::POINT_LIST, 24),
        ("linestrip", "strip.vert", T::LINE_STRIP, 24),
        ("lines", "grid.vert", T::LINE_LIST, 96),
    ] {
        for (f, frag, tolerance) in [frags[0], frags[5]] {
            out.push(Case::new(
                format!("{g}_{f}"),
                (vert, frag),
                topology,
                (vertices, 1),
                tolerance,
            ));
        }
    }
    // Float targets (exported as FP16_ABGR / 32_ABGR). Without UNORM8's quantisation the
    // drivers' interpolation shows: lavapipe interpolates from the unsnapped vertex positions,
    // the draw (as the hardware's rasteriser) from positions snapped to 1/256 pixel, which moves
    // an attribute by up to its gradient x 1/512 pixel; channels may differ by 2^-11 (32 units
    // of 2^-16). The integer hash shader must be exact up to the f16 export rounding.
    for (g, vert, topology, vertices, instances) in [geometry[0], geometry[1]] {
        for (f, frag, _) in [frags[0], frags[3], frags[5]] {
            for (fname, format, tolerance) in [
                ("rgba16f", vk::Format::R16G16B16A16_SFLOAT, 32),
                ("rgba32f", vk::Format::R32G32B32A32_SFLOAT, 32),
            ] {
                out.push(Case {
                    format,
                    ..Case::new(
                        format!("{g}_{f}_{fname}"),
                        (vert, frag),
                        topology,
                        (vertices, instances),
                        tolerance,
                    )
                });
            }
        }
    }
    out
}

/// Bytes per texel of a case's format.
fn texel_bytes(f: vk::Format) -> usize {
    match f {
        vk::Format::R16G16B16A16_SFLOAT => 8,
        vk::Format::R32G32B32A32_SFLOAT => 16,
        _ => 4,
    }
}

/// The host's background texel in `f`: BACKGROUND's channels / 255.
fn background(f: vk::Format) -> Vec<u8> {
    let c = BACKGROUND.map(|b| b as f32 / 255.0);
    match f {
        vk::Format::R16G16B16A16_SFLOAT => c
            .iter()
            .flat_map(|&x| half::f16::from_f32(x).to_le_bytes())
            .collect(),
        vk::Format::R32G32B32A32_SFLOAT => c.iter().flat_map(|x| x.to_le_bytes()).collect(),
        _ => BACKGROUND.to_vec(),
    }
}

/// Whether the target has optimal tiling (WAVESIM_RADV_TILING=optimal in the child): cleared to
/// the background by vkCmdClearColorImage and read back by vkCmdCopyImageToBuffer, instead of
/// a linear host-visible image written and read by the host.
fn optimal_target() -> bool {
    std::env::var("WAVESIM_RADV_TILING").is_ok_and(|v| v == "optimal")
}

/// Renders `c` on the process's Vulkan driver; returns the 64x64 texels, rows packed.
fn render(c: &Case) -> Result<Vec<u8>, String> {
    let spv = |name: &str| vulkan_draw::spv(&format!("{name}.spv"));
    let (vert, frag) = (spv(c.vert)?, spv(c.frag)?);
    // SAFETY: every Vulkan call follows the specification's valid usage: objects are created
    // before use; the process exits after reading the result (the driver frees the rest).
    unsafe {
        let gpu = Gpu::graphics()?;
        let device = &gpu.device;
        let format = c.format;
        let tb = texel_bytes(format);
        let bg = background(format);
        let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let optimal = optimal_target();
        let (image, mem) = gpu.color_image(
            format,
            if optimal {
                vk::ImageTiling::OPTIMAL
            } else {
                vk::ImageTiling::LINEAR
            },
            if optimal {
                vk::ImageLayout::UNDEFINED
            } else {
                vk::ImageLayout::PREINITIALIZED
            },
            vk::ImageUsageFlags::COLOR_ATTACHMENT
                | vk::ImageUsageFlags::TRANSFER_DST
                | vk::ImageUsageFlags::TRANSFER_SRC,
            host,
        )?;
        let layout = device.get_image_subresource_layout(
            image,
            vk::ImageSubresource {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: 0,
                array_layer: 0,
            },
        );
        let ptr = device
            .map_memory(
                mem,
                0,
                device.get_image_memory_requirements(image).size,
                vk::MemoryMapFlags::empty(),
            )
            .map_err(err("vkMapMemory"))? as *mut u8;
        for y in 0..H as usize {
            for x in 0..W as usize {
                if optimal {
                    break;
                }
                let at = layout.offset as usize + y * layout.row_pitch as usize + tb * x;
                std::ptr::copy_nonoverlapping(bg.as_ptr(), ptr.add(at), tb);
            }
        }
        let general = vk::ImageLayout::GENERAL;
        let (rp, fb) = gpu.render_target(
            image,
            format,
            vk::AttachmentLoadOp::LOAD,
            general,
            (general, general),
        )?;
        let push_range = [vk::PushConstantRange {
            stage_flags: vk::ShaderStageFlags::VERTEX,
            offset: 0,
            size: 12,
        }];
        let mut plci = vk::PipelineLayoutCreateInfo::default();
        if c.mesh.is_some() {
            plci = plci.push_constant_ranges(&push_range);
        }
        let pl = device
            .create_pipeline_layout(&plci, None)
            .map_err(err("vkCreatePipelineLayout"))?;
        // The mesh's vertex and index buffers, host-visible and filled through their mappings.
        let buffer =
            |data: &[u8], usage: vk::BufferUsageFlags| -> Result<(vk::Buffer, *const u8), String> {
                let b = device
                    .create_buffer(
                        &vk::BufferCreateInfo::default()
                            .size(data.len().max(4) as u64)
                            .usage(usage),
                        None,
                    )
                    .map_err(err("vkCreateBuffer"))?;
                let req = device.get_buffer_memory_requirements(b);
                let m = gpu.allocate(req, host)?;
                device
                    .bind_buffer_memory(b, m, 0)
                    .map_err(err("vkBindBufferMemory"))?;
                let p = device
                    .map_memory(m, 0, req.size, vk::MemoryMapFlags::empty())
                    .map_err(err("vkMapMemory"))? as *mut u8;
                std::ptr::copy_nonoverlapping(data.as_ptr(), p, data.len());
                Ok((b, p as *const u8))
            };
        let mut mesh_buffers = None;
        if let Some(m) = &c.mesh {
            let vb = buffer(&mesh_vertices(), vk::BufferUsageFlags::VERTEX_BUFFER)?.0;
            let ib = match &m.indices {
                Some((ty, idx)) => {
                    let bytes: Vec<u8> = if *ty == vk::IndexType::UINT16 {
                        idx.iter().flat_map(|&i| (i as u16).to_le_bytes()).collect()
                    } else {
                        idx.iter().flat_map(|&i| i.to_le_bytes()).collect()
                    };
                    Some((buffer(&bytes, vk::BufferUsageFlags::INDEX_BUFFER)?.0, *ty))
                }
                None => None,
            };
            mesh_buffers = Some((vb, ib));
        }
        let vbind = [vk::VertexInputBindingDescription {
            binding: 0,
            stride: 24,
            input_rate: vk::VertexInputRate::VERTEX,
        }];
        let vattr = [
            vk::VertexInputAttributeDescription {
                location: 0,
                binding: 0,
                format: vk::Format::R32G32_SFLOAT,
                offset: 0,
            },
            vk::VertexInputAttributeDescription {
                location: 1,
                binding: 0,
                format: vk::Format::R8G8B8A8_UNORM,
                offset: 8,
            },
        ];
        let mut vi = vk::PipelineVertexInputStateCreateInfo::default();
        if c.mesh.is_some() {
            vi = vi
                .vertex_binding_descriptions(&vbind)
                .vertex_attribute_descriptions(&vattr);
        }
        let ia = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(c.topology)
            .primitive_restart_enable(c.mesh.as_ref().is_some_and(|m| m.restart));
        let vp = [vk::Viewport {
            x: c.viewport[0],
            y: c.viewport[1],
            width: c.viewport[2],
            height: c.viewport[3],
            min_depth: 0.0,
            max_depth: 1.0,
        }];
        let sc = [vk::Rect2D {
            offset: vk::Offset2D {
                x: c.scissor[0] as i32,
                y: c.scissor[1] as i32,
            },
            extent: vk::Extent2D {
                width: c.scissor[2],
                height: c.scissor[3],
            },
        }];
        let area = vk::Rect2D {
            offset: vk::Offset2D::default(),
            extent: vk::Extent2D {
                width: W,
                height: H,
            },
        };
        let vps = vk::PipelineViewportStateCreateInfo::default()
            .viewports(&vp)
            .scissors(&sc);
        let rs = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(c.cull)
            .front_face(c.front_face)
            .line_width(1.0);
        let mut cba = [vk::PipelineColorBlendAttachmentState::default()
            .color_write_mask(vk::ColorComponentFlags::RGBA)];
        let mut constants = [0.0; 4];
        if let Some(b) = c.blend {
            cba[0] = cba[0]
                .blend_enable(true)
                .src_color_blend_factor(b.color.0)
                .dst_color_blend_factor(b.color.1)
                .color_blend_op(b.color.2)
                .src_alpha_blend_factor(b.alpha.0)
                .dst_alpha_blend_factor(b.alpha.1)
                .alpha_blend_op(b.alpha.2);
            constants = b.constants;
        }
        let cb = vk::PipelineColorBlendStateCreateInfo::default()
            .attachments(&cba)
            .blend_constants(constants);
        let pipeline = gpu.pipeline(
            (&vert, &frag),
            &PipelineState {
                vertex_input: &vi,
                input_assembly: &ia,
                viewport: &vps,
                rasterization: &rs,
                color_blend: &cb,
            },
            pl,
            rp,
        )?;

        let (_pool, cmd) = vulkan_draw::command_buffer(device, gpu.family)?;
        device
            .begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
            .map_err(err("vkBeginCommandBuffer"))?;
        if optimal {
            // The background by vkCmdClearColorImage (RADV: its meta clear, a RECTLIST draw
            // into the tiled image), then visible to the render pass's load.
            let barrier =
                |src: vk::AccessFlags, dst: vk::AccessFlags, layouts: [vk::ImageLayout; 2]| {
                    [vk::ImageMemoryBarrier::default()
                        .src_access_mask(src)
                        .dst_access_mask(dst)
                        .old_layout(layouts[0])
                        .new_layout(layouts[1])
                        .image(image)
                        .subresource_range(COLOR_RANGE)]
                };
            device.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TOP_OF_PIPE,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &barrier(
                    vk::AccessFlags::empty(),
                    vk::AccessFlags::TRANSFER_WRITE,
                    [
                        vk::ImageLayout::UNDEFINED,
                        vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                    ],
                ),
            );
            let c = BACKGROUND.map(|b| b as f32 / 255.0);
            device.cmd_clear_color_image(
                cmd,
                image,
                vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                &vk::ClearColorValue { float32: c },
                &[COLOR_RANGE],
            );
            device.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &barrier(
                    vk::AccessFlags::TRANSFER_WRITE,
                    vk::AccessFlags::COLOR_ATTACHMENT_READ
                        | vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
                    [
                        vk::ImageLayout::TRANSFER_DST_OPTIMAL,
                        vk::ImageLayout::GENERAL,
                    ],
                ),
            );
        } else {
            // The host's writes become visible to the render pass's load in GENERAL layout.
            let to_general = [vk::ImageMemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::HOST_WRITE)
                .dst_access_mask(
                    vk::AccessFlags::COLOR_ATTACHMENT_READ
                        | vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
                )
                .old_layout(vk::ImageLayout::PREINITIALIZED)
                .new_layout(vk::ImageLayout::GENERAL)
                .image(image)
                .subresource_range(COLOR_RANGE)];
            device.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::HOST,
                vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &to_general,
            );
        }
        device.cmd_begin_render_pass(
            cmd,
            &vk::RenderPassBeginInfo::default()
                .render_pass(rp)
                .framebuffer(fb)
                .render_area(area),
            vk::SubpassContents::INLINE,
        );
        device.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
        match (&c.mesh, mesh_buffers) {
            (Some(m), Some((vb, ib))) => {
                device.cmd_bind_vertex_buffers(cmd, 0, &[vb], &[0]);
                let push: Vec<u8> = [0.9f32, 1.05, 0.5]
                    .iter()
                    .flat_map(|f| f.to_le_bytes())
                    .collect();
                device.cmd_push_constants(cmd, pl, vk::ShaderStageFlags::VERTEX, 0, &push);
                match ib {
                    Some((ib, ty)) => {
                        device.cmd_bind_index_buffer(cmd, ib, 0, ty);
                        device.cmd_draw_indexed(
                            cmd,
                            c.vertices,
                            c.instances,
                            m.first_index,
                            m.vertex_offset,
                            0,
                        );
                    }
                    None => device.cmd_draw(cmd, c.vertices, c.instances, 0, 0),
                }
            }
            _ => device.cmd_draw(cmd, c.vertices, c.instances, 0, 0),
        }
        device.cmd_end_render_pass(cmd);
        if optimal {
            // The tiled image to a host-visible buffer (RADV: its compute meta copy).
            let readback = buffer(
                &vec![0; W as usize * H as usize * tb],
                vk::BufferUsageFlags::TRANSFER_DST,
            )?;
            device.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                vk::PipelineStageFlags::TRANSFER,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &[vk::ImageMemoryBarrier::default()
                    .src_access_mask(vk::AccessFlags::COLOR_ATTACHMENT_WRITE)
                    .dst_access_mask(vk::AccessFlags::TRANSFER_READ)
                    .old_layout(vk::ImageLayout::GENERAL)
                    .new_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)
                    .image(image)
                    .subresource_range(COLOR_RANGE)],
            );
            device.cmd_copy_image_to_buffer(
                cmd,
                image,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
                readback.0,
                &[vk::BufferImageCopy::default()
                    .image_subresource(vk::ImageSubresourceLayers {
                        aspect_mask: vk::ImageAspectFlags::COLOR,
                        layer_count: 1,
                        ..Default::default()
                    })
                    .image_extent(vk::Extent3D {
                        width: W,
                        height: H,
                        depth: 1,
                    })],
            );
            gpu.finish_and_wait(
                cmd,
                vk::PipelineStageFlags::TRANSFER,
                vk::AccessFlags::TRANSFER_WRITE,
            )?;
            return Ok(
                std::slice::from_raw_parts(readback.1, W as usize * H as usize * tb).to_vec(),
            );
        }
        gpu.finish_and_wait(
            cmd,
            vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
            vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
        )?;
        let mut out = Vec::with_capacity(W as usize * H as usize * tb);
        for y in 0..H as usize {
            let at = layout.offset as usize + y * layout.row_pitch as usize;
            out.extend_from_slice(std::slice::from_raw_parts(ptr.add(at), tb * W as usize));
        }
        Ok(out)
    }
}

/// The child process's entry: renders WAVESIM_RADV_CASE into WAVESIM_RADV_OUT.
#[test]
fn child_entry() {
    let (Ok(name), Ok(out)) = (
        std::env::var("WAVESIM_RADV_CASE"),
        std::env::var("WAVESIM_RADV_OUT"),
    ) else {
        return;
    };
    let bytes = if name == OPTIMAL_TRIANGLE {
        vulkan_draw::draw_triangle()
    } else {
        let all = cases();
        let c = all
            .iter()
            .find(|c| c.name == name)
            .unwrap_or_else(|| panic!("no case {name}"));
        render(c)
    }
    .unwrap_or_else(|e| panic!("{name}: {e}"));
    std::fs::write(out, bytes).expect("writing the result");
}

/// The child's name for `vulkan_draw::draw_triangle`: the triangle drawn as applications do,
/// into an optimal-tiling target cleared by the render pass and copied to a buffer.
const OPTIMAL_TRIANGLE: &str = "optimal_triangle";

/// A render pass on an optimal-tiling colour target (vulkan_draw::draw_triangle): RADV lays the
/// 64x64 RGBA8 image out 4KB_D_X (RADV_DEBUG=img prints swmode=22), without DCC or CMASK (too
/// small for fast clears), clears it with its meta pipeline (a RECTLIST draw whose vertex
/// shader exports the layer), draws the triangle, and copies the image to a buffer with its
/// compute meta shader (tiled image loads). Every draw's colour writes go through the tiled
/// layout (`gfx_draw.rs`'s `Target`, addrlib's addresses from exec::image::swizzle); the result
/// equals lavapipe's within 1 UNORM8 step (the interpolated colour) and the corners hold the
/// clear colour exactly.
#[test]
fn optimal_target_cleared_and_drawn_matches_lavapipe() {
    let env = [("RADV_DEBUG", "img")];
    let vars = ("WAVESIM_RADV_CASE", "WAVESIM_RADV_OUT");
    let (o, radv) = vulkan_draw::child_output(vars, OPTIMAL_TRIANGLE, true, &env);
    let err = String::from_utf8_lossy(&o.stderr);
    let radv = radv
        .filter(|_| o.status.success() && !err.contains("wavesim-drm:"))
        .unwrap_or_else(|| panic!("RADV + shim failed:\n{err}"));
    assert!(
        err.contains("swmode=22"),
        "the target is not 4KB_D_X:\n{err}"
    );
    let lvp = run_child(OPTIMAL_TRIANGLE, false).unwrap_or_else(|e| panic!("{e}"));
    let px = |img: &[u8], x: usize, y: usize| img[4 * (64 * y + x)..][..4].to_vec();
    for (x, y) in [(0, 0), (63, 0), (0, 63), (63, 63)] {
        assert_eq!(px(&radv, x, y), [0, 0, 0, 255], "corner ({x}, {y})");
    }
    assert_ne!(
        px(&radv, 32, 32),
        [0, 0, 0, 255],
        "no triangle at the centre"
    );
    let worst = radv
        .iter()
        .zip(&lvp)
        .map(|(a, b)| a.abs_diff(*b))
        .max()
        .unwrap_or(0);
    assert!(worst <= 1, "a channel differs from lavapipe's by {worst}");
}

/// Renders `name` in a child process on RADV through the shim or on lavapipe; Err: the
/// child's failure (the shim's refusal is on its stderr).
fn run_child(name: &str, radv: bool) -> Result<Vec<u8>, String> {
    vulkan_draw::child_bytes(("WAVESIM_RADV_CASE", "WAVESIM_RADV_OUT"), name, radv, &[])
}

fn golden_path(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/graphics/goldens")
        .join(format!("{name}.png"))
}

/// A golden's texels: an RGBA8 PNG, or for float targets an RGBA16 PNG whose 16-bit samples
/// are the stored little-endian halves of each texel (two PNG pixels per RGBA32F texel).
fn read_golden(name: &str) -> Vec<u8> {
    let path = golden_path(name);
    let file = std::fs::File::open(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (tools/radv/goldens.sh)", path.display()));
    let mut reader = png::Decoder::new(file).read_info().expect("a PNG golden");
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).expect("a PNG golden's pixels");
    assert_eq!(
        (info.height, info.color_type),
        (H, png::ColorType::Rgba),
        "{}",
        path.display()
    );
    buf.truncate(info.buffer_size());
    if info.bit_depth == png::BitDepth::Sixteen {
        // PNG samples are big-endian.
        for pair in buf.chunks_exact_mut(2) {
            pair.swap(0, 1);
        }
    }
    buf
}

/// Differences between `got` and the golden `want` beyond the rules in the module comment:
/// (pixels compared, edge pixels whose coverage differs, the largest channel difference of
/// the compared pixels, messages of the failures).
fn compare(c: &Case, want: &[u8], got: &[u8]) -> (usize, usize, u32, Vec<String>) {
    let tb = texel_bytes(c.format);
    let bgv = background(c.format);
    let px = |img: &[u8], x: i64, y: i64| -> Vec<u8> {
        let i = tb * (y as usize * W as usize + x as usize);
        img[i..i + tb].to_vec()
    };
    // Channel distance: UNORM8 steps, or for float formats |a - b| in units of 2^-16
    // (rounded up).
    let dist = |a: &[u8], b: &[u8]| -> u32 {
        let value = |p: &[u8], k: usize| -> f64 {
            match tb {
                8 => half::f16::from_le_bytes([p[2 * k], p[2 * k + 1]]).to_f64(),
                16 => {
                    f32::from_le_bytes([p[4 * k], p[4 * k + 1], p[4 * k + 2], p[4 * k + 3]]) as f64
                }
                _ => p[k] as f64,
            }
        };
        let unit = if tb == 4 { 1.0 } else { 65536.0 };
        (0..4)
            .map(|k| {
                ((value(a, k) - value(b, k)).abs() * unit)
                    .ceil()
                    .min(u32::MAX as f64) as u32
            })
            .max()
            .unwrap_or(0)
    };
    let bg = |p: &[u8]| p == bgv.as_slice();
    let (mut compared, mut edge, mut worst, mut bad) = (0, 0, 0, Vec::new());
    for y in 0..H as i64 {
        for x in 0..W as i64 {
            let (a, b) = (px(want, x, y), px(got, x, y));
            if bg(&a) != bg(&b) {
                let mut kinds = [false; 2];
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let (nx, ny) = (x + dx, y + dy);
                        if (0..W as i64).contains(&nx) && (0..H as i64).contains(&ny) {
                            kinds[bg(&px(want, nx, ny)) as usize] = true;
                        }
                    }
                }
                if kinds == [true, true] {
                    edge += 1;
                } else {
                    bad.push(format!(
                        "({x}, {y}): coverage: lavapipe {a:?}, wavesim {b:?}"
                    ));
                }
                continue;
            }
            compared += 1;
            let d = dist(&a, &b);
            worst = worst.max(d);
            if d > c.tolerance {
                bad.push(format!("({x}, {y}): lavapipe {a:?}, wavesim {b:?}"));
            }
        }
    }
    (compared, edge, worst, bad)
}

/// Every case, rendered by RADV's machine code on wavesim, matches lavapipe's golden.
#[test]
fn radv_draws_match_lavapipe() {
    check_cases(&cases(), &[]);
}

/// Every case drawn into an optimal-tiling target instead (WAVESIM_RADV_TILING=optimal): RADV
/// clears it to the background with its meta clear (vkCmdClearColorImage: a RECTLIST draw into
/// the tiled image), the draw writes through the tiled layout, and RADV's compute copy reads it
/// back (vkCmdCopyImageToBuffer); the same goldens and rules as the linear targets. By default
/// every 4th case and every float target (CI time); WAVESIM_RADV_TILING_ALL=1 runs all. RADV
/// copies the RGBA16F targets through an R16G16B16A16_UINT view (image data format 55) and
/// the RGBA32F ones through R32G32B32A32_UINT.
#[test]
fn radv_draws_on_optimal_targets_match_lavapipe() {
    let all = std::env::var("WAVESIM_RADV_TILING_ALL").is_ok();
    let run: Vec<Case> = cases()
        .into_iter()
        .enumerate()
        .filter(|(i, c)| all || i % 4 == 0 || c.format != vk::Format::R8G8B8A8_UNORM)
        .map(|(_, c)| c)
        .collect();
    check_cases(&run, &[("WAVESIM_RADV_TILING", "optimal")]);
}

/// The cases `run`, drawn by RADV on wavesim in a child with `env`, match their goldens.
fn check_cases(run: &[Case], env: &[(&str, &str)]) {
    let mut failures = Vec::new();
    for c in run {
        let want = read_golden(&c.name);
        // A refused or failed draw is a failure of its case; the others still run.
        let got = match vulkan_draw::child_bytes(
            ("WAVESIM_RADV_CASE", "WAVESIM_RADV_OUT"),
            &c.name,
            true,
            env,
        ) {
            Ok(g) => g,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        assert_eq!(got.len(), want.len(), "{}", c.name);
        let bgv = background(c.format);
        let drawn = want
            .chunks(texel_bytes(c.format))
            .filter(|p| *p != bgv.as_slice())
            .count();
        // A culled triangle draws nothing: the other facing of the pair draws it.
        assert!(
            drawn > 0 || c.cull != vk::CullModeFlags::NONE,
            "{}: the golden draws nothing",
            c.name
        );
        let (compared, edge, worst, bad) = compare(c, &want, &got);
        eprintln!(
            "{}: {drawn} pixels drawn by lavapipe, {compared} compared (largest channel difference {worst}), {edge} edge pixels differ in coverage, {} failures",
            c.name,
            bad.len()
        );
        if !bad.is_empty() {
            failures.push(format!(
                "{}: {} pixels, first {:?}",
                c.name,
                bad.len(),
                &bad[..bad.len().min(4)]
            ));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Writes the goldens from lavapipe (tools/radv/goldens.sh runs this).
#[test]
#[ignore]
fn write_goldens() {
    for c in cases() {
        let img = run_child(&c.name, false).unwrap_or_else(|e| panic!("{e}"));
        let path = golden_path(&c.name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        let file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
        let tb = texel_bytes(c.format);
        let (width, depth, data) = if tb == 4 {
            (W, png::BitDepth::Eight, img)
        } else {
            let mut be = img;
            for pair in be.chunks_exact_mut(2) {
                pair.swap(0, 1);
            }
            (W * tb as u32 / 8, png::BitDepth::Sixteen, be)
        };
        let mut enc = png::Encoder::new(file, width, H);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(depth);
        enc.set_compression(png::Compression::Best);
        enc.write_header().unwrap().write_image_data(&data).unwrap();
    }
}
