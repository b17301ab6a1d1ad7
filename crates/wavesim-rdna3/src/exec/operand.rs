//! Reading and writing operands: the scalar operand space, inline constants, literals, VGPR
//! rows with EXEC masking, and the out-of-range rules of seed 000.

use crate::decode::{opnd, Dpp, Inst};
use crate::exec::dpp;
use crate::isa::Ty;
use crate::wave::{status, Wave, LANES, NUM_SGPRS};

/// One 32-bit value per lane.
pub type Lanes32 = [u32; LANES];
/// One 64-bit value per lane.
pub type Lanes64 = [u64; LANES];

/// Device address of the LDS aperture (flat addresses in [SHARED_APERTURE, +4 GiB) go to LDS).
pub const SHARED_APERTURE: u64 = 0x0001_0000_0000_0000;
/// Device address of the private (scratch) aperture.
pub const PRIVATE_APERTURE: u64 = 0x0002_0000_0000_0000;
/// Size of each aperture.
pub const APERTURE_SIZE: u64 = 1 << 32;

/// f16 / f32 / f64 bit patterns of the inline float constants 240..=248:
/// 0.5, -0.5, 1.0, -1.0, 2.0, -2.0, 4.0, -4.0, 1/(2*pi).
const INLINE_F16: [u16; 9] = [
    0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118,
];
const INLINE_F32: [u32; 9] = [
    0x3f00_0000,
    0xbf00_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x4000_0000,
    0xc000_0000,
    0x4080_0000,
    0xc080_0000,
    0x3e22_f983,
];
const INLINE_F64: [u64; 9] = [
    0x3fe0_0000_0000_0000,
    0xbfe0_0000_0000_0000,
    0x3ff0_0000_0000_0000,
    0xbff0_0000_0000_0000,
    0x4000_0000_0000_0000,
    0xc000_0000_0000_0000,
    0x4010_0000_0000_0000,
    0xc010_0000_0000_0000,
    0x3fc4_5f30_6dc9_c882,
];

/// Value of an inline integer constant code (128..=208).
#[inline]
fn inline_int(code: u16) -> i64 {
    if code <= opnd::INT_POS_MAX {
        (code - opnd::INT_ZERO) as i64
    } else {
        -((code - opnd::INT_POS_MAX) as i64)
    }
}

/// Reads a scalar-space operand (anything but a VGPR) as a 64-bit pattern of the operand's
/// type: 16-bit types in the low 16 bits, 32-bit types in the low 32 bits, 64-bit types whole.
#[inline]
pub fn read_scalar(w: &Wave, inst: &Inst, code: u16, ty: Ty) -> u64 {
    let wide = ty.dwords() == 2;
    match code {
        0..=127 => {
            let lo = read_sgpr(w, code) as u64;
            if wide {
                lo | (read_sgpr(w, code + 1) as u64) << 32
            } else {
                lo
            }
        }
        128..=208 => {
            let v = inline_int(code);
            if wide {
                v as u64
            } else if ty.is_16bit() {
                v as u64 & 0xffff
            } else {
                v as u32 as u64
            }
        }
        240..=248 => {
            let k = (code - 240) as usize;
            if wide {
                INLINE_F64[k]
            } else if ty.is_16bit() {
                INLINE_F16[k] as u64
            } else {
                INLINE_F32[k] as u64
            }
        }
        opnd::SHARED_BASE => aperture(SHARED_APERTURE, wide),
        opnd::SHARED_LIMIT => aperture(SHARED_APERTURE + APERTURE_SIZE - 1, wide),
        opnd::PRIVATE_BASE => aperture(PRIVATE_APERTURE, wide),
        opnd::PRIVATE_LIMIT => aperture(PRIVATE_APERTURE + APERTURE_SIZE - 1, wide),
        opnd::VCCZ => (w.vcc() == 0) as u64,
        opnd::EXECZ => (w.exec() == 0) as u64,
        opnd::SCC => w.scc as u64,
        opnd::LITERAL => literal(inst.lit, ty),
        _ => 0,
    }
}

/// A 32-bit literal widened to the operand type (RDNA3 ISA, "Literal constants": a 64-bit float
/// operand takes the literal as its high 32 bits; 64-bit integer operands zero-extend it).
#[inline]
pub fn literal(lit: u32, ty: Ty) -> u64 {
    match ty {
        Ty::F64 => (lit as u64) << 32,
        t if t.is_16bit() => lit as u64 & 0xffff,
        _ => lit as u64,
    }
}

#[inline]
fn aperture(addr: u64, wide: bool) -> u64 {
    if wide {
        addr
    } else {
        addr >> 32
    }
}

/// Reads one scalar register of the operand space, applying seed 000's rules: NULL reads 0,
/// TTMPs read 0 outside the trap handler (STATUS.PRIV=0).
#[inline]
pub fn read_sgpr(w: &Wave, code: u16) -> u32 {
    match code {
        0..=107 | 125..=127 => w.sgpr[code as usize],
        108..=123 if w.privileged() => w.sgpr[code as usize],
        _ => 0,
    }
}

/// Writes one scalar register. Returns false when the write is dropped (NULL, TTMP without PRIV,
/// out of range) — callers that update SCC must not do so then (seed 000).
#[inline]
pub fn write_sgpr(w: &mut Wave, code: u16, v: u32) -> bool {
    match code {
        0..=107 | 125..=127 => {
            w.sgpr[code as usize] = v;
            true
        }
        108..=123 if w.privileged() => {
            w.sgpr[code as usize] = v;
            true
        }
        // NULL: dropped, but the instruction still counts as writing (SCC updates).
        opnd::NULL => true,
        _ => false,
    }
}

/// Writes a 64-bit scalar destination (an aligned pair; seed 000: the LSB of a 64-bit SGPR
/// operand is ignored).
#[inline]
pub fn write_sgpr64(w: &mut Wave, code: u16, v: u64) -> bool {
    if code == opnd::NULL {
        return true;
    }
    let code = if code < 128 { code & !1 } else { code };
    if code + 1 > 127 || (code < NUM_SGPRS + 2 && code + 1 >= NUM_SGPRS + 2) {
        return false;
    }
    let lo = write_sgpr(w, code, v as u32);
    let hi = write_sgpr(w, code + 1, (v >> 32) as u32);
    lo && hi
}

/// Reads a 64-bit scalar operand with the forced pair alignment of seed 000.
#[inline]
pub fn read_scalar64(w: &Wave, inst: &Inst, code: u16, ty: Ty) -> u64 {
    let code = if code < 128 { code & !1 } else { code };
    read_scalar(w, inst, code, ty)
}

/// Fills `out` with source `k` of a VALU instruction, 32 bits per lane (low 16 bits for
/// 16-bit types; op_sel and float modifiers are the caller's). DPP applies to src0; the
/// returned mask has a 1 for each lane whose DPP source lane was invalid and that must
/// therefore keep its old destination value.
#[inline]
pub fn vsrc32(w: &Wave, inst: &Inst, k: usize, ty: Ty, out: &mut Lanes32) -> u64 {
    let code = inst.src[k];
    if opnd::is_vgpr(code) {
        let row = w.vrow((code - opnd::VGPR0) as usize);
        if k == 0 && inst.dpp != Dpp::None {
            return dpp::apply(w, inst, row, out);
        }
        out.copy_from_slice(row);
    } else {
        let v = read_scalar(w, inst, code, ty) as u32;
        *out = [v; LANES];
    }
    0
}

/// Like `vsrc32` for 64-bit operands (two consecutive VGPRs or an SGPR pair).
#[inline]
pub fn vsrc64(w: &Wave, inst: &Inst, k: usize, ty: Ty, out: &mut Lanes64) -> u64 {
    let code = inst.src[k];
    if opnd::is_vgpr(code) {
        let r = (code - opnd::VGPR0) as usize;
        let (mut lo, mut hi) = ([0u32; LANES], [0u32; LANES]);
        let mut kill = 0;
        if k == 0 && inst.dpp != Dpp::None {
            kill = dpp::apply(w, inst, w.vrow(r), &mut lo);
            dpp::apply(w, inst, w.vrow(r + 1), &mut hi);
        } else {
            lo.copy_from_slice(w.vrow(r));
            hi.copy_from_slice(w.vrow(r + 1));
        }
        for l in 0..LANES {
            out[l] = lo[l] as u64 | (hi[l] as u64) << 32;
        }
        kill
    } else {
        let v = read_scalar64(w, inst, code, ty);
        *out = [v; LANES];
        0
    }
}

/// True if VGPR destination `code` (spanning `regs` registers) is in range; if not, seed 000
/// makes the instruction a NOP.
#[inline]
pub fn vdst_in_range(w: &Wave, code: u16, regs: usize) -> bool {
    opnd::is_vgpr(code) && (code - opnd::VGPR0) as usize + regs <= w.num_vgprs as usize
}

/// Writes `vals` to VGPR `code` in the lanes set in `mask`.
#[inline]
pub fn vdst32(w: &mut Wave, code: u16, vals: &Lanes32, mask: u64) {
    if !vdst_in_range(w, code, 1) {
        return;
    }
    let n = w.lanes();
    let row = (code - opnd::VGPR0) as usize;
    let Some(dst) = w.vrow_mut(row) else { return };
    if mask == u64::MAX >> (64 - n) {
        dst[..n].copy_from_slice(&vals[..n]);
    } else {
        for l in 0..n {
            if mask >> l & 1 != 0 {
                dst[l] = vals[l];
            }
        }
    }
}

/// Writes 64-bit `vals` to the VGPR pair at `code` in the lanes set in `mask`.
#[inline]
pub fn vdst64(w: &mut Wave, code: u16, vals: &Lanes64, mask: u64) {
    if !vdst_in_range(w, code, 2) {
        return;
    }
    let (mut lo, mut hi) = ([0u32; LANES], [0u32; LANES]);
    for l in 0..LANES {
        lo[l] = vals[l] as u32;
        hi[l] = (vals[l] >> 32) as u32;
    }
    vdst32(w, code, &lo, mask);
    vdst32(w, code + 1, &hi, mask);
}

/// Writes a lane mask to a scalar destination: one SGPR in wave32, an aligned pair in wave64.
#[inline]
pub fn write_mask(w: &mut Wave, code: u16, v: u64) -> bool {
    if w.wave64 {
        write_sgpr64(w, code, v)
    } else {
        write_sgpr(w, code, v as u32)
    }
}

/// Reads a lane-mask operand (VCC, an SGPR or pair, or a constant).
#[inline]
pub fn read_mask(w: &Wave, inst: &Inst, code: u16) -> u64 {
    let ty = if w.wave64 { Ty::B64 } else { Ty::B32 };
    read_scalar(w, inst, code, ty) & w.lane_mask()
}

/// Keeps STATUS.EXECZ/VCCZ-style summary bits in step with EXEC and VCC when software reads
/// STATUS (they are derived, not stored, everywhere else).
pub fn status_with_summaries(w: &Wave) -> u32 {
    let mut s = w.hw.status & !(status::EXECZ | status::VCCZ | status::SCC);
    if w.exec() == 0 {
        s |= status::EXECZ;
    }
    if w.vcc() == 0 {
        s |= status::VCCZ;
    }
    if w.scc {
        s |= status::SCC;
    }
    s
}
