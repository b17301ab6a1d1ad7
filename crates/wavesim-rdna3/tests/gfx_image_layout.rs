//! Texel addresses of linear and tiled images against Mesa's addrlib for gfx1100
//! (tests/golden/addrlib_gfx11.txt, written by tools/radv/addrlib_goldens.sh from
//! tools/radv/addrlib_golden.cpp): each surface's T# is packed here from the RDNA3 ISA guide's
//! Table 50 (and SQ_IMG_RSRC_WORD4's DEPTH / PITCH_MSB for a custom pitch), parsed by wavesim,
//! and every sampled texel's byte offset from the base must be addrlib's (linear and tiled mip
//! chains included: the mip tail of exec::image::mip_tail).

use wavesim_rdna3::exec::image::resource::ImageResource;

fn put(d: &mut [u32], lo: u32, width: u32, v: u64) {
    for b in 0..width {
        let bit = lo + b;
        let (wi, sh) = ((bit / 32) as usize, bit % 32);
        d[wi] = (d[wi] & !(1 << sh)) | (((v >> b) & 1) as u32) << sh;
    }
}

struct Surface {
    kind: String,
    sw_mode: u32,
    bpp: u32,
    width: u32,
    height: u32,
    slices: u32,
    levels: u32,
    pitch: u32,
    /// Pipe/bank XOR (tiled _X modes): the base's bits below the block.
    xor: u64,
}

impl Surface {
    /// The 256-bit T# (Table 50) at base BASE (plus the pipe/bank XOR).
    fn tsharp(&self) -> [u32; 8] {
        let mut d = [0u32; 8];
        put(&mut d, 0, 40, (BASE + self.xor) >> 8);
        put(&mut d, 48, 4, (self.levels - 1) as u64);
        // A format of the texel size (R8_UNORM, RG8_UNORM, R32_FLOAT, RGBA16_FLOAT,
        // RGBA32_FLOAT): the layout depends on the size alone.
        let format = match self.bpp {
            8 => 1,
            16 => 14,
            32 => 22,
            64 => 57,
            128 => 63,
            b => panic!("{b} bits per texel"),
        };
        put(&mut d, 52, 8, format);
        for (k, sel) in [4u64, 5, 6, 7].into_iter().enumerate() {
            put(&mut d, 96 + 3 * k as u32, 3, sel); // dst_sel R, G, B, A
        }
        put(&mut d, 62, 14, (self.width - 1) as u64);
        put(&mut d, 78, 14, (self.height - 1) as u64);
        put(&mut d, 112, 4, (self.levels - 1) as u64);
        put(&mut d, 116, 5, self.sw_mode as u64);
        let array = self.slices > 1;
        let ty = match (self.kind.as_str(), array) {
            ("1d", false) => 8,
            ("2d", false) => 9,
            ("1d", true) => 12,
            ("2d", true) => 13,
            ("3d", _) => 10,
            (k, _) => panic!("surface kind {k}"),
        };
        put(&mut d, 124, 4, ty);
        // A 3D T#'s DEPTH is the depth - 1, an array's the last slice.
        if array || ty == 10 {
            put(&mut d, 128, 13, (self.slices - 1) as u64);
        } else if self.pitch > 0 {
            put(&mut d, 128, 13, (self.pitch - 1) as u64);
            put(&mut d, 141, 1, ((self.pitch - 1) >> 13) as u64);
        }
        d
    }
}

/// 64 KiB aligned, as a 64 KiB block must be.
const BASE: u64 = 0x10_0000;

#[test]
fn texel_addresses_match_addrlib() {
    let text = include_str!("golden/addrlib_gfx11.txt");
    let mut surface: Option<(Surface, ImageResource)> = None;
    let (mut surfaces, mut texels, mut texels_3d, mut tiled_mips) = (0, 0, 0, 0);
    let mut samples = 0;
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let n = |i: usize| -> u64 { f[i].parse().unwrap_or_else(|_| panic!("{line}")) };
        match f.first() {
            Some(&"surface") => {
                let s = Surface {
                    kind: f[1].to_string(),
                    sw_mode: n(2) as u32,
                    bpp: n(3) as u32,
                    width: n(4) as u32,
                    height: n(5) as u32,
                    slices: n(6) as u32,
                    levels: n(7) as u32,
                    pitch: n(8) as u32,
                    xor: if f.len() > 9 { n(9) } else { 0 },
                };
                let r = ImageResource::parse(&s.tsharp()).unwrap_or_else(|e| panic!("{line}: {e}"));
                surface = Some((s, r));
                surfaces += 1;
            }
            Some(&"texel") => {
                let (s, r) = surface.as_ref().expect("a surface line first");
                let (level, slice, x, y, want) =
                    (n(1) as u32, n(2) as u32, n(3) as u32, n(4) as u32, n(5));
                let got = r.texel_addr(level, slice, x, y, s.bpp as u64 / 8) - BASE;
                assert_eq!(
                    got, want,
                    "{} mode {} {}x{} {} bpp, {} slices, {} levels, pitch {}, xor {:#x}: level {level} slice {slice} ({x}, {y})",
                    s.kind, s.sw_mode, s.width, s.height, s.bpp, s.slices, s.levels, s.pitch, s.xor
                );
                texels += 1;
                texels_3d += (s.kind == "3d") as usize;
                tiled_mips += (s.sw_mode != 0 && level > 0) as usize;
            }
            // Multisampled surfaces: "msaa SAMPLES SW_MODE BPP WIDTH HEIGHT SLICES XOR".
            Some(&"msaa") => {
                let samples = n(1) as u32;
                let s = Surface {
                    kind: "2d".into(),
                    sw_mode: n(2) as u32,
                    bpp: n(3) as u32,
                    width: n(4) as u32,
                    height: n(5) as u32,
                    slices: n(6) as u32,
                    levels: 1,
                    pitch: 0,
                    xor: n(7),
                };
                let mut t = s.tsharp();
                // Type 2D_MSAA (14) or 2D_MSAA_ARRAY (15); LAST_LEVEL and MAX_MIP hold
                // log2(samples), as RADV writes them (gfx10_make_texture_descriptor).
                put(&mut t, 124, 4, if s.slices > 1 { 15 } else { 14 });
                put(&mut t, 112, 4, samples.trailing_zeros() as u64);
                put(&mut t, 48, 4, samples.trailing_zeros() as u64);
                let r = ImageResource::parse(&t).unwrap_or_else(|e| panic!("{line}: {e}"));
                assert_eq!(r.msaa.map(|m| m.samples), Some(samples), "{line}");
                surface = Some((s, r));
                surfaces += 1;
            }
            // "sample SLICE X Y SAMPLE BYTE_OFFSET".
            Some(&"sample") => {
                let (s, r) = surface.as_ref().expect("an msaa line first");
                let m = r.msaa.expect("a multisampled surface");
                let got = m.texel_addr(r.base, n(1) as u32, n(2) as u32, n(3) as u32, n(4) as u32);
                assert_eq!(
                    got - BASE,
                    n(5),
                    "msaa mode {} {}x{} {} bpp {} slices xor {:#x}: {line}",
                    s.sw_mode,
                    s.width,
                    s.height,
                    s.bpp,
                    s.slices,
                    s.xor
                );
                samples += 1;
            }
            _ => panic!("bad golden line {line:?}"),
        }
    }
    assert!(
        surfaces >= 66
            && texels >= 18000
            && texels_3d >= 8000
            && tiled_mips >= 3000
            && samples >= 7000,
        "{surfaces} surfaces, {texels} texels ({texels_3d} of 3D surfaces, {tiled_mips} at \
         levels > 0 of tiled surfaces), {samples} samples of multisampled surfaces"
    );
}

/// The golden's surface whose line starts with `head` ("surface KIND ...") and its texels as
/// (x, y, slice, byte offset).
fn golden_surface(head: &str) -> (Surface, Vec<(u32, u32, u32, u64)>) {
    let text = include_str!("golden/addrlib_gfx11.txt");
    let mut lines = text.lines().skip_while(|l| !l.starts_with(head));
    let line = lines
        .next()
        .unwrap_or_else(|| panic!("no {head:?} in the golden"));
    let kind = line.split_whitespace().nth(1).unwrap_or_default();
    let f: Vec<u64> = line
        .split_whitespace()
        .skip(2)
        .map(|x| x.parse().unwrap())
        .collect();
    let s = Surface {
        kind: kind.into(),
        sw_mode: f[0] as u32,
        bpp: f[1] as u32,
        width: f[2] as u32,
        height: f[3] as u32,
        slices: f[4] as u32,
        levels: f[5] as u32,
        pitch: f[6] as u32,
        xor: f[7],
    };
    let texels = lines
        .take_while(|l| l.starts_with("texel"))
        .map(|l| {
            let t: Vec<u64> = l
                .split_whitespace()
                .skip(1)
                .map(|x| x.parse().unwrap())
                .collect();
            (t[2] as u32, t[3] as u32, t[1] as u32, t[4])
        })
        .collect();
    (s, texels)
}

/// image_load and image_sample through a tiled T#: every texel addrlib placed for the 300x200
/// 64KB_Z_X R32_FLOAT surface with a pipe/bank XOR (the golden's second tiled surface) holds a
/// value of its own at addrlib's address; loads at those coordinates return it, and point
/// sampling at the texel's centre (u = (x + 0.5) / 300, v = (y + 0.5) / 200) too.
#[test]
fn loads_and_samples_read_tiled_texels_where_addrlib_puts_them() {
    use wavesim_rdna3::testing::Harness;
    // image_load v0, v[4:5], s[0:7] dmask:0x1 dim:2D unorm (llvm-mc-19 -mcpu=gfx1100)
    const LOAD: [u32; 2] = [0xf0000184, 0x00000004];
    // image_sample_lz v0, v[4:5], s[0:7], s[8:11] dmask:0x1 dim:2D
    const SAMPLE_LZ: [u32; 2] = [0xf07c0104, 0x08000004];
    let (s, texels) = golden_surface("surface 2d 24 32 300 200 ");
    assert_ne!(s.xor, 0, "a surface with a pipe/bank XOR");
    let texels: Vec<(u32, u32, u64)> = texels.into_iter().map(|(x, y, _, o)| (x, y, o)).collect();
    assert!(texels.len() > 100);
    let mut h = Harness::new(false);
    // 300x200 texels in 128x128 blocks: 3 x 2 blocks of 64 KiB.
    let at = h.mem.alloc(0x20_0000, 0x1_0000).unwrap();
    let base = at + BASE;
    let value = |x: u32, y: u32| (1000 * y + x) as f32;
    for &(x, y, off) in &texels {
        h.mem.write(base + off, &value(x, y).to_le_bytes()).unwrap();
    }
    let mut t = s.tsharp();
    put(&mut t, 0, 40, (base + s.xor) >> 8);
    h.wave.sgpr[..8].copy_from_slice(&t);
    // S# (Table 51): clamp to edge, point filtering.
    h.wave.sgpr[8..12].copy_from_slice(&[2 | 2 << 3, 0, 0, 0]);
    for chunk in texels.chunks(32) {
        h.set_v(4, |l| chunk[l % chunk.len()].0);
        h.set_v(5, |l| chunk[l % chunk.len()].1);
        h.run(&LOAD).unwrap();
        for (l, &(x, y, _)) in chunk.iter().enumerate() {
            assert_eq!(f32::from_bits(h.v(0, l)), value(x, y), "load ({x}, {y})");
        }
        h.set_v(4, |l| {
            ((chunk[l % chunk.len()].0 as f32 + 0.5) / 300.0).to_bits()
        });
        h.set_v(5, |l| {
            ((chunk[l % chunk.len()].1 as f32 + 0.5) / 200.0).to_bits()
        });
        h.run(&SAMPLE_LZ).unwrap();
        for (l, &(x, y, _)) in chunk.iter().enumerate() {
            assert_eq!(f32::from_bits(h.v(0, l)), value(x, y), "sample ({x}, {y})");
        }
    }
}

/// The 32x32x32 RGBA8-sized (32-bit) 3D surface in 64KB_S_X, RADV's choice for the shader-db
/// corpus's 3D texture (thick 32x32x16 blocks): texels written where addrlib puts them read back
/// through image_load dim:3D at (x, y, z) and image_sample_lz dim:3D at the texel centres
/// ((x + 0.5) / 32, ...; point sampling: floor(u * 32) = x).
#[test]
fn loads_and_samples_read_3d_texels_where_addrlib_puts_them() {
    use wavesim_rdna3::testing::Harness;
    const LOAD_3D: [u32; 2] = [0xf0000f88, 0x00000004]; // image_load v[0:3], v[4:6], s[0:7] dmask:0xf dim:3D unorm
    const SAMPLE_LZ_3D: [u32; 2] = [0xf07c0f08, 0x08000004]; // image_sample_lz v[0:3], v[4:6], s[0:7], s[8:11] dmask:0xf dim:3D
    let (s, texels) = golden_surface("surface 3d 25 32 32 32 32 ");
    assert!(texels.len() > 100);
    let mut h = Harness::new(false);
    // 128 KiB of texels: two 64 KiB slabs of 32x32x16 blocks, at a 64 KiB-aligned base.
    let base = h.mem.alloc(0x2_0000, 0x1_0000).unwrap();
    // Format 22 (R32_FLOAT) in the T# `tsharp` packs for 32-bit texels.
    let value = |x: u32, y: u32, z: u32| (10000 * z + 100 * y + x) as f32;
    for &(x, y, z, off) in &texels {
        h.mem
            .write(base + off, &value(x, y, z).to_le_bytes())
            .unwrap();
    }
    let mut t = s.tsharp();
    put(&mut t, 0, 40, (base + s.xor) >> 8);
    h.wave.sgpr[..8].copy_from_slice(&t);
    h.wave.sgpr[8..12].copy_from_slice(&[2 | 2 << 3 | 2 << 6, 0, 0, 0]);
    for chunk in texels.chunks(32) {
        let c = |l: usize| chunk[l % chunk.len()];
        h.set_v(4, |l| c(l).0);
        h.set_v(5, |l| c(l).1);
        h.set_v(6, |l| c(l).2);
        h.run(&LOAD_3D).unwrap();
        for (l, &(x, y, z, _)) in chunk.iter().enumerate() {
            assert_eq!(
                f32::from_bits(h.v(0, l)),
                value(x, y, z),
                "load ({x}, {y}, {z})"
            );
        }
        let centre = |i: u32| ((i as f32 + 0.5) / 32.0).to_bits();
        h.set_v(4, |l| centre(c(l).0));
        h.set_v(5, |l| centre(c(l).1));
        h.set_v(6, |l| centre(c(l).2));
        h.run(&SAMPLE_LZ_3D).unwrap();
        for (l, &(x, y, z, _)) in chunk.iter().enumerate() {
            assert_eq!(
                f32::from_bits(h.v(0, l)),
                value(x, y, z),
                "sample ({x}, {y}, {z})"
            );
        }
    }
}

/// image_load dim:2D_MSAA through a multisampled T#: every sample addrlib placed for the 64x64
/// 4-sample 64KB_R_X R32 surface (the golden's first "msaa" surface: RADV's layout for a 4x
/// RGBA8 target) holds a value of its own at addrlib's address; loads at (x, y, fragment id)
/// return it. A 2D load through the same T#, and an MSAA load through a single-sampled one, are
/// refused; a fragment id past the sample count reads zero (out of range).
#[test]
fn msaa_loads_read_samples_where_addrlib_puts_them() {
    use wavesim_rdna3::testing::Harness;
    // image_load v0, v[4:6], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA unorm (llvm-mc-19)
    const LOAD_MSAA: [u32; 2] = [0xf0000198, 0x00000004];
    // image_load v0, v[4:5], s[0:7] dmask:0x1 dim:2D unorm
    const LOAD: [u32; 2] = [0xf0000184, 0x00000004];
    let text = include_str!("golden/addrlib_gfx11.txt");
    let mut lines = text
        .lines()
        .skip_while(|l| !l.starts_with("msaa 4 27 32 64 64 1 "));
    let head: Vec<u64> = lines
        .next()
        .expect("the msaa surface")
        .split_whitespace()
        .skip(1)
        .map(|x| x.parse().unwrap())
        .collect();
    let xor = head[6];
    let samples: Vec<(u32, u32, u32, u64)> = lines
        .take_while(|l| l.starts_with("sample "))
        .map(|l| {
            let f: Vec<u64> = l
                .split_whitespace()
                .skip(1)
                .map(|x| x.parse().unwrap())
                .collect();
            (f[1] as u32, f[2] as u32, f[3] as u32, f[4])
        })
        .collect();
    assert!(samples.len() >= 400, "{} samples", samples.len());
    let mut h = Harness::new(false);
    let base = h.mem.alloc(0x1_0000, 0x1_0000).unwrap();
    let value = |x: u32, y: u32, s: u32| 100_000 * s + 100 * y + x;
    for &(x, y, s, off) in &samples {
        h.mem
            .write(base + off, &value(x, y, s).to_le_bytes())
            .unwrap();
    }
    let surface = Surface {
        kind: "2d".into(),
        sw_mode: 27,
        bpp: 32,
        width: 64,
        height: 64,
        slices: 1,
        levels: 1,
        pitch: 0,
        xor,
    };
    let mut t = surface.tsharp();
    put(&mut t, 0, 40, (base + xor) >> 8);
    put(&mut t, 52, 8, 20); // R32_UINT
    put(&mut t, 124, 4, 14); // 2D_MSAA
    put(&mut t, 112, 4, 2); // LAST_LEVEL = log2(4 samples)
    put(&mut t, 48, 4, 2);
    h.wave.sgpr[..8].copy_from_slice(&t);
    for chunk in samples.chunks(32) {
        let c = |l: usize| chunk[l % chunk.len()];
        h.set_v(4, |l| c(l).0);
        h.set_v(5, |l| c(l).1);
        h.set_v(6, |l| c(l).2);
        h.run(&LOAD_MSAA).unwrap();
        for (l, &(x, y, s, _)) in chunk.iter().enumerate() {
            assert_eq!(h.v(0, l), value(x, y, s), "load ({x}, {y}) sample {s}");
        }
    }
    h.set_v(6, |_| 4);
    h.run(&LOAD_MSAA).unwrap();
    assert_eq!(h.v(0, 0), 0, "fragment 4 of 4 samples");
    let e = h.run(&LOAD).expect_err("a 2D load of a multisampled image");
    assert!(e.to_string().contains("MSAA dims"), "{e}");
    // image_sample_lz v0, v[4:5], s[0:7], s[8:11] dmask:0x1 dim:2D
    const SAMPLE_LZ: [u32; 2] = [0xf07c0104, 0x08000004];
    h.wave.sgpr[8..12].copy_from_slice(&[2 | 2 << 3, 0, 0, 0]);
    put(&mut t, 52, 8, 22); // R32_FLOAT: a filterable format
    h.wave.sgpr[..8].copy_from_slice(&t);
    let e = h
        .run(&SAMPLE_LZ)
        .expect_err("sampling a multisampled image");
    assert!(e.to_string().contains("multisampled"), "{e}");
    put(&mut t, 124, 4, 9); // 2D
    put(&mut t, 112, 4, 0);
    put(&mut t, 48, 4, 0);
    h.wave.sgpr[..8].copy_from_slice(&t);
    let e = h
        .run(&LOAD_MSAA)
        .expect_err("an MSAA load of a single-sampled image");
    assert!(e.to_string().contains("MSAA dims"), "{e}");
}
