//! A loaded, decoded shader: the object's program plus its `.AMDGPU.config` registers.

use crate::decode::Program;
use crate::disasm::{self, Syntax};
use crate::elf;
use crate::error::{DecodeError, LoadError};
use crate::isa::Chip;

/// A loaded, decoded shader.
#[derive(Clone)]
pub struct Shader {
    pub program: Program,
    /// `.AMDGPU.config` pairs (empty for raw bytes).
    pub config: Vec<(u32, u32)>,
    pub entry: Option<String>,
}

impl Shader {
    pub fn from_object_bytes(bytes: &[u8]) -> Result<Shader, LoadError> {
        let obj = elf::load(bytes)?;
        let program = Program::decode(obj.chip, &obj.text)?;
        Ok(Shader {
            program,
            config: obj.config,
            entry: obj.entry,
        })
    }

    /// Bare `.text` bytes for a given chip (`wavesim disasm --raw --target rv770`).
    pub fn from_raw(chip: Chip, text: &[u8]) -> Result<Shader, DecodeError> {
        Ok(Shader {
            program: Program::decode(chip, text)?,
            config: Vec::new(),
            entry: None,
        })
    }

    pub fn chip(&self) -> Chip {
        self.program.chip
    }

    /// Program body in llc's syntax; each line starts with a tab, as llc prints it.
    pub fn disassemble(&self, syntax: Syntax) -> String {
        disasm::disassemble_program(&self.program, syntax)
    }

    /// The `.AMDGPU.config` registers by name, one per line.
    pub fn config_text(&self) -> String {
        self.config
            .iter()
            .map(|(r, v)| format!("{}\n", elf::describe_config(*r, *v)))
            .collect()
    }

    /// NUM_GPRS and STACK_SIZE from SQ_PGM_RESOURCES_PS/VS, if present.
    pub fn resources(&self) -> Option<(u32, u32)> {
        self.config
            .iter()
            .find(|(r, _)| matches!(*r, 0x28850 | 0x28868 | 0x288D4 | 0x288E8))
            .map(|(_, v)| (v & 0xff, (v >> 8) & 0xff))
    }

    /// DB_SHADER_CONTROL.KILL_ENABLE.
    pub fn kill_enable(&self) -> bool {
        self.config
            .iter()
            .any(|(r, v)| *r == 0x2880C && v & 0x40 != 0)
    }

    /// Full listing for a front end: config registers by name, then the program.
    pub fn listing(&self) -> String {
        let mut s = format!("; chip {}\n", self.chip().name());
        for line in self.config_text().lines() {
            s += &format!("; {line}\n");
        }
        s + &self.disassemble(Syntax::Full)
    }
}
