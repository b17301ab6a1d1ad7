//! Fixed costs (issue 17): what a dispatch costs before any real work, and what starting a wave
//! costs. Test suites launch thousands of tiny kernels, so these numbers, not the throughput of
//! large grids, decide how long they take.
//!
//! `cargo bench -p wavesim --bench fixed` prints, per case, the best and the median time of one
//! call over many calls (wall time; run it on an otherwise idle machine):
//! * `run_asm s_endpgm, 1 wave`: the C ABI's `run_asm` path (`wavesim::run_host_asm`) on the
//!   smallest program there is, one workgroup of one wave: decode, launch set-up, one wave start,
//!   one instruction, tear-down.
//! * `device saxpy, 1 wave` / `1 workgroup of 8 waves`: `Device::dispatch` of the corpus saxpy
//!   (kernarg and AQL packet written, hidden arguments, scratch, the waves, the result).
//! * `run_asm s_endpgm, per wave` and `device saxpy, per wave`: a grid of many waves divided by its
//!   wave count (with threads = 1): the cost of starting (and for saxpy, running) one wave.
use std::time::{Duration, Instant};
use wavesim::{Arg, Device, Geometry};

/// Times `f` `n` times; returns (best, median).
fn time(n: usize, mut f: impl FnMut()) -> (Duration, Duration) {
    f(); // warm-up
    let mut t: Vec<Duration> = (0..n)
        .map(|_| {
            let t0 = Instant::now();
            f();
            t0.elapsed()
        })
        .collect();
    t.sort();
    (t[0], t[n / 2])
}

fn row(name: &str, per: f64, (best, median): (Duration, Duration)) {
    println!(
        "{name:<40} {:>12.3} {:>12.3}",
        best.as_secs_f64() * 1e6 / per,
        median.as_secs_f64() * 1e6 / per
    );
}

/// `s_endpgm` followed by the 64 dwords of padding the ISA asks for after the code.
fn endpgm() -> Vec<u8> {
    let mut code = 0xbfb0_0000u32.to_le_bytes().to_vec();
    code.resize(4 + 256, 0);
    code
}

fn run_asm(code: &[u8], groups: u32, local: u32) {
    // SAFETY: the program touches no memory (s_endpgm only); no kernarg pointer is read.
    let r = unsafe { wavesim::run_host_asm(code, [groups, 1, 1], [local, 1, 1], 0, 0, 0, 1000) };
    if let Err(e) = r {
        panic!("run_asm: {e}");
    }
}

struct Saxpy {
    dev: Device,
    module: wavesim::Module,
    x: u64,
    y: u64,
}

impl Saxpy {
    fn new(n: u32) -> Saxpy {
        let path = format!(
            "{}/../../corpus/gfx1100-w32/saxpy.hsaco",
            env!("CARGO_MANIFEST_DIR")
        );
        let elf = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let mut dev = Device::new();
        dev.threads = 1;
        let module = dev.load(&elf).expect("load");
        let x = dev.alloc(4 * n as u64).expect("alloc");
        let y = dev.alloc(4 * n as u64).expect("alloc");
        Saxpy { dev, module, x, y }
    }

    fn run(&mut self, n: u32, local: u32) {
        let geo = Geometry::new(&[n], &[local]).expect("geometry");
        let args = [
            Arg::from(n),
            Arg::from(2.5f32),
            Arg::Buffer(self.x),
            Arg::Buffer(self.y),
        ];
        self.dev
            .dispatch(&self.module, "saxpy", &geo, &args)
            .expect("dispatch");
    }
}

fn main() {
    // `cargo bench` passes `--bench`; there are no options.
    println!("{:<40} {:>12} {:>12}", "case", "best us", "median us");
    let code = endpgm();
    row(
        "run_asm s_endpgm, 1 wave",
        1.0,
        time(2000, || run_asm(&code, 1, 32)),
    );
    let mut s = Saxpy::new(1 << 20);
    row("device saxpy, 1 wave", 1.0, time(2000, || s.run(32, 32)));
    row(
        "device saxpy, 1 workgroup of 8 waves",
        1.0,
        time(2000, || s.run(256, 256)),
    );
    let waves = 4096u32;
    row(
        "run_asm s_endpgm, per wave (4096 waves)",
        waves as f64,
        time(50, || run_asm(&code, waves, 32)),
    );
    let n = 1u32 << 20;
    row(
        "device saxpy, per wave (32768 waves)",
        (n / 32) as f64,
        time(20, || s.run(n, 256)),
    );
}
