//! Code objects from untrusted files: mutated corpus `.hsaco` files go through
//! `CodeObject::parse` and, when they still parse, a small dispatch of every kernel with a
//! watchdog. Errors are fine; a panic is a bug. Mutations hit the whole file and, more often, the
//! parts that matter most: the ELF/program headers, `.text`, the kernel descriptors and the
//! msgpack metadata. Deterministic: each case is rebuilt from its seed.

mod common;

use std::path::PathBuf;
use wavesim_core::memory::DeviceMemory;
use wavesim_rdna3::codeobj::{CodeObject, ValueKind};
use wavesim_rdna3::dispatch::ExecConfig;
use wavesim_rdna3::dispatch::{self, Geometry};
use wavesim_rdna3::dispatch::{Launch, TrapHandler};
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::hsa::kernarg::{aql_packet, write_hidden_args, HiddenValues};

use common::{catch, quiet_panics, Rng};

/// A corpus file and the byte ranges worth mutating most.
struct Seed {
    name: String,
    bytes: Vec<u8>,
    /// Headers (ELF + program headers), `.text`, descriptors, metadata (file offsets).
    hot: Vec<std::ops::Range<usize>>,
}

/// Where `needle` first occurs in `hay`.
fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    if needle.is_empty() {
        return None;
    }
    hay.windows(needle.len()).position(|w| w == needle)
}

fn seeds() -> Vec<Seed> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/gfx1100-w32");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("corpus dir")
        .map(|e| e.expect("dir entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "hsaco"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for p in paths {
        let bytes = std::fs::read(&p).expect("hsaco");
        let co = CodeObject::parse(&bytes).expect("corpus code objects parse");
        // The ELF header.
        let mut hot = Vec::new();
        hot.push(0..64.min(bytes.len()));
        // Program headers: e_phoff (u64 at 32), e_phnum (u16 at 56), 56 bytes each.
        let phoff = u64::from_le_bytes(bytes[32..40].try_into().expect("8 bytes")) as usize;
        let phnum = u16::from_le_bytes([bytes[56], bytes[57]]) as usize;
        hot.push(phoff..(phoff + 56 * phnum).min(bytes.len()));
        // Section headers: e_shoff (u64 at 40), e_shnum (u16 at 60), 64 bytes each.
        let shoff = u64::from_le_bytes(bytes[40..48].try_into().expect("8 bytes")) as usize;
        let shnum = u16::from_le_bytes([bytes[60], bytes[61]]) as usize;
        hot.push(shoff.min(bytes.len())..(shoff + 64 * shnum).min(bytes.len()));
        let text = co.text();
        if let Some(at) = find(&bytes, &text[..text.len().min(32)]) {
            hot.push(at..at + text.len());
        }
        for k in &co.kernels {
            let kd = &co.image[k.kd_addr as usize..k.kd_addr as usize + 64];
            if let Some(at) = find(&bytes, kd) {
                hot.push(at..at + 64);
            }
        }
        if let Some(at) = find(&bytes, b"amdhsa.") {
            hot.push(at.saturating_sub(64)..(at + 2048).min(bytes.len()));
        }
        let name = p
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        out.push(Seed { name, bytes, hot });
    }
    assert!(out.len() >= 10, "only {} corpus code objects", out.len());
    out
}

const INTERESTING: &[u8] = &[0, 1, 0x7f, 0x80, 0xff, 0xfe, 0x40, 0x20, 0x10, 0x08];

/// A mutated copy of one corpus file.
fn mutate(rng: &mut Rng, s: &Seed) -> Vec<u8> {
    let mut b = s.bytes.clone();
    for _ in 0..1 + rng.below(6) {
        let range = if rng.pct(75) {
            s.hot[rng.below(s.hot.len() as u64) as usize].clone()
        } else {
            0..b.len()
        };
        if range.is_empty() || range.end > b.len() {
            continue;
        }
        let at = range.start + rng.below(range.len() as u64) as usize;
        match rng.below(5) {
            0 => b[at] ^= 1 << rng.below(8),
            1 => b[at] = INTERESTING[rng.below(INTERESTING.len() as u64) as usize],
            2 => b[at] = rng.next() as u8,
            3 => {
                // A random little-endian u32/u64 field (offsets, sizes, counts).
                let n = if rng.pct(50) { 4 } else { 8 };
                let v = match rng.below(4) {
                    0 => u64::MAX,
                    1 => rng.below(0x1_0000),
                    2 => 1 << rng.below(64),
                    _ => rng.next(),
                };
                for (i, byte) in v.to_le_bytes()[..n].iter().enumerate() {
                    if let Some(x) = b.get_mut(at + i) {
                        *x = *byte;
                    }
                }
            }
            _ => {
                if rng.pct(30) {
                    b.truncate(at);
                }
            }
        }
    }
    b
}

/// Largest kernarg segment the harness itself allocates (a mutated size is not the loader's
/// problem to allocate here).
const MAX_KERNARG: usize = 1 << 16;

/// Parses `bytes` and runs each kernel on a small grid; returns whether it parsed and how many
/// dispatches ran.
fn load_and_run(bytes: &[u8], rng: &mut Rng) -> (bool, u32) {
    let Ok(co) = CodeObject::parse(bytes) else {
        return (false, 0);
    };
    (true, run_kernels(&co, rng))
}

/// Loads `co` and runs each of its kernels on a small grid; returns how many dispatches ran.
fn run_kernels(co: &CodeObject, rng: &mut Rng) -> u32 {
    let _ = co.kernel_names();
    let mut mem = DeviceMemory::new();
    let Ok(base) = mem.alloc(co.image.len() as u64, 4096) else {
        return 0;
    };
    if mem.write(base, &co.image_at(base)).is_err() {
        return 0;
    }
    let Ok(prog) = Program::new(co.text(), base + co.text_addr) else {
        return 0;
    };
    // A trap handler now and then: s_endpgm at a 256-aligned address after the image.
    let trap_prog = Program::new(&0xbfb0_0000u32.to_le_bytes(), 0);
    let buf = mem.alloc(4096, 256).expect("buffer");
    let mut runs = 0;
    for k in &co.kernels {
        let _ = k.signature();
        let d = &k.descriptor;
        let local = [32, 64, 1, 7, 256][rng.below(5) as usize];
        let grid = local * (1 + rng.below(3) as u32);
        let Ok(geo) = Geometry::new(&[grid], &[local]) else {
            continue;
        };
        let size = k.meta.kernarg_segment_size.max(d.kernarg_size) as usize;
        if size > MAX_KERNARG {
            continue;
        }
        let mut kernarg = vec![0u8; size];
        for a in k.explicit_args() {
            let v = match a.kind {
                ValueKind::GlobalBuffer => buf + rng.below(64) * 4,
                _ => rng.below(64),
            };
            let at = a.offset as usize;
            let n = (a.size as usize).min(8);
            if let Some(dst) = kernarg.get_mut(at..at + n) {
                dst.copy_from_slice(&v.to_le_bytes()[..n]);
            }
        }
        let Ok(queue) = mem.alloc(256, 64) else {
            continue;
        };
        let hidden = HiddenValues {
            queue_ptr: queue,
            dynamic_lds: rng.below(2) as u32 * 256,
            ..Default::default()
        };
        write_hidden_args(&mut kernarg, &k.meta.args, &geo, &hidden);
        let Ok(kernarg_addr) = mem.alloc(size as u64 + 256, 64) else {
            continue;
        };
        let _ = mem.write(kernarg_addr, &kernarg);
        let private = d
            .private_segment_fixed_size
            .max(k.meta.private_segment_fixed_size)
            .checked_next_multiple_of(4)
            .unwrap_or(u32::MAX);
        let lds = d
            .group_segment_fixed_size
            .max(k.meta.group_segment_fixed_size)
            .saturating_add(hidden.dynamic_lds);
        let Ok(packet) = mem.alloc(64, 64) else {
            continue;
        };
        let _ = mem.write(
            packet,
            &aql_packet(
                &geo,
                private,
                lds,
                base.wrapping_add(k.kd_addr),
                kernarg_addr,
            ),
        );
        let mut launch = Launch {
            kernel_name: k.name.clone(),
            prog: &prog,
            entry: base.wrapping_add(k.entry),
            pc_display_base: base,
            wave64: !d.wave32(),
            num_vgprs: d.vgpr_count().max(k.meta.vgpr_count).clamp(1, 256) as u16,
            mode: d.initial_mode(),
            code_properties: d.kernel_code_properties,
            rsrc2: d.compute_pgm_rsrc2,
            packed_tid: true,
            geo,
            lds_bytes: lds,
            wgp_mode: d.wgp_mode(),
            scratch_lane_bytes: private,
            scratch_addr: 0,
            kernarg_addr,
            dispatch_ptr: packet,
            queue_ptr: queue,
            dispatch_id: 0,
            threads: 1,
            max_wave_insts: 20_000,
            cfg: ExecConfig::default(),
            trap: None,
            host: None,
        };
        if let (true, Ok(t)) = (rng.pct(30), &trap_prog) {
            // The handler's program is decoded at 0; TBA 0 is 256-aligned and below the image.
            launch.trap = Some(TrapHandler {
                prog: t,
                tba: 0,
                tma: buf,
            });
        }
        let scratch = launch.scratch_bytes();
        if scratch > 0 {
            if scratch > 1 << 24 {
                continue;
            }
            let Ok(a) = mem.alloc(scratch, 256) else {
                continue;
            };
            launch.scratch_addr = a;
        }
        let _ = dispatch::run(&launch, &mem);
        runs += 1;
    }
    runs
}

fn fuzz(first: u64, count: u64) {
    quiet_panics();
    let seeds = seeds();
    let mut panics: Vec<(String, String, u64)> = Vec::new();
    let (mut parsed, mut dispatches) = (0u64, 0u64);
    for case in first..first + count {
        let mut rng = Rng(case.wrapping_mul(0x2545_f491_4f6c_dd1d) ^ 0xc0de_0b1e);
        let s = &seeds[rng.below(seeds.len() as u64) as usize];
        let bytes = mutate(&mut rng, s);
        match catch(|| load_and_run(&bytes, &mut rng)) {
            Ok((ok, n)) => {
                parsed += ok as u64;
                dispatches += n as u64;
            }
            Err(msg) => {
                let at = msg.split(": ").next().unwrap_or("").to_string();
                if !panics.iter().any(|(a, _, _)| *a == at) {
                    panics.push((at, format!("{} (case {case}): {msg}", s.name), case));
                }
            }
        }
    }
    eprintln!("{count} mutated code objects, {parsed} parsed, {dispatches} dispatches");
    if !panics.is_empty() {
        let list: Vec<String> = panics.iter().map(|(_, m, _)| format!("  {m}")).collect();
        panic!("{} distinct panics:\n{}", panics.len(), list.join("\n"));
    }
    // Most mutations must still parse, or the dispatch half is not being fuzzed.
    assert!(parsed > count / 4, "only {parsed} of {count} parsed");
    assert!(dispatches > count / 4, "only {dispatches} dispatches");
}

#[test]
fn mutated_code_objects_never_panic() {
    fuzz(0, if cfg!(debug_assertions) { 600 } else { 3000 });
}

#[test]
#[ignore = "long fuzz run"]
fn mutated_code_objects_never_panic_long() {
    let n = std::env::var("WAVESIM_FUZZ_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    fuzz(1 << 32, n);
}
