//! The JIT's two compile tiers (`jit::cache::Opt`): a block is compiled quickly first and, once
//! it has run long enough, again by the optimising tier; both must leave exactly the state the
//! interpreter does. (jit_fuzz runs its flushed programs at the optimising tier directly.)
//! Words from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding`.

use wavesim_rdna3::dispatch::run_wave_alone;
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::jit::{compile_stats, Engine};
use wavesim_rdna3::testing::{Harness, S_ENDPGM};

/// `s_add_i32 s4, s4, 1; v_add_nc_u32 v1, v0, v1; s_cmp_lt_u32 s4, N; s_cbranch_scc1 -5`
/// (back to the add: PC_next + simm16 * 4, RDNA3 ISA, SOPP S_CBRANCH_SCC1), then s_endpgm.
fn counting_loop(n: u32) -> Program {
    let mut bytes = vec![
        0x04, 0x81, 0x04, 0x81, // s_add_i32 s4, s4, 1
        0x00, 0x03, 0x02, 0x4a, // v_add_nc_u32_e32 v1, v0, v1
        0x04, 0xff, 0x0a, 0xbf, // s_cmp_lt_u32 s4, literal
    ];
    bytes.extend(n.to_le_bytes());
    bytes.extend([0xfb, 0xff, 0xa2, 0xbf]); // s_cbranch_scc1 -5
    bytes.extend(S_ENDPGM.to_le_bytes());
    Program::new(&bytes, 0).expect("program decodes")
}

/// Runs the loop of `n` iterations under `engine` from s4 = 0, v0 = lane * 3 + 1, v1 = lane;
/// returns the final wave state as text and the blocks compiled meanwhile.
fn run(n: u32, engine: Engine) -> (String, u64) {
    let prog = counting_loop(n);
    let mut h = Harness::new(false);
    h.set_v(0, |l| l as u32 * 3 + 1);
    h.set_v(1, |l| l as u32);
    h.wave.sgpr[4] = 0;
    h.cfg.engine = engine;
    h.wave.pc = 0;
    let before = compile_stats().blocks;
    let st = run_wave_alone(&mut h.wave, &mut h.lds, &prog, &h.mem, &h.cfg, 20_000_000)
        .expect("program runs");
    // Each iteration runs the loop's four instructions; then s_endpgm.
    assert_eq!(st.wave_instructions, 4 * n as u64 + 1);
    assert_eq!(h.s(4), n);
    for l in 0..32 {
        // v1 = lane + n * (lane * 3 + 1), modulo 2^32 (v_add_nc_u32 wraps).
        let want = (l as u32).wrapping_add(n.wrapping_mul(l as u32 * 3 + 1));
        assert_eq!(h.v(1, l), want, "lane {l}");
    }
    (format!("{:?}", h.wave), compile_stats().blocks - before)
}

#[test]
fn a_hot_block_is_compiled_again_by_the_optimising_tier_with_the_same_results() {
    wavesim_rdna3::jit::verify_ir(true);
    // 40 wave-instructions: far below any promotion point (a compile takes microseconds,
    // promotion waits for 4 x its time / 25 ns of quick code), so one quick compile.
    let (interp, none) = run(10, Engine::Interp);
    assert_eq!(none, 0);
    let (jit, blocks) = run(10, Engine::Jit);
    assert_eq!(jit, interp);
    assert_eq!(blocks, 1, "the loop compiled once, quickly");
    // 10 million wave-instructions: promoted unless the quick compile took over 62 ms (its
    // promotion point, 4 x 62 ms / 25 ns); then compiled again (one more block).
    let n = 2_500_000;
    let (interp, _) = run(n, Engine::Interp);
    let (jit, blocks) = run(n, Engine::Jit);
    assert_eq!(jit, interp);
    assert_eq!(
        blocks, 2,
        "the loop compiled quickly, then by the optimising tier"
    );
}
