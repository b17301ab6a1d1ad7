//! Observers and the instruction trace (`Device::dispatch_with_observer`, `TextTracer`,
//! `wavesim run --trace`): what the trace of saxpy shows (kernarg values, the ISA result of
//! v_fmac_f32 per active lane, EXEC in wave32 and wave64), the wave filter and the limit, the
//! deterministic order, and that observing a dispatch does not change its results.

use std::path::{Path, PathBuf};
use std::process::Command;
use wavesim::{
    Arg, Device, Geometry, Inst, InstLoc, Module, NoObserver, Observer, TextTracer, TraceFilter,
    Wave,
};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn read(p: &str) -> Vec<u8> {
    std::fs::read(root().join(p)).unwrap()
}

/// The example's inputs (examples/build.sh): x[i] = i / 4, y[i] = 1000 - i.
fn x(i: usize) -> f32 {
    i as f32 / 4.0
}
fn y(i: usize) -> f32 {
    1000.0 - i as f32
}

const A: f32 = 2.5;

/// A device with saxpy loaded (`file` relative to the repository) and its four arguments for
/// `n` elements; returns the device, the module and the y buffer's address.
fn saxpy(file: &str, n: u32) -> (Device, Module, Vec<Arg>, u64) {
    let mut dev = Device::new();
    let m = dev.load(&read(file)).unwrap();
    let xs: Vec<u8> = (0..1000).flat_map(|i| x(i).to_le_bytes()).collect();
    let ys: Vec<u8> = (0..1000).flat_map(|i| y(i).to_le_bytes()).collect();
    let xa = dev.alloc_with(&xs).unwrap();
    let ya = dev.alloc_with(&ys).unwrap();
    let args = vec![n.into(), A.into(), Arg::Buffer(xa), Arg::Buffer(ya)];
    (dev, m, args, ya)
}

/// The trace of saxpy over `global` work-items in groups of `local`, `n` elements.
fn trace(file: &str, n: u32, global: u32, local: u32, tracer: TextTracer<Vec<u8>>) -> String {
    let (mut dev, m, args, _) = saxpy(file, n);
    let geo = Geometry::new(&[global], &[local]).unwrap();
    let mut t = tracer;
    dev.dispatch_with_observer(&m, "saxpy", &geo, &args, &mut t)
        .unwrap();
    String::from_utf8(t.finish().unwrap()).unwrap()
}

fn entry(file: &str) -> u64 {
    let co = wavesim::CodeObject::parse(&read(file)).unwrap();
    co.kernel("saxpy").unwrap().entry
}

const W32: &str = "examples/saxpy.hsaco";
const W64: &str = "corpus/gfx1100-w64/saxpy.hsaco";

/// The line after the first instruction line that ends with `inst`, for wave `who`.
fn change_after<'a>(t: &'a str, who: &str, inst: &str) -> &'a str {
    let lines: Vec<&str> = t.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.starts_with(who) && l.ends_with(inst))
        .unwrap_or_else(|| panic!("no `{inst}` for {who} in\n{t}"));
    lines[i + 1]
}

/// The VGPR line the tracer prints for `vals` (lane, value), every lane differing from the next.
fn vgpr_line(v: u32, vals: impl Iterator<Item = (usize, u32)>) -> String {
    let mut s = format!("    v{v}:");
    for (l, b) in vals {
        s += &format!(" [{l}]={b:#010x}");
    }
    s
}

#[test]
fn saxpy_trace_starts_with_the_kernarg_loads() {
    let t = trace(W32, 1000, 32, 32, TextTracer::new(Vec::new()));
    let e = entry(W32);
    let head: Vec<&str> = t.lines().take(7).collect();
    let w = "wg (0,0,0) w 0";
    let exec = "EXEC=0xffffffff";
    assert_eq!(
        head,
        [
            format!("{w}  {e:#x}  {exec}  s_clause 0x2"),
            format!("{w}  {:#x}  {exec}  s_load_b32 s6, s[0:1], 0x24", e + 4),
            // Kernarg 0x24: hidden_group_size_x = 32, hidden_group_size_y = 1 (16 bits each).
            "    s6 = 0x00010020".to_string(),
            // Kernarg 0x40: hidden_global_offset_x = 0, which s[4:5] already held: no change.
            format!(
                "{w}  {:#x}  {exec}  s_load_b64 s[4:5], s[0:1], 0x40",
                e + 12
            ),
            format!(
                "{w}  {:#x}  {exec}  s_load_b64 s[2:3], s[0:1], null",
                e + 20
            ),
            // Kernarg 0: n = 1000 and a = 2.5f (0x40200000).
            "    s2 = 0x000003e8".to_string(),
            "    s3 = 0x40200000".to_string(),
        ]
    );
}

#[test]
fn vgpr_changes_show_the_isa_results_of_active_lanes() {
    // 40 elements over two workgroups of 32: workgroup 1 has 8 active lanes after the bounds
    // check (EXEC = 0xff), workgroup 0 all 32.
    let t = trace(W32, 40, 64, 32, TextTracer::new(Vec::new()));
    let fma = |i: usize| A.mul_add(x(i), y(i)).to_bits();
    // v_fmac_f32: v1 = s3 * v0 + v1 with one rounding (fused), s3 = a, v0 = x[i], v1 = y[i].
    let inst = "v_fmac_f32_e32 v1, s3, v0";
    let w0 = change_after(&t, "wg (0,0,0) w 0", inst);
    assert_eq!(w0, vgpr_line(1, (0..32).map(|l| (l, fma(l)))));
    let w1 = change_after(&t, "wg (1,0,0) w 0", inst);
    assert_eq!(w1, vgpr_line(1, (0..8).map(|l| (l, fma(32 + l)))));
    assert!(t.contains(&format!(
        "wg (1,0,0) w 0  {:#x}  EXEC=0x000000ff  {inst}",
        entry(W32) + 0xa0
    )));
    // The bounds check: v_cmp writes VCC_LO = lanes with i < 40, s_and_saveexec copies it.
    let cmp = change_after(&t, "wg (1,0,0) w 0", "v_cmp_gt_u32_e32 vcc_lo, s2, v0");
    assert_eq!(cmp, "    vcc_lo = 0x000000ff");
    // v_add_co_ci_u32 v1 = s5 + 0 + carry = 0 in every lane (the high half of the address
    // offset): one value for all active lanes.
    let hi = change_after(
        &t,
        "wg (0,0,0) w 0",
        "v_add_co_ci_u32_e64 v1, null, s5, 0, s4",
    );
    assert_eq!(hi, "    v1 = 0x00000000 (all active lanes)");
    // s_and_b32 sets SCC = result != 0.
    let lines: Vec<&str> = t.lines().collect();
    let i = lines
        .iter()
        .position(|l| l.ends_with("s_and_b32 s6, s6, 0xffff"))
        .unwrap();
    assert_eq!(lines[i + 1..i + 3], ["    s6 = 0x00000020", "    scc = 1"]);
}

#[test]
fn wave64_trace_shows_64_bit_exec() {
    // One wave64 workgroup of 64 work-items, 40 elements: v_cmpx writes EXEC = lanes 0..39.
    let t = trace(W64, 40, 64, 64, TextTracer::new(Vec::new()));
    let first = t.lines().next().unwrap();
    assert_eq!(
        first,
        format!(
            "wg (0,0,0) w 0  {:#x}  EXEC=0xffffffffffffffff  s_clause 0x2",
            entry(W64)
        )
    );
    let cmpx = change_after(&t, "wg (0,0,0) w 0", "v_cmpx_gt_u32_e64 s4, v0");
    assert_eq!(cmpx, "    exec = 0x000000ffffffffff");
    let fma = |i: usize| A.mul_add(x(i), y(i)).to_bits();
    let v = change_after(&t, "wg (0,0,0) w 0", "v_fmac_f32_e32 v1, s5, v0");
    assert_eq!(v, vgpr_line(1, (0..40).map(|l| (l, fma(l)))));
    assert!(t.contains("EXEC=0x000000ffffffffff  v_fmac_f32_e32 v1, s5, v0"));
}

/// (workgroup, wave) of every instruction line.
fn waves_of(t: &str) -> Vec<(String, String)> {
    t.lines()
        .filter(|l| l.starts_with("wg "))
        .map(|l| {
            let mut p = l.split("  ");
            let who = p.next().unwrap();
            let (wg, w) = who.split_once(" w ").unwrap();
            (wg.to_string(), w.to_string())
        })
        .collect()
}

#[test]
fn the_filter_selects_workgroups_and_waves() {
    // 3 workgroups of 64 work-items = 2 wave32 waves each.
    let all = trace(W32, 1000, 192, 64, TextTracer::new(Vec::new()));
    let f = TraceFilter::parse("wg=1").unwrap();
    let t = trace(
        W32,
        1000,
        192,
        64,
        TextTracer::new(Vec::new()).with_filter(f),
    );
    let ws = waves_of(&t);
    assert!(!ws.is_empty());
    assert!(ws.iter().all(|(wg, _)| wg == "wg (1,0,0)"), "{t}");
    assert!(ws.iter().any(|(_, w)| w == "0") && ws.iter().any(|(_, w)| w == "1"));
    // Exactly the lines of workgroup 1 in the full trace, in the same order.
    let mut from_all = String::new();
    let mut keep = false;
    for l in all.lines() {
        if l.starts_with("wg ") {
            keep = l.starts_with("wg (1,0,0)");
        }
        if keep {
            from_all += l;
            from_all.push('\n');
        }
    }
    assert_eq!(t, from_all);

    let f = TraceFilter::parse("wg=2,0,0,wave=1").unwrap();
    let t = trace(
        W32,
        1000,
        192,
        64,
        TextTracer::new(Vec::new()).with_filter(f),
    );
    let ws = waves_of(&t);
    assert!(!ws.is_empty());
    assert!(ws.iter().all(|(wg, w)| wg == "wg (2,0,0)" && w == "1"));
    // Wave 1 of workgroup 2 is work-items 160..191: v0 = global id after v_add_co_u32.
    let v0 = change_after(&t, "wg (2,0,0) w 1", "v_add_co_u32 v0, s4, s4, v1");
    assert_eq!(v0, vgpr_line(0, (0..32).map(|l| (l, 160 + l as u32))));

    // A wave that does not exist: an empty trace.
    let f = TraceFilter::parse("wg=7").unwrap();
    assert_eq!(
        trace(
            W32,
            1000,
            192,
            64,
            TextTracer::new(Vec::new()).with_filter(f)
        ),
        ""
    );
}

#[test]
fn the_limit_cuts_the_trace_with_a_note() {
    let full = trace(W32, 1000, 64, 32, TextTracer::new(Vec::new()));
    let n = waves_of(&full).len() as u64;
    assert!(n > 20);
    let t = trace(W32, 1000, 64, 32, TextTracer::new(Vec::new()).with_limit(5));
    let lines: Vec<&str> = t.lines().collect();
    assert_eq!(waves_of(&t).len(), 5);
    assert_eq!(
        *lines.last().unwrap(),
        "... trace cut after 5 instructions (trace limit); the dispatch ran on"
    );
    // The first five instructions of the full trace, with their changes.
    assert!(full.starts_with(&lines[..lines.len() - 1].join("\n")));
    // A limit the run does not reach leaves the trace whole, without a note.
    let t = trace(W32, 1000, 64, 32, TextTracer::new(Vec::new()).with_limit(n));
    assert_eq!(t, full);
    assert!(!t.contains("trace cut"));
}

/// Counts hook calls and records the order of (workgroup, wave) switches.
#[derive(Default)]
struct Counter {
    before: u64,
    after: u64,
    order: Vec<([u32; 3], u32)>,
    pcs_ok: bool,
}

impl Observer<Wave, Inst> for Counter {
    fn before(&mut self, loc: &InstLoc, w: &Wave, _: &Inst) {
        self.before += 1;
        // Before the instruction runs the wave's PC is the instruction's address.
        self.pcs_ok &= w.pc == loc.addr && !loc.trap_handler;
        let key = (loc.workgroup, loc.wave);
        if self.order.last() != Some(&key) {
            self.order.push(key);
        }
    }
    fn after(&mut self, _: &InstLoc, _: &Wave, _: &Inst) {
        self.after += 1;
    }
}

#[test]
fn observing_does_not_change_results_and_runs_in_order() {
    let geo = Geometry::new(&[1000], &[64]).unwrap();
    let run = |obs: &mut dyn Observer<Wave, Inst>| {
        let (mut dev, m, args, ya) = saxpy(W32, 1000);
        // Two threads: an observer makes the dispatch run on the calling thread in order.
        dev.threads = 2;
        let s = dev
            .dispatch_with_observer(&m, "saxpy", &geo, &args, obs)
            .unwrap();
        (s, dev.read_vec(ya, 4000).unwrap())
    };
    let (plain, out) = {
        let (mut dev, m, args, ya) = saxpy(W32, 1000);
        dev.threads = 2;
        let s = dev.dispatch(&m, "saxpy", &geo, &args).unwrap();
        (s, dev.read_vec(ya, 4000).unwrap())
    };
    let expect: Vec<u8> = (0..1000)
        .flat_map(|i| A.mul_add(x(i), y(i)).to_le_bytes())
        .collect();
    assert_eq!(out, expect);
    let mut c = Counter {
        pcs_ok: true,
        ..Default::default()
    };
    let mut tracer = TextTracer::new(std::io::sink());
    for obs in [
        &mut NoObserver as &mut dyn Observer<Wave, Inst>,
        &mut c,
        &mut tracer,
    ] {
        let (s, o) = run(obs);
        assert_eq!(o, expect);
        assert_eq!(
            (
                s.workgroups,
                s.waves,
                s.wave_instructions,
                s.lane_instructions
            ),
            (
                plain.workgroups,
                plain.waves,
                plain.wave_instructions,
                plain.lane_instructions
            )
        );
    }
    assert_eq!(c.before, plain.wave_instructions);
    assert_eq!(c.after, plain.wave_instructions);
    assert!(c.pcs_ok);
    // 16 workgroups of 2 waves, in order; a wave runs to its end (no barriers in saxpy).
    let order: Vec<([u32; 3], u32)> = (0..16u32)
        .flat_map(|g| [([g, 0, 0], 0), ([g, 0, 0], 1)])
        .collect();
    assert_eq!(c.order, order);
}

fn wavesim(args: &[&str], dir: &Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .args(args)
        .current_dir(dir)
        .output()
        .unwrap()
}

#[test]
fn cli_trace_to_stdout_and_to_a_file_and_errors_at_the_end() {
    let dir = std::env::temp_dir().join(format!("wavesim-trace-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ex = root().join("examples");
    let hsaco = ex.join("saxpy.hsaco");
    let (xs, ys) = (ex.join("x.bin"), ex.join("y.bin"));
    let base = [
        "run",
        hsaco.to_str().unwrap(),
        "--kernel",
        "saxpy",
        "--global",
        "64",
        "--local",
        "32",
        "--arg",
        "u32:40",
        "--arg",
        "f32:2.5",
    ];
    let xarg = format!("buf:{}", xs.display());
    let yarg = format!("buf:{}:out.bin", ys.display());
    let mut args: Vec<&str> = base.to_vec();
    args.extend([
        "--arg",
        &xarg,
        "--arg",
        &yarg,
        "--trace",
        "--trace-filter",
        "wg=1",
        "--threads",
        "2",
    ]);
    let o = wavesim(&args, &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out = String::from_utf8(o.stdout).unwrap();
    let api = trace(
        W32,
        40,
        64,
        32,
        TextTracer::new(Vec::new()).with_filter(TraceFilter::parse("wg=1").unwrap()),
    );
    assert_eq!(out, api);
    // The outputs are still written.
    let y_out = std::fs::read(dir.join("out.bin")).unwrap();
    assert_eq!(&y_out[128..132], &A.mul_add(x(32), y(32)).to_le_bytes());

    // --trace-out and --trace-limit: the trace goes to the file, stdout stays empty.
    let mut args2 = args.clone();
    args2.extend(["--trace-out", "t.txt", "--trace-limit", "3"]);
    let o = wavesim(&args2, &dir);
    assert!(o.status.success());
    assert!(o.stdout.is_empty());
    let file = std::fs::read_to_string(dir.join("t.txt")).unwrap();
    assert_eq!(waves_of(&file).len(), 3);
    assert!(
        file.ends_with("... trace cut after 3 instructions (trace limit); the dispatch ran on\n")
    );

    // A faulting run (x is a 16-byte buffer, lanes 4.. read past it): the trace ends with the
    // faulting instruction and the error is one line on stderr.
    std::fs::write(dir.join("small.bin"), [0u8; 16]).unwrap();
    let mut args3: Vec<&str> = base.to_vec();
    args3.extend(["--arg", "buf:small.bin", "--arg", &yarg, "--trace"]);
    let o = wavesim(&args3, &dir);
    assert!(!o.status.success());
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("memory fault") && err.contains("global_load_b32 v0, v[1:2], off"),
        "{err}"
    );
    let out = String::from_utf8(o.stdout).unwrap();
    let last = out.lines().rfind(|l| l.starts_with("wg ")).unwrap();
    assert!(last.ends_with("global_load_b32 v0, v[1:2], off"), "{last}");

    // Bad filters and trace options without --trace are refused.
    let mut args4 = args.clone();
    args4.extend(["--trace-filter", "wave=x"]);
    let o = wavesim(&args4, &dir);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("wg=X[,Y[,Z]]"));
    let mut args5 = args.clone();
    args5.extend(["--trace-filter", "wg=2"]);
    let o = wavesim(&args5, &dir);
    assert!(!o.status.success());
    assert!(String::from_utf8_lossy(&o.stderr).contains("select no wave"));
    let mut args6: Vec<&str> = base.to_vec();
    args6.extend(["--arg", &xarg, "--arg", &yarg, "--trace-limit", "3"]);
    assert!(!wavesim(&args6, &dir).status.success());
    let _ = std::fs::remove_dir_all(&dir);
}
