//! A step API: run a dispatch one instruction at a time, stop at breakpoints (a PC or a
//! condition on a wave), read and write registers, LDS and device memory, continue.
//!
//! [`Debugger`] drives the same back end as every dispatch ([`Rdna3Dispatch`]: `start_wave`,
//! `start_group`, `run_wave` with a budget of one instruction), one workgroup at a time in the
//! order of a one-thread run; the waves of a workgroup take turns one instruction each, and a
//! barrier holds a wave until every wave that has not ended reached it (RDNA3 ISA guide, Shader Concepts,
//! "Workgroups"). Nothing here touches the hot loop.

use crate::decode::Inst;
use crate::dispatch::{DispatchError, Launch, Rdna3Dispatch};
use crate::wave::Wave;
use wavesim_core::engine::{Backend, Stop, WaveSlot};
use wavesim_core::memory::DeviceMemory;
use wavesim_core::observe::NoObserver;

/// A condition that stops [`Debugger::cont`] before a wave's next instruction.
pub type Condition = Box<dyn Fn(&Wave) -> bool>;

/// Why [`Debugger::cont`] (or a step) stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Wave `wave` is about to execute the breakpoint at `pc` (display PC).
    Breakpoint { wave: usize, pc: u64 },
    /// Wave `wave` is about to execute an instruction for which condition `index` holds.
    Condition { wave: usize, index: usize },
    /// The wave executed one instruction (`step`); it ended when `ended`.
    Stepped { wave: usize, ended: bool },
    /// Every workgroup of the dispatch has finished.
    Finished,
}

/// One dispatch under the debugger.
pub struct Debugger<'a> {
    backend: Rdna3Dispatch<'a>,
    launch: &'a Launch<'a>,
    mem: &'a DeviceMemory,
    group_index: u64,
    groups: u64,
    waves: Vec<Wave>,
    lds: Vec<u8>,
    ended: Vec<bool>,
    at_barrier: Vec<bool>,
    breakpoints: Vec<u64>,
    conditions: Vec<Condition>,
    /// The next wave `cont` steps (round robin).
    turn: usize,
    /// Skip the breakpoint check once for this wave (after stopping at it).
    resume: Option<usize>,
    finished: bool,
}

impl<'a> Debugger<'a> {
    /// Prepares the dispatch and starts its first workgroup (nothing runs yet).
    pub fn new(
        launch: &'a Launch<'a>,
        mem: &'a DeviceMemory,
    ) -> Result<Debugger<'a>, DispatchError> {
        let backend = Rdna3Dispatch::new(launch);
        launch.geo.check()?;
        backend.check()?;
        let groups = launch.geo.total_workgroups();
        let mut d = Debugger {
            backend,
            launch,
            mem,
            group_index: 0,
            groups,
            waves: Vec::new(),
            lds: Vec::new(),
            ended: Vec::new(),
            at_barrier: Vec::new(),
            breakpoints: Vec::new(),
            conditions: Vec::new(),
            turn: 0,
            resume: None,
            finished: false,
        };
        d.start_group();
        Ok(d)
    }

    fn start_group(&mut self) {
        let geo = self.launch.geo;
        let wg = geo.workgroup_id(self.group_index);
        let items = geo.items_in(wg);
        let n = (items[0] * items[1] * items[2]).div_ceil(self.backend.lanes()) as usize;
        self.waves = (0..n).map(|_| self.backend.new_wave()).collect();
        for (i, w) in self.waves.iter_mut().enumerate() {
            self.backend.start_wave(
                w,
                WaveSlot {
                    workgroup: wg,
                    index: i as u32,
                    count: n as u32,
                    worker: 0,
                },
            );
        }
        self.backend.start_group(&mut self.lds, wg, n as u32);
        self.ended = vec![false; n];
        self.at_barrier = vec![false; n];
        self.turn = 0;
    }

    /// The current workgroup's id.
    pub fn workgroup(&self) -> [u32; 3] {
        self.launch.geo.workgroup_id(self.group_index)
    }

    /// Waves of the current workgroup.
    pub fn wave_count(&self) -> usize {
        self.waves.len()
    }

    pub fn wave(&self, i: usize) -> Option<&Wave> {
        self.waves.get(i)
    }

    /// Registers (and PC) of wave `i` to change.
    pub fn wave_mut(&mut self, i: usize) -> Option<&mut Wave> {
        self.waves.get_mut(i)
    }

    pub fn lds(&self) -> &[u8] {
        &self.lds
    }

    pub fn lds_mut(&mut self) -> &mut [u8] {
        &mut self.lds
    }

    /// Device memory (reads and writes through `DeviceMemory::read`/`write`).
    pub fn memory(&self) -> &DeviceMemory {
        self.mem
    }

    /// True once the wave ended.
    pub fn ended(&self, i: usize) -> bool {
        self.ended.get(i).copied().unwrap_or(true)
    }

    /// The PC of wave `i` as listings show it (relative to the code object).
    pub fn pc(&self, i: usize) -> Option<u64> {
        self.waves
            .get(i)
            .map(|w| w.pc.wrapping_sub(self.launch.pc_display_base))
    }

    /// The instruction wave `i` executes next, as llvm-objdump prints it.
    pub fn next_instruction(&self, i: usize) -> Option<String> {
        let w = self.waves.get(i)?;
        let prog = self.launch.prog;
        let idx = prog.index_at(w.pc)?;
        let inst: &Inst = &prog.insts[idx];
        Some(crate::disasm::format(inst, w.pc, w.wave64))
    }

    /// Stops before any wave executes the instruction at display PC `pc`; an address that is
    /// not the start of one of the program's instructions (inside an 8-byte instruction, past
    /// the code) is an error, since no wave could ever stop there.
    pub fn break_at(&mut self, pc: u64) -> Result<(), String> {
        let addr = pc.wrapping_add(self.launch.pc_display_base);
        if self.launch.prog.index_at(addr).is_none() {
            return Err(format!(
                "{pc:#x} is not the start of an instruction of this kernel (the addresses wavesim disasm lists are)"
            ));
        }
        if !self.breakpoints.contains(&pc) {
            self.breakpoints.push(pc);
        }
        Ok(())
    }

    pub fn clear_break(&mut self, pc: u64) {
        self.breakpoints.retain(|&b| b != pc);
    }

    /// Stops before a wave's instruction when `cond` holds for the wave; returns its index.
    pub fn break_if(&mut self, cond: Condition) -> usize {
        self.conditions.push(cond);
        self.conditions.len() - 1
    }

    /// Removes every condition.
    pub fn clear_conditions(&mut self) {
        self.conditions.clear();
    }

    pub fn finished(&self) -> bool {
        self.finished
    }

    /// Runs one instruction of wave `i` (a wave at a barrier or ended does nothing).
    pub fn step(&mut self, i: usize) -> Result<Event, DispatchError> {
        if self.finished {
            return Ok(Event::Finished);
        }
        if i >= self.waves.len() || self.ended[i] || self.at_barrier[i] {
            return Ok(Event::Stepped {
                wave: i,
                ended: self.ended(i),
            });
        }
        let w = &mut self.waves[i];
        let stop = self
            .backend
            .run_wave(w, &mut self.lds, self.mem, 1, &mut NoObserver)
            .map_err(|(error, pc)| DispatchError::Exec {
                at: Box::new(self.backend.location(w, pc)),
                error,
            })?;
        match stop {
            Stop::End => self.ended[i] = true,
            Stop::Barrier => self.at_barrier[i] = self.waves.len() > 1,
            Stop::Quantum => {}
        }
        self.after_step();
        Ok(Event::Stepped {
            wave: i,
            ended: self.ended[i],
        })
    }

    /// Barrier completion and the move to the next workgroup.
    fn after_step(&mut self) {
        let live = self.ended.iter().filter(|e| !**e).count();
        let waiting = self.at_barrier.iter().filter(|b| **b).count();
        if waiting > 0 && waiting == live {
            self.at_barrier.iter_mut().for_each(|b| *b = false);
        }
        if live == 0 {
            self.group_index += 1;
            if self.group_index >= self.groups {
                self.finished = true;
            } else {
                self.start_group();
            }
        }
    }

    /// Runs the waves in turns, one instruction each, until a breakpoint or condition holds
    /// before a wave's next instruction or the dispatch finishes. A wave stopped at a
    /// breakpoint executes that instruction when the run continues.
    pub fn cont(&mut self) -> Result<Event, DispatchError> {
        let mut guard = 0u64;
        while !self.finished {
            let n = self.waves.len();
            let i = self.turn % n.max(1);
            self.turn = (i + 1) % n.max(1);
            if self.ended[i] || self.at_barrier[i] {
                continue;
            }
            if self.resume.take() != Some(i) {
                let pc = self.pc(i).unwrap_or(0);
                if self.breakpoints.contains(&pc) {
                    self.resume = Some(i);
                    self.turn = i;
                    return Ok(Event::Breakpoint { wave: i, pc });
                }
                if let Some(index) = self.conditions.iter().position(|c| c(&self.waves[i])) {
                    self.resume = Some(i);
                    self.turn = i;
                    return Ok(Event::Condition { wave: i, index });
                }
            }
            self.step(i)?;
            guard += 1;
            if guard
                > self
                    .launch
                    .max_wave_insts
                    .saturating_mul(self.waves.len().max(1) as u64)
            {
                let w = &self.waves[i];
                return Err(DispatchError::Watchdog {
                    at: Box::new(self.backend.location(w, w.pc)),
                    limit: self.launch.max_wave_insts,
                    end: "s_endpgm",
                });
            }
        }
        Ok(Event::Finished)
    }
}
