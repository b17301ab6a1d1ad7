//! Throughput of the AGX executor on an ALU loop kernel (wave = SIMD group of 32 threads).
//!
//!     cargo run --release -p wavesim-agx --example agx_bench

use std::time::Instant;
use wavesim_agx::asm::assemble;
use wavesim_agx::compute::{AgxCompute, ComputeLaunch};
use wavesim_core::engine::run;
use wavesim_core::grid::Geometry;
use wavesim_core::memory::DeviceMemory;
use wavesim_core::observe::NoObserver;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let head = "get_sr r1, sr80\nmov_imm r0l, 0\nmov_imm r2, 0\nmov_imm r3, 1\n";
    let body = "imadd r3, r3, 3, r1\nbitop 0110, r4, r3, r1\nfmadd32 r5, r5, 0.5, r4\niadd r2, r2, 1\nwhile_icmp r0l, ult, r2, 200, 1\n";
    let body_len = assemble(body)?.len();
    let src = format!(
        "{head}{body}jmp_exec_any pc-{body_len}\npop_exec r0l, 1\niadd r3, r3, r5\ndevice_store 0, i32, x, r3, u0_u1, r1, unsigned, , 0\nstop\n"
    );
    let code = assemble(&src)?;
    let n = 1u32 << 16;
    let mut dev = DeviceMemory::new();
    let out = dev.alloc(4 * n as u64, 64)?;
    let uniforms: Vec<u16> = (0..4).map(|h| (out >> (16 * h)) as u16).collect();
    for threads in [1usize, 2] {
        let b = AgxCompute::new(
            code.clone(),
            ComputeLaunch {
                name: "alu_loop".into(),
                geometry: Geometry::new(&[n], &[256])?,
                nr_gprs: 8,
                uniforms: uniforms.clone(),
                threadgroup_memory: 0,
                threads,
                max_wave_insts: 10_000_000,
                special: vec![],
            },
        );
        let t = Instant::now();
        let stats = run(&b, &dev, &mut NoObserver)?;
        let s = t.elapsed().as_secs_f64();
        println!(
            "threads={threads}: {} SIMD groups, {:.2} M wave-instr/s, {:.1} M lane-instr/s ({:.3} s)",
            stats.waves,
            stats.wave_instructions as f64 / s / 1e6,
            stats.lane_instructions as f64 / s / 1e6,
            s
        );
    }
    Ok(())
}
