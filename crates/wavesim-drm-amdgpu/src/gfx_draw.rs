//! Draws executed from the graphics ring's recorded state: the registers RADV programmed (by
//! their gfx11 names, `gfx_regs`) become the inputs of `wavesim_rdna3::gfx`'s pipeline: RADV's
//! NGG vertex stage (`gfx::ngg`), then clipping, rasterisation, the pixel shader and the colour
//! targets (`gfx::draw::rasterize`), which are read from and written back to the application's
//! memory.
//!
//! Every register field the translation reads is listed where it is read; a value it does not
//! model refuses the draw naming the register (the pipeline states RADV programs for the
//! supported Vulkan state are the ones accepted). Register fields are from Mesa's gfx11
//! register tables (`src/amd/registers/gfx11.json`) and `sid.h`.

use std::collections::HashMap;

use wavesim_core::memory::DeviceMemory;
use wavesim_rdna3::exec::buffer::resource::BufferResource;
use wavesim_rdna3::exec::image::msaa::MsaaTiling;
use wavesim_rdna3::exec::image::swizzle::{Shape, Tiling};
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::gfx::draw::{
    check_pipeline, check_targets, rasterize, DrawConfig, DrawStats, ExportFormat, Frame,
    PixelStage, RenderTarget, VsOut,
};
use wavesim_rdna3::gfx::ngg::{run_ngg, NggSetup, PosLayout, PsInput};
use wavesim_rdna3::gfx::pal::initial_mode;
use wavesim_rdna3::gfx::pipeline::{
    BlendAttachment, CullMode, DrawCall, FrontFace, IndexBuffer, IndexType, PipelineState, Rect,
    Topology, Viewport,
};
use wavesim_rdna3::gfx::ps::{PsWaveSetup, PS_INPUT_VGPRS};
use wavesim_rdna3::gfx::targets::{texel_bytes, ColorFormat, Image};
use wavesim_rdna3::gfx::vertex_fetch::{assemble, Prim};

use crate::gfx_depth::{only, refuse};
use crate::gfx_regs;
use crate::graphics::{self, GfxState};
use crate::memory::{GpuMemory, MemoryError};

/// The draw packet's own parameters.
pub enum DrawPacket {
    /// DRAW_INDEX_AUTO: vertex count.
    Auto { count: u32 },
    /// DRAW_INDEX_2: index address and count.
    Indexed { va: u64, count: u32 },
}

/// Every register value by name: context and user-config as written, SH from `sh`.
struct Regs<'a> {
    gfx: &'a GfxState,
    sh: &'a dyn Fn(u32) -> Option<u32>,
    by_name: HashMap<&'static str, u32>,
}

impl Regs<'_> {
    fn addr(&self, name: &str) -> Result<u32, String> {
        self.by_name
            .get(name)
            .copied()
            .ok_or_else(|| format!("internal: no register {name}"))
    }
    /// The value, None when not written.
    fn opt(&self, name: &str) -> Result<Option<u32>, String> {
        let a = self.addr(name)?;
        Ok(match a {
            graphics::SH_GRAPHICS_BASE..graphics::SH_GRAPHICS_END => (self.sh)(a),
            _ => self.gfx.reg(a),
        })
    }
    /// The value; a register the draw needs but nobody wrote refuses it (its clear-state
    /// default is the kernel's, unknown here).
    fn get(&self, name: &str) -> Result<u32, String> {
        self.opt(name)?
            .ok_or_else(|| format!("{name} was not written (its clear-state default is unknown)"))
    }
    /// The value, or `default` when not written, where the default is the one
    /// Mesa's CLEAR_STATE table (`ac_pm4` / `si_init_cs_preamble_state` equivalents) gives.
    fn or(&self, name: &str, default: u32) -> Result<u32, String> {
        Ok(self.opt(name)?.unwrap_or(default))
    }
}

/// Encoded VGPR granules (RSRC1.VGPRS) to VGPRs: 8 per granule in wave32, 4 in wave64 (the
/// encoding granule of gfx10+), at most 256.
fn vgprs(rsrc1: u32, wave64: bool) -> u16 {
    (((rsrc1 & 0x3f) + 1) * if wave64 { 4 } else { 8 }).min(256) as u16
}

/// A colour target: CB_COLORn_INFO's FORMAT [4:0], NUMBER_TYPE [10:8], COMP_SWAP [12:11]
/// (gfx11 layout) as RADV programs them for the formats wavesim's targets hold.
fn color_format(info: u32) -> Result<ColorFormat, String> {
    let (fmt, num, swap) = (info & 0x1f, info >> 8 & 7, info >> 11 & 3);
    match (fmt, num, swap) {
        // COLOR_8_8_8_8, NUMBER_UNORM, SWAP_STD: VK_FORMAT_R8G8B8A8_UNORM.
        (0xa, 0, 0) => Ok(ColorFormat::Rgba8Unorm),
        // COLOR_16_16_16_16, NUMBER_FLOAT: R16G16B16A16_SFLOAT.
        (0xc, 7, 0) => Ok(ColorFormat::Rgba16Float),
        // COLOR_32_32_32_32, NUMBER_FLOAT: R32G32B32A32_SFLOAT.
        (0xe, 7, 0) => Ok(ColorFormat::Rgba32Float),
        _ => refuse(format!(
            "CB_COLOR_INFO {info:#x}: format {fmt:#x}, number type {num}, swap {swap} is not a target format wavesim holds"
        )),
    }
}

/// CB_BLENDn_CONTROL (gfx11): COLOR_SRCBLEND [4:0], COLOR_COMB_FCN [7:5], COLOR_DESTBLEND
/// [12:8], ALPHA_SRCBLEND [20:16], ALPHA_COMB_FCN [23:21], ALPHA_DESTBLEND [28:24],
/// SEPARATE_ALPHA_BLEND [29] (0: alpha uses the colour fields), ENABLE [30], DISABLE_ROP3
/// [31] (no effect with ROP3 copy). Function codes are Mesa `sid.h`'s V_028780_COMB_*; factor
/// codes 0-10 are V_028780_BLEND_*, and the gfx11 constant factors (11, 12, 17, 18) were read
/// from RADV's own registers for known Vulkan factors (tests/radv_draw.rs's `constsub` blend:
/// CONSTANT_COLOR = 11, ONE_MINUS_CONSTANT_ALPHA = 18). The dual-source factors (13-16 by
/// that numbering) are refused until a capture shows them.
fn blend_attachment(name: &str, v: u32) -> Result<BlendAttachment, String> {
    use wavesim_rdna3::gfx::pipeline::{BlendFactor as F, BlendOp as O};
    if v >> 30 & 1 == 0 {
        return Ok(BlendAttachment::default());
    }
    let factor = |k: u32| -> Result<F, String> {
        Ok(match k {
            0 => F::Zero,
            1 => F::One,
            2 => F::SrcColor,
            3 => F::OneMinusSrcColor,
            4 => F::SrcAlpha,
            5 => F::OneMinusSrcAlpha,
            6 => F::DstAlpha,
            7 => F::OneMinusDstAlpha,
            8 => F::DstColor,
            9 => F::OneMinusDstColor,
            10 => F::SrcAlphaSaturate,
            11 => F::ConstantColor,
            12 => F::OneMinusConstantColor,
            17 => F::ConstantAlpha,
            18 => F::OneMinusConstantAlpha,
            _ => return refuse(format!("{name} {v:#x}: blend factor {k} is not executed")),
        })
    };
    let op = |k: u32| -> Result<O, String> {
        Ok(match k {
            0 => O::Add,
            1 => O::Subtract,
            2 => O::Min,
            3 => O::Max,
            4 => O::ReverseSubtract,
            _ => return refuse(format!("{name} {v:#x}: blend function {k} is not executed")),
        })
    };
    let src_color = factor(v & 0x1f)?;
    let color_op = op(v >> 5 & 7)?;
    let dst_color = factor(v >> 8 & 0x1f)?;
    let (src_alpha, alpha_op, dst_alpha) = if v >> 29 & 1 != 0 {
        (
            factor(v >> 16 & 0x1f)?,
            op(v >> 21 & 7)?,
            factor(v >> 24 & 0x1f)?,
        )
    } else {
        (src_color, color_op, dst_color)
    };
    Ok(BlendAttachment {
        enable: true,
        src_color,
        dst_color,
        color_op,
        src_alpha,
        dst_alpha,
        alpha_op,
        write_mask: 0xf,
    })
}

/// One colour target in memory: base address, row pitch in bytes, format.
struct Target {
    va: u64,
    pitch: u64,
    format: ColorFormat,
    /// The tiled layout (None: linear rows of `pitch` bytes).
    tiling: Option<Tiling>,
    /// A multisampled target's layout (`tiling` is then None).
    msaa: Option<MsaaTiling>,
}

impl Target {
    /// The target's `width` x `height` texels, rows packed.
    fn read(&self, mem: &dyn GpuMemory, width: u32, height: u32) -> Result<Vec<u8>, String> {
        if let Some(m) = &self.msaa {
            return crate::gfx_msaa::read_samples(mem, (self.va, m), (width, height), self.format);
        }
        let tb = texel_bytes(self.format);
        let row = width as usize * tb;
        let mut bytes = vec![0u8; row * height as usize];
        let fail = |e: MemoryError| format!("colour target at {:#x}: {e}", self.va);
        for y in 0..height {
            let out = &mut bytes[y as usize * row..][..row];
            match &self.tiling {
                None => mem
                    .read(self.va + y as u64 * self.pitch, out)
                    .map_err(fail)?,
                Some(t) => {
                    for (x, texel) in out.chunks_mut(tb).enumerate() {
                        mem.read(t.texel_addr(self.va, 0, x as u32, y), texel)
                            .map_err(fail)?;
                    }
                }
            }
        }
        Ok(bytes)
    }

    /// Writes the `width` x `height` texels `bytes` (rows packed) back.
    fn write(
        &self,
        mem: &dyn GpuMemory,
        width: u32,
        height: u32,
        bytes: &[u8],
    ) -> Result<(), String> {
        if let Some(m) = &self.msaa {
            return crate::gfx_msaa::write_samples(
                mem,
                (self.va, m),
                (width, height),
                self.format,
                bytes,
            );
        }
        let tb = texel_bytes(self.format);
        let row = width as usize * tb;
        let fail = |e: MemoryError| format!("colour target at {:#x}: {e}", self.va);
        for y in 0..height {
            let src = &bytes[y as usize * row..][..row];
            match &self.tiling {
                None => mem
                    .write(self.va + y as u64 * self.pitch, src)
                    .map_err(fail)?,
                Some(t) => {
                    for (x, texel) in src.chunks(tb).enumerate() {
                        mem.write(t.texel_addr(self.va, 0, x as u32, y), texel)
                            .map_err(fail)?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// A rectangle list's primitives as triangles: each rectangle's three vertices v0, v1, v2 are
/// three corners of a screen-aligned rectangle whose fourth corner is v1 + v2 - v0 (RADV's meta
/// vertex shaders put v0 at (x0, y0), v1 at (x0, y1), v2 at (x1, y0): Mesa's
/// `nir_gen_rect_vertices`); the fourth vertex is appended to `verts` with its position and
/// attributes extrapolated the same way (exact for the constant and affine values RADV's meta
/// shaders export), and the rectangle becomes triangles (v0, v1, v2) and (v1, v3, v2), which
/// share the diagonal (the top-left rule covers each pixel once). Rectangles with differing
/// clip w, clip distances or a point size are refused.
fn rectangles(verts: &mut Vec<VsOut>, prims: &[Prim]) -> Result<Vec<Prim>, String> {
    let mut out = Vec::with_capacity(2 * prims.len());
    for p in prims {
        let &Prim::Triangle([a, b, c]) = p else {
            return refuse(format!(
                "a rectangle list primitive {p:?} that is not 3 vertices"
            ));
        };
        let [va, vb, vc] = [a, b, c].map(|k| &verts[k]);
        if va.clip[3] != vb.clip[3] || va.clip[3] != vc.clip[3] {
            return refuse("a rectangle whose vertices have different clip w");
        }
        if [va, vb, vc].iter().any(|v| {
            !v.dists.is_empty() || v.point_size.is_some() || v.attrs.len() != va.attrs.len()
        }) {
            return refuse("a rectangle with clip distances or a point size");
        }
        let corner = |x: f32, y: f32, z: f32| y + z - x;
        let mut clip = [0.0; 4];
        for (k, c) in clip.iter_mut().enumerate() {
            *c = corner(va.clip[k], vb.clip[k], vc.clip[k]);
        }
        let attrs = (0..va.attrs.len())
            .map(|i| {
                std::array::from_fn(|k| corner(va.attrs[i][k], vb.attrs[i][k], vc.attrs[i][k]))
            })
            .collect();
        let d = verts.len();
        verts.push(VsOut {
            clip,
            point_size: None,
            dists: vec![],
            attrs,
        });
        out.push(Prim::Triangle([a, b, c]));
        out.push(Prim::Triangle([b, d, c]));
    }
    Ok(out)
}

/// Executes one draw; returns a one-line summary for the log.
pub fn execute(
    packet: DrawPacket,
    gfx: &GfxState,
    sh: &dyn Fn(u32) -> Option<u32>,
    mem: &dyn GpuMemory,
    max_wave_insts: u64,
) -> Result<String, String> {
    let by_name = gfx_regs::CONTEXT
        .iter()
        .chain(gfx_regs::UCONFIG)
        .chain(gfx_regs::SH_GRAPHICS)
        .map(|&(a, n)| (n, a))
        .collect();
    let r = Regs { gfx, sh, by_name };

    // Stages: only the NGG vertex shader and the pixel shader (VGT_SHADER_STAGES_EN as RADV
    // 22.3 writes it for a VS+FS pipeline: ES_EN = real ES, PRIMGEN_EN, NGG_WAVE_ID_EN,
    // PRIMGEN_PASSTHRU_EN/_NO_MSG; GS_W32_EN [22] selects the wave size).
    let stages = r.get("VGT_SHADER_STAGES_EN")?;
    if stages & !(1 << 22) != 0x0601_2010 {
        return refuse(format!(
            "VGT_SHADER_STAGES_EN = {stages:#x}: only RADV's NGG vertex + pixel pipeline (0x06012010) is executed"
        ));
    }
    let vs_wave64 = stages >> 22 & 1 == 0;
    // Multisampling: sample count, locations, mask and centroid order (gfx_msaa).
    let multisample = crate::gfx_msaa::multisample_state(&|n: &str| r.opt(n))?;
    let samples = multisample.samples;
    let ps_in_control = r.get("SPI_PS_IN_CONTROL")?;
    // NUM_INTERP [5:0], PARAM_GEN [6], OFFCHIP_PARAM_EN [7], LATE_PC_DEALLOC [8],
    // NUM_PRIM_INTERP [13:9], BC_OPTIMIZE_DISABLE [14], PS_W32_EN [15].
    only("SPI_PS_IN_CONTROL", ps_in_control, 0x3f | 1 << 15)?;
    let ps_wave64 = ps_in_control >> 15 & 1 == 0;
    let num_interp = (ps_in_control & 0x3f) as usize;

    // Topology (VGT_PRIMITIVE_TYPE, Mesa `sid.h` V_008958_DI_PT_*).
    // DI_PT_RECTLIST (0x11), RADV's meta draws (clears, blits): assembled and shaded as a
    // triangle list, each triangle then made a rectangle (`rectangles`).
    let rect_list = r.get("VGT_PRIMITIVE_TYPE")? == 0x11;
    let topology = match r.get("VGT_PRIMITIVE_TYPE")? {
        0x11 => Topology::TriangleList,
        1 => Topology::PointList,
        2 => Topology::LineList,
        3 => Topology::LineStrip,
        4 => Topology::TriangleList,
        5 => Topology::TriangleFan,
        6 => Topology::TriangleStrip,
        t => return refuse(format!("VGT_PRIMITIVE_TYPE {t:#x} is not executed")),
    };
    let restart = r.or("GE_MULTI_PRIM_IB_RESET_EN", 0)?;
    only("GE_MULTI_PRIM_IB_RESET_EN", restart, 1)?;
    let instances = gfx.num_instances.unwrap_or(1);
    let (vertex_count, index) = match packet {
        DrawPacket::Auto { count } => (count, None),
        DrawPacket::Indexed { va, count } => {
            // INDEX_TYPE: 0 16-bit, 1 32-bit (8-bit is not a Vulkan index type without an
            // extension RADV 22.3 lacks).
            // The INDEX_TYPE packet, or VGT_INDEX_TYPE (INDEX_TYPE [1:0]) written with
            // SET_UCONFIG_REG_INDEX (index 2), as RADV 22.3 does on gfx11. Both written with
            // different values: which came last is not recorded, so the draw is refused.
            let ty = match (gfx.index_type, r.opt("VGT_INDEX_TYPE")?) {
                (Some(a), Some(b)) if a != b => {
                    return refuse(format!(
                        "the INDEX_TYPE packet ({a:#x}) and VGT_INDEX_TYPE ({b:#x}) disagree"
                    ))
                }
                (Some(t), _) | (None, Some(t)) => Some(t),
                (None, None) => None,
            };
            if let Some(t) = ty {
                only("VGT_INDEX_TYPE", t, 3)?;
            }
            let (ty, size) = match ty {
                Some(0) => (IndexType::U16, 2),
                Some(1) => (IndexType::U32, 4),
                t => return refuse(format!("INDEX_TYPE {t:?} is not executed")),
            };
            if restart & 1 != 0 {
                let want = if size == 2 { 0xffff } else { 0xffff_ffff };
                let v = r.or("VGT_MULTI_PRIM_IB_RESET_INDX", want)?;
                if v != want {
                    return refuse(format!(
                        "VGT_MULTI_PRIM_IB_RESET_INDX {v:#x}: restart with other than the all-ones index"
                    ));
                }
            }
            let mut data = vec![0u8; count as usize * size];
            mem.read(va, &mut data)
                .map_err(|e| format!("index buffer at {va:#x}: {e}"))?;
            let ib = IndexBuffer {
                index_type: ty,
                data,
                first_index: 0,
                index_count: count,
                vertex_offset: 0,
            };
            (count, Some(ib))
        }
    };

    // Viewport 0 (PA_CL_VTE_CNTL 0x43f: all six scale/offset enables and VTX_W0_FMT, W is
    // 1/W after the divide: the rasteriser's convention).
    let vte = r.get("PA_CL_VTE_CNTL")?;
    if vte != 0x43f {
        return refuse(format!("PA_CL_VTE_CNTL {vte:#x} (only 0x43f is executed)"));
    }
    let f = |n: &str| r.get(n).map(f32::from_bits);
    let (xs, xo, ys, yo, zs, zo) = (
        f("PA_CL_VPORT_XSCALE")?,
        f("PA_CL_VPORT_XOFFSET")?,
        f("PA_CL_VPORT_YSCALE")?,
        f("PA_CL_VPORT_YOFFSET")?,
        f("PA_CL_VPORT_ZSCALE")?,
        f("PA_CL_VPORT_ZOFFSET")?,
    );
    // Vulkan's transform xf = ox + px/2 xd with ox = x + width/2: scale = width/2, offset =
    // x + width/2 (the same for y); zf = oz + pz zd with oz = minDepth, pz = maxDepth - minDepth.
    let viewport = Viewport {
        x: xo - xs,
        y: yo - ys,
        width: 2.0 * xs,
        height: 2.0 * ys,
        min_depth: zo,
        max_depth: zo + zs,
    };

    // PA_CL_CLIP_CNTL: UCP_ENA_0..5 [5:0] no, DX_CLIP_SPACE_DEF [19] (z in [0, w]) required,
    // ZCLIP_NEAR/FAR_DISABLE [26]/[27] both or neither (depth clamp), DX_LINEAR_ATTR_CLIP_ENA
    // [24] (attributes interpolated linearly in clip space when clipping, as the clipper does).
    let clip = r.get("PA_CL_CLIP_CNTL")?;
    only("PA_CL_CLIP_CNTL", clip, 1 << 19 | 1 << 24 | 3 << 26)?;
    if clip >> 19 & 1 == 0 {
        return refuse("PA_CL_CLIP_CNTL: DX_CLIP_SPACE_DEF 0 (OpenGL depth) is not executed");
    }
    let zclip = clip >> 26 & 3;
    if zclip == 1 || zclip == 2 {
        return refuse("PA_CL_CLIP_CNTL: only one of ZCLIP_NEAR/FAR_DISABLE");
    }
    // PA_CL_VS_OUT_CNTL: CLIP_DIST_ENA [7:0], CULL_DIST_ENA [15:8], USE_VTX_POINT_SIZE [16],
    // USE_VTX_RENDER_TARGET_INDX [18] (RADV's meta clear shaders export the layer),
    // VS_OUT_MISC_VEC_ENA [21], VS_OUT_CCDIST0/1_VEC_ENA [22]/[23], VS_OUT_MISC_SIDE_BUS_ENA
    // [24] (the misc vector also travels on the side bus: a path, not a value).
    let out_cntl = r.get("PA_CL_VS_OUT_CNTL")?;
    only(
        "PA_CL_VS_OUT_CNTL",
        out_cntl,
        0xffff | 1 << 16 | 1 << 18 | 1 << 21 | 1 << 22 | 1 << 23 | 1 << 24,
    )?;
    let clip_ena = out_cntl & 0xff;
    let clip_distances = clip_ena.count_ones() as usize;
    if clip_ena != (1 << clip_distances) - 1 {
        return refuse(format!(
            "PA_CL_VS_OUT_CNTL.CLIP_DIST_ENA {clip_ena:#x} is not 0..n"
        ));
    }
    // RADV enables culling on every clip distance too; a cull distance that is not also a
    // clip distance is not modelled.
    if (out_cntl >> 8 & 0xff) & !clip_ena != 0 {
        return refuse("PA_CL_VS_OUT_CNTL: cull distances are not executed");
    }
    let misc = out_cntl >> 21 & 1 != 0;
    let pos = PosLayout {
        point_size: misc && out_cntl >> 16 & 1 != 0,
        misc,
        layer: misc && out_cntl >> 18 & 1 != 0,
        clip_distances,
    };

    // PA_SU_SC_MODE_CNTL: CULL_FRONT [0], CULL_BACK [1], FACE [2] (1: clockwise is front),
    // POLY_MODE [4:3] (0: fill), POLYMODE_FRONT/BACK_PTYPE [7:5]/[10:8] (no effect without
    // POLY_MODE), PROVOKING_VTX_LAST [19] (0: first), POLY_OFFSET_FRONT/BACK/PARA_ENABLE
    // [13:11] (depth bias: gfx_depth::depth_bias).
    let sc = r.get("PA_SU_SC_MODE_CNTL")?;
    only("PA_SU_SC_MODE_CNTL", sc, 0x7 | 0x7e0 | 0x7 << 11)?;
    let cull_mode = match sc & 3 {
        0 => CullMode::None,
        1 => CullMode::Front,
        2 => CullMode::Back,
        _ => CullMode::FrontAndBack,
    };
    let front_face = if sc >> 2 & 1 != 0 {
        FrontFace::Clockwise
    } else {
        FrontFace::CounterClockwise
    };
    // PA_SU_LINE_CNTL.WIDTH [15:0] and PA_SU_POINT_SIZE.HEIGHT [15:0] / WIDTH [31:16]: half
    // sizes in 1/16 pixel (12.4 fixed point; RADV writes 8 for a width of 1).
    let line_width = (r.get("PA_SU_LINE_CNTL")? & 0xffff) as f32 / 8.0;
    let ps_reg = r.get("PA_SU_POINT_SIZE")?;
    if ps_reg >> 16 != ps_reg & 0xffff {
        return refuse(format!("PA_SU_POINT_SIZE {ps_reg:#x}: width != height"));
    }
    let point_size = (ps_reg & 0xffff) as f32 / 8.0;

    // Scissor: PA_SC_MODE_CNTL_0.VPORT_SCISSOR_ENABLE [1] applies PA_SC_VPORT_SCISSOR_0; the
    // window scissor always applies. TL: X [14:0], Y [30:16], WINDOW_OFFSET_DISABLE [31];
    // BR: X [14:0], Y [30:16], exclusive.
    let rect = |tl: u32, br: u32| {
        (
            (tl & 0x7fff) as i32,
            (tl >> 16 & 0x7fff) as i32,
            (br & 0x7fff) as i32,
            (br >> 16 & 0x7fff) as i32,
        )
    };
    let mut sc_rect = rect(
        r.get("PA_SC_WINDOW_SCISSOR_TL")?,
        r.get("PA_SC_WINDOW_SCISSOR_BR")?,
    );
    let mode0 = r.get("PA_SC_MODE_CNTL_0")?;
    if mode0 >> 1 & 1 != 0 {
        let v = rect(
            r.get("PA_SC_VPORT_SCISSOR_0_TL")?,
            r.get("PA_SC_VPORT_SCISSOR_0_BR")?,
        );
        sc_rect = (
            sc_rect.0.max(v.0),
            sc_rect.1.max(v.1),
            sc_rect.2.min(v.2),
            sc_rect.3.min(v.3),
        );
    }
    for name in ["PA_SC_GENERIC_SCISSOR_TL", "PA_SC_SCREEN_SCISSOR_TL"] {
        if r.opt(name)?.is_some() {
            return refuse(format!("{name} is written: not executed"));
        }
    }

    // The depth block: surface, HTILE and test (gfx_depth).
    let reg = |n: &str| r.opt(n);
    let (depth, depth_stencil) = crate::gfx_depth::depth_setup(&reg)?;
    // CB_COLOR_CONTROL: MODE [6:4] = 1 (normal), ROP3 [23:16] = 0xcc (copy), DISABLE_DUAL_QUAD
    // [0] (no effect here). MODE 0 (CB_DISABLE) with a depth buffer: RADV's depth-only meta
    // draws (its depth clears), which write no colour target whatever CB_COLORn_INFO holds.
    let cc = r.get("CB_COLOR_CONTROL")?;
    let cb_disabled = cc & !1 == 0x00cc_0000 && depth.is_some();
    if cc & !1 != 0x00cc_0010 && !cb_disabled {
        return refuse(format!(
            "CB_COLOR_CONTROL {cc:#x}: only normal mode with ROP3 copy is executed"
        ));
    }

    // Colour targets 0..7: CB_COLORn_INFO.FORMAT 0 is none.
    let target_mask = r.get("CB_TARGET_MASK")?;
    let shader_mask = r.get("CB_SHADER_MASK")?;
    let col_format = r.get("SPI_SHADER_COL_FORMAT")?;
    let mut targets = Vec::new();
    let mut rts = Vec::new();
    let mut blend = Vec::new();
    let (mut width, mut height) = (0, 0);
    for t in 0..if cb_disabled { 0 } else { 8u32 } {
        let info = r.or(&format!("CB_COLOR{t}_INFO"), 0)?;
        let write = target_mask >> (4 * t) & 0xf;
        if info & 0x1f == 0 {
            if write != 0 && col_format >> (4 * t) & 0xf != 0 {
                return refuse(format!("MRT{t} is exported and written but has no target"));
            }
            continue;
        }
        if t as usize != targets.len() {
            return refuse(format!("colour target {t} after an unused one"));
        }
        let format = color_format(info)?;
        // ATTRIB2: MIP0_HEIGHT - 1 [13:0], MIP0_WIDTH - 1 [27:14], MAX_MIP [31:28]; ATTRIB3:
        // MIP0_DEPTH - 1 [12:0] (layers), META_LINEAR [13], COLOR_SW_MODE [18:14] (0 = linear),
        // RESOURCE_TYPE [25:24], DCC_PIPE_ALIGNED [30] (DCC metadata only).
        let a2 = r.get(&format!("CB_COLOR{t}_ATTRIB2"))?;
        let (w, h) = ((a2 >> 14 & 0x3fff) + 1, (a2 & 0x3fff) + 1);
        let a3 = r.get(&format!("CB_COLOR{t}_ATTRIB3"))?;
        let sw_mode = a3 >> 14 & 0x1f;
        // FDCC_CONTROL.FDCC_ENABLE [22]: the target is DCC-compressed. RADV enables DCC (and
        // CMASK fast clears) only for images larger than 512x512 texels or multisampled ones
        // (`radv_image_use_fast_clear_for_image_early`, Mesa 22.3): the small targets the tests
        // draw are uncompressed, and compressed ones are refused by name.
        if r.or(&format!("CB_COLOR{t}_FDCC_CONTROL"), 0)? >> 22 & 1 != 0 {
            return refuse(format!(
                "colour target {t}: DCC compression (CB_COLOR{t}_FDCC_CONTROL.FDCC_ENABLE) is not executed"
            ));
        }
        let attrib = r.or(&format!("CB_COLOR{t}_ATTRIB"), 0)?;
        crate::gfx_msaa::check_color_attrib(t, attrib, samples)?;
        // RESOURCE_TYPE: addrlib's AddrResourceType (0 1D, 1 2D, 2 3D).
        if a3 >> 24 & 3 != 1 {
            return refuse(format!(
                "colour target {t}: ATTRIB3 {a3:#x}: resource type {} (2D targets only)",
                a3 >> 24 & 3
            ));
        }
        if a3 & 0x1fff != 0 || a2 >> 28 != 0 {
            return refuse(format!(
                "colour target {t}: ATTRIB2 {a2:#x} / ATTRIB3 {a3:#x}: several layers or mip levels are not executed"
            ));
        }
        if r.or(&format!("CB_COLOR{t}_VIEW"), 0)? != 0 {
            return refuse(format!("colour target {t}: CB_COLOR{t}_VIEW is not 0"));
        }
        if t == 0 {
            (width, height) = (w, h);
        } else if (w, h) != (width, height) {
            return refuse("colour targets of different sizes");
        }
        let bpp = texel_bytes(format) as u64;
        let base = (r.get(&format!("CB_COLOR{t}_BASE"))? as u64
            | (r.or(&format!("CB_COLOR{t}_BASE_EXT"), 0)? as u64 & 0xff) << 32)
            << 8;
        // Linear surfaces: rows of a multiple of 256 bytes (addrlib's gfx11 linear pitch
        // alignment); other widths are refused rather than guessed. Tiled ones: addrlib's
        // layout for the swizzle mode (`exec::image::swizzle`, as the texture unit reads it);
        // the base holds the pipe/bank XOR of an _X mode (RADV ORs the surface's tile swizzle
        // into CB_COLORn_BASE as into the T#).
        let pitch = w as u64 * bpp;
        let msaa = if samples > 1 {
            Some(
                MsaaTiling::new(sw_mode, (w, h), samples, base, bpp)
                    .map_err(|e| format!("colour target {t}: {e}"))?,
            )
        } else {
            None
        };
        let tiling = if msaa.is_some() {
            None
        } else if sw_mode == 0 {
            if !pitch.is_multiple_of(256) {
                return refuse(format!(
                    "colour target {t}: a linear row of {pitch} bytes (only multiples of 256 are executed)"
                ));
            }
            None
        } else {
            Some(
                Tiling::new(sw_mode, Shape::TwoD, (w, h), 1, base, bpp)
                    .map_err(|e| format!("colour target {t}: {e}"))?,
            )
        };
        targets.push(Target {
            va: base,
            pitch,
            format,
            tiling,
            msaa,
        });
        let export = match col_format >> (4 * t) & 0xf {
            4 => ExportFormat::F16, // SPI_SHADER_FP16_ABGR
            9 => ExportFormat::F32, // SPI_SHADER_32_ABGR
            // SPI_SHADER_ZERO: the shader exports nothing to this target, and RADV clears its
            // CB_SHADER_MASK nibble (Mesa's ac_get_cb_shader_mask), so the CB writes none of
            // its components (the write mask below is TARGET_MASK & SHADER_MASK).
            0 if write & shader_mask >> (4 * t) & 0xf == 0 => ExportFormat::F32,
            c => {
                return refuse(format!(
                    "SPI_SHADER_COL_FORMAT MRT{t} = {c} is not executed"
                ))
            }
        };
        rts.push(RenderTarget {
            format,
            export,
            clear: [0.0; 4],
        });
        let name = format!("CB_BLEND{t}_CONTROL");
        let mut a = blend_attachment(&name, r.or(&name, 0)?)?;
        a.write_mask = (write & shader_mask >> (4 * t) & 0xf) as u8;
        blend.push(a);
    }
    if samples > 1 && depth.is_some() {
        return refuse(format!(
            "a {samples}-sample draw with a depth buffer: multisampled depth surfaces are not executed"
        ));
    }
    match &depth {
        // A depth-only draw (RADV's depth clears): the depth surface's size.
        Some(d) if targets.is_empty() => (width, height) = (d.width, d.height),
        Some(d) if (d.width, d.height) != (width, height) => {
            return refuse(format!(
                "a {}x{} depth surface with {width}x{height} colour targets",
                d.width, d.height
            ))
        }
        Some(_) => {}
        None if targets.is_empty() => return refuse("no colour target and no depth buffer"),
        None => {}
    }
    // CB_BLEND_RED/GREEN/BLUE/ALPHA: needed only by the constant factors.
    let mut constants = [0.0f32; 4];
    let uses_constant = blend.iter().any(|a| {
        use wavesim_rdna3::gfx::pipeline::BlendFactor as F;
        a.enable
            && [a.src_color, a.dst_color, a.src_alpha, a.dst_alpha]
                .iter()
                .any(|f| {
                    matches!(
                        f,
                        F::ConstantColor
                            | F::OneMinusConstantColor
                            | F::ConstantAlpha
                            | F::OneMinusConstantAlpha
                    )
                })
    });
    if uses_constant {
        for (k, n) in [
            "CB_BLEND_RED",
            "CB_BLEND_GREEN",
            "CB_BLEND_BLUE",
            "CB_BLEND_ALPHA",
        ]
        .iter()
        .enumerate()
        {
            constants[k] = f(n)?;
        }
    }
    let scissor = Rect {
        x: sc_rect.0.max(0),
        y: sc_rect.1.max(0),
        width: (sc_rect.2.min(width as i32) - sc_rect.0.max(0)).max(0) as u32,
        height: (sc_rect.3.min(height as i32) - sc_rect.1.max(0)).max(0) as u32,
    };

    // The PS's inputs (SPI_PS_INPUT_CNTL_n: OFFSET [5:0], bit 5 with DEFAULT_VAL [9:8] for a
    // constant, FLAT_SHADE [10]).
    let mut ps_inputs = Vec::with_capacity(num_interp);
    let mut flat = 0u32;
    for i in 0..num_interp {
        let c = r.get(&format!("SPI_PS_INPUT_CNTL_{i}"))?;
        only(
            &format!("SPI_PS_INPUT_CNTL_{i}"),
            c,
            0x3f | 3 << 8 | 1 << 10,
        )?;
        if c >> 10 & 1 != 0 {
            flat |= 1 << i;
        }
        ps_inputs.push(if c & 0x20 != 0 {
            PsInput::Constant(match c >> 8 & 3 {
                0 => [0.0, 0.0, 0.0, 0.0],
                1 => [0.0, 0.0, 0.0, 1.0],
                2 => [1.0, 1.0, 1.0, 0.0],
                _ => [1.0; 4],
            })
        } else {
            PsInput::Param((c & 0x1f) as usize)
        });
    }
    // SPI_VS_OUT_CONFIG: VS_EXPORT_COUNT [5:1] (parameters - 1), NO_PC_EXPORT [7].
    let out_cfg = r.get("SPI_VS_OUT_CONFIG")?;
    only("SPI_VS_OUT_CONFIG", out_cfg, 0x3e | 1 << 7)?;
    let params = if out_cfg >> 7 & 1 != 0 {
        0
    } else {
        (out_cfg >> 1 & 0x1f) as usize + 1
    };

    let pipeline = PipelineState {
        topology,
        primitive_restart: restart & 1 != 0,
        draw: DrawCall {
            vertex_count: Some(vertex_count),
            first_vertex: 0,
            instance_count: instances,
            first_instance: 0,
        },
        index,
        vertex_input: None,
        viewport: Some(viewport),
        scissor: Some(scissor),
        multisample,
        rasterization: wavesim_rdna3::gfx::pipeline::RasterizationState {
            depth_clamp: zclip == 3,
            cull_mode,
            front_face,
            point_size,
            line_width,
            clip_distances: clip_distances as u32,
            depth_bias: crate::gfx_depth::depth_bias(
                &reg,
                sc,
                depth.as_ref().is_some_and(|d| d.has_depth()),
                &depth_stencil,
            )?,
            ..Default::default()
        },
        blend: wavesim_rdna3::gfx::pipeline::BlendState {
            attachments: blend,
            constants,
        },
        depth_stencil,
        ..Default::default()
    };
    let cfg = DrawConfig {
        vs: vec![],
        ps: vec![],
        vertex_buffer: vec![],
        vertex_count,
        num_attributes: num_interp as u32,
        flat_attributes: flat,
        vs_uniforms: vec![],
        ps_uniforms: vec![],
        textures: vec![],
        width,
        height,
        targets: rts,
        // Marks the depth buffer for the size checks; its values come in `Frame::depth`.
        depth_clear: depth.as_ref().filter(|d| d.has_depth()).map(|_| 0.0),
        vs_wave64,
        ps_wave64,
        max_wave_insts,
        pipeline,
    };
    check_targets(&cfg).map_err(|e| e.to_string())?;
    check_pipeline(&cfg).map_err(|e| e.to_string())?;

    // SAFETY: every range is a live shared mapping of the device memory (memory.rs); no other
    // thread touches it while the shim's lock is held, except the application through its own
    // CPU mappings, as on real hardware.
    let dmem = unsafe { DeviceMemory::host_ranges(&mem.ranges()) }.map_err(|e| e.to_string())?;

    // The vertex stage.
    let pgm = |lo: &str, hi: &str| -> Result<u64, String> {
        Ok((r.get(lo)? as u64 | (r.get(hi)? as u64 & 0xff) << 32) << 8)
    };
    let es_va = pgm("SPI_SHADER_PGM_LO_ES", "SPI_SHADER_PGM_HI_ES")?;
    let es_code = graphics::program(mem, es_va).map_err(|e| format!("vertex stage: {e}"))?;
    let es = Program::new(&es_code, es_va).map_err(|e| format!("vertex stage: {e}"))?;
    let rsrc1 = r.get("SPI_SHADER_PGM_RSRC1_GS")?;
    let rsrc2 = r.get("SPI_SHADER_PGM_RSRC2_GS")?;
    // RSRC2_GS: SCRATCH_EN [0], USER_SGPR [5:1], ES_VGPR_COMP_CNT [17:16], USER_SGPR_MSB [27].
    if rsrc2 & 1 != 0 {
        return refuse("the vertex stage uses scratch: not executed");
    }
    let n_user = (rsrc2 >> 1 & 0x1f | (rsrc2 >> 27 & 1) << 5) as usize;
    let user_sgprs = (0..n_user)
        .map(|k| r.get(&format!("SPI_SHADER_USER_DATA_GS_{k}")))
        .collect::<Result<Vec<_>, _>>()?;
    let user_data_addr = [
        r.get("SPI_SHADER_PGM_LO_GS")?,
        r.get("SPI_SHADER_PGM_HI_GS")?,
    ];
    // SPI_ATTRIBUTE_RING_BASE: the address >> 16. The ring's V# RADV puts in the ring table
    // (at +0xa0, which the shaders load) must describe the layout `ngg` reads back.
    let attr_ring = (r.get("SPI_ATTRIBUTE_RING_BASE")? as u64) << 16;
    if params != 0 {
        let table = user_data_addr[0] as u64 | (user_data_addr[1] as u64) << 32;
        let mut w = [0u8; 16];
        mem.read(table + 0xa0, &mut w)
            .map_err(|e| format!("attribute ring descriptor: {e}"))?;
        let words = [0, 1, 2, 3]
            .map(|k| u32::from_le_bytes([w[4 * k], w[4 * k + 1], w[4 * k + 2], w[4 * k + 3]]));
        let d = BufferResource::from_words(words);
        if d.base != attr_ring || d.swizzle_enable != 3 || d.index_stride_records() != 32 {
            return refuse(format!(
                "the attribute ring V# {words:08x?} is not the 16-byte, index-stride-32 ring at {attr_ring:#x}"
            ));
        }
    }
    let setup = NggSetup {
        wave64: vs_wave64,
        num_vgprs: vgprs(rsrc1, vs_wave64),
        mode: initial_mode(rsrc1),
        user_data_addr,
        user_sgprs,
        es_vgprs: (rsrc2 >> 16 & 3) as usize + 1,
        attr_ring,
        params,
        ps_inputs,
        pos,
        lds_bytes: 65536,
        max_wave_insts,
        prims_per_instance: 0,
    };
    let asm = assemble(&cfg.pipeline, vertex_count)?;
    let setup = NggSetup {
        prims_per_instance: asm.prims.len() / instances.max(1) as usize,
        ..setup
    };
    let mut stats = DrawStats::default();
    let vs_out = run_ngg(
        &es,
        es_va,
        &setup,
        &dmem,
        &asm.invocations,
        &asm.prims,
        &mut stats,
    )
    .map_err(|e| format!("vertex stage: {e}"))?;
    let unused = VsOut {
        clip: [0.0; 4],
        point_size: None,
        dists: vec![],
        attrs: vec![],
    };
    let mut verts: Vec<VsOut> = vs_out
        .verts
        .into_iter()
        .map(|v| v.unwrap_or_else(|| unused.clone()))
        .collect();
    let prims = if rect_list {
        rectangles(&mut verts, &vs_out.prims)?
    } else {
        vs_out.prims
    };

    // The pixel stage.
    let ps_va = pgm("SPI_SHADER_PGM_LO_PS", "SPI_SHADER_PGM_HI_PS")?;
    let ps_code = graphics::program(mem, ps_va).map_err(|e| format!("pixel stage: {e}"))?;
    let ps = Program::new(&ps_code, ps_va).map_err(|e| format!("pixel stage: {e}"))?;
    let rsrc1_ps = r.get("SPI_SHADER_PGM_RSRC1_PS")?;
    let rsrc2_ps = r.get("SPI_SHADER_PGM_RSRC2_PS")?;
    if rsrc2_ps & 1 != 0 {
        return refuse("the pixel stage uses scratch: not executed");
    }
    let n_user_ps = (rsrc2_ps >> 1 & 0x1f) as usize;
    let ps_user = (0..n_user_ps)
        .map(|k| r.get(&format!("SPI_SHADER_USER_DATA_PS_{k}")))
        .collect::<Result<Vec<_>, _>>()?;
    let lanes = if ps_wave64 { 64 } else { 32 };
    let template = PsWaveSetup {
        wave64: ps_wave64,
        num_vgprs: vgprs(rsrc1_ps, ps_wave64),
        spi_ps_input_ena: r.get("SPI_PS_INPUT_ENA")?,
        spi_ps_input_addr: r.get("SPI_PS_INPUT_ADDR")?,
        rsrc2: rsrc2_ps,
        user_sgprs: ps_user.clone(),
        exec: 0,
        inputs: vec![[0; PS_INPUT_VGPRS]; lanes],
        quad_prims: vec![],
        prims: vec![],
        lds_param_offset: 0,
        lds_bytes: 65536,
        skip_export: false,
        mode: initial_mode(rsrc1_ps),
        scratch_addr: 0,
        scratch_lane_bytes: 0,
    };

    // The targets' contents before the draw (the render pass loaded or cleared them).
    let (depth_before, stencil_before) = match &depth {
        Some(d) => d.read(mem)?,
        None => (None, None),
    };
    let mut frame = Frame {
        targets: Vec::new(),
        depth: depth_before.clone(),
        stencil: stencil_before.clone(),
    };
    for t in &targets {
        frame.targets.push(Image {
            width,
            height,
            format: t.format,
            samples,
            bytes: t.read(mem, width, height)?,
        });
    }
    let res = rasterize(
        &cfg,
        &verts,
        &prims,
        PixelStage {
            program: &ps,
            entry: ps_va,
            template,
            user_sgprs: ps_user,
        },
        &dmem,
        frame,
        stats,
    )
    .map_err(|e| e.to_string())?;
    for (t, img) in targets.iter().zip(&res.targets) {
        t.write(mem, width, height, &img.bytes)?;
    }
    if let Some(d) = &depth {
        let before = (depth_before.as_deref(), stencil_before.as_deref());
        d.write(mem, before, (res.depth.as_deref(), res.stencil.as_deref()))?;
    }
    let s = &res.stats;
    Ok(format!(
        "{} primitives ({} culled, {} clipped away), {} VS and {} PS waves, {} pixels shaded",
        s.primitives, s.culled, s.clipped_away, s.vs_waves, s.ps_waves, s.pixels_shaded
    ))
}
