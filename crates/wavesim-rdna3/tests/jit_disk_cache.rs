//! The JIT's on-disk code cache (`jit::disk`): a process compiling with the cache writes one
//! file per block; a fresh process (this test binary run again as a child, its `child_run`
//! test) loads them instead of compiling and gets results bit-identical to the interpreter,
//! including callbacks into interpreter handlers from loaded code (their address differs from
//! process to process). Two processes compile byte-identical files (code holding an address of
//! its process would not be); a valid file's code is what runs; damaged, truncated and foreign
//! files are rejected and replaced; a directory that cannot be written only costs the compile.
//!
//! Words are hand-encoded gfx11 (RDNA3 ISA guide, VOP1/VOP2/VOP3/SOPP formats), the memory
//! ones taken from `jit_callbacks.rs` (llvm-mc-19 output); assembly beside each.

use std::path::{Path, PathBuf};
use std::process::Command;
use wavesim_rdna3::dispatch::run_wave_alone;
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::jit::{compile_stats, forget_compiled_code, set_disk_cache, Engine, CACHE_ENV};
use wavesim_rdna3::testing::{Harness, S_ENDPGM};

/// A prologue, a loop of memory (callbacks), integer, f32 and f64 work, and a tail: three
/// blocks per wave size.
fn program() -> Program {
    let insts: [&[u8]; 17] = [
        &[0x06, 0x09, 0x0c, 0x4a], // v_add_nc_u32_e32 v6, v6, v4
        // The loop:
        &[0x01, 0x01, 0x02, 0x4a], // v_add_nc_u32_e32 v1, v1, v0
        &[0x00, 0x00, 0x52, 0xdc, 0x03, 0x00, 0x00, 0x02], // global_load_b32 v2, v3, s[0:1]
        &[0xf7, 0x03, 0x89, 0xbf], // s_waitcnt vmcnt(0)
        &[0x02, 0x03, 0x04, 0x4a], // v_add_nc_u32_e32 v2, v2, v1
        &[0x02, 0x0d, 0x10, 0x7e], // v_cvt_f32_u32_e32 v8, v2
        &[0x08, 0x11, 0x12, 0x10], // v_mul_f32_e32 v9, v8, v8
        &[0x0a, 0x00, 0x13, 0xd6, 0x08, 0x13, 0x2a, 0x04], // v_fma_f32 v10, v8, v9, v10
        &[0x09, 0x21, 0x18, 0x7e], // v_cvt_f64_f32_e32 v[12:13], v9
        &[0x0e, 0x00, 0x14, 0xd6, 0x0c, 0xe1, 0x39, 0x04], // v_fma_f64 v[14:15], v[12:13], 0.5, v[14:15]
        &[0x08, 0x15, 0x16, 0x20],                         // v_max_f32_e32 v11, v8, v10
        &[0x00, 0x01, 0x6a, 0xdc, 0x03, 0x02, 0x00, 0x00], // global_store_b32 v3, v2, s[0:1] offset:256
        &[0x04, 0x81, 0x04, 0x81],                         // s_add_i32 s4, s4, 1
        &[0x04, 0x85, 0x0a, 0xbf],                         // s_cmp_lt_u32 s4, 5
        &[0xee, 0xff, 0xa2, 0xbf], // s_cbranch_scc1 -18 (PC_next - 72 bytes: the loop's start)
        // The tail:
        &[0x08, 0x15, 0x16, 0x20], // v_max_f32_e32 v11, v8, v10
        &[0x0a, 0x00, 0x13, 0xd6, 0x08, 0x13, 0x2a, 0x04], // v_fma_f32 v10, v8, v9, v10
    ];
    let mut bytes: Vec<u8> = insts.iter().flat_map(|i| i.iter().copied()).collect();
    bytes.extend_from_slice(&S_ENDPGM.to_le_bytes());
    Program::new(&bytes, 0).expect("program decodes")
}

/// Runs the program in wave32 and wave64 under `engine`; everything it leaves (result and
/// counts, wave state, memory) as text.
fn outcome(engine: Engine) -> String {
    let prog = program();
    let mut text = String::new();
    for wave64 in [false, true] {
        let mut h = Harness::new(wave64);
        let buf = h.filled_buffer().expect("buffer");
        h.wave.sgpr[0] = buf as u32;
        h.wave.sgpr[1] = (buf >> 32) as u32;
        h.set_v(0, |l| l as u32 * 3 + 1);
        h.set_v(3, |l| l as u32 * 4);
        h.set_v(4, |l| l as u32 ^ 5);
        h.wave.set_exec(0x0f0f_00ff_f0f7_ff3f);
        // MODE: round to nearest even, denormals kept, DX10_CLAMP, IEEE (compiled f32/f64 code
        // runs only under the IEEE setting it was compiled for).
        h.wave.hw.mode = 0x3f0;
        h.cfg.engine = engine;
        h.wave.pc = 0;
        let r = run_wave_alone(&mut h.wave, &mut h.lds, &prog, &h.mem, &h.cfg, 10_000);
        let r = match r {
            Ok(s) => format!("{} {}", s.wave_instructions, s.lane_instructions),
            Err(e) => format!("{e:?}"),
        };
        let mut mem = vec![0u8; 4096];
        h.mem.read(buf, &mut mem).expect("buffer reads");
        text += &format!("{r}\n{:?}\n{mem:?}\n", h.wave);
    }
    text
}

/// The child process: runs the program under the JIT with the cache `CACHE_ENV` names and
/// writes the outcome and the JIT counters into the directory `OUT` names.
const OUT: &str = "WAVESIM_DISK_TEST_OUT";

#[test]
#[ignore = "the other tests run it in a child process"]
fn child_run() {
    let Some(out) = std::env::var_os(OUT) else {
        return;
    };
    let out = PathBuf::from(out);
    let text = outcome(Engine::Jit);
    let s = compile_stats();
    let stats = format!(
        "{} {} {} {}",
        s.blocks, s.disk_loads, s.disk_writes, s.disk_rejects
    );
    std::fs::write(out.join("outcome"), text).expect("writes the outcome");
    std::fs::write(out.join("stats"), stats).expect("writes the stats");
}

/// What a child process did: blocks compiled, loaded from disk, written, rejected.
#[derive(Debug, PartialEq, Eq)]
struct Stats {
    compiled: u64,
    loaded: u64,
    written: u64,
    rejected: u64,
}

/// Runs `child_run` in a fresh process with the cache in `cache`; checks its outcome against
/// the interpreter's and returns its counters.
fn child(cache: &Path) -> Stats {
    let (stats, got) = child_outcome(cache);
    assert!(
        got == outcome(Engine::Interp),
        "the JIT's outcome differs from the interpreter's"
    );
    stats
}

/// Runs `child_run` in a fresh process with the cache in `cache`: its counters and outcome.
fn child_outcome(cache: &Path) -> (Stats, String) {
    let out = tempfile::tempdir().expect("temp dir");
    let run = Command::new(std::env::current_exe().expect("test binary"))
        .args(["child_run", "--exact", "--ignored", "--test-threads=1"])
        .env(CACHE_ENV, cache)
        .env(OUT, out.path())
        .output()
        .expect("child starts");
    assert!(
        run.status.success(),
        "child failed: {}\n{}{}",
        run.status,
        String::from_utf8_lossy(&run.stdout),
        String::from_utf8_lossy(&run.stderr)
    );
    let got = std::fs::read_to_string(out.path().join("outcome")).expect("child outcome");
    let stats = std::fs::read_to_string(out.path().join("stats")).expect("child stats");
    let n: Vec<u64> = stats
        .split(' ')
        .map(|v| v.parse().expect("a number"))
        .collect();
    let stats = Stats {
        compiled: n[0],
        loaded: n[1],
        written: n[2],
        rejected: n[3],
    };
    (stats, got)
}

/// The cache files in `dir`, in name order.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    v.retain(|p| p.extension().is_some_and(|e| e == "wjb"));
    v.sort();
    v
}

/// Blocks of `program` over both wave sizes: (prologue + loop, loop, tail) x 2.
const BLOCKS: u64 = 6;

#[test]
fn the_program_runs_its_loop_five_times() {
    // Prologue, 5 x 14 loop instructions, the tail and s_endpgm (every instruction counts once
    // whatever EXEC is), in both wave sizes.
    let text = outcome(Engine::Interp);
    let counts: Vec<&str> = text
        .lines()
        .step_by(3)
        .map(|l| l.split(' ').next().unwrap_or(""))
        .collect();
    assert_eq!(counts, ["74", "74"], "{text}");
}

#[test]
fn a_second_process_loads_every_block_from_disk() {
    let dir = tempfile::tempdir().expect("temp dir");
    let cold = child(dir.path());
    assert_eq!(
        cold,
        Stats {
            compiled: BLOCKS,
            loaded: 0,
            written: BLOCKS,
            rejected: 0
        }
    );
    assert_eq!(files(dir.path()).len() as u64, BLOCKS);
    let warm = child(dir.path());
    assert_eq!(
        warm,
        Stats {
            compiled: 0,
            loaded: BLOCKS,
            written: 0,
            rejected: 0
        }
    );
}

#[test]
fn two_processes_compile_byte_identical_code() {
    // Code holding anything of its process (a host address: ASLR moves them from run to run)
    // would differ here and must never be stored.
    let (a, b) = (
        tempfile::tempdir().expect("temp dir"),
        tempfile::tempdir().expect("temp dir"),
    );
    child(a.path());
    child(b.path());
    let (fa, fb) = (files(a.path()), files(b.path()));
    assert_eq!(fa.len() as u64, BLOCKS);
    assert_eq!(
        fa.iter().map(|p| p.file_name()).collect::<Vec<_>>(),
        fb.iter().map(|p| p.file_name()).collect::<Vec<_>>()
    );
    for (x, y) in fa.iter().zip(&fb) {
        assert!(
            std::fs::read(x).expect("reads") == std::fs::read(y).expect("reads"),
            "{} differs between processes",
            x.display()
        );
    }
}

/// A block function that returns exit 0 at once: `xor eax, eax; ret` (x86-64), `mov w0, #0;
/// ret` (AArch64).
#[cfg(target_arch = "x86_64")]
const RETURN_0: &[u8] = &[0x31, 0xc0, 0xc3];
#[cfg(target_arch = "aarch64")]
const RETURN_0: &[u8] = &[0x00, 0x00, 0x80, 0x52, 0xc0, 0x03, 0x5f, 0xd6];

#[cfg(any(target_arch = "x86_64", target_arch = "aarch64"))]
#[test]
fn the_code_in_a_valid_file_is_what_runs() {
    use sha2::{Digest, Sha256};
    // Every file rewritten, header and checksum valid (format in jit/disk.rs: magic, version,
    // key, alignment, then length, SHA-256 and code), with code that does nothing: a process
    // loading them must run them and so no longer match the interpreter. This shows the warm
    // runs above really execute the loaded code.
    let dir = tempfile::tempdir().expect("temp dir");
    child(dir.path());
    for f in files(dir.path()) {
        let old = std::fs::read(&f).expect("reads");
        let mut new = old[..48].to_vec();
        new.extend_from_slice(&(RETURN_0.len() as u32).to_le_bytes());
        new.extend_from_slice(&Sha256::digest(RETURN_0));
        new.extend_from_slice(RETURN_0);
        std::fs::write(&f, new).expect("writes");
    }
    let (s, got) = child_outcome(dir.path());
    // Blocks load when first entered; the do-nothing code changes which ones are reached.
    assert_eq!((s.compiled, s.rejected), (0, 0));
    assert!(s.loaded >= 1 && s.loaded <= BLOCKS, "{} loaded", s.loaded);
    assert!(
        got != outcome(Engine::Interp),
        "the loaded code did not run"
    );
}

#[test]
fn damaged_truncated_and_foreign_files_are_recompiled() {
    let dir = tempfile::tempdir().expect("temp dir");
    child(dir.path());
    let f = files(dir.path());
    assert_eq!(f.len() as u64, BLOCKS);
    // A flipped bit in the code (its checksum no longer matches).
    let mut bytes = std::fs::read(&f[0]).expect("reads");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&f[0], bytes).expect("writes");
    // Cut short.
    let bytes = std::fs::read(&f[1]).expect("reads");
    std::fs::write(&f[1], &bytes[..bytes.len() / 2]).expect("writes");
    // A valid file of another block under this one's name.
    std::fs::copy(&f[3], &f[2]).expect("copies");
    let s = child(dir.path());
    assert_eq!(
        s,
        Stats {
            compiled: 3,
            loaded: BLOCKS - 3,
            written: 3,
            rejected: 3
        }
    );
    // The rewritten files are good.
    let s = child(dir.path());
    assert_eq!((s.compiled, s.loaded, s.rejected), (0, BLOCKS, 0));
}

#[test]
fn a_cache_that_cannot_be_written_only_costs_the_compile() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A directory below a regular file cannot be created (whatever the permissions, root too).
    let file = dir.path().join("file");
    std::fs::write(&file, b"not a directory").expect("writes");
    let s = child(&file.join("cache"));
    assert_eq!(
        s,
        Stats {
            compiled: BLOCKS,
            loaded: 0,
            written: 0,
            rejected: 0
        }
    );
}

#[test]
fn the_api_chooses_the_directory_within_a_process() {
    // The only test of this binary compiling in its own process (the others compile in
    // children), so the process-wide counters and setting are its own.
    let dir = tempfile::tempdir().expect("temp dir");
    set_disk_cache(Some(dir.path().to_path_buf()));
    let s0 = compile_stats();
    let first = outcome(Engine::Jit);
    let s1 = compile_stats();
    assert_eq!(s1.disk_writes - s0.disk_writes, BLOCKS);
    forget_compiled_code();
    let second = outcome(Engine::Jit);
    let s2 = compile_stats();
    assert_eq!(s2.blocks - s1.blocks, 0, "compiled again");
    assert_eq!(s2.disk_loads - s1.disk_loads, BLOCKS);
    // Off again: the in-memory cache forgotten, everything compiles and nothing is written.
    set_disk_cache(None);
    forget_compiled_code();
    let third = outcome(Engine::Jit);
    let s3 = compile_stats();
    assert_eq!(s3.blocks - s2.blocks, BLOCKS);
    assert_eq!(
        s3.disk_writes + s3.disk_loads,
        s2.disk_writes + s2.disk_loads
    );
    let want = outcome(Engine::Interp);
    assert!(first == want && second == want && third == want);
}
