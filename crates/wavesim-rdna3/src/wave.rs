//! Programmer-visible state of one wave (RDNA3 ISA guide, Wave State, "State overview").
//!
//! Struct-of-arrays: VGPR `r` of lane `l` lives at `vgpr[r * 64 + l]`, so a vector instruction is a
//! tight loop over consecutive lanes. VCC, TTMPs, M0 and EXEC live in the scalar file at their
//! operand codes (VCC = 106/107, TTMP = 108..123, M0 = 125, EXEC = 126/127), so operand reads need
//! no special cases for them.

pub mod gfx;

use crate::decode::opnd;

/// Lanes per VGPR row in the register file (wave32 uses the first 32).
pub const LANES: usize = 64;
/// One 32-bit value per lane (a VGPR row).
pub type Lanes32 = [u32; LANES];
/// Addressable SGPRs (RDNA3 ISA guide, Wave State: 106 SGPRs, then VCC at 106/107).
pub const NUM_SGPRS: u16 = 106;

/// Hardware registers reached through s_getreg/s_setreg (RDNA3 ISA, "Hardware registers").
#[derive(Clone, Debug, Default)]
pub struct HwRegs {
    /// MODE: FP rounding [3:0], FP denormals [7:4], DX10 clamp [8], IEEE [9], LOD clamped [10],
    /// trap after instruction [11], excp_en [20:12] ...
    pub mode: u32,
    /// STATUS: SCC [0], SPI_PRIO, ... PRIV [5], TRAP_EN [6], EXECZ [9], VCCZ [10], ...
    pub status: u32,
    /// TRAPSTS: exception status bits, EXCP_CYCLE, DP_RATE...
    pub trapsts: u32,
    pub hw_id1: u32,
    pub hw_id2: u32,
    pub gpr_alloc: u32,
    pub lds_alloc: u32,
    pub ib_sts: u32,
    pub sh_mem_bases: u32,
    pub flat_scratch_lo: u32,
    pub flat_scratch_hi: u32,
}

/// STATUS bit positions (RDNA3 ISA guide, Wave State, "STATUS register").
pub mod status {
    pub const SCC: u32 = 1 << 0;
    pub const PRIV: u32 = 1 << 5;
    pub const TRAP_EN: u32 = 1 << 6;
    pub const EXECZ: u32 = 1 << 9;
    pub const VCCZ: u32 = 1 << 10;
    pub const HALT: u32 = 1 << 13;
}

/// Outstanding-operation counters that s_waitcnt waits on (RDNA3 ISA "Data dependency
/// resolution"; LLVM AMDGPU gfx11 waitcnt fields). The functional model completes every access
/// when it issues, so nothing ever waits on them; they are kept (incremented when a memory
/// instruction issues, lowered to the waited value by s_waitcnt*) so a timing model can use them.
/// Each saturates at its field's maximum, where hardware stalls issue instead of overflowing.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WaitCounts {
    /// VM_CNT: vector memory loads and atomics with return (FLAT/GLOBAL/SCRATCH/buffer/image).
    pub vm: u8,
    /// VS_CNT: vector memory stores and atomics without return.
    pub vs: u8,
    /// LGKM_CNT: LDS, GDS, scalar memory and messages (FLAT counts here too, as it may be LDS).
    pub lgkm: u8,
    /// EXP_CNT: exports and LDS-direct/parameter loads.
    pub exp: u8,
}

impl WaitCounts {
    /// Largest values of the gfx11 s_waitcnt fields (vmcnt [15:10], lgkmcnt [9:4], expcnt [2:0];
    /// s_waitcnt_vscnt [5:0]).
    pub const VM_MAX: u8 = 63;
    pub const VS_MAX: u8 = 63;
    pub const LGKM_MAX: u8 = 63;
    pub const EXP_MAX: u8 = 7;

    /// A vector memory load / returning atomic issued.
    #[inline(always)]
    pub fn vm_issue(&mut self) {
        self.vm += (self.vm < Self::VM_MAX) as u8;
    }

    /// A vector memory store / non-returning atomic issued.
    #[inline(always)]
    pub fn vs_issue(&mut self) {
        self.vs += (self.vs < Self::VS_MAX) as u8;
    }

    /// An LDS, GDS, SMEM or message instruction issued.
    #[inline(always)]
    pub fn lgkm_issue(&mut self) {
        self.lgkm += (self.lgkm < Self::LGKM_MAX) as u8;
    }

    /// An export or LDS-direct load issued.
    #[inline(always)]
    pub fn exp_issue(&mut self) {
        self.exp += (self.exp < Self::EXP_MAX) as u8;
    }
}

#[derive(Clone, Debug)]
pub struct Wave {
    /// wave64 (else wave32): decides the active lanes and the width of lane masks.
    pub wave64: bool,
    /// Byte offset of the next instruction from the start of the code object's text.
    pub pc: u64,
    /// Scalar operand space 0..=127 (SGPRs, VCC, TTMP, NULL, M0, EXEC).
    pub sgpr: [u32; 128],
    pub scc: bool,
    /// VGPRs, `num_vgprs` rows of `LANES` lanes.
    pub vgpr: Vec<u32>,
    pub num_vgprs: u16,
    pub hw: HwRegs,
    /// Trap base/memory addresses (shared by all waves on hardware; per dispatch here).
    pub tba: u64,
    pub tma: u64,
    /// Index of this wave within its workgroup and of the workgroup in the grid (for errors).
    pub wave_id: u32,
    pub workgroup: [u32; 3],
    /// Instructions executed (wave-instructions) and lanes active over them (lane-instructions).
    pub wave_insts: u64,
    pub lane_insts: u64,
    pub ended: bool,
    /// Device address of this wave's private (scratch) segment, lane 0 (RDNA3 ISA guide, Wave State,
    /// "FLAT_SCRATCH"); 0 when the kernel has no scratch.
    pub scratch_base: u64,
    /// Private segment bytes per lane.
    pub scratch_lane_bytes: u32,
    /// s_waitcnt counters (see [`WaitCounts`]).
    pub cnt: WaitCounts,
    /// Graphics-stage state (PS/GS/HS/VS waves: SKIP_EXPORT, the exports made); `None` for
    /// compute waves, where EXP is an error.
    pub gfx: Option<Box<gfx::GfxWave>>,
}

impl Wave {
    pub fn new(wave64: bool, num_vgprs: u16) -> Wave {
        Wave {
            wave64,
            pc: 0,
            sgpr: [0; 128],
            scc: false,
            // At least one row: out-of-range sources read v0 (RDNA3 ISA guide, Wave State), so v0 must exist even
            // for a wave built with no VGPRs.
            vgpr: vec![0; (num_vgprs as usize).max(1) * LANES],
            num_vgprs,
            hw: HwRegs::default(),
            tba: 0,
            tma: 0,
            wave_id: 0,
            workgroup: [0; 3],
            wave_insts: 0,
            lane_insts: 0,
            ended: false,
            scratch_base: 0,
            scratch_lane_bytes: 0,
            cnt: WaitCounts::default(),
            gfx: None,
        }
    }

    #[inline]
    pub fn lanes(&self) -> usize {
        if self.wave64 {
            64
        } else {
            32
        }
    }

    /// Mask of lanes that exist in this wave size.
    #[inline]
    pub fn lane_mask(&self) -> u64 {
        if self.wave64 {
            u64::MAX
        } else {
            u32::MAX as u64
        }
    }

    #[inline]
    pub fn exec(&self) -> u64 {
        (self.sgpr[opnd::EXEC_LO as usize] as u64
            | (self.sgpr[opnd::EXEC_HI as usize] as u64) << 32)
            & self.lane_mask()
    }

    #[inline]
    pub fn set_exec(&mut self, v: u64) {
        self.sgpr[opnd::EXEC_LO as usize] = v as u32;
        if self.wave64 {
            self.sgpr[opnd::EXEC_HI as usize] = (v >> 32) as u32;
        }
    }

    #[inline]
    pub fn vcc(&self) -> u64 {
        (self.sgpr[opnd::VCC_LO as usize] as u64 | (self.sgpr[opnd::VCC_HI as usize] as u64) << 32)
            & self.lane_mask()
    }

    #[inline]
    pub fn set_vcc(&mut self, v: u64) {
        self.sgpr[opnd::VCC_LO as usize] = v as u32;
        if self.wave64 {
            self.sgpr[opnd::VCC_HI as usize] = (v >> 32) as u32;
        }
    }

    #[inline]
    pub fn m0(&self) -> u32 {
        self.sgpr[opnd::M0 as usize]
    }

    /// True in trap handlers: TTMPs are writable only then (RDNA3 ISA guide, Wave State, "Trap temporaries").
    #[inline]
    pub fn privileged(&self) -> bool {
        self.hw.status & status::PRIV != 0
    }

    /// VGPR row `r` (all 64 lanes). Out-of-range rows clamp to v0 (RDNA3 ISA guide, Wave State: an out-of-range
    /// VGPR source reads VGPR0).
    #[inline]
    pub fn vrow(&self, r: usize) -> &[u32] {
        let r = if r < self.num_vgprs as usize { r } else { 0 };
        &self.vgpr[r * LANES..r * LANES + LANES]
    }

    #[inline]
    pub fn vrow_mut(&mut self, r: usize) -> Option<&mut [u32]> {
        if r < self.num_vgprs as usize {
            Some(&mut self.vgpr[r * LANES..r * LANES + LANES])
        } else {
            None
        }
    }

    #[inline]
    pub fn vgpr_get(&self, r: usize, lane: usize) -> u32 {
        self.vrow(r)[lane]
    }

    #[inline]
    pub fn vgpr_set(&mut self, r: usize, lane: usize, v: u32) {
        if let Some(row) = self.vrow_mut(r) {
            row[lane] = v;
        }
    }
}
