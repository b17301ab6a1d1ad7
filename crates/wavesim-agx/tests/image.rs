//! `image_write` as Mesa 25.0's `agx_pack.c` packs it (AGX_OPCODE_IMAGE_WRITE) through PBE
//! descriptors laid out as its cmdbuf.xml says, and image loads (`texture_load` with q3 bit 0
//! set) reading what it wrote (exec/image.rs, exec/texture.rs).

use wavesim_agx::exec::{run, Fault, Memories, Program, WaveState};
use wavesim_core::memory::DeviceMemory;

/// AGX_OPCODE_IMAGE_WRITE, 6-byte form: 0xF1 | 1 << 23 (Mesa's exact bits), Rt at 8 (32-bit
/// source), R (16-bit units) at 9, C (16-bit units) at 16, D at 24 with Dt at 31 (1: immediate),
/// T at 32 with Tt at 38, dimension at 40, coherency (9) at 43; `stop` after it.
fn write_word(r16: u64, wide: bool, c16: u64, dim: u64, t: u64, round: u64) -> Vec<u8> {
    let raw = 0xF1u64
        | 1 << 23
        | u64::from(wide) << 8
        | r16 << 9
        | c16 << 16
        | 1 << 31
        | t << 32
        | dim << 40
        | 9 << 43
        | round << 53;
    let mut v = if raw >> 48 != 0 {
        (raw | 1 << 15).to_le_bytes().to_vec()
    } else {
        raw.to_le_bytes()[..6].to_vec()
    };
    v.extend([0x88, 0x00]);
    v
}

/// An image load (Mesa 25.0: `texture_load` with q3 = 0xd, LOD mode `lod_min` from r6l) of all
/// four components into r8-r11, coordinates at r4 (16-bit unit 8), texture ts0.
fn load_word(dim: u64) -> Vec<u8> {
    let raw = 0x71u64
        | 1 << 8
        | 16 << 9
        | 8 << 16
        | 12 << 24
        | dim << 40
        | 0xD << 43
        | 0xF << 48
        | 6 << 52;
    let mut v = raw.to_le_bytes().to_vec();
    v.extend([0x88, 0x00]);
    v
}

/// cmdbuf.xml PBE: dimension, layout (2 twiddled, 0 linear), channels/type (0x28/0 RGBA8 unorm,
/// 0x21/4 R32 float), 2-bit swizzles at 16, width - 1 at 24, height - 1 at 38, buffer >> 4 at 64,
/// level at 100, then levels - 1 at 104 and layers - 1 at 108 (twiddled) or the pitch - 4 at 104
/// (linear).
#[allow(clippy::too_many_arguments)]
fn pbe(
    dim: u64,
    layout: u64,
    rgba8: bool,
    w: u64,
    h: u64,
    addr: u64,
    level: u64,
    above_104: u64,
) -> [u8; 24] {
    let (ch, ty, sw) = if rgba8 {
        (0x28u128, 0u128, 0b11_10_01_00u128)
    } else {
        (0x21, 4, 0)
    };
    let v: u128 = dim as u128
        | (layout as u128) << 4
        | ch << 6
        | ty << 13
        | sw << 16
        | ((w - 1) as u128) << 24
        | ((h - 1) as u128) << 38
        | ((addr >> 4) as u128) << 64
        | (level as u128) << 100
        | (above_104 as u128) << 104
        // `Page-aligned layers` (124): Mesa 25.0 sets it for every writeable twiddled image
        | u128::from(layout == 2) << 124;
    let mut b = [0u8; 24];
    b[..16].copy_from_slice(&v.to_le_bytes());
    b
}

/// TEXTURE (22.3/25.0 cmdbuf.xml, the same bits): RGBA8 unorm, identity swizzle, twiddled.
fn texture(w: u64, h: u64, addr: u64) -> [u8; 24] {
    let v: u128 = 2
        | 2 << 4
        | 0x28 << 6
        | 0o3210 << 16
        | ((w - 1) as u128) << 28
        | ((h - 1) as u128) << 42
        | ((addr >> 4) as u128) << 66
        | 1 << 126;
    let mut b = [0u8; 24];
    b[..16].copy_from_slice(&v.to_le_bytes());
    b
}

fn run_group(code: Vec<u8>, w: &mut WaveState, dev: &DeviceMemory) -> Result<(), Fault> {
    let mut tg = vec![];
    let mut mem = Memories {
        device: dev,
        threadgroup: &mut tg,
    };
    run(w, &Program::new(code), &mut mem, 10)
        .map(|_| ())
        .map_err(|e| e.fault)
}

/// Sixteen threads, thread l at (l % width, l / width) in r4/r5 (the coordinates' registers of
/// `write_word`/`load_word`), `textures` bound; layer 0 in r6.
fn grid_threads(textures: Vec<[u8; 24]>, width: u32) -> WaveState {
    let mut w = WaveState::new(12);
    w.textures = textures;
    w.exec = 0xFFFF;
    for l in 0..16 {
        w.set_reg32(4, l, l as u32 % width);
        w.set_reg32(5, l, l as u32 / width);
        w.set_reg32(6, l, 0);
    }
    w
}

fn morton4(x: u32, y: u32) -> u64 {
    u64::from((x & 1) | (x & 2) << 1 | (y & 1) << 1 | (y & 2) << 2)
}

/// Threads 0-15 write texel (l % 4, l / 4) of a 4x4 twiddled RGBA8 image from 32-bit r8-r11:
/// (0.25x, 0.25y, 0.5, 2 - 3x). u8norm: round_half_even(clamp(v, 0, 1) * 255): 0.25 * 255 =
/// 63.75 -> 64, 0.5 * 255 = 127.5 -> 128 (even), 0.75 * 255 = 191.25 -> 191; 2 - 3x clamps to 1
/// (255) for x = 0, to 0 for x = 1 (-1), 2, 3. Texel (x, y) lies at 4 * Morton(x, y). An image
/// load (`texture_load` with q3 = 0xd) then reads byte / 255 back.
#[test]
fn rgba8_store_then_load() {
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(64, 64).unwrap();
    let mut w = grid_threads(vec![pbe(2, 2, true, 4, 4, a, 0, 0)], 4);
    for l in 0..16 {
        let (x, y) = (l as u32 % 4, l as u32 / 4);
        for (c, v) in [0.25 * x as f32, 0.25 * y as f32, 0.5, 2.0 - 3.0 * x as f32]
            .iter()
            .enumerate()
        {
            w.set_reg32(8 + c, l, v.to_bits());
        }
    }
    run_group(write_word(16, true, 8, 2, 0, 0), &mut w, &dev).unwrap();
    let unorm = [0u8, 64, 128, 191];
    for y in 0..4u32 {
        for x in 0..4u32 {
            let mut b = [0u8; 4];
            dev.read(a + 4 * morton4(x, y), &mut b).unwrap();
            let alpha = if x == 0 { 255 } else { 0 };
            assert_eq!(
                b,
                [unorm[x as usize], unorm[y as usize], 128, alpha],
                "({x}, {y})"
            );
        }
    }
    let mut r = grid_threads(vec![texture(4, 4, a)], 4);
    run_group(load_word(2), &mut r, &dev).unwrap();
    for l in 0..16 {
        let (x, y) = (l % 4, l / 4);
        let alpha = if x == 0 { 255 } else { 0 };
        let want =
            [unorm[x], unorm[y], 128, alpha].map(|b| ((f64::from(b) / 255.0) as f32).to_bits());
        let got: [u32; 4] = std::array::from_fn(|c| r.reg32(8 + c, l));
        assert_eq!(got, want, "thread {l}");
    }
}

/// R32 float into a linear 8x2 image whose rows are 48 bytes apart (PBE pitch field 48 - 4 = 44)
/// from 16-bit sources r8l-r9h (R16 units 16-19): the f16 value, exact in f32, at y * 48 + 4x.
/// Thread l writes (l % 8, l / 8) for l < 16 the value l - 7.5 (an f16).
#[test]
fn r32_float_linear_store_from_halves() {
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(96, 64).unwrap();
    let mut w = grid_threads(vec![pbe(2, 0, false, 8, 2, a, 0, 44)], 8);
    for l in 0..16 {
        let h = half::f16::from_f32(l as f32 - 7.5).to_bits();
        w.set_reg32(8, l, u32::from(h));
    }
    run_group(write_word(16, false, 8, 2, 0, 0), &mut w, &dev).unwrap();
    for l in 0..16u64 {
        let mut b = [0u8; 4];
        dev.read(a + (l / 8) * 48 + 4 * (l % 8), &mut b).unwrap();
        assert_eq!(f32::from_le_bytes(b), l as f32 - 7.5, "thread {l}");
    }
}

/// A 2D array PBE (dimension 3) of 4x4 with 2 levels and 3 layers at `Level` 1: layer z, texel
/// (x, y) of level 1 (2x2) lies at z * 16384 (ail's page-aligned layer: levels of 64 and 16
/// bytes, each padded to 128) + 128 + 4 * Morton(x, y). Coordinates are the array form's 16-bit
/// halves r4l/r4h (x), r5l/r5h (y), r6l (layer). Thread 0 writes (1, 1) of layer 2 -> 32768 +
/// 128 + 12. A texel outside the level (2, 0), a layer outside the three and the rounding bit
/// are typed errors. A BGRA PBE swizzle (Mesa's `agx_batch_upload_pbe` for B8G8R8A8: stored
/// channel c takes component swizzle[c] = (2, 1, 0, 3)) stores (B, G, R, A): sources (1.0, 0.5,
/// 0.25, 0) -> bytes (0.25 * 255 = 63.75 -> 64, 127.5 -> 128, 255, 0).
#[test]
fn array_layer_and_level_and_errors() {
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(3 * 16384, 64).unwrap();
    let desc = pbe(3, 2, true, 4, 4, a, 1, 1 | 2 << 4);
    let code = write_word(16, true, 8, 3, 0, 0);
    let setup = |x: u32, y: u32, layer: u32, desc: [u8; 24]| {
        let mut w = WaveState::new(12);
        w.textures = vec![desc];
        w.exec = 1;
        w.set_reg32(4, 0, x);
        w.set_reg32(5, 0, y);
        w.set_reg32(6, 0, layer);
        for c in 0..4 {
            w.set_reg32(8 + c, 0, 1.0f32.to_bits());
        }
        w
    };
    let mut w = setup(1, 1, 2, desc);
    run_group(code.clone(), &mut w, &dev).unwrap();
    let mut b = [0u8; 4];
    dev.read(a + 32768 + 128 + 12, &mut b).unwrap();
    assert_eq!(b, [255; 4]);
    let mut bgra = desc;
    bgra[2] = 0b11_00_01_10; // swizzle bits 16-23 (byte 2): (2, 1, 0, 3)
    let mut w = setup(0, 0, 0, bgra);
    for (c, v) in [1.0f32, 0.5, 0.25, 0.0].iter().enumerate() {
        w.set_reg32(8 + c, 0, v.to_bits());
    }
    run_group(code.clone(), &mut w, &dev).unwrap();
    dev.read(a + 128, &mut b).unwrap();
    assert_eq!(b, [64, 128, 255, 0]);
    let cases = [
        (setup(2, 0, 0, desc), code.clone()),
        (setup(0, 0, 3, desc), code.clone()),
        (setup(0, 0, 0, desc), write_word(16, true, 8, 3, 0, 1)),
    ];
    for (k, (mut w, code)) in cases.into_iter().enumerate() {
        assert!(
            matches!(
                run_group(code, &mut w, &dev),
                Err(Fault::UnsupportedForm { .. })
            ),
            "case {k}"
        );
    }
}

/// A bindless image store (`Tt` = 3): the PBE descriptor at the 64-bit uniform U (u2_u3, U = 1 in
/// bits 48-52) plus the 32-bit register T (r7, 16-bit units 14) byte offset; the 8-byte form
/// (something at bit 48 or above: L at 15). Threads 0-15 write l + 1 to texel (l % 4, l / 4) of
/// an R32 float 4x4 twiddled image.
#[test]
fn bindless_store() {
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(64, 64).unwrap();
    let heap = dev.alloc(64, 64).unwrap();
    dev.write(heap + 24, &pbe(2, 2, false, 4, 4, a, 0, 0))
        .unwrap();
    let raw = 0xF1u64
        | 1 << 23
        | 1 << 8
        | 16 << 9
        | 8 << 16
        | 1 << 31
        | 14 << 32
        | 3 << 38
        | 2 << 40
        | 9 << 43
        | 1 << 48
        | 1 << 15;
    let mut code = raw.to_le_bytes().to_vec();
    code.extend([0x88, 0x00]);
    let mut w = grid_threads(Vec::new(), 4);
    w.set_uniform64(2, heap);
    for l in 0..16 {
        w.set_reg32(7, l, 24);
        w.set_reg32(8, l, (1.0f32 + l as f32).to_bits());
    }
    run_group(code, &mut w, &dev).unwrap();
    for y in 0..4u32 {
        for x in 0..4u32 {
            let mut b = [0u8; 4];
            dev.read(a + 4 * morton4(x, y), &mut b).unwrap();
            assert_eq!(f32::from_le_bytes(b), (x + 4 * y + 1) as f32, "({x}, {y})");
        }
    }
}

/// With an observer's access list on, an image store is one 4-byte "texture" store per thread at
/// the texel's address (thread l writes (l % 4, l / 4) of a 4x4 twiddled RGBA8 image: base +
/// 4 * morton(x, y)) holding the packed bytes, and reading it back is one "texture" load each.
#[test]
fn image_accesses_are_reported() {
    use wavesim_core::observe::AccessKind;
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(64, 64).unwrap();
    let mut w = grid_threads(vec![pbe(2, 2, true, 4, 4, a, 0, 0)], 4);
    for l in 0..16 {
        // R = 1.0 (255), G = B = 0, A = 0.5 (128): bytes ff 00 00 80
        for (c, v) in [1.0f32, 0.0, 0.0, 0.5].iter().enumerate() {
            w.set_reg32(8 + c, l, v.to_bits());
        }
    }
    w.accesses = Some(Vec::new());
    run_group(write_word(16, true, 8, 2, 0, 0), &mut w, &dev).unwrap();
    let stores = w.accesses.take().unwrap();
    assert_eq!(stores.len(), 16);
    for s in &stores {
        let (x, y) = (s.lane % 4, s.lane / 4);
        assert_eq!(
            (s.kind, s.space, s.addr, s.size, s.value),
            (
                AccessKind::Store,
                "texture",
                a + 4 * morton4(x, y),
                4,
                0x8000_00ff
            ),
            "thread {}",
            s.lane
        );
    }
    let mut r = grid_threads(vec![texture(4, 4, a)], 4);
    r.accesses = Some(Vec::new());
    run_group(load_word(2), &mut r, &dev).unwrap();
    let loads = r.accesses.take().unwrap();
    assert_eq!(loads.len(), 16);
    assert!(loads
        .iter()
        .all(|x| x.kind == AccessKind::Load && x.space == "texture" && x.value == 0x8000_00ff));
}

/// A PBE / TEXTURE pair of any format (cmdbuf.xml: channels at 6, type at 13), 2D twiddled, width
/// x height; the PBE's swizzle identity (0, 1, 2, 3), the texture's (R, G, B, A).
fn format_pair(ch: u128, ty: u128, w: u64, h: u64, addr: u64) -> ([u8; 24], [u8; 24]) {
    let mut p = pbe(2, 2, true, w, h, addr, 0, 0);
    let mut t = texture(w, h, addr);
    for d in [&mut p, &mut t] {
        let mut v = u128::from_le_bytes(d[..16].try_into().unwrap());
        v = v & !(0x3FF << 6) | ch << 6 | ty << 13;
        d[..16].copy_from_slice(&v.to_le_bytes());
    }
    (p, t)
}

/// Stores and loads of other formats (exec/formats.rs's rules), thread l writing texel (l % 4,
/// l / 4) of a 4x4 twiddled image (one 4x4 tile: texel at bytes * Morton(x, y)):
/// - R16G16 uint (4 bytes) from 32-bit registers (1000 l, 65535 - l): the integers; the image
///   load returns them as 32-bit integers, with B = 0 and A = the integer 1 (GL Table 15.1);
/// - R16G16B16A16 float (8 bytes) from (l / 4, -l, 0.1, 1): f16 rounded to nearest even (0.1 ->
///   0x2E66, the nearer of 0.0999755859375 and 0.10003662109375), read back exactly in f32;
/// - R32G32B32A32 sint (16 bytes) from (l - 8, -l, l << 20, 7);
/// - R8 snorm (1 byte) from l / 8 - 1: round(127 (l / 8 - 1)), read back as max(c / 127, -1).
#[test]
fn other_formats_store_then_load() {
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(256, 64).unwrap();
    let load = load_word(2);
    let store = write_word(16, true, 8, 2, 0, 0);

    let (p, t) = format_pair(0x23, 2, 4, 4, a);
    let mut w = grid_threads(vec![p], 4);
    for l in 0..16u32 {
        w.set_reg32(8, l as usize, 1000 * l);
        w.set_reg32(9, l as usize, 65535 - l);
    }
    run_group(store.clone(), &mut w, &dev).unwrap();
    let mut r = grid_threads(vec![t], 4);
    run_group(load.clone(), &mut r, &dev).unwrap();
    for l in 0..16u32 {
        let mut b = [0u8; 4];
        let (x, y) = (l % 4, l / 4);
        dev.read(a + 4 * morton4(x, y), &mut b).unwrap();
        assert_eq!(u32::from_le_bytes(b), (1000 * l) | ((65535 - l) << 16));
        let got: [u32; 4] = std::array::from_fn(|c| r.reg32(8 + c, l as usize));
        assert_eq!(got, [1000 * l, 65535 - l, 0, 1], "thread {l}");
    }

    let (p, t) = format_pair(0x32, 4, 4, 4, a);
    let mut w = grid_threads(vec![p], 4);
    for l in 0..16usize {
        for (c, v) in [l as f32 / 4.0, -(l as f32), 0.1, 1.0].iter().enumerate() {
            w.set_reg32(8 + c, l, v.to_bits());
        }
    }
    run_group(store.clone(), &mut w, &dev).unwrap();
    let mut r = grid_threads(vec![t], 4);
    run_group(load.clone(), &mut r, &dev).unwrap();
    for l in 0..16usize {
        let mut b = [0u8; 8];
        dev.read(a + 8 * morton4(l as u32 % 4, l as u32 / 4), &mut b)
            .unwrap();
        let halves: [u16; 4] =
            std::array::from_fn(|c| u16::from_le_bytes([b[2 * c], b[2 * c + 1]]));
        assert_eq!(halves[2], 0x2E66);
        let want = [
            l as f32 / 4.0,
            -(l as f32),
            half::f16::from_bits(0x2E66).to_f32(),
            1.0,
        ];
        assert_eq!(halves, want.map(|v| half::f16::from_f32(v).to_bits()));
        let got: [u32; 4] = std::array::from_fn(|c| r.reg32(8 + c, l));
        assert_eq!(got, want.map(f32::to_bits), "thread {l}");
    }

    let (p, t) = format_pair(0x38, 3, 4, 4, a);
    let mut w = grid_threads(vec![p], 4);
    let vals = |l: i32| [l - 8, -l, l << 20, 7];
    for l in 0..16i32 {
        for (c, v) in vals(l).iter().enumerate() {
            w.set_reg32(8 + c, l as usize, *v as u32);
        }
    }
    run_group(store.clone(), &mut w, &dev).unwrap();
    let mut r = grid_threads(vec![t], 4);
    run_group(load.clone(), &mut r, &dev).unwrap();
    for l in 0..16i32 {
        let mut b = [0u8; 16];
        dev.read(a + 16 * morton4(l as u32 % 4, l as u32 / 4), &mut b)
            .unwrap();
        let words: [u32; 4] =
            std::array::from_fn(|c| u32::from_le_bytes(b[4 * c..4 * c + 4].try_into().unwrap()));
        assert_eq!(words, vals(l).map(|v| v as u32));
        let got: [u32; 4] = std::array::from_fn(|c| r.reg32(8 + c, l as usize));
        assert_eq!(got, words, "thread {l}");
    }

    let (p, t) = format_pair(0x00, 1, 4, 4, a);
    let mut w = grid_threads(vec![p], 4);
    for l in 0..16usize {
        w.set_reg32(8, l, (l as f32 / 8.0 - 1.0).to_bits());
    }
    run_group(store, &mut w, &dev).unwrap();
    let mut r = grid_threads(vec![t], 4);
    run_group(load, &mut r, &dev).unwrap();
    for l in 0..16usize {
        let mut b = [0u8];
        dev.read(a + morton4(l as u32 % 4, l as u32 / 4), &mut b)
            .unwrap();
        // 127 (l / 8 - 1) = 15.875 l - 127: exact multiples of 1/8; no tie (x.5) arises except
        // l = 4 (-63.5 -> -64, ties to even) and l = 12 (63.5 -> 64)
        let want = (127.0 * (l as f64 / 8.0 - 1.0)).round_ties_even() as i8;
        assert_eq!(b[0] as i8, want, "thread {l}");
        let got = f32::from_bits(r.reg32(8, l));
        assert_eq!(got, ((f64::from(want) / 127.0).max(-1.0)) as f32);
    }
}

/// Stores a format cannot hold are typed errors: 256 into R8 uint, an sRGB RGBA8 PBE (the
/// linear-to-sRGB rounding is not public), and a compressed (BC1) PBE.
#[test]
fn unrepresentable_stores_are_errors() {
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(64, 64).unwrap();
    let store = write_word(16, true, 8, 2, 0, 0);
    let (r8ui, _) = format_pair(0x00, 2, 4, 4, a);
    let mut srgb = pbe(2, 2, true, 4, 4, a, 0, 0);
    srgb[15] |= 1 << 5; // bit 125
    let (bc1, _) = format_pair(0x74, 0, 4, 4, a);
    for (k, d) in [r8ui, srgb, bc1].into_iter().enumerate() {
        let mut w = grid_threads(vec![d], 4);
        w.exec = 1;
        w.set_reg32(8, 0, 256);
        for c in 1..4 {
            w.set_reg32(8 + c, 0, 0);
        }
        assert!(
            matches!(
                run_group(store.clone(), &mut w, &dev),
                Err(Fault::UnsupportedForm { .. })
            ),
            "case {k}"
        );
    }
}

/// `write_word` with its LOD operand D (bits 24-29, Dt at 31: 1 immediate, 0 a 16-bit register).
fn with_lod(mut code: Vec<u8>, d: u64, imm: bool) -> Vec<u8> {
    let mut raw = [0u8; 8];
    raw[..6].copy_from_slice(&code[..6]);
    let mut v = u64::from_le_bytes(raw);
    v &= !(0x3F << 24 | 1 << 31);
    v |= d << 24 | u64::from(imm) << 31;
    code[..6].copy_from_slice(&v.to_le_bytes()[..6]);
    code
}

/// An image store at a nonzero LOD operand: a typed error by default (no public rule for how it
/// combines with the PBE `Level`); under the approximation opt-in, SPV_AMD_shader_image_load_store_lod's
/// intent, level `Level + LOD`. A 2D RGBA8 PBE of 4x4 with 3 levels (4x4, 2x2, 1x1) at `Level`
/// 1: ail lays the levels out at 0, 128 and 256 (64, 16 and 4 bytes, each level starting on a
/// 128-byte line, as in `array_layer_and_level_and_errors`). LOD 1 (immediate) writes level 2's
/// only texel at 256; LOD 0 from a register (r7l) writes level 1's (1, 1) at 128 + 4 * Morton(1, 1)
/// = 140, uncounted; LOD 2 (level 3 of 3) and LOD -2 (level -1: r7l = 0xfffe, a signed 16-bit
/// operand) are typed errors. One counted SIMD-group execution.
#[test]
fn store_at_a_nonzero_lod_under_the_opt_in() {
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(512, 128).unwrap();
    // `Levels` - 1 = 2 at bit 104 (above_104's low 4 bits)
    let desc = pbe(2, 2, true, 4, 4, a, 1, 2);
    let setup = |x: u32, y: u32, lod: u16, approximate: bool| {
        let mut w = WaveState::new(12);
        w.textures = vec![desc];
        w.exec = 1;
        w.approximate = approximate;
        w.set_reg32(4, 0, x);
        w.set_reg32(5, 0, y);
        w.set_half(14, 0, lod);
        for c in 0..4 {
            w.set_reg32(8 + c, 0, 1.0f32.to_bits());
        }
        w
    };
    let imm1 = with_lod(write_word(16, true, 8, 2, 0, 0), 1, true);
    let reg = with_lod(write_word(16, true, 8, 2, 0, 0), 14, false);
    let mut w = setup(0, 0, 0, false);
    match run_group(imm1.clone(), &mut w, &dev) {
        Err(Fault::UnsupportedForm { what }) => {
            assert!(what.contains("image_write at LOD 1"), "{what}")
        }
        other => panic!("{other:?}"),
    }
    let mut w = setup(0, 0, 0, true);
    run_group(imm1, &mut w, &dev).unwrap();
    let mut b = [0u8; 4];
    dev.read(a + 256, &mut b).unwrap();
    assert_eq!(b, [255; 4]);
    assert_eq!(w.approximated.get(wavesim_agx::exec::NONZERO_LOD), Some(&1));
    let mut w = setup(1, 1, 0, true);
    run_group(reg.clone(), &mut w, &dev).unwrap();
    dev.read(a + 140, &mut b).unwrap();
    assert_eq!(b, [255; 4]);
    assert!(w.approximated.is_empty());
    for lod in [2u16, 0xFFFE] {
        let mut w = setup(0, 0, lod, true);
        match run_group(reg.clone(), &mut w, &dev) {
            Err(Fault::UnsupportedForm { what }) => {
                assert!(what.contains("of 3 levels"), "{what}")
            }
            other => panic!("LOD {lod}: {other:?}"),
        }
    }
}
