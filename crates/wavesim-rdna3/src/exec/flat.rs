//! FLAT, GLOBAL and SCRATCH memory instructions (RDNA3 ISA chapter 11, "Global, Scratch and Flat
//! Address Space").
//!
//! Addressing (ISA 11.2, one address per lane):
//! - GLOBAL: `saddr == NULL` ("off"): 64-bit VGPR pair + imm13 (signed); otherwise SGPR pair +
//!   32-bit unsigned VGPR offset + imm13. `*_addtid_b32`: SGPR pair + imm[11:0] + lane * 4.
//! - SCRATCH: private offset = (SVE ? VGPR : 0) + (saddr ? SGPR : 0) + imm13 (saddr NULL or 0x7f is
//!   "off", `decode::scratch_saddr`), which must
//!   not be negative, then swizzled into the wave's scratch memory (see [`private_addr`]).
//! - FLAT: 64-bit VGPR address classified by aperture, ignoring the offset (imm[11:0]; bit 12 is
//!   ignored for FLAT): `[SHARED_APERTURE, +4 GiB)` is LDS at `addr + offset - SHARED_APERTURE`
//!   (the RDNA3 ISA guide's LDS out-of-range rules apply), `[PRIVATE_APERTURE, +4 GiB)` is scratch at private
//!   offset `addr + offset - PRIVATE_APERTURE`, anything else is global memory.
//!
//! Alignment follows SH_MEM_CONFIG.alignment_mode (RDNA3 ISA guide, Buffer Instructions, "Alignment"; `ExecConfig`): DWORD
//! clears the address bits below min(size, 4), DWORD_STRICT / STRICT raise MEMVIOL for addresses
//! not aligned to min(size, 4) / the access size, UNALIGNED accepts any address. Atomics must be
//! aligned to their size in every mode (MEMVIOL otherwise), reported as `ExecError::MemViol`.
//!
//! A global or scratch access outside every allocation (or outside the lane's private segment) is
//! `ExecError::MemoryFault` naming the lane and address: the sandbox never lets guest code reach
//! anything else. Both errors enter the trap handler instead when one is installed
//! (the step loop (`exec::memory_exception`), TRAPSTS.MEM_VIOL). Every active lane is aligned and translated before any lane
//! is performed, so a faulting instruction has no partial effect. A load or returning atomic
//! whose destination VGPRs are out of range is nullified before any memory is touched (RDNA3 ISA guide, Wave State,
//! "Memory, LDS and GDS: reads and atomics with return").
//!
//! Counters: loads and returning atomics count in VM_CNT, stores and other atomics in VS_CNT,
//! FLAT additionally in LGKM_CNT (`Wave::cnt`).

#![allow(clippy::needless_range_loop)] // lane loops index several per-lane arrays

use crate::decode::{iflags, opnd, scratch_saddr, Inst};
use crate::exec::lds_bytes::{lds_atomic, lds_load, lds_store_dwords};
use crate::exec::operand::{read_sgpr, vdst_in_range, PRIVATE_APERTURE, SHARED_APERTURE};
use crate::exec::{op_name, Ctx, ExecError, Flow, Handler};
use crate::isa::{Fmt, MemKind, Op};
use crate::wave::{Wave, LANES};
use wavesim_core::memory::{apply32, apply64, AtomicOp, DeviceMemory, MemError, Region};

/// SH_MEM_CONFIG.alignment_mode values (RDNA3 ISA guide, Buffer Instructions, "Alignment").
pub mod align_mode {
    /// Addresses are forced to min(access size, 4)-byte alignment by clearing low bits.
    pub const DWORD: u8 = 0;
    /// Addresses not aligned to min(access size, 4) raise MEMVIOL.
    pub const DWORD_STRICT: u8 = 1;
    /// Addresses not aligned to the access size raise MEMVIOL.
    pub const STRICT: u8 = 2;
    /// Any alignment is accepted (what amdgpu programs for gfx11 compute queues).
    pub const UNALIGNED: u8 = 3;
}

const FLAT: u8 = 0;
const SCRATCH: u8 = 1;
const GLOBAL: u8 = 2;

/// Size of the LDS and private apertures.
const APERTURE: u64 = 1 << 32;

/// Device address of private (scratch) byte `offset` of `lane`.
///
/// ISA 11.2/11.3: scratch is swizzled with element size 4 and index stride = wave size, i.e.
/// `FLAT_SCRATCH + (offset / 4) * 4 * wave_size + lane * 4 + offset % 4`: consecutive dwords of one
/// lane are `4 * wave_size` bytes apart and the lanes' dwords are interleaved. A wave's scratch is
/// therefore `wave_size * scratch_lane_bytes` bytes at `wave.scratch_base` (which the dispatcher
/// also writes to FLAT_SCRATCH, see [`init_flat_scratch`]).
#[inline]
pub fn private_addr(w: &Wave, lane: usize, offset: u64) -> u64 {
    let lanes = w.lanes() as u64;
    w.scratch_base
        .wrapping_add((offset / 4) * 4 * lanes)
        .wrapping_add(lane as u64 * 4 + offset % 4)
}

/// Initialises FLAT_SCRATCH from the wave's scratch base (RDNA3 ISA guide, Wave State, "FLAT_SCRATCH
/// initialization": zero when the wave has no scratch).
pub fn init_flat_scratch(w: &mut Wave) {
    let base = if w.scratch_lane_bytes == 0 {
        0
    } else {
        w.scratch_base
    };
    w.hw.flat_scratch_lo = base as u32;
    w.hw.flat_scratch_hi = (base >> 32) as u32;
}

/// Where one lane's access goes.
#[derive(Clone, Copy, Debug)]
enum Target {
    Global(u64),
    /// LDS byte address (may be out of range: the RDNA3 ISA guide's LDS rules then apply).
    Lds(u64),
    /// Offset in the lane's private segment.
    Private(u64),
}

impl Target {
    #[inline]
    fn map(self, f: impl Fn(u64) -> u64) -> Target {
        match self {
            Target::Global(a) => Target::Global(f(a)),
            Target::Lds(a) => Target::Lds(f(a)),
            Target::Private(a) => Target::Private(f(a)),
        }
    }

    #[inline]
    fn raw(self) -> u64 {
        match self {
            Target::Global(a) | Target::Lds(a) | Target::Private(a) => a,
        }
    }
}

/// Allocation lookups of one memory instruction (FLAT/GLOBAL/SCRATCH here, buffers in
/// `exec::buffer`): the last allocation hit is tried first, so a wave whose lanes all hit one
/// buffer costs one bounds check per lane, and a miss is a `MemoryFault` naming the instruction.
pub(crate) struct Regions<'a> {
    mem: &'a DeviceMemory,
    last: Option<&'a Region>,
    name: &'static str,
}

impl<'a> Regions<'a> {
    pub(crate) fn new(mem: &'a DeviceMemory, inst: &Inst) -> Regions<'a> {
        Regions {
            mem,
            last: None,
            name: op_name(inst),
        }
    }

    /// The allocation holding `[addr, addr + n)`, or the fault of `lane`.
    #[inline]
    pub(crate) fn region(
        &mut self,
        lane: usize,
        addr: u64,
        n: u64,
    ) -> Result<&'a Region, ExecError> {
        if let Some(r) = self.last {
            if r.contains(addr, n) {
                return Ok(r);
            }
        }
        match self.mem.find(addr, n) {
            Ok(r) => {
                self.last = Some(r);
                Ok(r)
            }
            Err(_) => Err(self.fault(lane, addr, n)),
        }
    }

    pub(crate) fn fault(&self, lane: usize, addr: u64, n: u64) -> ExecError {
        ExecError::MemoryFault {
            lane: lane as u32,
            addr,
            size: n as u32,
            kind: self.name,
        }
    }
}

/// FLAT and SCRATCH accesses through the allocation cache: private-segment translation and the
/// per-target reads, writes and probes.
impl Regions<'_> {
    /// Device address of private offset `off`..`off + n` of `lane`, checked against the lane's
    /// private segment (hardware does no range check; the sandbox faults instead of touching
    /// another wave's scratch).
    #[inline]
    fn private(&self, w: &Wave, lane: usize, off: u64, n: u64) -> Result<u64, ExecError> {
        if off
            .checked_add(n)
            .is_none_or(|e| e > w.scratch_lane_bytes as u64)
        {
            return Err(self.fault(lane, PRIVATE_APERTURE.wrapping_add(off), n));
        }
        Ok(private_addr(w, lane, off))
    }

    #[inline]
    fn read<const N: usize>(
        &mut self,
        w: &Wave,
        lds: &[u8],
        lane: usize,
        t: Target,
    ) -> Result<[u8; N], ExecError> {
        match t {
            Target::Global(a) => {
                let r = self.region(lane, a, N as u64)?;
                r.load::<N>(a).ok_or_else(|| self.fault(lane, a, N as u64))
            }
            Target::Lds(a) => Ok(lds_load::<N>(lds, a).unwrap_or([0; N])),
            Target::Private(off) => {
                self.private(w, lane, off, N as u64)?;
                let mut out = [0u8; N];
                if off % 4 == 0 && N.is_multiple_of(4) {
                    // Whole dwords: one translation each (they are 4 * wave_size bytes apart).
                    for k in (0..N).step_by(4) {
                        let a = private_addr(w, lane, off + k as u64);
                        let r = self.region(lane, a, 4)?;
                        let b = r.load::<4>(a).ok_or_else(|| self.fault(lane, a, 4))?;
                        out[k..k + 4].copy_from_slice(&b);
                    }
                } else {
                    for (k, o) in out.iter_mut().enumerate() {
                        let a = private_addr(w, lane, off + k as u64);
                        let r = self.region(lane, a, 1)?;
                        *o = r.load::<1>(a).ok_or_else(|| self.fault(lane, a, 1))?[0];
                    }
                }
                Ok(out)
            }
        }
    }

    #[inline]
    fn write<const N: usize>(
        &mut self,
        w: &Wave,
        lds: &mut [u8],
        lane: usize,
        t: Target,
        bytes: [u8; N],
    ) -> Result<(), ExecError> {
        match t {
            Target::Global(a) => {
                let r = self.region(lane, a, N as u64)?;
                r.store::<N>(a, bytes);
            }
            Target::Lds(a) => lds_store_dwords(lds, a, &bytes),
            Target::Private(off) => {
                self.private(w, lane, off, N as u64)?;
                if off % 4 == 0 && N.is_multiple_of(4) {
                    for k in (0..N).step_by(4) {
                        let a = private_addr(w, lane, off + k as u64);
                        let r = self.region(lane, a, 4)?;
                        r.store::<4>(a, [bytes[k], bytes[k + 1], bytes[k + 2], bytes[k + 3]]);
                    }
                } else {
                    for (k, b) in bytes.iter().enumerate() {
                        let a = private_addr(w, lane, off + k as u64);
                        let r = self.region(lane, a, 1)?;
                        r.store::<1>(a, [*b]);
                    }
                }
            }
        }
        Ok(())
    }

    /// Checks that a write of `N` bytes to `t` by `lane` would succeed, doing the same
    /// translations as [`Regions::write`] without writing (the first pass of a store, so a faulting
    /// instruction has no effect at all).
    #[inline]
    fn probe<const N: usize>(&mut self, w: &Wave, lane: usize, t: Target) -> Result<(), ExecError> {
        match t {
            Target::Global(a) => {
                self.region(lane, a, N as u64)?;
            }
            Target::Lds(_) => {}
            Target::Private(off) => {
                self.private(w, lane, off, N as u64)?;
                let step = if off % 4 == 0 && N.is_multiple_of(4) {
                    4
                } else {
                    1
                };
                for k in (0..N).step_by(step) {
                    let a = private_addr(w, lane, off + k as u64);
                    self.region(lane, a, step as u64)?;
                }
            }
        }
        Ok(())
    }
}

/// Applies the alignment mode to one lane's address for an access of `size` bytes.
#[inline]
fn align(mode: u8, lane: usize, t: Target, size: u64, atomic: bool) -> Result<Target, ExecError> {
    let a = align_addr(mode, lane, t.raw(), size)?;
    // the RDNA3 ISA guide (Wave State, Buffer Instructions): atomics must be aligned to their data size in every mode.
    if atomic && !a.is_multiple_of(size) {
        return Err(memviol(lane, a, "misaligned atomic"));
    }
    Ok(t.map(|_| a))
}

/// The address an access of `size` bytes uses under alignment `mode` (or MEMVIOL).
#[inline(always)]
fn align_addr(mode: u8, lane: usize, a: u64, size: u64) -> Result<u64, ExecError> {
    let small = size.min(4);
    match mode {
        align_mode::UNALIGNED => Ok(a),
        align_mode::DWORD => Ok(a & !(small - 1)),
        align_mode::DWORD_STRICT if !a.is_multiple_of(small) => Err(memviol(
            lane,
            a,
            "misaligned access (DWORD_STRICT alignment mode)",
        )),
        align_mode::STRICT if !a.is_multiple_of(size.next_power_of_two()) => Err(memviol(
            lane,
            a,
            "misaligned access (STRICT alignment mode)",
        )),
        _ => Ok(a),
    }
}

/// GLOBAL addresses of every lane (the fast path skips the per-lane aperture `Target`).
#[inline(always)]
fn global_addrs(w: &Wave, inst: &Inst, out: &mut [u64; LANES]) {
    let vaddr = (inst.src[0] - opnd::VGPR0) as usize;
    let saddr = inst.src[2];
    let lo = w.vrow(vaddr);
    let imm = inst.imm as i64 as u64;
    // The wave's lanes only (callers look at no others).
    let n = w.lanes();
    if saddr == opnd::NULL {
        let hi = w.vrow(vaddr + 1);
        for ((o, &lo), &hi) in out[..n].iter_mut().zip(&lo[..n]).zip(&hi[..n]) {
            *o = (lo as u64 | (hi as u64) << 32).wrapping_add(imm);
        }
    } else {
        let base = sbase64(w, saddr).wrapping_add(imm);
        for (o, &lo) in out[..n].iter_mut().zip(&lo[..n]) {
            *o = base.wrapping_add(lo as u64);
        }
    }
}

/// Where the active lanes' GLOBAL accesses go, found and checked before any lane is performed.
// Lives on the stack for one instruction; boxing the per-lane table would allocate.
#[allow(clippy::large_enum_variant)]
enum Plan<'m> {
    /// Every active lane's access lies in this allocation.
    One(&'m Region),
    /// The allocation of each active lane (the lanes hit several allocations).
    PerLane([Option<&'m Region>; LANES]),
}

impl<'m> Plan<'m> {
    /// Runs `f` for every active lane with its allocation, in lane order (the plan is matched
    /// once, outside the lane loops).
    #[inline(always)]
    fn each(
        &self,
        exec: u64,
        lanes: usize,
        mut f: impl FnMut(usize, &'m Region) -> Result<(), ExecError>,
    ) -> Result<(), ExecError> {
        match self {
            Plan::One(r) => {
                for l in 0..lanes {
                    if exec >> l & 1 != 0 {
                        f(l, r)?;
                    }
                }
            }
            Plan::PerLane(regs) => {
                for l in 0..lanes {
                    if let Some(r) = regs[l] {
                        f(l, r)?;
                    }
                }
            }
        }
        Ok(())
    }
}

/// Applies the alignment mode to every lane's GLOBAL address (`addrs`, in place) and finds the
/// allocation of each active lane's access of `n` bytes, or the MEMVIOL / fault of the lowest
/// failing lane. Nothing is accessed here, so callers perform side effects only once every lane
/// is known to succeed: a faulting store or atomic has no partial effect.
///
/// Fast path: one OR over the lanes shows that no address is misaligned and one lookup of the
/// span `[min address, max address + n)` finds a single allocation holding every lane.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn plan_global<'m>(
    mem: &'m DeviceMemory,
    inst: &Inst,
    mode: u8,
    exec: u64,
    lanes: usize,
    addrs: &mut [u64; LANES],
    n: u64,
    atomic: bool,
) -> Result<Plan<'m>, ExecError> {
    if mode == align_mode::DWORD {
        let m = !(n.min(4) - 1);
        for a in addrs.iter_mut() {
            *a &= m;
        }
    }
    // Address bits that must be zero (MEMVIOL otherwise), see `align_addr`.
    let mut must_zero = match mode {
        align_mode::DWORD_STRICT => n.min(4) - 1,
        align_mode::STRICT => n.next_power_of_two() - 1,
        _ => 0,
    };
    if atomic {
        must_zero |= n - 1;
    }
    let (mut lo, mut hi, mut bits) = (u64::MAX, 0u64, 0u64);
    if exec == u64::MAX >> (64 - lanes) {
        for &a in &addrs[..lanes] {
            lo = lo.min(a);
            hi = hi.max(a);
            bits |= a;
        }
    } else {
        for l in 0..lanes {
            if exec >> l & 1 != 0 {
                let a = addrs[l];
                lo = lo.min(a);
                hi = hi.max(a);
                bits |= a;
            }
        }
    }
    if exec == 0 {
        return Ok(Plan::PerLane([None; LANES]));
    }
    if bits & must_zero == 0 {
        if let Some(len) = (hi - lo).checked_add(n) {
            if let Ok(r) = mem.find(lo, len) {
                return Ok(Plan::One(r));
            }
        }
    }
    // Lane by lane, so the error names the lowest failing lane.
    let mut regs = [None; LANES];
    let mut cache = Regions::new(mem, inst);
    for l in 0..lanes {
        if exec >> l & 1 == 0 {
            continue;
        }
        // In place already for DWORD, where `align_addr` is idempotent.
        let a = align_addr(mode, l, addrs[l], n)?;
        if atomic && !a.is_multiple_of(n) {
            return Err(memviol(l, a, "misaligned atomic"));
        }
        regs[l] = Some(cache.region(l, a, n)?);
    }
    Ok(Plan::PerLane(regs))
}

/// Counts an issued instruction of segment `SEG` for s_waitcnt: loads and returning atomics in
/// VM_CNT, stores and other atomics in VS_CNT; FLAT also in LGKM_CNT, as it may reach LDS (RDNA3
/// ISA 11, "Data dependencies"). Nullified and EXEC = 0 instructions still issue and count.
#[inline(always)]
fn count<const SEG: u8>(w: &mut Wave, returns: bool) {
    if returns {
        w.cnt.vm_issue();
    } else {
        w.cnt.vs_issue();
    }
    if SEG == FLAT {
        w.cnt.lgkm_issue();
    }
}

/// Little-endian dword `k` of loaded bytes.
#[inline(always)]
pub(crate) fn dword(b: &[u8], k: usize) -> u32 {
    u32::from_le_bytes([b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]])
}

/// Places one lane's loaded bytes into the result rows (shared with the DS loads).
#[inline(always)]
pub(crate) fn put_lane<const K: u8, const N: usize, const D: usize>(
    rows: &mut [[u32; LANES]; D],
    l: usize,
    b: &[u8; N],
) {
    if N >= 4 {
        for k in 0..D {
            rows[k][l] = dword(b, k);
        }
    } else {
        rows[0][l] = extend::<K>(b);
    }
}

/// D16 loads write half of the destination VGPR: the loaded 16 bits go to the high half (`hi`)
/// or the low half, and the other half keeps its `old` value (ISA 11.1 / 16.15 "D16" loads).
#[inline(always)]
pub(crate) fn merge_d16(row: &mut [u32; LANES], old: &[u32], hi: bool) {
    for (r, &o) in row.iter_mut().zip(old) {
        *r = if hi {
            (o & 0xffff) | (*r << 16)
        } else {
            (o & 0xffff_0000) | (*r & 0xffff)
        };
    }
}

/// Merges a d16 load of kind `K` into the destination's `old` row (no-op for the other kinds).
#[inline(always)]
pub(crate) fn merge_d16_kind<const K: u8>(row: &mut [u32; LANES], old: &[u32]) {
    if matches!(K, L_D16_U8 | L_D16_I8 | L_D16_B16) {
        merge_d16(row, old, false);
    } else if matches!(K, L_D16_HI_U8 | L_D16_HI_I8 | L_D16_HI_B16) {
        merge_d16(row, old, true);
    }
}

pub(crate) fn memviol(lane: usize, addr: u64, why: &'static str) -> ExecError {
    ExecError::MemViol {
        lane: lane as u32,
        addr,
        why,
    }
}

fn fault(inst: &Inst, lane: usize, addr: u64, n: u64) -> ExecError {
    ExecError::MemoryFault {
        lane: lane as u32,
        addr,
        size: n as u32,
        kind: op_name(inst),
    }
}

/// 64-bit scalar base of GLOBAL saddr (an aligned SGPR pair; NULL reads 0).
#[inline]
fn sbase64(w: &Wave, code: u16) -> u64 {
    let c = code & !1;
    read_sgpr(w, c) as u64 | (read_sgpr(w, c + 1) as u64) << 32
}

/// Computes every lane's target (all lanes, so the loop has no EXEC branches).
#[inline]
fn targets<const SEG: u8>(
    w: &Wave,
    inst: &Inst,
    out: &mut [Target; LANES],
) -> Result<(), ExecError> {
    let vaddr = (inst.src[0] - opnd::VGPR0) as usize;
    let saddr = inst.src[2];
    let lo = w.vrow(vaddr);
    match SEG {
        GLOBAL => {
            let imm = inst.imm as i64 as u64;
            if saddr == opnd::NULL {
                let hi = w.vrow(vaddr + 1);
                for l in 0..LANES {
                    let a = lo[l] as u64 | (hi[l] as u64) << 32;
                    out[l] = Target::Global(a.wrapping_add(imm));
                }
            } else {
                let base = sbase64(w, saddr).wrapping_add(imm);
                for l in 0..LANES {
                    out[l] = Target::Global(base.wrapping_add(lo[l] as u64));
                }
            }
        }
        SCRATCH => {
            // SADDR 0x7f is "off" too (see `decode::scratch_saddr`).
            let soff = scratch_saddr(inst).map_or(0, |s| read_sgpr(w, s) as i64);
            let base = soff + inst.imm as i64;
            let sve = inst.flags & iflags::SVE != 0;
            for l in 0..LANES {
                let v = if sve { lo[l] as i64 } else { 0 };
                // ISA 11.2: the combined offset must not be negative; a negative one is outside
                // the private segment, which `Regions::private` reports as a fault.
                out[l] = Target::Private((base + v) as u64);
            }
        }
        _ => {
            // FLAT: the offset MSB is ignored (ISA 11.1 instruction fields).
            let imm = (inst.imm & 0xfff) as u64;
            let hi = w.vrow(vaddr + 1);
            for l in 0..LANES {
                let a = lo[l] as u64 | (hi[l] as u64) << 32;
                out[l] = if a.wrapping_sub(SHARED_APERTURE) < APERTURE {
                    Target::Lds(a - SHARED_APERTURE + imm)
                } else if a.wrapping_sub(PRIVATE_APERTURE) < APERTURE {
                    Target::Private(a - PRIVATE_APERTURE + imm)
                } else {
                    Target::Global(a.wrapping_add(imm))
                };
            }
        }
    }
    Ok(())
}

// Load kinds: what is read and how it lands in the destination VGPR(s).
pub(crate) const L_U8: u8 = 0;
pub(crate) const L_I8: u8 = 1;
pub(crate) const L_U16: u8 = 2;
pub(crate) const L_I16: u8 = 3;
pub(crate) const L_B32: u8 = 4;
pub(crate) const L_B64: u8 = 5;
pub(crate) const L_B96: u8 = 6;
pub(crate) const L_B128: u8 = 7;
pub(crate) const L_D16_U8: u8 = 8;
pub(crate) const L_D16_I8: u8 = 9;
pub(crate) const L_D16_B16: u8 = 10;
pub(crate) const L_D16_HI_U8: u8 = 11;
pub(crate) const L_D16_HI_I8: u8 = 12;
pub(crate) const L_D16_HI_B16: u8 = 13;

/// The 32-bit value a sub-dword load produces (d16 forms: the 16-bit half, merged later).
#[inline]
fn extend<const K: u8>(b: &[u8]) -> u32 {
    match K {
        L_U8 | L_D16_U8 | L_D16_HI_U8 => b[0] as u32,
        L_I8 => b[0] as i8 as i32 as u32,
        L_D16_I8 | L_D16_HI_I8 => b[0] as i8 as i16 as u16 as u32,
        L_U16 | L_D16_B16 | L_D16_HI_B16 => u16::from_le_bytes([b[0], b[1]]) as u32,
        L_I16 => i16::from_le_bytes([b[0], b[1]]) as i32 as u32,
        _ => u32::from_le_bytes([b[0], b[1], b[2], b[3]]),
    }
}

/// Writes `rows` to VGPRs starting at `dst` in the lanes of `mask` (range checked by the caller;
/// shared by the FLAT, DS and buffer loads).
#[inline]
pub(crate) fn write_rows(w: &mut Wave, dst: u16, rows: &[[u32; LANES]], mask: u64) {
    let base = (dst - opnd::VGPR0) as usize;
    let full = mask == w.lane_mask();
    let n = w.lanes();
    for (k, vals) in rows.iter().enumerate() {
        let Some(row) = w.vrow_mut(base + k) else {
            return;
        };
        if full {
            row[..n].copy_from_slice(&vals[..n]);
        } else {
            for l in 0..n {
                if mask >> l & 1 != 0 {
                    row[l] = vals[l];
                }
            }
        }
    }
}

/// `*_load_*`: `N` bytes per lane into `D` VGPRs.
fn load<const SEG: u8, const K: u8, const N: usize, const D: usize>(
    w: &mut Wave,
    inst: &Inst,
    ctx: &mut Ctx,
) -> Result<Flow, ExecError> {
    count::<SEG>(w, true);
    let dst = inst.dst[0];
    if !vdst_in_range(w, dst, D) {
        return Ok(Flow::Next);
    }
    let exec = w.exec();
    let mode = ctx.alignment_mode;
    let mut rows = [[0u32; LANES]; D];
    if SEG == GLOBAL {
        // Fast path: every lane checked at once, then one host load per lane.
        let mut addrs = [0u64; LANES];
        global_addrs(w, inst, &mut addrs);
        let lanes = w.lanes();
        let n = N as u64;
        let plan = plan_global(ctx.mem, inst, mode, exec, lanes, &mut addrs, n, false)?;
        // Dword loads from one allocation with aligned addresses (the common case): one host
        // load per lane and dword, straight into the rows.
        let fast = matches!(K, L_B32 | L_B64 | L_B96 | L_B128)
            && match &plan {
                Plan::One(r) => (0..D).all(|k| {
                    r.load_u32_lanes(&addrs[..lanes], exec, 4 * k as u64, &mut rows[k][..lanes])
                }),
                Plan::PerLane(_) => false,
            };
        if !fast {
            plan.each(exec, lanes, |l, r| {
                let b = r
                    .load::<N>(addrs[l])
                    .ok_or_else(|| fault(inst, l, addrs[l], n))?;
                put_lane::<K, N, D>(&mut rows, l, &b);
                Ok(())
            })?;
        }
    } else {
        let mut t = [Target::Global(0); LANES];
        targets::<SEG>(w, inst, &mut t)?;
        let mut m = Regions::new(ctx.mem, inst);
        for l in 0..w.lanes() {
            if exec >> l & 1 == 0 {
                continue;
            }
            let tl = align(mode, l, t[l], N as u64, false)?;
            let b = m.read::<N>(w, ctx.lds, l, tl)?;
            put_lane::<K, N, D>(&mut rows, l, &b);
        }
    }
    merge_d16_kind::<K>(&mut rows[0], w.vrow((dst - opnd::VGPR0) as usize));
    write_rows(w, dst, &rows, exec);
    Ok(Flow::Next)
}

// Store kinds.
pub(crate) const S_B8: u8 = 0;
pub(crate) const S_B16: u8 = 1;
pub(crate) const S_DWORDS: u8 = 2;
pub(crate) const S_HI_B8: u8 = 3;
pub(crate) const S_HI_B16: u8 = 4;

/// The `N` bytes lane `l` stores from the data VGPR rows `src` (an out-of-range data VGPR
/// reads VGPR0, the RDNA3 ISA guide (Wave State), which `Wave::vrow` provides).
#[inline(always)]
pub(crate) fn store_bytes<const K: u8, const N: usize>(src: &[&[u32]; 4], l: usize) -> [u8; N] {
    let mut b = [0u8; N];
    if K == S_DWORDS {
        for k in 0..N / 4 {
            b[4 * k..4 * k + 4].copy_from_slice(&src[k][l].to_le_bytes());
        }
    } else {
        let v = src[0][l];
        let v = if matches!(K, S_HI_B8 | S_HI_B16) {
            v >> 16
        } else {
            v
        };
        b.copy_from_slice(&v.to_le_bytes()[..N]);
    }
    b
}

/// `*_store_*`: `N` bytes per lane from the data VGPR(s). Every lane's address is aligned and
/// translated before the first byte is written, so a store that faults in any lane writes
/// nothing.
fn store<const SEG: u8, const K: u8, const N: usize>(
    w: &mut Wave,
    inst: &Inst,
    ctx: &mut Ctx,
) -> Result<Flow, ExecError> {
    count::<SEG>(w, false);
    let exec = w.exec();
    let mode = ctx.alignment_mode;
    let lanes = w.lanes();
    let data = (inst.src[1] - opnd::VGPR0) as usize;
    let src: [&[u32]; 4] = std::array::from_fn(|k| w.vrow(data + k));
    if SEG == GLOBAL {
        let mut addrs = [0u64; LANES];
        global_addrs(w, inst, &mut addrs);
        let plan = plan_global(
            ctx.mem, inst, mode, exec, lanes, &mut addrs, N as u64, false,
        )?;
        // A one-dword store from one allocation with aligned addresses: one host store per
        // lane (the check of every lane comes first, so nothing is written if one fails).
        if K == S_DWORDS && N == 4 {
            if let Plan::One(r) = &plan {
                if r.store_u32_lanes(&addrs[..lanes], exec, 0, &src[0][..lanes]) {
                    return Ok(Flow::Next);
                }
            }
        }
        plan.each(exec, lanes, |l, r| {
            r.store::<N>(addrs[l], store_bytes::<K, N>(&src, l));
            Ok(())
        })?;
        return Ok(Flow::Next);
    }
    let mut t = [Target::Global(0); LANES];
    targets::<SEG>(w, inst, &mut t)?;
    let mut m = Regions::new(ctx.mem, inst);
    for l in 0..lanes {
        if exec >> l & 1 != 0 {
            t[l] = align(mode, l, t[l], N as u64, false)?;
            m.probe::<N>(w, l, t[l])?;
        }
    }
    for l in 0..lanes {
        if exec >> l & 1 != 0 {
            m.write::<N>(w, ctx.lds, l, t[l], store_bytes::<K, N>(&src, l))?;
        }
    }
    Ok(Flow::Next)
}

/// `global_load_addtid_b32` / `global_store_addtid_b32`: SGPR base + imm[11:0] + lane * 4
/// (all lanes checked before any is performed).
fn addtid<const STORE: bool>(w: &mut Wave, inst: &Inst, ctx: &mut Ctx) -> Result<Flow, ExecError> {
    count::<GLOBAL>(w, !STORE);
    let dst = inst.dst[0];
    if !STORE && !vdst_in_range(w, dst, 1) {
        return Ok(Flow::Next);
    }
    let base = sbase64(w, inst.src[2]).wrapping_add((inst.imm & 0xfff) as u64);
    let exec = w.exec();
    let lanes = w.lanes();
    let mut addrs: [u64; LANES] = std::array::from_fn(|l| base.wrapping_add(4 * l as u64));
    let plan = plan_global(
        ctx.mem,
        inst,
        ctx.alignment_mode,
        exec,
        lanes,
        &mut addrs,
        4,
        false,
    )?;
    let data = w.vrow((inst.src[1] - opnd::VGPR0) as usize);
    let mut row = [[0u32; LANES]; 1];
    plan.each(exec, lanes, |l, r| {
        if STORE {
            r.store_u32(addrs[l], data[l]);
        } else {
            row[0][l] = r
                .load_u32(addrs[l])
                .ok_or_else(|| fault(inst, l, addrs[l], 4))?;
        }
        Ok(())
    })?;
    if !STORE {
        write_rows(w, dst, &row, exec);
    }
    Ok(Flow::Next)
}

/// ISA atomic operation of a FLAT/GLOBAL atomic op (the table's `atom` fact; every row this
/// family claims as an atomic has one).
#[inline]
fn atomic_op(op: Op) -> AtomicOp {
    op.facts().atomic.unwrap_or(AtomicOp::Add)
}

/// `*_atomic_*`: read-modify-write per lane in lane order; with GLC the pre-op value is returned
/// (ISA 11.1: "GLC: 1 = return the memory value before the atomic operation"). Cmpswap data is
/// {cmp, src} with src in the low half. Every lane's address is checked (alignment, allocation)
/// before the first lane's operation, so a faulting atomic changes no memory.
fn atomic<const SEG: u8, const W64: bool>(
    w: &mut Wave,
    inst: &Inst,
    ctx: &mut Ctx,
) -> Result<Flow, ExecError> {
    let op = atomic_op(inst.op);
    let rtn = inst.flags & iflags::GLC != 0;
    count::<SEG>(w, rtn);
    let dst = inst.dst[0];
    let dwords = if W64 { 2 } else { 1 };
    if rtn && !vdst_in_range(w, dst, dwords) {
        return Ok(Flow::Next);
    }
    let exec = w.exec();
    let lanes = w.lanes();
    let mode = ctx.alignment_mode;
    let data = (inst.src[1] - opnd::VGPR0) as usize;
    let cmpswap = matches!(op, AtomicOp::CmpSwap | AtomicOp::CmpSwapF);
    let d: [&[u32]; 4] = std::array::from_fn(|k| w.vrow(data + k));
    // (src, cmp) of lane l.
    let operands = |l: usize| -> (u64, u64) {
        if W64 {
            let src = d[0][l] as u64 | (d[1][l] as u64) << 32;
            let cmp = if cmpswap {
                d[2][l] as u64 | (d[3][l] as u64) << 32
            } else {
                0
            };
            (src, cmp)
        } else {
            (d[0][l] as u64, if cmpswap { d[1][l] as u64 } else { 0 })
        }
    };
    let size = 4 * dwords as u64;
    let mut rows = [[0u32; LANES]; 2];
    if SEG == GLOBAL {
        let mut addrs = [0u64; LANES];
        global_addrs(w, inst, &mut addrs);
        let plan = plan_global(ctx.mem, inst, mode, exec, lanes, &mut addrs, size, true)?;
        plan.each(exec, lanes, |l, r| {
            let (src, cmp) = operands(l);
            let a = addrs[l];
            // Checked by `plan_global`; kept as errors rather than assumptions.
            let old = r
                .atomic(a, op, src, cmp, W64)
                .map_err(|e| atomic_error(e, l, || fault(inst, l, a, size)))?;
            rows[0][l] = old as u32;
            rows[1][l] = (old >> 32) as u32;
            Ok(())
        })?;
    } else {
        let mut t = [Target::Global(0); LANES];
        targets::<SEG>(w, inst, &mut t)?;
        let mut m = Regions::new(ctx.mem, inst);
        for l in 0..lanes {
            if exec >> l & 1 != 0 {
                t[l] = align(mode, l, t[l], size, true)?;
                if W64 {
                    m.probe::<8>(w, l, t[l])?;
                } else {
                    m.probe::<4>(w, l, t[l])?;
                }
            }
        }
        for l in 0..lanes {
            if exec >> l & 1 == 0 {
                continue;
            }
            let (src, cmp) = operands(l);
            let tl = t[l];
            let old = match tl {
                Target::Global(a) => {
                    let r = m.region(l, a, size)?;
                    r.atomic(a, op, src, cmp, W64)
                        .map_err(|e| atomic_error(e, l, || m.fault(l, a, size)))?
                }
                Target::Lds(a) => lds_atomic(ctx.lds, a, op, src, cmp, W64),
                Target::Private(_) => {
                    // Scratch is private to the lane, so a plain read-modify-write is exact.
                    if W64 {
                        let old = u64::from_le_bytes(m.read::<8>(w, ctx.lds, l, tl)?);
                        let new = apply64(op, old, src, cmp);
                        m.write::<8>(w, ctx.lds, l, tl, new.to_le_bytes())?;
                        old
                    } else {
                        let old = u32::from_le_bytes(m.read::<4>(w, ctx.lds, l, tl)?);
                        let new = apply32(op, old, src as u32, cmp as u32);
                        m.write::<4>(w, ctx.lds, l, tl, new.to_le_bytes())?;
                        old as u64
                    }
                }
            };
            rows[0][l] = old as u32;
            rows[1][l] = (old >> 32) as u32;
        }
    }
    if rtn {
        write_rows(w, dst, &rows[..dwords], exec);
    }
    Ok(Flow::Next)
}

/// The error of a host atomic the planning pass should have ruled out: MEMVIOL for a misaligned
/// address, otherwise `fault` (the allocation's).
#[cold]
fn atomic_error(e: MemError, lane: usize, fault: impl FnOnce() -> ExecError) -> ExecError {
    match e {
        MemError::Misaligned { addr, .. } => memviol(lane, addr, "misaligned atomic"),
        _ => fault(),
    }
}

/// The plain load or store handler of a memory row, chosen by its table facts (kind, bytes,
/// sign extension, D16 half): `$load::<[SEG,] KIND, BYTES, DWORDS>`, `$store::<[SEG,] KIND,
/// BYTES>`. Shared by the FLAT/GLOBAL/SCRATCH and DS families.
macro_rules! load_store_handler {
    ($f:expr, $load:ident, $store:ident $(, $S:expr)?) => {{
        use crate::exec::flat::*;
        use crate::isa::{MemKind, D16};
        let f = $f;
        Some(match (f.mem, f.bytes, f.sext, f.d16) {
            (MemKind::Load, 1, false, D16::None) => $load::<$($S,)? L_U8, 1, 1> as Handler,
            (MemKind::Load, 1, true, D16::None) => $load::<$($S,)? L_I8, 1, 1>,
            (MemKind::Load, 2, false, D16::None) => $load::<$($S,)? L_U16, 2, 1>,
            (MemKind::Load, 2, true, D16::None) => $load::<$($S,)? L_I16, 2, 1>,
            (MemKind::Load, 4, false, D16::None) => $load::<$($S,)? L_B32, 4, 1>,
            (MemKind::Load, 8, false, D16::None) => $load::<$($S,)? L_B64, 8, 2>,
            (MemKind::Load, 12, false, D16::None) => $load::<$($S,)? L_B96, 12, 3>,
            (MemKind::Load, 16, false, D16::None) => $load::<$($S,)? L_B128, 16, 4>,
            (MemKind::Load, 1, false, D16::Lo) => $load::<$($S,)? L_D16_U8, 1, 1>,
            (MemKind::Load, 1, true, D16::Lo) => $load::<$($S,)? L_D16_I8, 1, 1>,
            (MemKind::Load, 2, false, D16::Lo) => $load::<$($S,)? L_D16_B16, 2, 1>,
            (MemKind::Load, 1, false, D16::Hi) => $load::<$($S,)? L_D16_HI_U8, 1, 1>,
            (MemKind::Load, 1, true, D16::Hi) => $load::<$($S,)? L_D16_HI_I8, 1, 1>,
            (MemKind::Load, 2, false, D16::Hi) => $load::<$($S,)? L_D16_HI_B16, 2, 1>,
            (MemKind::Store, 1, false, D16::None) => $store::<$($S,)? S_B8, 1>,
            (MemKind::Store, 2, false, D16::None) => $store::<$($S,)? S_B16, 2>,
            (MemKind::Store, 4, false, D16::None) => $store::<$($S,)? S_DWORDS, 4>,
            (MemKind::Store, 8, false, D16::None) => $store::<$($S,)? S_DWORDS, 8>,
            (MemKind::Store, 12, false, D16::None) => $store::<$($S,)? S_DWORDS, 12>,
            (MemKind::Store, 16, false, D16::None) => $store::<$($S,)? S_DWORDS, 16>,
            (MemKind::Store, 1, false, D16::Hi) => $store::<$($S,)? S_HI_B8, 1>,
            (MemKind::Store, 2, false, D16::Hi) => $store::<$($S,)? S_HI_B16, 2>,
            _ => return None,
        })
    }};
}
pub(crate) use load_store_handler;

/// The handler of a FLAT/GLOBAL/SCRATCH row of segment `$S`, from its table facts (a macro,
/// like the claims before it, so each segment's handlers are instantiated directly here).
macro_rules! seg_handler {
    ($S:expr, $f:expr) => {{
        let f = $f;
        if f.mem == MemKind::Atomic {
            f.atomic?;
            Some(if f.bytes == 8 {
                atomic::<$S, true> as Handler
            } else {
                atomic::<$S, false>
            })
        } else {
            load_store_handler!(f, load, store, $S)
        }
    }};
}

/// The ops of this family that wavesim implements.
pub fn handler(op: Op) -> Option<Handler> {
    match op.fmt() {
        Fmt::Flat => seg_handler!(FLAT, op.facts()),
        Fmt::Scratch => seg_handler!(SCRATCH, op.facts()),
        Fmt::Global if op.facts().addtid => match op.facts().mem {
            MemKind::Load => Some(addtid::<false>),
            MemKind::Store => Some(addtid::<true>),
            _ => None,
        },
        Fmt::Global => seg_handler!(GLOBAL, op.facts()),
        _ => None,
    }
}
