//! Differential fuzz of the float paths that issue 14 touches, against independent models:
//!
//! 1. VALU f32/f64 add, sub, mul and fma (the host-FPU fast path and the exact software core)
//!    in the default MODE (round to nearest even, denormals kept) against the host's IEEE
//!    arithmetic, on random bit patterns weighted towards zeros, denormals, infinities, NaNs and
//!    exponent extremes, every lane different, wave32 and wave64;
//! 2. the RDNA3.5 SALU float instructions against the VALU instructions of the same pseudocode
//!    (s_add_f32 vs v_add_f32, ...), bit for bit (NaNs included), under every rounding mode
//!    and both denormal settings: two code paths that must agree everywhere;
//! 3. v_div_scale + v_div_fmas + v_div_fixup (LLVM's division expansion) against the host's
//!    division with the hardware's per-lane VCC, in wave32 and wave64 (exact_div covers the
//!    measured cases; this covers the rest of the operand space).
//!
//! Seeds are fixed; the xorshift generator is local to this file.

#![allow(clippy::needless_range_loop)] // lanes and operands are indexed together

use wavesim_rdna3::exec::Program;
use wavesim_rdna3::isa::Target;
use wavesim_rdna3::testing::{Harness, S_ENDPGM};

const MODE_DEFAULT: u32 = 0xf0 | 1 << 8 | 1 << 9;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    /// Float bits of width `bits` (32 or 64) with special classes over-represented.
    fn float(&mut self, bits: u32) -> u64 {
        let (ebits, mbits) = if bits == 32 { (8, 23) } else { (11, 52) };
        let r = self.next();
        let sign = (r >> 63) << (bits - 1);
        let emax = (1u64 << ebits) - 1;
        let mant = self.next() & ((1u64 << mbits) - 1);
        let exp = match r % 8 {
            0 => 0,                               // zero / denormal
            1 => emax,                            // inf / NaN
            2 => 1 + (r >> 8) % 3,                // near the smallest normal
            3 => emax - 1 - (r >> 8) % 3,         // near the largest finite
            _ => (emax / 2 - 20) + (r >> 8) % 40, // ordinary
        };
        let mant = if r % 16 == 8 { 0 } else { mant };
        sign | exp << mbits | mant
    }
}

fn same32(a: u32, b: u32) -> bool {
    a == b || (f32::from_bits(a).is_nan() && f32::from_bits(b).is_nan())
}
fn same64(a: u64, b: u64) -> bool {
    a == b || (f64::from_bits(a).is_nan() && f64::from_bits(b).is_nan())
}

#[test]
fn valu_f32_f64_match_the_host_in_the_default_mode() {
    let mut rng = Rng(0x5eed_1414_0001);
    for round in 0..300 {
        let w64 = round % 2 == 1;
        let mut h = Harness::new(w64);
        h.wave.hw.mode = MODE_DEFAULT;
        // f32: v0, v1, v2 operands.
        let ops: Vec<[u32; 3]> = (0..64)
            .map(|_| [0; 3].map(|_| rng.float(32) as u32))
            .collect();
        for k in 0..3 {
            h.set_v(k, |l| ops[l][k]);
        }
        h.run(&[
            0x06080300, // v_add_f32_e32 v4, v0, v1
            0x080a0300, // v_sub_f32_e32 v5, v0, v1
            0x100c0300, // v_mul_f32_e32 v6, v0, v1
            0xd6130007, 0x040a0300, // v_fma_f32 v7, v0, v1, v2
        ])
        .unwrap();
        for l in 0..h.wave.lanes() {
            let [a, b, c] = ops[l].map(f32::from_bits);
            let want = [a + b, a - b, a * b, a.mul_add(b, c)].map(f32::to_bits);
            for (k, w) in want.iter().enumerate() {
                let got = h.v(4 + k, l);
                assert!(
                    same32(got, *w),
                    "f32 op {k} lane {l}: {a:e} {b:e} {c:e}: {got:#x} != {w:#x}"
                );
            }
        }
        // f64: v[0:1], v[2:3], v[4:5].
        let ops: Vec<[u64; 3]> = (0..64).map(|_| [0; 3].map(|_| rng.float(64))).collect();
        for k in 0..3 {
            h.set_v(2 * k, |l| ops[l][k] as u32);
            h.set_v(2 * k + 1, |l| (ops[l][k] >> 32) as u32);
        }
        h.run(&[
            0xd7270008, 0x00020500, // v_add_f64 v[8:9], v[0:1], v[2:3]
            0xd728000a, 0x00020500, // v_mul_f64 v[10:11], v[0:1], v[2:3]
            0xd614000c, 0x04120500, // v_fma_f64 v[12:13], v[0:1], v[2:3], v[4:5]
        ])
        .unwrap();
        for l in 0..h.wave.lanes() {
            let [a, b, c] = ops[l].map(f64::from_bits);
            let want = [a + b, a * b, a.mul_add(b, c)].map(f64::to_bits);
            for (k, w) in want.iter().enumerate() {
                let r = 8 + 2 * k;
                let got = h.v(r, l) as u64 | (h.v(r + 1, l) as u64) << 32;
                assert!(same64(got, *w), "f64 op {k} lane {l}: {a:e} {b:e} {c:e}");
            }
        }
    }
}

/// (SALU word with s2 = op(s0, s1), VALU words with v2 = op(v0, v1), 16-bit?)
const PAIRS: &[(u32, &[u32], bool)] = &[
    (0xa0020100, &[0x06040300], false), // s_add_f32 / v_add_f32_e32
    (0xa0820100, &[0x08040300], false), // s_sub_f32 / v_sub_f32_e32
    (0xa2020100, &[0x10040300], false), // s_mul_f32 / v_mul_f32_e32
    (0xa1020100, &[0x1e040300], false), // s_min_f32 / v_min_f32_e32
    (0xa1820100, &[0x20040300], false), // s_max_f32 / v_max_f32_e32
    (0xa4820100, &[0x64040300], true),  // s_add_f16 / v_add_f16_e32
    (0xa5020100, &[0x66040300], true),  // s_sub_f16 / v_sub_f16_e32
    (0xa6820100, &[0x6a040300], true),  // s_mul_f16 / v_mul_f16_e32
    (0xa5820100, &[0x74040300], true),  // s_min_f16 / v_min_f16_e32
    (0xa6020100, &[0x72040300], true),  // s_max_f16 / v_max_f16_e32
    (0xbe826600, &[0x7e041100], false), // s_cvt_i32_f32 / v_cvt_i32_f32_e32
    (0xbe826800, &[0x7e041500], false), // s_cvt_f16_f32 / v_cvt_f16_f32_e32
    (0xbe826300, &[0x7e044700], false), // s_rndne_f32 / v_rndne_f32_e32
    (0xbe826c00, &[0x7e04b700], true),  // s_floor_f16 / v_floor_f16_e32
];

fn run115(h: &mut Harness, words: &[u32]) {
    let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    bytes.extend_from_slice(&S_ENDPGM.to_le_bytes());
    let prog = Program::new_for(&bytes, 0, Target::Gfx1150).unwrap();
    h.wave.pc = 0;
    h.run_program(&prog, 100).unwrap();
}

#[test]
fn salu_float_matches_valu_float_in_every_mode() {
    let mut rng = Rng(0x5eed_1414_0002);
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        for mode_case in 0..8u32 {
            // FP_ROUND (both fields) and FP_DENORM (keep all / flush all); DX10_CLAMP, IEEE.
            let rm = mode_case & 3;
            let den = if mode_case & 4 != 0 { 0xf0 } else { 0x00 };
            let mode = rm | rm << 2 | den | 1 << 8 | 1 << 9;
            h.wave.hw.mode = mode;
            for _ in 0..40 {
                let (x32, y32) = (rng.float(32) as u32, rng.float(32) as u32);
                let (x16, y16) = (rng.next() as u32 & 0xffff, rng.next() as u32 & 0xffff);
                for &(salu, valu, f16) in PAIRS {
                    let (x, y) = if f16 { (x16, y16) } else { (x32, y32) };
                    h.wave.sgpr[0] = x;
                    h.wave.sgpr[1] = y;
                    run115(&mut h, &[salu]);
                    h.set_v(0, |_| x);
                    h.set_v(1, |_| y);
                    h.set_v(2, |_| 0);
                    h.run(valu).unwrap();
                    let mask = if f16 || salu == 0xbe826800 {
                        0xffff
                    } else {
                        u32::MAX
                    };
                    assert_eq!(
                        h.s(2),
                        h.v(2, 0) & mask,
                        "{salu:#x} mode {mode:#x}: {x:#x}, {y:#x}"
                    );
                }
                // s_cmp_lt_f32 vs v_cmp_lt_f32_e64 s10, v0, v1
                h.wave.sgpr[0] = x32;
                h.wave.sgpr[1] = y32;
                run115(&mut h, &[0xbf410100]);
                let scc = h.wave.scc;
                h.set_v(0, |_| x32);
                h.set_v(1, |_| y32);
                h.run(&[0xd411000a, 0x00020300]).unwrap();
                assert_eq!(scc, h.s(10) & 1 != 0, "cmp_lt {x32:#x} {y32:#x}");
            }
        }
    }
}

/// LLVM's f32 division expansion (see exact_div / vfloat) against the host division, on random
/// operands, with f32 denormals kept: the measured per-lane v_div_scale / v_div_fmas rules keep it
/// correctly rounded.
#[test]
fn division_expansion_stays_correctly_rounded() {
    const F32_DIV: [u32; 20] = [
        0xd6fc0a02, 0x04020301, // v_div_scale_f32 v2, s10, v1, v1, v0
        0xd6fc6a03, 0x04020300, // v_div_scale_f32 v3, vcc_lo, v0, v1, v0
        0x7e085502, // v_rcp_f32_e32 v4, v2
        0xd6130005, 0x23ca0902, // v_fma_f32 v5, -v2, v4, 1.0
        0xd6130004, 0x04120905, // v_fma_f32 v4, v5, v4, v4
        0x100a0903, // v_mul_f32_e32 v5, v3, v4
        0xd6130006, 0x240e0b02, // v_fma_f32 v6, -v2, v5, v3
        0xd6130005, 0x04160906, // v_fma_f32 v5, v6, v4, v5
        0xd6130002, 0x240e0b02, // v_fma_f32 v2, -v2, v5, v3
        0xd6370002, 0x04160902, // v_div_fmas_f32 v2, v2, v4, v5
        0xd6270002, 0x04020302, // v_div_fixup_f32 v2, v2, v1, v0
    ];
    let mut rng = Rng(0x5eed_1414_0003);
    for round in 0..400 {
        let w64 = round % 2 == 0;
        let mut h = Harness::new(w64);
        h.wave.hw.mode = MODE_DEFAULT;
        let ops: Vec<(u32, u32)> = (0..64)
            .map(|_| (rng.float(32) as u32, rng.float(32) as u32))
            .collect();
        h.set_v(0, |l| ops[l].0);
        h.set_v(1, |l| ops[l].1);
        h.run(&F32_DIV).unwrap();
        for (l, &(a, b)) in ops.iter().enumerate().take(h.wave.lanes()) {
            let want = (f32::from_bits(a) / f32::from_bits(b)).to_bits();
            assert!(same32(h.v(2, l), want), "{a:#x} / {b:#x} lane {l}");
        }
    }
}
