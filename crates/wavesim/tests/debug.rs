//! The step API (`Device::debug`) and `wavesim debug` driven through stdin, on the corpus saxpy
//! (y[i] = a * x[i] + y[i]; corpus/cl/saxpy.cl).

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use wavesim::{Arg, DebugEvent, Device, Geometry};

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

/// The address of saxpy's first VALU instruction (after the kernel-argument loads), from the
/// committed llvm-objdump listing.
const FIRST_VALU: u64 = 0x1f2c;

#[test]
fn break_step_registers_memory_and_continue() {
    let elf = std::fs::read(corpus().join("gfx1100-w32/saxpy.hsaco")).unwrap();
    let mut dev = Device::new();
    let module = dev.load(&elf).unwrap();
    let x: Vec<u8> = (0..64u32).flat_map(|i| (i as f32).to_le_bytes()).collect();
    let y: Vec<u8> = (0..64u32).flat_map(|_| 1.0f32.to_le_bytes()).collect();
    let (xa, ya) = (dev.alloc_with(&x).unwrap(), dev.alloc_with(&y).unwrap());
    let args = [
        Arg::Value(64u32.to_le_bytes().to_vec()),
        Arg::Value(2.0f32.to_le_bytes().to_vec()),
        Arg::Buffer(xa),
        Arg::Buffer(ya),
    ];
    let geo = Geometry::new(&[64], &[32]).unwrap();
    dev.debug(&module, "saxpy", &geo, &args, |d| {
        assert_eq!(d.wave_count(), 1);
        d.break_at(FIRST_VALU).unwrap();
        assert_eq!(
            d.cont().unwrap(),
            DebugEvent::Breakpoint {
                wave: 0,
                pc: FIRST_VALU
            }
        );
        assert!(d.next_instruction(0).unwrap().starts_with("v_mad_u64_u32"));
        // the RDNA3 ISA guide (Wave State): v0 holds the work-item id; workgroup 0's wave 0 has lanes 0..31.
        assert_eq!(d.wave(0).unwrap().vgpr_get(0, 5), 5);
        assert_eq!(d.wave(0).unwrap().exec(), 0xffff_ffff);
        // Continuing from a breakpoint executes the instruction first.
        assert!(matches!(
            d.step(0).unwrap(),
            DebugEvent::Stepped { ended: false, .. }
        ));
        assert_ne!(d.pc(0), Some(FIRST_VALU));
        d.clear_break(FIRST_VALU);
        // Memory written here is what the kernel reads: x[3] = 100 -> y[3] = 2 * 100 + 1.
        d.memory().write(xa + 12, &100.0f32.to_le_bytes()).unwrap();
        // A condition on a register: stop when wave 0 reaches s_endpgm's neighbourhood is not
        // needed; run to the end.
        assert_eq!(d.cont().unwrap(), DebugEvent::Finished);
        assert!(d.finished());
    })
    .unwrap();
    let out = dev.read_vec(ya, 256).unwrap();
    let y3 = f32::from_le_bytes(out[12..16].try_into().unwrap());
    let y40 = f32::from_le_bytes(out[160..164].try_into().unwrap());
    assert_eq!((y3, y40), (201.0, 81.0));
}

#[test]
fn a_condition_and_a_register_write() {
    let elf = std::fs::read(corpus().join("gfx1100-w32/saxpy.hsaco")).unwrap();
    let mut dev = Device::new();
    let module = dev.load(&elf).unwrap();
    let x: Vec<u8> = (0..32u32).flat_map(|i| (i as f32).to_le_bytes()).collect();
    let (xa, ya) = (dev.alloc_with(&x).unwrap(), dev.alloc(128).unwrap());
    let args = [
        Arg::Value(32u32.to_le_bytes().to_vec()),
        Arg::Value(1.0f32.to_le_bytes().to_vec()),
        Arg::Buffer(xa),
        Arg::Buffer(ya),
    ];
    let geo = Geometry::new(&[32], &[32]).unwrap();
    dev.debug(&module, "saxpy", &geo, &args, |d| {
        // s6 = the workgroup size (32) once `s_and_b32 s6, s6, 0xffff` at 0x1f20 has run: the
        // wave stops before the next instruction (s_delay_alu at 0x1f28).
        let n = d.break_if(Box::new(|w| w.sgpr[6] == 32));
        assert_eq!(
            d.cont().unwrap(),
            DebugEvent::Condition { wave: 0, index: n }
        );
        assert_eq!(d.pc(0), Some(0x1f28));
        d.clear_conditions();
        d.break_at(FIRST_VALU).unwrap();
        assert!(matches!(d.cont().unwrap(), DebugEvent::Breakpoint { .. }));
        // Make the wave's EXEC lane 0 only: only y[0] is written.
        d.wave_mut(0).unwrap().set_exec(1);
        assert_eq!(d.cont().unwrap(), DebugEvent::Finished);
    })
    .unwrap();
    let out = dev.read_vec(ya, 8).unwrap();
    assert_eq!(
        (
            f32::from_le_bytes(out[0..4].try_into().unwrap()),
            f32::from_le_bytes(out[4..8].try_into().unwrap())
        ),
        (0.0, 0.0)
    );
}

#[test]
fn wavesim_debug_reads_commands_from_stdin() {
    let tmp = std::env::temp_dir().join(format!("wavesim-debug-{}.bin", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .current_dir(corpus().join("data"))
        .args([
            "debug",
            "../gfx1100-w32/saxpy.hsaco",
            "--kernel",
            "saxpy",
            "--global",
            "64",
            "--local",
            "32",
            "--arg",
            "u32:64",
            "--arg",
            "f32:2.5",
            "--arg",
            "buf:saxpy.a2.bin",
            "--arg",
        ])
        .arg(format!("buf:saxpy.a3.bin:{}", tmp.display()))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"break 0x1f2c\ncontinue\nregs\nstep\nset v0[0] 7\nbogus\ncontinue\n")
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "breakpoint at 0x1f2c");
    assert!(
        lines[1].starts_with("break: wave 0 at 0x1f2c `v_mad_u64_u32"),
        "{text}"
    );
    assert!(lines[2].starts_with("wave 0 pc 0x1f2c"), "{text}");
    assert!(text.contains("  v0[0..4] = 0x0 0x1 0x2 0x3"), "{text}");
    assert!(text.contains("wave 0 at 0x1f34"), "{text}");
    assert!(text.contains("error: unknown command `bogus`"), "{text}");
    assert!(text.trim_end().ends_with("finished"), "{text}");
    assert_eq!(std::fs::metadata(&tmp).unwrap().len(), 4000);
    let _ = std::fs::remove_file(&tmp);
}
