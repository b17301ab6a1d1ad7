//! OpenCL `image2d_t` arguments through the CLI (`--arg image:FMT:WxH:FILE[:OUT]`): the eight
//! kernels of corpus/gfx/cl/images.cl (clang-19 code objects, wave32 and wave64) run by the
//! `wavesim` binary, their outputs checked against models written from the kernels' source and
//! the OpenCL image rules (UNORM8 reads c / 255 and writes round(clamp(x) * 255);
//! CLK_FILTER_LINEAR blends the four texels around (u - 0.5, v - 0.5) in texel space;
//! CLK_ADDRESS_REPEAT wraps, CLAMP_TO_EDGE clamps; half writes round to nearest even).

use std::path::{Path, PathBuf};
use std::process::Command;
use wavesim_rdna3::exec::image::host::{host_format, png_to_texels, texels_to_png};

const W: u32 = 8;
const H: u32 = 4;

struct Tmp(PathBuf);

impl Tmp {
    fn new(tag: &str) -> Tmp {
        let d =
            std::env::temp_dir().join(format!("wavesim-image-cli-{tag}-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        Tmp(d)
    }
    fn file(&self, name: &str, bytes: &[u8]) -> String {
        let p = self.0.join(name);
        std::fs::write(&p, bytes).unwrap();
        p.display().to_string()
    }
    fn path(&self, name: &str) -> String {
        self.0.join(name).display().to_string()
    }
}

impl Drop for Tmp {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn object(w64: bool) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/gfx")
        .join(if w64 { "cl-w64" } else { "cl-w32" })
        .join("images.hsaco")
        .display()
        .to_string()
}

/// Runs `kernel` over `grid` (8x2 workgroups; one item for "1") with `args`; panics with
/// stderr on failure.
fn run(w64: bool, kernel: &str, grid: &str, args: &[String]) {
    let mut c = Command::new(env!("CARGO_BIN_EXE_wavesim"));
    let local = if grid == "1" { "1" } else { "8,2" };
    c.args([
        "run",
        &object(w64),
        "--kernel",
        kernel,
        "--global",
        grid,
        "--local",
        local,
    ]);
    for a in args {
        c.args(["--arg", a]);
    }
    let o = c.output().unwrap();
    assert!(
        o.status.success(),
        "{kernel} w64={w64}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

fn read(p: &str) -> Vec<u8> {
    std::fs::read(p).unwrap()
}

fn f32s(b: &[u8]) -> Vec<f32> {
    b.chunks_exact(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

fn rgba8() -> Vec<u8> {
    (0..W * H * 4).map(|i| (i * 37 % 251) as u8).collect()
}

/// The UNORM8 texel (x, y) of `img` with clamp-to-edge coordinates, as OpenCL reads it.
fn texel(img: &[u8], x: i64, y: i64) -> [f32; 4] {
    let (x, y) = (x.clamp(0, W as i64 - 1), y.clamp(0, H as i64 - 1));
    let i = ((y * W as i64 + x) * 4) as usize;
    [0, 1, 2, 3].map(|c| img[i + c] as f32 / 255.0)
}

const GRID: &str = "8,4";

/// Numbers the runs of this test binary (their temporary directories).
static RUNS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Runs `kernel` over `grid` in wave32 and wave64 with `args`, in which `{in}` stands for a file
/// named `input_name` holding `input` and `{out}` for the output file; returns (wave64, the
/// output file's bytes) per run.
fn run_both(
    kernel: &str,
    grid: &str,
    input_name: &str,
    input: &[u8],
    args: &[&str],
) -> Vec<(bool, Vec<u8>)> {
    [false, true]
        .into_iter()
        .map(|w64| {
            let run_id = RUNS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let t = Tmp::new(&format!("{kernel}-{run_id}-{w64}"));
            let input = t.file(input_name, input);
            let out = t.path(if args.iter().any(|a| a.ends_with(".png")) {
                "out.png"
            } else {
                "out.bin"
            });
            let args: Vec<String> = args
                .iter()
                .map(|a| {
                    a.replace("{in}", &input)
                        .replace("{out}.png", &out)
                        .replace("{out}", &out)
                })
                .collect();
            run(w64, kernel, grid, &args);
            (w64, read(&out))
        })
        .collect()
}

/// Bilinear filtering around texel-space (u, v) as the guide's image unit and OpenCL's
/// CLK_FILTER_LINEAR do it: the four texels around (u - 0.5, v - 0.5), weighted by the
/// fractions, in f32 in the order ((t00 (1-a) + t10 a)(1-b) + (t01 (1-a) + t11 a) b).
fn bilinear(texel_at: impl Fn(i64, i64) -> [f32; 4], u: f32, v: f32) -> [f32; 4] {
    let (u, v) = (u - 0.5, v - 0.5);
    let (x0, y0) = (u.floor(), v.floor());
    let (a, b) = (u - x0, v - y0);
    let (x0, y0) = (x0 as i64, y0 as i64);
    let (t00, t10) = (texel_at(x0, y0), texel_at(x0 + 1, y0));
    let (t01, t11) = (texel_at(x0, y0 + 1), texel_at(x0 + 1, y0 + 1));
    [0, 1, 2, 3].map(|c| {
        let top = t00[c] * (1.0 - a) + t10[c] * a;
        let bot = t01[c] * (1.0 - a) + t11[c] * a;
        top * (1.0 - b) + bot * b
    })
}

#[test]
fn img_scale_reads_a_png_and_writes_raw_floats() {
    let src = rgba8();
    let png = texels_to_png(&host_format("rgba8").unwrap(), W, H, &src).unwrap();
    let args = [
        "image:rgba8:8x4:{in}",
        "image:rgba32f:8x4:zeros:{out}",
        "f32:0.5",
    ];
    for (w64, out) in run_both("img_scale", GRID, "src.png", &png, &args) {
        let got = f32s(&out);
        assert_eq!(got.len(), (W * H * 4) as usize);
        for (i, g) in got.iter().enumerate() {
            assert_eq!(*g, src[i] as f32 / 255.0 * 0.5, "w64={w64} component {i}");
        }
    }
}

#[test]
fn img_sample_linear_clamp() {
    let src = rgba8();
    let args = ["image:rgba8:8x4:{in}", "zeros:512:{out}", "i32:8", "i32:4"];
    for (w64, out) in run_both("img_sample_linear", GRID, "src.bin", &src, &args) {
        let got = f32s(&out);
        for y in 0..H {
            for x in 0..W {
                // uv = ((x + 0.25) / w, (y + 0.75) / h), in texel space.
                let u = (x as f32 + 0.25) / W as f32 * W as f32;
                let v = (y as f32 + 0.75) / H as f32 * H as f32;
                let want = bilinear(|x, y| texel(&src, x, y), u, v);
                let i = ((y * W + x) * 4) as usize;
                assert_eq!(&got[i..i + 4], &want, "w64={w64} ({x}, {y})");
            }
        }
    }
}

#[test]
fn img_sample_repeat_nearest() {
    let src = rgba8();
    let args = ["image:rgba8:8x4:{in}", "zeros:512:{out}", "i32:8", "i32:4"];
    for (w64, out) in run_both("img_sample_repeat", GRID, "src.bin", &src, &args) {
        let got = f32s(&out);
        for y in 0..H {
            for x in 0..W {
                let s = (x as f32 + 0.5) / W as f32 * 2.0 - 0.5;
                let u = (y as f32 + 0.5) / H as f32 + 0.5;
                let tx = ((s * W as f32).floor() as i64).rem_euclid(W as i64);
                let ty = ((u * H as f32).floor() as i64).rem_euclid(H as i64);
                let want = texel(&src, tx, ty);
                let i = ((y * W + x) * 4) as usize;
                assert_eq!(&got[i..i + 4], &want, "w64={w64} ({x}, {y})");
            }
        }
    }
}

#[test]
fn img_gradient_writes_a_png() {
    let un = |x: f32| (x.clamp(0.0, 1.0) * 255.0).round_ties_even() as u8;
    let args = ["image:rgba8:8x4:zeros:{out}.png", "i32:8", "i32:4"];
    for (w64, png) in run_both("img_gradient", GRID, "unused", &[], &args) {
        assert_eq!(&png[..8], b"\x89PNG\r\n\x1a\n");
        let got = png_to_texels(&host_format("rgba8").unwrap(), W, H, &png).unwrap();
        for y in 0..H {
            for x in 0..W {
                let want = [
                    un(x as f32 / (W - 1) as f32),
                    un(y as f32 / (H - 1) as f32),
                    un(0.5),
                    255,
                ];
                let i = ((y * W + x) * 4) as usize;
                assert_eq!(&got[i..i + 4], &want, "w64={w64} ({x}, {y})");
            }
        }
    }
}

#[test]
fn img_size_reads_the_image_dimensions() {
    let args = ["image:r32f:13x7:zeros", "zeros:8:{out}"];
    for (w64, out) in run_both("img_size", "1", "unused", &[], &args) {
        let want = [13u32.to_le_bytes(), 7u32.to_le_bytes()].concat();
        assert_eq!(out, want, "w64={w64}");
    }
}

#[test]
fn img_read_uint_rgba8ui() {
    let src = rgba8();
    let args = ["image:rgba8ui:8x4:{in}", "zeros:128:{out}", "i32:8"];
    for (w64, out) in run_both("img_read_uint", GRID, "src.bin", &src, &args) {
        // c.x + (c.y << 8) + (c.z << 16) + (c.w << 24) is the texel's little-endian word.
        assert_eq!(out, src, "w64={w64}");
    }
}

#[test]
fn img_box3_r32f() {
    let vals: Vec<f32> = (0..W * H).map(|i| (i * i % 17) as f32 * 0.5).collect();
    let bytes: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    let args = ["image:r32f:8x4:{in}", "zeros:128:{out}", "i32:8"];
    for (w64, out) in run_both("img_box3", GRID, "src.bin", &bytes, &args) {
        let got = f32s(&out);
        for y in 0..H as i64 {
            for x in 0..W as i64 {
                let mut s = 0.0f32;
                for dy in -1..=1 {
                    for dx in -1..=1 {
                        let cx = (x + dx).clamp(0, W as i64 - 1);
                        let cy = (y + dy).clamp(0, H as i64 - 1);
                        s += vals[(cy * W as i64 + cx) as usize];
                    }
                }
                let got = got[(y * W as i64 + x) as usize];
                assert_eq!(got, s * (1.0f32 / 9.0), "w64={w64} ({x}, {y})");
            }
        }
    }
}

#[test]
fn img_swap_rb_to_rgba16f() {
    let src = rgba8();
    let args = ["image:rgba8:8x4:{in}", "image:rgba16f:8x4:zeros:{out}"];
    for (w64, got) in run_both("img_swap_rb", GRID, "src.bin", &src, &args) {
        for i in 0..(W * H) as usize {
            for (c, sc) in [2usize, 1, 0, 3].into_iter().enumerate() {
                let h = u16::from_le_bytes([got[8 * i + 2 * c], got[8 * i + 2 * c + 1]]);
                let want = half::f16::from_f32(src[4 * i + sc] as f32 / 255.0).to_bits();
                assert_eq!(h, want, "w64={w64} texel {i} comp {c}");
            }
        }
    }
}

fn fails(args: &[&str]) -> String {
    let o = Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .args([
            "run",
            &object(false),
            "--kernel",
            "img_size",
            "--global",
            "1",
            "--local",
            "1",
        ])
        .args(args.iter().flat_map(|a| ["--arg", a]))
        .output()
        .unwrap();
    assert!(!o.status.success());
    assert_ne!(o.status.code(), Some(101), "panicked");
    String::from_utf8_lossy(&o.stderr).into_owned()
}

#[test]
fn bad_image_arguments_are_refused_with_the_reason() {
    let t = Tmp::new("bad");
    let short = t.file("short.bin", &[0; 10]);
    let e = fails(&[&format!("image:r32f:13x7:{short}"), "zeros:8"]);
    assert!(e.contains("takes 364 bytes, the file has 10"), "{e}");
    let e = fails(&["image:bgra8:13x7:zeros", "zeros:8"]);
    assert!(e.contains("unknown image format `bgra8`"), "{e}");
    // A buffer where the kernel takes an image, and an image where it takes a buffer.
    let e = fails(&["zeros:8", "zeros:8"]);
    assert!(e.contains("is an image"), "{e}");
    let e = fails(&["image:r32f:2x2:zeros", "image:r32f:2x2:zeros"]);
    assert!(e.contains("is a global buffer"), "{e}");
    // A PNG of other dimensions, and a PNG output of a float image.
    let png = texels_to_png(&host_format("r8").unwrap(), 3, 3, &[7; 9]).unwrap();
    let p = t.file("a.png", &png);
    let e = fails(&[&format!("image:r8:2x2:{p}"), "zeros:8"]);
    assert!(e.contains("the PNG is 3x3"), "{e}");
    let out = t.path("o.png");
    let e = fails(&[&format!("image:r32f:2x2:zeros:{out}"), "zeros:8"]);
    assert!(e.contains("cannot be written as a PNG"), "{e}");
    assert!(!Path::new(&out).exists());
}

/// The texel index along an axis of `n` texels for OpenCL addressing `mode` (OpenCL 2.0 C,
/// 6.13.14.7 / 8.2 "Addressing and filter rules"); None: outside the image, the border colour.
fn address(mode: &str, i: i64, n: i64) -> Option<i64> {
    match mode {
        "repeat" => Some(i.rem_euclid(n)),
        "mirrored_repeat" => {
            let m = i.rem_euclid(2 * n);
            Some(if m >= n { 2 * n - 1 - m } else { m })
        }
        "clamp_to_edge" => Some(i.clamp(0, n - 1)),
        _ => (0..n).contains(&i).then_some(i),
    }
}

#[test]
fn img_sample_arg_with_sampler_arguments() {
    // img_sample_arg samples at c = (x + 0.25, y + 0.75) * scale + offset; the scales and
    // offsets below put every pixel at texel-space (u, v) = (2x - 2.75, 2y - 0.75), beyond the
    // image on every side (all exact in f32), normalized (u / 8, v / 4) or not.
    let src = rgba8();
    // CLK_ADDRESS_CLAMP's border: the S# the device library builds says opaque black (0,0,0,1).
    let border = [0.0, 0.0, 0.0, 1.0];
    let texel_at = |mode: &str, x: i64, y: i64| -> [f32; 4] {
        match (address(mode, x, W as i64), address(mode, y, H as i64)) {
            (Some(x), Some(y)) => texel(&src, x, y),
            _ => border,
        }
    };
    for (coords, mode, filter) in [
        ("normalized", "repeat", "nearest"),
        ("normalized", "mirrored_repeat", "nearest"),
        ("normalized", "clamp_to_edge", "linear"),
        ("normalized", "repeat", "linear"),
        ("unnormalized", "clamp_to_edge", "nearest"),
        ("unnormalized", "clamp", "linear"),
    ] {
        let (scale, offset) = if coords == "normalized" {
            ("f32x2:0.25,0.5", "f32x2:-0.40625,-0.5625")
        } else {
            ("f32x2:2,2", "f32x2:-3.25,-2.25")
        };
        let sampler = format!("sampler:{coords}:{mode}:{filter}");
        let args = [
            "image:rgba8:8x4:{in}",
            &sampler,
            "zeros:512:{out}",
            "i32:8",
            scale,
            offset,
        ];
        for (w64, out) in run_both("img_sample_arg", GRID, "src.bin", &src, &args) {
            let got = f32s(&out);
            for y in 0..H as i64 {
                for x in 0..W as i64 {
                    let (u, v) = (2.0 * x as f32 - 2.75, 2.0 * y as f32 - 0.75);
                    let want = if filter == "nearest" {
                        texel_at(mode, u.floor() as i64, v.floor() as i64)
                    } else {
                        bilinear(|x, y| texel_at(mode, x, y), u, v)
                    };
                    let i = ((y * W as i64 + x) * 4) as usize;
                    assert_eq!(
                        &got[i..i + 4],
                        &want,
                        "{coords} {mode} {filter} w64={w64} ({x}, {y})"
                    );
                }
            }
        }
    }
    let e = fails(&["image:r32f:2x2:zeros", "sampler:normalized:wrap:linear"]);
    assert!(e.contains("unknown addressing mode `wrap`"), "{e}");
}
