//! Texel format conversions (exec/formats.rs), each expected value derived from the rule it
//! follows (GL 4.6 2.3.4-5, 8.5.2, 8.24; Vulkan's fixed-point conversions; the M1's measured
//! sRGB table), on the cmdbuf.xml `Channels` / `Type` values Mesa's `ail_pixel_format` uses.

use wavesim_agx::exec::formats::{Format, Value};
use wavesim_agx::exec::Fault;

const UNORM: u64 = 0;
const SNORM: u64 = 1;
const UINT: u64 = 2;
const SINT: u64 = 3;
const FLOAT: u64 = 4;

fn fmt(channels: u64, ty: u64) -> Format {
    Format::new(channels, ty, false).unwrap()
}

fn read(channels: u64, ty: u64, word: u128) -> [f64; 4] {
    let f = fmt(channels, ty);
    f.decode(&word.to_le_bytes()[..f.bytes() as usize]).unwrap()
}

fn write(channels: u64, ty: u64, v: [Value; 4]) -> Result<u128, Fault> {
    let b = fmt(channels, ty).encode(v)?;
    let mut w = [0u8; 16];
    w[..b.len()].copy_from_slice(&b);
    Ok(u128::from_le_bytes(w))
}

fn floats(v: [f32; 4]) -> [Value; 4] {
    v.map(Value::Float)
}

fn ints(v: [i64; 4]) -> [Value; 4] {
    v.map(Value::Int)
}

/// Bytes a texel: the sum of the channel widths over 8.
#[test]
fn texel_sizes() {
    for (ch, ty, bytes) in [
        (0x00, UNORM, 1),
        (0x09, FLOAT, 2),
        (0x0A, SINT, 2),
        (0x0B, UNORM, 2),
        (0x0C, UNORM, 2),
        (0x0E, UNORM, 2),
        (0x21, FLOAT, 4),
        (0x23, SNORM, 4),
        (0x25, FLOAT, 4),
        (0x26, UINT, 4),
        (0x27, FLOAT, 4),
        (0x28, UNORM, 4),
        (0x31, UINT, 8),
        (0x32, FLOAT, 8),
        (0x38, SINT, 16),
    ] {
        assert_eq!(fmt(ch, ty).bytes(), bytes, "channels {ch:#x}");
    }
}

/// UNORM: c / (2^b - 1). R5G6B5 word 31 | 32 << 5 | 1 << 11: (31/31, 32/63, 1/31, 1 (no alpha));
/// R4G4B4A4 0xF0A5: (5/15, 10/15, 0, 15/15); R5G5B5A1 0x8003: (3/31, 0, 0, 1); R16 0x8000:
/// 32768/65535 (G, B = 0, A = 1); R10G10B10A2 1023 | 512 << 20 | 2 << 30: (1, 0, 512/1023, 2/3).
#[test]
fn unorm_reads() {
    assert_eq!(
        read(0x0B, UNORM, 31 | 32 << 5 | 1 << 11),
        [1.0, 32.0 / 63.0, 1.0 / 31.0, 1.0]
    );
    assert_eq!(
        read(0x0C, UNORM, 0xF0A5),
        [5.0 / 15.0, 10.0 / 15.0, 0.0, 1.0]
    );
    assert_eq!(read(0x0E, UNORM, 0x8003), [3.0 / 31.0, 0.0, 0.0, 1.0]);
    assert_eq!(
        read(0x09, UNORM, 0x8000),
        [32768.0 / 65535.0, 0.0, 0.0, 1.0]
    );
    assert_eq!(
        read(0x26, UNORM, 1023 | 512 << 20 | 2 << 30),
        [1.0, 0.0, 512.0 / 1023.0, 2.0 / 3.0]
    );
}

/// SNORM: max(c / (2^(b-1) - 1), -1), c two's complement. R8G8B8A8 bytes 0x80, 0x81, 0x7F,
/// 0x40: -128/127 -> -1, -127/127 = -1, 1, 64/127. R16G16 0x8001, 0x4000: -1, 16384/32767.
#[test]
fn snorm_reads() {
    assert_eq!(
        read(0x28, SNORM, 0x40_7F_81_80),
        [-1.0, -1.0, 1.0, 64.0 / 127.0]
    );
    assert_eq!(
        read(0x23, SNORM, 0x4000_8001),
        [-1.0, 16384.0 / 32767.0, 0.0, 1.0]
    );
}

/// Integers: zero- or sign-extended. R8G8B8A8 bytes (255, 0x80, 1, 2): uint (255, 128, 1, 2),
/// sint (-1, -128, 1, 2). R10G10B10A2 sint: R = 0x3FF -> -1, A = 0b10 -> -2. R32G32B32A32 uint
/// 0xFFFFFFFF -> 4294967295 (exact in f64). A missing alpha is the integer 1.
#[test]
fn integer_reads() {
    assert_eq!(read(0x28, UINT, 0x02_01_80_FF), [255.0, 128.0, 1.0, 2.0]);
    assert_eq!(read(0x28, SINT, 0x02_01_80_FF), [-1.0, -128.0, 1.0, 2.0]);
    assert_eq!(read(0x26, SINT, 0x3FF | 2 << 30), [-1.0, 0.0, 0.0, -2.0]);
    assert_eq!(
        read(0x38, UINT, 0xFFFF_FFFF | 7 << 96),
        [4294967295.0, 0.0, 0.0, 7.0]
    );
    assert_eq!(read(0x21, SINT, 0xFFFF_FFFE), [-2.0, 0.0, 0.0, 1.0]);
}

/// Floats: f16 0x3C00 = 1, 0xC000 = -2; R11G11B10: 11-bit 1.0 = exponent 15 << 6 = 0x3C0,
/// 0.5 = 14 << 6 = 0x380, 10-bit 2.0 = 16 << 5 = 0x200, and the smallest 11-bit denormal 1 =
/// 2^-14 / 64 = 2^-20; R9G9B9E5 mantissas (256, 128, 0), E = 16: each times 2^(16 - 15 - 9) =
/// 2^-8 -> (1, 0.5, 0); R32G32 floats as they are.
#[test]
fn float_reads() {
    assert_eq!(read(0x23, FLOAT, 0xC000_3C00), [1.0, -2.0, 0.0, 1.0]);
    assert_eq!(
        read(0x25, FLOAT, 0x3C0 | 0x380 << 11 | 0x200 << 22),
        [1.0, 0.5, 2.0, 1.0]
    );
    assert_eq!(read(0x25, FLOAT, 1), [2f64.powi(-20), 0.0, 0.0, 1.0]);
    assert_eq!(
        read(0x27, FLOAT, 256 | 128 << 9 | 16 << 27),
        [1.0, 0.5, 0.0, 1.0]
    );
    let word = u128::from(1.5f32.to_bits()) | u128::from((-0.25f32).to_bits()) << 32;
    assert_eq!(read(0x31, FLOAT, word), [1.5, -0.25, 0.0, 1.0]);
    // a NaN texel is a typed error
    let f = fmt(0x21, FLOAT);
    assert!(f.decode(&f32::NAN.to_le_bytes()).is_err());
}

/// sRGB R8G8B8A8: R, G, B through the M1's measured table (applegpu: code 0 -> 0, code 1 ->
/// f64 bits 0x3f30010020000000, code 255 -> 1), alpha linear (128/255).
#[test]
fn srgb_reads() {
    let f = Format::new(0x28, UNORM, true).unwrap();
    let got = f.decode(&[0, 1, 255, 128]).unwrap();
    assert_eq!(
        got,
        [0.0, f64::from_bits(0x3f30010020000000), 1.0, 128.0 / 255.0]
    );
}

/// Formats Mesa never builds are typed errors: BC1 snorm (0x74; ail pairs BC1 with unorm only),
/// EAC R11 uint (0x5B; ail pairs EAC with unorm and snorm), ASTC 4x4 snorm (0x60; ail pairs ASTC
/// with unorm only), R5G6B5 snorm, R32 unorm, sRGB R16,
/// type 5 (XR), Mesa's software R32G32B32 (0x36), A1R5G5B5 (0x0D, unused by Mesa).
#[test]
fn unmodelled_formats_are_errors() {
    for (ch, ty, srgb) in [
        (0x74, SNORM, false),
        (0x5B, UINT, false),
        (0x60, SNORM, false),
        (0x0B, SNORM, false),
        (0x21, UNORM, false),
        (0x09, UNORM, true),
        (0x28, 5, false),
        (0x36, FLOAT, false),
        (0x0D, UNORM, false),
    ] {
        assert!(
            matches!(
                Format::new(ch, ty, srgb),
                Err(Fault::UnsupportedForm { .. })
            ),
            "channels {ch:#x} type {ty} srgb {srgb}"
        );
    }
}

/// UNORM stores: round(clamp(v, 0, 1) (2^b - 1)). RGBA8 (0.5, 1/3, 1.5, -1): 127.5 -> 128 (the
/// one tie: ties to even), 85, 255, 0. R5G6B5 (1, 0.5, 0.1): 31, 31.5 -> 32, 3.1 -> 3. NaN -> 0.
/// R10G10B10A2 (0.25, 1, 0, 0.6): 255.75 -> 256, 1023, 0, 1.8 -> 2.
#[test]
fn unorm_stores() {
    assert_eq!(
        write(0x28, UNORM, floats([0.5, 1.0 / 3.0, 1.5, -1.0])).unwrap(),
        0x00_FF_55_80
    );
    assert_eq!(
        write(0x0B, UNORM, floats([1.0, 0.5, 0.1, 0.0])).unwrap(),
        31 | 32 << 5 | 3 << 11
    );
    assert_eq!(
        write(0x00, UNORM, floats([f32::NAN, 0.0, 0.0, 0.0])).unwrap(),
        0
    );
    assert_eq!(
        write(0x26, UNORM, floats([0.25, 1.0, 0.0, 0.6])).unwrap(),
        256 | 1023 << 10 | 2 << 30
    );
}

/// SNORM stores: round(clamp(v, -1, 1) (2^(b-1) - 1)) in two's complement. R8G8B8A8 (-1, 0.5,
/// -0.5, 2): -127 = 0x81, 63.5 -> 64 = 0x40, -63.5 -> -64 = 0xC0, 127 = 0x7F. R16: -0.25 ->
/// -8191.75 -> -8192 = 0xE000.
#[test]
fn snorm_stores() {
    assert_eq!(
        write(0x28, SNORM, floats([-1.0, 0.5, -0.5, 2.0])).unwrap(),
        0x7F_C0_40_81
    );
    assert_eq!(
        write(0x09, SNORM, floats([-0.25, 0.0, 0.0, 0.0])).unwrap(),
        0xE000
    );
}

/// Integer stores: the value when it fits the channel (R8G8B8A8 uint 255, 0, 7, 128; sint -1 ->
/// 0xFF, -128 -> 0x80, 127, 0; R10G10B10A2 uint A = 3), else a typed error (256 into 8 bits,
/// -129 into a signed 8-bit channel, -1 into uint, 4 into a 2-bit channel).
#[test]
fn integer_stores() {
    assert_eq!(
        write(0x28, UINT, ints([255, 0, 7, 128])).unwrap(),
        0x80_07_00_FF
    );
    assert_eq!(
        write(0x28, SINT, ints([-1, -128, 127, 0])).unwrap(),
        0x00_7F_80_FF
    );
    assert_eq!(write(0x26, UINT, ints([0, 0, 0, 3])).unwrap(), 3 << 30);
    assert_eq!(write(0x38, SINT, ints([-1, 0, 0, 0])).unwrap(), 0xFFFF_FFFF);
    for (ch, ty, v) in [
        (0x28, UINT, [256, 0, 0, 0]),
        (0x28, SINT, [-129, 0, 0, 0]),
        (0x28, UINT, [-1, 0, 0, 0]),
        (0x26, UINT, [0, 0, 0, 4]),
    ] {
        assert!(write(ch, ty, ints(v)).is_err(), "{v:?}");
    }
}

/// Float stores, round to nearest even: f16 of 1/3 = 0x3555 (0.333251953125, the nearer of it
/// and 0x3556); f32 as it is. R11G11B10: 1.0 -> 0x3C0; -5 -> 0 (negative to zero); 70000 ->
/// the largest finite 11-bit float 30 << 6 | 63 = 0x7BF (65024); +inf -> 0x7C0; 10-bit 1/3:
/// binade 2^-2, quantum 2^-7, 42.67 -> 43 = 1.34375 * 32: exponent 13, mantissa 11 -> 13 << 5
/// | 11 = 427. R9G9B9E5 (1, 0.5, 0) by GL 8.5.2: max 1 -> exp_shared = 0 + 1 + 15 = 16,
/// max_s = floor(256.5) = 256 < 512 -> mantissas 256, 128, 0, E 16. NaN into f16 is an error.
#[test]
fn float_stores() {
    assert_eq!(
        write(0x09, FLOAT, floats([1.0 / 3.0, 0.0, 0.0, 0.0])).unwrap(),
        0x3555
    );
    assert_eq!(
        write(0x21, FLOAT, floats([-0.1, 0.0, 0.0, 0.0])).unwrap(),
        u128::from((-0.1f32).to_bits())
    );
    assert_eq!(
        write(0x25, FLOAT, floats([1.0, -5.0, 1.0 / 3.0, 0.0])).unwrap(),
        0x3C0 | 427 << 22
    );
    assert_eq!(
        write(0x25, FLOAT, floats([70000.0, f32::INFINITY, 0.0, 0.0])).unwrap(),
        0x7BF | 0x7C0 << 11
    );
    assert_eq!(
        write(0x27, FLOAT, floats([1.0, 0.5, 0.0, 0.0])).unwrap(),
        256 | 128 << 9 | 16 << 27
    );
    assert!(write(0x09, FLOAT, floats([f32::NAN, 0.0, 0.0, 0.0])).is_err());
}

/// Round trips through the store and read rules: every 8-bit UNORM code c stores back as c
/// (c / 255 rounded to f32 is within half a step of c / 255), and every R5G6B5 word too.
#[test]
fn unorm_round_trips() {
    let rgba8 = fmt(0x28, UNORM);
    for c in 0..=255u8 {
        let v = rgba8.decode(&[c, 0, 0, 0]).unwrap()[0] as f32;
        let b = rgba8.encode(floats([v, 0.0, 0.0, 0.0])).unwrap();
        assert_eq!(b[0], c);
    }
    let r565 = fmt(0x0B, UNORM);
    for word in 0..=u16::MAX {
        let v = r565.decode(&word.to_le_bytes()).unwrap().map(|x| x as f32);
        let b = r565.encode(floats(v)).unwrap();
        assert_eq!(u16::from_le_bytes([b[0], b[1]]), word);
    }
}

/// sRGB stores are typed errors (the hardware's linear-to-sRGB rounding is not public).
#[test]
fn srgb_store_is_an_error() {
    let f = Format::new(0x28, UNORM, true).unwrap();
    assert!(matches!(
        f.encode(floats([0.5; 4])),
        Err(Fault::UnsupportedForm { .. })
    ));
}
