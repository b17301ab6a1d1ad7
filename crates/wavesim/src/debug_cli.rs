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
//!                       (AGX: `mem threadgroup:ADDR ...` the group's threadgroup memory)
//! continue              run until a breakpoint or the end of the dispatch
//! quit                  stop (the dispatch does not finish; outputs are not written)
//! ```
//!
//! At the end of input the dispatch runs to its end, then the `:OUT` outputs are written.

use std::io::BufRead;

/// `println!` that ignores a reader gone away (`wavesim debug ... | head`): the session goes on
/// to its end quietly instead of panicking on a broken pipe.
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

/// `print!` likewise.
macro_rules! say_part {
    ($($t:tt)*) => {{
        use std::io::Write as _;
        let _ = write!(std::io::stdout(), $($t)*);
    }};
}
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
                say!("condition {n}: {cond}");
            } else {
                let pc = parse_num(rest)?;
                d.break_at(pc)?;
                say!("breakpoint at {pc:#x}");
            }
        }
        "step" | "s" => {
            *cur = wave_arg(rest, *cur)?;
            let e = d.step(*cur).map_err(|e| e.to_string())?;
            say!("{}", event_text(&e, d));
        }
        "continue" | "c" => {
            let e = d.cont().map_err(|e| e.to_string())?;
            if let DebugEvent::Breakpoint { wave, .. } | DebugEvent::Condition { wave, .. } = e {
                *cur = wave;
            }
            say!("{}", event_text(&e, d));
        }
        "regs" | "r" => say_part!("{}", regs_text(d, wave_arg(rest, *cur)?)),
        "set" => {
            let (r, v) = rest.split_once(' ').ok_or("set REG VALUE")?;
            let (r, v) = (parse_reg(r)?, parse_u32(v)?);
            let w = d.wave_mut(*cur).ok_or("no such wave")?;
            match r {
                Reg::S(n) => w.sgpr[n] = v,
                Reg::V(n, l) => w.vgpr_set(n, l, v),
            }
            say!("ok");
        }
        "mem" | "m" => {
            if let Some((a, v)) = rest.split_once('=') {
                let (a, v) = (parse_num(a)?, parse_u32(v)?);
                d.memory().write_u32(a, v).map_err(|e| e.to_string())?;
                say!("ok");
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
                say!("{a:#x}: {}", words?.join(" "));
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
                        Err(e) => say!("error: {e}"),
                    }
                }
                // End of input: run to the end.
                while !d.finished() {
                    let e = d.cont().map_err(|e| e.to_string())?;
                    if e != DebugEvent::Finished {
                        say!("{}", event_text(&e, d));
                    }
                }
                say!("finished");
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

// ---- R700 and AGX: the same commands through the observer's `pause` hook ----

use std::collections::BTreeSet;
use wavesim_core::observe::{InstLoc, MemoryView, Observer, StopRule};

/// `mem [SPACE:]ADDR [N]` (N dwords, default 4) or `mem [SPACE:]ADDR = V` on the memory a paused
/// run lends (`Observer::pause_mem`): SPACE one of `mem.spaces()`, the first when not given.
fn mem_command(mem: &mut dyn MemoryView, rest: &str) -> Result<(), String> {
    let space_addr = |s: &str| -> Result<(usize, u64), String> {
        let s = s.trim();
        match s.split_once(':') {
            Some((name, a)) => {
                let space = mem
                    .spaces()
                    .iter()
                    .position(|n| *n == name.trim())
                    .ok_or_else(|| {
                        format!(
                            "mem: no address space `{}` (this run has {})",
                            name.trim(),
                            mem.spaces().join(", ")
                        )
                    })?;
                Ok((space, parse_num(a)?))
            }
            None => Ok((0, parse_num(s)?)),
        }
    };
    if let Some((a, v)) = rest.split_once('=') {
        let ((space, a), v) = (space_addr(a)?, parse_u32(v)?);
        mem.write(space, a, &v.to_le_bytes())?;
        say!("ok");
        return Ok(());
    }
    let mut it = rest.split_whitespace();
    let (space, a) = space_addr(it.next().ok_or("mem [SPACE:]ADDR [N]")?)?;
    let n = it.next().map(parse_num).transpose()?.unwrap_or(4);
    if n > MAX_MEM_DWORDS {
        return Err(format!(
            "mem: {n} dwords; at most {MAX_MEM_DWORDS} at a time"
        ));
    }
    let mut words = Vec::new();
    for k in 0..n {
        let at = a
            .checked_add(4 * k)
            .ok_or_else(|| format!("mem: {a:#x} + {} passes 2^64", 4 * k))?;
        let mut b = [0u8; 4];
        mem.read(space, at, &mut b)?;
        words.push(format!("{:#010x}", u32::from_le_bytes(b)));
    }
    let prefix = if space == 0 {
        String::new()
    } else {
        format!("{}:", mem.spaces()[space])
    };
    say!("{prefix}{a:#x}: {}", words.join(" "));
    Ok(())
}

/// What the step debugger needs of an ISA: an instruction's text, the registers as text, a
/// register write, how addresses are written.
struct IsaView<W, I> {
    text: fn(&I) -> String,
    regs: fn(&W) -> String,
    set: fn(&mut W, &str, u32) -> Result<(), String>,
    parse_pc: fn(&str) -> Result<u64, String>,
    show_pc: fn(u64) -> String,
    /// Why `mem` does not apply.
    no_mem: &'static str,
}

/// A step debugger that stops inside the run: at the first instruction (to take the first
/// commands), at breakpoints and after `step`; commands come from standard input as for RDNA3.
struct StepDebugger<W, I> {
    view: IsaView<W, I>,
    lines: std::io::Lines<std::io::StdinLock<'static>>,
    /// Released when input ended or at `quit`: the run goes on without stopping.
    rule: StopRule,
    quit: bool,
}

impl<W, I> StepDebugger<W, I> {
    fn new(view: IsaView<W, I>, starts: BTreeSet<u64>) -> Self {
        StepDebugger {
            view,
            lines: std::io::stdin().lock().lines(),
            rule: StopRule::new(starts),
            quit: false,
        }
    }

    /// One command; `Ok(true)` resumes the run.
    fn command<'m>(
        &mut self,
        w: &mut W,
        mem: Option<&mut (dyn MemoryView + 'm)>,
        line: &str,
    ) -> Result<bool, String> {
        let line = line.trim();
        let (cmd, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        match cmd {
            "" => {}
            "break" | "b" => {
                let pc = (self.view.parse_pc)(rest)?;
                if !self.rule.break_at(pc) {
                    return Err(format!(
                        "{} is not the start of an instruction of this program (the addresses wavesim disasm lists are)",
                        (self.view.show_pc)(pc)
                    ));
                }
                say!("breakpoint at {}", (self.view.show_pc)(pc));
            }
            "step" | "s" => {
                self.rule.step();
                return Ok(true);
            }
            "continue" | "c" => return Ok(true),
            "regs" | "r" => say_part!("{}", (self.view.regs)(w)),
            "set" => {
                let (r, v) = rest.rsplit_once(' ').ok_or("set REG VALUE")?;
                (self.view.set)(w, r.trim(), parse_u32(v)?)?;
            }
            "mem" | "m" => match mem {
                Some(m) => mem_command(m, rest)?,
                None => return Err(self.view.no_mem.into()),
            },
            "quit" | "q" => {
                self.quit = true;
                self.rule.release();
                return Ok(true);
            }
            _ => {
                return Err(format!(
                    "unknown command `{cmd}`: break, step, regs, set, mem, continue, quit"
                ))
            }
        }
        Ok(false)
    }
}

impl<W, I> Observer<W, I> for StepDebugger<W, I> {
    fn pause(&mut self, loc: &InstLoc, w: &mut W, inst: &I) {
        self.stop(loc, w, inst, None)
    }
    fn pause_mem(&mut self, loc: &InstLoc, w: &mut W, inst: &I, mem: &mut dyn MemoryView) {
        self.stop(loc, w, inst, Some(mem))
    }
}

impl<W, I> StepDebugger<W, I> {
    /// Stops before `inst` when a breakpoint, a step or the start asks to, and takes commands.
    fn stop(&mut self, loc: &InstLoc, w: &mut W, inst: &I, mut mem: Option<&mut dyn MemoryView>) {
        let Some(why) = self.rule.stop_at(loc.pc) else {
            return;
        };
        let [x, y, z] = loc.workgroup;
        say!(
            "{why}: wg ({x},{y},{z}) wave {} at {} `{}`",
            loc.wave,
            (self.view.show_pc)(loc.pc),
            (self.view.text)(inst)
        );
        loop {
            let Some(Ok(line)) = self.lines.next() else {
                self.rule.release();
                return;
            };
            match self.command(w, mem.as_deref_mut(), &line) {
                Ok(true) => return,
                Ok(false) => {}
                Err(e) => say!("error: {e}"),
            }
        }
    }
}

fn read_config(config: &std::path::Path) -> Result<String, String> {
    String::from_utf8(
        wavesim::limits::read_input_file(config)
            .map_err(|e| format!("cannot read {}: {e}", config.display()))?,
    )
    .map_err(|_| format!("{} is not UTF-8 text", config.display()))
}

fn parse_lane_reg(s: &str) -> Result<(&str, usize), String> {
    let (r, lane) = s
        .strip_suffix(']')
        .and_then(|s| s.split_once('['))
        .ok_or_else(|| format!("`{s}`: give REG[LANE]"))?;
    let lane: usize = lane.parse().map_err(|_| format!("bad lane in `{s}`"))?;
    Ok((r, lane))
}

/// `wavesim debug SHADER.o --config RUN.toml`: the R700 shader under the step debugger.
pub fn run_r700(
    file: &std::path::Path,
    config: &std::path::Path,
) -> Result<(), crate::inside_cli::CliError> {
    use wavesim::r700::exec::{Step, Wave};
    let bytes = wavesim::limits::read_input_file(file)
        .map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    let shader = wavesim::r700::Shader::from_object_bytes(&bytes)
        .map_err(|e| format!("{}: {e}", file.display()))?;
    let text = read_config(config)?;
    let cfg = wavesim::r700::runner::RunConfig::from_toml(&text)
        .map_err(|e| crate::inside_cli::config_error(format!("{}: {e}", config.display())))?;
    let starts = wavesim::r700::inside::step_addresses(&shader.program);
    const CH: [char; 4] = ['X', 'Y', 'Z', 'W'];
    let view: IsaView<Wave, Step> = IsaView {
        text: |s| s.text(),
        regs: |w| {
            let mut t = String::new();
            let active: u64 = (0..w.lanes)
                .filter(|&l| w.state[l] == wavesim::r700::exec::PixelState::Active)
                .fold(0, |m, l| m | 1 << l);
            t += &format!("ACTIVE={active:#018x}\n");
            for (r, g) in w.gpr.iter().enumerate() {
                for (c, ch) in g.iter().enumerate() {
                    if ch.iter().take(4).any(|&v| v != 0) {
                        let lanes: Vec<String> =
                            ch.iter().take(4).map(|v| format!("{v:#010x}")).collect();
                        t += &format!("T{r}.{} [0-3] {}\n", CH[c], lanes.join(" "));
                    }
                }
            }
            let mut acc = String::new();
            wavesim_core::observe::write_accesses(&mut acc, w.accesses.as_deref().unwrap_or(&[]));
            if !acc.is_empty() {
                t += "memory accesses of the previous step:\n";
                t += &acc;
            }
            t
        },
        set: |w, r, v| {
            let (r, lane) = parse_lane_reg(r)?;
            let (reg, chan) = r
                .strip_prefix('T')
                .and_then(|r| r.split_once('.'))
                .ok_or_else(|| format!("`{r}`: give T<n>.<X|Y|Z|W>[LANE]"))?;
            let reg: usize = reg.parse().map_err(|_| format!("bad GPR `{r}`"))?;
            let chan = CH
                .iter()
                .position(|c| chan.eq_ignore_ascii_case(&c.to_string()))
                .ok_or_else(|| format!("bad channel in `{r}`"))?;
            let cell = w
                .gpr
                .get_mut(reg)
                .and_then(|g| g[chan].get_mut(lane))
                .ok_or_else(|| format!("no T{reg} lane {lane} in this wave"))?;
            *cell = v;
            Ok(())
        },
        parse_pc: |s| {
            let s = s.trim();
            s.strip_prefix('@')
                .unwrap_or(s)
                .parse::<u64>()
                .map_err(|_| format!("`{s}`: give an address as @N (8-byte units, as listed)"))
        },
        show_pc: |pc| format!("@{pc}"),
        no_mem: "this stop lends the debugger no memory",
    };
    let mut dbg = StepDebugger::new(view, starts);
    let res = wavesim::r700::runner::run_observed(&shader, &cfg, &mut dbg)
        .map_err(crate::inside_cli::r700_error)?;
    if !dbg.quit {
        say!("finished");
        say_part!("{}", res.to_text());
    }
    Ok(())
}

impl wavesim::agx::inside::AgxObserver
    for StepDebugger<wavesim::agx::exec::WaveState, wavesim::agx::exec::Inst>
{
}

/// `wavesim debug --target agx --config JOB.toml [CODE]`: a job of any kind under the step
/// debugger; `mem` reads and writes device memory and (`mem threadgroup:ADDR`) the group's
/// threadgroup memory.
pub fn run_agx(
    code: Option<&std::path::Path>,
    config: &std::path::Path,
) -> Result<(), crate::inside_cli::CliError> {
    use wavesim::agx::exec::{Inst, WaveState};
    let text = read_config(config)?;
    let cfg = wavesim::agx::runner::RunConfig::from_toml(&text)
        .map_err(|e| crate::inside_cli::config_error(format!("{}: {e}", config.display())))?;
    let dir = config.parent().unwrap_or(std::path::Path::new("."));
    let bytes = code
        .map(|p| {
            wavesim::limits::read_input_file(p)
                .map_err(|e| format!("cannot read {}: {e}", p.display()))
        })
        .transpose()?;
    let program = wavesim::agx::runner::program_bytes(&cfg, dir, bytes.as_deref())
        .map_err(|e| format!("{}: {e}", config.display()))?;
    let starts = wavesim::agx::inside::instruction_starts(&program);
    let view: IsaView<WaveState, Inst> = IsaView {
        text: |i| i.text.trim_end().to_string(),
        regs: |w| {
            let mut t = format!("EXEC={:#010x}\n", w.exec);
            for r in 0..w.halves.len() / 2 {
                let v: Vec<u32> = (0..4).map(|l| w.reg32(r, l)).collect();
                if r == 0 || v.iter().any(|&x| x != 0) {
                    let s: Vec<String> = v.iter().map(|x| format!("{x:#010x}")).collect();
                    t += &format!("r{r} [0-3] {}\n", s.join(" "));
                }
            }
            // Cleared only after the stop: what the group's previous instruction touched.
            let mut acc = String::new();
            wavesim_core::observe::write_accesses(&mut acc, w.accesses.as_deref().unwrap_or(&[]));
            if !acc.is_empty() {
                t += "memory accesses of the previous instruction:\n";
                t += &acc;
            }
            t
        },
        set: |w, r, v| {
            let (r, lane) = parse_lane_reg(r)?;
            let n: usize = r
                .strip_prefix('r')
                .and_then(|n| n.parse().ok())
                .ok_or_else(|| format!("`{r}`: give r<n>[LANE]"))?;
            if 2 * n + 1 >= w.halves.len() || lane >= wavesim::agx::exec::SIMD_WIDTH {
                return Err(format!("no r{n} lane {lane} in this SIMD group"));
            }
            w.set_reg32(n, lane, v);
            Ok(())
        },
        parse_pc: |s| parse_num(s),
        show_pc: |pc| format!("{pc:#x}"),
        no_mem: "the AGX run lends its memory at every stop (this is not reached)",
    };
    let mut dbg = StepDebugger::new(view, starts);
    let res =
        wavesim::agx::runner::run_observed_in_dir(&cfg, dir, bytes.as_deref(), &mut dbg, false)
            .map_err(crate::inside_cli::agx_error)?;
    if !dbg.quit {
        say!("finished");
        say_part!("{}", res.to_text());
    }
    Ok(())
}
