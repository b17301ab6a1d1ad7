//! The checkers on real clang-19 code: every corpus dispatch (corpus/runs.toml) must come out
//! clean with every check on, and the mutants corpus/check/make_mutants.py made from the same
//! code objects (one s_barrier, s_waitcnt* or s_delay_alu replaced by s_nop 0) must be caught.
//! Also the timeline's JSON and the CLI's exit code.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::Command;
use wavesim::inside::{check_padding, timeline, Checks, FindingKind, Inside, InsideConfig};
use wavesim::{parse_spec, run_specs_with_observer, ArgSpec, Device, Geometry};

#[derive(Deserialize, Clone, Debug)]
struct RunFile {
    run: Vec<Run>,
}

#[derive(Deserialize, Clone, Debug)]
struct Run {
    name: String,
    object: String,
    kernel: String,
    global: Vec<u32>,
    local: Vec<u32>,
    #[serde(default)]
    offset: Option<Vec<u64>>,
    args: Vec<String>,
}

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

fn runs() -> Vec<Run> {
    let text = std::fs::read_to_string(corpus().join("runs.toml")).expect("corpus/runs.toml");
    toml::from_str::<RunFile>(&text).expect("runs.toml").run
}

fn object(obj: &str, wave: &str) -> Option<Vec<u8>> {
    std::fs::read(corpus().join(format!("gfx1100-{wave}/{obj}.hsaco"))).ok()
}

/// Runs `r` on the code object `elf` with `checks` (and the timeline when asked); the observer
/// afterwards, with the padding finding added.
fn run_checked(elf: &[u8], r: &Run, checks: Checks, timeline: bool) -> Inside {
    run_mode(elf, r, checks, timeline, true)
}

/// As `run_checked`, with the cycle model's WGP mode (else CU mode).
fn run_mode(elf: &[u8], r: &Run, checks: Checks, timeline: bool, wgp_mode: bool) -> Inside {
    let mut dev = Device::new();
    dev.max_wave_instructions = 2_000_000;
    if let Some(o) = &r.offset {
        dev.global_offset[..o.len()].copy_from_slice(o);
    }
    let module = dev.load(elf).expect("loads");
    let data = corpus().join("data");
    let specs: Vec<ArgSpec> = r
        .args
        .iter()
        .map(|a| match a.strip_prefix("buf:") {
            Some(p) => parse_spec(&format!("buf:{}", data.join(p).display())).unwrap(),
            None => parse_spec(a).unwrap(),
        })
        .collect();
    let geo = Geometry::new(&r.global, &r.local).unwrap();
    let mut obs = Inside::new(InsideConfig {
        checks,
        timeline,
        wgp_mode,
        ..Default::default()
    });
    run_specs_with_observer(&mut dev, &module, &r.kernel, &geo, &specs, &mut obs)
        .unwrap_or_else(|e| panic!("{} {}: {e}", r.name, r.object));
    obs.finish();
    if checks.hazards {
        if let Some(f) = check_padding(module.program()) {
            obs.add_finding(f);
        }
    }
    obs
}

#[test]
fn the_untouched_corpus_is_clean() {
    let mut n = 0;
    for r in runs() {
        for wave in ["w32", "w64"] {
            let Some(elf) = object(&r.object, wave) else {
                continue;
            };
            let obs = run_checked(&elf, &r, Checks::ALL, false);
            assert!(
                obs.findings().is_empty(),
                "{} {wave}: {:#?}",
                r.name,
                obs.findings()
            );
            n += 1;
        }
    }
    eprintln!("{n} corpus dispatches clean under waits,hazards,races,init");
    assert!(n >= 60, "{n}");
}

/// The kinds each check reports.
fn caught(obs: &Inside, kinds: &[FindingKind]) -> bool {
    obs.findings().iter().any(|f| kinds.contains(&f.kind))
}

#[test]
fn every_removed_barrier_is_found() {
    let dir = corpus().join("check/barrier");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("corpus/check/barrier")
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    let runs = runs();
    let mut missed = Vec::new();
    let mut kernels = std::collections::BTreeSet::new();
    for name in &names {
        let parts: Vec<&str> = name.split('.').collect();
        let (obj, _wave) = (parts[0], parts[1]);
        let elf = std::fs::read(dir.join(name)).unwrap();
        let races = Checks {
            races: true,
            ..Default::default()
        };
        let hit = runs
            .iter()
            .filter(|r| r.object == obj)
            .any(|r| caught(&run_checked(&elf, r, races, false), &[FindingKind::Race]));
        if hit {
            kernels.insert(format!("{obj}.{}", parts[1]));
        } else {
            missed.push(name.clone());
        }
    }
    eprintln!(
        "removed barriers found: {} of {} mutants, in {} kernels",
        names.len() - missed.len(),
        names.len(),
        kernels.len()
    );
    let excused = |n: &str| BARRIERS_WITHOUT_CONFLICT.iter().any(|e| n.starts_with(e.0));
    for e in BARRIERS_WITHOUT_CONFLICT {
        assert!(
            missed.iter().any(|m| m.starts_with(e.0)),
            "listed as ordering nothing but found: {} ({})",
            e.0,
            e.1
        );
    }
    let unexplained: Vec<&String> = missed.iter().filter(|m| !excused(m)).collect();
    assert!(
        unexplained.is_empty(),
        "removed barriers not found: {unexplained:#?}"
    );
    assert!(names.len() >= 80 && kernels.len() >= 10, "{kernels:?}");
}

/// Removed barriers that order no access of one wave against another's, so nothing can race
/// without them: (mutant name prefix, why). Every other removed barrier must be found.
const BARRIERS_WITHOUT_CONFLICT: &[(&str, &str)] = &[
    (
        "bitonic_sort.w32.1668.",
        "the first sort step (k = 2, j = 1) compares s[t] with s[t ^ 1]: both were stored by \
         the same lane's wave before the barrier, so it orders nothing across waves",
    ),
    (
        "bitonic_sort.w64.1660.",
        "as w32 1668 (pairs t, t ^ 1 are in one wave)",
    ),
    (
        "lds_reduce.w32.1a48.",
        "tree steps with stride < 32 (32 lanes = wave 0) read and write only what wave 0 \
         wrote: 1a48, 1a9c, 1af0, 1b44, 1b94 and 1bec (before the lid == 0 result) order wave 0 \
         against itself",
    ),
    (
        "lds_reduce.w32.1a9c.",
        "stride 8 step: inside wave 0 (see 1a48)",
    ),
    (
        "lds_reduce.w32.1af0.",
        "stride 4 step: inside wave 0 (see 1a48)",
    ),
    (
        "lds_reduce.w32.1b44.",
        "stride 2 step: inside wave 0 (see 1a48)",
    ),
    (
        "lds_reduce.w32.1b94.",
        "stride 1 step: inside wave 0 (see 1a48)",
    ),
    (
        "lds_reduce.w32.1bec.",
        "lid == 0 reads s[0]/m[0] wave 0 wrote (see 1a48)",
    ),
    (
        "lds_reduce.w64.19f4.",
        "wave64: every step with stride < 64 runs inside wave 0; 19f4, 1a48, 1a9c, 1af0, \
         1b44, 1b94, 1bec order wave 0 against itself",
    ),
    ("lds_reduce.w64.1a48.", "inside wave 0 (see w64 19f4)"),
    ("lds_reduce.w64.1a9c.", "inside wave 0 (see w64 19f4)"),
    ("lds_reduce.w64.1af0.", "inside wave 0 (see w64 19f4)"),
    ("lds_reduce.w64.1b44.", "inside wave 0 (see w64 19f4)"),
    ("lds_reduce.w64.1b94.", "inside wave 0 (see w64 19f4)"),
    ("lds_reduce.w64.1bec.", "inside wave 0 (see w64 19f4)"),
    (
        "workgroup_collectives.w32.24c0.",
        "the last barrier: after it the kernel touches no LDS (it only stores its result to \
         global memory), so it orders nothing",
    ),
    (
        "workgroup_collectives.w64.2594.",
        "the last barrier (see w32 24c0)",
    ),
];

#[test]
fn removed_waits_delays_and_wait_states_are_found() {
    // WAVESIM_MUTANTS=FILE runs the lines of FILE instead (to look at a few).
    let list = std::env::var("WAVESIM_MUTANTS")
        .map(PathBuf::from)
        .unwrap_or_else(|_| corpus().join("check/waits.txt"));
    let text = std::fs::read_to_string(list).expect("waits.txt");
    let runs = runs();
    let mut tally: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    let mut missed = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
    {
        let f: Vec<&str> = line.splitn(6, ' ').collect();
        let (kind, wave, obj) = (f[0], f[1], f[2]);
        let addr = u64::from_str_radix(f[3].trim_start_matches("0x"), 16).unwrap();
        let word = u32::from_str_radix(f[4].trim_start_matches("0x"), 16).unwrap();
        let mut elf = object(obj, wave).unwrap();
        // The .text section: the listing's address -> file offset (object's section table).
        let at = file_offset(&elf, addr);
        assert_eq!(
            u32::from_le_bytes(elf[at..at + 4].try_into().unwrap()),
            word,
            "{line}"
        );
        if kind == "delay" {
            // An s_delay_alu asking for nothing (all fields 0): the hint is gone and, like
            // the removed one, it is not an instruction of LLVM's count (an s_nop would add a
            // cycle and change what the rule sees).
            elf[at..at + 4].copy_from_slice(&0xbf87_0000u32.to_le_bytes());
        } else if kind == "nop" {
            // Remove the s_nop: s_sendmsg and s_endpgm move up, s_code_end fills the word.
            let rest: Vec<u8> = elf[at + 4..at + 12].to_vec();
            elf[at..at + 8].copy_from_slice(&rest);
            elf[at + 8..at + 12].copy_from_slice(&0xbf9f_0000u32.to_le_bytes());
        } else {
            elf[at..at + 4].copy_from_slice(&0xbf80_0000u32.to_le_bytes()); // s_nop 0
        }
        let (checks, kinds): (Checks, &[FindingKind]) = match kind {
            "wait" => (
                Checks {
                    waits: true,
                    ..Default::default()
                },
                &[FindingKind::MissingWait, FindingKind::BarrierInFlight],
            ),
            "delay" => (
                Checks {
                    hazards: true,
                    ..Default::default()
                },
                &[FindingKind::MissingDelayAlu],
            ),
            _ => (
                Checks {
                    hazards: true,
                    ..Default::default()
                },
                &[FindingKind::HazardWaitState],
            ),
        };
        let hit = runs
            .iter()
            .filter(|r| r.object == obj)
            .any(|r| caught(&run_checked(&elf, r, checks, false), kinds));
        let t = tally
            .entry(match kind {
                "wait" => "s_waitcnt",
                "delay" => "s_delay_alu",
                "depctr" => "s_waitcnt_depctr",
                _ => "s_nop",
            })
            .or_default();
        t.1 += 1;
        if hit {
            t.0 += 1;
        } else {
            missed.push(line.to_string());
        }
    }
    for (k, (hit, all)) in &tally {
        eprintln!("removed {k}: {hit} of {all} found");
    }
    if std::env::var("WAVESIM_MUTANTS").is_err() {
        assert!(tally["s_waitcnt"].1 >= 200 && tally["s_delay_alu"].1 >= 300);
        assert!(tally["s_waitcnt_depctr"].1 >= 100 && tally["s_nop"].1 >= 20);
    }
    // Every removed s_waitcnt, s_delay_alu, s_waitcnt_depctr and s_nop is found (runs
    // local_arg_scan_l1 and f32_misc_near take the paths the main runs skip: the scan loop's
    // zero-iteration exit and fmod's skipped reduction loop).
    assert!(missed.is_empty(), "not found: {missed:#?}");
}

/// File offset of code address `addr` (the .text section maps addresses to offsets).
fn file_offset(elf: &[u8], addr: u64) -> usize {
    let o = wavesim_core_elf_text(elf);
    (addr - o.0 + o.1) as usize
}

fn wavesim_core_elf_text(elf: &[u8]) -> (u64, u64) {
    let u16_at = |o: usize| u16::from_le_bytes(elf[o..o + 2].try_into().unwrap()) as usize;
    let u32_at = |o: usize| u32::from_le_bytes(elf[o..o + 4].try_into().unwrap()) as usize;
    let u64_at = |o: usize| u64::from_le_bytes(elf[o..o + 8].try_into().unwrap());
    let shoff = u64_at(0x28) as usize;
    let (entsize, num, strndx) = (u16_at(0x3a), u16_at(0x3c), u16_at(0x3e));
    let names = u64_at(shoff + strndx * entsize + 0x18) as usize;
    for i in 0..num {
        let sh = shoff + i * entsize;
        let name_at = names + u32_at(sh);
        if elf[name_at..].starts_with(b".text\0") {
            return (u64_at(sh + 0x10), u64_at(sh + 0x18));
        }
    }
    panic!("no .text")
}

#[test]
fn the_timeline_is_chrome_trace_json_with_a_track_per_wave() {
    let r = runs()
        .into_iter()
        .find(|r| r.name == "lds_reduce")
        .expect("lds_reduce run");
    let elf = object(&r.object, "w32").unwrap();
    let obs = run_checked(&elf, &r, Checks::default(), true);
    let text = timeline::chrome_trace(obs.spans(), &r.kernel).to_string();
    let v: serde_json::Value = serde_json::from_str(&text).expect("valid JSON");
    let events = v["traceEvents"].as_array().unwrap();
    // 128 work-items per workgroup in wave32: 4 waves, one named track each, on SIMDs 0-3.
    let tracks: Vec<String> = events
        .iter()
        .filter(|e| e["ph"] == "M" && e["name"] == "thread_name" && e["pid"] == 0)
        .map(|e| e["args"]["name"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        tracks,
        [
            "SIMD 0 / wave 0",
            "SIMD 1 / wave 1",
            "SIMD 2 / wave 2",
            "SIMD 3 / wave 3"
        ]
    );
    let spans = |cat: &str| {
        events
            .iter()
            .filter(|e| e["ph"] == "X" && e["cat"] == cat)
            .count()
    };
    assert!(spans("inst") > 100);
    assert!(spans("barrier") > 0, "barrier waits");
    assert!(spans("wait") > 0, "s_waitcnt stalls");
    for e in events.iter().filter(|e| e["ph"] == "X") {
        assert!(e["ts"].is_u64() && e["dur"].as_u64().unwrap() >= 1);
    }
}

fn wavesim(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .current_dir(corpus().join("data"))
        .args(args)
        .output()
        .unwrap()
}

#[test]
fn cli_check_exits_3_after_writing_outputs_and_stats_show_the_issue_model() {
    let tmp = std::env::temp_dir().join(format!("wavesim-inside-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let mutant = corpus().join("check/barrier/lds_reduce.w32.19a0.hsaco");
    let out = tmp.join("out.bin");
    let tl = tmp.join("tl.json");
    let o = wavesim(&[
        "run",
        mutant.to_str().unwrap(),
        "--kernel",
        "lds_reduce",
        "--global",
        "2048",
        "--local",
        "128",
        "--arg",
        "buf:lds_reduce.a0.bin",
        "--arg",
        &format!("zeros:64:{}", out.display()),
        "--arg",
        "zeros:64",
        "--arg",
        "u32:2000",
        "--check",
        "races",
        "--timeline",
        tl.to_str().unwrap(),
        "--stats",
    ]);
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(3), "{err}");
    assert!(err.contains("races: race on LDS address"), "{err}");
    assert!(err.contains("PC 0x"), "{err}");
    assert!(out.exists(), "the outputs are written before exiting");
    let stdout = String::from_utf8_lossy(&o.stdout);
    for needle in [
        "issue cycles:",
        "lane efficiency:",
        "instruction mix:",
        "memory bytes:",
        "lds ",
        "stall cycles:",
    ] {
        assert!(stdout.contains(needle), "{needle}: {stdout}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&tl).unwrap()).unwrap();
    assert!(json["traceEvents"].as_array().unwrap().len() > 100);
    let _ = std::fs::remove_dir_all(&tmp);
}

/// CU mode vs WGP mode in the cycle model (RDNA3 ISA guide, "Work-group processor modes"): a
/// workgroup of 4 wave32 waves uses the four SIMDs of the WGP in WGP mode and the two of one CU
/// in CU mode, where two waves share each SIMD's VALU slots, so its VALU-bound parts take
/// longer. The architectural result is the same (the observer changes nothing).
#[test]
fn cu_mode_puts_a_workgroup_on_two_simds() {
    let r = runs().into_iter().find(|r| r.name == "lds_reduce").unwrap();
    let elf = object("lds_reduce", "w32").unwrap();
    let simds = |o: &Inside| {
        o.spans()
            .iter()
            .map(|s| s.simd)
            .collect::<std::collections::BTreeSet<u32>>()
    };
    let wgp = run_mode(&elf, &r, Checks::ALL, true, true);
    let cu = run_mode(&elf, &r, Checks::ALL, true, false);
    assert_eq!(simds(&wgp), [0, 1, 2, 3].into_iter().collect());
    assert_eq!(simds(&cu), [0, 1].into_iter().collect());
    assert!(wgp.findings().is_empty() && cu.findings().is_empty());
    assert!(
        cu.stats().issue_cycles >= wgp.stats().issue_cycles,
        "{} {}",
        cu.stats().issue_cycles,
        wgp.stats().issue_cycles
    );
}
