//! Helpers for instruction tests: run a few raw instruction words on a fresh wave.
//!
//! Tests write the words `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding` gives for an
//! instruction (with the assembly in a comment), set up registers, run, and check the values the
//! ISA defines.

use crate::exec::{run_single_wave, Ctx, ExecConfig, ExecError, Program};
use crate::wave::{status, Wave};
use wavesim_core::memory::DeviceMemory;

/// `s_endpgm`, appended to every test program.
pub const S_ENDPGM: u32 = 0xbfb0_0000;

/// A wave with its memory, ready to run instruction words.
pub struct Harness {
    pub wave: Wave,
    pub mem: DeviceMemory,
    pub lds: Vec<u8>,
    pub cfg: ExecConfig,
}

impl Harness {
    /// A wave32 or wave64 wave with 256 VGPRs, EXEC all ones, 64 KiB of LDS.
    pub fn new(wave64: bool) -> Harness {
        let mut wave = Wave::new(wave64, 256);
        wave.set_exec(u64::MAX);
        wave.hw.status &= !status::PRIV;
        Harness {
            wave,
            mem: DeviceMemory::default(),
            lds: vec![0; 65536],
            cfg: ExecConfig::default(),
        }
    }

    /// Runs `words` followed by s_endpgm from PC 0.
    pub fn run(&mut self, words: &[u32]) -> Result<(), ExecError> {
        let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        bytes.extend_from_slice(&S_ENDPGM.to_le_bytes());
        let prog = Program::new(&bytes, 0).map_err(|e| ExecError::Other(e.to_string()))?;
        self.wave.pc = 0;
        let mut ctx = Ctx {
            mem: &self.mem,
            lds: &mut self.lds,
            cfg: &self.cfg,
        };
        run_single_wave(&mut self.wave, &prog, &mut ctx, 1_000_000)
    }

    /// Sets VGPR `r` of every lane with `f(lane)`.
    pub fn set_v(&mut self, r: usize, f: impl Fn(usize) -> u32) {
        for l in 0..64 {
            self.wave.vgpr_set(r, l, f(l));
        }
    }

    pub fn v(&self, r: usize, lane: usize) -> u32 {
        self.wave.vgpr_get(r, lane)
    }

    pub fn s(&self, r: usize) -> u32 {
        self.wave.sgpr[r]
    }
}
