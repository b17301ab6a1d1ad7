//! MIMG on hand-built images: T# and S# words packed here from the RDNA3 ISA guide's Table 50
//! ("Image Resource Definition") and Table 51 ("Image Sampler Definition"); expected texels from
//! the format rules (10.4.1, 10.7), the DMASK/dst_sel rules (10.4), and the filtering rules written
//! in `exec::image::sample`'s documentation. Encodings from llvm-mc-19 -mcpu=gfx1100.

use wavesim_rdna3::testing::Harness;

const LOAD_2D: [u32; 2] = [0xf0000f84, 0x00000004]; // image_load v[0:3], v[4:5], s[0:7] dmask:0xf dim:2D unorm
const LOAD_2D_R: [u32; 2] = [0xf0000184, 0x00000004]; // image_load v0, v[4:5], s[0:7] dmask:0x1
const LOAD_MIP: [u32; 2] = [0xf0040f84, 0x00000004]; // image_load_mip v[0:3], v[4:6], s[0:7] dmask:0xf
const STORE_2D: [u32; 2] = [0xf0180f84, 0x00000004]; // image_store v[0:3], v[4:5], s[0:7] dmask:0xf
const STORE_MIP: [u32; 2] = [0xf01c0f84, 0x00000004]; // image_store_mip v[0:3], v[4:6], s[0:7] dmask:0xf
const RESINFO: [u32; 2] = [0xf05c0f84, 0x00000004]; // image_get_resinfo v[0:3], v4, s[0:7] dmask:0xf
const ATOMIC_ADD: [u32; 2] = [0xf0304184, 0x00000004]; // image_atomic_add v0, v[4:5], s[0:7] dmask:0x1 glc
const ATOMIC_CMPSWAP: [u32; 2] = [0xf02c4384, 0x00000004]; // image_atomic_cmpswap v[0:1], v[4:5] dmask:0x3 glc
const SAMPLE: [u32; 2] = [0xf06c0f04, 0x08000004]; // image_sample v[0:3], v[4:5], s[0:7], s[8:11] dmask:0xf
const SAMPLE_LZ: [u32; 2] = [0xf07c0f04, 0x08000004]; // image_sample_lz v[0:3], v[4:5], s[0:7], s[8:11]
const SAMPLE_L: [u32; 2] = [0xf0740f04, 0x08000004]; // image_sample_l v[0:3], v[4:6], s[0:7], s[8:11]
const SAMPLE_B: [u32; 2] = [0xf0780f04, 0x08000003]; // image_sample_b v[0:3], v[3:5], s[0:7], s[8:11]
const SAMPLE_D: [u32; 2] = [0xf0700f04, 0x08000004]; // image_sample_d v[0:3], v[4:9], s[0:7], s[8:11] dmask:0xf
const GATHER4_LZ_R: [u32; 2] = [0xf0c80104, 0x08000004]; // image_gather4_lz v[0:3], v[4:5], s[0:7], s[8:11] dmask:0x1
const GATHER4_LZ_B: [u32; 2] = [0xf0c80404, 0x08000004]; // image_gather4_lz v[0:3], v[4:5], s[0:7], s[8:11] dmask:0x4
const GATHER4_LZ_O: [u32; 2] = [0xf0d80104, 0x08000003]; // image_gather4_lz_o v[0:3], v[3:5], s[0:7], s[8:11] dmask:0x1
const LOAD_D16: [u32; 2] = [0xf0020f84, 0x00000004]; // image_load v[0:1], v[4:5], s[0:7] dmask:0xf d16

/// Sets `width` bits at `lo` of a little-endian bit vector of dwords.
fn put(d: &mut [u32], lo: u32, width: u32, v: u64) {
    for b in 0..width {
        let bit = lo + b;
        let (wi, sh) = ((bit / 32) as usize, bit % 32);
        d[wi] = (d[wi] & !(1 << sh)) | (((v >> b) & 1) as u32) << sh;
    }
}

/// A 256-bit T# for a 2D image (Table 50): identity dst_sel (R, G, B, A = 4, 5, 6, 7).
fn tsharp(base: u64, fmt: u32, w: u32, h: u32, levels: u32) -> [u32; 8] {
    let mut d = [0u32; 8];
    put(&mut d, 0, 40, base >> 8);
    put(&mut d, 48, 4, (levels - 1) as u64);
    put(&mut d, 52, 8, fmt as u64);
    put(&mut d, 62, 14, (w - 1) as u64);
    put(&mut d, 78, 14, (h - 1) as u64);
    for (k, sel) in [4u64, 5, 6, 7].iter().enumerate() {
        put(&mut d, 96 + 3 * k as u32, 3, *sel);
    }
    put(&mut d, 108, 4, 0);
    put(&mut d, 112, 4, (levels - 1) as u64);
    put(&mut d, 124, 4, 9); // 2D
    d
}

/// An S# (Table 51): clamp modes, filters, mip filter, max LOD.
fn ssharp(clamp: u32, bilinear: bool, mip_filter: u32, max_lod: f32) -> [u32; 4] {
    let mut d = [0u32; 4];
    put(&mut d, 0, 3, clamp as u64);
    put(&mut d, 3, 3, clamp as u64);
    put(&mut d, 44, 12, (max_lod * 256.0) as u64);
    put(&mut d, 84, 2, bilinear as u64);
    put(&mut d, 86, 2, bilinear as u64);
    put(&mut d, 90, 2, mip_filter as u64);
    d
}

struct Img {
    h: Harness,
    base: u64,
}

/// (byte offset, row pitch in bytes) of each mip level of a linear `w` x `h` image of
/// `bpp`-byte texels with `levels` levels, level 0 first, and the image's bytes: addrlib's gfx11
/// linear layout (Mesa's `Gfx11Lib::HwlComputeSurfaceInfoLinear`): level m reserves
/// ceil(w / 2^m) x ceil(h / 2^m) texels, rows padded to 256 bytes, and the smallest level comes
/// first. E.g. a 3-level 4x4 RGBA8 image: level 2 (1 row) at 0, level 1 (2 rows) at 256, level
/// 0 (4 rows) at 768, 1792 bytes.
fn linear_levels(w: u32, h: u32, levels: u32, bpp: u64) -> (Vec<(u64, u64)>, u64) {
    let mut out = vec![(0, 0); levels as usize];
    let mut at = 0;
    for m in (0..levels).rev() {
        let (mw, mh) = (w.div_ceil(1 << m) as u64, h.div_ceil(1 << m) as u64);
        let pitch = (mw * bpp).div_ceil(256) * 256;
        out[m as usize] = (at, pitch);
        at += pitch * mh;
    }
    (out, at)
}

fn texel_bytes(fmt: u32) -> u64 {
    match fmt {
        20 | 22 | 42 => 4, // R32_UINT, R32_FLOAT, RGBA8_UNORM
        63 => 16,          // RGBA32_FLOAT
        _ => panic!("format {fmt}"),
    }
}

/// An image whose `bytes` hold its levels one after another, level 0 first, rows packed; placed
/// in memory in the linear layout (`linear_levels`).
fn setup(w64: bool, fmt: u32, w: u32, hgt: u32, levels: u32, bytes: &[u8]) -> Img {
    let mut h = Harness::new(w64);
    let bpp = texel_bytes(fmt);
    let (offsets, total) = linear_levels(w, hgt, levels, bpp);
    let base = h.mem.alloc(total + 4096, 256).unwrap();
    let mut at = 0usize;
    for (m, (off, pitch)) in offsets.into_iter().enumerate() {
        let (mw, mh) = ((w >> m).max(1) as u64, (hgt >> m).max(1) as u64);
        for y in 0..mh {
            let row = (mw * bpp) as usize;
            if at + row <= bytes.len() {
                h.mem
                    .write(base + off + y * pitch, &bytes[at..at + row])
                    .unwrap();
            }
            at += row;
        }
    }
    let t = tsharp(base, fmt, w, hgt, levels);
    h.wave.sgpr[..8].copy_from_slice(&t);
    Img { h, base }
}

fn f(x: u32) -> f32 {
    f32::from_bits(x)
}

fn lanes(w64: bool) -> usize {
    if w64 {
        64
    } else {
        32
    }
}

#[test]
fn load_rgba8_unorm_components_dmask_and_bounds() {
    // 10.4.1: UNORM data reads as float b / 255; DMASK picks components; out-of-range texels
    // read zero.
    for w64 in [false, true] {
        let texels: Vec<u8> = (0..4 * 4 * 3).map(|i| (i * 5) as u8).collect();
        let mut im = setup(w64, 42, 4, 3, 1, &texels);
        im.h.set_v(4, |l| (l % 5) as u32); // x 0..4 (4 is out of range)
        im.h.set_v(5, |l| (l / 5 % 4) as u32); // y 0..3 (3 is out of range)
        im.h.run(&LOAD_2D).unwrap();
        for l in 0..lanes(w64) {
            let (x, y) = (l % 5, l / 5 % 4);
            for c in 0..4 {
                let want = if x < 4 && y < 3 {
                    texels[(y * 4 + x) * 4 + c] as f32 / 255.0
                } else {
                    0.0
                };
                assert_eq!(f(im.h.v(c, l)), want, "lane {l} comp {c}");
            }
        }
        im.h.set_v(1, |_| 0x1234);
        im.h.run(&LOAD_2D_R).unwrap();
        assert_eq!(f(im.h.v(0, 1)), texels[4] as f32 / 255.0);
        assert_eq!(im.h.v(1, 1), 0x1234, "dmask 0x1 writes one VGPR");
    }
}

#[test]
fn dst_sel_swizzles_and_constants() {
    // Table 50: dst_sel 0 = 0, 1 = 1, 4..7 = R, G, B, A.
    let mut im = setup(false, 42, 1, 1, 1, &[10, 20, 30, 40]);
    put(&mut im.h.wave.sgpr[..8], 96, 12, 6 | 4 << 3 | 1 << 6); // x = B, y = R, z = 1, w = 0
    im.h.set_v(4, |_| 0);
    im.h.set_v(5, |_| 0);
    im.h.run(&LOAD_2D).unwrap();
    assert_eq!(
        [
            f(im.h.v(0, 0)),
            f(im.h.v(1, 0)),
            f(im.h.v(2, 0)),
            f(im.h.v(3, 0))
        ],
        [30.0 / 255.0, 10.0 / 255.0, 1.0, 0.0]
    );
}

#[test]
fn store_then_load_rgba32f_and_rgba8_rounding() {
    for w64 in [false, true] {
        let mut im = setup(w64, 63, 8, 8, 1, &[0; 8 * 8 * 16]);
        im.h.set_v(4, |l| (l % 8) as u32);
        im.h.set_v(5, |l| (l / 8) as u32);
        for c in 0..4 {
            im.h.set_v(c, move |l| (l as f32 * 0.25 + c as f32).to_bits());
        }
        im.h.run(&STORE_2D).unwrap();
        for c in 0..4 {
            im.h.set_v(c, |_| 0);
        }
        im.h.run(&LOAD_2D).unwrap();
        for l in 0..lanes(w64) {
            for c in 0..4 {
                assert_eq!(f(im.h.v(c, l)), l as f32 * 0.25 + c as f32);
            }
        }
        // Raw memory: texel (1, 0) is RGBA f32 little-endian.
        let mut b = [0u8; 4];
        im.h.mem.read(im.base + 16, &mut b).unwrap();
        assert_eq!(f32::from_le_bytes(b), 0.25);
    }
    // UNORM8 store: round-to-nearest-even(clamp(x) * 255): 0.5 -> 127.5 -> 128; -1 -> 0; 2 -> 255;
    // NaN -> 0.
    let mut im = setup(false, 42, 1, 1, 1, &[0; 4]);
    im.h.set_v(4, |_| 0);
    im.h.set_v(5, |_| 0);
    im.h.wave.set_exec(1);
    for (c, v) in [0.5f32, -1.0, 2.0, f32::NAN].iter().enumerate() {
        im.h.set_v(c, |_| v.to_bits());
    }
    im.h.run(&STORE_2D).unwrap();
    let mut b = [0u8; 4];
    im.h.mem.read(im.base, &mut b).unwrap();
    assert_eq!(b, [128, 0, 255, 0]);
}

#[test]
fn mip_levels_load_store_and_resinfo() {
    // The bytes given: level 1 (2x2 of a 4x4 RGBA8 image) after level 0's 64 bytes (`setup`
    // places them in the linear layout).
    let mut bytes = vec![0u8; 64 + 16 + 4];
    for t in 0..4 {
        bytes[64 + 4 * t] = 100 + t as u8;
    }
    let mut im = setup(false, 42, 4, 4, 3, &bytes);
    im.h.set_v(4, |l| (l % 2) as u32);
    im.h.set_v(5, |l| (l / 2 % 2) as u32);
    im.h.set_v(6, |_| 1);
    im.h.run(&LOAD_MIP).unwrap();
    for l in 0..4 {
        assert_eq!(f(im.h.v(0, l)), (100 + l) as f32 / 255.0);
    }
    // Mip 3 does not exist in a 3-level view: zeros.
    im.h.set_v(6, |_| 3);
    im.h.run(&LOAD_MIP).unwrap();
    assert_eq!(im.h.v(0, 0), 0);
    // Store to level 2 (1x1, the smallest level, first in the layout: byte 0; linear_levels).
    im.h.set_v(6, |_| 2);
    im.h.set_v(4, |_| 0);
    im.h.set_v(5, |_| 0);
    im.h.wave.set_exec(1);
    for c in 0..4 {
        im.h.set_v(c, |_| 1f32.to_bits());
    }
    im.h.run(&STORE_MIP).unwrap();
    let mut b = [0u8; 4];
    im.h.mem.read(im.base, &mut b).unwrap();
    assert_eq!(b, [255; 4]);
    // resinfo of mip 1: width 2, height 2, depth 1, 3 levels.
    im.h.set_v(4, |_| 1);
    im.h.run(&RESINFO).unwrap();
    assert_eq!(
        [im.h.v(0, 0), im.h.v(1, 0), im.h.v(2, 0), im.h.v(3, 0)],
        [2, 2, 1, 3]
    );
}

#[test]
fn atomics_on_r32_uint() {
    for w64 in [false, true] {
        let mut im = setup(w64, 20, 4, 1, 1, &[0; 16]);
        im.h.set_v(4, |l| (l % 4) as u32);
        im.h.set_v(5, |_| 0);
        im.h.set_v(0, |l| l as u32);
        im.h.run(&ATOMIC_ADD).unwrap();
        // Each texel received the sum of the lanes l with l % 4 == x.
        for x in 0..4 {
            let mut b = [0u8; 4];
            im.h.mem.read(im.base + 4 * x as u64, &mut b).unwrap();
            let want: u32 = (0..lanes(w64))
                .filter(|l| l % 4 == x)
                .map(|l| l as u32)
                .sum();
            assert_eq!(u32::from_le_bytes(b), want);
        }
        // GLC returns a pre-op value: lane 0's is 0 when lane 0 went first (lane order).
        assert_eq!(im.h.v(0, 0), 0);
        // cmpswap: data in v0, compare value in v1 (DMASK 0x3).
        let mut im = setup(w64, 20, 1, 1, 1, &7u32.to_le_bytes());
        im.h.wave.set_exec(1);
        im.h.set_v(4, |_| 0);
        im.h.set_v(5, |_| 0);
        im.h.set_v(0, |_| 99);
        im.h.set_v(1, |_| 7);
        im.h.run(&ATOMIC_CMPSWAP).unwrap();
        let mut b = [0u8; 4];
        im.h.mem.read(im.base, &mut b).unwrap();
        assert_eq!((u32::from_le_bytes(b), im.h.v(0, 0)), (99, 7));
    }
}

#[test]
fn unbound_resource_reads_zero() {
    // Table 50: an all-zero T# is unbound: zeros, no memory access.
    let mut h = Harness::new(false);
    h.set_v(0, |_| 5);
    h.set_v(4, |_| 1000);
    h.run(&LOAD_2D).unwrap();
    assert_eq!(h.v(0, 3), 0);
    h.run(&STORE_2D).unwrap();
}

#[test]
fn d16_load_packs_halves() {
    // 10.4: D16 loads convert to 16 bits, two components per VGPR, low half first.
    let mut im = setup(false, 42, 1, 1, 1, &[0, 51, 255, 102]);
    im.h.set_v(4, |_| 0);
    im.h.set_v(5, |_| 0);
    im.h.run(&LOAD_D16).unwrap();
    let h16 = |x: f32| half::f16::from_f32(x).to_bits() as u32;
    assert_eq!(im.h.v(0, 0), h16(0.0) | h16(51.0 / 255.0) << 16);
    assert_eq!(im.h.v(1, 0), h16(1.0) | h16(102.0 / 255.0) << 16);
}

/// A 4x4 R32_FLOAT image with texel (x, y) = x + 10 y.
fn r32f_image(w64: bool, levels: u32) -> Img {
    let mut bytes = Vec::new();
    for y in 0..4 {
        for x in 0..4 {
            bytes.extend_from_slice(&((x + 10 * y) as f32).to_le_bytes());
        }
    }
    for t in 0..4 {
        bytes.extend_from_slice(&(100.0 + t as f32).to_le_bytes()); // level 1, 2x2
    }
    let mut im = setup(w64, 22, 4, 4, levels, &bytes);
    let s = ssharp(0, false, 0, 15.0);
    im.h.wave.sgpr[8..12].copy_from_slice(&s);
    im
}

#[test]
fn sample_point_and_bilinear_with_wrap_and_clamp() {
    // Point: texel floor(u * width); bilinear: texel space u - 0.5 and the four neighbours.
    let mut im = r32f_image(false, 1);
    im.h.set_v(4, |_| 0.30f32.to_bits()); // u = 1.2 -> texel 1
    im.h.set_v(5, |_| 0.60f32.to_bits()); // v = 2.4 -> texel 2
    im.h.run(&SAMPLE_LZ).unwrap();
    assert_eq!(f(im.h.v(0, 0)), 21.0);
    // G, B missing in R32: 0; A: 1 (canonical RGBA).
    assert_eq!((f(im.h.v(1, 0)), f(im.h.v(3, 0))), (0.0, 1.0));
    // Bilinear at u = 1.2, v = 2.4: x0 = 0 (a = 0.7), y0 = 1 (b = 0.9).
    im.h.wave.sgpr[8..12].copy_from_slice(&ssharp(2, true, 0, 15.0));
    im.h.run(&SAMPLE_LZ).unwrap();
    let (u, v) = (0.30f32 * 4.0 - 0.5, 0.60f32 * 4.0 - 0.5);
    let (a, b) = (u - u.floor(), v - v.floor());
    let t = |x: f32, y: f32| x + 10.0 * y;
    let top = t(0.0, 1.0) * (1.0 - a) + t(1.0, 1.0) * a;
    let bot = t(0.0, 2.0) * (1.0 - a) + t(1.0, 2.0) * a;
    assert_eq!(f(im.h.v(0, 0)), top * (1.0 - b) + bot * b);
    // Wrap: u = -0.1 -> -0.4 texels -> texel 3 (wrap) vs 0 (clamp), point sampling.
    for (mode, want) in [(0u32, 3.0f32), (1, 0.0), (2, 0.0)] {
        im.h.wave.sgpr[8..12].copy_from_slice(&ssharp(mode, false, 0, 15.0));
        im.h.set_v(4, |_| (-0.1f32).to_bits());
        im.h.set_v(5, |_| 0.1f32.to_bits());
        im.h.run(&SAMPLE_LZ).unwrap();
        assert_eq!(f(im.h.v(0, 0)), want, "clamp mode {mode}");
    }
    // ClampBorder (6) with the default transparent-black border.
    im.h.wave.sgpr[8..12].copy_from_slice(&ssharp(6, false, 0, 15.0));
    im.h.run(&SAMPLE_LZ).unwrap();
    assert_eq!(f(im.h.v(3, 0)), 0.0);
}

#[test]
fn point_sampling_ties_at_a_texel_boundary_follow_the_last_ulp() {
    // Point sampling takes texel floor(s * width) (Vulkan "Texel Selection": i = floor(u)), so a
    // coordinate one ULP below k / width selects texel k - 1 and k / width itself texel k. The
    // RADV shader-db pipelines tesseract_315, tesseract_330 and nexuiz_115
    // (corpus/radv/shader-db/known.txt) differ from lavapipe at such coordinates: wavesim's
    // interpolated s is 0.49999997 (0.5 - 2^-25) where lavapipe's lies on the other side.
    // R32F 4x4, texel (x, y) = x + 10y; t = 0.1 is row 0.
    let mut im = r32f_image(false, 1);
    let below = f32::from_bits(0.5f32.to_bits() - 1); // 0.5 - 2^-25: u = 2 - 2^-23, exact
    assert_eq!(below, 0.5 - 2f32.powi(-25));
    for (s, want) in [(0.5f32, 2.0f32), (below, 1.0)] {
        im.h.set_v(4, |_| s.to_bits());
        im.h.set_v(5, |_| 0.1f32.to_bits());
        im.h.run(&SAMPLE_LZ).unwrap();
        assert_eq!(f(im.h.v(0, 0)), want, "s = {s:e}");
    }
}

#[test]
fn sample_lod_selects_mips() {
    // SAMPLE_L with mip filter point: LOD 1 reads level 1 (2x2), LOD 0.4 level 0.
    let mut im = r32f_image(false, 2);
    im.h.wave.sgpr[8..12].copy_from_slice(&ssharp(2, false, 1, 15.0));
    im.h.set_v(4, |_| 0.75f32.to_bits());
    im.h.set_v(5, |_| 0.25f32.to_bits());
    im.h.set_v(6, |_| 1.0f32.to_bits());
    im.h.run(&SAMPLE_L).unwrap();
    assert_eq!(f(im.h.v(0, 0)), 101.0); // level 1 texel (1, 0)
    im.h.set_v(6, |_| 0.4f32.to_bits());
    im.h.run(&SAMPLE_L).unwrap();
    assert_eq!(f(im.h.v(0, 0)), 13.0); // level 0 texel (3, 1)
}

#[test]
fn implicit_lod_from_quad_derivatives() {
    // SAMPLE in a quad whose lanes step 2 texels in x and y: rho = 2, LOD = 1 -> level 1.
    // With SAMPLE_B and bias -1 the LOD is 0 -> level 0.
    for w64 in [false, true] {
        let mut im = r32f_image(w64, 2);
        im.h.wave.sgpr[8..12].copy_from_slice(&ssharp(2, false, 1, 15.0));
        im.h.set_v(4, |l| ((l & 1) as f32 * 0.5 + 0.0625).to_bits());
        im.h.set_v(5, |l| ((l >> 1 & 1) as f32 * 0.5 + 0.0625).to_bits());
        im.h.run(&SAMPLE).unwrap();
        for l in 0..lanes(w64) {
            let (x, y) = (l & 1, l >> 1 & 1);
            assert_eq!(f(im.h.v(0, l)), 100.0 + (x + 2 * y) as f32, "lane {l}");
        }
        // SAMPLE_B: bias in v3, coordinates in v4, v5.
        im.h.set_v(3, |_| (-1.0f32).to_bits());
        im.h.run(&SAMPLE_B).unwrap();
        for l in 0..4 {
            let (x, y) = (2 * (l & 1), 2 * (l >> 1 & 1));
            assert_eq!(f(im.h.v(0, l)), (x + 10 * y) as f32, "lane {l}");
        }
    }
}

#[test]
fn linear_rows_are_256_bytes_apart_and_a_custom_pitch_overrides() {
    // A 20x3 R32_UINT image: 80-byte rows, laid out 256 bytes apart (addrlib's gfx11 linear
    // pitch: 20 texels rounded up to 256 / 4 = 64). Texel (x, y) is at 256 y + 4 x.
    let mut im = setup(false, 20, 20, 3, 1, &[0; 20 * 3 * 4]);
    im.h.mem
        .write(im.base + 256 + 4 * 3, &7u32.to_le_bytes())
        .unwrap();
    im.h.mem.write(im.base + 80, &9u32.to_le_bytes()).unwrap(); // padding of row 0
    im.h.set_v(4, |l| [3, 20][l % 2]); // x = 20 is out of range
    im.h.set_v(5, |_| 1);
    im.h.run(&LOAD_2D_R).unwrap();
    assert_eq!((im.h.v(0, 0), im.h.v(0, 1)), (7, 0));
    // Store to (2, 2): byte 512 + 8.
    im.h.wave.set_exec(1);
    im.h.set_v(0, |_| 0xabcd);
    im.h.set_v(4, |_| 2);
    im.h.set_v(5, |_| 2);
    im.h.run(&STORE_2D).unwrap();
    let mut b = [0u8; 4];
    im.h.mem.read(im.base + 512 + 8, &mut b).unwrap();
    assert_eq!(u32::from_le_bytes(b), 0xabcd);
    // A custom pitch of 128 texels (512 bytes): DEPTH (word 4 bits 12:0) = 127, which is larger
    // than the width, so texel (3, 1) is at 512 + 12 (gfx11-rsrc.json PITCH_MSB: "the pitch if
    // pitch > width").
    put(&mut im.h.wave.sgpr[..8], 128, 13, 127);
    im.h.mem
        .write(im.base + 512 + 12, &5u32.to_le_bytes())
        .unwrap();
    im.h.set_v(4, |_| 3);
    im.h.set_v(5, |_| 1);
    im.h.run(&LOAD_2D_R).unwrap();
    assert_eq!(im.h.v(0, 0), 5);
    // A DEPTH not above the width (19: pitch 20) leaves the computed pitch: (3, 1) at 256 + 12.
    put(&mut im.h.wave.sgpr[..8], 128, 13, 19);
    im.h.run(&LOAD_2D_R).unwrap();
    assert_eq!(im.h.v(0, 0), 7);
}

#[test]
fn sample_d_takes_the_lod_from_the_given_derivatives() {
    // 4x4 R32F (texel (x, y) = x + 10 y) with a 2x2 level 1 (100, 101, 102, 103), point mip
    // filter. At (u, v) = (0.3, 0.6): level 0 gives texel (1, 2) = 21, level 1 texel
    // (floor(0.6), floor(1.2)) = (0, 1) = 102. LOD = log2(max(|(ds/dx, dt/dx)|, |(ds/dy, dt/dy)|)
    // in texels): ds/dx = 0.25 -> 1 texel -> LOD 0 -> level 0; ds/dx = 0.5 -> 2 texels -> LOD 1
    // -> level 1; dt/dy = 0.5 (y dominates) -> level 1.
    let mut im = r32f_image(false, 2);
    im.h.wave.sgpr[8..12].copy_from_slice(&ssharp(0, false, 1, 15.0));
    im.h.set_v(8, |_| 0.3f32.to_bits());
    im.h.set_v(9, |_| 0.6f32.to_bits());
    for (derivs, want) in [
        ([0.25f32, 0.0, 0.0, 0.0], 21.0),
        ([0.5, 0.0, 0.0, 0.0], 102.0),
        ([0.0, 0.0, 0.0, 0.5], 102.0),
        ([0.0, 0.0, 0.0, 0.2], 21.0),
    ] {
        for (k, d) in derivs.iter().enumerate() {
            im.h.set_v(4 + k, |_| d.to_bits());
        }
        im.h.run(&SAMPLE_D).unwrap();
        assert_eq!(f(im.h.v(0, 0)), want, "derivatives {derivs:?}");
    }
}

#[test]
fn gather4_lz_returns_the_bilinear_footprint_of_one_component() {
    // 4x4 R32F, texel (x, y) = x + 10 y. At (u, v) = (0.3, 0.6): texel space (1.2, 2.4) less
    // half a texel = (0.7, 1.9): i0 = 0, j0 = 1. Order (i0, j1), (i1, j1), (i1, j0), (i0, j0):
    // 20, 21, 11, 10.
    let mut im = r32f_image(false, 1);
    im.h.set_v(4, |_| 0.3f32.to_bits());
    im.h.set_v(5, |_| 0.6f32.to_bits());
    im.h.run(&GATHER4_LZ_R).unwrap();
    let got: Vec<f32> = (0..4).map(|c| f(im.h.v(c, 0))).collect();
    assert_eq!(got, [20.0, 21.0, 11.0, 10.0]);
    // Clamp-to-last-texel at (u, v) = (0.99, 0.05): (3.46, -0.3) -> i0 = 3, i1 = 4 clamped to
    // 3; j0 = -1 clamped to 0, j1 = 0: all four are texel (3, 0) = 3.
    im.h.wave.sgpr[8..12].copy_from_slice(&ssharp(2, false, 0, 15.0));
    im.h.set_v(4, |_| 0.99f32.to_bits());
    im.h.set_v(5, |_| 0.05f32.to_bits());
    im.h.run(&GATHER4_LZ_R).unwrap();
    let got: Vec<f32> = (0..4).map(|c| f(im.h.v(c, 0))).collect();
    assert_eq!(got, [3.0; 4]);
    // DMASK 0x4 gathers blue: a 2x2 RGBA8 image, (u, v) = (0.5, 0.5) -> (0.5, 0.5): i0 = j0 = 0.
    let texels = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16];
    let mut im = setup(false, 42, 2, 2, 1, &texels);
    im.h.wave.sgpr[8..12].copy_from_slice(&ssharp(2, false, 0, 15.0));
    im.h.set_v(4, |_| 0.5f32.to_bits());
    im.h.set_v(5, |_| 0.5f32.to_bits());
    im.h.run(&GATHER4_LZ_B).unwrap();
    let got: Vec<f32> = (0..4).map(|c| f(im.h.v(c, 0))).collect();
    assert_eq!(got, [11.0, 15.0, 7.0, 3.0].map(|b: f32| b / 255.0));
}

#[test]
fn gather4_lz_o_offsets_the_footprint() {
    // As gather4_lz at (u, v) = (0.3, 0.6) (i0 = 0, j0 = 1), with texel offsets in v3: x = +2
    // (bits 5:0), y = -1 (bits 13:8, 0x3f): i0 = 2, j0 = 0; texels (2, 1), (3, 1), (3, 0),
    // (2, 0) = 12, 13, 3, 2 (wrap sampler, all inside).
    let mut im = r32f_image(false, 1);
    im.h.set_v(3, |_| 2 | 0x3f << 8);
    im.h.set_v(4, |_| 0.3f32.to_bits());
    im.h.set_v(5, |_| 0.6f32.to_bits());
    im.h.run(&GATHER4_LZ_O).unwrap();
    let got: Vec<f32> = (0..4).map(|c| f(im.h.v(c, 0))).collect();
    assert_eq!(got, [12.0, 13.0, 3.0, 2.0]);
}
