//! Hand-written tests of each instruction family the JIT compiles: the words are what
//! `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding` gives (assembly in the comments), the
//! expected values come from the RDNA3 ISA's opcode descriptions (cited per test), and every
//! program runs under `Engine::Jit` (checked to have compiled) and `Engine::Interp` with the
//! final states compared.

use wavesim_rdna3::dispatch::{run_wave_alone, DispatchStats};
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::gfx::{GfxWave, Message, Stage};
use wavesim_rdna3::jit::{compile_stats, Engine};
use wavesim_rdna3::testing::{Harness, S_ENDPGM};

/// Dwords of an instruction from its little-endian encoding bytes.
fn enc(bytes: &[u8]) -> Vec<u32> {
    bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn program(insts: &[&[u8]]) -> Program {
    let mut words: Vec<u32> = insts.iter().flat_map(|i| enc(i)).collect();
    words.push(S_ENDPGM);
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    Program::new(&bytes, 0).expect("program decodes")
}

/// Runs `insts` on the wave `setup` prepares under the JIT and the interpreter; checks that
/// the JIT compiled at least `compiled` instructions and that both end in the same state;
/// returns the JIT's harness and stats.
fn run(
    wave64: bool,
    insts: &[&[u8]],
    compiled: u64,
    setup: impl Fn(&mut Harness),
) -> (Harness, DispatchStats) {
    // Cranelift's IR verifier on for everything these tests compile.
    wavesim_rdna3::jit::verify_ir(true);
    let prog = program(insts);
    let go = |engine: Engine| {
        let mut h = Harness::new(wave64);
        setup(&mut h);
        h.cfg.engine = engine;
        h.wave.pc = 0;
        let st = run_wave_alone(&mut h.wave, &mut h.lds, &prog, &h.mem, &h.cfg, 10_000)
            .expect("program runs");
        (h, st)
    };
    let before = compile_stats().instructions;
    let (j, js) = go(Engine::Jit);
    let after = compile_stats().instructions;
    assert!(
        after - before >= compiled,
        "the JIT compiled {} instructions, expected at least {compiled}",
        after - before
    );
    let (i, is) = go(Engine::Interp);
    assert_eq!(format!("{:?}", j.wave), format!("{:?}", i.wave));
    assert_eq!(
        (js.wave_instructions, js.lane_instructions),
        (is.wave_instructions, is.lane_instructions)
    );
    (j, js)
}

const OLD: u32 = 0xdead_beef;

fn a(l: usize) -> u32 {
    (l as u32).wrapping_mul(0x9e37_79b9) ^ 0x8000_0003
}
fn b(l: usize) -> u32 {
    (l as u32 * 7 + 1) ^ if l.is_multiple_of(3) { 0xffff_ff00 } else { 0 }
}

/// The usual start: v0 = a(lane), v1 = b(lane), v2 up to `rows` OLD, s4 and EXEC as given.
fn ab_old(h: &mut Harness, rows: usize, s4: u32, exec: u64) {
    h.set_v(0, a);
    h.set_v(1, b);
    for r in 2..rows {
        h.set_v(r, |_| OLD);
    }
    h.wave.sgpr[4] = s4;
    h.wave.set_exec(exec);
}

/// Checks VGPR `r` of every lane: `f(a, b)` where EXEC (`exec`) has the lane, the old value
/// elsewhere (RDNA3 ISA 3.3, "EXEC": inactive lanes are not written).
fn check(h: &Harness, r: usize, exec: u64, f: impl Fn(u32, u32) -> u32) {
    for l in 0..h.wave.lanes() {
        let want = if exec >> l & 1 != 0 {
            f(a(l), b(l))
        } else {
            OLD
        };
        assert_eq!(h.v(r, l), want, "v{r} lane {l}");
    }
}

#[test]
fn valu_integer_ops_write_only_exec_lanes() {
    let exec = 0x0f0f_f0f3u64;
    let (h, st) = run(
        false,
        &[
            &[0x00, 0x03, 0x04, 0x4a], // v_add_nc_u32_e32 v2, v0, v1
            &[0x00, 0x03, 0x06, 0x4c], // v_sub_nc_u32_e32 v3, v0, v1
            &[0x04, 0x00, 0x2c, 0xd7, 0x00, 0x03, 0x02, 0x00], // v_mul_lo_u32 v4, v0, v1
            &[0x84, 0x00, 0x0a, 0x30], // v_lshlrev_b32_e32 v5, 4, v0
            &[0x01, 0x01, 0x0c, 0x30], // v_lshlrev_b32_e32 v6, v1, v0
            &[0x01, 0x01, 0x0e, 0x34], // v_ashrrev_i32_e32 v7, v1, v0
            &[0x00, 0x03, 0x10, 0x12], // v_mul_i32_i24_e32 v8, v0, v1
            &[0x00, 0x03, 0x12, 0x24], // v_max_i32_e32 v9, v0, v1
            &[0x00, 0x03, 0x14, 0x26], // v_min_u32_e32 v10, v0, v1
            &[0x0b, 0x00, 0x46, 0xd6, 0x00, 0x07, 0x05, 0x04], // v_lshl_add_u32 v11, v0, 3, v1
            &[0x0c, 0x00, 0x55, 0xd6, 0x00, 0x03, 0x16, 0x02], // v_add3_u32 v12, v0, v1, 5
            &[0x0d, 0x00, 0x12, 0xd6, 0x00, 0x03, 0x12, 0x00], // v_bfi_b32 v13, v0, v1, s4
            &[0x00, 0x6f, 0x1c, 0x7e], // v_not_b32_e32 v14, v0
            &[0x04, 0x02, 0x1e, 0x7e], // v_mov_b32_e32 v15, s4
            &[0x00, 0x03, 0x26, 0x3a], // v_xor_b32_e32 v19, v0, v1
        ],
        15,
        |h| ab_old(h, 20, 0x00ff_f00f, exec),
    );
    let s4 = 0x00ff_f00f;
    let sx24 = |v: u32| ((v << 8) as i32 >> 8) as i64;
    // RDNA3 ISA chapter 16 (VOP2/VOP3 opcode descriptions).
    check(&h, 2, exec, |x, y| x.wrapping_add(y));
    check(&h, 3, exec, |x, y| x.wrapping_sub(y));
    check(&h, 4, exec, |x, y| x.wrapping_mul(y));
    check(&h, 5, exec, |x, _| x << 4);
    check(&h, 6, exec, |x, y| x << (y & 31)); // D = S1 << S0[4:0]
    check(&h, 7, exec, |x, y| ((x as i32) >> (y & 31)) as u32);
    check(&h, 8, exec, |x, y| (sx24(x) * sx24(y)) as u32);
    check(&h, 9, exec, |x, y| (x as i32).max(y as i32) as u32);
    check(&h, 10, exec, |x, y| x.min(y));
    check(&h, 11, exec, |x, y| (x << 3).wrapping_add(y));
    check(&h, 12, exec, |x, y| x.wrapping_add(y).wrapping_add(5));
    check(&h, 13, exec, |x, y| (x & y) | (!x & s4));
    check(&h, 14, exec, |x, _| !x);
    check(&h, 15, exec, |_, _| s4);
    check(&h, 19, exec, |x, y| x ^ y);
    // Lane-instructions: every instruction counts the lanes of EXEC (and s_endpgm too).
    assert_eq!(st.wave_instructions, 16);
    assert_eq!(st.lane_instructions, 16 * exec.count_ones() as u64);
}

#[test]
fn compares_write_lane_masks_and_cndmask_selects() {
    let exec = 0xffff_00ffu64;
    let (h, _) = run(
        false,
        &[
            &[0x00, 0x03, 0x82, 0x7c], // v_cmp_lt_i32_e32 vcc_lo, v0, v1
            &[0x06, 0x00, 0x4c, 0xd4, 0x00, 0x03, 0x02, 0x00], // v_cmp_gt_u32_e64 s6, v0, v1
            &[0x00, 0x03, 0x20, 0x02], // v_cndmask_b32_e32 v16, v0, v1, vcc_lo
            &[0x11, 0x00, 0x01, 0xd5, 0x00, 0x03, 0x1a, 0x00], // v_cndmask_b32_e64 v17, v0, v1, s6
            &[0x7e, 0x00, 0xcd, 0xd4, 0x00, 0x01, 0x01, 0x00], // v_cmpx_ne_u32_e64 v0, 0
        ],
        5,
        |h| {
            h.set_v(0, |l| if l.is_multiple_of(5) { 0 } else { a(l) });
            h.set_v(1, b);
            h.set_v(16, |_| OLD);
            h.set_v(17, |_| OLD);
            h.wave.set_exec(exec);
        },
    );
    let a0 = |l: usize| if l.is_multiple_of(5) { 0 } else { a(l) };
    // VOPC: each active lane writes its compare result, inactive lanes write 0.
    let mask = |f: &dyn Fn(usize) -> bool| {
        (0..32).fold(0u64, |m, l| m | ((exec >> l & 1 != 0 && f(l)) as u64) << l)
    };
    let lt = mask(&|l| (a0(l) as i32) < b(l) as i32);
    let gt = mask(&|l| a0(l) > b(l));
    assert_eq!(h.wave.vcc(), lt);
    assert_eq!(h.s(6) as u64, gt);
    for l in 0..32 {
        let active = exec >> l & 1 != 0;
        // v_cndmask_b32: D = mask[lane] ? S1 : S0.
        let pick = |m: u64| if m >> l & 1 != 0 { b(l) } else { a0(l) };
        assert_eq!(h.v(16, l), if active { pick(lt) } else { OLD });
        assert_eq!(h.v(17, l), if active { pick(gt) } else { OLD });
    }
    // v_cmpx writes EXEC (gfx11: only EXEC).
    assert_eq!(h.wave.exec(), mask(&|l| a0(l) != 0));
}

#[test]
fn wave64_masks_and_saveexec() {
    let exec = 0xf0f0_0000_ffff_0f0fu64;
    let (h, st) = run(
        true,
        &[
            &[0x1a, 0x00, 0x4a, 0xd4, 0x00, 0x03, 0x02, 0x00], // v_cmp_eq_u32_e64 s[26:27], v0, v1
            &[0x12, 0x00, 0x01, 0xd5, 0x00, 0x03, 0x6a, 0x00], // v_cndmask_b32_e64 v18, v0, v1, s[26:27]
            &[0x7e, 0x01, 0x94, 0xbe],                         // s_mov_b64 s[20:21], exec
            &[0x18, 0x21, 0x96, 0xbe], // s_and_saveexec_b64 s[22:23], s[24:25]
            &[0x00, 0x03, 0x04, 0x4a], // v_add_nc_u32_e32 v2, v0, v1
            &[0x7e, 0x16, 0xfe, 0x8c], // s_or_b64 exec, exec, s[22:23]
        ],
        6,
        |h| {
            h.set_v(0, |l| if l.is_multiple_of(2) { b(l) } else { a(l) });
            h.set_v(1, b);
            h.set_v(2, |_| OLD);
            h.set_v(18, |_| OLD);
            h.wave.sgpr[24] = 0x0000_ffff;
            h.wave.sgpr[25] = 0xffff_0000;
            h.wave.set_exec(exec);
        },
    );
    let a0 = |l: usize| if l.is_multiple_of(2) { b(l) } else { a(l) };
    let eq = (0..64).fold(0u64, |m, l| {
        m | ((exec >> l & 1 != 0 && a0(l) == b(l)) as u64) << l
    });
    assert_eq!(h.s(26) as u64 | (h.s(27) as u64) << 32, eq);
    assert_eq!(h.s(20) as u64 | (h.s(21) as u64) << 32, exec);
    // s_and_saveexec_b64: D = EXEC; EXEC = S0 & EXEC; then s_or_b64 restores it.
    assert_eq!(h.s(22) as u64 | (h.s(23) as u64) << 32, exec);
    let inner = exec & 0xffff_0000_0000_ffff;
    for l in 0..64 {
        let active = exec >> l & 1 != 0;
        let pick = if eq >> l & 1 != 0 { b(l) } else { a0(l) };
        assert_eq!(h.v(18, l), if active { pick } else { OLD }, "v18 lane {l}");
        let sum = a0(l).wrapping_add(b(l));
        assert_eq!(h.v(2, l), if inner >> l & 1 != 0 { sum } else { OLD });
    }
    assert_eq!(h.wave.exec(), exec);
    // SCC = (EXEC != 0) after s_and_saveexec, then s_or_b64's result != 0.
    assert!(h.wave.scc);
    let per_inst = [exec, exec, exec, exec, inner, inner, exec];
    let lanes: u64 = per_inst.iter().map(|e| e.count_ones() as u64).sum();
    assert_eq!(st.lane_instructions, lanes);
}

#[test]
fn salu_carries_overflow_and_selects() {
    let (h, _) = run(
        false,
        &[
            &[0x08, 0x09, 0x0a, 0x80], // s_add_u32 s10, s8, s9
            &[0x08, 0x09, 0x0b, 0x82], // s_addc_u32 s11, s8, s9
            &[0x08, 0x09, 0x8c, 0x81], // s_sub_i32 s12, s8, s9
            &[0x08, 0x09, 0x0e, 0x98], // s_cselect_b32 s14, s8, s9
            &[0x07, 0x20, 0x8d, 0xbe], // s_and_saveexec_b32 s13, s7
        ],
        5,
        |h| {
            h.wave.sgpr[8] = 0x8000_0000;
            h.wave.sgpr[9] = 0x8000_0001;
            h.wave.sgpr[7] = 0x0000_ff00;
            h.wave.set_exec(0x00ff_ffff);
        },
    );
    // s_add_u32: SCC = carry out (0x1_0000_0001 carries).
    assert_eq!(h.s(10), 1);
    // s_addc_u32: S0 + S1 + SCC(1) = 0x1_0000_0002, carry again.
    assert_eq!(h.s(11), 2);
    // s_sub_i32: 0x80000000 - 0x80000001 = -1, no signed overflow: SCC = 0.
    assert_eq!(h.s(12), u32::MAX);
    // s_cselect_b32: SCC = 0 picks S1.
    assert_eq!(h.s(14), 0x8000_0001);
    // s_and_saveexec_b32: s13 = old EXEC, EXEC = s7 & EXEC, SCC = EXEC != 0.
    assert_eq!(h.s(13), 0x00ff_ffff);
    assert_eq!(h.wave.exec(), 0x0000_ff00);
    assert!(h.wave.scc);
}

#[test]
fn loops_run_compiled_blocks_with_backward_branches() {
    // s_add_i32 s4, s4, 1; s_cmp_lt_u32 s4, 10; s_cbranch_scc1 -3 (back to the add):
    // the branch target is PC_next + simm16 * 4 (RDNA3 ISA, SOPP S_CBRANCH_SCC1).
    let (h, st) = run(
        false,
        &[
            &[0x04, 0x81, 0x04, 0x81], // s_add_i32 s4, s4, 1
            &[0x04, 0x8a, 0x0a, 0xbf], // s_cmp_lt_u32 s4, 10
            &[0xfd, 0xff, 0xa2, 0xbf], // s_cbranch_scc1 -3
        ],
        3,
        |h| h.wave.sgpr[4] = 0,
    );
    assert_eq!(h.s(4), 10);
    assert!(!h.wave.scc);
    assert_eq!(st.wave_instructions, 10 * 3 + 1);
}

#[test]
fn f32_results_and_nan_rules_match_the_isa() {
    let vals: [(u32, u32, u32); 8] = [
        (0x3f80_0000, 0x4000_0000, 0x4040_0000), // 1, 2, 3
        (0x7f80_0000, 0x0000_0000, 0x3f80_0000), // inf * 0: invalid
        (0x7f80_0001, 0x7fc0_0002, 0x0000_0000), // sNaN first: quieted
        (0x3f80_0000, 0xff80_1234, 0x7f80_0000), // second NaN, sign kept
        (0x0000_0001, 0x3f00_0000, 0x8000_0000), // denormal * 0.5 (kept: MODE keeps them)
        (0x7f80_0000, 0xff80_0000, 0x7f80_0000), // inf + -inf: invalid
        (0x3f80_0000, 0x3f80_0000, 0x7fc0_0009), // NaN addend only
        (0xc1a0_0000, 0x4120_0000, 0x4316_0000), // -20 * 10 + 150
    ];
    let (h, _) = run(
        false,
        &[
            &[0x00, 0x03, 0x04, 0x06], // v_add_f32_e32 v2, v0, v1
            &[0x00, 0x03, 0x06, 0x10], // v_mul_f32_e32 v3, v0, v1
            &[0x04, 0x00, 0x13, 0xd6, 0x00, 0x03, 0x0a, 0x04], // v_fma_f32 v4, v0, v1, v2
            &[0x00, 0x03, 0x0a, 0x56], // v_fmac_f32_e32 v5, v0, v1
            &[0x00, 0x03, 0x0c, 0x08], // v_sub_f32_e32 v6, v0, v1
        ],
        5,
        |h| {
            // MODE: round to nearest even, f32/f64 denormals kept, DX10_CLAMP, IEEE.
            h.wave.hw.mode = 0x3f0;
            h.set_v(0, |l| vals[l % 8].0);
            h.set_v(1, |l| vals[l % 8].1);
            h.set_v(5, |l| vals[l % 8].2);
        },
    );
    let f = f32::from_bits;
    // RDNA3 NaN rule (soft::NanPolicy::RDNA3): the first NaN operand, quieted; an invalid
    // operation gives the default NaN 0xffc00000.
    let nan = |xs: &[u32]| -> Option<u32> {
        xs.iter()
            .find(|&&x| f(x).is_nan())
            .map(|&x| x | 0x0040_0000)
    };
    let res = |r: f32, xs: &[u32]| -> u32 {
        if r.is_nan() {
            nan(xs).unwrap_or(0xffc0_0000)
        } else {
            r.to_bits()
        }
    };
    for l in 0..32 {
        let (x, y, z) = vals[l % 8];
        let add = res(f(x) + f(y), &[x, y]);
        assert_eq!(h.v(2, l), add, "v_add_f32 lane {l}");
        assert_eq!(h.v(3, l), res(f(x) * f(y), &[x, y]), "v_mul_f32 lane {l}");
        assert_eq!(
            h.v(4, l),
            res(f(x).mul_add(f(y), f(add)), &[x, y, add]),
            "v_fma_f32 lane {l}"
        );
        assert_eq!(
            h.v(5, l),
            res(f(x).mul_add(f(y), f(z)), &[x, y, z]),
            "v_fmac_f32 lane {l}"
        );
        assert_eq!(h.v(6, l), res(f(x) - f(y), &[x, y]), "v_sub_f32 lane {l}");
    }
}

#[test]
fn f32_ops_under_a_flushing_mode_stay_interpreted() {
    // MODE with f32 denormals flushed (the kernel-descriptor default): the block holding
    // v_mul_f32 is compiled but not entered; the interpreter flushes 0x1 * 0.5 to +0.
    let (h, _) = run(
        false,
        &[
            &[0x00, 0x03, 0x06, 0x10], // v_mul_f32_e32 v3, v0, v1
        ],
        1,
        |h| {
            h.wave.hw.mode = 0x3c0;
            h.set_v(0, |_| 0x0000_0001);
            h.set_v(1, |_| 0x3f00_0000);
        },
    );
    assert_eq!(h.v(3, 0), 0);
}

/// Inputs of the float compare and VOPD tests: ordered pairs, equal zeros of both signs,
/// infinities and NaNs.
const FPAIRS: [(u32, u32); 8] = [
    (0x3f80_0000, 0x4000_0000), // 1 < 2
    (0x4000_0000, 0x3f80_0000), // 2 > 1
    (0x8000_0000, 0x0000_0000), // -0 == +0
    (0x7fc0_0000, 0x3f80_0000), // NaN, 1: unordered
    (0x3f80_0000, 0x7f80_0001), // 1, sNaN: unordered
    (0xff80_0000, 0x7f80_0000), // -inf < inf
    (0x4040_0000, 0x4040_0000), // 3 == 3
    (0x0000_0001, 0x8000_0001), // denormals: +d > -d
];

#[test]
fn f32_compares_follow_ieee_ordering() {
    let (h, _) = run(
        false,
        &[
            &[0x00, 0x03, 0x22, 0x7c], // v_cmp_lt_f32_e32 vcc_lo, v0, v1
            &[0x06, 0x00, 0x1a, 0xd4, 0x00, 0x03, 0x02, 0x00], // v_cmp_nlg_f32_e64 s6, v0, v1
            &[0x07, 0x00, 0x18, 0xd4, 0x00, 0x03, 0x02, 0x00], // v_cmp_u_f32_e64 s7, v0, v1
            &[0x00, 0x03, 0x3a, 0x7d], // v_cmpx_neq_f32_e32 v0, v1
        ],
        4,
        |h| {
            h.wave.hw.mode = 0x3f0;
            h.set_v(0, |l| FPAIRS[l % 8].0);
            h.set_v(1, |l| FPAIRS[l % 8].1);
        },
    );
    let f = f32::from_bits;
    let mask = |c: &dyn Fn(f32, f32) -> bool| {
        (0..32).fold(0u64, |m, l| {
            let (x, y) = FPAIRS[l % 8];
            m | (c(f(x), f(y)) as u64) << l
        })
    };
    // RDNA3 ISA VOPC: LT ordered less; NLG = !(lt || gt) (true when unordered); U unordered;
    // NEQ = !(a == b) (true when unordered). -0 == +0.
    assert_eq!(h.wave.vcc(), mask(&|x, y| x < y));
    // (written as the ISA defines it, not simplified to `x == y || unordered`)
    #[allow(clippy::nonminimal_bool, clippy::double_comparisons)]
    let nlg = mask(&|x, y| !(x < y || x > y));
    assert_eq!(h.s(6) as u64, nlg);
    assert_eq!(h.s(7) as u64, mask(&|x, y| x.is_nan() || y.is_nan()));
    assert_eq!(h.wave.exec(), mask(&|x, y| x != y));
}

#[test]
fn vopd_reads_every_source_before_writing() {
    let (h, _) = run(
        false,
        &[
            // v_dual_mul_f32 v2, v0, v1 :: v_dual_add_f32 v3, v10, v11
            &[0x00, 0x03, 0xc8, 0xc8, 0x0a, 0x17, 0x02, 0x02],
            // v_dual_cndmask_b32 v6, v0, v1 :: v_dual_fmaak_f32 v7, v10, v11, 0x40400000
            &[
                0x00, 0x03, 0x42, 0xca, 0x0a, 0x17, 0x06, 0x06, 0x00, 0x00, 0x40, 0x40,
            ],
            // v_dual_subrev_f32 v8, v0, v1 :: v_dual_add_nc_u32 v9, v10, v11
            &[0x00, 0x03, 0xa0, 0xc9, 0x0a, 0x17, 0x08, 0x08],
            // v_dual_fmac_f32 v4, v0, v1 :: v_dual_mov_b32 v5, s4
            &[0x00, 0x03, 0x10, 0xc8, 0x04, 0x00, 0x04, 0x04],
        ],
        4,
        |h| {
            h.wave.hw.mode = 0x3f0;
            h.set_v(0, |l| FPAIRS[l % 8].0);
            h.set_v(1, |l| FPAIRS[l % 8].1);
            h.set_v(10, |l| FPAIRS[(l + 3) % 8].1);
            h.set_v(11, |l| FPAIRS[(l + 5) % 8].0);
            h.set_v(4, |l| l as u32 * 0x0100_0000);
            h.wave.sgpr[4] = 0x1234_5678;
            h.wave.set_vcc(0x5555_aaaa);
            h.wave.set_exec(0xffff_fff0);
        },
    );
    let f = f32::from_bits;
    let res = |r: f32, xs: &[u32]| -> u32 {
        if r.is_nan() {
            xs.iter()
                .find(|&&x| f(x).is_nan())
                .map(|&x| x | 0x0040_0000)
                .unwrap_or(0xffc0_0000)
        } else {
            r.to_bits()
        }
    };
    for l in 4..32 {
        let (x, y) = FPAIRS[l % 8];
        let (p, q) = (FPAIRS[(l + 3) % 8].1, FPAIRS[(l + 5) % 8].0);
        assert_eq!(h.v(2, l), res(f(x) * f(y), &[x, y]), "mul lane {l}");
        assert_eq!(h.v(3, l), res(f(p) + f(q), &[p, q]), "add lane {l}");
        let cnd = if 0x5555_aaaau32 >> l & 1 != 0 { y } else { x };
        assert_eq!(h.v(6, l), cnd, "cndmask lane {l}");
        let k = 0x4040_0000;
        assert_eq!(
            h.v(7, l),
            res(f(p).mul_add(f(q), f(k)), &[p, q, k]),
            "fmaak lane {l}"
        );
        assert_eq!(h.v(8, l), res(f(y) - f(x), &[y, x]), "subrev lane {l}");
        assert_eq!(h.v(9, l), p.wrapping_add(q), "add_nc lane {l}");
        let d = l as u32 * 0x0100_0000;
        assert_eq!(
            h.v(4, l),
            res(f(x).mul_add(f(y), f(d)), &[x, y, d]),
            "fmac lane {l}"
        );
        assert_eq!(h.v(5, l), 0x1234_5678);
    }
}

#[test]
fn carries_chain_through_vcc_and_sgpr_masks() {
    let exec = 0xffff_7ffeu64;
    let (h, _) = run(
        false,
        &[
            &[0x02, 0x08, 0x00, 0xd7, 0x00, 0x03, 0x02, 0x00], // v_add_co_u32 v2, s8, v0, v1
            &[0x00, 0x03, 0x06, 0x40], // v_add_co_ci_u32_e32 v3, vcc_lo, v0, v1, vcc_lo
            &[0x04, 0x09, 0x01, 0xd7, 0x00, 0x03, 0x02, 0x00], // v_sub_co_u32 v4, s9, v0, v1
            &[0x00, 0x03, 0x0a, 0x44], // v_subrev_co_ci_u32_e32 v5, vcc_lo, v0, v1, vcc_lo
            &[0x06, 0x0a, 0x21, 0xd5, 0x00, 0x03, 0x26, 0x00], // v_sub_co_ci_u32_e64 v6, s10, v0, v1, s9
            &[0x07, 0x00, 0x16, 0xd6, 0x00, 0x03, 0x1e, 0x02], // v_alignbit_b32 v7, v0, v1, 7
        ],
        6,
        |h| {
            h.set_v(0, |l| if l.is_multiple_of(4) { u32::MAX } else { a(l) });
            h.set_v(1, |l| if l.is_multiple_of(4) { 1 } else { b(l) });
            for r in 2..8 {
                h.set_v(r, |_| OLD);
            }
            h.wave.set_vcc(0xaaaa_5555);
            h.wave.set_exec(exec);
        },
    );
    let x = |l: usize| if l.is_multiple_of(4) { u32::MAX } else { a(l) };
    let y = |l: usize| if l.is_multiple_of(4) { 1 } else { b(l) };
    // RDNA3 ISA VOP3SD / VOP2 carry ops: D = S0 + S1 (+ VCC[lane]); the carry-out mask has the
    // carry of each active lane and 0 for inactive lanes.
    let mut s8 = 0u64;
    let vcc_in = 0xaaaa_5555u64;
    let mut vcc1 = 0u64;
    let mut s9 = 0u64;
    let mut vcc2 = 0u64;
    let mut s10 = 0u64;
    for l in 0..32 {
        if exec >> l & 1 == 0 {
            continue;
        }
        let (p, q) = (x(l) as u64, y(l) as u64);
        s8 |= ((p + q) >> 32) << l;
        let ci = vcc_in >> l & 1;
        vcc1 |= ((p + q + ci) >> 32) << l;
        s9 |= ((q > p) as u64) << l;
        let ci2 = vcc1 >> l & 1;
        vcc2 |= ((p + ci2 > q) as u64) << l;
        let bi = s9 >> l & 1;
        s10 |= ((q + bi > p) as u64) << l;
    }
    assert_eq!(h.s(8) as u64, s8);
    assert_eq!(h.s(9) as u64, s9);
    assert_eq!(h.wave.vcc(), vcc2);
    assert_eq!(h.s(10) as u64, s10);
    for l in 0..32 {
        if exec >> l & 1 == 0 {
            for r in 2..8 {
                assert_eq!(h.v(r, l), OLD);
            }
            continue;
        }
        let (p, q) = (x(l), y(l));
        assert_eq!(h.v(2, l), p.wrapping_add(q));
        assert_eq!(
            h.v(3, l),
            p.wrapping_add(q).wrapping_add((vcc_in >> l) as u32 & 1)
        );
        assert_eq!(h.v(4, l), p.wrapping_sub(q));
        assert_eq!(
            h.v(5, l),
            q.wrapping_sub(p).wrapping_sub((vcc1 >> l) as u32 & 1)
        );
        assert_eq!(
            h.v(6, l),
            p.wrapping_sub(q).wrapping_sub((s9 >> l) as u32 & 1)
        );
        // v_alignbit_b32: ({S0, S1} >> S2[4:0])[31:0].
        assert_eq!(
            h.v(7, l),
            ((p as u64) << 32 | q as u64).wrapping_shr(7) as u32
        );
    }
}

/// Lane masks a VALU instruction computed and a later one reads (the compiled code reuses the
/// vectors it computed them from, `codegen::write_known_mask`): in wave64, a float compare's
/// VCC read by v_cndmask, a carry-out in s[8:9] read as the carry-in of v_add_co_ci, whose
/// carry-out s[10:11] v_cndmask reads, and v_cmpx's EXEC under which v_add_nc runs.
#[test]
fn wave64_masks_from_compares_and_carries_feed_later_instructions() {
    let exec = 0xf0f0_ff00_ffff_0f0fu64;
    let (h, _) = run(
        true,
        &[
            &[0x00, 0x03, 0x22, 0x7c], // v_cmp_lt_f32_e32 vcc, v0, v1
            &[0x00, 0x03, 0x20, 0x02], // v_cndmask_b32_e32 v16, v0, v1, vcc
            &[0x02, 0x08, 0x00, 0xd7, 0x00, 0x03, 0x02, 0x00], // v_add_co_u32 v2, s[8:9], v0, v1
            &[0x03, 0x0a, 0x20, 0xd5, 0x00, 0x03, 0x22, 0x00], // v_add_co_ci_u32_e64 v3, s[10:11], v0, v1, s[8:9]
            &[0x11, 0x00, 0x01, 0xd5, 0x00, 0x03, 0x2a, 0x00], // v_cndmask_b32_e64 v17, v0, v1, s[10:11]
            &[0x7e, 0x00, 0xcc, 0xd4, 0x00, 0x03, 0x02, 0x00], // v_cmpx_gt_u32_e64 v0, v1
            &[0x00, 0x03, 0x08, 0x4a],                         // v_add_nc_u32_e32 v4, v0, v1
        ],
        7,
        |h| {
            h.set_v(0, a);
            h.set_v(1, b);
            for r in [2, 3, 4, 16, 17] {
                h.set_v(r, |_| OLD);
            }
            h.wave.set_exec(exec);
        },
    );
    // VOPC and carry-outs: the active lanes' results, 0 for inactive lanes; v_cndmask_b32:
    // D = mask[lane] ? S1 : S0; v_add_co_ci_u32: D = S0 + S1 + carry-in, carry-out the 33rd
    // bit (RDNA3 ISA, VOPC, VOP2 and VOP3SD).
    let on = |l: usize| exec >> l & 1 != 0;
    let mask =
        |f: &dyn Fn(usize) -> bool| (0..64).fold(0u64, |m, l| m | ((on(l) && f(l)) as u64) << l);
    let lt = mask(&|l| f32::from_bits(a(l)) < f32::from_bits(b(l)));
    let c1 = mask(&|l| (a(l) as u64 + b(l) as u64) >> 32 != 0);
    let c2 = mask(&|l| (a(l) as u64 + b(l) as u64 + (c1 >> l & 1)) >> 32 != 0);
    let gt = mask(&|l| a(l) > b(l));
    assert_eq!(h.wave.vcc(), lt);
    assert_eq!(h.s(8) as u64 | (h.s(9) as u64) << 32, c1);
    assert_eq!(h.s(10) as u64 | (h.s(11) as u64) << 32, c2);
    assert_eq!(h.wave.exec(), gt);
    let pick = |m: u64, l: usize| if m >> l & 1 != 0 { b(l) } else { a(l) };
    for l in 0..64 {
        let old = |v: u32| if on(l) { v } else { OLD };
        assert_eq!(h.v(16, l), old(pick(lt, l)), "v16 lane {l}");
        assert_eq!(h.v(17, l), old(pick(c2, l)), "v17 lane {l}");
        let sum = a(l).wrapping_add(b(l));
        assert_eq!(
            h.v(3, l),
            old(sum.wrapping_add((c1 >> l) as u32 & 1)),
            "v3 lane {l}"
        );
        let v4 = if gt >> l & 1 != 0 { sum } else { OLD };
        assert_eq!(h.v(4, l), v4, "v4 lane {l}");
    }
}

#[test]
fn shifts_of_vgpr_pairs() {
    let exec = 0x7fff_fffeu64;
    let v = |l: usize| (a(l) as u64) << 32 | b(l) as u64;
    let (h, _) = run(
        false,
        &[
            &[0x02, 0x00, 0x3c, 0xd7, 0x83, 0x00, 0x02, 0x00], // v_lshlrev_b64 v[2:3], 3, v[0:1]
            &[0x04, 0x00, 0x3d, 0xd7, 0xa3, 0x00, 0x02, 0x00], // v_lshrrev_b64 v[4:5], 35, v[0:1]
            &[0x06, 0x00, 0x3e, 0xd7, 0x87, 0x00, 0x02, 0x00], // v_ashrrev_i64 v[6:7], 7, v[0:1]
            &[0x00, 0x00, 0x3c, 0xd7, 0xa8, 0x00, 0x02, 0x00], // v_lshlrev_b64 v[0:1], 40, v[0:1]
        ],
        4,
        |h| {
            h.set_v(0, b);
            h.set_v(1, a);
            for r in 2..8 {
                h.set_v(r, |_| OLD);
            }
            h.wave.set_exec(exec);
        },
    );
    // RDNA3 ISA: D.u64 = S1.u64 << S0[5:0] (>> for lshrrev, arithmetic for ashrrev).
    let pair = |r: usize, l: usize| (h.v(r + 1, l) as u64) << 32 | h.v(r, l) as u64;
    for l in 0..32 {
        if exec >> l & 1 == 0 {
            assert_eq!(pair(2, l), (OLD as u64) << 32 | OLD as u64);
            assert_eq!(pair(0, l), v(l));
            continue;
        }
        assert_eq!(pair(2, l), v(l) << 3, "lshl lane {l}");
        assert_eq!(pair(4, l), v(l) >> 35, "lshr lane {l}");
        assert_eq!(pair(6, l), ((v(l) as i64) >> 7) as u64, "ashr lane {l}");
        assert_eq!(pair(0, l), v(l) << 40, "in place lane {l}");
    }
}

#[test]
fn conversions_between_f32_and_integers() {
    let ints: [u32; 8] = [
        0,
        1,
        u32::MAX,
        0x8000_0000,
        0x7fff_ffff,
        0x0100_0001, // 2^24 + 1: rounds to even
        0x0100_0003, // 2^24 + 3: rounds up
        0xfeff_ffff,
    ];
    let floats: [u32; 8] = [
        0x7fc0_0000, // NaN -> 0
        0xbf80_0000, // -1
        0x4f80_0000, // 2^32: saturates
        0xcf00_0001, // below i32::MIN: saturates
        0x3fff_ffff, // 1.99...: truncates to 1
        0xff80_0000, // -inf
        0x4effffff,  // just below 2^31
        0x0000_0001, // denormal: 0
    ];
    let (h, _) = run(
        false,
        &[
            &[0x00, 0x0b, 0x04, 0x7e], // v_cvt_f32_i32_e32 v2, v0
            &[0x00, 0x0d, 0x06, 0x7e], // v_cvt_f32_u32_e32 v3, v0
            &[0x01, 0x11, 0x08, 0x7e], // v_cvt_i32_f32_e32 v4, v1
            &[0x01, 0x0f, 0x0a, 0x7e], // v_cvt_u32_f32_e32 v5, v1
        ],
        4,
        |h| {
            h.wave.hw.mode = 0x3f0;
            h.set_v(0, |l| ints[l % 8]);
            h.set_v(1, |l| floats[l % 8]);
        },
    );
    // RDNA3 ISA: i32/u32 -> f32 rounded per MODE (nearest even); f32 -> i32/u32 truncated,
    // out-of-range values clamped, NaN 0.
    for l in 0..32 {
        let (i, f) = (ints[l % 8], f32::from_bits(floats[l % 8]));
        assert_eq!(
            h.v(2, l),
            (i as i32 as f32).to_bits(),
            "cvt_f32_i32 lane {l}"
        );
        assert_eq!(h.v(3, l), (i as f32).to_bits(), "cvt_f32_u32 lane {l}");
        assert_eq!(h.v(4, l), f as i32 as u32, "cvt_i32_f32 lane {l}");
        assert_eq!(h.v(5, l), f as u32, "cvt_u32_f32 lane {l}");
    }
}

#[test]
fn f64_arithmetic_conversions_and_nan_rules() {
    // (S0, S1, S2) per lane; RDNA3 ISA V_ADD_F64 / V_MUL_F64 / V_FMA_F64 are IEEE-754 binary64
    // operations; a NaN operand propagates quieted (the first NaN in operand order), an invalid
    // operation gives the default NaN 0xfff8000000000000 (RDNA3 ISA, "NaN handling").
    const SNAN: u64 = 0x7ff0_0000_0000_0001;
    const QNAN_B: u64 = 0xfff8_0000_0000_1234;
    const INF: u64 = 0x7ff0_0000_0000_0000;
    const MIN_SUB: u64 = 1; // the smallest denormal
    let vals: [(u64, u64, u64); 8] = [
        (1.5f64.to_bits(), 2.25f64.to_bits(), 0.125f64.to_bits()),
        (SNAN, QNAN_B, 0),
        (0, QNAN_B, SNAN),
        (INF, INF | 1 << 63, 0),
        (INF, 0, 1.0f64.to_bits()),
        (MIN_SUB, MIN_SUB, 0),
        ((-3.75f64).to_bits(), 1e300f64.to_bits(), 1e300f64.to_bits()),
        (0x8000_0000_0000_0000, 0, 0),
    ];
    let (h, _) = run(
        false,
        &[
            &[0x0a, 0x00, 0x27, 0xd7, 0x02, 0x09, 0x02, 0x00], // v_add_f64 v[10:11], v[2:3], v[4:5]
            &[0x0c, 0x00, 0x28, 0xd7, 0x02, 0x09, 0x02, 0x00], // v_mul_f64 v[12:13], v[2:3], v[4:5]
            &[0x0e, 0x00, 0x14, 0xd6, 0x02, 0x09, 0x1a, 0x04], // v_fma_f64 v[14:15], v[2:3], v[4:5], v[6:7]
            &[0x01, 0x09, 0x20, 0x7e],                         // v_cvt_f64_i32_e32 v[16:17], v1
            &[0x01, 0x2d, 0x24, 0x7e],                         // v_cvt_f64_u32_e32 v[18:19], v1
            &[0x02, 0x1f, 0x28, 0x7e],                         // v_cvt_f32_f64_e32 v20, v[2:3]
            &[0x02, 0x07, 0x2a, 0x7e],                         // v_cvt_i32_f64_e32 v21, v[2:3]
            &[0x01, 0x21, 0x2c, 0x7e],                         // v_cvt_f64_f32_e32 v[22:23], v1
            &[0x18, 0x00, 0x27, 0xd7, 0xf2, 0x04, 0x02, 0x00], // v_add_f64 v[24:25], 1.0, v[2:3]
            &[0x1a, 0x00, 0x28, 0xd7, 0x04, 0x04, 0x02, 0x00], // v_mul_f64 v[26:27], s[4:5], v[2:3]
            &[0x1c, 0x00, 0x2b, 0xd7, 0x02, 0x85, 0x01, 0x20], // v_ldexp_f64 v[28:29], -v[2:3], -2
            &[0x1e, 0x01, 0x14, 0xd6, 0x02, 0x09, 0x1a, 0xa4], // v_fma_f64 v[30:31], -|v[2:3]|, v[4:5], -v[6:7]
            // v_ldexp_f64 v[32:33], v[2:3], 0x7d0 (2^2000 is no f64: interpreted)
            &[
                0x20, 0x00, 0x2b, 0xd7, 0x02, 0xff, 0x01, 0x00, 0xd0, 0x07, 0x00, 0x00,
            ],
        ],
        12,
        |h| {
            // MODE: round to nearest even, f32 and f64 denormals kept (FP_DENORM = 0xf).
            h.wave.hw.mode = 0xf0;
            let v = |l: usize| vals[l % 8];
            h.set_v(2, |l| v(l).0 as u32);
            h.set_v(3, |l| (v(l).0 >> 32) as u32);
            h.set_v(4, |l| v(l).1 as u32);
            h.set_v(5, |l| (v(l).1 >> 32) as u32);
            h.set_v(6, |l| v(l).2 as u32);
            h.set_v(7, |l| (v(l).2 >> 32) as u32);
            // Integers and f32 bit patterns (NaN, -0, denormal, large) for the conversions.
            h.set_v(1, |l| {
                [
                    7,
                    u32::MAX,
                    0x7fa0_0001,
                    0x8000_0000,
                    1,
                    0xff80_0000,
                    3,
                    0x4f80_0000,
                ][l % 8]
            });
            h.wave.sgpr[4] = 0;
            h.wave.sgpr[5] = 0x4000_0000; // 2.0
            for r in 10..34 {
                h.set_v(r, |_| OLD);
            }
        },
    );
    let v64 = |r: usize, l: usize| h.v(r, l) as u64 | (h.v(r + 1, l) as u64) << 32;
    for base in [0, 8, 16, 24] {
        assert_eq!(v64(10, base), 3.75f64.to_bits());
        assert_eq!(v64(12, base), 3.375f64.to_bits());
        assert_eq!(v64(14, base), 3.5f64.to_bits());
        // First NaN operand quieted, in operand order.
        assert_eq!(v64(10, base + 1), 0x7ff8_0000_0000_0001);
        assert_eq!(v64(14, base + 2), QNAN_B);
        // inf + -inf and inf * 0: invalid, the default NaN.
        assert_eq!(v64(10, base + 3), 0xfff8_0000_0000_0000);
        assert_eq!(v64(12, base + 4), 0xfff8_0000_0000_0000);
        // Denormals are kept: 2 * the smallest denormal.
        assert_eq!(v64(10, base + 5), 2);
        // v_cvt_f64_i32 of -1, v_cvt_f64_u32 of 0xffffffff.
        assert_eq!(v64(16, base + 1), (-1.0f64).to_bits());
        assert_eq!(v64(18, base + 1), 4294967295.0f64.to_bits());
        // v_cvt_f64_f32 of an f32 signaling NaN: quieted, payload kept in the top bits.
        assert_eq!(v64(22, base + 2), 0x7ffc_0000_2000_0000);
        // v_cvt_i32_f64 saturates; NaN converts to 0.
        assert_eq!(h.v(21, base + 6), -3i32 as u32);
        assert_eq!(h.v(21, base + 1), 0);
        assert_eq!(h.v(20, base), 1.5f32.to_bits());
        // 1.0 + 1.5 and 2.0 (s[4:5]) * 1.5.
        assert_eq!(v64(24, base), 2.5f64.to_bits());
        assert_eq!(v64(26, base), 3.0f64.to_bits());
        // ldexp(-1.5, -2); ldexp of the smallest denormal by -2 rounds to (-)0 (a quarter ulp).
        assert_eq!(v64(28, base), (-0.375f64).to_bits());
        assert_eq!(v64(28, base + 5), 0x8000_0000_0000_0000);
        // -|1.5| * 2.25 - 0.125; and the interpreted ldexp overflowing to +inf.
        assert_eq!(v64(30, base), (-3.5f64).to_bits());
        assert_eq!(v64(32, base), INF);
    }
}

/// `v_mad_u64_u32 vdst, sdst, src0, src1, src2` (VOP3SD, opcode 0x2fe; fields per the RDNA3 ISA
/// guide's VOP3SD encoding: VDST [7:0], SDST [14:8], OP [25:16]; SRC0/1/2 at [8:0], [17:9],
/// [26:18] of the second dword). Operand codes: SGPR n, 124 NULL, 128 + k inline k, 256 + n VGPR.
fn mad_u64_u32(vdst: u32, sdst: u32, s0: u32, s1: u32, s2: u32) -> [u8; 8] {
    let w0 = 0xd6fe_0000u32 | sdst << 8 | vdst;
    let w1 = s0 | s1 << 9 | s2 << 18;
    let mut b = [0u8; 8];
    b[..4].copy_from_slice(&w0.to_le_bytes());
    b[4..].copy_from_slice(&w1.to_le_bytes());
    b
}

#[test]
fn mad_u64_u32_sums_65_bits_and_writes_the_carry_mask() {
    const V: u32 = 256;
    for wave64 in [false, true] {
        let exec = if wave64 {
            0xfff0_7fff_ffff_fffeu64
        } else {
            0x7fff_fff3u64
        };
        let lanes = if wave64 { 64 } else { 32 };
        // c = a big 64-bit addend in half the lanes so that about half of them carry out.
        let c = |l: usize| -> u64 {
            let hi = if l.is_multiple_of(2) {
                0xffff_fff0
            } else {
                l as u32
            };
            (hi as u64) << 32 | b(l) as u64
        };
        let i1 = mad_u64_u32(4, 10, V, V + 1, V + 2); // v[4:5], s10(/s[10:11]), v0, v1, v[2:3]
        let i2 = mad_u64_u32(6, 124, 20, V + 1, 128 + 7); // v[6:7], null, s20, v1, 7
        let i3 = mad_u64_u32(2, 106, V, 128 + 64, V + 2); // v[2:3], vcc, v0, 64, v[2:3] (in place)
        let (h, _) = run(wave64, &[&i1, &i2, &i3], 3, |h| {
            h.set_v(0, a);
            h.set_v(1, b);
            h.set_v(2, |l| c(l) as u32);
            h.set_v(3, |l| (c(l) >> 32) as u32);
            for r in 4..8 {
                h.set_v(r, |_| OLD);
            }
            h.wave.sgpr[20] = 0xfedc_ba98;
            h.wave
                .set_vcc(0x5555_5555_5555_5555 & if wave64 { u64::MAX } else { 0xffff_ffff });
            h.wave.set_exec(exec);
        });
        // RDNA3 ISA, V_MAD_U64_U32: {D1.u1, D0.u64} = 65-bit(S0.u32 * S1.u32 + S2.u64); the
        // carry mask has bit 64 of each active lane's sum and 0 for inactive lanes.
        let pair = |r: usize, l: usize| (h.v(r + 1, l) as u64) << 32 | h.v(r, l) as u64;
        let (mut carry1, mut carry3) = (0u64, 0u64);
        for l in 0..lanes {
            let old = (OLD as u64) << 32 | OLD as u64;
            if exec >> l & 1 == 0 {
                assert_eq!(pair(4, l), old, "lane {l}");
                assert_eq!(pair(6, l), old, "lane {l}");
                assert_eq!(pair(2, l), c(l), "lane {l}");
                continue;
            }
            let s1 = a(l) as u128 * b(l) as u128 + c(l) as u128;
            assert_eq!(pair(4, l), s1 as u64, "wave64={wave64} lane {l}");
            carry1 |= ((s1 >> 64) as u64) << l;
            let s2 = 0xfedc_ba98u128 * b(l) as u128 + 7;
            assert_eq!(pair(6, l), s2 as u64, "lane {l}");
            let s3 = a(l) as u128 * 64 + c(l) as u128;
            assert_eq!(pair(2, l), s3 as u64, "lane {l}");
            carry3 |= ((s3 >> 64) as u64) << l;
        }
        assert!(
            carry1 != 0 && carry1 != exec,
            "the test covers both carry values"
        );
        let s10 = if wave64 {
            (h.s(11) as u64) << 32 | h.s(10) as u64
        } else {
            h.s(10) as u64
        };
        assert_eq!(s10, carry1, "wave64={wave64}");
        assert_eq!(h.wave.vcc(), carry3, "wave64={wave64}");
    }
}

#[test]
fn self_loops_stop_exactly_at_the_instruction_limit() {
    // v_add_nc_u32_e32 v1, v1, v0; s_add_i32 s4, s4, 1; s_branch -3 (back to the v_add): a
    // runaway loop whose compiled block loops inside the compiled code. Under every limit, in
    // particular ones that end mid-iteration, both engines stop at the same instruction with
    // the same error, counts and registers.
    wavesim_rdna3::jit::verify_ir(true);
    let prog = program(&[
        &[0x01, 0x01, 0x02, 0x4a],
        &[0x04, 0x81, 0x04, 0x81],
        &[0xfd, 0xff, 0xa0, 0xbf],
    ]);
    for wave64 in [false, true] {
        for limit in [2u64, 3, 100, 1001, 10_000, 40_002] {
            let go = |engine: Engine| {
                let mut h = Harness::new(wave64);
                h.set_v(0, |l| l as u32 + 1);
                h.set_v(1, |_| 0);
                h.cfg.engine = engine;
                h.wave.pc = 0;
                let r = run_wave_alone(&mut h.wave, &mut h.lds, &prog, &h.mem, &h.cfg, limit);
                (format!("{r:?}"), h)
            };
            let (jr, j) = go(Engine::Jit);
            let (ir, i) = go(Engine::Interp);
            assert!(ir.contains("Err"), "the loop never ends: {ir}");
            // Elapsed times differ; the error and everything else must not.
            assert_eq!(jr.split("elapsed").next(), ir.split("elapsed").next());
            assert_eq!(format!("{:?}", j.wave), format!("{:?}", i.wave));
            // s4 counts the s_adds the limit let through: one per 3 instructions, the v_add
            // of an iteration coming first (RDNA3 ISA: every instruction counts once).
            assert_eq!(j.s(4) as u64, (limit + 1) / 3, "limit {limit}");
            assert_eq!(j.wave.wave_insts, limit, "limit {limit}");
        }
    }
}

#[test]
fn f32_min_max_follow_the_isa_nan_and_zero_rules() {
    // RDNA3 ISA V_MIN_F32 / V_MAX_F32 pseudocode: with MODE.IEEE a signalling NaN operand
    // (S0 first) returns itself quieted; otherwise a NaN operand returns the other operand
    // (S1's NaN checked first); else the smaller / larger value, -0 below +0. Denormal inputs
    // and results are flushed to zeros of their sign when MODE.FP_DENORM flushes f32.
    // (S0, S1, min, max) under MODE 0x3f0 (IEEE, f32 denormals kept) and under 0x1c0 (not
    // IEEE, f32 denormals flushed).
    let ieee_kept: [(u32, u32, u32, u32); 8] = [
        (0x3f80_0000, 0x4000_0000, 0x3f80_0000, 0x4000_0000), // 1, 2
        (0x8000_0000, 0x0000_0000, 0x8000_0000, 0x0000_0000), // -0, +0
        (0x0000_0000, 0x8000_0000, 0x8000_0000, 0x0000_0000), // +0, -0
        (0x7f80_0001, 0x3f80_0000, 0x7fc0_0001, 0x7fc0_0001), // sNaN S0: quieted
        (0x3f80_0000, 0xff80_0002, 0xffc0_0002, 0xffc0_0002), // sNaN S1: quieted
        (0x7fc0_0003, 0x4040_0000, 0x4040_0000, 0x4040_0000), // qNaN S0: S1
        (0x4000_0000, 0xffc0_0004, 0x4000_0000, 0x4000_0000), // qNaN S1: S0
        (0x0000_0001, 0x8000_0001, 0x8000_0001, 0x0000_0001), // denormals kept
    ];
    let flushed: [(u32, u32, u32, u32); 8] = [
        ieee_kept[0],
        ieee_kept[1],
        ieee_kept[2],
        (0x7f80_0001, 0x3f80_0000, 0x3f80_0000, 0x3f80_0000), // sNaN S0 (not IEEE): S1
        (0x3f80_0000, 0xff80_0002, 0x3f80_0000, 0x3f80_0000), // sNaN S1 (not IEEE): S0
        ieee_kept[5],
        ieee_kept[6],
        (0x0000_0001, 0x8000_0001, 0x8000_0000, 0x0000_0000), // +0 and -0 after flushing
    ];
    for (mode, vals) in [(0x3f0u32, ieee_kept), (0x1c0, flushed)] {
        for wave64 in [false, true] {
            let (h, _) = run(
                wave64,
                &[
                    &[0x00, 0x03, 0x04, 0x1e], // v_min_f32_e32 v2, v0, v1
                    &[0x00, 0x03, 0x06, 0x20], // v_max_f32_e32 v3, v0, v1
                ],
                2,
                |h| {
                    h.wave.hw.mode = mode;
                    h.set_v(0, |l| vals[l % 8].0);
                    h.set_v(1, |l| vals[l % 8].1);
                },
            );
            for l in 0..h.wave.lanes() {
                let (_, _, mn, mx) = vals[l % 8];
                assert_eq!(h.v(2, l), mn, "v_min_f32 MODE {mode:#x} lane {l}");
                assert_eq!(h.v(3, l), mx, "v_max_f32 MODE {mode:#x} lane {l}");
            }
        }
    }
}

#[test]
fn f64_min_max_follow_the_isa_nan_and_zero_rules() {
    // RDNA3 ISA V_MIN_F64 / V_MAX_F64: the V_MIN_F32 / V_MAX_F32 rules on f64 (see
    // `f32_min_max_follow_the_isa_nan_and_zero_rules`), flushing per MODE's f64 field.
    // (S0, S1, min, max) under MODE 0x3f0 (IEEE, f64 denormals kept) and 0x130 (not IEEE, f64
    // denormals flushed, f32 kept).
    let ieee_kept: [(u64, u64, u64, u64); 8] = [
        (0x3ff0 << 48, 0x4000 << 48, 0x3ff0 << 48, 0x4000 << 48), // 1, 2
        (1 << 63, 0, 1 << 63, 0),                                 // -0, +0
        (0, 1 << 63, 1 << 63, 0),                                 // +0, -0
        (
            0x7ff0 << 48 | 1,
            0x3ff0 << 48,
            0x7ff8 << 48 | 1,
            0x7ff8 << 48 | 1,
        ), // sNaN S0
        (
            0x3ff0 << 48,
            0xfff0 << 48 | 2,
            0xfff8 << 48 | 2,
            0xfff8 << 48 | 2,
        ), // sNaN S1
        (0x7ff8 << 48 | 3, 0x4008 << 48, 0x4008 << 48, 0x4008 << 48), // qNaN S0: S1
        (0x4000 << 48, 0xfff8 << 48 | 4, 0x4000 << 48, 0x4000 << 48), // qNaN S1: S0
        (1, 1 << 63 | 1, 1 << 63 | 1, 1),                         // denormals kept
    ];
    let flushed: [(u64, u64, u64, u64); 8] = [
        ieee_kept[0],
        ieee_kept[1],
        ieee_kept[2],
        (0x7ff0 << 48 | 1, 0x3ff0 << 48, 0x3ff0 << 48, 0x3ff0 << 48), // sNaN S0: S1
        (0x3ff0 << 48, 0xfff0 << 48 | 2, 0x3ff0 << 48, 0x3ff0 << 48), // sNaN S1: S0
        ieee_kept[5],
        ieee_kept[6],
        (1, 1 << 63 | 1, 1 << 63, 0), // +0 and -0 after flushing
    ];
    for (mode, vals) in [(0x3f0u32, ieee_kept), (0x130, flushed)] {
        for wave64 in [false, true] {
            let (h, _) = run(
                wave64,
                &[
                    // v_min_f64 v[4:5], v[0:1], v[2:3] (VOP3 0x329)
                    &[0x04, 0x00, 0x29, 0xd7, 0x00, 0x05, 0x02, 0x00],
                    // v_max_f64 v[6:7], v[0:1], v[2:3] (VOP3 0x32a)
                    &[0x06, 0x00, 0x2a, 0xd7, 0x00, 0x05, 0x02, 0x00],
                    // v_min_f64 v[8:9], v[0:1], -v[2:3] (neg of S1; compared with the
                    // interpreter by `run`)
                    &[0x08, 0x00, 0x29, 0xd7, 0x00, 0x05, 0x02, 0x40],
                ],
                3,
                |h| {
                    h.wave.hw.mode = mode;
                    h.set_v(0, |l| vals[l % 8].0 as u32);
                    h.set_v(1, |l| (vals[l % 8].0 >> 32) as u32);
                    h.set_v(2, |l| vals[l % 8].1 as u32);
                    h.set_v(3, |l| (vals[l % 8].1 >> 32) as u32);
                },
            );
            for l in 0..h.wave.lanes() {
                let (_, _, mn, mx) = vals[l % 8];
                let got = |r: usize| h.v(r, l) as u64 | (h.v(r + 1, l) as u64) << 32;
                assert_eq!(got(4), mn, "v_min_f64 MODE {mode:#x} lane {l}");
                assert_eq!(got(6), mx, "v_max_f64 MODE {mode:#x} lane {l}");
            }
        }
    }
}

#[test]
fn f32_transcendentals_call_the_interpreters_lane_functions() {
    // VOP1 (word = 0x7e000000 | vdst << 17 | op << 9 | src0): v_rcp_f32 v2, v0 (op 0x2a),
    // v_rsq_f32 v3, v0 (0x2e), v_sqrt_f32 v4, v0 (0x33), v_exp_f32 v5, v0 (0x25), v_log_f32
    // v6, v0 (0x27), v_sin_f32 v7, v0 (0x35), v_cos_f32 v8, v0 (0x36), v_rcp_iflag_f32 v9, v0
    // (0x2b). Expected values from the RDNA3 ISA's opcode descriptions (V_RCP_F32 1/x,
    // V_RSQ_F32 1/sqrt(x), V_SQRT_F32, V_EXP_F32 2^x, V_LOG_F32 log2(x), V_SIN_F32 /
    // V_COS_F32 of x revolutions, i.e. sin(2 pi x)) and IEEE special values: 1/+-0 = +-inf,
    // 1/inf = 0, sqrt(-0) = -0, sqrt/rsq/log of a negative number = NaN (RDNA3's default NaN
    // 0xffc00000 for an invalid operation), log2(+-0) = -inf, 2^-inf = 0. Denormals: under
    // MODE 0x3c0 (run_asm's: f32 denormals flushed) an input 2^-127 (0x00400000) reads as +0,
    // so its reciprocal is +inf and its root +0, and 2^-127 as a result is flushed to +0;
    // under 0x3f0 (kept) 1/2^-127 = 2^127 = 0x7f000000, sqrt(2^-128) = 2^-64 = 0x1f800000 and
    // 2^-127 stays 0x00400000. Every lane (the 8 cases repeat) must also match the
    // interpreter's state bit for bit, with partial EXEC.
    let ops: [(u32, usize, &str); 8] = [
        (0x2a, 2, "v_rcp_f32"),
        (0x2e, 3, "v_rsq_f32"),
        (0x33, 4, "v_sqrt_f32"),
        (0x25, 5, "v_exp_f32"),
        (0x27, 6, "v_log_f32"),
        (0x35, 7, "v_sin_f32"),
        (0x36, 8, "v_cos_f32"),
        (0x2b, 9, "v_rcp_iflag_f32"),
    ];
    let words: Vec<[u8; 4]> = ops
        .iter()
        .map(|&(op, d, _)| (0x7e00_0000 | (d as u32) << 17 | op << 9 | 256).to_le_bytes())
        .collect();
    let insts: Vec<&[u8]> = words.iter().map(|w| &w[..]).collect();
    for (k, &(_, _, name)) in ops.iter().enumerate() {
        assert_eq!(program(&insts).insts[k].op.name(), name);
    }
    const INF: u32 = 0x7f80_0000;
    const NINF: u32 = 0xff80_0000;
    const NAN: u32 = 0xffc0_0000;
    // (x, rcp, rsq, sqrt) and (x, exp, log) checks; None: not checked by hand (still compared
    // with the interpreter).
    // 2^-127 in and out: (1/x, 1/sqrt(x), sqrt(x), 2^-127 as a result); 2^-63.5 and 2^63.5
    // rounded to nearest are 0x1fb504f3 and 0x5f3504f3.
    for (mode, den_rcp, den_rsq, den_sqrt, den_exp) in [
        (
            0x3f0u32,
            0x7f00_0000u32,
            0x5f35_04f3u32,
            0x1fb5_04f3u32,
            0x0040_0000u32,
        ),
        (0x3c0, INF, INF, 0, 0),
    ] {
        let roots: [(u32, u32, u32, u32); 7] = [
            (0x4000_0000, 0x3f00_0000, 0x3f35_04f3, 0x3fb5_04f3), // 2: 0.5, 1/sqrt2, sqrt2
            (0x4080_0000, 0x3e80_0000, 0x3f00_0000, 0x4000_0000), // 4: 0.25, 0.5, 2
            (0x0000_0000, INF, INF, 0),                           // +0
            (0x8000_0000, NINF, NINF, 0x8000_0000),               // -0
            (INF, 0, 0, INF),                                     // +inf
            (0xbf80_0000, 0xbf80_0000, NAN, NAN),                 // -1
            (0x0040_0000, den_rcp, den_rsq, den_sqrt),            // 2^-127
        ];
        let exps: [(u32, u32, u32); 5] = [
            (0x4040_0000, 0x4100_0000, 0x3fca_e00d), // 3: 8, log2(3) rounded
            (0x4100_0000, 0x4380_0000, 0x4040_0000), // 8: 256, 3
            (0x3f80_0000, 0x4000_0000, 0),           // 1: 2, 0
            (NINF, 0, NAN),                          // -inf: 0, NaN
            (0xc2fe_0000, den_exp, NAN),             // -127: 2^-127, NaN
        ];
        let trig: [(u32, u32, u32); 3] = [
            (0x3e80_0000, 0x3f80_0000, 0), // 0.25: sin 1 (cos not checked)
            (0x0000_0000, 0, 0x3f80_0000), // 0: sin 0, cos 1
            (0x3f00_0000, 0, 0xbf80_0000), // 0.5: cos -1
        ];
        for wave64 in [false, true] {
            let n = if wave64 { 64 } else { 32 };
            let exec = 0xf7ff_ffff_ffff_fffeu64 & if wave64 { u64::MAX } else { 0xffff_ffff };
            let x = |l: usize| match l % 16 {
                i @ 0..=6 => roots[i].0,
                i @ 7..=11 => exps[i - 7].0,
                i @ 12..=14 => trig[i - 12].0,
                _ => a(l),
            };
            let (h, _) = run(wave64, &insts, 8, |h| {
                h.wave.hw.mode = mode;
                h.wave.set_exec(exec);
                h.set_v(0, x);
                for r in 2..10 {
                    h.set_v(r, |_| OLD);
                }
            });
            for l in (0..n).filter(|l| exec >> l & 1 != 0) {
                let i = l % 16;
                let got = |r: usize| h.v(r, l);
                if i <= 6 {
                    let (_, rcp, rsq, sqrt) = roots[i];
                    assert_eq!(got(2), rcp, "rcp({:#x}) MODE {mode:#x}", x(l));
                    assert_eq!(got(9), rcp, "rcp_iflag({:#x}) MODE {mode:#x}", x(l));
                    assert_eq!(got(3), rsq, "rsq({:#x}) MODE {mode:#x}", x(l));
                    assert_eq!(got(4), sqrt, "sqrt({:#x}) MODE {mode:#x}", x(l));
                } else if i <= 11 {
                    let (_, e, lg) = exps[i - 7];
                    assert_eq!(got(5), e, "exp({:#x}) MODE {mode:#x}", x(l));
                    assert_eq!(got(6), lg, "log({:#x}) MODE {mode:#x}", x(l));
                } else if i <= 14 {
                    let (_, s, c) = trig[i - 12];
                    if i != 14 {
                        assert_eq!(got(7), s, "sin({:#x}) MODE {mode:#x}", x(l));
                    }
                    if i != 12 {
                        assert_eq!(got(8), c, "cos({:#x}) MODE {mode:#x}", x(l));
                    }
                }
            }
            for l in (0..n).filter(|l| exec >> l & 1 == 0) {
                assert_eq!(h.v(2, l), OLD, "inactive lane {l}");
            }
        }
    }
}

#[test]
fn f64_reciprocal_and_roots_call_the_interpreters_lane_functions() {
    // VOP1: v_rcp_f64 v[2:3], v[0:1] (op 0x2f), v_rsq_f64 v[4:5], v[0:1] (0x31), v_sqrt_f64
    // v[6:7], v[0:1] (0x34). RDNA3 ISA V_RCP_F64 1/x, V_RSQ_F64 1/sqrt(x), V_SQRT_F64 with
    // IEEE special values (1/+-0 = +-inf, sqrt(-0) = -0, a negative root: RDNA3's default NaN
    // 0xfff8000000000000). 2^-1060 (denormal, bits 1 << 14) has the root 2^-530
    // (0x1ed0000000000000) when MODE keeps f64 denormals (0x3f0) and reads as +0 when it
    // flushes them (0x330: f64 FP_DENORM 0), giving 1/+0 = +inf and sqrt(+0) = +0.
    let words: Vec<[u8; 4]> = [(0x2fu32, 2u32), (0x31, 4), (0x34, 6)]
        .iter()
        .map(|&(op, d)| (0x7e00_0000 | d << 17 | op << 9 | 256).to_le_bytes())
        .collect();
    let insts: Vec<&[u8]> = words.iter().map(|w| &w[..]).collect();
    let names: Vec<_> = program(&insts).insts[..3]
        .iter()
        .map(|i| i.op.name())
        .collect();
    assert_eq!(names, ["v_rcp_f64", "v_rsq_f64", "v_sqrt_f64"]);
    const INF: u64 = 0x7ff0_0000_0000_0000;
    const NAN: u64 = 0xfff8_0000_0000_0000;
    // (1/x, 1/sqrt(x), sqrt(x)) of 2^-1060: kept, 2^1060 overflows to +inf, 2^530 is
    // 0x6110000000000000.
    for (mode, den) in [
        (
            0x3f0u32,
            (INF, 0x6110_0000_0000_0000u64, 0x1ed0_0000_0000_0000u64),
        ),
        (0x330, (INF, INF, 0)),
    ] {
        // (x, rcp, rsq, sqrt)
        let cases: [(u64, u64, u64, u64); 5] = [
            (
                0x4010_0000_0000_0000,
                0x3fd0_0000_0000_0000,
                0x3fe0_0000_0000_0000,
                0x4000_0000_0000_0000,
            ), // 4
            (0, INF, INF, 0),                                         // +0
            (1 << 63, 1 << 63 | INF, 1 << 63 | INF, 1 << 63),         // -0
            (0xbff0_0000_0000_0000, 0xbff0_0000_0000_0000, NAN, NAN), // -1
            (1 << 14, den.0, den.1, den.2),                           // 2^-1060
        ];
        for wave64 in [false, true] {
            let exec = 0xffff_fffe_ffff_ffdfu64;
            let (h, _) = run(wave64, &insts, 3, |h| {
                h.wave.hw.mode = mode;
                h.wave.set_exec(exec);
                h.set_v(0, |l| cases[l % 5].0 as u32);
                h.set_v(1, |l| (cases[l % 5].0 >> 32) as u32);
            });
            for l in (0..h.wave.lanes()).filter(|l| exec >> l & 1 != 0) {
                let (x, rcp, rsq, sqrt) = cases[l % 5];
                let got = |r: usize| h.v(r, l) as u64 | (h.v(r + 1, l) as u64) << 32;
                assert_eq!(got(2), rcp, "rcp({x:#x}) MODE {mode:#x}");
                assert_eq!(got(4), rsq, "rsq({x:#x}) MODE {mode:#x}");
                assert_eq!(got(6), sqrt, "sqrt({x:#x}) MODE {mode:#x}");
            }
        }
    }
}

#[test]
fn kernel_epilogue_sendmsg_and_endpgm_run_inside_the_block() {
    // The epilogue compilers emit: `s_nop 0; s_sendmsg sendmsg(MSG_DEALLOC_VGPRS); s_endpgm`
    // (saxpy.objdump), all four instructions translated (no handler call): s_sendmsg with
    // message 3 (MSG_DEALLOC_VGPRS, RDNA3 ISA Table 15) sets STATUS.NO_VGPRS (bit 24) and
    // issues one LGKM_CNT event (saturating at the field's 63, `WaitCounts::lgkm_issue`);
    // s_endpgm ends the wave, its PC past it. So 4 instructions retire (v_mov, s_nop,
    // s_sendmsg, s_endpgm), each on every lane of EXEC.
    for wave64 in [false, true] {
        for lgkm in [5u8, 63] {
            let (h, st) = run(
                wave64,
                &[
                    &[0x85, 0x02, 0x02, 0x7e], // v_mov_b32_e32 v1, 5
                    &[0x00, 0x00, 0x80, 0xbf], // s_nop 0
                    &[0x03, 0x00, 0xb6, 0xbf], // s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)
                ],
                // (Compiled once per wave size: the second program is found compiled.)
                if lgkm == 5 { 4 } else { 0 },
                |h| {
                    h.wave.hw.status &= !(1 << 24);
                    h.wave.cnt.lgkm = lgkm;
                    h.wave.set_exec(0x0000_ffff_0000_fff1);
                },
            );
            let lanes = if wave64 { 64 } else { 32 };
            let exec = 0x0000_ffff_0000_fff1u64 & (u64::MAX >> (64 - lanes));
            assert_ne!(h.wave.hw.status & 1 << 24, 0, "STATUS.NO_VGPRS");
            assert_eq!(h.wave.cnt.lgkm, (lgkm + 1).min(63), "LGKM_CNT");
            assert!(h.wave.ended);
            // s_endpgm at byte 12 (three 4-byte instructions before it): the PC after it.
            assert_eq!(h.wave.pc, 16);
            assert_eq!(st.wave_instructions, 4);
            assert_eq!(st.lane_instructions, 4 * exec.count_ones() as u64);
            for l in 0..lanes {
                let want = if exec >> l & 1 != 0 { 5 } else { 0 };
                assert_eq!(h.v(1, l), want, "v1 lane {l}");
            }
        }
    }
}

#[test]
fn an_execz_branch_over_straight_line_code_is_a_side_exit_of_one_block() {
    // A divergent `if` as compilers guard it (saxpy.objdump): the compare, saveexec, an
    // s_cbranch_execz over the body, the body, EXEC restored. The block runs on through the
    // branch; taken (no lane left in EXEC) it leaves at the target. Expected values from the
    // ISA: v_cmp_gt_u32 sets VCC bit l for active lanes where S2 > v0 (0 in inactive lanes);
    // s_and_saveexec saves EXEC to s4 (s[4:5]) and sets EXEC &= VCC; s_cbranch_execz jumps
    // when EXEC = 0 (3 dwords ahead, past the body); the body writes v2 = v0 + v1 and v3 = 9
    // in the EXEC lanes and s5 (s6 in wave64) = 42; s_or restores EXEC; v4 = 1 in its lanes.
    let body32: [&[u8]; 8] = [
        &[0x02, 0x00, 0x98, 0x7c], // v_cmp_gt_u32_e32 vcc_lo, s2, v0
        &[0x6a, 0x20, 0x84, 0xbe], // s_and_saveexec_b32 s4, vcc_lo
        &[0x03, 0x00, 0xa5, 0xbf], // s_cbranch_execz 3
        &[0x00, 0x03, 0x04, 0x4a], // v_add_nc_u32_e32 v2, v0, v1
        &[0x89, 0x02, 0x06, 0x7e], // v_mov_b32_e32 v3, 9
        &[0xaa, 0x00, 0x85, 0xbe], // s_mov_b32 s5, 42
        &[0x7e, 0x04, 0x7e, 0x8c], // s_or_b32 exec_lo, exec_lo, s4
        &[0x81, 0x02, 0x08, 0x7e], // v_mov_b32_e32 v4, 1
    ];
    let body64: [&[u8]; 8] = [
        &[0x02, 0x00, 0x98, 0x7c], // v_cmp_gt_u32_e32 vcc, s2, v0
        &[0x6a, 0x21, 0x84, 0xbe], // s_and_saveexec_b64 s[4:5], vcc
        &[0x03, 0x00, 0xa5, 0xbf], // s_cbranch_execz 3
        &[0x00, 0x03, 0x04, 0x4a], // v_add_nc_u32_e32 v2, v0, v1
        &[0x89, 0x02, 0x06, 0x7e], // v_mov_b32_e32 v3, 9
        &[0xaa, 0x00, 0x86, 0xbe], // s_mov_b32 s6, 42
        &[0x7e, 0x04, 0xfe, 0x8c], // s_or_b64 exec, exec, s[4:5]
        &[0x81, 0x02, 0x08, 0x7e], // v_mov_b32_e32 v4, 1
    ];
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        let exec0 = 0xffff_0ff1_ffff_0ff1u64 & (u64::MAX >> (64 - lanes));
        let flag = if wave64 { 6 } else { 5 };
        // Thresholds: no lane (the branch taken, first: the first run compiles the block,
        // and all 9 instructions compiling in it shows it went on past the branch), a few
        // lanes, lanes in the upper half of a wave64, every lane.
        for (k, thr) in [0u32, 5, 40, 64].into_iter().enumerate() {
            let (h, st) = run(
                wave64,
                if wave64 { &body64 } else { &body32 },
                if k == 0 { 9 } else { 0 },
                |h| {
                    h.set_v(0, |l| l as u32);
                    h.set_v(1, |l| 100 + l as u32);
                    for r in 2..5 {
                        h.set_v(r, |_| OLD);
                    }
                    h.wave.sgpr[2] = thr;
                    h.wave.set_exec(exec0);
                },
            );
            let m = (0..lanes)
                .filter(|&l| exec0 >> l & 1 != 0 && (l as u32) < thr)
                .fold(0u64, |m, l| m | 1 << l);
            assert_eq!(h.wave.vcc(), m, "VCC, threshold {thr}");
            assert_eq!(h.wave.exec(), exec0, "EXEC restored");
            assert_eq!(h.s(flag), if m == 0 { 0 } else { 42 }, "s{flag}");
            for l in 0..lanes {
                let inside = m >> l & 1 != 0;
                let v2 = if inside { 2 * l as u32 + 100 } else { OLD };
                let v3 = if inside { 9 } else { OLD };
                let v4 = if exec0 >> l & 1 != 0 { 1 } else { OLD };
                assert_eq!((h.v(2, l), h.v(3, l), h.v(4, l)), (v2, v3, v4), "lane {l}");
            }
            // Taken: v_cmp, saveexec, the branch, s_or, v_mov, s_endpgm; else all 9.
            let n = if m == 0 { 6 } else { 9 };
            assert_eq!(st.wave_instructions, n, "threshold {thr}");
        }
    }
}

#[test]
fn a_carry_mask_replaced_later_in_the_block_is_still_stored_at_a_side_exit_before() {
    // A carry-out the block writes again later is not stored when written
    // (`codegen::masks_rewritten_later`), unless something that stores what the block holds
    // comes first: here the side exit of an s_cbranch_execz. v_add_co_u32 v2, s8, v0, v1
    // writes the carries of v0 + v1 (RDNA3 ISA VOP3SD: bit l = the carry of active lane l,
    // 0 in inactive lanes) to s8 (s[8:9] in wave64); the compare, saveexec and branch of a
    // divergent `if`; in the body v_add_co_u32 v3, s8, v1, v1 replaces s8 with the carries
    // of v1 + v1 in the lanes left in EXEC, and v4 = 9; s_or restores EXEC. Taken (no lane
    // below the threshold) the branch leaves the block with the first carries in s8.
    let body = |wave64: bool, optimised: bool| -> Vec<&'static [u8]> {
        // (Each tier a program of its own: an s_nop more for the optimising one.)
        let nop: &'static [u8] = &[0x00, 0x00, 0x80, 0xbf]; // s_nop 0
        let mut v: Vec<&'static [u8]> = if optimised { vec![nop] } else { Vec::new() };
        v.extend::<[&'static [u8]; 7]>([
            &[0x02, 0x08, 0x00, 0xd7, 0x00, 0x03, 0x02, 0x00], // v_add_co_u32 v2, s8, v0, v1
            &[0x02, 0x0a, 0x98, 0x7c],                         // v_cmp_gt_u32_e32 vcc, s2, v5
            if wave64 {
                &[0x6a, 0x21, 0x84, 0xbe] // s_and_saveexec_b64 s[4:5], vcc
            } else {
                &[0x6a, 0x20, 0x84, 0xbe] // s_and_saveexec_b32 s4, vcc_lo
            },
            &[0x03, 0x00, 0xa5, 0xbf], // s_cbranch_execz 3
            &[0x03, 0x08, 0x00, 0xd7, 0x01, 0x03, 0x02, 0x00], // v_add_co_u32 v3, s8, v1, v1
            &[0x89, 0x02, 0x08, 0x7e], // v_mov_b32_e32 v4, 9
            if wave64 {
                &[0x7e, 0x04, 0xfe, 0x8c] // s_or_b64 exec, exec, s[4:5]
            } else {
                &[0x7e, 0x04, 0x7e, 0x8c] // s_or_b32 exec_lo, exec_lo, s4
            },
        ]);
        v
    };
    let x = |l: usize| (l as u32).wrapping_mul(0x9e37_79b9);
    let y = |l: usize| {
        if l.is_multiple_of(3) {
            0x9000_0000 + l as u32
        } else {
            l as u32
        }
    };
    for (optimised, wave64) in [(false, false), (false, true), (true, false), (true, true)] {
        wavesim_rdna3::jit::optimise_at_once(optimised);
        let lanes = if wave64 { 64 } else { 32 };
        let exec0 = 0xfff7_0ff1_ffff_0ff3u64 & (u64::MAX >> (64 - lanes));
        let insts = body(wave64, optimised);
        for (k, thr) in [0u32, 7, 40].into_iter().enumerate() {
            let (h, _) = run(wave64, &insts, if k == 0 { 8 } else { 0 }, |h| {
                h.set_v(0, x);
                h.set_v(1, y);
                h.set_v(5, |l| l as u32);
                for r in 2..5 {
                    h.set_v(r, |_| OLD);
                }
                h.wave.sgpr[2] = thr;
                h.wave.sgpr[8] = OLD;
                h.wave.sgpr[9] = OLD;
                h.wave.set_exec(exec0);
            });
            let lanes_where =
                |f: &dyn Fn(usize) -> bool| (0..lanes).fold(0u64, |m, l| m | (f(l) as u64) << l);
            let m = lanes_where(&|l| exec0 >> l & 1 != 0 && (l as u32) < thr);
            let first =
                lanes_where(&|l| exec0 >> l & 1 != 0 && (x(l) as u64 + y(l) as u64) >> 32 != 0);
            let second = lanes_where(&|l| m >> l & 1 != 0 && y(l) >> 31 != 0);
            let want = if m == 0 { first } else { second };
            let got = if wave64 {
                h.s(8) as u64 | (h.s(9) as u64) << 32
            } else {
                h.s(8) as u64
            };
            assert_eq!(got, want, "s8, wave64 {wave64}, threshold {thr}");
            if !wave64 {
                assert_eq!(h.s(9), OLD, "s9 is not written in wave32");
            }
        }
    }
    wavesim_rdna3::jit::optimise_at_once(false);
}

#[test]
fn a_gs_alloc_req_in_a_block_sees_the_m0_the_block_wrote() {
    // s_mov_b32 m0, 3 | 1 << 12 then s_sendmsg sendmsg(MSG_GS_ALLOC_REQ) (message 9, RDNA3
    // ISA Table 15) in a GS wave: the message records M0 as it is at the s_sendmsg (3
    // vertices, 1 primitive), so the block must store the M0 it holds before the callback.
    let m0 = 3 | 1 << 12;
    let lit = u32::to_le_bytes(m0);
    let (h, _) = run(
        false,
        &[
            &[0xff, 0x00, 0xfd, 0xbe, lit[0], lit[1], lit[2], lit[3]], // s_mov_b32 m0, lit
            &[0x09, 0x00, 0xb6, 0xbf], // s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)
        ],
        1,
        |h| h.wave.gfx = Some(Box::new(GfxWave::new(Stage::Gs))),
    );
    let g = h.wave.gfx.as_deref().expect("a GS wave");
    assert_eq!(g.messages, [Message { id: 9, m0 }]);
}

/// Carries and borrows at their edges, with and without a carry-in, in both wave sizes and a
/// partial EXEC: the compiled code computes each chunk's "no carry" lanes and inverts them
/// where the mask is packed and where EXEC's lanes are taken (`codegen`, `Node::VCarry`), and
/// packs four chunks' lanes at a time; v_cndmask reads one carry-out back as lane selects.
/// Expected values from the RDNA3 ISA's VOP3SD pseudocode, in 64-bit arithmetic:
/// v_add_co_ci_u32: D = S0 + S1 + cin, carry = the sum's bit 32; v_sub_co_ci_u32:
/// D = S0 - S1 - cin, borrow = S1 + cin > S0; v_add_co_u32 / v_sub_co_u32 the same without
/// cin; the mask written has 0 for inactive lanes.
#[test]
fn carry_and_borrow_edges_in_both_wave_sizes() {
    const MAX: u32 = u32::MAX;
    let cases: [(u32, u32); 9] = [
        (0, 0),
        (MAX, 1),
        (MAX, 0),
        (MAX, MAX),
        (5, 5),
        (5, 6),
        (6, 5),
        (0x8000_0000, 0x8000_0000),
        (0, MAX),
    ];
    let x = |l: usize| cases[l % 9].0;
    let y = |l: usize| cases[l % 9].1;
    let cin_all = 0x5a5a_3c3c_0ff0_a5c3u64;
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        let full = if wave64 { u64::MAX } else { u32::MAX as u64 };
        let exec = 0xfff7_7fff_ffff_bffeu64 & full;
        let cin = cin_all & full;
        let (h, _) = run(
            wave64,
            &[
                &[0x02, 0x08, 0x20, 0xd5, 0x00, 0x03, 0x12, 0x00], // v_add_co_ci_u32_e64 v2, s8, v0, v1, s4
                &[0x03, 0x0a, 0x21, 0xd5, 0x00, 0x03, 0x12, 0x00], // v_sub_co_ci_u32_e64 v3, s10, v0, v1, s4
                &[0x04, 0x0c, 0x00, 0xd7, 0x00, 0x03, 0x02, 0x00], // v_add_co_u32 v4, s12, v0, v1
                &[0x05, 0x0e, 0x01, 0xd7, 0x00, 0x03, 0x02, 0x00], // v_sub_co_u32 v5, s14, v0, v1
                &[0x06, 0x00, 0x01, 0xd5, 0x00, 0x03, 0x22, 0x00], // v_cndmask_b32_e64 v6, v0, v1, s8
            ],
            5,
            |h| {
                h.set_v(0, x);
                h.set_v(1, y);
                for r in 2..7 {
                    h.set_v(r, |_| OLD);
                }
                h.wave.sgpr[4] = cin as u32;
                h.wave.sgpr[5] = (cin >> 32) as u32;
                h.wave.set_exec(exec);
            },
        );
        let mut want = [0u64; 4];
        for l in 0..lanes {
            if exec >> l & 1 == 0 {
                for r in 2..7 {
                    assert_eq!(h.v(r, l), OLD, "v{r} lane {l} (inactive)");
                }
                continue;
            }
            let (p, q, c) = (x(l) as u64, y(l) as u64, cin >> l & 1);
            want[0] |= ((p + q + c) >> 32) << l;
            want[1] |= ((q + c > p) as u64) << l;
            want[2] |= ((p + q) >> 32) << l;
            want[3] |= ((q > p) as u64) << l;
            let m = |v: u64| v as u32;
            assert_eq!(h.v(2, l), m(p + q + c), "v2 lane {l}");
            assert_eq!(
                h.v(3, l),
                m(p.wrapping_sub(q).wrapping_sub(c)),
                "v3 lane {l}"
            );
            assert_eq!(h.v(4, l), m(p + q), "v4 lane {l}");
            assert_eq!(h.v(5, l), m(p.wrapping_sub(q)), "v5 lane {l}");
            let sel = if want[0] >> l & 1 != 0 { q } else { p };
            assert_eq!(h.v(6, l), sel as u32, "v6 lane {l}");
        }
        for (k, &w) in want.iter().enumerate() {
            let s = 8 + 2 * k;
            let got = if wave64 {
                h.s(s) as u64 | (h.s(s + 1) as u64) << 32
            } else {
                h.s(s) as u64
            };
            assert_eq!(got, w, "s{s} (wave64 {wave64})");
        }
    }
}

/// The optimising tier's full-EXEC variant (`codegen`, `Gen::two_variants`): a wave entering
/// with every lane active stores VALU results whole; a v_cmpx that keeps EXEC full stays in
/// that variant, one that clears lanes moves the wave to the general variant at that
/// instruction boundary. Entered with EXEC full and partial, in wave32 and wave64; the state
/// and the lane-instruction count must be the interpreter's, and hand-derived: v_cmpx writes
/// EXEC = the compare's result over the active lanes (RDNA3 ISA, VOPC), later VALU results
/// only land in its lanes.
#[test]
fn the_full_exec_variant_hands_over_to_the_general_one_when_lanes_go_off() {
    wavesim_rdna3::jit::optimise_at_once(true);
    for wave64 in [false, true] {
        let full = if wave64 { u64::MAX } else { u32::MAX as u64 };
        let before = compile_stats().promoted;
        for exec in [full, 0xffff_efff_7fff_fffeu64 & full] {
            let (h, _) = run(
                wave64,
                &[
                    &[0x00, 0x03, 0x08, 0x4a], // v_add_nc_u32_e32 v4, v0, v1
                    &[0x02, 0x08, 0x00, 0xd7, 0x00, 0x03, 0x02, 0x00], // v_add_co_u32 v2, s8, v0, v1
                    &[0x7e, 0x00, 0xce, 0xd4, 0x00, 0x01, 0x02, 0x00], // v_cmpx_ge_u32_e64 v0, v0
                    &[0x03, 0x0a, 0x20, 0xd5, 0x00, 0x03, 0x22, 0x00], // v_add_co_ci_u32_e64 v3, s10, v0, v1, s8
                    &[0x7e, 0x00, 0xcc, 0xd4, 0x00, 0x03, 0x02, 0x00], // v_cmpx_gt_u32_e64 v0, v1
                    &[0x04, 0x03, 0x0a, 0x4a], // v_add_nc_u32_e32 v5, v4, v1
                    &[0x06, 0x00, 0x01, 0xd5, 0x00, 0x03, 0x22, 0x00], // v_cndmask_b32_e64 v6, v0, v1, s8
                ],
                // (The second run of a wave size reuses the first's code.)
                if exec == full { 7 } else { 0 },
                |h| {
                    h.set_v(0, a);
                    h.set_v(1, b);
                    for r in 2..7 {
                        h.set_v(r, |_| OLD);
                    }
                    h.wave.set_exec(exec);
                },
            );
            assert!(
                compile_stats().promoted > before,
                "compiled at the optimising tier"
            );
            let gt = (0..h.wave.lanes()).fold(0u64, |m, l| {
                m | ((exec >> l & 1 != 0 && a(l) > b(l)) as u64) << l
            });
            assert_eq!(h.wave.exec(), gt, "EXEC after v_cmpx_gt (wave64 {wave64})");
            for l in 0..h.wave.lanes() {
                let on = exec >> l & 1 != 0;
                let sum = a(l).wrapping_add(b(l));
                assert_eq!(h.v(4, l), if on { sum } else { OLD }, "v4 lane {l}");
                let v5 = if gt >> l & 1 != 0 {
                    sum.wrapping_add(b(l))
                } else {
                    OLD
                };
                assert_eq!(h.v(5, l), v5, "v5 lane {l}");
            }
        }
    }
    wavesim_rdna3::jit::optimise_at_once(false);
}

/// A VOP2 instruction `op vdst, v<src0>, v<vsrc1>` (RDNA3 ISA 7.3, VOP2: SRC0 256 + n names
/// VGPR n, VSRC1 bits 9-16, VDST bits 17-24, OP bits 25-30).
fn vop2(op: u32, vdst: u32, src0: u32, vsrc1: u32) -> [u8; 4] {
    (op << 25 | vdst << 17 | vsrc1 << 9 | (256 + src0)).to_le_bytes()
}

#[test]
fn rows_rewritten_far_apart_in_a_loop_body_keep_every_version_right() {
    // A self-loop (the branch goes back to the block's first instruction) whose body rewrites
    // v2 four instructions after writing it and reads both versions: the code generator keeps
    // a row that a later node writes again cached instead of storing it, so the first
    // version must still reach its readers and only the last one the register file. Quick
    // and optimising tier, wave32 and wave64, EXEC full and partial.
    const ADD: u32 = 0x25; // V_ADD_NC_U32: D = S0 + S1 (wrapping)
    const XOR: u32 = 0x1d; // V_XOR_B32: D = S0 ^ S1
    let body = [
        vop2(ADD, 2, 0, 1), // v2 = v0 + v1
        vop2(XOR, 3, 2, 0), // v3 = v2 ^ v0
        vop2(ADD, 4, 3, 1), // v4 = v3 + v1
        vop2(XOR, 5, 4, 1), // v5 = v4 ^ v1
        vop2(ADD, 2, 5, 0), // v2 = v5 + v0 (v2 again)
        vop2(XOR, 1, 2, 3), // v1 = v2 ^ v3
    ];
    for optimised in [false, true] {
        wavesim_rdna3::jit::optimise_at_once(optimised);
        // (A different trip count per tier: a program of its own, compiled afresh.)
        let trips: u8 = if optimised { 6 } else { 5 };
        let cmp = [0x04, 0x80 + trips, 0x0a, 0xbf]; // s_cmp_lt_u32 s4, trips
        let mut insts: Vec<&[u8]> = body.iter().map(|i| &i[..]).collect();
        insts.push(&[0x04, 0x81, 0x04, 0x81]); // s_add_i32 s4, s4, 1
        insts.push(&cmp);
        // s_cbranch_scc1 -9: PC_next + 4 * -9 is the first instruction (RDNA3 ISA, SOPP).
        insts.push(&[0xf7, 0xff, 0xa2, 0xbf]);
        for wave64 in [false, true] {
            let full = if wave64 { u64::MAX } else { u32::MAX as u64 };
            for exec in [full, 0x7fff_0ff0_ffff_fffeu64 & full] {
                // (The second run of a wave size reuses the first's code.)
                let compiled = if exec == full { 9 } else { 0 };
                let (h, st) = run(wave64, &insts, compiled, |h| ab_old(h, 6, 0, exec));
                // `trips` iterations of 9 instructions (s4 = 1..=trips), and the s_endpgm.
                assert_eq!(st.wave_instructions, trips as u64 * 9 + 1);
                for l in 0..h.wave.lanes() {
                    let (x, mut y) = (a(l), b(l));
                    let (mut v2, mut v3, mut v4, mut v5) = (OLD, OLD, OLD, OLD);
                    if exec >> l & 1 != 0 {
                        for _ in 0..trips {
                            v2 = x.wrapping_add(y);
                            v3 = v2 ^ x;
                            v4 = v3.wrapping_add(y);
                            v5 = v4 ^ y;
                            v2 = v5.wrapping_add(x);
                            y = v2 ^ v3;
                        }
                    }
                    let got = [h.v(1, l), h.v(2, l), h.v(3, l), h.v(4, l), h.v(5, l)];
                    assert_eq!(got, [y, v2, v3, v4, v5], "lane {l} wave64 {wave64}");
                }
            }
        }
    }
    wavesim_rdna3::jit::optimise_at_once(false);
}
