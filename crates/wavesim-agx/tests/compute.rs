//! Compute kernels on the shared engine: a hand-assembled kernel with device loads/stores, threadgroup
//! memory and a barrier over a grid of several threadgroups of two SIMD groups, on one and two host
//! threads; the watchdog and located errors.

use wavesim_agx::asm::assemble;
use wavesim_agx::compute::{AgxCompute, ComputeLaunch};
use wavesim_core::engine::run;
use wavesim_core::error::DispatchError;
use wavesim_core::grid::Geometry;
use wavesim_core::memory::DeviceMemory;
use wavesim_core::observe::NoObserver;

/// out[gid] = v[lid'] where v[lid] = in[gid] + gid is exchanged through threadgroup memory and
/// lid' = 63 - lid (threadgroup_barrier between the store and the load).
const KERNEL: &str = "
    get_sr r1, sr80                                  # thread_position_in_grid.x
    get_sr r2, sr48                                  # thread_position_in_threadgroup.x
    device_load 0, i32, x, r3, u0_u1, r1, unsigned   # r3 = in[gid]
    wait 0
    iadd r3, r3, r1
    threadgroup_store i32, x, r3, 0, r2l             # local[lid] = r3
    threadgroup_barrier
    isub r4, 63, r2
    threadgroup_load i32, x, r5, 0, r4l              # r5 = local[63 - lid]
    device_store 0, i32, x, r5, u2_u3, r1, unsigned, , 0
    stop
";

fn uniforms(input: u64, output: u64) -> Vec<u16> {
    let mut u = vec![0u16; 8];
    for (i, v) in [input, output].iter().enumerate() {
        for k in 0..4 {
            u[4 * i + k] = (v >> (16 * k)) as u16;
        }
    }
    u
}

fn launch(
    code: &str,
    grid: u32,
    threads: usize,
    dev: &DeviceMemory,
    input: u64,
    output: u64,
) -> Result<(), DispatchError<wavesim_agx::exec::ExecError>> {
    let _ = dev;
    let b = AgxCompute::new(
        assemble(code).unwrap(),
        ComputeLaunch {
            name: "reverse".into(),
            geometry: Geometry::new(&[grid], &[64]).unwrap(),
            nr_gprs: 8,
            uniforms: uniforms(input, output),
            threadgroup_memory: 64 * 4,
            threads,
            max_wave_insts: 100_000,
            special: vec![],
        },
    );
    run(&b, dev, &mut NoObserver).map(|stats| {
        assert_eq!(stats.workgroups, (grid / 64) as u64);
        assert_eq!(stats.waves, 2 * (grid / 64) as u64);
    })
}

#[test]
fn kernel_with_threadgroup_memory_and_barrier() {
    for threads in [1, 2] {
        let mut dev = DeviceMemory::new();
        let n = 256u32;
        let input = dev.alloc(4 * n as u64, 16).unwrap();
        let output = dev.alloc(4 * n as u64, 16).unwrap();
        for i in 0..n {
            dev.write_u32(input + 4 * i as u64, 1000 * i + 7).unwrap();
        }
        launch(KERNEL, n, threads, &dev, input, output).unwrap();
        for gid in 0..n {
            let src = gid / 64 * 64 + 63 - gid % 64;
            let want = 1000 * src + 7 + src;
            assert_eq!(
                dev.read_u32(output + 4 * gid as u64).unwrap(),
                want,
                "gid {gid}"
            );
        }
    }
}

#[test]
fn runaway_loop_hits_the_watchdog() {
    let mut dev = DeviceMemory::new();
    let buf = dev.alloc(1024, 16).unwrap();
    let err = launch("jmp_exec_any pc+0\nstop", 64, 1, &dev, buf, buf).unwrap_err();
    assert!(matches!(err, DispatchError::Watchdog { .. }), "{err}");
}

#[test]
fn memory_fault_names_instruction_pc_and_thread() {
    let mut dev = DeviceMemory::new();
    let buf = dev.alloc(16, 16).unwrap();
    // in[gid] for gid >= 4 is outside the 16-byte allocation
    let err = launch(KERNEL, 64, 1, &dev, buf, buf).unwrap_err();
    let text = err.to_string();
    assert!(
        text.contains("kernel reverse")
            && text.contains("device_load")
            && text.contains("thread 4"),
        "{text}"
    );
}

/// Observers see every instruction (the same loop the goldens run), with the group's location.
#[test]
fn observer_sees_every_instruction() {
    use wavesim_agx::exec::{Inst, WaveState};
    use wavesim_core::observe::{InstLoc, Observer};
    struct Count {
        before: u64,
        after: u64,
        groups: std::collections::BTreeSet<([u32; 3], u32)>,
    }
    impl Observer<WaveState, Inst> for Count {
        fn before(&mut self, loc: &InstLoc, _w: &WaveState, _i: &Inst) {
            self.before += 1;
            self.groups.insert((loc.workgroup, loc.wave));
        }
        fn after(&mut self, _loc: &InstLoc, _w: &WaveState, _i: &Inst) {
            self.after += 1;
        }
    }
    let mut dev = DeviceMemory::new();
    let n = 128u32;
    let input = dev.alloc(4 * n as u64, 16).unwrap();
    let output = dev.alloc(4 * n as u64, 16).unwrap();
    let b = AgxCompute::new(
        assemble(KERNEL).unwrap(),
        ComputeLaunch {
            name: "reverse".into(),
            geometry: Geometry::new(&[n], &[64]).unwrap(),
            nr_gprs: 8,
            uniforms: uniforms(input, output),
            threadgroup_memory: 256,
            threads: 2,
            max_wave_insts: 100_000,
            special: vec![],
        },
    );
    let mut obs = Count {
        before: 0,
        after: 0,
        groups: Default::default(),
    };
    let stats = run(&b, &dev, &mut obs).unwrap();
    assert_eq!(obs.before, stats.wave_instructions);
    assert_eq!(obs.after, stats.wave_instructions);
    assert_eq!(
        stats.wave_instructions,
        4 * 11,
        "4 SIMD groups of 11 instructions"
    );
    assert_eq!(obs.groups.len(), 4);
}

/// Texture state bound to a grid (`AgxCompute::binding`): a 4x4 grid (one threadgroup), each
/// thread fetching texel (x, y) = its grid position of a 4x4 RGBA8 unorm image (twiddled: one 4x4 tile, element x | y in Morton order)
/// holding (16x + 1, 16y + 2, 3, 4) with `texture_load` (ts0, level in r6l = 0) and stores red
/// (as f32) and green to out[2 (x + 4y)] and out[2 (x + 4y) + 1] (x + 4y is
/// thread_index_in_threadgroup, x fastest): (16x + 1) / 255 and (16y + 2) / 255 rounded to f32. Unbound, the same kernel stops with a
/// typed error naming `ts0`.
#[test]
fn grid_reads_bound_textures() {
    // texture_load as Mesa's agx_pack.c packs it (tests/texture.rs `tex_word`): R = r8-r11
    // (16-bit unit 16, 32-bit), coordinates r4_r5 (unit 8), the level in r6l (unit 12, lod_min
    // = 6), ts0, tex_2d (2 at bit 40), q3 = 12, mask xyzw
    let texture_load: u64 = 0x31
        | 1 << 6
        | 1 << 8
        | 16 << 9
        | 8 << 16
        | 12 << 24
        | 2 << 40
        | 12 << 43
        | 0xF << 48
        | 6 << 52;
    let mut code =
        assemble("get_sr r4, sr80\nget_sr r5, sr81\nget_sr r1, sr51\nmov_imm r6, 0").unwrap();
    code.extend(texture_load.to_le_bytes());
    code.extend(
        assemble("wait 0\ndevice_store 0, i32, xy, r8_r9, u0_u1, r1, unsigned, lsl 1, 0\nstop")
            .unwrap(),
    );
    let mut dev = DeviceMemory::new();
    let image = dev.alloc(64, 64).unwrap();
    for y in 0..4u32 {
        for x in 0..4u32 {
            let m = (x & 1) | (x & 2) << 1 | (y & 1) << 1 | (y & 2) << 2;
            let texel = [16 * x as u8 + 1, 16 * y as u8 + 2, 3, 4];
            dev.write(image + 4 * u64::from(m), &texel).unwrap();
        }
    }
    let out = dev.alloc(64 * 4, 16).unwrap();
    // cmdbuf.xml TEXTURE: 2D, twiddled, RGBA8 unorm, identity swizzle, 4x4, the address >> 4 at
    // bit 66, `Page-aligned layers` at 126
    let v: u128 = 2
        | 2 << 4
        | 0x28 << 6
        | (1 << 3 | 2 << 6 | 3 << 9) << 16
        | 3 << 28
        | 3 << 42
        | u128::from(image >> 4) << 66
        | 1 << 126;
    let mut desc = [0u8; 24];
    desc[..16].copy_from_slice(&v.to_le_bytes());
    let launch = |bound: bool| {
        let b = AgxCompute::new(
            code.clone(),
            ComputeLaunch {
                name: "texel_fetch".into(),
                geometry: Geometry::new(&[4, 4], &[4, 4]).unwrap(),
                nr_gprs: 12,
                uniforms: uniforms(out, 0),
                threadgroup_memory: 0,
                threads: 1,
                max_wave_insts: 1000,
                special: vec![],
            },
        );
        let b = if bound {
            b.binding(vec![desc], vec![], vec![])
        } else {
            b
        };
        run(&b, &dev, &mut NoObserver)
    };
    let e = launch(false).unwrap_err().to_string();
    assert!(e.contains("ts0"), "{e}");
    launch(true).unwrap();
    for i in 0..16u32 {
        let (x, y) = (i % 4, i / 4);
        for (c, v) in [16 * x + 1, 16 * y + 2].into_iter().enumerate() {
            let mut got = [0u8; 4];
            dev.read(out + 4 * u64::from(2 * i + c as u32), &mut got)
                .unwrap();
            let want = (f64::from(v) / 255.0) as f32;
            assert_eq!(f32::from_le_bytes(got), want, "texel {x} {y} component {c}");
        }
    }
}

/// The grid-kernel job's bindings (`[grid_kernel] texture`, `sampler`, `border`, the keys
/// `[gallium]` uses for a draw): a real Mesa-compiled kernel (corpus/agx/glsl/int_ops) runs the
/// same with a texture and sampler bound (it reads none); a texture in a buffer the job lacks,
/// and borders whose count is not the samplers', are configuration errors.
#[test]
fn grid_kernel_job_binding_keys() {
    use wavesim_agx::runner::{run_in_dir, RunConfig};
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/agx/glsl");
    let job = std::fs::read_to_string(dir.join("int_ops.job.toml")).unwrap();
    let with = |keys: &str| {
        let cfg = RunConfig::from_toml(
            &job.replace("[grid_kernel]\n", &format!("[grid_kernel]\n{keys}\n")),
        )
        .unwrap();
        run_in_dir(&cfg, &dir, None).map(|r| r.text)
    };
    let plain = with("").unwrap();
    let texture =
        "texture = [{ descriptor = [0x28a2, 0x300c0, 0, 0, 0x40000000, 0], buffer = \"b0\" }]";
    let bound = with(&format!(
        "{texture}\nsampler = [[0, 0]]\nborder = [[1, 2, 3, 4]]"
    ))
    .unwrap();
    assert_eq!(plain, bound);
    let e = with(&texture.replace("b0", "nope"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("nope"), "{e}");
    let e = with("border = [[0, 0, 0, 0]]").unwrap_err().to_string();
    assert!(e.contains("1 borders for 0 samplers"), "{e}");
}
