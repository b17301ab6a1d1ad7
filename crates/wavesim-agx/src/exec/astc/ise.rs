//! ASTC integer sequence encoding and unquantisation (Khronos Data Format Specification, "ASTC
//! Compressed Texture Image Formats": "Integer Sequence Encoding", "Endpoint Unquantization",
//! "Weight Unquantization"). A range is 2^n, 3 x 2^n (a trit and n bits) or 5 x 2^n (a quint and
//! n bits) values; trits pack five to a block of 8 + 5n bits, quints three to 7 + 3n bits.

/// How the values of a sequence are encoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Bits,
    Trit,
    Quint,
}

/// A value range: `kind` times 2^`bits` values.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Range {
    pub kind: Kind,
    pub bits: u32,
}

impl Range {
    const fn new(kind: Kind, bits: u32) -> Range {
        Range { kind, bits }
    }

    /// Bits `n` values take ("Data Size Determination": ceil(8n/5) for trits, ceil(7n/3) for
    /// quints, plus n times the bits).
    pub fn stream_bits(self, n: u32) -> u32 {
        let extra = match self.kind {
            Kind::Bits => 0,
            Kind::Trit => (8 * n).div_ceil(5),
            Kind::Quint => (7 * n).div_ceil(3),
        };
        extra + n * self.bits
    }
}

/// Weight ranges by (P, rho) ("ASTC weight range encodings"); rho 0 and 1 are invalid.
pub fn weight_range(high_precision: bool, rho: u32) -> Option<Range> {
    use Kind::*;
    const LOW: [Range; 6] = [
        Range::new(Bits, 1),
        Range::new(Trit, 0),
        Range::new(Bits, 2),
        Range::new(Quint, 0),
        Range::new(Trit, 1),
        Range::new(Bits, 3),
    ];
    const HIGH: [Range; 6] = [
        Range::new(Quint, 1),
        Range::new(Trit, 2),
        Range::new(Bits, 4),
        Range::new(Quint, 2),
        Range::new(Trit, 3),
        Range::new(Bits, 5),
    ];
    let table = if high_precision { &HIGH } else { &LOW };
    table.get(rho.checked_sub(2)? as usize).copied()
}

/// Colour endpoint ranges from the largest down, 0..255 to 0..5 (the smallest the
/// unquantisation table has; "Illegal Encodings" refuses blocks that would need less).
pub const COLOUR_RANGES: [Range; 17] = {
    use Kind::*;
    [
        Range::new(Bits, 8),
        Range::new(Trit, 6),
        Range::new(Quint, 5),
        Range::new(Bits, 7),
        Range::new(Trit, 5),
        Range::new(Quint, 4),
        Range::new(Bits, 6),
        Range::new(Trit, 4),
        Range::new(Quint, 3),
        Range::new(Bits, 5),
        Range::new(Trit, 3),
        Range::new(Quint, 2),
        Range::new(Bits, 4),
        Range::new(Trit, 2),
        Range::new(Quint, 1),
        Range::new(Bits, 3),
        Range::new(Trit, 1),
    ]
};

/// `n` bits of `stream` from bit `at` (bits past 127 read as 0).
fn field(stream: u128, at: u32, n: u32) -> u32 {
    if at >= 128 || n == 0 {
        return 0;
    }
    ((stream >> at) & ((1u128 << n) - 1)) as u32
}

/// The five trits of a packed byte T ("Integer Sequence Encoding", the trit procedure).
fn trits(t: u32) -> [u32; 5] {
    let bit = |v: u32, i: u32| (v >> i) & 1;
    let (c, t4, t3);
    if (t >> 2) & 7 == 7 {
        c = ((t >> 5) & 7) << 2 | (t & 3);
        (t4, t3) = (2, 2);
    } else {
        c = t & 0x1F;
        if (t >> 5) & 3 == 3 {
            (t4, t3) = (2, bit(t, 7));
        } else {
            (t4, t3) = (bit(t, 7), (t >> 5) & 3);
        }
    }
    let (t2, t1, t0);
    if c & 3 == 3 {
        t2 = 2;
        t1 = bit(c, 4);
        t0 = bit(c, 3) << 1 | (bit(c, 2) & !bit(c, 3) & 1);
    } else if (c >> 2) & 3 == 3 {
        t2 = 2;
        t1 = 2;
        t0 = c & 3;
    } else {
        t2 = bit(c, 4);
        t1 = (c >> 2) & 3;
        t0 = bit(c, 1) << 1 | (bit(c, 0) & !bit(c, 1) & 1);
    }
    [t0, t1, t2, t3, t4]
}

/// The three quints of a packed 7-bit Q (the quint procedure).
fn quints(q: u32) -> [u32; 3] {
    let bit = |v: u32, i: u32| (v >> i) & 1;
    if (q >> 1) & 3 == 3 && (q >> 5) & 3 == 0 {
        let not0 = !bit(q, 0) & 1;
        let q2 = bit(q, 0) << 2 | (bit(q, 4) & not0) << 1 | (bit(q, 3) & not0);
        return [4, 4, q2];
    }
    let (q2, c);
    if (q >> 1) & 3 == 3 {
        q2 = 4;
        c = ((q >> 3) & 3) << 3 | (!(q >> 5) & 3) << 1 | bit(q, 0);
    } else {
        q2 = (q >> 5) & 3;
        c = q & 0x1F;
    }
    let (q1, q0) = if c & 7 == 5 {
        (4, (c >> 3) & 3)
    } else {
        ((c >> 3) & 3, c & 7)
    };
    [q0, q1, q2]
}

/// `count` values of `range` from bit `start` of `stream`, whose bits from `end` up are taken as
/// 0 ("unused (higher-order) bits are assumed to be 0"). Each value is (trit or quint, low bits).
pub fn decode(stream: u128, (start, end): (u32, u32), count: u32, range: Range) -> Vec<(u32, u32)> {
    let stream = if end >= 128 {
        stream
    } else {
        stream & ((1u128 << end) - 1)
    };
    let n = range.bits;
    let mut out = Vec::with_capacity(count as usize);
    match range.kind {
        Kind::Bits => {
            for i in 0..count {
                out.push((0, field(stream, start + i * n, n)));
            }
        }
        Kind::Trit => {
            let mut at = start;
            while (out.len() as u32) < count {
                // m0 T1:0 m1 T3:2 m2 T4 m3 T6:5 m4 T7
                let f = |off: u32, w: u32| field(stream, at + off, w);
                let m = [
                    f(0, n),
                    f(n + 2, n),
                    f(2 * n + 4, n),
                    f(3 * n + 5, n),
                    f(4 * n + 7, n),
                ];
                let t = f(n, 2)
                    | f(2 * n + 2, 2) << 2
                    | f(3 * n + 4, 1) << 4
                    | f(4 * n + 5, 2) << 5
                    | f(5 * n + 7, 1) << 7;
                for (tv, mv) in trits(t).into_iter().zip(m) {
                    if (out.len() as u32) < count {
                        out.push((tv, mv));
                    }
                }
                at += 8 + 5 * n;
            }
        }
        Kind::Quint => {
            let mut at = start;
            while (out.len() as u32) < count {
                // m0 Q2:0 m1 Q4:3 m2 Q6:5
                let f = |off: u32, w: u32| field(stream, at + off, w);
                let m = [f(0, n), f(n + 3, n), f(2 * n + 5, n)];
                let q = f(n, 3) | f(2 * n + 3, 2) << 3 | f(3 * n + 5, 2) << 5;
                for (qv, mv) in quints(q).into_iter().zip(m) {
                    if (out.len() as u32) < count {
                        out.push((qv, mv));
                    }
                }
                at += 7 + 3 * n;
            }
        }
    }
    out
}

/// `m` (`n` bits) repeated from its top bit to fill `width` bits.
fn replicate(m: u32, n: u32, width: u32) -> u32 {
    if n == 0 {
        return 0;
    }
    let (mut v, mut filled) = (0u32, 0);
    while filled < width {
        v = v << n | m;
        filled += n;
    }
    v >> (filled - width)
}

/// The bit `i` of `m` as a 0/1 multiplier.
fn b(m: u32, i: u32) -> u32 {
    (m >> i) & 1
}

/// One colour endpoint value in 0..255 ("Endpoint Unquantization": bit replication, or the A, B,
/// C, D procedure of "ASTC color unquantization parameters").
pub fn unquantise_colour(range: Range, (tq, m): (u32, u32)) -> i32 {
    if range.kind == Kind::Bits {
        return replicate(m, range.bits, 8) as i32;
    }
    let a = if m & 1 != 0 { 0x1FF } else { 0 };
    // B's bit patterns from the table, as sums of each low bit's positions
    let (bb, c) = match (range.kind, range.bits) {
        (Kind::Trit, 1) => (0, 204),
        (Kind::Quint, 1) => (0, 113),
        (Kind::Trit, 2) => (b(m, 1) * 0x116, 93),
        (Kind::Quint, 2) => (b(m, 1) * 0x10C, 54),
        (Kind::Trit, 3) => (b(m, 2) * 0x10A + b(m, 1) * 0x85, 44),
        (Kind::Quint, 3) => (b(m, 2) * 0x105 + b(m, 1) * 0x82, 26),
        (Kind::Trit, 4) => (b(m, 3) * 0x104 + b(m, 2) * 0x82 + b(m, 1) * 0x41, 22),
        (Kind::Quint, 4) => (b(m, 3) * 0x102 + b(m, 2) * 0x81 + b(m, 1) * 0x40, 13),
        (Kind::Trit, 5) => (
            b(m, 4) * 0x102 + b(m, 3) * 0x81 + b(m, 2) * 0x40 + b(m, 1) * 0x20,
            11,
        ),
        (Kind::Quint, 5) => (
            b(m, 4) * 0x101 + b(m, 3) * 0x80 + b(m, 2) * 0x40 + b(m, 1) * 0x20,
            6,
        ),
        (_, _) => (
            // trit, 6 bits
            b(m, 5) * 0x101 + b(m, 4) * 0x80 + b(m, 3) * 0x40 + b(m, 2) * 0x20 + b(m, 1) * 0x10,
            5,
        ),
    };
    let unq = (tq * c + bb) ^ a;
    ((a & 0x80) | (unq >> 2)) as i32
}

/// One weight in 0..64 ("Weight Unquantization": to 0..63, then values above 32 plus one).
pub fn unquantise_weight(range: Range, (tq, m): (u32, u32)) -> u32 {
    let unq = match (range.kind, range.bits) {
        (Kind::Bits, n) => replicate(m, n, 6),
        (Kind::Trit, 0) => [0, 32, 63][tq.min(2) as usize],
        (Kind::Quint, 0) => [0, 16, 32, 47, 63][tq.min(4) as usize],
        (kind, n) => {
            let a = if m & 1 != 0 { 0x7F } else { 0 };
            let (bb, c) = match (kind, n) {
                (Kind::Trit, 1) => (0, 50),
                (Kind::Quint, 1) => (0, 28),
                (Kind::Trit, 2) => (b(m, 1) * 0x45, 23),
                (Kind::Quint, 2) => (b(m, 1) * 0x42, 13),
                _ => (b(m, 2) * 0x42 + b(m, 1) * 0x21, 11), // trit, 3 bits
            };
            let unq = (tq * c + bb) ^ a;
            (a & 0x20) | (unq >> 2)
        }
    };
    if unq > 32 {
        unq + 1
    } else {
        unq
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every byte T gives five trits in 0..2, and the 243 encodings of the spec's procedure
    /// reach every combination (so the procedure is a decoding, not a table typo).
    #[test]
    fn trits_and_quints_cover_their_ranges() {
        let mut seen = std::collections::HashSet::new();
        for t in 0..256 {
            let v = trits(t);
            assert!(v.iter().all(|&x| x < 3));
            seen.insert(v);
        }
        assert_eq!(seen.len(), 243);
        let mut seen = std::collections::HashSet::new();
        for q in 0..128 {
            let v = quints(q);
            assert!(v.iter().all(|&x| x < 5));
            seen.insert(v);
        }
        assert_eq!(seen.len(), 125);
    }

    /// Unquantisation maps each range onto 0..255 / 0..64 monotonically in the value the
    /// encoder intends (the scrambled order is the encoder's business), with the ends exact:
    /// the smallest value 0 (trit 0, m 0) and the largest 255 / 64.
    #[test]
    fn unquantised_ranges_reach_both_ends() {
        for r in COLOUR_RANGES {
            let mut all: Vec<i32> = Vec::new();
            let top = match r.kind {
                Kind::Bits => 1,
                Kind::Trit => 3,
                Kind::Quint => 5,
            };
            for tq in 0..top {
                for m in 0..(1 << r.bits) {
                    all.push(unquantise_colour(r, (tq, m)));
                }
            }
            assert_eq!(all.iter().min(), Some(&0), "{r:?}");
            assert_eq!(all.iter().max(), Some(&255), "{r:?}");
            all.sort();
            all.dedup();
            assert_eq!(all.len(), top as usize * (1 << r.bits), "{r:?}");
        }
        // weight range 0..5 (trit, 1 bit): the spec's A/B/C/D give 0, 64 at the ends
        let r = Range::new(Kind::Trit, 1);
        assert_eq!(unquantise_weight(r, (0, 0)), 0);
        assert_eq!(unquantise_weight(r, (0, 1)), 64);
        // 3-bit weights: 0b101 -> 101101 = 45 -> 46
        assert_eq!(unquantise_weight(Range::new(Kind::Bits, 3), (0, 5)), 46);
    }
}
