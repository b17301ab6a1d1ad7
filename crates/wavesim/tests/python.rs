//! The Python front end: runs python/test_wavesim.py (unittest over python/wavesim.py, ctypes)
//! against the libwavesim.so cargo built for this test run. Skips with a note when the machine
//! has no python3.

use std::path::PathBuf;
use std::process::Command;

/// The cdylib of this build: target/<profile>/libwavesim.so next to the deps/ of this test
/// (cargo builds every crate type of the package's library for its integration tests).
fn cdylib() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let deps = exe.parent()?;
    for dir in [deps.parent()?, deps] {
        let p = dir.join("libwavesim.so");
        if p.exists() {
            return Some(p);
        }
    }
    None
}

#[test]
fn python_unittests_pass() {
    let Some(so) = cdylib() else {
        panic!("libwavesim.so was not built next to the test binary");
    };
    let python = std::env::var("PYTHON").unwrap_or_else(|_| "python3".to_string());
    if Command::new(&python).arg("--version").output().is_err() {
        eprintln!("SKIP: no {python} on this machine; the Python front end was not tested");
        return;
    }
    let repo = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = Command::new(&python)
        .arg(repo.join("python/test_wavesim.py"))
        .current_dir(&repo)
        .env("WAVESIM_LIB", &so)
        .env("PYTHONDONTWRITEBYTECODE", "1")
        .output()
        .expect("running python3");
    // unittest reports on stderr.
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    println!("{text}");
    assert!(out.status.success(), "python tests failed:\n{text}");
    assert!(text.contains("\nOK"), "unittest did not report OK:\n{text}");
}
