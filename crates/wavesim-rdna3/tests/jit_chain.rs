//! A compiled block that exits to another compiled block runs it without returning to the step
//! loop (`jit::cache::Tier::run_entry`). The chain must end exactly where the step loop would
//! have stopped: at the instruction limit (the budget left, block by block), at a block that
//! stops (a fault in a chained block), at s_endpgm; with the instruction counts, PC and wave
//! state the interpreter leaves. The loop below is three blocks (its body, the branch over a
//! divergent `if` with a side exit, the join) and reads SHADER_CYCLES (the wave's instruction
//! count, RDNA3 ISA 3.5.2 / s_getreg_b32) through a callback in a chained block, so a wrong
//! count inside the chain shows in s6.
//! Words are `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding` output (assembly beside).

use wavesim_rdna3::dispatch::{run_wave_alone, DispatchError, DispatchStats};
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::jit::{optimise_at_once, Engine};
use wavesim_rdna3::testing::Harness;

/// The loop, `n` iterations unless a load faults first (the buffer is 4 KiB; lane `l` loads
/// at `4 l + 256 i` in iteration `i`, so iteration 17 faults).
fn program(n: u32) -> Program {
    let n = n.to_le_bytes();
    let insts: &[&[u8]] = &[
        // loop:
        &[0x04, 0x81, 0x04, 0x81], // s_add_i32 s4, s4, 1
        &[0x1d, 0x98, 0x85, 0xb8], // s_getreg_b32 s5, hwreg(HW_REG_SHADER_CYCLES, 0, 20)
        &[0x06, 0x05, 0x06, 0x80], // s_add_u32 s6, s6, s5
        &[0x00, 0x00, 0x52, 0xdc, 0x03, 0x00, 0x00, 0x02], // global_load_b32 v2, v3, s[0:1]
        &[0xf7, 0x03, 0x89, 0xbf], // s_waitcnt vmcnt(0)
        &[0x02, 0x03, 0x02, 0x4a], // v_add_nc_u32_e32 v1, v2, v1
        &[0x04, 0xff, 0x0a, 0xbf, n[0], n[1], n[2], n[3]], // s_cmp_lt_u32 s4, n
        &[0x09, 0x00, 0xa1, 0xbf], // s_cbranch_scc0 end
        &[0xff, 0x06, 0x06, 0x4a, 0x00, 0x01, 0x00, 0x00], // v_add_nc_u32_e32 v3, 0x100, v3
        &[0x04, 0x00, 0x98, 0x7c], // v_cmp_gt_u32_e32 vcc_lo, s4, v0
        &[0x6a, 0x20, 0x87, 0xbe], // s_and_saveexec_b32 s7, vcc_lo
        &[0x02, 0x00, 0xa5, 0xbf], // s_cbranch_execz skip
        &[0x01, 0x00, 0x2c, 0xd7, 0x01, 0x07, 0x01, 0x00], // v_mul_lo_u32 v1, v1, 3
        // skip:
        &[0x7e, 0x07, 0x7e, 0x8c], // s_or_b32 exec_lo, exec_lo, s7
        &[0xed, 0xff, 0xa0, 0xbf], // s_branch loop
        // end:
        &[0x00, 0x00, 0xb0, 0xbf], // s_endpgm
    ];
    let bytes: Vec<u8> = insts.iter().flat_map(|i| i.iter().copied()).collect();
    Program::new(&bytes, 0).expect("program decodes")
}

/// Runs `prog` under `engine` for at most `limit` instructions from a fresh wave; returns the
/// result and the wave state.
fn go(
    prog: &Program,
    wave64: bool,
    engine: Engine,
    limit: u64,
) -> (Result<DispatchStats, DispatchError>, String) {
    let mut h = Harness::new(wave64);
    let buf = h.filled_buffer().expect("buffer");
    h.wave.sgpr[0] = buf as u32;
    h.wave.sgpr[1] = (buf >> 32) as u32;
    // The `if` is skipped (EXEC zero: the side exit) while s4 <= 3, then runs for more lanes
    // each iteration.
    h.set_v(0, |l| l as u32 * 4 + 3);
    h.set_v(3, |l| l as u32 * 4);
    h.cfg.engine = engine;
    h.wave.pc = 0;
    let r = run_wave_alone(&mut h.wave, &mut h.lds, prog, &h.mem, &h.cfg, limit);
    (r, format!("{:?}", h.wave))
}

/// A run's result without its wall time.
fn outcome(r: &Result<DispatchStats, DispatchError>) -> String {
    match r {
        Ok(st) => format!(
            "ended: {} wave-instructions, {} lane-instructions",
            st.wave_instructions, st.lane_instructions
        ),
        Err(e) => format!("{e:?}"),
    }
}

/// Every instruction limit up to past the end: the JIT (blocks compiled on first entry, so
/// the first runs chain into quick blocks and later ones into blocks compiled already) stops
/// where the interpreter does, with its state.
fn every_limit(n: u32, wave64: bool, end: u64) {
    let prog = program(n);
    for limit in 1..=end {
        let (ri, si) = go(&prog, wave64, Engine::Interp, limit);
        let (rj, sj) = go(&prog, wave64, Engine::Jit, limit);
        assert_eq!(outcome(&rj), outcome(&ri), "limit {limit}");
        assert_eq!(sj, si, "limit {limit}");
    }
}

#[test]
fn a_chain_of_blocks_stops_at_the_instruction_limit_where_the_interpreter_does() {
    wavesim_rdna3::jit::verify_ir(true);
    // 10 iterations of 9-15 instructions, then s_endpgm.
    every_limit(10, false, 160);
    let (r, _) = go(&program(10), false, Engine::Jit, 1_000);
    let st = r.expect("ends");
    // 10 x the body (8), 9 x the `if` (7; the side exit skips one while s4 <= 3: 3 of them)
    // and the join's branch, then s_endpgm.
    assert_eq!(st.wave_instructions, 10 * 8 + 9 * 7 - 3 + 1);
}

#[test]
fn a_fault_in_a_chained_block_is_the_interpreters_error() {
    wavesim_rdna3::jit::verify_ir(true);
    // The 17th iteration's load faults.
    every_limit(1000, false, 280);
    let (ri, si) = go(&program(1000), false, Engine::Interp, 100_000);
    let (rj, sj) = go(&program(1000), false, Engine::Jit, 100_000);
    assert!(ri.is_err(), "the load faults");
    assert_eq!(outcome(&rj), outcome(&ri));
    assert_eq!(sj, si);
}

#[test]
fn optimised_chains_in_wave64_stop_where_the_interpreter_does() {
    wavesim_rdna3::jit::verify_ir(true);
    optimise_at_once(true);
    every_limit(12, true, 200);
    optimise_at_once(false);
}
