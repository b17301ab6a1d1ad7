//! Coverage of the scalar and vector ALU (issue 3, "Done when"): every SOP1/SOP2/SOPK/SOPC/SOPP
//! and VOP1/VOP2/VOPC/VOP3/VOP3SD/VOP3P opcode of the instruction table must be claimed by exactly
//! one family in `exec::FAMILIES`, and its handler must not answer `ExecError::Unimplemented`
//! when run — except the ops listed in `NO_SEMANTICS`, each with the reason.

use wavesim_core::memory::DeviceMemory;
use wavesim_rdna3::decode::{opnd, Enc, Inst};
use wavesim_rdna3::exec::{execute, Ctx, ExecConfig, ExecError, FAMILIES};
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
                cfg: &cfg,
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
