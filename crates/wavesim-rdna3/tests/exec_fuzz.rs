//! "Never panic, never escape": random programs built from real gfx11 encodings run on random
//! wave state, and no instruction may panic. Any `Err(ExecError)` is an acceptable outcome (an
//! invalid word, a memory fault, the watchdog); a panic is a bug.
//!
//! The instructions come from the disassembler sweep goldens (`tests/golden/sweep/*.txt`: every
//! gfx11 opcode of every format with varied operands, literals, DPP, memory ops). Each program
//! takes 20-60 of them, mutates operand/offset fields of some, mixes in pure random words, and
//! runs in wave32 or wave64 with random EXEC, SGPRs, VGPRs (addresses into a small device buffer,
//! LDS-sized offsets, huge values, buffer descriptors), MODE, alignment mode, LDS size,
//! STATUS.PRIV, an optional trap handler, few VGPRs (out-of-range VGPR rules) and a watchdog.
//! Everything is derived from the program's index, so a failure names the seed that rebuilds it.

mod common;

use std::path::PathBuf;
use wavesim_rdna3::decode::decode;
use wavesim_rdna3::dispatch::{self, Geometry, Launch, TrapHandler};
use wavesim_rdna3::exec::operand::{PRIVATE_APERTURE, SHARED_APERTURE};
use wavesim_rdna3::exec::{execute, Ctx, ExecError, Program};
use wavesim_rdna3::testing::{Harness, S_ENDPGM};
use wavesim_rdna3::trace::TextTracer;
use wavesim_rdna3::wave::{status, Wave};

use common::{catch, quiet_panics, Rng};

/// Every instruction line of the sweep goldens (`WORDS<TAB>TEXT`), as its words.
fn sweep_instructions() -> Vec<Vec<u32>> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden/sweep");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("sweep goldens")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "txt"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).expect("golden file");
        for line in text.lines() {
            let Some((words, _)) = line.split_once('\t') else {
                continue;
            };
            let ws: Option<Vec<u32>> = words
                .split(' ')
                .map(|w| u32::from_str_radix(w, 16).ok())
                .collect();
            if let Some(ws) = ws.filter(|w| !w.is_empty()) {
                out.push(ws);
            }
        }
    }
    assert!(
        out.len() > 50_000,
        "sweep goldens: {} instructions",
        out.len()
    );
    out
}

/// The sweep instructions split into (those worth running, the rest): an instruction that does
/// not decode or that wavesim refuses (`Unimplemented`, e.g. image and export ops) ends a
/// program at once, so those are kept apart and used only now and then.
/// Also returns the instructions that panicked (with the panic).
fn split_corpus(all: Vec<Vec<u32>>) -> (Corpus, Vec<String>) {
    let mut h = Harness::new(false);
    let (mut good, mut rest, mut panics) = (Vec::new(), Vec::new(), Vec::new());
    for inst in all {
        let bytes: Vec<u8> = inst.iter().flat_map(|w| w.to_le_bytes()).collect();
        let decoded = decode(&bytes, 0);
        let runs = match decoded {
            Ok(i) if !i.is_invalid() && i.len as usize == bytes.len() => {
                let mut ctx = Ctx {
                    mem: &h.mem,
                    lds: &mut h.lds,
                    alignment_mode: h.cfg.alignment_mode,
                    host: None,
                };
                match catch(|| execute(&mut h.wave, &i, &mut ctx)) {
                    Ok(r) => !matches!(r, Err(ExecError::Unimplemented { .. })),
                    Err(msg) => {
                        panics.push(format!("  {inst:08x?}: {msg}"));
                        false
                    }
                }
            }
            _ => false,
        };
        if runs {
            good.push(inst);
        } else {
            rest.push(inst);
        }
    }
    ((good, rest), panics)
}

/// Whether `inst` decodes to one valid instruction of its length.
fn decodes(inst: &[u32]) -> bool {
    let bytes: Vec<u8> = inst.iter().flat_map(|w| w.to_le_bytes()).collect();
    matches!(decode(&bytes, 0), Ok(i) if !i.is_invalid())
}

/// Operand-field values worth hitting often: SGPR/VCC/TTMP/NULL/M0/EXEC codes, inline
/// constants, literal, DPP/LDS-direct markers, the last VGPRs, all ones.
const SPECIAL: &[u32] = &[
    0, 1, 2, 3, 104, 105, 106, 107, 108, 122, 123, 124, 125, 126, 127, 128, 192, 193, 208, 240,
    247, 248, 250, 253, 254, 255, 0xe9, 0xea, 0xfa, 0xff, 256, 279, 280, 300, 510, 511,
];

/// Mutates one instruction's words: a random field of the first dword below its encoding prefix
/// (bits 0..=24; may change the opcode within the format, which is still a real encoding), or any
/// field of a later dword (VOP3 sources, memory addresses/data/offsets, literals, DPP controls).
fn mutate(rng: &mut Rng, inst: &mut [u32]) {
    for _ in 0..1 + rng.below(3) {
        let k = rng.below(inst.len() as u64) as usize;
        let (lo_max, width_max) = if k == 0 { (24, 9) } else { (31, 12) };
        let width = 1 + rng.below(width_max) as u32;
        let lo = rng.below(lo_max as u64 + 1) as u32;
        let width = width.min(32 - lo);
        let mask = if width == 32 {
            u32::MAX
        } else {
            ((1u32 << width) - 1) << lo
        };
        let v = if rng.pct(50) {
            rng.pick(SPECIAL)
        } else {
            rng.u32()
        };
        inst[k] = (inst[k] & !mask) | ((v << lo) & mask);
    }
}

/// A program of 20-60 instructions: mostly real encodings that run (60% of them mutated, the
/// mutation retried a few times to keep it decodable), now and then an invalid or refused one,
/// or a pure random word.
fn program(rng: &mut Rng, corpus: &Corpus) -> Vec<u32> {
    let n = 20 + rng.below(41);
    let mut words = Vec::new();
    for _ in 0..n {
        if rng.pct(2) {
            words.push(rng.u32());
            continue;
        }
        let from = if rng.pct(1) { &corpus.1 } else { &corpus.0 };
        let orig = &from[rng.below(from.len() as u64) as usize];
        let mut inst = orig.clone();
        if rng.pct(60) {
            for _ in 0..4 {
                inst.copy_from_slice(orig);
                mutate(rng, &mut inst);
                if decodes(&inst) {
                    break;
                }
            }
        }
        words.extend_from_slice(&inst);
    }
    words
}

/// (instructions that run, the rest), see `split_corpus`.
type Corpus = (Vec<Vec<u32>>, Vec<Vec<u32>>);

/// Byte size of the device buffer every program can reach.
const BUF: u64 = 4096;

/// A register value: addresses into the buffer (low / high halves), LDS offsets, small and huge
/// integers, float specials, random bits.
fn value(rng: &mut Rng, buf: u64) -> u32 {
    match rng.below(10) {
        0 => (buf + rng.below(BUF + 64)) as u32,
        // The high half of a buffer address, or of the FLAT LDS / private apertures (a
        // generic pointer into LDS or scratch).
        1 => rng.pick(&[
            (buf >> 32) as u32,
            (SHARED_APERTURE >> 32) as u32,
            (PRIVATE_APERTURE >> 32) as u32,
            (PRIVATE_APERTURE >> 32) as u32 + 0xffff,
        ]),
        2 => rng.below(0x1_0100) as u32,
        3 => rng.below(64) as u32,
        4 => u32::MAX - rng.below(300) as u32,
        5 => rng.pick(&[
            0x3f80_0000,
            0x7fc0_0000,
            0x7f80_0000,
            0xff80_0000,
            0x0000_0001,
            0x8000_0000,
            0x7fff_ffff,
            0x3c00_3c00,
            0x7e00_fc00,
        ]),
        _ => rng.u32(),
    }
}

/// Trap handler bodies (placed after the program; TBA points at them).
const HANDLERS: &[&[u32]] = &[
    // s_endpgm
    &[S_ENDPGM],
    // s_rfe_b64 ttmp[0:1]  (resumes at the trap's PC: an illegal word re-traps until the watchdog)
    &[0xbe80_4a6c],
    // s_add_u32 ttmp0, ttmp0, 4 ; s_addc_u32 ttmp1, ttmp1, 0 ; s_and_b32 ttmp1, ttmp1, 0xffff ;
    // s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS), 0 ; s_rfe_b64 ttmp[0:1]
    &[
        0x806c_846c,
        0x826d_806d,
        0x8b6d_ff6d,
        0x0000_ffff,
        0xb980_f803,
        0x0000_0000,
        0xbe80_4a6c,
    ],
];

/// Most instructions one program may run (loops end here with an error).
const WATCHDOG: u64 = 3000;

/// Program number `seed` and the wave, memory and settings it runs with.
fn build_case(seed: u64, corpus: &Corpus) -> (Harness, Vec<u32>) {
    let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0x5eed_f022);
    let wave64 = rng.pct(50);
    let mut h = Harness::new(wave64);
    let num_vgprs = match rng.below(4) {
        0 => 24,
        1 => 1 + rng.below(256) as u16,
        _ => 256,
    };
    h.wave = Wave::new(wave64, num_vgprs);
    let buf = h.mem.alloc(BUF, 256).expect("buffer");
    let fill: Vec<u8> = (0..BUF).map(|_| rng.next() as u8).collect();
    h.mem.write(buf, &fill).expect("fill");

    let w = &mut h.wave;
    for s in 0..106 {
        w.sgpr[s] = value(&mut rng, buf);
    }
    // 64-bit addresses in SGPR pairs and buffer descriptors (V#) in quads.
    for q in 0..26 {
        if rng.pct(40) {
            let s = 4 * q;
            w.sgpr[s] = (buf + rng.below(256)) as u32;
            w.sgpr[s + 1] = (buf >> 32) as u32 | (rng.below(4) as u32 * 4) << 16;
            if rng.pct(50) {
                w.sgpr[s + 2] = rng.pick(&[0, 16, BUF as u32, u32::MAX]);
                w.sgpr[s + 3] = rng.u32();
            }
        }
    }
    for s in 106..128 {
        w.sgpr[s] = value(&mut rng, buf);
    }
    let exec = match rng.below(5) {
        0 => 0,
        1 => 1 << rng.below(64),
        2 => rng.next(),
        _ => u64::MAX,
    };
    w.set_exec(exec);
    w.scc = rng.pct(50);
    for r in 0..num_vgprs as usize {
        let kind = rng.below(6);
        let base = value(&mut rng, buf);
        for lane in 0..64 {
            let v = match kind {
                0 => (buf + 4 * lane as u64 + rng.below(64)) as u32,
                // The high half of a buffer address, or of the FLAT LDS / private apertures (a
                // generic pointer into LDS or scratch).
                1 => rng.pick(&[
                    (buf >> 32) as u32,
                    (SHARED_APERTURE >> 32) as u32,
                    (PRIVATE_APERTURE >> 32) as u32,
                    (PRIVATE_APERTURE >> 32) as u32 + 0xffff,
                ]),
                2 => base.wrapping_add(4 * lane as u32),
                3 => base,
                _ => value(&mut rng, buf),
            };
            w.vgpr_set(r, lane, v);
        }
    }
    w.hw.mode = match rng.below(4) {
        0 => rng.u32(),
        1 => rng.u32() & 0x3ff,
        _ => 0x3f0,
    };
    if rng.pct(20) {
        w.hw.status |= status::PRIV;
    }
    if rng.pct(30) {
        w.hw.trapsts = rng.u32();
    }
    if rng.pct(20) {
        // Any STATUS bits (HALT, EXECZ, VCCZ, SCC, ...) and the other hardware registers.
        w.hw.status |= rng.u32() & !status::TRAP_EN;
        w.hw.gpr_alloc = rng.u32();
        w.hw.lds_alloc = rng.u32();
        w.hw.sh_mem_bases = rng.u32();
        w.hw.flat_scratch_lo = rng.u32();
        w.hw.flat_scratch_hi = rng.u32();
    }
    if rng.pct(30) {
        w.scratch_base = buf + 256 * rng.below(4);
        w.scratch_lane_bytes = rng.pick(&[4, 16, 64, u32::MAX]);
    }
    w.tma = if rng.pct(50) { buf } else { rng.next() };
    h.cfg.alignment_mode = rng.below(4) as u8;
    h.lds = vec![0; rng.pick(&[0usize, 1024, 65536])];

    let mut words = program(&mut rng, corpus);
    // Enough s_endpgm that a trailing literal-taking instruction still decodes.
    words.extend_from_slice(&[S_ENDPGM; 3]);
    if rng.pct(40) {
        h.wave.hw.status |= status::TRAP_EN;
        h.wave.tba = 4 * words.len() as u64;
        words.extend_from_slice(rng.pick(HANDLERS));
    } else {
        h.wave.tba = rng.next();
    }
    (h, words)
}

/// Runs program number `seed`; returns how many instructions it executed and how it ended
/// ("ok" or the error's variant). Panics propagate.
fn run_case(seed: u64, corpus: &Corpus) -> (u64, String) {
    let (mut h, words) = build_case(seed, corpus);
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let Ok(prog) = Program::new(&bytes, 0) else {
        return (0, "decode error".into());
    };
    if seed.is_multiple_of(4) {
        return run_dispatch(seed, &h, &prog);
    }
    // An error ends a real dispatch; here the wave goes on with the next instruction (the PC
    // already points there) in whatever state the error left, so one bad instruction does not
    // waste the rest of the program. The first error names the ending.
    let mut end = None;
    loop {
        let left = WATCHDOG.saturating_sub(h.wave.wave_insts);
        if left == 0 {
            break;
        }
        match h.run_program(&prog, left) {
            Ok(()) => {
                end.get_or_insert_with(|| "ok".to_string());
                break;
            }
            Err(e) => {
                if std::env::var_os("FUZZ_DEBUG").is_some() {
                    eprintln!("END {e}");
                }
                let kind = match &e {
                    ExecError::Other(m) if m.starts_with("watchdog") => "watchdog".to_string(),
                    e => {
                        let d = format!("{e:?}");
                        d.split([' ', '(', '{']).next().unwrap_or("").to_string()
                    }
                };
                end.get_or_insert(kind);
                if prog.index_at(h.wave.pc).is_none() || h.wave.ended {
                    break;
                }
            }
        }
    }
    let end = end.unwrap_or_else(|| "watchdog".to_string());
    (h.wave.wave_insts, end)
}

/// Runs `prog` as a kernel through the dispatcher (several waves and workgroups, barriers,
/// shared LDS, initial SGPR/VGPR setup from random descriptor fields, one or two host threads, a
/// trap handler, sometimes the tracer) with the memory of `h`.
fn run_dispatch(seed: u64, h: &Harness, prog: &Program) -> (u64, String) {
    let mut rng = Rng(seed ^ 0xd15b_a7c4);
    let dims = 1 + rng.below(3) as usize;
    // A few workgroups of up to four waves; partial workgroups at the grid's edge.
    let grid: Vec<u32> = (0..dims)
        .map(|d| 1 + rng.below(if d == 0 { 160 } else { 3 }) as u32)
        .collect();
    let local: Vec<u32> = (0..dims)
        .map(|d| match d {
            0 => rng.pick(&[1, 3, 32, 33, 64, 100]),
            _ => rng.pick(&[1, 2]),
        })
        .collect();
    let Ok(geo) = Geometry::new(&grid, &local) else {
        return (0, "geometry".into());
    };
    let buf = h.mem.regions()[0].base();
    let handler_words = rng.pick(HANDLERS);
    let handler_bytes: Vec<u8> = handler_words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let Ok(handler) = Program::new(&handler_bytes, 0x10_0000) else {
        return (0, "decode error".into());
    };
    let launch = Launch {
        kernel_name: "fuzz".into(),
        prog,
        entry: 0,
        pc_display_base: 0,
        wave64: h.wave.wave64,
        num_vgprs: h.wave.num_vgprs,
        mode: h.wave.hw.mode,
        code_properties: rng.next() as u16,
        rsrc2: rng.u32() & !(0x1ff << 15),
        packed_tid: rng.pct(50),
        geo,
        lds_bytes: rng.pick(&[0, 1024, 65536]),
        wgp_mode: rng.pct(50),
        // Scratch at the buffer: a grid bigger than the buffer faults past its end.
        scratch_lane_bytes: rng.pick(&[0, 0, 16, 256]),
        scratch_addr: buf,
        kernarg_addr: buf,
        dispatch_ptr: buf + 64,
        queue_ptr: buf + 128,
        dispatch_id: rng.next(),
        threads: 1 + rng.below(2) as usize,
        max_wave_insts: 2000,
        cfg: h.cfg.clone(),
        trap: rng.pct(40).then_some(TrapHandler {
            prog: &handler,
            tba: 0x10_0000,
            tma: buf,
        }),
        host: None,
    };
    let r = if rng.pct(10) {
        let mut t = TextTracer::new(std::io::sink()).with_limit(500);
        dispatch::run_observed(&launch, &h.mem, &mut t)
    } else {
        dispatch::run(&launch, &h.mem)
    };
    match r {
        Ok(st) => (st.wave_instructions, "dispatch ok".into()),
        Err(_) => (0, "dispatch error".into()),
    }
}

/// Runs programs `first..first + count`; fails listing each distinct panic (by location) with
/// the seed and words of its first program.
fn fuzz(first: u64, count: u64) {
    quiet_panics();
    let (corpus, probe_panics) = split_corpus(sweep_instructions());
    assert!(
        probe_panics.is_empty(),
        "sweep instructions that panic when run alone on a fresh wave32 wave:\n{}",
        probe_panics.join("\n")
    );
    let mut panics: Vec<(String, String, u64)> = Vec::new();
    let mut executed = 0u64;
    let mut ends: std::collections::BTreeMap<String, u64> = Default::default();
    for seed in first..first + count {
        match catch(|| run_case(seed, &corpus)) {
            Ok((n, end)) => {
                executed += n;
                *ends.entry(end).or_default() += 1;
            }
            Err(msg) => {
                let at = msg.split(": ").next().unwrap_or("").to_string();
                if !panics.iter().any(|(a, _, _)| *a == at) {
                    panics.push((at, msg, seed));
                }
            }
        }
    }
    if !panics.is_empty() {
        let mut report = format!("{} distinct panics:\n", panics.len());
        for (_, msg, seed) in &panics {
            let (h, words) = build_case(*seed, &corpus);
            let words: Vec<String> = words.iter().map(|w| format!("{w:08x}")).collect();
            report += &format!(
                "  seed {seed} (wave64 {}): {msg}\n    words: {}\n",
                h.wave.wave64,
                words.join(" ")
            );
        }
        panic!("{report}");
    }
    eprintln!("{count} programs, {executed} instructions executed; endings: {ends:?}");
    // Programs must get past their first instructions, or the fuzzing proves little.
    assert!(
        executed > 5 * count,
        "only {executed} instructions executed over {count} programs"
    );
}

#[test]
fn random_real_instructions_never_panic() {
    let n = if cfg!(debug_assertions) {
        6_000
    } else {
        30_000
    };
    fuzz(0, n);
}

#[test]
#[ignore = "long fuzz run (a few minutes in release)"]
fn random_real_instructions_never_panic_long() {
    // WAVESIM_FUZZ_PROGRAMS=N changes the count.
    let n = std::env::var("WAVESIM_FUZZ_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    fuzz(1 << 32, n);
}
