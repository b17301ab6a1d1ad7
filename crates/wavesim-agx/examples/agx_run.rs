//! Run a TOML-described AGX job (see `wavesim_agx::runner`): a compute dispatch, a vertex draw or a
//! fragment pass. Prints the outputs; for a fragment pass, writes render target i to PREFIX_i.png.
//!
//!     cargo run -p wavesim-agx --example agx_run -- corpus/agx/examples/gradient_fragment.toml /tmp/gradient
//!     cargo run -p wavesim-agx --example agx_run -- corpus/agx/examples/collatz_kernel.toml
//!     cargo run -p wavesim-agx --example agx_run -- corpus/agx/examples/saxpy_grid_kernel.toml

use wavesim_agx::runner::{run_in_dir, RunConfig};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args
        .next()
        .ok_or("usage: agx_run CONFIG.toml [PNG_PREFIX]")?;
    let cfg = RunConfig::from_toml(&std::fs::read_to_string(&path)?)?;
    let dir = std::path::Path::new(&path)
        .parent()
        .unwrap_or(std::path::Path::new("."));
    let result = run_in_dir(&cfg, dir, None)?;
    print!("{}", result.to_text());
    if let Some(prefix) = args.next() {
        for (i, png) in result.pngs.iter().enumerate() {
            let file = format!("{prefix}_{i}.png");
            std::fs::write(&file, png)?;
            println!("wrote {file}");
        }
    }
    Ok(())
}
