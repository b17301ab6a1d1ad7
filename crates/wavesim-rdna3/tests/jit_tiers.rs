//! The JIT's two compile tiers (`jit::cache::Opt`): a block is compiled quickly first and, once
//! it has run long enough, again by the optimising tier; both must leave exactly the state the
//! interpreter does. (jit_fuzz runs its flushed programs at the optimising tier directly.)
//! Words from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding`.

use std::sync::Mutex;
use wavesim_rdna3::dispatch::run_wave_alone;
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::jit::{compile_stats, full_exec_variants, Engine};
use wavesim_rdna3::testing::{Harness, S_ENDPGM};

/// The tests here count what the whole process compiled between two points: one at a time.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

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
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
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

/// `v_add_nc_u32 v1, v0, v1; s_add_i32 s4, s4, 1; s_cmp_lt_u32 s4, N; s_cbranch_scc0 +1`
/// (over the next instruction, to the end), `s_branch -6` (back to the start; SOPP targets are
/// PC_next + simm16 * 4, RDNA3 ISA), `s_endpgm`: a loop of two blocks, neither of which
/// branches to its own start, so the optimising tier may give the first a full-EXEC variant.
fn two_block_loop(n: u32) -> Program {
    let mut bytes = vec![
        0x00, 0x03, 0x02, 0x4a, // v_add_nc_u32_e32 v1, v0, v1
        0x04, 0x81, 0x04, 0x81, // s_add_i32 s4, s4, 1
        0x04, 0xff, 0x0a, 0xbf, // s_cmp_lt_u32 s4, literal
    ];
    bytes.extend(n.to_le_bytes());
    bytes.extend([0x01, 0x00, 0xa1, 0xbf]); // s_cbranch_scc0 +1
    bytes.extend([0xfa, 0xff, 0xa0, 0xbf]); // s_branch -6
    bytes.extend(S_ENDPGM.to_le_bytes());
    Program::new(&bytes, 0).expect("program decodes")
}

#[test]
fn the_full_exec_variant_is_compiled_only_for_blocks_entered_with_every_lane() {
    // The optimising tier counts, while a block's quick code runs, the wave-instructions of
    // entries with EXEC full, and makes the variant (twice the compile) only if they are at
    // least half: a block waves enter with lanes off gets the general code alone. Either way
    // the state is the interpreter's.
    let _one = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    wavesim_rdna3::jit::verify_ir(true);
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        let full = if wave64 { u64::MAX } else { u32::MAX as u64 };
        // (A trip count per case: each a program of its own, compiled afresh.) 200,000
        // wave-instructions pass the first block's promotion point (4 x its quick compile
        // estimated at 1 us per IR instruction / 25 ns: under 20,000 for its few hundred).
        for (exec, n) in [(0x7fff_fffe_ffff_0ff0 & full, 50_000), (full, 50_001)] {
            let go = |engine: Engine| {
                let mut h = Harness::new(wave64);
                h.set_v(0, |l| l as u32 * 3 + 1);
                h.set_v(1, |l| l as u32);
                h.wave.sgpr[4] = 0;
                h.wave.set_exec(exec);
                h.cfg.engine = engine;
                h.wave.pc = 0;
                let st = run_wave_alone(
                    &mut h.wave,
                    &mut h.lds,
                    &two_block_loop(n),
                    &h.mem,
                    &h.cfg,
                    20_000_000,
                )
                .expect("program runs");
                // Each trip runs the first block's four instructions and, but for the last,
                // the s_branch; then s_endpgm.
                assert_eq!(st.wave_instructions, 5 * n as u64);
                (format!("{:?}", h.wave), h)
            };
            let (promoted, variants) = (compile_stats().promoted, full_exec_variants());
            let (jit, h) = go(Engine::Jit);
            assert!(compile_stats().promoted > promoted, "promoted");
            let built = full_exec_variants() - variants;
            // (Both blocks may get one: the s_branch's too, entered as the first.)
            if exec == full {
                assert!(built >= 1, "a variant for EXEC full");
            } else {
                assert_eq!(built, 0, "no variant for EXEC {exec:#x}");
            }
            let (interp, _) = go(Engine::Interp);
            assert_eq!(jit, interp);
            for l in 0..lanes {
                // v1 = lane + n * (lane * 3 + 1) modulo 2^32 in EXEC's lanes, else the lane.
                let on = exec >> l & 1 != 0;
                let k = if on { n } else { 0 };
                let want = (l as u32).wrapping_add(k.wrapping_mul(l as u32 * 3 + 1));
                assert_eq!(h.v(1, l), want, "lane {l}");
            }
        }
    }
}
