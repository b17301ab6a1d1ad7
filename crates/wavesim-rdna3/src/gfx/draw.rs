//! A draw: vertex fetch, vertex-shader waves, clipping, the host's rasteriser, pixel-shader
//! waves, the fragment operations, render targets.
//!
//! What is the shader's and what is the host's (fixed function):
//!
//! | step | who | where |
//! | --- | --- | --- |
//! | index stream, topology, instancing, vertex input formats | host (the driver's fetch) | `vertex_fetch` |
//! | compute clip positions and attributes | VS code (real machine code) | |
//! | VS wave launch: user SGPRs, v0 = slot, v1 = InstanceIndex, v2 = VertexIndex, EXEC = valid vertices | host (SPI) | here |
//! | attribute passing: the VS stores one float4 per vertex and attribute to an attribute ring in memory (gfx11 NGG passes parameters through memory, ISA 14.2); POS0 (and POS1.x point size, POS2/POS3 clip distances) by export | VS code / host | here |
//! | clipping with a guard band, user clip distances | host (PA) | `clip` |
//! | viewport, snapping, facing and culling, scissor, coverage, points and lines | host (PA/SC) | `raster` |
//! | 2x2 quads, helper pixels, packing quads into PS waves, PS initial state, parameters into LDS | host (SPI) | here, `ps` |
//! | interpolation, shading, MRT/Z exports, discard | PS code | |
//! | stencil and depth tests (late), blending, write masks, format conversion | host (DB/CB) | `depth_stencil`, `blend`, `targets` |
//!
//! The draw ABI (the VS's inputs; see corpus/gfx/ll/draw_vs.ll): s[0:1] = address of the fetched
//! vertex inputs (invocation `v0`'s are `stride` bytes at `v0 * stride`; see `vertex_fetch`),
//! s[2:3] = attribute ring address, s4... = [`DrawConfig::vs_uniforms`]; v0 = the invocation's
//! slot (for a non-indexed draw of one instance, the vertex's position in the draw), v1 =
//! InstanceIndex, v2 = VertexIndex, v3 = 0 (as RSRC1_VS.VGPR_COMP_CNT asks). Attribute `a` of slot
//! `v` is the float4 at `ring + (v * num_attributes + a) * 16`. The PS gets its user SGPRs from
//! [`DrawConfig::ps_uniforms`], then 12 per texture (its T#, then its S#), then PRIM_MASK.
//!
//! Fragments: quads are 2x2 pixel blocks at even coordinates; a quad runs when any of its pixels
//! is covered, the others are helper lanes (inputs extrapolated, not in EXEC). Quads go to PS
//! waves in row-major order, 8 (wave32) or 16 (wave64) per wave, one primitive per wave; lane
//! 4q + dx + 2dy is pixel (dx, dy) of quad q. After the wave, per lane in order: a lane no export
//! names was discarded; the depth is MRTZ.x when exported, else POS_Z (clamped to the depth range
//! with depth clamp); stencil test, depth test and their writes; then each MRTk export goes to
//! target k through blending and the write mask.
//!
//! Multisampling (`gfx::msaa`): a pixel's coverage is the set of its sample locations the
//! triangle covers (top-left rule per sample) ANDed with the sample mask; a pixel with any
//! sample covered is shaded once (centre terms at the centre, centroid terms at the centroid,
//! SAMPLE_COVERAGE = the coverage), and each covered sample then goes through the stencil and
//! depth tests with its own depth (interpolated at its location, or the exported depth) and,
//! when it passes, is blended and written on its own. With sample shading the PS runs per
//! covered sample instead (one pass of quads per sample index), each invocation writing its
//! sample.

#![allow(clippy::needless_range_loop)] // component loops index several arrays

use crate::dispatch::ExecConfig;
use crate::dispatch::{run_wave_alone, DispatchError};
use crate::exec::Program;
use crate::gfx::blend::{self, blend, uses_src1};
use crate::gfx::clip::{clip_line, clip_polygon, ClipVertex, Planes};
use crate::gfx::depth_stencil::{bias_offset, d16, d16_value, DepthStencil};
use crate::gfx::msaa::Samples;
use crate::gfx::pal::{allocated_vgprs, initial_mode, reg, PalError, PalObject};
use crate::gfx::pipeline::{CullMode, DepthFormat, FrontFace, PipelineState, Topology, Viewport};
use crate::gfx::ps::{run_ps_wave, Attribute, PrimParams, PsRunError, PsWaveSetup};
use crate::gfx::raster::{
    line_rectangle, point_square, setup, snapped_area, to_screen, Region, ScreenVertex, Setup,
};
use crate::gfx::targets::{is_unorm, texel_bytes, Image, ImageError};
use crate::gfx::vertex_fetch::{assemble, fetch, Invocation, Prim};
use crate::gfx::{ExportRecord, GfxWave, Stage};
use crate::wave::{status, Wave};
use wavesim_core::limits;
use wavesim_core::memory::DeviceMemory;

pub use crate::gfx::targets::ColorFormat;

/// A texture the PS samples: a linear 2D image (one mip level) in the T# layout of
/// `exec::image::resource` and the S# words to sample it with (RDNA3 ISA Table 51).
#[derive(Clone, Debug)]
pub struct Texture {
    /// T# data format (RDNA3 ISA Table 52, e.g. 42 = 8_8_8_8_UNORM).
    pub format: u32,
    pub width: u32,
    pub height: u32,
    pub data: Vec<u8>,
    pub sampler: [u32; 4],
}

/// How the PS's MRT export packs a colour (SPI_SHADER_COL_FORMAT: 32_ABGR or FP16_ABGR).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExportFormat {
    /// VSRC0-3 = R, G, B, A as f32.
    F32,
    /// VSRC0 = {G, R}, VSRC1 = {A, B} as f16 pairs (low half first).
    F16,
}

#[derive(Clone, Debug)]
pub struct RenderTarget {
    pub format: ColorFormat,
    pub export: ExportFormat,
    pub clear: [f32; 4],
}

/// Everything a draw needs: the shaders, their inputs, the targets, and the fixed-function
/// [`PipelineState`].
#[derive(Clone, Debug)]
pub struct DrawConfig {
    /// PAL code objects (`llc-19 -mtriple=amdgcn--amdpal -mcpu=gfx1100 -filetype=obj`).
    pub vs: Vec<u8>,
    pub ps: Vec<u8>,
    /// Without `pipeline.vertex_input`: `vertex_count` equal records, record i the VS's inputs
    /// for vertex index i (copied to the invocation's slot).
    pub vertex_buffer: Vec<u8>,
    /// The records in `vertex_buffer`, and the draw's vertex count unless
    /// `pipeline.draw.vertex_count` says otherwise.
    pub vertex_count: u32,
    /// float4 attributes per vertex in the attribute ring.
    pub num_attributes: u32,
    /// Bit a: attribute a is flat (every vertex takes the provoking vertex's value).
    pub flat_attributes: u32,
    pub vs_uniforms: Vec<u32>,
    pub ps_uniforms: Vec<u32>,
    /// Textures: each is placed in device memory and its T# (8 dwords) and S# (4 dwords) are
    /// appended to the PS user SGPRs after `ps_uniforms`.
    pub textures: Vec<Texture>,
    pub width: u32,
    pub height: u32,
    pub targets: Vec<RenderTarget>,
    /// The D32_SFLOAT depth buffer's clear value; None: no depth buffer.
    pub depth_clear: Option<f32>,
    pub vs_wave64: bool,
    pub ps_wave64: bool,
    /// Watchdog per wave.
    pub max_wave_insts: u64,
    pub pipeline: PipelineState,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawStats {
    pub vs_waves: u64,
    pub ps_waves: u64,
    /// Covered pixels shaded (helpers not counted).
    pub pixels_shaded: u64,
    pub wave_instructions: u64,
    /// Primitives assembled, cut by the clipper (some part left), removed whole by clipping, and
    /// culled by facing.
    pub primitives: u64,
    pub clipped: u64,
    pub clipped_away: u64,
    pub culled: u64,
}

#[derive(Clone, Debug)]
pub struct DrawResult {
    pub targets: Vec<Image>,
    /// Row-major D32_SFLOAT values, when the draw has a depth buffer.
    pub depth: Option<Vec<f32>>,
    /// Row-major S8_UINT values, when the draw has a stencil buffer.
    pub stencil: Option<Vec<u8>>,
    pub stats: DrawStats,
}

#[derive(Debug, thiserror::Error)]
pub enum DrawError {
    #[error("{0}")]
    Config(String),
    #[error("{which} shader: {err}")]
    Object { which: &'static str, err: PalError },
    #[error("vertex shader: {0}")]
    Vs(#[from] DispatchError),
    #[error("pixel shader: {0}")]
    Ps(#[from] PsRunError),
    #[error("device memory: {0}")]
    Memory(String),
}

impl From<ImageError> for DrawError {
    fn from(e: ImageError) -> Self {
        DrawError::Config(e.0)
    }
}

fn mem_err(e: impl std::fmt::Display) -> DrawError {
    DrawError::Memory(e.to_string())
}

/// What the VS made of one invocation.
#[derive(Clone, Debug, PartialEq)]
pub struct VsOut {
    pub clip: [f32; 4],
    /// POS1.x when exported (the point size).
    pub point_size: Option<f32>,
    /// The user clip distances, ClipDistance[0..n].
    pub dists: Vec<f32>,
    /// The PS's inputs in its attribute order.
    pub attrs: Vec<[f32; 4]>,
}

/// Export targets of the position exports (RDNA3 ISA guide, "Export": POS0 = 12).
const POS0: u8 = 12;

fn run_vs(
    cfg: &DrawConfig,
    vs: &PalObject,
    mem: &mut DeviceMemory,
    inputs: &[u8],
    invocations: &[Invocation],
    stats: &mut DrawStats,
) -> Result<Vec<VsOut>, DrawError> {
    let (st, entry) = vs.stage("vs").map_err(|err| DrawError::Object {
        which: "vertex",
        err,
    })?;
    let n = invocations.len() as u64;
    let na = cfg.num_attributes as u64;
    let dists = cfg.pipeline.rasterization.clip_distances as usize;
    let vb = mem
        .alloc(inputs.len().max(16) as u64, 256)
        .map_err(mem_err)?;
    mem.write(vb, inputs).map_err(mem_err)?;
    let ring = mem.alloc((n * na * 16).max(16), 256).map_err(mem_err)?;
    let rsrc1 = vs.reg(reg::SPI_SHADER_PGM_RSRC1_VS);
    let rsrc2 = vs.reg(reg::SPI_SHADER_PGM_RSRC2_VS);
    // LLVM's PAL metadata leaves RSRC2.USER_SGPR at 0 (PAL programs it from its own user-data
    // mapping), so the draw loads its ABI SGPRs whatever the field says.
    let mut user = ((rsrc2 >> 1) & 0x1f) as usize;
    user = user.max(4 + cfg.vs_uniforms.len());
    let mut sgprs = vec![
        vb as u32,
        (vb >> 32) as u32,
        ring as u32,
        (ring >> 32) as u32,
    ];
    sgprs.extend_from_slice(&cfg.vs_uniforms);
    if user > sgprs.len() {
        return Err(DrawError::Config(format!(
            "the vertex shader takes {user} user SGPRs; the draw ABI gives 4 + {} uniforms",
            cfg.vs_uniforms.len()
        )));
    }
    let lanes = if cfg.vs_wave64 { 64 } else { 32 };
    let num_vgprs = allocated_vgprs(st.vgpr_count, cfg.vs_wave64);
    if num_vgprs < 3 {
        return Err(DrawError::Config(
            "the vertex shader allocates fewer than 3 VGPRs".into(),
        ));
    }
    let mut out = Vec::with_capacity(n as usize);
    let mut first = 0u64;
    while first < n {
        let count = (n - first).min(lanes);
        let mut w = Wave::new(cfg.vs_wave64, num_vgprs);
        w.sgpr[..user].copy_from_slice(&sgprs[..user]);
        for l in 0..count as usize {
            let inv = invocations[first as usize + l];
            w.vgpr_set(0, l, (first + l as u64) as u32);
            w.vgpr_set(1, l, inv.instance);
            w.vgpr_set(2, l, inv.vertex);
        }
        w.set_exec(if count == 64 {
            u64::MAX
        } else {
            (1u64 << count) - 1
        });
        w.hw.mode = initial_mode(rsrc1);
        w.hw.status &= !status::PRIV;
        w.gfx = Some(Box::new(GfxWave::new(Stage::Vs)));
        w.pc = entry;
        let mut lds = Vec::new();
        run_wave_alone(
            &mut w,
            &mut lds,
            &vs.program,
            mem,
            &ExecConfig::default(),
            cfg.max_wave_insts,
        )?;
        stats.vs_waves += 1;
        stats.wave_instructions += w.wave_insts;
        let exports: &[ExportRecord] = w.gfx.as_deref().map_or(&[], |g| &g.exports);
        let pos = |k: u8| exports.iter().find(|e| e.target == POS0 + k);
        let Some(pos0) = pos(0) else {
            return Err(DrawError::Config(
                "the vertex shader made no POS0 export".into(),
            ));
        };
        for l in 0..count as usize {
            let v = first + l as u64;
            if pos0.exec >> l & 1 == 0 || pos0.en != 0xf {
                return Err(DrawError::Config(format!(
                    "vertex {v}: POS0 was not exported for it with all four components"
                )));
            }
            let clip = [0, 1, 2, 3].map(|c| f32::from_bits(pos0.data[c][l]));
            let point_size = pos(1)
                .filter(|e| e.exec >> l & 1 != 0 && e.en & 1 != 0)
                .map(|e| f32::from_bits(e.data[0][l]));
            let mut d = Vec::with_capacity(dists);
            for k in 0..dists {
                let Some(e) = pos(2 + (k / 4) as u8)
                    .filter(|e| e.exec >> l & 1 != 0 && e.en >> (k % 4) & 1 != 0)
                else {
                    return Err(DrawError::Config(format!(
                        "vertex {v}: the scene has {dists} clip distances but POS{} component {} was not exported",
                        2 + k / 4,
                        k % 4
                    )));
                };
                d.push(f32::from_bits(e.data[k % 4][l]));
            }
            let mut attrs = Vec::with_capacity(na as usize);
            for a in 0..na {
                let mut b = [0u8; 16];
                mem.read(ring + (v * na + a) * 16, &mut b)
                    .map_err(mem_err)?;
                attrs.push([0, 1, 2, 3].map(|c| {
                    f32::from_le_bytes([b[4 * c], b[4 * c + 1], b[4 * c + 2], b[4 * c + 3]])
                }));
            }
            out.push(VsOut {
                clip,
                point_size,
                dists: d,
                attrs,
            });
        }
        first += count;
    }
    Ok(out)
}

/// The largest point size and line width: RADV's pointSizeRange [0, 8191.875] and
/// lineWidthRange [0, 8] (Mesa's `radv_physical_device.c`; older releases gave lines 8191.875).
pub const MAX_POINT_SIZE: f32 = 8191.875;
pub const MAX_LINE_WIDTH: f32 = 8.0;

/// Color targets a draw can write: MRT0-7 (EXP targets 0-7, RDNA3 ISA guide, "Export").
pub const MAX_TARGETS: usize = 8;

/// At least one and at most [`MAX_TARGETS`] render targets, all of them together within
/// [`limits::MAX_RENDER_TARGET_BYTES`].
pub fn check_targets(cfg: &DrawConfig) -> Result<(), DrawError> {
    // A depth- or stencil-only draw (a driver's clear) writes its depth/stencil buffer alone.
    if cfg.targets.is_empty()
        && cfg.depth_clear.is_none()
        && cfg.pipeline.depth_stencil.stencil_clear.is_none()
    {
        return Err(DrawError::Config(
            "no render targets: a draw writes nothing without at least one [[targets]]".into(),
        ));
    }
    if cfg.targets.len() > MAX_TARGETS {
        return Err(DrawError::Config(format!(
            "{} render targets; at most {MAX_TARGETS} (MRT0-7)",
            cfg.targets.len()
        )));
    }
    let samples = Samples::new(&cfg.pipeline.multisample).map_err(DrawError::Config)?;
    let texels = cfg.width as u64 * cfg.height as u64 * samples.count as u64;
    let bytes = cfg
        .targets
        .iter()
        .map(|t| texels * texel_bytes(t.format) as u64)
        .sum::<u64>()
        + texels * 4 * u64::from(cfg.depth_clear.is_some())
        + texels * u64::from(cfg.pipeline.depth_stencil.stencil_clear.is_some());
    limits::check_bytes(
        &format!(
            "{} render targets of {}x{}",
            cfg.targets.len(),
            cfg.width,
            cfg.height
        ),
        bytes,
        limits::MAX_RENDER_TARGET_BYTES,
    )
    .map_err(|e| DrawError::Config(e.to_string()))?;
    Ok(())
}

/// The pipeline settings that cannot be drawn as given.
pub fn check_pipeline(cfg: &DrawConfig) -> Result<(), DrawError> {
    let p = &cfg.pipeline;
    let bad = |m: String| Err(DrawError::Config(m));
    if p.blend.attachments.len() > cfg.targets.len() {
        return bad(format!(
            "{} blend attachments for {} render targets",
            p.blend.attachments.len(),
            cfg.targets.len()
        ));
    }
    for (t, a) in p.blend.attachments.iter().enumerate() {
        if uses_src1(a) && t != 0 {
            return bad(format!(
                "render target {t} blends with a SRC1 factor: dual-source blending is for target 0 only"
            ));
        }
    }
    Samples::new(&p.multisample).map_err(DrawError::Config)?;
    let r = &p.rasterization;
    if !(r.line_width > 0.0 && r.line_width <= MAX_LINE_WIDTH) {
        return bad(format!(
            "line width {} (must be > 0 and at most {MAX_LINE_WIDTH}, RADV's lineWidthRange)",
            r.line_width
        ));
    }
    if !(r.point_size > 0.0 && r.point_size <= MAX_POINT_SIZE) {
        return bad(format!(
            "point size {} (must be > 0 and at most {MAX_POINT_SIZE}, RADV's pointSizeRange)",
            r.point_size
        ));
    }
    if r.clip_distances > 8 {
        return bad(format!(
            "{} clip distances; at most 8 (POS2 and POS3)",
            r.clip_distances
        ));
    }
    // Depth bias applies to polygons (Vulkan "Depth Bias"); points and lines are drawn here
    // as triangles, which would be biased too.
    if r.depth_bias.is_some()
        && matches!(
            p.topology,
            Topology::PointList | Topology::LineList | Topology::LineStrip
        )
    {
        return bad(format!("depth bias with {:?}", p.topology));
    }
    if let Some(vp) = p.viewport {
        let ok = [vp.x, vp.y, vp.width, vp.height, vp.min_depth, vp.max_depth]
            .iter()
            .all(|v| v.is_finite() && v.abs() <= 32768.0);
        if !ok || vp.width <= 0.0 || vp.height == 0.0 {
            return bad(format!(
                "viewport {vp:?}: width > 0, height != 0, every value finite within +-32768"
            ));
        }
    }
    if let Some(s) = p.scissor {
        if s.x < 0 || s.y < 0 {
            return bad(format!(
                "scissor offset ({}, {}) is negative (Vulkan requires >= 0)",
                s.x, s.y
            ));
        }
    }
    let list_size = match p.topology {
        Topology::TriangleList => 3,
        Topology::LineList => 2,
        _ => 1,
    };
    let count = p.draw.vertex_count.unwrap_or(cfg.vertex_count);
    if p.index.is_none() && !count.is_multiple_of(list_size) {
        return bad(format!("{count} vertices is not a whole {:?}", p.topology));
    }
    Ok(())
}

/// The scene's wave size against the one the object was compiled for. PAL objects say it in
/// their registers: VGT_SHADER_STAGES_EN.VS_W32_EN (bit 23) for the VS and
/// SPI_PS_IN_CONTROL.PS_W32_EN (bit 15) for the PS (Mesa's gfx11 `sid.h`; LLVM writes these
/// registers only in wave32 objects' metadata with the bit set, and not at all in wave64 ones, as
/// corpus/gfx/obj/w32 and w64 show). An object without the register is taken as the scene says.
fn check_wave_size(
    obj: &PalObject,
    stage: &str,
    which: &'static str,
    wave64: bool,
) -> Result<(), DrawError> {
    const VGT_SHADER_STAGES_EN: u32 = 0xa2d5;
    let (reg, bit) = if stage == "ps" {
        (reg::SPI_PS_IN_CONTROL, 1 << 15)
    } else {
        (VGT_SHADER_STAGES_EN, 1 << 23)
    };
    match obj.registers.get(&reg) {
        Some(v) if (v & bit != 0) == wave64 => Err(DrawError::Config(format!(
            "the {which} shader is compiled for wave{} but the scene says wave64 = {wave64}",
            if wave64 { 32 } else { 64 }
        ))),
        _ => Ok(()),
    }
}

/// A triangle ready for the PS: its setup and its vertices' attributes.
struct RasterTri {
    setup: Setup,
    prim: PrimParams,
}

/// The fragment stage's state across primitives.
struct Fragments<'a> {
    cfg: &'a DrawConfig,
    program: &'a Program,
    entry: u64,
    template: PsWaveSetup,
    ps_sgprs: Vec<u32>,
    mem: &'a DeviceMemory,
    targets: Vec<Image>,
    depth: Option<Vec<f32>>,
    stencil: Option<Vec<u8>>,
    stats: DrawStats,
    samples: Samples,
}

impl Fragments<'_> {
    fn shade(&mut self, t: &RasterTri) -> Result<(), DrawError> {
        let s = &t.setup;
        let ms = &self.samples;
        let (shading, n) = (ms.shading, ms.count);
        // Covered quads in row-major order, with their pixels' sample coverage (sample mask
        // applied): a pixel is shaded when any of its samples is covered. With sample shading
        // each sample index is a pass of its own over the quads holding it.
        let mut quads: Vec<(i64, i64, [u32; 4])> = Vec::new();
        let [x0, y0, x1, y1] = s.bbox;
        let mut qy = y0;
        while qy <= y1 {
            let mut qx = x0;
            while qx <= x1 {
                let cov = [0, 1, 2, 3].map(|k| ms.coverage(s, qx + (k & 1), qy + (k >> 1)));
                if cov.iter().any(|&c| c != 0) {
                    quads.push((qx, qy, cov));
                }
                qx += 2;
            }
            qy += 2;
        }
        if !shading {
            return self.shade_quads(t, &quads, None);
        }
        for k in 0..n {
            let only: Vec<(i64, i64, [u32; 4])> = quads
                .iter()
                .filter(|q| q.2.iter().any(|c| c >> k & 1 != 0))
                .copied()
                .collect();
            self.shade_quads(t, &only, Some(k))?;
        }
        Ok(())
    }

    /// Runs the PS over `quads` (each with its pixels' coverage) and the fragment operations
    /// on what it exports: for every covered sample (`sample` None), or for sample `sample`
    /// alone (sample shading).
    fn shade_quads(
        &mut self,
        t: &RasterTri,
        quads: &[(i64, i64, [u32; 4])],
        sample: Option<u32>,
    ) -> Result<(), DrawError> {
        let cfg = self.cfg;
        let p = &cfg.pipeline;
        let w = cfg.width;
        let s = &t.setup;
        let ms = &self.samples;
        let n = ms.count;
        let quads_per_wave = if cfg.ps_wave64 { 16 } else { 8 };
        // The samples an invocation writes.
        let writes = |cov: u32| match sample {
            Some(k) => cov & 1 << k,
            None => cov,
        };
        let vp = p
            .viewport
            .unwrap_or_else(|| Viewport::full_y_up(cfg.width, cfg.height));
        let (zmin, zmax) = (
            vp.min_depth.min(vp.max_depth),
            vp.min_depth.max(vp.max_depth),
        );
        // The rasterised depth with the polygon's depth bias (an exported depth has none).
        let offset = p.rasterization.depth_bias.as_ref().map(|b| {
            let (dz, zs) = s.depth_plane();
            bias_offset(b, dz, zs, p.depth_stencil.depth_format)
        });
        let bias = |z: f32| match offset {
            Some(o) => (z as f64 + o) as f32,
            None => z,
        };
        for batch in quads.chunks(quads_per_wave) {
            let mut setup_ps = self.template.clone();
            setup_ps.user_sgprs = self.ps_sgprs.clone();
            // As for the VS: the uniforms (and texture descriptors) are the user SGPRs,
            // PRIM_MASK follows them.
            if (setup_ps.rsrc2 >> 1) & 0x1f == 0 {
                setup_ps.rsrc2 |= (self.ps_sgprs.len() as u32 & 0x1f) << 1;
            }
            setup_ps.user_sgprs.resize(64, 0);
            setup_ps.prims = vec![t.prim.clone()];
            setup_ps.quad_prims = vec![0; quads_per_wave];
            setup_ps.lds_bytes = (cfg.num_attributes * 48).next_multiple_of(1024).max(1024);
            let mut exec = 0u64;
            for (q, &(qx, qy, cov)) in batch.iter().enumerate() {
                for k in 0..4 {
                    let l = 4 * q + k;
                    let (px, py) = (qx + (k as i64 & 1), qy + (k as i64 >> 1));
                    setup_ps.inputs[l] = match sample {
                        // Helper lanes too take the sample's location (derivatives across the
                        // quad at one sample).
                        Some(smp) => {
                            s.inputs_per_sample(px, py, (ms.at(smp as usize), smp), cov[k])
                        }
                        None if cov[k] != 0 => {
                            s.inputs_multisampled(px, py, ms.centroid(cov[k]), cov[k])
                        }
                        None => s.inputs(px, py),
                    };
                    if writes(cov[k]) != 0 {
                        exec |= 1 << l;
                    }
                }
            }
            setup_ps.exec = exec;
            let r = run_ps_wave(
                self.program,
                self.entry,
                &setup_ps,
                self.mem,
                cfg.max_wave_insts,
            )?;
            self.stats.ps_waves += 1;
            self.stats.pixels_shaded += exec.count_ones() as u64;
            self.stats.wave_instructions += r.wave.wave_insts;
            let mrtz = r.exports.iter().find(|e| e.target == 8);
            for (q, &(qx, qy, cov)) in batch.iter().enumerate() {
                for k in 0..4 {
                    let l = 4 * q + k;
                    let (px, py) = (qx + (k as i64 & 1), qy + (k as i64 >> 1));
                    if exec >> l & 1 == 0 {
                        continue;
                    }
                    // A pixel the shader discarded is in no export's EXEC.
                    if !r.exports.iter().any(|e| e.exec >> l & 1 != 0) {
                        continue;
                    }
                    let pixel = (py as u32 * w + px as u32) as usize;
                    // The exported depth holds for every sample; else each sample's own.
                    let exported_z = match mrtz {
                        Some(e) if e.en & 1 != 0 && e.exec >> l & 1 != 0 => {
                            Some(f32::from_bits(e.data[0][l]))
                        }
                        _ => None,
                    };
                    // The exported sample mask (low 16 bits of its MRTZ channel) removes samples.
                    let omask = match ms.mask_export {
                        None => !0,
                        Some(ch) => match mrtz {
                            Some(e) if e.en >> ch & 1 != 0 && e.exec >> l & 1 != 0 => {
                                e.data[ch][l] & 0xffff
                            }
                            _ => {
                                return Err(DrawError::Config(format!(
                                    "pixel ({px}, {py}): the pipeline takes the sample mask from \
                                     MRTZ channel {ch}, which the shader did not export for it"
                                )))
                            }
                        },
                    };
                    let color = |t: usize| {
                        r.exports
                            .iter()
                            .find(|e| e.target as usize == t && e.exec >> l & 1 != 0)
                            .map(|e| export_color(e, l, cfg.targets[t].export))
                    };
                    let mut srcs = Vec::with_capacity(cfg.targets.len());
                    for t in 0..cfg.targets.len() {
                        let a = p.blend.attachments.get(t).copied().unwrap_or_default();
                        let src1 = if uses_src1(&a) {
                            color(1).ok_or_else(|| {
                                DrawError::Config(format!(
                                    "pixel ({px}, {py}): dual-source blending needs the MRT1 export"
                                ))
                            })?
                        } else {
                            [0.0; 4]
                        };
                        srcs.push(color(t).map(|c| (a, c, src1)));
                    }
                    for smp in 0..n {
                        if (writes(cov[k]) & omask) >> smp & 1 == 0 {
                            continue;
                        }
                        let mut z =
                            exported_z.unwrap_or_else(|| bias(s.z_at(px, py, ms.at(smp as usize))));
                        if p.rasterization.depth_clamp {
                            z = z.clamp(zmin, zmax);
                        }
                        let mut ds = DepthStencil {
                            state: &p.depth_stencil,
                            depth: self.depth.as_mut(),
                            stencil: self.stencil.as_mut(),
                        };
                        if !ds.test(pixel * n as usize + smp as usize, z, s.front) {
                            continue;
                        }
                        for (t, src) in srcs.iter().enumerate() {
                            let Some((a, src, src1)) = *src else { continue };
                            let img = &mut self.targets[t];
                            let at = (px as u32, py as u32, smp);
                            let c = blend(
                                &a,
                                &blend::Inputs {
                                    src,
                                    src1,
                                    dst: img.load_sample(at.0, at.1, smp),
                                    constant: p.blend.constants,
                                },
                                is_unorm(img.format),
                            );
                            img.store_sample(at, c, a.write_mask, p.unorm_rounding);
                        }
                    }
                }
            }
        }
        Ok(())
    }
}

/// The colour of lane `l` in an MRT export.
fn export_color(e: &ExportRecord, l: usize, f: ExportFormat) -> [f32; 4] {
    match f {
        ExportFormat::F32 => [0, 1, 2, 3].map(|c| f32::from_bits(e.data[c][l])),
        ExportFormat::F16 => {
            let h = |x: u32| half::f16::from_bits(x as u16).to_f32();
            let (rg, ba) = (e.data[0][l], e.data[1][l]);
            [h(rg), h(rg >> 16), h(ba), h(ba >> 16)]
        }
    }
}

fn clip_vertex(v: &VsOut) -> ClipVertex {
    ClipVertex {
        pos: v.clip.map(|c| c as f64),
        attrs: v.attrs.clone(),
        dist: v.dists.iter().map(|&d| d as f64).collect(),
    }
}

/// The PS parameters of a triangle whose vertices carry `attrs`; flat attributes take the
/// provoking vertex's value.
fn prim_params(cfg: &DrawConfig, attrs: [&[[f32; 4]]; 3], provoking: &[[f32; 4]]) -> PrimParams {
    PrimParams {
        attributes: (0..cfg.num_attributes as usize)
            .map(|a| {
                let flat = cfg.flat_attributes >> a & 1 != 0;
                Attribute {
                    vertices: if flat {
                        [provoking[a]; 3]
                    } else {
                        [attrs[0][a], attrs[1][a], attrs[2][a]]
                    },
                    flat,
                }
            })
            .collect(),
    }
}

/// The triangles a primitive rasterises as (after clipping, culling, and for points and lines
/// their rectangles).
fn raster_prims(
    cfg: &DrawConfig,
    planes: &Planes,
    vp: &Viewport,
    region: Region,
    verts: &[VsOut],
    prim: Prim,
    stats: &mut DrawStats,
) -> Result<Vec<RasterTri>, DrawError> {
    let r = &cfg.pipeline.rasterization;
    let mut out = Vec::new();
    match prim {
        Prim::Triangle(s) => {
            let input: Vec<ClipVertex> = s.iter().map(|&k| clip_vertex(&verts[k])).collect();
            let poly = clip_polygon(planes, input.clone());
            if poly.len() < 3 {
                stats.clipped_away += 1;
                return Ok(out);
            }
            if poly != input {
                stats.clipped += 1;
            }
            let sv: Vec<ScreenVertex> = poly.iter().map(|v| to_screen(vp, v.pos)).collect();
            // Facing from the whole (clipped) polygon's snapped area: Vulkan's a = -area / 2.
            let area: i64 = (1..sv.len() - 1)
                .map(|i| snapped_area([&sv[0], &sv[i], &sv[i + 1]]))
                .sum();
            if area == 0 {
                return Ok(out);
            }
            let ccw = area < 0;
            let front = ccw == (r.front_face == FrontFace::CounterClockwise);
            let culled = match r.cull_mode {
                CullMode::None => false,
                CullMode::Front => front,
                CullMode::Back => !front,
                CullMode::FrontAndBack => true,
            };
            if culled {
                stats.culled += 1;
                return Ok(out);
            }
            let provoking = &verts[s[0]].attrs;
            for i in 1..sv.len() - 1 {
                let Some(setup) = setup([&sv[0], &sv[i], &sv[i + 1]], region, front) else {
                    continue;
                };
                out.push(RasterTri {
                    setup,
                    prim: prim_params(
                        cfg,
                        [&poly[0].attrs, &poly[i].attrs, &poly[i + 1].attrs],
                        provoking,
                    ),
                });
            }
        }
        Prim::Line([a, b]) => {
            let Some([ca, cb]) =
                clip_line(planes, &clip_vertex(&verts[a]), &clip_vertex(&verts[b]))
            else {
                stats.clipped_away += 1;
                return Ok(out);
            };
            let (sa, sb) = (to_screen(vp, ca.pos), to_screen(vp, cb.pos));
            let Some(c) = line_rectangle(&sa, &sb, r.line_width as f64) else {
                return Ok(out);
            };
            let provoking = &verts[a].attrs;
            let at = [&ca.attrs, &cb.attrs, &cb.attrs, &ca.attrs];
            for (i, j, k) in [(0, 1, 2), (0, 2, 3)] {
                if let Some(setup) = setup([&c[i], &c[j], &c[k]], region, true) {
                    out.push(RasterTri {
                        setup,
                        prim: prim_params(cfg, [at[i], at[j], at[k]], provoking),
                    });
                }
            }
        }
        Prim::Point([a]) => {
            let v = clip_vertex(&verts[a]);
            if !planes.keeps_point(&v) {
                stats.clipped_away += 1;
                return Ok(out);
            }
            // Vulkan clamps the shader's PointSize to the implementation's range; a size <= 0
            // (or NaN) is undefined there and an error here.
            let size = verts[a].point_size.unwrap_or(r.point_size);
            if size.is_nan() || size <= 0.0 {
                return Err(DrawError::Config(format!(
                    "a point has size {size} (must be > 0)"
                )));
            }
            let size = size.min(MAX_POINT_SIZE);
            let c = point_square(&to_screen(vp, v.pos), size as f64);
            let at = &verts[a].attrs;
            for (i, j, k) in [(0, 1, 2), (0, 2, 3)] {
                if let Some(setup) = setup([&c[i], &c[j], &c[k]], region, true) {
                    out.push(RasterTri {
                        setup,
                        prim: prim_params(cfg, [at, at, at], at),
                    });
                }
            }
        }
    }
    Ok(out)
}

/// Runs a draw to completion.
pub fn draw(cfg: &DrawConfig) -> Result<DrawResult, DrawError> {
    if cfg.width == 0 || cfg.height == 0 || cfg.width > 16384 || cfg.height > 16384 {
        return Err(DrawError::Config(
            "width and height must be 1 to 16384".into(),
        ));
    }
    check_targets(cfg)?;
    check_pipeline(cfg)?;
    if cfg.ps_uniforms.len() > 31 || cfg.vs_uniforms.len() > 28 {
        return Err(DrawError::Config(
            "too many uniforms for the user SGPRs".into(),
        ));
    }
    if cfg.num_attributes > 32 {
        return Err(DrawError::Config(
            "at most 32 attributes (LDS_PARAM_LOAD's ATTR)".into(),
        ));
    }
    let vs = PalObject::parse(&cfg.vs).map_err(|err| DrawError::Object {
        which: "vertex",
        err,
    })?;
    let ps = PalObject::parse(&cfg.ps).map_err(|err| DrawError::Object {
        which: "pixel",
        err,
    })?;
    check_wave_size(&vs, "vs", "vertex", cfg.vs_wave64)?;
    check_wave_size(&ps, "ps", "pixel", cfg.ps_wave64)?;
    let p = &cfg.pipeline;
    let asm =
        assemble(p, p.draw.vertex_count.unwrap_or(cfg.vertex_count)).map_err(DrawError::Config)?;
    let (inputs, _stride) = fetch(p, (&cfg.vertex_buffer, cfg.vertex_count), &asm.invocations)
        .map_err(DrawError::Config)?;
    let mut mem = DeviceMemory::new();
    let mut stats = DrawStats::default();
    let verts = run_vs(cfg, &vs, &mut mem, &inputs, &asm.invocations, &mut stats)?;

    let (w, h) = (cfg.width, cfg.height);
    let n = p.multisample.samples;
    let targets = cfg
        .targets
        .iter()
        .map(|t| Image::new_multisampled((w, h, n), t.format, t.clear, p.unorm_rounding))
        .collect::<Result<Vec<_>, _>>()?;
    let texels = (w * h) as usize * n as usize;
    // The clear value is converted to the depth format as a written depth is (Vulkan "Clear
    // Values": converted as a fragment depth would be).
    let depth = cfg.depth_clear.map(|d| match p.depth_stencil.depth_format {
        DepthFormat::D32Sfloat => vec![d; texels],
        DepthFormat::D16Unorm => vec![d16_value(d16(d)); texels],
    });
    let stencil = p.depth_stencil.stencil_clear.map(|s| vec![s; texels]);

    let mut ps_sgprs = cfg.ps_uniforms.clone();
    for t in &cfg.textures {
        let f = crate::exec::image::formats::Format::of(t.format)
            .map_err(|e| DrawError::Config(format!("texture: {e}")))?;
        // The scene gives rows packed; device memory holds the linear layout (rows padded to
        // 256 bytes, exec::image::resource).
        let n = t.width as u64 * t.height as u64 * f.bytes;
        if (t.data.len() as u64) < n {
            return Err(DrawError::Config(format!(
                "a {}x{} texture needs {n} bytes, {} given",
                t.width,
                t.height,
                t.data.len()
            )));
        }
        let layout =
            crate::exec::image::resource::LinearLayout::new(t.width, t.height, 1, f.bytes, None);
        let bytes = layout.from_packed_level0(t.width, &t.data[..n as usize]);
        let at = mem
            .alloc((bytes.len() as u64).max(256), 256)
            .map_err(mem_err)?;
        mem.write(at, &bytes).map_err(mem_err)?;
        ps_sgprs.extend_from_slice(&crate::exec::image::resource::image_descriptor(
            at, t.format, t.width, t.height, 1,
        ));
        ps_sgprs.extend_from_slice(&t.sampler);
    }
    if ps_sgprs.len() > 31 {
        return Err(DrawError::Config(
            "uniforms and texture descriptors exceed the 31 PS user SGPRs".into(),
        ));
    }
    let (template, entry) = ps
        .ps_setup(cfg.ps_wave64)
        .map_err(|err| DrawError::Object {
            which: "pixel",
            err,
        })?;
    rasterize(
        cfg,
        &verts,
        &asm.prims,
        PixelStage {
            program: &ps.program,
            entry,
            template,
            user_sgprs: ps_sgprs,
        },
        &mem,
        Frame {
            targets,
            depth,
            stencil,
        },
        stats,
    )
}

/// The pixel shader a draw runs: its program, entry, launch template and user SGPRs.
pub struct PixelStage<'a> {
    pub program: &'a Program,
    pub entry: u64,
    pub template: PsWaveSetup,
    pub user_sgprs: Vec<u32>,
}

/// The buffers a draw writes, with their contents before it.
pub struct Frame {
    pub targets: Vec<Image>,
    pub depth: Option<Vec<f32>>,
    pub stencil: Option<Vec<u8>>,
}

/// The frame's buffers against the draw: `samples` samples per pixel of width x height.
fn check_frame(cfg: &DrawConfig, frame: &Frame, samples: u32) -> Result<(), DrawError> {
    let texels = cfg.width as usize * cfg.height as usize * samples as usize;
    for (t, img) in frame.targets.iter().enumerate() {
        if img.samples != samples
            || (img.width, img.height) != (cfg.width, cfg.height)
            || img.bytes.len() != texels * texel_bytes(img.format)
        {
            return Err(DrawError::Config(format!(
                "render target {t} is {}x{} of {} samples; the draw is {}x{} of {samples}",
                img.width, img.height, img.samples, cfg.width, cfg.height
            )));
        }
    }
    let depth_ok = frame.depth.as_ref().is_none_or(|d| d.len() == texels);
    let stencil_ok = frame.stencil.as_ref().is_none_or(|d| d.len() == texels);
    if !depth_ok || !stencil_ok {
        return Err(DrawError::Config(format!(
            "the depth or stencil buffer does not hold {samples} samples of {}x{} pixels",
            cfg.width, cfg.height
        )));
    }
    Ok(())
}

/// Everything after the vertex stage: clipping, culling, rasterisation, PS waves and the
/// fragment operations, for the vertices `verts` (the VS outputs of each slot) and `prims`.
pub fn rasterize(
    cfg: &DrawConfig,
    verts: &[VsOut],
    prims: &[Prim],
    ps: PixelStage,
    mem: &DeviceMemory,
    frame: Frame,
    stats: DrawStats,
) -> Result<DrawResult, DrawError> {
    let p = &cfg.pipeline;
    let (w, h) = (cfg.width, cfg.height);
    let vp = p.viewport.unwrap_or_else(|| Viewport::full_y_up(w, h));
    let planes = Planes::new(
        vp,
        p.rasterization.depth_clamp,
        p.rasterization.clip_distances as usize,
    );
    let region = Region::new(w, h, &vp, p.scissor);
    let samples = Samples::new(&p.multisample).map_err(DrawError::Config)?;
    check_frame(cfg, &frame, samples.count)?;
    // Shaded once per pixel, a multisampled draw has no per-sample interpolation to give: the
    // sample terms need sample shading, which is not executed.
    let ena = ps.template.spi_ps_input_ena;
    if samples.shading && ena & (1 << 2 | 1 << 6) != 0 {
        return Err(DrawError::Config(format!(
            "SPI_PS_INPUT_ENA {ena:#x} asks for PERSP_CENTROID or LINEAR_CENTROID under sample \
             shading: where the hardware evaluates centroid terms per sample is not modelled"
        )));
    }
    if samples.count > 1 && !samples.shading && ena & (1 << 0 | 1 << 4) != 0 {
        return Err(DrawError::Config(format!(
            "SPI_PS_INPUT_ENA {ena:#x} asks for PERSP_SAMPLE or LINEAR_SAMPLE in a {}-sample draw \
             shaded once per pixel: per-sample interpolation (sample shading) is not executed",
            samples.count
        )));
    }
    let mut frag = Fragments {
        cfg,
        program: ps.program,
        entry: ps.entry,
        template: ps.template,
        ps_sgprs: ps.user_sgprs,
        mem,
        targets: frame.targets,
        depth: frame.depth,
        stencil: frame.stencil,
        stats,
        samples,
    };
    for &prim in prims {
        frag.stats.primitives += 1;
        for t in raster_prims(cfg, &planes, &vp, region, verts, prim, &mut frag.stats)? {
            frag.shade(&t)?;
        }
    }
    Ok(DrawResult {
        targets: frag.targets,
        depth: frag.depth,
        stencil: frag.stencil,
        stats: frag.stats,
    })
}
