//! Buffer addressing and range checking (RDNA3 ISA guide, Buffer Instructions, "Buffer addressing", "Range checking").
//!
//! Per lane:
//! - `index  = (IDXEN ? vgpr_index : 0) + (V#.add_tid_enable ? lane id : 0)`
//! - `offset = (OFFEN ? vgpr_offset : 0) + inst_offset` (vaddr holds index then offset when both
//!   are enabled)
//! - linear (swizzle_enable = 0): `buffer_offset = index * stride + offset`
//! - swizzled (const_element_size E = 4 or 16, const_index_stride I = 8..64 records):
//!   `buffer_offset = (index / I * stride + offset / E * E) * I + index % I * E + offset % E`
//! - `address = V#.base + soffset + buffer_offset`: soffset is part of the base, never of the
//!   range check (RDNA3 ISA guide, Buffer Instructions: "sgpr_offset is not part of the offset term").
//!
//! Out of range, per OOB_SELECT, for an access of `payload` bytes at `offset` (gfx11):
//! - 0 (structured with offset check): `index >= num_records || offset + payload > stride`
//! - 1 (structured): `index >= num_records`
//! - 2 (raw, unchecked): `num_records == 0`
//! - 3 (raw): when swizzled with a non-zero stride, as 0; else
//!   `buffer_offset + payload > num_records` (num_records in bytes: an exact check that includes
//!   the payload, so a partly-outside access is outside).
//!
//! `offset` is a 32-bit sum: `vgpr_offset + inst_offset` wraps modulo 2^32, so a "negative" VGPR
//! offset plus a positive instruction offset lands back at the small offset they add up to. The
//! RDNA3 ISA guide's buffer addressing adds the VGPR offset (one 32-bit register) and the
//! 12-bit instruction offset without saying what a carry out of bit 31 does; these sources
//! decide it: Mesa's ACO
//! (`aco_optimizer.cpp`, "MUBUF: propagate constants and combine additions") folds a constant
//! out of the VGPR offset into the instruction offset without any overflow guard for unswizzled
//! buffers (and for swizzled ones from GFX9 on), and its descriptor-indexing code emits
//! `v_sub_nc_u32 v0, 0, v0` + `offset:252` for `252 - 4 * i`, which only works if the sum wraps;
//! LLVM's `AMDGPUDAGToDAGISel::SelectMUBUFScratchOffen` says the same (from gfx9 a negative
//! vaddr "would compute a valid address"); gem5's Vega model (`op_encodings.hh`, MUBUF
//! `calcAddr`) adds the two as 32-bit values. soffset is not part of that sum: it is added to
//! the 48-bit base (ACO: "saddr overflow never works", so it never folds constants across it),
//! and the rest (index * stride, the dword `d` of a multi-dword access, the range check's
//! `+ payload`) is computed in 64 bits. Multi-dword accesses check each dword separately
//! (payload 4 at offset + 4k), format ops and atomics check the whole element once; the callers
//! choose.
//!
//! Scratch buffers are swizzled V#s with add_tid_enable and OOB_SELECT 2: the lane id is the
//! index; nothing more is needed here (TID / 64, the part folded into the base, is always 0 for a
//! wave of at most 64 lanes).

use super::resource::{BufferResource, ReservedSwizzle};
use crate::decode::{iflags, opnd, Inst};
use crate::wave::{Wave, LANES};

/// Index and in-record offset of one lane's access.
#[derive(Clone, Copy, Default, Debug)]
pub struct LaneAddr {
    pub index: u64,
    pub offset: u64,
}

/// The addressing and range-check state of one instruction (one V#, one soffset).
#[derive(Clone, Copy, Debug)]
pub struct Addresser {
    /// V#.base + soffset.
    base: u64,
    stride: u64,
    num_records: u64,
    oob: u8,
    /// Swizzled addressing: (const_element_size, const_index_stride).
    swizzle: Option<(u64, u64)>,
    /// OOB_SELECT 3 checks like 0 (swizzled with a stride).
    structured3: bool,
}

impl Addresser {
    pub fn new(r: &BufferResource, soffset: u32) -> Result<Addresser, ReservedSwizzle> {
        let swizzle = r
            .element_size()?
            .map(|e| (e as u64, r.index_stride_records() as u64));
        Ok(Addresser {
            base: r.base.wrapping_add(soffset as u64),
            stride: r.stride as u64,
            num_records: r.num_records as u64,
            oob: r.oob_select,
            swizzle,
            structured3: swizzle.is_some() && r.stride != 0,
        })
    }

    /// Offset from `base + soffset` of byte `d` of the access.
    #[inline]
    pub fn buffer_offset(&self, a: LaneAddr, d: u64) -> u64 {
        let off = a.offset + d;
        match self.swizzle {
            None => a.index * self.stride + off,
            Some((e, i)) => {
                (a.index / i * self.stride + off / e * e) * i + a.index % i * e + off % e
            }
        }
    }

    /// Device address of byte `d` of the access.
    #[inline]
    pub fn addr(&self, a: LaneAddr, d: u64) -> u64 {
        self.base.wrapping_add(self.buffer_offset(a, d))
    }

    /// True if the `payload` bytes at byte `d` of the access are out of range.
    #[inline]
    pub fn out_of_range(&self, a: LaneAddr, d: u64, payload: u64) -> bool {
        let structured = || a.index >= self.num_records || a.offset + d + payload > self.stride;
        match self.oob {
            0 => structured(),
            1 => a.index >= self.num_records,
            2 => self.num_records == 0,
            _ if self.structured3 => structured(),
            _ => self.buffer_offset(a, d) + payload > self.num_records,
        }
    }
}

/// Every lane's index and offset (all lanes, so the loop has no EXEC branches). Out-of-range
/// address VGPRs read VGPR0 (RDNA3 ISA guide, Wave State).
pub fn lane_addrs(w: &Wave, inst: &Inst, add_tid: bool, out: &mut [LaneAddr; LANES]) {
    let idxen = inst.flags & iflags::IDXEN != 0;
    let offen = inst.flags & iflags::OFFEN != 0;
    let inst_offset = inst.imm as u32 & 0xfff;
    let v = (inst.src[0].wrapping_sub(opnd::VGPR0)) as usize;
    let zero = [0u32; LANES];
    let (idx, off): (&[u32], &[u32]) = match (idxen, offen) {
        (true, true) => (w.vrow(v), w.vrow(v + 1)),
        (true, false) => (w.vrow(v), &zero),
        (false, true) => (&zero, w.vrow(v)),
        (false, false) => (&zero, &zero),
    };
    for (l, (o, (&i, &f))) in out.iter_mut().zip(idx.iter().zip(off)).enumerate() {
        *o = LaneAddr {
            index: i as u64 + if add_tid { l as u64 } else { 0 },
            // 32-bit sum (see the module comment).
            offset: f.wrapping_add(inst_offset) as u64,
        };
    }
}
