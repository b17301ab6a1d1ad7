//! OpenCL kernels compiled by asahi_clc as grid kernels with their arguments in uniforms
//! (corpus/agx/kernels/*.cl -> *.bin + *.toml, tools/agx/build_clc_grid_kernels.sh), dispatched as
//! Mesa's driver dispatches them (`wavesim_agx::kernel`): each must compute what an independent Rust
//! model of its OpenCL source computes, over grids whose last threadgroup is partly filled, on one
//! and two host threads. Their disassembly (main part and preamble) equals applegpu's.

use wavesim_agx::kernel::{GridKernel, KernelArg, KernelError};
use wavesim_agx::{disassemble_raw, disassemble_raw_until_stop};
use wavesim_core::memory::DeviceMemory;

const KERNELS: &[&str] = &[
    "args_mixed",
    "atomics",
    "bits",
    "bytes",
    "collatz",
    "fconv",
    "fmath",
    "i64",
    "minmax",
    "saxpy",
    "short16",
    "shuffle",
    "subgroup",
    "switch",
    "udiv",
    "vadd_scaled",
];

fn corpus(path: &str) -> Vec<u8> {
    std::fs::read(format!(
        "{}/../../corpus/agx/kernels/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .unwrap()
}

fn text(path: &str) -> String {
    String::from_utf8(corpus(path)).unwrap()
}

fn kernel(name: &str) -> GridKernel {
    GridKernel::new(
        corpus(&format!("{name}.bin")),
        &text(&format!("{name}.toml")),
    )
    .unwrap()
}

/// Deterministic test data.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) as u32
    }
}

fn buf_u32(m: &mut DeviceMemory, v: &[u32]) -> u64 {
    let a = m.alloc(4 * v.len().max(1) as u64, 16).unwrap();
    for (i, x) in v.iter().enumerate() {
        m.write_u32(a + 4 * i as u64, *x).unwrap();
    }
    a
}

fn buf_u64(m: &mut DeviceMemory, v: &[u64]) -> u64 {
    let a = m.alloc(8 * v.len().max(1) as u64, 16).unwrap();
    for (i, x) in v.iter().enumerate() {
        m.write_u64(a + 8 * i as u64, *x).unwrap();
    }
    a
}

fn buf_bytes(m: &mut DeviceMemory, v: &[u8]) -> u64 {
    let a = m.alloc(v.len().max(1) as u64, 16).unwrap();
    m.write(a, v).unwrap();
    a
}

fn read_u32s(m: &DeviceMemory, a: u64, n: usize) -> Vec<u32> {
    (0..n)
        .map(|i| m.read_u32(a + 4 * i as u64).unwrap())
        .collect()
}

fn read_u64s(m: &DeviceMemory, a: u64, n: usize) -> Vec<u64> {
    (0..n)
        .map(|i| m.read_u64(a + 8 * i as u64).unwrap())
        .collect()
}

fn read_bytes(m: &DeviceMemory, a: u64, n: usize) -> Vec<u8> {
    let mut out = vec![0; n];
    m.read(a, &mut out).unwrap();
    out
}

/// Run `name` over `global` threads with `args`, on one and on two host threads (fresh memory each
/// time from `setup`), and check each run with `check`.
fn run_both<S, C>(name: &str, global: u32, setup: S, check: C)
where
    S: Fn(&mut DeviceMemory) -> (Vec<KernelArg>, Vec<u64>),
    C: Fn(&DeviceMemory, &[u64]),
{
    let k = kernel(name);
    for threads in [1, 2] {
        let mut m = DeviceMemory::new();
        let (args, bufs) = setup(&mut m);
        let stats = k.dispatch(&args, &[global], &m, threads).unwrap();
        assert_eq!(stats.workgroups, global.div_ceil(32) as u64, "{name}");
        check(&m, &bufs);
    }
    // Under the checks (every register but r0l poisoned at the start, uniform reads against
    // what the dispatch pushed) the kernel runs clean and computes the same.
    let (found, m, bufs) =
        checked_run(&k, global, &setup, true).unwrap_or_else(|e| panic!("{name}: {e}"));
    assert!(found.is_empty(), "{name}: {found:?}");
    check(&m, &bufs);
    inside::mutants(name, &k, global, &setup, &check);
}

type Checked = (Vec<String>, DeviceMemory, Vec<u64>);

/// One dispatch with the uninitialised-register and uniform-range checks: the uniform findings,
/// the memory and the buffers; a run error (an undefined-register read among them) as text.
/// `races`: the device race check too (the mutant figures of docs/INSIDE.md are those of the
/// other three checks).
fn checked_run<S>(k: &GridKernel, global: u32, setup: &S, races: bool) -> Result<Checked, String>
where
    S: Fn(&mut DeviceMemory) -> (Vec<KernelArg>, Vec<u64>),
{
    use wavesim_agx::inside::{AgxObserver, BarrierCheck, Inside, RaceCheck, UniformCheck};
    let mut m = DeviceMemory::new();
    let (args, bufs) = setup(&mut m);
    let mut b = k
        .prepare(&args, &[global], &m, 1)
        .map_err(|e| e.to_string())?
        .checking_init();
    // A mutant that loops meets the watchdog soon (the real kernels need far fewer).
    b.launch.max_wave_insts = 200_000;
    let mut obs: Inside<Vec<u8>> = Inside {
        tracer: None,
        stats: None,
        timeline: None,
        uniforms: Some(UniformCheck::new()),
        barriers: Some(BarrierCheck::default()),
        races: races.then(RaceCheck::default),
    };
    obs.uniforms_set(&vec![true; b.launch.uniforms.len()]);
    wavesim_core::engine::run(&b, &m, &mut obs).map_err(|e| e.to_string())?;
    let found = obs
        .uniforms
        .into_iter()
        .flat_map(|u| u.findings)
        .chain(obs.barriers.into_iter().flat_map(|b| b.findings))
        .chain(obs.races.into_iter().flat_map(|b| b.findings))
        .map(|f| f.to_string())
        .collect();
    Ok((found, m, bufs))
}

/// Mutants of the real kernels: each instruction of the main part removed (where no branch
/// crosses it, so every offset stays right) and each pair of adjacent non-branch instructions
/// swapped; each mutant counted as found by the checks, faulting, computing something else or
/// computing the same. The totals are printed by `mutant_catch_rates` (docs/INSIDE.md).
mod inside {
    use super::*;
    use std::sync::Mutex;

    #[derive(Default, Clone, Copy, Debug)]
    pub struct Tally {
        pub mutants: u32,
        pub found: u32,
        pub fault: u32,
        pub changed: u32,
        pub same: u32,
    }

    /// (removed, swapped) over every kernel run so far.
    pub static TALLY: Mutex<[Tally; 2]> = Mutex::new(
        [Tally {
            mutants: 0,
            found: 0,
            fault: 0,
            changed: 0,
            same: 0,
        }; 2],
    );

    struct At {
        pc: usize,
        size: usize,
        branch: bool,
        target: Option<usize>,
    }

    fn main_part(k: &GridKernel) -> Vec<At> {
        let end = if k.report.has_preamble {
            k.report.preamble_offset as usize
        } else {
            k.code.len()
        };
        let mut v = Vec::new();
        let mut pc = 0;
        while pc < end {
            let Ok(d) = wavesim_agx::decode::decode(&k.code[pc..]) else {
                break;
            };
            let off = d.operands.iter().find_map(|o| match o {
                wavesim_agx::operand::Operand::Offset(o) => Some(*o),
                _ => None,
            });
            let stop = d.text(pc as u64).starts_with("stop");
            v.push(At {
                pc,
                size: d.size,
                branch: off.is_some() || stop,
                target: off.map(|o| (pc as i64 + o) as usize),
            });
            pc += d.size;
            if stop {
                break;
            }
        }
        v
    }

    pub fn mutants<S, C>(name: &str, k: &GridKernel, global: u32, setup: &S, check: &C)
    where
        S: Fn(&mut DeviceMemory) -> (Vec<KernelArg>, Vec<u64>),
        C: Fn(&DeviceMemory, &[u64]),
    {
        // Kernels run by several tests (other grids or inputs) are mutated once.
        static DONE: Mutex<Vec<String>> = Mutex::new(Vec::new());
        {
            let mut done = DONE.lock().unwrap_or_else(|e| e.into_inner());
            if done.iter().any(|n| n == name) {
                return;
            }
            done.push(name.to_string());
        }
        let insts = main_part(k);
        let branches: Vec<(usize, usize)> = insts
            .iter()
            .filter_map(|a| a.target.map(|t| (a.pc.min(t), a.pc.max(t))))
            .collect();
        let targets: Vec<usize> = insts.iter().filter_map(|a| a.target).collect();
        let mut local = [Tally::default(); 2];
        let judge = |t: &mut Tally, code: Vec<u8>| {
            t.mutants += 1;
            let mk = GridKernel {
                report: k.report.clone(),
                code,
            };
            match checked_run(&mk, global, setup, false) {
                Ok((found, _, _)) if !found.is_empty() => t.found += 1,
                Err(e) if e.contains("undefined (poisoned)") => t.found += 1,
                Err(_) => t.fault += 1,
                Ok((_, m, bufs)) => {
                    let ok =
                        std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| check(&m, &bufs)));
                    if ok.is_ok() {
                        t.same += 1;
                    } else {
                        t.changed += 1;
                    }
                }
            }
        };
        // One kernel's mutants at a time: the silenced panic hook (the expected-value checks
        // panic on a changed result) is installed and restored by one thread.
        static ONE: Mutex<()> = Mutex::new(());
        let _one = ONE.lock().unwrap_or_else(|e| e.into_inner());
        let hook = std::panic::take_hook();
        std::panic::set_hook(Box::new(|_| {}));
        for (i, a) in insts.iter().enumerate() {
            let crossed = branches
                .iter()
                .any(|&(lo, hi)| lo < a.pc + a.size && a.pc < hi);
            if !a.branch && !crossed {
                let mut code = k.code.clone();
                code.drain(a.pc..a.pc + a.size);
                judge(&mut local[0], code);
            }
            if let Some(b) = insts.get(i + 1) {
                if !a.branch && !b.branch && !targets.contains(&b.pc) {
                    let mut code = k.code.clone();
                    let (x, y) = (
                        k.code[a.pc..a.pc + a.size].to_vec(),
                        k.code[b.pc..b.pc + b.size].to_vec(),
                    );
                    code[a.pc..a.pc + y.len()].copy_from_slice(&y);
                    code[a.pc + y.len()..b.pc + b.size].copy_from_slice(&x);
                    judge(&mut local[1], code);
                }
            }
        }
        std::panic::set_hook(hook);
        println!(
            "mutants {name}: removed {:?}, swapped {:?}",
            local[0], local[1]
        );
        // Every kernel has a register the checks see undefined when its writer is removed.
        assert!(local[0].found > 0, "{name}: {:?}", local[0]);
        let mut t = TALLY.lock().unwrap_or_else(|e| e.into_inner());
        for k in 0..2 {
            t[k].mutants += local[k].mutants;
            t[k].found += local[k].found;
            t[k].fault += local[k].fault;
            t[k].changed += local[k].changed;
            t[k].same += local[k].same;
        }
        println!("mutants so far: removed {:?}, swapped {:?}", t[0], t[1]);
    }
}

#[test]
fn grid_kernels_disassemble_as_applegpu() {
    for name in KERNELS {
        let k = kernel(name);
        let want = text(&format!("{name}.applegpu.txt"));
        assert_eq!(
            disassemble_raw_until_stop(&k.code, 0).unwrap(),
            want,
            "{name}"
        );
        // Every byte, the preamble after the main part included (STOP_ON_STOP = False).
        let want = text(&format!("{name}.applegpu_all.txt"));
        assert_eq!(
            disassemble_raw(&k.code, 0).unwrap(),
            want,
            "{name} (every byte)"
        );
        if k.report.has_preamble {
            let pre = &k.code[k.report.preamble_offset as usize..];
            let want = text(&format!("{name}.preamble.applegpu.txt"));
            assert_eq!(
                disassemble_raw_until_stop(pre, 0).unwrap(),
                want,
                "{name} preamble"
            );
        }
    }
    // at least one kernel of each kind: with and without a preamble, with promoted constants
    let ks: Vec<GridKernel> = KERNELS.iter().map(|k| kernel(k)).collect();
    assert!(ks.iter().any(|k| k.report.has_preamble));
    assert!(ks.iter().any(|k| !k.report.has_preamble));
    assert!(ks.iter().any(|k| !k.report.immediates.is_empty()));
}

/// The argument block as the driver pushes it: each argument at uniform half offset / 2, little
/// endian; promoted constants at immediate_base.
#[test]
fn arguments_land_in_uniform_halves_at_byte_offset_over_two() {
    let k = kernel("args_mixed");
    // (global ulong *out, uchar a, ushort b, uint c, ulong d, float e, ushort f, uint n)
    let offsets: Vec<u32> = k.report.args.iter().map(|a| a[0]).collect();
    assert_eq!(offsets, vec![0, 8, 10, 12, 16, 24, 28, 32]);
    let args = [
        KernelArg::U64(0x1122_3344_5566_7788),
        KernelArg::U8(0xAB),
        KernelArg::U16(0xCDEF),
        KernelArg::U32(0x0102_0304),
        KernelArg::U64(0xA1A2_A3A4_A5A6_A7A8),
        KernelArg::F32(-1.5),
        KernelArg::U16(0x4321),
        KernelArg::U32(77),
    ];
    let u = k.uniforms(&args).unwrap();
    assert_eq!(&u[0..4], &[0x7788, 0x5566, 0x3344, 0x1122]);
    assert_eq!(u[4], 0x00AB);
    assert_eq!(u[5], 0xCDEF);
    assert_eq!(&u[6..8], &[0x0304, 0x0102]);
    assert_eq!(&u[8..12], &[0xA7A8, 0xA5A6, 0xA3A4, 0xA1A2]);
    let e = (-1.5f32).to_bits();
    assert_eq!(&u[12..14], &[e as u16, (e >> 16) as u16]);
    assert_eq!(u[14], 0x4321);
    assert_eq!(&u[16..18], &[77, 0]);
    let base = k.report.immediate_base as usize;
    assert_eq!(
        &u[base..base + k.report.immediates.len()],
        &k.report.immediates[..]
    );

    // wrong count or width: typed errors
    assert!(matches!(
        k.uniforms(&args[..3]),
        Err(KernelError::ArgCount { .. })
    ));
    let mut bad = args;
    bad[1] = KernelArg::U32(1);
    assert!(matches!(
        k.uniforms(&bad),
        Err(KernelError::ArgWidth { index: 1, .. })
    ));
    // a report whose offsets break Mesa's rule is refused at load
    let toml = text("args_mixed.toml").replace("[8, 1, 8]", "[9, 1, 8]");
    assert!(matches!(
        GridKernel::new(k.code.clone(), &toml),
        Err(KernelError::Layout { .. })
    ));
}

#[test]
fn args_mixed() {
    let n = 75u32;
    let (a, b, c, d, e, f) = (
        0xABu8,
        0xCDEFu16,
        0x0102_0304u32,
        0xA1A2_A3A4_A5A6_A7A8u64,
        -1.5f32,
        0x4321u16,
    );
    run_both(
        "args_mixed",
        n,
        |m| {
            let out = buf_u64(m, &vec![0; n as usize]);
            let args = vec![
                KernelArg::U64(out),
                KernelArg::U8(a),
                KernelArg::U16(b),
                KernelArg::U32(c),
                KernelArg::U64(d),
                KernelArg::F32(e),
                KernelArg::U16(f),
                KernelArg::U32(n),
            ];
            (args, vec![out])
        },
        |m, bufs| {
            let want: Vec<u64> = (0..n as u64)
                .map(|i| {
                    d.wrapping_add(i.wrapping_mul(c as u64))
                        .wrapping_add((a as u32 * 1000 + b as u32) as u64)
                        .wrapping_add((f as u64) << 48)
                        .wrapping_add((e * i as f32) as i32 as i64 as u64)
                })
                .collect();
            assert_eq!(read_u64s(m, bufs[0], n as usize), want);
        },
    );
}

#[test]
fn saxpy() {
    let n = 100u32;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.25 - 7.0).collect();
    let y: Vec<f32> = (0..n).map(|i| 1000.0 - i as f32).collect();
    run_both(
        "saxpy",
        n + 20,
        |m| {
            let bx = buf_u32(m, &x.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
            let by = buf_u32(m, &y.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
            let args = vec![
                KernelArg::U64(bx),
                KernelArg::U64(by),
                KernelArg::F32(3.0),
                KernelArg::U32(n),
            ];
            (args, vec![by])
        },
        |m, bufs| {
            // products of a quarter-step and 3.0 are exact, so fused or not the sum rounds once
            let want: Vec<u32> = (0..n as usize)
                .map(|i| (3.0f32 * x[i] + y[i]).to_bits())
                .collect();
            assert_eq!(read_u32s(m, bufs[0], n as usize), want);
        },
    );
}

#[test]
fn vadd_scaled() {
    let n = 70u32;
    let mut r = Rng(1);
    let a: Vec<u32> = (0..n).map(|_| r.next()).collect();
    let b: Vec<u32> = (0..n).map(|_| r.next()).collect();
    let scale = 0xBEEFu16;
    run_both(
        "vadd_scaled",
        n,
        |m| {
            let (ba, bb, out) = (
                buf_u32(m, &a),
                buf_u32(m, &b),
                buf_u32(m, &vec![0; n as usize]),
            );
            let args = vec![
                KernelArg::U64(ba),
                KernelArg::U64(bb),
                KernelArg::U64(out),
                KernelArg::U16(scale),
                KernelArg::U32(n),
            ];
            (args, vec![out])
        },
        |m, bufs| {
            let want: Vec<u32> = (0..n as usize)
                .map(|i| a[i].wrapping_add(b[i].wrapping_mul(scale as u32)))
                .collect();
            assert_eq!(read_u32s(m, bufs[0], n as usize), want);
        },
    );
}

#[test]
fn collatz() {
    let n = 64u32;
    let start: Vec<u32> = (1..=n).map(|i| i * 7 + 1).collect();
    let limit = 60u32;
    run_both(
        "collatz",
        n,
        |m| {
            let (bs, out) = (buf_u32(m, &start), buf_u32(m, &vec![0; n as usize]));
            let args = vec![
                KernelArg::U64(bs),
                KernelArg::U64(out),
                KernelArg::U32(n),
                KernelArg::U32(limit),
            ];
            (args, vec![out])
        },
        |m, bufs| {
            let want: Vec<u32> = start
                .iter()
                .map(|&s0| {
                    let (mut x, mut s) = (s0, 0);
                    while x != 1 && s < limit {
                        x = if x & 1 == 1 { 3 * x + 1 } else { x / 2 };
                        s += 1;
                    }
                    s
                })
                .collect();
            assert_eq!(read_u32s(m, bufs[0], n as usize), want);
        },
    );
}

#[test]
fn bits() {
    let n = 90u32;
    let mut r = Rng(2);
    let mut a: Vec<u32> = (0..n).map(|_| r.next() >> (r.next() % 32)).collect();
    a[0] = 0;
    a[1] = u32::MAX;
    for rot in [0u32, 7, 29, 45] {
        run_both(
            "bits",
            n,
            |m| {
                let (ba, out) = (buf_u32(m, &a), buf_u32(m, &vec![0; n as usize]));
                let args = vec![
                    KernelArg::U64(ba),
                    KernelArg::U64(out),
                    KernelArg::U32(n),
                    KernelArg::U32(rot),
                ];
                (args, vec![out])
            },
            |m, bufs| {
                let want: Vec<u32> = a
                    .iter()
                    .map(|&v| {
                        v.count_ones()
                            ^ v.rotate_left(rot % 32)
                            ^ (v.leading_zeros() << 24)
                            ^ ((v & 0xff00) << 8)
                            ^ (v >> (rot & 7))
                    })
                    .collect();
                assert_eq!(read_u32s(m, bufs[0], n as usize), want, "rot {rot}");
            },
        );
    }
}

#[test]
fn i64() {
    let n = 50u32;
    let mut r = Rng(3);
    let a: Vec<u64> = (0..n)
        .map(|_| (r.next() as u64) << 32 | r.next() as u64)
        .collect();
    let (mul, add) = (0x9E37_79B9_7F4A_7C15u64, 0xFFFF_FFFF_0000_0001u64);
    run_both(
        "i64",
        n,
        |m| {
            let (ba, out) = (buf_u64(m, &a), buf_u64(m, &vec![0; n as usize]));
            let args = vec![
                KernelArg::U64(ba),
                KernelArg::U64(out),
                KernelArg::U64(mul),
                KernelArg::U64(add),
                KernelArg::U32(n),
            ];
            (args, vec![out])
        },
        |m, bufs| {
            let want: Vec<u64> = (0..n as usize)
                .map(|i| {
                    a[i].wrapping_mul(mul)
                        .wrapping_add(add)
                        .wrapping_add(a[i] >> 7)
                        .wrapping_add((i as u64) << 36)
                })
                .collect();
            assert_eq!(read_u64s(m, bufs[0], n as usize), want);
        },
    );
}

#[test]
fn fconv() {
    let n = 80u32;
    let mut r = Rng(4);
    let a: Vec<i32> = (0..n)
        .map(|_| (r.next() % 200_000) as i32 - 100_000)
        .collect();
    run_both(
        "fconv",
        n,
        |m| {
            let ba = buf_u32(m, &a.iter().map(|v| *v as u32).collect::<Vec<_>>());
            let (f, back) = (
                buf_u32(m, &vec![0; n as usize]),
                buf_u32(m, &vec![0; n as usize]),
            );
            let args = vec![
                KernelArg::U64(ba),
                KernelArg::U64(f),
                KernelArg::U64(back),
                KernelArg::F32(0.5),
                KernelArg::U32(n),
            ];
            (args, vec![f, back])
        },
        |m, bufs| {
            // |a| < 2^17: a * 0.5 is exact, so fused or not the sum rounds once
            let v: Vec<f32> = a.iter().map(|&x| x as f32 * 0.5 + 0.25).collect();
            let want_f: Vec<u32> = v.iter().map(|x| x.to_bits()).collect();
            let want_back: Vec<u32> = v.iter().map(|x| (x * 3.0) as i32 as u32).collect();
            assert_eq!(read_u32s(m, bufs[0], n as usize), want_f);
            assert_eq!(read_u32s(m, bufs[1], n as usize), want_back);
        },
    );
}

#[test]
fn fmath() {
    let n = 96u32;
    let a: Vec<f32> = (0..n).map(|i| (i as f32 - 48.0) * 0.375).collect();
    let (lo, hi) = (-2.0f32, 1.0f32);
    run_both(
        "fmath",
        n,
        |m| {
            let ba = buf_u32(m, &a.iter().map(|v| v.to_bits()).collect::<Vec<_>>());
            let out = buf_u32(m, &vec![0; n as usize]);
            let args = vec![
                KernelArg::U64(ba),
                KernelArg::U64(out),
                KernelArg::F32(lo),
                KernelArg::F32(hi),
                KernelArg::U32(n),
            ];
            (args, vec![out])
        },
        |m, bufs| {
            let want: Vec<u32> = a
                .iter()
                .map(|&x| {
                    (x.floor() + (x * 0.25).ceil() + x.abs() * 0.5 + x.min(hi) + x.max(lo))
                        .to_bits()
                })
                .collect();
            assert_eq!(read_u32s(m, bufs[0], n as usize), want);
        },
    );
}

#[test]
fn minmax() {
    let n = 66u32;
    let mut r = Rng(5);
    let a: Vec<i32> = (0..n).map(|_| (r.next() % 2001) as i32 - 1000).collect();
    let b: Vec<i32> = (0..n).map(|_| (r.next() % 2001) as i32 - 1000).collect();
    let bias = -17i32;
    run_both(
        "minmax",
        n,
        |m| {
            let ba = buf_u32(m, &a.iter().map(|v| *v as u32).collect::<Vec<_>>());
            let bb = buf_u32(m, &b.iter().map(|v| *v as u32).collect::<Vec<_>>());
            let out = buf_u32(m, &vec![0; n as usize]);
            let args = vec![
                KernelArg::U64(ba),
                KernelArg::U64(bb),
                KernelArg::U64(out),
                KernelArg::I32(bias),
                KernelArg::U32(n),
            ];
            (args, vec![out])
        },
        |m, bufs| {
            let want: Vec<u32> = (0..n as usize)
                .map(|i| {
                    let (x, y) = (a[i], b[i]);
                    ((if x < y { y - x } else { x - y }) + x.max(y) * 2 - x.min(bias)
                        + if x > bias { 7 } else { -3 }) as u32
                })
                .collect();
            assert_eq!(read_u32s(m, bufs[0], n as usize), want);
        },
    );
}

#[test]
fn udiv() {
    let n = 77u32;
    let mut r = Rng(6);
    let a: Vec<u32> = (0..n).map(|_| r.next()).collect();
    for d in [1u32, 3, 1000, 0x8000_0001] {
        run_both(
            "udiv",
            n,
            |m| {
                let ba = buf_u32(m, &a);
                let (q, rem) = (
                    buf_u32(m, &vec![0; n as usize]),
                    buf_u32(m, &vec![0; n as usize]),
                );
                let args = vec![
                    KernelArg::U64(ba),
                    KernelArg::U64(q),
                    KernelArg::U64(rem),
                    KernelArg::U32(d),
                    KernelArg::U32(n),
                ];
                (args, vec![q, rem])
            },
            |m, bufs| {
                let dd = |i: usize| d.wrapping_add(i as u32);
                let q: Vec<u32> = (0..n as usize).map(|i| a[i] / dd(i)).collect();
                let rem: Vec<u32> = (0..n as usize).map(|i| a[i] % dd(i)).collect();
                assert_eq!(read_u32s(m, bufs[0], n as usize), q, "d {d}");
                assert_eq!(read_u32s(m, bufs[1], n as usize), rem, "d {d}");
            },
        );
    }
}

#[test]
fn subgroup() {
    let n = 90u32;
    let mut r = Rng(7);
    let a: Vec<u32> = (0..n).map(|_| r.next() % 1000).collect();
    run_both(
        "subgroup",
        96,
        |m| {
            let ba = buf_u32(m, &a);
            let z = vec![0; n as usize];
            let (s, e, mx) = (buf_u32(m, &z), buf_u32(m, &z), buf_u32(m, &z));
            let args = vec![
                KernelArg::U64(ba),
                KernelArg::U64(s),
                KernelArg::U64(e),
                KernelArg::U64(mx),
                KernelArg::U32(n),
            ];
            (args, vec![s, e, mx])
        },
        |m, bufs| {
            // threads n..96 exist and contribute 0
            let v = |i: usize| if i < n as usize { a[i] } else { 0 };
            let group = |i: usize| (i / 32 * 32)..(i / 32 * 32 + 32);
            let sum: Vec<u32> = (0..n as usize).map(|i| group(i).map(v).sum()).collect();
            let excl: Vec<u32> = (0..n as usize)
                .map(|i| (i / 32 * 32..i).map(v).sum())
                .collect();
            let max: Vec<u32> = (0..n as usize)
                .map(|i| group(i).map(v).max().unwrap())
                .collect();
            assert_eq!(read_u32s(m, bufs[0], n as usize), sum);
            assert_eq!(read_u32s(m, bufs[1], n as usize), excl);
            assert_eq!(read_u32s(m, bufs[2], n as usize), max);
        },
    );
}

#[test]
fn shuffle() {
    let n = 96u32;
    let mut r = Rng(8);
    let a: Vec<u32> = (0..n).map(|_| r.next()).collect();
    for (mask, step) in [(1u32, 5u32), (31, 0), (6, 17)] {
        run_both(
            "shuffle",
            n,
            |m| {
                let (ba, out) = (buf_u32(m, &a), buf_u32(m, &vec![0; n as usize]));
                let args = vec![
                    KernelArg::U64(ba),
                    KernelArg::U64(out),
                    KernelArg::U32(mask),
                    KernelArg::U32(step),
                    KernelArg::U32(n),
                ];
                (args, vec![out])
            },
            |m, bufs| {
                let want: Vec<u32> = (0..n as usize)
                    .map(|i| {
                        let (g, lane) = (i / 32 * 32, i % 32);
                        let x = a[g + (lane ^ mask as usize)];
                        let rr = a[g + ((lane + step as usize) & 31)];
                        x.wrapping_mul(3).wrapping_add(rr)
                    })
                    .collect();
                assert_eq!(
                    read_u32s(m, bufs[0], n as usize),
                    want,
                    "mask {mask} step {step}"
                );
            },
        );
    }
}

#[test]
fn atomics() {
    let n = 200u32;
    let mut r = Rng(9);
    let keys: Vec<u32> = (0..n).map(|_| r.next() % 5000).collect();
    let buckets = 13u32;
    run_both(
        "atomics",
        n,
        |m| {
            let bk = buf_u32(m, &keys);
            let hist = buf_u32(m, &vec![0; buckets as usize]);
            let minv = buf_u32(m, &[i32::MAX as u32]);
            let args = vec![
                KernelArg::U64(bk),
                KernelArg::U64(hist),
                KernelArg::U64(minv),
                KernelArg::U32(buckets),
                KernelArg::U32(n),
            ];
            (args, vec![hist, minv])
        },
        |m, bufs| {
            let mut hist = vec![0u32; buckets as usize];
            for k in &keys {
                hist[(k % buckets) as usize] += 1;
            }
            let minv = keys.iter().map(|&k| k as i32 - 1000).min().unwrap();
            assert_eq!(read_u32s(m, bufs[0], buckets as usize), hist);
            assert_eq!(m.read_u32(bufs[1]).unwrap() as i32, minv);
        },
    );
}

#[test]
fn switch() {
    let n = 99u32;
    let mut r = Rng(10);
    let a: Vec<u32> = (0..n).map(|_| r.next()).collect();
    for k in [0u32, 4] {
        run_both(
            "switch",
            n,
            |m| {
                let (ba, out) = (buf_u32(m, &a), buf_u32(m, &vec![0; n as usize]));
                let args = vec![
                    KernelArg::U64(ba),
                    KernelArg::U64(out),
                    KernelArg::U32(k),
                    KernelArg::U32(n),
                ];
                (args, vec![out])
            },
            |m, bufs| {
                let want: Vec<u32> = a
                    .iter()
                    .map(|&v| match v.wrapping_add(k) % 6 {
                        0 => v.wrapping_mul(7),
                        1 => v.wrapping_add(100),
                        2 => v ^ 0x5555,
                        3 => v >> 2,
                        _ => 42 + k,
                    })
                    .collect();
                assert_eq!(read_u32s(m, bufs[0], n as usize), want, "k {k}");
            },
        );
    }
}

#[test]
fn short16() {
    let n = 81u32;
    let mut r = Rng(11);
    let a: Vec<u16> = (0..n).map(|_| r.next() as u16).collect();
    let (mul, add) = (0x1235u16, 0xF00Du16);
    run_both(
        "short16",
        n,
        |m| {
            let bytes: Vec<u8> = a.iter().flat_map(|v| v.to_le_bytes()).collect();
            let (ba, out) = (buf_bytes(m, &bytes), buf_bytes(m, &vec![0; 2 * n as usize]));
            let args = vec![
                KernelArg::U64(ba),
                KernelArg::U64(out),
                KernelArg::U16(mul),
                KernelArg::U16(add),
                KernelArg::U32(n),
            ];
            (args, vec![out])
        },
        |m, bufs| {
            let want: Vec<u8> = a
                .iter()
                .flat_map(|&x| {
                    let x = x as u32;
                    let v = x
                        .wrapping_mul(mul as u32)
                        .wrapping_add(add as u32)
                        .wrapping_add(x >> 2)
                        .wrapping_sub(x & 0x0f0f);
                    (v as u16).to_le_bytes()
                })
                .collect();
            assert_eq!(read_bytes(m, bufs[0], 2 * n as usize), want);
        },
    );
}

#[test]
fn bytes() {
    let input = b"Hello, Asahi! the quick brown fox JUMPS over 13 lazy dogs; zZ aA ~{|}".to_vec();
    let n = input.len() as u32;
    let key = 0x5Au8;
    run_both(
        "bytes",
        n,
        |m| {
            let (bi, out) = (buf_bytes(m, &input), buf_bytes(m, &vec![0; n as usize]));
            let args = vec![
                KernelArg::U64(bi),
                KernelArg::U64(out),
                KernelArg::U8(key),
                KernelArg::U32(n),
            ];
            (args, vec![out])
        },
        |m, bufs| {
            let want: Vec<u8> = input
                .iter()
                .map(|&c| {
                    if c.is_ascii_lowercase() {
                        c - 32
                    } else {
                        c ^ key
                    }
                })
                .collect();
            assert_eq!(read_bytes(m, bufs[0], n as usize), want);
        },
    );
}
