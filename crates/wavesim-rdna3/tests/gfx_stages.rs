//! VS, GS and HS waves (RDNA3 ISA guide, ch. 3 "Wave state": GS and HS waves always initialise their first 8 SGPRs, user
//! SGPRs follow; empty waves end at once; FLAT_SCRATCH), graphics messages, and the corpus'
//! vs_pos / gs_pos_prim shaders checked against models of their IR.

use std::path::PathBuf;
use wavesim_core::memory::DeviceMemory;
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::gfx::pal::{allocated_vgprs, PalObject};
use wavesim_rdna3::gfx::stages::{run_stage_wave, StageWaveSetup};
use wavesim_rdna3::gfx::{Message, Stage};

fn object(w64: bool, name: &str) -> PalObject {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/gfx/obj")
        .join(if w64 { "w64" } else { "w32" })
        .join(format!("{name}.o"));
    PalObject::parse(&std::fs::read(p).unwrap()).unwrap()
}

fn setup(stage: Stage, w64: bool, num_vgprs: u16) -> StageWaveSetup {
    StageWaveSetup {
        stage,
        wave64: w64,
        num_vgprs,
        system_sgprs: vec![],
        user_sgprs: vec![],
        vgprs: vec![],
        exec: if w64 { u64::MAX } else { 0xffff_ffff },
        mode: 0,
        scratch_addr: 0,
        scratch_lane_bytes: 0,
        lds_bytes: 0,
    }
}

fn lanes(w64: bool) -> usize {
    if w64 {
        64
    } else {
        32
    }
}

#[test]
fn vs_pos_corpus_shader() {
    // vs_pos.ll: POS0 = (float(vid) * scale, scale, 0, 1), scale = the user SGPR s0, vid = v0.
    for w64 in [false, true] {
        let obj = object(w64, "vs_pos");
        let (st, entry) = obj.stage("vs").unwrap();
        let mut s = setup(Stage::Vs, w64, allocated_vgprs(st.vgpr_count, w64));
        s.user_sgprs = vec![2.5f32.to_bits()];
        s.vgprs = vec![(0..64).map(|l| 100 + l as u32).collect()];
        s.exec &= 0x0000_00f0_ffff_0f0f;
        let w = run_stage_wave(&obj.program, entry, &s, &DeviceMemory::default(), 10_000).unwrap();
        let g = w.gfx.as_deref().unwrap();
        assert_eq!(g.exports.len(), 1);
        let e = &g.exports[0];
        assert_eq!((e.target, e.en, e.done, e.exec), (12, 0xf, true, s.exec));
        for l in 0..lanes(w64) {
            if s.exec >> l & 1 == 0 {
                continue;
            }
            let x = (100 + l) as u32 as f32 * 2.5;
            assert_eq!(
                [e.data[0][l], e.data[1][l], e.data[2][l], e.data[3][l]],
                [x.to_bits(), 2.5f32.to_bits(), 0, 1f32.to_bits()],
                "lane {l}"
            );
        }
    }
}

#[test]
fn gs_pos_prim_corpus_shader() {
    // gs_pos_prim.ll: POS0 = (float(v0), float(v0), 0, 1) done, then PRIM = v1 done; its two
    // inreg arguments are the system SGPRs s0, s1 (unused).
    for w64 in [false, true] {
        let obj = object(w64, "gs_pos_prim");
        let (st, entry) = obj.stage("gs").unwrap();
        let mut s = setup(Stage::Gs, w64, allocated_vgprs(st.vgpr_count, w64));
        s.vgprs = vec![
            (0..64).map(|l| l as u32 * 3).collect(),
            (0..64).map(|l| 0x8000_0000 | l as u32).collect(),
        ];
        let w = run_stage_wave(&obj.program, entry, &s, &DeviceMemory::default(), 10_000).unwrap();
        let g = w.gfx.as_deref().unwrap();
        assert_eq!(g.exports.len(), 2);
        assert_eq!((g.exports[0].target, g.exports[0].done), (12, true));
        assert_eq!(
            (g.exports[1].target, g.exports[1].en, g.exports[1].done),
            (20, 1, true)
        );
        for l in 0..lanes(w64) {
            let x = (l as u32 * 3) as f32;
            assert_eq!(g.exports[0].data[0][l], x.to_bits());
            assert_eq!(g.exports[0].data[1][l], x.to_bits());
            assert_eq!(g.exports[1].data[0][l], 0x8000_0000 | l as u32);
        }
    }
}

/// s_mov_b32 s20, s0 ... copies of the first SGPRs, then s_endpgm: `words` for s_mov_b32 sD, sS.
fn s_mov(d: u32, s: u32) -> u32 {
    0xbe80_0000 | d << 16 | s // SOP1 s_mov_b32 (op 0)
}

#[test]
fn gs_and_hs_waves_initialise_eight_system_sgprs_then_user_sgprs() {
    // the RDNA3 ISA guide (Wave State): "the first 8 SGPRs are initialised automatically - no value is skipped (unused
    // values are written as zero)"; the user SGPRs come after them.
    for stage in [Stage::Gs, Stage::Hs] {
        let mut s = setup(stage, false, 16);
        s.system_sgprs = vec![11, 12, 13]; // s3-s7 are written as zero
        s.user_sgprs = vec![0xaa, 0xbb];
        let w = s.build_wave().unwrap();
        assert_eq!(&w.sgpr[..10], &[11, 12, 13, 0, 0, 0, 0, 0, 0xaa, 0xbb]);
        // A VS wave's user SGPRs start at s0.
        let mut v = setup(Stage::Vs, false, 16);
        v.user_sgprs = vec![0xaa, 0xbb];
        assert_eq!(&v.build_wave().unwrap().sgpr[..2], &[0xaa, 0xbb]);
    }
    // And it runs: copy s8 to s20 through the program.
    let mut s = setup(Stage::Hs, true, 8);
    s.user_sgprs = vec![0x1234];
    let words = [s_mov(20, 8), 0xbfb0_0000];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let prog = Program::new(&bytes, 0).unwrap();
    let w = run_stage_wave(&prog, 0, &s, &DeviceMemory::default(), 100).unwrap();
    assert_eq!(w.sgpr[20], 0x1234);
}

#[test]
fn empty_waves_end_at_once() {
    // the RDNA3 ISA guide (Wave State): a wave launched with EXEC == 0 exits as soon as it starts.
    let mut s = setup(Stage::Gs, false, 8);
    s.exec = 0;
    let words = [0xbf9f_0000u32]; // s_code_end: running it would be an error
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let prog = Program::new(&bytes, 0).unwrap();
    let w = run_stage_wave(&prog, 0, &s, &DeviceMemory::default(), 100).unwrap();
    assert_eq!(w.wave_insts, 0);
    assert!(w.gfx.as_deref().unwrap().exports.is_empty());
}

#[test]
fn flat_scratch_is_the_waves_scratch_base_or_zero() {
    // the RDNA3 ISA guide (Wave State) "FLAT_SCRATCH initialisation": waves with scratch get its address, others zero.
    let mut s = setup(Stage::Vs, false, 8);
    assert_eq!(s.build_wave().unwrap().hw.flat_scratch_lo, 0);
    s.scratch_addr = 0x1234_5678_9a00;
    s.scratch_lane_bytes = 16;
    let w = s.build_wave().unwrap();
    assert_eq!(
        (w.hw.flat_scratch_lo, w.hw.flat_scratch_hi),
        (0x5678_9a00, 0x1234)
    );
}

#[test]
fn graphics_messages_are_recorded_for_their_stage() {
    // s_sendmsg sendmsg(MSG_GS_ALLOC_REQ) with M0 = 3 vertices | 1 primitive << 12.
    let words: [u32; 4] = [0xbefd_00ff, 3 | 1 << 12, 0xbfb6_0009, 0xbfb0_0000];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let prog = Program::new(&bytes, 0).unwrap();
    let s = setup(Stage::Gs, false, 8);
    let w = run_stage_wave(&prog, 0, &s, &DeviceMemory::default(), 100).unwrap();
    assert_eq!(
        w.gfx.as_deref().unwrap().messages,
        [Message {
            id: 9,
            m0: 3 | 1 << 12
        }]
    );
    // The same message from an HS wave is an error.
    let s = setup(Stage::Hs, false, 8);
    assert!(run_stage_wave(&prog, 0, &s, &DeviceMemory::default(), 100).is_err());
}

#[test]
fn vs_instance_corpus_shader() {
    // vs_instance.ll: POS0 = (float(vid), float(iid), s0, 1) with vid = v0, iid = v1.
    for w64 in [false, true] {
        let obj = object(w64, "vs_instance");
        let (st, entry) = obj.stage("vs").unwrap();
        let mut s = setup(Stage::Vs, w64, allocated_vgprs(st.vgpr_count, w64));
        s.user_sgprs = vec![0.75f32.to_bits()];
        s.vgprs = vec![(0..64).map(|l| l as u32).collect(), vec![5; 64]];
        let w = run_stage_wave(&obj.program, entry, &s, &DeviceMemory::default(), 10_000).unwrap();
        let e = &w.gfx.as_deref().unwrap().exports[0];
        for l in 0..lanes(w64) {
            assert_eq!(
                [e.data[0][l], e.data[1][l], e.data[2][l], e.data[3][l]],
                [
                    (l as f32).to_bits(),
                    5f32.to_bits(),
                    0.75f32.to_bits(),
                    1f32.to_bits()
                ]
            );
        }
    }
}

#[test]
fn gs_alloc_req_corpus_shader() {
    // gs_alloc_req.ll: GS_ALLOC_REQ with M0 = s2 | s3 << 12 (system SGPRs), then POS0.
    for w64 in [false, true] {
        let obj = object(w64, "gs_alloc_req");
        let (st, entry) = obj.stage("gs").unwrap();
        let mut s = setup(Stage::Gs, w64, allocated_vgprs(st.vgpr_count, w64));
        s.system_sgprs = vec![0, 0, 3, 1];
        s.vgprs = vec![(0..64).map(|l| 2 * l as u32).collect()];
        let w = run_stage_wave(&obj.program, entry, &s, &DeviceMemory::default(), 10_000).unwrap();
        let g = w.gfx.as_deref().unwrap();
        assert_eq!(
            g.messages,
            [Message {
                id: 9,
                m0: 3 | 1 << 12
            }]
        );
        assert_eq!(g.exports[0].data[0][5], 10f32.to_bits());
    }
}

#[test]
fn hs_store_corpus_shader() {
    // hs_store.ll: the user SGPRs follow the 8 system SGPRs: s8 = u, s[9:10] = buffer; each
    // lane stores v0 + u at buffer + 4 * v0.
    for w64 in [false, true] {
        let obj = object(w64, "hs_store");
        let (st, entry) = obj.stage("hs").unwrap();
        let mut mem = DeviceMemory::new();
        let buf = mem.alloc(256, 256).unwrap();
        mem.write(buf, &[0u8; 256]).unwrap();
        let mut s = setup(Stage::Hs, w64, allocated_vgprs(st.vgpr_count, w64));
        s.system_sgprs = vec![0xdead; 8];
        s.user_sgprs = vec![1000, buf as u32, (buf >> 32) as u32];
        s.vgprs = vec![(0..64).map(|l| l as u32).collect()];
        run_stage_wave(&obj.program, entry, &s, &mem, 10_000).unwrap();
        for l in 0..lanes(w64) {
            let mut b = [0u8; 4];
            mem.read(buf + 4 * l as u64, &mut b).unwrap();
            assert_eq!(u32::from_le_bytes(b), 1000 + l as u32);
        }
    }
}
