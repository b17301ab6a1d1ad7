//! The race check's stale-read rule: a plain load racing with another wave's atomic
//! read-modify-write is reported only when the value it read reaches memory.
//!
//! A plain load of a word another wave is still changing atomically (no barrier between them,
//! either may run first) may read a stale value. Machine code cannot say whether that is a bug:
//! LLVM emits an atomic load as the same plain `ds_load_b32` / `global_load_b32` (InstCombine turns
//! `atomic_add(&x, 0u)` into one; a CAS loop starts with one), and such loads are correct
//! because of how their value is used. A CAS loop passes its first read only as the compare
//! value of `ds_cmpstore`/`*_atomic_cmpswap` and as a loop condition: a stale value just makes
//! the compare fail and the loop go round again with the value the atomic returned. A value
//! that is never used is harmless too. What is not tolerated is storing the value: then a stale
//! read becomes the kernel's result (a removed barrier between `ds_add` and the load that copies
//! the total out).
//!
//! So the rule follows each plain load's value through register data flow ([`Taint`]: which
//! load instances a register's value derives from) and reports a conflict whose load reaches
//! the data a memory write stores ([`Class::store_data`]: store data and an atomic's DATA, not
//! addresses, not a compare-and-swap's compare value, not EXEC or branch conditions, which are
//! how the tolerant uses consume it). Registers are tracked whole (not per lane); an instruction
//! writing a register gives it the union of what its sources hold; a VGPR written under a
//! partial EXEC (or by `v_writelane`, or a D16 load) keeps what it held too; a value an atomic
//! returns, a scalar load and an LDS parameter load are clean. Values go through scratch
//! (spills) by address; a write to scratch is not a memory write of the rule.
//!
//! The atomic may run after the load in the emulated order, so the rule joins two facts as they
//! become known, in either order: "load L conflicts with atomic X" (from the race shadow) and
//! "L's value reached the write at PC P" (from the data flow); a finding is made when both are
//! known for the same load instance, which gives exactly the pairs a resolution at the end of
//! the dispatch would.

use super::class::{Class, RegRun, Space};
use super::{reg_index, Access, FindingKind, Inside, WaveModel};
use crate::decode::{opnd, Inst};
use crate::isa::{Op, D16};

/// Most load instances one register remembers (the newest; a value accumulated from more
/// loads, e.g. a sum over a loop, forgets the oldest: a documented limit).
const TAINT_CAP: usize = 16;

/// Load instances a register's value derives from: sorted ids (see [`load_id`]).
pub(super) type Taint = Vec<u64>;

/// Id of the `n`th plain load of the dispatch (n >= 1); bit 0 says it read LDS, so the ids of a
/// finished workgroup's LDS loads can be dropped (nothing can conflict with them any more).
pub(super) fn load_id(n: u64, lds: bool) -> u64 {
    n << 1 | lds as u64
}

fn is_lds_load(id: u64) -> bool {
    id & 1 != 0
}

/// Adds `src` to `dst` (both sorted), keeping the newest [`TAINT_CAP`].
fn union_into(dst: &mut Taint, src: &[u64]) {
    if src.is_empty() {
        return;
    }
    dst.extend_from_slice(src);
    dst.sort_unstable();
    dst.dedup();
    if dst.len() > TAINT_CAP {
        dst.drain(..dst.len() - TAINT_CAP);
    }
}

fn is_exec(code: u16) -> bool {
    code == opnd::EXEC_LO || code == opnd::EXEC_HI
}

/// A plain load and another wave's atomic on the same bytes with no barrier between.
#[derive(Clone, Copy, Debug)]
pub(super) struct StaleRead {
    lds: bool,
    addr: u64,
    load: Access,
    atomic: Access,
}

/// The first memory write a load's value reached.
#[derive(Clone, Copy, Debug)]
pub(super) struct FedWrite {
    pc: u64,
    idx: u32,
}

/// The rule's per-dispatch state (empty unless the race check runs).
#[derive(Default)]
pub(super) struct StaleState {
    /// Plain loads numbered so far.
    loads: u64,
    stale: std::collections::HashMap<u64, StaleRead>,
    fed: std::collections::HashMap<u64, FedWrite>,
}

impl StaleState {
    /// A new load instance id.
    pub(super) fn next_load(&mut self, lds: bool) -> u64 {
        self.loads += 1;
        load_id(self.loads, lds)
    }

    /// The workgroup ended: its LDS loads can meet no other access.
    pub(super) fn close_group(&mut self) {
        self.stale.retain(|&id, _| !is_lds_load(id));
        self.fed.retain(|&id, _| !is_lds_load(id));
    }
}

impl WaveModel {
    /// Union of the taints of `runs` (EXEC is control, never data).
    fn taint_of(&self, runs: &[RegRun]) -> Taint {
        let mut t = Taint::new();
        for code in runs.iter().flat_map(|r| r.codes()).filter(|&c| !is_exec(c)) {
            if let Some(x) = reg_index(code).and_then(|i| self.taint.get(i)) {
                union_into(&mut t, x);
            }
        }
        t
    }
}

impl Inside {
    /// `load` (a plain load) and `atomic` (another wave's atomic, no barrier between) touched
    /// byte `addr`.
    pub(super) fn note_stale_read(&mut self, lds: bool, addr: u64, load: Access, atomic: Access) {
        if load.load == 0 || self.stale_state.stale.contains_key(&load.load) {
            return;
        }
        let s = StaleRead {
            lds,
            addr,
            load,
            atomic,
        };
        self.stale_state.stale.insert(load.load, s);
        if let Some(w) = self.stale_state.fed.get(&load.load).copied() {
            self.report_stale(&s, w);
        }
    }

    fn note_fed_write(&mut self, id: u64, w: FedWrite) {
        if self.stale_state.fed.contains_key(&id) {
            return;
        }
        self.stale_state.fed.insert(id, w);
        if let Some(s) = self.stale_state.stale.get(&id).copied() {
            self.report_stale(&s, w);
        }
    }

    fn report_stale(&mut self, s: &StaleRead, w: FedWrite) {
        let space = if s.lds { "LDS" } else { "global" };
        let (l, a) = (&s.load, &s.atomic);
        let text = format!(
            "race (stale read) on {space} address {:#x}: wg ({},{},{}) wave {} reads at PC {:#x} \
             `{}` while wg ({},{},{}) wave {}'s atomic at PC {:#x} `{}` may still change it (no \
             barrier between), and the value read reaches the memory write at PC {:#x} `{}`",
            s.addr,
            l.wg[0],
            l.wg[1],
            l.wg[2],
            l.wave,
            l.pc,
            self.texts[l.idx as usize],
            a.wg[0],
            a.wg[1],
            a.wg[2],
            a.wave,
            a.pc,
            self.texts[a.idx as usize],
            w.pc,
            self.texts[w.idx as usize]
        );
        self.report(FindingKind::Race, l.pc, Some(a.pc), 0, text);
    }

    /// The data flow of one issued instruction: what its memory write stores, what the
    /// registers it writes hold afterwards. `load` is the id of a plain load (0 otherwise),
    /// `acc` its lane accesses, `all_active` whether EXEC holds every lane.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn stale_flow(
        &mut self,
        wm: &mut WaveModel,
        c: &Class,
        inst: &Inst,
        pc: u64,
        idx: u32,
        all_active: bool,
        load: u64,
        acc: &[(usize, u64, u32)],
    ) {
        if wm.taint.is_empty() {
            wm.taint = vec![Taint::new(); 512];
        }
        if c.stores && !c.store_data.is_empty() {
            let data = wm.taint_of(&c.store_data);
            match c.space {
                Some(Space::Lds | Space::Global | Space::Flat | Space::Buffer) => {
                    for id in data {
                        self.note_fed_write(id, FedWrite { pc, idx });
                    }
                }
                Some(Space::Scratch) if !(data.is_empty() && wm.scratch_taint.is_empty()) => {
                    for &(_, a, _) in acc {
                        if data.is_empty() {
                            wm.scratch_taint.remove(&a);
                        } else {
                            wm.scratch_taint.insert(a, data.clone());
                        }
                    }
                }
                _ => {}
            }
        }
        let gen: Taint = if !c.loads {
            // ALU, permutes, lane reads and writes: the union of the sources.
            wm.taint_of(&c.regs.reads)
        } else if c.atomic {
            Taint::new()
        } else {
            match c.space {
                Some(Space::Lds | Space::Global | Space::Flat | Space::Buffer) if load != 0 => {
                    vec![load]
                }
                Some(Space::Scratch) => {
                    let mut t = Taint::new();
                    for &(_, a, _) in acc {
                        if let Some(x) = wm.scratch_taint.get(&a) {
                            union_into(&mut t, x);
                        }
                    }
                    t
                }
                // Scalar loads, LDS parameter/direct loads.
                _ => Taint::new(),
            }
        };
        let keeps_lanes = !all_active
            || inst.op == Op::V_WRITELANE_B32
            || (c.loads && inst.op.facts().d16 != D16::None);
        for code in c.regs.writes.iter().flat_map(|r| r.codes()) {
            let Some(t) = reg_index(code).and_then(|i| wm.taint.get_mut(i)) else {
                continue;
            };
            if is_exec(code) {
                t.clear();
            } else if code >= opnd::VGPR0 && keeps_lanes {
                union_into(t, &gen);
            } else {
                t.clone_from(&gen);
            }
        }
    }
}
