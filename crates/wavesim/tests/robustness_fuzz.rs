//! Fuzzing every input path of the facade (issue 24): argument specs, run_asm and raw-dispatch
//! registers and code, offload bundles, draw scenes, R700 and AGX runner configurations, and CLI
//! flags in child processes under a memory limit (4 GiB; the in-process paths run under an 8 GiB limit
//! on the test process). Each case must end in a result or an error:
//! a panic fails the test (it would abort a C or Python caller), and so does a case that runs
//! for more than a few seconds. Work sizes are drawn small or impossible (overflowing), never
//! merely huge: a valid grid of 2^40 workgroups is a long run, not a bug.
//!
//! Brief by default (seconds, for CI); `WAVESIM_FUZZ_CASES=N` runs N cases per path (e.g.
//! 20000 for a long run). Deterministic: case `i` of a path is rebuilt from its seed.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

fn root(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(rel)
}

fn cases(default: u64) -> u64 {
    std::env::var("WAVESIM_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// xorshift64*: small, deterministic, no dependency.
struct Rng(u64);

impl Rng {
    fn new(path: &str, case: u64) -> Rng {
        let h = path.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ b as u64).wrapping_mul(0x100_0000_01b3)
        });
        Rng((h ^ case.wrapping_mul(0x9e37_79b9_7f4a_7c15)) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn pick<'a, T>(&mut self, v: &'a [T]) -> &'a T {
        &v[self.below(v.len() as u64) as usize]
    }
}

/// The in-process fuzzers run under an 8 GiB address-space limit on this test process, set once
/// with `prlimit --pid` (util-linux, where present): an input that makes wavesim allocate beyond
/// its own size limits then aborts this test binary (a failure) instead of passing on a machine
/// with memory to spare. The process itself (harness and worker threads, malloc arenas) stays
/// far below it.
fn limit_this_process() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if std::path::Path::new("/usr/bin/prlimit").exists() {
            let status = Command::new("/usr/bin/prlimit")
                .arg("--pid")
                .arg(std::process::id().to_string())
                .arg(format!("--as={}", 8u64 << 30))
                .status()
                .expect("running prlimit");
            assert!(status.success(), "prlimit could not limit the test process");
            let limits = std::fs::read_to_string("/proc/self/limits").unwrap_or_default();
            let line = limits
                .lines()
                .find(|l| l.starts_with("Max address space"))
                .unwrap_or_default();
            assert!(
                line.contains(&(8u64 << 30).to_string()),
                "the address-space limit did not take: {line}"
            );
        }
    });
}

/// Runs `f` for `n` cases of `path`; a panic or a case over 10 s fails, naming the case.
fn fuzz(path: &str, n: u64, mut f: impl FnMut(&mut Rng) -> String) {
    limit_this_process();
    for case in 0..n {
        let mut rng = Rng::new(path, case);
        let start = Instant::now();
        let r = catch_unwind(AssertUnwindSafe(|| f(&mut rng)));
        let took = start.elapsed();
        match r {
            Ok(what) => assert!(
                took < Duration::from_secs(10),
                "{path} case {case} took {took:?}: {what}"
            ),
            Err(p) => {
                let msg = p
                    .downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default();
                panic!("{path} case {case} panicked: {msg}");
            }
        }
    }
}

/// A 32-bit size: small, at a boundary, or overflowing.
fn size(r: &mut Rng) -> u32 {
    *r.pick(&[
        0,
        1,
        2,
        3,
        31,
        32,
        64,
        1024,
        1025,
        0x7fff_ffff,
        0x8000_0000,
        0xffff_fffc,
        0xffff_ffff,
    ])
}

/// Workgroups and work-items per workgroup: either at most 64 workgroups of a sane or refused
/// workgroup, or counts that overflow (refused).
fn geometry(r: &mut Rng) -> ([u32; 3], [u32; 3]) {
    let local = [0, 1, 2].map(|_| *r.pick(&[0, 1, 2, 32, 64, 1024, 1025, u32::MAX]));
    if r.below(2) == 0 {
        let groups = [0, 1, 2].map(|_| r.below(5) as u32);
        (groups, local)
    } else {
        ([1 << 31, 1 << 31, 4 + r.below(4) as u32], [1, 1, 1])
    }
}

const S_ENDPGM: [u8; 4] = [0x00, 0x00, 0xb0, 0xbf];

#[test]
fn argument_specs() {
    let parts = [
        "u8",
        "u32",
        "i64",
        "f16",
        "f32",
        "f64",
        "f32x4",
        "bytes",
        "buf",
        "zeros",
        "local",
        "image",
        "sampler",
        "rgba8",
        "rgba32f",
        ":",
        ":",
        ":",
        "x",
        ",",
        "0",
        "1",
        "-1",
        "0x",
        "1e309",
        "nan",
        "16384x16384",
        "0x0",
        "4294967296",
        "18446744073709551615",
        "99999999999999999999",
        "zeros",
        "/dev/zero",
        "",
        "\0",
        "é",
    ];
    fuzz("argument_specs", cases(2000), |r| {
        let s: String = (0..1 + r.below(8)).map(|_| *r.pick(&parts)).collect();
        let _ = wavesim::parse_spec(&s);
        s
    });
}

#[test]
fn run_asm_registers() {
    fuzz("run_asm_registers", cases(300), |r| {
        let (groups, local) = geometry(r);
        let rsrc2 = match r.below(3) {
            0 => r.next() as u32,
            1 => 1 << r.below(32),
            _ => 1,
        };
        let scratch = size(r);
        // SAFETY: s_endpgm touches no memory.
        let res =
            unsafe { wavesim::run_host_asm(&S_ENDPGM, groups, local, 0, rsrc2, scratch, 1000) };
        format!("{groups:?} {local:?} {rsrc2:#x} {scratch:#x}: {res:?}")
    });
}

#[test]
fn raw_dispatch_registers_and_code() {
    // Sandboxed: a non-NULL, empty range list maps no memory, so random code can touch none.
    fuzz("raw_dispatch_registers_and_code", cases(300), |r| {
        let (groups, local) = geometry(r);
        let mut code: Vec<u8> = (0..4 * (1 + r.below(8))).map(|_| r.next() as u8).collect();
        code.extend_from_slice(&S_ENDPGM);
        let user: Vec<u32> = (0..r.below(18)).map(|_| r.next() as u32).collect();
        let d = wavesim::RawDispatch {
            code: &code,
            groups,
            local,
            user_sgprs: &user,
            rsrc1: if r.below(2) == 0 { r.next() as u32 } else { 0 },
            rsrc2: if r.below(2) == 0 {
                r.next() as u32
            } else {
                (user.len().min(16) as u32) << 1
            },
            rsrc3: if r.below(4) == 0 { r.next() as u32 } else { 0 },
            wave64: r.below(2) == 0,
            scratch_lane_bytes: size(r),
            target: wavesim::raw::target_from("gfx1100").unwrap(),
            host_ranges: Some(&[]),
            max_wave_insts: 10_000,
        };
        // SAFETY: no host memory is mapped; the code slice is live.
        let res = unsafe { wavesim::dispatch_raw(&d) }.map_err(|e| e.to_string());
        if let Err(e) = &res {
            assert!(!e.contains('\0') && !e.is_empty(), "{e:?}");
        }
        format!("{groups:?} {local:?}: {res:?}")
    });
}

#[test]
fn offload_bundles() {
    let elf = std::fs::read(root("examples/saxpy.hsaco")).unwrap();
    let triples = [
        "hipv4-amdgcn-amd-amdhsa--gfx1100",
        "host-x86_64-unknown-linux-",
        "hipv4-amdgcn-amd-amdhsa--gfx1030",
        "\0\0\u{1}",
    ];
    fuzz("offload_bundles", cases(500), |r| {
        let n = r.below(4) as usize;
        let mut head = wavesim::BUNDLE_MAGIC.to_vec();
        let count = if r.below(8) == 0 { r.next() } else { n as u64 };
        head.extend(count.to_le_bytes());
        let header_len = head.len() + (0..n).map(|i| 24 + triples[i % 4].len()).sum::<usize>();
        for i in 0..n {
            let t = triples[(i + r.below(2) as usize) % 4];
            let (mut off, mut len, mut tl) = (header_len as u64, elf.len() as u64, t.len() as u64);
            match r.below(6) {
                0 => off = r.next(),
                1 => len = r.next(),
                2 => tl = r.next() % 100_000,
                _ => {}
            }
            head.extend(off.to_le_bytes());
            head.extend(len.to_le_bytes());
            head.extend(tl.to_le_bytes());
            head.extend(t.as_bytes());
        }
        head.extend(&elf);
        if r.below(3) == 0 {
            let cut = r.below(head.len() as u64) as usize;
            head.truncate(cut);
        }
        let res = wavesim::Device::new()
            .load(&head)
            .map(|_| ())
            .map_err(|e| e.to_string());
        if let Err(e) = &res {
            assert!(!e.contains('\0') && e.len() < 2000, "{e:?}");
        }
        format!("{res:?}")
    });
}

/// `text` (TOML) with a few numeric or string values replaced: work sizes (`key_small`) by small
/// or zero/negative values, everything else by boundary and ill-typed ones; sometimes a line
/// is dropped or a table repeated.
fn mutate_toml(r: &mut Rng, text: &str, key_small: &[&str]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for _ in 0..1 + r.below(3) {
        let i = r.below(lines.len() as u64) as usize;
        match r.below(8) {
            0 => {
                lines.remove(i);
            }
            1 if lines[i].starts_with("[[") => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            _ => {
                let Some((k, _)) = lines[i].split_once('=') else {
                    continue;
                };
                let k = k.trim().to_string();
                let v = if key_small.iter().any(|s| k == *s) {
                    r.pick(&["0", "1", "3", "-1", "[]", "[0]", "[3]", "[1, 0]", "\"x\""])
                        .to_string()
                } else {
                    r.pick(&[
                        "0",
                        "-1",
                        "1.5",
                        "4294967295",
                        "9223372036854775807",
                        "1e30",
                        "nan",
                        "\"x\"",
                        "[]",
                        "[9223372036854775807]",
                        "true",
                    ])
                    .to_string()
                };
                lines[i] = format!("{k} = {v}");
            }
        }
    }
    lines.join("\n")
}

const WORK_KEYS: &[&str] = &[
    "grid",
    "local",
    "width",
    "height",
    "vertex_count",
    "instance_count",
    "count",
    "threads",
    "size",
    "loop_count",
];

#[test]
fn draw_scenes() {
    let text = std::fs::read_to_string(root("corpus/gfx/draw/gradient.toml"))
        .unwrap()
        .replace("../obj/", &format!("{}/", root("corpus/gfx/obj").display()));
    let dir = std::env::temp_dir();
    fuzz("draw_scenes", cases(60), |r| {
        let t = mutate_toml(r, &text, WORK_KEYS);
        let p = dir.join(format!("wavesim-fuzz-{}-scene.toml", std::process::id()));
        std::fs::write(&p, &t).unwrap();
        let res = wavesim::draw_scene_file(&p)
            .map(|v| v.len())
            .map_err(|e| e.to_string());
        let _ = std::fs::remove_file(&p);
        format!("{t}\n=> {res:?}")
    });
}

#[test]
fn runner_configurations() {
    let agx_dir = root("corpus/agx/examples");
    let agx: Vec<String> = ["attributes_vertex", "collatz_kernel", "saxpy_grid_kernel"]
        .iter()
        .map(|n| std::fs::read_to_string(agx_dir.join(format!("{n}.toml"))).unwrap())
        .collect();
    let r700_obj = std::fs::read(root("corpus/r700/obj/rv770/ps_if_else.o")).unwrap();
    let r700 = std::fs::read_to_string(root("corpus/r700/run/ps_if_else.toml")).unwrap();
    fuzz("runner_configurations", cases(150), |r| {
        if r.below(2) == 0 {
            let base = r.pick(&agx).clone();
            let t = mutate_toml(r, &base, WORK_KEYS);
            let res = wavesim::run_agx(&t, &agx_dir, None)
                .map(|_| ())
                .map_err(|e| e.to_string());
            format!("{t}\n=> {res:?}")
        } else {
            let t = mutate_toml(r, &r700, WORK_KEYS);
            let res = wavesim::run_r700(&r700_obj, &t)
                .and_then(|res| Ok(res.png(r.below(10) as u32).map(|_| ())?))
                .map_err(|e| e.to_string());
            format!("{t}\n=> {res:?}")
        }
    });
}

/// CLI flags in child processes under a 4 GiB address-space limit (`prlimit`, where present):
/// exit 0, 1 or 2 (never a signal or a panic's 101), and a failure is one line on stderr.
#[test]
fn cli_flags() {
    let saxpy = root("examples/saxpy.hsaco").display().to_string();
    let values = [
        "0",
        "1",
        "64",
        "-1",
        "4294967296",
        "2147483648,2147483648,4",
        "1,1,1",
        "1025",
        "x",
        "",
    ];
    let prlimit = std::path::Path::new("/usr/bin/prlimit").exists();
    fuzz("cli_flags", cases(12), |r| {
        let mut args: Vec<String> = vec!["run".into(), saxpy.clone()];
        for (flag, p) in [
            ("--kernel", 8),
            ("--global", 8),
            ("--local", 6),
            ("--threads", 3),
        ] {
            if r.below(10) < p {
                args.push(flag.into());
                args.push(if flag == "--kernel" {
                    r.pick(&["saxpy", "nope", ""]).to_string()
                } else {
                    r.pick(&values).to_string()
                });
            }
        }
        for _ in 0..r.below(5) {
            args.push("--arg".into());
            args.push(
                r.pick(&[
                    "u32:4",
                    "f32:2",
                    "zeros:16",
                    "zeros:99999999999999",
                    "image:rgba32f:16384x16384:zeros",
                    "buf:/dev/zero",
                    "u32:-1",
                ])
                .to_string(),
            );
        }
        let mut cmd = if prlimit {
            let mut c = Command::new("/usr/bin/prlimit");
            c.arg(format!("--as={}", 4u64 << 30))
                .arg(env!("CARGO_BIN_EXE_wavesim"));
            c
        } else {
            Command::new(env!("CARGO_BIN_EXE_wavesim"))
        };
        let o = cmd
            .args(&args)
            .env("WAVESIM_NO_PROGRESS", "1")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&o.stderr);
        let code = o.status.code();
        assert!(
            matches!(code, Some(0..=2)),
            "{args:?}: exit {code:?}: {err}"
        );
        if code != Some(0) {
            assert_eq!(
                err.lines()
                    .filter(|l| !l.starts_with("wavesim: note:"))
                    .count(),
                1,
                "{args:?}: {err}"
            );
        }
        format!("{args:?} => {code:?}")
    });
}
