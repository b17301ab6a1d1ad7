//! What the Vulkan tests share: the child-process runner (each Vulkan run is this test binary
//! again, so the ICD and LD_PRELOAD apply to it alone), the graphics device and the pieces of a
//! graphics pipeline (image, render pass, pipeline, submission) that `radv_draw.rs` and
//! `vulkan_compute.rs` both build; and one triangle drawn with Vulkan (the `tri` pipeline of
//! tests/graphics: tri.vert + tri.frag, a 64x64 R8G8B8A8_UNORM colour target cleared by the
//! render pass), as tests/graphics/draw.c draws it, for `vulkan_compute.rs`'s child process.
//! Vulkan helpers return the failing call and its result.

use ash::vk;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

pub const RADV_ICD: &str = "/usr/share/vulkan/icd.d/radeon_icd.x86_64.json";
pub const LAVAPIPE_ICD: &str = "/usr/share/vulkan/icd.d/lvp_icd.x86_64.json";

const W: u32 = 64;
const H: u32 = 64;

/// The shim library cargo built with this test: `cargo test` leaves the cdylib beside the test
/// binary in target/<profile>/deps/ (only `cargo build` copies it up to target/<profile>/).
pub fn shim_library() -> PathBuf {
    let exe = std::env::current_exe().expect("test binary path");
    let deps = exe.parent().expect("test binary directory");
    let candidates = [
        deps.to_path_buf(),
        deps.parent().expect("target directory").to_path_buf(),
    ];
    candidates
        .iter()
        .map(|d| d.join("libwavesim_drm_amdgpu.so"))
        .find(|lib| lib.exists())
        .unwrap_or_else(|| panic!("libwavesim_drm_amdgpu.so is in neither {candidates:?}"))
}

pub fn require(path: &str, package: &str) {
    assert!(
        Path::new(path).exists(),
        "{path} is missing: install Debian's {package}"
    );
}

/// Runs this test binary's `child_entry` with `name_var`=`name` and `out_var`= a temporary
/// file, on RADV through the shim (`radv`) or on lavapipe, with extra environment variables;
/// returns its output and the file it wrote (None: it wrote none).
pub fn child_output(
    (name_var, out_var): (&str, &str),
    name: &str,
    radv: bool,
    env: &[(&str, &str)],
) -> (Output, Option<Vec<u8>>) {
    // Tests of one binary run in parallel and may run the same case on the same driver (the
    // linear and optimal-tiling radv_draw tests do): each child gets its own file.
    static CHILD: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let out = std::env::temp_dir().join(format!(
        "wavesim-{}-{name}-{}-{}-{}.bin",
        name_var.to_lowercase(),
        if radv { "radv" } else { "lvp" },
        std::process::id(),
        CHILD.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    let icd = if radv { RADV_ICD } else { LAVAPIPE_ICD };
    require(icd, "mesa-vulkan-drivers");
    let mut cmd = Command::new(std::env::current_exe().expect("test binary"));
    cmd.args(["--exact", "child_entry", "--nocapture", "--test-threads=1"])
        .env(name_var, name)
        .env(out_var, &out)
        .env("XDG_RUNTIME_DIR", std::env::temp_dir())
        // Mesa's shader cache would hide compile work between runs; keep runs independent.
        .env("MESA_SHADER_CACHE_DISABLE", "true")
        .env("VK_ICD_FILENAMES", icd)
        // A capture asked of the parent is not one of the child's (`env` may ask for one).
        .env_remove("WAVESIM_DRM_CAPTURE")
        .env_remove("VK_LOADER_LAYERS_ENABLE");
    if radv {
        cmd.env("LD_PRELOAD", shim_library());
    } else {
        cmd.env_remove("LD_PRELOAD");
    }
    cmd.envs(env.iter().copied());
    let o = cmd.output().expect("running the child");
    let bytes = std::fs::read(&out).ok();
    let _ = std::fs::remove_file(&out);
    (o, bytes)
}

/// [`child_output`]'s file from a run that succeeded and on which the shim refused nothing
/// (no message of the shim on stderr); Err: the failure, with the child's stdout and stderr.
pub fn child_bytes(
    vars: (&str, &str),
    name: &str,
    radv: bool,
    env: &[(&str, &str)],
) -> Result<Vec<u8>, String> {
    let (o, bytes) = child_output(vars, name, radv, env);
    let quiet = !String::from_utf8_lossy(&o.stderr).contains("wavesim-drm:");
    match bytes {
        Some(b) if o.status.success() && quiet => Ok(b),
        _ => Err(format!(
            "{name} on {} failed ({}):\n{}\n{}",
            if radv { "RADV + shim" } else { "lavapipe" },
            o.status,
            String::from_utf8_lossy(&o.stdout),
            String::from_utf8_lossy(&o.stderr)
        )),
    }
}

/// The words of tests/graphics/`name` (a SPIR-V file).
pub fn spv(name: &str) -> Result<Vec<u32>, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/graphics")
        .join(name);
    let b = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(b.chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

/// A Vulkan result as the error of the call `what`.
pub fn err(what: &'static str) -> impl Fn(vk::Result) -> String {
    move |r: vk::Result| format!("{what}: {r:?}")
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

/// A device with one queue of the first graphics family, and the memory types to allocate from.
pub struct Gpu {
    /// The loader; kept so that it outlives the instance.
    pub entry: ash::Entry,
    pub instance: ash::Instance,
    pub device: ash::Device,
    pub family: u32,
    pub queue: vk::Queue,
    /// A compute-only queue family and its queue, when the driver has one (RADV's compute
    /// ring; lavapipe has none).
    pub compute: Option<(u32, vk::Queue)>,
    props: vk::PhysicalDeviceMemoryProperties,
}

impl Gpu {
    /// # Safety
    /// Vulkan calls; the caller destroys the device and instance (or exits).
    pub unsafe fn graphics() -> Result<Gpu, String> {
        Self::graphics_with(&vk::PhysicalDeviceFeatures::default())
    }

    /// [`Gpu::graphics`] with the device `features` enabled.
    ///
    /// # Safety
    /// As [`Gpu::graphics`].
    pub unsafe fn graphics_with(features: &vk::PhysicalDeviceFeatures) -> Result<Gpu, String> {
        let (entry, instance, pd) = first_device()?;
        let families = instance.get_physical_device_queue_family_properties(pd);
        let family = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::GRAPHICS))
            .ok_or("no graphics queue")? as u32;
        let compute_family = families
            .iter()
            .position(|f| {
                f.queue_flags.contains(vk::QueueFlags::COMPUTE)
                    && !f.queue_flags.contains(vk::QueueFlags::GRAPHICS)
            })
            .map(|f| f as u32);
        let prio = [1.0f32];
        let mut qci = vec![vk::DeviceQueueCreateInfo::default()
            .queue_family_index(family)
            .queue_priorities(&prio)];
        if let Some(c) = compute_family {
            qci.push(
                vk::DeviceQueueCreateInfo::default()
                    .queue_family_index(c)
                    .queue_priorities(&prio),
            );
        }
        let device = instance
            .create_device(
                pd,
                &vk::DeviceCreateInfo::default()
                    .queue_create_infos(&qci)
                    .enabled_features(features),
                None,
            )
            .map_err(err("vkCreateDevice"))?;
        let queue = device.get_device_queue(family, 0);
        let compute = compute_family.map(|c| (c, device.get_device_queue(c, 0)));
        let props = instance.get_physical_device_memory_properties(pd);
        Ok(Gpu {
            entry,
            instance,
            device,
            family,
            queue,
            compute,
            props,
        })
    }

    /// Memory for `req` from the first type allowed by it that has the `want` properties.
    ///
    /// # Safety
    /// Vulkan calls on a valid device.
    pub unsafe fn allocate(
        &self,
        req: vk::MemoryRequirements,
        want: vk::MemoryPropertyFlags,
    ) -> Result<vk::DeviceMemory, String> {
        let bits = req.memory_type_bits;
        let t = (0..self.props.memory_type_count)
            .find(|&t| {
                bits >> t & 1 != 0
                    && self.props.memory_types[t as usize]
                        .property_flags
                        .contains(want)
            })
            .ok_or("no suitable memory type")?;
        self.device
            .allocate_memory(
                &vk::MemoryAllocateInfo::default()
                    .allocation_size(req.size)
                    .memory_type_index(t),
                None,
            )
            .map_err(err("vkAllocateMemory"))
    }

    /// A W x H 2D colour image of `format`, one level and layer, one sample, bound to memory
    /// with the `mem` properties; and that memory.
    ///
    /// # Safety
    /// Vulkan calls on a valid device.
    pub unsafe fn color_image(
        &self,
        format: vk::Format,
        tiling: vk::ImageTiling,
        initial_layout: vk::ImageLayout,
        usage: vk::ImageUsageFlags,
        mem: vk::MemoryPropertyFlags,
    ) -> Result<(vk::Image, vk::DeviceMemory), String> {
        self.color_image_sized((W, H), format, tiling, initial_layout, usage, mem)
    }

    /// [`Gpu::color_image`] of `size` texels.
    ///
    /// # Safety
    /// As [`Gpu::color_image`].
    pub unsafe fn color_image_sized(
        &self,
        size: (u32, u32),
        format: vk::Format,
        tiling: vk::ImageTiling,
        initial_layout: vk::ImageLayout,
        usage: vk::ImageUsageFlags,
        mem: vk::MemoryPropertyFlags,
    ) -> Result<(vk::Image, vk::DeviceMemory), String> {
        let one = vk::SampleCountFlags::TYPE_1;
        self.color_image_with(size, (format, one), tiling, initial_layout, usage, mem)
    }

    /// [`Gpu::color_image_sized`] of `samples` samples per texel.
    ///
    /// # Safety
    /// As [`Gpu::color_image`].
    pub unsafe fn color_image_with(
        &self,
        (width, height): (u32, u32),
        (format, samples): (vk::Format, vk::SampleCountFlags),
        tiling: vk::ImageTiling,
        initial_layout: vk::ImageLayout,
        usage: vk::ImageUsageFlags,
        mem: vk::MemoryPropertyFlags,
    ) -> Result<(vk::Image, vk::DeviceMemory), String> {
        let image = self
            .device
            .create_image(
                &vk::ImageCreateInfo::default()
                    .image_type(vk::ImageType::TYPE_2D)
                    .format(format)
                    .extent(vk::Extent3D {
                        width,
                        height,
                        depth: 1,
                    })
                    .mip_levels(1)
                    .array_layers(1)
                    .samples(samples)
                    .tiling(tiling)
                    .initial_layout(initial_layout)
                    .usage(usage),
                None,
            )
            .map_err(err("vkCreateImage"))?;
        let memory = self.allocate(self.device.get_image_memory_requirements(image), mem)?;
        self.device
            .bind_image_memory(image, memory, 0)
            .map_err(err("vkBindImageMemory"))?;
        Ok((image, memory))
    }

    /// A view of `image`'s colour, a one-subpass render pass with it as the only colour
    /// attachment (`load_op`, in `layout` during the subpass, `layouts` before and after), and
    /// a W x H framebuffer of that view.
    ///
    /// # Safety
    /// Vulkan calls on a valid device and image.
    pub unsafe fn render_target(
        &self,
        image: vk::Image,
        format: vk::Format,
        load_op: vk::AttachmentLoadOp,
        layout: vk::ImageLayout,
        layouts: (vk::ImageLayout, vk::ImageLayout),
    ) -> Result<(vk::RenderPass, vk::Framebuffer), String> {
        let one = vk::SampleCountFlags::TYPE_1;
        self.render_target_with(image, (format, one), load_op, layout, layouts)
    }

    /// [`Gpu::render_target`] for an image of `samples` samples per pixel.
    ///
    /// # Safety
    /// As [`Gpu::render_target`].
    pub unsafe fn render_target_with(
        &self,
        image: vk::Image,
        (format, samples): (vk::Format, vk::SampleCountFlags),
        load_op: vk::AttachmentLoadOp,
        layout: vk::ImageLayout,
        (initial, last): (vk::ImageLayout, vk::ImageLayout),
    ) -> Result<(vk::RenderPass, vk::Framebuffer), String> {
        let d = &self.device;
        let view = d
            .create_image_view(
                &vk::ImageViewCreateInfo::default()
                    .image(image)
                    .view_type(vk::ImageViewType::TYPE_2D)
                    .format(format)
                    .subresource_range(COLOR_RANGE),
                None,
            )
            .map_err(err("vkCreateImageView"))?;
        let att = [vk::AttachmentDescription::default()
            .format(format)
            .samples(samples)
            .load_op(load_op)
            .store_op(vk::AttachmentStoreOp::STORE)
            .initial_layout(initial)
            .final_layout(last)];
        let cref = [vk::AttachmentReference::default()
            .attachment(0)
            .layout(layout)];
        let sub = [vk::SubpassDescription::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .color_attachments(&cref)];
        let rp = d
            .create_render_pass(
                &vk::RenderPassCreateInfo::default()
                    .attachments(&att)
                    .subpasses(&sub),
                None,
            )
            .map_err(err("vkCreateRenderPass"))?;
        let views = [view];
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
        Ok((rp, fb))
    }

    /// A graphics pipeline of `vert` and `frag` (entry points `main`) with single-sample
    /// rasterisation and the given state, for subpass 0 of `rp`.
    ///
    /// # Safety
    /// Vulkan calls on a valid device; `state` describes valid pipeline state.
    pub unsafe fn pipeline(
        &self,
        shaders: (&[u32], &[u32]),
        state: &PipelineState,
        layout: vk::PipelineLayout,
        rp: vk::RenderPass,
    ) -> Result<vk::Pipeline, String> {
        let ms = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        self.pipeline_with(shaders, state, (&ms, None), layout, rp)
    }

    /// [`Gpu::pipeline`] with the given multisample state and, if any, depth/stencil state.
    ///
    /// # Safety
    /// As [`Gpu::pipeline`].
    pub unsafe fn pipeline_with(
        &self,
        (vert, frag): (&[u32], &[u32]),
        state: &PipelineState,
        (ms, ds): (
            &vk::PipelineMultisampleStateCreateInfo,
            Option<&vk::PipelineDepthStencilStateCreateInfo>,
        ),
        layout: vk::PipelineLayout,
        rp: vk::RenderPass,
    ) -> Result<vk::Pipeline, String> {
        let d = &self.device;
        let vm = d
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(vert), None)
            .map_err(err("vkCreateShaderModule"))?;
        let fm = d
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(frag), None)
            .map_err(err("vkCreateShaderModule"))?;
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
        let mut info = vk::GraphicsPipelineCreateInfo::default()
            .stages(&stages)
            .vertex_input_state(state.vertex_input)
            .input_assembly_state(state.input_assembly)
            .viewport_state(state.viewport)
            .rasterization_state(state.rasterization)
            .multisample_state(ms)
            .color_blend_state(state.color_blend)
            .layout(layout)
            .render_pass(rp);
        if let Some(ds) = ds {
            info = info.depth_stencil_state(ds);
        }
        Ok(
            d.create_graphics_pipelines(vk::PipelineCache::null(), &[info], None)
                .map_err(|(_, r)| format!("vkCreateGraphicsPipelines: {r:?}"))?[0],
        )
    }

    /// [`Gpu::pipeline`] for the plainest draw: a triangle list without vertex input over the
    /// whole W x H target (viewport and scissor), no culling, one colour attachment written
    /// without blending.
    ///
    /// # Safety
    /// As [`Gpu::pipeline`].
    pub unsafe fn full_target_pipeline(
        &self,
        shaders: (&[u32], &[u32]),
        layout: vk::PipelineLayout,
        rp: vk::RenderPass,
    ) -> Result<vk::Pipeline, String> {
        let ms = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(vk::SampleCountFlags::TYPE_1);
        self.full_target_pipeline_with(shaders, (&ms, None), layout, rp)
    }

    /// [`Gpu::full_target_pipeline`] with the given multisample and depth/stencil state.
    ///
    /// # Safety
    /// As [`Gpu::pipeline`].
    pub unsafe fn full_target_pipeline_with(
        &self,
        shaders: (&[u32], &[u32]),
        more: (
            &vk::PipelineMultisampleStateCreateInfo,
            Option<&vk::PipelineDepthStencilStateCreateInfo>,
        ),
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
        let cba = [vk::PipelineColorBlendAttachmentState::default()
            .color_write_mask(vk::ColorComponentFlags::RGBA)];
        self.pipeline_with(
            shaders,
            &PipelineState {
                vertex_input: &vk::PipelineVertexInputStateCreateInfo::default(),
                input_assembly: &vk::PipelineInputAssemblyStateCreateInfo::default()
                    .topology(vk::PrimitiveTopology::TRIANGLE_LIST),
                viewport: &vk::PipelineViewportStateCreateInfo::default()
                    .viewports(&vp)
                    .scissors(&sc),
                rasterization: &vk::PipelineRasterizationStateCreateInfo::default()
                    .polygon_mode(vk::PolygonMode::FILL)
                    .cull_mode(vk::CullModeFlags::NONE)
                    .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
                    .line_width(1.0),
                color_blend: &vk::PipelineColorBlendStateCreateInfo::default().attachments(&cba),
            },
            more,
            layout,
            rp,
        )
    }

    /// Records a barrier making `src_access` writes of `src_stage` visible to host reads, ends
    /// `cmd`, submits it and waits for it.
    ///
    /// # Safety
    /// Vulkan calls; `cmd` is a recording command buffer of this device's queue family.
    pub unsafe fn finish_and_wait(
        &self,
        cmd: vk::CommandBuffer,
        src_stage: vk::PipelineStageFlags,
        src_access: vk::AccessFlags,
    ) -> Result<(), String> {
        let d = &self.device;
        let mb = [vk::MemoryBarrier::default()
            .src_access_mask(src_access)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        d.cmd_pipeline_barrier(
            cmd,
            src_stage,
            vk::PipelineStageFlags::HOST,
            vk::DependencyFlags::empty(),
            &mb,
            &[],
            &[],
        );
        self.end_submit_and_wait(self.queue, cmd)
    }

    /// Ends `cmd`, submits it to `queue` and waits for it.
    ///
    /// # Safety
    /// `cmd` is a recording command buffer of `queue`'s family.
    pub unsafe fn end_submit_and_wait(
        &self,
        queue: vk::Queue,
        cmd: vk::CommandBuffer,
    ) -> Result<(), String> {
        let d = &self.device;
        d.end_command_buffer(cmd)
            .map_err(err("vkEndCommandBuffer"))?;
        let fence = d
            .create_fence(&vk::FenceCreateInfo::default(), None)
            .map_err(err("vkCreateFence"))?;
        let cmds = [cmd];
        d.queue_submit(
            queue,
            &[vk::SubmitInfo::default().command_buffers(&cmds)],
            fence,
        )
        .map_err(err("vkQueueSubmit"))?;
        d.wait_for_fences(&[fence], true, u64::MAX)
            .map_err(err("vkWaitForFences"))
    }
}

/// The fixed-function state [`Gpu::pipeline`] takes from its caller.
pub struct PipelineState<'a> {
    pub vertex_input: &'a vk::PipelineVertexInputStateCreateInfo<'a>,
    pub input_assembly: &'a vk::PipelineInputAssemblyStateCreateInfo<'a>,
    pub viewport: &'a vk::PipelineViewportStateCreateInfo<'a>,
    pub rasterization: &'a vk::PipelineRasterizationStateCreateInfo<'a>,
    pub color_blend: &'a vk::PipelineColorBlendStateCreateInfo<'a>,
}

/// The whole W x H target.
pub const FULL_TARGET: vk::Rect2D = vk::Rect2D {
    offset: vk::Offset2D { x: 0, y: 0 },
    extent: vk::Extent2D {
        width: W,
        height: H,
    },
};

/// The colour aspect's first level and layer.
pub const COLOR_RANGE: vk::ImageSubresourceRange = vk::ImageSubresourceRange {
    aspect_mask: vk::ImageAspectFlags::COLOR,
    base_mip_level: 0,
    level_count: 1,
    base_array_layer: 0,
    layer_count: 1,
};

/// A host-visible, coherent TRANSFER_DST buffer of `bytes` bytes and its memory.
///
/// # Safety
/// Vulkan calls on `gpu`'s device.
pub unsafe fn readback_buffer(
    gpu: &Gpu,
    bytes: u64,
) -> Result<(vk::Buffer, vk::DeviceMemory), String> {
    let d = &gpu.device;
    let b = d
        .create_buffer(
            &vk::BufferCreateInfo::default()
                .size(bytes)
                .usage(vk::BufferUsageFlags::TRANSFER_DST),
            None,
        )
        .map_err(err("vkCreateBuffer"))?;
    let m = gpu.allocate(
        d.get_buffer_memory_requirements(b),
        vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT,
    )?;
    d.bind_buffer_memory(b, m, 0)
        .map_err(err("vkBindBufferMemory"))?;
    Ok((b, m))
}

/// A copy of a W x H image's colour (level 0, layer 0) to a buffer, rows packed.
pub const WHOLE_COLOR_COPY: [vk::BufferImageCopy; 1] = [vk::BufferImageCopy {
    buffer_offset: 0,
    buffer_row_length: 0,
    buffer_image_height: 0,
    image_subresource: vk::ImageSubresourceLayers {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        mip_level: 0,
        base_array_layer: 0,
        layer_count: 1,
    },
    image_offset: vk::Offset3D { x: 0, y: 0, z: 0 },
    image_extent: vk::Extent3D {
        width: W,
        height: H,
        depth: 1,
    },
}];

/// The triangle of the module comment; the target's bytes (64x64 RGBA8, rows packed).
pub fn draw_triangle() -> Result<Vec<u8>, String> {
    let (vert, frag) = (spv("tri.vert.spv")?, spv("tri.frag.spv")?);
    // SAFETY: every Vulkan call follows the specification's valid usage: objects are created
    // before use; the process exits after reading the result (the driver frees the rest).
    unsafe {
        let gpu = Gpu::graphics()?;
        let device = &gpu.device;
        let format = vk::Format::R8G8B8A8_UNORM;
        let (image, _) = gpu.color_image(
            format,
            vk::ImageTiling::OPTIMAL,
            vk::ImageLayout::UNDEFINED,
            vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
            vk::MemoryPropertyFlags::empty(),
        )?;
        let bytes = (W * H * 4) as u64;
        let (readback, bmem) = readback_buffer(&gpu, bytes)?;
        let (rp, fb) = gpu.render_target(
            image,
            format,
            vk::AttachmentLoadOp::CLEAR,
            vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            (
                vk::ImageLayout::UNDEFINED,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            ),
        )?;
        let layout = device
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default(), None)
            .map_err(err("vkCreatePipelineLayout"))?;
        let pipeline = gpu.full_target_pipeline((&vert, &frag), layout, rp)?;

        let (_pool, cmd) = command_buffer(device, gpu.family)?;
        device
            .begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
            .map_err(err("vkBeginCommandBuffer"))?;
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
                .render_area(FULL_TARGET)
                .clear_values(&clear),
            vk::SubpassContents::INLINE,
        );
        device.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
        device.cmd_draw(cmd, 3, 1, 0, 0);
        device.cmd_end_render_pass(cmd);
        device.cmd_copy_image_to_buffer(
            cmd,
            image,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            readback,
            &WHOLE_COLOR_COPY,
        );
        gpu.finish_and_wait(
            cmd,
            vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::TRANSFER_WRITE,
        )?;
        let ptr = device
            .map_memory(bmem, 0, bytes, vk::MemoryMapFlags::empty())
            .map_err(err("vkMapMemory"))? as *const u8;
        Ok(std::slice::from_raw_parts(ptr, bytes as usize).to_vec())
    }
}

/// A corpus's known.txt (`NAME refused|differs: why` lines, `#` comments): the pipelines that do
/// not match, by name: (refused, why). A missing file lists none.
pub fn known_outcomes(path: &Path) -> std::collections::BTreeMap<String, (bool, String)> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let (name, rest) = l.split_once(' ').expect("NAME outcome: why");
            let (outcome, why) = rest.split_once(": ").expect("NAME outcome: why");
            assert!(matches!(outcome, "refused" | "differs"), "known.txt: {l}");
            (name.to_string(), (outcome == "refused", why.to_string()))
        })
        .collect()
}

/// A corpus's pipeline names: every NAME.txt in `dir` but status.txt and known.txt, sorted.
pub fn corpus_names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .filter_map(|e| {
            let n = e.ok()?.file_name().into_string().ok()?;
            let stem = n.strip_suffix(".txt")?;
            (stem != "status" && stem != "known").then(|| stem.to_string())
        })
        .collect();
    v.sort();
    v
}

/// A buffer for `usage` in host-visible memory holding `bytes` (at least 16 bytes long).
///
/// # Safety
/// Vulkan calls on `gpu`'s device.
pub unsafe fn filled_buffer(
    gpu: &Gpu,
    usage: vk::BufferUsageFlags,
    bytes: &[u8],
) -> Result<vk::Buffer, String> {
    let d = &gpu.device;
    let b = d
        .create_buffer(
            &vk::BufferCreateInfo::default()
                .size(bytes.len().max(16) as u64)
                .usage(usage),
            None,
        )
        .map_err(err("vkCreateBuffer"))?;
    let req = d.get_buffer_memory_requirements(b);
    let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
    let m = gpu.allocate(req, host)?;
    d.bind_buffer_memory(b, m, 0)
        .map_err(err("vkBindBufferMemory"))?;
    let ptr = d
        .map_memory(m, 0, req.size, vk::MemoryMapFlags::empty())
        .map_err(err("vkMapMemory"))? as *mut u8;
    std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr, bytes.len());
    Ok(b)
}

/// A shader-db pipeline's uniform buffers, as its manifest (NAME.txt) lists them: `ubo SIZE`,
/// the loose uniforms (NAME.ubo, set 0 binding 0), and `block K SIZE`, the named blocks
/// (NAME.blockK, set 2 binding K). Shared by radv_shader_db.rs and radv_shader_db_vs.rs.
#[derive(Default)]
pub struct Uniforms {
    pub ubo: Option<Vec<u8>>,
    pub blocks: Vec<(u32, Vec<u8>)>,
}

impl Uniforms {
    /// Takes manifest line `fields` of pipeline `name` (files in `dir`) if it is a `ubo` or
    /// `block` line, reading the bytes it names and checking their size: Ok(false) for any
    /// other line.
    pub fn take_line(&mut self, dir: &Path, name: &str, fields: &[&str]) -> Result<bool, String> {
        let bad = || format!("{name}.txt: bad line {:?}", fields.join(" "));
        let read = |file: String, size: &str| {
            let bytes = std::fs::read(dir.join(&file)).map_err(|e| format!("{file}: {e}"))?;
            if size.parse::<usize>().ok() != Some(bytes.len()) {
                return Err(bad());
            }
            Ok(bytes)
        };
        match fields {
            ["ubo", size] => self.ubo = Some(read(format!("{name}.ubo"), size)?),
            ["block", k, size] => {
                let k: u32 = k.parse().map_err(|_| bad())?;
                self.blocks
                    .push((k, read(format!("{name}.block{k}"), size)?));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The layout bindings of set 0 (the loose uniforms, if any) and set 2 (the named blocks)
    /// for shaders of `stage`.
    pub fn layout_bindings(
        &self,
        stage: vk::ShaderStageFlags,
    ) -> (
        Vec<vk::DescriptorSetLayoutBinding<'static>>,
        Vec<vk::DescriptorSetLayoutBinding<'static>>,
    ) {
        let binding = |k: u32| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(k)
                .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                .descriptor_count(1)
                .stage_flags(stage)
        };
        (
            self.ubo.iter().map(|_| binding(0)).collect(),
            self.blocks.iter().map(|&(k, _)| binding(k)).collect(),
        )
    }

    /// Uniform-buffer descriptors a pool must hold for them (at least one).
    pub fn descriptor_count(&self) -> u32 {
        1 + self.blocks.len() as u32
    }

    /// Fills a buffer with each one's bytes and writes its descriptor into `sets` (set 0
    /// binding 0, set 2 binding K).
    ///
    /// # Safety
    /// Vulkan calls on `gpu`'s device; `sets` holds at least three sets allocated with the
    /// layouts of [`Uniforms::layout_bindings`] at 0 and 2.
    pub unsafe fn bind(&self, gpu: &Gpu, sets: &[vk::DescriptorSet]) -> Result<(), String> {
        let ubos = self
            .ubo
            .iter()
            .map(|b| (0, 0, b))
            .chain(self.blocks.iter().map(|(k, b)| (2, *k, b)));
        for (set, binding, bytes) in ubos {
            let b = filled_buffer(gpu, vk::BufferUsageFlags::UNIFORM_BUFFER, bytes)?;
            let info = [vk::DescriptorBufferInfo {
                buffer: b,
                offset: 0,
                range: vk::WHOLE_SIZE,
            }];
            gpu.device.update_descriptor_sets(
                &[vk::WriteDescriptorSet::default()
                    .dst_set(sets[set])
                    .dst_binding(binding)
                    .descriptor_type(vk::DescriptorType::UNIFORM_BUFFER)
                    .buffer_info(&info)],
                &[],
            );
        }
        Ok(())
    }
}
