//! `cargo run -p wavesim-r700 --example r700_run -- SHADER.o CONFIG.toml [OUT.png]`: run an R700 shader
//! and print its exports (and write pixel export 0 as a PNG for a grid run).
fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: r700_run SHADER.o CONFIG.toml [OUT.png]");
        std::process::exit(2);
    }
    let run = || -> Result<(), String> {
        let bytes = std::fs::read(&args[1]).map_err(|e| format!("{}: {e}", args[1]))?;
        let shader = wavesim_r700::Shader::from_object_bytes(&bytes).map_err(|e| e.to_string())?;
        let text = std::fs::read_to_string(&args[2]).map_err(|e| format!("{}: {e}", args[2]))?;
        let cfg = wavesim_r700::runner::RunConfig::from_toml(&text).map_err(|e| e.to_string())?;
        let res = wavesim_r700::runner::run(&shader, &cfg).map_err(|e| e.to_string())?;
        print!("{}", res.to_text());
        let secs = res.elapsed.as_secs_f64().max(1e-9);
        eprintln!(
            "{} threads, {} waves, {} CF instructions, {} thread-ALU-groups in {:.3} s ({:.1} M thread-groups/s)",
            res.threads.len(),
            res.waves,
            res.cf_instructions,
            res.lane_groups,
            secs,
            res.lane_groups as f64 / secs / 1e6
        );
        if let Some(out) = args.get(3) {
            let png = res.png(0).map_err(|e| e.to_string())?;
            std::fs::write(out, png).map_err(|e| format!("{out}: {e}"))?;
        }
        Ok(())
    };
    if let Err(e) = run() {
        eprintln!("error: {e}");
        std::process::exit(1);
    }
}
