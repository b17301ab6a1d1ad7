//! HSA code objects (AMDGPU ELF, code object v4/v5/v6) for gfx11: kernels, their 64-byte kernel
//! descriptors and the msgpack metadata note (AMDGPUUsage, "Code Object V4/V5 Metadata" and
//! "Kernel Descriptor").
//!
//! A code object is a shared ELF object: PT_LOAD segments hold `.rodata` (the `NAME.kd`
//! descriptors and constant tables), `.text` and `.dynamic`. Kernels address `.rodata` relative to
//! the PC (`s_getpc_b64` + offset), so the loader maps the whole image into device memory at one
//! base and every address (PC included) is `base + ELF virtual address`; see [`CodeObject::image`].

use object::elf;
use object::read::elf::{ElfFile64, FileHeader, ProgramHeader};
use object::{
    LittleEndian, Object, ObjectSection, ObjectSymbol, ObjectSymbolTable, RelocationFlags,
    RelocationTarget,
};
use serde::Deserialize;
use thiserror::Error;

/// Why a code object could not be read.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum CodeObjectError {
    #[error("malformed ELF: {0}")]
    Malformed(String),
    #[error("not an AMDGPU HSA code object: {0}")]
    NotAmdgpu(String),
    #[error(
        "unsupported code object version: ELF ABI version {abi_version} (code object v{}); \
         wavesim reads HSA code object v4, v5 and v6",
        abi_version + 2
    )]
    UnsupportedVersion { abi_version: u8 },
    #[error("unsupported target {0}: wavesim runs gfx11 (RDNA3) code")]
    UnsupportedTarget(String),
    #[error("bad AMDGPU metadata note: {0}")]
    Metadata(String),
    #[error("kernel {name}: {why}")]
    BadKernel { name: String, why: String },
}

impl From<super::bundle::BundleError> for CodeObjectError {
    fn from(e: super::bundle::BundleError) -> Self {
        CodeObjectError::Malformed(e.to_string())
    }
}

fn malformed(e: impl std::fmt::Display) -> CodeObjectError {
    CodeObjectError::Malformed(e.to_string())
}

/// The 64-byte kernel descriptor `NAME.kd` (AMDGPUUsage, "Kernel Descriptor", gfx10+ layout).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct KernelDescriptor {
    /// Bytes of statically allocated LDS per workgroup.
    pub group_segment_fixed_size: u32,
    /// Bytes of statically allocated private (scratch) memory per work-item.
    pub private_segment_fixed_size: u32,
    /// Bytes of the kernarg segment (explicit and hidden arguments).
    pub kernarg_size: u32,
    /// Byte offset of the kernel's first instruction from the descriptor's own address.
    pub kernel_code_entry_byte_offset: i64,
    pub compute_pgm_rsrc3: u32,
    pub compute_pgm_rsrc1: u32,
    pub compute_pgm_rsrc2: u32,
    pub kernel_code_properties: u16,
    /// Kernarg preload (gfx940/gfx12): length in [6:0], offset in [15:7]; unused on gfx11.
    pub kernarg_preload: u16,
}

/// The descriptor's register fields live below the dispatch that reads them (`crate::rsrc`).
pub use crate::rsrc::{kcp, rsrc1, rsrc2};

impl KernelDescriptor {
    /// Size of a descriptor in bytes.
    pub const SIZE: usize = 64;

    /// Parses the 64 descriptor bytes.
    pub fn parse(b: &[u8]) -> Option<KernelDescriptor> {
        if b.len() < Self::SIZE {
            return None;
        }
        let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let u16_at = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
        let mut e = [0u8; 8];
        e.copy_from_slice(&b[16..24]);
        Some(KernelDescriptor {
            group_segment_fixed_size: u32_at(0),
            private_segment_fixed_size: u32_at(4),
            kernarg_size: u32_at(8),
            kernel_code_entry_byte_offset: i64::from_le_bytes(e),
            compute_pgm_rsrc3: u32_at(44),
            compute_pgm_rsrc1: u32_at(48),
            compute_pgm_rsrc2: u32_at(52),
            kernel_code_properties: u16_at(56),
            kernarg_preload: u16_at(58),
        })
    }

    /// True for wave32 kernels (kernel_code_properties bit 10 on gfx10+).
    pub fn wave32(&self) -> bool {
        self.kernel_code_properties & kcp::ENABLE_WAVEFRONT_SIZE32 != 0
    }

    /// USER_SGPR_COUNT: the workgroup ids follow this many user SGPRs.
    pub fn user_sgpr_count(&self) -> u32 {
        (self.compute_pgm_rsrc2 >> rsrc2::USER_SGPR_COUNT_SHIFT) & rsrc2::USER_SGPR_COUNT_MASK
    }

    /// ENABLE_VGPR_WORKITEM_ID: 0 = X, 1 = X and Y, 2 = X, Y and Z.
    pub fn vgpr_workitem_id(&self) -> u32 {
        (self.compute_pgm_rsrc2 >> rsrc2::ENABLE_VGPR_WORKITEM_ID_SHIFT) & 3
    }

    /// VGPRs the wave is allocated: GRANULATED_WORKITEM_VGPR_COUNT is (count / granule) - 1 with a
    /// granule of 8 (wave32) or 4 (wave64) on gfx10+ (AMDGPUUsage, compute_pgm_rsrc1).
    pub fn vgpr_count(&self) -> u32 {
        let granule = if self.wave32() { 8 } else { 4 };
        (((self.compute_pgm_rsrc1 & rsrc1::VGPR_COUNT_MASK) + 1) * granule).min(256)
    }

    /// The MODE register a wave starts with (rounding and denormal modes, DX10 clamp, IEEE,
    /// FP16 overflow), from COMPUTE_PGM_RSRC1. MODE layout: FP_ROUND [3:0] (round32 in [1:0],
    /// round16/64 in [3:2]), FP_DENORM [7:4] (denorm32 in [5:4], denorm16/64 in [7:6]),
    /// DX10_CLAMP [8], IEEE [9], EXCP_EN [18:12], FP16_OVFL [23]. The exception enables come
    /// from COMPUTE_PGM_RSRC2 [30:24] (invalid, input denormal, divide by zero, overflow,
    /// underflow, inexact, integer divide by zero), in the same order as MODE.EXCP_EN.
    pub fn initial_mode(&self) -> u32 {
        let r = self.compute_pgm_rsrc1;
        let excp_en = (self.compute_pgm_rsrc2 >> 24) & 0x7f;
        let f = |shift: u32| (r >> shift) & 3;
        f(rsrc1::FLOAT_ROUND_MODE_32_SHIFT)
            | f(rsrc1::FLOAT_ROUND_MODE_16_64_SHIFT) << 2
            | f(rsrc1::FLOAT_DENORM_MODE_32_SHIFT) << 4
            | f(rsrc1::FLOAT_DENORM_MODE_16_64_SHIFT) << 6
            | u32::from(r & rsrc1::ENABLE_DX10_CLAMP != 0) << 8
            | u32::from(r & rsrc1::ENABLE_IEEE_MODE != 0) << 9
            | excp_en << 12
            | u32::from(r & rsrc1::FP16_OVFL != 0) << 23
    }

    /// WGP mode (else CU mode): decides how much LDS a workgroup may use (RDNA3 ISA guide, Shader Concepts).
    pub fn wgp_mode(&self) -> bool {
        self.compute_pgm_rsrc1 & rsrc1::WGP_MODE != 0
    }

    /// Whether the kernel uses scratch (the private segment wave offset SGPR is enabled).
    pub fn private_segment_enabled(&self) -> bool {
        self.compute_pgm_rsrc2 & rsrc2::ENABLE_PRIVATE_SEGMENT != 0
    }
}

/// What a kernel argument is (AMDGPUUsage, ".value_kind").
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ValueKind {
    ByValue,
    GlobalBuffer,
    DynamicSharedPointer,
    Sampler,
    Image,
    Pipe,
    Queue,
    HiddenGlobalOffsetX,
    HiddenGlobalOffsetY,
    HiddenGlobalOffsetZ,
    HiddenNone,
    HiddenPrintfBuffer,
    HiddenHostcallBuffer,
    HiddenDefaultQueue,
    HiddenCompletionAction,
    HiddenMultigridSyncArg,
    HiddenBlockCountX,
    HiddenBlockCountY,
    HiddenBlockCountZ,
    HiddenGroupSizeX,
    HiddenGroupSizeY,
    HiddenGroupSizeZ,
    HiddenRemainderX,
    HiddenRemainderY,
    HiddenRemainderZ,
    HiddenGridDims,
    HiddenHeapV1,
    HiddenDynamicLdsSize,
    HiddenPrivateBase,
    HiddenSharedBase,
    HiddenQueuePtr,
    /// A kind this version of wavesim does not know (kept so `info` can show it).
    Unknown(String),
}

impl ValueKind {
    fn parse(s: &str) -> ValueKind {
        use ValueKind::*;
        match s {
            "by_value" => ByValue,
            "global_buffer" => GlobalBuffer,
            "dynamic_shared_pointer" => DynamicSharedPointer,
            "sampler" => Sampler,
            "image" => Image,
            "pipe" => Pipe,
            "queue" => Queue,
            "hidden_global_offset_x" => HiddenGlobalOffsetX,
            "hidden_global_offset_y" => HiddenGlobalOffsetY,
            "hidden_global_offset_z" => HiddenGlobalOffsetZ,
            "hidden_none" => HiddenNone,
            "hidden_printf_buffer" => HiddenPrintfBuffer,
            "hidden_hostcall_buffer" => HiddenHostcallBuffer,
            "hidden_default_queue" => HiddenDefaultQueue,
            "hidden_completion_action" => HiddenCompletionAction,
            "hidden_multigrid_sync_arg" => HiddenMultigridSyncArg,
            "hidden_block_count_x" => HiddenBlockCountX,
            "hidden_block_count_y" => HiddenBlockCountY,
            "hidden_block_count_z" => HiddenBlockCountZ,
            "hidden_group_size_x" => HiddenGroupSizeX,
            "hidden_group_size_y" => HiddenGroupSizeY,
            "hidden_group_size_z" => HiddenGroupSizeZ,
            "hidden_remainder_x" => HiddenRemainderX,
            "hidden_remainder_y" => HiddenRemainderY,
            "hidden_remainder_z" => HiddenRemainderZ,
            "hidden_grid_dims" => HiddenGridDims,
            "hidden_heap_v1" => HiddenHeapV1,
            "hidden_dynamic_lds_size" => HiddenDynamicLdsSize,
            "hidden_private_base" => HiddenPrivateBase,
            "hidden_shared_base" => HiddenSharedBase,
            "hidden_queue_ptr" => HiddenQueuePtr,
            other => Unknown(other.to_string()),
        }
    }

    /// The metadata spelling (`by_value`, `hidden_block_count_x`, ...).
    pub fn as_str(&self) -> &str {
        use ValueKind::*;
        match self {
            ByValue => "by_value",
            GlobalBuffer => "global_buffer",
            DynamicSharedPointer => "dynamic_shared_pointer",
            Sampler => "sampler",
            Image => "image",
            Pipe => "pipe",
            Queue => "queue",
            HiddenGlobalOffsetX => "hidden_global_offset_x",
            HiddenGlobalOffsetY => "hidden_global_offset_y",
            HiddenGlobalOffsetZ => "hidden_global_offset_z",
            HiddenNone => "hidden_none",
            HiddenPrintfBuffer => "hidden_printf_buffer",
            HiddenHostcallBuffer => "hidden_hostcall_buffer",
            HiddenDefaultQueue => "hidden_default_queue",
            HiddenCompletionAction => "hidden_completion_action",
            HiddenMultigridSyncArg => "hidden_multigrid_sync_arg",
            HiddenBlockCountX => "hidden_block_count_x",
            HiddenBlockCountY => "hidden_block_count_y",
            HiddenBlockCountZ => "hidden_block_count_z",
            HiddenGroupSizeX => "hidden_group_size_x",
            HiddenGroupSizeY => "hidden_group_size_y",
            HiddenGroupSizeZ => "hidden_group_size_z",
            HiddenRemainderX => "hidden_remainder_x",
            HiddenRemainderY => "hidden_remainder_y",
            HiddenRemainderZ => "hidden_remainder_z",
            HiddenGridDims => "hidden_grid_dims",
            HiddenHeapV1 => "hidden_heap_v1",
            HiddenDynamicLdsSize => "hidden_dynamic_lds_size",
            HiddenPrivateBase => "hidden_private_base",
            HiddenSharedBase => "hidden_shared_base",
            HiddenQueuePtr => "hidden_queue_ptr",
            Unknown(s) => s,
        }
    }

    /// Hidden arguments are filled by the runtime, not given by the user.
    pub fn is_hidden(&self) -> bool {
        match self {
            ValueKind::Unknown(s) => s.starts_with("hidden_"),
            k => k.as_str().starts_with("hidden_"),
        }
    }
}

/// One kernel argument from the metadata.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernArg {
    pub name: Option<String>,
    pub type_name: Option<String>,
    /// Byte offset in the kernarg segment.
    pub offset: u32,
    pub size: u32,
    pub kind: ValueKind,
    /// `global`, `local`, `constant`, ... for pointers.
    pub address_space: Option<String>,
    pub is_const: bool,
    /// Alignment of what a pointer argument points to (dynamic LDS placement).
    pub pointee_align: Option<u32>,
}

/// The metadata of one kernel (`amdhsa.kernels` entry).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct KernelMeta {
    pub name: String,
    /// The descriptor symbol, `NAME.kd`.
    pub symbol: String,
    pub args: Vec<KernArg>,
    pub kernarg_segment_size: u32,
    pub kernarg_segment_align: u32,
    pub group_segment_fixed_size: u32,
    pub private_segment_fixed_size: u32,
    pub wavefront_size: u32,
    pub sgpr_count: u32,
    pub vgpr_count: u32,
    pub max_flat_workgroup_size: u32,
    pub reqd_workgroup_size: Option<[u32; 3]>,
    pub uses_dynamic_stack: bool,
}

/// One kernel of a code object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    pub name: String,
    /// ELF virtual address of the descriptor.
    pub kd_addr: u64,
    /// ELF virtual address of the first instruction.
    pub entry: u64,
    pub descriptor: KernelDescriptor,
    pub meta: KernelMeta,
}

impl Kernel {
    /// Arguments the user supplies (hidden ones excluded), in order.
    pub fn explicit_args(&self) -> impl Iterator<Item = &KernArg> {
        self.meta.args.iter().filter(|a| !a.kind.is_hidden())
    }

    /// A C-like signature for messages: `saxpy(uint n, float a, global float* x, ...)`.
    pub fn signature(&self) -> String {
        let args: Vec<String> = self
            .explicit_args()
            .map(|a| {
                let ty = a
                    .type_name
                    .clone()
                    .unwrap_or_else(|| a.kind.as_str().to_string());
                let ty = match (&a.kind, &a.address_space) {
                    (ValueKind::GlobalBuffer | ValueKind::DynamicSharedPointer, Some(sp)) => {
                        format!("{sp} {ty}")
                    }
                    _ => ty,
                };
                match &a.name {
                    Some(n) => format!("{ty} {n}"),
                    None => ty,
                }
            })
            .collect();
        format!("{}({})", self.name, args.join(", "))
    }

    /// Wave size the kernel was compiled for.
    pub fn wave_size(&self) -> u32 {
        if self.descriptor.wave32() {
            32
        } else {
            64
        }
    }
}

/// A dynamic relocation of the image, applied when it is placed at its load address.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reloc {
    /// ELF virtual address of the 64-bit field to patch.
    pub at: u64,
    /// The field becomes `load base + value`.
    pub value: u64,
}

/// A parsed code object.
#[derive(Clone, Debug)]
pub struct CodeObject {
    /// HSA code object version (4, 5 or 6).
    pub version: u32,
    /// Target processor, e.g. `gfx1100`.
    pub target: String,
    /// Raw EF_AMDGPU_MACH.
    pub mach: u32,
    /// All PT_LOAD segments laid out by virtual address (bss zero), from address 0.
    pub image: Vec<u8>,
    /// Relocations to apply once the load base is known.
    pub relocs: Vec<Reloc>,
    /// Virtual address and size of `.text`.
    pub text_addr: u64,
    pub text_size: u64,
    pub kernels: Vec<Kernel>,
    /// The OpenCL printf format strings (`amdhsa.printf`: `ID:N:SIZE1:..:SIZEN:FORMAT`), as the
    /// metadata has them.
    pub printf_formats: Vec<String>,
}

/// gfx11 processors (EF_AMDGPU_MACH values of the AMDGPU ELF header).
const GFX11_MACHS: &[(u32, &str)] = &[
    (0x041, "gfx1100"),
    (0x043, "gfx1150"),
    (0x044, "gfx1103"),
    (0x046, "gfx1101"),
    (0x047, "gfx1102"),
    (0x04a, "gfx1151"),
    (0x054, "gfx11-generic"),
    (0x055, "gfx1152"),
    (0x058, "gfx1153"),
];

/// The AMDGPU ELF note type of the msgpack metadata.
const NT_AMDGPU_METADATA: u32 = 32;
/// ELFOSABI_AMDGPU_HSA.
const ELFOSABI_AMDGPU_HSA: u8 = 64;
const R_AMDGPU_ABS64: u32 = 1;
const R_AMDGPU_RELATIVE64: u32 = 13;
/// Largest image we map (a sanity bound against hostile headers).
const MAX_IMAGE: u64 = 1 << 30;

#[derive(Deserialize)]
struct RawMeta {
    #[serde(rename = "amdhsa.version", default)]
    version: Vec<u32>,
    #[serde(rename = "amdhsa.kernels", default)]
    kernels: Vec<RawKernel>,
    #[serde(rename = "amdhsa.printf", default)]
    printf: Vec<String>,
}

#[derive(Deserialize)]
struct RawKernel {
    #[serde(rename = ".name")]
    name: String,
    #[serde(rename = ".symbol")]
    symbol: String,
    #[serde(rename = ".args", default)]
    args: Vec<RawArg>,
    #[serde(rename = ".kernarg_segment_size", default)]
    kernarg_segment_size: u32,
    #[serde(rename = ".kernarg_segment_align", default)]
    kernarg_segment_align: u32,
    #[serde(rename = ".group_segment_fixed_size", default)]
    group_segment_fixed_size: u32,
    #[serde(rename = ".private_segment_fixed_size", default)]
    private_segment_fixed_size: u32,
    #[serde(rename = ".wavefront_size", default)]
    wavefront_size: u32,
    #[serde(rename = ".sgpr_count", default)]
    sgpr_count: u32,
    #[serde(rename = ".vgpr_count", default)]
    vgpr_count: u32,
    #[serde(rename = ".max_flat_workgroup_size", default)]
    max_flat_workgroup_size: u32,
    #[serde(rename = ".reqd_workgroup_size", default)]
    reqd_workgroup_size: Option<Vec<u32>>,
    #[serde(rename = ".uses_dynamic_stack", default)]
    uses_dynamic_stack: bool,
}

#[derive(Deserialize)]
struct RawArg {
    #[serde(rename = ".name", default)]
    name: Option<String>,
    #[serde(rename = ".type_name", default)]
    type_name: Option<String>,
    #[serde(rename = ".offset")]
    offset: u32,
    #[serde(rename = ".size")]
    size: u32,
    #[serde(rename = ".value_kind")]
    value_kind: String,
    #[serde(rename = ".address_space", default)]
    address_space: Option<String>,
    #[serde(rename = ".is_const", default)]
    is_const: bool,
    #[serde(rename = ".pointee_align", default)]
    pointee_align: Option<u32>,
}

impl CodeObject {
    /// Reads an AMDGPU HSA code object.
    pub fn parse(bytes: &[u8]) -> Result<CodeObject, CodeObjectError> {
        // A clang offload bundle (hipcc --genco): its gfx11 entry.
        let unbundled = super::bundle::code_object(bytes)?;
        let bytes: &[u8] = &unbundled;
        if bytes.len() < 4 || &bytes[..4] != b"\x7fELF" {
            return Err(malformed("no ELF magic"));
        }
        if bytes.len() < 64 || bytes[4] != elf::ELFCLASS64 || bytes[5] != elf::ELFDATA2LSB {
            return Err(CodeObjectError::NotAmdgpu(
                "not a 64-bit little-endian ELF file".into(),
            ));
        }
        let file = ElfFile64::<LittleEndian>::parse(bytes).map_err(malformed)?;
        let (version, mach, target) = check_header(&file)?;
        let (image, image_end) = load_image(&file, bytes)?;
        let (text_addr, text_size) = text_range(&file, image_end)?;
        let relocs = dynamic_relocs(&file, image_end)?;
        let raw = read_metadata(&file, bytes)?;
        let printf_formats = raw.printf;
        let kernels = raw
            .kernels
            .iter()
            .map(|rk| kernel_of(&file, rk, &image, text_addr..text_addr + text_size))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(CodeObject {
            version,
            target,
            mach,
            image,
            relocs,
            text_addr,
            text_size,
            kernels,
            printf_formats,
        })
    }

    /// The kernel called `name`.
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }

    /// Names of all kernels, in metadata order.
    pub fn kernel_names(&self) -> Vec<&str> {
        self.kernels.iter().map(|k| k.name.as_str()).collect()
    }

    /// The bytes of `.text`.
    pub fn text(&self) -> &[u8] {
        &self.image[self.text_addr as usize..(self.text_addr + self.text_size) as usize]
    }

    /// The image as it must appear in device memory when loaded at `base` (relocations applied).
    pub fn image_at(&self, base: u64) -> Vec<u8> {
        let mut img = self.image.clone();
        for r in &self.relocs {
            let v = base.wrapping_add(r.value);
            img[r.at as usize..r.at as usize + 8].copy_from_slice(&v.to_le_bytes());
        }
        img
    }
}

type Elf<'d> = ElfFile64<'d, LittleEndian>;

/// The header checks: EM_AMDGPU, the HSA OS/ABI, code object v4-v6 and a gfx11 machine.
/// Returns (code object version, EF_AMDGPU_MACH, target name).
fn check_header(file: &Elf) -> Result<(u32, u32, String), CodeObjectError> {
    let e = LittleEndian;
    let hdr = file.elf_header();
    if hdr.e_machine(e) != elf::EM_AMDGPU {
        return Err(CodeObjectError::NotAmdgpu(format!(
            "ELF machine {} is not EM_AMDGPU",
            hdr.e_machine(e)
        )));
    }
    let ident = hdr.e_ident();
    if ident.os_abi != ELFOSABI_AMDGPU_HSA {
        return Err(CodeObjectError::NotAmdgpu(format!(
            "OS/ABI {} is not AMDGPU HSA ({ELFOSABI_AMDGPU_HSA})",
            ident.os_abi
        )));
    }
    // EI_ABIVERSION 2, 3, 4 = code object v4, v5, v6 (older versions use a different
    // metadata format and descriptor conventions).
    if !(2..=4).contains(&ident.abi_version) {
        return Err(CodeObjectError::UnsupportedVersion {
            abi_version: ident.abi_version,
        });
    }
    let version = ident.abi_version as u32 + 2;
    let mach = hdr.e_flags(e) & 0xff;
    let target = match GFX11_MACHS.iter().find(|(m, _)| *m == mach) {
        Some((_, n)) => n.to_string(),
        None => {
            return Err(CodeObjectError::UnsupportedTarget(format!(
                "EF_AMDGPU_MACH {mach:#x}"
            )))
        }
    };

    Ok((version, mach, target))
}

/// The PT_LOAD segments laid out at their virtual addresses; returns the image and its end.
fn load_image(file: &Elf, bytes: &[u8]) -> Result<(Vec<u8>, u64), CodeObjectError> {
    let e = LittleEndian;
    let phdrs = file
        .elf_header()
        .program_headers(e, bytes)
        .map_err(malformed)?;
    let mut image_end = 0u64;
    for p in phdrs.iter().filter(|p| p.p_type(e) == elf::PT_LOAD) {
        let end = p.p_vaddr(e).checked_add(p.p_memsz(e));
        match end {
            Some(end) if end <= MAX_IMAGE && p.p_filesz(e) <= p.p_memsz(e) => {
                image_end = image_end.max(end)
            }
            _ => return Err(malformed("PT_LOAD segment out of range")),
        }
    }
    let mut image = vec![0u8; image_end as usize];
    for p in phdrs.iter().filter(|p| p.p_type(e) == elf::PT_LOAD) {
        let data = p
            .data(e, bytes)
            .map_err(|_| malformed("PT_LOAD data out of file"))?;
        let at = p.p_vaddr(e) as usize;
        image[at..at + data.len()].copy_from_slice(data);
    }

    Ok((image, image_end))
}

/// Address and size of `.text`, which must lie inside the image.
fn text_range(file: &Elf, image_end: u64) -> Result<(u64, u64), CodeObjectError> {
    // .text
    let text = file
        .sections()
        .find(|s| s.name() == Ok(".text"))
        .ok_or_else(|| malformed("no .text section"))?;
    let text_addr = text.address();
    let text_size = text.size();
    if text_addr
        .checked_add(text_size)
        .is_none_or(|end| end > image_end)
    {
        return Err(malformed(".text is not inside a PT_LOAD segment"));
    }

    Ok((text_addr, text_size))
}

/// The dynamic relocations of the loaded image (R_AMDGPU_RELATIVE64 and R_AMDGPU_ABS64).
fn dynamic_relocs(file: &Elf, image_end: u64) -> Result<Vec<Reloc>, CodeObjectError> {
    // Relocations of the loaded image.
    let mut relocs = Vec::new();
    if let Some(it) = file.dynamic_relocations() {
        for (at, r) in it {
            let RelocationFlags::Elf { r_type } = r.flags() else {
                continue;
            };
            let value = match (r_type, r.target()) {
                (R_AMDGPU_RELATIVE64, _) => r.addend() as u64,
                (R_AMDGPU_ABS64, RelocationTarget::Symbol(idx)) => {
                    let sym = file
                        .dynamic_symbol_table()
                        .and_then(|t| t.symbol_by_index(idx).ok());
                    match sym {
                        Some(s) if !s.is_undefined() => s.address().wrapping_add(r.addend() as u64),
                        _ => {
                            return Err(malformed(format!(
                                "relocation at {at:#x} refers to an undefined symbol"
                            )))
                        }
                    }
                }
                _ => {
                    return Err(malformed(format!(
                        "unsupported dynamic relocation type {r_type} at {at:#x}"
                    )))
                }
            };
            if at.checked_add(8).is_none_or(|end| end > image_end) {
                return Err(malformed(format!(
                    "relocation at {at:#x} outside the image"
                )));
            }
            relocs.push(Reloc { at, value });
        }
    }

    Ok(relocs)
}

/// The NT_AMDGPU_METADATA note, decoded (msgpack, amdhsa.version 1.x).
fn read_metadata(file: &Elf, bytes: &[u8]) -> Result<RawMeta, CodeObjectError> {
    let e = LittleEndian;
    let phdrs = file
        .elf_header()
        .program_headers(e, bytes)
        .map_err(malformed)?;
    // Metadata note.
    let mut meta_bytes: Option<Vec<u8>> = None;
    for p in phdrs.iter() {
        if let Some(mut notes) = p.notes(e, bytes).map_err(malformed)? {
            while let Some(n) = notes.next().map_err(malformed)? {
                if n.name() == b"AMDGPU" && n.n_type(e) == NT_AMDGPU_METADATA {
                    meta_bytes = Some(n.desc().to_vec());
                }
            }
        }
    }
    let meta_bytes =
        meta_bytes.ok_or_else(|| CodeObjectError::Metadata("no NT_AMDGPU_METADATA note".into()))?;
    let raw: RawMeta =
        rmp_serde::from_slice(&meta_bytes).map_err(|e| CodeObjectError::Metadata(e.to_string()))?;
    if raw.version.first().is_some_and(|&v| v != 1) {
        return Err(CodeObjectError::Metadata(format!(
            "amdhsa.version {:?} is not 1.x",
            raw.version
        )));
    }

    Ok(raw)
}

/// One kernel from its metadata entry: the descriptor its symbol names (inside the image), an
/// entry point inside `.text`, and arguments that fit the kernarg segment.
fn kernel_of(
    file: &Elf,
    rk: &RawKernel,
    image: &[u8],
    text: std::ops::Range<u64>,
) -> Result<Kernel, CodeObjectError> {
    let image_end = image.len() as u64;
    let (text_addr, text_size) = (text.start, text.end - text.start);
    let bad = |why: String| CodeObjectError::BadKernel {
        name: rk.name.clone(),
        why,
    };
    let kd_sym = file
        .symbols()
        .chain(file.dynamic_symbols())
        .find(|s| s.name() == Ok(rk.symbol.as_str()) && !s.is_undefined())
        .ok_or_else(|| bad(format!("no descriptor symbol {}", rk.symbol)))?;
    let kd_addr = kd_sym.address();
    let kd_bytes = kd_addr
        .checked_add(KernelDescriptor::SIZE as u64)
        .filter(|&end| end <= image_end)
        .map(|end| &image[kd_addr as usize..end as usize])
        .ok_or_else(|| bad("descriptor outside the image".into()))?;
    let descriptor =
        KernelDescriptor::parse(kd_bytes).ok_or_else(|| bad("descriptor truncated".into()))?;
    let entry = kd_addr.wrapping_add(descriptor.kernel_code_entry_byte_offset as u64);
    if entry < text_addr || entry >= text_addr + text_size || entry % 4 != 0 {
        return Err(bad(format!(
            "entry point {entry:#x} is not inside .text [{text_addr:#x}, {:#x})",
            text_addr + text_size
        )));
    }
    let args = rk
        .args
        .iter()
        .map(|a| KernArg {
            name: a.name.clone(),
            type_name: a.type_name.clone(),
            offset: a.offset,
            size: a.size,
            kind: ValueKind::parse(&a.value_kind),
            address_space: a.address_space.clone(),
            is_const: a.is_const,
            pointee_align: a.pointee_align,
        })
        .collect::<Vec<_>>();
    for a in &args {
        if a.offset as u64 + a.size as u64
            > rk.kernarg_segment_size.max(descriptor.kernarg_size) as u64
        {
            return Err(bad(format!(
                "argument {} at offset {} size {} overruns the kernarg segment",
                a.name.as_deref().unwrap_or(a.kind.as_str()),
                a.offset,
                a.size
            )));
        }
    }
    let reqd = rk.reqd_workgroup_size.as_ref().and_then(|v| {
        if v.len() == 3 {
            Some([v[0], v[1], v[2]])
        } else {
            None
        }
    });
    Ok(Kernel {
        name: rk.name.clone(),
        kd_addr,
        entry,
        descriptor,
        meta: KernelMeta {
            name: rk.name.clone(),
            symbol: rk.symbol.clone(),
            args,
            kernarg_segment_size: rk.kernarg_segment_size,
            kernarg_segment_align: rk.kernarg_segment_align,
            group_segment_fixed_size: rk.group_segment_fixed_size,
            private_segment_fixed_size: rk.private_segment_fixed_size,
            wavefront_size: rk.wavefront_size,
            sgpr_count: rk.sgpr_count,
            vgpr_count: rk.vgpr_count,
            max_flat_workgroup_size: rk.max_flat_workgroup_size,
            reqd_workgroup_size: reqd,
            uses_dynamic_stack: rk.uses_dynamic_stack,
        },
    })
}
