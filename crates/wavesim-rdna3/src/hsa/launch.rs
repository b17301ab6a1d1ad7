//! Launching a kernel of a code object the way the HSA runtime and the command processor do:
//! the kernarg segment (explicit and hidden arguments), the AQL packet, the queue, scratch, the
//! LDS size, and the descriptor's launch fields (COMPUTE_PGM_RSRC1/2/3, kernel_code_properties)
//! turned into the engine's [`Launch`].

use super::codeobj::{kcp, CodeObject, Kernel};
use super::kernarg::{
    aql_packet, check_workgroup, write_explicit_args, write_hidden_args, Arg, HiddenValues,
};
use super::{hostcall, HsaError};
use crate::decode::Inst;
use crate::dispatch::ExecConfig;
use crate::dispatch::{self, Launch, TrapHandler};
use crate::exec::Program;
use crate::isa::Target;
use crate::trace::Observer;
use crate::wave::Wave;
use wavesim_core::memory::DeviceMemory;
use wavesim_core::{limits, DispatchStats, Geometry};

/// Private bytes per work-item given to kernels whose stack size is only known at run time
/// (kernel_code_properties USES_DYNAMIC_STACK), on top of their fixed private segment.
pub const DYNAMIC_STACK_BYTES: u32 = 16 * 1024;

/// Zero bytes after the kernarg segment (the widest scalar load, s_load_b512, reads 64 bytes).
pub const KERNARG_SLACK: u64 = 256;

/// A code object whose image is in device memory.
#[derive(Clone, Copy)]
pub struct LoadedCode<'a> {
    pub code: &'a CodeObject,
    /// Device address of the image (ELF virtual address 0).
    pub base: u64,
    /// The code, decoded at its device address.
    pub prog: &'a Program,
}

/// What a dispatch takes from the device and the runtime besides the kernel and its arguments.
#[derive(Clone, Copy)]
pub struct DispatchSettings<'a> {
    /// Dynamic shared memory bytes of the launch (HIP `sharedMemBytes`), after the static LDS
    /// and the `__local` arguments' LDS; part of `hidden_dynamic_lds_size`.
    pub dynamic_shared: u32,
    /// Host threads running workgroups (1: in order on the calling thread).
    pub threads: usize,
    /// Watchdog: most instructions one wave may execute.
    pub max_wave_insts: u64,
    pub cfg: &'a ExecConfig,
    /// OpenCL global work offset.
    pub global_offset: [u64; 3],
    /// The AQL packet's dispatch id (s[..] when ENABLE_SGPR_DISPATCH_ID).
    pub dispatch_id: u64,
    pub trap: Option<TrapHandler<'a>>,
}

/// What a dispatch produced besides memory contents.
#[derive(Clone, Debug, Default)]
pub struct Dispatched {
    pub stats: DispatchStats,
    /// The text the kernel printed with `printf`, as the ROCm runtime prints it.
    pub printf: String,
    /// What the kernel printed to stderr through hostcall (`fprintf(stderr, ...)`).
    pub stderr: String,
}

/// What a dispatch printed: stdout (buffered and hostcall printf) and stderr (hostcall).
#[derive(Clone, Debug, Default)]
pub struct Printed {
    pub stdout: String,
    pub stderr: String,
}

/// Runs kernel `k` of `code` over `geo` with `args` (one per explicit argument): writes the
/// kernarg segment, the AQL packet and a queue, allocates scratch and the printf buffer, and
/// frees all of them again whatever happens. `obs` sees every instruction (see
/// [`dispatch::run_observed`]).
#[allow(clippy::too_many_arguments)]
pub fn dispatch<O: Observer<Wave, Inst> + ?Sized>(
    mem: &mut DeviceMemory,
    code: LoadedCode,
    k: &Kernel,
    geo: &Geometry,
    args: &[Arg],
    s: &DispatchSettings,
    obs: &mut O,
) -> Result<Dispatched, HsaError> {
    with_launch(mem, code, k, geo, args, s, |l, mem| {
        Ok(dispatch::run_observed(l, mem, obs)?)
    })
    .map(|(stats, p)| Dispatched {
        stats,
        printf: p.stdout,
        stderr: p.stderr,
    })
}

/// Prepares the launch of kernel `k` as [`dispatch`] does (kernarg segment, AQL packet, queue,
/// scratch, printf buffer) and hands it to `f` instead of running it (the debugger drives it step
/// by step); returns `f`'s result and the printf text the kernel wrote. The temporaries are freed
/// afterwards whatever happens.
#[allow(clippy::too_many_arguments)]
pub fn with_launch<R>(
    mem: &mut DeviceMemory,
    code: LoadedCode,
    k: &Kernel,
    geo: &Geometry,
    args: &[Arg],
    s: &DispatchSettings,
    f: impl FnOnce(&Launch, &DeviceMemory) -> Result<R, HsaError>,
) -> Result<(R, Printed), HsaError> {
    let mut geo = *geo;
    geo.offset = s.global_offset;
    check_workgroup(k, &geo)?;
    // Checked before the segment is allocated: a corrupt descriptor's 0xFFFFFFFF would be 4 GiB
    // per dispatch.
    let field = if k.descriptor.kernarg_size >= k.meta.kernarg_segment_size {
        "kernel descriptor kernarg_size"
    } else {
        "metadata .kernarg_segment_size"
    };
    let kernarg_size = limits::check_bytes(
        &format!("kernel {}: {field}", k.name),
        k.meta
            .kernarg_segment_size
            .max(k.descriptor.kernarg_size)
            .max(8) as u64,
        limits::MAX_KERNARG_BYTES,
    )? as usize;
    let mut kernarg = vec![0u8; kernarg_size];
    let dynamic_lds = write_explicit_args(k, args, &mut kernarg)?
        .checked_add(s.dynamic_shared)
        .ok_or_else(|| HsaError::Args("dynamic LDS size overflows".into()))?;
    let static_lds = k
        .descriptor
        .group_segment_fixed_size
        .max(k.meta.group_segment_fixed_size);

    // Temporaries of this dispatch, freed afterwards whatever happens.
    let mut temps = Vec::new();
    let r = dispatch_inner(
        mem,
        code,
        k,
        &geo,
        &mut kernarg,
        (static_lds, dynamic_lds),
        s,
        &mut temps,
        f,
    );
    for t in temps {
        let _ = mem.free(t);
    }
    r.map_err(|e| name_fault_address(e, mem, k, args))
}

/// The address of a memory fault or violation.
fn fault_addr(e: &crate::dispatch::DispatchError) -> Option<u64> {
    use crate::exec::ExecError;
    match e {
        crate::dispatch::DispatchError::Exec {
            error: ExecError::MemoryFault { addr, .. } | ExecError::MemViol { addr, .. },
            ..
        } => Some(*addr),
        _ => None,
    }
}

/// Adds to a memory fault where its address lies: inside or just past one of the kernel's
/// buffer arguments (named, with the offset into the buffer), inside another allocation, or
/// outside every allocation.
fn name_fault_address(e: HsaError, mem: &DeviceMemory, k: &Kernel, args: &[Arg]) -> HsaError {
    let HsaError::Dispatch(error) = e else {
        return e;
    };
    let Some(addr) = fault_addr(&error) else {
        return HsaError::Dispatch(error);
    };
    let mut nearest: Option<(u64, String)> = None;
    for (i, (a, v)) in k.explicit_args().zip(args).enumerate() {
        let Arg::Buffer(base) = v else { continue };
        let Ok(region) = mem.find(*base, 0) else {
            continue;
        };
        let len = region.base() + region.len() - base;
        let name = a.name.as_deref().unwrap_or("unnamed");
        let Some(off) = addr.checked_sub(*base) else {
            continue;
        };
        let what = format!(
            "argument {} ({name}), offset {off} of its {len}-byte buffer",
            i + 1
        );
        if nearest.as_ref().is_none_or(|(o, _)| off < *o) {
            nearest = Some((off, what));
        }
    }
    let place = match nearest {
        Some((off, what)) if mem.find(addr, 1).is_ok() || off < (1 << 20) => what,
        _ if mem.find(addr, 1).is_ok() => "inside an allocation that is no buffer argument".into(),
        // The device libraries' OpenCL `printf` (opencl.bc) is a stub that reads dword 1 of
        // the printf buffer; linked in place of the printf lowering, the kernel's metadata asks
        // for no buffer, so it reads address 4.
        _ if addr == 4 && !wants(k, super::codeobj::ValueKind::HiddenPrintfBuffer) => {
            "outside every allocation; if the kernel calls OpenCL's printf, it ran the device \
             libraries' printf stub, which needs the printf lowering before the libraries are \
             linked (docs/RDNA3.md)"
                .into()
        }
        _ => "outside every allocation".into(),
    };
    HsaError::Fault { error, place }
}

/// Whether kernel `k`'s metadata declares an argument of `kind`.
fn wants(k: &Kernel, kind: super::codeobj::ValueKind) -> bool {
    k.meta.args.iter().any(|a| a.kind == kind)
}

#[allow(clippy::too_many_arguments)]
fn dispatch_inner<R>(
    mem: &mut DeviceMemory,
    code: LoadedCode,
    k: &Kernel,
    geo: &Geometry,
    kernarg: &mut [u8],
    (static_lds, dynamic_lds): (u32, u32),
    s: &DispatchSettings,
    temps: &mut Vec<u64>,
    f: impl FnOnce(&Launch, &DeviceMemory) -> Result<R, HsaError>,
) -> Result<(R, Printed), HsaError> {
    let d = &k.descriptor;
    let mut private = d
        .private_segment_fixed_size
        .max(k.meta.private_segment_fixed_size) as u64;
    if d.kernel_code_properties & kcp::USES_DYNAMIC_STACK != 0 || k.meta.uses_dynamic_stack {
        private += DYNAMIC_STACK_BYTES as u64;
    }
    let private =
        limits::scratch_lane_bytes(&format!("kernel {}: private segment size", k.name), private)?;

    let queue = mem.alloc(256, 64)?;
    temps.push(queue);
    // Compilers load kernel arguments in wide scalar loads that may read past the end of
    // the segment (e.g. s_load_b128 of the last 8 bytes); runtimes allocate the segment
    // with room to spare, so do we (zero-filled).
    let kernarg_alloc = (kernarg.len() as u64).next_multiple_of(64) + KERNARG_SLACK;
    let kernarg_addr = mem.alloc(kernarg_alloc, 64)?;
    temps.push(kernarg_addr);
    let packet_addr = mem.alloc(64, 64)?;
    temps.push(packet_addr);
    // The printf buffer, for kernels whose metadata asks for one (code object v5).
    let wants_printf = wants(k, super::codeobj::ValueKind::HiddenPrintfBuffer);
    let printf_buffer = if wants_printf {
        let size = super::printf::PRINTF_BUFFER_BYTES + super::printf::PRINTF_HEADER_BYTES;
        let a = mem.alloc(size, 256)?;
        temps.push(a);
        mem.write_u32(a + 4, size as u32)?;
        a
    } else {
        0
    };
    // The hostcall buffer and the device heap (`__ockl_dm_alloc` keeps its state in the heap
    // and gets memory through the hostcall devmem service), as ROCm's runtime gives them to
    // kernels whose metadata asks for them.
    let hostcall = if wants(k, super::codeobj::ValueKind::HiddenHostcallBuffer) {
        let waves = geo.max_waves_per_group(!d.wave32()) as u64
            * wavesim_core::engine::worker_slots(geo, s.threads.max(1));
        let (bytes, _) = hostcall::layout(waves);
        let buffer = mem.alloc(bytes, 4096)?;
        temps.push(buffer);
        let signal = mem.alloc(hostcall::SIGNAL_BYTES, 64)?;
        temps.push(signal);
        let heap = if wants(k, super::codeobj::ValueKind::HiddenHeapV1) {
            let heap = mem.alloc(hostcall::HEAP_BYTES, 4096)?;
            temps.push(heap);
            let arena = mem.alloc(hostcall::DEVMEM_ARENA_BYTES, hostcall::SLAB_BYTES)?;
            temps.push(arena);
            Some((heap, arena))
        } else {
            None
        };
        let arena = heap.map(|(_, a)| (a, hostcall::DEVMEM_ARENA_BYTES));
        Some((
            hostcall::Hostcall::new(mem, buffer, signal, waves, arena)?,
            heap.map_or(0, |(h, _)| h),
        ))
    } else {
        None
    };
    let hidden = HiddenValues {
        dynamic_lds,
        queue_ptr: queue,
        printf_buffer,
        hostcall_buffer: hostcall.as_ref().map_or(0, |(h, _)| h.buffer()),
        heap_v1: hostcall.as_ref().map_or(0, |(_, heap)| *heap),
    };
    write_hidden_args(kernarg, &k.meta.args, geo, &hidden);
    mem.write(kernarg_addr, kernarg)?;
    let lds_bytes = static_lds
        .checked_add(dynamic_lds)
        .ok_or_else(|| HsaError::Args("LDS size overflows".into()))?;
    let packet = aql_packet(geo, private, lds_bytes, code.base + k.kd_addr, kernarg_addr);
    mem.write(packet_addr, &packet)?;

    let mut launch = Launch {
        kernel_name: k.name.clone(),
        prog: code.prog,
        entry: code.base + k.entry,
        pc_display_base: code.base,
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
        dispatch_id: s.dispatch_id,
        // printf records land in the buffer in the order waves write them; one thread keeps
        // that order (and so the printed text) the same on every run.
        threads: if wants_printf { 1 } else { s.threads.max(1) },
        max_wave_insts: s.max_wave_insts,
        cfg: s.cfg.clone(),
        trap: s.trap,
        host: hostcall
            .as_ref()
            .map(|(h, _)| h as &dyn crate::exec::HostServices),
    };
    let scratch = limits::check_bytes(
        &format!(
            "the dispatch's scratch ({private} bytes per work-item on {} host threads)",
            launch.threads
        ),
        launch.scratch_bytes(),
        limits::MAX_SCRATCH_TOTAL_BYTES,
    )?;
    if scratch > 0 {
        let a = mem.alloc(scratch, 256)?;
        temps.push(a);
        launch.scratch_addr = a;
    }
    let r = f(&launch, mem);
    let out = hostcall
        .as_ref()
        .map(|(h, _)| h.take_output())
        .unwrap_or_default();
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    let r = match (r, out.stop) {
        (Ok(r), _) => r,
        (Err(HsaError::Dispatch(error)), Some(hostcall::Stop::Abort(_))) => {
            return Err(HsaError::Aborted {
                error,
                stdout: text(&out.stdout),
                stderr: text(&out.stderr),
            })
        }
        (Err(HsaError::Dispatch(error)), Some(hostcall::Stop::Request(_))) => {
            return Err(HsaError::Hostcall { error })
        }
        (Err(e), _) => return Err(e),
    };
    let mut printf = if printf_buffer != 0 {
        let formats = super::printf::parse_formats(&code.code.printf_formats)?;
        let used = mem.read_u32(printf_buffer)? as u64;
        let len = (super::printf::PRINTF_HEADER_BYTES + used)
            .min(super::printf::PRINTF_BUFFER_BYTES + super::printf::PRINTF_HEADER_BYTES);
        let mut buf = vec![0u8; len as usize];
        mem.read(printf_buffer, &mut buf)?;
        super::printf::decode(&buf, &formats)?
    } else {
        String::new()
    };
    printf.push_str(&text(&out.stdout));
    Ok((
        r,
        Printed {
            stdout: printf,
            stderr: text(&out.stderr),
        },
    ))
}

/// Runs bare instruction bytes with *host* addresses (the C ABI's `run_asm`): `code` is executed
/// in place (PC = its host address), s[0:1] = `kernarg`, `rsrc2` places the workgroup ids after
/// USER_SGPR_COUNT user SGPRs, v0 holds the packed work-item ids, wave32, `scratch_size` private
/// bytes per work-item. `groups` counts workgroups, `local` work-items per workgroup.
/// The C ABI's `run_asm` and the Python `run_asm` call this.
///
/// # Safety
/// Every address the kernel touches must be valid host memory for the access, and nothing else
/// may access that memory while the kernel runs (see `DeviceMemory::host`).
#[allow(clippy::too_many_arguments)]
pub unsafe fn run_host_asm(
    code: &[u8],
    groups: [u32; 3],
    local: [u32; 3],
    kernarg: u64,
    rsrc2: u32,
    scratch_size: u32,
    max_wave_instructions: u64,
    target: Target,
) -> Result<DispatchStats, HsaError> {
    // SAFETY: forwarded to the caller (documented above).
    let mem = unsafe { DeviceMemory::host() };
    let base = code.as_ptr() as u64;
    // Bare bytes carry no e_flags: the caller names the ISA variant (gfx1100 by default).
    // Decoded once per code (kept across calls: a drop-in caller runs the same code again).
    let prog = super::progcache::program(
        code,
        base,
        target,
        super::progcache::Decoding::Exact,
        || Program::new_for(code, base, target),
    )?;
    let grid = grid_of(groups, local).map_err(|m| HsaError::Args(format!("run_asm: {m}")))?;
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
        mode: crate::exec::operand::MODE_KERNEL_DESCRIPTOR_DEFAULT,
        code_properties: kcp::ENABLE_SGPR_KERNARG_SEGMENT_PTR | kcp::ENABLE_WAVEFRONT_SIZE32,
        rsrc2,
        packed_tid: true,
        geo,
        lds_bytes,
        wgp_mode: true,
        scratch_lane_bytes: limits::scratch_lane_bytes(
            "run_asm scratch_size",
            scratch_size as u64,
        )?,
        scratch_addr: 0,
        kernarg_addr: kernarg,
        dispatch_ptr: packet.as_ptr() as u64,
        queue_ptr: 0,
        dispatch_id: 0,
        threads: wavesim_core::engine::default_threads(),
        max_wave_insts: max_wave_instructions,
        cfg: ExecConfig::default(),
        trap: None,
        host: None,
    };
    // Host scratch (8-byte words: host mode accesses memory with atomics of up to 8 bytes).
    let bytes = limits::check_bytes(
        "run_asm scratch (scratch_size per work-item x work-items in flight x host threads)",
        launch.scratch_bytes(),
        limits::MAX_SCRATCH_TOTAL_BYTES,
    )?;
    let words = bytes.div_ceil(8) as usize;
    let mut scratch: Vec<u64> = Vec::new();
    scratch
        .try_reserve_exact(words)
        .map_err(|_| HsaError::Args(format!("cannot allocate {bytes} scratch bytes")))?;
    scratch.resize(words, 0);
    if words > 0 {
        launch.scratch_addr = scratch.as_mut_ptr() as u64;
    }
    let r = dispatch::run(&launch, &mem);
    drop(scratch);
    Ok(r?)
}

/// The grid in work-items of `groups` workgroups of `local` work-items (the raw entry points
/// count workgroups, as DISPATCH_DIRECT does), or why there is none.
pub fn grid_of(groups: [u32; 3], local: [u32; 3]) -> Result<[u32; 3], String> {
    if let Some(d) = (0..3).find(|&i| groups[i] == 0 || local[i] == 0) {
        return Err(format!(
            "dimension {d} has {} workgroups of {} work-items; both must be at least 1",
            groups[d], local[d]
        ));
    }
    let mut grid = [0u32; 3];
    for ((g, n), l) in grid.iter_mut().zip(groups).zip(local) {
        *g = n
            .checked_mul(l)
            .ok_or_else(|| format!("{n} workgroups of {l} work-items overflow a 32-bit grid"))?;
    }
    Ok(grid)
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
