//! `sample_mask` by the rules Mesa's `agx_nir_lower_sample_mask.c` states: for each sample in TARGET
//! (all-1s: every sample), test it if it is in LIVE, else kill it; killed samples ignore later
//! `sample_mask`; a tested sample is neither tested again nor killed. Words follow applegpu's row
//! (TARGET at bits 9-14 and 24-25, immediate when bit 8 is set; LIVE at bits 16-21 and 26-27,
//! immediate when bit 23 is set), which is where Mesa's `agx_pack.c` puts its T and S.

mod common;

use wavesim_agx::abi::{run_fragment, AbiError, FragmentConfig};
use wavesim_agx::asm::assemble;
use wavesim_agx::exec::{Coverage, Fault, WaveState, SIMD_WIDTH};
use wavesim_core::memory::DeviceMemory;

enum M {
    Imm(u32),
    /// A 16-bit register, by half index.
    Half(u32),
}

fn word(target: M, live: M) -> Vec<u8> {
    let (t, tt) = match target {
        M::Imm(v) => (v, 1),
        M::Half(h) => (h, 0),
    };
    let (l, lt) = match live {
        M::Imm(v) => (v, 1),
        M::Half(h) => (h, 0),
    };
    let raw: u32 = 0xc1
        | tt << 8
        | (t & 63) << 9
        | (l & 63) << 16
        | lt << 23
        | (t >> 6) << 24
        | (l >> 6) << 26;
    raw.to_le_bytes().to_vec()
}

fn run_words(w: &mut WaveState, words: &[Vec<u8>]) -> Result<(), Fault> {
    let mut code = words.concat();
    code.extend([0x88, 0x00]);
    common::run_code(w, code)
}

#[test]
fn kill_then_test_the_rest() {
    let mut w = WaveState::new(8);
    w.coverage = Coverage::new(4);
    // thread t discards samples t % 16 (register r2l), then the rest are tested
    for l in 0..SIMD_WIDTH {
        w.set_half(4, l, (l % 16) as u16);
    }
    run_words(
        &mut w,
        &[
            word(M::Half(4), M::Imm(0)),
            word(M::Imm(0xFF), M::Imm(0xFF)),
        ],
    )
    .unwrap();
    for l in 0..SIMD_WIDTH {
        assert_eq!(w.coverage.killed[l], (l % 16) as u8, "thread {l}");
        assert_eq!(w.coverage.tested[l], 0xF & !(l % 16) as u8, "thread {l}");
    }
    // fused form: sample_mask ~0, ~killed
    let mut w = WaveState::new(8);
    w.coverage = Coverage::new(2);
    run_words(&mut w, &[word(M::Imm(0xFF), M::Imm(0xFE))]).unwrap();
    assert_eq!((w.coverage.killed[0], w.coverage.tested[0]), (0b01, 0b10));
}

#[test]
fn mesas_rules_are_enforced() {
    let err = |words: &[Vec<u8>]| {
        let mut w = WaveState::new(8);
        w.coverage = Coverage::new(4);
        match run_words(&mut w, words) {
            Err(Fault::UnsupportedForm { what }) => what,
            other => panic!("{other:?}"),
        }
    };
    // rule 2: tests run twice
    let what = err(&[
        word(M::Imm(0xFF), M::Imm(0xFF)),
        word(M::Imm(0xFF), M::Imm(0xFF)),
    ]);
    assert!(what.contains("tests samples 0xf already tested"), "{what}");
    // rule 4: a tested sample discarded
    let what = err(&[
        word(M::Imm(0xFF), M::Imm(0xFF)),
        word(M::Imm(0x2), M::Imm(0)),
    ]);
    assert!(what.contains("kills samples 0x2 already tested"), "{what}");
    // rule 3: a killed sample ignores later sample_mask (no error, stays killed)
    let mut w = WaveState::new(8);
    w.coverage = Coverage::new(4);
    run_words(
        &mut w,
        &[
            word(M::Imm(0x1), M::Imm(0)),
            word(M::Imm(0xFF), M::Imm(0xFF)),
        ],
    )
    .unwrap();
    assert_eq!((w.coverage.killed[0], w.coverage.tested[0]), (0x1, 0xE));
    // outside a fragment run
    let mut w = WaveState::new(8);
    assert!(matches!(
        run_words(&mut w, &[word(M::Imm(0xFF), M::Imm(0))]),
        Err(Fault::UnsupportedForm { .. })
    ));
}

/// A fragment shader discarding odd columns: killed pixels keep the clear colour; without the final
/// test of the surviving samples Mesa's rule 2 is broken, which the epilog reports.
#[test]
fn discard_in_the_fragment_runner() {
    let src = |test_rest: bool| {
        let mut code = assemble("get_sr r6, sr80\nand r6, r6, 1").unwrap();
        code.extend(word(M::Half(12), M::Imm(0)));
        if test_rest {
            code.extend(word(M::Imm(0xFF), M::Imm(0xFF)));
        }
        let one = 1.0f32.to_bits();
        code.extend(
            assemble(&format!(
                "mov_imm r4, {one}\nmov_imm r5, {one}\nmov_imm r6, {one}\nmov_imm r7, {one}\nstop"
            ))
            .unwrap(),
        );
        code
    };
    let mut cfg = FragmentConfig::new(src(true), 8, 6, 3);
    let r = run_fragment(&cfg, &mut DeviceMemory::new()).unwrap();
    for y in 0..3 {
        for x in 0..6 {
            let want = if x % 2 == 1 { [0.0; 4] } else { [1.0; 4] };
            assert_eq!(r.colour[0][(y * 6 + x) as usize], want, "({x},{y})");
        }
    }
    cfg.main = src(false);
    match run_fragment(&cfg, &mut DeviceMemory::new()) {
        Err(AbiError::AbiViolation { x: 0, y: 0, what }) => {
            assert!(what.contains("rule 2"), "{what}")
        }
        other => panic!("{other:?}"),
    }
}

/// The words of `agx_fast_link`'s sample loop as Mesa's gallium driver compiles a sample-shaded
/// `discard` (corpus/agx/gl25msaa/sample_discard): pass k kills sample k where the thread
/// discards it (TARGET = the thread's r2l, already masked to sample k as
/// `agx_nir_lower_to_per_sample` masks it), then tests every sample not killed (TARGET all-1s,
/// `no_epilog_discard`). Here the loop is unrolled: 4 passes, thread l discards sample l % 4.
fn sample_loop(w: &mut WaveState) -> Result<(), Fault> {
    let mut words = vec![];
    for pass in 0..4u32 {
        // pass k's kill mask in r(3 + k)l (half 6 + 2k): (l % 4 == k) << k, per thread
        words.push(word(M::Half(6 + 2 * pass), M::Imm(0)));
        words.push(word(M::Imm(0xFF), M::Imm(0xFF)));
    }
    for l in 0..SIMD_WIDTH {
        for pass in 0..4usize {
            let bit = if l % 4 == pass { 1u16 << pass } else { 0 };
            w.set_half(6 + 2 * pass, l, bit);
        }
    }
    run_words(w, &words)
}

/// Without the opt-in the second pass kills what the first tested (thread 1, sample 1): Mesa's
/// rule 4, a typed error. Under it (`approximate`), GL's per-sample discard: each thread ends with exactly its
/// discarded sample l % 4 killed. Derivation: pass 0 kills sample 0 in threads l % 4 = 0 and
/// tests the other samples not killed (there 0b1110, elsewhere 0b1111), so no rule is broken in
/// pass 0; in each pass k = 1..3 the kill of sample k (threads l % 4 = k, a tested sample) and
/// the re-test (every thread) each break a rule once per SIMD group: 2 counted executions per
/// pass, 6 in all. A sample tested and then killed stays killed (the store skips it).
#[test]
fn sample_loop_discard_under_the_opt_in() {
    let mut w = WaveState::new(16);
    w.coverage = Coverage::new(4);
    match sample_loop(&mut w) {
        Err(Fault::UnsupportedForm { what }) => {
            assert!(
                what.contains("thread 1: sample_mask kills samples 0x2 already tested"),
                "{what}"
            )
        }
        other => panic!("{other:?}"),
    }
    let mut w = WaveState::new(16);
    w.coverage = Coverage::new(4);
    w.approximate = true;
    sample_loop(&mut w).unwrap();
    for l in 0..SIMD_WIDTH {
        assert_eq!(w.coverage.killed[l], 1 << (l % 4), "thread {l}");
        let tested = if l % 4 == 0 { 0b1110 } else { 0b1111 };
        assert_eq!(w.coverage.tested[l], tested, "thread {l}");
    }
    assert_eq!(
        w.approximated.get(wavesim_agx::exec::TESTED_SAMPLE_RULES),
        Some(&6)
    );
}

/// Under the opt-in, killing a sample that `zs_emit` tested drops the depth it gave (GL: a
/// discarded sample writes no depth). `zs_emit 0xff, r2_r3`-style word (AGX_OPCODE_ZS_EMIT 0x41,
/// S immediate 0xff: low 6 bits at 9, high 2 at 24; T = half 4 at 16; z at bit 29) gives every
/// sample of 2 the depth in r2 (1.0 here) and tests them; `sample_mask 2, 0` then kills sample 1:
/// sample 0 keeps 1.0, sample 1 has none, and the one relaxed execution is counted.
#[test]
fn killing_a_tested_sample_drops_its_depth_under_the_opt_in() {
    let zs: u32 = 0x41 | 1 << 8 | (0xFF & 63) << 9 | 4 << 16 | (0xFF >> 6) << 24 | 1 << 29;
    let mut w = WaveState::new(8);
    w.coverage = Coverage::new(2);
    w.approximate = true;
    for l in 0..SIMD_WIDTH {
        w.set_half(4, l, 0);
        w.set_half(5, l, 0x3F80);
    }
    run_words(
        &mut w,
        &[zs.to_le_bytes().to_vec(), word(M::Imm(2), M::Imm(0))],
    )
    .unwrap();
    for l in 0..SIMD_WIDTH {
        assert_eq!(
            w.coverage.zs[l][0].and_then(|z| z.depth),
            Some(1.0),
            "thread {l}"
        );
        assert_eq!(w.coverage.zs[l][1], None, "thread {l}");
        assert_eq!((w.coverage.killed[l], w.coverage.tested[l]), (0b10, 0b11));
    }
    assert_eq!(
        w.approximated.get(wavesim_agx::exec::TESTED_SAMPLE_RULES),
        Some(&1)
    );
}
