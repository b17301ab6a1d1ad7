//! Graphics-stage waves: the per-wave state exports and parameter loads need, and the initial
//! wave state of the hardware graphics stages (RDNA3 ISA guide, ch. 3 "Wave state", "Initial wave state").
//!
//! What is the shader's and what is the host's: the shader's code runs instruction by
//! instruction as in a compute wave; everything the fixed-function hardware does around it (the
//! SPI loading VGPRs/SGPRs and LDS before the wave starts, the export buffers receiving EXP data)
//! is modelled here, on the host, from the SPI register values a driver programs.

pub mod blend;
pub mod clip;
pub mod depth_stencil;
pub mod draw;
pub mod msaa;
pub mod ngg;
pub mod pal;
pub mod pipeline;
pub mod ps;
pub mod raster;
pub mod scene;
pub mod stages;
pub mod targets;
pub mod vertex_fetch;

pub use crate::wave::gfx::{ExportRecord, GfxWave, Message, Stage};
