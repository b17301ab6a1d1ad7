//! Primitive assembly and vertex fetch: the index stream, topology, instancing and vertex input
//! formats (Vulkan 1.3 "Drawing Commands", "Primitive Topologies", "Fixed-Function Vertex
//! Processing").
//!
//! On RDNA3 the vertex fetch is shader code (RADV's VS prolog or the VS itself issues typed buffer
//! loads); here the host does it once per vertex invocation and hands the VS the results: the
//! *fetched inputs* of invocation (slot) `s` are `locations` float4-sized (16-byte) records at
//! `s * stride` of the VS's input buffer, location `l` at byte `16 * l`. A scene without a vertex
//! input state keeps the older layout: the vertex buffer's records are copied as they are.
//!
//! Each distinct (vertex index, instance index) pair of the draw is one VS invocation (one slot,
//! in the order the draw first names it); primitives refer to slots. Vertices are listed
//! provoking vertex first, in Vulkan's order ("provokingVertexMode" FIRST_VERTEX): strip triangle
//! i is (i, i + 1 + i % 2, i + 2 - i % 2), fan triangle i is (i + 1, i + 2, 0), strip line i is
//! (i, i + 1).

use crate::gfx::pipeline::{
    IndexType, InputRate, PipelineState, Topology, VertexFormat, VertexInputState,
};
use std::collections::HashMap;

/// A primitive's vertices (slots), provoking vertex first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Prim {
    Point([usize; 1]),
    Line([usize; 2]),
    Triangle([usize; 3]),
}

/// One VS invocation: its vertex index (after vertexOffset) and instance index
/// (gl_VertexIndex and gl_InstanceIndex; firstInstance included).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Invocation {
    pub vertex: u32,
    pub instance: u32,
}

/// The vertex invocations of a draw and its primitives.
#[derive(Clone, Debug, Default)]
pub struct Assembly {
    pub invocations: Vec<Invocation>,
    pub prims: Vec<Prim>,
}

/// Draws with more vertex invocations or primitives than this are refused (the host keeps every
/// vertex's outputs).
pub const MAX_INVOCATIONS: usize = 1 << 22;

fn restart_value(t: IndexType) -> u32 {
    match t {
        IndexType::U16 => 0xffff,
        IndexType::U32 => 0xffff_ffff,
    }
}

/// The index stream (None = a restart) of one instance.
fn index_stream(p: &PipelineState, vertex_count: u32) -> Result<Vec<Option<u32>>, String> {
    let count = p.index.as_ref().map_or(vertex_count, |ib| ib.index_count);
    if count as usize > MAX_INVOCATIONS {
        return Err(format!(
            "{count} vertices or indices; at most {MAX_INVOCATIONS} per draw"
        ));
    }
    let Some(ib) = &p.index else {
        let first = p.draw.first_vertex;
        return (0..vertex_count)
            .map(|i| {
                first
                    .checked_add(i)
                    .map(Some)
                    .ok_or_else(|| "firstVertex + vertexCount overflows 32 bits".to_string())
            })
            .collect();
    };
    let size = match ib.index_type {
        IndexType::U16 => 2,
        IndexType::U32 => 4,
    };
    let mut out = Vec::with_capacity(ib.index_count as usize);
    for k in 0..ib.index_count as u64 {
        let at = (ib.first_index as u64 + k) * size;
        let Some(b) = ib.data.get(at as usize..(at + size) as usize) else {
            return Err(format!(
                "index {} is past the end of the {}-byte index buffer",
                ib.first_index as u64 + k,
                ib.data.len()
            ));
        };
        let raw = match ib.index_type {
            IndexType::U16 => u16::from_le_bytes([b[0], b[1]]) as u32,
            IndexType::U32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
        };
        if p.primitive_restart && raw == restart_value(ib.index_type) {
            out.push(None);
            continue;
        }
        // Vulkan: the vertex index is the index plus vertexOffset; a negative sum has no vertex.
        let v = raw as i64 + ib.vertex_offset as i64;
        let v = u32::try_from(v).map_err(|_| {
            format!(
                "index {raw} + vertexOffset {} is outside 0..2^32",
                ib.vertex_offset
            )
        })?;
        out.push(Some(v));
    }
    Ok(out)
}

/// Splits the stream at restarts and makes the primitives of each run (as positions in the run).
fn primitives(t: Topology, run: &[u32], out: &mut Vec<Vec<u32>>) {
    let n = run.len();
    match t {
        Topology::PointList => out.extend(run.iter().map(|&v| vec![v])),
        Topology::LineList => out.extend(run.chunks_exact(2).map(|c| c.to_vec())),
        Topology::LineStrip => {
            out.extend((1..n).map(|i| vec![run[i - 1], run[i]]));
        }
        Topology::TriangleList => out.extend(run.chunks_exact(3).map(|c| c.to_vec())),
        Topology::TriangleStrip => {
            for i in 0..n.saturating_sub(2) {
                out.push(vec![run[i], run[i + 1 + i % 2], run[i + 2 - i % 2]]);
            }
        }
        Topology::TriangleFan => {
            for i in 0..n.saturating_sub(2) {
                out.push(vec![run[i + 1], run[i + 2], run[0]]);
            }
        }
    }
}

/// The draw's invocations and primitives.
pub fn assemble(p: &PipelineState, vertex_count: u32) -> Result<Assembly, String> {
    if p.draw.instance_count == 0 {
        return Ok(Assembly::default());
    }
    let stream = index_stream(p, vertex_count)?;
    let mut per_instance: Vec<Vec<u32>> = Vec::new();
    for run in stream.split(|v| v.is_none()) {
        let run: Vec<u32> = run.iter().flatten().copied().collect();
        primitives(p.topology, &run, &mut per_instance);
    }
    let total = per_instance.len() as u64 * p.draw.instance_count as u64;
    if total > MAX_INVOCATIONS as u64 {
        return Err(format!(
            "{total} primitives; at most {MAX_INVOCATIONS} per draw"
        ));
    }
    let mut slots: HashMap<Invocation, usize> = HashMap::new();
    let mut a = Assembly::default();
    for k in 0..p.draw.instance_count {
        let instance = p
            .draw
            .first_instance
            .checked_add(k)
            .ok_or("firstInstance + instanceCount overflows 32 bits")?;
        for prim in &per_instance {
            let mut s = [0usize; 3];
            for (j, &vertex) in prim.iter().enumerate() {
                let inv = Invocation { vertex, instance };
                let next = a.invocations.len();
                s[j] = *slots.entry(inv).or_insert_with(|| {
                    a.invocations.push(inv);
                    next
                });
            }
            a.prims.push(match prim.len() {
                1 => Prim::Point([s[0]]),
                2 => Prim::Line([s[0], s[1]]),
                _ => Prim::Triangle(s),
            });
        }
        if a.invocations.len() > MAX_INVOCATIONS {
            return Err(format!(
                "more than {MAX_INVOCATIONS} vertex invocations in one draw"
            ));
        }
    }
    Ok(a)
}

/// (components, bytes per component, kind) of a format.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Float,
    Uint,
    Sint,
    Unorm,
    Snorm,
    Uscaled,
    Sscaled,
}

fn layout(f: VertexFormat) -> (usize, usize, Kind) {
    use Kind::*;
    use VertexFormat as F;
    match f {
        F::R32Sfloat => (1, 4, Float),
        F::R32G32Sfloat => (2, 4, Float),
        F::R32G32B32Sfloat => (3, 4, Float),
        F::R32G32B32A32Sfloat => (4, 4, Float),
        F::R32Uint => (1, 4, Uint),
        F::R32G32Uint => (2, 4, Uint),
        F::R32G32B32Uint => (3, 4, Uint),
        F::R32G32B32A32Uint => (4, 4, Uint),
        F::R32Sint => (1, 4, Sint),
        F::R32G32Sint => (2, 4, Sint),
        F::R32G32B32Sint => (3, 4, Sint),
        F::R32G32B32A32Sint => (4, 4, Sint),
        F::R16G16Sfloat => (2, 2, Float),
        F::R16G16B16A16Sfloat => (4, 2, Float),
        F::R16G16Unorm => (2, 2, Unorm),
        F::R16G16Snorm => (2, 2, Snorm),
        F::R16G16Uint => (2, 2, Uint),
        F::R16G16Sint => (2, 2, Sint),
        F::R8G8B8A8Unorm | F::B8G8R8A8Unorm => (4, 1, Unorm),
        F::R8G8B8A8Snorm => (4, 1, Snorm),
        F::R8G8B8A8Uint => (4, 1, Uint),
        F::R8G8B8A8Sint => (4, 1, Sint),
        F::R8G8B8A8Uscaled => (4, 1, Uscaled),
        F::R8G8B8A8Sscaled => (4, 1, Sscaled),
    }
}

/// Bytes one element of `f` occupies.
pub fn format_bytes(f: VertexFormat) -> usize {
    let (n, b, _) = layout(f);
    n * b
}

/// One element of `f` as the four 32-bit values the VS reads (Vulkan 1.3 "Vertex Input
/// Extraction": missing G, B default to 0 and A to 1, as float 1.0 for float/normalized/scaled
/// formats and integer 1 for UINT/SINT).
pub fn convert(f: VertexFormat, b: &[u8]) -> [u32; 4] {
    let (n, size, kind) = layout(f);
    let raw = |c: usize| -> u32 {
        let at = c * size;
        match size {
            1 => b[at] as u32,
            2 => u16::from_le_bytes([b[at], b[at + 1]]) as u32,
            _ => u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]]),
        }
    };
    let bits = 8 * size as u32;
    // Sign-extends a `bits`-wide value.
    let sext = |x: u32| -> i32 { ((x << (32 - bits)) as i32) >> (32 - bits) };
    let one = match kind {
        Kind::Uint | Kind::Sint => 1,
        _ => 1f32.to_bits(),
    };
    let mut out = [0, 0, 0, one];
    for (c, o) in out.iter_mut().enumerate().take(n) {
        let x = raw(c);
        *o = match kind {
            Kind::Float if size == 2 => half::f16::from_bits(x as u16).to_f32().to_bits(),
            Kind::Float | Kind::Uint => x,
            Kind::Sint => sext(x) as u32,
            // c / (2^b - 1), rounded once to f32 (the division is exact in f64 for b <= 16).
            Kind::Unorm => ((x as f64 / ((1u64 << bits) - 1) as f64) as f32).to_bits(),
            Kind::Snorm => {
                let m = ((1u64 << (bits - 1)) - 1) as f64;
                ((sext(x) as f64 / m).max(-1.0) as f32).to_bits()
            }
            Kind::Uscaled => (x as f32).to_bits(),
            Kind::Sscaled => (sext(x) as f32).to_bits(),
        };
    }
    if f == VertexFormat::B8G8R8A8Unorm {
        out.swap(0, 2);
    }
    out
}

/// The VS's input buffer (see the module comment) and its per-invocation stride.
pub fn fetch(
    p: &PipelineState,
    legacy: (&[u8], u32),
    invocations: &[Invocation],
) -> Result<(Vec<u8>, usize), String> {
    let Some(vi) = &p.vertex_input else {
        let (buf, records) = legacy;
        if records == 0 || !buf.len().is_multiple_of(records as usize) {
            return Err(format!(
                "the {}-byte vertex buffer is not {records} equal records",
                buf.len()
            ));
        }
        let stride = buf.len() / records as usize;
        let mut out = Vec::with_capacity(stride * invocations.len());
        for inv in invocations {
            let at = inv.vertex as usize * stride;
            let rec = buf.get(at..at + stride).ok_or_else(|| {
                format!(
                    "vertex {} is past the {records} vertices of the scene",
                    inv.vertex
                )
            })?;
            out.extend_from_slice(rec);
        }
        return Ok((out, stride));
    };
    fetch_formats(vi, p.draw.first_instance, invocations)
}

fn fetch_formats(
    vi: &VertexInputState,
    first_instance: u32,
    invocations: &[Invocation],
) -> Result<(Vec<u8>, usize), String> {
    let locations = vi
        .attributes
        .iter()
        .map(|a| a.location + 1)
        .max()
        .unwrap_or(0) as usize;
    if locations > 32 {
        return Err("vertex input locations above 31".into());
    }
    let stride = 16 * locations.max(1);
    let mut out = vec![0u8; stride * invocations.len()];
    for (s, inv) in invocations.iter().enumerate() {
        for a in &vi.attributes {
            let b = vi.bindings.get(a.binding as usize).ok_or_else(|| {
                format!(
                    "vertex input location {} names binding {}, which is not bound",
                    a.location, a.binding
                )
            })?;
            let element = match b.input_rate {
                InputRate::Vertex => inv.vertex as u64,
                InputRate::Instance if b.divisor == 0 => first_instance as u64,
                InputRate::Instance => {
                    first_instance as u64
                        + (inv.instance - first_instance) as u64 / b.divisor as u64
                }
            };
            let at = a.offset as u64 + element * b.stride as u64;
            let n = format_bytes(a.format) as u64;
            let bytes = b
                .data
                .get(at as usize..(at + n) as usize)
                .ok_or_else(|| {
                    format!(
                        "vertex input location {} of vertex {} instance {}: bytes {at}..{} are past the {}-byte binding {}",
                        a.location,
                        inv.vertex,
                        inv.instance,
                        at + n,
                        b.data.len(),
                        a.binding
                    )
                })?;
            let v = convert(a.format, bytes);
            let dst = s * stride + 16 * a.location as usize;
            for c in 0..4 {
                out[dst + 4 * c..dst + 4 * c + 4].copy_from_slice(&v[c].to_le_bytes());
            }
        }
    }
    Ok((out, stride))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gfx::pipeline::{IndexBuffer, VertexAttribute, VertexBinding};

    fn f(x: u32) -> f32 {
        f32::from_bits(x)
    }

    #[test]
    fn formats_follow_the_vulkan_conversions() {
        // UNORM8: c / 255. 0x80 = 128 -> 128/255 = 0.50196...; 0xff -> 1.0 exactly.
        let v = convert(VertexFormat::R8G8B8A8Unorm, &[0, 128, 255, 51]);
        assert_eq!(
            [f(v[0]), f(v[1]), f(v[2]), f(v[3])],
            [0.0, (128.0f64 / 255.0) as f32, 1.0, 0.2]
        );
        // BGRA: bytes B, G, R, A; the VS sees R first.
        let v = convert(VertexFormat::B8G8R8A8Unorm, &[255, 0, 0, 255]);
        assert_eq!([f(v[0]), f(v[2])], [0.0, 1.0]);
        // SNORM8: c / 127, and -128 clamps to -1 (max(c / 127, -1)); 0x81 = -127 -> -1 too.
        let v = convert(VertexFormat::R8G8B8A8Snorm, &[0x80, 0x81, 127, 0]);
        assert_eq!([f(v[0]), f(v[1]), f(v[2]), f(v[3])], [-1.0, -1.0, 1.0, 0.0]);
        // UINT / SINT: integer bits; SINT sign-extends (0xfe = -2).
        assert_eq!(
            convert(VertexFormat::R8G8B8A8Uint, &[1, 2, 254, 4]),
            [1, 2, 254, 4]
        );
        assert_eq!(
            convert(VertexFormat::R8G8B8A8Sint, &[1, 2, 254, 4])[2],
            (-2i32) as u32
        );
        // SCALED: the integer as a float.
        let v = convert(VertexFormat::R8G8B8A8Sscaled, &[0xfe, 3, 0, 0]);
        assert_eq!([f(v[0]), f(v[1])], [-2.0, 3.0]);
        // Missing components: (0, 0, 1) for floats, integer 1 for A of integer formats.
        let v = convert(VertexFormat::R32Sfloat, &2.5f32.to_le_bytes());
        assert_eq!([f(v[0]), f(v[1]), f(v[2]), f(v[3])], [2.5, 0.0, 0.0, 1.0]);
        assert_eq!(
            convert(VertexFormat::R32Uint, &7u32.to_le_bytes()),
            [7, 0, 0, 1]
        );
        // R16G16_SFLOAT: 0x3c00 = 1.0, 0xc000 = -2.0.
        let v = convert(VertexFormat::R16G16Sfloat, &[0x00, 0x3c, 0x00, 0xc0]);
        assert_eq!([f(v[0]), f(v[1]), f(v[3])], [1.0, -2.0, 1.0]);
        // UNORM16 65535 -> 1.0; SNORM16 -32768 -> -1.0.
        let v = convert(VertexFormat::R16G16Unorm, &[0xff, 0xff, 0, 0]);
        assert_eq!(f(v[0]), 1.0);
        let v = convert(VertexFormat::R16G16Snorm, &[0x00, 0x80, 0xff, 0x7f]);
        assert_eq!([f(v[0]), f(v[1])], [-1.0, 1.0]);
    }

    fn state(topology: Topology, indices: Option<Vec<u16>>) -> PipelineState {
        let mut p = PipelineState {
            topology,
            primitive_restart: true,
            ..Default::default()
        };
        if let Some(ix) = indices {
            p.index = Some(IndexBuffer {
                index_type: IndexType::U16,
                index_count: ix.len() as u32,
                data: ix.iter().flat_map(|i| i.to_le_bytes()).collect(),
                first_index: 0,
                vertex_offset: 0,
            });
        }
        p
    }

    fn tris(a: &Assembly) -> Vec<[u32; 3]> {
        a.prims
            .iter()
            .map(|p| match p {
                Prim::Triangle(s) => s.map(|k| a.invocations[k].vertex),
                _ => [u32::MAX; 3],
            })
            .collect()
    }

    #[test]
    fn strips_fans_and_restart_follow_vulkans_vertex_order() {
        // Strip 0..5: triangles (0,1,2), (1,3,2), (2,3,4), (3,5,4) ("Triangle Strips").
        let a = assemble(&state(Topology::TriangleStrip, None), 6).unwrap();
        assert_eq!(tris(&a), [[0, 1, 2], [1, 3, 2], [2, 3, 4], [3, 5, 4]]);
        // Fan: (i + 1, i + 2, 0) ("Triangle Fans").
        let a = assemble(&state(Topology::TriangleFan, None), 5).unwrap();
        assert_eq!(tris(&a), [[1, 2, 0], [2, 3, 0], [3, 4, 0]]);
        // A restart (0xffff) ends the strip: 0 1 2 | 3 4 5 6 -> (0,1,2), (3,4,5), (4,6,5).
        let a = assemble(
            &state(
                Topology::TriangleStrip,
                Some(vec![0, 1, 2, 0xffff, 3, 4, 5, 6]),
            ),
            0,
        )
        .unwrap();
        assert_eq!(tris(&a), [[0, 1, 2], [3, 4, 5], [4, 6, 5]]);
        // In a list, a restart drops the primitive in progress: 0 1 | 2 3 4 -> (2,3,4).
        let a = assemble(
            &state(Topology::TriangleList, Some(vec![0, 1, 0xffff, 2, 3, 4])),
            0,
        )
        .unwrap();
        assert_eq!(tris(&a), [[2, 3, 4]]);
        // A shared index is one invocation.
        let a = assemble(
            &state(Topology::TriangleList, Some(vec![0, 1, 2, 2, 1, 3])),
            0,
        )
        .unwrap();
        assert_eq!(a.invocations.len(), 4);
    }

    #[test]
    fn instance_rate_bindings_step_per_instance_with_divisor() {
        let mut p = state(Topology::PointList, None);
        p.draw.instance_count = 4;
        p.draw.first_instance = 2;
        let vals: Vec<u8> = (0u32..8).flat_map(|i| (i * 10).to_le_bytes()).collect();
        p.vertex_input = Some(VertexInputState {
            bindings: vec![
                VertexBinding {
                    data: vals.clone(),
                    stride: 4,
                    input_rate: InputRate::Vertex,
                    divisor: 1,
                },
                VertexBinding {
                    data: vals,
                    stride: 4,
                    input_rate: InputRate::Instance,
                    divisor: 2,
                },
            ],
            attributes: vec![
                VertexAttribute {
                    location: 0,
                    binding: 0,
                    format: VertexFormat::R32Uint,
                    offset: 0,
                },
                VertexAttribute {
                    location: 2,
                    binding: 1,
                    format: VertexFormat::R32Uint,
                    offset: 4,
                },
            ],
        });
        let a = assemble(&p, 2).unwrap();
        assert_eq!(a.invocations.len(), 8);
        let (buf, stride) = fetch(&p, (&[], 0), &a.invocations).unwrap();
        assert_eq!(stride, 48);
        let word = |s: usize, at: usize| {
            u32::from_le_bytes(
                buf[s * stride + at..s * stride + at + 4]
                    .try_into()
                    .unwrap(),
            )
        };
        for (s, inv) in a.invocations.iter().enumerate() {
            // Location 0: element = vertex index -> 10 * vertex.
            assert_eq!(word(s, 0), 10 * inv.vertex);
            // Location 2: element = firstInstance + (instance - firstInstance) / 2, read at
            // byte offset 4 (one element further): instances 2,3 -> element 2 -> 10*3;
            // instances 4,5 -> element 3 -> 10*4.
            let e = 2 + (inv.instance - 2) / 2;
            assert_eq!(word(s, 32), 10 * (e + 1));
            // Location 1 is not an input: zeros.
            assert_eq!(word(s, 16), 0);
        }
        // Out-of-range fetches are errors, not zeros.
        p.draw.instance_count = 20;
        let a = assemble(&p, 2).unwrap();
        assert!(fetch(&p, (&[], 0), &a.invocations)
            .unwrap_err()
            .contains("past the"));
    }
}
