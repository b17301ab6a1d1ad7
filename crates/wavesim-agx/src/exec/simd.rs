//! SIMD-group operations: ballots, shuffles, reductions, prefixes and the 8x8 matrix multiply-add.

use super::float::{float_result, widen_f32_result};
use super::{
    active, bit_size, dst_reg, float_src, int_src, per_thread, require_approximate, sign_extend,
    Compare, Fault, Ops, WaveState, SIMD_WIDTH,
};
use crate::fp;
use crate::operand::Operand;
use crate::table_types::{RedOp, Sem};

/// `icmp_ballot`/`fcmp_ballot`: the mask of active threads whose comparison holds, in every active
/// thread.
pub(super) fn ballot(w: &mut WaveState, o: &Ops<'_>, float: bool) -> Result<(), Fault> {
    let result = compare_mask(w, o, float)? as u128;
    per_thread(w, o.op("D")?, |_, _| Ok(result))?;
    Ok(())
}

/// The mask of active threads whose comparison (operands A, B, condition cc/ccn) holds.
fn compare_mask(w: &WaveState, o: &Ops<'_>, float: bool) -> Result<u32, Fault> {
    let cmp = Compare::of(o, float)?;
    let mut mask = 0u32;
    for l in active(w) {
        if cmp.eval(w, l)? {
            mask |= 1 << l;
        }
    }
    Ok(mask)
}

pub(super) fn shuffle(w: &mut WaveState, o: &Ops<'_>, sem: Sem) -> Result<(), Fault> {
    let (dop, a_op, b_op) = (o.op("D")?, o.op("A")?, o.op("B")?);
    let dst = dst_reg(dop)?;
    // Not execution-masked: every thread's A and B take part (applegpu, checked on hardware).
    let mut a = [0i128; SIMD_WIDTH];
    let mut b = [0i128; SIMD_WIDTH];
    for l in 0..SIMD_WIDTH {
        b[l] = int_src(w, b_op, l)?;
        if sem != Sem::SimdShuffle {
            a[l] = int_src(w, a_op, l)?;
        }
    }
    let mut quad_sel = [0usize; 8];
    for (q, sel) in quad_sel.iter_mut().enumerate() {
        *sel = (0..4).fold(0, |m, i| m | (b[4 * q + i] & 3) as usize);
    }
    let mut results = vec![];
    if sem == Sem::SimdShuffle {
        let mut quad_values = [0i128; 8];
        for q in 0..8 {
            quad_values[q] = int_src(w, a_op, 4 * q + quad_sel[q])?;
        }
        for l in active(w) {
            let index = b[l];
            let r = if index < 32 {
                quad_values[(index >> 2) as usize]
            } else {
                int_src(w, a_op, l)?
            };
            results.push((l, r));
        }
    } else {
        let quad_value = |q: usize, i: usize| -> i128 {
            let s = quad_sel[q];
            let j = match sem {
                Sem::SimdShuffleDown => (i + s) & 3,
                Sem::SimdShuffleXor => (i ^ s) & 3,
                _ => (i + 4 - s) & 3,
            };
            a[4 * q + j]
        };
        for l in active(w) {
            let index = b[l];
            let t = l as i128;
            let r = match sem {
                Sem::SimdShuffleDown if index + t < 32 => {
                    quad_value(((index + t) >> 2) as usize, l & 3)
                }
                Sem::SimdShuffleUp if t - index >= 0 => {
                    quad_value(((t - index) >> 2) as usize, l & 3)
                }
                Sem::SimdShuffleRotateUp => quad_value((((t - index) & 31) >> 2) as usize, l & 3),
                Sem::SimdShuffleXor if (t ^ index) < 32 => {
                    quad_value((((t ^ index) & 31) >> 2) as usize, l & 3)
                }
                _ => a[l],
            };
            results.push((l, r));
        }
    }
    for (l, r) in results {
        w.write(dst, l, r as u128)?;
    }
    Ok(())
}

/// `icmp_quad_ballot`/`fcmp_quad_ballot`: in each active thread, the comparison results of the
/// active threads of its quad, thread 4q + i at bit i. Sources: applegpu's note on the rows ("followed
/// by `& 15` for a real quad_ballot": the quad's bits are bits 0-3) and Mesa's quad vote lowering
/// (`agx_nir_lower_subgroups.c` compares the raw result with 0, so no other quad's bits appear). The
/// bits above 3 are 0 here; no source shows the hardware setting them (Apple's compiler masks them
/// off, Mesa never reads them beyond the comparison with 0).
pub(super) fn quad_ballot(w: &mut WaveState, o: &Ops<'_>, float: bool) -> Result<(), Fault> {
    let ballot = compare_mask(w, o, float)?;
    per_thread(w, o.op("D")?, |_, l| {
        Ok(((ballot >> (l & !3)) & 0xF) as u128)
    })?;
    Ok(())
}

/// `quad_shuffle` (broadcast of thread B of the quad) and `quad_shuffle_xor` (thread i ^ B), as Mesa
/// emits them for `quad_broadcast` and `quad_swap_horizontal/vertical/diagonal` (xor 1, 2, 3): the
/// index is uniform across the quad in both. A quad whose active threads disagree on B, or a B of 4
/// or more, has no public rule (applegpu describes only the SIMD-wide forms, whose index is taken
/// per quad) and is a typed error. Sources are read whether or not their thread is active, as for
/// the SIMD-wide shuffles.
pub(super) fn quad_shuffle(w: &mut WaveState, o: &Ops<'_>, xor: bool) -> Result<(), Fault> {
    let (dop, a_op, b_op) = (o.op("D")?, o.op("A")?, o.op("B")?);
    let dst = dst_reg(dop)?;
    let lanes: Vec<usize> = active(w).collect();
    let mut index = [None::<i128>; 8];
    for &l in &lanes {
        let b = int_src(w, b_op, l)?;
        match index[l / 4] {
            Some(prev) if prev != b => {
                return Err(Fault::UnsupportedForm {
                    what: format!(
                    "quad shuffle index differs within quad {} ({prev} and {b}): no public rule",
                    l / 4
                ),
                })
            }
            _ => index[l / 4] = Some(b),
        }
        if !(0..4).contains(&b) {
            return Err(Fault::UnsupportedForm {
                what: format!("quad shuffle index {b} (0-3 have a rule)"),
            });
        }
    }
    let mut results = Vec::with_capacity(lanes.len());
    for &l in &lanes {
        let b = index[l / 4].unwrap_or(0) as usize;
        let src = (l & !3) + if xor { (l & 3) ^ b } else { b };
        results.push((l, int_src(w, a_op, src)?));
    }
    for (l, r) in results {
        w.write(dst, l, r as u128)?;
    }
    Ok(())
}

/// SIMD-group and quad reductions and exclusive prefixes over the active threads, in thread order.
/// Rules: the operation is the row's (applegpu's row names); prefixes are exclusive (Mesa's inclusive
/// scan adds the thread's own value after `simd_prefix_iadd`, as asahi_clc's output of
/// corpus/agx/clc/subgroup.cl shows); inactive threads do not contribute (OpenCL subgroup
/// semantics); float operations combine in thread order with the float ALU's rounding (fadd32/fmul32,
/// or the 16-bit forms for 16-bit sources), min/max returning the non-NaN operand. The first thread
/// of an exclusive prefix receives the identity (0, all ones for `and`, +0.0 / 1.0, the extreme value
/// for min/max).
pub(super) fn reduce(w: &mut WaveState, o: &Ops<'_>, sem: Sem) -> Result<(), Fault> {
    let (op, prefix, quad) = match sem {
        Sem::SimdReduce(op) => (op, false, false),
        Sem::SimdPrefix(op) => (op, true, false),
        Sem::QuadReduce(op) => (op, false, true),
        Sem::QuadPrefix(op) => (op, true, true),
        _ => {
            return Err(Fault::UnsupportedForm {
                what: "not a reduction".into(),
            })
        }
    };
    let dst = dst_reg(o.op("D")?)?;
    let a_op = o.op("A")?;
    let bits = bit_size(a_op);
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let float = matches!(op, RedOp::FAdd | RedOp::FMul | RedOp::MinF | RedOp::MaxF);
    if float && bits == 64 {
        return Err(Fault::UnsupportedForm {
            what: "64-bit float reduction".into(),
        });
    }
    let to_f64 = |v: u64| {
        if bits == 16 {
            fp::f16_to_f64(v)
        } else {
            fp::f32_to_f64_ftz(v)
        }
    };
    let from_f64 = |v: u64| {
        if bits == 16 {
            fp::f64_to_f16(v)
        } else {
            fp::f64_to_f32(v, true)
        }
    };
    let identity: u64 = match op {
        RedOp::And => mask,
        RedOp::Or | RedOp::Xor | RedOp::IAdd | RedOp::MaxU => 0,
        RedOp::MinU => mask,
        RedOp::MinS => mask >> 1,
        RedOp::MaxS => (mask >> 1) + 1,
        RedOp::FAdd => 0,
        RedOp::FMul => from_f64(fp::F64_ONE),
        RedOp::MinF => from_f64(f64::INFINITY.to_bits()),
        RedOp::MaxF => from_f64(f64::NEG_INFINITY.to_bits()),
    };
    let combine = |x: u64, y: u64| -> u64 {
        let sx = |v: u64| sign_extend(v, bits);
        match op {
            RedOp::And => x & y,
            RedOp::Or => x | y,
            RedOp::Xor => x ^ y,
            RedOp::IAdd => x.wrapping_add(y) & mask,
            RedOp::MinU => x.min(y),
            RedOp::MaxU => x.max(y),
            RedOp::MinS => {
                if sx(x) <= sx(y) {
                    x
                } else {
                    y
                }
            }
            RedOp::MaxS => {
                if sx(x) >= sx(y) {
                    x
                } else {
                    y
                }
            }
            RedOp::FAdd => from_f64(fp::fma_round_to_odd(to_f64(x), fp::F64_ONE, to_f64(y))),
            RedOp::FMul => from_f64(fp::fma_round_to_odd(to_f64(x), to_f64(y), 0)),
            RedOp::MinF | RedOp::MaxF => {
                let (a, b) = (f64::from_bits(to_f64(x)), f64::from_bits(to_f64(y)));
                let pick_x = if a.is_nan() {
                    false
                } else if b.is_nan() {
                    true
                } else if op == RedOp::MinF {
                    a <= b
                } else {
                    a >= b
                };
                if pick_x {
                    x
                } else {
                    y
                }
            }
        }
    };
    let mut values = [0u64; SIMD_WIDTH];
    for l in active(w) {
        values[l] = int_src(w, a_op, l)? as u64 & mask;
    }
    let group = if quad { 4 } else { SIMD_WIDTH };
    let mut results = vec![];
    for first in (0..SIMD_WIDTH).step_by(group) {
        let lanes: Vec<usize> = (first..first + group)
            .filter(|l| w.exec >> l & 1 == 1)
            .collect();
        let mut acc = identity;
        for &l in &lanes {
            if prefix {
                results.push((l, acc));
            }
            acc = combine(acc, values[l]);
        }
        if !prefix {
            results.extend(lanes.iter().map(|&l| (l, acc)));
        }
    }
    for (l, v) in results {
        w.write(dst, l, v as u128)?;
    }
    Ok(())
}

/// `simd_matrix_fmadd32`/`simd_matrix_fmadd16` under the explicit opt-in ([`WaveState::approximate`]):
/// D = A x B + C on 8x8 matrices spread over the 32 threads, two elements per thread. No public
/// source gives the hardware's rule (applegpu has the encoding only), so this computes the
/// documented Metal-level intent, and each execution is counted in [`WaveState::approximated`] by
/// name (runs print it). Without the opt-in it stops with `Fault::Unsupported`. What decided:
/// - Operation and operand order: the Metal Shading Language Specification, "SIMD-Group Matrix
///   Functions": `simdgroup_multiply_accumulate(d, a, b, c)` is d = a * b + c (A x B, not B x A).
/// - Operands: applegpu's `SimdMatrixFMadd32InstructionDesc` (D, A, B, C paired: R0L names r0l,r0h
///   and R0 names r0,r1); the first register of a pair is taken as `thread_elements()[0]`, the second
///   as `[1]`, and hardware thread t as Metal's `thread_index_in_simdgroup` t.
/// - Layout ([`matrix_position`]): tinygrad's Python emulator of Metal's WMMA
///   (`tinygrad/runtime/ops_python.py`, `c_map` and `a_b_elem` of the METAL case) and tinygrad's
///   ThunderKittens Metal port (`extra/thunder/metal/include/ops/warp/memory/tile/global_to_register.metal`,
///   `simd_y`/`simd_x` of the row-layout load) agree on it.
/// - Arithmetic: the hardware's accumulation order and intermediate rounding are not public; here
///   each element is C + sum over k of A[r][k] B[k][c] in f64 (the products of f16/f32 values are
///   exact there), then rounded to f32 for fmadd32 (and on to a 16-bit D) or straight to D for
///   fmadd16, as the crate's `fmadd32`/`fmadd16` round. f32 sources and results flush denormals.
/// - Every thread must be active: the matrices need the whole group, and no source says what an
///   inactive thread contributes; any inactive thread is `Fault::UnsupportedForm`.
pub(super) fn matrix_fmadd(
    w: &mut WaveState,
    o: &Ops<'_>,
    sem: Sem,
    name: &'static str,
) -> Result<(), Fault> {
    require_approximate(w, name)?;
    if w.exec != u32::MAX {
        return Err(Fault::UnsupportedForm {
            what: format!(
                "{name} with inactive threads (exec {:#010x}): the 8x8 matrices need all 32 threads",
                w.exec
            ),
        });
    }
    let d = match o.op("D")? {
        Operand::Tuple(regs, _) if regs.len() == 2 => [regs[0], regs[1]],
        _ => return Err(not_a_pair(name, "D")),
    };
    let a = matrix(w, o.op("A")?, name, "A")?;
    let b = matrix(w, o.op("B")?, name, "B")?;
    let c = matrix(w, o.op("C")?, name, "C")?;
    // Every result before any write: D may be A, B or C.
    let mut out = [[0u128; 2]; SIMD_WIDTH];
    for (lane, pair) in out.iter_mut().enumerate() {
        for (e, slot) in pair.iter_mut().enumerate() {
            let (r, col) = matrix_position(lane, e);
            let sum = (0..8).fold(c[r][col], |acc, k| acc + a[r][k] * b[k][col]);
            let bits = if sum.is_nan() {
                fp::F64_CANONICAL_NAN
            } else {
                sum.to_bits()
            };
            let bits = if sem == Sem::SimdMatrixFMadd32 {
                widen_f32_result(fp::f64_to_f32(bits, true))
            } else {
                bits
            };
            *slot = float_result(bits, d[e], false);
        }
    }
    for (lane, pair) in out.iter().enumerate() {
        for (e, &v) in pair.iter().enumerate() {
            w.write(d[e], lane, v)?;
        }
    }
    *w.approximated.entry(name).or_insert(0) += 1;
    Ok(())
}

/// The (row, column) of the 8x8 matrix that element `e` (0 or 1) of thread `lane` holds (Metal's
/// `simdgroup_matrix` layout per tinygrad, see [`matrix_fmadd`]): rows 0-3 in threads 0-15 and rows
/// 4-7 in threads 16-31, the row advancing every second thread; thread bit 0 picks columns 2-3 over
/// 0-1, bit 3 columns 4-7 over 0-3, and the two elements are adjacent columns.
fn matrix_position(lane: usize, e: usize) -> (usize, usize) {
    let row = (lane / 2) % 4 + (lane / 16) * 4;
    let col = (lane % 2) * 2 + ((lane / 8) % 2) * 4 + e;
    (row, col)
}

/// A paired float source as the 8x8 matrix its 32 threads hold, widened to f64 (with its abs/neg).
fn matrix(w: &WaveState, op: &Operand, name: &str, which: &str) -> Result<[[f64; 8]; 8], Fault> {
    let Operand::Tuple(regs, fl) = op else {
        return Err(not_a_pair(name, which));
    };
    let mut m = [[0f64; 8]; 8];
    for lane in 0..SIMD_WIDTH {
        for (e, &reg) in regs.iter().take(2).enumerate() {
            let (r, c) = matrix_position(lane, e);
            m[r][c] = f64::from_bits(float_src(w, &Operand::Reg(reg, *fl), lane)?);
        }
    }
    Ok(m)
}

fn not_a_pair(name: &str, which: &str) -> Fault {
    Fault::UnsupportedForm {
        what: format!("{name} operand {which} not a register pair (no public rule for it)"),
    }
}
