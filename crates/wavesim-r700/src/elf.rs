//! The R700 code object: an ELF32 relocatable for EM_AMDGPU as llc-19 writes it for `r600--` targets.
//! `.text` holds the program; `.AMDGPU.config` holds (register, value) dword pairs; `e_flags` names the
//! chip (LLVM `EF_AMDGPU_MACH_R600_RV710/RV730/RV770` = 5/6/7).

use wavesim_core::elf::{header_flags, identify, ElfObject, EM_AMDGPU};

use crate::error::LoadError;
use crate::isa::Chip;

/// The object's contents wavesim uses.
#[derive(Clone, Debug)]
pub struct R700Object {
    pub chip: Chip,
    pub text: Vec<u8>,
    /// `.AMDGPU.config` (register, value) pairs.
    pub config: Vec<(u32, u32)>,
    /// Name of the first function symbol in `.text` (the shader entry), if any.
    pub entry: Option<String>,
}

/// True when `bytes` look like an R700 object (ELF32, EM_AMDGPU, an R700 chip in e_flags), read from the
/// header alone, so a front end can route the file here.
pub fn is_r700_object(bytes: &[u8]) -> bool {
    identify(bytes) == Some((EM_AMDGPU, false))
        && header_flags(bytes).and_then(Chip::from_e_flags).is_some()
}

/// Loads an R700 object through the shared ELF reader (`wavesim_core::elf`).
pub fn load(bytes: &[u8]) -> Result<R700Object, LoadError> {
    let elf = ElfObject::parse(bytes).map_err(|e| LoadError::Elf(e.to_string()))?;
    if elf.machine != EM_AMDGPU || elf.is_64 {
        return Err(LoadError::Elf(format!(
            "e_machine {} ({}), not an ELF32 EM_AMDGPU ({EM_AMDGPU}) object",
            elf.machine,
            if elf.is_64 { "ELF64" } else { "ELF32" }
        )));
    }
    let chip = Chip::from_e_flags(elf.e_flags).ok_or(LoadError::UnknownChip(elf.e_flags))?;
    let text_sec = elf
        .section(".text")
        .ok_or_else(|| LoadError::Elf("no .text section".into()))?;
    let mut config = Vec::new();
    if let Some(c) = elf.section(".AMDGPU.config") {
        if c.data.len() & 7 != 0 {
            return Err(LoadError::Elf(format!(
                ".AMDGPU.config is {} bytes, not whole (register, value) pairs",
                c.data.len()
            )));
        }
        for p in c.data.chunks_exact(8) {
            config.push((
                u32::from_le_bytes([p[0], p[1], p[2], p[3]]),
                u32::from_le_bytes([p[4], p[5], p[6], p[7]]),
            ));
        }
    }
    let entry = elf
        .symbols
        .iter()
        .find(|y| y.is_function && y.section == text_sec.index)
        .map(|y| y.name.clone());
    Ok(R700Object {
        chip,
        text: text_sec.data.clone(),
        config,
        entry,
    })
}

/// Names of the `.AMDGPU.config` registers the R600 back end writes (AMD register reference; LLVM
/// `R600AsmPrinter::EmitProgramInfoR600`).
pub fn config_register_name(reg: u32) -> Option<&'static str> {
    match reg {
        0x28850 => Some("SQ_PGM_RESOURCES_PS"),
        0x28868 => Some("SQ_PGM_RESOURCES_VS"),
        0x288D4 => Some("SQ_PGM_RESOURCES_GS"),
        0x288E8 => Some("SQ_PGM_RESOURCES_FS"),
        0x2880C => Some("DB_SHADER_CONTROL"),
        _ => None,
    }
}

/// Describes a config value: NUM_GPRS (bits 7:0) and STACK_SIZE (bits 15:8) for SQ_PGM_RESOURCES_*,
/// KILL_ENABLE (bit 6) for DB_SHADER_CONTROL.
pub fn describe_config(reg: u32, value: u32) -> String {
    match config_register_name(reg) {
        Some(n) if n.starts_with("SQ_PGM_RESOURCES") => {
            format!(
                "{n} = {value:#x} (NUM_GPRS = {}, STACK_SIZE = {})",
                value & 0xff,
                (value >> 8) & 0xff
            )
        }
        Some(n @ "DB_SHADER_CONTROL") => {
            format!("{n} = {value:#x} (KILL_ENABLE = {})", (value >> 6) & 1)
        }
        Some(n) => format!("{n} = {value:#x}"),
        None => format!("{reg:#x} = {value:#x}"),
    }
}
