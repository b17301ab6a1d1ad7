//! Symbolic immediates: s_waitcnt, s_delay_alu, sendmsg, hwreg, depctr, s_version and export
//! targets, printed as LLVM names them.

use super::*;

/// gfx11 s_waitcnt: vmcnt [15:10], lgkmcnt [9:4], expcnt [2:0]; counters at their maximum are
/// left out unless all are.
pub(super) fn waitcnt(v: u16) -> String {
    let vm = v >> 10 & 0x3f;
    let lgkm = v >> 4 & 0x3f;
    let exp = v & 7;
    let all = vm == 0x3f && lgkm == 0x3f && exp == 7;
    let mut parts = Vec::new();
    if vm != 0x3f || all {
        parts.push(format!("vmcnt({vm})"));
    }
    if exp != 7 || all {
        parts.push(format!("expcnt({exp})"));
    }
    if lgkm != 0x3f || all {
        parts.push(format!("lgkmcnt({lgkm})"));
    }
    parts.join(" ")
}

pub(super) fn delay_alu(v: u16) -> String {
    const IDS: [&str; 12] = [
        "NO_DEP",
        "VALU_DEP_1",
        "VALU_DEP_2",
        "VALU_DEP_3",
        "VALU_DEP_4",
        "TRANS32_DEP_1",
        "TRANS32_DEP_2",
        "TRANS32_DEP_3",
        "FMA_ACCUM_CYCLE_1",
        "SALU_CYCLE_1",
        "SALU_CYCLE_2",
        "SALU_CYCLE_3",
    ];
    const SKIPS: [&str; 6] = ["SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"];
    let id = |x: u16| {
        IDS.get(x as usize)
            .copied()
            .unwrap_or("/* invalid instid value */")
    };
    let mut parts = Vec::new();
    let id0 = v & 0xf;
    let skip = v >> 4 & 7;
    let id1 = v >> 7 & 0xf;
    if id0 != 0 {
        parts.push(format!("instid0({})", id(id0)));
    }
    if skip != 0 {
        parts.push(format!(
            "instskip({})",
            SKIPS
                .get(skip as usize)
                .copied()
                .unwrap_or("/* invalid instskip value */")
        ));
    }
    if id1 != 0 {
        parts.push(format!("instid1({})", id(id1)));
    }
    if parts.is_empty() {
        "0".into()
    } else {
        parts.join(" | ")
    }
}

/// gfx11 message names (the message id is bits 7:0; op and stream are not used on gfx11).
pub(super) fn msg_name(id: u16) -> Option<&'static str> {
    Some(match id {
        1 => "MSG_INTERRUPT",
        2 => "MSG_HS_TESSFACTOR",
        3 => "MSG_DEALLOC_VGPRS",
        5 => "MSG_STALL_WAVE_GEN",
        6 => "MSG_HALT_WAVES",
        9 => "MSG_GS_ALLOC_REQ",
        128 => "MSG_RTN_GET_DOORBELL",
        129 => "MSG_RTN_GET_DDID",
        130 => "MSG_RTN_GET_TMA",
        131 => "MSG_RTN_GET_REALTIME",
        132 => "MSG_RTN_SAVE_WAVE",
        133 => "MSG_RTN_GET_TBA",
        134 => "MSG_RTN_GET_TBA_TO_PC",
        _ => return None,
    })
}

pub(super) fn sendmsg(v: u16) -> String {
    let id = v & 0xff;
    if let Some(n) = msg_name(id) {
        format!("sendmsg({n})")
    } else if v >> 8 == 0 {
        format!("sendmsg({id}, 0, 0)")
    } else {
        v.to_string()
    }
}

pub(super) fn hwreg_name(id: u16) -> Option<&'static str> {
    Some(match id {
        1 => "HW_REG_MODE",
        2 => "HW_REG_STATUS",
        3 => "HW_REG_TRAPSTS",
        5 => "HW_REG_GPR_ALLOC",
        6 => "HW_REG_LDS_ALLOC",
        7 => "HW_REG_IB_STS",
        15 => "HW_REG_SH_MEM_BASES",
        18 => "HW_REG_PERF_SNAPSHOT_PC_LO",
        19 => "HW_REG_PERF_SNAPSHOT_PC_HI",
        20 => "HW_REG_FLAT_SCR_LO",
        21 => "HW_REG_FLAT_SCR_HI",
        23 => "HW_REG_HW_ID1",
        24 => "HW_REG_HW_ID2",
        27 => "HW_REG_PERF_SNAPSHOT_DATA",
        29 => "HW_REG_SHADER_CYCLES",
        _ => return None,
    })
}

/// hwreg(id[5:0], offset[10:6], size-1[15:11]); offset and size are printed unless the default
/// (0, 32).
pub(super) fn hwreg(v: u16) -> String {
    let id = v & 0x3f;
    let off = v >> 6 & 0x1f;
    let size = (v >> 11 & 0x1f) + 1;
    let name = hwreg_name(id)
        .map(str::to_string)
        .unwrap_or_else(|| id.to_string());
    if off == 0 && size == 32 {
        format!("hwreg({name})")
    } else {
        format!("hwreg({name}, {off}, {size})")
    }
}

/// gfx11 s_waitcnt_depctr fields: (name, shift, width).
pub(super) const DEPCTR: [(&str, u16, u16); 7] = [
    ("depctr_hold_cnt", 7, 1),
    ("depctr_sa_sdst", 0, 1),
    ("depctr_va_vdst", 12, 4),
    ("depctr_va_sdst", 9, 3),
    ("depctr_va_ssrc", 8, 1),
    ("depctr_va_vcc", 1, 1),
    ("depctr_vm_vsrc", 2, 3),
];

pub(super) fn depctr(v: u16) -> String {
    let mut covered = 0u16;
    let mut non_default = false;
    for (_, sh, w) in DEPCTR {
        let mask = ((1u16 << w) - 1) << sh;
        covered |= mask;
        if v & mask != mask {
            non_default = true;
        }
    }
    if v & !covered != 0 {
        return hex(v as u64);
    }
    let mut parts = Vec::new();
    for (name, sh, w) in DEPCTR {
        let max = (1u16 << w) - 1;
        let val = v >> sh & max;
        if val != max || !non_default {
            parts.push(format!("{name}({val})"));
        }
    }
    parts.join(" ")
}

/// s_version: the version code (bits 7:0) with the W64/W32/MDP flag bits (13, 14, 15) as LLVM's
/// expression printer spells them; any of bits 12:8 set makes it a plain hex number.
pub(super) fn version(v: u16) -> String {
    if v & 0x1f00 != 0 {
        return hex(v as u64);
    }
    let code = v & 0xff;
    let mut s = match code {
        0 => "UC_VERSION_GFX7".to_string(),
        4 => "UC_VERSION_GFX10".into(),
        6 => "UC_VERSION_GFX11".into(),
        9 => "UC_VERSION_GFX12".into(),
        _ => code.to_string(),
    };
    let mut nflags = 0;
    for (bit, n) in [
        (13, "UC_VERSION_W64_BIT"),
        (14, "UC_VERSION_W32_BIT"),
        (15, "UC_VERSION_MDP_BIT"),
    ] {
        if v >> bit & 1 != 0 {
            if nflags > 0 {
                s = format!("({s})");
            }
            s = format!("{s}|{n}");
            nflags += 1;
        }
    }
    s
}

/// gfx11 export targets (no null or parameter targets; params go through LDS).
pub(super) fn exp_target(t: u32) -> String {
    match t {
        0..=7 => format!("mrt{t}"),
        8 => "mrtz".into(),
        12..=16 => format!("pos{}", t - 12),
        20 => "prim".into(),
        21 | 22 => format!("dual_src_blend{}", t - 21),
        _ => format!("invalid_target_{t}"),
    }
}
