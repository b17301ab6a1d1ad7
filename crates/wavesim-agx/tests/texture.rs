//! `texture_sample` / `texture_load` as Mesa 22.3 packs them, on descriptors laid out as its
//! `cmdbuf.xml` says, over a twiddled RGBA8 image laid out as its `ail` layout code says
//! (exec/texture.rs).

use wavesim_agx::exec::texture::{texel_offset, TextureDesc};
use wavesim_agx::exec::{run, Fault, Memories, Program, WaveState, SIMD_WIDTH};
use wavesim_core::memory::DeviceMemory;

/// Mesa 22.3 `agx_pack.c`, AGX_OPCODE_TEXTURE_SAMPLE/LOAD with small registers (no extension
/// word): R (16-bit units) at 9, Rt at 8, coordinates (16-bit units) at 16, LOD register at 24,
/// texture 0 / sampler 0 immediates, dimension at 40, q3 = 12 at 43, mask at 48, LOD mode at 52.
fn tex_word(
    load: bool,
    r16: u64,
    wide: bool,
    c16: u64,
    d16: u64,
    dim: u64,
    lod_mode: u64,
) -> [u8; 8] {
    (0x31u64
        | if load { 1 << 6 } else { 0 }
        | if wide { 1 << 8 } else { 0 }
        | r16 << 9
        | c16 << 16
        | d16 << 24
        | dim << 40
        | 12 << 43
        | 0xF << 48
        | lod_mode << 52)
        .to_le_bytes()
}

/// cmdbuf.xml TEXTURE: dimension 0-3, layout 4-5 (2 = twiddled), channels 6-12 (0x28 = R8G8B8A8),
/// type 13-15 (0 = unorm), swizzles 16-27, width - 1 at 28, height - 1 at 42, address >> 4 at 66,
/// `Page-aligned layers` at 126 (Mesa 22.3's `Unk tiled`, which its driver sets on every
/// twiddled texture).
fn texture(dim: u64, swizzle: [u64; 4], w: u64, h: u64, addr: u64) -> [u8; 24] {
    let v: u128 = dim as u128
        | 1 << 126
        | 2 << 4
        | 0x28 << 6
        | ((swizzle[0] | swizzle[1] << 3 | swizzle[2] << 6 | swizzle[3] << 9) as u128) << 16
        | ((w - 1) as u128) << 28
        | ((h - 1) as u128) << 42
        | ((addr >> 4) as u128) << 66;
    let mut b = [0u8; 24];
    b[..16].copy_from_slice(&v.to_le_bytes());
    b
}

/// cmdbuf.xml SAMPLER: nearest filters, no mip filter, wrap S at 29, wrap T at 32.
fn sampler(wrap_s: u64, wrap_t: u64) -> [u8; 8] {
    (wrap_s << 29 | wrap_t << 32).to_le_bytes()
}

/// The harness's 4x4 image (tools/agx/mesa_shader_test.c): texel (x, y) = (16x+1, 16y+2, 3, 4),
/// stored twiddled: one 4x4 tile, element = x bits at even positions, y bits at odd ones.
fn image(dev: &mut DeviceMemory) -> u64 {
    let a = dev.alloc(64, 64).unwrap();
    for y in 0..4u32 {
        for x in 0..4u32 {
            let m = (x & 1) | (x & 2) << 1 | (y & 1) << 1 | (y & 2) << 2;
            dev.write(
                a + 4 * m as u64,
                &[16 * x as u8 + 1, 16 * y as u8 + 2, 3, 4],
            )
            .unwrap();
        }
    }
    a
}

#[test]
fn descriptor_fields_and_twiddled_offsets() {
    let t = TextureDesc::decode(&texture(2, [0, 1, 2, 3], 4, 4, 0x12340));
    assert_eq!((t.width, t.height, t.address, t.layout), (4, 4, 0x12340, 2));
    // (1, 0) -> element 1; (0, 1) -> 2; (3, 2): x = 0b11 -> 0b0101, y = 0b10 -> 0b1000: 13
    assert_eq!(texel_offset(&t, 1, 0).unwrap(), 4);
    assert_eq!(texel_offset(&t, 0, 1).unwrap(), 8);
    assert_eq!(texel_offset(&t, 3, 2).unwrap(), 52);
    // 100x70: 64x64 tiles, two a row; (70, 65) is tile 3, (6, 1) inside: 0b10100 | 0b10 = 22
    let t = TextureDesc::decode(&texture(2, [0, 1, 2, 3], 100, 70, 0));
    assert_eq!(texel_offset(&t, 70, 65).unwrap(), (3 * 4096 + 22) * 4);
    // 8x2: one 2x2 tile side (the smaller power of two), four tiles a row
    let t = TextureDesc::decode(&texture(2, [0, 1, 2, 3], 8, 2, 0));
    assert_eq!(texel_offset(&t, 5, 1).unwrap(), (2 * 4 + 3) * 4);
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

/// Nearest sampling at u = s * 4: thread l samples s = l / 8 - 1 + 1/8 (from -0.875 to 2.875),
/// t = 0.375 (row 1). Repeat: x = floor(u) mod 4; clamp to edge: clamp(floor(u), 0, 3); mirrored
/// repeat: m = floor(u) mod 8, x = m < 4 ? m : 7 - m; mirror clamp to edge (5): clamp(mirror(i),
/// 0, 3), mirror(i) = i >= 0 ? i : -(1 + i) (GL 4.6 Table 8.20). Results: byte / 255 in f32 (32-bit
/// destination), swizzle (B, R, 1, 0) giving (3/255, (16x+1)/255, 1, 0).
#[test]
fn texture_sample_nearest_with_wrap_modes() {
    let mut dev = DeviceMemory::new();
    let a = image(&mut dev);
    let mut code = tex_word(false, 16, true, 8, 0, 2, 0).to_vec();
    code.extend([0x88, 0x00]);
    for (mode, rule) in [
        (0u64, (|i: i64| i.clamp(0, 3)) as fn(i64) -> i64),
        (1, |i: i64| i.rem_euclid(4)),
        (2, |i: i64| {
            let m = i.rem_euclid(8);
            if m < 4 {
                m
            } else {
                7 - m
            }
        }),
        (5, |i: i64| (if i >= 0 { i } else { -(1 + i) }).min(3)),
    ] {
        let mut w = WaveState::new(12);
        w.textures = vec![texture(2, [2, 0, 4, 5], 4, 4, a)];
        w.samplers = vec![sampler(mode, mode)];
        for l in 0..SIMD_WIDTH {
            w.set_reg32(4, l, (l as f32 / 8.0 - 1.0 + 0.125).to_bits());
            w.set_reg32(5, l, 0.375f32.to_bits());
        }
        run_group(code.clone(), &mut w, &dev).unwrap();
        for l in 0..SIMD_WIDTH {
            let u = (l as f64 / 8.0 - 1.0 + 0.125) * 4.0;
            let x = rule(u.floor() as i64);
            let got: Vec<u32> = (8..12).map(|r| w.reg32(r, l)).collect();
            let want = [
                (3.0f64 / 255.0) as f32,
                ((16 * x + 1) as f64 / 255.0) as f32,
                1.0,
                0.0,
            ]
            .map(|v| v.to_bits())
            .to_vec();
            assert_eq!(got, want, "mode {mode} thread {l}");
        }
    }
}

/// `texture_load` (txf): integer texel (x, y) = (l % 4, l / 8 % 4), level register r6l = 0; 16-bit
/// destination: f16 of byte / 255 ((16x+1)/255, (16y+2)/255, 3/255, 4/255) correctly rounded.
/// A texel outside the image and a level other than 0 are typed errors.
#[test]
fn texture_load_integer_texels() {
    let mut dev = DeviceMemory::new();
    let a = image(&mut dev);
    // LOD register r6l (16-bit units 12), lod_min mode (Mesa 22.3: AGX_LOD_MODE_LOD_MIN = 6;
    // applegpu: a 16-bit register)
    let mut code = tex_word(true, 16, false, 8, 12, 2, 6).to_vec();
    code.extend([0x88, 0x00]);
    let mut w = WaveState::new(12);
    w.textures = vec![texture(2, [0, 1, 2, 3], 4, 4, a)];
    for l in 0..SIMD_WIDTH {
        w.set_reg32(4, l, l as u32 % 4);
        w.set_reg32(5, l, l as u32 / 8 % 4);
        w.set_reg32(6, l, 0);
    }
    run_group(code.clone(), &mut w, &dev).unwrap();
    let f16 = |b: u32| half::f16::from_f64(f64::from(b) / 255.0).to_bits();
    for l in 0..SIMD_WIDTH {
        let (x, y) = (l as u32 % 4, l as u32 / 8 % 4);
        let got: Vec<u16> = (16..20).map(|h| w.half(h, l)).collect();
        assert_eq!(got, vec![f16(16 * x + 1), f16(16 * y + 2), f16(3), f16(4)]);
    }
    w.set_reg32(4, 3, 4);
    w.pc = 0;
    assert!(matches!(
        run_group(code.clone(), &mut w, &dev),
        Err(Fault::UnsupportedForm { .. })
    ));
    w.set_reg32(4, 3, 0);
    w.set_reg32(6, 0, 1);
    w.pc = 0;
    assert!(matches!(
        run_group(code, &mut w, &dev),
        Err(Fault::UnsupportedForm { .. })
    ));
}

/// Unbound state and GL's legacy CLAMP wrap (cmdbuf.xml `Clamp (GL)`, 4) are typed errors, not
/// guesses; a linear filter one way only needs the LOD to choose between them (GL 4.6 8.14), so with automatic LOD it stops unless the
/// run opts in (`automatic_lod_is_an_opt_in`, `mixed_filters_follow_the_magnification_threshold`).
#[test]
fn unmodelled_state_is_an_error() {
    let mut dev = DeviceMemory::new();
    let a = image(&mut dev);
    let mut code = tex_word(false, 16, true, 8, 0, 2, 0).to_vec();
    code.extend([0x88, 0x00]);
    let mut w = WaveState::new(12);
    assert!(run_group(code.clone(), &mut w, &dev).is_err());
    w.textures = vec![texture(2, [0, 1, 2, 3], 4, 4, a)];
    w.samplers = vec![sampler(4, 4)];
    assert!(matches!(
        run_group(code.clone(), &mut w, &dev),
        Err(Fault::UnsupportedForm { .. })
    ));
    w.samplers = vec![(1u64 << 23).to_le_bytes()];
    w.pc = 0;
    assert!(matches!(
        run_group(code.clone(), &mut w, &dev),
        Err(Fault::Unsupported { name }) if name == wavesim_agx::exec::texture::AUTO_LOD
    ));
}

/// A layered 4x4 image: layer z at z * 16 KiB (one 64-byte level padded to 128 bytes, the layer to a
/// 16 KiB page: ail's layer stride), texel (x, y, z) = (16x+1, 16y+2, 16z+3, 4) twiddled.
fn layered(dev: &mut DeviceMemory, layers: u64) -> u64 {
    let a = dev.alloc(layers * 0x4000, 64).unwrap();
    for z in 0..layers {
        for y in 0..4u32 {
            for x in 0..4u32 {
                let m = (x & 1) | (x & 2) << 1 | (y & 1) << 1 | (y & 2) << 2;
                let b = [16 * x as u8 + 1, 16 * y as u8 + 2, 16 * z as u8 + 3, 4];
                dev.write(a + z * 0x4000 + 4 * m as u64, &b).unwrap();
            }
        }
    }
    a
}

/// Reads thread 0's four 32-bit results as bytes (x 255).
fn bytes_of(w: &WaveState) -> [u32; 4] {
    std::array::from_fn(|c| (f32::from_bits(w.reg32(8 + c, 0)) * 255.0).round() as u32)
}

/// Cube maps (GL 4.6 Table 8.19): (1, 0.25, -0.5) has major axis +X (face 0): sc = -z = 0.5,
/// tc = -y = -0.25, s = (0.5 + 1) / 2 = 0.75 -> x = 3, t = 0.375 -> y = 1. (0.25, -1, 0.5): -Y
/// (face 3), sc = x = 0.25 -> s = 0.625 -> x = 2, tc = -z = -0.5 -> t = 0.25 -> y = 1. A tie
/// between axes is a typed error. Descriptor dimension 6 (cube), depth field 6 - 1.
#[test]
fn cube_map_face_selection() {
    let mut dev = DeviceMemory::new();
    let a = layered(&mut dev, 6);
    let mut code = tex_word(false, 16, true, 8, 0, 6, 0).to_vec();
    code.extend([0x88, 0x00]);
    let mut desc = texture(6, [0, 1, 2, 3], 4, 4, a);
    desc[13] |= 5 << 6; // depth - 1 = 5 at bit 110 (byte 13, bit 6)
    for (dir, want) in [
        ([1.0f32, 0.25, -0.5], [49, 18, 3, 4]),
        ([0.25, -1.0, 0.5], [33, 18, 51, 4]),
    ] {
        let mut w = WaveState::new(12);
        w.textures = vec![desc];
        w.samplers = vec![sampler(1, 1)];
        w.exec = 1;
        for (i, v) in dir.iter().enumerate() {
            w.set_reg32(4 + i, 0, v.to_bits());
        }
        run_group(code.clone(), &mut w, &dev).unwrap();
        assert_eq!(bytes_of(&w), want, "{dir:?}");
    }
    let mut w = WaveState::new(12);
    w.textures = vec![desc];
    w.samplers = vec![sampler(1, 1)];
    w.exec = 1;
    for (i, v) in [1.0f32, -1.0, 0.0].iter().enumerate() {
        w.set_reg32(4 + i, 0, v.to_bits());
    }
    assert!(matches!(
        run_group(code, &mut w, &dev),
        Err(Fault::UnsupportedForm { .. })
    ));
}

/// 3D images: r = 0.6 on 4 slices -> 2.4 -> slice 2 (repeat), s = 0.3 -> x = 1, t = 0.9 -> y = 3:
/// (17, 50, 35, 4).
#[test]
fn three_d_slices() {
    let mut dev = DeviceMemory::new();
    let a = layered(&mut dev, 4);
    let mut code = tex_word(false, 16, true, 8, 0, 5, 0).to_vec();
    code.extend([0x88, 0x00]);
    let mut desc = texture(5, [0, 1, 2, 3], 4, 4, a);
    desc[13] |= 3 << 6; // depth - 1 = 3
    let mut w = WaveState::new(12);
    w.textures = vec![desc];
    w.samplers = vec![sampler(1, 1)];
    w.exec = 1;
    for (i, v) in [0.3f32, 0.9, 0.6].iter().enumerate() {
        w.set_reg32(4 + i, 0, v.to_bits());
    }
    run_group(code, &mut w, &dev).unwrap();
    assert_eq!(bytes_of(&w), [17, 50, 35, 4]);
}

/// The 12-byte form (Mesa 22.3 `agx_pack.c`, the extension word when L is set): the shadow bit
/// `compare` at 23, O (16-bit units) at 80-85 and 94-95, the offset flag `Ot` at 91, L at 15.
fn with_extension(word: [u8; 8], o16: u64, shadow: bool, offsets: bool) -> Vec<u8> {
    let w = u64::from_le_bytes(word) | 1 << 15 | u64::from(shadow) << 23;
    let ext = (o16 & 63) << 16 | u64::from(offsets) << 27 | (o16 >> 6) << 30;
    let mut v = w.to_le_bytes().to_vec();
    v.extend((ext as u32).to_le_bytes());
    v.extend([0x88, 0x00]);
    v
}

/// Thread 0 alone sampling a 2D array at s = 0.3, t = 0.9 and integer `layer`, repeat wrap.
fn array_thread0(desc: [u8; 24], layer: u32) -> WaveState {
    let mut w = WaveState::new(12);
    w.textures = vec![desc];
    w.samplers = vec![sampler(1, 1)];
    w.exec = 1;
    w.set_reg32(4, 0, 0.3f32.to_bits());
    w.set_reg32(5, 0, 0.9f32.to_bits());
    w.set_reg32(6, 0, layer);
    w
}

/// 2D arrays (cmdbuf.xml dimension 3, `Depth` = layers - 1): s = 0.3 -> x = 1, t = 0.9 -> y = 3,
/// layer 2 given as an integer (Mesa's `agx_nir_lower_array_texture` rounds and clamps it):
/// (16x+1, 16y+2, 16z+3, 4) = (17, 50, 35, 4); layer 3 -> (17, 50, 51, 4); layer 4 of 4 is a typed
/// error (the lowering clamps, so the hardware never sees it).
#[test]
fn two_d_array_layers() {
    let mut dev = DeviceMemory::new();
    let a = layered(&mut dev, 4);
    let mut code = tex_word(false, 16, true, 8, 0, 3, 0).to_vec();
    code.extend([0x88, 0x00]);
    let mut desc = texture(3, [0, 1, 2, 3], 4, 4, a);
    desc[13] |= 3 << 6; // depth - 1 = 3
    for (layer, want) in [
        (2u32, Some([17, 50, 35, 4])),
        (3, Some([17, 50, 51, 4])),
        (4, None),
    ] {
        let mut w = array_thread0(desc, layer);
        let r = run_group(code.clone(), &mut w, &dev);
        match want {
            Some(b) => {
                r.unwrap();
                assert_eq!(bytes_of(&w), b, "layer {layer}");
            }
            None => assert!(matches!(r, Err(Fault::UnsupportedForm { .. }))),
        }
    }
}

/// Texel offsets (Mesa 22.3 packs component c as 4-bit two's complement at bit 4c; here (+1, -2)
/// = 0x1 | 0xE << 4 in r7l): GL 4.6 8.14.2 adds them to floor(s * size) before the wrap. Thread l
/// samples s = l / 8 - 1 + 1/8, t = 0.375 (floor(1.5) = 1) with repeat: x = (floor(4s) + 1) mod 4,
/// y = (1 - 2) mod 4 = 3. texture_load (texelFetchOffset, GL 4.6 11.1.3.2) adds them to the
/// integer texel: (1, 2) + (1, -2) = (2, 0); (3, 2) + (1, -2) = (4, 0) is outside, a typed error.
#[test]
fn texel_offsets() {
    let mut dev = DeviceMemory::new();
    let a = image(&mut dev);
    let code = with_extension(tex_word(false, 16, true, 8, 0, 2, 0), 14, false, true);
    let mut w = WaveState::new(12);
    w.textures = vec![texture(2, [0, 1, 2, 3], 4, 4, a)];
    w.samplers = vec![sampler(1, 1)];
    for l in 0..SIMD_WIDTH {
        w.set_reg32(4, l, (l as f32 / 8.0 - 1.0 + 0.125).to_bits());
        w.set_reg32(5, l, 0.375f32.to_bits());
        w.set_reg32(7, l, 0xE1);
    }
    run_group(code, &mut w, &dev).unwrap();
    for l in 0..SIMD_WIDTH {
        let u = (l as f64 / 8.0 - 1.0 + 0.125) * 4.0;
        let x = (u.floor() as i64 + 1).rem_euclid(4) as u32;
        let want: Vec<u32> = [16 * x + 1, 16 * 3 + 2, 3, 4]
            .map(|b| ((f64::from(b) / 255.0) as f32).to_bits())
            .to_vec();
        let got: Vec<u32> = (8..12).map(|r| w.reg32(r, l)).collect();
        assert_eq!(got, want, "thread {l}");
    }
    let code = with_extension(tex_word(true, 16, true, 8, 0, 2, 6), 14, false, true);
    let mut w = WaveState::new(12);
    w.textures = vec![texture(2, [0, 1, 2, 3], 4, 4, a)];
    w.exec = 1;
    w.set_reg32(4, 0, 1);
    w.set_reg32(5, 0, 2);
    w.set_reg32(7, 0, 0xE1);
    run_group(code.clone(), &mut w, &dev).unwrap();
    assert_eq!(bytes_of(&w), [33, 2, 3, 4]);
    w.set_reg32(4, 0, 3);
    w.pc = 0;
    assert!(matches!(
        run_group(code, &mut w, &dev),
        Err(Fault::UnsupportedForm { .. })
    ));
}

/// A 4x4 R32 float (Mesa 22.3's depth textures: Z32_FLOAT described as R32/FLOAT) holding
/// d(x, y) = (x + 4y) / 16, twiddled.
fn depth_image(dev: &mut DeviceMemory) -> u64 {
    let a = dev.alloc(64, 64).unwrap();
    for y in 0..4u32 {
        for x in 0..4u32 {
            let m = (x & 1) | (x & 2) << 1 | (y & 1) << 1 | (y & 2) << 2;
            let d = (x + 4 * y) as f32 / 16.0;
            dev.write(a + 4 * m as u64, &d.to_le_bytes()).unwrap();
        }
    }
    a
}

/// Shadow compare (GL 4.6 8.23.1, cmdbuf.xml `Compare func` at sampler bit 39): thread l samples
/// texel (l % 4, l / 4 % 4) at its centre with reference 0.5 in r7 (O = 14, shadow bit set):
/// result 1.0 when `0.5 OP d` holds for d = (x + 4y) / 16, else 0.0, through the swizzle
/// (R, R, R, 1). Each of the eight functions against its rule; a NaN reference and a comparison on
/// an RGBA8 texture are typed errors. With offsets too (O = 14: reference r7, offsets r8l = +1 in
/// x), thread 0 compares against texel (1, 0), d = 1/16.
#[test]
fn shadow_compare_functions() {
    let mut dev = DeviceMemory::new();
    let a = depth_image(&mut dev);
    let desc = |ch: u128, ty: u128| {
        let mut d = texture(2, [0, 0, 0, 4], 4, 4, a);
        let v =
            u128::from_le_bytes(d[..16].try_into().unwrap()) & !(0x3FF << 6) | ch << 6 | ty << 13;
        d[..16].copy_from_slice(&v.to_le_bytes());
        d
    };
    let rules: [fn(f32, f32) -> bool; 8] = [
        |r, d| r <= d,
        |r, d| r >= d,
        |r, d| r < d,
        |r, d| r > d,
        |r, d| r == d,
        |r, d| r != d,
        |_, _| true,
        |_, _| false,
    ];
    let code = with_extension(tex_word(false, 16, true, 8, 0, 2, 0), 14, true, false);
    for (func, rule) in rules.iter().enumerate() {
        let mut w = WaveState::new(12);
        w.textures = vec![desc(0x21, 4)];
        w.samplers = vec![(1u64 << 29 | 1 << 32 | (func as u64) << 39).to_le_bytes()];
        for l in 0..SIMD_WIDTH {
            let (x, y) = (l as u32 % 4, l as u32 / 4 % 4);
            w.set_reg32(4, l, ((x as f32 + 0.5) / 4.0).to_bits());
            w.set_reg32(5, l, ((y as f32 + 0.5) / 4.0).to_bits());
            w.set_reg32(7, l, 0.5f32.to_bits());
        }
        run_group(code.clone(), &mut w, &dev).unwrap();
        for l in 0..SIMD_WIDTH {
            let (x, y) = (l as u32 % 4, l as u32 / 4 % 4);
            let r = if rule(0.5, (x + 4 * y) as f32 / 16.0) {
                1.0f32
            } else {
                0.0
            };
            let got: Vec<u32> = (8..12).map(|k| w.reg32(k, l)).collect();
            assert_eq!(
                got,
                [r, r, r, 1.0].map(f32::to_bits).to_vec(),
                "func {func} thread {l}"
            );
        }
        if func == 0 {
            w.set_reg32(7, 5, f32::NAN.to_bits());
            w.pc = 0;
            assert!(matches!(
                run_group(code.clone(), &mut w, &dev),
                Err(Fault::UnsupportedForm { .. })
            ));
            w.textures = vec![desc(0x28, 0)];
            w.set_reg32(7, 5, 0.5f32.to_bits());
            w.pc = 0;
            assert!(matches!(
                run_group(code.clone(), &mut w, &dev),
                Err(Fault::UnsupportedForm { .. })
            ));
        }
    }
    // reference and offsets together: Less, 0.0625 < 1/16 fails, 0.0 < 1/16 holds
    let code = with_extension(tex_word(false, 16, true, 8, 0, 2, 0), 14, true, true);
    for (reference, want) in [(0.0625f32, 0.0f32), (0.0, 1.0)] {
        let mut w = WaveState::new(12);
        w.textures = vec![desc(0x21, 4)];
        w.samplers = vec![(1u64 << 29 | 1 << 32 | 2 << 39).to_le_bytes()];
        w.exec = 1;
        w.set_reg32(4, 0, 0.125f32.to_bits());
        w.set_reg32(5, 0, 0.125f32.to_bits());
        w.set_reg32(7, 0, reference.to_bits());
        w.set_reg32(8, 0, 0x1);
        run_group(code.clone(), &mut w, &dev).unwrap();
        assert_eq!(w.reg32(8, 0), want.to_bits(), "reference {reference}");
    }
}

/// Linear filtering (mag and min linear, sampler bits 23 and 25) is refused unless the run opts in
/// to approximations (the hardware's filter weights are not public); opted in, it is GL 4.6
/// 8.14.2's LINEAR: i0 = floor(u - 1/2), a = frac(u - 1/2), (1 - a) T[i0] + a T[i0 + 1] per axis,
/// with the wrap applied to i0 and i0 + 1. On the harness image (R = 16x + 1, G = 16y + 2):
/// s = 0.375 (u = 1.5, a = 0: texel 1 alone, R = 17), s = 0.3 (u = 1.2: 0.3 T0 + 0.7 T1, R =
/// 0.3 + 11.9 = 12.2), s = 0 with repeat (u - 1/2 = -0.5: texels 3 and 0 half each, R = 25);
/// t = 0.5 (v - 1/2 = 1.5: rows 1 and 2 half each, G = 26). A linear magnification with a nearest
/// minification is a typed error (choosing needs the LOD).
#[test]
fn linear_filter_is_an_opt_in() {
    let mut dev = DeviceMemory::new();
    let a = image(&mut dev);
    let mut code = tex_word(false, 16, true, 8, 0, 2, 0).to_vec();
    code.extend([0x88, 0x00]);
    let linear = (1u64 << 23 | 1 << 25 | 1 << 29 | 1 << 32).to_le_bytes();
    let setup = |s: f32, approximate: bool, sampler: [u8; 8]| {
        let mut w = WaveState::new(12);
        w.textures = vec![texture(2, [0, 1, 2, 3], 4, 4, a)];
        w.samplers = vec![sampler];
        w.approximate = approximate;
        w.exec = 1;
        w.set_reg32(4, 0, s.to_bits());
        w.set_reg32(5, 0, 0.5f32.to_bits());
        w
    };
    let mut w = setup(0.375, false, linear);
    assert!(matches!(
        run_group(code.clone(), &mut w, &dev),
        Err(Fault::Unsupported { name }) if name == wavesim_agx::exec::texture::LINEAR_FILTER
    ));
    for (s, r) in [(0.375f32, 17.0f64), (0.3, 0.0), (0.0, 25.0)] {
        let mut w = setup(s, true, linear);
        run_group(code.clone(), &mut w, &dev).unwrap();
        let want_r = if s == 0.3f32 {
            // u = f32(0.3) * 4 in f64; a = frac(u - 1/2); texels 0 and 1 (R = 1 and 17)
            let u = f64::from(0.3f32) * 4.0 - 0.5;
            let a = u - u.floor();
            (1.0 - a) * (1.0 / 255.0) + a * (17.0 / 255.0)
        } else {
            r / 255.0
        };
        assert_eq!(w.reg32(8, 0), (want_r as f32).to_bits(), "s = {s}");
        let want_g = 0.5 * (18.0 / 255.0) + 0.5 * (34.0 / 255.0);
        assert_eq!(w.reg32(9, 0), (want_g as f32).to_bits(), "s = {s}");
        assert_eq!(
            w.approximated
                .get(wavesim_agx::exec::texture::LINEAR_FILTER),
            Some(&1)
        );
    }
    let mut w = setup(0.375, true, (1u64 << 23).to_le_bytes());
    assert!(matches!(
        run_group(code, &mut w, &dev),
        Err(Fault::UnsupportedForm { .. })
    ));
}

/// A gather (applegpu's q6 at bits 86-90, bits 22-26 of the extension word: component c as
/// `c << 2 | 2`, Mesa 22.3's `agx_gather_for_nir`) in the 12-byte form, no O operand.
fn gather_code(word: [u8; 8], q6: u64) -> Vec<u8> {
    with_q6(with_extension(word, 0, false, false), q6)
}

fn with_q6(mut v: Vec<u8>, q6: u64) -> Vec<u8> {
    let ext = u32::from_le_bytes([v[8], v[9], v[10], v[11]]) | (q6 as u32) << 22;
    v[8..12].copy_from_slice(&ext.to_le_bytes());
    v
}

/// textureGather (GL 4.6 8.14.2) on the 4x4 image, texel (x, y) = (16x+1, 16y+2, 3, 4), repeat:
/// u = 4s, v = 4t, i0 = floor(u - 1/2) mod 4, i1 = (i0 + 1) mod 4, likewise j from v; the result
/// is component c (after the descriptor's swizzle) of (i0, j1), (i1, j1), (i1, j0), (i0, j0).
/// Thread l samples s = l / 8 - 1 + 1/16 (u - 1/2 = l/2 - 4.25, never an integer), t = 3/8
/// (v - 1/2 = 1: j0 = 1, j1 = 2) or t = 1/16 (v - 1/2 = -1/4: j0 = -1 mod 4 = 3, j1 = 0). The
/// swizzle (G, R, B, 1): component 0 reads G = 16y+2, so (16j1+2, 16j1+2, 16j0+2, 16j0+2);
/// component 1 reads R = 16x+1, so (16i0+1, 16i1+1, 16i1+1, 16i0+1); component 3 reads the
/// constant 1. Bytes / 255 rounded to f32.
#[test]
fn gather_reads_gl_footprint_in_gl_order() {
    let mut dev = DeviceMemory::new();
    let a = image(&mut dev);
    for (comp, t) in [
        (0u64, 0.375f32),
        (0, 0.0625),
        (1, 0.375),
        (1, 0.0625),
        (3, 0.375),
    ] {
        let code = gather_code(tex_word(false, 16, true, 8, 0, 2, 0), comp << 2 | 2);
        let mut w = WaveState::new(12);
        w.textures = vec![texture(2, [1, 0, 2, 4], 4, 4, a)];
        w.samplers = vec![sampler(1, 1)];
        for l in 0..SIMD_WIDTH {
            w.set_reg32(4, l, (l as f32 / 8.0 - 1.0 + 0.0625).to_bits());
            w.set_reg32(5, l, t.to_bits());
        }
        run_group(code, &mut w, &dev).unwrap();
        let (j0, j1) = if t == 0.375 { (1i64, 2i64) } else { (3, 0) };
        for l in 0..SIMD_WIDTH {
            let i0 = ((l as f64 / 2.0 - 4.25).floor() as i64).rem_euclid(4);
            let i1 = (i0 + 1).rem_euclid(4);
            let bytes = match comp {
                0 => [16 * j1 + 2, 16 * j1 + 2, 16 * j0 + 2, 16 * j0 + 2],
                1 => [16 * i0 + 1, 16 * i1 + 1, 16 * i1 + 1, 16 * i0 + 1],
                _ => [255; 4],
            };
            let want: Vec<u32> = bytes
                .map(|b| ((b as f64 / 255.0) as f32).to_bits())
                .to_vec();
            let got: Vec<u32> = (8..12).map(|r| w.reg32(r, l)).collect();
            assert_eq!(got, want, "component {comp} t {t} thread {l}");
        }
    }
}

/// A 2D array gather reads the given layer: texel (x, y, z) = (16x+1, 16y+2, 16z+3, 4); s = 0.3
/// (u - 1/2 = 0.7: i0 = 0, i1 = 1), t = 0.9 (v - 1/2 = 3.1: j0 = 3, j1 = 4 mod 4 = 0), layer 2,
/// repeat. Component R: (1, 17, 17, 1); component B: 16 * 2 + 3 = 35 four times.
#[test]
fn gather_on_a_2d_array_layer() {
    let mut dev = DeviceMemory::new();
    let a = layered(&mut dev, 4);
    let mut desc = texture(3, [0, 1, 2, 3], 4, 4, a);
    desc[13] |= 3 << 6; // depth - 1 = 3
    for (comp, want) in [(0u64, [1, 17, 17, 1]), (2, [35; 4])] {
        let code = gather_code(tex_word(false, 16, true, 8, 0, 3, 0), comp << 2 | 2);
        let mut w = array_thread0(desc, 2);
        run_group(code, &mut w, &dev).unwrap();
        assert_eq!(bytes_of(&w), want, "component {comp}");
    }
}

/// Gathers outside the modelled forms stop with a typed error: applegpu's `gather_depth` (q6 = 3)
/// and `compare` (1) forms, a shadow gather on an RGBA8 texture (not a depth one), a partial
/// write mask, a 1D texture kind, a texel fetch, an explicit LOD mode.
#[test]
fn unmodelled_gathers_are_errors() {
    let mut dev = DeviceMemory::new();
    let a = image(&mut dev);
    let base = tex_word(false, 16, true, 8, 0, 2, 0);
    let mut partial = gather_code(base, 2);
    partial[6] = partial[6] & 0xF0 | 0x7; // mask xyz (bits 48-51)
    let shadow = with_q6(with_extension(base, 14, true, false), 2);
    let cases = [
        gather_code(base, 3),
        gather_code(base, 1),
        shadow,
        partial,
        gather_code(tex_word(false, 16, true, 8, 0, 0, 0), 2),
        gather_code(tex_word(true, 16, true, 8, 0, 2, 0), 2),
        gather_code(tex_word(false, 16, true, 8, 0, 2, 6), 2),
    ];
    for (k, code) in cases.into_iter().enumerate() {
        let mut w = WaveState::new(12);
        w.textures = vec![texture(2, [0, 1, 2, 3], 4, 4, a)];
        w.samplers = vec![sampler(1, 1)];
        w.exec = 1;
        let r = run_group(code, &mut w, &dev);
        assert!(matches!(r, Err(Fault::UnsupportedForm { .. })), "case {k}");
    }
}

/// A 4x4 RGBA8 image with `levels` levels (4x4, 2x2, 1x1: ail's power-of-two miptree, one square
/// tile a level, each level padded to 128 bytes: offsets 0, 128, 256) and `layers` layers 16 KiB
/// apart; texel (x, y) of level l, layer z = (16x+1, 16y+2, 100 + 10z + l, 4), twiddled.
fn mipmapped(dev: &mut DeviceMemory, levels: u32, layers: u64) -> u64 {
    let a = dev.alloc(layers * 0x4000, 64).unwrap();
    for z in 0..layers {
        for l in 0..levels {
            let side = 4u32 >> l;
            for y in 0..side {
                for x in 0..side {
                    let m = (x & 1) | (x & 2) << 1 | (y & 1) << 1 | (y & 2) << 2;
                    let b = [
                        16 * x as u8 + 1,
                        16 * y as u8 + 2,
                        (100 + 10 * z) as u8 + l as u8,
                        4,
                    ];
                    dev.write(a + z * 0x4000 + 128 * u64::from(l) + 4 * m as u64, &b)
                        .unwrap();
                }
            }
        }
    }
    a
}

/// TEXTURE with `First level` (56-59) and `Last level` (60-63) set.
fn with_levels(mut d: [u8; 24], first: u8, last: u8) -> [u8; 24] {
    d[7] = first | last << 4;
    d
}

/// SAMPLER with repeat wraps, the mip filter at 27 (1 nearest, 2 linear) and `Maximum LOD` at 10
/// (6 fraction bits: 14.0 = 0x380).
fn mip_sampler(mip: u64, max_lod_64ths: u64) -> [u8; 8] {
    (1u64 << 29 | 1 << 32 | mip << 27 | max_lod_64ths << 10).to_le_bytes()
}

/// Thread 0 samples s = 0.6, t = 0.3 with the explicit LOD (`lod_min`, mode 6, Mesa's txl) in
/// r6l as f16. Level 0 (4x4): x = floor(2.4) = 2, y = floor(1.2) = 1 -> (33, 18, 100, 4); level 1
/// (2x2): x = floor(1.2) = 1, y = 0 -> (17, 2, 101, 4); level 2: (1, 2, 102, 4).
fn explicit_lod_run(
    dev: &DeviceMemory,
    desc: [u8; 24],
    samp: [u8; 8],
    lod: f32,
    approximate: bool,
) -> Result<WaveState, Fault> {
    let mut code = tex_word(false, 16, true, 8, 12, 2, 6).to_vec();
    code.extend([0x88, 0x00]);
    let mut w = WaveState::new(12);
    w.textures = vec![desc];
    w.samplers = vec![samp];
    w.approximate = approximate;
    w.exec = 1;
    w.set_reg32(4, 0, 0.6f32.to_bits());
    w.set_reg32(5, 0, 0.3f32.to_bits());
    w.set_reg32(6, 0, u32::from(half::f16::from_f32(lod).to_bits()));
    run_group(code, &mut w, dev).map(|_| w)
}

/// GL 4.6 8.14.3, NEAREST mip filter: level = base for lambda <= 1/2, else base + ceil(lambda +
/// 1/2) - 1 up to the last level, lambda first clamped to the sampler's [min, max] LOD (8.14.1).
/// 0 -> 0; 0.75 -> ceil(1.25) - 1 = 1; 1.25 -> 1; 1.75 -> 2; 5 -> 2 (the last level); with the
/// maximum LOD 1.0 (64/64), 1.75 -> 1. A view whose base level is 1 (`First level`): 0 -> 1,
/// 0.75 -> 2. Within 2^-6 of a boundary (0.5, 1.5) the level is not certain: a typed error. Without
/// a mip filter the LOD is not read: 1.75 samples level 0. Automatic LOD with a mip filter stops
/// unless the run opts in (`automatic_lod_is_an_opt_in`).
#[test]
fn explicit_lod_selects_the_nearest_level() {
    let mut dev = DeviceMemory::new();
    let a = mipmapped(&mut dev, 3, 1);
    let desc = with_levels(texture(2, [0, 1, 2, 3], 4, 4, a), 0, 2);
    let want = [[33, 18, 100, 4], [17, 2, 101, 4], [1, 2, 102, 4]];
    for (lod, max, level) in [
        (0.0f32, 0x380, 0),
        (0.75, 0x380, 1),
        (1.25, 0x380, 1),
        (1.75, 0x380, 2),
        (5.0, 0x380, 2),
        (1.75, 64, 1),
    ] {
        let w = explicit_lod_run(&dev, desc, mip_sampler(1, max), lod, false).unwrap();
        assert_eq!(bytes_of(&w), want[level], "lod {lod} max {max}");
    }
    let based = with_levels(texture(2, [0, 1, 2, 3], 4, 4, a), 1, 2);
    for (lod, level) in [(0.0f32, 1), (0.75, 2)] {
        let w = explicit_lod_run(&dev, based, mip_sampler(1, 0x380), lod, false).unwrap();
        assert_eq!(bytes_of(&w), want[level], "base 1, lod {lod}");
    }
    for lod in [0.5f32, 1.5, 1.5 + 1.0 / 128.0] {
        let r = explicit_lod_run(&dev, desc, mip_sampler(1, 0x380), lod, false);
        assert!(matches!(r, Err(Fault::UnsupportedForm { .. })), "lod {lod}");
    }
    let w = explicit_lod_run(&dev, desc, mip_sampler(0, 0x380), 1.75, false).unwrap();
    assert_eq!(bytes_of(&w), want[0]);
    let mut code = tex_word(false, 16, true, 8, 0, 2, 0).to_vec();
    code.extend([0x88, 0x00]);
    let mut w = WaveState::new(12);
    w.textures = vec![desc];
    w.samplers = vec![mip_sampler(1, 0x380)];
    w.exec = 1;
    assert!(matches!(
        run_group(code, &mut w, &dev),
        Err(Fault::Unsupported { name }) if name == wavesim_agx::exec::texture::AUTO_LOD
    ));
}

/// LINEAR mip filter (GL 4.6 8.14.3): levels floor(lambda) and the next, weights 1 - frac and frac
/// -- only under the approximation opt-in (the hardware's weights are not public), counted as
/// `texture linear filter`. lambda = 0.25: 0.75 * level 0 + 0.25 * level 1 per component, in f64,
/// rounded once to f32: ((0.75 * 33 + 0.25 * 17) / 255, (0.75 * 18 + 0.25 * 2) / 255, (0.75 * 100 +
/// 0.25 * 101) / 255, 4 / 255).
#[test]
fn linear_mip_filter_is_an_opt_in() {
    let mut dev = DeviceMemory::new();
    let a = mipmapped(&mut dev, 3, 1);
    let desc = with_levels(texture(2, [0, 1, 2, 3], 4, 4, a), 0, 2);
    assert!(matches!(
        explicit_lod_run(&dev, desc, mip_sampler(2, 0x380), 0.25, false),
        Err(Fault::Unsupported { name }) if name == wavesim_agx::exec::texture::LINEAR_FILTER
    ));
    let w = explicit_lod_run(&dev, desc, mip_sampler(2, 0x380), 0.25, true).unwrap();
    let want = [(33.0, 17.0), (18.0, 2.0), (100.0, 101.0), (4.0, 4.0)]
        .map(|(l0, l1): (f64, f64)| ((0.75 * l0 / 255.0 + 0.25 * l1 / 255.0) as f32).to_bits());
    let got: [u32; 4] = std::array::from_fn(|c| w.reg32(8 + c, 0));
    assert_eq!(got, want);
    assert_eq!(
        w.approximated
            .get(wavesim_agx::exec::texture::LINEAR_FILTER),
        Some(&1)
    );
}

/// texelFetch from a level (GL 4.6 11.1.3.2: the view's base level plus the integer LOD): level 1,
/// texel (1, 1) -> (17, 18, 101, 4); with base level 1, LOD 1 reads level 2's (0, 0) -> (1, 2,
/// 102, 4); a level past the last is a typed error.
#[test]
fn texel_fetch_from_a_level() {
    let mut dev = DeviceMemory::new();
    let a = mipmapped(&mut dev, 3, 1);
    let mut code = tex_word(true, 16, true, 8, 12, 2, 6).to_vec();
    code.extend([0x88, 0x00]);
    for (first, lod, xy, want) in [
        (0u8, 1u32, 1u32, Some([17, 18, 101, 4])),
        (1, 1, 0, Some([1, 2, 102, 4])),
        (0, 3, 0, None),
    ] {
        let mut w = WaveState::new(12);
        w.textures = vec![with_levels(texture(2, [0, 1, 2, 3], 4, 4, a), first, 2)];
        w.exec = 1;
        w.set_reg32(4, 0, xy);
        w.set_reg32(5, 0, xy);
        w.set_reg32(6, 0, lod);
        let r = run_group(code.clone(), &mut w, &dev);
        match want {
            Some(b) => {
                r.unwrap();
                assert_eq!(bytes_of(&w), b, "base {first} lod {lod}");
            }
            None => assert!(matches!(r, Err(Fault::UnsupportedForm { .. }))),
        }
    }
}

/// A cube map with two levels: each face (a layer, 16 KiB apart) holds the whole miptree. (1,
/// 0.25, -0.5) selects +X (face 0) at s = 0.75, t = 0.375 (Table 8.19); explicit LOD 1.0 ->
/// level 1 (2x2): x = floor(1.5) = 1, y = floor(0.75) = 0 -> (17, 2, 101, 4). The same direction
/// negated in x selects -X (face 1): sc = z = -0.5 -> s = 0.25, x = 0; (1, 2, 111, 4).
#[test]
fn cube_map_with_mips() {
    let mut dev = DeviceMemory::new();
    let a = mipmapped(&mut dev, 2, 6);
    let mut desc = with_levels(texture(6, [0, 1, 2, 3], 4, 4, a), 0, 1);
    desc[13] |= 5 << 6; // depth - 1 = 5
    let mut code = tex_word(false, 16, true, 8, 14, 6, 6).to_vec();
    code.extend([0x88, 0x00]);
    for (dir, want) in [
        ([1.0f32, 0.25, -0.5], [17, 2, 101, 4]),
        ([-1.0, 0.25, -0.5], [1, 2, 111, 4]),
    ] {
        let mut w = WaveState::new(12);
        w.textures = vec![desc];
        w.samplers = vec![mip_sampler(1, 0x380)];
        w.exec = 1;
        for (i, v) in dir.iter().enumerate() {
            w.set_reg32(4 + i, 0, v.to_bits());
        }
        w.set_reg32(7, 0, u32::from(half::f16::from_f32(1.0).to_bits()));
        run_group(code.clone(), &mut w, &dev).unwrap();
        assert_eq!(bytes_of(&w), want, "{dir:?}");
    }
}

/// Cube gathers: the LINEAR footprint on the selected face. (1, 0.25, -0.5): +X, s = 0.75 (u -
/// 1/2 = 2.5: i0 = 2, i1 = 3), t = 0.375 (v - 1/2 = 1: j0 = 1, j1 = 2), inside the face; red
/// (16i+1): (33, 49, 49, 33). (1, 0.25, -0.9): s = 0.95 (u - 1/2 = 3.3: i1 = 4 is past the edge).
/// With `Seamful cube maps` set it clamps to the edge: i = (3, 3) -> red (49, 49, 49, 49). With
/// seamless cube maps (bit 57 clear; Mesa's gallium driver clears it when the state asks for
/// seamless filtering) the texels past the edge come from the neighbouring face (GL 4.6 8.13):
/// +X's sc = -z grows towards -Z, whose sc = -x starts at x = +1 (s = 0, i = 0), and both faces'
/// tc is -y (j kept), so (4, j) on +X is (0, j) on -Z (face 5). Gathering blue (16 face + 3):
/// texels (3, 2), (4, 2), (4, 1), (3, 1) -> (3, 83, 83, 3). (1, 0.9, -0.9): s = 0.95 (i = 3, 4),
/// t = 0.05 (v - 1/2 = -0.3: j = -1, 0): (4, -1) is past a corner, which GL 8.13 fills as the
/// implementation likes unless the other three texels are equal: (3, -1) is +Y's (3, 0) (blue
/// 35), (4, 0) is -Z's (0, 0) (blue 83) and the face's own (3, 0) blue 3 differ (a typed error,
/// whichever component is gathered: GL compares the texels), while on a cube whose every texel is
/// (7, 8, 9, 10) the corner is that texel: red (7, 7, 7, 7).
#[test]
fn cube_gathers() {
    let mut dev = DeviceMemory::new();
    let a = layered(&mut dev, 6);
    let mut desc = texture(6, [0, 1, 2, 3], 4, 4, a);
    desc[13] |= 5 << 6;
    let run_dir = |dir: [f32; 3], seamful: bool, q6: u64| {
        let code = gather_code(tex_word(false, 16, true, 8, 0, 6, 0), q6);
        let mut w = WaveState::new(12);
        w.textures = vec![desc];
        w.samplers =
            vec![(u64::from_le_bytes(sampler(1, 1)) | u64::from(seamful) << 57).to_le_bytes()];
        w.exec = 1;
        for (i, v) in dir.iter().enumerate() {
            w.set_reg32(4 + i, 0, v.to_bits());
        }
        run_group(code.clone(), &mut w, &dev).map(|_| bytes_of(&w))
    };
    assert_eq!(
        run_dir([1.0, 0.25, -0.5], false, 2).unwrap(),
        [33, 49, 49, 33]
    );
    assert_eq!(run_dir([1.0, 0.25, -0.9], true, 2).unwrap(), [49; 4]);
    assert_eq!(
        run_dir([1.0, 0.25, -0.9], false, 10).unwrap(),
        [3, 83, 83, 3]
    );
    for q6 in [10, 14] {
        assert!(matches!(
            run_dir([1.0, 0.9, -0.9], false, q6),
            Err(Fault::UnsupportedForm { .. })
        ));
    }
    let uniform = dev.alloc(6 * 0x4000, 64).unwrap();
    for face in 0..6 {
        for m in 0..16 {
            dev.write(uniform + face * 0x4000 + 4 * m, &[7, 8, 9, 10])
                .unwrap();
        }
    }
    let mut w = WaveState::new(12);
    w.textures = vec![texture(6, [0, 1, 2, 3], 4, 4, uniform)];
    w.textures[0][13] |= 5 << 6;
    w.samplers = vec![sampler(1, 1)];
    w.exec = 1;
    for (i, v) in [1.0f32, 0.9, -0.9].iter().enumerate() {
        w.set_reg32(4 + i, 0, v.to_bits());
    }
    run_group(
        gather_code(tex_word(false, 16, true, 8, 0, 6, 0), 2),
        &mut w,
        &dev,
    )
    .unwrap();
    assert_eq!(bytes_of(&w), [7; 4]);
}

/// Shadow gather (GL 4.6 8.23.1 with textureGather: each footprint texel compared): depth d(x, y)
/// = (x + 4y) / 16, s = 0.3 (u - 1/2 = 0.7: i0 = 0, i1 = 1), t = 0.4 (v - 1/2 = 1.1: j0 = 1, j1 = 2),
/// texels (0, 2), (1, 2), (1, 1), (0, 1) = 8/16, 9/16, 5/16, 4/16; reference 5/16 with LEQUAL
/// (func 0): 1, 1, 1, 0.
#[test]
fn shadow_gather() {
    let mut dev = DeviceMemory::new();
    let a = depth_image(&mut dev);
    let mut desc = texture(2, [0, 0, 0, 4], 4, 4, a);
    let v =
        u128::from_le_bytes(desc[..16].try_into().unwrap()) & !(0x3FF << 6) | 0x21 << 6 | 4 << 13;
    desc[..16].copy_from_slice(&v.to_le_bytes());
    let code = with_q6(
        with_extension(tex_word(false, 16, true, 8, 0, 2, 0), 14, true, false),
        2,
    );
    let mut w = WaveState::new(12);
    w.textures = vec![desc];
    w.samplers = vec![sampler(1, 1)];
    w.exec = 1;
    w.set_reg32(4, 0, 0.3f32.to_bits());
    w.set_reg32(5, 0, 0.4f32.to_bits());
    w.set_reg32(7, 0, (5.0f32 / 16.0).to_bits());
    run_group(code, &mut w, &dev).unwrap();
    let got: [f32; 4] = std::array::from_fn(|c| f32::from_bits(w.reg32(8 + c, 0)));
    assert_eq!(got, [1.0, 1.0, 1.0, 0.0]);
}

/// Register-indexed and bindless handles (Mesa 25.0 `agx_pack_texture`/`agx_pack_sampler`): `Tt`
/// = 1 (bits 38-39) with T (32-37) a 16-bit register holding the texture state index, `St` = 1
/// (bit 62) with S (56-61) a 16-bit register holding the sampler index; `Tt` = 3 with T a 32-bit
/// register holding a byte offset and U (extension bits 0-4) the 64-bit uniform base in 64-bit
/// units. Thread l: texture index l % 2 (r7l), sampler index l / 2 % 2 (r7h), s = 1.25, t = 0.375.
/// Texture 0 is the 4x4 image with swizzle (R, G, B, A), texture 1 the same with (B, B, B, B);
/// sampler 0 repeats (x = floor(5) mod 4 = 1), sampler 1 clamps (x = 3). y = 1. So red is 17 or 49
/// and the B-swizzled texture gives 3 everywhere. Bindless: the descriptor of texture 1 at base
/// 0x20000 (u2_u3) + offset 24 (r7): every thread gets (3, 3, 3, 3).
#[test]
fn register_indexed_and_bindless_handles() {
    let mut dev = DeviceMemory::new();
    let a = image(&mut dev);
    let t0 = texture(2, [0, 1, 2, 3], 4, 4, a);
    let t1 = texture(2, [2, 2, 2, 2], 4, 4, a);
    let word = u64::from_le_bytes(tex_word(false, 16, true, 8, 0, 2, 0));
    // T = r7l (16-bit unit 14), Tt = 1; S = r7h (15), St = 1
    let indexed = word & !(0x3F << 32) | 14 << 32 | 1 << 38 | 15 << 56 | 1 << 62;
    let mut code = indexed.to_le_bytes().to_vec();
    code.extend([0x88, 0x00]);
    let mut w = WaveState::new(12);
    w.textures = vec![t0, t1];
    w.samplers = vec![sampler(1, 1), sampler(0, 0)];
    for l in 0..SIMD_WIDTH {
        w.set_reg32(4, l, 1.25f32.to_bits());
        w.set_reg32(5, l, 0.375f32.to_bits());
        w.set_reg32(7, l, (l as u32 % 2) | (l as u32 / 2 % 2) << 16);
    }
    run_group(code, &mut w, &dev).unwrap();
    for l in 0..SIMD_WIDTH {
        let x = if l / 2 % 2 == 0 { 1 } else { 3 };
        let want = if l % 2 == 0 {
            [16 * x + 1, 18, 3, 4]
        } else {
            [3; 4]
        };
        let got: [u32; 4] =
            std::array::from_fn(|c| (f32::from_bits(w.reg32(8 + c, l)) * 255.0).round() as u32);
        assert_eq!(got, want, "thread {l}");
    }
    // bindless: Tt = 3, T = r7 (16-bit units 14), U = 1 (u2_u3) in the extension word's bits 0-4
    let heap = dev.alloc(64, 64).unwrap();
    dev.write(heap + 24, &t1).unwrap();
    let bindless = word & !(0x3F << 32) | 14 << 32 | 3 << 38 | 1 << 15;
    let mut code = bindless.to_le_bytes().to_vec();
    code.extend(1u32.to_le_bytes());
    code.extend([0x88, 0x00]);
    let mut w = WaveState::new(12);
    w.samplers = vec![sampler(1, 1)];
    w.set_uniform64(2, heap);
    for l in 0..SIMD_WIDTH {
        w.set_reg32(4, l, 1.25f32.to_bits());
        w.set_reg32(5, l, 0.375f32.to_bits());
        w.set_reg32(7, l, 24);
    }
    run_group(code, &mut w, &dev).unwrap();
    for l in 0..SIMD_WIDTH {
        let got: [u32; 4] =
            std::array::from_fn(|c| (f32::from_bits(w.reg32(8 + c, l)) * 255.0).round() as u32);
        assert_eq!(got, [3; 4], "thread {l}");
    }
}

/// Automatic LOD (GL 4.6 8.14.1), only under the opt-in (`texture automatic LOD`): a quad
/// (threads 0-3, thread = dx + 2dy) samples s = 0.1 + k dx / 4, t = 0.1 + k dy / 4 on the 4x4
/// base level: du/dx = dv/dy = k texels a pixel, rho = k, lambda = log2 k; with the bias mode
/// (5, bias f16 in r6l) lambda + bias. NEAREST mip filter: k = 2 (lambda 1) -> level 1; k = 4
/// (lambda 2) -> level 2; k = 4 with bias -1 -> level 1; k = 2 with bias -1 (lambda 0) -> level
/// 0. Thread 0's texel is (0, 0) of the level: (1, 2, 100 + level, 4). A quad thread that is not
/// running is a typed error.
#[test]
fn automatic_lod_is_an_opt_in() {
    let mut dev = DeviceMemory::new();
    let a = mipmapped(&mut dev, 3, 1);
    let desc = with_levels(texture(2, [0, 1, 2, 3], 4, 4, a), 0, 2);
    let run_quad = |k: f32, bias: Option<f32>, approximate: bool, exec: u32| {
        let mode = if bias.is_some() { 5 } else { 0 };
        let d16 = if bias.is_some() { 12 } else { 0 };
        let mut code = tex_word(false, 16, true, 8, d16, 2, mode).to_vec();
        code.extend([0x88, 0x00]);
        let mut w = WaveState::new(12);
        w.textures = vec![desc];
        w.samplers = vec![mip_sampler(1, 0x380)];
        w.approximate = approximate;
        w.exec = exec;
        for l in 0..4 {
            let (dx, dy) = ((l & 1) as f32, (l >> 1) as f32);
            w.set_reg32(4, l, (0.1 + k * dx / 4.0).to_bits());
            w.set_reg32(5, l, (0.1 + k * dy / 4.0).to_bits());
            w.set_reg32(
                6,
                l,
                u32::from(half::f16::from_f32(bias.unwrap_or(0.0)).to_bits()),
            );
        }
        run_group(code, &mut w, &dev).map(|_| w)
    };
    for (k, bias, level) in [
        (2.0f32, None, 1u32),
        (4.0, None, 2),
        (4.0, Some(-1.0f32), 1),
        (2.0, Some(-1.0), 0),
    ] {
        let w = run_quad(k, bias, true, 0xF).unwrap();
        assert_eq!(bytes_of(&w), [1, 2, 100 + level, 4], "k {k} bias {bias:?}");
        assert_eq!(
            w.approximated.get(wavesim_agx::exec::texture::AUTO_LOD),
            Some(&1)
        );
    }
    assert!(matches!(
        run_quad(2.0, None, false, 0xF),
        Err(Fault::Unsupported { name }) if name == wavesim_agx::exec::texture::AUTO_LOD
    ));
    assert!(matches!(
        run_quad(2.0, None, true, 0x7),
        Err(Fault::UnsupportedForm { .. })
    ));
}

/// The descriptor with cmdbuf.xml `Channels` (bits 6-12) and `Type` (13-15) replaced.
fn with_format(d: [u8; 24], channels: u128, ty: u128) -> [u8; 24] {
    let mut v = u128::from_le_bytes(d[..16].try_into().unwrap());
    v = v & !(0x3FF << 6) | channels << 6 | ty << 13;
    let mut out = d;
    out[..16].copy_from_slice(&v.to_le_bytes());
    out
}

/// ail's largest tile depends on the texel size (`ail_get_max_tile_size`: one 16 KiB page).
/// R16 unorm (2 bytes, 128x64 tiles), 200x100, texel (130, 70): two tiles a row, tile 1 * 2 + 1
/// = 3; inside, x = 2 -> Morton bits 0b100, y = 6 -> 0b10100 << 1 = 40: element 3 * 8192 + 44,
/// byte 2 * that = 49240. R32G32 (8 bytes, 64x32 tiles), 100x70, texel (70, 40): tile 1 * 2 + 1
/// = 3, inside x = 6 -> 20, y = 8 -> 64 << 1 = 128: (3 * 2048 + 148) * 8 = 50336. R8 (1 byte,
/// 128x128 tiles), 300x200 (level 0 is a large level: both sides reach a tile), texel (260,
/// 130): three tiles a row, tile 1 * 3 + 2 = 5, inside x = 4 -> 16, y = 2 -> 4 << 1 = 8: byte
/// 5 * 16384 + 24 = 81944.
#[test]
fn tile_size_follows_the_texel_size() {
    let d =
        |ch, ty, w, h| TextureDesc::decode(&with_format(texture(2, [0, 1, 2, 3], w, h, 0), ch, ty));
    assert_eq!(texel_offset(&d(0x09, 0, 200, 100), 130, 70).unwrap(), 49240);
    assert_eq!(texel_offset(&d(0x31, 4, 100, 70), 70, 40).unwrap(), 50336);
    assert_eq!(
        texel_offset(&d(0x00, 2, 300, 200), 260, 130).unwrap(),
        81944
    );
}

/// Integer textures return integers (GL's integer samplers): the harness image read as
/// R8G8B8A8 uint, thread 0 sampling (0.6, 0.3) -> texel (2, 1) = (33, 18, 3, 4); swizzle (B, R,
/// 1, 0) -> (3, 33, 1, 0), the 1 an integer. 32-bit destinations hold the integers, 16-bit ones
/// too when they fit; read as R32 uint the texel is 0x04031221, which no 16-bit register holds
/// (a typed error), while a 32-bit one does. A linear filter on an integer texture is a typed
/// error even under the approximation opt-in (GL 4.6 8.17: the texture is incomplete).
#[test]
fn integer_textures_return_integers() {
    let mut dev = DeviceMemory::new();
    let a = image(&mut dev);
    let run_with = |desc: [u8; 24], samp: [u8; 8], wide: bool| {
        let mut code = tex_word(false, 16, wide, 8, 0, 2, 0).to_vec();
        code.extend([0x88, 0x00]);
        let mut w = WaveState::new(12);
        w.textures = vec![desc];
        w.samplers = vec![samp];
        w.approximate = true;
        w.exec = 1;
        w.set_reg32(4, 0, 0.6f32.to_bits());
        w.set_reg32(5, 0, 0.3f32.to_bits());
        run_group(code, &mut w, &dev).map(|_| w)
    };
    let rgba8ui = with_format(texture(2, [2, 0, 4, 5], 4, 4, a), 0x28, 2);
    let w = run_with(rgba8ui, sampler(0, 0), true).unwrap();
    assert_eq!(
        std::array::from_fn::<u32, 4, _>(|c| w.reg32(8 + c, 0)),
        [3, 33, 1, 0]
    );
    let w = run_with(rgba8ui, sampler(0, 0), false).unwrap();
    assert_eq!(
        std::array::from_fn::<u16, 4, _>(|c| w.half(16 + c, 0)),
        [3, 33, 1, 0]
    );
    let r32ui = with_format(texture(2, [0, 1, 2, 3], 4, 4, a), 0x21, 2);
    let w = run_with(r32ui, sampler(0, 0), true).unwrap();
    assert_eq!(w.reg32(8, 0), 0x0403_1221);
    assert!(matches!(
        run_with(r32ui, sampler(0, 0), false),
        Err(Fault::UnsupportedForm { .. })
    ));
    let linear = (1u64 << 23 | 1 << 25).to_le_bytes();
    assert!(matches!(
        run_with(rgba8ui, linear, true),
        Err(Fault::UnsupportedForm { .. })
    ));
}

/// A 3D image above level 0 (ail: slice z of level l is layer z's level l, and level l has
/// max(depth >> l, 1) slices). 4x4x4 RGBA8 with two levels: level 1 (2x2x2) at byte 128 of each
/// 16 KiB layer, texel (x, y, z) = (x, y, z, 201). Explicit LOD 1.0 with a NEAREST mip filter ->
/// level 1 (GL 4.6 8.14.3: ceil(1.5) - 1); (s, t, r) = (0.75, 0.25, 0.75) -> floor(1.5) = 1,
/// floor(0.5) = 0, floor(1.5) = 1: (1, 0, 1, 201). A texel fetch of level 1 at (0, 1, 1) reads
/// (0, 1, 1, 201); at slice 2 (outside level 1's two) it is a typed error.
#[test]
fn three_d_levels() {
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(4 * 0x4000, 64).unwrap();
    for z in 0..2u32 {
        for y in 0..2u32 {
            for x in 0..2u32 {
                let m = (x & 1) | (y & 1) << 1;
                let at = a + u64::from(z) * 0x4000 + 128 + 4 * u64::from(m);
                dev.write(at, &[x as u8, y as u8, z as u8, 201]).unwrap();
            }
        }
    }
    let mut desc = with_levels(texture(5, [0, 1, 2, 3], 4, 4, a), 0, 1);
    desc[13] |= 3 << 6; // depth - 1 = 3
                        // coordinates r4-r6, the LOD in r7l (16-bit unit 14)
    let mut code = tex_word(false, 16, true, 8, 14, 5, 6).to_vec();
    code.extend([0x88, 0x00]);
    let mut w = WaveState::new(12);
    w.textures = vec![desc];
    w.samplers = vec![mip_sampler(1, 0x380)];
    w.exec = 1;
    for (i, v) in [0.75f32, 0.25, 0.75].iter().enumerate() {
        w.set_reg32(4 + i, 0, v.to_bits());
    }
    w.set_reg32(7, 0, u32::from(half::f16::from_f32(1.0).to_bits()));
    run_group(code, &mut w, &dev).unwrap();
    assert_eq!(bytes_of(&w), [1, 0, 1, 201]);
    let mut code = tex_word(true, 16, true, 8, 14, 5, 6).to_vec();
    code.extend([0x88, 0x00]);
    for (z, want) in [(1u32, Some([0, 1, 1, 201])), (2, None)] {
        let mut w = WaveState::new(12);
        w.textures = vec![desc];
        w.exec = 1;
        for (i, v) in [0u32, 1, z].iter().enumerate() {
            w.set_reg32(4 + i, 0, *v);
        }
        w.set_reg32(7, 0, 1);
        let r = run_group(code.clone(), &mut w, &dev);
        match want {
            Some(b) => {
                r.unwrap();
                assert_eq!(bytes_of(&w), b);
            }
            None => assert!(matches!(r, Err(Fault::UnsupportedForm { .. }))),
        }
    }
}

/// sRGB R8G8 (Mesa sets `sRGB` (108) and `sRGB 2-channel` (109) together for two-channel
/// formats): both channels through the M1's measured table (applegpu: 0 -> 0, 1 -> f64 bits
/// 0x3f30010020000000, 255 -> 1), B = 0, A = 1. A 4x4 image, texel (x, y) = (R = [0, 1, 255,
/// 0][x], G = [255, 1, 0, 0][y]) at 2 * Morton(x, y); texel fetches. Without the 2-channel bit
/// the descriptor is one Mesa never builds: a typed error.
#[test]
fn srgb_two_channel_texels() {
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(64, 64).unwrap();
    let codes = [0u8, 1, 255, 0];
    let gs = [255u8, 1, 0, 0];
    for y in 0..4u32 {
        for x in 0..4u32 {
            let m = (x & 1) | (x & 2) << 1 | (y & 1) << 1 | (y & 2) << 2;
            dev.write(a + 2 * u64::from(m), &[codes[x as usize], gs[y as usize]])
                .unwrap();
        }
    }
    let linear = |c: u8| match c {
        0 => 0.0f32,
        1 => f64::from_bits(0x3f30010020000000) as f32,
        _ => 1.0,
    };
    let mut desc = with_format(texture(2, [0, 1, 2, 3], 4, 4, a), 0x0A, 0);
    desc[13] |= 1 << 4; // sRGB
    let mut code = tex_word(true, 16, true, 8, 12, 2, 6).to_vec();
    code.extend([0x88, 0x00]);
    let setup = |d: [u8; 24]| {
        let mut w = WaveState::new(12);
        w.textures = vec![d];
        w.exec = 0xFFFF;
        for l in 0..16 {
            w.set_reg32(4, l, l as u32 % 4);
            w.set_reg32(5, l, l as u32 / 4);
            w.set_reg32(6, l, 0);
        }
        w
    };
    let mut w = setup(desc);
    assert!(matches!(
        run_group(code.clone(), &mut w, &dev),
        Err(Fault::UnsupportedForm { .. })
    ));
    desc[13] |= 1 << 5; // sRGB 2-channel
    let mut w = setup(desc);
    run_group(code, &mut w, &dev).unwrap();
    for l in 0..16 {
        let want = [linear(codes[l % 4]), linear(gs[l / 4]), 0.0, 1.0].map(f32::to_bits);
        let got: [u32; 4] = std::array::from_fn(|c| w.reg32(8 + c, l));
        assert_eq!(got, want, "thread {l}");
    }
}

/// Mixed filters (GL 4.6 8.14): lambda <= c magnifies, c = 0.5 for a LINEAR magnification filter
/// with NEAREST_MIPMAP_* minification (mag linear, min nearest, mip nearest here). Thread 0 at
/// (0.6, 0.3) of the 3-level image (`explicit_lod_run`): explicit LOD 1.0 > 0.5 minifies ->
/// NEAREST_MIPMAP_NEAREST, level ceil(1.5) - 1 = 1, texel (1, 0) -> (17, 2, 101, 4), no opt-in
/// needed; LOD 0 magnifies -> LINEAR at the base level, only under the opt-in: u = 0.6 * 4 - 1/2,
/// v = 0.3 * 4 - 1/2 -> texels (1..2, 0..1) with weights (1 - a, a) x (1 - b, b), a = frac(u),
/// b = frac(v), each texel (16x + 1, 16y + 2, 100, 4) / 255, summed in f64 in that order and
/// rounded once; LOD 0.5 (within 2^-6 of c) is a typed error.
#[test]
fn mixed_filters_follow_the_magnification_threshold() {
    let mut dev = DeviceMemory::new();
    let a = mipmapped(&mut dev, 3, 1);
    let desc = with_levels(texture(2, [0, 1, 2, 3], 4, 4, a), 0, 2);
    let samp = (u64::from_le_bytes(mip_sampler(1, 0x380)) | 1 << 23).to_le_bytes();
    let w = explicit_lod_run(&dev, desc, samp, 1.0, false).unwrap();
    assert_eq!(bytes_of(&w), [17, 2, 101, 4]);
    assert!(matches!(
        explicit_lod_run(&dev, desc, samp, 0.0, false),
        Err(Fault::Unsupported { name }) if name == wavesim_agx::exec::texture::LINEAR_FILTER
    ));
    let w = explicit_lod_run(&dev, desc, samp, 0.0, true).unwrap();
    let u = f64::from(0.6f32) * 4.0 - 0.5;
    let v = f64::from(0.3f32) * 4.0 - 0.5;
    let (fa, fb) = (u - u.floor(), v - v.floor());
    let mut want = [0f64; 4];
    let mut first = true;
    for (x, wx) in [(1u32, 1.0 - fa), (2, fa)] {
        for (y, wy) in [(0u32, 1.0 - fb), (1, fb)] {
            let texel = [16 * x + 1, 16 * y + 2, 100, 4].map(|b| f64::from(b) / 255.0);
            for (acc, t) in want.iter_mut().zip(texel) {
                let weight = wx * wy;
                *acc = if first { weight * t } else { *acc + weight * t };
            }
            first = false;
        }
    }
    let got: [u32; 4] = std::array::from_fn(|c| w.reg32(8 + c, 0));
    assert_eq!(got, want.map(|v| (v as f32).to_bits()));
    assert!(matches!(
        explicit_lod_run(&dev, desc, samp, 0.5, true),
        Err(Fault::UnsupportedForm { .. })
    ));
}

/// Gradient LOD (Mesa's txd: LOD mode 4, D = 32-bit (ds/dx, ds/dy, dt/dx, dt/dy) in r12-r15;
/// mode 12 adds the minimum LOD, an f16 in r16's low half), GL 4.6 8.14.1 under the opt-in:
/// u = s * 4, v = t * 4, rho = max(|(du/dx, dv/dx)|, |(du/dy, dv/dy)|), lambda = log2(rho).
/// Thread 0 at (0.6, 0.3), NEAREST mip filter: ds/dx = 0.5 -> rho = 2, lambda 1 -> level 1
/// (17, 2, 101, 4); dt/dy = 1 -> rho 4, lambda 2 -> level 2 (1, 2, 102, 4); ds/dx = 0.5 with the
/// minimum 2.0 -> lambda max(1, 2) = 2 -> level 2. Without the opt-in it stops naming `texture
/// gradient LOD`; without a mip filter (and equal filters) the LOD is not needed: level 0 (33,
/// 18, 100, 4) and no opt-in.
#[test]
fn gradient_lod_is_an_opt_in() {
    let mut dev = DeviceMemory::new();
    let a = mipmapped(&mut dev, 3, 1);
    let desc = with_levels(texture(2, [0, 1, 2, 3], 4, 4, a), 0, 2);
    let run_grad = |mode: u64, grads: [f32; 4], min: f32, mip: u64, approximate: bool| {
        let mut code = tex_word(false, 16, true, 8, 24, 2, mode).to_vec();
        code.extend([0x88, 0x00]);
        let mut w = WaveState::new(20);
        w.textures = vec![desc];
        w.samplers = vec![mip_sampler(mip, 0x380)];
        w.approximate = approximate;
        w.exec = 1;
        w.set_reg32(4, 0, 0.6f32.to_bits());
        w.set_reg32(5, 0, 0.3f32.to_bits());
        for (i, g) in grads.iter().enumerate() {
            w.set_reg32(12 + i, 0, g.to_bits());
        }
        w.set_reg32(16, 0, u32::from(half::f16::from_f32(min).to_bits()));
        run_group(code, &mut w, &dev).map(|_| w)
    };
    let name = wavesim_agx::exec::texture::GRADIENT_LOD;
    assert!(matches!(
        run_grad(4, [0.5, 0.0, 0.0, 0.0], 0.0, 1, false),
        Err(Fault::Unsupported { name: n }) if n == name
    ));
    for (mode, grads, min, want) in [
        (4, [0.5f32, 0.0, 0.0, 0.0], 0.0f32, [17, 2, 101, 4]),
        (4, [0.0, 0.0, 0.0, 1.0], 0.0, [1, 2, 102, 4]),
        (12, [0.5, 0.0, 0.0, 0.0], 2.0, [1, 2, 102, 4]),
    ] {
        let w = run_grad(mode, grads, min, 1, true).unwrap();
        assert_eq!(bytes_of(&w), want, "mode {mode} grads {grads:?} min {min}");
        assert_eq!(w.approximated.get(name), Some(&1));
    }
    let w = run_grad(4, [0.5, 0.0, 0.0, 0.0], 0.0, 0, false).unwrap();
    assert_eq!(bytes_of(&w), [33, 18, 100, 4]);
}

/// Layers without `Page-aligned layers` (bit 126 clear, as Mesa 25.0 leaves it for a one-level
/// sampled array) are the miptree's size apart: a 4x4 RGBA8 2D array (64 bytes, padded to 128)
/// has layer z at 128 z. With `Unk mipmapped` (bit 102) the stride counts the whole chain even
/// for a view of level 0 only (4x4, 2x2, 1x1: three 128-byte levels = 384). Texel fetch of (1,
/// 2) in layer 2: 4 * Morton(1, 2) = 4 * 9 = 36 bytes into the layer, the bytes 200 + z there.
#[test]
fn layer_stride_follows_the_descriptor() {
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(4096, 64).unwrap();
    let mut code = tex_word(true, 16, true, 8, 0, 3, 0).to_vec();
    code.extend([0x88, 0x00]);
    for (mipmapped, stride) in [(false, 128u64), (true, 384)] {
        for z in 0..3u64 {
            dev.write(a + z * stride + 36, &[200 + z as u8, 0, 0, 0])
                .unwrap();
        }
        let mut desc = texture(3, [0, 1, 2, 3], 4, 4, a);
        desc[15] &= !(1 << 6); // bit 126 clear
        desc[13] |= 2 << 6; // layers - 1 = 2
        if mipmapped {
            desc[12] |= 1 << 6; // bit 102
        }
        let mut w = WaveState::new(12);
        w.textures = vec![desc];
        w.exec = 1;
        // the array form's halves: x = 1 (r4l, r4h), y = 2 (r5l, r5h), layer 2 (r6l)
        w.set_reg32(4, 0, 1);
        w.set_reg32(5, 0, 2);
        w.set_reg32(6, 0, 2);
        run_group(code.clone(), &mut w, &dev).unwrap();
        assert_eq!(bytes_of(&w), [202, 0, 0, 0], "mipmapped {mipmapped}");
    }
}

/// A texture buffer as Mesa 25.0 binds it (`agx_pack_texture` for PIPE_BUFFER: a linear 2D image
/// 1024 texels wide, `Stride` = 1024 * blocksize - 16): R32G32B32A32 float, 16-byte texels, rows
/// 16384 bytes apart (field (16384 - 16) >> 4 = 1023 at bit 110); texel (x, y) at 16384 y + 16 x.
/// Texel (1000, 1) holds (1.5, -2, 0.25, 8), fetched exactly into f32 registers.
#[test]
fn linear_texture_buffer_of_16_byte_texels() {
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(2 * 16384, 64).unwrap();
    let texel: Vec<u8> = [1.5f32, -2.0, 0.25, 8.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    dev.write(a + 16384 + 16 * 1000, &texel).unwrap();
    let mut desc = with_format(texture(2, [0, 1, 2, 3], 1024, 2, a), 0x38, 4);
    let mut v = u128::from_le_bytes(desc[..16].try_into().unwrap());
    v = v & !(3 << 4) & !(((1u128 << 18) - 1) << 110) | 1023 << 110; // linear, stride
    desc[..16].copy_from_slice(&v.to_le_bytes());
    let mut code = tex_word(true, 16, true, 8, 12, 2, 6).to_vec();
    code.extend([0x88, 0x00]);
    let mut w = WaveState::new(12);
    w.textures = vec![desc];
    w.exec = 1;
    w.set_reg32(4, 0, 1000);
    w.set_reg32(5, 0, 1);
    w.set_reg32(6, 0, 0);
    run_group(code, &mut w, &dev).unwrap();
    let got: [f32; 4] = std::array::from_fn(|c| f32::from_bits(w.reg32(8 + c, 0)));
    assert_eq!(got, [1.5, -2.0, 0.25, 8.0]);
}

/// cmdbuf.xml SAMPLER (Mesa 25.0) with clamp to border (3) on S and T and `Border colour` (bits
/// 55-56) `mode`.
fn border_sampler(mode: u64) -> [u8; 8] {
    (u64::from_le_bytes(sampler(3, 3)) | mode << 55).to_le_bytes()
}

/// cmdbuf.xml BORDER: four 32-bit channel words.
fn border_bytes(words: &[u32; 4]) -> [u8; 16] {
    let mut bytes = [0u8; 16];
    for (c, v) in words.iter().enumerate() {
        bytes[4 * c..4 * c + 4].copy_from_slice(&v.to_le_bytes());
    }
    bytes
}

/// Clamp to border, nearest (GL 4.6 8.14.2: a texel index outside the image reads the border
/// colour). Threads 0-2 sample s = 0.375 (x = 1, inside), -0.1 (floor(-0.4) = -1) and 1.1
/// (floor(4.4) = 4), t = 0.375 (y = 1). Thread 0 reads texel (1, 1) = (17, 18, 3, 4). The border
/// goes through the descriptor's swizzle like a texel (Mesa's `agx_border.c`): with (B, R, 1, 0),
/// transparent black (0, 0, 0, 0) -> (0, 0, 1, 0); opaque black (0, 0, 0, 1) -> (0, 0, 1, 0);
/// opaque white (1, 1, 1, 1) -> (1, 1, 1, 0); custom words (51, 102, 255, 0) in the RGBA8 unorm
/// encoding (`agx_pack_border`) = (0.2, 0.4, 1, 0) -> (1, 0.2, 1, 0). A custom colour with no
/// BORDER bound (compact sampler state) and a word beyond 8 bits are typed errors.
#[test]
fn clamp_to_border_nearest() {
    let mut dev = DeviceMemory::new();
    let a = image(&mut dev);
    let mut code = tex_word(false, 16, true, 8, 0, 2, 0).to_vec();
    code.extend([0x88, 0x00]);
    let run_mode = |mode: u64, border: Option<[u32; 4]>| {
        let mut w = WaveState::new(12);
        w.textures = vec![texture(2, [2, 0, 4, 5], 4, 4, a)];
        w.samplers = vec![border_sampler(mode)];
        w.borders = border.iter().map(border_bytes).collect();
        w.exec = 0b111;
        for (l, s) in [0.375f32, -0.1, 1.1].into_iter().enumerate() {
            w.set_reg32(4, l, s.to_bits());
            w.set_reg32(5, l, 0.375f32.to_bits());
        }
        run_group(code.clone(), &mut w, &dev).map(|_| {
            let f = |l: usize| -> [f32; 4] {
                std::array::from_fn(|c| f32::from_bits(w.reg32(8 + c, l)))
            };
            [f(0), f(1), f(2)]
        })
    };
    let inside = [3.0f32 / 255.0, 17.0 / 255.0, 1.0, 0.0];
    for (mode, border, want) in [
        (0, None, [0.0f32, 0.0, 1.0, 0.0]),
        (1, None, [0.0, 0.0, 1.0, 0.0]),
        (2, None, [1.0, 1.0, 1.0, 0.0]),
        (3, Some([51, 102, 255, 0]), [1.0, 0.2, 1.0, 0.0]),
    ] {
        let got = run_mode(mode, border).unwrap();
        assert_eq!(got, [inside, want, want], "mode {mode}");
    }
    assert!(matches!(
        run_mode(3, None),
        Err(Fault::UnsupportedForm { .. })
    ));
    assert!(matches!(
        run_mode(3, Some([256, 0, 0, 0])),
        Err(Fault::UnsupportedForm { .. })
    ));
}

/// Clamp to border on integer textures (legal with nearest filtering): the harness image as
/// R8G8B8A8 uint, swizzle (R, G, B, A), s = 1.1 (x = 4: border). Opaque white is the integer 1 in
/// every component (Mesa maps Vulkan's INT_OPAQUE_WHITE and FLOAT_OPAQUE_WHITE to the same
/// value); opaque black (0, 0, 0, 1). As R32 sint, a custom border word 0xFFFFFFFB is -5 (Mesa
/// stores pure integers as they are): (-5, 0, 0, 1), the format's missing G, B, A read as a
/// texel's would (0, 0, 1).
#[test]
fn clamp_to_border_integer_formats() {
    let mut dev = DeviceMemory::new();
    let a = image(&mut dev);
    let mut code = tex_word(false, 16, true, 8, 0, 2, 0).to_vec();
    code.extend([0x88, 0x00]);
    let run_with = |desc: [u8; 24], mode: u64, border: [u32; 4]| {
        let mut w = WaveState::new(12);
        w.textures = vec![desc];
        w.samplers = vec![border_sampler(mode)];
        w.borders = vec![border_bytes(&border)];
        w.exec = 1;
        w.set_reg32(4, 0, 1.1f32.to_bits());
        w.set_reg32(5, 0, 0.375f32.to_bits());
        run_group(code.clone(), &mut w, &dev)
            .map(|_| -> [u32; 4] { std::array::from_fn(|c| w.reg32(8 + c, 0)) })
    };
    let rgba8ui = with_format(texture(2, [0, 1, 2, 3], 4, 4, a), 0x28, 2);
    assert_eq!(run_with(rgba8ui, 2, [0; 4]).unwrap(), [1, 1, 1, 1]);
    assert_eq!(run_with(rgba8ui, 1, [0; 4]).unwrap(), [0, 0, 0, 1]);
    let r32i = with_format(texture(2, [0, 1, 2, 3], 4, 4, a), 0x21, 3);
    assert_eq!(
        run_with(r32i, 3, [0xFFFF_FFFB, 0, 0, 0]).unwrap(),
        [0xFFFF_FFFB, 0, 0, 1]
    );
    // Mesa packs 0 for a channel the format lacks
    assert!(matches!(
        run_with(r32i, 3, [5, 7, 0, 0]),
        Err(Fault::UnsupportedForm { .. })
    ));
}

/// Clamp to border with linear filtering (opt-in, GL 4.6 8.14.2): wrap S clamp to border, T clamp
/// to edge, s = 0 (u - 1/2 = -0.5: i0 = -1 (border) and i1 = 0, half each), t = 0.5 (v - 1/2 =
/// 1.5: rows 1 and 2, half each). Opaque white, swizzle identity: R = 1/2 * 1 + 1/4 * (1 + 1) /
/// 255, G = 1/2 + 1/4 (18 + 34) / 255, B = 1/2 + 1/2 * 3/255, A = 1/2 + 1/2 * 4/255.
#[test]
fn clamp_to_border_linear() {
    let mut dev = DeviceMemory::new();
    let a = image(&mut dev);
    let mut code = tex_word(false, 16, true, 8, 0, 2, 0).to_vec();
    code.extend([0x88, 0x00]);
    let mut w = WaveState::new(12);
    w.textures = vec![texture(2, [0, 1, 2, 3], 4, 4, a)];
    w.samplers = vec![(1u64 << 23 | 1 << 25 | 3 << 29 | 2 << 55).to_le_bytes()];
    w.approximate = true;
    w.exec = 1;
    w.set_reg32(4, 0, 0.0f32.to_bits());
    w.set_reg32(5, 0, 0.5f32.to_bits());
    run_group(code, &mut w, &dev).unwrap();
    let want = [
        0.5 + 0.25 * 2.0 / 255.0,
        0.5 + 0.25 * 52.0 / 255.0,
        0.5 + 0.5 * 3.0 / 255.0,
        0.5 + 0.5 * 4.0 / 255.0,
    ];
    for (c, v) in want.iter().enumerate() {
        assert_eq!(w.reg32(8 + c, 0), (*v as f32).to_bits(), "component {c}");
    }
}

/// 3D images: clamp to border on R (nearest): r = 1.2 on 4 slices (floor(4.8) = 4) reads opaque
/// white; trilinear filtering (opt-in, GL 4.6 8.14.2's 3D formula, 8 texels): (s, t, r) = (0.25,
/// 0.5, 0.5) -> u - 1/2 = 0.5 (x 0 and 1), v - 1/2 = 1.5 (y 1 and 2), w - 1/2 = 1.5 (z 1 and 2),
/// each half: texel (16x+1, 16y+2, 16z+3, 4) averages to (9, 26, 27, 4) / 255. With repeat on R
/// and r = 0 (w - 1/2 = -0.5: slices 3 and 0): blue (16 * 3 + 3 + 3) / 2 = 27.
#[test]
fn three_d_border_and_trilinear() {
    let mut dev = DeviceMemory::new();
    let a = layered(&mut dev, 4);
    let mut code = tex_word(false, 16, true, 8, 0, 5, 0).to_vec();
    code.extend([0x88, 0x00]);
    let mut desc = texture(5, [0, 1, 2, 3], 4, 4, a);
    desc[13] |= 3 << 6; // depth - 1 = 3
    let run_at = |samp: u64, str_: [f32; 3]| {
        let mut w = WaveState::new(12);
        w.textures = vec![desc];
        w.samplers = vec![samp.to_le_bytes()];
        w.approximate = true;
        w.exec = 1;
        for (i, v) in str_.iter().enumerate() {
            w.set_reg32(4 + i, 0, v.to_bits());
        }
        run_group(code.clone(), &mut w, &dev).map(|_| bytes_of(&w))
    };
    let border_r = 3u64 << 35 | 2 << 55;
    assert_eq!(run_at(border_r, [0.3, 0.9, 1.2]).unwrap(), [255; 4]);
    assert_eq!(run_at(border_r, [0.3, 0.9, 0.6]).unwrap(), [17, 50, 35, 4]);
    let linear = 1u64 << 23 | 1 << 25;
    assert_eq!(run_at(linear, [0.25, 0.5, 0.5]).unwrap(), [9, 26, 27, 4]);
    let repeat_r = linear | 1 << 35;
    assert_eq!(run_at(repeat_r, [0.25, 0.5, 0.0]).unwrap()[2], 27);
}

/// Linear filtering within a cube face (opt-in): (1, 0.25, -0.5) selects +X at s = 0.75 (u - 1/2
/// = 2.5: i = 2, 3 half each), t = 0.375 (v - 1/2 = 1: j = 1 alone): red (33 + 49) / 2 = 41, green
/// 18, blue 3 (face 0), alpha 4. Without the opt-in, LINEAR_FILTER stops it.
#[test]
fn cube_linear_within_a_face() {
    let mut dev = DeviceMemory::new();
    let a = layered(&mut dev, 6);
    let mut desc = texture(6, [0, 1, 2, 3], 4, 4, a);
    desc[13] |= 5 << 6;
    let mut code = tex_word(false, 16, true, 8, 0, 6, 0).to_vec();
    code.extend([0x88, 0x00]);
    let run_dir = |approximate: bool| {
        let mut w = WaveState::new(12);
        w.textures = vec![desc];
        w.samplers = vec![(1u64 << 23 | 1 << 25).to_le_bytes()];
        w.approximate = approximate;
        w.exec = 1;
        for (i, v) in [1.0f32, 0.25, -0.5].iter().enumerate() {
            w.set_reg32(4 + i, 0, v.to_bits());
        }
        run_group(code.clone(), &mut w, &dev).map(|_| bytes_of(&w))
    };
    assert_eq!(run_dir(true).unwrap(), [41, 18, 3, 4]);
    assert!(matches!(run_dir(false), Err(Fault::Unsupported { .. })));
}

/// Automatic LOD on a cube map (opt-in) by GL 4.6 8.13's derivative transform. Face +Z (Table
/// 8.19: sc = x, tc = -y, ma = z), quad directions: thread 0 (0.5, 0, 1), 1 (0.5, 0, 3), 2 (0.5,
/// -0.25, 1), 3 (0.5, -0.25, 3). Thread 0: sc = 0.5, tc = 0, |ma| = 1; along x the differences
/// are dsc = 0, d|ma| = 2, so ds/dx = (0 * 1 - 0.5 * 2) / (2 * 1) = -0.5, times the face's 4
/// texels -2; along y dtc = 0.25, so dt/dy = 0.125, times 4 = 0.5. rho = 2, lambda = 1: NEAREST
/// mip -> level 1 (2x2), where s = 0.75, t = 0.5 give texel (1, 1) of face 4 = (17, 18, 141, 4).
/// (Differencing s itself would give |du| = 4 (0.75 - 7/12) = 2/3 and level 0: the transform
/// decides.)
#[test]
fn cube_automatic_lod() {
    let mut dev = DeviceMemory::new();
    let a = mipmapped(&mut dev, 2, 6);
    let mut desc = with_levels(texture(6, [0, 1, 2, 3], 4, 4, a), 0, 1);
    desc[13] |= 5 << 6; // depth - 1 = 5
    let mut code = tex_word(false, 16, true, 8, 0, 6, 0).to_vec();
    code.extend([0x88, 0x00]);
    let mut w = WaveState::new(12);
    w.textures = vec![desc];
    w.samplers = vec![mip_sampler(1, 0x380)];
    w.approximate = true;
    w.exec = 0xF;
    for (l, dir) in [
        [0.5f32, 0.0, 1.0],
        [0.5, 0.0, 3.0],
        [0.5, -0.25, 1.0],
        [0.5, -0.25, 3.0],
    ]
    .iter()
    .enumerate()
    {
        for (i, v) in dir.iter().enumerate() {
            w.set_reg32(4 + i, l, v.to_bits());
        }
    }
    run_group(code, &mut w, &dev).unwrap();
    assert_eq!(bytes_of(&w), [17, 18, 141, 4]);
    assert_eq!(
        w.approximated.get(wavesim_agx::exec::texture::AUTO_LOD),
        Some(&1)
    );
}

/// A BC7 block in mode 6 (D3D11 BC7 mode reference) whose every index is 0, so every texel is
/// endpoint 0 = ((r7 << 1) | 1, 1, 255, 255) (7-bit endpoints 127 for B and A, P0 = 1).
fn bc7_solid(r7: u64) -> [u8; 16] {
    let v: u128 = 0x40 | u128::from(r7) << 7 | 127 << 35 | 127 << 49 | 127 << 56 | 1 << 63;
    v.to_le_bytes()
}

/// A compressed texture through the texture unit (ail's layout in 4x4 blocks, `miptree.rs`):
/// 8x8 BC7 (cmdbuf.xml channels 0x7B, unorm) is 2x2 blocks of 16 bytes, below one 32x32-block
/// tile, so level 0 is the power-of-two tree's: one 2x2-block tile in Morton order, block (bx,
/// by) at 16 * (bx | by << 1). Block m holds red 7-bit 20m + 5 (8-bit 40m + 11). Texel fetches:
/// thread 0 (5, 2) is block (1, 0) = m 1: red 51; thread 1 (3, 6) is block (0, 1) = m 2: red 91;
/// both (., 1, 255, 255). Read as BC1 (channels 0x74) the same bytes' colours need the opt-in:
/// Unsupported(BLOCK_INTERPOLATION).
#[test]
fn compressed_texel_fetches() {
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(64, 64).unwrap();
    for m in 0..4u64 {
        dev.write(a + 16 * m, &bc7_solid(20 * m + 5)).unwrap();
    }
    let mut code = tex_word(true, 16, true, 8, 12, 2, 6).to_vec();
    code.extend([0x88, 0x00]);
    let run_with = |channels: u128| {
        let mut w = WaveState::new(12);
        w.textures = vec![with_format(texture(2, [0, 1, 2, 3], 8, 8, a), channels, 0)];
        w.exec = 0b11;
        for (l, (x, y)) in [(5u32, 2u32), (3, 6)].into_iter().enumerate() {
            w.set_reg32(4, l, x);
            w.set_reg32(5, l, y);
            w.set_reg32(6, l, 0);
        }
        run_group(code.clone(), &mut w, &dev).map(|_| {
            let lane = |l: usize| -> [u32; 4] {
                std::array::from_fn(|c| (f32::from_bits(w.reg32(8 + c, l)) * 255.0).round() as u32)
            };
            [lane(0), lane(1)]
        })
    };
    assert_eq!(
        run_with(0x7B).unwrap(),
        [[51, 1, 255, 255], [91, 1, 255, 255]]
    );
    assert!(matches!(
        run_with(0x74),
        Err(Fault::Unsupported { name }) if name == wavesim_agx::exec::compressed::BLOCK_INTERPOLATION
    ));
}

/// EAC R11 (cmdbuf.xml channels 0x5B, unorm; Khronos Data Format Specification 1.3, "Format
/// Unsigned R11 EAC") through the texture unit: 8x8 is 2x2 blocks of 8 bytes in one tile, block
/// (bx, by) at 8 * (bx | by << 1) (Morton order, as `compressed_texel_fetches`). Block m: base
/// 50 + 10m, multiplier 0, table 13, every index 4 (modifier 0), so every texel is 8 * base + 4:
/// thread 0 (5, 2) is block m 1: 484; thread 1 (3, 6) is block m 2: 564; each / 2047 rounded
/// once to f32, G = B = 0, A = 1. The same bytes as signed (type 1): 8 * base / 1023 (480, 560).
#[test]
fn eac_r11_texel_fetches() {
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(32, 64).unwrap();
    for m in 0..4u64 {
        let word = (50 + 10 * m) << 56 | 13 << 48 | 0x9249_2492_4924; // index 4 = 0b100 each
        dev.write(a + 8 * m, &word.to_be_bytes()).unwrap();
    }
    let mut code = tex_word(true, 16, true, 8, 12, 2, 6).to_vec();
    code.extend([0x88, 0x00]);
    let run_with = |ty: u128| {
        let mut w = WaveState::new(12);
        w.textures = vec![with_format(texture(2, [0, 1, 2, 3], 8, 8, a), 0x5B, ty)];
        w.exec = 0b11;
        for (l, (x, y)) in [(5u32, 2u32), (3, 6)].into_iter().enumerate() {
            w.set_reg32(4, l, x);
            w.set_reg32(5, l, y);
            w.set_reg32(6, l, 0);
        }
        run_group(code.clone(), &mut w, &dev).unwrap();
        let lane =
            |l: usize| -> [f32; 4] { std::array::from_fn(|c| f32::from_bits(w.reg32(8 + c, l))) };
        [lane(0), lane(1)]
    };
    let u = |v: f64| (v / 2047.0) as f32;
    assert_eq!(
        run_with(0),
        [[u(484.0), 0.0, 0.0, 1.0], [u(564.0), 0.0, 0.0, 1.0]]
    );
    let s = |v: f64| (v / 1023.0) as f32;
    assert_eq!(
        run_with(1),
        [[s(480.0), 0.0, 0.0, 1.0], [s(560.0), 0.0, 0.0, 1.0]]
    );
}

// ---- ASTC through the texture unit (exec/astc, exec/compressed.rs) ----

/// A 2D void-extent ASTC block (Khronos Data Format Specification, "Void-Extent Blocks"): bits
/// 0-8 0x1FC, bit 9 LDR, bits 10-11 1, all-ones extent (a constant block), then R, G, B, A as
/// UNORM16.
fn astc_constant(rgba: [u128; 4]) -> [u8; 16] {
    (0xDFC
        | 0xF_FFFF_FFFF_FFFF << 12
        | rgba[0] << 64
        | rgba[1] << 80
        | rgba[2] << 96
        | rgba[3] << 112)
        .to_le_bytes()
}

/// A 4x4 single-partition ASTC block (as `exec::astc`'s `hand_block`): block mode 0x042 (a 4x4
/// grid of 2-bit weights), CEM 8 with the bytes v = (10, 250, 20, 240, 30, 230) from bit 17, so
/// e0 = (10, 20, 30, 255) and e1 = (250, 240, 230, 255); weights 0-3 = 0, 3, 1, 2 (unquantised
/// 0, 64, 21, 43) from bit 127 down.
fn astc_rgb_direct() -> [u8; 16] {
    let mut b: u128 = 0x042 | 8 << 13;
    for (i, v) in [10u128, 250, 20, 240, 30, 230].into_iter().enumerate() {
        b |= v << (17 + 8 * i);
    }
    for (k, w) in [0u128, 3, 1, 2].into_iter().enumerate() {
        b |= (w & 1) << (127 - 2 * k) | (w >> 1) << (126 - 2 * k);
    }
    b.to_le_bytes()
}

/// Texel fetches from ASTC textures (cmdbuf.xml channels 0x60 + footprint index, unorm), laid
/// out in blocks as ail lays compressed images out: 2x2 blocks of 16 bytes in one tile, block
/// (bx, by) at 16 * (bx | by << 1) (as `compressed_texel_fetches`).
///
/// ASTC 4x4 (0x60), 8x8: block 0 the RGB-direct block, 1 and 3 constant, 2 all zeros (block mode
/// 0: reserved, the error colour). Thread 0 reads (2, 0), block 0's texel 2 (weight 21): R =
/// (2570 x 43 + 64250 x 21 + 32) / 64 = 22809 -> FP16 0x3591 (exponent 13, mantissa (22809 x 4 -
/// 65536) >> 6 = 401, toward zero) = 0.3479, A = 65535 -> 1.0. Thread 1 reads (5, 1), block 1:
/// constant (0x4000, 0xFFFF, 0x1234, 0x8000) -> (0.25, 1.0, FP16 0x2C8D = 0.071105957..., 0.5).
/// In linear mode the illegal block is a typed error (magenta or NaNs is the implementation's
/// choice); in sRGB mode (bit 108) it is magenta, and block 1's G and A are the top 8 bits: G
/// 0xFF through the sRGB table (1.0), A 0x80 / 255.
///
/// ASTC 6x5 (0x63), 12x10: constant blocks m = 0-3 with R = 0x4000 m: thread 0 (7, 2) is block
/// (1, 0), R 0.25; thread 1 (3, 6) block (0, 1), R 0.5; thread 2 (11, 9) block (1, 1), R 0.75.
#[test]
fn astc_texel_fetches() {
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(64, 64).unwrap();
    let constant = astc_constant([0x4000, 0xFFFF, 0x1234, 0x8000]);
    for (m, block) in [astc_rgb_direct(), constant, [0; 16], constant]
        .iter()
        .enumerate()
    {
        dev.write(a + 16 * m as u64, block).unwrap();
    }
    let b = dev.alloc(64, 64).unwrap();
    for m in 0..4u128 {
        dev.write(
            b + 16 * m as u64,
            &astc_constant([0x4000 * m, 0, 0, 0xFFFF]),
        )
        .unwrap();
    }
    let mut code = tex_word(true, 16, true, 8, 12, 2, 6).to_vec();
    code.extend([0x88, 0x00]);
    let run_with = |desc: [u8; 24], texels: &[(u32, u32)]| {
        let mut w = WaveState::new(12);
        w.textures = vec![desc];
        w.exec = (1 << texels.len()) - 1;
        for (l, &(x, y)) in texels.iter().enumerate() {
            w.set_reg32(4, l, x);
            w.set_reg32(5, l, y);
            w.set_reg32(6, l, 0);
        }
        run_group(code.clone(), &mut w, &dev).map(|_| {
            (0..texels.len())
                .map(|l| std::array::from_fn(|c| f32::from_bits(w.reg32(8 + c, l))))
                .collect::<Vec<[f32; 4]>>()
        })
    };
    let srgb = |d: [u8; 24]| {
        let mut d = d;
        d[108 / 8] |= 1 << (108 % 8);
        d
    };
    let fp16 = |bits: u16| {
        // normal FP16 to f32: exponent rebias 15 -> 127
        f32::from_bits((u32::from(bits >> 10) + 112) << 23 | u32::from(bits & 0x3FF) << 13)
    };
    let t4 = with_format(texture(2, [0, 1, 2, 3], 8, 8, a), 0x60, 0);
    let v = run_with(t4, &[(2, 0), (5, 1)]).unwrap();
    assert_eq!((v[0][0], v[0][3]), (fp16(0x3591), 1.0));
    assert_eq!(v[1], [0.25, 1.0, fp16(0x2C8D), 0.5]);
    assert!(matches!(
        run_with(t4, &[(1, 5)]),
        Err(Fault::UnsupportedForm { what }) if what.contains("ASTC")
    ));
    let v = run_with(srgb(t4), &[(1, 5), (5, 1)]).unwrap();
    assert_eq!(v[0], [1.0, 0.0, 1.0, 1.0]);
    assert_eq!((v[1][1], v[1][3]), (1.0, (128.0f64 / 255.0) as f32));
    let t6 = with_format(texture(2, [0, 1, 2, 3], 12, 10, b), 0x63, 0);
    let v = run_with(t6, &[(7, 2), (3, 6), (11, 9)]).unwrap();
    assert_eq!([v[0][0], v[1][0], v[2][0]], [0.25, 0.5, 0.75]);
}
