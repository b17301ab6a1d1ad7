//! One triangle drawn with Vulkan (the `tri` pipeline of tests/graphics: tri.vert + tri.frag,
//! a 64x64 R8G8B8A8_UNORM colour target cleared by the render pass), as tests/graphics/draw.c
//! draws it, for `vulkan_compute.rs`'s child process. Returns the target's bytes, or the
//! failing call and its result. Also the setup both child programs share (instance, command
//! buffer).

use ash::vk;
use std::path::Path;

const W: u32 = 64;
const H: u32 = 64;

fn spv(name: &str) -> Result<Vec<u32>, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/graphics")
        .join(name);
    let b = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// The Vulkan entry, an instance (API 1.2) and its first physical device.
///
/// # Safety
/// Vulkan calls; the caller destroys the instance (or exits).
pub unsafe fn first_device() -> Result<(ash::Entry, ash::Instance, vk::PhysicalDevice), String> {
    let entry = ash::Entry::load().map_err(|x| x.to_string())?;
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_2);
    let instance = entry
        .create_instance(
            &vk::InstanceCreateInfo::default().application_info(&app),
            None,
        )
        .map_err(|r| format!("vkCreateInstance: {r:?}"))?;
    let pd = *instance
        .enumerate_physical_devices()
        .map_err(|r| format!("vkEnumeratePhysicalDevices: {r:?}"))?
        .first()
        .ok_or("no Vulkan device")?;
    Ok((entry, instance, pd))
}

/// A command pool of `family` and one primary command buffer from it.
///
/// # Safety
/// Vulkan calls on a valid device.
pub unsafe fn command_buffer(
    device: &ash::Device,
    family: u32,
) -> Result<(vk::CommandPool, vk::CommandBuffer), String> {
    let pool = device
        .create_command_pool(
            &vk::CommandPoolCreateInfo::default().queue_family_index(family),
            None,
        )
        .map_err(|r| format!("vkCreateCommandPool: {r:?}"))?;
    let cmd = device
        .allocate_command_buffers(
            &vk::CommandBufferAllocateInfo::default()
                .command_pool(pool)
                .level(vk::CommandBufferLevel::PRIMARY)
                .command_buffer_count(1),
        )
        .map_err(|r| format!("vkAllocateCommandBuffers: {r:?}"))?[0];
    Ok((pool, cmd))
}

pub fn draw_triangle() -> Result<Vec<u8>, String> {
    let e = |what: &'static str| move |r: vk::Result| format!("{what}: {r:?}");
    let (vert, frag) = (spv("tri.vert.spv")?, spv("tri.frag.spv")?);
    // SAFETY: every Vulkan call follows the specification's valid usage: objects are created
    // before use; the process exits after reading the result (the driver frees the rest).
    unsafe {
        let (_entry, instance, pd) = first_device()?;
        let family = instance
            .get_physical_device_queue_family_properties(pd)
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::GRAPHICS))
            .ok_or("no graphics queue")? as u32;
        let prio = [1.0f32];
        let qci = [vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&prio)];
        let device = instance
            .create_device(
                pd,
                &vk::DeviceCreateInfo::default().queue_create_infos(&qci),
                None,
            )
            .map_err(e("vkCreateDevice"))?;
        let queue = device.get_device_queue(family, 0);
        let props = instance.get_physical_device_memory_properties(pd);
        let mem_type = |bits: u32, want: vk::MemoryPropertyFlags| {
            (0..props.memory_type_count)
                .find(|&t| {
                    bits >> t & 1 != 0
                        && props.memory_types[t as usize].property_flags.contains(want)
                })
                .ok_or("no suitable memory type")
        };
        let format = vk::Format::R8G8B8A8_UNORM;
        let image = device
            .create_image(
                &vk::ImageCreateInfo::default()
                    .image_type(vk::ImageType::TYPE_2D)
                    .format(format)
                    .extent(vk::Extent3D {
                        width: W,
                        height: H,
                        depth: 1,
                    })
                    .mip_levels(1)
                    .array_layers(1)
                    .samples(vk::SampleCountFlags::TYPE_1)
                    .tiling(vk::ImageTiling::OPTIMAL)
                    .usage(
                        vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
                    ),
                None,
            )
            .map_err(e("vkCreateImage"))?;
        let req = device.get_image_memory_requirements(image);
        let mem = device
            .allocate_memory(
                &vk::MemoryAllocateInfo::default()
                    .allocation_size(req.size)
                    .memory_type_index(mem_type(
                        req.memory_type_bits,
                        vk::MemoryPropertyFlags::empty(),
                    )?),
                None,
            )
            .map_err(e("vkAllocateMemory"))?;
        device
            .bind_image_memory(image, mem, 0)
            .map_err(e("vkBindImageMemory"))?;
        let view = device
            .create_image_view(
                &vk::ImageViewCreateInfo::default()
                    .image(image)
                    .view_type(vk::ImageViewType::TYPE_2D)
                    .format(format)
                    .subresource_range(vk::ImageSubresourceRange {
                        aspect_mask: vk::ImageAspectFlags::COLOR,
                        level_count: 1,
                        layer_count: 1,
                        ..Default::default()
                    }),
                None,
            )
            .map_err(e("vkCreateImageView"))?;
        let bytes = (W * H * 4) as u64;
        let readback = device
            .create_buffer(
                &vk::BufferCreateInfo::default()
                    .size(bytes)
                    .usage(vk::BufferUsageFlags::TRANSFER_DST),
                None,
            )
            .map_err(e("vkCreateBuffer"))?;
        let breq = device.get_buffer_memory_requirements(readback);
        let bmem = device
            .allocate_memory(
                &vk::MemoryAllocateInfo::default()
                    .allocation_size(breq.size)
                    .memory_type_index(mem_type(
                        breq.memory_type_bits,
                        vk::MemoryPropertyFlags::HOST_VISIBLE
                            | vk::MemoryPropertyFlags::HOST_COHERENT,
                    )?),
                None,
            )
            .map_err(e("vkAllocateMemory"))?;
        device
            .bind_buffer_memory(readback, bmem, 0)
            .map_err(e("vkBindBufferMemory"))?;

        let att = [vk::AttachmentDescription::default()
            .format(format)
            .samples(vk::SampleCountFlags::TYPE_1)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .initial_layout(vk::ImageLayout::UNDEFINED)
            .final_layout(vk::ImageLayout::TRANSFER_SRC_OPTIMAL)];
        let cref = [vk::AttachmentReference::default()
            .attachment(0)
            .layout(vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL)];
        let sub = [vk::SubpassDescription::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .color_attachments(&cref)];
        let rp = device
            .create_render_pass(
                &vk::RenderPassCreateInfo::default()
                    .attachments(&att)
                    .subpasses(&sub),
                None,
            )
            .map_err(e("vkCreateRenderPass"))?;
        let views = [view];
        let fb = device
            .create_framebuffer(
                &vk::FramebufferCreateInfo::default()
                    .render_pass(rp)
                    .attachments(&views)
                    .width(W)
                    .height(H)
                    .layers(1),
                None,
            )
            .map_err(e("vkCreateFramebuffer"))?;
        let layout = device
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default(), None)
            .map_err(e("vkCreatePipelineLayout"))?;
        let vm = device
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&vert), None)
            .map_err(e("vkCreateShaderModule"))?;
        let fm = device
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&frag), None)
            .map_err(e("vkCreateShaderModule"))?;
        let stages = [
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::VERTEX)
                .module(vm)
                .name(c"main"),
            vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::FRAGMENT)
                .module(fm)
                .name(c"main"),
        ];
        let vi = vk::PipelineVertexInputStateCreateInfo::default();
        let ia = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(vk::PrimitiveTopology::TRIANGLE_LIST);
        let vp = [vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: W as f32,
            height: H as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        }];
        let sc = [vk::Rect2D {
            offset: vk::Offset2D::default(),
            extent: vk::Extent2D {
                width: W,
                height: H,
            },
        }];
        let vps = vk::PipelineViewportStateCreateInfo::default()
            .viewports(&vp)
            .scissors(&sc);
        let rs = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(vk::CullModeFlags::NONE)
            .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
            .line_width(1.0);
        let ms = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        let cba = [vk::PipelineColorBlendAttachmentState::default()
            .color_write_mask(vk::ColorComponentFlags::RGBA)];
        let cb = vk::PipelineColorBlendStateCreateInfo::default().attachments(&cba);
        let pipeline = device
            .create_graphics_pipelines(
                vk::PipelineCache::null(),
                &[vk::GraphicsPipelineCreateInfo::default()
                    .stages(&stages)
                    .vertex_input_state(&vi)
                    .input_assembly_state(&ia)
                    .viewport_state(&vps)
                    .rasterization_state(&rs)
                    .multisample_state(&ms)
                    .color_blend_state(&cb)
                    .layout(layout)
                    .render_pass(rp)],
                None,
            )
            .map_err(|(_, r)| format!("vkCreateGraphicsPipelines: {r:?}"))?[0];

        let (_pool, cmd) = command_buffer(&device, family)?;
        device
            .begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
            .map_err(e("vkBeginCommandBuffer"))?;
        let clear = [vk::ClearValue {
            color: vk::ClearColorValue {
                float32: [0.0, 0.0, 0.0, 1.0],
            },
        }];
        device.cmd_begin_render_pass(
            cmd,
            &vk::RenderPassBeginInfo::default()
                .render_pass(rp)
                .framebuffer(fb)
                .render_area(sc[0])
                .clear_values(&clear),
            vk::SubpassContents::INLINE,
        );
        device.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
        device.cmd_draw(cmd, 3, 1, 0, 0);
        device.cmd_end_render_pass(cmd);
        let region = [vk::BufferImageCopy::default()
            .image_subresource(vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                layer_count: 1,
                ..Default::default()
            })
            .image_extent(vk::Extent3D {
                width: W,
                height: H,
                depth: 1,
            })];
        device.cmd_copy_image_to_buffer(
            cmd,
            image,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            readback,
            &region,
        );
        let mb = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        device.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::HOST,
            vk::DependencyFlags::empty(),
            &mb,
            &[],
            &[],
        );
        device
            .end_command_buffer(cmd)
            .map_err(e("vkEndCommandBuffer"))?;
        let fence = device
            .create_fence(&vk::FenceCreateInfo::default(), None)
            .map_err(e("vkCreateFence"))?;
        let cmds = [cmd];
        device
            .queue_submit(
                queue,
                &[vk::SubmitInfo::default().command_buffers(&cmds)],
                fence,
            )
            .map_err(e("vkQueueSubmit"))?;
        device
            .wait_for_fences(&[fence], true, u64::MAX)
            .map_err(e("vkWaitForFences"))?;
        let ptr = device
            .map_memory(bmem, 0, bytes, vk::MemoryMapFlags::empty())
            .map_err(e("vkMapMemory"))? as *const u8;
        Ok(std::slice::from_raw_parts(ptr, bytes as usize).to_vec())
    }
}
