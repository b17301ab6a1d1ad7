//! Print a raw AGX code file as applegpu's `disassemble.py` does.
//!
//!     cargo run -p wavesim-agx --example agx_disasm -- corpus/agx/clc/collatz.bin

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let path = std::env::args().nth(1).ok_or("usage: agx_disasm FILE")?;
    let code = std::fs::read(&path)?;
    print!("{}", wavesim_agx::disassemble_raw(&code, 0)?);
    Ok(())
}
