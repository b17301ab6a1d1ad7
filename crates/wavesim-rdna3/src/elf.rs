//! Minimal reading of AMDGPU code objects (ELF64): executable sections and symbols.
//!
//! This is the thin layer under the disassembler and the code-object loader (`codeobj.rs`, which
//! adds kernel descriptors and metadata on top): it only answers "where is the code" and "which
//! symbols name what". A kernel `K` has a function symbol `K` at its entry in `.text` and an
//! object symbol `K.kd` (64 bytes, in `.rodata`) holding its kernel descriptor
//! (AMDGPUUsage, "Kernel Descriptor").

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

/// The parts of a code object the disassembler and the loader need.
#[derive(Clone, Debug)]
pub struct CodeObject {
    /// ELF `e_flags` (the AMDGPU machine, e.g. gfx1100, and feature bits).
    pub e_flags: u32,
    /// Executable sections (normally just `.text`), in section-header order.
    pub text_sections: Vec<Section>,
    /// Every section with file data, including `.rodata` (kernel descriptors) and `.note`.
    pub sections: Vec<Section>,
    pub symbols: Vec<Symbol>,
}

impl CodeObject {
    /// Parses an ELF code object. Never panics on malformed input.
    pub fn parse(bytes: &[u8]) -> Result<CodeObject, ElfError> {
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
        Ok(CodeObject {
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

    /// Kernel names: function symbols `K` for which a `K.kd` descriptor symbol exists.
    pub fn kernel_names(&self) -> Vec<String> {
        self.symbols
            .iter()
            .filter(|s| s.is_function)
            .filter(|s| {
                let kd = format!("{}.kd", s.name);
                self.symbols.iter().any(|t| t.name == kd)
            })
            .map(|s| s.name.clone())
            .collect()
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
