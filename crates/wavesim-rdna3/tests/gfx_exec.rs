//! EXP, LDS_PARAM_LOAD and LDS_DIRECT_LOAD on hand-built waves, wave32 and wave64. Expected
//! values come from the rules cited in each test (RDNA3 ISA guide chapter 14 "Export: Position,
//! Color/MRT" and 14.1; 12.2.1 "LDS Parameter Loads"; 12.4 "LDS Direct Load"; RDNA3 ISA guide, ch. 3 "Wave state"
//! "Instruction skipping: EXEC==0"). Encodings from `llvm-mc-19 -mcpu=gfx1100 -show-encoding`.

use wavesim_rdna3::exec::ExecError;
use wavesim_rdna3::gfx::{GfxWave, Stage};
use wavesim_rdna3::testing::Harness;

const EXP_MRT0_ALL: [u32; 2] = [0xf800000f, 0x03020100]; // exp mrt0 v0, v1, v2, v3
const EXP_MRT1_V4_V6_DONE: [u32; 2] = [0xf8000815, 0x00060004]; // exp mrt1 v4, off, v6, off done
const EXP_POS0_DONE: [u32; 2] = [0xf80008cf, 0x03020100]; // exp pos0 v0, v1, v2, v3 done
const EXP_MRTZ: [u32; 2] = [0xf8000081, 0x00000000]; // exp mrtz v0, off, off, off
const EXP_NULL_DONE: [u32; 2] = [0xf8000800, 0x00000000]; // exp mrt0 off, off, off, off done
const EXP_DUAL0: [u32; 2] = [0xf800015f, 0x03020100]; // exp dual_src_blend0 v0, v1, v2, v3
const EXP_ROW_EN: [u32; 2] = [0xf800200f, 0x03020100]; // exp mrt0 v0, v1, v2, v3 row_en
const EXP_PRIM_DONE: [u32; 2] = [0xf8000941, 0x00000000]; // exp prim v0, off, off, off done
const PARAM_V5_ATTR2_Y: u32 = 0xce000905; // lds_param_load v5, attr2.y wait_vdst:0
const PARAM_V5_ATTR0_X_W3: u32 = 0xce030005; // lds_param_load v5, attr0.x wait_vdst:3
const PARAM_V255_ATTR1_W: u32 = 0xce0007ff; // lds_param_load v255, attr1.w
const DIRECT_V7: u32 = 0xce100007; // lds_direct_load v7
const PARAM_V1_ATTR32_Z: u32 = 0xce008201; // lds_param_load v1, attr32.z
const S_MOV_M0_LIT: u32 = 0xbefd00ff; // s_mov_b32 m0, <literal>

fn lanes(w64: bool) -> usize {
    if w64 {
        64
    } else {
        32
    }
}

fn gfx(stage: Stage, w64: bool) -> Harness {
    let mut h = Harness::new(w64);
    h.wave.gfx = Some(Box::new(GfxWave::new(stage)));
    for r in 0..8 {
        h.set_v(r, move |l| (r as u32) << 16 | l as u32);
    }
    h
}

fn exports(h: &Harness) -> &[wavesim_rdna3::gfx::ExportRecord] {
    &h.wave.gfx.as_ref().unwrap().exports
}

#[test]
fn export_copies_enabled_components_of_exec_lanes() {
    // ISA 14: "Exports use the EXEC mask and only output the enabled pixels"; EN[k] enables VSRCk.
    for w64 in [false, true] {
        let mut h = gfx(Stage::Ps, w64);
        let exec = 0x8000_0001_f0f0_00ffu64 & if w64 { u64::MAX } else { 0xffff_ffff };
        h.wave.set_exec(exec);
        let mut prog = EXP_MRT0_ALL.to_vec();
        prog.extend_from_slice(&EXP_MRT1_V4_V6_DONE);
        h.run(&prog).unwrap();
        let e = exports(&h);
        assert_eq!(e.len(), 2);
        assert_eq!(
            (e[0].target, e[0].en, e[0].done, e[0].exec),
            (0, 0xf, false, exec)
        );
        assert_eq!((e[1].target, e[1].en, e[1].done), (1, 0x5, true));
        for l in 0..lanes(w64) {
            let on = exec >> l & 1 != 0;
            for k in 0..4 {
                let want = if on { (k as u32) << 16 | l as u32 } else { 0 };
                assert_eq!(e[0].data[k][l], want, "mrt0 comp {k} lane {l}");
            }
            // mrt1: VSRC0 = v4 and VSRC2 = v6 enabled, VSRC1/3 off.
            assert_eq!(e[1].data[0][l], if on { 4 << 16 | l as u32 } else { 0 });
            assert_eq!(e[1].data[1][l], 0);
            assert_eq!(e[1].data[2][l], if on { 6 << 16 | l as u32 } else { 0 });
            assert_eq!(e[1].data[3][l], 0);
        }
        // Exports count in EXP_CNT.
        assert_eq!(h.wave.cnt.exp, 2);
    }
}

#[test]
fn exec_zero_skips_exports_unless_done_or_pos0() {
    // the RDNA3 ISA guide (Wave State): export requests are skipped when EXEC == 0 unless Done == 1 or the target is POS0.
    for w64 in [false, true] {
        let mut h = gfx(Stage::Ps, w64);
        h.wave.set_exec(0);
        let mut prog = EXP_MRT0_ALL.to_vec();
        prog.extend_from_slice(&EXP_MRTZ);
        prog.extend_from_slice(&EXP_NULL_DONE);
        h.run(&prog).unwrap();
        let e = exports(&h);
        assert_eq!(e.len(), 1, "only the done export is made");
        assert_eq!(
            (e[0].target, e[0].en, e[0].done, e[0].exec),
            (0, 0, true, 0)
        );
        assert_eq!(h.wave.cnt.exp, 1);

        let mut h = gfx(Stage::Gs, w64);
        h.wave.set_exec(0);
        h.run(&EXP_POS0_DONE).unwrap();
        assert_eq!(exports(&h).len(), 1, "POS0 is exported with EXEC == 0");
        assert_eq!(exports(&h)[0].exec, 0);
    }
}

#[test]
fn skip_export_ignores_every_export() {
    // ISA 14.1: "If STATUS.SKIP_EXPORT==1, the shader program ignores export instructions."
    let mut h = gfx(Stage::Ps, false);
    h.wave.gfx.as_mut().unwrap().skip_export = true;
    let mut prog = EXP_MRT0_ALL.to_vec();
    prog.extend_from_slice(&EXP_NULL_DONE);
    h.run(&prog).unwrap();
    assert!(exports(&h).is_empty());
    assert_eq!(h.wave.cnt.exp, 0);
}

#[test]
fn export_rules_are_errors() {
    // ISA 14: each target once; the done export is the last.
    let mut h = gfx(Stage::Ps, false);
    let mut prog = EXP_MRT0_ALL.to_vec();
    prog.extend_from_slice(&EXP_MRT0_ALL);
    assert!(matches!(h.run(&prog), Err(ExecError::Export { .. })));
    let mut h = gfx(Stage::Ps, false);
    let mut prog = EXP_NULL_DONE.to_vec();
    prog.extend_from_slice(&EXP_MRTZ);
    assert!(matches!(h.run(&prog), Err(ExecError::Export { .. })));
    // Stage/target mismatch: a pixel shader has no position export, a GS no MRT.
    let mut h = gfx(Stage::Ps, false);
    assert!(matches!(
        h.run(&EXP_POS0_DONE),
        Err(ExecError::Export { .. })
    ));
    let mut h = gfx(Stage::Gs, true);
    assert!(matches!(
        h.run(&EXP_MRT0_ALL),
        Err(ExecError::Export { .. })
    ));
    let mut h = gfx(Stage::Gs, true);
    h.run(&EXP_PRIM_DONE).unwrap();
    assert_eq!(exports(&h)[0].target, 20);
    // Mesh-shader rows are refused by name.
    let mut h = gfx(Stage::Ps, false);
    assert!(matches!(h.run(&EXP_ROW_EN), Err(ExecError::Export { .. })));
    // A compute wave has no export buffers.
    let mut h = Harness::new(false);
    assert!(matches!(
        h.run(&EXP_MRT0_ALL),
        Err(ExecError::NotGraphics { .. })
    ));
}

#[test]
fn dual_source_blend_swizzles_exec() {
    // ISA 14.1 table: target 21 exports exec = (exec & 0x5555..) | ((exec << 1) & 0xAAAA..).
    let mut h = gfx(Stage::Ps, false);
    h.wave.set_exec(0b0001_0110);
    h.run(&EXP_DUAL0).unwrap();
    // EXEC lanes 1, 2, 4: the even lanes 2 and 4 stay; the odd bits come from exec << 1 (lanes
    // 2, 3, 5), of which 3 and 5 are odd.
    assert_eq!(exports(&h)[0].exec, 0b0001_0100 | 0b0010_1000);
}

fn put(h: &mut Harness, dword: usize, v: u32) {
    h.lds[dword * 4..dword * 4 + 4].copy_from_slice(&v.to_le_bytes());
}

/// M0 for LDS_PARAM_LOAD: { 1'b0, new_prim_mask[15:1], lds_param_offset[15:0] } (ISA 12.2.1).
fn param_m0(new_prim_mask: u32, offset: u32) -> u32 {
    (new_prim_mask >> 1) << 16 | offset
}

#[test]
fn param_load_reads_p0_p10_p20_per_quad() {
    // ISA 12.2.1: LDS_ADDR = param_offset + attr * numPrims * 12 + prim * 12 + attr_offset
    // (dwords; attr_offset = vertex * 4 + channel), P0/P10/P20 in quad lanes 0/1/2, lane 3 = 0.
    for w64 in [false, true] {
        let mut h = gfx(Stage::Ps, w64);
        let quads = lanes(w64) / 4;
        // Quads 0,1 -> prim 0; quads 2.. -> prim 1; quad 5 onward -> prim 2 (mask bits 2 and 5).
        let mask = 0b10_0100;
        let num_prims = 3;
        let offset = 0x100; // bytes; bits [6:0] zero
        for d in 0..4096 {
            put(&mut h, d, 0xa000_0000 | d as u32);
        }
        h.set_v(5, |_| 0xdead);
        h.wave.set_exec(!0xf0u64); // quad 1 inactive
        h.run(&[S_MOV_M0_LIT, param_m0(mask, offset), PARAM_V5_ATTR2_Y])
            .unwrap();
        for q in 0..quads {
            let prim = match q {
                0 | 1 => 0,
                2..=4 => 1,
                _ => 2,
            };
            for ql in 0..4 {
                let l = 4 * q + ql;
                let want = if q == 1 {
                    0xdead
                } else if ql == 3 {
                    0
                } else {
                    0xa000_0000 | (offset / 4 + 2 * num_prims * 12 + prim * 12 + ql as u32 * 4 + 1)
                };
                assert_eq!(h.v(5, l), want, "w64 {w64} quad {q} lane {ql}");
            }
        }
        assert_eq!(h.wave.cnt.exp, 1);
    }
}

#[test]
fn param_load_writes_whole_quads() {
    // ISA 12.2.1: "if any pixel is enabled in the quad, data is written to all 4 pixels".
    let mut h = gfx(Stage::Ps, false);
    put(&mut h, 0, 11);
    put(&mut h, 4, 22);
    put(&mut h, 8, 33);
    h.set_v(5, |_| 7);
    h.wave.set_exec(0b0100_0000); // lane 6 only: quad 1
    h.run(&[S_MOV_M0_LIT, 0, PARAM_V5_ATTR0_X_W3]).unwrap();
    let got: Vec<u32> = (0..12).map(|l| h.v(5, l)).collect();
    assert_eq!(got, [7, 7, 7, 7, 11, 22, 33, 0, 7, 7, 7, 7]);
}

#[test]
fn param_and_direct_loads_skip_rules() {
    // ISA 12.2.1.2 / RDNA3 ISA guide, ch. 3 "Wave state": skipped when EXEC == 0 and EXPcnt == 0 (no count, no write).
    let mut h = gfx(Stage::Ps, false);
    h.wave.set_exec(0);
    h.set_v(5, |_| 9);
    h.run(&[S_MOV_M0_LIT, 0, PARAM_V5_ATTR0_X_W3, DIRECT_V7])
        .unwrap();
    assert_eq!(h.wave.cnt.exp, 0);
    assert_eq!(h.v(5, 0), 9);
    // With an export outstanding (EXPcnt != 0) they issue (and count) but write no lane.
    let mut h = gfx(Stage::Ps, false);
    h.set_v(5, |_| 9);
    let mut prog = EXP_MRTZ.to_vec();
    prog.extend_from_slice(&[0xbefe0080, S_MOV_M0_LIT, 0, PARAM_V5_ATTR0_X_W3]); // s_mov_b32 exec_lo, 0
    h.run(&prog).unwrap();
    assert_eq!(h.wave.cnt.exp, 2);
    assert_eq!(h.v(5, 0), 9);
    // Out-of-range destination: performed with EXEC forced to zero.
    let mut h = Harness::new(false);
    h.wave.num_vgprs = 64;
    h.run(&[S_MOV_M0_LIT, 0, PARAM_V255_ATTR1_W]).unwrap();
    assert_eq!(h.wave.cnt.exp, 1);
}

#[test]
fn param_load_field_errors() {
    let mut h = gfx(Stage::Ps, false);
    // lds_param_offset bits [6:0] must be zero.
    assert!(h.run(&[S_MOV_M0_LIT, 0x40, PARAM_V5_ATTR0_X_W3]).is_err());
    // ATTR 32 is the last attribute that exists: fine.
    h.run(&[S_MOV_M0_LIT, 0, PARAM_V1_ATTR32_Z]).unwrap();
}

#[test]
fn direct_load_broadcasts_typed_values() {
    // ISA 12.4: M0 = { 13'b0, DataType[2:0], LDS_address[15:0] }; one DWORD is read, the byte and
    // short types keep its low bits (zero/sign extended), and the value goes to every lane of
    // every active quad.
    for w64 in [false, true] {
        let mut h = gfx(Stage::Ps, w64);
        h.lds[0x200..0x204].copy_from_slice(&0x8081_f2f3u32.to_le_bytes());
        for (dtype, addr, want) in [
            (2u32, 0x200u32, 0x8081_f2f3u32),
            (0, 0x200, 0xf3),
            (4, 0x200, 0xffff_fff3),
            (1, 0x200, 0xf2f3),
            (5, 0x200, 0xffff_f2f3),
        ] {
            h.set_v(7, |_| 1);
            h.wave.set_exec(0x1);
            h.run(&[S_MOV_M0_LIT, dtype << 16 | addr, DIRECT_V7])
                .unwrap();
            for l in 0..lanes(w64) {
                assert_eq!(
                    h.v(7, l),
                    if l < 4 { want } else { 1 },
                    "type {dtype} lane {l}"
                );
            }
        }
        // Data types 3, 6 and 7 are not defined; the address must be DWORD aligned.
        for t in [3, 6, 7] {
            assert!(h.run(&[S_MOV_M0_LIT, t << 16, DIRECT_V7]).is_err());
        }
        assert!(h.run(&[S_MOV_M0_LIT, 0x202, DIRECT_V7]).is_err());
        // Outside the LDS: zero.
        h.lds.truncate(1024);
        h.run(&[S_MOV_M0_LIT, 2 << 16 | 0x8000, DIRECT_V7]).unwrap();
        assert_eq!(h.v(7, 0), 0);
    }
}
