//! A 4x multisampled draw through RADV and the shim: RADV programs PA_SC_AA_CONFIG with
//! MSAA_NUM_SAMPLES = 2 (log2 of 4) for a pipeline of rasterizationSamples 4; the shim does not
//! execute multisampled rasterisation yet and must refuse the draw by name rather than draw
//! one sample per pixel. (The pieces that exist: the multisampled layout and MSAA-dim image
//! loads RADV's fragment resolve uses, wavesim_rdna3::exec::image::msaa; the standard sample
//! locations and per-sample coverage, wavesim_rdna3::gfx::msaa.)

use ash::vk;

#[allow(dead_code)]
mod vulkan_draw;
use vulkan_draw::{err, Gpu, FULL_TARGET};

const W: u32 = 64;
const H: u32 = 64;

const VARS: (&str, &str) = ("WAVESIM_RADV_MSAA_CASE", "WAVESIM_RADV_MSAA_OUT");

/// tri.vert/tri.frag into a 64x64 4-sample RGBA8 target (optimal tiling, not cleared).
fn render() -> Result<Vec<u8>, String> {
    let (vert, frag) = (
        vulkan_draw::spv("tri.vert.spv")?,
        vulkan_draw::spv("tri.frag.spv")?,
    );
    // SAFETY: every Vulkan call follows the specification's valid usage: objects are created
    // before use; the process exits after the draw (the driver frees the rest).
    unsafe {
        let gpu = Gpu::graphics()?;
        let d = &gpu.device;
        let format = vk::Format::R8G8B8A8_UNORM;
        let samples = vk::SampleCountFlags::TYPE_4;
        let image = d
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
                    .samples(samples)
                    .tiling(vk::ImageTiling::OPTIMAL)
                    .initial_layout(vk::ImageLayout::UNDEFINED)
                    .usage(vk::ImageUsageFlags::COLOR_ATTACHMENT),
                None,
            )
            .map_err(err("vkCreateImage"))?;
        let mem = gpu.allocate(
            d.get_image_memory_requirements(image),
            vk::MemoryPropertyFlags::empty(),
        )?;
        d.bind_image_memory(image, mem, 0)
            .map_err(err("vkBindImageMemory"))?;
        let (rp, fb) = gpu.render_target_with(
            image,
            (format, samples),
            vk::AttachmentLoadOp::DONT_CARE,
            vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            (
                vk::ImageLayout::UNDEFINED,
                vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            ),
        )?;
        let pl = d
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default(), None)
            .map_err(err("vkCreatePipelineLayout"))?;
        let ms = vk::PipelineMultisampleStateCreateInfo::default().rasterization_samples(samples);
        let pipeline = gpu.full_target_pipeline_with((&vert, &frag), (&ms, None), pl, rp)?;
        let (_pool, cmd) = vulkan_draw::command_buffer(d, gpu.family)?;
        d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
            .map_err(err("vkBeginCommandBuffer"))?;
        d.cmd_begin_render_pass(
            cmd,
            &vk::RenderPassBeginInfo::default()
                .render_pass(rp)
                .framebuffer(fb)
                .render_area(FULL_TARGET),
            vk::SubpassContents::INLINE,
        );
        d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
        d.cmd_draw(cmd, 3, 1, 0, 0);
        d.cmd_end_render_pass(cmd);
        gpu.finish_and_wait(
            cmd,
            vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
            vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
        )?;
        Ok(Vec::new())
    }
}

/// The child process's entry.
#[test]
fn child_entry() {
    let (Ok(_), Ok(out)) = (std::env::var(VARS.0), std::env::var(VARS.1)) else {
        return;
    };
    let bytes = render().unwrap_or_else(|e| panic!("msaa: {e}"));
    std::fs::write(out, bytes).expect("writing the result");
}

/// The 4x draw is refused by name: the shim's message names multisampled rasterisation and
/// its 4 samples.
#[test]
fn a_multisampled_draw_is_refused_by_name() {
    let (o, _) = vulkan_draw::child_output(VARS, "msaa4", true, &[]);
    let log = String::from_utf8_lossy(&o.stderr);
    assert!(
        log.contains("multisampled rasterisation (4 samples, 1 shaded per pixel) is not executed"),
        "the shim did not refuse the 4x draw by name:\n{log}"
    );
}
