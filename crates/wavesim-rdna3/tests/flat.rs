//! FLAT / GLOBAL / SCRATCH: addressing forms, widths and extensions, d16 halves, atomics with and
//! without return, alignment modes, apertures, scratch swizzle, faults, nullified loads.

use wavesim_rdna3::exec::flat::{align_mode, private_addr};
use wavesim_rdna3::exec::operand::{PRIVATE_APERTURE, SHARED_APERTURE};
use wavesim_rdna3::exec::ExecError;
use wavesim_rdna3::testing::Harness;
use wavesim_rdna3::wave::Wave;

const GLOBAL_LOAD_B32: [u32; 2] = [0xdc520000, 0x017c0002]; // global_load_b32 v1, v[2:3], off
const GLOBAL_STORE_B32_OFF8: [u32; 2] = [0xdc6a0008, 0x007c0102]; // global_store_b32 v[2:3], v1, off offset:8
const GLOBAL_ATOMIC_ADD_RTN: [u32; 2] = [0xdcd64000, 0x057c0102]; // global_atomic_add_u32 v5, v[2:3], v1, off glc

fn lanes(w64: bool) -> usize {
    if w64 {
        64
    } else {
        32
    }
}

/// A harness with a 4 KiB zeroed buffer whose address is returned.
fn setup(w64: bool) -> (Harness, u64) {
    let mut h = Harness::new(w64);
    let buf = h.mem.alloc(4096, 256).unwrap();
    (h, buf)
}

fn set_addr(h: &mut Harness, r: usize, f: impl Fn(usize) -> u64) {
    h.set_v(r, |l| f(l) as u32);
    h.set_v(r + 1, |l| (f(l) >> 32) as u32);
}

#[test]
fn global_load_b32_per_lane_with_partial_exec() {
    for w64 in [false, true] {
        let (mut h, buf) = setup(w64);
        for i in 0..64u64 {
            h.mem.write_u32(buf + 4 * i, 1000 + i as u32).unwrap();
        }
        // Lane l reads element (63 - l); odd lanes are inactive and keep their old value.
        set_addr(&mut h, 2, |l| buf + 4 * (63 - l as u64));
        h.set_v(1, |_| 0xdead);
        h.wave.set_exec(0x5555_5555_5555_5555);
        h.run(&GLOBAL_LOAD_B32).unwrap();
        for l in 0..lanes(w64) {
            let want = if l % 2 == 0 {
                1000 + 63 - l as u32
            } else {
                0xdead
            };
            assert_eq!(h.v(1, l), want, "wave64={w64} lane {l}");
        }
    }
}

#[test]
fn global_saddr_form_adds_sgpr_base_vgpr_offset_and_signed_imm() {
    for w64 in [false, true] {
        let (mut h, buf) = setup(w64);
        for i in 0..80u64 {
            h.mem.write_u32(buf + 4 * i, i as u32 * 3).unwrap();
        }
        h.wave.sgpr[4] = (buf + 16) as u32;
        h.wave.sgpr[5] = ((buf + 16) >> 32) as u32;
        h.set_v(2, |l| 4 * l as u32);
        // global_load_b32 v1, v2, s[4:5] offset:-4: buf + 16 + 4l - 4 = element l + 3.
        h.run(&[0xdc521ffc, 0x01040002]).unwrap();
        for l in 0..lanes(w64) {
            assert_eq!(h.v(1, l), (l as u32 + 3) * 3);
        }
    }
}

#[test]
fn stores_and_wide_loads_round_trip() {
    for w64 in [false, true] {
        let (mut h, buf) = setup(w64);
        set_addr(&mut h, 2, |l| buf + 16 * l as u64);
        for k in 0..4 {
            h.set_v(4 + k, move |l| (l as u32) << 8 | k as u32);
        }
        // global_store_b128 v[2:3], v[4:7], off
        h.run(&[0xdc760000, 0x007c0402]).unwrap();
        assert_eq!(h.mem.read_u32(buf + 16 * 5 + 8).unwrap(), 5 << 8 | 2);
        // global_load_b96 v[8:10], v[2:3], off
        h.run(&[0xdc5a0000, 0x087c0002]).unwrap();
        // global_load_b64 v[12:13] via the b64 word with vdst 12.
        h.run(&[0xdc560000, 0x0c7c0002]).unwrap();
        for l in 0..lanes(w64) {
            for k in 0..3 {
                assert_eq!(h.v(8 + k, l), (l as u32) << 8 | k as u32);
            }
            assert_eq!(h.v(12, l), (l as u32) << 8);
            assert_eq!(h.v(13, l), (l as u32) << 8 | 1);
        }
        // global_store_b32 with offset:8 writes dword 2 of each 16-byte slot.
        h.set_v(1, |l| 0x7700 + l as u32);
        h.run(&GLOBAL_STORE_B32_OFF8).unwrap();
        assert_eq!(h.mem.read_u32(buf + 16 * 7 + 8).unwrap(), 0x7707);
        assert_eq!(h.mem.read_u32(buf + 16 * 7 + 4).unwrap(), 7 << 8 | 1);
    }
}

#[test]
fn sub_dword_loads_extend_and_d16_preserves_the_other_half() {
    let (mut h, buf) = setup(false);
    h.mem.write(buf, &[0x80, 0xff, 0x34, 0x12]).unwrap();
    set_addr(&mut h, 2, |_| buf);
    let cases: [(u32, u32); 10] = [
        (0xdc420000, 0x0000_0080), // global_load_u8
        (0xdc460000, 0xffff_ff80), // global_load_i8
        (0xdc4a0000, 0x0000_ff80), // global_load_u16
        (0xdc4e0000, 0xffff_ff80), // global_load_i16
        (0xdc7a0000, 0xabcd_0080), // global_load_d16_u8: high half kept
        (0xdc7e0000, 0xabcd_ff80), // global_load_d16_i8: sign-extended to 16 bits
        (0xdc820000, 0xabcd_ff80), // global_load_d16_b16
        (0xdc860000, 0x0080_1234), // global_load_d16_hi_u8: low half kept
        (0xdc8a0000, 0xff80_1234), // global_load_d16_hi_i8
        (0xdc8e0000, 0xff80_1234), // global_load_d16_hi_b16
    ];
    for (w0, want) in cases {
        h.set_v(1, |_| {
            if w0 >= 0xdc860000 {
                0x5555_1234
            } else {
                0xabcd_5555
            }
        });
        h.run(&[w0, 0x017c0002]).unwrap();
        assert_eq!(h.v(1, 0), want, "{w0:#x}");
    }
}

#[test]
fn sub_dword_stores_write_only_their_bytes() {
    let (mut h, buf) = setup(true);
    h.mem.fill(buf, 0xee, 16).unwrap();
    set_addr(&mut h, 2, |_| buf);
    h.set_v(1, |_| 0x1122_3344);
    h.wave.set_exec(1);
    h.run(&[0xdc620000, 0x007c0102]).unwrap(); // global_store_b8
    assert_eq!(h.mem.read_u32(buf).unwrap(), 0xeeee_ee44);
    set_addr(&mut h, 2, |_| buf + 4);
    h.run(&[0xdc660000, 0x007c0102]).unwrap(); // global_store_b16
    assert_eq!(h.mem.read_u32(buf + 4).unwrap(), 0xeeee_3344);
    set_addr(&mut h, 2, |_| buf + 8);
    h.run(&[0xdc920000, 0x007c0102]).unwrap(); // global_store_d16_hi_b8
    assert_eq!(h.mem.read_u32(buf + 8).unwrap(), 0xeeee_ee22);
    set_addr(&mut h, 2, |_| buf + 13);
    h.run(&[0xdc960000, 0x007c0102]).unwrap(); // global_store_d16_hi_b16 (unaligned)
    assert_eq!(h.mem.read_u32(buf + 12).unwrap(), 0xee11_22ee);
}

#[test]
fn atomic_add_with_return_serialises_lanes_on_one_address() {
    for w64 in [false, true] {
        let (mut h, buf) = setup(w64);
        h.mem.write_u32(buf, 100).unwrap();
        set_addr(&mut h, 2, |_| buf);
        h.set_v(1, |l| l as u32 + 1);
        h.set_v(5, |_| 0xdead);
        h.wave.set_exec(!0b100); // lane 2 inactive
        h.run(&GLOBAL_ATOMIC_ADD_RTN).unwrap();
        let n = lanes(w64);
        // Lanes apply in order; each returns the sum before its own add.
        let mut acc = 100u32;
        for l in 0..n {
            if l == 2 {
                assert_eq!(h.v(5, l), 0xdead);
                continue;
            }
            assert_eq!(h.v(5, l), acc, "lane {l}");
            acc += l as u32 + 1;
        }
        assert_eq!(h.mem.read_u32(buf).unwrap(), acc);
        // Without GLC nothing is returned but memory still changes.
        h.set_v(5, |_| 0xbeef);
        h.run(&[0xdcd60000, 0x007c0102]).unwrap();
        assert_eq!(h.v(5, 0), 0xbeef);
        assert_eq!(h.mem.read_u32(buf).unwrap(), acc + acc - 100);
    }
}

#[test]
fn atomic_cmpswap_max_inc_csub_float_and_64_bit() {
    let (mut h, buf) = setup(false);
    set_addr(&mut h, 2, |l| buf + 8 * l as u64);
    for l in 0..32u64 {
        h.mem.write_u32(buf + 8 * l, 7).unwrap();
    }
    // cmpswap data = {cmp (v7), src (v6)}: even lanes compare equal.
    h.set_v(6, |l| 50 + l as u32);
    h.set_v(7, |l| if l % 2 == 0 { 7 } else { 8 });
    h.run(&[0xdcd24000, 0x057c0602]).unwrap();
    assert_eq!(h.v(5, 0), 7);
    assert_eq!(h.mem.read_u32(buf).unwrap(), 50);
    assert_eq!(h.mem.read_u32(buf + 8).unwrap(), 7);
    // max_i32 with a negative source keeps the positive memory value.
    h.set_v(1, |_| (-3i32) as u32);
    h.run(&[0xdcea4000, 0x057c0102]).unwrap();
    assert_eq!(h.mem.read_u32(buf + 8).unwrap(), 7);
    // inc with src 7 on memory 7 wraps to 0; csub 10 from 0 clamps to 0 and returns 0.
    h.set_v(1, |_| 7);
    h.run(&[0xdcfe4000, 0x057c0102]).unwrap();
    assert_eq!(h.mem.read_u32(buf + 8).unwrap(), 0);
    h.set_v(1, |_| 10);
    h.run(&[0xdcde4000, 0x057c0102]).unwrap();
    assert_eq!((h.v(5, 1), h.mem.read_u32(buf + 8).unwrap()), (0, 0));
    // add_f32: 1.5 + 2.25.
    h.mem.write_u32(buf + 16, 1.5f32.to_bits()).unwrap();
    h.set_v(1, |_| 2.25f32.to_bits());
    h.wave.set_exec(1 << 2);
    h.run(&[0xdd5a4000, 0x057c0102]).unwrap();
    assert_eq!(h.v(5, 2), 1.5f32.to_bits());
    assert_eq!(h.mem.read_u32(buf + 16).unwrap(), 3.75f32.to_bits());
    // 64-bit add and cmpswap (data = {cmp v[6:7], src v[4:5]}).
    h.mem.write_u64(buf + 24, 0xffff_ffff).unwrap();
    h.wave.set_exec(1 << 3);
    h.set_v(4, |_| 1);
    h.set_v(5, |_| 0);
    h.run(&[0xdd0e4000, 0x087c0402]).unwrap();
    assert_eq!((h.v(8, 3), h.v(9, 3)), (0xffff_ffff, 0));
    assert_eq!(h.mem.read_u64(buf + 24).unwrap(), 1 << 32);
    h.set_v(4, |_| 9);
    h.set_v(5, |_| 9);
    h.set_v(6, |_| 0);
    h.set_v(7, |_| 1);
    h.run(&[0xdd0a4000, 0x087c0402]).unwrap();
    assert_eq!(h.mem.read_u64(buf + 24).unwrap(), 9 << 32 | 9);
}

#[test]
fn atomics_from_many_waves_on_threads_are_exact() {
    let mut mem = wavesim_core::memory::DeviceMemory::new();
    let buf = mem.alloc(64, 0).unwrap();
    let mem = &mem;
    std::thread::scope(|s| {
        for _ in 0..4 {
            s.spawn(move || {
                let mut h = Harness::new(true);
                // Each harness has its own memory: run against the shared one through Ctx.
                set_addr(&mut h, 2, |_| buf);
                h.set_v(1, |_| 1);
                let prog = wavesim_rdna3::exec::Program::new(
                    &[
                        GLOBAL_ATOMIC_ADD_RTN[0],
                        GLOBAL_ATOMIC_ADD_RTN[1],
                        0xbfb0_0000,
                    ]
                    .iter()
                    .flat_map(|w| w.to_le_bytes())
                    .collect::<Vec<_>>(),
                    0,
                )
                .unwrap();
                for _ in 0..200 {
                    h.wave.pc = 0;
                    wavesim_rdna3::testing::run_wave(
                        &mut h.wave,
                        &mut h.lds,
                        &prog,
                        mem,
                        &h.cfg,
                        10,
                    )
                    .unwrap();
                }
            });
        }
    });
    assert_eq!(mem.read_u32(buf).unwrap(), 4 * 200 * 64);
}

#[test]
fn out_of_bounds_access_is_a_fault_naming_lane_and_address() {
    let (mut h, buf) = setup(false);
    set_addr(&mut h, 2, |l| if l == 3 { buf + 4096 } else { buf });
    match h.run(&GLOBAL_LOAD_B32) {
        Err(ExecError::MemoryFault {
            lane, addr, size, ..
        }) => {
            assert_eq!((lane, addr, size), (3, buf + 4096, 4))
        }
        r => panic!("expected a memory fault, got {r:?}"),
    }
    // A store straddling the end faults too; with lane 3 inactive everything is in bounds.
    set_addr(&mut h, 2, |l| if l == 3 { buf + 4090 } else { buf });
    assert!(matches!(
        h.run(&GLOBAL_STORE_B32_OFF8),
        Err(ExecError::MemoryFault { lane: 3, .. })
    ));
    h.wave.set_exec(!(1 << 3));
    h.run(&GLOBAL_STORE_B32_OFF8).unwrap();
}

#[test]
fn load_to_out_of_range_vgprs_is_nullified() {
    let (mut h, _buf) = setup(false);
    h.wave = Wave::new(false, 16);
    h.wave.set_exec(u64::MAX);
    // Address 0 would fault; the load to v20 (only 16 VGPRs) must not touch memory at all.
    h.run(&[0xdc520000, 0x147c0002]).unwrap();
}

#[test]
fn alignment_modes() {
    let (mut h, buf) = setup(false);
    h.mem.write(buf, &[1, 2, 3, 4, 5, 6, 7, 8]).unwrap();
    set_addr(&mut h, 2, |_| buf + 2);
    h.wave.set_exec(1);
    // Default (UNALIGNED, as amdgpu programs gfx11): bytes 2..6.
    h.cfg.alignment_mode = align_mode::UNALIGNED;
    h.run(&GLOBAL_LOAD_B32).unwrap();
    assert_eq!(h.v(1, 0), 0x0605_0403);
    // DWORD: the low two address bits are ignored.
    h.cfg.alignment_mode = align_mode::DWORD;
    h.run(&GLOBAL_LOAD_B32).unwrap();
    assert_eq!(h.v(1, 0), 0x0403_0201);
    // DWORD_STRICT and STRICT: MEMVIOL.
    for mode in [align_mode::DWORD_STRICT, align_mode::STRICT] {
        h.cfg.alignment_mode = mode;
        assert!(matches!(
            h.run(&GLOBAL_LOAD_B32),
            Err(ExecError::MemViol { lane: 0, .. })
        ));
    }
    // STRICT: a 4-aligned b64 load is misaligned, DWORD_STRICT accepts it.
    set_addr(&mut h, 2, |_| buf + 4);
    h.cfg.alignment_mode = align_mode::STRICT;
    assert!(matches!(
        h.run(&[0xdc560000, 0x047c0002]),
        Err(ExecError::MemViol { .. })
    ));
    h.cfg.alignment_mode = align_mode::DWORD_STRICT;
    h.run(&[0xdc560000, 0x047c0002]).unwrap();
    // Atomics must be size-aligned in every mode, including UNALIGNED.
    h.cfg.alignment_mode = align_mode::UNALIGNED;
    set_addr(&mut h, 2, |_| buf + 2);
    assert!(matches!(
        h.run(&GLOBAL_ATOMIC_ADD_RTN),
        Err(ExecError::MemViol { .. })
    ));
}

#[test]
fn scratch_is_swizzled_per_lane_and_bounded() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        let n = lanes(w64) as u64;
        let lane_bytes = 64u32;
        let base = h.mem.alloc(n * lane_bytes as u64, 256).unwrap();
        h.wave.scratch_base = base;
        h.wave.scratch_lane_bytes = lane_bytes;
        // scratch_store_b32 v0, v1, off offset:8 with v0 = 4: private offset 12 of every lane.
        h.set_v(0, |_| 4);
        h.set_v(1, |l| 0x100 + l as u32);
        h.run(&[0xdc690008, 0x00fc0100]).unwrap();
        for l in 0..n {
            // ISA 11.3: base + (12 / 4) * 4 * wave_size + lane * 4.
            let a = base + 3 * 4 * n + 4 * l;
            assert_eq!(a, private_addr(&h.wave, l as usize, 12));
            assert_eq!(h.mem.read_u32(a).unwrap(), 0x100 + l as u32);
        }
        // scratch_load_b32 v2, v0, off offset:8 reads it back.
        h.run(&[0xdc510008, 0x02fc0000]).unwrap();
        assert_eq!(h.v(2, 1), 0x101);
        // SS form with b64: s6 + 16 = private offset 20 (two dwords 4*wave_size apart).
        h.wave.sgpr[6] = 4;
        h.set_v(4, |l| l as u32);
        h.set_v(5, |l| !(l as u32));
        h.run(&[0xdc6d0010, 0x00060400]).unwrap();
        assert_eq!(h.mem.read_u32(base + 5 * 4 * n + 4).unwrap(), 1);
        assert_eq!(h.mem.read_u32(base + 6 * 4 * n + 4).unwrap(), !1);
        h.run(&[0xdc550010, 0x08060000]).unwrap();
        assert_eq!((h.v(8, 2), h.v(9, 2)), (2, !2));
        // Unaligned private offset 2: bytes 2,3 of dword 0 and bytes 0,1 of dword 1.
        h.set_v(1, |_| 0xaabb_ccdd);
        h.run(&[0xdc690002, 0x007c0100]).unwrap();
        assert_eq!(h.mem.read_u32(base).unwrap() >> 16, 0xccdd);
        assert_eq!(h.mem.read_u32(base + 4 * n).unwrap() & 0xffff, 0xaabb);
        h.run(&[0xdc510002, 0x037c0000]).unwrap();
        assert_eq!(h.v(3, 5), 0xaabb_ccdd);
        // Beyond the lane's private segment: a fault, not another lane's data.
        h.set_v(0, |_| lane_bytes - 8 + 4);
        assert!(matches!(
            h.run(&[0xdc510008, 0x02fc0000]),
            Err(ExecError::MemoryFault { lane: 0, .. })
        ));
    }
}

/// SADDR = 0x7f (EXEC_HI's code) in a SCRATCH instruction is "no SADDR", as NULL is: Mesa 22.3's
/// ACO encodes gfx11 scratch without a VGPR address that way (src/decode/mem.rs,
/// `scratch_saddr`, names the sources). Words: llvm-mc-19 -mcpu=gfx1100 encodings of the `off`
/// forms with byte 6 (SADDR) changed from 0x7c to 0x7f, which llvm-objdump-19 prints as
/// `scratch_store_b32 off, v1, exec_hi/*Invalid register, ...*/ offset:16`.
#[test]
fn scratch_saddr_0x7f_is_off() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        let n = lanes(w64) as u64;
        let base = h.mem.alloc(n * 64, 256).unwrap();
        h.wave.scratch_base = base;
        h.wave.scratch_lane_bytes = 64;
        // EXEC_HI is 0xffff_ffff in wave64: read as an offset it would put every lane past its
        // 64-byte segment (a fault). As "off": private offset = imm 16 = dword 4 of each lane,
        // at base + 4 * 4 * wave_size + 4 * lane (ISA 11.3 swizzle).
        h.wave.set_exec(if w64 { u64::MAX } else { 0xffff_ffff });
        h.set_v(1, |l| 0x700 + l as u32);
        // scratch_store_b32 off, v1, 0x7f offset:16
        h.run(&[0xdc690010, 0x007f0100]).unwrap();
        for l in 0..n {
            assert_eq!(
                h.mem.read_u32(base + 16 * n + 4 * l).unwrap(),
                0x700 + l as u32
            );
        }
        // scratch_load_b32 v2, off, 0x7f offset:16 reads the same dwords back.
        h.run(&[0xdc510010, 0x027f0000]).unwrap();
        for l in 0..n as usize {
            assert_eq!(h.v(2, l), 0x700 + l as u32, "lane {l}");
        }
        // With SVE (a VGPR address) the same field adds nothing either: v0 = 8, imm 8 -> 16.
        h.set_v(0, |_| 8);
        // scratch_load_b32 v3, v0, 0x7f offset:8
        h.run(&[0xdc510008, 0x03ff0000]).unwrap();
        assert_eq!(h.v(3, 1), 0x701);
    }
}

#[test]
fn flat_addresses_are_routed_by_aperture() {
    for w64 in [false, true] {
        let (mut h, buf) = setup(w64);
        let n = lanes(w64) as u64;
        let scratch = h.mem.alloc(n * 32, 256).unwrap();
        h.wave.scratch_base = scratch;
        h.wave.scratch_lane_bytes = 32;
        // Lanes 0..3 mod 3: global, LDS, private.
        set_addr(&mut h, 2, |l| match l % 3 {
            0 => buf + 8 * l as u64,
            1 => SHARED_APERTURE + 8 * l as u64,
            _ => PRIVATE_APERTURE + 8,
        });
        h.set_v(1, |l| 0x500 + l as u32);
        // flat_store_b32 v[2:3], v1 offset:4
        h.run(&[0xdc680004, 0x007c0102]).unwrap();
        assert_eq!(h.mem.read_u32(buf + 8 * 3 + 4).unwrap(), 0x503);
        assert_eq!(&h.lds[8 * 4 + 4..8 * 4 + 8], &0x504u32.to_le_bytes());
        // Lane 5's private offset 12 = dword 3 of lane 5.
        assert_eq!(h.mem.read_u32(scratch + 3 * 4 * n + 4 * 5).unwrap(), 0x505);
        // flat_load_b32 v5, v[2:3] offset:4 reads every kind back.
        h.run(&[0xdc500004, 0x057c0002]).unwrap();
        for l in 0..n as usize {
            assert_eq!(h.v(5, l), 0x500 + l as u32, "lane {l}");
        }
        // LDS out of range through flat: load returns 0, store dropped, no fault.
        let lds_len = h.lds.len() as u64;
        set_addr(&mut h, 2, |_| SHARED_APERTURE + lds_len);
        h.run(&[0xdc680004, 0x007c0102]).unwrap();
        h.run(&[0xdc500004, 0x057c0002]).unwrap();
        assert_eq!(h.v(5, 0), 0);
        // flat_atomic_add_u32 on LDS returns the old value.
        set_addr(&mut h, 2, |_| SHARED_APERTURE + 64);
        h.lds[64..68].copy_from_slice(&10u32.to_le_bytes());
        h.set_v(1, |_| 1);
        h.run(&[0xdcd44000, 0x057c0102]).unwrap();
        assert_eq!(h.v(5, 3), 13);
        assert_eq!(&h.lds[64..68], &(10 + n as u32).to_le_bytes());
    }
}

#[test]
fn addtid_uses_the_lane_index() {
    for w64 in [false, true] {
        let (mut h, buf) = setup(w64);
        h.wave.sgpr[4] = buf as u32;
        h.wave.sgpr[5] = (buf >> 32) as u32;
        h.set_v(1, |l| 9 * l as u32);
        // global_store_addtid_b32 v1, s[4:5]
        h.run(&[0xdca60000, 0x00040100]).unwrap();
        assert_eq!(h.mem.read_u32(buf + 4 * 7).unwrap(), 63);
        // global_load_addtid_b32 v1, s[4:5] offset:16 reads lane + 4.
        h.run(&[0xdca20010, 0x01040000]).unwrap();
        let n = lanes(w64);
        assert_eq!(h.v(1, 2), 9 * 6);
        assert_eq!(h.v(1, n - 5), 9 * (n as u32 - 1));
    }
}

#[test]
fn fuzzed_addresses_never_panic_or_escape() {
    let (mut h, buf) = setup(true);
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let loads = [
        [0xdc520000u32, 0x017c0002],
        [0xdc5e0000, 0x047c0002],
        [0xdc6a0008, 0x007c0102],
        [0xdcd64000, 0x057c0102],
        [0xdc500004, 0x057c0002],
    ];
    for i in 0..400 {
        let addrs: Vec<u64> = (0..64u64)
            .map(|l| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let y = x.wrapping_mul(l + 1);
                match y % 4 {
                    0 => y,
                    1 => buf + y % 4200,
                    2 => SHARED_APERTURE + y % 0x2_0000,
                    _ => PRIVATE_APERTURE + y % 64,
                }
            })
            .collect();
        set_addr(&mut h, 2, |l| addrs[l]);
        h.wave.set_exec(x);
        match h.run(&loads[i % loads.len()]) {
            Ok(()) | Err(ExecError::MemoryFault { .. }) | Err(ExecError::MemViol { .. }) => {}
            Err(e) => panic!("unexpected {e:?}"),
        }
    }
}

#[test]
fn memory_families_claim_every_table_op() {
    use wavesim_rdna3::exec::{flat, lds, smem};
    use wavesim_rdna3::isa::{Fmt, Op};
    for &op in Op::ALL {
        let claimed = match op.fmt() {
            Fmt::Ds => lds::handler(op).is_some(),
            Fmt::Flat | Fmt::Global | Fmt::Scratch => flat::handler(op).is_some(),
            Fmt::Smem => smem::handler(op).is_some(),
            _ => continue,
        };
        assert!(claimed, "{} is not handled", op.name());
    }
}

/// Runs 100 passes over 1000 copies of the two-word instruction `word` (predecoded once) and
/// returns the wall time per instruction in ns.
fn ns_per_instruction(h: &mut Harness, word: [u32; 2]) -> f64 {
    let mut body: Vec<u32> = std::iter::repeat_n(word, 1000).flatten().collect();
    body.push(0xbfb0_0000);
    let bytes: Vec<u8> = body.iter().flat_map(|w| w.to_le_bytes()).collect();
    let prog = wavesim_rdna3::exec::Program::new(&bytes, 0).unwrap();
    let t = std::time::Instant::now();
    for _ in 0..100 {
        h.wave.pc = 0;
        h.run_program(&prog, 10_000).unwrap();
    }
    t.elapsed().as_nanos() as f64 / 100_000.0
}

/// Prints the cost of one global_load_b32 over 32 lanes (run with `--release --ignored`); asserts
/// only the values, never the timing.
#[test]
#[ignore]
fn global_load_b32_cost() {
    let (mut h, buf) = setup(false);
    set_addr(&mut h, 2, |l| buf + 4 * l as u64);
    let ns = ns_per_instruction(&mut h, GLOBAL_LOAD_B32);
    println!("global_load_b32 (32 lanes): {ns:.1} ns per instruction");
    assert_eq!(h.v(1, 5), 0);
}

/// Prints the cost of global_store_b32 and global_atomic_add_u32 (no return) over 32 lanes
/// (run with `--release --ignored --nocapture`); asserts only the values, never the timing.
#[test]
#[ignore]
fn global_store_and_atomic_cost() {
    let (mut h, buf) = setup(false);
    set_addr(&mut h, 2, |l| buf + 4 * l as u64);
    h.set_v(1, |l| l as u32);
    // global_store_b32 v[2:3], v1, off / global_atomic_add_u32 v[2:3], v1, off
    for (name, word) in [
        ("global_store_b32", [0xdc6a0000u32, 0x007c0102]),
        ("global_atomic_add_u32", [0xdcd60000, 0x007c0102]),
    ] {
        let ns = ns_per_instruction(&mut h, word);
        println!("{name} (32 lanes): {ns:.1} ns per instruction");
    }
    // Lane 5 stored 5, then 100_000 atomic adds of 5.
    assert_eq!(h.mem.read_u32(buf + 20).unwrap(), 5 + 100_000 * 5);
}

#[test]
fn atomic_add_u64_with_return_serialises_lanes_on_one_address() {
    for w64 in [false, true] {
        let (mut h, buf) = setup(w64);
        h.mem.write_u64(buf + 8, 0x1_0000_0005).unwrap();
        set_addr(&mut h, 2, |_| buf + 8);
        // Each lane adds 0xffff_ffff: every add carries into the high dword.
        h.set_v(4, |_| 0xffff_ffff);
        h.set_v(5, |_| 0);
        h.wave.set_exec(!(1u64 << 4)); // lane 4 inactive
        h.run(&[0xdd0e4000, 0x0a7c0402]).unwrap(); // global_atomic_add_u64 v[10:11], v[2:3], v[4:5], off glc
        let mut acc = 0x1_0000_0005u64;
        for l in 0..lanes(w64) {
            if l == 4 {
                continue;
            }
            assert_eq!(
                (h.v(10, l), h.v(11, l)),
                (acc as u32, (acc >> 32) as u32),
                "lane {l}"
            );
            acc += 0xffff_ffff;
        }
        assert_eq!(h.mem.read_u64(buf + 8).unwrap(), acc);
    }
}

/// SADDR 0x7f words print as llvm-objdump-19 prints them (tests/golden/flat_saddr_7f.txt, made
/// by flat_saddr_7f.sh): SCRATCH as an invalid `exec_hi` operand, GLOBAL as `.long` words
/// (LLVM 19 does not decode GLOBAL with SADDR 0x7f; wavesim's decoder refuses it too, so such a
/// word stops execution with a decode error instead of guessing).
#[test]
fn saddr_0x7f_disassembles_as_llvm_objdump() {
    let golden = include_str!("golden/flat_saddr_7f.txt");
    let mut checked = 0;
    for case in golden.split("\n\n").filter(|c| !c.trim().starts_with('#')) {
        let lines: Vec<(Vec<u32>, &str)> = case
            .lines()
            .filter(|l| !l.is_empty())
            .map(|l| {
                let (w, t) = l.split_once('\t').expect("WORDS<TAB>TEXT");
                let w = w
                    .split_whitespace()
                    .map(|x| u32::from_str_radix(x, 16).expect("hex word"))
                    .collect();
                (w, t)
            })
            .collect();
        let bytes: Vec<u8> = lines
            .iter()
            .flat_map(|(w, _)| w.iter().flat_map(|x| x.to_le_bytes()))
            .collect();
        let mut off = 0;
        for (words, text) in &lines {
            let inst = wavesim_rdna3::decode::decode(&bytes[off..], off).expect("decodes");
            assert_eq!(
                wavesim_rdna3::disasm::format(&inst, off as u64, false),
                *text,
                "{words:08x?}"
            );
            off += inst.listed_len() as usize;
            checked += 1;
        }
    }
    assert_eq!(checked, 8);
}
