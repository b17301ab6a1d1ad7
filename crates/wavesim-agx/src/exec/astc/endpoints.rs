//! ASTC colour endpoint modes 0-15 (Khronos Data Format Specification, "ASTC Compressed Texture
//! Image Formats": "LDR Endpoint Decoding" and "HDR Endpoint Decoding"): the unquantised values
//! v0..v(n-1) (each 0..255) to the two endpoints e0, e1. LDR components are 8-bit; HDR ones are
//! 12-bit pseudo-logarithmic values (0x780 is 1.0).

/// A partition's two endpoints and which of their components are HDR.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Endpoints {
    pub e0: [i32; 4],
    pub e1: [i32; 4],
    pub hdr_rgb: bool,
    pub hdr_alpha: bool,
}

/// Values a mode takes: 2 (class 0), 4, 6 or 8 (class 3).
pub fn value_count(cem: u32) -> u32 {
    2 * ((cem >> 2) + 1)
}

fn ldr(e0: [i32; 4], e1: [i32; 4]) -> Endpoints {
    Endpoints {
        e0,
        e1,
        hdr_rgb: false,
        hdr_alpha: false,
    }
}

/// `bit_transfer_signed(a, b)`: a becomes -32..31, b takes a's top bit.
fn bit_transfer_signed(a: i32, b: i32) -> (i32, i32) {
    let b = (b >> 1) | (a & 0x80);
    let mut a = (a >> 1) & 0x3F;
    if a & 0x20 != 0 {
        a -= 0x40;
    }
    (a, b)
}

fn blue_contract([r, g, b, a]: [i32; 4]) -> [i32; 4] {
    [(r + b) >> 1, (g + b) >> 1, b, a]
}

fn clamp_unorm8(c: [i32; 4]) -> [i32; 4] {
    c.map(|x| x.clamp(0, 255))
}

/// The endpoints of mode `cem` from its `value_count(cem)` values.
pub fn decode(cem: u32, v: &[i32]) -> Endpoints {
    let v = |i: usize| v.get(i).copied().unwrap_or(0);
    match cem {
        0 => ldr([v(0), v(0), v(0), 0xFF], [v(1), v(1), v(1), 0xFF]),
        1 => {
            let l0 = (v(0) >> 2) | (v(1) & 0xC0);
            let l1 = (l0 + (v(1) & 0x3F)).min(0xFF);
            ldr([l0, l0, l0, 0xFF], [l1, l1, l1, 0xFF])
        }
        4 => ldr([v(0), v(0), v(0), v(2)], [v(1), v(1), v(1), v(3)]),
        5 => {
            let (a1, a0) = bit_transfer_signed(v(1), v(0));
            let (b1, b0) = bit_transfer_signed(v(3), v(2));
            let l1 = a0 + a1;
            ldr(
                clamp_unorm8([a0, a0, a0, b0]),
                clamp_unorm8([l1, l1, l1, b0 + b1]),
            )
        }
        6 => ldr(
            [
                (v(0) * v(3)) >> 8,
                (v(1) * v(3)) >> 8,
                (v(2) * v(3)) >> 8,
                0xFF,
            ],
            [v(0), v(1), v(2), 0xFF],
        ),
        8 | 12 => {
            let (a0, a1) = if cem == 8 { (0xFF, 0xFF) } else { (v(6), v(7)) };
            let s0 = v(0) + v(2) + v(4);
            let s1 = v(1) + v(3) + v(5);
            if s1 >= s0 {
                ldr([v(0), v(2), v(4), a0], [v(1), v(3), v(5), a1])
            } else {
                ldr(
                    blue_contract([v(1), v(3), v(5), a1]),
                    blue_contract([v(0), v(2), v(4), a0]),
                )
            }
        }
        9 | 13 => {
            let (d1, b0) = bit_transfer_signed(v(1), v(0));
            let (d3, b2) = bit_transfer_signed(v(3), v(2));
            let (d5, b4) = bit_transfer_signed(v(5), v(4));
            let (d7, b6) = if cem == 13 {
                bit_transfer_signed(v(7), v(6))
            } else {
                (0, 0xFF)
            };
            let base = [b0, b2, b4, b6];
            let sum = [b0 + d1, b2 + d3, b4 + d5, b6 + d7];
            let (e0, e1) = if d1 + d3 + d5 >= 0 {
                (base, sum)
            } else {
                (blue_contract(sum), blue_contract(base))
            };
            ldr(clamp_unorm8(e0), clamp_unorm8(e1))
        }
        10 => ldr(
            [
                (v(0) * v(3)) >> 8,
                (v(1) * v(3)) >> 8,
                (v(2) * v(3)) >> 8,
                v(4),
            ],
            [v(0), v(1), v(2), v(5)],
        ),
        2 => {
            let (y0, y1) = if v(1) >= v(0) {
                (v(0) << 4, v(1) << 4)
            } else {
                ((v(1) << 4) + 8, (v(0) << 4) - 8)
            };
            hdr_luminance(y0, y1)
        }
        3 => {
            let (y0, d) = if v(0) & 0x80 != 0 {
                (
                    ((v(1) & 0xE0) << 4) | ((v(0) & 0x7F) << 2),
                    (v(1) & 0x1F) << 2,
                )
            } else {
                (
                    ((v(1) & 0xF0) << 4) | ((v(0) & 0x7F) << 1),
                    (v(1) & 0x0F) << 1,
                )
            };
            hdr_luminance(y0, (y0 + d).min(0xFFF))
        }
        7 => hdr_rgb_scale([v(0), v(1), v(2), v(3)]),
        11 => hdr_rgb([v(0), v(1), v(2), v(3), v(4), v(5)]),
        14 => {
            let mut e = hdr_rgb([v(0), v(1), v(2), v(3), v(4), v(5)]);
            (e.e0[3], e.e1[3], e.hdr_alpha) = (v(6), v(7), false);
            e
        }
        _ => {
            // 15: HDR RGB + HDR alpha
            let mut e = hdr_rgb([v(0), v(1), v(2), v(3), v(4), v(5)]);
            (e.e0[3], e.e1[3]) = hdr_alpha(v(6), v(7));
            e
        }
    }
}

/// Modes 2 and 3's result: grey endpoints, alpha HDR 1.0.
fn hdr_luminance(y0: i32, y1: i32) -> Endpoints {
    Endpoints {
        e0: [y0, y0, y0, 0x780],
        e1: [y1, y1, y1, 0x780],
        hdr_rgb: true,
        hdr_alpha: true,
    }
}

/// HDR endpoint mode 7: base RGB, scale and mode bits.
fn hdr_rgb_scale([v0, v1, v2, v3]: [i32; 4]) -> Endpoints {
    let modeval = ((v0 & 0xC0) >> 6) | ((v1 & 0x80) >> 5) | ((v2 & 0x80) >> 4);
    let (majcomp, mode) = if modeval & 0xC != 0xC {
        (modeval >> 2, modeval & 3)
    } else if modeval != 0xF {
        (modeval & 3, 4)
    } else {
        (0, 5)
    };
    let (mut red, mut green, mut blue, mut scale) = (v0 & 0x3F, v1 & 0x1F, v2 & 0x1F, v3 & 0x1F);
    let x = |v: i32, i: i32| (v >> i) & 1;
    let (x0, x1, x2, x3) = (x(v1, 6), x(v1, 5), x(v2, 6), x(v2, 5));
    let (x4, x5, x6) = (x(v3, 7), x(v3, 6), x(v3, 5));
    let ohm = 1 << mode;
    if ohm & 0x30 != 0 {
        green |= x0 << 6;
        blue |= x2 << 6;
    }
    if ohm & 0x3A != 0 {
        green |= x1 << 5;
        blue |= x3 << 5;
    }
    if ohm & 0x3D != 0 {
        scale |= x6 << 5;
    }
    if ohm & 0x2D != 0 {
        scale |= x5 << 6;
    }
    if ohm & 0x04 != 0 {
        scale |= x4 << 7;
        red |= x3 << 6;
    }
    if ohm & 0x3B != 0 {
        red |= x4 << 6;
    }
    if ohm & 0x10 != 0 {
        red |= x5 << 7;
    }
    if ohm & 0x0F != 0 {
        red |= x2 << 7;
    }
    if ohm & 0x05 != 0 {
        red |= x1 << 8;
        red |= x0 << 9;
    }
    if ohm & 0x0A != 0 {
        red |= x0 << 8;
    }
    if ohm & 0x02 != 0 {
        red |= x6 << 9;
        red |= x5 << 10;
    }
    if ohm & 0x01 != 0 {
        red |= x3 << 10;
    }
    let shamt = [1, 1, 2, 3, 4, 5][mode as usize];
    red <<= shamt;
    green <<= shamt;
    blue <<= shamt;
    scale <<= shamt;
    if mode != 5 {
        green = red - green;
        blue = red - blue;
    }
    if majcomp == 1 {
        std::mem::swap(&mut red, &mut green);
    }
    if majcomp == 2 {
        std::mem::swap(&mut red, &mut blue);
    }
    let c = |v: i32| v.clamp(0, 0xFFF);
    Endpoints {
        e0: [c(red - scale), c(green - scale), c(blue - scale), 0x780],
        e1: [c(red), c(green), c(blue), 0x780],
        hdr_rgb: true,
        hdr_alpha: true,
    }
}

/// HDR endpoint mode 11 (also the RGB of 14 and 15). The spec's `shamt = (modeval >> 1) ^ 3`
/// names a variable the procedure does not define; its mode bits m2..0 (`mode`) are meant, as
/// the bit-allocation table (a is 9-12 bits: the shift puts the major component's top bit at
/// bit 11) requires.
fn hdr_rgb([v0, v1, v2, v3, v4, v5]: [i32; 6]) -> Endpoints {
    let majcomp = ((v4 & 0x80) >> 7) | ((v5 & 0x80) >> 6);
    if majcomp == 3 {
        return Endpoints {
            e0: [v0 << 4, v2 << 4, (v4 & 0x7F) << 5, 0x780],
            e1: [v1 << 4, v3 << 4, (v5 & 0x7F) << 5, 0x780],
            hdr_rgb: true,
            hdr_alpha: true,
        };
    }
    let mode = ((v1 & 0x80) >> 7) | ((v2 & 0x80) >> 6) | ((v3 & 0x80) >> 5);
    let mut va = v0 | ((v1 & 0x40) << 2);
    let (mut vb0, mut vb1, mut vc) = (v2 & 0x3F, v3 & 0x3F, v1 & 0x3F);
    let dbits = [7, 6, 7, 6, 5, 6, 5, 6][mode as usize];
    let signextend = |v: i32, bits: i32| (v << (32 - bits)) >> (32 - bits);
    let mut vd0 = signextend(v4 & 0x7F, dbits);
    let mut vd1 = signextend(v5 & 0x7F, dbits);
    let x = |v: i32, i: i32| (v >> i) & 1;
    let (x0, x1, x2, x3, x4, x5) = (x(v2, 6), x(v3, 6), x(v4, 6), x(v5, 6), x(v4, 5), x(v5, 5));
    let ohm = 1 << mode;
    if ohm & 0xA4 != 0 {
        va |= x0 << 9;
    }
    if ohm & 0x08 != 0 {
        va |= x2 << 9;
    }
    if ohm & 0x50 != 0 {
        va |= x4 << 9;
        va |= x5 << 10;
    }
    if ohm & 0xA0 != 0 {
        va |= x1 << 10;
    }
    if ohm & 0xC0 != 0 {
        va |= x2 << 11;
    }
    if ohm & 0x04 != 0 {
        vc |= x1 << 6;
    }
    if ohm & 0xE8 != 0 {
        vc |= x3 << 6;
    }
    if ohm & 0x20 != 0 {
        vc |= x2 << 7;
    }
    if ohm & 0x5B != 0 {
        vb0 |= x0 << 6;
        vb1 |= x1 << 6;
    }
    if ohm & 0x12 != 0 {
        vb0 |= x2 << 7;
        vb1 |= x3 << 7;
    }
    let shamt = (mode >> 1) ^ 3;
    va <<= shamt;
    vb0 <<= shamt;
    vb1 <<= shamt;
    vc <<= shamt;
    vd0 <<= shamt;
    vd1 <<= shamt;
    let c = |v: i32| v.clamp(0, 0xFFF);
    let mut e1 = [c(va), c(va - vb0), c(va - vb1), 0x780];
    let mut e0 = [
        c(va - vc),
        c(va - vb0 - vc - vd0),
        c(va - vb1 - vc - vd1),
        0x780,
    ];
    if majcomp == 1 {
        e0.swap(0, 1);
        e1.swap(0, 1);
    } else if majcomp == 2 {
        e0.swap(0, 2);
        e1.swap(0, 2);
    }
    Endpoints {
        e0,
        e1,
        hdr_rgb: true,
        hdr_alpha: true,
    }
}

/// Mode 15's HDR alphas from v6, v7.
fn hdr_alpha(v6: i32, v7: i32) -> (i32, i32) {
    let mode = ((v6 >> 7) & 1) | ((v7 >> 6) & 2);
    let (mut a, mut b) = (v6 & 0x7F, v7 & 0x7F);
    if mode == 3 {
        return (a << 5, b << 5);
    }
    a |= (b << (mode + 1)) & 0x780;
    b &= 0x3F >> mode;
    b ^= 0x20 >> mode;
    b -= 0x20 >> mode;
    a <<= 4 - mode;
    b <<= 4 - mode;
    (a, (a + b).clamp(0, 0xFFF))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mode 1 (luminance, base+offset): v0 = 0x80, v1 = 0xC5: L0 = 0x20 | 0xC0 = 0xE0, L1 = 0xE0
    /// + 5 = 0xE5. v1 = 0xFF: L0 = 0x20 | 0xC0 = 0xE0, L1 = 0xE0 + 0x3F = 0x11F -> 0xFF.
    #[test]
    fn mode_1_offset_and_clamp() {
        let e = decode(1, &[0x80, 0xC5]);
        assert_eq!(
            (e.e0, e.e1),
            ([0xE0, 0xE0, 0xE0, 0xFF], [0xE5, 0xE5, 0xE5, 0xFF])
        );
        assert_eq!(decode(1, &[0x80, 0xFF]).e1[0], 0xFF);
    }

    /// Mode 8 with s1 < s0 swaps and blue-contracts: v = (200, 10, 100, 20, 50, 30): s0 = 350,
    /// s1 = 60: e0 = bc(10, 20, 30) = (20, 25, 30), e1 = bc(200, 100, 50) = (125, 75, 50).
    #[test]
    fn mode_8_blue_contract() {
        let e = decode(8, &[200, 10, 100, 20, 50, 30]);
        assert_eq!(e.e0, [20, 25, 30, 0xFF]);
        assert_eq!(e.e1, [125, 75, 50, 0xFF]);
    }

    /// Mode 2 (HDR luminance, large range): v1 >= v0: y = v << 4; else (v1 << 4) + 8 and
    /// (v0 << 4) - 8. Alpha is HDR 1.0 (0x780).
    #[test]
    fn mode_2_hdr_luminance() {
        let e = decode(2, &[0x10, 0x20]);
        assert_eq!((e.e0[0], e.e1[0], e.e0[3]), (0x100, 0x200, 0x780));
        let e = decode(2, &[0x20, 0x10]);
        assert_eq!((e.e0[0], e.e1[0]), (0x108, 0x1F8));
        assert!(e.hdr_rgb && e.hdr_alpha);
    }
}
