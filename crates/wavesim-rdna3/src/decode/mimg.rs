//! Decoding MIMG (image) instructions: address sizes from the table's image facts, data
//! widths from dmask/d16/tfe, NSA address lists.

use super::fields::*;
use super::inst::*;
use crate::isa::{Fmt, Lookup, Op};

pub use crate::isa::{MimgFacts, MimgKind};

/// Address and data properties of an image opcode: the table's image facts.
pub type MimgOpInfo = MimgFacts;

/// Bit set of the dword counts `lo..=hi`.
pub(super) const fn dword_set(lo: u32, hi: u32) -> u32 {
    ((1u32 << (hi + 1)) - 1) & !((1u32 << lo) - 1)
}

impl MimgFacts {
    /// The image facts of `op` (an MIMG row; others get the facts of a plain load).
    pub fn of(op: Op) -> MimgFacts {
        op.facts().mimg.unwrap_or(MimgFacts {
            kind: MimgKind::Load,
            extra: 0,
            gradients: false,
            g16: false,
            lod: false,
            coords: true,
            has_d16: true,
        })
    }

    /// The instruction has a sampler operand (ssamp).
    pub fn sampler(&self) -> bool {
        matches!(self.kind, MimgKind::Sample | MimgKind::Gather)
    }

    /// Number of address VGPRs the instruction reads (LLVM `getAddrSizeMIMGOp` for gfx11, which
    /// has separate g16 opcodes: a16 alone does not pack the gradients).
    pub fn addr_dwords(&self, dim: u32, a16: bool) -> u32 {
        // (coordinates, gradients) per dimension: 1D 2D 3D CUBE 1D_ARRAY 2D_ARRAY 2D_MSAA
        // 2D_MSAA_ARRAY.
        const COORDS: [u32; 8] = [1, 2, 3, 3, 2, 3, 3, 4];
        const GRADS: [u32; 8] = [2, 4, 6, 4, 2, 4, 4, 4];
        let d = dim as usize & 7;
        if let MimgKind::Bvh { is64 } = self.kind {
            return match (is64, a16) {
                (false, false) => 11,
                (false, true) => 8,
                (true, false) => 12,
                (true, true) => 9,
            };
        }
        let comps = if self.coords { COORDS[d] } else { 0 } + u32::from(self.lod);
        let mut words = self.extra + if a16 { comps.div_ceil(2) } else { comps };
        if self.gradients {
            words += if self.g16 {
                (GRADS[d] / 2).next_multiple_of(2)
            } else {
                GRADS[d]
            };
        }
        words
    }

    /// Address sizes of a sample/gather variant over all dimensions without MSAA and both a16
    /// settings (LLVM `MIMG_Sampler_AddrSizes::AllNumAddrWords`), as a bit set.
    fn sample_addr_words(&self) -> u32 {
        let (lo, hi) = match (self.gradients, self.g16, self.lod) {
            (true, true, false) => (2, 7),
            (true, true, true) => (2, 8),
            (true, false, false) => (2, 9),
            (true, false, true) => (2, 10),
            (false, _, false) => (1, 3),
            (false, _, true) => (1, 4),
        };
        dword_set(lo + self.extra, hi + self.extra)
    }

    /// Address sizes (bit n = n dwords) LLVM has an instruction variant for, with sequential
    /// (`nsa == false`) or non-sequential addresses. Not meaningful for BVH.
    pub fn llvm_addr_variants(&self, nsa: bool) -> u32 {
        match self.kind {
            MimgKind::Sample | MimgKind::Gather => {
                let all = self.sample_addr_words();
                if nsa {
                    all & dword_set(2, 12)
                } else {
                    // Besides every exact size, codegen's rounded sizes 4, 8 and 16.
                    let mut v = all;
                    if all & dword_set(3, 4) != 0 {
                        v |= 1 << 4;
                    }
                    if all & dword_set(5, 8) != 0 {
                        v |= 1 << 8;
                    }
                    if all & dword_set(13, 16) != 0 {
                        v |= 1 << 16;
                    }
                    v
                }
            }
            _ => {
                if nsa {
                    dword_set(2, 4)
                } else {
                    dword_set(1, 4)
                }
            }
        }
    }

    /// The address size of the variant LLVM's decoder tables hold: the smallest sequential one,
    /// the largest non-sequential one with at most five addresses.
    pub fn llvm_default_addr(&self, nsa: bool) -> u32 {
        let v = self.llvm_addr_variants(nsa);
        if nsa {
            31 - (v & dword_set(0, 5)).leading_zeros()
        } else {
            v.trailing_zeros()
        }
    }

    /// Data sizes (bit n = n dwords) LLVM has a variant for.
    pub fn llvm_data_variants(&self) -> u32 {
        match self.kind {
            MimgKind::Gather => 1 << 2 | 1 << 4 | 1 << 5,
            MimgKind::MsaaLoad => dword_set(2, 5),
            MimgKind::Atomic => 1 << 1 | 1 << 2 | 1 << 4,
            MimgKind::AtomicCmpswap => 1 << 2 | 1 << 4,
            MimgKind::Bvh { .. } => 1 << 4,
            _ => dword_set(1, 5),
        }
    }

    /// The data size of the variant LLVM's decoder tables hold.
    pub fn llvm_default_data(&self) -> u32 {
        match self.kind {
            MimgKind::Gather | MimgKind::MsaaLoad | MimgKind::Bvh { .. } => 4,
            MimgKind::AtomicCmpswap => 2,
            _ => 1,
        }
    }

    /// Registers LLVM's data operand spans for a variant of `dwords` data dwords: the 4-dword
    /// variant of the plain atomics has a 5-register (160-bit) data class in LLVM 19.
    pub fn llvm_data_regs(&self, dwords: u32) -> u32 {
        if self.kind == MimgKind::Atomic && dwords == 4 {
            5
        } else {
            dwords
        }
    }
}

/// Number of address VGPRs an image instruction reads (see `MimgOpInfo::addr_dwords`).
pub fn mimg_addr_dwords(op: Op, dim: u32, a16: bool) -> u32 {
    MimgOpInfo::of(op).addr_dwords(dim, a16)
}

/// BVH non-sequential address operands (node pointer, ray extent, origin, direction, inverse
/// direction; a16 packs direction and inverse direction into two tuples): VGPRs per operand.
pub fn bvh_nsa_widths(is64: bool, a16: bool) -> &'static [u32] {
    match (is64, a16) {
        (false, false) => &[1, 1, 3, 3, 3],
        (false, true) => &[1, 1, 3, 3],
        (true, false) => &[2, 1, 3, 3, 3],
        (true, true) => &[2, 1, 3, 3],
    }
}

/// A 256-bit resource descriptor operand LLVM accepts: an aligned SGPR octet up to s[96:103],
/// ttmp[0:7]..ttmp[8:15], or null.
pub(super) fn srsrc256_ok(code: u32) -> bool {
    code <= 96 || (108..=116).contains(&code) || code == opnd::NULL as u32
}

/// A 128-bit descriptor operand (sampler, BVH resource): s[0:3]..s[100:103], ttmp quads, null.
pub(super) fn srsrc128_ok(code: u32) -> bool {
    code <= 100 || (108..=120).contains(&code) || code == opnd::NULL as u32
}

pub(super) fn decode_mimg(w: &Words, w0: u32, lk: &Lookup) -> Result<Option<Inst>, DecodeError> {
    let Some(op) = lk.find(Fmt::Mimg, bits(w0, 25, 18)) else {
        return Ok(None);
    };
    let w1 = w.get(1)?;
    let mut i = Inst::new(op, Enc::Mimg, 8);
    let info = MimgOpInfo::of(op);
    let nsa = w0 & 1 != 0;
    let dim = bits(w0, 4, 2);
    let dmask = bits(w0, 11, 8);
    // dmask, dim, unorm, dlc, glc, slc, r128, a16, d16 (RDNA3 ISA, "MIMG").
    i.imm2 = dmask | dim << 4;
    if w0 & (1 << 7) != 0 {
        i.flags |= iflags::UNORM;
    }
    mem_cache_bits(&mut i, w0, 14, 12, 13);
    if w0 & (1 << 15) != 0 {
        i.flags |= iflags::R128;
    }
    if w0 & (1 << 16) != 0 {
        i.flags |= iflags::A16;
    }
    if w0 & (1 << 17) != 0 {
        i.flags |= iflags::D16;
    }
    if w1 & (1 << 21) != 0 {
        i.flags |= iflags::TFE;
    }
    if w1 & (1 << 22) != 0 {
        i.flags |= iflags::LDS; // lwe
    }
    let vaddr = bits(w1, 7, 0);
    let vdata = bits(w1, 15, 8);
    let srsrc = bits(w1, 20, 16) << 2;
    let ssamp = bits(w1, 30, 26) << 2;
    i.src[0] = opnd::vgpr(vaddr);
    i.dst[0] = opnd::vgpr(vdata);
    i.src[1] = srsrc as u16;
    i.src[2] = ssamp as u16;
    let a16 = i.flags & iflags::A16 != 0;
    let d16 = i.flags & iflags::D16 != 0;
    let tfe = i.flags & iflags::TFE != 0;
    // Fields an opcode does not have must be zero (LLVM has no encoding with them set): the
    // sampler of non-sampling ops, d16 of ops without a 16-bit form.
    if (!info.sampler() && ssamp != 0) || (d16 && !info.has_d16) {
        return Ok(None);
    }
    let addrs = info.addr_dwords(dim, a16);
    // Registers must exist for the operand classes of the form LLVM decodes first (its default
    // widths); a tuple running past v255 or a descriptor outside the SGPR/TTMP tuples does not
    // decode.
    if let MimgKind::Bvh { is64 } = info.kind {
        // The ray-tracing ops have fixed fields: dmask 0xf, unorm, r128, 1D, no d16/tfe/lwe/cache
        // bits; the resource is 128 bits.
        let fixed = dmask == 0xf
            && i.flags & (iflags::UNORM | iflags::R128) == iflags::UNORM | iflags::R128
            && dim == 0
            && i.flags & (iflags::D16 | iflags::TFE | iflags::LDS | iflags::GLC | iflags::SLC) == 0
            && i.flags & iflags::DLC == 0;
        if !fixed || !srsrc128_ok(srsrc) || vdata > 252 {
            return Ok(None);
        }
        i.imm2 |= 4 << 8;
        i.imm = addrs as i32;
        if nsa {
            let extra = w.get(2)?;
            let widths = bvh_nsa_widths(is64, a16);
            // LLVM cannot print tuples that run past v255 (llvm-objdump 19 crashes on them):
            // treat them as undecodable.
            let regs = [
                vaddr,
                extra & 0xff,
                extra >> 8 & 0xff,
                extra >> 16 & 0xff,
                extra >> 24,
            ];
            if widths.iter().zip(regs).any(|(&n, r)| r + n - 1 > 255) {
                return Ok(None);
            }
            i.flags |= iflags::NSA;
            i.lit = extra;
            i.len = 12;
        } else if vaddr + addrs - 1 > 255 {
            return Ok(None);
        }
        return Ok(Some(i));
    }
    if !srsrc256_ok(srsrc) || (info.sampler() && !srsrc128_ok(ssamp)) {
        return Ok(None);
    }
    let def_data = info.llvm_data_regs(info.llvm_default_data());
    if vdata + def_data - 1 > 255 || (!nsa && vaddr + info.llvm_default_addr(false) - 1 > 255) {
        return Ok(None);
    }
    // Data VGPRs the hardware transfers: one per enabled channel (four for gather4 and
    // msaa_load), two 16-bit channels per VGPR with d16, plus one for the tfe/lwe status.
    let chans = match info.kind {
        MimgKind::Gather | MimgKind::MsaaLoad => 4,
        _ => dmask.count_ones().max(1),
    };
    let mut vdwords = if d16 { chans.div_ceil(2) } else { chans };
    if tfe {
        vdwords += 1;
    }
    i.imm2 |= vdwords << 8;
    i.imm = addrs as i32;
    if nsa {
        // Non-sequential addresses: up to five address VGPRs (the fifth starts the tuple of all
        // remaining ones), the second to fifth one per byte of one extra dword.
        i.flags |= iflags::NSA;
        i.lit = w.get(2)?;
        i.len = 12;
    }
    Ok(Some(i))
}
