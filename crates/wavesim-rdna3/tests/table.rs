//! Consistency of the generated instruction table (`src/isa/table.rs`, from
//! `tools/table/gen_table.py`) and spot checks of opcode numbers confirmed with
//! `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding`.

use std::collections::{HashMap, HashSet};

use wavesim_rdna3::isa::{flags, Fmt, Lookup, Op, Ty, OPS};

/// VOP3 and VOP3SD rows share one opcode space.
fn space(fmt: Fmt) -> Fmt {
    if fmt == Fmt::Vop3sd {
        Fmt::Vop3
    } else {
        fmt
    }
}

fn find(ident: &str) -> Op {
    *Op::ALL
        .iter()
        .find(|op| op.info().ident == ident)
        .unwrap_or_else(|| panic!("{ident} not in the table"))
}

#[test]
fn identifiers_are_unique() {
    let mut seen = HashSet::new();
    for info in OPS {
        assert!(
            seen.insert(info.ident),
            "duplicate identifier {}",
            info.ident
        );
    }
    assert_eq!(OPS.len(), Op::ALL.len());
}

#[test]
fn family_opcode_pairs_are_unique() {
    let mut seen: HashMap<(Fmt, u16), &str> = HashMap::new();
    for info in OPS {
        if let Some(prev) = seen.insert((space(info.fmt), info.opc), info.ident) {
            panic!(
                "{:?} 0x{:x}: {} and {}",
                info.fmt, info.opc, prev, info.ident
            );
        }
    }
}

#[test]
fn derived_vop3_opcodes_do_not_collide() {
    let lk = Lookup::get();
    for info in OPS {
        let base = match info.fmt {
            Fmt::Vopc => 0x000,
            Fmt::Vop2 => 0x100,
            Fmt::Vop1 => 0x180,
            _ => continue,
        };
        if info.flags & flags::NO_VOP3 != 0 {
            continue;
        }
        let e64 = base + u32::from(info.opc);
        assert!(
            e64 < 0x200,
            "{}: derived VOP3 opcode 0x{e64:x} out of range",
            info.ident
        );
        assert_eq!(
            lk.find(Fmt::Vop3, e64),
            None,
            "{}: VOP3 0x{e64:x} is taken",
            info.ident
        );
        assert_eq!(
            lk.find(Fmt::Vop3sd, e64),
            None,
            "{}: VOP3 0x{e64:x} is taken",
            info.ident
        );
    }
}

#[test]
fn names_are_lower_case_identifiers() {
    assert_eq!(find("V_ADD_F32").name(), "v_add_f32");
    assert_eq!(find("GLOBAL_LOAD_B32").name(), "global_load_b32");
}

/// (family, opcode, identifier), each taken from an llvm-mc -show-encoding round trip.
const SPOT: &[(Fmt, u32, &str)] = &[
    (Fmt::Sop2, 0x00, "S_ADD_U32"),
    (Fmt::Sop2, 0x17, "S_AND_B64"),
    (Fmt::Sop1, 0x00, "S_MOV_B32"),
    (Fmt::Sop1, 0x47, "S_GETPC_B64"),
    (Fmt::Sop1, 0x48, "S_SETPC_B64"),
    (Fmt::Sopk, 0x00, "S_MOVK_I32"),
    (Fmt::Sopk, 0x11, "S_GETREG_B32"),
    (Fmt::Sopc, 0x06, "S_CMP_EQ_U32"),
    (Fmt::Sopp, 0x00, "S_NOP"),
    (Fmt::Sopp, 0x09, "S_WAITCNT"),
    (Fmt::Sopp, 0x20, "S_BRANCH"),
    (Fmt::Sopp, 0x30, "S_ENDPGM"),
    (Fmt::Smem, 0x00, "S_LOAD_B32"),
    (Fmt::Smem, 0x0a, "S_BUFFER_LOAD_B128"),
    (Fmt::Vop1, 0x01, "V_MOV_B32"),
    (Fmt::Vop1, 0x10, "V_CVT_F64_F32"),
    (Fmt::Vop2, 0x01, "V_CNDMASK_B32"),
    (Fmt::Vop2, 0x03, "V_ADD_F32"),
    (Fmt::Vop2, 0x20, "V_ADD_CO_CI_U32"),
    (Fmt::Vopc, 0x12, "V_CMP_EQ_F32"),
    (Fmt::Vopc, 0x92, "V_CMPX_EQ_F32"),
    (Fmt::Vopc, 0x7d, "V_CMP_CLASS_F16"),
    (Fmt::Vop3, 0x213, "V_FMA_F32"),
    (Fmt::Vop3, 0x31c, "V_LDEXP_F32"),
    (Fmt::Vop3, 0x33c, "V_LSHLREV_B64"),
    (Fmt::Vop3, 0x360, "V_READLANE_B32"),
    (Fmt::Vop3sd, 0x2fc, "V_DIV_SCALE_F32"),
    (Fmt::Vop3sd, 0x2fe, "V_MAD_U64_U32"),
    (Fmt::Vop3sd, 0x300, "V_ADD_CO_U32"),
    (Fmt::Vop3p, 0x0e, "V_PK_FMA_F16"),
    (Fmt::Vop3p, 0x13, "V_DOT2_F32_F16"),
    (Fmt::Vop3p, 0x20, "V_FMA_MIX_F32"),
    (Fmt::Vop3p, 0x40, "V_WMMA_F32_16X16X16_F16"),
    (Fmt::Vinterp, 0x01, "V_INTERP_P2_F32"),
    (Fmt::Ldsdir, 0x1, "LDS_DIRECT_LOAD"),
    (Fmt::Ds, 0x00, "DS_ADD_U32"),
    (Fmt::Ds, 0x0d, "DS_STORE_B32"),
    (Fmt::Ds, 0x77, "DS_LOAD_2ADDR_B64"),
    (Fmt::Mubuf, 0x14, "BUFFER_LOAD_B32"),
    (Fmt::Mubuf, 0x2b, "BUFFER_GL0_INV"),
    (Fmt::Mubuf, 0x34, "BUFFER_ATOMIC_CMPSWAP_B32"),
    (Fmt::Mtbuf, 0x7, "TBUFFER_STORE_FORMAT_XYZW"),
    (Fmt::Mimg, 0x00, "IMAGE_LOAD"),
    (Fmt::Mimg, 0x1b, "IMAGE_SAMPLE"),
    (Fmt::Flat, 0x14, "FLAT_LOAD_B32"),
    (Fmt::Global, 0x14, "GLOBAL_LOAD_B32"),
    (Fmt::Global, 0x1b, "GLOBAL_STORE_B64"),
    (Fmt::Global, 0x35, "GLOBAL_ATOMIC_ADD_U32"),
    (Fmt::Scratch, 0x1a, "SCRATCH_STORE_B32"),
];

#[test]
fn spot_check_opcodes() {
    let lk = Lookup::get();
    for &(fmt, opc, ident) in SPOT {
        let op = lk
            .find(fmt, opc)
            .unwrap_or_else(|| panic!("{fmt:?} 0x{opc:x}: no instruction, expected {ident}"));
        assert_eq!(op.info().ident, ident, "{fmt:?} 0x{opc:x}");
        assert_eq!(op.fmt(), fmt, "{ident}");
    }
}

fn sig(ident: &str) -> (Vec<Ty>, Vec<Ty>) {
    let s = find(ident).sig();
    let d = s.dst.iter().copied().filter(|t| *t != Ty::None).collect();
    let src = s.src.iter().copied().filter(|t| *t != Ty::None).collect();
    (d, src)
}

#[test]
fn spot_check_signatures() {
    use Ty::*;
    let cases: &[(&str, &[Ty], &[Ty])] = &[
        ("S_ADD_U32", &[U32], &[U32, U32]),
        ("S_GETPC_B64", &[B64], &[]),
        ("S_SETPC_B64", &[], &[B64]),
        ("S_GETREG_B32", &[B32], &[Hwreg]),
        ("S_CALL_B64", &[B64], &[Label]),
        ("S_BRANCH", &[], &[Label]),
        ("S_WAITCNT", &[], &[Waitcnt]),
        ("S_SENDMSG", &[], &[Sendmsg]),
        ("S_DELAY_ALU", &[], &[DelayAlu]),
        ("S_WAITCNT_DEPCTR", &[], &[Depctr]),
        ("S_NOP", &[], &[Imm16Inline]),
        ("S_ENDPGM", &[], &[]),
        ("S_BARRIER", &[], &[]),
        ("S_LOAD_B64", &[B64], &[B64]),
        ("S_BUFFER_LOAD_B32", &[B32], &[B128]),
        ("V_ADD_CO_CI_U32", &[U32, Mask], &[U32, U32, Mask]),
        ("V_CNDMASK_B32", &[B32], &[B32, B32, Mask]),
        ("V_CMP_EQ_F32", &[Mask], &[F32, F32]),
        ("V_CMPX_EQ_F32", &[], &[F32, F32]),
        ("V_MOV_B32", &[B32], &[B32]),
        ("V_CVT_F64_F32", &[F64], &[F32]),
        ("V_LDEXP_F32", &[F32], &[F32, I32]),
        ("V_LSHLREV_B64", &[B64], &[U32, B64]),
        ("V_MAD_U64_U32", &[U64, Mask], &[U32, U32, U64]),
        ("V_ADD_CO_U32", &[U32, Mask], &[U32, U32]),
        ("V_ADD_NC_U16", &[U16], &[U16, U16]),
        ("V_FMA_F16", &[F16], &[F16, F16, F16]),
        ("V_PK_ADD_F16", &[PkF16], &[PkF16, PkF16]),
        ("V_WMMA_I32_16X16X16_IU8", &[B256], &[B128, B128, B256]),
        ("DS_ADD_U32", &[], &[B32]),
        ("DS_ADD_RTN_U32", &[B32], &[B32]),
        ("DS_LOAD_2ADDR_B64", &[B128], &[]),
        ("DS_STORE_2ADDR_B32", &[], &[B32, B32]),
        ("BUFFER_ATOMIC_CMPSWAP_B32", &[B32], &[B64]),
        ("GLOBAL_LOAD_B64", &[B64], &[]),
        ("GLOBAL_STORE_B64", &[], &[B64]),
        ("IMAGE_LOAD", &[B128], &[]),
        ("EXP", &[], &[]),
    ];
    for &(ident, d, s) in cases {
        assert_eq!(sig(ident), (d.to_vec(), s.to_vec()), "{ident}");
    }
}

#[test]
fn flags() {
    for ident in [
        "V_NOP",
        "V_PIPEFLUSH",
        "V_READLANE_B32",
        "V_READFIRSTLANE_B32",
        "V_WRITELANE_B32",
        "BUFFER_GL0_INV",
        "BUFFER_GL1_INV",
    ] {
        assert_ne!(find(ident).info().flags & flags::NEVER_SKIP, 0, "{ident}");
    }
    for info in OPS {
        let cmpx = info.ident.starts_with("V_CMPX_");
        assert_eq!(info.flags & flags::WRITES_EXEC != 0, cmpx, "{}", info.ident);
    }
    for ident in ["V_FMAMK_F32", "V_FMAAK_F32", "V_SWAP_B32"] {
        assert_ne!(find(ident).info().flags & flags::NO_VOP3, 0, "{ident}");
    }
    assert_eq!(find("V_ADD_F32").info().flags & flags::NO_VOP3, 0);
}
