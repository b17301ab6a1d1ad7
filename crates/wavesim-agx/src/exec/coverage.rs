//! `sample_mask`: kill samples or run their depth/stencil tests, by the rules of Mesa's
//! `agx_nir_lower_sample_mask.c` ("sample_mask takes two bitmasks as arguments, TARGET and LIVE ...
//! foreach sample in TARGET { if sample in LIVE run depth/stencil/occlusion test/update, else kill
//! sample }", TARGET all-1s meaning every sample; a killed sample is unaffected by later
//! `sample_mask`; a tested sample may be neither tested again nor killed). Operands: applegpu's
//! `sample_mask` row (S = TARGET at bit 9, M = LIVE at bit 16, as Mesa's `agx_pack.c` packs them).
//!
//! wavesim's fragment runner has no depth/stencil state, so a test passes; what the instruction
//! changes is which samples the epilog writes (killed ones are not). Breaking one of Mesa's rules
//! (testing twice, killing a tested sample) is a typed error: the hardware's result is not defined.

use super::{active, missing, Fault, Ops, WaveState};
use crate::operand::Operand;

/// What `zs_emit` gave one sample of a thread's pixel (exec/zs_emit.rs).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct ZsOutput {
    pub depth: Option<f32>,
    pub stencil: Option<u8>,
}

/// Per-thread sample states of a fragment group (bit s = sample s of the thread's pixel).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Coverage {
    /// Samples of the framebuffer (0 outside fragment runs: `sample_mask` is then an error).
    pub samples: u32,
    pub killed: Vec<u8>,
    pub tested: Vec<u8>,
    /// Some `sample_mask` or `zs_emit` executed (Mesa's rule 2 then requires every sample killed
    /// or tested).
    pub used: bool,
    /// Per thread and sample, what `zs_emit` gave (exec/zs_emit.rs); `None` where it did not
    /// run.
    pub zs: Vec<[Option<ZsOutput>; 8]>,
}

impl Coverage {
    pub fn new(samples: u32) -> Coverage {
        Coverage {
            samples,
            killed: vec![0; super::SIMD_WIDTH],
            tested: vec![0; super::SIMD_WIDTH],
            used: false,
            zs: vec![[None; 8]; super::SIMD_WIDTH],
        }
    }

    /// Every per-thread vector at the SIMD width (a `Coverage::default()` has none).
    pub(super) fn fill(&mut self) {
        self.killed.resize(super::SIMD_WIDTH, 0);
        self.tested.resize(super::SIMD_WIDTH, 0);
        self.zs.resize(super::SIMD_WIDTH, [None; 8]);
    }

    /// All samples of a pixel.
    pub fn all(&self) -> u8 {
        if self.samples >= 8 {
            0xFF
        } else {
            ((1u32 << self.samples) - 1) as u8
        }
    }
}

fn mask_of(w: &WaveState, op: &Operand, lane: usize, name: &str) -> Result<u8, Fault> {
    Ok(match op {
        Operand::Imm(v) => *v as u8,
        Operand::Reg(r, _) => w.read(*r, lane)? as u8,
        _ => return Err(missing(name)),
    })
}

pub(super) fn sample_mask(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    if w.coverage.samples == 0 {
        return Err(Fault::UnsupportedForm {
            what: "sample_mask outside a fragment run (no samples)".into(),
        });
    }
    w.coverage.fill();
    let (t_op, l_op) = (o.op("S")?, o.op("M")?);
    let all = w.coverage.all();
    for lane in active(w).collect::<Vec<_>>() {
        let target = mask_of(w, t_op, lane, "S")? & all;
        let live = mask_of(w, l_op, lane, "M")?;
        let (killed, tested) = (w.coverage.killed[lane], w.coverage.tested[lane]);
        let affected = target & !killed;
        let test = affected & live;
        let kill = affected & !live;
        if test & tested != 0 || kill & tested != 0 {
            return Err(Fault::UnsupportedForm {
                what: format!(
                    "thread {lane}: sample_mask {} samples {:#x} already tested (Mesa's sample_mask rules 2 and 4)",
                    if test & tested != 0 { "tests" } else { "kills" },
                    (test | kill) & tested
                ),
            });
        }
        w.coverage.tested[lane] |= test;
        w.coverage.killed[lane] |= kill;
    }
    w.coverage.used = true;
    Ok(())
}
