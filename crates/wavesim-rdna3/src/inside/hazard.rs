//! The gfx11 hazard rules of the `hazards` check, per wave, over the instructions in the order
//! the wave issues them.
//!
//! Two kinds of rule, with two severities (see [`Severity`]):
//!
//! 1. **Missing `s_delay_alu` (a stall hint, not a wrong result).** RDNA3 interlocks ALU
//!    dependencies in hardware: an instruction that reads a register a VALU, transcendental or
//!    SALU instruction is still computing waits for it (RDNA3 ISA guide, "Data dependency
//!    resolution"). `s_delay_alu` (RDNA3 ISA guide, "S_DELAY_ALU") only tells the issue logic
//!    in advance, so it can switch to another wave instead of stalling this one. A missing one
//!    costs time, never correctness. The rule is LLVM's `AMDGPUInsertDelayAlu` pass as clang-19
//!    runs it (facts of the pass, our own code):
//!    - every VALU, transcendental (LLVM's `TRANS` flag) and SALU (SOP1/SOP2/SOPK/SOPC/SOPP)
//!      records, for each register its explicit operands *define*, the producer's latency from
//!      LLVM's gfx11 scheduling model ([`latency`]): VALU 5 cycles, 64-bit shifts 6, integer
//!      multiplies 8, transcendentals 10, f64 38 (f64 transcendentals 40), SALU 2;
//!    - after each instruction (s_delay_alu itself excluded: LLVM inserts it after the walk)
//!      every record ages by the instruction's issue cycles (1; `s_nop N`: N + 1) and counts
//!      one more VALU (non-transcendental VALU) or transcendental; a record is dropped once its
//!      latency has passed, after 5 VALUs (VALU_DEP_1..4 are encodable) or 4 transcendentals
//!      (TRANS32_DEP_1..3);
//!    - VMEM, LDS, FLAT, export, `s_sendmsg_rtn` and `s_waitcnt_depctr va_vdst(0)` wait for
//!      every VALU result before issuing (VA_VDST = 0), which drops every record;
//!    - a VALU, transcendental or SALU instruction reading (explicit operands only, as LLVM)
//!      a recorded register consumes the record and needs `s_delay_alu` with
//!      TRANS32_DEP_n (n transcendentals back), VALU_DEP_n (only if that VALU is more recent
//!      than the transcendental, else waiting for the transcendental covers it) and
//!      SALU_CYCLE_n (cycles left, dropped when both other fields are used);
//!    - wave64 issues VALU twice, but LLVM does not double the cycle count (its own TODO in
//!      the pass), so neither does this rule;
//!    - the `s_delay_alu` an instruction gets is instid0 for the next instruction and instid1
//!      for the one `instskip` instructions after it (RDNA3 ISA guide, "S_DELAY_ALU": SAME = 0,
//!      NEXT = 1, SKIP_1 = 2, ...). A delay covers a need when it waits at least as long:
//!      VALU_DEP_j covers VALU_DEP_n for j <= n (the VALU pipeline completes in order),
//!      TRANS32_DEP_j likewise, SALU_CYCLE_j for j >= n.
//!
//!    The rule walks the dynamic trace of one wave, where LLVM merged every path into a block
//!    (the worst case of each field): a need on one path is a need LLVM also saw, so a clang-19
//!    kernel is clean and a removed `s_delay_alu` is found where the run executes it.
//!
//! 2. **Missing wait states (a correctness hazard).** RDNA3 does not interlock these: without
//!    the `s_nop`, `v_nop`, `v_mov` or `s_waitcnt_depctr` the hardware can read a stale value.
//!    The rules are LLVM's `GCNHazardRecognizer` gfx11 fixes (facts, our own code):
//!    - **VALUTransUseHazard** (`fixVALUTransUseHazard`): a VALU reading a VGPR a
//!      transcendental wrote, with at most 5 VALUs and 1 transcendental between, needs
//!      `s_waitcnt_depctr va_vdst(0)` between (or a VMEM/LDS/FLAT/export, which wait for it).
//!    - **VALUPartialForwardingHazard** (wave64, `fixVALUPartialForwardingHazard`): a VALU
//!      reading two VGPRs Va, Vb, where Va was written by a VALU before an SALU wrote EXEC and
//!      Vb by a VALU after it, with at most 2 VALUs between Va's writer and Vb's writer and at
//!      most 4 between Vb's writer and the reader, needs `s_waitcnt_depctr va_vdst(0)`.
//!    - **VALUMaskWriteHazard** (wave64, `fixVALUMaskWriteHazard`): an SALU writing an SGPR
//!      (not EXEC or M0) that an earlier VALU read as its lane mask (v_cndmask, v_add_co_ci,
//!      v_sub_co_ci, v_subrev_co_ci, v_div_fmas), with no VALU between that reads another SGPR
//!      or a literal, must be followed by `s_waitcnt_depctr sa_sdst(0)`.
//!    - **VcmpxPermlaneHazard** (`fixVcmpxPermlaneHazards`): a v_permlane* whose closest
//!      preceding VALU (v_nop does not count) is a v_cmpx writing EXEC needs another VALU
//!      (LLVM inserts `v_mov_b32 vN, vN`) between.
//!    - **WMMA** (`fixWMMAHazards`): a WMMA reading as matrix A or B a register the closest
//!      preceding VALU, itself a WMMA, wrote as D needs a VALU (`v_nop`) between.
//!    - **LdsDirectVALUHazard** (`fixLdsDirectVALUHazard`): an LDS_DIRECT_LOAD /
//!      LDS_PARAM_LOAD whose vdst a VALU read or wrote (WAR/WAW) n VALUs earlier (n < 15, no
//!      VMEM/LDS/FLAT/export between) must have `wait_vdst` <= n, and 0 when a transcendental
//!      is among them.
//!    - **LdsDirectVMEMHazard** (`fixLdsDirectVMEMHazard`): an LDS_DIRECT_LOAD /
//!      LDS_PARAM_LOAD whose vdst a VMEM/LDS/FLAT instruction read or wrote, with no VALU,
//!      export, `s_waitcnt 0` or `s_waitcnt_depctr vm_vsrc(0)` between, needs
//!      `s_waitcnt_depctr vm_vsrc(0)` (gfx11 has no `wait_vsrc` field).
//!
//!    - **DeallocVGPRsNop** (GCNSubtarget `requiresNopBeforeDeallocVGPRs`, true for every
//!      target with the message before gfx1250; SIInsertWaitcnts inserts it): `s_sendmsg
//!      sendmsg(MSG_DEALLOC_VGPRS)` must come right after an `s_nop 0`.
//!
//!    GCNHazardRecognizer's older wait-state rules (VALU SGPR write then v_readlane lane
//!    select, s_setreg then s_getreg, v_div_fmas after a VCC write, DPP after a VGPR write,
//!    SMEM/VMEM after VALU SGPR writes) are skipped for gfx10 and later
//!    (`hasNoDataDepHazard`): RDNA interlocks them, so they are not findings here. The gfx10.1
//!    only rules (VMEMtoScalarWrite, SMEMtoVectorWrite, VcmpxExecWAR, LdsBranchVmemWAR) do not
//!    apply to gfx11.

use super::class::{Class, Family, RegRun};
use crate::decode::{opnd, Enc, Inst};
use crate::isa::Op;
use std::collections::VecDeque;

/// How serious a hazard finding is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Severity {
    /// The hardware may compute a wrong result (a missing wait state the ISA requires).
    Correctness,
    /// The result is right (the hardware interlocks) but the wave stalls where the compiler
    /// should have told the issue logic (a missing `s_delay_alu`).
    Stall,
}

/// LLVM's delay types (`AMDGPUInsertDelayAlu::DelayType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum DelayType {
    Valu,
    Trans,
    Salu,
    Other,
}

fn delay_type(f: Family) -> DelayType {
    match f {
        Family::Trans => DelayType::Trans,
        Family::Valu | Family::Wmma => DelayType::Valu,
        Family::Salu
        | Family::Branch
        | Family::Waitcnt
        | Family::Hint
        | Family::Barrier
        | Family::Message => DelayType::Salu,
        _ => DelayType::Other,
    }
}

const VALU_MAX: u8 = 5;
const TRANS_MAX: u8 = 4;
const SALU_CYCLES_MAX: u8 = 4;

/// What a register's last ALU writer(s) still leave to wait for (`DelayInfo`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Delay {
    valu_cycles: u8,
    valu_num: u8,
    trans_cycles: u8,
    trans_num: u8,
    trans_num_valu: u8,
    salu_cycles: u8,
}

impl Default for Delay {
    fn default() -> Delay {
        Delay {
            valu_cycles: 0,
            valu_num: VALU_MAX,
            trans_cycles: 0,
            trans_num: TRANS_MAX,
            trans_num_valu: VALU_MAX,
            salu_cycles: 0,
        }
    }
}

impl Delay {
    fn new(t: DelayType, cycles: u8) -> Delay {
        let mut d = Delay::default();
        match t {
            DelayType::Valu => {
                d.valu_cycles = cycles;
                d.valu_num = 0;
            }
            DelayType::Trans => {
                d.trans_cycles = cycles;
                d.trans_num = 0;
                d.trans_num_valu = 0;
            }
            DelayType::Salu => d.salu_cycles = cycles.min(SALU_CYCLES_MAX),
            DelayType::Other => {}
        }
        d
    }

    fn merge(&mut self, o: &Delay) {
        self.valu_cycles = self.valu_cycles.max(o.valu_cycles);
        self.valu_num = self.valu_num.min(o.valu_num);
        self.trans_cycles = self.trans_cycles.max(o.trans_cycles);
        self.trans_num = self.trans_num.min(o.trans_num);
        self.trans_num_valu = self.trans_num_valu.min(o.trans_num_valu);
        self.salu_cycles = self.salu_cycles.max(o.salu_cycles);
    }

    /// Ages the record by one instruction of type `t` taking `cycles`; false when nothing is
    /// left to wait for.
    fn advance(&mut self, t: DelayType, cycles: u8) -> bool {
        let mut keep = false;
        self.valu_num = self.valu_num.saturating_add((t == DelayType::Valu) as u8);
        if self.valu_num >= VALU_MAX || self.valu_cycles <= cycles {
            self.valu_num = VALU_MAX;
            self.valu_cycles = 0;
        } else {
            self.valu_cycles -= cycles;
            keep = true;
        }
        self.trans_num = self.trans_num.saturating_add((t == DelayType::Trans) as u8);
        self.trans_num_valu = self
            .trans_num_valu
            .saturating_add((t == DelayType::Valu) as u8);
        if self.trans_num >= TRANS_MAX || self.trans_cycles <= cycles {
            self.trans_num = TRANS_MAX;
            self.trans_num_valu = VALU_MAX;
            self.trans_cycles = 0;
        } else {
            self.trans_cycles -= cycles;
            keep = true;
        }
        if self.salu_cycles <= cycles {
            self.salu_cycles = 0;
        } else {
            self.salu_cycles -= cycles;
            keep = true;
        }
        keep
    }

    /// The s_delay_alu fields LLVM asks for (`emitDelayAlu`): (trans n, valu n, salu cycles),
    /// each 0 when not needed.
    fn needed(&self) -> (u8, u8, u8) {
        let trans = if self.trans_num < TRANS_MAX {
            self.trans_num
        } else {
            0
        };
        let valu = if self.valu_num < VALU_MAX && self.valu_num <= self.trans_num_valu {
            self.valu_num
        } else {
            0
        };
        let salu = if trans != 0 && valu != 0 {
            0
        } else {
            self.salu_cycles
        };
        (trans, valu, salu)
    }
}

/// Latency (cycles) of an ALU instruction's results in LLVM's gfx11 scheduling model
/// (`SISchedule.td`, GFX11SpeedModel, as `llvm-mca-19 -mcpu=gfx1100` reports it for each
/// instruction; `corpus/check/latency.txt` holds its figures for every ALU instruction of the
/// corpus and the `latencies_match_llvm_mca` test in wavesim-rdna3's tests/inside.rs compares).
/// 64-bit compares 6.
pub fn latency(op: Op, f: Family) -> u8 {
    let n = op.name();
    match f {
        Family::Trans => {
            if n.ends_with("_f64") {
                40
            } else {
                10
            }
        }
        Family::Valu | Family::Wmma => {
            let f64_op = n.contains("_f64")
                || n == "v_div_fmas_f64"
                || n == "v_trig_preop_f64"
                || n.starts_with("v_cvt_") && n.contains("f64");
            // Integer 64-bit compares and every 64-bit v_cmpx: Write64Bit (llvm-mca reports
            // the f64 v_cmp, v_cmp_class_f64 included, as WriteDouble, but v_cmpx_*_f64 as 6).
            let cmp64 = (n.starts_with("v_cmp_") && (n.ends_with("_u64") || n.ends_with("_i64")))
                || (n.starts_with("v_cmpx_") && n.ends_with("64"));
            if cmp64 {
                6
            } else if f64_op {
                38
            } else if matches!(
                n,
                "v_mul_lo_u32"
                    | "v_mul_hi_u32"
                    | "v_mul_hi_i32"
                    | "v_mad_u64_u32"
                    | "v_mad_i64_i32"
            ) {
                8
            } else if matches!(
                n,
                "v_lshlrev_b64" | "v_lshrrev_b64" | "v_ashrrev_i64" | "v_lshl_add_u64"
            ) {
                6
            } else {
                5
            }
        }
        // SALU float (gfx1150): WriteSFPU, 4 cycles.
        _ if n.starts_with("s_") && (n.contains("_f32") || n.contains("_f16")) => 4,
        _ => 2,
    }
}

/// Explicit register operands as LLVM's MIR has them: the VCC an e32 (VOP2/VOPC/VOPD) form
/// reads or writes and the EXEC a v_cmpx writes are implicit operands, which
/// AMDGPUInsertDelayAlu does not look at; v_writelane's tied vdst input is skipped.
fn explicit(c: &Class, inst: &Inst) -> (Vec<RegRun>, Vec<RegRun>) {
    let e32 = matches!(inst.enc, Enc::Vop2 | Enc::Vopc | Enc::Vopd);
    let valu = matches!(c.family, Family::Valu | Family::Trans | Family::Wmma);
    let keep = |r: &RegRun, write: bool| -> bool {
        if e32 && r.first == opnd::VCC_LO {
            return false;
        }
        if valu && write && r.first == opnd::EXEC_LO {
            return false;
        }
        true
    };
    let mut reads: Vec<RegRun> = c
        .regs
        .reads
        .iter()
        .filter(|r| keep(r, false))
        .copied()
        .collect();
    if inst.op == Op::V_WRITELANE_B32 {
        let d = inst.dst[0];
        reads.retain(|r| r.first != d);
    }
    // The accumulating forms read their destination as a tied explicit source (src2).
    let n = inst.op.name();
    if n.starts_with("v_fmac_") || n.starts_with("v_dot2acc_") || n.starts_with("v_dot2c_") {
        if let Some(w) = c.regs.writes.first() {
            reads.push(*w);
        }
    }
    let writes = c
        .regs
        .writes
        .iter()
        .filter(|r| keep(r, true))
        .copied()
        .collect();
    (reads, writes)
}

/// Register code -> index into the 384-entry per-register arrays (SGPR codes 0..127, VGPRs
/// 256..511 -> 128..383).
fn unit(code: u16) -> Option<usize> {
    match code {
        0..=127 => Some(code as usize),
        256..=511 => Some(code as usize - 128),
        _ => None,
    }
}

fn overlaps(a: &[RegRun], b: &[RegRun]) -> Option<u16> {
    a.iter()
        .flat_map(|r| r.codes())
        .find(|&c| b.iter().any(|r| r.contains(c)))
}

/// `s_waitcnt_depctr` fields (LLVM's `DepCtr` encoding for gfx11): va_vdst [15:12],
/// va_sdst [11:9], va_ssrc [8], hold_cnt [7], vm_vsrc [4:2], va_vcc [1], sa_sdst [0].
fn depctr_va_vdst(imm: u32) -> u32 {
    imm >> 12 & 0xf
}
fn depctr_vm_vsrc(imm: u32) -> u32 {
    imm >> 2 & 7
}
fn depctr_sa_sdst(imm: u32) -> u32 {
    imm & 1
}

/// What the wait-state rules remember of one issued instruction.
#[derive(Clone, Debug)]
struct Past {
    pc: u64,
    idx: u32,
    valu: bool,
    trans: bool,
    salu: bool,
    wmma: bool,
    /// VMEM, LDS/GDS, FLAT, export: wait for VA_VDST == 0 before issuing.
    vmem_like: bool,
    export: bool,
    depctr: Option<u32>,
    waitcnt_zero: bool,
    v_nop: bool,
    s_nop: bool,
    vcmpx: bool,
    /// Explicit register operands (all VGPR/SGPR).
    reads: Vec<RegRun>,
    writes: Vec<RegRun>,
    /// VALU: SGPRs read as the lane mask (v_cndmask, carry-in, v_div_fmas).
    mask_reads: Vec<RegRun>,
    /// VALU: reads an SGPR (not EXEC) or VCC, or a literal (ends the mask-write hazard).
    reads_sgpr_or_literal: bool,
    writes_exec: bool,
}

/// One hazard the rules found at the current instruction.
#[derive(Clone, Debug)]
pub struct Hit {
    pub severity: Severity,
    /// Rule name as LLVM calls it (or `s_delay_alu`).
    pub rule: &'static str,
    pub reg: u16,
    pub other_pc: u64,
    pub other_idx: u32,
    /// What the ISA / LLVM would have needed, e.g. `s_delay_alu instid0(VALU_DEP_2)`.
    pub needed: String,
}

/// The per-wave state of the hazard rules.
pub(crate) struct HazardState {
    delays: Vec<Option<(Delay, u64, u32)>>,
    /// s_delay_alu fields waiting for the instruction they apply to: (instruction number,
    /// field value 1..11).
    pending: Vec<(u64, u8)>,
    inst_n: u64,
    hist: VecDeque<Past>,
    /// The previous instruction was an SALU write that needs `s_waitcnt_depctr sa_sdst(0)`
    /// next (VALUMaskWriteHazard): its register, PC and index.
    mask_write: Option<(u16, u64, u32)>,
    /// Instructions left in an s_getpc_b64 bundle.
    bundle_left: u8,
    /// Instruction counts at the calls not yet returned from.
    calls: Vec<(u64, Vec<(u64, u8)>)>,
    /// `s_nop 0`s not yet aged in (count, PC of the last one).
    nops: (u32, u64),
}

const HISTORY: usize = 48;

impl HazardState {
    pub(crate) fn new() -> HazardState {
        HazardState {
            delays: vec![None; 384],
            pending: Vec::new(),
            inst_n: 0,
            hist: VecDeque::with_capacity(HISTORY),
            mask_write: None,
            bundle_left: 0,
            calls: Vec::new(),
            nops: (0, 0),
        }
    }

    /// Runs every rule for `inst` (about to issue) and records it. `wave64` enables the
    /// wave64-only rules.
    pub(crate) fn step(
        &mut self,
        inst: &Inst,
        c: &Class,
        pc: u64,
        idx: u32,
        wave64: bool,
    ) -> Vec<Hit> {
        let mut hits = Vec::new();
        let f = c.family;
        let (reads, writes) = explicit(c, inst);
        if inst.op == Op::S_DELAY_ALU {
            // Not counted: LLVM inserts it after its walk.
            let v = inst.imm as u32;
            let (id0, skip, id1) = ((v & 0xf) as u8, v >> 4 & 7, (v >> 7 & 0xf) as u8);
            if id0 != 0 {
                self.pending.push((self.inst_n + 1, id0));
            }
            if id1 != 0 {
                self.pending.push((self.inst_n + 1 + skip as u64, id1));
            }
            return hits;
        }
        if inst.op != Op::S_NOP && self.nops.0 > 0 {
            // A run of `s_nop 0` ending right before a 16-byte aligned instruction is the
            // assembler's block alignment (loop headers), emitted after AMDGPUInsertDelayAlu
            // ran: not part of its count. Any other s_nop 0 takes its cycle.
            let padding = self.nops.1 + 4 == pc && pc.is_multiple_of(16);
            if !padding {
                for _ in 0..self.nops.0 {
                    self.age(DelayType::Salu, 1);
                }
            }
            self.nops = (0, 0);
        }
        self.inst_n += 1;
        let n = self.inst_n;
        let present: Vec<u8> = self
            .pending
            .iter()
            .filter(|p| p.0 == n)
            .map(|p| p.1)
            .collect();
        self.pending.retain(|p| p.0 > n);

        // --- VALUMaskWriteHazard: the instruction after the SALU write.
        if let Some((reg, opc, oidx)) = self.mask_write.take() {
            let ok = inst.op == Op::S_WAITCNT_DEPCTR && depctr_sa_sdst(inst.imm as u32) == 0;
            if !ok {
                hits.push(Hit {
                    severity: Severity::Correctness,
                    rule: "VALUMaskWriteHazard",
                    reg,
                    other_pc: opc,
                    other_idx: oidx,
                    needed: "s_waitcnt_depctr sa_sdst(0) right after the SALU write".into(),
                });
            }
        }

        // --- s_delay_alu (AMDGPUInsertDelayAlu).
        let t = delay_type(f);
        let waits_for_valu = matches!(f, Family::Vmem | Family::Lds | Family::Gds | Family::Export)
            || matches!(inst.op, Op::S_SENDMSG_RTN_B32 | Op::S_SENDMSG_RTN_B64)
            || (inst.op == Op::S_WAITCNT_DEPCTR && depctr_va_vdst(inst.imm as u32) == 0);
        if waits_for_valu {
            self.delays.iter_mut().for_each(|d| *d = None);
        } else if t != DelayType::Other {
            let mut need = Delay::default();
            let mut worst: Option<(u16, u64, u32)> = None;
            for code in reads.iter().flat_map(|r| r.codes()) {
                let Some(u) = unit(code) else { continue };
                if let Some((d, ppc, pidx)) = self.delays[u].take() {
                    need.merge(&d);
                    worst.get_or_insert((code, ppc, pidx));
                }
            }
            let (tn, vn, sc) = need.needed();
            if tn | vn | sc != 0 {
                let has = |lo: u8, hi: u8, ok: &dyn Fn(u8) -> bool| {
                    present.iter().any(|&p| (lo..=hi).contains(&p) && ok(p))
                };
                let trans_ok = tn == 0 || has(5, 7, &|p| p - 4 <= tn);
                let valu_ok = vn == 0 || has(1, 4, &|p| p <= vn);
                let salu_ok = sc == 0 || has(9, 11, &|p| p - 8 >= sc);
                // Inside a bundle LLVM emits no s_delay_alu: s_getpc_b64 with the
                // s_add_u32/s_addc_u32 that add a relocation to it is one (SI_PC_ADD_REL_OFFSET).
                let in_bundle = self.bundle_left > 0;
                let covered = trans_ok && valu_ok && salu_ok;
                if !covered && !in_bundle {
                    let mut fields = Vec::new();
                    if tn != 0 {
                        fields.push(format!("TRANS32_DEP_{tn}"));
                    }
                    if vn != 0 {
                        fields.push(format!("VALU_DEP_{vn}"));
                    }
                    if sc != 0 {
                        fields.push(format!("SALU_CYCLE_{sc}"));
                    }
                    let (reg, opc, oidx) = worst.unwrap_or((0, pc, idx));
                    hits.push(Hit {
                        severity: Severity::Stall,
                        rule: "s_delay_alu",
                        reg,
                        other_pc: opc,
                        other_idx: oidx,
                        needed: format!("s_delay_alu {}", fields.join(" + ")),
                    });
                }
            }
        }
        if t != DelayType::Other {
            let lat = latency(inst.op, f);
            // The carry/condition SGPR of a VOP3SD instruction (v_add_co_u32, v_div_scale...)
            // is written through the scheduling model's WriteSALU entry: 2 cycles (the
            // clang-19 corpus has VALU_DEP_1 for a carry read by the very next instruction and
            // nothing once any instruction is between).
            let sdst = (inst.enc == Enc::Vop3sd).then_some(inst.dst[1]);
            for r in &writes {
                let l = if Some(r.first) == sdst { 2 } else { lat };
                for code in r.codes() {
                    if let Some(u) = unit(code) {
                        self.delays[u] = Some((Delay::new(t, l), pc, idx));
                    }
                }
            }
        }
        self.bundle_left = self.bundle_left.saturating_sub(1);
        if inst.op == Op::S_GETPC_B64 {
            self.bundle_left = 2;
        }
        // LLVM runs per function: a callee starts with no record, and a caller knows nothing
        // of the callee's last instructions when the call returns.
        // The callee's instructions are not part of the caller's instruction count either
        // (an s_delay_alu before a call may apply past it), so the count resumes on return.
        if matches!(inst.op, Op::S_SWAPPC_B64 | Op::S_SETPC_B64 | Op::S_CALL_B64) {
            self.delays.iter_mut().for_each(|d| *d = None);
            if inst.op == Op::S_SETPC_B64 {
                if let Some((n, pending)) = self.calls.pop() {
                    self.inst_n = n;
                    self.pending = pending;
                }
            } else if self.calls.len() < 64 {
                self.calls
                    .push((self.inst_n, std::mem::take(&mut self.pending)));
            }
        }
        if inst.op == Op::S_NOP && inst.imm & 0xf == 0 {
            // Wait until the next instruction says whether this was alignment padding.
            self.nops.0 += 1;
            self.nops.1 = pc;
        } else {
            let cycles = if inst.op == Op::S_NOP {
                (inst.imm as u32 & 0xf) as u8 + 1
            } else {
                1
            };
            self.age(t, cycles);
        }

        // --- wait-state rules (GCNHazardRecognizer).
        let valu = matches!(f, Family::Valu | Family::Trans | Family::Wmma);
        let name = inst.op.name();
        let vgpr_reads: Vec<RegRun> = reads
            .iter()
            .filter(|r| r.first >= opnd::VGPR0)
            .copied()
            .collect();
        if valu {
            self.trans_use(&vgpr_reads, &mut hits);
            if wave64 {
                self.partial_forwarding(&vgpr_reads, &mut hits);
            }
        }
        if name.starts_with("v_permlane") {
            for p in self.hist.iter().rev() {
                if p.vcmpx {
                    hits.push(Hit {
                        severity: Severity::Correctness,
                        rule: "VcmpxPermlaneHazard",
                        reg: opnd::EXEC_LO,
                        other_pc: p.pc,
                        other_idx: p.idx,
                        needed: "a VALU (v_mov_b32 vN, vN) between the v_cmpx and the permlane"
                            .into(),
                    });
                    break;
                }
                if p.valu && !p.v_nop {
                    break;
                }
            }
        }
        if f == Family::Wmma {
            // src[0] = A, src[1] = B.
            let ab: Vec<RegRun> = c
                .regs
                .reads
                .iter()
                .filter(|r| r.first == inst.src[0] || r.first == inst.src[1])
                .copied()
                .collect();
            if let Some(p) = self.hist.iter().rev().find(|p| p.valu) {
                if p.wmma {
                    if let Some(reg) = overlaps(&p.writes, &ab) {
                        hits.push(Hit {
                            severity: Severity::Correctness,
                            rule: "WMMAHazard",
                            reg,
                            other_pc: p.pc,
                            other_idx: p.idx,
                            needed: "a v_nop between the two WMMAs".into(),
                        });
                    }
                }
            }
        }
        if f == Family::LdsDirect {
            self.lds_direct(inst, &writes, &mut hits);
        }
        // s_sendmsg sendmsg(MSG_DEALLOC_VGPRS) (message 3 on gfx11) right after an s_nop.
        if inst.op == Op::S_SENDMSG && inst.imm as u32 & 0xff == 3 {
            if let Some(p) = self.hist.back().filter(|p| !p.s_nop) {
                hits.push(Hit {
                    severity: Severity::Correctness,
                    rule: "DeallocVGPRsNop",
                    reg: 0,
                    other_pc: p.pc,
                    other_idx: p.idx,
                    needed: "s_nop 0 right before s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)".into(),
                });
            }
        }
        if wave64 && f == Family::Salu {
            self.mask_write_check(&writes, pc, idx);
        }

        // --- remember this instruction.
        let mask_reads = mask_reads(inst, c, &reads);
        let reads_sgpr_or_literal = valu
            && (c.regs.reads.iter().any(|r| {
                r.first < opnd::VGPR0 && r.first != opnd::EXEC_LO && r.first != opnd::EXEC_HI
            }) || inst.flags & crate::decode::iflags::LIT != 0);
        let past = Past {
            pc,
            idx,
            valu,
            trans: f == Family::Trans,
            salu: f == Family::Salu,
            wmma: f == Family::Wmma,
            vmem_like: matches!(f, Family::Vmem | Family::Lds | Family::Gds | Family::Export),
            export: f == Family::Export,
            depctr: (inst.op == Op::S_WAITCNT_DEPCTR).then_some(inst.imm as u32 & 0xffff),
            waitcnt_zero: inst.op == Op::S_WAITCNT && inst.imm as u32 & 0xffff == 0,
            v_nop: inst.op == Op::V_NOP,
            s_nop: inst.op == Op::S_NOP,
            vcmpx: valu && name.starts_with("v_cmpx"),
            reads: c.regs.reads.clone(),
            writes: c.regs.writes.clone(),
            mask_reads,
            reads_sgpr_or_literal,
            writes_exec: c
                .regs
                .writes
                .iter()
                .any(|r| r.contains(opnd::EXEC_LO) || r.contains(opnd::EXEC_HI)),
        };
        if self.hist.len() == HISTORY {
            self.hist.pop_front();
        }
        self.hist.push_back(past);
        hits
    }

    fn age(&mut self, t: DelayType, cycles: u8) {
        for d in self.delays.iter_mut() {
            if let Some((info, _, _)) = d {
                if !info.advance(t, cycles) {
                    *d = None;
                }
            }
        }
    }

    fn trans_use(&self, srcs: &[RegRun], hits: &mut Vec<Hit>) {
        let (mut valus, mut trans) = (0, 0);
        for p in self.hist.iter().rev() {
            if valus > 5 || trans > 1 {
                return;
            }
            if p.vmem_like || p.depctr.is_some_and(|d| depctr_va_vdst(d) == 0) {
                return;
            }
            if p.trans {
                if let Some(reg) = overlaps(&p.writes, srcs) {
                    hits.push(Hit {
                        severity: Severity::Correctness,
                        rule: "VALUTransUseHazard",
                        reg,
                        other_pc: p.pc,
                        other_idx: p.idx,
                        needed: "s_waitcnt_depctr va_vdst(0) between the transcendental and \
                                 this VALU"
                            .into(),
                    });
                    return;
                }
            }
            valus += p.valu as u32;
            trans += p.trans as u32;
        }
    }

    fn partial_forwarding(&self, srcs: &[RegRun], hits: &mut Vec<Hit>) {
        let mut uniq: Vec<u16> = Vec::new();
        for r in srcs {
            if !uniq.contains(&r.first) {
                uniq.push(r.first);
            }
        }
        if uniq.len() <= 1 {
            return;
        }
        const NONE: i32 = i32::MAX;
        let mut def_pos: Vec<(u16, i32, u64, u32)> = Vec::new();
        let mut exec_pos = NONE;
        let mut valus = 0i32;
        for p in self.hist.iter().rev() {
            if valus > 8 {
                return;
            }
            if p.vmem_like || p.depctr.is_some_and(|d| depctr_va_vdst(d) == 0) {
                return;
            }
            let mut changed = false;
            if p.valu {
                for r in srcs {
                    if !def_pos.iter().any(|d| d.0 == r.first)
                        && p.writes.iter().any(|w| r.codes().any(|c| w.contains(c)))
                    {
                        def_pos.push((r.first, valus, p.pc, p.idx));
                        changed = true;
                    }
                }
            } else if p.salu && exec_pos == NONE && !def_pos.is_empty() && p.writes_exec {
                exec_pos = valus;
                changed = true;
            }
            if valus > 4 && def_pos.is_empty() {
                return;
            }
            if changed && exec_pos != NONE {
                let pre = def_pos
                    .iter()
                    .filter(|d| d.1 >= exec_pos)
                    .min_by_key(|d| d.1);
                let post = def_pos
                    .iter()
                    .filter(|d| d.1 < exec_pos)
                    .min_by_key(|d| d.1);
                if let Some(post) = post {
                    if post.1 > 4 {
                        return;
                    }
                    let intv2 = exec_pos - post.1 - 1;
                    if intv2 > 2 {
                        return;
                    }
                    if let Some(pre) = pre {
                        let intv1 = pre.1 - exec_pos;
                        if intv1 > 2 || intv1 + intv2 > 2 {
                            return;
                        }
                        hits.push(Hit {
                            severity: Severity::Correctness,
                            rule: "VALUPartialForwardingHazard",
                            reg: pre.0,
                            other_pc: pre.2,
                            other_idx: pre.3,
                            needed: "s_waitcnt_depctr va_vdst(0): this wave64 VALU reads VGPRs \
                                     written by VALUs on both sides of an SALU EXEC write"
                                .into(),
                        });
                        return;
                    }
                }
            }
            valus += p.valu as i32;
        }
    }

    fn mask_write_check(&mut self, writes: &[RegRun], pc: u64, idx: u32) {
        let Some(dst) = writes.first() else { return };
        if matches!(dst.first, opnd::EXEC_LO | opnd::EXEC_HI | opnd::M0) {
            return;
        }
        for p in self.hist.iter().rev() {
            if p.depctr.is_some_and(|d| depctr_sa_sdst(d) == 0) {
                return;
            }
            if p.valu {
                if overlaps(&p.mask_reads, std::slice::from_ref(dst)).is_some() {
                    self.mask_write = Some((dst.first, pc, idx));
                    return;
                }
                if p.reads_sgpr_or_literal {
                    return;
                }
            }
        }
    }

    fn lds_direct(&self, inst: &Inst, writes: &[RegRun], hits: &mut Vec<Hit>) {
        // VALU WAR/WAW: wait_vdst (inst.imm) must be at most the VALUs since.
        let mut count = 0u32;
        let mut saw_trans = false;
        for p in self.hist.iter().rev() {
            if count >= 15 || p.vmem_like {
                break;
            }
            if p.valu {
                saw_trans |= p.trans;
                if overlaps(&p.reads, writes).is_some() || overlaps(&p.writes, writes).is_some() {
                    let need = if saw_trans { 0 } else { count };
                    let wait = inst.imm as u32 & 0xf;
                    if wait > need {
                        hits.push(Hit {
                            severity: Severity::Correctness,
                            rule: "LdsDirectVALUHazard",
                            reg: writes.first().map_or(0, |w| w.first),
                            other_pc: p.pc,
                            other_idx: p.idx,
                            needed: format!("wait_vdst({need}) (it has wait_vdst({wait}))"),
                        });
                    }
                    break;
                }
                count += 1;
            }
        }
        // VMEM WAR/WAW.
        for p in self.hist.iter().rev() {
            if p.valu
                || p.export
                || p.waitcnt_zero
                || p.depctr.is_some_and(|d| depctr_vm_vsrc(d) == 0)
            {
                break;
            }
            if p.vmem_like
                && (overlaps(&p.reads, writes).is_some() || overlaps(&p.writes, writes).is_some())
            {
                hits.push(Hit {
                    severity: Severity::Correctness,
                    rule: "LdsDirectVMEMHazard",
                    reg: writes.first().map_or(0, |w| w.first),
                    other_pc: p.pc,
                    other_idx: p.idx,
                    needed: "s_waitcnt_depctr vm_vsrc(0) between".into(),
                });
                break;
            }
        }
    }
}

/// SGPRs a VALU reads as its lane mask (the instructions `fixVALUMaskWriteHazard` lists).
fn mask_reads(inst: &Inst, c: &Class, reads: &[RegRun]) -> Vec<RegRun> {
    let n = inst.op.name();
    let masked = n.starts_with("v_cndmask")
        || n.starts_with("v_add_co_ci")
        || n.starts_with("v_sub_co_ci")
        || n.starts_with("v_subrev_co_ci")
        || n.starts_with("v_div_fmas");
    if !masked {
        return Vec::new();
    }
    let _ = reads;
    if matches!(inst.enc, Enc::Vop2 | Enc::Vopc | Enc::Vopd) || n.starts_with("v_div_fmas") {
        return vec![RegRun {
            first: opnd::VCC_LO,
            count: 2,
        }];
    }
    c.regs
        .reads
        .iter()
        .filter(|r| r.first == inst.src[2] && r.first < opnd::VGPR0)
        .copied()
        .collect()
}
