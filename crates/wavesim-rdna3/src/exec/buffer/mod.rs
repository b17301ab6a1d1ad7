//! Buffer memory instructions, MUBUF and MTBUF, with V# resources (RDNA3 ISA guide, Buffer Instructions; the RDNA3 ISA guide (Wave State) for the
//! out-of-range VGPR and alignment rules).
//!
//! Operands (decoder): `src[0]` vaddr, `src[1]` vdata, `src[2]` srsrc (4-aligned SGPRs), `src[3]`
//! soffset (SGPR, M0, NULL or an inline constant), `imm` the 12-bit inst_offset, `imm2` the MTBUF
//! format, flags IDXEN/OFFEN/GLC/TFE.
//!
//! Rules implemented here (the submodules hold addressing, the V# and formats):
//! - **Formats and DST_SEL** (RDNA3 ISA guide, Buffer Instructions, "Buffer data"): MTBUF takes the format from the
//!   instruction and uses the identity selects; MUBUF `*_format_*` takes format and dst_sel from
//!   the V#; every other MUBUF op derives its format from the opcode (u8, i16, b32...) with the
//!   identity selects. The identity is X000 / XY00 / XYZ0 / XYZW by the format's component count:
//!   components a format lacks read as 0, SEL_0 gives 0 and SEL_1 gives 1 (or 1.0).
//! - **Count mismatch**: a format op moves one whole format element; a load returns the
//!   instruction's components through dst_sel (load_format_x of 32_32_32_32 reads 16 bytes and
//!   returns X); a store writes every component of the element, each from the dst_sel-chosen
//!   instruction component, 0 where the instruction supplies none (store_format_xyzw of 32 writes
//!   X only).
//! - **Range checks** (`address`): out-of-range loads return 0 except SEL_1 components; stores and
//!   atomics are dropped. B64/B96/B128 are checked per dword (only the outside dwords read 0 / are
//!   dropped); format ops, MTBUF and atomics all-or-nothing on the whole element.
//! - **Null V#** (all zero): loads return 0, stores are ignored. A V# whose format is INVALID (0)
//!   or undefined (64..127) does the same for format ops (RDNA3 ISA guide, Buffer Instructions ties the null resource to
//!   "data format zero"). **Type mismatch** (V#.type != 0): the instruction is ignored, loads write
//!   no VGPR.
//! - **Alignment** (RDNA3 ISA guide, Buffer Instructions, "Alignment"; `ExecConfig::alignment_mode`): format ops need
//!   min(element size, 4)-byte alignment and atomics their data size in every mode; other ops:
//!   DWORD clears the address bits below min(size, 4), DWORD_STRICT requires min(size, 4), STRICT
//!   the (power-of-two) access size, UNALIGNED nothing. Misalignment is per lane (RDNA3 ISA guide, Buffer Instructions: "in
//!   options 1 and 2, misaligned loads return zero and misaligned stores are discarded"): a
//!   misaligned lane loads 0 and stores nothing while the other lanes proceed, and after the whole
//!   instruction has executed that way the first such lane is reported as `ExecError::MemViol`.
//!   Only accesses that are at least partly in range are checked: out-of-range ones touch no
//!   memory.
//! - **Destinations** (RDNA3 ISA guide, Wave State): if any returned VGPR (incl. the TFE status VGPR) is out of
//!   range the instruction is nullified before touching memory; atomics check only when they
//!   return data (GLC). TFE writes 0 (success) to the VGPR after the data. D16 loads keep the other
//!   half of each VGPR they write half of.
//! - **Faults**: an in-range access whose address is in no allocation is `ExecError::MemoryFault`
//!   with the lane and address (the sandbox never reaches other memory). A fault is all or
//!   nothing: loads fill their result rows before writing any VGPR, and stores and atomics make a
//!   checking pass over every active lane (allocation lookups only) before the pass that writes,
//!   so a faulting instruction changes no memory and no VGPR. When a fault and a misaligned lane
//!   meet in one instruction the fault wins and nothing is performed.
//! - **Traps**: both errors are memory violations; with a trap handler installed (STATUS.TRAP_EN)
//!   the step loop (`exec::memory_exception`) sets TRAPSTS.MEM_VIOL and enters the handler, which resumes after the buffer
//!   instruction with s_rfe; without one the error ends the dispatch.
//! - **Counters** (`Wave::cnt`, for s_waitcnt): loads and returning (GLC) atomics count in
//!   VM_CNT, stores and non-returning atomics in VS_CNT, when they issue (nullified, ignored and
//!   EXEC = 0 instructions included). The cache invalidations count in neither, as in LLVM's
//!   waitcnt model (SIInsertWaitcnts skips buffer invalidates).
//! - `buffer_gl0_inv` / `buffer_gl1_inv` invalidate caches wavesim does not model (every access
//!   goes to the one coherent memory), so they have no visible effect; they are NEVER_SKIP in
//!   the table and run even with EXEC = 0.
//! - `buffer_load_lds_*`: the RDNA3 ISA has no buffer load-to-LDS (LLVM 19 assembles these
//!   encodings but cannot generate them for gfx11, and later LLVM removed them); executing one is
//!   a typed error naming it.

pub mod address;
pub mod formats;
pub mod resource;

use crate::decode::{iflags, opnd, Inst};
use crate::exec::flat::{align_mode, memviol, merge_d16, write_rows, Regions};
use crate::exec::operand::{read_scalar, vdst_in_range};
use crate::exec::{op_name, Ctx, ExecError, Flow, Handler};
use crate::isa::{Fmt, MemKind, Op, Ty, D16};
use crate::wave::{Wave, LANES};
use address::{lane_addrs, Addresser, LaneAddr};
use formats::{buf_fmt, one16, one32, pack, store_one, store_val, unpack16, unpack32, BufFmt};
use resource::{sel, BufferResource};
use wavesim_core::memory::{AtomicOp, MemError, Region};

/// Rows of lane values for up to 4 data VGPRs plus the TFE status VGPR.
type Rows = [[u32; LANES]; 5];

/// Memory access of one instruction: the allocation cache shared with FLAT (all lanes of a wave
/// usually hit one buffer, so a lane costs one bounds check) and the first MEMVIOL seen.
struct Mem<'a> {
    at: Regions<'a>,
    viol: Option<ExecError>,
    /// Checking pass of a store or atomic: writes only find their allocation (or fault) and
    /// change nothing, so the performing pass that follows cannot fault half way.
    dry: bool,
}

impl<'a> Mem<'a> {
    fn new(ctx: &Ctx<'a>, inst: &Inst) -> Mem<'a> {
        Mem {
            at: Regions::new(ctx.mem, inst),
            viol: None,
            dry: false,
        }
    }

    #[inline]
    fn region(&mut self, lane: usize, addr: u64, n: u64) -> Result<&'a Region, ExecError> {
        self.at.region(lane, addr, n)
    }

    fn fault(&self, lane: usize, addr: u64, n: u64) -> ExecError {
        self.at.fault(lane, addr, n)
    }

    /// Records a MEMVIOL (the first one is reported once the instruction is done).
    #[inline]
    fn memviol(&mut self, lane: usize, addr: u64, why: &'static str) {
        if self.viol.is_none() {
            self.viol = Some(memviol(lane, addr, why));
        }
    }

    #[inline]
    fn read<const N: usize>(&mut self, lane: usize, addr: u64) -> Result<[u8; N], ExecError> {
        let r = self.region(lane, addr, N as u64)?;
        r.load::<N>(addr)
            .ok_or_else(|| self.fault(lane, addr, N as u64))
    }

    #[inline]
    fn read_u32(&mut self, lane: usize, addr: u64) -> Result<u32, ExecError> {
        self.read::<4>(lane, addr).map(u32::from_le_bytes)
    }

    #[inline]
    fn write<const N: usize>(
        &mut self,
        lane: usize,
        addr: u64,
        b: [u8; N],
    ) -> Result<(), ExecError> {
        let r = self.region(lane, addr, N as u64)?;
        if self.dry {
            return Ok(());
        }
        if r.store::<N>(addr, b) {
            Ok(())
        } else {
            Err(self.fault(lane, addr, N as u64))
        }
    }

    /// Reads a format element of `bytes` bytes (1, 2, or whole dwords) as little-endian dwords.
    fn read_element(&mut self, lane: usize, addr: u64, bytes: u32) -> Result<[u32; 4], ExecError> {
        let mut words = [0u32; 4];
        match bytes {
            1 => words[0] = self.read::<1>(lane, addr)?[0] as u32,
            2 => words[0] = u16::from_le_bytes(self.read::<2>(lane, addr)?) as u32,
            _ => {
                self.region(lane, addr, bytes as u64)?;
                for (k, wd) in words.iter_mut().enumerate().take(bytes as usize / 4) {
                    *wd = self.read_u32(lane, addr + 4 * k as u64)?;
                }
            }
        }
        Ok(words)
    }

    fn write_element(
        &mut self,
        lane: usize,
        addr: u64,
        bytes: u32,
        words: &[u32; 4],
    ) -> Result<(), ExecError> {
        match bytes {
            1 => self.write::<1>(lane, addr, [words[0] as u8]),
            2 => self.write::<2>(lane, addr, (words[0] as u16).to_le_bytes()),
            _ => {
                // The whole element first, so a fault leaves nothing half-written.
                self.region(lane, addr, bytes as u64)?;
                for (k, wd) in words.iter().enumerate().take(bytes as usize / 4) {
                    self.write::<4>(lane, addr + 4 * k as u64, wd.to_le_bytes())?;
                }
                Ok(())
            }
        }
    }
}

/// The alignment rule of a non-format access: the alignment `need`ed, and whether the DWORD mode
/// forces it by clearing low address bits instead of raising MEMVIOL.
#[derive(Clone, Copy)]
struct PlainAlign {
    need: u64,
    force: bool,
}

impl PlainAlign {
    /// The rule for an access of `size` bytes in alignment `mode`.
    #[inline]
    fn new(mode: u8, size: u64) -> PlainAlign {
        let (need, force) = match mode {
            align_mode::DWORD => (size.min(4), true),
            align_mode::DWORD_STRICT => (size.min(4), false),
            align_mode::STRICT => (size.next_power_of_two(), false),
            _ => (1, false),
        };
        PlainAlign { need, force }
    }

    /// Whether an access starting at `start` may proceed; a misaligned one in a strict mode is
    /// recorded as the lane's MEMVIOL (RDNA3 ISA guide, Buffer Instructions: it loads 0 / stores nothing) and may not.
    #[inline]
    fn check(self, m: &mut Mem, lane: usize, start: u64, why: &'static str) -> bool {
        if !self.force && !start.is_multiple_of(self.need) {
            m.memviol(lane, start, why);
            return false;
        }
        true
    }

    /// The address a part at `ad` uses (DWORD mode clears the bits below the alignment).
    #[inline]
    fn apply(self, ad: u64) -> u64 {
        if self.force {
            ad & !(self.need - 1)
        } else {
            ad
        }
    }
}

/// Which of the `n` dwords of a B32..B128 access are in range (RDNA3 ISA guide, Buffer Instructions checks each dword on its
/// own), or None when none is (the lane then touches no memory).
#[inline]
fn dwords_in_range(s: &Setup, a: LaneAddr, n: u8) -> Option<[bool; 4]> {
    let mut inr = [false; 4];
    for (k, f) in inr.iter_mut().enumerate().take(n as usize) {
        *f = !s.at.out_of_range(a, 4 * k as u64, 4);
    }
    inr.contains(&true).then_some(inr)
}

/// The V#, the addressing state and every lane's index/offset, or None when the instruction is
/// ignored (resource type mismatch).
struct Setup {
    rsrc: BufferResource,
    at: Addresser,
    lanes: [LaneAddr; LANES],
}

fn setup(w: &Wave, inst: &Inst) -> Result<Option<Setup>, ExecError> {
    let rsrc = BufferResource::read(w, inst.src[2]);
    if !rsrc.is_buffer() {
        return Ok(None);
    }
    let soffset = read_scalar(w, inst, inst.src[3], Ty::U32) as u32;
    let at = Addresser::new(&rsrc, soffset).map_err(|_| {
        ExecError::Other(format!(
            "{}: V# swizzle_enable = 2 is reserved on gfx11 (0 linear, 1 and 3 swizzled)",
            op_name(inst)
        ))
    })?;
    let mut lanes = [LaneAddr::default(); LANES];
    lane_addrs(w, inst, rsrc.add_tid, &mut lanes);
    Ok(Some(Setup { rsrc, at, lanes }))
}

/// The TFE status VGPR index within the destination, if TFE is set.
#[inline]
fn tfe_regs(inst: &Inst) -> usize {
    (inst.flags & iflags::TFE != 0) as usize
}

// ------------------------------------------------------------------------------------------------
// Non-format loads and stores (format derived from the opcode).

/// What a non-format load reads and where it puts it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ld {
    U8,
    I8,
    U16,
    I16,
    /// 1..=4 dwords.
    Dw(u8),
    D16U8,
    D16I8,
    D16B16,
    D16HiU8,
    D16HiI8,
    D16HiB16,
}

impl Ld {
    fn size(self) -> u64 {
        match self {
            Ld::U8 | Ld::I8 | Ld::D16U8 | Ld::D16I8 | Ld::D16HiU8 | Ld::D16HiI8 => 1,
            Ld::U16 | Ld::I16 | Ld::D16B16 | Ld::D16HiB16 => 2,
            Ld::Dw(n) => 4 * n as u64,
        }
    }

    fn regs(self) -> usize {
        match self {
            Ld::Dw(n) => n as usize,
            _ => 1,
        }
    }

    /// The 32-bit (or 16-bit for D16) value of the loaded bytes.
    #[inline]
    fn extend(self, raw: u32) -> u32 {
        match self {
            Ld::I8 => raw as u8 as i8 as i32 as u32,
            Ld::I16 => raw as u16 as i16 as i32 as u32,
            Ld::D16I8 | Ld::D16HiI8 => raw as u8 as i8 as i16 as u16 as u32,
            _ => raw,
        }
    }
}

/// The start every buffer load shares: it counts in VM_CNT, is nullified when any returned VGPR
/// (TFE's included) is out of range (RDNA3 ISA guide, Wave State), and reads the V#. `None`: nothing to do.
fn load_setup(w: &mut Wave, inst: &Inst, regs: usize) -> Result<Option<Setup>, ExecError> {
    w.cnt.vm_issue();
    if !vdst_in_range(w, inst.dst[0], regs) {
        return Ok(None);
    }
    setup(w, inst)
}

fn load(w: &mut Wave, inst: &Inst, ctx: &mut Ctx, kind: Ld) -> Result<Flow, ExecError> {
    let dst = inst.dst[0];
    let regs = kind.regs();
    let tfe = tfe_regs(inst);
    let Some(s) = load_setup(w, inst, regs + tfe)? else {
        return Ok(Flow::Next);
    };
    let exec = w.exec();
    let size = kind.size();
    let align = PlainAlign::new(ctx.alignment_mode, size);
    let mut m = Mem::new(ctx, inst);
    let mut rows: Rows = [[0; LANES]; 5];
    const WHY: &str = "misaligned buffer load";
    for l in 0..w.lanes() {
        if exec >> l & 1 == 0 {
            continue;
        }
        let a = s.lanes[l];
        match kind {
            Ld::Dw(n) => {
                let Some(inr) = dwords_in_range(&s, a, n) else {
                    continue;
                };
                if !align.check(&mut m, l, s.at.addr(a, 0), WHY) {
                    continue;
                }
                for (k, row) in rows.iter_mut().enumerate().take(n as usize) {
                    if inr[k] {
                        row[l] = m.read_u32(l, align.apply(s.at.addr(a, 4 * k as u64)))?;
                    }
                }
            }
            _ => {
                if s.at.out_of_range(a, 0, size) {
                    continue;
                }
                let ad = s.at.addr(a, 0);
                if !align.check(&mut m, l, ad, WHY) {
                    continue;
                }
                let ad = align.apply(ad);
                let raw = if size == 1 {
                    m.read::<1>(l, ad)?[0] as u32
                } else {
                    u16::from_le_bytes(m.read::<2>(l, ad)?) as u32
                };
                rows[0][l] = kind.extend(raw);
            }
        }
    }
    // D16: merge into the half being loaded, keeping the other half.
    let old = w.vrow((dst - opnd::VGPR0) as usize);
    match kind {
        Ld::D16U8 | Ld::D16I8 | Ld::D16B16 => merge_d16(&mut rows[0], old, false),
        Ld::D16HiU8 | Ld::D16HiI8 | Ld::D16HiB16 => merge_d16(&mut rows[0], old, true),
        _ => {}
    }
    // TFE: status 0 (the fetch completed) in the VGPR after the data; rows[regs] is all zero.
    write_rows(w, dst, &rows[..regs + tfe], exec);
    finish(m)
}

/// What a non-format store writes.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum St {
    B8,
    B16,
    Dw(u8),
    HiB8,
    HiB16,
}

fn store(w: &mut Wave, inst: &Inst, ctx: &mut Ctx, kind: St) -> Result<Flow, ExecError> {
    w.cnt.vs_issue();
    let Some(s) = setup(w, inst)? else {
        return Ok(Flow::Next);
    };
    let exec = w.exec();
    let vdata = (inst.src[1] - opnd::VGPR0) as usize;
    let size = match kind {
        St::B8 | St::HiB8 => 1,
        St::B16 | St::HiB16 => 2,
        St::Dw(n) => 4 * n as u64,
    };
    let align = PlainAlign::new(ctx.alignment_mode, size);
    let mut m = Mem::new(ctx, inst);
    const WHY: &str = "misaligned buffer store";
    // Two passes over the lanes: the first finds every access's allocation and writes nothing,
    // so a fault in any lane leaves memory untouched; the second performs the stores.
    for dry in [true, false] {
        m.dry = dry;
        for l in 0..w.lanes() {
            if exec >> l & 1 == 0 {
                continue;
            }
            let a = s.lanes[l];
            let v0 = w.vgpr_get(vdata, l);
            match kind {
                St::Dw(n) => {
                    let Some(inr) = dwords_in_range(&s, a, n) else {
                        continue;
                    };
                    if !align.check(&mut m, l, s.at.addr(a, 0), WHY) {
                        continue;
                    }
                    for (k, &inside) in inr.iter().enumerate().take(n as usize) {
                        if inside {
                            let ad = align.apply(s.at.addr(a, 4 * k as u64));
                            // Out-of-range source VGPRs read VGPR0 one by one (RDNA3 ISA guide, Wave State).
                            let v = w.vgpr_get(vdata + k, l);
                            m.write::<4>(l, ad, v.to_le_bytes())?;
                        }
                    }
                }
                _ => {
                    if s.at.out_of_range(a, 0, size) {
                        continue;
                    }
                    let ad = s.at.addr(a, 0);
                    if !align.check(&mut m, l, ad, WHY) {
                        continue;
                    }
                    let ad = align.apply(ad);
                    match kind {
                        St::B8 => m.write::<1>(l, ad, [v0 as u8])?,
                        St::HiB8 => m.write::<1>(l, ad, [(v0 >> 16) as u8])?,
                        St::B16 => m.write::<2>(l, ad, (v0 as u16).to_le_bytes())?,
                        _ => m.write::<2>(l, ad, ((v0 >> 16) as u16).to_le_bytes())?,
                    }
                }
            }
        }
    }
    finish(m)
}

/// Ends an instruction: the first MEMVIOL, if any, is the error (the instruction has already
/// executed with misaligned lanes loading 0 / storing nothing).
#[inline]
fn finish(m: Mem) -> Result<Flow, ExecError> {
    match m.viol {
        Some(e) => Err(e),
        None => Ok(Flow::Next),
    }
}

// ------------------------------------------------------------------------------------------------
// Format loads and stores (MUBUF *_format_* with the V#'s format, MTBUF with the instruction's).

/// Shape of a format op: components, D16 (16-bit halves), D16_HI (the high half of one VGPR),
/// MTBUF (format from the instruction, identity dst_sel).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Fo {
    n: u8,
    d16: bool,
    hi: bool,
    mtbuf: bool,
}

impl Fo {
    /// The shape of format op `op`, from its table facts (components, D16 half, MTBUF).
    #[inline]
    fn of(op: Op) -> Fo {
        let f = op.facts();
        Fo {
            n: f.comps,
            d16: f.d16 != D16::None,
            hi: f.d16 == D16::Hi,
            mtbuf: op.fmt() == Fmt::Mtbuf,
        }
    }

    /// Data VGPRs: one per component, or two 16-bit components per VGPR for D16.
    fn regs(self) -> usize {
        if self.d16 {
            (self.n as usize).div_ceil(2)
        } else {
            self.n as usize
        }
    }
}

/// The format and component selects of a format op, or None for an INVALID/undefined format.
fn format_of(inst: &Inst, s: &Setup, fo: Fo) -> Result<Option<(BufFmt, [u8; 4])>, ExecError> {
    let code = if fo.mtbuf {
        inst.imm2
    } else {
        s.rsrc.format as u32
    };
    let Some(f) = buf_fmt(code) else {
        return Ok(None);
    };
    let sels = if fo.mtbuf {
        identity(f.comps)
    } else {
        let d = s.rsrc.dst_sel;
        if let Some(&bad) = d.iter().find(|&&v| v == 2 || v == 3) {
            return Err(ExecError::Other(format!(
                "{}: V# dst_sel value {bad} is reserved (0 SEL_0, 1 SEL_1, 4-7 X-W)",
                op_name(inst)
            )));
        }
        d
    };
    Ok(Some((f, sels)))
}

/// Identity selects for a format with `comps` components: X000, XY00, XYZ0 or XYZW.
fn identity(comps: u8) -> [u8; 4] {
    let mut s = [sel::SEL_0; 4];
    for (c, v) in s.iter_mut().enumerate().take(comps as usize) {
        *v = sel::X + c as u8;
    }
    s
}

/// Format element alignment (RDNA3 ISA guide, Buffer Instructions: 1-byte formats 1, 2-byte 2, 4 bytes and larger 4), in
/// every alignment mode.
#[inline]
fn format_alignment(f: &BufFmt) -> u64 {
    (f.bytes as u64).min(4)
}

fn load_format(w: &mut Wave, inst: &Inst, ctx: &mut Ctx, fo: Fo) -> Result<Flow, ExecError> {
    let dst = inst.dst[0];
    let regs = fo.regs();
    let tfe = tfe_regs(inst);
    let Some(s) = load_setup(w, inst, regs + tfe)? else {
        return Ok(Flow::Next);
    };
    let exec = w.exec();
    let mut rows: Rows = [[0; LANES]; 5];
    let mut m = Mem::new(ctx, inst);
    // VGPR components before packing (16-bit values for D16).
    let mut comps = [[0u32; LANES]; 4];
    if let Some((f, sels)) = format_of(inst, &s, fo)? {
        let num = f.num;
        let one = if fo.d16 { one16(num) } else { one32(num) };
        let need = format_alignment(&f);
        for l in 0..w.lanes() {
            if exec >> l & 1 == 0 {
                continue;
            }
            let a = s.lanes[l];
            // All or nothing (RDNA3 ISA guide, Buffer Instructions): out of range reads as an all-zero element.
            let mut words = [0u32; 4];
            if !s.at.out_of_range(a, 0, f.bytes as u64) {
                let ad = s.at.addr(a, 0);
                if ad % need != 0 {
                    // Misaligned: returns zero (no select applies).
                    m.memviol(l, ad, "misaligned buffer format load");
                    continue;
                }
                words = m.read_element(l, ad, f.bytes as u32)?;
            }
            for (i, out) in comps.iter_mut().enumerate().take(fo.n as usize) {
                let sl = sels[i];
                out[l] = match sl {
                    sel::SEL_1 => one,
                    sel::X..=sel::W if sl - sel::X < f.comps => {
                        let c = (sl - sel::X) as usize;
                        let raw = f.get(&words, c);
                        let bits = f.bits[c] as u32;
                        if fo.d16 {
                            unpack16(num, bits, raw)
                        } else {
                            unpack32(num, bits, raw)
                        }
                    }
                    _ => 0,
                };
            }
        }
    }
    // Invalid format: every component reads 0 (comps stays zero).
    let old = w.vrow((dst - opnd::VGPR0) as usize);
    if !fo.d16 {
        rows[..fo.n as usize].copy_from_slice(&comps[..fo.n as usize]);
    } else if fo.hi {
        for ((r, &o), &c) in rows[0].iter_mut().zip(old).zip(&comps[0]) {
            *r = (o & 0xffff) | c << 16;
        }
    } else {
        let old_last = w.vrow((dst - opnd::VGPR0) as usize + regs - 1);
        for (r, row) in rows.iter_mut().enumerate().take(regs) {
            let paired = 2 * r + 1 < fo.n as usize;
            for (l, v) in row.iter_mut().enumerate() {
                let lo = comps[2 * r][l] & 0xffff;
                *v = if paired {
                    lo | comps[2 * r + 1][l] << 16
                } else {
                    // An odd last component fills the low half; the high half is kept.
                    (old_last[l] & 0xffff_0000) | lo
                };
            }
        }
    }
    write_rows(w, dst, &rows[..regs + tfe], exec);
    finish(m)
}

fn store_format(w: &mut Wave, inst: &Inst, ctx: &mut Ctx, fo: Fo) -> Result<Flow, ExecError> {
    w.cnt.vs_issue();
    let Some(s) = setup(w, inst)? else {
        return Ok(Flow::Next);
    };
    let Some((f, sels)) = format_of(inst, &s, fo)? else {
        // INVALID format: nothing is stored.
        return Ok(Flow::Next);
    };
    let exec = w.exec();
    let vdata = (inst.src[1] - opnd::VGPR0) as usize;
    let need = format_alignment(&f);
    let num = f.num;
    let mut m = Mem::new(ctx, inst);
    // A checking pass, then the performing one (see `store`): a fault stores nothing at all.
    for dry in [true, false] {
        m.dry = dry;
        for l in 0..w.lanes() {
            if exec >> l & 1 == 0 {
                continue;
            }
            let a = s.lanes[l];
            if s.at.out_of_range(a, 0, f.bytes as u64) {
                continue;
            }
            let ad = s.at.addr(a, 0);
            if ad % need != 0 {
                m.memviol(l, ad, "misaligned buffer format store");
                continue;
            }
            if dry {
                m.region(l, ad, f.bytes as u64)?;
                continue;
            }
            // The instruction's components as store values.
            let mut src = [formats::StoreVal::Int(0); 4];
            for (i, v) in src.iter_mut().enumerate().take(fo.n as usize) {
                let raw = if !fo.d16 {
                    w.vgpr_get(vdata + i, l)
                } else if fo.hi {
                    w.vgpr_get(vdata, l) >> 16
                } else {
                    w.vgpr_get(vdata + i / 2, l) >> (16 * (i % 2)) & 0xffff
                };
                *v = store_val(num, fo.d16, raw);
            }
            let mut words = [0u32; 4];
            for (c, &sl) in sels.iter().enumerate().take(f.comps as usize) {
                let v = match sl {
                    sel::SEL_1 => store_one(num),
                    sel::X..=sel::W if ((sl - sel::X) as usize) < fo.n as usize => {
                        src[(sl - sel::X) as usize]
                    }
                    _ => formats::StoreVal::Int(0),
                };
                f.set(&mut words, c, pack(num, f.bits[c] as u32, v));
            }
            m.write_element(l, ad, f.bytes as u32, &words)?;
        }
    }
    finish(m)
}

// ------------------------------------------------------------------------------------------------
// Atomics

/// `buffer_atomic_*`: read-modify-write per lane, in lane order; with GLC the pre-op value is
/// returned to vdata. Cmpswap data is {src, cmp}: the new value in the first register(s), the
/// compare value after it. All-or-nothing range check on the memory size (4 or 8 bytes); an
/// out-of-range or misaligned lane does nothing and returns 0.
#[allow(clippy::needless_range_loop)] // one lane loop filling two rows
fn atomic(
    w: &mut Wave,
    inst: &Inst,
    ctx: &mut Ctx,
    op: AtomicOp,
    w64: bool,
) -> Result<Flow, ExecError> {
    let rtn = inst.flags & iflags::GLC != 0;
    if rtn {
        w.cnt.vm_issue();
    } else {
        w.cnt.vs_issue();
    }
    let dregs = if w64 { 2 } else { 1 };
    let vdata = inst.src[1];
    if rtn && !vdst_in_range(w, vdata, dregs) {
        // the RDNA3 ISA guide (Wave State): a returning atomic with an out-of-range destination is nullified.
        return Ok(Flow::Next);
    }
    let Some(s) = setup(w, inst)? else {
        return Ok(Flow::Next);
    };
    let exec = w.exec();
    let vd = (vdata - opnd::VGPR0) as usize;
    let size = if w64 { 8 } else { 4 };
    let cmp = matches!(op, AtomicOp::CmpSwap | AtomicOp::CmpSwapF);
    let mut m = Mem::new(ctx, inst);
    let mut rows: Rows = [[0; LANES]; 5];
    // A checking pass finds every lane's allocation first (see `store`): a fault in any lane
    // leaves memory and the returned VGPRs untouched.
    for dry in [true, false] {
        for l in 0..w.lanes() {
            if exec >> l & 1 == 0 {
                continue;
            }
            let a = s.lanes[l];
            if s.at.out_of_range(a, 0, size) {
                continue;
            }
            let ad = s.at.addr(a, 0);
            if ad % size != 0 {
                m.memviol(l, ad, "misaligned buffer atomic");
                continue;
            }
            let r = m.region(l, ad, size)?;
            if dry {
                continue;
            }
            // {src, cmp}: one or two VGPRs each.
            let get = |k: usize| w.vgpr_get(vd + k, l) as u64;
            let (src, c) = if w64 {
                let c = if cmp { get(2) | get(3) << 32 } else { 0 };
                (get(0) | get(1) << 32, c)
            } else {
                (get(0), if cmp { get(1) } else { 0 })
            };
            let old = r.atomic(ad, op, src, c, w64).map_err(|e| match e {
                MemError::Misaligned { addr, .. } => memviol(l, addr, "misaligned buffer atomic"),
                _ => m.fault(l, ad, size),
            })?;
            rows[0][l] = old as u32;
            if w64 {
                rows[1][l] = (old >> 32) as u32;
            }
        }
    }
    if rtn {
        write_rows(w, vdata, &rows[..dregs], exec);
    }
    finish(m)
}

// ------------------------------------------------------------------------------------------------

fn no_lds_dma(_: &mut Wave, inst: &Inst, _: &mut Ctx) -> Result<Flow, ExecError> {
    Err(ExecError::Other(format!(
        "{}: not an RDNA3 instruction (gfx11 has no buffer load-to-LDS; LLVM 19 assembles the \
         encoding but cannot generate it)",
        op_name(inst)
    )))
}

/// The handler for each MUBUF/MTBUF op, from its table facts: plain loads and stores by width,
/// sign extension and D16 half; format ops by components; atomics by operation (read from the
/// table once per instruction, not per lane).
pub fn handler(op: Op) -> Option<Handler> {
    if !matches!(op.fmt(), Fmt::Mubuf | Fmt::Mtbuf) {
        return None;
    }
    let f = op.facts();
    if f.lds {
        return Some(no_lds_dma);
    }
    if f.comps > 0 {
        return match f.mem {
            MemKind::Load => Some(|w, i, c| load_format(w, i, c, Fo::of(i.op))),
            MemKind::Store => Some(|w, i, c| store_format(w, i, c, Fo::of(i.op))),
            _ => None,
        };
    }
    let h: Handler = match (f.mem, f.bytes, f.sext, f.d16) {
        (MemKind::Load, 1, false, D16::None) => |w, i, c| load(w, i, c, Ld::U8),
        (MemKind::Load, 1, true, D16::None) => |w, i, c| load(w, i, c, Ld::I8),
        (MemKind::Load, 2, false, D16::None) => |w, i, c| load(w, i, c, Ld::U16),
        (MemKind::Load, 2, true, D16::None) => |w, i, c| load(w, i, c, Ld::I16),
        (MemKind::Load, 4, false, D16::None) => |w, i, c| load(w, i, c, Ld::Dw(1)),
        (MemKind::Load, 8, false, D16::None) => |w, i, c| load(w, i, c, Ld::Dw(2)),
        (MemKind::Load, 12, false, D16::None) => |w, i, c| load(w, i, c, Ld::Dw(3)),
        (MemKind::Load, 16, false, D16::None) => |w, i, c| load(w, i, c, Ld::Dw(4)),
        (MemKind::Load, 1, false, D16::Lo) => |w, i, c| load(w, i, c, Ld::D16U8),
        (MemKind::Load, 1, true, D16::Lo) => |w, i, c| load(w, i, c, Ld::D16I8),
        (MemKind::Load, 2, false, D16::Lo) => |w, i, c| load(w, i, c, Ld::D16B16),
        (MemKind::Load, 1, false, D16::Hi) => |w, i, c| load(w, i, c, Ld::D16HiU8),
        (MemKind::Load, 1, true, D16::Hi) => |w, i, c| load(w, i, c, Ld::D16HiI8),
        (MemKind::Load, 2, false, D16::Hi) => |w, i, c| load(w, i, c, Ld::D16HiB16),
        (MemKind::Store, 1, false, D16::None) => |w, i, c| store(w, i, c, St::B8),
        (MemKind::Store, 2, false, D16::None) => |w, i, c| store(w, i, c, St::B16),
        (MemKind::Store, 4, false, D16::None) => |w, i, c| store(w, i, c, St::Dw(1)),
        (MemKind::Store, 8, false, D16::None) => |w, i, c| store(w, i, c, St::Dw(2)),
        (MemKind::Store, 12, false, D16::None) => |w, i, c| store(w, i, c, St::Dw(3)),
        (MemKind::Store, 16, false, D16::None) => |w, i, c| store(w, i, c, St::Dw(4)),
        (MemKind::Store, 1, false, D16::Hi) => |w, i, c| store(w, i, c, St::HiB8),
        (MemKind::Store, 2, false, D16::Hi) => |w, i, c| store(w, i, c, St::HiB16),
        (MemKind::Atomic, 4 | 8, _, _) if f.atomic.is_some() => |w, i, c| {
            let f = i.op.facts();
            atomic(w, i, c, f.atomic.unwrap_or(AtomicOp::Add), f.bytes == 8)
        },
        // Cache invalidations: no cache is modelled, so nothing is stale (see the module docs).
        (MemKind::Cache, _, _, _) => |_, _, _| Ok(Flow::Next),
        _ => return None,
    };
    Some(h)
}
