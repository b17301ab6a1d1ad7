//! The Rust API: loading, buffers, dispatch errors, cleanup, and a code object v4 kernel (whose
//! work-group sizes come from the AQL dispatch packet the dispatch pointer SGPRs point to).

use std::path::PathBuf;
use wavesim::{Arg, Device, Error, Geometry};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(p: &str) -> Vec<u8> {
    std::fs::read(root().join(p)).unwrap()
}

#[test]
fn code_object_v4_reads_sizes_from_the_dispatch_packet() {
    // tests/data/grid_ids_v4.hsaco is corpus/cl/grid_ids.cl built as code object v4
    // (tests/data/build_v4.sh); the corpus run grid_ids_3d_uniform gives its expected output.
    let mut dev = Device::new();
    let m = dev
        .load(&read("crates/wavesim/tests/data/grid_ids_v4.hsaco"))
        .unwrap();
    assert_eq!(m.code.version, 4);
    let k = m.kernel("grid_ids").unwrap();
    assert!(
        k.descriptor.kernel_code_properties & 2 != 0,
        "dispatch pointer enabled"
    );
    let want = read("corpus/data/grid_ids_3d_uniform.a0.expect.bin");
    let out = dev.alloc(want.len() as u64).unwrap();
    dev.global_offset = [2, 0, 1];
    let geo = Geometry::new(&[8, 6, 4], &[4, 3, 2]).unwrap();
    dev.dispatch(&m, "grid_ids", &geo, &[Arg::Buffer(out)])
        .unwrap();
    let got = dev.read_vec(out, want.len() as u64).unwrap();
    assert_eq!(got, want);
}

#[test]
fn dispatch_argument_errors() {
    let mut dev = Device::new();
    let m = dev.load(&read("corpus/gfx1100-w32/saxpy.hsaco")).unwrap();
    let geo = Geometry::new(&[64], &[64]).unwrap();
    let x = dev.alloc(256).unwrap();
    let args = [64u32.into(), 2.0f32.into(), Arg::Buffer(x), Arg::Buffer(x)];
    dev.dispatch(&m, "saxpy", &geo, &args).unwrap();
    match dev.dispatch(&m, "nope", &geo, &args) {
        Err(Error::UnknownKernel { name, available }) => {
            assert_eq!(name, "nope");
            assert_eq!(available, "saxpy, daxpy");
        }
        r => panic!("{r:?}"),
    }
    let e = dev.dispatch(&m, "saxpy", &geo, &args[..3]).unwrap_err();
    assert!(e.to_string().contains("takes 4 arguments, got 3"), "{e}");
    // daxpy's `a` is a double: a 4-byte value is the wrong kind.
    let e = dev.dispatch(&m, "daxpy", &geo, &args).unwrap_err();
    assert!(e.to_string().contains("argument 2"), "{e}");
    assert!(
        e.to_string().contains("8-byte value; got a 4-byte value"),
        "{e}"
    );
    // A module belongs to the device that loaded it.
    let mut other = Device::new();
    let e = other.dispatch(&m, "saxpy", &geo, &args).unwrap_err();
    assert!(e.to_string().contains("different device"), "{e}");
    // Memory outside every allocation.
    assert!(matches!(dev.read_vec(0x10, 4), Err(Error::Memory(_))));
    assert!(matches!(dev.load(b"\x7fELF"), Err(Error::CodeObject(_))));
}

#[test]
fn dispatches_free_their_temporaries() {
    let mut dev = Device::new();
    let m = dev.load(&read("corpus/gfx1100-w32/saxpy.hsaco")).unwrap();
    let x = dev.alloc_with(&[0u8; 4096]).unwrap();
    let geo = Geometry::new(&[1000], &[256]).unwrap();
    let before = dev.memory().regions().len();
    for _ in 0..20 {
        let args = [
            1000u32.into(),
            1.0f32.into(),
            Arg::Buffer(x),
            Arg::Buffer(x),
        ];
        dev.dispatch(&m, "saxpy", &geo, &args).unwrap();
        // A failing dispatch frees its kernarg segment and packet too.
        assert!(dev.dispatch(&m, "saxpy", &geo, &args[..1]).is_err());
        let bad = [
            5000u32.into(),
            1.0f32.into(),
            Arg::Buffer(x),
            Arg::Buffer(x),
        ];
        let geo_big = Geometry::new(&[5000], &[256]).unwrap();
        assert!(
            dev.dispatch(&m, "saxpy", &geo_big, &bad).is_err(),
            "reads past x"
        );
    }
    assert_eq!(dev.memory().regions().len(), before);
}

#[test]
fn local_arguments_get_dynamic_lds_after_the_static_lds() {
    // local_arg_scan(global const uint *in, global uint *out, global uint *block_sums,
    //                local uint *tmp, uint n): a work-group prefix sum in 2 * local size words.
    let mut dev = Device::new();
    let m = dev
        .load(&read("corpus/gfx1100-w64/local_arg_scan.hsaco"))
        .unwrap();
    let n = 300u32;
    let input: Vec<u32> = (0..n).map(|i| i * 7 % 13).collect();
    let bytes: Vec<u8> = input.iter().flat_map(|v| v.to_le_bytes()).collect();
    let a = dev.alloc_with(&bytes).unwrap();
    let out = dev.alloc(4 * n as u64).unwrap();
    let sums = dev.alloc(4 * 3).unwrap();
    let geo = Geometry::new(&[384], &[128]).unwrap();
    let args = [
        Arg::Buffer(a),
        Arg::Buffer(out),
        Arg::Buffer(sums),
        Arg::Local(2 * 128 * 4),
        n.into(),
    ];
    dev.dispatch(&m, "local_arg_scan", &geo, &args).unwrap();
    let got = dev.read_vec(out, 4 * n as u64).unwrap();
    let mut acc = 0u32;
    for i in 0..n as usize {
        if i % 128 == 0 {
            acc = 0;
        }
        acc += input[i];
        let v = u32::from_le_bytes(got[4 * i..4 * i + 4].try_into().unwrap());
        assert_eq!(v, acc, "element {i}");
    }
    // More LDS than a workgroup can have (64 KiB) is an error, not a silent truncation.
    let mut big = args.clone();
    big[3] = Arg::Local(70_000);
    assert!(dev.dispatch(&m, "local_arg_scan", &geo, &big).is_err());
}
