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

// ---------------------------------------------------------------------------------------------
// Trap handler (Device::install_trap_handler). Words from `llvm-mc-19 -arch=amdgcn
// -mcpu=gfx1100 -show-encoding`.

/// Stores {TTMP0, TTMP1, TRAPSTS, 0xc0ffee} at TMA, counts its lanes in TMA[16] and returns with
/// s_rfe_b64: past the s_trap for a user trap (trap ID != 0; the saved PC is the s_trap's own),
/// to the saved PC (the next instruction) for exceptions. Uses v3..v7 only (saxpy has 8 VGPRs).
const HANDLER: &[u32] = &[
    0xbeee4d82, // s_sendmsg_rtn_b64 ttmp[2:3], sendmsg(MSG_RTN_GET_TMA)
    0xb8f0f803, // s_getreg_b32 ttmp4, hwreg(HW_REG_TRAPSTS)
    0xbf89fc07, // s_waitcnt lgkmcnt(0)
    0x7e060280, // v_mov_b32_e32 v3, 0
    0x7e08026c, // v_mov_b32_e32 v4, ttmp0
    0x7e0a026d, // v_mov_b32_e32 v5, ttmp1
    0x7e0c0270, // v_mov_b32_e32 v6, ttmp4
    0x7e0e02ff, 0x00c0ffee, // v_mov_b32_e32 v7, 0xc0ffee
    0xdc760000, 0x006e0403, // global_store_b128 v3, v[4:7], ttmp[2:3]
    0x7e080281, // v_mov_b32_e32 v4, 1
    0xdcd60010, 0x006e0403, // global_atomic_add_u32 v3, v4, ttmp[2:3] offset:16
    0x9371ff6d, 0x00080010, // s_bfe_u32 ttmp5, ttmp1, 0x80010  (trap ID; SCC = ID != 0)
    0xbfa10001, // s_cbranch_scc0 1
    0x806c846c, // s_add_u32 ttmp0, ttmp0, 4
    0x8b6dff6d, 0x0000ffff, // s_and_b32 ttmp1, ttmp1, 0xffff
    0xbe804a6c, // s_rfe_b64 ttmp[0:1]
];

/// The kernel's tail: TMA[20] = 0x600d (it went on after the handler), s_endpgm.
const AFTER_TRAP: &[u32] = &[
    0xbe824d82, // s_sendmsg_rtn_b64 s[2:3], sendmsg(MSG_RTN_GET_TMA)
    0xbf89fc07, // s_waitcnt lgkmcnt(0)
    0x7e020280, // v_mov_b32_e32 v1, 0
    0x7e0402ff, 0x0000600d, // v_mov_b32_e32 v2, 0x600d
    0xdc6a0014, 0x00020201, // global_store_b32 v1, v2, s[2:3] offset:20
    0xbfb00000, // s_endpgm
];

const S_TRAP_2: &[u32] = &[0xbf900002]; // s_trap 2
const MEMVIOL: &[u32] = &[
    0xbe824d82, // s_sendmsg_rtn_b64 s[2:3], sendmsg(MSG_RTN_GET_TMA)
    0xbf89fc07, // s_waitcnt lgkmcnt(0)
    0x7e020280, // v_mov_b32_e32 v1, 0
    0xdcd60002, 0x00020201, // global_atomic_add_u32 v1, v2, s[2:3] offset:2 (misaligned)
];
const FP_INVALID: &[u32] = &[
    // MODE[12:8] = 0b10010: EXCP_EN.invalid, IEEE; DX10_CLAMP (which suppresses VALU
    // exceptions and clang sets) off.
    0xb9802201, 0x00000012, // s_setreg_imm32_b32 hwreg(HW_REG_MODE, 8, 5), 18
    0x7e0402f3, // v_mov_b32_e32 v2, -1.0
    0x7e046702, // v_sqrt_f32_e32 v2, v2 (invalid)
];

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// saxpy.hsaco (wave32) with the saxpy kernel's code replaced from its entry by `head` and
/// AFTER_TRAP.
fn trap_kernel(head: &[u32]) -> Vec<u8> {
    let mut elf = read("corpus/gfx1100-w32/saxpy.hsaco");
    let co = wavesim::CodeObject::parse(&elf).unwrap();
    let entry = co.kernel("saxpy").unwrap().entry as usize;
    // The text segment is mapped 1:1: find the kernel's first bytes in the file.
    let first = &co.image[entry..entry + 16];
    let at = elf.windows(16).position(|w| w == first).unwrap();
    let code = bytes_of(&[head, AFTER_TRAP].concat());
    elf[at..at + code.len()].copy_from_slice(&code);
    elf
}

fn run_saxpy(dev: &mut Device, elf: &[u8]) -> (Result<wavesim::DispatchStats, Error>, u64) {
    let m = dev.load(elf).unwrap();
    let x = dev.alloc(256).unwrap();
    let geo = Geometry::new(&[64], &[32]).unwrap();
    let args = [64u32.into(), 2.0f32.into(), Arg::Buffer(x), Arg::Buffer(x)];
    let r = dev.dispatch(&m, "saxpy", &geo, &args);
    (r, m.base + m.kernel("saxpy").unwrap().entry)
}

fn tma_words(dev: &Device, tma: u64) -> [u32; 6] {
    let b = dev.read_vec(tma, 24).unwrap();
    std::array::from_fn(|k| u32::from_le_bytes(b[4 * k..4 * k + 4].try_into().unwrap()))
}

#[test]
fn an_installed_trap_handler_takes_s_trap_memviol_and_fp_exceptions() {
    // (kernel head, trap ID, TRAPSTS bit, saved PC = the s_trap itself / the next instruction)
    let cases: [(&[u32], u32, u32, bool); 3] = [
        (S_TRAP_2, 2, 0, true),
        (MEMVIOL, 0, 1 << 8, false),
        (FP_INVALID, 0, 1, false),
    ];
    for (head, id, bit, at_itself) in cases {
        let mut dev = Device::new();
        let t = dev.install_trap_handler(&bytes_of(HANDLER), 64).unwrap();
        assert_eq!(t.tba % wavesim::TBA_ALIGN, 0);
        assert_eq!(dev.trap_handler(), Some(t));
        let (r, entry) = run_saxpy(&mut dev, &trap_kernel(head));
        r.unwrap_or_else(|e| panic!("trap ID {id}: {e}"));
        let w = tma_words(&dev, t.tma);
        let pc = if at_itself {
            entry
        } else {
            entry + 4 * head.len() as u64
        };
        assert_eq!(w[0] as u64, pc & 0xffff_ffff, "TTMP0, trap ID {id}");
        assert_eq!(w[1], id << 16 | (pc >> 32) as u32, "TTMP1");
        assert_eq!(w[2] & (bit | 0x1ff), bit, "TRAPSTS");
        assert_eq!(w[3], 0xc0ffee);
        assert_eq!(w[4], 64, "every lane of both waves ran the handler once");
        assert_eq!(w[5], 0x600d, "the kernel went on after s_rfe_b64");
    }
}

#[test]
fn without_a_trap_handler_s_trap_is_a_nop_and_violations_are_errors() {
    let mut dev = Device::new();
    assert_eq!(dev.trap_handler(), None);
    // s_trap does nothing; the tail then stores through TMA = 0 and faults at address 20.
    let (r, _) = run_saxpy(&mut dev, &trap_kernel(S_TRAP_2));
    let e = r.unwrap_err().to_string();
    assert!(
        e.contains("memory fault") && e.contains("address 0x14"),
        "{e}"
    );
    let (r, _) = run_saxpy(&mut dev, &trap_kernel(MEMVIOL));
    let e = r.unwrap_err().to_string();
    assert!(e.contains("MEMVIOL"), "{e}");
    let (r, _) = run_saxpy(&mut dev, &trap_kernel(FP_INVALID));
    let e = r.unwrap_err().to_string();
    assert!(e.contains("invalid operation"), "{e}");
}

#[test]
fn trap_handlers_are_replaced_removed_and_checked() {
    let mut dev = Device::new();
    let before = dev.memory().regions().len();
    assert!(matches!(
        dev.install_trap_handler(&[], 64),
        Err(Error::Args(_))
    ));
    assert!(matches!(
        dev.install_trap_handler(&[0, 0, 0], 64),
        Err(Error::Args(_))
    ));
    assert_eq!(dev.memory().regions().len(), before);
    let a = dev.install_trap_handler(&bytes_of(HANDLER), 64).unwrap();
    // Installing again replaces the handler (the old code and TMA are freed).
    let b = dev.install_trap_handler(&bytes_of(HANDLER), 0).unwrap();
    assert_eq!((b.tma, b.tma_size), (0, 0));
    assert_eq!(dev.memory().regions().len(), before + 1);
    assert_ne!(dev.trap_handler(), Some(a));
    dev.remove_trap_handler().unwrap();
    assert_eq!(dev.trap_handler(), None);
    assert_eq!(dev.memory().regions().len(), before);
}

#[test]
fn run_host_asm_rejects_empty_workgroups_naming_the_dimension() {
    // s_endpgm; the size check comes before any guest memory is touched.
    let code = 0xbfb0_0000u32.to_le_bytes();
    // SAFETY: the call fails on its arguments before executing anything.
    let e = unsafe { wavesim::run_host_asm(&code, [4, 1, 1], [0, 1, 1], 0, 0, 0, 1000) }
        .expect_err("local size 0 is refused");
    let msg = e.to_string();
    assert!(
        msg.contains("dimension 0 has 4 workgroups of 0 work-items"),
        "{msg}"
    );
}
