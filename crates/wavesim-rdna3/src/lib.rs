//! AMD RDNA3 (gfx11) for wavesim: instruction table, decoder, disassembler and executor.
pub mod debug;
pub mod decode;
pub mod disasm;
pub mod dispatch;
pub mod elf;
pub mod exec;
pub mod gfx;
pub mod hsa;
pub mod inside;
pub mod isa;
pub mod jit;
pub mod rsrc;
pub mod testing;
pub mod trace;
pub mod wave;

/// Code objects live with the rest of the HSA launch ABI (`hsa`); the old path stays.
pub use hsa::codeobj;
