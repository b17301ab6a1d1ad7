//! An asahi_clc grid kernel (arguments in uniforms as Mesa lays them out) through every public path:
//! `wavesim run --target agx --config` on the shipped example corpus/agx/examples/saxpy_grid_kernel.toml,
//! the Rust API `wavesim::run_agx` and the C ABI `wavesim_run_agx`, each checked against a model of
//! corpus/agx/kernels/saxpy.cl; a configuration whose arguments do not fit the kernel's report fails
//! on each path with the argument named.

use std::ffi::{CStr, CString};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn corpus(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/agx")
        .join(rel)
}

/// `wavesim run --target agx --config CONFIG`, started in the system's temporary directory: files
/// the configuration names must be found relative to the configuration, not to the working
/// directory.
fn wavesim_run_config(config: &Path) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .args(["run", "--target", "agx", "--config"])
        .arg(config)
        .current_dir(std::env::temp_dir())
        .output()
        .unwrap()
}

/// corpus/agx/kernels/saxpy.cl, `y[i] = a * x[i] + y[i]` for i < n, on the example's values
/// (x[i] = i / 2 - 5, y[i] = 100 - 3i, a = 2.5, n = 40): a * x[i] is a multiple of 0.25 and y[i] an
/// integer, so the f32 result is exact whether or not the kernel fuses the multiply-add.
fn saxpy_model() -> Vec<f32> {
    (0..40)
        .map(|i| 2.5 * (i as f32 * 0.5 - 5.0) + (100.0 - 3.0 * i as f32))
        .collect()
}

/// The `y:` line of a run's text, as numbers.
fn printed_y(text: &str) -> Vec<f32> {
    let line = text
        .lines()
        .find_map(|l| l.strip_prefix("y:"))
        .unwrap_or_else(|| panic!("no y: line in {text}"));
    line.split_whitespace()
        .map(|v| v.parse().unwrap())
        .collect()
}

fn example_text() -> String {
    std::fs::read_to_string(corpus("examples/saxpy_grid_kernel.toml")).unwrap()
}

/// The example with its third argument (the float `a`) given as a 64-bit value, its files named by
/// absolute paths.
fn mismatched_config() -> String {
    let kernels = corpus("kernels");
    example_text()
        .replace("f32 = 2.5", "u64 = 2")
        .replace("\"../kernels/", &format!("\"{}/", kernels.display()))
}

#[test]
fn cli_runs_the_shipped_grid_kernel_example() {
    let config = corpus("examples/saxpy_grid_kernel.toml");
    let o = wavesim_run_config(&config);
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(
        o.status.success(),
        "failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert_eq!(printed_y(&out), saxpy_model(), "{out}");
    // the Rust API prints the same text
    let dir = corpus("examples");
    let api = wavesim::run_agx(&example_text(), &dir, None).unwrap();
    assert_eq!(api.to_text(), out);
}

#[test]
fn cli_names_an_argument_the_report_does_not_take() {
    // a file of this test's own (tests run in parallel)
    let path =
        std::env::temp_dir().join(format!("wavesim-agx-grid-cli-{}.toml", std::process::id()));
    std::fs::write(&path, mismatched_config()).unwrap();
    let o = wavesim_run_config(&path);
    let _ = std::fs::remove_file(&path);
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success() && o.status.code() != Some(101), "{err}");
    assert!(
        err.contains("wk_saxpy") && err.contains("argument 2 `a`") && err.contains("32-bit"),
        "{err}"
    );
}

#[test]
fn c_abi_runs_the_grid_kernel_and_names_a_mismatched_argument() {
    let run = |cfg: &str, dir: &Path| -> (i32, String) {
        let ccfg = CString::new(cfg).unwrap();
        let cdir = CString::new(dir.to_str().unwrap()).unwrap();
        let mut needed = 0u64;
        let mut buf = vec![0u8; 1 << 16];
        // SAFETY: NUL-terminated strings, no code bytes, `buf` writable for its length.
        let rc = unsafe {
            wavesim::capi::wavesim_run_agx(
                ccfg.as_ptr(),
                cdir.as_ptr(),
                std::ptr::null(),
                0,
                buf.as_mut_ptr() as *mut _,
                buf.len() as u64,
                &mut needed,
            )
        };
        if rc != wavesim::capi::WAVESIM_OK {
            // SAFETY: wavesim_last_error returns a valid C string.
            let e = unsafe { CStr::from_ptr(wavesim::capi::wavesim_last_error()) };
            return (rc, e.to_string_lossy().into_owned());
        }
        let text = CStr::from_bytes_until_nul(&buf).unwrap();
        (rc, text.to_string_lossy().into_owned())
    };
    let (rc, text) = run(&example_text(), &corpus("examples"));
    assert_eq!(rc, wavesim::capi::WAVESIM_OK, "{text}");
    assert_eq!(printed_y(&text), saxpy_model(), "{text}");
    let (rc, e) = run(&mismatched_config(), &corpus("examples"));
    assert_eq!(rc, wavesim::capi::WAVESIM_ERR_INVALID, "{e}");
    assert!(e.contains("argument 2 `a`"), "{e}");
}
