//! Multisampled draws through RADV and the shim, compared with lavapipe: tri.vert/tri.frag
//! into a 64x64 R8G8B8A8_UNORM target of 2, 4 or 8 samples (optimal tiling, cleared by the
//! render pass to a background), resolved by the render pass into a one-sample image (RADV on
//! gfx11 resolves with its fragment or compute meta path, Mesa 22.3's
//! `radv_cmd_buffer_resolve_rendering`; the shim runs whichever RADV submits), which is copied
//! to a buffer and read back.
//!
//! Comparison: every pixel whose 3x3 neighbourhood in lavapipe's image holds no partly covered
//! pixel (a pixel away from the triangle's edges: all samples covered or none) must agree within
//! 1 UNORM8 step per channel (lavapipe interpolates in f32, RADV's shader exports f16: as
//! radv_draw.rs). A pixel on an edge holds the mean of its covered samples' colour and the
//! background: with 4 samples on both drivers (lavapipe has only 1 and 4) edge pixels must
//! agree within the same 1 step; the 2x and 8x images are compared with lavapipe's 4x one, whose
//! edges differ, so there edge pixels are counted and their worst difference reported. RADV
//! resolves these with its compute meta shader (`radv_pick_resolve_method_images`: the
//! multisampled and one-sample images' swizzle modes differ), which loads every sample through
//! the texture unit (`exec::image::msaa`) and averages. The case `mask5` (pSampleMask 0b0101) exercises PA_SC_AA_MASK: only samples
//! 0 and 2 are written, so a resolved interior pixel is the mean of two background samples and
//! two drawn ones; `shading4` (minSampleShading 1) and `sampleid4` (tests/graphics/sample_id.frag,
//! built by capture.sh's glslangValidator step: SampleId and SamplePosition make RADV shade per
//! sample) run the PS per sample. 2x and 8x sample shading, which lavapipe cannot draw, are
//! checked against the rule (`per_sample_ids_and_positions_resolve_as_the_rule_says`);
//! `omask4` (tests/graphics/sample_mask.frag: SampleMask output 0b0101, RADV's MRTZ export
//! with DB_SHADER_CONTROL.MASK_EXPORT_ENABLE) resolves like `mask5`.

use ash::vk;

#[allow(dead_code)]
mod vulkan_draw;
use vulkan_draw::{err, Gpu, COLOR_RANGE, FULL_TARGET};

const W: u32 = 64;
const H: u32 = 64;

const VARS: (&str, &str) = ("WAVESIM_RADV_MSAA_CASE", "WAVESIM_RADV_MSAA_OUT");

/// The render pass's clear colour (RGBA8 0x33, 0x66, 0x99, 0xcc: exact in UNORM8).
const BACKGROUND: [f32; 4] = [0.2, 0.4, 0.6, 0.8];

/// A case: samples, pSampleMask, minSampleShading (None: no sample shading), the fragment
/// shader (tests/graphics/NAME.spv).
fn case(name: &str) -> Option<(vk::SampleCountFlags, u32, Option<f32>, &'static str)> {
    use vk::SampleCountFlags as S;
    let tri = "tri.frag.spv";
    let id = "sample_id.frag.spv";
    let omask = "sample_mask.frag.spv";
    Some(match name {
        "msaa2" => (S::TYPE_2, !0, None, tri),
        "msaa4" => (S::TYPE_4, !0, None, tri),
        "msaa8" => (S::TYPE_8, !0, None, tri),
        "mask5" => (S::TYPE_4, 0b0101, None, tri),
        "shading4" => (S::TYPE_4, !0, Some(1.0), tri),
        "half4" => (S::TYPE_4, !0, Some(0.5), tri),
        "sampleid2" => (S::TYPE_2, !0, None, id),
        "sampleid4" => (S::TYPE_4, !0, None, id),
        "sampleid8" => (S::TYPE_8, !0, None, id),
        "omask4" => (S::TYPE_4, !0, None, omask),
        "omask8" => (S::TYPE_8, !0, None, omask),
        _ => return None,
    })
}

/// The resolved 64x64 image's bytes (rows packed).
fn render(name: &str) -> Result<Vec<u8>, String> {
    let (samples, mask, shading, frag) = case(name).ok_or(format!("no case {name}"))?;
    let (vert, frag) = (vulkan_draw::spv("tri.vert.spv")?, vulkan_draw::spv(frag)?);
    // SAFETY: every Vulkan call follows the specification's valid usage: objects are created
    // before use; the process exits after reading the result (the driver frees the rest).
    unsafe {
        let gpu = Gpu::graphics()?;
        let d = &gpu.device;
        let format = vk::Format::R8G8B8A8_UNORM;
        let none = vk::MemoryPropertyFlags::empty();
        let (image, _) = gpu.color_image_with(
            (W, H),
            (format, samples),
            vk::ImageTiling::OPTIMAL,
            vk::ImageLayout::UNDEFINED,
            vk::ImageUsageFlags::COLOR_ATTACHMENT | vk::ImageUsageFlags::TRANSFER_SRC,
            none,
        )?;
        let (resolved, _) = gpu.color_image(
            format,
            vk::ImageTiling::OPTIMAL,
            vk::ImageLayout::UNDEFINED,
            vk::ImageUsageFlags::TRANSFER_DST | vk::ImageUsageFlags::TRANSFER_SRC,
            none,
        )?;
        let (rp, fb) = gpu.render_target_with(
            image,
            (format, samples),
            vk::AttachmentLoadOp::CLEAR,
            vk::ImageLayout::COLOR_ATTACHMENT_OPTIMAL,
            (
                vk::ImageLayout::UNDEFINED,
                vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            ),
        )?;
        let pl = d
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default(), None)
            .map_err(err("vkCreatePipelineLayout"))?;
        let masks = [mask];
        let mut ms = vk::PipelineMultisampleStateCreateInfo::default()
            .rasterization_samples(samples)
            .sample_mask(&masks);
        if let Some(m) = shading {
            ms = ms.sample_shading_enable(true).min_sample_shading(m);
        }
        let pipeline = gpu.full_target_pipeline_with((&vert, &frag), (&ms, None), pl, rp)?;
        let bytes = (W * H * 4) as u64;
        let (readback, bmem) = vulkan_draw::readback_buffer(&gpu, bytes)?;
        let (_pool, cmd) = vulkan_draw::command_buffer(d, gpu.family)?;
        d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
            .map_err(err("vkBeginCommandBuffer"))?;
        let clear = [vk::ClearValue {
            color: vk::ClearColorValue {
                float32: BACKGROUND,
            },
        }];
        d.cmd_begin_render_pass(
            cmd,
            &vk::RenderPassBeginInfo::default()
                .render_pass(rp)
                .framebuffer(fb)
                .render_area(FULL_TARGET)
                .clear_values(&clear),
            vk::SubpassContents::INLINE,
        );
        d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::GRAPHICS, pipeline);
        d.cmd_draw(cmd, 3, 1, 0, 0);
        d.cmd_end_render_pass(cmd);
        // The draw's writes before the resolve reads them (the render pass's implicit
        // external dependency ends at BOTTOM_OF_PIPE with no access), the resolved image into
        // TRANSFER_DST, the resolve, then its writes before the copy.
        let barrier = |src, dst, image, layouts: (vk::ImageLayout, vk::ImageLayout)| {
            vk::ImageMemoryBarrier::default()
                .src_access_mask(src)
                .dst_access_mask(dst)
                .old_layout(layouts.0)
                .new_layout(layouts.1)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .image(image)
                .subresource_range(COLOR_RANGE)
        };
        use vk::ImageLayout as L;
        d.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::COLOR_ATTACHMENT_OUTPUT,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &[
                barrier(
                    vk::AccessFlags::COLOR_ATTACHMENT_WRITE,
                    vk::AccessFlags::TRANSFER_READ,
                    image,
                    (L::TRANSFER_SRC_OPTIMAL, L::TRANSFER_SRC_OPTIMAL),
                ),
                barrier(
                    vk::AccessFlags::empty(),
                    vk::AccessFlags::TRANSFER_WRITE,
                    resolved,
                    (L::UNDEFINED, L::TRANSFER_DST_OPTIMAL),
                ),
            ],
        );
        let layers = vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            layer_count: 1,
            ..Default::default()
        };
        d.cmd_resolve_image(
            cmd,
            image,
            L::TRANSFER_SRC_OPTIMAL,
            resolved,
            L::TRANSFER_DST_OPTIMAL,
            &[vk::ImageResolve::default()
                .src_subresource(layers)
                .dst_subresource(layers)
                .extent(vk::Extent3D {
                    width: W,
                    height: H,
                    depth: 1,
                })],
        );
        d.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::TRANSFER,
            vk::DependencyFlags::empty(),
            &[],
            &[],
            &[barrier(
                vk::AccessFlags::TRANSFER_WRITE,
                vk::AccessFlags::TRANSFER_READ,
                resolved,
                (L::TRANSFER_DST_OPTIMAL, L::TRANSFER_SRC_OPTIMAL),
            )],
        );
        d.cmd_copy_image_to_buffer(
            cmd,
            resolved,
            vk::ImageLayout::TRANSFER_SRC_OPTIMAL,
            readback,
            &vulkan_draw::WHOLE_COLOR_COPY,
        );
        gpu.finish_and_wait(
            cmd,
            vk::PipelineStageFlags::TRANSFER,
            vk::AccessFlags::TRANSFER_WRITE,
        )?;
        let ptr = d
            .map_memory(bmem, 0, bytes, vk::MemoryMapFlags::empty())
            .map_err(err("vkMapMemory"))? as *const u8;
        Ok(std::slice::from_raw_parts(ptr, bytes as usize).to_vec())
    }
}

/// The child process's entry.
#[test]
fn child_entry() {
    let (Ok(name), Ok(out)) = (std::env::var(VARS.0), std::env::var(VARS.1)) else {
        return;
    };
    let bytes = render(&name).unwrap_or_else(|e| panic!("{name}: {e}"));
    std::fs::write(out, bytes).expect("writing the result");
}

/// The background as RGBA8 (0.2 * 255 = 51, 0.4 -> 102, 0.6 -> 153, 0.8 -> 204).
const BG8: [u8; 4] = [51, 102, 153, 204];

/// (pixels compared away from edges, edge pixels, worst difference away from edges, worst on
/// edges, the first differing pixels away from edges). A pixel is "away from edges" when every
/// pixel of its 3x3 neighbourhood in `want` is either the background or a pixel no closer to
/// it than the triangle's interior (not a mix): with full coverage the resolved texel is the
/// covered colour, with none the background.
fn compare(
    want: &[u8],
    got: &[u8],
    interior: impl Fn(&[u8]) -> bool,
) -> (usize, usize, u8, u8, Vec<String>) {
    let px = |img: &[u8], x: i64, y: i64| -> [u8; 4] {
        let i = 4 * (y as usize * W as usize + x as usize);
        [img[i], img[i + 1], img[i + 2], img[i + 3]]
    };
    let (mut away, mut edge, mut worst_away, mut worst_edge, mut bad) =
        (0, 0, 0u8, 0u8, Vec::new());
    for y in 0..H as i64 {
        for x in 0..W as i64 {
            let clean = (-1..=1).all(|dy| {
                (-1..=1).all(|dx| {
                    let (nx, ny) = (x + dx, y + dy);
                    if nx < 0 || ny < 0 || nx >= W as i64 || ny >= H as i64 {
                        return true;
                    }
                    let p = px(want, nx, ny);
                    p == BG8 || interior(&p)
                })
            });
            let (a, b) = (px(want, x, y), px(got, x, y));
            let d = (0..4).map(|k| a[k].abs_diff(b[k])).max().unwrap_or(0);
            if clean {
                away += 1;
                worst_away = worst_away.max(d);
                if d > 1 && bad.len() < 8 {
                    bad.push(format!("({x}, {y}): lavapipe {a:?} RADV+shim {b:?}"));
                }
            } else {
                edge += 1;
                worst_edge = worst_edge.max(d);
            }
        }
    }
    (away, edge, worst_away, worst_edge, bad)
}

/// The cases drawn on both drivers; each must match away from edges.
#[test]
fn multisampled_triangles_resolve_as_lavapipe_does() {
    let mut failures = Vec::new();
    for name in [
        "msaa2",
        "msaa4",
        "msaa8",
        "mask5",
        "shading4",
        "sampleid4",
        "omask4",
    ] {
        // lavapipe (llvmpipe) rasterises 1 or 4 samples only (its framebufferColorSampleCounts):
        // the 2x and 8x draws are compared with its 4x image, which away from edges is the
        // same (a fully covered pixel resolves to its one shaded colour at any count).
        let reference = match name {
            "msaa2" | "msaa8" => "msaa4",
            _ => name,
        };
        let want =
            vulkan_draw::child_bytes(VARS, reference, false, &[]).unwrap_or_else(|e| panic!("{e}"));
        let got = match vulkan_draw::child_bytes(VARS, name, true, &[]) {
            Ok(g) => g,
            Err(e) => {
                failures.push(e);
                continue;
            }
        };
        assert_eq!(want.len(), got.len(), "{name}");
        // Interior pixels: alpha 255 (tri.frag writes alpha 1) for a full mask; with mask5
        // the mean of two background and two drawn samples, alpha (204 + 255) / 2 = 229.5
        // (lavapipe's rounding decides 229 or 230).
        let interior = |p: &[u8]| {
            if name == "mask5" || name == "omask4" {
                p[3] == 229 || p[3] == 230
            } else {
                p[3] == 255
            }
        };
        let drawn = want.chunks(4).filter(|p| interior(p)).count();
        assert!(
            drawn > 500,
            "{name}: lavapipe's image has {drawn} interior pixels"
        );
        let (away, edge, worst_away, worst_edge, bad) = compare(&want, &got, interior);
        eprintln!(
            "{name}: {away} pixels away from edges (worst difference {worst_away}), {edge} on \
             edges (worst {worst_edge})"
        );
        if worst_away > 1 {
            failures.push(format!("{name}: {bad:?}"));
        }
        // With the same sample count on both drivers the edges agree too (within the same
        // step: the mean of a UNORM8 colour and the background rounds alike on both).
        if reference == name && worst_edge > 1 {
            failures.push(format!("{name}: edge pixels differ by {worst_edge}"));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Sample shading at half the rate (minSampleShading 0.5: RADV's DB_EQAA.PS_ITER_SAMPLES =
/// 1 of 4x) is refused by name.
#[test]
fn fractional_sample_shading_is_refused_by_name() {
    let (o, _) = vulkan_draw::child_output(VARS, "half4", true, &[]);
    let log = String::from_utf8_lossy(&o.stderr);
    assert!(
        log.contains("sample shading at a fraction of the sample rate"),
        "the shim did not refuse half-rate sample shading by name:\n{log}"
    );
}

/// sample_id.frag shaded per sample at 2x and 8x (lavapipe has neither), against the rule: an
/// interior pixel resolves to the mean over its samples k of (k / 4, g, x_k y_k) with (x_k, y_k)
/// the standard locations as fractions of the pixel. 2x: red mean(0, 0.25) = 0.125 -> 31.875 ->
/// 32; blue (0.75^2 + 0.25^2) / 2 = 0.3125 -> 79.6875 -> 80. 8x: the UNORM8 target clamps k / 4 to 1
/// for k >= 4, red = (0 + 0.25 + 0.5 + 0.75 + 4) / 8 = 0.6875 -> 175.3 -> 175; blue (9*5 + 7*11 + 13*9 + 5*3 + 3*13 + 1*7 + 11*15 + 15*1) / 256 / 8 =
/// 480 / 2048 = 0.234375 -> 59.77 -> 60. The resolve rounds to nearest; a float mean one ulp off
/// either way still rounds there (no value is near a tie).
#[test]
fn per_sample_ids_and_positions_resolve_as_the_rule_says() {
    for (name, red, blue) in [("sampleid2", 32u8, 80u8), ("sampleid8", 175, 60)] {
        let got = vulkan_draw::child_bytes(VARS, name, true, &[]).unwrap_or_else(|e| panic!("{e}"));
        // The centre pixel (32, 32) and its neighbours are inside the triangle.
        for (x, y) in [(32usize, 32usize), (31, 33), (33, 31)] {
            let p = &got[4 * (y * W as usize + x)..][..4];
            assert_eq!(
                (p[0], p[2], p[3]),
                (red, blue, 255),
                "{name} pixel ({x}, {y})"
            );
        }
    }
    // sample_mask.frag at 8x writes samples 0 and 2 of 8: alpha (6 * 204 + 2 * 255) / 8 =
    // 216.75 -> 217 (0.8 clears to 204).
    let got = vulkan_draw::child_bytes(VARS, "omask8", true, &[]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(got[4 * (32 * W as usize + 32) + 3], 217);
}
