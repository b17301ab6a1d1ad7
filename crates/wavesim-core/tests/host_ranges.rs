//! `DeviceMemory::host_ranges`: host-pointer mode limited to the ranges a caller mapped.

use wavesim_core::memory::{DeviceMemory, MemError};

#[test]
fn accesses_inside_the_ranges_reach_host_memory_and_others_are_errors() {
    let mut a = vec![0u64; 8]; // 64 bytes
    let mut b = vec![0u64; 4]; // 32 bytes
    let (pa, pb) = (a.as_mut_ptr() as u64, b.as_mut_ptr() as u64);
    // `a` as two touching halves given in reverse order and overlapping, plus `b`, plus an
    // empty range that must be ignored.
    let ranges = [(pa + 32, 32), (pa, 40), (pb, 32), (0x1000, 0)];
    // SAFETY: the ranges are live vectors of this test, not otherwise accessed during the use.
    let m = unsafe { DeviceMemory::host_ranges(&ranges) }.unwrap();
    assert!(m.is_host());
    assert_eq!(
        m.regions().len(),
        2,
        "touching and overlapping ranges merged"
    );
    m.write_u64(pa + 56, 0x1122_3344_5566_7788).unwrap();
    m.write(pa + 28, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap(); // spans the two given halves
    m.write_u32(pb + 28, 0xdead_beef).unwrap();
    assert_eq!(m.read_u32(pb + 28).unwrap(), 0xdead_beef);
    let err = |addr, size| Err(MemError::OutOfBounds { addr, size });
    assert_eq!(
        m.read_u32(pb + 30),
        err(pb + 30, 4),
        "straddles the end of b"
    );
    assert_eq!(m.read_u32(pa + 64), err(pa + 64, 4), "just past a");
    assert_eq!(
        m.read_u32(0x1000),
        err(0x1000, 4),
        "the empty range maps nothing"
    );
    assert_eq!(m.read_u32(8), err(8, 4));
    drop(m);
    assert_eq!(a[7], 0x1122_3344_5566_7788);
    assert_eq!(a[3].to_le_bytes()[4..], [1, 2, 3, 4]);
    assert_eq!(a[4].to_le_bytes()[..4], [5, 6, 7, 8]);
    assert_eq!(b[3] >> 32, 0xdead_beef);
}

#[test]
fn nothing_can_be_allocated_and_overflowing_ranges_are_refused() {
    let mut a = vec![0u64; 2];
    // SAFETY: a live vector of this test.
    let mut m = unsafe { DeviceMemory::host_ranges(&[(a.as_mut_ptr() as u64, 16)]) }.unwrap();
    assert!(matches!(
        m.alloc(64, 256),
        Err(MemError::AllocFailed { .. })
    ));
    // SAFETY: never accessed (refused).
    let e = unsafe { DeviceMemory::host_ranges(&[(u64::MAX - 4, 8)]) }.unwrap_err();
    assert_eq!(
        e,
        MemError::OutOfBounds {
            addr: u64::MAX - 4,
            size: 8
        }
    );
    // SAFETY: no range, nothing reachable.
    let none = unsafe { DeviceMemory::host_ranges(&[]) }.unwrap();
    assert!(none.read_u32(a.as_ptr() as u64).is_err());
}
