//! The `wavesim` command line: run kernels of a code object, describe it, disassemble it.

use clap::{Parser, Subcommand};
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use wavesim::{
    describe, parse_spec, run_specs_with_observer, write_outputs, ArgSpec, Device, Geometry,
    NoObserver, TextTracer, TraceFilter,
};

#[derive(Parser)]
#[command(
    name = "wavesim",
    version,
    about = "Run AMD RDNA3 (gfx11) kernels on the CPU, bit-exactly"
)]
struct Cli {
    #[command(subcommand)]
    cmd: Cmd,
}

// Parsed once per process: the size of the `run` variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Cmd {
    /// Run one kernel of a code object over a grid.
    Run {
        /// The code object (.hsaco / .co / .o as clang emits it).
        file: PathBuf,
        /// Name of the kernel to run.
        #[arg(long)]
        kernel: String,
        /// Grid size in work-items: X[,Y[,Z]].
        #[arg(long, value_parser = parse_dims)]
        global: Dims,
        /// Workgroup size in work-items: X[,Y[,Z]] (as many dimensions as --global).
        #[arg(long, value_parser = parse_dims)]
        local: Dims,
        /// One per kernel argument, in order: u8:V .. i64:V, f16:V, f32:V, f64:V, buf:PATH[:OUT],
        /// zeros:N[:OUT], local:N.
        #[arg(long = "arg", value_name = "SPEC", allow_hyphen_values = true)]
        args: Vec<String>,
        /// Host threads running workgroups in parallel (default 1: deterministic order).
        #[arg(long, default_value_t = 1)]
        threads: usize,
        /// Watchdog: most instructions one wave may execute.
        #[arg(long = "max-instructions", default_value_t = wavesim::DEFAULT_MAX_WAVE_INSTRUCTIONS)]
        max_instructions: u64,
        /// OpenCL global work offset: X[,Y[,Z]].
        #[arg(long, value_parser = parse_offset)]
        offset: Option<Offsets>,
        /// Print wave-instructions, lane-instructions, time and throughput.
        #[arg(long)]
        stats: bool,
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
    /// List the kernels of a code object with their arguments and descriptor fields.
    Info { file: PathBuf },
    /// Disassemble a code object like llvm-objdump -d --mcpu=gfx1100 (or bare bytes with --raw).
    Disasm {
        /// The code object.
        file: Option<PathBuf>,
        /// Bare instruction bytes instead of a code object.
        #[arg(long, value_name = "FILE", conflicts_with = "file")]
        raw: Option<PathBuf>,
        /// Print bare bytes as wave64 code (affects VCC/EXEC-sized operands).
        #[arg(long)]
        wave64: bool,
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

fn read(path: &PathBuf) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
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

fn real_main(cli: Cli) -> Result<(), String> {
    match cli.cmd {
        Cmd::Run {
            file,
            kernel,
            global,
            local,
            args,
            threads,
            max_instructions,
            offset,
            stats,
            trap_handler,
            trap_tma_out,
            trace,
            trace_out,
            trace_filter,
            trace_limit,
        } => {
            let specs: Vec<ArgSpec> = args
                .iter()
                .map(|a| parse_spec(a))
                .collect::<Result<_, _>>()?;
            let (global, local) = (global.0, local.0);
            let geo = Geometry::new(&global, &local).map_err(|e| e.to_string())?;
            let bytes = read(&file)?;
            let mut dev = Device::new();
            dev.threads = threads.max(1);
            dev.max_wave_instructions = max_instructions;
            if let Some(Offsets(o)) = offset {
                if o.len() != global.len() {
                    return Err(format!(
                        "--offset has {} dimensions but --global has {}",
                        o.len(),
                        global.len()
                    ));
                }
                dev.global_offset[..o.len()].copy_from_slice(&o);
            }
            let module = dev
                .load(&bytes)
                .map_err(|e| format!("{}: {e}", file.display()))?;
            if let Some(path) = &trap_handler {
                dev.install_trap_handler(&read(path)?, wavesim::DEFAULT_TMA_BYTES)
                    .map_err(|e| format!("{}: {e}", path.display()))?;
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
                let run = run.map_err(|e| e.to_string())?;
                match written {
                    Err(e) if e.kind() != std::io::ErrorKind::BrokenPipe => {
                        let to = trace_out
                            .as_ref()
                            .map_or("standard output".into(), |p| p.display().to_string());
                        return Err(format!("cannot write the trace to {to}: {e}"));
                    }
                    _ => {}
                }
                run
            } else {
                run_specs_with_observer(&mut dev, &module, &kernel, &geo, &specs, &mut NoObserver)
                    .map_err(|e| e.to_string())?
            };
            write_outputs(&specs, &run).map_err(|e| e.to_string())?;
            if let (Some(out), Some(t)) = (&trap_tma_out, dev.trap_handler()) {
                let tma = dev.read_vec(t.tma, t.tma_size).map_err(|e| e.to_string())?;
                std::fs::write(out, tma)
                    .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            }
            if stats {
                let s = &run.stats;
                let secs = s.elapsed.as_secs_f64();
                println!("workgroups:        {}", s.workgroups);
                println!("waves:             {}", s.waves);
                println!("wave-instructions: {}", s.wave_instructions);
                println!("lane-instructions: {}", s.lane_instructions);
                println!("time:              {:.6} s", secs);
                println!(
                    "throughput:        {} wave-instructions, {} lane-instructions",
                    rate(s.wave_instructions, secs),
                    rate(s.lane_instructions, secs)
                );
            }
            Ok(())
        }
        Cmd::Info { file } => {
            let bytes = read(&file)?;
            let co = wavesim::CodeObject::parse(&bytes)
                .map_err(|e| format!("{}: {e}", file.display()))?;
            print!("{}", describe(&co));
            Ok(())
        }
        Cmd::Disasm { file, raw, wave64 } => {
            let text = match (file, raw) {
                (_, Some(raw)) => wavesim::disassemble_raw(&read(&raw)?, wave64)
                    .map_err(|e| format!("{}: {e}", raw.display()))?,
                (Some(file), None) => wavesim::disassemble(&read(&file)?)
                    .map_err(|e| format!("{}: {e}", file.display()))?,
                (None, None) => return Err("disasm: give a code object or --raw FILE".into()),
            };
            print!("{text}");
            Ok(())
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    match real_main(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // One line a user can act on.
            eprintln!("wavesim: error: {}", e.replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}
