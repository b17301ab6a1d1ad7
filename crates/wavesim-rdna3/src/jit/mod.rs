//! The JIT tier: straight-line runs of predecoded instructions compiled to host SIMD code with
//! cranelift, entered from the step loop (`dispatch::run_slice`). The interpreter stays the
//! reference: a compiled block does exactly what running its instructions one by one through
//! their handlers does (registers, EXEC, VCC, SCC, wave- and lane-instruction counts, memory,
//! counters, errors). GLOBAL and FLAT loads and stores (dwords, bytes, halves and the d16
//! forms; FLAT when no address lies in the LDS or private aperture), the same MUBUF forms
//! (a linear buffer V# without add_tid, every active lane's access in range under its
//! OOB_SELECT), DS dword loads and stores
//! and `s_load_b*` are compiled with a fast path (host loads and stores after one check over the
//! active lanes: aligned, inside one allocation of the per-thread region cache, or inside LDS;
//! a whole wave of unit-stride dwords moves as vectors) and their handler for every other case
//! (`select::MemOp`, `codegen::mem_op`). GLOBAL, MUBUF and DS integer atomics (add, sub,
//! min, max, and, or, xor, swap, cmpswap; 32 and 64 bits) take the same check and then each
//! active lane's read-modify-write in lane order, as host atomics on device memory
//! (`select::Rmw`). The f32 transcendentals and square root (`v_rcp`, `v_rcp_iflag`,
//! `v_rsq`, `v_sqrt`, `v_exp`, `v_log`, `v_sin`, `v_cos`) and `v_rcp/rsq/sqrt_f64` call their
//! interpreter lane function for each active lane (`select::trans_lanes`) with the registers
//! kept in SSA. Instructions the compiler does not translate (other memory forms, other
//! atomics, f16 transcendentals, DPP, most modifiers, 16-bit ops, ...) run
//! inside the block through their interpreter handler (`cache::call`: the block stores the
//! registers it holds, the handler runs on the wave, the block reloads; for the scalar loads
//! and GLOBAL and DS memory instructions, whose registers are known (`select::footprint`),
//! only those are stored and reloaded); a handler's
//! error or change of control flow stops the block there and the step loop handles it exactly
//! as for an interpreted instruction. Program control other than resolved branches, barriers,
//! traps, messages and MODE writers end the block; `s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)` is
//! compiled (other messages run their handlers) and s_endpgm ends the block with an exit that
//! ends the wave. An `s_cbranch_execz` over straight-line code is a side exit: the block goes
//! on into the code it skips and leaves only when the branch is taken. A block whose taken branch goes
//! back to its own start loops inside the compiled code while the step loop's instruction
//! budget allows (`codegen::SelfLoop`). Float code is compiled for the launch MODE's float
//! controls (round to nearest even without exception detection, any denormal flushing), and
//! blocks using it run only while the wave's MODE still has them (checked on entry).
//!
//! - `select`: which instructions compile, operands validated at compile time (so compiled code
//!   never raises an error: every error stays the interpreter's).
//! - `codegen`: the cranelift translation (4-lane vectors, 2-lane for f64, EXEC as blend masks,
//!   registers in SSA between callbacks).
//! - `cache`: compiled code per code object (hash of the decoded code + wave size + VGPR count),
//!   shared by every dispatch and worker thread of the process, and the tiers' policies.
//! - `disk`: the optional on-disk cache of compiled blocks, so later processes load a kernel's
//!   code instead of compiling it again.
//!
//! Engines ([`Engine`]): `interp` never compiles; `jit` compiles each block when a run first
//! enters it; `auto` (the default) interprets a block until it has been entered [`AUTO_THRESHOLD`]
//! times, then compiles it, so a tiny kernel pays no compile cost.
//!
//! Compiling has two tiers (`cache::Opt`): under `jit` a block is first compiled quickly
//! (cranelift's single-pass register allocator), and compiled again with the backtracking
//! allocator once the time estimated spent in its quick code reaches what that compile is
//! expected to cost (`cache::FULL_COST` times the quick compile's time). Under `auto` a block
//! that reached [`AUTO_THRESHOLD`] entries has shown it runs often and is compiled with the
//! backtracking allocator at once, unless it is big (`cache::FULL_AT_ONCE_MAX_IR`: then
//! quickly first, as under `jit`). Both tiers compile the same IR, so their results are
//! identical; the tests reach the second one directly with [`optimise_at_once`].

mod cache;
mod codegen;
mod disk;
mod select;

pub(crate) use cache::Tier;
pub use cache::{
    compilable, compile_stats, forget_compiled_code, optimise_at_once, verify_ir, CompileStats,
    DUMP_ENV,
};
pub use disk::{disk_cache, set_disk_cache, CACHE_ENV, FORMAT_VERSION};

use std::str::FromStr;
use std::sync::atomic::{AtomicU8, Ordering::Relaxed};
use std::sync::OnceLock;

/// How waves execute.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Engine {
    /// The interpreter only.
    Interp,
    /// Compile each block the JIT supports when a run first enters it.
    Jit,
    /// Interpret first; compile a block once it has been entered [`AUTO_THRESHOLD`] times.
    Auto,
}

/// Block entries (over all waves and dispatches of a code object) after which `auto` compiles a
/// block. A rent-or-buy choice: compiling a block was measured at 0.4-2.5 ms (release, the
/// benchmark kernels; docs/PERFORMANCE.md, "JIT tier"), and interpreting one entry of a typical
/// 10-30 instruction block costs 0.1-0.5 us, so after 4096 entries the time already spent
/// interpreting it is about the cost of compiling it; compiling then keeps the total within about
/// twice the best choice made in hindsight, whether the block runs a few more times or millions.
/// Kernels of a few waves (most of a test suite) never compile anything.
pub const AUTO_THRESHOLD: u32 = 4096;

/// The environment variable that chooses the default engine (`interp`, `jit` or `auto`), e.g. to
/// run a whole test suite with the JIT forced.
///
/// Its companion [`CACHE_ENV`] (`WAVESIM_JIT_CACHE=DIR`) turns on the on-disk compiled-code
/// cache in DIR (also [`set_disk_cache`], `wavesim run --jit-cache DIR`,
/// `wavesim_set_jit_cache`): blocks compiled by one process are written there and loaded by
/// the next instead of compiled again (see `disk`; DIR must be writable only by those trusted
/// to run code as the process).
pub const ENGINE_ENV: &str = "WAVESIM_ENGINE";

impl Engine {
    /// The engine [`ENGINE_ENV`] names, read once per process (None if unset or invalid).
    pub fn from_env() -> Option<Engine> {
        static E: OnceLock<Option<Engine>> = OnceLock::new();
        *E.get_or_init(|| std::env::var(ENGINE_ENV).ok()?.parse().ok())
    }

    pub fn name(self) -> &'static str {
        match self {
            Engine::Interp => "interp",
            Engine::Jit => "jit",
            Engine::Auto => "auto",
        }
    }
}

/// The process-wide default set by [`set_default_engine`] (0: none set).
static DEFAULT: AtomicU8 = AtomicU8::new(0);

/// Sets the engine that `Engine::default()` (every `ExecConfig::default()`, `run_asm`, new
/// devices) gives from now on, over [`ENGINE_ENV`].
pub fn set_default_engine(e: Engine) {
    DEFAULT.store(e as u8 + 1, Relaxed);
}

impl Default for Engine {
    /// The engine [`set_default_engine`] chose, else the one [`ENGINE_ENV`] names, else `auto`.
    fn default() -> Self {
        match DEFAULT.load(Relaxed) {
            1 => Engine::Interp,
            2 => Engine::Jit,
            3 => Engine::Auto,
            _ => Engine::from_env().unwrap_or(Engine::Auto),
        }
    }
}

impl FromStr for Engine {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "interp" => Ok(Engine::Interp),
            "jit" => Ok(Engine::Jit),
            "auto" => Ok(Engine::Auto),
            _ => Err(format!("unknown engine {s:?}: interp, jit or auto")),
        }
    }
}

impl std::fmt::Display for Engine {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
