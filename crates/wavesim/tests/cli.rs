//! `wavesim` CLI: the main command on the shipped example, `info`, and one bad-input test per
//! error the CLI contract lists. Every error is one line on stderr with a non-zero exit code,
//! and nothing panics.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn saxpy() -> PathBuf {
    root().join("corpus/gfx1100-w32/saxpy.hsaco")
}

fn wavesim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .args(args)
        .output()
        .unwrap()
}

fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wavesim-cli-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Asserts a failed run with one line on stderr containing every `needle`; returns the line.
fn expect_error(o: &Output, needles: &[&str]) -> String {
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert!(!o.status.success(), "expected failure, got success: {err}");
    assert_ne!(o.status.code(), Some(101), "panicked: {err}");
    assert!(!err.contains("panicked"), "panicked: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "not one line: {err:?}");
    for n in needles {
        assert!(err.contains(n), "{n:?} not in {err:?}");
    }
    err
}

fn f32s(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}

/// A copy of saxpy.hsaco whose saxpy kernel starts with `words` (patched in place).
fn patched_saxpy(dir: &Path, words: &[u32]) -> PathBuf {
    let mut bytes = std::fs::read(saxpy()).unwrap();
    let co = wavesim::CodeObject::parse(&bytes).unwrap();
    let entry = co.kernel("saxpy").unwrap().entry as usize;
    // Find the kernel's first 16 bytes in the file (the text segment is mapped 1:1).
    let head = &co.image[entry..entry + 16];
    let at = bytes.windows(16).position(|w| w == head).unwrap();
    for (i, w) in words.iter().enumerate() {
        bytes[at + 4 * i..at + 4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    let p = dir.join(format!("patched-{:08x}.hsaco", words[0]));
    std::fs::write(&p, bytes).unwrap();
    p
}

#[test]
fn run_saxpy_writes_the_output_and_prints_stats() {
    let d = tmpdir("saxpy");
    let n = 1000usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5 - 3.0).collect();
    let y: Vec<f32> = (0..n).map(|i| 1.0 / (i as f32 + 1.0)).collect();
    std::fs::write(d.join("x.bin"), f32s(&x)).unwrap();
    std::fs::write(d.join("y.bin"), f32s(&y)).unwrap();
    let out = d.join("out.bin");
    let o = wavesim(&[
        "run",
        saxpy().to_str().unwrap(),
        "--kernel",
        "saxpy",
        "--global",
        "1000",
        "--local",
        "256",
        "--arg",
        "u32:1000",
        "--arg",
        "f32:2.5",
        "--arg",
        &format!("buf:{}", d.join("x.bin").display()),
        "--arg",
        &format!("buf:{}:{}", d.join("y.bin").display(), out.display()),
        "--stats",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got = std::fs::read(&out).unwrap();
    // The kernel computes a*x+y as one fused multiply-add (v_fmac_f32).
    let want: Vec<f32> = x
        .iter()
        .zip(&y)
        .map(|(x, y)| 2.5f32.mul_add(*x, *y))
        .collect();
    assert_eq!(got, f32s(&want));
    let stdout = String::from_utf8_lossy(&o.stdout);
    for k in [
        "wave-instructions:",
        "lane-instructions:",
        "time:",
        "throughput:",
    ] {
        assert!(stdout.contains(k), "{k} missing in {stdout}");
    }
    // 1000 work-items in workgroups of 256: 4 workgroups, 8+8+8+8 wave32 waves (the last
    // workgroup has 232 work-items = 8 waves).
    assert!(stdout.contains("waves:             32"), "{stdout}");
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn info_lists_kernels_arguments_and_descriptor_fields() {
    let o = wavesim(&["info", saxpy().to_str().unwrap()]);
    assert!(o.status.success());
    let s = String::from_utf8_lossy(&o.stdout);
    for k in [
        "saxpy(uint, float, global float*, global float*)",
        "daxpy(",
        "hidden_block_count_x",
        "COMPUTE_PGM_RSRC1 0x60af0080",
        "RSRC2 0x0000009e",
        "kernarg segment 280 B",
        "wave32",
    ] {
        assert!(s.contains(k), "{k:?} missing in:\n{s}");
    }
}

#[test]
fn unknown_kernel_lists_the_names() {
    let o = wavesim(&[
        "run",
        saxpy().to_str().unwrap(),
        "--kernel",
        "sxapy",
        "--global",
        "64",
        "--local",
        "64",
    ]);
    expect_error(&o, &["unknown kernel", "sxapy", "saxpy, daxpy"]);
}

#[test]
fn wrong_argument_count_or_kind_shows_the_signature() {
    let s = saxpy();
    let base = [
        "run",
        s.to_str().unwrap(),
        "--kernel",
        "saxpy",
        "--global",
        "64",
        "--local",
        "64",
    ];
    let mut a = base.to_vec();
    a.extend(["--arg", "u32:64"]);
    expect_error(
        &wavesim(&a),
        &[
            "takes 4 arguments, got 1",
            "saxpy(uint, float, global float*, global float*)",
        ],
    );
    let mut a = base.to_vec();
    a.extend([
        "--arg",
        "u32:64",
        "--arg",
        "f64:2",
        "--arg",
        "zeros:256",
        "--arg",
        "zeros:256",
    ]);
    expect_error(
        &wavesim(&a),
        // The metadata's type (float) names what is expected.
        &["argument 2", "expects float (f32:...)", "got f64", "saxpy("],
    );
    let mut a = base.to_vec();
    a.extend([
        "--arg",
        "u32:64",
        "--arg",
        "f32:2",
        "--arg",
        "u64:0",
        "--arg",
        "zeros:256",
    ]);
    expect_error(&wavesim(&a), &["argument 3", "global buffer", "saxpy("]);
    let mut a = base.to_vec();
    a.extend([
        "--arg",
        "u32:64",
        "--arg",
        "f32:2",
        "--arg",
        "zeros:256",
        "--arg",
        "local:64",
    ]);
    expect_error(&wavesim(&a), &["argument 4", "local:N"]);
    // A malformed spec.
    let mut a = base.to_vec();
    a.extend(["--arg", "u32:x"]);
    expect_error(&wavesim(&a), &["u32:x", "not an integer"]);
}

#[test]
fn malformed_elf_and_unsupported_version() {
    let d = tmpdir("elf");
    let junk = d.join("junk.hsaco");
    std::fs::write(&junk, b"this is not an ELF file").unwrap();
    let o = wavesim(&[
        "run",
        junk.to_str().unwrap(),
        "--kernel",
        "k",
        "--global",
        "1",
        "--local",
        "1",
    ]);
    expect_error(&o, &["malformed ELF"]);
    expect_error(
        &wavesim(&["info", junk.to_str().unwrap()]),
        &["malformed ELF"],
    );
    // EI_ABIVERSION 1 = code object v3.
    let mut b = std::fs::read(saxpy()).unwrap();
    b[8] = 1;
    let v3 = d.join("v3.hsaco");
    std::fs::write(&v3, b).unwrap();
    let o = wavesim(&[
        "run",
        v3.to_str().unwrap(),
        "--kernel",
        "saxpy",
        "--global",
        "1",
        "--local",
        "1",
    ]);
    expect_error(&o, &["unsupported code object version", "v3"]);
    let missing = d.join("missing.hsaco");
    expect_error(
        &wavesim(&["info", missing.to_str().unwrap()]),
        &["cannot read"],
    );
    let _ = std::fs::remove_dir_all(d);
}

fn run_patched(code: &Path, extra: &[&str], local: &str) -> Output {
    let mut a = vec![
        "run",
        code.to_str().unwrap(),
        "--kernel",
        "saxpy",
        "--global",
        "256",
        "--local",
        local,
        "--arg",
        "u32:256",
        "--arg",
        "f32:1",
        "--arg",
        "zeros:1024",
        "--arg",
        "zeros:1024",
    ];
    a.extend_from_slice(extra);
    wavesim(&a)
}

#[test]
fn invalid_instruction_names_pc_and_instruction() {
    let d = tmpdir("invalid");
    // s_nop 0, then a word no gfx11 encoding defines (SOPP opcode 0x7f).
    let p = patched_saxpy(&d, &[0xbf80_0000, 0xbfff_0000]);
    expect_error(
        &run_patched(&p, &[], "64"),
        &[
            "kernel saxpy",
            "workgroup (0,0,0)",
            "wave 0",
            "PC 0x1f04",
            "invalid instruction",
        ],
    );
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn memory_fault_names_lane_and_address() {
    let o = wavesim(&[
        "run",
        saxpy().to_str().unwrap(),
        "--kernel",
        "saxpy",
        "--global",
        "64",
        "--local",
        "64",
        "--arg",
        "u32:64",
        "--arg",
        "f32:1",
        "--arg",
        "zeros:16",
        "--arg",
        "zeros:256",
    ]);
    // x has 4 floats: lane 4 reads past its end.
    expect_error(&o, &["memory fault", "lane", "address 0x", "global_load"]);
}

#[test]
fn watchdog_stops_an_endless_kernel() {
    let d = tmpdir("watchdog");
    let p = patched_saxpy(&d, &[0xbfa0_ffff]); // s_branch -1
    expect_error(
        &run_patched(&p, &["--max-instructions", "5000"], "64"),
        &["watchdog", "5000 instructions", "PC 0x1f00"],
    );
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn barrier_deadlock_is_reported() {
    let d = tmpdir("deadlock");
    let p = patched_saxpy(
        &d,
        &[
            0x7e08_0500, // v_readfirstlane_b32 s4, v0
            0xbf06_8004, // s_cmp_eq_u32 s4, 0
            0xbfa2_0002, // s_cbranch_scc1 2   (wave 0 loops, never reaching the barrier)
            0xbfbd_0000, // s_barrier
            0xbfb0_0000, // s_endpgm
            0xbfa0_ffff, // s_branch -1
        ],
    );
    expect_error(
        &run_patched(&p, &["--max-instructions", "5000"], "128"),
        &["barrier deadlock", "waves [1, 2, 3]", "wave 0"],
    );
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn bad_geometry_is_an_error() {
    let s = saxpy();
    let s = s.to_str().unwrap();
    expect_error(
        &wavesim(&[
            "run", s, "--kernel", "saxpy", "--global", "64,2", "--local", "64",
        ]),
        &["dimensions"],
    );
    expect_error(
        &wavesim(&[
            "run", s, "--kernel", "saxpy", "--global", "0", "--local", "64",
        ]),
        &["zero"],
    );
    // saxpy's max_flat_workgroup_size is 256.
    expect_error(
        &wavesim(&[
            "run", s, "--kernel", "saxpy", "--global", "512", "--local", "512", "--arg", "u32:1",
            "--arg", "f32:1", "--arg", "zeros:4", "--arg", "zeros:4",
        ]),
        &["max_flat_workgroup_size 256"],
    );
}

fn normalize(s: &str) -> Vec<String> {
    s.lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn disasm_prints_what_llvm_objdump_prints() {
    let o = wavesim(&["disasm", saxpy().to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let golden = std::fs::read_to_string(root().join("corpus/gfx1100-w32/saxpy.objdump")).unwrap();
    assert_eq!(
        normalize(&String::from_utf8_lossy(&o.stdout)),
        normalize(&golden)
    );
    // Bare bytes: s_mov_b32 s0, 5 / s_endpgm
    let d = tmpdir("raw");
    let raw = d.join("code.bin");
    std::fs::write(&raw, [0x85, 0x00, 0x80, 0xbe, 0x00, 0x00, 0xb0, 0xbf]).unwrap();
    let o = wavesim(&["disasm", "--raw", raw.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        normalize(&String::from_utf8_lossy(&o.stdout)),
        [
            "s_mov_b32 s0, 5 // 000000000000: BE800085",
            "s_endpgm // 000000000004: BFB00000"
        ]
    );
    // A truncated instruction (the first dword of a 64-bit SMEM load alone) prints as data,
    // the way llvm-objdump prints a cut-off instruction.
    std::fs::write(&raw, [0x80, 0x00, 0x04, 0xf4]).unwrap();
    let o = wavesim(&["disasm", "--raw", raw.to_str().unwrap()]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        normalize(&String::from_utf8_lossy(&o.stdout)),
        [".long 0xf4040080 // 000000000000: F4040080"]
    );
    let _ = std::fs::remove_dir_all(d);
}

#[test]
fn readme_main_command_runs_the_shipped_example() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let cmd = readme
        .lines()
        .find_map(|l| l.strip_prefix("cargo run --release -- "))
        .expect("README has the main command");
    let d = tmpdir("readme");
    let out = d.join("out.bin");
    let args: Vec<String> = cmd
        .split_whitespace()
        .map(|a| a.replace(":/tmp/wavesim-out.bin", &format!(":{}", out.display())))
        .collect();
    let o = Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .current_dir(root())
        .args(&args)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(root().join("examples/expected.bin")).unwrap()
    );
    let _ = std::fs::remove_dir_all(d);
}

/// A trap handler (llvm-mc-19 -arch=amdgcn -mcpu=gfx1100): stores {TTMP0, TTMP1, TRAPSTS,
/// 0xc0ffee} at TMA, counts its lanes at TMA + 16, and returns past the s_trap with s_rfe_b64.
const TRAP_HANDLER: &[u32] = &[
    0xbeee4d82, // s_sendmsg_rtn_b64 ttmp[2:3], sendmsg(MSG_RTN_GET_TMA)
    0xb8f0f803, // s_getreg_b32 ttmp4, hwreg(HW_REG_TRAPSTS)
    0xbf89fc07, // s_waitcnt lgkmcnt(0)
    0x7e060280, // v_mov_b32_e32 v3, 0
    0x7e08026c, // v_mov_b32_e32 v4, ttmp0
    0x7e0a026d, // v_mov_b32_e32 v5, ttmp1
    0x7e0c0270, // v_mov_b32_e32 v6, ttmp4
    0x7e0e02ff, 0x00c0ffee, // v_mov_b32_e32 v7, 0xc0ffee
    0xdc760000, 0x006e0403, // global_store_b128 v3, v[4:7], ttmp[2:3]
    0x7e080281, // v_mov_b32_e32 v4, 1
    0xdcd60010, 0x006e0403, // global_atomic_add_u32 v3, v4, ttmp[2:3] offset:16
    0x806c846c, // s_add_u32 ttmp0, ttmp0, 4
    0x8b6dff6d, 0x0000ffff, // s_and_b32 ttmp1, ttmp1, 0xffff
    0xbe804a6c, // s_rfe_b64 ttmp[0:1]
];

/// s_trap 2, then TMA[20] = 0x600d (the kernel resumed), s_endpgm.
const S_TRAP_KERNEL: &[u32] = &[
    0xbf900002, // s_trap 2
    0xbe824d82, // s_sendmsg_rtn_b64 s[2:3], sendmsg(MSG_RTN_GET_TMA)
    0xbf89fc07, // s_waitcnt lgkmcnt(0)
    0x7e020280, // v_mov_b32_e32 v1, 0
    0x7e0402ff, 0x0000600d, // v_mov_b32_e32 v2, 0x600d
    0xdc6a0014, 0x00020201, // global_store_b32 v1, v2, s[2:3] offset:20
    0xbfb00000, // s_endpgm
];

#[test]
fn trap_handler_option_runs_s_trap_in_the_handler() {
    let d = tmpdir("trap");
    let kernel = patched_saxpy(&d, S_TRAP_KERNEL);
    let handler = d.join("handler.bin");
    let bytes: Vec<u8> = TRAP_HANDLER.iter().flat_map(|w| w.to_le_bytes()).collect();
    std::fs::write(&handler, bytes).unwrap();
    let tma_out = d.join("tma.bin");
    let o = run_patched(
        &kernel,
        &[
            "--trap-handler",
            handler.to_str().unwrap(),
            "--trap-tma-out",
            tma_out.to_str().unwrap(),
        ],
        "64",
    );
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let tma = std::fs::read(&tma_out).unwrap();
    assert_eq!(tma.len(), 256, "the whole TMA area");
    let w = |k: usize| u32::from_le_bytes(tma[4 * k..4 * k + 4].try_into().unwrap());
    // TTMP0 = the PC of the s_trap: the kernel's entry, at a 256-byte aligned address.
    assert_eq!(w(0) % 256, 0);
    assert_eq!(w(1) >> 16, 2, "trap ID");
    assert_eq!(w(2), 0, "TRAPSTS");
    assert_eq!(w(3), 0xc0ffee);
    assert_eq!(w(4), 256, "each of the 256 work-items ran the handler once");
    assert_eq!(w(5), 0x600d, "the kernel resumed after the s_trap");
    // Without the handler s_trap does nothing and the store through TMA = 0 faults.
    expect_error(
        &run_patched(&kernel, &[], "64"),
        &["memory fault", "address 0x14", "global_store_b32"],
    );
    // Code that is not whole dwords is refused, naming the file.
    std::fs::write(&handler, [0u8; 6]).unwrap();
    expect_error(
        &run_patched(
            &kernel,
            &["--trap-handler", handler.to_str().unwrap()],
            "64",
        ),
        &["handler.bin", "trap handler"],
    );
    // --trap-tma-out needs --trap-handler.
    let o = run_patched(
        &kernel,
        &["--trap-tma-out", tma_out.to_str().unwrap()],
        "64",
    );
    assert!(!o.status.success());
    let _ = std::fs::remove_dir_all(d);
}
