//! Scalar memory (SMEM): s_load_*, s_buffer_load_*, cache invalidation and probes (RDNA3 ISA
//! chapter 8; the RDNA3 ISA guide (Wave State) "SGPR out-of-range behavior"; the RDNA3 ISA guide (Buffer Instructions) "Scalar memory").
//!
//! - `s_load_bN`: address = SGPR pair + imm21 (signed) + soffset SGPR (NULL = none), with the low
//!   two bits ignored (dword aligned). The whole access must lie inside one allocation, otherwise
//!   `ExecError::MemoryFault` (lane 0: scalar accesses have no lane) with the address.
//! - `s_buffer_load_bN`: a V# in four SGPRs (base = bits [47:0], stride = word1[29:16],
//!   num_records = word2); offset = imm21 + soffset, dword aligned. Each dword is range checked
//!   on its own (RDNA3 ISA guide, Buffer Instructions: out of range if `offset >= (stride == 0 ? 1 : stride) * num_records`)
//!   and reads 0 without touching memory when out of range; in-range dwords must be inside an
//!   allocation.
//! - Destinations (RDNA3 ISA guide, Wave State): 64-bit data is written to an even-aligned SGPR, wider data to a
//!   4-aligned one (the hardware ignores the low bits). Data starting in SGPRs/VCC and running into
//!   the TTMPs, or starting in the TTMPs and running past them, is dropped for the out-of-range
//!   registers; NULL, M0 and EXEC cannot be loaded (nothing is written). TTMPs are written only in
//!   the trap handler (`write_sgpr`).
//! - Every SMEM instruction counts in LGKM_CNT when it issues (`Wave::cnt`, for s_waitcnt).
//! - `s_dcache_inv`, `s_gl1_inv`, `s_atc_probe[_buffer]` only affect caches and address-translation
//!   hints, which a functional emulator does not model: executing them changes no visible state.

use crate::decode::{opnd, Inst};
use crate::exec::operand::{read_sgpr, write_sgpr};
use crate::exec::{op_name, Ctx, ExecError, Flow, Handler};
use crate::isa::{Fmt, MemKind, Op};
use crate::wave::Wave;

/// Last register of the SGPR+VCC region and of the TTMP region (RDNA3 ISA guide, Wave State).
const SGPR_REGION_END: u16 = opnd::VCC_HI;
const TTMP_REGION_END: u16 = opnd::TTMP0 + 15;

/// Writes loaded dwords to the SMEM destination with the RDNA3 ISA guide's alignment and region rules.
fn write_sdata(w: &mut Wave, sdata: u16, vals: &[u32]) {
    let sd = match vals.len() {
        1 => sdata,
        2 => sdata & !1,
        _ => sdata & !3,
    };
    let end = if sd <= SGPR_REGION_END {
        SGPR_REGION_END
    } else if sd <= TTMP_REGION_END {
        TTMP_REGION_END
    } else {
        // NULL, M0, EXEC: SMEM cannot load into these.
        return;
    };
    for (k, v) in vals.iter().enumerate() {
        let c = sd + k as u16;
        if c > end {
            break;
        }
        write_sgpr(w, c, *v);
    }
}

#[inline]
fn sgpr64(w: &Wave, code: u16) -> u64 {
    read_sgpr(w, code) as u64 | (read_sgpr(w, code + 1) as u64) << 32
}

fn fault(inst: &Inst, addr: u64, size: u64) -> ExecError {
    ExecError::MemoryFault {
        lane: 0,
        addr,
        size: size as u32,
        kind: op_name(inst),
    }
}

/// `s_load_b32` .. `s_load_b512`: `N` dwords.
fn s_load<const N: usize>(w: &mut Wave, inst: &Inst, ctx: &mut Ctx) -> Result<Flow, ExecError> {
    w.cnt.lgkm_issue();
    let base = sgpr64(w, inst.src[0] & !1);
    let soff = read_sgpr(w, inst.src[1]) as u64;
    let addr = base.wrapping_add(inst.imm as i64 as u64).wrapping_add(soff) & !3;
    let size = 4 * N as u64;
    let r = ctx
        .mem
        .find(addr, size)
        .map_err(|_| fault(inst, addr, size))?;
    let mut vals = [0u32; N];
    for (k, v) in vals.iter_mut().enumerate() {
        let a = addr + 4 * k as u64;
        *v = r.load_u32(a).ok_or_else(|| fault(inst, a, 4))?;
    }
    write_sdata(w, inst.dst[0], &vals);
    Ok(Flow::Next)
}

/// `s_buffer_load_b32` .. `s_buffer_load_b512`: `N` dwords through a V#.
fn s_buffer_load<const N: usize>(
    w: &mut Wave,
    inst: &Inst,
    ctx: &mut Ctx,
) -> Result<Flow, ExecError> {
    w.cnt.lgkm_issue();
    // A V# occupies four SGPRs; the hardware forces 4-alignment (RDNA3 ISA guide, Wave State).
    let sb = inst.src[0] & !3;
    let v1 = read_sgpr(w, sb + 1);
    let base = (read_sgpr(w, sb) as u64 | (v1 as u64 & 0xffff) << 32) & 0xffff_ffff_ffff;
    let stride = (v1 >> 16) & 0x3fff;
    let num_records = read_sgpr(w, sb + 2) as u64;
    let limit = num_records * stride.max(1) as u64;
    let soff = read_sgpr(w, inst.src[1]) as u64;
    let offset = (inst.imm as i64 as u64).wrapping_add(soff) & 0xffff_ffff & !3;
    let mut vals = [0u32; N];
    let mut region = None;
    for (k, v) in vals.iter_mut().enumerate() {
        let off = offset + 4 * k as u64;
        if off >= limit {
            continue;
        }
        let a = base.wrapping_add(off);
        let r = match region {
            Some(r) if wavesim_core::memory::Region::contains(r, a, 4) => r,
            _ => {
                let r = ctx.mem.find(a, 4).map_err(|_| fault(inst, a, 4))?;
                region = Some(r);
                r
            }
        };
        *v = r.load_u32(a).ok_or_else(|| fault(inst, a, 4))?;
    }
    write_sdata(w, inst.dst[0], &vals);
    Ok(Flow::Next)
}

/// Cache invalidations and translation probes: no architectural effect to emulate.
fn cache_op(w: &mut Wave, _: &Inst, _: &mut Ctx) -> Result<Flow, ExecError> {
    w.cnt.lgkm_issue();
    Ok(Flow::Next)
}

/// The ops of this family that wavesim implements, from their table facts (load width, buffer
/// descriptor or address, cache operation).
pub fn handler(op: Op) -> Option<Handler> {
    if op.fmt() != Fmt::Smem {
        return None;
    }
    let f = op.facts();
    Some(match (f.mem, f.bytes, f.sbuf) {
        (MemKind::Load, 4, false) => s_load::<1> as Handler,
        (MemKind::Load, 8, false) => s_load::<2>,
        (MemKind::Load, 16, false) => s_load::<4>,
        (MemKind::Load, 32, false) => s_load::<8>,
        (MemKind::Load, 64, false) => s_load::<16>,
        (MemKind::Load, 4, true) => s_buffer_load::<1>,
        (MemKind::Load, 8, true) => s_buffer_load::<2>,
        (MemKind::Load, 16, true) => s_buffer_load::<4>,
        (MemKind::Load, 32, true) => s_buffer_load::<8>,
        (MemKind::Load, 64, true) => s_buffer_load::<16>,
        (MemKind::Cache, _, _) => cache_op,
        _ => return None,
    })
}
