//! The JIT's on-disk code cache from the outside: `wavesim run --jit-cache DIR` (a second run
//! loads every block the first compiled, with the same output as the interpreter's) and the C
//! ABI's `wavesim_set_jit_cache`.

use std::ffi::CString;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::time::SystemTime;
use wavesim::capi::{wavesim_set_jit_cache, WAVESIM_OK};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn tmpdir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("wavesim-jitcache-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Runs saxpy (1000 work-items) with `extra` options, the result written to `out`.
fn saxpy(dir: &Path, out: &Path, extra: &[&str]) -> Output {
    let x: Vec<u8> = (0..1000)
        .flat_map(|i| (i as f32 * 0.25 - 7.0).to_le_bytes())
        .collect();
    let y: Vec<u8> = (0..1000)
        .flat_map(|i| (1.0 / (i as f32 + 3.0)).to_le_bytes())
        .collect();
    std::fs::write(dir.join("x.bin"), x).unwrap();
    std::fs::write(dir.join("y.bin"), y).unwrap();
    let obj = root().join("corpus/gfx1100-w32/saxpy.hsaco");
    let xa = format!("buf:{}", dir.join("x.bin").display());
    let ya = format!("buf:{}:{}", dir.join("y.bin").display(), out.display());
    let mut args = vec![
        "run",
        obj.to_str().unwrap(),
        "--kernel",
        "saxpy",
        "--global",
        "1000",
        "--local",
        "64",
        "--arg",
        "u32:1000",
        "--arg",
        "f32:1.5",
        "--arg",
        &xa,
        "--arg",
        &ya,
    ];
    args.extend_from_slice(extra);
    let o = Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .args(&args)
        .env_remove("WAVESIM_JIT_CACHE")
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    o
}

/// The cache directory's files with their modification times.
fn cache_files(dir: &Path) -> Vec<(PathBuf, SystemTime)> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map(|r| {
            r.filter_map(|e| {
                let e = e.ok()?;
                Some((e.path(), e.metadata().ok()?.modified().ok()?))
            })
            .collect()
        })
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn a_second_run_loads_the_compiled_blocks_from_the_cache_directory() {
    let d = tmpdir("cli");
    let cache = d.join("cache");
    let arg = cache.to_str().unwrap();
    let (o0, o1, o2) = (d.join("interp.bin"), d.join("cold.bin"), d.join("warm.bin"));
    // Without --stats: its issue model watches every instruction, so the run is interpreted.
    saxpy(&d, &o0, &["--engine", "interp"]);
    saxpy(&d, &o1, &["--engine", "jit", "--jit-cache", arg]);
    let cold = cache_files(&cache);
    assert!(!cold.is_empty(), "the cold run wrote no block");
    // A block compiled with the cache on is always written; the warm run wrote nothing, so it
    // compiled nothing: every block it entered came from the files.
    std::thread::sleep(std::time::Duration::from_millis(20));
    saxpy(&d, &o2, &["--engine", "jit", "--jit-cache", arg]);
    assert_eq!(
        cache_files(&cache),
        cold,
        "the warm run rewrote or added files"
    );
    let want = std::fs::read(&o0).unwrap();
    assert!(
        std::fs::read(&o1).unwrap() == want,
        "cold JIT output differs"
    );
    assert!(
        std::fs::read(&o2).unwrap() == want,
        "warm JIT output differs"
    );
    let _ = std::fs::remove_dir_all(&d);
}

#[test]
fn the_c_abi_sets_and_clears_the_cache_directory() {
    let d = tmpdir("capi");
    let c = CString::new(d.to_str().unwrap()).unwrap();
    // SAFETY: a NUL-terminated string, and NULL.
    unsafe {
        assert_eq!(wavesim_set_jit_cache(c.as_ptr()), WAVESIM_OK);
        assert_eq!(wavesim_rdna3::jit::disk_cache(), Some(d.clone()));
        assert_eq!(wavesim_set_jit_cache(std::ptr::null()), WAVESIM_OK);
    }
    assert_eq!(wavesim_rdna3::jit::disk_cache(), None);
    let empty = CString::new("").unwrap();
    // SAFETY: as above.
    assert_eq!(unsafe { wavesim_set_jit_cache(empty.as_ptr()) }, WAVESIM_OK);
    assert_eq!(wavesim_rdna3::jit::disk_cache(), None);
    let _ = std::fs::remove_dir_all(&d);
}
