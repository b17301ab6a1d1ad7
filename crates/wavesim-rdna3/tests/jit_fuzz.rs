//! Differential fuzzing of the JIT tier against the interpreter: random programs of real gfx11
//! encodings (the disassembler sweep goldens, the instruction source of the execution fuzz
//! test, mostly the ALU formats the JIT compiles, mixed with memory and other instructions it
//! leaves to the interpreter, and branches) run on random wave state under `Engine::Interp` and
//! `Engine::Jit`. The complete architectural state afterwards (every SGPR, VGPR, EXEC, VCC, SCC,
//! PC, MODE/STATUS/TRAPSTS, counters, wave- and lane-instruction counts), device memory, LDS and
//! the outcome (error text) must be identical. A seed names each failing program.

mod common;

use common::Rng;
use std::path::PathBuf;
use wavesim_rdna3::decode::decode;
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::jit::{compilable, compile_stats, Engine};
use wavesim_rdna3::testing::{Harness, S_ENDPGM};
use wavesim_rdna3::wave::Wave;

/// The sweep instructions of the formats that matter here, split into those the JIT compiles
/// (in a wave32 wave with 256 VGPRs) and the others.
fn instructions() -> (Vec<Vec<u32>>, Vec<Vec<u32>>) {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/sweep");
    let (mut jit, mut other) = (Vec::new(), Vec::new());
    for f in [
        "SOP1", "SOP2", "SOPC", "SOPK", "SOPP", "VOP1", "VOP2", "VOP3", "VOPC", "VOPD", "SMEM",
        "FLAT", "DS",
    ] {
        let Ok(text) = std::fs::read_to_string(dir.join(format!("{f}.txt"))) else {
            continue;
        };
        for line in text.lines() {
            let Some((words, _)) = line.split_once('\t') else {
                continue;
            };
            let ws: Option<Vec<u32>> = words
                .split(' ')
                .map(|w| u32::from_str_radix(w, 16).ok())
                .collect();
            let Some(ws) = ws.filter(|w| !w.is_empty()) else {
                continue;
            };
            let bytes: Vec<u8> = ws.iter().flat_map(|w| w.to_le_bytes()).collect();
            let Ok(inst) = decode(&bytes, 0) else {
                continue;
            };
            if compilable(&inst, 0, false, 256) {
                jit.push(ws);
            } else {
                other.push(ws);
            }
        }
    }
    (jit, other)
}

/// Register values that find edge cases: zero, signs, carries, NaNs, denormals, infinities.
fn value(rng: &mut Rng) -> u32 {
    match rng.below(10) {
        0 => rng.pick(&[0, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff, 31, 32, 33]),
        1 => rng.pick(&[
            0x7fc0_0000,
            0x7f80_0001,
            0xffc0_1234,
            0x7f80_0000,
            0xff80_0000,
            0x0000_0001,
            0x8040_0000,
            0x3f80_0000,
        ]),
        2 => rng.below(64) as u32,
        3 => rng.u32() & 0xff,
        _ => rng.u32(),
    }
}

/// A branch with a small offset (forward or back; targets may fall inside an instruction).
fn branch(rng: &mut Rng) -> u32 {
    // SOPP: s_branch 0x20, s_cbranch_scc0 0x21, scc1 0x22, vccz 0x23, vccnz 0x24, execz 0x25,
    // execnz 0x26 (RDNA3 ISA, SOPP opcodes).
    let op = 0x20 + rng.below(7) as u32;
    let off = (rng.below(13) as i32 - 4) as u16 as u32;
    0xbf80_0000 | op << 16 | off
}

fn program(rng: &mut Rng, jit: &[Vec<u32>], other: &[Vec<u32>]) -> Vec<u32> {
    let n = 10 + rng.below(40);
    let mut words = Vec::new();
    for _ in 0..n {
        match rng.below(100) {
            0..=79 => words.extend_from_slice(&jit[rng.below(jit.len() as u64) as usize]),
            80..=89 => words.push(branch(rng)),
            _ => words.extend_from_slice(&other[rng.below(other.len() as u64) as usize]),
        }
    }
    words.extend_from_slice(&[S_ENDPGM; 3]);
    words
}

fn case(seed: u64, jit: &[Vec<u32>], other: &[Vec<u32>]) -> (Harness, Program) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x0017_0017);
    let wave64 = rng.pct(50);
    let mut h = Harness::new(wave64);
    let num_vgprs = if rng.pct(25) {
        1 + rng.below(256) as u16
    } else {
        256
    };
    h.wave = Wave::new(wave64, num_vgprs);
    let buf = h.mem.alloc(4096, 256).expect("buffer");
    let fill: Vec<u8> = (0..4096).map(|_| rng.next() as u8).collect();
    h.mem.write(buf, &fill).expect("fill");
    let w = &mut h.wave;
    for s in 0..128 {
        w.sgpr[s] = value(&mut rng);
    }
    // Some SGPR pairs hold the buffer's address (scalar and flat loads that work).
    for q in 0..8 {
        if rng.pct(50) {
            w.sgpr[2 * q] = (buf + rng.below(64) * 4) as u32;
            w.sgpr[2 * q + 1] = (buf >> 32) as u32;
        }
    }
    w.set_exec(match rng.below(4) {
        0 => 0,
        1 => rng.next(),
        _ => u64::MAX,
    });
    w.scc = rng.pct(50);
    for r in 0..num_vgprs as usize {
        for lane in 0..64 {
            w.vgpr_set(r, lane, value(&mut rng));
        }
    }
    // Mostly a MODE the f32 code compiles for (round to nearest, denormals kept), sometimes
    // the kernel-descriptor default (f32 denormals flushed) or anything.
    w.hw.mode = match rng.below(6) {
        0 => rng.u32(),
        1 => 0x3c0,
        _ => rng.pick(&[0xf0, 0x3f0, 0x1f0, 0x2f0]),
    };
    let words = program(&mut rng, jit, other);
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let prog = Program::new(&bytes, 0).expect("the program decodes (it ends in s_endpgm)");
    (h, prog)
}

/// Everything a program can change, as text (the wave's whole state, memory, LDS, outcome).
fn run(mut h: Harness, prog: &Program, engine: Engine) -> (String, Vec<u8>, Vec<u8>) {
    h.cfg.engine = engine;
    h.wave.pc = 0;
    let r = h.run_program(prog, 2000);
    let region = &h.mem.regions()[0];
    let mut mem = vec![0u8; region.len() as usize];
    h.mem.read(region.base(), &mut mem).expect("buffer reads");
    (format!("outcome {r:?}\nwave {:?}", h.wave), mem, h.lds)
}

fn differential(first: u64, count: u64) {
    // Cranelift's IR verifier on for everything compiled here.
    wavesim_rdna3::jit::verify_ir(true);
    let (jit, other) = instructions();
    assert!(jit.len() > 1000, "{} sweep instructions compile", jit.len());
    let before = compile_stats();
    for seed in first..first + count {
        let (h, prog) = case(seed, &jit, &other);
        let (h2, _) = case(seed, &jit, &other);
        let (want, want_mem, want_lds) = run(h, &prog, Engine::Interp);
        let (got, got_mem, got_lds) = run(h2, &prog, Engine::Jit);
        assert!(want_mem == got_mem, "seed {seed}: device memory differs");
        assert!(want_lds == got_lds, "seed {seed}: LDS differs");
        if want != got {
            let line = want
                .lines()
                .zip(got.lines())
                .find(|(a, b)| a != b)
                .map(|(a, b)| {
                    let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
                    let from = at.saturating_sub(120);
                    format!(
                        "interp ...{}\njit    ...{}",
                        &a[from..(at + 80).min(a.len())],
                        &b[from..(at + 80).min(b.len())]
                    )
                })
                .unwrap_or_default();
            panic!("seed {seed}: the JIT's state differs from the interpreter's:\n{line}");
        }
    }
    let after = compile_stats();
    // The programs must actually exercise compiled code.
    assert!(
        after.instructions - before.instructions > 5 * count,
        "only {} instructions compiled over {count} programs",
        after.instructions - before.instructions
    );
}

#[test]
fn jit_matches_interpreter_on_random_programs() {
    let n = if cfg!(debug_assertions) { 400 } else { 4000 };
    differential(0, n);
}

#[test]
#[ignore = "long differential fuzz run"]
fn jit_matches_interpreter_on_random_programs_long() {
    let n = std::env::var("WAVESIM_FUZZ_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    differential(1 << 32, n);
}
