//! RADV's vertex stage on gfx11: the merged geometry-stage (NGG) wave that runs a vertex shader
//! without tessellation or geometry shaders, as RADV 22.3 / ACO compile it.
//!
//! What the hardware gives the wave (GE/SPI, host here) and what the shader does with it:
//!
//! | what | where | source |
//! | --- | --- | --- |
//! | s[0:1] | USER_DATA_ADDR (SPI_SHADER_PGM_LO/HI_GS on RADV, the ring table pointer) | Mesa `radv_shader_args.c` |
//! | s2 gs_tg_info | [20:12] vertices, [30:22] primitives of the subgroup | Mesa `ac_nir_lower_ngg.c` (`load_workgroup_num_input_vertices_amd` = bits 12..20) |
//! | s3 merged_wave_info | [7:0] vertices, [15:8] primitives of this wave, [27:24] wave id in the subgroup | the ACO listings (`s_lshr_b32 s2, s3, 8; s_bfm_b64`, `s_bfe_u32 s0, s3, 0x40018`) |
//! | s4, s6, s7 | 0 (tessellation offchip offset; unused) | |
//! | s5 gs_attr_offset | [14:0] the subgroup's attribute-ring slice in 512-byte units | the listings (`s_and_b32 s2, s5, 0x7fff; s_lshl_b32 s2, s2, 9`) |
//! | s8.. | USER_DATA_GS_n | |
//! | v0 | the primitive as `exp prim` takes it (passthrough): vertex k's subgroup index at bits 10k..10k+8, bit 31 null | Mesa `ac_nir_lower_ngg.c` (`emit_pack_ngg_prim_exp_arg`) |
//! | v2 | primitive id | |
//! | v5, v8 | vertex id (the index, without the base vertex), instance id (without the first instance) | Mesa `radv_shader_args.c` (`declare_vs_input_vgprs`) |
//!
//! The shader exports positions (`exp pos0..3`), its primitives (`exp prim`) and stores each
//! parameter as a float4 to the attribute ring (gfx11 passes parameters through memory):
//! `buffer_store_b128 ... idxen` with the ring's V# (16-byte elements, index stride 32, stride
//! 16 x parameters), index = wave id x wave size + lane, soffset = gs_attr_offset x 512 + 512 x
//! parameter. So parameter `a` of subgroup vertex `v` is at ring + (v / 32) x 512 x parameters
//! + 512 a + 16 (v % 32): the SPI reads it there for the PS.
//!
//! One subgroup is one wave here (wave id 0, attribute slice 0): primitives are packed into a
//! wave in draw order while their distinct vertices and the primitives fit in its lanes.

use std::collections::HashMap;

use crate::dispatch::{run_wave_alone, ExecConfig};
use crate::exec::Program;
use crate::gfx::draw::{DrawError, DrawStats, VsOut};
use crate::gfx::vertex_fetch::{Invocation, Prim};
use crate::gfx::{ExportRecord, GfxWave, Stage};
use crate::wave::{status, Wave};
use wavesim_core::memory::DeviceMemory;

/// EXP targets (RDNA3 ISA guide, "Export"): POS0 = 12, PRIM = 20.
const POS0: u8 = 12;
const PRIM: u8 = 20;

/// Where the vertex stage puts each position-export vector (PA_CL_VS_OUT_CNTL: the
/// vectors are exported in order POS0, then the misc vector if enabled, then the clip/cull
/// distance vectors).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PosLayout {
    /// VS_OUT_MISC_VEC_ENA with USE_VTX_POINT_SIZE: the misc vector's x is the point size.
    pub point_size: bool,
    /// VS_OUT_MISC_VEC_ENA.
    pub misc: bool,
    /// VS_OUT_MISC_VEC_ENA with USE_VTX_RENDER_TARGET_INDX: the misc vector's z holds the
    /// layer (bits [10:0]) and viewport index ([19:16]) on gfx9 and later (Mesa's
    /// `ac_nir_lower_ngg` / `ac_llvm` export of VARYING_SLOT_LAYER). The draws' targets have
    /// one layer and one viewport: every vertex must export 0 there, anything else is refused.
    pub layer: bool,
    /// Clip distances 0..n (CLIP_DIST_ENA's low bits), in the CCDIST vectors.
    pub clip_distances: usize,
}

/// The launch state of the draw's NGG waves.
#[derive(Clone, Debug)]
pub struct NggSetup {
    pub wave64: bool,
    pub num_vgprs: u16,
    /// MODE from SPI_SHADER_PGM_RSRC1_GS.
    pub mode: u32,
    /// s0, s1.
    pub user_data_addr: [u32; 2],
    /// USER_DATA_GS_0.. (RSRC2_GS.USER_SGPR of them).
    pub user_sgprs: Vec<u32>,
    /// VGPRs the ES part loads after v4 (RSRC2_GS.ES_VGPR_COMP_CNT + 1).
    pub es_vgprs: usize,
    /// SPI_ATTRIBUTE_RING_BASE's address.
    pub attr_ring: u64,
    /// Parameters each vertex stores (SPI_VS_OUT_CONFIG.VS_EXPORT_COUNT + 1, or 0 with
    /// NO_PC_EXPORT).
    pub params: usize,
    /// The PS's inputs: for each, the parameter it reads or a default value (SPI_PS_INPUT_CNTL).
    pub ps_inputs: Vec<PsInput>,
    pub pos: PosLayout,
    /// LDS bytes of a wave (RSRC2_GS.LDS_SIZE).
    pub lds_bytes: u32,
    pub max_wave_insts: u64,
    /// Primitives per instance (primitive ids restart at 0 with each instance).
    pub prims_per_instance: usize,
}

/// One PS input: a parameter of the vertex stage or a constant.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PsInput {
    Param(usize),
    Constant([f32; 4]),
}

/// The vertex stage's outputs: every slot's vertex (None: in no primitive) and the primitives
/// the waves exported (null primitives dropped), in draw order.
pub struct NggOut {
    pub verts: Vec<Option<VsOut>>,
    pub prims: Vec<Prim>,
}

fn prim_slots(p: &Prim) -> &[usize] {
    match p {
        Prim::Point(s) => s,
        Prim::Line(s) => s,
        Prim::Triangle(s) => s,
    }
}

/// Runs the vertex stage over the draw's `invocations` (hardware vertex and instance ids) and
/// `prims` (slots into `invocations`).
pub fn run_ngg(
    prog: &Program,
    entry: u64,
    setup: &NggSetup,
    mem: &DeviceMemory,
    invocations: &[Invocation],
    prims: &[Prim],
    stats: &mut DrawStats,
) -> Result<NggOut, DrawError> {
    let lanes = if setup.wave64 { 64 } else { 32 };
    let mut out = NggOut {
        verts: vec![None; invocations.len()],
        prims: Vec::with_capacity(prims.len()),
    };
    let mut start = 0;
    while start < prims.len() {
        // The wave's primitives and their distinct vertices (in first-use order).
        let mut local: HashMap<usize, usize> = HashMap::new();
        let mut slots: Vec<usize> = Vec::new();
        let mut end = start;
        while end < prims.len() && end - start < lanes {
            let new: Vec<usize> = prim_slots(&prims[end])
                .iter()
                .copied()
                .filter(|s| !local.contains_key(s))
                .collect();
            let mut distinct = new.clone();
            distinct.sort_unstable();
            distinct.dedup();
            if slots.len() + distinct.len() > lanes {
                break;
            }
            for s in new {
                if let std::collections::hash_map::Entry::Vacant(e) = local.entry(s) {
                    e.insert(slots.len());
                    slots.push(s);
                }
            }
            end += 1;
        }
        run_wave(
            prog,
            entry,
            setup,
            mem,
            invocations,
            &prims[start..end],
            start,
            &local,
            &slots,
            stats,
            &mut out,
        )?;
        start = end;
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn run_wave(
    prog: &Program,
    entry: u64,
    setup: &NggSetup,
    mem: &DeviceMemory,
    invocations: &[Invocation],
    prims: &[Prim],
    first_prim: usize,
    local: &HashMap<usize, usize>,
    slots: &[usize],
    stats: &mut DrawStats,
    out: &mut NggOut,
) -> Result<(), DrawError> {
    let bad = |m: String| Err(DrawError::Config(m));
    let (nv, np) = (slots.len(), prims.len());
    let rows = 5 + setup.es_vgprs;
    if rows > setup.num_vgprs as usize {
        return bad(format!(
            "the vertex stage loads {rows} VGPRs but allocates {}",
            setup.num_vgprs
        ));
    }
    if 8 + setup.user_sgprs.len() > 106 {
        return bad(format!("{} user SGPRs do not fit", setup.user_sgprs.len()));
    }
    let mut w = Wave::new(setup.wave64, setup.num_vgprs);
    w.sgpr[0] = setup.user_data_addr[0];
    w.sgpr[1] = setup.user_data_addr[1];
    w.sgpr[2] = (nv as u32) << 12 | (np as u32) << 22;
    w.sgpr[3] = nv as u32 | (np as u32) << 8;
    for (k, v) in setup.user_sgprs.iter().enumerate() {
        w.sgpr[8 + k] = *v;
    }
    for (l, p) in prims.iter().enumerate() {
        let packed = prim_slots(p)
            .iter()
            .enumerate()
            .fold(0u32, |a, (k, s)| a | (local[s] as u32) << (10 * k));
        w.vgpr_set(0, l, packed);
        let id = (first_prim + l) % setup.prims_per_instance.max(1);
        w.vgpr_set(2, l, id as u32);
    }
    for (l, &s) in slots.iter().enumerate() {
        let inv = invocations[s];
        if rows > 5 {
            w.vgpr_set(5, l, inv.vertex);
        }
        if rows > 8 {
            w.vgpr_set(8, l, inv.instance);
        }
    }
    let n = nv.max(np);
    w.set_exec(if n >= 64 { u64::MAX } else { (1u64 << n) - 1 });
    w.hw.mode = setup.mode;
    w.hw.status &= !status::PRIV;
    w.gfx = Some(Box::new(GfxWave::new(Stage::Gs)));
    w.pc = entry;
    let mut lds = vec![0u8; setup.lds_bytes.min(65536) as usize];
    run_wave_alone(
        &mut w,
        &mut lds,
        prog,
        mem,
        &ExecConfig::default(),
        setup.max_wave_insts,
    )?;
    stats.vs_waves += 1;
    stats.wave_instructions += w.wave_insts;
    let exports: &[ExportRecord] = w.gfx.as_deref().map_or(&[], |g| &g.exports);
    let find = |t: u8| exports.iter().find(|e| e.target == t);

    // Primitives as exported.
    let Some(pe) = find(PRIM) else {
        return bad("the vertex stage made no primitive export".into());
    };
    for (l, p) in prims.iter().enumerate() {
        if pe.exec >> l & 1 == 0 {
            return bad(format!(
                "primitive {}: the vertex stage did not export it",
                first_prim + l
            ));
        }
        let d = pe.data[0][l];
        if d >> 31 != 0 {
            continue; // a null primitive: culled by the shader
        }
        let k = prim_slots(p).len();
        let mut s = [0usize; 3];
        for (j, slot) in s.iter_mut().enumerate().take(k) {
            let v = (d >> (10 * j) & 0x1ff) as usize;
            if v >= nv {
                return bad(format!(
                    "primitive {}: exported vertex {v} of a subgroup of {nv}",
                    first_prim + l
                ));
            }
            *slot = slots[v];
        }
        out.prims.push(match k {
            1 => Prim::Point([s[0]]),
            2 => Prim::Line([s[0], s[1]]),
            _ => Prim::Triangle(s),
        });
    }

    // Positions and parameters.
    let pos = |k: usize| find(POS0 + k as u8);
    let Some(pos0) = pos(0) else {
        return bad("the vertex stage made no POS0 export".into());
    };
    let misc = usize::from(setup.pos.misc);
    for (l, &slot) in slots.iter().enumerate() {
        let v = invocations[slot];
        let vert = format!("vertex {} instance {}", v.vertex, v.instance);
        if pos0.exec >> l & 1 == 0 || pos0.en != 0xf {
            return bad(format!(
                "{vert}: POS0 was not exported for it with all four components"
            ));
        }
        let clip = [0, 1, 2, 3].map(|c| f32::from_bits(pos0.data[c][l]));
        let point_size = if setup.pos.point_size {
            match pos(1).filter(|e| e.exec >> l & 1 != 0 && e.en & 1 != 0) {
                Some(e) => Some(f32::from_bits(e.data[0][l])),
                None => return bad(format!("{vert}: the point size (POS1.x) was not exported")),
            }
        } else {
            None
        };
        if setup.pos.layer {
            match pos(1).filter(|e| e.exec >> l & 1 != 0 && e.en >> 2 & 1 != 0) {
                Some(e) if e.data[2][l] == 0 => {}
                Some(e) => {
                    return bad(format!(
                        "{vert}: layer / viewport index {:#x} (POS1.z): layered rendering is not executed",
                        e.data[2][l]
                    ))
                }
                None => return bad(format!("{vert}: the layer (POS1.z) was not exported")),
            }
        }
        let mut dists = Vec::with_capacity(setup.pos.clip_distances);
        for k in 0..setup.pos.clip_distances {
            let vec = 1 + misc + k / 4;
            let Some(e) = pos(vec).filter(|e| e.exec >> l & 1 != 0 && e.en >> (k % 4) & 1 != 0)
            else {
                return bad(format!(
                    "{vert}: clip distance {k} (POS{vec} component {}) was not exported",
                    k % 4
                ));
            };
            dists.push(f32::from_bits(e.data[k % 4][l]));
        }
        let mut params = Vec::with_capacity(setup.params);
        for a in 0..setup.params as u64 {
            let at = setup.attr_ring
                + (l as u64 / 32) * 512 * setup.params as u64
                + 512 * a
                + 16 * (l as u64 % 32);
            let mut b = [0u8; 16];
            mem.read(at, &mut b)
                .map_err(|e| DrawError::Memory(format!("{vert}: attribute ring: {e}")))?;
            params.push(
                [0, 1, 2, 3].map(|c| {
                    f32::from_le_bytes([b[4 * c], b[4 * c + 1], b[4 * c + 2], b[4 * c + 3]])
                }),
            );
        }
        let attrs = setup
            .ps_inputs
            .iter()
            .map(|i| match *i {
                PsInput::Param(p) => params.get(p).copied().ok_or(p),
                PsInput::Constant(c) => Ok(c),
            })
            .collect::<Result<Vec<_>, usize>>()
            .map_err(|p| {
                DrawError::Config(format!(
                    "the PS reads parameter {p} but the vertex stage stores {}",
                    setup.params
                ))
            })?;
        out.verts[slot] = Some(VsOut {
            clip,
            point_size,
            dists,
            attrs,
        });
    }
    Ok(())
}
