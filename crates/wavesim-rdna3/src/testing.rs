//! Helpers for instruction tests: run a few raw instruction words on a fresh wave.
//!
//! The wave runs through the engine as a one-wave dispatch ([`run_wave_alone`]), so lane
//! counting, observers and trap routing are those of every real dispatch.
//!
//! Tests write the words `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding` gives for an
//! instruction (with the assembly in a comment), set up registers, run, and check the values the
//! ISA defines.

use crate::dispatch::ExecConfig;
use crate::dispatch::{run_wave_alone, DispatchError};
use crate::exec::{ExecError, Program};
use crate::wave::{status, Wave};
use wavesim_core::memory::{DeviceMemory, MemError};

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
        self.run_program(&prog, 1_000_000)
    }

    /// Runs `prog` from the wave's current PC until s_endpgm, an error, or `max_insts` more
    /// instructions.
    pub fn run_program(&mut self, prog: &Program, max_insts: u64) -> Result<(), ExecError> {
        run_wave(
            &mut self.wave,
            &mut self.lds,
            prog,
            &self.mem,
            &self.cfg,
            max_insts,
        )
    }

    /// A 4 KiB buffer in the wave's memory (256-byte aligned) whose byte `i` is
    /// [`fill_byte`]`(i)`: data no two nearby dwords share, for tests that compare what
    /// loads and stores make of it. Returns its address.
    pub fn filled_buffer(&mut self) -> Result<u64, MemError> {
        let buf = self.mem.alloc(4096, 256)?;
        let fill: Vec<u8> = (0..4096).map(fill_byte).collect();
        self.mem.write(buf, &fill)?;
        Ok(buf)
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

/// The byte at offset `i` of a [`Harness::filled_buffer`].
pub fn fill_byte(i: usize) -> u8 {
    (i * 7 + 3) as u8
}

/// [`run_wave_alone`] with the dispatch's errors as the instruction error a test checks: the
/// failing instruction's [`ExecError`], or `ExecError::Other("watchdog: ...")`.
pub fn run_wave(
    w: &mut Wave,
    lds: &mut Vec<u8>,
    prog: &Program,
    mem: &DeviceMemory,
    cfg: &ExecConfig,
    max_insts: u64,
) -> Result<(), ExecError> {
    match run_wave_alone(w, lds, prog, mem, cfg, max_insts) {
        Ok(_) => Ok(()),
        Err(DispatchError::Exec { error, .. }) => Err(error),
        Err(DispatchError::Watchdog { limit, .. }) => Err(ExecError::Other(format!(
            "watchdog: {max_insts} instructions executed without s_endpgm (limit {limit})"
        ))),
        Err(e) => Err(ExecError::Other(e.to_string())),
    }
}
