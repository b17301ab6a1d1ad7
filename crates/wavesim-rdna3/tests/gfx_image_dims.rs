//! Depth-compare sampling, cube faces and texel offsets on hand-built images: T# and S# words
//! packed from the RDNA3 ISA guide's Table 50 and Table 51 (DEPTH_COMPARE_FUNC: S# word 0 bits
//! 14:12, Mesa's register description SQ_IMG_SAMP_WORD0), expected values from the rules written
//! in `exec::image::sample`'s documentation (the Vulkan specification's "Depth Compare
//! Operation" and "Cube Map Edge Handling"). Encodings from llvm-mc-19 -mcpu=gfx1100.

use wavesim_rdna3::testing::Harness;

// image_sample_c_lz v0, v[4:6], s[0:7], s[8:11] dmask:0x1 dim:2D (reference v4, s v5, t v6)
const SAMPLE_C_LZ: [u32; 2] = [0xf0900104, 0x08000004];
// the same with dmask:0xf
const SAMPLE_C_LZ_4: [u32; 2] = [0xf0900f04, 0x08000004];
// image_sample_lz v[0:3], v[4:6], s[0:7], s[8:11] dmask:0xf dim:CUBE (s v4, t v5, face v6)
const SAMPLE_LZ_CUBE: [u32; 2] = [0xf07c0f0c, 0x08000004];
// image_sample_lz_o v[0:3], v[3:5], s[0:7], s[8:11] dmask:0xf dim:2D (offsets v3, s v4, t v5)
const SAMPLE_LZ_O: [u32; 2] = [0xf0a40f04, 0x08000003];
// image_get_resinfo v[0:3], v4, s[0:7] dmask:0xf dim:CUBE
const RESINFO_CUBE: [u32; 2] = [0xf05c0f0c, 0x00000004];

fn put(d: &mut [u32], lo: u32, width: u32, v: u64) {
    for b in 0..width {
        let bit = lo + b;
        let (wi, sh) = ((bit / 32) as usize, bit % 32);
        d[wi] = (d[wi] & !(1 << sh)) | (((v >> b) & 1) as u32) << sh;
    }
}

/// A linear one-level image of `slices` slices (type `ty`: 9 2D, 11 cube) whose 4-byte texels
/// are `texels` (slices one after another, rows packed); rows are 256 bytes apart (addrlib's
/// linear pitch alignment) and slices `w` x `h` rows of them.
fn image(ty: u64, fmt: u64, (w, h, slices): (u32, u32, u32), texels: &[[u8; 4]]) -> Harness {
    let mut hs = Harness::new(false);
    let slice_bytes = 256 * h as u64;
    let base = hs.mem.alloc(slice_bytes * slices as u64, 256).unwrap();
    for (i, t) in texels.iter().enumerate() {
        let (x, y, s) = (i as u32 % w, i as u32 / w % h, i as u32 / (w * h));
        let at = base + s as u64 * slice_bytes + y as u64 * 256 + 4 * x as u64;
        hs.mem.write(at, t).unwrap();
    }
    let mut d = [0u32; 8];
    put(&mut d, 0, 40, base >> 8);
    put(&mut d, 52, 8, fmt);
    put(&mut d, 62, 14, (w - 1) as u64);
    put(&mut d, 78, 14, (h - 1) as u64);
    for (k, sel) in [4u64, 5, 6, 7].iter().enumerate() {
        put(&mut d, 96 + 3 * k as u32, 3, *sel);
    }
    put(&mut d, 124, 4, ty);
    put(&mut d, 128, 13, (slices - 1) as u64); // DEPTH: the last slice
    hs.wave.sgpr[..8].copy_from_slice(&d);
    hs
}

/// An S#: clamp to edge (2) on every axis, point or bilinear filtering, compare function `func`.
fn ssharp(bilinear: bool, func: u64) -> [u32; 4] {
    let mut d = [0u32; 4];
    put(&mut d, 0, 9, 2 | 2 << 3 | 2 << 6);
    put(&mut d, 12, 3, func);
    put(&mut d, 84, 2, bilinear as u64);
    put(&mut d, 86, 2, bilinear as u64);
    d
}

fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

#[test]
fn sample_c_compares_each_texel_with_the_reference() {
    // R32_FLOAT (22) 4x1: depths 0.25, 0.5, 0.75, 1.0. Lane l samples texel l % 4 (u at its
    // centre) against reference 0.5.
    let texels: Vec<[u8; 4]> = [0.25f32, 0.5, 0.75, 1.0]
        .iter()
        .map(|d| d.to_le_bytes())
        .collect();
    let mut h = image(9, 22, (4, 1, 1), &texels);
    h.set_v(4, |_| 0.5f32.to_bits());
    h.set_v(5, |l| (((l % 4) as f32 + 0.5) / 4.0).to_bits());
    h.set_v(6, |_| 0.5f32.to_bits());
    // Vulkan: pass when `reference OP texel`. LESS (1): 0.5 < d for d = 0.75, 1.0; LEQUAL (3):
    // also 0.5; GREATER (4): d = 0.25; NEVER (0) none, ALWAYS (7) all.
    for (func, want) in [
        (1u64, [0.0f32, 0.0, 1.0, 1.0]),
        (3, [0.0, 1.0, 1.0, 1.0]),
        (4, [1.0, 0.0, 0.0, 0.0]),
        (2, [0.0, 1.0, 0.0, 0.0]),
        (0, [0.0; 4]),
        (7, [1.0; 4]),
    ] {
        h.wave.sgpr[8..12].copy_from_slice(&ssharp(false, func));
        h.run(&SAMPLE_C_LZ).unwrap();
        let got: Vec<f32> = (0..4).map(|l| f(h.v(0, l))).collect();
        assert_eq!(got, want, "compare function {func}");
    }
    // Bilinear: the compare results are filtered. u = 0.5 (texel space 2.0 - 0.5 = 1.5): texels
    // 1 and 2 (0.5 and 0.75) at weights 0.5 each; reference 0.6 LESS: 0 and 1 -> 0.5.
    h.wave.sgpr[8..12].copy_from_slice(&ssharp(true, 1));
    h.set_v(4, |_| 0.6f32.to_bits());
    h.set_v(5, |_| 0.5f32.to_bits());
    h.run(&SAMPLE_C_LZ).unwrap();
    assert_eq!(f(h.v(0, 0)), 0.5);
    // A float format does not clamp the reference: 1.5 LEQUAL 1.0 fails.
    h.wave.sgpr[8..12].copy_from_slice(&ssharp(false, 3));
    h.set_v(4, |_| 1.5f32.to_bits());
    h.set_v(5, |_| 0.9f32.to_bits());
    h.run(&SAMPLE_C_LZ).unwrap();
    assert_eq!(f(h.v(0, 0)), 0.0);
    // The result is one value: DMASK 0xf is refused by name.
    let e = h.run(&SAMPLE_C_LZ_4).unwrap_err().to_string();
    assert!(e.contains("DMASK 0xf on a depth compare"), "{e}");
}

#[test]
fn sample_c_on_unorm_clamps_the_reference() {
    // RGBA8_UNORM (42) 1x1, R = 255 (1.0): reference 1.5 LEQUAL 1.0 passes once clamped to 1.0;
    // R = 0 and reference -0.5 GEQUAL (6): clamped to 0.0 >= 0.0 passes (unclamped it fails).
    let mut h = image(9, 42, (1, 1, 1), &[[255, 0, 0, 0]]);
    h.set_v(5, |_| 0.5f32.to_bits());
    h.set_v(6, |_| 0.5f32.to_bits());
    h.wave.sgpr[8..12].copy_from_slice(&ssharp(false, 3));
    h.set_v(4, |_| 1.5f32.to_bits());
    h.run(&SAMPLE_C_LZ).unwrap();
    assert_eq!(f(h.v(0, 0)), 1.0);
    let mut h = image(9, 42, (1, 1, 1), &[[0, 0, 0, 0]]);
    h.set_v(5, |_| 0.5f32.to_bits());
    h.set_v(6, |_| 0.5f32.to_bits());
    h.wave.sgpr[8..12].copy_from_slice(&ssharp(false, 6));
    h.set_v(4, |_| (-0.5f32).to_bits());
    h.run(&SAMPLE_C_LZ).unwrap();
    assert_eq!(f(h.v(0, 0)), 1.0);
}

#[test]
fn cube_sampling_reads_the_face_in_face_coordinates() {
    // A 2x2 cube (type 11, 6 faces): texel (x, y) of face k is (10k + 2y + x, 0, 0, 0).
    let texels: Vec<[u8; 4]> = (0..6u8)
        .flat_map(|k| (0..4u8).map(move |i| [10 * k + i, 0, 0, 0]))
        .collect();
    let mut h = image(11, 42, (2, 2, 6), &texels);
    h.wave.sgpr[8..12].copy_from_slice(&ssharp(false, 0));
    // Face coordinates s, t in [1, 2]: texel floor((s - 1) * 2). Lane l: face l % 6;
    // s = 1.25 (x 0) or 1.75 (x 1) by lane bit 3; t = 1.75 (y 1); lanes 16+ at s = t = 2.0,
    // the face's far edge: (2 - 1) * 2 = 2 clamps to texel 1.
    h.set_v(4, |l| {
        let s = if l >= 16 {
            2.0f32
        } else if l & 8 != 0 {
            1.75
        } else {
            1.25
        };
        s.to_bits()
    });
    h.set_v(5, |l| if l >= 16 { 2.0f32 } else { 1.75 }.to_bits());
    h.set_v(6, |l| ((l % 6) as f32).to_bits());
    h.run(&SAMPLE_LZ_CUBE).unwrap();
    for l in 0..32 {
        let x = if l >= 16 || l & 8 != 0 { 1 } else { 0 };
        let want = (10 * (l % 6) + 2 + x) as f32 / 255.0;
        assert_eq!(f(h.v(0, l)), want, "lane {l}");
    }
    // The second cube's faces would be 8 + face: this view has one cube, so 8 + 2 clamps to
    // cube 0, face 2.
    h.set_v(4, |_| 1.25f32.to_bits());
    h.set_v(5, |_| 1.25f32.to_bits());
    h.set_v(6, |_| 10.0f32.to_bits());
    h.run(&SAMPLE_LZ_CUBE).unwrap();
    assert_eq!(f(h.v(0, 0)), 20.0 / 255.0);
    // A bilinear footprint across the face's edge (s = 1.1: texel space 0.2 - 0.5 < 0) needs
    // the neighbouring face: refused by name.
    h.wave.sgpr[8..12].copy_from_slice(&ssharp(true, 0));
    h.set_v(4, |_| 1.1f32.to_bits());
    let e = h.run(&SAMPLE_LZ_CUBE).unwrap_err().to_string();
    assert!(e.contains("seamless cube filtering"), "{e}");
    // Inside the face it filters: s = t = 1.5 is the face's centre, all four texels at 1/4.
    h.set_v(4, |_| 1.5f32.to_bits());
    h.set_v(5, |_| 1.5f32.to_bits());
    h.set_v(6, |_| 1.0f32.to_bits());
    h.run(&SAMPLE_LZ_CUBE).unwrap();
    let mean = (10.0 + 11.0 + 12.0 + 13.0) / 4.0 / 255.0;
    assert!((f(h.v(0, 0)) - mean).abs() < 1e-6, "{}", f(h.v(0, 0)));
    // RESINFO: width, height, cubes (slices / 6), levels.
    h.set_v(4, |_| 0);
    h.run(&RESINFO_CUBE).unwrap();
    assert_eq!([h.v(0, 0), h.v(1, 0), h.v(2, 0), h.v(3, 0)], [2, 2, 1, 1]);
}

#[test]
fn sample_offsets_move_the_integer_texel() {
    // 4x4 RGBA8: texel (x, y) = (10y + x, ...). Point sampling at texel (1, 2) with offsets
    // (+1, -1) reads (2, 1); (-2, 0) reads (-1, 2), clamped to (0, 2). Offsets are signed 6-bit
    // fields: x bits 5:0, y bits 13:8.
    let texels: Vec<[u8; 4]> = (0..16u8).map(|i| [10 * (i / 4) + i % 4, 0, 0, 0]).collect();
    let mut h = image(9, 42, (4, 4, 1), &texels);
    h.wave.sgpr[8..12].copy_from_slice(&ssharp(false, 0));
    h.set_v(3, |l| if l == 0 { 0x3f01 } else { 0x003e });
    h.set_v(4, |_| (1.5f32 / 4.0).to_bits());
    h.set_v(5, |_| (2.5f32 / 4.0).to_bits());
    h.run(&SAMPLE_LZ_O).unwrap();
    assert_eq!(f(h.v(0, 0)), 12.0 / 255.0);
    assert_eq!(f(h.v(0, 1)), 20.0 / 255.0);
}
