//! Clang offload bundles (what `hipcc --genco` and `clang -x hip --cuda-device-only` write):
//! the magic `__CLANG_OFFLOAD_BUNDLE__`, a little-endian u64 entry count, then per entry its
//! u64 offset, u64 size, u64 triple length and the triple (`hipv4-amdgcn-amd-amdhsa--gfx1100`);
//! each entry is a whole code object (clang's ClangOffloadBundler.rst, "Bundled Binary File
//! Layout"). wavesim runs the gfx11 entry.
//!
//! Compressed bundles (`clang-offload-bundler -compress`, `hipcc --offload-compress`) wrap a
//! whole bundle (LLVM's `OffloadBundler.cpp`, `CompressedOffloadBundle`): the magic `CCOB`, a
//! u16 version, a u16 method (LLVM's `compression::Format`: 0 zlib, 1 zstd), then version 1: u32
//! uncompressed size; version 2: u32 total file size, u32 uncompressed size; version 3: u64 total
//! file size, u64 uncompressed size; then a u64 hash (the low half of the uncompressed bundle's
//! MD5, which LLVM's decompressor only prints when verbose and does not check; neither does
//! wavesim) and the compressed bytes. All little-endian.
//!
//! Below the code-object parser (`codeobj`), which unwraps a bundle before reading the ELF.

use std::borrow::Cow;

/// Why an offload bundle could not be read. The code-object parser, which accepts bundles,
/// reports it as a malformed code object (`CodeObjectError::Malformed`).
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[error("clang offload bundle: {0}")]
pub struct BundleError(pub String);

/// The first bytes of an uncompressed offload bundle.
pub const BUNDLE_MAGIC: &[u8] = b"__CLANG_OFFLOAD_BUNDLE__";
/// The first bytes of a compressed one (`clang-offload-bundler -compress`).
pub const COMPRESSED_BUNDLE_MAGIC: &[u8] = b"CCOB";

/// One entry of a bundle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BundleEntry<'a> {
    /// The offload target, e.g. `hipv4-amdgcn-amd-amdhsa--gfx1100`.
    pub triple: String,
    pub bytes: &'a [u8],
}

fn malformed(why: String) -> BundleError {
    BundleError(why)
}

/// Longest target triple accepted (real ones, e.g. `hipv4-amdgcn-amd-amdhsa--gfx1100:xnack-`,
/// are tens of bytes).
const MAX_TRIPLE_BYTES: usize = 256;

/// Most bytes a compressed bundle may expand to (a code object is far smaller; the header's
/// size is checked before anything is allocated).
const MAX_UNCOMPRESSED_BYTES: u64 = 1 << 30;

/// The bundle a compressed bundle (`CCOB`) holds, or `None` when `bytes` is not one.
pub fn decompress(bytes: &[u8]) -> Result<Option<Vec<u8>>, BundleError> {
    if !bytes.starts_with(COMPRESSED_BUNDLE_MAGIC) {
        return Ok(None);
    }
    let bad = |why: String| malformed(format!("compressed bundle: {why}"));
    let field = |at: usize, n: usize| -> Result<u64, BundleError> {
        let b = bytes
            .get(at..at + n)
            .ok_or_else(|| bad(format!("header cut short at byte {at}")))?;
        let mut w = [0u8; 8];
        w[..n].copy_from_slice(b);
        Ok(u64::from_le_bytes(w))
    };
    let version = field(4, 2)?;
    let method = field(6, 2)?;
    // (total file size, uncompressed size, where the hash starts)
    let (total, size, hash_at) = match version {
        1 => (None, field(8, 4)?, 12),
        2 => (Some(field(8, 4)?), field(12, 4)?, 16),
        3 => (Some(field(8, 8)?), field(16, 8)?, 24),
        v => {
            return Err(bad(format!(
                "version {v}; wavesim reads versions 1, 2 and 3"
            )))
        }
    };
    let start = hash_at + 8;
    let end = match total {
        Some(t) if t < start as u64 || t > bytes.len() as u64 => {
            return Err(bad(format!(
                "the header's total size {t} does not fit the {} bytes there are",
                bytes.len()
            )))
        }
        Some(t) => t as usize,
        None => bytes.len(),
    };
    if size > MAX_UNCOMPRESSED_BYTES {
        return Err(bad(format!(
            "{size} uncompressed bytes (at most {MAX_UNCOMPRESSED_BYTES})"
        )));
    }
    let data = bytes
        .get(start..end)
        .ok_or_else(|| bad("no compressed data".into()))?;
    let mut out = Vec::with_capacity(size as usize);
    use std::io::Read;
    let r = match method {
        0 => flate2::read::ZlibDecoder::new(data)
            .take(size + 1)
            .read_to_end(&mut out),
        1 => zstd::stream::read::Decoder::new(data)
            .and_then(|d| d.take(size + 1).read_to_end(&mut out)),
        m => {
            return Err(bad(format!(
                "compression method {m}; LLVM defines 0 zlib and 1 zstd"
            )))
        }
    };
    r.map_err(|e| bad(format!("cannot decompress: {e}")))?;
    if out.len() as u64 != size {
        return Err(bad(format!(
            "the header says {size} uncompressed bytes, the data holds {}{}",
            if out.len() as u64 > size {
                "more than "
            } else {
                ""
            },
            out.len().min(size as usize)
        )));
    }
    Ok(Some(out))
}

/// The entries of an offload bundle, or `None` when `bytes` is not one.
pub fn entries(bytes: &[u8]) -> Result<Option<Vec<BundleEntry<'_>>>, BundleError> {
    if !bytes.starts_with(BUNDLE_MAGIC) {
        return Ok(None);
    }
    let u64_at = |at: usize| -> Result<u64, BundleError> {
        bytes
            .get(at..at + 8)
            .map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()))
            .ok_or_else(|| malformed(format!("truncated header at byte {at}")))
    };
    let count = u64_at(BUNDLE_MAGIC.len())?;
    if count > 4096 {
        return Err(malformed(format!("{count} entries")));
    }
    let mut at = BUNDLE_MAGIC.len() + 8;
    let mut out = Vec::new();
    for i in 0..count {
        let (offset, size, len) = (u64_at(at)?, u64_at(at + 8)?, u64_at(at + 16)?);
        at += 24;
        let triple = usize::try_from(len)
            .ok()
            .and_then(|len| bytes.get(at..at.checked_add(len)?))
            .ok_or_else(|| malformed(format!("entry {i}: triple outside the file")))?;
        at += triple.len();
        // A damaged header's "triple" may be kilobytes of binary: say so instead of printing it.
        if triple.len() > MAX_TRIPLE_BYTES || !triple.iter().all(|b| b.is_ascii_graphic()) {
            return Err(malformed(format!(
                "entry {i}: its target triple ({} bytes) is not a target name (damaged header?)",
                triple.len()
            )));
        }
        let data = offset
            .checked_add(size)
            .and_then(|end| bytes.get(usize::try_from(offset).ok()?..usize::try_from(end).ok()?))
            .ok_or_else(|| {
                malformed(format!(
                    "entry {i}: {size} bytes at {offset} are outside the file"
                ))
            })?;
        out.push(BundleEntry {
            triple: String::from_utf8_lossy(triple).into_owned(),
            bytes: data,
        });
    }
    Ok(Some(out))
}

/// The code object to run from `bytes`: `bytes` itself when it is no bundle, else the
/// (decompressed) bundle's (first) gfx11 AMDGPU entry; an error lists the entries when there is
/// none.
pub fn code_object(bytes: &[u8]) -> Result<Cow<'_, [u8]>, BundleError> {
    if let Some(inner) = decompress(bytes)? {
        if !inner.starts_with(BUNDLE_MAGIC) {
            return Err(malformed(
                "the compressed bundle does not hold an offload bundle".into(),
            ));
        }
        return Ok(Cow::Owned(gfx11_entry(&inner)?.to_vec()));
    }
    if !bytes.starts_with(BUNDLE_MAGIC) {
        return Ok(Cow::Borrowed(bytes));
    }
    gfx11_entry(bytes).map(Cow::Borrowed)
}

/// The first non-empty gfx11 AMDGPU entry of the bundle `bytes`.
fn gfx11_entry(bytes: &[u8]) -> Result<&[u8], BundleError> {
    let Some(list) = entries(bytes)? else {
        return Ok(bytes);
    };
    let is_gfx11 = |t: &str| {
        t.contains("amdgcn-amd-amdhsa")
            && t.rsplit("--")
                .next()
                .is_some_and(|cpu| cpu.starts_with("gfx11"))
    };
    list.iter()
        .find(|e| is_gfx11(&e.triple) && !e.bytes.is_empty())
        .map(|e| e.bytes)
        .ok_or_else(|| {
            malformed(format!(
                "no gfx11 entry; it has {}",
                list.iter()
                    .map(|e| e.triple.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bundle(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut head = BUNDLE_MAGIC.to_vec();
        head.extend((entries.len() as u64).to_le_bytes());
        let header_len = head.len() + entries.iter().map(|(t, _)| 24 + t.len()).sum::<usize>();
        let mut data: Vec<u8> = Vec::new();
        for (t, b) in entries {
            head.extend(((header_len + data.len()) as u64).to_le_bytes());
            head.extend((b.len() as u64).to_le_bytes());
            head.extend((t.len() as u64).to_le_bytes());
            head.extend(t.as_bytes());
            data.extend(*b);
        }
        head.extend(data);
        head
    }

    #[test]
    fn picks_the_gfx11_entry() {
        let b = bundle(&[
            ("host-x86_64-unknown-linux-", b""),
            ("hipv4-amdgcn-amd-amdhsa--gfx1030", b"old"),
            ("hipv4-amdgcn-amd-amdhsa--gfx1100", b"new!"),
        ]);
        assert_eq!(&*code_object(&b).unwrap(), b"new!");
        assert_eq!(&*code_object(b"\x7fELF..").unwrap(), b"\x7fELF..");
        let none = bundle(&[("hipv4-amdgcn-amd-amdhsa--gfx1030", b"old")]);
        let e = code_object(&none).unwrap_err().to_string();
        assert!(e.contains("no gfx11 entry") && e.contains("gfx1030"), "{e}");
        let mut cut = b.clone();
        cut.truncate(40);
        assert!(code_object(&cut).is_err());
        // A triple length pointing into binary data: no bytes of it in the message.
        let mut damaged = b.clone();
        damaged[48..56].copy_from_slice(&100u64.to_le_bytes());
        let e = code_object(&damaged).unwrap_err().to_string();
        assert!(
            e.contains("is not a target name") && !e.contains('\0'),
            "{e}"
        );
    }

    /// A compressed bundle as LLVM's `CompressedOffloadBundle::compress` lays it out (see the
    /// module comment), around `bundle` compressed with `method` (0 zlib, 1 zstd).
    fn ccob(version: u16, method: u16, bundle: &[u8]) -> Vec<u8> {
        use std::io::Write;
        let data = if method == 0 {
            let mut z = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::default());
            z.write_all(bundle).unwrap();
            z.finish().unwrap()
        } else {
            zstd::encode_all(bundle, 3).unwrap()
        };
        let mut out = b"CCOB".to_vec();
        out.extend(version.to_le_bytes());
        out.extend(method.to_le_bytes());
        let n = bundle.len() as u64;
        let hash = 0x0123_4567_89ab_cdefu64; // not checked (LLVM does not either)
        match version {
            1 => out.extend((n as u32).to_le_bytes()),
            2 => {
                let total = 24 + data.len() as u32;
                out.extend(total.to_le_bytes());
                out.extend((n as u32).to_le_bytes());
            }
            _ => {
                let total = 32 + data.len() as u64;
                out.extend(total.to_le_bytes());
                out.extend(n.to_le_bytes());
            }
        }
        out.extend(hash.to_le_bytes());
        out.extend(data);
        out
    }

    #[test]
    fn reads_compressed_bundles_of_every_version_and_method() {
        let b = bundle(&[
            ("host-x86_64-unknown-linux-", b""),
            ("hipv4-amdgcn-amd-amdhsa--gfx1100", b"\x7fELF code"),
        ]);
        for version in 1..=3 {
            for method in 0..=1 {
                let c = ccob(version, method, &b);
                assert_eq!(
                    &*code_object(&c).unwrap(),
                    b"\x7fELF code",
                    "v{version} m{method}"
                );
            }
        }
        // A wrong uncompressed size, an unknown method or version: errors that say so.
        let mut c = ccob(2, 1, &b);
        c[12] ^= 1;
        let e = code_object(&c).unwrap_err().to_string();
        assert!(e.contains("uncompressed bytes"), "{e}");
        let mut c = ccob(2, 1, &b);
        c[6] = 7;
        assert!(code_object(&c)
            .unwrap_err()
            .to_string()
            .contains("method 7"));
        let mut c = ccob(2, 1, &b);
        c[4] = 9;
        assert!(code_object(&c)
            .unwrap_err()
            .to_string()
            .contains("version 9"));
        assert!(code_object(b"CCOB\x02").is_err());
    }
}
