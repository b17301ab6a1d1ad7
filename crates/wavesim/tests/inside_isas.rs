//! `wavesim run --trace / --stats / --check / --timeline` on R700 shaders and AGX jobs from the
//! corpus, the flags an ISA does not take refused, and `wavesim debug` refusing a breakpoint
//! that is not an instruction start (README's saxpy, `break 0x1960` inside an 8-byte
//! instruction).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn path(rel: &str) -> String {
    root().join(rel).display().to_string()
}

fn wavesim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .args(args)
        .output()
        .unwrap()
}

fn ok(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).to_string()
}

fn r700(extra: &[&str]) -> Output {
    let mut a = vec![
        "run".to_string(),
        path("corpus/r700/obj/rv770/ps_else_tex.o"),
        "--config".into(),
        path("corpus/r700/run/ps_else_tex.toml"),
    ];
    a.extend(extra.iter().map(|s| s.to_string()));
    wavesim(&a.iter().map(String::as_str).collect::<Vec<_>>())
}

fn agx(extra: &[&str]) -> Output {
    let mut a = vec![
        "run".to_string(),
        "--target".into(),
        "agx".into(),
        "--config".into(),
        path("corpus/agx/examples/saxpy_grid_kernel.toml"),
    ];
    a.extend(extra.iter().map(|s| s.to_string()));
    wavesim(&a.iter().map(String::as_str).collect::<Vec<_>>())
}

#[test]
fn r700_trace_names_cf_clause_and_slots() {
    let plain = ok(&r700(&[]));
    let out = ok(&r700(&["--trace", "--trace-limit", "5"]));
    // Five traced steps, the cut note, then the same exports.
    let steps: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("wg (0,0,0) w 0  @"))
        .collect();
    assert_eq!(steps.len(), 5, "{out}");
    assert!(steps[0].contains("ALU_PUSH_BEFORE"), "{out}");
    assert!(
        steps[1].contains("(ALU clause of @0) w: SETGT_DX10"),
        "{out}"
    );
    assert!(out.contains("    T2.W: [0]=0x00000000"), "{out}");
    assert!(out.contains("trace cut after 5 instructions"), "{out}");
    assert!(out.ends_with(&plain), "{out}");
    // The filter selects no wave here: nothing traced.
    let out = ok(&r700(&["--trace", "--trace-filter", "wg=5"]));
    assert_eq!(out, plain);
}

#[test]
fn r700_stats_check_and_timeline() {
    let tl = std::env::temp_dir().join(format!("wavesim-r700-tl-{}.json", std::process::id()));
    let o = r700(&[
        "--stats",
        "--check",
        "all",
        "--timeline",
        &tl.display().to_string(),
    ]);
    let out = ok(&o);
    assert!(
        out.contains("clauses:           2 ALU, 2 TEX, 0 VTX"),
        "{out}"
    );
    assert!(
        out.contains("ALU slot use:      x 2, y 1, z 1, w 3, t 0"),
        "{out}"
    );
    assert!(out.contains("fetches:           2 TEX, 0 VTX"), "{out}");
    assert!(
        String::from_utf8_lossy(&o.stderr).is_empty(),
        "the corpus program is clean"
    );
    let json = std::fs::read_to_string(&tl).unwrap();
    let _ = std::fs::remove_file(&tl);
    assert!(json.starts_with("{\"traceEvents\": ["), "{json}");
    assert!(json.contains("\"cat\": \"fetch\""), "{json}");
    let o = r700(&["--check", "waits"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the R700 checks are"));
}

#[test]
fn agx_trace_stats_and_checks() {
    let plain = ok(&agx(&[]));
    let out = ok(&agx(&[
        "--trace",
        "--trace-filter",
        "wave=0",
        "--trace-limit",
        "3",
        "--stats",
        "--check",
        "all",
    ]));
    let steps: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("wg (0,0,0) w 0  0x"))
        .collect();
    assert_eq!(steps.len(), 3, "{out}");
    assert!(steps[0].contains("EXEC=0xffffffff  get_sr"), "{out}");
    assert!(out.contains("SIMD-group instructions: 40"), "{out}");
    assert!(out.contains("divergent:               12"), "{out}");
    assert!(out.contains(plain.lines().next().unwrap()), "{out}");
    // `races` is an AGX check (device memory; the job is clean); RDNA3's `waits` is not.
    ok(&agx(&["--check", "races"]));
    let o = agx(&["--check", "waits"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr)
        .contains("the AGX checks are init, uniforms, barriers, races (or all)"));
}

#[test]
fn flags_an_isa_does_not_take_are_errors() {
    for (o, isa) in [
        (r700(&["--kernel", "main"]), "R700"),
        (r700(&["--threads", "2"]), "R700"),
        (r700(&["--stats=json"]), "R700"),
        (agx(&["--engine", "jit"]), "AGX"),
        (agx(&["--arg", "u32:1"]), "AGX"),
    ] {
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{isa}: {err}");
        assert!(err.contains("is for RDNA3 kernels"), "{isa}: {err}");
    }
    // The uniforms check needs the uniforms a job sets, which vertex and fragment jobs do not list.
    let o = wavesim(&[
        "run",
        "--target",
        "agx",
        "--config",
        &path("corpus/agx/examples/gradient_fragment.toml"),
        "--check",
        "uniforms",
    ]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("compute and grid-kernel jobs"));
}

fn gallium_vs() -> String {
    path("corpus/agx/mesa22/0ad_6.0000.vs.toml")
}

/// A Mesa 22.3 gallium vertex job and fragment job under --trace, --stats and --timeline: the
/// same outputs, the device loads with their addresses and values in the trace.
#[test]
fn agx_vertex_and_fragment_jobs_are_traced() {
    let run = |cfg: &str, extra: &[&str]| {
        let mut a = vec!["run", "--target", "agx", "--config", cfg];
        a.extend_from_slice(extra);
        wavesim(&a)
    };
    let vs = gallium_vs();
    let plain = ok(&run(&vs, &[]));
    let out = ok(&run(&vs, &["--trace", "--trace-limit", "2", "--stats"]));
    // imadd r0 = vertex_id * 4 (the i32 element of the vertex's 16-byte position), then the
    // xyzw device_load from u0_u1 = 0x10000000 (the first buffer): thread 1 reads bytes
    // 16..31, whose first word is the buffer's fifth u32, 1077936128 = 0x40400000 (3.0).
    assert!(
        out.starts_with("wg (0,0,0) w 0  0x0  EXEC=0x00000007  imadd"),
        "{out}"
    );
    assert!(
        out.contains("    device load 4B: [0] 0x10000000=0xbf800000"),
        "{out}"
    );
    assert!(out.contains(" [1] 0x10000010=0x40400000 "), "{out}");
    assert!(out.contains("SIMD-group instructions: 8"), "{out}");
    assert!(out.contains(plain.lines().next().unwrap()), "{out}");
    let fs = path("corpus/agx/mesa22/0ad_6.0001.fs.toml");
    let plain = ok(&run(&fs, &[]));
    let tl = std::env::temp_dir().join(format!("wavesim-agx-fs-{}.json", std::process::id()));
    let out = ok(&run(
        &fs,
        &[
            "--trace",
            "--trace-filter",
            "wg=1",
            "--trace-limit",
            "1",
            "--check",
            "init",
            "--timeline",
            &tl.display().to_string(),
        ],
    ));
    let json = std::fs::read_to_string(&tl).unwrap();
    let _ = std::fs::remove_file(&tl);
    assert!(json.contains("\"name\": \"uniform_store\""), "{json}");
    assert!(out.starts_with("wg (1,0,0) w 0  0x"), "{out}");
    assert!(out.ends_with(&plain), "{out}");
}

/// The AGX debugger on the gallium vertex job: a dword written to device memory before the
/// device_load changes what thread 1 loads and stores as out0; `regs` shows what the previous
/// instruction loaded; a threadgroup address outside the (empty) threadgroup memory is an error.
#[test]
fn agx_debugger_reads_and_writes_device_memory() {
    let vs = gallium_vs();
    let out = debug(
        &["--target", "agx", "--config", &vs],
        "break 0x8\ncontinue\nmem 0x10000010 2\nmem 0x10000010 = 0x41200000\nstep\nregs\nmem threadgroup:0\nmem lds:0\n",
    );
    assert!(
        out.contains("break: wg (0,0,0) wave 0 at 0x8 `device_load"),
        "{out}"
    );
    assert!(out.contains("0x10000010: 0x40400000 0xbf800000\n"), "{out}");
    assert!(out.contains("memory accesses of the previous instruction:\n    device load 4B: [0] 0x10000000=0xbf800000"), "{out}");
    assert!(out.contains(" [1] 0x10000010=0x41200000 "), "{out}");
    assert!(
        out.contains("error: threadgroup 0x0 + 4 bytes is outside the group's 0 bytes"),
        "{out}"
    );
    assert!(out.contains("error: mem: no address space `lds`"), "{out}");
    // 0x41200000 = 10.0 is vertex 1's x now.
    assert!(
        out.contains("vertex 1 instance 0: out0=0x41200000 out1=0xbf800000"),
        "{out}"
    );
}

/// The hand-written kernel of crates/wavesim-agx/tests/compute.rs as a job: every thread stores
/// in[gid] + gid at threadgroup word lid, passes the barrier and reads word 63 - lid.
const REVERSE: &str = include_str!("../../wavesim-agx/tests/data/threadgroup_reverse.s");

fn reverse_job(asm: &str) -> PathBuf {
    let input: Vec<String> = (0..128).map(|i| (1000 * i).to_string()).collect();
    let text = format!(
        "kind = \"compute\"\nnr_gprs = 8\nasm = \"\"\"{asm}\"\"\"\n\
         [[buffer]]\nname = \"in\"\nu32 = [{}]\n[[buffer]]\nname = \"out\"\nsize = 512\n\
         [[uniform]]\nslot = 0\nbuffer = \"in\"\n[[uniform]]\nslot = 4\nbuffer = \"out\"\n\
         [compute]\ngrid = [128, 1, 1]\nlocal = [64, 1, 1]\nthreadgroup_memory = 256\n\
         [[output]]\nbuffer = \"out\"\nformat = \"u32\"\ncount = 2\n",
        input.join(", ")
    );
    static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let n = N.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let p = std::env::temp_dir().join(format!("wavesim-tg-{}-{n}.toml", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

/// Threadgroup stores and loads in the trace with their byte addresses and values, and the
/// debugger reading threadgroup memory after the barrier.
#[test]
fn agx_threadgroup_memory_is_traced_and_readable() {
    let job = reverse_job(REVERSE);
    let cfg = job.display().to_string();
    let plain = ok(&wavesim(&["run", "--target", "agx", "--config", &cfg]));
    // out[0] = in[63] + 63 = 63063, out[1] = in[62] + 62 = 62062.
    assert!(plain.contains("out: 63063 62062\n"), "{plain}");
    let out = ok(&wavesim(&[
        "run",
        "--target",
        "agx",
        "--config",
        &cfg,
        "--trace",
        "--trace-filter",
        "wg=0,wave=1",
    ]));
    // SIMD group 1 holds threads 32..63: thread 32 stores 32000 + 32 = 0x7d20 at byte 128 and
    // loads word 31 (byte 124), which SIMD group 0's thread 31 stored: 31031 = 0x7937.
    assert!(
        out.contains("    threadgroup store 4B: [0] 0x80=0x00007d20 [1] 0x84="),
        "{out}"
    );
    assert!(
        out.contains("    threadgroup load 4B: [0] 0x7c=0x00007937 [1] 0x78="),
        "{out}"
    );
    let barrier = out
        .lines()
        .find(|l| l.contains("threadgroup_barrier"))
        .and_then(|l| l.split_whitespace().nth(4))
        .unwrap()
        .to_string();
    let o = debug(
        &["--target", "agx", "--config", &cfg],
        &format!("break {barrier}\ncontinue\ncontinue\nmem threadgroup:0x7c 2\nmem threadgroup:0x7c = 5\n"),
    );
    let _ = std::fs::remove_file(&job);
    // The second stop is SIMD group 1 at the barrier: both groups stored their words.
    assert!(o.contains("break: wg (0,0,0) wave 1 at"), "{o}");
    assert!(
        o.contains("threadgroup:0x7c: 0x00007937 0x00007d20\n"),
        "{o}"
    );
    // out[32] would read word 31; the output shows out[0..2], which read words 63 and 62.
    assert!(o.ends_with(&plain), "{o}");
}

/// `--check init` stopping the run at a poisoned read exits with 3, as every ISA's checks do.
#[test]
fn a_check_that_stops_the_run_exits_with_3() {
    let job = reverse_job("\n    mov_imm r1, 0\n    iadd r2, r3, r1\n    stop\n");
    let cfg = job.display().to_string();
    let plain = wavesim(&["run", "--target", "agx", "--config", &cfg]);
    let o = wavesim(&[
        "run", "--target", "agx", "--config", &cfg, "--check", "init",
    ]);
    let _ = std::fs::remove_file(&job);
    assert!(plain.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("UninitRegister"), "{err}");
}

/// README's saxpy (`examples/saxpy.hsaco`): 0x1960 is inside an 8-byte instruction.
#[test]
fn a_breakpoint_inside_an_instruction_is_an_error() {
    let (x, y) = (path("examples/x.bin"), path("examples/y.bin"));
    let out = debug(
        &[
            &path("examples/saxpy.hsaco"),
            "--kernel",
            "saxpy",
            "--global",
            "64",
            "--local",
            "64",
            "--arg",
            "u32:64",
            "--arg",
            "f32:2.5",
            "--arg",
            &format!("buf:{x}"),
            "--arg",
            &format!("buf:{y}"),
        ],
        "break 0x1960\nquit\n",
    );
    assert!(
        out.contains("error: 0x1960 is not the start of an instruction"),
        "{out}"
    );
    assert!(!out.contains("breakpoint at 0x1960"), "{out}");
}

fn debug(args: &[&str], input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .arg("debug")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let o = child.wait_with_output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).to_string()
}

/// The R700 step debugger: a breakpoint on an ALU group, a register read and write, a step, an
/// address inside no instruction refused, and the run finishing with the same exports.
#[test]
fn r700_debugger_breaks_steps_reads_and_writes() {
    let shader = path("corpus/r700/obj/rv770/ps_else_tex.o");
    let cfg = path("corpus/r700/run/ps_else_tex.toml");
    let plain = ok(&r700(&[]));
    // @15 is NOT_INT's group, @13 is between the CF program and the ALU clause at @14.
    let out = debug(
        &[&shader, "--config", &cfg],
        "break @13\nbreak @15\ncontinue\nregs\nset T1.X[2] 0x40000000\nregs\nstep\nmem 0\nmem cb1:0x10 1\nmem device:0\n",
    );
    assert!(
        out.contains("error: @13 is not the start of an instruction"),
        "{out}"
    );
    assert!(
        out.contains("break: wg (0,0,0) wave 0 at @15 `w: NOT_INT * T2.W, PV.W,`"),
        "{out}"
    );
    // SETGT_DX10 (T0.X > 0) of lanes 0-3 (T0.X = -3, 0.75, 4.5, -1.5) wrote 0, ~0, ~0, 0.
    assert!(
        out.contains("T2.W [0-3] 0x00000000 0xffffffff 0xffffffff 0x00000000"),
        "{out}"
    );
    assert!(
        out.contains("T1.X [0-3] 0x40100000 0x40c00000 0x40000000 0x40700000"),
        "{out}"
    );
    assert!(out.contains("step: wg (0,0,0) wave 0 at @16"), "{out}");
    // A bare address is constant buffer 0's: entry 0 = (-3.0, -2.5, -2.0, -1.5); cb1's entry 1
    // is (127.0, ...) = 0x42fe0000 (ps_else_tex.toml).
    assert!(
        out.contains("0x0: 0xc0400000 0xc0200000 0xc0000000 0xbfc00000\n"),
        "{out}"
    );
    assert!(out.contains("cb1:0x10: 0x42fe0000\n"), "{out}");
    assert!(
        out.contains("error: mem: no address space `device`"),
        "{out}"
    );
    assert!(out.contains("finished\n"), "{out}");
    // Thread 2 (T0.X > 0) takes the ELSE path, which samples at T0 and never reads T1: the
    // exports are unchanged.
    assert!(out.ends_with(&plain), "{out}");
}

/// The AGX step debugger on the grid-kernel saxpy: breakpoint, registers, a write that changes
/// the result of thread 0, a refused address inside an instruction.
#[test]
fn agx_debugger_breaks_reads_and_writes() {
    let cfg = path("corpus/agx/examples/saxpy_grid_kernel.toml");
    let out = debug(
        &["--target", "agx", "--config", &cfg],
        "break 0x9\nbreak 0x8\ncontinue\nregs\nstep\n",
    );
    assert!(
        out.contains("error: 0x9 is not the start of an instruction"),
        "{out}"
    );
    assert!(
        out.contains("break: wg (0,0,0) wave 0 at 0x8 `mov              r4, u2`"),
        "{out}"
    );
    // r2 = thread_position_in_grid.x from get_sr at 0x0.
    assert!(
        out.contains("r2 [0-3] 0x00000000 0x00000001 0x00000002 0x00000003"),
        "{out}"
    );
    assert!(out.contains("step: wg (0,0,0) wave 0 at 0xe"), "{out}");
    assert!(out.contains("finished\n"), "{out}");
}

/// `--check barriers`: the reverse kernel is clean with its threadgroup_barrier and, without it,
/// SIMD group 1's store and load race SIMD group 0's load and store (exit 3).
#[test]
fn agx_barrier_check_finds_a_missing_barrier() {
    for (asm, findings) in [
        (REVERSE.to_string(), 0),
        (REVERSE.replace("    threadgroup_barrier\n", ""), 2),
    ] {
        let job = reverse_job(&asm);
        let cfg = job.display().to_string();
        let o = wavesim(&[
            "run", "--target", "agx", "--config", &cfg, "--check", "barriers",
        ]);
        let _ = std::fs::remove_file(&job);
        let err = String::from_utf8_lossy(&o.stderr);
        assert_eq!(
            err.matches("ThreadgroupRace at ").count(),
            findings,
            "{err}"
        );
        assert_eq!(
            o.status.code(),
            Some(if findings > 0 { 3 } else { 0 }),
            "{err}"
        );
    }
}

/// A configuration that is not TOML is a usage error (exit 2, like a bad RDNA3 `--arg`) for R700
/// and AGX runs and debug sessions; so is a value outside its range (R700 constant buffer 16).
#[test]
fn configuration_errors_exit_2() {
    let bad = std::env::temp_dir().join(format!("wavesim-bad-{}.toml", std::process::id()));
    std::fs::write(&bad, "not toml [[").unwrap();
    let range = std::env::temp_dir().join(format!("wavesim-range-{}.toml", std::process::id()));
    std::fs::write(
        &range,
        "[[constant_buffer]]\nindex = 16\nvalues = [[1.0, 2.0, 3.0, 4.0]]\n",
    )
    .unwrap();
    let shader = path("corpus/r700/obj/rv770/ps_else_tex.o");
    let (bad, range) = (bad.display().to_string(), range.display().to_string());
    for args in [
        vec!["run", &shader, "--config", &bad],
        vec!["run", &shader, "--config", &range],
        vec!["run", "--target", "agx", "--config", &bad],
        vec!["debug", &shader, "--config", &bad],
        vec!["debug", "--target", "agx", "--config", &bad],
    ] {
        let o = wavesim(&args);
        assert_eq!(
            o.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
    }
    // A run that fails is 1: an AGX job whose code faults.
    let o = agx_fault();
    assert_eq!(
        o.status.code(),
        Some(1),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn agx_fault() -> Output {
    let job = std::env::temp_dir().join(format!("wavesim-fault-{}.toml", std::process::id()));
    // r20 is beyond the 8 registers the job allocates: a typed fault at run time.
    std::fs::write(
        &job,
        "kind = \"compute\"\nnr_gprs = 8\nasm = \"\"\"\n    mov_imm r20, 1\n    stop\n\"\"\"\n[compute]\ngrid = [32, 1, 1]\nlocal = [32, 1, 1]\n",
    )
    .unwrap();
    wavesim(&[
        "run",
        "--target",
        "agx",
        "--config",
        &job.display().to_string(),
    ])
}

/// The R700 debugger's memory on vs_fetch: stopped before the VTX_READ (@6), `mem cb1:0xd0`
/// prints constant buffer 1's entry 13 (thread 0 reads it: FLT_TO_INT(-3.0) & 15 = 13, 13 x 16 =
/// 0xd0; entry 13 = 125.0 + 2 x 13 = 151.0 ...), the write puts 10.0 there, `regs` after the
/// step lists the fetch's loads (thread 0's first at 0xd0 reads 10.0 now), and thread 0 exports
/// 10.0 as position X.
#[test]
fn r700_debugger_reads_and_writes_buffers() {
    let shader = path("corpus/r700/obj/rv770/vs_fetch.o");
    let cfg = path("corpus/r700/run/vs_fetch.toml");
    let out = debug(
        &[&shader, "--config", &cfg],
        "break @6\ncontinue\nmem cb1:0xd0 4\nmem cb1:0xd0 = 0x41200000\nstep\nregs\n",
    );
    assert!(
        out.contains("cb1:0xd0: 0x43170000 0x43178000 0x43180000 0x43188000\n"),
        "{out}"
    );
    assert!(
        out.contains("memory accesses of the previous step:\n    cb1 load 4B: [0] 0xd0=0x41200000 [0] 0xd4=0x43178000 "),
        "{out}"
    );
    assert!(
        out.contains("thread 0 pos0 = 10 151.5 152 152.5\n"),
        "{out}"
    );
}
