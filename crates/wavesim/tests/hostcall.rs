//! Hostcall services (HIP device malloc, `__ockl_hostcall_*`) are not supported: a kernel that
//! makes a request gets a typed error naming hostcall, while a kernel whose metadata merely
//! declares `hidden_hostcall_buffer` runs. Kernels: tests/data/raw/build.sh.

use std::path::PathBuf;
use wavesim::{Arg, Device, Error, Geometry, ValueKind};

fn data(name: &str) -> Vec<u8> {
    std::fs::read(
        PathBuf::from(env!("CARGO_MANIFEST_DIR"))
            .join("tests/data/raw")
            .join(name),
    )
    .unwrap()
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
fn a_hostcall_request_is_reported_as_unsupported() {
    // hostcall.cl calls __ockl_hostcall_preview (ROCm device libraries).
    let mut dev = Device::new();
    let m = dev.load(&data("hostcall.hsaco")).unwrap();
    assert!(declares_hostcall(&m, "ask_host"));
    let out = dev.alloc(8 * 32).unwrap();
    let geo = Geometry::new(&[32, 1, 1], &[32, 1, 1]).unwrap();
    let e = dev
        .dispatch(&m, "ask_host", &geo, &[Arg::Buffer(out)])
        .unwrap_err();
    let msg = e.to_string();
    assert!(matches!(e, Error::HostcallUnsupported { .. }), "{e:?}");
    assert!(msg.contains("hostcall services are not supported"), "{msg}");
    assert!(msg.contains("hidden_hostcall_buffer"), "{msg}");
    // The location of the request (the instruction that read the buffer) is kept.
    assert!(msg.contains("lane") && msg.contains("address 0x8"), "{msg}");
}

#[test]
fn declaring_the_hostcall_buffer_without_using_it_runs() {
    // fill_o0.cl at -O0: every hidden argument is declared, no hostcall is made.
    let mut dev = Device::new();
    let m = dev.load(&data("fill_o0.hsaco")).unwrap();
    assert!(declares_hostcall(&m, "fill"));
    let out = dev.alloc(4 * 64).unwrap();
    let geo = Geometry::new(&[64, 1, 1], &[32, 1, 1]).unwrap();
    dev.dispatch(&m, "fill", &geo, &[Arg::Buffer(out)]).unwrap();
    let got = dev.read_vec(out, 4 * 64).unwrap();
    let want: Vec<u8> = (0..64u32).flat_map(|i| (3 * i + 1).to_le_bytes()).collect();
    assert_eq!(got, want);
}
