//! `zs_emit S, T`: the fragment's depth and/or stencil output, which also triggers the sample's
//! depth/stencil test. Encoding (applegpu's `zs_emit` row, Mesa 25.0's `agx_pack.c`
//! AGX_OPCODE_ZS_EMIT): S the sample mask (an 8-bit immediate, or a 16-bit register), T the
//! register tuple holding the values, bit 29 `z` (a 32-bit float depth in T's first two halves)
//! and bit 30 `s` (the stencil in the next half, its low 8 bits), u0 (bits 22-23) 0. Mesa emits
//! it from `store_zs_agx` (`agx_emit_zs_emit`, after `wait_pix 1`), in the FS epilog
//! (`agx_nir_fs_epilog`) with S = 0xff.
//!
//! Rules (Mesa's `agx_nir_lower_sample_mask.c`, 5: "zs_emit may be used in the shader exactly
//! once to trigger tests"; 3/4: killed samples are unaffected, tested ones may not be tested
//! again): the samples of S the thread has not killed get the value and count as tested; one
//! already tested or already given a value is a typed error. Rule 5 is kept per sample: under
//! Mesa's linked sample loop each pass emits for its own sample (`agx_nir_lower_to_per_sample`
//! masks S with the sample being shaded), so one thread emits once for each sample. wavesim's fragment runners have no depth/stencil test state,
//! so the test passes and the value is what the depth/stencil buffer receives (recorded per
//! thread in `Coverage::zs`, read by the runner after the group); the value is not clamped (no
//! public source says whether the hardware clamps to the depth range; GL clamps gl_FragDepth
//! to [0, 1] only for fixed-point buffers).

use super::coverage::ZsOutput;
use super::{active, missing, Fault, Ops, WaveState, SIMD_WIDTH};
use crate::operand::Operand;

pub(super) fn zs_emit(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    if w.coverage.samples == 0 {
        return Err(Fault::UnsupportedForm {
            what: "zs_emit outside a fragment run (no samples)".into(),
        });
    }
    if o.field("u0") != 0 {
        return Err(Fault::UnsupportedForm {
            what: format!("zs_emit with u0 = {} (Mesa packs 0)", o.field("u0")),
        });
    }
    let (z, s) = (o.field("z") == 1, o.field("s") == 1);
    let regs = match o.op("T")? {
        Operand::Tuple(r, _) => r.clone(),
        _ => return Err(missing("T")),
    };
    if regs.len() != 2 * usize::from(z) + usize::from(s) {
        return Err(missing("T"));
    }
    let mask_op = o.op("S")?.clone();
    let all = w.coverage.all();
    w.coverage.fill();
    for lane in active(w).collect::<Vec<_>>() {
        let mask = match &mask_op {
            Operand::Imm(v) => *v as u8,
            Operand::Reg(r, _) => w.read(*r, lane)? as u8,
            _ => return Err(missing("S")),
        } & all;
        let samples = mask & !w.coverage.killed[lane];
        let emitted = (0..8)
            .filter(|&s| w.coverage.zs[lane][s].is_some())
            .fold(0u8, |m, s| m | 1 << s);
        if samples & (w.coverage.tested[lane] | emitted) != 0 {
            return Err(Fault::UnsupportedForm {
                what: format!(
                    "thread {lane}: zs_emit tests samples {:#x} already tested (Mesa's \
                     sample_mask rules 4 and 5: zs_emit once)",
                    samples & (w.coverage.tested[lane] | emitted)
                ),
            });
        }
        let depth = if z {
            let lo = w.read(regs[0], lane)? as u32;
            let hi = w.read(regs[1], lane)? as u32;
            Some(f32::from_bits(lo & 0xFFFF | hi << 16))
        } else {
            None
        };
        let stencil = if s {
            Some(w.read(regs[2 * usize::from(z)], lane)? as u8)
        } else {
            None
        };
        w.coverage.tested[lane] |= samples;
        for s in (0..8).filter(|s| samples >> s & 1 == 1) {
            w.coverage.zs[lane][s] = Some(ZsOutput { depth, stencil });
        }
    }
    w.coverage.used = true;
    debug_assert!(w.coverage.zs.len() == SIMD_WIDTH);
    Ok(())
}
