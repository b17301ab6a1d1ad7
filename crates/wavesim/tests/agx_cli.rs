//! `wavesim` on Apple AGX (G13) code: `disasm --raw --target agx` prints what applegpu's
//! disassemble.py prints with its STOP_ON_STOP switch off, every byte to the end (the corpus'
//! committed `*.applegpu_all.txt` listings), and `run --target agx --config` runs a
//! job: a real asahi_clc kernel checked against an independent computation, and a fragment pass
//! under Mesa's asahi ABI whose render target is written as a PNG.

use std::path::PathBuf;
use std::process::{Command, Output};

fn corpus(rel: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/agx")
        .join(rel)
        .display()
        .to_string()
}

fn wavesim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .args(args)
        .output()
        .unwrap()
}

fn stdout(o: &Output) -> String {
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    String::from_utf8_lossy(&o.stdout).to_string()
}

#[test]
fn disasm_raw_equals_applegpu_listings() {
    // Mesa's helper has traps and a padding word after its `stop` (issue 27).
    for k in [
        "clc/collatz",
        "clc/saxpy",
        "clc/shuffle",
        "clc/fmath",
        "mesa_libagx_g13_helper",
        "kernels/args_mixed",
    ] {
        let out = stdout(&wavesim(&[
            "disasm",
            "--raw",
            &corpus(&format!("{k}.bin")),
            "--target",
            "agx",
        ]));
        let want = std::fs::read_to_string(corpus(&format!("{k}.applegpu_all.txt"))).unwrap();
        assert_eq!(out, want, "{k}");
    }
}

/// Collatz steps to reach 1, computed here from the definition.
fn collatz(mut n: u64) -> u32 {
    let mut steps = 0;
    while n != 1 {
        n = if n.is_multiple_of(2) {
            n / 2
        } else {
            3 * n + 1
        };
        steps += 1;
    }
    steps
}

#[test]
fn run_a_compiled_kernel() {
    let out = stdout(&wavesim(&[
        "run",
        "--target",
        "agx",
        "--config",
        &corpus("examples/collatz_kernel.toml"),
    ]));
    let starts = [1u64, 2, 3, 6, 7, 9, 27, 97, 871, 6171, 77031, 837799];
    let want: Vec<String> = starts.iter().map(|&n| collatz(n).to_string()).collect();
    let line = out.lines().find(|l| l.starts_with("steps:")).unwrap();
    assert_eq!(line, format!("steps: {}", want.join(" ")));
}

#[test]
fn a_fragment_pass_writes_a_png_and_errors_name_the_options() {
    let png = std::env::temp_dir().join(format!("wavesim-agx-{}.png", std::process::id()));
    let out = stdout(&wavesim(&[
        "run",
        "--target",
        "agx",
        "--config",
        &corpus("examples/gradient_fragment.toml"),
        "--png",
        &png.display().to_string(),
    ]));
    assert!(out.contains("rt0 pixel(0,0)"), "{out}");
    let bytes = std::fs::read(&png).unwrap();
    let _ = std::fs::remove_file(&png);
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    let o = wavesim(&["run", "--target", "agx"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("--config"), "{err}");
    let o = wavesim(&["disasm", "--raw", &corpus("clc/saxpy.bin")]);
    // Without --target bare bytes are gfx1100 code: it prints, it does not fail or panic.
    assert_ne!(o.status.code(), Some(101));
}
