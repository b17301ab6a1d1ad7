//! Floating-point exceptions, illegal-instruction traps and the dot-instruction inline-constant
//! rule (RDNA3 ISA 3.4.2 MODE.EXCP_EN, 3.4.9 TRAPSTS and trap entry, 7.5.1).
//!
//! Instruction words come from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding` (assembly
//! in the comment next to each word). Expected values follow from the ISA rules: IEEE exception
//! conditions, TRAPSTS.EXCP bit numbering (0 invalid, 1 input denormal, 2 divide by zero,
//! 3 overflow, 4 underflow, 5 inexact, 6 integer divide by zero), MODE.EXCP_EN at [18:12].

use wavesim_rdna3::exec::ExecError;
use wavesim_rdna3::testing::Harness;
use wavesim_rdna3::wave::status;

const SIZES: [bool; 2] = [false, true];

const INVALID: u32 = 1 << 0;
const DENORM: u32 = 1 << 1;
const DIV0: u32 = 1 << 2;
const OVERFLOW: u32 = 1 << 3;
const UNDERFLOW: u32 = 1 << 4;
const INEXACT: u32 = 1 << 5;
const INT_DIV0: u32 = 1 << 6;

/// MODE with f32/f64/f16 denormals kept, round to nearest even, and EXCP_EN = `en`.
fn mode(en: u32) -> u32 {
    0xf0 | en << 12
}

const DX10_CLAMP: u32 = 1 << 8;
const TRAPSTS_ILLEGAL_INST: u32 = 1 << 11;

const V_ADD_F32: u32 = 0x06040300; // v_add_f32_e32 v2, v0, v1
const V_MUL_F32: u32 = 0x10040300; // v_mul_f32_e32 v2, v0, v1
const V_RCP_F32: u32 = 0x7e045500; // v_rcp_f32_e32 v2, v0
const V_RCP_IFLAG_F32: u32 = 0x7e045700; // v_rcp_iflag_f32_e32 v2, v0

fn f(x: f32) -> u32 {
    x.to_bits()
}

/// A wave with v0 = `a`, v1 = `b` in every lane, MODE = `m`.
fn setup(wave64: bool, m: u32, a: u32, b: u32) -> Harness {
    let mut h = Harness::new(wave64);
    h.wave.hw.mode = m;
    h.set_v(0, |_| a);
    h.set_v(1, |_| b);
    h
}

fn fp_error(r: Result<(), ExecError>) -> &'static str {
    match r {
        Err(ExecError::FpException { what }) => what,
        r => panic!("expected ExecError::FpException, got {r:?}"),
    }
}

#[test]
fn exceptions_are_ignored_while_excp_en_is_clear() {
    for w in SIZES {
        let mut h = setup(w, mode(0), f(f32::INFINITY), f(f32::NEG_INFINITY));
        h.run(&[V_ADD_F32]).unwrap();
        assert_eq!(h.v(2, 0), 0xffc0_0000, "inf - inf is the default NaN");
        assert_eq!(h.wave.hw.trapsts, 0);
    }
}

#[test]
fn an_enabled_exception_without_a_trap_handler_ends_the_dispatch() {
    for w in SIZES {
        let mut h = setup(w, mode(INVALID), f(f32::INFINITY), f(f32::NEG_INFINITY));
        assert_eq!(fp_error(h.run(&[V_ADD_F32])), "invalid operation");
        // The result is still written (the exception does not cancel it) and TRAPSTS records it.
        for l in 0..h.wave.lanes() {
            assert_eq!(h.v(2, l), 0xffc0_0000, "wave64={w} lane {l}");
        }
        assert_eq!(h.wave.hw.trapsts, INVALID);
    }
}

#[test]
fn each_exception_sets_its_trapsts_bit() {
    let tiny = f(2f32.powi(-100));
    let cases: [(&str, u32, u32, u32, u32, u32); 9] = [
        // (what, instruction, v0, v1, flags, result)
        (
            "overflow",
            V_MUL_F32,
            f(f32::MAX),
            f(2.0),
            OVERFLOW | INEXACT,
            f(f32::INFINITY),
        ),
        // 2^-200 is below the smallest denormal: rounds to +0.
        ("underflow", V_MUL_F32, tiny, tiny, UNDERFLOW | INEXACT, 0),
        // 2^-130 is exact as a denormal: underflow (tiny) but not inexact.
        (
            "exact tiny",
            V_MUL_F32,
            f(2f32.powi(-65)),
            f(2f32.powi(-65)),
            UNDERFLOW,
            0x0008_0000,
        ),
        (
            "inexact",
            V_ADD_F32,
            f(1.0),
            f(2f32.powi(-30)),
            INEXACT,
            f(1.0),
        ),
        ("exact", V_ADD_F32, f(1.0), f(2.0), 0, f(3.0)),
        // A subnormal operand, kept by MODE: the sum 1 + 2^-140 is inexact too.
        (
            "denormal in",
            V_ADD_F32,
            f(1.0),
            0x0000_0200,
            DENORM | INEXACT,
            f(1.0),
        ),
        ("rcp(0)", V_RCP_F32, 0, 0, DIV0, f(f32::INFINITY)),
        (
            "rcp(-0)",
            V_RCP_F32,
            0x8000_0000,
            0,
            DIV0,
            f(f32::NEG_INFINITY),
        ),
        // A signalling NaN operand is invalid; the result is the quieted NaN.
        ("snan", V_ADD_F32, 0x7fa0_0000, f(1.0), INVALID, 0x7fe0_0000),
    ];
    for w in SIZES {
        for (what, word, a, b, flags, result) in cases {
            // Enable only integer divide by zero: detection is on, nothing here traps.
            let mut h = setup(w, mode(INT_DIV0), a, b);
            h.run(&[word]).unwrap();
            assert_eq!(h.wave.hw.trapsts, flags, "{what} wave64={w}");
            assert_eq!(h.v(2, 3), result, "{what} wave64={w}");
        }
    }
}

#[test]
fn flags_accumulate_and_only_enabled_ones_trap() {
    for w in SIZES {
        // Overflow enabled; an inexact add is recorded but runs on.
        let mut h = setup(w, mode(OVERFLOW), f(1.0), f(2f32.powi(-30)));
        h.run(&[V_ADD_F32]).unwrap();
        assert_eq!(h.wave.hw.trapsts, INEXACT);
        // TRAPSTS.EXCP is sticky: a later overflow adds its bit, and this one traps.
        h.set_v(0, |_| f(f32::MAX));
        h.set_v(1, |_| f(f32::MAX));
        assert_eq!(fp_error(h.run(&[V_ADD_F32])), "overflow");
        assert_eq!(h.wave.hw.trapsts, INEXACT | OVERFLOW | INEXACT);
    }
}

#[test]
fn only_executing_lanes_raise_exceptions() {
    for w in SIZES {
        let mut h = setup(w, mode(INVALID), f(1.0), f(2.0));
        // inf - inf only in lanes 5 and 40 (40 exists in wave64 only).
        for l in [5, 40] {
            h.wave.vgpr_set(0, l, f(f32::INFINITY));
            h.wave.vgpr_set(1, l, f(f32::NEG_INFINITY));
        }
        h.wave.set_exec(!(1u64 << 5 | 1 << 40));
        h.run(&[V_ADD_F32]).unwrap();
        assert_eq!(h.wave.hw.trapsts, 0, "wave64={w}");
        assert_eq!(h.v(2, 0), f(3.0));
        h.wave.set_exec(1 << 5);
        assert_eq!(fp_error(h.run(&[V_ADD_F32])), "invalid operation");
    }
}

#[test]
fn dx10_clamp_suppresses_valu_exceptions() {
    for w in SIZES {
        let m = mode(INVALID | OVERFLOW) | DX10_CLAMP;
        let mut h = setup(w, m, f(f32::INFINITY), f(f32::NEG_INFINITY));
        h.run(&[V_ADD_F32]).unwrap();
        assert_eq!(h.v(2, 0), 0xffc0_0000);
        assert_eq!(h.wave.hw.trapsts, 0);
    }
}

#[test]
fn setreg_enables_exceptions() {
    for w in SIZES {
        let mut h = setup(w, 0xf0, f(f32::INFINITY), f(f32::NEG_INFINITY));
        let r = h.run(&[
            0xb9803301, 0x00000001, // s_setreg_imm32_b32 hwreg(HW_REG_MODE, 12, 7), 1
            V_ADD_F32,
        ]);
        assert_eq!(fp_error(r), "invalid operation");
        assert_eq!(h.wave.hw.mode >> 12 & 0x7f, INVALID);
    }
}

#[test]
fn rcp_iflag_raises_only_integer_divide_by_zero() {
    for w in SIZES {
        // 1/0: integer divide by zero, not the float one.
        let mut h = setup(w, mode(INT_DIV0), 0, 0);
        assert_eq!(
            fp_error(h.run(&[V_RCP_IFLAG_F32])),
            "integer divide by zero"
        );
        assert_eq!(h.wave.hw.trapsts, INT_DIV0);
        assert_eq!(h.v(2, 0), f(f32::INFINITY));
        // 1/3 is inexact as a float op, but v_rcp_iflag raises no float exception.
        let mut h = setup(w, mode(INEXACT | DIV0 | DENORM), f(3.0), 0);
        h.run(&[V_RCP_IFLAG_F32]).unwrap();
        assert_eq!(h.wave.hw.trapsts, 0);
        assert_eq!(h.v(2, 0), f(1.0 / 3.0), "same value as v_rcp_f32");
        // v_rcp_f32 raises the float ones.
        h.run(&[V_RCP_F32]).unwrap_err();
        assert_eq!(h.wave.hw.trapsts, INEXACT);
        let mut h = setup(w, mode(DIV0 | INT_DIV0), 0, 0);
        assert_eq!(fp_error(h.run(&[V_RCP_F32])), "float divide by zero");
        assert_eq!(h.wave.hw.trapsts, DIV0);
    }
}

#[test]
fn other_families_raise_too() {
    let nan_in = 0x7fa0_0000; // signalling NaN
    for w in SIZES {
        // sqrt(-1): invalid.
        let mut h = setup(w, mode(INVALID), f(-1.0), 0);
        assert_eq!(fp_error(h.run(&[0x7e046700])), "invalid operation"); // v_sqrt_f32_e32 v2, v0
        assert_eq!(h.v(2, 0), 0xffc0_0000);
        // NaN to integer: invalid, result 0.
        let mut h = setup(w, mode(INVALID), 0x7fc0_0000, 0);
        assert_eq!(fp_error(h.run(&[0x7e041100])), "invalid operation"); // v_cvt_i32_f32_e32 v2, v0
        assert_eq!(h.v(2, 0), 0);
        // Compares: a signalling NaN is invalid, a quiet one is not; the mask is still written.
        let mut h = setup(w, mode(INVALID), 0x7fc0_0000, f(1.0));
        h.run(&[0x7c240300]).unwrap(); // v_cmp_eq_f32_e32 vcc, v0, v1
        assert_eq!(h.wave.vcc(), 0);
        assert_eq!(h.wave.hw.trapsts, 0);
        h.set_v(0, |_| nan_in);
        h.wave.set_vcc(u64::MAX);
        assert_eq!(fp_error(h.run(&[0x7c240300])), "invalid operation");
        assert_eq!(h.wave.vcc(), 0);
        // f16: 65504 + 65504 overflows.
        let mut h = setup(w, mode(OVERFLOW), 0x7bff, 0x7bff);
        assert_eq!(fp_error(h.run(&[0x64040300])), "overflow"); // v_add_f16_e32 v2, v0, v1
        assert_eq!(h.v(2, 0) & 0xffff, 0x7c00);
        // f64: v[2:3] = +inf, v[0:1] = -inf in lane 7 (+1.0 elsewhere): invalid in lane 7.
        let mut h = setup(w, mode(INVALID), 0, 0);
        h.set_v(1, |l| if l == 7 { 0xfff0_0000 } else { 0x3ff0_0000 });
        h.set_v(2, |_| 0);
        h.set_v(3, |_| 0x7ff0_0000);
        let words = [0xd7270002, 0x00020500]; // v_add_f64 v[2:3], v[0:1], v[2:3]
        assert_eq!(fp_error(h.run(&words)), "invalid operation");
        assert_eq!(
            (h.v(2, 7), h.v(3, 7)),
            (0, 0xfff8_0000),
            "default NaN (f64)"
        );
        assert_eq!(h.v(3, 6), 0x7ff0_0000, "1 + inf = inf");
        // Packed f16: the high half overflows.
        let mut h = setup(w, mode(OVERFLOW), 0x7bff_0000, 0x7bff_3c00);
        let words = [0xcc0f4002, 0x18020300]; // v_pk_add_f16 v2, v0, v1
        assert_eq!(fp_error(h.run(&words)), "overflow");
        assert_eq!(h.v(2, 0), 0x7c00_3c00);
        // Output modifier: FLT_MAX * 1 is exact, *2 by omod overflows (MODE.IEEE = 0).
        let mut h = setup(w, mode(OVERFLOW), f(f32::MAX), f(1.0));
        let words = [0xd5080002, 0x08020300]; // v_mul_f32_e64 v2, v0, v1 mul:2
        assert_eq!(fp_error(h.run(&words)), "overflow");
        assert_eq!(h.v(2, 0), f(f32::INFINITY));
    }
    // VOPD (wave32 only).
    let mut h = setup(false, mode(INVALID), f(f32::INFINITY), f(f32::NEG_INFINITY));
    let words = [0xc9100300, 0x02020101]; // v_dual_add_f32 v2, v0, v1 :: v_dual_mov_b32 v3, v1
    assert_eq!(fp_error(h.run(&words)), "invalid operation");
    assert_eq!((h.v(2, 0), h.v(3, 0)), (0xffc0_0000, f(f32::NEG_INFINITY)));
    h.wave.hw.trapsts = 0;
    h.wave.set_exec(0);
    h.run(&words).unwrap();
    assert_eq!(h.wave.hw.trapsts, 0, "no executing lane, no exception");
}

/// [0] v_add_f32 v2, v0, v1 (may except); [4] s_mov s1, 2; [8] s_endpgm; handler at 12:
/// record TRAPSTS, TTMP0, TTMP1 and return to the saved PC.
fn trap_program() -> &'static [u32] {
    &[
        V_ADD_F32, 0xbe810082, // s_mov_b32 s1, 2
        0xbfb00000, // s_endpgm
        0xb882f803, // s_getreg_b32 s2, hwreg(HW_REG_TRAPSTS)
        0xbe83006c, // s_mov_b32 s3, ttmp0
        0xbe84006d, // s_mov_b32 s4, ttmp1
        0xbe804a6c, // s_rfe_b64 ttmp[0:1]
    ]
}

#[test]
fn an_enabled_exception_enters_the_trap_handler_after_the_instruction() {
    for w in SIZES {
        let mut h = setup(w, mode(INVALID), f(f32::INFINITY), f(f32::NEG_INFINITY));
        h.wave.tba = 12;
        h.wave.hw.status |= status::TRAP_EN;
        h.run(trap_program()).unwrap();
        assert_eq!(h.v(2, 0), 0xffc0_0000, "the result stands");
        assert_eq!(h.s(2) & 0x7f, INVALID, "TRAPSTS.EXCP seen by the handler");
        assert_eq!(
            h.s(3),
            4,
            "TTMP0 = PC of the instruction after the excepting one"
        );
        assert_eq!(h.s(4), 0, "TTMP1 = {{HT=0, trapID=0, PC[47:32]=0}}");
        assert_eq!(h.s(1), 2, "s_rfe resumed after the excepting instruction");
        assert!(!h.wave.privileged());
        // No exception: the handler never runs.
        let mut h = setup(w, mode(INVALID), f(1.0), f(2.0));
        h.wave.tba = 12;
        h.wave.hw.status |= status::TRAP_EN;
        h.run(trap_program()).unwrap();
        assert_eq!((h.s(1), h.s(3)), (2, 0));
    }
}

// ------------------------------------------------------------------------------------------
// Illegal instructions
// ------------------------------------------------------------------------------------------

/// [0] s_mov s1, 2; [4] <illegal>; [8] s_endpgm; handler at 12: record TRAPSTS, TTMP0, TTMP1,
/// skip the illegal word, return.
fn illegal_program(word: u32) -> Vec<u32> {
    vec![
        0xbe810082, // s_mov_b32 s1, 2
        word, 0xbfb00000, // s_endpgm
        0xb882f803, // s_getreg_b32 s2, hwreg(HW_REG_TRAPSTS)
        0xbe83006c, // s_mov_b32 s3, ttmp0
        0xbe84006d, // s_mov_b32 s4, ttmp1
        0x806c846c, // s_add_u32 ttmp0, ttmp0, 4
        0xbe804a6c, // s_rfe_b64 ttmp[0:1]
    ]
}

#[test]
fn illegal_instructions_enter_the_trap_handler_when_one_is_installed() {
    // v_illegal, s_code_end (end-of-code padding is illegal to execute) and a word that is no
    // gfx11 instruction (SOPP opcode 127; llvm-mc: "invalid instruction encoding").
    for word in [0x0000_0000, 0xbf9f_0000, 0xbfff_0000] {
        for w in SIZES {
            let mut h = Harness::new(w);
            h.wave.tba = 12;
            h.wave.hw.status |= status::TRAP_EN;
            h.run(&illegal_program(word)).unwrap();
            assert_ne!(
                h.s(2) & TRAPSTS_ILLEGAL_INST,
                0,
                "{word:#x} TRAPSTS.ILLEGAL_INST"
            );
            assert_eq!(
                h.s(3),
                4,
                "{word:#x}: TTMP0 = PC of the illegal instruction"
            );
            assert_eq!(h.s(4), 0, "{word:#x}: trapID 0");
            assert_eq!(h.s(1), 2);
            assert!(!h.wave.privileged());
        }
    }
}

#[test]
fn illegal_instructions_end_the_dispatch_without_a_handler_or_inside_it() {
    for w in SIZES {
        let mut h = Harness::new(w);
        h.wave.tba = 12;
        let r = h.run(&illegal_program(0));
        assert_eq!(r, Err(ExecError::InvalidInstruction { word: 0 }));
        assert_eq!(h.wave.hw.trapsts, 0);
        // Inside the trap handler (PRIV = 1) an illegal instruction cannot trap again.
        let mut h = Harness::new(w);
        h.wave.hw.status |= status::TRAP_EN | status::PRIV;
        let r = h.run(&[0x0000_0000]);
        assert_eq!(r, Err(ExecError::InvalidInstruction { word: 0 }));
        let mut h = Harness::new(w);
        let r = h.run(&[0xbfff_0000]);
        assert_eq!(r, Err(ExecError::InvalidInstruction { word: 0xbfff_0000 }));
        let mut h = Harness::new(w);
        match h.run(&[0xbf9f_0000]) {
            Err(ExecError::Other(m)) => assert!(m.contains("s_code_end"), "{m}"),
            r => panic!("{r:?}"),
        }
    }
}

// ------------------------------------------------------------------------------------------
// Inline constants of dot instructions (RDNA3 ISA 7.5.1: "Duplicate lo to hi")
// ------------------------------------------------------------------------------------------

/// f16 3.0 (high) and 2.0 (low).
const F16_3_2: u32 = 0x4200_4000;
/// bf16 3.0 (high) and 2.0 (low).
const BF16_3_2: u32 = 0x4040_4000;

#[test]
fn dot_inline_constants_feed_both_halves() {
    for w in SIZES {
        let mut h = Harness::new(w);
        h.set_v(1, |_| F16_3_2);
        // v_dot2acc_f32_f16: D = 0.5 + 1*2 + 1*3.
        h.set_v(2, |_| f(0.5));
        h.run(&[0x040402f2]).unwrap(); // v_dot2acc_f32_f16 v2, 1.0, v1
        assert_eq!(h.v(2, 0), f(5.5), "dot2acc wave64={w}");
        // VOP3 v_dot2_f16_f16: 0.5 + 2 + 3 = 5.5 (f16 0x4580) in the low half of v2.
        h.set_v(2, |_| 0xdead_0000);
        h.set_v(3, |_| 0x3800); // f16 0.5
        h.run(&[0xd6660002, 0x040e02f2]).unwrap(); // v_dot2_f16_f16 v2, 1.0, v1, v3
        assert_eq!(h.v(2, 0), 0xdead_4580, "dot2_f16_f16 1.0 wave64={w}");
        h.run(&[0xd6660002, 0x040e02f3]).unwrap(); // v_dot2_f16_f16 v2, -1.0, v1, v3
        assert_eq!(h.v(2, 0), 0xdead_c480, "0.5 - 2 - 3 = -4.5 wave64={w}");
        // An inline src2 is the f16 constant: 1 + 2*2 + 2*3 = 11 (0x4980).
        h.run(&[0xd6660002, 0x03c9e901]).unwrap(); // v_dot2_f16_f16 v2, v1, 2.0, 1.0
        assert_eq!(h.v(2, 0), 0xdead_4980, "dot2_f16_f16 src2 wave64={w}");
        // bf16: the constant is the upper half of the f32 value, in both halves.
        h.set_v(1, |_| BF16_3_2);
        h.set_v(3, |_| 0x3f00); // bf16 0.5
        h.run(&[0xd6670002, 0x040e02f2]).unwrap(); // v_dot2_bf16_bf16 v2, 1.0, v1, v3
        assert_eq!(h.v(2, 0), 0xdead_40b0, "bf16 5.5 wave64={w}");
        // src2 0.5 as bf16 (0x3f00): 0.5 - 2 - 3 = -4.5 (0xc090).
        h.run(&[0xd6670002, 0x03c1e701]).unwrap(); // v_dot2_bf16_bf16 v2, v1, -1.0, 0.5
        assert_eq!(h.v(2, 0), 0xdead_c090, "bf16 src2 wave64={w}");
    }
    // VOPD v_dual_dot2acc_f32_f16 follows the same rule: 0.5 + 2*2 + 2*3.
    let mut h = Harness::new(false);
    h.set_v(1, |_| F16_3_2);
    h.set_v(2, |_| f(0.5));
    h.run(&[0xcb1002f4, 0x02020101]).unwrap(); // v_dual_dot2acc_f32_f16 v2, 2.0, v1 :: v_dual_mov_b32 v3, v1
    assert_eq!((h.v(2, 0), h.v(3, 0)), (f(10.5), F16_3_2));
}

#[test]
fn packed_f16_inline_constants_elsewhere_are_zero_extended() {
    // ISA 4.1: for 16-bit operations, packed or not, a float constant is the f16 value in the
    // low half with zeros above. v_pk_fmac_f16 (VOP2): lo = 1*2 + 1 = 3, hi = 0*3 + 1 = 1.
    for w in SIZES {
        let mut h = Harness::new(w);
        h.set_v(1, |_| F16_3_2);
        h.set_v(2, |_| 0x3c00_3c00);
        h.run(&[0x780402f2]).unwrap(); // v_pk_fmac_f16 v2, 1.0, v1
        assert_eq!(h.v(2, 0), 0x3c00_4200, "wave64={w}");
    }
}

#[test]
fn dot2_f16_and_bf16_ignore_mode_rounding_and_bf16_flushes_denormals() {
    // ISA 7.2.4: DOT2_F16_F16 and DOT2_BF16_BF16 round to nearest even; f16 keeps denormals,
    // bf16 flushes them.
    for w in SIZES {
        // f16: 1 + 2^-11 is a tie between 1 and 1 + 2^-10: nearest even gives 1.0 even with
        // MODE round-up for f16 (FP_ROUND[3:2] = 1).
        let mut h = Harness::new(w);
        h.wave.hw.mode = 1 << 2; // f16/f64 round toward +inf, all denormals flushed
        h.set_v(0, |_| 0x0000_1000); // f16 2^-11 in the low half, 0 in the high
        h.set_v(1, |_| 0x0000_3c00); // 1.0, 0
        h.set_v(3, |_| 0x3c00); // 1.0
        h.run(&[0xd6660002, 0x040e0300]).unwrap(); // v_dot2_f16_f16 v2, v0, v1, v3
        assert_eq!(h.v(2, 0) & 0xffff, 0x3c00, "f16 RNE wave64={w}");
        // f16 denormals are kept whatever MODE says: 2^-20 * 1 + 0 = 2^-20 (0x0010).
        h.set_v(0, |_| 0x0000_0010);
        h.set_v(3, |_| 0);
        h.run(&[0xd6660002, 0x040e0300]).unwrap();
        assert_eq!(h.v(2, 0) & 0xffff, 0x0010, "f16 denormal kept wave64={w}");
        // bf16 flushes a denormal input even with MODE keeping f32 denormals.
        h.wave.hw.mode = 0xf0;
        h.set_v(0, |_| 0x0000_0040); // bf16 denormal 2^-127
        h.set_v(1, |_| 0x0000_3f80); // 1.0
        h.set_v(3, |_| 0);
        h.run(&[0xd6670002, 0x040e0300]).unwrap(); // v_dot2_bf16_bf16 v2, v0, v1, v3
        assert_eq!(h.v(2, 0) & 0xffff, 0, "bf16 denormal flushed wave64={w}");
    }
}
