//! wavesim: run real AMD RDNA3 (gfx11) kernels on the CPU with the hardware's exact results.
//!
//! The Rust API: a [`Device`] owns a sandboxed device address space; [`Device::load`] maps a code
//! object into it; [`Device::dispatch`] runs one of its kernels over a grid with the arguments
//! given as [`Arg`]s (hidden arguments are filled in automatically). [`run_specs`] does the same
//! from the CLI's argument spec language (`u32:5`, `buf:in.bin:out.bin`, `zeros:N`, `local:N`).
//!
//! ```no_run
//! use wavesim::{Arg, Device, Geometry};
//! let mut dev = Device::new();
//! let module = dev.load(&std::fs::read("examples/saxpy.hsaco")?)?;
//! let n = 1000u32;
//! let x = dev.alloc_with(&vec![0u8; 4 * n as usize])?;
//! let y = dev.alloc_with(&vec![0u8; 4 * n as usize])?;
//! let geo = Geometry::new(&[n], &[256])?;
//! dev.dispatch(&module, "saxpy", &geo, &[n.into(), 2.0f32.into(), Arg::Buffer(x), Arg::Buffer(y)])?;
//! let out = dev.read_vec(y, 4 * n as u64)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

pub mod capi;
pub mod spec;
pub mod target;

pub use spec::{parse_spec, ArgSpec};
pub use target::Isa;
/// The AGX back end (SIMD-group executor, Mesa's asahi ABI runners, the TOML runner, disassembly
/// and assembly in applegpu's syntax).
pub use wavesim_agx as agx;
pub use wavesim_core::limits;
pub use wavesim_core::memory::{DeviceMemory, MemError};
/// The R700 back end (shaders, the TOML runner, disassembly and assembly).
pub use wavesim_r700 as r700;
/// RDNA3 graphics: draws (VS, host rasteriser, PS, exports to images), PAL objects, single
/// graphics-stage waves.
pub use wavesim_rdna3::gfx;
/// The magic an offload bundle starts with.
pub use wavesim_rdna3::hsa::bundle::{BUNDLE_MAGIC, COMPRESSED_BUNDLE_MAGIC};

/// Draws the scene a TOML file describes (see `wavesim_rdna3::gfx::scene::DrawSpec`); returns the
/// PNG of every render target. What `wavesim draw` runs.
pub fn draw_scene_file(path: &std::path::Path) -> Result<Vec<Vec<u8>>, Error> {
    let (_, pngs) = wavesim_rdna3::gfx::scene::draw_scene_file(path)
        .map_err(|e| Error::Args(format!("{}: {e}", path.display())))?;
    Ok(pngs)
}
/// The memory a paused R700 or AGX run lends a step debugger ([`Observer::pause_mem`]).
pub use wavesim_core::observe::{MemoryView, StopRule};
pub use wavesim_rdna3::codeobj::{
    CodeObject, CodeObjectError, KernArg, Kernel, KernelDescriptor, ValueKind,
};
/// The step API (see [`Device::debug`]).
pub use wavesim_rdna3::debug::{Debugger, Event as DebugEvent};
pub use wavesim_rdna3::dispatch::{
    DispatchError, DispatchStats, Geometry, Location, DEFAULT_MAX_WAVE_INSTRUCTIONS, TBA_ALIGN,
};
pub use wavesim_rdna3::exec::ExecError;
pub use wavesim_rdna3::hsa::kernarg::HiddenValues;
/// The issue model and the checkers (`--check`, `--timeline`, `--stats`).
pub use wavesim_rdna3::inside;
/// How RDNA3 waves execute (`Device::cfg.engine`; see `wavesim_rdna3::jit`).
pub use wavesim_rdna3::jit::Engine;
/// Observing a dispatch instruction by instruction (see [`Device::dispatch_with_observer`]).
pub use wavesim_rdna3::trace::{
    InstLoc, NoObserver, Observer, TextTracer, TraceFilter, DEFAULT_TRACE_LIMIT,
};
/// The types an [`Observer`] is shown: the wave's registers and the decoded instruction.
pub use wavesim_rdna3::{decode::Inst, wave::Wave};

use thiserror::Error;
use wavesim_rdna3::decode::DecodeError;
use wavesim_rdna3::dispatch::ExecConfig;
use wavesim_rdna3::dispatch::TrapHandler;
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::hsa::launch::{self, DispatchSettings, LoadedCode};
use wavesim_rdna3::hsa::HsaError;

pub use wavesim_rdna3::hsa::kernarg::Arg;
pub use wavesim_rdna3::hsa::launch::{describe, DYNAMIC_STACK_BYTES, KERNARG_SLACK};
pub use wavesim_rdna3::hsa::raw::{self, ComputeResources, RawDispatch, RawError};

/// Size of the TMA data area the CLI gives a trap handler (`--trap-handler`).
pub const DEFAULT_TMA_BYTES: u64 = 256;

/// Everything that can go wrong, each with a message a user can act on.
#[derive(Debug, Error)]
pub enum Error {
    #[error(transparent)]
    CodeObject(#[from] CodeObjectError),
    #[error("unknown kernel `{name}`; the code object has: {available}")]
    UnknownKernel { name: String, available: String },
    #[error("{0}")]
    Args(String),
    #[error(transparent)]
    Dispatch(#[from] DispatchError),
    /// A memory fault and where its address lies (the buffer argument and the offset into it,
    /// or "outside every allocation").
    #[error("{error} ({place})")]
    Fault { error: DispatchError, place: String },
    #[error("memory: {0}")]
    Memory(#[from] MemError),
    #[error("code: {0}")]
    Decode(#[from] DecodeError),
    #[error("{0}")]
    Io(String),
    #[error(transparent)]
    R700Load(#[from] wavesim_r700::LoadError),
    #[error(transparent)]
    R700Decode(#[from] wavesim_r700::DecodeError),
    #[error(transparent)]
    R700Run(#[from] wavesim_r700::runner::RunError),
    #[error(transparent)]
    AgxDisasm(#[from] wavesim_agx::DisasmError),
    #[error(transparent)]
    AgxRun(#[from] wavesim_agx::runner::RunError),
    /// The raw dispatch ABI refused the registers or the kernel failed under it.
    #[error(transparent)]
    Raw(#[from] RawError),
    /// A hostcall request wavesim cannot serve (unknown service id, malformed message).
    #[error("{error}")]
    Hostcall { error: DispatchError },
    /// The kernel aborted (`s_trap 2`, as a failed `assert` does); `stdout` and `stderr` hold
    /// what it printed through hostcall before (the assertion message is on stderr).
    #[error("{error}{}", wavesim_rdna3::hsa::stderr_note(stderr))]
    Aborted {
        error: DispatchError,
        stdout: String,
        stderr: String,
    },
}

impl From<HsaError> for Error {
    /// The same variants, so that C ABI error codes stay as they were.
    fn from(e: HsaError) -> Error {
        match e {
            HsaError::CodeObject(e) => Error::CodeObject(e),
            HsaError::UnknownKernel { name, available } => Error::UnknownKernel { name, available },
            HsaError::Args(m) => Error::Args(m),
            HsaError::Dispatch(e) => Error::Dispatch(e),
            HsaError::Fault { error, place } => Error::Fault { error, place },
            HsaError::Memory(e) => Error::Memory(e),
            HsaError::Decode(e) => Error::Decode(e),
            HsaError::Hostcall { error } => Error::Hostcall { error },
            HsaError::Aborted {
                error,
                stdout,
                stderr,
            } => Error::Aborted {
                error,
                stdout,
                stderr,
            },
        }
    }
}

impl From<wavesim_core::LaunchError> for Error {
    /// A bad geometry is a bad launch, as the dispatcher reports it.
    fn from(e: wavesim_core::LaunchError) -> Error {
        Error::Dispatch(e.into())
    }
}

/// A code object loaded into a device.
#[derive(Debug)]
pub struct Module {
    pub code: CodeObject,
    /// Device address of the image (ELF virtual address 0).
    pub base: u64,
    prog: Program,
    device_id: u64,
}

impl Module {
    /// The decoded code of the object (the padding check and the debugger read it).
    pub fn program(&self) -> &Program {
        &self.prog
    }

    /// The kernel `name`: its symbol name (`_Z5saxpyifPKfPf`), its demangled name (`saxpy`,
    /// `ns::saxpy`) or its demangled signature (`saxpy(int, float, float const*, float*)`).
    /// Unknown names list the kernels there are; ambiguous ones list the candidates.
    pub fn kernel(&self, name: &str) -> Result<&Kernel, Error> {
        find_kernel(&self.code, name)
    }
}

// ---- Kernel names: C++ (HIP) kernels by demangled name (issue 15) ----

/// The demangled signature of an Itanium-mangled symbol (`_Z5saxpyifPKfPf` is
/// `saxpy(int, float, float const*, float*)`), or `None` for a C name.
pub fn demangle(symbol: &str) -> Option<String> {
    if !symbol.starts_with("_Z") {
        return None;
    }
    cpp_demangle::Symbol::new(symbol)
        .ok()?
        .demangle(&cpp_demangle::DemangleOptions::default())
        .ok()
}

/// A demangled signature's qualified name without parameters or template arguments:
/// `ns::saxpy` for `ns::saxpy(float*)`, `scale` for `void scale<float>(float*)`.
fn demangled_base(sig: &str) -> &str {
    // Cut at the parameter list or template argument list that follows the name.
    let end = sig.find(['(', '<']).unwrap_or(sig.len());
    let head = &sig[..end];
    // A template's return type comes first (`void scale<float>(...)`).
    head.rsplit(' ').next().unwrap_or(head)
}

/// Finds kernel `name` in `code` (see [`Module::kernel`]).
pub fn find_kernel<'a>(code: &'a CodeObject, name: &str) -> Result<&'a Kernel, Error> {
    if let Some(k) = code.kernel(name) {
        return Ok(k);
    }
    let matches: Vec<&Kernel> = code
        .kernels
        .iter()
        .filter(|k| {
            demangle(&k.name).is_some_and(|sig| {
                let base = demangled_base(&sig);
                sig == name || base == name || base.rsplit("::").next() == Some(name)
            })
        })
        .collect();
    let describe = |k: &Kernel| match demangle(&k.name) {
        Some(sig) => format!("{sig} [{}]", k.name),
        None => k.name.clone(),
    };
    match matches.as_slice() {
        [k] => Ok(k),
        [] => Err(Error::UnknownKernel {
            name: name.to_string(),
            available: code
                .kernels
                .iter()
                .map(describe)
                .collect::<Vec<_>>()
                .join(", "),
        }),
        many => Err(Error::Args(format!(
            "kernel name `{name}` is ambiguous; give one of: {}",
            many.iter()
                .map(|k| describe(k))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

/// Where an installed trap handler lives in device memory (see
/// [`Device::install_trap_handler`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TrapAddrs {
    /// TBA: the handler's first instruction.
    pub tba: u64,
    /// TMA: the handler's zero-initialised data area (0 when `tma_size` is 0).
    pub tma: u64,
    pub tma_size: u64,
}

/// The trap handler a device's dispatches use: its code decoded once.
#[derive(Debug)]
struct InstalledTrap {
    addrs: TrapAddrs,
    prog: Program,
}

/// A sandboxed device: memory plus dispatch settings.
#[derive(Debug)]
pub struct Device {
    mem: DeviceMemory,
    /// Host threads running workgroups (1: in order on the calling thread). Starts at
    /// [`wavesim_core::engine::default_threads`]: every core, or `WAVESIM_THREADS`.
    pub threads: usize,
    /// Watchdog: most instructions one wave may execute.
    pub max_wave_instructions: u64,
    /// Instruction behaviour settings (SH_MEM_CONFIG alignment mode).
    pub cfg: ExecConfig,
    /// OpenCL global work offset applied to dispatches.
    pub global_offset: [u64; 3],
    /// Dynamic shared memory bytes (HIP's `extern __shared__`, the launch's `sharedMemBytes`):
    /// added to the workgroup's LDS after the static and `__local` argument LDS, and given to the
    /// kernel in `hidden_dynamic_lds_size`.
    pub dynamic_shared: u32,
    printf: String,
    stderr: String,
    id: u64,
    dispatches: u64,
    trap: Option<InstalledTrap>,
}

/// The [`DispatchSettings`] of a [`Device`] for its next dispatch on `threads` host threads. A
/// macro, not a method: the settings borrow the device's fields one by one, so the dispatch can
/// still borrow its memory mutably.
macro_rules! dispatch_settings {
    ($dev:expr, $threads:expr) => {
        DispatchSettings {
            dynamic_shared: $dev.dynamic_shared,
            threads: $threads,
            max_wave_insts: $dev.max_wave_instructions,
            cfg: &$dev.cfg,
            global_offset: $dev.global_offset,
            dispatch_id: $dev.dispatches,
            trap: $dev.trap.as_ref().map(|t| TrapHandler {
                prog: &t.prog,
                tba: t.addrs.tba,
                tma: t.addrs.tma,
            }),
        }
    };
}

impl Default for Device {
    fn default() -> Self {
        Device::new()
    }
}

impl Device {
    pub fn new() -> Device {
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        Device {
            mem: DeviceMemory::new(),
            threads: wavesim_core::engine::default_threads(),
            max_wave_instructions: DEFAULT_MAX_WAVE_INSTRUCTIONS,
            cfg: ExecConfig::default(),
            global_offset: [0; 3],
            dynamic_shared: 0,
            printf: String::new(),
            stderr: String::new(),
            id: NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed),
            dispatches: 0,
            trap: None,
        }
    }

    /// Installs a trap handler for the dispatches that follow, as a driver does for its process:
    /// `code` (raw gfx11 machine code, entry at its first byte) is copied into device memory at
    /// TBA (256-byte aligned) and `tma_size` zeroed bytes are allocated at TMA. Every wave then
    /// starts with STATUS.TRAP_EN set, so `s_trap`, memory violations, illegal instructions and
    /// the floating-point exceptions the kernel enables in MODE.EXCP_EN run the handler (in
    /// privileged mode, TTMP0/1 holding the PC and trap ID) instead of ending the dispatch or,
    /// for `s_trap`, doing nothing. The handler reads TBA/TMA with `s_sendmsg_rtn_b64` and
    /// returns with `s_rfe_b64`. A handler installed before is removed.
    pub fn install_trap_handler(&mut self, code: &[u8], tma_size: u64) -> Result<TrapAddrs, Error> {
        if code.is_empty() || !code.len().is_multiple_of(4) {
            return Err(Error::Args(format!(
                "a trap handler is whole instruction dwords; got {} bytes",
                code.len()
            )));
        }
        self.remove_trap_handler()?;
        let tba = self.mem.alloc(code.len() as u64, TBA_ALIGN)?;
        let installed = (|| {
            self.mem.write(tba, code)?;
            let prog = Program::new(code, tba)?;
            let tma = if tma_size == 0 {
                0
            } else {
                self.mem.alloc(tma_size, 256)?
            };
            Ok::<_, Error>(InstalledTrap {
                addrs: TrapAddrs { tba, tma, tma_size },
                prog,
            })
        })();
        match installed {
            Ok(t) => {
                let addrs = t.addrs;
                self.trap = Some(t);
                Ok(addrs)
            }
            Err(e) => {
                let _ = self.mem.free(tba);
                Err(e)
            }
        }
    }

    /// Removes the trap handler (freeing its code and TMA), if one is installed.
    pub fn remove_trap_handler(&mut self) -> Result<(), Error> {
        if let Some(t) = self.trap.take() {
            self.mem.free(t.addrs.tba)?;
            if t.addrs.tma != 0 {
                self.mem.free(t.addrs.tma)?;
            }
        }
        Ok(())
    }

    /// Where the installed trap handler lives, if one is installed.
    pub fn trap_handler(&self) -> Option<TrapAddrs> {
        self.trap.as_ref().map(|t| t.addrs)
    }

    /// The device memory (for reads and writes while no dispatch runs).
    pub fn memory(&self) -> &DeviceMemory {
        &self.mem
    }

    /// Allocates `size` zeroed bytes; returns the device address.
    pub fn alloc(&mut self, size: u64) -> Result<u64, Error> {
        limits::check_bytes("buffer size", size, limits::MAX_BUFFER_BYTES)
            .map_err(|e| Error::Args(e.to_string()))?;
        Ok(self.mem.alloc(size, 256)?)
    }

    /// Allocates a buffer holding `data`.
    pub fn alloc_with(&mut self, data: &[u8]) -> Result<u64, Error> {
        let a = self.alloc(data.len() as u64)?;
        self.mem.write(a, data)?;
        Ok(a)
    }

    pub fn free(&mut self, addr: u64) -> Result<(), Error> {
        Ok(self.mem.free(addr)?)
    }

    pub fn write(&self, addr: u64, data: &[u8]) -> Result<(), Error> {
        Ok(self.mem.write(addr, data)?)
    }

    pub fn read(&self, addr: u64, out: &mut [u8]) -> Result<(), Error> {
        Ok(self.mem.read(addr, out)?)
    }

    pub fn read_vec(&self, addr: u64, len: u64) -> Result<Vec<u8>, Error> {
        let len = usize::try_from(len).map_err(|_| Error::Io(format!("{len} bytes")))?;
        let mut v = vec![0u8; len];
        self.read(addr, &mut v)?;
        Ok(v)
    }

    /// Parses a code object and maps its image into device memory (constant tables are
    /// addressed relative to the PC, so code and data live in device memory together).
    pub fn load(&mut self, elf: &[u8]) -> Result<Module, Error> {
        let code = CodeObject::parse(elf)?;
        let base = self.mem.alloc(code.image.len().max(1) as u64, 4096)?;
        self.mem.write(base, &code.image_at(base))?;
        // RDNA3 or RDNA3.5 (gfx1150/gfx1151) from the ELF machine (EF_AMDGPU_MACH).
        let target = wavesim_rdna3::isa::Target::from_elf_mach(code.mach).unwrap_or_default();
        let prog = Program::new_for(code.text(), base + code.text_addr, target)?;
        Ok(Module {
            code,
            base,
            prog,
            device_id: self.id,
        })
    }

    /// Runs `kernel` of `module` over `geo` with `args` (one per explicit kernel argument).
    pub fn dispatch(
        &mut self,
        module: &Module,
        kernel: &str,
        geo: &Geometry,
        args: &[Arg],
    ) -> Result<DispatchStats, Error> {
        self.dispatch_with_observer(module, kernel, geo, args, &mut NoObserver)
    }

    /// [`Device::dispatch`] with `obs` called before and after every instruction every wave
    /// executes (e.g. a [`TextTracer`]). An enabled observer makes the dispatch run its
    /// workgroups one after the other on the calling thread whatever [`Device::threads`] says,
    /// so it sees them in the deterministic order of a one-thread run; results are the same as
    /// without it.
    pub fn dispatch_with_observer<O: Observer<Wave, Inst> + ?Sized>(
        &mut self,
        module: &Module,
        kernel: &str,
        geo: &Geometry,
        args: &[Arg],
        obs: &mut O,
    ) -> Result<DispatchStats, Error> {
        if module.device_id != self.id {
            return Err(Error::Args(
                "the module was loaded into a different device".into(),
            ));
        }
        let k = module.kernel(kernel)?;
        let settings = dispatch_settings!(self, self.threads);
        self.dispatches += 1;
        let code = LoadedCode {
            code: &module.code,
            base: module.base,
            prog: &module.prog,
        };
        let done = launch::dispatch(&mut self.mem, code, k, geo, args, &settings, obs)?;
        self.printf = done.printf;
        self.stderr = done.stderr;
        Ok(done.stats)
    }

    /// The text the last dispatch printed with `printf` (empty when it printed nothing), as the
    /// ROCm runtime prints it: records in the order the kernel wrote them.
    pub fn printf_output(&self) -> &str {
        &self.printf
    }

    /// What the last dispatch printed to stderr through hostcall (`fprintf(stderr, ...)`).
    pub fn stderr_output(&self) -> &str {
        &self.stderr
    }
}

impl Device {
    /// Prepares `kernel` of `module` over `geo` with `args` as [`Device::dispatch`] does and
    /// hands the dispatch to `f` as a [`Debugger`] (break, step, registers, memory, continue)
    /// instead of running it; the launch's temporaries are freed afterwards.
    pub fn debug<R>(
        &mut self,
        module: &Module,
        kernel: &str,
        geo: &Geometry,
        args: &[Arg],
        f: impl FnOnce(&mut Debugger) -> R,
    ) -> Result<R, Error> {
        if module.device_id != self.id {
            return Err(Error::Args(
                "the module was loaded into a different device".into(),
            ));
        }
        let k = module.kernel(kernel)?;
        // The debugger steps one wave at a time, in order.
        let settings = dispatch_settings!(self, 1);
        self.dispatches += 1;
        let code = LoadedCode {
            code: &module.code,
            base: module.base,
            prog: &module.prog,
        };
        Ok(
            launch::with_launch(&mut self.mem, code, k, geo, args, &settings, |l, mem| {
                let mut d = Debugger::new(l, mem)?;
                Ok(f(&mut d))
            })?
            .0,
        )
    }
}

/// Result of [`run_specs`]: the dispatch counters and the final contents of every buffer
/// argument (`None` for scalars and `local:`), in argument order.
#[derive(Debug)]
pub struct SpecRun {
    pub stats: DispatchStats,
    /// What the kernel printed with `printf`.
    pub printf: String,
    /// What the kernel printed to stderr through hostcall.
    pub stderr: String,
    pub buffers: Vec<Option<Vec<u8>>>,
}

/// Runs `kernel` with arguments in the CLI's spec language: creates the buffers (reading
/// `buf:` files relative to the working directory), dispatches, reads every buffer back. Output
/// files (`:OUT`) are not written here; see [`write_outputs`].
pub fn run_specs(
    dev: &mut Device,
    module: &Module,
    kernel: &str,
    geo: &Geometry,
    specs: &[ArgSpec],
) -> Result<SpecRun, Error> {
    run_specs_with_observer(dev, module, kernel, geo, specs, &mut NoObserver)
}

/// [`run_specs`] with an observer (see [`Device::dispatch_with_observer`]); the CLI's `--trace`.
pub fn run_specs_with_observer<O: Observer<Wave, Inst> + ?Sized>(
    dev: &mut Device,
    module: &Module,
    kernel: &str,
    geo: &Geometry,
    specs: &[ArgSpec],
    obs: &mut O,
) -> Result<SpecRun, Error> {
    // Check the kernel and the argument count before touching files.
    let k = module.kernel(kernel)?;
    let n_explicit = k.explicit_args().count();
    if n_explicit != specs.len() {
        return Err(Error::Args(format!(
            "kernel {} takes {} arguments, got {}: {}",
            k.name,
            n_explicit,
            specs.len(),
            k.signature()
        )));
    }
    let mut args = Vec::with_capacity(specs.len());
    let mut bufs: Vec<Option<(u64, u64)>> = Vec::with_capacity(specs.len());
    let mut result = Ok(());
    let mut descriptors = Vec::new();
    for (i, (s, meta)) in specs.iter().zip(k.explicit_args()).enumerate() {
        match s {
            ArgSpec::Value { ty, bytes } => {
                args.push(Arg::Value(check_value(k, i, meta, ty, bytes)?));
                bufs.push(None);
            }
            ArgSpec::Local(n) => {
                args.push(Arg::Local(*n));
                bufs.push(None);
            }
            ArgSpec::Buf { path, .. } => {
                let data = match limits::read_input_file(path) {
                    Ok(d) => d,
                    Err(e) => {
                        result = Err(Error::Io(format!("cannot read {}: {e}", path.display())));
                        break;
                    }
                };
                let a = dev.alloc_with(&data)?;
                args.push(Arg::Buffer(a));
                bufs.push(Some((a, data.len() as u64)));
            }
            ArgSpec::Zeros { size, .. } => {
                let a = dev.alloc(*size)?;
                args.push(Arg::Buffer(a));
                bufs.push(Some((a, *size)));
            }
            ArgSpec::Image { .. } => match image_arg(dev, s) {
                Ok((object, data, n)) => {
                    args.push(Arg::Image(object));
                    bufs.push(Some((data, n)));
                    descriptors.push(object);
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            },
            ArgSpec::Sampler { .. } => match sampler_arg(dev, s) {
                Ok(at) => {
                    args.push(Arg::Sampler(at));
                    bufs.push(None);
                    descriptors.push(at);
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            },
        }
    }
    let r = result.and_then(|()| dev.dispatch_with_observer(module, kernel, geo, &args, obs));
    let out = r.and_then(|stats| {
        let mut buffers = Vec::with_capacity(bufs.len());
        for (b, s) in bufs.iter().zip(specs) {
            buffers.push(match b {
                Some((a, n)) => Some(image_packed(s, dev.read_vec(*a, *n)?)),
                None => None,
            });
        }
        Ok(SpecRun {
            stats,
            printf: dev.printf_output().to_string(),
            stderr: dev.stderr_output().to_string(),
            buffers,
        })
    });
    for (a, _) in bufs.into_iter().flatten() {
        let _ = dev.free(a);
    }
    for a in descriptors {
        let _ = dev.free(a);
    }
    out
}

/// An image argument's bytes read back from device memory with the rows packed again (other
/// arguments' bytes unchanged).
fn image_packed(spec: &ArgSpec, bytes: Vec<u8>) -> Vec<u8> {
    use wavesim_rdna3::exec::image::{host, resource};
    match spec {
        ArgSpec::Image {
            format,
            width,
            height,
            ..
        } => match host::host_format(format) {
            Ok(f) => resource::LinearLayout::new(*width, *height, 1, f.texel_bytes, None)
                .packed_level0(*width, &bytes),
            Err(_) => bytes,
        },
        _ => bytes,
    }
}

/// Places a `sampler:` argument's 128-bit S# in device memory; returns its address.
fn sampler_arg(dev: &mut Device, spec: &ArgSpec) -> Result<u64, Error> {
    let ArgSpec::Sampler {
        normalized,
        addressing,
        linear,
    } = spec
    else {
        return Err(Error::Args("not a sampler argument".into()));
    };
    let s = wavesim_rdna3::exec::image::host::opencl_sampler(*normalized, addressing, *linear)
        .map_err(Error::Args)?;
    let bytes: Vec<u8> = s.iter().flat_map(|w| w.to_le_bytes()).collect();
    dev.alloc_with(&bytes)
}

/// Places an `image:` argument in device memory: its texels (from the file, a PNG decoded, or
/// zeros) and the 48-byte OpenCL image object (256-bit T#, channel type, order, width; see
/// `exec::image::resource::opencl_image_object`). Returns (object, texels, texel bytes).
fn image_arg(dev: &mut Device, spec: &ArgSpec) -> Result<(u64, u64, u64), Error> {
    use wavesim_rdna3::exec::image::{host, resource};
    let ArgSpec::Image {
        format,
        width,
        height,
        path,
        ..
    } = spec
    else {
        return Err(Error::Args("not an image argument".into()));
    };
    let f = host::host_format(format).map_err(Error::Args)?;
    let n = host::host_image_bytes(&f, *width, *height);
    let texels = match path {
        None => vec![0u8; n as usize],
        Some(p) => {
            let bytes = limits::read_input_file(p)
                .map_err(|e| Error::Io(format!("cannot read {}: {e}", p.display())))?;
            if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("png")) {
                host::png_to_texels(&f, *width, *height, &bytes)
                    .map_err(|e| Error::Args(format!("{}: {e}", p.display())))?
            } else if bytes.len() as u64 != n {
                return Err(Error::Args(format!(
                    "{}: a {width}x{height} {format} image takes {n} bytes, the file has {}",
                    p.display(),
                    bytes.len()
                )));
            } else {
                bytes
            }
        }
    };
    // The file's rows are packed; device memory holds the linear layout (rows padded to 256
    // bytes); the read-back packs them again (`image_packed`).
    let layout = resource::LinearLayout::new(*width, *height, 1, f.texel_bytes, None);
    let data = dev.alloc_with(&layout.from_packed_level0(*width, &texels))?;
    let t = resource::image_descriptor(data, f.format, *width, *height, 1);
    let object: Vec<u8> = resource::opencl_image_object(t, f.cl_type, f.cl_order, *width)
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    match dev.alloc_with(&object) {
        Ok(o) => Ok((o, data, layout.slice_bytes)),
        Err(e) => {
            let _ = dev.free(data);
            Err(e)
        }
    }
}

// ---- By-value arguments checked against the kernel's metadata (issue 15) ----

/// Checks a by-value spec against the kernel's argument `meta` (its `.size` and, for OpenCL, its
/// `.type_name`) and returns the bytes to place at its offset. A float given for an integer, a
/// float or integer of another width or lane count, a value out of range for the argument's
/// type, or a size that differs is an error before the run. An integer given for a float is its
/// raw bits. A 3-lane vector is padded to the 4-lane size OpenCL gives it.
pub fn check_value(
    k: &Kernel,
    index: usize,
    meta: &KernArg,
    ty: &spec::ValueType,
    bytes: &[u8],
) -> Result<Vec<u8>, Error> {
    use spec::ElemKind;
    let c_type = meta.type_name.as_deref().unwrap_or("");
    let bad = |why: String| {
        Error::Args(format!(
            "argument {} ({}{}) of {}: {why}",
            index + 1,
            meta.name.as_deref().unwrap_or("unnamed"),
            if c_type.is_empty() {
                String::new()
            } else {
                format!(", {c_type}")
            },
            k.signature()
        ))
    };
    if meta.kind != ValueKind::ByValue {
        return Err(bad(format!(
            "is {}; got a {}-byte value",
            wavesim_rdna3::hsa::kernarg::describe_kind(meta),
            bytes.len()
        )));
    }
    let mut out = bytes.to_vec();
    if let Some(want) = spec::ValueType::from_c_type(c_type) {
        if ty.kind != ElemKind::Bytes {
            let is_float = |k: ElemKind| k == ElemKind::Float;
            // An integer spec for a floating-point argument gives its raw bits (as `f32:0x...`
            // does); every other mismatch of kind, width or lane count is an error.
            let raw_bits = !is_float(ty.kind) && is_float(want.kind);
            if !raw_bits
                && (is_float(ty.kind) != is_float(want.kind)
                    || ty.elem_bytes != want.elem_bytes
                    || ty.lanes != want.lanes)
            {
                return Err(bad(format!(
                    "expects {} ({}:...), got {}",
                    c_type,
                    want.spec_name(),
                    ty.spec_name()
                )));
            }
            // Same width, other signedness: the value must fit the argument's type.
            if !raw_bits && ty.kind != want.kind {
                let w = want.elem_bytes as usize;
                for lane in out.chunks(w) {
                    let mut v = [0u8; 8];
                    v[..w].copy_from_slice(lane);
                    let raw = u64::from_le_bytes(v);
                    let top = raw >> (w * 8 - 1) & 1 == 1;
                    if top {
                        return Err(bad(format!(
                            "{} is out of range for {c_type}",
                            if want.kind == ElemKind::Unsigned {
                                "a negative value"
                            } else {
                                "the value"
                            }
                        )));
                    }
                }
            }
            // OpenCL: a 3-component vector occupies the size of a 4-component one.
            if want.lanes == 3 && !raw_bits {
                out.resize(meta.size as usize, 0);
            }
        }
    }
    if out.len() != meta.size as usize {
        return Err(bad(format!(
            "is a {}-byte value; got {} bytes ({})",
            meta.size,
            out.len(),
            ty.spec_name()
        )));
    }
    Ok(out)
}

/// Writes the buffers whose spec names an output file.
pub fn write_outputs(specs: &[ArgSpec], run: &SpecRun) -> Result<(), Error> {
    for (s, b) in specs.iter().zip(&run.buffers) {
        if let (Some(out), Some(bytes)) = (s.output(), b) {
            let png;
            let bytes = match s {
                ArgSpec::Image {
                    format,
                    width,
                    height,
                    ..
                } if out
                    .extension()
                    .is_some_and(|e| e.eq_ignore_ascii_case("png")) =>
                {
                    use wavesim_rdna3::exec::image::host;
                    let f = host::host_format(format).map_err(Error::Args)?;
                    png = host::texels_to_png(&f, *width, *height, bytes)
                        .map_err(|e| Error::Args(format!("{}: {e}", out.display())))?;
                    &png
                }
                _ => bytes,
            };
            std::fs::write(out, bytes)
                .map_err(|e| Error::Io(format!("cannot write {}: {e}", out.display())))?;
        }
    }
    Ok(())
}

/// Runs bare instruction bytes with *host* addresses (the C ABI's `run_asm`); see
/// [`wavesim_rdna3::hsa::launch::run_host_asm`].
///
/// # Safety
/// Every address the kernel touches must be valid host memory for the access, and nothing else
/// may access that memory while the kernel runs (see `DeviceMemory::host`).
pub unsafe fn run_host_asm(
    code: &[u8],
    groups: [u32; 3],
    local: [u32; 3],
    kernarg: u64,
    rsrc2: u32,
    scratch_size: u32,
    max_wave_instructions: u64,
) -> Result<DispatchStats, Error> {
    // SAFETY: forwarded to the caller (documented above).
    unsafe {
        run_host_asm_for(
            code,
            groups,
            local,
            kernarg,
            rsrc2,
            scratch_size,
            max_wave_instructions,
            wavesim_rdna3::isa::Target::Gfx1100,
        )
    }
}

/// [`run_host_asm`] for an explicit gfx11 variant (`Target::Gfx1150` runs RDNA3.5 code such as
/// the SALU float instructions; bare bytes have no e_flags to say so).
///
/// # Safety
/// As [`run_host_asm`].
#[allow(clippy::too_many_arguments)]
pub unsafe fn run_host_asm_for(
    code: &[u8],
    groups: [u32; 3],
    local: [u32; 3],
    kernarg: u64,
    rsrc2: u32,
    scratch_size: u32,
    max_wave_instructions: u64,
    target: wavesim_rdna3::isa::Target,
) -> Result<DispatchStats, Error> {
    // The refusals the raw ABI documents for RSRC2 (reserved bit 31, TRAP_PRESENT, the
    // address-watch and memory exception enables) hold for run_asm too.
    wavesim_rdna3::hsa::raw::ComputeResources::decode(0, rsrc2, 0).check()?;
    // SAFETY: forwarded to the caller (documented above).
    let r = unsafe {
        launch::run_host_asm(
            code,
            groups,
            local,
            kernarg,
            rsrc2,
            scratch_size,
            max_wave_instructions,
            target,
        )
    };
    Ok(r?)
}

/// Disassembles a code object (or the gfx11 entry of an offload bundle) the way
/// `llvm-objdump -d --mcpu=gfx1100` prints it.
pub fn disassemble(elf: &[u8]) -> Result<String, String> {
    let elf = wavesim_rdna3::hsa::bundle::code_object(elf).map_err(|e| e.to_string())?;
    wavesim_rdna3::disasm::disassemble_elf(&elf).map_err(|e| e.to_string())
}

/// Disassembles bare instruction bytes (addresses from 0).
pub fn disassemble_raw(code: &[u8], wave64: bool) -> Result<String, String> {
    wavesim_rdna3::disasm::disassemble_raw(code, wave64).map_err(|e| e.to_string())
}

/// How [`disassemble_any`] prints.
#[derive(Clone, Copy, Debug, Default)]
pub struct DisasmOptions {
    /// The ISA of bare bytes (`--target`); with an object, a check of what its header says.
    pub target: Option<Isa>,
    /// The input is bare instruction bytes, not an object.
    pub raw: bool,
    /// RDNA3 bare bytes as wave64 code.
    pub wave64: bool,
    /// R700: the lossless syntax (`; field:value` for what llc's text does not carry).
    pub full: bool,
}

/// Disassembles code for whichever back end it is for: an RDNA3 code object as
/// `llvm-objdump -d --mcpu=gfx11xx` prints it; an R700 object as `llc-19 -filetype=asm` prints
/// the program, after its chip and `.AMDGPU.config` registers by name; bare bytes of the
/// `--target` ISA.
pub fn disassemble_any(bytes: &[u8], o: &DisasmOptions) -> Result<String, Error> {
    // A clang offload bundle (hipcc --genco): its gfx11 code object.
    let unbundled;
    let bytes = if o.raw {
        bytes
    } else {
        unbundled =
            wavesim_rdna3::hsa::bundle::code_object(bytes).map_err(CodeObjectError::from)?;
        &unbundled[..]
    };
    let isa = if o.raw {
        o.target.ok_or_else(|| {
            Error::Args("bare bytes need --target (gfx1100, gfx1150, rv770, agx, ...)".into())
        })?
    } else {
        let isa = Isa::of_object(bytes)?;
        if let Some(t) = o.target {
            if std::mem::discriminant(&t) != std::mem::discriminant(&isa) {
                return Err(Error::Args(format!(
                    "--target {t:?} but the object is for {isa:?}"
                )));
            }
        }
        isa
    };
    let syntax = if o.full {
        wavesim_r700::Syntax::Full
    } else {
        wavesim_r700::Syntax::Llc
    };
    match (isa, o.raw) {
        (Isa::Rdna3(t), true) => wavesim_rdna3::disasm::disassemble_raw_for(bytes, o.wave64, t)
            .map_err(|e| Error::Args(e.to_string())),
        (Isa::Rdna3(_), false) => {
            wavesim_rdna3::disasm::disassemble_elf(bytes).map_err(|e| Error::Args(e.to_string()))
        }
        (Isa::R700(chip), true) => {
            Ok(wavesim_r700::Shader::from_raw(chip, bytes)?.disassemble(syntax))
        }
        (Isa::R700(_), false) => {
            let shader = wavesim_r700::Shader::from_object_bytes(bytes)?;
            let mut s = format!("; chip {}\n", shader.chip().name());
            for line in shader.config_text().lines() {
                s += &format!("; {line}\n");
            }
            s += &shader.disassemble(syntax);
            Ok(s)
        }
        // applegpu's `disassemble.py` layout: offset, hex bytes, text, one instruction a line, every
        // byte (code after a `stop` is listed too).
        (Isa::Agx, _) => Ok(wavesim_agx::disassemble_raw(bytes, 0)?),
    }
}

/// Runs an R700 shader object with a runner configuration (TOML: per-thread input GPRs,
/// constant buffers and file, loop constants, vertex buffers, textures and samplers, thread count
/// or pixel grid; see `wavesim_r700::runner`). The result has every thread's exports, the
/// counters, and PNG images of a grid run's pixel exports.
pub fn run_r700(
    object: &[u8],
    config_toml: &str,
) -> Result<wavesim_r700::runner::RunResult, Error> {
    let shader = wavesim_r700::Shader::from_object_bytes(object)?;
    let cfg = wavesim_r700::runner::RunConfig::from_toml(config_toml)?;
    Ok(wavesim_r700::runner::run(&shader, &cfg)?)
}

/// Runs bare R700 machine code for `chip` (the words a driver uploads, e.g. the shaders Mesa's
/// r600 driver writes with R600_DUMP_DIR, tools/mesa/patch_r600.py) with a runner configuration;
/// without an object's `.AMDGPU.config`, GPR and stack counts come from `num_gprs` and
/// `stack_entries`.
pub fn run_r700_raw(
    chip: wavesim_r700::Chip,
    code: &[u8],
    config_toml: &str,
) -> Result<wavesim_r700::runner::RunResult, Error> {
    let shader = wavesim_r700::Shader::from_raw(chip, code)?;
    let cfg = wavesim_r700::runner::RunConfig::from_toml(config_toml)?;
    Ok(wavesim_r700::runner::run(&shader, &cfg)?)
}

/// Runs an AGX job described by a runner configuration (TOML: a compute dispatch, an asahi_clc
/// grid kernel with its report and arguments, a vertex draw under Mesa's asahi ABI, or a fragment
/// pass with sample shading; see `wavesim_agx::runner`). `code` is the machine code when the
/// configuration has neither `asm` nor `code`; files the configuration names (`code`, a grid
/// kernel's `report`) are read relative to `config_dir`.
pub fn run_agx(
    config_toml: &str,
    config_dir: &std::path::Path,
    code: Option<&[u8]>,
) -> Result<wavesim_agx::runner::RunResult, Error> {
    let cfg = wavesim_agx::runner::RunConfig::from_toml(config_toml)?;
    Ok(wavesim_agx::runner::run_in_dir(&cfg, config_dir, code)?)
}

/// Runs a dispatch of the raw ABI (user SGPRs, COMPUTE_PGM_RSRC1/2/3, wave size, scratch,
/// target, optional host ranges); see [`wavesim_rdna3::hsa::raw`].
///
/// # Safety
/// As [`wavesim_rdna3::hsa::raw::run`]: the code and every address the kernel touches must be
/// valid host memory (with `host_ranges`, the ranges must be).
pub unsafe fn dispatch_raw(d: &RawDispatch) -> Result<DispatchStats, Error> {
    // SAFETY: forwarded to the caller (documented above).
    Ok(unsafe { wavesim_rdna3::hsa::raw::run(d) }?)
}
