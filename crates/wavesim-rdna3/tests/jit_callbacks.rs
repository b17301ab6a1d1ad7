//! Instructions the JIT does not translate run inside compiled blocks through their interpreter
//! handlers (`jit::cache::call`). These programs mix memory instructions (global loads, stores,
//! an atomic with return, LDS), waits and VALU ops in one loop body; the compiled run must
//! leave exactly the interpreter's wave state, memory, LDS, instruction counts and errors.
//! Words are `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding` output (assembly beside).

use wavesim_rdna3::dispatch::{run_wave_alone, DispatchError, DispatchStats};
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::jit::{compile_stats, Engine};
use wavesim_rdna3::testing::{Harness, S_ENDPGM};

fn program(insts: &[&[u8]]) -> Program {
    let mut bytes: Vec<u8> = insts.iter().flat_map(|i| i.iter().copied()).collect();
    bytes.extend_from_slice(&S_ENDPGM.to_le_bytes());
    Program::new(&bytes, 0).expect("program decodes")
}

type Outcome = (
    Result<DispatchStats, DispatchError>,
    String,
    Vec<u8>,
    Vec<u8>,
);

/// Runs `prog` under `engine` on a fresh wave `setup` prepares (with a 4 KiB buffer whose
/// address it gets); returns the result, the wave state, the buffer and LDS.
fn go(prog: &Program, wave64: bool, engine: Engine, setup: &dyn Fn(&mut Harness, u64)) -> Outcome {
    let mut h = Harness::new(wave64);
    let buf = h.filled_buffer().expect("buffer");
    setup(&mut h, buf);
    h.cfg.engine = engine;
    h.wave.pc = 0;
    let r = run_wave_alone(&mut h.wave, &mut h.lds, prog, &h.mem, &h.cfg, 10_000);
    let mut mem = vec![0u8; 4096];
    h.mem.read(buf, &mut mem).expect("buffer reads");
    (r, format!("{:?}", h.wave), mem, h.lds)
}

/// Runs under both engines, checks the JIT compiled at least `compiled` block instructions (and
/// some callback, unless `compiled` is 0: the code of a program and wave size is compiled once
/// per process) and that everything matches; returns the JIT's outcome.
fn both(
    insts: &[&[u8]],
    wave64: bool,
    compiled: u64,
    setup: &dyn Fn(&mut Harness, u64),
) -> Outcome {
    both_with(insts, wave64, compiled, true, setup)
}

/// `both`, with the check that some callback was compiled only when `callbacks` (the scalar
/// and dword memory instructions and the integer atomics compile to host code with the
/// handler as their slow path, so programs of those alone compile no callback).
fn both_with(
    insts: &[&[u8]],
    wave64: bool,
    compiled: u64,
    callbacks: bool,
    setup: &dyn Fn(&mut Harness, u64),
) -> Outcome {
    // Cranelift's IR verifier on for everything these tests compile.
    wavesim_rdna3::jit::verify_ir(true);
    let prog = program(insts);
    let before = compile_stats();
    let j = go(&prog, wave64, Engine::Jit, setup);
    let after = compile_stats();
    assert!(
        after.instructions - before.instructions >= compiled,
        "compiled {} instructions, expected at least {compiled}",
        after.instructions - before.instructions
    );
    assert!(
        compiled == 0 || !callbacks || after.callbacks > before.callbacks,
        "no callback compiled"
    );
    let i = go(&prog, wave64, Engine::Interp, setup);
    // Everything but the elapsed time.
    let key = |r: &Result<DispatchStats, DispatchError>| match r {
        Ok(s) => format!("{} {}", s.wave_instructions, s.lane_instructions),
        Err(e) => format!("{e:?}"),
    };
    assert_eq!(key(&j.0), key(&i.0), "results");
    assert_eq!(j.1, i.1, "wave state");
    assert!(j.2 == i.2, "device memory differs");
    assert!(j.3 == i.3, "LDS differs");
    j
}

// A loop body starting at the load (the branch goes back 13 dwords from the next PC, RDNA3 ISA
// SOPP S_CBRANCH_SCC1: PC_next + simm16 * 4):
const ADD_V1: &[u8] = &[0x01, 0x01, 0x02, 0x4a]; // v_add_nc_u32_e32 v1, v1, v0
const LOAD: &[u8] = &[0x00, 0x00, 0x52, 0xdc, 0x03, 0x00, 0x00, 0x02]; // global_load_b32 v2, v3, s[0:1]
const WAIT: &[u8] = &[0xf7, 0x03, 0x89, 0xbf]; // s_waitcnt vmcnt(0)
const ADD_V2: &[u8] = &[0x02, 0x03, 0x04, 0x4a]; // v_add_nc_u32_e32 v2, v2, v1
const STORE: &[u8] = &[0x00, 0x01, 0x6a, 0xdc, 0x03, 0x02, 0x00, 0x00]; // global_store_b32 v3, v2, s[0:1] offset:256
const ATOMIC: &[u8] = &[0x00, 0x42, 0xd6, 0xdc, 0x03, 0x05, 0x00, 0x04]; // global_atomic_add_u32 v4, v3, v5, s[0:1] offset:512 glc
const ADD_V6: &[u8] = &[0x06, 0x09, 0x0c, 0x4a]; // v_add_nc_u32_e32 v6, v6, v4
const SADD: &[u8] = &[0x04, 0x81, 0x04, 0x81]; // s_add_i32 s4, s4, 1
const SCMP: &[u8] = &[0x04, 0x83, 0x0a, 0xbf]; // s_cmp_lt_u32 s4, 3
const LOOP: &[u8] = &[0xf3, 0xff, 0xa2, 0xbf]; // s_cbranch_scc1 -13
const DS_STORE: &[u8] = &[0x00, 0x00, 0x34, 0xd8, 0x03, 0x02, 0x00, 0x00]; // ds_store_b32 v3, v2
const DS_LOAD: &[u8] = &[0x04, 0x00, 0xd8, 0xd8, 0x03, 0x00, 0x00, 0x07]; // ds_load_b32 v7, v3 offset:4

fn body() -> Vec<&'static [u8]> {
    vec![
        ADD_V1, LOAD, WAIT, ADD_V2, STORE, ATOMIC, WAIT, ADD_V6, SADD, SCMP, LOOP, DS_STORE,
        DS_LOAD, WAIT,
    ]
}

fn setup(h: &mut Harness, buf: u64, exec: u64) {
    h.wave.sgpr[0] = buf as u32;
    h.wave.sgpr[1] = (buf >> 32) as u32;
    h.wave.sgpr[4] = 0;
    h.set_v(0, |l| l as u32 * 3 + 1);
    h.set_v(1, |_| 0);
    // Lanes 0..7 of every group of 8 share a dword: the atomic adds of one instruction combine.
    h.set_v(3, |l| (l as u32 / 8) * 4);
    h.set_v(5, |l| l as u32 + 1);
    h.set_v(6, |_| 0);
    h.wave.set_exec(exec);
}

#[test]
fn memory_and_atomics_run_inside_compiled_loops() {
    for wave64 in [false, true] {
        for (k, exec) in [u64::MAX, 0x0f0f_00ff_f0f0_ff00, 0].into_iter().enumerate() {
            let compiled = if k == 0 { 10 } else { 0 };
            let (r, _, mem, _) = both_with(&body(), wave64, compiled, false, &|h, buf| {
                setup(h, buf, exec)
            });
            let st = r.expect("runs");
            // 1 + 3 iterations of 10 + the tail of 3 + s_endpgm (RDNA3 ISA: every
            // instruction counts once whatever EXEC is).
            assert_eq!(st.wave_instructions, 1 + 3 * 10 + 3 + 1);
            if exec == u64::MAX && !wave64 {
                // Each atomic adds, per dword, the v5 of the 8 lanes naming it (RDNA3 ISA,
                // GLOBAL_ATOMIC_ADD_U32: MEM[addr] += DATA, once per active lane), 3 times.
                for d in 0..4usize {
                    let old = u32::from_le_bytes(
                        [0, 1, 2, 3].map(|k| ((512 + d * 4 + k) as u32 * 7 + 3) as u8),
                    );
                    let add: u32 = (d as u32 * 8..d as u32 * 8 + 8).map(|l| l + 1).sum();
                    let got = u32::from_le_bytes(mem[512 + d * 4..516 + d * 4].try_into().unwrap());
                    assert_eq!(got, old.wrapping_add(3 * add), "dword {d}");
                }
            }
        }
    }
}

#[test]
fn a_memory_fault_inside_a_compiled_block_is_the_interpreters_error() {
    // Lane 5's address leaves the buffer on the second iteration's store (v3 grows by v1).
    let insts: Vec<&[u8]> = vec![
        ADD_V1,
        LOAD,
        WAIT,
        ADD_V2,
        &[0x03, 0x03, 0x06, 0x4a], // v_add_nc_u32_e32 v3, v3, v1
        STORE,
        ATOMIC,
        WAIT,
        ADD_V6,
        SADD,
        SCMP,
        &[0xf2, 0xff, 0xa2, 0xbf], // s_cbranch_scc1 -14
    ];
    for wave64 in [false, true] {
        let (r, _, _, _) = both_with(&insts, wave64, 5, false, &|h, buf| {
            setup(h, buf, u64::MAX);
            h.set_v(0, |l| if l == 5 { 0x1000_0000 } else { 4 });
        });
        let e = r.expect_err("the store faults");
        let text = e.to_string();
        assert!(
            text.contains("memory fault") && text.contains("lane 5"),
            "{text}"
        );
    }
}

#[test]
fn an_atomic_that_faults_runs_once_and_stops_the_block() {
    // The atomic's lane 0 address is out of the buffer: the error comes from the atomic and the
    // lanes before it in the interpreter's order are all that changed (compared bit for bit).
    let insts: Vec<&[u8]> = vec![
        ADD_V1,
        ATOMIC,
        WAIT,
        ADD_V6,
        SADD,
        SCMP,
        &[0xf9, 0xff, 0xa2, 0xbf], // s_cbranch_scc1 -7 (to the atomic)
    ];
    for wave64 in [false, true] {
        let (r, _, _, _) = both_with(&insts, wave64, 3, false, &|h, buf| {
            setup(h, buf, u64::MAX);
            h.set_v(3, |l| {
                if l == 9 {
                    0x7fff_0000
                } else {
                    (l as u32 / 8) * 4
                }
            });
        });
        let text = r.expect_err("the atomic faults").to_string();
        assert!(text.contains("global_atomic_add_u32"), "{text}");
    }
}

#[test]
fn mode_changes_inside_a_block_leave_f32_code_to_the_interpreter() {
    // s_denorm_mode 0 (flush f32 denormals) ends the block; s_round_mode stays interpreted
    // too. v_add_f32 of two denormals after it must flush (RDNA3 ISA, MODE.FP_DENORM).
    let insts: Vec<&[u8]> = vec![
        &[0x00, 0x05, 0x02, 0x06], // v_add_f32_e32 v1, v0, v2
        ATOMIC,
        WAIT,
        &[0x00, 0x00, 0x92, 0xbf], // s_denorm_mode 0
        &[0x00, 0x05, 0x02, 0x06], // v_add_f32_e32 v1, v0, v2
    ];
    let (r, _, _, _) = both_with(&insts, false, 2, false, &|h, buf| {
        setup(h, buf, u64::MAX);
        h.wave.hw.mode = 0xf0;
        h.set_v(0, |_| 1);
        h.set_v(2, |_| 2);
    });
    r.expect("runs");
}

#[test]
fn scalar_loads_inside_a_block_keep_the_registers_they_do_not_touch() {
    // s_load_b64 runs compiled (its handler is the slow path) with only its footprint stored
    // (the base pair) and its destination reloaded; s4 and SCC stay in the block's registers
    // across it. The second variant's load reads past the buffer: the handler's error, and
    // everything the block held, must be the interpreter's.
    // s6 is read before the load too: a block that kept that value past the load would differ.
    const ADD_S6: &[u8] = &[0x06, 0x00, 0x02, 0x4a]; // v_add_nc_u32_e32 v1, s6, v0
    let insts: Vec<&[u8]> = vec![
        SADD,
        ADD_S6,
        &[0x80, 0x01, 0x04, 0xf4, 0x10, 0x00, 0x00, 0xf8], // s_load_b64 s[6:7], s[0:1], 0x10
        &[0x07, 0xfc, 0x89, 0xbf],                         // s_waitcnt lgkmcnt(0)
        ADD_S6,
        &[0x04, 0x00, 0x86, 0xbe], // s_mov_b32 s6, s4 (so each iteration's load changes s6)
        SCMP,
        &[0xf7, 0xff, 0xa2, 0xbf], // s_cbranch_scc1 -9 (to the s_add)
    ];
    for wave64 in [false, true] {
        let (r, _, _, _) = both_with(&insts, wave64, 4, false, &|h, buf| setup(h, buf, u64::MAX));
        let st = r.expect("runs");
        assert_eq!(st.wave_instructions, 3 * 8 + 1);
        let (r, _, _, _) = both(&insts, wave64, 0, &|h, buf| {
            setup(h, buf, u64::MAX);
            let base = buf + 4096 - 0x10 - 4;
            h.wave.sgpr[0] = base as u32;
            h.wave.sgpr[1] = (base >> 32) as u32;
        });
        let text = r.expect_err("the load faults").to_string();
        assert!(text.contains("s_load_b64"), "{text}");
    }
}

#[test]
fn loads_replace_the_rows_the_block_held() {
    // v2 and v4 are read (and v2 written) by the block before the load and the returning atomic
    // write them: the block must store its v2 first (the load keeps inactive lanes) and use
    // the loaded rows afterwards, not the values it held.
    // The same for LDS: v2 (data) is dirty at the ds_store and v7 at the ds_load.
    const ADD_V6_V4: &[u8] = ADD_V6; // v_add_nc_u32_e32 v6, v6, v4
    const ADD_V7: &[u8] = &[0x07, 0x03, 0x0e, 0x4a]; // v_add_nc_u32_e32 v7, v7, v1
    let insts: Vec<&[u8]> = vec![
        ADD_V2, ADD_V6_V4, LOAD, ATOMIC, WAIT, ADD_V2, ADD_V6_V4, STORE, WAIT, ADD_V7, DS_STORE,
        DS_LOAD, WAIT, ADD_V7,
    ];
    for wave64 in [false, true] {
        for (k, exec) in [u64::MAX, 0x0f0f_00ff_f0f0_ff00].into_iter().enumerate() {
            // Compiled once per program and wave size.
            let compiled = if k == 0 { 6 } else { 0 };
            let (r, _, _, _) = both_with(&insts, wave64, compiled, false, &|h, buf| {
                setup(h, buf, exec);
                h.set_v(1, |l| l as u32 + 100);
                h.set_v(2, |l| l as u32 * 1000);
                h.set_v(4, |l| l as u32 ^ 0x55);
            });
            r.expect("runs");
        }
        // The load faults: the block's v2, which only the load would have replaced, must still
        // reach the wave.
        let (r, _, _, _) = both(&insts, wave64, 0, &|h, buf| {
            setup(h, buf, u64::MAX);
            h.set_v(1, |l| l as u32 + 100);
            h.set_v(2, |l| l as u32 * 1000);
            h.set_v(3, |l| if l == 3 { 0x4000_0000 } else { 4 * l as u32 });
        });
        let text = r.expect_err("the load faults").to_string();
        assert!(text.contains("global_load_b32"), "{text}");
    }
}
