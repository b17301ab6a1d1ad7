//! A draw: vertex-shader waves, the host's rasteriser, pixel-shader waves, render targets.
//!
//! What is the shader's and what is the host's (fixed function):
//!
//! | step | who |
//! | --- | --- |
//! | fetch vertices, compute clip positions and attributes | VS code (real machine code) |
//! | VS wave launch: user SGPRs, v0 = vertex index, EXEC = valid vertices | host (SPI) |
//! | attribute passing: the VS stores one float4 per vertex and attribute to an attribute ring in memory (gfx11 NGG passes parameters through memory, ISA 14.2), POS0 by export | VS code / host reads the ring and the POS0 export |
//! | perspective divide, viewport, snapping to 1/256 pixel, triangle setup, coverage with the top-left rule, barycentrics | host |
//! | 2x2 quads, helper pixels, packing quads into PS waves, PS initial state (RDNA3 ISA guide, ch. 3 "Wave state"), parameters into LDS (P0, P10, P20) | host (SPI) |
//! | interpolation, shading, MRT/Z exports | PS code |
//! | depth test (LESS, late Z), format conversion, writing the render targets | host (DB/CB) |
//!
//! The draw ABI (the VS's inputs; see corpus/gfx/ll/draw_vs.ll): s[0:1] = vertex buffer address,
//! s[2:3] = attribute ring address, s4... = [`DrawConfig::vs_uniforms`]; v0 = vertex index (and
//! v1-v3 zero when RSRC1_VS.VGPR_COMP_CNT asks for them). Attribute `a` of vertex `v` is the
//! float4 at `ring + (v * num_attributes + a) * 16`. The PS gets its user SGPRs from
//! [`DrawConfig::ps_uniforms`], then 12 per texture (its T#, then its S#), then PRIM_MASK.
//!
//! Rasterisation rules (one sample per pixel, no clipping):
//! - clip -> NDC: (x, y, z) / w; a triangle with a vertex at w <= 0 is refused (clipping is not
//!   emulated). NDC -> screen: sx = (x * 0.5 + 0.5) * width, sy = (0.5 - y * 0.5) * height
//!   (y down), screen z = NDC z. Computed in f64, then snapped to 1/256 pixel (round to nearest).
//! - Coverage: the pixel centre (px + 0.5, py + 0.5) is inside when every edge function of the
//!   snapped vertices (exact integers) is positive, or zero on a top or left edge (D3D's top-left
//!   rule: a top edge is horizontal with the interior below it, a left edge has the interior on
//!   its right). Zero-area triangles cover nothing. Both windings are drawn; FRONT_FACE = 1 when
//!   the triangle is counter-clockwise in NDC.
//! - Barycentrics at the pixel centre from the snapped vertices (f64): b_k = E_k / area.
//!   Linear: I = b1, J = b2. Perspective: b'_k = (b_k / w_k) / sum_j(b_j / w_j), I = b'1,
//!   J = b'2. Each rounded once to f32. Sample and centroid terms equal the centre terms (one
//!   sample). POS_Z = sum b_k z_k, POS_W = sum b_k / w_k, PULL_MODEL = (POS_W, b1 / w1, b2 / w2),
//!   SAMPLE_COVERAGE = 1, ANCILLARY = 0, POS_FIXED_PT = px | py << 16.
//! - Quads: 2x2 pixel blocks at even coordinates; a quad runs when any of its pixels is covered.
//!   Its other pixels are helper lanes: their inputs are computed the same way (extrapolated), but
//!   they are not in the initial EXEC. Quads go to PS waves in row-major order, 8 (wave32) or 16
//!   (wave64) per wave, one primitive per wave; lane 4q + dx + 2dy is pixel (dx, dy) of quad q.
//! - Exports: MRTk goes to render target k (32-bit or packed 16-bit components per
//!   [`ExportFormat`]); MRTZ replaces the depth when exported. Depth test LESS against a buffer
//!   cleared to [`DrawConfig::depth_clear`], then colour and depth written (late Z).
//! - Colour conversion: UNORM8 = round-to-nearest-even(clamp(x, 0, 1) * 255) (NaN -> 0);
//!   RGBA16F via IEEE binary16 round to nearest even; RGBA32F as is.

#![allow(clippy::needless_range_loop)] // component loops index several arrays

use crate::dispatch::ExecConfig;
use crate::dispatch::{run_wave_alone, DispatchError};
use crate::gfx::pal::{allocated_vgprs, initial_mode, reg, PalError, PalObject};
use crate::gfx::ps::{run_ps_wave, Attribute, PrimParams, PsRunError, PS_INPUT_VGPRS};
use crate::gfx::{ExportRecord, GfxWave, Stage};
use crate::wave::{status, Wave};
use wavesim_core::limits;
use wavesim_core::memory::DeviceMemory;

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

/// Render-target formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorFormat {
    Rgba8Unorm,
    Rgba16Float,
    Rgba32Float,
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

/// Everything a draw needs.
#[derive(Clone, Debug)]
pub struct DrawConfig {
    /// PAL code objects (`llc-19 -mtriple=amdgcn--amdpal -mcpu=gfx1100 -filetype=obj`).
    pub vs: Vec<u8>,
    pub ps: Vec<u8>,
    /// Vertex buffer bytes (the VS reads them; the draw ABI passes the address in s[0:1]).
    pub vertex_buffer: Vec<u8>,
    /// Vertices drawn as a triangle list (a multiple of 3).
    pub vertex_count: u32,
    /// float4 attributes per vertex in the attribute ring.
    pub num_attributes: u32,
    /// Bit a: attribute a is flat (P0 = provoking vertex 0, P10 = P20 = 0).
    pub flat_attributes: u32,
    pub vs_uniforms: Vec<u32>,
    pub ps_uniforms: Vec<u32>,
    /// Textures: each is placed in device memory and its T# (8 dwords) and S# (4 dwords) are
    /// appended to the PS user SGPRs after `ps_uniforms`.
    pub textures: Vec<Texture>,
    pub width: u32,
    pub height: u32,
    pub targets: Vec<RenderTarget>,
    /// Depth test LESS with this clear value; None: no depth buffer.
    pub depth_clear: Option<f32>,
    pub vs_wave64: bool,
    pub ps_wave64: bool,
    /// Watchdog per wave.
    pub max_wave_insts: u64,
}

/// A render target after the draw.
#[derive(Clone, Debug, PartialEq)]
pub struct Image {
    pub width: u32,
    pub height: u32,
    pub format: ColorFormat,
    /// Stored texels, row-major, in the format's bytes (RGBA8: 4 bytes; RGBA16F: 8; RGBA32F: 16).
    pub bytes: Vec<u8>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DrawStats {
    pub vs_waves: u64,
    pub ps_waves: u64,
    /// Covered pixels shaded (helpers not counted).
    pub pixels_shaded: u64,
    pub wave_instructions: u64,
}

#[derive(Clone, Debug)]
pub struct DrawResult {
    pub targets: Vec<Image>,
    pub depth: Option<Vec<f32>>,
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

/// Pixel rows are `width` texels; subpixel precision of the snapped vertices (1/256 pixel).
const SUBPIXEL: f64 = 256.0;

fn mem_err(e: impl std::fmt::Display) -> DrawError {
    DrawError::Memory(e.to_string())
}

/// Per-vertex results of the VS.
struct Vertex {
    clip: [f32; 4],
    attrs: Vec<[f32; 4]>,
}

fn run_vs(
    cfg: &DrawConfig,
    vs: &PalObject,
    mem: &mut DeviceMemory,
    stats: &mut DrawStats,
) -> Result<Vec<Vertex>, DrawError> {
    let (st, entry) = vs.stage("vs").map_err(|err| DrawError::Object {
        which: "vertex",
        err,
    })?;
    let n = cfg.vertex_count as u64;
    let na = cfg.num_attributes as u64;
    let vb = mem
        .alloc(cfg.vertex_buffer.len().max(16) as u64, 256)
        .map_err(mem_err)?;
    mem.write(vb, &cfg.vertex_buffer).map_err(mem_err)?;
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
    let mut out = Vec::with_capacity(n as usize);
    let mut first = 0u64;
    while first < n {
        let count = (n - first).min(lanes);
        let mut w = Wave::new(cfg.vs_wave64, num_vgprs);
        w.sgpr[..user].copy_from_slice(&sgprs[..user]);
        for l in 0..count as usize {
            w.vgpr_set(0, l, (first + l as u64) as u32);
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
        let Some(pos) = exports.iter().find(|e| e.target == 12) else {
            return Err(DrawError::Config(
                "the vertex shader made no POS0 export".into(),
            ));
        };
        for l in 0..count as usize {
            if pos.exec >> l & 1 == 0 || pos.en != 0xf {
                return Err(DrawError::Config(format!(
                    "vertex {}: POS0 was not exported for it with all four components",
                    first + l as u64
                )));
            }
            let clip = [0, 1, 2, 3].map(|c| f32::from_bits(pos.data[c][l]));
            let v = first + l as u64;
            let mut attrs = Vec::with_capacity(na as usize);
            for a in 0..na {
                let mut b = [0u8; 16];
                mem.read(ring + (v * na + a) * 16, &mut b)
                    .map_err(mem_err)?;
                attrs.push(
                    [0, 1, 2, 3].map(|c| {
                        f32::from_le_bytes(b[4 * c..4 * c + 4].try_into().unwrap_or([0; 4]))
                    }),
                );
            }
            out.push(Vertex { clip, attrs });
        }
        first += count;
    }
    Ok(out)
}

/// A triangle after setup: snapped screen vertices and the values barycentrics need.
struct Setup {
    /// Snapped positions in 1/256 pixels.
    fx: [i64; 3],
    fy: [i64; 3],
    /// Twice the signed area in (1/256 pixel)^2 units.
    area: i64,
    z: [f64; 3],
    inv_w: [f64; 3],
    front: bool,
    bbox: [i64; 4],
}

fn setup(v: [&[f32; 4]; 3], width: u32, height: u32) -> Result<Option<Setup>, DrawError> {
    let mut fx = [0i64; 3];
    let mut fy = [0i64; 3];
    let mut z = [0f64; 3];
    let mut inv_w = [0f64; 3];
    let mut ndc = [[0f64; 2]; 3];
    for k in 0..3 {
        let [x, y, zz, w] = v[k].map(|c| c as f64);
        if w.is_nan() || w <= 0.0 {
            return Err(DrawError::Config(
                "a triangle has a vertex with w <= 0: clipping is not emulated".into(),
            ));
        }
        let (nx, ny) = (x / w, y / w);
        ndc[k] = [nx, ny];
        let sx = (nx * 0.5 + 0.5) * width as f64;
        let sy = (0.5 - ny * 0.5) * height as f64;
        if !sx.is_finite() || !sy.is_finite() || sx.abs() > 1e6 || sy.abs() > 1e6 {
            return Err(DrawError::Config(
                "a vertex is too far off screen to snap".into(),
            ));
        }
        fx[k] = (sx * SUBPIXEL).round() as i64;
        fy[k] = (sy * SUBPIXEL).round() as i64;
        z[k] = zz / w;
        inv_w[k] = 1.0 / w;
    }
    let area = (fx[1] - fx[0]) * (fy[2] - fy[0]) - (fx[2] - fx[0]) * (fy[1] - fy[0]);
    if area == 0 {
        return Ok(None);
    }
    let ndc_area = (ndc[1][0] - ndc[0][0]) * (ndc[2][1] - ndc[0][1])
        - (ndc[2][0] - ndc[0][0]) * (ndc[1][1] - ndc[0][1]);
    let s = SUBPIXEL as i64;
    let minx = (fx.iter().min().copied().unwrap_or(0) / s - 1).max(0);
    let miny = (fy.iter().min().copied().unwrap_or(0) / s - 1).max(0);
    let maxx = (fx.iter().max().copied().unwrap_or(0) / s + 1).min(width as i64 - 1);
    let maxy = (fy.iter().max().copied().unwrap_or(0) / s + 1).min(height as i64 - 1);
    Ok(Some(Setup {
        fx,
        fy,
        area,
        z,
        inv_w,
        front: ndc_area > 0.0,
        bbox: [minx & !1, miny & !1, maxx, maxy],
    }))
}

impl Setup {
    /// The edge functions at the centre of pixel (px, py): E_k for the edge opposite vertex k,
    /// signed so that they sum to `area`.
    fn edges(&self, px: i64, py: i64) -> [i64; 3] {
        let s = SUBPIXEL as i64;
        let (cx, cy) = (px * s + s / 2, py * s + s / 2);
        let e = |a: usize, b: usize| {
            (self.fx[b] - self.fx[a]) * (cy - self.fy[a])
                - (self.fy[b] - self.fy[a]) * (cx - self.fx[a])
        };
        [e(1, 2), e(2, 0), e(0, 1)]
    }

    /// Top-left rule for the edge opposite vertex k, in the orientation where the interior is
    /// positive.
    fn top_left(&self, k: usize) -> bool {
        let (a, b) = [(1, 2), (2, 0), (0, 1)][k];
        let sign = if self.area > 0 { 1 } else { -1 };
        let (dx, dy) = (
            sign * (self.fx[b] - self.fx[a]),
            sign * (self.fy[b] - self.fy[a]),
        );
        (dy == 0 && dx > 0) || dy < 0
    }

    fn covered(&self, px: i64, py: i64) -> bool {
        let e = self.edges(px, py);
        (0..3).all(|k| {
            let v = if self.area > 0 { e[k] } else { -e[k] };
            v > 0 || (v == 0 && self.top_left(k))
        })
    }

    /// The 24 PS input values of pixel (px, py) in the all-terms layout.
    fn inputs(&self, px: i64, py: i64) -> [u32; PS_INPUT_VGPRS] {
        let e = self.edges(px, py);
        let b = e.map(|x| x as f64 / self.area as f64);
        let q = [0, 1, 2].map(|k| b[k] * self.inv_w[k]);
        let sum: f64 = q.iter().sum();
        let (pi, pj) = ((q[1] / sum) as f32, (q[2] / sum) as f32);
        let (li, lj) = (b[1] as f32, b[2] as f32);
        let z: f64 = (0..3).map(|k| b[k] * self.z[k]).sum();
        let mut v = [0u32; PS_INPUT_VGPRS];
        let bits = |x: f32| x.to_bits();
        for base in [0, 2, 4] {
            v[base] = bits(pi);
            v[base + 1] = bits(pj);
        }
        v[6] = bits(sum as f32);
        v[7] = bits(q[1] as f32);
        v[8] = bits(q[2] as f32);
        for base in [9, 11, 13] {
            v[base] = bits(li);
            v[base + 1] = bits(lj);
        }
        v[15] = 0;
        v[16] = bits(px as f32 + 0.5);
        v[17] = bits(py as f32 + 0.5);
        v[18] = bits(z as f32);
        v[19] = bits(sum as f32);
        v[20] = u32::from(self.front);
        v[21] = 0;
        v[22] = 1;
        v[23] = (px as u32 & 0xffff) | (py as u32) << 16;
        v
    }
}

fn unorm8(x: f32) -> u8 {
    if x.is_nan() {
        return 0;
    }
    (x.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8
}

fn store_texel(img: &mut Image, x: u32, y: u32, c: [f32; 4]) {
    let i = (y * img.width + x) as usize;
    match img.format {
        ColorFormat::Rgba8Unorm => {
            img.bytes[i * 4..i * 4 + 4].copy_from_slice(&c.map(unorm8));
        }
        ColorFormat::Rgba16Float => {
            for k in 0..4 {
                let h = half::f16::from_f32(c[k]).to_bits().to_le_bytes();
                img.bytes[i * 8 + 2 * k..i * 8 + 2 * k + 2].copy_from_slice(&h);
            }
        }
        ColorFormat::Rgba32Float => {
            for k in 0..4 {
                img.bytes[i * 16 + 4 * k..i * 16 + 4 * k + 4].copy_from_slice(&c[k].to_le_bytes());
            }
        }
    }
}

fn texel_bytes(f: ColorFormat) -> usize {
    match f {
        ColorFormat::Rgba8Unorm => 4,
        ColorFormat::Rgba16Float => 8,
        ColorFormat::Rgba32Float => 16,
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

/// Color targets a draw can write: MRT0-7 (EXP targets 0-7, RDNA3 ISA guide, "Export").
pub const MAX_TARGETS: usize = 8;

/// At least one and at most [`MAX_TARGETS`] render targets, all of them together within
/// [`limits::MAX_RENDER_TARGET_BYTES`].
fn check_targets(cfg: &DrawConfig) -> Result<(), DrawError> {
    if cfg.targets.is_empty() {
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
    let texels = cfg.width as u64 * cfg.height as u64;
    let bytes = cfg
        .targets
        .iter()
        .map(|t| texels * texel_bytes(t.format) as u64)
        .sum::<u64>();
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

/// Runs a draw to completion.
pub fn draw(cfg: &DrawConfig) -> Result<DrawResult, DrawError> {
    if !cfg.vertex_count.is_multiple_of(3) {
        return Err(DrawError::Config(format!(
            "{} vertices is not a triangle list",
            cfg.vertex_count
        )));
    }
    if cfg.width == 0 || cfg.height == 0 || cfg.width > 16384 || cfg.height > 16384 {
        return Err(DrawError::Config(
            "width and height must be 1 to 16384".into(),
        ));
    }
    check_targets(cfg)?;
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
    let mut mem = DeviceMemory::new();
    let mut stats = DrawStats::default();
    let verts = run_vs(cfg, &vs, &mut mem, &mut stats)?;

    let (w, h) = (cfg.width, cfg.height);
    let mut targets: Vec<Image> = Vec::with_capacity(cfg.targets.len());
    for t in &cfg.targets {
        // Sizes checked by `check_targets`; the allocation may still fail on a small host.
        let n = (w as usize * h as usize) * texel_bytes(t.format);
        let mut bytes = Vec::new();
        bytes
            .try_reserve_exact(n)
            .map_err(|_| DrawError::Config(format!("cannot allocate a {n}-byte render target")))?;
        bytes.resize(n, 0);
        targets.push(Image {
            width: w,
            height: h,
            format: t.format,
            bytes,
        });
    }
    for (img, t) in targets.iter_mut().zip(&cfg.targets) {
        for y in 0..h {
            for x in 0..w {
                store_texel(img, x, y, t.clear);
            }
        }
    }
    let mut depth = cfg.depth_clear.map(|d| vec![d; (w * h) as usize]);

    let mut ps_sgprs = cfg.ps_uniforms.clone();
    for t in &cfg.textures {
        let f = crate::exec::image::formats::Format::of(t.format)
            .map_err(|e| DrawError::Config(format!("texture: {e}")))?;
        let n = crate::exec::image::resource::image_bytes(t.width, t.height, 1, f.bytes);
        if (t.data.len() as u64) < n {
            return Err(DrawError::Config(format!(
                "a {}x{} texture needs {n} bytes, {} given",
                t.width,
                t.height,
                t.data.len()
            )));
        }
        let at = mem.alloc(n.max(256), 256).map_err(mem_err)?;
        mem.write(at, &t.data[..n as usize]).map_err(mem_err)?;
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
    let quads_per_wave = if cfg.ps_wave64 { 16 } else { 8 };
    for tri in verts.chunks_exact(3) {
        let Some(s) = setup([&tri[0].clip, &tri[1].clip, &tri[2].clip], w, h)? else {
            continue;
        };
        // Covered quads in row-major order, with their coverage masks.
        let mut quads: Vec<(i64, i64, u8)> = Vec::new();
        let [x0, y0, x1, y1] = s.bbox;
        let mut qy = y0;
        while qy <= y1 {
            let mut qx = x0;
            while qx <= x1 {
                let mut m = 0u8;
                for k in 0..4 {
                    let (px, py) = (qx + (k & 1), qy + (k >> 1));
                    if px < w as i64 && py < h as i64 && s.covered(px, py) {
                        m |= 1 << k;
                    }
                }
                if m != 0 {
                    quads.push((qx, qy, m));
                }
                qx += 2;
            }
            qy += 2;
        }
        let prim = PrimParams {
            attributes: (0..cfg.num_attributes as usize)
                .map(|a| Attribute {
                    vertices: [tri[0].attrs[a], tri[1].attrs[a], tri[2].attrs[a]],
                    flat: cfg.flat_attributes >> a & 1 != 0,
                })
                .collect(),
        };
        for batch in quads.chunks(quads_per_wave) {
            let mut setup_ps = template.clone();
            setup_ps.user_sgprs = ps_sgprs.clone();
            // As for the VS: the uniforms (and texture descriptors) are the user SGPRs,
            // PRIM_MASK follows them.
            if (setup_ps.rsrc2 >> 1) & 0x1f == 0 {
                setup_ps.rsrc2 |= (ps_sgprs.len() as u32 & 0x1f) << 1;
            }
            setup_ps.user_sgprs.resize(64, 0);
            setup_ps.prims = vec![prim.clone()];
            setup_ps.quad_prims = vec![0; quads_per_wave];
            setup_ps.lds_bytes = (cfg.num_attributes * 48).next_multiple_of(1024).max(1024);
            let mut exec = 0u64;
            for (q, &(qx, qy, m)) in batch.iter().enumerate() {
                for k in 0..4 {
                    let l = 4 * q + k;
                    setup_ps.inputs[l] = s.inputs(qx + (k as i64 & 1), qy + (k as i64 >> 1));
                    if m >> k & 1 != 0 {
                        exec |= 1 << l;
                    }
                }
            }
            setup_ps.exec = exec;
            let r = run_ps_wave(&ps.program, entry, &setup_ps, &mem, cfg.max_wave_insts)?;
            stats.ps_waves += 1;
            stats.pixels_shaded += exec.count_ones() as u64;
            stats.wave_instructions += r.wave.wave_insts;
            let mrtz = r.exports.iter().find(|e| e.target == 8);
            for (q, &(qx, qy, _)) in batch.iter().enumerate() {
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
                    let i = (py as u32 * w + px as u32) as usize;
                    if let Some(d) = depth.as_mut() {
                        let z = match mrtz {
                            Some(e) if e.en & 1 != 0 => f32::from_bits(e.data[0][l]),
                            _ => f32::from_bits(setup_ps.inputs[l][18]),
                        };
                        // LESS; a NaN depth fails the test.
                        if z.partial_cmp(&d[i]) != Some(std::cmp::Ordering::Less) {
                            continue;
                        }
                        d[i] = z;
                    }
                    for e in r
                        .exports
                        .iter()
                        .filter(|e| e.target < 8 && e.exec >> l & 1 != 0)
                    {
                        let t = e.target as usize;
                        if let (Some(img), Some(rt)) = (targets.get_mut(t), cfg.targets.get(t)) {
                            store_texel(img, px as u32, py as u32, export_color(e, l, rt.export));
                        }
                    }
                }
            }
        }
    }
    Ok(DrawResult {
        targets,
        depth,
        stats,
    })
}

impl Image {
    /// The image as an 8-bit RGBA PNG (float formats converted as UNORM8 is).
    pub fn png(&self) -> Result<Vec<u8>, DrawError> {
        let n = (self.width * self.height) as usize;
        let mut rgba = Vec::with_capacity(n * 4);
        for i in 0..n {
            match self.format {
                ColorFormat::Rgba8Unorm => rgba.extend_from_slice(&self.bytes[i * 4..i * 4 + 4]),
                ColorFormat::Rgba16Float => {
                    for k in 0..4 {
                        let b = [self.bytes[i * 8 + 2 * k], self.bytes[i * 8 + 2 * k + 1]];
                        rgba.push(unorm8(half::f16::from_le_bytes(b).to_f32()));
                    }
                }
                ColorFormat::Rgba32Float => {
                    for k in 0..4 {
                        let at = i * 16 + 4 * k;
                        let b = [
                            self.bytes[at],
                            self.bytes[at + 1],
                            self.bytes[at + 2],
                            self.bytes[at + 3],
                        ];
                        rgba.push(unorm8(f32::from_le_bytes(b)));
                    }
                }
            }
        }
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, self.width, self.height);
            enc.set_color(png::ColorType::Rgba);
            enc.set_depth(png::BitDepth::Eight);
            let mut wr = enc
                .write_header()
                .map_err(|e| DrawError::Config(e.to_string()))?;
            wr.write_image_data(&rgba)
                .map_err(|e| DrawError::Config(e.to_string()))?;
        }
        Ok(out)
    }
}

/// A draw described in TOML (what `wavesim draw SCENE.toml` reads); paths are relative to the
/// scene file. Example: corpus/gfx/draw/gradient.toml.
///
/// ```toml
/// vs = "../obj/w32/draw_vs.o"         # PAL objects
/// ps = "../obj/w32/draw_ps_gradient.o"
/// width = 64
/// height = 48
/// depth_clear = 1.0                   # optional: LESS depth test
/// [[targets]]
/// format = "rgba8_unorm"              # rgba8_unorm | rgba16_float | rgba32_float
/// export = "f32"                      # f32 | f16 (the PS's MRT export packing)
/// clear = [0.0, 0.0, 0.0, 1.0]
/// [[vertices]]                        # triangle list; the vertex buffer is position, then
/// position = [-0.9, -0.8, 0.5, 1.0]   # each attribute, as float4s
/// attributes = [[1.0, 0.0, 0.0, 1.0]]
/// ```
#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawSpec {
    pub vs: String,
    pub ps: String,
    pub width: u32,
    pub height: u32,
    #[serde(default)]
    pub depth_clear: Option<f32>,
    #[serde(default)]
    pub wave64: bool,
    #[serde(default)]
    pub flat_attributes: u32,
    #[serde(default)]
    pub vs_uniforms: Vec<u32>,
    #[serde(default)]
    pub ps_uniforms: Vec<u32>,
    pub targets: Vec<TargetSpec>,
    pub vertices: Vec<VertexSpec>,
    #[serde(default)]
    pub textures: Vec<TextureSpec>,
}

#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetSpec {
    pub format: String,
    #[serde(default = "default_export")]
    pub export: String,
    #[serde(default)]
    pub clear: [f32; 4],
}

fn default_export() -> String {
    "f32".into()
}

#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VertexSpec {
    pub position: [f32; 4],
    #[serde(default)]
    pub attributes: Vec<[f32; 4]>,
}

#[derive(Clone, Debug, serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextureSpec {
    /// T# data format number (RDNA3 ISA Table 52).
    pub format: u32,
    pub width: u32,
    pub height: u32,
    /// Texel bytes, row-major.
    pub data: Vec<u8>,
    /// S# dwords (RDNA3 ISA Table 51).
    pub sampler: [u32; 4],
}

impl DrawSpec {
    pub fn parse(text: &str) -> Result<DrawSpec, DrawError> {
        toml::from_str(text).map_err(|e| DrawError::Config(format!("scene: {e}")))
    }

    /// The [`DrawConfig`], reading the shader objects relative to `dir`.
    pub fn config(&self, dir: &std::path::Path) -> Result<DrawConfig, DrawError> {
        let read = |p: &str| {
            limits::read_input_file(&dir.join(p))
                .map_err(|e| DrawError::Config(format!("{p}: {e}")))
        };
        let na = self.vertices.first().map_or(0, |v| v.attributes.len());
        if self.vertices.iter().any(|v| v.attributes.len() != na) {
            return Err(DrawError::Config(
                "every vertex must have the same number of attributes".into(),
            ));
        }
        let mut vb = Vec::new();
        for v in &self.vertices {
            for x in v.position.iter().chain(v.attributes.iter().flatten()) {
                vb.extend_from_slice(&x.to_le_bytes());
            }
        }
        let targets = self
            .targets
            .iter()
            .map(|t| {
                let format = match t.format.as_str() {
                    "rgba8_unorm" => ColorFormat::Rgba8Unorm,
                    "rgba16_float" => ColorFormat::Rgba16Float,
                    "rgba32_float" => ColorFormat::Rgba32Float,
                    f => return Err(DrawError::Config(format!("target format {f}"))),
                };
                let export = match t.export.as_str() {
                    "f32" => ExportFormat::F32,
                    "f16" => ExportFormat::F16,
                    f => return Err(DrawError::Config(format!("export format {f}"))),
                };
                Ok(RenderTarget {
                    format,
                    export,
                    clear: t.clear,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(DrawConfig {
            vs: read(&self.vs)?,
            ps: read(&self.ps)?,
            vertex_buffer: vb,
            vertex_count: self.vertices.len() as u32,
            num_attributes: na as u32,
            flat_attributes: self.flat_attributes,
            vs_uniforms: self.vs_uniforms.clone(),
            ps_uniforms: self.ps_uniforms.clone(),
            textures: self
                .textures
                .iter()
                .map(|t| Texture {
                    format: t.format,
                    width: t.width,
                    height: t.height,
                    data: t.data.clone(),
                    sampler: t.sampler,
                })
                .collect(),
            width: self.width,
            height: self.height,
            targets,
            depth_clear: self.depth_clear,
            vs_wave64: self.wave64,
            ps_wave64: self.wave64,
            max_wave_insts: 10_000_000,
        })
    }
}

/// Reads a scene file, draws it, and returns the PNG of each render target (what `wavesim draw`
/// writes).
pub fn draw_scene_file(path: &std::path::Path) -> Result<(DrawResult, Vec<Vec<u8>>), DrawError> {
    let text = limits::read_input_file(path)
        .and_then(|b| String::from_utf8(b).map_err(std::io::Error::other))
        // Without the path: the callers name the scene file.
        .map_err(|e| DrawError::Config(format!("cannot read the scene: {e}")))?;
    let spec = DrawSpec::parse(&text)?;
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    let r = draw(&spec.config(dir)?)?;
    let pngs = r
        .targets
        .iter()
        .map(|t| t.png())
        .collect::<Result<Vec<_>, _>>()?;
    Ok((r, pngs))
}
