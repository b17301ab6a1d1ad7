//! Pixel-shader waves: the state the SPI gives a PS wave before it starts (RDNA3 ISA guide, ch. 3 "Wave state", "Initial
//! wave state": "Pixel shader (PS)", "Pixel shader VGPR input control", "LDS initialization").
//!
//! VGPRs. SPI_PS_INPUT_ENA says which terms are computed and loaded, SPI_PS_INPUT_ADDR where they
//! go: the terms, in the order below, take consecutive VGPRs from v0, and every term whose ADDR
//! bit is set takes its room whether or not ENA loads it (with ADDR == ENA the enabled terms pack
//! toward v0; a term in ADDR but not in ENA leaves its VGPRs unloaded). An ENA bit without its
//! ADDR bit is invalid (the seed: "if the ENA bit is set, the corresponding ADDR bit must be set
//! too"), and at least one barycentric term (bits 0-6) must be enabled (the SPI requires one;
//! LLVM's PS lowering enforces the same).
//!
//! | bit | term | VGPRs |
//! | --- | --- | --- |
//! | 0 | PERSP_SAMPLE (I, J) | 2 |
//! | 1 | PERSP_CENTER (I, J) | 2 |
//! | 2 | PERSP_CENTROID (I, J) | 2 |
//! | 3 | PERSP_PULL_MODEL (1/W, I/W, J/W) | 3 |
//! | 4 | LINEAR_SAMPLE (I, J) | 2 |
//! | 5 | LINEAR_CENTER (I, J) | 2 |
//! | 6 | LINEAR_CENTROID (I, J) | 2 |
//! | 7 | LINE_STIPPLE_TEX | 1 |
//! | 8-11 | POS_X/Y/Z/W_FLOAT | 1 each |
//! | 12 | FRONT_FACE | 1 |
//! | 13 | ANCILLARY | 1 |
//! | 14 | SAMPLE_COVERAGE | 1 |
//! | 15 | POS_FIXED_PT | 1 |
//!
//! SGPRs: the user SGPRs (SPI_SHADER_PGM_RSRC2_PS.USER_SGPR), then PRIM_MASK (LLVM's and the
//! drivers' `amdgpu_ps` ABI: the `inreg` argument after the user data; the compiler copies it to M0
//! for LDS_PARAM_LOAD), which has LDS_PARAM_LOAD's M0 format { 1'b0, new_prim_mask[15:1],
//! lds_param_offset[15:0] }. The other optional PS SGPRs (RSRC2 WAVE_CNT_EN,
//! LOAD_COLLISION_WAVEID, LOAD_INTRAWAVE_COLLISION) are not modelled: a launch that enables them
//! is refused with an error naming the field.
//!
//! LDS: each primitive's attributes as LDS_PARAM_LOAD reads them (RDNA3 ISA 12.2.1: attribute
//! `a` of primitive `p` at dword `offset / 4 + a * numPrims * 12 + p * 12`, P0.xyzw, P10.xyzw,
//! P20.xyzw). The host computes P10 = P1 - P0 and P20 = P2 - P0 in f32 (round to nearest even);
//! a flat attribute stores the provoking vertex in P0 and zeros in P10/P20.
//!
//! EXEC: the covered pixels. Helper pixels are not in the initial EXEC: the shader adds them
//! with s_wqm (which LLVM emits before derivatives and parameter loads).

use crate::dispatch::ExecConfig;
use crate::dispatch::{run_wave_alone, DispatchError};
use crate::exec::Program;
use crate::gfx::{ExportRecord, GfxWave, Stage};
use crate::wave::{status, Wave, LANES};
use wavesim_core::memory::DeviceMemory;

/// The 16 SPI_PS_INPUT terms: name and VGPR count, in VGPR order.
pub const PS_INPUT_TERMS: [(&str, usize); 16] = [
    ("PERSP_SAMPLE", 2),
    ("PERSP_CENTER", 2),
    ("PERSP_CENTROID", 2),
    ("PERSP_PULL_MODEL", 3),
    ("LINEAR_SAMPLE", 2),
    ("LINEAR_CENTER", 2),
    ("LINEAR_CENTROID", 2),
    ("LINE_STIPPLE_TEX", 1),
    ("POS_X_FLOAT", 1),
    ("POS_Y_FLOAT", 1),
    ("POS_Z_FLOAT", 1),
    ("POS_W_FLOAT", 1),
    ("FRONT_FACE", 1),
    ("ANCILLARY", 1),
    ("SAMPLE_COVERAGE", 1),
    ("POS_FIXED_PT", 1),
];

/// VGPRs of all 16 terms (the layout with every ADDR bit set).
pub const PS_INPUT_VGPRS: usize = 24;

/// SPI_SHADER_PGM_RSRC2_PS fields the launch reads (gfx11 register layout).
pub mod rsrc2_ps {
    pub const SCRATCH_EN: u32 = 1 << 0;
    pub const USER_SGPR_SHIFT: u32 = 1;
    pub const USER_SGPR_MASK: u32 = 0x1f;
    pub const TRAP_PRESENT: u32 = 1 << 6;
    pub const WAVE_CNT_EN: u32 = 1 << 7;
    pub const LOAD_COLLISION_WAVEID: u32 = 1 << 25;
    pub const LOAD_INTRAWAVE_COLLISION: u32 = 1 << 26;
    /// USER_SGPR_MSB: bit 5 of the user SGPR count.
    pub const USER_SGPR_MSB: u32 = 1 << 27;
}

/// Why a PS launch is refused.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum PsLaunchError {
    #[error("SPI_PS_INPUT_ENA {ena:#x} has bits that SPI_PS_INPUT_ADDR {addr:#x} lacks")]
    EnaNotInAddr { ena: u32, addr: u32 },
    #[error("SPI_PS_INPUT_ENA {0:#x} enables no barycentric term (bits 0-6); the SPI needs one")]
    NoBarycentric(u32),
    #[error("SPI_PS_INPUT_ENA/ADDR bits above 15 are not defined: {0:#x}")]
    UndefinedBits(u32),
    #[error("{term} needs VGPRs up to v{last}, but the wave has {num_vgprs}")]
    TooFewVgprs {
        term: &'static str,
        last: usize,
        num_vgprs: u16,
    },
    #[error("SPI_SHADER_PGM_RSRC2_PS.{0} is set; that SGPR input is not modelled")]
    UnmodelledSgpr(&'static str),
    #[error("{0}")]
    Bad(String),
}

/// First VGPR of each term that ENA loads (None: not loaded), per SPI_PS_INPUT_ENA/ADDR.
pub fn ps_vgpr_layout(ena: u32, addr: u32) -> Result<[Option<usize>; 16], PsLaunchError> {
    if (ena | addr) >> 16 != 0 {
        return Err(PsLaunchError::UndefinedBits(ena | addr));
    }
    if ena & !addr != 0 {
        return Err(PsLaunchError::EnaNotInAddr { ena, addr });
    }
    if ena & 0x7f == 0 {
        return Err(PsLaunchError::NoBarycentric(ena));
    }
    let mut out = [None; 16];
    let mut next = 0;
    for (k, &(_, n)) in PS_INPUT_TERMS.iter().enumerate() {
        if addr >> k & 1 == 0 {
            continue;
        }
        if ena >> k & 1 != 0 {
            out[k] = Some(next);
        }
        next += n;
    }
    Ok(out)
}

/// Where term `k` starts in the all-terms layout (the index into [`PsLane::inputs`]).
pub fn canonical_start(k: usize) -> usize {
    PS_INPUT_TERMS[..k].iter().map(|t| t.1).sum()
}

/// One attribute of a primitive: the three vertices' values, four channels each.
#[derive(Clone, Debug, PartialEq)]
pub struct Attribute {
    pub vertices: [[f32; 4]; 3],
    /// Flat shading: P0 = vertex 0 (the provoking vertex), P10 = P20 = 0.
    pub flat: bool,
}

/// One primitive's parameter data.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PrimParams {
    pub attributes: Vec<Attribute>,
}

/// Everything one PS wave starts with.
#[derive(Clone, Debug)]
pub struct PsWaveSetup {
    pub wave64: bool,
    pub num_vgprs: u16,
    pub spi_ps_input_ena: u32,
    pub spi_ps_input_addr: u32,
    /// SPI_SHADER_PGM_RSRC2_PS.
    pub rsrc2: u32,
    /// User SGPR values (the first USER_SGPR of them are loaded).
    pub user_sgprs: Vec<u32>,
    /// Covered pixels (the initial EXEC).
    pub exec: u64,
    /// Per lane, the 24 input values in the all-terms layout (see [`canonical_start`]).
    pub inputs: Vec<[u32; PS_INPUT_VGPRS]>,
    /// The primitive of each quad (non-decreasing, starting at 0; a new value starts a new
    /// primitive), one per quad of the wave.
    pub quad_prims: Vec<u32>,
    pub prims: Vec<PrimParams>,
    /// Byte offset of the parameter data in LDS (a multiple of 128: lds_param_offset[6:0] = 0).
    pub lds_param_offset: u32,
    /// LDS bytes of the wave (parameters included).
    pub lds_bytes: u32,
    /// STATUS.SKIP_EXPORT.
    pub skip_export: bool,
    /// Initial MODE register (from SPI_SHADER_PGM_RSRC1_PS: FLOAT_MODE, DX10_CLAMP, IEEE...).
    pub mode: u32,
    /// Scratch: device address of this wave's area and bytes per lane (FLAT_SCRATCH); none
    /// when `lane_bytes` is 0.
    pub scratch_addr: u64,
    pub scratch_lane_bytes: u32,
}

impl PsWaveSetup {
    /// The PRIM_MASK SGPR value: { 1'b0, new_prim_mask[15:1], lds_param_offset[15:0] }.
    pub fn prim_mask(&self) -> u32 {
        let mut mask = 0u32;
        for q in 1..self.quad_prims.len().min(16) {
            if self.quad_prims[q] != self.quad_prims[q - 1] {
                mask |= 1 << q;
            }
        }
        (mask >> 1) << 16 | (self.lds_param_offset & 0xffff)
    }

    /// The SPI's LDS image: zeros, then the parameters at `lds_param_offset`.
    pub fn lds_image(&self) -> Result<Vec<u8>, PsLaunchError> {
        let bad = |m: String| Err(PsLaunchError::Bad(m));
        if self.lds_param_offset & 0x7f != 0 || self.lds_param_offset > 0xffff {
            return bad(format!(
                "lds_param_offset {:#x}: bits [6:0] must be zero and it must fit 16 bits",
                self.lds_param_offset
            ));
        }
        let num_prims = self.prims.len();
        let num_attrs = self
            .prims
            .iter()
            .map(|p| p.attributes.len())
            .max()
            .unwrap_or(0);
        let need = self.lds_param_offset as usize + num_attrs * num_prims * 48;
        if need > self.lds_bytes as usize || self.lds_bytes > 65536 {
            return bad(format!(
                "parameters need {need} bytes of LDS; the wave has {} (at most 65536)",
                self.lds_bytes
            ));
        }
        let mut lds = vec![0u8; self.lds_bytes as usize];
        for (p, prim) in self.prims.iter().enumerate() {
            for (a, attr) in prim.attributes.iter().enumerate() {
                let base = self.lds_param_offset as usize + (a * num_prims + p) * 48;
                let [v0, v1, v2] = attr.vertices;
                for c in 0..4 {
                    let (p10, p20) = if attr.flat {
                        (0.0, 0.0)
                    } else {
                        (v1[c] - v0[c], v2[c] - v0[c])
                    };
                    for (v, x) in [v0[c], p10, p20].into_iter().enumerate() {
                        let at = base + (v * 4 + c) * 4;
                        lds[at..at + 4].copy_from_slice(&x.to_bits().to_le_bytes());
                    }
                }
            }
        }
        Ok(lds)
    }

    /// A wave in the state the SPI launches it with (PC 0, no graphics exports yet).
    pub fn build_wave(&self) -> Result<Wave, PsLaunchError> {
        let layout = ps_vgpr_layout(self.spi_ps_input_ena, self.spi_ps_input_addr)?;
        for (flag, name) in [
            (rsrc2_ps::WAVE_CNT_EN, "WAVE_CNT_EN"),
            (rsrc2_ps::LOAD_COLLISION_WAVEID, "LOAD_COLLISION_WAVEID"),
            (
                rsrc2_ps::LOAD_INTRAWAVE_COLLISION,
                "LOAD_INTRAWAVE_COLLISION",
            ),
        ] {
            if self.rsrc2 & flag != 0 {
                return Err(PsLaunchError::UnmodelledSgpr(name));
            }
        }
        let lanes = if self.wave64 { 64 } else { 32 };
        if self.inputs.len() < lanes && self.spi_ps_input_ena != 0 {
            return Err(PsLaunchError::Bad(format!(
                "{} lanes of PS inputs for a {lanes}-lane wave",
                self.inputs.len()
            )));
        }
        if self.quad_prims.len() != lanes / 4 {
            return Err(PsLaunchError::Bad(format!(
                "{} quad primitives for a {lanes}-lane wave ({} quads)",
                self.quad_prims.len(),
                lanes / 4
            )));
        }
        let ok_prims = self.quad_prims.first() == Some(&0)
            && self
                .quad_prims
                .windows(2)
                .all(|w| w[1] == w[0] || w[1] == w[0] + 1)
            && (*self.quad_prims.last().unwrap_or(&0) as usize) < self.prims.len().max(1);
        if !ok_prims {
            return Err(PsLaunchError::Bad(
                "quad primitives must start at 0 and step by 0 or 1 through the primitives".into(),
            ));
        }
        let mut w = Wave::new(self.wave64, self.num_vgprs);
        for (k, start) in layout.iter().enumerate() {
            let Some(first) = *start else { continue };
            let (term, n) = PS_INPUT_TERMS[k];
            if first + n > self.num_vgprs as usize {
                return Err(PsLaunchError::TooFewVgprs {
                    term,
                    last: first + n - 1,
                    num_vgprs: self.num_vgprs,
                });
            }
            let src = canonical_start(k);
            for j in 0..n {
                for (l, inp) in self.inputs.iter().enumerate().take(lanes) {
                    w.vgpr_set(first + j, l, inp[src + j]);
                }
            }
        }
        let user = ((self.rsrc2 >> rsrc2_ps::USER_SGPR_SHIFT) & rsrc2_ps::USER_SGPR_MASK) as usize
            | if self.rsrc2 & rsrc2_ps::USER_SGPR_MSB != 0 {
                32
            } else {
                0
            };
        if self.user_sgprs.len() < user {
            return Err(PsLaunchError::Bad(format!(
                "RSRC2_PS.USER_SGPR = {user} but {} user SGPR values were given",
                self.user_sgprs.len()
            )));
        }
        w.sgpr[..user].copy_from_slice(&self.user_sgprs[..user]);
        w.sgpr[user] = self.prim_mask();
        w.set_exec(self.exec);
        w.hw.mode = self.mode;
        w.hw.status &= !status::PRIV;
        if self.scratch_lane_bytes != 0 {
            w.scratch_base = self.scratch_addr;
            w.scratch_lane_bytes = self.scratch_lane_bytes;
        }
        crate::exec::flat::init_flat_scratch(&mut w);
        let mut g = GfxWave::new(Stage::Ps);
        g.skip_export = self.skip_export;
        w.gfx = Some(Box::new(g));
        Ok(w)
    }
}

/// What a PS wave left: its exports and its final state.
#[derive(Debug)]
pub struct PsWaveResult {
    pub exports: Vec<ExportRecord>,
    pub wave: Wave,
    pub lds: Vec<u8>,
}

/// Errors of a PS wave run: the launch, or the wave's own error with its location.
#[derive(Debug, thiserror::Error)]
pub enum PsRunError {
    #[error(transparent)]
    Launch(#[from] PsLaunchError),
    #[error(transparent)]
    Dispatch(#[from] DispatchError),
    #[error("the pixel shader ended without an export with DONE set (ISA 14.1: the last export must be done)")]
    NoDoneExport,
}

/// Runs one PS wave of `prog` from `entry` with the launch state of `setup`.
pub fn run_ps_wave(
    prog: &Program,
    entry: u64,
    setup: &PsWaveSetup,
    mem: &DeviceMemory,
    max_insts: u64,
) -> Result<PsWaveResult, PsRunError> {
    run_ps_wave_with_lds(prog, entry, setup, setup.lds_image()?, mem, max_insts)
}

/// [`run_ps_wave`] with an LDS image the caller built (for parameter data `PrimParams` cannot
/// express, such as packed 16-bit attributes: the words at `lds_param_offset` are what
/// `lds_param_load` reads).
pub fn run_ps_wave_with_lds(
    prog: &Program,
    entry: u64,
    setup: &PsWaveSetup,
    mut lds: Vec<u8>,
    mem: &DeviceMemory,
    max_insts: u64,
) -> Result<PsWaveResult, PsRunError> {
    let mut w = setup.build_wave()?;
    w.pc = entry;
    let cfg = ExecConfig::default();
    run_wave_alone(&mut w, &mut lds, prog, mem, &cfg, max_insts)?;
    let Some(g) = w.gfx.as_deref() else {
        return Err(PsLaunchError::Bad("the wave lost its graphics state".into()).into());
    };
    if !g.done && !g.skip_export {
        return Err(PsRunError::NoDoneExport);
    }
    let exports = g.exports.clone();
    Ok(PsWaveResult {
        exports,
        wave: w,
        lds,
    })
}

/// Lanes per wave row, re-exported for callers building inputs.
pub const MAX_LANES: usize = LANES;
