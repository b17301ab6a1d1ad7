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

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<Device>()?;
    m.add_class::<Module>()?;
    m.add_function(wrap_pyfunction!(disassemble, m)?)?;
    m.add_function(wrap_pyfunction!(run_r700, m)?)?;
    m.add_function(wrap_pyfunction!(run_agx, m)?)?;
    m.add_function(wrap_pyfunction!(demangle, m)?)?;
    m.add_function(wrap_pyfunction!(run_asm, m)?)?;
    m.add_function(wrap_pyfunction!(draw, m)?)?;
    m.add("WavesimError", m.py().get_type_bound::<WavesimError>())?;
    Ok(())
}
