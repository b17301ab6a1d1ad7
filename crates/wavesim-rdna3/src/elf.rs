//! AMDGPU code objects (ELF64) through wavesim-core's ELF reader, plus the HSA naming rule for
//! kernels: a kernel `K` has a function symbol `K` at its entry in `.text` and an object symbol
//! `K.kd` (64 bytes, in `.rodata`) holding its kernel descriptor (AMDGPUUsage, "Kernel
//! Descriptor").

pub use wavesim_core::elf::{ElfError, ElfObject as CodeObject, Section, Symbol};

/// Kernel names: function symbols `K` for which a `K.kd` descriptor symbol exists.
pub fn kernel_names(obj: &CodeObject) -> Vec<String> {
    obj.symbols
        .iter()
        .filter(|s| s.is_function)
        .filter(|s| {
            let kd = format!("{}.kd", s.name);
            obj.symbols.iter().any(|t| t.name == kd)
        })
        .map(|s| s.name.clone())
        .collect()
}
