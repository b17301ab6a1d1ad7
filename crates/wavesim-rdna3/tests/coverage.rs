//! Coverage of the instruction table (issues 3 and 10, "Done when"): every row of every family
//! (ALU, memory, export, LDS-direct) must be claimed by exactly one family in `exec::FAMILIES`
//! or be listed in `UNCLAIMED` with the reason; a claimed op's handler must not answer
//! `ExecError::Unimplemented` when run — except the ops listed in `NO_SEMANTICS`, each with the
//! reason. Every listed op is run and must end with the typed error `ExecError::Unimplemented`.
//! A new table row without semantics therefore fails `every_row_is_claimed_once_or_listed`.

use wavesim_core::memory::DeviceMemory;
use wavesim_rdna3::decode::{opnd, Enc, Inst};
use wavesim_rdna3::dispatch::ExecConfig;
use wavesim_rdna3::exec::{execute, Ctx, ExecError, FAMILIES};
use wavesim_rdna3::isa::{Fmt, Op};
use wavesim_rdna3::wave::Wave;

/// Ops that deliberately end the dispatch with `ExecError::Unimplemented`.
const NO_SEMANTICS: &[(Op, &str)] = &[
    // RDNA1/2 subvector execution (run a wave64 block as two wave32 halves). The RDNA3 ISA guide
    // dropped the feature: neither the SOPK opcode list nor the machine-readable gfx11 ISA
    // defines these opcodes (LLVM 19 still assembles them for gfx11). With no gfx11 semantics to
    // follow, wavesim refuses them rather than guess the RDNA2 behaviour.
    (Op::S_SUBVECTOR_LOOP_BEGIN, "not defined by the RDNA3 ISA"),
    (Op::S_SUBVECTOR_LOOP_END, "not defined by the RDNA3 ISA"),
];

/// Memory instructions claimed by a family that end the dispatch with
/// `ExecError::Unimplemented`.
const MEM_NO_SEMANTICS: &[(Op, &str)] = &[
    (Op::DS_GWS_SEMA_RELEASE_ALL, GDS),
    (Op::DS_GWS_INIT, GDS),
    (Op::DS_GWS_SEMA_V, GDS),
    (Op::DS_GWS_SEMA_BR, GDS),
    (Op::DS_GWS_SEMA_P, GDS),
    (Op::DS_GWS_BARRIER, GDS),
    (Op::DS_ORDERED_COUNT, GDS),
    (Op::DS_ADD_GS_REG_RTN, GDS),
    (Op::DS_SUB_GS_REG_RTN, GDS),
    (
        Op::DS_BVH_STACK_RTN_B32,
        "ray-tracing traversal stack: not emulated (needs the BVH intersection of image_bvh*)",
    ),
];

const GDS: &str = "global wave sync, ordered count and GS registers use GDS/GWS hardware, which \
                   wavesim does not emulate (compute kernels from LLVM do not use it)";
const IMG: &str = "image instruction not emulated yet (wavesim has image_load/store/atomics, \
                   image_sample[_c][_l|_b|_lz|_d][_o], image_gather4_lz[_o] and image_get_resinfo)";

/// Rows no family claims: `exec::handlers` maps them to `ExecError::Unimplemented`.
const UNCLAIMED: &[(Op, &str)] = &[
    (Op::IMAGE_LOAD_PCK, IMG),
    (Op::IMAGE_LOAD_PCK_SGN, IMG),
    (Op::IMAGE_LOAD_MIP_PCK, IMG),
    (Op::IMAGE_LOAD_MIP_PCK_SGN, IMG),
    (Op::IMAGE_STORE_PCK, IMG),
    (Op::IMAGE_STORE_MIP_PCK, IMG),
    (Op::IMAGE_MSAA_LOAD, IMG),
    (Op::IMAGE_BVH_INTERSECT_RAY, IMG),
    (Op::IMAGE_BVH64_INTERSECT_RAY, IMG),
    (Op::IMAGE_GATHER4, IMG),
    (Op::IMAGE_GATHER4_L, IMG),
    (Op::IMAGE_GATHER4_B, IMG),
    (Op::IMAGE_GATHER4_C, IMG),
    (Op::IMAGE_GATHER4_C_LZ, IMG),
    (Op::IMAGE_GATHER4_O, IMG),
    (Op::IMAGE_GATHER4_C_LZ_O, IMG),
    (Op::IMAGE_GET_LOD, IMG),
    (Op::IMAGE_SAMPLE_D_G16, IMG),
    (Op::IMAGE_SAMPLE_C_D_G16, IMG),
    (Op::IMAGE_SAMPLE_D_O_G16, IMG),
    (Op::IMAGE_SAMPLE_C_D_O_G16, IMG),
    (Op::IMAGE_SAMPLE_CL, IMG),
    (Op::IMAGE_SAMPLE_D_CL, IMG),
    (Op::IMAGE_SAMPLE_B_CL, IMG),
    (Op::IMAGE_SAMPLE_C_CL, IMG),
    (Op::IMAGE_SAMPLE_C_D_CL, IMG),
    (Op::IMAGE_SAMPLE_C_B_CL, IMG),
    (Op::IMAGE_SAMPLE_CL_O, IMG),
    (Op::IMAGE_SAMPLE_D_CL_O, IMG),
    (Op::IMAGE_SAMPLE_B_CL_O, IMG),
    (Op::IMAGE_SAMPLE_C_CL_O, IMG),
    (Op::IMAGE_SAMPLE_C_D_CL_O, IMG),
    (Op::IMAGE_SAMPLE_C_B_CL_O, IMG),
    (Op::IMAGE_SAMPLE_C_D_CL_G16, IMG),
    (Op::IMAGE_SAMPLE_D_CL_O_G16, IMG),
    (Op::IMAGE_SAMPLE_C_D_CL_O_G16, IMG),
    (Op::IMAGE_SAMPLE_D_CL_G16, IMG),
    (Op::IMAGE_GATHER4_CL, IMG),
    (Op::IMAGE_GATHER4_B_CL, IMG),
    (Op::IMAGE_GATHER4_C_CL, IMG),
    (Op::IMAGE_GATHER4_C_L, IMG),
    (Op::IMAGE_GATHER4_C_B, IMG),
    (Op::IMAGE_GATHER4_C_B_CL, IMG),
    (Op::IMAGE_GATHER4H, IMG),
];

fn is_alu(fmt: Fmt) -> bool {
    matches!(
        fmt,
        Fmt::Sop1
            | Fmt::Sop2
            | Fmt::Sopk
            | Fmt::Sopc
            | Fmt::Sopp
            | Fmt::Vop1
            | Fmt::Vop2
            | Fmt::Vopc
            | Fmt::Vop3
            | Fmt::Vop3sd
            | Fmt::Vop3p
    )
}

fn alu_ops() -> Vec<Op> {
    Op::ALL
        .iter()
        .copied()
        .filter(|op| is_alu(op.fmt()))
        .collect()
}

#[test]
fn the_table_has_the_alu_formats() {
    // A guard against an empty filter: gfx11 has well over 600 SALU/VALU opcodes.
    let ops = alu_ops();
    assert!(ops.len() > 600, "only {} ALU ops in the table", ops.len());
    for fmt in [Fmt::Sop1, Fmt::Sopp, Fmt::Vop3p, Fmt::Vop3sd, Fmt::Vopc] {
        assert!(ops.iter().any(|op| op.fmt() == fmt), "{fmt:?}");
    }
}

#[test]
fn every_alu_op_is_claimed_by_exactly_one_family() {
    let mut missing = Vec::new();
    let mut doubly = Vec::new();
    for op in alu_ops() {
        let claims: Vec<&str> = FAMILIES
            .iter()
            .filter(|(_, f)| f(op).is_some())
            .map(|(name, _)| *name)
            .collect();
        match claims.len() {
            0 => missing.push(op.name()),
            1 => {}
            _ => doubly.push((op.name(), claims)),
        }
    }
    assert!(missing.is_empty(), "ALU ops without a handler: {missing:?}");
    assert!(doubly.is_empty(), "ALU ops claimed twice: {doubly:?}");
}

/// An instruction of `op` in its own encoding with register operands: destinations v8 / s10,
/// sources v1, v2, v3 (VALU) or s1, s2, s3 (SALU), no modifiers.
fn inst_of(op: Op) -> Inst {
    let mut i = Inst::invalid(0);
    i.op = op;
    let valu = matches!(
        op.fmt(),
        Fmt::Vop1 | Fmt::Vop2 | Fmt::Vopc | Fmt::Vop3 | Fmt::Vop3sd | Fmt::Vop3p
    );
    (i.enc, i.len) = match op.fmt() {
        Fmt::Sop1 => (Enc::Sop1, 4),
        Fmt::Sop2 => (Enc::Sop2, 4),
        Fmt::Sopk => (Enc::Sopk, 4),
        Fmt::Sopc => (Enc::Sopc, 4),
        Fmt::Sopp => (Enc::Sopp, 4),
        Fmt::Vop1 => (Enc::Vop1, 4),
        Fmt::Vop2 => (Enc::Vop2, 4),
        Fmt::Vopc => (Enc::Vopc, 4),
        Fmt::Vop3 => (Enc::Vop3, 8),
        Fmt::Vop3sd => (Enc::Vop3sd, 8),
        _ => (Enc::Vop3p, 8),
    };
    if valu {
        i.dst = [opnd::VGPR0 + 8, 10];
        i.src = [
            opnd::VGPR0 + 1,
            opnd::VGPR0 + 2,
            opnd::VGPR0 + 3,
            opnd::VGPR0 + 4,
        ];
    } else {
        i.dst = [10, 11];
        i.src = [2, 4, 6, 8];
    }
    i
}

#[test]
fn every_alu_op_executes_or_is_listed_as_without_semantics() {
    let mem = DeviceMemory::default();
    let cfg = ExecConfig::default();
    let mut lds = vec![0u8; 65536];
    let mut unimplemented = Vec::new();
    let mut listed_but_run = Vec::new();
    for wave64 in [false, true] {
        for op in alu_ops() {
            let mut w = Wave::new(wave64, 256);
            w.set_exec(u64::MAX);
            w.pc = 0x100;
            for r in 0..16 {
                for l in 0..64 {
                    w.vgpr_set(r, l, 0x3f80_0000 + (r * 64 + l) as u32);
                }
            }
            let inst = inst_of(op);
            let mut ctx = Ctx {
                mem: &mem,
                lds: &mut lds,
                alignment_mode: cfg.alignment_mode,
                host: None,
            };
            let r = execute(&mut w, &inst, &mut ctx);
            let listed = NO_SEMANTICS.iter().any(|(o, _)| *o == op);
            match (r, listed) {
                (Err(ExecError::Unimplemented { .. }), false) => unimplemented.push(op.name()),
                (Err(ExecError::Unimplemented { .. }), true) => {}
                (_, true) => listed_but_run.push(op.name()),
                _ => {}
            }
        }
    }
    assert!(
        unimplemented.is_empty(),
        "ALU ops answering Unimplemented: {unimplemented:?}"
    );
    assert!(
        listed_but_run.is_empty(),
        "NO_SEMANTICS lists ops that now execute (remove them): {listed_but_run:?}"
    );
}

fn claims(op: Op) -> Vec<&'static str> {
    FAMILIES
        .iter()
        .filter(|(_, f)| f(op).is_some())
        .map(|(name, _)| *name)
        .collect()
}

#[test]
fn every_row_is_claimed_once_or_listed() {
    let mut missing = Vec::new();
    let mut doubly = Vec::new();
    let mut listed_but_claimed = Vec::new();
    for &op in Op::ALL {
        let c = claims(op);
        let listed = UNCLAIMED.iter().any(|(o, _)| *o == op);
        match (c.len(), listed) {
            (0, false) => missing.push(op.name()),
            (0, true) => {}
            (1, false) => {}
            (1, true) => listed_but_claimed.push(op.name()),
            _ => doubly.push((op.name(), c)),
        }
    }
    assert!(
        missing.is_empty(),
        "table rows without semantics: {missing:?}"
    );
    assert!(doubly.is_empty(), "table rows claimed twice: {doubly:?}");
    assert!(
        listed_but_claimed.is_empty(),
        "UNCLAIMED lists ops a family now claims (remove them): {listed_but_claimed:?}"
    );
    // The lists name each op once.
    let mut all: Vec<Op> = UNCLAIMED
        .iter()
        .chain(MEM_NO_SEMANTICS)
        .chain(NO_SEMANTICS)
        .map(|(o, _)| *o)
        .collect();
    let n = all.len();
    all.sort();
    all.dedup();
    assert_eq!(all.len(), n, "an op is listed twice");
}

#[test]
fn the_coverage_covers_every_family() {
    // Every encoding family has rows, so a filter cannot silently skip one.
    for fmt in [
        Fmt::Sop1,
        Fmt::Sop2,
        Fmt::Sopk,
        Fmt::Sopc,
        Fmt::Sopp,
        Fmt::Smem,
        Fmt::Vop1,
        Fmt::Vop2,
        Fmt::Vopc,
        Fmt::Vop3,
        Fmt::Vop3sd,
        Fmt::Vop3p,
        Fmt::Vinterp,
        Fmt::Ldsdir,
        Fmt::Ds,
        Fmt::Mubuf,
        Fmt::Mtbuf,
        Fmt::Mimg,
        Fmt::Exp,
        Fmt::Flat,
        Fmt::Global,
        Fmt::Scratch,
    ] {
        assert!(Op::ALL.iter().any(|op| op.fmt() == fmt), "{fmt:?}");
    }
    assert_eq!(Op::ALL.len(), wavesim_rdna3::isa::OPS.len());
}

/// Runs `op`'s resolved handler with EXEC = 0 (memory rows then touch no memory) on a plain
/// instruction: v8 destination, v1..v4 / s2.. sources.
fn run_with_no_lanes(op: Op) -> Result<(), ExecError> {
    let mem = DeviceMemory::default();
    let cfg = ExecConfig::default();
    let mut lds = vec![0u8; 65536];
    let mut w = Wave::new(false, 256);
    w.set_exec(0);
    w.pc = 0x100;
    let mut inst = Inst::invalid(0);
    inst.op = op;
    inst.enc = Enc::Vop3;
    inst.len = 8;
    inst.dst = [opnd::VGPR0 + 8, 10];
    inst.src = [
        opnd::VGPR0 + 1,
        opnd::VGPR0 + 2,
        opnd::VGPR0 + 3,
        opnd::VGPR0 + 4,
    ];
    let mut ctx = Ctx {
        mem: &mem,
        lds: &mut lds,
        alignment_mode: cfg.alignment_mode,
        host: None,
    };
    wavesim_rdna3::exec::handlers()[op as usize](&mut w, &inst, &mut ctx).map(|_| ())
}

#[test]
fn every_claimed_memory_row_has_semantics() {
    // The memory families' handlers, run with no active lane: a handler is a real one if it
    // does not answer Unimplemented (memory faults from SMEM's scalar address are fine).
    let mut unimplemented = Vec::new();
    let mut listed_but_run = Vec::new();
    for &op in Op::ALL.iter().filter(|op| !is_alu(op.fmt())) {
        if claims(op).is_empty() {
            continue;
        }
        let listed = MEM_NO_SEMANTICS.iter().any(|(o, _)| *o == op);
        match (run_with_no_lanes(op), listed) {
            (Err(ExecError::Unimplemented { .. }), false) => unimplemented.push(op.name()),
            (Err(ExecError::Unimplemented { .. }), true) => {}
            (_, true) => listed_but_run.push(op.name()),
            _ => {}
        }
    }
    assert!(
        unimplemented.is_empty(),
        "memory ops answering Unimplemented: {unimplemented:?}"
    );
    assert!(
        listed_but_run.is_empty(),
        "MEM_NO_SEMANTICS lists ops that now execute (remove them): {listed_but_run:?}"
    );
}

#[test]
fn listed_ops_end_with_a_typed_error_naming_them() {
    for (op, why) in UNCLAIMED.iter().chain(MEM_NO_SEMANTICS).chain(NO_SEMANTICS) {
        assert!(!why.is_empty());
        match run_with_no_lanes(*op) {
            Err(ExecError::Unimplemented { name }) => assert_eq!(name, op.name()),
            r => panic!("{}: expected Unimplemented, got {r:?}", op.name()),
        }
    }
}
