//! Translating a block of lowered instructions (`select::Node`) into host code with cranelift.
//!
//! The compiled function is `fn(sgpr: *mut u32, vgpr: *mut u32, scc: *mut u8, lanes: *mut u64,
//! env: *mut CallEnv) -> u32`: the wave's scalar operand space (128 dwords), its VGPR file
//! (`num_vgprs` rows of 64 lanes, struct-of-arrays as in `Wave`), SCC (a Rust `bool`: 0 or 1),
//! where to add the lane-instructions it ran, and what callbacks into the interpreter get
//! (`cache::call`). It returns the exit taken (0: fall through, 1: branch taken, 2: a callback
//! stopped the block, 3: s_endpgm ended the wave, 4: the side exit was taken).
//!
//! Values stay in SSA form within a block: a register is loaded on first use and stored once at
//! the end if the block wrote it. A VGPR row is handled as 4-lane vectors (I32X4/F32X4: every
//! host cranelift targets has 128-bit vectors), 8 of them in wave32 and 16 in wave64; EXEC (and
//! VALU lane selects) become per-vector lane masks and every VALU result is blended into the old
//! value with `bitselect`, which is the ISA's "write only the lanes in EXEC".

use super::select::{
    Branch, BufAddr, Cond, Cvt, CvtF64, DualOp, F64Op, Footprint, Half, Logic, MaskDst, MaskSrc,
    MemOp, Node, Rmw, Shape, Src, Src64, Trans, VSrc64, S2, S64, V2, V3,
};
use crate::decode::opnd;
use crate::isa::D16;
use crate::wave::LANES;
use cranelift_codegen::ir::condcodes::{CondCode, FloatCC, IntCC};
use cranelift_codegen::ir::types::{F32, F32X4, F64, F64X2, I32, I32X4, I64, I64X2, I8, I8X16};
use cranelift_codegen::ir::{
    AbiParam, AtomicRmwOp, Endianness, InstBuilder, MemFlagsData, SigRef, Signature, StackSlotData,
    StackSlotKind, Type, Value,
};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use std::collections::HashMap;

/// A VGPR pair's chunk as two vectors of two f64 lanes (`Gen::f64_run`): its low row, the
/// vectors, and whether a node of the run wrote them (else they are the rows' cached ones,
/// zipped).
type Zipped = (u16, [Value; 2], bool);

/// An f64 node's operation and sources (`Node::F64` without its destination).
#[derive(Clone, Copy)]
struct F64Inst {
    op: F64Op,
    srcs: [VSrc64; 3],
    /// VOP3 source modifiers (bit k: source k).
    abs: u8,
    neg: u8,
}

/// One chunk of f64 code being made (`Gen::f64_run`, `Gen::f64_chunk`).
struct F64Chunk {
    c: usize,
    /// The pairs of the chunk held as f64 lanes.
    zipped: Vec<Zipped>,
    /// The host's results are taken without the NaN rule; the NaN lanes of the results
    /// written to the rows are gathered in `nans` (the caller checks them).
    speculate: bool,
    nans: Option<Value>,
}

impl F64Chunk {
    fn new(c: usize, speculate: bool) -> Self {
        F64Chunk {
            c,
            zipped: Vec::new(),
            speculate,
            nans: None,
        }
    }
}

/// Lanes per host vector.
const VL: usize = 4;

/// The f32 default NaN RDNA3 returns for an invalid operation (`soft::NanPolicy::RDNA3`).
const DEFAULT_NAN_F32: u32 = 0xffc0_0000;
/// The f32 quiet bit.
const QUIET_F32: u32 = 0x0040_0000;
/// The f64 default NaN and quiet bit (`soft::NanPolicy::RDNA3`, `FpFmt::default_nan`).
const DEFAULT_NAN_F64: u64 = 0xfff8_0000_0000_0000;
const QUIET_F64: u64 = 0x0008_0000_0000_0000;

/// Byte shuffles between two rows of 4 lanes (low dwords `a`, high dwords `b`) and two vectors
/// of 2 f64 lanes: lanes 0-1 and 2-3 interleaved, and back.
const ZIP_LO: [u8; 16] = [0, 1, 2, 3, 16, 17, 18, 19, 4, 5, 6, 7, 20, 21, 22, 23];
const ZIP_HI: [u8; 16] = [8, 9, 10, 11, 24, 25, 26, 27, 12, 13, 14, 15, 28, 29, 30, 31];
const UNZIP_LO: [u8; 16] = [0, 1, 2, 3, 8, 9, 10, 11, 16, 17, 18, 19, 24, 25, 26, 27];
const UNZIP_HI: [u8; 16] = [4, 5, 6, 7, 12, 13, 14, 15, 20, 21, 22, 23, 28, 29, 30, 31];

/// Fills in `func` (its signature set by the caller) with the code of `nodes`; with
/// `full_exec_variant`, as two variants chosen by EXEC on entry (`Gen::two_variants`).
#[allow(clippy::too_many_arguments)]
pub(crate) fn build(
    func: &mut cranelift_codegen::ir::Function,
    fctx: &mut FunctionBuilderContext,
    nodes: &[Node],
    shape: &Shape,
    target: cranelift_codegen::isa::TargetFrontendConfig,
    env: EnvLayout,
    self_loop: Option<SelfLoop>,
    full_exec_variant: bool,
    optimising: bool,
) {
    let call_conv = func.signature.call_conv;
    let wave64 = shape.wave64;
    let mut b = FunctionBuilder::new(func, fctx);
    let entry = b.create_block();
    b.append_block_params_for_function_params(entry);
    b.switch_to_block(entry);
    b.seal_block(entry);
    let p = b.block_params(entry).to_vec();
    // The block's code starts in its own cranelift block, which a self-loop jumps back to.
    let head = b.create_block();
    b.ins().jump(head, &[]);
    b.switch_to_block(head);
    if self_loop.is_none() {
        b.seal_block(head);
    }
    let mut g = Gen {
        sgpr_ptr: p[0],
        vgpr_ptr: p[1],
        scc_ptr: p[2],
        lanes_ptr: p[3],
        env_ptr: p[4],
        ptr_ty: target.pointer_type(),
        env,
        call_sig: None,
        lookup_sig: None,
        call_conv,
        b,
        sgpr: HashMap::new(),
        vgpr: HashMap::new(),
        scc: None,
        masks: None,
        known_masks: HashMap::new(),
        wave64,
        chunks: if wave64 { 64 / VL } else { 32 / VL },
        lanes: None,
        // (`select` compiles no float node for a MODE without a host form.)
        ftz32: shape.ftz32().unwrap_or_default(),
        ftz64: shape.ftz64().unwrap_or_default(),
        ieee: shape.fp.ieee,
        flushed: HashMap::new(),
        flush_of: HashMap::new(),
        lane_ctx: None,
        cold_paths: optimising,
        looping: self_loop.is_some(),
        ramp_proof: None,
        lane_run: None,
        full: None,
        ones: None,
        rewritten: RowSet::default(),
        masks_rewritten: RowSet::default(),
        read_soon: RowSet::default(),
        reset: Reset::default(),
        through: nodes.len() <= WRITE_THROUGH_MAX,
    };
    if full_exec_variant && self_loop.is_none() {
        g.two_variants(nodes, target);
        return;
    }
    let exit = g.nodes(nodes, Variant::Plain);
    g.finish(exit, target, self_loop.map(|l| (l, head)));
}

/// Nodes ahead whose VGPR reads keep a row's vectors cached (`Gen::forget_old_vgprs`): f64
/// code reads its operands as shuffled pairs, which cranelift computes once for a cached row.
const READ_WINDOW: usize = 3;

/// Most nodes in a block whose VGPR results are written through and whose cache of rows is
/// trimmed per node (`Gen::write_chunk`, `Gen::forget_old_vgprs`); longer blocks keep every
/// row cached, dirty until an exit or callback, as stop 19 did: f64_horner's 94-instruction
/// block of unrolled f64 code ran 6-8% more CPU time with the policy of shorter blocks
/// (`rewritten_later`) than without, in the same minutes, for the same number of host
/// instructions (callgrind), cause not found.
const WRITE_THROUGH_MAX: usize = 64;

/// A set of VGPR rows (below 256, `Shape::num_vgprs`).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct RowSet([u64; 4]);

impl RowSet {
    fn add(&mut self, row: u16) {
        self.0[(row as usize >> 6) & 3] |= 1 << (row & 63);
    }

    fn has(&self, row: u16) -> bool {
        self.0[(row as usize >> 6) & 3] & (1 << (row & 63)) != 0
    }
}

/// For each node, the VGPR rows that a later node of the block writes again before the next
/// node that may store everything held (`stores_held`): a row written now that is in the set
/// stays cached dirty instead of being written through (`Gen::write_chunk`). Its vectors then
/// live only up to their last reader and, superseded, are never stored; the last version of
/// each row is stored at once. (Rows rewritten within three nodes only, stop 20's rule, stored
/// every other version of the temporaries hash_mix's loop body rewrites five to ten
/// instructions later: wave64's 16 vectors a row made that 1,049 stores an iteration, half of
/// them spills of rows both stored and kept, and the loop 1.8x slower. Looking past a node
/// that stores what is held gains nothing there and costs a store of each dirty row on every
/// one of its exit paths.)
fn rewritten_later(nodes: &[Node]) -> Vec<RowSet> {
    written_later(nodes, |n, acc| {
        for r in vgpr_rows_written(n) {
            acc.add(r);
        }
    })
}

/// The look-ahead both [`rewritten_later`] and [`masks_rewritten_later`] make: for each node,
/// the keys that `written` adds for the nodes after it, up to the next node that stores what
/// is held ([`stores_held`], which ends the look-ahead because it stores every dirty key).
fn written_later(nodes: &[Node], written: impl Fn(&Node, &mut RowSet)) -> Vec<RowSet> {
    let mut out = vec![RowSet::default(); nodes.len()];
    let mut acc = RowSet::default();
    for (k, n) in nodes.iter().enumerate().rev() {
        out[k] = acc;
        if stores_held(n) {
            acc = RowSet::default();
        }
        written(n, &mut acc);
    }
    out
}

/// The scalar code a VALU lane-mask write to `code` is kept under (`Gen::write_mask`: wave64
/// writes the aligned pair, wave32 the one dword).
fn mask_key(code: u16, wave64: bool) -> u16 {
    if wave64 {
        code & !1
    } else {
        code
    }
}

/// Per node, the SGPR lane masks (by [`mask_key`]) that a later node of the block writes whole
/// again as a VALU lane mask (a carry-out or compare result) before any node that stores what
/// is held ([`stores_held`]): a mask written at node k is then read from the cache only until
/// it is replaced, so it is not stored at once but kept dirty, and as nothing stores it before
/// it is replaced its packing into bits is dead code (saxpy's carry chains: each
/// v_add_co_u32 / v_add_co_ci_u32 writes VCC, which the next replaces).
fn masks_rewritten_later(nodes: &[Node], wave64: bool) -> Vec<RowSet> {
    written_later(nodes, |n, acc| match *n {
        Node::VCarry { carry: dst, .. }
        | Node::Mad64 { carry: dst, .. }
        | Node::VCmp { dst, .. }
        | Node::VCmpF { dst, .. } => {
            if let MaskDst::Sgpr(code) = dst {
                if code != opnd::NULL {
                    acc.add(mask_key(code, wave64));
                }
            }
        }
        _ => {}
    })
}

/// Whether the code of `n` may store every dirty register it holds: on a callback's or side
/// exit's path, at the block's end, or (the full-EXEC variant) where a changed EXEC hands over
/// to the general variant.
fn stores_held(n: &Node) -> bool {
    let exec = |code: u16| code & !1 == opnd::EXEC_LO;
    match *n {
        Node::Call { .. }
        | Node::Mem { .. }
        | Node::SLoad { .. }
        | Node::Branch { .. }
        | Node::End
        | Node::SaveExec { .. } => true,
        Node::VCmp { dst, .. } | Node::VCmpF { dst, .. } => dst == MaskDst::Exec,
        Node::VCarry { carry, .. } | Node::Mad64 { carry, .. } => carry == MaskDst::Exec,
        Node::S2 { dst, .. }
        | Node::SMov { dst, .. }
        | Node::SNot { dst, .. }
        | Node::S64 { dst, .. } => exec(dst),
        _ => false,
    }
}

/// Wait counters (VM_CNT, LGKM_CNT) whose issue at a node is dead: a later `s_waitcnt` of the
/// block sets the counter to 0 before any node can read it.
#[derive(Clone, Copy, Default, PartialEq, Eq)]
struct Reset {
    vm: bool,
    lgkm: bool,
}

/// For each node, the counters ([`Reset`]) a later `s_waitcnt` field of 0 resets before any
/// node that may read or count them: a callback (`Call`, and the slow paths of `Mem` and
/// `SLoad`, whose handlers count), an exit (a branch, side exit or s_endpgm hands the wave's
/// counters on), s_sendmsg's dealloc (counts LGKM), or a wait for a value between 0 and the
/// field's largest (which takes the minimum with it). Between the issue and the reset nothing
/// reads the counter, so not adding the issue leaves the same state (`WaitCounts::*_issue`
/// then `s_waitcnt 0` is 0 either way); saxpy's s_load clause and second global_load are
/// each followed by such a wait.
fn counters_reset_later(nodes: &[Node]) -> Vec<Reset> {
    use crate::wave::WaitCounts as W;
    let mut out = vec![Reset::default(); nodes.len()];
    let mut acc = Reset::default();
    for (k, n) in nodes.iter().enumerate().rev() {
        out[k] = acc;
        match *n {
            Node::WaitCnt { vm, lgkm, .. } => {
                if vm == 0 {
                    acc.vm = true;
                } else if vm < W::VM_MAX {
                    acc.vm = false;
                }
                if lgkm == 0 {
                    acc.lgkm = true;
                } else if lgkm < W::LGKM_MAX {
                    acc.lgkm = false;
                }
            }
            Node::Call { .. }
            | Node::Mem { .. }
            | Node::SLoad { .. }
            | Node::Branch { .. }
            | Node::End
            | Node::DeallocVgprs => acc = Reset::default(),
            _ => {}
        }
    }
    out
}

/// How many `Node::SLoad`s from `nodes[k]` on form a clause `Gen::sload_clause` checks as
/// one: the same base pair, no SGPR offset, and no destination overlapping the base (so
/// every address is the one the base had at the first). 1 when no such group starts there.
fn sload_clause_len(nodes: &[Node]) -> usize {
    let Some(&Node::SLoad {
        sbase,
        soff: Src::Const(0),
        ..
    }) = nodes.first()
    else {
        return 1;
    };
    nodes
        .iter()
        .take_while(|n| match **n {
            Node::SLoad {
                sbase: b,
                soff: Src::Const(0),
                dst,
                n,
                ..
            } => b == sbase && (dst + n as u16 <= sbase || dst > sbase + 1),
            _ => false,
        })
        .count()
        .max(1)
}

/// The VGPR rows a lane-wise VALU node writes through `Gen::write_chunk` (empty for the
/// others).
fn vgpr_rows_written(n: &Node) -> std::ops::Range<u16> {
    match *n {
        Node::VMov { dst, .. }
        | Node::VNot { dst, .. }
        | Node::VCvt { dst, .. }
        | Node::V2 { dst, .. }
        | Node::V3 { dst, .. }
        | Node::VCarry { dst, .. }
        | Node::AlignBit { dst, .. }
        | Node::Fmac { dst, .. }
        | Node::VCnd { dst, .. } => dst..dst + 1,
        Node::Shift64 { dst, .. } | Node::Mad64 { dst, .. } | Node::F64 { dst, .. } => dst..dst + 2,
        _ => 0..0,
    }
}

/// Adds the VGPR rows a lane-wise VALU node reads to `rows` (none for the others).
fn vgpr_rows_read(n: &Node, rows: &mut RowSet) {
    let mut one = |s: Src| {
        if let Src::Vgpr(r) = s {
            rows.add(r);
        }
    };
    match *n {
        Node::VMov { a, .. } | Node::VNot { a, .. } | Node::VCvt { a, .. } => one(a),
        Node::V2 { a, b, .. }
        | Node::VCarry { a, b, .. }
        | Node::AlignBit { a, b, .. }
        | Node::VCnd { a, b, .. } => {
            one(a);
            one(b);
        }
        Node::Fmac { dst, a, b } => {
            one(a);
            one(b);
            one(Src::Vgpr(dst));
        }
        Node::V3 { a, b, c, .. } => {
            one(a);
            one(b);
            one(c);
        }
        Node::Shift64 { src, .. } => {
            rows.add(src);
            rows.add(src + 1);
        }
        Node::Mad64 { a, b, c, .. } => {
            one(a);
            one(b);
            if let VSrc64::Vgpr(r) = c {
                rows.add(r);
                rows.add(r + 1);
            }
        }
        Node::F64 { a, b, c, .. } => {
            for s in [a, b, c] {
                if let VSrc64::Vgpr(r) = s {
                    rows.add(r);
                    rows.add(r + 1);
                }
            }
        }
        _ => {}
    }
}

/// Which code `Gen::nodes` makes: the only one, or one of the two of `Gen::two_variants`.
#[derive(Clone, Copy)]
enum Variant<'r> {
    Plain,
    /// For waves whose EXEC is full: VALU results are stored whole, without blending in the
    /// inactive lanes' old values. After each instruction that changed EXEC the variant
    /// checks that it is still full and otherwise continues in the general variant at the
    /// resume block it records (node index, block).
    FullExec,
    /// The general variant, with the resume blocks the full-EXEC one jumps to.
    General(&'r [(usize, cranelift_codegen::ir::Block)]),
}

impl Gen<'_> {
    /// Translates `nodes`; returns how the last one leaves the block.
    fn nodes(&mut self, nodes: &[Node], variant: Variant) -> Exit {
        self.nodes_recording(nodes, variant, &mut Vec::new())
    }

    fn nodes_recording(
        &mut self,
        nodes: &[Node],
        variant: Variant,
        resumes: &mut Vec<(usize, cranelift_codegen::ir::Block)>,
    ) -> Exit {
        let mut exit = Exit::FallThrough;
        let rewritten = rewritten_later(nodes);
        let masks_rewritten = masks_rewritten_later(nodes, self.wave64);
        let reset = counters_reset_later(nodes);
        let mut next = 0;
        while next < nodes.len() {
            let first = next;
            let n = &nodes[first];
            // A node that may write the proven address rows ends the proof (`Gen::mem_op`
            // decides for its own node); an f64 run below covers more nodes than this one.
            if let Some(p) = self.ramp_proof {
                let ahead = nodes[first..]
                    .iter()
                    .take_while(|n| matches!(n, Node::F64 { .. } | Node::Nop))
                    .count()
                    .max(1);
                let kept = nodes[first..first + ahead]
                    .iter()
                    .all(|n| matches!(n, Node::Mem { .. }) || keeps_ramp(n, &p));
                if !kept {
                    self.ramp_proof = None;
                }
            }
            // A run of f64 nodes, chunk by chunk (`f64_run`). They change no EXEC, so neither
            // variant checks or resumes between them (checked for the general one), and they
            // touch no wait counter. (s_delay_alu and other hints between them do nothing.)
            let run = nodes[first..]
                .iter()
                .take_while(|n| matches!(n, Node::F64 { .. } | Node::Nop))
                .count();
            let f64s = nodes[first..first + run]
                .iter()
                .filter(|n| matches!(n, Node::F64 { .. }))
                .count();
            let resumes_in = match variant {
                Variant::General(rs) => rs.iter().any(|r| (first..first + run).contains(&r.0)),
                _ => false,
            };
            if f64s >= 2 && !resumes_in {
                self.masks_rewritten = masks_rewritten[first];
                self.read_soon = RowSet::default();
                for near in nodes.iter().skip(first).take(run + READ_WINDOW) {
                    vgpr_rows_read(near, &mut self.read_soon);
                }
                self.forget_old_vgprs();
                self.f64_run(&nodes[first..first + run]);
                next = first + run;
                continue;
            }
            self.rewritten = rewritten[first];
            self.masks_rewritten = masks_rewritten[first];
            self.read_soon = RowSet::default();
            // (This node's reads too: the cache is trimmed when it starts.)
            for near in nodes.iter().skip(first).take(READ_WINDOW + 1) {
                vgpr_rows_read(near, &mut self.read_soon);
            }
            let exec_before = match variant {
                Variant::FullExec => Some(self.exec_pair()),
                _ => None,
            };
            // A clause of s_loads is one node here: its last index is where a change of EXEC
            // would be checked (none of them writes EXEC).
            let clause = sload_clause_len(&nodes[first..]);
            let k = first + clause - 1;
            next = k + 1;
            self.reset = reset[k];
            exit = if clause > 1 {
                self.sload_clause(&nodes[first..=k], &reset[first..=k]);
                exit
            } else {
                self.one_node(n, exit)
            };
            match variant {
                Variant::Plain => {}
                Variant::FullExec => {
                    let after = self.cached_exec_pair();
                    if after != exec_before {
                        let rk = self.exec_check(k == nodes.len() - 1);
                        if let Some(rk) = rk {
                            resumes.push((k, rk));
                        }
                    }
                }
                Variant::General(rs) => {
                    if let Some(&(_, rk)) = rs.iter().find(|r| r.0 == k) {
                        self.resume_at(rk);
                    }
                }
            }
        }
        exit
    }

    /// The block as two variants chosen on entry by whether EXEC is full (every lane of the
    /// wave): most waves of most kernels run with all lanes, and their variant stores each
    /// VALU result without loading the old row and blending (`write_chunk`). Both variants
    /// compute the same state; the full-EXEC one leaves for the general one, at the same
    /// instruction boundary with every register stored, as soon as EXEC is not full after
    /// an instruction that changed it.
    fn two_variants(
        mut self,
        nodes: &[Node],
        target: cranelift_codegen::isa::TargetFrontendConfig,
    ) {
        let (lo, hi, fblk, pblk) = self.branch_on_full_exec();
        // The entry's cached values dominate both variants; each starts from them.
        let saved = (
            self.sgpr.clone(),
            self.vgpr.clone(),
            self.scc,
            self.masks.clone(),
        );
        self.b.switch_to_block(fblk);
        self.b.seal_block(fblk);
        self.full = Some((lo, hi));
        let mut resumes = Vec::new();
        let exit = self.nodes_recording(nodes, Variant::FullExec, &mut resumes);
        self.leave(exit);
        (self.sgpr, self.vgpr, self.scc, self.masks) = saved;
        self.ramp_proof = None;
        self.known_masks.clear();
        self.lanes = None;
        self.lane_run = None;
        self.full = None;
        self.ones = None;
        self.flush_of.clear();
        self.b.switch_to_block(pblk);
        self.b.seal_block(pblk);
        let exit = self.nodes(nodes, Variant::General(&resumes));
        self.leave(exit);
        self.b.finalize(target);
    }

    /// Branches to the first of two new blocks if EXEC is full, else to the second; returns
    /// EXEC's (low, high) values and the blocks.
    fn branch_on_full_exec(
        &mut self,
    ) -> (
        Value,
        Value,
        cranelift_codegen::ir::Block,
        cranelift_codegen::ir::Block,
    ) {
        let (lo, hi) = self.exec_pair();
        let e = self.exec64();
        let all = self.lane_mask() as i64;
        let is_full = self.b.ins().icmp_imm_u(IntCC::Equal, e, all);
        let yes = self.b.create_block();
        let no = self.b.create_block();
        self.b.ins().brif(is_full, yes, &[], no, &[]);
        (lo, hi, yes, no)
    }

    /// EXEC's (low, high) scalar values (wave32: (low, low)), loaded if not cached.
    fn exec_pair(&mut self) -> (Value, Value) {
        let lo = self.get_sgpr(opnd::EXEC_LO);
        let hi = if self.wave64 {
            self.get_sgpr(opnd::EXEC_HI)
        } else {
            lo
        };
        (lo, hi)
    }

    fn cached_exec_pair(&self) -> Option<(Value, Value)> {
        let lo = self.sgpr.get(&opnd::EXEC_LO)?.0;
        let hi = if self.wave64 {
            self.sgpr.get(&opnd::EXEC_HI)?.0
        } else {
            lo
        };
        Some((lo, hi))
    }

    /// In the full-EXEC variant after an instruction that changed EXEC (or a callback that
    /// may have): goes on if EXEC is still full, else stores what the variant holds and
    /// continues at a new resume block of the general variant (returned). After the block's
    /// last node nothing follows, so nothing is checked.
    fn exec_check(&mut self, last: bool) -> Option<cranelift_codegen::ir::Block> {
        self.full = None;
        if last {
            return None;
        }
        let (lo, hi, cont, bail) = self.branch_on_full_exec();
        self.b.switch_to_block(bail);
        self.b.seal_block(bail);
        self.store_dirty();
        let n = match self.lanes_so_far() {
            Some(n) => n,
            None => self.b.ins().iconst(I64, 0),
        };
        let rk = self.b.create_block();
        self.b.append_block_param(rk, I64);
        self.b.ins().jump(rk, &[n.into()]);
        self.b.switch_to_block(cont);
        self.b.seal_block(cont);
        self.full = Some((lo, hi));
        Some(rk)
    }

    /// In the general variant at the boundary where the full-EXEC one may join it: stores
    /// everything, forgets the caches and continues in `rk` with the lane count as its
    /// parameter, as the full-EXEC variant arrives there.
    fn resume_at(&mut self, rk: cranelift_codegen::ir::Block) {
        self.store_dirty();
        let n = match self.lanes_so_far() {
            Some(n) => n,
            None => self.b.ins().iconst(I64, 0),
        };
        self.b.ins().jump(rk, &[n.into()]);
        self.b.switch_to_block(rk);
        self.b.seal_block(rk);
        self.sgpr.clear();
        self.vgpr.clear();
        self.scc = None;
        self.masks = None;
        self.known_masks.clear();
        self.flush_of.clear();
        self.lanes = Some(self.b.block_params(rk)[0]);
        self.lane_run = None;
        // (The full-EXEC variant arrives here without the general one's values.)
        self.ramp_proof = None;
    }

    /// One node's code; `exit` is how the block leaves so far.
    fn one_node(&mut self, n: &Node, mut exit: Exit) -> Exit {
        let g = self;
        g.forget_old_vgprs();
        g.count_lanes();
        if let Node::Branch {
            cond, side: true, ..
        } = n
        {
            g.side_exit(*cond);
        } else if let Node::Branch { cond, .. } = n {
            exit = Exit::Branch(g.branch_cond(*cond));
        } else if let Node::End = n {
            exit = Exit::Ended;
        } else if let Node::Call { idx, fp } = n {
            g.call(*idx, fp.as_ref());
        } else if let Node::Mem { idx, fp, m } = n {
            g.mem_op(*idx, fp, m);
        } else if let Node::SLoad {
            idx,
            fp,
            sbase,
            soff,
            imm,
            dst,
            n,
            slot,
        } = *n
        {
            g.sload(idx, &fp, sbase, soff, imm, dst, n, slot);
        } else {
            g.node(n);
        }
        exit
    }
}

/// How a block's last node leaves it.
#[derive(Clone, Copy)]
enum Exit {
    /// Exit 0, to the next instruction.
    FallThrough,
    /// A branch: exit 1 when its condition (I8 0/1) holds, else exit 0.
    Branch(Value),
    /// s_endpgm: exit 3.
    Ended,
}

/// A block whose taken branch goes back to its own start runs its next iterations without
/// leaving the compiled code while the step loop's budget allows: at the branch it stores what
/// it holds, adds `len` to the instructions done (`u64` at `done` in `*env`) and jumps back if
/// the branch is taken and another `len` instructions fit in the budget (`u64` at `budget`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct SelfLoop {
    pub len: u32,
    pub done: i32,
    pub budget: i32,
}

/// Where compiled code finds what it needs in `*env` (`cache::CallEnv`, `repr(C)`), and the
/// wait counters' byte offsets in `WaitCounts`. Read at run time, so the code holds no address
/// of this process (`jit::disk` reuses it in others).
#[derive(Clone, Copy, Debug)]
pub(crate) struct EnvLayout {
    /// `cache::call`'s address.
    pub callback: i32,
    /// `cache::region_lookup`'s address.
    pub lookup: i32,
    /// `select::trans_lanes`'s address.
    pub trans: i32,
    /// The region cache's slots (a pointer to `[cache::Slot; SLOTS]`).
    pub regions: i32,
    /// The workgroup's LDS: host pointer and length in bytes.
    pub lds_ptr: i32,
    pub lds_len: i32,
    /// A pointer to the wave's `WaitCounts`, and its fields' offsets.
    pub cnt: i32,
    /// A pointer to the wave's STATUS register (u32).
    pub status: i32,
    pub vm: i32,
    pub vs: i32,
    pub lgkm: i32,
    pub exp: i32,
}

/// The signature of every block function (five pointers in, the exit number out).
pub(crate) fn signature(
    sig: &mut cranelift_codegen::ir::Signature,
    ptr: cranelift_codegen::ir::Type,
) {
    for _ in 0..5 {
        sig.params.push(AbiParam::new(ptr));
    }
    sig.returns.push(AbiParam::new(I32));
}

struct Gen<'a> {
    b: FunctionBuilder<'a>,
    sgpr_ptr: Value,
    vgpr_ptr: Value,
    scc_ptr: Value,
    lanes_ptr: Value,
    env_ptr: Value,
    ptr_ty: Type,
    /// Where in `*env` the code finds `cache::call`'s address and the rest (loaded at run time,
    /// so the code holds no address of this process: `jit::disk` reuses it in others), and the
    /// callbacks' signatures once imported.
    env: EnvLayout,
    call_sig: Option<SigRef>,
    lookup_sig: Option<SigRef>,
    call_conv: CallConv,
    /// Scalar registers: current value and whether the block wrote it.
    sgpr: HashMap<u16, (Value, bool)>,
    /// VGPR vectors by (row, chunk).
    vgpr: HashMap<(u16, usize), (Value, bool)>,
    scc: Option<(Value, bool)>,
    /// EXEC as per-chunk lane masks, for the EXEC values (lo, hi) they were made from.
    masks: Option<(Value, Value, Vec<Value>)>,
    /// Per-chunk lane masks of lane-mask values a VALU instruction computed from vectors (a
    /// carry-out, a compare), by the (low, high) scalar values written (wave32: (low, low)):
    /// a later reader of that value (carry-in, v_cndmask) takes the vectors instead of
    /// expanding the bits again (`masks_of`). Keyed by SSA value, so a value the block
    /// replaced is never found.
    known_masks: HashMap<(Value, Value), Vec<Value>>,
    wave64: bool,
    chunks: usize,
    /// Lane-instructions so far (I64), without `lane_run`.
    lanes: Option<Value>,
    /// The EXEC (low, high scalar values) of the latest instructions and how many in a row
    /// had it: counted as one popcount times the run's length when EXEC changes or the block
    /// leaves, not one add per instruction.
    lane_run: Option<((Value, Value), u32)>,
    /// The EXEC (low, high) values known to be full (the full-EXEC variant of
    /// `Gen::two_variants`, until the next change of EXEC): `exec_masks` gives all-ones
    /// masks for them.
    full: Option<(Value, Value)>,
    /// The all-ones mask vector those masks are (`write_chunk` stores without blending).
    ones: Option<Value>,
    /// VGPR rows a later node of the block writes again ([`rewritten_later`]), and rows
    /// this node and the next few read ([`READ_WINDOW`]).
    rewritten: RowSet,
    read_soon: RowSet,
    /// SGPR lane masks a later node writes again before anything stores them
    /// ([`masks_rewritten_later`]).
    masks_rewritten: RowSet,
    /// VGPR results are written through and the cache trimmed ([`WRITE_THROUGH_MAX`]).
    through: bool,
    /// The wait counters this node's issue would add to that a later s_waitcnt resets to 0
    /// before anything can read them ([`counters_reset_later`]).
    reset: Reset,
    /// MODE's denormal flushing of f32 and of f64 values (flush inputs, flush outputs) that
    /// the float code applies around the host operation (`FpCtl::host_flush`).
    ftz32: (bool, bool),
    ftz64: (bool, bool),
    /// MODE.IEEE at launch (v_min/v_max quiet a signalling NaN under it; blocks with float
    /// code run only while the wave's MODE has the same bit).
    ieee: bool,
    /// I32X4 values whose lanes hold no f32 denormal (so flushing them changes nothing): in
    /// every lane (`None`), or in the lanes of an EXEC chunk mask (`Some`: a result blended
    /// into a row's old value). A fact about an SSA value, true wherever the value is seen.
    flushed: HashMap<Value, Option<Value>>,
    /// The flushed form of values `in32` flushed (forgotten where the code joins paths that
    /// did not compute it: `two_variants`, `resume_at`).
    flush_of: HashMap<Value, Value>,
    /// The EXEC mask of the chunk being computed, when every effect of the computation is
    /// confined to its lanes (`vmap`, `gather_mask`, VOPD): values flushed in those lanes
    /// need no flush there.
    lane_ctx: Option<Value>,
    /// Rare cases (NaN results) in cold blocks (`if_any_lane`): for the optimising tier,
    /// whose register allocator keeps values in registers across the branches; the quick
    /// tier's single-pass allocator stores every live value at each branch, which cost it
    /// more than the branches saved.
    cold_paths: bool,
    /// The block is a self-loop (`SelfLoop`): its accesses run once an iteration.
    looping: bool,
    /// The address rows of the latest whole-wave unit-stride access (`contiguous`), kept while
    /// no node may write them ([`keeps_ramp`]).
    ramp_proof: Option<RampProof>,
}

/// What a GLOBAL/FLAT access's whole-wave unit-stride check (`Gen::contiguous`) showed of its
/// address rows: row `row` holds lane 0's value plus 4 * lane in every lane of the wave and,
/// with `high`, row `row + 1` one value in every lane, where `ok` (I8, 1 or 0) is 1. A later
/// access of the same rows, none of them written in between, need not check them again
/// (saxpy's global_store at the address of its second global_load).
#[derive(Clone, Copy)]
struct RampProof {
    row: u16,
    high: bool,
    ok: Value,
}

/// Whether node `n` (not a `Node::Mem`, which `Gen::mem_op` accounts for) leaves the rows of
/// `p` as they are: scalar nodes and lane-wise VALU nodes that write other rows
/// ([`vgpr_rows_written`] is exact for them). Anything else (callbacks, VOPD, conversions,
/// exits) ends the proof.
fn keeps_ramp(n: &Node, p: &RampProof) -> bool {
    let rows = p.row..p.row + 1 + u16::from(p.high);
    match *n {
        Node::Nop
        | Node::WaitCnt { .. }
        | Node::SLoad { .. }
        | Node::VCmp { .. }
        | Node::VCmpF { .. }
        | Node::S2 { .. }
        | Node::SMov { .. }
        | Node::SNot { .. }
        | Node::SCmp { .. }
        | Node::SCmp64 { .. }
        | Node::S64 { .. }
        | Node::SaveExec { .. } => true,
        Node::VMov { .. }
        | Node::VNot { .. }
        | Node::VCvt { .. }
        | Node::V2 { .. }
        | Node::V3 { .. }
        | Node::VCarry { .. }
        | Node::AlignBit { .. }
        | Node::Fmac { .. }
        | Node::VCnd { .. }
        | Node::Shift64 { .. }
        | Node::Mad64 { .. }
        | Node::F64 { .. } => {
            let w = vgpr_rows_written(n);
            w.end <= rows.start || rows.end <= w.start
        }
        _ => false,
    }
}

/// Whether f32 bits `x` are a denormal (exponent zero, mantissa not).
fn is_denormal32(x: u32) -> bool {
    x & 0x7f80_0000 == 0 && x & 0x007f_ffff != 0
}

/// The chunks of a row of lane values: computed ones, or a VGPR row's (`Gen::peek_v`).
#[derive(Clone, Copy)]
enum Chunks<'a> {
    Vals(&'a [Value]),
    Row(u16),
}

/// Byte offset of chunk `chunk` (lanes `VL * chunk ..`) of VGPR row `row` in the register file.
fn vgpr_offset(row: u16, chunk: usize) -> i32 {
    ((row as usize * LANES + chunk * VL) * 4) as i32
}

fn mem() -> MemFlagsData {
    // The register files are plain host memory the caller owns exclusively for the call; rows
    // are 4-byte aligned only, so no alignment is promised.
    MemFlagsData::new().with_notrap()
}

/// Guest memory reached by compiled loads and stores: host memory of an allocation or LDS that
/// the wave-wide check showed in bounds (so no trap), little-endian as the ISA's.
fn guest_mem() -> MemFlagsData {
    MemFlagsData::new()
        .with_notrap()
        .with_endianness(Endianness::Little)
}

fn vec_bits() -> MemFlagsData {
    MemFlagsData::new().with_endianness(Endianness::Little)
}

impl Gen<'_> {
    fn iconst32(&mut self, v: u32) -> Value {
        self.b.ins().iconst(I32, v as i32 as i64)
    }

    fn splat(&mut self, v: u32) -> Value {
        let s = self.iconst32(v);
        self.b.ins().splat(I32X4, s)
    }

    fn vconst(&mut self, lanes: [u32; VL]) -> Value {
        let bytes: Vec<u8> = lanes.iter().flat_map(|l| l.to_le_bytes()).collect();
        let c = self.b.func.dfg.constants.insert(bytes.into());
        self.b.ins().vconst(I32X4, c)
    }

    // ---------------------------------------------------------------- scalar registers

    fn get_sgpr(&mut self, code: u16) -> Value {
        if code == opnd::NULL {
            return self.iconst32(0);
        }
        if let Some(&(v, _)) = self.sgpr.get(&code) {
            return v;
        }
        let v = self
            .b
            .ins()
            .load(I32, mem(), self.sgpr_ptr, code as i32 * 4);
        self.sgpr.insert(code, (v, false));
        v
    }

    /// `operand::write_sgpr` for a code `select` accepted (NULL drops the value).
    fn set_sgpr(&mut self, code: u16, v: Value) {
        if code != opnd::NULL {
            self.sgpr.insert(code, (v, true));
        }
    }

    /// `operand::write_sgpr64` for a code `select` accepted.
    fn set_sgpr64(&mut self, code: u16, v: Value) {
        if code == opnd::NULL {
            return;
        }
        let c = code & !1;
        let lo = self.b.ins().ireduce(I32, v);
        let hi = self.b.ins().ushr_imm_u(v, 32);
        let hi = self.b.ins().ireduce(I32, hi);
        self.set_sgpr(c, lo);
        self.set_sgpr(c + 1, hi);
    }

    fn src32(&mut self, s: Src) -> Value {
        match s {
            Src::Sgpr(c) => self.get_sgpr(c),
            Src::Const(k) => self.iconst32(k),
            // `select` gives VGPR sources only to VALU ops, which read them per chunk.
            Src::Vgpr(_) => self.iconst32(0),
        }
    }

    fn join64(&mut self, lo: Value, hi: Value) -> Value {
        let lo = self.b.ins().uextend(I64, lo);
        let hi = self.b.ins().uextend(I64, hi);
        let hi = self.b.ins().ishl_imm_u(hi, 32);
        self.b.ins().bor(lo, hi)
    }

    fn src64(&mut self, s: Src64) -> Value {
        match s {
            Src64::Const(k) => self.b.ins().iconst(I64, k as i64),
            Src64::Pair(lo, hi) => {
                let (lo, hi) = (self.src32(lo), self.src32(hi));
                self.join64(lo, hi)
            }
        }
    }

    fn get_scc(&mut self) -> Value {
        if let Some((v, _)) = self.scc {
            return v;
        }
        let v = self.b.ins().load(I8, mem(), self.scc_ptr, 0);
        self.scc = Some((v, false));
        v
    }

    /// SCC from a cranelift condition (an I8 0/1 from icmp).
    fn set_scc(&mut self, v: Value) {
        self.scc = Some((v, true));
    }

    fn nonzero(&mut self, v: Value) -> Value {
        self.b.ins().icmp_imm_s(IntCC::NotEqual, v, 0)
    }

    /// EXEC as the wave sees it (`Wave::exec`): the low half in wave32, both in wave64 (I64).
    fn exec64(&mut self) -> Value {
        let lo = self.get_sgpr(opnd::EXEC_LO);
        if self.wave64 {
            let hi = self.get_sgpr(opnd::EXEC_HI);
            self.join64(lo, hi)
        } else {
            self.b.ins().uextend(I64, lo)
        }
    }

    fn vcc64(&mut self) -> Value {
        let lo = self.get_sgpr(opnd::VCC_LO);
        if self.wave64 {
            let hi = self.get_sgpr(opnd::VCC_HI);
            self.join64(lo, hi)
        } else {
            self.b.ins().uextend(I64, lo)
        }
    }

    fn lane_mask(&self) -> u64 {
        if self.wave64 {
            u64::MAX
        } else {
            u32::MAX as u64
        }
    }

    /// Adds popcount(EXEC) to the lane-instruction count (the step loop's rule: every
    /// instruction counts the lanes EXEC has when it starts).
    fn count_lanes(&mut self) {
        let lo = self.get_sgpr(opnd::EXEC_LO);
        let hi = if self.wave64 {
            self.get_sgpr(opnd::EXEC_HI)
        } else {
            lo
        };
        match &mut self.lane_run {
            Some((e, n)) if *e == (lo, hi) => *n += 1,
            _ => {
                self.lanes = self.lanes_so_far();
                self.lane_run = Some(((lo, hi), 1));
            }
        }
    }

    /// The lane-instructions counted so far (`lanes` plus the current run), computed here.
    fn lanes_so_far(&mut self) -> Option<Value> {
        let Some(((lo, hi), n)) = self.lane_run else {
            return self.lanes;
        };
        let e = if self.wave64 {
            self.join64(lo, hi)
        } else {
            self.b.ins().uextend(I64, lo)
        };
        let pc = self.b.ins().popcnt(e);
        let run = if n == 1 {
            pc
        } else {
            self.b.ins().imul_imm_u(pc, n as i64)
        };
        Some(match self.lanes {
            Some(acc) => self.b.ins().iadd(acc, run),
            None => run,
        })
    }

    // ---------------------------------------------------------------- vectors

    /// Per-chunk lane masks (all ones where the bit of `m` is set) of a 64-bit lane mask given
    /// as its two 32-bit halves.
    fn masks_of(&mut self, lo: Value, hi: Value) -> Vec<Value> {
        if let Some(m) = self.known_masks.get(&(lo, hi)) {
            return m.clone();
        }
        let (slo, shi) = (self.b.ins().splat(I32X4, lo), self.b.ins().splat(I32X4, hi));
        (0..self.chunks)
            .map(|c| {
                let word = if c < 8 { slo } else { shi };
                let s = (c % 8) * VL;
                let bits = self.vconst([1 << s, 2 << s, 4 << s, 8 << s]);
                let m = self.b.ins().band(word, bits);
                // (Each lane's one bit set: equal to it, one compare where "not zero" on
                // x86 is a compare and an inversion.)
                self.b.ins().icmp(IntCC::Equal, m, bits)
            })
            .collect()
    }

    fn exec_masks(&mut self) -> Vec<Value> {
        let (lo, hi) = self.exec_pair();
        if self.full == Some((lo, hi)) {
            let ones = match self.ones {
                Some(v) => v,
                None => {
                    let v = self.splat(u32::MAX);
                    self.ones = Some(v);
                    v
                }
            };
            return vec![ones; self.chunks];
        }
        if let Some((l, h, m)) = &self.masks {
            if *l == lo && *h == hi {
                return m.clone();
            }
        }
        let m = self.masks_of(lo, hi);
        self.masks = Some((lo, hi, m.clone()));
        m
    }

    fn get_v(&mut self, row: u16, chunk: usize) -> Value {
        if let Some(&(v, _)) = self.vgpr.get(&(row, chunk)) {
            return v;
        }
        let v = self
            .b
            .ins()
            .load(I32X4, mem(), self.vgpr_ptr, vgpr_offset(row, chunk));
        self.vgpr.insert((row, chunk), (v, false));
        v
    }

    /// Chunk `chunk` of VGPR `row` without caching it: the cached vector, else a load (for code
    /// in a block that does not dominate the rest of the node, where a cached load would be
    /// used undefined, and for reads that need not stay live).
    fn peek_v(&mut self, row: u16, chunk: usize) -> Value {
        match self.vgpr.get(&(row, chunk)) {
            Some(&(v, _)) => v,
            None => self
                .b
                .ins()
                .load(I32X4, mem(), self.vgpr_ptr, vgpr_offset(row, chunk)),
        }
    }

    /// Lane `lane` of VGPR `row` (I32) without caching it (see `peek_v`).
    fn peek_lane(&mut self, row: u16, lane: usize) -> Value {
        let (chunk, l) = (lane / VL, lane % VL);
        match self.vgpr.get(&(row, chunk)) {
            Some(&(v, _)) => self.b.ins().extractlane(v, l as u8),
            None => {
                let off = vgpr_offset(row, chunk) + 4 * l as i32;
                self.b.ins().load(I32, mem(), self.vgpr_ptr, off)
            }
        }
    }

    fn chunk_of(&mut self, src: Chunks, c: usize) -> Value {
        match src {
            Chunks::Vals(v) => v[c],
            Chunks::Row(r) => self.peek_v(r, c),
        }
    }

    /// Starts the next node: forgets the clean VGPR vectors of rows the next few nodes do not
    /// read (they are in the register file: a later reader loads them again). Kept in SSA
    /// across the block, a wave's rows outnumber the host's vector registers and the
    /// allocator spills them, a stack store and load where one load from the register file
    /// does; rows read soon stay (f64 code reads its operands as shuffled pairs, which
    /// cranelift computes once for a cached row).
    fn forget_old_vgprs(&mut self) {
        if !self.through {
            return;
        }
        let keep = self.read_soon;
        self.vgpr
            .retain(|(row, _), (_, dirty)| *dirty || keep.has(*row));
    }

    /// Chunk `chunk` of a VALU source.
    fn vsrc(&mut self, s: Src, chunk: usize) -> Value {
        match s {
            Src::Vgpr(r) => self.get_v(r, chunk),
            Src::Sgpr(c) => {
                let v = self.get_sgpr(c);
                self.b.ins().splat(I32X4, v)
            }
            Src::Const(k) => {
                let v = self.splat(k);
                if !is_denormal32(k) {
                    self.mark_flushed(v);
                }
                v
            }
        }
    }

    /// Writes `vals` (one per chunk) to VGPR `row` in the lanes of `masks`. The row is stored
    /// at once (write-through) and its vectors stay cached clean: a vector kept dirty until the
    /// block's end lives across all the code after its write, and with a wave's 8 or 16 vectors
    /// per row that overflowed the host's 16 vector registers, so the allocator spilled them
    /// and the exit stored them again (saxpy's optimised block: a 2.4 KB frame and a thousand
    /// vector moves). Each exit, callback and side exit stores what is dirty, so the state any
    /// of them leaves is the same either way.
    fn vwrite(&mut self, row: u16, vals: Vec<Value>, masks: &[Value]) {
        for (c, v) in vals.into_iter().enumerate() {
            self.write_chunk(row, c, v, masks[c]);
        }
    }

    /// Writes `v` to chunk `c` of VGPR `row` in the lanes of `mask` (see [`Gen::vwrite`]).
    fn write_chunk(&mut self, row: u16, c: usize, v: Value, mask: Value) {
        // (Every lane: the full-EXEC variant's masks, `exec_masks`.)
        let new = if Some(mask) == self.ones {
            v
        } else {
            let old = self.get_v(row, c);
            let new = self.b.ins().bitselect(mask, v, old);
            // Free of denormals where the value was written, if the value was there.
            if let Some(&m) = self.flushed.get(&v) {
                if m.is_none() || m == Some(mask) {
                    self.flushed.insert(new, Some(mask));
                }
            }
            new
        };
        // Written through unless a later node writes the row again.
        let dirty = !self.through || self.rewritten.has(row);
        if !dirty {
            self.store_v(row, c, new);
        }
        self.vgpr.insert((row, c), (new, dirty));
    }

    /// A lane-wise VALU result written chunk by chunk: `f` computes chunk `c` (reading only
    /// chunk `c` of its sources), which is written before the next chunk's sources are read.
    /// Lanes are independent, so this is the same as computing every chunk first; but loads
    /// stay in the order they are emitted (they may alias the stores), and loading every
    /// chunk's sources before the first store kept 16-24 vectors live at once (spilled).
    fn vmap(&mut self, row: u16, masks: &[Value], mut f: impl FnMut(&mut Self, usize) -> Value) {
        for (c, &mask) in masks.iter().enumerate().take(self.chunks) {
            self.lane_ctx = Some(mask);
            let v = f(self, c);
            self.lane_ctx = None;
            self.write_chunk(row, c, v, mask);
        }
    }

    fn as_f32x4(&mut self, v: Value) -> Value {
        self.b.ins().bitcast(F32X4, vec_bits(), v)
    }

    fn as_i32x4(&mut self, v: Value) -> Value {
        self.b.ins().bitcast(I32X4, vec_bits(), v)
    }

    /// `FpFmt::flush` of f32 (I32, I32X4) or f64 (I64, I64X2) bits: a denormal becomes the
    /// zero of its sign, everything else (zeros, NaNs included) is kept.
    fn ftz(&mut self, v: Value) -> Value {
        let ty = self.b.func.dfg.value_type(v);
        let (exp, sign) = if ty.lane_bits() == 32 {
            (0x7f80_0000u64, 0x8000_0000u64)
        } else {
            (0x7ff0_0000_0000_0000, 1 << 63)
        };
        if !ty.is_vector() {
            let e = self.b.ins().band_imm_u(v, exp as i64);
            let den = self.b.ins().icmp_imm_u(IntCC::Equal, e, 0);
            let s = self.b.ins().band_imm_u(v, sign as i64);
            return self.b.ins().select(den, s, v);
        }
        // (RDNA3 ISA guide, Wave State, "MODE register": FP_DENORM flushes to a zero of the
        // same sign.) v & !(den >> 1): the all-ones lanes of `den` shifted onto the magnitude
        // bits clear them and keep the sign (pand, pcmpeq, psrl, pandn: one constant fewer than
        // selecting v & sign, and no two-uop blend).
        let (e, zero) = if ty == I32X4 {
            (self.splat(exp as u32), self.splat(0))
        } else {
            (self.splat64(exp), self.splat64(0))
        };
        let ev = self.b.ins().band(v, e);
        let den = self.b.ins().icmp(IntCC::Equal, ev, zero);
        let one = self.iconst32(1);
        let mag = self.b.ins().ushr(den, one);
        self.b.ins().band_not(v, mag)
    }

    /// An f32 input (I32X4) as the ALU reads it under MODE (flushed if its inputs are): not
    /// flushed again where it is known to hold no denormal in the lanes that matter here
    /// (`flushed`), and flushed once per value.
    fn in32(&mut self, v: Value) -> Value {
        if !self.ftz32.0 || self.is_flushed(v) {
            return v;
        }
        if let Some(&f) = self.flush_of.get(&v) {
            return f;
        }
        let f = self.ftz(v);
        self.flush_of.insert(v, f);
        self.flushed.insert(f, None);
        f
    }

    /// Whether `v`'s lanes that the current computation uses hold no f32 denormal.
    fn is_flushed(&self, v: Value) -> bool {
        match self.flushed.get(&v) {
            Some(None) => true,
            Some(Some(m)) => self.lane_ctx == Some(*m),
            None => false,
        }
    }

    /// Records that `v` holds no f32 denormal in any lane.
    fn mark_flushed(&mut self, v: Value) {
        self.flushed.insert(v, None);
    }

    /// An f32 result as the ALU writes it under MODE (flushed if its outputs are).
    fn out32(&mut self, v: Value) -> Value {
        self.ftz_if(self.ftz32.1, v)
    }

    /// `r`, the final result of an f32 op that flushed its output (`out32`) and then applied
    /// the NaN rule (a NaN is no denormal), recorded as flushed.
    fn flushed_result(&mut self, r: Value) -> Value {
        if self.ftz32.1 {
            self.mark_flushed(r);
        }
        r
    }

    fn in64(&mut self, v: Value) -> Value {
        self.ftz_if(self.ftz64.0, v)
    }

    fn out64(&mut self, v: Value) -> Value {
        self.ftz_if(self.ftz64.1, v)
    }

    fn ftz_if(&mut self, on: bool, v: Value) -> Value {
        if on {
            self.ftz(v)
        } else {
            v
        }
    }

    fn is_nan(&mut self, f: Value) -> Value {
        let m = self.b.ins().fcmp(FloatCC::Unordered, f, f);
        self.mask_i32x4(m)
    }

    fn mask_i32x4(&mut self, m: Value) -> Value {
        // Float compares give an I32X4 lane mask already; keep the type explicit.
        if self.b.func.dfg.value_type(m) == I32X4 {
            m
        } else {
            self.b.ins().bitcast(I32X4, vec_bits(), m)
        }
    }

    /// The RDNA3 NaN result of an f32 op with inputs `srcs` in operand order (integer
    /// vectors): the first NaN input quieted, else the default NaN (an invalid operation).
    /// `soft::nan_of` / `soft::invalid` with `NanPolicy::RDNA3`.
    fn nan_result(&mut self, srcs: &[Value]) -> Value {
        let mut r = self.splat(DEFAULT_NAN_F32);
        let q = self.splat(QUIET_F32);
        for &s in srcs.iter().rev() {
            let f = self.as_f32x4(s);
            let nan = self.is_nan(f);
            let quiet = self.b.ins().bor(s, q);
            r = self.b.ins().bitselect(nan, quiet, r);
        }
        r
    }

    /// Host result `r` (integer vector) of an f32 op where it is not NaN, the ISA's NaN rule
    /// where it is (the interpreter's fast path redoes NaN lanes exactly; this is that rule).
    /// The rule is code off the hot path, entered only when a lane of `r` is NaN.
    fn fix_nan(&mut self, r: Value, srcs: &[Value]) -> Value {
        let rf = self.as_f32x4(r);
        let nan = self.is_nan(rf);
        self.if_any_lane(nan, r, |g| {
            let n = g.nan_result(srcs);
            g.b.ins().bitselect(nan, n, r)
        })
    }

    /// `r`, or where a lane of lane mask `m` (I32X4 or I64X2) is set, what `cold` computes in
    /// a cold block (a NaN result is rare; its exact rule costs several times the op). `cold`
    /// must not leave values in the caches: they do not dominate the code that follows.
    fn if_any_lane(&mut self, m: Value, r: Value, cold: impl FnOnce(&mut Self) -> Value) -> Value {
        if !self.cold_paths {
            return cold(self);
        }
        let any = self.b.ins().vany_true(m);
        let slow = self.b.create_block();
        let join = self.b.create_block();
        let ty = self.b.func.dfg.value_type(r);
        let out = self.b.append_block_param(join, ty);
        self.b.set_cold_block(slow);
        self.b.ins().brif(any, slow, &[], join, &[r.into()]);
        self.b.switch_to_block(slow);
        self.b.seal_block(slow);
        let fixed = cold(self);
        self.b.ins().jump(join, &[fixed.into()]);
        self.b.switch_to_block(join);
        self.b.seal_block(join);
        out
    }

    /// A per-lane shift by a per-lane count (host SIMD shifts take one count for all lanes).
    fn shift_lanes(&mut self, v: Value, count: Value, kind: u8) -> Value {
        let mut out = v;
        for l in 0..VL as u8 {
            let x = self.b.ins().extractlane(v, l);
            let n = self.b.ins().extractlane(count, l);
            let n = self.b.ins().band_imm_u(n, 31);
            let y = match kind {
                0 => self.b.ins().ishl(x, n),
                1 => self.b.ins().ushr(x, n),
                _ => self.b.ins().sshr(x, n),
            };
            out = self.b.ins().insertlane(out, y, l);
        }
        out
    }

    /// `v << / >> (count & 31)`: one vector shift when the count is the same in every lane.
    fn shift(&mut self, v: Value, count: Src, chunk: usize, kind: u8) -> Value {
        match count {
            Src::Vgpr(_) => {
                let n = self.vsrc(count, chunk);
                self.shift_lanes(v, n, kind)
            }
            _ => {
                let n = self.src32(count);
                let n = self.b.ins().band_imm_u(n, 31);
                match kind {
                    0 => self.b.ins().ishl(v, n),
                    1 => self.b.ins().ushr(v, n),
                    _ => self.b.ins().sshr(v, n),
                }
            }
        }
    }

    fn v2(&mut self, op: V2, a: Src, b: Src, c: usize) -> Value {
        let x = self.vsrc(a, c);
        match op {
            V2::LshlRev => {
                let y = self.vsrc(b, c);
                return self.shift(y, a, c, 0);
            }
            V2::LshrRev => {
                let y = self.vsrc(b, c);
                return self.shift(y, a, c, 1);
            }
            V2::AshrRev => {
                let y = self.vsrc(b, c);
                return self.shift(y, a, c, 2);
            }
            _ => {}
        }
        let y = self.vsrc(b, c);
        let i = self.b.ins();
        match op {
            V2::Add => i.iadd(x, y),
            V2::Sub => i.isub(x, y),
            V2::SubRev => i.isub(y, x),
            V2::MulLo => i.imul(x, y),
            V2::MulU24 => {
                let m = self.splat(0x00ff_ffff);
                let x = self.b.ins().band(x, m);
                let y = self.b.ins().band(y, m);
                self.b.ins().imul(x, y)
            }
            V2::MulI24 => {
                let x = i.ishl_imm_u(x, 8);
                let x = self.b.ins().sshr_imm_u(x, 8);
                let y = self.b.ins().ishl_imm_u(y, 8);
                let y = self.b.ins().sshr_imm_u(y, 8);
                self.b.ins().imul(x, y)
            }
            V2::And => i.band(x, y),
            V2::Or => i.bor(x, y),
            V2::Xor => i.bxor(x, y),
            V2::Xnor => {
                let t = i.bxor(x, y);
                self.b.ins().bnot(t)
            }
            V2::MinI => i.smin(x, y),
            V2::MaxI => i.smax(x, y),
            V2::MinU => i.umin(x, y),
            V2::MaxU => i.umax(x, y),
            V2::AddF | V2::SubF | V2::SubRevF | V2::MulF => {
                // Inputs and result flushed as MODE says (`soft::add`/`mul` flush their inputs
                // and a denormal result after rounding; a NaN result is the NaN rule's).
                let (xi, yi) = (self.in32(x), self.in32(y));
                let (fx, fy) = (self.as_f32x4(xi), self.as_f32x4(yi));
                let r = match op {
                    V2::AddF => self.b.ins().fadd(fx, fy),
                    V2::SubF => self.b.ins().fsub(fx, fy),
                    V2::SubRevF => self.b.ins().fsub(fy, fx),
                    _ => self.b.ins().fmul(fx, fy),
                };
                let r = self.as_i32x4(r);
                let r = self.out32(r);
                // ops::sub(b, a) for subrev: the NaN order is (S1, S0). The flushed inputs:
                // flushing keeps every NaN as it is (its exponent is all ones), and the raw
                // ones would stay live beside them for the cold path (spilled).
                let order: [Value; 2] = if op == V2::SubRevF {
                    [yi, xi]
                } else {
                    [xi, yi]
                };
                let r = self.fix_nan(r, &order);
                self.flushed_result(r)
            }
            V2::MinF | V2::MaxF => self.minmax(op == V2::MaxF, x, y, false),
            V2::LshlRev | V2::LshrRev | V2::AshrRev => x,
        }
    }

    /// v_min/v_max on f32 (I32X4 bits) or, with `f64`, on two f64 lanes (I64X2 bits):
    /// `exec::vfloat::ops::minmax` (inputs and result flushed per MODE, a NaN operand gives the
    /// other, -0 below +0, MODE.IEEE returns a signalling NaN operand quieted).
    fn minmax(&mut self, max: bool, x: Value, y: Value, f64: bool) -> Value {
        let (a, b) = if f64 {
            (self.in64(x), self.in64(y))
        } else {
            (self.in32(x), self.in32(y))
        };
        let k = |g: &mut Self, v: u64| if f64 { g.splat64(v) } else { g.splat(v as u32) };
        let (sign_at, quiet) = if f64 {
            (63, QUIET_F64)
        } else {
            (31, QUIET_F32 as u64)
        };
        let abs = k(self, (1u64 << sign_at) - 1);
        let inf = k(self, if f64 { 0x7ff0 << 48 } else { 0x7f80_0000 });
        let (aa, ba) = (self.b.ins().band(a, abs), self.b.ins().band(b, abs));
        let nan_a = self.b.ins().icmp(IntCC::SignedGreaterThan, aa, inf);
        let nan_b = self.b.ins().icmp(IntCC::SignedGreaterThan, ba, inf);
        // Keys ordered as the values are (non-NaN), -0 below +0: negative values get their
        // magnitude bits inverted, so larger magnitudes compare lower as signed integers.
        let key = |g: &mut Self, v: Value| {
            let s = g.b.ins().sshr_imm_u(v, sign_at);
            let m = g.b.ins().band(s, abs);
            g.b.ins().bxor(v, m)
        };
        let (ka, kb) = (key(self, a), key(self, b));
        let cc = if max {
            IntCC::SignedGreaterThan
        } else {
            IntCC::SignedLessThan
        };
        let pick_a = self.b.ins().icmp(cc, ka, kb);
        let r = self.b.ins().bitselect(pick_a, a, b);
        let r = self.b.ins().bitselect(nan_a, b, r);
        let r = self.b.ins().bitselect(nan_b, a, r);
        let r = if f64 { self.out64(r) } else { self.out32(r) };
        if !self.ieee {
            return if f64 { r } else { self.flushed_result(r) };
        }
        let quiet = k(self, quiet);
        let zero = k(self, 0);
        let snan = |g: &mut Self, v: Value, nan: Value| {
            let q = g.b.ins().band(v, quiet);
            let sig = g.b.ins().icmp(IntCC::Equal, q, zero);
            g.b.ins().band(nan, sig)
        };
        let (sa, sb) = (snan(self, a, nan_a), snan(self, b, nan_b));
        let (qa, qb) = (self.b.ins().bor(a, quiet), self.b.ins().bor(b, quiet));
        let r = self.b.ins().bitselect(sb, qb, r);
        let r = self.b.ins().bitselect(sa, qa, r);
        // (A quieted NaN is no denormal.)
        if f64 {
            r
        } else {
            self.flushed_result(r)
        }
    }

    fn v3(&mut self, op: V3, a: Src, b: Src, cc: Src, c: usize) -> Value {
        let x = self.vsrc(a, c);
        let z = self.vsrc(cc, c);
        match op {
            V3::LshlAdd => {
                let t = self.shift(x, b, c, 0);
                return self.b.ins().iadd(t, z);
            }
            V3::LshlOr => {
                let t = self.shift(x, b, c, 0);
                return self.b.ins().bor(t, z);
            }
            V3::AddLshl => {
                let y = self.vsrc(b, c);
                let t = self.b.ins().iadd(x, y);
                return self.shift(t, cc, c, 0);
            }
            _ => {}
        }
        let y = self.vsrc(b, c);
        let i = self.b.ins();
        match op {
            V3::Add3 => {
                let t = i.iadd(x, y);
                self.b.ins().iadd(t, z)
            }
            V3::AndOr => {
                let t = i.band(x, y);
                self.b.ins().bor(t, z)
            }
            V3::Or3 => {
                let t = i.bor(x, y);
                self.b.ins().bor(t, z)
            }
            V3::Xor3 => {
                let t = i.bxor(x, y);
                self.b.ins().bxor(t, z)
            }
            // (S0 & S1) | (~S0 & S2): a bit select with S0 as the selector.
            V3::Bfi => i.bitselect(x, y, z),
            V3::FmaF => self.fma(x, y, z),
            V3::LshlAdd | V3::LshlOr | V3::AddLshl => x,
        }
    }

    fn fma(&mut self, x: Value, y: Value, z: Value) -> Value {
        let (xi, yi, zi) = (self.in32(x), self.in32(y), self.in32(z));
        let (fx, fy, fz) = (self.as_f32x4(xi), self.as_f32x4(yi), self.as_f32x4(zi));
        let r = self.b.ins().fma(fx, fy, fz);
        let r = self.as_i32x4(r);
        let r = self.out32(r);
        // (The flushed inputs: see `v2`.)
        let r = self.fix_nan(r, &[xi, yi, zi]);
        self.flushed_result(r)
    }

    // ---------------------------------------------------------------- f64

    fn shuffle(&mut self, a: Value, b: Value, mask: [u8; 16]) -> Value {
        let imm = self.b.func.dfg.immediates.push(mask.to_vec().into());
        let a = self.b.ins().bitcast(I8X16, vec_bits(), a);
        let b = self.b.ins().bitcast(I8X16, vec_bits(), b);
        let r = self.b.ins().shuffle(a, b, imm);
        self.b.ins().bitcast(I64X2, vec_bits(), r)
    }

    /// Chunk `c` of a 64-bit source as two I64X2 vectors (lanes 0-1, 2-3 of the chunk).
    fn vsrc64_chunk(&mut self, s: VSrc64, c: usize) -> [Value; 2] {
        match s {
            VSrc64::Vgpr(r) => {
                let lo = self.get_v(r, c);
                let hi = self.get_v(r + 1, c);
                [self.shuffle(lo, hi, ZIP_LO), self.shuffle(lo, hi, ZIP_HI)]
            }
            VSrc64::Scalar(x) => {
                let v = self.src64(x);
                let v = self.b.ins().splat(I64X2, v);
                [v, v]
            }
        }
    }

    /// Two I64X2 vectors of chunk results back to (low dwords, high dwords) rows.
    fn unzip(&mut self, p: [Value; 2]) -> (Value, Value) {
        let lo = self.shuffle(p[0], p[1], UNZIP_LO);
        let hi = self.shuffle(p[0], p[1], UNZIP_HI);
        let lo = self.b.ins().bitcast(I32X4, vec_bits(), lo);
        let hi = self.b.ins().bitcast(I32X4, vec_bits(), hi);
        (lo, hi)
    }

    fn nan64(&mut self, v: Value) -> Value {
        let f = self.b.ins().bitcast(F64X2, vec_bits(), v);
        let m = self.b.ins().fcmp(FloatCC::Unordered, f, f);
        self.b.ins().bitcast(I64X2, vec_bits(), m)
    }

    fn splat64(&mut self, v: u64) -> Value {
        let k = self.b.ins().iconst(I64, v as i64);
        self.b.ins().splat(I64X2, k)
    }

    /// An f64 op on two lanes (I64X2 bits): the host result, or (`exact`) RDNA3's NaN rule
    /// where it is NaN (`soft::nan_of` / `soft::invalid`, the path `exec::vfloat::f64_op`
    /// takes there; without `exact` the caller checks for NaNs, `f64_run`).
    fn f64_lanes(&mut self, op: F64Op, x: Value, y: Value, z: Value, exact: bool) -> Value {
        if matches!(op, F64Op::Min | F64Op::Max) {
            return self.minmax(op == F64Op::Max, x, y, true);
        }
        let (xi, yi) = (self.in64(x), self.in64(y));
        let fx = self.b.ins().bitcast(F64X2, vec_bits(), xi);
        let fy = self.b.ins().bitcast(F64X2, vec_bits(), yi);
        let r = match op {
            F64Op::Add => self.b.ins().fadd(fx, fy),
            F64Op::Mul => self.b.ins().fmul(fx, fy),
            F64Op::Fma => {
                let zi = self.in64(z);
                let fz = self.b.ins().bitcast(F64X2, vec_bits(), zi);
                self.b.ins().fma(fx, fy, fz)
            }
            F64Op::Min | F64Op::Max => unreachable!("returned above"),
        };
        let r = self.b.ins().bitcast(I64X2, vec_bits(), r);
        let r = self.out64(r);
        if !exact {
            return r;
        }
        let srcs: &[Value] = if op == F64Op::Fma {
            &[x, y, z]
        } else {
            &[x, y]
        };
        let rn = self.nan64(r);
        self.if_any_lane(rn, r, |g| {
            let mut n = g.splat64(DEFAULT_NAN_F64);
            let q = g.splat64(QUIET_F64);
            for &s in srcs.iter().rev() {
                let is = g.nan64(s);
                let quiet = g.b.ins().bor(s, q);
                n = g.b.ins().bitselect(is, quiet, n);
            }
            g.b.ins().bitselect(rn, n, r)
        })
    }

    /// `operand::src_mods` for f64 source `k`: abs clears the sign, then neg flips it.
    fn mods64(&mut self, v: [Value; 2], k: u8, abs: u8, neg: u8) -> [Value; 2] {
        let sign = 1u64 << 63;
        v.map(|x| {
            let mut x = x;
            if abs >> k & 1 != 0 {
                let m = self.splat64(!sign);
                x = self.b.ins().band(x, m);
            }
            if neg >> k & 1 != 0 {
                let m = self.splat64(sign);
                x = self.b.ins().bxor(x, m);
            }
            x
        })
    }

    fn f64_node(&mut self, dst: u16, i: F64Inst) {
        let m = self.exec_masks();
        let (mut los, mut his) = (Vec::new(), Vec::new());
        for c in 0..self.chunks {
            let (lo, hi) = self.f64_chunk(i, c);
            los.push(lo);
            his.push(hi);
        }
        self.vwrite(dst, los, &m);
        self.vwrite(dst + 1, his, &m);
    }

    /// Chunk `c` of an f64 node's result as (low dwords, high dwords) vectors.
    fn f64_chunk(&mut self, i: F64Inst, c: usize) -> (Value, Value) {
        let mut ch = F64Chunk::new(c, false);
        let r = self.f64_zipped(i, &mut ch);
        self.unzip(r)
    }

    /// Chunk `ch.c` of an f64 node's result as two vectors of two f64 lanes (I64X2); sources
    /// in `ch.zipped` (pairs by low row, in that form) are taken from there.
    fn f64_zipped(&mut self, i: F64Inst, ch: &mut F64Chunk) -> [Value; 2] {
        let mut src = |g: &mut Self, k: usize| {
            let v = g.zipped_src(i.srcs[k], ch);
            g.mods64(v, k as u8, i.abs, i.neg)
        };
        let xs = src(self, 0);
        let ys = src(self, 1);
        let zs = if i.op == F64Op::Fma { src(self, 2) } else { ys };
        let exact = !ch.speculate;
        let r0 = self.f64_lanes(i.op, xs[0], ys[0], zs[0], exact);
        let r1 = self.f64_lanes(i.op, xs[1], ys[1], zs[1], exact);
        [r0, r1]
    }

    /// A 64-bit source's chunk `ch.c` as two I64X2 vectors: from `ch.zipped` if its pair is
    /// there (a pair overlapping it by one row is first written back to the rows,
    /// `unzip_overlapping`).
    fn zipped_src(&mut self, s: VSrc64, ch: &mut F64Chunk) -> [Value; 2] {
        if let VSrc64::Vgpr(r) = s {
            if let Some(&(_, v, _)) = ch.zipped.iter().find(|z| z.0 == r) {
                return v;
            }
            self.unzip_overlapping(r, ch);
            // (Kept for the run's next readers of the pair: the argument of a polynomial.)
            let v = self.vsrc64_chunk(s, ch.c);
            ch.zipped.push((r, v, false));
            return v;
        }
        self.vsrc64_chunk(s, ch.c)
    }

    /// Writes the pairs of `ch.zipped` that share a row with pair `r` back to the rows'
    /// cached vectors (dirty; a pair only read is there already) and drops them from
    /// `ch.zipped`.
    fn unzip_overlapping(&mut self, r: u16, ch: &mut F64Chunk) {
        while let Some(k) = ch.zipped.iter().position(|z| z.0 + 1 >= r && z.0 <= r + 1) {
            let (row, v, written) = ch.zipped.swap_remove(k);
            if written {
                self.pair_to_rows(row, v, ch);
            }
        }
    }

    /// A pair the run wrote, split into its rows' cached vectors of chunk `ch.c` (dirty); when
    /// speculating, its NaN lanes join `ch.nans`.
    fn pair_to_rows(&mut self, row: u16, v: [Value; 2], ch: &mut F64Chunk) {
        if ch.speculate {
            for h in v {
                let n = self.nan64(h);
                ch.nans = Some(match ch.nans {
                    Some(acc) => self.b.ins().bor(acc, n),
                    None => n,
                });
            }
        }
        let (lo, hi) = self.unzip(v);
        self.vgpr.insert((row, ch.c), (lo, true));
        self.vgpr.insert((row + 1, ch.c), (hi, true));
    }

    /// A run of f64 nodes (`Node::F64`, at least two, and `Node::Nop`s, under one EXEC)
    /// computed chunk by chunk: every node's chunk 0, then every node's chunk 1, ... Lanes are
    /// independent and each node reads and writes only the chunk being computed, so every lane
    /// sees the nodes in program order, as node by node. Node by node, each row's 8-16
    /// vectors stayed live from the node that made them to the last that read them
    /// (f64_horner's unrolled polynomial: the argument and three partial results, 64 vectors
    /// for 16 host registers, and a third of its host instructions stack moves); chunk by
    /// chunk only one chunk's are. Within a chunk results stay as pairs of f64 lanes
    /// (`F64Chunk::zipped`) for the nodes that read them.
    ///
    /// Every lane of the chunk is computed (EXEC does not change in the run, and an inactive
    /// lane's values only ever flow into that lane's results): each written row is blended
    /// into its old value under EXEC once, at the end of the chunk, not every result.
    ///
    /// The host's results are taken as they are (no NaN rule per op) and the chunk is
    /// computed again with the rule (`F64Chunk::speculate`), off the hot path, only if a
    /// result the chunk writes to the rows is NaN in some lane. That finds every NaN that
    /// matters: add, mul and fma give a NaN for a NaN input, and min/max, which may drop
    /// one, decide by whether an input is NaN and signalling, the same for the host's NaNs
    /// and the ISA's (both quiet), and then give the other input; so a result that is not NaN
    /// came from inputs that are not NaN, or exactly as from the ISA's NaNs, and without NaNs
    /// the host's results are the ISA's.
    fn f64_run(&mut self, run: &[Node]) {
        let m = self.exec_masks();
        let mut rows = RowSet::default();
        let mut touched = Vec::new();
        let mut insts = Vec::new();
        let mut written = Vec::new();
        for n in run {
            self.count_lanes();
            let mut rs = RowSet::default();
            vgpr_rows_read(n, &mut rs);
            for r in vgpr_rows_written(n) {
                rs.add(r);
                written.push(r);
            }
            for r in 0..256u16 {
                if rs.has(r) && !rows.has(r) {
                    rows.add(r);
                    touched.push(r);
                }
            }
            if let Node::F64 {
                op,
                dst,
                a,
                b,
                c,
                abs,
                neg,
            } = *n
            {
                let srcs = [a, b, c];
                insts.push((dst, F64Inst { op, srcs, abs, neg }));
            }
        }
        written.sort_unstable();
        written.dedup();
        for (c, &mask) in m.iter().enumerate().take(self.chunks) {
            let start = self.vgpr.clone();
            let (fast, nans) = self.f64_run_chunk(&insts, &written, c, true);
            let vals = match nans {
                None => fast,
                Some(nans) => {
                    let hot = std::mem::replace(&mut self.vgpr, start.clone());
                    let sgpr = self.sgpr.clone();
                    let slow = self.b.create_block();
                    let join = self.b.create_block();
                    for _ in &written {
                        self.b.append_block_param(join, I32X4);
                    }
                    self.b.set_cold_block(slow);
                    let any = self.b.ins().vany_true(nans);
                    let args: Vec<_> = fast.iter().map(|&v| v.into()).collect();
                    self.b.ins().brif(any, slow, &[], join, &args);
                    self.b.switch_to_block(slow);
                    self.b.seal_block(slow);
                    // (One block: nothing here is hot.)
                    let cold = std::mem::replace(&mut self.cold_paths, false);
                    let (exact, _) = self.f64_run_chunk(&insts, &written, c, false);
                    self.cold_paths = cold;
                    let args: Vec<_> = exact.iter().map(|&v| v.into()).collect();
                    self.b.ins().jump(join, &args);
                    self.b.switch_to_block(join);
                    self.b.seal_block(join);
                    // The slow path's values do not dominate what follows.
                    self.vgpr = hot;
                    self.sgpr = sgpr;
                    self.b.block_params(join).to_vec()
                }
            };
            // Each written row: the run's value in the chunk's EXEC lanes, the old elsewhere.
            for (&row, v) in written.iter().zip(vals) {
                let new = if Some(mask) == self.ones {
                    v
                } else {
                    let old = match start.get(&(row, c)) {
                        Some(&(o, _)) => o,
                        None => self
                            .b
                            .ins()
                            .load(I32X4, mem(), self.vgpr_ptr, vgpr_offset(row, c)),
                    };
                    self.b.ins().bitselect(mask, v, old)
                };
                self.vgpr.remove(&(row, c));
                self.store_v(row, c, new);
            }
            for &r in &touched {
                if let Some((v, dirty)) = self.vgpr.remove(&(r, c)) {
                    if dirty {
                        self.store_v(r, c, v);
                    }
                }
            }
        }
    }

    /// Chunk `c` of the run `insts` (destination, instruction) in every lane: the final
    /// value of each of the `written` rows (in that order), and, when speculating, the NaN
    /// lanes of the results they came from (`f64_run`).
    fn f64_run_chunk(
        &mut self,
        insts: &[(u16, F64Inst)],
        written: &[u16],
        c: usize,
        speculate: bool,
    ) -> (Vec<Value>, Option<Value>) {
        let mut ch = F64Chunk::new(c, speculate);
        for &(dst, i) in insts {
            let r = self.f64_zipped(i, &mut ch);
            ch.zipped.retain(|z| z.0 != dst);
            self.unzip_overlapping(dst, &mut ch);
            // (The rows' cached vectors are stale now: dropped, `zipped` has the pair.)
            self.vgpr.remove(&(dst, c));
            self.vgpr.remove(&(dst + 1, c));
            ch.zipped.push((dst, r, true));
        }
        for (row, v, w) in std::mem::take(&mut ch.zipped) {
            if w {
                self.pair_to_rows(row, v, &mut ch);
            }
        }
        // (Every written row's vector is in the cache now, from the pair that wrote it last.)
        let vals = written.iter().map(|&r| self.get_v(r, c)).collect();
        (vals, ch.nans)
    }

    /// One lane's conversion (scalar: the conversions are rare and the host has no vector
    /// form of several of them). `x` is I32 for the forms from 32 bits, I64 bits otherwise;
    /// the result is I64 bits for the f64 results, I32 otherwise.
    fn cvt64_lane(&mut self, op: CvtF64, x: Value) -> Value {
        let i = self.b.ins();
        match op {
            CvtF64::F64FromI32 => {
                let f = i.fcvt_from_sint(F64, x);
                self.b.ins().bitcast(I64, MemFlagsData::new(), f)
            }
            CvtF64::F64FromU32 => {
                // Exact either way; through i64 so no host needs an unsigned conversion.
                let w = i.uextend(I64, x);
                let f = self.b.ins().fcvt_from_sint(F64, w);
                self.b.ins().bitcast(I64, MemFlagsData::new(), f)
            }
            // soft::convert: a NaN keeps its sign and top payload bits, quieted; the input is
            // flushed per MODE's f32 setting (an f32 value is never denormal as an f64).
            CvtF64::F64FromF32 => {
                let xi = self.in32(x);
                let f = self.b.ins().bitcast(F32, MemFlagsData::new(), xi);
                let d = self.b.ins().fpromote(F64, f);
                let d = self.b.ins().bitcast(I64, MemFlagsData::new(), d);
                let w = self.b.ins().uextend(I64, x);
                let sign = self.b.ins().band_imm_u(w, 0x8000_0000);
                let sign = self.b.ins().ishl_imm_u(sign, 32);
                let pay = self.b.ins().band_imm_u(w, 0x007f_ffff);
                let pay = self.b.ins().ishl_imm_u(pay, 29);
                self.nan_or(x, 0x7f80_0000, sign, pay, 0x7ff8_0000_0000_0000, d)
            }
            // Input flushed per MODE's f64 setting, the rounded result per its f32 one.
            CvtF64::F32FromF64 => {
                let xi = self.in64(x);
                let f = self.b.ins().bitcast(F64, MemFlagsData::new(), xi);
                let d = self.b.ins().fdemote(F32, f);
                let d = self.b.ins().bitcast(I32, MemFlagsData::new(), d);
                let d = self.out32(d);
                let hi = self.b.ins().ushr_imm_u(x, 32);
                let sign = self.b.ins().band_imm_u(hi, 0x8000_0000);
                let pay = self.b.ins().ushr_imm_u(x, 29);
                let pay = self.b.ins().band_imm_u(pay, 0x007f_ffff);
                self.nan_or(x, 0x7ff0_0000_0000_0000, sign, pay, 0x7fc0_0000, d)
            }
            // ops::to_int: truncate, saturate, NaN 0 (cranelift's saturating conversion).
            CvtF64::I32FromF64 => {
                let f = i.bitcast(F64, MemFlagsData::new(), x);
                self.b.ins().fcvt_to_sint_sat(I32, f)
            }
        }
    }

    /// `normal` (typed like the result), or where `x` is a NaN (its magnitude above the
    /// infinity `inf`) the NaN `sign | payload | quiet` (computed in `x`'s width).
    fn nan_or(
        &mut self,
        x: Value,
        inf: u64,
        sign: Value,
        pay: Value,
        quiet: u64,
        normal: Value,
    ) -> Value {
        let n = self.b.ins().bor(sign, pay);
        let n = self.b.ins().bor_imm_u(n, quiet as i64);
        let ty = self.b.func.dfg.value_type(normal);
        let n = if self.b.func.dfg.value_type(n) == ty {
            n
        } else {
            self.b.ins().ireduce(ty, n)
        };
        let sign_mask = if self.b.func.dfg.value_type(x) == I32 {
            0x7fff_ffff
        } else {
            i64::MAX
        };
        let abs = self.b.ins().band_imm_u(x, sign_mask);
        let is = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedGreaterThan, abs, inf as i64);
        self.b.ins().select(is, n, normal)
    }

    fn cvt64_node(&mut self, op: CvtF64, dst: u16, a32: Src, a64: VSrc64) {
        let m = self.exec_masks();
        let to64 = matches!(
            op,
            CvtF64::F64FromI32 | CvtF64::F64FromU32 | CvtF64::F64FromF32
        );
        let (mut los, mut his) = (Vec::new(), Vec::new());
        for c in 0..self.chunks {
            let mut lo = self.splat(0);
            let mut hi = self.splat(0);
            let src = if to64 {
                [self.vsrc(a32, c), self.splat(0)]
            } else {
                self.vsrc64_chunk_split(a64, c)
            };
            for l in 0..VL as u8 {
                let x = self.b.ins().extractlane(src[0], l);
                let x = if to64 {
                    x
                } else {
                    let h = self.b.ins().extractlane(src[1], l);
                    self.join64(x, h)
                };
                let r = self.cvt64_lane(op, x);
                if to64 {
                    let rl = self.b.ins().ireduce(I32, r);
                    let rh = self.b.ins().ushr_imm_u(r, 32);
                    let rh = self.b.ins().ireduce(I32, rh);
                    lo = self.b.ins().insertlane(lo, rl, l);
                    hi = self.b.ins().insertlane(hi, rh, l);
                } else {
                    lo = self.b.ins().insertlane(lo, r, l);
                }
            }
            los.push(lo);
            his.push(hi);
        }
        self.vwrite(dst, los, &m);
        if to64 {
            self.vwrite(dst + 1, his, &m);
        }
    }

    /// Integer vector compares x86 (SSE4.1) has no instruction for, lowered by cranelift as
    /// the complement and a NOT (unsigned orders by a max or min and an equality).
    fn inverted_on_x86(cc: IntCC) -> bool {
        matches!(
            cc,
            IntCC::NotEqual
                | IntCC::UnsignedGreaterThan
                | IntCC::UnsignedLessThan
                | IntCC::SignedGreaterThanOrEqual
                | IntCC::SignedLessThanOrEqual
        )
    }

    fn icmp_cond(cond: Cond, signed: bool) -> Option<IntCC> {
        use IntCC::*;
        Some(match (cond, signed) {
            (Cond::Lt, true) => SignedLessThan,
            (Cond::Lt, false) => UnsignedLessThan,
            (Cond::Le, true) => SignedLessThanOrEqual,
            (Cond::Le, false) => UnsignedLessThanOrEqual,
            (Cond::Gt, true) => SignedGreaterThan,
            (Cond::Gt, false) => UnsignedGreaterThan,
            (Cond::Ge, true) => SignedGreaterThanOrEqual,
            (Cond::Ge, false) => UnsignedGreaterThanOrEqual,
            (Cond::Eq, _) => Equal,
            (Cond::Ne, _) => NotEqual,
            (Cond::F, _) | (Cond::T, _) => return None,
        })
    }

    fn node(&mut self, n: &Node) {
        match *n {
            Node::Nop
            | Node::Branch { .. }
            | Node::End
            | Node::Call { .. }
            | Node::Mem { .. }
            | Node::SLoad { .. } => {}
            Node::DeallocVgprs => {
                self.count_issue(self.env.lgkm, crate::wave::WaitCounts::LGKM_MAX);
                let st = self
                    .b
                    .ins()
                    .load(self.ptr_ty, mem(), self.env_ptr, self.env.status);
                let v = self.b.ins().load(I32, mem(), st, 0);
                let v = self
                    .b
                    .ins()
                    .bor_imm_u(v, crate::exec::sopp::status_bits::NO_VGPRS as i64);
                self.b.ins().store(mem(), v, st, 0);
            }
            Node::WaitCnt { vm, lgkm, exp } => {
                let cnt = self
                    .b
                    .ins()
                    .load(self.ptr_ty, mem(), self.env_ptr, self.env.cnt);
                use crate::wave::WaitCounts as W;
                for (off, max, top) in [
                    (self.env.vm, vm, W::VM_MAX),
                    (self.env.lgkm, lgkm, W::LGKM_MAX),
                    (self.env.exp, exp, W::EXP_MAX),
                ] {
                    // A field waited for at its largest value changes nothing: counters only
                    // grow through the saturating `WaitCounts::*_issue` (and are reset to
                    // 0), so they never exceed it. A wait for 0 needs no load.
                    if max >= top {
                        continue;
                    }
                    let r = if max == 0 {
                        self.b.ins().iconst(I8, 0)
                    } else {
                        let v = self.b.ins().load(I8, mem(), cnt, off);
                        let m = self.b.ins().iconst(I8, max as i64);
                        self.b.ins().umin(v, m)
                    };
                    self.b.ins().store(mem(), r, cnt, off);
                }
            }
            Node::F64 {
                op,
                dst,
                a,
                b,
                c,
                abs,
                neg,
            } => self.f64_node(
                dst,
                F64Inst {
                    op,
                    srcs: [a, b, c],
                    abs,
                    neg,
                },
            ),
            Node::CvtF64 { op, dst, a32, a64 } => self.cvt64_node(op, dst, a32, a64),
            Node::VMov { dst, a } => {
                let m = self.exec_masks();
                self.vmap(dst, &m, |g, c| g.vsrc(a, c));
            }
            Node::VNot { dst, a } => {
                let m = self.exec_masks();
                self.vmap(dst, &m, |g, c| {
                    let v = g.vsrc(a, c);
                    g.b.ins().bnot(v)
                });
            }
            Node::VTrans {
                op,
                dst,
                a,
                a64,
                mode,
            } => self.trans(op, dst, a, a64, mode),
            Node::VCvt { op, dst, a } => {
                // Rounding to nearest even the host conversions are the ISA's under every
                // FP_DENORM setting: int -> f32 rounds once (never to a denormal); f32 -> int
                // truncates (a denormal, flushed or not, gives 0), saturates and gives 0 for
                // NaN (cranelift's *_sat conversions).
                let m = self.exec_masks();
                self.vmap(dst, &m, |g, c| {
                    let v = g.vsrc(a, c);
                    match op {
                        // (An integer's f32 is zero or at least 1 in magnitude.)
                        Cvt::F32FromI32 => {
                            let f = g.b.ins().fcvt_from_sint(F32X4, v);
                            let r = g.as_i32x4(f);
                            g.mark_flushed(r);
                            r
                        }
                        Cvt::F32FromU32 => {
                            let f = g.b.ins().fcvt_from_uint(F32X4, v);
                            let r = g.as_i32x4(f);
                            g.mark_flushed(r);
                            r
                        }
                        Cvt::I32FromF32 => {
                            let f = g.as_f32x4(v);
                            g.b.ins().fcvt_to_sint_sat(I32X4, f)
                        }
                        Cvt::U32FromF32 => {
                            let f = g.as_f32x4(v);
                            g.b.ins().fcvt_to_uint_sat(I32X4, f)
                        }
                    }
                });
            }
            Node::V2 { op, dst, a, b } => {
                let m = self.exec_masks();
                self.vmap(dst, &m, |g, c| g.v2(op, a, b, c));
            }
            Node::V3 { op, dst, a, b, c } => {
                let m = self.exec_masks();
                self.vmap(dst, &m, |g, k| g.v3(op, a, b, c, k));
            }
            Node::Fmac { dst, a, b } => {
                let m = self.exec_masks();
                self.vmap(dst, &m, |g, c| {
                    let (x, y) = (g.vsrc(a, c), g.vsrc(b, c));
                    let z = g.get_v(dst, c);
                    g.fma(x, y, z)
                });
            }
            Node::VCarry {
                sub,
                rev,
                dst,
                a,
                b,
                cin,
                carry,
            } => {
                let m = self.exec_masks();
                let ci = cin.map(|c| self.mask_src_chunks(c));
                let mut lanes = Vec::with_capacity(self.chunks);
                // Per chunk the lanes that do NOT carry: x86 compares unsigned vectors for
                // "at least" with a max and an equality, and "less than" needs an inversion
                // more, so the complement is computed and inverted where it is used (an
                // AND-NOT with EXEC's mask, a NOT of the packed bits).
                let mut ncos = Vec::with_capacity(self.chunks);
                for c in 0..self.chunks {
                    let (mut x, mut y) = (self.vsrc(a, c), self.vsrc(b, c));
                    if rev {
                        std::mem::swap(&mut x, &mut y);
                    }
                    let (d, nco) = if sub {
                        // borrow = y > x, or (x == y and a borrow comes in); no borrow =
                        // y <= x and not (d == 0 and a borrow comes in).
                        let d = self.b.ins().isub(x, y);
                        let nb1 = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, y, x);
                        match &ci {
                            Some(cm) => {
                                let zero = self.splat(0);
                                let z = self.b.ins().icmp(IntCC::Equal, d, zero);
                                let b2 = self.b.ins().band(z, cm[c]);
                                // d - 1 where the carry-in is set (the mask is -1 there).
                                let d2 = self.b.ins().iadd(d, cm[c]);
                                (d2, self.b.ins().band_not(nb1, b2))
                            }
                            None => (d, nb1),
                        }
                    } else {
                        // carry = d < x (the sum wrapped); no carry = d >= x.
                        let d = self.b.ins().iadd(x, y);
                        let nc1 = self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, d, x);
                        match &ci {
                            Some(cm) => {
                                // d + 1 where the carry-in is set; it carries iff d wrapped
                                // (d2 < d), so no carry needs d2 >= d too.
                                let d2 = self.b.ins().isub(d, cm[c]);
                                let nc2 =
                                    self.b.ins().icmp(IntCC::UnsignedGreaterThanOrEqual, d2, d);
                                (d2, self.b.ins().band(nc1, nc2))
                            }
                            None => (d, nc1),
                        }
                    };
                    // (Written chunk by chunk, see `vmap`.)
                    self.write_chunk(dst, c, d, m[c]);
                    ncos.push(nco);
                    lanes.push(self.b.ins().band_not(m[c], nco));
                }
                let nacc = self.pack_bits(&ncos);
                let acc = self.b.ins().bnot(nacc);
                let exec = self.exec64();
                let bits = self.b.ins().band(acc, exec);
                self.write_known_mask(carry, bits, lanes);
            }
            Node::Mad64 {
                dst,
                a,
                b,
                c,
                carry,
            } => {
                let m = self.exec_masks();
                let mut acc = self.b.ins().iconst(I64, 0);
                for (ch, &mask) in m.iter().enumerate() {
                    let (x, y) = (self.vsrc(a, ch), self.vsrc(b, ch));
                    let zs = self.vsrc64_chunk(c, ch);
                    let mut sums = [zs[0]; 2];
                    for (h, sum) in sums.iter_mut().enumerate() {
                        // Lanes 2h, 2h+1 of the chunk: the 32x32 product fits in 64 bits, so
                        // the 65th bit comes from the add alone (`vint::mad64`).
                        let (xw, yw) = if h == 0 {
                            (self.b.ins().uwiden_low(x), self.b.ins().uwiden_low(y))
                        } else {
                            (self.b.ins().uwiden_high(x), self.b.ins().uwiden_high(y))
                        };
                        let p = self.b.ins().imul(xw, yw);
                        let s = self.b.ins().iadd(p, zs[h]);
                        let co = self.b.ins().icmp(IntCC::UnsignedLessThan, s, zs[h]);
                        let hb = self.b.ins().vhigh_bits(I64, co);
                        let shift = (ch * VL + 2 * h) as i64;
                        let hb = if shift == 0 {
                            hb
                        } else {
                            self.b.ins().ishl_imm_u(hb, shift)
                        };
                        acc = self.b.ins().bor(acc, hb);
                        *sum = s;
                    }
                    let (lo, hi) = self.unzip(sums);
                    // (Written chunk by chunk, see `vmap`.)
                    self.write_chunk(dst, ch, lo, mask);
                    self.write_chunk(dst + 1, ch, hi, mask);
                }
                let exec = self.exec64();
                let bits = self.b.ins().band(acc, exec);
                self.write_mask(carry, bits);
            }
            Node::Shift64 { kind, dst, src, n } => {
                let m = self.exec_masks();
                for (c, &mask) in m.iter().enumerate() {
                    let lo = self.get_v(src, c);
                    let hi = self.get_v(src + 1, c);
                    let (l, h) = self.shift64(kind, lo, hi, n);
                    // (Written chunk by chunk, see `vmap`.)
                    self.write_chunk(dst, c, l, mask);
                    self.write_chunk(dst + 1, c, h, mask);
                }
            }
            Node::AlignBit { dst, a, b, n } => {
                let m = self.exec_masks();
                let vals = (0..self.chunks)
                    .map(|c| {
                        let (x, y) = (self.vsrc(a, c), self.vsrc(b, c));
                        if n == 0 {
                            y
                        } else {
                            let lo = self.b.ins().ushr_imm_u(y, n as i64);
                            let hi = self.b.ins().ishl_imm_u(x, (32 - n) as i64);
                            self.b.ins().bor(lo, hi)
                        }
                    })
                    .collect();
                self.vwrite(dst, vals, &m);
            }
            Node::VCnd { dst, a, b, sel } => {
                let m = self.exec_masks();
                let sm = self.mask_src_chunks(sel);
                let vals = (0..self.chunks)
                    .map(|c| {
                        let (x, y) = (self.vsrc(a, c), self.vsrc(b, c));
                        self.b.ins().bitselect(sm[c], y, x)
                    })
                    .collect();
                self.vwrite(dst, vals, &m);
            }
            Node::VCmp {
                cond,
                signed,
                a,
                b,
                dst,
            } => {
                // Inactive lanes write 0 (exec::vcmp): the result is cond & EXEC.
                let exec = self.exec64();
                let bits = match Self::icmp_cond(cond, signed) {
                    None if cond == Cond::T => exec,
                    None => self.b.ins().iconst(I64, 0),
                    Some(cc) if Self::inverted_on_x86(cc) => {
                        // The complement per chunk, inverted once in the packed bits and
                        // in the lanes' AND-NOT with EXEC (as `VCarry`'s carries): x86
                        // compares these with the complement's instructions and a NOT.
                        let ncc = cc.complement();
                        let em = self.exec_masks();
                        let mut ms = Vec::with_capacity(self.chunks);
                        let mut lanes = Vec::with_capacity(self.chunks);
                        for (c, &e) in em.iter().enumerate() {
                            let (x, y) = (self.vsrc(a, c), self.vsrc(b, c));
                            let m = self.b.ins().icmp(ncc, x, y);
                            ms.push(m);
                            lanes.push(self.b.ins().band_not(e, m));
                        }
                        let nacc = self.pack_bits(&ms);
                        let acc = self.b.ins().bnot(nacc);
                        let bits = self.b.ins().band(acc, exec);
                        self.write_known_mask(dst, bits, lanes);
                        return;
                    }
                    Some(cc) => {
                        let (acc, lanes) = self.gather_mask(|g, c| {
                            let (x, y) = (g.vsrc(a, c), g.vsrc(b, c));
                            g.b.ins().icmp(cc, x, y)
                        });
                        let bits = self.b.ins().band(acc, exec);
                        self.write_known_mask(dst, bits, lanes);
                        return;
                    }
                };
                self.write_mask(dst, bits);
            }
            Node::VCmpF { cond, a, b, dst } => {
                let exec = self.exec64();
                let (acc, lanes) = self.gather_mask(|g, c| {
                    let (x, y) = (g.vsrc(a, c), g.vsrc(b, c));
                    g.fcond(cond, x, y)
                });
                let bits = self.b.ins().band(acc, exec);
                self.write_known_mask(dst, bits, lanes);
            }
            Node::Dual { x, y, k } => {
                let m = self.exec_masks();
                // v_dual_cndmask selects with VCC (wave32: VCC_LO).
                let vcc = if x.op == DualOp::Cnd || y.op == DualOp::Cnd {
                    let lo = self.get_sgpr(opnd::VCC_LO);
                    self.masks_of(lo, lo)
                } else {
                    Vec::new()
                };
                let half = |g: &mut Self, h: &Half, c: usize| {
                    g.lane_ctx = Some(m[c]);
                    let r = g.half(h, k, c, &vcc);
                    g.lane_ctx = None;
                    r
                };
                let rx: Vec<Value> = (0..self.chunks).map(|c| half(self, &x, c)).collect();
                let ry: Vec<Value> = (0..self.chunks).map(|c| half(self, &y, c)).collect();
                self.vwrite(x.dst, rx, &m);
                self.vwrite(y.dst, ry, &m);
            }
            Node::SMov { dst, a } => {
                let v = self.src32(a);
                self.set_sgpr(dst, v);
            }
            Node::SNot { dst, a } => {
                let v = self.src32(a);
                let d = self.b.ins().bnot(v);
                let s = self.nonzero(d);
                self.set_sgpr(dst, d);
                self.set_scc(s);
            }
            Node::S2 { op, dst, a, b } => self.s2(op, dst, a, b),
            Node::SCmp { cond, signed, a, b } => {
                let (x, y) = (self.src32(a), self.src32(b));
                let s = match Self::icmp_cond(cond, signed) {
                    Some(cc) => self.b.ins().icmp(cc, x, y),
                    None => self.b.ins().iconst(I8, (cond == Cond::T) as i64),
                };
                self.set_scc(s);
            }
            Node::SCmp64 { ne, a, b } => {
                let (x, y) = (self.src64(a), self.src64(b));
                let cc = if ne { IntCC::NotEqual } else { IntCC::Equal };
                let s = self.b.ins().icmp(cc, x, y);
                self.set_scc(s);
            }
            Node::S64 { op, dst, a, b } => self.s64(op, dst, a, b),
            Node::SaveExec { op, wide, dst, s } => self.saveexec(op, wide, dst, s),
        }
    }

    /// A 64-bit shift by the constant `n` (0..=63) of lanes held as (low, high) halves.
    fn shift64(&mut self, kind: u8, lo: Value, hi: Value, n: u32) -> (Value, Value) {
        let n = n as i64;
        let i = self.b.ins();
        match (kind, n) {
            (_, 0) => (lo, hi),
            (0, 1..=31) => {
                let h = i.ishl_imm_u(hi, n);
                let t = self.b.ins().ushr_imm_u(lo, 32 - n);
                let h = self.b.ins().bor(h, t);
                (self.b.ins().ishl_imm_u(lo, n), h)
            }
            (0, _) => {
                let h = i.ishl_imm_u(lo, n - 32);
                (self.splat(0), h)
            }
            (_, 1..=31) => {
                let l = i.ushr_imm_u(lo, n);
                let t = self.b.ins().ishl_imm_u(hi, 32 - n);
                let l = self.b.ins().bor(l, t);
                let h = if kind == 1 {
                    self.b.ins().ushr_imm_u(hi, n)
                } else {
                    self.b.ins().sshr_imm_u(hi, n)
                };
                (l, h)
            }
            (1, _) => (i.ushr_imm_u(hi, n - 32), self.splat(0)),
            _ => {
                let l = i.sshr_imm_u(hi, n - 32);
                (l, self.b.ins().sshr_imm_u(hi, 31))
            }
        }
    }

    /// Per-chunk lane masks of a VALU lane-select operand (`Wave::vcc`, `operand::read_mask`:
    /// the wave's lanes only).
    fn mask_src_chunks(&mut self, sel: MaskSrc) -> Vec<Value> {
        let lm = self.lane_mask();
        let (lo, hi) = match sel {
            MaskSrc::Vcc => {
                let lo = self.get_sgpr(opnd::VCC_LO);
                let hi = if self.wave64 {
                    self.get_sgpr(opnd::VCC_HI)
                } else {
                    lo
                };
                (lo, hi)
            }
            MaskSrc::Regs(lo, hi) => {
                let l = self.src32(lo);
                let h = if self.wave64 { self.src32(hi) } else { l };
                (l, h)
            }
            MaskSrc::Const(k) => {
                let k = k & lm;
                let l = self.iconst32(k as u32);
                let h = if self.wave64 {
                    self.iconst32((k >> 32) as u32)
                } else {
                    l
                };
                (l, h)
            }
        };
        self.masks_of(lo, hi)
    }

    /// Writes a VALU lane mask (`operand::write_mask`, or `Wave::set_exec` for v_cmpx, which
    /// writes EXEC_LO only in wave32).
    fn write_mask(&mut self, dst: MaskDst, bits: Value) {
        let code = match dst {
            MaskDst::Exec => opnd::EXEC_LO,
            MaskDst::Sgpr(code) => code,
        };
        if self.wave64 {
            self.set_sgpr64(code, bits);
        } else {
            let lo = self.b.ins().ireduce(I32, bits);
            self.set_sgpr(code, lo);
        }
        // Stored at once (and cached clean): left dirty, its computation from the chunks'
        // compare results is placed where it is stored, at the block's exit, and keeps all of
        // them live (spilled) through the block. Unless a later node replaces it before
        // anything stores it: then it stays dirty and is never stored.
        let c = mask_key(code, self.wave64);
        if dst != MaskDst::Exec && self.masks_rewritten.has(c) {
            return;
        }
        for k in c..c + 1 + self.wave64 as u16 {
            if let Some(&(v, true)) = self.sgpr.get(&k) {
                self.store_sgpr(k, v);
                self.sgpr.insert(k, (v, false));
            }
        }
    }

    /// The lane mask (I64, before the AND with EXEC) of the per-chunk compare results `f(c)`
    /// (all ones or zero per lane), and those results ANDed with EXEC's lane masks.
    fn gather_mask(&mut self, mut f: impl FnMut(&mut Self, usize) -> Value) -> (Value, Vec<Value>) {
        let em = self.exec_masks();
        let mut ms = Vec::with_capacity(self.chunks);
        let mut lanes = Vec::with_capacity(self.chunks);
        for (c, &e) in em.iter().enumerate() {
            // (The compare's lanes outside EXEC are cleared below and in the caller.)
            self.lane_ctx = Some(e);
            let m = f(self, c);
            self.lane_ctx = None;
            ms.push(m);
            lanes.push(self.b.ins().band(m, e));
        }
        (self.pack_bits(&ms), lanes)
    }

    /// The lane mask (I64, bit `VL * c + j` for lane j of chunk c) of per-chunk lane masks
    /// (each lane all ones or zero): four chunks at a time narrowed to bytes (saturating, so
    /// -1 stays -1 and 0 stays 0) and their sign bits taken at once, instead of one sign
    /// extraction, shift and OR per chunk.
    fn pack_bits(&mut self, ms: &[Value]) -> Value {
        let mut acc = None;
        for (g, four) in ms.chunks(4).enumerate() {
            let bits = if let [a, b, c, d] = *four {
                let ab = self.b.ins().snarrow(a, b);
                let cd = self.b.ins().snarrow(c, d);
                let bytes = self.b.ins().snarrow(ab, cd);
                self.b.ins().vhigh_bits(I64, bytes)
            } else {
                // (Chunks come in fours: 8 in wave32, 16 in wave64.)
                let mut bits = self.b.ins().iconst(I64, 0);
                for (k, &m) in four.iter().enumerate() {
                    let hb = self.b.ins().vhigh_bits(I64, m);
                    let hb = self.b.ins().ishl_imm_u(hb, (k * VL) as i64);
                    bits = self.b.ins().bor(bits, hb);
                }
                bits
            };
            let bits = if g == 0 {
                bits
            } else {
                self.b.ins().ishl_imm_u(bits, (16 * g) as i64)
            };
            acc = Some(match acc {
                Some(a) => self.b.ins().bor(a, bits),
                None => bits,
            });
        }
        acc.unwrap_or_else(|| self.b.ins().iconst(I64, 0))
    }

    /// `write_mask` of `bits`, whose per-chunk lane masks are `lanes` (lane j of chunk c all
    /// ones exactly where bit `VL * c + j` of `bits` is set), remembered for `masks_of`.
    fn write_known_mask(&mut self, dst: MaskDst, bits: Value, lanes: Vec<Value>) {
        self.write_mask(dst, bits);
        let code = match dst {
            MaskDst::Exec => opnd::EXEC_LO,
            MaskDst::Sgpr(code) => code,
        };
        let lo_code = if self.wave64 { code & !1 } else { code };
        let lo = self.sgpr.get(&lo_code).map(|e| e.0);
        let hi = if self.wave64 {
            self.sgpr.get(&(lo_code + 1)).map(|e| e.0)
        } else {
            lo
        };
        if let (Some(lo), Some(hi)) = (lo, hi) {
            if code != opnd::NULL {
                self.known_masks.insert((lo, hi), lanes);
            }
        }
    }

    /// The lane mask of float condition `cond` (`exec::vcmp::fcond`) from the ordered
    /// less-than (both ways), equal and unordered compares, which every host lowers.
    fn fcond(&mut self, cond: u8, x: Value, y: Value) -> Value {
        // `exec::vcmp` compares the inputs flushed per MODE (-0 == +0).
        let (x, y) = (self.in32(x), self.in32(y));
        let (fx, fy) = (self.as_f32x4(x), self.as_f32x4(y));
        let lt = self.b.ins().fcmp(FloatCC::LessThan, fx, fy);
        let gt = self.b.ins().fcmp(FloatCC::LessThan, fy, fx);
        let eq = self.b.ins().fcmp(FloatCC::Equal, fx, fy);
        let uno = self.b.ins().fcmp(FloatCC::Unordered, fx, fy);
        let i = self.b.ins();
        match cond {
            0 => self.splat(0),
            1 => lt,
            2 => eq,
            3 => i.bor(lt, eq),
            4 => gt,
            5 => i.bor(lt, gt),
            6 => i.bor(gt, eq),
            7 => i.bnot(uno),
            8 => uno,
            9 => {
                let t = i.bor(gt, eq);
                self.b.ins().bnot(t)
            }
            10 => {
                let t = i.bor(lt, gt);
                self.b.ins().bnot(t)
            }
            11 => i.bnot(gt),
            12 => {
                let t = i.bor(lt, eq);
                self.b.ins().bnot(t)
            }
            13 => i.bnot(eq),
            14 => i.bnot(lt),
            _ => self.splat(u32::MAX),
        }
    }

    /// Chunk `c` of one VOPD component's result (`exec::vopd::component`).
    fn half(&mut self, h: &Half, k: u32, c: usize, vcc: &[Value]) -> Value {
        let x = self.vsrc(h.a, c);
        let y = self.vsrc(h.b, c);
        match h.op {
            DualOp::Fmac => {
                let d = self.get_v(h.dst, c);
                self.fma(x, y, d)
            }
            DualOp::Fmaak => {
                let kk = self.vsrc(Src::Const(k), c);
                self.fma(x, y, kk)
            }
            DualOp::Fmamk => {
                let kk = self.vsrc(Src::Const(k), c);
                self.fma(x, kk, y)
            }
            DualOp::Mul => self.v2(V2::MulF, h.a, h.b, c),
            DualOp::Add => self.v2(V2::AddF, h.a, h.b, c),
            DualOp::Sub => self.v2(V2::SubF, h.a, h.b, c),
            DualOp::SubRev => self.v2(V2::SubRevF, h.a, h.b, c),
            DualOp::Mov => x,
            DualOp::Cnd => match vcc.get(c) {
                Some(&m) => self.b.ins().bitselect(m, y, x),
                None => x,
            },
            DualOp::AddNc => self.b.ins().iadd(x, y),
            DualOp::LshlRev => self.shift(y, h.a, c, 0),
            DualOp::And => self.b.ins().band(x, y),
        }
    }

    fn s2(&mut self, op: S2, dst: u16, a: Src, b: Src) {
        let (x, y) = (self.src32(a), self.src32(b));
        // (result, Some(SCC)) — None leaves SCC alone (s_mul_i32, s_cselect_b32).
        let (d, scc) = match op {
            S2::AddU => {
                let d = self.b.ins().iadd(x, y);
                let c = self.b.ins().icmp(IntCC::UnsignedLessThan, d, x);
                (d, Some(c))
            }
            S2::SubU => {
                let d = self.b.ins().isub(x, y);
                let c = self.b.ins().icmp(IntCC::UnsignedGreaterThan, y, x);
                (d, Some(c))
            }
            S2::AddI => {
                // Signed overflow: operands agree in sign and the result does not.
                let d = self.b.ins().iadd(x, y);
                let s = self.b.ins().bxor(x, y);
                let s = self.b.ins().bnot(s);
                let t = self.b.ins().bxor(x, d);
                let o = self.b.ins().band(s, t);
                let c = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, o, 0);
                (d, Some(c))
            }
            S2::SubI => {
                let d = self.b.ins().isub(x, y);
                let s = self.b.ins().bxor(x, y);
                let t = self.b.ins().bxor(x, d);
                let o = self.b.ins().band(s, t);
                let c = self.b.ins().icmp_imm_s(IntCC::SignedLessThan, o, 0);
                (d, Some(c))
            }
            S2::AddC | S2::SubB => {
                let ci = self.get_scc();
                let (x64, y64) = (self.b.ins().uextend(I64, x), self.b.ins().uextend(I64, y));
                let c64 = self.b.ins().uextend(I64, ci);
                if op == S2::AddC {
                    let t = self.b.ins().iadd(x64, y64);
                    let t = self.b.ins().iadd(t, c64);
                    let d = self.b.ins().ireduce(I32, t);
                    let hi = self.b.ins().ushr_imm_u(t, 32);
                    let c = self.nonzero(hi);
                    (d, Some(c))
                } else {
                    let c32 = self.b.ins().uextend(I32, ci);
                    let d = self.b.ins().isub(x, y);
                    let d = self.b.ins().isub(d, c32);
                    let t = self.b.ins().iadd(y64, c64);
                    let c = self.b.ins().icmp(IntCC::UnsignedGreaterThan, t, x64);
                    (d, Some(c))
                }
            }
            S2::Mul => (self.b.ins().imul(x, y), None),
            S2::Lshl | S2::Lshr | S2::Ashr => {
                let n = self.b.ins().band_imm_u(y, 31);
                let d = match op {
                    S2::Lshl => self.b.ins().ishl(x, n),
                    S2::Lshr => self.b.ins().ushr(x, n),
                    _ => self.b.ins().sshr(x, n),
                };
                let c = self.nonzero(d);
                (d, Some(c))
            }
            S2::Logic(l) => {
                let d = self.logic(l, x, y);
                let c = self.nonzero(d);
                (d, Some(c))
            }
            S2::MinI | S2::MaxI | S2::MinU | S2::MaxU => {
                // SCC = the first operand was picked (strictly smaller / larger).
                let cc = match op {
                    S2::MinI => IntCC::SignedLessThan,
                    S2::MaxI => IntCC::SignedGreaterThan,
                    S2::MinU => IntCC::UnsignedLessThan,
                    _ => IntCC::UnsignedGreaterThan,
                };
                let first = self.b.ins().icmp(cc, x, y);
                let d = self.b.ins().select(first, x, y);
                (d, Some(first))
            }
            S2::LshlAdd(n) => {
                let x64 = self.b.ins().uextend(I64, x);
                let y64 = self.b.ins().uextend(I64, y);
                let t = self.b.ins().ishl_imm_u(x64, n as i64);
                let t = self.b.ins().iadd(t, y64);
                let d = self.b.ins().ireduce(I32, t);
                let hi = self.b.ins().ushr_imm_u(t, 32);
                let c = self.nonzero(hi);
                (d, Some(c))
            }
            S2::Cselect => {
                let s = self.get_scc();
                (self.b.ins().select(s, x, y), None)
            }
        };
        self.set_sgpr(dst, d);
        if let Some(c) = scc {
            self.set_scc(c);
        }
    }

    fn s64(&mut self, op: S64, dst: u16, a: Src64, b: Src64) {
        let x = self.src64(a);
        let (d, scc) = match op {
            S64::Mov => (x, false),
            S64::Cselect => {
                let y = self.src64(b);
                let s = self.get_scc();
                (self.b.ins().select(s, x, y), false)
            }
            S64::Logic(l) => {
                let y = self.src64(b);
                (self.logic(l, x, y), true)
            }
        };
        self.set_sgpr64(dst, d);
        if scc {
            let c = self.nonzero(d);
            self.set_scc(c);
        }
    }

    /// `op(x, y)` (`select::Logic`), on any integer type.
    fn logic(&mut self, op: Logic, x: Value, y: Value) -> Value {
        let i = self.b.ins();
        match op {
            Logic::And => i.band(x, y),
            Logic::Or => i.bor(x, y),
            Logic::Xor => i.bxor(x, y),
            Logic::Nand => {
                let t = i.band(x, y);
                self.b.ins().bnot(t)
            }
            Logic::Nor => {
                let t = i.bor(x, y);
                self.b.ins().bnot(t)
            }
            Logic::Xnor => {
                let t = i.bxor(x, y);
                self.b.ins().bnot(t)
            }
            Logic::AndNot0 => i.band_not(y, x),
            Logic::OrNot0 => i.bor_not(y, x),
            Logic::AndNot1 => i.band_not(x, y),
            Logic::OrNot1 => i.bor_not(x, y),
        }
    }

    fn saveexec(&mut self, op: Logic, wide: bool, dst: u16, s: Src64) {
        // exec::salu::saveexec32/64: saved = EXEC; EXEC = f(S0, EXEC); D = saved;
        // SCC = EXEC != 0, read after D is written (D may be EXEC itself).
        let (sv, saved) = if wide {
            let lo = self.get_sgpr(opnd::EXEC_LO);
            let hi = self.get_sgpr(opnd::EXEC_HI);
            (self.src64(s), self.join64(lo, hi))
        } else {
            let Src64::Pair(a, _) = s else { return };
            (self.src32(a), self.get_sgpr(opnd::EXEC_LO))
        };
        let e = self.logic(op, sv, saved);
        if wide {
            self.set_sgpr64(opnd::EXEC_LO, e);
            self.set_sgpr64(dst, saved);
            let lo = self.get_sgpr(opnd::EXEC_LO);
            let hi = self.get_sgpr(opnd::EXEC_HI);
            let now = self.join64(lo, hi);
            let c = self.nonzero(now);
            self.set_scc(c);
        } else {
            self.set_sgpr(opnd::EXEC_LO, e);
            self.set_sgpr(dst, saved);
            let now = self.get_sgpr(opnd::EXEC_LO);
            let c = self.nonzero(now);
            self.set_scc(c);
        }
    }

    /// The condition of a block-ending branch (I8 0/1: 1 = taken).
    fn branch_cond(&mut self, cond: Branch) -> Value {
        let lm = self.lane_mask() as i64;
        match cond {
            Branch::Always => self.b.ins().iconst(I8, 1),
            Branch::Scc1 => self.get_scc(),
            Branch::Scc0 => {
                let s = self.get_scc();
                self.b.ins().icmp_imm_s(IntCC::Equal, s, 0)
            }
            Branch::Vccz | Branch::Vccnz | Branch::Execz | Branch::Execnz => {
                let v = if matches!(cond, Branch::Vccz | Branch::Vccnz) {
                    self.vcc64()
                } else {
                    self.exec64()
                };
                let v = self.b.ins().band_imm_u(v, lm);
                let cc = if matches!(cond, Branch::Vccz | Branch::Execz) {
                    IntCC::Equal
                } else {
                    IntCC::NotEqual
                };
                self.b.ins().icmp_imm_s(cc, v, 0)
            }
        }
    }

    /// A side exit (`Node::Branch` with `side`): when the branch is taken, stores what the
    /// block wrote, adds its lane-instructions and returns exit 4; otherwise the block goes on
    /// holding everything it held (and still owing its stores).
    fn side_exit(&mut self, cond: Branch) {
        let taken = self.branch_cond(cond);
        let out = self.b.create_block();
        let go_on = self.b.create_block();
        self.b.ins().brif(taken, out, &[], go_on, &[]);
        self.b.switch_to_block(out);
        self.b.seal_block(out);
        self.store_dirty();
        self.add_lanes();
        let four = self.b.ins().iconst(I32, 4);
        self.b.ins().return_(&[four]);
        self.b.switch_to_block(go_on);
        self.b.seal_block(go_on);
    }

    /// A `Node::Call`: stores what the block holds, calls `cache::call(env, idx)`, and either
    /// returns exit 2 (the callback stopped the block; what the block still holds is stored
    /// and its lane-instructions are counted) or goes on with nothing cached (the handler may
    /// have changed any register) or, with a footprint, everything but what the handler
    /// writes.
    fn call(&mut self, idx: u32, fp: Option<&Footprint>) {
        match fp {
            Some(fp) => self.flush_footprint(fp),
            None => self.flush(),
        }
        self.invoke(idx);
    }

    /// The call of `call` once the registers are stored; continues in a new current block.
    fn invoke(&mut self, idx: u32) {
        let sig = match self.call_sig {
            Some(s) => s,
            None => {
                let mut sig = Signature::new(self.call_conv);
                sig.params.push(AbiParam::new(self.ptr_ty));
                sig.params.push(AbiParam::new(I32));
                sig.returns.push(AbiParam::new(I32));
                let s = self.b.import_signature(sig);
                self.call_sig = Some(s);
                s
            }
        };
        let f = self
            .b
            .ins()
            .load(self.ptr_ty, mem(), self.env_ptr, self.env.callback);
        let i = self.iconst32(idx);
        let inst = self.b.ins().call_indirect(sig, f, &[self.env_ptr, i]);
        let r = self.b.inst_results(inst)[0];
        let stop = self.b.create_block();
        let go_on = self.b.create_block();
        self.b.ins().brif(r, stop, &[], go_on, &[]);
        self.b.switch_to_block(stop);
        self.b.seal_block(stop);
        // Empty after a full flush; after a footprint's, what the handler did not touch.
        self.store_dirty();
        self.add_lanes();
        let two = self.b.ins().iconst(I32, 2);
        self.b.ins().return_(&[two]);
        self.b.switch_to_block(go_on);
        self.b.seal_block(go_on);
    }

    /// Jumps to `access` (with the region's host delta) when region-cache slot `slot` holds
    /// the bytes `[lo, top + bytes)`, after filling the slot through `cache::region_lookup` if
    /// it did not; to `slow` when no single allocation holds them.
    fn region_check(
        &mut self,
        slot: u8,
        lo: Value,
        top: Value,
        bytes: i64,
        access: cranelift_codegen::ir::Block,
        slow: cranelift_codegen::ir::Block,
    ) {
        let lookup = self.b.create_block();
        // Slot fields: base, len, host delta (u64 each).
        let slots = self
            .b
            .ins()
            .load(I64, mem(), self.env_ptr, self.env.regions);
        let so = 24 * slot as i32;
        let rbase = self.b.ins().load(I64, mem(), slots, so);
        let rlen = self.b.ins().load(I64, mem(), slots, so + 8);
        let delta = self.b.ins().load(I64, mem(), slots, so + 16);
        // `Region::contains` of [lo, top + bytes): lo >= base, top - base < len and
        // bytes <= len - (top - base).
        let ge = self
            .b
            .ins()
            .icmp(IntCC::UnsignedGreaterThanOrEqual, lo, rbase);
        let off = self.b.ins().isub(top, rbase);
        let lt = self.b.ins().icmp(IntCC::UnsignedLessThan, off, rlen);
        let room = self.b.ins().isub(rlen, off);
        let fits = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedGreaterThanOrEqual, room, bytes);
        let inside = self.b.ins().band(ge, lt);
        let inside = self.b.ins().band(inside, fits);
        self.b
            .ins()
            .brif(inside, access, &[delta.into()], lookup, &[]);
        self.b.switch_to_block(lookup);
        self.b.seal_block(lookup);
        let sig = match self.lookup_sig {
            Some(s) => s,
            None => {
                let mut sig = Signature::new(self.call_conv);
                sig.params.push(AbiParam::new(self.ptr_ty));
                sig.params.push(AbiParam::new(I32));
                for _ in 0..3 {
                    sig.params.push(AbiParam::new(I64));
                }
                sig.returns.push(AbiParam::new(I32));
                let s = self.b.import_signature(sig);
                self.lookup_sig = Some(s);
                s
            }
        };
        let f = self
            .b
            .ins()
            .load(self.ptr_ty, mem(), self.env_ptr, self.env.lookup);
        let slot = self.iconst32(slot as u32);
        let n = self.b.ins().iconst(I64, bytes);
        let call = self
            .b
            .ins()
            .call_indirect(sig, f, &[self.env_ptr, slot, lo, top, n]);
        let found = self.b.inst_results(call)[0];
        let reload = self.b.create_block();
        self.b.ins().brif(found, reload, &[], slow, &[]);
        self.b.switch_to_block(reload);
        self.b.seal_block(reload);
        let delta = self.b.ins().load(I64, mem(), slots, so + 16);
        self.b.ins().jump(access, &[delta.into()]);
    }

    /// Adds one issue to wait counter `field` (saturating at `max`, `WaitCounts::*_issue`).
    fn count_issue(&mut self, field: i32, max: u8) {
        let cnt = self
            .b
            .ins()
            .load(self.ptr_ty, mem(), self.env_ptr, self.env.cnt);
        let c = self.b.ins().load(I8, mem(), cnt, field);
        let below = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThan, c, max as i64);
        // (`icmp` gives an I8 0 or 1.)
        let c = self.b.ins().iadd(c, below);
        self.b.ins().store(mem(), c, cnt, field);
    }

    /// Adds one issue to wait counter `field` unless a later `s_waitcnt` resets it before
    /// anything reads it (`self.reset`, [`counters_reset_later`]); for the fast paths.
    fn count_issue_live(&mut self, field: i32, max: u8) {
        let dead =
            (field == self.env.vm && self.reset.vm) || (field == self.env.lgkm && self.reset.lgkm);
        if !dead {
            self.count_issue(field, max);
        }
    }

    /// The address `(sbase pair + imm + soff) & !3` of an s_load (`exec::smem::s_load`).
    fn sload_address(&mut self, sbase: u16, soff: Src, imm: i64) -> Value {
        let lo = self.get_sgpr(sbase);
        let hi = self.get_sgpr(sbase + 1);
        let base = self.join64(lo, hi);
        let off = self.src32(soff);
        let off = self.b.ins().uextend(I64, off);
        let a = self.b.ins().iadd_imm_s(base, imm);
        let a = self.b.ins().iadd(a, off);
        self.b.ins().band_imm_u(a, !3u64 as i64)
    }

    /// The `n` dwords at host address `host` into SGPRs `dst..dst + n`, in memory.
    fn sload_dwords(&mut self, host: Value, dst: u16, n: u8) {
        let guest = guest_mem();
        for k in 0..n as u16 {
            let v = self.b.ins().load(I32, guest, host, 4 * k as i32);
            self.b
                .ins()
                .store(mem(), v, self.sgpr_ptr, (dst + k) as i32 * 4);
        }
    }

    /// A `Node::SLoad`: the load when the region cache holds its bytes (see `select::sload`),
    /// else the handler's call; the destination is written in memory on both paths.
    #[allow(clippy::too_many_arguments)]
    fn sload(
        &mut self,
        idx: u32,
        fp: &Footprint,
        sbase: u16,
        soff: Src,
        imm: i64,
        dst: u16,
        n: u8,
        slot: u8,
    ) {
        let a = self.sload_address(sbase, soff, imm);
        self.flush_footprint(fp);
        self.sload_at(idx, a, dst, n, slot);
    }

    /// [`Gen::sload`] once its address `a` is computed and its footprint stored.
    fn sload_at(&mut self, idx: u32, a: Value, dst: u16, n: u8, slot: u8) {
        let access = self.b.create_block();
        let delta = self.b.append_block_param(access, I64);
        let slow = self.b.create_block();
        let join = self.b.create_block();
        self.region_check(slot, a, a, 4 * n as i64, access, slow);
        self.b.switch_to_block(access);
        self.b.seal_block(access);
        let host = self.b.ins().iadd(delta, a);
        self.sload_dwords(host, dst, n);
        self.count_issue_live(self.env.lgkm, crate::wave::WaitCounts::LGKM_MAX);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(slow);
        self.b.seal_block(slow);
        self.invoke(idx);
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        self.b.seal_block(join);
    }

    /// A clause of `Node::SLoad`s from one base pair ([`sload_clause_len`], `reset` their
    /// [`counters_reset_later`]): when one allocation in the first's region-cache slot holds
    /// the bytes of all of them, they load from it with one check and one LGKM_CNT update
    /// (the issues of `WaitCounts::lgkm_issue`, saturating, added at once); otherwise each
    /// runs as `sload` would, in order (its own check, and the handler, whose fault or stop
    /// is then the first in program order). Both paths leave the registers as `sload` does.
    fn sload_clause(&mut self, loads: &[Node], reset: &[Reset]) {
        struct L {
            idx: u32,
            imm: i64,
            dst: u16,
            n: u8,
            slot: u8,
            a: Value,
        }
        let mut ls = Vec::with_capacity(loads.len());
        for (j, node) in loads.iter().enumerate() {
            let Node::SLoad {
                idx,
                ref fp,
                sbase,
                soff,
                imm,
                dst,
                n,
                slot,
            } = *node
            else {
                continue;
            };
            // The first's `one_node` bookkeeping here; the others count their lanes on
            // each path below (a callback's stop must count up to its own instruction).
            if j == 0 {
                self.forget_old_vgprs();
                self.count_lanes();
            }
            let a = self.sload_address(sbase, soff, imm);
            self.flush_footprint(fp);
            ls.push(L {
                idx,
                imm,
                dst,
                n,
                slot,
                a,
            });
        }
        let (Some(lo), Some(hi)) = (
            ls.iter().min_by_key(|l| l.imm),
            ls.iter().max_by_key(|l| l.imm),
        ) else {
            return;
        };
        // Every address lies in [lo, hi] when that does not wrap (offsets differ by less
        // than 2^21), so [lo, hi + 4 * max n) covers every load's bytes.
        let bytes = 4 * ls.iter().map(|l| l.n as i64).max().unwrap_or(1);
        let (lo_a, hi_a, slot) = (lo.a, hi.a, ls[0].slot);
        let ordered = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThanOrEqual, lo_a, hi_a);
        let check = self.b.create_block();
        let each = self.b.create_block();
        let access = self.b.create_block();
        let delta = self.b.append_block_param(access, I64);
        let join = self.b.create_block();
        self.b.ins().brif(ordered, check, &[], each, &[]);
        self.b.switch_to_block(check);
        self.b.seal_block(check);
        self.region_check(slot, lo_a, hi_a, bytes, access, each);
        self.b.switch_to_block(access);
        self.b.seal_block(access);
        let counted = (self.lanes, self.lane_run);
        for (j, l) in ls.iter().enumerate() {
            if j > 0 {
                self.count_lanes();
            }
            let host = self.b.ins().iadd(delta, l.a);
            self.sload_dwords(host, l.dst, l.n);
        }
        let last = reset.last().copied().unwrap_or_default();
        if !last.lgkm {
            use crate::wave::WaitCounts as W;
            // `lgkm_issue` m times: c + m capped at the maximum, or c if already above it.
            let cnt = self
                .b
                .ins()
                .load(self.ptr_ty, mem(), self.env_ptr, self.env.cnt);
            let c = self.b.ins().load(I8, mem(), cnt, self.env.lgkm);
            let w = self.b.ins().uextend(I32, c);
            let w = self.b.ins().iadd_imm_u(w, ls.len() as i64);
            let top = self.iconst32(W::LGKM_MAX as u32);
            let w = self.b.ins().umin(w, top);
            let w = self.b.ins().ireduce(I8, w);
            let c = self.b.ins().umax(c, w);
            self.b.ins().store(mem(), c, cnt, self.env.lgkm);
        }
        self.b.ins().jump(join, &[]);
        // The other path counts the same lanes from the same point (EXEC stays cached: no
        // s_load writes it), so both end with the same count.
        (self.lanes, self.lane_run) = counted;
        self.b.switch_to_block(each);
        self.b.seal_block(each);
        for (j, l) in ls.iter().enumerate() {
            if j > 0 {
                self.count_lanes();
            }
            self.reset = reset.get(j).copied().unwrap_or_default();
            self.sload_at(l.idx, l.a, l.dst, l.n, l.slot);
        }
        self.b.ins().jump(join, &[]);
        self.b.switch_to_block(join);
        self.b.seal_block(join);
        self.reset = last;
    }

    /// A `Node::Mem`: the compiled access when some lane is active and one check over the
    /// active lanes shows every access aligned and inside one allocation (found in the region cache,
    /// or by `cache::region_lookup`) or inside LDS; otherwise the handler's call. Both paths
    /// work on the registers in memory: the footprint is stored first and the rows a load
    /// writes are forgotten, so after the join everything is as after a `Node::Call`.
    fn mem_op(&mut self, idx: u32, fp: &Footprint, m: &MemOp) {
        let bytes = m.size as i64;
        // Checks on the lanes' addresses, over the cached values (in the dominating block).
        // EXEC (nonzero: a wave without active lanes takes the handler) and its lane masks.
        let exec = self.exec64();
        let any = self.b.ins().icmp_imm_u(IntCC::NotEqual, exec, 0);
        let masks = self.exec_masks();
        let wide = !m.lds && m.buf.is_none() && m.saddr == opnd::NULL;
        // Each lane's 32-bit part of the address: the address row, or for MUBUF the
        // buffer offset (`buf_offsets`, which also gives the V#'s base plus soffset and the
        // checks the buffer rules add).
        let (bchunks, buf) = match m.buf {
            Some(bf) => {
                let (chunks, k, ok) = self.buf_offsets(m, &bf, &masks);
                (Some(chunks), Some((k, ok)))
            }
            None => (None, None),
        };
        // Everything the paths below read from the register cache is fetched here, in the
        // block that dominates them all (a value cached inside one path would not dominate the
        // code after the join): the saddr base. (The address rows are read where used,
        // `peek_v`: loaded here, every chunk stayed live across the unit-stride fast path and
        // was spilled.)
        let sbase = (buf.is_none() && !m.lds && !wide).then(|| {
            let lo = self.get_sgpr(m.saddr);
            let hi = self.get_sgpr(m.saddr + 1);
            self.join64(lo, hi)
        });
        // MUBUF: the lanes' buffer offsets in a stack slot for the lane loop.
        let offsets = bchunks.as_ref().map(|bc| {
            let bytes = (self.chunks * VL * 4) as u32;
            let ss = self.b.create_sized_stack_slot(StackSlotData::new(
                StackSlotKind::ExplicitSlot,
                bytes,
                4,
            ));
            let p = self.b.ins().stack_addr(self.ptr_ty, ss, 0);
            for (c, &v) in bc.iter().enumerate() {
                self.b.ins().store(mem(), v, p, (16 * c) as i32);
            }
            p
        });
        self.flush_footprint(fp);
        let slow = self.b.create_block();
        let join = self.b.create_block();
        // Whether the address rows passed `contiguous`'s check (I8), on every path to `join`.
        let fast = !m.lds && buf.is_none() && m.size == 4 && m.off1.is_none() && m.rmw.is_none();
        let proven = fast.then(|| self.b.append_block_param(join, I8));
        if fast {
            // A whole wave of unit-stride dwords is checked first without the lane-wise
            // reductions (`contiguous`); any other case takes the general check below.
            let general = self.b.create_block();
            self.contiguous(m, exec, sbase, general, slow, join);
            self.b.switch_to_block(general);
            self.b.seal_block(general);
        }
        // (After the footprint's flush the address rows are in the register file: the lane
        // loop below reads them there too.)
        let achunks: Vec<Value> = match bchunks {
            Some(c) => c,
            None => (0..self.chunks).map(|c| self.peek_v(m.addr, c)).collect(),
        };
        let hchunks: Vec<Value> = if wide {
            (0..self.chunks)
                .map(|c| self.peek_v(m.addr + 1, c))
                .collect()
        } else {
            Vec::new()
        };
        // Lane-wise min, max and OR of the address rows' chunks over the active lanes (and
        // min, max of the high rows of a 64-bit address): inactive lanes count as u32::MAX
        // for the minimums and 0 for the rest.
        let (ones, zeros) = (self.splat(u32::MAX), self.splat(0));
        let (mut mn, mut mx, mut or) = (ones, zeros, zeros);
        let (mut hmn, mut hmx) = (ones, zeros);
        for (c, &mask) in masks.iter().enumerate() {
            let v = achunks[c];
            let lo_v = self.b.ins().bitselect(mask, v, ones);
            let hi_v = self.b.ins().bitselect(mask, v, zeros);
            mn = self.b.ins().umin(mn, lo_v);
            mx = self.b.ins().umax(mx, hi_v);
            or = self.b.ins().bor(or, hi_v);
            if wide {
                let h = hchunks[c];
                let lo_h = self.b.ins().bitselect(mask, h, ones);
                let hi_h = self.b.ins().bitselect(mask, h, zeros);
                hmn = self.b.ins().umin(hmn, lo_h);
                hmx = self.b.ins().umax(hmx, hi_h);
            }
        }
        let reduce = |g: &mut Self, v: Value, op: u8| -> Value {
            let mut acc = g.b.ins().extractlane(v, 0);
            for k in 1..VL as u8 {
                let x = g.b.ins().extractlane(v, k);
                acc = match op {
                    0 => g.b.ins().umin(acc, x),
                    1 => g.b.ins().umax(acc, x),
                    _ => g.b.ins().bor(acc, x),
                };
            }
            g.b.ins().uextend(I64, acc)
        };
        let (mn, mx, or) = (
            reduce(self, mn, 0),
            reduce(self, mx, 1),
            reduce(self, or, 2),
        );
        // `k`: what every lane's address adds to its 32-bit VGPR value (GLOBAL: the saddr base
        // plus the offset, or the high dword's value (uniform here) plus the offset; DS: the
        // first element's offset). `lo`/`hi`: the lowest and highest such address.
        let mut ok = any;
        let k = if let Some((k, buf_ok)) = buf {
            ok = self.b.ins().band(ok, buf_ok);
            k
        } else if m.lds {
            self.b.ins().iconst(I64, m.imm)
        } else if let Some(base) = sbase {
            self.b.ins().iadd_imm_s(base, m.imm)
        } else {
            // 64-bit VGPR addresses.
            let (hmn, hmx) = (reduce(self, hmn, 0), reduce(self, hmx, 1));
            let same = self.b.ins().icmp(IntCC::Equal, hmn, hmx);
            ok = self.b.ins().band(ok, same);
            if m.flat {
                let out = self.outside_apertures(hmn);
                ok = self.b.ins().band(ok, out);
            }
            let h = self.b.ins().ishl_imm_u(hmn, 32);
            self.b.ins().iadd_imm_s(h, m.imm)
        };
        // Alignment: every address a multiple of the access's alignment (the element size
        // rounded up to a power of two: then no alignment mode changes or refuses it), shown by
        // the lanes' values and the constant parts together.
        // (DS: `exec::lds::local_align` of the element; GLOBAL: STRICT's alignment.)
        let align = (bytes as u64).next_power_of_two();
        let mut bits = self.b.ins().bor(or, k);
        if let Some(o1) = m.off1 {
            bits = self.b.ins().bor_imm_u(bits, o1 as i64);
        }
        let mis = self.b.ins().band_imm_u(bits, (align - 1) as i64);
        let aligned = self.b.ins().icmp_imm_u(IntCC::Equal, mis, 0);
        ok = self.b.ins().band(ok, aligned);
        let lo = self.b.ins().iadd(k, mn);
        let top = match m.off1 {
            Some(o1) => {
                let big = (o1 as i64).max(m.imm);
                self.b.ins().iadd_imm_s(mx, big)
            }
            None => self.b.ins().iadd(k, mx),
        };
        if !m.lds {
            // No lane's address wraps past 2^64 unless all do (then `lo > top`).
            let nowrap = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, lo, top);
            ok = self.b.ins().band(ok, nowrap);
        }
        // Whole-wave unit-stride dwords (`unit_stride`, `ramp_check`: every lane active, lane i
        // at lane 0's address plus 4i) move as vectors instead of lane by lane: saxpy's and most
        // coalesced accesses.
        let contig = (m.size == 4 && m.off1.is_none() && m.rmw.is_none())
            .then(|| self.unit_stride(&achunks, exec, mn, mx));
        let access = self.b.create_block();
        let delta_p = self.b.append_block_param(access, I64);
        if m.lds {
            // DS: the highest element's end within the workgroup's LDS (64-bit sums of 32-bit
            // values and a 16-bit offset: no lane's 32-bit address wraps).
            let len = self
                .b
                .ins()
                .load(I64, mem(), self.env_ptr, self.env.lds_len);
            let end = self.b.ins().iadd_imm_s(top, bytes);
            let inside = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, len);
            ok = self.b.ins().band(ok, inside);
            let p = self
                .b
                .ins()
                .load(I64, mem(), self.env_ptr, self.env.lds_ptr);
            self.b.ins().brif(ok, access, &[p.into()], slow, &[]);
        } else {
            let check = self.b.create_block();
            self.b.ins().brif(ok, check, &[], slow, &[]);
            self.b.switch_to_block(check);
            self.b.seal_block(check);
            self.region_check(m.slot, lo, top, bytes, access, slow);
        }
        // The access: lane by lane, host address = delta + k + the lane's 32-bit value.
        self.b.switch_to_block(access);
        self.b.seal_block(access);
        if m.rmw.is_some() && !m.lds {
            // Host atomics need the host address aligned too (`Region::atomic32/64` reports
            // a misaligned host pointer; the handler does it).
            let mis = self.b.ins().band_imm_u(delta_p, bytes - 1);
            let go = self.b.create_block();
            self.b.ins().brif(mis, slow, &[], go, &[]);
            self.b.switch_to_block(go);
            self.b.seal_block(go);
        }
        let host = self.b.ins().iadd(delta_p, k);
        let done = self.b.create_block();
        if let Some((maybe, a0, chunks)) = contig {
            let check = self.b.create_block();
            let vector = self.b.create_block();
            let lanes = self.b.create_block();
            self.b.ins().brif(maybe, check, &[], lanes, &[]);
            self.b.switch_to_block(check);
            self.b.seal_block(check);
            let ramp = self.ramp_check(a0, Chunks::Vals(&chunks), None);
            self.b.ins().brif(ramp, vector, &[], lanes, &[]);
            self.b.switch_to_block(vector);
            self.b.seal_block(vector);
            let at = self.b.ins().iadd(host, a0);
            self.move_vectors(m, at);
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(lanes);
            self.b.seal_block(lanes);
        }
        if !m.store && m.rmw.is_none() && m.size == 4 * m.dwords && m.off1.is_none() {
            // Every active lane at one address (`mn` = `mx`: a uniform load, such as a constant
            // every lane reads): each dword loaded once and written to the active lanes.
            let one = self.b.create_block();
            let lanes = self.b.create_block();
            let same = self.b.ins().icmp(IntCC::Equal, mn, mx);
            self.b.ins().brif(same, one, &[], lanes, &[]);
            self.b.switch_to_block(one);
            self.b.seal_block(one);
            let at = self.b.ins().iadd(host, mn);
            let guest = guest_mem();
            for d in 0..m.dwords as u16 {
                let v = self.b.ins().load(I32, guest, at, 4 * d as i32);
                let v = self.b.ins().splat(I32X4, v);
                for (c, &mask) in masks.iter().enumerate() {
                    let ro = vgpr_offset(m.data + d, c);
                    let old = self.b.ins().load(I32X4, mem(), self.vgpr_ptr, ro);
                    let new = self.b.ins().bitselect(mask, v, old);
                    self.b.ins().store(mem(), new, self.vgpr_ptr, ro);
                }
            }
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(lanes);
            self.b.seal_block(lanes);
        }
        if self.cold_paths
            && self.looping
            && offsets.is_none()
            && m.rmw.is_none()
            && m.size >= 4
            && m.off1.is_none()
        {
            // Every lane active (EXEC full, tested here: self-loop blocks have no full-EXEC
            // variant): the lane loop below unrolled, without its EXEC test, in the same lane
            // order (stores to one address keep the last lane's). sgemm_naive's loads (a row
            // of A that each half-wave reads at one address, a row of B that both half-waves
            // read) are neither unit-stride nor uniform and took ~11 host instructions a lane
            // in the loop. (Optimised self-loops only: the quick tier keeps its code short, and
            // saxpy's straight block, whose accesses are unit-stride, lost ~13 host
            // instructions a wave to the larger function's register allocation.)
            let unrolled = self.b.create_block();
            let lanes = self.b.create_block();
            let all = self.lane_mask() as i64;
            let full = self.b.ins().icmp_imm_u(IntCC::Equal, exec, all);
            self.b.ins().brif(full, unrolled, &[], lanes, &[]);
            self.b.switch_to_block(unrolled);
            self.b.seal_block(unrolled);
            for l in 0..(self.chunks * VL) as i32 {
                let a =
                    self.b
                        .ins()
                        .load(I32, mem(), self.vgpr_ptr, vgpr_offset(m.addr, 0) + 4 * l);
                let a = self.b.ins().uextend(I64, a);
                let at = self.b.ins().iadd(host, a);
                for d in 0..m.dwords as u16 {
                    let ro = vgpr_offset(m.data + d, 0) + 4 * l;
                    self.move_value(I32, m.store, ro, at, 4 * d as i32);
                }
            }
            self.b.ins().jump(done, &[]);
            self.b.switch_to_block(lanes);
            self.b.seal_block(lanes);
        }
        let lp = self.b.create_block();
        let lane = self.b.append_block_param(lp, I64);
        let zero = self.b.ins().iconst(I64, 0);
        self.b.ins().jump(lp, &[zero.into()]);
        self.b.switch_to_block(lp);
        // Active lanes only (`exec`, from the dominating block).
        let body = self.b.create_block();
        let next_b = self.b.create_block();
        let bit = self.b.ins().ushr(exec, lane);
        let bit = self.b.ins().band_imm_u(bit, 1);
        self.b.ins().brif(bit, body, &[], next_b, &[]);
        self.b.switch_to_block(body);
        self.b.seal_block(body);
        let lane_off = self.b.ins().ishl_imm_u(lane, 2);
        let vrow = self.b.ins().iadd(self.vgpr_ptr, lane_off);
        let a = match offsets {
            Some(p) => {
                let at = self.b.ins().iadd(p, lane_off);
                self.b.ins().load(I32, mem(), at, 0)
            }
            None => self.b.ins().load(I32, mem(), vrow, vgpr_offset(m.addr, 0)),
        };
        let a = self.b.ins().uextend(I64, a);
        let at = self.b.ins().iadd(host, a);
        let guest = guest_mem();
        let elems: &[(i32, u16)] = match m.off1 {
            // 2addr: element 1 at its own offset (relative to element 0's), data in the next
            // rows (load) or in data1 (store).
            Some(o1) => &[
                (0, m.data),
                (
                    o1 as i32 - m.imm as i32,
                    if m.store {
                        m.data1
                    } else {
                        m.data + m.dwords as u16
                    },
                ),
            ],
            None => &[(0, m.data)],
        };
        if let Some(r) = m.rmw {
            self.rmw_lane(m, &r, vrow, at, guest);
        } else if m.size < 4 {
            self.sub_dword(m, vrow, at, guest);
        }
        for &(eoff, row) in elems.iter().filter(|_| m.size >= 4 && m.rmw.is_none()) {
            for d in 0..m.dwords as u16 {
                let go = eoff + 4 * d as i32;
                let ro = vgpr_offset(row + d, 0);
                if m.store {
                    let v = self.b.ins().load(I32, mem(), vrow, ro);
                    self.b.ins().store(guest, v, at, go);
                } else {
                    let v = self.b.ins().load(I32, guest, at, go);
                    self.b.ins().store(mem(), v, vrow, ro);
                }
            }
        }
        self.b.ins().jump(next_b, &[]);
        self.b.switch_to_block(next_b);
        self.b.seal_block(next_b);
        let next = self.b.ins().iadd_imm_s(lane, 1);
        let more =
            self.b
                .ins()
                .icmp_imm_u(IntCC::UnsignedLessThan, next, (self.chunks * VL) as i64);
        self.b.ins().brif(more, lp, &[next.into()], done, &[]);
        self.b.seal_block(lp);
        self.b.switch_to_block(done);
        self.b.seal_block(done);
        self.count_mem_issue(m);
        let args = self.proof_args(proven.is_some(), false);
        self.b.ins().jump(join, &args);
        // The handler for everything else.
        self.b.switch_to_block(slow);
        self.b.seal_block(slow);
        self.invoke(idx);
        let args = self.proof_args(proven.is_some(), false);
        self.b.ins().jump(join, &args);
        self.b.switch_to_block(join);
        self.b.seal_block(join);
        // What this access showed of its address rows holds on until a node writes them
        // (`keeps_ramp`); a load into them ends it here.
        let high = sbase.is_none();
        let rows = m.addr..m.addr + 1 + u16::from(high);
        let data = m.data..m.data + m.dwords as u16;
        let overwritten = !m.store && data.start < rows.end && rows.start < data.end;
        self.ramp_proof = match proven {
            Some(ok) if !overwritten => Some(RampProof {
                row: m.addr,
                high,
                ok,
            }),
            _ => None,
        };
    }

    /// The arguments of a jump to a `mem_op`'s join: whether the access's address rows passed
    /// the unit-stride check, when the join takes it.
    fn proof_args(&mut self, param: bool, passed: bool) -> Vec<cranelift_codegen::ir::BlockArg> {
        if !param {
            return Vec::new();
        }
        vec![self.b.ins().iconst(I8, i64::from(passed)).into()]
    }

    /// One lane of an atomic (`select::Rmw`): the lane's source (and compare) value from its
    /// rows, the read-modify-write at `at`, the old value to the destination rows when it
    /// returns. Device memory: a host atomic (what `Region::atomic32/64` does: fetch-op,
    /// swap, compare-exchange, min/max), so other threads' waves see each lane's operation
    /// whole; LDS: load, `AtomicOp`'s rule, store (`lds_bytes::lds_atomic`).
    fn rmw_lane(&mut self, m: &MemOp, r: &Rmw, vrow: Value, at: Value, guest: MemFlagsData) {
        use wavesim_core::memory::AtomicOp as A;
        let w64 = m.size == 8;
        let ty = if w64 { I64 } else { I32 };
        let read = |g: &mut Self, row: u16| -> Value {
            let lo = g.b.ins().load(I32, mem(), vrow, vgpr_offset(row, 0));
            if w64 {
                let hi = g.b.ins().load(I32, mem(), vrow, vgpr_offset(row + 1, 0));
                g.join64(lo, hi)
            } else {
                lo
            }
        };
        let src = read(self, m.data);
        let cmp = (r.op == A::CmpSwap).then(|| read(self, r.cmp));
        let old = if m.lds {
            let old = self.b.ins().load(ty, guest, at, 0);
            let new = match (r.op, cmp) {
                (A::CmpSwap, Some(c)) => {
                    let eq = self.b.ins().icmp(IntCC::Equal, old, c);
                    self.b.ins().select(eq, src, old)
                }
                (A::Add, _) => self.b.ins().iadd(old, src),
                (A::Sub, _) => self.b.ins().isub(old, src),
                (A::And, _) => self.b.ins().band(old, src),
                (A::Or, _) => self.b.ins().bor(old, src),
                (A::Xor, _) => self.b.ins().bxor(old, src),
                (A::MinU, _) => self.b.ins().umin(old, src),
                (A::MaxU, _) => self.b.ins().umax(old, src),
                (A::MinI, _) => self.b.ins().smin(old, src),
                (A::MaxI, _) => self.b.ins().smax(old, src),
                // Xchg (`select::rmw_op` admits no other).
                _ => src,
            };
            self.b.ins().store(guest, new, at, 0);
            old
        } else if let Some(c) = cmp {
            self.b.ins().atomic_cas(guest, at, c, src)
        } else {
            let op = match r.op {
                A::Add => AtomicRmwOp::Add,
                A::Sub => AtomicRmwOp::Sub,
                A::And => AtomicRmwOp::And,
                A::Or => AtomicRmwOp::Or,
                A::Xor => AtomicRmwOp::Xor,
                A::MinU => AtomicRmwOp::Umin,
                A::MaxU => AtomicRmwOp::Umax,
                A::MinI => AtomicRmwOp::Smin,
                A::MaxI => AtomicRmwOp::Smax,
                _ => AtomicRmwOp::Xchg,
            };
            self.b.ins().atomic_rmw(ty, guest, op, at, src)
        };
        if r.rtn {
            let (lo, hi) = if w64 {
                let lo = self.b.ins().ireduce(I32, old);
                let hi = self.b.ins().ushr_imm_u(old, 32);
                (lo, Some(self.b.ins().ireduce(I32, hi)))
            } else {
                (old, None)
            };
            self.b.ins().store(mem(), lo, vrow, vgpr_offset(r.dst, 0));
            if let Some(hi) = hi {
                self.b
                    .ins()
                    .store(mem(), hi, vrow, vgpr_offset(r.dst + 1, 0));
            }
        }
    }

    /// A `Node::VTrans`: the source's lanes to a stack buffer, `select::trans_lanes(op, mode,
    /// src, dst, EXEC)` (its address read from `*env`), the results blended into `dst` under
    /// EXEC. Registers stay cached: the call touches only the two buffers.
    fn trans(&mut self, op: Trans, dst: u16, a: Src, a64: VSrc64, mode: u32) {
        // Low dwords of the 64 lanes, then high dwords.
        let bytes = (2 * LANES * 4) as u32;
        let hi_off = (LANES * 4) as i32;
        let slot = |g: &mut Self| {
            let ss = g.b.create_sized_stack_slot(StackSlotData::new(
                StackSlotKind::ExplicitSlot,
                bytes,
                4,
            ));
            g.b.ins().stack_addr(g.ptr_ty, ss, 0)
        };
        let (sp, dp) = (slot(self), slot(self));
        for c in 0..self.chunks {
            let off = (16 * c) as i32;
            if op.wide() {
                let [lo, hi] = self.vsrc64_chunk_split(a64, c);
                self.b.ins().store(mem(), lo, sp, off);
                self.b.ins().store(mem(), hi, sp, hi_off + off);
            } else {
                let v = self.vsrc(a, c);
                self.b.ins().store(mem(), v, sp, off);
            }
        }
        let exec = self.exec64();
        let mut sig = Signature::new(self.call_conv);
        for t in [I32, I32, self.ptr_ty, self.ptr_ty, I64] {
            sig.params.push(AbiParam::new(t));
        }
        let sig = self.b.import_signature(sig);
        let f = self
            .b
            .ins()
            .load(self.ptr_ty, mem(), self.env_ptr, self.env.trans);
        let (o, m) = (self.iconst32(op as u32), self.iconst32(mode));
        self.b.ins().call_indirect(sig, f, &[o, m, sp, dp, exec]);
        let masks = self.exec_masks();
        let halves: &[(u16, i32)] = if op.wide() {
            &[(0, 0), (1, hi_off)]
        } else {
            &[(0, 0)]
        };
        for &(k, base) in halves {
            let vals = (0..self.chunks)
                .map(|c| self.b.ins().load(I32X4, mem(), dp, base + (16 * c) as i32))
                .collect();
            self.vwrite(dst + k, vals, &masks);
        }
    }

    /// Chunk `c` of a 64-bit VALU source as (low dwords, high dwords) of its 4 lanes.
    fn vsrc64_chunk_split(&mut self, s: VSrc64, c: usize) -> [Value; 2] {
        match s {
            VSrc64::Vgpr(r) => [self.get_v(r, c), self.get_v(r + 1, c)],
            VSrc64::Scalar(k) => {
                let v = self.src64(k);
                let l = self.b.ins().ireduce(I32, v);
                let h = self.b.ins().ushr_imm_u(v, 32);
                let h = self.b.ins().ireduce(I32, h);
                [self.b.ins().splat(I32X4, l), self.b.ins().splat(I32X4, h)]
            }
        }
    }

    /// MUBUF addressing (`exec::buffer::address`) for the fast path of `mem_op`: each lane's
    /// buffer offset `index * stride + offset + inst_offset` (I32X4 chunks), the V#'s base plus
    /// soffset (I64: every lane's address is that plus its offset) and the condition under
    /// which those are the handler's addresses and every active lane's whole access is in
    /// range, so no byte reads 0 or is dropped:
    /// - the V# is of type buffer (else the handler ignores the instruction), linear
    ///   (swizzle_enable 0) and without add_tid_enable;
    /// - with `hi` = max index * stride + max offset + inst_offset + size over the active
    ///   lanes (64-bit; no lane's sum exceeds it, so below 2^32 no lane's 32-bit sums wrapped
    ///   and the 32-bit offsets equal the handler's 64-bit ones): OOB_SELECT 3 (raw)
    ///   `hi <= num_records`; 2 `num_records != 0`; 1 max index < num_records; 0 also
    ///   max offset + inst_offset + size <= stride; 0 to 2 with `hi <= 2^32`. Per-dword checks
    ///   of multi-dword accesses then all pass.
    fn buf_offsets(
        &mut self,
        m: &MemOp,
        bf: &BufAddr,
        masks: &[Value],
    ) -> (Vec<Value>, Value, Value) {
        let w: Vec<Value> = (0..4).map(|k| self.get_sgpr(bf.srsrc + k)).collect();
        // base_address = w0 | w1[15:0] << 32; stride = w1[29:16]; num_records = w2.
        let lo = self.b.ins().uextend(I64, w[0]);
        let hi16 = self.b.ins().band_imm_u(w[1], 0xffff);
        let hi16 = self.b.ins().uextend(I64, hi16);
        let hi16 = self.b.ins().ishl_imm_u(hi16, 32);
        let base = self.b.ins().bor(lo, hi16);
        let soff = self.src32(bf.soff);
        let soff = self.b.ins().uextend(I64, soff);
        let k = self.b.ins().iadd(base, soff);
        let stride = self.b.ins().ushr_imm_u(w[1], 16);
        let stride = self.b.ins().band_imm_u(stride, 0x3fff);
        // swizzle_enable (w1[31:30]) 0; type (w3[31:30]) 0 and add_tid_enable (w3[23]) 0.
        let swz = self.b.ins().band_imm_u(w[1], 0xc000_0000u32 as i64);
        let t = self.b.ins().band_imm_u(w[3], 0xc080_0000u32 as i64);
        let flags = self.b.ins().bor(swz, t);
        let mut ok = self.b.ins().icmp_imm_u(IntCC::Equal, flags, 0);
        let zero = self.splat(0);
        let sv = self.b.ins().splat(I32X4, stride);
        let inst_off = self.splat(m.imm as u32);
        let (mut imx, mut omx) = (zero, zero);
        let mut chunks = Vec::with_capacity(self.chunks);
        for (c, &mask) in masks.iter().enumerate() {
            let idx = if bf.idxen {
                self.get_v(m.addr, c)
            } else {
                zero
            };
            let off = if bf.offen {
                self.get_v(m.addr + bf.idxen as u16, c)
            } else {
                zero
            };
            if bf.idxen {
                let a = self.b.ins().bitselect(mask, idx, zero);
                imx = self.b.ins().umax(imx, a);
            }
            if bf.offen {
                let a = self.b.ins().bitselect(mask, off, zero);
                omx = self.b.ins().umax(omx, a);
            }
            let v = self.b.ins().imul(idx, sv);
            let v = self.b.ins().iadd(v, off);
            chunks.push(self.b.ins().iadd(v, inst_off));
        }
        let max64 = |g: &mut Self, v: Value| -> Value {
            let mut acc = g.b.ins().extractlane(v, 0);
            for l in 1..VL as u8 {
                let x = g.b.ins().extractlane(v, l);
                acc = g.b.ins().umax(acc, x);
            }
            g.b.ins().uextend(I64, acc)
        };
        let imax = if bf.idxen {
            max64(self, imx)
        } else {
            self.b.ins().iconst(I64, 0)
        };
        let omax = if bf.offen {
            max64(self, omx)
        } else {
            self.b.ins().iconst(I64, 0)
        };
        let stride64 = self.b.ins().uextend(I64, stride);
        let nr = self.b.ins().uextend(I64, w[2]);
        // The end of the highest lane's access within its record, and in the buffer.
        let rec_end = self.b.ins().iadd_imm_s(omax, m.imm + m.size as i64);
        let span = self.b.ins().imul(imax, stride64);
        let end = self.b.ins().iadd(span, rec_end);
        let fits32 = self
            .b
            .ins()
            .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, end, 1 << 32);
        let raw = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, end, nr);
        let nonnull = self.b.ins().icmp_imm_u(IntCC::NotEqual, nr, 0);
        let idx_in = self.b.ins().icmp(IntCC::UnsignedLessThan, imax, nr);
        let in_rec = self
            .b
            .ins()
            .icmp(IntCC::UnsignedLessThanOrEqual, rec_end, stride64);
        let s0 = self.b.ins().band(idx_in, in_rec);
        let s0 = self.b.ins().band(s0, fits32);
        let s1 = self.b.ins().band(idx_in, fits32);
        let s2 = self.b.ins().band(nonnull, fits32);
        // OOB_SELECT = w3[29:28].
        let oob = self.b.ins().ushr_imm_u(w[3], 28);
        let oob = self.b.ins().band_imm_u(oob, 3);
        let mut range = raw;
        for (sel, cond) in [(0, s0), (1, s1), (2, s2)] {
            let is = self.b.ins().icmp_imm_u(IntCC::Equal, oob, sel);
            range = self.b.ins().select(is, cond, range);
        }
        ok = self.b.ins().band(ok, range);
        (chunks, k, ok)
    }

    /// One lane of a sub-dword GLOBAL/FLAT access (`exec::flat`'s `extend`, `merge_d16` and
    /// `store_bytes`): the byte or half at `at` zero- or sign-extended into the lane of row
    /// `m.data` (`vrow`: the lane's address in row 0), or for d16 loads into its low or high
    /// half with the other half kept; a store writes the low byte or half of the lane's value,
    /// or of its high half for `d16_hi`.
    fn sub_dword(&mut self, m: &MemOp, vrow: Value, at: Value, guest: MemFlagsData) {
        let ro = vgpr_offset(m.data, 0);
        if m.store {
            let v = self.b.ins().load(I32, mem(), vrow, ro);
            let v = if m.d16 == D16::Hi {
                self.b.ins().ushr_imm_u(v, 16)
            } else {
                v
            };
            if m.size == 1 {
                self.b.ins().istore8(guest, v, at, 0);
            } else {
                self.b.ins().istore16(guest, v, at, 0);
            }
            return;
        }
        let v = match (m.size, m.sext) {
            (1, false) => self.b.ins().uload8(I32, guest, at, 0),
            (1, true) => self.b.ins().sload8(I32, guest, at, 0),
            (_, false) => self.b.ins().uload16(I32, guest, at, 0),
            (_, true) => self.b.ins().sload16(I32, guest, at, 0),
        };
        let v = match m.d16 {
            D16::None => v,
            half => {
                // The 16-bit result (an i8 extends to 16 bits) merged with the kept half.
                let v = self.b.ins().band_imm_u(v, 0xffff);
                let old = self.b.ins().load(I32, mem(), vrow, ro);
                if half == D16::Hi {
                    let keep = self.b.ins().band_imm_u(old, 0xffff);
                    let v = self.b.ins().ishl_imm_u(v, 16);
                    self.b.ins().bor(keep, v)
                } else {
                    let keep = self.b.ins().band_imm_u(old, 0xffff_0000);
                    self.b.ins().bor(keep, v)
                }
            }
        };
        self.b.ins().store(mem(), v, vrow, ro);
    }

    /// The scalar half of the whole-wave unit-stride check of the lane values `chunks` (lane i holding
    /// lane 0's value plus 4i): EXEC is every lane, lane 0's value is `mn` and the highest is
    /// `mx` = `mn` + 4 * (lanes - 1) (the active lanes' minimum and maximum, I64), so no lane
    /// wrapped. Returns that condition, lane 0's value (I64) and the row's chunks, for
    /// [`Self::ramp_check`] to finish the check only when the cheap half holds (a uniform or
    /// scattered address costs a few scalar compares).
    /// FLAT: whether no address whose high dword (I64) is `h` lies in the LDS or private
    /// aperture. They are 4 GiB at multiples of 4 GiB, so with one high dword for all lanes no
    /// address lies in either when that dword is neither's (`exec::flat::targets` classifies the
    /// address before adding the offset).
    fn outside_apertures(&mut self, h: Value) -> Value {
        use crate::exec::operand::{PRIVATE_APERTURE, SHARED_APERTURE};
        const _: () = assert!(SHARED_APERTURE.is_multiple_of(1 << 32));
        const _: () = assert!(PRIVATE_APERTURE.is_multiple_of(1 << 32));
        let [shared, private] = [SHARED_APERTURE, PRIVATE_APERTURE].map(|ap| {
            self.b
                .ins()
                .icmp_imm_u(IntCC::NotEqual, h, (ap >> 32) as i64)
        });
        self.b.ins().band(shared, private)
    }

    /// The fast path of a GLOBAL/FLAT dword access (`mem_op`) for the commonest case, a whole
    /// wave at consecutive dwords: EXEC full, lane i's 32-bit address part lane 0's plus 4i
    /// without wrapping, one high dword (or the saddr base) for all lanes. It checks exactly
    /// what the general check would conclude in that case (the lowest address is lane 0's, the
    /// highest lane N-1's, the alignment lane 0's) without the lane-wise minimum, maximum and
    /// OR over the chunks, and moves the wave's dwords as vectors. Anything else continues at
    /// `general`; an access outside every allocation at `slow` (the handler), as the general
    /// check would.
    #[allow(clippy::too_many_arguments)]
    fn contiguous(
        &mut self,
        m: &MemOp,
        exec: Value,
        sbase: Option<Value>,
        general: cranelift_codegen::ir::Block,
        slow: cranelift_codegen::ir::Block,
        join: cranelift_codegen::ir::Block,
    ) {
        let span = 4 * (self.chunks * VL) as i64 - 4;
        let all_lanes = self.lane_mask() as i64;
        // (Known full in the full-EXEC variant.)
        if self.full.is_none() || self.cached_exec_pair() != self.full {
            let full = self.b.ins().icmp_imm_u(IntCC::Equal, exec, all_lanes);
            let ramp = self.b.create_block();
            self.b.ins().brif(full, ramp, &[], general, &[]);
            self.b.switch_to_block(ramp);
            self.b.seal_block(ramp);
        }
        // An earlier access showed these rows a ramp (`RampProof`) where its flag is set:
        // then only the scalar checks below are made again.
        let proof = self
            .ramp_proof
            .filter(|p| p.row == m.addr && (p.high || sbase.is_some()))
            .map(|p| p.ok);
        let merged = proof.map(|flag| {
            let merged = self.b.create_block();
            self.b.append_block_param(merged, I8);
            let check = self.b.create_block();
            let one = self.b.ins().iconst(I8, 1);
            self.b.ins().brif(flag, merged, &[one.into()], check, &[]);
            self.b.switch_to_block(check);
            self.b.seal_block(check);
            merged
        });
        // Lane 0's and the last lane's 32-bit parts first: most other patterns (rows of a 2D
        // workgroup, strided or repeated addresses) leave here at the cost of two loads.
        let a0 = self.peek_lane(m.addr, 0);
        let an = self.peek_lane(m.addr, self.chunks * VL - 1);
        let d = self.b.ins().isub(an, a0);
        let ends = self.b.ins().icmp_imm_u(IntCC::Equal, d, span);
        let lanes = self.b.create_block();
        self.b.ins().brif(ends, lanes, &[], general, &[]);
        self.b.switch_to_block(lanes);
        self.b.seal_block(lanes);
        let a0 = self.b.ins().uextend(I64, a0);
        // (With a 64-bit address, the high dwords checked uniform in the same test.)
        let h0 = sbase.is_none().then(|| self.peek_lane(m.addr + 1, 0));
        let ramp = self.ramp_check(a0, Chunks::Row(m.addr), h0.map(|h| (h, m.addr + 1)));
        let (a0, h0, mut ok) = match merged {
            None => (a0, h0, ramp),
            Some(merged) => {
                // Lane 0's values again where both paths meet (the same: no node wrote them).
                self.b.ins().jump(merged, &[ramp.into()]);
                self.b.switch_to_block(merged);
                self.b.seal_block(merged);
                let ramp = self.b.block_params(merged)[0];
                let a0 = self.peek_lane(m.addr, 0);
                let a0 = self.b.ins().uextend(I64, a0);
                let h0 = sbase.is_none().then(|| self.peek_lane(m.addr + 1, 0));
                (a0, h0, ramp)
            }
        };
        // No lane's 32-bit part wraps (then the ramp is the lanes' exact values).
        let nowrap32 =
            self.b
                .ins()
                .icmp_imm_u(IntCC::UnsignedLessThanOrEqual, a0, u32::MAX as i64 - span);
        ok = self.b.ins().band(ok, nowrap32);
        let k = match (sbase, h0) {
            (Some(base), _) => self.b.ins().iadd_imm_s(base, m.imm),
            (None, None) => self.b.ins().iconst(I64, 0),
            (None, Some(h0)) => {
                let h0 = self.b.ins().uextend(I64, h0);
                if m.flat {
                    let out = self.outside_apertures(h0);
                    ok = self.b.ins().band(ok, out);
                }
                let h = self.b.ins().ishl_imm_u(h0, 32);
                self.b.ins().iadd_imm_s(h, m.imm)
            }
        };
        // Dword alignment of every lane's address: lane 0's and the constant part's.
        let bits = self.b.ins().bor(a0, k);
        let mis = self.b.ins().band_imm_u(bits, 3);
        let aligned = self.b.ins().icmp_imm_u(IntCC::Equal, mis, 0);
        ok = self.b.ins().band(ok, aligned);
        let lo = self.b.ins().iadd(k, a0);
        let top = self.b.ins().iadd_imm_s(lo, span);
        let nowrap = self.b.ins().icmp(IntCC::UnsignedLessThanOrEqual, lo, top);
        ok = self.b.ins().band(ok, nowrap);
        let check = self.b.create_block();
        self.b.ins().brif(ok, check, &[], general, &[]);
        self.b.switch_to_block(check);
        self.b.seal_block(check);
        let access = self.b.create_block();
        let delta = self.b.append_block_param(access, I64);
        self.region_check(m.slot, lo, top, 4, access, slow);
        self.b.switch_to_block(access);
        self.b.seal_block(access);
        let at = self.b.ins().iadd(delta, lo);
        self.move_vectors(m, at);
        self.count_mem_issue(m);
        // (`mem_op` gives the join the check's flag whenever it calls this.)
        let args = self.proof_args(true, true);
        self.b.ins().jump(join, &args);
    }

    /// A whole wave's dwords between VGPR row `m.data` and guest memory at host address `at`.
    fn move_vectors(&mut self, m: &MemOp, at: Value) {
        for c in 0..self.chunks {
            self.move_value(I32X4, m.store, vgpr_offset(m.data, c), at, (16 * c) as i32);
        }
    }

    /// One `ty` value between the register file at offset `ro` and guest memory at host
    /// address `at + go` (to memory when `store`).
    fn move_value(&mut self, ty: Type, store: bool, ro: i32, at: Value, go: i32) {
        let guest = guest_mem();
        if store {
            let v = self.b.ins().load(ty, mem(), self.vgpr_ptr, ro);
            self.b.ins().store(guest, v, at, go);
        } else {
            let v = self.b.ins().load(ty, guest, at, go);
            self.b.ins().store(mem(), v, self.vgpr_ptr, ro);
        }
    }

    /// The handler's counting of a memory instruction (`exec::flat::count`, `exec::lds::issue`):
    /// one issue, saturating at the field's maximum. Atomics count as loads when they return
    /// (`exec::flat::count`, `exec::buffer`); FLAT also counts in LGKM_CNT.
    fn count_mem_issue(&mut self, m: &MemOp) {
        let vs = m.store || m.rmw.is_some_and(|r| !r.rtn);
        let (field, max) = match (m.lds, vs) {
            (true, _) => (self.env.lgkm, crate::wave::WaitCounts::LGKM_MAX),
            (false, false) => (self.env.vm, crate::wave::WaitCounts::VM_MAX),
            (false, true) => (self.env.vs, crate::wave::WaitCounts::VS_MAX),
        };
        self.count_issue_live(field, max);
        if m.flat {
            self.count_issue_live(self.env.lgkm, crate::wave::WaitCounts::LGKM_MAX);
        }
    }

    fn unit_stride(
        &mut self,
        chunks: &[Value],
        exec: Value,
        mn: Value,
        mx: Value,
    ) -> (Value, Value, Vec<Value>) {
        let a0 = self.b.ins().extractlane(chunks[0], 0);
        let a0 = self.b.ins().uextend(I64, a0);
        let all_lanes = self.lane_mask() as i64;
        let full = self.b.ins().icmp_imm_u(IntCC::Equal, exec, all_lanes);
        let least = self.b.ins().icmp(IntCC::Equal, mn, a0);
        let last = self
            .b
            .ins()
            .iadd_imm_s(a0, 4 * (self.chunks * VL) as i64 - 4);
        let most = self.b.ins().icmp(IntCC::Equal, mx, last);
        let ok = self.b.ins().band(full, least);
        let ok = self.b.ins().band(ok, most);
        (ok, a0, chunks.to_vec())
    }

    /// The vector half of the unit-stride check: every chunk of the row equals lane 0's value
    /// plus 4 * lane (wrapping 32-bit arithmetic; with the scalar half no lane wrapped), and
    /// with `highs` (lane 0's high dword, the high row's chunks) every high dword lane 0's.
    /// Chunk 0 is compared with a0 + (0, 4, 8, 12) and each later chunk's difference from the
    /// one before with 16 (by induction lane i is a0 + 4i): the XORs with what each should be
    /// are ORed together and tested for zero once, three vector operations a chunk and no
    /// constant per chunk, where a compare and AND per chunk and per row and one test per row
    /// took more.
    fn ramp_check(&mut self, a0: Value, chunks: Chunks, highs: Option<(Value, u16)>) -> Value {
        let first = self.chunk_of(chunks, 0);
        let a0_32 = self.b.ins().ireduce(I32, a0);
        let s0 = self.b.ins().splat(I32X4, a0_32);
        let ramp = self.vconst([0, 4, 8, 12]);
        let want = self.b.ins().iadd(s0, ramp);
        let mut acc = self.b.ins().bxor(first, want);
        let step = self.splat(4 * VL as u32);
        let mut prev = first;
        for c in 1..self.chunks {
            let v = self.chunk_of(chunks, c);
            let d = self.b.ins().isub(v, prev);
            let x = self.b.ins().bxor(d, step);
            acc = self.b.ins().bor(acc, x);
            prev = v;
        }
        if let Some((h0, row)) = highs {
            let sh = self.b.ins().splat(I32X4, h0);
            for c in 0..self.chunks {
                let h = self.peek_v(row, c);
                let x = self.b.ins().bxor(h, sh);
                acc = self.b.ins().bor(acc, x);
            }
        }
        let any = self.b.ins().vany_true(acc);
        self.b.ins().icmp_imm_u(IntCC::Equal, any, 0)
    }

    /// Before a call with a known footprint: stores the registers the handler reads or
    /// writes if the block changed them (a handler's EXEC-masked write keeps the other lanes
    /// of the row it finds) and forgets those it writes; everything else stays cached, and
    /// dirty, across the call.
    fn flush_footprint(&mut self, fp: &Footprint) {
        let srange = |(c, n): (u16, u8)| c..c + n as u16;
        let scalars = fp.sread.iter().copied().chain([fp.swrite]).flat_map(srange);
        for code in scalars {
            if let Some(&(v, true)) = self.sgpr.get(&code) {
                self.b.ins().store(mem(), v, self.sgpr_ptr, code as i32 * 4);
                self.sgpr.insert(code, (v, false));
            }
        }
        let rows = fp.vread.iter().copied().chain([fp.vwrite]).flat_map(srange);
        for row in rows {
            for chunk in 0..self.chunks {
                if let Some(&(v, true)) = self.vgpr.get(&(row, chunk)) {
                    self.store_v(row, chunk, v);
                    self.vgpr.insert((row, chunk), (v, false));
                }
            }
        }
        for code in srange(fp.swrite) {
            self.sgpr.remove(&code);
        }
        for row in srange(fp.vwrite) {
            for chunk in 0..self.chunks {
                self.vgpr.remove(&(row, chunk));
            }
        }
    }

    /// Stores every register the block wrote and forgets every cached value.
    fn flush(&mut self) {
        self.store_dirty();
        self.sgpr.clear();
        self.vgpr.clear();
        self.scc = None;
        self.masks = None;
        self.known_masks.clear();
    }

    /// Adds the lane-instructions counted so far to `*lanes`.
    fn add_lanes(&mut self) {
        if let Some(n) = self.lanes_so_far() {
            let old = self.b.ins().load(I64, mem(), self.lanes_ptr, 0);
            let t = self.b.ins().iadd(old, n);
            self.b.ins().store(mem(), t, self.lanes_ptr, 0);
        }
    }

    fn store_sgpr(&mut self, code: u16, v: Value) {
        self.b.ins().store(mem(), v, self.sgpr_ptr, code as i32 * 4);
    }

    fn store_v(&mut self, row: u16, chunk: usize, v: Value) {
        self.b
            .ins()
            .store(mem(), v, self.vgpr_ptr, vgpr_offset(row, chunk));
    }

    fn store_dirty(&mut self) {
        let mut sg: Vec<_> = self.sgpr.iter().map(|(&k, &v)| (k, v)).collect();
        sg.sort_by_key(|e| e.0);
        for (code, (v, dirty)) in sg {
            if dirty {
                self.store_sgpr(code, v);
            }
        }
        let mut vg: Vec<_> = self.vgpr.iter().map(|(&k, &v)| (k, v)).collect();
        vg.sort_by_key(|e| e.0);
        for ((row, chunk), (v, dirty)) in vg {
            if dirty {
                self.store_v(row, chunk, v);
            }
        }
        if let Some((v, true)) = self.scc {
            self.b.ins().store(mem(), v, self.scc_ptr, 0);
        }
    }

    /// Stores what the block wrote, adds its lane-instructions and returns the exit.
    fn leave(&mut self, exit: Exit) {
        self.store_dirty();
        self.add_lanes();
        let r = match exit {
            Exit::Branch(c) => self.b.ins().uextend(I32, c),
            Exit::FallThrough => self.b.ins().iconst(I32, 0),
            Exit::Ended => self.b.ins().iconst(I32, 3),
        };
        self.b.ins().return_(&[r]);
    }

    /// Stores what the block wrote, adds its lane-instructions and returns the exit, or, for
    /// a self-loop whose branch is taken and whose next iteration fits the budget, counts the
    /// iteration and goes back to `head`.
    fn finish(
        mut self,
        exit: Exit,
        target: cranelift_codegen::isa::TargetFrontendConfig,
        self_loop: Option<(SelfLoop, cranelift_codegen::ir::Block)>,
    ) {
        if self_loop.is_none() {
            self.leave(exit);
            self.b.finalize(target);
            return;
        }
        self.store_dirty();
        self.add_lanes();
        if let (Exit::Branch(taken), Some((l, head))) = (exit, self_loop) {
            let done = self.b.ins().load(I64, mem(), self.env_ptr, l.done);
            let done = self.b.ins().iadd_imm_u(done, l.len as i64);
            let budget = self.b.ins().load(I64, mem(), self.env_ptr, l.budget);
            let next_end = self.b.ins().iadd_imm_u(done, l.len as i64);
            let fits = self
                .b
                .ins()
                .icmp(IntCC::UnsignedLessThanOrEqual, next_end, budget);
            let again = self.b.ins().band(taken, fits);
            let back = self.b.create_block();
            let out = self.b.create_block();
            self.b.ins().brif(again, back, &[], out, &[]);
            self.b.switch_to_block(back);
            self.b.seal_block(back);
            self.b.ins().store(mem(), done, self.env_ptr, l.done);
            self.b.ins().jump(head, &[]);
            self.b.seal_block(head);
            self.b.switch_to_block(out);
            self.b.seal_block(out);
        } else if let Some((_, head)) = self_loop {
            // A self-loop without a branch condition cannot be (the last node is the branch).
            self.b.seal_block(head);
        }
        let r = match exit {
            Exit::Branch(c) => self.b.ins().uextend(I32, c),
            Exit::FallThrough => self.b.ins().iconst(I32, 0),
            Exit::Ended => self.b.ins().iconst(I32, 3),
        };
        self.b.ins().return_(&[r]);
        self.b.finalize(target);
    }
}
