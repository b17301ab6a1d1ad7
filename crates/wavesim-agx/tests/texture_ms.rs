//! `texture_load` of a 2D multisampled image (`exec/texture_ms.rs`): GLSL's
//! `texelFetch(sampler2DMS, p, s)` as Mesa 25.0.7 emits it (txf_ms: LOD mode 0 with the
//! immediate LOD 0, coordinates x, y and the sample index zero-extended to 32 bits), on
//! TEXTURE descriptors laid out as cmdbuf.xml says, over images laid out as ail lays out a
//! multisampled image (a pixel's samples together as one element of a twiddled image).

use std::path::Path;
use wavesim_agx::disassemble_raw;
use wavesim_agx::exec::{run, Fault, Memories, Program, WaveState, SIMD_WIDTH};
use wavesim_agx::runner::{run_in_dir, RunConfig};
use wavesim_core::memory::DeviceMemory;

// only `image` is used here; the tile and vertex readers serve the other corpus tests
#[allow(dead_code)]
#[path = "common/linked_output.rs"]
mod linked_output;

/// Mesa's `agx_pack.c` AGX_OPCODE_TEXTURE_LOAD with small registers (as tests/texture.rs packs
/// it): R = r8-r11 (16-bit units 16, 32-bit), coordinates r4-r6 (units 8), LOD the immediate 0
/// (D = 0, mode 0), texture ts0, sampler ss0, dimension 4 (tex_2d_ms) at 40, q3 = 12 at 43,
/// mask xyzw at 48, LOD mode 0 at 52; then the extension half-word of tests/texture.rs.
fn txf_ms() -> Vec<u8> {
    txf_ms_of_kind(4)
}

/// The same of kind `n`: its low 3 bits at 40, bit 3 at 71 (applegpu's field; 8 =
/// tex_2d_ms_array needs the 12-byte form, length bit 15).
fn txf_ms_of_kind(n: u64) -> Vec<u8> {
    let long = n >> 3 != 0;
    let word: u64 = 0x31
        | 1 << 6
        | 1 << 8
        | 16 << 9
        | u64::from(long) << 15
        | 8 << 16
        | (n & 7) << 40
        | 12 << 43
        | 0xF << 48;
    let mut code = word.to_le_bytes().to_vec();
    if long {
        code.extend([((n >> 3) as u8) << 7, 0, 0, 0]);
    }
    code.extend([0x88, 0x00]);
    code
}

/// cmdbuf.xml TEXTURE: dimension 4 (2D multisampled), layout 2 (twiddled), channels 0x28
/// (R8G8B8A8), type 0 (unorm), swizzle RGBA, width - 1 at 28, height - 1 at 42, `Samples` at 64
/// (0: 2, 1: 4), address >> 4 at 66.
fn ms_texture(dim: u128, w: u32, h: u32, samples_field: u128, addr: u64) -> [u8; 24] {
    let v: u128 = dim
        | 2 << 4
        | 0x28 << 6
        | (1 << 3 | 2 << 6 | 3 << 9) << 16
        | u128::from(w - 1) << 28
        | u128::from(h - 1) << 42
        | samples_field << 64
        | u128::from(addr >> 4) << 66;
    let mut b = [0u8; 24];
    b[..16].copy_from_slice(&v.to_le_bytes());
    b
}

fn morton(x: u32, y: u32) -> u32 {
    (0..16).fold(0, |m, b| {
        m | (x >> b & 1) << (2 * b) | (y >> b & 1) << (2 * b + 1)
    })
}

fn run_group(w: &mut WaveState, dev: &DeviceMemory) -> Result<(), Fault> {
    run_kind(w, dev, 4)
}

fn run_kind(w: &mut WaveState, dev: &DeviceMemory, n: u64) -> Result<(), Fault> {
    run_code(w, dev, txf_ms_of_kind(n))
}

fn run_code(w: &mut WaveState, dev: &DeviceMemory, code: Vec<u8>) -> Result<(), Fault> {
    let mut tg = vec![];
    let mut mem = Memories {
        device: dev,
        threadgroup: &mut tg,
    };
    w.pc = 0;
    run(w, &Program::new(code), &mut mem, 10)
        .map(|_| ())
        .map_err(|e| e.fault)
}

fn threads(desc: [u8; 24], texel: impl Fn(usize) -> [u32; 3]) -> WaveState {
    let mut w = WaveState::new(12);
    w.textures = vec![desc];
    for l in 0..SIMD_WIDTH {
        for (i, v) in texel(l).into_iter().enumerate() {
            w.set_reg32(4 + i, l, v);
        }
    }
    w
}

/// The disassembly names the form Mesa emits: kind tex_2d_ms, x and y in r4 and r5 (as halves)
/// and the sample index in r6l (applegpu's coordinate operand).
#[test]
fn txf_ms_disassembles_as_mesa_emits_it() {
    let text = disassemble_raw(&txf_ms(), 0).unwrap();
    assert!(text.contains("texture_load"), "{text}");
    assert!(text.contains("tex_2d_ms"), "{text}");
    assert!(text.contains("r4l_r4h_r5l_r5h_r6l"), "{text}");
}

/// The 16x16 RGBA8 image of 4 samples of `four_sample_fetch_reads_libagx_address`: sample s of
/// pixel (x, y) holds (x, y, s, 16 x + s) at (Morton(x, y) << 2 | s) * 4; its address.
fn four_sample_image(dev: &mut DeviceMemory) -> u64 {
    let a = dev.alloc(16 * 16 * 16, 64).unwrap();
    for y in 0..16u32 {
        for x in 0..16u32 {
            for s in 0..4u32 {
                let at = a + u64::from((morton(x, y) << 2 | s) * 4);
                dev.write(at, &[x as u8, y as u8, s as u8, (16 * x + s) as u8])
                    .unwrap();
            }
        }
    }
    a
}

/// A 16x16 image of 4 samples: ail's element is the pixel's 4 x 4 = 16 bytes, whose largest
/// tile is 32x32; 16x16 is below it, so level 0 is one 16x16 tile (the power-of-two tree's side
/// min(16, 16)) and the aligned width is 16. Sample s of pixel (x, y) is at
/// (Morton(x, y) << 2 | s) * 4 (libagx_image_texel_address). The image holds (x, y, s, 16 x + s)
/// there; thread l fetches pixel (l mod 16, 3 + l / 16 * 7), sample (l / 3) mod 4, and gets each
/// byte / 255 in f32 (unorm, 32-bit destination).
#[test]
fn four_sample_fetch_reads_libagx_address() {
    let mut dev = DeviceMemory::new();
    let a = four_sample_image(&mut dev);
    let pick = |l: usize| [l as u32 % 16, 3 + l as u32 / 16 * 7, (l as u32 / 3) % 4];
    let mut w = threads(ms_texture(4, 16, 16, 1, a), pick);
    run_group(&mut w, &dev).unwrap();
    for l in 0..SIMD_WIDTH {
        let [x, y, s] = pick(l);
        let want = [x, y, s, 16 * x + s].map(|b| (b as f32 / 255.0).to_bits());
        let got = [8, 9, 10, 11].map(|r| w.reg32(r, l));
        assert_eq!(got, want, "thread {l}: pixel {x} {y} sample {s}");
    }
}

/// `imageLoad(image2DMS)` as Mesa's `agx_emit_image_load` packs it: the same texture_load with
/// q3 = 0xd (0xf for a coherent image) at bits 43-46, on the image's multisampled TEXTURE
/// descriptor. The image of `four_sample_fetch_reads_libagx_address` (sample s of pixel (x, y)
/// holding (x, y, s, 16 x + s) at (Morton(x, y) << 2 | s) * 4), thread l loading pixel
/// (l mod 16, l / 16), sample l mod 4: each byte / 255. q3 = 0xe, a value Mesa never packs, is a
/// typed error.
#[test]
fn image_load_of_a_multisampled_image() {
    let mut dev = DeviceMemory::new();
    let a = four_sample_image(&mut dev);
    let with_q3 = |q3: u8| {
        let mut code = txf_ms();
        // bits 43-46: byte 5, bits 3-6
        code[5] = code[5] & !(0xF << 3) | q3 << 3;
        code
    };
    let pick = |l: usize| [l as u32 % 16, l as u32 / 16, l as u32 % 4];
    for q3 in [0xD, 0xF] {
        let mut w = threads(ms_texture(4, 16, 16, 1, a), pick);
        run_code(&mut w, &dev, with_q3(q3)).unwrap();
        for l in 0..SIMD_WIDTH {
            let [x, y, s] = pick(l);
            let want = [x, y, s, 16 * x + s].map(|b| (b as f32 / 255.0).to_bits());
            let got = [8, 9, 10, 11].map(|r| w.reg32(r, l));
            assert_eq!(got, want, "q3 {q3:#x} thread {l}: pixel {x} {y} sample {s}");
        }
    }
    let mut w = threads(ms_texture(4, 16, 16, 1, a), pick);
    match run_code(&mut w, &dev, with_q3(0xE)) {
        Err(Fault::UnsupportedForm { what }) => assert!(what.contains("q3 = 0xe"), "{what}"),
        r => panic!("{r:?}"),
    }
}

/// A 100x40 image of 2 samples: elements of 2 x 4 = 8 bytes, whose ail tile is 64x32 (one
/// 16 KiB page); 100x40 reaches it both ways, so level 0 is in the large tree with 64x32 tiles
/// and the aligned width is 128. Pixel (70, 33): tile row 1 starts at 32 x 128 = 4096 pixels,
/// tile column 1 adds 64 x 32 = 2048; inside, (6, 1): x = 0b110 -> bits 2 and 4 (20), y = 1 ->
/// bit 1 (2), Morton 22: pixel index 6166, sample 1 at (6166 x 2 + 1) x 4 = 49332 bytes.
/// Pixel (99, 0): tile column 1 (2048), inside (35, 0): x = 0b100011 -> bits 0, 2, 10 =
/// 1 + 4 + 1024 = 1029: index 3077, sample 0 at 3077 x 2 x 4 = 24616.
#[test]
fn two_sample_fetch_in_large_tiles() {
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(128 * 64 * 8, 64).unwrap();
    dev.write(a + 49332, &[10, 20, 30, 40]).unwrap();
    dev.write(a + 24616, &[255, 0, 51, 102]).unwrap();
    let pick = |l: usize| {
        if l.is_multiple_of(2) {
            [70, 33, 1]
        } else {
            [99, 0, 0]
        }
    };
    let mut w = threads(ms_texture(4, 100, 40, 0, a), pick);
    run_group(&mut w, &dev).unwrap();
    for l in 0..SIMD_WIDTH {
        let want = if l % 2 == 0 {
            [10, 20, 30, 40]
        } else {
            [255, 0, 51, 102]
        };
        let got = [8, 9, 10, 11].map(|r| w.reg32(r, l));
        assert_eq!(
            got,
            want.map(|b: u32| (b as f32 / 255.0).to_bits()),
            "thread {l}"
        );
    }
}

/// GL 4.6 11.1.3.2 leaves a fetch outside the image or of a sample the image does not have
/// undefined: typed errors. So are a descriptor that is not 2D multisampled and a 2-sample
/// image asked for sample 2.
#[test]
fn undefined_fetches_and_wrong_descriptors_are_errors() {
    let mut dev = DeviceMemory::new();
    let a = dev.alloc(16 * 16 * 16, 64).unwrap();
    let cases: [([u8; 24], [u32; 3], &str); 4] = [
        (ms_texture(4, 16, 16, 1, a), [0, 0, 4], "sample 4"),
        (ms_texture(4, 16, 16, 1, a), [16, 0, 0], "outside"),
        (ms_texture(4, 16, 16, 0, a), [0, 0, 2], "of 2 samples"),
        (ms_texture(2, 16, 16, 1, a), [0, 0, 0], "dimension 2"),
    ];
    for (desc, texel, what) in cases {
        let mut w = threads(desc, |l| if l == 5 { texel } else { [0, 0, 0] });
        match run_group(&mut w, &dev) {
            Err(Fault::UnsupportedForm { what: e }) => assert!(e.contains(what), "{e}"),
            r => panic!("{what}: {r:?}"),
        }
    }
}

/// corpus/agx/gl25msfetch (tools/agx/gl25_msfetch.py): Mesa 25.0.7's programs reading
/// glsl_graphics's 4x4 texture of 4 (or 2) samples, sample s of texel (x, y) = (16 x + 1, 16 y + 2,
/// 64 s + 3, 0) / 255, against a host model of each shader over 16x16 pixels, texel
/// (x mod 4, y mod 4):
/// - resolve.frag, the mean of the samples: ((16 x + 1) 4 / 4, ..., (3 + 67 + 131 + 195) / 4 =
///   99, 0) / 255, each sum of four exact multiples of 1/255 in f32 within an ulp, so the
///   unorm8 store gives the bytes (16 x + 1, 16 y + 2, 99, 0);
/// - per_sample.frag, sample (x + y) mod 4: the bytes (16 x + 1, 16 y + 2, 64 s + 3, 0);
/// - resolve2.frag, the mean of a 2-sample texture's samples (glsl_graphics's `Samples` 2,
///   2-sample layout): blue (3 + 67) / 2 = 35.
///
/// And against NAME.ref, llvmpipe drawing the same GLSL over the same texture (filled by a
/// sample-shaded pass, tools/agx/gl_fragment_ref.c `ms_texture`): `X Y R G B A DEPTHBITS`.
#[test]
fn mesa25_txf_ms_programs_match_llvmpipe_and_the_host_model() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/agx/gl25msfetch");
    type Model = fn(u32, u32) -> [u8; 4];
    let programs: [(&str, Model); 3] = [
        ("resolve", |x, y| {
            [16 * (x % 4) as u8 + 1, 16 * (y % 4) as u8 + 2, 99, 0]
        }),
        ("resolve2", |x, y| {
            [16 * (x % 4) as u8 + 1, 16 * (y % 4) as u8 + 2, 35, 0]
        }),
        ("per_sample", |x, y| {
            let s = ((x + y) % 4) as u8;
            [
                16 * (x % 4) as u8 + 1,
                16 * (y % 4) as u8 + 2,
                64 * s + 3,
                0,
            ]
        }),
    ];
    for (name, model) in programs {
        let job = std::fs::read_to_string(dir.join(format!("{name}.job.toml"))).unwrap();
        let cfg = RunConfig::from_toml(&job).unwrap();
        let text = run_in_dir(&cfg, &dir, None)
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .text;
        let image = linked_output::image(&text, "rt");
        assert_eq!(image.len(), 16 * 16 * 4, "{name}");
        let reference = std::fs::read_to_string(dir.join(format!("{name}.ref"))).unwrap();
        let mut compared = 0;
        for line in reference.lines() {
            let v: Vec<u32> = line
                .split_whitespace()
                .take(6)
                .map(|f| f.parse().unwrap())
                .collect();
            let at = ((v[1] * 16 + v[0]) * 4) as usize;
            let want: Vec<u8> = v[2..6].iter().map(|&b| b as u8).collect();
            assert_eq!(
                image[at..at + 4],
                want[..],
                "{name}: llvmpipe's pixel {line}"
            );
            compared += 1;
        }
        assert_eq!(compared, 256, "{name}");
        for y in 0..16u32 {
            for x in 0..16u32 {
                let at = ((y * 16 + x) * 4) as usize;
                assert_eq!(image[at..at + 4], model(x, y), "{name}: pixel {x} {y}");
            }
        }
    }
}

/// tex_2d_ms_array (TEXTURE dimension 8): the sample in r6l, the layer in r6h (Mesa's
/// pack_32_2x16_split). A 4x4 image of 4 samples and 3 layers (`Depth` - 1 = 2 at bit 110):
/// ail's element is 16 bytes, level 0 one 4x4 tile of 256 bytes, so layers lie 256 bytes apart,
/// or 16 KiB with `Page-aligned layers` (bit 126). Pixel (2, 3): x = 0b10 -> bit 2 (4), y =
/// 0b11 -> bits 1 and 3 (10), Morton 14; sample 1 at (14 x 4 + 1) x 4 = 228 inside its layer.
/// Thread l reads layer l mod 3 there; layer 3 is outside the array (a typed error).
#[test]
fn multisampled_array_layers() {
    for (aligned, stride) in [(false, 256u64), (true, 0x4000)] {
        let mut dev = DeviceMemory::new();
        let a = dev.alloc(3 * 0x4000, 64).unwrap();
        for layer in 0..3u8 {
            dev.write(a + u64::from(layer) * stride + 228, &[7, 8, 9, 10 + layer])
                .unwrap();
        }
        let mut desc = ms_texture(8, 4, 4, 1, a);
        let hi = u128::from_le_bytes(desc[..16].try_into().unwrap())
            | 2 << 110
            | u128::from(aligned) << 126;
        desc[..16].copy_from_slice(&hi.to_le_bytes());
        let pick = |l: usize| [2, 3, 1 | (l as u32 % 3) << 16];
        let mut w = threads(desc, pick);
        run_kind(&mut w, &dev, 8).unwrap();
        for l in 0..SIMD_WIDTH {
            let want = [7, 8, 9, 10 + l as u32 % 3].map(|b| (b as f32 / 255.0).to_bits());
            assert_eq!([8, 9, 10, 11].map(|r| w.reg32(r, l)), want, "thread {l}");
        }
        w.set_reg32(6, 9, 1 | 3 << 16);
        match run_kind(&mut w, &dev, 8) {
            Err(Fault::UnsupportedForm { what }) => assert!(what.contains("layer 3"), "{what}"),
            r => panic!("{r:?}"),
        }
    }
}
