//! Decoded programs of the raw entry points (`run_asm`, the raw dispatch ABI), kept across calls.
//!
//! A drop-in caller (tinygrad's emulator hook) passes the same code bytes at the same address on
//! every call; decoding them again each time is a fixed cost of every call. A program is found
//! here by its exact inputs, compared in full: the code's address, the ISA variant, how it was
//! decoded and every byte of the code. So a program rewritten in place, or another program of
//! the same length at the same address, never gets a stale decoding: its bytes differ, and it is
//! decoded afresh. Decoding errors are never kept (the next call decodes and reports again).

use crate::exec::Program;
use crate::isa::Target;
use std::sync::{Arc, Mutex};

/// Programs kept (most recently used first; the least recently used goes first).
const MAX_ENTRIES: usize = 16;

/// Code longer than this is decoded on every call and not kept, so the cache never holds more
/// than `MAX_ENTRIES` times this many bytes of copies.
const MAX_BYTES: usize = 1 << 20;

/// How a program was decoded from its bytes (the same bytes decode differently).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Decoding {
    /// `Program::new_for` of every byte (`run_asm`).
    Exact,
    /// The raw ABI's tolerant decoding (trailing bytes that do not decode are dropped).
    Tolerant,
}

struct Entry {
    base: u64,
    target: Target,
    decoding: Decoding,
    bytes: Box<[u8]>,
    prog: Arc<Program>,
}

static CACHE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());

/// The program `decode` makes of `code` at host address `base` for `target`: the one kept from an
/// earlier call with the same inputs, else `decode`'s (kept when it succeeds).
pub(crate) fn program<E>(
    code: &[u8],
    base: u64,
    target: Target,
    decoding: Decoding,
    decode: impl FnOnce() -> Result<Program, E>,
) -> Result<Arc<Program>, E> {
    let matches = |e: &Entry| {
        e.base == base && e.target == target && e.decoding == decoding && *e.bytes == *code
    };
    {
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = cache.iter().position(matches) {
            // Most recently used first: a caller alternating a few kernels finds each at once.
            cache[..=i].rotate_right(1);
            return Ok(cache[0].prog.clone());
        }
    }
    // Decoded without the lock (other threads' calls go on meanwhile).
    let prog = Arc::new(decode()?);
    if code.len() <= MAX_BYTES {
        let mut cache = CACHE.lock().unwrap_or_else(|e| e.into_inner());
        if !cache.iter().any(matches) {
            cache.insert(
                0,
                Entry {
                    base,
                    target,
                    decoding,
                    bytes: code.into(),
                    prog: prog.clone(),
                },
            );
            cache.truncate(MAX_ENTRIES);
        }
    }
    Ok(prog)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decode(code: &[u8], base: u64) -> Result<Program, crate::decode::DecodeError> {
        Program::new_for(code, base, Target::Gfx1100)
    }

    /// Each call gets the decoding of the bytes it passes, whatever an earlier call at the same
    /// address and length passed.
    #[test]
    fn same_address_and_length_different_bytes() {
        // s_mov_b32 s0, 1 / s_endpgm, then s_mov_b32 s0, 2 / s_endpgm.
        let mut code: [u32; 2] = [0xbe80_0081, 0xbfb0_0000];
        let base = 0x1000_0000;
        let bytes = |c: &[u32; 2]| c.iter().flat_map(|w| w.to_le_bytes()).collect::<Vec<u8>>();
        for want in [0xbe80_0081u32, 0xbe80_0082, 0xbe80_0081] {
            code[0] = want;
            let b = bytes(&code);
            let p = program(&b, base, Target::Gfx1100, Decoding::Exact, || {
                decode(&b, base)
            })
            .unwrap();
            assert_eq!(p.insts[0].word0, want);
            assert_eq!(p.insts[0], decode(&b, base).unwrap().insts[0]);
        }
        // The same bytes at another address: that address's decoding (its PCs).
        let b = bytes(&code);
        let p = program(&b, base + 8, Target::Gfx1100, Decoding::Exact, || {
            decode(&b, base + 8)
        })
        .unwrap();
        assert_eq!(p.pcs, [base + 8, base + 12]);
    }

    /// A failed decoding is not kept: the next call decodes again.
    #[test]
    fn errors_are_not_kept() {
        let b = 0xbe80_00ffu32.to_le_bytes(); // s_mov_b32 s0, <literal> without the literal
        for _ in 0..2 {
            let mut decoded = false;
            let r = program(&b, 0x2000_0000, Target::Gfx1100, Decoding::Exact, || {
                decoded = true;
                decode(&b, 0x2000_0000)
            });
            assert!(r.is_err());
            assert!(decoded);
        }
    }
}
