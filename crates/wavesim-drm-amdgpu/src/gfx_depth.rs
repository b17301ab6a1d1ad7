//! The depth block (DB) of a draw as RADV programs it on gfx11: the depth surface, its HTILE
//! metadata and the depth test, read from the recorded registers (`gfx_regs` names, fields from
//! Mesa's `src/amd/registers/gfx11.json`), the buffer read before the draw and written back
//! after it.
//!
//! - The surface: DB_Z_INFO.FORMAT Z_32_FLOAT (3; D32_SFLOAT) or Z_16 (1; D16_UNORM, 16-bit
//!   values converted by `gfx::depth_stencil::d16`; a cleared tile's DB_DEPTH_CLEAR too), the
//!   formats wavesim's depth test
//!   holds), one sample, one level, laid out in DB_Z_INFO.SW_MODE (addrlib's equations,
//!   `exec::image::swizzle`, as the texture unit reads it) at DB_Z_READ_BASE = DB_Z_WRITE_BASE,
//!   DB_DEPTH_SIZE_XY + 1 pixels, slice DB_DEPTH_VIEW.SLICE_START (0).
//! - HTILE (DB_Z_INFO.TILE_SURFACE_ENABLE, at DB_HTILE_DATA_BASE, `exec::image::htile` for
//!   its layout and words): a pixel of a cleared tile (ZMask 0) reads DB_DEPTH_CLEAR, of an
//!   expanded tile (ZMask 0xf) memory. After the draw, a tile whose depth changed is written
//!   whole to memory and its word set to expanded with the full Z range (RADV's own
//!   `radv_get_htile_initial_value`, a state the DB reads back as memory): the DB of real
//!   hardware may compress instead, which only changes how later reads find the same values.
//!   The word's Min/Max Z (hierarchical Z, HiZ) are bounds for culling that never change a
//!   result; the full range written here is a valid bound for every depth.
//! - The test: DB_DEPTH_CONTROL.Z_ENABLE, Z_WRITE_ENABLE, ZFUNC (Mesa `sid.h`
//!   V_028800_FRAG_*: the VkCompareOp order); the stencil test and the S8 stencil surface of a
//!   D32_SFLOAT_S8_UINT view in `gfx_stencil`; DEPTH_BOUNDS_ENABLE with DB_DEPTH_BOUNDS_MIN/MAX
//!   (Z_32_FLOAT). A stencil surface without a depth surface (S8_UINT: DB_Z_INFO.FORMAT
//!   invalid, its SW_MODE and TILE_SURFACE_ENABLE still the view's) is a view with no depth
//!   plane. Depth bounds on Z_16 and the DB's own clears, copies and decompression passes
//!   (DB_RENDER_CONTROL) are refused by name.
//! - The DB's viewport clamp: every fragment depth, exported by the PS (Z_EXPORT_ENABLE) or
//!   rasterised and biased, is clamped to PA_SC_VPORT_ZMIN/ZMAX_0 first.
//! - HTILE with stencil (DB_STENCIL_INFO.TILE_STENCIL_DISABLE 0): the word also holds SMem
//!   [9:8] (`exec::image::htile`): 0 a cleared stencil tile (every pixel DB_STENCIL_CLEAR,
//!   RADV's fast clear), 3 expanded (memory holds it); 1 and 2 (compressed stencil) are refused.
//!   SR0/SR1 [7:4] summarise stencil results for hierarchical stencil (RADV forces it off,
//!   DB_RENDER_OVERRIDE.FORCE_HIS_ENABLE0/1) and never change a value. A tile whose depth or
//!   stencil changed is written whole in both planes and gets RADV's expanded word 0xfffff3ff.

use wavesim_rdna3::exec::image::htile::{self, HtileLayout, TileDepth, TileStencil};
use wavesim_rdna3::exec::image::swizzle::{Shape, Tiling};
use wavesim_rdna3::gfx::depth_stencil::{d16, d16_value};
use wavesim_rdna3::gfx::pipeline::{DepthBias, DepthFormat, DepthStencilState, StencilFace};

use crate::gfx_stencil::{stencil_faces, StencilPlane, COMPARE};
use crate::memory::GpuMemory;

/// A register's value as written (None: not written).
pub type RegFn<'a> = &'a dyn Fn(&str) -> Result<Option<u32>, String>;

/// A refusal naming what is not executed.
pub(crate) fn refuse<T>(m: impl Into<String>) -> Result<T, String> {
    Err(m.into())
}

/// Bits of `v` outside `allowed` are refused naming the register.
pub(crate) fn only(name: &str, v: u32, allowed: u32) -> Result<(), String> {
    if v & !allowed != 0 {
        return refuse(format!(
            "{name} = {v:#010x}: bits {:#010x} are not modelled",
            v & !allowed
        ));
    }
    Ok(())
}

/// The depth bias of PA_SU_SC_MODE_CNTL `sc` (POLY_OFFSET_FRONT_ENABLE [11],
/// POLY_OFFSET_BACK_ENABLE [12], POLY_OFFSET_PARA_ENABLE [13]) as RADV's
/// `radv_emit_depth_bias` writes it: PA_SU_POLY_OFFSET_CLAMP = depthBiasClamp,
/// FRONT/BACK_SCALE = depthBiasSlopeFactor x 16, FRONT/BACK_OFFSET = depthBiasConstantFactor
/// (f32 bits), with PA_SU_POLY_OFFSET_DB_FMT_CNTL from `radv_initialise_ds_surface`
/// (POLY_OFFSET_NEG_NUM_DB_BITS -23 with DB_IS_FLOAT_FMT for Z_32_FLOAT, -16 for Z_16: the
/// minimum resolvable difference `gfx::depth_stencil::bias_offset` uses). Refused by name:
/// enables other than all three together, different front and back factors (Vulkan has one
/// bias), another DB_FMT_CNTL, and a pixel shader reading POS_Z (SPI_PS_INPUT_ENA
/// POS_Z_FLOAT_ENA [10]: whether the PA's offset reaches the shader's z is not documented).
/// Without a depth buffer the bias changes nothing (None).
pub fn depth_bias(
    reg: RegFn,
    sc: u32,
    has_depth: bool,
    ds: &DepthStencilState,
) -> Result<Option<DepthBias>, String> {
    let en = sc >> 11 & 7;
    if en == 0 || !has_depth {
        return Ok(None);
    }
    if en != 7 {
        return refuse(format!(
            "PA_SU_SC_MODE_CNTL {sc:#x}: POLY_OFFSET_FRONT/BACK/PARA_ENABLE {en:#b} (only all three, RADV's depthBiasEnable, are executed)"
        ));
    }
    let get = |n: &str| -> Result<u32, String> {
        reg(n)?.ok_or_else(|| format!("{n} was not written (its clear-state default is unknown)"))
    };
    let (fs, fo) = (
        get("PA_SU_POLY_OFFSET_FRONT_SCALE")?,
        get("PA_SU_POLY_OFFSET_FRONT_OFFSET")?,
    );
    let (bs, bo) = (
        get("PA_SU_POLY_OFFSET_BACK_SCALE")?,
        get("PA_SU_POLY_OFFSET_BACK_OFFSET")?,
    );
    if (fs, fo) != (bs, bo) {
        return refuse(format!(
            "PA_SU_POLY_OFFSET_FRONT_SCALE/OFFSET {fs:#x}/{fo:#x} != BACK {bs:#x}/{bo:#x}: per-face depth bias is not executed"
        ));
    }
    let fmt = get("PA_SU_POLY_OFFSET_DB_FMT_CNTL")?;
    let want = match ds.depth_format {
        DepthFormat::D32Sfloat => (-23i32 as u32 & 0xff) | 1 << 8,
        DepthFormat::D16Unorm => -16i32 as u32 & 0xff,
    };
    if fmt != want {
        return refuse(format!(
            "PA_SU_POLY_OFFSET_DB_FMT_CNTL {fmt:#x} with a {:?} surface (RADV writes {want:#x})",
            ds.depth_format
        ));
    }
    if ds.depth_range_clamp.is_none() {
        return refuse(
            "depth bias without PA_SC_VPORT_ZMIN/ZMAX_0 (the DB's clamp of the biased depth)",
        );
    }
    if get("SPI_PS_INPUT_ENA")? >> 10 & 1 != 0 {
        return refuse(
            "depth bias with a pixel shader reading POS_Z (SPI_PS_INPUT_ENA.POS_Z_FLOAT_ENA) is not executed",
        );
    }
    Ok(Some(DepthBias {
        constant: f32::from_bits(fo),
        slope: f32::from_bits(fs) / 16.0,
        clamp: f32::from_bits(get("PA_SU_POLY_OFFSET_CLAMP")?),
    }))
}

/// The depth surface's HTILE.
struct Htile {
    base: u64,
    layout: HtileLayout,
    /// The word an expanded tile gets: depth-only (TILE_STENCIL_DISABLE) or with stencil.
    expanded: u32,
    /// The words hold the stencil fields (TILE_STENCIL_DISABLE 0) and the stencil surface
    /// reads through SMem.
    stencil: bool,
}

/// A view's depth and stencil values (rows packed), for the planes it has.
pub type Planes = (Option<Vec<f32>>, Option<Vec<u8>>);

/// The depth plane of a depth/stencil view.
struct ZPlane {
    va: u64,
    tiling: Tiling,
    /// DB_DEPTH_CLEAR, if written: the value of a cleared tile's pixels.
    clear: Option<f32>,
    format: DepthFormat,
}

impl ZPlane {
    /// The depth value memory holds at pixel (x, y).
    fn load(&self, mem: &dyn GpuMemory, x: u32, y: u32) -> Result<f32, String> {
        let a = self.tiling.texel_addr(self.va, 0, x, y);
        let mut b = [0u8; 4];
        let n = if self.format == DepthFormat::D16Unorm {
            2
        } else {
            4
        };
        mem.read(a, &mut b[..n])
            .map_err(|e| format!("depth surface at {a:#x}: {e}"))?;
        Ok(match self.format {
            DepthFormat::D32Sfloat => f32::from_le_bytes(b),
            DepthFormat::D16Unorm => d16_value(u16::from_le_bytes([b[0], b[1]])),
        })
    }

    /// Stores depth `v` (a value of the format) at pixel (x, y).
    fn store(&self, mem: &dyn GpuMemory, (x, y): (u32, u32), v: f32) -> Result<(), String> {
        let a = self.tiling.texel_addr(self.va, 0, x, y);
        let r = match self.format {
            DepthFormat::D32Sfloat => mem.write(a, &v.to_le_bytes()),
            DepthFormat::D16Unorm => mem.write(a, &d16(v).to_le_bytes()),
        };
        r.map_err(|e| format!("depth surface at {a:#x}: {e}"))
    }
}

/// A bound depth/stencil view: a depth plane, a stencil plane or both.
pub struct DepthTarget {
    /// The depth plane (None: S8_UINT alone).
    z: Option<ZPlane>,
    pub width: u32,
    pub height: u32,
    htile: Option<Htile>,
    /// The S8 stencil surface of a depth/stencil view.
    pub stencil: Option<StencilPlane>,
}

/// The draw's depth surface (None: DB_Z_INFO.FORMAT invalid, no depth buffer) and depth test.
pub fn depth_setup(reg: RegFn) -> Result<(Option<DepthTarget>, DepthStencilState), String> {
    let or = |n: &str, d: u32| -> Result<u32, String> { Ok(reg(n)?.unwrap_or(d)) };
    let get = |n: &str| -> Result<u32, String> {
        reg(n)?.ok_or_else(|| format!("{n} was not written (its clear-state default is unknown)"))
    };
    // DB_STENCIL_INFO: FORMAT [0] (1 STENCIL_8), SW_MODE [8:4], TILE_STENCIL_DISABLE [29].
    let s_info = or("DB_STENCIL_INFO", 0)?;
    let has_stencil = s_info & 1 != 0;
    // DB_DEPTH_CONTROL: STENCIL_ENABLE [0], Z_ENABLE [1], Z_WRITE_ENABLE [2],
    // DEPTH_BOUNDS_ENABLE [3], ZFUNC [6:4], BACKFACE_ENABLE [7], STENCILFUNC [10:8],
    // STENCILFUNC_BF [22:20] (the stencil fields act only with STENCIL_ENABLE).
    let dc = or("DB_DEPTH_CONTROL", 0)?;
    only(
        "DB_DEPTH_CONTROL",
        dc,
        0x7 << 4 | 0xf | 1 << 7 | 0x7 << 8 | 0x7 << 20,
    )?;
    // Without a stencil surface the stencil test passes and writes nothing (Vulkan's rule for
    // a missing attachment), whatever STENCIL_ENABLE says.
    let (stencil_test, (front, back)) = if dc & 1 != 0 && has_stencil {
        (true, stencil_faces(dc, &reg)?)
    } else {
        (false, (StencilFace::default(), StencilFace::default()))
    };
    let state = DepthStencilState {
        // Set with the surface below (no surface: no test).
        depth_format: DepthFormat::D32Sfloat,
        depth_bounds: None,
        depth_range_clamp: None,
        depth_test: dc >> 1 & 1 != 0,
        depth_write: dc >> 2 & 1 != 0,
        depth_compare: COMPARE[(dc >> 4 & 7) as usize],
        stencil_test,
        front,
        back,
        // Marks the stencil buffer for the draw's checks; its values come in `Frame::stencil`.
        stencil_clear: has_stencil.then_some(0),
    };
    // DB_RENDER_CONTROL: DEPTH_CLEAR_ENABLE [0], STENCIL_CLEAR_ENABLE [1], DEPTH_COPY [2],
    // STENCIL_COPY [3], RESUMMARIZE_ENABLE [4], STENCIL/DEPTH_COMPRESS_DISABLE [5]/[6],
    // DECOMPRESS_ENABLE [12]: the DB's clear, copy and decompression passes (RADV's meta
    // operations) are not executed. MAX_ALLOWED_TILES_IN_WAVE [23:20], FORCE_EXPORT_ORDER [19],
    // OREO_MODE [17:16] and FORCE_OREO_MODE [18] schedule and order work without changing a
    // value (the rasteriser here is in order).
    let rc = or("DB_RENDER_CONTROL", 0)?;
    only(
        "DB_RENDER_CONTROL",
        rc,
        0xf << 20 | 1 << 19 | 1 << 18 | 3 << 16,
    )?;

    // DB_Z_INFO: FORMAT [1:0] (0 invalid, 1 Z_16, 3 Z_32_FLOAT), NUM_SAMPLES [3:2] (log2),
    // SW_MODE [8:4], FAULT_BEHAVIOR [10:9], ITERATE_FLUSH [11], PARTIALLY_RESIDENT [12],
    // MAXMIP [19:16], ITERATE_256 [20], DECOMPRESS_ON_N_ZPLANES [26:23], ALLOW_EXPCLEAR [27],
    // READ_SIZE [28], TILE_SURFACE_ENABLE [29], ZRANGE_PRECISION [31].
    let z = or("DB_Z_INFO", 0)?;
    let has_depth = z & 3 != 0;
    if !has_depth && !has_stencil {
        // No depth buffer: the test passes and nothing is written, the Vulkan rule for a
        // missing attachment (gfx::depth_stencil), whatever Z_ENABLE says.
        return Ok((None, state));
    }
    // Scheduling, caching and compression-policy fields (no effect on values: the DB
    // here never compresses to planes): FAULT_BEHAVIOR, ITERATE_FLUSH, ITERATE_256,
    // DECOMPRESS_ON_N_ZPLANES, ALLOW_EXPCLEAR, READ_SIZE; ZRANGE_PRECISION (how HiZ ranges are
    // kept: not read here, see the module documentation).
    only(
        "DB_Z_INFO",
        z,
        3 | 0x1f << 4
            | 3 << 9
            | 1 << 11
            | 1 << 20
            | 0xf << 23
            | 1 << 27
            | 1 << 28
            | 1 << 29
            | 1 << 31,
    )?;
    let format = match z & 3 {
        // S8_UINT alone: no depth plane (the format is not used).
        3 | 0 => DepthFormat::D32Sfloat,
        1 => DepthFormat::D16Unorm,
        f => {
            return refuse(format!(
                "DB_Z_INFO.FORMAT {f}: only Z_16 and Z_32_FLOAT depth is executed"
            ))
        }
    };
    // DB_RENDER_OVERRIDE: FORCE_HIZ_ENABLE [1:0], FORCE_HIS_ENABLE0/1 [3:2]/[5:4] (RADV forces
    // hierarchical stencil off: 0x28) switch hierarchical culling, which never changes a value.
    // DISABLE_VIEWPORT_CLAMP [16] and the forced reads, writes and validity bits are refused.
    let ro = or("DB_RENDER_OVERRIDE", 0)?;
    only("DB_RENDER_OVERRIDE", ro, 0x3f)?;
    // DB_RENDER_OVERRIDE2: CENTROID_COMPUTATION_MODE [28:27] (centroid locations of several
    // samples: none with one sample), DISABLE_ZMASK/SMEM_EXPCLEAR_OPTIMIZATION [5]/[6] and
    // DECOMPRESS_Z_ON_FLUSH [8] (when the DB compresses or expands: the values stay).
    let ro2 = or("DB_RENDER_OVERRIDE2", 0)?;
    only("DB_RENDER_OVERRIDE2", ro2, 3 << 27 | 3 << 5 | 1 << 8)?;
    // DB_SHADER_CONTROL: Z_EXPORT_ENABLE [0], Z_ORDER [5:4], KILL_ENABLE [6], EXEC_ON_HIER_FAIL
    // [9], EXEC_ON_NOOP [10], ALPHA_TO_MASK_DISABLE [11], CONSERVATIVE_Z_EXPORT [14:13],
    // DUAL_QUAD_DISABLE [15]. Z_ORDER may test early: RADV chooses EARLY_Z_THEN_LATE_Z only
    // for pixel shaders that write no memory (Mesa's `radv_pipeline.c`), where testing before
    // or after the shader gives the same values; DEPTH_BEFORE_SHADER [12] (early fragment
    // tests: the shader would not run for failing pixels) and the stencil, mask and coverage
    // exports are refused.
    let sc = or("DB_SHADER_CONTROL", 0)?;
    if sc & 6 != 0 {
        return refuse(format!(
            "DB_SHADER_CONTROL {sc:#x}: STENCIL_TEST_VAL/OP_VAL_EXPORT_ENABLE (stencil export from the pixel shader) is not executed"
        ));
    }
    only(
        "DB_SHADER_CONTROL",
        sc,
        1 | 3 << 4 | 1 << 6 | 1 << 9 | 1 << 10 | 1 << 11 | 3 << 13 | 1 << 15,
    )?;
    // The DB clamps every fragment depth, exported (Z_EXPORT_ENABLE) or rasterised, to
    // PA_SC_VPORT_ZMIN/ZMAX_0 (DB_RENDER_OVERRIDE.DISABLE_VIEWPORT_CLAMP 0; the override is
    // refused above). Needed when the depth can leave the viewport's range: an exported depth
    // or a biased one; a rasterised depth of a clipped primitive lies in it already, so
    // streams that do not write the registers draw without the clamp.
    let zrange = match (reg("PA_SC_VPORT_ZMIN_0")?, reg("PA_SC_VPORT_ZMAX_0")?) {
        (Some(lo), Some(hi)) => Some((f32::from_bits(lo), f32::from_bits(hi))),
        _ if sc & 1 != 0 => {
            return refuse(
                "DB_SHADER_CONTROL.Z_EXPORT_ENABLE with a depth buffer, but PA_SC_VPORT_ZMIN/ZMAX_0 (the DB's clamp) were not written",
            )
        }
        _ => None,
    };
    let sw_mode = z >> 4 & 0x1f;
    // DB_DEPTH_SIZE_XY: X_MAX [13:0], Y_MAX [29:16].
    let xy = get("DB_DEPTH_SIZE_XY")?;
    let (width, height) = ((xy & 0x3fff) + 1, (xy >> 16 & 0x3fff) + 1);
    // DB_DEPTH_VIEW: SLICE_START [10:0] (+ [12:11]), SLICE_MAX [23:13] (+ [31:30]),
    // Z_READ_ONLY [24], STENCIL_READ_ONLY [25], MIPID [29:26]: slice 0 of level 0 (the other
    // slices, as SLICE_MAX allows, are not drawn by a layer-0 draw).
    let view = or("DB_DEPTH_VIEW", 0)?;
    if view & 0x1fff != 0 || view >> 26 & 0xf != 0 {
        return refuse(format!(
            "DB_DEPTH_VIEW {view:#x}: a slice or mip level other than the first is not executed"
        ));
    }
    let read_only = view >> 24 & 1 != 0;
    let stencil_read_only = view >> 25 & 1 != 0;
    let bpp = if format == DepthFormat::D16Unorm {
        2
    } else {
        4
    };
    let zplane = if has_depth {
        let read =
            get("DB_Z_READ_BASE")? as u64 | (or("DB_Z_READ_BASE_HI", 0)? as u64 & 0xff) << 32;
        let write =
            get("DB_Z_WRITE_BASE")? as u64 | (or("DB_Z_WRITE_BASE_HI", 0)? as u64 & 0xff) << 32;
        if read != write {
            return refuse(format!(
                "DB_Z_READ_BASE {:#x} != DB_Z_WRITE_BASE {:#x}: a depth copy is not executed",
                read << 8,
                write << 8
            ));
        }
        let va = read << 8;
        Some(ZPlane {
            va,
            tiling: Tiling::new(sw_mode, Shape::TwoD, (width, height), 1, va, bpp)
                .map_err(|e| format!("depth surface: {e}"))?,
            clear: reg("DB_DEPTH_CLEAR")?.map(|c| match format {
                DepthFormat::D32Sfloat => f32::from_bits(c),
                DepthFormat::D16Unorm => d16_value(d16(f32::from_bits(c))),
            }),
            format,
        })
    } else {
        None
    };
    let htile = if z >> 29 & 1 != 0 {
        // DB_HTILE_SURFACE: FULL_CACHE [1] (cache policy), DST_OUTSIDE_ZERO_TO_ONE [16] (the
        // depth range may leave [0, 1]: D32 is stored as is either way), PIPE_ALIGNED [18]
        // (1: addrlib's pipe-aligned layout, the only one RADV uses).
        let hs = or("DB_HTILE_SURFACE", 0)?;
        only("DB_HTILE_SURFACE", hs, 1 << 1 | 1 << 16 | 1 << 18)?;
        if hs >> 18 & 1 == 0 {
            return refuse("DB_HTILE_SURFACE.PIPE_ALIGNED 0: unaligned HTILE is not laid out");
        }
        let base = (get("DB_HTILE_DATA_BASE")? as u64
            | (or("DB_HTILE_DATA_BASE_HI", 0)? as u64 & 0xff) << 32)
            << 8;
        Some(Htile {
            base,
            layout: HtileLayout::new(sw_mode, width, height, 1)?,
            // TILE_STENCIL_DISABLE [29]: the depth-only word format.
            expanded: if s_info >> 29 & 1 != 0 {
                htile::EXPANDED_DEPTH_ONLY
            } else {
                htile::EXPANDED_WITH_STENCIL
            },
            stencil: s_info >> 29 & 1 == 0,
        })
    } else {
        None
    };
    let stencil = if has_stencil {
        Some(StencilPlane::new(s_info, (width, height), &reg)?)
    } else {
        None
    };
    // STENCIL_READ_ONLY: the test runs, its writes do not.
    let ro_mask = |f: StencilFace| StencilFace {
        write_mask: if stencil_read_only { 0 } else { f.write_mask },
        ..f
    };
    // DEPTH_BOUNDS_ENABLE [3]: DB_DEPTH_BOUNDS_MIN/MAX, f32 (RADV's radv_emit_depth_bounds
    // writes the Vulkan bounds' bits). With Z_16 whether the DB compares the bounds with the
    // 16-bit value or converts them first is not documented: refused.
    let depth_bounds = if dc >> 3 & 1 != 0 {
        if format == DepthFormat::D16Unorm {
            return refuse(
                "DB_DEPTH_CONTROL.DEPTH_BOUNDS_ENABLE with a Z_16 surface: the DB's precision of the bounds is not modelled",
            );
        }
        Some((
            f32::from_bits(get("DB_DEPTH_BOUNDS_MIN")?),
            f32::from_bits(get("DB_DEPTH_BOUNDS_MAX")?),
        ))
    } else {
        None
    };
    let state = DepthStencilState {
        depth_format: format,
        depth_bounds,
        depth_range_clamp: zrange,
        depth_write: state.depth_write && !read_only,
        front: ro_mask(state.front),
        back: ro_mask(state.back),
        ..state
    };
    Ok((
        Some(DepthTarget {
            z: zplane,
            width,
            height,
            htile,
            stencil,
        }),
        state,
    ))
}

impl DepthTarget {
    fn word(&self, mem: &dyn GpuMemory, h: &Htile, x: u32, y: u32) -> Result<(u64, u32), String> {
        let a = h.base + h.layout.offset(x, y, 0);
        let mut b = [0u8; 4];
        mem.read(a, &mut b)
            .map_err(|e| format!("HTILE at {a:#x}: {e}"))?;
        Ok((a, u32::from_le_bytes(b)))
    }

    /// The view has a depth plane (not S8_UINT alone).
    pub fn has_depth(&self) -> bool {
        self.z.is_some()
    }

    /// The 8x8 tiles' corners.
    fn tiles(&self) -> impl Iterator<Item = (u32, u32)> + '_ {
        (0..self.height)
            .step_by(8)
            .flat_map(move |ty| (0..self.width).step_by(8).map(move |tx| (tx, ty)))
    }

    /// The pixels of the tile at (tx, ty).
    fn pixels(&self, (tx, ty): (u32, u32)) -> impl Iterator<Item = (u32, u32)> + '_ {
        (ty..(ty + 8).min(self.height))
            .flat_map(move |y| (tx..(tx + 8).min(self.width)).map(move |x| (x, y)))
    }

    /// The `width` x `height` depth values and stencil values (rows packed) of the planes the
    /// view has, as the DB reads them.
    pub fn read(&self, mem: &dyn GpuMemory) -> Result<Planes, String> {
        let n = (self.width * self.height) as usize;
        let mut out = self.z.as_ref().map(|_| vec![0f32; n]);
        let mut sten = self.stencil.as_ref().map(|_| vec![0u8; n]);
        for t in self.tiles() {
            // (the depth of a cleared tile, the stencil of a cleared tile)
            let (zc, sc) = match &self.htile {
                None => (None, None),
                Some(h) => {
                    let (a, w) = self.word(mem, h, t.0, t.1)?;
                    let zc = match &self.z {
                        None => None,
                        Some(z) => {
                            match htile::tile_depth(w).map_err(|e| format!("at {a:#x}: {e}"))? {
                                TileDepth::Expanded => None,
                                TileDepth::Cleared { .. } => Some(z.clear.ok_or(
                                    "a cleared HTILE tile, but DB_DEPTH_CLEAR was not written",
                                )?),
                            }
                        }
                    };
                    let sc = match (&self.stencil, h.stencil) {
                        (Some(s), true) => match htile::tile_stencil(w)
                            .map_err(|e| format!("at {a:#x}: {e}"))?
                        {
                            TileStencil::Expanded => None,
                            TileStencil::Cleared => Some(s.clear.ok_or(
                                "a tile of cleared stencil, but DB_STENCIL_CLEAR was not written",
                            )?),
                        },
                        _ => None,
                    };
                    (zc, sc)
                }
            };
            for (x, y) in self.pixels(t) {
                let i = (y * self.width + x) as usize;
                if let (Some(z), Some(v)) = (&self.z, out.as_mut()) {
                    v[i] = match zc {
                        Some(c) => c,
                        None => z.load(mem, x, y)?,
                    };
                }
                if let (Some(s), Some(v)) = (&self.stencil, sten.as_mut()) {
                    v[i] = match sc {
                        Some(c) => c,
                        None => s.load(mem, x, y)?,
                    };
                }
            }
        }
        Ok((out, sten))
    }

    /// Writes the draw's result back: every 8x8 tile in which a depth or stencil value changed
    /// from `before` is stored whole (both planes) and, with HTILE, marked expanded (the
    /// module documentation).
    pub fn write(
        &self,
        mem: &dyn GpuMemory,
        before: (Option<&[f32]>, Option<&[u8]>),
        after: (Option<&[f32]>, Option<&[u8]>),
    ) -> Result<(), String> {
        let i = |(x, y): (u32, u32)| (y * self.width + x) as usize;
        for t in self.tiles() {
            let same = self.pixels(t).all(|p| {
                before.0.map(|z| z[i(p)].to_bits()) == after.0.map(|z| z[i(p)].to_bits())
                    && before.1.map(|s| s[i(p)]) == after.1.map(|s| s[i(p)])
            });
            if same {
                continue;
            }
            for p in self.pixels(t) {
                if let (Some(z), Some(v)) = (&self.z, after.0) {
                    z.store(mem, p, v[i(p)])?;
                }
                if let (Some(s), Some(v)) = (&self.stencil, after.1) {
                    s.store(mem, p.0, p.1, v[i(p)])?;
                }
            }
            if let Some(h) = &self.htile {
                let a = h.base + h.layout.offset(t.0, t.1, 0);
                mem.write(a, &h.expanded.to_le_bytes())
                    .map_err(|e| format!("HTILE at {a:#x}: {e}"))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::memory::MemoryError;
    use std::cell::RefCell;
    use std::collections::HashMap;
    use wavesim_rdna3::gfx::pipeline::CompareOp;

    /// Sparse device memory: unwritten bytes read as 0xee.
    #[derive(Default)]
    struct Sparse(RefCell<HashMap<u64, u8>>);

    impl GpuMemory for Sparse {
        fn read(&self, va: u64, out: &mut [u8]) -> Result<(), MemoryError> {
            let m = self.0.borrow();
            for (k, b) in out.iter_mut().enumerate() {
                *b = *m.get(&(va + k as u64)).unwrap_or(&0xee);
            }
            Ok(())
        }
        fn write(&self, va: u64, data: &[u8]) -> Result<(), MemoryError> {
            let mut m = self.0.borrow_mut();
            for (k, &b) in data.iter().enumerate() {
                m.insert(va + k as u64, b);
            }
            Ok(())
        }
        fn ranges(&self) -> Vec<(u64, u64)> {
            vec![]
        }
        fn host_slice(&self, _: u64) -> Result<&[u8], MemoryError> {
            Ok(&[])
        }
    }

    const Z_BASE: u64 = 0x1_0000_0000;
    const HTILE_BASE: u64 = 0x1_0010_0000;

    /// A 16x16 Z_32_FLOAT surface, 64KB_Z_X, depth-only HTILE, LESS with writes, as RADV
    /// programs one (tests/radv_depth.rs's capture: DB_Z_INFO 0xa2900983 is the 64x64 one).
    fn regs(extra: &[(&'static str, u32)]) -> HashMap<&'static str, u32> {
        let mut r: HashMap<&str, u32> = [
            ("DB_Z_INFO", 3 | 24 << 4 | 1 << 29),
            ("DB_STENCIL_INFO", 1 << 29),
            ("DB_Z_READ_BASE", (Z_BASE >> 8) as u32),
            ("DB_Z_WRITE_BASE", (Z_BASE >> 8) as u32),
            ("DB_Z_READ_BASE_HI", (Z_BASE >> 40) as u32),
            ("DB_Z_WRITE_BASE_HI", (Z_BASE >> 40) as u32),
            ("DB_DEPTH_SIZE_XY", 15 | 15 << 16),
            ("DB_HTILE_DATA_BASE", (HTILE_BASE >> 8) as u32),
            ("DB_HTILE_DATA_BASE_HI", (HTILE_BASE >> 40) as u32),
            ("DB_HTILE_SURFACE", 1 << 18 | 1 << 1),
            ("DB_DEPTH_CLEAR", 0.5f32.to_bits()),
            ("DB_DEPTH_CONTROL", 0x16),
        ]
        .into_iter()
        .collect();
        r.extend(extra.iter().copied());
        r
    }

    fn setup(
        r: &HashMap<&'static str, u32>,
    ) -> Result<(Option<DepthTarget>, DepthStencilState), String> {
        let f = |n: &str| -> Result<Option<u32>, String> { Ok(r.get(n).copied()) };
        depth_setup(&f)
    }

    fn htile_word(mem: &Sparse, x: u32, y: u32) -> u32 {
        let l = HtileLayout::new(24, 16, 16, 1).unwrap();
        let mut b = [0u8; 4];
        mem.read(HTILE_BASE + l.offset(x, y, 0), &mut b).unwrap();
        u32::from_le_bytes(b)
    }

    /// A cleared tile (ZMask 0, RADV's fast-clear word) reads DB_DEPTH_CLEAR whatever memory
    /// holds; an expanded one (0xfffc000f) reads memory. A write that changes one pixel of a
    /// cleared tile stores all 64 pixels (the other 63 at the clear value) and marks the tile
    /// expanded; tiles without a change keep their words.
    #[test]
    fn cleared_tiles_read_the_clear_value_and_written_tiles_expand() {
        let r = regs(&[]);
        let (d, st) = setup(&r).unwrap();
        let d = d.unwrap();
        assert_eq!(
            (st.depth_test, st.depth_write, st.depth_compare),
            (true, true, CompareOp::Less)
        );
        let mem = Sparse::default();
        let l = HtileLayout::new(24, 16, 16, 1).unwrap();
        let put = |x: u32, y: u32, w: u32| {
            mem.write(HTILE_BASE + l.offset(x, y, 0), &w.to_le_bytes())
                .unwrap()
        };
        // Tiles (0,0), (0,8), (8,8) cleared; (8,0) expanded with 0.25 in memory.
        let cleared = htile::depth_only_clear_word(0.5);
        for (x, y) in [(0, 0), (0, 8), (8, 8)] {
            put(x, y, cleared);
        }
        put(8, 0, htile::EXPANDED_DEPTH_ONLY);
        for y in 0..8 {
            for x in 8..16 {
                mem.write(
                    d.z.as_ref().unwrap().tiling.texel_addr(Z_BASE, 0, x, y),
                    &0.25f32.to_le_bytes(),
                )
                .unwrap();
            }
        }
        let before = d.read(&mem).unwrap().0.unwrap();
        for y in 0..16u32 {
            for x in 0..16u32 {
                let want = if x >= 8 && y < 8 { 0.25 } else { 0.5 };
                assert_eq!(before[(y * 16 + x) as usize], want, "({x}, {y})");
            }
        }
        let mut after = before.clone();
        after[3 * 16 + 2] = 0.125; // pixel (2, 3), in tile (0, 0)
        d.write(&mem, (Some(&before), None), (Some(&after), None))
            .unwrap();
        assert_eq!(htile_word(&mem, 0, 0), 0xfffc_000f);
        assert_eq!(htile_word(&mem, 0, 8), cleared);
        assert_eq!(htile_word(&mem, 8, 8), cleared);
        // Memory now holds the tile; reading back gives the same values.
        let mut b = [0u8; 4];
        mem.read(
            d.z.as_ref().unwrap().tiling.texel_addr(Z_BASE, 0, 7, 7),
            &mut b,
        )
        .unwrap();
        assert_eq!(f32::from_le_bytes(b), 0.5);
        assert_eq!(d.read(&mem).unwrap().0.unwrap(), after);
    }

    const S_BASE: u64 = 0x1_0020_0000;

    /// A 16x16 D32_SFLOAT_S8_UINT view as RADV programs one: the stencil surface 64KB_Z_X
    /// (SW_MODE 24) with HTILE words holding stencil (TILE_STENCIL_DISABLE 0), DB_STENCIL_CLEAR
    /// 0x5a. Tile (0,0) cleared in both planes (RADV's fast clear to (0.5, 0x5a): ZMask 0,
    /// SMem 0), tile (8,0) with cleared depth and expanded stencil (SMem 3: memory holds 0x21),
    /// the others expanded (0xfffff3ff) with 0.25 and 0x77 in memory. The DB reads each
    /// plane through its own field; a stencil change in tile (8,8) stores both planes of that
    /// tile whole and marks it expanded; untouched tiles keep their words.
    #[test]
    fn stencil_reads_through_smem_and_written_tiles_expand() {
        let r = regs(&[
            ("DB_STENCIL_INFO", 1 | 24 << 4),
            ("DB_STENCIL_READ_BASE", (S_BASE >> 8) as u32),
            ("DB_STENCIL_WRITE_BASE", (S_BASE >> 8) as u32),
            ("DB_STENCIL_READ_BASE_HI", (S_BASE >> 40) as u32),
            ("DB_STENCIL_WRITE_BASE_HI", (S_BASE >> 40) as u32),
            ("DB_STENCIL_CLEAR", 0x5a),
        ]);
        let (d, st) = setup(&r).unwrap();
        let d = d.unwrap();
        assert!(!st.stencil_test);
        assert_eq!(st.stencil_clear, Some(0));
        let s = d.stencil.as_ref().unwrap();
        let mem = Sparse::default();
        let l = HtileLayout::new(24, 16, 16, 1).unwrap();
        let put = |x: u32, y: u32, w: u32| {
            mem.write(HTILE_BASE + l.offset(x, y, 0), &w.to_le_bytes())
                .unwrap()
        };
        // Z Range = Max Z 0x2000 (0.5) << 6, SR0/SR1 0xf: RADV's fast-clear word with stencil.
        let cleared = 0x2000 << 18 | 0xf << 4;
        put(0, 0, cleared);
        put(8, 0, cleared | 3 << 8);
        put(0, 8, htile::EXPANDED_WITH_STENCIL);
        put(8, 8, htile::EXPANDED_WITH_STENCIL);
        for y in 0..16 {
            for x in 0..16 {
                mem.write(
                    d.z.as_ref().unwrap().tiling.texel_addr(Z_BASE, 0, x, y),
                    &0.25f32.to_le_bytes(),
                )
                .unwrap();
                s.store(&mem, x, y, if y < 8 { 0x21 } else { 0x77 })
                    .unwrap();
            }
        }
        let (z, sten) = d.read(&mem).unwrap();
        let (z, sten) = (z.unwrap(), sten.unwrap());
        for y in 0..16u32 {
            for x in 0..16u32 {
                let i = (y * 16 + x) as usize;
                let (wz, ws) = match (x >= 8, y >= 8) {
                    (false, false) => (0.5, 0x5a),
                    (true, false) => (0.5, 0x21),
                    _ => (0.25, 0x77),
                };
                assert_eq!((z[i], sten[i]), (wz, ws), "({x}, {y})");
            }
        }
        let mut after = sten.clone();
        after[9 * 16 + 9] = 0x78;
        d.write(&mem, (Some(&z), Some(&sten)), (Some(&z), Some(&after)))
            .unwrap();
        assert_eq!(htile_word(&mem, 8, 8), htile::EXPANDED_WITH_STENCIL);
        assert_eq!(htile_word(&mem, 0, 0), cleared);
        assert_eq!(s.load(&mem, 9, 9).unwrap(), 0x78);
        let (z2, s2) = d.read(&mem).unwrap();
        assert_eq!((z2.unwrap(), s2.unwrap()), (z, after));
        // SMem 1: compressed stencil, refused by name.
        put(0, 8, 0xffff_f1ff);
        assert!(d.read(&mem).unwrap_err().contains("SMem 1"));
    }

    /// Z_16 (D16_UNORM): 2-byte values laid out with 64KB_Z_X's 2-byte equation; memory's k
    /// reads as k / 65535, a cleared tile as DB_DEPTH_CLEAR converted (0.6 x 65535 = 39321
    /// exactly), and a written value goes back as its 16-bit k.
    #[test]
    fn z16_surfaces_hold_16_bit_values() {
        let r = regs(&[
            ("DB_Z_INFO", 1 | 24 << 4 | 1 << 29),
            ("DB_DEPTH_CLEAR", 0.6f32.to_bits()),
        ]);
        let (d, st) = setup(&r).unwrap();
        let d = d.unwrap();
        assert_eq!(st.depth_format, DepthFormat::D16Unorm);
        let mem = Sparse::default();
        let l = HtileLayout::new(24, 16, 16, 1).unwrap();
        for (x, y) in [(0, 0), (8, 0), (0, 8), (8, 8)] {
            let w = if x == 0 {
                0
            } else {
                htile::EXPANDED_DEPTH_ONLY
            };
            mem.write(HTILE_BASE + l.offset(x, y, 0), &w.to_le_bytes())
                .unwrap();
        }
        for y in 0..16 {
            for x in 0..16 {
                let a = d.z.as_ref().unwrap().tiling.texel_addr(Z_BASE, 0, x, y);
                mem.write(a, &12345u16.to_le_bytes()).unwrap();
            }
        }
        let z = d.read(&mem).unwrap().0.unwrap();
        assert_eq!(z[0], 39321.0 / 65535.0);
        assert_eq!(z[9], 12345.0 / 65535.0);
        let mut after = z.clone();
        after[9] = 7.0 / 65535.0;
        d.write(&mem, (Some(&z), None), (Some(&after), None))
            .unwrap();
        let mut b = [0u8; 2];
        mem.read(
            d.z.as_ref().unwrap().tiling.texel_addr(Z_BASE, 0, 9, 0),
            &mut b,
        )
        .unwrap();
        assert_eq!(u16::from_le_bytes(b), 7);
        assert_eq!(d.read(&mem).unwrap().0.unwrap(), after);
    }

    /// What the DB does not model is refused by name.
    #[test]
    fn unmodelled_db_state_is_refused() {
        let mem = Sparse::default();
        let (d, _) = setup(&regs(&[])).unwrap();
        let d = d.unwrap();
        let l = HtileLayout::new(24, 16, 16, 1).unwrap();
        // ZMask 5: depth compressed to planes.
        mem.write(
            HTILE_BASE + l.offset(0, 0, 0),
            &0xfffc_0005u32.to_le_bytes(),
        )
        .unwrap();
        let e = d.read(&mem).unwrap_err();
        assert!(e.contains("ZMask 5"), "{e}");
        for (extra, name) in [
            (("DB_DEPTH_CONTROL", 0x1 << 30), "DB_DEPTH_CONTROL"),
            (("DB_STENCIL_INFO", 1 | 1 << 12), "DB_STENCIL_INFO"),
            (("DB_SHADER_CONTROL", 2), "STENCIL_TEST_VAL"),
            (("DB_RENDER_CONTROL", 1), "DB_RENDER_CONTROL"),
            (("DB_Z_INFO", 2 | 24 << 4 | 1 << 29), "Z_32_FLOAT"),
            (("DB_HTILE_SURFACE", 1 << 1), "PIPE_ALIGNED"),
            (("DB_SHADER_CONTROL", 1 << 12), "DB_SHADER_CONTROL"),
            (("DB_RENDER_OVERRIDE", 1 << 16), "DB_RENDER_OVERRIDE"),
        ] {
            let e = setup(&regs(&[extra])).err().unwrap_or_default();
            assert!(e.contains(name), "{extra:?}: {e}");
        }
    }
}
