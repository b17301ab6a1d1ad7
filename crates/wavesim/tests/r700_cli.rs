//! `wavesim` on R700 shader objects: the ISA comes from the ELF header, `disasm` prints llc's
//! program text under the chip and the `.AMDGPU.config` registers, `run --config` prints every
//! thread's exports (checked against the lli-19 host references the R700 corpus ships) and writes
//! a PNG of a grid run, and the errors say which options each ISA takes.

use std::path::PathBuf;
use std::process::{Command, Output};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn corpus(rel: &str) -> String {
    root().join("corpus/r700").join(rel).display().to_string()
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

/// llc's program lines: the golden .s without directives, labels and comments.
fn llc_body(s: &str) -> Vec<String> {
    s.lines()
        .filter(|l| l.starts_with('\t') && !l.starts_with("\t.") && !l.starts_with("\t;"))
        .map(|l| l.to_string())
        .collect()
}

#[test]
fn disasm_prints_llc_text_for_every_chip() {
    for chip in ["rv770", "rv730", "rv710"] {
        for name in ["ps_if_else", "vs_loop", "ps_tex_two"] {
            let out = stdout(&wavesim(&[
                "disasm",
                &corpus(&format!("obj/{chip}/{name}.o")),
            ]));
            let mut lines = out.lines();
            assert_eq!(lines.next(), Some(format!("; chip {chip}").as_str()));
            let golden = std::fs::read_to_string(corpus(&format!("asm/{chip}/{name}.s"))).unwrap();
            let ours: Vec<String> = out
                .lines()
                .filter(|l| !l.starts_with(';'))
                .map(|l| l.to_string())
                .collect();
            assert_eq!(ours, llc_body(&golden), "{chip} {name}");
            assert!(out.contains("NUM_GPRS = "), "{out}");
        }
    }
}

#[test]
fn run_prints_the_exports_the_host_reference_computes() {
    for name in ["ps_if_else", "ps_fadd_fmul"] {
        let out = stdout(&wavesim(&[
            "run",
            &corpus(&format!("obj/rv770/{name}.o")),
            "--config",
            &corpus(&format!("run/{name}.toml")),
        ]));
        let reference = std::fs::read_to_string(corpus(&format!("ref/{name}.txt"))).unwrap();
        let mut n = 0;
        for (ours, want) in out.lines().zip(reference.lines()) {
            // "thread N pixel0 = a b c d" against "thread N pixel0 HEX HEX HEX HEX"
            let (head, values) = ours.split_once(" = ").unwrap();
            let mut w = want.split_whitespace();
            let want_head = format!(
                "{} {} {}",
                w.next().unwrap(),
                w.next().unwrap(),
                w.next().unwrap()
            );
            assert_eq!(head, want_head);
            for (v, h) in values.split_whitespace().zip(w) {
                let bits = v.parse::<f32>().unwrap().to_bits();
                assert_eq!(bits, u32::from_str_radix(h, 16).unwrap(), "{name}: {ours}");
            }
            n += 1;
        }
        assert_eq!(n, reference.lines().count(), "{name}: every thread printed");
    }
}

#[test]
fn a_grid_run_writes_a_png() {
    let png = std::env::temp_dir().join(format!("wavesim-r700-{}.png", std::process::id()));
    let o = wavesim(&[
        "run",
        &corpus("obj/rv770/ps_tex_two.o"),
        "--config",
        &corpus("examples/tex_grid.toml"),
        "--png",
        &png.display().to_string(),
        "--stats",
    ]);
    let out = stdout(&o);
    assert!(out.contains("threads:           4096"), "{out}");
    let bytes = std::fs::read(&png).unwrap();
    let _ = std::fs::remove_file(&png);
    assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
    // IHDR: 64 x 64.
    assert_eq!(&bytes[16..24], &[0, 0, 0, 64, 0, 0, 0, 64]);
}

#[test]
fn each_isa_names_the_options_it_needs() {
    let shader = corpus("obj/rv770/ps_if_else.o");
    let o = wavesim(&["run", &shader]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("--config"), "{err}");
    let saxpy = root().join("examples/saxpy.hsaco").display().to_string();
    let cfg = corpus("run/ps_if_else.toml");
    let o = wavesim(&["run", &saxpy, "--config", &cfg]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && err.contains("--kernel"), "{err}");
    let o = wavesim(&["disasm", "--raw", &shader, "--target", "sm_80"]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("unknown target"),
        "{err}"
    );
    assert_ne!(o.status.code(), Some(101));
}

/// `run --target rv770` takes bare words as Mesa's r600 driver uploads them (corpus/r700/mesa) with
/// their run configuration; the exports are llvmpipe's for the same program (its expect.txt).
#[test]
fn run_bare_mesa_words_with_target() {
    let dir = corpus("mesa/humus-celshading__1");
    let expect = std::fs::read_to_string(format!("{dir}/expect.txt")).unwrap();
    for chip in ["rv770", "rv730", "rv710"] {
        let out = stdout(&wavesim(&[
            "run",
            "--target",
            chip,
            "--config",
            &format!("{dir}/vs.toml"),
            &format!("{dir}/vs.bin"),
        ]));
        for line in expect.lines().filter(|l| l.starts_with("vs ")) {
            let p: Vec<&str> = line.split_whitespace().collect();
            let want: Vec<String> = p[3..7]
                .iter()
                .map(|w| match u32::from_str_radix(w, 16) {
                    Ok(b) => format!("{}", f32::from_bits(b)),
                    Err(_) => "*".into(),
                })
                .collect();
            let prefix = format!("thread {} {} = ", p[1], p[2]);
            let got = out
                .lines()
                .find_map(|l| l.strip_prefix(&prefix))
                .unwrap_or_else(|| panic!("{chip}: no `{prefix}` in\n{out}"));
            for (g, w) in got.split(' ').zip(&want) {
                assert!(w == "*" || g == w, "{chip} {line}: got {got}");
            }
        }
    }
    // Bare words need their configuration.
    let o = wavesim(&["run", "--target", "rv770", &format!("{dir}/vs.bin")]);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("--config"));
}
