//! Clang offload bundles (what `hipcc --genco` and `clang -x hip --cuda-device-only` write):
//! the magic `__CLANG_OFFLOAD_BUNDLE__`, a little-endian u64 entry count, then per entry its
//! u64 offset, u64 size, u64 triple length and the triple (`hipv4-amdgcn-amd-amdhsa--gfx1100`);
//! each entry is a whole code object (clang's ClangOffloadBundler.rst, "Bundled Binary File
//! Layout"). wavesim runs the gfx11 entry.
//!
//! Below the code-object parser (`codeobj`), which unwraps a bundle before reading the ELF.

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

/// The entries of an offload bundle, or `None` when `bytes` is not one.
pub fn entries(bytes: &[u8]) -> Result<Option<Vec<BundleEntry<'_>>>, BundleError> {
    if bytes.starts_with(COMPRESSED_BUNDLE_MAGIC) {
        return Err(malformed(
            "compressed bundles are not supported; unbundle it first with \
             clang-offload-bundler --unbundle --type=o --targets=hipv4-amdgcn-amd-amdhsa--gfx1100"
                .into(),
        ));
    }
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

/// The code object to run from `bytes`: `bytes` itself when it is no bundle, else the bundle's
/// (first) gfx11 AMDGPU entry; an error lists the entries when there is none.
pub fn code_object(bytes: &[u8]) -> Result<&[u8], BundleError> {
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
        assert_eq!(code_object(&b).unwrap(), b"new!");
        assert_eq!(code_object(b"\x7fELF..").unwrap(), b"\x7fELF..");
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
}
