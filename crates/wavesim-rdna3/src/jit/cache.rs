//! Compiled code per code object, shared by all dispatches and worker threads of the process,
//! and the step loop's entry into it ([`Tier::step`]).
//!
//! A [`JitCode`] belongs to one decoded program and one launch shape (wave size, VGPR count and
//! the launch MODE's float controls: the only launch parameters compiled code depends on; a block
//! with float code is entered only while the wave's MODE still has those controls, see
//! `select::Node::needs_f32`). It is found by a hash of the decoded instructions and
//! addresses and then compared instruction by instruction, so two code objects never share code
//! by accident. Each instruction index has a slot that is filled once: the block starting there,
//! or "not compilable". A block's code is freed with its `JitCode`, when the cache has let go of
//! it and no dispatch holds it any more. With the on-disk cache on (`disk`), a block's code is
//! looked up there before it is compiled and written there after.

use super::codegen;
use super::disk;
use super::select::{
    callable, footprint, lower, mem_op, region_slots, sload, Branch, Node, Shape, SLOTS,
};
use super::Engine;
use crate::decode::Inst;
use crate::exec::operand::FpMode;
use crate::exec::{Ctx, ExecError, Flow, Handler, Program};
use crate::isa::Op;
use crate::wave::{WaitCounts, Wave, LANES};
use cranelift_codegen::settings::{self, Configurable};
use cranelift_codegen::Context;
use cranelift_frontend::FunctionBuilderContext;
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::{default_libcall_names, Module};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Instant;

/// A compiled block: `fn(sgpr, vgpr, scc, lane_insts, env) -> exit` (see `codegen`; `env` is
/// the [`CallEnv`] its callbacks get).
type BlockFn = unsafe extern "C" fn(*mut u32, *mut u32, *mut u8, *mut u64, *mut CallEnv) -> u32;

/// What a compiled block's callbacks into the interpreter ([`call`]) need: the wave, the
/// dispatch's context, the code and its handler table, and where the block started. Lives on `Tier::step`'s stack for
/// one block call. `repr(C)`: compiled code loads `callback` from its fixed offset
/// ([`CALLBACK_OFFSET`]) instead of holding this process's address of [`call`], so the same
/// code runs in any process (the on-disk cache, `disk`); self-loops read and write `done` and
/// `budget` at theirs.
#[repr(C)]
pub(crate) struct CallEnv {
    /// Always [`call`].
    callback: unsafe extern "C" fn(*mut CallEnv, u32) -> u32,
    /// Instructions the block's completed self-loop iterations ran (`codegen::SelfLoop`),
    /// and the most it may run (the step loop's budget).
    done: u64,
    budget: u64,
    wave: *mut Wave,
    ctx: *mut Ctx<'static>,
    code: *const JitCode,
    /// The block's first instruction index and the wave's instruction count when it started.
    start: usize,
    base_insts: u64,
    /// The instruction that stopped the block and its handler's result.
    stop: Option<(usize, Result<Flow, ExecError>)>,
    /// The dispatch's handler table (`Program::handlers`, the kernel's instructions first): the
    /// one the step loop calls through.
    handlers: *const [Handler],
    /// Always [`region_lookup`].
    lookup: unsafe extern "C" fn(*mut CallEnv, u32, u64, u64, u64) -> u32,
    /// This thread's region cache (`Node::Mem` of GLOBAL instructions).
    regions: *mut [Slot; SLOTS],
    /// The workgroup's LDS (`Ctx::lds`): host address and length.
    lds_ptr: *mut u8,
    lds_len: u64,
    /// The wave's wait counters (`Wave::cnt`), projected from the raw wave pointer.
    cnt: *mut WaitCounts,
    /// Always [`super::select::trans_lanes`].
    trans: unsafe extern "C" fn(u32, u32, *const u32, *mut u32, u64),
    /// The wave's STATUS (`Wave::hw.status`), projected from the raw wave pointer
    /// (`Node::DeallocVgprs`).
    status: *mut u32,
}

/// One entry of the region cache compiled GLOBAL accesses check first: device range
/// `[base, base + len)` at host address `base + delta` (wrapping). An empty slot has
/// `base = u64::MAX, len = 0`, which contains nothing.
#[derive(Clone, Copy)]
#[repr(C)]
pub(crate) struct Slot {
    base: u64,
    len: u64,
    delta: u64,
}

const EMPTY: Slot = Slot {
    base: u64::MAX,
    len: 0,
    delta: 0,
};

/// A thread's region cache: valid for the memory whose `DeviceMemory::epoch` it holds (the
/// epoch changes whenever that memory's regions do, so a slot never outlives its region).
struct RegionCache {
    epoch: u64,
    slots: [Slot; SLOTS],
}

thread_local! {
    static REGIONS: std::cell::UnsafeCell<RegionCache> = const {
        std::cell::UnsafeCell::new(RegionCache { epoch: 0, slots: [EMPTY; SLOTS] })
    };
}

/// Compiled code's way to fill region-cache slot `slot` (its check missed): finds the
/// allocation holding every lane's access, the bytes `[lo, top + n)`, and returns 1 with the
/// slot filled, or 0 (no single allocation holds them: the block runs the handler, which
/// reports the fault exactly).
pub(crate) unsafe extern "C" fn region_lookup(
    env: *mut CallEnv,
    slot: u32,
    lo: u64,
    top: u64,
    n: u64,
) -> u32 {
    // SAFETY: `env` is the live `CallEnv` of the running block (see `call`); its context and
    // region cache pointers are valid for the call, and nothing else uses the cache meanwhile
    // (it is this thread's, and the compiled code is not reading it during this call).
    let env = unsafe { &mut *env };
    let ctx = unsafe { &*env.ctx };
    let Some(len) = top.checked_sub(lo).and_then(|d| d.checked_add(n)) else {
        return 0;
    };
    let Ok(r) = ctx.mem.find(lo, len) else {
        return 0;
    };
    let Some(s) = (unsafe { &mut *env.regions }).get_mut(slot as usize) else {
        return 0;
    };
    *s = Slot {
        base: r.base(),
        len: r.len(),
        delta: (r.host_ptr() as u64).wrapping_sub(r.base()),
    };
    1
}

/// Where compiled code finds what it reads in a [`CallEnv`].
fn env_layout() -> codegen::EnvLayout {
    use std::mem::offset_of;
    codegen::EnvLayout {
        callback: offset_of!(CallEnv, callback) as i32,
        lookup: offset_of!(CallEnv, lookup) as i32,
        trans: offset_of!(CallEnv, trans) as i32,
        regions: offset_of!(CallEnv, regions) as i32,
        lds_ptr: offset_of!(CallEnv, lds_ptr) as i32,
        lds_len: offset_of!(CallEnv, lds_len) as i32,
        cnt: offset_of!(CallEnv, cnt) as i32,
        status: offset_of!(CallEnv, status) as i32,
        vm: offset_of!(WaitCounts, vm) as i32,
        vs: offset_of!(WaitCounts, vs) as i32,
        lgkm: offset_of!(WaitCounts, lgkm) as i32,
        exp: offset_of!(WaitCounts, exp) as i32,
    }
}

/// The callback compiled code makes for a `Node::Call`: runs instruction `idx`'s interpreter
/// handler on the wave exactly as the step loop does (PC of the next instruction and the wave's
/// instruction count, this one included, set first). Returns 0 to go on, 1 to stop the block:
/// the handler failed, changed control flow (or ended the wave, ...), or changed MODE (compiled
/// f32 code assumes the MODE the block was entered with); the result waits in `env.stop` for
/// the step loop. The block has stored every register it held before the call and reloads
/// them after it, or, for a `Node::Call` with a footprint, those the handler reads or writes.
pub(crate) unsafe extern "C" fn call(env: *mut CallEnv, idx: u32) -> u32 {
    // SAFETY: `env` is the `CallEnv` `Tier::step` passed to the block, alive for the call; its
    // wave and context pointers come from exclusive borrows held by `Tier::step` for the block's
    // duration, and the compiled code does not touch the wave while this runs (it stored what
    // it held before calling). `w` is the only reference to the wave while the handler runs:
    // compiled code holds raw pointers projected from the same `env.wave` without references
    // (`register_pointers`), which stay valid after `w` dies at the end of this call.
    let env = unsafe { &mut *env };
    let code = unsafe { &*env.code };
    let w = unsafe { &mut *env.wave };
    let ctx = unsafe { &mut *env.ctx.cast::<Ctx<'_>>() };
    let handlers = unsafe { &*env.handlers };
    let idx = idx as usize;
    let (Some(inst), Some(&pc), Some(&handler)) = (
        code.prog.insts.get(idx),
        code.prog.pcs.get(idx),
        handlers.get(idx),
    ) else {
        // Compiled code only passes indices of its own program.
        env.stop = Some((env.start, Err(ExecError::PcOutOfCode { pc: w.pc })));
        return 1;
    };
    let mode = w.hw.mode;
    w.pc = pc + inst.len as u64;
    w.wave_insts = env.base_insts + env.done + (idx - env.start) as u64 + 1;
    let r = handler(w, inst, ctx);
    w.wave_insts = env.base_insts;
    match r {
        Ok(Flow::Next) if w.hw.mode == mode => 0,
        r => {
            env.stop = Some((idx, r));
            1
        }
    }
}

/// The addresses of the registers compiled code works on (the scalar operand space, the VGPR
/// file, SCC), derived from the one raw pointer to the wave without creating a reference to the
/// wave or to a register file on the way (`addr_of_mut!` projects the place; `Vec::as_mut_ptr`
/// does not materialise a reference to the buffer). So the aliasing protocol of a block is:
/// compiled code accesses registers only through these pointers, stores (spills) every register
/// a handler may read or write before calling [`call`] and reloads after it; [`call`] makes the
/// single `&mut Wave` of the callback from the same raw pointer, and it is dead when the
/// callback returns. Under Stacked and Tree Borrows a reference made from `wave` and used in the
/// callback does not invalidate `wave` or pointers projected from it without a reference, so
/// the block's later accesses stay valid; the model in `tools/miri-callenv` checks exactly this
/// under Miri (and that the previous derivation through `&mut` field borrows is rejected).
///
/// # Safety
/// `wave` must point to a live `Wave` that nothing else accesses while the pointers are used,
/// and no handler may resize the VGPR file (none does: it is sized at wave creation).
pub(crate) unsafe fn register_pointers(wave: *mut Wave) -> (*mut u32, *mut u32, *mut u8) {
    // SAFETY: the caller's contract; projections and `as_mut_ptr` only compute addresses.
    unsafe {
        (
            std::ptr::addr_of_mut!((*wave).sgpr).cast::<u32>(),
            (*std::ptr::addr_of_mut!((*wave).vgpr)).as_mut_ptr(),
            std::ptr::addr_of_mut!((*wave).scc).cast::<u8>(),
        )
    }
}

/// A compiled block's exits besides 0 (fall through) and 1 (taken branch): a callback stopped
/// it (`codegen::Gen::invoke`), the wave ended at s_endpgm (`Node::End`), its side exit was
/// taken (`Node::Branch` with `side`).
const STOPPED: u32 = 2;
const ENDED: u32 = 3;
const SIDE_EXIT: u32 = 4;

/// Most instructions in a block compiled with a full-EXEC variant (`codegen::build`): the
/// variant doubles the optimising compile, which for the longest blocks (f64_horner's 94
/// instructions of unrolled f64 code, 80-280 ms) would cost more in a first dispatch than
/// the variant saves.
const FULL_EXEC_VARIANT_MAX: usize = 64;

/// Most instructions in one block (bounds compile time and code size).
const MAX_BLOCK: usize = 128;

/// Code objects kept in the cache; past this the cache starts over (their code memory stays
/// allocated, see the module doc, so blocks running elsewhere are unaffected).
const MAX_PROGRAMS: usize = 256;

#[derive(Clone, Copy)]
struct Block {
    f: BlockFn,
    /// Wave-instructions to run in this block before it is compiled again at the optimising
    /// tier ([`Opt::Full`]); `u64::MAX` for a block of that tier.
    promote_at: u64,
    /// Instructions in the block (all of them run on every entry).
    len: u32,
    /// Where each exit continues: instruction index and PC (exit 0 falls through, exit 1 is a
    /// taken branch, and [`SIDE_EXIT`] the block's side exit, exit 4; exit 3, the wave ended
    /// at s_endpgm, leaves with exit 0's).
    exits: [(u32, u64); 3],
    /// Instructions run when the block leaves by its side exit (up to and with its branch).
    side_len: u32,
    /// The block has f32 arithmetic compiled for the shape's f32 controls (`Shape::fp`).
    fp32: bool,
    /// ... and f64 arithmetic for its f64 controls.
    fp64: bool,
}

/// The compiled code of one program and launch shape.
pub(crate) struct JitCode {
    prog: Program,
    shape: Shape,
    slots: Vec<OnceLock<Option<Block>>>,
    /// The block at each index compiled again by the optimising tier, once promoted.
    full: Vec<OnceLock<Option<Block>>>,
    /// Wave-instructions run in each quick block (the promotion's rent, see [`Opt`]).
    ran: Vec<AtomicU64>,
    starts: Vec<AtomicU32>,
    leaders: OnceLock<Vec<bool>>,
    /// Each instruction's region-cache slot (`select::region_slots`).
    region_slots: Vec<u8>,
    compiler: Mutex<Option<Compiler>>,
    /// The optimising tier's compiler (a cranelift module holds one set of flags).
    optimizer: Mutex<Option<Compiler>>,
    /// `disk::program_key` of `prog`, once a block is looked up on disk.
    disk_key: OnceLock<disk::Key>,
}

/// A compiled function's machine code and the alignment it needs.
type MachineCode = (Vec<u8>, u32);

/// A compiled block's entry, a copy of its machine code for `disk` (see
/// [`Compiler::compile`]) and its IR instruction count.
type Compiled = (BlockFn, Option<MachineCode>, u64);

struct Compiler {
    /// The tier this compiler serves: the optimising one also makes the full-EXEC variant of
    /// each block (`codegen::build`), worth its compile time only for hot blocks.
    opt: Opt,
    module: JITModule,
    ctx: Context,
    fctx: FunctionBuilderContext,
    /// `disk::build_key` of this module's target, once needed.
    build_key: Option<disk::Key>,
}

/// Blocks compiled and time spent compiling them, over the whole process.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CompileStats {
    /// Blocks compiled by cranelift.
    pub blocks: u64,
    /// Instructions translated to host code (in blocks compiled or loaded from disk).
    pub instructions: u64,
    /// Instructions compiled as callbacks into their interpreter handlers (`Node::Call`).
    pub callbacks: u64,
    /// Cranelift IR instructions of the blocks compiled (what a compile's time grows with).
    pub ir_insts: u64,
    /// Of `blocks`, those compiled at the optimising tier (`Opt::Full`): promoted from the
    /// quick one, or under `auto` optimised at once (`FULL_AT_ONCE_MAX_IR`).
    pub promoted: u64,
    /// Time spent compiling blocks, loading them from disk and writing them there.
    pub nanos: u64,
    /// Blocks whose code was loaded from the on-disk cache instead of compiled.
    pub disk_loads: u64,
    /// Blocks written to the on-disk cache.
    pub disk_writes: u64,
    /// Cache files found but not used (damaged, truncated, foreign), then replaced.
    pub disk_rejects: u64,
}

static BLOCKS: AtomicU64 = AtomicU64::new(0);
static INSTRUCTIONS: AtomicU64 = AtomicU64::new(0);
static CALLBACKS: AtomicU64 = AtomicU64::new(0);
static IR_INSTS: AtomicU64 = AtomicU64::new(0);
static PROMOTED: AtomicU64 = AtomicU64::new(0);
static NANOS: AtomicU64 = AtomicU64::new(0);

/// What the JIT compiled so far in this process (for benchmarks and reports).
pub fn compile_stats() -> CompileStats {
    CompileStats {
        blocks: BLOCKS.load(Relaxed),
        instructions: INSTRUCTIONS.load(Relaxed),
        callbacks: CALLBACKS.load(Relaxed),
        ir_insts: IR_INSTS.load(Relaxed),
        promoted: PROMOTED.load(Relaxed),
        nanos: NANOS.load(Relaxed),
        disk_loads: disk::LOADS.load(Relaxed),
        disk_writes: disk::WRITES.load(Relaxed),
        disk_rejects: disk::REJECTS.load(Relaxed),
    }
}

/// Whether new compilers run cranelift's IR verifier (on in debug builds).
static VERIFY: AtomicBool = AtomicBool::new(cfg!(debug_assertions));

/// Turns cranelift's IR verifier on or off for code compiled from now on (a code object's
/// compiler is made when its first block compiles). For tests of the code generator: an IR
/// error then makes the block fail to compile (it is interpreted) instead of going unnoticed.
#[doc(hidden)]
pub fn verify_ir(on: bool) {
    VERIFY.store(on, Relaxed);
}

fn host_fma() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::is_x86_feature_detected!("fma")
    }
    #[cfg(target_arch = "aarch64")]
    {
        true
    }
    #[cfg(not(any(target_arch = "x86_64", target_arch = "aarch64")))]
    {
        false
    }
}

/// The two compile tiers. A block is first compiled quickly: cranelift's single-pass register
/// allocator, which on the benchmark kernels compiles 2.5-5x faster than the backtracking one
/// (register allocation is 75% of a big block's compile time: f64_horner's 94-instruction
/// block of 30,000 IR instructions took 130 of 173 ms) for code 1.2-2x slower. A quick block
/// that keeps running is compiled again with the backtracking allocator: a rent-or-buy choice
/// like `auto`'s, made once the time estimated spent in the quick code
/// ([`NS_PER_WAVE_INST`] per wave-instruction) reaches what the optimising compile will cost,
/// taken as [`FULL_COST`] times the quick compile's own time, so a block that runs little
/// costs one cheap compile and a hot one at most about twice what it would have cost compiled
/// well at once. (With the quick compile's time itself as the point, f64_horner's big block
/// was promoted inside the first dispatch, whose remaining run saved less than the 80-100 ms
/// the second compile cost.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opt {
    Quick,
    Full,
}

/// Time per wave-instruction of quick-tier code, to estimate a block's rent: 25-40 ns on the
/// benchmark kernels (wave32, one thread; `cargo bench -p wavesim --bench kernels` CPU time
/// over wave-instructions with `jit`).
const NS_PER_WAVE_INST: u64 = 25;

/// The optimising compile's time over the quick one's: 2.5-5x on the benchmark kernels
/// (f64_horner's 94-instruction block 173-286 ms against 45-52 ms, saxpy's 12.5 against 7.7).
const FULL_COST: u64 = 4;

/// Most cranelift IR instructions (its full-EXEC variant included, `codegen::build`) of a block
/// that `auto` compiles at the optimising tier at once when it reaches
/// [`super::AUTO_THRESHOLD`] entries; a bigger one is compiled quickly first and promoted as
/// under `jit`. Blocks entered that often in the benchmark kernels mostly went on to be
/// promoted in the same dispatch, so their quick compile was spent for nothing (and cold
/// dispatches ran the quick code meanwhile); but the backtracking allocator's time grows faster than the IR on
/// the biggest blocks: f64_horner's 94 f64 instructions (30,000 IR instructions) took 240 ms
/// optimised against 42 ms quick, more than a first dispatch gains from the optimised code.
/// (docs/PERFORMANCE.md, "Stop 23: auto's tiering".)
const FULL_AT_ONCE_MAX_IR: u64 = 16_000;

/// Quick-tier compile time per cranelift IR instruction of a block (ns): the benchmark
/// kernels' first-dispatch compile times on an idle machine (docs/PERFORMANCE.md, "End of stop
/// 18") over the IR their blocks have (`CompileStats::ir_insts`, "Compile cost" of stop 19).
const QUICK_NS_PER_IR: u64 = 1_000;

/// Wave-instructions after which a quick block with `ir` cranelift IR instructions (or, loaded
/// from disk, `len` wave-instructions) is compiled again at the optimising tier. The compile
/// cost is estimated from the block's size, not measured: a measured time grows with the
/// machine's load (other processes, other compiles), and a promotion point that moves with it
/// made the same kernel run its quick code for one more or one fewer dispatch from run to run
/// (sgemm_tiled_ftz under `auto` measured 1.6x slower in one run than in another). A loaded
/// block is taken as 64 microseconds per instruction, about what quick compiles cost on the
/// benchmark kernels.
fn promotion(ir: u64, len: usize, loaded: bool) -> u64 {
    let nanos = if loaded {
        len as u64 * 64_000
    } else {
        ir.saturating_mul(QUICK_NS_PER_IR)
    };
    nanos.saturating_mul(FULL_COST) / NS_PER_WAVE_INST
}

thread_local! {
    /// Set by [`optimise_at_once`]: this thread's compiles skip the quick tier.
    static FULL_FIRST: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Makes blocks compiled from now on by this thread skip the quick tier (compiled at the
/// optimising one at once): tests of the optimised code, which a short test program would
/// otherwise never reach.
#[doc(hidden)]
pub fn optimise_at_once(on: bool) {
    FULL_FIRST.with(|f| f.set(on));
}

/// The environment variable naming a directory where every compiled block's cranelift IR
/// (`N.clif`) and machine code (`N.bin`, raw bytes: `objdump -D -b binary -m i386:x86-64`) are
/// written, numbered in compile order: for looking at what the code generator makes of a
/// kernel (profilers see compiled code only as anonymous addresses). Off when unset.
pub const DUMP_ENV: &str = "WAVESIM_JIT_DUMP";

fn dump_dir() -> Option<&'static std::path::Path> {
    static DIR: OnceLock<Option<std::path::PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| std::env::var_os(DUMP_ENV).map(Into::into))
        .as_deref()
}

/// Writes one block's IR and code to `dir` (best effort: a debugging aid, never an error).
fn dump_block(dir: &std::path::Path, clif: &str, code: &[u8]) {
    static N: AtomicU32 = AtomicU32::new(0);
    let n = N.fetch_add(1, Relaxed);
    let _ = std::fs::write(dir.join(format!("{n}.clif")), clif);
    let _ = std::fs::write(dir.join(format!("{n}.bin")), code);
}

impl Compiler {
    fn new(opt: Opt) -> Option<Compiler> {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").ok()?;
        let regalloc = match opt {
            Opt::Quick => "single_pass",
            Opt::Full => "backtracking",
        };
        flags.set("regalloc_algorithm", regalloc).ok()?;
        flags.set("use_colocated_libcalls", "false").ok()?;
        flags.set("is_pic", "false").ok()?;
        // Cranelift's IR verifier costs about a tenth of compile time (callgrind, saxpy and
        // f64_horner); the IR comes from one code generator, which the JIT's differential
        // tests run with the verifier on ([`verify_ir`]).
        let verify = if VERIFY.load(Relaxed) {
            "true"
        } else {
            "false"
        };
        flags.set("enable_verifier", verify).ok()?;
        let isa = cranelift_native::builder()
            .ok()?
            .finish(settings::Flags::new(flags))
            .ok()?;
        let module = JITModule::new(JITBuilder::with_isa(isa, default_libcall_names()));
        let ctx = module.make_context();
        Some(Compiler {
            opt,
            module,
            ctx,
            fctx: FunctionBuilderContext::new(),
            build_key: None,
        })
    }

    fn build_key(&mut self) -> disk::Key {
        *self
            .build_key
            .get_or_insert_with(|| disk::build_key(self.module.isa()))
    }

    /// Compiles `nodes`; with `portable`, also returns a copy of the machine code and its
    /// alignment if cranelift reported no relocations (the code refers to nothing outside
    /// itself, so `disk` may store it). `Some(Err(ir))`: the block's IR has `ir` instructions,
    /// more than `max_ir`, and was not compiled.
    fn compile(
        &mut self,
        nodes: &[Node],
        shape: &Shape,
        self_loop: Option<codegen::SelfLoop>,
        portable: bool,
        max_ir: u64,
    ) -> Option<Result<Compiled, u64>> {
        self.module.clear_context(&mut self.ctx);
        let target = self.module.target_config();
        codegen::signature(&mut self.ctx.func.signature, target.pointer_type());
        codegen::build(
            &mut self.ctx.func,
            &mut self.fctx,
            nodes,
            shape,
            target,
            env_layout(),
            self_loop,
            self.opt == Opt::Full && nodes.len() <= FULL_EXEC_VARIANT_MAX,
            self.opt == Opt::Full,
        );
        let ir = self.ctx.func.dfg.num_insts() as u64;
        if ir > max_ir {
            self.module.clear_context(&mut self.ctx);
            return Some(Err(ir));
        }
        let dump = dump_dir();
        let clif = dump.map(|_| self.ctx.func.display().to_string());
        let id = self
            .module
            .declare_anonymous_function(&self.ctx.func.signature)
            .ok()?;
        let defined = self.module.define_function(id, &mut self.ctx);
        let code = self
            .ctx
            .compiled_code()
            .filter(|c| portable && c.buffer.relocs().is_empty())
            .map(|c| (c.code_buffer().to_vec(), c.buffer.alignment));
        if let (Some(dir), Some(clif), Some(c)) = (dump, clif, self.ctx.compiled_code()) {
            dump_block(dir, &clif, c.code_buffer());
        }
        self.module.clear_context(&mut self.ctx);
        defined.ok()?;
        Some(Ok((self.finish(id)?, code, ir)))
    }

    /// Makes `code` (machine code of a block function with no relocations, from `disk`)
    /// executable in this module.
    fn load(&mut self, code: &[u8], align: u32) -> Option<BlockFn> {
        let mut sig = self.module.make_signature();
        codegen::signature(&mut sig, self.module.target_config().pointer_type());
        let id = self.module.declare_anonymous_function(&sig).ok()?;
        self.module
            .define_function_bytes(id, align.into(), code, &[])
            .ok()?;
        self.finish(id)
    }

    /// The entry of function `id`, made executable.
    fn finish(&mut self, id: cranelift_module::FuncId) -> Option<BlockFn> {
        self.module.finalize_definitions().ok()?;
        let p = self.module.get_finalized_function(id);
        // SAFETY: `p` is the entry of a function with `codegen::signature`, five pointer
        // parameters and an i32 result in the host's default calling convention, which is what
        // `extern "C"` means on the host cranelift-native targets: one `compile` just defined,
        // or code `disk` returned, which is byte for byte what `compile` produced for the same
        // key (program, shape, block start, host ISA and flags, code generator build; checked
        // against its SHA-256 when read).
        Some(unsafe { std::mem::transmute::<*const u8, BlockFn>(p) })
    }
}

impl JitCode {
    fn new(prog: &Program, shape: Shape) -> JitCode {
        let n = prog.insts.len();
        JitCode {
            prog: prog.clone(),
            shape,
            slots: (0..n).map(|_| OnceLock::new()).collect(),
            full: (0..n).map(|_| OnceLock::new()).collect(),
            ran: (0..n).map(|_| AtomicU64::new(0)).collect(),
            starts: (0..n).map(|_| AtomicU32::new(0)).collect(),
            leaders: OnceLock::new(),
            region_slots: region_slots(&prog.insts),
            compiler: Mutex::new(None),
            optimizer: Mutex::new(None),
            disk_key: OnceLock::new(),
        }
    }

    /// The instructions a block may start at: the entry of the code, branch targets, and the
    /// instruction after each branch and each instruction that ends a block. A run reaching
    /// any other instruction (the end of a scheduling quantum fell inside a block, a callback
    /// stopped one, a trap handler returned) interprets up to the next of these, so a block is
    /// compiled once per basic block, not once more for each suffix of it a run happened to
    /// enter.
    fn leaders(&self) -> &[bool] {
        self.leaders.get_or_init(|| {
            let n = self.prog.insts.len();
            let mut leader = vec![false; n];
            if let Some(l) = leader.first_mut() {
                *l = true;
            }
            for j in 0..n {
                let ends = match self.lower_at(j) {
                    Some(Node::Branch { target, .. }) => {
                        leader[target] = true;
                        true
                    }
                    Some(Node::End) => true,
                    Some(_) => false,
                    None => true,
                };
                if ends && j + 1 < n {
                    leader[j + 1] = true;
                }
            }
            leader
        })
    }

    fn lower_at(&self, j: usize) -> Option<Node> {
        let prog = &self.prog;
        let inst = &prog.insts[j];
        lower(inst, prog.pcs[j], &self.shape, &|pc| prog.index_at(pc)).or_else(|| {
            if !callable(inst) {
                return None;
            }
            let slot = *self.region_slots.get(j)?;
            if let Some(n) = sload(inst, j, slot, &self.shape) {
                return Some(n);
            }
            let fp = footprint(inst, &self.shape);
            Some(match (fp, mem_op(inst, slot, &self.shape)) {
                (Some(fp), Some(m)) => Node::Mem {
                    idx: j as u32,
                    fp,
                    m,
                },
                _ => Node::Call { idx: j as u32, fp },
            })
        })
    }

    /// Compiles the block starting at instruction `idx` (None: its first instruction is not
    /// compilable, or cranelift declined the function). At the optimising tier with `max_ir`,
    /// a block whose IR has more instructions than that is compiled at the quick tier instead
    /// (see [`FULL_AT_ONCE_MAX_IR`]).
    fn compile_at(&self, idx: usize, opt: Opt, max_ir: Option<u64>) -> Option<Block> {
        let t0 = Instant::now();
        let prog = &self.prog;
        // A block of only the epilogue (a branch to s_endpgm, the end after a loop) would cost
        // a compile and a block entry for two short instructions: interpreted instead.
        if matches!(
            prog.insts.get(idx).map(|i| i.op),
            Some(Op::S_ENDPGM | Op::S_SENDMSG)
        ) {
            return None;
        }
        let mut nodes = Vec::new();
        let mut j = idx;
        // The side exit's continuation (instruction index, PC) and the instructions run up to
        // it, once the block has one.
        let mut side = None;
        while j < prog.insts.len() && nodes.len() < MAX_BLOCK {
            let Some(mut n) = self.lower_at(j) else { break };
            j += 1;
            if let Node::Branch { target, .. } = n {
                if side.is_none() && self.skips_straight_line(j - 1, target) {
                    n = Node::Branch {
                        cond: Branch::Execz,
                        target,
                        side: true,
                    };
                    side = Some(((target as u32, prog.pcs[target]), nodes.len() as u32 + 1));
                    nodes.push(n);
                    continue;
                }
            }
            nodes.push(n);
            // s_endpgm never falls through: nothing after it belongs to the block.
            if matches!(n, Node::Branch { .. } | Node::End) {
                break;
            }
        }
        let last = nodes.last()?;
        let fall_pc = prog.pcs[j - 1] + prog.insts[j - 1].len as u64;
        let taken = match *last {
            Node::Branch { target, .. } => (target as u32, prog.pcs[target]),
            _ => (j as u32, fall_pc),
        };
        let (side_exit, side_len) = side.unwrap_or(((j as u32, fall_pc), 0));
        let dir = disk::disk_cache();
        // The block's code: loaded from disk (None), or compiled (its key, and its bytes if
        // they can be stored).
        let made = {
            let compiler = match opt {
                Opt::Quick => &self.compiler,
                Opt::Full => &self.optimizer,
            };
            let mut c = compiler.lock().ok()?;
            if c.is_none() {
                *c = Compiler::new(opt);
            }
            let c = c.as_mut()?;
            let key = dir.as_ref().map(|_| {
                let program = self.disk_key.get_or_init(|| disk::program_key(prog));
                disk::block_key(&c.build_key(), program, &self.shape, idx)
            });
            let loaded = match (&dir, &key) {
                (Some(dir), Some(key)) => match disk::load(dir, key) {
                    disk::Lookup::Code(code, align) => c.load(&code, align),
                    disk::Lookup::Missing | disk::Lookup::Rejected => None,
                },
                _ => None,
            };
            match loaded {
                Some(f) => Ok((f, None, 0)),
                None => {
                    // A branch back to the block's own start loops inside the compiled code.
                    let self_loop = (taken.0 as usize == idx).then_some(codegen::SelfLoop {
                        len: nodes.len() as u32,
                        done: std::mem::offset_of!(CallEnv, done) as i32,
                        budget: std::mem::offset_of!(CallEnv, budget) as i32,
                    });
                    let max = max_ir.unwrap_or(u64::MAX);
                    c.compile(&nodes, &self.shape, self_loop, key.is_some(), max)?
                        .map(|(f, code, ir)| (f, Some((key, code)), ir))
                }
            }
        };
        // Too big to optimise at once: the quick tier first (only the time of the IR built
        // for nothing was spent).
        let Ok((f, compiled, ir)) = made else {
            NANOS.fetch_add(t0.elapsed().as_nanos() as u64, Relaxed);
            return self.compile_at(idx, Opt::Quick, None);
        };
        let loaded = compiled.is_none();
        match compiled {
            Some((key, code)) => {
                BLOCKS.fetch_add(1, Relaxed);
                IR_INSTS.fetch_add(ir, Relaxed);
                if opt == Opt::Full {
                    PROMOTED.fetch_add(1, Relaxed);
                }
                // Written after the compiler is released (other blocks of this code may compile
                // meanwhile).
                if let (Some(dir), Some(key), Some((code, align))) = (&dir, key, code) {
                    disk::store(dir, &key, &code, align);
                }
            }
            None => {
                disk::LOADS.fetch_add(1, Relaxed);
            }
        }
        // (A `Node::Mem` counts as translated: its callback is the exception.)
        let calls = nodes
            .iter()
            .filter(|n| matches!(n, Node::Call { .. }))
            .count() as u64;
        INSTRUCTIONS.fetch_add(nodes.len() as u64 - calls, Relaxed);
        CALLBACKS.fetch_add(calls, Relaxed);
        let nanos = t0.elapsed().as_nanos() as u64;
        NANOS.fetch_add(nanos, Relaxed);
        Some(Block {
            f,
            promote_at: match opt {
                Opt::Quick => promotion(ir, nodes.len(), loaded),
                Opt::Full => u64::MAX,
            },
            len: nodes.len() as u32,
            exits: [(j as u32, fall_pc), taken, side_exit],
            side_len,
            fp32: nodes.iter().any(Node::needs_f32),
            fp64: nodes.iter().any(Node::needs_f64),
        })
    }

    /// Whether the branch at `at` to `target` becomes a side exit of the block being compiled
    /// (exit 4 when taken, the block going on when not): an `s_cbranch_execz` forward over
    /// straight-line code, every instruction of which compiles (compilers guard a divergent
    /// `if` this way; its body runs whenever a lane is active, so the wave need not leave the
    /// block to start the body's). A side exit is exactly the branch: taken, the block stores
    /// what it holds and leaves at the target as a block-ending branch would.
    fn skips_straight_line(&self, at: usize, target: usize) -> bool {
        matches!(
            self.lower_at(at),
            Some(Node::Branch {
                cond: Branch::Execz,
                ..
            })
        ) && target > at + 1
            && (at + 1..target).all(|k| {
                matches!(self.lower_at(k), Some(n) if !matches!(n, Node::Branch { .. } | Node::End))
            })
    }

    /// The block at `idx`, compiled now if it is not yet. `hot`: it was entered
    /// [`super::AUTO_THRESHOLD`] times already (`auto`), so it is compiled at the optimising
    /// tier at once unless it is big (see [`FULL_AT_ONCE_MAX_IR`]); else (`jit`, which
    /// compiles on first entry and knows nothing yet of how often a block runs) at the quick
    /// tier.
    fn block(&self, idx: usize, hot: bool) -> Option<Block> {
        let (opt, max_ir) = match (FULL_FIRST.with(|f| f.get()), hot) {
            (true, _) => (Opt::Full, None),
            (false, true) => (Opt::Full, Some(FULL_AT_ONCE_MAX_IR)),
            (false, _) => (Opt::Quick, None),
        };
        *self
            .slots
            .get(idx)?
            .get_or_init(|| self.compile_at(idx, opt, max_ir))
    }

    /// `block`, the block compiled at `idx`, or the optimising tier's once it is there.
    #[inline(always)]
    fn current<'a>(&'a self, idx: usize, block: &'a Block) -> &'a Block {
        if block.promote_at != u64::MAX {
            if let Some(Some(full)) = self.full.get(idx).and_then(OnceLock::get) {
                return full;
            }
        }
        block
    }

    /// The block [`Tier::step`] would run at `idx` when it is compiled already (it need not
    /// count or compile anything first); None if it is not yet, or cannot be.
    #[inline(always)]
    fn compiled(&self, idx: usize) -> Option<&Block> {
        let b = self.slots.get(idx)?.get()?.as_ref()?;
        Some(self.current(idx, b))
    }

    /// The quick block at `idx` ran `insts` more wave-instructions: compiles it at the
    /// optimising tier once they add up to its promotion point. None until then (or if
    /// cranelift declined it: the quick block stays).
    #[cold]
    fn promote(&self, idx: usize, quick: &Block, insts: u64) -> Option<Block> {
        let ran = self.ran.get(idx)?.fetch_add(insts, Relaxed) + insts;
        if ran < quick.promote_at {
            return None;
        }
        *self
            .full
            .get(idx)?
            .get_or_init(|| self.compile_at(idx, Opt::Full, None))
    }
}

impl Drop for JitCode {
    fn drop(&mut self) {
        for compiler in [&mut self.compiler, &mut self.optimizer] {
            if let Ok(c) = compiler.get_mut() {
                if let Some(c) = c.take() {
                    // SAFETY: every function these modules compiled is reachable only through
                    // `self.slots` and `self.full` (a `Block` is used only for a call made
                    // through a `Tier`, which holds an `Arc` to this `JitCode`), so none can
                    // run or be called after this point.
                    unsafe { c.module.free_memory() };
                }
            }
        }
    }
}

/// The bucket of `prog` in the cache. Only a bucket: `code_for` compares every instruction of
/// the programs in it (`same`), so the hash needs to spread programs, not resist an adversary.
/// A multiply-rotate hash (the Firefox/rustc "FxHash" step) over one word per field: a run_asm
/// call looks its code up every dispatch, and SipHash (`DefaultHasher`) over every instruction
/// was most of that lookup.
fn cache_key(prog: &Program, shape: &Shape) -> u64 {
    let mut h = key_head(prog, shape);
    for (i, pc) in prog.insts.iter().zip(&prog.pcs) {
        h = fx(h, u64::from(i.word0) | u64::from(i.lit) << 32);
        h = fx(h, i.imm as u32 as u64 ^ pc.rotate_left(32));
    }
    h
}

/// One multiply-rotate step (the Firefox/rustc "FxHash" step) adding `v` to the hash `h`.
fn fx(h: u64, v: u64) -> u64 {
    (h.rotate_left(5) ^ v).wrapping_mul(0x517c_c1b7_2722_0a95)
}

/// What [`cache_key`] and [`seen_key`] hash first: the shape's wave size and VGPR count, the
/// program's base and length.
fn key_head(prog: &Program, shape: &Shape) -> u64 {
    let h = fx(0, u64::from(shape.wave64) | u64::from(shape.num_vgprs) << 1);
    fx(fx(h, prog.base), prog.insts.len() as u64)
}

fn same(a: &Program, b: &Program) -> bool {
    a.base == b.base && a.pcs == b.pcs && a.insts == b.insts
}

/// The process-wide cache: code objects by `cache_key`.
static CACHE: OnceLock<Mutex<HashMap<u64, Vec<Arc<JitCode>>>>> = OnceLock::new();

/// Empties the in-memory cache, so the next dispatch of any program compiles its blocks again
/// (or loads them from disk): tests of the on-disk cache. Dispatches running meanwhile keep
/// the code they hold.
#[doc(hidden)]
pub fn forget_compiled_code() {
    if let Some(c) = CACHE.get() {
        c.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }
    for s in &SEEN {
        s.store(0, Relaxed);
    }
}

/// Programs (with a wave size and VGPR count) whose compiled code a dispatch looked up
/// (`code_for`), by [`seen_key`]: one key a slot, the last that hashed there. Under `auto` a
/// dispatch of a program seen here looks its code up at once instead of interpreting
/// [`AUTO_WARMUP`] instructions first: a program that ran that long once likely will again,
/// and its blocks are compiled already. A key found here by accident (two programs alike in
/// what the key covers) costs only an early lookup: `code_for` compares every instruction.
static SEEN: [AtomicU64; 64] = [const { AtomicU64::new(0) }; 64];

/// A cheap key for [`SEEN`] (constant time: not the whole program, which `cache_key` hashes):
/// the launch shape's wave size and VGPR count, the program's base, length, and first and last
/// instructions. Never 0 (an empty slot).
fn seen_key(prog: &Program, shape: &Shape) -> u64 {
    let mut h = key_head(prog, shape);
    for i in [prog.insts.first(), prog.insts.last()]
        .into_iter()
        .flatten()
    {
        h = fx(h, u64::from(i.word0) | u64::from(i.lit) << 32);
    }
    h | 1
}

fn seen_slot(key: u64) -> &'static AtomicU64 {
    &SEEN[(key >> 58) as usize]
}

/// The process-wide cache's entry for `prog` run with `shape`.
fn code_for(prog: &Program, shape: Shape) -> Option<Arc<JitCode>> {
    let seen = seen_key(prog, &shape);
    seen_slot(seen).store(seen, Relaxed);
    let key = cache_key(prog, &shape);
    let mut map = CACHE.get_or_init(Default::default).lock().ok()?;
    let bucket = map.entry(key).or_default();
    if let Some(c) = bucket.iter().find(|c| {
        c.shape.wave64 == shape.wave64
            && c.shape.num_vgprs == shape.num_vgprs
            && c.shape.fp == shape.fp
            && same(&c.prog, prog)
    }) {
        return Some(c.clone());
    }
    let c = Arc::new(JitCode::new(prog, shape));
    bucket.push(c.clone());
    if map.len() > MAX_PROGRAMS {
        map.clear();
    }
    Some(c)
}

/// One dispatch's (or one prepared wave's) way into compiled code.
pub(crate) struct Tier<'p> {
    prog: &'p Program,
    shape: Shape,
    /// The launch MODE `shape.fp` was decoded from: a wave still holding it needs no decoding
    /// on block entry.
    mode: u32,
    threshold: u32,
    /// The cache's entry for `prog`: found at once under `jit`, under `auto` only once the
    /// dispatch has interpreted [`AUTO_WARMUP`] instructions.
    code: OnceLock<Option<Arc<JitCode>>>,
    /// Instructions interpreted before `code` is looked up (`auto`).
    warmup: AtomicU32,
}

/// Instructions a dispatch interprets under `auto` before it consults the compiled-code cache:
/// the lookup hashes and compares the whole program (microseconds), more than a tiny kernel
/// runs, and no block can reach [`super::AUTO_THRESHOLD`] entries before that anyway.
const AUTO_WARMUP: u32 = 1024;

/// A block [`Tier::entry`] found, for [`Tier::run_entry`]: held while one worker runs the first
/// turns of a workgroup's waves.
pub(crate) struct Entry<'t> {
    code: &'t Arc<JitCode>,
    block: &'t Block,
    idx: usize,
    /// This thread's region cache (`REGIONS`): valid on this thread only, as `Entry` is
    /// (a raw pointer makes it neither `Send` nor `Sync`).
    regions: *mut RegionCache,
}

impl Entry<'_> {
    /// The instruction index the block starts at.
    pub(crate) fn idx(&self) -> usize {
        self.idx
    }
}

/// Where a compiled block left the wave: the instruction index to continue at and the
/// wave-instructions it ran; or, when an instruction run through its interpreter handler stopped
/// the block, that instruction's index and its handler's result (`stop`), for the step loop to
/// handle as it handles an interpreted instruction's.
pub(crate) struct Ran {
    pub idx: usize,
    pub insts: u64,
    pub stop: Option<Result<Flow, ExecError>>,
}

impl<'p> Tier<'p> {
    /// The tier for `prog` (the kernel's code) run by waves of this size and VGPR count that
    /// start with MODE `mode`, or None for the interpreter.
    pub(crate) fn new(
        engine: Engine,
        prog: &'p Program,
        wave64: bool,
        num_vgprs: u16,
        mode: u32,
    ) -> Option<Tier<'p>> {
        let threshold = match engine {
            Engine::Interp => return None,
            Engine::Jit => 1,
            Engine::Auto => super::AUTO_THRESHOLD,
        };
        let shape = Shape {
            wave64,
            num_vgprs: num_vgprs.min(256),
            host_fma: host_fma(),
            fp: FpMode::from_mode(mode),
        };
        let tier = Tier {
            prog,
            shape,
            mode,
            threshold,
            code: OnceLock::new(),
            warmup: AtomicU32::new(0),
        };
        if engine == Engine::Jit {
            // Blocks compile when first entered (threshold 1), so a dispatch that never enters
            // compiled code (an observer watches every instruction) or leaves parts of the
            // code unreached compiles nothing it does not run.
            tier.code.get_or_init(|| code_for(prog, shape)).as_ref()?;
        } else {
            let seen = seen_key(prog, &shape);
            if seen_slot(seen).load(Relaxed) == seen {
                tier.code.get_or_init(|| code_for(prog, shape));
            }
        }
        Some(tier)
    }

    /// Counts an interpreted instruction before the cache lookup; looks the code up once
    /// [`AUTO_WARMUP`] have run. Always None: this instruction is interpreted.
    #[cold]
    #[inline(never)]
    fn warm_up(&self) -> Option<Ran> {
        if self.warmup.fetch_add(1, Relaxed) + 1 >= AUTO_WARMUP {
            self.code.get_or_init(|| code_for(self.prog, self.shape));
        }
        None
    }

    /// Runs the compiled block starting at instruction `idx` if there is one (compiling it
    /// when its time has come) and it fits in `budget` instructions, and the blocks it leads
    /// to after it (see [`Tier::run_entry`]); else None and the interpreter runs instruction
    /// `idx`. Adds the blocks' lane-instructions to `lane_insts`. `handlers` is the dispatch's
    /// handler table (`Program::handlers`, kernel first): callbacks call through it, as the
    /// step loop does. (Inlined into the step loop, the blocks' run not: most calls find no
    /// block, and an instruction interpreted under the JIT then pays no call and none of the
    /// block run's register saving.)
    #[inline(always)]
    pub(crate) fn step(
        &self,
        w: &mut Wave,
        idx: usize,
        budget: u64,
        lane_insts: &mut u64,
        ctx: &mut Ctx,
        handlers: &[Handler],
    ) -> Option<Ran> {
        let Some(found) = self.code.get() else {
            return self.warm_up();
        };
        let code = found.as_ref()?;
        let slot = code.slots.get(idx)?;
        // The block is used where it lies (a `Block` is 88 bytes; copying it twice a block
        // entry showed in saxpy's per-wave cost).
        let block: &Block = match slot.get() {
            Some(b) => b.as_ref()?,
            None => {
                Self::count(code, self.threshold, idx)?;
                slot.get()?.as_ref()?
            }
        };
        let e = Entry {
            code,
            block: code.current(idx, block),
            idx,
            regions: REGIONS.with(|c| c.get()),
        };
        self.run_stepped(&e, w, budget, lane_insts, ctx, handlers)
    }

    /// [`Tier::run_entry`] for [`Tier::step`]: not inlined into the step loop (see there),
    /// while `first_turns`, whose waves mostly start with a block, inlines it.
    #[inline(never)]
    fn run_stepped(
        &self,
        e: &Entry,
        w: &mut Wave,
        budget: u64,
        lane_insts: &mut u64,
        ctx: &mut Ctx,
        handlers: &[Handler],
    ) -> Option<Ran> {
        self.run_entry(e, w, budget, lane_insts, ctx, handlers)
    }

    /// The block starting at instruction `idx` when it is there in its final form (the
    /// optimising tier's, or a block that is promoted no further) and entering it changes
    /// nothing in the cache: what [`Tier::step`] would run there without counting, compiling
    /// or promoting anything. For running many waves' first blocks with [`Tier::run_entry`].
    pub(crate) fn entry(&self, idx: usize) -> Option<Entry<'_>> {
        let code = self.code.get()?.as_ref()?;
        let mut block: &Block = code.slots.get(idx)?.get()?.as_ref()?;
        if block.promote_at != u64::MAX {
            block = code.full.get(idx)?.get()?.as_ref()?;
        }
        Some(Entry {
            code,
            block,
            idx,
            regions: REGIONS.with(|c| c.get()),
        })
    }

    /// Runs the block of `e` on `w` if it fits in `budget` and the wave can run it (see
    /// [`Tier::step`]), then, while each exits to the next without a stop, the block it exits
    /// to, if that one is compiled already (what [`Tier::step`] would run there without
    /// counting or compiling anything) and fits the budget left: the step loop's own next
    /// iterations, without returning to it (a block entry through the step loop cost ~160
    /// host instructions, most of mandelbrot's loop being short blocks). The result is the
    /// sum of what the step loop would have got from the blocks one by one: instructions
    /// run, the last block's exit (or the stopping instruction and its result), `w.pc` set
    /// as it sets it; the wave's instruction count is left for the caller to add, as after
    /// one block. `e.regions` is this thread's region cache.
    #[inline(always)]
    pub(crate) fn run_entry(
        &self,
        e: &Entry,
        w: &mut Wave,
        budget: u64,
        lane_insts: &mut u64,
        ctx: &mut Ctx,
        handlers: &[Handler],
    ) -> Option<Ran> {
        let (code, mut block, mut idx) = (e.code, e.block, e.idx);
        if block.len as u64 > budget {
            return None;
        }
        let shape = &code.shape;
        // The compiled code indexes VGPR rows below `num_vgprs` and lanes below 64.
        if w.wave64 != shape.wave64 || w.vgpr.len() < shape.num_vgprs as usize * LANES {
            return None;
        }
        if !self.fp_fits(block, w) {
            return None;
        }
        // The one raw pointer to the wave: compiled code's register pointers and the callback's
        // `&mut Wave` are all derived from it, and `w` is not used until the blocks return.
        let wave: *mut Wave = w;
        // SAFETY: `wave` comes from the exclusive borrow `w` (see `register_pointers`).
        let (sgpr, vgpr, scc) = unsafe { register_pointers(wave) };
        let c = e.regions;
        let ctx: *mut Ctx<'static> = std::ptr::from_mut(ctx).cast();
        // SAFETY: `ctx` is the exclusive borrow just turned into the raw pointer the callbacks
        // use too; compiled code reads and writes the LDS bytes only between callbacks, as it
        // does the registers. (No handler resizes the LDS: it is sized for the workgroup.)
        let lds: *mut [u8] = unsafe { std::ptr::addr_of_mut!(*(*ctx).lds) };
        let (lds_ptr, lds_len) = (lds.cast::<u8>(), lds.len() as u64);
        // SAFETY: as above.
        let base = unsafe { (*wave).wave_insts };
        let mut env = CallEnv {
            callback: call,
            done: 0,
            budget,
            wave,
            ctx,
            code: Arc::as_ptr(code),
            start: idx,
            base_insts: base,
            stop: None,
            handlers,
            lookup: region_lookup,
            // SAFETY: `c` is this thread's cache (`REGIONS`), used by nothing else while the
            // blocks run; its epoch is checked before each block below.
            regions: unsafe { std::ptr::addr_of_mut!((*c).slots) },
            lds_ptr,
            lds_len,
            // SAFETY: a projection of the raw wave pointer, like `register_pointers`.
            cnt: unsafe { std::ptr::addr_of_mut!((*wave).cnt) },
            trans: super::select::trans_lanes,
            // SAFETY: as `cnt`.
            status: unsafe { std::ptr::addr_of_mut!((*wave).hw.status) },
        };
        // Instructions run by the blocks before the current one.
        let mut total = 0u64;
        loop {
            // SAFETY: as `env.regions`. A callback of an earlier block may have changed the
            // memory's regions.
            unsafe {
                let epoch = (*ctx).mem.epoch();
                if (*c).epoch != epoch {
                    *c = RegionCache {
                        epoch,
                        slots: [EMPTY; SLOTS],
                    };
                }
            }
            // SAFETY: `block.f` was compiled by `codegen` from nodes `select` validated for
            // this shape: it reads and writes only sgpr[0..128] (operand codes below 128), VGPR
            // rows below `shape.num_vgprs` (checked above against the wave's register file, 64
            // lanes a row), the byte of `scc` (only ever storing 0 or 1, the two valid `bool`
            // values, that it computed with compares or loaded from there) and `lane_insts`,
            // and passes `env` to `call`, having stored what it holds (or, for a call with a
            // footprint, every register the handler reads or writes), so the handler sees what
            // it uses. The wave, context and counter are exclusively borrowed for the call, and
            // the code memory lives as long as `code`.
            let exit = unsafe { (block.f)(sgpr, vgpr, scc, lane_insts, &mut env) };
            let (run, stop, (next, pc)) = match exit {
                STOPPED => {
                    // SAFETY: the callbacks' `&mut Wave` is dead; `wave` is `w`'s.
                    unsafe { (*wave).wave_insts = base };
                    let (at, r) = env.stop?;
                    return Some(Ran {
                        idx: at,
                        insts: total + env.done + (at - idx + 1) as u64,
                        stop: Some(r),
                    });
                }
                // s_endpgm's PC is that of the next instruction, as the step loop sets it.
                ENDED => (block.len, Some(Ok(Flow::End)), block.exits[0]),
                SIDE_EXIT => (block.side_len, None, block.exits[2]),
                e => (block.len, None, block.exits[(e & 1) as usize]),
            };
            let insts = env.done + run as u64;
            if block.promote_at != u64::MAX {
                code.promote(idx, block, insts);
            }
            total += insts;
            let next = next as usize;
            // (The next block is looked up only when there is no stop: s_endpgm ends most
            // waves' last block, and the lookup there cost saxpy's wave 12 host instructions,
            // callgrind.)
            let chained = match stop {
                None => code.compiled(next).filter(|b| {
                    // SAFETY: as the STOPPED arm; a shared borrow for the check only.
                    b.len as u64 <= budget - total && self.fp_fits(b, unsafe { &*wave })
                }),
                Some(_) => None,
            };
            let Some(b) = chained else {
                // SAFETY: as the STOPPED arm. The callbacks of the blocks after the first
                // counted from `base + total` (`env.base_insts`); the caller adds `total`.
                unsafe {
                    (*wave).wave_insts = base;
                    (*wave).pc = pc;
                }
                return Some(Ran {
                    idx: next,
                    insts: total,
                    stop,
                });
            };
            (block, idx) = (b, next);
            env.done = 0;
            env.budget = budget - total;
            env.start = idx;
            env.base_insts = base + total;
        }
    }

    /// Whether `w` can run `block`'s float code: compiled for the launch MODE's float
    /// controls, a block is interpreted by a wave that changed them (s_setreg,
    /// s_denorm_mode, s_round_mode). (A wave still holding the launch MODE has `shape.fp` by
    /// construction.)
    #[inline(always)]
    fn fp_fits(&self, block: &Block, w: &Wave) -> bool {
        !(block.fp32 || block.fp64) || w.hw.mode == self.mode || self.fp_fits_changed(block, w)
    }

    /// [`Tier::fp_fits`] for a wave whose MODE is not the launch's.
    #[cold]
    #[inline(never)]
    fn fp_fits_changed(&self, block: &Block, w: &Wave) -> bool {
        let fp = FpMode::of(w);
        let shape = &self.shape;
        // (MODE.IEEE too: v_min/v_max compile for the launch's.)
        !((block.fp32 && fp.f32 != shape.fp.f32)
            || (block.fp64 && fp.f64 != shape.fp.f64)
            || fp.ieee != shape.fp.ieee)
    }

    /// Counts a start of the block at `idx`; compiles it once it has started often enough.
    #[cold]
    fn count(code: &JitCode, threshold: u32, idx: usize) -> Option<Block> {
        if !*code.leaders().get(idx)? {
            // Never a block start: interpreted from now on without asking again.
            return *code.slots.get(idx)?.get_or_init(|| None);
        }
        let n = code.starts.get(idx)?.fetch_add(1, Relaxed) + 1;
        if n < threshold {
            return None;
        }
        code.block(idx, threshold > 1)
    }
}

/// Whether the JIT compiles `inst` at `pc` for waves starting with MODE `mode` (branches only
/// when their target is known; tests).
#[doc(hidden)]
pub fn compilable(inst: &Inst, pc: u64, wave64: bool, num_vgprs: u16, mode: u32) -> bool {
    let shape = Shape {
        wave64,
        num_vgprs,
        host_fma: host_fma(),
        fp: FpMode::from_mode(mode),
    };
    lower(inst, pc, &shape, &|_| None).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Three `v_add_nc_u32_e32 v4, v0, v1` (RDNA3 ISA 7.3, VOP2: opcode 37, VSRC1 bits 9-16,
    /// VDST bits 17-24, SRC0 256 + n for VGPR n) and `s_endpgm` (SOPP opcode 48).
    fn code() -> JitCode {
        let add = (37u32 << 25 | 4 << 17 | 1 << 9 | 256).to_le_bytes();
        let end = 0xbfb0_0000u32.to_le_bytes();
        let bytes: Vec<u8> = [add, add, add, end].concat();
        let prog = Program::new(&bytes, 0).expect("decodes");
        let shape = Shape {
            wave64: false,
            num_vgprs: 8,
            host_fma: host_fma(),
            fp: FpMode::from_mode(0xf0),
        };
        JitCode::new(&prog, shape)
    }

    /// `auto`'s hot block is optimised at once; `jit`'s first compile is the quick tier's,
    /// promoted later.
    #[test]
    fn a_hot_block_is_optimised_at_once_and_a_first_entry_compiles_quickly() {
        let hot = code().block(0, true).expect("compiles");
        assert_eq!(hot.promote_at, u64::MAX, "optimising tier at once");
        assert_eq!(hot.len, 4);
        let first = code().block(0, false).expect("compiles");
        assert_ne!(first.promote_at, u64::MAX, "quick tier, to be promoted");
        assert_eq!(first.len, 4);
    }

    /// Under `auto` a new program is interpreted before its code is looked up; a dispatch of
    /// one whose code was looked up before (with this wave size and VGPR count) looks it up at
    /// once.
    #[test]
    fn auto_looks_the_code_of_a_program_seen_before_up_at_once() {
        // Four `v_sub_nc_u32_e32 v5, v1, v2` (opcode 38; no other test runs this program) and
        // `s_endpgm`.
        let sub = (38u32 << 25 | 5 << 17 | 2 << 9 | 257).to_le_bytes();
        let end = 0xbfb0_0000u32.to_le_bytes();
        let bytes: Vec<u8> = [sub, sub, sub, sub, end].concat();
        let prog = Program::new(&bytes, 0).expect("decodes");
        let first = Tier::new(Engine::Auto, &prog, false, 12, 0xf0).expect("auto");
        assert!(
            first.code.get().is_none(),
            "a new program: the warm-up first"
        );
        for _ in 0..AUTO_WARMUP {
            assert!(first.warm_up().is_none());
        }
        assert!(first.code.get().is_some(), "looked up after the warm-up");
        let again = Tier::new(Engine::Auto, &prog, false, 12, 0xf0).expect("auto");
        assert!(again.code.get().is_some(), "seen: looked up at once");
        let other = Tier::new(Engine::Auto, &prog, true, 12, 0xf0).expect("auto");
        assert!(other.code.get().is_none(), "another wave size: not seen");
    }

    /// A block bigger than the limit given to the optimising tier is compiled quickly instead.
    #[test]
    fn a_block_over_the_ir_limit_is_compiled_quickly_first() {
        let c = code();
        let small = c
            .compile_at(0, Opt::Full, Some(u64::MAX))
            .expect("compiles");
        assert_eq!(small.promote_at, u64::MAX);
        let big = c.compile_at(0, Opt::Full, Some(10)).expect("compiles");
        assert_ne!(big.promote_at, u64::MAX, "quick tier");
        assert_eq!(big.len, 4);
    }
}
