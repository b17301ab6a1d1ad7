//! The issue model and the checkers of `inside` on hand-built waves. Expected event sequences
//! come from the RDNA3 ISA guide (Shader Concepts) ("wave32 and wave64": VALU and VMEM issue twice in wave64, low half then
//! high half; scalar, branches, messages and exports once) and the RDNA3 ISA guide (Wave State) ("Instruction skipping:
//! EXEC==0"); expected findings from the s_waitcnt rules of the RDNA3 ISA ("Data dependency
//! resolution").

use wavesim_rdna3::dispatch::run_wave_alone_observed;
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::inside::{Checks, FindingKind, Inside, InsideConfig, IssueEvent, Pass};
use wavesim_rdna3::testing::{Harness, S_ENDPGM};

// llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding
const V_ADD: [u8; 4] = [0x02, 0x07, 0x02, 0x06]; // v_add_f32_e32 v1, v2, v3
const V_CMP_VCC: [u8; 4] = [0x01, 0x05, 0x22, 0x7c]; // v_cmp_lt_f32_e32 vcc, v1, v2
const V_CMP_SGPR: [u8; 8] = [0x04, 0x00, 0x11, 0xd4, 0x01, 0x05, 0x02, 0x00]; // v_cmp_lt_f32_e64 s[4:5], v1, v2
const V_CMPX: [u8; 4] = [0x01, 0x05, 0x22, 0x7d]; // v_cmpx_lt_f32_e32 v1, v2
const V_READLANE: [u8; 8] = [0x06, 0x00, 0x60, 0xd7, 0x01, 0x01, 0x01, 0x00]; // v_readlane_b32 s6, v1, 0
const V_NOP: [u8; 4] = [0x00, 0x00, 0x00, 0x7e];
const S_ADD: [u8; 4] = [0x01, 0x02, 0x00, 0x80]; // s_add_u32 s0, s1, s2
const GLOBAL_LOAD: [u8; 8] = [0x00, 0x00, 0x52, 0xdc, 0x02, 0x00, 0x7c, 0x0a]; // global_load_b32 v10, v[2:3], off
const GLOBAL_STORE: [u8; 8] = [0x00, 0x00, 0x6a, 0xdc, 0x02, 0x04, 0x7c, 0x00]; // global_store_b32 v[2:3], v4, off
const DS_STORE: [u8; 8] = [0x00, 0x00, 0x34, 0xd8, 0x01, 0x04, 0x00, 0x00]; // ds_store_b32 v1, v4
const DS_LOAD: [u8; 8] = [0x00, 0x00, 0xd8, 0xd8, 0x01, 0x00, 0x00, 0x05]; // ds_load_b32 v5, v1
const WAIT_VM0: [u8; 4] = [0xf7, 0x03, 0x89, 0xbf]; // s_waitcnt vmcnt(0)
const EXEC_LO_0: [u8; 4] = [0x80, 0x00, 0xfe, 0xbe]; // s_mov_b32 exec_lo, 0
const EXEC_HI_0: [u8; 4] = [0x80, 0x00, 0xff, 0xbe]; // s_mov_b32 exec_hi, 0
const EXEC_0: [u8; 4] = [0x80, 0x01, 0xfe, 0xbe]; // s_mov_b64 exec, 0
const EXEC_LO_0_W32: [u8; 4] = EXEC_LO_0;
const EXP_POS0: [u8; 8] = [0xcf, 0x00, 0x00, 0xf8, 0x01, 0x02, 0x03, 0x04]; // exp pos0 v1, v2, v3, v4
const EXP_MRT0: [u8; 8] = [0x0f, 0x00, 0x00, 0xf8, 0x01, 0x02, 0x03, 0x04]; // exp mrt0 v1, v2, v3, v4
const EXP_MRT0_DONE: [u8; 8] = [0x0f, 0x08, 0x00, 0xf8, 0x01, 0x02, 0x03, 0x04]; // exp mrt0 ... done
const LDS_PARAM: [u8; 4] = [0x01, 0x00, 0x00, 0xce]; // lds_param_load v1, attr0.x wait_vdst:0
const LDS_DIRECT: [u8; 4] = [0x01, 0x00, 0x10, 0xce]; // lds_direct_load v1 wait_vdst:0
const V_EXP: [u8; 4] = [0x01, 0x4b, 0x0a, 0x7e]; // v_exp_f32_e32 v5, v1
const V_ADD_V5: [u8; 4] = [0x05, 0x0b, 0x0c, 0x06]; // v_add_f32_e32 v6, v5, v5
const DELAY_TRANS1: [u8; 4] = [0x05, 0x00, 0x87, 0xbf]; // s_delay_alu instid0(TRANS32_DEP_1)
const V_ADD_V10: [u8; 4] = [0x0a, 0x15, 0x16, 0x06]; // v_add_f32_e32 v11, v10, v10

/// A wave whose v[2:3] point at a buffer (one dword per lane) and v1 at LDS (4 * lane).
fn harness(w64: bool) -> Harness {
    let mut h = Harness::new(w64);
    let buf = h.mem.alloc(1024, 256).unwrap();
    h.set_v(2, |l| (buf + 4 * l as u64) as u32);
    h.set_v(3, |_| (buf >> 32) as u32);
    h.set_v(1, |l| 4 * l as u32);
    h.set_v(4, |_| 1);
    h
}

/// Runs `code` (instruction bytes) and returns the observer (the run's own error, e.g. an
/// export in a compute wave, is ignored: the issue events are recorded before it runs).
fn run(h: &mut Harness, code: &[&[u8]], checks: Checks) -> Inside {
    let mut bytes: Vec<u8> = code.concat();
    bytes.extend_from_slice(&S_ENDPGM.to_le_bytes());
    let prog = Program::new(&bytes, 0).unwrap();
    h.wave.pc = 0;
    let mut obs = Inside::new(InsideConfig {
        checks,
        record_events: true,
        ..Default::default()
    });
    let _ = run_wave_alone_observed(
        &mut h.wave,
        &mut h.lds,
        &prog,
        &h.mem,
        &h.cfg,
        1000,
        &mut obs,
    );
    obs.finish();
    obs
}

/// The (pass, issued) list of the events of the instruction at `pc`.
fn passes(ev: &[IssueEvent], pc: u64) -> Vec<(Pass, bool)> {
    ev.iter()
        .filter(|e| e.pc == pc)
        .map(|e| (e.pass, e.issued))
        .collect()
}

const ISSUED_TWICE: [(Pass, bool); 2] = [(Pass::Lo, true), (Pass::Hi, true)];
const SKIPPED_TWICE: [(Pass, bool); 2] = [(Pass::Lo, false), (Pass::Hi, false)];

#[test]
fn wave64_issues_vector_instructions_twice_and_scalar_once() {
    let mut h = harness(true);
    let o = run(
        &mut h,
        &[&V_ADD, &S_ADD, &V_READLANE, &V_NOP, &DS_STORE],
        Checks::default(),
    );
    let ev = o.events();
    assert_eq!(passes(ev, 0), ISSUED_TWICE); // VALU
    assert_eq!(passes(ev, 4), [(Pass::Once, true)]); // SALU
    assert_eq!(passes(ev, 8), [(Pass::Once, true)]); // v_readlane: once
    assert_eq!(passes(ev, 16), [(Pass::Once, true)]); // v_nop: once
    assert_eq!(passes(ev, 20), ISSUED_TWICE); // LDS is VMEM-like: twice
    assert_eq!(passes(ev, 28), [(Pass::Once, true)]); // s_endpgm
                                                      // Halves issue on consecutive cycles.
    let lo = ev.iter().find(|e| e.pc == 0 && e.pass == Pass::Lo).unwrap();
    let hi = ev.iter().find(|e| e.pc == 0 && e.pass == Pass::Hi).unwrap();
    assert_eq!(hi.cycle, lo.cycle + 1);
}

#[test]
fn wave32_issues_everything_once() {
    let mut h = harness(false);
    let o = run(&mut h, &[&V_ADD, &GLOBAL_LOAD, &S_ADD], Checks::default());
    for pc in [0, 4, 12] {
        assert_eq!(passes(o.events(), pc), [(Pass::Once, true)], "pc {pc}");
    }
}

#[test]
fn valu_skip_rules_with_exec_zero() {
    let mut h = harness(true);
    let o = run(
        &mut h,
        &[
            &EXEC_0,
            &V_ADD,
            &V_CMP_VCC,
            &V_CMP_SGPR,
            &V_READLANE,
            &V_NOP,
            &V_CMPX,
        ],
        Checks::default(),
    );
    let ev = o.events();
    assert_eq!(passes(ev, 4), SKIPPED_TWICE); // plain VALU: skipped
    assert_eq!(passes(ev, 8), ISSUED_TWICE); // v_cmp writing VCC: never skipped, twice
    assert_eq!(passes(ev, 12), ISSUED_TWICE); // v_cmp writing an SGPR pair: twice
    assert_eq!(passes(ev, 20), [(Pass::Once, true)]); // v_readlane: never skipped, once
    assert_eq!(passes(ev, 28), [(Pass::Once, true)]); // v_nop: never skipped, once
                                                      // v_cmpx may skip one half but not both.
    assert_eq!(passes(ev, 32), [(Pass::Lo, true), (Pass::Hi, false)]);
}

#[test]
fn wave64_skips_a_half_with_no_active_lane() {
    let mut h = harness(true);
    let o = run(&mut h, &[&EXEC_HI_0, &V_ADD, &V_CMP_VCC], Checks::default());
    assert_eq!(passes(o.events(), 4), [(Pass::Lo, true), (Pass::Hi, false)]);
    // A VALU writing VCC skips neither half.
    assert_eq!(passes(o.events(), 8), ISSUED_TWICE);
    let mut h = harness(true);
    let o = run(&mut h, &[&EXEC_LO_0, &V_ADD], Checks::default());
    assert_eq!(passes(o.events(), 4), [(Pass::Lo, false), (Pass::Hi, true)]);
}

#[test]
fn vmem_skips_only_with_no_memory_operation_in_flight() {
    // EXEC == 0 and VMcnt == VScnt == 0: skipped.
    let mut h = harness(true);
    let o = run(&mut h, &[&EXEC_0, &GLOBAL_STORE], Checks::default());
    assert_eq!(passes(o.events(), 4), SKIPPED_TWICE);
    // A load in flight: one half issues (not both skipped), the other is skipped.
    let mut h = harness(true);
    let o = run(
        &mut h,
        &[&GLOBAL_LOAD, &EXEC_0, &GLOBAL_STORE],
        Checks::default(),
    );
    assert_eq!(
        passes(o.events(), 12),
        [(Pass::Lo, true), (Pass::Hi, false)]
    );
    // After s_waitcnt vmcnt(0) the load has completed: skipped again.
    let mut h = harness(true);
    let o = run(
        &mut h,
        &[&GLOBAL_LOAD, &WAIT_VM0, &EXEC_0, &GLOBAL_STORE],
        Checks::default(),
    );
    assert_eq!(passes(o.events(), 16), SKIPPED_TWICE);
    // wave32: EXEC == 0 with a load in flight issues once.
    let mut h = harness(false);
    let o = run(
        &mut h,
        &[&GLOBAL_LOAD, &EXEC_LO_0_W32, &GLOBAL_STORE],
        Checks::default(),
    );
    assert_eq!(passes(o.events(), 12), [(Pass::Once, true)]);
}

#[test]
fn lds_skips_only_when_lgkmcnt_is_zero() {
    let mut h = harness(false);
    let o = run(&mut h, &[&EXEC_LO_0_W32, &DS_STORE], Checks::default());
    assert_eq!(passes(o.events(), 4), [(Pass::Once, false)]);
    let mut h = harness(false);
    let o = run(
        &mut h,
        &[&DS_LOAD, &EXEC_LO_0_W32, &DS_STORE],
        Checks::default(),
    );
    assert_eq!(passes(o.events(), 12), [(Pass::Once, true)]);
}

#[test]
fn exports_skip_unless_done_or_pos0_and_issue_once() {
    for (code, issued) in [
        (&EXP_MRT0, false),
        (&EXP_POS0, true),
        (&EXP_MRT0_DONE, true),
    ] {
        let mut h = harness(true);
        let o = run(&mut h, &[&EXEC_0, code], Checks::default());
        assert_eq!(passes(o.events(), 4), [(Pass::Once, issued)]);
    }
    // With lanes active an export issues once in wave64.
    let mut h = harness(true);
    let o = run(&mut h, &[&EXP_MRT0], Checks::default());
    assert_eq!(passes(o.events(), 0), [(Pass::Once, true)]);
}

#[test]
fn lds_param_and_direct_loads_skip_when_expcnt_is_zero() {
    for code in [&LDS_PARAM, &LDS_DIRECT] {
        let mut h = harness(false);
        let o = run(&mut h, &[&EXEC_LO_0_W32, code], Checks::default());
        assert_eq!(passes(o.events(), 4), [(Pass::Once, false)]);
        // An export in flight (EXPcnt > 0): not skipped.
        let mut h = harness(false);
        let o = run(
            &mut h,
            &[&EXP_POS0, &EXEC_LO_0_W32, code],
            Checks::default(),
        );
        let ev = o.events();
        if !ev.iter().any(|e| e.pc == 12) {
            // The export stopped the compute wave (not emulated): nothing more to see.
            continue;
        }
        assert_eq!(passes(ev, 12), [(Pass::Once, true)]);
    }
}

#[test]
fn waits_checker_reports_a_read_before_the_load_was_waited_for() {
    let checks = Checks {
        waits: true,
        ..Default::default()
    };
    let mut h = harness(false);
    let o = run(&mut h, &[&GLOBAL_LOAD, &V_ADD_V10], checks);
    let f = o.findings();
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].kind, FindingKind::MissingWait);
    assert_eq!((f[0].pc, f[0].other_pc), (8, Some(0)));
    assert!(f[0].text.contains("v10"), "{}", f[0].text);
    assert!(f[0].text.contains("global_load_b32"), "{}", f[0].text);
    // With the wait: clean, and the wait stalls in the cycle model.
    let mut h = harness(false);
    let o = run(&mut h, &[&GLOBAL_LOAD, &WAIT_VM0, &V_ADD_V10], checks);
    assert!(o.findings().is_empty(), "{:?}", o.findings());
    assert!(o.stats().wait_stall_cycles >= 300);
}

// Hazard rules: each expected finding is derived from the rule as LLVM's AMDGPUInsertDelayAlu
// (s_delay_alu, a stall) and GCNHazardRecognizer (wait states, correctness) state it; see
// `inside::hazard`. Encodings from llvm-mc-19 -mcpu=gfx1100 -show-encoding.
const DEPCTR_VA_VDST0: [u8; 4] = [0xff, 0x0f, 0x88, 0xbf]; // s_waitcnt_depctr 0xfff
const DEPCTR_SA_SDST0: [u8; 4] = [0xfe, 0xff, 0x88, 0xbf]; // s_waitcnt_depctr 0xfffe
const DELAY_VALU1: [u8; 4] = [0x01, 0x00, 0x87, 0xbf]; // s_delay_alu instid0(VALU_DEP_1)
const DELAY_VALU2: [u8; 4] = [0x02, 0x00, 0x87, 0xbf]; // s_delay_alu instid0(VALU_DEP_2)
const DELAY_SALU1: [u8; 4] = [0x09, 0x00, 0x87, 0xbf]; // s_delay_alu instid0(SALU_CYCLE_1)
const S_ADD_S3_S0: [u8; 4] = [0x00, 0x02, 0x03, 0x80]; // s_add_u32 s3, s0, s2
const V_ADD_V7: [u8; 4] = [0x01, 0x03, 0x0e, 0x06]; // v_add_f32_e32 v7, v1, v1
const V_ADD_V8_V7: [u8; 4] = [0x07, 0x0f, 0x10, 0x06]; // v_add_f32_e32 v8, v7, v7
const V_ADD_V9: [u8; 4] = [0x02, 0x05, 0x12, 0x06]; // v_add_f32_e32 v9, v2, v2
const V_PERMLANE16: [u8; 8] = [0x03, 0x00, 0x5b, 0xd6, 0x04, 0x01, 0x04, 0x00]; // v_permlane16_b32 v3, v4, s0, s1
const V_MOV_V4: [u8; 4] = [0x04, 0x03, 0x08, 0x7e]; // v_mov_b32_e32 v4, v4
const S_NOP0: [u8; 4] = [0x00, 0x00, 0x80, 0xbf];
const DEALLOC_VGPRS: [u8; 4] = [0x03, 0x00, 0xb6, 0xbf]; // s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)
const CNDMASK_S4: [u8; 8] = [0x00, 0x00, 0x01, 0xd5, 0x01, 0x05, 0x12, 0x00]; // v_cndmask_b32_e64 v0, v1, v2, s[4:5]
const S_MOV_S4_0: [u8; 4] = [0x80, 0x01, 0x84, 0xbe]; // s_mov_b64 s[4:5], 0
const LDS_DIRECT_W15: [u8; 4] = [0x01, 0x00, 0x1f, 0xce]; // lds_direct_load v1 wait_vdst:15
const LDS_DIRECT_W1: [u8; 4] = [0x01, 0x00, 0x11, 0xce]; // lds_direct_load v1 wait_vdst:1
const WMMA_D0: [u8; 8] = [0x00, 0x40, 0x40, 0xcc, 0x08, 0x21, 0x02, 0x1c]; // v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]
const WMMA_A0: [u8; 8] = [0x18, 0x40, 0x40, 0xcc, 0x00, 0x21, 0x62, 0x1c]; // v_wmma_f32_16x16x16_f16 v[24:31], v[0:7], v[16:23], v[24:31]

fn hazards(w64: bool, code: &[&[u8]]) -> Vec<(FindingKind, u64, String)> {
    let mut h = harness(w64);
    let o = run(
        &mut h,
        code,
        Checks {
            hazards: true,
            ..Default::default()
        },
    );
    o.findings()
        .iter()
        .filter(|f| f.kind != FindingKind::Padding)
        .map(|f| (f.kind, f.pc, f.text.clone()))
        .collect()
}

#[test]
fn a_transcendental_result_read_next_needs_a_delay_and_a_depctr() {
    // v_exp (trans, 10 cycles) then a VALU reading it: TRANS32_DEP_1 (stall) and
    // VALUTransUseHazard (0 VALUs between <= 5: correctness).
    let f = hazards(false, &[&V_EXP, &V_ADD_V5]);
    assert_eq!(f.len(), 2, "{f:?}");
    assert!(f.iter().any(|x| x.0 == FindingKind::MissingDelayAlu
        && x.1 == 4
        && x.2.contains("TRANS32_DEP_1")
        && x.2.starts_with("stall")));
    assert!(f.iter().any(|x| x.0 == FindingKind::HazardWaitState
        && x.2.contains("VALUTransUseHazard")
        && x.2.starts_with("correctness")));
    // With both: clean. (The depctr also waits for every VALU result, so the delay is moot.)
    assert!(hazards(false, &[&V_EXP, &DEPCTR_VA_VDST0, &V_ADD_V5]).is_empty());
    // The delay alone leaves the correctness hazard.
    let f = hazards(false, &[&V_EXP, &DELAY_TRANS1, &V_ADD_V5]);
    assert_eq!(f.len(), 1, "{f:?}");
    assert_eq!(f[0].0, FindingKind::HazardWaitState);
    // Six VALUs between: the trans-use window (5 VALUs) has passed, but 10 - 7 cycles of
    // the latency remain: TRANS32_DEP_1 still. Nine between: 10 cycles, nothing.
    let mut code: Vec<&[u8]> = vec![&V_EXP];
    code.extend(std::iter::repeat_n(&V_ADD_V9[..], 6));
    code.push(&V_ADD_V5);
    let f = hazards(false, &code);
    assert!(f.len() == 1 && f[0].2.contains("TRANS32_DEP_1"), "{f:?}");
    let mut code: Vec<&[u8]> = vec![&V_EXP];
    code.extend(std::iter::repeat_n(&V_ADD_V9[..], 9));
    code.push(&V_ADD_V5);
    assert!(hazards(false, &code).is_empty());
}

#[test]
fn valu_dep_counts_the_valus_between_and_expires_with_the_latency() {
    // v_add_f32 (5 cycles) read by the next VALU: VALU_DEP_1.
    let f = hazards(false, &[&V_ADD_V7, &V_ADD_V8_V7]);
    assert_eq!(f.len(), 1, "{f:?}");
    assert!(
        f[0].2.contains("VALU_DEP_1") && f[0].2.contains("v7"),
        "{}",
        f[0].2
    );
    assert!(hazards(false, &[&V_ADD_V7, &DELAY_VALU1, &V_ADD_V8_V7]).is_empty());
    // One VALU between: VALU_DEP_2; VALU_DEP_1 covers it (waits longer), VALU_DEP_2 too.
    let f = hazards(false, &[&V_ADD_V7, &V_ADD_V9, &V_ADD_V8_V7]);
    assert!(f.len() == 1 && f[0].2.contains("VALU_DEP_2"), "{f:?}");
    assert!(hazards(false, &[&V_ADD_V7, &V_ADD_V9, &DELAY_VALU2, &V_ADD_V8_V7]).is_empty());
    assert!(hazards(false, &[&V_ADD_V7, &V_ADD_V9, &DELAY_VALU1, &V_ADD_V8_V7]).is_empty());
    // A delay for a farther VALU does not cover a nearer one.
    assert_eq!(
        hazards(false, &[&V_ADD_V7, &DELAY_VALU2, &V_ADD_V8_V7]).len(),
        1
    );
    // Four instructions between: 1 + 4 cycles >= 5, the result is ready.
    let code: Vec<&[u8]> = vec![
        &V_ADD_V7,
        &V_ADD_V9,
        &V_ADD_V9,
        &V_ADD_V9,
        &V_ADD_V9,
        &V_ADD_V8_V7,
    ];
    assert!(hazards(false, &code).is_empty());
    // Three between: still 1 cycle to go, VALU_DEP_4.
    let code: Vec<&[u8]> = vec![&V_ADD_V7, &V_ADD_V9, &V_ADD_V9, &V_ADD_V9, &V_ADD_V8_V7];
    let f = hazards(false, &code);
    assert!(f.len() == 1 && f[0].2.contains("VALU_DEP_4"), "{f:?}");
    // A VMEM in between waits for every VALU result (VA_VDST = 0): nothing left.
    assert!(hazards(false, &[&V_ADD_V7, &GLOBAL_STORE, &V_ADD_V8_V7]).is_empty());
    // wave64 issues VALUs twice, but LLVM does not count that: same finding.
    let f = hazards(true, &[&V_ADD_V7, &V_ADD_V8_V7]);
    assert!(f.len() == 1 && f[0].2.contains("VALU_DEP_1"), "{f:?}");
}

#[test]
fn salu_results_need_salu_cycle_1_when_read_next() {
    // SALU latency 2: read by the next instruction, 1 cycle left.
    let f = hazards(false, &[&S_ADD, &S_ADD_S3_S0]);
    assert!(f.len() == 1 && f[0].2.contains("SALU_CYCLE_1"), "{f:?}");
    assert!(hazards(false, &[&S_ADD, &DELAY_SALU1, &S_ADD_S3_S0]).is_empty());
    // An s_nop 1 (2 cycles) between lets it complete.
    assert!(hazards(false, &[&S_ADD, &[0x01, 0x00, 0x80, 0xbf], &S_ADD_S3_S0]).is_empty());
}

#[test]
fn wait_state_rules_of_gfx11() {
    // VcmpxPermlaneHazard: v_cmpx then v_permlane16 with no VALU between.
    let f = hazards(false, &[&V_CMPX, &V_PERMLANE16]);
    assert!(
        f.iter().any(|x| x.2.contains("VcmpxPermlaneHazard")),
        "{f:?}"
    );
    let f = hazards(false, &[&V_CMPX, &V_MOV_V4, &V_PERMLANE16]);
    assert!(
        !f.iter().any(|x| x.0 == FindingKind::HazardWaitState),
        "{f:?}"
    );
    // v_nop does not count as the VALU between.
    let f = hazards(false, &[&V_CMPX, &V_NOP, &V_PERMLANE16]);
    assert!(
        f.iter().any(|x| x.2.contains("VcmpxPermlaneHazard")),
        "{f:?}"
    );
    // DeallocVGPRsNop.
    let f = hazards(false, &[&V_ADD, &DEALLOC_VGPRS]);
    assert!(f.iter().any(|x| x.2.contains("DeallocVGPRsNop")), "{f:?}");
    assert!(hazards(false, &[&V_ADD, &S_NOP0, &DEALLOC_VGPRS]).is_empty());
    // VALUMaskWriteHazard (wave64 only): v_cndmask reads s[4:5] as its mask, then an SALU
    // writes s[4:5]: the next instruction must be s_waitcnt_depctr sa_sdst(0).
    let f = hazards(true, &[&CNDMASK_S4, &S_MOV_S4_0, &S_ADD]);
    assert!(
        f.iter().any(|x| x.2.contains("VALUMaskWriteHazard")),
        "{f:?}"
    );
    let f = hazards(true, &[&CNDMASK_S4, &S_MOV_S4_0, &DEPCTR_SA_SDST0, &S_ADD]);
    assert!(
        !f.iter().any(|x| x.0 == FindingKind::HazardWaitState),
        "{f:?}"
    );
    let f = hazards(false, &[&CNDMASK_S4, &S_MOV_S4_0, &S_ADD]);
    assert!(
        !f.iter().any(|x| x.0 == FindingKind::HazardWaitState),
        "{f:?}"
    );
    // LdsDirectVALUHazard: a VALU wrote v1 one VALU back; wait_vdst must be <= 1.
    let f = hazards(false, &[&V_ADD, &V_ADD_V9, &LDS_DIRECT_W15]);
    assert!(
        f.iter().any(|x| x.2.contains("LdsDirectVALUHazard")),
        "{f:?}"
    );
    let f = hazards(false, &[&V_ADD, &V_ADD_V9, &LDS_DIRECT_W1]);
    assert!(
        !f.iter().any(|x| x.0 == FindingKind::HazardWaitState),
        "{f:?}"
    );
    // LdsDirectVMEMHazard: a DS instruction read v1 (its address) with no VALU after.
    let f = hazards(false, &[&DS_STORE, &LDS_DIRECT_W1]);
    assert!(
        f.iter().any(|x| x.2.contains("LdsDirectVMEMHazard")),
        "{f:?}"
    );
    let f = hazards(false, &[&DS_STORE, &V_ADD_V9, &LDS_DIRECT_W15]);
    assert!(
        !f.iter().any(|x| x.2.contains("LdsDirectVMEMHazard")),
        "{f:?}"
    );
    // WMMA: matrix A of the second is the first's D, with no VALU between.
    let f = hazards(false, &[&WMMA_D0, &WMMA_A0]);
    assert!(f.iter().any(|x| x.2.contains("WMMAHazard")), "{f:?}");
    let f = hazards(false, &[&WMMA_D0, &V_NOP, &WMMA_A0]);
    assert!(!f.iter().any(|x| x.2.contains("WMMAHazard")), "{f:?}");
}

#[test]
fn stats_count_families_lanes_and_bytes() {
    let mut h = harness(true);
    let o = run(
        &mut h,
        &[&EXEC_HI_0, &V_ADD, &GLOBAL_LOAD, &WAIT_VM0],
        Checks::default(),
    );
    let s = o.stats();
    assert_eq!(s.vector_insts, 2);
    assert_eq!(s.active_lanes, 64);
    assert_eq!(s.lane_slots, 128);
    assert_eq!(s.bytes.values().sum::<u64>(), 32 * 4);
    assert_eq!(s.mix.values().sum::<u64>(), 5);
    assert!(s.issue_cycles > 300);
}

const S_BARRIER: [u8; 4] = [0x00, 0x00, 0xbd, 0xbf];
const WAIT_LGKM0: [u8; 4] = [0x07, 0xfc, 0x89, 0xbf]; // s_waitcnt lgkmcnt(0)

#[test]
fn init_checker_finds_unwritten_vgprs_and_lds() {
    let init = Checks {
        init: true,
        ..Default::default()
    };
    // v10 is read with nothing having written it (the harness's set_v is not an instruction,
    // so only v0 counts as written at the start, as in a dispatch).
    let mut h = harness(false);
    let o = run(&mut h, &[&V_ADD_V10], init);
    assert_eq!(o.findings().len(), 1, "{:?}", o.findings());
    assert_eq!(o.findings()[0].kind, FindingKind::UninitVgpr);
    assert!(o.findings()[0].text.contains("v10 lane 0"));
    // LDS read before any store.
    let mut h = harness(false);
    let o = run(&mut h, &[&DS_LOAD], init);
    assert!(o
        .findings()
        .iter()
        .any(|f| f.kind == FindingKind::UninitLds));
    let mut h = harness(false);
    let o = run(&mut h, &[&DS_STORE, &WAIT_LGKM0, &DS_LOAD], init);
    assert!(
        !o.findings()
            .iter()
            .any(|f| f.kind == FindingKind::UninitLds),
        "{:?}",
        o.findings()
    );
}

#[test]
fn waits_checker_wants_lds_stores_done_before_a_barrier() {
    let waits = Checks {
        waits: true,
        ..Default::default()
    };
    let mut h = harness(false);
    let o = run(&mut h, &[&DS_STORE, &S_BARRIER], waits);
    assert_eq!(o.findings().len(), 1, "{:?}", o.findings());
    assert_eq!(o.findings()[0].kind, FindingKind::BarrierInFlight);
    assert_eq!((o.findings()[0].pc, o.findings()[0].other_pc), (8, Some(0)));
    let mut h = harness(false);
    let o = run(&mut h, &[&DS_STORE, &WAIT_LGKM0, &S_BARRIER], waits);
    assert!(o.findings().is_empty(), "{:?}", o.findings());
}

#[test]
fn lgkmcnt_above_zero_guarantees_nothing_while_a_scalar_load_is_in_flight() {
    // s_load_b32 s8 then ds_load v5, then s_waitcnt lgkmcnt(1): the scalar load may return
    // after the LDS load (RDNA3 ISA: SMEM returns out of order), so reading s8 is a finding.
    const S_LOAD_S8: [u8; 8] = [0x00, 0x02, 0x00, 0xf4, 0x00, 0x00, 0x00, 0xf8]; // s_load_b32 s8, s[0:1], 0x0
    const WAIT_LGKM1: [u8; 4] = [0x17, 0xfc, 0x89, 0xbf]; // s_waitcnt lgkmcnt(1)
    const V_ADD_S8: [u8; 4] = [0x08, 0x02, 0x16, 0x4a]; // v_add_nc_u32_e32 v11, s8, v1
    let waits = Checks {
        waits: true,
        ..Default::default()
    };
    let mut h = harness(false);
    let buf = h.mem.alloc(64, 64).unwrap();
    h.wave.sgpr[0] = buf as u32;
    h.wave.sgpr[1] = (buf >> 32) as u32;
    let o = run(
        &mut h,
        &[&S_LOAD_S8, &DS_LOAD, &WAIT_LGKM1, &V_ADD_S8],
        waits,
    );
    assert_eq!(o.findings().len(), 1, "{:?}", o.findings());
    assert!(o.findings()[0].text.contains("s8"));
    let mut h = harness(false);
    let buf = h.mem.alloc(64, 64).unwrap();
    h.wave.sgpr[0] = buf as u32;
    h.wave.sgpr[1] = (buf >> 32) as u32;
    let o = run(
        &mut h,
        &[&S_LOAD_S8, &DS_LOAD, &WAIT_LGKM0, &V_ADD_S8],
        waits,
    );
    assert!(o.findings().is_empty(), "{:?}", o.findings());
}

/// `inside::hazard::latency` (the result latencies AMDGPUInsertDelayAlu takes from LLVM's
/// gfx11 scheduling model) against llvm-mca-19's figures for every ALU instruction of the
/// corpus (corpus/check/latency.txt, made by corpus/check/make_latency.py).
#[test]
fn latencies_match_llvm_mca() {
    use std::collections::HashMap;
    use wavesim_rdna3::inside::{class::classify, class::Family, hazard::latency};
    let root = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus");
    let golden: HashMap<String, u8> = std::fs::read_to_string(root.join("check/latency.txt"))
        .expect("latency.txt")
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| {
            let (lat, text) = l.split_once('\t').unwrap();
            (text.to_string(), lat.parse().unwrap())
        })
        .collect();
    let (mut checked, mut wrong) = (0, Vec::new());
    for dir in ["gfx1100-w32", "gfx1100-w64"] {
        let mut names: Vec<_> = std::fs::read_dir(root.join(dir))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "hsaco"))
            .collect();
        names.sort();
        for path in names {
            let elf = wavesim_core::elf::ElfObject::parse(&std::fs::read(&path).unwrap()).unwrap();
            for s in &elf.text_sections {
                let Ok(prog) = Program::new(&s.data, s.address) else {
                    continue;
                };
                for (inst, &pc) in prog.insts.iter().zip(&prog.pcs) {
                    // The listings use wave32 syntax for both directories.
                    let text = wavesim_rdna3::disasm::format(inst, pc, false);
                    let Some(&want) = golden.get(&text) else {
                        continue;
                    };
                    let f = classify(inst, false).family;
                    if !matches!(
                        f,
                        Family::Valu | Family::Trans | Family::Wmma | Family::Salu
                    ) {
                        continue;
                    }
                    checked += 1;
                    let got = latency(inst.op, f);
                    if got != want {
                        wrong.push(format!("{text}: {got}, llvm-mca {want}"));
                    }
                }
            }
        }
    }
    wrong.sort();
    wrong.dedup();
    assert!(checked > 10_000, "{checked}");
    assert!(
        wrong.is_empty(),
        "{} differ: {:#?}",
        wrong.len(),
        &wrong[..wrong.len().min(40)]
    );
}

// The race check's stale-read rule (inside::stale): a plain load and another wave's atomic on
// the same LDS word with no barrier between is a race when, and only when, the loaded value
// flows through registers into the data a memory write stores (store data, an atomic's DATA);
// as a cmpstore/cmpswap compare value, an EXEC mask or not at all it is tolerated (that is how
// a CAS loop's first read and an atomic load compiled to a plain load are used). Encodings from
// llvm-mc-19 -mcpu=gfx1100 -show-encoding.
const DS_ADD: [u8; 8] = [0x00, 0x00, 0x00, 0xd8, 0x01, 0x04, 0x00, 0x00]; // ds_add_u32 v1, v4
const DS_ADD_RTN: [u8; 8] = [0x00, 0x00, 0x80, 0xd8, 0x01, 0x04, 0x00, 0x05]; // ds_add_rtn_u32 v5, v1, v4
const V_ADD_V6_V5: [u8; 4] = [0x81, 0x0a, 0x0c, 0x4a]; // v_add_nc_u32_e32 v6, 1, v5
const STORE_V6: [u8; 8] = [0x00, 0x00, 0x6a, 0xdc, 0x02, 0x06, 0x7c, 0x00]; // global_store_b32 v[2:3], v6, off
const STORE_V5: [u8; 8] = [0x00, 0x00, 0x6a, 0xdc, 0x02, 0x05, 0x7c, 0x00]; // global_store_b32 v[2:3], v5, off
const DS_CMPSTORE: [u8; 8] = [0x00, 0x00, 0x40, 0xd8, 0x01, 0x07, 0x05, 0x00]; // ds_cmpstore_b32 v1, v7, v5
const V_MOV_V5_0: [u8; 4] = [0x80, 0x02, 0x0a, 0x7e]; // v_mov_b32_e32 v5, 0
const V_MOV_V7_V5: [u8; 4] = [0x05, 0x03, 0x0e, 0x7e]; // v_mov_b32_e32 v7, v5
const READFIRSTLANE: [u8; 4] = [0x05, 0x05, 0x08, 0x7e]; // v_readfirstlane_b32 s4, v5
const S_ADD_S5: [u8; 4] = [0x04, 0x81, 0x05, 0x80]; // s_add_u32 s5, s4, 1
const V_MOV_V6_S5: [u8; 4] = [0x05, 0x02, 0x0c, 0x7e]; // v_mov_b32_e32 v6, s5
const V_CMPX_GT: [u8; 4] = [0x07, 0x0b, 0x98, 0x7d]; // v_cmpx_gt_u32_e32 v7, v5
const V_CMP_GT_VCC: [u8; 4] = [0x07, 0x0b, 0x98, 0x7c]; // v_cmp_gt_u32_e32 vcc_lo, v7, v5
const CNDMASK_VCC: [u8; 8] = [0x06, 0x00, 0x01, 0xd5, 0x80, 0x02, 0xa9, 0x01]; // v_cndmask_b32_e64 v6, 0, 1, vcc_lo
const MBCNT_EXEC: [u8; 8] = [0x06, 0x00, 0x1f, 0xd7, 0x7e, 0x00, 0x01, 0x00]; // v_mbcnt_lo_u32_b32 v6, exec_lo, 0
const SCRATCH_STORE_V5: [u8; 8] = [0x10, 0x00, 0x69, 0xdc, 0x00, 0x05, 0x7c, 0x00]; // scratch_store_b32 off, v5, off offset:16
const SCRATCH_LOAD_V5: [u8; 8] = [0x10, 0x00, 0x51, 0xdc, 0x00, 0x00, 0x7c, 0x05]; // scratch_load_b32 v5, off, off offset:16
const SCRATCH_LOAD_V5_20: [u8; 8] = [0x14, 0x00, 0x51, 0xdc, 0x00, 0x00, 0x7c, 0x05]; // scratch_load_b32 v5, off, off offset:20
const GLOBAL_ATOMIC_ADD_V5: [u8; 8] = [0x00, 0x00, 0xd6, 0xdc, 0x02, 0x05, 0x7c, 0x00]; // global_atomic_add_u32 v[2:3], v5, off
const GLOBAL_CMPSWAP_V67: [u8; 8] = [0x00, 0x00, 0xd2, 0xdc, 0x02, 0x06, 0x7c, 0x00]; // global_atomic_cmpswap_b32 v[2:3], v[6:7], off

/// Shows the race check the instructions of two waves of one workgroup in the order a dispatch
/// could run them: `order` lists (wave, instruction). Wave 1 runs `ds_add_u32 v1, v4`; both
/// waves' v1 is 4 * lane (the same 32 LDS words) and v[2:3] the lanes' words of one buffer.
/// The observer sees each wave's registers before each instruction; none runs (the rule looks
/// at operands and addresses only).
fn stale_race(order: &[(u32, &[u8])]) -> Vec<wavesim_rdna3::inside::Finding> {
    stale_race_exec(order, u64::MAX)
}

/// [`stale_race`] with EXEC = `exec` in both waves.
fn stale_race_exec(order: &[(u32, &[u8])], exec: u64) -> Vec<wavesim_rdna3::inside::Finding> {
    use wavesim_core::observe::{InstLoc, Observer};
    let mut h = harness(false);
    h.wave.set_exec(exec);
    let code: Vec<u8> = order.iter().flat_map(|&(_, b)| b.to_vec()).collect();
    let prog = Program::new(&code, 0).unwrap();
    assert_eq!(prog.insts.len(), order.len());
    let mut obs = Inside::new(InsideConfig {
        checks: Checks {
            races: true,
            ..Default::default()
        },
        ..Default::default()
    });
    for (k, &(wave, _)) in order.iter().enumerate() {
        let pc = prog.pcs[k];
        let loc = InstLoc {
            workgroup: [0; 3],
            wave,
            pc,
            addr: pc,
            trap_handler: false,
        };
        obs.before(&loc, &h.wave, &prog.insts[k]);
    }
    obs.finish();
    obs.findings().to_vec()
}

/// PC of the `k`th instruction of `order`.
fn pc_of(order: &[(u32, &[u8])], k: usize) -> u64 {
    order[..k].iter().map(|o| o.1.len() as u64).sum()
}

/// Asserts one stale-read race: the load (`load`th entry of `order`) against wave 1's ds_add,
/// the value reaching the write at entry `write`.
fn assert_stale(order: &[(u32, &[u8])], load: usize, write: usize) {
    assert_stale_exec(order, load, write, u64::MAX)
}

fn assert_stale_exec(order: &[(u32, &[u8])], load: usize, write: usize, exec: u64) {
    let f = stale_race_exec(order, exec);
    assert_eq!(f.len(), 1, "{f:#?}");
    let add = order.iter().position(|o| o.1 == DS_ADD).unwrap();
    assert_eq!(f[0].kind, FindingKind::Race);
    assert_eq!(
        (f[0].pc, f[0].other_pc),
        (pc_of(order, load), Some(pc_of(order, add)))
    );
    let t = &f[0].text;
    assert!(
        t.contains("wave 0 reads") && t.contains("wave 1's atomic"),
        "{t}"
    );
    assert!(
        t.contains("ds_load_b32 v5, v1") && t.contains("ds_add_u32 v1, v4"),
        "{t}"
    );
    assert!(t.contains("LDS address 0x"), "{t}");
    let w = format!("memory write at PC {:#x}", pc_of(order, write));
    assert!(t.contains(&w), "{w}: {t}");
}

#[test]
fn a_stale_loaded_value_that_reaches_a_store_is_a_race() {
    // The atomic first, then the load whose value (+ 1) is stored.
    assert_stale(
        &[
            (1, &DS_ADD),
            (0, &DS_LOAD),
            (0, &V_ADD_V6_V5),
            (0, &STORE_V6),
        ],
        1,
        3,
    );
    // The load and the store first, the atomic later: joined when the atomic is seen.
    assert_stale(
        &[
            (0, &DS_LOAD),
            (0, &V_ADD_V6_V5),
            (0, &STORE_V6),
            (1, &DS_ADD),
        ],
        0,
        2,
    );
    // Through SGPRs: v_readfirstlane, s_add, v_mov.
    assert_stale(
        &[
            (1, &DS_ADD),
            (0, &DS_LOAD),
            (0, &READFIRSTLANE),
            (0, &S_ADD_S5),
            (0, &V_MOV_V6_S5),
            (0, &STORE_V6),
        ],
        1,
        5,
    );
    // Through VCC into a v_cndmask: a value computed from the load is data, not control.
    assert_stale(
        &[
            (0, &DS_LOAD),
            (1, &DS_ADD),
            (0, &V_CMP_GT_VCC),
            (0, &CNDMASK_VCC),
            (0, &STORE_V6),
        ],
        0,
        4,
    );
    // As an atomic's DATA, and as a cmpswap's new value (the low half of its data pair).
    assert_stale(
        &[(1, &DS_ADD), (0, &DS_LOAD), (0, &GLOBAL_ATOMIC_ADD_V5)],
        1,
        2,
    );
    assert_stale(
        &[
            (1, &DS_ADD),
            (0, &DS_LOAD),
            (0, &V_ADD_V6_V5),
            (0, &GLOBAL_CMPSWAP_V67),
        ],
        1,
        3,
    );
    // Through a scratch spill and its reload (the spill itself is not a memory write of the
    // rule: scratch is private to the lane).
    assert_stale(
        &[
            (1, &DS_ADD),
            (0, &DS_LOAD),
            (0, &SCRATCH_STORE_V5),
            (0, &V_MOV_V5_0),
            (0, &SCRATCH_LOAD_V5),
            (0, &STORE_V5),
        ],
        1,
        5,
    );
    // Overwritten under a partial EXEC: the inactive lanes still hold the loaded value.
    assert_stale_exec(
        &[
            (1, &DS_ADD),
            (0, &DS_LOAD),
            (0, &V_MOV_V5_0),
            (0, &STORE_V5),
        ],
        1,
        3,
        0xffff,
    );
}

#[test]
fn a_stale_load_used_as_compare_value_control_or_not_at_all_is_tolerated() {
    let clean = |order: &[(u32, &[u8])]| {
        let f = stale_race(order);
        assert!(f.is_empty(), "{f:#?}");
    };
    // Never used (lds_atomics' `atomic_add(&hist[i], 0u)` compiled to a plain ds_load_b32).
    clean(&[(1, &DS_ADD), (0, &DS_LOAD)]);
    clean(&[(0, &DS_LOAD), (1, &DS_ADD)]);
    // Only the compare value of ds_cmpstore (DATA1) or of a cmpswap (the high half of its data
    // pair): a CAS loop's first read.
    clean(&[(1, &DS_ADD), (0, &DS_LOAD), (0, &DS_CMPSTORE)]);
    clean(&[
        (0, &DS_LOAD),
        (0, &V_MOV_V7_V5),
        (0, &GLOBAL_CMPSWAP_V67),
        (1, &DS_ADD),
    ]);
    // Only as an EXEC mask (the loop condition), then a store of something else, also of a
    // value computed from EXEC (a lane count: control, like workgroup_collectives' v_mbcnt).
    clean(&[(1, &DS_ADD), (0, &DS_LOAD), (0, &V_CMPX_GT), (0, &STORE_V6)]);
    clean(&[
        (1, &DS_ADD),
        (0, &DS_LOAD),
        (0, &V_CMPX_GT),
        (0, &MBCNT_EXEC),
        (0, &STORE_V6),
    ]);
    // Overwritten by an instruction with clean sources (with every lane active) before the
    // store, also by a reload of a scratch dword the spill did not write.
    clean(&[
        (1, &DS_ADD),
        (0, &DS_LOAD),
        (0, &V_MOV_V5_0),
        (0, &STORE_V5),
    ]);
    clean(&[
        (1, &DS_ADD),
        (0, &DS_LOAD),
        (0, &SCRATCH_STORE_V5),
        (0, &SCRATCH_LOAD_V5_20),
        (0, &STORE_V5),
    ]);
    // A value returned by an atomic is not stale.
    clean(&[(1, &DS_ADD), (0, &DS_ADD_RTN), (0, &STORE_V5)]);
    // A barrier between the atomic and the load orders them (either one before it).
    clean(&[
        (1, &DS_ADD),
        (1, &S_BARRIER),
        (0, &S_BARRIER),
        (0, &DS_LOAD),
        (0, &V_ADD_V6_V5),
        (0, &STORE_V6),
    ]);
    clean(&[
        (0, &DS_LOAD),
        (0, &V_ADD_V6_V5),
        (0, &STORE_V6),
        (0, &S_BARRIER),
        (1, &S_BARRIER),
        (1, &DS_ADD),
    ]);
}
