//! The R700 code object: an ELF32 relocatable for EM_AMDGPU as llc-19 writes it for `r600--` targets.
//! `.text` holds the program; `.AMDGPU.config` holds (register, value) dword pairs; `e_flags` names the
//! chip (LLVM `EF_AMDGPU_MACH_R600_RV710/RV730/RV770` = 5/6/7).

use object::elf::{FileHeader32, EM_AMDGPU};
use object::read::elf::{FileHeader, SectionHeader};
use object::LittleEndian as LE;

use crate::isa::Chip;
use crate::LoadError;

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

/// True when `bytes` look like an R700 object (ELF32, EM_AMDGPU, an R700 chip in e_flags), so a front end
/// can route the file here.
pub fn is_r700_object(bytes: &[u8]) -> bool {
    match FileHeader32::<LE>::parse(bytes) {
        Ok(h) => h.e_machine(LE) == EM_AMDGPU && Chip::from_e_flags(h.e_flags(LE)).is_some(),
        Err(_) => false,
    }
}

pub fn load(bytes: &[u8]) -> Result<R700Object, LoadError> {
    let h = FileHeader32::<LE>::parse(bytes)
        .map_err(|e| LoadError::Elf(format!("not an ELF32 little-endian file: {e}")))?;
    if h.e_machine(LE) != EM_AMDGPU {
        return Err(LoadError::Elf(format!(
            "e_machine is {}, not EM_AMDGPU ({EM_AMDGPU})",
            h.e_machine(LE)
        )));
    }
    let flags = h.e_flags(LE);
    let chip = Chip::from_e_flags(flags).ok_or(LoadError::UnknownChip(flags))?;
    let sections = h
        .sections(LE, bytes)
        .map_err(|e| LoadError::Elf(format!("bad section table: {e}")))?;
    let mut text = None;
    let mut config = Vec::new();
    let mut text_index = None;
    for (i, s) in sections.iter().enumerate() {
        let name = sections
            .section_name(LE, s)
            .map_err(|e| LoadError::Elf(format!("bad section name: {e}")))?;
        let data = || {
            s.data(LE, bytes)
                .map_err(|e| LoadError::Elf(format!("bad section data: {e}")))
        };
        match name {
            b".text" => {
                text = Some(data()?.to_vec());
                text_index = Some(i);
            }
            b".AMDGPU.config" => {
                let d = data()?;
                if d.len() & 7 != 0 {
                    return Err(LoadError::Elf(format!(
                        ".AMDGPU.config is {} bytes, not whole (register, value) pairs",
                        d.len()
                    )));
                }
                for c in d.chunks_exact(8) {
                    config.push((
                        u32::from_le_bytes([c[0], c[1], c[2], c[3]]),
                        u32::from_le_bytes([c[4], c[5], c[6], c[7]]),
                    ));
                }
            }
            _ => {}
        }
    }
    let text = text.ok_or_else(|| LoadError::Elf("no .text section".into()))?;
    let mut entry = None;
    if let Ok(symbols) = sections.symbols(LE, bytes, object::elf::SHT_SYMTAB) {
        for sym in symbols.iter() {
            use object::read::elf::Sym;
            if sym.st_type() == object::elf::STT_FUNC
                && Some(sym.st_shndx(LE) as usize) == text_index
            {
                if let Ok(n) = sym.name(LE, symbols.strings()) {
                    entry = Some(String::from_utf8_lossy(n).into_owned());
                    break;
                }
            }
        }
    }
    Ok(R700Object {
        chip,
        text,
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
