//! Device memory: one memfd holds every buffer object's bytes; the application's CPU mapping
//! (`GEM_MMAP` + `mmap`) and the device's view (`GEM_VA` map) are two `MAP_SHARED` mappings of
//! the same memfd pages, so both see every byte the other writes with no copies.
//!
//! The device view is placed at the host address equal to the device virtual address
//! (`MAP_FIXED_NOREPLACE`): shader code, descriptors and buffer addresses that RADV computes
//! from VAs are then valid host addresses, and kernels run through `hsa::raw`'s host-range
//! mode: the dispatch gets exactly the VA-mapped ranges, and any access outside them is a typed
//! error naming the lane and address (the emulator's sandbox; a GPU would page-fault).

use std::collections::BTreeMap;
use thiserror::Error;

use crate::real;

/// The memfd's size: sparse, pages exist only once written.
const MEMFD_BYTES: u64 = 1 << 40;

#[derive(Debug, Error)]
pub enum MemoryError {
    #[error("memfd_create failed: errno {0}")]
    Memfd(i32),
    #[error("out of device memory: {0} bytes requested")]
    Exhausted(u64),
    #[error("VA {va:#x}+{len:#x}: the host range is already in use (errno {errno}); the device address range overlaps host memory")]
    HostBusy { va: u64, len: u64, errno: i32 },
    #[error("VA {va:#x}+{len:#x} is not page-aligned")]
    Unaligned { va: u64, len: u64 },
    #[error("VA {va:#x}+{len:#x} overlaps an existing mapping")]
    Overlap { va: u64, len: u64 },
    #[error("VA {va:#x} is not mapped")]
    NotMapped { va: u64 },
    #[error("device address {va:#x}+{len:#x} is not mapped (GPU page fault)")]
    Fault { va: u64, len: u64 },
}

/// One device-side mapping: `len` bytes at VA `va` showing the memfd from `file_off`.
#[derive(Clone, Copy, Debug)]
pub struct VaMapping {
    pub len: u64,
    pub file_off: u64,
    pub handle: u32,
    pub file: u32,
}

#[derive(Debug)]
pub struct Memory {
    memfd: i32,
    next: u64,
    maps: BTreeMap<u64, VaMapping>,
}

impl Memory {
    pub fn new() -> Result<Memory, MemoryError> {
        // SAFETY: plain system calls with a valid NUL-terminated name.
        let fd = unsafe { libc::memfd_create(c"wavesim-amdgpu-vram".as_ptr(), libc::MFD_CLOEXEC) };
        if fd < 0 {
            return Err(MemoryError::Memfd(errno()));
        }
        // SAFETY: fd is ours.
        if unsafe { libc::ftruncate(fd, MEMFD_BYTES as i64) } != 0 {
            return Err(MemoryError::Memfd(errno()));
        }
        Ok(Memory {
            memfd: fd,
            next: 0,
            maps: BTreeMap::new(),
        })
    }

    pub fn memfd(&self) -> i32 {
        self.memfd
    }

    /// Reserves `size` bytes (page-granular) of the memfd for a new buffer object; the bytes
    /// read as zero (fresh tmpfs pages), as the kernel clears new BOs.
    pub fn alloc(&mut self, size: u64, align: u64) -> Result<u64, MemoryError> {
        let align = align.max(4096).next_power_of_two();
        let off = self
            .next
            .checked_next_multiple_of(align)
            .ok_or(MemoryError::Exhausted(size))?;
        let len = size.max(1).next_multiple_of(4096);
        let end = off.checked_add(len).ok_or(MemoryError::Exhausted(size))?;
        if end > MEMFD_BYTES {
            return Err(MemoryError::Exhausted(size));
        }
        self.next = end;
        Ok(off)
    }

    /// Returns a freed BO's pages to the system. Not done while the application may still
    /// hold a CPU mapping of it (the kernel keeps such BOs alive), so callers only free BOs
    /// that were never CPU-mapped.
    pub fn release(&mut self, file_off: u64, size: u64) {
        let len = size.max(1).next_multiple_of(4096);
        // SAFETY: punching a hole in our own memfd; failure only keeps the pages.
        unsafe {
            libc::fallocate(
                self.memfd,
                libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE,
                file_off as i64,
                len as i64,
            );
        }
    }

    /// Maps `m.len` bytes of the memfd at host address `va` (device view).
    /// The view is always readable and writable: page permissions of the GPU VM
    /// (AMDGPU_VM_PAGE_READABLE/WRITEABLE) are not enforced.
    pub fn map(&mut self, va: u64, m: VaMapping) -> Result<(), MemoryError> {
        let len = m.len;
        if !va.is_multiple_of(4096) || !len.is_multiple_of(4096) || len == 0 {
            return Err(MemoryError::Unaligned { va, len });
        }
        if self.overlaps(va, len) {
            return Err(MemoryError::Overlap { va, len });
        }
        let prot = libc::PROT_READ | libc::PROT_WRITE;
        // SAFETY: MAP_FIXED_NOREPLACE never replaces an existing host mapping; it fails instead.
        let p = unsafe {
            real::mmap(
                va as *mut libc::c_void,
                len as usize,
                prot,
                libc::MAP_SHARED | libc::MAP_FIXED_NOREPLACE,
                self.memfd,
                m.file_off as i64,
            )
        };
        if p == libc::MAP_FAILED || p as u64 != va {
            let e = errno();
            if p != libc::MAP_FAILED {
                // An old kernel treated the flag as a hint and mapped elsewhere: undo.
                // SAFETY: p is the mapping just made.
                unsafe { libc::munmap(p, len as usize) };
            }
            return Err(MemoryError::HostBusy { va, len, errno: e });
        }
        self.maps.insert(va, m);
        Ok(())
    }

    pub fn unmap(&mut self, va: u64) -> Result<VaMapping, MemoryError> {
        let m = self.maps.remove(&va).ok_or(MemoryError::NotMapped { va })?;
        // SAFETY: the range is the device view this module mapped.
        unsafe { libc::munmap(va as *mut libc::c_void, m.len as usize) };
        Ok(m)
    }

    /// Every mapping of `file` overlapping [va, va+len) (AMDGPU_VA_OP_CLEAR), or of `handle`.
    pub fn mappings_where(&self, f: impl Fn(u64, &VaMapping) -> bool) -> Vec<u64> {
        self.maps
            .iter()
            .filter(|(va, m)| f(**va, m))
            .map(|(va, _)| *va)
            .collect()
    }

    fn overlaps(&self, va: u64, len: u64) -> bool {
        let end = va + len;
        self.maps
            .range(..end)
            .next_back()
            .is_some_and(|(&b, m)| b + m.len > va)
    }

    /// The device ranges `(address, bytes)` of every mapping, for the dispatch's sandbox.
    pub fn ranges(&self) -> Vec<(u64, u64)> {
        self.maps.iter().map(|(&va, m)| (va, m.len)).collect()
    }

    /// Checks that [va, va+len) lies inside one mapping (merged neighbours count).
    pub fn check(&self, va: u64, len: u64) -> Result<(), MemoryError> {
        let mut at = va;
        let end = va.checked_add(len).ok_or(MemoryError::Fault { va, len })?;
        while at < end {
            match self.maps.range(..=at).next_back() {
                Some((&b, m)) if b + m.len > at => at = b + m.len,
                _ => return Err(MemoryError::Fault { va, len }),
            }
        }
        Ok(())
    }
}

/// The device address space the packets and waves see.
pub trait GpuMemory {
    fn read(&self, va: u64, out: &mut [u8]) -> Result<(), MemoryError>;
    fn write(&self, va: u64, data: &[u8]) -> Result<(), MemoryError>;
    /// Every mapped range `(address, bytes)`: the dispatch's sandbox.
    fn ranges(&self) -> Vec<(u64, u64)>;
    /// The host bytes from `va` to the end of its mapping (shader code).
    fn host_slice(&self, va: u64) -> Result<&[u8], MemoryError>;
}

impl GpuMemory for Memory {
    fn read(&self, va: u64, out: &mut [u8]) -> Result<(), MemoryError> {
        self.check(va, out.len() as u64)?;
        // SAFETY: checked: the range is our device view mapping, readable host memory.
        unsafe { std::ptr::copy(va as *const u8, out.as_mut_ptr(), out.len()) };
        Ok(())
    }
    fn write(&self, va: u64, data: &[u8]) -> Result<(), MemoryError> {
        self.check(va, data.len() as u64)?;
        // SAFETY: checked: the range is our device view mapping, mapped writable.
        unsafe { std::ptr::copy(data.as_ptr(), va as *mut u8, data.len()) };
        Ok(())
    }
    fn ranges(&self) -> Vec<(u64, u64)> {
        Memory::ranges(self)
    }
    fn host_slice(&self, va: u64) -> Result<&[u8], MemoryError> {
        let (&b, m) = self
            .maps
            .range(..=va)
            .next_back()
            .filter(|(&b, m)| b + m.len > va)
            .ok_or(MemoryError::Fault { va, len: 4 })?;
        // SAFETY: [va, b+len) is inside our live device view mapping.
        Ok(unsafe { std::slice::from_raw_parts(va as *const u8, (b + m.len - va) as usize) })
    }
}

pub fn errno() -> i32 {
    std::io::Error::last_os_error()
        .raw_os_error()
        .unwrap_or(libc::EIO)
}
