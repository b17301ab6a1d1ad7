//! Which predecoded instructions the JIT compiles, and their operands resolved at compile time.
//!
//! An instruction is translated only when its whole effect is known from the `Inst` and the
//! launch shape (wave size, VGPR count) and cannot fail: every register it names is in range, it
//! has no DPP, no input/output modifiers (f64 arithmetic takes abs/neg), no op_sel, no TTMP
//! operand (whose access depends on STATUS.PRIV), and it is not an encoding LLVM rejects.
//! Everything else either runs inside the block through its interpreter handler
//! (`Node::Call`, see [`callable`]) or, for program control and the scheduler's instructions,
//! ends the block and the interpreter runs it. Each lowering below mirrors the interpreter's handler for the op
//! (`exec::vint`, `exec::vfloat`, `exec::vcmp`, `exec::salu`, `exec::sopp`), which stays the
//! reference; the differential tests (tests/jit_*.rs) compare the two.

use crate::decode::{iflags, opnd, Dpp, Enc, Inst};
use crate::exec::operand::{read_scalar, FpMode};
use crate::isa::{MemKind, Op, Ty, D16};
use crate::wave::Wave;
use wavesim_core::memory::AtomicOp;

/// The f32 transcendentals and square root compiled as calls (`Node::VTrans`); each applies
/// its interpreter function (`exec::vfloat::ops`), so results, special values and flushing
/// are the handler's bit for bit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub(crate) enum Trans {
    Rcp,
    RcpIflag,
    Rsq,
    Sqrt,
    Exp,
    Log,
    Sin,
    Cos,
    RcpF64,
    RsqF64,
    SqrtF64,
}

impl Trans {
    const ALL: [Trans; 11] = [
        Trans::Rcp,
        Trans::RcpIflag,
        Trans::Rsq,
        Trans::Sqrt,
        Trans::Exp,
        Trans::Log,
        Trans::Sin,
        Trans::Cos,
        Trans::RcpF64,
        Trans::RsqF64,
        Trans::SqrtF64,
    ];

    /// The f64 forms (sources and results in VGPR pairs).
    pub(crate) fn wide(self) -> bool {
        matches!(self, Trans::RcpF64 | Trans::RsqF64 | Trans::SqrtF64)
    }

    /// The handler's per-lane function (`exec::vfloat`'s table: V_RCP_F32 ... V_COS_F32).
    fn apply(self, x: u64, m: &FpMode) -> u64 {
        use crate::exec::vfloat::ops;
        use wavesim_core::fp::soft::{F32, F64};
        match self {
            Trans::Rcp => ops::rcp(F32, x, m),
            Trans::RcpIflag => ops::rcp_iflag(x, m),
            Trans::Rsq => ops::rsq(F32, x, m),
            Trans::Sqrt => ops::sqrt(F32, x, m),
            Trans::Exp => ops::exp2(F32, x, m),
            Trans::Log => ops::log2(F32, x, m),
            Trans::Sin => ops::sincos(F32, x, m, false),
            Trans::Cos => ops::sincos(F32, x, m, true),
            Trans::RcpF64 => ops::rcp(F64, x, m),
            Trans::RsqF64 => ops::rsq(F64, x, m),
            Trans::SqrtF64 => ops::sqrt(F64, x, m),
        }
    }
}

/// What compiled code calls for a `Node::VTrans`: `dst[l] = op(src[l])` for every lane `l` in
/// `exec`, under the float controls of MODE value `mode`; `src` and `dst` hold 64 lanes of
/// low dwords, then (f64 forms) 64 lanes of high dwords. Compiled only where the handler adds
/// nothing else: no modifiers (so no output rounding step), no exception detection
/// (`mode_bits`).
///
/// # Safety
/// `src` and `dst` point to 128 u32s each.
pub(crate) unsafe extern "C" fn trans_lanes(
    op: u32,
    mode: u32,
    src: *const u32,
    dst: *mut u32,
    exec: u64,
) {
    let Some(&t) = Trans::ALL.get(op as usize) else {
        return;
    };
    let m = FpMode::from_mode(mode);
    for l in 0..64 {
        if exec >> l & 1 != 0 {
            // SAFETY: l + 64 < 128, the caller's buffers hold 128 dwords.
            unsafe {
                let hi = if t.wide() { *src.add(l + 64) as u64 } else { 0 };
                let r = t.apply(*src.add(l) as u64 | hi << 32, &m);
                *dst.add(l) = r as u32;
                *dst.add(l + 64) = (r >> 32) as u32;
            }
        }
    }
}

/// A MODE value whose float controls are `fp` (rounding to nearest even, no exception
/// detection: the modes compiled float code runs in), or None for any other `fp`.
fn mode_bits(fp: &FpMode) -> Option<u32> {
    use wavesim_core::fp::soft::Round;
    let den = |c: &wavesim_core::fp::soft::FpCtl| (!c.ftz_in as u32) | (!c.ftz_out as u32) << 1;
    if fp.detect || fp.f32.rm != Round::NearestEven || fp.f64.rm != Round::NearestEven {
        return None;
    }
    let bits =
        den(&fp.f32) << 4 | den(&fp.f64) << 6 | (fp.dx10_clamp as u32) << 8 | (fp.ieee as u32) << 9;
    (FpMode::from_mode(bits) == *fp).then_some(bits)
}

/// A 32-bit source, resolved.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Src {
    /// A VGPR row (in range).
    Vgpr(u16),
    /// A scalar register read as `operand::read_sgpr` does for 0..=107 and 125..=127.
    Sgpr(u16),
    /// An inline constant, literal or NULL (reads 0), as `operand::read_scalar` gives it.
    Const(u32),
}

/// A 64-bit scalar source: two scalar registers (lo, hi) or a constant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Src64 {
    Pair(Src, Src),
    Const(u64),
}

/// 32-bit VALU operations on two sources (`D = f(S0, S1)`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum V2 {
    Add,
    Sub,
    SubRev,
    MulLo,
    MulU24,
    MulI24,
    And,
    Or,
    Xor,
    Xnor,
    /// `S1 << S0[4:0]` (the *rev shifts take the count first).
    LshlRev,
    LshrRev,
    AshrRev,
    MinI,
    MaxI,
    MinU,
    MaxU,
    AddF,
    SubF,
    SubRevF,
    MulF,
    /// v_min_f32 / v_max_f32 (`exec::vfloat::ops::minmax`): MODE.IEEE decides how NaNs go.
    MinF,
    MaxF,
}

/// Conversions between f32 and 32-bit integers (`exec::vfloat`: `ops::from_int` rounds per MODE,
/// `ops::to_int` truncates, saturates and maps NaN to 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cvt {
    F32FromI32,
    F32FromU32,
    I32FromF32,
    U32FromF32,
}

/// A 64-bit VALU source (`operand::vsrc64`): a VGPR pair (both rows in range) or an aligned
/// SGPR pair / constant read as `operand::read_scalar64` reads it for the f64 type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum VSrc64 {
    Vgpr(u16),
    Scalar(Src64),
}

/// f64 arithmetic (`exec::vfloat`: `f64_op`, `f64_fma`), the host result where it is not NaN.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum F64Op {
    Add,
    Mul,
    Fma,
    /// v_min_f64 / v_max_f64 (`ops::minmax`: flushing, NaN, -0 < +0 and MODE.IEEE rules).
    Min,
    Max,
}

/// Conversions to and from f64 (`exec::vfloat`: `ops::cvt`, `ops::to_int`, `ops::from_int`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum CvtF64 {
    /// From a 32-bit source to an f64 pair.
    F64FromI32,
    F64FromU32,
    F64FromF32,
    /// From an f64 source to one 32-bit row.
    F32FromF64,
    I32FromF64,
}

/// 32-bit VALU operations on three sources.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum V3 {
    Add3,
    LshlAdd,
    AddLshl,
    LshlOr,
    AndOr,
    Or3,
    Xor3,
    Bfi,
    FmaF,
}

/// Integer compare conditions (VOPC opcode bits [2:0]: F LT EQ LE GT NE GE T).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Cond {
    F,
    Lt,
    Eq,
    Le,
    Gt,
    Ne,
    Ge,
    T,
}

/// Where a lane mask goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MaskDst {
    /// `operand::write_mask` to this code (VCC_LO for e32).
    Sgpr(u16),
    /// v_cmpx: `Wave::set_exec`.
    Exec,
}

/// Where a VALU lane-select mask comes from (v_cndmask).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MaskSrc {
    /// `Wave::vcc()`.
    Vcc,
    /// `operand::read_mask` of a register operand: one scalar (wave32) or two (wave64).
    Regs(Src, Src),
    Const(u64),
}

/// Bitwise operations shared by the SALU logic ops and the saveexec family (`f(S0, S1)`; for
/// saveexec S1 is EXEC).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Logic {
    And,
    Or,
    Xor,
    Nand,
    Nor,
    Xnor,
    /// `!S0 & S1`.
    AndNot0,
    /// `!S0 | S1`.
    OrNot0,
    /// `S0 & !S1`.
    AndNot1,
    /// `S0 | !S1`.
    OrNot1,
}

/// SALU two-source operations with their SCC rules (`exec::salu`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum S2 {
    AddU,
    SubU,
    AddI,
    SubI,
    AddC,
    SubB,
    Mul,
    Lshl,
    Lshr,
    Ashr,
    /// SCC = result != 0.
    Logic(Logic),
    MinI,
    MaxI,
    MinU,
    MaxU,
    LshlAdd(u8),
    Cselect,
}

/// SALU 64-bit logic and moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum S64 {
    Mov,
    Cselect,
    /// SCC = result != 0.
    Logic(Logic),
}

/// Conditions of the compiled branches (`exec::sopp`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Branch {
    Always,
    Scc0,
    Scc1,
    Vccz,
    Vccnz,
    Execz,
    Execnz,
}

/// One component (X or Y) of a VOPD instruction (`exec::vopd::component`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum DualOp {
    /// `D = S0 * S1 + D`.
    Fmac,
    /// `D = S0 * S1 + K`.
    Fmaak,
    /// `D = S0 * K + S1`.
    Fmamk,
    Mul,
    Add,
    Sub,
    SubRev,
    Mov,
    /// `D = VCC[lane] ? S1 : S0`.
    Cnd,
    AddNc,
    /// `D = S1 << S0[4:0]`.
    LshlRev,
    And,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Half {
    pub op: DualOp,
    pub dst: u16,
    pub a: Src,
    pub b: Src,
}

/// A GLOBAL, FLAT or DS load or store of whole dwords that compiled code performs itself, lane
/// by lane for the lanes in EXEC, when EXEC is not zero and one check over the active lanes
/// shows every access aligned (to the element size rounded up to a power of two, which no
/// alignment mode changes or refuses) and inside one allocation (GLOBAL; FLAT whose addresses
/// all lie outside the LDS and private apertures) or the workgroup's LDS (DS);
/// otherwise it runs the interpreter's handler (`Node::Call` with the same footprint), so
/// errors and every corner (faults, misalignment, out-of-range LDS, alignment modes) stay the
/// interpreter's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MemOp {
    pub store: bool,
    /// LDS (DS encoding) rather than device memory (GLOBAL, FLAT).
    pub lds: bool,
    /// FLAT: the 64-bit VGPR address is classified by aperture (`exec::flat::targets`), the
    /// instruction also counts in LGKM_CNT; `saddr` is NULL and `imm` the 12-bit offset.
    pub flat: bool,
    /// Dwords per element (1, 2, 3 or 4; 1 for the sub-dword forms).
    pub dwords: u8,
    /// Bytes per element: `4 * dwords`, or 1 or 2 for the GLOBAL and FLAT sub-dword forms
    /// (`*_load_u8/i8/u16/i16`, `*_load_d16[_hi]_*`, `*_store_b8/b16`, `*_store_d16_hi_*`).
    pub size: u8,
    /// Sub-dword loads: sign-extend the loaded value (`i8`, `i16`).
    pub sext: bool,
    /// Sub-dword forms: a d16 load writes only the low (`Lo`) or high (`Hi`) half of its
    /// destination; a `d16_hi` store stores from the high half.
    pub d16: D16,
    /// The address VGPR row (GLOBAL without saddr: the low row of the 64-bit pair).
    pub addr: u16,
    /// GLOBAL: the scalar base pair's even code, or NULL for the 64-bit VGPR address.
    pub saddr: u16,
    /// The first data VGPR row: destination of a load, source of a store.
    pub data: u16,
    /// DS 2addr stores: the second element's data row (`data1`); else unused.
    pub data1: u16,
    /// GLOBAL: the signed immediate offset. DS: the byte offset of the first element.
    pub imm: i64,
    /// DS 2addr forms: the byte offset of the second element (its data follows the first's in
    /// the destination rows of a load).
    pub off1: Option<u32>,
    /// The region-cache slot this instruction uses (`cache::RegionCache`).
    pub slot: u8,
    /// MUBUF: the V# and the addressing (`addr` is the first vaddr row, `imm` the 12-bit
    /// inst_offset, `saddr` unused).
    pub buf: Option<BufAddr>,
    /// An atomic (`store` false, `size` 4 or 8, `data` its first source row): each active
    /// lane's read-modify-write in lane order, as the handlers do it.
    pub rmw: Option<Rmw>,
}

impl MemOp {
    /// A dword load through region-cache slot `slot` with every other field at its neutral
    /// value (no LDS, FLAT, sign, d16 half, saddr, second element, MUBUF or atomic): the forms
    /// below set what they use.
    fn plain(slot: u8) -> MemOp {
        MemOp {
            store: false,
            lds: false,
            flat: false,
            dwords: 1,
            size: 4,
            sext: false,
            d16: D16::None,
            addr: 0,
            saddr: opnd::NULL,
            data: 0,
            data1: 0,
            imm: 0,
            off1: None,
            slot,
            buf: None,
            rmw: None,
        }
    }
}

/// The atomic of a `MemOp` (`exec::flat::atomic`, `exec::buffer::atomic`,
/// `exec::lds::ds_atomic`, `wavesim_core::memory::AtomicOp`): device memory through host
/// atomics (the same read-modify-writes `Region::atomic32/64` use, so waves on other threads
/// see each one whole), LDS (the workgroup's own, which one thread runs) with plain accesses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Rmw {
    pub op: AtomicOp,
    /// The old value goes to the rows at `dst` (GLC, or a DS `_rtn_` form).
    pub rtn: bool,
    pub dst: u16,
    /// The compare value's first row (cmpswap: after the source rows, DS: data1).
    pub cmp: u16,
}

/// The atomic operations compiled (the others run their handler).
fn rmw_op(op: Op) -> Option<AtomicOp> {
    use AtomicOp::*;
    let a = op.facts().atomic?;
    matches!(
        a,
        Add | Sub | And | Or | Xor | Xchg | MinU | MaxU | MinI | MaxI | CmpSwap
    )
    .then_some(a)
}

/// The operands of a MUBUF access (`exec::buffer::address`) besides its rows: the fast path
/// runs only for a linear V# of type buffer without add_tid (read at run time) whose every
/// active lane's access is in range under its OOB_SELECT, aligned and in one allocation; any
/// other V#, lane or address runs the handler.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct BufAddr {
    /// The first of the V#'s four (plain) SGPRs.
    pub srsrc: u16,
    /// soffset, added to the V#'s base (never range-checked).
    pub soff: Src,
    /// vaddr holds the index (IDXEN) and then the offset (OFFEN).
    pub idxen: bool,
    pub offen: bool,
}

/// One compiled instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    /// Changes no state (s_nop, s_clause, s_delay_alu, ...).
    Nop,
    /// `s_waitcnt`: each counter drops to at most its field (`exec::sopp`).
    WaitCnt {
        vm: u8,
        lgkm: u8,
        exp: u8,
    },
    /// `s_load_b32` .. `s_load_b512` with a compiled fast path: the `n` dwords at
    /// `(sbase pair + imm + soff) & !3` (`exec::smem::s_load`) loaded into `dst..dst + n`
    /// (plain SGPRs) when one allocation in the region cache (`slot`) holds them; otherwise
    /// the handler (`idx`, `fp`), which reports the fault.
    SLoad {
        idx: u32,
        fp: Footprint,
        sbase: u16,
        soff: Src,
        imm: i64,
        dst: u16,
        n: u8,
        slot: u8,
    },
    /// A load or store with a compiled fast path (see [`MemOp`]); `idx` and `fp` are the
    /// instruction's `Node::Call` for the other cases.
    Mem {
        idx: u32,
        fp: Footprint,
        m: MemOp,
    },
    VMov {
        dst: u16,
        a: Src,
    },
    VNot {
        dst: u16,
        a: Src,
    },
    VCvt {
        op: Cvt,
        dst: u16,
        a: Src,
    },
    /// An f32 or f64 transcendental or square root: one call of `trans_lanes`, which runs
    /// the interpreter's per-lane function on each active lane, for MODE value `mode`. f64
    /// forms (`Trans::wide`) read `a64` and write the pair at `dst`.
    VTrans {
        op: Trans,
        dst: u16,
        a: Src,
        a64: VSrc64,
        mode: u32,
    },
    V2 {
        op: V2,
        dst: u16,
        a: Src,
        b: Src,
    },
    V3 {
        op: V3,
        dst: u16,
        a: Src,
        b: Src,
        c: Src,
    },
    /// The carry ops (`exec::vint::carry_op`): `D = S0 +/- S1 [+/- carry-in]`, the carry /
    /// borrow of each EXEC lane to `carry` (0 elsewhere).
    VCarry {
        sub: bool,
        rev: bool,
        dst: u16,
        a: Src,
        b: Src,
        cin: Option<MaskSrc>,
        carry: MaskDst,
    },
    /// v_alignbit_b32 with a constant shift: `D = ({S0, S1} >> (n & 31))[31:0]`.
    AlignBit {
        dst: u16,
        a: Src,
        b: Src,
        n: u32,
    },
    /// v_lshlrev_b64 (kind 0), v_lshrrev_b64 (1), v_ashrrev_i64 (2) of a VGPR pair by a
    /// constant count: `D64 = S1_64 shifted by S0[5:0]`.
    Shift64 {
        kind: u8,
        dst: u16,
        src: u16,
        n: u32,
    },
    /// v_mad_u64_u32 without clamp (`exec::vint::mad64`): `D64 = S0 * S1 + S2_64` over a VGPR
    /// pair in range, bit 64 of each EXEC lane's 65-bit sum to `carry`.
    Mad64 {
        dst: u16,
        a: Src,
        b: Src,
        c: VSrc64,
        carry: MaskDst,
    },
    /// v_fmac_f32: `D = S0 * S1 + D`.
    Fmac {
        dst: u16,
        a: Src,
        b: Src,
    },
    VCnd {
        dst: u16,
        a: Src,
        b: Src,
        sel: MaskSrc,
    },
    VCmp {
        cond: Cond,
        signed: bool,
        a: Src,
        b: Src,
        dst: MaskDst,
    },
    /// f64 add, mul, fma: `D64 = op(S0, S1[, S2])` (`dst` the first row of an in-range pair).
    F64 {
        op: F64Op,
        dst: u16,
        a: VSrc64,
        b: VSrc64,
        c: VSrc64,
        /// VOP3 source modifiers (bit k: source k), applied as `operand::src_mods` does: abs
        /// clears the sign, then neg flips it.
        abs: u8,
        neg: u8,
    },
    /// Conversions involving f64 (`a32` is the source of the 32-bit -> f64 forms, `a64` of the
    /// others; `dst` a pair for the f64 results).
    CvtF64 {
        op: CvtF64,
        dst: u16,
        a32: Src,
        a64: VSrc64,
    },
    /// f32 compare: condition = VOPC opcode bits [3:0] (F LT EQ LE GT LG GE O U NGE NLG NGT NLE
    /// NEQ NLT T, `exec::vcmp::fcond`).
    VCmpF {
        cond: u8,
        a: Src,
        b: Src,
        dst: MaskDst,
    },
    /// VOPD (wave32): both components read their sources, then X and Y write.
    Dual {
        x: Half,
        y: Half,
        /// The shared literal (K of fmaak/fmamk).
        k: u32,
    },
    /// SALU 32-bit op writing `dst` (and SCC per the op).
    S2 {
        op: S2,
        dst: u16,
        a: Src,
        b: Src,
    },
    /// s_mov_b32 / s_movk_i32 (no SCC).
    SMov {
        dst: u16,
        a: Src,
    },
    /// s_not_b32 (SCC = result != 0).
    SNot {
        dst: u16,
        a: Src,
    },
    /// s_cmp / s_cmpk (SCC only).
    SCmp {
        cond: Cond,
        signed: bool,
        a: Src,
        b: Src,
    },
    /// s_cmp_eq_u64 / s_cmp_lg_u64.
    SCmp64 {
        ne: bool,
        a: Src64,
        b: Src64,
    },
    S64 {
        op: S64,
        dst: u16,
        a: Src64,
        b: Src64,
    },
    /// s_*_saveexec: `EXEC = op(S0, EXEC)`.
    SaveExec {
        op: Logic,
        wide: bool,
        dst: u16,
        s: Src64,
    },
    /// An instruction the JIT does not translate: the compiled code stores the wave state it
    /// holds, runs the interpreter's handler for instruction `idx` on the wave (`cache::call`)
    /// and reloads what it uses next. A handler that fails or changes control flow stops the
    /// block there (exit 2) and the step loop handles its result as for an interpreted one.
    Call {
        idx: u32,
        /// The registers the handler touches, when known ([`footprint`]): the block then keeps
        /// the rest in host registers across the call.
        fp: Option<Footprint>,
    },
    /// Ends the block: exit 1 (taken, to `target`) or exit 0 (fall through). As a block's
    /// side exit (`side`, see `cache::JitCode::compile_at`), exit 4 when taken and the block
    /// goes on when not.
    Branch {
        cond: Branch,
        target: usize,
        side: bool,
    },
    /// `s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)` (`exec::sopp::sendmsg`): STATUS.NO_VGPRS set
    /// and one LGKM_CNT issue, nothing else (compilers end kernels with it).
    DeallocVgprs,
    /// `s_endpgm`: ends the block with exit 3, the wave ended (`Flow::End`).
    End,
}

impl Node {
    /// True for nodes whose result depends on MODE's f64 controls: compiled for the launch's
    /// f64 rounding and denormal setting (`Shape::fp`) when it rounds to nearest even without
    /// exception detection, entered only while the wave's MODE still has that setting.
    pub(crate) fn needs_f64(&self) -> bool {
        matches!(self, Node::F64 { .. } | Node::CvtF64 { .. })
            || matches!(self, Node::VTrans { op, .. } if op.wide())
    }

    /// True for nodes whose result depends on MODE's f32 controls (f32 arithmetic, compares
    /// and conversions), compiled and entered like those of [`Node::needs_f64`].
    pub(crate) fn needs_f32(&self) -> bool {
        matches!(
            self,
            Node::CvtF64 {
                op: CvtF64::F64FromF32 | CvtF64::F32FromF64,
                ..
            }
        ) || matches!(
            self,
            Node::V2 {
                op: V2::AddF | V2::SubF | V2::SubRevF | V2::MulF | V2::MinF | V2::MaxF,
                ..
            } | Node::V3 { op: V3::FmaF, .. }
                | Node::Fmac { .. }
                | Node::VCmpF { .. }
                | Node::VCvt { .. }
                | Node::VTrans { op: Trans::Rcp | Trans::RcpIflag | Trans::Rsq | Trans::Sqrt
                    | Trans::Exp | Trans::Log | Trans::Sin | Trans::Cos, .. }
                // VOPD: also for its integer components (the handler's exception bookkeeping
                // runs for the whole instruction when MODE enables exceptions).
                | Node::Dual { .. }
        )
    }
}

/// Whether a block may run `inst` through its interpreter handler (`Node::Call`) and go on.
/// Program control and the scheduler's business end the block instead: branches the JIT could
/// not resolve, s_setpc/s_swappc/s_call/s_rfe, s_barrier, s_trap, s_sleep, halt and kill,
/// messages but s_sendmsg, and every other SOPP but s_sendmsg, s_endpgm and the waits (which
/// never block in this model: `exec::sopp`, S_WAITCNT, only lower the counters). MODE writers (s_setreg*, s_round_mode,
/// s_denorm_mode) end it as well: compiled f32 code was chosen for the MODE the block started
/// with. (The callback also stops the block whenever a handler returns anything but
/// `Flow::Next` or changes MODE, so this list is about speed, not correctness.)
pub(crate) fn callable(inst: &Inst) -> bool {
    use Op::*;
    match inst.enc {
        Enc::Invalid => false,
        // s_sendmsg too: its messages other than DEALLOC_VGPRS (which `lower` compiles, as
        // s_endpgm) run through the handler, which keeps every effect (LGKM_CNT, the
        // graphics messages, the errors of the others).
        Enc::Sopp => matches!(
            inst.op,
            S_WAITCNT
                | S_WAITCNT_DEPCTR
                | S_WAIT_IDLE
                | S_NOP
                | S_CLAUSE
                | S_DELAY_ALU
                | S_SENDMSG
                | S_ENDPGM
        ),
        _ => !matches!(
            inst.op,
            S_SETPC_B64
                | S_SWAPPC_B64
                | S_CALL_B64
                | S_RFE_B64
                | S_SENDMSG_RTN_B32
                | S_SENDMSG_RTN_B64
                | S_SETREG_B32
                | S_SETREG_IMM32_B32
        ),
    }
}

/// Register ranges (first row or operand code, count) an interpreter handler called from
/// compiled code reads and writes. A superset is always safe; a missing register is not (the
/// handler would see a stale value, or the block would keep one the handler replaced).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Footprint {
    /// Scalar operand codes read.
    pub sread: [(u16, u8); 3],
    /// Scalar operand codes written.
    pub swrite: (u16, u8),
    /// VGPR rows read.
    pub vread: [(u16, u8); 3],
    /// VGPR rows written (a partial, EXEC-masked write also reads the row's other lanes).
    pub vwrite: (u16, u8),
}

/// The footprint of the handlers that run most often inside blocks: the waits (no register),
/// `s_load_b*` and the GLOBAL loads, stores and atomics (their operands as `exec::smem` and
/// `exec::flat` read them, plus EXEC). None (the block stores and forgets everything around the
/// call) for anything else, and for operands whose access depends on more than the operand code:
/// TTMPs (STATUS.PRIV), VGPRs out of range (read as v0), destinations a handler drops.
pub(crate) fn footprint(inst: &Inst, s: &Shape) -> Option<Footprint> {
    use Op::*;
    let vrows = |code: u16, n: u8| -> Option<(u16, u8)> {
        let r = code.checked_sub(opnd::VGPR0)?;
        (opnd::is_vgpr(code) && r + n as u16 <= s.num_vgprs).then_some((r, n))
    };
    let sreg = |code: u16| -> Option<(u16, u8)> {
        if code == opnd::NULL {
            Some((0, 0))
        } else {
            plain_sgpr(code).then_some((code, 1))
        }
    };
    // An aligned pair read as `flat::sbase64` / `smem::sgpr64` read it (NULL: not read).
    let spair = |code: u16| -> Option<(u16, u8)> {
        if code == opnd::NULL {
            return Some((0, 0));
        }
        let c = code & !1;
        (plain_sgpr(c) && plain_sgpr(c + 1)).then_some((c, 2))
    };
    // Both halves (wave32 reads only EXEC_LO: a harmless superset).
    let exec = (opnd::EXEC_LO, 2);
    let name = inst.op.name();
    let dwords = |suffix: &str| -> Option<u8> {
        Some(match suffix {
            "b32" | "b8" | "u8" | "i8" | "u16" | "i16" | "b16" | "u32" | "i32" | "f32" => 1,
            "b64" | "u64" | "i64" | "f64" => 2,
            "b96" => 3,
            "b128" => 4,
            _ => return None,
        })
    };
    match inst.enc {
        Enc::Sopp
            if matches!(
                inst.op,
                S_WAITCNT
                    | S_WAITCNT_DEPCTR
                    | S_WAIT_IDLE
                    | S_NOP
                    | S_CLAUSE
                    | S_DELAY_ALU
                    | S_ENDPGM
            ) =>
        {
            Some(Footprint::default())
        }
        // STATUS, the counters and (GS_ALLOC_REQ, HS_TESSFACTOR) the wave's message record
        // with M0's value (`sopp::record_message`): M0 the one register read.
        Enc::Sopp if inst.op == S_SENDMSG => Some(Footprint {
            sread: [(opnd::M0, 1), (0, 0), (0, 0)],
            ..Footprint::default()
        }),
        Enc::Smem => {
            let n: u8 = match name.strip_prefix("s_load_b")? {
                "32" => 1,
                "64" => 2,
                "128" => 4,
                "256" => 8,
                "512" => 16,
                _ => return None,
            };
            // `smem::write_sdata`: the destination aligned to 2 or 4 registers, all of them
            // plain SGPRs here.
            let d = match n {
                1 => inst.dst[0],
                2 => inst.dst[0] & !1,
                _ => inst.dst[0] & !3,
            };
            if d as usize + n as usize > opnd::VCC_LO as usize {
                return None;
            }
            Some(Footprint {
                sread: [spair(inst.src[0])?, sreg(inst.src[1])?, (0, 0)],
                swrite: (d, n),
                ..Footprint::default()
            })
        }
        Enc::Global | Enc::Flat => {
            // The vaddr pair (or one row with saddr; the pair is a harmless superset), saddr and
            // EXEC are read by every GLOBAL instruction handled here. FLAT (no saddr): where an
            // address falls in the LDS or private aperture the handler uses LDS or the wave's
            // scratch, which are no registers.
            let flat = inst.enc == Enc::Flat;
            let wide = flat || inst.src[2] == opnd::NULL;
            let vaddr = vrows(inst.src[0], if wide { 2 } else { 1 })?;
            let sread = if flat {
                [exec, (0, 0), (0, 0)]
            } else {
                [spair(inst.src[2])?, exec, (0, 0)]
            };
            let seg = if flat { "flat_" } else { "global_" };
            let form = name.strip_prefix(seg)?;
            if let Some(rest) = form.strip_prefix("load_") {
                // Not the addtid or LDS forms (other operands, M0 and LDS).
                let n = match rest.strip_prefix("d16_") {
                    Some(r) => dwords(r.strip_prefix("hi_").unwrap_or(r))?.min(1),
                    None => dwords(rest)?,
                };
                return Some(Footprint {
                    sread,
                    vread: [vaddr, (0, 0), (0, 0)],
                    vwrite: vrows(inst.dst[0], n)?,
                    ..Footprint::default()
                });
            }
            if let Some(rest) = form.strip_prefix("store_") {
                let n = match rest.strip_prefix("d16_hi_") {
                    Some(r) => dwords(r)?.min(1),
                    None => dwords(rest)?,
                };
                return Some(Footprint {
                    sread,
                    vread: [vaddr, vrows(inst.src[1], n)?, (0, 0)],
                    ..Footprint::default()
                });
            }
            if !flat && form.starts_with("atomic_") {
                // Data: up to a 64-bit compare-swap's two pairs; the returned value: up to one
                // pair, when the instruction returns (GLC) to a VGPR destination.
                let data = vrows(
                    inst.src[1],
                    if name.ends_with("cmpswap_b64") { 4 } else { 2 },
                )?;
                let vwrite = if opnd::is_vgpr(inst.dst[0]) {
                    vrows(inst.dst[0], 2)?
                } else {
                    (0, 0)
                };
                return Some(Footprint {
                    sread,
                    vread: [vaddr, data, (0, 0)],
                    vwrite,
                    ..Footprint::default()
                });
            }
            None
        }
        Enc::Mubuf | Enc::Mtbuf => {
            // `exec::buffer`: vaddr (index and/or offset rows), vdata (src[1], also the
            // destination), the V# (src[2], four SGPRs), soffset (src[3]) and EXEC.
            let f = inst.op.facts();
            if f.lds {
                return None;
            }
            if f.mem == MemKind::Cache {
                return Some(Footprint::default());
            }
            let srsrc = inst.src[2];
            if !(plain_sgpr(srsrc) && plain_sgpr(srsrc + 3)) {
                return None;
            }
            let soff = match inst.src[3] {
                c if plain_sgpr(c) => (c, 1),
                opnd::NULL | 128..=208 | 240..=248 | opnd::LITERAL => (0, 0),
                _ => return None,
            };
            let naddr =
                (inst.flags & iflags::IDXEN != 0) as u8 + (inst.flags & iflags::OFFEN != 0) as u8;
            let vaddr = if naddr == 0 {
                (0, 0)
            } else {
                vrows(inst.src[0], naddr)?
            };
            let tfe = (inst.flags & iflags::TFE != 0) as u8;
            // Data VGPRs: one per dword (sub-dword forms: one), format ops one per component
            // (two 16-bit components per VGPR for d16), atomics up to a 64-bit cmpswap's four.
            let regs = if f.comps > 0 {
                if f.d16 != D16::None {
                    f.comps.div_ceil(2)
                } else {
                    f.comps
                }
            } else {
                f.bytes.div_ceil(4).max(1)
            };
            let sread = [(srsrc, 4), soff, exec];
            match f.mem {
                MemKind::Load => Some(Footprint {
                    sread,
                    vread: [vaddr, (0, 0), (0, 0)],
                    vwrite: vrows(inst.dst[0], regs + tfe)?,
                    ..Footprint::default()
                }),
                MemKind::Store => Some(Footprint {
                    sread,
                    vread: [vaddr, vrows(inst.src[1], regs)?, (0, 0)],
                    ..Footprint::default()
                }),
                MemKind::Atomic => {
                    let data = if name.ends_with("cmpswap_b64") { 4 } else { 2 };
                    let vwrite = if inst.flags & iflags::GLC != 0 {
                        vrows(inst.src[1], 2)?
                    } else {
                        (0, 0)
                    };
                    Some(Footprint {
                        sread,
                        vread: [vaddr, vrows(inst.src[1], data)?, (0, 0)],
                        vwrite,
                        ..Footprint::default()
                    })
                }
                _ => None,
            }
        }
        Enc::Ds => {
            // `exec::lds`: address row src[0], data rows src[1] and src[2] (2addr, cmpstore),
            // destination dst[0]; not the forms that read M0 or other lanes, nor GWS/BVH.
            if [
                "addtid", "append", "consume", "gws", "bvh", "swizzle", "permute", "nop",
            ]
            .iter()
            .any(|k| name.contains(k))
            {
                return None;
            }
            let dw = dwords(name.rsplit('_').next()?)?;
            let data = |code: u16| -> Option<(u16, u8)> {
                if opnd::is_vgpr(code) {
                    vrows(code, dw)
                } else {
                    Some((0, 0))
                }
            };
            let out = if name.contains("2addr") { 2 * dw } else { dw };
            let vwrite = if opnd::is_vgpr(inst.dst[0]) {
                vrows(inst.dst[0], out)?
            } else {
                (0, 0)
            };
            Some(Footprint {
                sread: [exec, (0, 0), (0, 0)],
                vread: [
                    vrows(inst.src[0], 1)?,
                    data(inst.src[1])?,
                    data(inst.src[2])?,
                ],
                vwrite,
                ..Footprint::default()
            })
        }
        _ => None,
    }
}

/// Region-cache slots (`cache::RegionCache`). Each instruction that uses one gets the slot of
/// its rank among the program's region users (`region_slots`), modulo `SLOTS`: a kernel with up
/// to `SLOTS` of them (saxpy's s_loads, two loads and a store) gives each its own, so waves do
/// not evict each other's regions. (Instruction index mod `SLOTS` made saxpy's kernarg s_loads
/// and its buffer loads share slots: every wave missed, 9% of the run in `region_lookup`.)
pub(crate) const SLOTS: usize = 8;

/// The region-cache slot of every instruction of `insts` (see [`SLOTS`]): the rank of the
/// instruction among the scalar, GLOBAL and FLAT memory instructions before it, modulo `SLOTS`
/// (instructions that use no region get the slot their rank gives too; they never read it).
pub(crate) fn region_slots(insts: &[Inst]) -> Vec<u8> {
    let mut rank = 0usize;
    insts
        .iter()
        .map(|i| {
            let slot = (rank % SLOTS) as u8;
            if matches!(i.enc, Enc::Smem | Enc::Global | Enc::Flat | Enc::Mubuf) {
                rank += 1;
            }
            slot
        })
        .collect()
}

/// The fast-path form of GLOBAL or DS instruction `idx` (see [`MemOp`]): the dword loads and
/// stores (GLOBAL `*_b32` to `*_b128`, DS `*_b32`, `*_b64`, `*_b128` and the 2addr b32/b64
/// forms) whose registers are all in range (`fp`, the handler's footprint, exists), without
/// GDS. `slot`: its region-cache slot ([`region_slots`]).
pub(crate) fn mem_op(inst: &Inst, slot: u8, s: &Shape) -> Option<MemOp> {
    footprint(inst, s)?;
    let name = inst.op.name();
    let dw = |suffix: &str| -> Option<u8> {
        Some(match suffix {
            "b32" => 1,
            "b64" => 2,
            "b96" => 3,
            "b128" => 4,
            _ => return None,
        })
    };
    let row = |code: u16| code.checked_sub(opnd::VGPR0);
    match inst.enc {
        Enc::Global | Enc::Flat => {
            let flat = inst.enc == Enc::Flat;
            let (load, store) = if flat {
                ("flat_load_", "flat_store_")
            } else {
                ("global_load_", "global_store_")
            };
            // (The decoder refuses FLAT with an SADDR.)
            let saddr = if flat { opnd::NULL } else { inst.src[2] };
            let f = inst.op.facts();
            if !flat && f.mem == MemKind::Atomic {
                // {src, cmp} from the data rows, the old value to vdst (GLC).
                let data = row(inst.src[1])?;
                let rtn = inst.flags & iflags::GLC != 0;
                return Some(MemOp {
                    dwords: f.bytes / 4,
                    size: f.bytes,
                    addr: row(inst.src[0])?,
                    saddr: if saddr == opnd::NULL {
                        saddr
                    } else {
                        saddr & !1
                    },
                    data,
                    imm: inst.imm as i64,
                    rmw: Some(Rmw {
                        op: rmw_op(inst.op)?,
                        rtn,
                        dst: if rtn { row(inst.dst[0])? } else { 0 },
                        cmp: data + f.bytes as u16 / 4,
                    }),
                    ..MemOp::plain(slot)
                });
            }
            let (store, rest) = match name.strip_prefix(load) {
                Some(r) => (false, r),
                None => (true, name.strip_prefix(store)?),
            };
            // Whole dwords, or one byte or half (the ISA table's facts: size, sign, d16 half).
            let (dwords, size) = match dw(rest) {
                Some(d) => (d, 4 * d),
                None if matches!(f.bytes, 1 | 2) && f.atomic.is_none() => (1, f.bytes),
                None => return None,
            };
            Some(MemOp {
                store,
                flat,
                dwords,
                size,
                sext: size < 4 && f.sext,
                d16: if size < 4 { f.d16 } else { D16::None },
                addr: row(inst.src[0])?,
                saddr: if saddr == opnd::NULL {
                    saddr
                } else {
                    saddr & !1
                },
                data: row(if store { inst.src[1] } else { inst.dst[0] })?,
                // FLAT: the offset's bit 12 is ignored (`exec::flat::targets`).
                imm: if flat {
                    (inst.imm & 0xfff) as i64
                } else {
                    inst.imm as i64
                },
                ..MemOp::plain(slot)
            })
        }
        Enc::Mubuf if inst.flags & iflags::TFE == 0 => {
            // The plain (non-format, non-atomic) loads and stores: whole dwords, bytes and
            // halves with their sign and d16 half (the ISA table's facts, as
            // `exec::buffer::handler` chooses Ld/St).
            let f = inst.op.facts();
            let (store, rmw) = match f.mem {
                MemKind::Load => (false, None),
                MemKind::Store => (true, None),
                MemKind::Atomic => {
                    // {src, cmp} in vdata, the old value back to vdata (GLC).
                    let d = row(inst.src[1])?;
                    let rmw = Rmw {
                        op: rmw_op(inst.op)?,
                        rtn: inst.flags & iflags::GLC != 0,
                        dst: d,
                        cmp: d + f.bytes as u16 / 4,
                    };
                    (false, Some(rmw))
                }
                _ => return None,
            };
            if f.comps > 0 || f.lds || (rmw.is_none() && f.atomic.is_some()) {
                return None;
            }
            let (dwords, size) = match f.bytes {
                1 | 2 => (1, f.bytes),
                4 | 8 | 12 | 16 => (f.bytes / 4, f.bytes),
                _ => return None,
            };
            let soff = match inst.src[3] {
                opnd::NULL => Src::Const(0),
                c if plain_sgpr(c) => Src::Sgpr(c),
                c => Src::Const(constant(inst, c, Ty::U32) as u32),
            };
            Some(MemOp {
                store,
                dwords,
                size,
                sext: size < 4 && f.sext,
                d16: if size < 4 { f.d16 } else { D16::None },
                addr: row(inst.src[0])?,
                data: row(inst.src[1])?,
                imm: (inst.imm & 0xfff) as i64,
                buf: Some(BufAddr {
                    srsrc: inst.src[2],
                    soff,
                    idxen: inst.flags & iflags::IDXEN != 0,
                    offen: inst.flags & iflags::OFFEN != 0,
                }),
                rmw,
                ..MemOp::plain(slot)
            })
        }
        Enc::Ds
            if inst.flags & iflags::GDS == 0
                && matches!(
                    inst.op.facts().mem,
                    MemKind::AtomicRtn | MemKind::AtomicNoRtn
                ) =>
        {
            // `exec::lds::ds_atomic` (not the forms `exec::lds::handler` gives other
            // handlers): src = data0, cmp = data1, the old value to vdst for `_rtn_`.
            if inst.op == Op::DS_CONDXCHG32_RTN_B64 {
                return None;
            }
            let f = inst.op.facts();
            let rtn = f.mem == MemKind::AtomicRtn;
            let data = row(inst.src[1])?;
            Some(MemOp {
                lds: true,
                dwords: f.bytes / 4,
                size: f.bytes,
                addr: row(inst.src[0])?,
                data,
                imm: (inst.imm & 0xffff) as i64,
                rmw: Some(Rmw {
                    op: rmw_op(inst.op)?,
                    rtn,
                    dst: if rtn { row(inst.dst[0])? } else { 0 },
                    cmp: if matches!(f.atomic, Some(AtomicOp::CmpSwap)) {
                        row(inst.src[2])?
                    } else {
                        0
                    },
                }),
                ..MemOp::plain(slot)
            })
        }
        Enc::Ds if inst.flags & iflags::GDS == 0 => {
            let (store, rest) = match name.strip_prefix("ds_load_") {
                Some(r) => (false, r),
                None => (true, name.strip_prefix("ds_store_")?),
            };
            // `exec::lds`: offset = {offset1, offset0}; the 2addr forms scale each 8-bit
            // offset by the element size (and 64 for stride64).
            let (dwords, off0, off1) = match rest.strip_prefix("2addr_") {
                Some(r) => {
                    let (stride, r) = match r.strip_prefix("stride64_") {
                        Some(r) => (64, r),
                        None => (1, r),
                    };
                    let d = dw(r).filter(|&d| d <= 2)?;
                    let e = 4 * d as u32 * stride;
                    (
                        d,
                        (inst.imm & 0xff) as u32 * e,
                        Some((inst.imm >> 8 & 0xff) as u32 * e),
                    )
                }
                None => (
                    dw(rest).filter(|&d| d != 3)?,
                    (inst.imm & 0xffff) as u32,
                    None,
                ),
            };
            let data = if store { inst.src[1] } else { inst.dst[0] };
            Some(MemOp {
                store,
                lds: true,
                dwords,
                size: 4 * dwords,
                addr: row(inst.src[0])?,
                data: row(data)?,
                data1: if store && off1.is_some() {
                    row(inst.src[2])?
                } else {
                    0
                },
                imm: off0 as i64,
                off1,
                ..MemOp::plain(slot)
            })
        }
        _ => None,
    }
}

/// The fast-path form of `s_load_b*` instruction `idx` (see [`Node::SLoad`]): a plain SGPR
/// base pair, a plain (or NULL) SGPR offset, a destination of plain SGPRs, using region-cache
/// slot `slot` ([`region_slots`]).
pub(crate) fn sload(inst: &Inst, idx: usize, slot: u8, s: &Shape) -> Option<Node> {
    let fp = footprint(inst, s)?;
    if inst.enc != Enc::Smem || !inst.op.name().starts_with("s_load_b") {
        return None;
    }
    let (dst, n) = fp.swrite;
    let sbase = inst.src[0] & !1;
    if n == 0 || inst.src[0] == opnd::NULL || !plain_sgpr(sbase) || !plain_sgpr(sbase + 1) {
        return None;
    }
    let soff = if inst.src[1] == opnd::NULL {
        Src::Const(0)
    } else {
        Src::Sgpr(inst.src[1])
    };
    Some(Node::SLoad {
        idx: idx as u32,
        fp,
        sbase,
        soff,
        imm: inst.imm as i64,
        dst,
        n,
        slot,
    })
}

/// What the compiler needs to know about the launch to validate operands.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Shape {
    pub wave64: bool,
    pub num_vgprs: u16,
    /// The host has a fused multiply-add the code generator can use for vectors.
    pub host_fma: bool,
    /// MODE's float controls at launch: f32 and f64 code is compiled for these (the host FPU
    /// with the denormal flushing they ask for, `FpCtl::host_flush`) when they round to
    /// nearest even without exception detection; otherwise those instructions run through
    /// their handlers.
    pub fp: FpMode,
}

impl Shape {
    /// The (flush inputs, flush outputs) of f32 code, when it is compiled.
    pub(crate) fn ftz32(&self) -> Option<(bool, bool)> {
        self.fp.f32.host_flush()
    }

    /// The (flush inputs, flush outputs) of f64 code, when it is compiled.
    pub(crate) fn ftz64(&self) -> Option<(bool, bool)> {
        self.fp.f64.host_flush()
    }
}

/// Reads a constant operand exactly as the interpreter does (`operand::read_scalar` does not
/// look at the wave for constants and literals).
fn constant(inst: &Inst, code: u16, ty: Ty) -> u64 {
    thread_local! {
        static SCRATCH: Wave = Wave::new(false, 1);
    }
    SCRATCH.with(|w| read_scalar(w, inst, code, ty))
}

/// A scalar register code the compiled code may read directly: SGPRs, VCC, M0, EXEC.
fn plain_sgpr(code: u16) -> bool {
    matches!(code, 0..=107 | 125..=127)
}

fn scalar32(inst: &Inst, code: u16) -> Option<Src> {
    match code {
        c if plain_sgpr(c) => Some(Src::Sgpr(c)),
        opnd::NULL => Some(Src::Const(0)),
        128..=208 | 240..=248 | opnd::LITERAL => {
            Some(Src::Const(constant(inst, code, Ty::B32) as u32))
        }
        _ => None,
    }
}

/// 32-bit VALU / SALU source `k`.
fn src(inst: &Inst, k: usize, s: &Shape) -> Option<Src> {
    let code = inst.src[k];
    if opnd::is_vgpr(code) {
        let r = code - opnd::VGPR0;
        return (r < s.num_vgprs).then_some(Src::Vgpr(r));
    }
    scalar32(inst, code)
}

/// 64-bit scalar source at `code` read with `operand::read_scalar64` (pair aligned) or, with
/// `aligned` false, `operand::read_scalar` (lane masks of wave64).
fn src64(inst: &Inst, code: u16, ty: Ty, aligned: bool) -> Option<Src64> {
    if code < 128 {
        let lo = if aligned { code & !1 } else { code };
        let reg = |c: u16| match c {
            c if plain_sgpr(c) => Some(Src::Sgpr(c)),
            opnd::NULL => Some(Src::Const(0)),
            _ => None,
        };
        return Some(Src64::Pair(reg(lo)?, reg(lo + 1)?));
    }
    match code {
        128..=208 | 240..=248 | opnd::LITERAL => Some(Src64::Const(constant(inst, code, ty))),
        _ => None,
    }
}

/// The first row of a VGPR pair whose both rows are in range (an out-of-range pair reads v0 or
/// makes the write a NOP in the interpreter: left to it).
fn vpair(code: u16, s: &Shape) -> Option<u16> {
    let r = code.checked_sub(opnd::VGPR0)?;
    (opnd::is_vgpr(code) && r + 1 < s.num_vgprs).then_some(r)
}

/// 64-bit VALU source `k` typed f64.
fn vsrc64(inst: &Inst, k: usize, s: &Shape) -> Option<VSrc64> {
    vsrc64_typed(inst, k, s, Ty::F64)
}

/// 64-bit VALU source `k` read as type `ty` (inline constants and literals depend on it).
fn vsrc64_typed(inst: &Inst, k: usize, s: &Shape, ty: Ty) -> Option<VSrc64> {
    let code = inst.src[k];
    if opnd::is_vgpr(code) {
        return Some(VSrc64::Vgpr(vpair(code, s)?));
    }
    Some(VSrc64::Scalar(src64(inst, code, ty, true)?))
}

/// A VGPR destination in range (out-of-range ones make the instruction a NOP: interpreted).
fn vdst(inst: &Inst, s: &Shape) -> Option<u16> {
    let code = inst.dst[0];
    if !opnd::is_vgpr(code) {
        return None;
    }
    let r = code - opnd::VGPR0;
    (r < s.num_vgprs).then_some(r)
}

/// A 32-bit scalar destination whose write `operand::write_sgpr` performs (or drops, NULL)
/// and reports as done, so SCC updates: anything but a TTMP.
fn sdst(code: u16) -> Option<u16> {
    (plain_sgpr(code) || code == opnd::NULL).then_some(code)
}

/// A 64-bit scalar destination: no TTMP in the aligned pair (`operand::write_sgpr64`).
fn sdst64(code: u16) -> Option<u16> {
    if code == opnd::NULL {
        return Some(code);
    }
    let c = code & !1;
    (c < 128 && (plain_sgpr(c) || c == opnd::NULL) && plain_sgpr(c + 1)).then_some(code)
}

/// A lane-mask destination (`operand::write_mask`).
fn mask_dst(code: u16, s: &Shape) -> Option<u16> {
    if s.wave64 {
        sdst64(code)
    } else {
        sdst(code)
    }
}

/// A lane-mask source operand (`operand::read_mask`: one scalar in wave32, an unaligned pair in
/// wave64).
fn mask_src(inst: &Inst, code: u16, s: &Shape) -> Option<MaskSrc> {
    Some(if s.wave64 {
        match src64(inst, code, Ty::B64, false)? {
            Src64::Pair(lo, hi) => MaskSrc::Regs(lo, hi),
            Src64::Const(v) => MaskSrc::Const(v),
        }
    } else {
        match scalar32(inst, code)? {
            Src::Const(v) => MaskSrc::Const(v as u64),
            r => MaskSrc::Regs(r, Src::Const(0)),
        }
    })
}

fn no_modifiers(inst: &Inst) -> bool {
    inst.abs == 0
        && inst.neg == 0
        && inst.neg_hi == 0
        && inst.op_sel == 0
        && inst.op_sel_hi == 0
        && !inst.clamp
        && inst.omod == 0
        && inst.dpp == Dpp::None
        && inst.flags & iflags::LLVM_REJECTS == 0
}

/// `v_cmpx_REST` / `v_cmp_REST`: (writes EXEC, REST).
fn vcmp_name(name: &str) -> Option<(bool, &str)> {
    match name.strip_prefix("v_cmpx_") {
        Some(r) => Some((true, r)),
        None => Some((false, name.strip_prefix("v_cmp_")?)),
    }
}

/// Where a compare's mask goes: EXEC (v_cmpx), the e64 SDST, or VCC (e32).
fn vcmp_dst(inst: &Inst, x: bool, s: &Shape) -> Option<MaskDst> {
    Some(if x {
        MaskDst::Exec
    } else if inst.enc == Enc::Vop3 {
        MaskDst::Sgpr(mask_dst(inst.dst[1], s)?)
    } else if inst.enc == Enc::Vopc {
        MaskDst::Sgpr(opnd::VCC_LO)
    } else {
        return None;
    })
}

/// Integer compare `v_cmp[x]_<cond>_{i32,u32}` from the op name (the VOPC opcode's condition
/// and type, as `exec::vcmp` reads them).
fn vcmp_of(name: &str) -> Option<(Cond, bool, bool)> {
    let (x, rest) = vcmp_name(name)?;
    let (cond, ty) = rest.split_once('_')?;
    let signed = match ty {
        "i32" => true,
        "u32" => false,
        _ => return None,
    };
    Some((cond_of(cond)?, signed, x))
}

fn cond_of(c: &str) -> Option<Cond> {
    Some(match c {
        "f" => Cond::F,
        "lt" => Cond::Lt,
        "eq" => Cond::Eq,
        "le" => Cond::Le,
        "gt" => Cond::Gt,
        "ne" | "lg" => Cond::Ne,
        "ge" => Cond::Ge,
        "t" => Cond::T,
        _ => return None,
    })
}

/// Float compare `v_cmp[x]_<cond>_f32`: (condition number, writes EXEC).
fn vcmpf_of(name: &str) -> Option<(u8, bool)> {
    let (x, rest) = vcmp_name(name)?;
    let cond = rest.strip_suffix("_f32")?;
    const NAMES: [&str; 16] = [
        "f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq",
        "nlt", "t",
    ];
    let c = NAMES.iter().position(|&n| n == cond)?;
    Some((c as u8, x))
}

fn dual_op(op: Op) -> Option<DualOp> {
    use Op::*;
    Some(match op {
        V_FMAC_F32 => DualOp::Fmac,
        V_FMAAK_F32 => DualOp::Fmaak,
        V_FMAMK_F32 => DualOp::Fmamk,
        V_MUL_F32 => DualOp::Mul,
        V_ADD_F32 => DualOp::Add,
        V_SUB_F32 => DualOp::Sub,
        V_SUBREV_F32 => DualOp::SubRev,
        V_MOV_B32 => DualOp::Mov,
        V_CNDMASK_B32 => DualOp::Cnd,
        V_ADD_NC_U32 => DualOp::AddNc,
        V_LSHLREV_B32 => DualOp::LshlRev,
        V_AND_B32 => DualOp::And,
        _ => return None,
    })
}

/// VOPD (`exec::vopd::exec`): skipped in wave64; in wave32 compiled when both components are
/// ops above, every VGPR is in range (the handler's out-of-range rules stay interpreted) and the
/// fused multiply-adds have a host FMA.
fn lower_dual(inst: &Inst, s: &Shape) -> Option<Node> {
    if s.wave64 {
        // RDNA3 ISA 7.6: VOPD "is skipped for wave64".
        return Some(Node::Nop);
    }
    let half = |op: Op, d: usize, k: usize| -> Option<Half> {
        let op = dual_op(op)?;
        if matches!(op, DualOp::Fmac | DualOp::Fmaak | DualOp::Fmamk) && !s.host_fma {
            return None;
        }
        let code = inst.dst[d];
        let dst = (opnd::is_vgpr(code) && code - opnd::VGPR0 < s.num_vgprs)
            .then_some(code - opnd::VGPR0)?;
        Some(Half {
            op,
            dst,
            a: src(inst, k, s)?,
            b: src(inst, k + 1, s)?,
        })
    };
    Some(Node::Dual {
        x: half(inst.op, 0, 0)?,
        y: half(inst.op_y, 1, 2)?,
        k: inst.lit,
    })
}

/// v_add_f64, v_mul_f64, v_fma_f64, v_min_f64, v_max_f64 and v_ldexp_f64 by a constant (VOP3
/// only on gfx11), with abs/neg source modifiers (the interpreter's exact path for modified
/// sources is the same operation on the modified values) but no clamp, omod or op_sel.
fn lower_f64(inst: &Inst, s: &Shape) -> Option<Node> {
    use Op::*;
    let plain = inst.neg_hi == 0
        && inst.op_sel == 0
        && inst.op_sel_hi == 0
        && !inst.clamp
        && inst.omod == 0
        && inst.dpp == Dpp::None
        && inst.flags & iflags::LLVM_REJECTS == 0;
    if !plain || inst.enc != Enc::Vop3 || (inst.op == V_FMA_F64 && !s.host_fma) {
        return None;
    }
    let a = vsrc64(inst, 0, s)?;
    let dst = vpair(inst.dst[0], s)?;
    let (abs, neg) = (inst.abs & 7, inst.neg & 7);
    if inst.op == V_LDEXP_F64 {
        // soft::ldexp rounds x * 2^n once, keeps inf and zero and quiets a NaN: exactly a
        // multiplication by 2^n while 2^n is a normal f64 (n in -1022..=1023).
        let Src::Const(n) = src(inst, 1, s)? else {
            return None;
        };
        let n = n as i32;
        if !(-1022..=1023).contains(&n) || (abs | neg) & 6 != 0 {
            return None;
        }
        let b = VSrc64::Scalar(Src64::Const(((n + 1023) as u64) << 52));
        return Some(Node::F64 {
            op: F64Op::Mul,
            dst,
            a,
            b,
            c: b,
            abs,
            neg,
        });
    }
    let b = vsrc64(inst, 1, s)?;
    let (op, c) = match inst.op {
        V_ADD_F64 => (F64Op::Add, b),
        V_MUL_F64 => (F64Op::Mul, b),
        V_FMA_F64 => (F64Op::Fma, vsrc64(inst, 2, s)?),
        V_MIN_F64 => (F64Op::Min, b),
        V_MAX_F64 => (F64Op::Max, b),
        _ => return None,
    };
    Some(Node::F64 {
        op,
        dst,
        a,
        b,
        c,
        abs,
        neg,
    })
}

/// s_cmp_<cond>_{i32,u32} and s_cmpk_<cond>_{i32,u32}.
fn scmp_of(name: &str) -> Option<(Cond, bool, bool)> {
    let (k, rest) = if let Some(r) = name.strip_prefix("s_cmpk_") {
        (true, r)
    } else {
        (false, name.strip_prefix("s_cmp_")?)
    };
    let (cond, ty) = rest.split_once('_')?;
    let signed = match ty {
        "i32" => true,
        "u32" => false,
        _ => return None,
    };
    let c = cond_of(cond)?;
    if matches!(c, Cond::F | Cond::T) {
        return None;
    }
    Some((c, signed, k))
}

/// The compiled form of `inst` (at byte address `pc`), or None when the interpreter must run
/// it. `target_index` maps a branch target address to an instruction index of the same code.
pub(crate) fn lower(
    inst: &Inst,
    pc: u64,
    s: &Shape,
    target_index: &dyn Fn(u64) -> Option<usize>,
) -> Option<Node> {
    let n = lower_any_mode(inst, pc, s, target_index)?;
    // Float code only for a MODE the host FPU computes (with flushing as MODE asks).
    if (n.needs_f32() && s.ftz32().is_none()) || (n.needs_f64() && s.ftz64().is_none()) {
        return None;
    }
    Some(n)
}

/// `lower` before the MODE check.
fn lower_any_mode(
    inst: &Inst,
    pc: u64,
    s: &Shape,
    target_index: &dyn Fn(u64) -> Option<usize>,
) -> Option<Node> {
    use Op::*;
    if matches!(
        inst.op,
        V_ADD_F64 | V_MUL_F64 | V_FMA_F64 | V_LDEXP_F64 | V_MIN_F64 | V_MAX_F64
    ) {
        return lower_f64(inst, s);
    }
    if inst.enc == Enc::Invalid || !no_modifiers(inst) {
        return None;
    }
    if inst.enc == Enc::Vopd {
        return lower_dual(inst, s);
    }
    let valu = matches!(
        inst.enc,
        Enc::Vop1 | Enc::Vop2 | Enc::Vop3 | Enc::Vopc | Enc::Vop3sd
    );
    let salu = matches!(inst.enc, Enc::Sop1 | Enc::Sop2 | Enc::Sopk | Enc::Sopc);
    let op = inst.op;
    if valu {
        let v2 = |op: V2| -> Option<Node> {
            Some(Node::V2 {
                op,
                dst: vdst(inst, s)?,
                a: src(inst, 0, s)?,
                b: src(inst, 1, s)?,
            })
        };
        let v3 = |op: V3| -> Option<Node> {
            Some(Node::V3 {
                op,
                dst: vdst(inst, s)?,
                a: src(inst, 0, s)?,
                b: src(inst, 1, s)?,
                c: src(inst, 2, s)?,
            })
        };
        return match op {
            V_MOV_B32 => Some(Node::VMov {
                dst: vdst(inst, s)?,
                a: src(inst, 0, s)?,
            }),
            V_NOT_B32 => Some(Node::VNot {
                dst: vdst(inst, s)?,
                a: src(inst, 0, s)?,
            }),
            V_RCP_F32 | V_RCP_IFLAG_F32 | V_RSQ_F32 | V_SQRT_F32 | V_EXP_F32 | V_LOG_F32
            | V_SIN_F32 | V_COS_F32 => Some(Node::VTrans {
                op: match op {
                    V_RCP_F32 => Trans::Rcp,
                    V_RCP_IFLAG_F32 => Trans::RcpIflag,
                    V_RSQ_F32 => Trans::Rsq,
                    V_SQRT_F32 => Trans::Sqrt,
                    V_EXP_F32 => Trans::Exp,
                    V_LOG_F32 => Trans::Log,
                    V_SIN_F32 => Trans::Sin,
                    _ => Trans::Cos,
                },
                dst: vdst(inst, s)?,
                a: src(inst, 0, s)?,
                a64: VSrc64::Scalar(Src64::Const(0)),
                mode: mode_bits(&s.fp)?,
            }),
            V_RCP_F64 | V_RSQ_F64 | V_SQRT_F64 => Some(Node::VTrans {
                op: match op {
                    V_RCP_F64 => Trans::RcpF64,
                    V_RSQ_F64 => Trans::RsqF64,
                    _ => Trans::SqrtF64,
                },
                dst: vpair(inst.dst[0], s)?,
                a: Src::Const(0),
                a64: vsrc64(inst, 0, s)?,
                mode: mode_bits(&s.fp)?,
            }),
            V_CVT_F32_I32 | V_CVT_F32_U32 | V_CVT_I32_F32 | V_CVT_U32_F32 => Some(Node::VCvt {
                op: match op {
                    V_CVT_F32_I32 => Cvt::F32FromI32,
                    V_CVT_F32_U32 => Cvt::F32FromU32,
                    V_CVT_I32_F32 => Cvt::I32FromF32,
                    _ => Cvt::U32FromF32,
                },
                dst: vdst(inst, s)?,
                a: src(inst, 0, s)?,
            }),
            V_CVT_F64_I32 | V_CVT_F64_U32 | V_CVT_F64_F32 => Some(Node::CvtF64 {
                op: match op {
                    V_CVT_F64_I32 => CvtF64::F64FromI32,
                    V_CVT_F64_U32 => CvtF64::F64FromU32,
                    _ => CvtF64::F64FromF32,
                },
                dst: vpair(inst.dst[0], s)?,
                a32: src(inst, 0, s)?,
                a64: VSrc64::Scalar(Src64::Const(0)),
            }),
            V_CVT_F32_F64 | V_CVT_I32_F64 => Some(Node::CvtF64 {
                op: if op == V_CVT_F32_F64 {
                    CvtF64::F32FromF64
                } else {
                    CvtF64::I32FromF64
                },
                dst: vdst(inst, s)?,
                a32: Src::Const(0),
                a64: vsrc64(inst, 0, s)?,
            }),
            V_ADD_NC_U32 => v2(V2::Add),
            V_SUB_NC_U32 => v2(V2::Sub),
            V_SUBREV_NC_U32 => v2(V2::SubRev),
            V_MUL_LO_U32 => v2(V2::MulLo),
            V_MUL_U32_U24 => v2(V2::MulU24),
            V_MUL_I32_I24 => v2(V2::MulI24),
            V_AND_B32 => v2(V2::And),
            V_OR_B32 => v2(V2::Or),
            V_XOR_B32 => v2(V2::Xor),
            V_XNOR_B32 => v2(V2::Xnor),
            V_LSHLREV_B32 => v2(V2::LshlRev),
            V_LSHRREV_B32 => v2(V2::LshrRev),
            V_ASHRREV_I32 => v2(V2::AshrRev),
            V_MIN_I32 => v2(V2::MinI),
            V_MAX_I32 => v2(V2::MaxI),
            V_MIN_U32 => v2(V2::MinU),
            V_MAX_U32 => v2(V2::MaxU),
            V_ADD_F32 => v2(V2::AddF),
            V_SUB_F32 => v2(V2::SubF),
            V_SUBREV_F32 => v2(V2::SubRevF),
            V_MUL_F32 => v2(V2::MulF),
            V_MIN_F32 => v2(V2::MinF),
            V_MAX_F32 => v2(V2::MaxF),
            V_ADD3_U32 => v3(V3::Add3),
            V_LSHL_ADD_U32 => v3(V3::LshlAdd),
            V_ADD_LSHL_U32 => v3(V3::AddLshl),
            V_LSHL_OR_B32 => v3(V3::LshlOr),
            V_AND_OR_B32 => v3(V3::AndOr),
            V_OR3_B32 => v3(V3::Or3),
            V_XOR3_B32 => v3(V3::Xor3),
            V_BFI_B32 => v3(V3::Bfi),
            V_FMA_F32 if s.host_fma => v3(V3::FmaF),
            V_FMAC_F32 if s.host_fma => Some(Node::Fmac {
                dst: vdst(inst, s)?,
                a: src(inst, 0, s)?,
                b: src(inst, 1, s)?,
            }),
            V_ADD_CO_U32 | V_SUB_CO_U32 | V_SUBREV_CO_U32 | V_ADD_CO_CI_U32 | V_SUB_CO_CI_U32
            | V_SUBREV_CO_CI_U32 => {
                let ci = matches!(op, V_ADD_CO_CI_U32 | V_SUB_CO_CI_U32 | V_SUBREV_CO_CI_U32);
                // exec::vint::carry_dst / carry_in: VOP3SD names an SGPR mask, VOP2 uses VCC.
                let (carry, cin) = match inst.enc {
                    Enc::Vop3sd => (
                        MaskDst::Sgpr(mask_dst(inst.dst[1], s)?),
                        if ci {
                            Some(mask_src(inst, inst.src[2], s)?)
                        } else {
                            None
                        },
                    ),
                    Enc::Vop2 => (MaskDst::Sgpr(opnd::VCC_LO), ci.then_some(MaskSrc::Vcc)),
                    _ => return None,
                };
                Some(Node::VCarry {
                    sub: !matches!(op, V_ADD_CO_U32 | V_ADD_CO_CI_U32),
                    rev: matches!(op, V_SUBREV_CO_U32 | V_SUBREV_CO_CI_U32),
                    dst: vdst(inst, s)?,
                    a: src(inst, 0, s)?,
                    b: src(inst, 1, s)?,
                    cin,
                    carry,
                })
            }
            // No clamp (`no_modifiers`): the sum wraps and bit 64 is the carry.
            V_MAD_U64_U32 if inst.enc == Enc::Vop3sd => Some(Node::Mad64 {
                dst: vpair(inst.dst[0], s)?,
                a: src(inst, 0, s)?,
                b: src(inst, 1, s)?,
                c: vsrc64_typed(inst, 2, s, Ty::U64)?,
                carry: MaskDst::Sgpr(mask_dst(inst.dst[1], s)?),
            }),
            V_LSHLREV_B64 | V_LSHRREV_B64 | V_ASHRREV_I64 => {
                // exec::vint::shift64: both registers of each pair in range (an out-of-range
                // source row reads v0 and an out-of-range destination is a NOP: interpreted).
                let pair = |code: u16| -> Option<u16> {
                    let r = code.checked_sub(opnd::VGPR0)?;
                    (r + 1 < s.num_vgprs).then_some(r)
                };
                let Src::Const(n) = src(inst, 0, s)? else {
                    return None;
                };
                Some(Node::Shift64 {
                    kind: match op {
                        V_LSHLREV_B64 => 0,
                        V_LSHRREV_B64 => 1,
                        _ => 2,
                    },
                    dst: pair(inst.dst[0])?,
                    src: pair(inst.src[1])?,
                    n: n & 63,
                })
            }
            V_ALIGNBIT_B32 => match src(inst, 2, s)? {
                Src::Const(n) => Some(Node::AlignBit {
                    dst: vdst(inst, s)?,
                    a: src(inst, 0, s)?,
                    b: src(inst, 1, s)?,
                    n: n & 31,
                }),
                _ => None,
            },
            V_CNDMASK_B32 => {
                let sel = if inst.enc == Enc::Vop3 {
                    mask_src(inst, inst.src[2], s)?
                } else {
                    MaskSrc::Vcc
                };
                Some(Node::VCnd {
                    dst: vdst(inst, s)?,
                    a: src(inst, 0, s)?,
                    b: src(inst, 1, s)?,
                    sel,
                })
            }
            _ if vcmpf_of(op.name()).is_some() => {
                let (cond, x) = vcmpf_of(op.name())?;
                Some(Node::VCmpF {
                    cond,
                    a: src(inst, 0, s)?,
                    b: src(inst, 1, s)?,
                    dst: vcmp_dst(inst, x, s)?,
                })
            }
            _ => {
                let (cond, signed, x) = vcmp_of(op.name())?;
                Some(Node::VCmp {
                    cond,
                    signed,
                    a: src(inst, 0, s)?,
                    b: src(inst, 1, s)?,
                    dst: vcmp_dst(inst, x, s)?,
                })
            }
        };
    }
    if salu {
        let s2 = |op: S2| -> Option<Node> {
            Some(Node::S2 {
                op,
                dst: sdst(inst.dst[0])?,
                a: scalar32(inst, inst.src[0])?,
                b: scalar32(inst, inst.src[1])?,
            })
        };
        let s64 = |op: S64| -> Option<Node> {
            let b = if op == S64::Mov {
                Src64::Const(0)
            } else {
                src64(inst, inst.src[1], Ty::B64, true)?
            };
            Some(Node::S64 {
                op,
                dst: sdst64(inst.dst[0])?,
                a: src64(inst, inst.src[0], Ty::B64, true)?,
                b,
            })
        };
        let save = |op: Logic, wide: bool| -> Option<Node> {
            let (dst, s) = if wide {
                (
                    sdst64(inst.dst[0])?,
                    src64(inst, inst.src[0], Ty::B64, true)?,
                )
            } else {
                let a = scalar32(inst, inst.src[0])?;
                (sdst(inst.dst[0])?, Src64::Pair(a, Src::Const(0)))
            };
            Some(Node::SaveExec { op, wide, dst, s })
        };
        return match op {
            S_MOV_B32 => Some(Node::SMov {
                dst: sdst(inst.dst[0])?,
                a: scalar32(inst, inst.src[0])?,
            }),
            S_MOVK_I32 => Some(Node::SMov {
                dst: sdst(inst.dst[0])?,
                a: Src::Const(inst.imm as i16 as i32 as u32),
            }),
            S_NOT_B32 => Some(Node::SNot {
                dst: sdst(inst.dst[0])?,
                a: scalar32(inst, inst.src[0])?,
            }),
            S_ADD_U32 => s2(S2::AddU),
            S_SUB_U32 => s2(S2::SubU),
            S_ADD_I32 => s2(S2::AddI),
            S_SUB_I32 => s2(S2::SubI),
            S_ADDC_U32 => s2(S2::AddC),
            S_SUBB_U32 => s2(S2::SubB),
            S_MUL_I32 => s2(S2::Mul),
            S_LSHL_B32 => s2(S2::Lshl),
            S_LSHR_B32 => s2(S2::Lshr),
            S_ASHR_I32 => s2(S2::Ashr),
            S_AND_B32 => s2(S2::Logic(Logic::And)),
            S_OR_B32 => s2(S2::Logic(Logic::Or)),
            S_XOR_B32 => s2(S2::Logic(Logic::Xor)),
            S_NAND_B32 => s2(S2::Logic(Logic::Nand)),
            S_NOR_B32 => s2(S2::Logic(Logic::Nor)),
            S_XNOR_B32 => s2(S2::Logic(Logic::Xnor)),
            S_AND_NOT1_B32 => s2(S2::Logic(Logic::AndNot1)),
            S_OR_NOT1_B32 => s2(S2::Logic(Logic::OrNot1)),
            S_MIN_I32 => s2(S2::MinI),
            S_MAX_I32 => s2(S2::MaxI),
            S_MIN_U32 => s2(S2::MinU),
            S_MAX_U32 => s2(S2::MaxU),
            S_LSHL1_ADD_U32 => s2(S2::LshlAdd(1)),
            S_LSHL2_ADD_U32 => s2(S2::LshlAdd(2)),
            S_LSHL3_ADD_U32 => s2(S2::LshlAdd(3)),
            S_LSHL4_ADD_U32 => s2(S2::LshlAdd(4)),
            S_CSELECT_B32 => s2(S2::Cselect),
            // s_addk_i32: D = D + simm16 with S_ADD_I32's overflow SCC.
            S_ADDK_I32 => Some(Node::S2 {
                op: S2::AddI,
                dst: sdst(inst.dst[0])?,
                a: scalar32(inst, inst.dst[0])?,
                b: Src::Const(inst.imm as i16 as i32 as u32),
            }),
            S_MOV_B64 => s64(S64::Mov),
            S_CSELECT_B64 => s64(S64::Cselect),
            S_AND_B64 => s64(S64::Logic(Logic::And)),
            S_OR_B64 => s64(S64::Logic(Logic::Or)),
            S_XOR_B64 => s64(S64::Logic(Logic::Xor)),
            S_NAND_B64 => s64(S64::Logic(Logic::Nand)),
            S_NOR_B64 => s64(S64::Logic(Logic::Nor)),
            S_XNOR_B64 => s64(S64::Logic(Logic::Xnor)),
            S_AND_NOT1_B64 => s64(S64::Logic(Logic::AndNot1)),
            S_OR_NOT1_B64 => s64(S64::Logic(Logic::OrNot1)),
            S_AND_SAVEEXEC_B32 => save(Logic::And, false),
            S_OR_SAVEEXEC_B32 => save(Logic::Or, false),
            S_XOR_SAVEEXEC_B32 => save(Logic::Xor, false),
            S_NAND_SAVEEXEC_B32 => save(Logic::Nand, false),
            S_NOR_SAVEEXEC_B32 => save(Logic::Nor, false),
            S_XNOR_SAVEEXEC_B32 => save(Logic::Xnor, false),
            S_AND_NOT0_SAVEEXEC_B32 => save(Logic::AndNot0, false),
            S_OR_NOT0_SAVEEXEC_B32 => save(Logic::OrNot0, false),
            S_AND_NOT1_SAVEEXEC_B32 => save(Logic::AndNot1, false),
            S_OR_NOT1_SAVEEXEC_B32 => save(Logic::OrNot1, false),
            S_AND_SAVEEXEC_B64 => save(Logic::And, true),
            S_OR_SAVEEXEC_B64 => save(Logic::Or, true),
            S_XOR_SAVEEXEC_B64 => save(Logic::Xor, true),
            S_NAND_SAVEEXEC_B64 => save(Logic::Nand, true),
            S_NOR_SAVEEXEC_B64 => save(Logic::Nor, true),
            S_XNOR_SAVEEXEC_B64 => save(Logic::Xnor, true),
            S_AND_NOT0_SAVEEXEC_B64 => save(Logic::AndNot0, true),
            S_OR_NOT0_SAVEEXEC_B64 => save(Logic::OrNot0, true),
            S_AND_NOT1_SAVEEXEC_B64 => save(Logic::AndNot1, true),
            S_OR_NOT1_SAVEEXEC_B64 => save(Logic::OrNot1, true),
            S_CMP_EQ_U64 | S_CMP_LG_U64 => Some(Node::SCmp64 {
                ne: op == S_CMP_LG_U64,
                a: src64(inst, inst.src[0], Ty::B64, true)?,
                b: src64(inst, inst.src[1], Ty::B64, true)?,
            }),
            _ => {
                let (cond, signed, k) = scmp_of(op.name())?;
                let b = if k {
                    // SOPK: simm16 sign-extended for _i32, zero-extended for _u32.
                    if signed {
                        Src::Const(inst.imm as i16 as i32 as u32)
                    } else {
                        Src::Const(inst.imm as u32 & 0xffff)
                    }
                } else {
                    scalar32(inst, inst.src[1])?
                };
                Some(Node::SCmp {
                    cond,
                    signed,
                    a: scalar32(inst, inst.src[0])?,
                    b,
                })
            }
        };
    }
    if inst.enc == Enc::Sopp {
        let branch = |cond: Branch| -> Option<Node> {
            // exec::sopp::branch: PC of the next instruction + simm16 * 4, in 48 bits.
            let next = pc.wrapping_add(inst.len as u64);
            let to = next.wrapping_add((inst.imm as i16 as i64 * 4) as u64) & ((1 << 48) - 1);
            Some(Node::Branch {
                cond,
                target: target_index(to)?,
                side: false,
            })
        };
        return match op {
            S_NOP | S_CLAUSE | S_DELAY_ALU | S_SET_INST_PREFETCH_DISTANCE => Some(Node::Nop),
            // `exec::sopp`: vmcnt [15:10], lgkmcnt [9:4], expcnt [2:0] of SIMM16.
            S_WAITCNT => {
                let v = inst.imm as u32 & 0xffff;
                Some(Node::WaitCnt {
                    vm: (v >> 10 & 0x3f) as u8,
                    lgkm: (v >> 4 & 0x3f) as u8,
                    exp: (v & 7) as u8,
                })
            }
            // `exec::sopp`: S_SENDMSG issues an LGKM count, then DEALLOC_VGPRS sets
            // STATUS.NO_VGPRS; every other message stays the handler's (its errors, the
            // graphics messages recorded on the wave).
            S_SENDMSG if inst.imm as u32 & 0xff == crate::exec::sopp::msg::DEALLOC_VGPRS => {
                Some(Node::DeallocVgprs)
            }
            S_ENDPGM => Some(Node::End),
            S_BRANCH => branch(Branch::Always),
            S_CBRANCH_SCC0 => branch(Branch::Scc0),
            S_CBRANCH_SCC1 => branch(Branch::Scc1),
            S_CBRANCH_VCCZ => branch(Branch::Vccz),
            S_CBRANCH_VCCNZ => branch(Branch::Vccnz),
            S_CBRANCH_EXECZ => branch(Branch::Execz),
            S_CBRANCH_EXECNZ => branch(Branch::Execnz),
            _ => None,
        };
    }
    None
}
