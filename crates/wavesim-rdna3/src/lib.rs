//! AMD RDNA3 (gfx11) for wavesim: instruction table, decoder, disassembler and executor.
pub mod codeobj;
pub mod decode;
pub mod disasm;
pub mod dispatch;
pub mod elf;
pub mod exec;
pub mod isa;
pub mod testing;
pub mod trace;
pub mod wave;
