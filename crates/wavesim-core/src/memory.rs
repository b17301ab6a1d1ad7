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

/// Defines the pure ISA semantics of the atomic operations for one width: `$u` the memory word,
/// `$i` its signed view, `$f` its float view. One body serves both widths so they cannot drift.
macro_rules! apply_fn {
    ($(#[$doc:meta])* $name:ident, $u:ty, $i:ty, $f:ty) => {
        $(#[$doc])*
        #[inline]
        pub fn $name(op: AtomicOp, old: $u, src: $u, cmp: $u) -> $u {
            use AtomicOp::*;
            let (fold, fsrc) = (<$f>::from_bits(old), <$f>::from_bits(src));
            match op {
                Add => old.wrapping_add(src),
                Sub => old.wrapping_sub(src),
                Rsub => src.wrapping_sub(old),
                MinI => (old as $i).min(src as $i) as $u,
                MaxI => (old as $i).max(src as $i) as $u,
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
                AddF => (fold + fsrc).to_bits(),
                // ISA: `MEM = src < tmp ? src : tmp` with a compare that "handles NaN": LLVM maps
                // atomicrmw fmin/fmax (minnum/maxnum semantics) onto these instructions, so a NaN
                // operand yields the other.
                MinF => {
                    if fold.is_nan() || fsrc < fold {
                        src
                    } else {
                        old
                    }
                }
                MaxF => {
                    if fold.is_nan() || fsrc > fold {
                        src
                    } else {
                        old
                    }
                }
                CmpSwapF => {
                    if fold == <$f>::from_bits(cmp) {
                        src
                    } else {
                        old
                    }
                }
            }
        }
    };
}

apply_fn!(
    /// The new 32-bit memory value of `op` applied to `old` (pure ISA semantics).
    apply32, u32, i32, f32
);
apply_fn!(
    /// The new 64-bit memory value of `op` applied to `old`.
    apply64, u64, i64, f64
);

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

/// Defines `Region::atomic32`/`atomic64`: bounds and alignment checks, then a native host `fetch_*`
/// where the ISA operation has one and a compare-exchange loop over `$apply` otherwise.
macro_rules! atomic_fn {
    ($(#[$doc:meta])* $name:ident, $n:literal, $u:ty, $i:ty, $au:ty, $ai:ty, $apply:ident) => {
        $(#[$doc])*
        #[inline]
        pub fn $name(&self, addr: u64, op: AtomicOp, src: $u, cmp: $u) -> Result<$u, MemError> {
            if !self.contains(addr, $n) {
                return Err(MemError::OutOfBounds { addr, size: $n });
            }
            let p = self.at(addr);
            if !addr.is_multiple_of($n) || !(p as usize).is_multiple_of($n) {
                return Err(MemError::Misaligned { addr, size: $n });
            }
            // SAFETY: in bounds, aligned to the width, and this memory is only accessed atomically.
            let a = unsafe { <$au>::from_ptr(p as *mut $u) };
            let ai = unsafe { <$ai>::from_ptr(p as *mut $i) };
            Ok(match op {
                AtomicOp::Add => a.fetch_add(src, Relaxed),
                AtomicOp::Sub => a.fetch_sub(src, Relaxed),
                AtomicOp::And => a.fetch_and(src, Relaxed),
                AtomicOp::Or => a.fetch_or(src, Relaxed),
                AtomicOp::Xor => a.fetch_xor(src, Relaxed),
                AtomicOp::Xchg => a.swap(src, Relaxed),
                AtomicOp::MinU => a.fetch_min(src, Relaxed),
                AtomicOp::MaxU => a.fetch_max(src, Relaxed),
                AtomicOp::MinI => ai.fetch_min(src as $i, Relaxed) as $u,
                AtomicOp::MaxI => ai.fetch_max(src as $i, Relaxed) as $u,
                AtomicOp::CmpSwap => match a.compare_exchange(cmp, src, Relaxed, Relaxed) {
                    Ok(v) | Err(v) => v,
                },
                _ => {
                    let mut old = a.load(Relaxed);
                    loop {
                        let new = $apply(op, old, src, cmp);
                        match a.compare_exchange_weak(old, new, Relaxed, Relaxed) {
                            Ok(v) => break v,
                            Err(v) => old = v,
                        }
                    }
                }
            })
        }
    };
}

/// One piece of a host copy (`DeviceMemory::walk`): an 8-aligned word or a single byte.
enum Piece<'a> {
    Word(&'a AtomicU64),
    Byte(&'a AtomicU8),
}

/// The EXEC bits of lanes `0..n` (n <= 64).
#[inline(always)]
fn lanes_mask(n: usize) -> u64 {
    if n >= 64 {
        u64::MAX
    } else {
        (1u64 << n) - 1
    }
}

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

    /// The host address of the region's first byte (device address `base`): device address
    /// `a` of the region is at host address `host_ptr() + (a - base)`, for code that accesses
    /// the bytes itself (the JIT's compiled loads and stores; like every access to this memory
    /// they must be atomic or plain machine loads and stores of aligned words).
    #[inline]
    pub fn host_ptr(&self) -> *mut u8 {
        self.at(self.base)
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

    /// The host address of the dword at `addrs[l] + off` for the active lanes of a wave, once
    /// one check over the lanes has shown that all of them are 4-aligned and inside the region:
    /// the host pointer of the lowest address, which every other lane's is an offset from.
    /// None when some lane fails (or `off` is not a dword multiple); `Some(None)` when no lane
    /// in `exec` is active.
    #[inline(always)]
    fn dword_span(&self, addrs: &[u64], exec: u64, off: u64) -> Option<Option<(u64, *mut u8)>> {
        let n = addrs.len().min(64);
        let (mut lo, mut hi, mut bits) = (u64::MAX, 0u64, 0u64);
        if exec & lanes_mask(n) == lanes_mask(n) {
            // Every lane active: a branch-free pass the compiler vectorises.
            for &a in &addrs[..n] {
                lo = lo.min(a);
                hi = hi.max(a);
                bits |= a;
            }
        } else {
            for (l, &a) in addrs[..n].iter().enumerate() {
                if exec >> l & 1 != 0 {
                    lo = lo.min(a);
                    hi = hi.max(a);
                    bits |= a;
                }
            }
        }
        if lo > hi {
            return Some(None);
        }
        // `off` a dword multiple and no wrap past 2^64: then every lane's `a + off` is aligned
        // exactly when `a` is, and lies between `lo + off` and `hi + off`.
        if !off.is_multiple_of(4) || !bits.is_multiple_of(4) {
            return None;
        }
        let (start, last) = (lo.checked_add(off)?, hi.checked_add(off)?);
        if !self.contains(start, last - start + 4) {
            return None;
        }
        Some(Some((lo, self.at(start))))
    }

    /// Loads the dword at `addrs[l] + off` into `out[l]` for every lane `l` set in `exec` (one
    /// host atomic each: the lane loop of a wave's dword load without per-lane byte arrays),
    /// after one check of the span of all lanes. False, and nothing loaded, if some lane's dword
    /// is misaligned or outside the region (the caller then takes the general path).
    #[inline]
    pub fn load_u32_lanes(&self, addrs: &[u64], exec: u64, off: u64, out: &mut [u32]) -> bool {
        let n = addrs.len().min(out.len()).min(64);
        let Some(span) = self.dword_span(&addrs[..n], exec, off) else {
            return false;
        };
        let Some((lo, p)) = span else { return true };
        let full = exec & lanes_mask(n) == lanes_mask(n);
        for (l, (&a, o)) in addrs[..n].iter().zip(out[..n].iter_mut()).enumerate() {
            if full || exec >> l & 1 != 0 {
                // SAFETY: `dword_span` checked that every active lane's dword lies in the region
                // and is 4-aligned, `p` being the host address of the lowest one; accessed
                // atomically like all of this memory.
                *o = unsafe { AtomicU32::from_ptr(p.wrapping_add((a - lo) as usize) as *mut u32) }
                    .load(Relaxed);
            }
        }
        true
    }

    /// Stores `vals[l]` at `addrs[l] + off` for every lane `l` set in `exec`, after one check of
    /// the span of all lanes: false, and nothing written, if some lane's dword is misaligned or
    /// outside the region.
    #[inline]
    pub fn store_u32_lanes(&self, addrs: &[u64], exec: u64, off: u64, vals: &[u32]) -> bool {
        let n = addrs.len().min(vals.len()).min(64);
        let Some(span) = self.dword_span(&addrs[..n], exec, off) else {
            return false;
        };
        let Some((lo, p)) = span else { return true };
        let full = exec & lanes_mask(n) == lanes_mask(n);
        for (l, (&a, &v)) in addrs[..n].iter().zip(&vals[..n]).enumerate() {
            if full || exec >> l & 1 != 0 {
                // SAFETY: as in `load_u32_lanes`.
                unsafe { AtomicU32::from_ptr(p.wrapping_add((a - lo) as usize) as *mut u32) }
                    .store(v, Relaxed);
            }
        }
        true
    }

    /// Loads `N` bytes at `addr` (little-endian), or None if they are not all inside the region.
    #[inline]
    pub fn load<const N: usize>(&self, addr: u64) -> Option<[u8; N]> {
        if !self.contains(addr, N as u64) {
            return None;
        }
        let p = self.at(addr);
        // One host atomic for an aligned 2/4/8-byte access.
        macro_rules! whole {
            ($n:literal, $a:ty) => {
                if N == $n && (p as usize).is_multiple_of($n) {
                    // SAFETY: in bounds (checked above), aligned (checked), accessed atomically.
                    let v = unsafe { <$a>::from_ptr(p as *mut _) }
                        .load(Relaxed)
                        .to_le_bytes();
                    return Some(std::array::from_fn(|i| v[i]));
                }
            };
        }
        whole!(2, AtomicU16);
        whole!(4, AtomicU32);
        whole!(8, AtomicU64);
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
        // One host atomic for an aligned 2/4/8-byte access.
        macro_rules! whole {
            ($n:literal, $a:ty, $u:ty) => {
                if N == $n && (p as usize).is_multiple_of($n) {
                    let v = <$u>::from_le_bytes(std::array::from_fn(|i| bytes[i]));
                    // SAFETY: in bounds (checked above), aligned (checked), accessed atomically.
                    unsafe { <$a>::from_ptr(p as *mut _) }.store(v, Relaxed);
                    return true;
                }
            };
        }
        whole!(2, AtomicU16, u16);
        whole!(4, AtomicU32, u32);
        whole!(8, AtomicU64, u64);
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

    atomic_fn!(
        /// 32-bit atomic `op` at `addr`; returns the previous value. The address must be 4-aligned.
        atomic32, 4, u32, i32, AtomicU32, AtomicI32, apply32
    );
    atomic_fn!(
        /// 64-bit atomic `op` at `addr`; returns the previous value. The address must be 8-aligned.
        atomic64, 8, u64, i64, AtomicU64, AtomicI64, apply64
    );

    /// A 4-byte atomic on the low halves of `src`/`cmp` (old value zero-extended), or an 8-byte
    /// one when `w64`.
    #[inline]
    pub fn atomic(
        &self,
        addr: u64,
        op: AtomicOp,
        src: u64,
        cmp: u64,
        w64: bool,
    ) -> Result<u64, MemError> {
        if w64 {
            self.atomic64(addr, op, src, cmp)
        } else {
            self.atomic32(addr, op, src as u32, cmp as u32)
                .map(u64::from)
        }
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
    /// Changes (to a value no memory of this process had before) whenever the set of regions
    /// does, so a cache of regions keyed by it is never stale ([`DeviceMemory::epoch`]).
    epoch: u64,
}

/// The next [`DeviceMemory::epoch`] value.
static EPOCH: AtomicU64 = AtomicU64::new(1);

fn next_epoch() -> u64 {
    EPOCH.fetch_add(1, Relaxed)
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
            epoch: next_epoch(),
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
            epoch: next_epoch(),
        }
    }

    /// Host-pointer mode limited to `ranges` (`(host address, bytes)` each): device addresses are
    /// host addresses as in [`DeviceMemory::host`], but an access that is not entirely inside one
    /// range is a [`MemError::OutOfBounds`] instead of a host access. Overlapping and touching
    /// ranges are merged, so an access may span two ranges that touch. Empty ranges are ignored.
    /// No allocation can be made in such a memory.
    ///
    /// # Safety
    /// Every byte of every range must be valid host memory for reads and writes, suitably aligned
    /// for atomics, and not accessed non-atomically by other threads while a kernel runs against
    /// this memory.
    pub unsafe fn host_ranges(ranges: &[(u64, u64)]) -> Result<DeviceMemory, MemError> {
        let mut sorted: Vec<(u64, u64)> = Vec::with_capacity(ranges.len());
        for &(start, len) in ranges {
            if len == 0 {
                continue;
            }
            let end = start.checked_add(len).ok_or(MemError::OutOfBounds {
                addr: start,
                size: len,
            })?;
            sorted.push((start, end));
        }
        sorted.sort_unstable();
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(sorted.len());
        for (start, end) in sorted {
            match merged.last_mut() {
                Some(last) if start <= last.1 => last.1 = last.1.max(end),
                _ => merged.push((start, end)),
            }
        }
        Ok(DeviceMemory {
            regions: merged
                .into_iter()
                .map(|(start, end)| Region {
                    base: start,
                    len: end - start,
                    // A null pointer marks identity translation (see `Region::at`).
                    ptr: std::ptr::null_mut(),
                    _store: None,
                })
                .collect(),
            // Nothing can be allocated: allocations would land at arbitrary host addresses.
            next: DEVICE_LIMIT,
            host: None,
            epoch: next_epoch(),
        })
    }

    /// True in host-pointer mode (whole address space or [`DeviceMemory::host_ranges`]).
    pub fn is_host(&self) -> bool {
        // A memory's regions are either all identity-mapped (host ranges) or all owned.
        self.host.is_some() || self.regions.first().is_some_and(|r| r._store.is_none())
    }

    /// Allocates `size` zeroed bytes aligned to `align` (a power of two; at least 256 is used, as
    /// hardware buffers and FLAT_SCRATCH are 256-byte aligned). Returns the device address.
    pub fn alloc(&mut self, size: u64, align: u64) -> Result<u64, MemError> {
        let fail = MemError::AllocFailed { size, align };
        if self.is_host() || (align != 0 && !align.is_power_of_two()) {
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
        self.epoch = next_epoch();
        Ok(base)
    }

    /// Frees the allocation starting at `addr`.
    pub fn free(&mut self, addr: u64) -> Result<(), MemError> {
        match self.regions.binary_search_by_key(&addr, |r| r.base) {
            Ok(i) => {
                self.regions.remove(i);
                self.epoch = next_epoch();
                Ok(())
            }
            Err(_) => Err(MemError::BadFree { addr }),
        }
    }

    /// An identifier of this memory's current set of regions, unique in the process: it
    /// changes with every allocation and free, and no two memories share one. While it is
    /// unchanged, a [`Region`] found earlier (its base, length and [`Region::host_ptr`]) is
    /// still this memory's (the JIT keeps such a cache across dispatches).
    pub fn epoch(&self) -> u64 {
        self.epoch
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

    /// Finds the region holding `[addr, addr + len)` and walks it in pieces: single bytes up to
    /// the first 8-aligned host address, then 8-byte words, then the last bytes; `f(k, piece)`
    /// handles the piece at byte offset `k`. One bounds check for the whole range, so host
    /// copies run at memory speed, each word still one host atomic like every other access.
    fn walk(
        &self,
        addr: u64,
        len: u64,
        mut f: impl FnMut(usize, Piece<'_>),
    ) -> Result<(), MemError> {
        let r = self.find(addr, len)?;
        let len = len as usize;
        let p = r.at(addr);
        let head = ((p as usize).wrapping_neg() % 8).min(len);
        let words = (len - head) / 8;
        for k in 0..head {
            f(k, Piece::Byte(r.byte(addr + k as u64)));
        }
        for i in 0..words {
            let k = head + 8 * i;
            // SAFETY: `find` checked that the whole range lies in the region; `p + k` is
            // 8-aligned (past the head) and its 8 bytes are inside the range; accessed atomically.
            f(
                k,
                Piece::Word(unsafe { AtomicU64::from_ptr(p.wrapping_add(k) as *mut u64) }),
            );
        }
        for k in head + 8 * words..len {
            f(k, Piece::Byte(r.byte(addr + k as u64)));
        }
        Ok(())
    }

    /// Copies device memory at `addr` into `out`.
    pub fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), MemError> {
        self.walk(addr, out.len() as u64, |k, piece| match piece {
            Piece::Word(a) => out[k..k + 8].copy_from_slice(&a.load(Relaxed).to_le_bytes()),
            Piece::Byte(b) => out[k] = b.load(Relaxed),
        })
    }

    /// Copies `data` into device memory at `addr`.
    pub fn write(&self, addr: u64, data: &[u8]) -> Result<(), MemError> {
        self.walk(addr, data.len() as u64, |k, piece| match piece {
            Piece::Word(a) => {
                let mut w = [0u8; 8];
                w.copy_from_slice(&data[k..k + 8]);
                a.store(u64::from_le_bytes(w), Relaxed);
            }
            Piece::Byte(b) => b.store(data[k], Relaxed),
        })
    }

    /// Sets `len` bytes at `addr` to `byte`.
    pub fn fill(&self, addr: u64, byte: u8, len: u64) -> Result<(), MemError> {
        let w = u64::from_ne_bytes([byte; 8]);
        self.walk(addr, len, |_, piece| match piece {
            Piece::Word(a) => a.store(w, Relaxed),
            Piece::Byte(b) => b.store(byte, Relaxed),
        })
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
