//! Seeing inside a dispatch (DESIGN.md, "Seeing inside"): an [`Observer`] the run loop calls
//! around every instruction a wave executes, and [`TextTracer`], an observer that writes an
//! instruction trace a user can read next to the disassembly.
//!
//! The dispatch loop is generic over the observer; with [`NoObserver`] `enabled()` is a constant
//! `false`, so the hooks and everything computed for them compile away and the loop is the same
//! machine code as without observers. A dispatch with an enabled observer runs its workgroups one
//! after the other on the calling thread, in the deterministic order of a `threads = 1` run
//! (workgroups x-fastest, the waves of a workgroup in turns), so a trace is reproducible.

use crate::decode::{opnd, Inst};
use crate::disasm;
use crate::wave::{Wave, LANES};
use std::io::{self, Write};
use wavesim_core::observe::write_lane_change;
pub use wavesim_core::observe::{InstLoc, NoObserver, Observer, TraceFilter, DEFAULT_TRACE_LIMIT};

/// Registers as they were before the traced instruction.
struct Snapshot {
    sgpr: [u32; 128],
    scc: bool,
    mode: u32,
    status: u32,
    trapsts: u32,
    exec: u64,
    vgpr: Vec<u32>,
}

/// An observer that writes one line per executed instruction and one line per register it
/// changed:
///
/// ```text
/// wg (0,0,0) w 0  0x1904  EXEC=0xffffffff  s_load_b32 s6, s[0:1], 0x24
///     s6 = 0x00010100
/// wg (0,0,0) w 0  0x19a0  EXEC=0x0000000f  v_fmac_f32_e32 v1, s3, v0
///     v1: [0]=0x447a0000 [1]=0x4479e800 [2-3]=0x4479d000
/// ```
///
/// The instruction is printed as llvm-objdump prints it; the PC is relative to the code object
/// (`trap+0x..` in the trap handler). Changes are found by comparing the registers before and
/// after the instruction: SGPRs/VCC/TTMPs/M0/EXEC, SCC, MODE/STATUS/TRAPSTS and every VGPR
/// lane. A register written with the value it already held is therefore not listed. A VGPR
/// shows the active lanes (EXEC at issue) and any other lane that changed, consecutive lanes
/// with the same value as a range; `v3 = 0x.. (all active lanes)` when every shown lane holds
/// the same value. Memory and LDS writes are not shown.
///
/// Only the waves the [`TraceFilter`] selects are traced, and at most `limit` instructions;
/// [`TextTracer::finish`] then writes a note that the trace was cut (the dispatch itself runs
/// to the end). Write errors stop the trace and are returned by `finish`.
pub struct TextTracer<W: Write> {
    out: W,
    filter: TraceFilter,
    limit: u64,
    traced: u64,
    cut: bool,
    /// `before` took a snapshot for the instruction now running.
    pending: bool,
    snap: Snapshot,
    error: Option<io::Error>,
    line: String,
}

impl<W: Write> TextTracer<W> {
    pub fn new(out: W) -> TextTracer<W> {
        TextTracer {
            out,
            filter: TraceFilter::default(),
            limit: DEFAULT_TRACE_LIMIT,
            traced: 0,
            cut: false,
            pending: false,
            snap: Snapshot {
                sgpr: [0; 128],
                scc: false,
                mode: 0,
                status: 0,
                trapsts: 0,
                exec: 0,
                vgpr: Vec::new(),
            },
            error: None,
            line: String::new(),
        }
    }

    /// Trace only the waves `filter` selects.
    pub fn with_filter(mut self, filter: TraceFilter) -> Self {
        self.filter = filter;
        self
    }

    /// Trace at most `limit` instructions.
    pub fn with_limit(mut self, limit: u64) -> Self {
        self.limit = limit;
        self
    }

    /// Instructions traced so far.
    pub fn traced(&self) -> u64 {
        self.traced
    }

    /// True once the limit cut the trace (an instruction after the limit would have been traced).
    pub fn was_cut(&self) -> bool {
        self.cut
    }

    /// Ends the trace: writes the note when the limit cut it, flushes, and returns the writer or
    /// the first write error.
    pub fn finish(mut self) -> io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        if self.cut {
            writeln!(
                self.out,
                "... trace cut after {} instructions (trace limit); the dispatch ran on",
                self.limit
            )?;
        }
        self.out.flush()?;
        Ok(self.out)
    }

    fn emit(&mut self) {
        if self.error.is_none() {
            if let Err(e) = self.out.write_all(self.line.as_bytes()) {
                self.error = Some(e);
            }
        }
        self.line.clear();
    }
}

/// Name of scalar operand code `r` (0..=127) as the disassembler spells it.
fn sreg_name(r: usize) -> String {
    match r as u16 {
        0..=105 => format!("s{r}"),
        opnd::VCC_LO => "vcc_lo".into(),
        opnd::VCC_HI => "vcc_hi".into(),
        108..=123 => format!("ttmp{}", r - 108),
        opnd::NULL => "null".into(),
        opnd::M0 => "m0".into(),
        opnd::EXEC_LO => "exec_lo".into(),
        _ => "exec_hi".into(),
    }
}

impl<W: Write> Observer<Wave, Inst> for TextTracer<W> {
    fn enabled(&self) -> bool {
        true
    }

    fn before(&mut self, loc: &InstLoc, w: &Wave, inst: &Inst) {
        self.pending = false;
        if self.error.is_some() || !self.filter.matches(loc.workgroup, loc.wave) {
            return;
        }
        if self.traced >= self.limit {
            self.cut = true;
            return;
        }
        self.traced += 1;
        self.pending = true;
        let s = &mut self.snap;
        s.sgpr = w.sgpr;
        s.scc = w.scc;
        s.mode = w.hw.mode;
        s.status = w.hw.status;
        s.trapsts = w.hw.trapsts;
        s.exec = w.exec();
        s.vgpr.clear();
        s.vgpr.extend_from_slice(&w.vgpr);

        use std::fmt::Write as _;
        let [x, y, z] = loc.workgroup;
        let pc = if loc.trap_handler {
            format!("trap+{:#x}", loc.pc)
        } else {
            format!("{:#x}", loc.pc)
        };
        let exec = if w.wave64 {
            format!("{:#018x}", s.exec)
        } else {
            format!("{:#010x}", s.exec)
        };
        let text = disasm::format(inst, loc.addr, w.wave64);
        let _ = writeln!(
            self.line,
            "wg ({x},{y},{z}) w {}  {pc}  EXEC={exec}  {text}",
            loc.wave
        );
        self.emit();
    }

    fn after(&mut self, _loc: &InstLoc, w: &Wave, _inst: &Inst) {
        if !std::mem::take(&mut self.pending) {
            return;
        }
        use std::fmt::Write as _;
        let s = &self.snap;
        let line = &mut self.line;
        // Scalar registers; a wave64 lane mask (VCC, EXEC) prints as one 64-bit value.
        let mut r = 0;
        while r < 128 {
            let pair = w.wave64 && (r == opnd::VCC_LO as usize || r == opnd::EXEC_LO as usize);
            if pair {
                if w.sgpr[r] != s.sgpr[r] || w.sgpr[r + 1] != s.sgpr[r + 1] {
                    let v = w.sgpr[r] as u64 | (w.sgpr[r + 1] as u64) << 32;
                    let name = if r == opnd::VCC_LO as usize {
                        "vcc"
                    } else {
                        "exec"
                    };
                    let _ = writeln!(line, "    {name} = {v:#018x}");
                }
                r += 2;
                continue;
            }
            if w.sgpr[r] != s.sgpr[r] {
                let _ = writeln!(line, "    {} = {:#010x}", sreg_name(r), w.sgpr[r]);
            }
            r += 1;
        }
        if w.scc != s.scc {
            let _ = writeln!(line, "    scc = {}", w.scc as u8);
        }
        for (name, old, new) in [
            ("mode", s.mode, w.hw.mode),
            ("status", s.status, w.hw.status),
            ("trapsts", s.trapsts, w.hw.trapsts),
        ] {
            if old != new {
                let _ = writeln!(line, "    {name} = {new:#010x}");
            }
        }
        // VGPRs: rows whose lanes changed (the file keeps its size during a dispatch).
        let lanes = w.lanes();
        let rows = (w.vgpr.len() / LANES).min(s.vgpr.len() / LANES);
        for row in 0..rows {
            let new = &w.vgpr[row * LANES..row * LANES + lanes];
            let old = &s.vgpr[row * LANES..row * LANES + lanes];
            if new == old {
                continue;
            }
            write_lane_change(line, &format!("v{row}"), new, old, |l| s.exec >> l & 1 != 0);
        }
        self.emit();
    }
}
