//! Memory faults end to end: a faulting store/atomic has no partial effect (every lane is checked
//! before any is performed), a guest kernel writing outside its buffer fails through the
//! dispatcher with an error naming workgroup, wave, PC, instruction, lane and address, and random
//! addresses through real load/store/atomic instructions match a reference model of the sandbox
//! (no panic, nothing outside the allocations written, faults and MEMVIOLs where the ISA rules
//! put them).
//!
//! Instruction words come from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding`; the
//! assembly is in the comment next to each word.

use wavesim_core::memory::DeviceMemory;
use wavesim_rdna3::codeobj::kcp;
use wavesim_rdna3::dispatch::ExecConfig;
use wavesim_rdna3::dispatch::{self, DispatchError, Geometry, Launch};
use wavesim_rdna3::exec::flat::align_mode;
use wavesim_rdna3::exec::operand::SHARED_APERTURE;
use wavesim_rdna3::exec::{ExecError, Program};
use wavesim_rdna3::testing::Harness;

const GLOBAL_STORE_B32: [u32; 2] = [0xdc6a0000, 0x007c0402]; // global_store_b32 v[2:3], v4, off
const GLOBAL_STORE_B128: [u32; 2] = [0xdc760000, 0x007c0402]; // global_store_b128 v[2:3], v[4:7], off
const GLOBAL_ATOMIC_ADD_RTN: [u32; 2] = [0xdcd64000, 0x0a7c0402]; // global_atomic_add_u32 v10, v[2:3], v4, off glc
const FLAT_STORE_B32: [u32; 2] = [0xdc680000, 0x007c0402]; // flat_store_b32 v[2:3], v4
const SCRATCH_STORE_B32: [u32; 2] = [0xdc690000, 0x00fc0400]; // scratch_store_b32 v0, v4, off
const DS_STORE_B32: [u32; 2] = [0xd8340000, 0x00000201]; // ds_store_b32 v1, v2
const DS_ADD_U32: [u32; 2] = [0xd8000000, 0x00000201]; // ds_add_u32 v1, v2
const DS_STORE_2ADDR_B32: [u32; 2] = [0xd8380401, 0x00030201]; // ds_store_2addr_b32 v1, v2, v3 offset0:1 offset1:4
const DS_STOREXCHG_RTN_B32: [u32; 2] = [0xd8b40000, 0x03000201]; // ds_storexchg_rtn_b32 v3, v1, v2
const GLOBAL_STORE_ADDTID: [u32; 2] = [0xdca60000, 0x00040100]; // global_store_addtid_b32 v1, s[4:5]

fn lanes(w64: bool) -> usize {
    if w64 {
        64
    } else {
        32
    }
}

fn set_addr(h: &mut Harness, r: usize, f: impl Fn(usize) -> u64) {
    h.set_v(r, |l| f(l) as u32);
    h.set_v(r + 1, |l| (f(l) >> 32) as u32);
}

fn bytes_of(mem: &DeviceMemory, addr: u64, len: usize) -> Vec<u8> {
    let mut v = vec![0; len];
    mem.read(addr, &mut v).unwrap();
    v
}

// ---------------------------------------------------------------------------------------------
// No partial effects

#[test]
fn a_store_faulting_in_its_last_lane_writes_nothing() {
    for w64 in [false, true] {
        let n = lanes(w64);
        let mut h = Harness::new(w64);
        let buf = h.mem.alloc(4096, 256).unwrap();
        // Every lane but the last stores inside the buffer; the last one past its end.
        set_addr(&mut h, 2, |l| {
            if l == n - 1 {
                buf + 4096
            } else {
                buf + 16 * l as u64
            }
        });
        for k in 0..4 {
            h.set_v(4 + k, move |l| 0x1000 * (k as u32 + 1) + l as u32);
        }
        for word in [GLOBAL_STORE_B32, GLOBAL_STORE_B128, FLAT_STORE_B32] {
            match h.run(&word) {
                Err(ExecError::MemoryFault { lane, addr, .. }) => {
                    assert_eq!((lane as usize, addr), (n - 1, buf + 4096), "{word:x?}")
                }
                r => panic!("{word:x?}: expected a fault, got {r:?}"),
            }
            assert!(
                bytes_of(&h.mem, buf, 4096).iter().all(|&b| b == 0),
                "wave64={w64} {word:x?}: the lower lanes' stores must not happen"
            );
        }
        // The same store with the faulting lane off writes every other lane.
        h.wave.set_exec(!(1u64 << (n - 1)));
        h.run(&GLOBAL_STORE_B128).unwrap();
        assert_eq!(h.mem.read_u32(buf + 16 * 3 + 8).unwrap(), 0x3003);
    }
}

#[test]
fn a_store_to_a_second_allocation_and_a_guard_gap() {
    for w64 in [false, true] {
        let n = lanes(w64);
        let mut h = Harness::new(w64);
        let a = h.mem.alloc(256, 256).unwrap();
        let b = h.mem.alloc(256, 256).unwrap();
        // Even lanes write A, odd lanes B: two allocations, one instruction.
        set_addr(
            &mut h,
            2,
            |l| if l % 2 == 0 { a } else { b } + 4 * (l as u64 / 2),
        );
        h.set_v(4, |l| 100 + l as u32);
        h.run(&GLOBAL_STORE_B32).unwrap();
        assert_eq!(h.mem.read_u32(a + 4 * 5).unwrap(), 110);
        assert_eq!(h.mem.read_u32(b + 4 * 5).unwrap(), 111);
        // Lane 7 now points into the guard gap after A: nothing at all is written.
        h.set_v(4, |_| 7);
        set_addr(&mut h, 2, |l| match l {
            7 => a + 256,
            _ if l % 2 == 0 => a + 4 * (l as u64 / 2),
            _ => b + 4 * (l as u64 / 2),
        });
        assert!(matches!(
            h.run(&GLOBAL_STORE_B32),
            Err(ExecError::MemoryFault { lane: 7, .. })
        ));
        assert_eq!(h.mem.read_u32(a + 4 * 5).unwrap(), 110);
        assert_eq!(h.mem.read_u32(b).unwrap(), 101);
        assert_eq!(
            h.mem.read_u32(b + 4 * (n as u64 / 2 - 1)).unwrap(),
            100 + n as u32 - 1
        );
    }
}

#[test]
fn a_faulting_atomic_changes_no_memory_and_no_vgpr() {
    for w64 in [false, true] {
        let n = lanes(w64);
        let mut h = Harness::new(w64);
        let buf = h.mem.alloc(256, 256).unwrap();
        h.mem.write_u32(buf, 1000).unwrap();
        // All lanes add to one counter, except lane 9 which points below the buffer.
        set_addr(&mut h, 2, |l| if l == 9 { buf - 4 } else { buf });
        h.set_v(4, |_| 1);
        h.set_v(10, |_| 0xdead);
        assert!(matches!(
            h.run(&GLOBAL_ATOMIC_ADD_RTN),
            Err(ExecError::MemoryFault { lane: 9, .. })
        ));
        assert_eq!(
            h.mem.read_u32(buf).unwrap(),
            1000,
            "lanes 0..8 must not add"
        );
        assert!((0..n).all(|l| h.v(10, l) == 0xdead));
        // A misaligned lane (MEMVIOL in every alignment mode) stops it the same way.
        set_addr(&mut h, 2, |l| if l == n - 1 { buf + 2 } else { buf });
        assert!(matches!(
            h.run(&GLOBAL_ATOMIC_ADD_RTN),
            Err(ExecError::MemViol { lane, .. }) if lane as usize == n - 1
        ));
        assert_eq!(h.mem.read_u32(buf).unwrap(), 1000);
        // Without the bad lane: n - 1 adds, each lane sees the sum before its own.
        h.wave.set_exec(!(1u64 << (n - 1)));
        h.run(&GLOBAL_ATOMIC_ADD_RTN).unwrap();
        assert_eq!(h.mem.read_u32(buf).unwrap(), 1000 + n as u32 - 1);
        assert_eq!((h.v(10, 0), h.v(10, 5)), (1000, 1005));
    }
}

#[test]
fn strict_alignment_memviol_in_one_lane_stops_the_whole_store() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        let buf = h.mem.alloc(1024, 256).unwrap();
        set_addr(&mut h, 2, |l| {
            buf + 4 * l as u64 + if l == 12 { 2 } else { 0 }
        });
        h.set_v(4, |l| l as u32 + 1);
        for mode in [align_mode::STRICT, align_mode::DWORD_STRICT] {
            h.cfg.alignment_mode = mode;
            assert!(matches!(
                h.run(&GLOBAL_STORE_B32),
                Err(ExecError::MemViol { lane: 12, .. })
            ));
            assert!(bytes_of(&h.mem, buf, 1024).iter().all(|&b| b == 0));
        }
        // DWORD mode clears the low bits instead: lane 12 writes its own dword.
        h.cfg.alignment_mode = align_mode::DWORD;
        h.run(&GLOBAL_STORE_B32).unwrap();
        assert_eq!(h.mem.read_u32(buf + 48).unwrap(), 13);
    }
}

#[test]
fn faulting_scratch_and_flat_stores_leave_scratch_and_lds_untouched() {
    for w64 in [false, true] {
        let n = lanes(w64) as u64;
        let mut h = Harness::new(w64);
        let scratch = h.mem.alloc(n * 16, 256).unwrap();
        h.wave.scratch_base = scratch;
        h.wave.scratch_lane_bytes = 16;
        // Lane 3's private offset 16 is past its 16-byte segment.
        h.set_v(0, |l| if l == 3 { 16 } else { 4 });
        h.set_v(4, |l| 0x500 + l as u32);
        assert!(matches!(
            h.run(&SCRATCH_STORE_B32),
            Err(ExecError::MemoryFault { lane: 3, .. })
        ));
        assert!(bytes_of(&h.mem, scratch, (n * 16) as usize)
            .iter()
            .all(|&b| b == 0));
        // FLAT: lanes 0..4 go to LDS, lane 5 to an unmapped global address.
        set_addr(&mut h, 2, |l| {
            if l == 5 {
                0x10
            } else {
                SHARED_APERTURE + 4 * l as u64
            }
        });
        assert!(matches!(
            h.run(&FLAT_STORE_B32),
            Err(ExecError::MemoryFault {
                lane: 5,
                addr: 0x10,
                ..
            })
        ));
        assert!(h.lds.iter().all(|&b| b == 0));
    }
}

#[test]
fn lds_memviol_in_one_lane_leaves_lds_untouched() {
    for w64 in [false, true] {
        let n = lanes(w64);
        let mut h = Harness::new(w64);
        h.lds[0x200..0x204].copy_from_slice(&50u32.to_le_bytes());
        // Lane 6's address is 2 bytes off: MEMVIOL under STRICT and DWORD_STRICT.
        h.set_v(1, |l| 4 * l as u32 + if l == 6 { 2 } else { 0 });
        h.set_v(2, |l| l as u32 + 1);
        h.set_v(3, |_| 0xabc);
        for mode in [align_mode::STRICT, align_mode::DWORD_STRICT] {
            h.cfg.alignment_mode = mode;
            for word in [DS_STORE_B32, DS_STORE_2ADDR_B32] {
                assert!(matches!(
                    h.run(&word),
                    Err(ExecError::MemViol { lane: 6, .. })
                ));
                assert!(h.lds[..0x200].iter().all(|&b| b == 0), "{word:x?}");
            }
        }
        // Atomics need size alignment in every mode, UNALIGNED included.
        h.cfg.alignment_mode = align_mode::UNALIGNED;
        h.set_v(1, |l| if l == n - 2 { 0x201 } else { 0x200 });
        for word in [DS_ADD_U32, DS_STOREXCHG_RTN_B32] {
            assert!(matches!(
                h.run(&word),
                Err(ExecError::MemViol { lane, .. }) if lane as usize == n - 2
            ));
            assert_eq!(&h.lds[0x200..0x204], &50u32.to_le_bytes());
            assert!((0..n).all(|l| h.v(3, l) == 0xabc));
        }
        // Lane n-2 off: the others add 1..=n except n-1.
        h.wave.set_exec(!(1u64 << (n - 2)));
        h.run(&DS_ADD_U32).unwrap();
        let added: u32 = (1..=n as u32).filter(|&k| k != n as u32 - 1).sum();
        assert_eq!(&h.lds[0x200..0x204], &(50 + added).to_le_bytes());
    }
}

#[test]
fn addtid_store_past_the_end_writes_nothing() {
    for w64 in [false, true] {
        let n = lanes(w64) as u64;
        let mut h = Harness::new(w64);
        // One dword short: the last lane's dword is outside the allocation.
        let buf = h.mem.alloc(4 * n - 4, 256).unwrap();
        h.wave.sgpr[4] = buf as u32;
        h.wave.sgpr[5] = (buf >> 32) as u32;
        h.set_v(1, |l| l as u32 + 1);
        match h.run(&GLOBAL_STORE_ADDTID) {
            Err(ExecError::MemoryFault { lane, addr, .. }) => {
                assert_eq!((lane as u64, addr), (n - 1, buf + 4 * (n - 1)))
            }
            r => panic!("{r:?}"),
        }
        assert!(bytes_of(&h.mem, buf, (4 * n - 4) as usize)
            .iter()
            .all(|&b| b == 0));
    }
}

// ---------------------------------------------------------------------------------------------
// End to end through the dispatcher

const CODE_BASE: u64 = 0x1000;

/// `buf[wg * lanes + tid] = wg * lanes + tid` with the buffer pointer at kernarg offset 0.
fn store_ids_prog(wave64: bool) -> Vec<u32> {
    vec![
        0xf4040100,
        0xf8000000,                                   // s_load_b64 s[4:5], s[0:1], 0x0
        if wave64 { 0x84038602 } else { 0x84038502 }, // s_lshl_b32 s3, s2, 6 / 5
        0x4a020003,                                   // v_add_nc_u32_e32 v1, s3, v0
        0x30040282,                                   // v_lshlrev_b32_e32 v2, 2, v1
        0xbf89fc07,                                   // s_waitcnt lgkmcnt(0)
        0xdc6a0000,
        0x00040102, // global_store_b32 v2, v1, s[4:5]
        0xbfb00000, // s_endpgm
    ]
}

fn launch(prog: &Program, wave64: bool, grid: u32, kernarg: u64) -> Launch<'_> {
    let local = if wave64 { 64 } else { 32 };
    Launch {
        kernel_name: "store_ids".into(),
        prog,
        entry: CODE_BASE,
        pc_display_base: CODE_BASE,
        wave64,
        num_vgprs: 8,
        mode: 0x3f0,
        code_properties: kcp::ENABLE_SGPR_KERNARG_SEGMENT_PTR
            | if wave64 {
                0
            } else {
                kcp::ENABLE_WAVEFRONT_SIZE32
            },
        // USER_SGPR_COUNT = 2 (kernarg pointer), workgroup id X in s2.
        rsrc2: 2 << 1 | 1 << 7,
        packed_tid: true,
        geo: Geometry::new(&[grid], &[local]).unwrap(),
        lds_bytes: 0,
        wgp_mode: true,
        scratch_lane_bytes: 0,
        scratch_addr: 0,
        kernarg_addr: kernarg,
        dispatch_ptr: 0,
        queue_ptr: 0,
        dispatch_id: 0,
        threads: 1,
        max_wave_insts: 10_000,
        cfg: ExecConfig::default(),
        trap: None,
        host: None,
    }
}

#[test]
fn a_kernel_writing_past_its_buffer_fails_naming_lane_and_address() {
    for wave64 in [false, true] {
        let n = lanes(wave64) as u64;
        let words = store_ids_prog(wave64);
        let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
        let prog = Program::new(&bytes, CODE_BASE).unwrap();
        let mut mem = DeviceMemory::new();
        // Room for n + 8 ids; the grid has 2n work-items.
        let buf = mem.alloc(4 * (n + 8), 256).unwrap();
        let kernarg = mem.alloc(8, 256).unwrap();
        mem.write_u64(kernarg, buf).unwrap();
        for threads in [1, 2] {
            mem.fill(buf, 0xee, 4 * (n + 8)).unwrap();
            let mut l = launch(&prog, wave64, 2 * n as u32, kernarg);
            l.threads = threads;
            let err = dispatch::run(&l, &mem).unwrap_err();
            let DispatchError::Exec { at, error } = &err else {
                panic!("expected an execution error, got {err}");
            };
            // Workgroup 1, lane 8 is work-item n + 8: the first dword past the buffer.
            assert_eq!(
                *error,
                ExecError::MemoryFault {
                    lane: 8,
                    addr: buf + 4 * (n + 8),
                    size: 4,
                    kind: "global_store_b32",
                }
            );
            assert_eq!((at.workgroup, at.wave), ([1, 0, 0], 0));
            assert_eq!(at.pc, 6 * 4, "PC of the store inside the kernel");
            assert_eq!(at.inst, "global_store_b32 v2, v1, s[4:5]");
            let text = err.to_string();
            for part in [
                "store_ids",
                "workgroup (1,0,0)",
                "lane 8",
                &format!("{:#x}", buf + 4 * (n + 8)),
                "global_store_b32 v2, v1, s[4:5]",
            ] {
                assert!(text.contains(part), "{text:?} lacks {part:?}");
            }
            // Workgroup 0 completed; the faulting instruction wrote none of its lanes.
            for i in 0..n + 8 {
                let want = if i < n { i as u32 } else { 0xeeee_eeee };
                assert_eq!(mem.read_u32(buf + 4 * i).unwrap(), want, "id {i}");
            }
        }
        // With the buffer large enough the same kernel runs clean.
        let big = mem.alloc(8 * n, 256).unwrap();
        mem.write_u64(kernarg, big).unwrap();
        dispatch::run(&launch(&prog, wave64, 2 * n as u32, kernarg), &mem).unwrap();
        assert_eq!(
            mem.read_u32(big + 4 * (2 * n - 1)).unwrap(),
            2 * n as u32 - 1
        );
    }
}

#[test]
fn flat_scratch_reads_zero_without_scratch_and_the_base_with_it() {
    // s_getreg_b32 s10, hwreg(HW_REG_FLAT_SCR_LO); s_getreg_b32 s11, hwreg(HW_REG_FLAT_SCR_HI);
    // then store both through s[0:1] (the kernarg pointer, here the output buffer).
    let words = [
        0xb88af814u32, // s_getreg_b32 s10, hwreg(HW_REG_FLAT_SCR_LO)
        0xb88bf815,    // s_getreg_b32 s11, hwreg(HW_REG_FLAT_SCR_HI)
        0x7e02020a,    // v_mov_b32_e32 v1, s10
        0x7e04020b,    // v_mov_b32_e32 v2, s11
        0x7e060280,    // v_mov_b32_e32 v3, 0
        0xdc6e0000,
        0x00000103, // global_store_b64 v3, v[1:2], s[0:1]
        0xbfb00000, // s_endpgm
    ];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let prog = Program::new(&bytes, CODE_BASE).unwrap();
    for wave64 in [false, true] {
        let mut mem = DeviceMemory::new();
        let out = mem.alloc(8, 256).unwrap();
        mem.write_u64(out, u64::MAX).unwrap();
        let mut l = launch(&prog, wave64, 1, out);
        dispatch::run(&l, &mem).unwrap();
        assert_eq!(
            mem.read_u64(out).unwrap(),
            0,
            "no scratch: FLAT_SCRATCH = 0"
        );
        l.scratch_lane_bytes = 64;
        let scratch = mem.alloc(l.scratch_bytes(), 256).unwrap();
        l.scratch_addr = scratch;
        dispatch::run(&l, &mem).unwrap();
        // The only wave's scratch starts at the area's base (256-byte aligned).
        assert_eq!(mem.read_u64(out).unwrap(), scratch);
        assert_eq!(scratch % 256, 0);
    }
}

// ---------------------------------------------------------------------------------------------
// Fuzz: random addresses through real instructions against a reference model

#[derive(Clone, Copy, Debug)]
enum Kind {
    /// Load of `size` bytes into `size.div_ceil(4)` VGPRs from v10; `sext` sign-extends a
    /// sub-dword value, otherwise it is zero-extended.
    Load {
        sext: bool,
    },
    Store,
    AddU32,
    SwapB64,
    CmpSwapB32,
}

struct FuzzOp {
    words: [u32; 2],
    kind: Kind,
    size: u64,
    offset: i64,
    name: &'static str,
}

const fn op(words: [u32; 2], kind: Kind, size: u64, offset: i64, name: &'static str) -> FuzzOp {
    FuzzOp {
        words,
        kind,
        size,
        offset,
        name,
    }
}

/// Address in v[2:3], data in v[4:7], results in v[10:13].
const FUZZ_OPS: &[FuzzOp] = &[
    op(
        [0xdc520000, 0x0a7c0002],
        Kind::Load { sext: false },
        4,
        0,
        "global_load_b32 v10, v[2:3], off",
    ),
    op(
        [0xdc560000, 0x0a7c0002],
        Kind::Load { sext: false },
        8,
        0,
        "global_load_b64 v[10:11], v[2:3], off",
    ),
    op(
        [0xdc420000, 0x0a7c0002],
        Kind::Load { sext: false },
        1,
        0,
        "global_load_u8 v10, v[2:3], off",
    ),
    op(
        [0xdc4e0000, 0x0a7c0002],
        Kind::Load { sext: true },
        2,
        0,
        "global_load_i16 v10, v[2:3], off",
    ),
    op(
        [0xdc5e0000, 0x0a7c0002],
        Kind::Load { sext: false },
        16,
        0,
        "global_load_b128 v[10:13], v[2:3], off",
    ),
    op(
        [0xdc5a1ff8, 0x0a7c0002],
        Kind::Load { sext: false },
        12,
        -8,
        "global_load_b96 v[10:12], v[2:3], off offset:-8",
    ),
    op(
        [0xdc620000, 0x007c0402],
        Kind::Store,
        1,
        0,
        "global_store_b8 v[2:3], v4, off",
    ),
    op(
        [0xdc660000, 0x007c0402],
        Kind::Store,
        2,
        0,
        "global_store_b16 v[2:3], v4, off",
    ),
    op(
        [0xdc6a000c, 0x007c0402],
        Kind::Store,
        4,
        12,
        "global_store_b32 v[2:3], v4, off offset:12",
    ),
    op(
        [0xdc6e0000, 0x007c0402],
        Kind::Store,
        8,
        0,
        "global_store_b64 v[2:3], v[4:5], off",
    ),
    op(
        [0xdc760000, 0x007c0402],
        Kind::Store,
        16,
        0,
        "global_store_b128 v[2:3], v[4:7], off",
    ),
    op(
        [0xdcd64000, 0x0a7c0402],
        Kind::AddU32,
        4,
        0,
        "global_atomic_add_u32 v10, v[2:3], v4, off glc",
    ),
    op(
        [0xdd064000, 0x0a7c0402],
        Kind::SwapB64,
        8,
        0,
        "global_atomic_swap_b64 v[10:11], v[2:3], v[4:5], off glc",
    ),
    op(
        [0xdcd24000, 0x0a7c0402],
        Kind::CmpSwapB32,
        4,
        0,
        "global_atomic_cmpswap_b32 v10, v[2:3], v[4:5], off glc",
    ),
    op(
        [0xdc500000, 0x0a7c0002],
        Kind::Load { sext: false },
        4,
        0,
        "flat_load_b32 v10, v[2:3]",
    ),
    op(
        [0xdc680004, 0x007c0402],
        Kind::Store,
        4,
        4,
        "flat_store_b32 v[2:3], v4 offset:4",
    ),
    op(
        [0xdcd44000, 0x0a7c0402],
        Kind::AddU32,
        4,
        0,
        "flat_atomic_add_u32 v10, v[2:3], v4 glc",
    ),
];

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
}

/// The sandbox as the ISA rules and the memory model define it: allocations with shadow bytes.
struct Model {
    regions: Vec<(u64, Vec<u8>)>,
}

impl Model {
    fn find(&self, a: u64, n: u64) -> Option<usize> {
        self.regions.iter().position(|(base, bytes)| {
            a >= *base
                && a.checked_add(n)
                    .is_some_and(|e| e <= base + bytes.len() as u64)
        })
    }

    fn read(&self, r: usize, a: u64, n: u64) -> u128 {
        let (base, bytes) = &self.regions[r];
        let o = (a - base) as usize;
        let mut v = [0u8; 16];
        v[..n as usize].copy_from_slice(&bytes[o..o + n as usize]);
        u128::from_le_bytes(v)
    }

    fn write(&mut self, r: usize, a: u64, n: u64, v: u128) {
        let (base, bytes) = &mut self.regions[r];
        let o = (a - *base) as usize;
        bytes[o..o + n as usize].copy_from_slice(&v.to_le_bytes()[..n as usize]);
    }
}

/// How one fuzzed instruction is issued: the alignment mode, EXEC and the wave's lane count.
struct Issue {
    mode: u8,
    exec: u64,
    n_lanes: usize,
}

/// What one instruction must do under the ISA rules: the error of the lowest failing lane
/// (alignment is checked before the allocation), or the effect of every active lane in order.
fn model_step(
    m: &mut Model,
    op: &FuzzOp,
    issue: &Issue,
    addr: &[u64],
    data: &[[u32; 4]],
    out: &mut [[u32; 4]],
) -> Result<(), ExecError> {
    let Issue {
        mode,
        exec,
        n_lanes,
    } = *issue;
    let n = op.size;
    let atomic = matches!(op.kind, Kind::AddU32 | Kind::SwapB64 | Kind::CmpSwapB32);
    let mut plan = Vec::new();
    for (l, &lane_addr) in addr.iter().enumerate().take(n_lanes) {
        if exec >> l & 1 == 0 {
            continue;
        }
        let mut a = lane_addr.wrapping_add(op.offset as u64);
        let small = n.min(4);
        let viol = |why| ExecError::MemViol {
            lane: l as u32,
            addr: a,
            why,
        };
        match mode {
            align_mode::DWORD => a &= !(small - 1),
            align_mode::DWORD_STRICT if !a.is_multiple_of(small) => {
                return Err(viol("misaligned access (DWORD_STRICT alignment mode)"))
            }
            align_mode::STRICT if !a.is_multiple_of(n.next_power_of_two()) => {
                return Err(viol("misaligned access (STRICT alignment mode)"))
            }
            _ => {}
        }
        if atomic && !a.is_multiple_of(n) {
            return Err(ExecError::MemViol {
                lane: l as u32,
                addr: a,
                why: "misaligned atomic",
            });
        }
        let Some(r) = m.find(a, n) else {
            return Err(ExecError::MemoryFault {
                lane: l as u32,
                addr: a,
                size: n as u32,
                kind: op.name.split(' ').next().unwrap_or(""),
            });
        };
        plan.push((l, r, a));
    }
    for (l, r, a) in plan {
        let d = data[l];
        let old = m.read(r, a, n);
        let ret = match op.kind {
            Kind::Load { sext } => {
                let v = match (n, sext) {
                    (1, true) => old as u8 as i8 as i32 as u32 as u128,
                    (2, true) => old as u16 as i16 as i32 as u32 as u128,
                    _ => old,
                };
                Some(v)
            }
            Kind::Store => {
                let v = d[0] as u128
                    | (d[1] as u128) << 32
                    | (d[2] as u128) << 64
                    | (d[3] as u128) << 96;
                m.write(r, a, n, v);
                None
            }
            Kind::AddU32 => {
                m.write(r, a, 4, (old as u32).wrapping_add(d[0]) as u128);
                Some(old)
            }
            Kind::SwapB64 => {
                m.write(r, a, 8, d[0] as u128 | (d[1] as u128) << 32);
                Some(old)
            }
            Kind::CmpSwapB32 => {
                if old as u32 == d[1] {
                    m.write(r, a, 4, d[0] as u128);
                }
                Some(old)
            }
        };
        if let Some(v) = ret {
            let regs = n.div_ceil(4) as usize;
            for (k, o) in out[l].iter_mut().enumerate().take(regs) {
                *o = (v >> (32 * k)) as u32;
            }
        }
    }
    Ok(())
}

#[test]
fn fuzzed_addresses_match_the_sandbox_model() {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let (mut ok, mut faults, mut viols) = (0, 0, 0);
    for w64 in [false, true] {
        let n_lanes = lanes(w64);
        let mut h = Harness::new(w64);
        // A page, a small buffer and an odd-sized one whose host storage is rounded up to 8
        // bytes: the 4 bytes after it exist on the host but must fault.
        let sizes = [4096u64, 256, 20];
        let mut model = Model {
            regions: Vec::new(),
        };
        for &s in &sizes {
            let base = h.mem.alloc(s, 256).unwrap();
            let init: Vec<u8> = (0..s).map(|_| rng.next() as u8).collect();
            h.mem.write(base, &init).unwrap();
            model.regions.push((base, init));
        }
        let (a, b, c) = (model.regions[0].0, model.regions[1].0, model.regions[2].0);
        for iter in 0..3000 {
            let op = &FUZZ_OPS[rng.next() as usize % FUZZ_OPS.len()];
            let mode = (rng.next() % 4) as u8;
            h.cfg.alignment_mode = mode;
            // Half the instructions stay inside the page (mostly succeeding); the rest mix in
            // edges, gaps, the null page and arbitrary 64-bit addresses.
            let tame = rng.next().is_multiple_of(2);
            let shared = a + ((rng.next() % 4096) & !3);
            let addr: Vec<u64> = (0..64)
                .map(|_| {
                    let r = rng.next();
                    let s = rng.next();
                    if tame {
                        return match r % 3 {
                            0 => shared,
                            1 => a + s % 4000,
                            _ => a + (s % 1000) * 4,
                        };
                    }
                    let x = match r % 8 {
                        0 => a + s % 4096,
                        1 => a + 4096 - s % 24,
                        2 => b + s % 272,
                        3 => c + s % 32,
                        4 => shared,
                        5 => s,
                        6 => s % 0x2000,
                        _ => a.wrapping_sub(s % 16 + 1),
                    };
                    // FLAT addresses in the LDS/private apertures would leave global memory.
                    if matches!(x >> 48, 1 | 2) {
                        x ^ 1 << 62
                    } else {
                        x
                    }
                })
                .collect();
            let exec = match rng.next() % 4 {
                0 => u64::MAX,
                1 => 0,
                _ => rng.next(),
            } & if w64 { u64::MAX } else { u32::MAX as u64 };
            let data: Vec<[u32; 4]> = (0..64)
                .map(|_| std::array::from_fn(|_| rng.next() as u32))
                .collect();
            let sentinel = rng.next() as u32;
            set_addr(&mut h, 2, |l| addr[l]);
            // Data in v4..v7, the return registers v10..v13 preset to the sentinel.
            for (k, r) in (4..8).enumerate() {
                h.set_v(r, |l| data[l][k]);
                h.set_v(r + 6, |_| sentinel);
            }
            h.wave.set_exec(exec);
            let mut out = vec![[sentinel; 4]; 64];
            let issue = Issue {
                mode,
                exec,
                n_lanes,
            };
            let want = model_step(&mut model, op, &issue, &addr, &data, &mut out);
            let got = h.run(&op.words);
            let ctx = format!("iter {iter} wave64={w64} {} mode {mode}", op.name);
            match (&want, &got) {
                (Ok(()), Ok(())) => ok += 1,
                (Err(ExecError::MemoryFault { .. }), Err(ExecError::MemoryFault { .. })) => {
                    assert_eq!(want, got, "{ctx}");
                    faults += 1;
                }
                (
                    Err(ExecError::MemViol { lane, addr, .. }),
                    Err(ExecError::MemViol {
                        lane: gl, addr: ga, ..
                    }),
                ) => {
                    assert_eq!((lane, addr), (gl, ga), "{ctx}");
                    viols += 1;
                }
                _ => panic!("{ctx}: model {want:?}, emulator {got:?}"),
            }
            for (l, want_regs) in out.iter().enumerate() {
                for (k, &want_reg) in want_regs.iter().enumerate() {
                    let r = 10 + k;
                    assert_eq!(h.v(r, l), want_reg, "{ctx}: v{r} lane {l}");
                }
            }
            for (base, bytes) in &model.regions {
                assert_eq!(
                    &bytes_of(&h.mem, *base, bytes.len()),
                    bytes,
                    "{ctx}: allocation {base:#x}"
                );
            }
        }
    }
    println!("{ok} ok, {faults} faults, {viols} MEMVIOLs");
    // Every outcome is exercised, not just faults.
    assert!(
        ok > 1000 && faults > 300 && viols > 100,
        "{ok} ok, {faults} faults, {viols} MEMVIOLs"
    );
}

// ---------------------------------------------------------------------------------------------
// MEMVIOL with a trap handler installed

/// `bad` (two words) at 0, then `v_mov_b32 v9, 7` at 8 and s_endpgm at 12; the trap handler at
/// 16 saves TRAPSTS and TTMP0/1 in s10, s20, s21 and returns with s_rfe.
fn trap_program(bad: [u32; 2]) -> Vec<u32> {
    vec![
        bad[0], bad[1], 0x7e120287, // v_mov_b32_e32 v9, 7
        0xbfb00000, // s_endpgm
        // Trap handler (TBA = 16).
        0xb88af803, // s_getreg_b32 s10, hwreg(HW_REG_TRAPSTS)
        0xbe94006c, // s_mov_b32 s20, ttmp0
        0xbe95006d, // s_mov_b32 s21, ttmp1
        0xbe804a6c, // s_rfe_b64 ttmp[0:1]
    ]
}

const TRAP_EN: u32 = 1 << 6;
const PRIV: u32 = 1 << 5;
const TRAPSTS_MEMVIOL: u32 = 1 << 8;

#[test]
fn memory_violations_enter_the_trap_handler_when_one_is_installed() {
    for w64 in [false, true] {
        let n = lanes(w64);
        for case in 0..3 {
            let mut h = Harness::new(w64);
            let buf = h.mem.alloc(256, 256).unwrap();
            let bad = match case {
                // A store with one lane past the buffer (a fault).
                0 => {
                    set_addr(&mut h, 2, |l| buf + if l == 3 { 256 } else { 4 * l as u64 });
                    GLOBAL_STORE_B32
                }
                // A misaligned LDS atomic (MEMVIOL in every alignment mode).
                1 => {
                    h.set_v(1, |l| if l == n - 1 { 6 } else { 8 });
                    DS_ADD_U32
                }
                // An SMEM load from the null page.
                _ => [0xf4000280, 0xf8000000], // s_load_b32 s10, s[0:1], 0x0
            };
            h.set_v(4, |_| 5);
            h.wave.tba = 16;
            h.wave.hw.status |= TRAP_EN;
            h.run(&trap_program(bad))
                .unwrap_or_else(|e| panic!("case {case} wave64={w64}: {e}"));
            assert_ne!(
                h.s(10) & TRAPSTS_MEMVIOL,
                0,
                "case {case}: TRAPSTS.MEM_VIOL"
            );
            // TTMP0/1 = PC of the instruction after the faulting one, trapID 0, HT 0.
            assert_eq!((h.s(20), h.s(21)), (8, 0), "case {case}");
            // s_rfe resumed there, out of the handler.
            assert!((0..n).all(|l| h.v(9, l) == 7), "case {case}");
            assert_eq!(h.wave.hw.status & PRIV, 0);
            // The faulting instruction did nothing.
            assert!(bytes_of(&h.mem, buf, 256).iter().all(|&b| b == 0));
            assert!(h.lds.iter().all(|&b| b == 0));
        }
    }
}

#[test]
fn memory_violations_without_a_handler_or_inside_it_end_the_dispatch() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.set_v(1, |_| 6);
        h.wave.tba = 16;
        // No handler (TRAP_EN = 0): the error ends the run, TRAPSTS is untouched.
        assert!(matches!(
            h.run(&trap_program(DS_ADD_U32)),
            Err(ExecError::MemViol {
                lane: 0,
                addr: 6,
                ..
            })
        ));
        assert_eq!(h.wave.hw.trapsts, 0);
        // Inside the handler (PRIV) a memory violation cannot trap again.
        h.wave.hw.status |= TRAP_EN | PRIV;
        assert!(matches!(
            h.run(&trap_program(DS_ADD_U32)),
            Err(ExecError::MemViol { .. })
        ));
        // Other errors never go to the handler.
        h.wave.hw.status &= !PRIV;
        // s_sethalt 1; s_nop 0: the wave halts, which only the host can undo.
        assert!(matches!(
            h.run(&trap_program([0xbf820001, 0xbf800000])),
            Err(ExecError::Other(_))
        ));
        assert_eq!(h.wave.hw.trapsts, 0);
    }
}
