//! Helpers shared by the fuzz tests: a deterministic PRNG and panic capture.
#![allow(dead_code)] // each test binary uses a subset

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Once;

/// splitmix64: small, deterministic, good enough to pick fields.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    pub fn u32(&mut self) -> u32 {
        self.next() as u32
    }
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    /// True with probability `pct` percent.
    pub fn pct(&mut self, pct: u64) -> bool {
        self.below(100) < pct
    }
    pub fn pick<T: Copy>(&mut self, xs: &[T]) -> T {
        xs[self.below(xs.len() as u64) as usize]
    }
}

thread_local! {
    /// The message and location of the last panic on this thread.
    static LAST_PANIC: RefCell<String> = const { RefCell::new(String::new()) };
    /// Set while a fuzz case runs: its panics are recorded, not printed.
    static IN_CASE: Cell<bool> = const { Cell::new(false) };
}

/// Records panics inside fuzz cases instead of printing them (a fuzz run would flood the
/// output); panics outside a case (the test's own failure report) print as usual.
pub fn quiet_panics() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let default = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            if !IN_CASE.with(|c| c.get()) {
                default(info);
                return;
            }
            let loc = info
                .location()
                .map(|l| format!("{}:{}", l.file(), l.line()))
                .unwrap_or_default();
            let msg = info
                .payload()
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| info.payload().downcast_ref::<String>().cloned())
                .unwrap_or_default();
            LAST_PANIC.with(|p| *p.borrow_mut() = format!("{loc}: {msg}"));
        }));
    });
}

/// Runs `f` as a fuzz case: a panic is caught and returned as "location: message".
pub fn catch<T>(f: impl FnOnce() -> T) -> Result<T, String> {
    IN_CASE.with(|c| c.set(true));
    let r = catch_unwind(AssertUnwindSafe(f));
    IN_CASE.with(|c| c.set(false));
    r.map_err(|_| LAST_PANIC.with(|p| p.borrow().clone()))
}
