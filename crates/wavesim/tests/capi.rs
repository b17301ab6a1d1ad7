//! The C ABI from C: compiles tests/c/capi_test.c against include/wavesim.h, links it with the
//! libwavesim.so cargo built for this test run, and runs it (run_asm with raw code and host
//! buffers; the handle API with the corpus saxpy code object). Also calls run_asm from Rust.

use std::path::{Path, PathBuf};
use std::process::Command;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The cdylib of this build: target/<profile>/libwavesim.so next to the deps/ of this test.
fn cdylib() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let deps = exe.parent()?;
    for dir in [deps.parent()?, deps] {
        let p = dir.join("libwavesim.so");
        if p.exists() {
            return Some(p);
        }
    }
    None
}

fn compiler() -> Option<String> {
    for cc in [
        std::env::var("CC").unwrap_or_default().as_str(),
        "cc",
        "gcc",
        "clang",
    ] {
        if !cc.is_empty() && Command::new(cc).arg("--version").output().is_ok() {
            return Some(cc.to_string());
        }
    }
    None
}

#[test]
fn c_program_drives_run_asm_and_the_handle_api() {
    let Some(so) = cdylib() else {
        panic!("libwavesim.so was not built next to the test binary");
    };
    let Some(cc) = compiler() else {
        eprintln!("SKIP: no C compiler (cc/gcc/clang) on this machine");
        return;
    };
    let out_dir = std::env::temp_dir().join(format!("wavesim-capi-{}", std::process::id()));
    std::fs::create_dir_all(&out_dir).unwrap();
    let exe = out_dir.join("capi_test");
    let lib_dir = so.parent().unwrap();
    let st = Command::new(&cc)
        .arg("-std=c99")
        .arg("-Wall")
        .arg("-Werror")
        .arg("-I")
        .arg(manifest().join("include"))
        .arg(manifest().join("tests/c/capi_test.c"))
        .arg("-o")
        .arg(&exe)
        .arg(format!("-L{}", lib_dir.display()))
        .arg(format!("-Wl,-rpath,{}", lib_dir.display()))
        .arg("-lwavesim")
        .arg("-lm")
        .output()
        .unwrap();
    assert!(
        st.status.success(),
        "C compile failed:\n{}",
        String::from_utf8_lossy(&st.stderr)
    );
    let saxpy = manifest().join("../../corpus/gfx1100-w32/saxpy.hsaco");
    let run = Command::new(&exe).arg(&saxpy).output().unwrap();
    let stdout = String::from_utf8_lossy(&run.stdout);
    println!("{stdout}");
    assert!(
        run.status.success(),
        "C test failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let _ = std::fs::remove_dir_all(Path::new(&out_dir));
}

#[test]
fn run_asm_from_rust_with_host_buffers() {
    // s_load_b64 s[2:3], s[0:1], 0 / s_mul_i32 s4, s15, 64 / v_add_nc_u32 v1, s4, v0 /
    // v_lshlrev_b32 v1, 2, v1 / s_waitcnt lgkmcnt(0) / global_store_b32 v1, v0, s[2:3] / s_endpgm
    let code: [u32; 9] = [
        0xf404_0080,
        0xf800_0000,
        0x9604_c00f,
        0x4a02_0004,
        0x3002_0282,
        0xbf89_fc07,
        0xdc6a_0000,
        0x0002_0001,
        0xbfb0_0000,
    ];
    let mut out = vec![0xdead_beefu32; 2 * 64 + 4];
    let kernarg: [u64; 1] = [out.as_mut_ptr() as u64];
    let rsrc2 = 15 << 1 | 1 << 7;
    // SAFETY: the code only stores to out[0..128] through the kernarg pointer.
    let rc = unsafe {
        wavesim::capi::run_asm(
            code.as_ptr().cast(),
            (code.len() * 4) as u32,
            2,
            1,
            1,
            64,
            1,
            1,
            kernarg.as_ptr().cast(),
            rsrc2,
            0,
        )
    };
    assert_eq!(rc, 0, "{:?}", unsafe {
        std::ffi::CStr::from_ptr(wavesim::capi::wavesim_last_error())
    });
    for (i, &v) in out.iter().enumerate() {
        let want = if i < 128 {
            (i % 64) as u32
        } else {
            0xdead_beef
        };
        assert_eq!(v, want, "element {i}");
    }
}

#[test]
fn run_asm_errors_never_unwind() {
    let kernarg = [0u64; 1];
    // An endless loop hits the watchdog only after DEFAULT_MAX_WAVE_INSTRUCTIONS; use an
    // invalid word instead, and a null pointer.
    let invalid: [u32; 2] = [0xbfff_0000, 0xbfb0_0000];
    // SAFETY: the code touches no memory.
    let rc = unsafe {
        wavesim::capi::run_asm(
            invalid.as_ptr().cast(),
            8,
            1,
            1,
            1,
            32,
            1,
            1,
            kernarg.as_ptr().cast(),
            0,
            0,
        )
    };
    assert_eq!(rc, wavesim::capi::WAVESIM_ERR_EXEC);
    // SAFETY: null code is rejected before use.
    let rc = unsafe {
        wavesim::capi::run_asm(
            std::ptr::null(),
            0,
            1,
            1,
            1,
            32,
            1,
            1,
            std::ptr::null(),
            0,
            0,
        )
    };
    assert_eq!(rc, wavesim::capi::WAVESIM_ERR_INVALID);
    let msg = unsafe { std::ffi::CStr::from_ptr(wavesim::capi::wavesim_last_error()) };
    assert!(msg.to_string_lossy().contains("no code"), "{msg:?}");
}

/// The text entry points (issue 15): disassembly of any ISA, R700 and AGX runs, printf, and the
/// too-small-buffer contract.
#[test]
fn text_results_for_any_isa() {
    use std::ffi::{CStr, CString};
    let root = manifest().join("../..");
    let text = |f: &dyn Fn(*mut std::ffi::c_char, u64, *mut u64) -> i32| -> Result<String, String> {
        let mut needed = 0u64;
        let rc = f(std::ptr::null_mut(), 0, &mut needed);
        if rc != wavesim::capi::WAVESIM_ERR_INVALID || needed == 0 {
            // SAFETY: wavesim_last_error returns a valid C string.
            return Err(
                unsafe { CStr::from_ptr(wavesim::capi::wavesim_last_error()) }
                    .to_string_lossy()
                    .into_owned(),
            );
        }
        let mut buf = vec![0u8; needed as usize];
        let rc = f(buf.as_mut_ptr() as *mut _, needed, &mut needed);
        assert_eq!(rc, wavesim::capi::WAVESIM_OK);
        assert_eq!(buf.pop(), Some(0));
        Ok(String::from_utf8(buf).unwrap())
    };
    // RDNA3 bare bytes: s_endpgm (0xbfb00000).
    let endpgm = 0xbfb0_0000u32.to_le_bytes();
    let t = text(&|o, n, need| unsafe {
        wavesim::capi::wavesim_disassemble(
            endpgm.as_ptr() as _,
            4,
            std::ptr::null(),
            1,
            0,
            o,
            n,
            need,
        )
    })
    .unwrap();
    assert!(t.contains("s_endpgm"), "{t}");
    // An RDNA3 code object, the same text as the Rust API.
    let co = std::fs::read(root.join("corpus/gfx1100-w32/saxpy.hsaco")).unwrap();
    let t = text(&|o, n, need| unsafe {
        wavesim::capi::wavesim_disassemble(
            co.as_ptr() as _,
            co.len() as u64,
            std::ptr::null(),
            0,
            0,
            o,
            n,
            need,
        )
    })
    .unwrap();
    assert_eq!(t, wavesim::disassemble(&co).unwrap());
    // An R700 run: the text `wavesim run` prints.
    let obj = std::fs::read(root.join("corpus/r700/obj/rv770/ps_fadd_fmul.o")).unwrap();
    let cfg = std::fs::read_to_string(root.join("corpus/r700/run/ps_fadd_fmul.toml")).unwrap();
    let want = wavesim::run_r700(&obj, &cfg).unwrap().to_text();
    let ccfg = CString::new(cfg).unwrap();
    let t = text(&|o, n, need| unsafe {
        wavesim::capi::wavesim_run_r700(
            obj.as_ptr() as _,
            obj.len() as u64,
            ccfg.as_ptr(),
            o,
            n,
            need,
        )
    })
    .unwrap();
    assert_eq!(t, want);
    assert!(!t.is_empty());
    // An AGX job that names its code.
    let dir = root.join("corpus/agx/examples");
    let cfg = std::fs::read_to_string(dir.join("collatz_kernel.toml")).unwrap();
    let want = wavesim::run_agx(&cfg, &dir, None).unwrap().to_text();
    let ccfg = CString::new(cfg).unwrap();
    let cdir = CString::new(dir.to_str().unwrap()).unwrap();
    let t = text(&|o, n, need| unsafe {
        wavesim::capi::wavesim_run_agx(
            ccfg.as_ptr(),
            cdir.as_ptr(),
            std::ptr::null(),
            0,
            o,
            n,
            need,
        )
    })
    .unwrap();
    assert_eq!(t, want);
    assert!(t.contains("steps:"), "{t}");
    // Errors carry the message.
    let bad = CString::new("not = [toml").unwrap();
    let e = text(&|o, n, need| unsafe {
        wavesim::capi::wavesim_run_agx(
            bad.as_ptr(),
            std::ptr::null(),
            std::ptr::null(),
            0,
            o,
            n,
            need,
        )
    })
    .unwrap_err();
    assert!(!e.is_empty());
}

/// `run_asm_target` names the gfx11 variant bare bytes are for: s_add_f32 exists on RDNA3.5
/// (gfx1150) only, so the same bytes compute 1.5 + 2.0 = 3.5 for gfx1150 and are an invalid
/// instruction for gfx1100 (and for the default, NULL); an unknown name is an argument error.
#[test]
fn run_asm_target_picks_the_gfx11_variant() {
    use std::ffi::{c_void, CString};
    let code: Vec<u8> = vec![
        0x80, 0x00, 0x04, 0xf4, 0x00, 0x00, 0x00, 0xf8, // s_load_b64 s[2:3], s[0:1], 0x0
        0x07, 0xfc, 0x89, 0xbf, // s_waitcnt lgkmcnt(0)
        0xff, 0x00, 0x84, 0xbe, 0x00, 0x00, 0xc0, 0x3f, // s_mov_b32 s4, 0x3fc00000 (1.5)
        0x04, 0xf4, 0x04, 0xa0, // s_add_f32 s4, s4, 2.0 (gfx1150)
        0x80, 0x02, 0x00, 0x7e, // v_mov_b32_e32 v0, 0
        0x04, 0x02, 0x02, 0x7e, // v_mov_b32_e32 v1, s4
        0x00, 0x00, 0x6a, 0xdc, 0x00, 0x01, 0x02, 0x00, // global_store_b32 v0, v1, s[2:3]
        0x00, 0x00, 0xb0, 0xbf, // s_endpgm
    ];
    let run = |target: Option<&str>| -> (i32, f32) {
        let mut out = [0f32; 1];
        let kernarg: [u64; 1] = [out.as_mut_ptr() as u64];
        let name = target.map(|t| CString::new(t).unwrap());
        // SAFETY: the kernel reads the 8-byte kernarg and writes `out`, both live host memory.
        let rc = unsafe {
            wavesim::capi::run_asm_target(
                code.as_ptr() as *const c_void,
                code.len() as u32,
                1,
                1,
                1,
                1,
                1,
                1,
                kernarg.as_ptr() as *const c_void,
                0,
                0,
                name.as_ref().map_or(std::ptr::null(), |n| n.as_ptr()),
            )
        };
        (rc, out[0])
    };
    assert_eq!(run(Some("gfx1150")), (wavesim::capi::WAVESIM_OK, 3.5));
    assert_eq!(run(Some("gfx1151")), (wavesim::capi::WAVESIM_OK, 3.5));
    assert_eq!(run(Some("gfx1100")).0, wavesim::capi::WAVESIM_ERR_EXEC);
    assert_eq!(run(None).0, wavesim::capi::WAVESIM_ERR_EXEC);
    assert_eq!(run(Some("gfx9000")).0, wavesim::capi::WAVESIM_ERR_INVALID);
}

/// The raw entry points keep decoded programs across calls (`hsa::progcache`): each call must
/// still run the code it passes. The same buffer (same address, same length) holds one
/// program, then another rewritten in place, then the first again; `run_asm` and
/// `wavesim_dispatch_raw` (whose decoding differs) each see every version.
#[test]
fn code_rewritten_in_place_runs_its_new_bytes() {
    // s_load_b64 s[2:3], s[0:1], 0 / s_mul_i32 s4, s15, 64 / v_add_nc_u32 v1, s4, v0 /
    // v_lshlrev_b32 v1, SHIFT, v1 / s_waitcnt lgkmcnt(0) / global_store_b32 v1, v0, s[2:3] /
    // s_endpgm: work-item i stores i at byte (i << SHIFT) of the output.
    let mut code: Vec<u32> = vec![
        0xf404_0080,
        0xf800_0000,
        0x9604_c00f,
        0x4a02_0004,
        0x3002_0282,
        0xbf89_fc07,
        0xdc6a_0000,
        0x0002_0001,
        0xbfb0_0000,
    ];
    let at = code.as_ptr();
    let mut out = vec![0u32; 4 * 64];
    let kernarg: [u64; 1] = [out.as_mut_ptr() as u64];
    let rsrc2 = 15 << 1 | 1 << 7;
    let mut user = [0u32; 15];
    user[0] = kernarg.as_ptr() as u64 as u32;
    user[1] = (kernarg.as_ptr() as u64 >> 32) as u32;
    let last = || {
        // SAFETY: wavesim_last_error returns a NUL-terminated string valid until the next call.
        unsafe { std::ffi::CStr::from_ptr(wavesim::capi::wavesim_last_error()) }
            .to_string_lossy()
            .into_owned()
    };
    for (round, shift) in [2u32, 3, 4, 2, 3].into_iter().enumerate() {
        // v_lshlrev_b32 v1, shift, v1 (inline constant 128 + shift).
        code[4] = 0x3002_0280 | shift;
        assert_eq!(code.as_ptr(), at);
        for raw in [false, true] {
            out.iter_mut().for_each(|v| *v = 0xdead_beef);
            let rc = if raw {
                let d = wavesim::capi::WavesimRawDispatch {
                    code: code.as_ptr().cast(),
                    code_size: (code.len() * 4) as u64,
                    user_data: user.as_ptr(),
                    user_data_count: user.len() as u32,
                    rsrc1: 0,
                    rsrc2,
                    rsrc3: 0,
                    groups: [1, 1, 1],
                    local: [64, 1, 1],
                    wave_size: 32,
                    scratch_size: 0,
                    target: std::ptr::null(),
                    ranges: std::ptr::null(),
                    range_count: 0,
                    max_wave_instructions: 0,
                };
                // SAFETY: the code stores only to out[0..256] through the kernarg pointer.
                unsafe { wavesim::capi::wavesim_dispatch_raw(&d) }
            } else {
                // SAFETY: as above.
                unsafe {
                    wavesim::capi::run_asm(
                        code.as_ptr().cast(),
                        (code.len() * 4) as u32,
                        1,
                        1,
                        1,
                        64,
                        1,
                        1,
                        kernarg.as_ptr().cast(),
                        rsrc2,
                        0,
                    )
                }
            };
            assert_eq!(rc, 0, "round {round}, raw {raw}: {}", last());
            let stride = 1usize << (shift - 2);
            for (i, &v) in out.iter().enumerate() {
                let want = if i % stride == 0 && i / stride < 64 {
                    (i / stride) as u32
                } else {
                    0xdead_beef
                };
                assert_eq!(
                    v, want,
                    "round {round} (shift {shift}), raw {raw}, element {i}"
                );
            }
        }
    }
}
