//! Executing predecoded instructions on a wave.
//!
//! `Program` is a kernel's code decoded once; the dispatcher's step loop runs each instruction
//! through the handler its family module (`salu`, `sopp`, `vfloat`, ...) claims. Each module
//! exposes `exec(wave, inst, ctx) -> Result<Flow, ExecError>`; an op a module does not handle
//! returns `ExecError::Unimplemented`, never a silent no-op.

pub mod buffer;
pub mod dpp;
pub mod export;
pub mod flat;
pub mod image;
pub mod lds;
pub mod lds_bytes;
pub mod ldsdir;
pub mod operand;
pub mod salu;
pub mod salu_float;
pub mod smem;
pub mod sopp;
pub mod trap;
pub mod vcmp;
pub mod vfloat;
pub mod vint;
pub mod vinterp;
pub mod vlane;
pub mod vopd;
pub mod vpacked;

use crate::decode::{decode_all_for, DecodeError, Enc, Inst};
use crate::isa::{Op, Target};
use crate::wave::Wave;
use std::sync::OnceLock;
use thiserror::Error;

/// A kernel's code, decoded once (the hot loop never looks at raw bits).
#[derive(Clone, Debug)]
pub struct Program {
    /// Instructions in address order.
    pub insts: Vec<Inst>,
    /// Byte offset of each instruction.
    pub pcs: Vec<u64>,
    /// For each dword offset of the code, the index of the instruction starting there, or
    /// `u32::MAX` inside an instruction / past the end (a jump there is an error).
    pub index_of_dword: Vec<u32>,
    /// Byte offset (within the code) of the first instruction, e.g. the kernel entry.
    pub base: u64,
    /// The semantic function of each instruction (`handler_for`), resolved once here: the one
    /// table the dispatch's step loop and the JIT's callbacks both call through.
    pub handlers: Vec<Handler>,
}

impl Program {
    /// Decodes gfx1100 (RDNA3) `code`, whose first byte is at byte offset `base` of the code
    /// object.
    pub fn new(code: &[u8], base: u64) -> Result<Program, DecodeError> {
        Program::new_for(code, base, Target::Gfx1100)
    }

    /// Decodes `code` of `target` (RDNA3 or RDNA3.5; see `Target::from_elf_mach` for a code
    /// object's target).
    pub fn new_for(code: &[u8], base: u64, target: Target) -> Result<Program, DecodeError> {
        let decoded = decode_all_for(code, target)?;
        let mut index_of_dword = vec![u32::MAX; code.len().div_ceil(4) + 1];
        let mut insts = Vec::with_capacity(decoded.len());
        let mut pcs = Vec::with_capacity(decoded.len());
        for (k, (off, inst)) in decoded.into_iter().enumerate() {
            index_of_dword[off / 4] = k as u32;
            insts.push(inst);
            pcs.push(base + off as u64);
        }
        let handlers = insts.iter().map(handler_for).collect();
        Ok(Program {
            insts,
            pcs,
            index_of_dword,
            base,
            handlers,
        })
    }

    /// The instruction at byte address `pc`, if one starts there.
    #[inline]
    pub fn index_at(&self, pc: u64) -> Option<usize> {
        let off = pc.checked_sub(self.base)?;
        if off % 4 != 0 {
            return None;
        }
        match self.index_of_dword.get((off / 4) as usize) {
            Some(&k) if k != u32::MAX => Some(k as usize),
            _ => None,
        }
    }
}

/// What the wave does after an instruction.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    /// Fall through to the next instruction.
    Next,
    /// PC was set by the instruction (branch, call, setpc, trap).
    Jump,
    /// s_barrier: wait for the other waves of the workgroup.
    Barrier,
    /// s_endpgm.
    End,
}

/// What went wrong while executing one instruction. The dispatcher adds kernel, wave and
/// disassembly (see `crate::dispatch`).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum ExecError {
    #[error("invalid instruction word {word:#010x}")]
    InvalidInstruction { word: u32 },
    #[error("instruction not supported by wavesim yet: {name}")]
    Unimplemented { name: &'static str },
    #[error("memory fault: lane {lane}, address {addr:#x} ({size} bytes, {kind})")]
    MemoryFault {
        lane: u32,
        addr: u64,
        size: u32,
        kind: &'static str,
    },
    #[error("memory violation (MEMVIOL): lane {lane}, address {addr:#x}: {why}")]
    MemViol {
        lane: u32,
        addr: u64,
        why: &'static str,
    },
    #[error("jump to {target:#x}, which is not the start of an instruction")]
    BadJump { target: u64 },
    #[error("PC {pc:#x} ran past the end of the code")]
    PcOutOfCode { pc: u64 },
    #[error(
        "floating-point exception {what} enabled in MODE.EXCP_EN and no trap handler installed"
    )]
    FpException { what: &'static str },
    #[error("trap {id} (s_trap) with a trap handler that is not installed")]
    Trap { id: u32 },
    #[error("{name} in a wave that is not a graphics wave (exports need a PS, GS or VS wave)")]
    NotGraphics { name: &'static str },
    #[error("export to {target}: {why}")]
    Export { target: String, why: &'static str },
    #[error("{0}")]
    Other(String),
}

/// Per-dispatch resources a wave's instructions reach: device memory, the workgroup's LDS,
/// settings. Memory families take what they need from here.
pub struct Ctx<'a> {
    pub mem: &'a wavesim_core::memory::DeviceMemory,
    pub lds: &'a mut [u8],
    /// SH_MEM_CONFIG.alignment_mode (`flat::align_mode`: 0 DWORD, 1 DWORD_STRICT, 2 STRICT,
    /// 3 UNALIGNED), from the dispatch's `ExecConfig`.
    pub alignment_mode: u8,
    /// The runtime's host services for this dispatch (the hostcall listener), if any.
    pub host: Option<&'a dyn HostServices>,
}

/// What a runtime serves while the waves of a dispatch run: ROCm's hostcall listener (a host
/// thread that answers the requests waves leave in device memory) and its trap handler's
/// answer to `s_trap`. The executor calls these at the two points where a wave waits on or
/// hands control to the host, so a single-threaded model never spins on a request nobody serves.
pub trait HostServices: Sync + std::fmt::Debug {
    /// The wave executes `s_sleep`: every wait loop of the device libraries' hostcall protocol
    /// sleeps between polls, so pending requests are served here before the wave polls again.
    fn serve(&self, mem: &wavesim_core::memory::DeviceMemory) -> Result<(), ExecError>;
    /// `s_trap id` in a wave without a trap handler of its own (STATUS.TRAP_EN = 0): the
    /// runtime's handler decides. `Ok` continues with the next instruction.
    fn trap(&self, id: u32) -> Result<(), ExecError>;
}

/// The name used in errors for an instruction (`v_add_f32` etc.).
pub fn op_name(inst: &Inst) -> &'static str {
    if inst.is_invalid() {
        "<invalid>"
    } else {
        inst.op.name()
    }
}

/// TRAPSTS.MEM_VIOL: EXCP[8] (RDNA3 ISA 3.4.9).
pub const TRAPSTS_MEMVIOL: u32 = 1 << 8;

/// Routes a memory violation to the trap handler when one is installed: a MEMVIOL (misaligned
/// atomic, STRICT/DWORD_STRICT alignment) or an access outside every allocation (a page fault,
/// which hardware also reports as a memory violation) sets TRAPSTS.MEM_VIOL and enters the
/// handler with trapID 0 when STATUS.TRAP_EN is set and the wave is not already in the handler;
/// MEMVIOL cannot be masked (RDNA3 ISA guide, Wave State, "MODE.EXCP_EN"). The faulting instruction had no effect
/// (the memory families check every lane before performing any) and TTMP0/1 hold the PC of the
/// instruction after it, where the handler's s_rfe resumes. Without a handler, and for every other
/// error, the error ends the dispatch. Called by the dispatcher's step loop, the one loop every wave runs
/// in.
#[cold]
pub fn memory_exception(w: &mut Wave, e: ExecError) -> Result<Flow, ExecError> {
    let memory = matches!(e, ExecError::MemViol { .. } | ExecError::MemoryFault { .. });
    if !memory || w.hw.status & crate::wave::status::TRAP_EN == 0 || w.privileged() {
        return Err(e);
    }
    w.hw.trapsts |= TRAPSTS_MEMVIOL;
    let pc = w.pc;
    Ok(trap::enter_trap(w, 0, pc))
}

/// The semantic function of one instruction.
pub type Handler = fn(&mut Wave, &Inst, &mut Ctx) -> Result<Flow, ExecError>;

/// A family's claim function: the handler for each op the family implements.
pub type Claim = fn(Op) -> Option<Handler>;

/// Each family module claims the ops it implements; the first claim wins and the coverage
/// test checks that every op is claimed exactly once.
pub const FAMILIES: &[(&str, Claim)] = &[
    ("salu", salu::handler),
    ("sopp", sopp::handler),
    ("smem", smem::handler),
    ("vfloat", vfloat::handler),
    ("vcmp", vcmp::handler),
    ("vint", vint::handler),
    ("vpacked", vpacked::handler),
    ("vlane", vlane::handler),
    ("vopd", vopd::handler),
    ("vinterp", vinterp::handler),
    ("lds", lds::handler),
    ("flat", flat::handler),
    ("buffer", buffer::handler),
    ("export", export::handler),
    ("ldsdir", ldsdir::handler),
    ("image", image::handler),
];

fn unimplemented(_: &mut Wave, inst: &Inst, _: &mut Ctx) -> Result<Flow, ExecError> {
    Err(ExecError::Unimplemented {
        name: op_name(inst),
    })
}

/// An undecodable word is an illegal instruction: the trap handler runs if one is installed
/// (`sopp::illegal`), else the dispatch ends with the word.
fn invalid(w: &mut Wave, inst: &Inst, _: &mut Ctx) -> Result<Flow, ExecError> {
    sopp::illegal(w, inst, ExecError::InvalidInstruction { word: inst.lit })
}

/// The handler for every op, indexed by `Op as usize`, resolved once.
pub fn handlers() -> &'static [Handler] {
    static H: OnceLock<Vec<Handler>> = OnceLock::new();
    H.get_or_init(|| {
        Op::ALL
            .iter()
            .map(|&op| {
                FAMILIES
                    .iter()
                    .find_map(|(_, f)| f(op))
                    .unwrap_or(unimplemented as Handler)
            })
            .collect()
    })
}

/// The handler for a decoded instruction (VOPD and invalid words have their own).
#[inline]
pub fn handler_for(inst: &Inst) -> Handler {
    match inst.enc {
        Enc::Invalid => invalid,
        Enc::Vopd => vopd::exec,
        _ => handlers()[inst.op as usize],
    }
}

/// Executes one instruction (PC already points to the next one).
#[inline]
pub fn execute(w: &mut Wave, inst: &Inst, ctx: &mut Ctx) -> Result<Flow, ExecError> {
    handler_for(inst)(w, inst, ctx)
}

/// Every op the executor must implement, for the coverage test.
pub fn all_ops() -> &'static [Op] {
    Op::ALL
}
