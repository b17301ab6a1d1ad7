//! GLOBAL and DS loads and stores compiled into JIT blocks (`jit::select::MemOp`): a wave-wide
//! check (some lane active; every active lane's address aligned; one allocation or LDS holding
//! them all)
//! guards host loads and stores; anything else runs the interpreter's handler. These tests
//! compare the complete wave state, device memory, LDS and outcome (error text included) bit
//! for bit between `Engine::Interp`, `Engine::Jit` and `Engine::Auto`, on hand-written cases
//! whose values follow from the ISA rule and on random flushed-mode programs that mix the
//! memory forms (in range, out of range, misaligned, partial EXEC, every alignment mode) with
//! float arithmetic.
//!
//! Encodings (checked against `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding`):
//! GLOBAL: word0 = 0xdc000000 | op << 18 | 2 << 16 | offset[12:0], word1 = addr | data << 8 |
//! saddr << 16 | vdst << 24 (saddr 0x7c: off). DS: word0 = 0xd8000000 | op << 18 | offset1 << 8
//! | offset0, word1 = addr | data0 << 8 | data1 << 16 | vdst << 24.

mod common;

use common::Rng;
use wavesim_rdna3::decode::decode;
use wavesim_rdna3::exec::operand::SHARED_APERTURE;
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::jit::{compile_stats, Engine};
use wavesim_rdna3::testing::{fill_byte, Harness, S_ENDPGM};
use wavesim_rdna3::wave::Wave;

const OFF: u32 = 0x7c;

fn global(op: u32, offset: i32, addr: u32, data: u32, saddr: u32, vdst: u32) -> [u32; 2] {
    [
        0xdc00_0000 | op << 18 | 2 << 16 | (offset as u32 & 0x1fff),
        addr | data << 8 | saddr << 16 | vdst << 24,
    ]
}

/// FLAT (segment 0): word0 = 0xdc000000 | op << 18 | offset[12:0] (the executor uses bits 11:0),
/// word1 as GLOBAL's with saddr off.
fn flat(op: u32, offset: u32, addr: u32, data: u32, vdst: u32) -> [u32; 2] {
    [
        0xdc00_0000 | op << 18 | (offset & 0x1fff),
        addr | data << 8 | OFF << 16 | vdst << 24,
    ]
}

fn ds(op: u32, off0: u32, off1: u32, addr: u32, d0: u32, d1: u32, vdst: u32) -> [u32; 2] {
    [
        0xd800_0000 | op << 18 | off1 << 8 | off0,
        addr | d0 << 8 | d1 << 16 | vdst << 24,
    ]
}

// Opcodes (RDNA3 ISA, FLAT/GLOBAL and DS opcode tables) with the dwords they move.
const GLOBAL_LOADS: [(u32, u32, &str); 4] = [
    (20, 1, "global_load_b32"),
    (21, 2, "global_load_b64"),
    (22, 3, "global_load_b96"),
    (23, 4, "global_load_b128"),
];
const GLOBAL_STORES: [(u32, u32, &str); 4] = [
    (26, 1, "global_store_b32"),
    (27, 2, "global_store_b64"),
    (28, 3, "global_store_b96"),
    (29, 4, "global_store_b128"),
];
/// Sub-dword GLOBAL/FLAT loads (op, bytes, name; the FLAT names start with flat_).
const SUB_LOADS: [(u32, u32, &str); 10] = [
    (0x10, 1, "global_load_u8"),
    (0x11, 1, "global_load_i8"),
    (0x12, 2, "global_load_u16"),
    (0x13, 2, "global_load_i16"),
    (0x1e, 1, "global_load_d16_u8"),
    (0x1f, 1, "global_load_d16_i8"),
    (0x20, 2, "global_load_d16_b16"),
    (0x21, 1, "global_load_d16_hi_u8"),
    (0x22, 1, "global_load_d16_hi_i8"),
    (0x23, 2, "global_load_d16_hi_b16"),
];
const SUB_STORES: [(u32, u32, &str); 4] = [
    (0x18, 1, "global_store_b8"),
    (0x19, 2, "global_store_b16"),
    (0x24, 1, "global_store_d16_hi_b8"),
    (0x25, 2, "global_store_d16_hi_b16"),
];
/// (op, dwords per element, 2addr, stride64, name).
const DS_LOADS: [(u32, u32, bool, bool, &str); 8] = [
    (54, 1, false, false, "ds_load_b32"),
    (118, 2, false, false, "ds_load_b64"),
    (255, 4, false, false, "ds_load_b128"),
    (55, 1, true, false, "ds_load_2addr_b32"),
    (56, 1, true, true, "ds_load_2addr_stride64_b32"),
    (119, 2, true, false, "ds_load_2addr_b64"),
    (120, 2, true, true, "ds_load_2addr_stride64_b64"),
    (254, 3, false, false, "ds_load_b96"),
];
const DS_STORES: [(u32, u32, bool, bool, &str); 8] = [
    (13, 1, false, false, "ds_store_b32"),
    (77, 2, false, false, "ds_store_b64"),
    (223, 4, false, false, "ds_store_b128"),
    (14, 1, true, false, "ds_store_2addr_b32"),
    (15, 1, true, true, "ds_store_2addr_stride64_b32"),
    (78, 2, true, false, "ds_store_2addr_b64"),
    (79, 2, true, true, "ds_store_2addr_stride64_b64"),
    (222, 3, false, false, "ds_store_b96"),
];

const WAIT0: u32 = 0xbf89_0000; // s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
const S_NOP0: u32 = 0xbf80_0000; // s_nop 0

fn prog(words: &[u32]) -> Program {
    let mut w = words.to_vec();
    w.push(S_ENDPGM);
    let bytes: Vec<u8> = w.iter().flat_map(|w| w.to_le_bytes()).collect();
    Program::new(&bytes, 0).expect("the program decodes")
}

/// Two 4 KiB buffers (A, B) filled with `fill_byte`, their addresses in s[0:1] and s[2:3].
fn harness(wave64: bool) -> (Harness, u64, u64) {
    let mut h = Harness::new(wave64);
    h.wave = Wave::new(wave64, 64);
    h.wave.set_exec(u64::MAX);
    let a = h.filled_buffer().expect("buffer A");
    let b = h.filled_buffer().expect("buffer B");
    h.wave.sgpr[0] = a as u32;
    h.wave.sgpr[1] = (a >> 32) as u32;
    h.wave.sgpr[2] = b as u32;
    h.wave.sgpr[3] = (b >> 32) as u32;
    for (i, x) in h.lds.iter_mut().enumerate() {
        *x = (i * 13 + 5) as u8;
    }
    (h, a, b)
}

/// Everything a run can change: outcome, wave state, every allocation's bytes, LDS.
fn outcome(mut h: Harness, prog: &Program, engine: Engine) -> (String, Vec<u8>, Vec<u8>) {
    h.cfg.engine = engine;
    h.wave.pc = 0;
    let r = h.run_program(prog, 5000);
    let mut mem = Vec::new();
    for region in h.mem.regions() {
        let mut m = vec![0u8; region.len() as usize];
        h.mem.read(region.base(), &mut m).expect("reads");
        mem.extend(m);
    }
    (format!("outcome {r:?}\nwave {:?}", h.wave), mem, h.lds)
}

/// Runs `prog` on copies of the state `make` builds under the three engines; panics with
/// `what` on the first difference; returns the interpreter's outcome text and memory.
fn same(what: &str, prog: &Program, make: &dyn Fn() -> Harness) -> (String, Vec<u8>, Vec<u8>) {
    wavesim_rdna3::jit::verify_ir(true);
    let want = outcome(make(), prog, Engine::Interp);
    for engine in [Engine::Jit, Engine::Auto] {
        let got = outcome(make(), prog, engine);
        assert!(
            want.1 == got.1,
            "{what}: device memory differs under {engine}"
        );
        assert!(want.2 == got.2, "{what}: LDS differs under {engine}");
        if want.0 != got.0 {
            let (a, b) = want
                .0
                .lines()
                .zip(got.0.lines())
                .find(|(a, b)| a != b)
                .unwrap_or_default();
            let at = a.bytes().zip(b.bytes()).take_while(|(x, y)| x == y).count();
            let from = at.saturating_sub(100);
            panic!(
                "{what}: state under {engine} differs:\ninterp ...{}\n{engine}    ...{}",
                &a[from..(at + 80).min(a.len())],
                &b[from..(at + 80).min(b.len())]
            );
        }
    }
    want
}

#[test]
fn the_encodings_are_the_instructions_named() {
    for (op, _, name) in GLOBAL_LOADS.iter().chain(&GLOBAL_STORES) {
        let w = global(*op, 0, 0, 0, OFF, 0);
        let bytes: Vec<u8> = w.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(decode(&bytes, 0).expect("decodes").op.name(), *name);
    }
    for (op, _, name) in SUB_LOADS.iter().chain(&SUB_STORES) {
        let w = global(*op, 0, 0, 0, OFF, 0);
        let bytes: Vec<u8> = w.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(decode(&bytes, 0).expect("decodes").op.name(), *name);
    }
    let all = GLOBAL_LOADS.iter().chain(&GLOBAL_STORES);
    for (op, _, name) in all.chain(&SUB_LOADS).chain(&SUB_STORES) {
        let w = flat(*op, 0, 0, 0, 0);
        let bytes: Vec<u8> = w.iter().flat_map(|w| w.to_le_bytes()).collect();
        let want = name.replace("global_", "flat_");
        assert_eq!(decode(&bytes, 0).expect("decodes").op.name(), want);
    }
    for (op, _, _, _, name) in DS_LOADS.iter().chain(&DS_STORES) {
        let w = ds(*op, 0, 0, 0, 0, 0, 0);
        let bytes: Vec<u8> = w.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(decode(&bytes, 0).expect("decodes").op.name(), *name);
    }
}

#[test]
fn global_loads_read_what_the_isa_addresses() {
    // global_load_b64 v[10:11], v4, s[0:1] offset:8 (saddr form: address = s[0:1] + v4 + 8,
    // RDNA3 ISA 11.2) with v4 = 16 * lane; then global_load_b128 v[12:15], v[0:1], off
    // offset:-16 (64-bit address v[0:1] + offset) with v[0:1] = A + 32 * lane + 16.
    // Dword k of the bytes at buffer offset o is LE(fill(o + 4k) .. fill(o + 4k + 3)).
    let mut words = Vec::new();
    words.extend(global(21, 8, 4, 0, 0, 10));
    words.extend(global(23, -16, 0, 0, OFF, 12));
    words.push(WAIT0);
    let p = prog(&words);
    for wave64 in [false, true] {
        let make = || {
            let (mut h, a, _) = harness(wave64);
            h.set_v(4, |l| 16 * l as u32);
            h.set_v(0, |l| (a + 32 * l as u64 + 16) as u32);
            h.set_v(1, |l| ((a + 32 * l as u64 + 16) >> 32) as u32);
            h
        };
        same("global loads", &p, &make);
        let mut h = make();
        h.cfg.engine = Engine::Jit;
        h.wave.pc = 0;
        h.run_program(&p, 100).expect("runs");
        let dword = |o: usize| u32::from_le_bytes([0, 1, 2, 3].map(|k| fill_byte(o + k)));
        for l in 0..h.wave.lanes() {
            for k in 0..2 {
                assert_eq!(
                    h.v(10 + k, l),
                    dword(16 * l + 8 + 4 * k),
                    "lane {l} v{}",
                    10 + k
                );
            }
            for k in 0..4 {
                assert_eq!(
                    h.v(12 + k, l),
                    dword(32 * l + 4 * k),
                    "lane {l} v{}",
                    12 + k
                );
            }
        }
        // ISA: each load counts once in VM_CNT; s_waitcnt 0 lowers it to 0 again.
        assert_eq!(h.wave.cnt.vm, 0);
    }
}

#[test]
fn global_stores_write_every_dword_and_faults_are_the_interpreters() {
    // global_store_b96 v4, v[20:22], s[2:3] offset:4: bytes B + 16 * lane + 4 .. + 16 get
    // v20, v21, v22 (LE). Then the same store with one lane past the end of B (a fault named
    // for that lane, nothing written by the faulting store), and with a misaligned lane under
    // STRICT alignment (MEMVIOL).
    let words: Vec<u32> = global(28, 4, 4, 20, 2, 0).to_vec();
    let p = prog(&words);
    for wave64 in [false, true] {
        let make = |bad: Option<(usize, u32)>, mode: u8| {
            let (mut h, _, _) = harness(wave64);
            h.cfg.alignment_mode = mode;
            h.set_v(4, |l| match bad {
                Some((lane, v)) if lane == l => v,
                _ => 16 * l as u32,
            });
            for r in 20..23 {
                h.set_v(r, |l| (r as u32) << 24 | l as u32);
            }
            h
        };
        let (text, mem, _) = same("store in range", &p, &|| make(None, 3));
        assert!(text.starts_with("outcome Ok"), "{text}");
        let lanes = if wave64 { 64 } else { 32 };
        for l in 0..lanes {
            for k in 0..3usize {
                let o = 4096 + 16 * l + 4 + 4 * k;
                let got = u32::from_le_bytes(mem[o..o + 4].try_into().expect("4 bytes"));
                assert_eq!(got, (20 + k as u32) << 24 | l as u32, "lane {l} dword {k}");
            }
        }
        let (text, _, _) = same("store out of range", &p, &|| make(Some((7, 4090)), 3));
        assert!(text.contains("lane: 7"), "{text}");
        let (text, _, _) = same("misaligned store, STRICT", &p, &|| make(Some((3, 18)), 2));
        assert!(text.contains("MemViol"), "{text}");
        // DWORD mode: the address's low bits are cleared (RDNA3 ISA guide, "Alignment").
        let (text, _, _) = same("misaligned store, DWORD", &p, &|| make(Some((3, 18)), 0));
        assert!(text.starts_with("outcome Ok"), "{text}");
    }
}

#[test]
fn lds_loads_and_stores_follow_the_out_of_range_rules() {
    // ds_store_2addr_b32 v7, v20, v21 offset0:1 offset1:3 (element size 4: bytes v7 + 4 and
    // v7 + 12), ds_load_b64 v[10:11], v7 offset:4 (v20 and the old LDS dword at v7 + 8),
    // ds_load_2addr_stride64_b32 v[12:13], v7 offset0:0 offset1:1 (v7 and v7 + 256).
    let mut words = Vec::new();
    words.extend(ds(14, 1, 3, 7, 20, 21, 0));
    words.extend(ds(118, 4, 0, 7, 0, 0, 10));
    words.extend(ds(56, 0, 1, 7, 0, 0, 12));
    words.push(WAIT0);
    let p = prog(&words);
    for wave64 in [false, true] {
        let make = |lds_len: usize, bad: Option<(usize, u32)>| {
            let (mut h, _, _) = harness(wave64);
            h.lds.truncate(lds_len);
            h.set_v(7, |l| match bad {
                Some((lane, v)) if lane == l => v,
                _ => 16 * l as u32,
            });
            h.set_v(20, |l| 0x2000 + l as u32);
            h.set_v(21, |l| 0x2100 + l as u32);
            h
        };
        let (text, _, lds) = same("LDS in range", &p, &|| make(65536, None));
        assert!(text.starts_with("outcome Ok"), "{text}");
        let lanes = if wave64 { 64 } else { 32 };
        for l in 0..lanes {
            let at = |o: usize| u32::from_le_bytes(lds[o..o + 4].try_into().expect("4 bytes"));
            assert_eq!(at(16 * l + 4), 0x2000 + l as u32);
            assert_eq!(at(16 * l + 12), 0x2100 + l as u32);
        }
        // A lane past the end: its stores are dropped and its loads read 0 (RDNA3 ISA guide,
        // "LDS/GDS alignment and out of range"); the other lanes as before.
        same("LDS lane out of range", &p, &|| {
            make(65536, Some((5, 65530)))
        });
        same("small LDS", &p, &|| make(1024, None));
        same("misaligned LDS lane", &p, &|| make(65536, Some((2, 34))));
    }
}

/// A random flushed-mode program of GLOBAL and DS loads and stores, float arithmetic and
/// waits, and the state it starts from.
fn fuzz_case(seed: u64) -> (Vec<u32>, Box<dyn Fn() -> Harness>) {
    let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x2323);
    let wave64 = rng.pct(50);
    let mut words = Vec::new();
    for _ in 0..4 + rng.below(16) {
        let data = 16 + rng.below(40) as u32;
        match rng.below(10) {
            0 if rng.pct(50) => {
                // FLAT: global addresses (v[0:1], v[2:3]) or the LDS aperture (v[10:11]).
                let addr = rng.pick(&[0, 2, 10]);
                let off = rng.pick(&[0, 4, 16, 0x1008, 2]);
                if rng.pct(60) {
                    let (op, _, _) = rng.pick(&GLOBAL_LOADS);
                    words.extend(flat(op, off, addr, 0, data));
                } else {
                    let (op, _, _) = rng.pick(&GLOBAL_STORES);
                    words.extend(flat(op, off, addr, data, 0));
                }
            }
            1 if rng.pct(50) => {
                // Sub-dword GLOBAL or FLAT forms, any byte offset.
                let (addr, saddr) = rng.pick(&[(0, OFF), (2, OFF), (4, 0), (5, 2), (6, 4)]);
                let off = rng.pick(&[0, 1, 2, 3, 5, 6, -3, -2]);
                let (op, _, _) = if rng.pct(60) {
                    rng.pick(&SUB_LOADS)
                } else {
                    rng.pick(&SUB_STORES)
                };
                let store = SUB_STORES.iter().any(|s| s.0 == op);
                let (d, v) = if store { (data, 0) } else { (0, data) };
                if rng.pct(30) && addr < 4 {
                    words.extend(flat(op, off as u32 & 0xfff, addr, d, v));
                } else {
                    words.extend(global(op, off, addr, d, saddr, v));
                }
            }
            0..=2 => {
                let (op, _, _) = rng.pick(&GLOBAL_LOADS);
                let (addr, saddr) = rng.pick(&[(0, OFF), (2, OFF), (4, 0), (5, 2), (6, 4), (4, 2)]);
                let off = rng.pick(&[0, 4, 8, 16, -16, -4, 2, 4092]);
                words.extend(global(op, off, addr, 0, saddr, data));
            }
            3..=4 => {
                let (op, _, _) = rng.pick(&GLOBAL_STORES);
                let (addr, saddr) = rng.pick(&[(0, OFF), (2, OFF), (4, 0), (5, 2), (6, 4)]);
                let off = rng.pick(&[0, 4, 8, 16, -16, 2]);
                words.extend(global(op, off, addr, data, saddr, 0));
            }
            5..=6 => {
                let (op, _, two, _, _) = rng.pick(&DS_LOADS);
                let (o0, o1) = if two {
                    (rng.below(8) as u32, rng.below(8) as u32)
                } else {
                    (rng.pick(&[0, 4, 8, 16, 2, 65532]), 0)
                };
                let addr = rng.pick(&[7, 8, 9]);
                words.extend(ds(op, o0, o1, addr, 0, 0, data));
            }
            7 => {
                let (op, _, two, _, _) = rng.pick(&DS_STORES);
                let (o0, o1) = if two {
                    (rng.below(8) as u32, rng.below(8) as u32)
                } else {
                    (rng.pick(&[0, 4, 8, 16, 2]), 0)
                };
                let addr = rng.pick(&[7, 8, 9]);
                let d1 = 16 + rng.below(40) as u32;
                words.extend(ds(op, o0 & 0xff, o1 | (o0 >> 8), addr, data, d1, 0));
            }
            8 => {
                // v_add_f32 / v_mul_f32 / v_fmac_f32 (VOP2 3, 8, 43) on data rows.
                let op = rng.pick(&[3u32, 8, 43]);
                let (a, b) = (16 + rng.below(40) as u32, 16 + rng.below(40) as u32);
                words.push(op << 25 | data << 17 | b << 9 | (256 + a));
            }
            9 if rng.pct(70) => {
                // MUBUF loads and stores through the V#s in s[8:11] (A) and s[12:15] (B),
                // vaddr rows 4..9 as index and/or offset, soffset s16, 0 or 4.
                let (op, _, _) = match rng.below(4) {
                    0 => rng.pick(&GLOBAL_LOADS),
                    1 => rng.pick(&GLOBAL_STORES),
                    2 => rng.pick(&SUB_LOADS),
                    _ => rng.pick(&SUB_STORES),
                };
                let en = rng.below(4) as u32;
                let vaddr = 4 + rng.below(if en == 3 { 5 } else { 6 }) as u32;
                let off = rng.pick(&[0, 4, 8, 1, 2, 3, 0xffc, 16]);
                let srsrc = rng.pick(&[8, 12]);
                let soff = rng.pick(&[16, 0x80, 0x84, 0x7c]);
                // vdata: the destination of a load, the source of a store.
                words.extend(mubuf(op, off, vaddr, data, srsrc, soff, en));
            }
            _ => words.push(WAIT0),
        }
    }
    // The V#s (`Vs`): mostly raw and in range, sometimes short, structured, unchecked, null,
    // swizzled or of image type.
    let vsharps: Vec<(u32, u32, u32, u32, bool, u32, u32)> = (0..2)
        .map(|_| {
            let records = rng.pick(&[4096, 4096, 4000, 1000, 64, 0, 3]);
            let (stride, oob) =
                rng.pick(&[(0, 3), (0, 3), (16, 3), (16, 1), (16, 0), (4, 0), (8, 2)]);
            let swizzle = if rng.pct(10) { rng.pick(&[1, 3]) } else { 0 };
            let add_tid = rng.pct(5);
            let rtype = if rng.pct(5) { 2 } else { 0 };
            (
                records,
                stride,
                oob,
                swizzle,
                add_tid,
                rtype,
                rng.pick(&[0, 4, 64, 4092]),
            )
        })
        .collect();
    let exec = match rng.below(5) {
        0 => rng.next(),
        _ => u64::MAX,
    };
    let mode = rng.below(4) as u8;
    let lds_len = rng.pick(&[65536usize, 4096, 1000]);
    // One lane's address made odd, out of range or huge, sometimes.
    let bad = rng
        .pct(30)
        .then(|| (rng.below(64) as usize, rng.below(10) as u32, rng.u32()));
    // MODE: run_asm's 0x3c0 (f32 denormals flushed), all kept, or any other flushing.
    let any = 0x300 | (rng.below(15) as u32) << 4;
    let fmode = rng.pick(&[0x3c0u32, 0x3c0, 0x0f0, any]);
    let vals: Vec<u32> = (0..40 * 64)
        .map(|_| match rng.below(4) {
            0 => rng.u32() & 0x807f_ffff,
            _ => rng.u32(),
        })
        .collect();
    let make = move || {
        let (mut h, a, b) = harness(wave64);
        h.cfg.alignment_mode = mode;
        h.lds.truncate(lds_len);
        h.wave.hw.mode = fmode;
        h.wave.set_exec(exec);
        let s4 = a + 4096 - 256;
        h.wave.sgpr[4] = s4 as u32;
        h.wave.sgpr[5] = (s4 >> 32) as u32;
        let pair = |h: &mut Harness, r: usize, base: u64, stride: u64| {
            h.set_v(r, |l| (base + stride * l as u64) as u32);
            h.set_v(r + 1, |l| ((base + stride * l as u64) >> 32) as u32);
        };
        for (k, &(records, stride, oob, swizzle, add_tid, rtype, soff)) in
            vsharps.iter().enumerate()
        {
            Vs {
                base: if k == 0 { a } else { b },
                stride,
                swizzle,
                records,
                add_tid,
                oob,
                rtype,
            }
            .set(&mut h, 8 + 4 * k);
            if k == 0 {
                h.wave.sgpr[16] = soff;
            }
        }
        pair(&mut h, 0, a + 16, 4);
        pair(&mut h, 2, b, 16);
        pair(&mut h, 10, SHARED_APERTURE + 64, 8);
        h.set_v(4, |l| 4 * l as u32);
        h.set_v(5, |l| 16 * l as u32);
        h.set_v(6, |l| 8 * l as u32);
        h.set_v(7, |l| 4 * l as u32);
        h.set_v(8, |l| 16 * l as u32 + 512);
        h.set_v(9, |l| 8 * l as u32 + 3000);
        if let Some((lane, row, v)) = bad {
            let old = h.v(row as usize, lane);
            let new = match v % 4 {
                0 => old + 2,
                1 => old + 1_000_000,
                2 => v,
                _ => old.wrapping_sub(64),
            };
            h.wave.vgpr_set(row as usize, lane, new);
        }
        for r in 16..56 {
            for l in 0..64 {
                h.wave.vgpr_set(r, l, vals[(r - 16) * 64 + l]);
            }
        }
        h
    };
    (words, Box::new(make))
}

#[test]
fn jit_memory_matches_interpreter_on_random_programs() {
    let n = if cfg!(debug_assertions) { 60 } else { 300 };
    let before = compile_stats();
    for seed in 0..n {
        let (words, make) = fuzz_case(seed);
        same(&format!("seed {seed}"), &prog(&words), &*make);
    }
    assert!(compile_stats().instructions - before.instructions > 4 * n);
}

#[test]
#[ignore = "long differential fuzz run (WAVESIM_FUZZ_PROGRAMS, default 50000)"]
fn jit_memory_matches_interpreter_on_random_programs_long() {
    let n = std::env::var("WAVESIM_FUZZ_PROGRAMS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(50_000u64);
    for seed in 1 << 40..(1 << 40) + n {
        let (words, make) = fuzz_case(seed);
        same(&format!("seed {seed}"), &prog(&words), &*make);
    }
}

#[test]
fn scalar_loads_compile_with_the_handler_for_faults() {
    // s_load_b128 s[12:15], s[0:1], 0x20 (SMEM: word0 = 0xf4000000 | op << 18 | sdata << 6 |
    // sbase / 2, op 2; word1 = offset | soffset << 25, 0x7c: none), then s_waitcnt 0:
    // s[12 + k] = the dword at A + 0x20 + 4k (`exec::smem`: address = base + offset, dword
    // aligned). With s[0:1] = A + 4096 - 32 the 16 bytes at A + 4096 are past A: a fault.
    let words = [0xf408_0000 | 12 << 6, 0x20 | 0x7c << 25, WAIT0];
    let p = prog(&words);
    for wave64 in [false, true] {
        same("s_load in range", &p, &|| harness(wave64).0);
        let mut h = harness(wave64).0;
        h.cfg.engine = Engine::Jit;
        h.wave.pc = 0;
        h.run_program(&p, 100).expect("runs");
        let dword = |o: usize| u32::from_le_bytes([0, 1, 2, 3].map(|k| fill_byte(o + k)));
        for k in 0..4 {
            assert_eq!(h.s(12 + k), dword(0x20 + 4 * k), "s{}", 12 + k);
        }
        let (text, _, _) = same("s_load past the buffer", &p, &|| {
            let (mut h, a, _) = harness(wave64);
            let base = a + 4096 - 32;
            h.wave.sgpr[0] = base as u32;
            h.wave.sgpr[1] = (base >> 32) as u32;
            h
        });
        assert!(text.contains("s_load_b128"), "{text}");
    }
}

/// Runs `f` on `words` compiled at the quick tier and then at the optimising tier at once
/// (with an s_nop more, so each tier has a program of its own).
fn at_both_tiers(words: &[u32], mut f: impl FnMut(&Program)) {
    for optimised in [false, true] {
        wavesim_rdna3::jit::optimise_at_once(optimised);
        let mut w = words.to_vec();
        if optimised {
            w.push(S_NOP0);
        }
        f(&prog(&w));
    }
    wavesim_rdna3::jit::optimise_at_once(false);
}

#[test]
fn a_clause_of_scalar_loads_is_checked_once_and_faults_at_its_first_load_out_of_range() {
    // s_load_b32 s6, s[0:1], 0x24; s_load_b64 s[4:5], s[0:1], 0x40; s_load_b64 s[8:9],
    // s[0:1], 0 (saxpy's kernarg clause; SMEM encoding as above, op 0 = b32, 1 = b64), then
    // `tail`. Each loads the dwords at A + offset (`exec::smem`), and each issue adds one to
    // LGKM_CNT, saturating at 63 (`WaitCounts::lgkm_issue`): from 0, 61 and 63 that is 3, 63
    // and 63 without a wait, min(that, 1) after s_waitcnt lgkmcnt(1) and 0 after a wait for 0.
    // The compiled clause checks the three as one range; when a load is out of range
    // (the second one past A's end, the third one before A's start) the interpreter runs the
    // loads before it and faults at it, and so must the compiled code.
    let clause = [
        0xf400_0000 | 6 << 6,
        0x24 | 0x7c << 25,
        0xf404_0000 | 4 << 6,
        0x40 | 0x7c << 25,
        0xf404_0000 | 8 << 6,
        0x7c << 25,
    ];
    const WAIT_LGKM1: u32 = 0xbf89_fc17; // s_waitcnt lgkmcnt(1) (vmcnt, expcnt at their largest)
    for (name, tail) in [
        ("no wait", &[][..]),
        ("lgkmcnt(1)", &[WAIT_LGKM1][..]),
        ("wait 0", &[WAIT0][..]),
    ] {
        let mut w = clause.to_vec();
        w.extend(tail);
        at_both_tiers(&w, |p| {
            for wave64 in [false, true] {
                for lgkm in [0, 61, 63] {
                    let (text, _, _) = same(&format!("clause, {name}, lgkm {lgkm}"), p, &|| {
                        let mut h = harness(wave64).0;
                        h.wave.cnt.lgkm = lgkm;
                        h
                    });
                    let want = match (tail.first(), lgkm) {
                        (Some(&WAIT0), _) => 0,
                        (Some(_), _) => 1,
                        (None, 0) => 3,
                        (None, _) => 63,
                    };
                    assert!(text.contains(&format!("lgkm: {want},")), "{name}: {text}");
                    let mut h = harness(wave64).0;
                    h.cfg.engine = Engine::Jit;
                    h.wave.pc = 0;
                    h.run_program(p, 100).expect("runs");
                    let dword =
                        |o: usize| u32::from_le_bytes([0, 1, 2, 3].map(|k| fill_byte(o + k)));
                    assert_eq!(h.s(6), dword(0x24), "s6");
                    assert_eq!([h.s(4), h.s(5)], [dword(0x40), dword(0x44)], "s[4:5]");
                    assert_eq!([h.s(8), h.s(9)], [dword(0), dword(4)], "s[8:9]");
                }
                // The second load's 8 bytes end 4 past A (its first dword is A's last).
                let (text, _, _) = same(&format!("clause, {name}, second past A"), p, &|| {
                    let (mut h, a, _) = harness(wave64);
                    let base = a + 4096 - 0x44;
                    h.wave.sgpr[0] = base as u32;
                    h.wave.sgpr[1] = (base >> 32) as u32;
                    h
                });
                assert!(
                    text.contains("s_load_b64") && text.contains("Err"),
                    "{text}"
                );
                // The third's 8 bytes start 0x20 before A.
                let (text, _, _) = same(&format!("clause, {name}, third before A"), p, &|| {
                    let (mut h, a, _) = harness(wave64);
                    let base = a - 0x20;
                    h.wave.sgpr[0] = base as u32;
                    h.wave.sgpr[1] = (base >> 32) as u32;
                    h
                });
                assert!(text.contains("Err"), "{text}");
            }
        });
    }
}

#[test]
fn scattered_accesses_of_a_full_wave_run_lane_by_lane_in_lane_order() {
    // global_load_b64 v[20:21], v4, s[0:1] offset:8 (address = s[0:1] + v4 + 8, RDNA3 ISA
    // 11.2) with v4 = 8 * ((7 * lane) % 16): lane l reads A's two dwords at that address;
    // global_load_b32 v22, v[6:7], off with v[6:7] = A + 4 * (lane % 16) (both half-waves
    // read one 16-dword row, sgemm_naive's B); then global_store_b32 v5, v22, s[2:3] with
    // v5 = 4 * (lane / 2): two lanes store to each dword, in lane order, so B's dword i ends
    // as lane 2i + 1's v22. Neither pattern is unit-stride or uniform: under a full EXEC the
    // optimising tier runs them unrolled (`codegen::mem_op`), otherwise lane by lane; a
    // partial EXEC and a fault (v4 past A in one lane) must match the interpreter too. The
    // three run in a loop of three iterations (s_mov_b32 s10, 3; ...; s_add_i32 s10, s10, -1;
    // s_cmp_lg_u32 s10, 0; s_cbranch_scc1 back to the first access), as sgemm_naive's do: the
    // unrolled form is compiled for self-loops.
    let mut words = vec![0xbe8a_0083];
    words.extend(global(21, 8, 4, 0, 0, 20));
    words.extend(global(20, 0, 6, 0, OFF, 22));
    words.extend(global(26, 0, 5, 22, 2, 0));
    words.extend([0x810a_c10a, 0xbf07_800a, 0xbfa2_fff7]);
    at_both_tiers(&words, |p| {
        for wave64 in [false, true] {
            let make = |exec: u64, far: Option<usize>| {
                move || {
                    let (mut h, a, _) = harness(wave64);
                    h.wave.set_exec(exec);
                    h.set_v(4, |l| match far {
                        Some(f) if f == l => 4096,
                        _ => 8 * ((7 * l as u32) % 16),
                    });
                    h.set_v(6, |l| (a + 4 * (l as u64 % 16)) as u32);
                    h.set_v(7, |_| (a >> 32) as u32);
                    h.set_v(5, |l| 4 * (l as u32 / 2));
                    h
                }
            };
            let all = if wave64 { u64::MAX } else { u32::MAX as u64 };
            let (_, mem, _) = same("scattered, full EXEC", p, &make(all, None));
            same(
                "scattered, partial EXEC",
                p,
                &make(all & !0x8001_0010, None),
            );
            let (text, _, _) = same("scattered, lane 9 past A", p, &make(all, Some(9)));
            assert!(text.contains("Err"), "{text}");
            let mut h = make(all, None)();
            h.cfg.engine = Engine::Jit;
            h.wave.pc = 0;
            h.run_program(p, 100).expect("runs");
            let dword = |o: usize| u32::from_le_bytes([0, 1, 2, 3].map(|k| fill_byte(o + k)));
            for l in 0..h.wave.lanes() {
                let o = 8 + 8 * ((7 * l) % 16);
                assert_eq!(
                    [h.v(20, l), h.v(21, l)],
                    [dword(o), dword(o + 4)],
                    "lane {l}"
                );
                assert_eq!(h.v(22, l), dword(4 * (l % 16)), "lane {l}");
            }
            // B follows A (4 KiB each) in the memory `same` returns.
            for i in 0..h.wave.lanes() / 2 {
                let b = 4096 + 4 * i;
                let got = u32::from_le_bytes([mem[b], mem[b + 1], mem[b + 2], mem[b + 3]]);
                assert_eq!(got, dword(4 * ((2 * i + 1) % 16)), "B dword {i}");
            }
        }
    });
}

#[test]
fn unit_stride_dwords_move_whole_rows_and_other_ramps_lane_by_lane() {
    // global_load_b32 v20, v4, s[0:1] offset:12 then global_store_b32 v5, v20, s[2:3] and
    // ds_store_b32 v7, v20 offset:8 / ds_load_b32 v21, v7 offset:8 (saddr form: address =
    // s[0:1] + v4 + offset, RDNA3 ISA 11.2; DS: v7 + offset). With v4 = v5 = v7 = 4 * lane + base
    // every lane of a full EXEC reads the dword at A + base + 12 + 4 * lane (LE fill bytes),
    // writes it to B + base + 4 * lane and to LDS at base + 8 + 4 * lane, and v21 reads it back:
    // the compiled code's whole-row (vector) form. A partial EXEC, a ramp with one lane out of
    // step, and a ramp whose 32-bit values wrap take the lane loop or the handler; all must
    // match the interpreter bit for bit, faults included.
    let mut words = Vec::new();
    words.extend(global(20, 12, 4, 0, 0, 20));
    words.extend(global(26, 0, 5, 20, 2, 0));
    words.extend(ds(13, 8, 0, 7, 20, 0, 0));
    words.extend(ds(54, 8, 0, 7, 0, 0, 21));
    words.push(WAIT0);
    // Both tiers (the optimising one compiles a full-EXEC variant whose whole-row check
    // skips the EXEC test), each with a program of its own (an s_nop more).
    for optimised in [false, true] {
        wavesim_rdna3::jit::optimise_at_once(optimised);
        let mut w = words.clone();
        if optimised {
            w.push(S_NOP0);
        }
        let p = prog(&w);
        for wave64 in [false, true] {
            let make = |base: u32, exec: u64, skew: Option<usize>| {
                move || {
                    let (mut h, _, _) = harness(wave64);
                    h.wave.set_exec(exec);
                    for r in [4, 5, 7] {
                        h.set_v(r, |l| {
                            let v = base.wrapping_add(4 * l as u32);
                            if skew == Some(l) {
                                v.wrapping_add(8)
                            } else {
                                v
                            }
                        });
                    }
                    h
                }
            };
            let lanes = if wave64 { 64 } else { 32 };
            let (text, mem, lds) = same("unit stride, full EXEC", &p, &make(64, u64::MAX, None));
            assert!(text.starts_with("outcome Ok"), "{text}");
            let h = {
                let mut h = make(64, u64::MAX, None)();
                h.cfg.engine = Engine::Jit;
                h.wave.pc = 0;
                h.run_program(&p, 100).expect("runs");
                h
            };
            for l in 0..lanes {
                let want = u32::from_le_bytes([0, 1, 2, 3].map(|k| fill_byte(64 + 12 + 4 * l + k)));
                assert_eq!(h.v(20, l), want, "lane {l} v20");
                assert_eq!(h.v(21, l), want, "lane {l} v21");
                let o = 4096 + 64 + 4 * l;
                assert_eq!(mem[o..o + 4], want.to_le_bytes(), "lane {l} B");
                let o = 64 + 8 + 4 * l;
                assert_eq!(lds[o..o + 4], want.to_le_bytes(), "lane {l} LDS");
            }
            // The bytes past the last lane keep their fill (the vector form writes no more).
            let o = 4096 + 64 + 4 * lanes;
            assert_eq!(mem[o], fill_byte(64 + 4 * lanes));
            same(
                "unit stride, partial EXEC",
                &p,
                &make(64, 0xffff_fff7_ffff_fffe, None),
            );
            same("one lane out of step", &p, &make(64, u64::MAX, Some(5)));
            // (`codegen::ramp_check` compares chunk 0 with the ramp and each later chunk with the
            // one before: a lane out of step in chunk 0, and in the last chunk.)
            same("lane 2 out of step", &p, &make(64, u64::MAX, Some(2)));
            same(
                "lane N-2 out of step",
                &p,
                &make(64, u64::MAX, Some(lanes - 2)),
            );
            // 32-bit values that wrap: lane 0 holds 2^32 - 64, so the later lanes are near 0 and
            // the accesses span more than the 4 KiB buffers (a fault, the handler's).
            let (text, _, _) = same(
                "wrapping ramp",
                &p,
                &make(0u32.wrapping_sub(64), u64::MAX, None),
            );
            assert!(!text.starts_with("outcome Ok"), "{text}");
            // At the very end of A (base 4096 - 12 - 4 * lanes): in range; one dword further the
            // last lane leaves A (whatever lies there, the handler decides).
            let end = 4096 - 12 - 4 * lanes as u32;
            let (text, _, _) = same("ramp at the end of A", &p, &make(end, u64::MAX, None));
            assert!(text.starts_with("outcome Ok"), "{text}");
            same("ramp past the end of A", &p, &make(end + 4, u64::MAX, None));
        }
    }
    wavesim_rdna3::jit::optimise_at_once(false);
}

#[test]
fn unit_stride_dwords_at_64_bit_addresses_take_the_whole_row_check_exactly() {
    // global_load_b32 v20, v[0:1], off; global_store_b32 v[2:3], v20, off;
    // flat_load_b32 v21, v[0:1] offset:4; flat_store_b32 v[2:3], v21 (address = the 64-bit
    // VGPR pair + offset, RDNA3 ISA 11.1/11.2). With v[0:1] = A + base + 4 * lane and
    // v[2:3] = B + base + 4 * lane under a full EXEC, lane l reads A's dword at base + 4l into
    // v20 and the one at base + 4l + 4 into v21, and B's dword at base + 4l ends as v21 (the
    // FLAT store comes last): the compiled whole-row check (`codegen::contiguous`). The cases
    // it must refuse, and then match the interpreter bit for bit, faults included: a partial
    // EXEC, a misaligned ramp, one lane whose high dword differs, a ramp whose low dwords wrap
    // inside a 4 GiB page, every lane in the LDS or the private aperture (FLAT), and the ramp
    // one dword past the end of A.
    let mut words = Vec::new();
    words.extend(global(20, 0, 0, 0, OFF, 20));
    words.extend(global(26, 0, 2, 20, OFF, 0));
    words.extend(flat(20, 4, 0, 0, 21));
    words.extend(flat(26, 0, 2, 21, 0));
    for optimised in [false, true] {
        wavesim_rdna3::jit::optimise_at_once(optimised);
        let mut w = words.clone();
        if optimised {
            w.push(S_NOP0);
        }
        let p = prog(&w);
        for wave64 in [false, true] {
            let lanes = if wave64 { 64 } else { 32 };
            // `at(l)`: lane l's 64-bit address in A (or where the case puts it).
            let make = |at: &'static dyn Fn(u64, u64, usize) -> u64, exec: u64| {
                move || {
                    let (mut h, a, b) = harness(wave64);
                    h.wave.set_exec(exec);
                    h.set_v(0, |l| at(a, 64, l) as u32);
                    h.set_v(1, |l| (at(a, 64, l) >> 32) as u32);
                    h.set_v(2, |l| (b + 64 + 4 * l as u64) as u32);
                    h.set_v(3, |l| ((b + 64 + 4 * l as u64) >> 32) as u32);
                    h
                }
            };
            let ramp: &'static dyn Fn(u64, u64, usize) -> u64 =
                &|a, base, l| a + base + 4 * l as u64;
            let (text, mem, _) = same("64-bit unit stride", &p, &make(ramp, u64::MAX));
            assert!(text.starts_with("outcome Ok"), "{text}");
            let mut h = make(ramp, u64::MAX)();
            h.cfg.engine = Engine::Jit;
            h.wave.pc = 0;
            h.run_program(&p, 100).expect("runs");
            let dword = |o: usize| u32::from_le_bytes([0, 1, 2, 3].map(|k| fill_byte(o + k)));
            for l in 0..lanes {
                assert_eq!(h.v(20, l), dword(64 + 4 * l), "lane {l} v20");
                assert_eq!(h.v(21, l), dword(64 + 4 * l + 4), "lane {l} v21");
                let o = 4096 + 64 + 4 * l;
                assert_eq!(
                    mem[o..o + 4],
                    dword(64 + 4 * l + 4).to_le_bytes(),
                    "lane {l} B"
                );
            }
            same(
                "64-bit, partial EXEC",
                &p,
                &make(ramp, 0xffff_7fff_ffff_fffe),
            );
            same(
                "64-bit, misaligned",
                &p,
                &make(&|a, base, l| a + base + 2 + 4 * l as u64, u64::MAX),
            );
            same(
                "64-bit, lane 7 in another 4 GiB page",
                &p,
                &make(
                    &|a, base, l| a + base + 4 * l as u64 + (((l == 7) as u64) << 32),
                    u64::MAX,
                ),
            );
            // The high dwords are checked in the same test as the ramp (`codegen::ramp_check`):
            // one lane of the last chunk in another page.
            let other: &'static dyn Fn(u64, u64, usize) -> u64 = if wave64 {
                &|a, base, l| a + base + 4 * l as u64 + (((l == 62) as u64) << 32)
            } else {
                &|a, base, l| a + base + 4 * l as u64 + (((l == 30) as u64) << 32)
            };
            same(
                "64-bit, lane N-2 in another 4 GiB page",
                &p,
                &make(other, u64::MAX),
            );
            // Low dwords from 2^32 - 8 on: lanes 2.. wrap to the start of the same 4 GiB page.
            same(
                "64-bit, low dwords wrap",
                &p,
                &make(
                    &|a, _, l| {
                        (a & !0xffff_ffff) | (0xffff_fff8u32.wrapping_add(4 * l as u32)) as u64
                    },
                    u64::MAX,
                ),
            );
            same(
                "64-bit, LDS aperture",
                &p,
                &make(
                    &|_, base, l| SHARED_APERTURE + base + 4 * l as u64,
                    u64::MAX,
                ),
            );
            let (text, _, _) = same(
                "64-bit, private aperture",
                &p,
                &make(
                    &|_, base, l| {
                        wavesim_rdna3::exec::operand::PRIVATE_APERTURE + base + 4 * l as u64
                    },
                    u64::MAX,
                ),
            );
            assert!(!text.starts_with("outcome Ok"), "{text}");
            // The FLAT load reads 4 bytes further: at 4096 - 4 - 4 * lanes every access is in A,
            // one dword further its last lane's is not.
            let end: &'static dyn Fn(u64, u64, usize) -> u64 = if wave64 {
                &|a, _, l| a + 4096 - 4 - 4 * 64 + 4 * l as u64
            } else {
                &|a, _, l| a + 4096 - 4 - 4 * 32 + 4 * l as u64
            };
            let (text, _, _) = same("64-bit, at the end of A", &p, &make(end, u64::MAX));
            assert!(text.starts_with("outcome Ok"), "{text}");
            let past: &'static dyn Fn(u64, u64, usize) -> u64 = if wave64 {
                &|a, _, l| a + 4096 - 4 * 64 + 4 * l as u64
            } else {
                &|a, _, l| a + 4096 - 4 * 32 + 4 * l as u64
            };
            same("64-bit, past the end of A", &p, &make(past, u64::MAX));
        }
    }
    wavesim_rdna3::jit::optimise_at_once(false);
}

#[test]
fn flat_accesses_in_the_global_aperture_compile_and_the_others_are_the_handlers() {
    // flat_load_b64 v[20:21], v[0:1] offset:0x1008 (FLAT ignores offset bit 12: address = v[0:1]
    // + 8, RDNA3 ISA 11.1 fields, `exec::flat::targets`), flat_store_b32 v[2:3], v20 offset:4,
    // flat_load_b128 v[24:27], v[2:3]. v[0:1] = A + 16 * lane, v[2:3] = B + 16 * lane: lane l
    // reads A's bytes 16l + 8 .. 16l + 16 into v20, v21, stores v20 at B + 16l + 4, then reads
    // B's 16 bytes at 16l (the stored dword among them). FLAT counts in VM/VS and LGKM. With
    // v[0:1] in the LDS aperture (one lane or all) or in the private aperture (no scratch: a
    // fault) the handler runs; every case must match the interpreter bit for bit.
    let mut words = Vec::new();
    words.extend(flat(21, 0x1008, 0, 0, 20));
    words.extend(flat(26, 4, 2, 20, 0));
    words.extend(flat(23, 0, 2, 0, 24));
    let p = prog(&words);
    for wave64 in [false, true] {
        let make = |lds_lanes: u64, private: bool, exec: u64| {
            move || {
                let (mut h, a, b) = harness(wave64);
                h.wave.set_exec(exec);
                let at = |l: usize| {
                    if lds_lanes >> l & 1 != 0 {
                        SHARED_APERTURE + 16 * l as u64
                    } else if private {
                        wavesim_rdna3::exec::operand::PRIVATE_APERTURE + 16 * l as u64
                    } else {
                        a + 16 * l as u64
                    }
                };
                h.set_v(0, |l| at(l) as u32);
                h.set_v(1, |l| (at(l) >> 32) as u32);
                h.set_v(2, |l| (b + 16 * l as u64) as u32);
                h.set_v(3, |l| ((b + 16 * l as u64) >> 32) as u32);
                h
            }
        };
        let (text, mem, _) = same("flat global", &p, &make(0, false, u64::MAX));
        assert!(text.starts_with("outcome Ok"), "{text}");
        let mut h = make(0, false, u64::MAX)();
        h.cfg.engine = Engine::Jit;
        h.wave.pc = 0;
        h.run_program(&p, 100).expect("runs");
        let dword = |o: usize| u32::from_le_bytes([0, 1, 2, 3].map(|k| fill_byte(o + k)));
        for l in 0..h.wave.lanes() {
            assert_eq!(h.v(20, l), dword(16 * l + 8), "lane {l} v20");
            assert_eq!(h.v(21, l), dword(16 * l + 12), "lane {l} v21");
            let o = 4096 + 16 * l + 4;
            assert_eq!(mem[o..o + 4], dword(16 * l + 8).to_le_bytes(), "lane {l} B");
            for k in 0..4 {
                let want = if k == 1 {
                    dword(16 * l + 8)
                } else {
                    dword(16 * l + 4 * k)
                };
                assert_eq!(h.v(24 + k, l), want, "lane {l} v{}", 24 + k);
            }
        }
        // Three issues in VM/VS (two loads, one store) and three in LGKM, none waited for.
        assert_eq!((h.wave.cnt.vm, h.wave.cnt.vs, h.wave.cnt.lgkm), (2, 1, 3));
        same(
            "flat partial EXEC",
            &p,
            &make(0, false, 0x0f0f_f0f0_0f0f_f0f0),
        );
        same(
            "flat, all lanes in LDS",
            &p,
            &make(u64::MAX, false, u64::MAX),
        );
        same("flat, lane 3 in LDS", &p, &make(1 << 3, false, u64::MAX));
        let (text, _, _) = same("flat, private aperture", &p, &make(0, true, u64::MAX));
        assert!(!text.starts_with("outcome Ok"), "{text}");
    }
}

#[test]
fn sub_dword_loads_and_stores_extend_and_merge_as_the_isa_says() {
    // global_load_<kind> v20, v4, s[0:1] offset:OFF with v4 = 4 * lane + 1 (so byte loads see
    // odd addresses, half loads even ones with OFF = 1), v20 = 0xaaaa_5555 before. Byte b = the
    // fill byte at A + 4l + 1 + OFF (`fill_byte`), half h = LE(b, next byte). RDNA3 ISA 11.1
    // load kinds: u8 -> b, i8 -> sext(b), u16 -> h, i16 -> sext(h); d16 forms write the low half
    // (i8 sign-extended to 16 bits) and keep 0xaaaa, d16_hi forms write the high half and keep
    // 0x5555. Then global_store_<kind> v5, v20, s[2:3] (v5 = 4 * lane + 2) stores the low byte or
    // half of v20, or of its high half for d16_hi: B's other bytes keep their fill.
    for wave64 in [false, true] {
        for &(op, bytes, name) in &SUB_LOADS {
            let off = if bytes == 1 { 0 } else { 1 };
            let p = prog(&global(op, off, 4, 0, 0, 20));
            let make = || {
                let (mut h, _, _) = harness(wave64);
                h.set_v(4, |l| 4 * l as u32 + 1);
                h.set_v(20, |_| 0xaaaa_5555);
                h
            };
            same(name, &p, &make);
            let mut h = make();
            h.cfg.engine = Engine::Jit;
            h.wave.pc = 0;
            h.run_program(&p, 100).expect("runs");
            for l in 0..h.wave.lanes() {
                let o = 4 * l + 1 + off as usize;
                let b = fill_byte(o) as u32;
                let half = b | (fill_byte(o + 1) as u32) << 8;
                let sb = b as u8 as i8 as i32 as u32;
                let want = match name.trim_start_matches("global_load_") {
                    "u8" => b,
                    "i8" => sb,
                    "u16" => half,
                    "i16" => half as u16 as i16 as i32 as u32,
                    "d16_u8" => 0xaaaa_0000 | b,
                    "d16_i8" => 0xaaaa_0000 | (sb & 0xffff),
                    "d16_b16" => 0xaaaa_0000 | half,
                    "d16_hi_u8" => b << 16 | 0x5555,
                    "d16_hi_i8" => sb << 16 | 0x5555,
                    "d16_hi_b16" => half << 16 | 0x5555,
                    k => panic!("no rule for {k}"),
                };
                assert_eq!(h.v(20, l), want, "{name} lane {l}");
            }
        }
        for &(op, bytes, name) in &SUB_STORES {
            let p = prog(&global(op, 0, 5, 20, 2, 0));
            let make = |mode: u8| {
                move || {
                    let (mut h, _, _) = harness(wave64);
                    h.cfg.alignment_mode = mode;
                    h.set_v(5, |l| 4 * l as u32 + 2);
                    h.set_v(20, |l| 0x1122_3344 + l as u32);
                    h
                }
            };
            let (text, mem, _) = same(name, &p, &make(3));
            assert!(text.starts_with("outcome Ok"), "{text}");
            let lanes = if wave64 { 64 } else { 32 };
            for l in 0..lanes {
                let v = 0x1122_3344 + l as u32;
                let v = if name.contains("hi") { v >> 16 } else { v };
                let o = 4096 + 4 * l + 2;
                assert_eq!(mem[o], v as u8, "{name} lane {l} byte 0");
                let next = if bytes == 2 {
                    (v >> 8) as u8
                } else {
                    fill_byte(4 * l + 3)
                };
                assert_eq!(mem[o + 1], next, "{name} lane {l} byte 1");
                assert_eq!(
                    mem[o - 1],
                    fill_byte(4 * l + 1),
                    "{name} lane {l} byte before"
                );
            }
            // Odd addresses for the half stores: STRICT refuses, DWORD clears the bit.
            let odd = prog(&global(op, 1, 5, 20, 2, 0));
            for mode in [0, 1, 2, 3] {
                same(&format!("{name} offset 1, mode {mode}"), &odd, &make(mode));
            }
        }
    }
}

#[test]
fn uniform_addresses_load_once_for_every_active_lane() {
    // global_load_b64 v[20:21], v4, s[0:1] offset:8 and ds_load_b32 v22, v7 offset:4 with
    // v4 = v7 = 40 in every lane (saddr form: address = s[0:1] + 40 + 8, RDNA3 ISA 11.2; DS:
    // 44): every active lane gets the dwords at A + 48, A + 52 and LDS byte 44, inactive lanes
    // keep 0x5a5a5a5a. Then one lane's address moved by 8 (not uniform: the lane loop).
    let mut words = Vec::new();
    words.extend(global(21, 8, 4, 0, 0, 20));
    words.extend(ds(54, 4, 0, 7, 0, 0, 22));
    words.push(WAIT0);
    let p = prog(&words);
    for wave64 in [false, true] {
        let make = |exec: u64, odd: Option<usize>| {
            move || {
                let (mut h, _, _) = harness(wave64);
                h.wave.set_exec(exec);
                for r in [4, 7] {
                    h.set_v(r, |l| if odd == Some(l) { 48 } else { 40 });
                }
                for r in 20..23 {
                    h.set_v(r, |_| 0x5a5a_5a5a);
                }
                h
            }
        };
        for exec in [u64::MAX, 0x8000_0001_0f00_00f1] {
            let (text, _, _) = same("uniform", &p, &make(exec, None));
            assert!(text.starts_with("outcome Ok"), "{text}");
            let mut h = make(exec, None)();
            h.cfg.engine = Engine::Jit;
            h.wave.pc = 0;
            h.run_program(&p, 100).expect("runs");
            let dword = |o: usize| u32::from_le_bytes([0, 1, 2, 3].map(|k| fill_byte(o + k)));
            let lds = u32::from_le_bytes([0, 1, 2, 3].map(|k| ((44 + k) * 13 + 5) as u8));
            for l in 0..h.wave.lanes() {
                let on = exec >> l & 1 != 0;
                let want = |v: u32| if on { v } else { 0x5a5a_5a5a };
                assert_eq!(h.v(20, l), want(dword(48)), "lane {l} v20");
                assert_eq!(h.v(21, l), want(dword(52)), "lane {l} v21");
                assert_eq!(h.v(22, l), want(lds), "lane {l} v22");
            }
            same("one lane elsewhere", &p, &make(exec, Some(0)));
        }
    }
}

/// MUBUF (RDNA3 ISA, MUBUF encoding; the fields as tests/buffer.rs's llvm-mc-checked constants
/// give them, e.g. `buffer_load_b32 v1, v0, s[4:7], s8 offen offset:4` = 0xe0500004,
/// 0x08410100): word0 = 0xe0000000 | op << 18 | offset[11:0], word1 = vaddr | vdata << 8 |
/// srsrc / 4 << 16 | offen << 22 | idxen << 23 | soffset << 24. The non-format opcodes are
/// GLOBAL's (load_b32 = 20, store_b32 = 26, load_u8 = 0x10, ...).
fn mubuf(op: u32, offset: u32, vaddr: u32, vdata: u32, srsrc: u32, soff: u32, en: u32) -> [u32; 2] {
    [
        0xe000_0000 | op << 18 | (offset & 0xfff),
        vaddr | vdata << 8 | (srsrc / 4) << 16 | en << 22 | soff << 24,
    ]
}
/// `en` bits of `mubuf`: OFFEN, IDXEN.
const OFFEN: u32 = 1;
const IDXEN: u32 = 2;

/// A V# (RDNA3 ISA guide, Buffer Instructions, "Buffer resource"; `exec::buffer::resource`):
/// base, stride, swizzle_enable, num_records, add_tid_enable, OOB_SELECT, type.
#[derive(Clone, Copy)]
struct Vs {
    base: u64,
    stride: u32,
    swizzle: u32,
    records: u32,
    add_tid: bool,
    oob: u32,
    rtype: u32,
}

impl Vs {
    fn raw(base: u64, records: u32) -> Vs {
        Vs {
            base,
            stride: 0,
            swizzle: 0,
            records,
            add_tid: false,
            oob: 3,
            rtype: 0,
        }
    }

    fn words(self) -> [u32; 4] {
        [
            self.base as u32,
            (self.base >> 32) as u32 & 0xffff | self.stride << 16 | self.swizzle << 30,
            self.records,
            (self.add_tid as u32) << 23 | self.oob << 28 | self.rtype << 30,
        ]
    }

    fn set(self, h: &mut Harness, sgpr: usize) {
        for (k, w) in self.words().into_iter().enumerate() {
            h.wave.sgpr[sgpr + k] = w;
        }
    }
}

#[test]
fn buffer_accesses_read_and_write_what_the_isa_addresses() {
    // s[8:11] = raw V# of A (OOB_SELECT 3, num_records 4096 bytes, stride 32), s[12:15] = raw
    // V# of B, s16 = 4. RDNA3 ISA guide, Buffer Instructions: address = base + soffset +
    // index * stride + offset, offset = vgpr_offset + inst_offset.
    // 1. buffer_load_b64 v[20:21], v4, s[8:11], s16 offen offset:8, v4 = 16l: lane l reads
    //    A's dwords at 4 + 16l + 8 and + 12.
    // 2. buffer_load_b32 v22, v[6:7], s[8:11], 0 idxen offen offset:4, v6 = l, v7 = 8: the
    //    dword at 32l + 8 + 4.
    // 3. buffer_load_d16_hi_i8 v23, v4, s[8:11], 0 offen offset:3 into v23 = 0x0000_5555: the
    //    byte b at 16l + 3 sign-extended to 16 bits in the high half, 0x5555 kept.
    // 4. buffer_store_b128 v[20:23], v5, s[12:15], 0 offen, v5 = 32l: B's 16 bytes at 32l.
    // 5. buffer_store_b16 v23, v5, s[12:15], 0 offen offset:16: the low half 0x5555 at
    //    B + 32l + 16.
    let mut words = Vec::new();
    words.extend(mubuf(21, 8, 4, 20, 8, 16, OFFEN));
    words.extend(mubuf(20, 4, 6, 22, 8, 0x80, IDXEN | OFFEN));
    words.extend(mubuf(0x22, 3, 4, 23, 8, 0x80, OFFEN));
    words.extend(mubuf(29, 0, 5, 20, 12, 0x80, OFFEN));
    words.extend(mubuf(0x19, 16, 5, 23, 12, 0x80, OFFEN));
    let p = prog(&words);
    for name in [
        "buffer_load_b64",
        "buffer_load_b32",
        "buffer_load_d16_hi_i8",
        "buffer_store_b128",
        "buffer_store_b16",
    ]
    .iter()
    .enumerate()
    {
        assert_eq!(p.insts[name.0].op.name(), *name.1);
    }
    for wave64 in [false, true] {
        let make = || {
            let (mut h, a, b) = harness(wave64);
            Vs {
                stride: 32,
                ..Vs::raw(a, 4096)
            }
            .set(&mut h, 8);
            Vs::raw(b, 4096).set(&mut h, 12);
            h.wave.sgpr[16] = 4;
            h.set_v(4, |l| 16 * l as u32);
            h.set_v(5, |l| 32 * l as u32);
            h.set_v(6, |l| l as u32);
            h.set_v(7, |_| 8);
            h.set_v(23, |_| 0x5555);
            h
        };
        let (text, mem, _) = same("buffer accesses", &p, &make);
        assert!(text.starts_with("outcome Ok"), "{text}");
        let mut h = make();
        h.cfg.engine = Engine::Jit;
        h.wave.pc = 0;
        h.run_program(&p, 100).expect("runs");
        let dword = |o: usize| u32::from_le_bytes([0, 1, 2, 3].map(|k| fill_byte(o + k)));
        for l in 0..h.wave.lanes() {
            let want = [
                dword(16 * l + 12),
                dword(16 * l + 16),
                dword(32 * l + 12),
                (fill_byte(16 * l + 3) as i8 as i16 as u16 as u32) << 16 | 0x5555,
            ];
            for (k, &w) in want.iter().enumerate() {
                assert_eq!(h.v(20 + k, l), w, "lane {l} v{}", 20 + k);
                let o = 4096 + 32 * l + 4 * k;
                assert_eq!(mem[o..o + 4], w.to_le_bytes(), "lane {l} B dword {k}");
            }
            let o = 4096 + 32 * l + 16;
            assert_eq!(
                mem[o..o + 4],
                [0x55, 0x55, fill_byte(32 * l + 18), fill_byte(32 * l + 19)]
            );
        }
        // Three loads in VM_CNT, two stores in VS_CNT.
        assert_eq!((h.wave.cnt.vm, h.wave.cnt.vs), (3, 2));
    }
}

#[test]
fn buffer_range_rules_and_other_descriptors_are_the_interpreters() {
    // buffer_load_b128 v[20:23], v4, s[8:11], s16 offen; buffer_store_b64 v[24:25], v4,
    // s[12:15], s16 offen offset:8; buffer_load_u16 v26, v[6:7], s[8:11], 0 idxen offen;
    // buffer_store_b8 v24, v6, s[12:15], 0 idxen offset:1; with v4 = 16l, v6 = l, v7 = 2l,
    // stride 16, s16 = 0 the accesses are aligned (b128 at 16l, b64 at 16l + 8), so the
    // compiled path runs where the range allows. Every variant below must match the
    // interpreter bit for bit; the comments say which rule of the RDNA3 ISA guide (Buffer
    // Instructions, "Range checking", "Buffer resource", "Alignment") each one exercises.
    let mut words = Vec::new();
    words.extend(mubuf(23, 0, 4, 20, 8, 16, OFFEN));
    words.extend(mubuf(27, 8, 4, 24, 12, 16, OFFEN));
    words.extend(mubuf(0x12, 0, 6, 26, 8, 0x80, IDXEN | OFFEN));
    words.extend(mubuf(0x18, 1, 6, 24, 12, 0x80, IDXEN));
    words.push(WAIT0);
    let p = prog(&words);
    type Tweak = fn(&mut Harness, u64, u64, usize);
    let cases: [(&str, Tweak); 19] = [
        ("in range", |_, _, _, _| {}),
        ("partial EXEC", |h, _, _, _| {
            h.wave.set_exec(0x5a5a_a5a5_0ff0_f00f)
        }),
        ("EXEC zero", |h, _, _, _| h.wave.set_exec(0)),
        // Raw: the last lane's dwords 2 and 3 past num_records (per-dword check: they read
        // 0, its dwords 0 and 1 load; its b64 store's second dword is dropped).
        ("raw, last dwords out", |h, a, b, n| {
            let last = 16 * (n as u32 - 1);
            Vs::raw(a, last + 8).set(h, 8);
            Vs::raw(b, last + 8 + 4).set(h, 12);
        }),
        // Exactly the end of the last lane's access: everything in range.
        ("raw, at the end", |h, a, b, n| {
            let last = 16 * (n as u32 - 1);
            Vs::raw(a, last + 16).set(h, 8);
            Vs::raw(b, last + 16).set(h, 12);
        }),
        // OOB_SELECT 2 (unchecked): only num_records = 0 is out of range.
        ("unchecked", |h, a, b, _| {
            Vs {
                oob: 2,
                ..Vs::raw(a, 1)
            }
            .set(h, 8);
            Vs {
                oob: 2,
                ..Vs::raw(b, 0)
            }
            .set(h, 12);
        }),
        // Structured (1: index < num_records; 0: also offset + size <= stride), stride 16.
        ("structured", |h, a, b, _| {
            Vs {
                oob: 1,
                stride: 16,
                ..Vs::raw(a, 7)
            }
            .set(h, 8);
            Vs {
                oob: 0,
                stride: 16,
                ..Vs::raw(b, 64)
            }
            .set(h, 12);
        }),
        ("structured, offset checked", |h, a, b, _| {
            Vs {
                oob: 0,
                stride: 16,
                ..Vs::raw(a, 64)
            }
            .set(h, 8);
            Vs {
                oob: 0,
                stride: 8,
                ..Vs::raw(b, 64)
            }
            .set(h, 12);
        }),
        // The null V# (loads 0, stores ignored) and an image-type V# (ignored).
        ("null V#", |h, _, _, _| {
            for r in 8..16 {
                h.wave.sgpr[r] = 0;
            }
        }),
        ("image type", |h, a, b, _| {
            Vs {
                rtype: 2,
                ..Vs::raw(a, 4096)
            }
            .set(h, 8);
            Vs {
                rtype: 1,
                ..Vs::raw(b, 4096)
            }
            .set(h, 12);
        }),
        // Swizzled and add_tid V#s: the handler's addressing.
        ("swizzled", |h, a, _, _| {
            Vs {
                swizzle: 1,
                stride: 16,
                ..Vs::raw(a, 4096)
            }
            .set(h, 8);
        }),
        // (Lane l's index adds l; whether an element leaves B is the handler's business.)
        ("add_tid", |h, _, b, _| {
            Vs {
                swizzle: 3,
                add_tid: true,
                oob: 2,
                ..Vs::raw(b, 4096)
            }
            .set(h, 12);
        }),
        ("reserved swizzle", |h, a, _, _| {
            Vs {
                swizzle: 2,
                ..Vs::raw(a, 4096)
            }
            .set(h, 8);
        }),
        // One lane's offset wraps: the store's 0xffff_fff8 + 8 = 0 (32-bit sum), in range at
        // B's start; the load's 0xffff_fff8 is out of range.
        ("wrapping offset", |h, _, _, _| {
            h.wave.vgpr_set(4, 3, 0xffff_fff8)
        }),
        // One lane's index makes index * stride pass 2^32.
        ("huge index", |h, _, _, _| {
            h.wave.vgpr_set(6, 5, 0x1000_0000)
        }),
        // A lane misaligned (STRICT: MEMVIOL after the others; DWORD: bits cleared).
        ("misaligned, STRICT", |h, _, _, _| {
            h.cfg.alignment_mode = 2;
            h.wave.vgpr_set(4, 2, 18);
        }),
        ("misaligned, DWORD", |h, _, _, _| {
            h.cfg.alignment_mode = 0;
            h.wave.vgpr_set(4, 2, 18);
        }),
        // num_records past the allocation: the in-range access faults.
        ("fault", |h, a, b, _| {
            Vs::raw(a, 1 << 20).set(h, 8);
            Vs::raw(b, 1 << 20).set(h, 12);
            h.wave.vgpr_set(4, 7, 8192);
        }),
        // soffset moves the base, never the range check.
        ("soffset", |h, _, _, _| h.wave.sgpr[16] = 1024),
    ];
    for wave64 in [false, true] {
        for (what, tweak) in cases {
            let make = move || {
                let (mut h, a, b) = harness(wave64);
                Vs {
                    stride: 16,
                    ..Vs::raw(a, 4096)
                }
                .set(&mut h, 8);
                Vs {
                    stride: 16,
                    ..Vs::raw(b, 4096)
                }
                .set(&mut h, 12);
                h.wave.sgpr[16] = 0;
                h.set_v(4, |l| 16 * l as u32);
                h.set_v(6, |l| l as u32);
                h.set_v(7, |l| 2 * l as u32);
                let n = h.wave.lanes();
                tweak(&mut h, a, b, n);
                h
            };
            let (text, _, _) = same(what, &p, &make);
            if what != "add_tid" {
                let ok = !matches!(what, "reserved swizzle" | "misaligned, STRICT" | "fault");
                assert_eq!(text.starts_with("outcome Ok"), ok, "{what}: {text}");
            }
        }
    }
}

/// GLOBAL and MUBUF atomics (same opcodes in both tables) with the data dwords they take
/// ({src, cmp} for cmpswap), and DS atomics (no return, `_rtn_`).
const GLOBAL_ATOMICS: [(u32, &str); 20] = [
    (0x33, "global_atomic_swap_b32"),
    (0x34, "global_atomic_cmpswap_b32"),
    (0x35, "global_atomic_add_u32"),
    (0x36, "global_atomic_sub_u32"),
    (0x38, "global_atomic_min_i32"),
    (0x39, "global_atomic_min_u32"),
    (0x3a, "global_atomic_max_i32"),
    (0x3b, "global_atomic_max_u32"),
    (0x3c, "global_atomic_and_b32"),
    (0x3d, "global_atomic_or_b32"),
    (0x3e, "global_atomic_xor_b32"),
    (0x3f, "global_atomic_inc_u32"),
    (0x41, "global_atomic_swap_b64"),
    (0x42, "global_atomic_cmpswap_b64"),
    (0x43, "global_atomic_add_u64"),
    (0x44, "global_atomic_sub_u64"),
    (0x45, "global_atomic_min_i64"),
    (0x48, "global_atomic_max_u64"),
    (0x4b, "global_atomic_xor_b64"),
    (0x37, "global_atomic_csub_u32"),
];
const DS_ATOMICS: [(u32, &str); 12] = [
    (0, "ds_add_u32"),
    (1, "ds_sub_u32"),
    (5, "ds_min_i32"),
    (8, "ds_max_u32"),
    (11, "ds_xor_b32"),
    (16, "ds_cmpstore_b32"),
    (32, "ds_add_rtn_u32"),
    (39, "ds_min_rtn_u32"),
    (45, "ds_storexchg_rtn_b32"),
    (48, "ds_cmpstore_rtn_b32"),
    (64, "ds_add_u64"),
    (96, "ds_add_rtn_u64"),
];
/// GLC (word0 bit 14 of GLOBAL and MUBUF): the atomic returns the old value.
const GLC: u32 = 1 << 14;

#[test]
fn atomic_encodings_are_the_instructions_named() {
    let name = |w: [u32; 2]| {
        let bytes: Vec<u8> = w.iter().flat_map(|w| w.to_le_bytes()).collect();
        decode(&bytes, 0).expect("decodes").op.name()
    };
    for (op, n) in GLOBAL_ATOMICS {
        assert_eq!(name(global(op, 0, 4, 16, 0, 20)), n);
        let b = n.replace("global_", "buffer_");
        assert_eq!(name(mubuf(op, 0, 4, 16, 8, 0x80, OFFEN)), b);
    }
    for (op, n) in DS_ATOMICS {
        assert_eq!(name(ds(op, 0, 0, 7, 16, 18, 20)), n);
    }
}

#[test]
fn atomics_run_in_lane_order_and_return_the_old_values() {
    // global_atomic_add_u32 v20, v4, v16, s[0:1] glc with v4 = 0 (every lane at A + 0) and
    // v16 = l + 1: lanes go in lane order (the interpreter's order, `exec::flat::atomic`), so
    // lane l returns D + l(l+1)/2 (D the dword there before) and A + 0 ends at D + n(n+1)/2.
    // Then the same through MUBUF (buffer_atomic_add_u32 v16, v4, s[8:11], 0 offen glc: the
    // old value back in v16) and DS (ds_add_rtn_u32 v21, v7, v16 with v7 = 0).
    let mut words = Vec::new();
    let mut w0 = global(0x35, 0, 4, 16, 0, 20);
    w0[0] |= GLC;
    words.extend(w0);
    words.extend(ds(32, 0, 0, 7, 16, 0, 21));
    let mut w1 = mubuf(0x35, 4, 4, 16, 8, 0x80, OFFEN);
    w1[0] |= GLC;
    words.extend(w1);
    words.push(WAIT0);
    let p = prog(&words);
    for wave64 in [false, true] {
        let make = || {
            let (mut h, a, _) = harness(wave64);
            Vs::raw(a, 4096).set(&mut h, 8);
            h.set_v(4, |_| 0);
            h.set_v(7, |_| 0);
            h.set_v(16, |l| l as u32 + 1);
            h
        };
        let (text, mem, lds) = same("atomic adds", &p, &make);
        assert!(text.starts_with("outcome Ok"), "{text}");
        let mut h = make();
        h.cfg.engine = Engine::Jit;
        h.wave.pc = 0;
        h.run_program(&p, 100).expect("runs");
        let n = h.wave.lanes() as u32;
        let dword = |o: usize| u32::from_le_bytes([0, 1, 2, 3].map(|k| fill_byte(o + k)));
        let tri = |l: u32| l * (l + 1) / 2;
        let lds0 = u32::from_le_bytes([5, 18, 31, 44]);
        for l in 0..n {
            assert_eq!(
                h.v(20, l as usize),
                dword(0).wrapping_add(tri(l)),
                "lane {l}"
            );
            assert_eq!(
                h.v(21, l as usize),
                lds0.wrapping_add(tri(l)),
                "lane {l} LDS"
            );
            assert_eq!(
                h.v(16, l as usize),
                dword(4).wrapping_add(tri(l)),
                "lane {l} MUBUF"
            );
        }
        assert_eq!(mem[0..4], dword(0).wrapping_add(tri(n)).to_le_bytes());
        assert_eq!(mem[4..8], dword(4).wrapping_add(tri(n)).to_le_bytes());
        assert_eq!(lds[0..4], lds0.wrapping_add(tri(n)).to_le_bytes());
    }
}

#[test]
fn random_atomics_match_the_interpreter() {
    // Every compiled atomic (and csub/inc, which stay handlers) through GLOBAL, MUBUF and DS,
    // with and without GLC, on colliding addresses (4 lanes per dword), under partial EXEC,
    // misaligned or out-of-range lanes and short V#s: bit for bit against the interpreter.
    for seed in 0..if cfg!(debug_assertions) { 40 } else { 200 } {
        let mut rng = Rng(seed * 0x9e37_79b9 + 17);
        let wave64 = rng.pct(50);
        let mut words = Vec::new();
        for _ in 0..3 + rng.below(6) {
            let data = 16 + 4 * rng.below(8) as u32;
            let dst = 48 + rng.below(8) as u32;
            let glc = if rng.pct(60) { GLC } else { 0 };
            match rng.below(3) {
                0 => {
                    let (op, _) = rng.pick(&GLOBAL_ATOMICS);
                    let (addr, saddr) = rng.pick(&[(4, 0), (5, 0), (0, OFF)]);
                    let mut w = global(op, rng.pick(&[0, 8, 16]), addr, data, saddr, dst);
                    w[0] |= glc;
                    words.extend(w);
                }
                1 => {
                    let (op, _) = rng.pick(&GLOBAL_ATOMICS);
                    let mut w = mubuf(op, rng.pick(&[0, 8, 4]), 4, data, 8, 0x80, OFFEN);
                    w[0] |= glc;
                    words.extend(w);
                }
                _ => {
                    let (op, _) = rng.pick(&DS_ATOMICS);
                    words.extend(ds(op, rng.pick(&[0, 8, 16]), 0, 7, data, data + 2, dst));
                }
            }
        }
        words.push(WAIT0);
        let exec = if rng.pct(30) { rng.next() } else { u64::MAX };
        let bad = rng
            .pct(25)
            .then(|| (rng.below(64) as usize, rng.pick(&[1u32, 4, 4000, 1 << 20])));
        let records = rng.pick(&[4096, 4096, 40, 0]);
        let vals: Vec<u32> = (0..32 * 64)
            .map(|_| {
                if rng.pct(50) {
                    rng.below(8) as u32
                } else {
                    rng.u32()
                }
            })
            .collect();
        let make = move || {
            let (mut h, a, _) = harness(wave64);
            h.wave.set_exec(exec);
            Vs::raw(a, records).set(&mut h, 8);
            h.set_v(4, |l| 8 * (l as u32 % 4));
            h.set_v(5, |l| 8 * (l as u32 % 4) + 2048);
            h.set_v(7, |l| 8 * (l as u32 % 4));
            let at = |l: usize| a + 8 * (l as u64 % 4);
            h.set_v(0, |l| at(l) as u32);
            h.set_v(1, |l| (at(l) >> 32) as u32);
            if let Some((lane, d)) = bad {
                for r in [4, 7] {
                    let v = h.v(r, lane);
                    h.wave.vgpr_set(r, lane, v + d);
                }
            }
            for r in 16..48 {
                for l in 0..64 {
                    h.wave.vgpr_set(r, l, vals[(r - 16) * 64 + l]);
                }
            }
            h
        };
        same(&format!("atomics seed {seed}"), &prog(&words), &make);
    }
}

#[test]
fn atomics_from_many_threads_add_up() {
    // A dispatch of 256 workgroups of 64 work-items, each running
    // v_mov_b32 v1, 0; v_mov_b32 v2, 1; global_atomic_add_u32 v1, v2, s[0:1]; s_endpgm
    // (s[0:1]: the kernarg pointer, here the counter) on two worker threads: every one of the
    // 16384 adds lands (the compiled add is a host atomic, as the handler's is).
    use wavesim_core::memory::DeviceMemory;
    use wavesim_rdna3::codeobj::kcp;
    use wavesim_rdna3::dispatch::{self, ExecConfig, Geometry, Launch};
    let words = [
        0x7e02_0280,
        0x7e04_0281,
        0xdc00_0000 | 0x35 << 18 | 2 << 16,
        1 | 2 << 8,
        S_ENDPGM,
    ];
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let code = 0x1000;
    let p = Program::new(&bytes, code).expect("decodes");
    assert_eq!(p.insts[2].op.name(), "global_atomic_add_u32");
    for engine in [Engine::Interp, Engine::Jit, Engine::Auto] {
        for wave64 in [false, true] {
            let mut mem = DeviceMemory::new();
            let out = mem.alloc(256, 256).expect("alloc");
            mem.write(out, &[0; 256]).expect("zero");
            let cfg = ExecConfig {
                engine,
                ..ExecConfig::default()
            };
            let l = Launch {
                kernel_name: "atomic".into(),
                prog: &p,
                entry: code,
                pc_display_base: code,
                wave64,
                num_vgprs: 16,
                mode: 0x3f0,
                code_properties: kcp::ENABLE_SGPR_KERNARG_SEGMENT_PTR
                    | if wave64 {
                        0
                    } else {
                        kcp::ENABLE_WAVEFRONT_SIZE32
                    },
                rsrc2: 2 << 1,
                packed_tid: true,
                geo: Geometry::new(&[256 * 64], &[64]).expect("geometry"),
                lds_bytes: 0,
                wgp_mode: true,
                scratch_lane_bytes: 0,
                scratch_addr: 0,
                kernarg_addr: out,
                dispatch_ptr: 0,
                queue_ptr: 0,
                dispatch_id: 0,
                threads: 2,
                max_wave_insts: 1_000_000,
                cfg,
                trap: None,
                host: None,
            };
            dispatch::run(&l, &mem).expect("runs");
            let mut b = [0u8; 4];
            mem.read(out, &mut b).expect("reads");
            assert_eq!(u32::from_le_bytes(b), 256 * 64, "{engine} wave64={wave64}");
        }
    }
}

#[test]
fn a_store_at_a_loads_checked_addresses_is_checked_again_when_they_may_have_changed() {
    // global_load_b32 v5, v[1:2], off with v[1:2] = A + 4 * lane (a whole wave of unit-stride
    // dwords: the compiled fast path checks the rows once, `codegen::contiguous`), then
    // `between`, then global_store_b32 v[1:2], v6, off (saxpy's load and store at one
    // address). With no node writing v1 or v2 in between the store reuses the load's check
    // (`RampProof`); where one may, the store checks again, and each case must match the
    // interpreter: v1 replaced by scattered addresses (lane l at A + 4 * ((5 * l) % lanes)),
    // v2 one dword higher in lane 3 (the interpreter's fault), the load writing its own
    // address row (A's dwords set to those scattered addresses: v1 = them), and a saddr load (s[4:5] = A's high
    // dword << 32, v1 the low dwords: its check covers no high row) before the 64-bit store
    // with v2 not uniform.
    let store = global(26, 0, 1, 6, OFF, 0);
    let load = global(20, 0, 1, 0, OFF, 5);
    let cases: [(&str, Vec<u32>, [u32; 2], bool); 7] = [
        ("no node between", vec![], load, false),
        (
            "a wait and an add of other rows between",
            vec![0xbf89_03f7, 0x4a0c_0d05],
            load,
            false,
        ),
        (
            "v1 rewritten with scattered addresses",
            vec![0x7e02_0307],
            load,
            false,
        ),
        (
            "v1 rewritten with the same ramp",
            vec![0x7e02_030a],
            load,
            false,
        ),
        (
            "v2 rewritten, lane 3 one dword higher",
            vec![0x7e04_0309],
            load,
            false,
        ),
        (
            "the load writes its own address row",
            vec![],
            global(20, 0, 1, 0, OFF, 1),
            false,
        ),
        (
            "a saddr load's check, then v2 not uniform",
            vec![],
            global(20, 0, 1, 0, 4, 5),
            true,
        ),
    ];
    for (what, between, load, saddr) in cases {
        let mut words = load.to_vec();
        words.extend(&between);
        words.extend(store);
        at_both_tiers(&words, |p| {
            for wave64 in [false, true] {
                let make = || {
                    let (mut h, a, _) = harness(wave64);
                    let lanes = h.wave.lanes() as u64;
                    h.set_v(1, |l| (a + 4 * l as u64) as u32);
                    h.set_v(10, |l| (a + 4 * l as u64) as u32);
                    h.set_v(7, |l| (a + 4 * ((5 * l as u64) % lanes)) as u32);
                    h.set_v(2, |_| (a >> 32) as u32);
                    h.set_v(9, |l| (a >> 32) as u32 + u32::from(l == 3));
                    if saddr {
                        h.wave.sgpr[4] = 0;
                        h.wave.sgpr[5] = (a >> 32) as u32;
                        h.set_v(2, |l| (a >> 32) as u32 + u32::from(l == 3));
                    }
                    h.set_v(6, |l| 3 * l as u32 + 1);
                    if what.contains("own address") {
                        let to: Vec<u8> = (0..lanes)
                            .flat_map(|l| ((a + 4 * ((5 * l) % lanes)) as u32).to_le_bytes())
                            .collect();
                        h.mem.write(a, &to).expect("writes A");
                    }
                    h
                };
                let (text, mem, _) = same(&format!("{what}, wave64 {wave64}"), p, &make);
                let faults = what.contains("lane 3") || what.contains("not uniform");
                assert_eq!(text.contains("Err"), faults, "{what}: {text}");
                if faults {
                    continue;
                }
                // Lane l's v6 at A + 4 * l, or at its scattered address (B follows A); after
                // the add, plus the dword the load read there.
                let lanes = if wave64 { 64 } else { 32 };
                let dword = |o: usize| u32::from_le_bytes([0, 1, 2, 3].map(|k| fill_byte(o + k)));
                for l in 0..lanes {
                    let o = if what.contains("scattered") || what.contains("own address") {
                        4 * ((5 * l) % lanes)
                    } else {
                        4 * l
                    };
                    let mut want = 3 * l as u32 + 1;
                    if what.starts_with("a wait and an add") {
                        want = want.wrapping_add(dword(4 * l));
                    }
                    let got = u32::from_le_bytes([mem[o], mem[o + 1], mem[o + 2], mem[o + 3]]);
                    assert_eq!(got, want, "{what}: lane {l}");
                }
            }
        });
    }
}
