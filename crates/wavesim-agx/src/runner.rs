//! A run described by a TOML file, for the CLI and the shipped examples: a compute dispatch, a seed 001
//! vertex draw or fragment pass, with named device buffers, uniforms and outputs.
//!
//! ```toml
//! kind = "compute"            # or "vertex", "fragment"
//! asm = "stop"                # applegpu-syntax source; or `code = "file.bin"` (resolved by the caller)
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
//! [fragment]                  # see abi::FragmentConfig; render_targets: "f32" | "f16" each
//! width = 16
//! height = 8
//! render_targets = ["f32"]
//!
//! [vertex]                    # see abi::VertexDraw; attributes name their buffer
//! vertex_count = 3
//! show_registers = [8, 9]
//! [[vertex.attribute]]
//! buffer = "in"
//! stride = 4
//! format = "u32"              # f32 f16 u32 s32 u16 s16 u8 s8 unorm8 snorm8 unorm16 snorm16; `components` 1-4
//! ```

use crate::abi::{
    run_fragment, run_vertex, AbiError, AttribFormat, Blend, ColourRegs, FragmentConfig,
    HardwareCompute, VertexAttribute, VertexConfig, VertexDraw,
};
use crate::asm::{assemble, AsmError};
use crate::compute::{AgxCompute, ComputeLaunch};
use crate::exec::ExecError;
use serde::Deserialize;
use std::fmt::Write as _;
use wavesim_core::error::DispatchError;
use wavesim_core::grid::Geometry;
use wavesim_core::memory::{DeviceMemory, MemError};
use wavesim_core::observe::NoObserver;

/// Why a configured run failed.
#[derive(Debug, thiserror::Error)]
pub enum RunError {
    #[error("config: {0}")]
    Config(String),
    #[error(transparent)]
    Asm(#[from] AsmError),
    #[error(transparent)]
    Abi(#[from] AbiError),
    #[error(transparent)]
    Dispatch(#[from] DispatchError<ExecError>),
    #[error("memory: {0}")]
    Memory(#[from] MemError),
}

#[derive(Debug, Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    Compute,
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
    pub fragment: Option<FragmentCfg>,
    pub vertex: Option<VertexCfg>,
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

fn cfg_err<T>(what: impl Into<String>) -> Result<T, RunError> {
    Err(RunError::Config(what.into()))
}

/// Run `cfg`; `code` is the program when the configuration names a code file instead of `asm`.
pub fn run(cfg: &RunConfig, code: Option<&[u8]>) -> Result<RunResult, RunError> {
    let program = match (&cfg.asm, code) {
        (Some(src), _) => assemble(src)?,
        (None, Some(c)) => c.to_vec(),
        (None, None) => return cfg_err("give `asm` or a code file"),
    };
    let mut dev = DeviceMemory::new();
    // Allocate every buffer first (a struct may point at a later one), then fill them.
    let mut buffers: Vec<(String, u64)> = vec![];
    let mut contents = vec![];
    for b in &cfg.buffer {
        let bytes: Vec<u8> = match (&b.u32, &b.f32, &b.u8, b.size, &b.fields) {
            (Some(v), None, None, None, None) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            (None, Some(v), None, None, None) => v.iter().flat_map(|x| x.to_le_bytes()).collect(),
            (None, None, Some(v), None, None) => v.clone(),
            (None, None, None, Some(n), None) if n <= 1 << 26 => vec![0; n as usize],
            (None, None, None, None, Some(f)) => struct_bytes(f, &|_| Ok(0))?,
            _ => {
                return cfg_err(format!(
                    "buffer {}: give exactly one of u32, f32, u8, size (at most 64 MiB), fields",
                    b.name
                ))
            }
        };
        let addr = dev.alloc(bytes.len().max(16) as u64, 64)?;
        buffers.push((b.name.clone(), addr));
        contents.push(bytes);
    }
    let lookup = |name: &str| -> Result<u64, RunError> {
        buffers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, a)| *a)
            .ok_or_else(|| RunError::Config(format!("no buffer {name}")))
    };
    for (i, b) in cfg.buffer.iter().enumerate() {
        let bytes = match &b.fields {
            Some(f) => struct_bytes(f, &lookup)?,
            None => std::mem::take(&mut contents[i]),
        };
        dev.write(buffers[i].1, &bytes)?;
    }
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
    let mut text = String::new();
    let mut pngs = vec![];
    match cfg.kind {
        Kind::Compute => {
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
            let geometry =
                Geometry::new(&c.grid, &c.local).map_err(|e| RunError::Config(e.to_string()))?;
            let b = AgxCompute::new(
                program,
                ComputeLaunch {
                    name: "kernel".into(),
                    geometry,
                    nr_gprs: cfg.nr_gprs,
                    uniforms: uniforms[..used_slots].to_vec(),
                    threadgroup_memory: c.threadgroup_memory,
                    threads: c.threads,
                    max_wave_insts: c.max_wave_insts,
                    special,
                },
            );
            let stats = wavesim_core::engine::run(&b, &dev, &mut NoObserver)?;
            let _ = writeln!(
                text,
                "# {} SIMD groups, {} instructions",
                stats.waves, stats.wave_instructions
            );
        }
        Kind::Fragment => {
            let f = cfg
                .fragment
                .as_ref()
                .ok_or_else(|| RunError::Config("kind = \"fragment\" needs [fragment]".into()))?;
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
                Some(other) => {
                    return cfg_err(format!("blend {other} (replace, dual_source, constant)"))
                }
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
            };
            let r = run_fragment(&fc, &mut dev)?;
            let _ = writeln!(
                text,
                "# {}x{} pixels, {} samples, {} invocations",
                r.width, r.height, r.samples, r.invocations
            );
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
        }
        Kind::Vertex => {
            let v = cfg
                .vertex
                .as_ref()
                .ok_or_else(|| RunError::Config("kind = \"vertex\" needs [vertex]".into()))?;
            let mut attributes = vec![];
            for a in &v.attribute {
                let format = match a.format.as_str() {
                    "u32" => AttribFormat::U32(a.components),
                    "f32" => AttribFormat::F32(a.components),
                    "unorm8" => AttribFormat::Unorm8(a.components),
                    other => {
                        return cfg_err(format!("attribute format {other} (u32, f32, unorm8)"))
                    }
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
            let reserved = crate::abi::vertex_uniform_slots(n, hw.is_some());
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
            for inv in run_vertex(&vc, &draw, &dev)? {
                let _ = write!(
                    text,
                    "vertex {} instance {}:",
                    inv.vertex_id, inv.instance_id
                );
                for &r in &v.show_registers {
                    let _ = write!(text, " r{r}={:#x}", inv.regs.get(r).copied().unwrap_or(0));
                }
                for (slot, value) in &inv.varyings {
                    let _ = write!(text, " out{slot}={value:#x}");
                }
                text.push('\n');
            }
        }
    }
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
    Ok(RunResult { text, pngs })
}
