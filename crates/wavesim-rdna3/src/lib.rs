//! AMD RDNA3 (gfx11) for wavesim: instruction table, decoder, disassembler and executor.
pub mod isa;
