//! Local data share instructions (DS) with the RDNA3 ISA guide's alignment and out-of-range rules
//! (RDNA3 ISA 16.15 "LDS & GDS Instructions"; the RDNA3 ISA guide (Wave State) "LDS/GDS alignment and out of range").
//!
//! - Address: `ADDR VGPR + offset` (offset = {offset1, offset0}, unsigned 16 bits; the 2addr forms
//!   add `offsetN * element size`, times 64 for stride64), 32-bit arithmetic.
//! - Alignment (RDNA3 ISA guide, Wave State): UNALIGNED uses the address as is; every other mode clears the bits
//!   below the local alignment (B16 2, B32 4, B64 8, B96/B128 16 bytes). DWORD_STRICT / STRICT
//!   additionally raise MEMVIOL when the address is not aligned to min(local, 4) / local.
//!   Atomics must be aligned to their size in every mode (MEMVIOL). The ISA guide's `0xffff`-style masks
//!   are read as "clear the low bits": the address keeps all 32 bits, so an address at or beyond
//!   the workgroup's LDS size is out of range rather than wrapping.
//! - Out of range (`addr >= LDS size`, the size of `Ctx::lds`): writes are dropped (per dword),
//!   reads return 0, and a multi-dword read returns all zeros if any part is out of range. Atomics
//!   out of range do nothing and return 0.
//! - A returning op whose destination VGPRs are out of range is nullified (nothing is read or
//!   written); out-of-range source VGPRs read VGPR0 (`Wave::vrow`).
//! - M0 does not limit LDS accesses on gfx11 except where an instruction reads it
//!   (ds_append/consume and the addtid forms use M0[15:0] as their base).
//! - Every DS instruction counts in LGKM_CNT when it issues (`Wave::cnt`, for s_waitcnt).
//! - GDS, GWS, ordered count and the GS streamout registers are not emulated: those instructions
//!   (and any DS instruction with the GDS bit) are `ExecError::Unimplemented`.

#![allow(clippy::needless_range_loop)] // lane loops index several per-lane arrays

use crate::decode::{iflags, opnd, Inst};
use crate::exec::flat::{
    align_mode, dword, memviol, merge_d16_kind, put_lane, store_bytes, write_rows, S_DWORDS,
};
use crate::exec::lds_bytes::{lds_atomic, lds_load, lds_store, lds_store_dwords};
use crate::exec::operand::vdst_in_range;
use crate::exec::{op_name, Ctx, ExecError, Flow, Handler};
use crate::isa::{Fmt, MemKind, Op};
use crate::wave::{Wave, LANES};
use wavesim_core::memory::AtomicOp;

/// the RDNA3 ISA guide's LDS address alignment for an element with local alignment `local` (a power of two).
#[inline]
fn lds_align(mode: u8, lane: usize, addr: u32, local: u32) -> Result<u32, ExecError> {
    match mode {
        align_mode::UNALIGNED => Ok(addr),
        align_mode::DWORD_STRICT if !addr.is_multiple_of(local.min(4)) => Err(memviol(
            lane,
            addr as u64,
            "misaligned LDS access (DWORD_STRICT alignment mode)",
        )),
        align_mode::STRICT if !addr.is_multiple_of(local) => Err(memviol(
            lane,
            addr as u64,
            "misaligned LDS access (STRICT alignment mode)",
        )),
        _ => Ok(addr & !(local - 1)),
    }
}

/// Atomics: the mode's alignment, then the size alignment every mode requires.
#[inline]
fn lds_align_atomic(mode: u8, lane: usize, addr: u32, size: u32) -> Result<u32, ExecError> {
    let a = lds_align(mode, lane, addr, size)?;
    if !a.is_multiple_of(size) {
        return Err(memviol(lane, a as u64, "misaligned LDS atomic"));
    }
    Ok(a)
}

/// Local alignment of an access of `n` bytes (RDNA3 ISA guide, Wave State: B96 and B128 are 16-byte aligned).
const fn local_align(n: usize) -> u32 {
    match n {
        0 | 1 => 1,
        2 => 2,
        3 | 4 => 4,
        5..=8 => 8,
        _ => 16,
    }
}

/// The start of every DS instruction: it counts in LGKM_CNT, the GDS bit is refused (not
/// emulated), and an op returning `dwords` VGPRs (0: none) whose destination is out of range is
/// nullified (RDNA3 ISA guide, Wave State). Ok(false): nullified, nothing more to do.
#[inline]
fn issue(w: &mut Wave, inst: &Inst, dwords: usize) -> Result<bool, ExecError> {
    w.cnt.lgkm_issue();
    if inst.flags & iflags::GDS != 0 {
        return Err(ExecError::Unimplemented {
            name: op_name(inst),
        });
    }
    Ok(dwords == 0 || vdst_in_range(w, inst.dst[0], dwords))
}

#[inline]
fn vreg(code: u16) -> usize {
    (code - opnd::VGPR0) as usize
}

/// The lanes of `exec` among the wave's first `n`, in lane order.
#[inline]
fn active(n: usize, exec: u64) -> impl Iterator<Item = usize> {
    (0..n).filter(move |&l| exec >> l & 1 != 0)
}

/// Every active lane's `J` aligned addresses, all computed before any lane is performed so a
/// MEMVIOL in any lane leaves LDS untouched.
#[inline]
fn plan<const J: usize>(
    w: &Wave,
    exec: u64,
    mut addrs: impl FnMut(usize) -> Result<[u32; J], ExecError>,
) -> Result<[[u32; J]; LANES], ExecError> {
    let mut out = [[0u32; J]; LANES];
    for l in active(w.lanes(), exec) {
        out[l] = addrs(l)?;
    }
    Ok(out)
}

/// The byte offsets of a 2addr op's two elements: offset0 and offset1 (8 bits each) times the
/// element size `E` and `STRIDE` (1, or 64 for the stride64 forms).
#[inline]
fn offsets2<const E: usize, const STRIDE: u32>(inst: &Inst) -> [u32; 2] {
    [
        (inst.imm & 0xff) as u32 * E as u32 * STRIDE,
        (inst.imm >> 8 & 0xff) as u32 * E as u32 * STRIDE,
    ]
}

/// Data VGPR `r` (and `r + 1` when `w64`) of lane `l` as one value.
#[inline]
fn data64(w: &Wave, r: usize, l: usize, w64: bool) -> u64 {
    let lo = w.vgpr_get(r, l) as u64;
    if w64 {
        lo | (w.vgpr_get(r + 1, l) as u64) << 32
    } else {
        lo
    }
}

/// Single-address loads: `N` bytes into `D` VGPRs (d16 forms merge into half the VGPR).
fn ds_load<const K: u8, const N: usize, const D: usize>(
    w: &mut Wave,
    inst: &Inst,
    ctx: &mut Ctx,
) -> Result<Flow, ExecError> {
    if !issue(w, inst, D)? {
        return Ok(Flow::Next);
    }
    let dst = inst.dst[0];
    let exec = w.exec();
    let mode = ctx.alignment_mode;
    let off = (inst.imm & 0xffff) as u32;
    let addr = w.vrow(vreg(inst.src[0]));
    let mut rows = [[0u32; LANES]; D];
    for l in active(w.lanes(), exec) {
        let a = lds_align(mode, l, addr[l].wrapping_add(off), local_align(N))?;
        let b = lds_load::<N>(ctx.lds, a as u64).unwrap_or([0; N]);
        put_lane::<K, N, D>(&mut rows, l, &b);
    }
    merge_d16_kind::<K>(&mut rows[0], w.vrow(vreg(dst)));
    write_rows(w, dst, &rows, exec);
    Ok(Flow::Next)
}

/// Single-address stores of `N` bytes.
fn ds_store<const K: u8, const N: usize>(
    w: &mut Wave,
    inst: &Inst,
    ctx: &mut Ctx,
) -> Result<Flow, ExecError> {
    issue(w, inst, 0)?;
    let exec = w.exec();
    let mode = ctx.alignment_mode;
    let off = (inst.imm & 0xffff) as u32;
    let addr = w.vrow(vreg(inst.src[0]));
    let data = vreg(inst.src[1]);
    let aligned = plan(w, exec, |l| {
        let a = addr[l].wrapping_add(off);
        Ok([lds_align(mode, l, a, local_align(N))?])
    })?;
    // Out-of-range data VGPRs read VGPR0 (RDNA3 ISA guide, Wave State, `Wave::vrow`); dwords out of LDS are dropped.
    let src: [&[u32]; 4] = std::array::from_fn(|k| w.vrow(data + k));
    for l in active(w.lanes(), exec) {
        lds_store_dwords(ctx.lds, aligned[l][0] as u64, &store_bytes::<K, N>(&src, l));
    }
    Ok(Flow::Next)
}

/// `ds_load_2addr[_stride64]_b32/b64`: two elements of `E` bytes at offset0/offset1 * E * STRIDE.
fn ds_load2<const E: usize, const STRIDE: u32>(
    w: &mut Wave,
    inst: &Inst,
    ctx: &mut Ctx,
) -> Result<Flow, ExecError> {
    let dw = E / 4;
    if !issue(w, inst, 2 * dw)? {
        return Ok(Flow::Next);
    }
    let dst = inst.dst[0];
    let exec = w.exec();
    let mode = ctx.alignment_mode;
    let offs = offsets2::<E, STRIDE>(inst);
    let addr = w.vrow(vreg(inst.src[0]));
    let mut rows = [[0u32; LANES]; 4];
    if mode == align_mode::DWORD || mode == align_mode::UNALIGNED {
        // Fast path: in these modes `lds_align` only masks (no MEMVIOL), so every lane is
        // computed without the EXEC test (reads have no side effects; `write_rows` keeps the
        // inactive lanes) and with one range check per element.
        let amask = if mode == align_mode::UNALIGNED {
            !0
        } else {
            !(E as u32 - 1)
        };
        let lds: &[u8] = ctx.lds;
        for l in 0..w.lanes() {
            let a0 = (addr[l].wrapping_add(offs[0]) & amask) as usize;
            let a1 = (addr[l].wrapping_add(offs[1]) & amask) as usize;
            // the RDNA3 ISA guide (Wave State): any part out of range reads zeros for both elements.
            let (Some(b0), Some(b1)) = (lds.get(a0..a0 + E), lds.get(a1..a1 + E)) else {
                continue;
            };
            for k in 0..dw {
                rows[k][l] = dword(b0, k);
                rows[dw + k][l] = dword(b1, k);
            }
        }
        write_rows(w, dst, &rows[..2 * dw], exec);
        return Ok(Flow::Next);
    }
    for l in active(w.lanes(), exec) {
        let a0 = lds_align(mode, l, addr[l].wrapping_add(offs[0]), E as u32)? as u64;
        let a1 = lds_align(mode, l, addr[l].wrapping_add(offs[1]), E as u32)? as u64;
        // the RDNA3 ISA guide (Wave State): a multi-dword read with any part out of range returns zeros for the whole
        // instruction, so both elements are read or neither.
        let (Some(b0), Some(b1)) = (lds_load::<E>(ctx.lds, a0), lds_load::<E>(ctx.lds, a1)) else {
            continue;
        };
        for (j, b) in [b0, b1].iter().enumerate() {
            for k in 0..dw {
                rows[j * dw + k][l] = dword(b, k);
            }
        }
    }
    write_rows(w, dst, &rows[..2 * dw], exec);
    Ok(Flow::Next)
}

/// `ds_store_2addr[_stride64]_b32/b64`: data0 at offset0, data1 at offset1.
fn ds_store2<const E: usize, const STRIDE: u32>(
    w: &mut Wave,
    inst: &Inst,
    ctx: &mut Ctx,
) -> Result<Flow, ExecError> {
    issue(w, inst, 0)?;
    let exec = w.exec();
    let mode = ctx.alignment_mode;
    let offs = offsets2::<E, STRIDE>(inst);
    let addr = w.vrow(vreg(inst.src[0]));
    let aligned = plan(w, exec, |l| {
        let at = |j: usize| lds_align(mode, l, addr[l].wrapping_add(offs[j]), E as u32);
        Ok([at(0)?, at(1)?])
    })?;
    let data = [vreg(inst.src[1]), vreg(inst.src[2])];
    let src: [[&[u32]; 4]; 2] = data.map(|d| std::array::from_fn(|k| w.vrow(d + k)));
    for l in active(w.lanes(), exec) {
        for j in 0..2 {
            let b = store_bytes::<S_DWORDS, E>(&src[j], l);
            lds_store_dwords(ctx.lds, aligned[l][j] as u64, &b);
        }
    }
    Ok(Flow::Next)
}

/// ISA operation of a DS atomic op (the table's `atom` fact; every row this family claims as
/// an atomic has one).
#[inline]
fn ds_atomic_op(op: Op) -> AtomicOp {
    op.facts().atomic.unwrap_or(AtomicOp::Add)
}

/// DS atomics: `MEM = op(MEM, DATA, DATA2)` per lane in lane order; `_rtn_` returns the old value.
fn ds_atomic<const W64: bool, const RTN: bool>(
    w: &mut Wave,
    inst: &Inst,
    ctx: &mut Ctx,
) -> Result<Flow, ExecError> {
    let op = ds_atomic_op(inst.op);
    let dw = if W64 { 2 } else { 1 };
    if !issue(w, inst, if RTN { dw } else { 0 })? {
        return Ok(Flow::Next);
    }
    let dst = inst.dst[0];
    let exec = w.exec();
    let mode = ctx.alignment_mode;
    let off = (inst.imm & 0xffff) as u32;
    let addr = w.vrow(vreg(inst.src[0]));
    let (d0, d1) = (vreg(inst.src[1]), vreg(inst.src[2]));
    let mut rows = [[0u32; LANES]; 2];
    let aligned = plan(w, exec, |l| {
        let a = addr[l].wrapping_add(off);
        Ok([lds_align_atomic(mode, l, a, 4 * dw as u32)?])
    })?;
    for l in active(w.lanes(), exec) {
        let (src, cmp) = (data64(w, d0, l, W64), data64(w, d1, l, W64));
        let old = lds_atomic(ctx.lds, aligned[l][0] as u64, op, src, cmp, W64);
        rows[0][l] = old as u32;
        rows[1][l] = (old >> 32) as u32;
    }
    if RTN {
        write_rows(w, dst, &rows[..dw], exec);
    }
    Ok(Flow::Next)
}

/// `ds_storexchg_2addr[_stride64]_rtn_b32/b64`: two exchanges, both old values returned.
fn ds_xchg2<const E: usize, const STRIDE: u32>(
    w: &mut Wave,
    inst: &Inst,
    ctx: &mut Ctx,
) -> Result<Flow, ExecError> {
    let dw = E / 4;
    if !issue(w, inst, 2 * dw)? {
        return Ok(Flow::Next);
    }
    let dst = inst.dst[0];
    let exec = w.exec();
    let mode = ctx.alignment_mode;
    let offs = offsets2::<E, STRIDE>(inst);
    let addr = w.vrow(vreg(inst.src[0]));
    let data = [vreg(inst.src[1]), vreg(inst.src[2])];
    let mut rows = [[0u32; LANES]; 4];
    let aligned = plan(w, exec, |l| {
        let at = |j: usize| lds_align_atomic(mode, l, addr[l].wrapping_add(offs[j]), E as u32);
        Ok([at(0)?, at(1)?])
    })?;
    for l in active(w.lanes(), exec) {
        for j in 0..2 {
            let v = data64(w, data[j], l, E == 8);
            let old = lds_atomic(ctx.lds, aligned[l][j] as u64, AtomicOp::Xchg, v, 0, E == 8);
            rows[j * dw][l] = old as u32;
            if E == 8 {
                rows[j * dw + 1][l] = (old >> 32) as u32;
            }
        }
    }
    write_rows(w, dst, &rows[..2 * dw], exec);
    Ok(Flow::Next)
}

/// `ds_condxchg32_rtn_b64`: two dwords at `(ADDR + offset) & ~7`; each is replaced by DATA's
/// half with bit 31 cleared when that half's bit 31 is set; both old dwords are returned.
fn ds_condxchg(w: &mut Wave, inst: &Inst, ctx: &mut Ctx) -> Result<Flow, ExecError> {
    if !issue(w, inst, 2)? {
        return Ok(Flow::Next);
    }
    let dst = inst.dst[0];
    let exec = w.exec();
    let off = (inst.imm & 0xffff) as u32;
    let addr = vreg(inst.src[0]);
    let data = vreg(inst.src[1]);
    let mut rows = [[0u32; LANES]; 2];
    for l in active(w.lanes(), exec) {
        let a0 = (w.vgpr_get(addr, l).wrapping_add(off) & !7) as u64;
        for (k, row) in rows.iter_mut().enumerate() {
            let a = a0 + 4 * k as u64;
            let d = w.vgpr_get(data + k, l);
            row[l] = lds_load::<4>(ctx.lds, a).map_or(0, u32::from_le_bytes);
            if d >> 31 != 0 {
                lds_store(ctx.lds, a, &(d & 0x7fff_ffff).to_le_bytes());
            }
        }
    }
    write_rows(w, dst, &rows, exec);
    Ok(Flow::Next)
}

/// `ds_store_addtid_b32` / `ds_load_addtid_b32`: `offset + M0[15:0] + lane * 4`.
fn ds_addtid<const STORE: bool>(
    w: &mut Wave,
    inst: &Inst,
    ctx: &mut Ctx,
) -> Result<Flow, ExecError> {
    if !issue(w, inst, if STORE { 0 } else { 1 })? {
        return Ok(Flow::Next);
    }
    let dst = inst.dst[0];
    let exec = w.exec();
    let mode = ctx.alignment_mode;
    let base = (inst.imm & 0xffff) as u32 + (w.m0() & 0xffff);
    let data = vreg(inst.src[1]);
    let mut row = [[0u32; LANES]; 1];
    let aligned = plan(w, exec, |l| {
        Ok([lds_align(mode, l, base + 4 * l as u32, 4)?])
    })?;
    for l in active(w.lanes(), exec) {
        let a = aligned[l][0] as u64;
        if STORE {
            lds_store(ctx.lds, a, &w.vgpr_get(data, l).to_le_bytes());
        } else {
            row[0][l] = lds_load::<4>(ctx.lds, a).map_or(0, u32::from_le_bytes);
        }
    }
    if !STORE {
        write_rows(w, dst, &row, exec);
    }
    Ok(Flow::Next)
}

/// `ds_append` / `ds_consume`: one atomic add/subtract of popcount(EXEC) at M0[15:0] + offset,
/// the pre-op value broadcast to all active lanes (ISA 16.15).
fn ds_append<const CONSUME: bool>(
    w: &mut Wave,
    inst: &Inst,
    ctx: &mut Ctx,
) -> Result<Flow, ExecError> {
    if !issue(w, inst, 1)? {
        return Ok(Flow::Next);
    }
    let dst = inst.dst[0];
    let exec = w.exec();
    let addr = (w.m0() & 0xffff).wrapping_add((inst.imm & 0xffff) as u32);
    if !addr.is_multiple_of(4) {
        return Err(memviol(
            exec.trailing_zeros() as usize % 64,
            addr as u64,
            "misaligned LDS atomic",
        ));
    }
    let n = exec.count_ones();
    let op = if CONSUME {
        AtomicOp::Sub
    } else {
        AtomicOp::Add
    };
    let old = lds_atomic(ctx.lds, addr as u64, op, n as u64, 0, false) as u32;
    write_rows(w, dst, &[[old; LANES]], exec);
    Ok(Flow::Next)
}

/// `ds_swizzle_b32`: the ISA 16.15 pseudocode (FFT, rotate, quad-permute and bitmask modes), per
/// 32-lane group; a source lane that is not in EXEC gives 0. The data comes from the ADDR VGPR.
fn ds_swizzle(w: &mut Wave, inst: &Inst, _ctx: &mut Ctx) -> Result<Flow, ExecError> {
    if !issue(w, inst, 1)? {
        return Ok(Flow::Next);
    }
    let dst = inst.dst[0];
    let exec = w.exec();
    let off = (inst.imm & 0xffff) as u32;
    let src = w.vrow(vreg(inst.src[0]));
    let mut out = [0u32; LANES];
    for (i, o) in out.iter_mut().enumerate().take(w.lanes()) {
        let i32_ = i as u32;
        let j = if off >= 0xe000 {
            let mask = off & 0x1f;
            let mut j = (i32_ & 0x1f).reverse_bits() >> 27;
            j >>= mask.count_ones();
            j | (i32_ & mask) | (i32_ & 0x20)
        } else if off >= 0xc000 {
            let mask = off & 0x1f;
            let mut rot = (off >> 5) & 0x1f;
            if off & (1 << 10) != 0 {
                rot = rot.wrapping_neg();
            }
            ((i32_ & mask) | (i32_.wrapping_add(rot) & !mask)) & 0x1f | (i32_ & 0x20)
        } else if off & 0x8000 != 0 {
            (i32_ & !3) | (off >> (2 * (i32_ & 3)) & 3)
        } else {
            let and = off & 0x1f;
            let or = (off >> 5) & 0x1f;
            let xor = (off >> 10) & 0x1f;
            ((((i32_ & 0x1f) & and) | or) ^ xor) | (i32_ & 0x20)
        } as usize;
        *o = if exec >> j & 1 != 0 { src[j] } else { 0 };
    }
    write_rows(w, dst, &[out], exec);
    Ok(Flow::Next)
}

/// The source/destination lane a permute address selects: `(addr + offset) / 4 mod 32`, within the
/// lane's own 32-lane half (ISA 16.15: "destination lane is MOD 32 regardless of wave size"; a
/// wave64 DS instruction is issued per half, the RDNA3 ISA guide (Shader Concepts)).
#[inline]
fn perm_lane(i: usize, addr: u32, off: u32) -> usize {
    (i & 32) | ((addr.wrapping_add(off) / 4) % 32) as usize
}

/// `ds_permute_b32` (forward: lane i sends DATA0 to lane addr/4) and `ds_bpermute_b32` (backward:
/// lane i reads DATA0 of lane addr/4). EXEC applies to sources and destinations; lanes nobody
/// writes (permute) or whose source is inactive (bpermute) get 0; the highest source lane wins.
fn ds_permute<const BACK: bool>(
    w: &mut Wave,
    inst: &Inst,
    _ctx: &mut Ctx,
) -> Result<Flow, ExecError> {
    if !issue(w, inst, 1)? {
        return Ok(Flow::Next);
    }
    let dst = inst.dst[0];
    let exec = w.exec();
    let off = (inst.imm & 0xffff) as u32;
    let addr = w.vrow(vreg(inst.src[0]));
    let data = w.vrow(vreg(inst.src[1]));
    let mut tmp = [0u32; LANES];
    for i in 0..w.lanes() {
        let j = perm_lane(i, addr[i], off);
        if BACK {
            if exec >> j & 1 != 0 {
                tmp[i] = data[j];
            }
        } else if exec >> i & 1 != 0 {
            tmp[j] = data[i];
        }
    }
    write_rows(w, dst, &[tmp], exec);
    Ok(Flow::Next)
}

fn ds_nop(w: &mut Wave, _: &Inst, _: &mut Ctx) -> Result<Flow, ExecError> {
    w.cnt.lgkm_issue();
    Ok(Flow::Next)
}

/// GDS/GWS/ordered-count/GS-register and BVH-stack instructions: not emulated.
fn not_emulated(_: &mut Wave, inst: &Inst, _: &mut Ctx) -> Result<Flow, ExecError> {
    Err(ExecError::Unimplemented {
        name: op_name(inst),
    })
}

/// The ops of this family, from their table facts. GDS/GWS, ordered count, the GS registers
/// (`MemKind::Gds`) and the BVH stack (`MemKind::BvhStack`) are claimed by `not_emulated`:
/// they end the dispatch with `ExecError::Unimplemented` (tests/coverage.rs lists the reasons).
pub fn handler(op: Op) -> Option<Handler> {
    if op.fmt() != Fmt::Ds {
        return None;
    }
    let f = op.facts();
    let h: Handler = match op {
        Op::DS_CONDXCHG32_RTN_B64 => ds_condxchg,
        Op::DS_APPEND => ds_append::<false>,
        Op::DS_CONSUME => ds_append::<true>,
        Op::DS_SWIZZLE_B32 => ds_swizzle,
        Op::DS_PERMUTE_B32 => ds_permute::<false>,
        Op::DS_BPERMUTE_B32 => ds_permute::<true>,
        Op::DS_NOP => ds_nop,
        _ if f.addtid => match f.mem {
            MemKind::Load => ds_addtid::<false>,
            MemKind::Store => ds_addtid::<true>,
            _ => return None,
        },
        _ => match (f.mem, f.bytes, f.st64) {
            (MemKind::Gds | MemKind::BvhStack, _, _) => not_emulated,
            (MemKind::Load2, 4, false) => ds_load2::<4, 1>,
            (MemKind::Load2, 4, true) => ds_load2::<4, 64>,
            (MemKind::Load2, 8, false) => ds_load2::<8, 1>,
            (MemKind::Load2, 8, true) => ds_load2::<8, 64>,
            (MemKind::Store2, 4, false) => ds_store2::<4, 1>,
            (MemKind::Store2, 4, true) => ds_store2::<4, 64>,
            (MemKind::Store2, 8, false) => ds_store2::<8, 1>,
            (MemKind::Store2, 8, true) => ds_store2::<8, 64>,
            (MemKind::Xchg2, 4, false) => ds_xchg2::<4, 1>,
            (MemKind::Xchg2, 4, true) => ds_xchg2::<4, 64>,
            (MemKind::Xchg2, 8, false) => ds_xchg2::<8, 1>,
            (MemKind::Xchg2, 8, true) => ds_xchg2::<8, 64>,
            (MemKind::AtomicNoRtn | MemKind::AtomicRtn, bytes, _) if f.atomic.is_some() => {
                match (bytes == 8, f.mem == MemKind::AtomicRtn) {
                    (false, false) => ds_atomic::<false, false>,
                    (false, true) => ds_atomic::<false, true>,
                    (true, false) => ds_atomic::<true, false>,
                    (true, true) => ds_atomic::<true, true>,
                }
            }
            _ => return crate::exec::flat::load_store_handler!(f, ds_load, ds_store),
        },
    };
    Some(h)
}
