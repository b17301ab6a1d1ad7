//! Limits on the sizes a user or an input file gives, checked before anything of that size is
//! allocated: a corrupt descriptor or a mistyped flag must give an error naming the field and
//! the limit, not a multi-gigabyte allocation that aborts the process (and, through the C ABI
//! or Python, the caller with it). The limits are wavesim's, chosen far above what real kernels
//! and tools ask for and far below what would exhaust a host.

use thiserror::Error;

/// Kernarg segment bytes (descriptor `kernarg_size`, metadata `.kernarg_segment_size`). Real
/// kernels use hundreds of bytes; runtimes cap explicit arguments at a few KiB (HIP and CUDA:
/// 4 KiB, CUDA 12.1+: 32 KiB).
pub const MAX_KERNARG_BYTES: u64 = 64 * 1024;

/// Private (scratch) bytes per work-item. Compilers spill kilobytes; a wave64 workgroup of
/// 1024 work-items at this limit needs 256 MiB of scratch per host thread.
pub const MAX_SCRATCH_LANE_BYTES: u64 = 256 * 1024;

/// Scratch bytes of one dispatch (per-work-item bytes x work-items in flight x host threads).
pub const MAX_SCRATCH_TOTAL_BYTES: u64 = 4 << 30;

/// Host threads one dispatch runs on: more than any host has cores; more threads only cost
/// stacks and start-up time (and thousands exhaust the process's stack space).
pub const MAX_HOST_THREADS: usize = 256;

/// Bytes of one image or texture given on the command line or in a config (16384 x 16384 x
/// 4 bytes, the largest 2-D RGBA8 texture of the hardware modelled).
pub const MAX_IMAGE_BYTES: u64 = 1 << 30;

/// Bytes of all render targets of one draw together.
pub const MAX_RENDER_TARGET_BYTES: u64 = 1 << 30;

/// Bytes of one buffer given on the command line or in a config.
pub const MAX_BUFFER_BYTES: u64 = 4 << 30;

/// Bytes of device memory one debugger or Python read copies out.
pub const MAX_READ_BYTES: u64 = 256 << 20;

/// Bytes of one input file (object, bundle, config, assembler text): a larger file (or a device
/// such as /dev/zero) is refused instead of read until memory runs out.
pub const MAX_INPUT_FILE_BYTES: u64 = 1 << 30;

/// A size over its limit.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("{field} is {value} {unit}; at most {limit} {unit}")]
pub struct TooLarge {
    /// The field or argument that gave the size, as the user knows it.
    pub field: String,
    pub value: u64,
    pub limit: u64,
    /// "bytes", "threads", ...
    pub unit: &'static str,
}

/// `value` bytes of `field`, or the error naming both and `limit`.
pub fn check_bytes(field: &str, value: u64, limit: u64) -> Result<u64, TooLarge> {
    if value > limit {
        return Err(TooLarge {
            field: field.into(),
            value,
            limit,
            unit: "bytes",
        });
    }
    Ok(value)
}

/// Private bytes per work-item as the launch uses them (`value` rounded up to whole dwords), or
/// the error naming `field` when over [`MAX_SCRATCH_LANE_BYTES`] (checked before rounding, so
/// 0xFFFFFFFD does not wrap to 0).
pub fn scratch_lane_bytes(field: &str, value: u64) -> Result<u32, TooLarge> {
    check_bytes(field, value, MAX_SCRATCH_LANE_BYTES)?;
    Ok(value.next_multiple_of(4) as u32)
}

/// The host threads a dispatch of `workgroups` workgroups runs on when `asked` are asked for:
/// at least 1, at most [`MAX_HOST_THREADS`] and at most one per workgroup.
pub fn host_threads(asked: usize, workgroups: u64) -> usize {
    let work = usize::try_from(workgroups.max(1)).unwrap_or(usize::MAX);
    asked.clamp(1, MAX_HOST_THREADS).min(work)
}

/// Reads the file at `path`, refusing files over [`MAX_INPUT_FILE_BYTES`] (and endless devices
/// such as /dev/zero) without reading more than the limit.
pub fn read_input_file(path: &std::path::Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let f = std::fs::File::open(path)?;
    let meta = f.metadata()?;
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        let t = meta.file_type();
        if t.is_char_device() || t.is_block_device() {
            return Err(std::io::Error::other("a device, not a file"));
        }
    }
    if meta.is_dir() {
        return Err(std::io::Error::other("a directory, not a file"));
    }
    if meta.len() > MAX_INPUT_FILE_BYTES {
        return Err(too_big());
    }
    let mut out = Vec::new();
    f.take(MAX_INPUT_FILE_BYTES + 1).read_to_end(&mut out)?;
    if out.len() as u64 > MAX_INPUT_FILE_BYTES {
        return Err(too_big());
    }
    Ok(out)
}

fn too_big() -> std::io::Error {
    std::io::Error::other(format!(
        "larger than {MAX_INPUT_FILE_BYTES} bytes (the input file limit)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn threads_are_clamped_to_the_work_and_the_maximum() {
        assert_eq!(host_threads(0, 10), 1);
        assert_eq!(host_threads(100_000, 1 << 40), MAX_HOST_THREADS);
        assert_eq!(host_threads(3000, 3), 3);
        assert_eq!(host_threads(4, 0), 1);
    }

    #[test]
    fn sizes_over_the_limit_name_field_and_limit() {
        let e = check_bytes("kernarg_size", 0xFFFF_FFFF, MAX_KERNARG_BYTES).unwrap_err();
        assert_eq!(
            e.to_string(),
            "kernarg_size is 4294967295 bytes; at most 65536 bytes"
        );
        assert_eq!(check_bytes("x", 5, 5), Ok(5));
        assert_eq!(scratch_lane_bytes("s", 5), Ok(8));
        assert!(scratch_lane_bytes("s", 0xFFFF_FFFD).is_err());
    }
}
