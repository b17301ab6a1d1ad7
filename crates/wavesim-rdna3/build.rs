//! Build-time fingerprints for the JIT's on-disk code cache (src/jit/disk.rs): code compiled by
//! one build must never be loaded by a build whose code generator could emit different code.
//!
//! - `WAVESIM_JIT_SOURCE_HASH`: a hash of every file under src/ (the code generator, the
//!   instruction selector, the decoder whose output they read, ...). Hashing all of src/ is
//!   coarser than needed (an edit anywhere in the crate starts the cache afresh) but cannot miss
//!   a file the generated code depends on.
//! - `WAVESIM_JIT_CODEGEN_DEPS`: the locked versions of the cranelift crates and regalloc2 from
//!   the nearest Cargo.lock above this crate ("unknown" without one; the crate versions the
//!   Cargo.toml pins then still apply).
//!
//! std's `DefaultHasher` is enough here: the value only has to change when the inputs do
//! (a different Rust release may hash differently, which only means a cold cache).

use std::collections::hash_map::DefaultHasher;
use std::hash::Hasher;
use std::path::{Path, PathBuf};

fn files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(rd) = std::fs::read_dir(dir) else {
        return;
    };
    for e in rd.flatten() {
        let p = e.path();
        if p.is_dir() {
            files(&p, out);
        } else {
            out.push(p);
        }
    }
}

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").unwrap_or_default());
    let src = root.join("src");
    println!("cargo:rerun-if-changed={}", src.display());
    println!("cargo:rerun-if-changed=build.rs");
    let mut list = Vec::new();
    files(&src, &mut list);
    list.sort();
    let mut h = DefaultHasher::new();
    for p in &list {
        let rel = p.strip_prefix(&root).unwrap_or(p);
        h.write(rel.to_string_lossy().as_bytes());
        h.write_u8(0);
        let bytes = std::fs::read(p).unwrap_or_default();
        h.write_usize(bytes.len());
        h.write(&bytes);
    }
    println!(
        "cargo:rustc-env=WAVESIM_JIT_SOURCE_HASH={:016x}",
        h.finish()
    );

    let mut deps = String::new();
    let mut dir = Some(root.as_path());
    while let Some(d) = dir {
        let lock = d.join("Cargo.lock");
        if let Ok(text) = std::fs::read_to_string(&lock) {
            println!("cargo:rerun-if-changed={}", lock.display());
            // `[[package]]` entries: `name = "..."` then `version = "..."`.
            let mut name = "";
            for line in text.lines() {
                if let Some(v) = line.strip_prefix("name = ") {
                    name = v.trim_matches('"');
                } else if let Some(v) = line.strip_prefix("version = ") {
                    if name.starts_with("cranelift") || name == "regalloc2" {
                        deps.push_str(&format!("{name}@{} ", v.trim_matches('"')));
                    }
                }
            }
            break;
        }
        dir = d.parent();
    }
    if deps.is_empty() {
        deps.push_str("unknown");
    }
    println!(
        "cargo:rustc-env=WAVESIM_JIT_CODEGEN_DEPS={}",
        deps.trim_end()
    );
}
