//! What the issue model and the checkers need to know about one decoded instruction: its
//! family (which unit issues it), the registers it reads and writes, and for memory
//! instructions the counters it increments and the bytes it touches.
//!
//! Everything here is derived from the instruction table (`Op::fmt`, the operand signature) and
//! the decoded operand fields, so it holds for every row without a second opcode list; the few
//! name-based facts (transcendental ops, access sizes) say where they come from.

use crate::decode::{iflags, opnd, Enc, Inst};
use crate::isa::{flags, Fmt, Op, Ty};
use wavesim_core::memory::AtomicOp;

/// Which unit issues an instruction (RDNA3 ISA, "Instruction issue"; the RDNA3 ISA guide (Shader Concepts), "wave32 and
/// wave64").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Family {
    /// Scalar ALU (SOP1/SOP2/SOPK/SOPC and SOPP other than the kinds below).
    Salu,
    /// Branches and jumps (s_branch, s_cbranch_*, s_setpc/s_swappc/s_getpc...).
    Branch,
    /// s_waitcnt and s_waitcnt_*cnt.
    Waitcnt,
    /// s_delay_alu, s_nop and the other issue-only hints (s_waitcnt_depctr, s_clause...).
    Hint,
    Barrier,
    /// s_sendmsg*, s_endpgm, s_trap, s_sleep, s_icache_inv...
    Message,
    /// Scalar memory.
    Smem,
    /// Vector ALU (VOP1/2/3/3P/C/D, VINTERP, DPP).
    Valu,
    /// Transcendental VALU ops (the separate 1/4-rate unit; LLVM's `isTRANS`).
    Trans,
    /// WMMA (matrix) ops.
    Wmma,
    /// Vector memory: FLAT, GLOBAL, SCRATCH, MUBUF, MTBUF, MIMG.
    Vmem,
    /// LDS through DS instructions.
    Lds,
    /// GDS / GWS through DS instructions.
    Gds,
    /// EXP.
    Export,
    /// LDS_PARAM_LOAD / LDS_DIRECT_LOAD.
    LdsDirect,
}

impl Family {
    pub const ALL: [Family; 15] = [
        Family::Salu,
        Family::Branch,
        Family::Waitcnt,
        Family::Hint,
        Family::Barrier,
        Family::Message,
        Family::Smem,
        Family::Valu,
        Family::Trans,
        Family::Wmma,
        Family::Vmem,
        Family::Lds,
        Family::Gds,
        Family::Export,
        Family::LdsDirect,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Family::Salu => "salu",
            Family::Branch => "branch",
            Family::Waitcnt => "waitcnt",
            Family::Hint => "hint",
            Family::Barrier => "barrier",
            Family::Message => "message",
            Family::Smem => "smem",
            Family::Valu => "valu",
            Family::Trans => "trans",
            Family::Wmma => "wmma",
            Family::Vmem => "vmem",
            Family::Lds => "lds",
            Family::Gds => "gds",
            Family::Export => "export",
            Family::LdsDirect => "lds_direct",
        }
    }

    /// Vector families: they issue per half in wave64 (RDNA3 ISA guide, Shader Concepts).
    pub fn is_vector(self) -> bool {
        matches!(
            self,
            Family::Valu | Family::Trans | Family::Wmma | Family::Vmem | Family::Lds
        )
    }
}

/// The address space a memory instruction reaches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Space {
    Global,
    /// FLAT: global, LDS or scratch depending on the address (apertures).
    Flat,
    Lds,
    Scratch,
    /// Buffer and image resources.
    Buffer,
    /// Scalar loads (constant / kernarg).
    Scalar,
    Gds,
}

impl Space {
    pub fn name(self) -> &'static str {
        match self {
            Space::Global => "global",
            Space::Flat => "flat",
            Space::Lds => "lds",
            Space::Scratch => "scratch",
            Space::Buffer => "buffer",
            Space::Scalar => "scalar",
            Space::Gds => "gds",
        }
    }
}

/// s_waitcnt counters as bits of [`Class::counters`].
pub mod cnt {
    pub const VM: u8 = 1;
    pub const VS: u8 = 2;
    pub const LGKM: u8 = 4;
    pub const EXP: u8 = 8;
    pub const ALL: [u8; 4] = [VM, VS, LGKM, EXP];
    pub fn name(c: u8) -> &'static str {
        match c {
            VM => "vmcnt",
            VS => "vscnt",
            LGKM => "lgkmcnt",
            _ => "expcnt",
        }
    }
}

/// A run of consecutive registers: operand code of the first one and how many.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RegRun {
    pub first: u16,
    pub count: u8,
}

impl RegRun {
    pub fn contains(&self, code: u16) -> bool {
        code >= self.first && code < self.first + self.count as u16
    }
    pub fn codes(self) -> impl Iterator<Item = u16> {
        self.first..self.first + self.count as u16
    }
}

/// Register operands of one instruction (VGPRs as codes >= 256, scalar operands < 128).
#[derive(Clone, Debug, Default)]
pub struct Regs {
    pub reads: Vec<RegRun>,
    pub writes: Vec<RegRun>,
}

/// Everything the issue model needs to know about an instruction.
#[derive(Clone, Debug)]
pub struct Class {
    pub family: Family,
    pub regs: Regs,
    /// Memory instructions: the space, whether it writes memory / returns data / is atomic.
    pub space: Option<Space>,
    pub loads: bool,
    pub stores: bool,
    pub atomic: bool,
    /// Bytes per lane (per element for the 2addr DS forms).
    pub size: u32,
    /// Counters the instruction increments when it issues ([`cnt`] bits).
    pub counters: u8,
    /// VGPRs the instruction reads as data after it issued (exports and GDS: EXPcnt covers them).
    pub late_reads: Vec<RegRun>,
    /// Memory writes (stores and atomics): the registers whose values go to memory (store data,
    /// an atomic's DATA), not the address, not a compare-and-swap's compare value (the race
    /// check's stale-read rule follows loaded values into these).
    pub store_data: Vec<RegRun>,
    /// the RDNA3 ISA guide (Wave State): never skipped when EXEC == 0 and issued once in wave64 (v_nop, v_readlane...).
    pub never_skip_once: bool,
    /// A VALU writing an SGPR or VCC (not EXEC): never skipped, issued twice in wave64.
    pub writes_sgpr: bool,
    /// v_cmpx: may skip one half in wave64 but not both.
    pub writes_exec: bool,
}

/// Transcendental VALU ops (RDNA3 ISA, "Transcendental instructions": exp, log, rcp, rsq, sqrt,
/// sin, cos in f32 and f16, and the f64 rcp/rsq/sqrt; LLVM marks the same set `IsTrans`).
fn is_trans(op: Op) -> bool {
    let n = op.name();
    let Some(rest) = n.strip_prefix("v_") else {
        return false;
    };
    [
        "exp_",
        "log_",
        "rcp_",
        "rsq_",
        "sqrt_",
        "sin_",
        "cos_",
        "rcp_iflag_",
    ]
    .iter()
    .any(|p| rest.starts_with(p))
        && !rest.contains("legacy")
}

/// Bytes per lane of a memory op, from the width suffix of its mnemonic (`_b32`, `_u8`, `_i16`,
/// `_f64`...). The table's data types give the registers, not the bytes (`u8` loads fill a
/// whole VGPR).
fn access_size(op: Op) -> u32 {
    let n = op.name();
    for part in n.rsplit('_') {
        let digits = part.trim_start_matches(|c: char| c.is_ascii_alphabetic());
        if digits.len() < part.len() && !digits.is_empty() {
            if let Ok(bits) = digits.parse::<u32>() {
                if matches!(bits, 8 | 16 | 32 | 64 | 96 | 128) {
                    return bits / 8;
                }
            }
        }
    }
    4
}

fn push(v: &mut Vec<RegRun>, code: u16, count: u8) {
    if count == 0 || code == opnd::NULL {
        return;
    }
    // Registers only: SGPRs/VCC/TTMP/M0/EXEC (< 128) and VGPRs (>= 256).
    if !(128..opnd::VGPR0).contains(&code) {
        v.push(RegRun { first: code, count });
    }
}

/// The data a FLAT/GLOBAL/SCRATCH or MUBUF/MTBUF store or atomic writes: its data operand of
/// type `t`, for a compare-and-swap only the low half ({src, cmp}: the new value, not the
/// compare value).
fn push_vmem_data(v: &mut Vec<RegRun>, code: u16, t: Ty, cmpswap: bool) {
    let n = t.dwords();
    push(v, code, if cmpswap { n / 2 } else { n });
}

/// True for operand types that name registers (not immediates or packed fields).
fn is_register_type(t: Ty) -> bool {
    !matches!(
        t,
        Ty::None
            | Ty::Simm16
            | Ty::Imm16
            | Ty::Imm16Inline
            | Ty::Label
            | Ty::Waitcnt
            | Ty::Sendmsg
            | Ty::Hwreg
            | Ty::DelayAlu
            | Ty::Depctr
    )
}

/// Registers an operand of type `t` occupies (lane masks are a pair in wave64).
fn width(t: Ty, wave64: bool) -> u8 {
    match t {
        Ty::Mask => 1 + wave64 as u8,
        t => t.dwords(),
    }
}

/// Classifies `inst` (as decoded for a wave32 or wave64 wave).
pub fn classify(inst: &Inst, wave64: bool) -> Class {
    let op = inst.op;
    let info = op.info();
    let sig = &info.sig;
    let mut c = Class {
        family: Family::Salu,
        regs: Regs::default(),
        space: None,
        loads: false,
        stores: false,
        atomic: false,
        size: 0,
        counters: 0,
        late_reads: Vec::new(),
        store_data: Vec::new(),
        never_skip_once: info.flags & flags::NEVER_SKIP != 0,
        writes_sgpr: false,
        writes_exec: info.flags & flags::WRITES_EXEC != 0,
    };
    let name = op.name();
    // The table's `atom=cmpswap(f)` fact: DS cmpstore takes DATA0 = new value, DATA1 = compare
    // value (lds.rs); FLAT/GLOBAL/SCRATCH and MUBUF cmpswap take {src, cmp} in one register run,
    // the new value in its low half (flat.rs, buffer/mod.rs).
    let cmpswap = matches!(
        op.facts().atomic,
        Some(AtomicOp::CmpSwap | AtomicOp::CmpSwapF)
    );
    let r = &mut c.regs;
    match inst.enc {
        Enc::Sop1 | Enc::Sop2 | Enc::Sopk | Enc::Sopc | Enc::Sopp => {
            c.family = match name {
                "s_waitcnt" | "s_waitcnt_vscnt" | "s_waitcnt_vmcnt" | "s_waitcnt_expcnt"
                | "s_waitcnt_lgkmcnt" => Family::Waitcnt,
                "s_barrier" => Family::Barrier,
                "s_nop" | "s_delay_alu" | "s_waitcnt_depctr" | "s_clause" | "s_code_end"
                | "s_sleep" | "s_setprio" | "s_inst_prefetch" | "s_singleuse_vdst"
                | "s_wait_idle" => Family::Hint,
                _ if name.starts_with("s_sendmsg")
                    || name == "s_endpgm"
                    || name.starts_with("s_endpgm")
                    || name == "s_trap"
                    || name == "s_icache_inv"
                    || name == "s_ttracedata"
                    || name == "s_rfe_b64" =>
                {
                    Family::Message
                }
                _ if name.starts_with("s_branch")
                    || name.starts_with("s_cbranch")
                    || name.starts_with("s_setpc")
                    || name.starts_with("s_swappc")
                    || name.starts_with("s_call") =>
                {
                    Family::Branch
                }
                _ => Family::Salu,
            };
            for (i, &t) in sig.dst.iter().enumerate() {
                if is_register_type(t) && inst.enc != Enc::Sopp {
                    push(&mut r.writes, inst.dst[i], width(t, wave64));
                }
            }
            // SOPP has no register operand (its fields are immediates); elsewhere only
            // register-typed operands count.
            if inst.enc != Enc::Sopp {
                for (i, &t) in sig.src.iter().enumerate() {
                    if is_register_type(t) {
                        push(&mut r.reads, inst.src[i], width(t, wave64));
                    }
                }
            }
            if name.starts_with("s_sendmsg") {
                c.counters = cnt::LGKM;
            }
        }
        Enc::Smem => {
            c.family = Family::Smem;
            c.space = Some(Space::Scalar);
            c.loads = true;
            c.counters = cnt::LGKM;
            c.size = 4 * sig.dst[0].dwords() as u32;
            push(&mut r.writes, inst.dst[0], sig.dst[0].dwords());
            push(&mut r.reads, inst.src[0] & !1, sig.src[0].dwords().max(2));
            push(&mut r.reads, inst.src[1], 1);
        }
        Enc::Vop1
        | Enc::Vop2
        | Enc::Vopc
        | Enc::Vop3
        | Enc::Vop3sd
        | Enc::Vop3p
        | Enc::Vopd
        | Enc::Vinterp => {
            c.family = if name.starts_with("v_wmma") {
                Family::Wmma
            } else if is_trans(op) {
                Family::Trans
            } else {
                Family::Valu
            };
            if inst.enc == Enc::Vopd {
                push(&mut r.writes, inst.dst[0], 1);
                push(&mut r.writes, inst.dst[1], 1);
                // X sources in src[0..2], Y sources in src[2..4]; each op reads as many as its
                // signature lists (v_dual_mov_b32 one, v_dual_cndmask_b32 three with VCC).
                let nx = sig.num_src().min(2);
                let ny = inst.op_y.sig().num_src().min(2);
                for &s in inst.src[..nx].iter().chain(&inst.src[2..2 + ny]) {
                    push(&mut r.reads, s, 1);
                }
                if inst.op_y.name().contains("cndmask") || op.name().contains("cndmask") {
                    push(&mut r.reads, opnd::VCC_LO, 1 + wave64 as u8);
                }
            } else {
                if info.fmt == Fmt::Vopc {
                    // The lane-mask destination is in dst[1] (VCC_LO for e32, EXEC for v_cmpx).
                    let d = if c.writes_exec {
                        opnd::EXEC_LO
                    } else {
                        inst.dst[1]
                    };
                    push(&mut r.writes, d, 1 + wave64 as u8);
                } else {
                    for (i, &t) in sig.dst.iter().enumerate() {
                        push(&mut r.writes, inst.dst[i], width(t, wave64));
                    }
                }
                for (i, &t) in sig.src.iter().enumerate() {
                    push(&mut r.reads, inst.src[i], width(t, wave64));
                }
            }
            c.writes_sgpr = r
                .writes
                .iter()
                .any(|w| w.first < 128 && w.first != opnd::EXEC_LO && w.first != opnd::EXEC_HI);
        }
        Enc::Ldsdir => {
            c.family = Family::LdsDirect;
            c.counters = cnt::EXP;
            c.loads = true;
            push(&mut r.writes, inst.dst[0], 1);
        }
        Enc::Exp => {
            c.family = Family::Export;
            c.counters = cnt::EXP;
            for (i, &s) in inst.src.iter().enumerate() {
                if inst.imm2 >> i & 1 != 0 {
                    push(&mut r.reads, s, 1);
                    push(&mut c.late_reads, s, 1);
                }
            }
        }
        Enc::Ds => {
            let gds = inst.flags & iflags::GDS != 0 || name.starts_with("ds_gws");
            c.family = if gds { Family::Gds } else { Family::Lds };
            c.space = Some(if gds { Space::Gds } else { Space::Lds });
            c.counters = cnt::LGKM;
            c.size = access_size(op);
            let data_regs = |t: Ty| t.dwords();
            let returns = sig.dst[0] != Ty::None;
            let is_perm = name.contains("permute") || name.contains("swizzle");
            c.atomic = !is_perm
                && (name.contains("_rtn")
                    || name.starts_with("ds_add")
                    || name.starts_with("ds_sub")
                    || name.starts_with("ds_inc")
                    || name.starts_with("ds_dec")
                    || name.starts_with("ds_min")
                    || name.starts_with("ds_max")
                    || name.starts_with("ds_and")
                    || name.starts_with("ds_or")
                    || name.starts_with("ds_xor")
                    || name.starts_with("ds_cmpstore")
                    || name.starts_with("ds_mskor")
                    || name.starts_with("ds_storexchg")
                    || name.starts_with("ds_condxchg"));
            c.loads = returns && !is_perm;
            c.stores = name.starts_with("ds_store") || c.atomic;
            if is_perm {
                c.space = None;
            }
            push(&mut r.writes, inst.dst[0], sig.dst[0].dwords());
            if !name.contains("addtid")
                && !name.starts_with("ds_append")
                && !name.starts_with("ds_consume")
            {
                push(&mut r.reads, inst.src[0], 1);
            }
            push(&mut r.reads, inst.src[1], data_regs(sig.src[0]));
            push(&mut r.reads, inst.src[2], data_regs(sig.src[1]));
            if gds {
                push(&mut c.late_reads, inst.src[1], data_regs(sig.src[0]));
            }
            if c.stores {
                push(&mut c.store_data, inst.src[1], data_regs(sig.src[0]));
                if !cmpswap {
                    push(&mut c.store_data, inst.src[2], data_regs(sig.src[1]));
                }
            }
        }
        Enc::Flat | Enc::Global | Enc::Scratch => {
            c.family = Family::Vmem;
            c.space = Some(match inst.enc {
                Enc::Global => Space::Global,
                Enc::Scratch => Space::Scratch,
                _ => Space::Flat,
            });
            c.size = access_size(op);
            c.atomic = name.contains("atomic");
            // Atomics return the pre-op value only with GLC set (RDNA3 ISA, "Global, Scratch
            // and Flat atomics"); the table has one row for both forms.
            let returns = sig.dst[0] != Ty::None && (!c.atomic || inst.flags & iflags::GLC != 0);
            c.loads = returns;
            c.stores = name.contains("store") || c.atomic;
            c.counters = if returns { cnt::VM } else { cnt::VS };
            if inst.enc == Enc::Flat {
                // FLAT may reach LDS: it counts in LGKMcnt too (RDNA3 ISA, "Data dependency").
                c.counters |= cnt::LGKM;
            }
            if returns {
                push(&mut r.writes, inst.dst[0], sig.dst[0].dwords());
            }
            let saddr = inst.src[2];
            let vaddr_regs = match inst.enc {
                Enc::Global if saddr != opnd::NULL => 1,
                Enc::Scratch if inst.flags & iflags::SVE == 0 => 0,
                Enc::Scratch => 1,
                _ => 2,
            };
            push(&mut r.reads, inst.src[0], vaddr_regs);
            push(&mut r.reads, inst.src[1], sig.src[0].dwords());
            if c.stores {
                push_vmem_data(&mut c.store_data, inst.src[1], sig.src[0], cmpswap);
            }
            match inst.enc {
                Enc::Global => push(&mut r.reads, saddr, 2),
                // SADDR 0x7f reads nothing (`decode::scratch_saddr`).
                _ => {
                    if let Some(s) = crate::decode::scratch_saddr(inst) {
                        push(&mut r.reads, s, 1)
                    }
                }
            }
        }
        Enc::Mubuf | Enc::Mtbuf | Enc::Mimg => {
            c.family = Family::Vmem;
            c.space = Some(Space::Buffer);
            c.size = access_size(op);
            c.atomic = name.contains("atomic");
            let returns = sig.dst[0] != Ty::None && (!c.atomic || inst.flags & iflags::GLC != 0);
            c.loads = returns;
            c.stores = name.contains("store") || c.atomic;
            c.counters = if returns { cnt::VM } else { cnt::VS };
            if name.contains("gl0_inv") || name.contains("gl1_inv") {
                // Cache invalidates move no data and count in no counter.
                c.never_skip_once = true;
                c.counters = 0;
                c.space = None;
            }
            if returns {
                push(&mut r.writes, inst.dst[0], sig.dst[0].dwords());
            }
            if inst.enc == Enc::Mimg {
                push(&mut r.reads, inst.src[0], (inst.imm as u8).max(1));
                push(&mut r.reads, inst.src[1], 8);
            } else {
                let n = (inst.flags & iflags::OFFEN != 0) as u8
                    + (inst.flags & iflags::IDXEN != 0) as u8;
                push(&mut r.reads, inst.src[0], n);
                push(&mut r.reads, inst.src[1], sig.src[0].dwords());
                if c.stores {
                    push_vmem_data(&mut c.store_data, inst.src[1], sig.src[0], cmpswap);
                }
                push(&mut r.reads, inst.src[2], 4);
                push(&mut r.reads, inst.src[3], 1);
            }
        }
        Enc::Invalid => {}
    }
    c
}

/// True if `code` is a VGPR operand code.
pub fn is_vgpr(code: u16) -> bool {
    code >= opnd::VGPR0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_trans_come_from_the_names() {
        assert_eq!(access_size(Op::GLOBAL_LOAD_B128), 16);
        assert_eq!(access_size(Op::DS_STORE_B32), 4);
        assert_eq!(access_size(Op::DS_LOAD_2ADDR_B32), 4);
        assert_eq!(access_size(Op::GLOBAL_STORE_B64), 8);
        assert!(is_trans(Op::V_EXP_F32));
        assert!(!is_trans(Op::V_CNDMASK_B32));
    }
}
