//! `cargo run -p wavesim-r700 --example r700_disasm -- FILE.o [--llc]`: print an R700 object's listing.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        eprintln!("usage: r700_disasm FILE.o [--llc]");
        std::process::exit(2);
    };
    let bytes = std::fs::read(path).unwrap_or_else(|e| {
        eprintln!("{path}: {e}");
        std::process::exit(1)
    });
    match wavesim_r700::Shader::from_object_bytes(&bytes) {
        Ok(sh) if args.iter().any(|a| a == "--llc") => {
            print!("{}", sh.disassemble(wavesim_r700::Syntax::Llc))
        }
        Ok(sh) => print!("{}", sh.listing()),
        Err(e) => {
            eprintln!("{path}: {e}");
            std::process::exit(1)
        }
    }
}
