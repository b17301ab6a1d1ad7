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

pub use spec::{parse_spec, ArgSpec};
pub use wavesim_core::memory::{DeviceMemory, MemError};
pub use wavesim_rdna3::codeobj::{
    CodeObject, CodeObjectError, KernArg, Kernel, KernelDescriptor, ValueKind,
};
pub use wavesim_rdna3::dispatch::{
    DispatchError, DispatchStats, Geometry, HiddenValues, Location, DEFAULT_MAX_WAVE_INSTRUCTIONS,
    TBA_ALIGN,
};
pub use wavesim_rdna3::exec::ExecError;
/// Observing a dispatch instruction by instruction (see [`Device::dispatch_with_observer`]).
pub use wavesim_rdna3::trace::{
    InstLoc, NoObserver, Observer, TextTracer, TraceFilter, DEFAULT_TRACE_LIMIT,
};
/// The types an [`Observer`] is shown: the wave's registers and the decoded instruction.
pub use wavesim_rdna3::{decode::Inst, wave::Wave};

use thiserror::Error;
use wavesim_rdna3::codeobj::kcp;
use wavesim_rdna3::decode::DecodeError;
use wavesim_rdna3::dispatch::{self, aql_packet, write_hidden_args, Launch, TrapHandler};
use wavesim_rdna3::exec::{ExecConfig, Program};

/// Private bytes per work-item given to kernels whose stack size is only known at run time
/// (kernel_code_properties USES_DYNAMIC_STACK), on top of their fixed private segment.
pub const DYNAMIC_STACK_BYTES: u32 = 16 * 1024;

/// Zero bytes after the kernarg segment (the widest scalar load, s_load_b512, reads 64 bytes).
pub const KERNARG_SLACK: u64 = 256;

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
    #[error("memory: {0}")]
    Memory(#[from] MemError),
    #[error("code: {0}")]
    Decode(#[from] DecodeError),
    #[error("{0}")]
    Io(String),
}

/// One kernel argument.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// A by-value argument: its little-endian bytes (size must match the kernel's).
    Value(Vec<u8>),
    /// A global buffer: its device address.
    Buffer(u64),
    /// An OpenCL `__local` pointer: that many bytes of dynamic LDS.
    Local(u32),
}

macro_rules! arg_from {
    ($($t:ty),*) => {$(
        impl From<$t> for Arg {
            fn from(v: $t) -> Arg {
                Arg::Value(v.to_le_bytes().to_vec())
            }
        }
    )*};
}
arg_from!(u8, u16, u32, u64, i8, i16, i32, i64, f32, f64);

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
    /// The kernel `name`, or an error listing the kernels there are.
    pub fn kernel(&self, name: &str) -> Result<&Kernel, Error> {
        self.code.kernel(name).ok_or_else(|| Error::UnknownKernel {
            name: name.to_string(),
            available: self.code.kernel_names().join(", "),
        })
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
    /// Host threads running workgroups (1: in order on the calling thread).
    pub threads: usize,
    /// Watchdog: most instructions one wave may execute.
    pub max_wave_instructions: u64,
    /// Instruction behaviour settings (SH_MEM_CONFIG alignment mode).
    pub cfg: ExecConfig,
    /// OpenCL global work offset applied to dispatches.
    pub global_offset: [u64; 3],
    id: u64,
    dispatches: u64,
    trap: Option<InstalledTrap>,
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
            threads: 1,
            max_wave_instructions: DEFAULT_MAX_WAVE_INSTRUCTIONS,
            cfg: ExecConfig::default(),
            global_offset: [0; 3],
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
    pub fn dispatch_with_observer<O: Observer + ?Sized>(
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
        let mut geo = *geo;
        geo.offset = self.global_offset;
        check_workgroup(k, &geo)?;
        let kernarg_size = k
            .meta
            .kernarg_segment_size
            .max(k.descriptor.kernarg_size)
            .max(8) as usize;
        let mut kernarg = vec![0u8; kernarg_size];
        let dynamic_lds = write_explicit_args(k, args, &mut kernarg)?;
        let static_lds = k
            .descriptor
            .group_segment_fixed_size
            .max(k.meta.group_segment_fixed_size);

        // Temporaries of this dispatch, freed afterwards whatever happens.
        let mut temps = Vec::new();
        let r = self.dispatch_inner(
            module,
            k,
            &geo,
            &mut kernarg,
            static_lds,
            dynamic_lds,
            &mut temps,
            obs,
        );
        for t in temps {
            let _ = self.mem.free(t);
        }
        r
    }

    #[allow(clippy::too_many_arguments)]
    fn dispatch_inner<O: Observer + ?Sized>(
        &mut self,
        module: &Module,
        k: &Kernel,
        geo: &Geometry,
        kernarg: &mut [u8],
        static_lds: u32,
        dynamic_lds: u32,
        temps: &mut Vec<u64>,
        obs: &mut O,
    ) -> Result<DispatchStats, Error> {
        let d = &k.descriptor;
        let mut private = d
            .private_segment_fixed_size
            .max(k.meta.private_segment_fixed_size);
        if d.kernel_code_properties & kcp::USES_DYNAMIC_STACK != 0 || k.meta.uses_dynamic_stack {
            private += DYNAMIC_STACK_BYTES;
        }
        let private = private.next_multiple_of(4);

        let queue = self.mem.alloc(256, 64)?;
        temps.push(queue);
        // Compilers load kernel arguments in wide scalar loads that may read past the end of
        // the segment (e.g. s_load_b128 of the last 8 bytes); runtimes allocate the segment
        // with room to spare, so do we (zero-filled).
        let kernarg_alloc = (kernarg.len() as u64).next_multiple_of(64) + KERNARG_SLACK;
        let kernarg_addr = self.mem.alloc(kernarg_alloc, 64)?;
        temps.push(kernarg_addr);
        let packet_addr = self.mem.alloc(64, 64)?;
        temps.push(packet_addr);
        let hidden = HiddenValues {
            dynamic_lds,
            queue_ptr: queue,
            ..Default::default()
        };
        write_hidden_args(kernarg, &k.meta.args, geo, &hidden);
        self.mem.write(kernarg_addr, kernarg)?;
        let lds_bytes = static_lds
            .checked_add(dynamic_lds)
            .ok_or_else(|| Error::Args("LDS size overflows".into()))?;
        let packet = aql_packet(
            geo,
            private,
            lds_bytes,
            module.base + k.kd_addr,
            kernarg_addr,
        );
        self.mem.write(packet_addr, &packet)?;

        let mut launch = Launch {
            kernel_name: k.name.clone(),
            prog: &module.prog,
            entry: module.base + k.entry,
            pc_display_base: module.base,
            wave64: !d.wave32(),
            num_vgprs: d.vgpr_count().max(k.meta.vgpr_count).clamp(1, 256) as u16,
            mode: d.initial_mode(),
            code_properties: d.kernel_code_properties,
            rsrc2: d.compute_pgm_rsrc2,
            packed_tid: true,
            geo: *geo,
            lds_bytes,
            wgp_mode: d.wgp_mode(),
            scratch_lane_bytes: private,
            scratch_addr: 0,
            kernarg_addr,
            dispatch_ptr: packet_addr,
            queue_ptr: queue,
            dispatch_id: self.dispatches,
            threads: self.threads.max(1),
            max_wave_insts: self.max_wave_instructions,
            cfg: self.cfg.clone(),
            trap: self.trap.as_ref().map(|t| TrapHandler {
                prog: &t.prog,
                tba: t.addrs.tba,
                tma: t.addrs.tma,
            }),
        };
        self.dispatches += 1;
        let scratch = launch.scratch_bytes();
        if scratch > 0 {
            let a = self.mem.alloc(scratch, 256)?;
            temps.push(a);
            launch.scratch_addr = a;
        }
        Ok(dispatch::run_observed(&launch, &self.mem, obs)?)
    }
}

/// Rejects workgroup shapes the kernel was not compiled for.
fn check_workgroup(k: &Kernel, geo: &Geometry) -> Result<(), Error> {
    let items = geo.local.iter().map(|&v| v as u64).product::<u64>();
    let max = k.meta.max_flat_workgroup_size;
    if max != 0 && items > max as u64 {
        return Err(Error::Args(format!(
            "kernel {}: workgroup of {items} work-items exceeds its max_flat_workgroup_size {max}",
            k.name
        )));
    }
    if let Some(r) = k.meta.reqd_workgroup_size {
        if r != geo.local {
            return Err(Error::Args(format!(
                "kernel {} requires workgroup size {}x{}x{}, got {}x{}x{}",
                k.name, r[0], r[1], r[2], geo.local[0], geo.local[1], geo.local[2]
            )));
        }
    }
    Ok(())
}

fn describe_kind(a: &KernArg) -> String {
    match a.kind {
        ValueKind::ByValue => format!("a {}-byte value", a.size),
        ValueKind::GlobalBuffer => "a global buffer".into(),
        ValueKind::DynamicSharedPointer => "a __local pointer (local:N)".into(),
        ref k => format!("an argument of kind {}", k.as_str()),
    }
}

/// Writes the explicit arguments into `kernarg`; returns the dynamic LDS bytes the `__local`
/// pointer arguments take (each placed after the static LDS, aligned to its pointee).
fn write_explicit_args(k: &Kernel, args: &[Arg], kernarg: &mut [u8]) -> Result<u32, Error> {
    let explicit: Vec<&KernArg> = k.explicit_args().collect();
    if explicit.len() != args.len() {
        return Err(Error::Args(format!(
            "kernel {} takes {} arguments, got {}: {}",
            k.name,
            explicit.len(),
            args.len(),
            k.signature()
        )));
    }
    let static_lds = k
        .descriptor
        .group_segment_fixed_size
        .max(k.meta.group_segment_fixed_size) as u64;
    let mut lds_end = static_lds;
    for (i, (a, v)) in explicit.iter().zip(args).enumerate() {
        let bad = |got: &str| {
            Error::Args(format!(
                "argument {} ({}) of {} is {}; got {got}",
                i + 1,
                a.name.as_deref().unwrap_or("unnamed"),
                k.signature(),
                describe_kind(a)
            ))
        };
        let bytes: Vec<u8> = match (&a.kind, v) {
            (ValueKind::ByValue, Arg::Value(b)) if b.len() == a.size as usize => b.clone(),
            (ValueKind::GlobalBuffer, Arg::Buffer(addr)) if a.size == 8 => {
                addr.to_le_bytes().to_vec()
            }
            (ValueKind::DynamicSharedPointer, Arg::Local(n)) => {
                let align = a.pointee_align.unwrap_or(16).max(1) as u64;
                let at = lds_end.next_multiple_of(align);
                lds_end = at + *n as u64;
                let b = (at as u32).to_le_bytes();
                b[..(a.size as usize).min(4)].to_vec()
            }
            (_, Arg::Value(b)) => return Err(bad(&format!("a {}-byte value", b.len()))),
            (_, Arg::Buffer(_)) => return Err(bad("a buffer")),
            (_, Arg::Local(_)) => return Err(bad("local:N")),
        };
        let off = a.offset as usize;
        kernarg
            .get_mut(off..off + bytes.len())
            .ok_or_else(|| bad("an argument outside the kernarg segment"))?
            .copy_from_slice(&bytes);
    }
    u32::try_from(lds_end - static_lds).map_err(|_| Error::Args("dynamic LDS too large".into()))
}

/// Result of [`run_specs`]: the dispatch counters and the final contents of every buffer
/// argument (`None` for scalars and `local:`), in argument order.
#[derive(Debug)]
pub struct SpecRun {
    pub stats: DispatchStats,
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
pub fn run_specs_with_observer<O: Observer + ?Sized>(
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
    for s in specs {
        match s {
            ArgSpec::Value(b) => {
                args.push(Arg::Value(b.clone()));
                bufs.push(None);
            }
            ArgSpec::Local(n) => {
                args.push(Arg::Local(*n));
                bufs.push(None);
            }
            ArgSpec::Buf { path, .. } => {
                let data = match std::fs::read(path) {
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
        }
    }
    let r = result.and_then(|()| dev.dispatch_with_observer(module, kernel, geo, &args, obs));
    let out = r.and_then(|stats| {
        let mut buffers = Vec::with_capacity(bufs.len());
        for b in &bufs {
            buffers.push(match b {
                Some((a, n)) => Some(dev.read_vec(*a, *n)?),
                None => None,
            });
        }
        Ok(SpecRun { stats, buffers })
    });
    for (a, _) in bufs.into_iter().flatten() {
        let _ = dev.free(a);
    }
    out
}

/// Writes the buffers whose spec names an output file.
pub fn write_outputs(specs: &[ArgSpec], run: &SpecRun) -> Result<(), Error> {
    for (s, b) in specs.iter().zip(&run.buffers) {
        if let (Some(out), Some(bytes)) = (s.output(), b) {
            std::fs::write(out, bytes)
                .map_err(|e| Error::Io(format!("cannot write {}: {e}", out.display())))?;
        }
    }
    Ok(())
}

/// Human-readable listing of a code object's kernels, arguments and descriptor fields.
pub fn describe(code: &CodeObject) -> String {
    use std::fmt::Write;
    let mut s = String::new();
    let _ = writeln!(
        s,
        "code object v{}, target {}, {} kernel(s)",
        code.version,
        code.target,
        code.kernels.len()
    );
    for k in &code.kernels {
        let d = &k.descriptor;
        let m = &k.meta;
        let _ = writeln!(s, "\nkernel {}", k.signature());
        let _ = writeln!(
            s,
            "  entry {:#x}, descriptor {} at {:#x}",
            k.entry, m.symbol, k.kd_addr
        );
        let _ = writeln!(
            s,
            "  wave{}, {} VGPRs (metadata .vgpr_count {}), .sgpr_count {}, {} mode",
            k.wave_size(),
            d.vgpr_count(),
            m.vgpr_count,
            m.sgpr_count,
            if d.wgp_mode() { "WGP" } else { "CU" }
        );
        let _ = writeln!(
            s,
            "  group segment {} B, private segment {} B/work-item{}, kernarg segment {} B (align {}), max workgroup {}",
            d.group_segment_fixed_size,
            d.private_segment_fixed_size,
            if m.uses_dynamic_stack { " + dynamic stack" } else { "" },
            d.kernarg_size,
            m.kernarg_segment_align,
            m.max_flat_workgroup_size
        );
        let _ = writeln!(
            s,
            "  COMPUTE_PGM_RSRC1 {:#010x}  RSRC2 {:#010x}  RSRC3 {:#010x}  kernel_code_properties {:#06x}",
            d.compute_pgm_rsrc1, d.compute_pgm_rsrc2, d.compute_pgm_rsrc3, d.kernel_code_properties
        );
        let _ = writeln!(
            s,
            "  user SGPRs {}, workgroup ids {}{}{}, work-item ids {}, MODE {:#x}",
            d.user_sgpr_count(),
            if d.compute_pgm_rsrc2 & (1 << 7) != 0 {
                "x"
            } else {
                ""
            },
            if d.compute_pgm_rsrc2 & (1 << 8) != 0 {
                "y"
            } else {
                ""
            },
            if d.compute_pgm_rsrc2 & (1 << 9) != 0 {
                "z"
            } else {
                ""
            },
            ["x", "xy", "xyz", "xyz"][d.vgpr_workitem_id() as usize],
            d.initial_mode()
        );
        let _ = writeln!(s, "  arguments (name, kind, size, offset):");
        for a in &m.args {
            let _ = writeln!(
                s,
                "    {:<24} {:<26} {:>4} {:>5}{}",
                a.name.as_deref().unwrap_or("-"),
                a.kind.as_str(),
                a.size,
                a.offset,
                a.type_name
                    .as_deref()
                    .map(|t| format!("  ({t})"))
                    .unwrap_or_default()
            );
        }
    }
    s
}

/// Runs bare instruction bytes with *host* addresses (the C ABI's `run_asm`): `code` is executed
/// in place (PC = its host address), s[0:1] = `kernarg`, `rsrc2` places the workgroup ids after
/// USER_SGPR_COUNT user SGPRs, v0 holds the packed work-item ids, wave32, `scratch_size` private
/// bytes per work-item. `groups` counts workgroups, `local` work-items per workgroup.
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
    let mem = unsafe { DeviceMemory::host() };
    let base = code.as_ptr() as u64;
    let prog = Program::new(code, base)?;
    if let Some(d) = (0..3).find(|&i| groups[i] == 0 || local[i] == 0) {
        return Err(Error::Args(format!(
            "run_asm: dimension {d} has {} workgroups of {} work-items; both must be at least 1",
            groups[d], local[d]
        )));
    }
    let mut grid = [0u32; 3];
    for i in 0..3 {
        grid[i] = groups[i].checked_mul(local[i]).ok_or_else(|| {
            Error::Args(format!(
                "{} workgroups of {} work-items overflow a 32-bit grid",
                groups[i], local[i]
            ))
        })?;
    }
    let geo = Geometry::new(&grid, &local)?;
    // LDS: COMPUTE_PGM_RSRC2.LDS_SIZE in 512-byte granules when set; compilers leave it 0 and
    // the runtime fills it in, so 0 means "the most a workgroup can have" (64 KiB).
    let granules = (rsrc2 >> 15) & 0x1ff;
    let lds_bytes = if granules == 0 {
        dispatch::MAX_LDS_BYTES
    } else {
        (granules * 512).min(dispatch::MAX_LDS_BYTES)
    };
    let packet = aql_packet(&geo, scratch_size, lds_bytes, 0, kernarg);
    let mut launch = Launch {
        kernel_name: "run_asm".into(),
        prog: &prog,
        entry: base,
        pc_display_base: base,
        wave64: false,
        num_vgprs: 256,
        // What a default kernel descriptor sets (f32 denormals flushed, f16/f64 kept).
        mode: wavesim_rdna3::exec::operand::MODE_KERNEL_DESCRIPTOR_DEFAULT,
        code_properties: kcp::ENABLE_SGPR_KERNARG_SEGMENT_PTR | kcp::ENABLE_WAVEFRONT_SIZE32,
        rsrc2,
        packed_tid: true,
        geo,
        lds_bytes,
        wgp_mode: true,
        scratch_lane_bytes: scratch_size.next_multiple_of(4),
        scratch_addr: 0,
        kernarg_addr: kernarg,
        dispatch_ptr: packet.as_ptr() as u64,
        queue_ptr: 0,
        dispatch_id: 0,
        threads: 1,
        max_wave_insts: max_wave_instructions,
        cfg: ExecConfig::default(),
        trap: None,
    };
    // Host scratch (8-byte words: host mode accesses memory with atomics of up to 8 bytes).
    let words = usize::try_from(launch.scratch_bytes().div_ceil(8))
        .map_err(|_| Error::Args("scratch too large".into()))?;
    let mut scratch: Vec<u64> = vec![0; words];
    if words > 0 {
        launch.scratch_addr = scratch.as_mut_ptr() as u64;
    }
    let r = dispatch::run(&launch, &mem);
    drop(scratch);
    Ok(r?)
}

/// Disassembles a code object the way `llvm-objdump -d --mcpu=gfx1100` prints it.
pub fn disassemble(elf: &[u8]) -> Result<String, String> {
    wavesim_rdna3::disasm::disassemble_elf(elf).map_err(|e| e.to_string())
}

/// Disassembles bare instruction bytes (addresses from 0).
pub fn disassemble_raw(code: &[u8], wave64: bool) -> Result<String, String> {
    wavesim_rdna3::disasm::disassemble_raw(code, wave64).map_err(|e| e.to_string())
}
