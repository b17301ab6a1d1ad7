//! VOP3P: packed 16-bit integer and f16 math with OPSEL / OPSEL_HI / NEG / NEG_HI / clamp,
//! inline constants in packed operands, dot products, v_fma_mix*, and WMMA (every type, wave32
//! and wave64) checked element by element against a reference product computed here.
//! Words from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding`.

use wavesim_rdna3::testing::Harness;

/// MODE with DX10_CLAMP and IEEE set, all denormals kept (what compute kernels start with).
const MODE_DEFAULT: u32 = 0xf0 | 1 << 8 | 1 << 9;

/// Runs `words` in wave32 and wave64 with v1, v2, v3 = `ins` and v0 = `v0`; checks v0 in every
/// lane.
fn check(name: &str, words: &[u32], v0: u32, ins: [u32; 3], want: u32) {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.wave.hw.mode = MODE_DEFAULT;
        h.set_v(0, |_| v0);
        for (k, &x) in ins.iter().enumerate() {
            h.set_v(k + 1, |_| x);
        }
        h.run(words).unwrap();
        for l in 0..h.wave.lanes() {
            assert_eq!(
                h.v(0, l),
                want,
                "{name} lane {l} wave64={w64}: got {:#x}",
                h.v(0, l)
            );
        }
    }
}

fn f32b(x: f32) -> u32 {
    x.to_bits()
}

/// f16 bits of a value exactly representable as a normal f16 (or zero).
fn f16(x: f32) -> u32 {
    let b = x.to_bits();
    let sign = (b >> 16) & 0x8000;
    if x == 0.0 {
        return sign;
    }
    let e = ((b >> 23) & 0xff) as i32 - 127 + 15;
    assert!(
        (1..31).contains(&e) && b & 0x1fff == 0,
        "{x} is not an exact normal f16"
    );
    sign | (e as u32) << 10 | (b >> 13) & 0x3ff
}

fn bf16(x: f32) -> u32 {
    let b = x.to_bits();
    assert!(b & 0xffff == 0, "{x} is not an exact bf16");
    b >> 16
}

fn pk(lo: u32, hi: u32) -> u32 {
    lo | hi << 16
}

#[test]
fn packed_integer_ops() {
    // v_pk_add_u16 v0, v1, v2 / clamp
    check(
        "pk_add_u16",
        &[0xcc0a4000, 0x18020501],
        0,
        [0x0001ffff, 0x00020003, 0],
        0x00030002,
    );
    check(
        "pk_add_u16 clamp",
        &[0xcc0ac000, 0x18020501],
        0,
        [0x0001ffff, 0x00020003, 0],
        0x0003ffff,
    );
    // v_pk_sub_i16 v0, v1, v2 clamp: both halves saturate (hi to -32768, lo to 32767)
    check(
        "pk_sub_i16 clamp",
        &[0xcc03c000, 0x18020501],
        0,
        [0x80007fff, 0x0001ffff, 0],
        0x80007fff,
    );
    // v_pk_add_u16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]: lo = v1.hi + v2.lo, hi = v1.lo + v2.hi
    check(
        "pk_add_u16 op_sel",
        &[0xcc0a4800, 0x10020501],
        0,
        [0x00100020, 0x03000400, 0],
        0x03200410,
    );
    // v_pk_mul_lo_u16 v0, v1, v2
    check(
        "pk_mul_lo_u16",
        &[0xcc014000, 0x18020501],
        0,
        [0x0100ffff, 0x01000002, 0],
        0x0000fffe,
    );
    // v_pk_mad_i16 v0, v1, v2, v3: lo 3 * -2 + 16 = 10, hi -1 * 5 + 1 = -4
    check(
        "pk_mad_i16",
        &[0xcc004000, 0x1c0e0501],
        0,
        [0xffff0003, 0x0005fffe, 0x00010010],
        0xfffc000a,
    );
    // v_pk_mad_u16 v0, v1, v2, v3 clamp: hi 0x100 * 0x100 saturates
    check(
        "pk_mad_u16 clamp",
        &[0xcc09c000, 0x1c0e0501],
        0,
        [0x01000100, 0x01000001, 1],
        0xffff0101,
    );
    // v_pk_lshlrev_b16 v0, v1, v2: counts are [3:0] of each half (0x11 -> 1)
    check(
        "pk_lshlrev_b16",
        &[0xcc044000, 0x18020501],
        0,
        [0x00110004, 0x80010123, 0],
        0x00021230,
    );
    // v_pk_ashrrev_i16 v0, v1, v2
    check(
        "pk_ashrrev_i16",
        &[0xcc064000, 0x18020501],
        0,
        [0x0004000f, 0x80008000, 0],
        0xf800ffff,
    );
    // v_pk_max_i16 / v_pk_min_u16
    check(
        "pk_max_i16",
        &[0xcc074000, 0x18020501],
        0,
        [0x80000005, 0x0001fffb, 0],
        0x00010005,
    );
    check(
        "pk_min_u16",
        &[0xcc0d4000, 0x18020501],
        0,
        [0x80000005, 0x0001fffb, 0],
        0x00010005,
    );
}

#[test]
fn packed_inline_constants() {
    // v_pk_add_u16 v0, v1, 1 op_sel_hi:[1,0]: both halves add the constant's low half
    check(
        "pk_add_u16 1",
        &[0xcc0a4000, 0x08010301],
        0,
        [0x00050003, 0, 0],
        0x00060004,
    );
    // v_pk_add_i16 v0, v1, -1: an integer constant is its 32-bit value (LLVM folds 0xffffffff
    // into -1), so OPSEL_HI = 1 also reads -1
    check(
        "pk_add_i16 -1",
        &[0xcc024000, 0x18018301],
        0,
        [0x00050003, 0, 0],
        0x00040002,
    );
    // v_pk_add_f16 v0, v1, 1.0: the f16 constant is in [15:0] only, so the high half adds +0
    let v1 = pk(f16(2.0), f16(1.0));
    check(
        "pk_add_f16 1.0",
        &[0xcc0f4000, 0x1801e501],
        0,
        [v1, 0, 0],
        pk(f16(3.0), f16(1.0)),
    );
    // ... op_sel_hi:[1,0] selects the low half for both results
    check(
        "pk_add_f16 1.0 lo",
        &[0xcc0f4000, 0x0801e501],
        0,
        [v1, 0, 0],
        pk(f16(3.0), f16(2.0)),
    );
}

#[test]
fn packed_f16_ops() {
    // v_pk_add_f16 v0, v1, v2
    let (a, b) = (pk(f16(2.0), f16(1.0)), pk(f16(1.0), f16(0.5)));
    check(
        "pk_add_f16",
        &[0xcc0f4000, 0x18020501],
        0,
        [a, b, 0],
        pk(f16(3.0), f16(1.5)),
    );
    // v_pk_mul_f16 v0, v1, v2 neg_lo:[1,0] neg_hi:[0,1]
    let (a, b) = (pk(f16(3.0), f16(2.0)), pk(f16(0.5), f16(4.0)));
    check(
        "pk_mul_f16 neg",
        &[0xcc104200, 0x38020501],
        0,
        [a, b, 0],
        pk(f16(-1.5), f16(-8.0)),
    );
    // v_pk_fma_f16 v0, v1, v2, v3 and with clamp (2.5 and 5.0 clamp to 1.0)
    let (a, b, c) = (
        pk(f16(1.0), f16(2.0)),
        pk(f16(2.0), f16(3.0)),
        pk(f16(0.5), f16(-1.0)),
    );
    check(
        "pk_fma_f16",
        &[0xcc0e4000, 0x1c0e0501],
        0,
        [a, b, c],
        pk(f16(2.5), f16(5.0)),
    );
    let one = f16(1.0);
    check(
        "pk_fma_f16 clamp",
        &[0xcc0ec000, 0x1c0e0501],
        0,
        [a, b, c],
        pk(one, one),
    );
    // v_pk_max_f16 / v_pk_min_f16: +0 > -0, a quiet NaN loses to a number
    let (a, b) = (pk(0x8000, 0x7e00), pk(0x0000, f16(1.0)));
    check(
        "pk_max_f16",
        &[0xcc124000, 0x18020501],
        0,
        [a, b, 0],
        pk(0x0000, f16(1.0)),
    );
    check(
        "pk_min_f16",
        &[0xcc114000, 0x18020501],
        0,
        [a, b, 0],
        pk(0x8000, f16(1.0)),
    );
    // With MODE.IEEE a signaling NaN input returns itself quieted.
    let (a, b) = (pk(f16(1.0), 0x7d00), pk(f16(2.0), f16(1.0)));
    check(
        "pk_min_f16 snan",
        &[0xcc114000, 0x18020501],
        0,
        [a, b, 0],
        pk(f16(1.0), 0x7f00),
    );
}

#[test]
fn dot_products() {
    // v_dot2_f32_f16 v0, v1, v2, v3: 0.5 + 1 * 2 + 2 * 3
    let (a, b) = (pk(f16(1.0), f16(2.0)), pk(f16(2.0), f16(3.0)));
    check(
        "dot2_f32_f16",
        &[0xcc134000, 0x1c0e0501],
        0,
        [a, b, f32b(0.5)],
        f32b(8.5),
    );
    // neg_lo:[1,0,0] negates a.lo; neg_hi:[0,0,1] is abs on the f32 accumulator
    check(
        "dot2_f32_f16 mods",
        &[0xcc134400, 0x3c0e0501],
        0,
        [a, b, f32b(-0.5)],
        f32b(4.5),
    );
    // Accumulation follows the pseudocode: tmp = S2; tmp += lo product; tmp += hi product, each
    // step rounded: 1 + 2^-24 + 2^-24 stays 1.0 (ties to even twice).
    let t = f16(1.0 / 4096.0);
    check(
        "dot2 order",
        &[0xcc134000, 0x1c0e0501],
        0,
        [pk(t, t), pk(t, t), f32b(1.0)],
        f32b(1.0),
    );
    // v_dot2_f32_bf16 v0, v1, v2, v3 and with the inline constant 1.0 (bf16 0x3f80 both halves)
    let (a, b) = (pk(bf16(1.0), bf16(2.0)), pk(bf16(2.0), bf16(3.0)));
    check(
        "dot2_f32_bf16",
        &[0xcc1a4000, 0x1c0e0501],
        0,
        [a, b, f32b(0.5)],
        f32b(8.5),
    );
    check(
        "dot2_f32_bf16 1.0",
        &[0xcc1a4000, 0x1c0e04f2],
        0,
        [0, b, f32b(0.5)],
        f32b(5.5),
    );
    // v_dot4_i32_iu8: NEG[1:0] choose signedness of A / B
    let a = 0xff020304; // bytes 4, 3, 2, 0xff
    check(
        "dot4 u*u",
        &[0xcc164000, 0x1c0e0501],
        0,
        [a, 0x01010101, 10],
        274,
    );
    check(
        "dot4 s*s",
        &[0xcc164000, 0x7c0e0501],
        0,
        [a, 0x01010101, 10],
        18,
    );
    check(
        "dot4 s*s neg c",
        &[0xcc164000, 0x7c0e0501],
        0,
        [a, 0xffffffff, 0xfffffff6],
        0xffffffee,
    );
    check(
        "dot4 s*u",
        &[0xcc164000, 0x3c0e0501],
        0,
        [a, 0xffffffff, 10],
        2050,
    );
    // v_dot4_u32_u8 wraps; with clamp it saturates
    check(
        "dot4_u32_u8",
        &[0xcc174000, 0x1c0e0501],
        0,
        [!0, !0, !0],
        260099,
    );
    check(
        "dot4_u32_u8 clamp",
        &[0xcc17c000, 0x1c0e0501],
        0,
        [!0, !0, !0],
        0xffffffff,
    );
    // v_dot4_u32_u8 v0, -1, v2, v3: the 32-bit inline value (all bytes 255)
    check(
        "dot4_u32_u8 -1",
        &[0xcc174000, 0x1c0e04c1],
        0,
        [0, 0x01020304, 5],
        2555,
    );
    // v_dot8_i32_iu4 signed both: 1 * 3 + (-1) * 2 + 5
    check(
        "dot8_i32_iu4",
        &[0xcc184000, 0x7c0e0501],
        0,
        [0xf0000001, 0x20000003, 5],
        6,
    );
    // v_dot8_u32_u4
    check(
        "dot8_u32_u4",
        &[0xcc194000, 0x1c0e0501],
        0,
        [!0, 0x11111111, 1],
        121,
    );
}

#[test]
fn fma_mix() {
    let a = pk(f16(1.0), f16(2.0));
    let b = pk(f16(3.0), 0);
    // v_fma_mix_f32 v0, v1, v2, v3 op_sel_hi:[1,1,0]: f16 lo halves * + f32
    check(
        "fma_mix_f32",
        &[0xcc200000, 0x1c0e0501],
        0,
        [a, b, f32b(0.25)],
        f32b(3.25),
    );
    // ... op_sel:[1,0,0]: src0 from the high half
    check(
        "fma_mix_f32 hi",
        &[0xcc200800, 0x1c0e0501],
        0,
        [a, b, f32b(0.25)],
        f32b(6.25),
    );
    // v_fma_mixlo_f16 / v_fma_mixhi_f16 (all f16 low halves), the other half kept
    let c = pk(f16(0.5), 0);
    check(
        "fma_mixlo",
        &[0xcc214000, 0x1c0e0501],
        0xabcd0000,
        [a, b, c],
        pk(f16(3.5), 0xabcd),
    );
    check(
        "fma_mixhi",
        &[0xcc224000, 0x1c0e0501],
        0x0000abcd,
        [a, b, c],
        pk(0xabcd, f16(3.5)),
    );
    // v_fma_mix_f32 v0, -v1, |v2|, v3 (all f32): -2 * 3 + 1
    let ins = [f32b(2.0), f32b(-3.0), f32b(1.0)];
    check(
        "fma_mix_f32 mods",
        &[0xcc200200, 0x240e0501],
        0,
        ins,
        f32b(-5.0),
    );
}

/// Test matrices: small integers so every product and partial sum is exact.
fn mat_a(m: usize, k: usize) -> i32 {
    ((m * 3 + k * 5) % 7) as i32 - 3
}
fn mat_b(k: usize, n: usize) -> i32 {
    ((k + 2 * n) % 5) as i32 - 2
}
fn mat_c(m: usize, n: usize) -> i32 {
    m as i32 - n as i32
}
fn reference(
    m: usize,
    n: usize,
    a: impl Fn(usize, usize) -> i32,
    b: impl Fn(usize, usize) -> i32,
    c: i32,
) -> i32 {
    c + (0..16).map(|k| a(m, k) * b(k, n)).sum::<i32>()
}

/// Loads A into v0.. and B into v8.. with `per` elements of `bits` bits per VGPR (lane m holds
/// row m of A, lane n column n of B; lanes >= 16 replicate lanes 0-15).
fn load_ab(
    h: &mut Harness,
    bits: u32,
    enc: impl Fn(i32) -> u32,
    a: impl Fn(usize, usize) -> i32,
    b: impl Fn(usize, usize) -> i32,
) {
    let per = (32 / bits) as usize;
    for j in 0..16 / per {
        h.set_v(j, |l| {
            (0..per).fold(0, |acc, e| {
                acc | (enc(a(l % 16, j * per + e)) & ((1u64 << bits) - 1) as u32)
                    << (bits as usize * e)
            })
        });
        h.set_v(8 + j, |l| {
            (0..per).fold(0, |acc, e| {
                acc | (enc(b(j * per + e, l % 16)) & ((1u64 << bits) - 1) as u32)
                    << (bits as usize * e)
            })
        });
    }
}

/// Rows of C/D per VGPR: 2 in wave32, 4 in wave64.
fn rows(h: &Harness) -> usize {
    if h.wave.wave64 {
        4
    } else {
        2
    }
}

/// Writes the 32-bit C matrix into v16.. in the C/D layout.
fn load_c32(h: &mut Harness, enc: impl Fn(i32) -> u32) {
    let r = rows(h);
    for j in 0..16 / r {
        h.set_v(16 + j, |l| enc(mat_c(j * r + l / 16, l % 16)));
    }
}

/// D element (m, n) from v16.. (32-bit).
fn d32(h: &Harness, m: usize, n: usize) -> u32 {
    let r = rows(h);
    h.v(16 + m / r, n + 16 * (m % r))
}

#[test]
fn wmma_f32_f16_and_bf16() {
    for w64 in [false, true] {
        for bf in [false, true] {
            let mut h = Harness::new(w64);
            let enc = |x: i32| if bf { bf16(x as f32) } else { f16(x as f32) };
            load_ab(&mut h, 16, enc, mat_a, mat_b);
            load_c32(&mut h, |x| f32b(x as f32));
            h.wave.set_exec(0); // WMMA ignores EXEC
                                // v_wmma_f32_16x16x16_{f16,bf16} v[16:23], v[0:7], v[8:15], v[16:23]
            let w0 = if bf { 0xcc414010 } else { 0xcc404010 };
            h.run(&[w0, 0x1c421100]).unwrap();
            for m in 0..16 {
                for n in 0..16 {
                    let want = reference(m, n, mat_a, mat_b, mat_c(m, n)) as f32;
                    assert_eq!(
                        f32::from_bits(d32(&h, m, n)),
                        want,
                        "D[{m}][{n}] bf16={bf} wave64={w64}"
                    );
                }
            }
        }
    }
}

#[test]
fn wmma_f32_inline_constant_c() {
    let mut h = Harness::new(false);
    load_ab(&mut h, 16, |x| f16(x as f32), mat_a, mat_b);
    // v_wmma_f32_16x16x16_f16 v[16:23], v[0:7], v[8:15], 1.0
    h.run(&[0xcc404010, 0x1bca1100]).unwrap();
    for m in 0..16 {
        for n in 0..16 {
            assert_eq!(
                f32::from_bits(d32(&h, m, n)),
                reference(m, n, mat_a, mat_b, 1) as f32
            );
        }
    }
}

#[test]
fn wmma_f16_and_bf16_outputs_use_op_sel_half() {
    for w64 in [false, true] {
        for (bf, hi) in [(false, false), (false, true), (true, false)] {
            let mut h = Harness::new(w64);
            let enc = |x: i32| if bf { bf16(x as f32) } else { f16(x as f32) };
            load_ab(&mut h, 16, enc, mat_a, mat_b);
            // 16-bit C in every VGPR of the 8 (wave32) or 4 (wave64) C registers, in the half
            // OPSEL[2] selects; the other half holds a marker that must survive.
            let r = rows(&h);
            for j in 0..16 / r {
                h.set_v(16 + j, |l| {
                    let c = enc(mat_c(j * r + l / 16, l % 16));
                    if hi {
                        c << 16 | 0x5555
                    } else {
                        0x5555 << 16 | c
                    }
                });
            }
            // v_wmma_{f16,bf16}_16x16x16_* v[16:23], v[0:7], v[8:15], v[16:23] [op_sel:[0,0,1]]
            let w0 = match (bf, hi) {
                (true, _) => 0xcc434010,
                (false, false) => 0xcc424010,
                (false, true) => 0xcc426010,
            };
            h.run(&[w0, 0x1c421100]).unwrap();
            for m in 0..16 {
                for n in 0..16 {
                    let d = d32(&h, m, n);
                    let (val, other) = if hi {
                        (d >> 16, d & 0xffff)
                    } else {
                        (d & 0xffff, d >> 16)
                    };
                    assert_eq!(
                        val,
                        enc(reference(m, n, mat_a, mat_b, mat_c(m, n))),
                        "D[{m}][{n}]"
                    );
                    assert_eq!(other, 0x5555);
                }
            }
        }
    }
}

#[test]
fn wmma_integer_iu8_iu4() {
    let a8 = |m: usize, k: usize| ((m + 2 * k) % 9) as i32 - 4;
    let b8 = |k: usize, n: usize| ((3 * k + n) % 11) as i32 - 5;
    let a4 = |m: usize, k: usize| ((m * 5 + k) % 16) as i32 - 8;
    let b4 = |k: usize, n: usize| ((k * 7 + n * 3) % 16) as i32;
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        load_ab(&mut h, 8, |x| x as u32, a8, b8);
        load_c32(&mut h, |x| (1000 * x) as u32);
        // v_wmma_i32_16x16x16_iu8 v[16:23], v[0:3], v[8:11], v[16:23] neg_lo:[1,1,0] (signed)
        h.run(&[0xcc444010, 0x7c421100]).unwrap();
        for m in 0..16 {
            for n in 0..16 {
                let want = reference(m, n, a8, b8, 1000 * mat_c(m, n));
                assert_eq!(d32(&h, m, n) as i32, want, "iu8 D[{m}][{n}] wave64={w64}");
            }
        }
        let mut h = Harness::new(w64);
        load_ab(&mut h, 4, |x| x as u32, a4, b4);
        load_c32(&mut h, |x| x as u32);
        // v_wmma_i32_16x16x16_iu4 v[16:23], v[0:1], v[8:9], v[16:23] neg_lo:[1,0,0]
        h.run(&[0xcc454010, 0x3c421100]).unwrap();
        for m in 0..16 {
            for n in 0..16 {
                let want = reference(m, n, a4, b4, mat_c(m, n));
                assert_eq!(d32(&h, m, n) as i32, want, "iu4 D[{m}][{n}] wave64={w64}");
            }
        }
    }
}
