//! What new users hit first (issue 15): CLI hygiene (broken pipes, exit codes, one-line argument
//! errors, `--stats=json`), by-value vectors and structs, argument type checks, `--local` from
//! reqd_work_group_size, memory faults named by argument, and OpenCL printf compared with PoCL.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn corpus(p: &str) -> String {
    root().join("corpus").join(p).to_str().unwrap().to_string()
}

fn wavesim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .args(args)
        .output()
        .unwrap()
}

fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wavesim-users-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Asserts a failure with exit code `code` and one line on stderr holding every needle.
fn expect_failure(o: &Output, code: i32, needles: &[&str]) -> String {
    let err = String::from_utf8_lossy(&o.stderr).to_string();
    assert_eq!(o.status.code(), Some(code), "stderr: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "not one line: {err:?}");
    assert!(err.starts_with("wavesim: error: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "{n:?} not in {err:?}");
    }
    err
}

fn floats(bytes: &[u8]) -> Vec<f32> {
    bytes
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn broken_pipe_ends_quietly() {
    // A large listing: the reader takes a few bytes and goes away, as `| head -c 100` does.
    let mut child = Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .args(["disasm", &corpus("gfx1100-w32/mandelbrot.hsaco")])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = child.stdout.take().unwrap();
    let mut first = [0u8; 100];
    out.read_exact(&mut first).unwrap();
    drop(out);
    let o = child.wait_with_output().unwrap();
    assert_eq!(o.status.code(), Some(0));
    assert!(
        o.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
}

#[test]
fn exit_codes_and_one_line_usage_errors() {
    // clap's own errors (an unknown option) are one line with exit code 2.
    let o = wavesim(&["run", "--no-such-option"]);
    expect_failure(&o, 2, &["--no-such-option"]);
    let o = wavesim(&["frobnicate"]);
    expect_failure(&o, 2, &["frobnicate"]);
    // A malformed spec and a wrong argument count are usage errors too.
    let saxpy = corpus("gfx1100-w32/saxpy.hsaco");
    let o = wavesim(&[
        "run", &saxpy, "--kernel", "saxpy", "--global", "4", "--local", "4", "--arg", "u32:x",
    ]);
    expect_failure(&o, 2, &["u32:x", "not an integer"]);
    let o = wavesim(&[
        "run", &saxpy, "--kernel", "saxpy", "--global", "4", "--local", "4", "--arg", "u32:4",
    ]);
    expect_failure(&o, 2, &["takes 4 arguments, got 1"]);
    // A run that faults is exit code 1.
    let o = wavesim(&[
        "run",
        &saxpy,
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
    expect_failure(&o, 1, &["memory fault"]);
    // A missing required option names it on the same line.
    let o = wavesim(&[
        "run", &saxpy, "--kernel", "saxpy", "--global", "4", "--json",
    ]);
    expect_failure(&o, 2, &["required arguments were not provided: --stats"]);
    // --help is not an error.
    assert_eq!(wavesim(&["--help"]).status.code(), Some(0));
}

#[test]
fn stats_as_json() {
    let saxpy = corpus("gfx1100-w32/saxpy.hsaco");
    let base = [
        "run",
        &saxpy,
        "--kernel",
        "saxpy",
        "--global",
        "64",
        "--local",
        "32",
        "--arg",
        "u32:64",
        "--arg",
        "f32:2",
        "--arg",
        "zeros:256",
        "--arg",
        "zeros:256",
    ];
    for extra in [&["--stats=json"][..], &["--stats", "--json"][..]] {
        let o = wavesim(&[&base[..], extra].concat());
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let text = String::from_utf8(o.stdout).unwrap();
        let line = text.trim();
        assert!(line.starts_with('{') && line.ends_with('}'), "{line}");
        // 64 work-items in workgroups of 32, wave32: 2 workgroups, 2 waves.
        assert!(line.contains("\"workgroups\": 2,"), "{line}");
        assert!(line.contains("\"waves\": 2,"), "{line}");
        assert!(line.contains("\"wave_instructions\": "), "{line}");
    }
    // Plain --stats stays text.
    let o = wavesim(&[&base[..], &["--stats"]].concat());
    assert!(String::from_utf8_lossy(&o.stdout).contains("workgroups:        2"));
}

#[test]
fn by_value_vectors_and_structs_land_at_their_metadata_offsets() {
    let d = tmpdir("byvalue");
    let out = d.join("out.bin");
    let out_spec = format!("zeros:40:{}", out.display());
    // pair_t { int a = 7; float b = 2.5 (0x40200000); short c = -3; } in memory order, padded
    // to the struct's 12 bytes.
    let o = wavesim(&[
        "run",
        &corpus("printf/args.hsaco"),
        "--kernel",
        "byvalue",
        "--global",
        "1",
        "--local",
        "1",
        "--arg",
        &out_spec,
        "--arg",
        "f32x4:1,2,3,4",
        "--arg",
        "i32x2:-5,6",
        "--arg",
        "bytes:0700000000002040fdff0000",
        "--arg",
        "u8:9",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got = floats(&std::fs::read(&out).unwrap());
    assert_eq!(got, [1.0, 2.0, 3.0, 4.0, -5.0, 6.0, 7.0, 2.5, -3.0, 9.0]);
    // A struct of the wrong size is an error before the run.
    let o = wavesim(&[
        "run",
        &corpus("printf/args.hsaco"),
        "--kernel",
        "byvalue",
        "--global",
        "1",
        "--local",
        "1",
        "--arg",
        "zeros:40",
        "--arg",
        "f32x4:1,2,3,4",
        "--arg",
        "i32x2:-5,6",
        "--arg",
        "bytes:07000000",
        "--arg",
        "u8:9",
    ]);
    expect_failure(
        &o,
        2,
        &["argument 4", "pair_t", "12-byte value; got 4 bytes"],
    );
    // A vector of the wrong type.
    let o = wavesim(&[
        "run",
        &corpus("printf/args.hsaco"),
        "--kernel",
        "byvalue",
        "--global",
        "1",
        "--local",
        "1",
        "--arg",
        "zeros:40",
        "--arg",
        "f64x2:1,2",
        "--arg",
        "i32x2:-5,6",
        "--arg",
        "bytes:0700000000002040fdff0000",
        "--arg",
        "u8:9",
    ]);
    expect_failure(&o, 2, &["argument 2", "float4", "f32x4", "got f64x2"]);
}

#[test]
fn scalars_are_checked_against_the_argument_type() {
    let saxpy = corpus("gfx1100-w32/saxpy.hsaco");
    let run = |n: &str| {
        wavesim(&[
            "run", &saxpy, "--kernel", "saxpy", "--global", "4", "--local", "4", "--arg", n,
            "--arg", "f32:2", "--arg", "zeros:16", "--arg", "zeros:16",
        ])
    };
    // saxpy(uint n, ...): a float for the uint is an error before the run, not a fault.
    expect_failure(
        &run("f32:1000"),
        2,
        &["argument 1", "uint", "u32", "got f32"],
    );
    // A negative value for an unsigned argument is out of range.
    expect_failure(&run("i32:-1"), 2, &["out of range for uint"]);
    // Same width, other signedness, in range: accepted.
    assert!(run("i32:4").status.success());
    // A 64-bit value for a 32-bit argument.
    expect_failure(&run("u64:4"), 2, &["argument 1", "u32", "got u64"]);
}

#[test]
fn local_size_defaults_to_reqd_work_group_size() {
    let d = tmpdir("reqd");
    let out = d.join("ids.bin");
    let spec = format!("zeros:512:{}", out.display());
    let o = wavesim(&[
        "run",
        &corpus("printf/args.hsaco"),
        "--kernel",
        "fill_ids",
        "--global",
        "128",
        "--arg",
        &spec,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let ids: Vec<u32> = std::fs::read(&out)
        .unwrap()
        .chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // out[i] = get_local_size(0) * 1000 + get_local_id(0), with reqd_work_group_size(64,1,1).
    let want: Vec<u32> = (0..128).map(|i| 64_000 + i % 64).collect();
    assert_eq!(ids, want);
    // Without reqd_work_group_size, --local is required.
    let o = wavesim(&[
        "run",
        &corpus("gfx1100-w32/saxpy.hsaco"),
        "--kernel",
        "saxpy",
        "--global",
        "4",
    ]);
    expect_failure(&o, 2, &["no reqd_work_group_size", "--local"]);
}

#[test]
fn memory_faults_name_the_argument_and_offset() {
    let saxpy = corpus("gfx1100-w32/saxpy.hsaco");
    // n = 8 but x has 4 floats: work-item 4 reads x[4], 16 bytes into a 16-byte buffer.
    let o = wavesim(&[
        "run",
        &saxpy,
        "--kernel",
        "saxpy",
        "--global",
        "8",
        "--local",
        "8",
        "--arg",
        "u32:8",
        "--arg",
        "f32:1",
        "--arg",
        "zeros:16",
        "--arg",
        "zeros:256",
    ]);
    expect_failure(
        &o,
        1,
        &[
            "memory fault",
            "lane 4",
            "argument 3",
            "offset 16 of its 16-byte buffer",
        ],
    );
    // Through the API: a buffer address nothing was allocated at.
    let mut dev = wavesim::Device::new();
    let module = dev.load(&std::fs::read(&saxpy).unwrap()).unwrap();
    let y = dev.alloc(64).unwrap();
    let geo = wavesim::Geometry::new(&[4], &[4]).unwrap();
    let e = dev
        .dispatch(
            &module,
            "saxpy",
            &geo,
            &[
                4u32.into(),
                1.0f32.into(),
                wavesim::Arg::Buffer(0x10),
                wavesim::Arg::Buffer(y),
            ],
        )
        .unwrap_err()
        .to_string();
    assert!(e.contains("outside every allocation"), "{e}");
}

#[test]
fn printf_prints_what_pocl_prints() {
    // corpus/printf/expected.txt is PoCL's output for the same kernel (pocl_reference.py).
    let o = wavesim(&[
        "run",
        &corpus("printf/printf.hsaco"),
        "--kernel",
        "hello",
        "--global",
        "8",
        "--local",
        "8",
        "--arg",
        &format!("buf:{}", corpus("printf/x.bin")),
        "--arg",
        "u32:8",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let ours = String::from_utf8(o.stdout).unwrap();
    let pocl = std::fs::read_to_string(root().join("corpus/printf/expected.txt")).unwrap();
    // PoCL runs work-items one after the other; a wave prints each printf call for all its
    // lanes before the next call. The same lines, and each work-item's lines in order.
    let mut a: Vec<&str> = ours.lines().collect();
    let mut b: Vec<&str> = pocl.lines().collect();
    let items = |v: &[&str]| -> Vec<String> {
        v.iter()
            .filter(|l| l.starts_with("item "))
            .map(|l| l.to_string())
            .collect()
    };
    assert_eq!(items(&a), items(&b));
    a.sort();
    b.sort();
    assert_eq!(a, b);
    assert_eq!(ours.lines().count(), 11);
    // The API returns the same text.
    let mut dev = wavesim::Device::new();
    let module = dev
        .load(&std::fs::read(corpus("printf/printf.hsaco")).unwrap())
        .unwrap();
    let x = dev
        .alloc_with(&std::fs::read(corpus("printf/x.bin")).unwrap())
        .unwrap();
    let geo = wavesim::Geometry::new(&[8], &[8]).unwrap();
    dev.dispatch(
        &module,
        "hello",
        &geo,
        &[wavesim::Arg::Buffer(x), 8u32.into()],
    )
    .unwrap();
    assert_eq!(dev.printf_output(), ours);
}

// ---- HIP: offload bundles, demangled names, dynamic shared memory ----

fn hip_bundle() -> String {
    corpus("hip/kernels.co")
}

#[test]
fn hip_offload_bundle_runs_its_gfx11_entry_by_demangled_name() {
    let d = tmpdir("hip-saxpy");
    let n = 100usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let y: Vec<f32> = (0..n).map(|i| 1.0 - i as f32 * 0.25).collect();
    let bytes = |v: &[f32]| v.iter().flat_map(|f| f.to_le_bytes()).collect::<Vec<u8>>();
    std::fs::write(d.join("x.bin"), bytes(&x)).unwrap();
    std::fs::write(d.join("y.bin"), bytes(&y)).unwrap();
    let out = d.join("out.bin");
    // _Z5saxpyifPKfPf, named as the source names it.
    let o = wavesim(&[
        "run",
        &hip_bundle(),
        "--kernel",
        "saxpy",
        "--global",
        "128",
        "--local",
        "64",
        "--arg",
        "i32:100",
        "--arg",
        "f32:3",
        "--arg",
        &format!("buf:{}", d.join("x.bin").display()),
        "--arg",
        &format!("buf:{}:{}", d.join("y.bin").display(), out.display()),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got = floats(&std::fs::read(&out).unwrap());
    // 3 * x + y, each a product and a sum exactly representable in f32 (no rounding either way).
    let want: Vec<f32> = (0..n).map(|i| 3.0 * x[i] + y[i]).collect();
    assert_eq!(got, want);
    // The disassembly is the gfx1100 entry's, with the mangled symbol.
    let o = wavesim(&["disasm", &hip_bundle()]);
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(text.contains("<_Z5saxpyifPKfPf>:"), "{text}");
}

#[test]
fn ambiguous_and_template_kernel_names() {
    let base = |k: &str| {
        wavesim(&[
            "run",
            &hip_bundle(),
            "--kernel",
            k,
            "--global",
            "4",
            "--local",
            "4",
            "--arg",
            "zeros:16",
            "--arg",
            "f32:2",
        ])
    };
    // Two overloads of `scale`: the error lists both, with their symbols.
    expect_failure(
        &base("scale"),
        2,
        &[
            "ambiguous",
            "scale(float*, float) [_Z5scalePff]",
            "scale(int*, int) [_Z5scalePii]",
        ],
    );
    // The full signature or the symbol picks one.
    assert!(base("scale(float*, float)").status.success());
    assert!(base("_Z5scalePff").status.success());
    // An unknown name lists the kernels demangled.
    expect_failure(
        &base("nope"),
        2,
        &["unknown kernel `nope`", "saxpy(int, float"],
    );
    // A template instance by its name.
    let o = wavesim(&[
        "run",
        &hip_bundle(),
        "--kernel",
        "increment",
        "--global",
        "4",
        "--local",
        "4",
        "--arg",
        "zeros:16",
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn dynamic_shared_memory_is_sized_by_the_launch() {
    let d = tmpdir("hip-dyn");
    let data: Vec<f32> = (0..128).map(|i| i as f32).collect();
    std::fs::write(
        d.join("in.bin"),
        data.iter()
            .flat_map(|f| f.to_le_bytes())
            .collect::<Vec<u8>>(),
    )
    .unwrap();
    let out = d.join("out.bin");
    let o = wavesim(&[
        "run",
        &hip_bundle(),
        "--kernel",
        "reverse_block",
        "--global",
        "128",
        "--local",
        "64",
        "--dynamic-shared",
        "256",
        "--arg",
        &format!("buf:{}:{}", d.join("in.bin").display(), out.display()),
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let got = floats(&std::fs::read(&out).unwrap());
    // Each block of 64 reversed through its 256 bytes of dynamic shared memory.
    let want: Vec<f32> = (0..128)
        .map(|i| ((i / 64) * 64 + 63 - i % 64) as f32)
        .collect();
    assert_eq!(got, want);
}
