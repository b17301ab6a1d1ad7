//! Hand-assembled programs for what LLVM never emits. Each expected value follows from the rule cited
//! (R700 ISA reference chapter/section; the R700 ISA reference (2.5 Program State) = the reference's 2.5 "Program state"), not from what the
//! executor prints.

use wavesim_r700::exec::{ExecError, ExportTarget};
use wavesim_r700::runner::{run, RunConfig, RunError, RunResult};
use wavesim_r700::{assemble, Chip, Shader};

fn run_asm(chip: Chip, text: &str, cfg: &str) -> Result<RunResult, RunError> {
    let bytes = assemble(text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let sh = Shader::from_raw(chip, &bytes).unwrap_or_else(|e| panic!("{e}\n{text}"));
    run(&sh, &RunConfig::from_toml(cfg).unwrap())
}

fn f(bits: Option<u32>) -> f32 {
    f32::from_bits(bits.expect("component exported"))
}

fn pixel0(r: &RunResult, t: usize) -> [Option<u32>; 4] {
    r.export(t, ExportTarget::Pixel(0))
        .expect("pixel 0 exported")
}

fn inputs(reg: u32, vals: &[[f32; 4]]) -> String {
    let rows: Vec<String> = vals
        .iter()
        .map(|v| format!("[{:?}, {:?}, {:?}, {:?}]", v[0], v[1], v[2], v[3]))
        .collect();
    format!("[[gpr]]\nreg = {reg}\nvalues = [{}]\n", rows.join(", "))
}

fn cfile(n: usize, f: impl Fn(usize) -> f32) -> String {
    let rows: Vec<String> = (0..n)
        .map(|k| format!("[{:?}, 0.0, 0.0, 0.0]", f(k)))
        .collect();
    format!("constant_file = [{}]\n", rows.join(", "))
}

/// LOOP_START with integer constant I = (count, init, inc): the body runs `count` times with
/// aL = init, init + inc, ... (R700 ISA reference, 2.5 Program State, "loop index aL ... initialized by LOOP* and incremented by the
/// hardware on each iteration"; ISA 3.7 Loops). The body reads C[0 + aL] (INDEX_MODE = LOOP).
#[test]
fn loop_start_with_al_and_al_relative_constants() {
    let prog = "\
        LOOP_START @3 ; cf_const:0
        ALU 0, @6, KC0[], KC1[]
        END_LOOP @1
        EXPORT T1.XYZW
        CF_END
        PAD
        ALU clause starting at 6:
          ADD * T1.X, T1.X, C0.X+, ; index_mode:4
    ";
    let cfg = format!(
        "threads = 2\n{}{}[[loop_constant]]\nindex = 0\ncount = 4\ninit = 2\ninc = 3\n",
        cfile(32, |k| k as f32 * 10.0),
        inputs(1, &[[0.0; 4], [1.0, 0.0, 0.0, 0.0]])
    );
    let r = run_asm(Chip::Rv770, prog, &cfg).unwrap();
    // aL = 2, 5, 8, 11: c[aL].x = 20 + 50 + 80 + 110.
    assert_eq!(f(pixel0(&r, 0)[0]), 260.0);
    assert_eq!(f(pixel0(&r, 1)[0]), 261.0);
}

/// LOOP_START_NO_AL nested in LOOP_START keeps the outer aL (ISA 3.7: NO_AL does not change aL); the
/// inner count comes from its own constant.
#[test]
fn nested_loop_start_no_al_keeps_outer_al() {
    let prog = "\
        LOOP_START @5 ; cf_const:0
        LOOP_START_NO_AL @4 ; cf_const:1
        ALU 0, @8, KC0[], KC1[]
        END_LOOP @2
        END_LOOP @1
        EXPORT T1.XYZW
        CF_END
        PAD
        ALU clause starting at 8:
          ADD * T1.X, T1.X, C0.X+, ; index_mode:4
    ";
    let cfg = format!(
        "threads = 1\n{}{}[[loop_constant]]\nindex = 0\ncount = 2\ninit = 1\ninc = 1\n[[loop_constant]]\nindex = 1\ncount = 3\ninit = 7\ninc = 5\n",
        cfile(8, |k| (1 << k) as f32),
        inputs(1, &[[0.0; 4]])
    );
    let r = run_asm(Chip::Rv770, prog, &cfg).unwrap();
    // aL = 1 then 2 in the outer loop; 3 inner iterations each: 3 * (c1 + c2) = 3 * (2 + 4).
    assert_eq!(f(pixel0(&r, 0)[0]), 18.0);
}

/// A loop whose constant count is 0 is skipped: LOOP_START jumps to its ADDR (ISA 3.7).
#[test]
fn loop_with_zero_count_is_skipped() {
    let prog = "\
        LOOP_START @3 ; cf_const:2
        ALU 0, @6, KC0[], KC1[]
        END_LOOP @1
        EXPORT T1.XYZW
        CF_END
        PAD
        ALU clause starting at 6:
          ADD * T1.X, T1.X, 1.0,  
    ";
    let cfg = format!(
        "threads = 1\n{}[[loop_constant]]\nindex = 2\ncount = 0\n",
        inputs(1, &[[5.0, 0.0, 0.0, 0.0]])
    );
    let r = run_asm(Chip::Rv770, prog, &cfg).unwrap();
    assert_eq!(f(pixel0(&r, 0)[0]), 5.0);
}

/// The constant file has 512 entries (R700 ISA reference, 2.5 Program State: "constant registers, 512"): select 256 + n addresses
/// c[n], and AR-relative addressing reaches past c255. MOVA_INT clamps AR to [-256, 255] (ISA, MOVA_INT),
/// so C255 + AR reaches c510 at most; an index below c0 is an error.
#[test]
fn constant_file_512_entries_with_ar_relative_addressing() {
    let prog = |c: u32, ar: i32| {
        format!(
            "\
        ALU 2, @2, KC0[], KC1[]
        EXPORT T1.XYZW
        ALU clause starting at 2:
          MOVA_INT * AR.x (MASKED), literal.x,  
        {ar}(0), 0(0)
          MOV * T1.X, C{c}.X+,  
    "
        )
    };
    let cfg = format!("threads = 1\n{}", cfile(512, |k| k as f32));
    let r = run_asm(Chip::Rv770, &prog(255, 100), &cfg).unwrap();
    assert_eq!(f(pixel0(&r, 0)[0]), 355.0);
    let r = run_asm(Chip::Rv770, &prog(255, 256), &cfg).unwrap();
    assert_eq!(f(pixel0(&r, 0)[0]), 510.0, "AR clamps to 255");
    let r = run_asm(Chip::Rv770, &prog(200, -300), &cfg).unwrap_err();
    assert!(
        r.to_string()
            .contains("constant-file index -56 is outside c0..c511"),
        "{r}"
    );
    // Without AR-relative addressing C255 is c255.
    let r = run_asm(Chip::Rv770, &prog(255, 0), &cfg).unwrap();
    assert_eq!(f(pixel0(&r, 0)[0]), 255.0);
}

/// AR holds for one ALU clause only (R700 ISA reference, 2.5 Program State: "this state persists for one ALU clause"): a relative
/// read in the next clause without a new MOVA is an error.
#[test]
fn ar_does_not_survive_the_alu_clause() {
    let prog = "\
        ALU 0, @3, KC0[], KC1[]
        ALU 0, @4, KC0[], KC1[]
        EXPORT T1.XYZW
        ALU clause starting at 3:
          MOVA_INT * AR.x (MASKED), 1,  
        ALU clause starting at 4:
          MOV * T1.X, C0.X+,  
    ";
    let cfg = format!("threads = 1\n{}", cfile(4, |k| k as f32));
    let e = run_asm(Chip::Rv770, prog, &cfg).unwrap_err();
    assert!(
        e.to_string()
            .contains("AR.x which no MOVA wrote in this ALU clause"),
        "{e}"
    );
}

/// kcache: a CF_ALU locks lines of a constant buffer; KC0[n] is constant line*16 + n of that buffer
/// (ISA 4.6 "constant cache"), and only the locked lines are addressable.
#[test]
fn kcache_bank_lines() {
    let prog = "\
        ALU 0, @3, KC0[CB2:16-32], KC1[CB0:0-32]
        EXPORT T1.XYZW
        CF_END
        ALU clause starting at 3:
          ADD * T1.Y, KC0[3].Y, KC1[20].W,  
    ";
    let rows = |b: usize| {
        (0..64)
            .map(|i| {
                format!(
                    "[{}.0, {}.0, {}.0, {}.0]",
                    b * 1000 + i * 4,
                    b * 1000 + i * 4 + 1,
                    b * 1000 + i * 4 + 2,
                    b * 1000 + i * 4 + 3
                )
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let cfg = format!(
        "threads = 1\n[[constant_buffer]]\nindex = 0\nvalues = [{}]\n[[constant_buffer]]\nindex = 2\nvalues = [{}]\n",
        rows(0),
        rows(2)
    );
    let r = run_asm(Chip::Rv770, prog, &cfg).unwrap();
    // KC0[3] = cb2[16 + 3].y = 2000 + 19*4 + 1; KC1[20] = cb0[20].w = 83.
    assert_eq!(f(pixel0(&r, 0)[1]), 2077.0 + 83.0);
    // Two lines starting at line 2 (constants 32..63): KC0[17] = cb2[32 + 17].y.
    let two_lines = prog
        .replace("CB2:16-32", "CB2:32-64")
        .replace("KC0[3].Y", "KC0[17].Y");
    let r = run_asm(Chip::Rv770, &two_lines, &cfg).unwrap();
    assert_eq!(f(pixel0(&r, 0)[1]), (2000 + 49 * 4 + 1) as f32 + 83.0);
    // One locked line (16 constants): KC0[16] is outside it.
    let one_line = prog
        .replace("CB2:16-32", "CB2:32-48")
        .replace("KC0[3].Y", "KC0[16].Y");
    let e = run_asm(Chip::Rv770, &one_line, &cfg).unwrap_err();
    assert!(
        e.to_string().contains("outside the 1 locked kcache line"),
        "{e}"
    );
}

/// Clause temporaries (R700 ISA reference, 2.5 Program State): with 4 of them, GPR addresses 124..127 are temporaries that live for
/// one ALU clause, and only 127 - 2*4 = 119 ordinary GPRs (T0..T118) remain addressable.
#[test]
fn clause_temporaries_live_for_one_alu_clause() {
    let within = "\
        ALU 2, @2, KC0[], KC1[]
        EXPORT T1.XYZW
        ALU clause starting at 2:
          MUL_IEEE * T127.X, T0.X, literal.x,  
        1073741824(2.0), 0(0.0)
          ADD * T1.X, T127.X, 1.0,  
    ";
    let cfg = format!(
        "threads = 1\nclause_temp_gprs = 4\n{}",
        inputs(0, &[[3.0, 0.0, 0.0, 0.0]])
    );
    let r = run_asm(Chip::Rv770, within, &cfg).unwrap();
    assert_eq!(f(pixel0(&r, 0)[0]), 7.0);
    let across = "\
        ALU 0, @3, KC0[], KC1[]
        ALU 0, @4, KC0[], KC1[]
        EXPORT T1.XYZW
        ALU clause starting at 3:
          MOV * T127.X, T0.X,  
        ALU clause starting at 4:
          MOV * T1.X, T127.X,  
    ";
    let e = run_asm(Chip::Rv770, across, &cfg).unwrap_err();
    assert!(
        e.to_string()
            .contains("read before this ALU clause wrote it"),
        "{e}"
    );
    let too_high = within.replace("T1.X, T127.X", "T119.X, T127.X");
    let e = run_asm(Chip::Rv770, &too_high, &cfg).unwrap_err();
    assert!(e.to_string().contains("127 - 2 x 4"), "{e}");
    // The error names the CF instruction, the clause slot address, the ALU slot, the thread and the text.
    assert!(
        e.to_string()
            .starts_with("CF @0, clause @4 slot x, thread 0: `ADD * T119.X, T127.X, 1.0,`"),
        "{e}"
    );
    // Without clause temporaries T127 is an ordinary GPR... but still past 127 - 0 = 127 GPRs (T0..T126).
    let e = run_asm(
        Chip::Rv770,
        within,
        &format!("threads = 1\n{}", inputs(0, &[[3.0; 4]])),
    )
    .unwrap_err();
    assert!(e.to_string().contains("T127 is not addressable"), "{e}");
    // Exports cannot reach clause temporaries.
    let exp = "\
        ALU 0, @2, KC0[], KC1[]
        EXPORT T125.XYZW
        ALU clause starting at 2:
          MOV * T125.X, T0.X,  
    ";
    let e = run_asm(Chip::Rv770, exp, &cfg).unwrap_err();
    assert!(e.to_string().contains("clause temporary"), "{e}");
}

/// SIMD-global GPRs persist across all threads of the SIMD during a kernel (R700 ISA reference, 2.5 Program State). ALU operands
/// reach them with the REL bit and INDEX_MODE = GLOBAL (absolute address) or GLOBAL_AR_X (address +
/// AR.x) (R700 ISA reference 2.6.1.1). Every thread of a wave reads the value before the group writes it
/// (ISA 4.7: operands are read before results are written), so one wave adds 1; the second wave sees
/// the first wave's result.
#[test]
fn simd_global_gprs_persist_across_waves() {
    let prog = "\
        ALU 4, @2, KC0[], KC1[]
        EXPORT T1.XYZW
        ALU clause starting at 2:
          ADD_INT * T(0 + AR.x).X+, T(0 + AR.x).X+, 1, ; index_mode:5
          MOV * T1.X, T(0 + AR.x).X+, ; index_mode:5
          MOVA_INT * AR.x (MASKED), 1,  
          MOV * T1.Y, T(0 + AR.x).X+, ; index_mode:6
          MOV * T1.Z, T0.X,  
    ";
    let cfg = "threads = 128\n[[gpr]]\nreg = 0\nvalues = [".to_string()
        + &vec!["[5, 0, 0, 0]"; 128].join(", ")
        + "]\n[global_gprs]\nvalues = [[40, 0, 0, 0], [7, 0, 0, 0]]\n";
    // 128 threads = two 64-thread wavefronts on rv770.
    let r = run_asm(Chip::Rv770, prog, &cfg).unwrap();
    assert_eq!(r.waves, 2);
    assert_eq!(pixel0(&r, 0)[0], Some(41));
    assert_eq!(pixel0(&r, 127)[0], Some(42));
    assert_eq!(r.global_gprs[0][0], 42);
    // GLOBAL_AR_X: global GPR 0 + AR.x = 1.
    assert_eq!(pixel0(&r, 5)[1], Some(7));
    // Without the REL bit the same address is the thread's own GPR.
    assert_eq!(pixel0(&r, 5)[2], Some(5));
    // RV710 runs 32-thread wavefronts: 4 waves.
    let r = run_asm(Chip::Rv710, prog, &cfg).unwrap();
    assert_eq!(r.waves, 4);
    assert_eq!(r.global_gprs[0][0], 44);
    // A global address past the driver's global GPRs is an error.
    let e = run_asm(Chip::Rv770, prog, &cfg.replace(", [7, 0, 0, 0]", "")).unwrap_err();
    assert!(
        e.to_string().contains("SIMD-global GPR 1 does not exist"),
        "{e}"
    );
}

/// CALL pushes the return address and jumps; RETURN pops it (ISA 3.8 Subroutines).
#[test]
fn call_and_return() {
    let prog = "\
        CALL @4
        CALL @4
        EXPORT T1.XYZW
        CF_END
        ALU 1, @6, KC0[], KC1[]
        RETURN
        ALU clause starting at 6:
          MUL_IEEE * T1.X, T1.X, literal.x,  
        1073741824(2.0), 0(0.0)
    ";
    let r = run_asm(
        Chip::Rv770,
        prog,
        &format!("threads = 1\n{}", inputs(1, &[[3.0, 0.0, 0.0, 0.0]])),
    )
    .unwrap();
    assert_eq!(f(pixel0(&r, 0)[0]), 12.0);
    let e = run_asm(Chip::Rv770, "RETURN\nCF_END\n", "threads = 1\n").unwrap_err();
    assert!(e.to_string().contains("RETURN without a CALL"), "{e}");
}

/// The stack has a depth limit and overflowing it is an error (R700 ISA reference, 2.5 Program State "the stack"; ISA 3.6.2: a
/// push takes a quarter entry, a loop or call a whole entry).
#[test]
fn stack_depth_limit() {
    let recursion = "CALL @0\nCF_END\n";
    let e = run_asm(Chip::Rv770, recursion, "threads = 1\nstack_entries = 3\n").unwrap_err();
    match e {
        RunError::Exec(ExecError::StackOverflow { needed, limit, .. }) => {
            assert_eq!((needed, limit), (4, 3))
        }
        e => panic!("{e}"),
    }
    // Five pushes need two entries (ceil(5/4)); four fit in one.
    let pushes = |n: usize| "PUSH @9 POP:0\n".repeat(n) + "CF_END\n";
    run_asm(Chip::Rv770, &pushes(4), "threads = 1\nstack_entries = 1\n").unwrap();
    let e = run_asm(Chip::Rv770, &pushes(5), "threads = 1\nstack_entries = 1\n").unwrap_err();
    assert!(
        matches!(
            e,
            RunError::Exec(ExecError::StackOverflow {
                needed: 2,
                limit: 1,
                ..
            })
        ),
        "{e}"
    );
}

/// CF KILL kills the pixels for which its condition holds; killed pixels leave the valid mask and no
/// longer export (R700 ISA reference, 2.5 Program State: "valid mask ... updated when a CF_INST_KILL is executed"). COND = BOOL uses
/// boolean constant b[CF_CONST].
#[test]
fn kill_cf_instruction() {
    let prog = "\
        KILL @3 POP:0 ; cond:2 cf_const:1
        EXPORT T0.XYZW
        CF_END
    ";
    let cfg = |b: u32| {
        format!(
            "threads = 2\nbool_constants = {b}\n{}",
            inputs(0, &[[1.0; 4], [2.0; 4]])
        )
    };
    let r = run_asm(Chip::Rv770, prog, &cfg(2)).unwrap();
    assert!(r.threads.iter().all(|t| t.killed && t.exports.is_empty()));
    let r = run_asm(Chip::Rv770, prog, &cfg(1)).unwrap();
    assert!(r.threads.iter().all(|t| !t.killed));
    assert_eq!(f(pixel0(&r, 1)[0]), 2.0);
}

/// Predication and the exec-mask update at the end of the ALU clause (R700 ISA reference, 2.5 Program State: "the update does not
/// take effect until the end of the ALU clause"): ALU_PUSH_BEFORE + PRED_SETGT with UPDATE_EXEC_MASK
/// makes only x > 0 pixels active after the clause; a later instruction of the same clause with
/// PRED_SEL uses the predicate; ELSE flips, POP restores.
#[test]
fn exec_mask_update_at_clause_end_and_else() {
    let prog = "\
        ALU_PUSH_BEFORE 2, @8, KC0[], KC1[]
        ALU 0, @11, KC0[], KC1[]
        ELSE @4 POP:0
        ALU 0, @12, KC0[], KC1[]
        POP @5 POP:1
        EXPORT T1.XYZW
        CF_END
        PAD
        ALU clause starting at 8:
          PRED_SETGT * ExecMask,Pred,PredicateBit (MASKED), T0.X, 0.0,  
          MOV * T1.Y, 1.0, Pred_sel_one 
          MOV * T1.Z, 1.0,  
        ALU clause starting at 11:
          MOV * T1.X, 1.0,  
        ALU clause starting at 12:
          MOV * T1.X, -1.0,  
    ";
    let r = run_asm(
        Chip::Rv770,
        prog,
        &format!("threads = 2\n{}", inputs(0, &[[5.0; 4], [-5.0; 4]])),
    )
    .unwrap();
    let (a, b) = (pixel0(&r, 0), pixel0(&r, 1));
    // Both pixels run the rest of the first clause (the mask changes at its end); only the x > 0 pixel
    // passes PRED_SEL_ONE.
    assert_eq!((f(a[1]), f(b[1])), (1.0, 0.0));
    assert_eq!((f(a[2]), f(b[2])), (1.0, 1.0));
    // Then: the if-side for x > 0, the else-side for the other.
    assert_eq!((f(a[0]), f(b[0])), (1.0, -1.0));
}

/// MUL is the legacy multiply (0 * anything = 0), MUL_IEEE follows IEEE (0 * Inf = NaN); denormal
/// inputs of arithmetic are flushed to zero (see semantics.rs for sources).
#[test]
fn mul_vs_mul_ieee_and_denormals() {
    let prog = "\
        ALU 2, @2, KC0[], KC1[]
        EXPORT T1.XYZW
        ALU clause starting at 2:
          MUL NON-IEEE * T1.X, T0.X, T0.Y,  
          MUL_IEEE * T1.Y, T0.X, T0.Y,  
          ADD * T1.Z, T0.Z, 0.0,  
    ";
    let cfg = "threads = 1\n[[gpr]]\nreg = 0\nvalues = [[0.0, \"0x7f800000\", 1, 0]]\n";
    let r = run_asm(Chip::Rv770, prog, cfg).unwrap();
    let v = pixel0(&r, 0);
    assert_eq!(v[0], Some(0));
    assert!(f(v[1]).is_nan());
    assert_eq!(v[2], Some(0), "denormal 1 * 2^-149 + 0 flushes to +0");
}

/// MOV is a float op for CLAMP and the output modifier (Mesa's r600 backend emits GLSL saturate as
/// MOV with CLAMP): CLAMP gives min(max(x, 0), 1) with NaN -> 0 (R700 ISA reference, CLAMP), OMOD
/// *2 doubles; without either, MOV keeps the source's bits (a denormal, a signalling NaN). CLAMP on an
/// integer op is a typed error.
#[test]
fn mov_honours_clamp_and_output_modifier() {
    let prog = "\
        ALU 3, @2, KC0[], KC1[]
        EXPORT T1.XYZW
        ALU clause starting at 2:
          MOV_SAT * T1.X, T0.X,
          MOV_SAT * T1.Y, T0.Y,
          MOV * T1.Z * 2.0, T0.Z,
          MOV * T1.W, T0.W,
    ";
    // thread 0: 5.1640625 (0x40a54000), -3.0, 1.5, the denormal 1; thread 1: NaN, 0.25, -0.75,
    // the signalling NaN 0x7f800001.
    let cfg = "threads = 2\n[[gpr]]\nreg = 0\nvalues = [[\"0x40a54000\", -3.0, 1.5, 1], \
               [\"0x7fc00000\", 0.25, -0.75, \"0x7f800001\"]]\n";
    let r = run_asm(Chip::Rv770, prog, cfg).unwrap();
    assert_eq!(pixel0(&r, 0).map(f)[..3], [1.0, 0.0, 3.0]);
    assert_eq!(pixel0(&r, 0)[3], Some(1), "a plain MOV keeps a denormal");
    assert_eq!(pixel0(&r, 1).map(f)[..3], [0.0, 0.25, -1.5]);
    assert_eq!(
        pixel0(&r, 1)[3],
        Some(0x7f80_0001),
        "a plain MOV keeps a NaN's bits"
    );
    let e = run_asm(
        Chip::Rv770,
        "ALU 0, @2, KC0[], KC1[]\nEXPORT T1.XYZW\nALU clause starting at 2:\n  \
         ADD_INT_SAT * T1.X, T0.X, T0.Y,\n",
        cfg,
    )
    .unwrap_err();
    assert!(
        matches!(e, RunError::Exec(ExecError::NotModelled { .. })),
        "{e}"
    );
}

/// Vertex fetch through a fetch constant: address = base + index * stride + offset, FMT_32_32_32_FLOAT (0x30)
/// fills W with 1.0 (R700 ISA, vertex fetch "missing components"); fetching past the buffer is an error.
#[test]
fn vertex_fetch_through_fetch_constant() {
    let prog = "\
        VTX 0 @2
        EXPORT T1.XYZW
        Fetch clause starting at 2:
        VTX_READ_eg T1, T0.X, 4 ; buffer_id:3 dfmt:48 nfa:0 fca:0 srf:0 mfc:12
    ";
    let cfg = "threads = 2\n[[gpr]]\nreg = 0\nvalues = [[0, 0, 0, 0], [2, 0, 0, 0]]\n\
               [[fetch_constant]]\nid = 3\nstride = 12\ndata = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0]\n";
    let r = run_asm(Chip::Rv770, prog, cfg).unwrap();
    assert_eq!(pixel0(&r, 0).map(f), [1.0, 2.0, 3.0, 1.0]);
    let e = run_asm(
        Chip::Rv770,
        prog,
        &cfg.replace("[2, 0, 0, 0]", "[3, 0, 0, 0]"),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("past the end of fetch constant 3"),
        "{e}"
    );
    // thread 1: index 2 -> bytes 28..40 = 7, 8, 9.
    let r = run_asm(Chip::Rv770, prog, cfg).unwrap();
    assert_eq!(pixel0(&r, 1).map(f), [7.0, 8.0, 9.0, 1.0]);
    // A base of 8 bytes shifts every element by two dwords: thread 0 reads bytes 12..24.
    let r = run_asm(
        Chip::Rv770,
        prog,
        &cfg.replace("stride = 12", "base = 8\nstride = 12")
            .replace("threads = 2", "threads = 1"),
    )
    .unwrap();
    assert_eq!(pixel0(&r, 0).map(f), [3.0, 4.0, 5.0, 1.0]);
}

/// TEX_SAMPLE on RGBA32F and RGBA8 textures: point sampling picks the texel containing the coordinate;
/// bilinear at the shared corner of four texels averages them; border addressing returns the border
/// colour outside [0, 1); clamp repeats the edge texel.
#[test]
fn texture_sampling_filters_and_addressing() {
    let prog = "\
        TEX 0 @2
        EXPORT T1.XYZW
        Fetch clause starting at 2:
          TEX_SAMPLE T1.XYZW, T0.XYZW RID:0 SID:0 CT:NNNN
    ";
    let tex = "[[texture]]\nresource = 0\nwidth = 2\nheight = 2\nformat = \"rgba32f\"\n\
               data = [0.0, 0.0, 0.0, 1.0,  4.0, 0.0, 0.0, 1.0,  0.0, 8.0, 0.0, 1.0,  4.0, 8.0, 16.0, 1.0]\n";
    let coords = inputs(
        0,
        &[
            [0.25, 0.75, 0.0, 0.0],
            [0.5, 0.5, 0.0, 0.0],
            [1.5, 0.25, 0.0, 0.0],
        ],
    );
    let smp = |filter: &str, wrap: &str| {
        format!("[[sampler]]\nid = 0\nfilter = \"{filter}\"\nwrap_u = \"{wrap}\"\nwrap_v = \"{wrap}\"\nborder = [9.0, 9.0, 9.0, 9.0]\n")
    };
    let r = run_asm(
        Chip::Rv770,
        prog,
        &format!("threads = 3\n{coords}{tex}{}", smp("point", "border")),
    )
    .unwrap();
    assert_eq!(pixel0(&r, 0).map(f), [0.0, 8.0, 0.0, 1.0]);
    assert_eq!(pixel0(&r, 2).map(f), [9.0; 4]);
    let r = run_asm(
        Chip::Rv770,
        prog,
        &format!("threads = 3\n{coords}{tex}{}", smp("bilinear", "clamp")),
    )
    .unwrap();
    assert_eq!(pixel0(&r, 1).map(f), [2.0, 4.0, 4.0, 1.0]);
    // u = 1.5 clamps to the last column: texel (1, 0) at v = 0.25 (texel row 0 centre... v = 0.25 is the
    // centre of row 0, so no vertical blend).
    assert_eq!(pixel0(&r, 2).map(f), [4.0, 0.0, 0.0, 1.0]);
    let e = run_asm(
        Chip::Rv770,
        prog,
        &format!("threads = 3\n{coords}{tex}{}", smp("bicubic", "clamp")),
    )
    .unwrap_err();
    assert!(
        e.to_string()
            .contains("texture filter `bicubic` is not modelled"),
        "{e}"
    );
    // RGBA8 unorm.
    let tex8 = "[[texture]]\nresource = 0\nwidth = 1\nheight = 1\nformat = \"rgba8\"\ndata = [255, 0, 51, 102]\n";
    let r = run_asm(
        Chip::Rv770,
        prog,
        &format!("threads = 3\n{coords}{tex8}{}", smp("point", "wrap")),
    )
    .unwrap();
    assert_eq!(pixel0(&r, 2).map(f), [1.0, 0.0, 0.2, 0.4]);
}

fn raw_inputs(reg: u32, vals: &[[u32; 4]]) -> String {
    let rows: Vec<String> = vals
        .iter()
        .map(|v| format!("[{}, {}, {}, {}]", v[0], v[1], v[2], v[3]))
        .collect();
    format!("[[gpr]]\nreg = {reg}\nvalues = [{}]\n", rows.join(", "))
}

fn raw(v: [Option<u32>; 4]) -> [u32; 4] {
    v.map(|x| x.expect("component exported"))
}

/// LDS owner-writes, everyone-reads (R700 ISA reference, 2.5 Program State: "owner writes, shared reads"; R700 ISA reference 2.6.2):
/// DS_LOCAL_WRITE puts thread t's four dwords at bank t mod 4, dword (t >> 2) * DST_STRIDE + DST_INDEX
/// (ISA: bank_offset = (thread_id >> 2) * dst_stride + dst_index); DS_LOCAL_READ (DSR_MUX_NONE) reads the
/// aligned four-dword entry at (bank id, dword offset) from its address GPR. Here every thread reads
/// the slot of thread (t + 1) mod 8, so it gets its neighbour's data.
#[test]
fn lds_owner_writes_everyone_reads() {
    let prog = "\
        VTX 1 @2
        EXPORT T3.XYZW
        Fetch clause starting at 2:
        MEM_DS_LOCAL_WRITE T1.XYZW INDEX:4 STRIDE:8
        MEM_DS_LOCAL_READ T3.XYZW, T2.XY
    ";
    let n = 8u32;
    let data: Vec<[u32; 4]> = (0..n)
        .map(|t| [t * 10, t * 10 + 1, t * 10 + 2, t * 10 + 3])
        .collect();
    // Neighbour o = (t + 1) mod 8 lives at bank o mod 4, dword (o >> 2) * 8 + 4.
    let addr: Vec<[u32; 4]> = (0..n)
        .map(|t| {
            let o = (t + 1) % n;
            [o % 4, (o >> 2) * 8 + 4, 0, 0]
        })
        .collect();
    let cfg = format!(
        "threads = {n}\n{}{}",
        raw_inputs(1, &data),
        raw_inputs(2, &addr)
    );
    let r = run_asm(Chip::Rv770, prog, &cfg).unwrap();
    for t in 0..n {
        let o = (t + 1) % n;
        assert_eq!(raw(pixel0(&r, t as usize)), data[o as usize], "thread {t}");
    }
}

/// The read writes only the components whose DST_WR_* bit is set (MEM_DSR_WORD1 DST_WR_X..W); the
/// others keep their values. Write source selects 4/5 are the constants 0.0 and 1.0 (the SEL encoding).
#[test]
fn lds_read_write_masks_and_constant_selects() {
    let prog = "\
        VTX 1 @2
        EXPORT T3.XYZW
        Fetch clause starting at 2:
        MEM_DS_LOCAL_WRITE T1.X01Y INDEX:0 STRIDE:4
        MEM_DS_LOCAL_READ T3._YZW, T2.XY
    ";
    let cfg = format!(
        "threads = 1\n{}{}{}",
        raw_inputs(1, &[[7, 8, 9, 10]]),
        raw_inputs(2, &[[0, 0, 0, 0]]),
        raw_inputs(3, &[[100, 101, 102, 103]])
    );
    let r = run_asm(Chip::Rv770, prog, &cfg).unwrap();
    assert_eq!(raw(pixel0(&r, 0)), [100, 0, 0x3f80_0000, 8]);
}

/// Reading a dword no thread has written, an illegal DST_STRIDE (ISA 2.6.2: 4, 8, ..., 64), an
/// unaligned read and a bank id past 3 are typed errors naming the instruction and thread;
/// unmodelled MEM_DSR fields (broadcast, FFT permute) are NotModelled errors naming the field.
#[test]
fn lds_errors() {
    let run1 = |body: &str, addr: [u32; 4]| {
        let prog = format!("VTX 1 @2\nEXPORT T3.XYZW\nFetch clause starting at 2:\n{body}\n");
        let cfg = format!(
            "threads = 4\n{}{}",
            raw_inputs(1, &[[1, 2, 3, 4]; 4]),
            raw_inputs(2, &[addr; 4])
        );
        run_asm(Chip::Rv770, &prog, &cfg).unwrap_err()
    };
    let w = "MEM_DS_LOCAL_WRITE T1.XYZW INDEX:0 STRIDE:4";
    let e = run1(
        &format!("{w}\nMEM_DS_LOCAL_READ T3.XYZW, T2.XY"),
        [0, 4, 0, 0],
    );
    assert!(e.to_string().contains("no thread has written"), "{e}");
    assert!(e.to_string().contains("MEM_DS_LOCAL_READ"), "{e}");
    let e = run1(
        &format!("{w}\nMEM_DS_LOCAL_READ T3.XYZW, T2.XY"),
        [0, 2, 0, 0],
    );
    assert!(e.to_string().contains("aligned four-dword"), "{e}");
    let e = run1(
        &format!("{w}\nMEM_DS_LOCAL_READ T3.XYZW, T2.XY"),
        [4, 0, 0, 0],
    );
    assert!(e.to_string().contains("banks 0..3"), "{e}");
    let e = run1(
        "MEM_DS_LOCAL_WRITE T1.XYZW INDEX:0 STRIDE:6\nMEM_DS_LOCAL_READ T3.XYZW, T2.XY",
        [0, 0, 0, 0],
    );
    assert!(e.to_string().contains("DST_STRIDE 6"), "{e}");
    let e = run1(
        &format!("{w}\nMEM_DS_LOCAL_READ T3.XYZW, T2.XY ; broadcast:1"),
        [0, 0, 0, 0],
    );
    assert!(
        matches!(e, RunError::Exec(ExecError::NotModelled { .. }))
            && e.to_string().contains("broadcast"),
        "{e}"
    );
    let e = run1(
        &format!("{w}\nMEM_DS_LOCAL_READ T3.XYZW, T2.XY ; mux_cntl:1"),
        [0, 0, 0, 0],
    );
    assert!(e.to_string().contains("DSR_MUX_FFT_PERMUTE"), "{e}");
}

/// MEM_DSW/MEM_DSR words disassemble to the text they were assembled from, extras included.
#[test]
fn lds_words_round_trip_through_the_disassembler() {
    let prog = "\
        VTX 1 @2
        EXPORT T3.XYZW
        Fetch clause starting at 2:
        MEM_DS_LOCAL_WRITE T1.XYZW INDEX:4 STRIDE:8 ; simd_wave_rel:1
        MEM_DS_LOCAL_READ T3.X_Z_, T2.YX ; waterfall:1
    ";
    let bytes = assemble(prog).unwrap();
    let sh = Shader::from_raw(Chip::Rv770, &bytes).unwrap();
    let text = sh.disassemble(wavesim_r700::Syntax::Full);
    assert!(
        text.contains("MEM_DS_LOCAL_WRITE T1.XYZW INDEX:4 STRIDE:8 ; simd_wave_rel:1"),
        "{text}"
    );
    assert!(
        text.contains("MEM_DS_LOCAL_READ T3.X_Z_, T2.YX ; waterfall:1"),
        "{text}"
    );
    assert_eq!(assemble(&text).unwrap(), bytes);
}

/// Runaway loops stop at the CF budget with a typed error.
#[test]
fn runaway_loop_hits_the_budget() {
    let prog = "LOOP_START_DX10 @2\nEND_LOOP @1\nCF_END\n";
    let e = run_asm(Chip::Rv770, prog, "threads = 1\nmax_cf_per_wave = 1000\n").unwrap_err();
    assert!(matches!(e, RunError::Dispatch(_)), "{e}");
    assert!(e.to_string().contains("watchdog: 1000 instructions"), "{e}");
}

/// A wave stopped by its budget resumes where it stopped (the engine's turns): stepping one CF
/// instruction at a time gives the same exports as one run.
#[test]
fn wave_resumes_after_its_budget() {
    use wavesim_r700::exec::{run_wave, Stop, Wave};
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/r700");
    for name in [
        "ps_loop_break_continue_cfg",
        "ps_nested_loop",
        "ps_switch_cfg",
    ] {
        let sh = Shader::from_object_bytes(
            &std::fs::read(dir.join(format!("obj/rv770/{name}.o"))).unwrap(),
        )
        .unwrap();
        let cfg = RunConfig::from_toml(
            &std::fs::read_to_string(dir.join(format!("run/{name}.toml"))).unwrap(),
        )
        .unwrap();
        let whole = run(&sh, &cfg).unwrap();
        let mut drv = wavesim_r700::runner::driver_state(&sh, &cfg).unwrap();
        let n = cfg.thread_count().unwrap();
        let mut w = Wave::new(64, 0, n);
        for g in &cfg.gpr {
            for (t, v) in g.values.iter().enumerate().take(n) {
                for (c, x) in v.iter().enumerate() {
                    w.gpr[g.reg as usize][c][t] = x.bits().unwrap();
                }
            }
        }
        let mut steps = 0;
        while run_wave(
            &sh.program,
            &mut drv,
            &mut w,
            1,
            &mut wavesim_core::observe::NoObserver,
        )
        .unwrap()
            == Stop::Quantum
        {
            steps += 1;
            assert!(steps < 100_000);
        }
        assert!(steps > 5, "{name}: {steps} steps");
        for t in 0..n {
            assert_eq!(w.exports[t], whole.threads[t].exports, "{name} thread {t}");
        }
    }
}

/// CALL_FS runs the fetch shader as a subroutine (ISA 3.8: CALL_FS calls the fetch shader); its
/// RETURN comes back after the CALL_FS. Here the fetch shader fetches the vertex (index in T0.X) from
/// fetch constant 1 into T1, as a driver's fetch shader would.
#[test]
fn call_fs_runs_the_fetch_shader() {
    let prog = "\
        CALL_FS
        EXPORT T1.XYZW ; type:1 base:60
        CF_END
    ";
    let fetch = "VTX 0 @2\\nRETURN\\nFetch clause starting at 2:\\nVTX_READ_eg T1, T0.X, 0 ; buffer_id:1\\n";
    let cfg = format!(
        "threads = 2\nfetch_shader = \"{fetch}\"\n[[gpr]]\nreg = 0\nvalues = [[1, 0, 0, 0], [0, 0, 0, 0]]\n\
         [[fetch_constant]]\nid = 1\nstride = 16\ndata = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0]\n"
    );
    let r = run_asm(Chip::Rv770, prog, &cfg).unwrap();
    let pos = |t| r.export(t, ExportTarget::Position(0)).unwrap().map(f);
    assert_eq!(pos(0), [5.0, 6.0, 7.0, 8.0]);
    assert_eq!(pos(1), [1.0, 2.0, 3.0, 4.0]);
}

/// LOOP_CONTINUE: active pixels skip the rest of the iteration and rejoin at LOOP_END (ISA 3.7); the
/// pixels with x > 0 continue before the ADD of 100, the others take it. Three iterations (I.count = 3)
/// each add 1 for everyone first.
#[test]
fn loop_continue_rejoins_at_loop_end() {
    let prog = "\
        LOOP_START @7 ; cf_const:0
        ALU_PUSH_BEFORE 1, @10, KC0[], KC1[]
        JUMP @4 POP:1
        CONTINUE @4
        POP @5 POP:1
        ALU 0, @12, KC0[], KC1[]
        END_LOOP @1
        EXPORT T1.XYZW
        CF_END
        PAD
        ALU clause starting at 10:
          ADD * T1.X, T1.X, 1.0,  
          PRED_SETGT * ExecMask,PredicateBit (MASKED), T0.X, 0.0,  
        ALU clause starting at 12:
          ADD * T1.X, T1.X, literal.x,  
        1120403456(100.0), 0(0.0)
    ";
    let mut prog = prog.to_string();
    // The ALU clause at 12 holds an instruction and a literal pair: 2 slots.
    prog = prog.replace("ALU 0, @12", "ALU 1, @12");
    let cfg = format!(
        "threads = 2\n[[loop_constant]]\nindex = 0\ncount = 3\n{}",
        inputs(0, &[[1.0, 0.0, 0.0, 0.0], [-1.0, 0.0, 0.0, 0.0]])
    );
    let r = run_asm(Chip::Rv770, &prog, &cfg).unwrap();
    assert_eq!(f(pixel0(&r, 0)[0]), 3.0);
    assert_eq!(f(pixel0(&r, 1)[0]), 303.0);
}

/// ALU_BREAK: pixels whose exec-mask update in the clause is false break out of the loop at the end
/// of the clause (ISA 3.7, ALU_BREAK); the others go on. The loop would run 5 times; the pixel with
/// T0.X = 2 stops once its counter reaches 2.
#[test]
fn alu_break_leaves_the_loop() {
    let prog = "\
        LOOP_START_DX10 @3
        ALU_BREAK 1, @6, KC0[], KC1[]
        END_LOOP @1
        EXPORT T1.XYZW
        CF_END
        PAD
        ALU clause starting at 6:
          ADD * T1.X, T1.X, 1.0,  
          PRED_SETGT * ExecMask,PredicateBit (MASKED), T0.X, PV.X,  
    ";
    let cfg = format!(
        "threads = 2\n{}",
        inputs(0, &[[2.0, 0.0, 0.0, 0.0], [5.0, 0.0, 0.0, 0.0]])
    );
    let r = run_asm(Chip::Rv770, prog, &cfg).unwrap();
    // Each iteration adds 1, then the pixel stays while x > counter.
    assert_eq!(f(pixel0(&r, 0)[0]), 2.0);
    assert_eq!(f(pixel0(&r, 1)[0]), 5.0);
}

/// A pixel shader over a 2-D grid writes its pixel export as a PNG (RGBA8, clamped).
#[test]
fn pixel_grid_png() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/r700");
    let sh = Shader::from_object_bytes(&std::fs::read(dir.join("obj/rv770/ps_vec_ops.o")).unwrap())
        .unwrap();
    let cfg = RunConfig::from_toml(
        "grid = [8, 4]\n[[gpr]]\nreg = 0\npixel = \"uv\"\n[[gpr]]\nreg = 1\npixel = \"uv\"\n",
    )
    .unwrap();
    let r = run(&sh, &cfg).unwrap();
    assert_eq!(r.threads.len(), 32);
    let png = r.png(0).unwrap();
    let dec = png::Decoder::new(std::io::Cursor::new(png));
    let mut reader = dec.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    let info = reader.next_frame(&mut buf).unwrap();
    assert_eq!((info.width, info.height), (8, 4));
    // ps_vec_ops: out = in0 * in1 - in0 + (1, 2, 3, 4) with in0 = in1 = (u, v, 0, 1).
    // Pixel (3, 1): u = 3.5/8, v = 1.5/4: red = u*u - u + 1.
    let (u, v) = (3.5f32 / 8.0, 1.5f32 / 4.0);
    let px = &buf[(8 + 3) * 4..(8 + 3) * 4 + 4];
    assert_eq!(
        px[0],
        ((u * u - u + 1.0).clamp(0.0, 1.0) * 255.0).round() as u8
    );
    assert_eq!(px[1], 255, "v*v - v + 2 > 1 clamps: {v}");
}

/// The README's example configuration runs (so the shipped example does not rot): 64x64 pixels, and
/// the bilinear checkerboard plus point gradient stays inside the expected ranges.
#[test]
fn readme_example_runs() {
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/r700");
    let sh = Shader::from_object_bytes(&std::fs::read(dir.join("obj/rv770/ps_tex_two.o")).unwrap())
        .unwrap();
    let cfg =
        RunConfig::from_toml(&std::fs::read_to_string(dir.join("examples/tex_grid.toml")).unwrap())
            .unwrap();
    let r = run(&sh, &cfg).unwrap();
    assert_eq!(r.threads.len(), 64 * 64);
    assert_eq!(r.waves, 64);
    // Alpha = 1 (texture 0) + 1 (texture 1) everywhere.
    assert!((0..4096).all(|t| f(pixel0(&r, t)[3]) == 2.0));
    assert!(r.png(0).unwrap().starts_with(b"\x89PNG"));
}

/// The engine's observer sees every CF instruction of every wave, with the `@N` address the
/// disassembly shows; its count equals the dispatch statistics.
#[test]
fn observer_sees_every_cf_instruction() {
    use wavesim_core::observe::{InstLoc, Observer};
    use wavesim_r700::backend::R700Dispatch;
    use wavesim_r700::exec::{Step, Wave};
    struct Count(u64, Vec<u64>);
    impl Observer<Wave, Step> for Count {
        fn before(&mut self, loc: &InstLoc, _w: &Wave, i: &Step) {
            if !matches!(i, Step::Cf(_)) {
                return;
            }
            self.0 += 1;
            if loc.workgroup == [0, 0, 0] {
                self.1.push(loc.pc);
            }
        }
    }
    let dir = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/r700");
    let sh = Shader::from_object_bytes(&std::fs::read(dir.join("obj/rv730/vs_loop.o")).unwrap())
        .unwrap();
    let cfg = RunConfig::from_toml(&std::fs::read_to_string(dir.join("run/vs_loop.toml")).unwrap())
        .unwrap();
    let drv = wavesim_r700::runner::driver_state(&sh, &cfg).unwrap();
    let inputs = cfg
        .gpr
        .iter()
        .map(|g| {
            (
                g.reg as usize,
                g.values
                    .iter()
                    .map(|v| std::array::from_fn(|c| v[c].bits().unwrap()))
                    .collect(),
            )
        })
        .collect();
    let d = R700Dispatch::new(&sh, 40, inputs, drv, 100_000).unwrap();
    let mut obs = Count(0, Vec::new());
    let stats = wavesim_core::engine::run(&d, &wavesim_core::memory::DeviceMemory::new(), &mut obs)
        .unwrap();
    assert_eq!(stats.waves, 2, "40 threads = two 32-thread waves on rv730");
    assert_eq!(obs.0, stats.wave_instructions);
    // Wave 0 starts with CALL_FS @0, ALU @1, LOOP_START_DX10 @2.
    assert_eq!(&obs.1[..3], &[0, 1, 2]);
    assert_eq!(d.take_results().len(), 40);
}

/// Every table row without semantics stops with a typed NotModelled error naming it when it executes
/// (the table test pins which rows those are).
#[test]
fn rows_without_semantics_stop_with_a_typed_error() {
    use wavesim_r700::isa::{AluEnc, AluExec, FetchExec, ALU, TEX, VTX};
    let mut checked = 0;
    for r in ALU {
        let expect = matches!(r.exec, AluExec::NotModelled(_));
        if !expect {
            continue;
        }
        let srcs = ["T0.X", "T0.Y", "T0.Z"][..r.srcs as usize].join(", ");
        let ops = if srcs.is_empty() {
            String::new()
        } else {
            format!("{srcs}, ")
        };
        let masked = if r.enc == AluEnc::Op2 {
            " (MASKED)"
        } else {
            ""
        };
        let prog = format!(
            "ALU 0, @2, KC0[], KC1[]\nEXPORT T1.XYZW\nALU clause starting at 2:\n  {} * T1.X{masked}, {ops} \n",
            r.isa
        );
        let e = run_asm(Chip::Rv770, &prog, "threads = 1\n").unwrap_err();
        assert!(
            matches!(e, RunError::Exec(ExecError::NotModelled { .. })),
            "{}: {e}",
            r.isa
        );
        checked += 1;
    }
    for r in TEX.iter().filter(|r| {
        matches!(
            r.exec,
            FetchExec::NotModelled(_)
                | FetchExec::Sample {
                    lod: wavesim_r700::isa::TexLod::Gradients,
                    ..
                }
        )
    }) {
        let prog = format!(
            "TEX 0 @2\nEXPORT T1.XYZW\nFetch clause starting at 2:\n  {} T1.XYZW, T0.XYZW RID:0 SID:0 CT:NNNN\n",
            r.llc
        );
        let cfg = "threads = 1\n[[texture]]\nresource = 0\nwidth = 1\nheight = 1\nformat = \"rgba8\"\ndata = [0, 0, 0, 0]\n[[sampler]]\nid = 0\nfilter = \"point\"\n";
        let e = run_asm(Chip::Rv770, &prog, cfg).unwrap_err();
        assert!(
            matches!(e, RunError::Exec(ExecError::NotModelled { .. })),
            "{}: {e}",
            r.llc
        );
        checked += 1;
    }
    for r in VTX.iter().filter(|r| {
        !matches!(
            r.exec,
            FetchExec::VertexFetch | FetchExec::LdsRead | FetchExec::LdsWrite
        )
    }) {
        let prog = format!(
            "VTX 0 @2\nEXPORT T1.XYZW\nFetch clause starting at 2:\n{} T1, T0.X, 0\n",
            r.llc
        );
        let e = run_asm(Chip::Rv770, &prog, "threads = 1\n").unwrap_err();
        assert!(
            matches!(e, RunError::Exec(ExecError::NotModelled { .. })),
            "{}: {e}",
            r.llc
        );
        checked += 1;
    }
    // A floor, so that an empty filter cannot pass: 30 rows are still without semantics (TEX_LD,
    // GET_TEXTURE_RESINFO, FREXP_64, LDEXP_64 and the six PRED_SET*_PUSH_INT now run).
    assert!(checked >= 30, "{checked}");
}

/// Double precision on rv770 over the X/Y slot pair (layout: the X slot's sources are the high dwords,
/// the Y slot's the low dwords; X's destination receives the low dword and Y's the high one; Mesa's r600
/// `sfn_instr_alu.cpp`). Values follow IEEE-754 binary64: FLT32_TO_FLT64 is exact; 1.5 + 2^-30 =
/// 0x3FF80000_00400000 exactly (the 2^-30 bit is mantissa bit 22); FLT64_TO_FLT32 rounds it to nearest
/// even, and 2^-30 is below half an ulp of 1.5 in binary32 (2^-24), so it gives 1.5; FRACT_64(-2.25) =
/// -2.25 - floor(-2.25) = 0.75 = 0x3FE80000_00000000.
#[test]
fn double_precision_pairs_on_rv770() {
    let prog = "\
        ALU 12, @2, KC0[], KC1[]
        EXPORT T3.XYZW
        ALU clause starting at 2:
          FLT32_TO_FLT64   T1.X, T0.X,
          FLT32_TO_FLT64 * T1.Y, T0.W,
          FLT32_TO_FLT64   T2.X, T0.Y,
          FLT32_TO_FLT64 * T2.Y, T0.W,
          ADD_64   T3.X, T1.Y, T2.Y,
          ADD_64 * T3.Y, T1.X, T2.X,
          FLT64_TO_FLT32   T4.X, T3.Y,
          FLT64_TO_FLT32 * T4.Y (MASKED), T3.X,
          MOV * T3.Z, T4.X,
          FLT32_TO_FLT64   T5.X, T0.Z,
          FLT32_TO_FLT64 * T5.Y, T0.W,
          FRACT_64   T6.X, T5.Y,
          FRACT_64 * T6.Y, T5.X,
    ";
    let cfg = format!(
        "threads = 1\n{}",
        raw_inputs(
            0,
            &[[
                1.5f32.to_bits(),
                (2.0f32).powi(-30).to_bits(),
                (-2.25f32).to_bits(),
                0
            ]]
        )
    );
    let r = run_asm(Chip::Rv770, prog, &cfg).unwrap();
    let v = raw(pixel0(&r, 0));
    assert_eq!([v[0], v[1]], [0x0040_0000, 0x3FF8_0000]);
    assert_eq!(v[2], 1.5f32.to_bits());
    // FRACT_64 result, exported through a second program reading T6.
    let prog2 = prog.replace("EXPORT T3.XYZW", "EXPORT T6.XYZW");
    let r = run_asm(Chip::Rv770, &prog2, &cfg).unwrap();
    let v = raw(pixel0(&r, 0));
    assert_eq!([v[0], v[1]], [0, 0x3FE8_0000]);
}

/// rv730 and rv710 have no double-precision unit: the same instruction is an error naming it there.
/// A pair op outside the X/Y slots, MUL_64 outside the four vector slots and a NaN operand are errors.
#[test]
fn double_precision_errors() {
    let one = "ALU 1, @2, KC0[], KC1[]\nEXPORT T3.XYZW\nALU clause starting at 2:\n";
    let pair = format!("{one}  ADD_64   T3.X, T0.Y, T0.Y,\n  ADD_64 * T3.Y, T0.X, T0.X,\n");
    let cfg = format!("threads = 1\n{}", raw_inputs(0, &[[0, 0x3FF0_0000, 0, 0]]));
    for chip in [Chip::Rv730, Chip::Rv710] {
        let e = run_asm(chip, &pair, &cfg).unwrap_err();
        assert!(e.to_string().contains("no double-precision unit"), "{e}");
    }
    // 1.0 + 1.0 = 2.0 = 0x40000000_00000000 on rv770.
    let r = run_asm(Chip::Rv770, &pair, &cfg).unwrap();
    assert_eq!(raw(pixel0(&r, 0))[..2], [0, 0x4000_0000]);
    let e = run_asm(
        Chip::Rv770,
        &format!("{one}  ADD_64   T3.Z, T0.Y, T0.Y,\n  ADD_64 * T3.W, T0.X, T0.X,\n"),
        &cfg,
    )
    .unwrap_err();
    assert!(e.to_string().contains("X and Y slots"), "{e}");
    // MUL_64 needs all four vector slots.
    let e = run_asm(Chip::Rv770, &pair.replace("ADD_64", "MUL_64"), &cfg).unwrap_err();
    assert!(e.to_string().contains("four vector slots"), "{e}");
    let nan = format!("threads = 1\n{}", raw_inputs(0, &[[0, 0x7FF8_0000, 0, 0]]));
    let e = run_asm(Chip::Rv770, &pair, &nan).unwrap_err();
    assert!(
        matches!(e, RunError::Exec(ExecError::NotModelled { .. })),
        "{e}"
    );
}

/// Relative fetch and export GPRs add the loop index aL (R700 ISA reference: SRC_REL/DST_REL of the fetch
/// words and RW_REL of CF_ALLOC_EXPORT_WORD0, "relative to the loop index"). With I0 = (count 1, init 2,
/// inc 0), aL = 2 in the loop body: `VTX_READ_eg T1, T1.X` with src_rel/dst_rel reads its index from T3.X
/// and writes T3; the export of T0 with rw_rel (inside the loop) exports T2.
#[test]
fn relative_fetch_and_export_gprs_add_al() {
    let prog = "\
        LOOP_START @4 ; cf_const:0
        VTX 0 @6
        EXPORT T0.XYZW ; rw_rel:1
        END_LOOP @1
        EXPORT T3.XYZW ; base:1
        PAD
        Fetch clause starting at 6:
        VTX_READ_eg T1, T1.X, 0 ; buffer_id:3 dfmt:48 nfa:0 fca:0 srf:0 mfc:12 src_rel:1 dst_rel:1
    ";
    let cfg = format!(
        "threads = 1\n{}[[loop_constant]]\nindex = 0\ncount = 1\ninit = 2\ninc = 0\n\
         [[fetch_constant]]\nid = 3\nstride = 12\ndata = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0]\n",
        raw_inputs(3, &[[1, 0, 0, 0]]) + &inputs(2, &[[9.0, 8.0, 7.0, 6.0]])
    );
    let r = run_asm(Chip::Rv770, prog, &cfg).unwrap();
    // rw_rel export of T0 + aL = T2.
    assert_eq!(pixel0(&r, 0).map(f), [9.0, 8.0, 7.0, 6.0]);
    // index T3.X = 1 -> bytes 12..24 = 3, 4, 5 and W = 1.0 (FMT_32_32_32_FLOAT), written to T3.
    let p1 = r
        .export(0, ExportTarget::Pixel(1))
        .expect("pixel 1 exported");
    assert_eq!(p1.map(f), [3.0, 4.0, 5.0, 1.0]);
    // Outside a loop there is no aL to add: a typed error.
    let e = run_asm(
        Chip::Rv770,
        "VTX 0 @2\nEXPORT T1.XYZW\nFetch clause starting at 2:\nVTX_READ_eg T1, T1.X, 0 ; buffer_id:3 src_rel:1\n",
        &cfg,
    )
    .unwrap_err();
    assert!(e.to_string().contains("no LOOP_START has set"), "{e}");
}

fn mip_texture(mip_filter: &str) -> String {
    // Level 0 (4x4) holds 10.0, level 1 (2x2) 20.0, level 2 (1x1) 40.0 in every channel, so the
    // coordinate does not matter and the level choice shows in the value.
    let level = |n: usize, v: f32| {
        let d: Vec<String> = (0..n * 4).map(|_| format!("{v:?}")).collect();
        format!("[{}]", d.join(", "))
    };
    format!(
        "[[texture]]\nresource = 0\nwidth = 4\nheight = 4\nformat = \"rgba32f\"\ndata = {}\nmips = [{}, {}]\n\
         [[sampler]]\nid = 0\nfilter = \"point\"\nmip_filter = \"{mip_filter}\"\n",
        level(16, 10.0),
        level(4, 20.0),
        level(1, 40.0)
    )
}

/// Mip levels (R700 ISA TEX instructions: SAMPLE_L takes the level of detail from the source's W, SAMPLE_LZ
/// uses level 0; the sampler's MIP_FILTER picks the level). Linear: lod 1.5 blends levels 1 and 2 half and
/// half (20 + (40 - 20) * 0.5 = 30); lod 0.25 gives 10 + 10 * 0.25 = 12.5; lods outside [0, 2] clamp to
/// the chain (-1 -> level 0 = 10, 7 -> level 2 = 40). Point: the nearest level (1.4 -> 1, 1.5 -> 2).
#[test]
fn mip_levels_with_explicit_lod() {
    let prog = |inst: &str| {
        format!("TEX 0 @2\nEXPORT T1.XYZW\nFetch clause starting at 2:\n  {inst} T1.XYZW, T0.XYZW RID:0 SID:0 CT:NNNN\n")
    };
    let lods = [1.5f32, -1.0, 7.0, 0.25, 1.4];
    let gprs: Vec<[f32; 4]> = lods.iter().map(|l| [0.5, 0.5, 0.0, *l]).collect();
    let cfg = |mf: &str| format!("threads = 5\n{}{}", inputs(0, &gprs), mip_texture(mf));
    let r = run_asm(Chip::Rv770, &prog("TEX_SAMPLE_L"), &cfg("linear")).unwrap();
    let got: Vec<f32> = (0..5).map(|t| f(pixel0(&r, t)[0])).collect();
    // Weights are binary32: lod 1.4f32 gives the fraction 1.4f32 - 1.0.
    assert_eq!(
        got,
        [
            30.0,
            10.0,
            40.0,
            12.5,
            20.0 + (40.0 - 20.0) * (1.4f32 - 1.0)
        ]
    );
    let r = run_asm(Chip::Rv770, &prog("TEX_SAMPLE_L"), &cfg("point")).unwrap();
    let got: Vec<f32> = (0..5).map(|t| f(pixel0(&r, t)[0])).collect();
    assert_eq!(got, [40.0, 10.0, 40.0, 10.0, 20.0]);
    let r = run_asm(Chip::Rv770, &prog("TEX_SAMPLE_LZ"), &cfg("linear")).unwrap();
    assert!((0..5).all(|t| f(pixel0(&r, t)[0]) == 10.0));
    // MIP_FILTER none samples the base level whatever the LOD.
    let r = run_asm(Chip::Rv770, &prog("TEX_SAMPLE_L"), &cfg("none")).unwrap();
    assert!((0..5).all(|t| f(pixel0(&r, t)[0]) == 10.0));
    let r = run_asm(Chip::Rv770, &prog("TEX_SAMPLE"), &cfg("none")).unwrap();
    assert!((0..5).all(|t| f(pixel0(&r, t)[0]) == 10.0));
    // An implicit LOD on a mipmapped texture needs the quad's derivatives: a typed error.
    let e = run_asm(Chip::Rv770, &prog("TEX_SAMPLE"), &cfg("linear")).unwrap_err();
    assert!(
        matches!(e, RunError::Exec(ExecError::NotModelled { .. })),
        "{e}"
    );
    // A mip level of the wrong size is a configuration error.
    let bad = cfg("linear").replace("mips = [[", "mips = [[1.0, ");
    assert!(
        RunConfig::from_toml(&bad).is_err()
            || run_asm(Chip::Rv770, &prog("TEX_SAMPLE_L"), &bad).is_err()
    );
}

/// Depth-compare sampling (SAMPLE_C*): the result is 1.0 when `reference OP texel.x` holds, else 0.0
/// (sampler DEPTH_COMPARE_FUNCTION; reference in W, or in Z for SAMPLE_C_L whose W is the LOD). Texel
/// depth here is 0.5: LEQUAL passes for references 0.25 and 0.5 and fails for 0.75.
#[test]
fn depth_compare_sampling() {
    let prog = |inst: &str, dst: &str| {
        format!("TEX 0 @2\nEXPORT T1.XYZW\nFetch clause starting at 2:\n  {inst} T1.{dst}, T0.XYZW RID:0 SID:0 CT:NNNN\n")
    };
    let tex = "[[texture]]\nresource = 0\nwidth = 1\nheight = 1\nformat = \"rgba32f\"\ndata = [0.5, 0.0, 0.0, 0.0]\n";
    let smp = "[[sampler]]\nid = 0\nfilter = \"point\"\ncompare = \"lequal\"\n";
    let refs = [0.25f32, 0.5, 0.75];
    let w_ref: Vec<[f32; 4]> = refs.iter().map(|r| [0.5, 0.5, 0.0, *r]).collect();
    let cfg = format!("threads = 3\n{}{tex}{smp}", inputs(0, &w_ref));
    let r = run_asm(Chip::Rv770, &prog("TEX_SAMPLE_C", "X___"), &cfg).unwrap();
    let got: Vec<f32> = (0..3).map(|t| f(pixel0(&r, t)[0])).collect();
    assert_eq!(got, [1.0, 1.0, 0.0]);
    let r = run_asm(
        Chip::Rv770,
        &prog("TEX_SAMPLE_C_LZ", "X___"),
        &cfg.replace("lequal", "greater"),
    )
    .unwrap();
    let got: Vec<f32> = (0..3).map(|t| f(pixel0(&r, t)[0])).collect();
    assert_eq!(got, [0.0, 0.0, 1.0]);
    // SAMPLE_C_L: reference in Z, LOD in W.
    let z_ref: Vec<[f32; 4]> = refs.iter().map(|r| [0.5, 0.5, *r, 0.0]).collect();
    let cfg_z = format!("threads = 3\n{}{tex}{smp}", inputs(0, &z_ref));
    let r = run_asm(Chip::Rv770, &prog("TEX_SAMPLE_C_L", "X___"), &cfg_z).unwrap();
    let got: Vec<f32> = (0..3).map(|t| f(pixel0(&r, t)[0])).collect();
    assert_eq!(got, [1.0, 1.0, 0.0]);
    // Y/Z/W of the result, a sampler without a compare function and bilinear comparison are errors.
    let e = run_asm(Chip::Rv770, &prog("TEX_SAMPLE_C", "XYZW"), &cfg).unwrap_err();
    assert!(
        matches!(e, RunError::Exec(ExecError::NotModelled { .. })),
        "{e}"
    );
    let e = run_asm(
        Chip::Rv770,
        &prog("TEX_SAMPLE_C", "X___"),
        &cfg.replace("compare = \"lequal\"\n", ""),
    )
    .unwrap_err();
    assert!(e.to_string().contains("depth compare function"), "{e}");
    let e = run_asm(
        Chip::Rv770,
        &prog("TEX_SAMPLE_C", "X___"),
        &cfg.replace("\"point\"", "\"bilinear\""),
    )
    .unwrap_err();
    assert!(
        matches!(e, RunError::Exec(ExecError::NotModelled { .. })),
        "{e}"
    );
    // An RGBA8 texture would quantize the reference first (Direct3D 10 sample_c): an error.
    let rgba8 = "[[texture]]\nresource = 0\nwidth = 1\nheight = 1\nformat = \"rgba8\"\ndata = [128, 0, 0, 0]\n";
    let e = run_asm(
        Chip::Rv770,
        &prog("TEX_SAMPLE_C", "X___"),
        &format!("threads = 3\n{}{rgba8}{smp}", inputs(0, &w_ref)),
    )
    .unwrap_err();
    assert!(e.to_string().contains("RGBA8"), "{e}");
}

/// A depth texture as Mesa's r600 driver binds one for a GL shadow sampler: FMT_32_FLOAT, resource
/// DST_SEL = XXXX composed with the GL depth mode's swizzle (`r600_translate_texformat`; Mesa's
/// `compute_texture_format_swizzle`: GL_LUMINANCE, the compatibility default, gives XXX1, GL_RED
/// X001). SAMPLE_C's comparison result is the fetched X, so an XYZW destination receives the
/// resource swizzle of it: with XXX1, (c, c, c, 1.0); with X001, (c, 0.0, 0.0, 1.0).
/// Texels (row-major, 2x1): 0.25, 0.75; point sampling at u = 0.25 hits texel 0, u = 0.75 texel 1.
/// References (LEQUAL): thread 0 (u 0.25, r 0.5): 0.5 <= 0.25 fails, c = 0; thread 1 (u 0.75, r 0.5):
/// 0.5 <= 0.75 passes, c = 1; thread 2 (u 0.25, r 0.25): 0.25 <= 0.25 passes, c = 1.
#[test]
fn depth_texture_compare_fills_all_components_through_the_resource_swizzle() {
    let prog = |inst: &str| {
        format!("TEX 0 @2\nEXPORT T1.XYZW\nFetch clause starting at 2:\n  {inst} T1.XYZW, T0.XYZW RID:0 SID:0 CT:NNNN\n")
    };
    let tex = |sw: &str| {
        format!("[[texture]]\nresource = 0\nwidth = 2\nheight = 1\nformat = \"depth32f\"\nswizzle = \"{sw}\"\ndata = [0.25, 0.75]\n")
    };
    let smp = "[[sampler]]\nid = 0\nfilter = \"point\"\nwrap_u = \"clamp\"\nwrap_v = \"clamp\"\ncompare = \"lequal\"\n";
    let gprs = inputs(
        0,
        &[
            [0.25, 0.5, 0.0, 0.5],
            [0.75, 0.5, 0.0, 0.5],
            [0.25, 0.5, 0.0, 0.25],
        ],
    );
    let c = [0.0f32, 1.0, 1.0];
    let cfg = |sw: &str| format!("threads = 3\n{gprs}{}{smp}", tex(sw));
    let r = run_asm(Chip::Rv770, &prog("TEX_SAMPLE_C"), &cfg("xxx1")).unwrap();
    for (t, c) in c.into_iter().enumerate() {
        assert_eq!(pixel0(&r, t).map(f), [c, c, c, 1.0], "thread {t}");
    }
    let r = run_asm(Chip::Rv730, &prog("TEX_SAMPLE_C_LZ"), &cfg("x001")).unwrap();
    for (t, c) in c.into_iter().enumerate() {
        assert_eq!(pixel0(&r, t).map(f), [c, 0.0, 0.0, 1.0], "thread {t}");
    }
    // Plain SAMPLE of the same resource: the depth itself through the swizzle (0.25, 0.75, 0.25).
    let r = run_asm(Chip::Rv710, &prog("TEX_SAMPLE"), &cfg("xxx1")).unwrap();
    for (t, d) in [0.25f32, 0.75, 0.25].into_iter().enumerate() {
        assert_eq!(pixel0(&r, t).map(f), [d, d, d, 1.0], "thread {t}");
    }
    // A depth texture has only X: a swizzle selecting Y/Z/W (the default xyzw included) is refused.
    for sw in ["xyzw", "xxy1"] {
        let e = RunConfig::from_toml(&cfg(sw))
            .map_err(|e| e.to_string())
            .and_then(|c| {
                wavesim_r700::runner::run(
                    &Shader::from_raw(
                        Chip::Rv770,
                        &wavesim_r700::assemble(&prog("TEX_SAMPLE_C")).unwrap(),
                    )
                    .unwrap(),
                    &c,
                )
                .map_err(|e| e.to_string())
            })
            .unwrap_err();
        assert!(e.contains("only X"), "{e}");
    }
    // On a four-component texture, a compare result component that takes the fetched Y/Z/W is
    // where the sources part (Direct3D 10 replicates, decaf-emu writes 0, 0, 1, Cemu asserts X
    // only): an error; selecting X, 0 and 1 is fine.
    let rgba = "[[texture]]\nresource = 0\nwidth = 2\nheight = 1\nformat = \"rgba32f\"\nswizzle = \"SW\"\ndata = [0.25, 9.0, 9.0, 9.0, 0.75, 9.0, 9.0, 9.0]\n";
    let e = run_asm(
        Chip::Rv770,
        &prog("TEX_SAMPLE_C"),
        &format!("threads = 3\n{gprs}{}{smp}", rgba.replace("SW", "xyzw")),
    )
    .unwrap_err();
    assert!(
        matches!(e, RunError::Exec(ExecError::NotModelled { .. })),
        "{e}"
    );
    let r = run_asm(
        Chip::Rv770,
        &prog("TEX_SAMPLE_C"),
        &format!("threads = 3\n{gprs}{}{smp}", rgba.replace("SW", "1x0x")),
    )
    .unwrap();
    for (t, c) in c.into_iter().enumerate() {
        assert_eq!(pixel0(&r, t).map(f), [1.0, c, 0.0, c], "thread {t}");
    }
}

/// The resource swizzle (SQ_TEX_RESOURCE_WORD4 DST_SEL_X..W) reorders what SAMPLE and LD fetch,
/// before the instruction's own DST_SEL: texel (0.25, 0.5, 0.75, 2.0) through "wzy0" gives
/// (2.0, 0.75, 0.5, 0.0); written to T1.YXZW (instruction selects Y, X, Z, W) the export reads
/// (0.75, 2.0, 0.5, 0.0).
#[test]
fn resource_swizzle_reorders_fetched_components() {
    let cfg = format!(
        "threads = 1\n{}[[texture]]\nresource = 0\nwidth = 1\nheight = 1\nformat = \"rgba32f\"\nswizzle = \"wzy0\"\ndata = [0.25, 0.5, 0.75, 2.0]\n[[sampler]]\nid = 0\nfilter = \"point\"\n",
        inputs(0, &[[0.5, 0.5, 0.0, 0.0]])
    );
    let prog = |inst: &str, ct: &str| {
        format!("TEX 0 @2\nEXPORT T1.XYZW\nFetch clause starting at 2:\n  {inst} T1.YXZW, T0.XYZW RID:0 SID:0 CT:{ct}\n")
    };
    let r = run_asm(Chip::Rv770, &prog("TEX_SAMPLE", "NNNN"), &cfg).unwrap();
    assert_eq!(pixel0(&r, 0).map(f), [0.75, 2.0, 0.5, 0.0]);
    // TEX_LD at texel (0, 0), level 0 (integer coordinates in X/Y, level in W).
    let ld = cfg.replace("[[0.5, 0.5, 0.0, 0.0]]", "[[0, 0, 0, 0]]");
    let r = run_asm(Chip::Rv770, &prog("TEX_LD", "NNNN"), &ld).unwrap();
    assert_eq!(pixel0(&r, 0).map(f), [0.75, 2.0, 0.5, 0.0]);
}

/// POP never jumps (R700 ISA reference 3.7.2: "Pop instructions never jump"): its ADDR is ignored and
/// execution continues at the next CF instruction with the pushed state restored. POP then applies its
/// condition test: with COND = FALSE (1) every pixel fails and becomes inactive, so the later clause runs
/// for no pixel.
#[test]
fn pop_never_jumps_and_applies_its_condition() {
    let prog = |pop_extra: &str| {
        format!(
            "ALU_PUSH_BEFORE 0, @8, KC0[], KC1[]
ALU 0, @10, KC0[], KC1[]
POP @6 POP:1{pop_extra}
ALU 0, @11, KC0[], KC1[]
EXPORT T1.XYZW
CF_END
CF_END
PAD
ALU clause starting at 8:
  PRED_SETGT * ExecMask,Pred,PredicateBit (MASKED), T0.X, 0.0,
ALU clause starting at 10:
  MOV * T1.X, 1.0,
ALU clause starting at 11:
  MOV * T1.Y, 1.0,
"
        )
    };
    let cfg = format!("threads = 2\n{}", inputs(0, &[[5.0; 4], [-5.0; 4]]));
    // POP @6 would land on the second CF_END (skipping the export) if it jumped.
    let r = run_asm(Chip::Rv770, &prog(""), &cfg).unwrap();
    let (a, b) = (pixel0(&r, 0), pixel0(&r, 1));
    assert_eq!(
        (f(a[0]), f(b[0])),
        (1.0, 0.0),
        "only x > 0 ran the pushed clause"
    );
    assert_eq!(
        (f(a[1]), f(b[1])),
        (1.0, 1.0),
        "both pixels are active again after POP"
    );
    // COND_FALSE on the POP: nobody passes the condition test, nobody runs the clause after it and the
    // export (which needs active pixels) writes nothing.
    let r = run_asm(Chip::Rv770, &prog(" ; cond:1"), &cfg).unwrap();
    assert!(r.export(0, ExportTarget::Pixel(0)).is_none());
    assert!(r.export(1, ExportTarget::Pixel(0)).is_none());
}

/// VALID_PIXEL_MODE on CF instructions treats killed pixels as inactive (ISA 3.6.2); wavesim never
/// reactivates a killed pixel, so a POP with the bit set leaves the killed pixel out, as the ISA's
/// "POP with VALID_PIXEL_MODE and CF_COND_ACTIVE" idiom for killed pixels requires. WHOLE_QUAD_MODE
/// would run the inactive pixels of a partly active quad as helpers: exact (nothing to turn on) where
/// every quad is wholly active or wholly inactive, a typed error where one is partly active (after the
/// kill, quad 0 = lanes 0..3 has lane 1 active and lane 0 killed).
#[test]
fn valid_pixel_mode_pop_and_whole_quad_mode() {
    let prog_wqm = |pop_extra: &str, alu_extra: &str| {
        format!(
            "ALU_PUSH_BEFORE 1, @8, KC0[], KC1[]
POP @2 POP:1{pop_extra}
ALU 0, @10, KC0[], KC1[]{alu_extra}
EXPORT T1.XYZW ; vpm:1
CF_END
PAD
PAD
PAD
ALU clause starting at 8:
  PRED_SETGT * ExecMask,Pred,PredicateBit (MASKED), T0.X, 0.0,
  KILLGT * T0.X, T0.Y, 0.0,
ALU clause starting at 10:
  MOV * T1.Y, 1.0,
"
        )
    };
    let prog = |pop_extra: &str| prog_wqm(pop_extra, "");
    // Thread 0: x > 0 stays active inside the push and is killed there (y > 0); thread 1 is
    // inactive inside; after the POP thread 1 is active again, thread 0 stays killed.
    let cfg = format!(
        "threads = 2\n{}",
        inputs(0, &[[5.0, 1.0, 0.0, 0.0], [-5.0, 0.0, 0.0, 0.0]])
    );
    let r = run_asm(Chip::Rv770, &prog(" ; vpm:1"), &cfg).unwrap();
    assert!(
        r.export(0, ExportTarget::Pixel(0)).is_none(),
        "killed pixel exports nothing"
    );
    assert_eq!(f(pixel0(&r, 1)[1]), 1.0);
    let e = run_asm(Chip::Rv770, &prog_wqm("", " ; wqm:1"), &cfg).unwrap_err();
    assert!(
        e.to_string()
            .contains("WHOLE_QUAD_MODE with a partly active quad"),
        "{e}"
    );
    // Four threads with x <= 0: the PUSH turns quad 0 wholly off and the POP wholly on again, so
    // WHOLE_QUAD_MODE on the POP and on the later ALU clause turns nothing on: every thread writes
    // T1.Y = 1.
    let cfg4 = format!("threads = 4\n{}", inputs(0, &[[-1.0, 0.0, 0.0, 0.0]; 4]));
    let r = run_asm(Chip::Rv770, &prog_wqm(" ; wqm:1", " ; wqm:1"), &cfg4).unwrap();
    for t in 0..4 {
        assert_eq!(f(pixel0(&r, t)[1]), 1.0, "thread {t}");
    }
}

/// WHOLE_QUAD_MODE on a plain ALU clause with a partly active quad: "all four threads in the quad
/// execute if at least one ... is set to execute" (R700 ISA reference, 6.3), and whole quad mode ends
/// with the scope of the instruction that began it (3.6.2), which for a plain ALU clause is the clause.
/// Four threads x = 1, 2, -3, -4: the PUSH leaves lanes 0 and 1 active, 2 and 3 inactive. The clause
/// with WQM computes T1.Y = 10 x for all four lanes (10, 20, -30, -40); the next clause without it
/// writes T1.Z = 1 for lanes 0 and 1 only, which shows that lanes 2 and 3 went back to inactive; after
/// the POP every lane exports T1 (T1.Z of lanes 2 and 3 keeps its initial 0).
#[test]
fn whole_quad_mode_runs_helpers_for_one_clause() {
    let prog = |wqm_alu: &str, kill: &str, export: &str| {
        format!(
            "ALU_PUSH_BEFORE 0, @8, KC0[], KC1[]
ALU {n}, @10, KC0[], KC1[]{wqm_alu}
ALU 0, @9, KC0[], KC1[]
POP @4 POP:1
EXPORT T1.XYZW{export}
CF_END
PAD
PAD
ALU clause starting at 8:
  PRED_SETGT * ExecMask,Pred,PredicateBit (MASKED), T0.X, 0.0,
ALU clause starting at 9:
  MOV * T1.Z, 1.0,
ALU clause starting at 10:
  {kill}MUL_IEEE * T1.Y, T0.X, literal.x,
1092616192(1.000000e+01), 0(0.000000e+00)
",
            n = if kill.is_empty() { 1 } else { 2 }
        )
    };
    let cfg = format!(
        "threads = 4\n{}",
        inputs(
            0,
            &[
                [1.0, 0.0, 0.0, 0.0],
                [2.0, 0.0, 0.0, 0.0],
                [-3.0, 0.0, 0.0, 0.0],
                [-4.0, 0.0, 0.0, 0.0]
            ]
        )
    );
    let r = run_asm(Chip::Rv770, &prog(" ; wqm:1", "", ""), &cfg).unwrap();
    for (t, (y, z)) in [(10.0, 1.0), (20.0, 1.0), (-30.0, 0.0), (-40.0, 0.0)]
        .into_iter()
        .enumerate()
    {
        assert_eq!(f(pixel0(&r, t)[1]), y, "thread {t} T1.Y");
        assert_eq!(f(pixel0(&r, t)[2]), z, "thread {t} T1.Z");
    }
    // Without the bit, the inactive lanes 2 and 3 keep T1.Y = 0.
    let r = run_asm(Chip::Rv770, &prog("", "", ""), &cfg).unwrap();
    assert_eq!(f(pixel0(&r, 2)[1]), 0.0);
    assert_eq!(f(pixel0(&r, 3)[1]), 0.0);
    // A clause under WQM that kills, and an export with WQM while the quad is partly active, are
    // typed errors (how a helper's kill or export acts is not stated).
    let kill = "KILLGT T2.X, T0.X, 0.0,\n  ";
    let e = run_asm(Chip::Rv770, &prog(" ; wqm:1", kill, ""), &cfg).unwrap_err();
    assert!(e.to_string().contains("changes the active mask"), "{e}");
    let exp_in_push = "ALU_PUSH_BEFORE 0, @4, KC0[], KC1[]\nEXPORT T1.XYZW ; wqm:1\nPOP @3 POP:1\nCF_END\nALU clause starting at 4:\n  PRED_SETGT * ExecMask,Pred,PredicateBit (MASKED), T0.X, 0.0,\n";
    let e = run_asm(Chip::Rv770, exp_in_push, &cfg).unwrap_err();
    assert!(
        e.to_string()
            .contains("WHOLE_QUAD_MODE with a partly active quad"),
        "{e}"
    );
}

/// A PUSH whose condition every pixel fails pushes nothing, pops POP_COUNT entries and jumps (R700 ISA
/// reference 3.7.2). With COND = FALSE the first PUSH jumps over the second one to a POP: if the failed
/// PUSH had left an entry, that POP would succeed; it underflows instead.
#[test]
fn failing_push_pushes_nothing() {
    let prog = "PUSH @2 POP:0 ; cond:1\nPUSH @2 POP:0\nPOP @3 POP:1\nCF_END\n";
    let e = run_asm(Chip::Rv770, prog, "threads = 1\n").unwrap_err();
    assert!(e.to_string().contains("stack underflow"), "{e}");
    // The passing PUSH (COND = ACTIVE) pushes, and the same POP then succeeds.
    run_asm(
        Chip::Rv770,
        "PUSH @1 POP:0\nPOP @2 POP:1\nCF_END\n",
        "threads = 1\n",
    )
    .unwrap();
}

/// Explicit gradients (SET_GRADIENTS_H, SET_GRADIENTS_V, then SAMPLE_G, the sequence Mesa's r600 driver
/// emits for textureGrad): on a single-level texture, or with MIP_FILTER none, the level is the base
/// level whatever the gradients say (the LOD only chooses among levels), so the result is the point
/// sample of the coordinate: (0.75, 0.25) on a 2x2 texture is texel (1, 0). Where the gradients would
/// choose a level (a mip chain with MIP_FILTER linear) the LOD computation is implementation-defined
/// (OpenGL 4.6, 8.14.1, allows approximating the scale factor): a typed error. So are SAMPLE_G before any
/// SET_GRADIENTS and a SET_GRADIENTS with a destination.
#[test]
fn gradient_sampling_after_set_gradients() {
    let prog = |sample: &str, set_dst: &str| {
        format!(
            "TEX 2 @2\nEXPORT T1.XYZW\nFetch clause starting at 2:\n  \
             TEX_SET_GRADIENTS_H T4.{set_dst}, T2.XYZW RID:0 SID:0 CT:NNNN\n  \
             TEX_SET_GRADIENTS_V T4.____, T3.XYZW RID:0 SID:0 CT:NNNN\n  \
             {sample} T1.XYZW, T0.XYZW RID:0 SID:0 CT:NNNN\n"
        )
    };
    let gprs = format!(
        "{}{}{}",
        inputs(0, &[[0.75, 0.25, 0.0, 0.0]]),
        inputs(2, &[[100.0, 0.0, 0.0, 0.0]]),
        inputs(3, &[[0.0, 100.0, 0.0, 0.0]])
    );
    let tex = "[[texture]]\nresource = 0\nwidth = 2\nheight = 2\nformat = \"rgba32f\"\n\
               data = [0.0, 0.0, 0.0, 1.0,  1.0, 0.0, 0.0, 1.0,  0.0, 1.0, 0.0, 1.0,  1.0, 1.0, 0.0, 1.0]\n\
               [[sampler]]\nid = 0\nfilter = \"point\"\n";
    let cfg = format!("threads = 1\n{gprs}{tex}");
    let r = run_asm(Chip::Rv770, &prog("TEX_SAMPLE_G", "____"), &cfg).unwrap();
    assert_eq!(pixel0(&r, 0).map(f), [1.0, 0.0, 0.0, 1.0]);
    // A mip chain with MIP_FILTER none: the base level (10.0); with linear: a typed error.
    let r = run_asm(
        Chip::Rv770,
        &prog("TEX_SAMPLE_G", "____"),
        &format!("threads = 1\n{gprs}{}", mip_texture("none")),
    )
    .unwrap();
    assert_eq!(f(pixel0(&r, 0)[0]), 10.0);
    for (p, c) in [
        (
            prog("TEX_SAMPLE_G", "____"),
            format!("threads = 1\n{gprs}{}", mip_texture("linear")),
        ),
        (prog("TEX_SAMPLE_G", "X___"), cfg.clone()),
        (
            "TEX 0 @2\nEXPORT T1.XYZW\nFetch clause starting at 2:\n  TEX_SAMPLE_G T1.XYZW, T0.XYZW RID:0 SID:0 CT:NNNN\n".to_string(),
            cfg.clone(),
        ),
    ] {
        let e = run_asm(Chip::Rv770, &p, &c).unwrap_err();
        assert!(
            matches!(e, RunError::Exec(ExecError::NotModelled { .. })),
            "{e}"
        );
    }
    // SAMPLE_C_G: the depth compare of the same texel (x = 1.0): 1.0 LEQUAL 1.0 passes; reference in W.
    let cfg_c = format!(
        "threads = 1\n{}{}{}{}",
        inputs(0, &[[0.75, 0.25, 0.0, 1.0]]),
        inputs(2, &[[1.0, 0.0, 0.0, 0.0]]),
        inputs(3, &[[0.0, 1.0, 0.0, 0.0]]),
        tex.replace(
            "filter = \"point\"\n",
            "filter = \"point\"\ncompare = \"lequal\"\n"
        )
    );
    let r = run_asm(
        Chip::Rv770,
        &prog("TEX_SAMPLE_C_G", "____").replace("T1.XYZW, T0", "T1.X___, T0"),
        &cfg_c,
    )
    .unwrap();
    assert_eq!(f(pixel0(&r, 0)[0]), 1.0);
}

/// Cube-map sampling as Mesa's r600 driver lowers it (sfn_nir_lower_tex.cpp,
/// `r600_nir_lower_cube_to_2darray`): CUBE on the direction, then x = sc * (1 / |2 ma|) + 1.5,
/// y = tc * (1 / |2 ma|) + 1.5, z = face id, and SAMPLE on the cube resource. The expected texels follow
/// the OpenGL 4.6 specification, 8.13 "Cube Map Texture Selection" (Table 8.19: major axis, sc, tc per
/// face; s = (sc / |ma| + 1) / 2, t = (tc / |ma| + 1) / 2), independently of wavesim's CUBE code. Each
/// 4x4 face texel holds (face, column, row, 1). |ma| = 2 in every direction, so all values are exact.
#[test]
fn cube_map_sampling_follows_the_gl_face_selection() {
    let prog = "\
        ALU 8, @4, KC0[], KC1[]
        TEX 0 @14
        EXPORT T2.XYZW
        CF_END
        ALU clause starting at 4:
          CUBE   T1.X, T0.Z, T0.Y,  
          CUBE   T1.Y, T0.Z, T0.X,  
          CUBE   T1.Z, T0.X, T0.Z,  
          CUBE * T1.W, T0.Y, T0.Z,  
          RECIP_IEEE * T2.X, |T1.Z|,  
          MULADD_IEEE   T3.X, T1.Y, T2.X, literal.x,  
          MULADD_IEEE   T3.Y, T1.X, T2.X, literal.x,  
          MOV * T3.Z, T1.W,  
          1069547520(1.500000e+00), 0(0.000000e+00)
        Fetch clause starting at 14:
          TEX_SAMPLE T2.XYZW, T3.XYZW RID:0 SID:0 CT:NNNN
    ";
    // (direction, expected [face, column, row]) from GL's Table 8.19.
    let cases: [([f32; 3], [f32; 3]); 6] = [
        ([2.0, 1.0, -0.5], [0.0, 2.0, 1.0]), // +X: sc = -rz = 0.5, tc = -ry = -1
        ([-2.0, 0.5, 1.0], [1.0, 3.0, 1.0]), // -X: sc = rz = 1, tc = -ry = -0.5
        ([1.0, 2.0, -1.0], [2.0, 3.0, 1.0]), // +Y: sc = rx = 1, tc = rz = -1
        ([-1.0, -2.0, 1.0], [3.0, 1.0, 1.0]), // -Y: sc = rx = -1, tc = -rz = -1
        ([0.5, -1.0, 2.0], [4.0, 2.0, 3.0]), // +Z: sc = rx = 0.5, tc = -ry = 1
        ([1.0, 1.0, -2.0], [5.0, 1.0, 1.0]), // -Z: sc = -rx = -1, tc = -ry = -1
    ];
    let dirs: Vec<[f32; 4]> = cases.iter().map(|(d, _)| [d[0], d[1], d[2], 0.0]).collect();
    let mut data = Vec::new();
    for face in 0..6 {
        for row in 0..4 {
            for col in 0..4 {
                data.push(format!("{face}.0, {col}.0, {row}.0, 1.0"));
            }
        }
    }
    let tex = format!(
        "[[texture]]\nresource = 0\nwidth = 4\nheight = 4\nformat = \"rgba32f\"\ndim = \"cube\"\ndata = [{}]\n",
        data.join(", ")
    );
    let smp = |filter: &str| format!("[[sampler]]\nid = 0\nfilter = \"{filter}\"\n");
    let r = run_asm(
        Chip::Rv770,
        prog,
        &format!("threads = 6\n{}{tex}{}", inputs(0, &dirs), smp("point")),
    )
    .unwrap();
    for (t, (_, want)) in cases.iter().enumerate() {
        assert_eq!(
            pixel0(&r, t).map(f),
            [want[0], want[1], want[2], 1.0],
            "case {t}"
        );
    }
    // Bilinear at the +Z face centre (s = t = 0.5): the four middle texels blend to (1.5, 1.5).
    let r = run_asm(
        Chip::Rv770,
        prog,
        &format!(
            "threads = 1\n{}{tex}{}",
            inputs(0, &[[0.0, 0.0, 2.0, 0.0]]),
            smp("bilinear")
        ),
    )
    .unwrap();
    assert_eq!(pixel0(&r, 0).map(f), [4.0, 1.5, 1.5, 1.0]);
    // s = (-1.75 / 2 + 1) / 2 = 0.0625: the bilinear footprint leaves the face (edge filtering is not
    // in the sources): an error naming the edge.
    let e = run_asm(
        Chip::Rv770,
        prog,
        &format!(
            "threads = 1\n{}{tex}{}",
            inputs(0, &[[-1.75, 0.0, 2.0, 0.0]]),
            smp("bilinear")
        ),
    )
    .unwrap_err();
    assert!(e.to_string().contains("edge"), "{e}");
    // A cube needs six faces.
    let e = run_asm(
        Chip::Rv770,
        prog,
        &format!(
            "threads = 1\n{}{}{}",
            inputs(0, &[[0.0, 0.0, 2.0, 0.0]]),
            tex.replace("data = [", "data = [1.0, "),
            smp("point")
        ),
    )
    .unwrap_err();
    assert!(matches!(e, RunError::Config(_)), "{e}");
}

/// Predicate-counter instructions, with the definitions wavesim follows (semantics.rs: the Xenos
/// sequencer-ALU definitions xenia documents, with Mesa sb's folding of PRED_SET_INV/RESTORE agreeing):
/// PRED_SETcc_PUSH(counter, v): counter == 0 and (v cc 0) -> 0.0 and predicate true, else counter + 1;
/// PRED_SET_INV: 1 -> 0 (true), 0 -> 1, others kept; PRED_SET_RESTORE: 0 -> 0.0 (true), others kept;
/// PRED_SET_POP(counter, 1): counter - 1, 0.0 (true) once <= 0; PRED_SET_CLR: FLT_MAX, false.
#[test]
fn predicate_counter_instructions() {
    let prog = |a: &str, b: &str, c: &str, d: &str| {
        format!(
            "ALU 3, @4, KC0[], KC1[]\nEXPORT T1.XYZW\nCF_END\nPAD\nALU clause starting at 4:\n  \
             {a} * T1.X, T0.X, T0.Y,\n  {b} * T1.Y, T0.X, T0.Y,\n  {c}\n  {d}\n"
        )
    };
    // (counter, value) per thread; thread 4's counter is -0.0.
    let cv: [[f32; 4]; 5] = [
        [0.0, 0.0, 0.0, 0.0],
        [0.0, 2.0, 0.0, 0.0],
        [1.0, 0.0, 0.0, 0.0],
        [3.5, -1.0, 0.0, 0.0],
        [-0.0, 0.0, 0.0, 0.0],
    ];
    let cfg = format!("threads = 5\n{}", inputs(0, &cv));
    let r = run_asm(
        Chip::Rv770,
        &prog(
            "PRED_SETE_PUSH",
            "PRED_SETGT_PUSH",
            "PRED_SET_INV * T1.Z, T0.X,",
            "PRED_SET_RESTORE * T1.W, T0.X,",
        ),
        &cfg,
    )
    .unwrap();
    let want: [[f32; 4]; 5] = [
        [0.0, 1.0, 1.0, 0.0],
        [1.0, 0.0, 1.0, 0.0],
        [2.0, 2.0, 0.0, 1.0],
        [4.5, 4.5, 3.5, 3.5],
        [0.0, 1.0, 1.0, 0.0],
    ];
    for (t, w) in want.iter().enumerate() {
        assert_eq!(pixel0(&r, t).map(f), *w, "thread {t}");
    }
    // RESTORE of -0.0 writes +0.0 (the Xenos definition's 0.0, not Mesa sb's copy of the source).
    assert_eq!(pixel0(&r, 4)[3], Some(0));
    let r = run_asm(
        Chip::Rv770,
        &prog(
            "PRED_SETGE_PUSH",
            "PRED_SETNE_PUSH",
            "PRED_SET_POP * T1.Z, T0.X, 1.0,",
            "PRED_SET_CLR * T1.W,",
        ),
        &cfg,
    )
    .unwrap();
    let want: [[f32; 4]; 5] = [
        [0.0, 1.0, 0.0, f32::MAX],
        [0.0, 0.0, 0.0, f32::MAX],
        [2.0, 2.0, 0.0, f32::MAX],
        [4.5, 4.5, 2.5, f32::MAX],
        [0.0, 1.0, 0.0, f32::MAX],
    ];
    for (t, w) in want.iter().enumerate() {
        assert_eq!(pixel0(&r, t).map(f), *w, "thread {t}");
    }
    // Popping by anything but 1.0 is not in the sources: a typed error.
    let e = run_asm(
        Chip::Rv770,
        &prog(
            "PRED_SETGE_PUSH",
            "PRED_SETNE_PUSH",
            "PRED_SET_POP * T1.Z, T0.X, 0.5,",
            "PRED_SET_CLR * T1.W,",
        ),
        &cfg,
    )
    .unwrap_err();
    assert!(
        matches!(e, RunError::Exec(ExecError::NotModelled { .. })),
        "{e}"
    );
    // The predicate: PRED_SETGT_PUSH sets it for the threads whose counter is 0 and value > 0 (thread
    // 1 only); a later instruction with PRED_SEL_ONE runs for them, PRED_SEL_ZERO for the others.
    let p = "ALU 2, @4, KC0[], KC1[]\nEXPORT T1.XYZW\nCF_END\nPAD\nALU clause starting at 4:\n  \
             PRED_SETGT_PUSH * Pred,PredicateBit (MASKED), T0.X, T0.Y,\n  \
             MOV * T1.X, 1.0, Pred_sel_one\n  MOV * T1.Y, 1.0, Pred_sel_zero\n";
    let r = run_asm(Chip::Rv770, p, &cfg).unwrap();
    for t in 0..5 {
        let v = pixel0(&r, t).map(|c| c.map(f32::from_bits).unwrap_or(0.0));
        let on = t == 1;
        assert_eq!(
            (v[0], v[1]),
            if on { (1.0, 0.0) } else { (0.0, 1.0) },
            "thread {t}"
        );
    }
}

/// PRED_SETcc_PUSH_INT: the float rule above over signed integers (semantics.rs: decaf-emu marks the
/// opcodes ALU_INT, integer inputs and output; Mesa's r600_isa.c marks them AF_INT_CMP):
/// counter == 0 and (v cc 0) as signed integers -> 0 and predicate true, else counter + 1 (integer).
#[test]
fn predicate_counter_integer_forms() {
    let prog = |a: &str, b: &str, c: &str| {
        format!(
            "ALU 3, @4, KC0[], KC1[]\nEXPORT T1.XYZW\nCF_END\nPAD\nALU clause starting at 4:\n  \
             {a} * T1.X, T0.X, T0.Y,\n  {b} * T1.Y, T0.X, T0.Y,\n  {c} * T1.Z, T0.X, T0.Y,\n  \
             MOV * T1.W, 0.0,\n"
        )
    };
    // (counter, value) per thread, raw integers. Thread 3's counter is 0x3F800000 (1.0f as bits: an
    // integer, not zero); thread 4's value is 0x80000000 (i32::MIN, negative as a signed integer, -0.0
    // as a float); thread 5's counter is u32::MAX, which the integer increment wraps to 0.
    let cv: [[u32; 4]; 6] = [
        [0, 0, 0, 0],
        [0, 7, 0, 0],
        [0, (-3i32) as u32, 0, 0],
        [0x3F80_0000, 0, 0, 0],
        [0, 0x8000_0000, 0, 0],
        [u32::MAX, 5, 0, 0],
    ];
    let cfg = format!("threads = 6\n{}", raw_inputs(0, &cv));
    // E, GT, GE: a thread passes when its counter is 0 and value == 0 / > 0 / >= 0; a passing thread
    // writes 0, a failing one counter + 1.
    let r = run_asm(
        Chip::Rv770,
        &prog(
            "PRED_SETE_PUSH_INT",
            "PRED_SETGT_PUSH_INT",
            "PRED_SETGE_PUSH_INT",
        ),
        &cfg,
    )
    .unwrap();
    let want: [[u32; 3]; 6] = [
        [0, 1, 0],        // 0 == 0, not > 0, >= 0
        [1, 0, 0],        // 7: fails E, passes GT and GE
        [1, 1, 1],        // -3 fails all three
        [0x3F80_0001; 3], // counter not 0: incremented as an integer
        [1, 1, 1],        // i32::MIN is negative
        [0, 0, 0],        // u32::MAX + 1 wraps to 0
    ];
    for (t, w) in want.iter().enumerate() {
        assert_eq!(raw(pixel0(&r, t))[..3], w[..], "thread {t}");
    }
    // NE, LT, LE.
    let r = run_asm(
        Chip::Rv770,
        &prog(
            "PRED_SETNE_PUSH_INT",
            "PRED_SETLT_PUSH_INT",
            "PRED_SETLE_PUSH_INT",
        ),
        &cfg,
    )
    .unwrap();
    let want: [[u32; 3]; 6] = [
        [1, 1, 0],        // 0: fails NE and LT, passes LE
        [0, 1, 1],        // 7: passes NE only
        [0, 0, 0],        // -3 passes all three
        [0x3F80_0001; 3], // counter not 0
        [0, 0, 0],        // i32::MIN < 0
        [0, 0, 0],        // wraps
    ];
    for (t, w) in want.iter().enumerate() {
        assert_eq!(raw(pixel0(&r, t))[..3], w[..], "thread {t}");
    }
    // The predicate: PRED_SETLT_PUSH_INT sets it for the threads whose counter is 0 and value < 0
    // (threads 2 and 4); PRED_SEL_ONE runs for them, PRED_SEL_ZERO for the others.
    let p = "ALU 2, @4, KC0[], KC1[]\nEXPORT T1.XYZW\nCF_END\nPAD\nALU clause starting at 4:\n  \
             PRED_SETLT_PUSH_INT * Pred,PredicateBit (MASKED), T0.X, T0.Y,\n  \
             MOV * T1.X, 1.0, Pred_sel_one\n  MOV * T1.Y, 1.0, Pred_sel_zero\n";
    let r = run_asm(Chip::Rv770, p, &cfg).unwrap();
    for t in 0..6 {
        let v = pixel0(&r, t).map(|c| c.map(f32::from_bits).unwrap_or(0.0));
        let on = t == 2 || t == 4;
        assert_eq!(
            (v[0], v[1]),
            if on { (1.0, 0.0) } else { (0.0, 1.0) },
            "thread {t}"
        );
    }
}

/// MUL_LIT(src0, src1, src2) as Mesa's LIT lowering uses it (r600_shader.c `tgsi_lit`:
/// src0 = LOG_CLAMPED(max(y, 0)), src1 = w, src2 = x) with the R600 ISA's MUL_LIT special cases as
/// xenia restates them (kMulsPrev2, "implemented like MUL_LIT in the R600 ISA documentation"):
/// -FLT_MAX when src1 is -FLT_MAX or not finite, or src2 is not finite or <= 0; otherwise src0 * src1,
/// scaled by 2 / 4 / 0.5 for the _M2 / _M4 / _D2 forms. Then LIT's z = 2^MUL_LIT:
/// 2^(3 * log2 4) = 64 for (x, y, w) = (1, 4, 3), and 2^(-FLT_MAX * 0) = 2^-0 = 1 = 0^0 for y = w = 0.
#[test]
fn mul_lit_special_cases() {
    let prog = |inst: &str| {
        format!(
            "ALU 0, @4, KC0[], KC1[]\nEXPORT T1.XYZW\nCF_END\nPAD\nALU clause starting at 4:\n  \
             {inst} * T1.X, T0.X, T0.Y, T0.Z,\n"
        )
    };
    // (src0, src1, src2) per thread, as raw bits (TOML has no spelling for these infinities here).
    let b = |x: f32| x.to_bits();
    let s: [[u32; 4]; 9] = [
        [b(2.0), b(3.0), b(1.0), 0],               // 2 * 3 = 6
        [b(2.0), b(3.0), b(0.0), 0],               // src2 <= 0: -FLT_MAX
        [b(2.0), b(f32::NEG_INFINITY), b(1.0), 0], // src1 = -inf: -FLT_MAX
        [b(2.0), b(-f32::MAX), b(1.0), 0],         // src1 = -FLT_MAX: -FLT_MAX
        [b(2.0), b(3.0), b(f32::NAN), 0],          // src2 not finite: -FLT_MAX
        [b(-1.5), b(0.25), b(7.0), 0],             // -1.5 * 0.25 = -0.375
        [b(-f32::MAX), b(0.0), b(1.0), 0],         // LIT with y = w = 0: -FLT_MAX * 0 = -0
        [b(-f32::MAX), b(0.5), b(1.0), 0],         // src0 = -FLT_MAX is no sentinel: -FLT_MAX / 2
        [b(f32::NEG_INFINITY), b(3.0), b(1.0), 0], // src0 = -inf (LOG_IEEE 0): -inf * 3 = -inf
    ];
    let cfg = format!("threads = 9\n{}", raw_inputs(0, &s));
    let r = run_asm(Chip::Rv770, &prog("MUL_LIT"), &cfg).unwrap();
    let got: Vec<u32> = (0..9).map(|t| f(pixel0(&r, t)[0]).to_bits()).collect();
    let want = [
        b(6.0),
        b(-f32::MAX),
        b(-f32::MAX),
        b(-f32::MAX),
        b(-f32::MAX),
        b(-0.375),
        b(-0.0),
        b(-f32::MAX / 2.0),
        b(f32::NEG_INFINITY),
    ];
    assert_eq!(got, want);
    // The scaled forms on the ordinary cases.
    let ok = format!("threads = 2\n{}", raw_inputs(0, &[s[0], s[5]]));
    for (inst, k) in [
        ("MUL_LIT_M2", 2.0f32),
        ("MUL_LIT_M4", 4.0),
        ("MUL_LIT_D2", 0.5),
    ] {
        let r = run_asm(Chip::Rv770, &prog(inst), &ok).unwrap();
        assert_eq!(
            (f(pixel0(&r, 0)[0]), f(pixel0(&r, 1)[0])),
            (6.0 * k, -0.375 * k),
            "{inst}"
        );
    }
    // A scaled sentinel and 0 * inf are left open by the sources: typed errors.
    for (inst, row) in [
        ("MUL_LIT_M2", s[1]),
        ("MUL_LIT", [b(f32::INFINITY), b(0.0), b(1.0), 0]),
    ] {
        let c = format!("threads = 1\n{}", raw_inputs(0, &[row]));
        let e = run_asm(Chip::Rv770, &prog(inst), &c).unwrap_err();
        assert!(
            matches!(e, RunError::Exec(ExecError::NotModelled { .. })),
            "{inst}: {e}"
        );
    }
}

/// Mesa's LIT sequence for R700 (r600_shader.c `tgsi_lit`): t.x = MAX(y, 0); t.z = LOG_CLAMPED(t.x);
/// t.x = MUL_LIT(t.z, w, x); z = EXP_IEEE(t.x). OpenGL's LIT (ARB_vertex_program, "LIT"; TGSI's LIT)
/// gives z = (x > 0) ? max(y, 0)^w : 0 with 0^0 = 1:
/// (x, y, w) = (1, 4, 3): 4^3 = 64 (2^(log2 4 * 3) = 2^6 exactly); (1, 0, 0): 0^0 = 1;
/// (1, 0, 2): 0^2 = 0 (2^(-FLT_MAX * 2) = 2^-inf = 0); (-1, 4, 3): x <= 0 gives -FLT_MAX, 2^-FLT_MAX = 0.
#[test]
fn lit_sequence_follows_opengl_lit() {
    let text =
        "ALU 3, @4, KC0[], KC1[]\nEXPORT T2.XYZW\nCF_END\nPAD\nALU clause starting at 4:\n  \
                MAX * T1.X, T0.Y, 0.0,\n  \
                LOG_CLAMPED * T1.Z, T1.X,\n  \
                MUL_LIT * T1.X, T1.Z, T0.W, T0.X,\n  \
                EXP_IEEE * T2.X, T1.X,\n";
    let cfg = format!(
        "threads = 4\n{}",
        inputs(
            0,
            &[
                [1.0, 4.0, 0.0, 3.0],
                [1.0, 0.0, 0.0, 0.0],
                [1.0, 0.0, 0.0, 2.0],
                [-1.0, 4.0, 0.0, 3.0]
            ]
        )
    );
    let r = run_asm(Chip::Rv770, text, &cfg).unwrap();
    let z: Vec<f32> = (0..4).map(|t| f(pixel0(&r, t)[0])).collect();
    assert_eq!(z, [64.0, 1.0, 0.0, 0.0]);
}

/// MUL_64 over the four vector slots (layout of Mesa's Evergreen-family emitters, assumed for R700 as for
/// ADD_64; see isa::Pair64Op::four_slots): X, Y and Z read the operands' high dwords, W the low dwords; X
/// receives the product's low dword, Y its high dword. IEEE-754 binary64, round to nearest even:
/// (1 + 2^-40) * 3 = 3 + 3 * 2^-40 exactly = 0x40080000_00001800; 1.5 * -2.25 = -3.375 = 0xC00B0000_00000000.
/// Different high-dword copies in X/Y/Z, a written Z/W slot and a PV.Z read after the group are errors.
#[test]
fn mul_64_over_four_slots() {
    let prog = |z_dst: &str, tail: &str| {
        format!(
            "ALU 4, @4, KC0[], KC1[]\nEXPORT T3.XYZW\nCF_END\nPAD\nALU clause starting at 4:\n  \
             MUL_64   T3.X, T0.Y, T1.Y,\n  MUL_64   T3.Y, T0.Y, T1.Y,\n  MUL_64   {z_dst}, T0.Y, T1.Y,\n  \
             MUL_64 * T3.W (MASKED), T0.X, T1.X,\n  {tail}\n"
        )
    };
    let d = |x: f64| [x.to_bits() as u32, (x.to_bits() >> 32) as u32, 0, 0];
    let cfg = |a: f64, b: f64| {
        format!(
            "threads = 1\n{}{}",
            raw_inputs(0, &[d(a)]),
            raw_inputs(1, &[d(b)])
        )
    };
    let ok = prog("T3.Z (MASKED)", "MOV * T2.X, T0.X,");
    let a = 1.0 + 2f64.powi(-40);
    let r = run_asm(Chip::Rv770, &ok, &cfg(a, 3.0)).unwrap();
    assert_eq!(raw(pixel0(&r, 0))[..2], [0x0000_1800, 0x4008_0000]);
    let r = run_asm(Chip::Rv770, &ok, &cfg(1.5, -2.25)).unwrap();
    assert_eq!(raw(pixel0(&r, 0))[..2], [0, 0xC00B_0000]);
    // A written Z slot.
    let e = run_asm(
        Chip::Rv770,
        &prog("T3.Z", "MOV * T2.X, T0.X,"),
        &cfg(1.5, 2.0),
    )
    .unwrap_err();
    assert!(
        matches!(e, RunError::Exec(ExecError::NotModelled { .. })),
        "{e}"
    );
    // PV.Z after the group has no defined value.
    let e = run_asm(
        Chip::Rv770,
        &prog("T3.Z (MASKED)", "MOV * T2.X, PV.Z,"),
        &cfg(1.5, 2.0),
    )
    .unwrap_err();
    assert!(e.to_string().contains("PV read"), "{e}");
    // A Z slot reading a different high dword.
    let e = run_asm(
        Chip::Rv770,
        &ok.replace(
            "MUL_64   T3.Z (MASKED), T0.Y, T1.Y",
            "MUL_64   T3.Z (MASKED), T1.Y, T1.Y",
        ),
        &cfg(1.5, 2.0),
    )
    .unwrap_err();
    assert!(
        matches!(e, RunError::Exec(ExecError::NotModelled { .. })),
        "{e}"
    );
    // rv710 has no double-precision unit.
    let e = run_asm(Chip::Rv710, &ok, &cfg(1.5, 2.0)).unwrap_err();
    assert!(e.to_string().contains("no double-precision unit"), "{e}");
}

/// Screen-space derivatives (GET_GRADIENTS_H/V, what Mesa's r600 driver emits for dFdx/dFdy): the forward
/// difference across the 2x2 pixel quad (GLSL 4.60, 8.14.1: dFdx(p) = p(x + 1, y) - p(x, y)), horizontal =
/// right minus left, vertical = next grid row minus this one. On a 4x2 grid with T0 = (x, y, 0, 1):
/// d(x*x)/dx = 1*1 - 0*0 = 1 in the left quad and 3*3 - 2*2 = 5 in the right one, d(y)/dx = 0, the
/// constant selects give 0; d(x*x)/dy = 0 and d(y)/dy = 1. Where the two rows disagree (x*y: rows 0 and
/// 1 give 0 and 1) fine and coarse derivatives differ and the sources do not say which R700 computes: a
/// typed error; so is a run that is not laid out in quads.
#[test]
fn quad_derivatives_with_get_gradients() {
    let prog = |t1x: &str| {
        format!(
            "ALU 1, @4, KC0[], KC1[]\nTEX 1 @6\nEXPORT T2.XYZW\nEXPORT T3.XYZW ; base:1\nALU clause starting at 4:\n  \
             {t1x}\n  MOV * T1.Y, T0.Y,\nFetch clause starting at 6:\n  \
             TEX_GET_GRADIENTS_H T2.XYZW, T1.XY01 RID:0 SID:0 CT:NNNN\n  \
             TEX_GET_GRADIENTS_V T3.XYZW, T1.XY01 RID:0 SID:0 CT:NNNN\n"
        )
    };
    let grid = "grid = [4, 2]\n[[gpr]]\nreg = 0\npixel = \"xy\"\n";
    let r = run_asm(Chip::Rv770, &prog("MUL_IEEE T1.X, T0.X, T0.X,"), grid).unwrap();
    for y in 0..2 {
        for x in 0..4 {
            let t = y * 4 + x;
            let dx = if x < 2 { 1.0 } else { 5.0 };
            assert_eq!(
                pixel0(&r, t).map(f),
                [dx, 0.0, 0.0, 0.0],
                "ddx at ({x}, {y})"
            );
            let p1 = r.export(t, ExportTarget::Pixel(1)).expect("pixel 1");
            assert_eq!(p1.map(f), [0.0, 1.0, 0.0, 0.0], "ddy at ({x}, {y})");
        }
    }
    // rv730 (32-thread waves) gives the same quads.
    let r = run_asm(Chip::Rv730, &prog("MUL_IEEE T1.X, T0.X, T0.X,"), grid).unwrap();
    assert_eq!(pixel0(&r, 7).map(f), [5.0, 0.0, 0.0, 0.0]);
    // x*y: the rows of a quad differ for d/dx (and the columns for d/dy).
    let e = run_asm(Chip::Rv770, &prog("MUL_IEEE T1.X, T0.X, T0.Y,"), grid).unwrap_err();
    assert!(
        matches!(e, RunError::Exec(ExecError::NotModelled { .. }))
            && e.to_string().contains("rows differ"),
        "{e}"
    );
    // Not a quad-ordered run: threads, or a grid with an odd side.
    for cfg in [
        format!("threads = 8\n{}", inputs(0, &[[0.0; 4]; 8])),
        "grid = [3, 2]\n[[gpr]]\nreg = 0\npixel = \"xy\"\n".to_string(),
    ] {
        let e = run_asm(Chip::Rv770, &prog("MUL_IEEE T1.X, T0.X, T0.X,"), &cfg).unwrap_err();
        assert!(e.to_string().contains("quad-ordered"), "{e}");
    }
}

/// One TEX instruction between an input GPR T0 and an exported T1.
fn tex_prog(inst: &str) -> String {
    format!("TEX 0 @4\nEXPORT T1.XYZW\nCF_END\nPAD\nFetch clause starting at 4:\n  {inst}\n")
}

/// rgba32f texel data: texel k of `n` is [base + k, 10 (base + k), 0, 1].
fn ramp(base: usize, n: usize) -> String {
    (0..n)
        .map(|k| {
            let v = (base + k) as f32;
            format!("{v:?}, {:?}, 0.0, 1.0", 10.0 * v)
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// 1-D and 1-D array textures, read as Mesa's r600 driver lays out their coordinates
/// (sfn_instr_tex.cpp `prepare_source`): X only for 1-D, the layer in Z (unnormalized, Y unused) for
/// 1-D arrays, select 7 in every unused component. Texel k of a 4-texel ramp is [k, 10k, 0, 1].
/// Point at u = 0.625: texel floor(0.625 * 4) = 2. Bilinear at u = 0.5: texel-space 2 - 0.5 = 1.5, half
/// of texels 1 and 2 = [1.5, 15, 0, 1]. Array (2 layers of 2 texels, layer 1 = texels 2, 3): u = 0.75,
/// layer 1 -> texel 1 of layer 1 = 3; a layer past the end clamps to the last one (OpenGL 4.6 8.14.2,
/// Mesa does not clamp); a layer that is not an integer is an error (Mesa rounds it first).
#[test]
fn one_d_textures_and_unused_source_selects() {
    let smp =
        |filter: &str| format!("[[sampler]]\nid = 0\nfilter = \"{filter}\"\nwrap_u = \"clamp\"\n");
    let tex1d = format!(
        "[[texture]]\nresource = 0\nwidth = 4\ndim = \"1d\"\nformat = \"rgba32f\"\ndata = [{}]\n",
        ramp(0, 4)
    );
    let p = tex_prog("TEX_SAMPLE T1.XYZW, T0.X___ RID:0 SID:0 CT:NNNN");
    let cfg = |filter: &str, u: f32| {
        format!(
            "threads = 1\n{}{tex1d}{}",
            inputs(0, &[[u, 0.0, 0.0, 0.0]]),
            smp(filter)
        )
    };
    let r = run_asm(Chip::Rv770, &p, &cfg("point", 0.625)).unwrap();
    assert_eq!(pixel0(&r, 0).map(f), [2.0, 20.0, 0.0, 1.0]);
    let r = run_asm(Chip::Rv770, &p, &cfg("bilinear", 0.5)).unwrap();
    assert_eq!(pixel0(&r, 0).map(f), [1.5, 15.0, 0.0, 1.0]);
    // The same select 7 where a 2-D texture needs Y is still an error.
    let tex2d = "[[texture]]\nresource = 0\nwidth = 1\nheight = 1\nformat = \"rgba32f\"\ndata = [1.0, 1.0, 1.0, 1.0]\n";
    let e = run_asm(
        Chip::Rv770,
        &p,
        &format!(
            "threads = 1\n{}{tex2d}{}",
            inputs(0, &[[0.5; 4]]),
            smp("point")
        ),
    )
    .unwrap_err();
    assert!(e.to_string().contains("source select 7"), "{e}");

    let arr = format!(
        "[[texture]]\nresource = 0\nwidth = 2\ndim = \"1d_array\"\nlayers = 2\nformat = \"rgba32f\"\ndata = [{}]\n",
        ramp(0, 4)
    );
    let p = tex_prog("TEX_SAMPLE T1.XYZW, T0.X_Z_ RID:0 SID:0 CT:NNUN");
    let run = |z: f32| {
        run_asm(
            Chip::Rv770,
            &p,
            &format!(
                "threads = 1\n{}{arr}{}",
                inputs(0, &[[0.75, 0.0, z, 0.0]]),
                smp("point")
            ),
        )
    };
    assert_eq!(pixel0(&run(1.0).unwrap(), 0).map(f), [3.0, 30.0, 0.0, 1.0]);
    assert_eq!(pixel0(&run(0.0).unwrap(), 0).map(f), [1.0, 10.0, 0.0, 1.0]);
    assert_eq!(pixel0(&run(5.0).unwrap(), 0).map(f), [3.0, 30.0, 0.0, 1.0]);
    let e = run(0.5).unwrap_err();
    assert!(e.to_string().contains("not an integer"), "{e}");
    // Settings that do not apply are configuration errors: layers on a 2-D texture, a 2-D texture
    // without a height, a 1-D texture with height 2.
    for (tex, msg) in [
        ("width = 1\nheight = 1\nlayers = 2", "`layers` applies to"),
        ("width = 1", "needs `height`"),
        ("width = 1\nheight = 2\ndim = \"1d\"", "height 1, not 2"),
    ] {
        let e = run_asm(
            Chip::Rv770,
            &p,
            &format!("threads = 1\n[[texture]]\nresource = 0\n{tex}\nformat = \"rgba32f\"\ndata = [1.0, 1.0, 1.0, 1.0]\n"),
        )
        .unwrap_err();
        assert!(e.to_string().contains(msg), "{e}");
    }
}

/// GET_GRADIENTS_H with the Z/W sources set to select 7 and their results masked (Mesa's dFdx of a
/// two-component value): only X/Y are computed. On a 2x2 grid with T0 = (x, y, 0, 1): d(x)/dx = 1 - 0 = 1,
/// d(y)/dx = 0 (OpenGL 4.6 8.14.1 forward differences).
#[test]
fn get_gradients_ignores_unused_components() {
    let p = "TEX 0 @4\nEXPORT T1.XYZW\nCF_END\nPAD\nFetch clause starting at 4:\n  \
             TEX_GET_GRADIENTS_H T1.XY__, T0.XY__ RID:0 SID:0 CT:NNNN\n";
    let r = run_asm(
        Chip::Rv770,
        p,
        "grid = [2, 2]\n[[gpr]]\nreg = 1\npixel = \"xy\"\n[[gpr]]\nreg = 0\npixel = \"xy\"\n",
    )
    .unwrap();
    for t in 0..4 {
        let v = pixel0(&r, t);
        assert_eq!((f(v[0]), f(v[1])), (1.0, 0.0), "pixel {t}");
    }
}

/// 2-D arrays (layer in Z) and 3-D textures. 2-D array of 2 layers of 1x1: layer k = [k, 10k, 0, 1].
/// 3-D of 1x1x4, slice k = [k, 10k, 0, 1]: Z_FILTER point at w = 0.6 takes slice floor(0.6 * 4) = 2;
/// linear at w = 0.5 blends slices 1 and 2 at z = 2 - 0.5 = 1.5 -> [1.5, 15, 0, 1]; linear at w = 0.05
/// (z = -0.3) with CLAMP_Z clamp-to-edge blends slice 0 with itself -> [0, 0, 0, 1] (OpenGL 4.6 8.14.2).
#[test]
fn two_d_array_and_three_d_textures() {
    let smp = "[[sampler]]\nid = 0\nfilter = \"point\"\nwrap_w = \"clamp\"\n";
    let arr = format!(
        "[[texture]]\nresource = 0\nwidth = 1\nheight = 1\ndim = \"2d_array\"\nlayers = 2\nformat = \"rgba32f\"\ndata = [{}]\n",
        ramp(0, 2)
    );
    let p = tex_prog("TEX_SAMPLE T1.XYZW, T0.XYZ_ RID:0 SID:0 CT:NNUN");
    let r = run_asm(
        Chip::Rv770,
        &p,
        &format!(
            "threads = 2\n{}{arr}{smp}",
            inputs(0, &[[0.5, 0.5, 1.0, 0.0], [0.5, 0.5, 0.0, 0.0]])
        ),
    )
    .unwrap();
    assert_eq!(pixel0(&r, 0).map(f), [1.0, 10.0, 0.0, 1.0]);
    assert_eq!(pixel0(&r, 1).map(f), [0.0, 0.0, 0.0, 1.0]);

    let t3 = format!(
        "[[texture]]\nresource = 0\nwidth = 1\nheight = 1\ndim = \"3d\"\nlayers = 4\nformat = \"rgba32f\"\ndata = [{}]\n",
        ramp(0, 4)
    );
    let p = tex_prog("TEX_SAMPLE T1.XYZW, T0.XYZ_ RID:0 SID:0 CT:NNNN");
    let run = |zf: &str, w: f32| {
        run_asm(
            Chip::Rv770,
            &p,
            &format!(
                "threads = 1\n{}{t3}{smp}z_filter = \"{zf}\"\n",
                inputs(0, &[[0.5, 0.5, w, 0.0]])
            ),
        )
        .unwrap()
    };
    assert_eq!(pixel0(&run("point", 0.6), 0).map(f), [2.0, 20.0, 0.0, 1.0]);
    assert_eq!(pixel0(&run("linear", 0.5), 0).map(f), [1.5, 15.0, 0.0, 1.0]);
    assert_eq!(pixel0(&run("linear", 0.05), 0).map(f), [0.0, 0.0, 0.0, 1.0]);
}

/// TEX_LD (texelFetch, Mesa's `emit_tex_txf` layout: integer X/Y, layer in Z, level in W) and
/// GET_TEXTURE_RESINFO (Mesa's `emit_tex_txs`: X/Y/Z = size at the level, W = levels). A 2x2 ramp with a
/// 1x1 level 1 ([9, 90, 0, 1]): LD (1, 0) level 0 = texel 1 = [1, 10, 0, 1]; (0, 1) = texel 2; (0, 0)
/// level 1 = [9, 90, 0, 1]; (2, 0) is outside: an error. RESINFO at level 0 = (2, 2, 1, 2 levels), level
/// 1 = (1, 1, 1, 2); a 1-D array of 2 texels x 3 layers gives (2, 3, 1, 1) (Cemu's layout: layers in Y);
/// a 2-D array 1x1 x 2 layers gives (1, 1, 2, 1); a 3-D 1x1x4 gives (1, 1, 4, 1). LD of layer 1 of the
/// 2-D array = [1, 10, 0, 1].
#[test]
fn texel_fetch_and_resource_info() {
    let tex = format!(
        "[[texture]]\nresource = 0\nwidth = 2\nheight = 2\nformat = \"rgba32f\"\ndata = [{}]\nmips = [[9.0, 90.0, 0.0, 1.0]]\n",
        ramp(0, 4)
    );
    let ld = tex_prog("TEX_LD T1.XYZW, T0.XYZW RID:0 SID:0 CT:NNNN");
    let rows = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 1]];
    let r = run_asm(
        Chip::Rv770,
        &ld,
        &format!("threads = 3\n{}{tex}", raw_inputs(0, &rows)),
    )
    .unwrap();
    assert_eq!(pixel0(&r, 0).map(f), [1.0, 10.0, 0.0, 1.0]);
    assert_eq!(pixel0(&r, 1).map(f), [2.0, 20.0, 0.0, 1.0]);
    assert_eq!(pixel0(&r, 2).map(f), [9.0, 90.0, 0.0, 1.0]);
    let e = run_asm(
        Chip::Rv770,
        &ld,
        &format!("threads = 1\n{}{tex}", raw_inputs(0, &[[2, 0, 0, 0]])),
    )
    .unwrap_err();
    assert!(e.to_string().contains("outside level 0"), "{e}");

    let info = tex_prog("TEX_GET_TEXTURE_RESINFO T1.XYZW, T0.XXXX RID:0 SID:0 CT:NNNN");
    let sizes = |t: &str, lods: &[u32]| -> Vec<[u32; 4]> {
        let rows: Vec<[u32; 4]> = lods.iter().map(|&l| [l, 0, 0, 0]).collect();
        let r = run_asm(
            Chip::Rv770,
            &info,
            &format!("threads = {}\n{}{t}", lods.len(), raw_inputs(0, &rows)),
        )
        .unwrap();
        (0..lods.len()).map(|k| raw(pixel0(&r, k))).collect()
    };
    assert_eq!(sizes(&tex, &[0, 1]), [[2, 2, 1, 2], [1, 1, 1, 2]]);
    let arr1 = format!(
        "[[texture]]\nresource = 0\nwidth = 2\ndim = \"1d_array\"\nlayers = 3\nformat = \"rgba32f\"\ndata = [{}]\n",
        ramp(0, 6)
    );
    assert_eq!(sizes(&arr1, &[0]), [[2, 3, 1, 1]]);
    let arr2 = format!(
        "[[texture]]\nresource = 0\nwidth = 1\nheight = 1\ndim = \"2d_array\"\nlayers = 2\nformat = \"rgba32f\"\ndata = [{}]\n",
        ramp(0, 2)
    );
    assert_eq!(sizes(&arr2, &[0]), [[1, 1, 2, 1]]);
    let t3 = format!(
        "[[texture]]\nresource = 0\nwidth = 1\nheight = 1\ndim = \"3d\"\nlayers = 4\nformat = \"rgba32f\"\ndata = [{}]\n",
        ramp(0, 4)
    );
    assert_eq!(sizes(&t3, &[0]), [[1, 1, 4, 1]]);
    let e = run_asm(
        Chip::Rv770,
        &info,
        &format!("threads = 1\n{}{tex}", raw_inputs(0, &[[2, 0, 0, 0]])),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("outside the texture's 2 levels"),
        "{e}"
    );
    let r = run_asm(
        Chip::Rv770,
        &ld,
        &format!("threads = 1\n{}{arr2}", raw_inputs(0, &[[0, 0, 1, 0]])),
    )
    .unwrap();
    assert_eq!(pixel0(&r, 0).map(f), [1.0, 10.0, 0.0, 1.0]);
}

/// Cube maps with mip levels: face k's 2x2 level 0 is [k, 0, 0, 1] everywhere and its 1x1 level 1
/// [10 + k, 0, 0, 1]. SAMPLE_L at the face centre (X = Y = 1.5, i.e. s = t = 0.5; Z = face id) with
/// LOD 1 and MIP_FILTER point reads level 1 of that face; LOD 0 reads level 0 (OpenGL 4.6 8.13-8.14).
#[test]
fn cube_map_mip_levels() {
    let face = |v: f32, n: usize| vec![format!("{v:?}, 0.0, 0.0, 1.0"); n].join(", ");
    let l0: Vec<String> = (0..6).map(|k| face(k as f32, 4)).collect();
    let l1: Vec<String> = (0..6).map(|k| face(10.0 + k as f32, 1)).collect();
    let tex = format!(
        "[[texture]]\nresource = 0\nwidth = 2\nheight = 2\ndim = \"cube\"\nformat = \"rgba32f\"\ndata = [{}]\nmips = [[{}]]\n",
        l0.join(", "),
        l1.join(", ")
    );
    let smp = "[[sampler]]\nid = 0\nfilter = \"point\"\nmip_filter = \"point\"\n";
    let p = tex_prog("TEX_SAMPLE_L T1.XYZW, T0.XYZW RID:0 SID:0 CT:NNNN");
    let r = run_asm(
        Chip::Rv770,
        &p,
        &format!(
            "threads = 3\n{}{tex}{smp}",
            inputs(
                0,
                &[
                    [1.5, 1.5, 4.0, 1.0],
                    [1.5, 1.5, 2.0, 0.0],
                    [1.5, 1.5, 0.0, 1.0]
                ]
            )
        ),
    )
    .unwrap();
    let x: Vec<f32> = (0..3).map(|t| f(pixel0(&r, t)[0])).collect();
    assert_eq!(x, [14.0, 2.0, 10.0]);
}

/// FREXP_64 over four slots in the layout of Mesa's r600_shader.c `tgsi_dfracexp` (Evergreen; assumed
/// for R700 as for ADD_64/MUL_64): X and Z read the high dword, Y and W the low one; Y receives the
/// exponent (integer), Z/W the mantissa's low/high dwords; X is unwritten. frexp (C99 7.12.6.4, GLSL
/// frexp): 6.0 = 0.75 * 2^3 -> (0.75 = 0x3FE80000_00000000, 3); -0.1 = -0.8 * 2^-3 (the mantissa keeps
/// the 52 fraction bits of -0.1 = 0xBFB99999_9999999A with the exponent field of 2^-1: 0xBFE99999_9999999A);
/// 0.0 -> (0.0, 0). LDEXP_64 on the X/Y pair as ADD_64 (Mesa's `tgsi_op2_64`), exponent in src1 of both
/// slots: 0.75 * 2^3 = 6.0 = 0x40180000_00000000; 1.5 * 2^-1030 leaves the normal range (a denormal, an
/// error); different X/Y exponents are an error.
#[test]
fn frexp_64_and_ldexp_64() {
    let frexp = |x_dst: &str| {
        format!(
            "ALU 3, @4, KC0[], KC1[]\nEXPORT T3.XYZW\nCF_END\nPAD\nALU clause starting at 4:\n  \
             FREXP_64   {x_dst}, T0.Y,\n  FREXP_64   T3.Y, T0.X,\n  FREXP_64   T3.Z, T0.Y,\n  \
             FREXP_64 * T3.W, T0.X,\n"
        )
    };
    let d = |x: f64| [x.to_bits() as u32, (x.to_bits() >> 32) as u32, 0, 0];
    let rows = [d(6.0), d(-0.1), d(0.0)];
    let r = run_asm(
        Chip::Rv770,
        &frexp("T3.X (MASKED)"),
        &format!("threads = 3\n{}", raw_inputs(0, &rows)),
    )
    .unwrap();
    assert_eq!(raw(pixel0(&r, 0))[1..], [3, 0, 0x3FE8_0000]);
    assert_eq!(
        raw(pixel0(&r, 1))[1..],
        [(-3i32) as u32, 0x9999_999A, 0xBFE9_9999]
    );
    assert_eq!(raw(pixel0(&r, 2))[1..], [0, 0, 0]);
    let e = run_asm(
        Chip::Rv770,
        &frexp("T3.X"),
        &format!("threads = 1\n{}", raw_inputs(0, &[d(6.0)])),
    )
    .unwrap_err();
    assert!(e.to_string().contains("X-slot result"), "{e}");

    let ldexp = |ey: &str| {
        format!(
            "ALU 1, @4, KC0[], KC1[]\nEXPORT T3.XYZW\nCF_END\nPAD\nALU clause starting at 4:\n  \
             LDEXP_64   T3.X, T0.Y, T1.X,\n  LDEXP_64 * T3.Y, T0.X, {ey},\n"
        )
    };
    let cfg = |a: f64, e: i32| {
        format!(
            "threads = 1\n{}{}",
            raw_inputs(0, &[d(a)]),
            raw_inputs(1, &[[e as u32, 7, 0, 0]])
        )
    };
    let r = run_asm(Chip::Rv770, &ldexp("T1.X"), &cfg(0.75, 3)).unwrap();
    assert_eq!(raw(pixel0(&r, 0))[..2], [0, 0x4018_0000]);
    let e = run_asm(Chip::Rv770, &ldexp("T1.X"), &cfg(1.5, -1030)).unwrap_err();
    assert!(e.to_string().contains("LDEXP_64 result"), "{e}");
    let e = run_asm(Chip::Rv770, &ldexp("T1.Y"), &cfg(0.75, 3)).unwrap_err();
    assert!(e.to_string().contains("exponents 3 (X) and 7 (Y)"), "{e}");
}
