//! Code objects and dispatch: descriptor/metadata parsing against llvm-readelf's notes for every
//! corpus code object, malformed inputs, the initial wave state (RDNA3 ISA guide, Wave State "Initial wave state"),
//! workgroups, barriers (RDNA3 ISA guide, Shader Concepts), the watchdog, deadlock detection and parallel determinism.
//!
//! Instruction words come from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding`; the
//! assembly is in the comment next to each word.

use std::path::PathBuf;
use wavesim_core::memory::DeviceMemory;
use wavesim_rdna3::codeobj::{kcp, CodeObject, CodeObjectError, ValueKind};
use wavesim_rdna3::dispatch::ExecConfig;
use wavesim_rdna3::dispatch::{self, init_wave, DispatchError, DispatchStats, Geometry, Launch};
use wavesim_rdna3::exec::{ExecError, Program};
use wavesim_rdna3::hsa::kernarg::{write_hidden_args, HiddenValues};
use wavesim_rdna3::wave::Wave;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

fn corpus_objects() -> Vec<PathBuf> {
    let mut v = Vec::new();
    for dir in ["gfx1100-w32", "gfx1100-w64"] {
        for e in std::fs::read_dir(corpus().join(dir)).unwrap() {
            let p = e.unwrap().path();
            if p.extension().is_some_and(|x| x == "hsaco") {
                v.push(p);
            }
        }
    }
    v.sort();
    v
}

/// The metadata of one kernel as llvm-readelf prints it (YAML), reduced to what we compare.
#[derive(Default, Debug)]
struct NoteKernel {
    name: String,
    args: Vec<(u32, u32, String)>,
    kernarg_segment_size: u32,
    group: u32,
    private: u32,
    wavefront: u32,
    sgpr: u32,
    vgpr: u32,
}

fn parse_notes(text: &str) -> Vec<NoteKernel> {
    let mut ks: Vec<NoteKernel> = Vec::new();
    let mut cur = NoteKernel::default();
    let mut in_args = false;
    let val = |l: &str| {
        l.split_once(':')
            .unwrap()
            .1
            .trim()
            .trim_matches('\'')
            .to_string()
    };
    for line in text.lines() {
        let t = line.trim_start();
        let indent = line.len() - t.len();
        if t.starts_with("- .args:") {
            if !cur.name.is_empty() {
                ks.push(std::mem::take(&mut cur));
            }
            in_args = true;
            continue;
        }
        if in_args && indent >= 6 {
            // Inside .args: each "- ." starts an argument.
            if let Some(rest) = t.strip_prefix("- ") {
                cur.args.push((0, 0, String::new()));
                parse_arg_field(rest, cur.args.last_mut().unwrap(), &val);
            } else if let Some(a) = cur.args.last_mut() {
                parse_arg_field(t, a, &val);
            }
            continue;
        }
        in_args = false;
        let num = |l: &str| val(l).parse::<u32>().unwrap();
        match t.split(':').next().unwrap() {
            ".name" if indent == 4 => cur.name = val(t),
            ".kernarg_segment_size" => cur.kernarg_segment_size = num(t),
            ".group_segment_fixed_size" => cur.group = num(t),
            ".private_segment_fixed_size" => cur.private = num(t),
            ".wavefront_size" => cur.wavefront = num(t),
            ".sgpr_count" => cur.sgpr = num(t),
            ".vgpr_count" => cur.vgpr = num(t),
            _ => {}
        }
    }
    if !cur.name.is_empty() {
        ks.push(cur);
    }
    ks
}

fn parse_arg_field(t: &str, a: &mut (u32, u32, String), val: &dyn Fn(&str) -> String) {
    match t.split(':').next().unwrap() {
        ".offset" => a.0 = val(t).parse().unwrap(),
        ".size" => a.1 = val(t).parse().unwrap(),
        ".value_kind" => a.2 = val(t),
        _ => {}
    }
}

#[test]
fn corpus_metadata_matches_llvm_readelf() {
    let objs = corpus_objects();
    assert!(objs.len() >= 50, "corpus missing? found {}", objs.len());
    let mut kernels = 0;
    for p in objs {
        let co = CodeObject::parse(&std::fs::read(&p).unwrap())
            .unwrap_or_else(|e| panic!("{}: {e}", p.display()));
        assert_eq!(co.version, 5, "{}", p.display());
        assert_eq!(co.target, "gfx1100");
        let notes = parse_notes(&std::fs::read_to_string(p.with_extension("notes")).unwrap());
        assert_eq!(notes.len(), co.kernels.len(), "{}", p.display());
        let wave64 = p.to_string_lossy().contains("w64");
        for n in &notes {
            let k = co
                .kernel(&n.name)
                .unwrap_or_else(|| panic!("{}: {}", p.display(), n.name));
            let m = &k.meta;
            let ctx = format!("{} {}", p.display(), n.name);
            assert_eq!(m.kernarg_segment_size, n.kernarg_segment_size, "{ctx}");
            assert_eq!(m.group_segment_fixed_size, n.group, "{ctx}");
            assert_eq!(m.private_segment_fixed_size, n.private, "{ctx}");
            assert_eq!(m.wavefront_size, n.wavefront, "{ctx}");
            assert_eq!(m.sgpr_count, n.sgpr, "{ctx}");
            assert_eq!(m.vgpr_count, n.vgpr, "{ctx}");
            let args: Vec<(u32, u32, String)> = m
                .args
                .iter()
                .map(|a| (a.offset, a.size, a.kind.as_str().to_string()))
                .collect();
            assert_eq!(args, n.args, "{ctx}");
            assert!(
                m.args
                    .iter()
                    .all(|a| !matches!(a.kind, ValueKind::Unknown(_))),
                "{ctx}"
            );
            // The descriptor agrees with the metadata (kernel_code_properties bit 10 = wave32).
            let d = &k.descriptor;
            assert_eq!(d.wave32(), !wave64, "{ctx}");
            assert_eq!(k.wave_size(), n.wavefront, "{ctx}");
            assert_eq!(d.group_segment_fixed_size, n.group, "{ctx}");
            assert_eq!(d.private_segment_fixed_size, n.private, "{ctx}");
            assert_eq!(d.kernarg_size, n.kernarg_segment_size, "{ctx}");
            assert!(
                d.vgpr_count() >= n.vgpr,
                "{ctx}: {} < {}",
                d.vgpr_count(),
                n.vgpr
            );
            // Entry = descriptor address + kernel_code_entry_byte_offset, inside .text.
            assert_eq!(
                k.entry,
                k.kd_addr
                    .wrapping_add(d.kernel_code_entry_byte_offset as u64)
            );
            assert!(k.entry >= co.text_addr && k.entry < co.text_addr + co.text_size);
            // clang-19 gfx11: kernarg pointer in s[0:1] is the only user SGPR pair loaded.
            assert!(d.kernel_code_properties & kcp::ENABLE_SGPR_KERNARG_SEGMENT_PTR != 0);
            kernels += 1;
        }
    }
    assert!(kernels >= 100, "{kernels}");
}

#[test]
fn saxpy_descriptor_fields() {
    let co = CodeObject::parse(&std::fs::read(corpus().join("gfx1100-w32/saxpy.hsaco")).unwrap())
        .unwrap();
    let k = co.kernel("saxpy").unwrap();
    let d = &k.descriptor;
    // From the .rodata bytes of saxpy.kd: rsrc1 0x60af0080, rsrc2 0x9e, properties 0x408.
    assert_eq!(d.compute_pgm_rsrc1, 0x60af_0080);
    assert_eq!(d.compute_pgm_rsrc2, 0x9e);
    assert_eq!(d.kernel_code_properties, 0x408);
    // rsrc2 0x9e: USER_SGPR_COUNT = (0x9e >> 1) & 0x1f = 15, workgroup id X enabled (bit 7).
    assert_eq!(d.user_sgpr_count(), 15);
    assert_eq!(d.vgpr_workitem_id(), 0);
    assert!(!d.private_segment_enabled());
    // rsrc1: denorm modes 3/3 -> MODE[7:4] = 0xf, DX10 clamp (bit 21) -> MODE[8], IEEE (bit 23)
    // -> MODE[9]; round modes 0.
    assert_eq!(d.initial_mode(), 0x3f0);
    assert!(d.wgp_mode());
    // GRANULATED_WORKITEM_VGPR_COUNT 0 -> (0 + 1) * 8 VGPRs in wave32.
    assert_eq!(d.vgpr_count(), 8);
    assert_eq!(k.entry, 0x1f00);
    assert_eq!(k.kd_addr, 0xd80);
    let explicit: Vec<_> = k.explicit_args().map(|a| a.kind.clone()).collect();
    assert_eq!(
        explicit,
        [
            ValueKind::ByValue,
            ValueKind::ByValue,
            ValueKind::GlobalBuffer,
            ValueKind::GlobalBuffer
        ]
    );
    assert_eq!(
        k.signature(),
        "saxpy(uint, float, global float*, global float*)"
    );
}

#[test]
fn malformed_code_objects_are_errors() {
    let good = std::fs::read(corpus().join("gfx1100-w32/saxpy.hsaco")).unwrap();
    assert!(matches!(
        CodeObject::parse(b""),
        Err(CodeObjectError::Malformed(_))
    ));
    assert!(matches!(
        CodeObject::parse(b"hello world, not an ELF"),
        Err(CodeObjectError::Malformed(_))
    ));
    // Every truncation is an error, never a panic.
    for cut in (0..good.len()).step_by(97) {
        assert!(CodeObject::parse(&good[..cut]).is_err(), "cut at {cut}");
    }
    // EI_ABIVERSION (byte 8): 1 = code object v3, not supported.
    let mut v3 = good.clone();
    v3[8] = 1;
    assert_eq!(
        CodeObject::parse(&v3).unwrap_err(),
        CodeObjectError::UnsupportedVersion { abi_version: 1 }
    );
    // e_flags (offset 48) mach 0x3f = gfx90a.
    let mut gfx90a = good.clone();
    gfx90a[48] = 0x3f;
    assert!(matches!(
        CodeObject::parse(&gfx90a),
        Err(CodeObjectError::UnsupportedTarget(_))
    ));
    // OS/ABI (byte 7) not AMDGPU_HSA.
    let mut osabi = good.clone();
    osabi[7] = 0;
    assert!(matches!(
        CodeObject::parse(&osabi),
        Err(CodeObjectError::NotAmdgpu(_))
    ));
    // Random corruption never panics.
    let mut x = 0x1234_5678_9abc_def0u64;
    for _ in 0..300 {
        let mut b = good.clone();
        for _ in 0..8 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let i = (x as usize) % b.len();
            b[i] = (x >> 32) as u8;
        }
        let _ = CodeObject::parse(&b);
    }
}

#[test]
fn hidden_arguments_follow_code_object_v5() {
    let co = CodeObject::parse(&std::fs::read(corpus().join("gfx1100-w32/saxpy.hsaco")).unwrap())
        .unwrap();
    let k = co.kernel("saxpy").unwrap();
    let mut geo = Geometry::new(&[1000], &[256]).unwrap();
    geo.offset = [7, 0, 0];
    let mut ka = vec![0xaau8; k.meta.kernarg_segment_size as usize];
    write_hidden_args(&mut ka, &k.meta.args, &geo, &HiddenValues::default());
    let u32_at = |o: usize| u32::from_le_bytes(ka[o..o + 4].try_into().unwrap());
    let u16_at = |o: usize| u16::from_le_bytes(ka[o..o + 2].try_into().unwrap());
    let u64_at = |o: usize| u64::from_le_bytes(ka[o..o + 8].try_into().unwrap());
    // 1000 = 3 full groups of 256 + 232: block count counts full groups, remainder the rest.
    assert_eq!((u32_at(24), u32_at(28), u32_at(32)), (3, 1, 1));
    assert_eq!((u16_at(36), u16_at(38), u16_at(40)), (256, 1, 1));
    assert_eq!((u16_at(42), u16_at(44), u16_at(46)), (232, 0, 0));
    assert_eq!((u64_at(64), u64_at(72), u64_at(80)), (7, 0, 0));
    assert_eq!(u16_at(88), 1);
    // Explicit argument bytes are untouched.
    assert_eq!(&ka[0..24], &[0xaa; 24]);
}

// ---------------------------------------------------------------------------------------------
// Initial wave state

fn words_to_bytes(w: &[u32]) -> Vec<u8> {
    w.iter().flat_map(|x| x.to_le_bytes()).collect()
}

const S_ENDPGM: u32 = 0xbfb0_0000;
const CODE_BASE: u64 = 0x4000;

fn launch<'a>(prog: &'a Program, wave64: bool, grid: &[u32], local: &[u32]) -> Launch<'a> {
    Launch {
        kernel_name: "test".into(),
        prog,
        entry: CODE_BASE,
        pc_display_base: CODE_BASE,
        wave64,
        num_vgprs: 16,
        mode: 0x3f0,
        code_properties: kcp::ENABLE_SGPR_KERNARG_SEGMENT_PTR
            | if wave64 {
                0
            } else {
                kcp::ENABLE_WAVEFRONT_SIZE32
            },
        // USER_SGPR_COUNT = 2, workgroup id X.
        rsrc2: 2 << 1 | 1 << 7,
        packed_tid: true,
        geo: Geometry::new(grid, local).unwrap(),
        lds_bytes: 0,
        wgp_mode: true,
        scratch_lane_bytes: 0,
        scratch_addr: 0,
        kernarg_addr: 0,
        dispatch_ptr: 0,
        queue_ptr: 0,
        dispatch_id: 0,
        threads: 1,
        max_wave_insts: 1_000_000,
        cfg: ExecConfig::default(),
        trap: None,
        host: None,
    }
}

fn endpgm_prog() -> Program {
    Program::new(&words_to_bytes(&[S_ENDPGM]), CODE_BASE).unwrap()
}

#[test]
fn user_and_system_sgprs_are_packed_in_order() {
    let prog = endpgm_prog();
    let mut l = launch(&prog, false, &[64, 4, 4], &[32, 2, 2]);
    l.code_properties = kcp::ENABLE_SGPR_DISPATCH_PTR
        | kcp::ENABLE_SGPR_QUEUE_PTR
        | kcp::ENABLE_SGPR_KERNARG_SEGMENT_PTR
        | kcp::ENABLE_SGPR_DISPATCH_ID
        | kcp::ENABLE_SGPR_PRIVATE_SEGMENT_SIZE
        | kcp::ENABLE_WAVEFRONT_SIZE32;
    l.dispatch_ptr = 0x1111_2222_3333;
    l.queue_ptr = 0x4444_5555_6666;
    l.kernarg_addr = 0x7777_8888_9999;
    l.dispatch_id = 0xabcd_0000_0001;
    l.scratch_lane_bytes = 48;
    l.scratch_addr = 0x10_0000;
    // USER_SGPR_COUNT 10 (> the 9 loaded), ids X, Y, Z, workgroup info, private segment offset.
    l.rsrc2 = 1 | 10 << 1 | 1 << 7 | 1 << 8 | 1 << 9 | 1 << 10 | 2 << 11;
    let mut w = Wave::new(false, 16);
    // Workgroup (1,1,1) has 32*2*2 = 128 work-items = 4 waves; look at wave 2.
    init_wave(&mut w, &l, [1, 1, 1], 2, 4, 0);
    let s = &w.sgpr;
    assert_eq!((s[0], s[1]), (0x2222_3333, 0x1111));
    assert_eq!((s[2], s[3]), (0x5555_6666, 0x4444));
    assert_eq!((s[4], s[5]), (0x8888_9999, 0x7777));
    assert_eq!((s[6], s[7]), (0x0000_0001, 0xabcd));
    assert_eq!(s[8], 48);
    assert_eq!(s[9], 0, "user SGPR beyond the enabled ones");
    // System SGPRs start at USER_SGPR_COUNT = 10.
    assert_eq!((s[10], s[11], s[12]), (1, 1, 1));
    // Workgroup info: threadgroup_size_in_waves = 4, first_wave = 0 for wave 2.
    assert_eq!(s[13], 4);
    // Private segment wave offset: wave 2 of slot 0; wave scratch = 32 lanes * 48 B = 1536 B.
    assert_eq!(s[14], 2 * 1536);
    assert_eq!(w.scratch_base, 0x10_0000 + 2 * 1536);
    assert_eq!(w.scratch_lane_bytes, 48);
    assert_eq!(
        (w.hw.flat_scratch_lo as u64) | (w.hw.flat_scratch_hi as u64) << 32,
        w.scratch_base
    );
    assert_eq!(w.pc, CODE_BASE);
    assert_eq!(w.hw.mode, 0x3f0);
    // Wave 0 sets first_wave.
    init_wave(&mut w, &l, [1, 1, 1], 0, 4, 0);
    assert_eq!(w.sgpr[13], 1 << 31 | 4);
}

/// HW_ID1 follows the placement model (dispatch::hw_id1): SIMD_ID [9:8] = wave % 4 in WGP mode,
/// wave % 2 in CU mode; WAVE_ID [4:0] = the slot on that SIMD; WGP/SA/SE ids 0.
#[test]
fn wave_starts_from_the_dispatch_template_are_init_wave_exactly() {
    // A dispatch builds what every wave starts with once (`WaveTemplate`, launches without
    // scratch) and each wave start copies it and adds its own part; with scratch each wave
    // starts the long way. Either way a wave reusing the storage of an earlier one (every
    // register dirtied here) must be exactly what `init_wave` makes of a fresh wave: all user
    // and system SGPR enables, the trap handler on and off, 1-D and 3-D workgroups with
    // partial ones at the grid's edge, wave32 and wave64, the first and later waves.
    use wavesim_core::engine::{Backend, WaveSlot};
    use wavesim_rdna3::rsrc::rsrc2;
    let prog = endpgm_prog();
    let trap = handler_prog();
    let all_user = kcp::ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER
        | kcp::ENABLE_SGPR_DISPATCH_PTR
        | kcp::ENABLE_SGPR_QUEUE_PTR
        | kcp::ENABLE_SGPR_KERNARG_SEGMENT_PTR
        | kcp::ENABLE_SGPR_DISPATCH_ID
        | kcp::ENABLE_SGPR_FLAT_SCRATCH_INIT
        | kcp::ENABLE_SGPR_PRIVATE_SEGMENT_SIZE;
    let all_system = rsrc2::ENABLE_PRIVATE_SEGMENT
        | rsrc2::ENABLE_SGPR_WORKGROUP_ID_X
        | rsrc2::ENABLE_SGPR_WORKGROUP_ID_Y
        | rsrc2::ENABLE_SGPR_WORKGROUP_ID_Z
        | rsrc2::ENABLE_SGPR_WORKGROUP_INFO
        | 2 << rsrc2::ENABLE_VGPR_WORKITEM_ID_SHIFT;
    let shapes: [(&[u32], &[u32]); 3] = [
        (&[200], &[96]),
        (&[64, 4, 4], &[32, 2, 2]),
        (&[70, 3], &[16, 2]),
    ];
    for wave64 in [false, true] {
        for (grid, local) in shapes {
            for (user, system, user_count) in [
                (
                    kcp::ENABLE_SGPR_KERNARG_SEGMENT_PTR,
                    rsrc2::ENABLE_SGPR_WORKGROUP_ID_X,
                    2,
                ),
                (all_user, all_system, 15),
            ] {
                for (with_trap, scratch) in [(false, 0), (true, 0), (false, 16), (true, 48)] {
                    let mut l = launch(&prog, wave64, grid, local);
                    l.code_properties = user
                        | if wave64 {
                            0
                        } else {
                            kcp::ENABLE_WAVEFRONT_SIZE32
                        };
                    l.rsrc2 = system | user_count << rsrc2::USER_SGPR_COUNT_SHIFT;
                    l.packed_tid = !with_trap;
                    l.kernarg_addr = 0x1234_5678_9abc;
                    l.dispatch_ptr = 0x2000_0040;
                    l.queue_ptr = 0x3000_0080;
                    l.dispatch_id = 0x4_0000_0007;
                    l.scratch_lane_bytes = scratch;
                    l.scratch_addr = if scratch != 0 { 0x5000_0000 } else { 0 };
                    l.threads = 2;
                    if with_trap {
                        set_trap(&mut l, &trap, TBA, 0x7000_0000);
                    }
                    let d = dispatch::Rdna3Dispatch::new(&l);
                    let mut w = d.new_wave();
                    let lanes = if wave64 { 64 } else { 32 };
                    let groups: Vec<[u32; 3]> = (0..3)
                        .map(|i| {
                            [0, 1, 2].map(|k| (l.geo.grid[k].div_ceil(l.geo.local[k]) - 1).min(i))
                        })
                        .collect();
                    for (worker, &wg) in groups.iter().enumerate() {
                        let items = l.geo.items_in(wg);
                        let count = (items[0] * items[1] * items[2]).div_ceil(lanes);
                        for index in 0..count {
                            // Dirty every register the start must set.
                            w.sgpr = [0xdead_beef; 128];
                            w.scc = true;
                            w.hw.mode ^= 0x55;
                            w.hw.status = u32::MAX;
                            w.hw.hw_id1 = 0x77;
                            w.hw.trapsts = 9;
                            w.hw.flat_scratch_lo = 3;
                            w.tba = 0x100;
                            w.tma = 0x200;
                            w.scratch_base = 0x300;
                            w.scratch_lane_bytes = 4;
                            w.wave_insts = 11;
                            w.lane_insts = 12;
                            w.ended = true;
                            w.cnt.lgkm = 7;
                            w.pc = 4;
                            w.vgpr[..64].fill(0xfeed_f00d);
                            let at = WaveSlot {
                                workgroup: wg,
                                index,
                                count,
                                worker: worker as u64,
                            };
                            d.start_wave(&mut w, at);
                            let mut want = Wave::new(wave64, l.num_vgprs);
                            init_wave(&mut want, &l, wg, index, count, worker as u64);
                            assert_eq!(
                                format!("{w:?}"),
                                format!("{want:?}"),
                                "wave64 {wave64}, grid {grid:?}, workgroup {wg:?}, wave {index}, \
                                 trap {with_trap}, scratch {scratch}"
                            );
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn a_wave_started_again_gets_back_every_scalar_register_its_code_can_write() {
    // A worker's waves are started again for each workgroup; a wave this dispatch started
    // before (`Backend::first_turns`'s `reused`) gets back from the template only the groups of
    // SGPRs its code can write (`sgpr_groups_written`). The program reads what it then writes:
    // s_add_u32 s8, s8, 1; v_cndmask_b32_e64 v3, 1, 2, vcc (initial VCC); v_cmp_eq_u32_e32
    // vcc, 0, v0 (VCC written with no operand naming it); s_add_u32 s21, m0, 7; s_mov_b32 m0,
    // 5; s_add_u32 s14, s14, 3; s_endpgm. Run again on its own final state it must end
    // exactly as on a fresh wave (s8 = 1, s14 = 3, s21 = 7 and v3 = 1 from the zeros of
    // "Initial wave state"), wave32 and wave64, for the first and a later wave of a workgroup.
    use wavesim_core::engine::{Backend, WaveSlot};
    use wavesim_rdna3::trace::NoObserver;
    let words = [
        0x8008_8108,
        0xd501_0003,
        0x01a9_0481,
        0x7c94_0080,
        0x8015_877d,
        0xbefd_0085,
        0x800e_830e,
        S_ENDPGM,
    ];
    let prog = Program::new(&words_to_bytes(&words), CODE_BASE).unwrap();
    let mem = DeviceMemory::new();
    for (wave64, engine) in [false, true].into_iter().flat_map(|w| {
        [
            wavesim_rdna3::jit::Engine::Interp,
            wavesim_rdna3::jit::Engine::Jit,
        ]
        .map(|e| (w, e))
    }) {
        let mut l = launch(&prog, wave64, &[256], &[128]);
        l.cfg.engine = engine;
        let d = dispatch::Rdna3Dispatch::new(&l);
        let count = if wave64 { 2 } else { 4 };
        for index in [0, 1] {
            let at = WaveSlot {
                workgroup: [1, 0, 0],
                index,
                count,
                worker: 0,
            };
            let run = |w: &mut Wave, reused: usize| {
                let mut lds = d.new_group();
                d.start_group(&mut lds, at.workgroup, count);
                let (k, r) = d.first_turns(
                    std::slice::from_mut(w),
                    at,
                    reused,
                    &mut lds,
                    &mem,
                    4096,
                    1000,
                    &mut NoObserver,
                );
                assert_eq!((k, r), (0, Ok(wavesim_core::engine::Stop::End)));
            };
            let mut want = d.new_wave();
            run(&mut want, 0);
            assert_eq!(
                [want.sgpr[8], want.sgpr[14], want.sgpr[21], want.sgpr[125]],
                [1, 3, 7, 5]
            );
            assert!((0..want.lanes()).all(|lane| want.vgpr_get(3, lane) == 1));
            let mut w = d.new_wave();
            run(&mut w, 0);
            run(&mut w, 1);
            assert_eq!(
                format!("{w:?}"),
                format!("{want:?}"),
                "wave64 {wave64}, {engine}, wave {index}"
            );
        }
    }
}

#[test]
fn hw_id1_places_waves_by_cu_or_wgp_mode() {
    let prog = endpgm_prog();
    let mut l = launch(&prog, false, &[256], &[256]);
    let mut w = Wave::new(false, 16);
    // 256 work-items, wave32: 8 waves. Wave 6: WGP mode SIMD 2 slot 1; CU mode SIMD 0 slot 3.
    init_wave(&mut w, &l, [0, 0, 0], 6, 8, 0);
    assert_eq!(w.hw.hw_id1, 2 << 8 | 1);
    l.wgp_mode = false;
    init_wave(&mut w, &l, [0, 0, 0], 6, 8, 0);
    assert_eq!(w.hw.hw_id1, 3);
    init_wave(&mut w, &l, [0, 0, 0], 7, 8, 0);
    assert_eq!(w.hw.hw_id1, 1 << 8 | 3);
}

#[test]
fn flat_scratch_is_zero_without_scratch() {
    let prog = endpgm_prog();
    let l = launch(&prog, true, &[64], &[64]);
    let mut w = Wave::new(true, 16);
    w.hw.flat_scratch_lo = 5;
    init_wave(&mut w, &l, [0, 0, 0], 0, 1, 0);
    assert_eq!((w.hw.flat_scratch_lo, w.hw.flat_scratch_hi), (0, 0));
    assert_eq!(w.scratch_base, 0);
}

#[test]
fn work_item_ids_and_exec_at_the_grid_edge() {
    let prog = endpgm_prog();
    for wave64 in [false, true] {
        // 3-D grid 5x3x2 in workgroups of 4x2x2: workgroup (1,1,0) holds 1x1x2 work-items.
        let mut l = launch(&prog, wave64, &[5, 3, 2], &[4, 2, 2]);
        l.rsrc2 |= 2 << 11; // VGPR work-item ids X, Y, Z
        let mut w = Wave::new(wave64, 16);
        init_wave(&mut w, &l, [1, 1, 0], 0, 1, 0);
        assert_eq!(w.exec(), 0b11, "wave64={wave64}");
        assert_eq!(w.vgpr_get(0, 0), 0);
        assert_eq!(w.vgpr_get(0, 1), 1 << 20, "z = 1 packed in v0[29:20]");
        // Full workgroup (0,0,0): 16 work-items, x fastest, then y, then z.
        init_wave(&mut w, &l, [0, 0, 0], 0, 1, 0);
        assert_eq!(w.exec(), 0xffff);
        for lane in 0..16u32 {
            let (x, y, z) = (lane % 4, (lane / 4) % 2, lane / 8);
            assert_eq!(w.vgpr_get(0, lane as usize), x | y << 10 | z << 20);
        }
        // Unpacked ids: v0 = x, v1 = y, v2 = z.
        l.packed_tid = false;
        init_wave(&mut w, &l, [0, 0, 0], 0, 1, 0);
        assert_eq!(
            (w.vgpr_get(0, 13), w.vgpr_get(1, 13), w.vgpr_get(2, 13)),
            (1, 1, 1)
        );
        // Only X enabled: Y and Z stay zero even in a 3-D workgroup.
        l.packed_tid = true;
        l.rsrc2 &= !(3 << 11);
        init_wave(&mut w, &l, [0, 0, 0], 0, 1, 0);
        assert_eq!(w.vgpr_get(0, 13), 1);
    }
    // 1-D: 100 work-items in groups of 64; the last group has 36 -> wave32: waves of 32 and 4.
    let l = launch(&prog, false, &[100], &[64]);
    let mut w = Wave::new(false, 16);
    init_wave(&mut w, &l, [1, 0, 0], 1, 2, 0);
    assert_eq!(w.exec(), 0xf);
    assert_eq!(w.vgpr_get(0, 3), 35);
    assert_eq!(w.sgpr[2], 1, "workgroup id X in s[USER_SGPR_COUNT]");
    let l = launch(&prog, true, &[100], &[64]);
    let mut w = Wave::new(true, 16);
    init_wave(&mut w, &l, [1, 0, 0], 0, 1, 0);
    assert_eq!(w.exec(), (1u64 << 36) - 1);
}

#[test]
fn bad_launches_are_errors() {
    let prog = endpgm_prog();
    let mem = DeviceMemory::new();
    assert!(Geometry::new(&[0], &[1]).is_err());
    assert!(Geometry::new(&[64], &[0]).is_err());
    assert!(Geometry::new(&[64, 1], &[64]).is_err());
    assert!(
        Geometry::new(&[2048], &[2048]).is_err(),
        "more than 1024 work-items"
    );
    assert!(Geometry::new(&[1, 1, 1, 1], &[1, 1, 1, 1]).is_err());
    let mut l = launch(&prog, false, &[64], &[64]);
    l.lds_bytes = 65537;
    assert!(matches!(
        dispatch::run(&l, &mem),
        Err(DispatchError::BadLaunch(_))
    ));
    let mut l = launch(&prog, false, &[64], &[64]);
    l.entry = CODE_BASE + 2;
    assert!(matches!(
        dispatch::run(&l, &mem),
        Err(DispatchError::BadLaunch(_))
    ));
    let mut l = launch(&prog, false, &[64], &[64]);
    l.scratch_lane_bytes = 16;
    assert!(matches!(
        dispatch::run(&l, &mem),
        Err(DispatchError::BadLaunch(_))
    ));
}

// ---------------------------------------------------------------------------------------------
// Running waves

/// Each work-item stores its work-item id to out[group * 64 + id]:
const STORE_IDS: &[u32] = &[
    0x9603_c002, // s_mul_i32 s3, s2, 64
    0x4a02_0003, // v_add_nc_u32_e32 v1, s3, v0
    0x3002_0282, // v_lshlrev_b32_e32 v1, 2, v1
    0xdc6a_0000,
    0x0000_0001, // global_store_b32 v1, v0, s[0:1]
    S_ENDPGM,
];

fn run_store_ids(wave64: bool, threads: usize) -> Vec<u32> {
    let prog = Program::new(&words_to_bytes(STORE_IDS), CODE_BASE).unwrap();
    let mut mem = DeviceMemory::new();
    let out = mem.alloc(4 * 1024, 256).unwrap();
    mem.write(out, &[0xef; 4 * 1024]).unwrap();
    let mut l = launch(&prog, wave64, &[1000], &[64]);
    l.kernarg_addr = out;
    l.threads = threads;
    let stats = dispatch::run(&l, &mem).unwrap();
    // 1000 work-items: 16 workgroups (15 full, 1 of 40).
    assert_eq!(stats.workgroups, 16);
    let waves = if wave64 { 16 } else { 15 * 2 + 2 };
    assert_eq!(stats.waves, waves);
    assert_eq!(stats.wave_instructions, 5 * waves);
    assert_eq!(stats.lane_instructions, 5 * 1000);
    let mut b = vec![0u8; 4 * 1024];
    mem.read(out, &mut b).unwrap();
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

#[test]
fn grid_runs_every_work_item_once() {
    for wave64 in [false, true] {
        let got = run_store_ids(wave64, 1);
        for (i, &v) in got.iter().enumerate() {
            let want = if i < 1000 {
                (i % 64) as u32
            } else {
                0xefef_efef
            };
            assert_eq!(v, want, "wave64={wave64} element {i}");
        }
        assert_eq!(run_store_ids(wave64, 4), got, "parallel run differs");
    }
}

/// Every lane writes its id to LDS, waits at s_barrier, then reads its right neighbour's slot
/// (which another wave of the workgroup wrote) and stores it.
const LDS_ROTATE: &[u32] = &[
    0x3002_0082, // v_lshlrev_b32_e32 v1, 2, v0
    0xd834_0000,
    0x0000_0001, // ds_store_b32 v1, v0
    0xbfbd_0000, // s_barrier
    0x4a04_0081, // v_add_nc_u32_e32 v2, 1, v0
    0x3604_04ff,
    0x0000_007f, // v_and_b32_e32 v2, 0x7f, v2
    0x3004_0482, // v_lshlrev_b32_e32 v2, 2, v2
    0xd8d8_0000,
    0x0300_0002, // ds_load_b32 v3, v2
    0xbf89_fc07, // s_waitcnt lgkmcnt(0)
    0xdc6a_0000,
    0x0000_0301, // global_store_b32 v1, v3, s[0:1]
    S_ENDPGM,
];

#[test]
fn barrier_makes_lds_writes_of_other_waves_visible() {
    for wave64 in [false, true] {
        let prog = Program::new(&words_to_bytes(LDS_ROTATE), CODE_BASE).unwrap();
        let mut mem = DeviceMemory::new();
        let out = mem.alloc(512, 256).unwrap();
        let mut l = launch(&prog, wave64, &[128], &[128]);
        l.kernarg_addr = out;
        l.lds_bytes = 512;
        dispatch::run(&l, &mem).unwrap();
        let mut b = vec![0u8; 512];
        mem.read(out, &mut b).unwrap();
        for x in 0..128u32 {
            let v = u32::from_le_bytes(b[4 * x as usize..4 * x as usize + 4].try_into().unwrap());
            assert_eq!(v, (x + 1) % 128, "wave64={wave64} lane {x}");
        }
    }
}

/// Reads registers the initial wave state does not load, then writes them, so a later wave that
/// reuses this wave's storage would see -1 if they were not reset: v[4:5] through a 64-bit VALU
/// source, v7 as the second dword of a b128 store's data, s20 through v_mov.
const READ_UNLOADED: &[u32] = &[
    0xd646_0001,
    0x0401_0c02, // v_lshl_add_u32 v1, s2, 6, v0       (work-item index in the grid)
    0x3002_0284, // v_lshlrev_b32_e32 v1, 4, v1        (16 bytes per work-item)
    0xd73c_0008,
    0x0002_0880, // v_lshlrev_b64 v[8:9], 0, v[4:5]    (v8 = v4, v9 = v5)
    0x7e0c_0214, // v_mov_b32_e32 v6, s20
    0xdc76_0000,
    0x0000_0601, // global_store_b128 v1, v[6:9], s[0:1]
    0x7e08_02c1, // v_mov_b32_e32 v4, -1
    0x7e0a_02c1, // v_mov_b32_e32 v5, -1
    0x7e0e_02c1, // v_mov_b32_e32 v7, -1
    0xbe94_00c1, // s_mov_b32 s20, -1
    S_ENDPGM,
];

/// Registers the initial wave state does not load (AMDGPUUsage, "Initial Kernel Execution
/// State": this launch loads s[0:1] = kernarg pointer, s2 = workgroup id X and v0 = the
/// work-item ids; the RDNA3 ISA guide leaves every other SGPR and VGPR undefined at wave
/// start) read as 0 in wavesim, in every wave, under every engine: also in waves that reuse the
/// storage of an earlier wave that wrote -1 to them (one worker runs every workgroup in order),
/// and whatever rows the dispatch decides it must reset (`vgpr_rows_reached`). So each
/// work-item stores [s20, v7, v4, v5] = [0, 0, 0, 0].
#[test]
fn registers_the_wave_start_does_not_load_read_zero_in_every_wave() {
    let prog = Program::new(&words_to_bytes(READ_UNLOADED), CODE_BASE).unwrap();
    assert_every_work_item_stores_zeros(&prog, 96, "");
}

/// Runs `prog` (a kernel storing 16 bytes per work-item at the kernarg pointer, a 1-D grid of
/// `groups` workgroups of 64) under every engine, both wave sizes, one and two threads, over
/// output filled with 0xab, and checks that it stored only zeros.
fn assert_every_work_item_stores_zeros(prog: &Program, groups: u32, what: &str) {
    use wavesim_rdna3::jit::Engine;
    for wave64 in [false, true] {
        for engine in [Engine::Interp, Engine::Jit, Engine::Auto] {
            for threads in [1, 2] {
                let bytes = (groups * 64 * 16) as usize;
                let mut mem = DeviceMemory::new();
                let out = mem.alloc(bytes as u64, 256).unwrap();
                mem.write(out, &vec![0xab; bytes]).unwrap();
                let mut l = launch(prog, wave64, &[groups * 64], &[64]);
                l.kernarg_addr = out;
                l.threads = threads;
                l.cfg.engine = engine;
                dispatch::run(&l, &mem).unwrap();
                let mut b = vec![0u8; bytes];
                mem.read(out, &mut b).unwrap();
                let at = b.iter().position(|&x| x != 0);
                assert_eq!(
                    at, None,
                    "{what} wave64={wave64} {engine} threads={threads}"
                );
            }
        }
    }
}

#[test]
fn a_wave_that_never_arrives_is_a_barrier_deadlock() {
    let words = [
        0x7e08_0500, // v_readfirstlane_b32 s4, v0
        0xbf06_8004, // s_cmp_eq_u32 s4, 0
        0xbfa2_0002, // s_cbranch_scc1 2      (wave 0 -> the loop)
        0xbfbd_0000, // s_barrier
        S_ENDPGM,
        0xbfa0_ffff, // s_branch -1
    ];
    let prog = Program::new(&words_to_bytes(&words), CODE_BASE).unwrap();
    let mem = DeviceMemory::new();
    let mut l = launch(&prog, false, &[128], &[128]);
    l.max_wave_insts = 10_000;
    match dispatch::run(&l, &mem) {
        Err(e @ DispatchError::BarrierDeadlock { .. }) => {
            let msg = e.to_string();
            let DispatchError::BarrierDeadlock {
                at,
                waiting,
                limit,
                barrier,
            } = e
            else {
                unreachable!()
            };
            assert_eq!(barrier, "s_barrier");
            assert!(msg.contains("wait at s_barrier"), "{msg}");
            assert_eq!(waiting, [1, 2, 3]);
            assert_eq!(limit, 10_000);
            assert_eq!(at.wave, 0);
            assert_eq!(at.pc, 20, "the looping s_branch");
        }
        r => panic!("expected a barrier deadlock, got {r:?}"),
    }
    // A wave that ends counts as arrived: waves 1..3 pass the barrier when wave 0 ends.
    let words = [
        0x7e08_0500, // v_readfirstlane_b32 s4, v0
        0xbf06_8004, // s_cmp_eq_u32 s4, 0
        0xbfa2_0002, // s_cbranch_scc1 2      (wave 0 -> s_endpgm at the end)
        0xbfbd_0000, // s_barrier
        S_ENDPGM,
        S_ENDPGM,
    ];
    let prog = Program::new(&words_to_bytes(&words), CODE_BASE).unwrap();
    let l = launch(&prog, false, &[128], &[128]);
    let st = dispatch::run(&l, &mem).unwrap();
    assert_eq!(st.wave_instructions, 4 + 3 * 5);
}

#[test]
fn watchdog_stops_an_endless_wave() {
    let prog = Program::new(&words_to_bytes(&[0xbfa0_ffff]), CODE_BASE).unwrap(); // s_branch -1
    let mem = DeviceMemory::new();
    let mut l = launch(&prog, true, &[64], &[64]);
    l.max_wave_insts = 1000;
    match dispatch::run(&l, &mem) {
        Err(e @ DispatchError::Watchdog { .. }) => {
            assert!(e.to_string().contains("without reaching s_endpgm"), "{e}");
            let DispatchError::Watchdog { at, limit, .. } = e else {
                unreachable!()
            };
            assert_eq!(limit, 1000);
            assert_eq!(at.pc, 0);
            assert_eq!(at.workgroup, [0, 0, 0]);
        }
        r => panic!("expected the watchdog, got {r:?}"),
    }
}

#[test]
fn errors_name_the_lowest_failing_workgroup_even_in_parallel() {
    // Workgroups >= 5 store to address 0 (unmapped).
    let words = [
        0xbf09_8502, // s_cmp_ge_u32 s2, 5
        0xbfa1_0004, // s_cbranch_scc0 4
        0x7e02_0280, // v_mov_b32_e32 v1, 0
        0x7e04_0280, // v_mov_b32_e32 v2, 0
        0xdc6a_0000,
        0x007c_0001, // global_store_b32 v[1:2], v0, off
        S_ENDPGM,
    ];
    let prog = Program::new(&words_to_bytes(&words), CODE_BASE).unwrap();
    let mem = DeviceMemory::new();
    for threads in [1, 2, 4] {
        let mut l = launch(&prog, false, &[64 * 40], &[64]);
        l.threads = threads;
        match dispatch::run(&l, &mem) {
            Err(DispatchError::Exec { at, error }) => {
                assert_eq!(at.workgroup, [5, 0, 0], "threads={threads}");
                assert_eq!(at.wave, 0);
                assert_eq!(at.pc, 16);
                assert!(matches!(
                    error,
                    ExecError::MemoryFault {
                        addr: 0,
                        lane: 0,
                        ..
                    }
                ));
                let msg = DispatchError::Exec { at, error }.to_string();
                assert!(
                    msg.contains("workgroup (5,0,0)") && msg.contains("0x10"),
                    "{msg}"
                );
            }
            r => panic!("expected a memory fault, got {r:?}"),
        }
    }
}

#[test]
fn invalid_instruction_reports_its_pc() {
    // A word no gfx11 encoding defines (SOPP opcode 0x7f) after one s_nop.
    let prog = Program::new(
        &words_to_bytes(&[0xbf80_0000, 0xbfff_0000, S_ENDPGM]),
        CODE_BASE,
    )
    .unwrap();
    let mem = DeviceMemory::new();
    let l = launch(&prog, false, &[32], &[32]);
    match dispatch::run(&l, &mem) {
        Err(DispatchError::Exec { at, error }) => {
            assert_eq!(at.pc, 4);
            assert!(
                matches!(error, ExecError::InvalidInstruction { word: 0xbfff_0000 }),
                "{error:?}"
            );
        }
        r => panic!("expected an invalid instruction, got {r:?}"),
    }
}

#[test]
fn exception_enables_from_rsrc2_reach_mode() {
    // COMPUTE_PGM_RSRC2 [30:24] enable IEEE exceptions (invalid, denormal, div-by-zero, overflow,
    // underflow, inexact, int div-by-zero); they start the wave in MODE.EXCP_EN [18:12].
    let mut b = [0u8; 64];
    let rsrc2: u32 = (1 << 24) | (1 << 26) | (1 << 30);
    b[52..56].copy_from_slice(&rsrc2.to_le_bytes());
    let d = wavesim_rdna3::codeobj::KernelDescriptor::parse(&b).expect("64 bytes");
    assert_eq!(d.initial_mode(), (1 << 12) | (1 << 14) | (1 << 18));
}

// ---------------------------------------------------------------------------------------------
// Trap handler (RDNA3 ISA guide, Wave State "Trap and exception registers"; AMDGPUUsage: the CP sets
// COMPUTE_PGM_RSRC2.TRAP_PRESENT when the runtime installed a handler -> STATUS.TRAP_EN)

const TBA: u64 = 0x8000;
const TRAP_EN: u32 = 1 << 6;

/// Stores {TTMP0, TTMP1, TRAPSTS, 0xc0ffee} at TMA, counts its lanes in TMA[16], and returns
/// with s_rfe_b64 — past the instruction for s_trap (trap ID != 0, whose saved PC is the s_trap
/// itself), to the saved PC otherwise (exceptions save the PC of the next instruction).
const HANDLER: &[u32] = &[
    0xbeee4d82, // s_sendmsg_rtn_b64 ttmp[2:3], sendmsg(MSG_RTN_GET_TMA)
    0xb8f0f803, // s_getreg_b32 ttmp4, hwreg(HW_REG_TRAPSTS)
    0xbf89fc07, // s_waitcnt lgkmcnt(0)
    0x7e060280, // v_mov_b32_e32 v3, 0
    0x7e08026c, // v_mov_b32_e32 v4, ttmp0
    0x7e0a026d, // v_mov_b32_e32 v5, ttmp1
    0x7e0c0270, // v_mov_b32_e32 v6, ttmp4
    0x7e0e02ff, 0x00c0ffee, // v_mov_b32_e32 v7, 0xc0ffee
    0xdc760000, 0x006e0403, // global_store_b128 v3, v[4:7], ttmp[2:3]
    0x7e080281, // v_mov_b32_e32 v4, 1
    0xdcd60010, 0x006e0403, // global_atomic_add_u32 v3, v4, ttmp[2:3] offset:16
    0x9371ff6d, 0x00080010, // s_bfe_u32 ttmp5, ttmp1, 0x80010  (trap ID; SCC = ID != 0)
    0xbfa10001, // s_cbranch_scc0 1
    0x806c846c, // s_add_u32 ttmp0, ttmp0, 4
    0x8b6dff6d, 0x0000ffff, // s_and_b32 ttmp1, ttmp1, 0xffff
    0xbe804a6c, // s_rfe_b64 ttmp[0:1]
];

/// The kernel's last words: TMA[20] = 0x600d (it ran on after the handler), s_endpgm.
const AFTER_TRAP: &[u32] = &[
    0xbe824d82, // s_sendmsg_rtn_b64 s[2:3], sendmsg(MSG_RTN_GET_TMA)
    0xbf89fc07, // s_waitcnt lgkmcnt(0)
    0x7e020280, // v_mov_b32_e32 v1, 0
    0x7e0402ff, 0x0000600d, // v_mov_b32_e32 v2, 0x600d
    0xdc6a0014, 0x00020201, // global_store_b32 v1, v2, s[2:3] offset:20
    S_ENDPGM,
];

fn handler_prog() -> Program {
    Program::new(&words_to_bytes(HANDLER), TBA).unwrap()
}

fn trap_kernel(head: &[u32]) -> Program {
    let words: Vec<u32> = head.iter().chain(AFTER_TRAP).copied().collect();
    Program::new(&words_to_bytes(&words), CODE_BASE).unwrap()
}

fn tma_words(mem: &DeviceMemory, tma: u64) -> [u32; 6] {
    [0, 1, 2, 3, 4, 5].map(|k| mem.read_u32(tma + 4 * k).unwrap())
}

/// Installs `trap` at `tba` with data at `tma` as the launch's trap handler.
fn set_trap<'a>(l: &mut Launch<'a>, trap: &'a Program, tba: u64, tma: u64) {
    l.trap = Some(dispatch::TrapHandler {
        prog: trap,
        tba,
        tma,
    });
}

/// Runs `prog` with the standard handler (`HANDLER` at TBA) and a fresh 64-byte TMA: the dispatch
/// result and the six TMA words the handler writes (all zero if it never ran).
fn run_with_handler(
    prog: &Program,
    wave64: bool,
    grid: &[u32],
    local: &[u32],
) -> (Result<DispatchStats, DispatchError>, [u32; 6]) {
    let trap = handler_prog();
    let mut mem = DeviceMemory::new();
    let tma = mem.alloc(64, 256).unwrap();
    let mut l = launch(prog, wave64, grid, local);
    set_trap(&mut l, &trap, TBA, tma);
    let r = dispatch::run(&l, &mem);
    (r, tma_words(&mem, tma))
}

#[test]
fn an_installed_trap_handler_sets_trap_en_tba_and_tma() {
    let prog = endpgm_prog();
    let trap = handler_prog();
    let mut l = launch(&prog, true, &[64], &[64]);
    let mut w = Wave::new(true, 16);
    init_wave(&mut w, &l, [0, 0, 0], 0, 1, 0);
    assert_eq!((w.hw.status & TRAP_EN, w.tba, w.tma), (0, 0, 0));
    set_trap(&mut l, &trap, TBA, 0x1234_5600);
    init_wave(&mut w, &l, [0, 0, 0], 0, 1, 0);
    assert_eq!(
        (w.hw.status & TRAP_EN, w.tba, w.tma),
        (TRAP_EN, TBA, 0x1234_5600)
    );
    // Not privileged until a trap is taken.
    assert_eq!(w.hw.status & (1 << 5), 0);
}

#[test]
fn s_trap_runs_the_handler_which_returns_past_it() {
    for wave64 in [false, true] {
        let prog = trap_kernel(&[0xbf90_0002]); // s_trap 2
                                                // Two workgroups of 96 work-items: 3 or 2 waves each, the last wave32 one partial... all
                                                // 192 lanes go through the handler once.
        let (r, t) = run_with_handler(&prog, wave64, &[192], &[96]);
        r.unwrap();
        // TTMP0/1: the PC of the s_trap itself (the kernel's first word), trap ID 2 in [23:16].
        assert_eq!(t[0] as u64, CODE_BASE, "wave64={wave64}");
        assert_eq!(t[1], 2 << 16 | (CODE_BASE >> 32) as u32);
        assert_eq!(t[2], 0, "s_trap sets no TRAPSTS bit");
        assert_eq!(t[3], 0xc0ffee);
        assert_eq!(t[4], 192, "every lane of every wave ran the handler once");
        assert_eq!(t[5], 0x600d, "the kernel went on after s_rfe");
    }
}

#[test]
fn without_a_handler_s_trap_does_nothing() {
    let prog = trap_kernel(&[0xbf90_0002]); // s_trap 2
    let mut mem = DeviceMemory::new();
    let tma = mem.alloc(64, 256).unwrap();
    // The kernel still finds a TMA to write to through its kernarg pointer... it asks for TMA,
    // which is 0 without a handler: its store faults at address 20, proving no handler ran.
    let l = launch(&prog, false, &[32], &[32]);
    match dispatch::run(&l, &mem) {
        Err(DispatchError::Exec { error, .. }) => assert!(
            matches!(error, ExecError::MemoryFault { addr: 20, .. }),
            "{error:?}"
        ),
        r => panic!("expected the store through TMA = 0 to fault, got {r:?}"),
    }
    assert_eq!(tma_words(&mem, tma), [0; 6]);
}

#[test]
fn memory_violations_and_fp_exceptions_run_the_handler_end_to_end() {
    const MEMVIOL: &[u32] = &[
        0xbe824d82, // s_sendmsg_rtn_b64 s[2:3], sendmsg(MSG_RTN_GET_TMA)
        0xbf89fc07, // s_waitcnt lgkmcnt(0)
        0x7e020280, // v_mov_b32_e32 v1, 0
        0xdcd60002, 0x00020201, // global_atomic_add_u32 v1, v2, s[2:3] offset:2 (misaligned)
    ];
    const FP_INVALID: &[u32] = &[
        // MODE[12:8] = 0b10010: EXCP_EN.invalid on, IEEE on, DX10_CLAMP off (DX10_CLAMP
        // suppresses VALU exceptions, see exec/vfloat/fpexc.rs; the launch mode 0x3f0 has it).
        0xb9802201, 0x00000012, // s_setreg_imm32_b32 hwreg(HW_REG_MODE, 8, 5), 18
        0x7e0402f3, // v_mov_b32_e32 v2, -1.0
        0x7e046702, // v_sqrt_f32_e32 v2, v2 (invalid)
    ];
    // (kernel head, TRAPSTS bit the handler sees: MEM_VIOL [8] / EXCP.invalid [0])
    for (head, bit) in [(MEMVIOL, 1u32 << 8), (FP_INVALID, 1)] {
        for wave64 in [false, true] {
            let prog = trap_kernel(head);
            let (r, t) = run_with_handler(&prog, wave64, &[64], &[64]);
            r.unwrap();
            // The saved PC is the instruction after the faulting one: the first of AFTER_TRAP.
            let after = CODE_BASE + 4 * head.len() as u64;
            assert_eq!(t[0] as u64, after, "wave64={wave64} bit {bit:#x}");
            assert_eq!(t[1], (after >> 32) as u32, "trap ID 0 for exceptions");
            assert_eq!(t[2] & bit, bit, "TRAPSTS");
            assert_eq!(t[3], 0xc0ffee);
            assert_eq!(t[4], 64);
            assert_eq!(t[5], 0x600d, "the kernel went on after the handler");
        }
    }
}

#[test]
fn a_wave_running_off_its_code_does_not_fall_into_the_handler() {
    // s_nop 0 and no s_endpgm: the next PC is past the kernel's code.
    let prog = Program::new(&words_to_bytes(&[0xbf80_0000]), CODE_BASE).unwrap();
    let (r, t) = run_with_handler(&prog, false, &[32], &[32]);
    match r {
        Err(DispatchError::Exec { error, .. }) => {
            assert_eq!(error, ExecError::PcOutOfCode { pc: CODE_BASE + 4 })
        }
        r => panic!("expected the PC to leave the code, got {r:?}"),
    }
    assert_eq!(t, [0; 6], "the handler never ran");
}

#[test]
fn an_error_inside_the_handler_is_located_there() {
    // The handler's first instruction reads TTMP2/3 for an address it never set: s_trap enters,
    // then the handler's global store to TTMP[2:3] = 0 faults.
    let words = [
        0x7e060280, // v_mov_b32_e32 v3, 0
        0xdc6a0000, 0x006e0303, // global_store_b32 v3, v3, ttmp[2:3]
        S_ENDPGM,
    ];
    let trap = Program::new(&words_to_bytes(&words), TBA).unwrap();
    let prog = trap_kernel(&[0xbf90_0002]);
    let mem = DeviceMemory::new();
    let mut l = launch(&prog, false, &[32], &[32]);
    set_trap(&mut l, &trap, TBA, 0);
    match dispatch::run(&l, &mem) {
        Err(DispatchError::Exec { at, error }) => {
            assert!(at.trap_handler);
            assert_eq!(at.pc, 4, "offset from TBA");
            assert!(at.inst.starts_with("global_store_b32"), "{}", at.inst);
            assert!(matches!(error, ExecError::MemoryFault { addr: 0, .. }));
            let msg = DispatchError::Exec { at, error }.to_string();
            assert!(msg.contains("PC 0x4 in the trap handler"), "{msg}");
        }
        r => panic!("expected a fault in the handler, got {r:?}"),
    }
}

#[test]
fn bad_trap_handlers_are_launch_errors() {
    let prog = endpgm_prog();
    let mem = DeviceMemory::new();
    // Misaligned TBA (the register holds address bits [47:8]).
    let trap = Program::new(&words_to_bytes(HANDLER), TBA + 4).unwrap();
    let mut l = launch(&prog, false, &[32], &[32]);
    set_trap(&mut l, &trap, TBA + 4, 0);
    assert!(
        matches!(dispatch::run(&l, &mem), Err(DispatchError::BadLaunch(m)) if m.contains("TBA"))
    );
    // TBA where the handler's code does not start.
    let trap = handler_prog();
    set_trap(&mut l, &trap, TBA + 256, 0);
    assert!(matches!(
        dispatch::run(&l, &mem),
        Err(DispatchError::BadLaunch(_))
    ));
    // Handler code overlapping the kernel's.
    let trap = Program::new(&words_to_bytes(HANDLER), CODE_BASE).unwrap();
    set_trap(&mut l, &trap, CODE_BASE, 0);
    assert!(
        matches!(dispatch::run(&l, &mem), Err(DispatchError::BadLaunch(m)) if m.contains("overlaps"))
    );
}

/// The tail both [`BRANCHED_READS`] and [`SETPC_READS`] jump to: it stores [v12, v13, v14, v15]
/// (registers the wave start does not load, so 0; see
/// `registers_the_wave_start_does_not_load_read_zero_in_every_wave`) at 16 bytes per
/// work-item, then writes -1 to them for the next wave that reuses this wave's storage.
const STORE_V12_TO_V15: [u32; 11] = [
    0x7e0c_030c, // v_mov_b32_e32 v6, v12
    0x7e0e_030d, // v_mov_b32_e32 v7, v13
    0x7e10_030e, // v_mov_b32_e32 v8, v14
    0x7e12_030f, // v_mov_b32_e32 v9, v15
    0xdc76_0000,
    0x0000_0601, // global_store_b128 v1, v[6:9], s[0:1]
    0x7e18_02c1, // v_mov_b32_e32 v12, -1
    0x7e1a_02c1, // v_mov_b32_e32 v13, -1
    0x7e1c_02c1, // v_mov_b32_e32 v14, -1
    0x7e1e_02c1, // v_mov_b32_e32 v15, -1
    S_ENDPGM,
];

/// v12..v15 are named only after an s_endpgm, reached by a taken s_cbranch_scc0 (SCC is 0 at
/// wave start) over it: the rows a wave start resets follow branches from the entry.
const BRANCHED_READS: [u32; 5] = [
    0xd646_0001,
    0x0401_0c02, // v_lshl_add_u32 v1, s2, 6, v0       (work-item index in the grid)
    0x3002_0284, // v_lshlrev_b32_e32 v1, 4, v1        (16 bytes per work-item)
    0xbfa1_0001, // s_cbranch_scc0 1                   (to the tail, over s_endpgm)
    S_ENDPGM,
];

/// As [`BRANCHED_READS`], but the tail is reached only through s_setpc_b64 (PC of the
/// instruction after s_getpc_b64, 16, plus 16: byte 32): an indirect jump can go anywhere,
/// so every row the code names is reset.
const SETPC_READS: [u32; 8] = [
    0xd646_0001,
    0x0401_0c02, // v_lshl_add_u32 v1, s2, 6, v0
    0x3002_0284, // v_lshlrev_b32_e32 v1, 4, v1
    0xbe84_4700, // s_getpc_b64 s[4:5]                 (byte 12; s[4:5] = 16)
    0x8004_9004, // s_add_u32 s4, s4, 16
    0x8205_8005, // s_addc_u32 s5, s5, 0
    0xbe80_4804, // s_setpc_b64 s[4:5]                 (to byte 32)
    S_ENDPGM,
];

/// A wave start resets the VGPR rows of the code its entry can reach (`dispatch::reachable`):
/// through branches, and all of them after an indirect jump. Each work-item stores
/// [v12, v13, v14, v15] = [0; 4] in every wave, also in waves reusing the storage of one that
/// wrote -1 there, under every engine and both wave sizes.
#[test]
fn rows_reached_through_branches_and_indirect_jumps_read_zero_in_every_wave() {
    for (head, what) in [(&BRANCHED_READS[..], "branch"), (&SETPC_READS[..], "setpc")] {
        let words: Vec<u32> = head.iter().chain(&STORE_V12_TO_V15).copied().collect();
        let prog = Program::new(&words_to_bytes(&words), CODE_BASE).unwrap();
        assert_every_work_item_stores_zeros(&prog, 48, what);
    }
}

/// Every wave stores 1 for each of its work-items (4 bytes per work-item at the kernarg
/// pointer, workgroups of 128) except the wave of workgroup 1 whose first work-item is local
/// id 64 (wave 2 in wave32, wave 1 in wave64): it loads from address 0, which no allocation
/// holds, at byte 56.
const FAULTS_IN_ONE_WAVE: [u32; 19] = [
    0xd646_0001,
    0x0401_0e02, // v_lshl_add_u32 v1, s2, 7, v0       (work-item index in the grid)
    0x3002_0282, // v_lshlrev_b32_e32 v1, 2, v1        (4 bytes per work-item)
    0x7e08_0500, // v_readfirstlane_b32 s4, v0         (local id of the wave's first lane)
    0xbf06_c004, // s_cmp_eq_u32 s4, 64
    0x9805_8002, // s_cselect_b32 s5, s2, 0
    0xbf06_8105, // s_cmp_eq_u32 s5, 1                 (workgroup 1 and first lane 64)
    0xbfa2_0004, // s_cbranch_scc1 4                   (to byte 48)
    0x7e04_0281, // v_mov_b32_e32 v2, 1
    0xdc6a_0000,
    0x0000_0201, // global_store_b32 v1, v2, s[0:1]
    S_ENDPGM,
    0x7e06_0280, // v_mov_b32_e32 v3, 0                (byte 48)
    0x7e08_0280, // v_mov_b32_e32 v4, 0
    0xdc52_0000,
    0x027c_0003, // global_load_b32 v2, v[3:4], off    (byte 56: address 0)
    S_ENDPGM,
    S_ENDPGM,
    S_ENDPGM,
];

/// Waves start right before their first turn (`engine::turns`); a fault in wave N of a
/// workgroup is reported as wave N of that workgroup at the faulting instruction, with lane 0
/// and address 0, under every engine and both wave sizes. With one thread the waves run in
/// order, so exactly the work-items of the waves before it (workgroup 0, and workgroup 1 up to
/// local id 63) have stored their 1s, and none after it (the rest of workgroup 1 and
/// workgroup 2 never run).
#[test]
fn a_fault_in_wave_n_of_a_workgroup_names_wave_n() {
    use wavesim_rdna3::jit::Engine;
    let prog = Program::new(&words_to_bytes(&FAULTS_IN_ONE_WAVE), CODE_BASE).unwrap();
    for wave64 in [false, true] {
        for engine in [Engine::Interp, Engine::Jit, Engine::Auto] {
            for threads in [1, 2] {
                let items = 3 * 128u32;
                let bytes = 4 * items as usize;
                let mut mem = DeviceMemory::new();
                let out = mem.alloc(bytes as u64, 256).unwrap();
                mem.write(out, &vec![0; bytes]).unwrap();
                let mut l = launch(&prog, wave64, &[items], &[128]);
                l.kernarg_addr = out;
                l.threads = threads;
                l.cfg.engine = engine;
                let what = format!("wave64={wave64} {engine} threads={threads}");
                let err = dispatch::run(&l, &mem).unwrap_err();
                let DispatchError::Exec { at, error } = &err else {
                    panic!("{what}: expected an execution error, got {err}");
                };
                let wave = if wave64 { 1 } else { 2 };
                assert_eq!(
                    (at.workgroup, at.wave, at.pc),
                    ([1, 0, 0], wave, 56),
                    "{what}"
                );
                assert_eq!(at.inst, "global_load_b32 v2, v[3:4], off", "{what}");
                assert!(
                    matches!(
                        error,
                        ExecError::MemoryFault {
                            lane: 0,
                            addr: 0,
                            size: 4,
                            ..
                        }
                    ),
                    "{what}: {error:?}"
                );
                if threads == 1 {
                    let mut b = vec![0u8; bytes];
                    mem.read(out, &mut b).unwrap();
                    for (i, v) in b.chunks(4).enumerate() {
                        let stored = u32::from_le_bytes([v[0], v[1], v[2], v[3]]);
                        assert_eq!(stored, u32::from(i < 128 + 64), "{what}: work-item {i}");
                    }
                }
            }
        }
    }
}

/// A kernel that stores every initial VGPR row v0..v14 and every scalar operand s0..s127
/// (SGPRs, VCC, TTMPs, NULL, M0, EXEC), SCC and MODE of each work-item to its own 1 KiB record
/// at the kernarg pointer (dword r: v_r; 64 + k: operand k; 200: SCC; 201: MODE), then
/// overwrites every register it can (all SGPRs, VCC, M0, EXEC_HI, v0..v15, MODE, SCC), so a
/// wave reusing the storage sees the previous wave's values unless its start resets them.
/// Workgroups of 256 work-items; v15 holds the record's offset.
fn reads_every_initial_register() -> Vec<u32> {
    let mut k = vec![
        0xd646_000f,
        0x0401_1002,                                  // v_lshl_add_u32 v15, s2, 8, v0
        (0x18 << 25) | (15 << 17) | (15 << 9) | 0x8a, // v_lshlrev_b32 v15, 10, v15
    ];
    let store = |k: &mut Vec<u32>, data: u32, dword: u32| {
        k.push(0xdc6a_0000 | (4 * dword)); // global_store_b32 v15, v<data>, s[0:1] offset:4*dword
        k.push(15 | (data << 8));
    };
    for r in 0..15 {
        store(&mut k, r, r);
    }
    for s in 0..128 {
        k.push(0x7e02_0200 | s); // v_mov_b32 v1, <operand s>
        store(&mut k, 1, 64 + s);
    }
    k.push(0x9804_8081); // s_cselect_b32 s4, 1, 0
    k.push(0x7e02_0204); // v_mov_b32 v1, s4
    store(&mut k, 1, 200);
    k.push(0xb884_f801); // s_getreg_b32 s4, hwreg(HW_REG_MODE)
    k.push(0x7e02_0204);
    store(&mut k, 1, 201);
    for s in (0..108).chain([125, 127]) {
        k.push(0xbe80_00c1 | (s << 16)); // s_mov_b32 <s>, -1
    }
    for r in 0..16 {
        k.push(0x7e00_02c1 | (r << 17)); // v_mov_b32 v<r>, -1
    }
    k.extend([0xb980_f801, 0x0f0]); // s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0xf0
    k.push(0xbf06_8080); // s_cmp_eq_u32 0, 0
    k.push(S_ENDPGM);
    k
}

/// Every wave of a dispatch starts with exactly the state of "Initial wave state", whichever
/// way it starts: the interpreter's step loop, or compiled code entered directly for the
/// waves of a workgroup when the entry's block is compiled (`Backend::first_turns`), each wave
/// reusing the storage of a wave of an earlier workgroup that overwrote every register. The
/// records are checked value by value against the rule (user SGPRs s[0:1] the kernarg
/// pointer, s2 the workgroup id, s3 the workgroup info, EXEC the wave's lanes, v0 the local
/// id, everything else 0, MODE the launch's) and against the interpreter's bit for bit, with
/// the same instruction counts.
#[test]
fn every_wave_starts_with_the_initial_state_on_every_path() {
    use wavesim_rdna3::jit::{optimise_at_once, Engine};
    let prog = Program::new(&words_to_bytes(&reads_every_initial_register()), CODE_BASE).unwrap();
    optimise_at_once(true);
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        let items = 6 * 256u32;
        let bytes = 1024 * items as usize;
        let mut results = Vec::new();
        for engine in [Engine::Interp, Engine::Jit, Engine::Auto] {
            let mut mem = DeviceMemory::new();
            let out = mem.alloc(bytes as u64, 256).unwrap();
            mem.write(out, &vec![0x55; bytes]).unwrap();
            let mut l = launch(&prog, wave64, &[items], &[256]);
            l.rsrc2 |= 1 << 10; // the workgroup info in s3
            l.kernarg_addr = out;
            l.cfg.engine = engine;
            let stats = dispatch::run(&l, &mem).unwrap();
            let mut b = vec![0u8; bytes];
            mem.read(out, &mut b).unwrap();
            let rec: Vec<u32> = b
                .chunks(4)
                .map(|v| u32::from_le_bytes([v[0], v[1], v[2], v[3]]))
                .collect();
            for (i, r) in rec.chunks(256).enumerate() {
                let what = format!("wave64={wave64} {engine} work-item {i}");
                let (wg, local) = (i as u32 / 256, i as u32 % 256);
                let wave = local / lanes;
                assert_eq!(r[0], local, "{what}: v0");
                for (row, &v) in r[1..15].iter().enumerate() {
                    assert_eq!(v, 0, "{what}: v{}", row + 1);
                }
                for (s, &v) in r[64..192].iter().enumerate() {
                    let want = match s {
                        0 => out as u32,
                        1 => (out >> 32) as u32,
                        2 => wg,
                        3 => (u32::from(wave == 0) << 31) | (256 / lanes),
                        126 => u32::MAX,
                        127 if wave64 => u32::MAX,
                        _ => 0,
                    };
                    assert_eq!(v, want, "{what}: scalar operand {s}");
                }
                assert_eq!((r[200], r[201]), (0, 0x3f0), "{what}: SCC, MODE");
            }
            results.push((
                engine,
                rec,
                stats.wave_instructions,
                stats.lane_instructions,
            ));
        }
        let (_, want, wi, li) = &results[0];
        for (engine, got, gwi, gli) in &results[1..] {
            assert!(got == want, "wave64={wave64} {engine}: records differ");
            assert_eq!((gwi, gli), (wi, li), "wave64={wave64} {engine}: counts");
        }
    }
    optimise_at_once(false);
}
