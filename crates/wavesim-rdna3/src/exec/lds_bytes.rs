//! LDS as bytes: the bounds-checked loads, stores and atomics that DS instructions, FLAT's
//! LDS aperture and LDS_DIRECT share (out of range: loads read nothing, stores and atomics are
//! dropped). Below `flat`, `lds` and `ldsdir`, so those families need not import each other.

use wavesim_core::memory::{apply32, apply64, AtomicOp};

/// Reads `N` bytes of LDS at `a`; None if any part is out of range.
#[inline]
pub(crate) fn lds_load<const N: usize>(lds: &[u8], a: u64) -> Option<[u8; N]> {
    let a = usize::try_from(a).ok()?;
    let s = lds.get(a..a.checked_add(N)?)?;
    let mut b = [0u8; N];
    b.copy_from_slice(s);
    Some(b)
}

/// Writes `bytes` (at most one dword) to LDS at `a`; dropped if out of range.
#[inline]
pub(crate) fn lds_store(lds: &mut [u8], a: u64, bytes: &[u8]) {
    let Ok(a) = usize::try_from(a) else { return };
    let Some(end) = a.checked_add(bytes.len()) else {
        return;
    };
    if let Some(d) = lds.get_mut(a..end) {
        d.copy_from_slice(bytes);
    }
}

/// An LDS atomic at `a` (already aligned); out of range: no effect, returns 0.
#[inline]
pub(crate) fn lds_atomic(
    lds: &mut [u8],
    a: u64,
    op: AtomicOp,
    src: u64,
    cmp: u64,
    w64: bool,
) -> u64 {
    if w64 {
        let Some(b) = lds_load::<8>(lds, a) else {
            return 0;
        };
        let old = u64::from_le_bytes(b);
        // In range as a whole: the load above checked all 8 bytes.
        lds_store_dwords(lds, a, &apply64(op, old, src, cmp).to_le_bytes());
        old
    } else {
        let Some(b) = lds_load::<4>(lds, a) else {
            return 0;
        };
        let old = u32::from_le_bytes(b);
        lds_store(
            lds,
            a,
            &apply32(op, old, src as u32, cmp as u32).to_le_bytes(),
        );
        old as u64
    }
}

/// Stores `bytes` to LDS dword by dword: an out-of-range part is dropped (RDNA3 ISA guide, Wave State).
#[inline]
pub(crate) fn lds_store_dwords(lds: &mut [u8], a: u64, bytes: &[u8]) {
    for (k, chunk) in bytes.chunks(4).enumerate() {
        lds_store(lds, a.wrapping_add(4 * k as u64), chunk);
    }
}
