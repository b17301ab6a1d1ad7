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
//!
//! Mesa itself breaks them for a sample-shaded `discard` linked by its gallium driver: there
//! `agx_nir_lower_to_per_sample` runs before `agx_nir_lower_sample_mask` (agx_state.c,
//! `agx_compile_variant`, Mesa 25.0.7 and main), so the test the latter inserts after the last
//! discard keeps TARGET = `no_epilog_discard` (0xffff) instead of the sample being shaded, and the
//! second pass of `agx_fast_link`'s sample loop re-tests (and may kill) samples the first pass
//! tested. Honeykrisp (`hk_shader.c`) and the FS epilog (`agx_nir_prolog_epilog.c`: "Must be done
//! before agx_nir_lower_to_per_sample to avoid duplicating tests") run the two passes the other
//! way round; no public source says what the hardware does with the duplicated tests (applegpu
//! gives the encoding only). So by default this stays the typed error, and under the
//! approximation opt-in ([`WaveState::approximate`]) `sample_mask` computes GL's intent for
//! per-sample shading (GL 4.6, 14.3.1.1: one invocation per sample, its fragment that sample;
//! GLSL 4.60, 6.4: `discard` updates no buffer for the fragment): a repeated test of a tested sample does
//! nothing, and killing a tested sample kills it (its stores are skipped; a depth `zs_emit` gave
//! it is dropped). Each SIMD-group execution that needed this is counted as
//! [`TESTED_SAMPLE_RULES`] in [`WaveState::approximated`].

use super::{active, missing, Fault, Ops, WaveState};
use crate::operand::Operand;

/// The opt-in's name for `sample_mask` re-testing or killing a tested sample (module comment).
pub const TESTED_SAMPLE_RULES: &str = "sample_mask on a tested sample (GL per-sample discard)";

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
    let mut relaxed = false;
    for lane in active(w).collect::<Vec<_>>() {
        let target = mask_of(w, t_op, lane, "S")? & all;
        let live = mask_of(w, l_op, lane, "M")?;
        let (killed, tested) = (w.coverage.killed[lane], w.coverage.tested[lane]);
        let affected = target & !killed;
        let test = affected & live;
        let kill = affected & !live;
        if (test | kill) & tested != 0 {
            if !w.approximate {
                return Err(Fault::UnsupportedForm {
                    what: format!(
                        "thread {lane}: sample_mask {} samples {:#x} already tested (Mesa's \
                         sample_mask rules 2 and 4); `approximate = true` computes GL's \
                         per-sample discard",
                        if test & tested != 0 { "tests" } else { "kills" },
                        (test | kill) & tested
                    ),
                });
            }
            relaxed = true;
            // GL's intent: a discarded sample writes nothing, its depth included
            for s in (0..8).filter(|s| (kill & tested) >> s & 1 == 1) {
                w.coverage.zs[lane][s] = None;
            }
        }
        w.coverage.tested[lane] |= test;
        w.coverage.killed[lane] |= kill;
    }
    if relaxed {
        *w.approximated.entry(TESTED_SAMPLE_RULES).or_insert(0) += 1;
    }
    w.coverage.used = true;
    Ok(())
}
