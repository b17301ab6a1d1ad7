//! Scene files: a draw described in TOML (what `wavesim draw SCENE.toml` reads), turned into a
//! [`DrawConfig`] with its [`PipelineState`]. docs/GRAPHICS.md documents every key; paths are
//! relative to the scene file. Every key is optional except `vs`, `ps`, `width`, `height` and
//! `targets`; a scene without the pipeline keys draws as scenes did before them (a triangle list,
//! y-up full viewport, LESS depth test when `depth_clear` is given).

use crate::gfx::draw::{
    draw, DrawConfig, DrawError, DrawResult, ExportFormat, RenderTarget, Texture,
};
use crate::gfx::pipeline::*;
use crate::gfx::targets::ColorFormat;
use serde::Deserialize;
use wavesim_core::limits;

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawSpec {
    pub vs: String,
    pub ps: String,
    pub width: u32,
    pub height: u32,
    /// The depth buffer's clear value (older spelling of `depth.clear`).
    #[serde(default)]
    pub depth_clear: Option<f32>,
    #[serde(default)]
    pub wave64: bool,
    #[serde(default)]
    pub flat_attributes: u32,
    /// float4 attributes the VS writes to the ring (default: as many as `vertices` carry).
    #[serde(default)]
    pub attributes: Option<u32>,
    #[serde(default)]
    pub vs_uniforms: Vec<u32>,
    #[serde(default)]
    pub ps_uniforms: Vec<u32>,
    pub targets: Vec<TargetSpec>,
    #[serde(default)]
    pub vertices: Vec<VertexSpec>,
    #[serde(default)]
    pub textures: Vec<TextureSpec>,
    #[serde(default)]
    pub topology: Option<String>,
    #[serde(default)]
    pub primitive_restart: bool,
    /// "vulkan" (default: round to nearest, ties to even) or "d3d" (floor(x * 255 + 0.5)).
    #[serde(default)]
    pub unorm_rounding: Option<String>,
    #[serde(default)]
    pub draw: Option<DrawCallSpec>,
    #[serde(default)]
    pub indices: Option<IndicesSpec>,
    #[serde(default)]
    pub vertex_buffers: Vec<BufferSpec>,
    #[serde(default)]
    pub vertex_inputs: Vec<InputSpec>,
    #[serde(default)]
    pub viewport: Option<ViewportSpec>,
    #[serde(default)]
    pub scissor: Option<ScissorSpec>,
    #[serde(default)]
    pub rasterization: Option<RasterSpec>,
    #[serde(default)]
    pub depth: Option<DepthSpec>,
    #[serde(default)]
    pub stencil: Option<StencilSpec>,
    #[serde(default)]
    pub blend_constants: [f32; 4],
    #[serde(default)]
    pub multisample: Option<MultisampleSpec>,
}

/// `[multisample]`: rasterizationSamples, pSampleMask and custom sample locations.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MultisampleSpec {
    pub samples: u32,
    #[serde(default)]
    pub sample_mask: Option<u32>,
    /// Per sample [x, y] in 1/16 pixel from the pixel's top-left corner (0..=15).
    #[serde(default)]
    pub locations: Option<Vec<[u8; 2]>>,
    /// The PS runs once per covered sample (minSampleShading 1).
    #[serde(default)]
    pub sample_shading: bool,
    /// The MRTZ channel (0-3) whose low 16 bits are the PS's exported sample mask.
    #[serde(default)]
    pub mask_export_channel: Option<usize>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetSpec {
    pub format: String,
    #[serde(default = "default_export")]
    pub export: String,
    #[serde(default)]
    pub clear: [f32; 4],
    #[serde(default)]
    pub blend: Option<BlendSpec>,
    /// Letters of the components written ("rgba" default, "" none).
    #[serde(default)]
    pub write_mask: Option<String>,
}

fn default_export() -> String {
    "f32".into()
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BlendSpec {
    #[serde(default = "yes")]
    pub enable: bool,
    pub src_color: String,
    pub dst_color: String,
    #[serde(default)]
    pub color_op: Option<String>,
    /// Default: the colour factors.
    #[serde(default)]
    pub src_alpha: Option<String>,
    #[serde(default)]
    pub dst_alpha: Option<String>,
    #[serde(default)]
    pub alpha_op: Option<String>,
}

fn yes() -> bool {
    true
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct VertexSpec {
    pub position: [f32; 4],
    #[serde(default)]
    pub attributes: Vec<[f32; 4]>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TextureSpec {
    /// T# data format number (RDNA3 ISA Table 52).
    pub format: u32,
    pub width: u32,
    pub height: u32,
    /// Texel bytes, row-major.
    pub data: Vec<u8>,
    /// S# dwords (RDNA3 ISA Table 51).
    pub sampler: [u32; 4],
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DrawCallSpec {
    pub vertex_count: Option<u32>,
    #[serde(default)]
    pub first_vertex: u32,
    #[serde(default = "one")]
    pub instance_count: u32,
    #[serde(default)]
    pub first_instance: u32,
}

fn one() -> u32 {
    1
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct IndicesSpec {
    /// "u16" or "u32".
    #[serde(rename = "type")]
    pub index_type: String,
    pub values: Vec<u32>,
    #[serde(default)]
    pub first_index: u32,
    /// Default: the values after `first_index`.
    #[serde(default)]
    pub count: Option<u32>,
    #[serde(default)]
    pub vertex_offset: i32,
}

/// A vertex buffer: exactly one of the typed arrays gives its bytes (little-endian).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BufferSpec {
    pub stride: u32,
    /// "vertex" (default) or "instance".
    #[serde(default)]
    pub input_rate: Option<String>,
    #[serde(default = "one")]
    pub divisor: u32,
    #[serde(default)]
    pub f32: Option<Vec<f32>>,
    #[serde(default)]
    pub u32: Option<Vec<u32>>,
    #[serde(default)]
    pub i32: Option<Vec<i32>>,
    #[serde(default)]
    pub u16: Option<Vec<u16>>,
    #[serde(default)]
    pub u8: Option<Vec<u8>>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InputSpec {
    pub location: u32,
    pub binding: u32,
    pub format: String,
    #[serde(default)]
    pub offset: u32,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ViewportSpec {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
    #[serde(default)]
    pub min_depth: f32,
    #[serde(default = "one_f")]
    pub max_depth: f32,
}

fn one_f() -> f32 {
    1.0
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ScissorSpec {
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RasterSpec {
    #[serde(default)]
    pub cull_mode: Option<String>,
    #[serde(default)]
    pub front_face: Option<String>,
    #[serde(default)]
    pub depth_clamp: bool,
    #[serde(default)]
    pub point_size: Option<f32>,
    #[serde(default)]
    pub line_width: Option<f32>,
    #[serde(default)]
    pub clip_distances: u32,
    /// depthBiasEnable with its factors (the table given: enabled).
    #[serde(default)]
    pub depth_bias: Option<DepthBiasSpec>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DepthBiasSpec {
    #[serde(default)]
    pub constant: f32,
    #[serde(default)]
    pub slope: f32,
    /// 0: no clamp.
    #[serde(default)]
    pub clamp: f32,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DepthSpec {
    pub clear: f32,
    #[serde(default = "yes")]
    pub test: bool,
    #[serde(default = "yes")]
    pub write: bool,
    #[serde(default)]
    pub compare: Option<String>,
    /// "d32_sfloat" (default) or "d16_unorm".
    #[serde(default)]
    pub format: Option<String>,
    #[serde(default)]
    pub bounds: Option<DepthBoundsSpec>,
}

/// The depth bounds test: `min` and `max` when enabled, neither when not.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct DepthBoundsSpec {
    #[serde(default = "yes")]
    pub enable: bool,
    #[serde(default)]
    pub min: Option<f32>,
    #[serde(default)]
    pub max: Option<f32>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StencilSpec {
    #[serde(default)]
    pub clear: u8,
    #[serde(default = "yes")]
    pub test: bool,
    #[serde(default)]
    pub front: FaceSpec,
    /// Default: as `front`.
    #[serde(default)]
    pub back: Option<FaceSpec>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FaceSpec {
    #[serde(default)]
    pub fail: Option<String>,
    #[serde(default)]
    pub pass: Option<String>,
    #[serde(default)]
    pub depth_fail: Option<String>,
    #[serde(default)]
    pub compare: Option<String>,
    #[serde(default)]
    pub compare_mask: Option<u8>,
    #[serde(default)]
    pub write_mask: Option<u8>,
    #[serde(default)]
    pub reference: u8,
}

fn bad<T>(m: String) -> Result<T, DrawError> {
    Err(DrawError::Config(m))
}

/// Looks `name` up in a (name, value) table; the error lists the names.
fn pick<T: Copy>(what: &str, name: &str, table: &[(&str, T)]) -> Result<T, DrawError> {
    table
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<&str> = table.iter().map(|(n, _)| *n).collect();
            DrawError::Config(format!("{what} {name:?}: one of {}", names.join(", ")))
        })
}

fn opt<T: Copy>(
    what: &str,
    name: &Option<String>,
    table: &[(&str, T)],
    default: T,
) -> Result<T, DrawError> {
    name.as_deref()
        .map_or(Ok(default), |n| pick(what, n, table))
}

const COMPARE: &[(&str, CompareOp)] = &[
    ("never", CompareOp::Never),
    ("less", CompareOp::Less),
    ("equal", CompareOp::Equal),
    ("less_or_equal", CompareOp::LessOrEqual),
    ("greater", CompareOp::Greater),
    ("not_equal", CompareOp::NotEqual),
    ("greater_or_equal", CompareOp::GreaterOrEqual),
    ("always", CompareOp::Always),
];

const STENCIL_OPS: &[(&str, StencilOp)] = &[
    ("keep", StencilOp::Keep),
    ("zero", StencilOp::Zero),
    ("replace", StencilOp::Replace),
    ("increment_and_clamp", StencilOp::IncrementAndClamp),
    ("decrement_and_clamp", StencilOp::DecrementAndClamp),
    ("invert", StencilOp::Invert),
    ("increment_and_wrap", StencilOp::IncrementAndWrap),
    ("decrement_and_wrap", StencilOp::DecrementAndWrap),
];

const FACTORS: &[(&str, BlendFactor)] = &[
    ("zero", BlendFactor::Zero),
    ("one", BlendFactor::One),
    ("src_color", BlendFactor::SrcColor),
    ("one_minus_src_color", BlendFactor::OneMinusSrcColor),
    ("dst_color", BlendFactor::DstColor),
    ("one_minus_dst_color", BlendFactor::OneMinusDstColor),
    ("src_alpha", BlendFactor::SrcAlpha),
    ("one_minus_src_alpha", BlendFactor::OneMinusSrcAlpha),
    ("dst_alpha", BlendFactor::DstAlpha),
    ("one_minus_dst_alpha", BlendFactor::OneMinusDstAlpha),
    ("constant_color", BlendFactor::ConstantColor),
    (
        "one_minus_constant_color",
        BlendFactor::OneMinusConstantColor,
    ),
    ("constant_alpha", BlendFactor::ConstantAlpha),
    (
        "one_minus_constant_alpha",
        BlendFactor::OneMinusConstantAlpha,
    ),
    ("src_alpha_saturate", BlendFactor::SrcAlphaSaturate),
    ("src1_color", BlendFactor::Src1Color),
    ("one_minus_src1_color", BlendFactor::OneMinusSrc1Color),
    ("src1_alpha", BlendFactor::Src1Alpha),
    ("one_minus_src1_alpha", BlendFactor::OneMinusSrc1Alpha),
];

const BLEND_OPS: &[(&str, BlendOp)] = &[
    ("add", BlendOp::Add),
    ("subtract", BlendOp::Subtract),
    ("reverse_subtract", BlendOp::ReverseSubtract),
    ("min", BlendOp::Min),
    ("max", BlendOp::Max),
];

const VERTEX_FORMATS: &[(&str, VertexFormat)] = &[
    ("r32_sfloat", VertexFormat::R32Sfloat),
    ("r32g32_sfloat", VertexFormat::R32G32Sfloat),
    ("r32g32b32_sfloat", VertexFormat::R32G32B32Sfloat),
    ("r32g32b32a32_sfloat", VertexFormat::R32G32B32A32Sfloat),
    ("r32_uint", VertexFormat::R32Uint),
    ("r32g32_uint", VertexFormat::R32G32Uint),
    ("r32g32b32_uint", VertexFormat::R32G32B32Uint),
    ("r32g32b32a32_uint", VertexFormat::R32G32B32A32Uint),
    ("r32_sint", VertexFormat::R32Sint),
    ("r32g32_sint", VertexFormat::R32G32Sint),
    ("r32g32b32_sint", VertexFormat::R32G32B32Sint),
    ("r32g32b32a32_sint", VertexFormat::R32G32B32A32Sint),
    ("r16g16_sfloat", VertexFormat::R16G16Sfloat),
    ("r16g16b16a16_sfloat", VertexFormat::R16G16B16A16Sfloat),
    ("r16g16_unorm", VertexFormat::R16G16Unorm),
    ("r16g16_snorm", VertexFormat::R16G16Snorm),
    ("r16g16_uint", VertexFormat::R16G16Uint),
    ("r16g16_sint", VertexFormat::R16G16Sint),
    ("r8g8b8a8_unorm", VertexFormat::R8G8B8A8Unorm),
    ("r8g8b8a8_snorm", VertexFormat::R8G8B8A8Snorm),
    ("r8g8b8a8_uint", VertexFormat::R8G8B8A8Uint),
    ("r8g8b8a8_sint", VertexFormat::R8G8B8A8Sint),
    ("r8g8b8a8_uscaled", VertexFormat::R8G8B8A8Uscaled),
    ("r8g8b8a8_sscaled", VertexFormat::R8G8B8A8Sscaled),
    ("b8g8r8a8_unorm", VertexFormat::B8G8R8A8Unorm),
];

fn face(f: &FaceSpec) -> Result<StencilFace, DrawError> {
    let d = StencilFace::default();
    Ok(StencilFace {
        fail_op: opt("stencil op", &f.fail, STENCIL_OPS, d.fail_op)?,
        pass_op: opt("stencil op", &f.pass, STENCIL_OPS, d.pass_op)?,
        depth_fail_op: opt("stencil op", &f.depth_fail, STENCIL_OPS, d.depth_fail_op)?,
        compare_op: opt("stencil compare", &f.compare, COMPARE, d.compare_op)?,
        compare_mask: f.compare_mask.unwrap_or(d.compare_mask),
        write_mask: f.write_mask.unwrap_or(d.write_mask),
        reference: f.reference,
    })
}

/// depthBoundsTestEnable's (min, max): both in [0, 1], as Vulkan requires without
/// VK_EXT_depth_range_unrestricted (RADV's bounds registers hold those values).
fn depth_bounds(b: &DepthBoundsSpec) -> Result<Option<(f32, f32)>, DrawError> {
    match (b.enable, b.min, b.max) {
        (false, None, None) => Ok(None),
        (false, _, _) => bad("[depth.bounds] min/max with enable = false".into()),
        (true, Some(lo), Some(hi)) if (0.0..=1.0).contains(&lo) && (0.0..=1.0).contains(&hi) => {
            Ok(Some((lo, hi)))
        }
        (true, Some(lo), Some(hi)) => bad(format!(
            "[depth.bounds] min {lo}, max {hi}: each within [0, 1]"
        )),
        (true, _, _) => bad("[depth.bounds] needs min and max".into()),
    }
}

fn depth_bias(b: &DepthBiasSpec) -> Result<DepthBias, DrawError> {
    if ![b.constant, b.slope, b.clamp].iter().all(|v| v.is_finite()) {
        return bad(format!(
            "[rasterization.depth_bias] {b:?}: constant, slope and clamp must be finite"
        ));
    }
    Ok(DepthBias {
        constant: b.constant,
        slope: b.slope,
        clamp: b.clamp,
    })
}

fn write_mask(m: &Option<String>) -> Result<u8, DrawError> {
    let Some(m) = m else { return Ok(0xf) };
    let mut bits = 0u8;
    for c in m.chars() {
        let b = match c {
            'r' => 1,
            'g' => 2,
            'b' => 4,
            'a' => 8,
            _ => return bad(format!("write_mask {m:?}: letters r, g, b, a")),
        };
        if bits & b != 0 {
            return bad(format!("write_mask {m:?} repeats {c}"));
        }
        bits |= b;
    }
    Ok(bits)
}

fn blend_attachment(t: &TargetSpec) -> Result<BlendAttachment, DrawError> {
    let mut a = BlendAttachment {
        write_mask: write_mask(&t.write_mask)?,
        ..Default::default()
    };
    if let Some(b) = &t.blend {
        a.enable = b.enable;
        a.src_color = pick("blend factor", &b.src_color, FACTORS)?;
        a.dst_color = pick("blend factor", &b.dst_color, FACTORS)?;
        a.color_op = opt("blend op", &b.color_op, BLEND_OPS, BlendOp::Add)?;
        a.src_alpha = opt("blend factor", &b.src_alpha, FACTORS, a.src_color)?;
        a.dst_alpha = opt("blend factor", &b.dst_alpha, FACTORS, a.dst_color)?;
        a.alpha_op = opt("blend op", &b.alpha_op, BLEND_OPS, a.color_op)?;
    }
    Ok(a)
}

fn buffer_bytes(b: &BufferSpec) -> Result<Vec<u8>, DrawError> {
    let mut found: Vec<Vec<u8>> = Vec::new();
    if let Some(v) = &b.f32 {
        found.push(v.iter().flat_map(|x| x.to_le_bytes()).collect());
    }
    if let Some(v) = &b.u32 {
        found.push(v.iter().flat_map(|x| x.to_le_bytes()).collect());
    }
    if let Some(v) = &b.i32 {
        found.push(v.iter().flat_map(|x| x.to_le_bytes()).collect());
    }
    if let Some(v) = &b.u16 {
        found.push(v.iter().flat_map(|x| x.to_le_bytes()).collect());
    }
    if let Some(v) = &b.u8 {
        found.push(v.clone());
    }
    if found.len() != 1 {
        return bad(
            "a [[vertex_buffers]] entry needs exactly one of f32, u32, i32, u16, u8".into(),
        );
    }
    Ok(found.remove(0))
}

impl DrawSpec {
    pub fn parse(text: &str) -> Result<DrawSpec, DrawError> {
        toml::from_str(text).map_err(|e| DrawError::Config(format!("scene: {e}")))
    }

    fn pipeline(&self) -> Result<PipelineState, DrawError> {
        let mut p = PipelineState {
            topology: opt(
                "topology",
                &self.topology,
                &[
                    ("point_list", Topology::PointList),
                    ("line_list", Topology::LineList),
                    ("line_strip", Topology::LineStrip),
                    ("triangle_list", Topology::TriangleList),
                    ("triangle_strip", Topology::TriangleStrip),
                    ("triangle_fan", Topology::TriangleFan),
                ],
                Topology::TriangleList,
            )?,
            primitive_restart: self.primitive_restart,
            unorm_rounding: opt(
                "unorm_rounding",
                &self.unorm_rounding,
                &[
                    ("vulkan", UnormRounding::NearestEven),
                    ("d3d", UnormRounding::D3d),
                ],
                UnormRounding::NearestEven,
            )?,
            ..Default::default()
        };
        if let Some(d) = &self.draw {
            p.draw = DrawCall {
                vertex_count: d.vertex_count,
                first_vertex: d.first_vertex,
                instance_count: d.instance_count,
                first_instance: d.first_instance,
            };
        }
        if let Some(ix) = &self.indices {
            let index_type = pick(
                "index type",
                &ix.index_type,
                &[("u16", IndexType::U16), ("u32", IndexType::U32)],
            )?;
            let mut data = Vec::new();
            for &v in &ix.values {
                match index_type {
                    IndexType::U16 => {
                        let v = u16::try_from(v).map_err(|_| {
                            DrawError::Config(format!("index {v} does not fit u16"))
                        })?;
                        data.extend_from_slice(&v.to_le_bytes());
                    }
                    IndexType::U32 => data.extend_from_slice(&v.to_le_bytes()),
                }
            }
            let count = match ix.count {
                Some(c) => c,
                None => (ix.values.len() as u32).saturating_sub(ix.first_index),
            };
            p.index = Some(IndexBuffer {
                index_type,
                data,
                first_index: ix.first_index,
                index_count: count,
                vertex_offset: ix.vertex_offset,
            });
        }
        if !self.vertex_inputs.is_empty() || !self.vertex_buffers.is_empty() {
            let mut vi = VertexInputState::default();
            for b in &self.vertex_buffers {
                vi.bindings.push(VertexBinding {
                    data: buffer_bytes(b)?,
                    stride: b.stride,
                    input_rate: opt(
                        "input_rate",
                        &b.input_rate,
                        &[
                            ("vertex", InputRate::Vertex),
                            ("instance", InputRate::Instance),
                        ],
                        InputRate::Vertex,
                    )?,
                    divisor: b.divisor,
                });
            }
            for a in &self.vertex_inputs {
                vi.attributes.push(VertexAttribute {
                    location: a.location,
                    binding: a.binding,
                    format: pick("vertex format", &a.format, VERTEX_FORMATS)?,
                    offset: a.offset,
                });
            }
            p.vertex_input = Some(vi);
        }
        p.viewport = self.viewport.as_ref().map(|v| Viewport {
            x: v.x,
            y: v.y,
            width: v.width,
            height: v.height,
            min_depth: v.min_depth,
            max_depth: v.max_depth,
        });
        p.scissor = self.scissor.as_ref().map(|s| Rect {
            x: s.x,
            y: s.y,
            width: s.width,
            height: s.height,
        });
        if let Some(r) = &self.rasterization {
            let d = RasterizationState::default();
            p.rasterization = RasterizationState {
                depth_clamp: r.depth_clamp,
                cull_mode: opt(
                    "cull_mode",
                    &r.cull_mode,
                    &[
                        ("none", CullMode::None),
                        ("front", CullMode::Front),
                        ("back", CullMode::Back),
                        ("front_and_back", CullMode::FrontAndBack),
                    ],
                    CullMode::None,
                )?,
                front_face: opt(
                    "front_face",
                    &r.front_face,
                    &[
                        ("counter_clockwise", FrontFace::CounterClockwise),
                        ("clockwise", FrontFace::Clockwise),
                    ],
                    FrontFace::CounterClockwise,
                )?,
                polygon_mode: PolygonMode::Fill,
                point_size: r.point_size.unwrap_or(d.point_size),
                line_width: r.line_width.unwrap_or(d.line_width),
                clip_distances: r.clip_distances,
                depth_bias: r.depth_bias.as_ref().map(depth_bias).transpose()?,
            };
        }
        if let Some(d) = &self.depth {
            p.depth_stencil.depth_test = d.test;
            p.depth_stencil.depth_write = d.write;
            p.depth_stencil.depth_compare =
                opt("depth compare", &d.compare, COMPARE, CompareOp::Less)?;
            p.depth_stencil.depth_format = opt(
                "depth format",
                &d.format,
                &[
                    ("d32_sfloat", DepthFormat::D32Sfloat),
                    ("d16_unorm", DepthFormat::D16Unorm),
                ],
                DepthFormat::D32Sfloat,
            )?;
            if let Some(b) = &d.bounds {
                p.depth_stencil.depth_bounds = depth_bounds(b)?;
            }
        }
        if let Some(s) = &self.stencil {
            p.depth_stencil.stencil_test = s.test;
            p.depth_stencil.stencil_clear = Some(s.clear);
            p.depth_stencil.front = face(&s.front)?;
            p.depth_stencil.back = face(s.back.as_ref().unwrap_or(&s.front))?;
        }
        p.blend.constants = self.blend_constants;
        if self
            .targets
            .iter()
            .any(|t| t.blend.is_some() || t.write_mask.is_some())
        {
            p.blend.attachments = self
                .targets
                .iter()
                .map(blend_attachment)
                .collect::<Result<_, _>>()?;
        }
        Ok(p)
    }

    /// The [`DrawConfig`], reading the shader objects relative to `dir`.
    pub fn config(&self, dir: &std::path::Path) -> Result<DrawConfig, DrawError> {
        let read = |p: &str| {
            limits::read_input_file(&dir.join(p))
                .map_err(|e| DrawError::Config(format!("{p}: {e}")))
        };
        let listed = self.vertices.first().map_or(0, |v| v.attributes.len()) as u32;
        if self
            .vertices
            .iter()
            .any(|v| v.attributes.len() != listed as usize)
        {
            return bad("every vertex must have the same number of attributes".into());
        }
        if !self.vertices.is_empty() && !self.vertex_inputs.is_empty() {
            return bad(
                "a scene gives [[vertices]] or [[vertex_inputs]] with [[vertex_buffers]], not both"
                    .into(),
            );
        }
        let na = match self.attributes {
            Some(n) if !self.vertices.is_empty() && n != listed => {
                return bad(format!(
                    "attributes = {n} but the [[vertices]] carry {listed}"
                ))
            }
            Some(n) => n,
            None => listed,
        };
        let mut vb = Vec::new();
        for v in &self.vertices {
            for x in v.position.iter().chain(v.attributes.iter().flatten()) {
                vb.extend_from_slice(&x.to_le_bytes());
            }
        }
        let mut pipeline = self.pipeline()?;
        if let Some(m) = &self.multisample {
            pipeline.multisample = MultisampleState {
                samples: m.samples,
                sample_mask: m.sample_mask.unwrap_or(!0),
                locations: m
                    .locations
                    .as_ref()
                    .map(|l| l.iter().map(|&[x, y]| (x, y)).collect()),
                centroid_priority: None,
                sample_shading: m.sample_shading,
                mask_export: m.mask_export_channel,
            };
        }
        let depth_clear = match (&self.depth, self.depth_clear) {
            (Some(_), Some(_)) => {
                return bad("depth_clear and [depth] clear: give one".into());
            }
            (Some(d), None) => Some(d.clear),
            (None, c) => c,
        };
        // Depth bias moves the depth the depth test and write see: without a depth buffer it
        // would change nothing.
        if pipeline.rasterization.depth_bias.is_some() && depth_clear.is_none() {
            return bad("[rasterization.depth_bias] without a depth buffer ([depth])".into());
        }
        if self.vertices.is_empty() && pipeline.vertex_input.is_none() {
            return bad("the scene has no [[vertices]] and no [[vertex_inputs]]".into());
        }
        if pipeline.vertex_input.is_some()
            && pipeline.draw.vertex_count.is_none()
            && pipeline.index.is_none()
        {
            return bad(
                "with [[vertex_inputs]], [draw] vertex_count gives the vertices drawn".into(),
            );
        }
        if pipeline.vertex_input.is_some() {
            pipeline.draw.vertex_count = Some(pipeline.draw.vertex_count.unwrap_or(0));
        }
        let targets = self
            .targets
            .iter()
            .map(|t| {
                let format = pick(
                    "target format",
                    &t.format,
                    &[
                        ("rgba8_unorm", ColorFormat::Rgba8Unorm),
                        ("rgba16_float", ColorFormat::Rgba16Float),
                        ("rgba32_float", ColorFormat::Rgba32Float),
                    ],
                )?;
                let export = pick(
                    "export format",
                    &t.export,
                    &[("f32", ExportFormat::F32), ("f16", ExportFormat::F16)],
                )?;
                Ok(RenderTarget {
                    format,
                    export,
                    clear: t.clear,
                })
            })
            .collect::<Result<Vec<_>, DrawError>>()?;
        Ok(DrawConfig {
            vs: read(&self.vs)?,
            ps: read(&self.ps)?,
            vertex_buffer: vb,
            vertex_count: self.vertices.len() as u32,
            num_attributes: na,
            flat_attributes: self.flat_attributes,
            vs_uniforms: self.vs_uniforms.clone(),
            ps_uniforms: self.ps_uniforms.clone(),
            textures: self
                .textures
                .iter()
                .map(|t| Texture {
                    format: t.format,
                    width: t.width,
                    height: t.height,
                    data: t.data.clone(),
                    sampler: t.sampler,
                })
                .collect(),
            width: self.width,
            height: self.height,
            targets,
            depth_clear,
            vs_wave64: self.wave64,
            ps_wave64: self.wave64,
            max_wave_insts: 10_000_000,
            pipeline,
        })
    }
}

/// Reads a scene file, draws it, and returns the PNG of each render target (what `wavesim draw`
/// writes).
pub fn draw_scene_file(path: &std::path::Path) -> Result<(DrawResult, Vec<Vec<u8>>), DrawError> {
    let text = limits::read_input_file(path)
        .and_then(|b| String::from_utf8(b).map_err(std::io::Error::other))
        // Without the path: the callers name the scene file.
        .map_err(|e| DrawError::Config(format!("cannot read the scene: {e}")))?;
    let spec = DrawSpec::parse(&text)?;
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    let r = draw(&spec.config(dir)?)?;
    let pngs = r
        .targets
        .iter()
        .map(|t| t.png())
        .collect::<Result<Vec<_>, _>>()?;
    Ok((r, pngs))
}
