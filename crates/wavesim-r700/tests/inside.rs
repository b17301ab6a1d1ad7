//! Seeing inside R700 runs on the real llc-19 corpus (corpus/r700): the static checks find nothing
//! in the untouched programs, the trace, statistics and timeline observers see every step, and
//! mutants (instruction groups removed or merged, stack pushes removed) are caught by the checks;
//! `mutant_catch_rates` prints the figures docs/INSIDE.md quotes.

use std::path::PathBuf;

use wavesim_core::observe::TraceFilter;
use wavesim_r700::decode::{AluGroup, CfKind};
use wavesim_r700::inside::check::{check, Checks, Rule};
use wavesim_r700::inside::{Inside, Stats, Timeline, Tracer};
use wavesim_r700::isa::{CfAluExec, CF_ALU};
use wavesim_r700::runner::{run, run_observed, RunConfig};
use wavesim_r700::Shader;

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/r700")
}

fn names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus().join("run"))
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| {
            e.file_name()
                .to_string_lossy()
                .trim_end_matches(".toml")
                .to_string()
        })
        .filter(|n| corpus().join("obj/rv770").join(format!("{n}.o")).exists())
        .collect();
    names.sort();
    names
}

fn load(chip: &str, name: &str) -> (Shader, RunConfig) {
    let obj = std::fs::read(corpus().join("obj").join(chip).join(format!("{name}.o"))).unwrap();
    let cfg = std::fs::read_to_string(corpus().join("run").join(format!("{name}.toml"))).unwrap();
    (
        Shader::from_object_bytes(&obj).unwrap(),
        RunConfig::from_toml(&cfg).unwrap(),
    )
}

#[test]
fn the_untouched_corpus_is_clean() {
    let names = names();
    assert!(names.len() >= 40, "{} corpus shaders", names.len());
    let mut found = Vec::new();
    for chip in ["rv770", "rv730", "rv710"] {
        for name in &names {
            let (sh, cfg) = load(chip, name);
            for f in wavesim_r700::runner::check(&sh, &cfg, Checks::ALL).unwrap() {
                found.push(format!("{chip}/{name}: {f}"));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The tracer's lines equal the statistics' steps; the statistics agree with the engine's
/// counters (CF instructions, thread-ALU-groups) and with the program (slots of each group).
#[test]
fn trace_stats_and_timeline_see_every_step() {
    let (sh, cfg) = load("rv770", "ps_loop_break_continue");
    let plain = run(&sh, &cfg).unwrap();
    let mut obs = Inside {
        tracer: Some(Tracer::new(Vec::new(), TraceFilter::default(), u64::MAX)),
        stats: Some(Stats::default()),
        timeline: Some(Timeline::default()),
    };
    let observed = run_observed(&sh, &cfg, &mut obs).unwrap();
    assert_eq!(plain.threads, observed.threads, "observing changes nothing");
    let stats = obs.stats.unwrap();
    let cf: u64 = stats.cf.values().sum();
    assert_eq!(cf, observed.cf_instructions);
    assert_eq!(stats.thread_groups, observed.lane_groups);
    assert!(stats.alu_groups > 0 && stats.alu_clauses > 0);
    let slots: u64 = stats.slots.iter().sum();
    let alu: u64 = stats.alu.values().sum();
    assert_eq!(slots, alu, "one ALU instruction per filled slot");
    let steps = cf + stats.alu_groups + stats.tex_instructions + stats.vtx_instructions;
    let tracer = obs.tracer.unwrap();
    assert_eq!(tracer.traced(), steps);
    let text = String::from_utf8(tracer.finish().unwrap()).unwrap();
    let lines = text.lines().filter(|l| l.starts_with("wg (")).count() as u64;
    assert_eq!(lines, steps);
    assert!(
        text.contains("(ALU clause of @"),
        "{}",
        &text[..text.len().min(2000)]
    );
    // A register change line names a GPR channel as llc does (T<n>.<X|Y|Z|W>).
    assert!(
        text.lines().any(|l| l.starts_with("    T")),
        "{}",
        &text[..text.len().min(2000)]
    );
    let tl = obs.timeline.unwrap();
    assert_eq!(tl.spans.len() as u64, steps);
    let json = wavesim_core::observe::chrome_trace_json(&tl.spans, "ps", "1 us = 1 step");
    assert!(json.starts_with("{\"traceEvents\": ["));
}

/// Hand-made violations, one per rule, each from the rule's statement: every one is found, and
/// found under its own name only.
#[test]
fn each_rule_finds_its_violation() {
    let (sh, _) = load("rv770", "ps_fadd_fmul");
    let base = check(&sh.program, Checks::ALL, 16);
    assert!(base.is_empty(), "{base:?}");
    // Merge the first two groups of the first multi-group clause whose slots are disjoint: if
    // the second reads PV of the first, the merged one reads PV across... a same-group read or a
    // PV read without a previous group results; at least one finding.
    let mut found_any = 0;
    for (addr, clause) in &sh.program.alu {
        for k in 0..clause.groups.len().saturating_sub(1) {
            let mut p = sh.program.clone();
            let c = p.alu.get_mut(addr).unwrap();
            if let Some(m) = merge(&c.groups[k], &c.groups[k + 1]) {
                c.groups[k] = m;
                c.groups.remove(k + 1);
                found_any += usize::from(!check(&p, Checks::ALL, 16).is_empty());
            }
        }
    }
    assert!(found_any > 0);
    // Removing the MOVA of an indexed program leaves an AR read without MOVA.
    let (sh, _) = load("rv770", "ps_private_dyn");
    let mut p = sh.program.clone();
    let mut removed = false;
    for c in p.alu.values_mut() {
        for g in &mut c.groups {
            let before = g.insts.len();
            g.insts
                .retain(|i| !matches!(i.row.exec, wavesim_r700::isa::AluExec::Mova(_)));
            removed |= g.insts.len() != before;
        }
        c.groups.retain(|g| !g.insts.is_empty());
    }
    assert!(removed, "ps_private_dyn has a MOVA");
    let f = check(&p, Checks::ALL, 16);
    assert!(f.iter().any(|f| f.rule == Rule::ArOutsideClause), "{f:?}");
    // A program with ALU_PUSH_BEFORE turned into ALU pops what it never pushed.
    let (sh, _) = load("rv770", "ps_else_tex");
    let mut p = sh.program.clone();
    let alu = CF_ALU.iter().find(|r| r.exec == CfAluExec::Alu).unwrap();
    let pos =
        p.cf.iter()
            .position(|c| matches!(c.kind, CfKind::Alu(r) if r.exec == CfAluExec::PushBefore))
            .expect("ps_else_tex pushes");
    p.cf[pos].kind = CfKind::Alu(alu);
    let f = check(&p, Checks::ALL, 16);
    assert!(f.iter().any(|f| f.rule == Rule::StackDepth), "{f:?}");
    // STACK_SIZE 0 cannot hold the push.
    let f = check(&sh.program, Checks::ALL, 0);
    assert!(f.iter().any(|f| f.rule == Rule::StackDepth), "{f:?}");
}

/// Two groups as one (a scheduler that ignored the dependency between them), if their slots are
/// disjoint and neither has literals.
fn merge(a: &AluGroup, b: &AluGroup) -> Option<AluGroup> {
    if !a.literals.is_empty() || !b.literals.is_empty() {
        return None;
    }
    if a.insts
        .iter()
        .any(|i| b.insts.iter().any(|j| j.slot == i.slot))
    {
        return None;
    }
    let mut m = a.clone();
    m.insts.extend(b.insts.iter().copied());
    m.insts.sort_by_key(|i| i.slot);
    Some(m)
}

/// What a mutant did: found by the checks, or (not found) whether its run faulted, changed the
/// exports or left them as they were.
#[derive(Default, Debug)]
struct Tally {
    mutants: u32,
    found: u32,
    fault: u32,
    changed: u32,
    same: u32,
}

fn judge(
    t: &mut Tally,
    sh: &Shader,
    p: wavesim_r700::Program,
    cfg: &RunConfig,
    want: &[wavesim_r700::runner::ThreadResult],
) {
    t.mutants += 1;
    if !check(&p, Checks::ALL, 16).is_empty() {
        t.found += 1;
        return;
    }
    let m = Shader {
        program: p,
        config: sh.config.clone(),
        entry: sh.entry.clone(),
    };
    match run(&m, cfg) {
        Err(_) => t.fault += 1,
        Ok(r) if r.threads != want => t.changed += 1,
        Ok(_) => t.same += 1,
    }
}

/// Mutants of every rv770 corpus shader: each ALU group removed, each pair of adjacent groups
/// merged into one, each ALU_PUSH_BEFORE made a plain ALU. Prints the catch rates (`cargo test -p
/// wavesim-r700 --release --test inside -- --nocapture mutant`); the figures are in
/// docs/INSIDE.md and pinned here as lower bounds.
#[test]
fn mutant_catch_rates() {
    let (mut removed, mut merged, mut pushes) =
        (Tally::default(), Tally::default(), Tally::default());
    let alu = CF_ALU.iter().find(|r| r.exec == CfAluExec::Alu).unwrap();
    for name in names() {
        let (sh, mut cfg) = load("rv770", &name);
        let want = run(&sh, &cfg).unwrap().threads;
        // A mutant that loops forever meets the watchdog soon (the corpus needs far fewer).
        cfg.max_cf_per_wave = Some(2_000);
        for (addr, clause) in &sh.program.alu {
            for k in 0..clause.groups.len() {
                let mut p = sh.program.clone();
                p.alu.get_mut(addr).unwrap().groups.remove(k);
                if p.alu[addr].groups.is_empty() {
                    continue;
                }
                judge(&mut removed, &sh, p, &cfg, &want);
                if k + 1 < clause.groups.len() {
                    if let Some(m) = merge(&clause.groups[k], &clause.groups[k + 1]) {
                        let mut p = sh.program.clone();
                        let c = p.alu.get_mut(addr).unwrap();
                        c.groups[k] = m;
                        c.groups.remove(k + 1);
                        judge(&mut merged, &sh, p, &cfg, &want);
                    }
                }
            }
        }
        for (i, c) in sh.program.cf.iter().enumerate() {
            if matches!(c.kind, CfKind::Alu(r) if r.exec == CfAluExec::PushBefore) {
                let mut p = sh.program.clone();
                p.cf[i].kind = CfKind::Alu(alu);
                judge(&mut pushes, &sh, p, &cfg, &want);
            }
        }
    }
    for (what, t) in [
        ("ALU group removed", &removed),
        ("adjacent groups merged", &merged),
        ("ALU_PUSH_BEFORE -> ALU", &pushes),
    ] {
        println!(
            "{what}: {} mutants, {} found by the checks; not found: {} fault at run time, {} change the exports, {} leave them unchanged",
            t.mutants, t.found, t.fault, t.changed, t.same
        );
    }
    assert!(removed.mutants > 100 && merged.mutants > 10 && pushes.mutants > 3);
    // The figures when this was written: 107 of 427, 25 of 102, 22 of 22.
    assert!(removed.found >= 107 && merged.found >= 25 && pushes.found == pushes.mutants);
}

/// The rules the mutants above do not reach, each on a real program changed to break it (the
/// expected finding follows from the rule's statement in `check.rs`), and the unbroken program
/// clean.
#[test]
fn hand_made_violations_of_each_remaining_rule() {
    use wavesim_r700::decode::sel;
    let rules = |p: &wavesim_r700::Program| -> Vec<Rule> {
        check(p, Checks::ALL, 16).iter().map(|f| f.rule).collect()
    };
    // KCACHE_MODE0 = 0 (CF_ALU_WORD0 bits 31:30): bank 0 locks nothing, so its KC0 reads are
    // outside the locked lines.
    let (sh, _) = load("rv770", "ps_cb_kcache");
    assert!(rules(&sh.program).is_empty());
    let mut p = sh.program.clone();
    for c in &mut p.cf {
        if matches!(c.kind, CfKind::Alu(_)) {
            c.w0 &= !(3 << 30);
        }
    }
    assert!(rules(&p).contains(&Rule::KcacheBank), "{:?}", rules(&p));
    // Constant read ports: c0.x, c1.x, c2.x are three [XY] pairs of three constants (a finding);
    // c0.x, c0.y, c1.z are two pairs, c0 [XY] and c1 [ZW] (none).
    let (sh, _) = load("rv770", "ps_fadd_fmul");
    let (addr, gi) = sh
        .program
        .alu
        .iter()
        .find_map(|(a, c)| {
            c.groups
                .iter()
                .position(|g| g.insts.len() >= 2 && g.insts[0].row.srcs >= 2)
                .map(|k| (*a, k))
        })
        .expect("a group of two instructions with two sources");
    let with = |consts: [(u16, u8); 3]| {
        let mut p = sh.program.clone();
        let g = &mut p.alu.get_mut(&addr).unwrap().groups[gi];
        for (k, (n, chan)) in consts.into_iter().enumerate() {
            let (i, s) = if k < 2 { (0, k) } else { (1, 0) };
            g.insts[i].src[s].sel = sel::CFILE + n;
            g.insts[i].src[s].chan = chan;
            g.insts[i].src[s].rel = false;
        }
        rules(&p)
    };
    assert!(with([(0, 0), (1, 0), (2, 0)]).contains(&Rule::ConstReadPorts));
    assert!(!with([(0, 0), (0, 1), (1, 2)]).contains(&Rule::ConstReadPorts));
    // Two slots of one group writing one channel.
    let mut p = sh.program.clone();
    let g = &mut p.alu.get_mut(&addr).unwrap().groups[gi];
    let (d, c) = (g.insts[0].dst_gpr, g.insts[0].dst_chan);
    g.insts[0].write = true;
    g.insts[1].write = true;
    g.insts[1].dst_gpr = d;
    g.insts[1].dst_chan = c;
    assert!(rules(&p).contains(&Rule::SameGroupGpr));
    // PV in a clause's first group: nothing precedes it in the clause.
    let mut p = sh.program.clone();
    let first = p.alu.values_mut().next().unwrap();
    first.groups[0].insts[0].src[0].sel = sel::PV;
    assert!(rules(&p).contains(&Rule::PvPsAcrossClause));
    // ps_tex_two's fetch clause samples T1 then T0; the second taking its address from T1 (TEX
    // WORD0 SRC_GPR, bits 22:16) reads what the first fetch of the clause writes.
    let (sh, _) = load("rv770", "ps_tex_two");
    assert!(rules(&sh.program).is_empty());
    let mut p = sh.program.clone();
    let clause = p.fetch.values_mut().next().unwrap();
    assert_eq!(clause.insts.len(), 2);
    clause.insts[1].w[0] = (clause.insts[1].w[0] & !(0x7f << 16)) | (1 << 16);
    assert_eq!(rules(&p), vec![Rule::TexClauseDependency]);
}

/// vs_fetch: `T0.X = FLT_TO_INT(T0.X) & 15`, then `VTX_READ_eg T0, T0.X, 0` from buffer 1 (the
/// copy of constant buffer 1: stride 16, base 0), then `EXPORT` of T0 to position 0. Thread 0's
/// T0.X is -3.0: FLT_TO_INT gives -3, & 15 gives 13, so it reads bytes 13 * 16 = 0xd0.. of cb1,
/// entry 13 = 125.0 + 2 * 13 = 151.0 (0x43170000), 151.5, 152.0, 152.5; thread 1's 0.75 gives 0:
/// bytes 0x0.. = 125.0 (0x42fa0000). The export stores the same words at pos 0x0..0xc. Every one
/// of the 40 threads reads 4 dwords and exports 4: 160 loads, 160 stores.
/// ps_tex: `TEX_SAMPLE T0.XYZW, T0.XYZW RID:0 SID:0`: thread 0 samples at its T0 = (-3.0, -0.75,
/// 1.5, 3.75), and each of the 40 threads reads resource 0 once.
#[test]
fn fetches_texture_reads_and_exports_are_seen() {
    let see = |name: &str| {
        let (shader, cfg) = load("rv770", name);
        let mut obs = Inside {
            tracer: Some(Tracer::new(Vec::new(), TraceFilter::default(), u64::MAX)),
            stats: Some(Stats::default()),
            timeline: None,
        };
        run_observed(&shader, &cfg, &mut obs).unwrap();
        let trace = String::from_utf8(obs.tracer.unwrap().finish().unwrap()).unwrap();
        (trace, obs.stats.unwrap())
    };
    let (trace, stats) = see("vs_fetch");
    let vtx = trace
        .lines()
        .find(|l| l.starts_with("    cb1 load 4B:"))
        .unwrap();
    assert!(
        vtx.starts_with("    cb1 load 4B: [0] 0xd0=0x43170000 [0] 0xd4=0x43178000 [0] 0xd8=0x43180000 [0] 0xdc=0x43188000 [1] 0x0=0x42fa0000 "),
        "{vtx}"
    );
    let pos = trace
        .lines()
        .find(|l| l.starts_with("    pos store 4B:"))
        .unwrap();
    assert!(
        pos.starts_with("    pos store 4B: [0] 0x0=0x43170000 [0] 0x4=0x43178000 [0] 0x8=0x43180000 [0] 0xc=0x43188000 [1] 0x0=0x42fa0000 "),
        "{pos}"
    );
    let count = |s: &Stats, space: &str, kind: &'static str| {
        s.accesses.get(&(space.to_string(), kind)).copied()
    };
    assert_eq!(count(&stats, "cb1", "load"), Some((160, 640)));
    assert_eq!(count(&stats, "pos", "store"), Some((160, 640)));
    assert!(stats
        .to_text()
        .contains("memory accesses:   cb1 load 160 (640 B), pos store 160 (640 B)"));

    let (trace, stats) = see("ps_tex");
    assert!(
        trace.contains(
            "\n    tex0 sample (sampler 0): [0] (-3, -0.75, 1.5, 3.75) [1] (0.75, 3, 5.25, -2.25) "
        ),
        "{trace}"
    );
    assert_eq!(stats.tex_reads.get(&0), Some(&40));
    assert_eq!(count(&stats, "pixel", "store"), Some((160, 640)));
}

/// A step debugger's memory: stopped before vs_fetch's VTX_READ (@6), it reads cb1's entry 13
/// (thread 0's address, above) and writes 10.0 (0x41200000) over its X; the buffer's VTX copy
/// (`vb1`) changes with it, and thread 0 exports 10.0 as position X.
#[test]
fn the_debugger_reads_and_writes_r700_buffers() {
    use wavesim_core::observe::{InstLoc, MemoryView, Observer};
    use wavesim_r700::exec::{Step, Wave};
    struct Poke(Vec<u32>);
    impl Observer<Wave, Step> for Poke {
        fn pause_mem(&mut self, loc: &InstLoc, _w: &mut Wave, _s: &Step, mem: &mut dyn MemoryView) {
            if loc.pc != 6 {
                return;
            }
            let space = |n: &str| mem.spaces().iter().position(|s| *s == n).unwrap();
            let (cb1, vb1) = (space("cb1"), space("vb1"));
            let mut b = [0u8; 4];
            mem.read(cb1, 0xd0, &mut b).unwrap();
            self.0.push(u32::from_le_bytes(b));
            mem.write(cb1, 0xd0, &0x4120_0000u32.to_le_bytes()).unwrap();
            mem.read(vb1, 0xd0, &mut b).unwrap();
            self.0.push(u32::from_le_bytes(b));
            assert!(mem.read(cb1, 0x10000, &mut b).is_err());
        }
    }
    let (shader, cfg) = load("rv770", "vs_fetch");
    let mut poke = Poke(Vec::new());
    let res = run_observed(&shader, &cfg, &mut poke).unwrap();
    assert_eq!(poke.0, [0x4317_0000, 0x4120_0000]);
    assert!(
        res.to_text()
            .starts_with("thread 0 pos0 = 10 151.5 152 152.5\n"),
        "{}",
        res.to_text()
    );
}
