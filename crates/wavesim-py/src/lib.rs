//! `wavesim._native`: the Python extension module behind the `wavesim` package (python/). It
//! takes and returns plain bytes; `python/wavesim/__init__.py` turns numpy arrays and Python
//! numbers into them, checked against the kernel's argument metadata this module reports.

// PyO3 0.22's #[pymethods]/create_exception! expansions convert PyErr into PyErr and test a
// `gil-refs` cfg the crate does not declare; the lints fire on the generated code, not ours.
#![allow(clippy::useless_conversion, unexpected_cfgs)]

use pyo3::create_exception;
use pyo3::exceptions::PyException;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList};

create_exception!(
    _native,
    WavesimError,
    PyException,
    "An error wavesim reported; the text is wavesim's message."
);

fn err(e: impl std::fmt::Display) -> PyErr {
    WavesimError::new_err(e.to_string())
}

/// A loaded RDNA3 code object (or the gfx11 entry of an offload bundle).
#[pyclass(unsendable, module = "wavesim._native")]
struct Module {
    module: wavesim::Module,
}

#[pymethods]
impl Module {
    /// The kernels' symbol names.
    fn kernels(&self) -> Vec<String> {
        self.module
            .code
            .kernels
            .iter()
            .map(|k| k.name.clone())
            .collect()
    }

    /// The symbol of kernel `name` (a symbol, a demangled name or a demangled signature).
    fn resolve(&self, name: &str) -> PyResult<String> {
        Ok(self.module.kernel(name).map_err(err)?.name.clone())
    }

    /// The C-like signature of kernel `name`, for messages.
    fn signature(&self, name: &str) -> PyResult<String> {
        Ok(self.module.kernel(name).map_err(err)?.signature())
    }

    /// The kernel's reqd_work_group_size, if it has one.
    fn reqd_local(&self, name: &str) -> PyResult<Option<[u32; 3]>> {
        Ok(self
            .module
            .kernel(name)
            .map_err(err)?
            .meta
            .reqd_workgroup_size)
    }

    /// The explicit arguments of kernel `name`: one dict each with `name`, `kind`
    /// (`by_value`, `global_buffer`, `dynamic_shared_pointer`, ...), `size`, `offset`,
    /// `type_name` (OpenCL only) and `is_const`.
    fn args<'py>(&self, py: Python<'py>, name: &str) -> PyResult<Bound<'py, PyList>> {
        let k = self.module.kernel(name).map_err(err)?;
        let list = PyList::empty_bound(py);
        for a in k.explicit_args() {
            let d = PyDict::new_bound(py);
            d.set_item("name", a.name.clone())?;
            d.set_item("kind", a.kind.as_str())?;
            d.set_item("size", a.size)?;
            d.set_item("offset", a.offset)?;
            d.set_item("type_name", a.type_name.clone())?;
            d.set_item("is_const", a.is_const)?;
            list.append(d)?;
        }
        Ok(list)
    }
}

/// A sandboxed device: its own memory; kernels see only what is copied into it.
#[pyclass(unsendable, module = "wavesim._native")]
struct Device {
    dev: wavesim::Device,
}

#[pymethods]
impl Device {
    #[new]
    #[pyo3(signature = (threads = None))]
    fn new(threads: Option<usize>) -> Device {
        let mut dev = wavesim::Device::new();
        if let Some(t) = threads {
            dev.threads = t.max(1);
        }
        Device { dev }
    }

    /// Loads a code object (ELF bytes or an offload bundle).
    fn load(&mut self, code: &[u8]) -> PyResult<Module> {
        Ok(Module {
            module: self.dev.load(code).map_err(err)?,
        })
    }

    /// Runs kernel `name` over `grid` work-items in workgroups of `block`. `args` are
    /// `(kind, payload)` pairs: `("value", bytes)`, `("buffer", bytes)` (copied in, read back)
    /// or `("local", nbytes)`. Returns the final contents of every buffer (None for the other
    /// arguments) and the printf text.
    #[pyo3(signature = (module, name, grid, block, args, dynamic_shared = 0))]
    #[allow(clippy::too_many_arguments)] // Python's keyword arguments, one per launch parameter
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        module: PyRef<'_, Module>,
        name: &str,
        grid: Vec<u32>,
        block: Vec<u32>,
        args: Vec<(String, Bound<'py, PyAny>)>,
        dynamic_shared: u32,
    ) -> PyResult<(Vec<Option<Bound<'py, PyBytes>>>, String)> {
        let geo = wavesim::Geometry::new(&grid, &block).map_err(err)?;
        let mut kargs = Vec::with_capacity(args.len());
        let mut bufs: Vec<Option<(u64, u64)>> = Vec::with_capacity(args.len());
        let mut setup = || -> PyResult<()> {
            for (kind, payload) in &args {
                match kind.as_str() {
                    "value" => {
                        kargs.push(wavesim::Arg::Value(payload.extract::<Vec<u8>>()?));
                        bufs.push(None);
                    }
                    "buffer" => {
                        let data: &[u8] = payload.extract()?;
                        let a = self.dev.alloc_with(data).map_err(err)?;
                        bufs.push(Some((a, data.len() as u64)));
                        kargs.push(wavesim::Arg::Buffer(a));
                    }
                    "local" => {
                        kargs.push(wavesim::Arg::Local(payload.extract()?));
                        bufs.push(None);
                    }
                    other => return Err(err(format!("unknown argument kind `{other}`"))),
                }
            }
            Ok(())
        };
        let r = setup().and_then(|()| {
            self.dev.dynamic_shared = dynamic_shared;
            let m = &module.module;
            // The emulation runs without the interpreter lock held only for its own data.
            let dev = &mut self.dev;
            dev.dispatch(m, name, &geo, &kargs).map_err(err)?;
            let mut out = Vec::with_capacity(bufs.len());
            for b in &bufs {
                out.push(match b {
                    Some((a, n)) => Some(PyBytes::new_bound(
                        py,
                        &self.dev.read_vec(*a, *n).map_err(err)?,
                    )),
                    None => None,
                });
            }
            Ok((out, self.dev.printf_output().to_string()))
        });
        for (a, _) in bufs.into_iter().flatten() {
            let _ = self.dev.free(a);
        }
        r
    }
}

/// Disassembles `code`: an RDNA3 code object or offload bundle, an R700 object, or bare bytes
/// with `raw=True` and `target` (gfx1100 ... gfx1151, rv770, rv730, rv710, agx).
#[pyfunction]
#[pyo3(signature = (code, target = None, raw = false, wave64 = false))]
fn disassemble(code: &[u8], target: Option<&str>, raw: bool, wave64: bool) -> PyResult<String> {
    let target = target
        .map(wavesim::Isa::from_name)
        .transpose()
        .map_err(err)?;
    let opts = wavesim::DisasmOptions {
        target: target.or(raw.then_some(wavesim::Isa::Rdna3(Default::default()))),
        raw,
        wave64,
        full: false,
    };
    wavesim::disassemble_any(code, &opts).map_err(err)
}

/// Runs an R700 shader object with a runner configuration (TOML); returns the exports as text
/// (one line per thread and target, as `wavesim run` prints them) and, for grid runs, the PNG
/// of pixel export 0.
#[pyfunction]
fn run_r700<'py>(
    py: Python<'py>,
    object: &[u8],
    config_toml: &str,
) -> PyResult<(String, Option<Bound<'py, PyBytes>>)> {
    let res = wavesim::run_r700(object, config_toml).map_err(err)?;
    let png = res.png(0).ok().map(|p| PyBytes::new_bound(py, &p));
    Ok((res.to_text(), png))
}

/// Runs an AGX job (TOML; `code` is the machine code when the configuration names none, and
/// files it names are read relative to `config_dir`); returns the outputs as text and the PNGs
/// of its render targets.
#[pyfunction]
#[pyo3(signature = (config_toml, code = None, config_dir = "."))]
fn run_agx<'py>(
    py: Python<'py>,
    config_toml: &str,
    code: Option<&[u8]>,
    config_dir: &str,
) -> PyResult<(String, Vec<Bound<'py, PyBytes>>)> {
    let res = wavesim::run_agx(config_toml, std::path::Path::new(config_dir), code).map_err(err)?;
    let pngs = res.pngs.iter().map(|p| PyBytes::new_bound(py, p)).collect();
    Ok((res.to_text(), pngs))
}

/// Runs bare gfx11 instruction bytes in wave32 on HOST memory, as the C `run_asm` does (raw
/// mode, unsandboxed by design): `groups` workgroups of `local` work-items, s[0:1] = `kernarg`
/// (a host address), `rsrc2` = COMPUTE_PGM_RSRC2, `scratch_size` private bytes per work-item.
#[pyfunction]
#[pyo3(signature = (code, groups, local, kernarg, rsrc2 = 0, scratch_size = 0, max_instructions = wavesim::DEFAULT_MAX_WAVE_INSTRUCTIONS))]
fn run_asm(
    code: &[u8],
    groups: [u32; 3],
    local: [u32; 3],
    kernarg: u64,
    rsrc2: u32,
    scratch_size: u32,
    max_instructions: u64,
) -> PyResult<()> {
    // SAFETY: raw mode by contract: the Python caller guarantees that every address the kernel
    // touches is host memory it owns for the call (documented in the package's run_asm).
    unsafe {
        wavesim::run_host_asm(
            code,
            groups,
            local,
            kernarg,
            rsrc2,
            scratch_size,
            max_instructions,
        )
    }
    .map(|_| ())
    .map_err(err)
}

/// Host address ranges a raw dispatch may touch, kept here and updated as a driver maps and
/// unmaps memory (tinygrad's mock AMD GPU), so a dispatch passes the table instead of copying
/// every range. Ranges are kept as given, a multiset of (start, size); a dispatch widens each to
/// whole 4 KiB pages, as a driver maps GPU memory, unless the table was made `exact`.
#[pyclass(unsendable, module = "wavesim._native")]
struct HostRanges {
    ranges: std::collections::BTreeMap<(u64, u64), u32>,
    exact: bool,
}

/// The page a raw dispatch maps host ranges in (the C ABI's `RAW_RANGE_PAGE`).
const RANGE_PAGE: u64 = 4096;

#[pymethods]
impl HostRanges {
    #[new]
    #[pyo3(signature = (ranges = Vec::new(), exact = false))]
    fn new(ranges: Vec<(u64, u64)>, exact: bool) -> PyResult<Self> {
        let mut t = HostRanges {
            ranges: Default::default(),
            exact,
        };
        for (start, size) in ranges {
            t.add(start, size)?;
        }
        Ok(t)
    }

    /// Maps `size` bytes at host address `start`.
    fn add(&mut self, start: u64, size: u64) -> PyResult<()> {
        if start.checked_add(size).is_none() {
            return Err(err(format!(
                "host range (start {start:#x}, size {size:#x}) ends past 2^64"
            )));
        }
        *self.ranges.entry((start, size)).or_insert(0) += 1;
        Ok(())
    }

    /// Unmaps a range added before; an error names a range that is not mapped.
    fn remove(&mut self, start: u64, size: u64) -> PyResult<()> {
        match self.ranges.get_mut(&(start, size)) {
            Some(n) if *n > 1 => *n -= 1,
            Some(_) => {
                self.ranges.remove(&(start, size));
            }
            None => {
                return Err(err(format!(
                    "host range (start {start:#x}, size {size:#x}) is not mapped"
                )))
            }
        }
        Ok(())
    }

    fn __contains__(&self, r: (u64, u64)) -> bool {
        self.ranges.contains_key(&r)
    }

    fn __len__(&self) -> usize {
        self.ranges.values().map(|&n| n as usize).sum()
    }

    /// The ranges, sorted (each once per time it was added).
    fn list(&self) -> Vec<(u64, u64)> {
        self.ranges
            .iter()
            .flat_map(|(&r, &n)| std::iter::repeat_n(r, n as usize))
            .collect()
    }
}

impl HostRanges {
    /// The ranges as the device maps them: whole pages unless exact.
    fn device_ranges(&self) -> Vec<(u64, u64)> {
        self.ranges
            .keys()
            .map(|&(start, size)| {
                if self.exact || size == 0 {
                    return (start, size);
                }
                let lo = start & !(RANGE_PAGE - 1);
                let hi = (start + size)
                    .checked_next_multiple_of(RANGE_PAGE)
                    .unwrap_or(u64::MAX);
                (lo, hi - lo)
            })
            .collect()
    }
}

/// Runs a raw dispatch (the C ABI's `wavesim_dispatch_raw`: code at a host address, the user
/// SGPRs, COMPUTE_PGM_RSRC1/2/3, `groups` workgroups of `local` work-items, the wave size,
/// private bytes per work-item, the target by name or KFD number) on HOST memory, limited to
/// `ranges` when given. Raw mode: the caller guarantees that the code and every range are host
/// memory it owns for the call.
#[pyfunction]
#[pyo3(signature = (code, code_size, user_data, rsrc1, rsrc2, rsrc3, groups, local, wave_size = 32, scratch_size = 0, target = "gfx1100", ranges = None, max_instructions = wavesim::DEFAULT_MAX_WAVE_INSTRUCTIONS))]
#[allow(clippy::too_many_arguments)]
fn dispatch_raw(
    code: u64,
    code_size: u64,
    user_data: Vec<u32>,
    rsrc1: u32,
    rsrc2: u32,
    rsrc3: u32,
    groups: [u32; 3],
    local: [u32; 3],
    wave_size: u32,
    scratch_size: u32,
    target: &str,
    ranges: Option<PyRef<HostRanges>>,
    max_instructions: u64,
) -> PyResult<()> {
    if code == 0 || code_size == 0 {
        return Err(err("dispatch_raw: no code"));
    }
    let n = usize::try_from(code_size).map_err(|_| err("dispatch_raw: code_size too large"))?;
    // SAFETY: raw mode by contract: the caller guarantees `code` points to `code_size` readable
    // bytes of host memory for the call.
    let code = unsafe { std::slice::from_raw_parts(code as *const u8, n) };
    let wave64 = match wave_size {
        32 => false,
        64 => true,
        n => return Err(err(wavesim::RawError::WaveSize(n))),
    };
    let host = ranges.map(|r| r.device_ranges());
    let raw = wavesim::RawDispatch {
        code,
        groups,
        local,
        user_sgprs: &user_data,
        rsrc1,
        rsrc2,
        rsrc3,
        wave64,
        scratch_lane_bytes: scratch_size,
        target: wavesim::raw::target_from(target).map_err(err)?,
        host_ranges: host.as_deref(),
        max_wave_insts: max_instructions,
    };
    // SAFETY: forwarded to the caller (documented above).
    unsafe { wavesim::dispatch_raw(&raw) }
        .map(|_| ())
        .map_err(err)
}

/// The demangled signature of a C++ symbol, or None.
#[pyfunction]
fn demangle(symbol: &str) -> Option<String> {
    wavesim::demangle(symbol)
}

/// Draws the scene a TOML file describes (`wavesim draw`; paths in it are relative to the
/// file); returns the PNG of every render target.
#[pyfunction]
fn draw<'py>(py: Python<'py>, scene: &str) -> PyResult<Vec<Bound<'py, PyBytes>>> {
    let pngs = wavesim::draw_scene_file(std::path::Path::new(scene)).map_err(err)?;
    Ok(pngs.iter().map(|p| PyBytes::new_bound(py, p)).collect())
}

// ---- Step API (issue 16): a dispatch under the debugger, driven from Python ----
//
// `wavesim::Device::debug` hands a `Debugger` to a closure for the length of the dispatch. A
// Python session outlives any single call, so the session runs that closure on its own thread
// with its own device (the code object loaded into it, the buffers copied into it) and serves
// one command at a time over a channel; every Python call sends a command and waits for the
// answer with the interpreter lock released.

use std::sync::mpsc::{channel, Receiver, Sender};

enum DbgCmd {
    BreakAt(u64),
    ClearBreak(u64),
    /// (kind: sgpr / vgpr / exec, register index, lane, value)
    BreakIf(String, usize, usize, u64),
    ClearConditions,
    Step(usize),
    Cont,
    Pc(usize),
    Next(usize),
    WaveCount,
    Workgroup,
    Ended(usize),
    ReadSgpr(usize, usize),
    WriteSgpr(usize, usize, u32),
    ReadVgpr(usize, usize),
    WriteVgpr(usize, usize, usize, u32),
    ReadMem(u64, u64),
    WriteMem(u64, Vec<u8>),
    ReadLds(usize, usize),
    WriteLds(usize, Vec<u8>),
    /// Run to the end and return every buffer's contents.
    Finish,
}

enum DbgVal {
    Unit,
    Int(u64),
    OptInt(Option<u64>),
    Ints(Vec<u32>),
    Bytes(Vec<u8>),
    Text(Option<String>),
    Event(&'static str, usize, u64),
    Buffers(Vec<Vec<u8>>),
}

type DbgReply = Result<DbgVal, String>;

/// The session's module, kernel arguments and buffers (address, bytes).
type DbgSetup = (wavesim::Module, Vec<wavesim::Arg>, Vec<Option<(u64, u64)>>);

fn debug_event(e: wavesim::DebugEvent) -> DbgVal {
    match e {
        wavesim::DebugEvent::Breakpoint { wave, pc } => DbgVal::Event("breakpoint", wave, pc),
        wavesim::DebugEvent::Condition { wave, index } => {
            DbgVal::Event("condition", wave, index as u64)
        }
        wavesim::DebugEvent::Stepped { wave, ended } => {
            DbgVal::Event("stepped", wave, ended as u64)
        }
        wavesim::DebugEvent::Finished => DbgVal::Event("finished", 0, 0),
    }
}

/// One command against the debugger (runs on the session's thread).
fn debug_command(d: &mut wavesim::Debugger, cmd: DbgCmd, buffers: &[(u64, u64)]) -> DbgReply {
    let no_wave = |i: usize| format!("no wave {i} in this workgroup");
    Ok(match cmd {
        DbgCmd::BreakAt(pc) => {
            d.break_at(pc)?;
            DbgVal::Unit
        }
        DbgCmd::ClearBreak(pc) => {
            d.clear_break(pc);
            DbgVal::Unit
        }
        DbgCmd::BreakIf(kind, reg, lane, value) => {
            let cond: Box<dyn Fn(&wavesim::Wave) -> bool> = match kind.as_str() {
                "sgpr" if reg < 128 => Box::new(move |w| w.sgpr[reg] as u64 == value),
                "vgpr" => Box::new(move |w| {
                    reg < w.num_vgprs as usize
                        && lane < w.lanes()
                        && w.vrow(reg).get(lane).is_some_and(|&v| v as u64 == value)
                }),
                "exec" => Box::new(move |w| w.exec() == value),
                _ => {
                    return Err(format!(
                        "break_if: kind `{kind}` (register {reg}): expected sgpr (0..127), vgpr \
                         or exec"
                    ))
                }
            };
            DbgVal::Int(d.break_if(cond) as u64)
        }
        DbgCmd::ClearConditions => {
            d.clear_conditions();
            DbgVal::Unit
        }
        DbgCmd::Step(i) => {
            if i >= d.wave_count() && !d.finished() {
                return Err(no_wave(i));
            }
            debug_event(d.step(i).map_err(|e| e.to_string())?)
        }
        DbgCmd::Cont => debug_event(d.cont().map_err(|e| e.to_string())?),
        DbgCmd::Pc(i) => DbgVal::OptInt(d.pc(i)),
        DbgCmd::Next(i) => DbgVal::Text(d.next_instruction(i)),
        DbgCmd::WaveCount => DbgVal::Int(d.wave_count() as u64),
        DbgCmd::Workgroup => {
            let g = d.workgroup();
            DbgVal::Ints(g.to_vec())
        }
        DbgCmd::Ended(i) => DbgVal::Int(d.ended(i) as u64),
        DbgCmd::ReadSgpr(i, r) => {
            let w = d.wave(i).ok_or_else(|| no_wave(i))?;
            DbgVal::Int(*w.sgpr.get(r).ok_or(format!("no s{r}"))? as u64)
        }
        DbgCmd::WriteSgpr(i, r, v) => {
            let w = d.wave_mut(i).ok_or_else(|| no_wave(i))?;
            *w.sgpr.get_mut(r).ok_or(format!("no s{r}"))? = v;
            DbgVal::Unit
        }
        DbgCmd::ReadVgpr(i, r) => {
            let w = d.wave(i).ok_or_else(|| no_wave(i))?;
            if r >= w.num_vgprs as usize {
                return Err(format!("no v{r} (the wave has {} VGPRs)", w.num_vgprs));
            }
            DbgVal::Ints(w.vrow(r)[..w.lanes()].to_vec())
        }
        DbgCmd::WriteVgpr(i, r, lane, v) => {
            let w = d.wave_mut(i).ok_or_else(|| no_wave(i))?;
            let lanes = w.lanes();
            let row = w.vrow_mut(r).ok_or(format!("no v{r}"))?;
            if lane >= lanes {
                return Err(format!("no lane {lane} (the wave has {lanes})"));
            }
            row[lane] = v;
            DbgVal::Unit
        }
        DbgCmd::ReadMem(a, n) => {
            use wavesim::limits;
            limits::check_bytes("read_mem n", n, limits::MAX_READ_BYTES)
                .map_err(|e| e.to_string())?;
            let mut out = vec![0u8; n as usize];
            d.memory().read(a, &mut out).map_err(|e| e.to_string())?;
            DbgVal::Bytes(out)
        }
        DbgCmd::WriteMem(a, data) => {
            d.memory().write(a, &data).map_err(|e| e.to_string())?;
            DbgVal::Unit
        }
        DbgCmd::ReadLds(off, n) => DbgVal::Bytes(
            d.lds()
                .get(off..off.saturating_add(n))
                .ok_or(format!(
                    "LDS bytes {off}..{} are outside the group's LDS",
                    off.saturating_add(n)
                ))?
                .to_vec(),
        ),
        DbgCmd::WriteLds(off, data) => {
            let lds = d.lds_mut();
            let n = data.len();
            lds.get_mut(off..off.saturating_add(n))
                .ok_or(format!(
                    "LDS bytes {off}..{} are outside the group's LDS",
                    off.saturating_add(n)
                ))?
                .copy_from_slice(&data);
            DbgVal::Unit
        }
        DbgCmd::Finish => {
            while !d.finished() {
                d.cont().map_err(|e| e.to_string())?;
            }
            let mut out = Vec::new();
            for &(a, n) in buffers {
                let mut b = vec![0u8; n as usize];
                d.memory().read(a, &mut b).map_err(|e| e.to_string())?;
                out.push(b);
            }
            DbgVal::Buffers(out)
        }
    })
}

/// A dispatch stopped under the debugger (see `wavesim.debug` in the package).
#[pyclass(unsendable, module = "wavesim._native")]
struct DebugSession {
    tx: Option<Sender<DbgCmd>>,
    rx: Option<Receiver<DbgReply>>,
    /// Device addresses of the buffer arguments, in argument order (None for the others).
    #[pyo3(get)]
    buffers: Vec<Option<u64>>,
    done: bool,
}

impl DebugSession {
    fn ask(&mut self, py: Python<'_>, cmd: DbgCmd) -> PyResult<DbgVal> {
        if self.done {
            return Err(err("the debug session has finished"));
        }
        let tx = self
            .tx
            .as_ref()
            .ok_or_else(|| err("the debug session has ended"))?;
        tx.send(cmd)
            .map_err(|_| err("the debug session's dispatch has ended"))?;
        let rx = self
            .rx
            .take()
            .ok_or_else(|| err("the debug session has ended"))?;
        let (reply, rx) = py.allow_threads(move || {
            let r = rx.recv();
            (r, rx)
        });
        self.rx = Some(rx);
        match reply {
            Ok(r) => r.map_err(err),
            Err(_) => {
                self.done = true;
                Err(err("the debug session's dispatch has ended"))
            }
        }
    }
}

fn event_tuple(py: Python<'_>, v: DbgVal) -> PyResult<PyObject> {
    match v {
        DbgVal::Event("finished", _, _) => Ok(("finished",).into_py(py)),
        DbgVal::Event("stepped", w, ended) => Ok(("stepped", w, ended != 0).into_py(py)),
        DbgVal::Event(kind, w, x) => Ok((kind, w, x).into_py(py)),
        _ => Err(err("unexpected reply from the debug session")),
    }
}

fn int_of(v: DbgVal) -> PyResult<u64> {
    match v {
        DbgVal::Int(x) => Ok(x),
        _ => Err(err("unexpected reply from the debug session")),
    }
}

#[pymethods]
impl DebugSession {
    /// Stop before any wave executes the instruction at `pc` (PC as `wavesim disasm` shows).
    fn break_at(&mut self, py: Python<'_>, pc: u64) -> PyResult<()> {
        self.ask(py, DbgCmd::BreakAt(pc)).map(|_| ())
    }

    fn clear_break(&mut self, py: Python<'_>, pc: u64) -> PyResult<()> {
        self.ask(py, DbgCmd::ClearBreak(pc)).map(|_| ())
    }

    /// Stop before a wave's next instruction when `kind` (`sgpr`, `vgpr` at `lane`, `exec`)
    /// register `index` equals `value`; returns the condition's number.
    #[pyo3(signature = (kind, value, index = 0, lane = 0))]
    fn break_if(
        &mut self,
        py: Python<'_>,
        kind: &str,
        value: u64,
        index: usize,
        lane: usize,
    ) -> PyResult<u64> {
        int_of(self.ask(py, DbgCmd::BreakIf(kind.into(), index, lane, value))?)
    }

    fn clear_conditions(&mut self, py: Python<'_>) -> PyResult<()> {
        self.ask(py, DbgCmd::ClearConditions).map(|_| ())
    }

    /// Runs one instruction of wave `wave`: `("stepped", wave, ended)` or `("finished",)`.
    fn step(&mut self, py: Python<'_>, wave: usize) -> PyResult<PyObject> {
        let v = self.ask(py, DbgCmd::Step(wave))?;
        event_tuple(py, v)
    }

    /// Runs until a breakpoint (`("breakpoint", wave, pc)`), a condition
    /// (`("condition", wave, number)`) or the end (`("finished",)`).
    #[pyo3(name = "cont")]
    fn cont_(&mut self, py: Python<'_>) -> PyResult<PyObject> {
        let v = self.ask(py, DbgCmd::Cont)?;
        event_tuple(py, v)
    }

    fn pc(&mut self, py: Python<'_>, wave: usize) -> PyResult<Option<u64>> {
        match self.ask(py, DbgCmd::Pc(wave))? {
            DbgVal::OptInt(x) => Ok(x),
            _ => Err(err("unexpected reply from the debug session")),
        }
    }

    /// The instruction wave `wave` executes next, as llvm-objdump prints it.
    fn next_instruction(&mut self, py: Python<'_>, wave: usize) -> PyResult<Option<String>> {
        match self.ask(py, DbgCmd::Next(wave))? {
            DbgVal::Text(t) => Ok(t),
            _ => Err(err("unexpected reply from the debug session")),
        }
    }

    fn wave_count(&mut self, py: Python<'_>) -> PyResult<u64> {
        int_of(self.ask(py, DbgCmd::WaveCount)?)
    }

    fn workgroup(&mut self, py: Python<'_>) -> PyResult<Vec<u32>> {
        match self.ask(py, DbgCmd::Workgroup)? {
            DbgVal::Ints(v) => Ok(v),
            _ => Err(err("unexpected reply from the debug session")),
        }
    }

    fn ended(&mut self, py: Python<'_>, wave: usize) -> PyResult<bool> {
        Ok(int_of(self.ask(py, DbgCmd::Ended(wave))?)? != 0)
    }

    fn read_sgpr(&mut self, py: Python<'_>, wave: usize, index: usize) -> PyResult<u32> {
        Ok(int_of(self.ask(py, DbgCmd::ReadSgpr(wave, index))?)? as u32)
    }

    fn write_sgpr(
        &mut self,
        py: Python<'_>,
        wave: usize,
        index: usize,
        value: u32,
    ) -> PyResult<()> {
        self.ask(py, DbgCmd::WriteSgpr(wave, index, value))
            .map(|_| ())
    }

    /// Every lane of VGPR `index` of wave `wave`.
    fn read_vgpr(&mut self, py: Python<'_>, wave: usize, index: usize) -> PyResult<Vec<u32>> {
        match self.ask(py, DbgCmd::ReadVgpr(wave, index))? {
            DbgVal::Ints(v) => Ok(v),
            _ => Err(err("unexpected reply from the debug session")),
        }
    }

    fn write_vgpr(
        &mut self,
        py: Python<'_>,
        wave: usize,
        index: usize,
        lane: usize,
        value: u32,
    ) -> PyResult<()> {
        self.ask(py, DbgCmd::WriteVgpr(wave, index, lane, value))
            .map(|_| ())
    }

    /// `n` bytes of device memory at `addr`.
    fn read_mem<'py>(
        &mut self,
        py: Python<'py>,
        addr: u64,
        n: u64,
    ) -> PyResult<Bound<'py, PyBytes>> {
        match self.ask(py, DbgCmd::ReadMem(addr, n))? {
            DbgVal::Bytes(b) => Ok(PyBytes::new_bound(py, &b)),
            _ => Err(err("unexpected reply from the debug session")),
        }
    }

    fn write_mem(&mut self, py: Python<'_>, addr: u64, data: Vec<u8>) -> PyResult<()> {
        self.ask(py, DbgCmd::WriteMem(addr, data)).map(|_| ())
    }

    /// `n` bytes of the current workgroup's LDS at `offset`.
    fn read_lds<'py>(
        &mut self,
        py: Python<'py>,
        offset: usize,
        n: usize,
    ) -> PyResult<Bound<'py, PyBytes>> {
        match self.ask(py, DbgCmd::ReadLds(offset, n))? {
            DbgVal::Bytes(b) => Ok(PyBytes::new_bound(py, &b)),
            _ => Err(err("unexpected reply from the debug session")),
        }
    }

    fn write_lds(&mut self, py: Python<'_>, offset: usize, data: Vec<u8>) -> PyResult<()> {
        self.ask(py, DbgCmd::WriteLds(offset, data)).map(|_| ())
    }

    /// Runs the rest of the dispatch (breakpoints ignored) and returns every buffer
    /// argument's final contents (None for the other arguments); the session ends.
    fn finish<'py>(&mut self, py: Python<'py>) -> PyResult<Vec<Option<Bound<'py, PyBytes>>>> {
        let v = self.ask(py, DbgCmd::Finish)?;
        self.done = true;
        self.tx = None;
        let DbgVal::Buffers(bufs) = v else {
            return Err(err("unexpected reply from the debug session"));
        };
        let mut it = bufs.into_iter();
        Ok(self
            .buffers
            .iter()
            .map(|b| {
                b.and_then(|_| it.next())
                    .map(|d| PyBytes::new_bound(py, &d))
            })
            .collect())
    }
}

/// Starts kernel `name` of the code object `code` under the debugger on a device of its own:
/// `args` as for `Device.run`. Nothing runs until `step` or `cont`.
#[pyfunction]
#[pyo3(signature = (code, name, grid, block, args))]
fn debug(
    py: Python<'_>,
    code: Vec<u8>,
    name: String,
    grid: Vec<u32>,
    block: Vec<u32>,
    args: Vec<(String, Bound<'_, PyAny>)>,
) -> PyResult<DebugSession> {
    enum Plain {
        Value(Vec<u8>),
        Buffer(Vec<u8>),
        Local(u32),
    }
    let mut plain = Vec::with_capacity(args.len());
    for (kind, payload) in &args {
        plain.push(match kind.as_str() {
            "value" => Plain::Value(payload.extract()?),
            "buffer" => Plain::Buffer(payload.extract()?),
            "local" => Plain::Local(payload.extract()?),
            other => return Err(err(format!("unknown argument kind `{other}`"))),
        });
    }
    let geo = wavesim::Geometry::new(&grid, &block).map_err(err)?;
    let (cmd_tx, cmd_rx) = channel::<DbgCmd>();
    let (rep_tx, rep_rx) = channel::<DbgReply>();
    let (ready_tx, ready_rx) = channel::<Result<Vec<Option<u64>>, String>>();
    std::thread::spawn(move || {
        let mut dev = wavesim::Device::new();
        let setup = (|| -> Result<DbgSetup, String> {
            let module = dev.load(&code).map_err(|e| e.to_string())?;
            let mut kargs = Vec::new();
            let mut bufs = Vec::new();
            for p in plain {
                match p {
                    Plain::Value(v) => {
                        kargs.push(wavesim::Arg::Value(v));
                        bufs.push(None);
                    }
                    Plain::Buffer(b) => {
                        let a = dev.alloc_with(&b).map_err(|e| e.to_string())?;
                        kargs.push(wavesim::Arg::Buffer(a));
                        bufs.push(Some((a, b.len() as u64)));
                    }
                    Plain::Local(n) => {
                        kargs.push(wavesim::Arg::Local(n));
                        bufs.push(None);
                    }
                }
            }
            Ok((module, kargs, bufs))
        })();
        let (module, kargs, bufs) = match setup {
            Ok(x) => x,
            Err(e) => {
                let _ = ready_tx.send(Err(e));
                return;
            }
        };
        let addrs: Vec<Option<u64>> = bufs.iter().map(|b| b.map(|(a, _)| a)).collect();
        let present: Vec<(u64, u64)> = bufs.iter().flatten().copied().collect();
        let mut announced = false;
        let r = dev.debug(&module, &name, &geo, &kargs, |d| {
            let _ = ready_tx.send(Ok(addrs.clone()));
            announced = true;
            while let Ok(cmd) = cmd_rx.recv() {
                let finish = matches!(cmd, DbgCmd::Finish);
                if rep_tx.send(debug_command(d, cmd, &present)).is_err() || finish {
                    break;
                }
            }
        });
        if let Err(e) = r {
            if !announced {
                let _ = ready_tx.send(Err(e.to_string()));
            }
        }
    });
    let ready = py
        .allow_threads(move || ready_rx.recv())
        .map_err(|_| err("the debug session did not start"))?
        .map_err(err)?;
    Ok(DebugSession {
        tx: Some(cmd_tx),
        rx: Some(rep_rx),
        buffers: ready,
        done: false,
    })
}

// ---- R700 and AGX: the step debugger as an observer that stops in the run loop's `pause`
// hook; the run goes on a thread of its own and takes commands over a channel while stopped ----

enum StepCmd {
    BreakAt(u64),
    ClearBreak(u64),
    Step,
    Cont,
    Finish,
    ReadReg(String),
    WriteReg(String, usize, u32),
    ReadMem(String, u64, u64),
    WriteMem(String, u64, Vec<u8>),
}

enum StepMsg {
    Unit,
    Lanes(Vec<u32>),
    Bytes(Vec<u8>),
    /// Stopped before an instruction: why, workgroup, wave, PC, instruction text.
    Stop(&'static str, [u32; 3], u32, u64, String),
    /// The run ended: its outputs as text.
    Finished(String),
}

/// What the step debugger needs of an ISA.
struct StepView<W, I> {
    text: fn(&I) -> String,
    read: fn(&W, &str) -> Result<Vec<u32>, String>,
    write: fn(&mut W, &str, usize, u32) -> Result<(), String>,
    show_pc: fn(u64) -> String,
}

struct RemoteStepper<W, I> {
    view: StepView<W, I>,
    /// Released at `finish` or when the session is gone: the run goes to its end.
    rule: wavesim::StopRule,
    rx: Receiver<StepCmd>,
    tx: Sender<Result<StepMsg, String>>,
}

impl<W, I> RemoteStepper<W, I> {
    fn stop(
        &mut self,
        loc: &wavesim::InstLoc,
        w: &mut W,
        inst: &I,
        mut mem: Option<&mut dyn wavesim::MemoryView>,
    ) {
        let Some(why) = self.rule.stop_at(loc.pc) else {
            return;
        };
        let stop = StepMsg::Stop(why, loc.workgroup, loc.wave, loc.pc, (self.view.text)(inst));
        if self.tx.send(Ok(stop)).is_err() {
            self.rule.release();
            return;
        }
        loop {
            let Ok(cmd) = self.rx.recv() else {
                self.rule.release();
                return;
            };
            let reply = match cmd {
                StepCmd::Step => {
                    self.rule.step();
                    return;
                }
                StepCmd::Cont => return,
                StepCmd::Finish => {
                    self.rule.release();
                    return;
                }
                StepCmd::BreakAt(pc) if self.rule.break_at(pc) => Ok(StepMsg::Unit),
                StepCmd::BreakAt(pc) => Err(format!(
                    "{} is not the start of an instruction of this program",
                    (self.view.show_pc)(pc)
                )),
                StepCmd::ClearBreak(pc) => {
                    self.rule.clear_break(pc);
                    Ok(StepMsg::Unit)
                }
                StepCmd::ReadReg(r) => (self.view.read)(w, &r).map(StepMsg::Lanes),
                StepCmd::WriteReg(r, lane, v) => {
                    (self.view.write)(w, &r, lane, v).map(|()| StepMsg::Unit)
                }
                StepCmd::ReadMem(space, a, n) => {
                    step_mem(mem.as_deref_mut(), &space).and_then(|(m, s)| {
                        let n = usize::try_from(n)
                            .ok()
                            .filter(|&n| n <= 1 << 24)
                            .ok_or(format!("read_mem: {n} bytes (at most 16 MiB)"))?;
                        let mut out = vec![0u8; n];
                        m.read(s, a, &mut out)?;
                        Ok(StepMsg::Bytes(out))
                    })
                }
                StepCmd::WriteMem(space, a, data) => step_mem(mem.as_deref_mut(), &space)
                    .and_then(|(m, s)| m.write(s, a, &data).map(|()| StepMsg::Unit)),
            };
            if self.tx.send(reply).is_err() {
                self.rule.release();
                return;
            }
        }
    }
}

/// The memory of a stopped run and the index of address space `space`.
fn step_mem<'a, 'm>(
    mem: Option<&'a mut (dyn wavesim::MemoryView + 'm)>,
    space: &str,
) -> Result<(&'a mut (dyn wavesim::MemoryView + 'm), usize), String> {
    let m = mem.ok_or("this stop lends the debugger no memory")?;
    // No space named: the run's first (AGX `device`, R700 `cb0`).
    if space.is_empty() {
        return Ok((m, 0));
    }
    let s = m.spaces().iter().position(|n| *n == space).ok_or_else(|| {
        format!(
            "no address space `{space}` (this run has {})",
            m.spaces().join(", ")
        )
    })?;
    Ok((m, s))
}

impl<W, I> wavesim::Observer<W, I> for RemoteStepper<W, I> {
    fn pause(&mut self, loc: &wavesim::InstLoc, w: &mut W, inst: &I) {
        self.stop(loc, w, inst, None)
    }
    fn pause_mem(
        &mut self,
        loc: &wavesim::InstLoc,
        w: &mut W,
        inst: &I,
        mem: &mut dyn wavesim::MemoryView,
    ) {
        self.stop(loc, w, inst, Some(mem))
    }
}

impl wavesim::agx::inside::AgxObserver
    for RemoteStepper<wavesim::agx::exec::WaveState, wavesim::agx::exec::Inst>
{
}

/// `T<n>.<X|Y|Z|W>`: the GPR and channel.
fn r700_reg(name: &str) -> Result<(usize, usize), String> {
    let bad = || format!("`{name}`: give T<n>.<X|Y|Z|W>");
    let (r, c) = name
        .strip_prefix('T')
        .and_then(|r| r.split_once('.'))
        .ok_or_else(bad)?;
    let r: usize = r.parse().map_err(|_| bad())?;
    let c = ["X", "Y", "Z", "W"]
        .iter()
        .position(|x| c.eq_ignore_ascii_case(x))
        .ok_or_else(bad)?;
    Ok((r, c))
}

/// `r<n>`: the 32-bit GPR.
fn agx_reg(w: &wavesim::agx::exec::WaveState, name: &str) -> Result<usize, String> {
    let n: usize = name
        .strip_prefix('r')
        .and_then(|n| n.parse().ok())
        .ok_or_else(|| format!("`{name}`: give r<n>"))?;
    if n >= w.nr_gprs() {
        return Err(format!(
            "no r{n} (the SIMD group has {} registers)",
            w.nr_gprs()
        ));
    }
    Ok(n)
}

/// A stopped R700 or AGX run (see `wavesim.debug_r700` / `wavesim.debug_agx`).
#[pyclass(unsendable, module = "wavesim._native")]
struct StepSession {
    tx: Sender<StepCmd>,
    /// Taken while a call waits for the run (the wait releases the GIL and moves it along).
    rx: Option<Receiver<Result<StepMsg, String>>>,
    done: bool,
}

fn stop_tuple(py: Python<'_>, m: StepMsg) -> PyResult<PyObject> {
    match m {
        StepMsg::Stop(why, wg, wave, pc, text) => {
            Ok((why, (wg[0], wg[1], wg[2]), wave, pc, text).into_py(py))
        }
        StepMsg::Finished(text) => Ok(("finished", text).into_py(py)),
        _ => Err(err("unexpected reply from the debug session")),
    }
}

impl StepSession {
    fn ask(&mut self, py: Python<'_>, cmd: StepCmd) -> PyResult<StepMsg> {
        if self.done {
            return Err(err("the debug session has finished"));
        }
        self.tx
            .send(cmd)
            .map_err(|_| err("the debug session's run has ended"))?;
        self.wait(py)
    }
    fn wait(&mut self, py: Python<'_>) -> PyResult<StepMsg> {
        let rx = self
            .rx
            .take()
            .ok_or_else(|| err("the debug session has ended"))?;
        let (r, rx) = py.allow_threads(move || (rx.recv(), rx));
        self.rx = Some(rx);
        match r {
            Ok(Ok(m @ StepMsg::Finished(_))) => {
                self.done = true;
                Ok(m)
            }
            Ok(r) => r.map_err(err),
            Err(_) => {
                self.done = true;
                Err(err("the debug session's run has ended"))
            }
        }
    }
}

#[pymethods]
impl StepSession {
    /// Stop before any SIMD group / wave executes the instruction at `pc` (R700: the `@N`
    /// address, AGX: the byte offset); an address inside an instruction is an error.
    fn break_at(&mut self, py: Python<'_>, pc: u64) -> PyResult<()> {
        self.ask(py, StepCmd::BreakAt(pc)).map(|_| ())
    }
    fn clear_break(&mut self, py: Python<'_>, pc: u64) -> PyResult<()> {
        self.ask(py, StepCmd::ClearBreak(pc)).map(|_| ())
    }
    /// Runs the stopped instruction; returns the next stop (`("step", wg, wave, pc, text)`) or
    /// `("finished", outputs)`.
    fn step(&mut self, py: Python<'_>) -> PyResult<PyObject> {
        let m = self.ask(py, StepCmd::Step)?;
        stop_tuple(py, m)
    }
    /// Runs to the next breakpoint (`("break", ...)`) or the end (`("finished", outputs)`).
    #[pyo3(name = "cont")]
    fn cont_(&mut self, py: Python<'_>) -> PyResult<PyObject> {
        let m = self.ask(py, StepCmd::Cont)?;
        stop_tuple(py, m)
    }
    /// Every lane of a register of the stopped wave (R700 `T3.X`, AGX `r3`).
    fn read_reg(&mut self, py: Python<'_>, name: String) -> PyResult<Vec<u32>> {
        match self.ask(py, StepCmd::ReadReg(name))? {
            StepMsg::Lanes(v) => Ok(v),
            _ => Err(err("unexpected reply from the debug session")),
        }
    }
    fn write_reg(&mut self, py: Python<'_>, name: String, lane: usize, value: u32) -> PyResult<()> {
        self.ask(py, StepCmd::WriteReg(name, lane, value))
            .map(|_| ())
    }
    /// `n` bytes at `addr` of the run's memory (AGX: space `device`, the default, or
    /// `threadgroup`; R700: `cb0`..`cb15`, the default `cb0`, or `vb0`..`vb175`).
    #[pyo3(signature = (addr, n, space = String::new()))]
    fn read_mem<'py>(
        &mut self,
        py: Python<'py>,
        addr: u64,
        n: u64,
        space: String,
    ) -> PyResult<Bound<'py, PyBytes>> {
        match self.ask(py, StepCmd::ReadMem(space, addr, n))? {
            StepMsg::Bytes(b) => Ok(PyBytes::new_bound(py, &b)),
            _ => Err(err("unexpected reply from the debug session")),
        }
    }
    #[pyo3(signature = (addr, data, space = String::new()))]
    fn write_mem(
        &mut self,
        py: Python<'_>,
        addr: u64,
        data: Vec<u8>,
        space: String,
    ) -> PyResult<()> {
        self.ask(py, StepCmd::WriteMem(space, addr, data))
            .map(|_| ())
    }
    /// Runs to the end without stopping; returns the outputs as text (as `wavesim run` prints them).
    fn finish(&mut self, py: Python<'_>) -> PyResult<String> {
        match self.ask(py, StepCmd::Finish)? {
            StepMsg::Finished(t) => Ok(t),
            _ => Err(err("unexpected reply from the debug session")),
        }
    }
}

/// Starts `run` (which runs the job with the observer it is given) on a thread and waits for
/// its first stop; returns the session and that stop.
fn start_stepper<W: 'static, I: 'static>(
    py: Python<'_>,
    view: StepView<W, I>,
    starts: std::collections::BTreeSet<u64>,
    run: impl FnOnce(&mut RemoteStepper<W, I>) -> Result<String, String> + Send + 'static,
) -> PyResult<(StepSession, PyObject)>
where
    StepView<W, I>: Send,
{
    let (cmd_tx, cmd_rx) = channel::<StepCmd>();
    let (msg_tx, msg_rx) = channel::<Result<StepMsg, String>>();
    std::thread::spawn(move || {
        let mut obs = RemoteStepper {
            view,
            rule: wavesim::StopRule::new(starts),
            rx: cmd_rx,
            tx: msg_tx.clone(),
        };
        let end = run(&mut obs).map(StepMsg::Finished);
        let _ = msg_tx.send(end);
    });
    let mut s = StepSession {
        tx: cmd_tx,
        rx: Some(msg_rx),
        done: false,
    };
    let first = s.wait(py)?;
    let t = stop_tuple(py, first)?;
    Ok((s, t))
}

/// Starts an R700 shader object under the step debugger with its runner configuration (TOML);
/// returns the session and its first stop `("start", wg, wave, pc, text)`.
#[pyfunction]
fn debug_r700(
    py: Python<'_>,
    object: &[u8],
    config_toml: &str,
) -> PyResult<(StepSession, PyObject)> {
    use wavesim::r700::exec::{Step, Wave};
    let shader = wavesim::r700::Shader::from_object_bytes(object).map_err(err)?;
    let cfg = wavesim::r700::runner::RunConfig::from_toml(config_toml).map_err(err)?;
    let starts = wavesim::r700::inside::step_addresses(&shader.program);
    let view: StepView<Wave, Step> = StepView {
        text: |s| s.text(),
        read: |w, name| {
            let (r, c) = r700_reg(name)?;
            let g = w
                .gpr
                .get(r)
                .ok_or_else(|| format!("no T{r} in this wave"))?;
            Ok(g[c][..w.lanes.min(g[c].len())].to_vec())
        },
        write: |w, name, lane, v| {
            let (r, c) = r700_reg(name)?;
            let lanes = w.lanes;
            let cell = w
                .gpr
                .get_mut(r)
                .and_then(|g| g[c].get_mut(lane))
                .filter(|_| lane < lanes)
                .ok_or_else(|| format!("no {name} lane {lane} in this wave"))?;
            *cell = v;
            Ok(())
        },
        show_pc: |pc| format!("@{pc}"),
    };
    start_stepper(py, view, starts, move |obs| {
        wavesim::r700::runner::run_observed(&shader, &cfg, obs)
            .map(|r| r.to_text())
            .map_err(|e| e.to_string())
    })
}

/// Starts an AGX job (TOML; `code` and `config_dir` as for `run_agx`) under the step debugger;
/// returns the session and its first stop.
#[pyfunction]
#[pyo3(signature = (config_toml, code = None, config_dir = "."))]
fn debug_agx(
    py: Python<'_>,
    config_toml: &str,
    code: Option<Vec<u8>>,
    config_dir: &str,
) -> PyResult<(StepSession, PyObject)> {
    use wavesim::agx::exec::{Inst, WaveState, SIMD_WIDTH};
    let cfg = wavesim::agx::runner::RunConfig::from_toml(config_toml).map_err(err)?;
    let dir = std::path::PathBuf::from(config_dir);
    let program = wavesim::agx::runner::program_bytes(&cfg, &dir, code.as_deref()).map_err(err)?;
    let starts = wavesim::agx::inside::instruction_starts(&program);
    let view: StepView<WaveState, Inst> = StepView {
        text: |i| i.text.trim_end().to_string(),
        read: |w, name| {
            let r = agx_reg(w, name)?;
            Ok((0..SIMD_WIDTH).map(|l| w.reg32(r, l)).collect())
        },
        write: |w, name, lane, v| {
            let r = agx_reg(w, name)?;
            if lane >= SIMD_WIDTH {
                return Err(format!("no lane {lane} (a SIMD group has {SIMD_WIDTH})"));
            }
            w.set_reg32(r, lane, v);
            Ok(())
        },
        show_pc: |pc| format!("{pc:#x}"),
    };
    start_stepper(py, view, starts, move |obs| {
        wavesim::agx::runner::run_observed_in_dir(&cfg, &dir, code.as_deref(), obs, false)
            .map(|r| r.to_text())
            .map_err(|e| e.to_string())
    })
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Device>()?;
    m.add_class::<Module>()?;
    m.add_function(wrap_pyfunction!(disassemble, m)?)?;
    m.add_function(wrap_pyfunction!(run_r700, m)?)?;
    m.add_function(wrap_pyfunction!(run_agx, m)?)?;
    m.add_function(wrap_pyfunction!(demangle, m)?)?;
    m.add_function(wrap_pyfunction!(run_asm, m)?)?;
    m.add_function(wrap_pyfunction!(dispatch_raw, m)?)?;
    m.add_class::<HostRanges>()?;
    m.add_function(wrap_pyfunction!(draw, m)?)?;
    m.add_class::<DebugSession>()?;
    m.add_function(wrap_pyfunction!(debug, m)?)?;
    m.add_class::<StepSession>()?;
    m.add_function(wrap_pyfunction!(debug_r700, m)?)?;
    m.add_function(wrap_pyfunction!(debug_agx, m)?)?;
    m.add("WavesimError", m.py().get_type_bound::<WavesimError>())?;
    Ok(())
}
