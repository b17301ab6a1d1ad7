//! The exact soft-float core against independent oracles: the host FPU (IEEE round-to-nearest-
//! even) for f32/f64, the `half` crate for f16, and exact f64 arithmetic for directed rounding.

use half::f16;
use wavesim_rdna3::exec::vfloat::soft::{self, FpCtl, Round, F16, F32, F64};

/// Deterministic xorshift; values are spread over all exponents, specials included.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn f32(&mut self) -> u32 {
        let r = self.next();
        match r % 16 {
            0 => [0, 0x8000_0000, 0x7f80_0000, 0xff80_0000, 1, 0x8000_0001][(r >> 8) as usize % 6],
            // nearby exponents (cancellation), sign random
            1..=6 => (0x3f00_0000 + (r >> 20) as u32 % 0x0200_0000) | ((r >> 60) as u32 & 1) << 31,
            _ => (r >> 16) as u32 & 0xff7f_ffff | (r >> 2) as u32 & 0x0080_0000,
        }
    }
    fn f64(&mut self) -> u64 {
        let r = self.next();
        match r % 16 {
            0 => [0, 1 << 63, 0x7ff0 << 48, 0xfff0 << 48, 1][(r >> 8) as usize % 5],
            1..=6 => ((0x3fe0 << 48) + (self.next() >> 10)) | ((r >> 63) << 63),
            _ => {
                let x = self.next();
                if (x >> 52) & 0x7ff == 0x7ff {
                    x ^ (1 << 62)
                } else {
                    x
                }
            }
        }
    }
}

fn same_f32(a: u32, b: u32) -> bool {
    // NaNs only need to be NaNs here (the host picks payloads its own way).
    a == b || (f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
}

fn same_f64(a: u64, b: u64) -> bool {
    a == b || (f64::from_bits(a).is_nan() && f64::from_bits(b).is_nan())
}

#[test]
fn f32_matches_host_in_round_to_nearest() {
    let c = FpCtl::IEEE;
    let mut r = Rng(0x1234_5678_9abc_def1);
    for _ in 0..200_000 {
        let (a, b, d) = (r.f32(), r.f32(), r.f32());
        let (x, y, z) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(d));
        let add = soft::add(F32, a as u64, b as u64, &c) as u32;
        assert!(same_f32(add, (x + y).to_bits()), "{x:e} + {y:e}");
        let mul = soft::mul(F32, a as u64, b as u64, &c) as u32;
        assert!(same_f32(mul, (x * y).to_bits()), "{x:e} * {y:e}");
        let fma = soft::fma(F32, a as u64, b as u64, d as u64, &c) as u32;
        assert!(
            same_f32(fma, x.mul_add(y, z).to_bits()),
            "fma {x:e} {y:e} {z:e}"
        );
    }
}

#[test]
fn f64_matches_host_in_round_to_nearest() {
    let c = FpCtl::IEEE;
    let mut r = Rng(0x0bad_cafe_f00d_1234);
    for _ in 0..200_000 {
        let (a, b, d) = (r.f64(), r.f64(), r.f64());
        let (x, y, z) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(d));
        assert!(
            same_f64(soft::add(F64, a, b, &c), (x + y).to_bits()),
            "{x:e} + {y:e}"
        );
        assert!(
            same_f64(soft::mul(F64, a, b, &c), (x * y).to_bits()),
            "{x:e} * {y:e}"
        );
        assert!(
            same_f64(soft::fma(F64, a, b, d, &c), x.mul_add(y, z).to_bits()),
            "fma {x:e} {y:e} {z:e}"
        );
    }
}

#[test]
fn f16_matches_half_crate() {
    // f16 sums/products are exact in f64; rounding that f64 once to f16 is the oracle.
    let c = FpCtl::IEEE;
    for a in (0..=0xffffu32).step_by(7) {
        for b in (0..=0xffffu32).step_by(251) {
            let (x, y) = (f16::from_bits(a as u16), f16::from_bits(b as u16));
            let add = f16::from_f64(x.to_f64() + y.to_f64()).to_bits() as u64;
            let mul = f16::from_f64(x.to_f64() * y.to_f64()).to_bits() as u64;
            let got_add = soft::add(F16, a as u64, b as u64, &c);
            let got_mul = soft::mul(F16, a as u64, b as u64, &c);
            let nan = |v: u64| f16::from_bits(v as u16).is_nan();
            assert!(got_add == add || (nan(got_add) && nan(add)), "{x} + {y}");
            assert!(got_mul == mul || (nan(got_mul) && nan(mul)), "{x} * {y}");
        }
    }
}

/// Directed rounding of an exactly known f64 value to f32, computed independently: take the
/// host's nearest f32, then step one ULP if it lies on the wrong side.
fn directed_f32(v: f64, rm: Round) -> u32 {
    let n = v as f32;
    let nd = n as f64;
    let step_down = |x: f32| {
        if x == 0.0 {
            -f32::from_bits(1)
        } else if x > 0.0 {
            f32::from_bits(x.to_bits() - 1)
        } else {
            f32::from_bits(x.to_bits() + 1)
        }
    };
    let step_up = |x: f32| -step_down(-x);
    let r = match rm {
        Round::NearestEven => n,
        Round::Up => {
            if nd < v {
                step_up(n)
            } else {
                n
            }
        }
        Round::Down => {
            if nd > v {
                step_down(n)
            } else {
                n
            }
        }
        Round::Zero => {
            if v > 0.0 && nd > v {
                step_down(n)
            } else if v < 0.0 && nd < v {
                step_up(n)
            } else {
                n
            }
        }
    };
    r.to_bits()
}

#[test]
fn f32_directed_rounding_of_exact_products_and_sums() {
    let mut r = Rng(42);
    for rm in [Round::Up, Round::Down, Round::Zero] {
        let c = FpCtl {
            rm,
            ftz_in: false,
            ftz_out: false,
            detect: false,
            nan: soft::NanPolicy::RDNA3,
        };
        for _ in 0..100_000 {
            // normal inputs of moderate range: products and sums are exact in f64
            let a = (r.next() as u32 & 0x807f_ffff) | (100 + (r.next() % 54) as u32) << 23;
            let b = (r.next() as u32 & 0x807f_ffff) | (100 + (r.next() % 54) as u32) << 23;
            let (x, y) = (f32::from_bits(a) as f64, f32::from_bits(b) as f64);
            assert_eq!(
                soft::mul(F32, a as u64, b as u64, &c) as u32,
                directed_f32(x * y, rm),
                "{rm:?} {x:e}*{y:e}"
            );
            let s = x + y;
            if s != 0.0 {
                assert_eq!(
                    soft::add(F32, a as u64, b as u64, &c) as u32,
                    directed_f32(s, rm),
                    "{rm:?} {x:e}+{y:e}"
                );
            }
        }
    }
}

#[test]
fn round_int_and_ldexp() {
    let t = |x: f64, rm| f64::from_bits(soft::round_int(F64, x.to_bits(), rm));
    for x in [
        -2.5,
        -1.5,
        -0.5,
        -0.2,
        0.2,
        0.5,
        1.5,
        2.5,
        1e300,
        -3.7,
        4503599627370495.5,
    ] {
        assert_eq!(t(x, Round::NearestEven), x.round_ties_even(), "{x}");
        assert_eq!(t(x, Round::Down), x.floor(), "{x}");
        assert_eq!(t(x, Round::Up), x.ceil(), "{x}");
        assert_eq!(t(x, Round::Zero), x.trunc(), "{x}");
    }
    assert_eq!(t(-0.2, Round::Up).to_bits(), (-0.0f64).to_bits());
    let c = FpCtl::IEEE;
    assert_eq!(soft::ldexp(F32, 1.0f32.to_bits() as u64, -150, &c), 0); // tie to even: 0
    assert_eq!(soft::ldexp(F32, 1.5f32.to_bits() as u64, -150, &c), 1);
    assert_eq!(
        soft::ldexp(F32, 1.0f32.to_bits() as u64, 128, &c),
        0x7f80_0000
    );
}
