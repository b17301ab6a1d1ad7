//! Application vertex shaders through RADV on wavesim: shader-db's GLSL vertex shaders (games
//! and benchmarks), rewritten for Vulkan by tools/radv/shader_db_vs.py into
//! corpus/radv/shader-db-vs/, run by RADV's machine code through the shim and compared with
//! lavapipe's run of the same pipeline (NAME.out, written by tools/radv/shader_db_vs_goldens.sh).
//!
//! Each pipeline draws 2 instances of 32 vertices as points: the program's vertex shader
//! computes its outputs (gl_Position among them, made an ordinary output) from attributes in
//! NAME.vb (one binding, one R32G32B32A32 attribute per location) and its uniforms (set 0
//! binding 0: NAME.ubo; set 2: the named blocks NAME.blockK), and the script's wrapper puts
//! vertex k on pixel (k % 16, k / 16) of 16x4 targets. The generated pixel shader of each pass
//! writes up to 8 output slots, flat-interpolated (the provoking vertex's value, untouched), to
//! R32G32B32A32_SFLOAT targets (linear, host-visible, filled with [`BACKGROUND`] and loaded by
//! the render pass). The result: per slot in NAME.txt's order, 16x4 texels of 4 f32.
//!
//! Comparison (`compare`): integer outputs (converted to float by the pixel shader, exact below
//! 2^24) and every texel's coverage must be equal; float outputs equal, or within
//! [`ULP_TOLERANCE`] units in the last place, or within [`ABS_TOLERANCE`] of each other (values
//! near 0, where one rounding of a larger operand is many ULP of a small result). The drivers
//! compute in f32 but not identically: ACO contracts a * b + c into v_fma_f32 / v_fmac_f32
//! where SPIR-V allows it and LLVM's lavapipe code does not always, and ACO's v_rsq_f32 /
//! v_rcp_f32 / v_sqrt_f32 / v_exp_f32 / v_log_f32 / v_sin_f32 are the hardware's
//! approximations where lavapipe's are correctly rounded or other. Over the corpus's 222
//! matching pipelines (WAVESIM_SHADER_DB_VS=all), 22 are bit-exact, and the largest difference
//! beyond ABS_TOLERANCE is 10 ULP.
//!
//! The pipelines that do not match are listed with the reason in
//! corpus/radv/shader-db-vs/known.txt. By default the test runs every 8th of the others (CI
//! time: a few seconds); WAVESIM_SHADER_DB_VS=all runs every pipeline, prints the counts and
//! fails when any outcome differs from known.txt's.

use ash::vk;
use std::path::{Path, PathBuf};

#[allow(dead_code)]
mod vulkan_draw;
use vulkan_draw::{err, filled_buffer, Gpu, PipelineState, Uniforms, COLOR_RANGE};

const W: u32 = 16;
const H: u32 = 4;
const VERTICES: u32 = 32;
const INSTANCES: u32 = 2;
/// The host's background texel: no pipeline writes -1234.5 in every channel.
const BACKGROUND: [f32; 4] = [-1234.5; 4];
/// Largest difference of a float output in units in the last place (module comment).
const ULP_TOLERANCE: u32 = 16;
/// Largest absolute difference of a float output near 0 (module comment).
const ABS_TOLERANCE: f32 = 1e-6;
/// Bytes of one slot's result: W x H texels of 4 f32.
const SLOT_BYTES: usize = (W * H * 16) as usize;

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/radv/shader-db-vs")
}

/// One pipeline's manifest (NAME.txt).
struct Pipeline {
    name: String,
    uniforms: Uniforms,
    /// Attribute locations and their kind ('f', 'i', 'u'), in the vertex buffer's order.
    attrs: Vec<(u32, char)>,
    /// Output slots in target order: (location, kind, the output's text).
    slots: Vec<(u32, char, String)>,
    passes: usize,
    vb: Vec<u8>,
}

impl Pipeline {
    fn load(name: &str) -> Result<Pipeline, String> {
        let dir = corpus();
        let bytes = |f: &str| std::fs::read(dir.join(f)).map_err(|e| format!("{f}: {e}"));
        let text = String::from_utf8(bytes(&format!("{name}.txt"))?)
            .map_err(|e| format!("{name}.txt: {e}"))?;
        let mut p = Pipeline {
            name: name.into(),
            uniforms: Uniforms::default(),
            attrs: Vec::new(),
            slots: Vec::new(),
            passes: 0,
            vb: bytes(&format!("{name}.vb"))?,
        };
        for line in text.lines() {
            let f: Vec<&str> = line.split_whitespace().collect();
            let bad = || format!("{name}.txt: bad line {line:?}");
            let kind = |k: &str| match k {
                "f" | "i" | "u" => Ok(k.chars().next().unwrap_or('f')),
                _ => Err(bad()),
            };
            if p.uniforms.take_line(&dir, name, &f)? {
                continue;
            }
            match f.as_slice() {
                ["attr", loc, k] => p.attrs.push((loc.parse().map_err(|_| bad())?, kind(k)?)),
                ["slot", loc, k, text] => {
                    p.slots
                        .push((loc.parse().map_err(|_| bad())?, kind(k)?, text.to_string()))
                }
                ["passes", n] => p.passes = n.parse().map_err(|_| bad())?,
                _ => return Err(bad()),
            }
        }
        if p.passes != p.slots.len().div_ceil(8) || p.slots.is_empty() {
            return Err(format!(
                "{name}.txt: {} slots in {} passes",
                p.slots.len(),
                p.passes
            ));
        }
        let stride = 16 * p.attrs.len();
        if p.vb.len() != stride * VERTICES as usize {
            return Err(format!("{name}.vb: {} bytes", p.vb.len()));
        }
        Ok(p)
    }
}

fn names() -> Vec<String> {
    vulkan_draw::corpus_names(&corpus())
}

/// Runs `p` on the process's Vulkan driver: every slot's W x H texels, in slot order.
fn render(p: &Pipeline) -> Result<Vec<u8>, String> {
    let spv = |file: String| -> Result<Vec<u32>, String> {
        let path = corpus().join(&file);
        let b = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        Ok(b.chunks_exact(4)
            .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
            .collect())
    };
    let vert = spv(format!("{}.vert.spv", p.name))?;
    // SAFETY: every Vulkan call follows the specification's valid usage: objects are created
    // before use; the process exits after reading the result (the driver frees the rest).
    unsafe {
        let gpu = Gpu::graphics()?;
        let d = &gpu.device;
        let format = vk::Format::R32G32B32A32_SFLOAT;
        let host = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let general = vk::ImageLayout::GENERAL;

        // Descriptors: set 0 the loose uniforms, set 1 empty, set 2 the named blocks.
        let vs = vk::ShaderStageFlags::VERTEX;
        let (set0, set2) = p.uniforms.layout_bindings(vs);
        let set_layout = |b: &[vk::DescriptorSetLayoutBinding]| {
            d.create_descriptor_set_layout(
                &vk::DescriptorSetLayoutCreateInfo::default().bindings(b),
                None,
            )
            .map_err(err("vkCreateDescriptorSetLayout"))
        };
        let set_layouts = [set_layout(&set0)?, set_layout(&[])?, set_layout(&set2)?];
        let pool = d
            .create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .max_sets(3)
                    .pool_sizes(&[vk::DescriptorPoolSize {
                        ty: vk::DescriptorType::UNIFORM_BUFFER,
                        descriptor_count: p.uniforms.descriptor_count(),
                    }]),
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
        let pl = d
            .create_pipeline_layout(
                &vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts),
                None,
            )
            .map_err(err("vkCreatePipelineLayout"))?;

        // The vertex buffer: one binding, one 16-byte attribute per location.
        let vb = filled_buffer(&gpu, vk::BufferUsageFlags::VERTEX_BUFFER, &p.vb)?;
        let stride = 16 * p.attrs.len() as u32;
        let vbind = [vk::VertexInputBindingDescription {
            binding: 0,
            stride,
            input_rate: vk::VertexInputRate::VERTEX,
        }];
        let vattr: Vec<_> = p
            .attrs
            .iter()
            .enumerate()
            .map(
                |(k, &(location, kind))| vk::VertexInputAttributeDescription {
                    location,
                    binding: 0,
                    format: match kind {
                        'i' => vk::Format::R32G32B32A32_SINT,
                        'u' => vk::Format::R32G32B32A32_UINT,
                        _ => vk::Format::R32G32B32A32_SFLOAT,
                    },
                    offset: 16 * k as u32,
                },
            )
            .collect();
        let mut vi = vk::PipelineVertexInputStateCreateInfo::default();
        if !p.attrs.is_empty() {
            vi = vi
                .vertex_binding_descriptions(&vbind)
                .vertex_attribute_descriptions(&vattr);
        }
        let ia = vk::PipelineInputAssemblyStateCreateInfo::default()
            .topology(vk::PrimitiveTopology::POINT_LIST);
        let area = vk::Rect2D {
            offset: vk::Offset2D::default(),
            extent: vk::Extent2D {
                width: W,
                height: H,
            },
        };
        let vp = [vk::Viewport {
            x: 0.0,
            y: 0.0,
            width: W as f32,
            height: H as f32,
            min_depth: 0.0,
            max_depth: 1.0,
        }];
        let sc = [area];
        let vps = vk::PipelineViewportStateCreateInfo::default()
            .viewports(&vp)
            .scissors(&sc);
        let rs = vk::PipelineRasterizationStateCreateInfo::default()
            .polygon_mode(vk::PolygonMode::FILL)
            .cull_mode(vk::CullModeFlags::NONE)
            .front_face(vk::FrontFace::COUNTER_CLOCKWISE)
            .line_width(1.0);

        let mut out = Vec::with_capacity(p.slots.len() * SLOT_BYTES);
        for pass in 0..p.passes {
            let n = (p.slots.len() - 8 * pass).min(8);
            let frag = spv(format!("{}.pass{pass}.frag.spv", p.name))?;
            // The pass's targets: linear, host-visible, filled with the background.
            let mut targets = Vec::new();
            for _ in 0..n {
                let (image, mem) = gpu.color_image_sized(
                    (W, H),
                    format,
                    vk::ImageTiling::LINEAR,
                    vk::ImageLayout::PREINITIALIZED,
                    vk::ImageUsageFlags::COLOR_ATTACHMENT,
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
                let bg: Vec<u8> = BACKGROUND.iter().flat_map(|f| f.to_le_bytes()).collect();
                for y in 0..H as usize {
                    for x in 0..W as usize {
                        let at = y * layout.row_pitch as usize + 16 * x;
                        std::ptr::copy_nonoverlapping(bg.as_ptr(), ptr.add(at), 16);
                    }
                }
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
                targets.push((image, view, ptr, layout.row_pitch as usize));
            }
            let atts: Vec<_> = (0..n)
                .map(|_| {
                    vk::AttachmentDescription::default()
                        .format(format)
                        .samples(vk::SampleCountFlags::TYPE_1)
                        .load_op(vk::AttachmentLoadOp::LOAD)
                        .store_op(vk::AttachmentStoreOp::STORE)
                        .initial_layout(general)
                        .final_layout(general)
                })
                .collect();
            let crefs: Vec<_> = (0..n as u32)
                .map(|k| {
                    vk::AttachmentReference::default()
                        .attachment(k)
                        .layout(general)
                })
                .collect();
            let sub = [vk::SubpassDescription::default()
                .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
                .color_attachments(&crefs)];
            let rp = d
                .create_render_pass(
                    &vk::RenderPassCreateInfo::default()
                        .attachments(&atts)
                        .subpasses(&sub),
                    None,
                )
                .map_err(err("vkCreateRenderPass"))?;
            let views: Vec<_> = targets.iter().map(|t| t.1).collect();
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
            let cba: Vec<_> = (0..n)
                .map(|_| {
                    vk::PipelineColorBlendAttachmentState::default()
                        .color_write_mask(vk::ColorComponentFlags::RGBA)
                })
                .collect();
            let cb = vk::PipelineColorBlendStateCreateInfo::default().attachments(&cba);
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
            let (_pool, cmd) = vulkan_draw::command_buffer(d, gpu.family)?;
            d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
                .map_err(err("vkBeginCommandBuffer"))?;
            // The host's writes become visible to the render pass's load in GENERAL layout.
            let barriers: Vec<_> = targets
                .iter()
                .map(|t| {
                    vk::ImageMemoryBarrier::default()
                        .src_access_mask(vk::AccessFlags::HOST_WRITE)
                        .dst_access_mask(
                            vk::AccessFlags::COLOR_ATTACHMENT_READ
                                | vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
                        )
                        .old_layout(vk::ImageLayout::PREINITIALIZED)
                        .new_layout(general)
                        .image(t.0)
                        .subresource_range(COLOR_RANGE)
                })
                .collect();
            d.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::HOST,
                vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &barriers,
            );
            d.cmd_begin_render_pass(
                cmd,
                &vk::RenderPassBeginInfo::default()
                    .render_pass(rp)
                    .framebuffer(fb)
                    .render_area(area),
                vk::SubpassContents::INLINE,
            );
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
            d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::GRAPHICS, pl, 0, &sets, &[]);
            if !p.attrs.is_empty() {
                d.cmd_bind_vertex_buffers(cmd, 0, &[vb], &[0]);
            }
            d.cmd_draw(cmd, VERTICES, INSTANCES, 0, 0);
            d.cmd_end_render_pass(cmd);
            gpu.finish_and_wait(
                cmd,
                vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
                vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
            )?;
            for &(_, _, ptr, pitch) in &targets {
                for y in 0..H as usize {
                    out.extend_from_slice(std::slice::from_raw_parts(
                        ptr.add(y * pitch),
                        (W * 16) as usize,
                    ));
                }
            }
        }
        Ok(out)
    }
}

/// The child process's entry: runs WAVESIM_SHADER_DB_VS_CASE into WAVESIM_SHADER_DB_VS_OUT.
#[test]
fn child_entry() {
    let (Ok(name), Ok(out)) = (
        std::env::var("WAVESIM_SHADER_DB_VS_CASE"),
        std::env::var("WAVESIM_SHADER_DB_VS_OUT"),
    ) else {
        return;
    };
    let p = Pipeline::load(&name).unwrap_or_else(|e| panic!("{e}"));
    let bytes = render(&p).unwrap_or_else(|e| panic!("{name}: {e}"));
    std::fs::write(out, bytes).expect("writing the result");
}

fn run_child(name: &str, radv: bool) -> Result<Vec<u8>, String> {
    vulkan_draw::child_bytes(
        ("WAVESIM_SHADER_DB_VS_CASE", "WAVESIM_SHADER_DB_VS_OUT"),
        name,
        radv,
        &[],
    )
}

fn golden_path(name: &str) -> PathBuf {
    corpus().join(format!("{name}.out"))
}

/// Whether float outputs `a` (lavapipe) and `b` (wavesim) agree: equal bits, both NaN, within
/// ULP_TOLERANCE units in the last place, or within ABS_TOLERANCE.
fn float_close(a: f32, b: f32) -> bool {
    if a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan()) || a == b {
        return true;
    }
    if a.is_nan() || b.is_nan() || a.is_infinite() || b.is_infinite() {
        return false;
    }
    if (a - b).abs() <= ABS_TOLERANCE {
        return true;
    }
    // Units in the last place between same-signed values: the distance of their bit patterns.
    a.is_sign_negative() == b.is_sign_negative()
        && a.to_bits().abs_diff(b.to_bits()) <= ULP_TOLERANCE
}

/// (largest ULP distance among unequal floats more than ABS_TOLERANCE apart, channels beyond the tolerance, the first
/// few of them).
fn compare(p: &Pipeline, want: &[u8], got: &[u8]) -> (u32, usize, Vec<String>) {
    let (mut worst, mut bad, mut first, mut channels) = (0u32, 0, Vec::new(), Vec::new());
    if want.len() != got.len() || want.len() != p.slots.len() * SLOT_BYTES {
        return (
            0,
            1,
            vec![format!(
                "{} bytes, the golden has {}",
                got.len(),
                want.len()
            )],
        );
    }
    let f = |b: &[u8], i: usize| {
        f32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
    };
    for (s, (_, kind, text)) in p.slots.iter().enumerate() {
        for i in 0..SLOT_BYTES / 4 {
            let k = s * SLOT_BYTES / 4 + i;
            let (a, b) = (f(want, k), f(got, k));
            let ok = if *kind == 'f' {
                if a.to_bits() != b.to_bits()
                    && a.is_sign_negative() == b.is_sign_negative()
                    && (a - b).abs() > ABS_TOLERANCE
                {
                    worst = worst.max(a.to_bits().abs_diff(b.to_bits()));
                }
                float_close(a, b)
            } else {
                a.to_bits() == b.to_bits()
            };
            if !ok {
                bad += 1;
                let channel = format!("{text}.{}", ['x', 'y', 'z', 'w'][i % 4]);
                if !channels.contains(&channel) {
                    channels.push(channel);
                }
                if first.len() < 3 {
                    first.push(format!(
                        "{text} of vertex {}, component {}: lavapipe {a:e}, wavesim {b:e}",
                        i / 4,
                        i % 4
                    ));
                }
            }
        }
    }
    if !channels.is_empty() {
        first.insert(0, format!("outputs differing: {}", channels.join(" ")));
    }
    (worst, bad, first)
}

/// corpus/radv/shader-db-vs/known.txt: the pipelines that do not match, by name: (refused, why).
fn known() -> std::collections::BTreeMap<String, (bool, String)> {
    vulkan_draw::known_outcomes(&corpus().join("known.txt"))
}

/// The pipelines to check: all with WAVESIM_SHADER_DB_VS=all, else every 8th of those that
/// must match.
fn selection() -> Vec<Pipeline> {
    let all = std::env::var("WAVESIM_SHADER_DB_VS").is_ok_and(|v| v == "all");
    let known = known();
    let names = names();
    for k in known.keys() {
        assert!(
            names.contains(k),
            "known.txt names {k}, which is not in the corpus"
        );
    }
    names
        .into_iter()
        .filter(|n| all || !known.contains_key(n))
        .enumerate()
        .filter(|(i, _)| all || i % 8 == 0)
        .map(|(_, n)| Pipeline::load(&n).unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// Every selected vertex shader, run by RADV's machine code on wavesim, gives lavapipe's
/// outputs within the tolerance, or fails as known.txt says.
#[test]
fn shader_db_vertex_shaders_match_lavapipe() {
    let run = selection();
    let known = known();
    let mut failures = Vec::new();
    let (mut matched, mut exact, mut differ, mut refused) = (0, 0, 0, 0);
    for p in &run {
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
        let want = std::fs::read(golden_path(&p.name))
            .unwrap_or_else(|e| panic!("{}: {e} (tools/radv/shader_db_vs_goldens.sh)", p.name));
        // Every vertex drew in lavapipe's run: no slot keeps a background texel.
        let bg: Vec<u8> = BACKGROUND.iter().flat_map(|f| f.to_le_bytes()).collect();
        if want.chunks(16).any(|t| t == bg) {
            failures.push(format!("{}: the golden misses vertices", p.name));
            continue;
        }
        let (worst, bad, first) = compare(p, &want, &got);
        eprintln!(
            "{}: {} slots, largest float difference {worst} ULP, {bad} channels beyond the tolerance",
            p.name,
            p.slots.len()
        );
        match (bad, expect) {
            (0, None) => {
                matched += 1;
                exact += usize::from(want == got);
            }
            (0, Some(_)) => failures.push(format!(
                "{}: matches now; known.txt says it does not",
                p.name
            )),
            (_, Some((false, _))) => differ += 1,
            _ => failures.push(format!("{}: {bad} channels differ: {first:?}", p.name)),
        }
    }
    eprintln!(
        "shader-db-vs: {} pipelines checked: {matched} match lavapipe ({exact} bit-exactly), {differ} differ, {refused} refused",
        run.len()
    );
    assert!(!run.is_empty(), "no pipeline selected");
    assert!(failures.is_empty(), "{failures:#?}");
}

/// Writes NAME.out for every pipeline from lavapipe (tools/radv/shader_db_vs_goldens.sh).
#[test]
#[ignore]
fn write_goldens() {
    for n in names() {
        match run_child(&n, false) {
            Ok(bytes) => std::fs::write(golden_path(&n), bytes).expect("writing a golden"),
            Err(e) => eprintln!("{n}: lavapipe failed: {e}"),
        }
    }
}

/// The float comparison's rule, from the definitions: 1024.0 (bits 0x4480_0000) and its next
/// float are 1 ULP = 2^-13 apart, more than ABS_TOLERANCE; 1024 + ULP_TOLERANCE ULP is the
/// largest allowed, one more not; near 0, 1e-5 apart is allowed whatever the ULP distance
/// (1e-6 and -1e-6 have opposite signs); a NaN matches only a NaN.
#[test]
fn float_tolerance_is_as_stated() {
    let ulps = |n: u32| f32::from_bits(0x4480_0000 + n);
    assert!(float_close(1024.0, ulps(1)));
    assert!(float_close(1024.0, ulps(ULP_TOLERANCE)));
    assert!(!float_close(1024.0, ulps(ULP_TOLERANCE + 1)));
    assert!(float_close(4e-7, -4e-7));
    assert!(!float_close(1e-3, -1e-3));
    assert!(float_close(f32::NAN, f32::NAN));
    assert!(!float_close(f32::NAN, 0.0));
}
