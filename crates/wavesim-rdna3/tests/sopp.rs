//! Program control and wave state tests: SOPP branches, s_endpgm, waits, traps, messages, MODE
//! shortcuts, s_getpc/s_setpc/s_swappc/s_call/s_rfe and s_getreg/s_setreg.
//!
//! Instruction words come from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding` (assembly
//! in the comment next to each word). Programs start at byte address 0 and the harness appends
//! an s_endpgm; byte addresses of interest are noted next to the instructions.

use wavesim_rdna3::exec::ExecError;
use wavesim_rdna3::testing::Harness;
use wavesim_rdna3::wave::status;

const SIZES: [bool; 2] = [false, true];
const TTMP0: usize = 108;
const VCC_LO: usize = 106;
const VCC_HI: usize = 107;
const EXEC_LO: usize = 126;
const EXEC_HI: usize = 127;

fn harness(wave64: bool, init: &[(usize, u32)]) -> Harness {
    let mut h = Harness::new(wave64);
    for &(r, v) in init {
        h.wave.sgpr[r] = v;
    }
    h
}

fn run(wave64: bool, init: &[(usize, u32)], words: &[u32]) -> Harness {
    let mut h = harness(wave64, init);
    h.run(words).expect("program runs");
    h
}

/// Lets programs of different lengths share one array.
fn progs<const N: usize>(p: [&'static [u32]; N]) -> [&'static [u32]; N] {
    p
}

fn s64(h: &Harness, r: usize) -> u64 {
    h.s(r) as u64 | (h.s(r + 1) as u64) << 32
}

fn other_error(h: &mut Harness, words: &[u32]) -> String {
    match h.run(words) {
        Err(ExecError::Other(msg)) => msg,
        r => panic!("expected ExecError::Other, got {r:?}"),
    }
}

// ------------------------------------------------------------------------------------------
// Branches
// ------------------------------------------------------------------------------------------

#[test]
fn backward_branch_loops_and_forward_branch_skips() {
    for w in SIZES {
        let h = run(
            w,
            &[],
            &[
                0xbe800083, // s_mov_b32 s0, 3
                0xbe810080, // s_mov_b32 s1, 0
                0x81018201, // s_add_i32 s1, s1, 2
                0x80808100, // s_sub_u32 s0, s0, 1
                0xbf078000, // s_cmp_lg_u32 s0, 0
                0xbfa2fffc, // s_cbranch_scc1 -4
                0xbfa00001, // s_branch 1
                0xbe820081, // s_mov_b32 s2, 1
                0xbe830081, // s_mov_b32 s3, 1
            ],
        );
        // [8] s_add_i32 is the loop head: 24 + (-4 * 4) = 8.
        assert_eq!(h.s(1), 6, "three iterations");
        assert_eq!(h.s(0), 0);
        assert_eq!(h.s(2), 0, "s_branch 1 skips one dword");
        assert_eq!(h.s(3), 1);
    }
}

#[test]
fn scc_branches() {
    for w in SIZES {
        for scc in [false, true] {
            let mut h = harness(w, &[]);
            h.wave.scc = scc;
            h.run(&[
                0xbfa10001, // s_cbranch_scc0 1
                0xbe800081, // s_mov_b32 s0, 1
                0xbfa20001, // s_cbranch_scc1 1
                0xbe810081, // s_mov_b32 s1, 1
            ])
            .unwrap();
            assert_eq!(h.s(0), scc as u32, "scc0 taken iff SCC = 0");
            assert_eq!(h.s(1), !scc as u32, "scc1 taken iff SCC = 1");
        }
    }
}

#[test]
fn vccz_and_execz_look_at_the_wave_s_own_lanes() {
    for w in SIZES {
        // VCC_LO = 0, VCC_HI != 0: VCC is zero for wave32 only.
        let h = run(
            w,
            &[(VCC_LO, 0), (VCC_HI, 1)],
            &[
                0xbfa30001, // s_cbranch_vccz 1
                0xbe800081, // s_mov_b32 s0, 1
                0xbfa40001, // s_cbranch_vccnz 1
                0xbe810081, // s_mov_b32 s1, 1
            ],
        );
        assert_eq!(h.s(0), w as u32, "vccz taken in wave32");
        assert_eq!(h.s(1), !w as u32, "vccnz taken in wave64");
        let h = run(
            w,
            &[(EXEC_LO, 0), (EXEC_HI, 1)],
            &[
                0xbfa50001, // s_cbranch_execz 1
                0xbe800081, // s_mov_b32 s0, 1
                0xbfa60001, // s_cbranch_execnz 1
                0xbe810081, // s_mov_b32 s1, 1
            ],
        );
        assert_eq!(h.s(0), w as u32, "execz taken in wave32");
        assert_eq!(h.s(1), !w as u32, "execnz taken in wave64");
        let h = run(
            w,
            &[(EXEC_LO, 1), (VCC_LO, 1)],
            &[
                0xbfa50001, // s_cbranch_execz 1
                0xbe800081, // s_mov_b32 s0, 1
                0xbfa30001, // s_cbranch_vccz 1
                0xbe810081, // s_mov_b32 s1, 1
            ],
        );
        assert_eq!((h.s(0), h.s(1)), (1, 1), "non-zero EXEC/VCC: not taken");
    }
}

#[test]
fn conditional_debug_branches_follow_status_cdbg_bits() {
    const CDBG_USER: u32 = 1 << 20;
    const CDBG_SYS: u32 = 1 << 21;
    for w in SIZES {
        for (bits, user, sys, or, and) in [
            (0, false, false, false, false),
            (CDBG_USER, true, false, true, false),
            (CDBG_SYS, false, true, true, false),
            (CDBG_USER | CDBG_SYS, true, true, true, true),
        ] {
            let mut h = harness(w, &[]);
            h.wave.hw.status |= bits;
            h.run(&[
                0xbfa80001, // s_cbranch_cdbguser 1
                0xbe800081, // s_mov_b32 s0, 1
                0xbfa70001, // s_cbranch_cdbgsys 1
                0xbe810081, // s_mov_b32 s1, 1
                0xbfa90001, // s_cbranch_cdbgsys_or_user 1
                0xbe820081, // s_mov_b32 s2, 1
                0xbfaa0001, // s_cbranch_cdbgsys_and_user 1
                0xbe830081, // s_mov_b32 s3, 1
            ])
            .unwrap();
            // A taken branch skips the s_mov after it.
            assert_eq!(
                [h.s(0), h.s(1), h.s(2), h.s(3)],
                [!user as u32, !sys as u32, !or as u32, !and as u32]
            );
        }
    }
}

#[test]
fn a_jump_into_the_middle_of_an_instruction_is_an_error() {
    for w in SIZES {
        let mut h = harness(w, &[(2, 6), (3, 0)]);
        // [0] s_setpc_b64 to 6 (not dword aligned); [4] s_mov_b32 with a literal spans 4..12.
        let err = h
            .run(&[
                0xbe804802, // s_setpc_b64 s[2:3]
                0xbe8000ff, 0x12345678, // s_mov_b32 s0, 0x12345678
            ])
            .unwrap_err();
        assert_eq!(err, ExecError::BadJump { target: 6 });
        let mut h = harness(w, &[(2, 8), (3, 0)]);
        let err = h
            .run(&[
                0xbe804802, // s_setpc_b64 s[2:3]
                0xbe8000ff, 0x12345678, // s_mov_b32 s0, 0x12345678
            ])
            .unwrap_err();
        assert_eq!(
            err,
            ExecError::BadJump { target: 8 },
            "8 is the literal of the s_mov"
        );
    }
}

// ------------------------------------------------------------------------------------------
// PC instructions
// ------------------------------------------------------------------------------------------

#[test]
fn getpc_returns_the_address_of_the_next_instruction() {
    for w in SIZES {
        let h = run(
            w,
            &[],
            &[
                0xbf800000, // s_nop 0
                0xbe804700, // s_getpc_b64 s[0:1]
                0xbe8400ff, 0x00001234, // s_mov_b32 s4, 0x1234
                0xbe824700, // s_getpc_b64 s[2:3]
            ],
        );
        assert_eq!(s64(&h, 0), 8, "s_getpc at 4 -> 8");
        assert_eq!(
            s64(&h, 2),
            20,
            "s_mov with literal is 8 bytes: s_getpc at 16 -> 20"
        );
        assert!(!h.wave.scc);
    }
}

#[test]
fn setpc_swappc_and_call_jump_and_link() {
    for w in SIZES {
        // [0] s_setpc_b64 -> 12; [4] s_mov s0; [8] s_endpgm; [12] s_mov s1
        let h = run(
            w,
            &[(2, 12), (3, 0)],
            &[
                0xbe804802, // s_setpc_b64 s[2:3]
                0xbe800081, // s_mov_b32 s0, 1
                0xbfb00000, // s_endpgm
                0xbe810082, // s_mov_b32 s1, 2
            ],
        );
        assert_eq!((h.s(0), h.s(1)), (0, 2));
        // [0] s_swappc_b64 s[4:5] <- 4, jump 16; [4] s_mov s0; [8] s_endpgm; [12] s_nop;
        // [16] s_mov s1; [20] s_setpc_b64 s[4:5] back to 4.
        let h = run(
            w,
            &[(2, 16), (3, 0)],
            &[
                0xbe844902, // s_swappc_b64 s[4:5], s[2:3]
                0xbe800081, // s_mov_b32 s0, 1
                0xbfb00000, // s_endpgm
                0xbf800000, // s_nop 0
                0xbe810082, // s_mov_b32 s1, 2
                0xbe804804, // s_setpc_b64 s[4:5]
            ],
        );
        assert_eq!(s64(&h, 4), 4, "return address = next instruction");
        assert_eq!((h.s(0), h.s(1)), (1, 2));
        // s_call_b64 s[4:5], 3: link 4, target 4 + 3 * 4 = 16.
        let h = run(
            w,
            &[],
            &[
                0xba040003, // s_call_b64 s[4:5], 3
                0xbe800081, // s_mov_b32 s0, 1
                0xbfb00000, // s_endpgm
                0xbf800000, // s_nop 0
                0xbe810082, // s_mov_b32 s1, 2
                0xbe804804, // s_setpc_b64 s[4:5]
            ],
        );
        assert_eq!(s64(&h, 4), 4);
        assert_eq!((h.s(0), h.s(1)), (1, 2));
    }
}

// ------------------------------------------------------------------------------------------
// End, barrier, no-ops
// ------------------------------------------------------------------------------------------

#[test]
fn endpgm_stops_the_wave() {
    for w in SIZES {
        for words in progs([
            &[
                0xbfb00000, // s_endpgm
                0xbe800081, // s_mov_b32 s0, 1
            ],
            &[
                0xbfb10000, // s_endpgm_saved
                0xbe800081, // s_mov_b32 s0, 1
            ],
            &[
                0xbf810001, // s_setkill 1
                0xbe800081, // s_mov_b32 s0, 1
            ],
        ]) {
            let h = run(w, &[], words);
            assert!(h.wave.ended);
            assert_eq!(h.s(0), 0);
        }
        let h = run(
            w,
            &[],
            &[
                0xbf810000, // s_setkill 0
                0xbe800081, // s_mov_b32 s0, 1
            ],
        );
        assert_eq!(h.s(0), 1, "s_setkill 0 does not kill");
    }
}

#[test]
fn barrier_alone_in_its_workgroup_continues() {
    for w in SIZES {
        let h = run(
            w,
            &[],
            &[
                0xbfbd0000, // s_barrier
                0xbe800081, // s_mov_b32 s0, 1
            ],
        );
        assert_eq!(h.s(0), 1);
    }
}

#[test]
fn waits_and_hints_change_no_state() {
    for w in SIZES {
        let mut h = harness(w, &[(0, 1), (5, 0x55), (VCC_LO, 3)]);
        h.wave.scc = true;
        h.wave.hw.mode = 0x3f0;
        let (sgpr, mode, status_before) = (h.wave.sgpr, h.wave.hw.mode, h.wave.hw.status);
        h.run(&[
            0xbf80000f, // s_nop 0xf
            0xbf830001, // s_sleep 1
            0xbf840001, // s_set_inst_prefetch_distance 0x1
            0xbf850001, // s_clause 0x1
            0xbf870001, // s_delay_alu instid0(VALU_DEP_1)
            0xbf88fffe, // s_waitcnt_depctr 0xfffe
            0xbf890007, // s_waitcnt vmcnt(0) lgkmcnt(0)
            0xbf8a0000, // s_wait_idle
            0xbf8b0000, // s_wait_event 0x0
            0xbc7c0000, // s_waitcnt_vscnt null, 0x0
            0xbcfc0001, // s_waitcnt_vmcnt null, 0x1
            0xbd7c0000, // s_waitcnt_expcnt null, 0x0
            0xbdfc0000, // s_waitcnt_lgkmcnt null, 0x0
            0xb0801234, // s_version 0x1234
            0xbfbc0000, // s_icache_inv
            0xbfb40000, // s_wakeup
            0xbfb80001, // s_incperflevel 1
            0xbfb90001, // s_decperflevel 1
            0xbfba0000, // s_ttracedata
            0xbfbb0001, // s_ttracedata_imm 0x1
        ])
        .unwrap();
        assert_eq!(h.wave.sgpr, sgpr);
        assert!(h.wave.scc);
        assert_eq!((h.wave.hw.mode, h.wave.hw.status), (mode, status_before));
        assert_eq!(h.wave.wave_insts, 21, "20 instructions and the s_endpgm");
    }
}

#[test]
fn code_end_padding_is_an_illegal_instruction() {
    let mut h = harness(false, &[]);
    let msg = other_error(
        &mut h,
        &[
            0xbf9f0000, // s_code_end
        ],
    );
    assert!(msg.contains("s_code_end"), "{msg}");
}

// ------------------------------------------------------------------------------------------
// MODE, STATUS and hardware registers
// ------------------------------------------------------------------------------------------

#[test]
fn round_and_denorm_mode_write_mode_fields() {
    for w in SIZES {
        let mut h = harness(w, &[]);
        h.wave.hw.mode = 0xffff_ff00;
        h.run(&[
            0xbf910003, // s_round_mode 0x3
            0xbf92000a, // s_denorm_mode 0xa
            0xb8803801, // s_getreg_b32 s0, hwreg(HW_REG_MODE, 0, 8)
        ])
        .unwrap();
        assert_eq!(h.wave.hw.mode, 0xffff_ffa3);
        assert_eq!(h.s(0), 0xa3);
    }
}

#[test]
fn getreg_setreg_use_offset_and_size() {
    for w in SIZES {
        let mut h = harness(w, &[(1, 0xff)]);
        h.wave.hw.mode = 0x3;
        // Only SIZE = 4 bits of s1 go to MODE[7:4].
        h.run(&[
            0xb9011901, // s_setreg_b32 hwreg(HW_REG_MODE, 4, 4), s1
            0xb880f801, // s_getreg_b32 s0, hwreg(HW_REG_MODE)
            0xb8820901, // s_getreg_b32 s2, hwreg(HW_REG_MODE, 4, 2)
            0xb88307c1, // s_getreg_b32 s3, hwreg(HW_REG_MODE, 31, 1)
        ])
        .unwrap();
        assert_eq!(h.wave.hw.mode, 0xf3);
        assert_eq!(h.s(0), 0xf3);
        assert_eq!(h.s(2), 0x3);
        assert_eq!(h.s(3), 0);
        // Reserved MODE bits stay zero; a shifted immediate lands at its offset.
        let mut h = harness(w, &[]);
        h.run(&[
            0xb980f801, 0xffffffff, // s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0xffffffff
            0xb880f801, // s_getreg_b32 s0, hwreg(HW_REG_MODE)
            0xb9800a01, 0x00000001, // s_setreg_imm32_b32 hwreg(HW_REG_MODE, 8, 2), 0x1
        ])
        .unwrap();
        assert_eq!(
            h.s(0),
            0x08bf_ffff,
            "FP_ROUND..EXCP_EN, FP16_OVFL, DISABLE_PERF"
        );
        assert_eq!(h.wave.hw.mode, 0x08bf_fdff, "bits [9:8] = 0b01");
    }
}

#[test]
fn getreg_status_shows_scc_execz_vccz_and_setreg_status_needs_priv() {
    for w in SIZES {
        let mut h = harness(w, &[(EXEC_LO, 0), (EXEC_HI, 0), (VCC_LO, 0)]);
        h.wave.scc = true;
        h.wave.hw.status = status::TRAP_EN;
        h.run(&[
            0xb880f802, // s_getreg_b32 s0, hwreg(HW_REG_STATUS)
            0xb980f802, 0xffffffff, // s_setreg_imm32_b32 hwreg(HW_REG_STATUS), 0xffffffff
            0xb881f802, // s_getreg_b32 s1, hwreg(HW_REG_STATUS)
        ])
        .unwrap();
        assert_eq!(h.s(0), 1 | 1 << 6 | 1 << 9 | 1 << 10);
        assert_eq!(
            h.s(1),
            h.s(0),
            "STATUS is read-only outside the trap handler"
        );
        // In the trap handler the writable fields change, SCC among them.
        let mut h = harness(w, &[(EXEC_LO, 0), (EXEC_HI, 0), (VCC_LO, 0)]);
        h.wave.hw.status = status::PRIV;
        h.run(&[
            0xb9802002, 0x00000019, // s_setreg_imm32_b32 hwreg(HW_REG_STATUS, 0, 5), 0x19
            0xb880f802, // s_getreg_b32 s0, hwreg(HW_REG_STATUS)
        ])
        .unwrap();
        assert!(h.wave.scc, "STATUS.SCC written");
        assert_eq!(
            h.s(0),
            0x19 | 1 << 5 | 1 << 9 | 1 << 10,
            "USER_PRIO = 3, PRIV kept"
        );
        let mut h = harness(w, &[]);
        h.wave.hw.status = status::PRIV;
        h.run(&[
            0xb980f802, 0x00000000, // s_setreg_imm32_b32 hwreg(HW_REG_STATUS), 0
        ])
        .unwrap();
        assert!(h.wave.privileged(), "PRIV is not writable");
    }
}

#[test]
fn trapsts_is_writable_by_the_shader_except_reserved_bits() {
    for w in SIZES {
        let h = run(
            w,
            &[],
            &[
                0xb980f803,
                0xffffffff, // s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS), 0xffffffff
                0xb880f803, // s_getreg_b32 s0, hwreg(HW_REG_TRAPSTS)
                0xb9804003, 0x00000000, // s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS, 0, 9), 0
                0xb881f803, // s_getreg_b32 s1, hwreg(HW_REG_TRAPSTS)
            ],
        );
        assert_eq!(h.s(0), 0x1ff | 0x7fc00 | 1 << 20);
        assert_eq!(h.s(1), 0x7fc00 | 1 << 20, "EXCP[8:0] cleared");
    }
}

#[test]
fn read_only_hardware_registers() {
    for w in SIZES {
        let mut h = harness(w, &[]);
        h.wave.hw.hw_id1 = 0x1234_5678;
        h.wave.hw.hw_id2 = 0x0100_0001;
        h.wave.hw.gpr_alloc = 0x0003_0002;
        h.wave.hw.lds_alloc = 0x40;
        h.run(&[
            0xb980f817, 0x00000000, // s_setreg_imm32_b32 hwreg(HW_REG_HW_ID1), 0
            0xb880f817, // s_getreg_b32 s0, hwreg(HW_REG_HW_ID1)
            0xb881f818, // s_getreg_b32 s1, hwreg(HW_REG_HW_ID2)
            0xb882f805, // s_getreg_b32 s2, hwreg(HW_REG_GPR_ALLOC)
            0xb883f806, // s_getreg_b32 s3, hwreg(HW_REG_LDS_ALLOC)
            0xb8840a17, // s_getreg_b32 s4, hwreg(HW_REG_HW_ID1, 8, 2)
        ])
        .unwrap();
        assert_eq!(
            [h.s(0), h.s(1), h.s(2), h.s(3)],
            [0x1234_5678, 0x0100_0001, 0x0003_0002, 0x40]
        );
        assert_eq!(h.s(4), 2, "SIMD_ID field [9:8] of 0x...5678");
    }
}

#[test]
fn flat_scratch_is_writable_only_in_the_trap_handler() {
    for w in SIZES {
        let mut h = harness(w, &[]);
        h.wave.hw.flat_scratch_lo = 0x1000;
        h.run(&[
            0xb980f814, 0x00002000, // s_setreg_imm32_b32 hwreg(HW_REG_FLAT_SCR_LO), 0x2000
            0xb880f814, // s_getreg_b32 s0, hwreg(HW_REG_FLAT_SCR_LO)
        ])
        .unwrap();
        assert_eq!(h.s(0), 0x1000);
        h.wave.hw.status |= status::PRIV;
        h.run(&[
            0xb980f815, 0x00000002, // s_setreg_imm32_b32 hwreg(HW_REG_FLAT_SCR_HI), 0x2
            0xb880f815, // s_getreg_b32 s0, hwreg(HW_REG_FLAT_SCR_HI)
        ])
        .unwrap();
        assert_eq!(h.s(0), 2);
    }
}

#[test]
fn sh_mem_bases_agrees_with_the_aperture_constants() {
    for w in SIZES {
        let h = run(
            w,
            &[],
            &[
                0xb880f80f, // s_getreg_b32 s0, hwreg(HW_REG_SH_MEM_BASES)
                0xbe8201eb, // s_mov_b64 s[2:3], src_shared_base
                0xbe8401ed, // s_mov_b64 s[4:5], src_private_base
            ],
        );
        assert_eq!(h.s(0) >> 16, h.s(3) >> 16, "[31:16] = shared base [63:48]");
        assert_eq!(
            h.s(0) & 0xffff,
            h.s(5) >> 16,
            "[15:0] = private base [63:48]"
        );
        assert_ne!(h.s(0), 0);
    }
}

#[test]
fn shader_cycles_is_a_20_bit_counter_that_advances() {
    for w in SIZES {
        let h = run(
            w,
            &[],
            &[
                0xb880f81d, // s_getreg_b32 s0, hwreg(HW_REG_SHADER_CYCLES)
                0xbf800000, // s_nop 0
                0xbf800000, // s_nop 0
                0xb881f81d, // s_getreg_b32 s1, hwreg(HW_REG_SHADER_CYCLES)
            ],
        );
        assert!(h.s(1) > h.s(0));
        assert!(h.s(1) < 1 << 20);
    }
}

#[test]
fn reserved_hardware_register_is_an_error() {
    let mut h = harness(false, &[]);
    let msg = other_error(
        &mut h,
        &[
            0xb880f800, // s_getreg_b32 s0, hwreg(0)
        ],
    );
    assert!(msg.contains("s_getreg_b32"), "{msg}");
    let msg = other_error(
        &mut h,
        &[
            0xb980f809, 0x00000001, // s_setreg_imm32_b32 hwreg(9), 0x1
        ],
    );
    assert!(msg.contains("s_setreg"), "{msg}");
}

#[test]
fn setprio_writes_status_user_prio() {
    for w in SIZES {
        let h = run(
            w,
            &[],
            &[
                0xbfb50002, // s_setprio 2
                0xb88008c2, // s_getreg_b32 s0, hwreg(HW_REG_STATUS, 3, 2)
            ],
        );
        assert_eq!(h.s(0), 2);
    }
}

#[test]
fn sethalt() {
    for w in SIZES {
        let h = run(
            w,
            &[],
            &[
                0xbf820000, // s_sethalt 0
                0xbe800081, // s_mov_b32 s0, 1
            ],
        );
        assert_eq!(h.s(0), 1);
        let mut h = harness(w, &[]);
        let msg = other_error(
            &mut h,
            &[
                0xbf820001, // s_sethalt 1
            ],
        );
        assert!(msg.contains("s_sethalt"), "{msg}");
        assert_ne!(h.wave.hw.status & status::HALT, 0);
    }
}

// ------------------------------------------------------------------------------------------
// Traps
// ------------------------------------------------------------------------------------------

/// [0] s_mov s0; [4] s_trap 5; [8] s_mov s1; [12] s_endpgm; handler at 16:
/// record STATUS, TTMP0, TTMP1, step past the s_trap, clear the trap ID, return.
fn trap_program() -> &'static [u32] {
    &[
        0xbe800081, // s_mov_b32 s0, 1
        0xbf900005, // s_trap 5
        0xbe810082, // s_mov_b32 s1, 2
        0xbfb00000, // s_endpgm
        0xb882f802, // s_getreg_b32 s2, hwreg(HW_REG_STATUS)
        0xbe83006c, // s_mov_b32 s3, ttmp0
        0xbe84006d, // s_mov_b32 s4, ttmp1
        0x806c846c, // s_add_u32 ttmp0, ttmp0, 4
        0x826d806d, // s_addc_u32 ttmp1, ttmp1, 0
        0x8b6dff6d, 0x0000ffff, // s_and_b32 ttmp1, ttmp1, 0xffff
        0xbe804a6c, // s_rfe_b64 ttmp[0:1]
    ]
}

#[test]
fn trap_without_a_handler_is_a_nop() {
    for w in SIZES {
        let mut h = harness(w, &[]);
        h.wave.tba = 16;
        h.run(trap_program()).unwrap();
        assert_eq!((h.s(0), h.s(1)), (1, 2));
        assert_eq!((h.s(2), h.s(3), h.s(TTMP0), h.s(TTMP0 + 1)), (0, 0, 0, 0));
        assert!(!h.wave.privileged());
    }
}

#[test]
fn trap_enters_the_handler_and_rfe_returns() {
    for w in SIZES {
        let mut h = harness(w, &[]);
        h.wave.tba = 16;
        h.wave.hw.status |= status::TRAP_EN;
        h.run(trap_program()).unwrap();
        assert_eq!((h.s(0), h.s(1)), (1, 2), "returned after the s_trap");
        assert_eq!(h.s(3), 4, "TTMP0 = PC of the s_trap itself");
        assert_eq!(h.s(4), 5 << 16, "TTMP1 = {{HT=0, trapID=5, PC[47:32]=0}}");
        assert_ne!(h.s(2) & status::PRIV, 0, "PRIV set in the handler");
        assert_ne!(h.s(2) & status::TRAP_EN, 0);
        assert!(!h.wave.privileged(), "s_rfe_b64 clears PRIV");
        assert_eq!(h.s(TTMP0), 8);
    }
}

// ------------------------------------------------------------------------------------------
// Messages
// ------------------------------------------------------------------------------------------

#[test]
fn dealloc_vgprs_message_marks_status_no_vgprs() {
    for w in SIZES {
        let h = run(
            w,
            &[],
            &[
                0xbfb60003, // s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)
                0xb8800602, // s_getreg_b32 s0, hwreg(HW_REG_STATUS, 24, 1)
            ],
        );
        assert_eq!(h.s(0), 1);
    }
}

#[test]
fn messages_wavesim_cannot_deliver_are_errors() {
    for words in progs([
        &[
            0xbfb60001, // s_sendmsg sendmsg(MSG_INTERRUPT)
        ],
        &[
            0xbfb60009, // s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)
        ],
        &[
            0xbfb60000, // s_sendmsg 0x0
        ],
        &[
            0xbfb70003, // s_sendmsghalt sendmsg(MSG_DEALLOC_VGPRS)
        ],
    ]) {
        let mut h = harness(false, &[]);
        let msg = other_error(&mut h, words);
        assert!(msg.contains("s_sendmsg"), "{msg}");
    }
    let mut h = harness(true, &[]);
    let msg = other_error(
        &mut h,
        &[
            0xbe804c80, // s_sendmsg_rtn_b32 s0, sendmsg(MSG_RTN_GET_DOORBELL)
        ],
    );
    assert!(msg.contains("s_sendmsg_rtn_b32"), "{msg}");
}

#[test]
fn sendmsg_rtn_returns_trap_addresses_and_realtime() {
    for w in SIZES {
        let mut h = harness(w, &[]);
        h.wave.tba = 0x1234_5678_9abc;
        h.wave.tma = 0x0000_4321_0000_8765;
        h.run(&[
            0xbe804d85, // s_sendmsg_rtn_b64 s[0:1], sendmsg(MSG_RTN_GET_TBA)
            0xbe824d82, // s_sendmsg_rtn_b64 s[2:3], sendmsg(MSG_RTN_GET_TMA)
            0xbe844c82, // s_sendmsg_rtn_b32 s4, sendmsg(MSG_RTN_GET_TMA)
            0xbe864d83, // s_sendmsg_rtn_b64 s[6:7], sendmsg(MSG_RTN_GET_REALTIME)
            0xbf89fc07, // s_waitcnt lgkmcnt(0)
            0xbe884d83, // s_sendmsg_rtn_b64 s[8:9], sendmsg(MSG_RTN_GET_REALTIME)
        ])
        .unwrap();
        assert_eq!(s64(&h, 0), 0x1234_5678_9abc);
        assert_eq!(s64(&h, 2), 0x0000_4321_0000_8765);
        assert_eq!(h.s(4), 0x8765, "the _b32 form keeps the low half");
        assert!(s64(&h, 8) >= s64(&h, 6), "REALTIME does not run backwards");
    }
}
