//! R700 on the shared engine (`wavesim_core::engine`): a draw is a 1-D grid of threads cut into
//! workgroups of one wavefront each (64 threads on RV770, 32 on RV730 and RV710); the engine runs
//! the workgroups, the watchdog and the statistics, and this back end runs one wave clause by clause.
//!
//! SIMD-global GPRs are shared by every wave, so the back end runs workgroups in order on one host
//! thread (`threads() = 1`) and the driver state sits behind a mutex.

use std::sync::Mutex;

use wavesim_core::engine::{Backend, Stop, WaveSlot};
use wavesim_core::error::{DispatchError, Location};
use wavesim_core::grid::Geometry;
use wavesim_core::memory::DeviceMemory;
use wavesim_core::observe::Observer;

use crate::exec::{self, DriverState, ExecError, PixelState, Step, Wave};
use crate::results::{RunError, ThreadResult};
use crate::shader::Shader;

pub struct R700Dispatch<'a> {
    shader: &'a Shader,
    geometry: Geometry,
    lanes: u32,
    threads_total: usize,
    /// Per-thread input GPRs: (register, value per thread).
    inputs: Vec<(usize, Vec<[u32; 4]>)>,
    pub(crate) drv: Mutex<DriverState>,
    results: Mutex<Vec<Option<ThreadResult>>>,
    max_insts: u64,
    kernel: String,
}

impl<'a> R700Dispatch<'a> {
    pub fn new(
        shader: &'a Shader,
        threads: usize,
        inputs: Vec<(usize, Vec<[u32; 4]>)>,
        drv: DriverState,
        max_insts: u64,
    ) -> Result<R700Dispatch<'a>, wavesim_core::error::LaunchError> {
        let lanes = shader.chip().wave_size() as u32;
        let n = u32::try_from(threads)
            .map_err(|_| wavesim_core::error::LaunchError(format!("{threads} threads")))?;
        let geometry = Geometry::new(&[n], &[lanes])?;
        Ok(R700Dispatch {
            shader,
            geometry,
            lanes,
            threads_total: threads,
            inputs,
            drv: Mutex::new(drv),
            results: Mutex::new(vec![None; threads]),
            max_insts,
            kernel: shader.entry.clone().unwrap_or_else(|| "main".into()),
        })
    }

    /// Per-thread results (after [`wavesim_core::engine::run`]).
    pub fn take_results(&self) -> Vec<ThreadResult> {
        let mut r = self.results.lock().unwrap_or_else(|e| e.into_inner());
        std::mem::take(&mut *r)
            .into_iter()
            .map(|t| {
                t.unwrap_or(ThreadResult {
                    killed: false,
                    exports: Vec::new(),
                })
            })
            .collect()
    }

    pub fn into_driver_state(self) -> DriverState {
        self.drv.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}

impl Backend for R700Dispatch<'_> {
    type Wave = Wave;
    type Inst = Step;
    type Group = ();
    type Error = ExecError;

    const END: &'static str = "the end of the CF program";
    const BARRIER: &'static str = "a barrier (R700 has none)";

    fn geometry(&self) -> &Geometry {
        &self.geometry
    }
    fn lanes(&self) -> u32 {
        self.lanes
    }
    fn threads(&self) -> usize {
        1
    }
    fn max_wave_insts(&self) -> u64 {
        self.max_insts
    }

    fn new_wave(&self) -> Wave {
        Wave::new(self.lanes as usize, 0, 0)
    }
    fn new_group(&self) {}
    fn start_group(&self, _group: &mut (), _wg: [u32; 3], _waves: u32) {}

    fn start_wave(&self, w: &mut Wave, at: WaveSlot) {
        let base = at.workgroup[0] as usize * self.lanes as usize;
        let used = self
            .threads_total
            .saturating_sub(base)
            .min(self.lanes as usize);
        *w = Wave::new(self.lanes as usize, base, used);
        w.workgroup = at.workgroup;
        for (reg, vals) in &self.inputs {
            for l in 0..used {
                for (c, v) in vals[base + l].iter().enumerate() {
                    w.gpr[*reg][c][l] = *v;
                }
            }
        }
    }

    fn run_wave<O: Observer<Wave, Step> + ?Sized>(
        &self,
        w: &mut Wave,
        _group: &mut (),
        _mem: &DeviceMemory,
        budget: u64,
        obs: &mut O,
    ) -> Result<Stop, (ExecError, u64)> {
        let mut drv = self.drv.lock().unwrap_or_else(|e| e.into_inner());
        exec::run_wave(&self.shader.program, &mut drv, w, budget, obs).map_err(|e| (e, w.pc as u64))
    }

    fn wave_insts(&self, w: &Wave) -> u64 {
        w.cf_executed
    }
    fn lane_insts(&self, w: &Wave) -> u64 {
        w.lane_groups
    }
    /// CF address in 8-byte units, as the disassembly's `@N` shows it.
    fn pc(&self, w: &Wave) -> u64 {
        w.pc as u64
    }
    fn location(&self, w: &Wave, pc: u64) -> Location {
        Location {
            kernel: self.kernel.clone(),
            workgroup: w.workgroup,
            wave: 0,
            pc,
            inst: exec::describe_pc(&self.shader.program, pc.min(u32::MAX as u64) as u32),
            trap_handler: false,
        }
    }

    fn retire(&self, waves: &mut [Wave], _group: &mut ()) {
        let mut res = self.results.lock().unwrap_or_else(|e| e.into_inner());
        for w in waves.iter_mut() {
            for l in 0..w.lanes {
                let t = w.base + l;
                if t >= res.len() || matches!(w.state[l], PixelState::Invalid) {
                    continue;
                }
                res[t] = Some(ThreadResult {
                    killed: w.state[l] == PixelState::Killed,
                    exports: std::mem::take(&mut w.exports[l]),
                });
            }
        }
    }
}

/// Maps the engine's error back to the runner's.
pub fn dispatch_error(e: DispatchError<ExecError>) -> RunError {
    match e {
        DispatchError::Exec { error, .. } => RunError::Exec(error),
        other => RunError::Dispatch(other.to_string()),
    }
}
