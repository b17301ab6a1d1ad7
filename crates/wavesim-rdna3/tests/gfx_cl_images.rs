//! The OpenCL image kernels of corpus/gfx/cl/images.cl (clang-19 with the ROCm device libraries,
//! wave32 and wave64 builds) run through `hsa::launch::dispatch` with `Arg::Image` T#s built by
//! `image_descriptor`, each checked against a model written from the kernel's source and the
//! OpenCL image rules (UNORM8 reads c / 255; CLK_FILTER_LINEAR blends the four texels around
//! (u - 0.5, v - 0.5) in texel space; CLK_ADDRESS_REPEAT wraps, CLAMP_TO_EDGE clamps).

use std::path::PathBuf;
use wavesim_core::memory::DeviceMemory;
use wavesim_core::Geometry;
use wavesim_rdna3::codeobj::CodeObject;
use wavesim_rdna3::dispatch::ExecConfig;
use wavesim_rdna3::exec::image::formats;
use wavesim_rdna3::exec::image::resource::{
    cl, image_bytes, image_descriptor, opencl_image_object,
};
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::hsa::kernarg::Arg;
use wavesim_rdna3::hsa::launch::{dispatch, DispatchSettings, LoadedCode};
use wavesim_rdna3::trace::NoObserver;

struct Dev {
    mem: DeviceMemory,
    code: CodeObject,
    base: u64,
    prog: Program,
}

fn dev(w64: bool) -> Dev {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/gfx")
        .join(if w64 { "cl-w64" } else { "cl-w32" })
        .join("images.hsaco");
    let elf = std::fs::read(p).unwrap();
    let code = CodeObject::parse(&elf).unwrap();
    let mut mem = DeviceMemory::new();
    let base = mem.alloc(code.image.len() as u64, 4096).unwrap();
    mem.write(base, &code.image_at(base)).unwrap();
    let prog = Program::new(code.text(), base + code.text_addr).unwrap();
    Dev {
        mem,
        code,
        base,
        prog,
    }
}

impl Dev {
    fn run(&mut self, kernel: &str, grid: [u32; 2], args: &[Arg]) {
        let k = self.code.kernel(kernel).unwrap().clone();
        let geo = Geometry::new(&grid, &[grid[0].min(8), grid[1].min(4)]).unwrap();
        let cfg = ExecConfig::default();
        let s = DispatchSettings {
            threads: 1,
            max_wave_insts: 1_000_000,
            cfg: &cfg,
            global_offset: [0; 3],
            dispatch_id: 0,
            trap: None,
            dynamic_shared: 0,
        };
        let lc = LoadedCode {
            code: &self.code,
            base: self.base,
            prog: &self.prog,
        };
        dispatch(&mut self.mem, lc, &k, &geo, args, &s, &mut NoObserver)
            .unwrap_or_else(|e| panic!("{kernel}: {e}"));
    }

    /// An image with its T#; returns (T# address, data address).
    fn image(&mut self, fmt: u32, w: u32, h: u32, data: &[u8]) -> (u64, u64) {
        let bpp = formats::Format::of(fmt).unwrap().bytes;
        let n = image_bytes(w, h, 1, bpp);
        assert_eq!(n, row_pitch(w, bpp) * h as u64);
        let at = self.mem.alloc(n.max(256), 256).unwrap();
        let row = (w as u64 * bpp) as usize;
        for (y, r) in data.chunks(row).enumerate() {
            self.mem
                .write(at + y as u64 * row_pitch(w, bpp), r)
                .unwrap();
        }
        let t = self.mem.alloc(48, 64).unwrap();
        let (ty, order) = match fmt {
            formats::RGBA8_UNORM => (cl::UNORM_INT8, cl::RGBA),
            formats::RGBA8_UINT => (cl::UNSIGNED_INT8, cl::RGBA),
            formats::RGBA16_FLOAT => (cl::HALF_FLOAT, cl::RGBA),
            formats::R32_FLOAT => (cl::FLOAT, cl::R),
            _ => (cl::FLOAT, cl::RGBA),
        };
        let d: Vec<u8> = opencl_image_object(image_descriptor(at, fmt, w, h, 1), ty, order, w)
            .iter()
            .flat_map(|x| x.to_le_bytes())
            .collect();
        self.mem.write(t, &d).unwrap();
        (t, at)
    }

    fn buffer(&mut self, n: u64) -> u64 {
        let a = self.mem.alloc(n.max(4), 256).unwrap();
        self.mem.write(a, &vec![0u8; n as usize]).unwrap();
        a
    }

    /// A `w` x `h` image's texels with rows packed.
    fn read_image(&self, a: u64, w: u32, h: u32, bpp: u64) -> Vec<u8> {
        (0..h as u64)
            .flat_map(|y| self.read(a + y * row_pitch(w, bpp), (w as u64 * bpp) as usize))
            .collect()
    }

    fn read(&self, a: u64, n: usize) -> Vec<u8> {
        let mut b = vec![0u8; n];
        self.mem.read(a, &mut b).unwrap();
        b
    }
}

/// Bytes between rows of a one-level linear image: addrlib's gfx11 rule (pitch a multiple of
/// 256 / bytes-per-texel texels, so rows 256 bytes aligned; Mesa's
/// `Gfx11Lib::HwlComputeSurfaceInfoLinear`).
fn row_pitch(w: u32, bpp: u64) -> u64 {
    (w as u64 * bpp).div_ceil(256) * 256
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

const W: u32 = 8;
const H: u32 = 4;

fn rgba8(w: u32, h: u32) -> Vec<u8> {
    (0..w * h * 4).map(|i| (i * 37 % 251) as u8).collect()
}

fn texel(img: &[u8], w: u32, h: u32, x: i64, y: i64) -> [f32; 4] {
    let (x, y) = (
        x.clamp(0, w as i64 - 1) as u32,
        y.clamp(0, h as i64 - 1) as u32,
    );
    let i = ((y * w + x) * 4) as usize;
    [0, 1, 2, 3].map(|c| img[i + c] as f32 / 255.0)
}

/// CLK_FILTER_LINEAR with clamp-to-edge at texel-space (u, v) already shifted by half a texel:
/// the four texels around it weighted by the fractions, in f32 in the order
/// ((t00 (1-a) + t10 a)(1-b) + (t01 (1-a) + t11 a) b).
fn bilinear(img: &[u8], u: f32, v: f32) -> [f32; 4] {
    let (x0, y0) = (u.floor(), v.floor());
    let (a, b) = (u - x0, v - y0);
    let (x0, y0) = (x0 as i64, y0 as i64);
    let t00 = texel(img, W, H, x0, y0);
    let t10 = texel(img, W, H, x0 + 1, y0);
    let t01 = texel(img, W, H, x0, y0 + 1);
    let t11 = texel(img, W, H, x0 + 1, y0 + 1);
    [0, 1, 2, 3].map(|c| {
        let top = t00[c] * (1.0 - a) + t10[c] * a;
        let bot = t01[c] * (1.0 - a) + t11[c] * a;
        top * (1.0 - b) + bot * b
    })
}

#[test]
fn img_scale_rgba8_to_rgba32f() {
    for w64 in [false, true] {
        let mut d = dev(w64);
        let src = rgba8(W, H);
        let (ts, _) = d.image(formats::RGBA8_UNORM, W, H, &src);
        let (td, dst) = d.image(formats::RGBA32_FLOAT, W, H, &vec![0; (W * H * 16) as usize]);
        d.run(
            "img_scale",
            [W, H],
            &[Arg::Image(ts), Arg::Image(td), 0.5f32.into()],
        );
        let got = f32s(&d.read_image(dst, W, H, 16));
        for i in 0..(W * H * 4) as usize {
            assert_eq!(got[i], src[i] as f32 / 255.0 * 0.5, "component {i}");
        }
    }
}

#[test]
fn img_sample_linear_clamp() {
    for w64 in [false, true] {
        let mut d = dev(w64);
        let src = rgba8(W, H);
        let (ts, _) = d.image(formats::RGBA8_UNORM, W, H, &src);
        let out = d.buffer((W * H * 16) as u64);
        d.run(
            "img_sample_linear",
            [W, H],
            &[
                Arg::Image(ts),
                Arg::Buffer(out),
                (W as i32).into(),
                (H as i32).into(),
            ],
        );
        let got = f32s(&d.read(out, (W * H * 16) as usize));
        for y in 0..H {
            for x in 0..W {
                let u = (x as f32 + 0.25) / W as f32 * W as f32 - 0.5;
                let v = (y as f32 + 0.75) / H as f32 * H as f32 - 0.5;
                let want = bilinear(&src, u, v);
                let i = ((y * W + x) * 4) as usize;
                assert_eq!(&got[i..i + 4], &want, "({x}, {y})");
            }
        }
    }
}

#[test]
fn img_sample_repeat_nearest() {
    for w64 in [false, true] {
        let mut d = dev(w64);
        let src = rgba8(W, H);
        let (ts, _) = d.image(formats::RGBA8_UNORM, W, H, &src);
        let out = d.buffer((W * H * 16) as u64);
        d.run(
            "img_sample_repeat",
            [W, H],
            &[
                Arg::Image(ts),
                Arg::Buffer(out),
                (W as i32).into(),
                (H as i32).into(),
            ],
        );
        let got = f32s(&d.read(out, (W * H * 16) as usize));
        for y in 0..H {
            for x in 0..W {
                let s = (x as f32 + 0.5) / W as f32 * 2.0 - 0.5;
                let t = (y as f32 + 0.5) / H as f32 + 0.5;
                let tx = ((s * W as f32).floor() as i64).rem_euclid(W as i64);
                let ty = ((t * H as f32).floor() as i64).rem_euclid(H as i64);
                let want = texel(&src, W, H, tx, ty);
                assert_eq!(&got[((y * W + x) * 4) as usize..][..4], &want, "({x}, {y})");
            }
        }
    }
}

#[test]
fn img_gradient_to_rgba8() {
    for w64 in [false, true] {
        let mut d = dev(w64);
        let (td, dst) = d.image(formats::RGBA8_UNORM, W, H, &vec![0; (W * H * 4) as usize]);
        d.run(
            "img_gradient",
            [W, H],
            &[Arg::Image(td), (W as i32).into(), (H as i32).into()],
        );
        let got = d.read_image(dst, W, H, 4);
        let un = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8;
        for y in 0..H {
            for x in 0..W {
                let want = [
                    un(x as f32 / (W - 1) as f32),
                    un(y as f32 / (H - 1) as f32),
                    un(0.5),
                    255,
                ];
                assert_eq!(&got[((y * W + x) * 4) as usize..][..4], &want);
            }
        }
    }
}

#[test]
fn img_size_reads_the_descriptor() {
    for w64 in [false, true] {
        let mut d = dev(w64);
        let (ts, _) = d.image(formats::R32_FLOAT, 13, 7, &vec![0; 13 * 7 * 4]);
        let out = d.buffer(8);
        d.run("img_size", [1, 1], &[Arg::Image(ts), Arg::Buffer(out)]);
        assert_eq!(
            d.read(out, 8),
            [13u32.to_le_bytes(), 7u32.to_le_bytes()].concat()
        );
    }
}

#[test]
fn img_read_uint_rgba8() {
    for w64 in [false, true] {
        let mut d = dev(w64);
        let src = rgba8(W, H);
        let (ts, _) = d.image(formats::RGBA8_UINT, W, H, &src);
        let out = d.buffer((W * H * 4) as u64);
        d.run(
            "img_read_uint",
            [W, H],
            &[Arg::Image(ts), Arg::Buffer(out), (W as i32).into()],
        );
        let got = d.read(out, (W * H * 4) as usize);
        for i in 0..(W * H) as usize {
            let want = u32::from_le_bytes(src[4 * i..4 * i + 4].try_into().unwrap());
            assert_eq!(
                u32::from_le_bytes(got[4 * i..4 * i + 4].try_into().unwrap()),
                want
            );
        }
    }
}

#[test]
fn img_box3_r32f() {
    for w64 in [false, true] {
        let mut d = dev(w64);
        let vals: Vec<f32> = (0..W * H).map(|i| (i * i % 17) as f32 * 0.5).collect();
        let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
        let (ts, _) = d.image(formats::R32_FLOAT, W, H, &bytes);
        let out = d.buffer((W * H * 4) as u64);
        d.run(
            "img_box3",
            [W, H],
            &[Arg::Image(ts), Arg::Buffer(out), (W as i32).into()],
        );
        let got = f32s(&d.read(out, (W * H * 4) as usize));
        for y in 0..H as i64 {
            for x in 0..W as i64 {
                let mut s = 0.0f32;
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let (cx, cy) = (
                            (x + dx).clamp(0, W as i64 - 1),
                            (y + dy).clamp(0, H as i64 - 1),
                        );
                        s += vals[(cy * W as i64 + cx) as usize];
                    }
                }
                assert_eq!(
                    got[(y * W as i64 + x) as usize],
                    s * (1.0f32 / 9.0),
                    "({x}, {y})"
                );
            }
        }
    }
}

#[test]
fn img_swap_rb_to_rgba16f() {
    for w64 in [false, true] {
        let mut d = dev(w64);
        let src = rgba8(W, H);
        let (ts, _) = d.image(formats::RGBA8_UNORM, W, H, &src);
        let (td, dst) = d.image(formats::RGBA16_FLOAT, W, H, &vec![0; (W * H * 8) as usize]);
        d.run("img_swap_rb", [W, H], &[Arg::Image(ts), Arg::Image(td)]);
        let got = d.read_image(dst, W, H, 8);
        for i in 0..(W * H) as usize {
            for (c, sc) in [2usize, 1, 0, 3].into_iter().enumerate() {
                let h = u16::from_le_bytes([got[8 * i + 2 * c], got[8 * i + 2 * c + 1]]);
                let want = half::f16::from_f32(src[4 * i + sc] as f32 / 255.0).to_bits();
                assert_eq!(h, want, "texel {i} comp {c}");
            }
        }
    }
}

#[test]
fn img_sample_arg_with_a_sampler_argument() {
    // sampler_t as a kernel argument: the address of the S# `opencl_sampler` builds
    // (unnormalized, CLK_ADDRESS_CLAMP_TO_EDGE, CLK_FILTER_LINEAR). Coordinates (x + 0.25,
    // y + 0.75) * 2 + (-3.25, -2.25) = (2x - 2.75, 2y - 0.75) in texel space, exact in f32.
    use wavesim_rdna3::exec::image::host::opencl_sampler;
    for w64 in [false, true] {
        let mut d = dev(w64);
        let src = rgba8(W, H);
        let (ts, _) = d.image(formats::RGBA8_UNORM, W, H, &src);
        let s = d.buffer(16);
        let words: Vec<u8> = opencl_sampler(false, "clamp_to_edge", true)
            .unwrap()
            .iter()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        d.mem.write(s, &words).unwrap();
        let out = d.buffer((W * H * 16) as u64);
        let f2 = |a: f32, b: f32| Arg::Value([a.to_le_bytes(), b.to_le_bytes()].concat());
        d.run(
            "img_sample_arg",
            [W, H],
            &[
                Arg::Image(ts),
                Arg::Sampler(s),
                Arg::Buffer(out),
                (W as i32).into(),
                f2(2.0, 2.0),
                f2(-3.25, -2.25),
            ],
        );
        let got = f32s(&d.read(out, (W * H * 16) as usize));
        for y in 0..H {
            for x in 0..W {
                // Bilinear around (u - 0.5, v - 0.5), clamped to the edge texels.
                let (u, v) = (2.0 * x as f32 - 3.25, 2.0 * y as f32 - 1.25);
                let want = bilinear(&src, u, v);
                let i = ((y * W + x) * 4) as usize;
                assert_eq!(&got[i..i + 4], &want, "({x}, {y})");
            }
        }
    }
}
