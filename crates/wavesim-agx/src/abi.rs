//! the asahi compiler README's register ABI for non-monolithic programs (Mesa's `src/asahi/compiler/README.md`, "ABI";
//! register positions as in Mesa's `lib/agx_abi.h`), as runners that do the prolog's and epilog's work
//! around a main shader.
//!
//! Vertex (README "Vertex"; `agx_nir_vs_prolog`, `lower_vbo`, `map_vs_part_uniform`):
//! - uniforms, in 16-bit slots for `n` attributes: slot `4a` = 64-bit base of attribute `a`, slot
//!   `4n + 2a` = its 32-bit clamp (last valid element), slot `6n` = first vertex, `6n + 2` = base
//!   instance, `6n + 4` = 16-bit draw id: `6n + 5` slots; a hardware compute shader adds 48 bits of
//!   padding and the 64-bit input-assembly pointer at slot `6n + 8`: `6n + 12` slots;
//! - the element fetched is the vertex id, or for instanced attributes `instance / divisor + base
//!   instance` (divisor 0: base instance); robustness is always on: an element above the clamp fetches
//!   element 0 (GL robustness, `lower_vbo`);
//! - component `c` of attribute `a` lands in `r(8 + 4a + c)` (`AGX_ABI_VIN_ATTRIB(4a + c)`), r5/r6 hold
//!   the vertex and instance id, and r0-r4, r7 are poisoned: filled with [`POISON`] and marked undefined,
//!   so reading them before writing is an error;
//! - in hardware-compute mode the vertex id is fetched as the prolog does (`agx_nir_lower_sw_vs`): the
//!   thread's grid x indexes the index buffer of the input-assembly state (`struct agx_ia_state`:
//!   64-bit index buffer, 32-bit range in elements; out-of-range reads element 0), plus the first vertex;
//!   the instance id is grid y.
//!
//! Fragment (README "Fragment"; `agx_fast_link`, `agx_nir_fs_epilog`):
//! - a SIMD group shades an 8x4 tile of 2x2 quads (thread 4q + dx + 2dy), helper threads completing
//!   quads at the framebuffer's edge; `get_sr` sr80/sr81 give the pixel; every register starts
//!   poisoned (the README defines no register inputs besides r0l/r0h under sample shading);
//! - with sample shading, the main shader runs once per sample with r0l = 0 and r0h (r1l in current
//!   Mesa, [`AbiVersion`]) = the mask of the sample being shaded (`1 << sample`); at its end r0l must
//!   be 0 and the mask preserved;
//! - the epilog reads r2 (depth, f32), r3l (stencil), r3h (the emitted sample mask, predicating the
//!   stores) and render target `i`'s colour from `r(4(i+1))` (4 x f32, or 4 x f16 in `r(4(i+1))l`..
//!   `r(4(i+1)+1)h`); with dual-source blending there is one render target and the second colour is
//!   r8-r11; an epilog input the shader never wrote is an `AbiViolation`;
//! - uniforms: u0_u1 = render-target texture heap, u2..u5 = blend constant, u6_u7 = root descriptor.
//!   The layouts behind those pointers are the driver's; wavesim's are: heap entry `i` = 64-bit device
//!   address of render target `i` (RGBA f32 per sample, row-major pixels, samples innermost); root
//!   descriptor offset 0 = 64-bit address of the 64-bit fragment invocation counter (0 = none), which
//!   the epilog increments once per shaded pixel.
//!
//! Register counts: the README says of the vertex prolog that "the GPR usage of the combined program is
//! equal to the GPR usage of the main shader. The prolog cannot write higher registers than read by the
//! main shader": a vertex main shader whose count does not cover the attributes it reads is rejected
//! before running. The fragment prolog is linked as Mesa's `agx_fast_link` does: the linked program's
//! count is the largest of its parts', so a fragment prolog may use registers above the main shader's.

use crate::exec::{
    default_sample_positions, run_observed, Coverage, ExecError, Inst, Memories, Program, Stop,
    WaveState, POISON, SIMD_WIDTH, TILE,
};
use crate::operand::{Operand, OperandKind, RegFile};
use crate::table_types::Sem;
use wavesim_core::engine::WaveSlot;
use wavesim_core::memory::{DeviceMemory, MemError};
use wavesim_core::observe::{NoObserver, Observer};

/// Errors of the ABI runners.
#[derive(Debug, thiserror::Error)]
pub enum AbiError {
    #[error("{part} writes r{reg}, but the main shader uses only {count} registers (Mesa's asahi compiler README, ABI: a prolog writes no register above the main shader's count)")]
    PrologExceedsMain {
        part: String,
        reg: usize,
        count: usize,
    },
    #[error("{what}")]
    Config { what: String },
    #[error("{part}, {unit} {index}: {source}")]
    Exec {
        part: &'static str,
        unit: &'static str,
        index: usize,
        source: ExecError,
    },
    #[error("{part} did not reach `stop` within the instruction budget")]
    Budget { part: &'static str },
    #[error("memory: {0}")]
    Memory(#[from] MemError),
    #[error("pixel ({x}, {y}): {what}")]
    AbiViolation { x: u32, y: u32, what: String },
    #[error("png: {0}")]
    Png(String),
    /// The draw's triangle (`gallium::FragmentDraw::triangle`).
    #[error("rasteriser: {0}")]
    Raster(#[from] crate::raster::RasterError),
}

/// Instruction budget per shader part and group.
pub const BUDGET: u64 = 10_000_000;

/// Which version of Mesa's split-program register ABI the runners follow. They differ in three
/// places (the rest, uniform positions included, is the same in both sources):
/// - the fragment sample mask: r0h in Mesa's asahi compiler README as of 2023 (commits 65e64b6e2d7 to 7faca2220cb), r1l in current Mesa
///   (`agx_abi.h`: `AGX_ABI_FIN_SAMPLE_MASK` and `AGX_ABI_FOUT_SAMPLE_MASK` = half 2; the current
///   README: "`r1l` is the mask of samples currently being shaded", preserved at the end; current
///   `agx_linker.c`'s sample loop counts in r1l);
/// - the vertex r4: undefined in the old README; in current Mesa the zero-based vertex id when the
///   vertex shader runs as a hardware compute shader (`AGX_ABI_VIN_VERTEX_ID_ZERO_BASE` = half 8;
///   `agx_nir_vs_prolog` exports the thread's grid x there), undefined otherwise;
/// - the vertex uniforms the prolog reserves for a hardware vertex shader: 6n + 5 slots in the old
///   README (the draw id included), 6n + 4 in current Mesa (`AGX_ABI_VUNI_COUNT_GL(n, false)` =
///   base instance + 2; the draw id is no longer a prolog uniform, so the main shader may use slot
///   6n + 4); 6n + 12 for a hardware compute shader in both.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AbiVersion {
    /// Mesa's `src/asahi/compiler/README.md` between commits 65e64b6e2d7 and 7faca2220cb^ (2023).
    #[default]
    Readme2023,
    /// Current Mesa: `src/asahi/lib/agx_abi.h` and the README beside it.
    MesaCurrent,
}

impl AbiVersion {
    /// The job file's spelling: `"readme-2023"` or `"mesa-current"`.
    pub fn parse(name: &str) -> Option<AbiVersion> {
        match name {
            "readme-2023" => Some(AbiVersion::Readme2023),
            "mesa-current" => Some(AbiVersion::MesaCurrent),
            _ => None,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            AbiVersion::Readme2023 => "readme-2023",
            AbiVersion::MesaCurrent => "mesa-current",
        }
    }

    /// The 16-bit register half holding the mask of the sample being shaded (input, preserved).
    pub fn fragment_sample_mask_half(self) -> usize {
        match self {
            AbiVersion::Readme2023 => 1,  // r0h
            AbiVersion::MesaCurrent => 2, // r1l
        }
    }

    fn half_name(half: usize) -> String {
        format!("r{}{}", half / 2, if half % 2 == 1 { 'h' } else { 'l' })
    }

    /// The 32-bit register holding the zero-based vertex id, if this version defines one for the
    /// mode (`hardware_compute`).
    pub fn vertex_zero_base_id_reg(self, hardware_compute: bool) -> Option<usize> {
        match self {
            AbiVersion::MesaCurrent if hardware_compute => Some(4),
            _ => None,
        }
    }
}

/// Highest 32-bit register a program writes, plus one (0 if none); a static scan of its instructions.
/// Destination operands count, and register lists of instructions that load into registers; register
/// lists of rows without semantics count too (conservatively, since their direction is not modelled).
pub fn registers_written(code: &[u8]) -> usize {
    let program = Program::new(code.to_vec());
    let mut top = 0usize;
    let mut pc = 0u64;
    while (pc as usize) < code.len() {
        let Ok(inst) = program.at(pc) else {
            pc += 2;
            continue;
        };
        let d = &inst.decoded;
        let enc = d.encoding();
        let loads = matches!(
            enc.sem,
            Sem::DeviceLoad
                | Sem::ThreadgroupLoad
                | Sem::Iter
                | Sem::IterProj
                | Sem::Ldcf
                | Sem::Atomic
                | Sem::ThreadgroupAtomic
                | Sem::StackLoad
                | Sem::Unsupported
        );
        for (row, op) in enc.operands.iter().zip(&d.operands) {
            let counts = match row.kind {
                OperandKind::Dst(_) | OperandKind::ImplicitR0l => true,
                OperandKind::MemoryReg
                | OperandKind::ThreadgroupMemoryReg(_)
                | OperandKind::VarRegister
                | OperandKind::VarTripleRegister
                | OperandKind::AtomicDestination => loads,
                _ => false,
            };
            if !counts {
                continue;
            }
            let regs = match op {
                Operand::Reg(r, _) => vec![*r],
                Operand::Tuple(rs, _) => rs.clone(),
                _ => vec![],
            };
            for r in regs {
                let end = match r.file {
                    RegFile::R16 => r.n as usize / 2 + 1,
                    RegFile::R32 => r.n as usize + 1,
                    RegFile::R64 => r.n as usize + 2,
                    _ => 0,
                };
                top = top.max(end);
            }
        }
        if enc.sem == Sem::Call {
            top = top.max(2);
        }
        pc += d.size as u64;
    }
    top
}

/// Check a prolog part against the main shader's register count.
pub fn check_prolog(part: &str, prolog_top: usize, main_count: usize) -> Result<(), AbiError> {
    if prolog_top > main_count {
        return Err(AbiError::PrologExceedsMain {
            part: part.to_string(),
            reg: prolog_top - 1,
            count: main_count,
        });
    }
    Ok(())
}

/// Runs one part of a draw to its end, through `obs` (docs/INSIDE.md, "AGX vertex and fragment
/// jobs": the part's SIMD group is at `w.slot`).
fn run_part<O: Observer<WaveState, Inst> + ?Sized>(
    part: &'static str,
    unit: &'static str,
    index: usize,
    w: &mut WaveState,
    program: &Program,
    mem: &mut Memories<'_>,
    obs: &mut O,
) -> Result<(), AbiError> {
    match run_observed(w, program, mem, BUDGET, obs).map_err(|source| AbiError::Exec {
        part,
        unit,
        index,
        source,
    })? {
        Stop::End => Ok(()),
        Stop::Barrier => Err(AbiError::Config {
            what: format!("{part}: threadgroup_barrier in a graphics part"),
        }),
        Stop::Quantum => Err(AbiError::Budget { part }),
    }
}

// ---------------------------------------------------------------- vertex

/// Format of a vertex attribute in memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AttribFormat {
    /// `n` 32-bit floats.
    F32(u8),
    /// `n` 16-bit floats, widened to f32.
    F16(u8),
    /// `n` unsigned / signed integers of 32, 16 or 8 bits, zero- or sign-extended to 32 bits.
    U32(u8),
    S32(u8),
    U16(u8),
    S16(u8),
    U8(u8),
    S8(u8),
    /// `n` normalized 8- or 16-bit values, converted to f32: unsigned `c / (2^b - 1)`, signed
    /// `max(c / (2^(b-1) - 1), -1)` (the GL/Vulkan fixed-point conversion rules), rounded to nearest.
    Unorm8(u8),
    Snorm8(u8),
    Unorm16(u8),
    Snorm16(u8),
}

impl AttribFormat {
    fn components(self) -> u8 {
        use AttribFormat::*;
        match self {
            F32(n) | F16(n) | U32(n) | S32(n) | U16(n) | S16(n) | U8(n) | S8(n) | Unorm8(n)
            | Snorm8(n) | Unorm16(n) | Snorm16(n) => n,
        }
    }
    fn component_size(self) -> u64 {
        use AttribFormat::*;
        match self {
            F32(_) | U32(_) | S32(_) => 4,
            F16(_) | U16(_) | S16(_) | Unorm16(_) | Snorm16(_) => 2,
            U8(_) | S8(_) | Unorm8(_) | Snorm8(_) => 1,
        }
    }
    fn is_integer(self) -> bool {
        use AttribFormat::*;
        matches!(self, U32(_) | S32(_) | U16(_) | S16(_) | U8(_) | S8(_))
    }
    /// The 32-bit register value of a component read as `raw` (little-endian, zero-extended).
    fn convert(self, raw: u32) -> u32 {
        use AttribFormat::*;
        let unorm = |bits: u32| ((raw as f64 / ((1u64 << bits) - 1) as f64) as f32).to_bits();
        let snorm = |bits: u32| {
            let v = (raw << (32 - bits)) as i32 >> (32 - bits);
            ((v as f64 / ((1u64 << (bits - 1)) - 1) as f64).max(-1.0) as f32).to_bits()
        };
        match self {
            F32(_) | U32(_) | S32(_) | U16(_) | U8(_) => raw,
            F16(_) => half::f16::from_bits(raw as u16).to_f32().to_bits(),
            S16(_) => raw as u16 as i16 as i32 as u32,
            S8(_) => raw as u8 as i8 as i32 as u32,
            Unorm8(_) => unorm(8),
            Unorm16(_) => unorm(16),
            Snorm8(_) => snorm(8),
            Snorm16(_) => snorm(16),
        }
    }
    /// Value of a missing component: (0, 0, 0, 1), with 1 as 1.0 for float and normalized formats.
    fn default(self, c: usize) -> u32 {
        match c {
            3 if self.is_integer() => 1,
            3 => 1.0f32.to_bits(),
            _ => 0,
        }
    }
}

/// One vertex attribute binding.
#[derive(Debug, Clone)]
pub struct VertexAttribute {
    /// Device address of element 0 (the source offset folded in, as Mesa's per-attribute bases do).
    pub base: u64,
    pub stride: u32,
    pub format: AttribFormat,
    /// Per-instance data, advancing every `divisor` instances (0: every instance reads one element).
    pub instanced: Option<u32>,
    /// Last valid element index (robustness clamp).
    pub clamp: u32,
    /// Components the main shader reads (bit `c`); the prolog writes only these.
    pub components_read: u8,
}

/// An index buffer for indexed draws.
#[derive(Debug, Clone, Copy)]
pub struct IndexBuffer {
    pub address: u64,
    /// Bytes per index: 1, 2 or 4.
    pub index_size: u8,
    /// Number of valid elements.
    pub range_el: u32,
}

/// A draw for the vertex runner.
#[derive(Debug, Clone)]
pub struct VertexDraw {
    pub vertex_count: u32,
    pub instance_count: u32,
    pub first_vertex: u32,
    pub base_instance: u32,
    pub draw_id: u16,
    /// Index buffer of a hardware vertex shader's indexed draw (the hardware fetches the index).
    pub index_buffer: Option<IndexBuffer>,
    /// Run as a hardware compute shader (uniform layout 6n+12, software index fetch).
    pub hardware_compute: Option<HardwareCompute>,
}

/// A vertex shader running as a hardware compute shader.
#[derive(Debug, Clone, Copy)]
pub struct HardwareCompute {
    /// Device address of the input-assembly state (Mesa's `struct agx_ia_state`: 64-bit index buffer
    /// address, 32-bit range in elements, 32-bit vertices per instance).
    pub ia_state: u64,
    /// Bytes per index (1, 2, 4), or 0 for a non-indexed draw.
    pub index_size: u8,
}

/// The main vertex shader and its bindings.
#[derive(Debug, Clone)]
pub struct VertexConfig {
    pub main: Vec<u8>,
    /// Registers the main shader uses (32-bit).
    pub nr_gprs: usize,
    pub attributes: Vec<VertexAttribute>,
    /// Further uniforms of the main shader: (16-bit slot, value); slots below the prolog's reserved
    /// range are rejected.
    pub uniforms: Vec<(usize, u16)>,
    pub abi: AbiVersion,
    /// Opt-in: `sin_pt_1`, `sin_pt_2`, `rsqrt_special` compute their documented intent
    /// (`exec::WaveState::approximate`), counted in [`VertexRun::approximated`].
    pub approximate: bool,
}

/// A vertex draw's invocations and the instructions run as their documented intent (opt-in).
#[derive(Debug, Clone, PartialEq)]
pub struct VertexRun {
    pub invocations: Vec<VertexInvocation>,
    /// SIMD-group executions of each approximated instruction, by name.
    pub approximated: std::collections::BTreeMap<&'static str, u64>,
}

/// Final state of one vertex invocation.
#[derive(Debug, Clone, PartialEq)]
pub struct VertexInvocation {
    pub vertex_id: u32,
    pub instance_id: u32,
    /// The main shader's registers at `stop`.
    pub regs: Vec<u32>,
    /// Outputs it stored with `st_var`: (slot, value), in program order.
    pub varyings: Vec<(u32, u32)>,
}

/// Number of 16-bit uniform slots the vertex prolog reserves for `n` attributes (Mesa's asahi
/// compiler README, ABI; current Mesa's `AGX_ABI_VUNI_COUNT_GL`, see [`AbiVersion`]).
pub fn vertex_uniform_slots(n: usize, hardware_compute: bool, abi: AbiVersion) -> usize {
    match (hardware_compute, abi) {
        (true, _) => 6 * n + 12,
        (false, AbiVersion::Readme2023) => 6 * n + 5,
        (false, AbiVersion::MesaCurrent) => 6 * n + 4,
    }
}

fn set_slot32(w: &mut WaveState, slot: usize, v: u32) {
    w.uniforms[slot] = v as u16;
    w.uniforms[slot + 1] = (v >> 16) as u16;
}

fn set_slot64(w: &mut WaveState, slot: usize, v: u64) {
    set_slot32(w, slot, v as u32);
    set_slot32(w, slot + 2, (v >> 32) as u32);
}

fn slot32(w: &WaveState, slot: usize) -> u32 {
    w.uniforms[slot] as u32 | (w.uniforms[slot + 1] as u32) << 16
}

fn slot64(w: &WaveState, slot: usize) -> u64 {
    slot32(w, slot) as u64 | (slot32(w, slot + 2) as u64) << 32
}

fn read_index(dev: &DeviceMemory, ib: &IndexBuffer, id: u32) -> Result<u32, AbiError> {
    if !matches!(ib.index_size, 1 | 2 | 4) {
        return Err(AbiError::Config {
            what: format!("index size {}", ib.index_size),
        });
    }
    // Out-of-range ids read element 0 (libagx_load_index_buffer_internal).
    let id = if id >= ib.range_el { 0 } else { id } as u64;
    let size = ib.index_size as u64;
    let mut b = [0u8; 4];
    dev.read(ib.address + id * size, &mut b[..size as usize])?;
    Ok(u32::from_le_bytes(b))
}

/// Run the main vertex shader for every vertex of every instance of `draw`, doing the vertex prolog's
/// work first. Invocations are ordered instance-major.
pub fn run_vertex(
    cfg: &VertexConfig,
    draw: &VertexDraw,
    dev: &DeviceMemory,
) -> Result<Vec<VertexInvocation>, AbiError> {
    Ok(run_vertex_counted(cfg, draw, dev)?.invocations)
}

/// [`run_vertex`], also returning the counts of instructions run under the approximation opt-in.
pub fn run_vertex_counted(
    cfg: &VertexConfig,
    draw: &VertexDraw,
    dev: &DeviceMemory,
) -> Result<VertexRun, AbiError> {
    run_vertex_observed(cfg, draw, dev, &mut NoObserver)
}

/// [`run_vertex_counted`] with `obs` seeing every instruction of the main shader: SIMD group `g`
/// (vertices `32g..32g+31`, instance-major) is workgroup (g,0,0), wave 0.
pub fn run_vertex_observed<O: Observer<WaveState, Inst> + ?Sized>(
    cfg: &VertexConfig,
    draw: &VertexDraw,
    dev: &DeviceMemory,
    obs: &mut O,
) -> Result<VertexRun, AbiError> {
    let n = cfg.attributes.len();
    if cfg.nr_gprs > 128 {
        return Err(AbiError::Config {
            what: format!("{} registers (at most 128)", cfg.nr_gprs),
        });
    }
    if n > 30 {
        return Err(AbiError::Config {
            what: format!("{n} attributes: the ABI holds at most 30 in registers"),
        });
    }
    // Load-time check: the prolog writes r5, r6 and the attribute components the main shader reads.
    let mut prolog_top = 7;
    for (a, attr) in cfg.attributes.iter().enumerate() {
        for c in 0..4 {
            if attr.components_read >> c & 1 == 1 {
                prolog_top = prolog_top.max(8 + 4 * a + c + 1);
            }
        }
    }
    check_prolog("vertex prolog", prolog_top, cfg.nr_gprs)?;
    let reserved = vertex_uniform_slots(n, draw.hardware_compute.is_some(), cfg.abi);
    if let Some((slot, _)) = cfg.uniforms.iter().find(|(s, _)| *s < reserved) {
        return Err(AbiError::Config {
            what: format!(
                "uniform slot {slot} is reserved for the vertex prolog (first {reserved} slots)"
            ),
        });
    }
    let program = Program::new(cfg.main.clone());
    let mut tg = vec![];
    let total = draw.vertex_count as usize * draw.instance_count as usize;
    if total > 1 << 24 {
        return Err(AbiError::Config {
            what: format!("{total} vertex invocations (at most 2^24)"),
        });
    }
    let mut out = Vec::with_capacity(total);
    let mut approximated = std::collections::BTreeMap::new();
    for group in 0..total.div_ceil(SIMD_WIDTH) {
        let mut w = WaveState::new(cfg.nr_gprs);
        w.approximate = cfg.approximate;
        // Uniforms, as the driver pushes them.
        for (a, attr) in cfg.attributes.iter().enumerate() {
            set_slot64(&mut w, 4 * a, attr.base);
            set_slot32(&mut w, 4 * n + 2 * a, attr.clamp);
        }
        set_slot32(&mut w, 6 * n, draw.first_vertex);
        set_slot32(&mut w, 6 * n + 2, draw.base_instance);
        w.uniforms[6 * n + 4] = draw.draw_id;
        if let Some(hw) = &draw.hardware_compute {
            // 48 bits of padding, then the input-assembly pointer at slot 6n+8
            set_slot64(&mut w, 6 * n + 8, hw.ia_state);
        }
        for &(slot, v) in &cfg.uniforms {
            *w.uniforms.get_mut(slot).ok_or_else(|| AbiError::Config {
                what: format!("uniform slot {slot}"),
            })? = v;
        }
        // Per-thread prolog work.
        let mut active = 0u32;
        let mut ids = vec![];
        for lane in 0..SIMD_WIDTH {
            let flat = group * SIMD_WIDTH + lane;
            if flat >= total {
                continue;
            }
            active |= 1 << lane;
            let x = (flat % draw.vertex_count as usize) as u32;
            let instance = (flat / draw.vertex_count as usize) as u32;
            let vertex_id = if let Some(hw) = &draw.hardware_compute {
                // software index fetch through the input-assembly pointer (agx_nir_lower_sw_vs)
                let id = if hw.index_size != 0 {
                    let ia = slot64(&w, 6 * n + 8);
                    let ib = IndexBuffer {
                        address: dev.read_u64(ia)?,
                        index_size: hw.index_size,
                        range_el: dev.read_u32(ia + 8)?,
                    };
                    read_index(dev, &ib, x)?
                } else {
                    x
                };
                id.wrapping_add(slot32(&w, 6 * n))
            } else {
                match &draw.index_buffer {
                    Some(ib) => read_index(dev, ib, x)?.wrapping_add(draw.first_vertex),
                    None => draw.first_vertex.wrapping_add(x),
                }
            };
            ids.push((lane, vertex_id, instance, x));
            for (a, attr) in cfg.attributes.iter().enumerate() {
                let base = slot64(&w, 4 * a);
                let clamp = slot32(&w, 4 * n + 2 * a);
                let mut el = match attr.instanced {
                    Some(0) => 0,
                    Some(d) => instance / d,
                    None => vertex_id,
                };
                if attr.instanced.is_some() {
                    el = el.wrapping_add(slot32(&w, 6 * n + 2));
                }
                if el > clamp {
                    el = 0;
                }
                let addr = base + el as u64 * attr.stride as u64;
                for c in 0..4usize {
                    if attr.components_read >> c & 1 == 0 {
                        continue;
                    }
                    let v = if c < attr.format.components() as usize {
                        let size = attr.format.component_size();
                        let mut b = [0u8; 4];
                        dev.read(addr + c as u64 * size, &mut b[..size as usize])?;
                        attr.format.convert(u32::from_le_bytes(b))
                    } else {
                        attr.format.default(c)
                    };
                    w.set_reg32(8 + 4 * a + c, lane, v);
                }
            }
            w.set_reg32(5, lane, vertex_id);
            w.set_reg32(6, lane, instance);
        }
        let zero_base = cfg
            .abi
            .vertex_zero_base_id_reg(draw.hardware_compute.is_some());
        for r in [0, 1, 2, 3, 4, 7] {
            if r < cfg.nr_gprs && Some(r) != zero_base {
                w.poison_reg32(r);
            }
        }
        if let Some(r) = zero_base.filter(|r| *r < cfg.nr_gprs) {
            // The thread's grid x: the vertex before the index fetch and the first vertex
            // (`agx_nir_vs_prolog` exports `load_global_invocation_id.x`).
            for &(lane, _, _, x) in &ids {
                w.set_reg32(r, lane, x);
            }
        }
        w.exec = active;
        w.present = active;
        let mut mem = Memories {
            device: dev,
            threadgroup: &mut tg,
        };
        w.slot = Some(group_slot(group, 0));
        run_part(
            "vertex shader",
            "group",
            group,
            &mut w,
            &program,
            &mut mem,
            obs,
        )?;
        for (name, n) in std::mem::take(&mut w.approximated) {
            *approximated.entry(name).or_insert(0) += n;
        }
        for (lane, vertex_id, instance_id, _) in ids {
            let regs = (0..cfg.nr_gprs).map(|r| w.reg32(r, lane)).collect();
            let varyings = w
                .varyings
                .iter()
                .filter(|v| v.0 == lane)
                .map(|v| (v.1, v.2))
                .collect();
            out.push(VertexInvocation {
                vertex_id,
                instance_id,
                regs,
                varyings,
            });
        }
    }
    Ok(VertexRun {
        invocations: out,
        approximated,
    })
}

// ---------------------------------------------------------------- fragment

/// Register format of a render target's colour output.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ColourRegs {
    /// 4 x f32 in `r(4(i+1))`..`r(4(i+1)+3)`.
    F32,
    /// 4 x f16 in `r(4(i+1))l`, `r(4(i+1))h`, `r(4(i+1)+1)l`, `r(4(i+1)+1)h`.
    F16,
}

/// Blending the epilog applies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Blend {
    /// dst = src.
    Replace,
    /// Dual source: dst = src0 + (1 - src1) * dst (GL `ONE, ONE_MINUS_SRC1_COLOR`); needs `dual_source`.
    DualSourceOneMinusSrc1,
    /// dst = src * C + (1 - C) * dst with C the blend constant (u2..u5).
    Constant,
}

/// A non-monolithic fragment program and its framebuffer.
#[derive(Debug, Clone)]
pub struct FragmentConfig {
    pub main: Vec<u8>,
    pub nr_gprs: usize,
    /// Optional fragment prolog machine code (runs once per pixel before the sample loop, ends in `stop`).
    pub prolog: Option<Vec<u8>>,
    pub width: u32,
    pub height: u32,
    /// Samples per pixel: 1, 2, 4 or 8.
    pub samples: u32,
    pub sample_shading: bool,
    /// Render targets (1 to 8) and their colour register formats.
    pub render_targets: Vec<ColourRegs>,
    pub dual_source: bool,
    pub blend: Blend,
    pub blend_constant: [f32; 4],
    pub writes_depth: bool,
    pub writes_stencil: bool,
    /// The shader emits a sample mask in r3h (forced early tests), predicating the epilog's stores.
    pub writes_sample_mask: bool,
    /// Initial contents of every render target sample.
    pub clear_colour: [f32; 4],
    /// Where the sample mask lives (r0h or r1l, [`AbiVersion`]).
    pub abi: AbiVersion,
    /// Coefficient registers in register order, each a plane <A, B, C> in framebuffer pixels: the
    /// value at pixel (x, y) is A(x + 0.5) + B(y + 0.5) + C. Each group's registers hold C moved to
    /// the corner of its 32x32 tile, as the hardware's are tile-relative (`exec::varying`).
    pub coefficients: Vec<[f32; 3]>,
    /// The primitive's facing for `get_sr` sr62 (`backfacing`, 1 when back-facing: Mesa's
    /// `load_back_face_agx`); `None` leaves sr62 unprovided (reading it is a typed error).
    pub back_facing: Option<bool>,
    /// Opt-in: `sin_pt_1`, `sin_pt_2`, `rsqrt_special` compute their documented intent
    /// (`exec::WaveState::approximate`), counted in [`FragmentResult::approximated`].
    pub approximate: bool,
}

impl FragmentConfig {
    /// `main` with `nr_gprs` registers over `width` x `height` pixels: one sample, one f32 render
    /// target replaced, cleared to 0, no depth/stencil/sample mask outputs, no prolog, no
    /// coefficient registers, the 2023 ABI, no approximations.
    pub fn new(main: Vec<u8>, nr_gprs: usize, width: u32, height: u32) -> FragmentConfig {
        FragmentConfig {
            main,
            nr_gprs,
            prolog: None,
            width,
            height,
            samples: 1,
            sample_shading: false,
            render_targets: vec![ColourRegs::F32],
            dual_source: false,
            blend: Blend::Replace,
            blend_constant: [0.0; 4],
            writes_depth: false,
            writes_stencil: false,
            writes_sample_mask: false,
            clear_colour: [0.0; 4],
            abi: AbiVersion::default(),
            coefficients: vec![],
            back_facing: None,
            approximate: false,
        }
    }
}

/// Framebuffer after a fragment run.
#[derive(Debug, Clone)]
pub struct FragmentResult {
    pub width: u32,
    pub height: u32,
    pub samples: u32,
    /// Per render target, RGBA per (pixel, sample): index `(y * width + x) * samples + s`.
    pub colour: Vec<Vec<[f32; 4]>>,
    pub depth: Vec<f32>,
    pub stencil: Vec<u8>,
    /// Value of the fragment invocation counter after the run.
    pub invocations: u64,
    /// Device addresses of the render targets (read through the u0_u1 heap).
    pub rt_addresses: Vec<u64>,
    /// Register count of the linked program: the largest of the prolog's and the main shader's
    /// (Mesa's `agx_fast_link`).
    pub linked_gprs: usize,
    /// SIMD-group executions of each instruction run as its documented intent (opt-in), by name.
    pub approximated: std::collections::BTreeMap<&'static str, u64>,
}

impl FragmentResult {
    /// Render target `rt` resolved (sample average) to RGBA8, row-major.
    pub fn resolve_rgba8(&self, rt: usize) -> Vec<u8> {
        let s = self.samples as usize;
        let mut out = Vec::with_capacity((self.width * self.height * 4) as usize);
        for p in 0..(self.width * self.height) as usize {
            for c in 0..4 {
                let sum: f32 = (0..s).map(|k| self.colour[rt][p * s + k][c]).sum();
                let v = (sum / s as f32).clamp(0.0, 1.0);
                out.push((v * 255.0).round() as u8);
            }
        }
        out
    }

    /// Write render target `rt` (resolved to RGBA8) as a PNG file.
    pub fn save_png(&self, rt: usize, path: &std::path::Path) -> Result<(), AbiError> {
        std::fs::write(path, self.png(rt)?)
            .map_err(|e| AbiError::Png(format!("{}: {e}", path.display())))
    }

    /// PNG bytes of render target `rt` (resolved to RGBA8).
    pub fn png(&self, rt: usize) -> Result<Vec<u8>, AbiError> {
        if rt >= self.colour.len() {
            return Err(AbiError::Png(format!("no render target {rt}")));
        }
        let mut bytes = vec![];
        {
            let mut enc = png::Encoder::new(&mut bytes, self.width, self.height);
            enc.set_color(png::ColorType::Rgba);
            enc.set_depth(png::BitDepth::Eight);
            let mut writer = enc
                .write_header()
                .map_err(|e| AbiError::Png(e.to_string()))?;
            writer
                .write_image_data(&self.resolve_rgba8(rt))
                .map_err(|e| AbiError::Png(e.to_string()))?;
        }
        Ok(bytes)
    }
}

fn f16_bits_to_f32(h: u16) -> f32 {
    half::f16::from_bits(h).to_f32()
}

/// Run a fragment program over every pixel, doing the sample loop and the epilog's work. Render
/// targets, the texture heap, the root descriptor and the invocation counter are allocated in `dev`.
pub fn run_fragment(
    cfg: &FragmentConfig,
    dev: &mut DeviceMemory,
) -> Result<FragmentResult, AbiError> {
    run_fragment_observed(cfg, dev, &mut NoObserver)
}

/// Where observers see SIMD group `group` of a draw: workgroup (group,0,0), wave `pass` (the
/// sample a sample-shaded fragment pass shades, else 0).
pub fn group_slot(group: usize, pass: usize) -> WaveSlot {
    WaveSlot {
        workgroup: [group as u32, 0, 0],
        index: pass as u32,
        count: 1,
        worker: 0,
    }
}

/// [`run_fragment`] with `obs` seeing every instruction of the main shader: SIMD group `g` (the
/// 8x4 pixels of tile g, row-major) is workgroup (g,0,0), wave k for sample k of a sample-shaded
/// draw (else 0). A prolog is a separate program whose addresses overlap the main shader's, so
/// observing a draw with one is an error.
pub fn run_fragment_observed<O: Observer<WaveState, Inst> + ?Sized>(
    cfg: &FragmentConfig,
    dev: &mut DeviceMemory,
    obs: &mut O,
) -> Result<FragmentResult, AbiError> {
    if obs.enabled() && cfg.prolog.is_some() {
        return Err(AbiError::Config {
            what:
                "a fragment prolog runs at addresses of its own that overlap the main shader's; \
                   trace, statistics, timelines, checks and the debugger see only draws without one"
                    .into(),
        });
    }
    let cfgerr = |what: String| Err(AbiError::Config { what });
    if cfg.nr_gprs > 128 {
        return cfgerr(format!("{} registers (at most 128)", cfg.nr_gprs));
    }
    if ![1, 2, 4, 8].contains(&cfg.samples) {
        return cfgerr(format!("{} samples (1, 2, 4 or 8)", cfg.samples));
    }
    let nrt = cfg.render_targets.len();
    if !(1..=8).contains(&nrt) {
        return cfgerr(format!("{nrt} render targets (1 to 8)"));
    }
    if cfg.dual_source && nrt != 1 {
        return cfgerr("dual-source blending has exactly one render target".into());
    }
    if (cfg.blend == Blend::DualSourceOneMinusSrc1) != cfg.dual_source {
        return cfgerr("the dual-source blend needs dual_source and vice versa".into());
    }
    // Registers the epilog reads must exist in the main shader.
    let mut needed = 1;
    for (i, f) in cfg.render_targets.iter().enumerate() {
        needed = needed.max(4 * (i + 1) + if *f == ColourRegs::F32 { 4 } else { 2 });
    }
    if cfg.dual_source {
        needed = needed.max(12);
    }
    if cfg.writes_depth || cfg.writes_stencil || cfg.writes_sample_mask {
        needed = needed.max(4);
    }
    if needed > cfg.nr_gprs {
        return cfgerr(format!(
            "the epilog reads r{} but the main shader has {} registers",
            needed - 1,
            cfg.nr_gprs
        ));
    }
    // Mesa's `agx_fast_link` (agx_linker.c) gives the linked program the largest register count of
    // its parts (prolog, main, epilog): a prolog may use registers above the main shader's. The
    // epilog is wavesim's own and reads only registers checked against the main shader above.
    let (prolog, linked_gprs) = match &cfg.prolog {
        Some(code) => (
            Some(Program::new(code.clone())),
            cfg.nr_gprs.max(registers_written(code)),
        ),
        None => (None, cfg.nr_gprs),
    };
    let main = Program::new(cfg.main.clone());
    let (w_px, h_px, s) = (cfg.width, cfg.height, cfg.samples as usize);
    // at most 2^24 pixels (4096 x 4096), so every index below fits comfortably
    let pixels = match w_px.checked_mul(h_px) {
        Some(p) if p <= 1 << 24 => p as usize,
        _ => return cfgerr(format!("{w_px} x {h_px} pixels (at most 2^24)")),
    };

    // Device-side objects the uniforms point to.
    let rt_bytes = (pixels * s * 16) as u64;
    if rt_bytes * nrt as u64 > 1 << 28 {
        return cfgerr(format!(
            "render targets of {} bytes (at most 256 MiB)",
            rt_bytes * nrt as u64
        ));
    }
    let mut rt_addresses = vec![];
    for _ in 0..nrt {
        let a = dev.alloc(rt_bytes.max(16), 16)?;
        for i in 0..pixels * s {
            for (c, v) in cfg.clear_colour.iter().enumerate() {
                dev.write_u32(a + (i * 16 + c * 4) as u64, v.to_bits())?;
            }
        }
        rt_addresses.push(a);
    }
    let heap = dev.alloc(8 * nrt as u64, 8)?;
    for (i, a) in rt_addresses.iter().enumerate() {
        dev.write_u64(heap + 8 * i as u64, *a)?;
    }
    let counter = dev.alloc(8, 8)?;
    let root = dev.alloc(64, 8)?;
    dev.write_u64(root, counter)?;
    let dev: &DeviceMemory = dev;

    let mut approximated = std::collections::BTreeMap::new();
    let mut depth = vec![0f32; pixels * s];
    let mut stencil = vec![0u8; pixels * s];
    let mut tg = vec![];
    // A SIMD group shades an 8x4 tile of 2x2 quads: thread 4q + dx + 2dy is pixel (dx, dy) of quad q
    // (the quad order of Vulkan's derivative groups, which Mesa maps onto AGX's quad lanes). Threads
    // outside the framebuffer in a quad with a covered pixel run as helpers (for derivatives) and are
    // not written by the epilog.
    let (tiles_x, tiles_y) = (w_px.div_ceil(8), h_px.div_ceil(4));
    for group in 0..(tiles_x * tiles_y) as usize {
        let (tx, ty) = (group as u32 % tiles_x, group as u32 / tiles_x);
        let mut w = WaveState::new(linked_gprs);
        w.approximate = cfg.approximate;
        w.sample_positions = default_sample_positions(cfg.samples).unwrap_or_default();
        w.coverage = Coverage::new(cfg.samples);
        w.set_uniform64(0, heap);
        for (i, c) in cfg.blend_constant.iter().enumerate() {
            w.set_uniform32(2 + i, c.to_bits());
        }
        w.set_uniform64(6, root);
        // Coefficient registers relative to this group's 32x32 tile (an 8x4 group never straddles
        // one): C + A * x0 + B * y0, rounded once to f32.
        let (x0, y0) = (
            f64::from(tx * 8 / TILE * TILE),
            f64::from(ty * 4 / TILE * TILE),
        );
        w.coefficients = cfg
            .coefficients
            .iter()
            .map(|&[a, b, c]| {
                let c = f64::from(a).mul_add(x0, f64::from(b).mul_add(y0, f64::from(c)));
                [a, b, c as f32]
            })
            .collect();
        // README "Fragment": no register inputs are defined (except r0l/r0h with sample shading); a
        // shader or epilog read of a register nothing wrote is an error.
        w.poison_all();
        let mut covered = 0u32;
        let mut xs = [0u32; SIMD_WIDTH];
        let mut ys = [0u32; SIMD_WIDTH];
        for lane in 0..SIMD_WIDTH {
            let q = lane as u32 / 4;
            xs[lane] = tx * 8 + (q % 4) * 2 + (lane as u32 & 1);
            ys[lane] = ty * 4 + (q / 4) * 2 + ((lane as u32 >> 1) & 1);
            if xs[lane] < w_px && ys[lane] < h_px {
                covered |= 1 << lane;
            }
        }
        // whole quads with at least one covered pixel run
        let active = (0..8)
            .filter(|q| covered >> (4 * q) & 0xF != 0)
            .fold(0u32, |m, q| m | 0xF << (4 * q));
        // thread_position_in_grid.x/.y: the pixel (applegpu: sr80/81 are used for fragcoord)
        w.special.insert(80, xs);
        w.special.insert(81, ys);
        if let Some(back) = cfg.back_facing {
            w.special.insert(62, [u32::from(back); SIMD_WIDTH]);
        }
        w.present = active;
        let mut mem = Memories {
            device: dev,
            threadgroup: &mut tg,
        };
        if let Some(prolog) = &prolog {
            w.exec = active;
            w.pc = 0;
            run_part(
                "fragment prolog",
                "group",
                group,
                &mut w,
                prolog,
                &mut mem,
                &mut NoObserver,
            )?;
        }
        // Invocation counter: once per shaded pixel (root descriptor offset 0).
        let counter_addr =
            dev.read_u64(u64::from(w.uniform32(6)) | u64::from(w.uniform32(7)) << 32)?;
        if counter_addr != 0 {
            let old = dev.read_u64(counter_addr)?;
            dev.write_u64(counter_addr, old + covered.count_ones() as u64)?;
        }
        let iterations: Vec<Option<usize>> = if cfg.sample_shading {
            (0..s).map(Some).collect()
        } else {
            vec![None]
        };
        for sample in iterations {
            w.exec = active;
            w.pc = 0;
            if let Some(k) = sample {
                // Mesa's asahi compiler README (ABI): r0l = 0 (nesting counter), the sample mask
                // register (r0h, or r1l in current Mesa) = mask of the samples being shaded
                let mask_half = cfg.abi.fragment_sample_mask_half();
                for lane in 0..SIMD_WIDTH {
                    w.set_half(0, lane, 0);
                    w.set_half(mask_half, lane, 1 << k);
                }
            }
            w.slot = Some(group_slot(group, sample.unwrap_or(0)));
            run_part(
                "fragment shader",
                "group",
                group,
                &mut w,
                &main,
                &mut mem,
                obs,
            )?;
            for (name, n) in std::mem::take(&mut w.approximated) {
                *approximated.entry(name).or_insert(0) += n;
            }
            epilog(
                cfg,
                &w,
                covered,
                &xs,
                &ys,
                sample,
                dev,
                &rt_addresses,
                &mut depth,
                &mut stencil,
            )?;
        }
    }
    let mut colour = vec![];
    for a in &rt_addresses {
        let mut v = Vec::with_capacity(pixels * s);
        for i in 0..pixels * s {
            let mut px = [0f32; 4];
            for (c, x) in px.iter_mut().enumerate() {
                *x = f32::from_bits(dev.read_u32(a + (i * 16 + c * 4) as u64)?);
            }
            v.push(px);
        }
        colour.push(v);
    }
    let invocations = dev.read_u64(counter)?;
    Ok(FragmentResult {
        width: w_px,
        height: h_px,
        samples: cfg.samples,
        colour,
        depth,
        stencil,
        invocations,
        rt_addresses,
        linked_gprs,
        approximated,
    })
}

#[allow(clippy::too_many_arguments)]
fn epilog(
    cfg: &FragmentConfig,
    w: &WaveState,
    active: u32,
    xs: &[u32; SIMD_WIDTH],
    ys: &[u32; SIMD_WIDTH],
    sample: Option<usize>,
    dev: &DeviceMemory,
    rt_addresses: &[u64],
    depth: &mut [f32],
    stencil: &mut [u8],
) -> Result<(), AbiError> {
    let s = cfg.samples as usize;
    let all = if s == 8 { 0xFF } else { (1u32 << s) - 1 };
    let heap = u64::from(w.uniform32(0)) | u64::from(w.uniform32(1)) << 32;
    let constant: [f32; 4] = std::array::from_fn(|i| f32::from_bits(w.uniform32(2 + i)));
    for lane in (0..SIMD_WIDTH).filter(|l| active >> l & 1 == 1) {
        let (x, y) = (xs[lane], ys[lane]);
        let mut mask = all;
        if let Some(k) = sample {
            if w.half(0, lane) != 0 {
                return Err(AbiError::AbiViolation {
                    x,
                    y,
                    what: format!(
                        "r0l = {} at the end of the main shader (must be 0)",
                        w.half(0, lane)
                    ),
                });
            }
            let mask_half = cfg.abi.fragment_sample_mask_half();
            if w.half(mask_half, lane) != 1 << k {
                return Err(AbiError::AbiViolation {
                    x,
                    y,
                    what: format!(
                        "{} = {:#x} at the end, not preserved ({:#x}; ABI {})",
                        AbiVersion::half_name(mask_half),
                        w.half(mask_half, lane),
                        1 << k,
                        cfg.abi.name()
                    ),
                });
            }
            mask &= 1 << k;
        }
        // Samples the shader killed with `sample_mask` are not written; if it used `sample_mask`,
        // every sample it shades must be killed or tested (Mesa's sample_mask rule 2).
        let sample_bits = |v: &[u8]| v.get(lane).copied().unwrap_or(0) as u32;
        let (killed, tested) = (
            sample_bits(&w.coverage.killed),
            sample_bits(&w.coverage.tested),
        );
        if w.coverage.used && mask & !(killed | tested) != 0 {
            return Err(AbiError::AbiViolation {
                x,
                y,
                what: format!(
                    "samples {:#x} neither killed nor tested after sample_mask (Mesa's rule 2)",
                    mask & !(killed | tested)
                ),
            });
        }
        mask &= !killed;
        // Every register the epilog reads must have been written by the shader (or prolog).
        let mut reads: Vec<usize> = vec![];
        if cfg.writes_sample_mask {
            reads.push(7);
        }
        if cfg.writes_depth {
            reads.extend([4, 5]);
        }
        if cfg.writes_stencil {
            reads.push(6);
        }
        let colour_halves = |first: usize, fmt: ColourRegs| -> Vec<usize> {
            match fmt {
                ColourRegs::F32 => (2 * first..2 * first + 8).collect(),
                ColourRegs::F16 => (2 * first..2 * first + 4).collect(),
            }
        };
        for (rt, fmt) in cfg.render_targets.iter().enumerate() {
            reads.extend(colour_halves(4 * (rt + 1), *fmt));
            if cfg.dual_source {
                reads.extend(colour_halves(8, *fmt));
            }
        }
        if let Some(h) = reads.into_iter().find(|&h| w.is_undefined(h, lane)) {
            let reg = format!("r{}{}", h / 2, if h % 2 == 0 { 'l' } else { 'h' });
            return Err(AbiError::AbiViolation {
                x,
                y,
                what: format!("the epilog reads {reg}, which the shader never wrote"),
            });
        }
        if cfg.writes_sample_mask {
            mask &= w.half(7, lane) as u32;
        }
        let pixel = (y * cfg.width + x) as usize;
        for k in (0..s).filter(|k| mask >> k & 1 == 1) {
            let idx = pixel * s + k;
            if cfg.writes_depth {
                depth[idx] = f32::from_bits(w.reg32(2, lane));
            }
            if cfg.writes_stencil {
                stencil[idx] = w.half(6, lane) as u8;
            }
            for (rt, fmt) in cfg.render_targets.iter().enumerate() {
                let src = colour_regs(w, lane, 4 * (rt + 1), *fmt);
                let addr = dev.read_u64(heap + 8 * rt as u64)? + (idx * 16) as u64;
                debug_assert_eq!(addr - (idx * 16) as u64, rt_addresses[rt]);
                let mut dst = [0f32; 4];
                for (c, d) in dst.iter_mut().enumerate() {
                    *d = f32::from_bits(dev.read_u32(addr + 4 * c as u64)?);
                }
                let out: [f32; 4] = match cfg.blend {
                    Blend::Replace => src,
                    Blend::DualSourceOneMinusSrc1 => {
                        let src1 = colour_regs(w, lane, 8, *fmt);
                        std::array::from_fn(|c| src[c] + (1.0 - src1[c]) * dst[c])
                    }
                    Blend::Constant => {
                        std::array::from_fn(|c| src[c] * constant[c] + (1.0 - constant[c]) * dst[c])
                    }
                };
                for (c, v) in out.iter().enumerate() {
                    dev.write_u32(addr + 4 * c as u64, v.to_bits())?;
                }
            }
        }
    }
    Ok(())
}

fn colour_regs(w: &WaveState, lane: usize, first: usize, fmt: ColourRegs) -> [f32; 4] {
    match fmt {
        ColourRegs::F32 => std::array::from_fn(|c| f32::from_bits(w.reg32(first + c, lane))),
        ColourRegs::F16 => std::array::from_fn(|c| f16_bits_to_f32(w.half(2 * first + c, lane))),
    }
}

/// Poison value, re-exported for tests that check it.
pub const POISON_VALUE: u32 = POISON;
