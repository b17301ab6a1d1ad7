//! Real G13 machine code: OpenCL kernels compiled by Mesa's asahi_clc at Mesa 702c038b916
//! (corpus/agx/clc/*.cl -> *.bin, tools/agx/build_clc_kernels.sh) and Mesa's own compiled helper
//! program. Disassembly must equal applegpu's (goldens from tools/agx/gen_binary_disasm.sh), and the
//! kernels must compute what an independent Rust model of their OpenCL source computes.
//!
//! The kernels are written as asahi_clc's helper function (the one entry point it compiles to machine
//! code at that version): the argument block's address arrives in sr146/sr147 (the helper argument
//! registers; applegpu names them opfifo_data_l/h) and the 32 threads split the elements by
//! thread_index_in_simdgroup (sr52).

use wavesim_agx::exec::{run, Fault, Memories, Program, Stop, WaveState, SIMD_WIDTH};
use wavesim_agx::helper::{
    HelperEvent, HelperPort, HelperRequest, DOORBELL_ACK, DOORBELL_NACK, DOORBELL_NEXT, SR_CORE_ID,
    SR_HELPER_ARG_H, SR_HELPER_ARG_L,
};
use wavesim_agx::{disassemble_raw, disassemble_raw_until_stop};
use wavesim_core::memory::DeviceMemory;
use wavesim_core::memory::MemError;

fn corpus(path: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/../../corpus/agx/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn corpus_text(path: &str) -> String {
    String::from_utf8(corpus(path)).unwrap()
}

const KERNELS: &[&str] = &[
    "bits", "bytes", "collatz", "fconv", "fmath", "i64", "minmax", "saxpy", "short16", "shuffle",
    "switch", "udiv", "vadd",
];

#[test]
fn real_binaries_disassemble_as_applegpu() {
    let mut names: Vec<String> = KERNELS.iter().map(|k| format!("clc/{k}")).collect();
    names.push("mesa_libagx_g13_helper".into());
    for name in names {
        let code = corpus(&format!("{name}.bin"));
        let want = corpus_text(&format!("{name}.applegpu.txt"));
        assert_eq!(
            disassemble_raw_until_stop(&code, 0).unwrap(),
            want,
            "{name}"
        );
        // Every byte: disassemble.py with STOP_ON_STOP = False (tools/agx/gen_binary_disasm.sh).
        let want = corpus_text(&format!("{name}.applegpu_all.txt"));
        assert_eq!(
            disassemble_raw(&code, 0).unwrap(),
            want,
            "{name} (every byte)"
        );
    }
}

/// Issue 27: Mesa's helper ends in `stop`, eight `trap`s and a zero padding word; the raw listing shows
/// the traps and the padding's blank line (applegpu's layout for a run of zero words).
#[test]
fn raw_listing_goes_past_stop_to_the_last_byte() {
    let code = corpus("mesa_libagx_g13_helper.bin");
    assert_eq!(code.len(), 0x304);
    let text = disassemble_raw(&code, 0).unwrap();
    let tail: Vec<&str> = text.lines().rev().take(10).collect();
    assert_eq!(tail[0], "", "the padding word at 0x302");
    for (i, line) in tail[1..9].iter().enumerate() {
        let pc = 0x300 - 2 * i;
        assert!(
            line.starts_with(&format!("{pc:4x}: 0800")) && line.trim_end().ends_with("trap"),
            "{line}"
        );
    }
    assert!(tail[9].trim_end().ends_with("stop"), "{}", tail[9]);
    // The script's default ends at the stop.
    let until = disassemble_raw_until_stop(&code, 0).unwrap();
    assert!(until.trim_end().ends_with("stop"));
}

/// Run a helper-form kernel on one SIMD group with its argument block at `args`.
fn run_kernel(name: &str, dev: &DeviceMemory, args: u64) -> WaveState {
    let program = Program::new(corpus(&format!("clc/{name}.bin")));
    let mut w = WaveState::new(128);
    w.special.insert(146, [args as u32; SIMD_WIDTH]);
    w.special.insert(147, [(args >> 32) as u32; SIMD_WIDTH]);
    w.special.insert(52, std::array::from_fn(|l| l as u32));
    let mut tg = vec![];
    let mut mem = Memories {
        device: dev,
        threadgroup: &mut tg,
    };
    let stop = run(&mut w, &program, &mut mem, 1_000_000).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert_eq!(stop, Stop::End, "{name}");
    w
}

struct Bufs {
    dev: DeviceMemory,
}

impl Bufs {
    fn new() -> Bufs {
        Bufs {
            dev: DeviceMemory::new(),
        }
    }
    fn buf(&mut self, bytes: &[u8]) -> u64 {
        let a = self.dev.alloc(bytes.len().max(8) as u64, 64).unwrap();
        self.dev.write(a, bytes).unwrap();
        a
    }
    fn zeros(&mut self, n: usize) -> u64 {
        self.buf(&vec![0u8; n])
    }
    fn u32s(&mut self, v: &[u32]) -> u64 {
        self.buf(&v.iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<_>>())
    }
    fn read_u32s(&self, a: u64, n: usize) -> Vec<u32> {
        (0..n)
            .map(|i| self.dev.read_u32(a + 4 * i as u64).unwrap())
            .collect()
    }
    /// An argument block: fields laid out with C alignment (pointers 8 bytes, u32/f32 4 bytes).
    fn args(&mut self, fields: &[Arg]) -> u64 {
        let mut b = vec![];
        for f in fields {
            match f {
                Arg::Ptr(p) => {
                    while b.len() % 8 != 0 {
                        b.push(0);
                    }
                    b.extend_from_slice(&p.to_le_bytes());
                }
                Arg::U32(v) => b.extend_from_slice(&v.to_le_bytes()),
            }
        }
        self.buf(&b)
    }
}

enum Arg {
    Ptr(u64),
    U32(u32),
}

fn inputs(n: usize, seed: u32) -> Vec<u32> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            x
        })
        .collect()
}

const N: usize = 100;

#[test]
fn vadd() {
    let mut m = Bufs::new();
    let (a, b) = (inputs(N, 1), inputs(N, 2));
    let (pa, pb, po) = (m.u32s(&a), m.u32s(&b), m.zeros(4 * N));
    let args = m.args(&[Arg::Ptr(pa), Arg::Ptr(pb), Arg::Ptr(po), Arg::U32(N as u32)]);
    run_kernel("vadd", &m.dev, args);
    let want: Vec<u32> = (0..N).map(|i| a[i].wrapping_add(b[i])).collect();
    assert_eq!(m.read_u32s(po, N), want);
}

#[test]
fn saxpy() {
    let mut m = Bufs::new();
    let x: Vec<f32> = (0..N).map(|i| (i as f32 - 40.0) * 0.37).collect();
    let y: Vec<f32> = (0..N).map(|i| 1.0 / (i as f32 + 1.0)).collect();
    let alpha = 1.7f32;
    let px = m.u32s(&x.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
    let py = m.u32s(&y.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
    let po = m.zeros(4 * N);
    let args = m.args(&[
        Arg::Ptr(px),
        Arg::Ptr(py),
        Arg::Ptr(po),
        Arg::U32(alpha.to_bits()),
        Arg::U32(N as u32),
    ]);
    run_kernel("saxpy", &m.dev, args);
    // The compiler contracts alpha * x + y into one fused multiply-add (fmadd32): one rounding.
    let want: Vec<u32> = (0..N)
        .map(|i| alpha.mul_add(x[i], y[i]).to_bits())
        .collect();
    assert_eq!(m.read_u32s(po, N), want);
}

#[test]
fn bits() {
    let mut m = Bufs::new();
    let mut a = inputs(N, 3);
    a[0] = 0;
    a[1] = 1;
    a[2] = u32::MAX;
    let (pa, po) = (m.u32s(&a), m.zeros(4 * N));
    let args = m.args(&[Arg::Ptr(pa), Arg::Ptr(po), Arg::U32(N as u32)]);
    run_kernel("bits", &m.dev, args);
    let want: Vec<u32> = a
        .iter()
        .map(|&v| {
            v.count_ones()
                ^ (v >> 3)
                ^ v.rotate_left(7)
                ^ (v.leading_zeros() << 24)
                ^ ((v & 0xff00) << 8)
        })
        .collect();
    assert_eq!(m.read_u32s(po, N), want);
}

#[test]
fn udiv() {
    let mut m = Bufs::new();
    let a = inputs(N, 4);
    let mut b: Vec<u32> = inputs(N, 5).iter().map(|v| v >> (v % 31)).collect();
    b[0] = 0;
    b[1] = u32::MAX;
    let (pa, pb, pq, pr) = (m.u32s(&a), m.u32s(&b), m.zeros(4 * N), m.zeros(4 * N));
    let args = m.args(&[
        Arg::Ptr(pa),
        Arg::Ptr(pb),
        Arg::Ptr(pq),
        Arg::Ptr(pr),
        Arg::U32(N as u32),
    ]);
    run_kernel("udiv", &m.dev, args);
    let q: Vec<u32> = (0..N).map(|i| a[i] / (b[i] | 1)).collect();
    let r: Vec<u32> = (0..N).map(|i| a[i] % (b[i] | 1)).collect();
    assert_eq!(m.read_u32s(pq, N), q);
    assert_eq!(m.read_u32s(pr, N), r);
}

#[test]
fn collatz() {
    let mut m = Bufs::new();
    let start: Vec<u32> = (1..=N as u32).map(|i| i * 7 + 1).collect();
    let (ps, po) = (m.u32s(&start), m.zeros(4 * N));
    let args = m.args(&[Arg::Ptr(ps), Arg::Ptr(po), Arg::U32(N as u32)]);
    run_kernel("collatz", &m.dev, args);
    let want: Vec<u32> = start
        .iter()
        .map(|&s| {
            let (mut x, mut n) = (s, 0);
            while x != 1 && n < 1000 {
                x = if x & 1 == 1 {
                    x.wrapping_mul(3).wrapping_add(1)
                } else {
                    x / 2
                };
                n += 1;
            }
            n
        })
        .collect();
    assert_eq!(m.read_u32s(po, N), want);
}

#[test]
fn minmax() {
    let mut m = Bufs::new();
    let a: Vec<i32> = inputs(N, 6).iter().map(|v| (*v as i32) >> 20).collect();
    let b: Vec<i32> = inputs(N, 7).iter().map(|v| (*v as i32) >> 20).collect();
    let pa = m.u32s(&a.iter().map(|v| *v as u32).collect::<Vec<_>>());
    let pb = m.u32s(&b.iter().map(|v| *v as u32).collect::<Vec<_>>());
    let po = m.zeros(4 * N);
    let args = m.args(&[Arg::Ptr(pa), Arg::Ptr(pb), Arg::Ptr(po), Arg::U32(N as u32)]);
    run_kernel("minmax", &m.dev, args);
    let want: Vec<u32> = (0..N)
        .map(|i| {
            let (x, y) = (a[i], b[i]);
            let d = if x < y {
                y.wrapping_sub(x)
            } else {
                x.wrapping_sub(y)
            };
            let r = d
                .wrapping_add(x.max(y).wrapping_mul(2))
                .wrapping_sub(x.min(0))
                .wrapping_add(if x > 100 { 7 } else { -3 });
            r as u32
        })
        .collect();
    assert_eq!(m.read_u32s(po, N), want);
}

#[test]
fn i64() {
    let mut m = Bufs::new();
    let a: Vec<u64> = (0..N)
        .map(|i| (inputs(1, i as u32 + 9)[0] as u64) << 20 | i as u64)
        .collect();
    let b: Vec<u64> = (0..N)
        .map(|i| (inputs(1, i as u32 + 99)[0] as u64) << 31 | 0xFFFF)
        .collect();
    let pa = m.buf(&a.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<_>>());
    let pb = m.buf(&b.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<_>>());
    let po = m.zeros(8 * N);
    let args = m.args(&[Arg::Ptr(pa), Arg::Ptr(pb), Arg::Ptr(po), Arg::U32(N as u32)]);
    run_kernel("i64", &m.dev, args);
    for i in 0..N {
        let want = a[i]
            .wrapping_mul(3)
            .wrapping_add(b[i] >> 5)
            .wrapping_add((i as u64) << 40);
        assert_eq!(
            m.dev.read_u64(po + 8 * i as u64).unwrap(),
            want,
            "element {i}"
        );
    }
}

#[test]
fn short16() {
    let mut m = Bufs::new();
    let a: Vec<u16> = inputs(N, 10).iter().map(|v| *v as u16).collect();
    let b: Vec<u16> = inputs(N, 11).iter().map(|v| (*v >> 16) as u16).collect();
    let pa = m.buf(&a.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<_>>());
    let pb = m.buf(&b.iter().flat_map(|v| v.to_le_bytes()).collect::<Vec<_>>());
    let po = m.zeros(2 * N);
    let args = m.args(&[Arg::Ptr(pa), Arg::Ptr(pb), Arg::Ptr(po), Arg::U32(N as u32)]);
    run_kernel("short16", &m.dev, args);
    for i in 0..N {
        let (x, y) = (a[i] as i32, b[i] as i32);
        let want = x
            .wrapping_mul(y)
            .wrapping_add(x >> 2)
            .wrapping_sub(y & 0x0f0f) as u16;
        let mut got = [0u8; 2];
        m.dev.read(po + 2 * i as u64, &mut got).unwrap();
        assert_eq!(u16::from_le_bytes(got), want, "element {i}");
    }
}

#[test]
fn bytes() {
    let mut m = Bufs::new();
    let text: Vec<u8> = b"Hello, AGX world! The quick brown fox jumps over the lazy dog 0123456789 {|}~ zAa\x00\xff".to_vec();
    let n = text.len();
    let (pi, po) = (m.buf(&text), m.zeros(n));
    let args = m.args(&[Arg::Ptr(pi), Arg::Ptr(po), Arg::U32(n as u32)]);
    run_kernel("bytes", &m.dev, args);
    let want: Vec<u8> = text
        .iter()
        .map(|&c| {
            if c.is_ascii_lowercase() {
                c - 32
            } else {
                c ^ 0x20
            }
        })
        .collect();
    let mut got = vec![0u8; n];
    m.dev.read(po, &mut got).unwrap();
    assert_eq!(got, want);
}

#[test]
fn fconv() {
    let mut m = Bufs::new();
    let a: Vec<i32> = (0..N as i32).map(|i| (i - 50) * 37).collect();
    let pa = m.u32s(&a.iter().map(|v| *v as u32).collect::<Vec<_>>());
    let (pf, pb) = (m.zeros(4 * N), m.zeros(4 * N));
    let args = m.args(&[Arg::Ptr(pa), Arg::Ptr(pf), Arg::Ptr(pb), Arg::U32(N as u32)]);
    run_kernel("fconv", &m.dev, args);
    let f: Vec<u32> = a
        .iter()
        .map(|&x| ((x as f32) * 0.5 + 0.25).to_bits())
        .collect();
    let back: Vec<u32> = a
        .iter()
        .map(|&x| (((x as f32) * 0.5 + 0.25) * 3.0) as i32 as u32)
        .collect();
    assert_eq!(m.read_u32s(pf, N), f);
    assert_eq!(m.read_u32s(pb, N), back);
}

#[test]
fn fmath() {
    let mut m = Bufs::new();
    let a: Vec<f32> = (0..N).map(|i| (i as f32 - 50.0) * 0.25).collect();
    let pa = m.u32s(&a.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
    let po = m.zeros(4 * N);
    let args = m.args(&[Arg::Ptr(pa), Arg::Ptr(po), Arg::U32(N as u32)]);
    run_kernel("fmath", &m.dev, args);
    // Every intermediate is a small multiple of 1/8, so the result is exact in any evaluation order.
    let want: Vec<u32> = a
        .iter()
        .map(|&x| {
            (x.floor() + (x * 0.25).ceil() + x.abs() * 0.5 + x.min(1.0) + x.max(-2.0)).to_bits()
        })
        .collect();
    assert_eq!(m.read_u32s(po, N), want);
}

#[test]
fn shuffle() {
    for n in [32usize, 20] {
        let mut m = Bufs::new();
        let a = inputs(32, 12);
        let (pa, po) = (m.u32s(&a), m.zeros(4 * 32));
        let args = m.args(&[Arg::Ptr(pa), Arg::Ptr(po), Arg::U32(n as u32)]);
        run_kernel("shuffle", &m.dev, args);
        let v: Vec<u32> = (0..32).map(|l| if l < n { a[l] } else { 0 }).collect();
        let got = m.read_u32s(po, 32);
        for lane in 0..32 {
            let want = if lane < n {
                v[(lane * 5) & 31].wrapping_add(v[lane ^ 1].wrapping_mul(3))
            } else {
                0
            };
            assert_eq!(got[lane], want, "n={n} lane {lane}");
        }
    }
}

#[test]
fn switch() {
    let mut m = Bufs::new();
    let a: Vec<u32> = (0..N as u32).map(|i| i * 13 + 5).collect();
    let (pa, po) = (m.u32s(&a), m.zeros(4 * N));
    let args = m.args(&[Arg::Ptr(pa), Arg::Ptr(po), Arg::U32(N as u32)]);
    run_kernel("switch", &m.dev, args);
    let want: Vec<u32> = a
        .iter()
        .map(|&v| match v % 6 {
            0 => v.wrapping_mul(7),
            1 => v + 100,
            2 => v ^ 0x5555,
            3 => v >> 2,
            _ => 42,
        })
        .collect();
    assert_eq!(m.read_u32s(po, N), want);
}

#[test]
fn atomics() {
    let mut m = Bufs::new();
    let keys: Vec<u32> = inputs(N, 13).iter().map(|v| v % 3000).collect();
    let (pk, ph, pold) = (m.u32s(&keys), m.zeros(4 * 16), m.zeros(4 * N));
    let pmin = m.u32s(&[i32::MAX as u32]);
    let args = m.args(&[
        Arg::Ptr(pk),
        Arg::Ptr(ph),
        Arg::Ptr(pold),
        Arg::Ptr(pmin),
        Arg::U32(N as u32),
    ]);
    run_kernel("atomics", &m.dev, args);
    // Element i's atomic_add returns how many earlier elements hit the same bin (elements are processed
    // 32 at a time, threads of one instruction in order).
    let mut hist = [0u32; 16];
    let mut old = vec![];
    for k in &keys {
        old.push(hist[(k % 16) as usize]);
        hist[(k % 16) as usize] += 1;
    }
    assert_eq!(m.read_u32s(ph, 16), hist.to_vec());
    assert_eq!(m.read_u32s(pold, N), old);
    let min = keys.iter().map(|&k| k as i32 - 1000).min().unwrap();
    assert_eq!(m.read_u32s(pmin, 1)[0] as i32, min);
}

#[test]
fn subgroup() {
    let mut m = Bufs::new();
    let a = inputs(32, 14);
    let pa = m.u32s(&a);
    let outs: Vec<u64> = (0..4).map(|_| m.zeros(4 * 32)).collect();
    let args = m.args(&[
        Arg::Ptr(pa),
        Arg::Ptr(outs[0]),
        Arg::Ptr(outs[1]),
        Arg::Ptr(outs[2]),
        Arg::Ptr(outs[3]),
    ]);
    run_kernel("subgroup", &m.dev, args);
    let sum = a.iter().fold(0u32, |s, v| s.wrapping_add(*v));
    let incl: Vec<u32> = (0..32)
        .map(|l| a[..=l].iter().fold(0u32, |s, v| s.wrapping_add(*v)))
        .collect();
    let excl: Vec<u32> = (0..32)
        .map(|l| a[..l].iter().fold(0u32, |s, v| s.wrapping_add(*v)))
        .collect();
    let max = *a.iter().max().unwrap();
    assert_eq!(m.read_u32s(outs[0], 32), vec![sum; 32]);
    assert_eq!(m.read_u32s(outs[1], 32), incl);
    assert_eq!(m.read_u32s(outs[2], 32), excl);
    assert_eq!(m.read_u32s(outs[3], 32), vec![max; 32]);
}

/// Layout of Mesa's helper header (`src/asahi/lib/shaders/helper.h`): `subgroups`, padding, then 128
/// cores of 88 bytes: blocklist pointer, alloc_cur, alloc_max, alloc_failed, padding, 16 counters.
const CORES: u64 = 128;
const CORE_BYTES: u64 = 88;

/// One core's state as the model sees it.
#[derive(Debug, Clone, PartialEq, Default)]
struct CoreState {
    alloc_cur: u32,
    alloc_max: u32,
    alloc_failed: u32,
    alloc_count: [u32; 16],
    blocklist: Vec<[u32; 4]>,
}

/// Independent model of `helper.cl`'s service loop: the events it produces and the core's final
/// state. `None` for an operation that is neither served nor ends the loop (the program stores to
/// 0xdead0000 | op << 8 then).
fn helper_model(
    subgroups: u32,
    mut core: CoreState,
    requests: &[HelperRequest],
) -> Option<(Vec<HelperEvent>, CoreState)> {
    use HelperEvent::*;
    let mut ev = vec![];
    for req in requests {
        ev.push(Doorbell(DOORBELL_NEXT));
        match req.op {
            0 => {
                let idx = core.alloc_cur;
                if idx >= subgroups {
                    core.alloc_failed += 1;
                    ev.push(Doorbell(DOORBELL_NACK));
                    continue;
                }
                core.alloc_cur += 1;
                core.alloc_max = core.alloc_max.max(core.alloc_cur);
                core.alloc_count[req.arg as usize] += 1;
                for (slot, &value) in core.blocklist[idx as usize].iter().enumerate() {
                    ev.push(Map {
                        slot: slot as u32,
                        value,
                    });
                }
                ev.push(Doorbell(DOORBELL_ACK));
            }
            1 => {
                if core.alloc_cur == 0 {
                    ev.push(Doorbell(DOORBELL_NACK));
                    continue;
                }
                core.alloc_cur -= 1;
                for slot in 0..4 {
                    let value = req.mapped[slot].unwrap();
                    core.blocklist[core.alloc_cur as usize][slot] = value;
                    ev.push(Unmap {
                        slot: slot as u32,
                        value,
                    });
                }
                ev.push(Doorbell(DOORBELL_ACK));
            }
            4 | 5 => ev.push(Doorbell(DOORBELL_NACK)),
            15 => return Some((ev, core)),
            _ => return None,
        }
    }
    Some((ev, core))
}

struct HelperRun {
    dev: DeviceMemory,
    header: u64,
    blocklist: u64,
    core: u64,
    wave: WaveState,
    result: Result<Stop, wavesim_agx::exec::ExecError>,
}

/// Mesa's compiled helper programs: asahi_clc's of Mesa 702c038b916 (`tools/agx/build_clc_kernels.sh`) and
/// Mesa 25.0.7's, from its own build (`libagx_helper` in `libagx_shaders.c`, extracted by
/// tools/agx/libagx_kernels.py; a different compiler, different code, the same `helper.cl` rules).
const HELPERS: [&str; 2] = ["mesa_libagx_g13_helper.bin", "libagx/libagx_helper.v0.bin"];

/// Run the helper `binary` for core `core` with `subgroups` block sets and these requests.
fn run_helper(
    binary: &str,
    subgroups: u32,
    core: u64,
    blocks: &[[u32; 4]],
    requests: &[HelperRequest],
) -> HelperRun {
    let program = Program::new(corpus(binary));
    let mut dev = DeviceMemory::new();
    let header = dev.alloc(8 + CORES * CORE_BYTES, 16).unwrap();
    let blocklist = dev.alloc(16 * blocks.len().max(1) as u64, 16).unwrap();
    dev.write_u32(header, subgroups).unwrap();
    for (i, b) in blocks.iter().enumerate() {
        for (j, v) in b.iter().enumerate() {
            dev.write_u32(blocklist + 16 * i as u64 + 4 * j as u64, *v)
                .unwrap();
        }
    }
    // every core's blocklist pointer (only `core` is used)
    for c in 0..CORES {
        dev.write_u64(header + 8 + c * CORE_BYTES, blocklist)
            .unwrap();
    }
    // one thread, as the helper's work is uniform
    let mut w = WaveState::new(16);
    w.exec = 1;
    w.present = 1;
    w.special
        .insert(SR_HELPER_ARG_L, [header as u32; SIMD_WIDTH]);
    w.special
        .insert(SR_HELPER_ARG_H, [(header >> 32) as u32; SIMD_WIDTH]);
    w.special.insert(SR_CORE_ID, [core as u32; SIMD_WIDTH]);
    w.helper = Some(HelperPort::new(requests.iter().cloned()));
    let mut tg = vec![];
    let mut mem = Memories {
        device: &dev,
        threadgroup: &mut tg,
    };
    let result = run(&mut w, &program, &mut mem, 100_000);
    HelperRun {
        dev,
        header,
        blocklist,
        core,
        wave: w,
        result,
    }
}

impl HelperRun {
    fn core_state(&self, nr_blocks: usize) -> CoreState {
        let c = self.header + 8 + self.core * CORE_BYTES;
        let r = |o: u64| self.dev.read_u32(c + o).unwrap();
        CoreState {
            alloc_cur: r(8),
            alloc_max: r(12),
            alloc_failed: r(16),
            alloc_count: std::array::from_fn(|i| r(24 + 4 * i as u64)),
            blocklist: (0..nr_blocks)
                .map(|i| {
                    std::array::from_fn(|j| {
                        self.dev
                            .read_u32(self.blocklist + 16 * i as u64 + 4 * j as u64)
                            .unwrap()
                    })
                })
                .collect(),
        }
    }
}

fn req(op: u32, arg: u32, mapped: [Option<u32>; 4]) -> HelperRequest {
    HelperRequest { op, arg, mapped }
}

/// Mesa's compiled helper program (the stack-allocation service of `src/asahi/lib/shaders/helper.cl`,
/// compiled by Mesa 702c038b916's asahi_clc) serves a scripted request sequence: allocations until the
/// per-core block sets run out (refused, counted as failures), frees reading the blocks back into the
/// block list, refused threadgroup requests, a free that underflows, and the end request. Its
/// doorbells, stack mappings and the core's counters and block list must equal the model's.
#[test]
fn mesa_helper_serves_requests_as_its_source_says() {
    let blocks = [[0x10, 0x11, 0x12, 0x13], [0x20, 0x21, 0x22, 0x23]];
    let m = |a: u32| [Some(a), Some(a + 1), Some(a + 2), Some(a + 3)];
    let requests = vec![
        req(0, 3, [None; 4]),
        req(0, 5, [None; 4]),
        req(0, 3, [None; 4]),
        req(1, 0, m(0x500)),
        req(4, 0, [None; 4]),
        req(5, 0, [None; 4]),
        req(0, 15, [None; 4]),
        req(1, 0, m(0x700)),
        req(1, 0, m(0x900)),
        req(1, 0, [None; 4]),
        req(15, 0, [None; 4]),
    ];
    for (binary, core) in HELPERS.iter().flat_map(|b| [0u64, 5, 127].map(|c| (*b, c))) {
        let start = CoreState {
            blocklist: blocks.to_vec(),
            ..CoreState::default()
        };
        let (events, end) = helper_model(2, start, &requests).unwrap();
        let hr = run_helper(binary, 2, core, &blocks, &requests);
        assert_eq!(hr.result, Ok(Stop::End), "{binary} core {core}");
        let port = hr.wave.helper.as_ref().unwrap();
        assert_eq!(port.events, events, "{binary} core {core}");
        assert!(port.requests.is_empty());
        assert_eq!(hr.core_state(2), end, "{binary} core {core}");
        // other cores untouched
        let other = if core == 0 { 1 } else { 0 };
        let c = hr.header + 8 + other * CORE_BYTES;
        assert_eq!(hr.dev.read_u32(c + 8).unwrap(), 0);
    }
}

/// An operation the service does not know makes it store to 0xdead0000 | op << 8 (its debugging
/// trap), which is outside device memory here: a typed memory error naming the store; the model
/// agrees that the request is not served. A doorbell with no request left is a typed error too.
#[test]
fn mesa_helper_unknown_operation_and_empty_queue_are_typed_errors() {
    let requests = vec![req(0, 1, [None; 4]), req(7, 0, [None; 4])];
    assert!(helper_model(
        1,
        CoreState {
            blocklist: vec![[1, 2, 3, 4]],
            ..CoreState::default()
        },
        &requests
    )
    .is_none());
    for binary in HELPERS {
        let hr = run_helper(binary, 1, 2, &[[1, 2, 3, 4]], &requests);
        let err = hr.result.unwrap_err();
        assert!(err.text.starts_with("device_store"), "{binary}: {err}");
        assert!(
            matches!(err.fault, Fault::Memory { source: MemError::OutOfBounds { addr, .. }, .. } if addr == 0xdead_0700),
            "{binary}: {err}"
        );

        let hr = run_helper(binary, 1, 2, &[[1, 2, 3, 4]], &[req(0, 1, [None; 4])]);
        let err = hr.result.unwrap_err();
        assert!(matches!(err.fault, Fault::Helper(_)), "{binary}: {err}");
        assert!(err.text.starts_with("doorbell"), "{binary}: {err}");
    }

    // Without a helper port (an ordinary dispatch), the doorbell is unsupported, naming it.
    let program = Program::new(corpus("mesa_libagx_g13_helper.bin"));
    let dev = DeviceMemory::new();
    let mut w = WaveState::new(16);
    w.special.insert(SR_HELPER_ARG_L, [0; SIMD_WIDTH]);
    w.special.insert(SR_HELPER_ARG_H, [0; SIMD_WIDTH]);
    w.special.insert(SR_CORE_ID, [0; SIMD_WIDTH]);
    let mut tg = vec![];
    let mut mem = Memories {
        device: &dev,
        threadgroup: &mut tg,
    };
    let err = run(&mut w, &program, &mut mem, 10_000).unwrap_err();
    assert!(
        matches!(err.fault, Fault::Memory { .. } | Fault::Unsupported { .. }),
        "{err}"
    );
}
