//! RADV's clear vertex shader (tests/graphics/captures/clear/hw_gs.bin, an NGG merged-stage
//! program without constant data) run by `wavesim_rdna3::gfx::ngg` with a ring table and
//! attribute ring the test builds. Expected values are derived from the listing
//! (hw_gs.objdump) and the ISA's rules:
//! - `v_cmp_gt_i32 vcc, 2, v5` sets vcc where 2 > vertex id; `v_cndmask_b32_e64 v0, 1.0, -1.0,
//!   vcc` picks src1 where vcc is set (RDNA3 ISA, V_CNDMASK_B32): x = id < 2 ? -1 : 1;
//! - `v_and_b32 v6, 1, v5; v_cmp_ne_i32 vcc, 0, v6; v_cndmask_b32_e64 v1, -1.0, 1.0, vcc`:
//!   y = id odd ? 1 : -1; `exp pos0 v0, v1, v6 (0), v7 (1.0)`;
//! - `v_add_nc_u32 v2, s9, v8; exp pos1 off, off, v2, off`: the misc vector's z is
//!   USER_DATA_GS_1 + instance id (the layer), and `buffer_store_b128 v[2:5]` stores (layer, 0,
//!   0, 0) as parameter 0;
//! - `exp prim v0`: the launch's packed primitive, unchanged (passthrough).

use std::path::PathBuf;
use wavesim_core::memory::DeviceMemory;
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::gfx::draw::DrawStats;
use wavesim_rdna3::gfx::ngg::{run_ngg, NggSetup, PosLayout, PsInput};
use wavesim_rdna3::gfx::pal::initial_mode;
use wavesim_rdna3::gfx::vertex_fetch::{Invocation, Prim};

const BASE: u64 = 0x1_0000;
const LAYER_BASE: u32 = 5;

fn clear_vs() -> Vec<u8> {
    let p =
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/graphics/captures/clear/hw_gs.bin");
    std::fs::read(p).expect("the clear capture")
}

/// Memory with a ring table whose +0xa0 V# is the attribute ring as RADV describes it
/// (swizzled, 16-byte elements, index stride 32; the shader ORs the stride in); the setup.
fn setup(mem: &mut DeviceMemory) -> NggSetup {
    let table = mem.alloc(256, 256).unwrap();
    let ring = mem.alloc(1 << 16, 256).unwrap();
    let vsharp = [
        ring as u32,
        (ring >> 32) as u32 & 0xffff | 3 << 30,
        u32::MAX,
        4 | 5 << 3 | 6 << 6 | 7 << 9 | 2 << 21 | 3 << 28,
    ];
    for (k, w) in vsharp.iter().enumerate() {
        mem.write_u32(table + 0xa0 + 4 * k as u64, *w).unwrap();
    }
    // The capture's RSRC1_GS 0x022c0002 (VGPRS 2: 12 VGPRs in wave64) and RSRC2_GS 0x000b0004
    // (ES_VGPR_COMP_CNT 3: v5..v8), wave64 (GS_W32_EN clear).
    NggSetup {
        wave64: true,
        num_vgprs: 12,
        mode: initial_mode(0x022c_0002),
        user_data_addr: [table as u32, (table >> 32) as u32],
        user_sgprs: vec![0, LAYER_BASE],
        es_vgprs: 4,
        attr_ring: ring,
        params: 1,
        ps_inputs: vec![PsInput::Param(0)],
        pos: PosLayout {
            point_size: false,
            misc: true,
            // The layer is checked by the draw (gfx_draw.rs); here it is the parameter's.
            layer: false,
            clip_distances: 0,
        },
        lds_bytes: 65536,
        max_wave_insts: 100_000,
        prims_per_instance: 1,
    }
}

fn expected_clip(id: u32) -> [f32; 4] {
    let x = if id < 2 { -1.0 } else { 1.0 };
    let y = if id & 1 != 0 { 1.0 } else { -1.0 };
    [x, y, 0.0, 1.0]
}

#[test]
fn radv_clear_vs_exports_its_rectangle_corners_layer_and_primitive() {
    let mut mem = DeviceMemory::new();
    let s = setup(&mut mem);
    let code = clear_vs();
    let prog = Program::new(&code, BASE).unwrap();
    let inv: Vec<Invocation> = (0..3)
        .map(|v| Invocation {
            vertex: v,
            instance: 2,
        })
        .collect();
    let prims = [Prim::Triangle([0, 1, 2])];
    let mut stats = DrawStats::default();
    let out = run_ngg(&prog, BASE, &s, &mem, &inv, &prims, &mut stats).unwrap();
    assert_eq!(out.prims, prims);
    assert_eq!(stats.vs_waves, 1);
    for v in 0..3u32 {
        let o = out.verts[v as usize].as_ref().unwrap();
        assert_eq!(o.clip, expected_clip(v), "vertex {v}");
        // The layer, USER_DATA_GS_1 + instance id, as the parameter's first dword.
        assert_eq!(o.attrs[0][0].to_bits(), LAYER_BASE + 2, "vertex {v}");
        assert_eq!(&o.attrs[0][1..], [0.0; 3], "vertex {v}");
    }
}

/// 40 triangles of distinct vertices: a wave64 subgroup holds 21 (63 vertices), so the draw
/// takes two waves, and vertices in lanes 32..62 read their parameter from the ring's second
/// block of 32 (ring + 512 x parameters).
#[test]
fn ngg_packs_primitives_into_waves_and_reads_every_lane_back() {
    let mut mem = DeviceMemory::new();
    let s = setup(&mut mem);
    let code = clear_vs();
    let prog = Program::new(&code, BASE).unwrap();
    // Vertex ids 0..120 (the position only depends on id & 3 as above); instance = slot.
    let inv: Vec<Invocation> = (0..120)
        .map(|v| Invocation {
            vertex: v % 4,
            instance: v,
        })
        .collect();
    let prims: Vec<Prim> = (0..40)
        .map(|p| Prim::Triangle([3 * p, 3 * p + 1, 3 * p + 2]))
        .collect();
    let mut stats = DrawStats::default();
    let out = run_ngg(&prog, BASE, &s, &mem, &inv, &prims, &mut stats).unwrap();
    assert_eq!(stats.vs_waves, 2);
    assert_eq!(out.prims, prims);
    for (slot, i) in inv.iter().enumerate() {
        let o = out.verts[slot].as_ref().unwrap();
        assert_eq!(o.clip, expected_clip(i.vertex), "slot {slot}");
        assert_eq!(
            o.attrs[0][0].to_bits(),
            LAYER_BASE + i.instance,
            "slot {slot}"
        );
    }
}

/// Vertices shared by two primitives run once: the packed primitive holds subgroup-local
/// indices (a strip's 4 vertices, not 6), and the exported indices map back to the draw's
/// slots.
#[test]
fn ngg_maps_exported_indices_to_shared_vertices() {
    let mut mem = DeviceMemory::new();
    let s = setup(&mut mem);
    let code = clear_vs();
    let prog = Program::new(&code, BASE).unwrap();
    let inv: Vec<Invocation> = (0..4)
        .map(|v| Invocation {
            vertex: v,
            instance: 0,
        })
        .collect();
    // A strip's two triangles share vertices 1 and 2 (and the second is wound 2, 1, 3).
    let prims = [Prim::Triangle([0, 1, 2]), Prim::Triangle([2, 1, 3])];
    let mut stats = DrawStats::default();
    let out = run_ngg(&prog, BASE, &s, &mem, &inv, &prims, &mut stats).unwrap();
    assert_eq!(stats.vs_waves, 1);
    assert_eq!(out.prims, prims);
    assert_eq!(out.verts[3].as_ref().unwrap().clip, expected_clip(3));
}
