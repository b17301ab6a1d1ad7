//! `wavesim debug`: the step API ([`wavesim::Debugger`]) on the command line. Commands come one
//! per line from standard input (a terminal or a script):
//!
//! ```text
//! break PC              stop before any wave executes the instruction at PC (hex, as listed)
//! break if REG == V     stop before an instruction of a wave whose REG holds V (sN, vN[LANE])
//! step [WAVE]           run one instruction of WAVE (default: the last stopped wave, else 0)
//! regs [WAVE]           PC, next instruction, EXEC, SCC, the non-zero SGPRs, VGPR lanes 0-3
//! set REG V             write sN or vN[LANE] of the last stopped wave
//! mem ADDR [N]          N (default 4) dwords of device memory from ADDR
//! mem ADDR = V          write a dword of device memory
//! continue              run until a breakpoint or the end of the dispatch
//! quit                  stop (the dispatch does not finish; outputs are not written)
//! ```
//!
//! At the end of input the dispatch runs to its end, then the `:OUT` outputs are written.

use std::io::BufRead;
use std::path::PathBuf;
use wavesim::{parse_spec, Arg, ArgSpec, DebugEvent, Debugger, Device, Geometry, Wave};

/// What `wavesim debug` was given.
pub struct DebugArgs {
    pub file: PathBuf,
    pub kernel: String,
    pub global: Vec<u32>,
    pub local: Vec<u32>,
    pub args: Vec<String>,
}

/// A register of a condition or `set`: an SGPR, or a VGPR lane.
#[derive(Clone, Copy, Debug)]
enum Reg {
    S(usize),
    V(usize, usize),
}

fn parse_num(s: &str) -> Result<u64, String> {
    let s = s.trim();
    let r = match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16),
        None => s.parse::<u64>(),
    };
    r.map_err(|_| format!("`{s}` is not a number"))
}

/// A 32-bit value (register or memory dword): larger numbers are an error, not truncated.
fn parse_u32(s: &str) -> Result<u32, String> {
    let v = parse_num(s)?;
    u32::try_from(v).map_err(|_| format!("`{}` does not fit in 32 bits", s.trim()))
}

/// Most dwords one `mem ADDR N` prints.
const MAX_MEM_DWORDS: u64 = 4096;

fn parse_reg(s: &str) -> Result<Reg, String> {
    let s = s.trim();
    if let Some(n) = s.strip_prefix('s') {
        let n: usize = n.parse().map_err(|_| format!("bad register `{s}`"))?;
        if n < 106 {
            return Ok(Reg::S(n));
        }
    } else if let Some(rest) = s.strip_prefix('v') {
        if let Some((r, lane)) = rest.trim_end_matches(']').split_once('[') {
            let (r, lane): (usize, usize) = (
                r.parse().map_err(|_| format!("bad register `{s}`"))?,
                lane.parse().map_err(|_| format!("bad lane in `{s}`"))?,
            );
            if r < 256 && lane < 64 {
                return Ok(Reg::V(r, lane));
            }
        }
    }
    Err(format!(
        "bad register `{s}`: expected sN (N < 106) or vN[LANE]"
    ))
}

fn read_reg(w: &Wave, r: Reg) -> u32 {
    match r {
        Reg::S(n) => w.sgpr[n],
        Reg::V(n, l) => w.vgpr_get(n, l),
    }
}

fn regs_text(d: &Debugger, i: usize) -> String {
    let Some(w) = d.wave(i) else {
        return format!("no wave {i}\n");
    };
    let mut s = format!(
        "wave {i} pc {:#x} `{}` exec {:#x} scc {}\n",
        d.pc(i).unwrap_or(0),
        d.next_instruction(i).unwrap_or_default(),
        w.exec(),
        w.scc as u8
    );
    let sg: Vec<String> = (0..106)
        .filter(|&r| w.sgpr[r] != 0)
        .map(|r| format!("s{r}={:#x}", w.sgpr[r]))
        .collect();
    s += &format!("  {}\n", sg.join(" "));
    for r in 0..w.num_vgprs as usize {
        let lanes: Vec<String> = (0..4).map(|l| format!("{:#x}", w.vgpr_get(r, l))).collect();
        s += &format!("  v{r}[0..4] = {}\n", lanes.join(" "));
    }
    s
}

fn event_text(e: &DebugEvent, d: &Debugger) -> String {
    match e {
        DebugEvent::Breakpoint { wave, pc } => format!(
            "break: wave {wave} at {pc:#x} `{}`",
            d.next_instruction(*wave).unwrap_or_default()
        ),
        DebugEvent::Condition { wave, index } => format!(
            "condition {index}: wave {wave} at {:#x} `{}`",
            d.pc(*wave).unwrap_or(0),
            d.next_instruction(*wave).unwrap_or_default()
        ),
        DebugEvent::Stepped { wave, ended: true } => format!("wave {wave} ended"),
        DebugEvent::Stepped { wave, .. } => format!(
            "wave {wave} at {:#x} `{}`",
            d.pc(*wave).unwrap_or(0),
            d.next_instruction(*wave).unwrap_or_default()
        ),
        DebugEvent::Finished => "finished".to_string(),
    }
}

/// One command; `Ok(false)` on quit.
fn command(d: &mut Debugger, line: &str, cur: &mut usize) -> Result<bool, String> {
    let line = line.trim();
    let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
    let rest = rest.trim();
    let waves = d.wave_count();
    let wave_arg = |rest: &str, cur: usize| -> Result<usize, String> {
        if rest.is_empty() {
            return Ok(cur);
        }
        let w = parse_num(rest)?;
        match usize::try_from(w) {
            Ok(w) if w < waves => Ok(w),
            _ => Err(format!(
                "no wave {w}: the workgroup has waves 0 to {}",
                waves.saturating_sub(1)
            )),
        }
    };
    match cmd {
        "" => {}
        "break" | "b" => {
            if let Some(cond) = rest.strip_prefix("if ") {
                let (r, v) = cond.split_once("==").ok_or("break if REG == VALUE")?;
                let (r, v) = (parse_reg(r)?, parse_u32(v)?);
                let n = d.break_if(Box::new(move |w: &Wave| read_reg(w, r) == v));
                println!("condition {n}: {cond}");
            } else {
                let pc = parse_num(rest)?;
                d.break_at(pc)?;
                println!("breakpoint at {pc:#x}");
            }
        }
        "step" | "s" => {
            *cur = wave_arg(rest, *cur)?;
            let e = d.step(*cur).map_err(|e| e.to_string())?;
            println!("{}", event_text(&e, d));
        }
        "continue" | "c" => {
            let e = d.cont().map_err(|e| e.to_string())?;
            if let DebugEvent::Breakpoint { wave, .. } | DebugEvent::Condition { wave, .. } = e {
                *cur = wave;
            }
            println!("{}", event_text(&e, d));
        }
        "regs" | "r" => print!("{}", regs_text(d, wave_arg(rest, *cur)?)),
        "set" => {
            let (r, v) = rest.split_once(' ').ok_or("set REG VALUE")?;
            let (r, v) = (parse_reg(r)?, parse_u32(v)?);
            let w = d.wave_mut(*cur).ok_or("no such wave")?;
            match r {
                Reg::S(n) => w.sgpr[n] = v,
                Reg::V(n, l) => w.vgpr_set(n, l, v),
            }
            println!("ok");
        }
        "mem" | "m" => {
            if let Some((a, v)) = rest.split_once('=') {
                let (a, v) = (parse_num(a)?, parse_u32(v)?);
                d.memory().write_u32(a, v).map_err(|e| e.to_string())?;
                println!("ok");
            } else {
                let mut it = rest.split_whitespace();
                let a = parse_num(it.next().ok_or("mem ADDR [N]")?)?;
                let n = it.next().map(parse_num).transpose()?.unwrap_or(4);
                if n > MAX_MEM_DWORDS {
                    return Err(format!(
                        "mem: {n} dwords; at most {MAX_MEM_DWORDS} at a time"
                    ));
                }
                let words: Result<Vec<String>, String> = (0..n)
                    .map(|k| {
                        let at = a
                            .checked_add(4 * k)
                            .ok_or_else(|| format!("mem: {a:#x} + {} passes 2^64", 4 * k))?;
                        d.memory()
                            .read_u32(at)
                            .map(|v| format!("{v:#010x}"))
                            .map_err(|e| e.to_string())
                    })
                    .collect();
                println!("{a:#x}: {}", words?.join(" "));
            }
        }
        "quit" | "q" => return Ok(false),
        _ => {
            return Err(format!(
                "unknown command `{cmd}`: break, step, regs, set, mem, continue, quit"
            ))
        }
    }
    Ok(true)
}

/// Runs `wavesim debug`.
pub fn run(a: DebugArgs) -> Result<(), String> {
    let bytes = wavesim::limits::read_input_file(&a.file)
        .map_err(|e| format!("cannot read {}: {e}", a.file.display()))?;
    let specs: Vec<ArgSpec> = a
        .args
        .iter()
        .map(|s| parse_spec(s))
        .collect::<Result<_, _>>()?;
    let geo = Geometry::new(&a.global, &a.local).map_err(|e| e.to_string())?;
    let mut dev = Device::new();
    let module = dev
        .load(&bytes)
        .map_err(|e| format!("{}: {e}", a.file.display()))?;
    let mut args = Vec::new();
    let mut bufs = Vec::new();
    for s in &specs {
        match s {
            ArgSpec::Value { bytes, .. } => args.push(Arg::Value(bytes.clone())),
            ArgSpec::Local(n) => args.push(Arg::Local(*n)),
            ArgSpec::Buf { path, .. } => {
                let data = wavesim::limits::read_input_file(path)
                    .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
                let at = dev.alloc_with(&data).map_err(|e| e.to_string())?;
                args.push(Arg::Buffer(at));
                bufs.push((s.output().cloned(), at, data.len() as u64));
            }
            ArgSpec::Zeros { size, .. } => {
                let at = dev.alloc(*size).map_err(|e| e.to_string())?;
                args.push(Arg::Buffer(at));
                bufs.push((s.output().cloned(), at, *size));
            }
            ArgSpec::Image { .. } | ArgSpec::Sampler { .. } => {
                return Err(
                    "wavesim debug does not take image arguments yet; use wavesim run".into(),
                )
            }
        }
    }
    let finished = dev
        .debug(
            &module,
            &a.kernel,
            &geo,
            &args,
            |d| -> Result<bool, String> {
                let mut cur = 0usize;
                for line in std::io::stdin().lock().lines() {
                    let line = line.map_err(|e| e.to_string())?;
                    match command(d, &line, &mut cur) {
                        Ok(true) => {}
                        Ok(false) => return Ok(false),
                        Err(e) => println!("error: {e}"),
                    }
                }
                // End of input: run to the end.
                while !d.finished() {
                    let e = d.cont().map_err(|e| e.to_string())?;
                    if e != DebugEvent::Finished {
                        println!("{}", event_text(&e, d));
                    }
                }
                println!("finished");
                Ok(true)
            },
        )
        .map_err(|e| e.to_string())??;
    if finished {
        for (out, at, n) in bufs {
            if let Some(out) = out {
                let data = dev.read_vec(at, n).map_err(|e| e.to_string())?;
                std::fs::write(&out, data)
                    .map_err(|e| format!("cannot write {}: {e}", out.display()))?;
            }
        }
    }
    Ok(())
}
