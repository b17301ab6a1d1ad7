//! A code object with its kernels' COMPUTE_PGM_RSRC1.FLOAT_DENORM_MODE_32 (bits [17:16]: bit 0
//! keeps input denormals, bit 1 output ones; AMDGPUUsage, "compute_pgm_rsrc1 for GFX6-GFX12")
//! replaced, so the same compiler output runs with f32 denormals flushed (0) as a kernel built
//! with `-cl-denorms-are-zero` declares it. Shared by the corpus tests and the benchmarks.

use wavesim::{CodeObject, KernelDescriptor};

/// `elf` with every kernel descriptor's FLOAT_DENORM_MODE_32 set to `mode` (0..=3). Each
/// descriptor is found in the file by its 64 bytes (the parsed descriptor, whose entry offset
/// makes it unique), so the ELF's layout needs no second parser.
pub fn with_denorm32(elf: &[u8], mode: u32) -> Result<Vec<u8>, String> {
    let code = CodeObject::parse(elf).map_err(|e| e.to_string())?;
    let mut out = elf.to_vec();
    for k in &code.kernels {
        let at: Vec<usize> = (0..elf.len().saturating_sub(KernelDescriptor::SIZE - 1))
            .step_by(4)
            .filter(|&o| KernelDescriptor::parse(&elf[o..]) == Some(k.descriptor))
            .collect();
        let [o] = at[..] else {
            return Err(format!("{}: descriptor found {} times", k.name, at.len()));
        };
        let r = o + 48;
        let rsrc1 = u32::from_le_bytes([out[r], out[r + 1], out[r + 2], out[r + 3]]);
        let rsrc1 = rsrc1 & !(3 << 16) | (mode & 3) << 16;
        out[r..r + 4].copy_from_slice(&rsrc1.to_le_bytes());
    }
    Ok(out)
}
