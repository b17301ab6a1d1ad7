//! PAL code objects (`-mtriple=amdgcn--amdpal`): the code, the entry points of the hardware
//! stages and the SPI register values from the msgpack metadata note (NT_AMDGPU_METADATA,
//! owner "AMDGPU"; AMDGPUUsage "Code Object Metadata" for the PAL ABI: `amdpal.pipelines[0]`
//! with `.hardware_stages` and `.registers`, register offset -> value).

use crate::exec::Program;
use serde::Deserialize;
use std::collections::BTreeMap;
use wavesim_core::elf::ElfObject;

/// Register offsets (dword offsets in the gfx11 register space, as the metadata keys them).
pub mod reg {
    pub const SPI_SHADER_PGM_RSRC1_PS: u32 = 0x2c0a;
    pub const SPI_SHADER_PGM_RSRC2_PS: u32 = 0x2c0b;
    pub const SPI_SHADER_PGM_RSRC1_VS: u32 = 0x2c4a;
    pub const SPI_SHADER_PGM_RSRC2_VS: u32 = 0x2c4b;
    pub const SPI_SHADER_PGM_RSRC1_GS: u32 = 0x2c8a;
    pub const SPI_SHADER_PGM_RSRC2_GS: u32 = 0x2c8b;
    pub const SPI_SHADER_PGM_RSRC1_HS: u32 = 0x2d0a;
    pub const SPI_SHADER_PGM_RSRC2_HS: u32 = 0x2d0b;
    pub const SPI_PS_INPUT_ENA: u32 = 0xa1b3;
    pub const SPI_PS_INPUT_ADDR: u32 = 0xa1b4;
    pub const SPI_PS_IN_CONTROL: u32 = 0xa1b6;
}

#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum PalError {
    #[error("not an AMDGPU ELF object: {0}")]
    Elf(String),
    #[error("no PAL metadata note (NT_AMDGPU_METADATA) in the object")]
    NoMetadata,
    #[error("bad PAL metadata: {0}")]
    Metadata(String),
    #[error("the object has no {0} hardware stage")]
    NoStage(String),
    #[error("entry point {0} is not a symbol of the object")]
    NoEntry(String),
    #[error("the code does not decode: {0}")]
    Decode(String),
}

/// One hardware stage of the pipeline metadata.
#[derive(Clone, Debug, Default, Deserialize, PartialEq, Eq)]
pub struct HwStage {
    #[serde(rename = ".entry_point", default)]
    pub entry_point: String,
    #[serde(rename = ".vgpr_count", default)]
    pub vgpr_count: u32,
    #[serde(rename = ".sgpr_count", default)]
    pub sgpr_count: u32,
    #[serde(rename = ".scratch_memory_size", default)]
    pub scratch_memory_size: u32,
    #[serde(rename = ".lds_size", default)]
    pub lds_size: u32,
    #[serde(rename = ".wavefront_size", default)]
    pub wavefront_size: u32,
}

#[derive(Deserialize)]
struct RawPipeline {
    #[serde(rename = ".hardware_stages", default)]
    hardware_stages: BTreeMap<String, HwStage>,
    #[serde(rename = ".registers", default)]
    registers: BTreeMap<u32, u32>,
}

#[derive(Deserialize)]
struct RawPal {
    #[serde(rename = "amdpal.pipelines", default)]
    pipelines: Vec<RawPipeline>,
}

/// A PAL shader object: its decoded code and pipeline metadata.
#[derive(Clone, Debug)]
pub struct PalObject {
    /// `.text`, decoded with its first byte at 0.
    pub program: Program,
    pub text: Vec<u8>,
    /// Hardware stages by name without the dot ("ps", "vs", "gs", "hs").
    pub stages: BTreeMap<String, HwStage>,
    pub registers: BTreeMap<u32, u32>,
    symbols: BTreeMap<String, u64>,
}

/// The notes of a SHT_NOTE section: (owner, type, descriptor).
fn notes(data: &[u8]) -> Vec<(&[u8], u32, &[u8])> {
    let mut out = Vec::new();
    let mut at = 0usize;
    let word = |a: usize| -> Option<u32> {
        Some(u32::from_le_bytes(data.get(a..a + 4)?.try_into().ok()?))
    };
    while let (Some(namesz), Some(descsz), Some(ty)) = (word(at), word(at + 4), word(at + 8)) {
        let name_at = at + 12;
        let desc_at = name_at + (namesz as usize).next_multiple_of(4);
        let end = desc_at + (descsz as usize).next_multiple_of(4);
        let (Some(name), Some(desc)) = (
            data.get(name_at..name_at + namesz as usize),
            data.get(desc_at..desc_at + descsz as usize),
        ) else {
            break;
        };
        let name = name.strip_suffix(&[0]).unwrap_or(name);
        out.push((name, ty, desc));
        at = end;
    }
    out
}

impl PalObject {
    pub fn parse(bytes: &[u8]) -> Result<PalObject, PalError> {
        let elf = ElfObject::parse(bytes).map_err(|e| PalError::Elf(e.to_string()))?;
        if elf.machine != wavesim_core::elf::EM_AMDGPU {
            return Err(PalError::Elf(format!("machine {}", elf.machine)));
        }
        let mut meta = None;
        for s in elf.sections.iter().filter(|s| s.name.starts_with(".note")) {
            for (owner, ty, desc) in notes(&s.data) {
                if owner == b"AMDGPU" && ty == 32 {
                    meta = Some(desc.to_vec());
                }
            }
        }
        let meta = meta.ok_or(PalError::NoMetadata)?;
        let raw: RawPal =
            rmp_serde::from_slice(&meta).map_err(|e| PalError::Metadata(e.to_string()))?;
        let pipe = raw
            .pipelines
            .into_iter()
            .next()
            .ok_or_else(|| PalError::Metadata("amdpal.pipelines is empty".into()))?;
        let text = elf
            .section(".text")
            .map(|s| s.data.clone())
            .ok_or_else(|| PalError::Elf("no .text section".into()))?;
        let program = Program::new(&text, 0).map_err(|e| PalError::Decode(e.to_string()))?;
        let symbols = elf
            .symbols
            .iter()
            .filter(|s| s.is_function)
            .map(|s| (s.name.clone(), s.address))
            .collect();
        let stages = pipe
            .hardware_stages
            .into_iter()
            .map(|(k, v)| (k.trim_start_matches('.').to_string(), v))
            .collect();
        Ok(PalObject {
            program,
            text,
            stages,
            registers: pipe.registers,
            symbols,
        })
    }

    /// A register value from the metadata (0 when the object does not set it).
    pub fn reg(&self, offset: u32) -> u32 {
        self.registers.get(&offset).copied().unwrap_or(0)
    }

    /// The hardware stage `name` ("ps", "vs", "gs", "hs") and its entry address in `.text`.
    pub fn stage(&self, name: &str) -> Result<(&HwStage, u64), PalError> {
        let st = self
            .stages
            .get(name)
            .ok_or_else(|| PalError::NoStage(name.into()))?;
        let entry = *self
            .symbols
            .get(&st.entry_point)
            .ok_or_else(|| PalError::NoEntry(st.entry_point.clone()))?;
        Ok((st, entry))
    }
}

/// The MODE register a wave starts with, from SPI_SHADER_PGM_RSRC1_* (same FLOAT_MODE,
/// DX10_CLAMP and IEEE_MODE bits as COMPUTE_PGM_RSRC1; see `KernelDescriptor::initial_mode`).
pub fn initial_mode(rsrc1: u32) -> u32 {
    use crate::rsrc::rsrc1 as r1;
    let f = |shift: u32| (rsrc1 >> shift) & 3;
    f(r1::FLOAT_ROUND_MODE_32_SHIFT)
        | f(r1::FLOAT_ROUND_MODE_16_64_SHIFT) << 2
        | f(r1::FLOAT_DENORM_MODE_32_SHIFT) << 4
        | f(r1::FLOAT_DENORM_MODE_16_64_SHIFT) << 6
        | u32::from(rsrc1 & r1::ENABLE_DX10_CLAMP != 0) << 8
        | u32::from(rsrc1 & r1::ENABLE_IEEE_MODE != 0) << 9
}

/// VGPRs a wave is allocated for `used` (RDNA3 ISA guide, ch. 3 "Wave state": blocks of 16 in wave32, 8 in wave64).
pub fn allocated_vgprs(used: u32, wave64: bool) -> u16 {
    let g = if wave64 { 8 } else { 16 };
    used.max(1).next_multiple_of(g).min(256) as u16
}

impl PalObject {
    /// A PS launch template from the metadata (SPI_PS_INPUT_ENA/ADDR, RSRC1/2_PS, VGPRs) and
    /// the entry address; the caller fills in the pixels (inputs, EXEC, primitives).
    pub fn ps_setup(&self, wave64: bool) -> Result<(crate::gfx::ps::PsWaveSetup, u64), PalError> {
        let (st, entry) = self.stage("ps")?;
        let lanes = if wave64 { 64 } else { 32 };
        let setup = crate::gfx::ps::PsWaveSetup {
            wave64,
            num_vgprs: allocated_vgprs(st.vgpr_count, wave64),
            spi_ps_input_ena: self.reg(reg::SPI_PS_INPUT_ENA),
            spi_ps_input_addr: self.reg(reg::SPI_PS_INPUT_ADDR),
            rsrc2: self.reg(reg::SPI_SHADER_PGM_RSRC2_PS),
            user_sgprs: vec![0; 32],
            exec: 0,
            inputs: vec![[0; crate::gfx::ps::PS_INPUT_VGPRS]; lanes],
            quad_prims: vec![0; lanes / 4],
            prims: vec![crate::gfx::ps::PrimParams::default()],
            lds_param_offset: 0,
            lds_bytes: 65536,
            skip_export: false,
            mode: initial_mode(self.reg(reg::SPI_SHADER_PGM_RSRC1_PS)),
            scratch_addr: 0,
            scratch_lane_bytes: 0,
        };
        Ok((setup, entry))
    }
}
