//! clang-19 kernels that use buffer instructions, run through the rdna3 dispatch API and compared
//! with references computed here from the kernels' sources and the RDNA3 ISA guide's rules:
//! - `corpus/cl/buffer_rsrc.cl`: `__builtin_amdgcn_make_buffer_rsrc` + `raw_buffer_load/store`
//!   b8..b128, soffset addressing, range-checked loads and dropped stores;
//! - `corpus/ll/buffer_struct.ll`: structured (idxen, stride 16) loads, raw stores, atomics;
//! - `corpus/ll/buffer_formats.ll`: MUBUF format ops (V# format and dst_sel), MTBUF loads and
//!   stores, a D16 format load, store_format to f16, buffer atomic fadd and cmpswap.
//!
//! Each runs from the wave32 and the wave64 build, in DWORD and UNALIGNED alignment modes.

use std::path::PathBuf;
use wavesim_core::memory::DeviceMemory;
use wavesim_rdna3::codeobj::{CodeObject, ValueKind};
use wavesim_rdna3::dispatch::ExecConfig;
use wavesim_rdna3::dispatch::{self, Geometry, Launch};
use wavesim_rdna3::exec::Program;
use wavesim_rdna3::hsa::kernarg::{aql_packet, write_hidden_args, HiddenValues};

fn corpus(rel: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../corpus")
        .join(rel)
}

/// A kernel argument: a buffer address or a 32-bit value.
#[derive(Clone, Copy)]
enum A {
    Ptr(u64),
    U32(u32),
}

/// Loads `obj` (gfx1100-w32 or -w64) into `mem` and runs `kernel` over `grid` / `local`.
fn run(
    mem: &mut DeviceMemory,
    obj: &str,
    kernel: &str,
    grid: u32,
    local: u32,
    args: &[A],
    alignment_mode: u8,
) {
    let elf = std::fs::read(corpus(obj)).unwrap();
    let code = CodeObject::parse(&elf).unwrap();
    let base = mem.alloc(code.image.len() as u64, 4096).unwrap();
    mem.write(base, &code.image_at(base)).unwrap();
    let prog = Program::new(code.text(), base + code.text_addr).unwrap();
    let k = code.kernel(kernel).unwrap();
    let d = &k.descriptor;
    let geo = Geometry::new(&[grid], &[local]).unwrap();

    // Kernel arguments at their metadata offsets, then the hidden ones.
    let size = k.meta.kernarg_segment_size.max(d.kernarg_size) as usize;
    let mut kernarg = vec![0u8; size];
    let explicit: Vec<_> = k.explicit_args().cloned().collect();
    assert_eq!(explicit.len(), args.len(), "{kernel}: {}", k.signature());
    for (m, a) in explicit.iter().zip(args) {
        let at = m.offset as usize;
        match (a, &m.kind) {
            (A::Ptr(p), ValueKind::GlobalBuffer) => {
                kernarg[at..at + 8].copy_from_slice(&p.to_le_bytes())
            }
            (A::U32(v), ValueKind::ByValue) => {
                kernarg[at..at + 4].copy_from_slice(&v.to_le_bytes())
            }
            _ => panic!("argument kind mismatch in {}", k.signature()),
        }
    }
    let queue = mem.alloc(256, 64).unwrap();
    let hidden = HiddenValues {
        queue_ptr: queue,
        ..Default::default()
    };
    write_hidden_args(&mut kernarg, &k.meta.args, &geo, &hidden);
    // Room past the segment for wide scalar loads.
    let kernarg_addr = mem.alloc(size as u64 + 256, 64).unwrap();
    mem.write(kernarg_addr, &kernarg).unwrap();
    let private = d
        .private_segment_fixed_size
        .max(k.meta.private_segment_fixed_size)
        .next_multiple_of(4);
    let lds = d
        .group_segment_fixed_size
        .max(k.meta.group_segment_fixed_size);
    let packet_addr = mem.alloc(64, 64).unwrap();
    mem.write(
        packet_addr,
        &aql_packet(&geo, private, lds, base + k.kd_addr, kernarg_addr),
    )
    .unwrap();
    let mut launch = Launch {
        kernel_name: k.name.clone(),
        prog: &prog,
        entry: base + k.entry,
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
        dispatch_ptr: packet_addr,
        queue_ptr: queue,
        dispatch_id: 0,
        threads: 1,
        max_wave_insts: 1 << 20,
        cfg: ExecConfig {
            alignment_mode,
            ..ExecConfig::default()
        },
        trap: None,
        host: None,
    };
    if launch.scratch_bytes() > 0 {
        launch.scratch_addr = mem.alloc(launch.scratch_bytes(), 256).unwrap();
    }
    if let Err(e) = dispatch::run(&launch, mem) {
        panic!("{obj} {kernel}: {e}");
    }
}

fn read(mem: &DeviceMemory, addr: u64, n: usize) -> Vec<u8> {
    let mut b = vec![0; n];
    mem.read(addr, &mut b).unwrap();
    b
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// A deterministic input pattern (xorshift), mixing all byte values.
fn pattern(n: usize, seed: u32) -> Vec<u8> {
    let mut x = seed;
    (0..n)
        .map(|_| {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            (x >> 11) as u8
        })
        .collect()
}

fn each_build(f: impl Fn(&str, u8)) {
    for dir in ["gfx1100-w32", "gfx1100-w64"] {
        for mode in [0, 3] {
            f(dir, mode);
        }
    }
}

#[test]
fn buffer_rsrc_raw_loads_and_stores() {
    each_build(|dir, mode| {
        let mut mem = DeviceMemory::new();
        let input = pattern(512, 0x1234_5678);
        let (n, in_bytes, out_bytes, out_len) = (96u32, 256u64, 2976u64, 3072usize);
        let inp = mem.alloc(512, 256).unwrap();
        mem.write(inp, &input).unwrap();
        let out = mem.alloc(out_len as u64, 256).unwrap();
        run(
            &mut mem,
            &format!("{dir}/buffer_rsrc.hsaco"),
            "buffer_rsrc",
            n,
            32,
            &[
                A::Ptr(inp),
                A::Ptr(out),
                A::U32(in_bytes as u32),
                A::U32(out_bytes as u32),
                A::U32(n),
            ],
            mode,
        );
        // Reference (raw V#s, OOB_SELECT 3): an access of `len` bytes at voffset `off` is in range
        // iff off + len <= num_records (soffset excluded); b64/b128 per dword.
        let ld = |off: u64, len: u64| -> u32 {
            if off + len > in_bytes {
                return 0;
            }
            let mut b = [0u8; 4];
            b[..len as usize].copy_from_slice(&input[off as usize..(off + len) as usize]);
            u32::from_le_bytes(b)
        };
        let mut want = vec![0u8; out_len];
        let mut st = |voff: u64, addr: u64, bytes: &[u8]| {
            if voff + bytes.len() as u64 <= out_bytes {
                want[addr as usize..addr as usize + bytes.len()].copy_from_slice(bytes);
            }
        };
        for i in 0..n as u64 {
            let w0 = ld(i * 4, 4);
            // soffset 64 moves the address but not the range check.
            let w1 = if (i & 15) * 4 + 4 <= in_bytes {
                u32::from_le_bytes(
                    input[(64 + (i & 15) * 4) as usize..][..4]
                        .try_into()
                        .unwrap(),
                )
            } else {
                0
            };
            let w2 = ld(i * 3, 1);
            let w3 = ld(i * 2, 2);
            let v2 = [ld(i * 8, 4), ld(i * 8 + 4, 4)];
            let v4: Vec<u32> = (0..4).map(|k| ld(i * 16 + 4 * k, 4)).collect();
            let b = i * 32;
            for (k, v) in [w0, w1, w2, w3].iter().enumerate() {
                st(b + 4 * k as u64, b + 4 * k as u64, &v.to_le_bytes());
            }
            st(b + 16, b + 16, &v2[0].wrapping_add(1).to_le_bytes());
            st(b + 20, b + 20, &v2[1].wrapping_add(2).to_le_bytes());
            st(
                b + 24,
                b + 24,
                &(v4[0] ^ v4[1] ^ v4[2] ^ v4[3]).to_le_bytes(),
            );
            st(b + 28, b + 28, &((w0 >> 4) as u16).to_le_bytes());
            st(b + 30, b + 30, &[w1 as u8]);
            // store_b8 with voffset b and soffset 31: checked at b, written at b + 31.
            st(b, b + 31, &[0xab]);
        }
        assert_eq!(read(&mem, out, out_len), want, "{dir} mode {mode}");
    });
}

#[test]
fn buffer_struct_idxen_loads_and_atomics() {
    each_build(|dir, mode| {
        let mut mem = DeviceMemory::new();
        let n = 300u32;
        let recs_b = pattern(16 * n as usize, 0x0bad_cafe);
        let recs = words(&recs_b);
        let r = mem.alloc(recs_b.len() as u64, 256).unwrap();
        mem.write(r, &recs_b).unwrap();
        let out = mem.alloc(4 * n as u64, 256).unwrap();
        let acc = mem.alloc(16, 256).unwrap();
        run(
            &mut mem,
            &format!("{dir}/buffer_struct.hsaco"),
            "buffer_struct",
            320,
            64,
            &[A::Ptr(r), A::Ptr(out), A::Ptr(acc), A::U32(n)],
            mode,
        );
        // Record i = {key, a, b, c}; out[i] = (a + b * key) ^ c, all in range for i < n.
        let want: Vec<u32> = (0..n as usize)
            .map(|i| {
                let [key, a, b, c] = [
                    recs[4 * i],
                    recs[4 * i + 1],
                    recs[4 * i + 2],
                    recs[4 * i + 3],
                ];
                a.wrapping_add(b.wrapping_mul(key)) ^ c
            })
            .collect();
        assert_eq!(
            words(&read(&mem, out, 4 * n as usize)),
            want,
            "{dir} mode {mode}"
        );
        let keys = (0..n as usize).fold(0u32, |s, i| s.wrapping_add(recs[4 * i]));
        let cmax = (0..n as usize).map(|i| recs[4 * i + 3]).max().unwrap();
        // acc[2] counts to n; the returned old values 0..n-1 sum to n(n-1)/2 in any order.
        assert_eq!(
            words(&read(&mem, acc, 16)),
            vec![keys, cmax, n, n * (n - 1) / 2],
            "{dir} mode {mode}"
        );
    });
}

/// f32 of a UNORM component: u / (2^bits - 1), rounded to nearest.
fn unorm(u: u32, bits: u32) -> f32 {
    (u as f64 / ((1u64 << bits) - 1) as f64) as f32
}

fn snorm16(s: i16) -> f32 {
    ((s as f64) / 32767.0).max(-1.0) as f32
}

/// f32 -> SNORM8 for a store: clamp to [-1, 1], scale by 127, round half to even.
fn to_snorm8(x: f32) -> u8 {
    let x = if x.is_nan() {
        0.0
    } else {
        x.clamp(-1.0, 1.0) as f64
    };
    (x * 127.0).round_ties_even() as i8 as u8
}

#[test]
fn buffer_formats_format_and_typed_ops() {
    each_build(|dir, mode| {
        let mut mem = DeviceMemory::new();
        let (n, total) = (100u32, 128u32);
        // `in` holds `total` dwords but the V#s expose n of them; make some 16-bit halves -32768
        // and -32767 to hit the SNORM -1.0 cases.
        let mut input = pattern(4 * total as usize, 0x5eed_f00d);
        input[4 * 3..4 * 3 + 2].copy_from_slice(&0x8000u16.to_le_bytes());
        input[4 * 5 + 2..4 * 5 + 4].copy_from_slice(&0x8001u16.to_le_bytes());
        let inp = mem.alloc(input.len() as u64, 256).unwrap();
        mem.write(inp, &input).unwrap();
        let out = mem.alloc(48 * total as u64, 256).unwrap();
        let acc = mem.alloc(4 * (total as u64 + 1), 256).unwrap();
        let acc_init: Vec<u8> = std::iter::once(0u32)
            .chain(0..total)
            .flat_map(|v| v.to_le_bytes())
            .collect();
        mem.write(acc, &acc_init).unwrap();
        run(
            &mut mem,
            &format!("{dir}/buffer_formats.hsaco"),
            "buffer_formats",
            total,
            64,
            &[
                A::Ptr(inp),
                A::Ptr(out),
                A::Ptr(acc),
                A::U32(n),
                A::U32(total),
            ],
            mode,
        );
        let got = read(&mem, out, 48 * total as usize);
        for i in 0..total as usize {
            let inr = (i as u32) < n;
            let b: [u8; 4] = input[4 * i..4 * i + 4].try_into().unwrap();
            // Structured 8_8_8_8_UNORM with dst_sel (Z, Y, X, SEL_1); out of range: (0, 0, 0, 1).
            let f = if inr {
                [
                    unorm(b[2] as u32, 8),
                    unorm(b[1] as u32, 8),
                    unorm(b[0] as u32, 8),
                    1.0,
                ]
            } else {
                [0.0, 0.0, 0.0, 1.0]
            };
            // tbuffer 16_16_SNORM at 4i, in range iff 4i + 4 <= 4n (whole element).
            let t = if inr {
                [
                    snorm16(i16::from_le_bytes([b[0], b[1]])),
                    snorm16(i16::from_le_bytes([b[2], b[3]])),
                ]
            } else {
                [0.0, 0.0]
            };
            let mut want = Vec::with_capacity(48);
            for v in f.iter().chain(&t) {
                want.extend_from_slice(&v.to_bits().to_le_bytes());
            }
            // store_format 16_16_16_16_FLOAT of (f.x, f.y, t.x, t.y): f32 -> f16 nearest-even.
            for v in [f[0], f[1], t[0], t[1]] {
                want.extend_from_slice(&half::f16::from_f32(v).to_bits().to_le_bytes());
            }
            // D16 load of 8_8_8_8_UNORM: each u / 255 rounded to the nearest f16.
            for &byte in &b {
                let h = if inr {
                    half::f16::from_f64(byte as f64 / 255.0)
                } else {
                    half::f16::ZERO
                };
                want.extend_from_slice(&h.to_bits().to_le_bytes());
            }
            // tbuffer store 8_8_8_8_SNORM of (t.x, -t.y, 0.5, -1.0): 0.5 * 127 = 63.5 -> 64.
            want.extend_from_slice(&[to_snorm8(t[0]), to_snorm8(-t[1]), 64, 0x81]);
            // cmpswap on acc[1 + i] = i returns i.
            want.extend_from_slice(&(i as u32 ^ 0xabc).to_le_bytes());
            assert_eq!(
                &got[48 * i..48 * i + 48],
                &want[..],
                "{dir} mode {mode} item {i}"
            );
        }
        // acc[0] = sum of 0.5 i (exact in f32); acc[1 + i] = 3i for even i, i for odd i.
        let accw = words(&read(&mem, acc, 4 * (total as usize + 1)));
        let sum = 0.5 * (total * (total - 1) / 2) as f32;
        assert_eq!(f32::from_bits(accw[0]), sum);
        for i in 0..total {
            let want = if i % 2 == 0 { 3 * i } else { i };
            assert_eq!(accw[1 + i as usize], want, "acc slot {i}");
        }
    });
}
