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
