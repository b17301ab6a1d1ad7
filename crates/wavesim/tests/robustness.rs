//! Bad input never takes the host process down or silently does nothing (issue 24): each case
//! the issue lists, through the Rust API, the C ABI and the CLI, must end in one clear error
//! (naming the field and the limit) or the right result, never an abort, a panic, a hang or a
//! run that does nothing. The fuzzing half of the suite is tests/robustness_fuzz.rs.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use wavesim::{Arg, Device, Geometry};

fn root(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

fn wavesim(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .args(args)
        .env("WAVESIM_NO_PROGRESS", "1")
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// `SUB FILE --kernel saxpy --global G --local L` with saxpy's four arguments (n = 4, a = 2,
/// two zeroed 16-byte buffers).
fn saxpy_args<'a>(sub: &'a str, file: &'a str, global: &'a str, local: &'a str) -> Vec<&'a str> {
    vec![
        sub, file, "--kernel", "saxpy", "--global", global, "--local", local, "--arg", "u32:4",
        "--arg", "f32:2", "--arg", "zeros:16", "--arg", "zeros:16",
    ]
}

/// `wavesim run` of saxpy (see [`saxpy_args`]) with `extra` flags.
fn run_saxpy_cli(file: &Path, global: &str, local: &str, extra: &[&str]) -> Output {
    let mut args = saxpy_args("run", file.to_str().unwrap(), global, local);
    args.extend_from_slice(extra);
    wavesim(&args)
}

/// A temporary file of this test process holding `text`.
fn temp(name: &str, text: &[u8]) -> PathBuf {
    let p = std::env::temp_dir().join(format!("wavesim-robust-{}-{name}", std::process::id()));
    std::fs::write(&p, text).unwrap();
    p
}

/// `s_endpgm` (SOPP opcode 48: 0xbfb00000).
const S_ENDPGM: [u8; 4] = [0x00, 0x00, 0xb0, 0xbf];

fn run_asm(groups: [u32; 3], local: [u32; 3], rsrc2: u32, scratch: u32) -> Result<(), String> {
    // SAFETY: the code touches no memory (s_endpgm only).
    unsafe { wavesim::run_host_asm(&S_ENDPGM, groups, local, 0, rsrc2, scratch, 1000) }
        .map(|_| ())
        .map_err(|e| e.to_string())
}

// ---- Aborts ------------------------------------------------------------------------------

#[test]
fn run_asm_scratch_sizes_over_the_limit_are_errors_not_allocations() {
    // 0xFFFFFFFC asked 128 GiB (abort); 0xFFFFFFFD-F wrapped to 0 when rounded to dwords.
    for scratch in [
        0xFFFF_FFFC,
        0xFFFF_FFFD,
        0xFFFF_FFFE,
        0xFFFF_FFFF,
        256 * 1024 + 1,
    ] {
        let e = run_asm([1, 1, 1], [32, 1, 1], 1, scratch).unwrap_err();
        assert!(
            e.contains("scratch_size") && e.contains("at most 262144 bytes"),
            "{scratch:#x}: {e}"
        );
    }
    // The limit itself runs.
    run_asm([1, 1, 1], [32, 1, 1], 1, 256 * 1024).unwrap();
}

#[test]
fn run_asm_refuses_what_the_raw_abi_refuses_in_rsrc2() {
    use wavesim::raw::rsrc2_fields as f;
    for (field, bit) in [
        (f::RESERVED_31, 31),
        (f::TRAP_PRESENT, 6),
        (f::EXCP_EN_ADDRESS_WATCH, 13),
        (f::EXCP_EN_MEMORY, 14),
    ] {
        let e = run_asm([1, 1, 1], [32, 1, 1], 1 << bit, 0).unwrap_err();
        assert!(e.contains(field.name), "bit {bit}: {e}");
    }
}

/// saxpy.hsaco with its kernel descriptor's kernarg_size (bytes 8..12 of the 64-byte
/// descriptor, AMDGPUUsage "Kernel Descriptor") set to `value`.
fn saxpy_with_kernarg_size(value: u32) -> Vec<u8> {
    let mut elf = std::fs::read(root("examples/saxpy.hsaco")).unwrap();
    let co = wavesim::CodeObject::parse(&elf).unwrap();
    let k = &co.kernels[0];
    let kd = &co.image[k.kd_addr as usize..k.kd_addr as usize + 64];
    let at = elf
        .windows(64)
        .position(|w| w == kd)
        .expect("the descriptor's bytes are in the file");
    elf[at + 8..at + 12].copy_from_slice(&value.to_le_bytes());
    elf
}

#[test]
fn a_huge_descriptor_kernarg_size_is_an_error_before_allocation() {
    let elf = saxpy_with_kernarg_size(0xFFFF_FFFF);
    let mut dev = Device::new();
    let m = dev.load(&elf).unwrap();
    let x = dev.alloc_with(&[0; 16]).unwrap();
    let y = dev.alloc_with(&[0; 16]).unwrap();
    let args = [
        Arg::Value(4u32.to_le_bytes().to_vec()),
        Arg::Value(2f32.to_le_bytes().to_vec()),
        Arg::Buffer(x),
        Arg::Buffer(y),
    ];
    let geo = Geometry::new(&[4], &[4]).unwrap();
    let e = dev
        .dispatch(&m, "saxpy", &geo, &args)
        .unwrap_err()
        .to_string();
    assert!(
        e.contains("kernarg_size is 4294967295 bytes; at most 65536 bytes"),
        "{e}"
    );
    // The CLI says the same in one line, as a usage error (2).
    let f = temp("kernarg.hsaco", &elf);
    let o = run_saxpy_cli(&f, "4", "4", &[]);
    let _ = std::fs::remove_file(&f);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("at most 65536 bytes"), "{}", stderr(&o));
    assert_eq!(stderr(&o).lines().count(), 1, "{}", stderr(&o));
}

#[test]
fn huge_image_and_buffer_arguments_are_refused_when_parsed() {
    let e = wavesim::parse_spec("image:rgba32f:16384x16384:zeros").unwrap_err();
    assert!(e.contains("4294967296 bytes; at most 1073741824"), "{e}");
    let e = wavesim::parse_spec("zeros:1000000000000").unwrap_err();
    assert!(e.contains("zeros:N is 1000000000000 bytes"), "{e}");
}

#[test]
fn thread_counts_are_clamped_not_fatal() {
    // --threads 100000 spent 24 s starting threads; 3000 overflowed the process's stacks.
    let x: Vec<u8> = (0..1000u32)
        .flat_map(|i| (i as f32).to_le_bytes())
        .collect();
    for threads in [3000, 100_000] {
        let mut dev = Device::new();
        dev.threads = threads;
        let m = dev
            .load(&std::fs::read(root("examples/saxpy.hsaco")).unwrap())
            .unwrap();
        let xa = dev.alloc_with(&x).unwrap();
        let ya = dev.alloc_with(&vec![0; 4000]).unwrap();
        let args = [
            Arg::Value(1000u32.to_le_bytes().to_vec()),
            Arg::Value(2f32.to_le_bytes().to_vec()),
            Arg::Buffer(xa),
            Arg::Buffer(ya),
        ];
        let geo = Geometry::new(&[1024], &[64]).unwrap();
        dev.dispatch(&m, "saxpy", &geo, &args).unwrap();
        let y = dev.read_vec(ya + 4 * 999, 4).unwrap();
        // y = a * x + y = 2 * 999 + 0.
        assert_eq!(f32::from_le_bytes(y.try_into().unwrap()), 1998.0);
    }
    let o = run_saxpy_cli(
        &root("examples/saxpy.hsaco"),
        "64",
        "64",
        &["--threads", "100000"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("note: --threads 100000: using 256"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn an_agx_grid_kernel_with_100000_threads_runs_on_a_clamped_pool() {
    let dir = root("corpus/agx/examples");
    let text = std::fs::read_to_string(dir.join("saxpy_grid_kernel.toml"))
        .unwrap()
        .replace("grid = [48]", "grid = [48]\nthreads = 100000");
    let start = std::time::Instant::now();
    let r = wavesim::run_agx(&text, &dir, None).unwrap();
    assert!(start.elapsed().as_secs() < 20, "{:?}", start.elapsed());
    // y[0] = 2.5 * -5 + 100.
    assert!(r.to_text().contains("87.5"), "{}", r.to_text());
}

// ---- Draws --------------------------------------------------------------------------------

/// The gradient scene with absolute object paths and `edit` applied, drawn.
fn draw_gradient(edit: impl Fn(String) -> String) -> Result<Vec<Vec<u8>>, String> {
    let text = std::fs::read_to_string(root("corpus/gfx/draw/gradient.toml"))
        .unwrap()
        .replace("../obj/", &format!("{}/", root("corpus/gfx/obj").display()));
    let text = edit(text);
    let f = temp(&format!("scene-{:x}.toml", fxhash(&text)), text.as_bytes());
    let r = wavesim::draw_scene_file(&f).map_err(|e| e.to_string());
    let _ = std::fs::remove_file(&f);
    r
}

fn fxhash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
    })
}

const TARGET: &str =
    "[[targets]]\nformat = \"rgba8_unorm\"\nexport = \"f32\"\nclear = [0.05, 0.05, 0.1, 1.0]\n";

#[test]
fn a_draw_without_targets_is_an_error() {
    let e = draw_gradient(|t| t.replace(TARGET, "targets = []\n")).unwrap_err();
    assert!(e.contains("no render targets"), "{e}");
}

#[test]
fn more_than_eight_targets_are_an_error() {
    let e = draw_gradient(|t| t.replace(TARGET, &TARGET.repeat(9))).unwrap_err();
    assert!(e.contains("9 render targets; at most 8 (MRT0-7)"), "{e}");
    // Eight are fine.
    assert_eq!(
        draw_gradient(|t| t.replace(TARGET, &TARGET.repeat(8)))
            .unwrap()
            .len(),
        8
    );
}

#[test]
fn huge_float_targets_are_an_error_before_allocation() {
    let e = draw_gradient(|t| {
        t.replace("width = 128\nheight = 96", "width = 16384\nheight = 16384")
            .replace("rgba8_unorm", "rgba32_float")
    })
    .unwrap_err();
    // 16384 * 16384 texels * 16 bytes.
    assert!(
        e.contains("4294967296 bytes; at most 1073741824 bytes"),
        "{e}"
    );
}

#[test]
fn wave64_on_wave32_pal_objects_is_an_error() {
    let e =
        draw_gradient(|t| t.replace("height = 96\n", "height = 96\nwave64 = true\n")).unwrap_err();
    assert!(
        e.contains("compiled for wave32 but the scene says wave64 = true"),
        "{e}"
    );
}

// ---- Grids ------------------------------------------------------------------------------

const OVERFLOW: &str = "overflows a 64-bit workgroup count at dimension 2 (z)";

#[test]
fn an_overflowing_grid_is_an_error_naming_the_dimension_everywhere() {
    // 2^31 x 2^31 x 4 workgroups = 2^64: counted "workgroups: 0" and did nothing.
    let e = Geometry::new(&[1 << 31, 1 << 31, 4], &[1, 1, 1]).unwrap_err();
    assert!(e.to_string().contains(OVERFLOW), "{e}");
    let e = run_asm([1 << 31, 1 << 31, 4], [1, 1, 1], 0, 0).unwrap_err();
    assert!(e.contains(OVERFLOW), "{e}");
    let d = wavesim::RawDispatch {
        code: &S_ENDPGM,
        groups: [1 << 31, 1 << 31, 4],
        local: [1, 1, 1],
        user_sgprs: &[],
        rsrc1: 0,
        rsrc2: 0,
        rsrc3: 0,
        wave64: false,
        scratch_lane_bytes: 0,
        target: wavesim::raw::target_from("gfx1100").unwrap(),
        host_ranges: Some(&[]),
        max_wave_insts: 1000,
    };
    // SAFETY: no memory is mapped and the code touches none.
    let e = unsafe { wavesim::dispatch_raw(&d) }
        .unwrap_err()
        .to_string();
    assert!(e.contains(OVERFLOW), "{e}");
    let o = run_saxpy_cli(
        &root("examples/saxpy.hsaco"),
        "2147483648,2147483648,4",
        "1,1,1",
        &[],
    );
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains(OVERFLOW), "{}", stderr(&o));
}

// ---- R700 and AGX runner configurations ---------------------------------------------------

#[test]
fn an_r700_png_of_a_target_nothing_exported_is_an_error() {
    let r700 = |rel: &str| root(&format!("corpus/r700/{rel}"));
    let obj = std::fs::read(r700("obj/rv770/ps_tex_two.o")).unwrap();
    let cfg = std::fs::read_to_string(r700("examples/tex_grid.toml")).unwrap();
    let r = wavesim::run_r700(&obj, &cfg).unwrap();
    r.png(0).unwrap();
    let e = r.png(9).unwrap_err().to_string();
    assert!(
        e.contains("no thread exported pixel9 (exported targets: 0)"),
        "{e}"
    );
}

#[test]
fn agx_show_registers_and_components_out_of_range_are_errors() {
    let dir = root("corpus/agx/examples");
    let text = std::fs::read_to_string(dir.join("attributes_vertex.toml")).unwrap();
    let huge = text.replace(
        "show_registers = [5, 8, 9, 10, 11]",
        "show_registers = [9223372036854775807]",
    );
    let e = wavesim::run_agx(&huge, &dir, None).unwrap_err().to_string();
    assert!(e.contains("r9223372036854775807 does not exist"), "{e}");
    let zero = text.replace("components = 2", "components = 0");
    assert_ne!(zero, text);
    let e = wavesim::run_agx(&zero, &dir, None).unwrap_err().to_string();
    assert!(e.contains("components = 0 (1 to 4)"), "{e}");
}

// ---- The raw ABI's host ranges --------------------------------------------------------------

/// Reads 4 bytes at the address in s[0:1] (v0, the packed work-item id, is 0 in the only lane):
/// llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding of
fn load_code() -> Vec<u8> {
    // global_load_b32 v1, v0, s[0:1]  -> [0x00,0x00,0x52,0xdc,0x00,0x00,0x00,0x01]
    // s_waitcnt vmcnt(0)              -> [0xf7,0x03,0x89,0xbf]
    // s_endpgm                        -> [0x00,0x00,0xb0,0xbf]
    [0xdc52_0000u32, 0x0100_0000, 0xbf89_03f7, 0xbfb0_0000]
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect()
}

#[test]
fn c_abi_ranges_are_page_granular_partly_outside_is_a_memory_error_and_wrapping_is_refused() {
    use std::ffi::CStr;
    use wavesim::capi::*;
    // One page-aligned page of host memory; the kernel reads 4 bytes at `addr` from one lane.
    let page = vec![0u64; 1024 + 512];
    let base = (page.as_ptr() as u64).next_multiple_of(4096);
    let code = load_code();
    let run = |addr: u64, ranges: &[WavesimHostRange]| -> (i32, String) {
        let user = [addr as u32, (addr >> 32) as u32];
        let d = WavesimRawDispatch {
            code: code.as_ptr().cast(),
            code_size: code.len() as u64,
            user_data: user.as_ptr(),
            user_data_count: 2,
            rsrc1: 0,
            // USER_SGPR_COUNT = 2.
            rsrc2: 2 << 1,
            rsrc3: 0,
            groups: [1, 1, 1],
            local: [1, 1, 1],
            wave_size: 32,
            scratch_size: 0,
            target: std::ptr::null(),
            ranges: ranges.as_ptr(),
            range_count: ranges.len() as u64,
            max_wave_instructions: 0,
        };
        // SAFETY: every range lies in `page`, live for the call.
        let rc = unsafe { wavesim_dispatch_raw(&d) };
        // SAFETY: the message is a NUL-terminated string.
        let msg = unsafe { CStr::from_ptr(wavesim_last_error()) }
            .to_string_lossy()
            .into_owned();
        (rc, msg)
    };
    let r = |start, size| WavesimHostRange { start, size };
    // A 100-byte buffer: bytes 100..104 are past its end but inside its page, legal on the GPU.
    assert_eq!(run(base + 100, &[r(base, 100)]).0, WAVESIM_OK);
    // Byte-exact ranges on request: the same read starts outside.
    wavesim_set_raw_exact_ranges(1);
    let (rc, msg) = run(base + 98, &[r(base, 100)]);
    wavesim_set_raw_exact_ranges(0);
    // Bytes 98..102: starts inside the buffer and ends past it.
    assert_eq!(rc, WAVESIM_ERR_MEMORY, "{msg}");
    assert!(msg.contains("outside the host address ranges"), "{msg}");
    // Page-granular: the page's last 2 bytes plus 2 of the next (unmapped) page.
    let (rc, msg) = run(base + 4094, &[r(base, 100)]);
    assert_eq!(rc, WAVESIM_ERR_MEMORY, "{msg}");
    assert!(msg.contains("outside the host address ranges"), "{msg}");
    // A range whose end wraps past 2^64.
    let (rc, msg) = run(base, &[r(u64::MAX - 10, 100)]);
    assert_eq!(rc, WAVESIM_ERR_INVALID, "{msg}");
    assert!(
        msg.contains("ranges[0]") && msg.contains("ends past 2^64"),
        "{msg}"
    );
}

// ---- Messages and exit codes ----------------------------------------------------------------

#[test]
fn usage_errors_exit_2() {
    let o = wavesim(&["disasm"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    let o = wavesim(&[
        "disasm",
        "--target",
        "nonsense",
        root("examples/saxpy.hsaco").to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("unknown target `nonsense`"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn dev_zero_as_any_input_is_refused_at_once() {
    if !Path::new("/dev/zero").exists() {
        return;
    }
    for args in [
        vec!["run", "/dev/zero"],
        vec!["disasm", "/dev/zero"],
        vec!["info", "/dev/zero"],
        vec!["draw", "/dev/zero", "-o", "/dev/null"],
    ] {
        let o = wavesim(&args);
        let e = stderr(&o);
        assert!(!o.status.success(), "{args:?}");
        assert!(e.contains("a device, not a file"), "{args:?}: {e}");
        assert_eq!(e.matches("/dev/zero").count(), 1, "{args:?}: {e}");
    }
}

#[test]
fn wavesim_debug_refuses_missing_waves_and_values_that_do_not_fit() {
    use std::io::Write;
    let saxpy = root("examples/saxpy.hsaco");
    let mut child = Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .args(saxpy_args("debug", saxpy.to_str().unwrap(), "32", "32"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"step 18446744073709551615\nmem 0x10000000 = 0x1ffffffff\nset s5 0x100000000\n\
              mem 0x10000000 100000000\nmem 0xfffffffffffffffc 2\nquit\n",
        )
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let text = String::from_utf8_lossy(&o.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[0], "error: no wave 18446744073709551615: the workgroup has waves 0 to 0",
        "{text}"
    );
    assert_eq!(
        lines[1], "error: `0x1ffffffff` does not fit in 32 bits",
        "{text}"
    );
    assert_eq!(
        lines[2], "error: `0x100000000` does not fit in 32 bits",
        "{text}"
    );
    assert_eq!(
        lines[3], "error: mem: 100000000 dwords; at most 4096 at a time",
        "{text}"
    );
    assert!(lines[4].starts_with("error: "), "{text}");
}

#[test]
fn object_files_are_named_for_what_their_header_says() {
    let empty = temp("empty.o", b"");
    let o = wavesim(&["run", empty.to_str().unwrap()]);
    let _ = std::fs::remove_file(&empty);
    assert!(stderr(&o).contains("is empty"), "{}", stderr(&o));
    let agx = root("corpus/agx/kernels/saxpy.bin");
    let o = wavesim(&["run", agx.to_str().unwrap()]);
    let e = stderr(&o);
    assert!(
        e.contains("not an object file (malformed ELF") && !e.contains("RDNA3"),
        "{e}"
    );
    // An ELF32 AMDGPU object whose e_flags name no R700 chip (e_flags at byte 36 of the ELF32
    // header).
    let mut r700 = std::fs::read(root("corpus/r700/obj/rv770/ps_tex_two.o")).unwrap();
    r700[36..40].copy_from_slice(&0x1234u32.to_le_bytes());
    let odd = temp("odd.o", &r700);
    let o = wavesim(&["run", odd.to_str().unwrap()]);
    let _ = std::fs::remove_file(&odd);
    let e = stderr(&o);
    assert!(
        e.contains("not an R700 chip") && !e.contains("RDNA3"),
        "{e}"
    );
}

#[test]
fn an_agx_fault_names_pc_and_instruction_once() {
    let dir = root("corpus/agx/examples");
    let text = std::fs::read_to_string(dir.join("collatz_kernel.toml"))
        .unwrap()
        .replace(
            "fields = [{ ptr = \"start\" }",
            "fields = [{ u32 = 16 }, { u32 = 0 }",
        );
    let e = wavesim::run_agx(&text, &dir, None).unwrap_err().to_string();
    assert_eq!(
        e.matches("PC 0x").count() + e.matches("pc 0x").count(),
        1,
        "{e}"
    );
    assert_eq!(e.matches("device_load").count(), 1, "{e}");
    assert!(e.contains("outside every allocation"), "{e}");
}

#[test]
fn an_r700_cube_map_without_data_is_an_error() {
    // Found by tests/robustness_fuzz.rs: six empty faces panicked splitting the data.
    let obj = std::fs::read(root("corpus/r700/obj/rv770/ps_cube.o")).unwrap();
    let cfg = std::fs::read_to_string(root("corpus/r700/run/ps_cube.toml")).unwrap();
    let lines: Vec<String> = cfg
        .lines()
        .scan(false, |cube, l| {
            *cube |= l.starts_with("dim = \"cube\"");
            Some(if *cube && l.starts_with("data = ") {
                "data = []".to_string()
            } else {
                l.to_string()
            })
        })
        .collect();
    let e = wavesim::run_r700(&obj, &lines.join("\n"))
        .unwrap_err()
        .to_string();
    assert!(e.contains("a cube map needs data for its six faces"), "{e}");
}

#[test]
fn an_agx_compute_grid_that_overflows_is_an_error() {
    let dir = root("corpus/agx/examples");
    let text = std::fs::read_to_string(dir.join("collatz_kernel.toml"))
        .unwrap()
        .replace("grid = [32]", "grid = [2147483648, 2147483648, 4]")
        .replace("local = [32]", "local = [1, 1, 1]");
    let e = wavesim::run_agx(&text, &dir, None).unwrap_err().to_string();
    assert!(e.contains(OVERFLOW), "{e}");
}

#[test]
fn c_abi_dispatch_and_alloc_refuse_huge_sizes() {
    use std::ffi::CStr;
    use wavesim::capi::*;
    let last = || {
        // SAFETY: the message is a NUL-terminated string.
        unsafe { CStr::from_ptr(wavesim_last_error()) }
            .to_string_lossy()
            .into_owned()
    };
    let dev = wavesim_device_create();
    let mut addr = 0u64;
    // SAFETY: a live device and a writable output.
    let rc = unsafe { wavesim_alloc(dev, 1 << 40, &mut addr) };
    assert_eq!(rc, WAVESIM_ERR_INVALID, "{}", last());
    assert!(
        last().contains("buffer size is 1099511627776 bytes; at most"),
        "{}",
        last()
    );
    // The kernel descriptor's kernarg_size of 0xFFFFFFFF through wavesim_dispatch.
    let elf = saxpy_with_kernarg_size(0xFFFF_FFFF);
    let mut module = std::ptr::null_mut();
    let (mut x, mut y) = (0u64, 0u64);
    // SAFETY: live handles, readable bytes, writable outputs.
    unsafe {
        assert_eq!(
            wavesim_load(dev, elf.as_ptr().cast(), elf.len() as u64, &mut module),
            WAVESIM_OK
        );
        assert_eq!(wavesim_alloc(dev, 16, &mut x), WAVESIM_OK);
        assert_eq!(wavesim_alloc(dev, 16, &mut y), WAVESIM_OK);
    }
    // saxpy(uint n, float a, const float *x, float *y): offsets 0, 4, 8, 16.
    let mut kernarg = [0u8; 24];
    kernarg[0..4].copy_from_slice(&4u32.to_le_bytes());
    kernarg[4..8].copy_from_slice(&2f32.to_le_bytes());
    kernarg[8..16].copy_from_slice(&x.to_le_bytes());
    kernarg[16..24].copy_from_slice(&y.to_le_bytes());
    let (grid, local) = ([4u32], [4u32]);
    // SAFETY: live handles; every pointer readable for its count.
    let rc = unsafe {
        wavesim_dispatch(
            dev,
            module,
            c"saxpy".as_ptr(),
            1,
            grid.as_ptr(),
            local.as_ptr(),
            kernarg.as_ptr().cast(),
            24,
            std::ptr::null(),
            0,
        )
    };
    assert_eq!(rc, WAVESIM_ERR_INVALID, "{}", last());
    assert!(
        last().contains("kernarg_size is 4294967295 bytes"),
        "{}",
        last()
    );
    // SAFETY: handles from this test, not used afterwards.
    unsafe {
        wavesim_module_destroy(module);
        wavesim_device_destroy(dev);
    }
}
