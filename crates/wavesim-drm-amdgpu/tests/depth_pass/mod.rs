//! The render pass of the depth and stencil tests (radv_depth.rs, radv_stencil.rs): a W x H
//! RGBA8 colour target and a depth/stencil attachment, both of optimal tiling and cleared by
//! the render pass, and after it copies of the colour and of each depth/stencil aspect to
//! host-visible buffers (vkCmdCopyImageToBuffer: on RADV its compute copy reads the attachment
//! through the texture unit and TC-compatible HTILE).

use ash::vk;

use crate::vulkan_draw::{self, err, Gpu, PipelineState, FULL_TARGET};
use crate::{H, W};

/// The images, render pass and command buffer of one run.
pub struct DepthPass {
    pub color: vk::Image,
    pub depth: vk::Image,
    pub rp: vk::RenderPass,
    pub cmd: vk::CommandBuffer,
    _pool: vk::CommandPool,
}

const CFORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;
const SRC: vk::ImageLayout = vk::ImageLayout::TRANSFER_SRC_OPTIMAL;

/// Creates the attachments (the depth one of `dformat`, viewed with `aspects`), the render
/// pass (both cleared, stored and left in TRANSFER_SRC_OPTIMAL) and a command buffer, and
/// begins recording it with the render pass begun, cleared to black and `clear`.
///
/// # Safety
/// Vulkan calls on `gpu`'s device.
pub unsafe fn begin(
    gpu: &Gpu,
    dformat: vk::Format,
    aspects: vk::ImageAspectFlags,
    clear: vk::ClearDepthStencilValue,
) -> Result<DepthPass, String> {
    let d = &gpu.device;
    let none = vk::MemoryPropertyFlags::empty();
    let (color, _) = gpu.color_image(
        CFORMAT,
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
        view(color, CFORMAT, vk::ImageAspectFlags::COLOR)?,
        view(depth, dformat, aspects)?,
    ];
    let stencil_op = if aspects.contains(vk::ImageAspectFlags::STENCIL) {
        (vk::AttachmentLoadOp::CLEAR, vk::AttachmentStoreOp::STORE)
    } else {
        (
            vk::AttachmentLoadOp::DONT_CARE,
            vk::AttachmentStoreOp::DONT_CARE,
        )
    };
    let att = [
        vk::AttachmentDescription::default()
            .format(CFORMAT)
            .samples(vk::SampleCountFlags::TYPE_1)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .initial_layout(vk::ImageLayout::UNDEFINED)
            .final_layout(SRC),
        vk::AttachmentDescription::default()
            .format(dformat)
            .samples(vk::SampleCountFlags::TYPE_1)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .stencil_load_op(stencil_op.0)
            .stencil_store_op(stencil_op.1)
            .initial_layout(vk::ImageLayout::UNDEFINED)
            .final_layout(SRC),
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
    let (pool, cmd) = vulkan_draw::command_buffer(d, gpu.family)?;
    d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
        .map_err(err("vkBeginCommandBuffer"))?;
    let clears = [
        vk::ClearValue {
            color: vk::ClearColorValue {
                float32: [0.0, 0.0, 0.0, 1.0],
            },
        },
        vk::ClearValue {
            depth_stencil: clear,
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
    Ok(DepthPass {
        color,
        depth,
        rp,
        cmd,
        _pool: pool,
    })
}

/// A triangle-list pipeline of `shaders` without vertex input over the whole target (viewport
/// depth 0..1) with the `rasterization` and `ds` state, writing all colour components or none.
///
/// # Safety
/// Vulkan calls on `gpu`'s device; the state is valid.
pub unsafe fn pipeline(
    gpu: &Gpu,
    shaders: (&[u32], &[u32]),
    (rasterization, color): (&vk::PipelineRasterizationStateCreateInfo, bool),
    ds: &vk::PipelineDepthStencilStateCreateInfo,
    layout: vk::PipelineLayout,
    rp: vk::RenderPass,
) -> Result<vk::Pipeline, String> {
    let vp = [vk::Viewport {
        x: 0.0,
        y: 0.0,
        width: W as f32,
        height: H as f32,
        min_depth: 0.0,
        max_depth: 1.0,
    }];
    let sc = [FULL_TARGET];
    let mask = if color {
        vk::ColorComponentFlags::RGBA
    } else {
        vk::ColorComponentFlags::empty()
    };
    let cba = [vk::PipelineColorBlendAttachmentState::default().color_write_mask(mask)];
    let ms = vk::PipelineMultisampleStateCreateInfo::default()
        .rasterization_samples(vk::SampleCountFlags::TYPE_1);
    gpu.pipeline_with(
        shaders,
        &PipelineState {
            vertex_input: &vk::PipelineVertexInputStateCreateInfo::default(),
            input_assembly: &vk::PipelineInputAssemblyStateCreateInfo::default()
                .topology(vk::PrimitiveTopology::TRIANGLE_LIST),
            viewport: &vk::PipelineViewportStateCreateInfo::default()
                .viewports(&vp)
                .scissors(&sc),
            rasterization,
            color_blend: &vk::PipelineColorBlendStateCreateInfo::default().attachments(&cba),
        },
        (&ms, Some(ds)),
        layout,
        rp,
    )
}

/// The depth texels of a `finish` result whose first image is the colour (D16_UNORM's k as
/// k / 65535, in f32).
pub fn depth_texels(d16: bool, bytes: &[u8]) -> Vec<f32> {
    let z = &bytes[4 * (W * H) as usize..];
    if d16 {
        z.chunks_exact(2)
            .map(|b| u16::from_le_bytes([b[0], b[1]]) as f32 / 65535.0)
            .collect()
    } else {
        z.chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect()
    }
}

/// Ends the render pass, copies the colour (4 bytes a texel) and each of `aspects` (with its
/// bytes per texel) to buffers, submits, waits and returns the images one after another
/// (rows packed).
///
/// # Safety
/// Vulkan calls; `p` was made by [`begin`] on `gpu`.
pub unsafe fn finish(
    gpu: &Gpu,
    p: &DepthPass,
    aspects: &[(vk::ImageAspectFlags, usize)],
) -> Result<Vec<u8>, String> {
    let d = &gpu.device;
    let cmd = p.cmd;
    d.cmd_end_render_pass(cmd);
    let texels = (W * H) as usize;
    let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
    let mut bufs = Vec::new();
    let copies = [(p.color, vk::ImageAspectFlags::COLOR, 4)]
        .into_iter()
        .chain(aspects.iter().map(|&(a, n)| (p.depth, a, n)));
    for (image, aspect_mask, bpp) in copies {
        let bytes = bpp * texels;
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
        let region = [vk::BufferImageCopy::default()
            .image_subresource(vk::ImageSubresourceLayers {
                aspect_mask,
                layer_count: 1,
                ..Default::default()
            })
            .image_extent(vk::Extent3D {
                width: W,
                height: H,
                depth: 1,
            })];
        d.cmd_copy_image_to_buffer(cmd, image, SRC, b, &region);
        bufs.push((m, bytes));
    }
    gpu.finish_and_wait(
        cmd,
        vk::PipelineStageFlags::TRANSFER,
        vk::AccessFlags::TRANSFER_WRITE,
    )?;
    let mut out = Vec::new();
    for (m, n) in bufs {
        let ptr = d
            .map_memory(m, 0, n as u64, vk::MemoryMapFlags::empty())
            .map_err(err("vkMapMemory"))? as *const u8;
        out.extend_from_slice(std::slice::from_raw_parts(ptr, n));
    }
    Ok(out)
}

/// A child process's work (the `child_entry` test of each depth test binary): when `vars`
/// (case name, output file) are set, renders the case of `cases` so named (`name` gives a
/// case's) and writes the bytes; without them, nothing (the parent's run of the test).
pub fn child_entry<C>(
    (case_var, out_var): (&str, &str),
    cases: &[C],
    name: impl Fn(&C) -> &str,
    render: impl Fn(&C) -> Result<Vec<u8>, String>,
) {
    let (Ok(n), Ok(out)) = (std::env::var(case_var), std::env::var(out_var)) else {
        return;
    };
    let c = cases
        .iter()
        .find(|c| name(c) == n)
        .unwrap_or_else(|| panic!("no case {n}"));
    let bytes = render(c).unwrap_or_else(|e| panic!("{n}: {e}"));
    std::fs::write(out, bytes).expect("writing the result");
}
