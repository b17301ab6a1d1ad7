//! Throughput of the interpreter on real clang-19 gfx1100 kernels from `corpus/`.
//!
//! `cargo bench -p wavesim` runs every kernel with 1 host thread and with all threads; criterion's
//! throughput is lane-instructions (so its `elem/s` is lane-instructions/s), and a summary table
//! with wave-instructions/s, lane-instructions/s and the 1 -> N thread speed-up is printed at the
//! end. Filter as usual: `cargo bench -p wavesim -- hash_mix`.
//!
//! Grids are much larger than the corpus tests' (0.1-1 s per dispatch). Before timing, each
//! benchmark checks its output against a Rust model of the kernel once, so a benchmark never
//! measures a kernel that went wrong.
//!
//! `WAVESIM_BENCH_QUICK=1` shrinks the grids 16x (for trying changes quickly; the numbers in
//! docs/PERFORMANCE.md use the full sizes).
//!
//! The f32 kernels also run as `NAME_ftz`: the same code object with FLOAT_DENORM_MODE_32 = 0
//! (f32 denormals flushed, the MODE of `run_asm` and of `-cl-denorms-are-zero` kernels).
//! `WAVESIM_BENCH_RAW=1` (with `WAVESIM_BENCH_ITERS`) dispatches through the raw ABI
//! (`wavesim::dispatch_raw`, tinygrad's drop-in: host memory, the kernel's code and registers
//! decoded again on every call) instead of `Device::dispatch`.

#[path = "../tests/common/denorm32.rs"]
mod denorm32;

use criterion::{Criterion, SamplingMode, Throughput};
use std::sync::Mutex;
use std::time::{Duration, Instant};
use wavesim::{Arg, Device, DispatchStats, Geometry, Module};

/// Deterministic inputs (xorshift64*), so every run measures the same work.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn u32(&mut self) -> u32 {
        (self.next() >> 32) as u32
    }
    /// A multiple of 1/8 in [-4, 4): products and sums of these stay exact in f32.
    fn eighth(&mut self) -> f32 {
        (self.u32() % 64) as f32 / 8.0 - 4.0
    }
}

fn bytes_u32(v: &[u32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn bytes_f32(v: &[f32]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn bytes_f64(v: &[f64]) -> Vec<u8> {
    v.iter().flat_map(|x| x.to_le_bytes()).collect()
}
fn u32s(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
fn u64s(b: &[u8]) -> Vec<u64> {
    b.chunks_exact(8)
        .map(|c| u64::from_le_bytes(c.try_into().unwrap()))
        .collect()
}
fn f32s(b: &[u8]) -> Vec<f32> {
    u32s(b).into_iter().map(f32::from_bits).collect()
}
fn f64s(b: &[u8]) -> Vec<f64> {
    u64s(b).into_iter().map(f64::from_bits).collect()
}

/// One buffer argument: its initial contents (rewritten before the checked run).
struct Buf {
    addr: u64,
    init: Vec<u8>,
}

/// Checks a case's buffers after one dispatch.
type Check = Box<dyn Fn(&[Vec<u8>]) -> Result<(), String>>;

/// Builds a case (and its model) on demand.
type Make = fn() -> Case;

/// A ready-to-run dispatch plus the check of its result.
struct Case {
    name: String,
    /// The code object as loaded.
    elf: Vec<u8>,
    dev: Device,
    module: Module,
    kernel: &'static str,
    geo: Geometry,
    args: Vec<Arg>,
    bufs: Vec<Buf>,
    /// Checks the buffers (in `bufs` order) after one dispatch from the initial contents.
    check: Check,
}

impl Case {
    fn new(name: &str, object: &str, wave64: bool, kernel: &'static str) -> Case {
        let dir = if wave64 { "gfx1100-w64" } else { "gfx1100-w32" };
        let path = format!(
            "{}/../../corpus/{dir}/{object}.hsaco",
            env!("CARGO_MANIFEST_DIR")
        );
        let elf = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut dev = Device::new();
        let module = dev.load(&elf).expect("load code object");
        Case {
            name: name.to_string(),
            elf,
            dev,
            module,
            kernel,
            geo: Geometry::new(&[1], &[1]).unwrap(),
            args: Vec::new(),
            bufs: Vec::new(),
            check: Box::new(|_| Ok(())),
        }
    }

    fn buf(&mut self, init: Vec<u8>) -> Arg {
        let addr = self.dev.alloc_with(&init).expect("alloc");
        self.bufs.push(Buf { addr, init });
        Arg::Buffer(addr)
    }

    fn dispatch(&mut self) -> DispatchStats {
        self.dev
            .dispatch(&self.module, self.kernel, &self.geo, &self.args)
            .unwrap_or_else(|e| panic!("{}: {e}", self.name))
    }

    /// Restores the inputs, runs once, checks the outputs; returns the counters.
    fn run_checked(&mut self) -> DispatchStats {
        self.run_checked_timed().0
    }

    /// `run_checked`, also returning the dispatch's wall time (the first one of a process is
    /// the cold one: it compiles what the engine compiles).
    fn run_checked_timed(&mut self) -> (DispatchStats, Duration, Duration) {
        for b in &self.bufs {
            self.dev.write(b.addr, &b.init).expect("write");
        }
        let (t0, c0) = (Instant::now(), thread_cpu_time());
        let stats = self.dispatch();
        let cold = t0.elapsed();
        let cold_cpu = cpu_since(c0);
        let out: Vec<Vec<u8>> = self
            .bufs
            .iter()
            .map(|b| self.dev.read_vec(b.addr, b.init.len() as u64).unwrap())
            .collect();
        if let Err(e) = (self.check)(&out) {
            panic!(
                "{} with {} thread(s): wrong result: {e}",
                self.name, self.dev.threads
            );
        }
        (stats, cold, cold_cpu)
    }
}

/// `case` with its kernels' f32 denormals flushed (FLOAT_DENORM_MODE_32 = 0), named NAME_ftz.
fn ftz(mut case: Case) -> Case {
    case.elf = denorm32::with_denorm32(&case.elf, 0).expect("patch the descriptor");
    case.module = case.dev.load(&case.elf).expect("load code object");
    case.name.push_str("_ftz");
    case
}

/// A case dispatched through the raw ABI (`wavesim::dispatch_raw`) on host memory, with the
/// registers a driver would program (the kernarg segment and, if the kernel enables it, the
/// dispatch packet through the user SGPRs; RSRC1/2/3 from the descriptor).
struct RawCase {
    image: Vec<u8>,
    entry: usize,
    /// Host copies of the buffers (8-byte aligned), in `Case::bufs` order.
    bufs: Vec<Vec<u64>>,
    lens: Vec<usize>,
    /// The kernarg segment and dispatch packet the user SGPRs point to (kept alive here).
    _kernarg: Vec<u64>,
    _packet: Vec<u64>,
    user: Vec<u32>,
    desc: wavesim::KernelDescriptor,
    groups: [u32; 3],
    local: [u32; 3],
}

impl RawCase {
    fn new(case: &Case) -> Result<RawCase, String> {
        use wavesim_rdna3::hsa::kernarg::{
            aql_packet, write_explicit_args, write_hidden_args, HiddenValues,
        };
        let code = wavesim::CodeObject::parse(&case.elf).map_err(|e| e.to_string())?;
        if !code.relocs.is_empty() {
            return Err("the code object has relocations".into());
        }
        let k = code.kernel(case.kernel).ok_or("no such kernel")?.clone();
        let bufs: Vec<Vec<u64>> = case
            .bufs
            .iter()
            .map(|b| {
                let mut v = vec![0u64; b.init.len().div_ceil(8)];
                bytemuck_copy(&mut v, &b.init);
                v
            })
            .collect();
        // Device buffer addresses -> the host copies' addresses.
        let args: Vec<Arg> = case
            .args
            .iter()
            .map(|a| match a {
                Arg::Buffer(addr) => {
                    let i = case.bufs.iter().position(|b| b.addr == *addr).unwrap();
                    Arg::Buffer(bufs[i].as_ptr() as u64)
                }
                other => other.clone(),
            })
            .collect();
        let mut ka = vec![0u8; k.meta.kernarg_segment_size.max(8) as usize];
        write_explicit_args(&k, &args, &mut ka).map_err(|e| e.to_string())?;
        write_hidden_args(&mut ka, &k.meta.args, &case.geo, &HiddenValues::default());
        let mut kernarg = vec![0u64; ka.len().div_ceil(8)];
        bytemuck_copy(&mut kernarg, &ka);
        let d = k.descriptor;
        let p = aql_packet(
            &case.geo,
            d.private_segment_fixed_size,
            d.group_segment_fixed_size,
            0,
            kernarg.as_ptr() as u64,
        );
        let mut packet = vec![0u64; 8];
        bytemuck_copy(&mut packet, &p);
        // COMPUTE_USER_DATA: the dispatch pointer if enabled, then the kernarg pointer.
        let mut user = Vec::new();
        if d.kernel_code_properties & 2 != 0 {
            let a = packet.as_ptr() as u64;
            user.extend([a as u32, (a >> 32) as u32]);
        }
        let a = kernarg.as_ptr() as u64;
        user.extend([a as u32, (a >> 32) as u32]);
        user.resize(d.user_sgpr_count() as usize, 0);
        let g = &case.geo;
        Ok(RawCase {
            image: code.image.clone(),
            entry: k.entry as usize,
            lens: case.bufs.iter().map(|b| b.init.len()).collect(),
            bufs,
            _kernarg: kernarg,
            _packet: packet,
            user,
            desc: d,
            groups: core::array::from_fn(|i| g.grid[i] / g.local[i]),
            local: g.local,
        })
    }

    fn dispatch(&mut self) -> DispatchStats {
        let d = &self.desc;
        let raw = wavesim::RawDispatch {
            code: &self.image[self.entry..],
            groups: self.groups,
            local: self.local,
            user_sgprs: &self.user,
            rsrc1: d.compute_pgm_rsrc1,
            // LDS_SIZE [23:15] in 512-byte granules, as the driver ORs it in (compilers leave
            // it 0 and declare the size in the descriptor).
            rsrc2: d.compute_pgm_rsrc2 | d.group_segment_fixed_size.div_ceil(512) << 15,
            rsrc3: d.compute_pgm_rsrc3,
            wave64: !d.wave32(),
            scratch_lane_bytes: d.private_segment_fixed_size,
            target: wavesim::raw::target_from("gfx1100").expect("gfx1100"),
            host_ranges: None,
            max_wave_insts: wavesim::DEFAULT_MAX_WAVE_INSTRUCTIONS,
        };
        // SAFETY: the kernel reads and writes only its buffers, kernarg segment and packet,
        // all host memory owned by `self` (the checked run proves the addresses).
        unsafe { wavesim::dispatch_raw(&raw) }.unwrap_or_else(|e| panic!("raw dispatch: {e}"))
    }

    /// Restores the inputs, runs once through the raw ABI and checks the outputs with `check`.
    fn run_checked(
        &mut self,
        check: &Check,
    ) -> Result<(DispatchStats, Duration, Duration), String> {
        let (t0, c0) = (Instant::now(), thread_cpu_time());
        let stats = self.dispatch();
        let cold = t0.elapsed();
        let cold_cpu = cpu_since(c0);
        let out: Vec<Vec<u8>> = self
            .bufs
            .iter()
            .zip(&self.lens)
            .map(|(b, &n)| b.iter().flat_map(|w| w.to_le_bytes()).take(n).collect())
            .collect();
        check(&out).map(|_| (stats, cold, cold_cpu))
    }
}

/// Copies bytes into 8-byte words (little-endian), zero-padding the last.
fn bytemuck_copy(words: &mut [u64], bytes: &[u8]) {
    for (w, c) in words.iter_mut().zip(bytes.chunks(8)) {
        let mut b = [0u8; 8];
        b[..c.len()].copy_from_slice(c);
        *w = u64::from_le_bytes(b);
    }
}

fn expect_eq<T: PartialEq + std::fmt::Debug>(
    what: &str,
    got: &[T],
    want: &[T],
) -> Result<(), String> {
    if got.len() != want.len() {
        return Err(format!(
            "{what}: {} elements, expected {}",
            got.len(),
            want.len()
        ));
    }
    match got.iter().zip(want).position(|(g, w)| g != w) {
        None => Ok(()),
        Some(i) => Err(format!(
            "{what}[{i}] = {:?}, expected {:?}",
            got[i], want[i]
        )),
    }
}

/// Grid scale: 1 normally, 1/16 with WAVESIM_BENCH_QUICK.
fn quick() -> bool {
    std::env::var_os("WAVESIM_BENCH_QUICK").is_some_and(|v| v != "0")
}

fn saxpy() -> Case {
    let n: u32 = if quick() { 1 << 18 } else { 1 << 22 };
    let mut c = Case::new("saxpy", "saxpy", false, "saxpy");
    let mut r = Rng(1);
    let x: Vec<f32> = (0..n).map(|_| r.eighth()).collect();
    let y: Vec<f32> = (0..n).map(|_| r.eighth()).collect();
    let a = 2.5f32;
    let want: Vec<f32> = x.iter().zip(&y).map(|(x, y)| a.mul_add(*x, *y)).collect();
    let xa = c.buf(bytes_f32(&x));
    let ya = c.buf(bytes_f32(&y));
    c.args = vec![n.into(), a.into(), xa, ya];
    c.geo = Geometry::new(&[n], &[256]).unwrap();
    c.check = Box::new(move |o| expect_eq("y", &f32s(&o[1]), &want));
    c
}

fn mandelbrot(wave64: bool) -> Case {
    let (w, h, max_iter): (u32, u32, u32) = if quick() {
        (128, 96, 256)
    } else {
        (512, 384, 256)
    };
    let name = if wave64 {
        "mandelbrot_w64"
    } else {
        "mandelbrot"
    };
    let mut c = Case::new(name, "mandelbrot", wave64, "mandelbrot");
    let (x0, y0, step) = (-2.25f32, -1.125f32, 3.0f32 / w as f32);
    // The kernel's loop, FP contraction off (#pragma OPENCL FP_CONTRACT OFF).
    let mut want = Vec::with_capacity((w * h) as usize);
    for py in 0..h {
        for px in 0..w {
            let cx = x0 + px as f32 * step;
            let cy = y0 + py as f32 * step;
            let (mut x, mut y, mut it) = (0.0f32, 0.0f32, 0u32);
            while it < max_iter {
                let (xx, yy) = (x * x, y * y);
                if xx + yy > 4.0 {
                    break;
                }
                let xy = x * y;
                x = xx - yy + cx;
                y = xy + xy + cy;
                it += 1;
            }
            want.push(it);
        }
    }
    let out = c.buf(vec![0; 4 * (w * h) as usize]);
    c.args = vec![
        out,
        w.into(),
        h.into(),
        x0.into(),
        y0.into(),
        step.into(),
        max_iter.into(),
    ];
    c.geo = Geometry::new(&[w, h], &[16, 16]).unwrap();
    c.check = Box::new(move |o| expect_eq("out", &u32s(&o[0]), &want));
    c
}

fn hash_mix(wave64: bool) -> Case {
    let (n, rounds): (u32, u32) = if quick() { (4096, 64) } else { (16384, 256) };
    let name = if wave64 { "hash_mix_w64" } else { "hash_mix" };
    let mut c = Case::new(name, "hash_mix", wave64, "hash_mix");
    let mut r = Rng(2);
    let seeds: Vec<u32> = (0..n).map(|_| r.u32()).collect();
    let (mut w32, mut w64) = (Vec::new(), Vec::new());
    for (i, &s) in seeds.iter().enumerate() {
        let (mut x, mut h, mut z) = (s | 1, s ^ 0x9747_b28c, (s as u64) << 32 | i as u64);
        for _ in 0..rounds {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            let k = x
                .wrapping_mul(0xcc9e_2d51)
                .rotate_left(15)
                .wrapping_mul(0x1b87_3593);
            h ^= k;
            h = h.rotate_left(13).wrapping_mul(5).wrapping_add(0xe654_6b64);
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut q = z;
            q = (q ^ (q >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            q = (q ^ (q >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^= q ^ (q >> 31);
        }
        h ^= h >> 16;
        h = h.wrapping_mul(0x85eb_ca6b);
        h ^= h >> 13;
        h = h.wrapping_mul(0xc2b2_ae35);
        h ^= h >> 16;
        w32.extend([x, h]);
        w64.push(z);
    }
    let a0 = c.buf(bytes_u32(&seeds));
    let a1 = c.buf(vec![0; 8 * n as usize]);
    let a2 = c.buf(vec![0; 8 * n as usize]);
    c.args = vec![a0, a1, a2, rounds.into(), n.into()];
    c.geo = Geometry::new(&[n], &[128]).unwrap();
    c.check = Box::new(move |o| {
        expect_eq("out32", &u32s(&o[1]), &w32)?;
        expect_eq("out64", &u64s(&o[2]), &w64)
    });
    c
}

/// Row-major m x k times k x n with inputs that keep every sum exact (multiples of 1/8).
fn matmul_model(a: &[f32], b: &[f32], m: usize, n: usize, k: usize) -> Vec<f32> {
    let mut out = vec![0.0f32; m * n];
    for row in 0..m {
        for col in 0..n {
            let mut acc = 0.0f32;
            for i in 0..k {
                acc = a[row * k + i].mul_add(b[i * n + col], acc);
            }
            out[row * n + col] = acc;
        }
    }
    out
}

fn sgemm_naive() -> Case {
    let (m, n, k): (u32, u32, u32) = if quick() {
        (64, 64, 64)
    } else {
        (192, 192, 192)
    };
    let mut c = Case::new("sgemm_naive", "sgemm_naive", false, "sgemm_naive");
    let mut r = Rng(3);
    let a: Vec<f32> = (0..m * k).map(|_| r.eighth()).collect();
    let b: Vec<f32> = (0..k * n).map(|_| r.eighth()).collect();
    let c0: Vec<f32> = (0..m * n).map(|_| r.eighth()).collect();
    let (alpha, beta) = (1.5f32, -0.5f32);
    let ab = matmul_model(&a, &b, m as usize, n as usize, k as usize);
    let want: Vec<f32> = ab
        .iter()
        .zip(&c0)
        .map(|(p, c)| alpha * p + beta * c)
        .collect();
    let (aa, ba, ca) = (
        c.buf(bytes_f32(&a)),
        c.buf(bytes_f32(&b)),
        c.buf(bytes_f32(&c0)),
    );
    c.args = vec![
        aa,
        ba,
        ca,
        m.into(),
        n.into(),
        k.into(),
        alpha.into(),
        beta.into(),
    ];
    c.geo = Geometry::new(&[n, m], &[16, 16]).unwrap();
    c.check = Box::new(move |o| expect_eq("C", &f32s(&o[2]), &want));
    c
}

fn sgemm_tiled() -> Case {
    let (m, n, k): (u32, u32, u32) = if quick() {
        (64, 64, 64)
    } else {
        (256, 256, 256)
    };
    let mut c = Case::new("sgemm_tiled", "sgemm_tiled", false, "sgemm_tiled");
    let mut r = Rng(4);
    let a: Vec<f32> = (0..m * k).map(|_| r.eighth()).collect();
    let b: Vec<f32> = (0..k * n).map(|_| r.eighth()).collect();
    let want = matmul_model(&a, &b, m as usize, n as usize, k as usize);
    let (aa, ba) = (c.buf(bytes_f32(&a)), c.buf(bytes_f32(&b)));
    let ca = c.buf(vec![0; 4 * (m * n) as usize]);
    c.args = vec![aa, ba, ca, m.into(), n.into(), k.into()];
    c.geo = Geometry::new(&[n, m], &[16, 16]).unwrap();
    c.check = Box::new(move |o| expect_eq("C", &f32s(&o[2]), &want));
    c
}

fn lds_reduce() -> Case {
    let n: u32 = if quick() { 1 << 16 } else { 1 << 20 };
    let mut c = Case::new("lds_reduce", "lds_reduce", false, "lds_reduce");
    let mut r = Rng(5);
    let input: Vec<u32> = (0..n).map(|_| r.u32()).collect();
    let groups = (n / 128) as usize;
    let sums: Vec<u32> = input
        .chunks(128)
        .map(|g| g.iter().fold(0u32, |a, &v| a.wrapping_add(v)))
        .collect();
    let maxs: Vec<u32> = input
        .chunks(128)
        .map(|g| *g.iter().max().unwrap())
        .collect();
    let a0 = c.buf(bytes_u32(&input));
    let a1 = c.buf(vec![0; 4 * groups]);
    let a2 = c.buf(vec![0; 4 * groups]);
    c.args = vec![a0, a1, a2, n.into()];
    c.geo = Geometry::new(&[n], &[128]).unwrap();
    c.check = Box::new(move |o| {
        expect_eq("sums", &u32s(&o[1]), &sums)?;
        expect_eq("maxs", &u32s(&o[2]), &maxs)
    });
    c
}

fn histogram(local: bool) -> Case {
    let n: u32 = if quick() { 1 << 18 } else { 1 << 22 };
    let kernel = if local {
        "histogram_local"
    } else {
        "histogram_global"
    };
    let mut c = Case::new(kernel, "histogram", false, kernel);
    let mut r = Rng(6);
    // Skewed bytes (sum of two uniform nibbles per half) so some bins are hot, as in real data.
    let data: Vec<u8> = (0..n)
        .map(|_| {
            let v = r.u32();
            ((v & 0x7f) + ((v >> 8) & 0x7f)) as u8
        })
        .collect();
    let mut bins = vec![0u32; 256];
    for &b in &data {
        bins[b as usize] += 1;
    }
    let a0 = c.buf(data);
    let a1 = c.buf(vec![0; 1024]);
    c.args = vec![a0, a1, n.into()];
    // histogram_local: a grid-stride loop, 64 workgroups of 256 (16 bytes per work-item).
    let global = if local { 64 * 256 } else { n };
    c.geo = Geometry::new(&[global], &[256]).unwrap();
    c.check = Box::new(move |o| expect_eq("bins", &u32s(&o[1]), &bins));
    c
}

fn f64_horner() -> Case {
    let n: u32 = if quick() { 1 << 15 } else { 1 << 19 };
    let mut c = Case::new("f64_horner", "f64_horner", false, "f64_horner");
    const COEF: [f64; 13] = [
        1.0, -0.5, 0.25, -0.125, 0.0625, 3.0e-2, -1.5e-2, 7.5e-3, -3.75e-3, 1.875e-3, 9.0e-4,
        -4.5e-4, 2.25e-4,
    ];
    let mut r = Rng(7);
    let x: Vec<f64> = (0..n)
        .map(|_| (r.u32() as f64 / 4294967296.0) * 4.0 - 2.0)
        .collect();
    let mut want = Vec::with_capacity(2 * n as usize);
    for &t in &x {
        let mut rr = COEF[12];
        for k in (0..12).rev() {
            rr = rr.mul_add(t, COEF[k]);
        }
        let (mut s, mut p) = (0.0f64, 1.0f64);
        for cf in COEF {
            s += cf * p;
            p *= t;
        }
        want.extend([rr.to_bits(), s.to_bits()]);
    }
    let a0 = c.buf(bytes_f64(&x));
    let a1 = c.buf(vec![0; 16 * n as usize]);
    c.args = vec![a0, a1, n.into()];
    c.geo = Geometry::new(&[n], &[128]).unwrap();
    c.check = Box::new(move |o| {
        let got: Vec<u64> = f64s(&o[1]).into_iter().map(f64::to_bits).collect();
        expect_eq("out", &got, &want)
    });
    c
}

/// The positional arguments of the command line (criterion's name filter), skipping the values
/// of criterion's options that take one.
fn name_filters() -> Vec<String> {
    const WITH_VALUE: &[&str] = &[
        "-s",
        "--save-baseline",
        "-b",
        "--baseline",
        "--baseline-lenient",
        "--load-baseline",
        "--sample-size",
        "--warm-up-time",
        "--measurement-time",
        "--nresamples",
        "--noise-threshold",
        "--confidence-level",
        "--significance-level",
        "--profile-time",
        "-c",
        "--color",
        "--output-format",
        "--plotting-backend",
        "--format",
        "--logfile",
    ];
    let mut out = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        if WITH_VALUE.contains(&a.as_str()) {
            args.next();
        } else if !a.starts_with('-') {
            out.push(a);
        }
    }
    out
}

/// One line of the summary table.
struct Row {
    name: String,
    threads: usize,
    stats: DispatchStats,
    best: Duration,
}

static ROWS: Mutex<Vec<Row>> = Mutex::new(Vec::new());

fn bench_case(cr: &mut Criterion, mut case: Case, thread_counts: &[usize]) {
    // Skip the setup cost of cases the filter excludes: criterion has no query for that, so
    // look at the command line ourselves (a plain substring filter, as `cargo bench -- NAME`).
    let filters = name_filters();
    let mut group = cr.benchmark_group(case.name.clone());
    group.sampling_mode(SamplingMode::Flat);
    group.sample_size(10);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(4));
    for &t in thread_counts {
        let id = format!("{}/threads={t}", case.name);
        if !filters.is_empty() && !filters.iter().any(|f| id.contains(f.as_str())) {
            continue;
        }
        case.dev.threads = t;
        let stats = case.run_checked();
        group.throughput(Throughput::Elements(stats.lane_instructions));
        let mut best = Duration::MAX;
        group.bench_function(format!("threads={t}"), |b| {
            b.iter_custom(|iters| {
                let start = Instant::now();
                for _ in 0..iters {
                    case.dispatch();
                }
                let el = start.elapsed();
                best = best.min(el / iters.max(1) as u32);
                el
            })
        });
        if best != Duration::MAX {
            ROWS.lock().unwrap().push(Row {
                name: case.name.clone(),
                threads: t,
                stats,
                best,
            });
        }
    }
    group.finish();
}

fn print_summary() {
    let rows = ROWS.lock().unwrap();
    if rows.is_empty() {
        return;
    }
    println!();
    println!(
        "{:<18} {:>7} {:>13} {:>13} {:>10} {:>12} {:>12} {:>8}",
        "kernel",
        "threads",
        "wave-instr",
        "lane-instr",
        "best ms",
        "wave-inst/s",
        "lane-inst/s",
        "speedup"
    );
    for r in rows.iter() {
        let secs = r.best.as_secs_f64();
        let one = rows
            .iter()
            .find(|o| o.name == r.name && o.threads == 1)
            .map(|o| o.best.as_secs_f64());
        let speedup = match one {
            Some(o) if r.threads > 1 => format!("{:.2}x", o / secs),
            _ => String::new(),
        };
        println!(
            "{:<18} {:>7} {:>13} {:>13} {:>10.1} {:>12.3e} {:>12.3e} {:>8}",
            r.name,
            r.threads,
            r.stats.wave_instructions,
            r.stats.lane_instructions,
            secs * 1e3,
            r.stats.wave_instructions as f64 / secs,
            r.stats.lane_instructions as f64 / secs,
            speedup
        );
    }
}

/// CPU time this thread has run, from /proc/thread-self/schedstat (Linux); None elsewhere.
fn thread_cpu_time() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: u64 = s.split_whitespace().next()?.parse().ok()?;
    Some(Duration::from_nanos(ns))
}

/// This thread's CPU time since `c0` (a [`thread_cpu_time`]), `Duration::MAX` if unknown.
fn cpu_since(c0: Option<Duration>) -> Duration {
    match (c0, thread_cpu_time()) {
        (Some(a), Some(b)) => b.saturating_sub(a),
        _ => Duration::MAX,
    }
}

/// Minor page faults of this thread (/proc/thread-self/stat field 10) and the times it was
/// taken off its core without blocking (`nonvoluntary_ctxt_switches` of
/// /proc/thread-self/status: another process ran instead); None elsewhere. The two things
/// that make a one-thread dispatch's wall time exceed its CPU time or inflate it: first-touch
/// faults (counted as CPU time, in the kernel) and preemption (not counted).
fn thread_faults_and_preemptions() -> Option<(u64, u64)> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let rest = stat.get(stat.rfind(')')? + 2..)?;
    // Fields after the command name start with the state (field 3): minflt is field 10.
    let minflt = rest.split_whitespace().nth(7)?.parse().ok()?;
    let status = std::fs::read_to_string("/proc/thread-self/status").ok()?;
    let preempted = status
        .lines()
        .find_map(|l| l.strip_prefix("nonvoluntary_ctxt_switches:"))?
        .trim()
        .parse()
        .ok()?;
    Some((minflt, preempted))
}

/// CPU time of the whole process (all threads), from /proc/self/stat (Linux, clock ticks of
/// 10 ms); None elsewhere.
fn process_cpu_time() -> Option<Duration> {
    let s = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the parenthesised command name start with the state (field 3); utime and
    // stime are fields 14 and 15.
    let rest = s.get(s.rfind(')')? + 2..)?;
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks = f.get(11)?.parse::<u64>().ok()? + f.get(12)?.parse::<u64>().ok()?;
    Some(Duration::from_millis(ticks * 10))
}

/// `WAVESIM_BENCH_ITERS=N`: instead of criterion, run each selected case N times and report the
/// best wall time and the best CPU time of this thread per dispatch; rates use the CPU time.
/// CPU time is what to compare on a busy machine (other processes inflate wall time, not CPU
/// time). With `WAVESIM_BENCH_THREADS=T` (T > 1) the dispatches use T host threads, rates use
/// the wall time, and the CPU column is the whole process's CPU time over the N dispatches
/// divided by N (10 ms ticks), so CPU / wall shows how many threads actually ran. The last two
/// columns but one are the calling thread's minor page faults and preemptions per timed dispatch
/// (averages; see [`thread_faults_and_preemptions`]); the last is the cranelift IR the JIT
/// compiled in the first (cold) dispatch, whose compile time is `jit ms`, and then that
/// dispatch's CPU time (`cold cpu`; its wall time is `cold ms`). `WAVESIM_BENCH_EACH=1` also prints every
/// timed dispatch's wall and CPU time and what the JIT compiled during it to stderr (blocks
/// compiled or promoted to the optimising tier late show there).
fn fixed_iterations(cases: &[(&str, Make)], iters: u32) {
    let each = std::env::var_os("WAVESIM_BENCH_EACH").is_some_and(|v| v != "0");
    let threads: usize = std::env::var("WAVESIM_BENCH_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1);
    let raw = std::env::var_os("WAVESIM_BENCH_RAW").is_some_and(|v| v != "0");
    println!(
        "{:<18} {:>13} {:>13} {:>9} {:>9} {:>12} {:>12} {:>8} {:>7} {:>9} {:>7} {:>7} {:>8} {:>9}",
        "kernel",
        "wave-instr",
        "lane-instr",
        "wall ms",
        "cpu ms",
        "wave-inst/s",
        "lane-inst/s",
        "jit ms",
        "blocks",
        "cold ms",
        "faults",
        "preempt",
        "jit IR",
        "cold cpu"
    );
    for (_, make) in cases {
        let mut case = make();
        case.dev.threads = threads;
        // The engine comes from WAVESIM_ENGINE (interp, jit, auto); whatever the JIT compiles
        // is compiled in this first, checked run (the cold one), so the timed runs below reuse
        // the code.
        let jit0 = wavesim_rdna3::jit::compile_stats();
        let mut raw_case = None;
        let (stats, cold, cold_cpu) = if raw {
            // The raw ABI takes its thread count from the process default.
            wavesim_core::engine::set_default_threads(threads);
            let r = RawCase::new(&case).and_then(|mut r| {
                let s = r.run_checked(&case.check)?;
                raw_case = Some(r);
                Ok(s)
            });
            match r {
                Ok(s) => s,
                Err(e) => {
                    println!("{:<18} raw dispatch not measured: {e}", case.name);
                    continue;
                }
            }
        } else {
            case.run_checked_timed()
        };
        let jit1 = wavesim_rdna3::jit::compile_stats();
        let jit_ms = (jit1.nanos - jit0.nanos) as f64 / 1e6;
        let (mut wall, mut cpu) = (Duration::MAX, Duration::MAX);
        let p0 = process_cpu_time();
        let f0 = thread_faults_and_preemptions();
        for i in 0..iters {
            let j0 = each.then(wavesim_rdna3::jit::compile_stats);
            let (t0, c0) = (Instant::now(), thread_cpu_time());
            match raw_case.as_mut() {
                Some(r) => {
                    r.dispatch();
                }
                None => {
                    case.dispatch();
                }
            }
            let el = t0.elapsed();
            wall = wall.min(el);
            let c = match (c0, thread_cpu_time()) {
                (Some(a), Some(b)) => b.saturating_sub(a),
                _ => Duration::MAX,
            };
            cpu = cpu.min(c);
            if let Some(j0) = j0 {
                let j1 = wavesim_rdna3::jit::compile_stats();
                eprintln!(
                    "{} dispatch {i}: wall {:.1} ms, cpu {:.1} ms, compiled {} block(s) \
                     ({} promoted, {} IR instructions) in {:.1} ms",
                    case.name,
                    el.as_secs_f64() * 1e3,
                    c.as_secs_f64() * 1e3,
                    j1.blocks - j0.blocks,
                    j1.promoted - j0.promoted,
                    j1.ir_insts - j0.ir_insts,
                    (j1.nanos - j0.nanos) as f64 / 1e6
                );
            }
        }
        let per = |a: u64, b: u64| (b.saturating_sub(a)) as f64 / iters.max(1) as f64;
        let (faults, preempt) = match (f0, thread_faults_and_preemptions()) {
            (Some(a), Some(b)) => (per(a.0, b.0), per(a.1, b.1)),
            _ => (f64::NAN, f64::NAN),
        };
        let secs = if threads > 1 {
            cpu = match (p0, process_cpu_time()) {
                (Some(a), Some(b)) => b.saturating_sub(a) / iters.max(1),
                _ => Duration::ZERO,
            };
            wall.as_secs_f64()
        } else if cpu == Duration::MAX {
            wall.as_secs_f64()
        } else {
            cpu.as_secs_f64()
        };
        println!(
            "{:<18} {:>13} {:>13} {:>9.1} {:>9.1} {:>12.3e} {:>12.3e} {:>8.1} {:>7} {:>9.1} {:>7.1} {:>7.1} {:>8} {:>9.1}",
            case.name,
            stats.wave_instructions,
            stats.lane_instructions,
            wall.as_secs_f64() * 1e3,
            cpu.as_secs_f64() * 1e3,
            stats.wave_instructions as f64 / secs,
            stats.lane_instructions as f64 / secs,
            jit_ms,
            jit1.blocks - jit0.blocks,
            cold.as_secs_f64() * 1e3,
            faults,
            preempt,
            jit1.ir_insts - jit0.ir_insts,
            cold_cpu.as_secs_f64() * 1e3,
        );
    }
}

fn main() {
    let all = std::thread::available_parallelism().map_or(1, |n| n.get());
    let threads: Vec<usize> = if all > 1 { vec![1, all] } else { vec![1] };
    let cases: &[(&str, Make)] = &[
        ("hash_mix", || hash_mix(false)),
        ("hash_mix_w64", || hash_mix(true)),
        ("mandelbrot", || mandelbrot(false)),
        ("mandelbrot_w64", || mandelbrot(true)),
        ("saxpy", saxpy),
        ("sgemm_naive", sgemm_naive),
        ("sgemm_tiled", sgemm_tiled),
        ("lds_reduce", lds_reduce),
        ("histogram_global", || histogram(false)),
        ("histogram_local", || histogram(true)),
        ("f64_horner", f64_horner),
        // The f32 kernels again with f32 denormals flushed.
        ("mandelbrot_ftz", || ftz(mandelbrot(false))),
        ("mandelbrot_w64_ftz", || ftz(mandelbrot(true))),
        ("saxpy_ftz", || ftz(saxpy())),
        ("sgemm_naive_ftz", || ftz(sgemm_naive())),
        ("sgemm_tiled_ftz", || ftz(sgemm_tiled())),
    ];
    let filters = name_filters();
    // Build (and model) only the cases the name filter selects.
    let selected: Vec<(&str, Make)> = cases
        .iter()
        .filter(|(name, _)| {
            filters.is_empty()
                || threads.iter().any(|t| {
                    let id = format!("{name}/threads={t}");
                    filters.iter().any(|f| id.contains(f.as_str()))
                })
        })
        .copied()
        .collect();
    if let Some(n) = std::env::var("WAVESIM_BENCH_ITERS")
        .ok()
        .and_then(|v| v.parse().ok())
    {
        fixed_iterations(&selected, n);
        return;
    }
    let mut cr = Criterion::default().configure_from_args();
    for (_, make) in selected {
        bench_case(&mut cr, make(), &threads);
    }
    cr.final_summary();
    print_summary();
}
