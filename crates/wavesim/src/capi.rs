//! The C ABI (declared in `include/wavesim.h`).
//!
//! * `run_asm`: bare instruction bytes with *host* addresses, as tinygrad-style emulator callers
//!   use it (unsandboxed by design).
//! * A handle-based sandboxed API: devices, buffers, code objects, dispatches.
//!
//! Every entry point catches panics (`catch_unwind`), so none ever crosses into C; errors are
//! reported by return code, with the message available from `wavesim_last_error`.

use crate::{run_host_asm, Arg, Device, Error, Geometry, Module};
use std::cell::RefCell;
use std::ffi::{c_char, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};

/// Success.
pub const WAVESIM_OK: i32 = 0;
/// Bad arguments (null pointers, sizes, unknown kernel, wrong kernel arguments).
pub const WAVESIM_ERR_INVALID: i32 = 1;
/// The kernel failed: invalid or unsupported instruction, memory fault, trap.
pub const WAVESIM_ERR_EXEC: i32 = 2;
/// The watchdog stopped a wave.
pub const WAVESIM_ERR_WATCHDOG: i32 = 3;
/// Waves of a workgroup deadlocked at s_barrier.
pub const WAVESIM_ERR_DEADLOCK: i32 = 4;
/// The code object could not be read.
pub const WAVESIM_ERR_CODE_OBJECT: i32 = 5;
/// Device memory: out of bounds, allocation failed.
pub const WAVESIM_ERR_MEMORY: i32 = 6;
/// wavesim itself failed (a bug): the panic was caught.
pub const WAVESIM_ERR_INTERNAL: i32 = 7;

thread_local! {
    static LAST_ERROR: RefCell<CString> = RefCell::new(CString::default());
}

fn set_error(msg: &str) {
    let c = CString::new(msg.replace('\0', " ")).unwrap_or_default();
    LAST_ERROR.with(|e| *e.borrow_mut() = c);
}

fn code_of(e: &Error) -> i32 {
    use crate::DispatchError as D;
    match e {
        Error::CodeObject(_) | Error::Decode(_) => WAVESIM_ERR_CODE_OBJECT,
        Error::UnknownKernel { .. } | Error::Args(_) | Error::Io(_) => WAVESIM_ERR_INVALID,
        Error::Memory(_) => WAVESIM_ERR_MEMORY,
        Error::Dispatch(D::BadLaunch(_)) => WAVESIM_ERR_INVALID,
        Error::Dispatch(D::Exec { .. }) | Error::Fault { .. } => WAVESIM_ERR_EXEC,
        Error::Dispatch(D::Watchdog { .. }) => WAVESIM_ERR_WATCHDOG,
        Error::Dispatch(D::BarrierDeadlock { .. }) => WAVESIM_ERR_DEADLOCK,
        Error::R700Load(_) | Error::R700Decode(_) => WAVESIM_ERR_CODE_OBJECT,
        Error::R700Run(wavesim_r700::runner::RunError::Config(_)) => WAVESIM_ERR_INVALID,
        Error::R700Run(_) => WAVESIM_ERR_EXEC,
        Error::AgxDisasm(_) => WAVESIM_ERR_CODE_OBJECT,
        Error::AgxRun(
            wavesim_agx::runner::RunError::Config(_)
            | wavesim_agx::runner::RunError::Argument { .. },
        ) => WAVESIM_ERR_INVALID,
        Error::AgxRun(wavesim_agx::runner::RunError::Dispatch(
            wavesim_core::DispatchError::Watchdog { .. },
        )) => WAVESIM_ERR_WATCHDOG,
        Error::AgxRun(_) => WAVESIM_ERR_EXEC,
        Error::Raw(crate::RawError::Dispatch(D::Watchdog { .. })) => WAVESIM_ERR_WATCHDOG,
        Error::Raw(crate::RawError::Dispatch(D::BarrierDeadlock { .. })) => WAVESIM_ERR_DEADLOCK,
        Error::Raw(crate::RawError::Dispatch(D::Exec { .. })) => WAVESIM_ERR_EXEC,
        Error::Raw(crate::RawError::OutsideHostRanges { .. }) => WAVESIM_ERR_MEMORY,
        Error::Raw(crate::RawError::Code(_)) => WAVESIM_ERR_CODE_OBJECT,
        Error::Raw(_) => WAVESIM_ERR_INVALID,
        Error::Hostcall { .. } | Error::Aborted { .. } => WAVESIM_ERR_EXEC,
    }
}

/// Runs `f`, turning errors and panics into return codes and `wavesim_last_error` messages.
fn guard(f: impl FnOnce() -> Result<(), Error>) -> i32 {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(())) => {
            set_error("");
            WAVESIM_OK
        }
        Ok(Err(e)) => {
            set_error(&e.to_string());
            code_of(&e)
        }
        Err(p) => {
            let what = p
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| p.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            set_error(&format!("internal error (please report): {what}"));
            WAVESIM_ERR_INTERNAL
        }
    }
}

fn invalid(m: &str) -> Error {
    Error::Args(m.to_string())
}

/// The `n` elements a C caller passed at `p`: empty when `n` is 0 (`p` may then be NULL), the
/// error `null_msg` when `p` is NULL otherwise.
///
/// # Safety
/// A non-null `p` must be readable for `n` elements for the returned lifetime.
unsafe fn host_slice<'a, T>(p: *const T, n: u64, null_msg: &str) -> Result<&'a [T], Error> {
    if n == 0 {
        Ok(&[])
    } else if p.is_null() {
        Err(invalid(null_msg))
    } else {
        // SAFETY: non-null and readable for `n` elements per the caller's contract.
        Ok(unsafe { std::slice::from_raw_parts(p, n as usize) })
    }
}

/// [`host_slice`] for an output buffer.
///
/// # Safety
/// A non-null `p` must be writable for `n` elements, and not otherwise accessed, for the returned
/// lifetime.
unsafe fn host_slice_mut<'a, T>(p: *mut T, n: u64, null_msg: &str) -> Result<&'a mut [T], Error> {
    if n == 0 {
        Ok(&mut [])
    } else if p.is_null() {
        Err(invalid(null_msg))
    } else {
        // SAFETY: non-null and writable for `n` elements per the caller's contract.
        Ok(unsafe { std::slice::from_raw_parts_mut(p, n as usize) })
    }
}

/// Runs bare gfx11 code on host memory. See `include/wavesim.h`.
///
/// # Safety
/// `code` must point to `code_size` readable bytes; every address the kernel touches (kernarg
/// segment, buffers) must be valid host memory for the access.
#[no_mangle]
pub unsafe extern "C" fn run_asm(
    code: *const c_void,
    code_size: u32,
    gx: u32,
    gy: u32,
    gz: u32,
    lx: u32,
    ly: u32,
    lz: u32,
    kernarg: *const c_void,
    rsrc2: u32,
    scratch_size: u32,
) -> i32 {
    guard(|| {
        if code.is_null() || code_size == 0 {
            return Err(invalid("run_asm: no code"));
        }
        // SAFETY: the caller guarantees `code` points to `code_size` bytes.
        let code = unsafe { std::slice::from_raw_parts(code as *const u8, code_size as usize) };
        // SAFETY: the caller guarantees host addresses are valid (documented in the header).
        unsafe {
            run_host_asm(
                code,
                [gx, gy, gz],
                [lx, ly, lz],
                kernarg as u64,
                rsrc2,
                scratch_size,
                crate::DEFAULT_MAX_WAVE_INSTRUCTIONS,
            )
        }
        .map(|_| ())
    })
}

/// `run_asm` for a named gfx11 variant: `target` is "gfx1100".."gfx1103" or "gfx1150".."gfx1152"
/// (RDNA3.5 code, e.g. the SALU float instructions); NULL means gfx1100. See `include/wavesim.h`.
///
/// # Safety
/// As `run_asm`; `target` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn run_asm_target(
    code: *const c_void,
    code_size: u32,
    gx: u32,
    gy: u32,
    gz: u32,
    lx: u32,
    ly: u32,
    lz: u32,
    kernarg: *const c_void,
    rsrc2: u32,
    scratch_size: u32,
    target: *const c_char,
) -> i32 {
    guard(|| {
        if code.is_null() || code_size == 0 {
            return Err(invalid("run_asm_target: no code"));
        }
        let target = if target.is_null() {
            wavesim_rdna3::isa::Target::Gfx1100
        } else {
            // SAFETY: the caller passes a NUL-terminated string.
            let name = unsafe { CStr::from_ptr(target) }.to_string_lossy();
            wavesim_rdna3::isa::Target::from_name(&name).ok_or_else(|| {
                invalid(&format!(
                    "run_asm_target: unknown target `{name}`; gfx1100..gfx1103, gfx1150..gfx1152"
                ))
            })?
        };
        // SAFETY: the caller guarantees `code` points to `code_size` bytes.
        let code = unsafe { std::slice::from_raw_parts(code as *const u8, code_size as usize) };
        // SAFETY: the caller guarantees host addresses are valid (documented in the header).
        unsafe {
            crate::run_host_asm_for(
                code,
                [gx, gy, gz],
                [lx, ly, lz],
                kernarg as u64,
                rsrc2,
                scratch_size,
                crate::DEFAULT_MAX_WAVE_INSTRUCTIONS,
                target,
            )
        }
        .map(|_| ())
    })
}

/// The message of the last failed call on this thread ("" after a success). Valid until the
/// next wavesim call on this thread.
#[no_mangle]
pub extern "C" fn wavesim_last_error() -> *const c_char {
    LAST_ERROR.with(|e| e.borrow().as_ptr())
}

/// Opaque device handle.
pub struct WavesimDevice(Device);
/// Opaque module handle.
pub struct WavesimModule(Module);

/// Creates a sandboxed device (NULL only if wavesim fails internally).
#[no_mangle]
pub extern "C" fn wavesim_device_create() -> *mut WavesimDevice {
    catch_unwind(|| Box::into_raw(Box::new(WavesimDevice(Device::new()))))
        .unwrap_or(std::ptr::null_mut())
}

/// Destroys a device (NULL is ignored). Its modules must be destroyed separately.
///
/// # Safety
/// `dev` must come from `wavesim_device_create` and not be used afterwards.
#[no_mangle]
pub unsafe extern "C" fn wavesim_device_destroy(dev: *mut WavesimDevice) {
    if !dev.is_null() {
        // SAFETY: created by Box::into_raw in wavesim_device_create.
        let _ = catch_unwind(AssertUnwindSafe(|| drop(unsafe { Box::from_raw(dev) })));
    }
}

/// # Safety
/// `dev` must be NULL or a live device handle.
unsafe fn dev_mut<'a>(dev: *mut WavesimDevice) -> Result<&'a mut Device, Error> {
    // SAFETY: per the caller's contract.
    unsafe { dev.as_mut() }
        .map(|d| &mut d.0)
        .ok_or_else(|| invalid("null device"))
}

/// Sets the number of host threads running workgroups (default: every core, or
/// `WAVESIM_THREADS`; 1 = one after another, in order).
///
/// # Safety
/// `dev` must be a live device handle.
#[no_mangle]
pub unsafe extern "C" fn wavesim_set_threads(dev: *mut WavesimDevice, threads: u32) -> i32 {
    guard(|| {
        // SAFETY: per the caller's contract.
        unsafe { dev_mut(dev) }?.threads = threads.max(1) as usize;
        Ok(())
    })
}

/// Allocates `size` zeroed bytes of device memory; writes the device address to `*addr`.
///
/// # Safety
/// `dev` must be a live device handle and `addr` writable.
#[no_mangle]
pub unsafe extern "C" fn wavesim_alloc(dev: *mut WavesimDevice, size: u64, addr: *mut u64) -> i32 {
    guard(|| {
        // SAFETY: per the caller's contract.
        let d = unsafe { dev_mut(dev) }?;
        if addr.is_null() {
            return Err(invalid("null address output"));
        }
        let a = d.alloc(size)?;
        // SAFETY: checked non-null; writable per the contract.
        unsafe { *addr = a };
        Ok(())
    })
}

/// Frees an allocation.
///
/// # Safety
/// `dev` must be a live device handle.
#[no_mangle]
pub unsafe extern "C" fn wavesim_free(dev: *mut WavesimDevice, addr: u64) -> i32 {
    // SAFETY: per the caller's contract.
    guard(|| unsafe { dev_mut(dev) }?.free(addr))
}

/// Copies `size` host bytes to device address `addr`.
///
/// # Safety
/// `dev` must be a live device handle, `src` readable for `size` bytes.
#[no_mangle]
pub unsafe extern "C" fn wavesim_write(
    dev: *mut WavesimDevice,
    addr: u64,
    src: *const c_void,
    size: u64,
) -> i32 {
    guard(|| {
        // SAFETY: per the caller's contract.
        let d = unsafe { dev_mut(dev) }?;
        // SAFETY: readable for `size` bytes per the contract.
        let s = unsafe { host_slice(src as *const u8, size, "null source") }?;
        if s.is_empty() {
            return Ok(());
        }
        d.write(addr, s)
    })
}

/// Copies `size` bytes at device address `addr` to host memory.
///
/// # Safety
/// `dev` must be a live device handle, `dst` writable for `size` bytes.
#[no_mangle]
pub unsafe extern "C" fn wavesim_read(
    dev: *mut WavesimDevice,
    addr: u64,
    dst: *mut c_void,
    size: u64,
) -> i32 {
    guard(|| {
        // SAFETY: per the caller's contract.
        let d = unsafe { dev_mut(dev) }?;
        // SAFETY: writable for `size` bytes per the contract.
        let s = unsafe { host_slice_mut(dst as *mut u8, size, "null destination") }?;
        if s.is_empty() {
            return Ok(());
        }
        d.read(addr, s)
    })
}

/// Loads a code object (ELF bytes) into the device; writes the module handle to `*module`.
///
/// # Safety
/// `dev` must be a live device handle, `elf` readable for `size` bytes, `module` writable.
#[no_mangle]
pub unsafe extern "C" fn wavesim_load(
    dev: *mut WavesimDevice,
    elf: *const c_void,
    size: u64,
    module: *mut *mut WavesimModule,
) -> i32 {
    guard(|| {
        // SAFETY: per the caller's contract.
        let d = unsafe { dev_mut(dev) }?;
        if elf.is_null() || module.is_null() {
            return Err(invalid("null code object or module output"));
        }
        // SAFETY: readable for `size` bytes per the contract.
        let bytes = unsafe { std::slice::from_raw_parts(elf as *const u8, size as usize) };
        let m = d.load(bytes)?;
        // SAFETY: checked non-null.
        unsafe { *module = Box::into_raw(Box::new(WavesimModule(m))) };
        Ok(())
    })
}

/// Destroys a module (NULL is ignored).
///
/// # Safety
/// `module` must come from `wavesim_load` and not be used afterwards.
#[no_mangle]
pub unsafe extern "C" fn wavesim_module_destroy(module: *mut WavesimModule) {
    if !module.is_null() {
        // SAFETY: created by Box::into_raw in wavesim_load.
        let _ = catch_unwind(AssertUnwindSafe(|| drop(unsafe { Box::from_raw(module) })));
    }
}

/// Runs `kernel` over `grid` work-items in workgroups of `local` (`dims` = 1..3 entries used).
/// `kernarg` holds the explicit arguments laid out as the kernel's metadata says (the first
/// `kernarg_size` bytes of its kernarg segment; hidden arguments are filled in, and so are the
/// slots of `__local` pointer arguments). `local_arg_sizes[i]` is the byte size of the i-th
/// `__local` pointer argument (`n_local_args` entries, which must match the kernel).
///
/// # Safety
/// Handles must be live; `kernel` a NUL-terminated string; `grid`/`local` readable for `dims`
/// entries; `kernarg` readable for `kernarg_size` bytes; `local_arg_sizes` for `n_local_args`.
#[no_mangle]
pub unsafe extern "C" fn wavesim_dispatch(
    dev: *mut WavesimDevice,
    module: *const WavesimModule,
    kernel: *const c_char,
    dims: u32,
    grid: *const u32,
    local: *const u32,
    kernarg: *const c_void,
    kernarg_size: u64,
    local_arg_sizes: *const u32,
    n_local_args: u32,
) -> i32 {
    guard(|| {
        // SAFETY: per the caller's contract.
        let d = unsafe { dev_mut(dev) }?;
        // SAFETY: per the caller's contract.
        let m = unsafe { module.as_ref() }.ok_or_else(|| invalid("null module"))?;
        if kernel.is_null() || grid.is_null() || local.is_null() || !(1..=3).contains(&dims) {
            return Err(invalid(
                "null kernel name, grid or local size, or dims not 1..3",
            ));
        }
        // SAFETY: NUL-terminated per the contract.
        let name = unsafe { CStr::from_ptr(kernel) }
            .to_str()
            .map_err(|_| invalid("kernel name is not UTF-8"))?;
        // SAFETY: readable for `dims` entries per the contract.
        let (g, l) = unsafe {
            (
                std::slice::from_raw_parts(grid, dims as usize),
                std::slice::from_raw_parts(local, dims as usize),
            )
        };
        // SAFETY: readable for `kernarg_size` bytes per the contract.
        let bytes = unsafe { host_slice(kernarg as *const u8, kernarg_size, "null kernarg") }?;
        // SAFETY: readable for `n_local_args` entries per the contract.
        let local_sizes =
            unsafe { host_slice(local_arg_sizes, n_local_args as u64, "null local_arg_sizes") }?;
        let geo = Geometry::new(g, l)?;
        let k = m.0.kernel(name)?;
        // Slice the raw segment into the kernel's explicit arguments.
        let mut args = Vec::new();
        let mut locals = local_sizes.iter();
        for a in k.explicit_args() {
            let (o, n) = (a.offset as usize, a.size as usize);
            let raw = bytes.get(o..o + n).ok_or_else(|| {
                invalid(&format!(
                    "kernarg of {} bytes does not hold argument {} (offset {o}, {n} bytes) of {}",
                    bytes.len(),
                    a.name.as_deref().unwrap_or("unnamed"),
                    k.signature()
                ))
            })?;
            args.push(match a.kind {
                crate::ValueKind::GlobalBuffer if n == 8 => {
                    Arg::Buffer(u64::from_le_bytes(raw.try_into().unwrap_or([0; 8])))
                }
                crate::ValueKind::DynamicSharedPointer => {
                    Arg::Local(*locals.next().ok_or_else(|| {
                        invalid(&format!(
                            "more __local arguments than the {n_local_args} sizes given: {}",
                            k.signature()
                        ))
                    })?)
                }
                _ => Arg::Value(raw.to_vec()),
            });
        }
        if locals.next().is_some() {
            return Err(invalid(&format!(
                "{n_local_args} __local sizes given but fewer __local arguments: {}",
                k.signature()
            )));
        }
        d.dispatch(&m.0, name, &geo, &args).map(|_| ())
    })
}

// ---- Text results for any ISA: disassembly, R700 and AGX runs, printf (issue 15) ----

/// The C string at `p`, or `None` for NULL.
///
/// # Safety
/// A non-null `p` must point to a NUL-terminated string.
unsafe fn c_str<'a>(p: *const c_char, what: &str) -> Result<Option<&'a str>, Error> {
    if p.is_null() {
        return Ok(None);
    }
    // SAFETY: non-null and NUL-terminated per the caller's contract.
    let s = unsafe { std::ffi::CStr::from_ptr(p) };
    s.to_str()
        .map(Some)
        .map_err(|_| invalid(&format!("{what} is not UTF-8")))
}

/// Copies `text` and a NUL into `out` (`out_size` bytes) and stores the bytes that takes in
/// `*needed` (when not NULL); a buffer too small is WAVESIM_ERR_INVALID with nothing written.
///
/// # Safety
/// A non-null `out` must be writable for `out_size` bytes; a non-null `needed` writable.
unsafe fn give_text(
    text: &str,
    out: *mut c_char,
    out_size: u64,
    needed: *mut u64,
) -> Result<(), Error> {
    let n = text.len() as u64 + 1;
    if !needed.is_null() {
        // SAFETY: writable per the caller's contract.
        unsafe { *needed = n };
    }
    if out_size < n {
        return Err(invalid(&format!(
            "the text takes {n} bytes (with its NUL); the buffer has {out_size}"
        )));
    }
    // SAFETY: `out` is writable for out_size >= n bytes.
    let dst = unsafe { host_slice_mut(out as *mut u8, n, "out is NULL")? };
    dst[..text.len()].copy_from_slice(text.as_bytes());
    dst[text.len()] = 0;
    Ok(())
}

/// Disassembles `bytes`: an RDNA3 code object or offload bundle, an R700 object, or bare bytes
/// (`raw` != 0) of `target` (gfx1100 ... gfx1151, rv770, rv730, rv710, agx; NULL = gfx1100).
/// See `include/wavesim.h`.
///
/// # Safety
/// `bytes` readable for `size` bytes; `target` NULL or a C string; `out`/`needed` as in the
/// header.
#[no_mangle]
pub unsafe extern "C" fn wavesim_disassemble(
    bytes: *const c_void,
    size: u64,
    target: *const c_char,
    raw: i32,
    wave64: i32,
    out: *mut c_char,
    out_size: u64,
    needed: *mut u64,
) -> i32 {
    guard(|| {
        // SAFETY: per the caller's contract.
        let code = unsafe { host_slice(bytes as *const u8, size, "bytes is NULL")? };
        let target = unsafe { c_str(target, "target")? }
            .map(crate::Isa::from_name)
            .transpose()?;
        let opts = crate::DisasmOptions {
            target: target.or((raw != 0).then_some(crate::Isa::Rdna3(Default::default()))),
            raw: raw != 0,
            wave64: wave64 != 0,
            full: false,
        };
        let text = crate::disassemble_any(code, &opts)?;
        // SAFETY: per the caller's contract.
        unsafe { give_text(&text, out, out_size, needed) }
    })
}

/// Runs an R700 shader object with a runner configuration (TOML); the exports as text.
///
/// # Safety
/// `object` readable for `size` bytes; `config_toml` a C string; `out`/`needed` as in the
/// header.
#[no_mangle]
pub unsafe extern "C" fn wavesim_run_r700(
    object: *const c_void,
    size: u64,
    config_toml: *const c_char,
    out: *mut c_char,
    out_size: u64,
    needed: *mut u64,
) -> i32 {
    guard(|| {
        // SAFETY: per the caller's contract.
        let object = unsafe { host_slice(object as *const u8, size, "object is NULL")? };
        let cfg = unsafe { c_str(config_toml, "config_toml")? }
            .ok_or_else(|| invalid("config_toml is NULL"))?;
        let text = crate::run_r700(object, cfg)?.to_text();
        // SAFETY: per the caller's contract.
        unsafe { give_text(&text, out, out_size, needed) }
    })
}

/// Runs an AGX job (TOML); `code` (may be NULL) is the machine code when the configuration
/// names none; files it names are read relative to `config_dir` (NULL = "."). The outputs as
/// text.
///
/// # Safety
/// C strings or NULL as documented; `code` readable for `code_size` bytes; `out`/`needed` as in
/// the header.
#[no_mangle]
pub unsafe extern "C" fn wavesim_run_agx(
    config_toml: *const c_char,
    config_dir: *const c_char,
    code: *const c_void,
    code_size: u64,
    out: *mut c_char,
    out_size: u64,
    needed: *mut u64,
) -> i32 {
    guard(|| {
        // SAFETY: per the caller's contract.
        let cfg = unsafe { c_str(config_toml, "config_toml")? }
            .ok_or_else(|| invalid("config_toml is NULL"))?;
        let dir = unsafe { c_str(config_dir, "config_dir")? }.unwrap_or(".");
        let code = if code.is_null() {
            None
        } else {
            Some(unsafe { host_slice(code as *const u8, code_size, "code is NULL")? })
        };
        let text = crate::run_agx(cfg, std::path::Path::new(dir), code)?.to_text();
        // SAFETY: per the caller's contract.
        unsafe { give_text(&text, out, out_size, needed) }
    })
}

/// The text the device's last dispatch printed with `printf`.
///
/// # Safety
/// `dev` from `wavesim_device_create`; `out`/`needed` as in the header.
#[no_mangle]
pub unsafe extern "C" fn wavesim_printf_output(
    dev: *const WavesimDevice,
    out: *mut c_char,
    out_size: u64,
    needed: *mut u64,
) -> i32 {
    guard(|| {
        if dev.is_null() {
            return Err(invalid("dev is NULL"));
        }
        // SAFETY: a live device per the caller's contract.
        let text = unsafe { (*dev).0.printf_output().to_string() };
        // SAFETY: per the caller's contract.
        unsafe { give_text(&text, out, out_size, needed) }
    })
}

/// One host address range the caller mapped for the device (see `wavesim_raw_dispatch`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct WavesimHostRange {
    pub start: u64,
    pub size: u64,
}

/// The registers of one raw dispatch (see `wavesim_raw_dispatch` in `include/wavesim.h`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct WavesimRawDispatch {
    pub code: *const c_void,
    pub code_size: u64,
    pub user_data: *const u32,
    pub user_data_count: u32,
    pub rsrc1: u32,
    pub rsrc2: u32,
    pub rsrc3: u32,
    pub groups: [u32; 3],
    pub local: [u32; 3],
    pub wave_size: u32,
    pub scratch_size: u32,
    pub target: *const c_char,
    pub ranges: *const WavesimHostRange,
    pub range_count: u64,
    pub max_wave_instructions: u64,
}

/// Runs a dispatch described by the registers a driver programs (raw dispatch ABI for emulator
/// drop-ins). See `include/wavesim.h`.
///
/// # Safety
/// `d` points to a valid `wavesim_raw_dispatch`; `code`, `user_data`, `ranges` and `target`
/// are readable as described there; every address the kernel touches is valid host memory
/// (with ranges: every byte of every range is).
#[no_mangle]
pub unsafe extern "C" fn wavesim_dispatch_raw(d: *const WavesimRawDispatch) -> i32 {
    guard(|| {
        // SAFETY: the caller passes NULL or a valid struct.
        let d = unsafe { d.as_ref() }.ok_or_else(|| invalid("wavesim_dispatch_raw: NULL"))?;
        if d.code.is_null() || d.code_size == 0 {
            return Err(invalid("wavesim_dispatch_raw: no code"));
        }
        let code_size = usize::try_from(d.code_size)
            .map_err(|_| invalid("wavesim_dispatch_raw: code_size too large"))?;
        // SAFETY: the caller guarantees `code` points to `code_size` readable bytes.
        let code = unsafe { std::slice::from_raw_parts(d.code as *const u8, code_size) };
        // SAFETY: `user_data` is readable for `user_data_count` values (caller's contract).
        let user = unsafe {
            host_slice(
                d.user_data,
                u64::from(d.user_data_count),
                "wavesim_dispatch_raw: user_data is NULL",
            )
        }?;
        // SAFETY: `ranges` is readable for `range_count` entries (caller's contract).
        let ranges = unsafe {
            host_slice(
                d.ranges,
                d.range_count,
                "wavesim_dispatch_raw: ranges is NULL",
            )
        }?;
        let ranges = mapped_ranges(ranges)?;
        let target = if d.target.is_null() {
            wavesim_rdna3::isa::Target::Gfx1100
        } else {
            // SAFETY: the caller passes a NUL-terminated string.
            let name = unsafe { CStr::from_ptr(d.target) }.to_string_lossy();
            wavesim_rdna3::hsa::raw::target_from(&name)?
        };
        let wave64 = match d.wave_size {
            32 => false,
            64 => true,
            n => return Err(crate::RawError::WaveSize(n).into()),
        };
        let raw = crate::RawDispatch {
            code,
            groups: d.groups,
            local: d.local,
            user_sgprs: user,
            rsrc1: d.rsrc1,
            rsrc2: d.rsrc2,
            rsrc3: d.rsrc3,
            wave64,
            scratch_lane_bytes: d.scratch_size,
            target,
            host_ranges: (!d.ranges.is_null()).then_some(ranges.as_slice()),
            max_wave_insts: if d.max_wave_instructions == 0 {
                crate::DEFAULT_MAX_WAVE_INSTRUCTIONS
            } else {
                d.max_wave_instructions
            },
        };
        // SAFETY: forwarded to the caller (documented above and in the header).
        unsafe { crate::dispatch_raw(&raw) }.map(|_| ())
    })
}

/// The granule the raw ABI maps host ranges in: a driver maps GPU memory in whole pages, so an
/// access past a buffer's end inside its last page is legal on the GPU (compilers' wide scalar
/// loads do it). Byte-exact ranges: [`wavesim_set_raw_exact_ranges`].
pub const RAW_RANGE_PAGE: u64 = 4096;

/// Whether raw dispatches map the caller's ranges byte-exactly instead of in whole pages.
static RAW_EXACT_RANGES: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Maps the raw ABI's host ranges byte-exactly (`exact` != 0) or in whole 4 KiB pages (0, the
/// default, as a driver maps GPU memory) for the raw dispatches that follow, in every thread.
#[no_mangle]
pub extern "C" fn wavesim_set_raw_exact_ranges(exact: i32) -> i32 {
    RAW_EXACT_RANGES.store(exact != 0, std::sync::atomic::Ordering::Relaxed);
    WAVESIM_OK
}

/// The caller's ranges as the device sees them: each widened to whole pages unless byte-exact
/// ranges were asked for; a range whose end wraps past 2^64 is refused, naming it.
fn mapped_ranges(ranges: &[WavesimHostRange]) -> Result<Vec<(u64, u64)>, Error> {
    let exact = RAW_EXACT_RANGES.load(std::sync::atomic::Ordering::Relaxed);
    let mut out = Vec::with_capacity(ranges.len());
    for (i, r) in ranges.iter().enumerate() {
        let end = r.start.checked_add(r.size).ok_or_else(|| {
            invalid(&format!(
                "wavesim_dispatch_raw: ranges[{i}] (start {:#x}, size {:#x}) ends past 2^64",
                r.start, r.size
            ))
        })?;
        if r.size == 0 || exact {
            out.push((r.start, r.size));
            continue;
        }
        let start = r.start & !(RAW_RANGE_PAGE - 1);
        // The last page of the address space has no end that fits in 64 bits; it stops at
        // 2^64 - 1.
        let end = end
            .checked_next_multiple_of(RAW_RANGE_PAGE)
            .unwrap_or(u64::MAX);
        out.push((start, end - start));
    }
    Ok(out)
}

/// An engine number of the C ABI: 0 interp, 1 jit, 2 auto.
fn engine_of(engine: i32) -> Result<wavesim_rdna3::jit::Engine, Error> {
    use wavesim_rdna3::jit::Engine;
    match engine {
        0 => Ok(Engine::Interp),
        1 => Ok(Engine::Jit),
        2 => Ok(Engine::Auto),
        _ => Err(invalid("engine: 0 (interp), 1 (jit) or 2 (auto)")),
    }
}

/// Chooses how the device's RDNA3 dispatches execute: 0 interpreter, 1 JIT, 2 auto.
///
/// # Safety
/// `dev` must be a live device handle.
#[no_mangle]
pub unsafe extern "C" fn wavesim_set_engine(dev: *mut WavesimDevice, engine: i32) -> i32 {
    guard(|| {
        let e = engine_of(engine)?;
        // SAFETY: per the caller's contract.
        unsafe { dev_mut(dev) }?.cfg.engine = e;
        Ok(())
    })
}

/// Sets the host threads of `run_asm`, `wavesim_dispatch_raw` and devices created afterwards
/// (process-wide, over the WAVESIM_THREADS environment variable): 1 runs workgroups one after
/// another, in order, on the calling thread; 0 restores the default (WAVESIM_THREADS, else
/// every core).
#[no_mangle]
pub extern "C" fn wavesim_set_default_threads(threads: u32) -> i32 {
    guard(|| {
        wavesim_core::engine::set_default_threads(threads as usize);
        Ok(())
    })
}

/// Chooses the engine of `run_asm` and of devices created afterwards (process-wide; overrides
/// the WAVESIM_ENGINE environment variable): 0 interpreter, 1 JIT, 2 auto.
#[no_mangle]
pub extern "C" fn wavesim_set_default_engine(engine: i32) -> i32 {
    guard(|| {
        wavesim_rdna3::jit::set_default_engine(engine_of(engine)?);
        Ok(())
    })
}

/// Turns on the RDNA3 JIT's on-disk compiled-code cache in directory `dir` for the rest of the
/// process (created when first written; NULL or "" turns the disk cache off), over the
/// WAVESIM_JIT_CACHE environment variable. Later runs of the same kernels load their compiled
/// code from there instead of compiling it again. `dir` must be writable only by users trusted
/// to run code as this process.
///
/// # Safety
/// A non-null `dir` must point to a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn wavesim_set_jit_cache(dir: *const c_char) -> i32 {
    guard(|| {
        let dir = if dir.is_null() {
            None
        } else {
            // SAFETY: non-null and NUL-terminated per the caller's contract.
            let bytes = unsafe { CStr::from_ptr(dir) }.to_bytes();
            Some(path_from_c(bytes)?)
        };
        wavesim_rdna3::jit::set_disk_cache(dir);
        Ok(())
    })
}

/// A path given as C string bytes: any bytes on Unix, UTF-8 elsewhere.
fn path_from_c(bytes: &[u8]) -> Result<std::path::PathBuf, Error> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        Ok(std::ffi::OsStr::from_bytes(bytes).into())
    }
    #[cfg(not(unix))]
    {
        std::str::from_utf8(bytes)
            .map(Into::into)
            .map_err(|_| invalid("the JIT cache directory is not UTF-8"))
    }
}
