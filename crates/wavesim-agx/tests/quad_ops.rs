//! Quad shuffles and quad ballots (`src/exec/simd.rs`). Expected values from the rules: Mesa emits
//! `quad_shuffle` for `quad_broadcast` (every thread of a quad reads thread B of it) and
//! `quad_shuffle_xor` 1/2/3 for `quad_swap_horizontal/vertical/diagonal` (thread i reads i ^ B);
//! a quad ballot holds the quad's comparison results at bits 0-3 (applegpu's note "followed by
//! `& 15`", Mesa's quad vote comparing the result with 0).

mod common;

use wavesim_agx::exec::{Fault, WaveState, SIMD_WIDTH};

use common::run_asm as exec;

/// r1 = 10 * thread + 7 in every thread; r2 = 0xAAAA sentinel.
fn state() -> WaveState {
    let mut w = WaveState::new(8);
    for l in 0..SIMD_WIDTH {
        w.set_reg32(1, l, 10 * l as u32 + 7);
        w.set_reg32(2, l, 0xAAAA);
    }
    w
}

#[test]
fn quad_broadcast_and_swaps() {
    for b in 0..4usize {
        let mut w = state();
        exec(&mut w, &format!("quad_shuffle r2, r1, {b}")).unwrap();
        for l in 0..SIMD_WIDTH {
            assert_eq!(
                w.reg32(2, l),
                10 * ((l & !3) + b) as u32 + 7,
                "broadcast {b}, thread {l}"
            );
        }
        let mut w = state();
        exec(&mut w, &format!("quad_shuffle_xor r2, r1, {b}")).unwrap();
        for l in 0..SIMD_WIDTH {
            assert_eq!(
                w.reg32(2, l),
                10 * (l ^ b) as u32 + 7,
                "xor {b}, thread {l}"
            );
        }
    }
}

#[test]
fn quad_shuffle_index_from_a_register_per_quad() {
    // quad q broadcasts thread q % 4 of itself; inactive threads are not written but are read
    let mut w = state();
    for l in 0..SIMD_WIDTH {
        w.set_half(6, l, ((l / 4) % 4) as u16);
    }
    w.exec = !0b0100; // thread 2 inactive: quad 0 broadcasts thread 0, so unaffected
    w.exec &= !(1 << 9); // thread 9 inactive: quad 2 broadcasts thread 10 (2 % 4 = 2) - still read
    exec(&mut w, "quad_shuffle r2, r1, r3l").unwrap();
    for l in 0..SIMD_WIDTH {
        let want = if w.exec >> l & 1 == 1 {
            10 * ((l & !3) + (l / 4) % 4) as u32 + 7
        } else {
            0xAAAA
        };
        assert_eq!(w.reg32(2, l), want, "thread {l}");
    }
    // quad 1 reading thread 5 while thread 5 is inactive: the source is read anyway
    let mut w = state();
    w.exec = !(1 << 5);
    exec(&mut w, "quad_shuffle r2, r1, 1").unwrap();
    assert_eq!(w.reg32(2, 4), 57);
}

#[test]
fn quad_shuffle_without_a_rule_is_an_error() {
    let mut w = state();
    for l in 0..SIMD_WIDTH {
        w.set_half(6, l, (l % 4) as u16); // differs within every quad
    }
    match exec(&mut w, "quad_shuffle r2, r1, r3l") {
        Err(Fault::UnsupportedForm { what }) => {
            assert!(what.contains("differs within quad 0"), "{what}")
        }
        other => panic!("{other:?}"),
    }
    let mut w = state();
    match exec(&mut w, "quad_shuffle_xor r2, r1, 4") {
        Err(Fault::UnsupportedForm { what }) => assert!(what.contains("index 4"), "{what}"),
        other => panic!("{other:?}"),
    }
    // quad_shuffle_up/down/rotate_up: no rule
    let mut w = state();
    assert!(matches!(
        exec(&mut w, "quad_shuffle_up r2, r1, 1"),
        Err(Fault::Unsupported { .. })
    ));
}

#[test]
fn quad_ballots() {
    // r1 > r3 (unsigned) where r3 = 10 * (thread ^ 1) + 7: true in odd threads
    let mut w = state();
    for l in 0..SIMD_WIDTH {
        w.set_reg32(3, l, 10 * (l ^ 1) as u32 + 7);
        w.set_reg32(4, l, f32::to_bits(l as f32));
        w.set_reg32(5, l, f32::to_bits(5.5));
    }
    w.exec = !(1 << 7); // thread 7 inactive: quad 1 ballots 0b0010 only
    exec(&mut w, "icmp_quad_ballot r2, ugt, r1, r3").unwrap();
    for l in 0..SIMD_WIDTH {
        let want = if l == 7 {
            0xAAAA
        } else if l / 4 == 1 {
            0b0010
        } else {
            0b1010
        };
        assert_eq!(w.reg32(2, l), want, "thread {l}");
    }
    // float: thread > 5.5 is true from thread 6 on; quad 1 has threads 6 (and inactive 7)
    exec(&mut w, "fcmp_quad_ballot r2, gt, r4, r5").unwrap();
    for l in (0..SIMD_WIDTH).filter(|&l| l != 7) {
        let want = match l / 4 {
            0 => 0,
            1 => 0b0100,
            _ => 0b1111,
        };
        assert_eq!(w.reg32(2, l), want, "thread {l}");
    }
}
