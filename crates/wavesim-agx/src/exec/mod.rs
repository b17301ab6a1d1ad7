//! Execution of one SIMD group (32 threads): the state (`WaveState`: 16-bit register halves, uniforms,
//! exec mask), programs, the run loop and the dispatch on the table's semantic column. Semantics live by
//! family: `int.rs` (integer ALU), `float.rs` (float ALU, conversions), `control.rs` (r0l exec-mask
//! stack, selects, branches, calls), `simd.rs` (ballots, shuffles, reductions), `memory.rs` (device and
//! threadgroup memory, atomics).
//!
//! Rule sources, per family (each function's comment repeats its own):
//! - Forms applegpu's emulator executes (integer add/multiply-add, bit-field and shift ops, bitop,
//!   popcount/bitrev/ffs, float fma/add/mul at 16 and 32 bits, compares and selects, `icmp_ballot`,
//!   the five `simd_shuffle*` forms, `if/else/while_[if]cmp` and `pop_exec` on r0l, `mov_imm`,
//!   `get_sr` 80, `wait`, `device_load`): computed exactly as applegpu computes them; the differential
//!   goldens (`tests/exec_goldens.rs`) check it.
//! - `intl`: applegpu's pseudocode (it has no emulation).
//! - `fcmp_ballot`: applegpu's emulator treats every comparison as true (a stub); here it is the ballot
//!   of the float comparison, as for `icmp_ballot`.
//! - Rounding unary ops (`floor`, `ceil`, `trunc`, `rint`) are exact operations; `rcp`, `rsqrt`, `log2`,
//!   `exp2` are computed in f64 and rounded to the destination (the M1's exact approximation error is
//!   not public; these are correctly rounded). Sources and destinations follow the same widening and
//!   flush rules as the checked float ops (`fp.rs`).
//! - Control flow: applegpu's pseudocode for `jmp_exec_any`/`jmp_exec_none` (branch when any / no thread
//!   is active) and `call` (r1 = return address in active threads); `ret` jumps to the register's value,
//!   which must agree across active threads; `stop` ends the group; `trap` is an error.
//! - `device_store` mirrors `device_load`'s address rule (same fields; Mesa's `agx_pack.c` packs both
//!   alike) for the raw formats i8/i16/i32/f16; `threadgroup_load`/`threadgroup_store` address
//!   `base + index * element size` (applegpu's description), raw formats.
//! - `uniform_store`, `doorbell`, `jmp_if_skipping_doorbell`, `map`/`unmap`: `helper.rs` (Mesa's
//!   `agx_pack.c`, `agx_opcodes.py`, `helper.cl`; applegpu's description of `uniform_store`).

pub mod astc;
mod block_store;
pub mod compressed;
mod control;
mod coverage;
mod float;
pub mod formats;
mod helper;
mod image;
mod int;
mod memory;
mod miptree;
mod simd;
mod stack;
pub mod texture;
mod texture_ms;
pub mod tile;
mod varying;
mod zs_emit;

pub use coverage::{Coverage, ZsOutput, TESTED_SAMPLE_RULES};
pub use image::NONZERO_LOD;
pub use varying::{default_sample_positions, TILE};

/// The opt-in's partial-coverage centroid rule (`varying.rs`), for tests and the docs.
pub use varying::{centroid_offset, PARTIAL_CENTROID};

use crate::decode::{decode, Decoded};
use crate::error::DecodeError;
use crate::fp;
use crate::operand::{Flag, Operand, Reg, RegFile};
use crate::table_types::Sem;
use std::collections::HashMap;
use wavesim_core::engine::WaveSlot;
use wavesim_core::memory::{DeviceMemory, MemError};
use wavesim_core::observe::{
    record_access, AccessKind, InstLoc, MemAccess, MemoryView, NoObserver, Observer,
};

/// Threads per SIMD group.
pub const SIMD_WIDTH: usize = 32;

/// Value written into poisoned registers (besides marking them undefined).
pub const POISON: u32 = 0xDEAD_BEEF;

/// Why an instruction could not execute.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
pub enum Fault {
    #[error(transparent)]
    Decode(#[from] DecodeError),
    #[error("`{name}` has no semantics in wavesim-agx yet")]
    Unsupported { name: &'static str },
    #[error("unsupported form: {what}")]
    UnsupportedForm { what: String },
    #[error("register {reg} is beyond the {count} registers allocated")]
    RegisterOutOfRange { reg: String, count: usize },
    #[error("thread {lane}: {source}")]
    Memory { lane: usize, source: MemError },
    #[error("threadgroup memory access of {size} bytes at {addr:#x} (thread {lane}) is outside the {len} allocated bytes")]
    ThreadgroupOutOfRange {
        lane: usize,
        addr: i64,
        size: usize,
        len: usize,
    },
    #[error("trap")]
    Trap,
    #[error("`ret` to different addresses in active threads")]
    DivergentReturn,
    #[error("special register sr{0} is not provided by this dispatch")]
    SpecialRegister(u64),
    #[error("instruction budget exhausted (runaway loop?)")]
    Budget,
    #[error("helper program: {0}")]
    Helper(String),
    #[error("thread {lane} reads {reg}, which the ABI leaves undefined (poisoned) at this point")]
    UndefinedRead { reg: String, lane: usize },
}

/// A fault with its location.
#[derive(Debug, thiserror::Error, Clone, PartialEq)]
#[error("pc {pc:#x} `{text}`: {fault}")]
pub struct ExecError {
    pub pc: u64,
    pub text: String,
    pub fault: Fault,
}

/// Why `run` returned without an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stop {
    /// `stop` executed.
    End,
    /// `threadgroup_barrier`: resume at `pc` once every group of the threadgroup arrives.
    Barrier,
    /// The instruction budget of this call ran out; call again to continue.
    Quantum,
}

/// Register state of one SIMD group.
#[derive(Debug, Clone, PartialEq)]
pub struct WaveState {
    /// General-purpose registers as 16-bit halves: `halves[2 * r]` is `r{r}l`, per thread.
    pub halves: Vec<[u16; SIMD_WIDTH]>,
    /// Uniform registers as 16-bit halves (`u{n}l`, `u{n}h`), 256 32-bit uniforms.
    pub uniforms: Vec<u16>,
    /// Active threads (bit per thread).
    pub exec: u32,
    pub pc: u64,
    /// Special register values per thread (`get_sr`).
    pub special: HashMap<u64, [u32; SIMD_WIDTH]>,
    /// Poisoned register halves: bit `lane` of `undefined[h]` set means half `h` holds no defined value in
    /// that thread, and reading it is an error (Mesa's asahi compiler README, ABI: r0-r4 and r7 are undefined at the start of a
    /// non-monolithic vertex shader). Empty when not tracked.
    pub undefined: Vec<u32>,
    /// Threads that exist (a partially filled group has fewer than 32): the exec-mask stack can only
    /// activate these.
    pub present: u32,
    /// Helper threads of a fragment group (bit per thread): uncovered pixels of a shaded quad,
    /// run for derivatives. The hardware predicates their device writes off (Mesa's
    /// `agx_nir_lower_frag_sidefx.c`: "The hardware will predicate simple writes for us"), so
    /// `device_store`, device atomics and `image_write` skip them ([`without_helpers`]).
    pub helpers: u32,
    /// Vertex outputs stored by `st_var`, in order: (thread, slot, value).
    pub varyings: Vec<(usize, u32, u32)>,
    /// Instructions executed, per group and summed over active threads.
    pub insts: u64,
    pub lane_insts: u64,
    /// Where the group runs in a dispatch (for observers and error locations).
    pub slot: Option<WaveSlot>,
    /// The requesting side of the helper-program protocol (`doorbell`, `map`/`unmap`); `None` outside
    /// helper programs, where those instructions are `Fault::Unsupported`.
    pub helper: Option<crate::helper::HelperPort>,
    /// Coefficient registers of a fragment group (`iter`, `iterproj`, `ldcf`): one plane <A, B, C> per
    /// register, C at the corner of the group's 32x32 tile (`varying.rs`). Empty outside fragments.
    pub coefficients: Vec<[f32; 3]>,
    /// Sample positions within the pixel for sample interpolation (`varying::default_sample_positions`
    /// of the framebuffer's sample count). Empty outside fragments.
    pub sample_positions: Vec<(f32, f32)>,
    /// Killed and tested samples of each thread's pixel (`sample_mask`); `samples` 0 outside
    /// fragment runs.
    pub coverage: Coverage,
    /// Texture and sampler state (Mesa 22.3's TEXTURE and SAMPLER descriptors) the group's
    /// `texture_sample`/`texture_load` index (`exec/texture.rs`). Empty when none are bound.
    pub textures: Vec<[u8; 24]>,
    pub samplers: Vec<[u8; 8]>,
    /// Custom border colours (Mesa 25.0's cmdbuf.xml BORDER, 16 bytes): entry i follows sampler
    /// i when the sampler state is extended (`agx_upload_samplers`: stride SAMPLER + BORDER).
    /// Empty for compact sampler state, where a sampler with the custom border mode is an error.
    pub borders: Vec<[u8; 16]>,
    /// `no_var` executed: the vertex shader declared that it writes no varyings.
    pub no_varyings: bool,
    /// Each thread's private stack (`stack_store`/`stack_load`): the bytes it stored, by offset.
    pub stack: Vec<std::collections::BTreeMap<u32, u8>>,
    /// Bytes of the stack frame `stack_adjust` opened (0: none; exec/stack.rs).
    pub stack_frame: u32,
    /// Pixel origin of the tile an end-of-tile program stores (`image_write_block`).
    pub tile_origin: Option<[u32; 2]>,
    /// The tile buffer's samples and tile size (`tile.rs`); single-sampled 32x32 by default.
    pub tile_layout: tile::TileLayout,
    /// Opt-in: run `sin_pt_1`, `sin_pt_2`, `rsqrt_special` and `simd_matrix_fmadd32/16` as their
    /// documented intent (the M1's rules are not public); off, they are `Fault::Unsupported`.
    /// Also the texture filters of `texture.rs` and `sample_mask` on tested samples
    /// (`coverage.rs`), typed errors without it.
    pub approximate: bool,
    /// Executions of those instructions under the opt-in, by name (per SIMD group instruction).
    pub approximated: std::collections::BTreeMap<&'static str, u64>,
    /// The memory accesses (device, threadgroup, stack, tile, texture, coefficients) of the instruction being run, when an
    /// observer is enabled (`run_observed` clears it before each instruction); `None` otherwise.
    pub accesses: Option<Vec<MemAccess>>,
}

impl WaveState {
    /// `nr_gprs` 32-bit registers (at most 128), all zero, all threads active.
    pub fn new(nr_gprs: usize) -> WaveState {
        WaveState {
            halves: vec![[0; SIMD_WIDTH]; 2 * nr_gprs.min(128)],
            uniforms: vec![0; 512],
            exec: u32::MAX,
            pc: 0,
            special: HashMap::new(),
            undefined: vec![],
            present: u32::MAX,
            helpers: 0,
            varyings: vec![],
            insts: 0,
            lane_insts: 0,
            slot: None,
            helper: None,
            coefficients: vec![],
            sample_positions: vec![],
            coverage: Coverage::default(),
            textures: vec![],
            samplers: vec![],
            borders: vec![],
            no_varyings: false,
            stack: vec![],
            stack_frame: 0,
            tile_origin: None,
            tile_layout: tile::TileLayout::SINGLE,
            approximate: false,
            approximated: Default::default(),
            accesses: None,
        }
    }

    pub fn nr_gprs(&self) -> usize {
        self.halves.len() / 2
    }

    /// Records a memory access for observers (nothing when none is enabled).
    #[inline(always)]
    pub(crate) fn record(
        &mut self,
        kind: AccessKind,
        space: &'static str,
        lane: usize,
        addr: u64,
        size: u64,
        value: u64,
    ) {
        record_access(&mut self.accesses, kind, space, lane, addr, size, value);
    }

    /// Reads `buf.len()` bytes of device memory at `addr` for thread `lane` and records the load
    /// (its first 8 bytes as the value), as a texel or image read is traced.
    pub(crate) fn load_recorded(
        &mut self,
        dev: &DeviceMemory,
        space: &'static str,
        lane: usize,
        addr: u64,
        buf: &mut [u8],
    ) -> Result<(), Fault> {
        dev.read(addr, buf)
            .map_err(|source| Fault::Memory { lane, source })?;
        let mut value = [0u8; 8];
        let low = buf.len().min(8);
        value[..low].copy_from_slice(&buf[..low]);
        let size = buf.len() as u64;
        self.record(
            AccessKind::Load,
            space,
            lane,
            addr,
            size,
            u64::from_le_bytes(value),
        );
        Ok(())
    }

    fn out_of_range(&self, reg: Reg) -> Fault {
        Fault::RegisterOutOfRange {
            reg: reg.to_string(),
            count: self.nr_gprs(),
        }
    }

    fn halves_of(reg: Reg) -> (usize, usize) {
        let n = reg.n as usize;
        match reg.file {
            RegFile::R16 | RegFile::U16 => (n, 1),
            RegFile::R32 | RegFile::U32 => (2 * n, 2),
            RegFile::R64 | RegFile::U64 => (2 * n, 4),
        }
    }

    /// Value of `reg` in thread `lane` (uniforms are the same in all threads).
    #[inline(always)]
    pub fn read(&self, reg: Reg, lane: usize) -> Result<u64, Fault> {
        // Fast paths: general-purpose registers, no poison tracking.
        if self.undefined.is_empty() && lane < SIMD_WIDTH {
            let n = reg.n as usize;
            match reg.file {
                RegFile::R16 => {
                    if let Some(h) = self.halves.get(n) {
                        return Ok(h[lane] as u64);
                    }
                }
                RegFile::R32 => {
                    if let (Some(l), Some(h)) = (self.halves.get(2 * n), self.halves.get(2 * n + 1))
                    {
                        return Ok(l[lane] as u64 | (h[lane] as u64) << 16);
                    }
                }
                _ => {}
            }
        }
        self.read_general(reg, lane)
    }

    fn read_general(&self, reg: Reg, lane: usize) -> Result<u64, Fault> {
        let (first, count) = Self::halves_of(reg);
        if !reg.file.is_uniform() && !self.undefined.is_empty() {
            for h in first..first + count {
                if self.undefined.get(h).is_some_and(|m| m >> lane & 1 == 1) {
                    return Err(Fault::UndefinedRead {
                        reg: reg.to_string(),
                        lane,
                    });
                }
            }
        }
        let mut v = 0u64;
        for i in 0..count {
            let h = if reg.file.is_uniform() {
                *self
                    .uniforms
                    .get(first + i)
                    .ok_or_else(|| self.out_of_range(reg))?
            } else {
                self.halves
                    .get(first + i)
                    .ok_or_else(|| self.out_of_range(reg))?[lane]
            };
            v |= (h as u64) << (16 * i);
        }
        Ok(v)
    }

    /// Write the low bits of `value` to `reg` in thread `lane`.
    #[inline(always)]
    pub fn write(&mut self, reg: Reg, lane: usize, value: u128) -> Result<(), Fault> {
        if self.undefined.is_empty() && lane < SIMD_WIDTH {
            let n = reg.n as usize;
            match reg.file {
                RegFile::R16 => {
                    if let Some(h) = self.halves.get_mut(n) {
                        h[lane] = value as u16;
                        return Ok(());
                    }
                }
                RegFile::R32 if 2 * n + 1 < self.halves.len() => {
                    self.halves[2 * n][lane] = value as u16;
                    self.halves[2 * n + 1][lane] = (value >> 16) as u16;
                    return Ok(());
                }
                _ => {}
            }
        }
        self.write_general(reg, lane, value)
    }

    fn write_general(&mut self, reg: Reg, lane: usize, value: u128) -> Result<(), Fault> {
        let (first, count) = Self::halves_of(reg);
        if reg.file.is_uniform() {
            return Err(Fault::UnsupportedForm {
                what: format!("uniform destination {reg}"),
            });
        }
        if first + count > self.halves.len() {
            return Err(self.out_of_range(reg));
        }
        for i in 0..count {
            self.halves[first + i][lane] = (value >> (16 * i)) as u16;
            if let Some(m) = self.undefined.get_mut(first + i) {
                *m &= !(1 << lane);
            }
        }
        Ok(())
    }

    pub fn r0l(&self, lane: usize) -> u16 {
        self.halves.first().map(|h| h[lane]).unwrap_or(0)
    }

    pub fn set_uniform32(&mut self, n: usize, v: u32) {
        self.uniforms[2 * n] = v as u16;
        self.uniforms[2 * n + 1] = (v >> 16) as u16;
    }

    pub fn set_uniform64(&mut self, n: usize, v: u64) {
        self.set_uniform32(n, v as u32);
        self.set_uniform32(n + 1, (v >> 32) as u32);
    }

    pub fn uniform32(&self, n: usize) -> u32 {
        self.uniforms[2 * n] as u32 | (self.uniforms[2 * n + 1] as u32) << 16
    }

    /// 32-bit register `r` of thread `lane` (0 if beyond the allocation).
    pub fn reg32(&self, r: usize, lane: usize) -> u32 {
        match (self.halves.get(2 * r), self.halves.get(2 * r + 1)) {
            (Some(l), Some(h)) => l[lane] as u32 | (h[lane] as u32) << 16,
            _ => 0,
        }
    }

    pub fn set_reg32(&mut self, r: usize, lane: usize, v: u32) {
        if 2 * r + 1 < self.halves.len() {
            self.halves[2 * r][lane] = v as u16;
            self.halves[2 * r + 1][lane] = (v >> 16) as u16;
            for h in [2 * r, 2 * r + 1] {
                if let Some(m) = self.undefined.get_mut(h) {
                    *m &= !(1 << lane);
                }
            }
        }
    }

    /// 16-bit half `h` (`r{h/2}l`/`h`) of thread `lane` (0 if beyond the allocation).
    pub fn half(&self, h: usize, lane: usize) -> u16 {
        self.halves.get(h).map(|x| x[lane]).unwrap_or(0)
    }

    pub fn set_half(&mut self, h: usize, lane: usize, v: u16) {
        if let Some(x) = self.halves.get_mut(h) {
            x[lane] = v;
            if let Some(m) = self.undefined.get_mut(h) {
                *m &= !(1 << lane);
            }
        }
    }

    /// Poison every register (see [`WaveState::poison_reg32`]).
    pub fn poison_all(&mut self) {
        for r in 0..self.nr_gprs() {
            self.poison_reg32(r);
        }
    }

    /// Whether half `h` holds no defined value in thread `lane` (poisoned and not written since).
    pub fn is_undefined(&self, h: usize, lane: usize) -> bool {
        self.undefined.get(h).is_some_and(|m| m >> lane & 1 == 1)
    }

    /// Mark 32-bit register `r` undefined in every thread and fill it with a poison pattern.
    pub fn poison_reg32(&mut self, r: usize) {
        if self.undefined.len() < self.halves.len() {
            self.undefined.resize(self.halves.len(), 0);
        }
        for lane in 0..SIMD_WIDTH {
            self.set_reg32(r, lane, POISON);
        }
        for h in [2 * r, 2 * r + 1] {
            if h < self.undefined.len() {
                self.undefined[h] = u32::MAX;
            }
        }
    }
}

/// One decoded instruction of a program.
#[derive(Debug, Clone)]
pub struct Inst {
    pub pc: u64,
    pub decoded: Decoded,
    pub text: String,
}

/// A program: its bytes and the instructions a linear sweep finds (branch targets elsewhere decode on
/// demand).
#[derive(Debug, Clone)]
pub struct Program {
    pub code: Vec<u8>,
    insts: Vec<Result<Inst, DecodeError>>,
    /// Index into `insts` by `pc / 2` (`u32::MAX`: no instruction starts there in the linear sweep).
    by_pc: Vec<u32>,
}

impl Program {
    pub fn new(code: Vec<u8>) -> Program {
        let mut insts = vec![];
        let mut by_pc = vec![u32::MAX; code.len().div_ceil(2)];
        let mut p = 0usize;
        while p < code.len() {
            let r = decode(&code[p..]);
            let size = r.as_ref().map(|d| d.size).unwrap_or(2);
            by_pc[p / 2] = insts.len() as u32;
            insts.push(r.map(|d| Inst {
                pc: p as u64,
                text: d.text(p as u64),
                decoded: d,
            }));
            p += size;
        }
        Program { code, insts, by_pc }
    }

    /// The instruction at `pc`.
    pub fn at(&self, pc: u64) -> Result<std::borrow::Cow<'_, Inst>, ExecError> {
        let err = |fault: Fault| ExecError {
            pc,
            text: String::from("<undecodable>"),
            fault,
        };
        let slot = if pc & 1 == 0 {
            self.by_pc.get((pc / 2) as usize).copied()
        } else {
            None
        };
        if let Some(i) = slot.filter(|&i| i != u32::MAX) {
            return match &self.insts[i as usize] {
                Ok(inst) => Ok(std::borrow::Cow::Borrowed(inst)),
                Err(e) => Err(err(e.clone().into())),
            };
        }
        if pc as usize >= self.code.len() {
            return Err(err(Fault::UnsupportedForm {
                what: format!("pc {pc:#x} is outside the program"),
            }));
        }
        let d = decode(&self.code[pc as usize..]).map_err(|e| err(e.into()))?;
        Ok(std::borrow::Cow::Owned(Inst {
            pc,
            text: d.text(pc),
            decoded: d,
        }))
    }

    /// Text of the instruction at `pc` (for error messages and traces).
    pub fn describe(&self, pc: u64) -> String {
        self.at(pc)
            .map(|i| i.text.clone())
            .unwrap_or_else(|_| "<undecodable>".into())
    }
}

/// Memory a SIMD group reaches: device memory and its threadgroup's memory.
pub struct Memories<'a> {
    pub device: &'a DeviceMemory,
    pub threadgroup: &'a mut Vec<u8>,
}

/// What a step debugger reads and writes while the group is paused: device memory (the
/// default) and the group's threadgroup memory.
impl MemoryView for Memories<'_> {
    fn spaces(&self) -> &[&'static str] {
        &["device", "threadgroup"]
    }
    fn read(&self, space: usize, addr: u64, out: &mut [u8]) -> Result<(), String> {
        if space == 0 {
            return self.device.read(addr, out).map_err(|e| e.to_string());
        }
        let at = self.threadgroup_range(addr, out.len())?;
        out.copy_from_slice(&self.threadgroup[at]);
        Ok(())
    }
    fn write(&mut self, space: usize, addr: u64, data: &[u8]) -> Result<(), String> {
        if space == 0 {
            return self.device.write(addr, data).map_err(|e| e.to_string());
        }
        let at = self.threadgroup_range(addr, data.len())?;
        self.threadgroup[at].copy_from_slice(data);
        Ok(())
    }
}

impl Memories<'_> {
    fn threadgroup_range(&self, addr: u64, n: usize) -> Result<std::ops::Range<usize>, String> {
        usize::try_from(addr)
            .ok()
            .and_then(|a| Some(a..a.checked_add(n)?))
            .filter(|r| r.end <= self.threadgroup.len())
            .ok_or_else(|| {
                format!(
                    "threadgroup {addr:#x} + {n} bytes is outside the group's {} bytes of threadgroup memory",
                    self.threadgroup.len()
                )
            })
    }
}

/// What an instruction does to control flow.
pub enum Flow {
    Next,
    Jump(u64),
    End,
    Barrier,
}

/// Run the group from `wave.pc` until it stops, reaches a barrier, faults, or executes `budget`
/// instructions.
pub fn run(
    wave: &mut WaveState,
    program: &Program,
    mem: &mut Memories<'_>,
    budget: u64,
) -> Result<Stop, ExecError> {
    run_observed(wave, program, mem, budget, &mut NoObserver)
}

/// The run loop, shared by [`run`] and the compute back end's `run_wave`: at most `budget`
/// instructions, the observer's hooks around each (compiled away for [`NoObserver`]), instruction
/// counts kept in the wave.
pub fn run_observed<O: Observer<WaveState, Inst> + ?Sized>(
    wave: &mut WaveState,
    program: &Program,
    mem: &mut Memories<'_>,
    budget: u64,
    obs: &mut O,
) -> Result<Stop, ExecError> {
    for _ in 0..budget {
        let pc = wave.pc;
        let inst = program.at(pc)?;
        let loc = if obs.enabled() {
            let slot = wave.slot.unwrap_or(WaveSlot {
                workgroup: [0; 3],
                index: 0,
                count: 1,
                worker: 0,
            });
            let loc = InstLoc {
                workgroup: slot.workgroup,
                wave: slot.index,
                pc,
                addr: pc,
                trap_handler: false,
            };
            obs.pause_mem(&loc, wave, &inst, mem);
            match &mut wave.accesses {
                Some(v) => v.clear(),
                None => wave.accesses = Some(Vec::new()),
            }
            obs.before(&loc, wave, &inst);
            Some(loc)
        } else {
            None
        };
        wave.insts += 1;
        wave.lane_insts += wave.exec.count_ones() as u64;
        let size = inst.decoded.size as u64;
        let flow = step(wave, &inst.decoded, mem).map_err(|fault| ExecError {
            pc,
            text: inst.text.clone(),
            fault,
        })?;
        let stop = match flow {
            Flow::Next => {
                wave.pc += size;
                None
            }
            Flow::Jump(t) => {
                wave.pc = t;
                None
            }
            Flow::End => Some(Stop::End),
            Flow::Barrier => {
                wave.pc += size;
                Some(Stop::Barrier)
            }
        };
        if let Some(loc) = &loc {
            obs.after(loc, wave, &inst);
        }
        if let Some(s) = stop {
            return Ok(s);
        }
    }
    Ok(Stop::Quantum)
}

pub(super) fn sign_extend(v: u64, bits: u32) -> i128 {
    let shift = 128 - bits;
    ((v as i128) << shift) >> shift
}

/// Bit size of a source operand as applegpu counts it (immediates count as 16 bits).
pub(super) fn bit_size(op: &Operand) -> u32 {
    match op {
        Operand::Reg(r, _) => r.file.bits(),
        _ => 16,
    }
}

pub(super) fn missing(name: &str) -> Fault {
    Fault::UnsupportedForm {
        what: format!("operand {name} has a reserved encoding (applegpu prints `None` for it)"),
    }
}

/// Integer value of a source in thread `lane` (sign-extended when it carries `.sx`).
#[inline(always)]
pub(super) fn int_src(w: &WaveState, op: &Operand, lane: usize) -> Result<i128, Fault> {
    match op {
        Operand::Reg(r, fl) => {
            let v = w.read(*r, lane)?;
            Ok(if fl.contains(&Flag::Sx) {
                sign_extend(v, r.file.bits())
            } else {
                v as i128
            })
        }
        Operand::Imm(v) => Ok(*v as i128),
        _ => Err(missing("source")),
    }
}

/// Float source widened to f64 bits, with its abs/neg modifiers.
#[inline(always)]
pub(super) fn float_src(w: &WaveState, op: &Operand, lane: usize) -> Result<u64, Fault> {
    let (mut r, fl) = match op {
        Operand::FloatImm(v, fl) => (v.to_bits(), fl),
        Operand::Reg(reg, fl) => {
            let bits = w.read(*reg, lane)?;
            let r = match reg.file.bits() {
                16 => fp::f16_to_f64(bits),
                32 => fp::f32_to_f64_ftz(bits),
                _ => {
                    return Err(Fault::UnsupportedForm {
                        what: "64-bit float source".into(),
                    })
                }
            };
            (r, fl)
        }
        _ => return Err(missing("float source")),
    };
    if fl.contains(&Flag::Abs) {
        r &= !(1 << 63);
    }
    if fl.contains(&Flag::Neg) {
        r ^= 1 << 63;
    }
    Ok(r)
}

pub(super) fn dst_reg(op: &Operand) -> Result<Reg, Fault> {
    match op {
        Operand::Reg(r, _) => Ok(*r),
        _ => Err(Fault::UnsupportedForm {
            what: "register-pair destination".into(),
        }),
    }
}

/// The documented-intent opt-in ([`WaveState::approximate`]) gate: without it, `name` is
/// `Fault::Unsupported`.
pub(super) fn require_approximate(w: &WaveState, name: &'static str) -> Result<(), Fault> {
    if w.approximate {
        Ok(())
    } else {
        Err(Fault::Unsupported { name })
    }
}

/// Fields that must hold the values Mesa packs (`what` names the instruction): any other value has
/// no public meaning and is a typed error rather than ignored.
pub(super) fn require_fields(o: &Ops<'_>, what: &str, fields: &[(&str, u64)]) -> Result<(), Fault> {
    for &(name, want) in fields {
        let v = o.field(name);
        if v != want {
            return Err(Fault::UnsupportedForm {
                what: format!("{what} with {name} = {v} (Mesa packs {want}; no public rule)"),
            });
        }
    }
    Ok(())
}

pub(super) struct Ops<'a> {
    d: &'a Decoded,
}

impl<'a> Ops<'a> {
    fn op(&self, name: &str) -> Result<&'a Operand, Fault> {
        self.d
            .encoding()
            .operands
            .iter()
            .position(|o| same_name(o.name, name))
            .map(|i| &self.d.operands[i])
            .ok_or_else(|| Fault::UnsupportedForm {
                what: format!("no operand {name}"),
            })
    }
    fn field(&self, name: &str) -> u64 {
        self.d.fields.get_or_zero(name)
    }
    /// The instruction's bits, for forms recognised by their whole word (exec/stack.rs).
    fn word(&self) -> u128 {
        self.d.word
    }
}

/// Field and operand names are one to three ASCII bytes: compare length and bytes inline.
#[inline]
fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).all(|(x, y)| x == y)
}

/// A comparison resolved once per instruction (operands, condition code, inversion).
pub(super) struct Compare<'a> {
    a: &'a Operand,
    b: &'a Operand,
    cc: u64,
    invert: bool,
    float: bool,
}

impl<'a> Compare<'a> {
    fn of(o: &Ops<'a>, float: bool) -> Result<Compare<'a>, Fault> {
        Ok(Compare {
            a: o.op("A")?,
            b: o.op("B")?,
            cc: o.field("cc"),
            invert: o.field("ccn") != 0,
            float,
        })
    }

    fn eval(&self, w: &WaveState, lane: usize) -> Result<bool, Fault> {
        let r = if self.float {
            self.float_cmp(w, lane)?
        } else {
            self.int_cmp(w, lane)?
        };
        Ok(r != self.invert)
    }

    fn int_cmp(&self, w: &WaveState, lane: usize) -> Result<bool, Fault> {
        let mut a = int_src(w, self.a, lane)?;
        let mut b = int_src(w, self.b, lane)?;
        if self.cc & 4 != 0 {
            a = sign_extend(a as u64, bit_size(self.a));
            b = sign_extend(b as u64, bit_size(self.b));
        }
        Ok(match self.cc & 3 {
            0 => a == b,
            1 => a < b,
            2 => a > b,
            _ => {
                return Err(Fault::UnsupportedForm {
                    what: format!("integer condition code {}", self.cc),
                })
            }
        })
    }

    fn float_cmp(&self, w: &WaveState, lane: usize) -> Result<bool, Fault> {
        let a = f64::from_bits(float_src(w, self.a, lane)?);
        let b = f64::from_bits(float_src(w, self.b, lane)?);
        Ok(match self.cc {
            0 => a == b,
            1 => a < b,
            2 => a > b,
            // "NaN loses" forms (applegpu's FloatLessThanNanLosesComparison and its greater-than twin,
            // which applegpu does not emulate): as < / >, but true when only B is NaN, so a select of A
            // on true implements fmin/fmax (Mesa's fmin/fmax lowering) returning the non-NaN operand.
            3 => a < b || (b.is_nan() && !a.is_nan()),
            7 => a > b || (b.is_nan() && !a.is_nan()),
            5 => a >= b,
            6 => a <= b,
            _ => {
                return Err(Fault::UnsupportedForm {
                    what: format!("float condition code {}", self.cc),
                })
            }
        })
    }
}

pub(super) fn saturate_int(v: i128, bits: u32, signed: bool) -> i128 {
    let (lo, hi) = if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    v.clamp(lo, hi)
}

pub(super) fn shl(v: u128, s: u32) -> u128 {
    v.checked_shl(s).unwrap_or(0)
}
pub(super) fn shr(v: u128, s: u32) -> u128 {
    v.checked_shr(s).unwrap_or(0)
}

/// Execution-mask stack update on r0l for every thread, then exec = (r0l == 0).
pub(super) fn update_stack(
    w: &mut WaveState,
    mut f: impl FnMut(&WaveState, usize, u16) -> Result<u16, Fault>,
) -> Result<(), Fault> {
    if w.halves.is_empty() {
        return Err(Fault::RegisterOutOfRange {
            reg: "r0l".into(),
            count: 0,
        });
    }
    for lane in (0..SIMD_WIDTH).filter(|l| w.present >> l & 1 == 1) {
        if w.undefined.first().is_some_and(|m| m >> lane & 1 == 1) {
            return Err(Fault::UndefinedRead {
                reg: "r0l".into(),
                lane,
            });
        }
        let v = f(w, lane, w.halves[0][lane])?;
        w.halves[0][lane] = v;
    }
    // Only threads that exist can be active (a partly filled group's missing threads keep r0l = 0).
    w.exec = (0..SIMD_WIDTH)
        .filter(|&l| w.halves[0][l] == 0)
        .fold(0, |m, l| m | 1 << l)
        & w.present;
    Ok(())
}

pub(super) fn active(w: &WaveState) -> impl Iterator<Item = usize> {
    let exec = w.exec;
    (0..SIMD_WIDTH).filter(move |l| exec >> l & 1 == 1)
}

/// Per-thread ALU op over the active threads.
#[inline(always)]
pub(super) fn per_thread(
    w: &mut WaveState,
    dst: &Operand,
    mut f: impl FnMut(&WaveState, usize) -> Result<u128, Fault>,
) -> Result<(), Fault> {
    let d = dst_reg(dst)?;
    for lane in active(w) {
        let v = f(w, lane)?;
        w.write(d, lane, v)?;
    }
    Ok(())
}

/// Runs a device write with the group's helper threads inactive (`WaveState::helpers`): they
/// write nothing, and an atomic leaves their destination as it was (GLSL: a helper
/// invocation's atomic does not change memory and returns an undefined value).
fn without_helpers(
    w: &mut WaveState,
    f: impl FnOnce(&mut WaveState) -> Result<(), Fault>,
) -> Result<(), Fault> {
    let saved = w.exec;
    w.exec &= !w.helpers;
    let r = f(w);
    w.exec = saved;
    r
}

/// Execute one decoded instruction at `w.pc`: dispatch on the table's semantic column.
pub fn step(w: &mut WaveState, d: &Decoded, mem: &mut Memories<'_>) -> Result<Flow, Fault> {
    // An operand in a reserved encoding (applegpu prints `TODO: xxxx` and `None` for it) decodes as
    // `Operand::Missing`, which has no value: every semantic reads sources through `int_src`,
    // `float_src` or an explicit match, and reading a `Missing` operand is `Fault::UnsupportedForm`
    // (`missing`). An instruction that never reads it in this execution (no thread evaluates that
    // comparison; a truth table that ignores it) computes what applegpu's emulator computes, which
    // runs such streams too (the differential goldens include 27).
    let o = &Ops { d };
    let sem = d.encoding().sem;
    match sem {
        Sem::MovImm => int::mov_imm(w, o)?,
        Sem::GetSr => int::get_sr(w, o)?,
        Sem::IAdd => int::iadd(w, o)?,
        Sem::IMAdd => int::imadd(w, o)?,
        Sem::Bfi | Sem::Bfeil | Sem::Extr | Sem::Shlhi | Sem::Shrhi => int::bitfield(w, o, sem)?,
        Sem::Asr | Sem::Asrh => int::asr(w, o, sem)?,
        Sem::Bitop => int::bitop(w, o)?,
        Sem::Bitrev | Sem::Popcount | Sem::Ffs => int::bit_count(w, o, sem)?,
        Sem::Intl => int::intl(w, o)?,
        Sem::Convert => float::convert(w, o)?,
        Sem::FMadd32 | Sem::FMadd16 | Sem::FAdd32 | Sem::FAdd16 | Sem::FMul32 | Sem::FMul16 => {
            float::fma_family(w, o, sem)?
        }
        Sem::Floor
        | Sem::Ceil
        | Sem::Trunc
        | Sem::Rint
        | Sem::Rcp
        | Sem::Rsqrt
        | Sem::Log2
        | Sem::Exp2 => float::unary(w, o, sem)?,
        Sem::Dfdx | Sem::Dfdy => float::derivative(w, o, sem == Sem::Dfdy)?,
        Sem::PopExec => control::pop_exec(w, o)?,
        Sem::IfICmp | Sem::IfFCmp => control::if_cmp(w, o, sem == Sem::IfFCmp)?,
        Sem::ElseICmp | Sem::ElseFCmp => control::else_cmp(w, o, sem == Sem::ElseFCmp)?,
        Sem::WhileICmp | Sem::WhileFCmp => control::while_cmp(w, o, sem == Sem::WhileFCmp)?,
        Sem::ICmpsel | Sem::FCmpsel => control::cmpsel(w, o, sem == Sem::FCmpsel)?,
        Sem::JmpExecAny | Sem::JmpExecNone => {
            return control::jmp_exec(w, o, sem == Sem::JmpExecAny)
        }
        Sem::Call => return control::call(w, o),
        Sem::Ret => return control::ret(w, o),
        Sem::Wait | Sem::MemoryBarrier => {}
        Sem::ThreadgroupBarrier => return Ok(Flow::Barrier),
        Sem::Stop => return Ok(Flow::End),
        Sem::Trap => return Err(Fault::Trap),
        Sem::ICmpBallot | Sem::FCmpBallot => simd::ballot(w, o, sem == Sem::FCmpBallot)?,
        Sem::ICmpQuadBallot | Sem::FCmpQuadBallot => {
            simd::quad_ballot(w, o, sem == Sem::FCmpQuadBallot)?
        }
        Sem::QuadShuffle | Sem::QuadShuffleXor => {
            simd::quad_shuffle(w, o, sem == Sem::QuadShuffleXor)?
        }
        Sem::SimdShuffle
        | Sem::SimdShuffleDown
        | Sem::SimdShuffleUp
        | Sem::SimdShuffleRotateUp
        | Sem::SimdShuffleXor => simd::shuffle(w, o, sem)?,
        Sem::SimdReduce(_) | Sem::SimdPrefix(_) | Sem::QuadReduce(_) | Sem::QuadPrefix(_) => {
            simd::reduce(w, o, sem)?
        }
        Sem::DeviceLoad => memory::device_load(w, o, mem.device)?,
        Sem::DeviceLoadCoherent => {
            memory::check_coherent_load(o)?;
            memory::device_load(w, o, mem.device)?
        }
        Sem::DeviceStore => without_helpers(w, |w| memory::device_store(w, o, mem.device))?,
        Sem::ThreadgroupLoad | Sem::ThreadgroupStore => {
            memory::threadgroup_access(w, o, mem.threadgroup, sem == Sem::ThreadgroupLoad)?
        }
        Sem::Atomic => without_helpers(w, |w| memory::atomic(w, o, mem.device))?,
        Sem::ThreadgroupAtomic => memory::threadgroup_atomic(w, o, mem.threadgroup)?,
        Sem::StackLoad | Sem::StackStore => stack::stack_access(w, o, sem == Sem::StackLoad)?,
        Sem::StoreVarying => memory::store_varying(w, o)?,
        Sem::Iter | Sem::IterProj => varying::iter(w, o, sem == Sem::IterProj)?,
        Sem::SampleMask => coverage::sample_mask(w, o)?,
        Sem::TileAccess => tile::tile_access(w, o, mem.threadgroup)?,
        Sem::PixelOrder => tile::pixel_order(w)?,
        // tex_2d_ms (4), tex_2d_ms_array (8): a multisampled fetch, `texture_ms.rs`
        Sem::TextureLoad if matches!(o.field("n"), 4 | 8) => {
            texture_ms::texture_load_ms(w, o, mem.device)?
        }
        Sem::TextureSample | Sem::TextureLoad => {
            texture::texture_access(w, o, mem.device, sem == Sem::TextureLoad)?
        }
        Sem::ImageWrite => without_helpers(w, |w| image::image_write(w, o, mem.device))?,
        Sem::ImageWriteBlock => block_store::image_write_block(w, o, mem.device, mem.threadgroup)?,
        Sem::ZsEmit => zs_emit::zs_emit(w, o)?,
        Sem::Ldcf => varying::ldcf(w, o)?,
        Sem::NoVaryings => varying::no_varyings(w, o)?,
        Sem::UniformStore => helper::uniform_store(w, o)?,
        Sem::Doorbell => helper::doorbell(w, o)?,
        Sem::JmpIfSkippingDoorbell => return helper::jmp_if_skipping_doorbell(w, o),
        Sem::StackMap => helper::stack_map(w, o)?,
        Sem::RsqrtSpecial | Sem::SinPt1 | Sem::SinPt2 => {
            float::approximation(w, o, sem, d.encoding().name)?
        }
        Sem::SimdMatrixFMadd32 | Sem::SimdMatrixFMadd16 => {
            simd::matrix_fmadd(w, o, sem, d.encoding().name)?
        }
        Sem::Unsupported => {
            return Err(Fault::Unsupported {
                name: d.encoding().name,
            })
        }
    }
    Ok(Flow::Next)
}
