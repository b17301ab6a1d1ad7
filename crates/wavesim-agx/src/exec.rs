//! Execution of one SIMD group (32 threads).
//!
//! Rule sources, per family:
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

use crate::decode::{decode, Decoded};
use crate::fp;
use crate::operand::{Flag, Operand, Reg, RegFile};
use crate::srgb_table::SRGB_TO_LINEAR;
use crate::table_types::{RedOp, Sem};
use crate::DecodeError;
use std::collections::HashMap;
use wavesim_core::memory::{DeviceMemory, MemError};

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
    /// that thread, and reading it is an error (seed 001: r0-r4 and r7 are undefined at the start of a
    /// non-monolithic vertex shader). Empty when not tracked.
    pub undefined: Vec<u32>,
    /// Threads that exist (a partially filled group has fewer than 32): the exec-mask stack can only
    /// activate these.
    pub present: u32,
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
        }
    }

    pub fn nr_gprs(&self) -> usize {
        self.halves.len() / 2
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
    #[inline]
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
    #[inline]
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
    for _ in 0..budget {
        let inst = program.at(wave.pc)?;
        let size = inst.decoded.size as u64;
        let flow = step(wave, &inst.decoded, mem).map_err(|fault| ExecError {
            pc: inst.pc,
            text: inst.text.clone(),
            fault,
        })?;
        match flow {
            Flow::Next => wave.pc += size,
            Flow::Jump(t) => wave.pc = t,
            Flow::End => return Ok(Stop::End),
            Flow::Barrier => {
                wave.pc += size;
                return Ok(Stop::Barrier);
            }
        }
    }
    Ok(Stop::Quantum)
}

fn sign_extend(v: u64, bits: u32) -> i128 {
    let shift = 128 - bits;
    ((v as i128) << shift) >> shift
}

/// Bit size of a source operand as applegpu counts it (immediates count as 16 bits).
fn bit_size(op: &Operand) -> u32 {
    match op {
        Operand::Reg(r, _) => r.file.bits(),
        _ => 16,
    }
}

fn missing(name: &str) -> Fault {
    Fault::UnsupportedForm {
        what: format!("operand {name} has a reserved encoding"),
    }
}

/// Integer value of a source in thread `lane` (sign-extended when it carries `.sx`).
#[inline]
fn int_src(w: &WaveState, op: &Operand, lane: usize) -> Result<i128, Fault> {
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
fn float_src(w: &WaveState, op: &Operand, lane: usize) -> Result<u64, Fault> {
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

fn dst_reg(op: &Operand) -> Result<Reg, Fault> {
    match op {
        Operand::Reg(r, _) => Ok(*r),
        _ => Err(Fault::UnsupportedForm {
            what: "register-pair destination".into(),
        }),
    }
}

/// Round an f64 result to the destination: saturate if `sat`, then f16 (subnormals kept) or f32 (flush).
fn float_result(bits: u64, dst: Reg, sat: bool) -> u128 {
    let bits = if sat { fp::saturate(bits) } else { bits };
    if dst.file.bits() == 16 {
        fp::f64_to_f16(bits) as u128
    } else {
        fp::f64_to_f32(bits, true) as u128
    }
}

struct Ops<'a> {
    d: &'a Decoded,
}

impl<'a> Ops<'a> {
    fn op(&self, name: &str) -> Result<&'a Operand, Fault> {
        self.d
            .encoding()
            .operands
            .iter()
            .position(|o| o.name == name)
            .map(|i| &self.d.operands[i])
            .ok_or_else(|| Fault::UnsupportedForm {
                what: format!("no operand {name}"),
            })
    }
    fn field(&self, name: &str) -> u64 {
        self.d.fields.get_or_zero(name)
    }
}

/// A comparison resolved once per instruction (operands, condition code, inversion).
struct Compare<'a> {
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

fn saturate_int(v: i128, bits: u32, signed: bool) -> i128 {
    let (lo, hi) = if signed {
        (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1)
    } else {
        (0, (1i128 << bits) - 1)
    };
    v.clamp(lo, hi)
}

fn shl(v: u128, s: u32) -> u128 {
    v.checked_shl(s).unwrap_or(0)
}
fn shr(v: u128, s: u32) -> u128 {
    v.checked_shr(s).unwrap_or(0)
}

/// Execution-mask stack update on r0l for every thread, then exec = (r0l == 0).
fn update_stack(
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
    w.exec = (0..SIMD_WIDTH)
        .filter(|&l| w.halves[0][l] == 0)
        .fold(0, |m, l| m | 1 << l);
    Ok(())
}

fn active(w: &WaveState) -> impl Iterator<Item = usize> {
    let exec = w.exec;
    (0..SIMD_WIDTH).filter(move |l| exec >> l & 1 == 1)
}

/// Per-thread ALU op over the active threads.
fn per_thread(
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

/// Execute one decoded instruction at `w.pc`.
pub fn step(w: &mut WaveState, d: &Decoded, mem: &mut Memories<'_>) -> Result<Flow, Fault> {
    let o = Ops { d };
    let enc = d.encoding();
    match enc.sem {
        Sem::MovImm => {
            let imm = o.d.operands[1].clone();
            let v = match imm {
                Operand::Imm(v) => v as u128,
                _ => return Err(missing("imm")),
            };
            per_thread(w, o.op("D")?, |_, _| Ok(v))?;
        }
        Sem::GetSr => {
            let sr = o.field("SR");
            let values = match (w.special.get(&sr), sr) {
                (Some(v), _) => *v,
                (None, 80) => std::array::from_fn(|l| l as u32),
                _ => return Err(Fault::SpecialRegister(sr)),
            };
            per_thread(w, o.op("D")?, |_, l| Ok(values[l] as u128))?;
        }
        Sem::IAdd => {
            let (dop, a_op, b_op) = (o.op("D")?, o.op("A")?, o.op("B")?);
            let dst_bits = dst_reg(dop)?.file.bits();
            let shift = o.field("s");
            let sat = o.field("S") != 0
                && shift == 0
                && bit_size(a_op) <= 32
                && bit_size(b_op) <= 32
                && dst_bits <= 32;
            let signed = o.field("As") != 0 || o.field("Bs") != 0;
            let neg = o.field("N") != 0;
            per_thread(w, dop, |w, l| {
                let a = int_src(w, a_op, l)?;
                let mut b = int_src(w, b_op, l)?;
                if neg {
                    b = -b;
                }
                b = if shift < 5 { b << shift } else { 0 };
                let mut r = a + b;
                if sat {
                    r = saturate_int(r, dst_bits, signed);
                }
                Ok(r as u128)
            })?;
        }
        Sem::IMAdd => {
            let (dop, a_op, b_op, c_op) = (o.op("D")?, o.op("A")?, o.op("B")?, o.op("C")?);
            let dst_bits = dst_reg(dop)?.file.bits();
            let shift = o.field("s");
            let sat = o.field("S") != 0 && shift == 0 && bit_size(c_op) <= 32 && dst_bits <= 32;
            let signed = o.field("As") != 0 || o.field("Bs") != 0 || o.field("Cs") != 0;
            let neg = o.field("N") != 0;
            per_thread(w, dop, |w, l| {
                let a = int_src(w, a_op, l)?;
                let b = int_src(w, b_op, l)?;
                let mut c = int_src(w, c_op, l)?;
                if neg {
                    c = -c;
                }
                c = if shift < 5 { c << shift } else { 0 };
                let mut r = a.wrapping_mul(b).wrapping_add(c);
                if sat {
                    r = saturate_int(r, dst_bits, signed);
                }
                Ok(r as u128)
            })?;
        }
        Sem::Bfi | Sem::Bfeil | Sem::Extr | Sem::Shlhi | Sem::Shrhi => {
            let (dop, a_op, b_op, c_op) = (o.op("D")?, o.op("A")?, o.op("B")?, o.op("C")?);
            let m = o.field("m");
            let mask: u128 = if m != 0 { (1 << m) - 1 } else { 0xFFFF_FFFF };
            let sem = enc.sem;
            per_thread(w, dop, |w, l| {
                let a = int_src(w, a_op, l)? as u128;
                let b = int_src(w, b_op, l)? as u128;
                let sh = (int_src(w, c_op, l)? as u128 & 0x7F) as u32;
                Ok(match sem {
                    Sem::Bfi => (a & !shl(mask, sh)) | shl(b & mask, sh),
                    Sem::Bfeil => (a & !mask) | (shr(b, sh) & mask),
                    Sem::Extr => shr((b << 32) | a, sh) & mask,
                    Sem::Shlhi => {
                        let shifted_mask = shl(mask, sh.saturating_sub(32));
                        // b < 2^32, so bits 32.. of b << sh vanish once sh >= 96.
                        let hi = if sh >= 96 { 0 } else { (b << sh) >> 32 };
                        (hi & shifted_mask) | (a & !shifted_mask)
                    }
                    _ => {
                        let shifted_mask = (mask << 32) >> sh.min(32);
                        (shr(b << 32, sh) & shifted_mask) | (a & !shifted_mask)
                    }
                })
            })?;
        }
        Sem::Asr | Sem::Asrh => {
            let (dop, a_op, b_op) = (o.op("D")?, o.op("A")?, o.op("B")?);
            let high = enc.sem == Sem::Asrh;
            per_thread(w, dop, |w, l| {
                let a = sign_extend(int_src(w, a_op, l)? as u64, bit_size(a_op));
                let sh = (int_src(w, b_op, l)? & 0x7F) as u32;
                let a = if high { a << 32 } else { a };
                Ok((a >> sh) as u128)
            })?;
        }
        Sem::Bitop => {
            let (dop, a_op, b_op) = (o.op("D")?, o.op("A")?, o.op("B")?);
            let tt = [
                o.field("tt0"),
                o.field("tt1"),
                o.field("tt2"),
                o.field("tt3"),
            ];
            per_thread(w, dop, |w, l| {
                let a = int_src(w, a_op, l)? as u128;
                let b = int_src(w, b_op, l)? as u128;
                if tt == [0, 0, 1, 1] || tt == [1, 1, 0, 0] {
                    // applegpu (checked on hardware): these tables pass A through.
                    return Ok(a);
                }
                let mut r = 0;
                if tt[0] != 0 {
                    r |= !a & !b;
                }
                if tt[1] != 0 {
                    r |= a & !b;
                }
                if tt[2] != 0 {
                    r |= !a & b;
                }
                if tt[3] != 0 {
                    r |= a & b;
                }
                Ok(r)
            })?;
        }
        Sem::Bitrev | Sem::Popcount | Sem::Ffs => {
            let (dop, a_op) = (o.op("D")?, o.op("A")?);
            let sem = enc.sem;
            per_thread(w, dop, |w, l| {
                let a = int_src(w, a_op, l)? as u64 & 0xFFFF_FFFF;
                Ok(match sem {
                    Sem::Bitrev => (a as u32).reverse_bits() as u128,
                    Sem::Popcount => a.count_ones() as u128,
                    _ => {
                        if a == 0 {
                            u128::MAX
                        } else {
                            (63 - a.leading_zeros()) as u128
                        }
                    }
                })
            })?;
        }
        Sem::Intl => {
            let (dop, a_op, b_op) = (o.op("D")?, o.op("A")?, o.op("B")?);
            per_thread(w, dop, |w, l| {
                let a = int_src(w, a_op, l)? as u64;
                let b = int_src(w, b_op, l)? as u64;
                let mut r = 0u128;
                for i in 0..16 {
                    r |= (((a >> i) & 1) as u128) << (2 * i);
                    r |= (((b >> i) & 1) as u128) << (2 * i + 1);
                }
                Ok(r)
            })?;
        }
        Sem::Convert => convert(w, &o)?,
        Sem::FMadd32 | Sem::FMadd16 | Sem::FAdd32 | Sem::FAdd16 | Sem::FMul32 | Sem::FMul16 => {
            let sem = enc.sem;
            let dop = o.op("D")?;
            let dst = dst_reg(dop)?;
            let a_op = o.op("A")?;
            let b_op = o.op("B")?;
            let c_op = if matches!(sem, Sem::FMadd32 | Sem::FMadd16) {
                Some(o.op("C")?)
            } else {
                None
            };
            let sat = o.field("S") != 0;
            per_thread(w, dop, |w, l| {
                let a = float_src(w, a_op, l)?;
                let b = float_src(w, b_op, l)?;
                let r = match sem {
                    Sem::FMadd32 | Sem::FMadd16 => {
                        let c = float_src(w, c_op.ok_or_else(|| missing("C"))?, l)?;
                        fp::fma_round_to_odd(a, b, c)
                    }
                    Sem::FAdd32 | Sem::FAdd16 => fp::fma_round_to_odd(a, fp::F64_ONE, b),
                    _ => fp::fma_round_to_odd(a, b, 0),
                };
                // 32-bit forms round to f32 first (so a 16-bit destination double-rounds).
                let r = if matches!(sem, Sem::FMadd32 | Sem::FAdd32 | Sem::FMul32) {
                    widen_f32_result(fp::f64_to_f32(r, true))
                } else {
                    r
                };
                Ok(float_result(r, dst, sat))
            })?;
        }
        Sem::Floor
        | Sem::Ceil
        | Sem::Trunc
        | Sem::Rint
        | Sem::Rcp
        | Sem::Rsqrt
        | Sem::Log2
        | Sem::Exp2 => {
            let sem = enc.sem;
            let dop = o.op("D")?;
            let dst = dst_reg(dop)?;
            let a_op = o.op("A")?;
            let sat = o.field("S") != 0;
            per_thread(w, dop, |w, l| {
                let a = f64::from_bits(float_src(w, a_op, l)?);
                let r = match sem {
                    Sem::Floor => a.floor(),
                    Sem::Ceil => a.ceil(),
                    Sem::Trunc => a.trunc(),
                    Sem::Rint => a.round_ties_even(),
                    Sem::Rcp => 1.0 / a,
                    Sem::Rsqrt => 1.0 / a.sqrt(),
                    Sem::Log2 => a.log2(),
                    _ => a.exp2(),
                };
                let r = if r.is_nan() {
                    fp::F64_CANONICAL_NAN
                } else {
                    r.to_bits()
                };
                Ok(float_result(r, dst, sat))
            })?;
        }
        Sem::RsqrtSpecial => return Err(Fault::Unsupported { name: enc.name }),
        Sem::PopExec => {
            let n = o.field("n") as u16;
            update_stack(w, |_, _, v| Ok(v.saturating_sub(n)))?;
        }
        Sem::IfICmp | Sem::IfFCmp => {
            let n = o.field("n") as u16;
            let cmp = Compare::of(&o, enc.sem == Sem::IfFCmp)?;
            update_stack(w, |w, l, v| {
                Ok(if v != 0 {
                    v.wrapping_add(n)
                } else if !(cmp.eval(w, l)?) {
                    1
                } else {
                    v
                })
            })?;
        }
        Sem::ElseICmp | Sem::ElseFCmp => {
            let n = o.field("n") as u16;
            let cmp = Compare::of(&o, enc.sem == Sem::ElseFCmp)?;
            update_stack(w, |w, l, v| {
                Ok(match v {
                    0 => n,
                    1 => {
                        if cmp.eval(w, l)? {
                            0
                        } else {
                            1
                        }
                    }
                    v => v,
                })
            })?;
        }
        Sem::WhileICmp | Sem::WhileFCmp => {
            let n = o.field("n") as u16;
            let cmp = Compare::of(&o, enc.sem == Sem::WhileFCmp)?;
            update_stack(w, |w, l, v| {
                Ok(if v < n {
                    if cmp.eval(w, l)? {
                        0
                    } else {
                        n
                    }
                } else {
                    v
                })
            })?;
        }
        Sem::ICmpsel | Sem::FCmpsel => {
            let cmp = Compare::of(&o, enc.sem == Sem::FCmpsel)?;
            let (dop, x, y) = (o.op("D")?, o.op("X")?, o.op("Y")?);
            per_thread(w, dop, |w, l| {
                let c = cmp.eval(w, l)?;
                Ok(int_src(w, if c { x } else { y }, l)? as u128)
            })?;
        }
        Sem::ICmpBallot | Sem::FCmpBallot => {
            let cmp = Compare::of(&o, enc.sem == Sem::FCmpBallot)?;
            let mut result = 0u128;
            for l in active(w) {
                if cmp.eval(w, l)? {
                    result |= 1 << l;
                }
            }
            per_thread(w, o.op("D")?, |_, _| Ok(result))?;
        }
        Sem::SimdShuffle
        | Sem::SimdShuffleDown
        | Sem::SimdShuffleUp
        | Sem::SimdShuffleRotateUp
        | Sem::SimdShuffleXor => {
            shuffle(w, &o, enc.sem)?;
        }
        Sem::Wait | Sem::MemoryBarrier => {}
        Sem::ThreadgroupBarrier => return Ok(Flow::Barrier),
        Sem::Stop => return Ok(Flow::End),
        Sem::Trap => return Err(Fault::Trap),
        Sem::JmpExecAny | Sem::JmpExecNone => {
            let off = match o.op("off")? {
                Operand::Offset(v) => *v,
                _ => return Err(missing("off")),
            };
            let any = w.exec != 0;
            if any == (enc.sem == Sem::JmpExecAny) {
                return Ok(Flow::Jump(d_pc(w).wrapping_add(off as u64)));
            }
        }
        Sem::Call => {
            let off = match o.op("off")? {
                Operand::Offset(v) => *v,
                _ => return Err(missing("off")),
            };
            let pc = d_pc(w);
            let link = Reg {
                file: RegFile::R32,
                n: 1,
            };
            for l in active(w) {
                w.write(link, l, (pc + d.size as u64) as u128)?;
            }
            return Ok(Flow::Jump(pc.wrapping_add(off as u64)));
        }
        Sem::Ret => {
            let r = dst_reg(o.op("reg32")?)?;
            let mut target = None;
            for l in active(w) {
                let t = w.read(r, l)?;
                if target.is_some_and(|x| x != t) {
                    return Err(Fault::DivergentReturn);
                }
                target = Some(t);
            }
            // With no active thread the return is taken by none; fall through.
            if let Some(t) = target {
                return Ok(Flow::Jump(t));
            }
        }
        Sem::DeviceLoad => device_load(w, &o, mem.device)?,
        Sem::DeviceStore => device_store(w, &o, mem.device)?,
        Sem::ThreadgroupLoad | Sem::ThreadgroupStore => {
            threadgroup_access(w, &o, mem.threadgroup, enc.sem == Sem::ThreadgroupLoad)?
        }
        Sem::SimdReduce(_) | Sem::SimdPrefix(_) | Sem::QuadReduce(_) | Sem::QuadPrefix(_) => {
            reduce(w, &o, enc.sem)?
        }
        Sem::Atomic => atomic(w, &o, mem.device)?,
        Sem::Unsupported => return Err(Fault::Unsupported { name: enc.name }),
    }
    Ok(Flow::Next)
}

/// `convert`: integer to float or float to integer by the encoded mode (mode names from applegpu's
/// table, as Mesa's `agx_opcodes.py` `convert`). Integer sources are truncated to the mode's width and
/// sign-extended for signed modes, then rounded to the destination float (f16 for a 16-bit destination,
/// f32 otherwise) by the `round` field (rte: nearest even, rtz: toward zero). Float sources (f16 or f32
/// by register size; f32 denormals flush) are rounded by the same field and saturate to the mode's
/// integer range, NaN giving 0 (wavesim's rule: the hardware's out-of-range behaviour is not documented
/// publicly; saturation is what Metal's and OpenCL's saturating conversions require).
fn convert(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    let mode = o.field("mode");
    let rtz = match o.field("round") {
        0 => true,
        1 => false,
        r => {
            return Err(Fault::UnsupportedForm {
                what: format!("convert rounding mode {r}"),
            })
        }
    };
    let dop = o.op("D")?;
    let dst = dst_reg(dop)?;
    let src = o.op("src")?;
    enum Kind {
        IntToFloat { bits: u32, signed: bool },
        FloatToInt { bits: u32, signed: bool },
    }
    let kind = match mode {
        0 => Kind::IntToFloat {
            bits: 8,
            signed: false,
        },
        1 => Kind::IntToFloat {
            bits: 8,
            signed: true,
        },
        4 => Kind::FloatToInt {
            bits: 16,
            signed: false,
        },
        5 => Kind::FloatToInt {
            bits: 16,
            signed: true,
        },
        6 => Kind::IntToFloat {
            bits: 16,
            signed: false,
        },
        7 => Kind::IntToFloat {
            bits: 16,
            signed: true,
        },
        8 => Kind::FloatToInt {
            bits: 32,
            signed: false,
        },
        9 => Kind::FloatToInt {
            bits: 32,
            signed: true,
        },
        10 => Kind::IntToFloat {
            bits: 32,
            signed: false,
        },
        11 => Kind::IntToFloat {
            bits: 32,
            signed: true,
        },
        m => {
            return Err(Fault::UnsupportedForm {
                what: format!("convert mode {m}"),
            })
        }
    };
    per_thread(w, dop, |w, l| {
        Ok(match kind {
            Kind::IntToFloat { bits, signed } => {
                let v = int_src(w, src, l)? as u64 & ((1u64 << bits) - 1);
                let x = if signed {
                    sign_extend(v, bits) as f64
                } else {
                    v as f64
                };
                let to_f16 = dst.file.bits() == 16;
                let r = if rtz {
                    fp::narrow_toward_zero(x.to_bits(), to_f16)
                } else if to_f16 {
                    fp::f64_to_f16(x.to_bits())
                } else {
                    fp::f64_to_f32(x.to_bits(), false)
                };
                r as u128
            }
            Kind::FloatToInt { bits, signed } => {
                let x = match src {
                    Operand::Reg(..) => f64::from_bits(float_src(w, src, l)?),
                    _ => {
                        return Err(Fault::UnsupportedForm {
                            what: "convert from an immediate float".into(),
                        })
                    }
                };
                let r = if rtz { x.trunc() } else { x.round_ties_even() };
                let (lo, hi) = if signed {
                    (
                        -(2f64.powi(bits as i32 - 1)),
                        2f64.powi(bits as i32 - 1) - 1.0,
                    )
                } else {
                    (0.0, 2f64.powi(bits as i32) - 1.0)
                };
                if r.is_nan() {
                    0
                } else {
                    r.clamp(lo, hi) as i64 as u128
                }
            }
        })
    })
}

fn d_pc(w: &WaveState) -> u64 {
    w.pc
}

/// f32 result bits widened back to f64 (no flush: the value was already flushed when narrowed).
fn widen_f32_result(bits: u64) -> u64 {
    // Bits beyond 32 only arise from a NaN rounding carry; they keep their weight as in applegpu.
    let s = bits >> 31;
    let e = (bits >> 23) & 0xFF;
    let f = bits & 0x7F_FFFF;
    let (e, f) = if e == 0xFF {
        (0x7FFu64, f)
    } else if e == 0 {
        if f == 0 {
            (0, 0)
        } else {
            let v = (f32::from_bits(f as u32) as f64).to_bits();
            return (s << 63) | v;
        }
    } else {
        (e + 1023 - 127, f)
    };
    (s << 63) | (e << 52) | (f << 29)
}

fn shuffle(w: &mut WaveState, o: &Ops<'_>, sem: Sem) -> Result<(), Fault> {
    let (dop, a_op, b_op) = (o.op("D")?, o.op("A")?, o.op("B")?);
    let dst = dst_reg(dop)?;
    // Not execution-masked: every thread's A and B take part (applegpu, checked on hardware).
    let mut a = [0i128; SIMD_WIDTH];
    let mut b = [0i128; SIMD_WIDTH];
    for l in 0..SIMD_WIDTH {
        b[l] = int_src(w, b_op, l)?;
        if sem != Sem::SimdShuffle {
            a[l] = int_src(w, a_op, l)?;
        }
    }
    let mut quad_sel = [0usize; 8];
    for (q, sel) in quad_sel.iter_mut().enumerate() {
        *sel = (0..4).fold(0, |m, i| m | (b[4 * q + i] & 3) as usize);
    }
    let mut results = vec![];
    if sem == Sem::SimdShuffle {
        let mut quad_values = [0i128; 8];
        for q in 0..8 {
            quad_values[q] = int_src(w, a_op, 4 * q + quad_sel[q])?;
        }
        for l in active(w) {
            let index = b[l];
            let r = if index < 32 {
                quad_values[(index >> 2) as usize]
            } else {
                int_src(w, a_op, l)?
            };
            results.push((l, r));
        }
    } else {
        let quad_value = |q: usize, i: usize| -> i128 {
            let s = quad_sel[q];
            let j = match sem {
                Sem::SimdShuffleDown => (i + s) & 3,
                Sem::SimdShuffleXor => (i ^ s) & 3,
                _ => (i + 4 - s) & 3,
            };
            a[4 * q + j]
        };
        for l in active(w) {
            let index = b[l];
            let t = l as i128;
            let r = match sem {
                Sem::SimdShuffleDown if index + t < 32 => {
                    quad_value(((index + t) >> 2) as usize, l & 3)
                }
                Sem::SimdShuffleUp if t - index >= 0 => {
                    quad_value(((t - index) >> 2) as usize, l & 3)
                }
                Sem::SimdShuffleRotateUp => quad_value((((t - index) & 31) >> 2) as usize, l & 3),
                Sem::SimdShuffleXor if (t ^ index) < 32 => {
                    quad_value((((t ^ index) & 31) >> 2) as usize, l & 3)
                }
                _ => a[l],
            };
            results.push((l, r));
        }
    }
    for (l, r) in results {
        w.write(dst, l, r as u128)?;
    }
    Ok(())
}

/// SIMD-group and quad reductions and exclusive prefixes over the active threads, in thread order.
/// Rules: the operation is the row's (applegpu's row names); prefixes are exclusive (Mesa's inclusive
/// scan adds the thread's own value after `simd_prefix_iadd`, as asahi_clc's output of
/// corpus/agx/clc/subgroup.cl shows); inactive threads do not contribute (OpenCL subgroup
/// semantics); float operations combine in thread order with the float ALU's rounding (fadd32/fmul32,
/// or the 16-bit forms for 16-bit sources), min/max returning the non-NaN operand. The first thread
/// of an exclusive prefix receives the identity (0, all ones for `and`, +0.0 / 1.0, the extreme value
/// for min/max).
fn reduce(w: &mut WaveState, o: &Ops<'_>, sem: Sem) -> Result<(), Fault> {
    let (op, prefix, quad) = match sem {
        Sem::SimdReduce(op) => (op, false, false),
        Sem::SimdPrefix(op) => (op, true, false),
        Sem::QuadReduce(op) => (op, false, true),
        Sem::QuadPrefix(op) => (op, true, true),
        _ => {
            return Err(Fault::UnsupportedForm {
                what: "not a reduction".into(),
            })
        }
    };
    let dst = dst_reg(o.op("D")?)?;
    let a_op = o.op("A")?;
    let bits = bit_size(a_op);
    let mask = if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    };
    let float = matches!(op, RedOp::FAdd | RedOp::FMul | RedOp::MinF | RedOp::MaxF);
    if float && bits == 64 {
        return Err(Fault::UnsupportedForm {
            what: "64-bit float reduction".into(),
        });
    }
    let to_f64 = |v: u64| {
        if bits == 16 {
            fp::f16_to_f64(v)
        } else {
            fp::f32_to_f64_ftz(v)
        }
    };
    let from_f64 = |v: u64| {
        if bits == 16 {
            fp::f64_to_f16(v)
        } else {
            fp::f64_to_f32(v, true)
        }
    };
    let identity: u64 = match op {
        RedOp::And => mask,
        RedOp::Or | RedOp::Xor | RedOp::IAdd | RedOp::MaxU => 0,
        RedOp::MinU => mask,
        RedOp::MinS => mask >> 1,
        RedOp::MaxS => (mask >> 1) + 1,
        RedOp::FAdd => 0,
        RedOp::FMul => from_f64(fp::F64_ONE),
        RedOp::MinF => from_f64(f64::INFINITY.to_bits()),
        RedOp::MaxF => from_f64(f64::NEG_INFINITY.to_bits()),
    };
    let combine = |x: u64, y: u64| -> u64 {
        let sx = |v: u64| sign_extend(v, bits);
        match op {
            RedOp::And => x & y,
            RedOp::Or => x | y,
            RedOp::Xor => x ^ y,
            RedOp::IAdd => x.wrapping_add(y) & mask,
            RedOp::MinU => x.min(y),
            RedOp::MaxU => x.max(y),
            RedOp::MinS => {
                if sx(x) <= sx(y) {
                    x
                } else {
                    y
                }
            }
            RedOp::MaxS => {
                if sx(x) >= sx(y) {
                    x
                } else {
                    y
                }
            }
            RedOp::FAdd => from_f64(fp::fma_round_to_odd(to_f64(x), fp::F64_ONE, to_f64(y))),
            RedOp::FMul => from_f64(fp::fma_round_to_odd(to_f64(x), to_f64(y), 0)),
            RedOp::MinF | RedOp::MaxF => {
                let (a, b) = (f64::from_bits(to_f64(x)), f64::from_bits(to_f64(y)));
                let pick_x = if a.is_nan() {
                    false
                } else if b.is_nan() {
                    true
                } else if op == RedOp::MinF {
                    a <= b
                } else {
                    a >= b
                };
                if pick_x {
                    x
                } else {
                    y
                }
            }
        }
    };
    let mut values = [0u64; SIMD_WIDTH];
    for l in active(w) {
        values[l] = int_src(w, a_op, l)? as u64 & mask;
    }
    let group = if quad { 4 } else { SIMD_WIDTH };
    let mut results = vec![];
    for first in (0..SIMD_WIDTH).step_by(group) {
        let lanes: Vec<usize> = (first..first + group)
            .filter(|l| w.exec >> l & 1 == 1)
            .collect();
        let mut acc = identity;
        for &l in &lanes {
            if prefix {
                results.push((l, acc));
            }
            acc = combine(acc, values[l]);
        }
        if !prefix {
            results.extend(lanes.iter().map(|&l| (l, acc)));
        }
    }
    for (l, v) in results {
        w.write(dst, l, v as u128)?;
    }
    Ok(())
}

/// `atomic`: per active thread in thread order, a read-modify-write of the 32-bit word at
/// `A + O * 4` (O signed or unsigned by `Ou`; Mesa's compiler passes the full address in A and O = 0,
/// so the index scaling is wavesim's assumption, matching the 32-bit element of `device_load`), with
/// the operation of the `op` field; the old value goes to R when present. `cmpxchg` (a register pair
/// of compare and new value whose order is not documented) is an unsupported form.
fn atomic(w: &mut WaveState, o: &Ops<'_>, dev: &DeviceMemory) -> Result<(), Fault> {
    use wavesim_core::memory::AtomicOp;
    let op = match o.field("op") {
        0 => AtomicOp::Add,
        1 => AtomicOp::Sub,
        2 => AtomicOp::Xchg,
        4 => AtomicOp::MinU,
        5 => AtomicOp::MinI,
        6 => AtomicOp::MaxU,
        7 => AtomicOp::MaxI,
        8 => AtomicOp::And,
        9 => AtomicOp::Or,
        10 => AtomicOp::Xor,
        other => {
            return Err(Fault::UnsupportedForm {
                what: format!("atomic operation {other}"),
            })
        }
    };
    let dest = match o.op("R")? {
        Operand::Reg(r, _) => Some(*r),
        _ => None,
    };
    let src = o.op("S")?;
    for lane in active(w) {
        let base = match o.op("A")? {
            Operand::Reg(r, _) => w.read(*r, lane)? as i128,
            _ => return Err(missing("A")),
        };
        let index = match o.op("O")? {
            Operand::Imm(v) => *v as i128,
            Operand::Reg(r, _) => {
                let v = w.read(*r, lane)?;
                if o.field("Ou") != 0 {
                    v as i128
                } else {
                    sign_extend(v, 32)
                }
            }
            _ => return Err(missing("O")),
        };
        let addr = mem_addr(lane, base + index * 4, 4)?;
        let value = int_src(w, src, lane)? as u32;
        let old = dev
            .atomic32(addr, op, value, 0)
            .map_err(|e| Fault::Memory { lane, source: e })?;
        if let Some(r) = dest {
            w.write(r, lane, old as u128)?;
        }
    }
    Ok(())
}

/// Effective address inputs shared by device loads and stores.
struct DeviceAccess {
    format: u64,
    item_size: u64,
    mask: u64,
    bit_packed: bool,
    reg32: bool,
    reg: usize,
}

fn device_access(o: &Ops<'_>) -> DeviceAccess {
    let format = o.field("F");
    let bit_packed = matches!(format, 8 | 12 | 13);
    let item_size = match format {
        1 | 3 | 6 | 7 => 2,
        2 => 4,
        _ => 1,
    };
    let reg32 = o.field("Rt") == 1;
    let reg = if reg32 {
        o.field("R") >> 1
    } else {
        o.field("R")
    } as usize;
    let mask = if bit_packed { 0xF } else { o.field("mask") };
    DeviceAccess {
        format,
        item_size,
        mask,
        bit_packed,
        reg32,
        reg,
    }
}

/// Byte address of element 0 for thread `lane`: base + (offset << shift), aligned down.
fn device_address(
    w: &WaveState,
    o: &Ops<'_>,
    acc: &DeviceAccess,
    lane: usize,
) -> Result<i128, Fault> {
    let base = match o.op("A")? {
        Operand::Reg(r, _) => w.read(*r, lane)? as i128,
        _ => return Err(missing("A")),
    };
    let mut offset = match o.op("O")? {
        Operand::Imm(v) => *v as i128,
        Operand::Reg(r, _) => {
            let v = w.read(*r, lane)?;
            if o.field("Ou") != 0 {
                v as i128
            } else {
                sign_extend(v, 32)
            }
        }
        _ => return Err(missing("O")),
    };
    let mut shift = o.field("s").min(2);
    if acc.bit_packed {
        shift = 2;
    }
    offset <<= shift;
    let mut address = base & !(acc.item_size as i128 - 1);
    if acc.bit_packed {
        address &= !3;
    }
    Ok(address + offset * acc.item_size as i128)
}

fn mem_addr(lane: usize, a: i128, size: u64) -> Result<u64, Fault> {
    u64::try_from(a).map_err(|_| Fault::Memory {
        lane,
        source: MemError::OutOfBounds {
            addr: a as u64,
            size,
        },
    })
}

fn device_load(w: &mut WaveState, o: &Ops<'_>, dev: &DeviceMemory) -> Result<(), Fault> {
    let acc = device_access(o);
    if !acc.reg32 && acc.format == 2 {
        return Err(Fault::UnsupportedForm {
            what: "32-bit format into 16-bit registers".into(),
        });
    }
    if matches!(acc.format, 9 | 11 | 14 | 15) {
        return Err(Fault::UnsupportedForm {
            what: format!("device_load format {}", acc.format),
        });
    }
    for lane in active(w) {
        let address = device_address(w, o, &acc, lane)?;
        let mut values = vec![];
        for i in 0..4u64 {
            if acc.mask >> i & 1 == 1 {
                let a = mem_addr(
                    lane,
                    address + i as i128 * acc.item_size as i128,
                    acc.item_size,
                )?;
                let mem = |e| Fault::Memory { lane, source: e };
                let v = match acc.item_size {
                    1 => {
                        let mut b = [0u8];
                        dev.read(a, &mut b).map_err(mem)?;
                        b[0] as u64
                    }
                    2 => {
                        let mut b = [0u8; 2];
                        dev.read(a, &mut b).map_err(mem)?;
                        u16::from_le_bytes(b) as u64
                    }
                    _ => dev.read_u32(a).map_err(mem)? as u64,
                };
                values.push((i, v));
            }
        }
        let packed: u64 = values.iter().map(|&(i, v)| v << (8 * i)).sum();
        let mut reg = acc.reg;
        for &(n, value) in &values {
            let real: Option<f64> = match acc.format {
                0..=3 => None,
                4 => Some(value as f64 / 255.0),
                5 => Some((sign_extend(value, 8) as f64).max(-127.0) / 127.0),
                6 => Some(value as f64 / 65535.0),
                7 => Some((sign_extend(value, 16) as f64).max(-32767.0) / 32767.0),
                8 => Some(match n {
                    0 => (packed & 1023) as f64 / 1023.0,
                    1 => ((packed >> 10) & 1023) as f64 / 1023.0,
                    2 => ((packed >> 20) & 1023) as f64 / 1023.0,
                    _ => ((packed >> 30) & 3) as f64 / 3.0,
                }),
                10 => Some(if n == 3 {
                    value as f64 / 255.0
                } else {
                    f64::from_bits(SRGB_TO_LINEAR[value as usize & 255])
                }),
                12 => match n {
                    0 => Some(small_float(packed & 0x7FF, 6)),
                    1 => Some(small_float((packed >> 11) & 0x7FF, 6)),
                    2 => Some(small_float((packed >> 22) & 0x3FF, 5)),
                    _ => None,
                },
                _ => match n {
                    // rgb9e5: shared exponent in the top 5 bits.
                    0..=2 => {
                        let f = (packed >> (9 * n)) & 0x1FF;
                        let e = (packed >> 27) as i32 - 15;
                        Some(2f64.powi(e) * f as f64 / 512.0)
                    }
                    _ => None,
                },
            };
            let skip = matches!(acc.format, 12 | 13) && n == 3;
            if skip {
                continue;
            }
            let bits = match real {
                None => value,
                Some(r) => {
                    let r = if r.is_nan() {
                        fp::F64_CANONICAL_NAN
                    } else {
                        r.to_bits()
                    };
                    if acc.reg32 {
                        fp::f64_to_f32(r, false)
                    } else {
                        fp::f64_to_f16(r)
                    }
                }
            };
            let file = if acc.reg32 {
                RegFile::R32
            } else {
                RegFile::R16
            };
            let r = Reg {
                file,
                n: reg as u16,
            };
            if reg >= if acc.reg32 { 128 } else { 256 } {
                return Err(Fault::RegisterOutOfRange {
                    reg: format!("{file:?} {reg}"),
                    count: w.nr_gprs(),
                });
            }
            w.write(r, lane, bits as u128)?;
            reg += 1;
        }
    }
    Ok(())
}

/// Packed small float (11- or 10-bit, 5-bit exponent, bias 15, no sign) to f64.
fn small_float(n: u64, mant_bits: u32) -> f64 {
    let e = ((n >> mant_bits) & 0x1F) as i32;
    let m = n & ((1 << mant_bits) - 1);
    if e == 0x1F {
        return if m != 0 { f64::NAN } else { f64::INFINITY };
    }
    let (implicit, e) = if e == 0 {
        (0, 1)
    } else {
        (1u64 << mant_bits, e)
    };
    (implicit | m) as f64 / (1u64 << mant_bits) as f64 * 2f64.powi(e - 15)
}

fn device_store(w: &mut WaveState, o: &Ops<'_>, dev: &DeviceMemory) -> Result<(), Fault> {
    let acc = device_access(o);
    if acc.format > 3 {
        return Err(Fault::UnsupportedForm {
            what: format!("device_store format {}", acc.format),
        });
    }
    for lane in active(w) {
        let address = device_address(w, o, &acc, lane)?;
        let mut reg = acc.reg;
        for i in 0..4u64 {
            if acc.mask >> i & 1 == 0 {
                continue;
            }
            let file = if acc.reg32 {
                RegFile::R32
            } else {
                RegFile::R16
            };
            let v = w.read(
                Reg {
                    file,
                    n: reg as u16,
                },
                lane,
            )?;
            reg += 1;
            let a = mem_addr(
                lane,
                address + i as i128 * acc.item_size as i128,
                acc.item_size,
            )?;
            let bytes = v.to_le_bytes();
            dev.write(a, &bytes[..acc.item_size as usize])
                .map_err(|e| Fault::Memory { lane, source: e })?;
        }
    }
    Ok(())
}

fn threadgroup_access(
    w: &mut WaveState,
    o: &Ops<'_>,
    tg: &mut [u8],
    load: bool,
) -> Result<(), Fault> {
    let format = o.field("F");
    let item_size: usize = match format {
        0 => 1,
        1 | 3 => 2,
        2 => 4,
        _ => {
            return Err(Fault::UnsupportedForm {
                what: format!("threadgroup memory format {format}"),
            })
        }
    };
    let regs = match o.op("R")? {
        Operand::Tuple(r, _) => r.clone(),
        _ => return Err(missing("R")),
    };
    let mask = o.field("mask");
    for lane in active(w) {
        let base = match o.op("A")? {
            Operand::Reg(r, _) => w.read(*r, lane)? as i64,
            Operand::Imm(v) => *v,
            _ => return Err(missing("A")),
        };
        let index = match o.op("O")? {
            Operand::Reg(r, _) => w.read(*r, lane)? as i64,
            Operand::Imm(v) => *v,
            _ => return Err(missing("O")),
        };
        let mut ri = 0;
        for i in 0..4i64 {
            if mask >> i & 1 == 0 {
                continue;
            }
            let reg = *regs.get(ri).ok_or_else(|| missing("R"))?;
            ri += 1;
            let addr = base + (index + i) * item_size as i64;
            if addr < 0 || addr as usize + item_size > tg.len() {
                return Err(Fault::ThreadgroupOutOfRange {
                    lane,
                    addr,
                    size: item_size,
                    len: tg.len(),
                });
            }
            let a = addr as usize;
            if load {
                let mut v = 0u128;
                for (k, b) in tg[a..a + item_size].iter().enumerate() {
                    v |= (*b as u128) << (8 * k);
                }
                w.write(reg, lane, v)?;
            } else {
                let v = w.read(reg, lane)?;
                tg[a..a + item_size].copy_from_slice(&v.to_le_bytes()[..item_size]);
            }
        }
    }
    Ok(())
}
