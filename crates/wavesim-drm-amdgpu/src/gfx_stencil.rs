//! The stencil half of the depth block (DB) as RADV programs it on gfx11: the stencil test's
//! state and the S8 stencil surface (`gfx_depth` holds the depth half, the HTILE word both
//! share, and calls this module).
//!
//! - The test: DB_DEPTH_CONTROL.STENCIL_ENABLE [0], BACKFACE_ENABLE [7], STENCILFUNC [10:8],
//!   STENCILFUNC_BF [22:20] (Mesa `sid.h` V_028800_FRAG_*, the VkCompareOp order: RADV writes
//!   the Vulkan value unchanged, `radv_emit_depth_control`); DB_STENCIL_CONTROL's STENCILFAIL,
//!   STENCILZPASS, STENCILZFAIL and their _BF twins (gfx11.json's StencilOp: RADV's
//!   `si_translate_stencil_op` maps the eight VkStencilOps to KEEP 0, ZERO 1, REPLACE_TEST 3,
//!   ADD_CLAMP 5, SUB_CLAMP 6, INVERT 7, ADD_WRAP 8, SUB_WRAP 9; the others, ONES, REPLACE_OP and
//!   the logic ops, are refused by name); DB_STENCILREFMASK(_BF): STENCILTESTVAL [7:0] (the
//!   reference), STENCILMASK [15:8] (compare mask), STENCILWRITEMASK [23:16], STENCILOPVAL
//!   [31:24] (the amount ADD/SUB add: RADV always writes 1, the Vulkan increment; other values
//!   are refused). The hardware compares (reference & mask) FUNC (stored & mask), Vulkan's
//!   "Stencil Test" order, with the reference first.
//! - BACKFACE_ENABLE 0 would apply the front state to back faces; RADV sets it whenever the
//!   stencil test is on, and the shim refuses the other case rather than assume which
//!   registers the hardware then reads.
//! - The surface: DB_STENCIL_INFO.FORMAT STENCIL_8 (1), SW_MODE [8:4] (addrlib's stencil
//!   swizzle mode: 64KB_Z_X for RADV's D32_SFLOAT_S8_UINT, laid out by `exec::image::swizzle`
//!   with 1-byte elements), DB_STENCIL_READ_BASE = DB_STENCIL_WRITE_BASE (a stencil copy
//!   otherwise, refused), the depth surface's size and view.

use wavesim_rdna3::exec::image::swizzle::{Shape, Tiling};
use wavesim_rdna3::gfx::pipeline::{CompareOp, StencilFace, StencilOp};

use crate::memory::GpuMemory;

/// gfx11's CompareFrag (FRAG_NEVER 0 ... FRAG_ALWAYS 7), the VkCompareOp order.
pub const COMPARE: [CompareOp; 8] = [
    CompareOp::Never,
    CompareOp::Less,
    CompareOp::Equal,
    CompareOp::LessOrEqual,
    CompareOp::Greater,
    CompareOp::NotEqual,
    CompareOp::GreaterOrEqual,
    CompareOp::Always,
];

/// gfx11's StencilOp value `v` as a VkStencilOp; Err names the values RADV never writes.
fn op(field: &str, v: u32) -> Result<StencilOp, String> {
    Ok(match v {
        0 => StencilOp::Keep,
        1 => StencilOp::Zero,
        3 => StencilOp::Replace,
        5 => StencilOp::IncrementAndClamp,
        6 => StencilOp::DecrementAndClamp,
        7 => StencilOp::Invert,
        8 => StencilOp::IncrementAndWrap,
        9 => StencilOp::DecrementAndWrap,
        _ => {
            let name = [
                "KEEP",
                "ZERO",
                "ONES",
                "REPLACE_TEST",
                "REPLACE_OP",
                "ADD_CLAMP",
                "SUB_CLAMP",
                "INVERT",
                "ADD_WRAP",
                "SUB_WRAP",
                "AND",
                "OR",
                "XOR",
                "NAND",
                "NOR",
                "XNOR",
            ][v as usize & 15];
            return Err(format!(
                "DB_STENCIL_CONTROL.{field} STENCIL_{name} ({v}) is not executed (no VkStencilOp maps to it)"
            ));
        }
    })
}

/// The front and back stencil state of DB_DEPTH_CONTROL `dc` (STENCIL_ENABLE set) and the
/// other stencil registers read through `reg`.
pub fn stencil_faces(
    dc: u32,
    reg: &dyn Fn(&str) -> Result<Option<u32>, String>,
) -> Result<(StencilFace, StencilFace), String> {
    if dc >> 7 & 1 == 0 {
        return Err(
            "DB_DEPTH_CONTROL: STENCIL_ENABLE without BACKFACE_ENABLE is not executed".into(),
        );
    }
    let get = |n: &str| -> Result<u32, String> {
        reg(n)?.ok_or_else(|| format!("{n} was not written (its clear-state default is unknown)"))
    };
    let sc = get("DB_STENCIL_CONTROL")?;
    if sc >> 24 != 0 {
        return Err(format!(
            "DB_STENCIL_CONTROL = {sc:#010x}: bits {:#010x} are not modelled",
            sc & 0xff00_0000
        ));
    }
    let face = |refmask: &str, func: u32, shift: u32, bf: &str| -> Result<StencilFace, String> {
        let rm = get(refmask)?;
        if rm >> 24 != 1 {
            return Err(format!(
                "{refmask} = {rm:#010x}: STENCILOPVAL{bf} {} (only 1, the Vulkan increment, is executed)",
                rm >> 24
            ));
        }
        Ok(StencilFace {
            fail_op: op(&format!("STENCILFAIL{bf}"), sc >> shift & 0xf)?,
            pass_op: op(&format!("STENCILZPASS{bf}"), sc >> (shift + 4) & 0xf)?,
            depth_fail_op: op(&format!("STENCILZFAIL{bf}"), sc >> (shift + 8) & 0xf)?,
            compare_op: COMPARE[(func & 7) as usize],
            compare_mask: (rm >> 8) as u8,
            write_mask: (rm >> 16) as u8,
            reference: rm as u8,
        })
    };
    Ok((
        face("DB_STENCILREFMASK", dc >> 8, 0, "")?,
        face("DB_STENCILREFMASK_BF", dc >> 20, 12, "_BF")?,
    ))
}

/// A bound S8 stencil surface.
pub struct StencilPlane {
    va: u64,
    tiling: Tiling,
    /// DB_STENCIL_CLEAR.CLEAR [7:0], if written: the value of a cleared tile's pixels.
    pub clear: Option<u8>,
}

impl StencilPlane {
    /// The stencil surface of DB_STENCIL_INFO `info` (FORMAT STENCIL_8) of a `width` x
    /// `height` depth/stencil view.
    pub fn new(
        info: u32,
        (width, height): (u32, u32),
        reg: &dyn Fn(&str) -> Result<Option<u32>, String>,
    ) -> Result<StencilPlane, String> {
        // FORMAT [0], SW_MODE [8:4], FAULT_BEHAVIOR [10:9], ITERATE_FLUSH [11], ITERATE_256
        // [20], ALLOW_EXPCLEAR [27] (scheduling and compression policy: no effect on values),
        // TILE_STENCIL_DISABLE [29] (read by gfx_depth). PARTIALLY_RESIDENT is refused.
        let allowed = 1 | 0x1f << 4 | 3 << 9 | 1 << 11 | 1 << 20 | 1 << 27 | 1 << 29;
        if info & !allowed != 0 {
            return Err(format!(
                "DB_STENCIL_INFO = {info:#010x}: bits {:#010x} are not modelled",
                info & !allowed
            ));
        }
        let get = |n: &str| -> Result<u32, String> {
            reg(n)?
                .ok_or_else(|| format!("{n} was not written (its clear-state default is unknown)"))
        };
        let or = |n: &str| -> Result<u32, String> { Ok(reg(n)?.unwrap_or(0)) };
        let read = get("DB_STENCIL_READ_BASE")? as u64
            | (or("DB_STENCIL_READ_BASE_HI")? as u64 & 0xff) << 32;
        let write = get("DB_STENCIL_WRITE_BASE")? as u64
            | (or("DB_STENCIL_WRITE_BASE_HI")? as u64 & 0xff) << 32;
        if read != write {
            return Err(format!(
                "DB_STENCIL_READ_BASE {:#x} != DB_STENCIL_WRITE_BASE {:#x}: a stencil copy is not executed",
                read << 8,
                write << 8
            ));
        }
        let va = read << 8;
        let tiling = Tiling::new(info >> 4 & 0x1f, Shape::TwoD, (width, height), 1, va, 1)
            .map_err(|e| format!("stencil surface: {e}"))?;
        Ok(StencilPlane {
            va,
            tiling,
            clear: reg("DB_STENCIL_CLEAR")?.map(|v| v as u8),
        })
    }

    /// The stored value of pixel (x, y).
    pub fn load(&self, mem: &dyn GpuMemory, x: u32, y: u32) -> Result<u8, String> {
        let a = self.tiling.texel_addr(self.va, 0, x, y);
        let mut b = [0u8; 1];
        mem.read(a, &mut b)
            .map_err(|e| format!("stencil surface at {a:#x}: {e}"))?;
        Ok(b[0])
    }

    /// Stores `v` at pixel (x, y).
    pub fn store(&self, mem: &dyn GpuMemory, x: u32, y: u32, v: u8) -> Result<(), String> {
        let a = self.tiling.texel_addr(self.va, 0, x, y);
        mem.write(a, &[v])
            .map_err(|e| format!("stencil surface at {a:#x}: {e}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn faces(dc: u32, r: &[(&str, u32)]) -> Result<(StencilFace, StencilFace), String> {
        let m: HashMap<String, u32> = r.iter().map(|&(k, v)| (k.to_string(), v)).collect();
        stencil_faces(dc, &|n: &str| Ok(m.get(n).copied()))
    }

    /// The registers RADV writes for a pipeline whose front face is (EQUAL, fail ZERO, pass
    /// INCREMENT_AND_WRAP, depth fail INVERT, compare mask 0x0f, write mask 0xf0, reference
    /// 0x13) and whose back face is (NEVER, fail DECREMENT_AND_CLAMP, pass REPLACE, depth fail
    /// KEEP, 0xff, 0x01, 0x80): radv_emit_stencil / radv_emit_depth_control's encodings
    /// (STENCILFUNC = VkCompareOp, si_translate_stencil_op, STENCILOPVAL 1) give these
    /// values; decoding must return the Vulkan state.
    #[test]
    fn radv_encodings_decode_to_the_vulkan_state() {
        // STENCILFAIL ZERO 1, ZPASS ADD_WRAP 8, ZFAIL INVERT 7; _BF SUB_CLAMP 6, REPLACE_TEST
        // 3, KEEP 0.
        let sc = 1 | 8 << 4 | 7 << 8 | 6 << 12 | 3 << 16;
        // STENCIL_ENABLE, BACKFACE_ENABLE, STENCILFUNC EQUAL 2, STENCILFUNC_BF NEVER 0.
        let dc = 1 | 1 << 7 | 2 << 8;
        let (f, b) = faces(
            dc,
            &[
                ("DB_STENCIL_CONTROL", sc),
                ("DB_STENCILREFMASK", 0x13 | 0x0f << 8 | 0xf0 << 16 | 1 << 24),
                (
                    "DB_STENCILREFMASK_BF",
                    0x80 | 0xff << 8 | 0x01 << 16 | 1 << 24,
                ),
            ],
        )
        .unwrap();
        assert_eq!(
            f,
            StencilFace {
                fail_op: StencilOp::Zero,
                pass_op: StencilOp::IncrementAndWrap,
                depth_fail_op: StencilOp::Invert,
                compare_op: CompareOp::Equal,
                compare_mask: 0x0f,
                write_mask: 0xf0,
                reference: 0x13,
            }
        );
        assert_eq!(
            b,
            StencilFace {
                fail_op: StencilOp::DecrementAndClamp,
                pass_op: StencilOp::Replace,
                depth_fail_op: StencilOp::Keep,
                compare_op: CompareOp::Never,
                compare_mask: 0xff,
                write_mask: 0x01,
                reference: 0x80,
            }
        );
    }

    /// Ops and state no VkStencilOpState gives are refused by name.
    #[test]
    fn other_encodings_are_refused_by_name() {
        let rm = 1 << 24;
        let base = |sc: u32, rm_f: u32| {
            faces(
                1 | 1 << 7,
                &[
                    ("DB_STENCIL_CONTROL", sc),
                    ("DB_STENCILREFMASK", rm_f),
                    ("DB_STENCILREFMASK_BF", rm),
                ],
            )
            .err()
            .unwrap_or_default()
        };
        assert!(base(2, rm).contains("STENCILFAIL STENCIL_ONES"));
        assert!(base(4 << 16, rm).contains("STENCILZPASS_BF STENCIL_REPLACE_OP"));
        assert!(base(12 << 8, rm).contains("STENCILZFAIL STENCIL_XOR"));
        assert!(base(0, 2 << 24).contains("STENCILOPVAL 2"));
        let e = faces(1, &[]).unwrap_err();
        assert!(e.contains("BACKFACE_ENABLE"), "{e}");
    }
}
