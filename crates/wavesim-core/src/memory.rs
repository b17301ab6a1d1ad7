//! Emulated device memory: a sandboxed 64-bit address space made of allocations.
//!
//! # Design
//! - **Address space.** Allocations get device addresses from [`DEVICE_BASE`] upwards, each followed
//!   by an unmapped guard gap, and never reach [`DEVICE_LIMIT`], so they stay clear of the LDS and
//!   private apertures that flat addressing reserves (`0x0001_0000_0000_0000..`,
//!   `0x0002_0000_0000_0000..`). An access is valid only if it lies entirely inside one allocation;
//!   anything else is a [`MemError`]. Guest code therefore can never reach host memory.
//! - **Translation.** `regions` is sorted by base and is fixed while a dispatch runs (allocation
//!   and freeing take `&mut self`), so the read/write path takes no lock: a binary search finds the
//!   [`Region`], and executors keep the last region they hit and try it first (one bounds check and
//!   an offset when all lanes of a wave hit one buffer).
//! - **Storage and concurrency.** Workgroups run on several host threads and share this memory, so
//!   every access to the emulated bytes is an atomic operation (`Relaxed` loads and stores, which
//!   compile to plain moves on x86-64 and AArch64): concurrent plain reads and writes are sound Rust
//!   and behave like the hardware (no tearing within an aligned word). Each allocation is backed by
//!   a `Box<[AtomicU64]>`, so host storage is 8-byte aligned and, since allocations are at least
//!   8-byte aligned in device space, a device address aligned to N (N <= 8) is host-aligned to N.
//!   Aligned accesses use `AtomicU16/32/64::from_ptr`; unaligned ones are split into byte atomics.
//!   Read-modify-write atomics are real host atomics (native `fetch_*` where the ISA operation has
//!   one, a compare-exchange loop otherwise), so parallel workgroups get the hardware's results.
//! - **Host mode.** [`DeviceMemory::host`] makes device addresses host addresses (identity
//!   mapping) for the C ABI's raw-pointer entry points. It is `unsafe` by design and never the
//!   default; the same instruction code runs on both because the difference is confined to
//!   translation (one region covering the whole address space).

use std::sync::atomic::Ordering::Relaxed;
use std::sync::atomic::{AtomicI32, AtomicI64, AtomicU16, AtomicU32, AtomicU64, AtomicU8};
use thiserror::Error;

/// First device address handed out by [`DeviceMemory::alloc`] (address 0 and the low pages stay
/// unmapped so null-pointer dereferences fault).
pub const DEVICE_BASE: u64 = 0x1000_0000;
/// Allocations end below this address (well under the flat apertures at `1 << 48`).
pub const DEVICE_LIMIT: u64 = 0x0000_8000_0000_0000;
/// Unmapped bytes left after every allocation so small overruns fault instead of silently hitting
/// the next buffer.
pub const GUARD_GAP: u64 = 0x1000;

/// A memory access that cannot be performed.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum MemError {
    /// The access is not entirely inside one allocation.
    #[error("access of {size} bytes at {addr:#x} is outside every allocation")]
    OutOfBounds { addr: u64, size: u64 },
    /// An atomic access whose address is not a multiple of its size.
    #[error("misaligned {size}-byte atomic at {addr:#x}")]
    Misaligned { addr: u64, size: u64 },
    /// `alloc` could not place the allocation.
    #[error("cannot allocate {size} bytes aligned to {align}")]
    AllocFailed { size: u64, align: u64 },
    /// `free` of an address that is not the start of an allocation.
    #[error("{addr:#x} is not the start of an allocation")]
    BadFree { addr: u64 },
}

/// A read-modify-write operation, with the ISA's semantics (RDNA3 ISA, DS and FLAT atomics).
/// `src` is DATA, `cmp` is DATA2 (the compare value of cmpswap, the new bits of mskor, the
/// addend of wrap).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum AtomicOp {
    Add,
    Sub,
    /// `DATA - MEM`.
    Rsub,
    MinI,
    MaxI,
    MinU,
    MaxU,
    And,
    Or,
    Xor,
    /// Swap (store-exchange).
    Xchg,
    /// `MEM == cmp ? src : MEM` (integer compare).
    CmpSwap,
    /// `MEM >= src ? 0 : MEM + 1`.
    Inc,
    /// `(MEM == 0 || MEM > src) ? src : MEM - 1`.
    Dec,
    /// Clamped subtract: `MEM < src ? 0 : MEM - src`.
    CSub,
    /// `(MEM & !src) | cmp`.
    MskOr,
    /// `MEM >= src ? MEM - src : MEM + cmp` (ds_wrap_rtn_b32).
    Wrap,
    /// Float add (f32 or f64 by access size).
    AddF,
    /// Float minimum / maximum (IEEE minNum/maxNum: a NaN operand yields the other one).
    MinF,
    MaxF,
    /// `MEM == cmp ? src : MEM` with a float compare (-0 == +0, NaN never equal).
    CmpSwapF,
}

/// The new 32-bit memory value of `op` applied to `old` (pure ISA semantics).
#[inline]
pub fn apply32(op: AtomicOp, old: u32, src: u32, cmp: u32) -> u32 {
    use AtomicOp::*;
    match op {
        Add => old.wrapping_add(src),
        Sub => old.wrapping_sub(src),
        Rsub => src.wrapping_sub(old),
        MinI => (old as i32).min(src as i32) as u32,
        MaxI => (old as i32).max(src as i32) as u32,
        MinU => old.min(src),
        MaxU => old.max(src),
        And => old & src,
        Or => old | src,
        Xor => old ^ src,
        Xchg => src,
        CmpSwap => {
            if old == cmp {
                src
            } else {
                old
            }
        }
        Inc => {
            if old >= src {
                0
            } else {
                old + 1
            }
        }
        Dec => {
            if old == 0 || old > src {
                src
            } else {
                old - 1
            }
        }
        CSub => old.saturating_sub(src),
        MskOr => (old & !src) | cmp,
        Wrap => {
            if old >= src {
                old - src
            } else {
                old.wrapping_add(cmp)
            }
        }
        AddF => (f32::from_bits(old) + f32::from_bits(src)).to_bits(),
        MinF => fmin32(old, src),
        MaxF => fmax32(old, src),
        CmpSwapF => {
            if f32::from_bits(old) == f32::from_bits(cmp) {
                src
            } else {
                old
            }
        }
    }
}

/// The new 64-bit memory value of `op` applied to `old`.
#[inline]
pub fn apply64(op: AtomicOp, old: u64, src: u64, cmp: u64) -> u64 {
    use AtomicOp::*;
    match op {
        Add => old.wrapping_add(src),
        Sub => old.wrapping_sub(src),
        Rsub => src.wrapping_sub(old),
        MinI => (old as i64).min(src as i64) as u64,
        MaxI => (old as i64).max(src as i64) as u64,
        MinU => old.min(src),
        MaxU => old.max(src),
        And => old & src,
        Or => old | src,
        Xor => old ^ src,
        Xchg => src,
        CmpSwap => {
            if old == cmp {
                src
            } else {
                old
            }
        }
        Inc => {
            if old >= src {
                0
            } else {
                old + 1
            }
        }
        Dec => {
            if old == 0 || old > src {
                src
            } else {
                old - 1
            }
        }
        CSub => old.saturating_sub(src),
        MskOr => (old & !src) | cmp,
        Wrap => {
            if old >= src {
                old - src
            } else {
                old.wrapping_add(cmp)
            }
        }
        AddF => (f64::from_bits(old) + f64::from_bits(src)).to_bits(),
        MinF => fmin64(old, src),
        MaxF => fmax64(old, src),
        CmpSwapF => {
            if f64::from_bits(old) == f64::from_bits(cmp) {
                src
            } else {
                old
            }
        }
    }
}

// ISA: `MEM = src < tmp ? src : tmp` with a compare that "handles NaN": LLVM maps atomicrmw
// fmin/fmax (minnum/maxnum semantics) onto these instructions, so a NaN operand yields the other.
#[inline]
fn fmin32(old: u32, src: u32) -> u32 {
    let (o, s) = (f32::from_bits(old), f32::from_bits(src));
    if o.is_nan() || s < o {
        src
    } else {
        old
    }
}

#[inline]
fn fmax32(old: u32, src: u32) -> u32 {
    let (o, s) = (f32::from_bits(old), f32::from_bits(src));
    if o.is_nan() || s > o {
        src
    } else {
        old
    }
}

#[inline]
fn fmin64(old: u64, src: u64) -> u64 {
    let (o, s) = (f64::from_bits(old), f64::from_bits(src));
    if o.is_nan() || s < o {
        src
    } else {
        old
    }
}

#[inline]
fn fmax64(old: u64, src: u64) -> u64 {
    let (o, s) = (f64::from_bits(old), f64::from_bits(src));
    if o.is_nan() || s > o {
        src
    } else {
        old
    }
}

/// One allocation: device range `[base, base + len)` backed by host bytes at `ptr`.
#[derive(Debug)]
pub struct Region {
    base: u64,
    len: u64,
    ptr: *mut u8,
    /// Owns the storage `ptr` points into (None in host mode: the caller owns the memory).
    _store: Option<Box<[AtomicU64]>>,
}

// SAFETY: the bytes behind `ptr` are only ever accessed through atomic operations (see the module
// documentation), so sharing a Region between threads cannot cause a data race.
unsafe impl Send for Region {}
unsafe impl Sync for Region {}

impl Region {
    /// Device address of the first byte.
    #[inline]
    pub fn base(&self) -> u64 {
        self.base
    }

    /// Size in bytes.
    #[inline]
    pub fn len(&self) -> u64 {
        self.len
    }

    #[inline]
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// True if `[addr, addr + n)` lies inside this region.
    #[inline]
    pub fn contains(&self, addr: u64, n: u64) -> bool {
        let off = addr.wrapping_sub(self.base);
        off < self.len && n <= self.len - off
    }

    /// Host pointer of device address `addr` (caller checked `contains`).
    #[inline]
    fn at(&self, addr: u64) -> *mut u8 {
        if self.ptr.is_null() {
            // Host mode: the device address is a host address the C ABI caller exposed.
            return std::ptr::with_exposed_provenance_mut(addr as usize);
        }
        self.ptr.wrapping_add(addr.wrapping_sub(self.base) as usize)
    }

    #[inline]
    fn byte(&self, addr: u64) -> &AtomicU8 {
        // SAFETY: addr is inside the region (checked by every caller); AtomicU8 has alignment 1.
        unsafe { AtomicU8::from_ptr(self.at(addr)) }
    }

    /// Loads `N` bytes at `addr` (little-endian), or None if they are not all inside the region.
    #[inline]
    pub fn load<const N: usize>(&self, addr: u64) -> Option<[u8; N]> {
        if !self.contains(addr, N as u64) {
            return None;
        }
        let p = self.at(addr);
        // SAFETY (all arms): in bounds (checked above), aligned (checked), accessed atomically.
        unsafe {
            match N {
                2 if (p as usize).is_multiple_of(2) => {
                    let v = AtomicU16::from_ptr(p as *mut u16)
                        .load(Relaxed)
                        .to_le_bytes();
                    return Some(std::array::from_fn(|i| v[i]));
                }
                4 if (p as usize).is_multiple_of(4) => {
                    let v = AtomicU32::from_ptr(p as *mut u32)
                        .load(Relaxed)
                        .to_le_bytes();
                    return Some(std::array::from_fn(|i| v[i]));
                }
                8 if (p as usize).is_multiple_of(8) => {
                    let v = AtomicU64::from_ptr(p as *mut u64)
                        .load(Relaxed)
                        .to_le_bytes();
                    return Some(std::array::from_fn(|i| v[i]));
                }
                _ => {}
            }
        }
        Some(std::array::from_fn(|i| {
            self.byte(addr + i as u64).load(Relaxed)
        }))
    }

    /// Stores `bytes` at `addr`; false (nothing written) if they are not all inside the region.
    #[inline]
    pub fn store<const N: usize>(&self, addr: u64, bytes: [u8; N]) -> bool {
        if !self.contains(addr, N as u64) {
            return false;
        }
        let p = self.at(addr);
        // SAFETY (all arms): in bounds (checked above), aligned (checked), accessed atomically.
        unsafe {
            match N {
                2 if (p as usize).is_multiple_of(2) => {
                    let b: &[u8] = &bytes;
                    let v = u16::from_le_bytes([b[0], b[1]]);
                    AtomicU16::from_ptr(p as *mut u16).store(v, Relaxed);
                    return true;
                }
                4 if (p as usize).is_multiple_of(4) => {
                    let b: &[u8] = &bytes;
                    let v = u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
                    AtomicU32::from_ptr(p as *mut u32).store(v, Relaxed);
                    return true;
                }
                8 if (p as usize).is_multiple_of(8) => {
                    let mut b = [0u8; 8];
                    b.copy_from_slice(&bytes[..8]);
                    AtomicU64::from_ptr(p as *mut u64).store(u64::from_le_bytes(b), Relaxed);
                    return true;
                }
                _ => {}
            }
        }
        for (i, b) in bytes.iter().enumerate() {
            self.byte(addr + i as u64).store(*b, Relaxed);
        }
        true
    }

    #[inline]
    pub fn load_u32(&self, addr: u64) -> Option<u32> {
        self.load::<4>(addr).map(u32::from_le_bytes)
    }

    #[inline]
    pub fn store_u32(&self, addr: u64, v: u32) -> bool {
        self.store::<4>(addr, v.to_le_bytes())
    }

    #[inline]
    pub fn load_u64(&self, addr: u64) -> Option<u64> {
        self.load::<8>(addr).map(u64::from_le_bytes)
    }

    #[inline]
    pub fn store_u64(&self, addr: u64, v: u64) -> bool {
        self.store::<8>(addr, v.to_le_bytes())
    }

    /// 32-bit atomic `op` at `addr`; returns the previous value. The address must be 4-aligned.
    #[inline]
    pub fn atomic32(&self, addr: u64, op: AtomicOp, src: u32, cmp: u32) -> Result<u32, MemError> {
        if !self.contains(addr, 4) {
            return Err(MemError::OutOfBounds { addr, size: 4 });
        }
        let p = self.at(addr);
        if !addr.is_multiple_of(4) || !(p as usize).is_multiple_of(4) {
            return Err(MemError::Misaligned { addr, size: 4 });
        }
        // SAFETY: in bounds, 4-aligned, and this memory is only accessed atomically.
        let a = unsafe { AtomicU32::from_ptr(p as *mut u32) };
        let ai = unsafe { AtomicI32::from_ptr(p as *mut i32) };
        Ok(match op {
            AtomicOp::Add => a.fetch_add(src, Relaxed),
            AtomicOp::Sub => a.fetch_sub(src, Relaxed),
            AtomicOp::And => a.fetch_and(src, Relaxed),
            AtomicOp::Or => a.fetch_or(src, Relaxed),
            AtomicOp::Xor => a.fetch_xor(src, Relaxed),
            AtomicOp::Xchg => a.swap(src, Relaxed),
            AtomicOp::MinU => a.fetch_min(src, Relaxed),
            AtomicOp::MaxU => a.fetch_max(src, Relaxed),
            AtomicOp::MinI => ai.fetch_min(src as i32, Relaxed) as u32,
            AtomicOp::MaxI => ai.fetch_max(src as i32, Relaxed) as u32,
            AtomicOp::CmpSwap => match a.compare_exchange(cmp, src, Relaxed, Relaxed) {
                Ok(v) | Err(v) => v,
            },
            _ => {
                let mut old = a.load(Relaxed);
                loop {
                    let new = apply32(op, old, src, cmp);
                    match a.compare_exchange_weak(old, new, Relaxed, Relaxed) {
                        Ok(v) => break v,
                        Err(v) => old = v,
                    }
                }
            }
        })
    }

    /// 64-bit atomic `op` at `addr`; returns the previous value. The address must be 8-aligned.
    #[inline]
    pub fn atomic64(&self, addr: u64, op: AtomicOp, src: u64, cmp: u64) -> Result<u64, MemError> {
        if !self.contains(addr, 8) {
            return Err(MemError::OutOfBounds { addr, size: 8 });
        }
        let p = self.at(addr);
        if !addr.is_multiple_of(8) || !(p as usize).is_multiple_of(8) {
            return Err(MemError::Misaligned { addr, size: 8 });
        }
        // SAFETY: in bounds, 8-aligned, and this memory is only accessed atomically.
        let a = unsafe { AtomicU64::from_ptr(p as *mut u64) };
        let ai = unsafe { AtomicI64::from_ptr(p as *mut i64) };
        Ok(match op {
            AtomicOp::Add => a.fetch_add(src, Relaxed),
            AtomicOp::Sub => a.fetch_sub(src, Relaxed),
            AtomicOp::And => a.fetch_and(src, Relaxed),
            AtomicOp::Or => a.fetch_or(src, Relaxed),
            AtomicOp::Xor => a.fetch_xor(src, Relaxed),
            AtomicOp::Xchg => a.swap(src, Relaxed),
            AtomicOp::MinU => a.fetch_min(src, Relaxed),
            AtomicOp::MaxU => a.fetch_max(src, Relaxed),
            AtomicOp::MinI => ai.fetch_min(src as i64, Relaxed) as u64,
            AtomicOp::MaxI => ai.fetch_max(src as i64, Relaxed) as u64,
            AtomicOp::CmpSwap => match a.compare_exchange(cmp, src, Relaxed, Relaxed) {
                Ok(v) | Err(v) => v,
            },
            _ => {
                let mut old = a.load(Relaxed);
                loop {
                    let new = apply64(op, old, src, cmp);
                    match a.compare_exchange_weak(old, new, Relaxed, Relaxed) {
                        Ok(v) => break v,
                        Err(v) => old = v,
                    }
                }
            }
        })
    }
}

/// The device address space guest code can reach (see the module documentation).
#[derive(Debug)]
pub struct DeviceMemory {
    /// Allocations sorted by base address.
    regions: Vec<Region>,
    /// Next free device address (addresses of freed allocations are not reused, so a stale
    /// pointer faults instead of aliasing a newer buffer).
    next: u64,
    /// Host mode: one identity-mapped region covering the whole address space.
    host: Option<Region>,
}

impl Default for DeviceMemory {
    fn default() -> Self {
        DeviceMemory::new()
    }
}

impl DeviceMemory {
    /// An empty sandboxed address space.
    pub fn new() -> DeviceMemory {
        DeviceMemory {
            regions: Vec::new(),
            next: DEVICE_BASE,
            host: None,
        }
    }

    /// A "memory" whose device addresses are host addresses, for the C ABI's raw-pointer mode
    /// (remu-style callers hand the kernel real host pointers).
    ///
    /// # Safety
    /// Every address a kernel run against this memory touches must be valid host memory for the
    /// access (readable, and writable for stores/atomics), suitably aligned for atomics, and not
    /// accessed non-atomically by other threads during the run. Guest code is not sandboxed.
    pub unsafe fn host() -> DeviceMemory {
        DeviceMemory {
            regions: Vec::new(),
            next: DEVICE_BASE,
            host: Some(Region {
                base: 0,
                len: u64::MAX,
                ptr: std::ptr::null_mut(),
                _store: None,
            }),
        }
    }

    /// True in host-pointer mode.
    pub fn is_host(&self) -> bool {
        self.host.is_some()
    }

    /// Allocates `size` zeroed bytes aligned to `align` (a power of two; at least 256 is used, as
    /// hardware buffers and FLAT_SCRATCH are 256-byte aligned). Returns the device address.
    pub fn alloc(&mut self, size: u64, align: u64) -> Result<u64, MemError> {
        let fail = MemError::AllocFailed { size, align };
        if self.host.is_some() || (align != 0 && !align.is_power_of_two()) {
            return Err(fail);
        }
        let align = align.max(256);
        let base = self
            .next
            .checked_next_multiple_of(align)
            .ok_or(fail.clone())?;
        let end = base.checked_add(size).ok_or(fail.clone())?;
        if end > DEVICE_LIMIT || size > isize::MAX as u64 {
            return Err(fail);
        }
        let words = usize::try_from(size.div_ceil(8)).map_err(|_| fail.clone())?;
        let mut v = Vec::new();
        v.try_reserve_exact(words).map_err(|_| fail)?;
        v.resize_with(words, || AtomicU64::new(0));
        let store: Box<[AtomicU64]> = v.into_boxed_slice();
        let ptr = store.as_ptr() as *mut u8;
        self.regions.push(Region {
            base,
            len: size,
            ptr,
            _store: Some(store),
        });
        // `next` only grows, so pushing keeps `regions` sorted.
        self.next = end + GUARD_GAP;
        Ok(base)
    }

    /// Frees the allocation starting at `addr`.
    pub fn free(&mut self, addr: u64) -> Result<(), MemError> {
        match self.regions.binary_search_by_key(&addr, |r| r.base) {
            Ok(i) => {
                self.regions.remove(i);
                Ok(())
            }
            Err(_) => Err(MemError::BadFree { addr }),
        }
    }

    /// The allocations, sorted by base address.
    pub fn regions(&self) -> &[Region] {
        &self.regions
    }

    /// The region holding all of `[addr, addr + n)`.
    #[inline]
    pub fn find(&self, addr: u64, n: u64) -> Result<&Region, MemError> {
        if let Some(h) = &self.host {
            return Ok(h);
        }
        let i = self.regions.partition_point(|r| r.base <= addr);
        match i.checked_sub(1).map(|i| &self.regions[i]) {
            Some(r) if r.contains(addr, n) => Ok(r),
            _ => Err(MemError::OutOfBounds { addr, size: n }),
        }
    }

    /// Copies device memory at `addr` into `out`.
    pub fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), MemError> {
        let r = self.find(addr, out.len() as u64)?;
        let mut i = 0;
        while i < out.len() {
            let a = addr + i as u64;
            if a.is_multiple_of(8) && out.len() - i >= 8 {
                let b = r
                    .load::<8>(a)
                    .ok_or(MemError::OutOfBounds { addr: a, size: 8 })?;
                out[i..i + 8].copy_from_slice(&b);
                i += 8;
            } else {
                out[i] = r.byte(a).load(Relaxed);
                i += 1;
            }
        }
        Ok(())
    }

    /// Copies `data` into device memory at `addr`.
    pub fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemError> {
        let r = self.find(addr, data.len() as u64)?;
        let mut i = 0;
        while i < data.len() {
            let a = addr + i as u64;
            if a.is_multiple_of(8) && data.len() - i >= 8 {
                let mut b = [0u8; 8];
                b.copy_from_slice(&data[i..i + 8]);
                r.store::<8>(a, b);
                i += 8;
            } else {
                r.byte(a).store(data[i], Relaxed);
                i += 1;
            }
        }
        Ok(())
    }

    /// Sets `len` bytes at `addr` to `byte`.
    pub fn fill(&self, addr: u64, byte: u8, len: u64) -> Result<(), MemError> {
        let r = self.find(addr, len)?;
        let word = [byte; 8];
        let mut i = 0;
        while i < len {
            let a = addr + i;
            if a.is_multiple_of(8) && len - i >= 8 {
                r.store::<8>(a, word);
                i += 8;
            } else {
                r.byte(a).store(byte, Relaxed);
                i += 1;
            }
        }
        Ok(())
    }

    pub fn read_u32(&self, addr: u64) -> Result<u32, MemError> {
        let r = self.find(addr, 4)?;
        r.load_u32(addr)
            .ok_or(MemError::OutOfBounds { addr, size: 4 })
    }

    pub fn read_u64(&self, addr: u64) -> Result<u64, MemError> {
        let r = self.find(addr, 8)?;
        r.load_u64(addr)
            .ok_or(MemError::OutOfBounds { addr, size: 8 })
    }

    pub fn write_u32(&self, addr: u64, v: u32) -> Result<(), MemError> {
        self.find(addr, 4)?.store_u32(addr, v);
        Ok(())
    }

    pub fn write_u64(&self, addr: u64, v: u64) -> Result<(), MemError> {
        self.find(addr, 8)?.store_u64(addr, v);
        Ok(())
    }

    /// 32-bit atomic at `addr` (must be 4-aligned); returns the previous value.
    pub fn atomic32(&self, addr: u64, op: AtomicOp, src: u32, cmp: u32) -> Result<u32, MemError> {
        self.find(addr, 4)?.atomic32(addr, op, src, cmp)
    }

    /// 64-bit atomic at `addr` (must be 8-aligned); returns the previous value.
    pub fn atomic64(&self, addr: u64, op: AtomicOp, src: u64, cmp: u64) -> Result<u64, MemError> {
        self.find(addr, 8)?.atomic64(addr, op, src, cmp)
    }
}
