//! Differential fuzzing of the JIT tier against the interpreter: random programs of real gfx11
//! encodings (the disassembler sweep goldens, the instruction source of the execution fuzz
//! test, mostly the ALU formats the JIT compiles, mixed with memory and other instructions it
//! leaves to the interpreter, and branches) run on random wave state under `Engine::Interp` and
//! `Engine::Jit`. The complete architectural state afterwards (every SGPR, VGPR, EXEC, VCC, SCC,
//! PC, MODE/STATUS/TRAPSTS, counters, wave- and lane-instruction counts), device memory, LDS and
//! the outcome (error text) must be identical. A seed names each failing program.
//!
//! A second test does the same for flushed denormals (MODE.FP_DENORM other than "keep all",
//! rounding to nearest even: `run_asm`'s default 0x3c0 among them), with programs mostly of the
//! float instructions the JIT compiles and register values mostly denormals and tiny numbers
//! whose sums and products are denormal, under `Engine::Interp`, `Engine::Jit` and
//! `Engine::Auto`.

mod common;

use common::Rng;
use std::path::PathBuf;
use wavesim_rdna3::decode::decode;
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::jit::{compilable, compile_stats, Engine};
use wavesim_rdna3::testing::{Harness, S_ENDPGM};
use wavesim_rdna3::wave::Wave;

/// The sweep instructions of the formats that matter here, split into those the JIT compiles
/// (in a wave32 wave with 256 VGPRs, MODE with denormals kept; flushed modes compile the same
/// ones), those of them that are f32/f64 operations, and the others.
struct Pools {
    jit: Vec<Vec<u32>>,
    float: Vec<Vec<u32>>,
    other: Vec<Vec<u32>>,
}

fn instructions() -> Pools {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/sweep");
    let (mut jit, mut float, mut other) = (Vec::new(), Vec::new(), Vec::new());
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
            if compilable(&inst, 0, false, 256, 0xf0) {
                let name = inst.op.name();
                if name.contains("_f32") || name.contains("_f64") {
                    float.push(ws.clone());
                }
                jit.push(ws);
            } else {
                other.push(ws);
            }
        }
    }
    Pools { jit, float, other }
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

/// Register values for flushed-mode programs: f32 denormals, tiny f32 normals (exponents near
/// the bottom, and around 2^-64, whose products are denormal), high words of f64 denormals and
/// tiny f64 normals, and the usual edge values.
fn tiny(rng: &mut Rng) -> u32 {
    let sign = rng.u32() & 0x8000_0000;
    let mant = rng.u32() & 0x007f_ffff;
    match rng.below(10) {
        0 | 1 => sign | mant,
        2 => sign | (1 + rng.below(24) as u32) << 23 | mant,
        3 => sign | (0x30 + rng.below(0x20) as u32) << 23 | mant,
        4 => sign | 0x0080_0000 | rng.below(4) as u32,
        5 => sign | rng.u32() & 0x000f_ffff,
        6 => sign | (1 + rng.below(0x300) as u32) << 20 | rng.u32() & 0x000f_ffff,
        _ => value(rng),
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

fn program(rng: &mut Rng, p: &Pools, flushed: bool) -> Vec<u32> {
    let n = 10 + rng.below(40);
    let mut words = Vec::new();
    // Flushed-mode programs: mostly float instructions.
    let float = if flushed { 60 } else { 0 };
    let pick =
        |rng: &mut Rng, pool: &[Vec<u32>]| pool[rng.below(pool.len() as u64) as usize].clone();
    for _ in 0..n {
        match rng.below(100) {
            k if k < float => words.extend(pick(rng, &p.float)),
            0..=79 => words.extend(pick(rng, &p.jit)),
            80..=89 => words.push(branch(rng)),
            _ => words.extend(pick(rng, &p.other)),
        }
    }
    words.extend_from_slice(&[S_ENDPGM; 3]);
    words
}

fn case(seed: u64, p: &Pools, flushed: bool) -> (Harness, Program) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x0017_0017);
    let value = if flushed { tiny } else { value };
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
    w.hw.mode = if flushed {
        // Round to nearest even (what the JIT compiles) with every FP_DENORM setting but
        // "keep all" (f32 in [5:4], f64/f16 in [7:6]; bit 0 of each keeps input denormals,
        // bit 1 output ones), DX10_CLAMP and IEEE either way; mostly run_asm's 0x3c0.
        let denorm = if rng.pct(30) {
            0xc
        } else {
            rng.below(15) as u32
        };
        denorm << 4 | (rng.below(4) as u32) << 8
    } else {
        // Mostly a MODE with denormals kept, sometimes the kernel-descriptor default (f32
        // denormals flushed) or anything.
        match rng.below(6) {
            0 => rng.u32(),
            1 => 0x3c0,
            _ => rng.pick(&[0xf0, 0x3f0, 0x1f0, 0x2f0]),
        }
    };
    let words = program(&mut rng, p, flushed);
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

fn differential(first: u64, count: u64, flushed: bool) {
    // Cranelift's IR verifier on for everything compiled here.
    wavesim_rdna3::jit::verify_ir(true);
    // The unflushed programs run the quick tier's code, the flushed ones the optimising
    // tier's (`jit::optimise_at_once`; each test runs on its own thread).
    wavesim_rdna3::jit::optimise_at_once(flushed);
    let p = instructions();
    assert!(
        p.jit.len() > 1000,
        "{} sweep instructions compile",
        p.jit.len()
    );
    assert!(
        p.float.len() > 100,
        "{} float instructions compile",
        p.float.len()
    );
    let engines: &[Engine] = if flushed {
        &[Engine::Jit, Engine::Auto]
    } else {
        &[Engine::Jit]
    };
    let before = compile_stats();
    for seed in first..first + count {
        let (h, prog) = case(seed, &p, flushed);
        let (want, want_mem, want_lds) = run(h, &prog, Engine::Interp);
        for &engine in engines {
            let (h2, _) = case(seed, &p, flushed);
            let (got, got_mem, got_lds) = run(h2, &prog, engine);
            compare(
                seed,
                engine,
                (&want, &want_mem, &want_lds),
                (&got, &got_mem, &got_lds),
            );
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

type State<'a> = (&'a String, &'a Vec<u8>, &'a Vec<u8>);

/// Panics with the first difference between the interpreter's state and `engine`'s.
fn compare(seed: u64, engine: Engine, want: State, got: State) {
    let ((want, want_mem, want_lds), (got, got_mem, got_lds)) = (want, got);
    assert!(
        want_mem == got_mem,
        "seed {seed}: device memory differs under {engine}"
    );
    assert!(
        want_lds == got_lds,
        "seed {seed}: LDS differs under {engine}"
    );
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
        panic!("seed {seed}: the state under {engine} differs from the interpreter's:\n{line}");
    }
}

/// Runs `case()` under the interpreter and under the JIT and compares the complete state
/// (`label` names the case in the message).
fn same_under_jit(label: u64, case: impl Fn() -> Harness, prog: &Program) {
    let (want, want_mem, want_lds) = run(case(), prog, Engine::Interp);
    let (got, got_mem, got_lds) = run(case(), prog, Engine::Jit);
    compare(
        label,
        Engine::Jit,
        (&want, &want_mem, &want_lds),
        (&got, &got_mem, &got_lds),
    );
}

#[test]
fn jit_matches_interpreter_on_random_programs() {
    let n = if cfg!(debug_assertions) { 400 } else { 4000 };
    differential(0, n, false);
}

#[test]
fn jit_matches_interpreter_with_flushed_denormals() {
    let n = if cfg!(debug_assertions) { 200 } else { 2000 };
    differential(1 << 40, n, true);
}

/// A float format of the chain programs' values: exponent and mantissa widths.
#[derive(Clone, Copy)]
struct Fmt {
    exp: u32,
    man: u32,
}

const F32: Fmt = Fmt { exp: 8, man: 23 };
const F64: Fmt = Fmt { exp: 11, man: 52 };

/// Values for float chains in format `f` (its bits): denormals of both signs, tiny normals,
/// normals near the square root of the smallest normal (their products round into or out of
/// the denormal range), zeros, NaNs (quiet and signalling, both signs), infinities, large
/// numbers (times a denormal, a normal: whether the denormal was flushed shows) and ordinary
/// ones. The f32 and f64 chains draw from the same cases.
fn chain_float(rng: &mut Rng, f: Fmt) -> u64 {
    let bias = (1u64 << (f.exp - 1)) - 1;
    let inf = ((1u64 << f.exp) - 1) << f.man;
    let sign = (rng.next() & 1) << (f.exp + f.man);
    let man = rng.next() & ((1u64 << f.man) - 1);
    let exp = |e: u64| e << f.man;
    match rng.below(8) {
        0 | 1 => sign | man,
        2 => sign | exp(1 + rng.below(3)) | man,
        3 => sign | exp(bias / 2 - 16 + rng.below(32)) | man,
        4 => {
            let quiet = 1u64 << (f.man - 1);
            rng.pick(&[
                0,
                1 << (f.exp + f.man),
                inf | quiet,
                inf | 1,
                1 << (f.exp + f.man) | inf | quiet >> 1,
                inf,
                1 << (f.exp + f.man) | inf,
            ])
        }
        5 => sign | exp(2 * bias - 45 + rng.below(46)) | man,
        _ => sign | exp(bias - 7 + rng.below(16)) | man,
    }
}

fn chain_value(rng: &mut Rng) -> u32 {
    chain_float(rng, F32) as u32
}

/// A source operand of a chain instruction: mostly v0-v7, sometimes s0-s7, an inline
/// constant or (`lit`) the literal.
fn chain_src(rng: &mut Rng, lit: bool) -> u32 {
    match rng.below(10) {
        0 => rng.below(8) as u32,
        1 => rng.pick(&[128, 240, 242, 243]),
        2 if lit => 255,
        _ => 256 + rng.below(8) as u32,
    }
}

/// A program of dependent f32 operations on v0-v7 (VOP2, FMA, VOPD, compares writing VCC or
/// EXEC, conversions from integers) with EXEC changed between them: what elides the flushing
/// of inputs known to hold no denormal must keep every value exact, among others in lanes a
/// new EXEC turns on whose old values are denormal.
fn chain_program(rng: &mut Rng, wave64: bool) -> Vec<u32> {
    let mut words = Vec::new();
    for _ in 0..8 + rng.below(24) {
        let d = rng.below(8) as u32;
        let literal = if rng.pct(50) {
            chain_value(rng)
        } else {
            rng.pick(&[0x0000_0003, 0x8000_0100, 0x3f80_0000, 0x0080_0000])
        };
        match rng.below(13) {
            // VOP2: v_add/sub/subrev/mul/min/max/fmac_f32, src0 possibly a literal.
            0..=3 => {
                let op = rng.pick(&[0x03, 0x04, 0x05, 0x08, 0x0f, 0x10, 0x2b]);
                let s0 = chain_src(rng, true);
                words.push(op << 25 | d << 17 | (rng.below(8) as u32) << 9 | s0);
                if s0 == 255 {
                    words.push(literal);
                }
            }
            // v_fmamk_f32 / v_fmaak_f32 with their literal.
            4 => {
                let op = rng.pick(&[0x2c, 0x2d]);
                let s0 = chain_src(rng, false);
                words.push(op << 25 | d << 17 | (rng.below(8) as u32) << 9 | s0);
                words.push(literal);
            }
            // VOP3 v_fma_f32.
            5 => {
                words.push(0x35 << 26 | 0x213 << 16 | d);
                let (a, b, c) = (
                    chain_src(rng, false),
                    chain_src(rng, false),
                    chain_src(rng, false),
                );
                words.push(a | b << 9 | c << 18);
            }
            // VOPD (wave32 only): fmac, fmaak, fmamk, mul, add, sub, subrev, mov, max, min.
            6 | 7 if !wave64 => {
                let ops = [0, 1, 2, 3, 4, 5, 6, 8, 10, 11];
                let (x, y) = (rng.pick(&ops), rng.pick(&ops));
                let dx = rng.below(8) as u32;
                let dy = (rng.below(4) as u32) << 1 | (dx & 1) ^ 1;
                let (s0x, s0y) = (chain_src(rng, true), chain_src(rng, true));
                let (v1x, v1y) = (rng.below(8) as u32, rng.below(8) as u32);
                let v1x = if x == 8 { 0 } else { v1x };
                let v1y = if y == 8 { 0 } else { v1y };
                words.push(0x32 << 26 | x << 22 | y << 17 | v1x << 9 | s0x);
                words.push(dx << 24 | (dy >> 1) << 17 | v1y << 9 | s0y);
                if [1, 2].contains(&x) || [1, 2].contains(&y) || s0x == 255 || s0y == 255 {
                    words.push(literal);
                }
            }
            // v_cmp_lt_f32 (VCC) or v_cmpx_lt_f32 / v_cmpx_nlt_f32 (EXEC).
            8 | 12 => {
                let op = rng.pick(&[0x11, 0x91, 0x9e]);
                let s0 = chain_src(rng, false);
                words.push(0x3e << 25 | op << 17 | (rng.below(8) as u32) << 9 | s0);
            }
            // v_cvt_f32_u32 from s8-s15 (small integers).
            9 => words.push(0x3f << 25 | d << 17 | 0x06 << 9 | (8 + rng.below(8) as u32)),
            // EXEC from s100-s103 (s_mov_b32 exec_lo / s_mov_b64 exec).
            _ => {
                let src = (100 + rng.below(4) as u32) & !(wave64 as u32);
                let (op, dst) = if wave64 { (0x01, 126) } else { (0x00, 126) };
                words.push(0xbe80_0000 | dst << 16 | op << 8 | src);
            }
        }
    }
    words.extend_from_slice(&[S_ENDPGM; 3]);
    words
}

/// EXEC (mostly full) and s100-s103, the values the chain programs move into EXEC (a third of
/// them full).
fn exec_sources(w: &mut Wave, rng: &mut Rng) {
    for s in 100..104 {
        w.sgpr[s] = match rng.below(3) {
            0 => u32::MAX,
            _ => rng.u32(),
        };
    }
    w.set_exec(if rng.pct(60) { u64::MAX } else { rng.next() });
}

/// Runs programs `0..n` of `case` under the interpreter and each of `engines` (the optimising
/// tier at once for even seeds, the quick one for odd) and compares the complete state; at
/// least ten instructions a program must have been compiled.
fn chains_match(n: u64, case: fn(u64) -> (Harness, Program), engines: &[Engine]) {
    wavesim_rdna3::jit::verify_ir(true);
    let before = compile_stats();
    for seed in 0..n {
        wavesim_rdna3::jit::optimise_at_once(seed % 2 == 0);
        let (h, prog) = case(seed);
        let (want, want_mem, want_lds) = run(h, &prog, Engine::Interp);
        for &engine in engines {
            let (h2, _) = case(seed);
            let (got, got_mem, got_lds) = run(h2, &prog, engine);
            compare(
                seed,
                engine,
                (&want, &want_mem, &want_lds),
                (&got, &got_mem, &got_lds),
            );
        }
    }
    wavesim_rdna3::jit::optimise_at_once(false);
    let after = compile_stats();
    assert!(
        after.instructions - before.instructions > 10 * n,
        "only {} instructions compiled over {n} programs",
        after.instructions - before.instructions
    );
}

fn chain_case(seed: u64) -> (Harness, Program) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x0022_0022);
    let wave64 = rng.pct(30);
    let mut h = Harness::new(wave64);
    h.wave = Wave::new(wave64, 16);
    // (`run` compares device memory: one small buffer, which no chain instruction touches.)
    h.mem.alloc(256, 256).expect("buffer");
    let w = &mut h.wave;
    for s in 0..8 {
        w.sgpr[s] = chain_value(&mut rng);
    }
    for s in 8..16 {
        w.sgpr[s] = rng.below(300) as u32;
    }
    exec_sources(w, &mut rng);
    for r in 0..16 {
        for lane in 0..64 {
            w.vgpr_set(r, lane, chain_value(&mut rng));
        }
    }
    // Round to nearest even, every FP_DENORM setting (f32 in [5:4], f64/f16 in [7:6]), mostly
    // f32 flushed (run_asm's 0x3c0 among them), DX10_CLAMP and IEEE either way.
    let denorm = if rng.pct(70) {
        rng.pick(&[0x0, 0xc, 0x4, 0x8])
    } else {
        rng.below(16) as u32
    };
    w.hw.mode = denorm << 4 | (rng.below(4) as u32) << 8;
    let words = chain_program(&mut rng, wave64);
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let prog = Program::new(&bytes, 0).expect("the program decodes (it ends in s_endpgm)");
    (h, prog)
}

/// A flushed result written under one EXEC, read under a wider one: the lanes the first EXEC
/// left out still hold denormals, which the compare must see flushed (0 < denormal is false
/// with f32 denormals flushed, true without). Quick-tier code: the optimising tier's blocks
/// with a full-EXEC variant start over from the register file where EXEC changes.
#[test]
fn jit_flushes_lanes_a_wider_exec_turns_on() {
    wavesim_rdna3::jit::verify_ir(true);
    wavesim_rdna3::jit::optimise_at_once(false);
    let words = [
        0xbefe_0064u32,                         // s_mov_b32 exec_lo, s100
        0x08 << 25 | 1 << 17 | 3 << 9 | 258,    // v_mul_f32 v1, v2, v3
        0xbefe_0065,                            // s_mov_b32 exec_lo, s101
        0x3e << 25 | 0x11 << 17 | 1 << 9 | 128, // v_cmp_lt_f32 vcc_lo, 0, v1
        0x03 << 25 | 4 << 17 | 1 << 9 | 257,    // v_add_f32 v4, v1, v1
        S_ENDPGM,
    ];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let prog = Program::new(&bytes, 0).expect("the program decodes");
    for (exec, mode) in [(u64::MAX, 0x300), (0xffff_ff0f, 0x0), (0x0f0f_0f0f, 0x200)] {
        let case = || {
            let mut h = Harness::new(false);
            h.wave = Wave::new(false, 8);
            h.mem.alloc(256, 256).expect("buffer");
            let w = &mut h.wave;
            w.sgpr[100] = 0x0000_ffff;
            w.sgpr[101] = u32::MAX;
            w.set_exec(exec);
            for lane in 0..32 {
                w.vgpr_set(1, lane, 0x0000_0100 + lane as u32);
                w.vgpr_set(2, lane, 0x3f80_0000);
                w.vgpr_set(3, lane, 0x4000_0000);
            }
            w.hw.mode = mode;
            h
        };
        same_under_jit(exec, case, &prog);
    }
}

#[test]
fn jit_matches_interpreter_on_flushed_float_chains() {
    let n = if cfg!(debug_assertions) { 200 } else { 1000 };
    // Both tiers' code (each program is compiled once, by the tier asked for).
    chains_match(n, chain_case, &[Engine::Jit, Engine::Auto]);
}

/// A program of f64 operations (VOP3 v_add/mul/fma/min/max_f64, v_ldexp_f64 by an inline
/// constant, abs/neg modifiers) on overlapping and unaligned VGPR pairs of v0-v15, with
/// s_nop / s_delay_alu between them (runs of f64 nodes are compiled chunk by chunk, their
/// results kept as pairs of f64 lanes) and EXEC changed from SGPRs now and then.
fn chain64_program(rng: &mut Rng, wave64: bool) -> Vec<u32> {
    let mut words = Vec::new();
    let src = |rng: &mut Rng| match rng.below(10) {
        0 => rng.below(4) as u32 * 2,
        1 => rng.pick(&[128, 240, 242, 243]),
        _ => 256 + rng.below(15) as u32,
    };
    for _ in 0..8 + rng.below(40) {
        let d = rng.below(15) as u32;
        let abs = if rng.pct(20) { rng.below(8) as u32 } else { 0 };
        let neg = if rng.pct(20) { rng.below(8) as u32 } else { 0 };
        match rng.below(14) {
            0..=9 => {
                let op = rng.pick(&[0x327, 0x328, 0x214, 0x214, 0x329, 0x32a]);
                words.push(0x35 << 26 | op << 16 | abs << 8 | d);
                words.push(src(rng) | src(rng) << 9 | src(rng) << 18 | neg << 29);
            }
            // v_ldexp_f64 by -16..64 (the modifiers of source 0 only).
            10 => {
                let n = rng.pick(&[129, 130, 160, 192, 193, 196, 208]);
                words.push(0x35 << 26 | 0x32b << 16 | (abs & 1) << 8 | d);
                words.push(src(rng) | n << 9 | (neg & 1) << 29);
            }
            // s_nop 0 / s_delay_alu.
            11 => words.push(rng.pick(&[0xbf80_0000, 0xbf87_0091, 0xbf87_0112])),
            12 if rng.pct(50) => {
                let src = (100 + rng.below(4) as u32) & !(wave64 as u32);
                let op = if wave64 { 0x01 } else { 0x00 };
                words.push(0xbe80_0000 | 126 << 16 | op << 8 | src);
            }
            _ => words.push(0xbf87_0001),
        }
    }
    words.extend_from_slice(&[S_ENDPGM; 3]);
    words
}

fn chain64_case(seed: u64) -> (Harness, Program) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x0023_0064);
    let wave64 = rng.pct(30);
    let mut h = Harness::new(wave64);
    h.wave = Wave::new(wave64, 16);
    h.mem.alloc(256, 256).expect("buffer");
    let w = &mut h.wave;
    for s in (0..8).step_by(2) {
        let v = chain_float(&mut rng, F64);
        (w.sgpr[s], w.sgpr[s + 1]) = (v as u32, (v >> 32) as u32);
    }
    exec_sources(w, &mut rng);
    // (Aligned pairs; the programs also read unaligned ones, v[3:4].)
    for r in (0..16).step_by(2) {
        for lane in 0..64 {
            let v = chain_float(&mut rng, F64);
            w.vgpr_set(r, lane, v as u32);
            w.vgpr_set(r + 1, lane, (v >> 32) as u32);
        }
    }
    // Round to nearest even, every FP_DENORM setting, DX10_CLAMP and IEEE either way.
    w.hw.mode = (rng.below(16) as u32) << 4 | (rng.below(4) as u32) << 8;
    let words = chain64_program(&mut rng, wave64);
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let prog = Program::new(&bytes, 0).expect("the program decodes (it ends in s_endpgm)");
    (h, prog)
}

#[test]
fn jit_matches_interpreter_on_f64_chains() {
    let n = if cfg!(debug_assertions) { 100 } else { 600 };
    chains_match(n, chain64_case, &[Engine::Jit]);
}

#[test]
#[ignore = "long differential fuzz run"]
fn jit_matches_interpreter_on_random_programs_long() {
    let n = std::env::var("WAVESIM_FUZZ_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    differential(1 << 32, n, false);
    differential(1 << 41, n, true);
}

/// A run of f64 instructions (compiled chunk by chunk, the host's results taken without the
/// NaN rule and the chunk computed again with it when a result it writes is NaN) on NaN
/// sources in every position and combination (signalling and quiet, both signs, distinct
/// payloads): each result is the first NaN source quieted, else the exact result (the
/// interpreter's `soft::NanPolicy::RDNA3`, after the RDNA3 ISA guide's pseudocode), in both
/// tiers, under full and partial EXEC; NaN intermediates read again, one dropped by
/// v_max_f64.
#[test]
fn jit_f64_runs_give_the_isa_nan() {
    wavesim_rdna3::jit::verify_ir(true);
    const QUIET: u64 = 0x0008_0000_0000_0000;
    let nan = [
        0x7ff0_0000_0000_0a0au64,
        0xfff8_0000_0000_0b0b,
        0x7ff4_0000_0000_0c0c,
    ];
    let normal = [2.0f64, 3.0, 0.5];
    // Lane l: source k NaN if bit k of l is set (lanes 8-31 repeat the pattern).
    let val = |k: usize, l: usize| {
        if l >> k & 1 != 0 {
            nan[k]
        } else {
            normal[k].to_bits()
        }
    };
    let vop3 =
        |op: u32, d: u32, a: u32, b: u32, c: u32| [0x35 << 26 | op << 16 | d, a | b << 9 | c << 18];
    let (fma, add, mul, max) = (0x214, 0x327, 0x328, 0x32a);
    let v = |r: u32| 256 + r;
    let mut words = Vec::new();
    for w in [
        vop3(fma, 6, v(0), v(2), v(4)),
        vop3(fma, 8, v(4), v(0), v(2)),
        vop3(fma, 10, v(2), v(4), v(0)),
        vop3(add, 12, v(4), v(2), 0),
        vop3(mul, 14, v(2), v(0), 0),
        vop3(max, 16, v(6), v(4), 0),
        vop3(add, 18, v(8), v(10), 0),
    ] {
        words.extend_from_slice(&w);
    }
    words.push(S_ENDPGM);
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let prog = Program::new(&bytes, 0).expect("the program decodes");
    // The ISA's result of an op on sources `s` (in operand order) whose exact value is `r`.
    let rule = |s: &[u64], r: f64| {
        s.iter()
            .find(|&&x| f64::from_bits(x).is_nan())
            .map_or(r.to_bits(), |&x| x | QUIET)
    };
    for (optimised, exec) in [(true, u64::MAX), (false, u64::MAX), (true, 0x5a5a_f0f0)] {
        wavesim_rdna3::jit::optimise_at_once(optimised);
        let case = || {
            let mut h = Harness::new(false);
            h.mem.alloc(256, 256).expect("buffer");
            for k in 0..3 {
                h.set_v(2 * k, |l| val(k, l) as u32);
                h.set_v(2 * k + 1, |l| (val(k, l) >> 32) as u32);
            }
            h.wave.set_exec(exec);
            h.wave.hw.mode = 0xf0;
            h
        };
        let mut h = case();
        h.cfg.engine = Engine::Jit;
        h.run_program(&prog, 100).expect("the program runs");
        for l in 0..32 {
            let [a, b, c] = [0, 1, 2].map(|k| val(k, l));
            let [fa, fb, fc] = [a, b, c].map(f64::from_bits);
            let pair = |r: usize| u64::from(h.v(r, l)) | u64::from(h.v(r + 1, l)) << 32;
            let want = [
                (6, rule(&[a, b, c], fa.mul_add(fb, fc))),
                (8, rule(&[c, a, b], fc.mul_add(fa, fb))),
                (10, rule(&[b, c, a], fb.mul_add(fc, fa))),
                (12, rule(&[c, b], fc + fb)),
                (14, rule(&[b, a], fb * fa)),
            ];
            for (r, want) in want {
                let want = if exec >> l & 1 != 0 { want } else { 0 };
                assert_eq!(
                    pair(r),
                    want,
                    "v[{r}:{}] lane {l}, optimised {optimised}, exec {exec:#x}",
                    r + 1
                );
            }
        }
        same_under_jit(exec, case, &prog);
    }
    wavesim_rdna3::jit::optimise_at_once(false);
}
