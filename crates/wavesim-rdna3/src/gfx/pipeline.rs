//! The fixed-function state of a draw, as a driver programs it: plain data, no behaviour.
//!
//! The names and meanings are Vulkan's (Vulkan 1.3 specification: "Drawing Commands",
//! "Fixed-Function Vertex Processing", "Fixed-Function Vertex Post-Processing", "Rasterization",
//! "Fragment Operations", "The Framebuffer"), so a scene file, a test or another front end (a
//! capture of RADV's state) fills one struct. `Default` is the state every scene written before
//! these fields existed draws with: a triangle list, no culling, the whole target as viewport
//! (y up: a negative-height viewport) and scissor, depth 0..1, LESS with writes when a depth
//! buffer exists, no stencil, no blending, all components written.

/// How vertices make primitives (VkPrimitiveTopology, Vulkan 1.3 "Primitive Topologies").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Topology {
    PointList,
    LineList,
    LineStrip,
    #[default]
    TriangleList,
    TriangleStrip,
    TriangleFan,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum IndexType {
    U16,
    U32,
}

/// The index buffer of an indexed draw (vkCmdBindIndexBuffer + vkCmdDrawIndexed).
#[derive(Clone, Debug)]
pub struct IndexBuffer {
    pub index_type: IndexType,
    /// Little-endian indices.
    pub data: Vec<u8>,
    /// firstIndex and indexCount, in indices.
    pub first_index: u32,
    pub index_count: u32,
    /// vertexOffset, added to every index (after the restart check).
    pub vertex_offset: i32,
}

/// The draw command's counts (vkCmdDraw / vkCmdDrawIndexed). Without an index buffer the vertices
/// are `first_vertex .. first_vertex + vertex_count`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawCall {
    /// None: the draw's [`super::draw::DrawConfig::vertex_count`].
    pub vertex_count: Option<u32>,
    pub first_vertex: u32,
    pub instance_count: u32,
    pub first_instance: u32,
}

impl Default for DrawCall {
    fn default() -> Self {
        DrawCall {
            vertex_count: None,
            first_vertex: 0,
            instance_count: 1,
            first_instance: 0,
        }
    }
}

/// VkVertexInputRate.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum InputRate {
    #[default]
    Vertex,
    Instance,
}

/// A vertex buffer binding (VkVertexInputBindingDescription + its bound bytes).
#[derive(Clone, Debug)]
pub struct VertexBinding {
    pub data: Vec<u8>,
    pub stride: u32,
    pub input_rate: InputRate,
    /// VkVertexInputBindingDivisorDescriptionEXT: instance-rate bindings advance every `divisor`
    /// instances (0: every instance reads element 0). 1 without the extension.
    pub divisor: u32,
}

/// Vertex attribute formats (VkFormat), Vulkan 1.3 "Format Definition" and "Conversion from
/// Normalized Fixed-Point to Floating-Point" (UNORM c / (2^b - 1); SNORM max(c / (2^(b-1) - 1), -1)).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VertexFormat {
    R32Sfloat,
    R32G32Sfloat,
    R32G32B32Sfloat,
    R32G32B32A32Sfloat,
    R32Uint,
    R32G32Uint,
    R32G32B32Uint,
    R32G32B32A32Uint,
    R32Sint,
    R32G32Sint,
    R32G32B32Sint,
    R32G32B32A32Sint,
    R16G16Sfloat,
    R16G16B16A16Sfloat,
    R16G16Unorm,
    R16G16Snorm,
    R16G16Uint,
    R16G16Sint,
    R8G8B8A8Unorm,
    R8G8B8A8Snorm,
    R8G8B8A8Uint,
    R8G8B8A8Sint,
    R8G8B8A8Uscaled,
    R8G8B8A8Sscaled,
    B8G8R8A8Unorm,
}

/// One vertex input (VkVertexInputAttributeDescription): the VS reads location `location` of
/// its fetched inputs (see `vertex_fetch`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VertexAttribute {
    pub location: u32,
    pub binding: u32,
    pub format: VertexFormat,
    pub offset: u32,
}

#[derive(Clone, Debug, Default)]
pub struct VertexInputState {
    pub bindings: Vec<VertexBinding>,
    pub attributes: Vec<VertexAttribute>,
}

/// VkViewport. `height` may be negative (VK_KHR_maintenance1): y then points up.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Viewport {
    pub x: f32,
    pub y: f32,
    pub width: f32,
    pub height: f32,
    pub min_depth: f32,
    pub max_depth: f32,
}

impl Viewport {
    /// The viewport scenes had before viewports could be set: the whole target, y up
    /// (NDC y = +1 at the top row), depth 0..1.
    pub fn full_y_up(width: u32, height: u32) -> Viewport {
        Viewport {
            x: 0.0,
            y: height as f32,
            width: width as f32,
            height: -(height as f32),
            min_depth: 0.0,
            max_depth: 1.0,
        }
    }
}

/// VkRect2D (the scissor).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rect {
    pub x: i32,
    pub y: i32,
    pub width: u32,
    pub height: u32,
}

/// VkCullModeFlags.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CullMode {
    #[default]
    None,
    Front,
    Back,
    FrontAndBack,
}

/// VkFrontFace: which winding in framebuffer coordinates is front-facing (Vulkan 1.3
/// "Basic Polygon Rasterization": the sign of the area `a`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FrontFace {
    #[default]
    CounterClockwise,
    Clockwise,
}

/// VkPolygonMode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PolygonMode {
    #[default]
    Fill,
}

#[derive(Clone, Debug, PartialEq)]
pub struct RasterizationState {
    /// VkPipelineRasterizationStateCreateInfo::depthClampEnable: no near/far clipping; the
    /// fragment depth is clamped to the viewport's depth range.
    pub depth_clamp: bool,
    pub cull_mode: CullMode,
    pub front_face: FrontFace,
    pub polygon_mode: PolygonMode,
    /// Used when the VS exports no point size (POS1.x).
    pub point_size: f32,
    /// lineWidth; lines are drawn as rectangles (Vulkan "strictLines", see `raster`).
    pub line_width: f32,
    /// User clip distances the VS exports (ClipDistance[0..n]): POS2.xyzw then POS3.xyzw.
    pub clip_distances: u32,
    /// depthBiasEnable with its factors (polygons only; see `depth_stencil::bias_offset`).
    pub depth_bias: Option<DepthBias>,
}

/// depthBiasConstantFactor, depthBiasSlopeFactor and depthBiasClamp.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct DepthBias {
    pub constant: f32,
    pub slope: f32,
    pub clamp: f32,
}

impl Default for RasterizationState {
    fn default() -> Self {
        RasterizationState {
            depth_clamp: false,
            cull_mode: CullMode::None,
            front_face: FrontFace::CounterClockwise,
            polygon_mode: PolygonMode::Fill,
            point_size: 1.0,
            line_width: 1.0,
            clip_distances: 0,
            depth_bias: None,
        }
    }
}

/// VkCompareOp.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CompareOp {
    Never,
    #[default]
    Less,
    Equal,
    LessOrEqual,
    Greater,
    NotEqual,
    GreaterOrEqual,
    Always,
}

/// VkStencilOp.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StencilOp {
    #[default]
    Keep,
    Zero,
    Replace,
    IncrementAndClamp,
    DecrementAndClamp,
    Invert,
    IncrementAndWrap,
    DecrementAndWrap,
}

/// VkStencilOpState.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StencilFace {
    pub fail_op: StencilOp,
    pub pass_op: StencilOp,
    pub depth_fail_op: StencilOp,
    pub compare_op: CompareOp,
    pub compare_mask: u8,
    pub write_mask: u8,
    pub reference: u8,
}

impl Default for StencilFace {
    fn default() -> Self {
        StencilFace {
            fail_op: StencilOp::Keep,
            pass_op: StencilOp::Keep,
            depth_fail_op: StencilOp::Keep,
            compare_op: CompareOp::Always,
            compare_mask: 0xff,
            write_mask: 0xff,
            reference: 0,
        }
    }
}

/// The depth attachment's format. Both are held as f32 values; a D16_UNORM buffer holds
/// k / 65535 (f32 division) for its 16-bit value k.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum DepthFormat {
    #[default]
    D32Sfloat,
    D16Unorm,
}

/// VkPipelineDepthStencilStateCreateInfo. The depth buffer is `depth_format` (cleared to
/// [`super::draw::DrawConfig::depth_clear`]), the stencil buffer S8_UINT (cleared to
/// `stencil_clear`); either test reads its buffer, which must then exist.
#[derive(Clone, Debug, PartialEq)]
pub struct DepthStencilState {
    pub depth_format: DepthFormat,
    pub depth_test: bool,
    pub depth_write: bool,
    pub depth_compare: CompareOp,
    pub stencil_test: bool,
    pub front: StencilFace,
    pub back: StencilFace,
    /// None: no stencil buffer.
    pub stencil_clear: Option<u8>,
    /// depthBoundsTestEnable with (minDepthBounds, maxDepthBounds); None: no test.
    pub depth_bounds: Option<(f32, f32)>,
    /// A range every fragment depth (rasterised, biased or exported) is clamped to before the
    /// tests: the gfx11 DB's viewport clamp to PA_SC_VPORT_ZMIN/ZMAX_0, which RADV sets to
    /// [0, 1] without depth clamp (Vulkan's range without VK_EXT_depth_range_unrestricted) and
    /// to the viewport's depth range with it. None: no clamp.
    pub depth_range_clamp: Option<(f32, f32)>,
}

impl Default for DepthStencilState {
    fn default() -> Self {
        DepthStencilState {
            depth_format: DepthFormat::D32Sfloat,
            depth_test: true,
            depth_write: true,
            depth_compare: CompareOp::Less,
            stencil_test: false,
            front: StencilFace::default(),
            back: StencilFace::default(),
            stencil_clear: None,
            depth_bounds: None,
            depth_range_clamp: None,
        }
    }
}

/// VkBlendFactor (SRC1 factors read MRT1's export: dual-source blending into target 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlendFactor {
    Zero,
    One,
    SrcColor,
    OneMinusSrcColor,
    DstColor,
    OneMinusDstColor,
    SrcAlpha,
    OneMinusSrcAlpha,
    DstAlpha,
    OneMinusDstAlpha,
    ConstantColor,
    OneMinusConstantColor,
    ConstantAlpha,
    OneMinusConstantAlpha,
    SrcAlphaSaturate,
    Src1Color,
    OneMinusSrc1Color,
    Src1Alpha,
    OneMinusSrc1Alpha,
}

/// VkBlendOp (the core five).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum BlendOp {
    #[default]
    Add,
    Subtract,
    ReverseSubtract,
    Min,
    Max,
}

/// VkPipelineColorBlendAttachmentState of one render target.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BlendAttachment {
    pub enable: bool,
    pub src_color: BlendFactor,
    pub dst_color: BlendFactor,
    pub color_op: BlendOp,
    pub src_alpha: BlendFactor,
    pub dst_alpha: BlendFactor,
    pub alpha_op: BlendOp,
    /// Bits R=1, G=2, B=4, A=8 (VkColorComponentFlags).
    pub write_mask: u8,
}

impl Default for BlendAttachment {
    fn default() -> Self {
        BlendAttachment {
            enable: false,
            src_color: BlendFactor::One,
            dst_color: BlendFactor::Zero,
            color_op: BlendOp::Add,
            src_alpha: BlendFactor::One,
            dst_alpha: BlendFactor::Zero,
            alpha_op: BlendOp::Add,
            write_mask: 0xf,
        }
    }
}

/// VkPipelineColorBlendStateCreateInfo: one attachment state per render target (missing ones
/// are the default: no blending, all components written).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct BlendState {
    pub attachments: Vec<BlendAttachment>,
    pub constants: [f32; 4],
}

/// How a float becomes UNORM8 in a render target (and in the PNGs of float targets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum UnormRounding {
    /// Vulkan 1.3 "Conversion from Floating-Point to Normalized Fixed-Point": the nearest of the
    /// two representable values; an exact tie goes to the even one (the spec leaves ties open).
    #[default]
    NearestEven,
    /// D3D's rule (D3D11 functional specification 3.2.3.6): floor(x * 255 + 0.5).
    D3d,
}

/// Every fixed-function state of a draw.
#[derive(Clone, Debug, Default)]
pub struct PipelineState {
    pub topology: Topology,
    /// primitiveRestartEnable: the all-ones index ends the strip or fan (and, for lists, drops
    /// the primitive in progress: primitiveTopologyListRestart).
    pub primitive_restart: bool,
    pub draw: DrawCall,
    pub index: Option<IndexBuffer>,
    /// None: [`super::draw::DrawConfig::vertex_buffer`] holds one record per vertex, copied as is.
    pub vertex_input: Option<VertexInputState>,
    /// None: [`Viewport::full_y_up`].
    pub viewport: Option<Viewport>,
    /// None: the whole target.
    pub scissor: Option<Rect>,
    pub rasterization: RasterizationState,
    pub depth_stencil: DepthStencilState,
    pub blend: BlendState,
    pub unorm_rounding: UnormRounding,
    pub multisample: MultisampleState,
}

/// VkPipelineMultisampleStateCreateInfo as the rasteriser takes it (the rules are
/// `gfx::msaa`'s; docs/GRAPHICS.md "Multisampling").
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MultisampleState {
    /// rasterizationSamples: 1, 2, 4 or 8 (the render targets and the depth buffer hold this
    /// many samples per pixel).
    pub samples: u32,
    /// pSampleMask's word: sample k takes part only when bit k is set (the sample mask test,
    /// applied to the coverage before shading, so SampleMaskIn never has a masked sample).
    pub sample_mask: u32,
    /// Sample locations in 1/16 pixel from the pixel's top-left corner, sample 0 first; None:
    /// Vulkan's standard locations (`msaa::standard_locations`).
    pub locations: Option<Vec<(u8, u8)>>,
    /// The order in which a partly covered pixel's samples are tried as its centroid (the
    /// first covered one is the centroid; a fully covered pixel's centroid is its centre);
    /// None: RADV's order (`msaa::centroid_priority`).
    pub centroid_priority: Option<Vec<u8>>,
    /// Sample shading at the full rate (minSampleShading 1, or a PS reading SampleId): the PS
    /// runs once per covered sample, its sample terms and POS_X/Y/Z/W at that sample.
    pub sample_shading: bool,
    /// The PS exports a sample mask (SampleMask output): the MRTZ channel holding it (its low 16
    /// bits), which is ANDed with the coverage before the depth test.
    pub mask_export: Option<usize>,
}

impl Default for MultisampleState {
    fn default() -> Self {
        MultisampleState {
            samples: 1,
            sample_mask: !0,
            locations: None,
            centroid_priority: None,
            sample_shading: false,
            mask_export: None,
        }
    }
}
