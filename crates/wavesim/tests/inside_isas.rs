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
    let o = agx(&["--check", "races"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("the AGX checks are"));
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
    // Vertex and fragment jobs run outside the observer path: asking to see inside is an error.
    let o = wavesim(&[
        "run",
        "--target",
        "agx",
        "--config",
        &path("corpus/agx/examples/gradient_fragment.toml"),
        "--trace",
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("compute"));
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
        "break @13\nbreak @15\ncontinue\nregs\nset T1.X[2] 0x40000000\nregs\nstep\nmem 0\n",
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
    assert!(
        out.contains("error: an R700 run has no device memory"),
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
