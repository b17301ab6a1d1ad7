//! VS, GS (ES+GS) and HS (LS+HS) waves: the launch state of the RDNA3 ISA guide's (3.3 "Initial wave state") "Geometry shader (GS)"
//! and "Front-end shader (HS)" sections, and of the legacy VS stage LLVM's `amdgpu_vs` targets.
//!
//! - GS and HS waves: the first 8 SGPRs are always initialised, none skipped (values the launch
//!   does not provide are written as zero); the user SGPRs follow from s8. (What the eight
//!   system values mean — wave info, offsets, ring bases — is the driver's business: the launch
//!   takes them as given.)
//! - VS waves: the user SGPRs from s0.
//! - VGPRs: the rows the SPI loads (vertex/primitive indices, instance id, ...) in the order the
//!   stage's VGPR_COMP_CNT fields select; the launch takes the rows as given and refuses more
//!   rows than the wave has VGPRs.
//! - EXEC from the launch. An empty wave (EXEC == 0) ends as soon as it starts (RDNA3 ISA guide, ch. 3 "Wave state",
//!   "Execution initialisation"): it executes nothing and exports nothing.
//! - FLAT_SCRATCH: the wave's scratch base when it has scratch, else 0 (RDNA3 ISA guide, ch. 3 "Wave state").

use crate::dispatch::ExecConfig;
use crate::dispatch::{run_wave_alone, DispatchError};
use crate::exec::Program;
use crate::gfx::{GfxWave, Stage};
use crate::wave::{status, Wave};
use wavesim_core::memory::DeviceMemory;

#[derive(Clone, Debug)]
pub struct StageWaveSetup {
    pub stage: Stage,
    pub wave64: bool,
    pub num_vgprs: u16,
    /// GS/HS: s0-s7 (missing values are zero). Ignored for VS.
    pub system_sgprs: Vec<u32>,
    pub user_sgprs: Vec<u32>,
    /// VGPR rows from v0: `vgprs[r][lane]`.
    pub vgprs: Vec<Vec<u32>>,
    pub exec: u64,
    pub mode: u32,
    pub scratch_addr: u64,
    pub scratch_lane_bytes: u32,
    pub lds_bytes: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum StageError {
    #[error("{0}")]
    Launch(String),
    #[error(transparent)]
    Dispatch(#[from] DispatchError),
}

impl StageWaveSetup {
    pub fn build_wave(&self) -> Result<Wave, StageError> {
        let bad = |m: String| Err(StageError::Launch(m));
        let first_user = match self.stage {
            Stage::Gs | Stage::Hs => 8,
            Stage::Vs => 0,
            Stage::Ps => return bad("PS waves are launched with gfx::ps".into()),
        };
        if first_user == 8 && self.system_sgprs.len() > 8 {
            return bad(format!(
                "{} system SGPRs; GS/HS waves have 8",
                self.system_sgprs.len()
            ));
        }
        if first_user + self.user_sgprs.len() > 106 {
            return bad(format!("{} user SGPRs do not fit", self.user_sgprs.len()));
        }
        if self.vgprs.len() > self.num_vgprs as usize {
            return bad(format!(
                "{} VGPR rows for a wave with {} VGPRs",
                self.vgprs.len(),
                self.num_vgprs
            ));
        }
        if self.num_vgprs == 0 || self.num_vgprs > 256 {
            return bad(format!("{} VGPRs per wave; 1 to 256", self.num_vgprs));
        }
        let mut w = Wave::new(self.wave64, self.num_vgprs);
        if first_user == 8 {
            for (k, v) in self.system_sgprs.iter().enumerate() {
                w.sgpr[k] = *v;
            }
        }
        for (k, v) in self.user_sgprs.iter().enumerate() {
            w.sgpr[first_user + k] = *v;
        }
        for (r, row) in self.vgprs.iter().enumerate() {
            for (l, v) in row.iter().enumerate().take(w.lanes()) {
                w.vgpr_set(r, l, *v);
            }
        }
        w.set_exec(self.exec);
        w.hw.mode = self.mode;
        w.hw.status &= !status::PRIV;
        if self.scratch_lane_bytes != 0 {
            w.scratch_base = self.scratch_addr;
            w.scratch_lane_bytes = self.scratch_lane_bytes;
        }
        crate::exec::flat::init_flat_scratch(&mut w);
        w.gfx = Some(Box::new(GfxWave::new(self.stage)));
        Ok(w)
    }
}

/// Runs one VS/GS/HS wave of `prog` from `entry`; returns the final wave (its `gfx` holds the
/// exports and messages). An empty wave returns at once.
pub fn run_stage_wave(
    prog: &Program,
    entry: u64,
    setup: &StageWaveSetup,
    mem: &DeviceMemory,
    max_insts: u64,
) -> Result<Wave, StageError> {
    let mut w = setup.build_wave()?;
    w.pc = entry;
    if w.exec() == 0 {
        w.ended = true;
        return Ok(w);
    }
    let mut lds = vec![0u8; setup.lds_bytes.min(65536) as usize];
    run_wave_alone(
        &mut w,
        &mut lds,
        prog,
        mem,
        &ExecConfig::default(),
        max_insts,
    )?;
    Ok(w)
}
