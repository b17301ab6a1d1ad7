//! The optional on-disk cache of compiled blocks: machine code one process compiled is loaded by
//! later processes instead of being compiled again (cranelift takes 0.4-80 ms a block).
//!
//! Off unless [`set_disk_cache`] or [`CACHE_ENV`] names a directory. Each block is one file there,
//! `<key>.wjb`, named by a SHA-256 key of everything its machine code depends on: this build of
//! the code generator ([`FORMAT_VERSION`], the crate version, a build-time hash of this crate's
//! sources and the locked cranelift/regalloc2 versions, see build.rs), the host ISA and cranelift
//! flags, the whole decoded program (every instruction and address: a block's branch targets and
//! callback indices depend on more than its own instructions), the launch shape and the block's
//! first instruction. Only the code bytes are stored; what the step loop needs besides (the
//! block's length, exits and MODE checks) is recomputed by `select`, which is cheap.
//!
//! Only code that cranelift compiled with no relocations is stored: it refers to nothing outside
//! itself (the callback into the interpreter is read from the `CallEnv` at run time, constants
//! sit in the function's own buffer and are addressed PC-relative), so it runs unchanged at any
//! address in any process. Code generators must keep it that way: anything process-specific
//! (a host address, a pointer to a table) comes in through the block's parameters, never as a
//! constant.
//!
//! File (integers little-endian): the magic `WSJITBLK`, `FORMAT_VERSION` (u32), the key (32
//! bytes), the code's alignment (u32), its length (u32), the SHA-256 of the code (32 bytes), the
//! code. A file that is shorter or longer than its header says, of another format, naming
//! another key, or whose code does not match its checksum is never executed: the block is
//! compiled and the file replaced. Files are written to a temporary name and renamed into place,
//! so a reader (another thread or process) sees a whole file or none. No I/O error reaches a
//! dispatch: the cache is only an optimisation.
//!
//! Trust: loaded code is executed. The checksum catches damage, not malice, so the directory must
//! be writable only by whoever may run code as this process (as with any compiler cache).

use super::select::Shape;
use crate::exec::Program;
use cranelift_codegen::isa::TargetIsa;
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::sync::{OnceLock, RwLock};

/// The environment variable naming the cache directory (unset or empty: no disk cache).
/// [`set_disk_cache`] overrides it.
pub const CACHE_ENV: &str = "WAVESIM_JIT_CACHE";

/// The version of the file format and of the code's contract with `cache` (the block
/// signature, `CallEnv`'s layout, what the code may refer to). Bump it with any such change
/// (the build-time source hash changes too, but a version says on purpose that old files are
/// void).
pub const FORMAT_VERSION: u32 = 4;

const MAGIC: [u8; 8] = *b"WSJITBLK";
const HEADER: usize = 8 + 4 + 32 + 4 + 4 + 32;
/// Bounds on what a valid file can hold (a block is at most 128 instructions: kilobytes).
const MAX_CODE: usize = 16 << 20;
const MAX_ALIGN: u32 = 4096;
const EXT: &str = "wjb";

/// A SHA-256 digest.
pub(crate) type Key = [u8; 32];

/// Blocks loaded from disk, files written, files found but rejected.
pub(crate) static LOADS: AtomicU64 = AtomicU64::new(0);
pub(crate) static WRITES: AtomicU64 = AtomicU64::new(0);
pub(crate) static REJECTS: AtomicU64 = AtomicU64::new(0);

/// [`set_disk_cache`]'s choice (None: none made, [`CACHE_ENV`] decides).
static CHOSEN: RwLock<Option<Option<PathBuf>>> = RwLock::new(None);

/// Sets the directory of the on-disk compiled-code cache for the rest of the process (None:
/// no disk cache), over [`CACHE_ENV`]. Takes effect for blocks compiled from now on; the
/// directory is created when the first file is written.
pub fn set_disk_cache(dir: Option<PathBuf>) {
    // The lock only guards a plain value: a poisoned one still holds a valid choice.
    let mut c = CHOSEN.write().unwrap_or_else(|e| e.into_inner());
    *c = Some(dir.filter(|d| !d.as_os_str().is_empty()));
}

/// The directory of the on-disk cache in use, if any ([`set_disk_cache`], else [`CACHE_ENV`]).
pub fn disk_cache() -> Option<PathBuf> {
    let c = CHOSEN.read().unwrap_or_else(|e| e.into_inner());
    match &*c {
        Some(d) => d.clone(),
        None => from_env().clone(),
    }
}

/// [`CACHE_ENV`], read once per process.
fn from_env() -> &'static Option<PathBuf> {
    static E: OnceLock<Option<PathBuf>> = OnceLock::new();
    E.get_or_init(|| {
        std::env::var_os(CACHE_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
    })
}

/// Adds a length-prefixed field (so no two different field lists hash alike).
fn field(h: &mut Sha256, bytes: &[u8]) {
    h.update((bytes.len() as u64).to_le_bytes());
    h.update(bytes);
}

/// What every block's code depends on besides its program: this build of the code generator
/// and the host target `isa` compiles for.
pub(crate) fn build_key(isa: &dyn TargetIsa) -> Key {
    let mut h = Sha256::new();
    field(&mut h, b"wavesim-rdna3 jit block");
    h.update(FORMAT_VERSION.to_le_bytes());
    field(&mut h, env!("CARGO_PKG_VERSION").as_bytes());
    field(&mut h, env!("WAVESIM_JIT_SOURCE_HASH").as_bytes());
    field(&mut h, env!("WAVESIM_JIT_CODEGEN_DEPS").as_bytes());
    field(&mut h, isa.triple().to_string().as_bytes());
    field(&mut h, isa.flags().to_string().as_bytes());
    for f in isa.isa_flags() {
        field(&mut h, f.to_string().as_bytes());
    }
    h.finalize().into()
}

/// A hash of a decoded program: its base and every instruction (all decoded fields, through
/// their derived `Debug`, which prints each one) and address.
pub(crate) fn program_key(prog: &Program) -> Key {
    let mut h = Sha256::new();
    h.update(prog.base.to_le_bytes());
    h.update((prog.insts.len() as u64).to_le_bytes());
    for (inst, pc) in prog.insts.iter().zip(&prog.pcs) {
        h.update(pc.to_le_bytes());
        field(&mut h, format!("{inst:?}").as_bytes());
    }
    h.finalize().into()
}

/// The key of the block starting at instruction `start` of the program `program` hashes to,
/// compiled for `shape` by the build `build` describes.
pub(crate) fn block_key(build: &Key, program: &Key, shape: &Shape, start: usize) -> Key {
    let mut h = Sha256::new();
    h.update(build);
    h.update(program);
    field(&mut h, format!("{shape:?}").as_bytes());
    h.update((start as u64).to_le_bytes());
    h.finalize().into()
}

fn hex(key: &Key) -> String {
    key.iter().map(|b| format!("{b:02x}")).collect()
}

fn path_of(dir: &Path, key: &Key) -> PathBuf {
    dir.join(format!("{}.{EXT}", hex(key)))
}

/// What the cache holds for a key.
pub(crate) enum Lookup {
    /// No file (or none that could be read).
    Missing,
    /// A file that is not valid code for this key (damaged, truncated, foreign).
    Rejected,
    /// The code and its alignment.
    Code(Vec<u8>, u32),
}

/// Looks `key` up in `dir`.
pub(crate) fn load(dir: &Path, key: &Key) -> Lookup {
    let mut data = Vec::new();
    let read = std::fs::File::open(path_of(dir, key))
        // One byte more than the largest valid file, so an oversized one is seen as such.
        .and_then(|f| {
            f.take((HEADER + MAX_CODE + 1) as u64)
                .read_to_end(&mut data)
        });
    if read.is_err() {
        return Lookup::Missing;
    }
    match parse(&data, key) {
        Some((code, align)) => Lookup::Code(code.to_vec(), align),
        None => {
            REJECTS.fetch_add(1, Relaxed);
            Lookup::Rejected
        }
    }
}

fn u32_at(data: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(data.get(at..at + 4)?.try_into().ok()?))
}

/// The code and alignment in file contents `data`, if they are a valid file for `key`.
fn parse<'a>(data: &'a [u8], key: &Key) -> Option<(&'a [u8], u32)> {
    let (head, code) = data.split_at_checked(HEADER)?;
    if head[..8] != MAGIC || u32_at(head, 8)? != FORMAT_VERSION || head[12..44] != key[..] {
        return None;
    }
    let align = u32_at(head, 44)?;
    let len = u32_at(head, 48)? as usize;
    if !align.is_power_of_two() || align > MAX_ALIGN || len == 0 || len > MAX_CODE {
        return None;
    }
    if code.len() != len || Sha256::digest(code)[..] != head[52..84] {
        return None;
    }
    Some((code, align))
}

/// The file contents for `code` (aligned to `align`) under `key`.
fn encode(key: &Key, code: &[u8], align: u32) -> Option<Vec<u8>> {
    if code.is_empty() || code.len() > MAX_CODE || !align.is_power_of_two() || align > MAX_ALIGN {
        return None;
    }
    let mut out = Vec::with_capacity(HEADER + code.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&FORMAT_VERSION.to_le_bytes());
    out.extend_from_slice(key);
    out.extend_from_slice(&align.to_le_bytes());
    out.extend_from_slice(&(code.len() as u32).to_le_bytes());
    out.extend_from_slice(&Sha256::digest(code));
    out.extend_from_slice(code);
    Some(out)
}

/// Writes `code` under `key` into `dir` (created if missing): to a temporary file first, then
/// renamed over the final name. Whether it was written; a failure only means a later process
/// compiles the block again.
pub(crate) fn store(dir: &Path, key: &Key, code: &[u8], align: u32) -> bool {
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let Some(bytes) = encode(key, code, align) else {
        return false;
    };
    if std::fs::create_dir_all(dir).is_err() {
        return false;
    }
    // Unique among the threads and processes that may write the same key at once.
    let tmp = dir.join(format!(
        ".{}.{}.{}.tmp",
        hex(key),
        std::process::id(),
        SEQ.fetch_add(1, Relaxed)
    ));
    let written = std::fs::File::create(&tmp)
        .and_then(|mut f| f.write_all(&bytes))
        .and_then(|()| std::fs::rename(&tmp, path_of(dir, key)));
    if written.is_err() {
        // Nothing to do if it cannot be removed either.
        let _ = std::fs::remove_file(&tmp);
        return false;
    }
    WRITES.fetch_add(1, Relaxed);
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn files_round_trip_and_damage_is_rejected() {
        let key = [7u8; 32];
        let code = [0x90u8, 0xc3, 1, 2, 3];
        let file = encode(&key, &code, 16).expect("encodes");
        assert_eq!(parse(&file, &key), Some((&code[..], 16)));
        // Another key, a flipped byte anywhere, a missing or extra byte: all rejected.
        assert_eq!(parse(&file, &[8u8; 32]), None);
        for i in 0..file.len() {
            let mut bad = file.clone();
            bad[i] ^= 0x20;
            assert_eq!(parse(&bad, &key), None, "byte {i} flipped");
        }
        assert_eq!(parse(&file[..file.len() - 1], &key), None);
        let mut long = file.clone();
        long.push(0);
        assert_eq!(parse(&long, &key), None);
        assert_eq!(parse(&[], &key), None);
        // Alignments that are not powers of two are never written.
        assert_eq!(encode(&key, &code, 12), None);
        assert_eq!(encode(&key, &[], 16), None);
    }
}
