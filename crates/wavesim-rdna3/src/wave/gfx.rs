//! Per-wave state of the hardware graphics stages (RDNA3 ISA guide, ch. 3 "Wave state"): the
//! stage, SKIP_EXPORT, the exports and messages a PS/VS/GS/HS wave made. It lives with the rest
//! of the wave state so that the executor (EXP, s_sendmsg) writes it without knowing the draw
//! (`crate::gfx`) that reads it.

use super::LANES;

/// Hardware shader stage of a graphics wave (RDNA3 ISA guide, ch. 2 "Shader concepts", "Graphics shaders": RDNA3 launches PS, GS
/// and HS waves; VS is the legacy vertex stage LLVM's `amdgpu_vs` still compiles for).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Ps,
    Vs,
    Gs,
    Hs,
}

/// One export instruction as the export buffer receives it (RDNA3 ISA, "Export: Position,
/// Color/MRT"): the target, the enable mask, the lanes exported and 32 bits per enabled
/// component and lane. 16-bit exports are not special here: the instruction moves 32 bits per
/// lane and VSRC; the receiver's format (SPI_SHADER_COL_FORMAT) says whether they are two
/// halves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExportRecord {
    /// 0-7 MRT0-7, 8 MRTZ, 12-16 POS0-4, 20 PRIM, 21/22 dual-source blend.
    pub target: u8,
    /// EN[3:0]: bit k enables VSRCk.
    pub en: u8,
    pub done: bool,
    /// The VM bit as encoded (bit 12; no function on gfx11).
    pub vm: bool,
    /// Lanes exported (EXEC at the export; for the dual-source targets the swizzled mask).
    pub exec: u64,
    /// `data[k][lane]`: VSRCk of the lane (0 where not enabled or not exported).
    pub data: Box<[[u32; LANES]; 4]>,
}

/// Per-wave state of a graphics wave.
#[derive(Clone, Debug)]
pub struct GfxWave {
    pub stage: Stage,
    /// STATUS.SKIP_EXPORT: the wave was created with exports disabled; EXP does nothing (RDNA3
    /// ISA 14.1; RDNA3 ISA guide, 3.3 "Instruction skipping").
    pub skip_export: bool,
    /// Exports in program order.
    pub exports: Vec<ExportRecord>,
    /// A colour/Z export with DONE was made (PS: no more exports may follow; RDNA3 ISA 14: "the
    /// last export from a pixel shader ... must indicate done").
    pub done: bool,
    /// The last position export (DONE on a POS target) was made: no more position exports
    /// (ISA 14: "the last position export of a vertex shader must indicate done").
    pub pos_done: bool,
    /// The primitive export (which must have DONE) was made.
    pub prim_done: bool,
    /// Graphics messages sent (s_sendmsg GS_ALLOC_REQ / HS_TESSFACTOR), in order.
    pub messages: Vec<Message>,
}

impl GfxWave {
    pub fn new(stage: Stage) -> GfxWave {
        GfxWave {
            stage,
            skip_export: false,
            exports: Vec::new(),
            done: false,
            pos_done: false,
            prim_done: false,
            messages: Vec::new(),
        }
    }
}

/// A message a graphics wave sent with s_sendmsg (gfx11 message ids, RDNA3 ISA "S_SENDMSG"):
/// the id and M0 at the time (GS_ALLOC_REQ: the NGG vertex and primitive counts the GS asks
/// export space for, which Mesa's NGG lowering packs as vertices | primitives << 12;
/// HS_TESSFACTOR: the tessellation-factor status).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Message {
    pub id: u32,
    pub m0: u32,
}
