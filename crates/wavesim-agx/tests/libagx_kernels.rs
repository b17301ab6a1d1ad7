//! Mesa 25.0.7's own precompiled compute kernels (`src/asahi/libagx/query.cl`, `draws.cl`,
//! compiled by its asahi_clc for G13 while Mesa builds; extracted from `libagx_shaders.c` by
//! tools/agx/libagx_kernels.py into corpus/agx/libagx/NAME.vV.{bin,toml}), dispatched as the
//! driver dispatches them (`wavesim_agx::kernel`: arguments in uniforms laid out as
//! `struct NAME_args`, promoted constants (rodata) at their base uniform, the preamble once, the
//! main part over the grid). Each must compute what a Rust model of its OpenCL source computes.

use wavesim_agx::kernel::{GridKernel, KernelArg};
use wavesim_core::memory::DeviceMemory;

fn kernel(name: &str) -> GridKernel {
    let path = |ext: &str| {
        format!(
            "{}/../../corpus/agx/libagx/{name}.{ext}",
            env!("CARGO_MANIFEST_DIR")
        )
    };
    let code = std::fs::read(path("bin")).unwrap();
    let report = std::fs::read_to_string(path("toml")).unwrap();
    GridKernel::new(code, &report).unwrap()
}

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 11
    }
}

fn alloc_u64s(m: &mut DeviceMemory, v: &[u64]) -> u64 {
    let a = m.alloc(8 * v.len().max(1) as u64, 16).unwrap();
    for (i, x) in v.iter().enumerate() {
        m.write_u64(a + 8 * i as u64, *x).unwrap();
    }
    a
}

fn alloc_u32s(m: &mut DeviceMemory, v: &[u32]) -> u64 {
    let a = m.alloc(4 * v.len().max(1) as u64, 16).unwrap();
    for (i, x) in v.iter().enumerate() {
        m.write_u32(a + 4 * i as u64, *x).unwrap();
    }
    a
}

fn read_u32s(m: &DeviceMemory, a: u64, n: usize) -> Vec<u32> {
    (0..n)
        .map(|i| m.read_u32(a + 4 * i as u64).unwrap())
        .collect()
}

/// `*statistic += delta` (u32, wrapping), `*address = value`, `*dest = *src` (64-bit), and
/// `*statistic += local_size_threads * grid[0] * grid[1] * grid[2]` (u32 arithmetic, wrapping).
#[test]
fn one_thread_kernels() {
    for (start, delta) in [(41u32, 1000u32), (0xFFFF_FFF0, 0x20)] {
        let mut m = DeviceMemory::new();
        let s = alloc_u32s(&mut m, &[start]);
        kernel("libagx_increment_statistic.v0")
            .dispatch(&[KernelArg::U64(s), KernelArg::U32(delta)], &[1], &m, 1)
            .unwrap();
        assert_eq!(m.read_u32(s).unwrap(), start.wrapping_add(delta));
    }
    let mut m = DeviceMemory::new();
    let a = alloc_u32s(&mut m, &[0, 0]);
    kernel("libagx_write_u32.v0")
        .dispatch(
            &[KernelArg::U64(a + 4), KernelArg::U32(0xDEAD_BEEF)],
            &[1],
            &m,
            1,
        )
        .unwrap();
    assert_eq!(read_u32s(&m, a, 2), vec![0, 0xDEAD_BEEF]);
    let src = alloc_u64s(&mut m, &[0x0123_4567_89AB_CDEF]);
    let dst = alloc_u64s(&mut m, &[0]);
    kernel("libagx_copy_timestamp.v0")
        .dispatch(&[KernelArg::U64(dst), KernelArg::U64(src)], &[1], &m, 1)
        .unwrap();
    assert_eq!(m.read_u64(dst).unwrap(), 0x0123_4567_89AB_CDEF);
    for (grid, start, lst) in [([3u32, 4, 5], 7u32, 32u32), ([65536, 65536, 2], 5, 3)] {
        let g = alloc_u32s(&mut m, &grid);
        let s = alloc_u32s(&mut m, &[start]);
        kernel("libagx_increment_cs_invocations.v0")
            .dispatch(
                &[KernelArg::U64(g), KernelArg::U64(s), KernelArg::U32(lst)],
                &[1],
                &m,
                1,
            )
            .unwrap();
        let want = start.wrapping_add(
            lst.wrapping_mul(grid[0])
                .wrapping_mul(grid[1])
                .wrapping_mul(grid[2]),
        );
        assert_eq!(m.read_u32(s).unwrap(), want, "{grid:?}");
    }
}

/// `libagx_copy_query_gl(query, dest, value_type, bool_size)`: value = *query; bool_size 4 keeps
/// the low 32 bits; a nonzero bool_size makes it value != 0; value types I32 (0) and U32 (1) store
/// 32 bits, `convert_int_sat((int64_t)value)` (clamped to i32) or `convert_uint_sat(value)`
/// (clamped to u32); I64/U64 (2, 3) store the 64-bit value. The rest of the 8-byte destination
/// keeps its sentinel.
#[test]
fn copy_query_gl() {
    let k = kernel("libagx_copy_query_gl.v0");
    let values = [
        0u64,
        1,
        0x7FFF_FFFF,
        0x8000_0000,
        0xFFFF_FFFF,
        0x1_0000_0000,
        0x1_0000_0005,
        u64::MAX,
        0x8000_0000_0000_0000,
        (-5i64) as u64,
    ];
    for &value in &values {
        for value_type in 0u16..4 {
            for bool_size in [0u16, 4, 8] {
                let mut m = DeviceMemory::new();
                let q = alloc_u64s(&mut m, &[value]);
                let d = alloc_u64s(&mut m, &[0xAAAA_AAAA_AAAA_AAAA]);
                k.dispatch(
                    &[
                        KernelArg::U64(q),
                        KernelArg::U64(d),
                        KernelArg::U16(value_type),
                        KernelArg::U16(bool_size),
                    ],
                    &[1],
                    &m,
                    1,
                )
                .unwrap();
                let mut v = value;
                if bool_size == 4 {
                    v &= 0xFFFF_FFFF;
                }
                if bool_size != 0 {
                    v = u64::from(v != 0);
                }
                let want = match value_type {
                    0 => {
                        0xAAAA_AAAA_0000_0000
                            | u64::from(
                                (v as i64).clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32
                            )
                    }
                    1 => 0xAAAA_AAAA_0000_0000 | v.min(u64::from(u32::MAX)),
                    _ => v,
                };
                assert_eq!(
                    m.read_u64(d).unwrap(),
                    want,
                    "value {value:#x} type {value_type} bool {bool_size}"
                );
            }
        }
    }
}

/// `libagx_copy_query` over n queries (global id i, workgroups of 32, the last partly filled):
/// query = first + i; available = availability ? availability[query] != 0 : results[query] !=
/// ~0; if available or partial, reports_per_query results from index (oq_index ? oq_index[query]
/// : query) * reports_per_query are written at dst_addr + i * dst_stride as 64- or 32-bit
/// values (truncated); with_availability appends `available` after them.
#[test]
fn copy_query() {
    let k = kernel("libagx_copy_query.v0");
    let mut rng = Rng(27);
    for case in 0..12u32 {
        let n = [1u32, 31, 40][case as usize % 3];
        let reports = 1 + case % 3;
        let is64 = case % 2 == 0;
        let partial = case % 4 == 1;
        let with_avail = case % 3 != 0;
        let use_avail = case % 5 < 3;
        let use_oq = case % 4 >= 2;
        let first = case % 3;
        let queries = (n + first) as usize;
        let mut m = DeviceMemory::new();
        let avail: Vec<u32> = (0..queries)
            .map(|_| rng.next().is_multiple_of(3) as u32 * 7)
            .collect();
        let oq: Vec<u16> = (0..queries)
            .map(|q| ((q * 5 + 3) % queries) as u16)
            .collect();
        let results: Vec<u64> = (0..queries * reports as usize)
            .map(|_| {
                if rng.next().is_multiple_of(4) {
                    u64::MAX
                } else {
                    rng.next()
                }
            })
            .collect();
        let a_avail = if use_avail {
            alloc_u32s(&mut m, &avail)
        } else {
            0
        };
        let a_res = alloc_u64s(&mut m, &results);
        let a_oq = if use_oq {
            let a = m.alloc(2 * queries as u64, 16).unwrap();
            for (i, v) in oq.iter().enumerate() {
                m.write(a + 2 * i as u64, &v.to_le_bytes()).unwrap();
            }
            a
        } else {
            0
        };
        let stride = 8 * (u64::from(reports) + 2);
        let sentinel = vec![0x5555_5555_5555_5555u64; n as usize * (reports as usize + 2)];
        let dst = alloc_u64s(&mut m, &sentinel);
        k.dispatch(
            &[
                KernelArg::U64(a_avail),
                KernelArg::U64(a_res),
                KernelArg::U64(a_oq),
                KernelArg::U64(dst),
                KernelArg::U64(stride),
                KernelArg::U32(first),
                KernelArg::U16(partial as u16),
                KernelArg::U16(is64 as u16),
                KernelArg::U16(with_avail as u16),
                KernelArg::U16(reports as u16),
            ],
            &[n],
            &m,
            2,
        )
        .unwrap();
        let mut want = vec![0x55u8; sentinel.len() * 8];
        for i in 0..n as usize {
            let query = first as usize + i;
            let available = if use_avail {
                avail[query] != 0
            } else {
                results[query] != u64::MAX
            };
            let base = i * stride as usize;
            let mut put = |idx: usize, v: u64| {
                if is64 {
                    want[base + 8 * idx..base + 8 * idx + 8].copy_from_slice(&v.to_le_bytes());
                } else {
                    want[base + 4 * idx..base + 4 * idx + 4]
                        .copy_from_slice(&(v as u32).to_le_bytes());
                }
            };
            if available || partial {
                let ri = if use_oq { oq[query] as usize } else { query };
                for r in 0..reports as usize {
                    put(r, results[ri * reports as usize + r]);
                }
            }
            if with_avail {
                put(reports as usize, available as u64);
            }
        }
        let mut got = vec![0u8; want.len()];
        m.read(dst, &mut got).unwrap();
        assert_eq!(got, want, "case {case}");
    }
}

/// `libagx_predicate_indirect(out, in, draw_count, stride_el)` with the variant parameter
/// `indexed__2` (variant 0: 4 words a draw, 1: 5): draw = global id; out[draw * words + i] =
/// draw < *draw_count ? in[draw * stride_el + i] : 0. 40 draws, 27 enabled, stride 6 words.
#[test]
fn predicate_indirect_variants() {
    for (variant, words) in [(0, 4usize), (1, 5)] {
        let k = kernel(&format!("libagx_predicate_indirect.v{variant}"));
        let mut m = DeviceMemory::new();
        let input: Vec<u32> = (0..40 * 6).map(|i| 1000 + i).collect();
        let a_in = alloc_u32s(&mut m, &input);
        let a_count = alloc_u32s(&mut m, &[27]);
        let a_out = alloc_u32s(&mut m, &vec![0xEEEE_EEEE; 40 * words + 3]);
        k.dispatch(
            &[
                KernelArg::U64(a_out),
                KernelArg::U64(a_in),
                KernelArg::U64(a_count),
                KernelArg::U32(6),
            ],
            &[40],
            &m,
            1,
        )
        .unwrap();
        let mut want = vec![0xEEEE_EEEEu32; 40 * words + 3];
        for draw in 0..40 {
            for i in 0..words {
                want[draw * words + i] = if draw < 27 { input[draw * 6 + i] } else { 0 };
            }
        }
        assert_eq!(read_u32s(&m, a_out, want.len()), want, "variant {variant}");
    }
}

/// `libagx_write_u32s(p)`: thread id writes p[id].value to p[id].address; `struct
/// libagx_imm_write` is a 64-bit address and a 32-bit value, 16 bytes with its padding. 37
/// writes into a shuffled set of words.
#[test]
fn write_u32s() {
    let k = kernel("libagx_write_u32s.v0");
    let mut m = DeviceMemory::new();
    let target = alloc_u32s(&mut m, &[0; 64]);
    let p = m.alloc(16 * 37, 16).unwrap();
    for id in 0..37u64 {
        m.write_u64(p + 16 * id, target + 4 * ((id * 7) % 64))
            .unwrap();
        m.write_u32(p + 16 * id + 8, 0x100 + id as u32).unwrap();
    }
    k.dispatch(&[KernelArg::U64(p)], &[37], &m, 1).unwrap();
    let mut want = vec![0u32; 64];
    for id in 0..37usize {
        want[(id * 7) % 64] = 0x100 + id as u32;
    }
    assert_eq!(read_u32s(&m, target, 64), want);
}

/// Mesa's `u_decomposed_prims_for_vertices` (`util/u_prim.h`) for `enum mesa_prim` values 0-14.
fn decomposed_prims(prim: u32, v: u32) -> u32 {
    let at_least = |n: u32, f: &dyn Fn(u32) -> u32| if v >= n { f(v) } else { 0 };
    match prim {
        0 => v,
        1 => v / 2,
        2 => at_least(2, &|v| v),
        3 => at_least(2, &|v| v - 1),
        4 => v / 3,
        5 | 6 => at_least(3, &|v| v - 2),
        7 => v / 4,
        8 => at_least(4, &|v| (v - 2) / 2),
        10 => v / 4,
        11 => at_least(4, &|v| v - 3),
        12 => v / 6,
        13 => at_least(6, &|v| 1 + (v - 6) / 2),
        _ => u32::from(v >= 3),
    }
}

/// `libagx_increment_ia(ia_vertices, ia_primitives, vs_invocations, c_prims, c_invs, draw, prim)`
/// (geometry.cl): `increment_counters(a, b, c, n)` adds n to each non-null counter; vertices and
/// VS invocations grow by draw[0] * draw[1], primitives, clipper primitives and invocations by
/// `u_decomposed_prims_for_vertices(prim, draw[0]) * draw[1]`. Every primitive type 0-14 with
/// vertex counts 0-13 and 3 instances; the VS-invocation and clipper-invocation counters null in
/// every other case.
#[test]
fn increment_ia() {
    let k = kernel("libagx_increment_ia.v0");
    for prim in 0u32..15 {
        for verts in 0u32..14 {
            let with_nulls = (prim + verts) % 2 == 1;
            let mut m = DeviceMemory::new();
            let counters: Vec<u64> = (0..5)
                .map(|i| {
                    if with_nulls && (i == 2 || i == 4) {
                        0
                    } else {
                        alloc_u32s(&mut m, &[100 * i as u32 + 1])
                    }
                })
                .collect();
            let draw = alloc_u32s(&mut m, &[verts, 3, 0, 0]);
            let mut args: Vec<KernelArg> = counters.iter().map(|&a| KernelArg::U64(a)).collect();
            args.push(KernelArg::U64(draw));
            args.push(KernelArg::U32(prim));
            k.dispatch(&args, &[1], &m, 1).unwrap();
            let v = verts * 3;
            let p = decomposed_prims(prim, verts) * 3;
            for (i, (&a, add)) in counters.iter().zip([v, p, v, p, p]).enumerate() {
                if a != 0 {
                    assert_eq!(
                        m.read_u32(a).unwrap(),
                        100 * i as u32 + 1 + add,
                        "prim {prim} vertices {verts} counter {i}"
                    );
                }
            }
        }
    }
}

/// `libagx_copy_xfb_counters(push)` (workgroup of 4): thread i copies *push->src[i] to
/// *push->dest[i], or writes 0 when src[i] is null; `struct libagx_xfb_counter_copy` is four
/// 64-bit destinations then four 64-bit sources.
#[test]
fn copy_xfb_counters() {
    let k = kernel("libagx_copy_xfb_counters.v0");
    let mut m = DeviceMemory::new();
    let src = alloc_u32s(&mut m, &[11, 22, 33, 44]);
    let dst = alloc_u32s(&mut m, &[0xEEEE_EEEE; 4]);
    let srcs = [src, 0, src + 8, src + 12];
    let push: Vec<u64> = (0..4)
        .map(|i| dst + 4 * i)
        .chain(srcs.iter().copied())
        .collect();
    let p = alloc_u64s(&mut m, &push);
    k.dispatch(&[KernelArg::U64(p)], &[4], &m, 1).unwrap();
    assert_eq!(read_u32s(&m, dst, 4), vec![11, 0, 33, 44]);
}

/// `libagx_prefix_sum_geom(p)` (geometry.cl, workgroups of 1024: threadgroup scratch, barriers and
/// SIMD-group scans): workgroup w replaces word w of each `count_buffer_stride / 4`-word record of
/// `p->count_buffer` by the inclusive prefix sum (u32, wrapping) over the first
/// `p->input_primitives` records. `struct agx_geometry_params` (geometry.h, shared by host and
/// kernels) has `count_buffer` at byte 16, `input_primitives` at 312, `count_buffer_stride` at
/// 320 (offsetof by the host compiler on Mesa 25.0.7's header). 2500 records of 3 words: two
/// full passes of 1024 and a remainder of 452; the words after the records keep their values.
#[test]
fn prefix_sum_geom() {
    let k = kernel("libagx_prefix_sum_geom.v0");
    let (len, words) = (2500usize, 3usize);
    let mut rng = Rng(99);
    let data: Vec<u32> = (0..len * words + 5)
        .map(|_| (rng.next() as u32) >> (rng.next() % 32))
        .collect();
    let mut m = DeviceMemory::new();
    let buf = alloc_u32s(&mut m, &data);
    let p = m.alloc(328, 16).unwrap();
    m.write_u64(p + 16, buf).unwrap();
    m.write_u32(p + 312, len as u32).unwrap();
    m.write_u32(p + 320, 4 * words as u32).unwrap();
    k.dispatch(&[KernelArg::U64(p)], &[1024 * words as u32], &m, 2)
        .unwrap();
    let mut want = data.clone();
    for w in 0..words {
        let mut sum = 0u32;
        for i in 0..len {
            sum = sum.wrapping_add(data[i * words + w]);
            want[i * words + w] = sum;
        }
    }
    assert_eq!(read_u32s(&m, buf, want.len()), want);
}

/// `libagx_increment_ia_restart(..., draw, index_buffer, index_buffer_range_el, restart_index,
/// index_size_B, prim)` (geometry.cl, one workgroup of 1024: a loop over the indices,
/// threadgroup atomic accumulation between barriers, then thread 0 alone): index i of the draw
/// is element draw[2] + i, read as 1, 2 or 4 bytes, or 0 when the element is at or past
/// `index_buffer_range_el` (`load_index`). Vertices and VS invocations grow by the number of
/// non-restart indices times draw[1]; primitives, clipper primitives and invocations by the
/// decomposed primitives of each run between restarts (`u_decomposed_prims_for_vertices(prim, i
/// - last_restart - 1)` at each restart and once for the tail) times draw[1].
#[test]
fn increment_ia_restart() {
    let k = kernel("libagx_increment_ia_restart.v0");
    let mut rng = Rng(5);
    for (case, (size, prim, count, start, range)) in [
        (1u32, 4u32, 3000u32, 7u32, 4000u32),
        (2, 5, 2100, 0, 1500),
        (4, 1, 900, 100, 1000),
        (4, 6, 40, 3, 43),
    ]
    .into_iter()
    .enumerate()
    {
        let restart = if size == 4 {
            0xFFFF_FFFF
        } else {
            (1u32 << (8 * size)) - 1
        };
        let elems: Vec<u32> = (0..range + 8)
            .map(|_| {
                if rng.next().is_multiple_of(9) {
                    restart
                } else {
                    (rng.next() as u32) & restart.wrapping_sub(1)
                }
            })
            .collect();
        let mut m = DeviceMemory::new();
        let bytes: Vec<u8> = elems
            .iter()
            .flat_map(|e| e.to_le_bytes()[..size as usize].to_vec())
            .collect();
        let ib = m.alloc(bytes.len() as u64, 16).unwrap();
        m.write(ib, &bytes).unwrap();
        let counters: Vec<u64> = (0..5).map(|i| alloc_u32s(&mut m, &[10 * i])).collect();
        let draw = alloc_u32s(&mut m, &[count, 2, start, 0]);
        let mut args: Vec<KernelArg> = counters.iter().map(|&a| KernelArg::U64(a)).collect();
        args.extend([
            KernelArg::U64(draw),
            KernelArg::U64(ib),
            KernelArg::U32(range),
            KernelArg::U32(restart),
            KernelArg::U32(size),
            KernelArg::U32(prim),
        ]);
        k.dispatch(&args, &[1024], &m, 2).unwrap();
        let index = |i: u32| {
            let el = start + i;
            if el >= range {
                0
            } else {
                elems[el as usize]
            }
        };
        let vertices = (0..count).filter(|&i| index(i) != restart).count() as u32;
        let (mut prims, mut last) = (0u32, -1i64);
        for i in 0..count {
            if index(i) == restart {
                prims += decomposed_prims(prim, (i64::from(i) - last - 1) as u32);
                last = i64::from(i);
            }
        }
        prims += decomposed_prims(prim, (i64::from(count) - last - 1) as u32);
        let adds = [vertices * 2, prims * 2, vertices * 2, prims * 2, prims * 2];
        for (i, (&a, add)) in counters.iter().zip(adds).enumerate() {
            assert_eq!(
                m.read_u32(a).unwrap(),
                10 * i as u32 + add,
                "case {case} counter {i}"
            );
        }
    }
}

/// Every libagx binary, main part on, lists every byte as applegpu's disassemble.py does with its
/// STOP_ON_STOP switch off (tools/agx/gen_binary_disasm.sh writes NAME.applegpu_all.txt).
#[test]
fn disassembly_equals_applegpu() {
    let dir = format!("{}/../../corpus/agx/libagx", env!("CARGO_MANIFEST_DIR"));
    let mut n = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().and_then(|e| e.to_str()) != Some("bin") {
            continue;
        }
        let stem = path.with_extension("");
        let report = std::fs::read_to_string(format!("{}.toml", stem.display())).unwrap();
        let main: usize = report
            .lines()
            .find_map(|l| l.strip_prefix("main_offset = "))
            .unwrap()
            .parse()
            .unwrap();
        let code = std::fs::read(&path).unwrap();
        let want = std::fs::read_to_string(format!("{}.applegpu_all.txt", stem.display())).unwrap();
        assert_eq!(
            wavesim_agx::disassemble_raw(&code[main..], 0).unwrap(),
            want,
            "{}",
            path.display()
        );
        n += 1;
    }
    assert_eq!(n, 48);
}

/// `mesa_vertices_per_prim` (compiler/shader_enums.h) for the primitive types unroll handles.
fn vertices_per_prim(prim: u32) -> u32 {
    match prim {
        0 => 1,
        1..=3 => 2,
        4..=6 => 3,
        10 | 11 => 4,
        12 | 13 => 6,
        _ => 4,
    }
}

/// geometry.cl's `vertex_id_for_topology` (with `libagx_vertex_id_for_line_loop`,
/// `libagx_map_vertex_in_tri_strip`, `libagx_vertex_id_for_tri_fan` and
/// `libagx_vertex_id_for_tri_strip_adj`, the last in u32 arithmetic as in OpenCL).
fn vertex_id_for_topology(mode: u32, ff: bool, prim: u32, vert: u32, num_prims: u32) -> u32 {
    match mode {
        0 | 1 | 4 | 10 | 12 => prim * vertices_per_prim(mode) + vert,
        2 => {
            if prim == num_prims - 1 && vert == 1 {
                0
            } else {
                prim + vert
            }
        }
        3 | 11 => prim + vert,
        5 => {
            let pv = if ff { 0 } else { 2 };
            let even = prim & 1 == 0;
            prim + if vert == pv || even {
                vert
            } else {
                (3 - pv) - vert
            }
        }
        6 => {
            let vert = if ff {
                if vert == 2 {
                    0
                } else {
                    vert + 1
                }
            } else {
                vert
            };
            if vert == 0 {
                0
            } else {
                prim + vert
            }
        }
        13 => {
            let last = prim == num_prims - 1;
            let first = prim == 0;
            let even = prim & 1 == 0;
            let even_or_first = even || first;
            let vert = if !ff && !even_or_first {
                (vert + 4) % 6
            } else {
                vert
            };
            let offsets = [
                0u32,
                if first {
                    1
                } else if even {
                    (-2i32) as u32
                } else {
                    3
                },
                if even_or_first { 2 } else { 4 },
                if last { 5 } else { 6 },
                if even_or_first { 4 } else { 2 },
                if even_or_first { 3 } else { (-2i32) as u32 },
            ];
            (prim * 2).wrapping_add(offsets[vert as usize])
        }
        _ => 0,
    }
}

/// `libagx_unroll_restart(heap, index_buffer, in_draw, out_draw, zero_sink, max_draws,
/// restart_index, index_buffer_size_el, flatshade_first, index_size_log2__3, mode__11)`
/// (geometry.cl, one workgroup of 1024: threadgroup ballots to find restarts, then lanes writing
/// in parallel), all 33 variants: variant I is index_size_log2 = I mod 3 and the compact mode
/// I / 3 (`nir_precomp_decode_variant_index`), the mode `libagx_uncompact_prim` of it (7-10 are
/// the adjacency types 10-13). Model: thread 0 allocates the worst case (decomposed primitives
/// of the whole draw times vertices per primitive times the index size, 8-aligned) from
/// `heap->heap_bottom` and fills out_draw[1..5] (instances, the allocation's offset in indices,
/// bias, base instance); indices come from `index_buffer + in_draw[2] * size` (or the zero sink
/// past `index_buffer_size_el`), each read 0 at or past `index_buffer_size_el` (`load_index`);
/// between restarts (or the end) each run's decomposed primitives are written vertex by vertex
/// in `vertex_id_for_topology`'s order; out_draw[0] = primitives written times vertices per
/// primitive. Both provoking-vertex orders; runs of every length from the random restarts.
#[test]
fn unroll_restart_all_variants() {
    let mut rng = Rng(31);
    for variant in 0u32..33 {
        let k = kernel(&format!("libagx_unroll_restart.v{variant}"));
        let size = 1u32 << (variant % 3);
        let compact = variant / 3;
        let mode = if compact >= 7 { compact + 3 } else { compact };
        let ff = variant % 2 == 0;
        let restart = if size == 4 {
            u32::MAX
        } else {
            (1u32 << (8 * size)) - 1
        };
        let (count, start, size_el) = if variant % 5 == 0 {
            (1500u32, 5u32, 1490u32)
        } else {
            (60, 3, 70)
        };
        let elems: Vec<u32> = (0..size_el + start + count + 8)
            .map(|_| {
                if rng.next().is_multiple_of(8) {
                    restart
                } else {
                    (rng.next() as u32) % 200
                }
            })
            .collect();
        let mut m = DeviceMemory::new();
        let bytes: Vec<u8> = elems
            .iter()
            .flat_map(|e| e.to_le_bytes()[..size as usize].to_vec())
            .collect();
        let ib = m.alloc(bytes.len() as u64, 16).unwrap();
        m.write(ib, &bytes).unwrap();
        let zero_sink = alloc_u32s(&mut m, &[0; 4]);
        let heap_bytes = 64 * 1024u64;
        let heap_mem = m.alloc(heap_bytes, 16).unwrap();
        m.write(heap_mem, &vec![0xCD; heap_bytes as usize]).unwrap();
        let heap = m.alloc(16, 16).unwrap();
        m.write_u64(heap, heap_mem).unwrap();
        m.write_u32(heap + 8, 24).unwrap(); // heap_bottom
        m.write_u32(heap + 12, heap_bytes as u32).unwrap();
        let in_draw = alloc_u32s(&mut m, &[count, 3, start, 9, 4]);
        let out_draw = alloc_u32s(&mut m, &[0xEEEE_EEEE; 5]);
        k.dispatch(
            &[
                KernelArg::U64(heap),
                KernelArg::U64(ib),
                KernelArg::U64(in_draw),
                KernelArg::U64(out_draw),
                KernelArg::U64(zero_sink),
                KernelArg::U32(1),
                KernelArg::U32(restart),
                KernelArg::U32(size_el),
                KernelArg::U32(ff as u32),
            ],
            &[1024],
            &m,
            2,
        )
        .unwrap();
        // the model
        let vpp = vertices_per_prim(mode);
        let alloc = decomposed_prims(mode, count) * vpp * size;
        let old = 24u32;
        let load = |idx: u32| {
            if idx >= size_el || start >= size_el {
                0
            } else {
                elems[(start + idx) as usize]
            }
        };
        let mut out = vec![0xCDu8; heap_bytes as usize];
        let (mut out_prims, mut needle) = (0u32, 0u32);
        while needle < count {
            let mut next = needle;
            while next < count && load(next) != restart {
                next += 1;
            }
            let sub = decomposed_prims(mode, next - needle);
            for i in 0..sub {
                for vtx in 0..vpp {
                    let id = vertex_id_for_topology(mode, ff, i, vtx, sub);
                    let y = load(needle.wrapping_add(id));
                    let x = ((out_prims + i) * vpp + vtx) as usize;
                    let at = old as usize + x * size as usize;
                    out[at..at + size as usize].copy_from_slice(&y.to_le_bytes()[..size as usize]);
                }
            }
            out_prims += sub;
            needle = next + 1;
        }
        let mut got = vec![0u8; heap_bytes as usize];
        m.read(heap_mem, &mut got).unwrap();
        assert!(got == out, "variant {variant}: unrolled indices differ");
        assert_eq!(
            read_u32s(&m, out_draw, 5),
            vec![out_prims * vpp, 3, old / size, 9, 4],
            "variant {variant}"
        );
        assert_eq!(
            m.read_u32(heap + 8).unwrap(),
            old + alloc.next_multiple_of(8),
            "variant {variant}"
        );
    }
}

/// `libagx_draw_without_adj(out, in, ia, index_buffer, index_buffer_range_el, index_size_B,
/// prim)` (draws.cl): out = {vertexCount: `libagx_remap_adj_count(in.vertexCount, prim)`,
/// instanceCount: in.instanceCount, 0, 0} (libagx_dgc.h: triangle strips with adjacency 3 *
/// ((count - 4 if count >= 4, else 0) / 2), line strips with adjacency 2 * (count - 3 if count >=
/// 3, else 0), lists count / 2); with an index size, `ia->index_buffer` = index_buffer +
/// firstVertex * size when firstVertex < range (32-bit), else 0, and `ia->index_buffer_range_el`
/// = range - firstVertex saturated at 0; `verts_per_instance` untouched.
#[test]
fn draw_without_adj() {
    let k = kernel("libagx_draw_without_adj.v0");
    for prim in [10u32, 11, 12, 13] {
        for count in 0u32..12 {
            for (size, first, range) in [(0u32, 3u32, 10u64), (2, 3, 10), (4, 12, 10), (1, 9, 10)] {
                let mut m = DeviceMemory::new();
                let out = alloc_u32s(&mut m, &[0xEEEE_EEEE; 4]);
                let input = alloc_u32s(&mut m, &[count, 7, first, 5]);
                let ia = alloc_u32s(
                    &mut m,
                    &[0x1111_1111, 0x2222_2222, 0x3333_3333, 0x4444_4444],
                );
                let ib = 0x10_0000u64;
                k.dispatch(
                    &[
                        KernelArg::U64(out),
                        KernelArg::U64(input),
                        KernelArg::U64(ia),
                        KernelArg::U64(ib),
                        KernelArg::U64(range),
                        KernelArg::U32(size),
                        KernelArg::U32(prim),
                    ],
                    &[1],
                    &m,
                    1,
                )
                .unwrap();
                let remapped = match prim {
                    13 => 3 * (count.saturating_sub(4) / 2),
                    11 => 2 * count.saturating_sub(3),
                    _ => count / 2,
                };
                let case = format!("prim {prim} count {count} size {size} first {first}");
                assert_eq!(read_u32s(&m, out, 4), vec![remapped, 7, 0, 0], "{case}");
                let want_ia = if size == 0 {
                    vec![0x1111_1111, 0x2222_2222, 0x3333_3333, 0x4444_4444]
                } else {
                    let buf = if u64::from(first) < range {
                        ib + u64::from(first * size)
                    } else {
                        0
                    };
                    vec![
                        buf as u32,
                        (buf >> 32) as u32,
                        (range as u32).saturating_sub(first),
                        0x4444_4444,
                    ]
                };
                assert_eq!(read_u32s(&m, ia, 4), want_ia, "{case}");
            }
        }
    }
}
