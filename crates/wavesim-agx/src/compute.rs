//! Compute dispatch on the shared engine (`wavesim_core::engine`): AGX implements [`Backend`], so
//! kernels run over a grid with the engine's workgroup scheduler, barriers, watchdog, deadlock
//! detection, statistics, located errors and observers.
//!
//! A threadgroup is split into SIMD groups of 32 threads in x-fastest thread order. Each group starts
//! at pc 0 with the kernel's uniforms (the driver's push: arguments as the caller lays them out in
//! 16-bit slots), zeroed registers, its threads active, and the special registers `get_sr` reads
//! (applegpu's names): threadgroup_position_in_grid (sr0-2), threads_per_threadgroup (sr4-6),
//! dispatch_threads_per_threadgroup (sr8-10), thread_position_in_threadgroup (sr48-50),
//! thread_index_in_threadgroup (sr51), thread_index_in_simdgroup (sr52),
//! simdgroup_index_in_threadgroup (sr53), thread_position_in_grid (sr80-82).

use crate::exec::{self, run_observed, ExecError, Inst, Memories, Program, WaveState, SIMD_WIDTH};
use std::collections::BTreeMap;
use wavesim_core::engine::{Backend, Stop, WaveSlot};
use wavesim_core::error::Location;
use wavesim_core::grid::Geometry;
use wavesim_core::memory::DeviceMemory;
use wavesim_core::observe::Observer;

/// A compute launch.
#[derive(Debug, Clone)]
pub struct ComputeLaunch {
    pub name: String,
    pub geometry: Geometry,
    /// 32-bit registers the kernel uses.
    pub nr_gprs: usize,
    /// Uniform registers as 16-bit slots (at most 512).
    pub uniforms: Vec<u16>,
    /// Threadgroup memory bytes.
    pub threadgroup_memory: usize,
    pub threads: usize,
    pub max_wave_insts: u64,
    /// Special registers with the same value in every thread (e.g. the helper argument registers
    /// sr146/sr147 of asahi_clc's helper programs), set after the geometry's.
    pub special: Vec<(u64, u32)>,
}

/// The AGX compute back end for one dispatch.
pub struct AgxCompute {
    pub program: Program,
    pub launch: ComputeLaunch,
    /// Opt-in ([`AgxCompute::approximating`]): `sin_pt_1`/`sin_pt_2`/`rsqrt_special` compute their
    /// documented intent (`exec::WaveState::approximate`).
    approximate: bool,
    approximated: std::sync::Mutex<BTreeMap<&'static str, u64>>,
    /// `--check init` ([`AgxCompute::checking_init`]).
    poison: bool,
    /// Texture state (TEXTURE and PBE descriptors), sampler state and custom borders every
    /// SIMD group sees ([`AgxCompute::binding`]).
    textures: Vec<[u8; 24]>,
    samplers: Vec<[u8; 8]>,
    borders: Vec<[u8; 16]>,
}

impl AgxCompute {
    pub fn new(code: Vec<u8>, launch: ComputeLaunch) -> AgxCompute {
        AgxCompute {
            program: Program::new(code),
            launch,
            approximate: false,
            approximated: Default::default(),
            poison: false,
            textures: vec![],
            samplers: vec![],
            borders: vec![],
        }
    }

    /// Bind texture state (`ts{i}`: TEXTURE descriptors for reads, PBE descriptors for image
    /// writes, as Mesa 25.0's `agx_nir_lower_bindings` lays them out), sampler state (`ss{i}`)
    /// and, for extended sampler state, each sampler's custom BORDER
    /// ([`exec::WaveState::borders`]).
    pub fn binding(
        mut self,
        textures: Vec<[u8; 24]>,
        samplers: Vec<[u8; 8]>,
        borders: Vec<[u8; 16]>,
    ) -> AgxCompute {
        self.textures = textures;
        self.samplers = samplers;
        self.borders = borders;
        self
    }

    /// Every register but r0l starts poisoned, so a read of one the program has not written
    /// stops with `Fault::UndefinedRead` naming it: a compute kernel gets its inputs from
    /// `get_sr` and the uniforms, and its registers hold nothing defined at the start (Mesa's
    /// asahi compiler README, "Register ABI"; r0l is the exec-mask stack counter, zero at the
    /// start of the program).
    pub fn checking_init(mut self) -> AgxCompute {
        self.poison = true;
        self
    }

    /// Run the instructions without a public rule as their documented intent, counting them.
    pub fn approximating(mut self) -> AgxCompute {
        self.approximate = true;
        self
    }

    /// SIMD-group executions of each approximated instruction so far, by name.
    pub fn approximated(&self) -> BTreeMap<&'static str, u64> {
        self.approximated
            .lock()
            .map(|m| m.clone())
            .unwrap_or_else(|e| e.into_inner().clone())
    }
}

impl Backend for AgxCompute {
    type Wave = WaveState;
    type Inst = Inst;
    type Group = Vec<u8>;
    type Error = ExecError;
    const END: &'static str = "stop";
    const BARRIER: &'static str = "threadgroup_barrier";

    fn geometry(&self) -> &Geometry {
        &self.launch.geometry
    }
    fn lanes(&self) -> u32 {
        SIMD_WIDTH as u32
    }
    fn threads(&self) -> usize {
        self.launch.threads
    }
    fn max_wave_insts(&self) -> u64 {
        self.launch.max_wave_insts
    }
    fn check(&self) -> Result<(), wavesim_core::error::DispatchError<ExecError>> {
        if self.launch.threadgroup_memory > 1 << 16 {
            return Err(wavesim_core::error::DispatchError::BadLaunch(format!(
                "{} bytes of threadgroup memory (at most 64 KiB)",
                self.launch.threadgroup_memory
            )));
        }
        if self.launch.nr_gprs > 128 || self.launch.uniforms.len() > 512 {
            return Err(wavesim_core::error::DispatchError::BadLaunch(format!(
                "{} registers / {} uniform slots (at most 128 / 512)",
                self.launch.nr_gprs,
                self.launch.uniforms.len()
            )));
        }
        Ok(())
    }
    fn new_wave(&self) -> WaveState {
        WaveState::new(self.launch.nr_gprs)
    }
    fn new_group(&self) -> Vec<u8> {
        vec![0; self.launch.threadgroup_memory]
    }
    fn start_group(&self, group: &mut Vec<u8>, _wg: [u32; 3], _waves: u32) {
        group.clear();
        group.resize(self.launch.threadgroup_memory, 0);
    }
    fn start_wave(&self, w: &mut WaveState, at: WaveSlot) {
        let geo = &self.launch.geometry;
        let mut s = WaveState::new(self.launch.nr_gprs);
        for (i, v) in self.launch.uniforms.iter().enumerate() {
            s.uniforms[i] = *v;
        }
        let items = geo.items_in(at.workgroup);
        let per_group = (items[0] * items[1] * items[2]) as usize;
        let mut present = 0u32;
        let mut sr: Vec<(u64, [u32; SIMD_WIDTH])> = [
            0u64, 1, 2, 4, 5, 6, 8, 9, 10, 48, 49, 50, 51, 52, 53, 80, 81, 82,
        ]
        .iter()
        .map(|&k| (k, [0u32; SIMD_WIDTH]))
        .collect();
        for lane in 0..SIMD_WIDTH {
            let t = at.index as usize * SIMD_WIDTH + lane;
            if t >= per_group {
                continue;
            }
            present |= 1 << lane;
            let local = [
                (t % items[0] as usize) as u32,
                (t / items[0] as usize % items[1] as usize) as u32,
                (t / (items[0] * items[1]) as usize) as u32,
            ];
            let mut set = |k: u64, v: u32| {
                if let Some(e) = sr.iter_mut().find(|e| e.0 == k) {
                    e.1[lane] = v;
                }
            };
            for d in 0..3 {
                set(d as u64, at.workgroup[d]);
                set(4 + d as u64, geo.local[d]);
                set(8 + d as u64, items[d]);
                set(48 + d as u64, local[d]);
                let global =
                    at.workgroup[d] as u64 * geo.local[d] as u64 + local[d] as u64 + geo.offset[d];
                set(80 + d as u64, global as u32);
            }
            set(51, t as u32);
            set(52, lane as u32);
            set(53, at.index);
        }
        for &(k, v) in &self.launch.special {
            match sr.iter_mut().find(|e| e.0 == k) {
                Some(e) => e.1 = [v; SIMD_WIDTH],
                None => sr.push((k, [v; SIMD_WIDTH])),
            }
        }
        s.special = sr.into_iter().collect();
        s.textures.clone_from(&self.textures);
        s.samplers.clone_from(&self.samplers);
        s.borders.clone_from(&self.borders);
        s.exec = present;
        s.present = present;
        s.slot = Some(at);
        s.approximate = self.approximate;
        if self.poison {
            s.poison_all();
            for lane in 0..SIMD_WIDTH {
                s.set_half(0, lane, 0);
            }
        }
        *w = s;
    }
    fn run_wave<O: Observer<WaveState, Inst> + ?Sized>(
        &self,
        w: &mut WaveState,
        group: &mut Vec<u8>,
        mem: &DeviceMemory,
        budget: u64,
        obs: &mut O,
    ) -> Result<Stop, (ExecError, u64)> {
        let mut memories = Memories {
            device: mem,
            threadgroup: group,
        };
        let result = run_observed(w, &self.program, &mut memories, budget, obs);
        if !w.approximated.is_empty() {
            let mut total = self.approximated.lock().unwrap_or_else(|e| e.into_inner());
            for (name, n) in std::mem::take(&mut w.approximated) {
                *total.entry(name).or_insert(0) += n;
            }
        }
        match result {
            Ok(exec::Stop::End) => Ok(Stop::End),
            Ok(exec::Stop::Barrier) => Ok(Stop::Barrier),
            Ok(exec::Stop::Quantum) => Ok(Stop::Quantum),
            Err(e) => {
                let pc = e.pc;
                Err((e, pc))
            }
        }
    }
    fn wave_insts(&self, w: &WaveState) -> u64 {
        w.insts
    }
    fn lane_insts(&self, w: &WaveState) -> u64 {
        w.lane_insts
    }
    fn pc(&self, w: &WaveState) -> u64 {
        w.pc
    }
    fn location(&self, w: &WaveState, pc: u64) -> Location {
        let slot = w.slot.unwrap_or(WaveSlot {
            workgroup: [0; 3],
            index: 0,
            count: 1,
            worker: 0,
        });
        Location {
            kernel: self.launch.name.clone(),
            workgroup: slot.workgroup,
            wave: slot.index,
            pc,
            inst: self.program.describe(pc),
            trap_handler: false,
        }
    }
}
