//! Application shaders through RADV on wavesim: shader-db's GLSL fragment shaders (games and
//! benchmarks), rewritten for Vulkan and compiled to SPIR-V by tools/radv/shader_db.py into
//! corpus/radv/shader-db/, each drawn by RADV's machine code through the shim and compared with
//! lavapipe's rendering of the same pipeline (NAME.png, written by
//! tools/radv/shader_db_goldens.sh).
//!
//! Each pipeline: the generated vertex shader's two triangles cover a 64x64 R8G8B8A8_UNORM
//! target (linear, host-visible, filled with a background and loaded by the render pass as in
//! radv_draw.rs); set 0 binding 0 is the uniform buffer of the loose uniforms (NAME.ubo's bytes),
//! set 1 one combined image sampler per sampler uniform (NAME.txt lists them), set 2 the named
//! uniform blocks (NAME.blockK). Each sampler type reads one texture with optimal tiling
//! ([`Texture`]: 2D, cube, 3D, 1D and a depth texture for shadow samplers), uploaded as
//! applications do ([`optimal_texture`]); RADV lays them out as addrlib says (2D and cube
//! faces 4KB_D_X, 3D 64KB_S_X, 1D linear, the depth texture 64KB_Z_X with HTILE), and a
//! point-sampling, clamp-to-edge sampler (a LESS_OR_EQUAL compare sampler for shadow samplers).
//! Point sampling, because the RDNA3 guide does not give
//! the texture unit's bilinear weight precision (wavesim filters with f32 weights) and lavapipe
//! filters in its own precision: with a bilinear sampler, 44 of the pipelines (normal maps
//! through normalize and pow) differed from lavapipe by up to 254 steps; with point sampling,
//! the 5 of them checked one by one differ by at most 1.
//!
//! Tolerance (`TOLERANCE`): every channel of every pixel within 2 UNORM8 steps of lavapipe's.
//! Both drivers compute in f32 but round apart: lavapipe interpolates from unsnapped vertex
//! positions, RADV's exports are f16 (`v_cvt_pk_rtz_f16_f32`), ACO uses the hardware's
//! approximate `v_rcp_f32`/`v_rsq_f32`/`v_exp_f32`/`v_log_f32` (1 ULP) where LLVM's lavapipe
//! code is correctly rounded or uses other approximations, and the texture units filter in
//! different precisions. Pixels a shader discards are the background in both images or the
//! pixel differs.
//!
//! The pipelines that do not match are listed with the reason in corpus/radv/shader-db/known.txt.
//! By default the test runs every 8th of the others (CI time: a few seconds);
//! WAVESIM_SHADER_DB=all runs every pipeline, prints the counts and fails when any outcome
//! differs from known.txt's (WAVESIM_SHADER_DB_ONLY=NAME,... narrows it to those pipelines).

use ash::vk;
use std::path::{Path, PathBuf};

#[allow(dead_code)]
mod vulkan_draw;
use vulkan_draw::{err, filled_buffer, Gpu, Uniforms, COLOR_RANGE, FULL_TARGET};

const W: u32 = 64;
const H: u32 = 64;
const BACKGROUND: [u8; 4] = [0x11, 0x22, 0x33, 0x44];
/// Largest channel difference (UNORM8 steps) of a matching pipeline; see the module comment.
const TOLERANCE: u8 = 2;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/radv/shader-db")
}

/// One pipeline's manifest (NAME.txt): the uniform buffer's size and the sampler bindings of
/// set 1 (binding, GLSL type, array size).
struct Pipeline {
    name: String,
    uniforms: Uniforms,
    samplers: Vec<(u32, String, u32)>,
    /// The shader writes no colour: Vulkan leaves the attachment undefined (lavapipe writes
    /// zeros); RADV exports nothing to MRT0 (SPI_SHADER_COL_FORMAT 0) and clears its
    /// CB_SHADER_MASK nibble, so the CB writes no component and the target keeps the
    /// background. The expected image is the background, not lavapipe's.
    no_colour: bool,
}

impl Pipeline {
    fn load(name: &str) -> Result<Pipeline, String> {
        let dir = corpus();
        let read =
            |f: &str| std::fs::read_to_string(dir.join(f)).map_err(|e| format!("{name}: {f}: {e}"));
        let mut p = Pipeline {
            name: name.into(),
            uniforms: Uniforms::default(),
            samplers: Vec::new(),
            no_colour: false,
        };
        for line in read(&format!("{name}.txt"))?.lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            let bad = || format!("{name}.txt: bad line {line:?}");
            if p.uniforms.take_line(&dir, name, &f)? {
                continue;
            }
            match f.as_slice() {
                ["sampler", binding, ty, count] => p.samplers.push((
                    binding.parse().map_err(|_| bad())?,
                    ty.to_string(),
                    count.parse().map_err(|_| bad())?,
                )),
                ["no_colour_output"] => p.no_colour = true,
                _ => return Err(bad()),
            }
        }
        Ok(p)
    }

    /// Why the harness cannot run the pipeline (None: it can).
    fn not_runnable(&self) -> Option<String> {
        self.samplers
            .iter()
            .find(|s| Texture::of(&s.1).is_none())
            .map(|s| format!("a {} (no texture of that type is bound)", s.1))
    }
}

/// The corpus's pipelines (every NAME.txt but status.txt and known.txt), sorted.
fn names() -> Vec<String> {
    vulkan_draw::corpus_names(&corpus())
}

/// The texture's size: W x H, or WAVESIM_SHADER_DB_TEX=WxH in the child
/// (`unaligned_texture_rows_match_lavapipe`).
fn texture_size() -> (u32, u32) {
    std::env::var("WAVESIM_SHADER_DB_TEX")
        .ok()
        .and_then(|v| {
            let (w, h) = v.split_once('x')?;
            Some((w.parse().ok()?, h.parse().ok()?))
        })
        .unwrap_or((W, H))
}

/// The texture every sampler reads: a smooth gradient (neighbouring texels differ by at most 4
/// steps per channel, so that filtering precision moves results little), opaque-ish alpha.
fn texture_texels((w, h): (u32, u32)) -> Vec<u8> {
    let mut t = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            t.extend_from_slice(&[
                (x * 4) as u8,
                (y * 4) as u8,
                (128 + x * 2 - y * 2) as u8,
                (255 - (x + y)) as u8,
            ]);
        }
    }
    t
}

/// Whether the texture has optimal tiling: the default; WAVESIM_SHADER_DB_TILING=linear in the
/// child gives it linear tiling in host-visible memory instead.
fn tiled_texture() -> bool {
    std::env::var("WAVESIM_SHADER_DB_TILING").map_or(true, |v| v != "linear")
}

/// The texture a sampler type reads (shader_db.py's SAMPLER_TYPES), each with optimal tiling
/// and filled by [`optimal_texture`]:
/// - sampler2D: 64x64 R8G8B8A8_UNORM, [`texture_texels`] (or the WAVESIM_SHADER_DB_TEX size);
/// - samplerCube: a cube of 64x64 R8G8B8A8_UNORM faces, the 2D gradient with the blue channel
///   telling the face apart (16 + 40 * face), so that a wrong face selection shows;
/// - sampler3D: 32x32x32 R8G8B8A8_UNORM, (8x, 8y, 8z, 255 - 2(x + y + z));
/// - sampler1D: 64 texels R8G8B8A8_UNORM, (4x, 128, 255 - 2x, 200);
/// - sampler2DShadow: 64x64 D32_SFLOAT, depth (x + y + 0.5) / 128 (exact in f32), read through
///   a compare sampler (LESS_OR_EQUAL, GL's default TEXTURE_COMPARE_FUNC). RADV gives it HTILE
///   (`radv_use_htile_for_image`: depth images of 8x8 texels and more) and samples it
///   TC-compatibly (the T#'s COMPRESSION_EN, the HTILE as metadata), which wavesim refuses by
///   name; a smaller one (no HTILE) would need RADV's copy to dispatch partial thread groups,
///   which the shim refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Texture {
    D2,
    Cube,
    D3,
    D1,
    Shadow,
}

impl Texture {
    fn of(glsl: &str) -> Option<Texture> {
        Some(match glsl {
            "sampler2D" => Texture::D2,
            "samplerCube" => Texture::Cube,
            "sampler3D" => Texture::D3,
            "sampler1D" => Texture::D1,
            "sampler2DShadow" => Texture::Shadow,
            _ => return None,
        })
    }

    /// (image type, view type, format, extent, layers).
    fn shape(
        self,
    ) -> (
        vk::ImageType,
        vk::ImageViewType,
        vk::Format,
        vk::Extent3D,
        u32,
    ) {
        let e = |width, height, depth| vk::Extent3D {
            width,
            height,
            depth,
        };
        let (w, h) = texture_size();
        let rgba = vk::Format::R8G8B8A8_UNORM;
        match self {
            Texture::D2 => (
                vk::ImageType::TYPE_2D,
                vk::ImageViewType::TYPE_2D,
                rgba,
                e(w, h, 1),
                1,
            ),
            Texture::Cube => (
                vk::ImageType::TYPE_2D,
                vk::ImageViewType::CUBE,
                rgba,
                e(64, 64, 1),
                6,
            ),
            Texture::D3 => (
                vk::ImageType::TYPE_3D,
                vk::ImageViewType::TYPE_3D,
                rgba,
                e(32, 32, 32),
                1,
            ),
            Texture::D1 => (
                vk::ImageType::TYPE_1D,
                vk::ImageViewType::TYPE_1D,
                rgba,
                e(64, 1, 1),
                1,
            ),
            Texture::Shadow => (
                vk::ImageType::TYPE_2D,
                vk::ImageViewType::TYPE_2D,
                vk::Format::D32_SFLOAT,
                e(64, 64, 1),
                1,
            ),
        }
    }

    fn aspect(self) -> vk::ImageAspectFlags {
        if self == Texture::Shadow {
            vk::ImageAspectFlags::DEPTH
        } else {
            vk::ImageAspectFlags::COLOR
        }
    }

    fn range(self) -> vk::ImageSubresourceRange {
        vk::ImageSubresourceRange {
            aspect_mask: self.aspect(),
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: 0,
            layer_count: self.shape().4,
        }
    }

    /// The texels, layers (faces) one after another, rows packed.
    fn texels(self) -> Vec<u8> {
        let mut t = Vec::new();
        match self {
            Texture::D2 => return texture_texels(texture_size()),
            Texture::Cube => {
                for face in 0..6u32 {
                    for y in 0..64u32 {
                        for x in 0..64u32 {
                            t.extend_from_slice(&[
                                (x * 4) as u8,
                                (y * 4) as u8,
                                (16 + 40 * face) as u8,
                                (255 - (x + y)) as u8,
                            ]);
                        }
                    }
                }
            }
            Texture::D3 => {
                for z in 0..32u32 {
                    for y in 0..32u32 {
                        for x in 0..32u32 {
                            t.extend_from_slice(&[
                                (x * 8) as u8,
                                (y * 8) as u8,
                                (z * 8) as u8,
                                (255 - 2 * (x + y + z)) as u8,
                            ]);
                        }
                    }
                }
            }
            Texture::D1 => {
                for x in 0..64u32 {
                    t.extend_from_slice(&[(x * 4) as u8, 128, (255 - 2 * x) as u8, 200]);
                }
            }
            Texture::Shadow => {
                for y in 0..64u32 {
                    for x in 0..64u32 {
                        t.extend_from_slice(&((x + y) as f32 / 128.0 + 0.5 / 128.0).to_le_bytes());
                    }
                }
            }
        }
        t
    }
}

/// A sampled `tex` with optimal tiling, filled with its texels the way applications upload
/// textures: a host-visible staging buffer copied into the image by vkCmdCopyBufferToImage. The
/// copy goes to the compute queue when the driver has one: RADV then copies with its compute
/// meta shader (image stores through the tiled T#, on wavesim); on the graphics queue it would
/// draw into the image as a colour (or depth) target, and the shim executes linear colour
/// targets only. (For the depth texture that departs from the specification, which allows
/// depth copies on graphics queues only, VUID-vkCmdCopyBufferToImage-commandBuffer-07739;
/// RADV's compute copy writes the depth texels through a colour view all the same, and
/// lavapipe has one queue.) The image is shared by both families (CONCURRENT) and left in
/// SHADER_READ_ONLY_OPTIMAL, the copy finished.
///
/// # Safety
/// Vulkan calls on `gpu`'s device.
unsafe fn optimal_texture(gpu: &Gpu, tex: Texture) -> Result<vk::Image, String> {
    let d = &gpu.device;
    let (image_type, _, format, extent, layers) = tex.shape();
    let texels = tex.texels();
    let (family, queue) = gpu.compute.unwrap_or((gpu.family, gpu.queue));
    let families = [gpu.family, family];
    let concurrent = family != gpu.family;
    let info = vk::ImageCreateInfo::default()
        .flags(if tex == Texture::Cube {
            vk::ImageCreateFlags::CUBE_COMPATIBLE
        } else {
            vk::ImageCreateFlags::empty()
        })
        .image_type(image_type)
        .format(format)
        .extent(extent)
        .mip_levels(1)
        .array_layers(layers)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .initial_layout(vk::ImageLayout::UNDEFINED)
        .usage(vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST);
    let info = if concurrent {
        info.sharing_mode(vk::SharingMode::CONCURRENT)
            .queue_family_indices(&families)
    } else {
        info
    };
    let image = d.create_image(&info, None).map_err(err("vkCreateImage"))?;
    let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
    // Host-visible, so that `check_tiled_layout` can read the texels where the copy put them.
    let image_req = d.get_image_memory_requirements(image);
    let mem = gpu.allocate(image_req, host)?;
    d.bind_image_memory(image, mem, 0)
        .map_err(err("vkBindImageMemory"))?;
    let buffer = filled_buffer(gpu, vk::BufferUsageFlags::TRANSFER_SRC, &texels)?;

    let (_pool, cmd) = vulkan_draw::command_buffer(d, family)?;
    d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
        .map_err(err("vkBeginCommandBuffer"))?;
    // A layout transition of the whole image between two stages.
    let transition =
        |access: (vk::AccessFlags, vk::AccessFlags),
         layouts: (vk::ImageLayout, vk::ImageLayout),
         stages: (vk::PipelineStageFlags, vk::PipelineStageFlags)| {
            let b = [vk::ImageMemoryBarrier::default()
                .src_access_mask(access.0)
                .dst_access_mask(access.1)
                .old_layout(layouts.0)
                .new_layout(layouts.1)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(image)
                .subresource_range(tex.range())];
            d.cmd_pipeline_barrier(
                cmd,
                stages.0,
                stages.1,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &b,
            );
        };
    transition(
        (vk::AccessFlags::empty(), vk::AccessFlags::TRANSFER_WRITE),
        (
            vk::ImageLayout::UNDEFINED,
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
        ),
        (
            vk::PipelineStageFlags::HOST,
            vk::PipelineStageFlags::TRANSFER,
        ),
    );
    d.cmd_copy_buffer_to_image(
        cmd,
        buffer,
        image,
        vk::ImageLayout::TRANSFER_DST_OPTIMAL,
        &[vk::BufferImageCopy::default()
            .image_subresource(vk::ImageSubresourceLayers {
                aspect_mask: tex.aspect(),
                mip_level: 0,
                base_array_layer: 0,
                layer_count: layers,
            })
            .image_extent(extent)],
    );
    transition(
        (
            vk::AccessFlags::TRANSFER_WRITE,
            vk::AccessFlags::SHADER_READ,
        ),
        (
            vk::ImageLayout::TRANSFER_DST_OPTIMAL,
            vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
        ),
        (
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::BOTTOM_OF_PIPE,
        ),
    );
    gpu.end_submit_and_wait(queue, cmd)?;
    if tex == Texture::D2 && std::env::var("WAVESIM_SHADER_DB_LAYOUT").is_ok_and(|v| v == "addrlib")
    {
        let bytes = d
            .map_memory(mem, 0, image_req.size, vk::MemoryMapFlags::empty())
            .map_err(err("vkMapMemory"))? as *const u8;
        check_tiled_layout(
            std::slice::from_raw_parts(bytes, image_req.size as usize),
            (extent.width, extent.height),
            &texels,
        )?;
    }
    Ok(image)
}

/// The copied texture's memory holds each texel where addrlib puts it for RADV's choice for
/// the 64x64 RGBA8 texture, 4KB_D_X without a pipe/bank XOR (RADV_DEBUG=img prints swmode=22):
/// the addresses of wavesim-rdna3's tests/golden/addrlib_gfx11.txt (tools/radv/addrlib_goldens.sh).
/// RADV's compute copy stores the texels through its T# on wavesim, so this checks wavesim's
/// tiled image stores against addrlib on a driver's own image.
fn check_tiled_layout(mem: &[u8], (w, h): (u32, u32), texels: &[u8]) -> Result<(), String> {
    let golden = include_str!("../../wavesim-rdna3/tests/golden/addrlib_gfx11.txt");
    let mut lines = golden
        .lines()
        .skip_while(|l| *l != "surface 2d 22 32 64 64 1 1 0")
        .skip(1)
        .take_while(|l| l.starts_with("texel"))
        .peekable();
    if (w, h) != (64, 64) || lines.peek().is_none() {
        return Err("the golden has the 64x64 4KB_D_X surface only".into());
    }
    let mut checked = 0;
    for l in lines {
        let f: Vec<usize> = l
            .split_whitespace()
            .skip(1)
            .map(|x| x.parse().map_err(|_| format!("golden line {l:?}")))
            .collect::<Result<_, _>>()?;
        let (x, y, off) = (f[2], f[3], f[4]);
        let want = &texels[(y * 64 + x) * 4..][..4];
        let got = mem.get(off..off + 4).ok_or("texel outside the image")?;
        if got != want {
            return Err(format!(
                "texel ({x}, {y}) at byte {off}: {got:?}, the texture has {want:?}"
            ));
        }
        checked += 1;
    }
    eprintln!("{checked} texels where addrlib puts them");
    Ok(())
}

/// Renders `p` on the process's Vulkan driver; the 64x64 RGBA8 texels, rows packed.
fn render(p: &Pipeline) -> Result<Vec<u8>, String> {
    let spv = |stage: &str| -> Result<Vec<u32>, String> {
        let path = corpus().join(format!("{}.{stage}.spv", p.name));
        let b = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(b.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    };
    let (vert, frag) = (spv("vert")?, spv("frag")?);
    // SAFETY: every Vulkan call follows the specification's valid usage: objects are created
    // before use; the process exits after reading the result (the driver frees the rest).
    unsafe {
        let gpu = Gpu::graphics()?;
        let d = &gpu.device;
        let format = vk::Format::R8G8B8A8_UNORM;
        let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        // A linear host-visible image, its mapping and row pitch, filled row by row from `texels`.
        let linear_image = |usage: vk::ImageUsageFlags,
                            (w, h): (u32, u32),
                            texels: &[u8]|
         -> Result<(vk::Image, *mut u8, usize), String> {
            let (image, mem) = gpu.color_image_sized(
                (w, h),
                format,
                vk::ImageTiling::LINEAR,
                vk::ImageLayout::PREINITIALIZED,
                usage,
                host,
            )?;
            let layout = d.get_image_subresource_layout(
                image,
                vk::ImageSubresource {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: 0,
                    array_layer: 0,
                },
            );
            let ptr = (d
                .map_memory(
                    mem,
                    0,
                    d.get_image_memory_requirements(image).size,
                    vk::MemoryMapFlags::empty(),
                )
                .map_err(err("vkMapMemory"))? as *mut u8)
                .add(layout.offset as usize);
            let row = (w * 4) as usize;
            for y in 0..h as usize {
                std::ptr::copy_nonoverlapping(
                    texels[y * row..].as_ptr(),
                    ptr.add(y * layout.row_pitch as usize),
                    row,
                );
            }
            Ok((image, ptr, layout.row_pitch as usize))
        };
        let background: Vec<u8> = BACKGROUND.repeat((W * H) as usize);
        let (target, target_ptr, target_pitch) =
            linear_image(vk::ImageUsageFlags::COLOR_ATTACHMENT, (W, H), &background)?;
        let tex_size = texture_size();
        let tiled = tiled_texture();
        let tex = if tiled {
            optimal_texture(&gpu, Texture::D2)?
        } else {
            linear_image(
                vk::ImageUsageFlags::SAMPLED,
                tex_size,
                &texture_texels(tex_size),
            )?
            .0
        };
        let general = vk::ImageLayout::GENERAL;
        let (rp, fb) = gpu.render_target(
            target,
            format,
            vk::AttachmentLoadOp::LOAD,
            general,
            (general, general),
        )?;

        // Set 0: the uniform buffer; set 1: the samplers.
        let frag_stage = vk::ShaderStageFlags::FRAGMENT;
        let (ubo_bindings, block_bindings) = p.uniforms.layout_bindings(frag_stage);
        let sampler_bindings: Vec<_> = p
            .samplers
            .iter()
            .map(|&(b, _, n)| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b)
                    .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                    .descriptor_count(n)
                    .stage_flags(frag_stage)
            })
            .collect();
        let set_layout = |b: &[vk::DescriptorSetLayoutBinding]| {
            d.create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(b),
                None,
            )
            .map_err(err("vkCreateDescriptorSetLayout"))
        };
        let set_layouts = [
            set_layout(&ubo_bindings)?,
            set_layout(&sampler_bindings)?,
            set_layout(&block_bindings)?,
        ];
        let sampler_count: u32 = p.samplers.iter().map(|s| s.2).sum();
        let pool_sizes = [
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::UNIFORM_BUFFER,
                descriptor_count: p.uniforms.descriptor_count(),
            },
            vk::DescriptorPoolSize {
                ty: vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
                descriptor_count: sampler_count.max(1),
            },
        ];
        let pool = d
            .create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .max_sets(3)
                    .pool_sizes(&pool_sizes),
                None,
            )
            .map_err(err("vkCreateDescriptorPool"))?;
        let sets = d
            .allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default()
                    .descriptor_pool(pool)
                    .set_layouts(&set_layouts),
            )
            .map_err(err("vkAllocateDescriptorSets"))?;
        p.uniforms.bind(&gpu, &sets)?;
        // Per sampler type: its image view and sampler (the 2D texture is `tex`).
        let mut bound: Vec<(Texture, vk::ImageView, vk::Sampler)> = Vec::new();
        for &(b, ref ty, n) in &p.samplers {
            let kind = Texture::of(ty).ok_or_else(|| format!("a {ty}"))?;
            let at = match bound.iter().position(|t| t.0 == kind) {
                Some(at) => at,
                None => {
                    let image = if kind == Texture::D2 {
                        tex
                    } else {
                        optimal_texture(&gpu, kind)?
                    };
                    let (_, view_type, format, _, _) = kind.shape();
                    let view = d
                        .create_image_view(
                            &vk::ImageViewCreateInfo::default()
                                .image(image)
                                .view_type(view_type)
                                .format(format)
                                .subresource_range(kind.range()),
                            None,
                        )
                        .map_err(err("vkCreateImageView"))?;
                    let info = vk::SamplerCreateInfo::default()
                        .mag_filter(vk::Filter::NEAREST)
                        .min_filter(vk::Filter::NEAREST)
                        .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
                        .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                        .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                        .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                        .max_lod(0.0);
                    let info = if kind == Texture::Shadow {
                        info.compare_enable(true)
                            .compare_op(vk::CompareOp::LESS_OR_EQUAL)
                    } else {
                        info
                    };
                    let sampler = d
                        .create_sampler(&info, None)
                        .map_err(err("vkCreateSampler"))?;
                    bound.push((kind, view, sampler));
                    bound.len() - 1
                }
            };
            let (_, view, sampler) = bound[at];
            let infos: Vec<_> = (0..n)
                .map(|_| vk::DescriptorImageInfo {
                    sampler,
                    image_view: view,
                    image_layout: vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL,
                })
                .collect();
            d.update_descriptor_sets(
                &[vk::WriteDescriptorSet::default()
                    .dst_set(sets[1])
                    .dst_binding(b)
                    .descriptor_type(vk::DescriptorType::COMBINED_IMAGE_SAMPLER)
                    .image_info(&infos)],
                &[],
            );
        }
        let pl = d
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts),
                None,
            )
            .map_err(err("vkCreatePipelineLayout"))?;

        let pipeline = gpu.full_target_pipeline((&vert, &frag), pl, rp)?;

        let (_pool, cmd) = vulkan_draw::command_buffer(d, gpu.family)?;
        d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
            .map_err(err("vkBeginCommandBuffer"))?;
        // The host's writes become visible to the render pass's load and the shader's reads.
        // (A tiled texture is already in SHADER_READ_ONLY_OPTIMAL: `optimal_texture`.)
        let barriers = [
            vk::ImageMemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::HOST_WRITE)
                .dst_access_mask(
                    vk::AccessFlags::COLOR_ATTACHMENT_READ
                        | vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
                )
                .old_layout(vk::ImageLayout::PREINITIALIZED)
                .new_layout(general)
                .image(target)
                .subresource_range(COLOR_RANGE),
            vk::ImageMemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::HOST_WRITE)
                .dst_access_mask(vk::AccessFlags::SHADER_READ)
                .old_layout(vk::ImageLayout::PREINITIALIZED)
                .new_layout(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL)
                .image(tex)
                .subresource_range(COLOR_RANGE),
        ];
        let barriers = &barriers[..if tiled { 1 } else { 2 }];
        d.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::HOST,
            vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT
                | vk::PipelineStageFlags::FRAGMENT_SHADER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            barriers,
        );
        d.cmd_begin_render_pass(
            cmd,
            &vk::RenderPassBeginInfo::default()
                .render_pass(rp)
                .framebuffer(fb)
                .render_area(FULL_TARGET),
            vk::SubpassContents::INLINE,
        );
        d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
        d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::GRAPHICS, pl, 0, &sets, &[]);
        d.cmd_draw(cmd, 6, 1, 0, 0);
        d.cmd_end_render_pass(cmd);
        gpu.finish_and_wait(
            cmd,
            vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
            vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
        )?;
        let mut out = Vec::with_capacity((W * H * 4) as usize);
        for y in 0..H as usize {
            out.extend_from_slice(std::slice::from_raw_parts(
                target_ptr.add(y * target_pitch),
                (W * 4) as usize,
            ));
        }
        Ok(out)
    }
}

/// The child process's entry: renders WAVESIM_SHADER_DB_CASE into WAVESIM_SHADER_DB_OUT.
#[test]
fn child_entry() {
    let (Ok(name), Ok(out)) = (
        std::env::var("WAVESIM_SHADER_DB_CASE"),
        std::env::var("WAVESIM_SHADER_DB_OUT"),
    ) else {
        return;
    };
    let p = Pipeline::load(&name).unwrap_or_else(|e| panic!("{e}"));
    let bytes = render(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
    std::fs::write(out, bytes).expect("writing the result");
}

fn run_child(name: &str, radv: bool) -> Result<Vec<u8>, String> {
    run_child_with(name, radv, &[])
}

fn run_child_with(name: &str, radv: bool, env: &[(&str, &str)]) -> Result<Vec<u8>, String> {
    vulkan_draw::child_bytes(
        ("WAVESIM_SHADER_DB_CASE", "WAVESIM_SHADER_DB_OUT"),
        name,
        radv,
        env,
    )
}

fn golden_path(name: &str) -> PathBuf {
    corpus().join(format!("{name}.png"))
}

fn read_golden(name: &str) -> Result<Vec<u8>, String> {
    let path = golden_path(name);
    let file = std::fs::File::open(&path)
        .map_err(|e| format!("{}: {e} (tools/radv/shader_db_goldens.sh)", path.display()))?;
    let mut reader = png::Decoder::new(file)
        .read_info()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader
        .next_frame(&mut buf)
        .map_err(|e| format!("{}: {e}", path.display()))?;
    if (info.width, info.height, info.color_type, info.bit_depth)
        != (W, H, png::ColorType::Rgba, png::BitDepth::Eight)
    {
        return Err(format!("{}: not a 64x64 RGBA8 PNG", path.display()));
    }
    buf.truncate(info.buffer_size());
    Ok(buf)
}

/// (largest channel difference, pixels beyond TOLERANCE, the first few of them).
fn compare(want: &[u8], got: &[u8]) -> (u8, usize, Vec<String>) {
    let (mut worst, mut bad, mut first) = (0, 0, Vec::new());
    for (i, (a, b)) in want.chunks(4).zip(got.chunks(4)).enumerate() {
        let d = a
            .iter()
            .zip(b)
            .map(|(x, y)| x.abs_diff(*y))
            .max()
            .unwrap_or(0);
        worst = worst.max(d);
        if d > TOLERANCE {
            bad += 1;
            if first.len() < 3 {
                first.push(format!(
                    "({}, {}): lavapipe {a:?}, wavesim {b:?}",
                    i % W as usize,
                    i / W as usize
                ));
            }
        }
    }
    (worst, bad, first)
}

/// corpus/radv/shader-db/known.txt: the pipelines that do not match, by name: (refused, why).
fn known() -> std::collections::BTreeMap<String, (bool, String)> {
    let path = corpus().join("known.txt");
    assert!(path.is_file(), "{} is missing", path.display());
    vulkan_draw::known_outcomes(&path)
}

/// The pipelines to check: all with WAVESIM_SHADER_DB=all, else every 8th of those that must
/// match.
fn selection() -> Vec<Pipeline> {
    let all = std::env::var("WAVESIM_SHADER_DB").is_ok_and(|v| v == "all");
    let known = known();
    let names = names();
    for k in known.keys() {
        assert!(
            names.contains(k),
            "known.txt names {k}, which is not in the corpus"
        );
    }
    // WAVESIM_SHADER_DB_ONLY=NAME,NAME,...: those pipelines alone (with WAVESIM_SHADER_DB=all).
    let only = std::env::var("WAVESIM_SHADER_DB_ONLY").ok();
    names
        .into_iter()
        .filter(|n| only.as_ref().is_none_or(|o| o.split(',').any(|x| x == n)))
        .filter(|n| all || !known.contains_key(n))
        .enumerate()
        .filter(|(i, _)| all || i % 8 == 0)
        .map(|(_, n)| Pipeline::load(&n).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// Every selected pipeline, drawn by RADV's machine code on wavesim, matches lavapipe's golden
/// within TOLERANCE, or fails as known.txt says.
#[test]
fn shader_db_draws_match_lavapipe() {
    let run = selection();
    let known = known();
    let mut failures = Vec::new();
    let (mut matched, mut differ, mut refused) = (0, 0, 0);
    for p in &run {
        if let Some(why) = p.not_runnable() {
            failures.push(format!("{}: the harness cannot run it: {why}", p.name));
            continue;
        }
        let expect = known.get(&p.name);
        let got = match run_child(&p.name, true) {
            Ok(g) => g,
            Err(e) => {
                let why = e
                    .lines()
                    .find(|l| l.contains("wavesim-drm:"))
                    .unwrap_or("no message from the shim")
                    .to_string();
                eprintln!("{}: does not run: {why}", p.name);
                refused += 1;
                if !matches!(expect, Some((true, _))) {
                    failures.push(format!("{}: {why}", p.name));
                }
                continue;
            }
        };
        let want = if p.no_colour {
            BACKGROUND.repeat((W * H) as usize)
        } else {
            read_golden(&p.name).unwrap_or_else(|e| panic!("{e}"))
        };
        let (worst, bad, first) = compare(&want, &got);
        eprintln!(
            "{}: largest channel difference {worst}, {bad} pixels beyond {TOLERANCE}",
            p.name
        );
        match (bad, expect) {
            (0, None) => matched += 1,
            (0, Some(_)) => failures.push(format!(
                "{}: matches now; known.txt says it does not",
                p.name
            )),
            (_, Some((false, _))) => differ += 1,
            _ => failures.push(format!("{}: {bad} pixels differ: {first:?}", p.name)),
        }
    }
    eprintln!(
        "shader-db: {} pipelines checked: {matched} match lavapipe, {differ} differ, {refused} refused",
        run.len()
    );
    assert!(!run.is_empty(), "no pipeline selected");
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Writes NAME.png for every runnable pipeline from lavapipe (tools/radv/shader_db_goldens.sh).
#[test]
#[ignore]
fn write_goldens() {
    for n in names() {
        let p = Pipeline::load(&n).unwrap_or_else(|e| panic!("{e}"));
        if p.not_runnable().is_some() || p.no_colour {
            continue;
        }
        let img = match run_child(&n, false) {
            Ok(img) => img,
            Err(e) => {
                eprintln!("{n}: lavapipe failed: {e}");
                continue;
            }
        };
        let file = std::io::BufWriter::new(std::fs::File::create(golden_path(&n)).unwrap());
        let mut enc = png::Encoder::new(file, W, H);
        enc.set_color(png::ColorType::Rgba);
        enc.set_depth(png::BitDepth::Eight);
        enc.set_compression(png::Compression::Best);
        enc.write_header().unwrap().write_image_data(&img).unwrap();
    }
}

/// The corpus's texture with optimal tiling: RADV tiles it (4KB_D_X) and copies it from a
/// staging buffer with its compute meta shader, whose image stores run on wavesim; the texels
/// land where addrlib says (`check_tiled_layout`), and anholt_12 samples them back as lavapipe
/// does (the corpus golden).
#[test]
fn tiled_texture_is_laid_out_as_addrlib_says() {
    let env = [("WAVESIM_SHADER_DB_LAYOUT", "addrlib")];
    let radv = run_child_with("anholt_12", true, &env).unwrap_or_else(|e| panic!("{e}"));
    let golden = read_golden("anholt_12").unwrap_or_else(|e| panic!("{e}"));
    let (worst, bad, first) = compare(&golden, &radv);
    assert_eq!(bad, 0, "largest difference {worst}: {first:?}");
}

/// A linear texture whose rows are not a multiple of 256 bytes: RADV lays out the 60x60
/// RGBA8 texture (240-byte rows) with addrlib's 256-byte row pitch (the test writes it row by row
/// at vkGetImageSubresourceLayout's rowPitch) and gives the T# no pitch, so the texture unit
/// (wavesim) must pad the same way. anholt_12 writes texture(s, coord) straight out; its
/// drawing by RADV's code on wavesim matches lavapipe's drawing of the same texture, run here.
#[test]
fn unaligned_texture_rows_match_lavapipe() {
    let env = [
        ("WAVESIM_SHADER_DB_TEX", "60x60"),
        ("WAVESIM_SHADER_DB_TILING", "linear"),
    ];
    let radv = run_child_with("anholt_12", true, &env).unwrap_or_else(|e| panic!("{e}"));
    let lavapipe = run_child_with("anholt_12", false, &env).unwrap_or_else(|e| panic!("{e}"));
    let (worst, bad, first) = compare(&lavapipe, &radv);
    assert_eq!(bad, 0, "largest difference {worst}: {first:?}");
    // The drawing shows the 60x60 texture: not the 64x64 one of the corpus's golden.
    let golden = read_golden("anholt_12").unwrap_or_else(|e| panic!("{e}"));
    assert!(
        compare(&golden, &radv).1 > 0,
        "the texture size made no difference"
    );
}
