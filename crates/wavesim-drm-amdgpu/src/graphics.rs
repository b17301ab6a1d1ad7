//! The graphics ring's state and the draw capture.
//!
//! RADV's graphics preamble and pipelines program context registers (SET_CONTEXT_REG),
//! user-config registers (SET_UCONFIG_REG[_INDEX]) and the graphics stages' SH registers
//! (SET_SH_REG[_INDEX]); draws (DRAW_INDEX_AUTO, DRAW_INDEX_2, ...) then run the pipeline that
//! state describes. wavesim does not execute draws from this state yet: the PM4 executor
//! records every write here under its gfx11 name (`gfx_regs`, from Mesa's register tables), and
//! at a draw writes the pipeline to a capture directory (WAVESIM_DRM_CAPTURE, format in
//! docs/DRM_SHIM.md) and fails the submission naming the draw.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, Ordering};

use crate::gfx_regs;
use crate::memory::GpuMemory;

pub const CONTEXT_BASE: u32 = 0x28000;
pub const CONTEXT_END: u32 = 0x29000;
pub const UCONFIG_BASE: u32 = 0x30000;
pub const UCONFIG_END: u32 = 0x32000;
pub const SH_GRAPHICS_BASE: u32 = 0xb000;
pub const SH_GRAPHICS_END: u32 = 0xb800;

/// The gfx11 name of a graphics register (context, user-config or graphics SH space).
pub fn name(addr: u32) -> Option<&'static str> {
    let table = match addr {
        CONTEXT_BASE..CONTEXT_END => gfx_regs::CONTEXT,
        UCONFIG_BASE..UCONFIG_END => gfx_regs::UCONFIG,
        SH_GRAPHICS_BASE..SH_GRAPHICS_END => gfx_regs::SH_GRAPHICS,
        _ => return None,
    };
    table
        .binary_search_by_key(&addr, |&(a, _)| a)
        .ok()
        .map(|i| table[i].1)
}

/// Context and user-config registers as written (None: not written since CLEAR_STATE, i.e. the
/// clear-state default the kernel's CSB loads, whose values the shim does not know), and the
/// draw packets' own state.
#[derive(Clone, Debug)]
pub struct GfxState {
    context: Vec<Option<u32>>,
    uconfig: Vec<Option<u32>>,
    /// NUM_INSTANCES.
    pub num_instances: Option<u32>,
    /// INDEX_TYPE's dword (VGT_INDEX_TYPE: 0 16-bit, 1 32-bit, 2 8-bit).
    pub index_type: Option<u32>,
    /// INDEX_BASE's address.
    pub index_base: Option<u64>,
    /// INDEX_BUFFER_SIZE (indices).
    pub index_buffer_size: Option<u32>,
    /// SET_BASE: (base index, address) of the indirect-draw argument buffer.
    pub set_base: Option<(u32, u64)>,
}

impl Default for GfxState {
    fn default() -> GfxState {
        GfxState {
            context: vec![None; ((CONTEXT_END - CONTEXT_BASE) / 4) as usize],
            uconfig: vec![None; ((UCONFIG_END - UCONFIG_BASE) / 4) as usize],
            num_instances: None,
            index_type: None,
            index_base: None,
            index_buffer_size: None,
            set_base: None,
        }
    }
}

impl GfxState {
    /// CLEAR_STATE: every context register back to its clear-state default.
    pub fn clear_context(&mut self) {
        self.context.iter_mut().for_each(|r| *r = None);
    }

    /// Records a context or user-config register write; None if the address is neither.
    pub fn set(&mut self, addr: u32, v: u32) -> Option<()> {
        let slot = match addr {
            CONTEXT_BASE..CONTEXT_END => &mut self.context[((addr - CONTEXT_BASE) / 4) as usize],
            UCONFIG_BASE..UCONFIG_END => &mut self.uconfig[((addr - UCONFIG_BASE) / 4) as usize],
            _ => return None,
        };
        *slot = Some(v);
        Some(())
    }

    /// A context or user-config register's value as written (None: not written since
    /// CLEAR_STATE, or not a register of either space).
    pub fn reg(&self, addr: u32) -> Option<u32> {
        match addr {
            CONTEXT_BASE..CONTEXT_END => self.context[((addr - CONTEXT_BASE) / 4) as usize],
            UCONFIG_BASE..UCONFIG_END => self.uconfig[((addr - UCONFIG_BASE) / 4) as usize],
            _ => None,
        }
    }

    fn written(regs: &[Option<u32>], base: u32) -> impl Iterator<Item = (u32, u32)> + '_ {
        regs.iter()
            .enumerate()
            .filter_map(move |(i, v)| v.map(|v| (base + 4 * i as u32, v)))
    }
}

/// A hardware shader stage whose program the capture saves: its name in the files and its
/// PGM_LO/PGM_HI registers. On gfx10+ the merged geometry stage (RADV's NGG vertex shader
/// without tessellation or geometry shaders) starts at SPI_SHADER_PGM_LO/HI_ES and the merged
/// tessellation-control stage at SPI_SHADER_PGM_LO/HI_LS (Mesa `radv_pipeline.c`); RADV 22.3
/// writes the global descriptor pointer into PGM_LO/HI_GS and _HS instead
/// (`radv_emit_graphics_shader_pointers`), so those are captured as registers only.
const STAGES: [(&str, u32, u32); 3] = [
    ("ps", 0xb020, 0xb024),
    ("gs", 0xb320, 0xb324),
    ("hs", 0xb520, 0xb524),
];

/// ACO pads every gfx10+ shader with `s_code_end` (Mesa `aco_assembler.cpp`), so the program
/// is the instructions before the first one.
const S_CODE_END: u32 = 0xbf9f_0000;
/// Most bytes of one captured program.
const MAX_PROGRAM: usize = 256 * 1024;
/// Bytes saved at each address a user-data register (or pair) holds.
const USER_DATA_BYTES: usize = 256;

/// The capture directory (WAVESIM_DRM_CAPTURE), if capturing.
pub fn capture_dir() -> Option<PathBuf> {
    std::env::var_os("WAVESIM_DRM_CAPTURE").map(PathBuf::from)
}

/// One draw to capture.
pub struct Draw<'a> {
    pub packet: &'static str,
    pub opcode: u32,
    pub va: u64,
    pub body: &'a [u32],
}

/// Writes `draw`'s pipeline under `dir` (a new `<pid>-draw-<n>` directory); returns its path.
pub fn capture(
    dir: &Path,
    draw: &Draw,
    gfx: &GfxState,
    sh: &[Option<u32>],
    mem: &dyn GpuMemory,
) -> Result<PathBuf, String> {
    static SEQ: AtomicU32 = AtomicU32::new(0);
    let n = SEQ.fetch_add(1, Ordering::Relaxed);
    let out = dir.join(format!("{}-draw-{n:04}", std::process::id()));
    let io = |what: &str, e: std::io::Error| format!("capture {}: {what}: {e}", out.display());
    std::fs::create_dir_all(&out).map_err(|e| io("creating the directory", e))?;
    let shv = |addr: u32| {
        sh.get((addr.wrapping_sub(SH_GRAPHICS_BASE) / 4) as usize)
            .copied()
            .flatten()
    };

    let mut txt = String::new();
    let _ = writeln!(
        txt,
        "# wavesim DRM shim draw capture, format 1 (docs/DRM_SHIM.md)"
    );
    let _ = writeln!(txt, "packet {}", draw.packet);
    let _ = writeln!(txt, "opcode {:#04x}", draw.opcode);
    let _ = writeln!(txt, "address {:#x}", draw.va);
    let body: Vec<String> = draw.body.iter().map(|w| format!("{w:#010x}")).collect();
    let _ = writeln!(txt, "body {}", body.join(" "));
    let opt = |v: Option<u32>| v.map_or("unset".to_string(), |v| format!("{v:#x}"));
    let _ = writeln!(txt, "num_instances {}", opt(gfx.num_instances));
    let _ = writeln!(txt, "index_type {}", opt(gfx.index_type));
    let _ = writeln!(
        txt,
        "index_base {}",
        gfx.index_base.map_or("unset".into(), |v| format!("{v:#x}"))
    );
    let _ = writeln!(txt, "index_buffer_size {}", opt(gfx.index_buffer_size));
    if let Some((idx, va)) = gfx.set_base {
        let _ = writeln!(txt, "set_base {idx} {va:#x}");
    }
    for (stage, lo, hi) in STAGES {
        let Some(lo_v) = shv(lo) else { continue };
        let va = (lo_v as u64 | (shv(hi).unwrap_or(0) as u64 & 0xff) << 32) << 8;
        let code =
            program(mem, va).map_err(|e| format!("capture: {stage} program at {va:#x}: {e}"))?;
        let file = format!("hw_{stage}.bin");
        std::fs::write(out.join(&file), &code).map_err(|e| io(&file, e))?;
        let _ = writeln!(txt, "stage {stage} {va:#x} {} {file}", code.len());
    }
    // Memory that user-data registers point at (descriptor sets, push constants, the vertex
    // buffer descriptor table): 32-bit values and 64-bit pairs that are mapped addresses.
    let user: Vec<u32> = (SH_GRAPHICS_BASE..SH_GRAPHICS_END)
        .step_by(4)
        .filter(|&a| {
            name(a).is_some_and(|n| {
                n.contains("USER_DATA") || n.contains("PGM_LO_GS") || n.contains("PGM_LO_HS")
            })
        })
        .collect();
    let mut dumped = std::collections::BTreeSet::new();
    for a in user {
        let Some(v) = shv(a) else { continue };
        let mut cands = vec![v as u64];
        if let Some(hi) = shv(a + 4).filter(|&h| h != 0 && h <= 0xffff) {
            cands.push(v as u64 | (hi as u64) << 32);
        }
        for va in cands {
            if va == 0 || !dumped.insert(va) {
                continue;
            }
            if let Ok(s) = mem.host_slice(va) {
                let file = format!("mem-{va:x}.bin");
                std::fs::write(out.join(&file), &s[..s.len().min(USER_DATA_BYTES)])
                    .map_err(|e| io(&file, e))?;
                let _ = writeln!(txt, "memory {va:#x} {file}");
            }
        }
    }
    std::fs::write(out.join("draw.txt"), txt).map_err(|e| io("draw.txt", e))?;

    let mut regs = String::new();
    let mut row = |space: &str, a: u32, v: u32| {
        let _ = writeln!(
            regs,
            "{space} {a:#07x} {} {v:#010x}",
            name(a).unwrap_or("?")
        );
    };
    for (a, v) in GfxState::written(&gfx.context, CONTEXT_BASE) {
        row("context", a, v);
    }
    for (a, v) in GfxState::written(&gfx.uconfig, UCONFIG_BASE) {
        row("uconfig", a, v);
    }
    for a in (SH_GRAPHICS_BASE..SH_GRAPHICS_END).step_by(4) {
        if let Some(v) = shv(a) {
            row("sh", a, v);
        }
    }
    std::fs::write(out.join("registers.txt"), regs).map_err(|e| io("registers.txt", e))?;
    Ok(out)
}

/// The program at `va`: its instructions up to the first `s_code_end`, found by decoding
/// instruction by instruction (a literal that looks like `s_code_end` is not mistaken for one).
pub(crate) fn program(mem: &dyn GpuMemory, va: u64) -> Result<Vec<u8>, String> {
    let all = mem.host_slice(va).map_err(|e| e.to_string())?;
    let bytes = &all[..all.len().min(MAX_PROGRAM)];
    let mut off = 0;
    while off + 4 <= bytes.len() {
        let word = u32::from_le_bytes([bytes[off], bytes[off + 1], bytes[off + 2], bytes[off + 3]]);
        if word == S_CODE_END {
            return Ok(bytes[..off].to_vec());
        }
        let inst = wavesim_rdna3::decode::decode(&bytes[off..], off)
            .map_err(|e| format!("decoding at +{off:#x}: {e}"))?;
        off += (inst.listed_len() as usize).max(4);
    }
    Err(format!("no s_code_end within {} bytes", bytes.len()))
}
