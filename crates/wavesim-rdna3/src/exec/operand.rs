//! Reading and writing operands: the scalar operand space, inline constants, literals, VGPR
//! rows with EXEC masking, and the out-of-range rules of the RDNA3 ISA guide (Wave State).

use crate::decode::{opnd, Dpp, Inst};
use crate::exec::dpp;
use crate::isa::Ty;
use crate::wave::{status, Wave, LANES, NUM_SGPRS};
use std::mem::MaybeUninit;

/// One 32-bit value per lane.
pub use crate::wave::Lanes32;
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
        240..=248 => inline_float(code, ty),
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

/// The value of float inline constant `code` (240..=248) for an operand of type `ty` (RDNA3 ISA
/// 4.1 and 7.5.1): 64-bit operands get the f64 value; 16-bit operands, packed or not, the f16
/// value zero-extended ("the 16-bit floating point in the low bits and zeros in the high
/// bits"); bf16 operands the upper 16 bits of the f32 value ("BF16 uses 32-bit float constants
/// and then the BF16 operand selects the upper 16 bits"); everything else the f32 value.
#[inline]
pub fn inline_float(code: u16, ty: Ty) -> u64 {
    let k = (code.clamp(240, 248) - 240) as usize;
    match ty {
        Ty::Bf16 | Ty::PkBf16 => (INLINE_F32[k] >> 16) as u64,
        Ty::PkF16 => INLINE_F16[k] as u64,
        t if t.dwords() == 2 => INLINE_F64[k],
        t if t.is_16bit() => INLINE_F16[k] as u64,
        _ => INLINE_F32[k] as u64,
    }
}

/// True for the inline-constant operand codes (integers 128..=208, floats 240..=248).
#[inline]
pub fn is_inline_const(code: u16) -> bool {
    matches!(code, 128..=208 | 240..=248)
}

/// An inline constant as a packed 2 x 16-bit source of a dot instruction that has no OPSEL for
/// it (v_dot2acc_f32_f16 in VOP2 and VOPD, v_dot2_f16_f16, v_dot2_bf16_bf16): its 16-bit value
/// is duplicated into both halves (RDNA3 ISA 7.5.1 table: DOT2ACC "Duplicate lo to hi, ignore
/// OPSEL"). Float constants are f16 (or the bf16 upper half of the f32 value, `ty` = PkBf16);
/// integer constants their low 16 bits. None for any other operand.
#[inline]
pub fn dot_inline_const(code: u16, ty: Ty) -> Option<u32> {
    let v = match code {
        128..=208 => inline_int(code) as u32 & 0xffff,
        240..=248 => inline_float(code, ty) as u32 & 0xffff,
        _ => return None,
    };
    Some(v | v << 16)
}

/// A 32-bit literal widened to the operand type (RDNA3 ISA, "Literal constants": a 64-bit float
/// operand takes the literal as its high 32 bits; 64-bit integer operands zero-extend it, except
/// signed (i64) operands, which the hardware sign-extends — the rule LLVM's AMDGPU backend
/// encodes for 64-bit literals in `SIInstrInfo::isOperandLegal`).
#[inline]
pub fn literal(lit: u32, ty: Ty) -> u64 {
    match ty {
        Ty::F64 => (lit as u64) << 32,
        Ty::I64 => lit as i32 as i64 as u64,
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

/// Reads one scalar register of the operand space, applying the RDNA3 ISA guide's rules: NULL reads 0,
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
/// out of range) — callers that update SCC must not do so then (RDNA3 ISA guide, Wave State).
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

/// Writes a 64-bit scalar destination (an aligned pair; the RDNA3 ISA guide (Wave State): the LSB of a 64-bit SGPR
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

/// Reads a 64-bit scalar operand with the forced pair alignment of the RDNA3 ISA guide (Wave State).
#[inline]
pub fn read_scalar64(w: &Wave, inst: &Inst, code: u16, ty: Ty) -> u64 {
    let code = if code < 128 { code & !1 } else { code };
    read_scalar(w, inst, code, ty)
}

/// 64-bit scalar source `k` (aligned SGPR pair; a literal is zero-extended).
#[inline(always)]
pub(crate) fn s64(w: &Wave, i: &Inst, k: usize) -> u64 {
    read_scalar64(w, i, i.src[k], Ty::B64)
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
        if k == 0 && inst.dpp != Dpp::None {
            let (mut lo, mut hi) = ([0u32; LANES], [0u32; LANES]);
            let kill = dpp::apply(w, inst, w.vrow(r), &mut lo);
            dpp::apply(w, inst, w.vrow(r + 1), &mut hi);
            for l in 0..LANES {
                out[l] = lo[l] as u64 | (hi[l] as u64) << 32;
            }
            return kill;
        }
        // Straight from the two rows (no intermediate copies).
        let (lo, hi) = (vrow_lanes(w, r), vrow_lanes(w, r + 1));
        for l in 0..LANES {
            out[l] = lo[l] as u64 | (hi[l] as u64) << 32;
        }
        0
    } else {
        let v = read_scalar64(w, inst, code, ty);
        *out = [v; LANES];
        0
    }
}

/// True if VGPR destination `code` (spanning `regs` registers) is in range; if not, the RDNA3 ISA guide (Wave State)
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
    let wave64 = w.wave64;
    let row = (code - opnd::VGPR0) as usize;
    let Some(dst) = w.vrow_mut(row) else { return };
    // A lane count known at compile time lets the copy / blend be inlined and vectorised.
    if wave64 {
        write_lanes::<64>(dst, vals, mask);
    } else {
        write_lanes::<32>(dst, vals, mask);
    }
}

/// `dst[l] = vals[l]` for the first `N` lanes whose bit is set in `mask` (branch-free blend).
#[inline(always)]
fn write_lanes<const N: usize>(dst: &mut [u32], vals: &Lanes32, mask: u64) {
    let (Some(dst), Some(vals)) = (dst.first_chunk_mut::<N>(), vals.first_chunk::<N>()) else {
        return;
    };
    if mask & (u64::MAX >> (64 - N)) == u64::MAX >> (64 - N) {
        *dst = *vals;
    } else {
        for l in 0..N {
            // All ones where the lane keeps its old value.
            let keep = ((mask >> l) as u32 & 1).wrapping_sub(1);
            dst[l] = (dst[l] & keep) | (vals[l] & !keep);
        }
    }
}

/// Lanes of a VGPR row when no row exists (unreachable: `Wave::vrow` always returns a row).
static ZERO_LANES: Lanes32 = [0; LANES];

/// VGPR row `r` as a lane array, borrowed (out-of-range rows read v0, as `Wave::vrow`).
#[inline(always)]
pub fn vrow_lanes(w: &Wave, r: usize) -> &Lanes32 {
    w.vrow(r).first_chunk::<LANES>().unwrap_or(&ZERO_LANES)
}

/// Source `k` of a VALU instruction as 32-bit lanes, like `vsrc32_typed`, but without a copy
/// in the common case: a plain VGPR source (no DPP on it, not a 16-bit half, no abs/neg) is
/// the register row itself; anything else is materialised into `buf` by `vsrc32_typed`. The
/// DPP kill mask is ORed into `kill`. For the hot lane loops: no memset, no memcpy per source.
#[inline(always)]
pub fn vsrc32_ref<'a>(
    w: &'a Wave,
    inst: &Inst,
    k: usize,
    ty: Ty,
    buf: &'a mut MaybeUninit<Lanes32>,
    kill: &mut u64,
) -> &'a Lanes32 {
    let code = inst.src[k];
    if !ty.is_16bit() && (inst.abs | inst.neg) >> k & 1 == 0 {
        if !opnd::is_vgpr(code) {
            // A scalar, constant or literal: the same splat `vsrc32` makes, written once.
            return buf.write([read_scalar(w, inst, code, ty) as u32; LANES]);
        }
        if !(k == 0 && inst.dpp != Dpp::None) {
            return vrow_lanes(w, (code - opnd::VGPR0) as usize);
        }
    }
    let out = buf.write([0; LANES]);
    *kill |= vsrc32_typed(w, inst, k, ty, out);
    out
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

// ---------------------------------------------------------------------------------------------
// Shared VALU plumbing: MODE decoding, typed source fetch with op_sel / true16 halves and the
// abs/neg input modifiers, 16-bit half writes. Used by the float, compare and integer families.
// ---------------------------------------------------------------------------------------------

use crate::decode::Enc;
use wavesim_core::fp::soft::{self, FpCtl, FpFmt, Round};

/// The MODE fields that change VALU results (RDNA3 ISA, "MODE register"): FP_ROUND [3:0]
/// (f32 in [1:0], f64 and f16 in [3:2]), FP_DENORM [7:4] (f32 in [5:4], f64/f16 in [7:6]; in
/// each pair bit 0 keeps input denormals and bit 1 keeps output denormals, so 3 = keep all and
/// 0 = flush all), DX10_CLAMP [8] (clamp turns NaN into 0), IEEE [9] (sNaN-aware min/max, no
/// output modifier).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FpMode {
    pub f32: FpCtl,
    /// f64 and f16 share MODE's second rounding and denormal fields.
    pub f64: FpCtl,
    pub dx10_clamp: bool,
    pub ieee: bool,
    /// IEEE exception flags are recorded (`soft::raise`): MODE.EXCP_EN has an enabled float or
    /// integer-divide bit and DX10_CLAMP, which suppresses all VALU exceptions, is clear (RDNA3
    /// ISA 3.4.2). Only then does TRAPSTS.EXCP accumulate: the ISA accumulates it regardless of
    /// EXCP_EN, which would cost the default path the bookkeeping.
    pub detect: bool,
}

impl FpMode {
    /// Decodes the wave's MODE register (done once per instruction, outside lane loops).
    #[inline]
    pub fn of(w: &Wave) -> FpMode {
        FpMode::from_mode(w.hw.mode)
    }

    /// Decodes a MODE register value.
    #[inline]
    pub fn from_mode(m: u32) -> FpMode {
        let detect = m & MODE_EXCP_EN_VALU != 0 && m & (1 << 8) == 0;
        let ctl = |round: u32, den: u32| FpCtl {
            rm: Round::from_bits(round),
            ftz_in: den & 1 == 0,
            ftz_out: den & 2 == 0,
            detect,
            nan: soft::NanPolicy::RDNA3,
        };
        FpMode {
            f32: ctl(m, (m >> 4) & 3),
            f64: ctl(m >> 2, (m >> 6) & 3),
            dx10_clamp: m & (1 << 8) != 0,
            ieee: m & (1 << 9) != 0,
            detect,
        }
    }

    /// Rounding/denormal control of a float format: f32 (and bf16) use the f32 fields, f64 and
    /// f16 the f64/f16 fields.
    #[inline]
    pub fn ctl(&self, f: FpFmt) -> FpCtl {
        if f == soft::F32 || f == soft::BF16 {
            self.f32
        } else {
            self.f64
        }
    }
}

/// The MODE a wave starts with when its kernel descriptor keeps the assembler's defaults
/// (AMDGPUUsage, ".amdhsa_kernel" directives: .amdhsa_float_round_mode_32/16_64 0 = round to
/// nearest even, .amdhsa_float_denorm_mode_32 0 = f32 denormals flushed on input and output,
/// .amdhsa_float_denorm_mode_16_64 3 = f16/f64 denormals kept, .amdhsa_dx10_clamp 1,
/// .amdhsa_ieee_mode 1; llvm-mc-19 writes COMPUTE_PGM_RSRC1 = 0x60ac0000 for such a kernel).
/// Bare code run without a descriptor (the C ABI's `run_asm`) starts with this MODE, so that
/// `v_mul_f32 2.0, denormal` gives 0 as it does on hardware under a default descriptor.
pub const MODE_KERNEL_DESCRIPTOR_DEFAULT: u32 = 0xc0 | 1 << 8 | 1 << 9;

/// MODE.EXCP_EN bits of the exceptions VALU instructions raise: invalid [12], input denormal
/// [13], divide by zero [14], overflow [15], underflow [16], inexact [17], integer divide by
/// zero [18] (RDNA3 ISA 3.4.2, Table 6).
pub const MODE_EXCP_EN_VALU: u32 = 0x7f << 12;

/// The float format of an operand type, if it is a float type (packed types give their half).
#[inline]
pub fn float_fmt(ty: Ty) -> Option<FpFmt> {
    match ty {
        Ty::F16 | Ty::PkF16 => Some(soft::F16),
        Ty::Bf16 | Ty::PkBf16 => Some(soft::BF16),
        Ty::F32 => Some(soft::F32),
        Ty::F64 => Some(soft::F64),
        _ => None,
    }
}

/// True for the 32-bit encodings (VOP1/VOP2/VOPC, with or without DPP), where a 16-bit VGPR
/// operand uses bit 7 of its register number to select the high half ("true16": v0-v127 only).
#[inline]
pub fn is_e32(inst: &Inst) -> bool {
    matches!(inst.enc, Enc::Vop1 | Enc::Vop2 | Enc::Vopc)
}

/// Sign bit of a float operand type (abs/neg act on it, also for NaN); 0 for non-float types.
#[inline]
fn sign_bit_of(ty: Ty) -> u64 {
    match ty {
        Ty::F16 | Ty::Bf16 => 0x8000,
        Ty::PkF16 | Ty::PkBf16 => 0x8000_8000,
        Ty::F32 => 0x8000_0000,
        Ty::F64 => 0x8000_0000_0000_0000,
        _ => 0,
    }
}

/// Applies the abs/neg input modifiers of source `k` (VOP3 fields, or the DPP16 word of the
/// e32 forms) to `v` of type `ty`: abs clears, neg then flips the sign bit. Non-float types are
/// left alone (integer ops give those bits other meanings).
#[inline]
pub fn src_mods(inst: &Inst, k: usize, ty: Ty, v: u64) -> u64 {
    let s = sign_bit_of(ty);
    let mut v = v;
    if inst.abs >> k & 1 != 0 {
        v &= !s;
    }
    if inst.neg >> k & 1 != 0 {
        v ^= s;
    }
    v
}

/// Reads source `k` of a VALU instruction typed `ty` (at most 32 bits) into `out`, one value per
/// lane in the low bits: 16-bit types take the half chosen by op_sel bit k (VOP3) or by VGPR
/// bit 7 (e32 true16) and are zero-extended; float types get abs/neg. DPP applies to src0.
/// Returns the lanes whose DPP source was invalid (they must keep their destination).
pub fn vsrc32_typed(w: &Wave, inst: &Inst, k: usize, ty: Ty, out: &mut Lanes32) -> u64 {
    let code = inst.src[k];
    let mut kill = 0;
    if ty.is_16bit() {
        let (row, hi) = if opnd::is_vgpr(code) && is_e32(inst) && code >= opnd::VGPR0 + 128 {
            (Some((code - opnd::VGPR0 - 128) as usize), true)
        } else if opnd::is_vgpr(code) {
            (
                Some((code - opnd::VGPR0) as usize),
                inst.op_sel >> k & 1 != 0,
            )
        } else {
            (None, inst.op_sel >> k & 1 != 0 && !is_e32(inst))
        };
        match row {
            Some(r) if k == 0 && inst.dpp != Dpp::None => {
                kill = dpp::apply(w, inst, w.vrow(r), out);
            }
            Some(r) => out.copy_from_slice(w.vrow(r)),
            None => {
                // Scalars and constants: op_sel picks bits [31:16] of the 32-bit value.
                let v = if hi {
                    read_scalar(w, inst, code, Ty::B32) as u32
                } else {
                    read_scalar(w, inst, code, ty) as u32
                };
                *out = [v; LANES];
            }
        }
        if hi {
            for v in out.iter_mut() {
                *v >>= 16;
            }
        } else {
            for v in out.iter_mut() {
                *v &= 0xffff;
            }
        }
    } else {
        kill = vsrc32(w, inst, k, ty, out);
    }
    if (inst.abs | inst.neg) >> k & 1 != 0 && sign_bit_of(ty) != 0 {
        for v in out.iter_mut() {
            *v = src_mods(inst, k, ty, *v as u64) as u32;
        }
    }
    kill
}

/// Like `vsrc32_typed` for 64-bit types (a VGPR pair, an aligned SGPR pair, a constant).
pub fn vsrc64_typed(w: &Wave, inst: &Inst, k: usize, ty: Ty, out: &mut Lanes64) -> u64 {
    let kill = vsrc64(w, inst, k, ty, out);
    if (inst.abs | inst.neg) >> k & 1 != 0 && sign_bit_of(ty) != 0 {
        for v in out.iter_mut() {
            *v = src_mods(inst, k, ty, *v);
        }
    }
    kill
}

/// Reads source `k` of any width into 64-bit lanes (see `vsrc32_typed` / `vsrc64_typed`).
pub fn vsrc_typed(w: &Wave, inst: &Inst, k: usize, ty: Ty, out: &mut Lanes64) -> u64 {
    if ty.dwords() == 2 {
        return vsrc64_typed(w, inst, k, ty, out);
    }
    let mut t = [0u32; LANES];
    let kill = vsrc32_typed(w, inst, k, ty, &mut t);
    for l in 0..LANES {
        out[l] = t[l] as u64;
    }
    kill
}

/// The VGPR and half a 16-bit result goes to: VOP3 op_sel bit 3 selects the high half; the e32
/// encodings use bit 7 of the VGPR number (true16).
#[inline]
pub fn dst16(inst: &Inst) -> (u16, bool) {
    let code = inst.dst[0];
    if is_e32(inst) && code >= opnd::VGPR0 + 128 {
        (code - 128, true)
    } else {
        (code, inst.op_sel & 8 != 0)
    }
}

/// Writes the low 16 bits of `vals` into the chosen half of VGPR `code` in the lanes of `mask`,
/// keeping the other half (RDNA3 16-bit VALU results preserve the unwritten half). An
/// out-of-range VGPR makes this a no-op (RDNA3 ISA guide, Wave State).
pub fn vdst16(w: &mut Wave, code: u16, hi: bool, vals: &Lanes32, mask: u64) {
    if !vdst_in_range(w, code, 1) {
        return;
    }
    let n = w.lanes();
    let Some(dst) = w.vrow_mut((code - opnd::VGPR0) as usize) else {
        return;
    };
    for l in 0..n {
        if mask >> l & 1 != 0 {
            dst[l] = if hi {
                (dst[l] & 0xffff) | (vals[l] << 16)
            } else {
                (dst[l] & 0xffff_0000) | (vals[l] & 0xffff)
            };
        }
    }
}

/// Reads the current destination of an accumulating op (v_fmac_*: D is also a source) typed
/// `ty`, honouring the 16-bit half selection of `dst16`.
pub fn vdst_as_src(w: &Wave, inst: &Inst, ty: Ty, out: &mut Lanes64) {
    if ty.is_16bit() {
        let (code, hi) = dst16(inst);
        let row = w.vrow((code - opnd::VGPR0) as usize);
        for l in 0..LANES {
            out[l] = if hi { row[l] >> 16 } else { row[l] & 0xffff } as u64;
        }
    } else if ty.dwords() == 2 {
        let r = (inst.dst[0] - opnd::VGPR0) as usize;
        let (lo, hi) = (w.vrow(r), w.vrow(r + 1));
        for l in 0..LANES {
            out[l] = lo[l] as u64 | (hi[l] as u64) << 32;
        }
    } else {
        let row = w.vrow((inst.dst[0] - opnd::VGPR0) as usize);
        for l in 0..LANES {
            out[l] = row[l] as u64;
        }
    }
}

/// Writes a typed VALU result held in 64-bit lanes to `inst.dst[0]`: 16-bit types into a half
/// (`dst16`), 64-bit types into a VGPR pair, everything else into one VGPR.
pub fn vdst_typed(w: &mut Wave, inst: &Inst, ty: Ty, vals: &Lanes64, mask: u64) {
    if ty.dwords() == 2 {
        vdst64(w, inst.dst[0], vals, mask);
        return;
    }
    let mut t = [0u32; LANES];
    for l in 0..LANES {
        t[l] = vals[l] as u32;
    }
    if ty.is_16bit() {
        let (code, hi) = dst16(inst);
        vdst16(w, code, hi, &t, mask);
    } else {
        vdst32(w, inst.dst[0], &t, mask);
    }
}
