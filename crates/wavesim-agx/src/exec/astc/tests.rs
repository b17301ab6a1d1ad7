use super::*;

/// Packs (value, bits) fields from bit 0 up into a block.
fn pack(fields: &[(u128, u32)]) -> [u8; 16] {
    let (mut v, mut at) = (0u128, 0);
    for &(f, b) in fields {
        v |= f << at;
        at += b;
    }
    v.to_le_bytes()
}

fn all(t: &[Texel]) -> Texel {
    assert!(t.iter().all(|x| *x == t[0]), "{t:?}");
    t[0]
}

/// UNORM16 to FP16, "Weight Application": 0xFFFF is 1.0 (0x3C00); 0x8000 / 65536 = 0.5
/// (0x3800); 1 / 65536 = 2^-16 = 256 x 2^-24, the subnormal 0x0100; 0x1234 = 4660: 4660 / 65536
/// = 1.1376953125 x 2^-4 -> exponent field 11, mantissa 0.1376953125 x 1024 = 141 exactly ->
/// 0x2C8D; 0xFFFE = 65534: 0.999969... -> exponent 14, mantissa (65534 / 32768 - 1) x 1024 =
/// 1023.97 -> 1023 toward zero -> 0x3BFF.
#[test]
fn unorm16_conversion_truncates() {
    assert_eq!(unorm16_to_fp16(0xFFFF), 0x3C00);
    assert_eq!(unorm16_to_fp16(0x8000), 0x3800);
    assert_eq!(unorm16_to_fp16(1), 0x0100);
    assert_eq!(unorm16_to_fp16(0), 0);
    assert_eq!(unorm16_to_fp16(0x1234), 0x2C8D);
    assert_eq!(unorm16_to_fp16(0xFFFE), 0x3BFF);
    // HDR: 0x780 << 4 = 0x7800: E = 15, M = 0 -> 0x3C00 (1.0); E = 31 is Inf/NaN -> 0x7BFF
    assert_eq!(lns_to_fp16(0x7800), 0x3C00);
    assert_eq!(lns_to_fp16(0xFFFF), 0x7BFF);
    // M = 1024 (512..1535): Mt = 4 x 1024 - 512 = 3584, >> 3 = 448: 0x3C00 + 448 = 0x3DC0
    assert_eq!(lns_to_fp16(0x7C00), 0x3DC0);
}

/// A 2D void-extent block: bits 0-8 0x1FC, bit 9 HDR, bits 10-11 1, the four 13-bit extent
/// coordinates, then R, G, B, A as 16-bit values.
fn void_extent_block(hdr: bool, reserved: u128, extent: [u128; 4], rgba: [u128; 4]) -> [u8; 16] {
    pack(&[
        (0x1FC, 9),
        (hdr as u128, 1),
        (reserved, 2),
        (extent[0], 13),
        (extent[1], 13),
        (extent[2], 13),
        (extent[3], 13),
        (rgba[0], 16),
        (rgba[1], 16),
        (rgba[2], 16),
        (rgba[3], 16),
    ])
}

/// LDR void extent, all-ones extent (a constant block): colours (0xFFFF, 0x8000, 1, 0x1234)
/// -> linear (0x3C00, 0x3800, 0x0100, 0x2C8D) as `unorm16_conversion_truncates` derives; sRGB
/// the top 8 bits (0xFF, 0x80, 0x00, 0x12); HDR mode decodes LDR colours as linear LDR does.
#[test]
fn void_extent_ldr() {
    let b = void_extent_block(false, 3, [0x1FFF; 4], [0xFFFF, 0x8000, 1, 0x1234]);
    let t = |m| all(&decode_block(&b, (6, 5), m).unwrap());
    assert_eq!(
        t(Mode::LinearLdr),
        Texel::Fp16([0x3C00, 0x3800, 0x0100, 0x2C8D])
    );
    assert_eq!(t(Mode::Hdr), Texel::Fp16([0x3C00, 0x3800, 0x0100, 0x2C8D]));
    assert_eq!(t(Mode::Srgb), Texel::Unorm8([0xFF, 0x80, 0x00, 0x12]));
    // a real extent (min < max on both axes) is valid too
    let b = void_extent_block(false, 3, [0, 10, 5, 6], [0xFFFF, 0, 0, 0xFFFF]);
    assert_eq!(
        all(&decode_block(&b, (4, 4), Mode::LinearLdr).unwrap()),
        Texel::Fp16([0x3C00, 0, 0, 0x3C00])
    );
}

/// Illegal void extents ("Illegal Encodings"): bits 10-11 not both 1; a minimum not below its
/// maximum (s: 10 >= 10) when the coordinates are not all ones. HDR void extents are the error
/// colour outside HDR mode; in HDR mode the FP16 colours as they are, and Inf/NaN undefined.
#[test]
fn void_extent_errors_and_hdr() {
    let rgba = [0x3C00, 0x4000, 0x3800, 0x3C00];
    for reserved in [0, 1, 2] {
        let b = void_extent_block(false, reserved, [0x1FFF; 4], rgba);
        assert_eq!(
            all(&decode_block(&b, (4, 4), Mode::LinearLdr).unwrap()),
            Texel::Error
        );
    }
    let b = void_extent_block(false, 3, [10, 10, 0, 5], rgba);
    assert_eq!(
        all(&decode_block(&b, (4, 4), Mode::Srgb).unwrap()),
        Texel::Error
    );
    let b = void_extent_block(true, 3, [0x1FFF; 4], rgba);
    assert_eq!(
        all(&decode_block(&b, (4, 4), Mode::LinearLdr).unwrap()),
        Texel::Error
    );
    assert_eq!(
        all(&decode_block(&b, (4, 4), Mode::Srgb).unwrap()),
        Texel::Error
    );
    assert_eq!(
        all(&decode_block(&b, (4, 4), Mode::Hdr).unwrap()),
        Texel::Fp16([0x3C00, 0x4000, 0x3800, 0x3C00])
    );
    let b = void_extent_block(true, 3, [0x1FFF; 4], [0x7C00, 0, 0, 0x3C00]);
    assert_eq!(
        all(&decode_block(&b, (4, 4), Mode::Hdr).unwrap()),
        Texel::Undefined
    );
}

/// A hand-assembled 4x4 block. Block mode 0x042: bits 1-0 = 10 (rho2 = 1, rho1 = 0), bits 3-2
/// = 00 (W = b + 4, H = a + 2), bit 4 = rho0 = 0, a (bits 6-5) = 2, b (bits 8-7) = 0, P = 0,
/// single plane: a 4x4 grid, rho = 4 -> 2-bit weights (range 0..3): 32 weight bits. One
/// partition (bits 11-12 = 0), CEM 8 (RGB direct) in bits 13-16; config 17 bits, so 79 bits
/// remain for 6 values: the 8-bit range (48 bits) fits, the values are bytes from bit 17.
/// v = (10, 250, 20, 240, 30, 230): s1 = 720 >= s0 = 60, e0 = (10, 20, 30, 255), e1 = (250,
/// 240, 230, 255). Weights grow down from bit 127, 2 bits each: weight k's bit 0 at 127 - 2k,
/// bit 1 at 126 - 2k; weights 0-3 = 0, 3, 1, 2 -> unquantised 0, 64 (63 + 1), 21 (010101),
/// 43 (101010 = 42 + 1). The 4x4 grid on a 4x4 block infills to itself (Ds = 1026 / 3 = 342;
/// x = 1: (342 x 3 + 32) >> 6 = 16, x = 2: 32, x = 3: 48: no fractions).
fn hand_block(block_mode: u128) -> [u8; 16] {
    let mut b = u128::from_le_bytes(pack(&[
        (block_mode, 11),
        (0, 2),
        (8, 4),
        (10, 8),
        (250, 8),
        (20, 8),
        (240, 8),
        (30, 8),
        (230, 8),
    ]));
    for (k, w) in [0u128, 3, 1, 2].into_iter().enumerate() {
        b |= (w & 1) << (127 - 2 * k);
        b |= (w >> 1) << (126 - 2 * k);
    }
    b.to_le_bytes()
}

/// The hand block's texels 0-2 (weights 0, 64, 21).
/// - sRGB (endpoints e << 8 | 0x80, top 8 bits): texel 0 is e0 = (10, 20, 30, 255), texel 1 e1;
///   texel 2: R (2688 x 43 + 64128 x 21 + 32) / 64 = 22848.5 -> 22848 >> 8 = 89; G (5248 x 43 +
///   61568 x 21 + 32) / 64 = 23728 -> 92; B (7808 x 43 + 59008 x 21 + 32) / 64 = 24608 -> 96; A
///   65408 -> 255.
/// - linear (e x 257): texel 2's R (2570 x 43 + 64250 x 21 + 32) / 64 = 22809 = 0x5919 ->
///   exponent field 13, mantissa (22809 x 4 - 65536) >> 6 = 401 -> 0x3591; A 65535 -> 0x3C00;
///   texel 0's R 2570 = 0x0A0A -> exponent 10, mantissa (2570 x 32 - 65536) >> 6 = 261 ->
///   0x2905.
#[test]
fn hand_block_rgb_direct() {
    let b = hand_block(0x042);
    let s = decode_block(&b, (4, 4), Mode::Srgb).unwrap();
    assert_eq!(s[0], Texel::Unorm8([10, 20, 30, 255]));
    assert_eq!(s[1], Texel::Unorm8([250, 240, 230, 255]));
    assert_eq!(s[2], Texel::Unorm8([89, 92, 96, 255]));
    let l = decode_block(&b, (4, 4), Mode::LinearLdr).unwrap();
    let Texel::Fp16(t2) = l[2] else {
        panic!("{:?}", l[2])
    };
    assert_eq!((t2[0], t2[3]), (0x3591, 0x3C00));
    let Texel::Fp16(t0) = l[0] else {
        panic!("{:?}", l[0])
    };
    assert_eq!(t0[0], 0x2905);
}

/// Illegal encodings: 1-bit weights (block mode 0x041: rho = 2) on the 4x4 grid need 16 bits,
/// fewer than 24; the same grid with the dual-plane bit (0x442) and 4 partitions; an 8-wide grid
/// (bits 3-2 = 01: W = b + 8) on a 4-wide footprint; block modes with bits 3-0 = 0000 are
/// reserved; a footprint the profiles do not have decodes nothing.
#[test]
fn illegal_blocks_are_the_error_colour() {
    let err = |b: [u8; 16], f| all(&decode_block(&b, f, Mode::LinearLdr).unwrap()) == Texel::Error;
    assert!(err(hand_block(0x041), (4, 4)));
    let mut b = u128::from_le_bytes(hand_block(0x442));
    b |= 3 << 11;
    assert!(err(b.to_le_bytes(), (4, 4)));
    assert!(err(hand_block(0x046), (4, 4)));
    assert!(err(hand_block(0x050), (4, 4)));
    assert!(decode_block(&hand_block(0x042), (7, 7), Mode::Srgb).is_none());
}

/// FNV-1a 64 of FP16 values as `tools/agx/astc_golden.cpp` hashes them.
fn fnv(values: &[u16]) -> u64 {
    let mut h = 0xcbf29ce484222325u64;
    for v in values {
        for byte in v.to_le_bytes() {
            h ^= u64::from(byte);
            h = h.wrapping_mul(0x100000001b3);
        }
    }
    h
}

/// ARM's astc-encoder decodes (`corpus/agx/astc/astcenc_golden.txt`, from
/// `tools/agx/astc_golden.sh`): 3,024 blocks over the 14 footprints in the three operation
/// modes, encoded by astcenc, bit-flipped and random. astcenc returns FP16 for every mode; for
/// sRGB it gives the top 8 bits t as the FP16 of the UNORM16 t x 257 (its `lerp_color_int`),
/// so the comparison maps our 8-bit results the same way, which loses nothing (t -> FP16 is
/// one-to-one). Its error colour is NaNs for an illegal block (flag E) and magenta from an HDR
/// partition outside HDR mode, both allowed by the spec's error colour table; an HDR void
/// extent holding Inf/NaN is undefined by the spec and skipped.
#[test]
fn matches_astcenc() {
    let golden = include_str!("../../../../../corpus/agx/astc/astcenc_golden.txt");
    let (mut checked, mut errors, mut skipped) = (0, 0, 0);
    for line in golden.lines() {
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 6, "{line}");
        let mode = match f[0] {
            "L" => Mode::LinearLdr,
            "S" => Mode::Srgb,
            _ => Mode::Hdr,
        };
        let (bw, bh): (u32, u32) = (f[1].parse().unwrap(), f[2].parse().unwrap());
        let block: [u8; 16] =
            std::array::from_fn(|i| u8::from_str_radix(&f[3][2 * i..2 * i + 2], 16).unwrap());
        let want = u64::from_str_radix(f[4], 16).unwrap();
        let texels = decode_block(&block, (bw, bh), mode).unwrap();
        if texels.contains(&Texel::Undefined) {
            skipped += 1;
            continue;
        }
        if f[5] == "E" {
            assert!(
                texels.iter().all(|t| *t == Texel::Error),
                "{line}: astcenc's error block, ours {texels:?}"
            );
            errors += 1;
            continue;
        }
        let values: Vec<u16> = texels
            .iter()
            .flat_map(|t| match *t {
                Texel::Fp16(v) => v,
                Texel::Unorm8(v) => v.map(|c| unorm16_to_fp16(u32::from(c) * 257)),
                _ => [0x3C00, 0, 0x3C00, 0x3C00],
            })
            .collect();
        assert_eq!(fnv(&values), want, "{line}: ours {texels:?}");
        checked += 1;
    }
    // 1,767 compared value by value, 1,252 illegal blocks, 5 HDR void extents with Inf/NaN
    assert_eq!((checked, errors, skipped), (1767, 1252, 5));
}
