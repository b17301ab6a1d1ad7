//! The one ELF reader of wavesim: machine, class and flags, sections and symbols, for every back
//! end (RDNA3 code objects are ELF64 shared objects, R700 shaders ELF32 relocatable objects, both
//! EM_AMDGPU, told apart by class and `e_flags`).
//!
//! It only answers "what machine is this for", "where is the code" and "which symbols name
//! what"; each back end's loader adds its own meaning (kernel descriptors and metadata for
//! RDNA3, `.AMDGPU.config` for R700). Built on the `object` crate; never panics on malformed
//! input.

use object::{Object, ObjectSection, ObjectSymbol, SectionKind, SymbolKind};

/// Errors reading a code object.
#[derive(Debug, thiserror::Error)]
pub enum ElfError {
    #[error("not a readable ELF file: {0}")]
    Parse(String),
    #[error("section {name} has no data in the file: {reason}")]
    Section { name: String, reason: String },
}

/// One section of the code object with its bytes.
#[derive(Clone, Debug)]
pub struct Section {
    /// ELF section index.
    pub index: usize,
    pub name: String,
    /// Virtual address the section is loaded at.
    pub address: u64,
    pub data: Vec<u8>,
    pub executable: bool,
}

/// One symbol of the static symbol table (`.symtab`; `.dynsym` when there is none).
#[derive(Clone, Debug)]
pub struct Symbol {
    pub name: String,
    pub address: u64,
    pub size: u64,
    /// Index of the section the symbol is defined in (0 for undefined/absolute symbols).
    pub section: usize,
    /// A function (`STT_FUNC`): kernel entries and called functions.
    pub is_function: bool,
    /// A data object (`STT_OBJECT`), e.g. `NAME.kd` kernel descriptors.
    pub is_object: bool,
    /// A symbol llvm-objdump prints as a `<name>:` label when it lies in an executable section
    /// (not section or file symbols).
    pub is_label: bool,
}

/// ELF `e_machine` of AMD GPUs (R600 family and GCN/RDNA alike).
pub const EM_AMDGPU: u16 = 224;

/// The parts of an ELF file the disassemblers and loaders need.
#[derive(Clone, Debug)]
pub struct ElfObject {
    /// ELF `e_machine`.
    pub machine: u16,
    /// ELFCLASS64 (else ELFCLASS32).
    pub is_64: bool,
    /// ELF `e_flags` (for AMDGPU the chip, e.g. gfx1100 or rv770, and feature bits).
    pub e_flags: u32,
    /// Executable sections (normally just `.text`), in section-header order.
    pub text_sections: Vec<Section>,
    /// Every section with file data, including `.rodata` (kernel descriptors) and `.note`.
    pub sections: Vec<Section>,
    pub symbols: Vec<Symbol>,
}

impl ElfObject {
    /// Parses an ELF file. Never panics on malformed input.
    pub fn parse(bytes: &[u8]) -> Result<ElfObject, ElfError> {
        let (machine, is_64) = identify(bytes).ok_or_else(|| {
            ElfError::Parse("no ELF header (the file does not start with 0x7f 'E' 'L' 'F')".into())
        })?;
        let file = object::File::parse(bytes).map_err(|e| ElfError::Parse(e.to_string()))?;
        let e_flags = match file.flags() {
            object::FileFlags::Elf { e_flags, .. } => e_flags,
            _ => 0,
        };
        let mut sections = Vec::new();
        let mut text_sections = Vec::new();
        for s in file.sections() {
            let name = s.name().unwrap_or("").to_string();
            if matches!(
                s.kind(),
                SectionKind::UninitializedData | SectionKind::Metadata
            ) {
                continue;
            }
            let data = s.data().map_err(|e| ElfError::Section {
                name: name.clone(),
                reason: e.to_string(),
            })?;
            let sec = Section {
                index: s.index().0,
                name,
                address: s.address(),
                data: data.to_vec(),
                executable: s.kind() == SectionKind::Text,
            };
            if sec.executable {
                text_sections.push(sec.clone());
            }
            sections.push(sec);
        }
        let mut symbols = Vec::new();
        let table: Vec<object::Symbol> = if file.symbol_table().is_some() {
            file.symbols().collect()
        } else {
            file.dynamic_symbols().collect()
        };
        for y in table {
            let Ok(name) = y.name() else { continue };
            if name.is_empty() {
                continue;
            }
            let kind = y.kind();
            symbols.push(Symbol {
                name: name.to_string(),
                address: y.address(),
                size: y.size(),
                section: y.section_index().map(|i| i.0).unwrap_or(0),
                is_function: kind == SymbolKind::Text,
                is_object: kind == SymbolKind::Data,
                is_label: !matches!(kind, SymbolKind::Section | SymbolKind::File),
            });
        }
        Ok(ElfObject {
            machine,
            is_64,
            e_flags,
            text_sections,
            sections,
            symbols,
        })
    }

    /// The section with the given name.
    pub fn section(&self, name: &str) -> Option<&Section> {
        self.sections.iter().find(|s| s.name == name)
    }

    /// The bytes of symbol `name` (its `size` bytes at its address in its section).
    pub fn symbol_bytes(&self, name: &str) -> Option<&[u8]> {
        let y = self.symbols.iter().find(|s| s.name == name)?;
        let sec = self.sections.iter().find(|s| s.index == y.section)?;
        let start = y.address.checked_sub(sec.address)? as usize;
        let end = start.checked_add(y.size as usize)?;
        sec.data.get(start..end)
    }
}

/// `e_machine` and class (true = ELFCLASS64) of an ELF file, read from its header alone; `None`
/// when `bytes` is not an ELF file. Enough to choose a back end before parsing further.
pub fn identify(bytes: &[u8]) -> Option<(u16, bool)> {
    if bytes.len() < 20 || bytes[..4] != [0x7f, b'E', b'L', b'F'] {
        return None;
    }
    let is_64 = match bytes[4] {
        1 => false,
        2 => true,
        _ => return None,
    };
    // e_machine at offset 18 in both classes; the data encoding decides the byte order.
    let m = [bytes[18], bytes[19]];
    let machine = if bytes[5] == 2 {
        u16::from_be_bytes(m)
    } else {
        u16::from_le_bytes(m)
    };
    Some((machine, is_64))
}

/// `e_flags` of an ELF file, read from its header alone (offset 36 in ELF32, 48 in ELF64).
pub fn header_flags(bytes: &[u8]) -> Option<u32> {
    let (_, is_64) = identify(bytes)?;
    let at = if is_64 { 48 } else { 36 };
    let f: [u8; 4] = bytes.get(at..at + 4)?.try_into().ok()?;
    Some(if bytes[5] == 2 {
        u32::from_be_bytes(f)
    } else {
        u32::from_le_bytes(f)
    })
}
