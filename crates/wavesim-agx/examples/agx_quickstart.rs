//! AGX quick start: assemble a kernel in applegpu's syntax, print its disassembly as applegpu's
//! `disassemble.py` does, and run it over a grid on wavesim's engine.
//!
//!     cargo run -p wavesim-agx --example agx_quickstart

use wavesim_agx::asm::assemble;
use wavesim_agx::compute::{AgxCompute, ComputeLaunch};
use wavesim_agx::disassemble_raw;
use wavesim_core::engine::run;
use wavesim_core::grid::Geometry;
use wavesim_core::memory::DeviceMemory;
use wavesim_core::observe::NoObserver;

const KERNEL: &str = "
    get_sr r1, sr80                                  # thread_position_in_grid.x
    device_load 0, i32, x, r2, u0_u1, r1, unsigned   # r2 = in[i]
    wait 0
    imadd r2, r2, r2, r1                             # r2 = in[i] * in[i] + i
    device_store 0, i32, x, r2, u2_u3, r1, unsigned, , 0
    stop
";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let code = assemble(KERNEL)?;
    print!("{}", disassemble_raw(&code, 0)?);

    let n = 100u32;
    let mut dev = DeviceMemory::new();
    let input = dev.alloc(4 * n as u64, 16)?;
    let output = dev.alloc(4 * n as u64, 16)?;
    for i in 0..n {
        dev.write_u32(input + 4 * i as u64, i + 1)?;
    }
    // Kernel arguments in uniforms: u0_u1 = input, u2_u3 = output (16-bit slots).
    let mut uniforms = vec![0u16; 8];
    for (k, v) in [input, output].iter().enumerate() {
        for h in 0..4 {
            uniforms[4 * k + h] = (v >> (16 * h)) as u16;
        }
    }
    let backend = AgxCompute::new(
        code,
        ComputeLaunch {
            name: "square_plus_index".into(),
            geometry: Geometry::new(&[n], &[64])?,
            nr_gprs: 4,
            uniforms,
            threadgroup_memory: 0,
            threads: 1,
            max_wave_insts: 1_000_000,
            special: vec![],
        },
    );
    let stats = run(&backend, &dev, &mut NoObserver)?;
    for i in [0u32, 1, 99] {
        let v = dev.read_u32(output + 4 * i as u64)?;
        println!("out[{i}] = {v}");
        assert_eq!(v, (i + 1) * (i + 1) + i);
    }
    println!(
        "{} SIMD groups, {} instructions",
        stats.waves, stats.wave_instructions
    );
    Ok(())
}
