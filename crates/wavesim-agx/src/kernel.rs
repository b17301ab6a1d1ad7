//! Grid kernels precompiled by asahi_clc, dispatched the way Mesa's driver dispatches them: the
//! arguments pushed into uniform registers, promoted constants pushed after them, the preamble run
//! once, then the main part over the grid on wavesim's engine.
//!
//! The layout rule is later Mesa's precompiled-kernel ABI (`asahi_clc.c`'s `load_kernel_input` and
//! `nir_precomp_derive_layout` in `nir_precompiled.h`):
//! - arguments in declaration order, each aligned to its own size and to at least 2 bytes (uniform
//!   registers are addressed in 16-bit halves); the argument at byte offset B is read as uniform half
//!   B / 2 (`load_preamble` with base B / 2), little-endian;
//! - the compiler reserves those halves (`reserved_preamble` = bytes / 2) and may promote constants to
//!   uniforms: the driver pushes them at `immediate_base_uniform` (Mesa's `agx_usc_immediates`);
//! - a preamble, when the compiler makes one, computes uniform values once (`uniform_store`) before
//!   the main part runs; Mesa places it after the main part (`preamble_offset`).
//!
//! [`KernelReport`] is what asahi_clc reports for a kernel (`corpus/agx/kernels/*.toml`, written by
//! `tools/agx/build_clc_grid_kernels.sh`). [`GridKernel::new`] checks that the report's argument
//! offsets are the ones [`argument_offsets`] derives, so a layout disagreement is an error at load.

use crate::compute::{AgxCompute, ComputeLaunch};
use crate::exec::{self, ExecError, Memories, Program, Stop, WaveState};
use serde::Deserialize;
use wavesim_core::engine::run;
use wavesim_core::error::DispatchError;
use wavesim_core::grid::Geometry;
use wavesim_core::memory::DeviceMemory;
use wavesim_core::observe::NoObserver;
use wavesim_core::stats::DispatchStats;

/// Uniform registers as 16-bit halves.
pub const UNIFORM_HALVES: usize = 512;

/// Instructions a preamble may execute.
const PREAMBLE_BUDGET: u64 = 1 << 20;

/// What asahi_clc reports about a compiled kernel.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct KernelReport {
    pub entry: String,
    pub workgroup: [u32; 3],
    /// `[byte offset, components, bits]` per argument.
    pub args: Vec<[u32; 3]>,
    pub args_size: u32,
    /// Registers of the main part and the preamble, in 16-bit registers as Mesa counts them.
    pub nr_gprs: u32,
    pub nr_preamble_gprs: u32,
    pub preamble_offset: u32,
    pub main_offset: u32,
    /// Uniform halves the program reads (arguments, immediates, preamble results).
    pub push_count: u32,
    /// Threadgroup memory bytes.
    pub local_size: u32,
    pub scratch: u32,
    pub immediate_base: u32,
    pub has_preamble: bool,
    /// Promoted constants, 16-bit values pushed from `immediate_base`.
    pub immediates: Vec<u16>,
}

/// A kernel argument value; its width must be the parameter's.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum KernelArg {
    U8(u8),
    U16(u16),
    U32(u32),
    I32(i32),
    F32(f32),
    /// 64-bit integers and global pointers (device addresses).
    U64(u64),
}

impl KernelArg {
    pub fn bits(&self) -> u32 {
        match self {
            KernelArg::U8(_) => 8,
            KernelArg::U16(_) => 16,
            KernelArg::U32(_) | KernelArg::I32(_) | KernelArg::F32(_) => 32,
            KernelArg::U64(_) => 64,
        }
    }

    fn raw(&self) -> u64 {
        match *self {
            KernelArg::U8(v) => v as u64,
            KernelArg::U16(v) => v as u64,
            KernelArg::U32(v) => v as u64,
            KernelArg::I32(v) => v as u32 as u64,
            KernelArg::F32(v) => v.to_bits() as u64,
            KernelArg::U64(v) => v,
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum KernelError {
    #[error("kernel report: {0}")]
    Report(String),
    #[error("kernel {entry}: {what}")]
    Unsupported { entry: String, what: String },
    #[error("kernel {entry}: argument layout {reported:?} differs from Mesa's rule {derived:?}")]
    Layout {
        entry: String,
        reported: Vec<u32>,
        derived: Vec<u32>,
    },
    #[error("kernel {entry}: {given} arguments given, it takes {want}")]
    ArgCount {
        entry: String,
        given: usize,
        want: usize,
    },
    #[error("kernel {entry}: argument {index} is {want} bits wide, a {given}-bit value was given")]
    ArgWidth {
        entry: String,
        index: usize,
        want: u32,
        given: u32,
    },
    #[error("kernel {entry}: preamble: {error}")]
    Preamble { entry: String, error: ExecError },
    #[error("kernel {entry}: preamble did not stop within {PREAMBLE_BUDGET} instructions")]
    PreambleBudget { entry: String },
    #[error(transparent)]
    Dispatch(#[from] DispatchError<ExecError>),
}

/// Byte offsets of arguments of the given `(components, bits)` and the block's size: in order, each
/// aligned to its own size and to 2 bytes (`nir_precomp_derive_layout` with `arg_align_B = 2`).
pub fn argument_offsets(params: &[(u32, u32)]) -> (Vec<u32>, u32) {
    let mut size = 0u32;
    let mut offsets = Vec::with_capacity(params.len());
    for &(components, bits) in params {
        let align = (bits / 8).max(2);
        let offset = size.div_ceil(align) * align;
        offsets.push(offset);
        size = offset + components * bits / 8;
    }
    (offsets, size)
}

/// 32-bit registers for a report's count, which Mesa gives in 16-bit registers (agx_compile.c:
/// `nr_gprs = max_reg + 1` over 16-bit register indices; agx_occupancy_for_register_count takes
/// "halfregs"), rounded up.
fn registers(halves: u32) -> usize {
    halves.div_ceil(2) as usize
}

/// Texture state (TEXTURE and PBE descriptors), sampler state and custom borders a dispatch
/// binds ([`GridKernel::prepare_bound`], [`AgxCompute::binding`]).
#[derive(Debug, Clone, Default)]
pub struct BoundState {
    pub textures: Vec<[u8; 24]>,
    pub samplers: Vec<[u8; 8]>,
    pub borders: Vec<[u8; 16]>,
}

/// A precompiled kernel: its code and asahi_clc's report.
#[derive(Debug, Clone)]
pub struct GridKernel {
    pub report: KernelReport,
    pub code: Vec<u8>,
}

impl GridKernel {
    /// Check the report against the code and Mesa's layout rule.
    pub fn new(code: Vec<u8>, report_toml: &str) -> Result<GridKernel, KernelError> {
        let report: KernelReport =
            toml::from_str(report_toml).map_err(|e| KernelError::Report(e.to_string()))?;
        let entry = report.entry.clone();
        let unsupported = |what: String| KernelError::Unsupported {
            entry: entry.clone(),
            what,
        };
        let params: Vec<(u32, u32)> = report.args.iter().map(|a| (a[1], a[2])).collect();
        if params
            .iter()
            .any(|&(c, b)| c != 1 || !matches!(b, 8 | 16 | 32 | 64))
        {
            return Err(unsupported(format!(
                "argument shapes {params:?} (scalars of 8-64 bits)"
            )));
        }
        let (derived, size) = argument_offsets(&params);
        let reported: Vec<u32> = report.args.iter().map(|a| a[0]).collect();
        if derived != reported || size != report.args_size {
            return Err(KernelError::Layout {
                entry,
                reported,
                derived,
            });
        }
        // The dispatch starts at the main part. Mesa 22.3's asahi_clc puts it first; Mesa 25.0's
        // puts the promoted constants (rodata, read only as the uniforms the driver pushes, Mesa's
        // `agx_usc_immediates`) before it, so the code is kept from the main part on (branches
        // are PC-relative) with the preamble's offset moved by as much.
        let mut report = report;
        let mut code = code;
        let main = report.main_offset as usize;
        if main != 0 {
            if main > code.len() || report.has_preamble && (report.preamble_offset as usize) < main
            {
                return Err(unsupported(format!(
                    "main part at {main} (preamble at {}, {} code bytes)",
                    report.preamble_offset,
                    code.len()
                )));
            }
            code.drain(..main);
            if report.has_preamble {
                report.preamble_offset -= report.main_offset;
            }
            report.main_offset = 0;
        }
        // `scratch` is the stack the driver provides, in 4-byte words: the program opens that
        // frame itself with `stack_adjust` (Mesa 25.0's `agx_compile.c`), and its stack accesses
        // are checked against it (exec/stack.rs). wavesim's per-thread stacks need no allocation.
        if report.workgroup.contains(&0) {
            return Err(unsupported(format!("workgroup {:?}", report.workgroup)));
        }
        if report.has_preamble && report.preamble_offset as usize >= code.len() {
            return Err(unsupported(format!(
                "preamble at {} beyond the {} code bytes",
                report.preamble_offset,
                code.len()
            )));
        }
        let halves = (report.immediate_base as usize + report.immediates.len())
            .max(report.args_size.div_ceil(2) as usize)
            .max(report.push_count as usize);
        if halves > UNIFORM_HALVES || report.nr_gprs > 256 || report.nr_preamble_gprs > 256 {
            return Err(unsupported(format!(
                "{halves} uniform halves, {} / {} registers",
                report.nr_gprs, report.nr_preamble_gprs
            )));
        }
        Ok(GridKernel { report, code })
    }

    /// The uniform halves the driver pushes: the arguments at their offsets, the promoted constants
    /// at `immediate_base`; the rest zero.
    pub fn uniforms(&self, args: &[KernelArg]) -> Result<Vec<u16>, KernelError> {
        let r = &self.report;
        if args.len() != r.args.len() {
            return Err(KernelError::ArgCount {
                entry: r.entry.clone(),
                given: args.len(),
                want: r.args.len(),
            });
        }
        let halves = (r.immediate_base as usize + r.immediates.len())
            .max(r.args_size.div_ceil(2) as usize)
            .max(r.push_count as usize);
        let mut u = vec![0u16; halves];
        for (index, (arg, &[offset, _, bits])) in args.iter().zip(&r.args).enumerate() {
            if arg.bits() != bits {
                return Err(KernelError::ArgWidth {
                    entry: r.entry.clone(),
                    index,
                    want: bits,
                    given: arg.bits(),
                });
            }
            let first = offset as usize / 2;
            for h in 0..(bits as usize).div_ceil(16) {
                u[first + h] = (arg.raw() >> (16 * h)) as u16;
            }
        }
        let base = r.immediate_base as usize;
        u[base..base + r.immediates.len()].copy_from_slice(&r.immediates);
        Ok(u)
    }

    /// Run the preamble once (one thread, `nr_preamble_gprs` registers, the pushed uniforms, the
    /// bound texture state: Mesa hoists a texture sample whose operands are uniform into the
    /// preamble); its `uniform_store`s update `uniforms` for the main part.
    pub fn run_preamble(
        &self,
        uniforms: &mut Vec<u16>,
        mem: &DeviceMemory,
        state: &BoundState,
    ) -> Result<(), KernelError> {
        let r = &self.report;
        if !r.has_preamble {
            return Ok(());
        }
        let program = Program::new(self.code.clone());
        let mut w = WaveState::new(registers(r.nr_preamble_gprs.max(1)));
        w.textures = state.textures.clone();
        w.samplers = state.samplers.clone();
        w.borders = state.borders.clone();
        w.uniforms[..uniforms.len()].copy_from_slice(uniforms);
        w.pc = r.preamble_offset as u64;
        w.exec = 1;
        w.present = 1;
        let mut tg = vec![];
        let mut memories = Memories {
            device: mem,
            threadgroup: &mut tg,
        };
        match exec::run(&mut w, &program, &mut memories, PREAMBLE_BUDGET) {
            Ok(Stop::End) => {}
            Ok(Stop::Quantum) => {
                return Err(KernelError::PreambleBudget {
                    entry: r.entry.clone(),
                })
            }
            Ok(Stop::Barrier) => {
                return Err(KernelError::Unsupported {
                    entry: r.entry.clone(),
                    what: "threadgroup barrier in the preamble".into(),
                })
            }
            Err(error) => {
                return Err(KernelError::Preamble {
                    entry: r.entry.clone(),
                    error,
                })
            }
        }
        let n = uniforms
            .len()
            .max(r.push_count as usize)
            .min(UNIFORM_HALVES);
        uniforms.clear();
        uniforms.extend_from_slice(&w.uniforms[..n]);
        Ok(())
    }

    /// The compute back end for a dispatch of `global` threads (x, or x/y/z) with these arguments:
    /// uniforms pushed and the preamble run, no texture state bound.
    pub fn prepare(
        &self,
        args: &[KernelArg],
        global: &[u32],
        mem: &DeviceMemory,
        threads: usize,
    ) -> Result<AgxCompute, KernelError> {
        self.prepare_bound(args, global, mem, threads, BoundState::default())
    }

    /// [`GridKernel::prepare`] with texture, sampler and border state bound for the preamble and
    /// the main part ([`AgxCompute::binding`]).
    pub fn prepare_bound(
        &self,
        args: &[KernelArg],
        global: &[u32],
        mem: &DeviceMemory,
        threads: usize,
        state: BoundState,
    ) -> Result<AgxCompute, KernelError> {
        let r = &self.report;
        let mut uniforms = self.uniforms(args)?;
        self.run_preamble(&mut uniforms, mem, &state)?;
        let dims = global.len().clamp(1, 3);
        // a workgroup of several dimensions needs a grid of as many
        if r.workgroup[dims..].iter().any(|&n| n != 1) {
            return Err(KernelError::Unsupported {
                entry: r.entry.clone(),
                what: format!(
                    "workgroup {:?} over a grid of {dims} dimension(s)",
                    r.workgroup
                ),
            });
        }
        let local = &r.workgroup[..dims];
        let geometry = Geometry::new(global, local).map_err(DispatchError::from)?;
        Ok(AgxCompute::new(
            self.code.clone(),
            ComputeLaunch {
                name: r.entry.clone(),
                geometry,
                nr_gprs: registers(r.nr_gprs),
                uniforms,
                threadgroup_memory: r.local_size as usize,
                threads,
                max_wave_insts: 1 << 24,
                special: vec![],
            },
        )
        .binding(state.textures, state.samplers, state.borders))
    }

    /// Dispatch over `global` threads on `threads` host threads.
    pub fn dispatch(
        &self,
        args: &[KernelArg],
        global: &[u32],
        mem: &DeviceMemory,
        threads: usize,
    ) -> Result<DispatchStats, KernelError> {
        let backend = self.prepare(args, global, mem, threads)?;
        Ok(run(&backend, mem, &mut NoObserver)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mesa counts registers in 16-bit halves (`nr_gprs = max_reg + 1`, agx_compile.c): a kernel
    /// whose highest half is r2h (index 5) reports 6 and needs 3 32-bit registers; 5 halves (up to
    /// r2l) still need r2, so 3; 256 halves are the whole file of 128.
    #[test]
    fn register_counts_are_halves_rounded_up() {
        assert_eq!(registers(6), 3);
        assert_eq!(registers(5), 3);
        assert_eq!(registers(1), 1);
        assert_eq!(registers(256), 128);
    }

    /// A workgroup of two dimensions over a one-dimensional grid is refused by name (the grid's
    /// missing dimensions would have to invent a size); over a 2D grid it prepares.
    #[test]
    fn workgroup_dimensions_need_as_many_grid_dimensions() {
        let report = "entry = \"k\"\nworkgroup = [8, 4, 1]\nargs = []\nargs_size = 0\n\
                      nr_gprs = 2\nnr_preamble_gprs = 0\npreamble_offset = 0\nmain_offset = 0\n\
                      push_count = 0\nlocal_size = 0\nscratch = 0\nimmediate_base = 0\n\
                      has_preamble = false\nimmediates = []\n";
        let k = GridKernel::new(crate::asm::assemble("stop").unwrap(), report).unwrap();
        let mem = DeviceMemory::new();
        match k.prepare(&[], &[32], &mem, 1) {
            Err(KernelError::Unsupported { what, .. }) => {
                assert!(what.contains("over a grid of 1 dimension"), "{what}")
            }
            Err(other) => panic!("{other:?}"),
            Ok(_) => panic!("a 2D workgroup over a 1D grid prepared"),
        }
        let b = k.prepare(&[], &[16, 8], &mem, 1).unwrap();
        assert_eq!(b.launch.nr_gprs, 1);
    }

    /// The rule on hand-made signatures: natural alignment, at least 2 bytes.
    #[test]
    fn offsets_follow_natural_alignment_with_a_two_byte_minimum() {
        // (global ulong *, uchar, ushort, uint, ulong, float, ushort, uint)
        let p = [
            (1, 64),
            (1, 8),
            (1, 16),
            (1, 32),
            (1, 64),
            (1, 32),
            (1, 16),
            (1, 32),
        ];
        assert_eq!(
            argument_offsets(&p),
            (vec![0, 8, 10, 12, 16, 24, 28, 32], 36)
        );
        // a 16-bit value followed by a 32-bit one leaves 2 bytes of padding
        assert_eq!(argument_offsets(&[(1, 16), (1, 32)]), (vec![0, 4], 8));
        // 8-bit values still take 2-byte slots
        assert_eq!(argument_offsets(&[(1, 8), (1, 8)]), (vec![0, 2], 3));
    }
}
