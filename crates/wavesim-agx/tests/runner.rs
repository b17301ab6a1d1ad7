//! The shipped TOML examples (corpus/agx/examples) run through `runner::run` and give the values their
//! sources define.

use std::path::{Path, PathBuf};
use wavesim_agx::kernel::KernelError;
use wavesim_agx::runner::{run, run_in_dir, ArgProblem, RunConfig, RunError, RunResult};

fn corpus_dir(sub: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus/agx")
        .join(sub)
}

/// A shipped example, its files read relative to it.
fn run_example(name: &str) -> RunResult {
    let dir = corpus_dir("examples");
    let cfg = RunConfig::from_toml(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
    run_in_dir(&cfg, &dir, None).unwrap()
}

/// A configuration written here, its files relative to corpus/agx/kernels.
fn run_kernel_config(toml: &str) -> Result<RunResult, RunError> {
    run_in_dir(
        &RunConfig::from_toml(toml).unwrap(),
        &corpus_dir("kernels"),
        None,
    )
}

/// The values printed for `buffer` (`NAME: v0 v1 ...`).
fn printed<'a>(r: &'a RunResult, buffer: &str) -> Vec<&'a str> {
    let prefix = format!("{buffer}:");
    let line = r.text.lines().find(|l| l.starts_with(&prefix)).unwrap();
    line[prefix.len()..].split_whitespace().collect()
}

#[test]
fn collatz_kernel_example() {
    let r = run_example("collatz_kernel.toml");
    let steps = |mut x: u64| {
        let mut n = 0;
        while x != 1 {
            x = if x % 2 == 1 { 3 * x + 1 } else { x / 2 };
            n += 1;
        }
        n
    };
    let want: Vec<String> = [1u64, 2, 3, 6, 7, 9, 27, 97, 871, 6171, 77031, 837799]
        .iter()
        .map(|&s| steps(s).to_string())
        .collect();
    assert!(
        r.text.contains(&format!("steps: {}\n", want.join(" "))),
        "{}",
        r.text
    );
}

#[test]
fn gradient_fragment_example() {
    let r = run_example("gradient_fragment.toml");
    assert_eq!(r.pngs.len(), 1);
    let decoder = png::Decoder::new(std::io::Cursor::new(&r.pngs[0]));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    reader.next_frame(&mut buf).unwrap();
    // Sample s is shaded with r0h = 1 << s: blue averages (1 + 2 + 4 + 8) / 16 / 4.
    let blue = ((15.0f32 / 16.0 / 4.0) * 255.0).round() as u8;
    for (x, y) in [(0u32, 0u32), (63, 0), (10, 40), (63, 63)] {
        let p = ((y * 64 + x) * 4) as usize;
        let px = &buf[p..p + 4];
        let want = [
            ((x as f32 / 64.0) * 255.0).round() as u8,
            ((y as f32 / 64.0) * 255.0).round() as u8,
            blue,
            255,
        ];
        assert_eq!(px, want, "pixel ({x},{y})");
    }
}

#[test]
fn attributes_vertex_example() {
    let r = run_example("attributes_vertex.toml");
    // attribute 0 = (x, y) of vertex i, defaults z = 0, w = 1; the shader doubles x
    let pos = [(0.5f32, 1.0f32), (1.5, 2.0), (2.5, 3.0)];
    for (i, (x, y)) in pos.iter().enumerate() {
        let line = format!(
            "vertex {i} instance 0: r5={:#x} r8={:#x} r9={:#x} r10=0x0 r11={:#x}",
            i,
            (2.0 * x).to_bits(),
            y.to_bits(),
            1.0f32.to_bits()
        );
        assert!(r.text.contains(&line), "{}\nwant {line}", r.text);
    }
}

#[test]
fn bad_configs_are_errors() {
    assert!(matches!(
        RunConfig::from_toml("kind = \"compute\"\nbogus = 1"),
        Err(RunError::Config(_))
    ));
    let cfg = RunConfig::from_toml("kind = \"compute\"\nasm = \"stop\"").unwrap();
    assert!(matches!(run(&cfg, None), Err(RunError::Config(_))));
    let cfg = RunConfig::from_toml("kind = \"fragment\"\nasm = \"stop\"\n[fragment]\nwidth = 2\nheight = 2\nrender_targets = [\"rgb\"]").unwrap();
    assert!(matches!(run(&cfg, None), Err(RunError::Config(_))));
}

/// corpus/agx/examples/saxpy_grid_kernel.toml: y = a * x + y over the first n of 48 threads, from
/// the values the configuration lists.
#[test]
fn saxpy_grid_kernel_example() {
    let r = run_example("saxpy_grid_kernel.toml");
    let n = 40;
    // a * x is a multiple of 0.25 below 2^8 and y an integer: exact in f32, fused or not
    let want: Vec<f32> = (0..n)
        .map(|i| 2.5 * (i as f32 * 0.5 - 5.0) + (100.0 - 3.0 * i as f32))
        .collect();
    let got: Vec<f32> = printed(&r, "y")
        .iter()
        .map(|v| v.parse().unwrap())
        .collect();
    assert_eq!(got, want, "{}", r.text);
    // two SIMD groups of 32 (the report's workgroup) cover the 48 threads
    assert!(r.text.starts_with("# 2 SIMD groups,"), "{}", r.text);
}

/// Every argument kind of wk_args_mixed (pointer, u8, u16, u32, u64, f32, u16, u32: padding between
/// them) given by the configuration, against a model of corpus/agx/kernels/args_mixed.cl.
const ARGS_MIXED: &str = r#"
kind = "grid_kernel"
code = "args_mixed.bin"
[grid_kernel]
report = "args_mixed.toml"
grid = [80]
threads = 2
[[buffer]]
name = "out"
size = 600
[[arg]]
name = "out"
buffer = "out"
[[arg]]
name = "a"
u8 = 171
[[arg]]
name = "b"
u16 = 52719
[[arg]]
name = "c"
u32 = 16909060
[[arg]]
name = "d"
u64 = 118034660393944999
[[arg]]
name = "e"
f32 = -1.5
[[arg]]
name = "f"
u16 = 17185
[[arg]]
name = "n"
u32 = 75
[[output]]
buffer = "out"
format = "u64"
count = 75
"#;

#[test]
fn grid_kernel_arguments_of_every_kind() {
    let r = run_kernel_config(ARGS_MIXED).unwrap();
    let (a, b, c, d, e, f) = (
        171u32,
        52719u32,
        16909060u64,
        118034660393944999u64,
        -1.5f32,
        17185u64,
    );
    let want: Vec<String> = (0..75u64)
        .map(|i| {
            d.wrapping_add(i * c)
                .wrapping_add((a * 1000 + b) as u64)
                .wrapping_add(f << 48)
                .wrapping_add((e * i as f32) as i32 as i64 as u64)
                .to_string()
        })
        .collect();
    assert_eq!(printed(&r, "out"), want, "{}", r.text);
}

fn argument_error(toml: &str) -> (usize, String, ArgProblem, String) {
    match run_kernel_config(toml) {
        Err(e @ RunError::Argument { .. }) => {
            let text = e.to_string();
            let RunError::Argument {
                index,
                name,
                problem,
                ..
            } = e
            else {
                unreachable!()
            };
            (index, name, problem, text)
        }
        other => panic!("want an argument error, got {other:?}"),
    }
}

#[test]
fn grid_kernel_arguments_that_do_not_fit_the_report_are_named() {
    // a 32-bit value where the report has the 64-bit pointer `out`
    let (index, name, problem, text) =
        argument_error(&ARGS_MIXED.replacen("buffer = \"out\"\n[[arg]]", "u32 = 0\n[[arg]]", 1));
    assert_eq!((index, name.as_str()), (0, "out"));
    assert_eq!(
        problem,
        ArgProblem::Width {
            want: 64,
            given: 32
        }
    );
    assert!(
        text.contains("wk_args_mixed") && text.contains("`out`"),
        "{text}"
    );
    // a 16-bit value where the report has the 8-bit `a`
    let (index, name, problem, _) = argument_error(&ARGS_MIXED.replace("u8 = 171", "u16 = 171"));
    assert_eq!((index, name.as_str()), (1, "a"));
    assert_eq!(problem, ArgProblem::Width { want: 8, given: 16 });
    // one argument more than the report lists
    let extra = format!("{ARGS_MIXED}\n[[arg]]\nname = \"extra\"\nu32 = 1\n");
    let (index, name, problem, text) = argument_error(&extra);
    assert_eq!((index, name.as_str()), (8, "extra"));
    assert_eq!(problem, ArgProblem::NotInReport { takes: 8 });
    assert!(text.contains("`extra`"), "{text}");
    // the last argument missing: reports have no names, so it is named by position
    let missing = ARGS_MIXED.replace("[[arg]]\nname = \"n\"\nu32 = 75\n", "");
    let (index, name, problem, _) = argument_error(&missing);
    assert_eq!((index, name.as_str()), (7, "#7"));
    assert_eq!(problem, ArgProblem::Missing { takes: 8, given: 7 });
    // the report of another kernel (wk_minmax: pointer, pointer, pointer, uint, uint) with
    // wk_saxpy's arguments (pointer, pointer, float, uint): the third does not fit
    let saxpy_args = r#"
kind = "grid_kernel"
code = "saxpy.bin"
[grid_kernel]
report = "minmax.toml"
grid = [32]
[[buffer]]
name = "v"
size = 128
[[arg]]
buffer = "v"
[[arg]]
buffer = "v"
[[arg]]
name = "a"
f32 = 2.0
[[arg]]
name = "n"
u32 = 32
"#;
    let (index, name, problem, _) = argument_error(saxpy_args);
    assert_eq!((index, name.as_str()), (2, "a"));
    assert_eq!(
        problem,
        ArgProblem::Width {
            want: 64,
            given: 32
        }
    );
}

#[test]
fn grid_kernel_config_errors() {
    let cases = [
        // two values for one argument
        (
            ARGS_MIXED.replace("u8 = 171", "u8 = 171\nu32 = 1"),
            "argument 1 `a`",
        ),
        (
            ARGS_MIXED.replace("report = \"args_mixed.toml\"", "report = \"absent.toml\""),
            "cannot read",
        ),
        (
            ARGS_MIXED.replace(
                "[grid_kernel]\nreport = \"args_mixed.toml\"\ngrid = [80]\nthreads = 2\n",
                "",
            ),
            "needs [grid_kernel]",
        ),
        (
            format!("{ARGS_MIXED}\n[[uniform]]\nslot = 0\nu16 = 1\n"),
            "no [[uniform]]",
        ),
        (
            ARGS_MIXED.replace("kind = \"grid_kernel\"", "kind = \"compute\""),
            "[[arg]] and [grid_kernel] are for",
        ),
        (
            ARGS_MIXED
                .replace("kind = \"grid_kernel\"", "kind = \"compute\"")
                .split("[[arg]]")
                .next()
                .unwrap_or_default()
                .to_string(),
            "[[arg]] and [grid_kernel] are for",
        ),
        (
            ARGS_MIXED.replace("buffer = \"out\"\n[[arg]]", "buffer = \"nothing\"\n[[arg]]"),
            "no buffer nothing",
        ),
    ];
    for (toml, says) in &cases {
        match run_kernel_config(toml) {
            Err(RunError::Config(m)) => assert!(m.contains(says), "{m} lacks {says}"),
            other => panic!("want a config error saying {says}, got {other:?}"),
        }
    }
    // a report that is not asahi_clc's: the kernel's own typed error
    let mut bad = ARGS_MIXED.replace("report = \"args_mixed.toml\"", "report = \"args_mixed.cl\"");
    assert!(matches!(
        run_kernel_config(&bad),
        Err(RunError::Kernel(KernelError::Report(_)))
    ));
    // `run` reads files relative to the current directory (the crate's, under cargo test)
    bad = ARGS_MIXED.replace("args_mixed.", "../../corpus/agx/kernels/args_mixed.");
    let r = run(&RunConfig::from_toml(&bad).unwrap(), None).unwrap();
    assert_eq!(printed(&r, "out").len(), 75);
}

/// For every shipped grid kernel: random argument lists that differ from its report (a width, or a
/// count) are refused before anything runs, naming the first position where they differ.
#[test]
fn grid_kernel_argument_mismatches_name_the_first_difference() {
    let kinds = [
        ("buffer = \"b\"", 64),
        ("u8 = 1", 8),
        ("u16 = 2", 16),
        ("u32 = 3", 32),
        ("i32 = -4", 32),
        ("f32 = 5.5", 32),
        ("u64 = 6", 64),
    ];
    let mut seed = 0x2545_F491_4F6C_DD1Du64;
    let mut next = |n: usize| {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        (seed % n as u64) as usize
    };
    let dir = corpus_dir("kernels");
    let mut reports: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "toml"))
        .collect();
    reports.sort();
    assert_eq!(reports.len(), 16);
    let mut checked = 0;
    for report in &reports {
        let stem = report.file_stem().unwrap().to_str().unwrap();
        let code = std::fs::read(dir.join(format!("{stem}.bin"))).unwrap();
        let kernel =
            wavesim_agx::kernel::GridKernel::new(code, &std::fs::read_to_string(report).unwrap())
                .unwrap();
        let widths: Vec<u32> = kernel.report.args.iter().map(|a| a[2]).collect();
        for _ in 0..40 {
            let given: Vec<usize> = (0..next(widths.len() + 3))
                .map(|_| next(kinds.len()))
                .collect();
            let first_difference =
                (0..widths.len().max(given.len())).find(|&i| match (widths.get(i), given.get(i)) {
                    (Some(&w), Some(&k)) => kinds[k].1 != w,
                    _ => true,
                });
            let Some(want_index) = first_difference else {
                continue; // this list fits the report: it would run
            };
            let mut toml = format!(
                "kind = \"grid_kernel\"\ncode = \"{stem}.bin\"\n[grid_kernel]\nreport = \"{stem}.toml\"\ngrid = [32]\n[[buffer]]\nname = \"b\"\nsize = 64\n"
            );
            for (i, &k) in given.iter().enumerate() {
                toml += &format!("[[arg]]\nname = \"p{i}\"\n{}\n", kinds[k].0);
            }
            match run_kernel_config(&toml) {
                Err(RunError::Argument { index, name, .. }) => {
                    assert_eq!(index, want_index, "{stem}: {toml}");
                    let want_name = if index < given.len() {
                        format!("p{index}")
                    } else {
                        format!("#{index}")
                    };
                    assert_eq!(name, want_name, "{stem}");
                }
                other => panic!("{stem}: want an argument error, got {other:?}\n{toml}"),
            }
            checked += 1;
        }
    }
    assert!(checked > 400, "{checked}");
}

/// `abi = "readme-2023" | "mesa-current"` picks the fragment sample-mask register (r0h or r1l): a
/// shader writing the mask it receives (1 << sample, one sample) as colour red runs under the matching
/// version only; an unknown name, and `abi` on a compute job, are errors.
#[test]
fn abi_version_is_chosen_in_the_job_file() {
    let job = |abi: &str, mask: &str| {
        format!(
            "kind = \"fragment\"\n{abi}nr_gprs = 8\nasm = \"\"\"\niadd r4, {mask}, 0\nconvert u32_to_f, r4, r4, rte\nmov_imm r5, 0\nmov_imm r6, 0\nmov_imm r7, 0\nstop\n\"\"\"\n[fragment]\nwidth = 2\nheight = 2\nsample_shading = true\nrender_targets = [\"f32\"]\n"
        )
    };
    let ok = |toml: String| run(&RunConfig::from_toml(&toml).unwrap(), None);
    // r = 1.0 (1 << sample 0) in pixel (0, 0)
    for (abi, mask) in [
        ("", "r0h"),
        ("abi = \"readme-2023\"\n", "r0h"),
        ("abi = \"mesa-current\"\n", "r1l"),
    ] {
        let r = ok(job(abi, mask)).unwrap();
        assert!(
            r.text.contains("rt0 pixel(0,0) = 1 0 0 0"),
            "{abi}: {}",
            r.text
        );
    }
    // the other register is undefined under each version
    assert!(matches!(ok(job("", "r1l")), Err(RunError::Abi(_))));
    assert!(matches!(
        ok(job("abi = \"mesa-current\"\n", "r0h")),
        Err(RunError::Abi(_))
    ));
    match ok(job("abi = \"mesa-2019\"\n", "r0h")) {
        Err(RunError::Config(what)) => assert!(what.contains("mesa-2019"), "{what}"),
        other => panic!("{other:?}"),
    }
    let compute = "kind = \"compute\"\nabi = \"mesa-current\"\nasm = \"stop\"\n[compute]\ngrid = [32]\nlocal = [32]\n";
    assert!(matches!(
        run(&RunConfig::from_toml(compute).unwrap(), None),
        Err(RunError::Config(_))
    ));
}

/// A `corpus/agx/glsl_img` job with `from` replaced by `to` (which must occur), run there.
fn run_glsl_img(name: &str, from: &str, to: &str) -> Result<RunResult, RunError> {
    let dir = corpus_dir("glsl_img");
    let job = std::fs::read_to_string(dir.join(format!("{name}.job.toml"))).unwrap();
    assert!(job.contains(from), "{name}: {from}");
    let mut cfg = RunConfig::from_toml(&job.replacen(from, to, 1)).unwrap();
    // the first image too (where image_store_2d's rgba8 store goes)
    cfg.output.extend(RunConfig::from_toml("kind = \"grid_kernel\"\n[[output]]\nbuffer = \"image1\"\nformat = \"u32\"\ncount = 64\n").unwrap().output);
    run_in_dir(&cfg, &dir, None)
}

/// `[[grid_kernel.state]]`'s `kind` decides where the address goes: image_store_2d's first image
/// is stored through a PBE (state 3), whose address field starts at bit 64 (cmdbuf.xml). Patched
/// at TEXTURE's bit 66 instead, the field lands 2 bits up and the PBE names 4 times image1's
/// address (and loses its top 2 bits): image1 then does not get llvmpipe's texels (the store
/// goes elsewhere or stops on a typed error).
#[test]
fn grid_kernel_state_kind_places_the_address() {
    let want = std::fs::read_to_string(corpus_dir("glsl_img").join("image_store_2d.ref")).unwrap();
    let want: Vec<u32> = want
        .lines()
        .find_map(|l| l.strip_prefix("image1: "))
        .unwrap()
        .split_whitespace()
        .take(64)
        .map(|w| u32::from_str_radix(w, 16).unwrap())
        .collect();
    let got = |r: &RunResult| -> Vec<u32> {
        printed(r, "image1")
            .iter()
            .map(|w| w.parse().unwrap())
            .collect()
    };
    let pbe = run_glsl_img("image_store_2d", "kind = \"pbe\"", "kind = \"pbe\"").unwrap();
    assert_eq!(got(&pbe), want);
    match run_glsl_img(
        "image_store_2d",
        "index = 3\nkind = \"pbe\"",
        "index = 3\nkind = \"texture\"",
    ) {
        Ok(r) => assert_ne!(got(&r), want),
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

/// The state list's mistakes are configuration errors naming them.
#[test]
fn grid_kernel_state_errors() {
    let err = |from: &str, to: &str| match run_glsl_img("image_atomics", from, to) {
        Err(RunError::Config(e)) => e,
        other => panic!("{from} -> {to}: {other:?}"),
    };
    // the table holds 8 entries of 24 bytes (indices 0..=7)
    assert!(err(
        "name = \"table\"\nsize = 192",
        "name = \"table\"\nsize = 176"
    )
    .contains("table table: needs a buffer of at least 192 bytes"));
    assert!(err("index = 5\n", "index = 4\n").contains("state index 4 given twice"));
    assert!(err(
        "grid = [64]\n",
        "grid = [64]\ntexture = [{ descriptor = [0, 0, 0, 0, 0, 0], buffer = \"none\" }]\n"
    )
    .contains("`texture` or `state`, not both"));
    assert!(err("index = 5\n", "index = 5\noffset = 8\n").contains("16-byte aligned"));
}
