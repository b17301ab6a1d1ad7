//! Hostcall services as ROCm's runtime provides them (docs/HOSTCALL.md): HIP printf of every
//! conversion, assert (message on stderr, then the dispatch aborts), device malloc/free, and
//! OpenCL kernels calling the same device-library entry points; wave32 and wave64, the
//! interpreter and the JIT, one and several host threads. Kernels and the expected printf text:
//! tests/data/hostcall/build.sh. The protocol errors use tests/data/raw/hostcall.hsaco.

use std::path::PathBuf;
use wavesim::{Arg, Device, Engine, Error, Geometry, ValueKind};

fn data(dir: &str, name: &str) -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data")
            .join(dir)
            .join(name),
    )
    .unwrap()
}

const ENGINES: [Engine; 2] = [Engine::Interp, Engine::Jit];
const WAVES: [u32; 2] = [32, 64];

fn device(engine: Engine, threads: usize) -> Device {
    let mut dev = Device::new();
    dev.cfg.engine = engine;
    dev.threads = threads;
    dev
}

/// Every configuration: wave size x engine x host threads.
fn each(mut f: impl FnMut(u32, Engine, usize)) {
    for w in WAVES {
        for e in ENGINES {
            for t in [1, 4] {
                f(w, e, t);
            }
        }
    }
}

#[test]
fn hip_printf_formats_every_conversion_as_the_c_library_does() {
    // formats_expected.txt is the host C library's output for the same printf calls
    // (reference.cpp), which is what ROCm's runtime formats each conversion with.
    let want = String::from_utf8(data("hostcall", "formats_expected.txt")).unwrap();
    each(|w, e, t| {
        let mut dev = device(e, t);
        let m = dev
            .load(&data("hostcall", &format!("kernels_w{w}.hsaco")))
            .unwrap();
        assert_eq!(m.kernel("formats").unwrap().wave_size(), w);
        let geo = Geometry::new(&[w, 1, 1], &[w, 1, 1]).unwrap();
        dev.dispatch(&m, "formats", &geo, &[5i32.into(), 3.25f64.into()])
            .unwrap();
        assert_eq!(dev.printf_output(), want, "wave{w} {e:?} threads {t}");
        assert_eq!(dev.stderr_output(), "");
    });
}

#[test]
fn a_compressed_offload_bundle_runs_as_its_code_object() {
    // kernels_w32_compressed.co: clang-offload-bundler-19 -compress (CCOB version 2, zstd)
    // around kernels_w32.hsaco.
    let c = data("hostcall", "kernels_w32_compressed.co");
    assert_eq!(&c[..4], b"CCOB");
    let want = String::from_utf8(data("hostcall", "formats_expected.txt")).unwrap();
    let mut dev = device(Engine::Auto, 1);
    let m = dev.load(&c).unwrap();
    let geo = Geometry::new(&[32, 1, 1], &[32, 1, 1]).unwrap();
    dev.dispatch(&m, "formats", &geo, &[5i32.into(), 3.25f64.into()])
        .unwrap();
    assert_eq!(dev.printf_output(), want);
}

#[test]
fn printf_in_many_waves_keeps_every_record_in_a_fixed_order() {
    // 4 workgroups of 128 work-items: 16 waves (wave32) or 8 (wave64) print at once.
    let n = 512u32;
    let mut want: Vec<String> = (0..n)
        .map(|i| format!("group {} item {}\n", i / 128, i % 128))
        .collect();
    for w in WAVES {
        let mut one_thread = None;
        for e in ENGINES {
            for t in [1, 4] {
                let mut dev = device(e, t);
                let m = dev
                    .load(&data("hostcall", &format!("kernels_w{w}.hsaco")))
                    .unwrap();
                let out = dev.alloc(4 * n as u64).unwrap();
                let geo = Geometry::new(&[n, 1, 1], &[128, 1, 1]).unwrap();
                dev.dispatch(&m, "many", &geo, &[Arg::Buffer(out)]).unwrap();
                let text = dev.printf_output().to_string();
                let mut lines: Vec<String> =
                    text.split_inclusive('\n').map(str::to_string).collect();
                // printf returns the characters it printed (ROCclr: format()'s count).
                let ret = dev.read_vec(out, 4 * n as u64).unwrap();
                for (i, c) in ret.chunks(4).enumerate() {
                    let len = u32::from_le_bytes(c.try_into().unwrap()) as usize;
                    assert_eq!(len, want_len(i as u32), "item {i}");
                }
                if t == 1 {
                    // One thread: the same order with either engine and on every run.
                    match &one_thread {
                        None => one_thread = Some(text.clone()),
                        Some(first) => assert_eq!(&text, first, "wave{w} {e:?}"),
                    }
                    let again = {
                        let mut d2 = device(e, 1);
                        let m2 = d2
                            .load(&data("hostcall", &format!("kernels_w{w}.hsaco")))
                            .unwrap();
                        let o2 = d2.alloc(4 * n as u64).unwrap();
                        d2.dispatch(&m2, "many", &geo, &[Arg::Buffer(o2)]).unwrap();
                        d2.printf_output().to_string()
                    };
                    assert_eq!(text, again);
                }
                lines.sort();
                want.sort();
                assert_eq!(lines, want, "wave{w} {e:?} threads {t}: every record, once");
            }
        }
    }
}

fn want_len(i: u32) -> usize {
    format!("group {} item {}\n", i / 128, i % 128).len()
}

#[test]
fn one_thread_prints_workgroups_in_order() {
    // With one host thread workgroups run one after the other, so every record of group g
    // comes before every record of group g + 1 (inside a group the waves take turns).
    let mut dev = device(Engine::Interp, 1);
    let m = dev.load(&data("hostcall", "kernels_w32.hsaco")).unwrap();
    let out = dev.alloc(4 * 512).unwrap();
    let geo = Geometry::new(&[512, 1, 1], &[128, 1, 1]).unwrap();
    dev.dispatch(&m, "many", &geo, &[Arg::Buffer(out)]).unwrap();
    let groups: Vec<u32> = dev
        .printf_output()
        .lines()
        .map(|l| l.split(' ').nth(1).unwrap().parse().unwrap())
        .collect();
    assert_eq!(groups.len(), 512);
    assert!(groups.windows(2).all(|p| p[0] <= p[1]), "{groups:?}");
}

#[test]
fn device_malloc_and_free_give_each_work_item_its_own_memory() {
    // heap: each work-item mallocs (tid % 4 + 1) * words ints (the slab allocator) and
    // 8192 + tid bytes (a block of its own from the devmem service), fills both, and after a
    // barrier sums them: sum(tid * 1000 + k, k < words) + one per 512 bytes of the block.
    let words = 50i64;
    each(|w, e, t| {
        let mut dev = device(e, t);
        let m = dev
            .load(&data("hostcall", &format!("kernels_w{w}.hsaco")))
            .unwrap();
        let n = 256u32;
        let out = dev.alloc(8 * n as u64).unwrap();
        let geo = Geometry::new(&[n, 1, 1], &[64, 1, 1]).unwrap();
        dev.dispatch(&m, "heap", &geo, &[Arg::Buffer(out), (words as i32).into()])
            .unwrap();
        let got = dev.read_vec(out, 8 * n as u64).unwrap();
        for (tid, c) in got.chunks(8).enumerate() {
            let tid = tid as i64;
            let want = (0..words).map(|k| tid * 1000 + k).sum::<i64>()
                + (0..8192 + tid).step_by(512).count() as i64;
            let v = i64::from_le_bytes(c.try_into().unwrap());
            assert_eq!(v, want, "wave{w} {e:?} threads {t}: work-item {tid}");
        }
    });
}

#[test]
fn assert_prints_its_message_and_aborts_the_dispatch() {
    // check: out[tid] = tid; assert(tid < limit); out[tid] = tid + 1. With limit 40 the
    // work-items 40.. of the wave holding them print HIP's message to stderr, then trap.
    for w in WAVES {
        for e in ENGINES {
            let mut dev = device(e, 1);
            let m = dev
                .load(&data("hostcall", &format!("kernels_w{w}.hsaco")))
                .unwrap();
            let out = dev.alloc(4 * 64).unwrap();
            let geo = Geometry::new(&[64, 1, 1], &[64, 1, 1]).unwrap();
            let err = dev
                .dispatch(&m, "check", &geo, &[Arg::Buffer(out), 40i32.into()])
                .unwrap_err();
            let Error::Aborted { stderr, .. } = &err else {
                panic!("{err:?}")
            };
            let line = "kernels.hip:38: void check(int *, int): Device-side assertion \
                        `tid < limit' failed.\n";
            // wave64: one wave, lanes 40..63 fail; wave32: wave 1's lanes 8..31 (40..63).
            assert_eq!(*stderr, line.repeat(24), "wave{w} {e:?}");
            let msg = err.to_string();
            assert!(msg.contains("s_trap 2") && msg.contains("aborted"), "{msg}");
            assert!(msg.contains("Device-side assertion"), "{msg}");
            // The passing limit runs to the end.
            dev.dispatch(&m, "check", &geo, &[Arg::Buffer(out), 64i32.into()])
                .unwrap();
            let got = dev.read_vec(out, 4 * 64).unwrap();
            let want: Vec<u8> = (1..=64u32).flat_map(|i| i.to_le_bytes()).collect();
            assert_eq!(got, want);
        }
    }
}

#[test]
fn opencl_kernels_use_the_same_services() {
    // report: "item I of N: I * V = S\n" with V = I * 2.5 as a float printed "%.2f", S "big"
    // when V > 10 else "small"; printf returns the characters printed.
    each(|w, e, t| {
        let mut dev = device(e, t);
        let m = dev
            .load(&data("hostcall", &format!("kernels_cl_w{w}.hsaco")))
            .unwrap();
        let n = 64u32;
        let out = dev.alloc(4 * n as u64).unwrap();
        let geo = Geometry::new(&[n, 1, 1], &[32, 1, 1]).unwrap();
        dev.dispatch(&m, "report", &geo, &[Arg::Buffer(out), 2.5f32.into()])
            .unwrap();
        let lines: Vec<String> = (0..n)
            .map(|i| {
                let v = i as f32 * 2.5;
                let s = if v > 10.0 { "big" } else { "small" };
                format!("item {i} of {n}: {i} * {v:.2} = {s}\n")
            })
            .collect();
        let mut got: Vec<&str> = dev.printf_output().split_inclusive('\n').collect();
        if t == 1 {
            assert_eq!(dev.printf_output(), lines.concat(), "wave{w} {e:?}");
        }
        got.sort();
        let mut want: Vec<&str> = lines.iter().map(String::as_str).collect();
        want.sort();
        assert_eq!(got, want, "wave{w} {e:?} threads {t}");
        let ret = dev.read_vec(out, 4 * n as u64).unwrap();
        for (i, c) in ret.chunks(4).enumerate() {
            assert_eq!(
                i32::from_le_bytes(c.try_into().unwrap()) as usize,
                lines[i].len()
            );
        }
        // scratchpad: malloc n ints, fill with i + k, sum, free: sum = n*i + n(n-1)/2.
        let res = dev.alloc(8 * n as u64).unwrap();
        dev.dispatch(&m, "scratchpad", &geo, &[Arg::Buffer(res), 1000i32.into()])
            .unwrap();
        let got = dev.read_vec(res, 8 * n as u64).unwrap();
        for (i, c) in got.chunks(8).enumerate() {
            let want = 1000 * i as i64 + 1000 * 999 / 2;
            assert_eq!(i64::from_le_bytes(c.try_into().unwrap()), want);
        }
    });
}

fn declares_hostcall(m: &wavesim::Module, kernel: &str) -> bool {
    m.kernel(kernel)
        .unwrap()
        .meta
        .args
        .iter()
        .any(|a| a.kind == ValueKind::HiddenHostcallBuffer)
}

#[test]
fn a_message_packet_without_its_begin_is_a_typed_error() {
    // hostcall.cl calls __ockl_hostcall_preview(2, 42, ...): service 2 (printf) with descriptor
    // 42 = END (bit 1) | LEN 1 (bits 5..8) | message id 0, which no BEGIN packet opened. ROCm's
    // runtime stops on it too ("Hostcall: No message found").
    let mut dev = Device::new();
    let m = dev.load(&data("raw", "hostcall.hsaco")).unwrap();
    assert!(declares_hostcall(&m, "ask_host"));
    let out = dev.alloc(8 * 32).unwrap();
    let geo = Geometry::new(&[32, 1, 1], &[32, 1, 1]).unwrap();
    let e = dev
        .dispatch(&m, "ask_host", &geo, &[Arg::Buffer(out)])
        .unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, Error::Hostcall { .. }), "{e:?}");
    assert!(
        msg.contains("message 0, which no BEGIN packet opened"),
        "{msg}"
    );
    assert!(msg.contains("lane 0") && msg.contains("s_sleep"), "{msg}");
}

#[test]
fn opencl_printf_through_the_device_library_stub_says_what_happened() {
    // stub_printf.cl linked with opencl.bc without the printf lowering: opencl.bc's printf
    // reads dword 1 of a printf buffer the metadata does not ask for, i.e. address 4 (the fault
    // hardware would take too); the message says why and where the recipe is.
    let mut dev = Device::new();
    let m = dev.load(&data("hostcall", "stub_printf.hsaco")).unwrap();
    let out = dev.alloc(4 * 32).unwrap();
    let geo = Geometry::new(&[32, 1, 1], &[32, 1, 1]).unwrap();
    let e = dev
        .dispatch(&m, "hello", &geo, &[Arg::Buffer(out)])
        .unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, Error::Fault { .. }), "{e:?}");
    assert!(
        msg.contains("address 0x4") && msg.contains("printf stub"),
        "{msg}"
    );
}

#[test]
fn declaring_the_hostcall_buffer_without_using_it_runs() {
    // fill_o0.cl at -O0: every hidden argument is declared, no hostcall is made.
    let mut dev = Device::new();
    let m = dev.load(&data("raw", "fill_o0.hsaco")).unwrap();
    assert!(declares_hostcall(&m, "fill"));
    let out = dev.alloc(4 * 64).unwrap();
    let geo = Geometry::new(&[64, 1, 1], &[32, 1, 1]).unwrap();
    dev.dispatch(&m, "fill", &geo, &[Arg::Buffer(out)]).unwrap();
    let got = dev.read_vec(out, 4 * 64).unwrap();
    let want: Vec<u8> = (0..64u32).flat_map(|i| (3 * i + 1).to_le_bytes()).collect();
    assert_eq!(got, want);
}
