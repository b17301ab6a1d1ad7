//! DeviceMemory: allocation, bounds, unaligned access, ISA atomic semantics, thread safety.

use wavesim_core::memory::*;

#[test]
fn alloc_is_aligned_zeroed_and_outside_apertures() {
    let mut m = DeviceMemory::new();
    let a = m.alloc(100, 0).unwrap();
    let b = m.alloc(10, 4096).unwrap();
    assert!(a >= DEVICE_BASE && a.is_multiple_of(256));
    assert!(b.is_multiple_of(4096) && b >= a + 100 + GUARD_GAP);
    assert!(b + 10 < 0x0001_0000_0000_0000);
    let mut buf = [0xffu8; 100];
    m.read(a, &mut buf).unwrap();
    assert!(buf.iter().all(|&x| x == 0));
    assert!(m.alloc(8, 3).is_err(), "non power-of-two alignment");
}

#[test]
fn accesses_must_be_inside_one_allocation() {
    let mut m = DeviceMemory::new();
    let a = m.alloc(16, 0).unwrap();
    assert!(m.write_u32(a + 12, 1).is_ok());
    // Straddling the end, entirely past it, before the start, and null.
    assert_eq!(
        m.write_u32(a + 13, 1),
        Err(MemError::OutOfBounds {
            addr: a + 13,
            size: 4
        })
    );
    assert!(m.read_u64(a + 16).is_err());
    assert!(m.read_u32(a - 4).is_err());
    assert!(m.read_u32(0).is_err());
    assert!(m.atomic32(a + 16, AtomicOp::Add, 1, 0).is_err());
    // After free the range faults and a second free is an error.
    m.free(a).unwrap();
    assert!(m.read_u32(a).is_err());
    assert_eq!(m.free(a), Err(MemError::BadFree { addr: a }));
}

#[test]
fn unaligned_and_bulk_access_is_little_endian() {
    let mut m = DeviceMemory::new();
    let a = m.alloc(64, 0).unwrap();
    m.write_u32(a + 1, 0x4433_2211).unwrap();
    m.write_u64(a + 11, 0x8877_6655_4433_2211).unwrap();
    let mut b = [0u8; 24];
    m.read(a, &mut b).unwrap();
    assert_eq!(&b[0..6], &[0, 0x11, 0x22, 0x33, 0x44, 0]);
    assert_eq!(
        &b[11..19],
        &[0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88]
    );
    assert_eq!(m.read_u32(a + 2).unwrap(), 0x0044_3322);
    m.fill(a + 3, 0xab, 30).unwrap();
    assert_eq!(m.read_u32(a).unwrap(), 0xab22_1100);
    assert_eq!(m.read_u64(a + 8).unwrap(), 0xabab_abab_abab_abab);
    assert_eq!(m.read_u32(a + 32).unwrap(), 0x0000_00ab);
}

#[test]
fn atomic_semantics_follow_the_isa() {
    use AtomicOp::*;
    // inc wraps to 0 once MEM >= src; dec wraps to src at 0 or when MEM > src.
    assert_eq!(apply32(Inc, 4, 5, 0), 5);
    assert_eq!(apply32(Inc, 5, 5, 0), 0);
    assert_eq!(apply32(Inc, 9, 5, 0), 0);
    assert_eq!(apply32(Dec, 0, 7, 0), 7);
    assert_eq!(apply32(Dec, 8, 7, 0), 7);
    assert_eq!(apply32(Dec, 3, 7, 0), 2);
    assert_eq!(apply32(CSub, 3, 5, 0), 0);
    assert_eq!(apply32(CSub, 9, 5, 0), 4);
    assert_eq!(apply32(Rsub, 3, 10, 0), 7);
    assert_eq!(
        apply32(MskOr, 0xff00_ff00, 0x0000_ffff, 0x1234),
        0xff00_1234
    );
    assert_eq!(apply32(Wrap, 10, 4, 100), 6);
    assert_eq!(apply32(Wrap, 3, 4, 100), 103);
    assert_eq!(apply32(MinI, (-5i32) as u32, 3, 0), (-5i32) as u32);
    assert_eq!(apply32(MinU, (-5i32) as u32, 3, 0), 3);
    assert_eq!(apply32(CmpSwap, 7, 1, 7), 1);
    assert_eq!(apply32(CmpSwap, 7, 1, 8), 7);
    // Float compare-swap: -0 == +0; NaN never compares equal.
    assert_eq!(apply32(CmpSwapF, 0x8000_0000, 5, 0), 5);
    assert_eq!(apply32(CmpSwapF, 0x7fc0_0000, 5, 0x7fc0_0000), 0x7fc0_0000);
    // Float min/max: a NaN operand yields the other value.
    let one = 1.0f32.to_bits();
    let two = 2.0f32.to_bits();
    let nan = f32::NAN.to_bits();
    assert_eq!(apply32(MinF, two, one, 0), one);
    assert_eq!(apply32(MaxF, two, one, 0), two);
    assert_eq!(apply32(MinF, nan, one, 0), one);
    assert_eq!(apply32(MinF, one, nan, 0), one);
    assert_eq!(apply32(AddF, one, two, 0), 3.0f32.to_bits());
    assert_eq!(apply64(Inc, u64::MAX - 1, u64::MAX, 0), u64::MAX);
    assert_eq!(apply64(Dec, 0, 1 << 40, 0), 1 << 40);
    assert_eq!(
        apply64(MaxF, 1.5f64.to_bits(), 2.5f64.to_bits(), 0),
        2.5f64.to_bits()
    );
}

#[test]
fn atomics_return_the_old_value_and_need_alignment() {
    let mut m = DeviceMemory::new();
    let a = m.alloc(16, 0).unwrap();
    m.write_u32(a, 10).unwrap();
    assert_eq!(m.atomic32(a, AtomicOp::Add, 5, 0), Ok(10));
    assert_eq!(m.atomic32(a, AtomicOp::Inc, 15, 0), Ok(15));
    assert_eq!(m.read_u32(a).unwrap(), 0);
    assert_eq!(
        m.atomic32(a + 2, AtomicOp::Add, 1, 0),
        Err(MemError::Misaligned {
            addr: a + 2,
            size: 4
        })
    );
    m.write_u64(a + 8, 1 << 33).unwrap();
    assert_eq!(
        m.atomic64(a + 8, AtomicOp::CmpSwap, 9, 1 << 33),
        Ok(1 << 33)
    );
    assert_eq!(m.read_u64(a + 8).unwrap(), 9);
    assert!(m.atomic64(a + 4, AtomicOp::Add, 1, 0).is_err());
}

#[test]
fn atomics_are_atomic_across_threads() {
    let mut m = DeviceMemory::new();
    let a = m.alloc(16, 0).unwrap();
    let m = &m;
    std::thread::scope(|s| {
        for t in 0..4u32 {
            s.spawn(move || {
                for i in 0..10_000u32 {
                    m.atomic32(a, AtomicOp::Add, 1, 0).unwrap();
                    m.atomic32(a + 4, AtomicOp::AddF, 1.0f32.to_bits(), 0)
                        .unwrap();
                    m.atomic32(a + 8, AtomicOp::MaxU, t * 10_000 + i, 0)
                        .unwrap();
                }
            });
        }
    });
    assert_eq!(m.read_u32(a).unwrap(), 40_000);
    assert_eq!(f32::from_bits(m.read_u32(a + 4).unwrap()), 40_000.0);
    assert_eq!(m.read_u32(a + 8).unwrap(), 39_999);
}

#[test]
fn random_addresses_never_escape_the_sandbox() {
    let mut m = DeviceMemory::new();
    let bufs: Vec<u64> = (0..8).map(|k| m.alloc(1000 + k * 37, 0).unwrap()).collect();
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut hits = 0;
    for _ in 0..200_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        // Mix fully random addresses with ones near the allocations' edges.
        let addr = if x & 1 == 0 {
            x
        } else {
            bufs[(x >> 8) as usize % bufs.len()]
                .wrapping_add((x >> 20) % 2200)
                .wrapping_sub(100)
        };
        let inside = m.regions().iter().any(|r| r.contains(addr, 4));
        let res = m.write_u32(addr, 1);
        assert_eq!(res.is_ok(), inside, "addr {addr:#x}");
        assert_eq!(m.read_u32(addr).is_ok(), inside);
        hits += inside as u32;
    }
    assert!(hits > 1000);
}

#[test]
fn host_mode_uses_host_addresses() {
    // Mutable and exposed through a `*mut`: the memory writes through the host address, which an
    // immutable local would make undefined behaviour (release builds folded `data[1]` to 0).
    let mut data = [0u32; 4];
    let addr = data.as_mut_ptr().expose_provenance() as u64;
    // SAFETY: `data` outlives `m` and is only accessed through `m` meanwhile.
    let m = unsafe { DeviceMemory::host() };
    m.write_u32(addr + 4, 7).unwrap();
    assert_eq!(m.atomic32(addr + 4, AtomicOp::Add, 3, 0), Ok(7));
    assert_eq!(m.read_u32(addr + 4).unwrap(), 10);
    drop(m);
    assert_eq!(data[1], 10);
}

#[test]
fn dword_lanes_check_every_active_lane_before_any_access() {
    let mut m = DeviceMemory::new();
    let a = m.alloc(64, 0).unwrap();
    for k in 0..16u32 {
        m.write_u32(a + 4 * k as u64, 100 + k).unwrap();
    }
    let r = m.find(a, 64).unwrap();
    // Lanes read dwords 3, 0, 15 (the span's ends) and 7; with offset 4, dwords 4, 1, 16 (past
    // the end) and 8.
    let addrs = [a + 12, a, a + 60, a + 28];
    let mut out = [0u32; 4];
    assert!(r.load_u32_lanes(&addrs, 0b1111, 0, &mut out));
    assert_eq!(out, [103, 100, 115, 107]);
    // Inactive lanes are neither checked nor written: lane 2 is past the end at offset 4.
    let mut out = [7u32; 4];
    assert!(r.load_u32_lanes(&addrs, 0b1011, 4, &mut out));
    assert_eq!(out, [104, 101, 7, 108]);
    let mut out = [7u32; 4];
    assert!(!r.load_u32_lanes(&addrs, 0b1111, 4, &mut out));
    assert_eq!(out, [7; 4], "nothing loaded when a lane fails");
    // A misaligned lane or offset fails; no active lane succeeds without access.
    assert!(!r.load_u32_lanes(&[a, a + 2], 0b11, 0, &mut out));
    assert!(!r.load_u32_lanes(&addrs, 0b1, 2, &mut out));
    assert!(r.load_u32_lanes(&[u64::MAX - 3, 0], 0, 0, &mut out));
    // An address whose offset wraps past 2^64 is never in the region.
    assert!(!r.load_u32_lanes(&[a, u64::MAX - 3], 0b11, 4, &mut out));
    // Stores: all or nothing.
    assert!(!r.store_u32_lanes(&addrs, 0b1111, 4, &[1, 2, 3, 4]));
    assert_eq!(m.read_u32(a + 16).unwrap(), 104);
    assert!(r.store_u32_lanes(&addrs, 0b0101, 0, &[1, 2, 3, 4]));
    assert_eq!(m.read_u32(a + 12).unwrap(), 1);
    assert_eq!(m.read_u32(a + 60).unwrap(), 3);
    assert_eq!(m.read_u32(a).unwrap(), 100, "lane 1 inactive");
}

#[test]
fn host_copies_cover_every_head_word_and_tail_split() {
    let mut m = DeviceMemory::new();
    let a = m.alloc(64, 0).unwrap();
    let mut model = [0u8; 64];
    // Every start offset 0..9 and length 0..30: bytes before the first aligned word, words,
    // and bytes after the last one.
    for start in 0..9usize {
        for len in 0..30usize {
            let data: Vec<u8> = (0..len).map(|i| (start * 31 + len * 7 + i) as u8).collect();
            m.write(a + start as u64, &data).unwrap();
            model[start..start + len].copy_from_slice(&data);
            let mut all = [0u8; 64];
            m.read(a, &mut all).unwrap();
            assert_eq!(all, model, "write at {start} len {len}");
            let mut part = vec![0u8; len];
            m.read(a + start as u64, &mut part).unwrap();
            assert_eq!(part, data);
        }
    }
    m.fill(a + 5, 0xa5, 40).unwrap();
    model[5..45].fill(0xa5);
    let mut all = [0u8; 64];
    m.read(a, &mut all).unwrap();
    assert_eq!(all, model);
    // A range past the end is an error and writes nothing.
    assert!(m.write(a + 60, &[1; 8]).is_err());
    assert!(m.fill(a + 1, 0, 64).is_err());
    m.read(a, &mut all).unwrap();
    assert_eq!(all, model);
}
