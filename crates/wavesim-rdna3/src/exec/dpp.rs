//! DPP16 and DPP8 source swizzles (RDNA3 ISA 7.7, "Data Parallel Processing").
//!
//! DPP rewrites where src0 comes from: lane `l` reads lane `src(l)` of the same VGPR. Rows are
//! 16 lanes (DPP16), groups are 8 lanes (DPP8); no pattern crosses its row or group.
//!
//! Invalid sources (RDNA3 ISA 7.7.1, BC and FI fields): a source lane outside the row
//! ("out of range", e.g. row_shr into lane 0) or disabled by EXEC makes the reading lane either
//! read 0 or not write its destination. The FI field text is followed: FI=1 fetches a disabled
//! in-range lane anyway; otherwise, and always for out-of-range lanes, BOUND_CTRL decides
//! (1 = read zero, 0 = keep the old destination). (The ISA's BC/FI table additionally lists
//! "Src0 = 0" for an out-of-range lane with BC=0, FI=1 and "normal" with BC=1, FI=1; where the
//! table and the field text disagree wavesim follows the field text.)
//!
//! ROW_MASK / BANK_MASK only gate the destination write ("does not impact the thread mask when
//! fetching source data"); masked lanes are returned in the kill mask like disabled writes.
//!
//! DPP8 behaves like DPP16 with BOUND_CTRL=1 and all sources in range: a disabled source lane
//! reads 0, or its value with DPP8FI (ISA 7.7.2).

use crate::decode::{Dpp, Inst};
use crate::wave::Lanes32;
use crate::wave::{Wave, LANES};

/// Where DPP16 control `ctrl` makes lane `l` read from, or `None` if the source lane lies
/// outside `l`'s row. Reserved control values (0x100, 0x110, 0x120, 0x130-0x13f, 0x143-0x14f,
/// 0x170-0x1ff) have no source lane.
///
/// 0x142 is GFX9's row_bcast15, which RDNA3 no longer defines (LLVM 19 prints "row_bcast is
/// not supported starting from GFX10"). RDNA3 hardware reads lane 0 of the lane's own row
/// there: `v_cmp_eq_u32_dpp vcc, v0, v0` with v0 = lane id, 0x142 and bound_ctrl in wave64
/// sets VCC bits 0, 16, 32 and 48 only (tinygrad `test/amd/hw/test_dpp.py`,
/// TestVOPCDPP16.test_row_bcast15_materializes_vcc). 0x143 (row_bcast31) was not measured and
/// stays reserved.
#[inline]
pub fn dpp16_source(ctrl: u16, l: usize) -> Option<usize> {
    let base = l & !15;
    let r = l & 15;
    let n = (ctrl & 15) as usize;
    match ctrl {
        0x000..=0x0ff => Some((l & !3) | ((ctrl as usize >> (2 * (l & 3))) & 3)),
        // row_shl:n - lane r reads lane r + n of its row.
        0x101..=0x10f => (r + n < 16).then_some(base + r + n),
        // row_shr:n - lane r reads lane r - n.
        0x111..=0x11f => (r >= n).then(|| base + r - n),
        // row_ror:n - rotate right within the row.
        0x121..=0x12f => Some(base + ((r + 16 - n) & 15)),
        0x140 => Some(base + 15 - r),
        0x141 => Some((l & !7) | (7 - (l & 7))),
        // Measured: lane 0 of the row (see above).
        0x142 => Some(base),
        // row_share:n - every lane reads lane n of its row.
        0x150..=0x15f => Some(base + n),
        // row_xmask:n - lane r reads lane r ^ n.
        0x160..=0x16f => Some(base + (r ^ n)),
        _ => None,
    }
}

/// Reads `row` through the instruction's DPP pattern into `out`; returns a mask of lanes whose
/// source lane was invalid (per BOUND_CTRL/FI) or whose row/bank is masked, and that must
/// therefore keep their old destination value.
pub fn apply(w: &Wave, inst: &Inst, row: &[u32], out: &mut Lanes32) -> u64 {
    let exec = w.exec();
    let n = w.lanes();
    match inst.dpp {
        Dpp::None => {
            out.copy_from_slice(&row[..LANES]);
            0
        }
        Dpp::Dpp8 { sel, fi } => {
            for (l, o) in out.iter_mut().enumerate() {
                let s = (l & !7) | ((sel as usize >> (3 * (l & 7))) & 7);
                *o = if fi || (exec >> s) & 1 != 0 {
                    row[s]
                } else {
                    0
                };
            }
            0
        }
        Dpp::Dpp16 {
            ctrl,
            row_mask,
            bank_mask,
            bound_ctrl,
            fi,
        } => {
            let mut kill = 0u64;
            for (l, o) in out.iter_mut().enumerate().take(n) {
                let masked =
                    (row_mask >> (l / 16)) & 1 == 0 || (bank_mask >> ((l & 15) / 4)) & 1 == 0;
                let valid = match dpp16_source(ctrl, l) {
                    Some(s) if fi || (exec >> s) & 1 != 0 => {
                        *o = row[s];
                        true
                    }
                    _ => {
                        *o = 0;
                        bound_ctrl
                    }
                };
                if masked || !valid {
                    kill |= 1 << l;
                }
            }
            for o in out.iter_mut().skip(n) {
                *o = 0;
            }
            kill
        }
    }
}
