//! The kernarg segment: explicit arguments placed as the metadata says, hidden arguments (code
//! object v5 implicit arguments) and the AQL dispatch packet (AMDGPUUsage, "Code Object V5
//! Metadata", "Kernel Dispatch").

use super::codeobj::{KernArg, Kernel, ValueKind};
use super::HsaError;
use crate::exec::operand::{PRIVATE_APERTURE, SHARED_APERTURE};
use wavesim_core::Geometry;

/// The hidden kernel arguments (code object v5 implicit arguments) of a dispatch.
#[derive(Debug, Clone, Copy, Default)]
pub struct HiddenValues {
    pub dynamic_lds: u32,
    pub queue_ptr: u64,
    /// Buffers the runtime would provide (printf, hostcall, heap); 0 = none (a kernel that uses
    /// one then faults at address 0, which names the problem).
    pub printf_buffer: u64,
    pub hostcall_buffer: u64,
    pub heap_v1: u64,
}

/// Writes every hidden argument of `args` into `kernarg` (code object v5 semantics; AMDGPUUsage,
/// "Code Object V5 Metadata", and the device libraries: `hidden_block_count_*` counts the full
/// workgroups, `hidden_remainder_*` the work-items of the partial last one, so that
/// `get_local_size` = id < block_count ? group_size : remainder).
pub fn write_hidden_args(kernarg: &mut [u8], args: &[KernArg], geo: &Geometry, h: &HiddenValues) {
    for a in args {
        let v: u64 = match &a.kind {
            ValueKind::HiddenBlockCountX => (geo.grid[0] / geo.local[0]) as u64,
            ValueKind::HiddenBlockCountY => (geo.grid[1] / geo.local[1]) as u64,
            ValueKind::HiddenBlockCountZ => (geo.grid[2] / geo.local[2]) as u64,
            ValueKind::HiddenGroupSizeX => geo.local[0] as u64,
            ValueKind::HiddenGroupSizeY => geo.local[1] as u64,
            ValueKind::HiddenGroupSizeZ => geo.local[2] as u64,
            ValueKind::HiddenRemainderX => (geo.grid[0] % geo.local[0]) as u64,
            ValueKind::HiddenRemainderY => (geo.grid[1] % geo.local[1]) as u64,
            ValueKind::HiddenRemainderZ => (geo.grid[2] % geo.local[2]) as u64,
            ValueKind::HiddenGlobalOffsetX => geo.offset[0],
            ValueKind::HiddenGlobalOffsetY => geo.offset[1],
            ValueKind::HiddenGlobalOffsetZ => geo.offset[2],
            ValueKind::HiddenGridDims => geo.dims as u64,
            ValueKind::HiddenDynamicLdsSize => h.dynamic_lds as u64,
            // High halves of the flat apertures (the 64-bit aperture bases have zero low halves).
            ValueKind::HiddenPrivateBase => PRIVATE_APERTURE >> 32,
            ValueKind::HiddenSharedBase => SHARED_APERTURE >> 32,
            ValueKind::HiddenQueuePtr => h.queue_ptr,
            ValueKind::HiddenPrintfBuffer => h.printf_buffer,
            ValueKind::HiddenHostcallBuffer => h.hostcall_buffer,
            ValueKind::HiddenHeapV1 => h.heap_v1,
            // No device-side enqueue, completion actions or multi-grid sync: null.
            ValueKind::HiddenDefaultQueue
            | ValueKind::HiddenCompletionAction
            | ValueKind::HiddenMultigridSyncArg
            | ValueKind::HiddenNone => 0,
            _ => continue,
        };
        let (off, size) = (a.offset as usize, (a.size as usize).min(8));
        if let Some(dst) = kernarg.get_mut(off..off + size) {
            dst.copy_from_slice(&v.to_le_bytes()[..size]);
        }
    }
}

/// The 64-byte AQL kernel dispatch packet (hsa_kernel_dispatch_packet_t) the dispatch pointer
/// SGPRs point to; code object v4 kernels read the workgroup and grid sizes from it.
pub fn aql_packet(
    geo: &Geometry,
    private_segment_size: u32,
    group_segment_size: u32,
    kernel_object: u64,
    kernarg_address: u64,
) -> [u8; 64] {
    let mut p = [0u8; 64];
    // Header: packet type KERNEL_DISPATCH (2), system-scope acquire and release fences.
    let header: u16 = 2 | (2 << 9) | (2 << 11);
    p[0..2].copy_from_slice(&header.to_le_bytes());
    p[2..4].copy_from_slice(&geo.dims.to_le_bytes());
    for i in 0..3 {
        p[4 + 2 * i..6 + 2 * i].copy_from_slice(&(geo.local[i] as u16).to_le_bytes());
        p[12 + 4 * i..16 + 4 * i].copy_from_slice(&geo.grid[i].to_le_bytes());
    }
    p[24..28].copy_from_slice(&private_segment_size.to_le_bytes());
    p[28..32].copy_from_slice(&group_segment_size.to_le_bytes());
    p[32..40].copy_from_slice(&kernel_object.to_le_bytes());
    p[40..48].copy_from_slice(&kernarg_address.to_le_bytes());
    p
}

/// One kernel argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A by-value argument: its little-endian bytes (size must match the kernel's).
    Value(Vec<u8>),
    /// A global buffer: its device address.
    Buffer(u64),
    /// An OpenCL `__local` pointer: that many bytes of dynamic LDS.
    Local(u32),
    /// An OpenCL image (`image2d_t`, metadata kind `image`): the device address of its 256-bit
    /// T# (what the kernel s_loads; build one with `exec::image::resource::image_descriptor`).
    Image(u64),
    /// An OpenCL `sampler_t` argument (kind `sampler`): the device address of its S#.
    Sampler(u64),
}

macro_rules! arg_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(v: $t) -> Arg {
                Arg::Value(v.to_le_bytes().to_vec())
            }
        }
    )*};
}
arg_from!(u8, u16, u32, u64, i8, i16, i32, i64, f32, f64);

/// Rejects workgroup shapes the kernel was not compiled for.
pub fn check_workgroup(k: &Kernel, geo: &Geometry) -> Result<(), HsaError> {
    let items = geo.local.iter().map(|&v| v as u64).product::<u64>();
    let max = k.meta.max_flat_workgroup_size;
    if max != 0 && items > max as u64 {
        return Err(HsaError::Args(format!(
            "kernel {}: workgroup of {items} work-items exceeds its max_flat_workgroup_size {max}",
            k.name
        )));
    }
    if let Some(r) = k.meta.reqd_workgroup_size {
        if r != geo.local {
            return Err(HsaError::Args(format!(
                "kernel {} requires workgroup size {}x{}x{}, got {}x{}x{}",
                k.name, r[0], r[1], r[2], geo.local[0], geo.local[1], geo.local[2]
            )));
        }
    }
    Ok(())
}

pub fn describe_kind(a: &KernArg) -> String {
    match a.kind {
        ValueKind::ByValue => format!("a {}-byte value", a.size),
        ValueKind::GlobalBuffer => "a global buffer".into(),
        ValueKind::DynamicSharedPointer => "a __local pointer (local:N)".into(),
        ValueKind::Image => "an image (the address of its T#)".into(),
        ValueKind::Sampler => "a sampler (the address of its S#)".into(),
        ref k => format!("an argument of kind {}", k.as_str()),
    }
}

/// Writes the explicit arguments into `kernarg`; returns the dynamic LDS bytes the `__local`
/// pointer arguments take (each placed after the static LDS, aligned to its pointee).
pub fn write_explicit_args(k: &Kernel, args: &[Arg], kernarg: &mut [u8]) -> Result<u32, HsaError> {
    let explicit: Vec<&KernArg> = k.explicit_args().collect();
    if explicit.len() != args.len() {
        return Err(HsaError::Args(format!(
            "kernel {} takes {} arguments, got {}: {}",
            k.name,
            explicit.len(),
            args.len(),
            k.signature()
        )));
    }
    let static_lds = k
        .descriptor
        .group_segment_fixed_size
        .max(k.meta.group_segment_fixed_size) as u64;
    let mut lds_end = static_lds;
    for (i, (a, v)) in explicit.iter().zip(args).enumerate() {
        let bad = |got: &str| {
            HsaError::Args(format!(
                "argument {} ({}) of {} is {}; got {got}",
                i + 1,
                a.name.as_deref().unwrap_or("unnamed"),
                k.signature(),
                describe_kind(a)
            ))
        };
        let bytes: Vec<u8> = match (&a.kind, v) {
            (ValueKind::ByValue, Arg::Value(b)) if b.len() == a.size as usize => b.clone(),
            (ValueKind::GlobalBuffer, Arg::Buffer(addr)) if a.size == 8 => {
                addr.to_le_bytes().to_vec()
            }
            (ValueKind::Image, Arg::Image(addr)) | (ValueKind::Sampler, Arg::Sampler(addr))
                if a.size == 8 =>
            {
                addr.to_le_bytes().to_vec()
            }
            (ValueKind::DynamicSharedPointer, Arg::Local(n)) => {
                let align = a.pointee_align.unwrap_or(16).max(1) as u64;
                let at = lds_end.next_multiple_of(align);
                lds_end = at + *n as u64;
                let b = (at as u32).to_le_bytes();
                b[..(a.size as usize).min(4)].to_vec()
            }
            (_, Arg::Value(b)) => return Err(bad(&format!("a {}-byte value", b.len()))),
            (_, Arg::Buffer(_)) => return Err(bad("a buffer")),
            (_, Arg::Local(_)) => return Err(bad("local:N")),
            (_, Arg::Image(_)) => return Err(bad("an image")),
            (_, Arg::Sampler(_)) => return Err(bad("a sampler")),
        };
        let off = a.offset as usize;
        kernarg
            .get_mut(off..off + bytes.len())
            .ok_or_else(|| bad("an argument outside the kernarg segment"))?
            .copy_from_slice(&bytes);
    }
    u32::try_from(lds_end - static_lds).map_err(|_| HsaError::Args("dynamic LDS too large".into()))
}
