//! EXP: copying VGPR data to the export buffers (RDNA3 ISA, chapter "Export: Position,
//! Color/MRT"; RDNA3 ISA guide, 3.3 "Instruction skipping: EXEC==0").
//!
//! - Fields: EN[3:0] enables VSRC0-3 (32 bits per lane each; a 16-bit export is two halves of one
//!   VGPR, which the instruction does not distinguish), TARGET (0-7 MRT0-7, 8 MRTZ, 12-16
//!   POS0-4, 20 PRIM, 21/22 dual-source blend), DONE, ROW_EN, and the VM bit.
//! - Only EXEC lanes are exported; the record keeps the mask.
//! - Skipping: a wave created with SKIP_EXPORT ignores every export (ISA 14.1). With EXEC == 0 an
//!   export is skipped unless DONE is set or the target is POS0 (RDNA3 ISA guide, ch. 3 "Wave state"); a done export with
//!   EXEC == 0 is still made (it ends the wave's exports: the null export).
//! - Each target may be exported once, and the done export is the last of its kind (ISA 14: the
//!   last pixel export, the last position export; the primitive export must have DONE): a second
//!   export to a target, an export after its kind's DONE or a primitive export without DONE is
//!   an error, as is a target the wave's stage does
//!   not have (MRT/Z/dual-source for PS; POS/PRIM for VS and GS; none for HS) or one that does
//!   not exist.
//! - Dual-source blend (targets 21 and 22) exports even lanes' pixels from pairs of lanes (ISA
//!   14.1, "Pixel Shader Dual-Source Blend"): the mask recorded is the table's swizzled EXEC.
//! - ROW_EN (mesh-shader rows from M0) is not emulated: an error names it.
//! - Every export issued counts in EXP_CNT.

use crate::decode::{iflags, opnd, Inst};
use crate::exec::{op_name, Ctx, ExecError, Flow, Handler};
use crate::isa::Op;
use crate::wave::gfx::{ExportRecord, Stage};
use crate::wave::{Wave, LANES};

pub fn handler(op: Op) -> Option<Handler> {
    match op {
        Op::EXP => Some(exp),
        _ => None,
    }
}

/// Target names as llvm-objdump prints them.
pub fn target_name(t: u8) -> String {
    match t {
        0..=7 => format!("mrt{t}"),
        8 => "mrtz".into(),
        12..=16 => format!("pos{}", t - 12),
        20 => "prim".into(),
        21 | 22 => format!("dual_src_blend{}", t - 21),
        _ => format!("invalid_target_{t}"),
    }
}

fn stage_allows(stage: Stage, t: u8) -> bool {
    match stage {
        Stage::Ps => matches!(t, 0..=8 | 21 | 22),
        Stage::Vs | Stage::Gs => matches!(t, 12..=16 | 20),
        Stage::Hs => false,
    }
}

/// The exported-lane mask of the dual-source blend targets (ISA 14.1 table).
fn dual_source_exec(t: u8, e: u64) -> u64 {
    const EVEN: u64 = 0x5555_5555_5555_5555;
    const ODD: u64 = 0xaaaa_aaaa_aaaa_aaaa;
    match t {
        21 => (e & EVEN) | ((e << 1) & ODD),
        22 => (e & ODD) | ((e >> 1) & EVEN),
        _ => e,
    }
}

fn exp(w: &mut Wave, inst: &Inst, _: &mut Ctx) -> Result<Flow, ExecError> {
    let target = inst.imm as u8;
    let done = inst.flags & iflags::DONE != 0;
    let exec = w.exec();
    let lanes = w.lanes();
    let mask = w.lane_mask();
    let Some(g) = w.gfx.as_deref() else {
        return Err(ExecError::NotGraphics {
            name: op_name(inst),
        });
    };
    let err = |why| ExecError::Export {
        target: target_name(target),
        why,
    };
    if g.skip_export {
        return Ok(Flow::Next);
    }
    if exec == 0 && !done && target != 12 {
        return Ok(Flow::Next);
    }
    if inst.flags & iflags::ROW != 0 {
        return Err(err("row_en (mesh shader rows from M0) is not emulated"));
    }
    if !matches!(target, 0..=8 | 12..=16 | 20..=22) {
        return Err(err("no such export target on gfx11"));
    }
    if !stage_allows(g.stage, target) {
        return Err(err("this shader stage has no such export target"));
    }
    let (ended, kind_done) = match target {
        12..=16 => (g.pos_done, "export after the done position export"),
        20 => (g.prim_done, "a second primitive export"),
        _ => (
            g.done,
            "export after the done export (the done export must be the last)",
        ),
    };
    if ended {
        return Err(err(kind_done));
    }
    if target == 20 && !done {
        return Err(err("the primitive export must have DONE set (ISA 14)"));
    }
    if g.exports.iter().any(|r| r.target == target) {
        return Err(err("a shader may export to each target only once"));
    }
    let en = (inst.imm2 & 0xf) as u8;
    let exec = dual_source_exec(target, exec) & mask;
    let mut data = Box::new([[0u32; LANES]; 4]);
    for (k, out) in data.iter_mut().enumerate() {
        if en >> k & 1 == 0 {
            continue;
        }
        // An out-of-range source VGPR reads VGPR0 (RDNA3 ISA guide, ch. 3 "Wave state"): `vrow` clamps.
        let row = w.vrow((inst.src[k] - opnd::VGPR0) as usize);
        for l in 0..lanes {
            if exec >> l & 1 != 0 {
                out[l] = row[l];
            }
        }
    }
    w.cnt.exp_issue();
    let rec = ExportRecord {
        target,
        en,
        done,
        vm: inst.flags & iflags::VM != 0,
        exec,
        data,
    };
    if let Some(g) = w.gfx.as_deref_mut() {
        match target {
            12..=16 => g.pos_done |= done,
            20 => g.prim_done = true,
            _ => g.done |= done,
        }
        g.exports.push(rec);
    }
    Ok(Flow::Next)
}
