//! Helpers shared by the semantic test files.

use wavesim_agx::asm::assemble;
use wavesim_agx::exec::{run, Fault, Memories, Program, WaveState};
use wavesim_core::memory::DeviceMemory;

/// Assemble `src` plus `stop` and run it from pc 0 on `w` (empty device and threadgroup memory).
#[allow(dead_code)]
pub fn run_asm(w: &mut WaveState, src: &str) -> Result<(), Fault> {
    run_code(w, assemble(&format!("{src}\nstop")).unwrap())
}

/// Run machine code from pc 0 on `w` (empty device and threadgroup memory).
#[allow(dead_code)]
pub fn run_code(w: &mut WaveState, code: Vec<u8>) -> Result<(), Fault> {
    let dev = DeviceMemory::new();
    let mut tg = vec![];
    let mut mem = Memories {
        device: &dev,
        threadgroup: &mut tg,
    };
    w.pc = 0;
    run(w, &Program::new(code), &mut mem, 100)
        .map(|_| ())
        .map_err(|e| e.fault)
}
