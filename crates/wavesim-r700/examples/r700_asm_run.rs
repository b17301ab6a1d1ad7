//! `cargo run -p wavesim-r700 --example r700_asm_run -- PROGRAM.txt CONFIG.toml [rv770|rv730|rv710]`:
//! assemble R700 program text (llc's syntax) and run it.
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: r700_asm_run PROGRAM.txt CONFIG.toml [CHIP]");
        std::process::exit(2);
    }
    let run = || -> Result<(), String> {
        let text = std::fs::read_to_string(&args[1]).map_err(|e| format!("{}: {e}", args[1]))?;
        let chip =
            wavesim_r700::Chip::from_name(args.get(3).map(String::as_str).unwrap_or("rv770"))
                .ok_or("chip is rv770, rv730 or rv710")?;
        let bytes = wavesim_r700::assemble(&text).map_err(|e| e.to_string())?;
        let shader = wavesim_r700::Shader::from_raw(chip, &bytes).map_err(|e| e.to_string())?;
        let cfg_text =
            std::fs::read_to_string(&args[2]).map_err(|e| format!("{}: {e}", args[2]))?;
        let cfg =
            wavesim_r700::runner::RunConfig::from_toml(&cfg_text).map_err(|e| e.to_string())?;
        let res = wavesim_r700::runner::run(&shader, &cfg).map_err(|e| e.to_string())?;
        print!("{}", res.to_text());
        Ok(())
    };
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
