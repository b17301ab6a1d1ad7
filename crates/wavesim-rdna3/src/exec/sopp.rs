//! Program control and wave state: SOPP (branches, s_endpgm, s_barrier, waits, traps,
//! messages, MODE shortcuts) plus the PC, hardware-register and message ops that use the
//! SOP1/SOPK encodings (s_getpc/s_setpc/s_swappc/s_rfe, s_call, s_getreg/s_setreg,
//! s_sendmsg_rtn). RDNA3 ISA chapters 3.2-3.4 (wave state), 5 (program flow) and 16.1-16.5.
//!
//! PC is a byte address; when a handler runs `wave.pc` already holds the address of the next
//! instruction, which is what branches, s_getpc, s_swappc and s_call are relative to (RDNA3 ISA guide, Wave State,
//! "Program counter"). s_trap saves its own address instead.
//!
//! Waits, hints and scheduling ops never stall a functional model: every instruction completes
//! before the next one starts. s_waitcnt* still lower the wave's counters (`Wave::cnt`) to the
//! waited values, so a timing model can follow them.

use crate::decode::Inst;
use crate::exec::operand::{
    read_scalar, s64, status_with_summaries, write_sgpr, write_sgpr64, PRIVATE_APERTURE,
    SHARED_APERTURE,
};
use crate::exec::trap::{enter_trap, PC_MASK};
use crate::exec::{Ctx, ExecError, Flow, Handler};
use crate::isa::{Op, Ty};
use crate::wave::gfx::{Message, Stage};
use crate::wave::{status, Wave};
use std::sync::OnceLock;
use std::time::Instant;

const NEXT: Result<Flow, ExecError> = Ok(Flow::Next);

/// Hardware register IDs of s_getreg/s_setreg on gfx11 (RDNA3 ISA 3.4 "Wave State Registers";
/// numbering checked against llvm-mc-19 `hwreg(HW_REG_*)`).
pub mod hwreg {
    pub const MODE: u32 = 1;
    pub const STATUS: u32 = 2;
    pub const TRAPSTS: u32 = 3;
    pub const GPR_ALLOC: u32 = 5;
    pub const LDS_ALLOC: u32 = 6;
    pub const IB_STS: u32 = 7;
    pub const FLUSH_IB: u32 = 14;
    pub const SH_MEM_BASES: u32 = 15;
    pub const FLAT_SCR_LO: u32 = 20;
    pub const FLAT_SCR_HI: u32 = 21;
    pub const HW_ID1: u32 = 23;
    pub const HW_ID2: u32 = 24;
    pub const SHADER_CYCLES: u32 = 29;

    /// MODE bits a shader may write: FP_ROUND[3:0], FP_DENORM[7:4], DX10_CLAMP[8], IEEE[9],
    /// LOD_CLAMPED[10], TRAP_AFTER_INST[11], EXCP_EN[21:12], FP16_OVFL[23], DISABLE_PERF[27].
    pub const MODE_WRITABLE: u32 = 0x003f_ffff | 1 << 23 | 1 << 27;
    /// STATUS bits writable in the trap handler (Table 5 "Write when Priv"): SCC[0],
    /// SYS_PRIO[2:1], USER_PRIO[4:3], EXPORT_RDY[8], HALT[13], SKIP_EXPORT[18], CDBG_USER[20],
    /// CDBG_SYS[21], LDS_PARAM_RDY[25], MUST_EXPORT[27], SCRATCH_EN[29].
    pub const STATUS_PRIV_WRITABLE: u32 =
        0x1f | 1 << 8 | 1 << 13 | 1 << 18 | 1 << 20 | 1 << 21 | 1 << 25 | 1 << 27 | 1 << 29;
    /// TRAPSTS bits (user or trap handler): EXCP[8:0], SAVECTX[10], ILLEGAL_INST[11],
    /// ADDR_WATCH[14:12], BUFFER_OOB[15], HOST_TRAP[16], WAVE_START[17], WAVE_END[18],
    /// TRAP_AFTER_INST[20].
    pub const TRAPSTS_WRITABLE: u32 = 0x1ff | 0x7fc00 | 1 << 20;
}

/// STATUS bits not named in `wave::status` (RDNA3 ISA Table 5).
pub(crate) mod status_bits {
    pub const USER_PRIO_SHIFT: u32 = 3;
    pub const USER_PRIO: u32 = 3 << USER_PRIO_SHIFT;
    pub const CDBG_USER: u32 = 1 << 20;
    pub const CDBG_SYS: u32 = 1 << 21;
    pub const NO_VGPRS: u32 = 1 << 24;
}

/// s_sendmsg message IDs (RDNA3 ISA Table 15; values checked against llvm-mc-19).
pub(crate) mod msg {
    pub const INTERRUPT: u32 = 0x01;
    pub const HS_TESSFACTOR: u32 = 0x02;
    pub const DEALLOC_VGPRS: u32 = 0x03;
    pub const GS_ALLOC_REQ: u32 = 0x09;
    /// s_sendmsg_rtn (Table 16).
    pub const RTN_GET_DOORBELL: u32 = 0x80;
    pub const RTN_GET_DDID: u32 = 0x81;
    pub const RTN_GET_TMA: u32 = 0x82;
    pub const RTN_GET_REALTIME: u32 = 0x83;
    pub const RTN_SAVE_WAVE: u32 = 0x84;
    pub const RTN_GET_TBA: u32 = 0x85;
}

#[inline(always)]
fn sext48(pc: u64) -> u64 {
    (((pc & PC_MASK) << 16) as i64 >> 16) as u64
}

/// Jumps `simm16` dwords from the next instruction.
#[inline(always)]
fn branch(w: &mut Wave, i: &Inst) -> Result<Flow, ExecError> {
    w.pc = w.pc.wrapping_add((i.imm as i16 as i64 * 4) as u64) & PC_MASK;
    Ok(Flow::Jump)
}

#[inline(always)]
fn branch_if(w: &mut Wave, i: &Inst, cond: bool) -> Result<Flow, ExecError> {
    if cond {
        branch(w, i)
    } else {
        NEXT
    }
}

fn other(what: String) -> ExecError {
    ExecError::Other(what)
}

/// Current value of hardware register `id` as s_getreg sees it.
fn hwreg_read(w: &Wave, id: u32) -> Result<u32, ExecError> {
    Ok(match id {
        hwreg::MODE => w.hw.mode,
        // SCC, EXECZ and VCCZ are derived from the live state.
        hwreg::STATUS => status_with_summaries(w),
        hwreg::TRAPSTS => w.hw.trapsts,
        hwreg::GPR_ALLOC => w.hw.gpr_alloc,
        hwreg::LDS_ALLOC => w.hw.lds_alloc,
        hwreg::IB_STS => w.hw.ib_sts,
        // Write-only register: nothing to read back.
        hwreg::FLUSH_IB => 0,
        // [15:0] private base, [31:16] shared base: bits 63:48 of the apertures the wave sees
        // through src_private_base/src_shared_base (RDNA3 ISA 3.4).
        hwreg::SH_MEM_BASES => {
            ((SHARED_APERTURE >> 48) as u32) << 16 | (PRIVATE_APERTURE >> 48) as u32 & 0xffff
        }
        hwreg::FLAT_SCR_LO => w.hw.flat_scratch_lo,
        hwreg::FLAT_SCR_HI => w.hw.flat_scratch_hi,
        hwreg::HW_ID1 => w.hw.hw_id1,
        hwreg::HW_ID2 => w.hw.hw_id2,
        // 20-bit free-running cycle counter, only meaningful as a delta within one wave (seed
        // 000, "Time"). Modelled as one clock per instruction this wave has issued.
        hwreg::SHADER_CYCLES => (w.wave_insts & 0xf_ffff) as u32,
        _ => {
            return Err(other(format!(
                "s_getreg_b32: hardware register {id} is reserved or not modelled on gfx11"
            )))
        }
    })
}

/// s_setreg: writes `value` into the bits `mask` of register `id`, limited to the bits the
/// register lets this wave write (`writeableBitMask` of the ISA pseudo-code).
fn hwreg_write(w: &mut Wave, id: u32, value: u32, mask: u32) -> Result<(), ExecError> {
    let priv_ = w.privileged();
    let merge = |old: u32, writable: u32| {
        let m = mask & writable;
        (old & !m) | (value & m)
    };
    match id {
        hwreg::MODE => w.hw.mode = merge(w.hw.mode, hwreg::MODE_WRITABLE),
        hwreg::STATUS => {
            let writable = if priv_ {
                hwreg::STATUS_PRIV_WRITABLE
            } else {
                0
            };
            let new = merge(status_with_summaries(w), writable);
            w.scc = new & status::SCC != 0;
            // EXECZ/VCCZ/SCC are derived; keep the stored copy free of them.
            w.hw.status = new & !(status::SCC | status::EXECZ | status::VCCZ);
        }
        hwreg::TRAPSTS => w.hw.trapsts = merge(w.hw.trapsts, hwreg::TRAPSTS_WRITABLE),
        hwreg::FLAT_SCR_LO | hwreg::FLAT_SCR_HI => {
            // Read-only outside the trap handler (RDNA3 ISA 3.4.7).
            let writable = if priv_ { u32::MAX } else { 0 };
            if id == hwreg::FLAT_SCR_LO {
                w.hw.flat_scratch_lo = merge(w.hw.flat_scratch_lo, writable);
            } else {
                w.hw.flat_scratch_hi = merge(w.hw.flat_scratch_hi, writable);
            }
        }
        // Flushing the instruction buffer has no visible effect: code is predecoded once and
        // never modified while it runs.
        hwreg::FLUSH_IB => {}
        // Read-only registers: the writeable-bit mask is empty, the write changes nothing.
        hwreg::GPR_ALLOC
        | hwreg::LDS_ALLOC
        | hwreg::IB_STS
        | hwreg::SH_MEM_BASES
        | hwreg::HW_ID1
        | hwreg::HW_ID2
        | hwreg::SHADER_CYCLES => {}
        _ => {
            return Err(other(format!(
                "s_setreg: hardware register {id} is reserved or not modelled on gfx11"
            )))
        }
    }
    Ok(())
}

/// Decodes the hwreg(id, offset, size) immediate of s_getreg/s_setreg: ID = [5:0],
/// OFFSET = [10:6], SIZE-1 = [15:11]. Returns (id, offset, field mask before shifting).
#[inline(always)]
fn hwreg_field(i: &Inst) -> (u32, u32, u32) {
    let simm = i.imm as u32 & 0xffff;
    let size = (simm >> 11) + 1;
    let mask = if size >= 32 {
        u32::MAX
    } else {
        (1 << size) - 1
    };
    (simm & 0x3f, (simm >> 6) & 0x1f, mask)
}

fn setreg(w: &mut Wave, i: &Inst, data: u32) -> Result<Flow, ExecError> {
    let (id, offset, mask) = hwreg_field(i);
    hwreg_write(w, id, data << offset, mask << offset)?;
    NEXT
}

/// Host clock for REALTIME, a constant 100 MHz counter (RDNA3 ISA guide, Wave State, "Time").
fn realtime_ticks() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    let epoch = *EPOCH.get_or_init(Instant::now);
    (epoch.elapsed().as_nanos() / 10) as u64
}

/// Value returned by an s_sendmsg_rtn message.
fn sendmsg_rtn(w: &Wave, i: &Inst, name: &str) -> Result<u64, ExecError> {
    let id = i.imm as u32 & 0xff;
    Ok(match id {
        msg::RTN_GET_TMA => w.tma,
        msg::RTN_GET_TBA => w.tba,
        msg::RTN_GET_REALTIME => realtime_ticks(),
        msg::RTN_GET_DOORBELL | msg::RTN_GET_DDID | msg::RTN_SAVE_WAVE => {
            return Err(other(format!(
                "{name}: message {id:#x} asks the command processor for queue state \
                 (doorbell / dispatch id / context save) that wavesim does not model"
            )))
        }
        _ => {
            return Err(other(format!(
                "{name}: message {id:#x} is reserved (illegal) on gfx11"
            )))
        }
    })
}

/// The count of a SOPK s_waitcnt_*cnt: SIMM16, saturated to the counters' width (a larger value
/// waits for nothing).
#[inline(always)]
fn wait_imm(i: &Inst) -> u8 {
    (i.imm as u32 & 0xffff).min(u8::MAX as u32) as u8
}

/// s_sendmsg / s_sendmsghalt.
fn sendmsg(w: &mut Wave, i: &Inst, halt: bool) -> Result<Flow, ExecError> {
    let name = if halt { "s_sendmsghalt" } else { "s_sendmsg" };
    let id = i.imm as u32 & 0xff;
    match id {
        // Frees the VGPRs before s_endpgm (compilers emit it at the end of kernels that
        // store): recorded in STATUS.NO_VGPRS; the registers stay readable here, which only
        // matters to programs the ISA already calls invalid.
        msg::DEALLOC_VGPRS => w.hw.status |= status_bits::NO_VGPRS,
        msg::INTERRUPT => {
            return Err(other(format!(
                "{name}: MSG_INTERRUPT raises a host interrupt, which wavesim does not model"
            )))
        }
        // Graphics messages are recorded on the graphics wave for the host (the draw); in a
        // compute wave or the wrong stage they are errors (`record_message`).
        msg::HS_TESSFACTOR | msg::GS_ALLOC_REQ => record_message(w, id, name)?,
        _ => {
            return Err(other(format!(
                "{name}: message {id:#x} is reserved (illegal) on gfx11"
            )))
        }
    }
    if halt {
        return Err(other(
            "s_sendmsghalt: the wave halted and only the host can resume it".into(),
        ));
    }
    NEXT
}

/// s_sendmsg GS_ALLOC_REQ (GS waves) and HS_TESSFACTOR (HS waves): recorded on the graphics
/// wave for the host (the draw reads them).
fn record_message(w: &mut Wave, id: u32, name: &str) -> Result<(), ExecError> {
    let m0 = w.m0();
    let stage_ok = |st: Stage| {
        if id == msg::HS_TESSFACTOR {
            st == Stage::Hs
        } else {
            st == Stage::Gs
        }
    };
    match w.gfx.as_deref_mut() {
        Some(g) if stage_ok(g.stage) => {
            g.messages.push(Message { id, m0 });
            Ok(())
        }
        Some(g) => Err(other(format!(
            "{name}: message {id:#x} is not for a {:?} wave",
            g.stage
        ))),
        None => Err(other(format!(
            "{name}: message {id:#x} is for graphics shader stages; this is a compute wave"
        ))),
    }
}

/// s_trap: a NOP without a trap handler (STATUS.TRAP_EN = 0); otherwise
/// {TTMP1, TTMP0} = {7'h0, HT = 0, trapID[7:0], PC[47:0]} with PC the s_trap's own address,
/// STATUS.PRIV = 1, PC = TBA (RDNA3 ISA guide, Wave State, "Trap and exception registers").
fn trap(w: &mut Wave, i: &Inst, ctx: &mut Ctx) -> Result<Flow, ExecError> {
    let trap_id = i.imm as u32 & 0xff;
    if w.hw.status & status::TRAP_EN == 0 {
        // Without a handler the ISA makes s_trap a NOP; a runtime that serves the dispatch
        // (ROCm's, whose driver always installs one) may decide otherwise.
        if let Some(h) = ctx.host {
            h.trap(trap_id)?;
        }
        return NEXT;
    }
    let pc = w.pc.wrapping_sub(i.len as u64);
    Ok(enter_trap(w, trap_id, pc))
}

/// TRAPSTS.ILLEGAL_INST (RDNA3 ISA 3.4.9).
pub const TRAPSTS_ILLEGAL_INST: u32 = 1 << 11;

/// An illegal instruction at `inst` (its PC is `w.pc - inst.len`): with a trap handler present
/// and the wave not already in it, TRAPSTS.ILLEGAL_INST is set and the handler entered with
/// trapID 0 and the PC of the illegal instruction, which never executes (the hardware's
/// generated s_trap takes its place); otherwise the dispatch ends with `err`, the ISA's "send
/// an interrupt and halt" (RDNA3 ISA 3.4.9 TRAPSTS.ILLEGAL_INST; illegal instructions cannot be
/// masked).
pub fn illegal(w: &mut Wave, inst: &Inst, err: ExecError) -> Result<Flow, ExecError> {
    if w.hw.status & status::TRAP_EN == 0 || w.privileged() {
        return Err(err);
    }
    w.hw.trapsts |= TRAPSTS_ILLEGAL_INST;
    let pc = w.pc.wrapping_sub(inst.len as u64);
    Ok(enter_trap(w, 0, pc))
}

/// The handler for each program-control op.
pub fn handler(op: Op) -> Option<Handler> {
    use Op::*;
    let h: Handler = match op {
        // ---------------------------------------------------------------- branches
        S_BRANCH => |w, i, _| branch(w, i),
        S_CBRANCH_SCC0 => |w, i, _| branch_if(w, i, !w.scc),
        S_CBRANCH_SCC1 => |w, i, _| branch_if(w, i, w.scc),
        // VCCZ/EXECZ cover the wave's own lanes only (wave32: bits 31:0).
        S_CBRANCH_VCCZ => |w, i, _| branch_if(w, i, w.vcc() == 0),
        S_CBRANCH_VCCNZ => |w, i, _| branch_if(w, i, w.vcc() != 0),
        S_CBRANCH_EXECZ => |w, i, _| branch_if(w, i, w.exec() == 0),
        S_CBRANCH_EXECNZ => |w, i, _| branch_if(w, i, w.exec() != 0),
        // Conditional-debug branches test STATUS.CDBG_SYS / CDBG_USER, set at wave creation.
        S_CBRANCH_CDBGSYS => |w, i, _| {
            let c = w.hw.status & status_bits::CDBG_SYS != 0;
            branch_if(w, i, c)
        },
        S_CBRANCH_CDBGUSER => |w, i, _| {
            let c = w.hw.status & status_bits::CDBG_USER != 0;
            branch_if(w, i, c)
        },
        S_CBRANCH_CDBGSYS_OR_USER => |w, i, _| {
            let c = w.hw.status & (status_bits::CDBG_SYS | status_bits::CDBG_USER) != 0;
            branch_if(w, i, c)
        },
        S_CBRANCH_CDBGSYS_AND_USER => |w, i, _| {
            let both = status_bits::CDBG_SYS | status_bits::CDBG_USER;
            let c = w.hw.status & both == both;
            branch_if(w, i, c)
        },

        // ---------------------------------------------------------------- PC (SOP1, SOPK)
        S_GETPC_B64 => |w, i, _| {
            write_sgpr64(w, i.dst[0], sext48(w.pc));
            NEXT
        },
        S_SETPC_B64 => |w, i, _| {
            w.pc = s64(w, i, 0) & PC_MASK;
            Ok(Flow::Jump)
        },
        S_SWAPPC_B64 => |w, i, _| {
            let target = s64(w, i, 0);
            write_sgpr64(w, i.dst[0], sext48(w.pc));
            w.pc = target & PC_MASK;
            Ok(Flow::Jump)
        },
        S_CALL_B64 => |w, i, _| {
            write_sgpr64(w, i.dst[0], sext48(w.pc));
            branch(w, i)
        },
        S_RFE_B64 => |w, i, _| {
            let target = s64(w, i, 0);
            w.hw.status &= !status::PRIV;
            // HALT is ignored inside the trap handler but takes effect on return.
            if w.hw.status & status::HALT != 0 {
                return Err(other(
                    "s_rfe_b64: returned from the trap handler with STATUS.HALT set; \
                     only the host can resume a halted wave"
                        .into(),
                ));
            }
            w.pc = target & PC_MASK;
            Ok(Flow::Jump)
        },

        // ---------------------------------------------------------------- end, barrier
        S_ENDPGM | S_ENDPGM_SAVED => |_, _, _| Ok(Flow::End),
        S_BARRIER => |_, _, _| Ok(Flow::Barrier),
        S_CODE_END => |w, i, _| {
            let e = other(
                "s_code_end: executed end-of-code padding (an illegal instruction on gfx11); \
                 the program ran past its s_endpgm"
                    .into(),
            );
            illegal(w, i, e)
        },

        // ---------------------------------------------------------------- waits and hints
        // No outstanding work exists between instructions in a functional model.
        // A sleeping wave gives the host its turn: the runtime serves pending requests (see
        // `HostServices::serve`), then the wave continues.
        S_SLEEP => |_, _, ctx| {
            if let Some(h) = ctx.host {
                h.serve(ctx.mem)?;
            }
            NEXT
        },
        S_NOP
        | S_SET_INST_PREFETCH_DISTANCE
        | S_CLAUSE
        | S_DELAY_ALU
        | S_WAITCNT_DEPCTR
        | S_WAIT_EVENT
        | S_VERSION
        | S_ICACHE_INV
        // No wave of this model ever sleeps, so a wake-up ping has nobody to wake.
        | S_WAKEUP
        // Performance counters and thread trace are not modelled (both are ignored by
        // hardware too when counting/tracing is off, which is the state wavesim presents).
        | S_INCPERFLEVEL
        | S_DECPERFLEVEL
        | S_TTRACEDATA
        | S_TTRACEDATA_IMM
        // RDNA3.5: a hint that the next VALU results are used once (register-cache
        // allocation); it changes no programmer-visible state.
        | S_SINGLEUSE_VDST => |_, _, _| NEXT,
        // The wave continues once each counter is at or below its field (gfx11: vmcnt [15:10],
        // lgkmcnt [9:4], expcnt [2:0]); everything has completed, so the counters drop to it.
        S_WAITCNT => |w, i, _| {
            let v = i.imm as u32 & 0xffff;
            w.cnt.vm = w.cnt.vm.min((v >> 10 & 0x3f) as u8);
            w.cnt.lgkm = w.cnt.lgkm.min((v >> 4 & 0x3f) as u8);
            w.cnt.exp = w.cnt.exp.min((v & 7) as u8);
            NEXT
        },
        // SOPK forms: one counter, the count in SIMM16 (the SGPR field must be NULL; llvm-mc
        // rejects anything else, so only the immediate is used).
        S_WAITCNT_VSCNT => |w, i, _| {
            w.cnt.vs = w.cnt.vs.min(wait_imm(i));
            NEXT
        },
        S_WAITCNT_VMCNT => |w, i, _| {
            w.cnt.vm = w.cnt.vm.min(wait_imm(i));
            NEXT
        },
        S_WAITCNT_EXPCNT => |w, i, _| {
            w.cnt.exp = w.cnt.exp.min(wait_imm(i));
            NEXT
        },
        S_WAITCNT_LGKMCNT => |w, i, _| {
            w.cnt.lgkm = w.cnt.lgkm.min(wait_imm(i));
            NEXT
        },
        // Waits until all of the wave's outstanding work has completed.
        S_WAIT_IDLE => |w, _, _| {
            w.cnt = Default::default();
            NEXT
        },

        // ---------------------------------------------------------------- wave state
        S_SETPRIO => |w, i, _| {
            let p = (i.imm as u32 & 3) << status_bits::USER_PRIO_SHIFT;
            w.hw.status = (w.hw.status & !status_bits::USER_PRIO) | p;
            NEXT
        },
        // MODE.FP_ROUND[3:0] / MODE.FP_DENORM[7:4] from SIMM16[3:0].
        S_ROUND_MODE => |w, i, _| {
            w.hw.mode = (w.hw.mode & !0xf) | (i.imm as u32 & 0xf);
            NEXT
        },
        S_DENORM_MODE => |w, i, _| {
            w.hw.mode = (w.hw.mode & !0xf0) | (i.imm as u32 & 0xf) << 4;
            NEXT
        },
        S_SETKILL => |_, i, _| {
            // Killing the wave ends it immediately (used to debug host kill commands).
            if i.imm & 1 != 0 {
                Ok(Flow::End)
            } else {
                NEXT
            }
        },
        S_SETHALT => |w, i, _| {
            if i.imm & 1 == 0 {
                w.hw.status &= !status::HALT;
                return NEXT;
            }
            w.hw.status |= status::HALT;
            // Inside the trap handler HALT is deferred until s_rfe.
            if w.privileged() {
                return NEXT;
            }
            Err(other(
                "s_sethalt 1: the wave halted and only the host can resume it".into(),
            ))
        },
        S_GETREG_B32 => |w, i, _| {
            let (id, offset, mask) = hwreg_field(i);
            let v = (hwreg_read(w, id)? >> offset) & mask;
            write_sgpr(w, i.dst[0], v);
            NEXT
        },
        // The data is src[1]: the SGPR of the SDST field, or the literal of _imm32.
        S_SETREG_B32 | S_SETREG_IMM32_B32 => |w, i, _| {
            let v = read_scalar(w, i, i.src[1], Ty::B32) as u32;
            setreg(w, i, v)
        },

        // ---------------------------------------------------------------- traps, messages
        S_TRAP => trap,
        // Messages count in LGKM_CNT.
        S_SENDMSG => |w, i, _| {
            w.cnt.lgkm_issue();
            sendmsg(w, i, false)
        },
        S_SENDMSGHALT => |w, i, _| {
            w.cnt.lgkm_issue();
            sendmsg(w, i, true)
        },
        S_SENDMSG_RTN_B32 => |w, i, _| {
            w.cnt.lgkm_issue();
            // A 64-bit answer is truncated to its low half (RDNA3 ISA S_SENDMSG_RTN_B32).
            let v = sendmsg_rtn(w, i, "s_sendmsg_rtn_b32")?;
            write_sgpr(w, i.dst[0], v as u32);
            NEXT
        },
        S_SENDMSG_RTN_B64 => |w, i, _| {
            w.cnt.lgkm_issue();
            let v = sendmsg_rtn(w, i, "s_sendmsg_rtn_b64")?;
            write_sgpr64(w, i.dst[0], v);
            NEXT
        },

        // The RDNA3 ISA guide does not define the subvector-loop semantics for gfx11
        // (the encodings exist in LLVM only); refuse rather than guess.
        S_SUBVECTOR_LOOP_BEGIN | S_SUBVECTOR_LOOP_END => |_, i, _| {
            Err(ExecError::Unimplemented {
                name: crate::exec::op_name(i),
            })
        },
        _ => return None,
    };
    Some(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pc_sign_extension() {
        assert_eq!(sext48(0x0000_7fff_ffff_fffc), 0x0000_7fff_ffff_fffc);
        assert_eq!(sext48(0x0000_8000_0000_0000), 0xffff_8000_0000_0000);
    }

    #[test]
    fn mode_writable_mask_covers_documented_fields() {
        assert_eq!(hwreg::MODE_WRITABLE, 0x08bf_ffff);
        assert_eq!(hwreg::TRAPSTS_WRITABLE & (1 << 9 | 1 << 19), 0);
    }
}
