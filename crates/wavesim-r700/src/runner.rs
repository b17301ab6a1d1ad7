//! The runner: what a driver sets before a draw, from a small TOML file, and the exports per target.
//!
//! ```toml
//! threads = 8                      # or: grid = [16, 16] (a 2-D pixel grid, row-major threads;
//!                                  # even sides run in 2x2 quads, see `quad_order`)
//! clause_temp_gprs = 0             # clause temporaries take GPR addresses 128-n..127
//! bool_constants = 0               # CF COND = BOOL/NOT_BOOL constants, bit k = b[k]
//! [[gpr]]                          # per-thread inputs: T<reg> = values[thread]
//! reg = 0
//! values = [[0.5, 1.0, 2, "0x3f800000"], ...]   # float -> f32 bits, integer -> raw dword, "0x.." raw
//! [[gpr]]                          # or, on a grid: pixel = "uv" (centre, normalized) or "xy"
//! reg = 1
//! pixel = "uv"
//! [[constant_buffer]]              # kcache banks; also VTX fetch constant <index> with stride 16
//! index = 0
//! values = [[1.0, 2.0, 3.0, 4.0]]
//! constant_file = [[0.0, 0.0, 0.0, 0.0]]        # c0.. (512 entries at most)
//! [[loop_constant]]                # integer constant I used by LOOP_START / LOOP_START_NO_AL
//! index = 0
//! count = 4
//! init = 0
//! inc = 1
//! [[fetch_constant]]               # vertex buffers for VTX fetches
//! id = 2
//! base = 0                         # byte offset of element 0
//! stride = 16
//! data = [1.0, 2.0, 3.0, 4.0]      # dwords
//! [[texture]]
//! resource = 0
//! width = 2
//! height = 2
//! format = "rgba8"                 # or "rgba32f", or "depth32f" (one float a texel)
//! data = [255, 0, 0, 255, ...]     # bytes (rgba8) or floats (rgba32f, depth32f)
//! swizzle = "xxx1"                 # the resource's DST_SEL_X..W (default "xyzw")
//! mips = [[...], [...]]            # optional mip levels 1, 2, ... (max(1, size >> k) texels each)
//! dim = "cube"                     # optional: "2d" (default), "1d" (height 1), "1d_array",
//!                                  # "2d_array", "3d" or "cube" (`data` = six faces +X -X +Y -Y +Z -Z)
//! layers = 4                       # arrays: layers, 3d: depth slices, one after another in `data`
//! [[sampler]]
//! id = 0
//! filter = "bilinear"              # or "point"; others are a typed error naming them
//! wrap_u = "wrap"                  # "wrap", "clamp" (to edge) or "border"
//! wrap_v = "clamp"
//! wrap_w = "clamp"                 # 3d textures: CLAMP_Z; z_filter = "point" (default) or "linear"
//! border = [0.0, 0.0, 0.0, 1.0]
//! mip_filter = "linear"            # "none" (default, base level), "point" or "linear"
//! compare = "lequal"               # depth compare for SAMPLE_C* (reference OP texel.x)
//! fetch_shader_words = ["0x...", ...]  # the fetch subroutine CALL_FS runs, as uploaded words
//!                                  # (or `fetch_shader` = its assembly text)
//! [global_gprs]                    # SIMD-global GPRs (INDEX_GLOBAL operands), as a driver sets them
//! values = [[0, 0, 0, 0]]
//! ```

// Per-lane loops index several parallel arrays (GPR channels, masks, results) by lane.
#![allow(clippy::needless_range_loop)]

use serde::Deserialize;

use crate::exec::{DriverState, ExportTarget, FetchConstant, LoopConstant};
pub use crate::results::{RunError, ThreadResult};
use crate::shader::Shader;
use crate::texture::{CompareFunc, Filter, MipFilter, Sampler, TexDim, TexFormat, Texture, Wrap};

/// A dword given as a float (f32 bits), an integer (raw, two's complement) or a `"0x..."` string.
#[derive(Clone, Debug, Deserialize)]
#[serde(untagged)]
pub enum Dword {
    // Int before Float: untagged deserialization takes the first variant that accepts the value, and
    // an f64 accepts TOML integers too.
    Int(i64),
    Float(f64),
    Text(String),
}

impl Dword {
    pub fn bits(&self) -> Result<u32, RunError> {
        match self {
            Dword::Float(f) => Ok((*f as f32).to_bits()),
            Dword::Int(i) if *i >= i32::MIN as i64 && *i <= u32::MAX as i64 => Ok(*i as u32),
            Dword::Int(i) => Err(RunError::Config(format!(
                "integer {i} does not fit 32 bits"
            ))),
            Dword::Text(s) => s
                .strip_prefix("0x")
                .and_then(|h| u32::from_str_radix(h, 16).ok())
                .ok_or_else(|| RunError::Config(format!("`{s}` is not a 0x-prefixed hex dword"))),
        }
    }
}

fn vec4(v: &[Dword; 4]) -> Result<[u32; 4], RunError> {
    Ok([v[0].bits()?, v[1].bits()?, v[2].bits()?, v[3].bits()?])
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GprInput {
    pub reg: u32,
    #[serde(default)]
    pub values: Vec<[Dword; 4]>,
    pub pixel: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ConstBuf {
    pub index: u32,
    pub values: Vec<[Dword; 4]>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LoopConstCfg {
    pub index: u32,
    pub count: u32,
    #[serde(default)]
    pub init: i32,
    #[serde(default)]
    pub inc: i32,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FetchConstCfg {
    pub id: u32,
    /// Byte offset of element 0 in `data`.
    #[serde(default)]
    pub base: u32,
    pub stride: u32,
    pub data: Vec<Dword>,
    /// [data format, num format, signed] used when an instruction sets USE_CONST_FIELDS.
    pub format: Option<(u32, u32, bool)>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextureCfg {
    pub resource: u32,
    pub width: u32,
    /// Required except for "1d" and "1d_array" (height 1).
    #[serde(default)]
    pub height: Option<u32>,
    pub format: String,
    pub data: Vec<Dword>,
    /// Mip levels 1, 2, ...: each level's data in the same form as `data` (for cube maps six faces and
    /// for arrays every layer of that level, one after another).
    #[serde(default)]
    pub mips: Vec<Vec<Dword>>,
    /// "2d" (default), "1d", "1d_array", "2d_array", "3d" or "cube" (six faces in `data`, face-id order
    /// +X, -X, +Y, -Y, +Z, -Z).
    #[serde(default)]
    pub dim: Option<String>,
    /// Layers of a "1d_array"/"2d_array" or depth slices of a "3d" texture, one after another in `data`.
    #[serde(default)]
    pub layers: Option<u32>,
    /// The resource's DST_SEL_X..W as four of `x y z w 0 1` (default "xyzw"; a depth32f texture
    /// needs one that selects only x, 0 and 1, e.g. "xxx1").
    #[serde(default)]
    pub swizzle: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SamplerCfg {
    pub id: u32,
    pub filter: String,
    #[serde(default = "wrap_default")]
    pub wrap_u: String,
    #[serde(default = "wrap_default")]
    pub wrap_v: String,
    /// CLAMP_Z for 3-D textures.
    #[serde(default = "wrap_default")]
    pub wrap_w: String,
    /// Z_FILTER for 3-D textures: "point" (default) or "linear".
    #[serde(default)]
    pub z_filter: Option<String>,
    #[serde(default)]
    pub border: [f32; 4],
    /// "none" (default: the base level), "point" or "linear".
    #[serde(default)]
    pub mip_filter: Option<String>,
    /// Depth compare function for SAMPLE_C*: "never", "less", "equal", "lequal", "greater",
    /// "notequal", "gequal", "always".
    #[serde(default)]
    pub compare: Option<String>,
}

fn wrap_default() -> String {
    "wrap".into()
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GlobalGprCfg {
    pub values: Vec<[Dword; 4]>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RunConfig {
    pub threads: Option<usize>,
    pub grid: Option<[u32; 2]>,
    #[serde(default)]
    pub gpr: Vec<GprInput>,
    #[serde(default)]
    pub constant_buffer: Vec<ConstBuf>,
    #[serde(default)]
    pub constant_file: Vec<[Dword; 4]>,
    #[serde(default)]
    pub loop_constant: Vec<LoopConstCfg>,
    #[serde(default)]
    pub bool_constants: u32,
    #[serde(default)]
    pub fetch_constant: Vec<FetchConstCfg>,
    #[serde(default)]
    pub texture: Vec<TextureCfg>,
    #[serde(default)]
    pub sampler: Vec<SamplerCfg>,
    #[serde(default)]
    pub clause_temp_gprs: u32,
    pub global_gprs: Option<GlobalGprCfg>,
    /// Fetch subroutine (assembly text) for CALL_FS; without it the inputs are the fetched GPRs.
    pub fetch_shader: Option<String>,
    /// Fetch subroutine as the words a driver uploads (Mesa's r600 fetch shaders), instead of text.
    pub fetch_shader_words: Option<Vec<Dword>>,
    /// CF-instruction budget per wave (runaway-loop guard); default 1,000,000.
    pub max_cf_per_wave: Option<u64>,
    /// Stack entries, overriding the object's STACK_SIZE (as a driver programs SQ_PGM_RESOURCES).
    pub stack_entries: Option<u32>,
    /// GPRs per thread, overriding the object's NUM_GPRS.
    pub num_gprs: Option<u32>,
}

impl RunConfig {
    pub fn from_toml(text: &str) -> Result<RunConfig, RunError> {
        toml::from_str(text).map_err(|e| RunError::Config(e.to_string()))
    }

    pub fn thread_count(&self) -> Result<usize, RunError> {
        match (self.threads, self.grid) {
            (Some(n), None) => Ok(n),
            (None, Some([w, h])) => Ok(w as usize * h as usize),
            (None, None) => Err(RunError::Config("give `threads` or `grid`".into())),
            (Some(_), Some(_)) => Err(RunError::Config(
                "give `threads` or `grid`, not both".into(),
            )),
        }
    }
}

#[derive(Clone, Debug)]
pub struct RunResult {
    pub threads: Vec<ThreadResult>,
    pub global_gprs: Vec<[u32; 4]>,
    pub waves: usize,
    /// CF instructions executed, over all waves.
    pub cf_instructions: u64,
    /// ALU instruction groups executed, times the threads active in each.
    pub lane_groups: u64,
    /// Time the engine spent running the waves.
    pub elapsed: std::time::Duration,
    pub grid: Option<[u32; 2]>,
}

impl RunResult {
    /// The value a thread exported to a target (the last export to it).
    pub fn export(&self, thread: usize, target: ExportTarget) -> Option<[Option<u32>; 4]> {
        self.threads
            .get(thread)?
            .exports
            .iter()
            .rev()
            .find(|e| e.target == target)
            .map(|e| e.value)
    }

    /// One line per thread and export: `thread 3 pixel0 = 1 0.5 0 1`.
    pub fn to_text(&self) -> String {
        let mut s = String::new();
        for (t, r) in self.threads.iter().enumerate() {
            if r.killed {
                s += &format!("thread {t} killed\n");
            }
            for e in &r.exports {
                let v: Vec<String> = e
                    .value
                    .iter()
                    .map(|c| {
                        c.map(|b| format!("{}", f32::from_bits(b)))
                            .unwrap_or("_".into())
                    })
                    .collect();
                s += &format!("thread {t} {} = {}\n", e.target, v.join(" "));
            }
        }
        s
    }

    /// PNG bytes of pixel export `target` over the grid (RGBA8, values clamped to [0, 1]; killed or
    /// unexported pixels transparent black).
    pub fn png(&self, target: u32) -> Result<Vec<u8>, RunError> {
        let [w, h] = self
            .grid
            .ok_or_else(|| RunError::Config("a PNG needs a `grid` run".into()))?;
        // A target no thread exported would be a blank image that looks like a result.
        let exported = |t: u32| {
            self.threads
                .iter()
                .any(|r| r.exports.iter().any(|e| e.target == ExportTarget::Pixel(t)))
        };
        if !exported(target) {
            let have: Vec<String> = (0..8u32)
                .filter(|&t| exported(t))
                .map(|t| t.to_string())
                .collect();
            return Err(RunError::Config(format!(
                "PNG target {target}: no thread exported pixel{target} (exported targets: {})",
                if have.is_empty() {
                    "none".to_string()
                } else {
                    have.join(", ")
                }
            )));
        }
        let mut rgba = Vec::with_capacity((w * h * 4) as usize);
        for t in 0..(w * h) as usize {
            let v = if self.threads[t].killed {
                None
            } else {
                self.export(t, ExportTarget::Pixel(target))
            };
            for k in 0..4 {
                let f = v.and_then(|v| v[k]).map(f32::from_bits).unwrap_or(0.0);
                let f = if f.is_nan() { 0.0 } else { f.clamp(0.0, 1.0) };
                rgba.push((f * 255.0).round() as u8);
            }
        }
        let mut out = Vec::new();
        {
            let mut enc = png::Encoder::new(&mut out, w, h);
            enc.set_color(png::ColorType::Rgba);
            enc.set_depth(png::BitDepth::Eight);
            let mut wr = enc
                .write_header()
                .map_err(|e| RunError::Config(format!("png: {e}")))?;
            wr.write_image_data(&rgba)
                .map_err(|e| RunError::Config(format!("png: {e}")))?;
        }
        Ok(out)
    }
}

fn parse_wrap(s: &str) -> Result<Wrap, RunError> {
    match s {
        "wrap" | "repeat" => Ok(Wrap::Repeat),
        "clamp" | "clamp_to_edge" | "clamp_last_texel" => Ok(Wrap::ClampToEdge),
        "border" | "clamp_border" => Ok(Wrap::Border),
        other => Err(RunError::Config(format!(
            "sampler address mode `{other}` is not modelled (wrap, clamp, border)"
        ))),
    }
}

/// Builds the driver state a configuration describes.
pub fn driver_state(shader: &Shader, cfg: &RunConfig) -> Result<DriverState, RunError> {
    let mut d = DriverState::default();
    if cfg.clause_temp_gprs > 4 {
        return Err(RunError::Config("clause_temp_gprs is at most 4".into()));
    }
    d.clause_temp_gprs = cfg.clause_temp_gprs;
    if let Some((gprs, stack)) = shader.resources() {
        d.num_gprs = gprs;
        d.stack_size = Some(stack);
    }
    if let Some(s) = cfg.stack_entries {
        d.stack_size = Some(s);
    }
    if let Some(g) = cfg.num_gprs {
        d.num_gprs = g;
    }
    for cb in &cfg.constant_buffer {
        if cb.index > 15 {
            return Err(RunError::Config(format!(
                "constant buffer {} is outside 0..15",
                cb.index
            )));
        }
        let i = cb.index as usize;
        if d.constant_buffers.len() <= i {
            d.constant_buffers.resize(i + 1, Vec::new());
        }
        d.constant_buffers[i] = cb.values.iter().map(vec4).collect::<Result<_, _>>()?;
    }
    if cfg.constant_file.len() > 512 {
        return Err(RunError::Config("the constant file has 512 entries".into()));
    }
    d.constant_file = cfg
        .constant_file
        .iter()
        .map(vec4)
        .collect::<Result<_, _>>()?;
    for lc in &cfg.loop_constant {
        if lc.index > 31 {
            return Err(RunError::Config(format!(
                "loop constant {} is outside 0..31",
                lc.index
            )));
        }
        let i = lc.index as usize;
        if d.loop_constants.len() <= i {
            d.loop_constants.resize(i + 1, LoopConstant::default());
        }
        d.loop_constants[i] = LoopConstant {
            count: lc.count,
            init: lc.init,
            inc: lc.inc,
        };
    }
    d.bool_constants = cfg.bool_constants;
    // Constant buffers double as VTX fetch constants id = index, stride 16 (the way LLVM's R600 back end
    // reads a constant buffer with a dynamic index: VTX_READ with BUFFER_ID = the buffer's index).
    // A vertex program reaches 176 fetch constants: its own 160 and, at 160..175, the fetch
    // shader's vertex buffers (Mesa's r600 driver: fetch shaders on R600/R700 read buffer
    // 160 + i, which the driver binds at R600_FETCH_CONSTANTS_OFFSET_FS = 320 = the VS base 160
    // plus 160; r600_asm.c, r600_state.c).
    let mut fcs: Vec<Option<FetchConstant>> = vec![None; 176];
    for (i, cb) in d.constant_buffers.iter().enumerate() {
        let data: Vec<u8> = cb
            .iter()
            .flat_map(|v| v.iter().flat_map(|x| x.to_le_bytes()))
            .collect();
        fcs[i] = Some(FetchConstant {
            data,
            base: 0,
            stride: 16,
            format: None,
            constant_buffer: true,
        });
    }
    for fc in &cfg.fetch_constant {
        if fc.id >= 176 {
            return Err(RunError::Config(format!(
                "fetch constant {} is outside 0..175",
                fc.id
            )));
        }
        let mut data = Vec::new();
        for x in &fc.data {
            data.extend_from_slice(&x.bits()?.to_le_bytes());
        }
        fcs[fc.id as usize] = Some(FetchConstant {
            data,
            base: fc.base,
            stride: fc.stride,
            format: fc.format,
            constant_buffer: false,
        });
    }
    d.fetch_constants = fcs;
    d.textures = vec![None; 160];
    for t in &cfg.texture {
        if t.resource >= 160 {
            return Err(RunError::Config(format!(
                "texture resource {} is outside 0..159",
                t.resource
            )));
        }
        let decode = |data: &[Dword]| -> Result<(TexFormat, Vec<u8>), RunError> {
            Ok(match t.format.as_str() {
                "rgba8" => {
                    let b: Result<Vec<u8>, RunError> = data
                        .iter()
                        .map(|x| match x {
                            Dword::Int(i) if (0..256).contains(i) => Ok(*i as u8),
                            _ => Err(RunError::Config(
                                "rgba8 texture data are bytes 0..255".into(),
                            )),
                        })
                        .collect();
                    (TexFormat::Rgba8Unorm, b?)
                }
                "rgba32f" | "depth32f" => {
                    let mut b = Vec::new();
                    for x in data {
                        b.extend_from_slice(&x.bits()?.to_le_bytes());
                    }
                    let f = if t.format == "rgba32f" {
                        TexFormat::Rgba32Float
                    } else {
                        TexFormat::Depth32Float
                    };
                    (f, b)
                }
                other => {
                    return Err(RunError::Config(format!(
                        "texture format `{other}` is not modelled (rgba8, rgba32f, depth32f)"
                    )))
                }
            })
        };
        let (format, bytes) = decode(&t.data)?;
        let height = t.height.unwrap_or(1);
        let layered = |dim| match t.layers {
            Some(n) => Texture::new_layered(dim, t.width, height, n, format, &bytes),
            None => Err("an array or 3-D texture needs `layers`".into()),
        };
        let flat = |r: Result<Texture, String>| match t.layers {
            Some(_) => Err("`layers` applies to 1d_array, 2d_array and 3d textures only".into()),
            None => r,
        };
        let one_row = |r: Result<Texture, String>| match t.height {
            None | Some(1) => r,
            Some(h) => Err(format!("a 1-D texture has height 1, not {h}")),
        };
        let need_height = |r: Result<Texture, String>| match t.height {
            Some(_) => r,
            None => Err("a 2-D, 3-D or cube texture needs `height`".into()),
        };
        let mut tex = match t.dim.as_deref() {
            None | Some("2d") => need_height(flat(Texture::new(t.width, height, format, &bytes))),
            Some("1d") => one_row(flat(Texture::new_1d(t.width, format, &bytes))),
            Some("1d_array") => one_row(layered(TexDim::D1Array)),
            Some("2d_array") => need_height(layered(TexDim::D2Array)),
            Some("3d") => need_height(layered(TexDim::D3)),
            Some("cube") => need_height(flat(Texture::new_cube(t.width, height, format, &bytes))),
            Some(other) => Err(format!(
                "texture dim `{other}` is not modelled (1d, 1d_array, 2d, 2d_array, 3d, cube)"
            )),
        }
        .map_err(RunError::Config)?;
        for m in &t.mips {
            tex.push_mip(&decode(m)?.1).map_err(RunError::Config)?;
        }
        let sw = t.swizzle.as_deref().unwrap_or("xyzw");
        let sels: Vec<u8> = sw
            .chars()
            .map(|c| "xyzw01".find(c).map(|k| k as u8))
            .collect::<Option<_>>()
            .filter(|v: &Vec<u8>| v.len() == 4)
            .ok_or_else(|| {
                RunError::Config(format!(
                    "texture swizzle `{sw}` is not four of x, y, z, w, 0, 1"
                ))
            })?;
        tex.set_swizzle([sels[0], sels[1], sels[2], sels[3]])
            .map_err(|e| RunError::Config(format!("texture resource {}: {e}", t.resource)))?;
        d.textures[t.resource as usize] = Some(tex);
    }
    d.samplers = vec![None; 18];
    for s in &cfg.sampler {
        if s.id >= 18 {
            return Err(RunError::Config(format!(
                "sampler {} is outside 0..17 (18 per program type)",
                s.id
            )));
        }
        let filter = match s.filter.as_str() {
            "point" | "nearest" => Filter::Point,
            "bilinear" | "linear" => Filter::Bilinear,
            other => {
                return Err(RunError::Config(format!(
                    "texture filter `{other}` is not modelled (point, bilinear)"
                )))
            }
        };
        d.samplers[s.id as usize] = Some(Sampler {
            filter,
            wrap_u: parse_wrap(&s.wrap_u)?,
            wrap_v: parse_wrap(&s.wrap_v)?,
            wrap_w: parse_wrap(&s.wrap_w)?,
            z_filter: match s.z_filter.as_deref() {
                None | Some("point") | Some("nearest") => Filter::Point,
                Some("linear") => Filter::Bilinear,
                Some(other) => {
                    return Err(RunError::Config(format!(
                        "z filter `{other}` is not modelled (point, linear)"
                    )))
                }
            },
            border: s.border,
            mip_filter: match s.mip_filter.as_deref() {
                None | Some("none") => MipFilter::None,
                Some("point") | Some("nearest") => MipFilter::Point,
                Some("linear") => MipFilter::Linear,
                Some(other) => {
                    return Err(RunError::Config(format!(
                        "mip filter `{other}` is not modelled (none, point, linear)"
                    )))
                }
            },
            compare: match s.compare.as_deref() {
                None => None,
                Some(c) => Some(match c {
                    "never" => CompareFunc::Never,
                    "less" => CompareFunc::Less,
                    "equal" => CompareFunc::Equal,
                    "lequal" => CompareFunc::LessEqual,
                    "greater" => CompareFunc::Greater,
                    "notequal" => CompareFunc::NotEqual,
                    "gequal" => CompareFunc::GreaterEqual,
                    "always" => CompareFunc::Always,
                    other => {
                        return Err(RunError::Config(format!(
                            "compare function `{other}` is not one of never, less, equal, lequal, greater, notequal, gequal, always"
                        )))
                    }
                }),
            },
        });
    }
    if let Some(g) = &cfg.global_gprs {
        // Global GPRs come first in the SIMD's 128 addressable GPRs (R700 ISA reference 2.6.1).
        if g.values.len() > 128 {
            return Err(RunError::Config("at most 128 SIMD-global GPRs".into()));
        }
        d.global_gprs = g.values.iter().map(vec4).collect::<Result<_, _>>()?;
    }
    let fetch_bytes = match (&cfg.fetch_shader, &cfg.fetch_shader_words) {
        (Some(_), Some(_)) => {
            return Err(RunError::Config(
                "give `fetch_shader` or `fetch_shader_words`, not both".into(),
            ))
        }
        (Some(fs), None) => Some(crate::asm::assemble(fs)?),
        (None, Some(words)) => {
            let mut b = Vec::with_capacity(words.len() * 4);
            for w in words {
                b.extend_from_slice(&w.bits()?.to_le_bytes());
            }
            Some(b)
        }
        (None, None) => None,
    };
    if let Some(bytes) = fetch_bytes {
        d.fetch_shader = Some(crate::decode::Program::decode(shader.chip(), &bytes)?);
    }
    Ok(d)
}

/// Dispatch order of a `w` x `h` pixel grid (both even) in 2x2 quads: entry d is the row-major pixel
/// index of dispatch thread d.
fn quad_order(w: usize, h: usize) -> Vec<usize> {
    let quads_per_row = w / 2;
    (0..w * h)
        .map(|d| {
            let (q, k) = (d / 4, d % 4);
            let x = 2 * (q % quads_per_row) + (k & 1);
            let y = 2 * (q / quads_per_row) + (k >> 1);
            y * w + x
        })
        .collect()
}

/// Runs `shader` over the configured threads, wave by wave (SIMD-global GPRs persist across waves).
pub fn run(shader: &Shader, cfg: &RunConfig) -> Result<RunResult, RunError> {
    run_observed(shader, cfg, &mut wavesim_core::observe::NoObserver)
}

/// The static checks of `crate::inside::check` on `shader`, with the stack limit the run uses
/// (the object's STACK_SIZE, at most the chip's).
pub fn check(
    shader: &Shader,
    cfg: &RunConfig,
    checks: crate::inside::check::Checks,
) -> Result<Vec<crate::inside::check::Finding>, RunError> {
    let drv = driver_state(shader, cfg)?;
    let chip_max = shader.program.chip.max_stack_entries();
    let limit = drv.stack_size.unwrap_or(chip_max).min(chip_max);
    let mut f = crate::inside::check::check(&shader.program, checks, limit);
    if let Some(fs) = &drv.fetch_shader {
        f.extend(crate::inside::check::check(fs, checks, limit));
    }
    Ok(f)
}

/// [`run`] with `obs` seeing every step (CF instruction, ALU group, fetch instruction) of every
/// wave, waves in order on one thread.
pub fn run_observed<O: wavesim_core::observe::Observer<crate::exec::Wave, crate::exec::Step>>(
    shader: &Shader,
    cfg: &RunConfig,
    obs: &mut O,
) -> Result<RunResult, RunError> {
    let n = cfg.thread_count()?;
    if n > 1 << 22 {
        return Err(RunError::Config(format!(
            "{n} threads is more than wavesim runs at once"
        )));
    }
    let mut drv = driver_state(shader, cfg)?;
    // A pixel grid with even sides runs quad by quad, as the hardware packs pixel wavefronts: dispatch
    // thread d is pixel `order[d]` (row-major), lanes 4q..4q+3 the quad's (x, y), (x + 1, y), (x, y + 1),
    // (x + 1, y + 1). Inputs and results stay in row-major pixel order for the caller.
    let order: Option<Vec<usize>> = match cfg.grid {
        Some([w, h]) if w % 2 == 0 && h % 2 == 0 => Some(quad_order(w as usize, h as usize)),
        _ => None,
    };
    drv.quads = order.is_some();
    let mut inputs: Vec<(usize, Vec<[u32; 4]>)> = Vec::new();
    for g in &cfg.gpr {
        if g.reg >= 128 {
            return Err(RunError::Config(format!(
                "input T{} is outside T0..T127",
                g.reg
            )));
        }
        let vals: Vec<[u32; 4]> = match (&g.pixel, cfg.grid) {
            (Some(p), Some([w, h])) => (0..n)
                .map(|t| {
                    let (x, y) = ((t % w as usize) as f32, (t / w as usize) as f32);
                    match p.as_str() {
                        "uv" => Ok([(x + 0.5) / w as f32, (y + 0.5) / h as f32, 0.0, 1.0]
                            .map(f32::to_bits)),
                        "xy" => Ok([x, y, 0.0, 1.0].map(f32::to_bits)),
                        other => Err(RunError::Config(format!("pixel input `{other}` (uv, xy)"))),
                    }
                })
                .collect::<Result<_, _>>()?,
            (Some(_), None) => return Err(RunError::Config("`pixel` inputs need a `grid`".into())),
            (None, _) => {
                if g.values.len() < n {
                    return Err(RunError::Config(format!(
                        "T{} has {} values for {n} threads",
                        g.reg,
                        g.values.len()
                    )));
                }
                g.values
                    .iter()
                    .take(n)
                    .map(vec4)
                    .collect::<Result<_, _>>()?
            }
        };
        let vals = match &order {
            Some(o) => o.iter().map(|&p| vals[p]).collect(),
            None => vals,
        };
        inputs.push((g.reg as usize, vals));
    }
    let budget = cfg.max_cf_per_wave.unwrap_or(1_000_000);
    let dispatch = crate::backend::R700Dispatch::new(shader, n, inputs, drv, budget)
        .map_err(|e| RunError::Config(e.0))?;
    let mem = wavesim_core::memory::DeviceMemory::new();
    let stats =
        wavesim_core::engine::run(&dispatch, &mem, obs).map_err(crate::backend::dispatch_error)?;
    let mut threads = dispatch.take_results();
    if let Some(o) = &order {
        let mut by_pixel = vec![None; threads.len()];
        for (d, t) in threads.into_iter().enumerate() {
            if let Some(slot) = o.get(d).and_then(|&p| by_pixel.get_mut(p)) {
                *slot = Some(t);
            }
        }
        threads = by_pixel
            .into_iter()
            .map(|t| {
                t.unwrap_or(ThreadResult {
                    killed: false,
                    exports: Vec::new(),
                })
            })
            .collect();
    }
    let drv = dispatch.into_driver_state();
    Ok(RunResult {
        threads,
        global_gprs: drv.global_gprs,
        waves: stats.waves as usize,
        cf_instructions: stats.wave_instructions,
        lane_groups: stats.lane_instructions,
        elapsed: stats.elapsed,
        grid: cfg.grid,
    })
}
