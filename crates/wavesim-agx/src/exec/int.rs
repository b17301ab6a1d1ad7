//! Integer ALU: moves, add/multiply-add, bit fields, shifts, bit operations.

use super::{
    bit_size, dst_reg, int_src, missing, per_thread, saturate_int, shl, shr, sign_extend, Fault,
    Ops, WaveState,
};
use crate::operand::Operand;
use crate::table_types::Sem;

/// `mov_imm`: the immediate in every active thread.
pub(super) fn mov_imm(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    let imm = o.d.operands[1].clone();
    let v = match imm {
        Operand::Imm(v) => v as u128,
        _ => return Err(missing("imm")),
    };
    per_thread(w, o.op("D")?, |_, _| Ok(v))?;
    Ok(())
}

/// `get_sr`: a special register (provided by the dispatch; sr80 defaults to the thread index, as in
/// applegpu's emulator). sr56-59 count active threads of the quad / SIMD group at this instruction
/// (applegpu's and Mesa's names `active_thread_index_in_quad`, `total_active_threads_in_quad`,
/// `active_thread_index_in_subgroup`, `total_active_threads_in_subgroup`; Mesa reads sr58/sr59 for
/// its `load_active_subgroup_invocation_agx`/`_count_agx`, the index among the active threads that
/// its uniform-atomic optimisation needs).
pub(super) fn get_sr(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    let sr = o.field("SR");
    let exec = w.exec;
    let below = |l: usize| exec & ((1u32 << l) - 1);
    let quad = |l: usize| exec & (0xF << (l & !3));
    let values: [u32; super::SIMD_WIDTH] = match (w.special.get(&sr), sr) {
        (Some(v), _) => *v,
        (None, 80) => std::array::from_fn(|l| l as u32),
        (None, 56) => std::array::from_fn(|l| (below(l) & quad(l)).count_ones()),
        (None, 57) => std::array::from_fn(|l| quad(l).count_ones()),
        (None, 58) => std::array::from_fn(|l| below(l).count_ones()),
        (None, 59) => [exec.count_ones(); super::SIMD_WIDTH],
        _ => return Err(Fault::SpecialRegister(sr)),
    };
    per_thread(w, o.op("D")?, |_, l| Ok(values[l] as u128))?;
    Ok(())
}

/// `iadd`/`isub`: B negated, shifted left by `s` (zero from 5 on), added; saturation when `S` and no
/// operand is wider than 32 bits, signed if either source sign-extends (applegpu).
pub(super) fn iadd(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    let (dop, a_op, b_op) = (o.op("D")?, o.op("A")?, o.op("B")?);
    let dst_bits = dst_reg(dop)?.file.bits();
    let shift = o.field("s");
    let sat = o.field("S") != 0
        && shift == 0
        && bit_size(a_op) <= 32
        && bit_size(b_op) <= 32
        && dst_bits <= 32;
    let signed = o.field("As") != 0 || o.field("Bs") != 0;
    let neg = o.field("N") != 0;
    per_thread(w, dop, |w, l| {
        let a = int_src(w, a_op, l)?;
        let mut b = int_src(w, b_op, l)?;
        if neg {
            b = -b;
        }
        b = if shift < 5 { b << shift } else { 0 };
        let mut r = a + b;
        if sat {
            r = saturate_int(r, dst_bits, signed);
        }
        Ok(r as u128)
    })?;
    Ok(())
}

/// `imadd`/`imsub`: A * B + (±C << s) (applegpu).
pub(super) fn imadd(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    let (dop, a_op, b_op, c_op) = (o.op("D")?, o.op("A")?, o.op("B")?, o.op("C")?);
    let dst_bits = dst_reg(dop)?.file.bits();
    let shift = o.field("s");
    let sat = o.field("S") != 0 && shift == 0 && bit_size(c_op) <= 32 && dst_bits <= 32;
    let signed = o.field("As") != 0 || o.field("Bs") != 0 || o.field("Cs") != 0;
    let neg = o.field("N") != 0;
    per_thread(w, dop, |w, l| {
        let a = int_src(w, a_op, l)?;
        let b = int_src(w, b_op, l)?;
        let mut c = int_src(w, c_op, l)?;
        if neg {
            c = -c;
        }
        c = if shift < 5 { c << shift } else { 0 };
        let mut r = a.wrapping_mul(b).wrapping_add(c);
        if sat {
            r = saturate_int(r, dst_bits, signed);
        }
        Ok(r as u128)
    })?;
    Ok(())
}

/// Bit-field insert/extract, register-pair extract, shift-high-and-insert (applegpu); the shift is
/// C & 0x7F and the mask `m` bits (32 when 0).
pub(super) fn bitfield(w: &mut WaveState, o: &Ops<'_>, sem: Sem) -> Result<(), Fault> {
    let (dop, a_op, b_op, c_op) = (o.op("D")?, o.op("A")?, o.op("B")?, o.op("C")?);
    let m = o.field("m");
    let mask: u128 = if m != 0 { (1 << m) - 1 } else { 0xFFFF_FFFF };
    per_thread(w, dop, |w, l| {
        let a = int_src(w, a_op, l)? as u128;
        let b = int_src(w, b_op, l)? as u128;
        let sh = (int_src(w, c_op, l)? as u128 & 0x7F) as u32;
        Ok(match sem {
            Sem::Bfi => (a & !shl(mask, sh)) | shl(b & mask, sh),
            Sem::Bfeil => (a & !mask) | (shr(b, sh) & mask),
            Sem::Extr => shr((b << 32) | a, sh) & mask,
            Sem::Shlhi => {
                let shifted_mask = shl(mask, sh.saturating_sub(32));
                // b < 2^32, so bits 32.. of b << sh vanish once sh >= 96.
                let hi = if sh >= 96 { 0 } else { (b << sh) >> 32 };
                (hi & shifted_mask) | (a & !shifted_mask)
            }
            _ => {
                let shifted_mask = (mask << 32) >> sh.min(32);
                (shr(b << 32, sh) & shifted_mask) | (a & !shifted_mask)
            }
        })
    })?;
    Ok(())
}

/// `asr` / `asrh`: arithmetic shift right of the sign-extended A (shifted up 32 bits for `asrh`).
pub(super) fn asr(w: &mut WaveState, o: &Ops<'_>, sem: Sem) -> Result<(), Fault> {
    let (dop, a_op, b_op) = (o.op("D")?, o.op("A")?, o.op("B")?);
    let high = sem == Sem::Asrh;
    per_thread(w, dop, |w, l| {
        let a = sign_extend(int_src(w, a_op, l)? as u64, bit_size(a_op));
        let sh = (int_src(w, b_op, l)? & 0x7F) as u32;
        let a = if high { a << 32 } else { a };
        Ok((a >> sh) as u128)
    })?;
    Ok(())
}

/// `bitop`: the four-entry truth table over (A, B) bit pairs (applegpu).
pub(super) fn bitop(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    let (dop, a_op, b_op) = (o.op("D")?, o.op("A")?, o.op("B")?);
    let tt = [
        o.field("tt0"),
        o.field("tt1"),
        o.field("tt2"),
        o.field("tt3"),
    ];
    per_thread(w, dop, |w, l| {
        let a = int_src(w, a_op, l)? as u128;
        let b = int_src(w, b_op, l)? as u128;
        if tt == [0, 0, 1, 1] || tt == [1, 1, 0, 0] {
            // applegpu (checked on hardware): these tables pass A through.
            return Ok(a);
        }
        let mut r = 0;
        if tt[0] != 0 {
            r |= !a & !b;
        }
        if tt[1] != 0 {
            r |= a & !b;
        }
        if tt[2] != 0 {
            r |= !a & b;
        }
        if tt[3] != 0 {
            r |= a & b;
        }
        Ok(r)
    })?;
    Ok(())
}

/// `bitrev`, `popcount`, `ffs` (index of the highest set bit, all ones for 0) on 32 bits (applegpu).
pub(super) fn bit_count(w: &mut WaveState, o: &Ops<'_>, sem: Sem) -> Result<(), Fault> {
    let (dop, a_op) = (o.op("D")?, o.op("A")?);
    per_thread(w, dop, |w, l| {
        let a = int_src(w, a_op, l)? as u64 & 0xFFFF_FFFF;
        Ok(match sem {
            Sem::Bitrev => (a as u32).reverse_bits() as u128,
            Sem::Popcount => a.count_ones() as u128,
            _ => {
                if a == 0 {
                    u128::MAX
                } else {
                    (63 - a.leading_zeros()) as u128
                }
            }
        })
    })?;
    Ok(())
}

/// `intl`: interleave the low 16 bits of A (even bits) and B (odd bits) (applegpu's pseudocode).
pub(super) fn intl(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    let (dop, a_op, b_op) = (o.op("D")?, o.op("A")?, o.op("B")?);
    per_thread(w, dop, |w, l| {
        let a = int_src(w, a_op, l)? as u64;
        let b = int_src(w, b_op, l)? as u64;
        let mut r = 0u128;
        for i in 0..16 {
            r |= (((a >> i) & 1) as u128) << (2 * i);
            r |= (((b >> i) & 1) as u128) << (2 * i + 1);
        }
        Ok(r)
    })?;
    Ok(())
}
