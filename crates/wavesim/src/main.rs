//! The `wavesim` command line: run kernels of a code object, describe it, disassemble it.

mod debug_cli;
mod inside_cli;

use clap::{Parser, Subcommand};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use wavesim::{
    describe, disassemble_any, parse_spec, run_specs_with_observer, write_outputs, ArgSpec, Device,
    DisasmOptions, Geometry, Isa, NoObserver, TextTracer, TraceFilter,
};
use wavesim_rdna3::jit::CompileStats;

#[derive(Parser)]
#[command(
    name = "wavesim",
    version,
    about = "Run GPU machine code on the CPU, bit-exactly: AMD RDNA3 (gfx11) kernels, AMD R700 shaders and Apple AGX (G13) programs"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

// Parsed once per process: the size of the `run` variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Cmd {
    /// Run one kernel of an RDNA3 code object over a grid, or an R700 shader with a runner
    /// configuration (the ISA comes from the object's ELF header).
    Run {
        /// The code object (.hsaco / .co / .o as clang emits it), an R700 shader object (llc-19
        /// -mtriple=r600--), or AGX machine code with --target agx (optional when the
        /// configuration names its code or assembly).
        file: Option<PathBuf>,
        /// The ISA when it is not in an ELF header: `agx` (runs --config as an AGX job), or
        /// `rv770`/`rv730`/`rv710` for bare R700 words (Mesa's r600 dumps) with --config.
        #[arg(long, value_name = "NAME")]
        target: Option<String>,
        /// RDNA3: name of the kernel to run.
        #[arg(long)]
        kernel: Option<String>,
        /// RDNA3: grid size in work-items: X[,Y[,Z]].
        #[arg(long, value_parser = parse_dims)]
        global: Option<Dims>,
        /// RDNA3: workgroup size in work-items: X[,Y[,Z]] (as many dimensions as --global);
        /// by default the kernel's reqd_work_group_size.
        #[arg(long, value_parser = parse_dims)]
        local: Option<Dims>,
        /// RDNA3: dynamic shared memory bytes (HIP `extern __shared__`, hidden_dynamic_lds_size).
        #[arg(long = "dynamic-shared", value_name = "BYTES", default_value_t = 0)]
        dynamic_shared: u32,
        /// R700: the runner configuration (TOML: input GPRs, constants, loop constants, vertex
        /// buffers, textures, samplers, thread count or pixel grid); the exports are printed, one
        /// line per thread and target. AGX (--target agx): the job (compute, vertex or fragment
        /// under Mesa's asahi ABI); its outputs are printed.
        #[arg(long, value_name = "FILE.toml")]
        config: Option<PathBuf>,
        /// R700 grid runs and AGX fragment passes: write pixel export / render target 0 (or
        /// --png-target N) as a PNG image.
        #[arg(long, value_name = "FILE.png", requires = "config")]
        png: Option<PathBuf>,
        /// R700: the pixel export target --png writes.
        #[arg(
            long = "png-target",
            value_name = "N",
            default_value_t = 0,
            requires = "png"
        )]
        png_target: u32,
        /// One per kernel argument, in order: u8:V .. i64:V, f16:V, f32:V, f64:V, buf:PATH[:OUT],
        /// zeros:N[:OUT], local:N.
        #[arg(long = "arg", value_name = "SPEC", allow_hyphen_values = true)]
        args: Vec<String>,
        /// Host threads running workgroups in parallel (default: every core, or WAVESIM_THREADS;
        /// 1 runs them in order on one thread, for debugging). Results of race-free kernels do
        /// not depend on it.
        #[arg(long)]
        threads: Option<usize>,
        /// RDNA3 execution engine: interp (interpreter only), jit (compile each block the JIT
        /// supports when first entered), auto (interpret, compile hot blocks; the default, or
        /// WAVESIM_ENGINE).
        #[arg(long, value_name = "ENGINE", value_parser = ["interp", "jit", "auto"])]
        engine: Option<String>,
        /// RDNA3 JIT: keep compiled code in DIR (created if missing) and load it from there in
        /// later runs instead of compiling again (default: WAVESIM_JIT_CACHE, else no disk
        /// cache). DIR must be writable only by users trusted to run code as you.
        #[arg(long = "jit-cache", value_name = "DIR")]
        jit_cache: Option<PathBuf>,
        /// Watchdog: most instructions one wave may execute.
        #[arg(long = "max-instructions", default_value_t = wavesim::DEFAULT_MAX_WAVE_INSTRUCTIONS)]
        max_instructions: u64,
        /// OpenCL global work offset: X[,Y[,Z]].
        #[arg(long, value_parser = parse_offset)]
        offset: Option<Offsets>,
        /// Print wave-instructions, lane-instructions, time and throughput (`--stats=json`: one
        /// JSON object).
        #[arg(long, value_name = "FORMAT", num_args = 0..=1, default_missing_value = "text", value_parser = ["text", "json"])]
        stats: Option<String>,
        /// With --stats: print the counters as one JSON object.
        #[arg(long, requires = "stats")]
        json: bool,
        /// Check the run: RDNA3 any of waits,hazards,races,init; R700 any of
        /// group,pvps,ar,consts,stack,tex; AGX any of init,uniforms,barriers,races (or all). Findings
        /// go to stderr and the run exits with code 3 (after writing its outputs, unless the
        /// finding stopped the run).
        #[arg(long, value_name = "LIST")]
        check: Option<String>,
        /// Write a timeline of the issue model in Chrome trace format (Perfetto,
        /// chrome://tracing): one track per wave, instruction spans, waits and barriers.
        #[arg(long, value_name = "FILE.json")]
        timeline: Option<PathBuf>,
        /// Install a trap handler: raw gfx11 machine code (entry at its first byte) loaded at
        /// TBA, with a zeroed 256-byte TMA data area; waves start with STATUS.TRAP_EN set.
        #[arg(long = "trap-handler", value_name = "FILE.bin")]
        trap_handler: Option<PathBuf>,
        /// Write the trap handler's TMA area to FILE after the run (needs --trap-handler).
        #[arg(long = "trap-tma-out", value_name = "FILE", requires = "trap_handler")]
        trap_tma_out: Option<PathBuf>,
        /// Trace every executed instruction: workgroup, wave, PC, EXEC, the disassembly, then
        /// the registers it changed. Workgroups then run in order on one thread.
        #[arg(long)]
        trace: bool,
        /// Write the trace to FILE instead of standard output.
        #[arg(long = "trace-out", value_name = "FILE", requires = "trace")]
        trace_out: Option<PathBuf>,
        /// Trace only some waves: wg=X[,Y[,Z]] and/or wave=N (e.g. wg=1,0,0,wave=2); repeat to
        /// combine.
        #[arg(long = "trace-filter", value_name = "FILTER", requires = "trace", value_parser = TraceFilter::parse)]
        trace_filter: Vec<TraceFilter>,
        /// Most instructions to trace; a note at the end says when the trace was cut.
        #[arg(long = "trace-limit", value_name = "N", requires = "trace", default_value_t = wavesim::DEFAULT_TRACE_LIMIT)]
        trace_limit: u64,
    },
    /// Draw an RDNA3 scene: VS waves per vertex, the host's rasteriser, PS waves with the RDNA3 ISA guide's
    /// initial state and the parameters in LDS, the fixed-function pipeline of docs/GRAPHICS.md; the render
    /// targets are written as PNG (and as raw NumPy files with --raw).
    Draw {
        /// The scene (TOML: vs/ps objects, size, render targets, vertices, textures).
        scene: PathBuf,
        /// The PNG of render target 0; more targets go to OUT_1.png, OUT_2.png, ...
        #[arg(short = 'o', long = "out", value_name = "OUT.png")]
        out: PathBuf,
        /// Also write the stored values as NumPy files: DIR/targetN.npy (height x width x 4 of
        /// u1, f2 or f4), DIR/depth.npy (f4) and DIR/stencil.npy (u1) when the draw has them.
        #[arg(long, value_name = "DIR")]
        raw: Option<PathBuf>,
    },
    /// Run an RDNA3 kernel, an R700 shader (--config) or an AGX compute job (--target agx
    /// --config) under the debugger: commands on standard input (break PC, break if REG == V,
    /// step [WAVE], regs [WAVE], set REG V, mem ADDR [N], mem ADDR = V, continue, quit); at the
    /// end of input the run goes to its end and the outputs are written.
    Debug {
        /// The code object, R700 shader object or AGX code (optional with --target agx when
        /// the job names its code).
        file: Option<PathBuf>,
        /// RDNA3: the kernel.
        #[arg(long)]
        kernel: Option<String>,
        #[arg(long, value_parser = parse_dims)]
        global: Option<Dims>,
        #[arg(long, value_parser = parse_dims)]
        local: Option<Dims>,
        #[arg(long = "arg", value_name = "SPEC", allow_hyphen_values = true)]
        args: Vec<String>,
        /// R700: the runner configuration; AGX (--target agx): the job.
        #[arg(long, value_name = "FILE.toml")]
        config: Option<PathBuf>,
        /// `agx` for AGX code (no ELF header to name its ISA).
        #[arg(long, value_name = "NAME")]
        target: Option<String>,
    },
    /// List the kernels of a code object with their arguments and descriptor fields.
    Info { file: PathBuf },
    /// Disassemble an RDNA3 code object like llvm-objdump -d --mcpu=gfx11xx, an R700 object like
    /// llc-19 -filetype=asm, or bare bytes with --raw and --target.
    Disasm {
        /// The object.
        file: Option<PathBuf>,
        /// Bare instruction bytes instead of an object (RDNA3 by default; see --target).
        #[arg(long, value_name = "FILE", conflicts_with = "file")]
        raw: Option<PathBuf>,
        /// The ISA of --raw bytes: gfx1100..gfx1103, gfx1150..gfx1152, rv770, rv730, rv710, agx.
        #[arg(long, value_name = "NAME")]
        target: Option<String>,
        /// Print RDNA3 bare bytes as wave64 code (affects VCC/EXEC-sized operands).
        #[arg(long)]
        wave64: bool,
        /// R700: the lossless syntax (adds `; field:value` for what llc's text does not carry).
        #[arg(long)]
        full: bool,
    },
}

/// X[,Y[,Z]] sizes.
#[derive(Clone, Debug)]
struct Dims(Vec<u32>);
/// X[,Y[,Z]] offsets.
#[derive(Clone, Debug)]
struct Offsets(Vec<u64>);

fn parse_dims(s: &str) -> Result<Dims, String> {
    let v: Result<Vec<u32>, _> = s.split(',').map(|p| p.trim().parse::<u32>()).collect();
    match v {
        Ok(v) if (1..=3).contains(&v.len()) => Ok(Dims(v)),
        _ => Err(format!(
            "`{s}`: expected X[,Y[,Z]] with non-negative integers"
        )),
    }
}

fn parse_offset(s: &str) -> Result<Offsets, String> {
    let v: Result<Vec<u64>, _> = s.split(',').map(|p| p.trim().parse::<u64>()).collect();
    match v {
        Ok(v) if (1..=3).contains(&v.len()) => Ok(Offsets(v)),
        _ => Err(format!("`{s}`: expected X[,Y[,Z]]")),
    }
}

/// An input file, refused when over wavesim's input limit or a device such as /dev/zero.
fn read(path: &std::path::Path) -> Result<Vec<u8>, String> {
    wavesim::limits::read_input_file(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// A text input file (configs, scenes), as [`read`].
fn read_text(path: &std::path::Path) -> Result<String, String> {
    let bytes = wavesim::limits::read_input_file(path)
        .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    String::from_utf8(bytes)
        .map_err(|e| format!("cannot read {}: not UTF-8 text ({e})", path.display()))
}

fn rate(n: u64, secs: f64) -> String {
    let r = if secs > 0.0 { n as f64 / secs } else { 0.0 };
    if r >= 1e9 {
        format!("{:.2} G/s", r / 1e9)
    } else if r >= 1e6 {
        format!("{:.2} M/s", r / 1e6)
    } else if r >= 1e3 {
        format!("{:.2} K/s", r / 1e3)
    } else {
        format!("{r:.0} /s")
    }
}

/// `wavesim draw SCENE.toml -o OUT.png [--raw DIR]`: draws an RDNA3 scene, writes every render
/// target as PNG and, with `--raw`, the stored values as NumPy files (DIR/target0.npy ...,
/// DIR/depth.npy, DIR/stencil.npy).
fn draw_cli(
    scene: &std::path::Path,
    out: &std::path::Path,
    raw: Option<&std::path::Path>,
) -> Result<(), String> {
    let (r, pngs) = wavesim::gfx::scene::draw_scene_file(scene)
        .map_err(|e| format!("{}: {e}", scene.display()))?;
    let write = |path: &std::path::Path, bytes: &[u8]| {
        std::fs::write(path, bytes).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
        println!("wrote {}", path.display());
        Ok::<(), String>(())
    };
    for (i, png) in pngs.iter().enumerate() {
        let path = if i == 0 {
            out.to_path_buf()
        } else {
            let stem = out.with_extension("");
            PathBuf::from(format!("{}_{i}.png", stem.display()))
        };
        write(&path, png)?;
    }
    if let Some(dir) = raw {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
        for (i, t) in r.targets.iter().enumerate() {
            write(&dir.join(format!("target{i}.npy")), &t.npy())?;
        }
        // (height, width), with a samples axis when multisampled.
        let shape: Vec<u32> = match r.targets.first() {
            Some(t) if t.samples > 1 => vec![t.height, t.width, t.samples],
            Some(t) => vec![t.height, t.width],
            None => return Err("the draw has no render target to size depth.npy by".into()),
        };
        if let Some(d) = &r.depth {
            let bytes: Vec<u8> = d.iter().flat_map(|x| x.to_le_bytes()).collect();
            write(
                &dir.join("depth.npy"),
                &wavesim::gfx::targets::npy("<f4", &shape, &bytes),
            )?;
        }
        if let Some(s) = &r.stencil {
            write(
                &dir.join("stencil.npy"),
                &wavesim::gfx::targets::npy("|u1", &shape, s),
            )?;
        }
    }
    Ok(())
}

/// `wavesim run --target agx --config JOB.toml [CODE.bin]`: runs an AGX job, prints its outputs.
fn run_agx_cli(
    code: Option<&PathBuf>,
    config: &std::path::Path,
    png: Option<&PathBuf>,
    png_target: u32,
    see: &inside_cli::See,
) -> Result<(), Failure> {
    let cfg = read_text(config)?;
    let bytes = code.map(|p| read(p)).transpose()?;
    let dir = config.parent().unwrap_or(std::path::Path::new("."));
    let cfg = wavesim::agx::runner::RunConfig::from_toml(&cfg)
        .map_err(|e| usage(format!("{}: {e}", config.display())))?;
    // `all` means the checks that apply; `uniforms` named on a vertex or fragment job is an error.
    let uniforms = (see.check.iter())
        .flat_map(|l| l.split(','))
        .any(|c| c.trim() == "uniforms");
    use wavesim::agx::runner::Kind;
    if uniforms && matches!(cfg.kind, Kind::Vertex | Kind::Fragment) {
        return Err(usage(format!(
            "--check uniforms is for compute and grid-kernel jobs; {} is a {} job (its driver \
             and preamble set uniforms the configuration does not list)",
            config.display(),
            if cfg.kind == Kind::Vertex {
                "vertex"
            } else {
                "fragment"
            }
        )));
    }
    let (res, inside_text) = inside_cli::run_agx(&cfg, dir, bytes.as_deref(), see)
        .map_err(|e| cli_failure(e, config))?;
    if let Some(out) = png {
        let image = res.pngs.get(png_target as usize).ok_or_else(|| {
            format!(
                "--png-target {png_target}: the job has {} render targets",
                res.pngs.len()
            )
        })?;
        std::fs::write(out, image).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    }
    // A reader that went away (`| head`) ends the output quietly.
    let _ = std::io::stdout().lock().write_all(res.to_text().as_bytes());
    emit(&inside_text);
    Ok(())
}

/// `wavesim run SHADER.o --config CFG.toml`: runs an R700 shader, prints its exports.
fn run_r700_cli(
    bytes: &[u8],
    raw_chip: Option<wavesim_r700::Chip>,
    file: &std::path::Path,
    config: &std::path::Path,
    png: Option<&PathBuf>,
    png_target: u32,
    see: &inside_cli::See,
) -> Result<(), Failure> {
    let cfg = read_text(config)?;
    let shader = match raw_chip {
        Some(chip) => wavesim::r700::Shader::from_raw(chip, bytes).map_err(|e| e.to_string()),
        None => wavesim::r700::Shader::from_object_bytes(bytes).map_err(|e| e.to_string()),
    }
    .map_err(|e| format!("{}: {e}", file.display()))?;
    let cfg = wavesim::r700::runner::RunConfig::from_toml(&cfg)
        .map_err(|e| usage(format!("{}: {e}", config.display())))?;
    let (res, inside_text) =
        inside_cli::run_r700(&shader, &cfg, see).map_err(|e| cli_failure(e, file))?;
    if let Some(out) = png {
        let image = res.png(png_target).map_err(|e| e.to_string())?;
        std::fs::write(out, image).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    }
    let mut stdout = std::io::stdout().lock();
    // A reader that went away (`| head`) ends the output quietly.
    let _ = stdout.write_all(res.to_text().as_bytes());
    if see.stats {
        let secs = res.elapsed.as_secs_f64();
        let _ = writeln!(stdout, "threads:           {}", res.threads.len());
        let _ = writeln!(stdout, "waves:             {}", res.waves);
        let _ = writeln!(stdout, "CF instructions:   {}", res.cf_instructions);
        let _ = writeln!(stdout, "thread-ALU-groups: {}", res.lane_groups);
        let _ = writeln!(stdout, "time:              {secs:.6} s");
        let _ = stdout.write_all(inside_text.as_bytes());
    }
    Ok(())
}

fn real_main(cli: Cli) -> Result<(), Failure> {
    match cli.cmd {
        Cmd::Run {
            file,
            target,
            kernel,
            global,
            local,
            dynamic_shared,
            args,
            threads,
            engine,
            jit_cache,
            max_instructions,
            offset,
            stats,
            json,
            trap_handler,
            trap_tma_out,
            config,
            png,
            png_target,
            trace,
            trace_out,
            trace_filter,
            trace_limit,
            check,
            timeline,
        } => {
            // R700 and AGX: what to see, and the RDNA3-only flags they refuse.
            let see = inside_cli::See {
                trace: trace.then(|| inside_cli::TraceOptions {
                    out: trace_out.clone(),
                    filter: TraceFilter::default(),
                    limit: trace_limit,
                }),
                stats: stats.is_some(),
                check: check.clone(),
                timeline: timeline.clone(),
            };
            let see = match see.trace.clone() {
                Some(mut t) => {
                    for f in &trace_filter {
                        t.filter = t
                            .filter
                            .and(*f)
                            .ok_or("the --trace-filter options select no wave together")?;
                    }
                    inside_cli::See {
                        trace: Some(t),
                        ..see
                    }
                }
                None => see,
            };
            let rdna3_only: Vec<&str> = [
                ("--kernel", kernel.is_some()),
                ("--global", global.is_some()),
                ("--local", local.is_some()),
                ("--dynamic-shared", dynamic_shared != 0),
                ("--arg", !args.is_empty()),
                ("--threads", threads.is_some()),
                ("--engine", engine.is_some()),
                ("--jit-cache", jit_cache.is_some()),
                ("--offset", offset.is_some()),
                ("--trap-handler", trap_handler.is_some()),
                (
                    "--stats=json / --json",
                    json || stats.as_deref() == Some("json"),
                ),
                (
                    "--max-instructions",
                    max_instructions != wavesim::DEFAULT_MAX_WAVE_INSTRUCTIONS,
                ),
            ]
            .into_iter()
            .filter_map(|(f, given)| given.then_some(f))
            .collect();
            let refuse = |isa: &str| -> Result<(), Failure> {
                match rdna3_only.first() {
                    Some(f) => Err(usage(format!(
                        "{f} is for RDNA3 kernels; {isa} does not take it (see wavesim run --help)"
                    ))),
                    None => Ok(()),
                }
            };
            let check = check
                .as_deref()
                .map(wavesim::inside::Checks::parse)
                .transpose();
            let inside = inside_cli::InsideOptions {
                checks: None,
                timeline,
                stats: stats.is_some(),
            };
            if let Some(t) = target.as_deref() {
                let isa = Isa::from_name(t).map_err(|e| usage(e.to_string()))?;
                if let Isa::R700(chip) = isa {
                    // Bare R700 words (Mesa's r600 dumps) with their run configuration.
                    let (Some(file), Some(config)) = (file, config) else {
                        return Err(usage(format!(
                            "--target {t}: give the shader's words and --config FILE.toml"
                        )));
                    };
                    let bytes = read(&file)?;
                    refuse("an R700 shader")?;
                    return run_r700_cli(
                        &bytes,
                        Some(chip),
                        &file,
                        &config,
                        png.as_ref(),
                        png_target,
                        &see,
                    );
                }
                if isa != Isa::Agx {
                    return Err(usage(format!(
                        "--target {t}: only AGX code has no ELF header to name its ISA; give the \
                         object alone"
                    )));
                }
                let Some(config) = config else {
                    return Err(usage(
                        "--target agx runs a job: give its configuration with --config FILE.toml",
                    ));
                };
                refuse("an AGX job")?;
                inside_cli::agx_checks(see.check.as_deref())
                    .map_err(|e| usage(format!("--check: {e}")))?;
                return run_agx_cli(file.as_ref(), &config, png.as_ref(), png_target, &see);
            }
            let Some(file) = file else {
                return Err(usage(
                    "run: give a code object or shader object (or --target agx --config FILE.toml)",
                ));
            };
            let bytes = read(&file)?;
            // The ISA from the file's header: an offload bundle or an ELF64 AMDGPU object goes
            // to the RDNA3 loader (whose errors name what is wrong with a code object); anything
            // else is named for what it is, not called an RDNA3 code object.
            if bytes.is_empty() {
                return Err(format!("{} is empty", file.display()).into());
            }
            let isa = if bytes.starts_with(wavesim::BUNDLE_MAGIC)
                || bytes.starts_with(wavesim::COMPRESSED_BUNDLE_MAGIC)
            {
                Ok(Isa::Rdna3(Default::default()))
            } else if !bytes.starts_with(b"\x7fELF") {
                Err(wavesim::Error::Args(
                    "not an object file (malformed ELF: no 0x7f 'E' 'L' 'F' header); AGX code \
                     runs with --target agx --config JOB.toml"
                        .into(),
                ))
            } else {
                Isa::of_object(&bytes)
            };
            let isa = isa.map_err(|e| format!("{}: {e}", file.display()))?;
            if let Isa::R700(_) = isa {
                let Some(config) = config else {
                    return Err(usage(format!(
                        "{} is an R700 shader: give its runner configuration with --config FILE.toml",
                        file.display()
                    )));
                };
                refuse("an R700 shader")?;
                if let Some(c) = see.check.as_deref() {
                    wavesim::r700::inside::check::Checks::parse(c)
                        .map_err(|e| usage(format!("--check: {e}")))?;
                }
                return run_r700_cli(&bytes, None, &file, &config, png.as_ref(), png_target, &see);
            }
            let (Some(kernel), Some(global)) = (kernel, global) else {
                return Err(usage(format!(
                    "{} is an RDNA3 code object: give --kernel NAME, --global X[,Y[,Z]] and --local X[,Y[,Z]]",
                    file.display()
                )));
            };
            if config.is_some() {
                return Err(usage(
                    "--config is for R700 shaders; RDNA3 kernels take --arg",
                ));
            }
            let inside = inside_cli::InsideOptions {
                checks: check.map_err(|e| usage(format!("--check: {e}")))?,
                ..inside
            };
            let specs: Vec<ArgSpec> = args
                .iter()
                .map(|a| parse_spec(a))
                .collect::<Result<_, _>>()
                .map_err(usage)?;
            let mut dev = Device::new();
            if let Some(t) = threads {
                dev.threads = t.clamp(1, wavesim::limits::MAX_HOST_THREADS);
                if t > wavesim::limits::MAX_HOST_THREADS {
                    eprintln!(
                        "wavesim: note: --threads {t}: using {} (the most a dispatch runs on)",
                        wavesim::limits::MAX_HOST_THREADS
                    );
                }
            }
            if let Some(e) = engine {
                dev.cfg.engine = e.parse().map_err(usage)?;
            }
            if let Some(dir) = jit_cache {
                wavesim_rdna3::jit::set_disk_cache(Some(dir));
            }
            let jit_before = wavesim_rdna3::jit::compile_stats();
            dev.max_wave_instructions = max_instructions;
            dev.dynamic_shared = dynamic_shared;
            let module = dev
                .load(&bytes)
                .map_err(|e| format!("{}: {e}", file.display()))?;
            let k = module.kernel(&kernel).map_err(lib_failure)?;
            let kernel = k.name.clone();
            let global = global.0;
            let local = local_size(k, local, global.len())?;
            let geo = Geometry::new(&global, &local).map_err(|e| usage(e.to_string()))?;
            if let Some(Offsets(o)) = offset {
                if o.len() != global.len() {
                    return Err(usage(format!(
                        "--offset has {} dimensions but --global has {}",
                        o.len(),
                        global.len()
                    )));
                }
                dev.global_offset[..o.len()].copy_from_slice(&o);
            }
            if let Some(path) = &trap_handler {
                dev.install_trap_handler(&read(path)?, wavesim::DEFAULT_TMA_BYTES)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
            }
            let mut inside_text = String::new();
            if trace && inside.wanted() && stats.is_none() {
                return Err("--trace cannot be combined with --check or --timeline".into());
            }
            let run = if trace {
                let mut filter = TraceFilter::default();
                for f in trace_filter {
                    filter = filter
                        .and(f)
                        .ok_or("the --trace-filter options select no wave together")?;
                }
                let out: Box<dyn Write> = match &trace_out {
                    Some(p) => Box::new(BufWriter::new(
                        std::fs::File::create(p)
                            .map_err(|e| format!("cannot create {}: {e}", p.display()))?,
                    )),
                    None => Box::new(BufWriter::new(std::io::stdout().lock())),
                };
                let mut tracer = TextTracer::new(out)
                    .with_filter(filter)
                    .with_limit(trace_limit);
                let run =
                    run_specs_with_observer(&mut dev, &module, &kernel, &geo, &specs, &mut tracer);
                // The trace is complete (and flushed) before the run's error or outputs; a reader
                // that went away (`| head`) is not an error.
                let written = tracer.finish();
                let run = run.map_err(lib_failure)?;
                match written {
                    Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                        let to = trace_out
                            .as_ref()
                            .map_or("standard output".into(), |p| p.display().to_string());
                        return Err(format!("cannot write the trace to {to}: {e}").into());
                    }
                    _ => {}
                }
                run
            } else if inside.wanted() {
                let mut obs = inside.observer(&module, &kernel);
                let run =
                    run_specs_with_observer(&mut dev, &module, &kernel, &geo, &specs, &mut obs)
                        .map_err(|e| e.to_string())?;
                inside_text = inside.finish(obs, &module, &kernel)?;
                run
            } else {
                run_specs_with_observer(&mut dev, &module, &kernel, &geo, &specs, &mut NoObserver)
                    .map_err(lib_failure)?
            };
            emit(&run.printf);
            eprint!("{}", run.stderr);
            write_outputs(&specs, &run).map_err(|e| e.to_string())?;
            if let (Some(out), Some(t)) = (&trap_tma_out, dev.trap_handler()) {
                let tma = dev.read_vec(t.tma, t.tma_size).map_err(|e| e.to_string())?;
                std::fs::write(out, tma)
                    .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            }
            if let Some(format) = stats {
                let json = json || format == "json";
                let jit = jit_delta(jit_before, wavesim_rdna3::jit::compile_stats());
                emit(&stats_text(&run.stats, &jit, json));
                // The issue model's numbers are text; JSON holds the dispatch counters.
                if !json {
                    emit(&inside_text);
                }
            }
            Ok(())
        }
        Cmd::Draw { scene, out, raw } => Ok(draw_cli(&scene, &out, raw.as_deref())?),
        Cmd::Debug {
            file,
            kernel,
            global,
            local,
            args,
            config,
            target,
        } => {
            let rdna3_given =
                kernel.is_some() || global.is_some() || local.is_some() || !args.is_empty();
            if let Some(t) = target.as_deref() {
                if Isa::from_name(t).map_err(|e| usage(e.to_string()))? != Isa::Agx {
                    return Err(usage(format!(
                        "--target {t}: only AGX code has no ELF header to name its ISA"
                    )));
                }
                let Some(config) = config else {
                    return Err(usage("--target agx debugs a job: give --config JOB.toml"));
                };
                if rdna3_given {
                    return Err(usage("--kernel, --global, --local and --arg are for RDNA3 kernels; an AGX job takes --config"));
                }
                return Ok(debug_cli::run_agx(file.as_deref(), &config)?);
            }
            let Some(file) = file else {
                return Err(usage("debug: give a code object or shader object (or --target agx --config JOB.toml)"));
            };
            if let Ok(Isa::R700(_)) = Isa::of_object(&read(&file)?) {
                let Some(config) = config else {
                    return Err(usage(format!(
                        "{} is an R700 shader: give --config FILE.toml",
                        file.display()
                    )));
                };
                if rdna3_given {
                    return Err(usage("--kernel, --global, --local and --arg are for RDNA3 kernels; an R700 shader takes --config"));
                }
                return Ok(debug_cli::run_r700(&file, &config)?);
            }
            if config.is_some() {
                return Err(usage(
                    "--config is for R700 shaders and AGX jobs; RDNA3 kernels take --arg",
                ));
            }
            let (Some(kernel), Some(global), Some(local)) = (kernel, global, local) else {
                return Err(usage(format!(
                    "{} is an RDNA3 code object: give --kernel NAME, --global X[,Y[,Z]] and --local X[,Y[,Z]]",
                    file.display()
                )));
            };
            Ok(debug_cli::run(debug_cli::DebugArgs {
                file,
                kernel,
                global: global.0,
                local: local.0,
                args,
            })?)
        }
        Cmd::Info { file } => {
            let bytes = read(&file)?;
            if let Ok(Isa::R700(_)) = Isa::of_object(&bytes) {
                let shader = wavesim::r700::Shader::from_object_bytes(&bytes)
                    .map_err(|e| format!("{}: {e}", file.display()))?;
                emit(&format!(
                    "R700 shader object, chip {}\n{}",
                    shader.chip().name(),
                    shader.config_text()
                ));
                return Ok(());
            }
            let co = wavesim::CodeObject::parse(&bytes)
                .map_err(|e| format!("{}: {e}", file.display()))?;
            emit(&describe(&co));
            Ok(())
        }
        Cmd::Disasm {
            file,
            raw,
            target,
            wave64,
            full,
        } => {
            let target = target
                .as_deref()
                .map(Isa::from_name)
                .transpose()
                .map_err(|e| usage(e.to_string()))?;
            let (path, is_raw) = match (file, raw) {
                (_, Some(raw)) => (raw, true),
                (Some(file), None) => (file, false),
                (None, None) => return Err(usage("disasm: give an object or --raw FILE")),
            };
            let opts = DisasmOptions {
                // Bare bytes are gfx1100 code unless --target says otherwise.
                target: target.or(is_raw.then_some(Isa::Rdna3(Default::default()))),
                raw: is_raw,
                wave64,
                full,
            };
            let text = disassemble_any(&read(&path)?, &opts)
                .map_err(|e| format!("{}: {e}", path.display()))?;
            emit(&text);
            Ok(())
        }
    }
}

/// `--local`, or the kernel's reqd_work_group_size (as many dimensions as --global) when it is
/// not given.
fn local_size(k: &wavesim::Kernel, local: Option<Dims>, dims: usize) -> Result<Vec<u32>, Failure> {
    if let Some(Dims(l)) = local {
        return Ok(l);
    }
    match k.meta.reqd_workgroup_size {
        Some(r) if r[dims..].iter().all(|&v| v == 1) => Ok(r[..dims].to_vec()),
        Some(r) => Ok(r.to_vec()),
        None => Err(usage(format!(
            "kernel {} has no reqd_work_group_size: give --local X[,Y[,Z]]",
            k.name
        ))),
    }
}

// ---- CLI hygiene: output, exit codes, one-line errors (issue 15) ----

/// Exit code of a successful command.
pub const EXIT_OK: u8 = 0;
/// Exit code when the kernel, shader or job could not run to the end: a fault, an invalid or
/// unsupported instruction, the watchdog, a deadlock, a malformed object, an I/O error.
pub const EXIT_RUN_FAILED: u8 = 1;
/// Exit code of a command line that cannot be run as given: unknown options, malformed `--arg`
/// specs, wrong argument count or kinds, an unknown kernel, a bad geometry; for R700 and AGX, a
/// configuration file that is not TOML or holds a value outside its range, kernel arguments that
/// do not fit (docs/INSIDE.md, "Exit codes").
pub const EXIT_USAGE: u8 = 2;

/// Writes `text` to standard output; a reader that went away (`wavesim disasm X | head`) ends
/// the output quietly, as with any Unix filter.
fn emit(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// What the RDNA3 JIT did between two `compile_stats` readings.
fn jit_delta(a: CompileStats, b: CompileStats) -> CompileStats {
    CompileStats {
        blocks: b.blocks - a.blocks,
        instructions: b.instructions - a.instructions,
        callbacks: b.callbacks - a.callbacks,
        ir_insts: b.ir_insts - a.ir_insts,
        promoted: b.promoted - a.promoted,
        nanos: b.nanos - a.nanos,
        disk_loads: b.disk_loads - a.disk_loads,
        disk_writes: b.disk_writes - a.disk_writes,
        disk_rejects: b.disk_rejects - a.disk_rejects,
    }
}

/// `--stats`: the dispatch counters as aligned text or as one JSON object (`--stats=json`),
/// with the RDNA3 JIT's blocks (text: only when it compiled or loaded any).
fn stats_text(s: &wavesim::DispatchStats, jit: &CompileStats, json: bool) -> String {
    let secs = s.elapsed.as_secs_f64();
    let per_sec = |n: u64| if secs > 0.0 { n as f64 / secs } else { 0.0 };
    let jit_secs = jit.nanos as f64 / 1e9;
    if json {
        return format!(
            "{{\"workgroups\": {}, \"waves\": {}, \"wave_instructions\": {}, \
             \"lane_instructions\": {}, \"seconds\": {:.6}, \
             \"wave_instructions_per_second\": {:.0}, \"lane_instructions_per_second\": {:.0}, \
             \"jit_blocks_compiled\": {}, \"jit_compile_seconds\": {jit_secs:.6}, \
             \"jit_blocks_loaded\": {}, \"jit_blocks_written\": {}, \
             \"jit_files_rejected\": {}}}\n",
            s.workgroups,
            s.waves,
            s.wave_instructions,
            s.lane_instructions,
            secs,
            per_sec(s.wave_instructions),
            per_sec(s.lane_instructions),
            jit.blocks,
            jit.disk_loads,
            jit.disk_writes,
            jit.disk_rejects
        );
    }
    let mut text = format!(
        "workgroups:        {}\nwaves:             {}\nwave-instructions: {}\n\
         lane-instructions: {}\ntime:              {secs:.6} s\n\
         throughput:        {} wave-instructions, {} lane-instructions\n",
        s.workgroups,
        s.waves,
        s.wave_instructions,
        s.lane_instructions,
        rate(s.wave_instructions, secs),
        rate(s.lane_instructions, secs)
    );
    if jit.blocks + jit.disk_loads > 0 {
        text += &format!(
            "jit blocks:        {} compiled ({jit_secs:.6} s), {} loaded from disk, {} written",
            jit.blocks, jit.disk_loads, jit.disk_writes
        );
        if jit.disk_rejects > 0 {
            text += &format!(", {} cache files rejected", jit.disk_rejects);
        }
        text.push('\n');
    }
    text
}

/// Why a command failed: the one-line message and the exit code.
struct Failure {
    code: u8,
    msg: String,
}

impl From<String> for Failure {
    fn from(msg: String) -> Failure {
        Failure {
            code: EXIT_RUN_FAILED,
            msg,
        }
    }
}

impl From<&str> for Failure {
    fn from(msg: &str) -> Failure {
        msg.to_string().into()
    }
}

impl From<inside_cli::CliError> for Failure {
    fn from(e: inside_cli::CliError) -> Failure {
        Failure {
            code: if e.usage { EXIT_USAGE } else { EXIT_RUN_FAILED },
            msg: e.msg,
        }
    }
}

/// An R700 or AGX command's error, its message after `path: ` (exit 2 for a configuration the
/// run cannot take, 1 for a failed run).
fn cli_failure(e: inside_cli::CliError, path: &std::path::Path) -> Failure {
    Failure::from(inside_cli::CliError {
        msg: format!("{}: {}", path.display(), e.msg),
        ..e
    })
}

/// A command line that cannot run as given (exit code 2).
fn usage(msg: impl Into<String>) -> Failure {
    Failure {
        code: EXIT_USAGE,
        msg: msg.into(),
    }
}

/// A library error: argument and launch mistakes are usage errors, the rest are run failures.
fn lib_failure(e: wavesim::Error) -> Failure {
    use wavesim::Error as E;
    let code = match &e {
        E::Args(_)
        | E::UnknownKernel { .. }
        | E::Dispatch(wavesim::DispatchError::BadLaunch(_)) => EXIT_USAGE,
        _ => EXIT_RUN_FAILED,
    };
    Failure {
        code,
        msg: e.to_string(),
    }
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            use clap::error::ErrorKind;
            if matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                emit(&e.render().to_string());
                return ExitCode::from(EXIT_OK);
            }
            if e.kind() == ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand {
                let _ = std::io::stderr().write_all(e.render().to_string().as_bytes());
                return ExitCode::from(EXIT_USAGE);
            }
            // clap's first paragraph says what is wrong (a list of missing arguments may
            // follow on indented lines); its usage and hint lines come after a blank line.
            let text = e.render().to_string();
            let what: Vec<&str> = text
                .lines()
                .take_while(|l| !l.trim().is_empty() && !l.starts_with("Usage:"))
                .map(str::trim)
                .collect();
            let what = what.join(" ");
            let what = what.strip_prefix("error: ").unwrap_or(&what);
            eprintln!("wavesim: error: {what} (see wavesim --help)");
            return ExitCode::from(EXIT_USAGE);
        }
    };
    match real_main(cli) {
        Ok(()) if inside_cli::had_findings() => ExitCode::from(inside_cli::FINDINGS_EXIT_CODE),
        Ok(()) => ExitCode::from(EXIT_OK),
        Err(e) => {
            // One line a user can act on.
            eprintln!("wavesim: error: {}", e.msg.replace('\n', " "));
            // A check that fired and stopped the run (AGX `--check init` stops at the read of a
            // poisoned register) exits as a run whose checks found something: 3 on every ISA.
            if inside_cli::had_findings() {
                return ExitCode::from(inside_cli::FINDINGS_EXIT_CODE);
            }
            ExitCode::from(e.code)
        }
    }
}
