//! Mip-mapped textures with optimal tiling as RADV lays them out and fills them: a 40x24
//! R8G8B8A8_UNORM texture with its whole chain (6 levels: 40x24, 20x12, 10x6, 5x3, 2x1, 1x1),
//! each level filled by vkCmdCopyBufferToImage on the compute queue (RADV's compute meta copy:
//! image stores through a view of one level), read by a pixel shader at every level (tests/graphics/mips.frag:
//! texelFetch, i.e. image_load_mip, and textureLod with a nearest-mipmap sampler at the texel
//! centres), and copied back level by level with vkCmdCopyImageToBuffer on the compute queue
//! (image loads through one-level views). RADV lays the texture out 4KB_D_X (swmode=22) with
//! levels 2-5 in the mip tail. Every access goes through wavesim's tiled layout with the mip tail
//! (exec::image::mip_tail, checked against addrlib's addresses in wavesim-rdna3's
//! gfx_image_layout test).
//!
//! Expected values: the drawn 64x64 RGBA8 image equals lavapipe's exactly (every channel is a
//! texel's byte read back without filtering; tests/graphics/goldens/mips.png, written by
//! tools/radv/goldens.sh), and every level copied back equals the bytes uploaded.

use ash::vk;
use std::path::{Path, PathBuf};

#[allow(dead_code)]
mod vulkan_draw;
use vulkan_draw::{err, filled_buffer, Gpu, FULL_TARGET};

const W: u32 = 64;
const H: u32 = 64;
const TEX: (u32, u32) = (40, 24);
const LEVELS: u32 = 6;
const CASE: &str = "mips";

fn level_size(m: u32) -> (u32, u32) {
    ((TEX.0 >> m).max(1), (TEX.1 >> m).max(1))
}

/// Level `m`'s texels, rows packed: a hash of (level, x, y) in every channel, so that a texel
/// read from a wrong place (another level, row or column) shows.
fn level_texels(m: u32) -> Vec<u8> {
    let (w, h) = level_size(m);
    let mut v = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let k = (m * 7919 + y * 131 + x * 17).wrapping_mul(2654435761);
            v.extend_from_slice(&[(k >> 24) as u8, (k >> 16) as u8, (k >> 8) as u8, 255]);
        }
    }
    v
}

/// Renders the case on the process's Vulkan driver: the 64x64 image, then every level copied
/// back (rows packed, level 0 first).
fn render() -> Result<Vec<u8>, String> {
    let spv = |name: &str| vulkan_draw::spv(&format!("{name}.spv"));
    let (vert, frag) = (spv("fullscreen.vert")?, spv("mips.frag")?);
    // SAFETY: every Vulkan call follows the specification's valid usage: objects are created
    // before use; the process exits after reading the result (the driver frees the rest).
    unsafe {
        let gpu = Gpu::graphics()?;
        let d = &gpu.device;
        let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let format = vk::Format::R8G8B8A8_UNORM;
        let all_levels = vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: 0,
            level_count: LEVELS,
            base_array_layer: 0,
            layer_count: 1,
        };
        // The copies run on the compute queue (RADV's compute meta copies: image stores and
        // loads through one-level views; on the graphics queue RADV would copy into the
        // texture with a draw into an R8G8B8A8_UINT view of the level, an integer target the
        // shim's colour-target path does not hold); lavapipe has one queue.
        let (cfamily, cqueue) = gpu.compute.unwrap_or((gpu.family, gpu.queue));
        let families = [gpu.family, cfamily];
        let sharing = if cfamily != gpu.family {
            vk::SharingMode::CONCURRENT
        } else {
            vk::SharingMode::EXCLUSIVE
        };
        let tex = d
            .create_image(
                &vk::ImageCreateInfo::default()
                    .sharing_mode(sharing)
                    .queue_family_indices(&families)
                    .image_type(vk::ImageType::TYPE_2D)
                    .format(format)
                    .extent(vk::Extent3D {
                        width: TEX.0,
                        height: TEX.1,
                        depth: 1,
                    })
                    .mip_levels(LEVELS)
                    .array_layers(1)
                    .samples(vk::SampleCountFlags::TYPE_1)
                    .tiling(vk::ImageTiling::OPTIMAL)
                    .initial_layout(vk::ImageLayout::UNDEFINED)
                    .usage(
                        vk::ImageUsageFlags::SAMPLED
                            | vk::ImageUsageFlags::TRANSFER_DST
                            | vk::ImageUsageFlags::TRANSFER_SRC,
                    ),
                None,
            )
            .map_err(err("vkCreateImage"))?;
        let mem = gpu.allocate(d.get_image_memory_requirements(tex), host)?;
        d.bind_image_memory(tex, mem, 0)
            .map_err(err("vkBindImageMemory"))?;
        // The levels one after another in a buffer, and a buffer to copy them back into.
        let mut upload = Vec::new();
        let mut regions = Vec::new();
        for m in 0..LEVELS {
            let (w, h) = level_size(m);
            regions.push(
                vk::BufferImageCopy::default()
                    .buffer_offset(upload.len() as u64)
                    .image_subresource(vk::ImageSubresourceLayers {
                        aspect_mask: vk::ImageAspectFlags::COLOR,
                        mip_level: m,
                        base_array_layer: 0,
                        layer_count: 1,
                    })
                    .image_extent(vk::Extent3D {
                        width: w,
                        height: h,
                        depth: 1,
                    }),
            );
            upload.extend(level_texels(m));
        }
        let src = filled_buffer(&gpu, vk::BufferUsageFlags::TRANSFER_SRC, &upload)?;
        let back = d
            .create_buffer(
                &vk::BufferCreateInfo::default()
                    .size(upload.len() as u64)
                    .usage(vk::BufferUsageFlags::TRANSFER_DST),
                None,
            )
            .map_err(err("vkCreateBuffer"))?;
        let back_req = d.get_buffer_memory_requirements(back);
        let back_mem = gpu.allocate(back_req, host)?;
        d.bind_buffer_memory(back, back_mem, 0)
            .map_err(err("vkBindBufferMemory"))?;

        // The target: linear, host-visible, rows read through its subresource layout.
        let (target, target_mem) = gpu.color_image(
            format,
            vk::ImageTiling::LINEAR,
            vk::ImageLayout::UNDEFINED,
            vk::ImageUsageFlags::COLOR_ATTACHMENT,
            host,
        )?;
        let layout = d.get_image_subresource_layout(
            target,
            vk::ImageSubresource {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: 0,
                array_layer: 0,
            },
        );
        let general = vk::ImageLayout::GENERAL;
        let (rp, fb) = gpu.render_target(
            target,
            format,
            vk::AttachmentLoadOp::DONT_CARE,
            general,
            (vk::ImageLayout::UNDEFINED, general),
        )?;

        // Set 0: the texture with a nearest, nearest-mipmap, clamp-to-edge sampler.
        let bindings = [vk::DescriptorSetLayoutBinding::default()
            .binding(0)
            .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
            .descriptor_count(1)
            .stage_flags(vk::ShaderStageFlags::FRAGMENT)];
        let set_layout = d
            .create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings),
                None,
            )
            .map_err(err("vkCreateDescriptorSetLayout"))?;
        let set_layouts = [set_layout];
        let pl = d
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts),
                None,
            )
            .map_err(err("vkCreatePipelineLayout"))?;
        let sizes = [vk::DescriptorPoolSize {
            ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
            descriptor_count: 1,
        }];
        let pool = d
            .create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .max_sets(1)
                    .pool_sizes(&sizes),
                None,
            )
            .map_err(err("vkCreateDescriptorPool"))?;
        let set = d
            .allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(pool)
                    .set_layouts(&set_layouts),
            )
            .map_err(err("vkAllocateDescriptorSets"))?[0];
        let view = d
            .create_image_view(
                &vk::ImageViewCreateInfo::default()
                    .image(tex)
                    .view_type(vk::ImageViewType::TYPE_2D)
                    .format(format)
                    .subresource_range(all_levels),
                None,
            )
            .map_err(err("vkCreateImageView"))?;
        let sampler = d
            .create_sampler(
                &vk::SamplerCreateInfo::default()
                    .mag_filter(vk::Filter::NEAREST)
                    .min_filter(vk::Filter::NEAREST)
                    .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
                    .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                    .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                    .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                    .max_lod(vk::LOD_CLAMP_NONE),
                None,
            )
            .map_err(err("vkCreateSampler"))?;
        let info = [vk::DescriptorImageInfo::default()
            .sampler(sampler)
            .image_view(view)
            .image_layout(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL)];
        d.update_descriptor_sets(
            &[vk::WriteDescriptorSet::default()
                .dst_set(set)
                .dst_binding(0)
                .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                .image_info(&info)],
            &[],
        );
        let pipeline = gpu.full_target_pipeline((&vert, &frag), pl, rp)?;

        let (_pool, gcmd) = vulkan_draw::command_buffer(d, gpu.family)?;
        let (_cpool, ccmd) = vulkan_draw::command_buffer(d, cfamily)?;
        let (_cpool2, ccmd2) = vulkan_draw::command_buffer(d, cfamily)?;
        for c in [gcmd, ccmd, ccmd2] {
            d.begin_command_buffer(c, &vk::CommandBufferBeginInfo::default())
                .map_err(err("vkBeginCommandBuffer"))?;
        }
        let barrier =
            |cmd: vk::CommandBuffer,
             access: (vk::AccessFlags, vk::AccessFlags),
             layouts: (vk::ImageLayout, vk::ImageLayout),
             stages: (vk::PipelineStageFlags, vk::PipelineStageFlags)| {
                d.cmd_pipeline_barrier(
                    cmd,
                    stages.0,
                    stages.1,
                    vk::DependencyFlags::empty(),
                    &[],
                    &[],
                    &[vk::ImageMemoryBarrier::default()
                        .src_access_mask(access.0)
                        .dst_access_mask(access.1)
                        .old_layout(layouts.0)
                        .new_layout(layouts.1)
                        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                        .image(tex)
                        .subresource_range(all_levels)],
                );
            };
        use vk::{AccessFlags as A, ImageLayout as L, PipelineStageFlags as S};
        barrier(
            ccmd,
            (A::empty(), A::TRANSFER_WRITE),
            (L::UNDEFINED, L::TRANSFER_DST_OPTIMAL),
            (S::TOP_OF_PIPE, S::TRANSFER),
        );
        d.cmd_copy_buffer_to_image(ccmd, src, tex, L::TRANSFER_DST_OPTIMAL, &regions);
        barrier(
            ccmd,
            (A::TRANSFER_WRITE, A::SHADER_READ),
            (L::TRANSFER_DST_OPTIMAL, L::SHADER_READ_ONLY_OPTIMAL),
            (S::TRANSFER, S::BOTTOM_OF_PIPE),
        );
        gpu.end_submit_and_wait(cqueue, ccmd)?;
        let cmd = gcmd;
        d.cmd_begin_render_pass(
            cmd,
            &vk::RenderPassBeginInfo::default()
                .render_pass(rp)
                .framebuffer(fb)
                .render_area(FULL_TARGET),
            vk::SubpassContents::INLINE,
        );
        d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
        d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::GRAPHICS, pl, 0, &[set], &[]);
        d.cmd_draw(cmd, 3, 1, 0, 0);
        d.cmd_end_render_pass(cmd);
        gpu.finish_and_wait(cmd, S::COLOR_ATTACHMENT_OUTPUT, A::COLOR_ATTACHMENT_WRITE)?;
        barrier(
            ccmd2,
            (A::SHADER_READ, A::TRANSFER_READ),
            (L::SHADER_READ_ONLY_OPTIMAL, L::TRANSFER_SRC_OPTIMAL),
            (S::TOP_OF_PIPE, S::TRANSFER),
        );
        d.cmd_copy_image_to_buffer(ccmd2, tex, L::TRANSFER_SRC_OPTIMAL, back, &regions);
        d.cmd_pipeline_barrier(
            ccmd2,
            S::TRANSFER,
            S::HOST,
            vk::DependencyFlags::empty(),
            &[vk::MemoryBarrier::default()
                .src_access_mask(A::TRANSFER_WRITE)
                .dst_access_mask(A::HOST_READ)],
            &[],
            &[],
        );
        gpu.end_submit_and_wait(cqueue, ccmd2)?;
        let ptr = d
            .map_memory(target_mem, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
            .map_err(err("vkMapMemory"))? as *const u8;
        let mut out = Vec::new();
        for y in 0..H as usize {
            let at = layout.offset as usize + y * layout.row_pitch as usize;
            out.extend_from_slice(std::slice::from_raw_parts(ptr.add(at), 4 * W as usize));
        }
        let bp = d
            .map_memory(back_mem, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty())
            .map_err(err("vkMapMemory"))? as *const u8;
        out.extend_from_slice(std::slice::from_raw_parts(bp, upload.len()));
        Ok(out)
    }
}

const VARS: (&str, &str) = ("WAVESIM_RADV_MIPS_CASE", "WAVESIM_RADV_MIPS_OUT");

/// The child process's entry: renders the case into WAVESIM_RADV_MIPS_OUT.
#[test]
fn child_entry() {
    let (Ok(_), Ok(out)) = (std::env::var(VARS.0), std::env::var(VARS.1)) else {
        return;
    };
    let bytes = render().unwrap_or_else(|e| panic!("{CASE}: {e}"));
    std::fs::write(out, bytes).expect("writing the result");
}

fn golden_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/graphics/goldens/{CASE}.png"))
}

fn uploaded() -> Vec<u8> {
    (0..LEVELS).flat_map(level_texels).collect()
}

/// RADV's machine code on wavesim reads every level of the tiled chain as lavapipe does, and
/// its copies put every level back where the upload put it.
#[test]
fn radv_reads_and_copies_every_tiled_level() {
    let env = [("RADV_DEBUG", "img")];
    let (o, got) = vulkan_draw::child_output(VARS, CASE, true, &env);
    let log = String::from_utf8_lossy(&o.stderr);
    let got = got
        .filter(|_| o.status.success() && !log.contains("wavesim-drm:"))
        .unwrap_or_else(|| panic!("RADV + shim failed:\n{log}"));
    // RADV_DEBUG=img: the texture has the 6 levels and is 4KB_D_X (its surface line follows
    // its info and plane lines).
    let lines: Vec<&str> = log.lines().collect();
    let at = lines
        .iter()
        .position(|l| l.contains("width=40, height=24, array_size=1, levels=6"))
        .unwrap_or_else(|| panic!("no 40x24 texture of 6 levels:\n{log}"));
    assert!(
        lines.get(at + 2).is_some_and(|l| l.contains("swmode=22,")),
        "the texture is not 4KB_D_X:\n{log}"
    );
    let n = (4 * W * H) as usize;
    let (image, levels) = got.split_at(n);
    assert_eq!(levels, uploaded().as_slice(), "the levels copied back");
    let file = std::fs::File::open(golden_path()).expect("the golden (tools/radv/goldens.sh)");
    let mut reader = png::Decoder::new(file).read_info().expect("a PNG golden");
    let mut want = vec![0; reader.output_buffer_size()];
    reader.next_frame(&mut want).expect("the golden's pixels");
    let bad: Vec<(usize, usize)> = (0..n / 4)
        .filter(|&i| image[4 * i..4 * i + 4] != want[4 * i..4 * i + 4])
        .map(|i| (i % W as usize, i / W as usize))
        .collect();
    assert!(
        bad.is_empty(),
        "{} pixels differ, first {:?}",
        bad.len(),
        &bad[..bad.len().min(8)]
    );
    // Every level shows in the image: its rows hold its texels.
    assert_ne!(image[..4], image[4 * (W as usize * 50)..][..4]);
}

/// Writes the golden from lavapipe (tools/radv/goldens.sh runs this).
#[test]
#[ignore]
fn write_golden() {
    let got = vulkan_draw::child_bytes(VARS, CASE, false, &[]).unwrap_or_else(|e| panic!("{e}"));
    let (image, levels) = got.split_at((4 * W * H) as usize);
    assert_eq!(
        levels,
        uploaded().as_slice(),
        "lavapipe's levels copied back"
    );
    let file = std::io::BufWriter::new(std::fs::File::create(golden_path()).unwrap());
    let mut enc = png::Encoder::new(file, W, H);
    enc.set_color(png::ColorType::Rgba);
    enc.set_depth(png::BitDepth::Eight);
    enc.set_compression(png::Compression::Best);
    enc.write_header().unwrap().write_image_data(image).unwrap();
}
