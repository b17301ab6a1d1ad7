//! A run described by a TOML file, for the CLI and the shipped examples: a compute dispatch, an
//! asahi_clc grid kernel with its arguments in uniforms, a Mesa's asahi compiler README (ABI) vertex draw or fragment pass, with
//! named device buffers, uniforms and outputs. Files a configuration names (`code`, a grid kernel's
//! `report`) are read relative to its directory ([`run_in_dir`]).
//!
//! ```toml
//! kind = "compute"            # or "grid_kernel", "vertex", "fragment"
//! approximate = false        # sin_pt_1/2, rsqrt_special, simd_matrix_fmadd* as documented
//!                             # intent (a grid kernel's main part; its preamble stays exact);
//!                             # centroid at a partially covered pixel (exec::centroid_offset)
//! abi = "readme-2023"         # vertex/fragment only: "readme-2023" (default) or "mesa-current"
//!                             # (abi::AbiVersion: sample mask r0h or r1l, vertex r4)
//! asm = "stop"                # applegpu-syntax source; or `code = "file.bin"`
//! nr_gprs = 16
//!
//! [[buffer]]                  # device allocations, in order; contents from u32 / f32 / u8 lists or
//! name = "in"                 # `size` zero bytes
//! u32 = [1, 2, 3]
//!
//! [[uniform]]                 # 16-bit uniform slot; `u16`/`u32`/`u64` value, or `buffer` (its
//! slot = 0                    # address, 64-bit) plus optional `offset`
//! buffer = "in"
//!
//! [[special]]                 # compute only: a special register, same value in every thread;
//! sr = 146                    # `u32`, or `buffer` with `half = "lo" | "hi"` of its address
//! buffer = "args"
//! half = "lo"
//!
//! [[output]]                  # printed after the run: `format` u8/u16/u32/i32/u64/f32
//! buffer = "out"
//! format = "u32"
//! count = 3
//!
//! [compute]                   # grid, local size, threadgroup memory bytes, host threads
//! grid = [64]
//! local = [32]
//!
//! [grid_kernel]               # kind = "grid_kernel": `code` compiled by asahi_clc, `report` its
//! report = "saxpy.toml"       # report (kernel::KernelReport); global size; the workgroup size,
//! grid = [100]                # registers and threadgroup memory come from the report
//!                             # optional: texture = [{ descriptor = [6 words], buffer, offset }],
//!                             # sampler = [[2 words]], border = [[4 words]] (one a sampler):
//!                             # ts{i} / ss{i} and custom borders, as [gallium] binds them;
//!                             # or state = [{ index, kind = "texture" | "pbe", descriptor,
//!                             # buffer, offset }] (address at bit 66 / 64) and table = "buf"
//!                             # (receives the whole array: the bindless table)
//!
//! [[arg]]                     # grid_kernel only: the kernel's arguments in order (Mesa's uniform
//! name = "x"                  # layout, kernel::GridKernel); `name` labels it in errors; the value is
//! buffer = "in"               # `buffer` (+ `offset`: a 64-bit pointer) or one of u8 u16 u32 i32
//!                             # f32 u64, whose width must be the report's for that argument
//!
//! [fragment]                  # see abi::FragmentConfig; render_targets: "f32" | "f16" each
//! width = 16
//! height = 8
//! render_targets = ["f32"]
//! coefficients = [[0.125, 0.0, 0.0]]   # coefficient registers cf0.. as planes [A, B, C]
//! front_facing = true         # gl_FrontFacing (get_sr sr62 = 0; false: 1); absent: reading sr62
//!                             # is a typed error (also for abi = "mesa-22.3")
//!
//!                             # abi = "mesa-25.0-linked" also takes `samples` (1, 2, 4: the
//!                             # tile buffer's samples, gallium::FragmentDraw::samples) and
//!                             # `triangle = [[x, y], [x, y], [x, y]]` (window pixels, multiples
//!                             # of 1/256: the draw's coverage, raster.rs) with optional
//!                             # `fill_rule = "top-left"` (samples exactly on an edge; absent:
//!                             # a typed error)
//! [end_of_tile]               # abi = "mesa-25.0-linked" fragment jobs (Mesa 25.0's linked
//! code = "end_of_tile.bin"    # program, [gallium] offsets): the end-of-tile program, run per
//! nr_gprs = 1                 # tile; `pbe` the render target's PBE descriptor (6 words), its
//! pbe = [266603010, 960, 0, 15360, 0, 0]   # address set to buffer `image`
//! image = "rt"
//! clear = [0, 0, 0, 0, 0, 0, 0, 0]   # optional: each pixel's tile record as the background
//!                             # program's clear leaves it (absent: zeroed)
//! [[end_of_tile.target]]      # optional: render targets 1.. (texture states 1..)
//! pbe = [266603010, 960, 0, 15360, 0, 0]
//! image = "rt1"
//!
//! [vertex]                    # see abi::VertexDraw; attributes name their buffer
//! preamble_offset = 64        # optional: the main shader's preamble, run once first
//! vertex_count = 3
//! show_registers = [8, 9]
//! [[vertex.attribute]]
//! buffer = "in"
//! stride = 4
//! format = "u32"              # f32 f16 u32 s32 u16 s16 u8 s8 unorm8 snorm8 unorm16 snorm16; `components` 1-4
//! ```

use crate::abi::{
    run_fragment_observed, run_vertex_observed, AbiError, AbiVersion, AttribFormat, Blend,
    ColourRegs, FragmentConfig, HardwareCompute, VertexAttribute, VertexConfig, VertexDraw,
};
use crate::asm::{assemble, AsmError};
use crate::compute::{AgxCompute, ComputeLaunch};
use crate::exec::ExecError;
use crate::kernel::{GridKernel, KernelArg, KernelError};
use serde::Deserialize;
use std::fmt::Write as _;
use std::path::Path;
use wavesim_core::error::DispatchError;
use wavesim_core::grid::Geometry;
use wavesim_core::memory::{DeviceMemory, MemError};
use wavesim_core::observe::NoObserver;
use wavesim_core::stats::DispatchStats;

/// Why a configured run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("config: {0}")]
    Config(String),
    #[error(transparent)]
    Asm(#[from] AsmError),
    #[error(transparent)]
    Abi(#[from] AbiError),
    #[error("{}", dispatch_message(.0))]
    Dispatch(#[from] DispatchError<ExecError>),
    #[error("memory: {0}")]
    Memory(#[from] MemError),
    #[error(transparent)]
    Kernel(#[from] KernelError),
    /// The configuration's `[[arg]]` list does not fit the kernel's report.
    #[error("kernel {entry}: argument {index} `{name}`: {problem}")]
    Argument {
        entry: String,
        index: usize,
        /// The configuration's `name`, or `#index` when it has none (reports carry no names).
        name: String,
        problem: ArgProblem,
    },
}

/// How a configured kernel argument disagrees with asahi_clc's report.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ArgProblem {
    #[error("the report lists {takes} arguments; this one is beyond them")]
    NotInReport { takes: usize },
    #[error("not given: the report lists {takes} arguments, the configuration gives {given}")]
    Missing { takes: usize, given: usize },
    #[error("the report's argument is {want}-bit, a {given}-bit value is given")]
    Width { want: u32, given: u32 },
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Compute,
    /// An asahi_clc kernel run by [`GridKernel`] with the configuration's `[[arg]]`s.
    #[serde(rename = "grid_kernel")]
    GridKernel,
    Vertex,
    Fragment,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferCfg {
    pub name: String,
    pub u32: Option<Vec<u32>>,
    pub f32: Option<Vec<f32>>,
    pub u8: Option<Vec<u8>>,
    pub size: Option<u64>,
    /// A C struct: pointers to buffers (8-byte aligned) and 32-bit values, in order.
    pub fields: Option<Vec<FieldCfg>>,
}

/// One member of a `fields` buffer.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FieldCfg {
    pub ptr: Option<String>,
    pub u32: Option<u32>,
    pub f32: Option<f32>,
}

/// Bytes of a `fields` buffer; `addr` resolves buffer names (0 while sizing).
fn struct_bytes(
    fields: &[FieldCfg],
    addr: &dyn Fn(&str) -> Result<u64, RunError>,
) -> Result<Vec<u8>, RunError> {
    let mut b = vec![];
    for f in fields {
        match (&f.ptr, f.u32, f.f32) {
            (Some(name), None, None) => {
                while b.len() % 8 != 0 {
                    b.push(0);
                }
                b.extend_from_slice(&addr(name)?.to_le_bytes());
            }
            (None, Some(v), None) => b.extend_from_slice(&v.to_le_bytes()),
            (None, None, Some(v)) => b.extend_from_slice(&v.to_le_bytes()),
            _ => return cfg_err("a field is one of ptr, u32, f32"),
        }
    }
    Ok(b)
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UniformCfg {
    pub slot: usize,
    pub u16: Option<u16>,
    pub u32: Option<u32>,
    pub u64: Option<u64>,
    pub buffer: Option<String>,
    #[serde(default)]
    pub offset: u64,
}

/// One argument of a grid kernel, in the report's order.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ArgCfg {
    pub name: Option<String>,
    /// A buffer's device address (a global pointer), plus `offset` bytes.
    pub buffer: Option<String>,
    #[serde(default)]
    pub offset: u64,
    pub u8: Option<u8>,
    pub u16: Option<u16>,
    pub u32: Option<u32>,
    pub i32: Option<i32>,
    pub f32: Option<f32>,
    pub u64: Option<u64>,
}

impl ArgCfg {
    /// What errors call argument `index`.
    fn label(&self, index: usize) -> String {
        self.name.clone().unwrap_or_else(|| format!("#{index}"))
    }

    fn value(
        &self,
        index: usize,
        lookup: &dyn Fn(&str) -> Result<u64, RunError>,
    ) -> Result<KernelArg, RunError> {
        let mut given = vec![];
        if let Some(b) = &self.buffer {
            given.push(KernelArg::U64(lookup(b)? + self.offset));
        }
        given.extend(self.u8.map(KernelArg::U8));
        given.extend(self.u16.map(KernelArg::U16));
        given.extend(self.u32.map(KernelArg::U32));
        given.extend(self.i32.map(KernelArg::I32));
        given.extend(self.f32.map(KernelArg::F32));
        given.extend(self.u64.map(KernelArg::U64));
        match given[..] {
            [one] => Ok(one),
            _ => cfg_err(format!(
                "argument {index} `{}`: give exactly one of buffer, u8, u16, u32, i32, f32, u64",
                self.label(index)
            )),
        }
    }
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridKernelCfg {
    /// asahi_clc's report for the code (`corpus/agx/kernels/*.toml`), relative to the configuration.
    pub report: String,
    /// Global size in threads (x, or x/y/z); the workgroup is the report's.
    pub grid: Vec<u32>,
    #[serde(default = "one")]
    pub threads: usize,
    /// Texture state (`ts{i}`), as `[gallium]`'s: each descriptor's address field set to its
    /// buffer's address plus `offset`.
    #[serde(default)]
    pub texture: Vec<GalliumTextureCfg>,
    /// Sampler state (`ss{i}`): SAMPLER descriptors (2 words each).
    #[serde(default)]
    pub sampler: Vec<[u32; 2]>,
    /// Custom border colours (4 words each, cmdbuf.xml BORDER), one a sampler when given.
    #[serde(default)]
    pub border: Vec<[u32; 4]>,
    /// Texture state by index, TEXTURE or PBE descriptors (what image stores take), instead of
    /// `texture`; unnamed indices stay zero.
    #[serde(default)]
    pub state: Vec<GridStateCfg>,
    /// A buffer receiving the whole texture state array: the bindless table the driver reads
    /// image atomics, size queries and array layers through (its address is an `[[arg]]`).
    pub table: Option<String>,
}

/// One entry of `[grid_kernel]`'s texture state array.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GridStateCfg {
    pub index: usize,
    pub kind: StateKind,
    pub descriptor: [u32; 6],
    pub buffer: String,
    #[serde(default)]
    pub offset: u64,
}

/// Which descriptor a state entry is: where its address field starts (cmdbuf.xml).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum StateKind {
    /// TEXTURE: address >> 4 at bits 66-101.
    Texture,
    /// PBE: address >> 4 at bits 64-99.
    Pbe,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SpecialCfg {
    pub sr: u64,
    pub u32: Option<u32>,
    pub buffer: Option<String>,
    pub half: Option<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OutputCfg {
    pub buffer: String,
    pub format: String,
    pub count: usize,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ComputeCfg {
    pub grid: Vec<u32>,
    pub local: Vec<u32>,
    #[serde(default)]
    pub threadgroup_memory: usize,
    #[serde(default = "one")]
    pub threads: usize,
    #[serde(default = "max_insts")]
    pub max_wave_insts: u64,
}

fn one() -> usize {
    1
}
fn max_insts() -> u64 {
    10_000_000
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FragmentCfg {
    pub width: u32,
    pub height: u32,
    #[serde(default = "one_u32")]
    pub samples: u32,
    #[serde(default)]
    pub sample_shading: bool,
    #[serde(default)]
    pub render_targets: Vec<String>,
    #[serde(default)]
    pub dual_source: bool,
    #[serde(default)]
    pub blend: Option<String>,
    #[serde(default)]
    pub blend_constant: [f32; 4],
    #[serde(default)]
    pub writes_depth: bool,
    #[serde(default)]
    pub writes_stencil: bool,
    #[serde(default)]
    pub writes_sample_mask: bool,
    #[serde(default)]
    pub clear: [f32; 4],
    /// Optional fragment prolog source (applegpu syntax).
    pub prolog_asm: Option<String>,
    /// Coefficient registers, one plane [A, B, C] each in register order: the value at pixel (x, y)
    /// is A(x + 0.5) + B(y + 0.5) + C (abi::FragmentConfig::coefficients).
    #[serde(default)]
    pub coefficients: Vec<[f32; 3]>,
    /// The primitive's facing (gl_FrontFacing; `get_sr` sr62 reads 0 when true, 1 when false).
    /// Absent: sr62 is not provided, and a shader reading it stops with a typed error.
    pub front_facing: Option<bool>,
    /// abi = "mesa-25.0-linked" only: the triangle drawn, three [x, y] window positions in
    /// pixels (multiples of 1/256), whose per-sample coverage decides which pixels run and which
    /// samples they write (gallium::FragmentDraw::triangle); absent: every sample covered.
    pub triangle: Option<[[f64; 2]; 3]>,
    /// With `triangle`: "top-left" opts in to Direct3D's rule for samples exactly on an edge
    /// (absent: such a sample is a typed error; raster::FillRule).
    pub fill_rule: Option<String>,
}

fn one_u32() -> u32 {
    1
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AttributeCfg {
    pub buffer: String,
    #[serde(default)]
    pub offset: u64,
    pub stride: u32,
    pub format: String,
    #[serde(default = "four")]
    pub components: u8,
    pub divisor: Option<u32>,
    pub clamp: Option<u32>,
    #[serde(default = "all_components")]
    pub components_read: u8,
}

fn four() -> u8 {
    4
}
fn all_components() -> u8 {
    0xF
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VertexCfg {
    pub vertex_count: u32,
    #[serde(default = "one_u32")]
    pub instance_count: u32,
    #[serde(default)]
    pub first_vertex: u32,
    #[serde(default)]
    pub base_instance: u32,
    #[serde(default)]
    pub draw_id: u16,
    /// Run as a hardware compute shader with this input-assembly buffer (non-indexed).
    pub input_assembly: Option<String>,
    #[serde(default)]
    pub attribute: Vec<AttributeCfg>,
    /// Registers printed per invocation.
    #[serde(default)]
    pub show_registers: Vec<usize>,
    /// The main shader's preamble (Mesa 25.0's binaries put it after the main part): run once on
    /// one thread with the job's uniforms before the draw; its `uniform_store`s reach the main
    /// shader (the prolog's reserved slots hold 0 while it runs).
    pub preamble_offset: Option<u32>,
    #[serde(default)]
    pub nr_preamble_gprs: usize,
}

/// Where the parts of a Mesa 22.3 shader binary are (`agx_shader_info`).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GalliumCfg {
    #[serde(default)]
    pub main_offset: u32,
    pub preamble_offset: Option<u32>,
    #[serde(default)]
    pub nr_preamble_gprs: usize,
    /// The texture state array: each a TEXTURE descriptor (6 words, cmdbuf.xml) whose address
    /// field the runner sets to `buffer`'s device address plus `offset`.
    #[serde(default)]
    pub texture: Vec<GalliumTextureCfg>,
    /// The sampler state array: SAMPLER descriptors (2 words each).
    #[serde(default)]
    pub sampler: Vec<[u32; 2]>,
}

/// `[end_of_tile]`: Mesa 25.0's end-of-tile program (`code`, relative to the configuration; its
/// `nr_gprs` in 32-bit registers) and the render target's PBE descriptor (6 words, cmdbuf.xml),
/// whose address field (bits 64-99, the address >> 4) the runner sets to `image`'s device address
/// plus `offset` ([`crate::gallium::EndOfTile`]).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EndOfTileCfg {
    pub code: String,
    pub nr_gprs: usize,
    pub pbe: [u32; 6],
    pub image: String,
    #[serde(default)]
    pub offset: u64,
    /// Render targets 1.. (texture states 1..), each a PBE descriptor and its image.
    #[serde(default)]
    pub target: Vec<PbeCfg>,
    /// Each pixel's tile record (8 bytes) as the background program's clear leaves it; absent:
    /// the tile starts zeroed.
    pub clear: Option<[u8; 8]>,
}

/// One more render target of `[end_of_tile]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PbeCfg {
    pub pbe: [u32; 6],
    pub image: String,
    #[serde(default)]
    pub offset: u64,
}

/// One texture of `[gallium]`.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GalliumTextureCfg {
    pub descriptor: [u32; 6],
    pub buffer: String,
    #[serde(default)]
    pub offset: u64,
}

/// Texture and sampler descriptors as bound for a draw.
type BoundState = (Vec<[u8; 24]>, Vec<[u8; 8]>);

/// The program of an `abi = "mesa-22.3"` job as Mesa 22.3's gallium driver set it up: offsets
/// and register counts from `[gallium]`, the job's uniforms, its textures and samplers.
fn gallium_shader(
    cfg: &RunConfig,
    program: Vec<u8>,
    uniforms: &[u16],
    lookup: &dyn Fn(&str) -> Result<u64, RunError>,
) -> Result<crate::gallium::Shader, RunError> {
    let g = cfg
        .gallium
        .as_ref()
        .ok_or_else(|| RunError::Config("[gallium]".into()))?;
    let (textures, samplers) = gallium_state(g, lookup)?;
    Ok(crate::gallium::Shader {
        code: program,
        main_offset: g.main_offset,
        preamble_offset: g.preamble_offset,
        nr_gprs: cfg.nr_gprs,
        nr_preamble_gprs: g.nr_preamble_gprs,
        uniforms: uniforms.to_vec(),
        approximate: cfg.approximate,
        textures,
        samplers,
    })
}

/// The `[gallium]` texture and sampler arrays as the hardware reads them: each TEXTURE's address
/// field (bits 66-101, the address shifted right by 4) set to its buffer's device address.
fn gallium_state(
    g: &GalliumCfg,
    lookup: &dyn Fn(&str) -> Result<u64, RunError>,
) -> Result<BoundState, RunError> {
    let mut textures = vec![];
    for t in &g.texture {
        let addr = lookup(&t.buffer)? + t.offset;
        if addr % 16 != 0 || addr >> 40 != 0 {
            return cfg_err(format!(
                "texture in buffer {} at {addr:#x}: the descriptor holds 16-byte aligned 40-bit \
                 addresses",
                t.buffer
            ));
        }
        let mut bytes = [0u8; 24];
        for (i, w) in t.descriptor.iter().enumerate() {
            bytes[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
        let mut lo = u128::from_le_bytes(bytes[..16].try_into().unwrap_or_default());
        let field = ((1u128 << 36) - 1) << 66;
        lo = (lo & !field) | u128::from(addr >> 4) << 66;
        bytes[..16].copy_from_slice(&lo.to_le_bytes());
        textures.push(bytes);
    }
    let samplers = g
        .sampler
        .iter()
        .map(|s| {
            let mut b = [0u8; 8];
            b[..4].copy_from_slice(&s[0].to_le_bytes());
            b[4..].copy_from_slice(&s[1].to_le_bytes());
            b
        })
        .collect();
    Ok((textures, samplers))
}

/// A run configuration.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    pub kind: Kind,
    pub asm: Option<String>,
    /// Path of a raw code file, relative to the configuration (the caller reads it).
    pub code: Option<String>,
    #[serde(default = "max_gprs")]
    pub nr_gprs: usize,
    #[serde(default)]
    pub buffer: Vec<BufferCfg>,
    #[serde(default)]
    pub uniform: Vec<UniformCfg>,
    #[serde(default)]
    pub special: Vec<SpecialCfg>,
    #[serde(default)]
    pub output: Vec<OutputCfg>,
    pub compute: Option<ComputeCfg>,
    pub grid_kernel: Option<GridKernelCfg>,
    #[serde(default)]
    pub arg: Vec<ArgCfg>,
    pub fragment: Option<FragmentCfg>,
    pub vertex: Option<VertexCfg>,
    /// The split-program ABI version of a vertex or fragment job ([`AbiVersion::parse`]).
    pub abi: Option<String>,
    /// A shader Mesa 22.3's gallium driver compiled (`abi = "mesa-22.3"`, [`crate::gallium`]).
    pub gallium: Option<GalliumCfg>,
    /// `abi = "mesa-25.0-linked"` fragment jobs: Mesa 25.0's end-of-tile program.
    pub end_of_tile: Option<EndOfTileCfg>,
    /// Opt-in for compute, vertex and fragment jobs: run `sin_pt_1`, `sin_pt_2`, `rsqrt_special` and
    /// `simd_matrix_fmadd*` as their documented intent (no public rule gives the hardware's), counted
    /// and named in the output.
    #[serde(default)]
    pub approximate: bool,
}

fn max_gprs() -> usize {
    128
}

impl RunConfig {
    pub fn from_toml(text: &str) -> Result<RunConfig, RunError> {
        toml::from_str(text).map_err(|e| RunError::Config(e.to_string()))
    }
}

/// What a run produced.
#[derive(Debug, Clone, Default)]
pub struct RunResult {
    /// Outputs, one line per value group (see [`RunResult::to_text`]).
    pub text: String,
    /// PNG bytes of each render target of a fragment run.
    pub pngs: Vec<Vec<u8>>,
}

impl RunResult {
    pub fn to_text(&self) -> String {
        self.text.clone()
    }
}

/// A dispatch error in one line: the location already names the PC and the instruction, so an
/// instruction's fault is given without the PC and text its own message repeats.
fn dispatch_message(e: &DispatchError<ExecError>) -> String {
    match e {
        DispatchError::Exec { at, error } => format!("{at}: {}", error.fault),
        e => e.to_string(),
    }
}

fn cfg_err<T>(what: impl Into<String>) -> Result<T, RunError> {
    Err(RunError::Config(what.into()))
}

/// The bytes of `file`, relative to `dir`.
fn read_file(dir: &Path, file: &str) -> Result<Vec<u8>, RunError> {
    let path = dir.join(file);
    std::fs::read(&path)
        .map_err(|e| RunError::Config(format!("cannot read {}: {e}", path.display())))
}

/// The program a job runs: `asm` if given, else `code` (bytes the caller has), else the
/// configuration's `code` file.
pub fn program_bytes(
    cfg: &RunConfig,
    dir: &Path,
    code: Option<&[u8]>,
) -> Result<Vec<u8>, RunError> {
    Ok(match (&cfg.asm, code, &cfg.code) {
        (Some(src), _, _) => assemble(src)?,
        (None, Some(c), _) => c.to_vec(),
        (None, None, Some(file)) => read_file(dir, file)?,
        (None, None, None) => return cfg_err("give `asm` or a code file"),
    })
}

/// [`run_in_dir`] with files relative to the current directory.
pub fn run(cfg: &RunConfig, code: Option<&[u8]>) -> Result<RunResult, RunError> {
    run_in_dir(cfg, Path::new("."), code)
}

/// Run `cfg`, reading the files it names relative to `dir` (the configuration's directory). The
/// program is `asm` if given, else `code` (bytes the caller has), else the configuration's `code`
/// file.
pub fn run_in_dir(cfg: &RunConfig, dir: &Path, code: Option<&[u8]>) -> Result<RunResult, RunError> {
    run_observed_in_dir(cfg, dir, code, &mut NoObserver, false)
}

/// [`run_in_dir`] with `obs` seeing every instruction of every SIMD group (groups in order on one
/// thread) and, with `check_init`, every register but r0l poisoned at the start of a compute or
/// grid-kernel job (`AgxCompute::checking_init`). Vertex and fragment jobs poison what their ABI
/// leaves undefined in any case (`abi.rs`, `gallium.rs`), so `check_init` changes nothing
/// there; the uniform check needs to know which uniforms a job sets, which only compute and
/// grid-kernel jobs say, so asking for it on a vertex or fragment job is an error.
pub fn run_observed_in_dir<O: crate::inside::AgxObserver>(
    cfg: &RunConfig,
    dir: &Path,
    code: Option<&[u8]>,
    obs: &mut O,
    check_init: bool,
) -> Result<RunResult, RunError> {
    if obs.checks_uniforms() && matches!(cfg.kind, Kind::Vertex | Kind::Fragment) {
        return cfg_err(
            "the uniforms check is for kind = \"compute\" and \"grid_kernel\" jobs (a vertex or \
             fragment job's driver and preamble set uniforms the configuration does not list)",
        );
    }
    let program = program_bytes(cfg, dir, code)?;
    // Entries another kind would silently ignore are errors.
    if cfg.kind == Kind::GridKernel {
        if !cfg.uniform.is_empty() || !cfg.special.is_empty() {
            return cfg_err(
                "a grid kernel's uniforms are its [[arg]]s: no [[uniform]] or [[special]]",
            );
        }
    } else if !cfg.arg.is_empty() || cfg.grid_kernel.is_some() {
        return cfg_err("[[arg]] and [grid_kernel] are for kind = \"grid_kernel\"");
    }
    let linked25 = cfg.abi.as_deref() == Some(LINKED25_ABI);
    let gallium = cfg.abi.as_deref() == Some(GALLIUM_ABI) || linked25;
    if gallium != cfg.gallium.is_some() {
        return cfg_err(format!(
            "[gallium] goes with abi = \"{GALLIUM_ABI}\" (a shader Mesa 22.3's driver compiled) \
             or \"{LINKED25_ABI}\" (a fragment program Mesa 25.0 linked)"
        ));
    }
    if (linked25 && cfg.kind == Kind::Fragment) != cfg.end_of_tile.is_some() {
        return cfg_err(format!(
            "[end_of_tile] goes with kind = \"fragment\", abi = \"{LINKED25_ABI}\", which needs it"
        ));
    }
    let abi = match (cfg.kind, cfg.abi.as_deref()) {
        (_, None) => AbiVersion::default(),
        (Kind::Vertex | Kind::Fragment, Some(GALLIUM_ABI)) => AbiVersion::default(),
        (Kind::Fragment, Some(LINKED25_ABI)) => AbiVersion::MesaCurrent,
        (Kind::Vertex | Kind::Fragment, Some(name)) => {
            AbiVersion::parse(name).ok_or_else(|| {
                RunError::Config(format!(
                    "abi = \"{name}\" (\"readme-2023\", \"mesa-current\", or \"{GALLIUM_ABI}\" for \
                     vertex jobs)"
                ))
            })?
        }
        (_, Some(_)) => return cfg_err("`abi` is for kind = \"vertex\" or \"fragment\""),
    };
    let mut dev = DeviceMemory::new();
    let (buffers, contents) = alloc_buffers(cfg, &mut dev)?;
    let lookup = |name: &str| -> Result<u64, RunError> {
        buffers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, a)| *a)
            .ok_or_else(|| RunError::Config(format!("no buffer {name}")))
    };
    fill_buffers(cfg, &mut dev, &buffers, contents, &lookup)?;
    let (uniforms, used_slots) = pack_uniforms(cfg, &lookup)?;
    let mut text = String::new();
    let mut pngs = vec![];
    match cfg.kind {
        Kind::Compute => {
            // The halves the job's [[uniform]]s cover (a zero value set explicitly is set too).
            let mut set = vec![false; uniforms.len()];
            for u in &cfg.uniform {
                let slots = match (u.u16, u.u32) {
                    (Some(_), _) => 1,
                    (None, Some(_)) => 2,
                    _ => 4,
                };
                for h in u.slot..(u.slot + slots).min(set.len()) {
                    set[h] = true;
                }
            }
            obs.uniforms_set(&set);
            run_compute(
                cfg,
                program,
                &uniforms[..used_slots],
                &dev,
                &lookup,
                &mut text,
                obs,
                check_init,
            )?
        }
        Kind::GridKernel => {
            run_grid_kernel(cfg, dir, program, &dev, &lookup, &mut text, obs, check_init)?
        }
        Kind::Fragment if gallium => {
            run_gallium_fragment(cfg, dir, program, &uniforms, &dev, &lookup, &mut text, obs)?
        }
        Kind::Fragment => run_fragment_job(cfg, abi, program, &mut dev, &mut text, &mut pngs, obs)?,
        Kind::Vertex if gallium => {
            run_gallium_vertex(cfg, program, &uniforms, &dev, &lookup, &mut text, obs)?
        }
        Kind::Vertex => {
            run_vertex_job(cfg, abi, program, &uniforms, &dev, &lookup, &mut text, obs)?
        }
    }
    write_outputs(cfg, &dev, &lookup, &mut text)?;
    Ok(RunResult { text, pngs })
}

/// Each buffer's name and device address, in configuration order.
type BufferAddrs = Vec<(String, u64)>;

/// Allocates every buffer (before any is filled: a struct may point at a later one); returns each
/// buffer's name and device address, with the bytes to write (structs are packed later).
fn alloc_buffers(
    cfg: &RunConfig,
    dev: &mut DeviceMemory,
) -> Result<(BufferAddrs, Vec<Vec<u8>>), RunError> {
    // Allocate every buffer first (a struct may point at a later one), then fill them.
    let mut buffers: Vec<(String, u64)> = vec![];
    let mut contents = vec![];
    for b in &cfg.buffer {
        let mut bytes: Vec<u8> = match (&b.u32, &b.f32, &b.u8, &b.fields) {
            (Some(v), None, None, None) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            (None, Some(v), None, None) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            (None, None, Some(v), None) => v.clone(),
            (None, None, None, Some(f)) if b.size.is_none() => struct_bytes(f, &|_| Ok(0))?,
            (None, None, None, None) if b.size.is_some() => vec![],
            _ => {
                return cfg_err(format!(
                    "buffer {}: give exactly one of u32, f32, u8, fields, or only a size",
                    b.name
                ))
            }
        };
        // `size` zero-fills the buffer up to that many bytes, after any contents given.
        match b.size {
            Some(n) if n > 1 << 26 || (n as usize) < bytes.len() => {
                return cfg_err(format!(
                    "buffer {}: size {n} (at most 64 MiB, at least the {} bytes given)",
                    b.name,
                    bytes.len()
                ))
            }
            Some(n) => bytes.resize(n as usize, 0),
            None => {}
        }
        let addr = dev.alloc(bytes.len().max(16) as u64, 64)?;
        buffers.push((b.name.clone(), addr));
        contents.push(bytes);
    }
    Ok((buffers, contents))
}

/// Writes each buffer's contents, packing structs now that every buffer has an address.
fn fill_buffers(
    cfg: &RunConfig,
    dev: &mut DeviceMemory,
    buffers: &[(String, u64)],
    mut contents: Vec<Vec<u8>>,
    lookup: &dyn Fn(&str) -> Result<u64, RunError>,
) -> Result<(), RunError> {
    for (i, b) in cfg.buffer.iter().enumerate() {
        let bytes = match &b.fields {
            Some(f) => struct_bytes(f, &lookup)?,
            None => std::mem::take(&mut contents[i]),
        };
        dev.write(buffers[i].1, &bytes)?;
    }
    Ok(())
}

/// The 16-bit uniform slots from `[[uniform]]`, and how many are in use.
fn pack_uniforms(
    cfg: &RunConfig,
    lookup: &dyn Fn(&str) -> Result<u64, RunError>,
) -> Result<(Vec<u16>, usize), RunError> {
    let mut uniforms = vec![0u16; 512];
    for u in &cfg.uniform {
        let (value, slots) = match (u.u16, u.u32, u.u64, &u.buffer) {
            (Some(v), None, None, None) => (v as u64, 1),
            (None, Some(v), None, None) => (v as u64, 2),
            (None, None, Some(v), None) => (v, 4),
            (None, None, None, Some(b)) => (lookup(b)? + u.offset, 4),
            _ => {
                return cfg_err(format!(
                    "uniform slot {}: give exactly one of u16, u32, u64, buffer",
                    u.slot
                ))
            }
        };
        if u.slot + slots > 512 {
            return cfg_err(format!("uniform slot {} out of range", u.slot));
        }
        for k in 0..slots {
            uniforms[u.slot + k] = (value >> (16 * k)) as u16;
        }
    }
    let used_slots = uniforms
        .iter()
        .rposition(|&v| v != 0)
        .map(|i| i + 1)
        .unwrap_or(0);
    Ok((uniforms, used_slots))
}

/// `kind = "compute"`: one dispatch of the kernel over the grid, through the shared engine.
#[allow(clippy::too_many_arguments)]
fn run_compute<O: crate::inside::AgxObserver>(
    cfg: &RunConfig,
    program: Vec<u8>,
    uniforms: &[u16],
    dev: &DeviceMemory,
    lookup: &dyn Fn(&str) -> Result<u64, RunError>,
    text: &mut String,
    obs: &mut O,
    check_init: bool,
) -> Result<(), RunError> {
    let c = cfg
        .compute
        .as_ref()
        .ok_or_else(|| RunError::Config("kind = \"compute\" needs [compute]".into()))?;
    let mut special = vec![];
    for s in &cfg.special {
        let v = match (s.u32, &s.buffer, s.half.as_deref()) {
            (Some(v), None, None) => v,
            (None, Some(b), Some("lo")) => lookup(b)? as u32,
            (None, Some(b), Some("hi")) => (lookup(b)? >> 32) as u32,
            _ => {
                return cfg_err(format!(
                    "special sr{}: give u32, or buffer and half = lo/hi",
                    s.sr
                ))
            }
        };
        special.push((s.sr, v));
    }
    let geometry = Geometry::new(&c.grid, &c.local).map_err(|e| RunError::Config(e.to_string()))?;
    let b = AgxCompute::new(
        program,
        ComputeLaunch {
            name: "kernel".into(),
            geometry,
            nr_gprs: cfg.nr_gprs,
            uniforms: uniforms.to_vec(),
            threadgroup_memory: c.threadgroup_memory,
            threads: c.threads,
            max_wave_insts: c.max_wave_insts,
            special,
        },
    );
    let b = if cfg.approximate {
        b.approximating()
    } else {
        b
    };
    let b = if check_init { b.checking_init() } else { b };
    let stats = wavesim_core::engine::run(&b, dev, obs)?;
    write_stats(text, &stats);
    write_approximated(text, &b.approximated());
    Ok(())
}

/// Names and counts the instructions run as their documented intent under `approximate = true`.
fn write_approximated(text: &mut String, counts: &std::collections::BTreeMap<&'static str, u64>) {
    if counts.is_empty() {
        return;
    }
    let list: Vec<String> = counts.iter().map(|(n, c)| format!("{n} x{c}")).collect();
    let _ = writeln!(
        text,
        "# approximated (documented intent, not the hardware's rule): {}",
        list.join(", ")
    );
}

fn write_stats(text: &mut String, stats: &DispatchStats) {
    let _ = writeln!(
        text,
        "# {} SIMD groups, {} instructions",
        stats.waves, stats.wave_instructions
    );
}

/// `kind = "grid_kernel"`: the asahi_clc kernel `program` with its report, dispatched as Mesa's
/// driver does (kernel::GridKernel) with the `[[arg]]`s over `[grid_kernel] grid`.
#[allow(clippy::too_many_arguments)]
fn run_grid_kernel<O: crate::inside::AgxObserver>(
    cfg: &RunConfig,
    dir: &Path,
    program: Vec<u8>,
    dev: &DeviceMemory,
    lookup: &dyn Fn(&str) -> Result<u64, RunError>,
    text: &mut String,
    obs: &mut O,
    check_init: bool,
) -> Result<(), RunError> {
    let g = cfg
        .grid_kernel
        .as_ref()
        .ok_or_else(|| RunError::Config("kind = \"grid_kernel\" needs [grid_kernel]".into()))?;
    let report = String::from_utf8(read_file(dir, &g.report)?)
        .map_err(|_| RunError::Config(format!("report {} is not UTF-8 text", g.report)))?;
    let kernel = GridKernel::new(program, &report)?;
    let args = cfg
        .arg
        .iter()
        .enumerate()
        .map(|(i, a)| a.value(i, lookup))
        .collect::<Result<Vec<_>, _>>()?;
    check_arguments(&kernel, &cfg.arg, &args)?;
    let (textures, samplers) = grid_state(cfg, g, dev, lookup)?;
    if !g.border.is_empty() && g.border.len() != samplers.len() {
        return cfg_err(format!(
            "{} borders for {} samplers (extended sampler state has one a sampler)",
            g.border.len(),
            samplers.len()
        ));
    }
    let borders = g
        .border
        .iter()
        .map(|b| {
            let mut out = [0u8; 16];
            for (i, w) in b.iter().enumerate() {
                out[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
            }
            out
        })
        .collect();
    // the preamble sees the state too (Mesa hoists uniform texture samples into it)
    let state = crate::kernel::BoundState {
        textures,
        samplers,
        borders,
    };
    let b = kernel.prepare_bound(&args, &g.grid, dev, g.threads, state)?;
    obs.uniforms_set(&vec![true; b.launch.uniforms.len()]);
    let b = if cfg.approximate {
        b.approximating()
    } else {
        b
    };
    let b = if check_init { b.checking_init() } else { b };
    let stats =
        wavesim_core::engine::run(&b, dev, obs).map_err(crate::kernel::KernelError::from)?;
    write_stats(text, &stats);
    write_approximated(text, &b.approximated());
    Ok(())
}

/// `[grid_kernel]`'s texture and sampler state arrays as the hardware reads them: `texture` and
/// `sampler` as `[gallium]` binds them (`gallium_state`), or the textures from `state` by index,
/// each descriptor's address field set to its buffer's address plus `offset`; with `table`, the
/// whole texture array also written to that buffer.
fn grid_state(
    cfg: &RunConfig,
    g: &GridKernelCfg,
    dev: &DeviceMemory,
    lookup: &dyn Fn(&str) -> Result<u64, RunError>,
) -> Result<BoundState, RunError> {
    if !g.state.is_empty() && !g.texture.is_empty() {
        return cfg_err("[grid_kernel]: give `texture` or `state`, not both");
    }
    let gallium = GalliumCfg {
        main_offset: 0,
        preamble_offset: None,
        nr_preamble_gprs: 0,
        texture: g.texture.clone(),
        sampler: g.sampler.clone(),
    };
    let (mut textures, samplers) = gallium_state(&gallium, lookup)?;
    let count = g.state.iter().map(|s| s.index + 1).max().unwrap_or(0);
    if count > 1 << 16 {
        return cfg_err(format!(
            "[grid_kernel] state index {} (the job format holds at most 65536 entries)",
            count - 1
        ));
    }
    if !g.state.is_empty() {
        textures = vec![[0u8; 24]; count];
    }
    let mut named = vec![false; count];
    for s in &g.state {
        if std::mem::replace(&mut named[s.index], true) {
            return cfg_err(format!("[grid_kernel] state index {} given twice", s.index));
        }
        let addr = lookup(&s.buffer)? + s.offset;
        if !addr.is_multiple_of(16) || addr >> 40 != 0 {
            return cfg_err(format!(
                "state {} in buffer {} at {addr:#x}: the descriptor holds 16-byte aligned 40-bit \
                 addresses",
                s.index, s.buffer
            ));
        }
        let mut bytes = [0u8; 24];
        for (i, w) in s.descriptor.iter().enumerate() {
            bytes[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
        // cmdbuf.xml: TEXTURE's address field starts at bit 66, PBE's at bit 64
        let shift = match s.kind {
            StateKind::Texture => 66,
            StateKind::Pbe => 64,
        };
        let mut lo = u128::from_le_bytes(bytes[..16].try_into().unwrap_or_default());
        let field = ((1u128 << 36) - 1) << shift;
        lo = (lo & !field) | u128::from(addr >> 4) << shift;
        bytes[..16].copy_from_slice(&lo.to_le_bytes());
        textures[s.index] = bytes;
    }
    if let Some(table) = &g.table {
        let bytes = textures.concat();
        // the buffer's bytes as `alloc_buffers` sizes it (structs have no table room)
        let room = cfg.buffer.iter().find(|b| &b.name == table).map(|b| {
            let given = b.u32.as_ref().map_or(0, |v| 4 * v.len())
                + b.f32.as_ref().map_or(0, |v| 4 * v.len())
                + b.u8.as_ref().map_or(0, Vec::len);
            given.max(b.size.unwrap_or(0) as usize)
        });
        match room {
            Some(n) if n >= bytes.len() => dev.write(lookup(table)?, &bytes)?,
            _ => {
                return cfg_err(format!(
                    "[grid_kernel] table {table}: needs a buffer of at least {} bytes",
                    bytes.len()
                ))
            }
        }
    }
    Ok((textures, samplers))
}

/// The first position, in order, where the configured arguments and the report's disagree (a width,
/// or one list ending before the other), named as the configuration names it.
fn check_arguments(
    kernel: &GridKernel,
    cfg_args: &[ArgCfg],
    values: &[KernelArg],
) -> Result<(), RunError> {
    let report = &kernel.report.args;
    let takes = report.len();
    for index in 0..takes.max(values.len()) {
        let problem = match (report.get(index), values.get(index)) {
            (Some(&[_, _, want]), Some(v)) if v.bits() != want => ArgProblem::Width {
                want,
                given: v.bits(),
            },
            (Some(_), None) => ArgProblem::Missing {
                takes,
                given: values.len(),
            },
            (None, Some(_)) => ArgProblem::NotInReport { takes },
            _ => continue,
        };
        return Err(RunError::Argument {
            entry: kernel.report.entry.clone(),
            index,
            name: cfg_args
                .get(index)
                .map_or_else(|| format!("#{index}"), |a| a.label(index)),
            problem,
        });
    }
    Ok(())
}

/// `kind = "fragment"`: the fragment shader over every pixel of the render targets.
fn run_fragment_job<O: crate::inside::AgxObserver>(
    cfg: &RunConfig,
    abi: AbiVersion,
    program: Vec<u8>,
    dev: &mut DeviceMemory,
    text: &mut String,
    pngs: &mut Vec<Vec<u8>>,
    obs: &mut O,
) -> Result<(), RunError> {
    let f = cfg
        .fragment
        .as_ref()
        .ok_or_else(|| RunError::Config("kind = \"fragment\" needs [fragment]".into()))?;
    if f.triangle.is_some() || f.fill_rule.is_some() {
        return cfg_err(
            "[fragment] triangle and fill_rule apply to abi = \"mesa-25.0-linked\" only (this \
             runner covers every pixel)",
        );
    }
    let render_targets = f
        .render_targets
        .iter()
        .map(|r| match r.as_str() {
            "f32" => Ok(ColourRegs::F32),
            "f16" => Ok(ColourRegs::F16),
            other => cfg_err(format!("render target format {other} (f32 or f16)")),
        })
        .collect::<Result<Vec<_>, _>>()?;
    let blend = match f.blend.as_deref() {
        None | Some("replace") => Blend::Replace,
        Some("dual_source") => Blend::DualSourceOneMinusSrc1,
        Some("constant") => Blend::Constant,
        Some(other) => return cfg_err(format!("blend {other} (replace, dual_source, constant)")),
    };
    let prolog = f.prolog_asm.as_deref().map(assemble).transpose()?;
    let fc = FragmentConfig {
        main: program,
        nr_gprs: cfg.nr_gprs,
        prolog,
        width: f.width,
        height: f.height,
        samples: f.samples,
        sample_shading: f.sample_shading,
        render_targets,
        dual_source: f.dual_source,
        blend,
        blend_constant: f.blend_constant,
        writes_depth: f.writes_depth,
        writes_stencil: f.writes_stencil,
        writes_sample_mask: f.writes_sample_mask,
        clear_colour: f.clear,
        abi,
        coefficients: f.coefficients.clone(),
        back_facing: f.front_facing.map(|front| !front),
        approximate: cfg.approximate,
    };
    let r = run_fragment_observed(&fc, dev, obs)?;
    let _ = writeln!(
        text,
        "# {}x{} pixels, {} samples, {} invocations",
        r.width, r.height, r.samples, r.invocations
    );
    write_approximated(text, &r.approximated);
    for rt in 0..r.colour.len() {
        pngs.push(r.png(rt)?);
        // first pixel's first sample, for a quick look
        let c = r.colour[rt][0];
        let _ = writeln!(
            text,
            "rt{rt} pixel(0,0) = {} {} {} {}",
            c[0], c[1], c[2], c[3]
        );
    }
    Ok(())
}

/// `kind = "vertex"`: the vertex shader for every vertex and instance of one draw.
#[allow(clippy::too_many_arguments)]
fn run_vertex_job<O: crate::inside::AgxObserver>(
    cfg: &RunConfig,
    abi: AbiVersion,
    program: Vec<u8>,
    uniforms: &[u16],
    dev: &DeviceMemory,
    lookup: &dyn Fn(&str) -> Result<u64, RunError>,
    text: &mut String,
    obs: &mut O,
) -> Result<(), RunError> {
    let v = cfg
        .vertex
        .as_ref()
        .ok_or_else(|| RunError::Config("kind = \"vertex\" needs [vertex]".into()))?;
    let mut attributes = vec![];
    for a in &v.attribute {
        if !(1..=4).contains(&a.components) || a.components_read > 0xF {
            return cfg_err(format!(
                "attribute of buffer {}: components = {} (1 to 4), components_read = {:#x} (a \
                 4-bit mask)",
                a.buffer, a.components, a.components_read
            ));
        }
        let format = match a.format.as_str() {
            "u32" => AttribFormat::U32(a.components),
            "f32" => AttribFormat::F32(a.components),
            "unorm8" => AttribFormat::Unorm8(a.components),
            other => return cfg_err(format!("attribute format {other} (u32, f32, unorm8)")),
        };
        attributes.push(VertexAttribute {
            base: lookup(&a.buffer)? + a.offset,
            stride: a.stride,
            format,
            instanced: a.divisor,
            clamp: a.clamp.unwrap_or(u32::MAX),
            components_read: a.components_read,
        });
    }
    let n = attributes.len();
    let hw = v
        .input_assembly
        .as_deref()
        .map(|b| {
            lookup(b).map(|ia_state| HardwareCompute {
                ia_state,
                index_size: 0,
            })
        })
        .transpose()?;
    let reserved = crate::abi::vertex_uniform_slots(n, hw.is_some(), abi);
    let after_preamble;
    // what the preamble ran under the opt-in counts with the vertices'
    let mut preamble_approximated = Default::default();
    let uniforms = match v.preamble_offset {
        None => uniforms,
        Some(offset) => {
            let shader = crate::gallium::Shader {
                code: program.clone(),
                main_offset: 0,
                preamble_offset: Some(offset),
                nr_gprs: cfg.nr_gprs,
                nr_preamble_gprs: v.nr_preamble_gprs,
                uniforms: uniforms.to_vec(),
                approximate: cfg.approximate,
                textures: vec![],
                samplers: vec![],
            };
            let program = crate::exec::Program::new(program.clone());
            (after_preamble, preamble_approximated) = shader.uniforms_after_preamble(
                "vertex preamble",
                &program,
                dev,
                &mut NoObserver,
            )?;
            &after_preamble[..]
        }
    };
    let extra: Vec<(usize, u16)> = uniforms
        .iter()
        .enumerate()
        .filter(|(i, v)| *i >= reserved && **v != 0)
        .map(|(i, v)| (i, *v))
        .collect();
    let vc = VertexConfig {
        main: program,
        nr_gprs: cfg.nr_gprs,
        attributes,
        uniforms: extra,
        abi,
        approximate: cfg.approximate,
    };
    let draw = VertexDraw {
        vertex_count: v.vertex_count,
        instance_count: v.instance_count,
        first_vertex: v.first_vertex,
        base_instance: v.base_instance,
        draw_id: v.draw_id,
        index_buffer: None,
        hardware_compute: hw,
    };
    let mut result = run_vertex_observed(&vc, &draw, dev, obs)?;
    for (name, n) in preamble_approximated {
        *result.approximated.entry(name).or_insert(0) += n;
    }
    write_invocations(text, &result, &v.show_registers)
}

/// The `abi` of jobs running a shader Mesa 22.3's gallium driver compiled.
const GALLIUM_ABI: &str = "mesa-22.3";
/// The `abi` of fragment jobs running a program Mesa 25.0 linked as its gallium driver links it
/// (prolog, main part and epilog in one program, the main part's preamble at
/// `[gallium] preamble_offset`; tools/agx/glsl_graphics.c) and its end-of-tile program.
const LINKED25_ABI: &str = "mesa-25.0-linked";

/// `kind = "vertex"`, `abi = "mesa-22.3"`: the shader fetches its own attributes from the buffers its
/// uniforms point at, so the `[vertex]` table gives only the counts.
fn run_gallium_vertex<O: crate::inside::AgxObserver>(
    cfg: &RunConfig,
    program: Vec<u8>,
    uniforms: &[u16],
    dev: &DeviceMemory,
    lookup: &dyn Fn(&str) -> Result<u64, RunError>,
    text: &mut String,
    obs: &mut O,
) -> Result<(), RunError> {
    let v = cfg
        .vertex
        .as_ref()
        .ok_or_else(|| RunError::Config("kind = \"vertex\" needs [vertex]".into()))?;
    if !v.attribute.is_empty()
        || v.input_assembly.is_some()
        || v.first_vertex != 0
        || v.base_instance != 0
        || v.draw_id != 0
    {
        return cfg_err(
            "abi = \"mesa-22.3\": the shader fetches its attributes itself (no [[vertex.attribute]], \
             input_assembly, first_vertex, base_instance or draw_id)",
        );
    }
    let shader = gallium_shader(cfg, program, uniforms, lookup)?;
    let result =
        crate::gallium::run_vertex_observed(&shader, v.vertex_count, v.instance_count, dev, obs)?;
    write_invocations(text, &result, &v.show_registers)
}

/// `kind = "fragment"`, `abi = "mesa-22.3"`: one render target stored by the shader's `st_tile`s,
/// printed per pixel as the tile buffer holds it (`pixel X Y: B0 B1 ...`, 8 bytes). Of `[fragment]`
/// only width, height and coefficients apply; the rest must keep its default.
#[allow(clippy::too_many_arguments)]
fn run_gallium_fragment<O: crate::inside::AgxObserver>(
    cfg: &RunConfig,
    dir: &Path,
    program: Vec<u8>,
    uniforms: &[u16],
    dev: &DeviceMemory,
    lookup: &dyn Fn(&str) -> Result<u64, RunError>,
    text: &mut String,
    obs: &mut O,
) -> Result<(), RunError> {
    let f = cfg
        .fragment
        .as_ref()
        .ok_or_else(|| RunError::Config("kind = \"fragment\" needs [fragment]".into()))?;
    let linked25 = cfg.abi.as_deref() == Some(LINKED25_ABI);
    if ((f.samples != 1 || f.triangle.is_some() || f.fill_rule.is_some()) && !linked25)
        || f.sample_shading
        || !f.render_targets.is_empty()
        || f.dual_source
        || f.blend.is_some()
        || f.blend_constant != [0.0; 4]
        || f.writes_depth
        || f.writes_stencil
        || f.writes_sample_mask
        || f.clear != [0.0; 4]
        || f.prolog_asm.is_some()
    {
        return cfg_err(
            "abi = \"mesa-22.3\" and \"mesa-25.0-linked\": [fragment] takes width, height, \
             coefficients and front_facing only, and \"mesa-25.0-linked\" also samples, \
             triangle and fill_rule (the program stores its render targets itself; its epilog is \
             in the code)",
        );
    }
    let shader = gallium_shader(cfg, program, uniforms, lookup)?;
    let draw = crate::gallium::FragmentDraw {
        width: f.width,
        height: f.height,
        coefficients: f.coefficients.clone(),
        back_facing: f.front_facing.map(|front| !front),
        end_of_tile: match &cfg.end_of_tile {
            Some(e) => Some(end_of_tile(e, dir, lookup)?),
            None => None,
        },
        samples: f.samples,
        triangle: match (f.triangle, f.fill_rule.as_deref()) {
            (None, None) => None,
            (None, Some(_)) => return cfg_err("[fragment] fill_rule without a triangle"),
            (Some(v), rule) => {
                let rule = match rule {
                    None => crate::raster::FillRule::Exact,
                    Some("top-left") => crate::raster::FillRule::TopLeft,
                    Some(other) => return cfg_err(format!("fill_rule {other} (\"top-left\")")),
                };
                // a vertex off the grid is the job's mistake: a configuration error
                Some(
                    crate::raster::Triangle::new(v, rule)
                        .map_err(|e| RunError::Config(format!("[fragment] triangle: {e}")))?,
                )
            }
        },
    };
    let r = crate::gallium::run_fragment_observed(&shader, &draw, dev, obs)?;
    // one line per pixel, or per sample of a multisampled draw
    let ns = r.samples as usize;
    for (i, px) in r.pixels.iter().enumerate() {
        let (x, y) = ((i / ns) as u32 % f.width, (i / ns) as u32 / f.width);
        let bytes: Vec<String> = px.iter().map(|b| b.to_string()).collect();
        if ns == 1 {
            let _ = writeln!(text, "pixel {x} {y}: {}", bytes.join(" "));
        } else {
            let _ = writeln!(text, "pixel {x} {y} sample {}: {}", i % ns, bytes.join(" "));
        }
    }
    // zs_emit's outputs: depth as f32 bits, stencil; per sample when multisampled
    for (i, (z, s)) in r.depth.iter().zip(&r.stencil).enumerate() {
        let (x, y) = ((i / ns) as u32 % f.width, (i / ns) as u32 / f.width);
        let at = if ns == 1 {
            format!("{x} {y}")
        } else {
            format!("{x} {y} sample {}", i % ns)
        };
        if let Some(z) = z {
            let _ = writeln!(text, "depth {at}: {:08x}", z.to_bits());
        }
        if let Some(s) = s {
            let _ = writeln!(text, "stencil {at}: {s}");
        }
    }
    write_approximated(text, &r.approximated);
    Ok(())
}

/// `[end_of_tile]` as the driver binds it: the program and the PBE descriptor with its address.
fn end_of_tile(
    e: &EndOfTileCfg,
    dir: &Path,
    lookup: &dyn Fn(&str) -> Result<u64, RunError>,
) -> Result<crate::gallium::EndOfTile, RunError> {
    let more_pbes = e
        .target
        .iter()
        .map(|t| pbe_with_address(&t.pbe, &t.image, t.offset, lookup))
        .collect::<Result<_, _>>()?;
    Ok(crate::gallium::EndOfTile {
        code: read_file(dir, &e.code)?,
        nr_gprs: e.nr_gprs,
        pbe: pbe_with_address(&e.pbe, &e.image, e.offset, lookup)?,
        more_pbes,
        clear: e.clear,
    })
}

/// A PBE descriptor with its address field (bits 64-99, the address >> 4) set to `image`'s
/// device address plus `offset`.
fn pbe_with_address(
    words: &[u32; 6],
    image: &str,
    offset: u64,
    lookup: &dyn Fn(&str) -> Result<u64, RunError>,
) -> Result<[u8; 24], RunError> {
    let addr = lookup(image)? + offset;
    if !addr.is_multiple_of(16) || addr >> 40 != 0 {
        return cfg_err(format!(
            "end-of-tile image in buffer {image} at {addr:#x}: the PBE descriptor holds 16-byte \
             aligned 40-bit addresses"
        ));
    }
    let mut pbe = [0u8; 24];
    for (i, w) in words.iter().enumerate() {
        pbe[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    let mut lo = u128::from_le_bytes(pbe[..16].try_into().unwrap_or_default());
    let field = ((1u128 << 36) - 1) << 64;
    lo = (lo & !field) | u128::from(addr >> 4) << 64;
    pbe[..16].copy_from_slice(&lo.to_le_bytes());
    Ok(pbe)
}

/// One line per vertex invocation: the registers asked for, then the `st_var` outputs.
fn write_invocations(
    text: &mut String,
    result: &crate::abi::VertexRun,
    show_registers: &[usize],
) -> Result<(), RunError> {
    for inv in &result.invocations {
        let _ = write!(
            text,
            "vertex {} instance {}:",
            inv.vertex_id, inv.instance_id
        );
        for &r in show_registers {
            let value = inv.regs.get(r).copied().ok_or_else(|| {
                RunError::Config(format!(
                    "show_registers: r{r} does not exist (r0 to r{})",
                    inv.regs.len().saturating_sub(1)
                ))
            })?;
            let _ = write!(text, " r{r}={value:#x}");
        }
        for (slot, value) in &inv.varyings {
            let _ = write!(text, " out{slot}={value:#x}");
        }
        text.push('\n');
    }
    write_approximated(text, &result.approximated);
    Ok(())
}

/// Prints each `[[output]]` buffer in its format.
fn write_outputs(
    cfg: &RunConfig,
    dev: &DeviceMemory,
    lookup: &dyn Fn(&str) -> Result<u64, RunError>,
    text: &mut String,
) -> Result<(), RunError> {
    for o in &cfg.output {
        let base = lookup(&o.buffer)?;
        let _ = write!(text, "{}:", o.buffer);
        for i in 0..o.count as u64 {
            let v = match o.format.as_str() {
                "u8" => {
                    let mut b = [0u8];
                    dev.read(base + i, &mut b)?;
                    b[0].to_string()
                }
                "u16" => {
                    let mut b = [0u8; 2];
                    dev.read(base + 2 * i, &mut b)?;
                    u16::from_le_bytes(b).to_string()
                }
                "u32" => dev.read_u32(base + 4 * i)?.to_string(),
                "i32" => (dev.read_u32(base + 4 * i)? as i32).to_string(),
                "u64" => dev.read_u64(base + 8 * i)?.to_string(),
                "f32" => f32::from_bits(dev.read_u32(base + 4 * i)?).to_string(),
                other => return cfg_err(format!("output format {other}")),
            };
            let _ = write!(text, " {v}");
        }
        text.push('\n');
    }
    Ok(())
}
