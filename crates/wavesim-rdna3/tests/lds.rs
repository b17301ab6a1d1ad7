//! DS instructions: the RDNA3 ISA guide's LDS alignment masks per mode, out-of-range rules, widths, d16, 2addr
//! forms, atomics, swizzle, permute, append/consume, addtid, nullification.

use wavesim_rdna3::exec::flat::align_mode;
use wavesim_rdna3::exec::ExecError;
use wavesim_rdna3::testing::Harness;
use wavesim_rdna3::wave::Wave;

const DS_STORE_B32_OFF4: [u32; 2] = [0xd8340004, 0x00000201]; // ds_store_b32 v1, v2 offset:4
const DS_LOAD_B32_OFF4: [u32; 2] = [0xd8d80004, 0x03000001]; // ds_load_b32 v3, v1 offset:4
const DS_LOAD_B64: [u32; 2] = [0xd9d80000, 0x06000001]; // ds_load_b64 v[6:7], v1
const DS_LOAD_B128: [u32; 2] = [0xdbfc0000, 0x08000001]; // ds_load_b128 v[8:11], v1
const DS_ADD_RTN_U32: [u32; 2] = [0xd8800000, 0x03000201]; // ds_add_rtn_u32 v3, v1, v2

fn n(w64: bool) -> usize {
    if w64 {
        64
    } else {
        32
    }
}

fn lds_u32(h: &Harness, a: usize) -> u32 {
    u32::from_le_bytes(h.lds[a..a + 4].try_into().unwrap())
}

fn put_u32(h: &mut Harness, a: usize, v: u32) {
    h.lds[a..a + 4].copy_from_slice(&v.to_le_bytes());
}

#[test]
fn store_and_load_b32_per_lane() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.set_v(1, |l| 8 * l as u32);
        h.set_v(2, |l| 0x1000 + l as u32);
        h.wave.set_exec(!0b10);
        h.run(&DS_STORE_B32_OFF4).unwrap();
        assert_eq!(lds_u32(&h, 8 * 5 + 4), 0x1005);
        assert_eq!(lds_u32(&h, 8 + 4), 0, "inactive lane 1 stores nothing");
        h.set_v(3, |_| 0xdead);
        h.run(&DS_LOAD_B32_OFF4).unwrap();
        for l in 0..n(w64) {
            let want = if l == 1 { 0xdead } else { 0x1000 + l as u32 };
            assert_eq!(h.v(3, l), want);
        }
    }
}

#[test]
fn wide_loads_and_stores() {
    let mut h = Harness::new(false);
    h.set_v(1, |l| 16 * l as u32);
    for k in 0..4 {
        h.set_v(4 + k, move |l| (l as u32) << 4 | k as u32);
    }
    h.run(&[0xdb7c0000, 0x00000401]).unwrap(); // ds_store_b128 v1, v[4:7]
    h.run(&DS_LOAD_B128).unwrap();
    h.run(&DS_LOAD_B64).unwrap();
    for l in 0..32 {
        for k in 0..4 {
            assert_eq!(h.v(8 + k, l), (l as u32) << 4 | k as u32);
        }
        assert_eq!(
            (h.v(6, l), h.v(7, l)),
            ((l as u32) << 4, (l as u32) << 4 | 1)
        );
    }
    // b96 store leaves the fourth dword alone.
    h.set_v(1, |_| 0x800);
    h.wave.set_exec(1);
    put_u32(&mut h, 0x80c, 0x77);
    for k in 0..3 {
        h.set_v(4 + k, move |_| 40 + k as u32);
    }
    h.run(&[0xdb780000, 0x00000401]).unwrap(); // ds_store_b96 v1, v[4:6]
    assert_eq!((lds_u32(&h, 0x808), lds_u32(&h, 0x80c)), (42, 0x77));
    h.run(&[0xdbf80000, 0x08000001]).unwrap(); // ds_load_b96 v[8:10], v1
    assert_eq!((h.v(8, 0), h.v(9, 0), h.v(10, 0)), (40, 41, 42));
}

#[test]
fn sub_dword_and_d16() {
    let mut h = Harness::new(false);
    h.lds[0x40..0x44].copy_from_slice(&[0x80, 0xff, 0x34, 0x12]);
    h.set_v(1, |_| 0x40);
    h.wave.set_exec(1);
    let cases: [(u32, u32, u32); 10] = [
        (0xd8e80000, 0, 0x0000_0080),           // ds_load_u8
        (0xd8e40000, 0, 0xffff_ff80),           // ds_load_i8
        (0xd8f00000, 0, 0x0000_ff80),           // ds_load_u16
        (0xd8ec0000, 0, 0xffff_ff80),           // ds_load_i16
        (0xda880000, 0xabcd_5555, 0xabcd_0080), // ds_load_u8_d16
        (0xda900000, 0xabcd_5555, 0xabcd_ff80), // ds_load_i8_d16
        (0xda980000, 0xabcd_5555, 0xabcd_ff80), // ds_load_u16_d16
        (0xda8c0000, 0x5555_1234, 0x0080_1234), // ds_load_u8_d16_hi
        (0xda940000, 0x5555_1234, 0xff80_1234), // ds_load_i8_d16_hi
        (0xda9c0000, 0x5555_1234, 0xff80_1234), // ds_load_u16_d16_hi
    ];
    for (w0, old, want) in cases {
        h.set_v(3, |_| old);
        h.run(&[w0, 0x03000001]).unwrap();
        assert_eq!(h.v(3, 0), want, "{w0:#x}");
    }
    h.set_v(2, |_| 0x1122_3344);
    h.lds[0x50..0x58].fill(0xee);
    h.set_v(1, |_| 0x50);
    h.run(&[0xd8780000, 0x00000201]).unwrap(); // ds_store_b8
    h.set_v(1, |_| 0x52);
    h.run(&[0xda800000, 0x00000201]).unwrap(); // ds_store_b8_d16_hi
    h.set_v(1, |_| 0x54);
    h.run(&[0xda840000, 0x00000201]).unwrap(); // ds_store_b16_d16_hi
    assert_eq!(
        &h.lds[0x50..0x58],
        &[0x44, 0xee, 0x22, 0xee, 0x22, 0x11, 0xee, 0xee]
    );
    h.set_v(1, |_| 0x56);
    h.run(&[0xd87c0000, 0x00000201]).unwrap(); // ds_store_b16
    assert_eq!(&h.lds[0x56..0x58], &[0x44, 0x33]);
}

#[test]
fn alignment_masks_per_mode() {
    let mut h = Harness::new(false);
    for (i, b) in h.lds[0..32].iter_mut().enumerate() {
        *b = i as u8;
    }
    h.wave.set_exec(1);
    h.set_v(1, |_| 6);
    // UNALIGNED: bytes 6..14.
    h.cfg.alignment_mode = align_mode::UNALIGNED;
    h.run(&DS_LOAD_B64).unwrap();
    assert_eq!(h.v(6, 0), 0x0908_0706);
    // Other modes clear bits: B32 & 0xfffc, B64 & 0xfff8, B128 & 0xfff0.
    h.cfg.alignment_mode = align_mode::DWORD;
    h.run(&DS_LOAD_B64).unwrap();
    assert_eq!((h.v(6, 0), h.v(7, 0)), (0x0302_0100, 0x0706_0504));
    h.set_v(1, |_| 3); // + offset 4 = 7 -> 4
    h.run(&DS_LOAD_B32_OFF4).unwrap();
    assert_eq!(h.v(3, 0), 0x0706_0504);
    h.set_v(1, |_| 24);
    h.run(&DS_LOAD_B128).unwrap();
    assert_eq!(h.v(8, 0), 0x1312_1110);
    // DWORD_STRICT and STRICT report MEMVIOL for a misaligned access.
    h.set_v(1, |_| 6);
    for mode in [align_mode::DWORD_STRICT, align_mode::STRICT] {
        h.cfg.alignment_mode = mode;
        assert!(matches!(
            h.run(&DS_LOAD_B64),
            Err(ExecError::MemViol {
                lane: 0,
                addr: 6,
                ..
            })
        ));
    }
    // A 4-aligned b64: fine under DWORD_STRICT (min(8, 4)), MEMVIOL under STRICT.
    h.set_v(1, |_| 4);
    h.cfg.alignment_mode = align_mode::STRICT;
    assert!(h.run(&DS_LOAD_B64).is_err());
    h.cfg.alignment_mode = align_mode::DWORD_STRICT;
    h.run(&DS_LOAD_B64).unwrap();
    // Misaligned atomics are MEMVIOL even in UNALIGNED mode.
    h.cfg.alignment_mode = align_mode::UNALIGNED;
    h.set_v(1, |_| 2);
    assert!(matches!(
        h.run(&DS_ADD_RTN_U32),
        Err(ExecError::MemViol { .. })
    ));
}

#[test]
fn out_of_range_rules() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.lds = vec![0x5a; 256];
        // Lane 0 in range, lane 1 at the end, lane 2 straddling, lane 3 "negative".
        h.set_v(1, |l| match l {
            0 => 0,
            1 => 256,
            2 => 252,
            3 => u32::MAX - 3,
            _ => 16,
        });
        h.set_v(3, |_| 0xdead);
        h.run(&[0xd8d80000, 0x03000001]).unwrap(); // ds_load_b32 v3, v1
        assert_eq!(
            (h.v(3, 0), h.v(3, 1), h.v(3, 2)),
            (0x5a5a_5a5a, 0, 0x5a5a_5a5a)
        );
        assert_eq!(h.v(3, 3), 0);
        // Multi-dword read: lane with the last dword out of range returns all zeros.
        h.set_v(1, |l| if l == 0 { 248 } else { 240 });
        h.run(&DS_LOAD_B128).unwrap();
        assert_eq!((h.v(8, 0), h.v(9, 0), h.v(10, 0), h.v(11, 0)), (0, 0, 0, 0));
        assert_eq!(h.v(11, 1), 0x5a5a_5a5a);
        // Out-of-range writes are dropped per dword; no fault, in-range part written.
        h.set_v(1, |_| 248);
        h.wave.set_exec(1);
        for k in 0..4 {
            h.set_v(4 + k, move |_| k as u32);
        }
        h.run(&[0xdb7c0000, 0x00000401]).unwrap(); // ds_store_b128 v1, v[4:7]
        assert_eq!(h.lds.len(), 256);
        assert_eq!((lds_u32(&h, 248), lds_u32(&h, 252)), (0, 1));
        // Atomics out of range do nothing and return 0.
        h.set_v(1, |_| 1024);
        h.set_v(2, |_| 1);
        h.run(&DS_ADD_RTN_U32).unwrap();
        assert_eq!(h.v(3, 0), 0);
    }
}

#[test]
fn out_of_range_destination_nullifies() {
    let mut h = Harness::new(false);
    h.wave = Wave::new(false, 16);
    h.wave.set_exec(u64::MAX);
    put_u32(&mut h, 0, 5);
    // ds_add_rtn_u32 v3, v1, v2 with vdst v20: nothing happens, not even the add.
    h.wave.vgpr_set(2, 0, 1);
    h.run(&[0xd8800000, 0x14000201]).unwrap();
    h.run(&[0xd8d80000, 0x14000001]).unwrap(); // ds_load_b32 v20, v1
    assert_eq!(lds_u32(&h, 0), 5);
}

#[test]
fn two_address_forms_scale_offsets() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.set_v(1, |l| 64 * l as u32);
        h.set_v(2, |l| 100 + l as u32);
        h.set_v(3, |l| 200 + l as u32);
        h.run(&[0xd8380501, 0x00030201]).unwrap(); // ds_store_2addr_b32 offset0:1 offset1:5
        assert_eq!(
            (lds_u32(&h, 64 * 3 + 4), lds_u32(&h, 64 * 3 + 20)),
            (103, 203)
        );
        h.run(&[0xd8dc0501, 0x06000001]).unwrap(); // ds_load_2addr_b32 v[6:7]
        assert_eq!((h.v(6, 9), h.v(7, 9)), (109, 209));
        // stride64 b64: offsets 1 * 8 * 64 and 2 * 8 * 64.
        h.set_v(1, |l| 8 * l as u32);
        h.set_v(4, |l| 300 + l as u32);
        h.set_v(5, |_| 7);
        h.run(&[0xd93c0201, 0x00040201]).unwrap(); // ds_store_2addr_stride64_b64 v1, v[2:3], v[4:5]
        assert_eq!(lds_u32(&h, 512 + 16), 102);
        assert_eq!(lds_u32(&h, 512 + 20), 202, "data0 hi = v3");
        assert_eq!((lds_u32(&h, 1024 + 16), lds_u32(&h, 1024 + 20)), (302, 7));
        h.run(&[0xd9e00201, 0x06000001]).unwrap(); // ds_load_2addr_stride64_b64 v[6:9]
        assert_eq!(
            (h.v(6, 4), h.v(7, 4), h.v(8, 4), h.v(9, 4)),
            (104, 204, 304, 7)
        );
        // storexchg_2addr_rtn_b32 returns both old dwords.
        h.set_v(1, |_| 0x2000);
        h.wave.set_exec(1);
        put_u32(&mut h, 0x2004, 11);
        put_u32(&mut h, 0x2008, 22);
        h.run(&[0xd8b80201, 0x06030201]).unwrap();
        assert_eq!((h.v(6, 0), h.v(7, 0)), (11, 22));
        assert_eq!((lds_u32(&h, 0x2004), lds_u32(&h, 0x2008)), (100, 200));
    }
}

#[test]
fn atomics_with_many_lanes_on_one_address() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        put_u32(&mut h, 0x100, 1000);
        h.set_v(1, |_| 0x100);
        h.set_v(2, |l| l as u32);
        h.run(&DS_ADD_RTN_U32).unwrap();
        let mut acc = 1000;
        for l in 0..n(w64) {
            assert_eq!(h.v(3, l), acc);
            acc += l as u32;
        }
        assert_eq!(lds_u32(&h, 0x100), acc);
        // No-return form: same effect, v3 untouched.
        h.set_v(3, |_| 9);
        h.run(&[0xd8000000, 0x00000201]).unwrap();
        assert_eq!((lds_u32(&h, 0x100), h.v(3, 0)), (2 * acc - 1000, 9));
    }
}

#[test]
fn atomic_semantics() {
    let mut h = Harness::new(false);
    h.wave.set_exec(1);
    h.set_v(1, |_| 0x40);
    // cmpstore: data0 = new value, data1 = compare (RDNA3 order).
    put_u32(&mut h, 0x40, 7);
    h.set_v(2, |_| 99);
    h.set_v(4, |_| 7);
    h.run(&[0xd8c00000, 0x03040201]).unwrap();
    assert_eq!((h.v(3, 0), lds_u32(&h, 0x40)), (7, 99));
    // mskor: (mem & !data0) | data1.
    put_u32(&mut h, 0x40, 0xffff_0000);
    h.set_v(2, |_| 0x00ff_0000);
    h.set_v(4, |_| 0x12);
    h.run(&[0xd8b00000, 0x03040201]).unwrap();
    assert_eq!(lds_u32(&h, 0x40), 0xff00_0012);
    // wrap: mem >= data0 ? mem - data0 : mem + data1.
    put_u32(&mut h, 0x40, 3);
    h.set_v(2, |_| 5);
    h.set_v(4, |_| 100);
    h.run(&[0xd8d00000, 0x03040201]).unwrap();
    assert_eq!(lds_u32(&h, 0x40), 103);
    // dec: 0 wraps to data.
    put_u32(&mut h, 0x40, 0);
    h.run(&[0xd8900000, 0x03000201]).unwrap();
    assert_eq!(lds_u32(&h, 0x40), 5);
    // max_f32 and add_f32.
    put_u32(&mut h, 0x40, 1.5f32.to_bits());
    h.set_v(2, |_| 2.5f32.to_bits());
    h.run(&[0xd8cc0000, 0x03000201]).unwrap();
    assert_eq!(lds_u32(&h, 0x40), 2.5f32.to_bits());
    h.run(&[0xd8540000, 0x00000201]).unwrap();
    assert_eq!(lds_u32(&h, 0x40), 5.0f32.to_bits());
    // 64-bit: add with carry across dwords, min_f64.
    h.lds[0x48..0x50].copy_from_slice(&0xffff_ffffu64.to_le_bytes());
    h.set_v(1, |_| 0x48);
    h.set_v(2, |_| 1);
    h.set_v(3, |_| 0);
    h.run(&[0xd9800000, 0x06000201]).unwrap();
    assert_eq!((h.v(6, 0), h.v(7, 0)), (0xffff_ffff, 0));
    assert_eq!(&h.lds[0x48..0x50], &(1u64 << 32).to_le_bytes());
    h.lds[0x48..0x50].copy_from_slice(&2.0f64.to_bits().to_le_bytes());
    let m = (-1.0f64).to_bits();
    h.set_v(2, |_| m as u32);
    h.set_v(3, |_| (m >> 32) as u32);
    h.run(&[0xd9c80000, 0x06000201]).unwrap();
    assert_eq!(&h.lds[0x48..0x50], &m.to_le_bytes());
    // condxchg32: each half written (bit 31 cleared) only when its bit 31 is set.
    put_u32(&mut h, 0x48, 1);
    put_u32(&mut h, 0x4c, 2);
    h.set_v(1, |_| 0x4c); // & ~7 -> 0x48
    h.set_v(2, |_| 0x8000_0005);
    h.set_v(3, |_| 0x0000_0006);
    h.run(&[0xd9f80000, 0x06000201]).unwrap();
    assert_eq!((h.v(6, 0), h.v(7, 0)), (1, 2));
    assert_eq!((lds_u32(&h, 0x48), lds_u32(&h, 0x4c)), (5, 2));
}

#[test]
fn swizzle_modes() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.set_v(1, |l| 100 + l as u32);
        h.wave.set_exec(!(1u64 << 2));
        // QUAD_PERM(3,2,1,0): lane i reads lane (i & ~3) | (3 - i % 4); lane 2 is inactive -> 0.
        h.run(&[0xd8d4801b, 0x03000001]).unwrap();
        assert_eq!((h.v(3, 0), h.v(3, 1), h.v(3, 3)), (103, 0, 100));
        assert_eq!(h.v(3, 5), 106);
        // BITMASK "00p11": j = (i & 4) | 3 within each 32-lane group.
        h.run(&[0xd8d40064, 0x03000001]).unwrap();
        assert_eq!((h.v(3, 0), h.v(3, 6), h.v(3, 13)), (103, 107, 107));
        // SWAP,16: j = i ^ 16, never crossing a 32-lane group.
        h.run(&[0xd8d4401f, 0x03000001]).unwrap();
        assert_eq!((h.v(3, 0), h.v(3, 17)), (116, 101));
        if w64 {
            assert_eq!((h.v(3, 32), h.v(3, 63)), (148, 147));
        }
    }
}

#[test]
fn permute_and_bpermute() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        // ISA example: addr {0, 0, 12, 4}, data {A, B, C, D}; replicated per group of 4.
        h.set_v(1, |l| [0, 0, 12, 4][l % 4] + 16 * (l as u32 / 4));
        h.set_v(2, |l| 10 + l as u32);
        h.run(&[0xdacc0000, 0x03000201]).unwrap(); // bpermute: {A, A, D, B}
        assert_eq!(
            (h.v(3, 4), h.v(3, 5), h.v(3, 6), h.v(3, 7)),
            (14, 14, 17, 15)
        );
        h.run(&[0xdac80000, 0x03000201]).unwrap(); // permute: {B, D, 0, C}
        assert_eq!(
            (h.v(3, 4), h.v(3, 5), h.v(3, 6), h.v(3, 7)),
            (15, 17, 0, 16)
        );
        // EXEC = ...1010: bpermute {-, 0, -, B}; permute {-, D, -, 0}.
        h.wave.set_exec(0xaaaa_aaaa_aaaa_aaaa);
        h.set_v(3, |_| 0xdead);
        h.run(&[0xdacc0000, 0x03000201]).unwrap();
        assert_eq!(
            (h.v(3, 4), h.v(3, 5), h.v(3, 6), h.v(3, 7)),
            (0xdead, 0, 0xdead, 15)
        );
        h.run(&[0xdac80000, 0x03000201]).unwrap();
        assert_eq!((h.v(3, 5), h.v(3, 7)), (17, 0));
        if w64 {
            // Lane addresses select within the lane's own 32-lane half.
            h.wave.set_exec(u64::MAX);
            h.set_v(1, |_| 4 * 33);
            h.run(&[0xdacc0000, 0x03000201]).unwrap();
            assert_eq!((h.v(3, 0), h.v(3, 40)), (11, 43));
        }
    }
}

#[test]
fn append_consume_and_addtid() {
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        h.wave.sgpr[125] = 0x20; // M0 base
        put_u32(&mut h, 0x28, 50);
        h.wave.set_exec(0b1011);
        h.run(&[0xd8f80008, 0x03000000]).unwrap(); // ds_append v3 offset:8
        assert_eq!((h.v(3, 0), h.v(3, 3), lds_u32(&h, 0x28)), (50, 50, 53));
        h.wave.sgpr[125] = 0x28;
        h.wave.set_exec(u64::MAX);
        h.run(&[0xd8f40000, 0x03000000]).unwrap(); // ds_consume v3
        assert_eq!(
            (h.v(3, 7), lds_u32(&h, 0x28)),
            (53, 53u32.wrapping_sub(n(w64) as u32))
        );
        // addtid: M0[15:0] + offset + lane * 4.
        h.wave.sgpr[125] = 0xffff_0100;
        h.set_v(2, |l| 3 * l as u32);
        h.run(&[0xdac00010, 0x00000200]).unwrap(); // ds_store_addtid_b32 v2 offset:16
        assert_eq!(lds_u32(&h, 0x110 + 4 * 9), 27);
        h.wave.sgpr[125] = 0x104;
        h.run(&[0xdac40010, 0x03000000]).unwrap(); // ds_load_addtid_b32 v3 offset:16
        assert_eq!(h.v(3, 0), 3);
    }
}

#[test]
fn gds_and_bvh_are_reported_as_unimplemented() {
    let mut h = Harness::new(false);
    let words: [[u32; 2]; 4] = [
        [0xd86a0000, 0x00000000], // ds_gws_sema_v gds
        [0xd8fe0000, 0x03000001], // ds_ordered_count v3, v1 gds
        [0xd8020000, 0x00000201], // ds_add_u32 v1, v2 gds (GDS is not emulated)
        [0xdab40000, 0x03040201], // ds_bvh_stack_rtn_b32 v3, v1, v2, v[4:7]
    ];
    for w in words {
        assert!(
            matches!(h.run(&w), Err(ExecError::Unimplemented { .. })),
            "{w:x?}"
        );
    }
}

#[test]
fn b96_and_b16_alignment_per_mode_in_both_wave_sizes() {
    const DS_LOAD_B96: [u32; 2] = [0xdbf80000, 0x08000001]; // ds_load_b96 v[8:10], v1
    const DS_STORE_B96: [u32; 2] = [0xdb780000, 0x00000401]; // ds_store_b96 v1, v[4:6]
    const DS_LOAD_U16: [u32; 2] = [0xd8f00000, 0x03000001]; // ds_load_u16 v3, v1
    const DS_STORE_B16: [u32; 2] = [0xd87c0000, 0x00000201]; // ds_store_b16 v1, v2
    for w64 in [false, true] {
        let mut h = Harness::new(w64);
        for (i, b) in h.lds[0..64].iter_mut().enumerate() {
            *b = i as u8;
        }
        h.set_v(1, |_| 20);
        // UNALIGNED: bytes 20..32.
        h.cfg.alignment_mode = align_mode::UNALIGNED;
        h.run(&DS_LOAD_B96).unwrap();
        assert_eq!((h.v(8, 0), h.v(10, 0)), (0x1716_1514, 0x1f1e_1d1c));
        // DWORD: B96 has 16-byte local alignment (RDNA3 ISA guide, Wave State: & 0xfff0): bytes 16..28.
        h.cfg.alignment_mode = align_mode::DWORD;
        h.run(&DS_LOAD_B96).unwrap();
        assert_eq!((h.v(8, 0), h.v(10, 0)), (0x1312_1110, 0x1b1a_1918));
        // DWORD_STRICT: 20 is dword aligned, so no MEMVIOL, and the address is still forced to
        // 16; STRICT: 20 is not 16-byte aligned, MEMVIOL.
        h.cfg.alignment_mode = align_mode::DWORD_STRICT;
        h.run(&DS_LOAD_B96).unwrap();
        assert_eq!(h.v(8, 1), 0x1312_1110);
        h.cfg.alignment_mode = align_mode::STRICT;
        assert!(matches!(
            h.run(&DS_LOAD_B96),
            Err(ExecError::MemViol {
                lane: 0,
                addr: 20,
                ..
            })
        ));
        // Stores mask the same way: a b96 store to 0x234 under DWORD lands at 0x230.
        h.cfg.alignment_mode = align_mode::DWORD;
        h.set_v(1, |_| 0x234);
        for k in 0..3 {
            h.set_v(4 + k, move |_| 0xa0 + k as u32);
        }
        h.wave.set_exec(1 << 1);
        h.run(&DS_STORE_B96).unwrap();
        assert_eq!(
            (lds_u32(&h, 0x230), lds_u32(&h, 0x234), lds_u32(&h, 0x238)),
            (0xa0, 0xa1, 0xa2)
        );
        assert_eq!(lds_u32(&h, 0x23c), 0);
        // B16: 2-byte local alignment. An odd address reads/writes the even halfword below.
        h.set_v(1, |_| 0x45);
        h.set_v(2, |_| 0xbeef);
        h.run(&DS_STORE_B16).unwrap();
        assert_eq!(&h.lds[0x44..0x46], &[0xef, 0xbe]);
        h.set_v(3, |_| 0);
        h.run(&DS_LOAD_U16).unwrap();
        assert_eq!(h.v(3, 1), 0xbeef);
        h.cfg.alignment_mode = align_mode::UNALIGNED;
        h.run(&DS_LOAD_U16).unwrap();
        assert_eq!(h.v(3, 1), 0x00be, "bytes 0x45, 0x46");
        // DWORD_STRICT: a B16 access only needs 2-byte alignment.
        h.cfg.alignment_mode = align_mode::DWORD_STRICT;
        assert!(matches!(
            h.run(&DS_LOAD_U16),
            Err(ExecError::MemViol {
                lane: 1,
                addr: 0x45,
                ..
            })
        ));
        h.set_v(1, |_| 0x46);
        h.run(&DS_LOAD_U16).unwrap();
    }
}

#[test]
fn multi_dword_reads_are_all_or_nothing_per_element_in_wave64() {
    const DS_LOAD_B96: [u32; 2] = [0xdbf80000, 0x08000001]; // ds_load_b96 v[8:10], v1
    const DS_LOAD_2ADDR_B64: [u32; 2] = [0xd9dc0201, 0x08000001]; // ds_load_2addr_b64 v[8:11], v1 offset0:1 offset1:2
    let mut h = Harness::new(true);
    h.lds = vec![0x77; 1024];
    // Lane 40 straddles the end by one dword, lane 41 is exactly at the end, lane 0 fits.
    h.set_v(1, |l| match l {
        40 => 1016,
        41 => 1012,
        _ => 0,
    });
    h.run(&DS_LOAD_B96).unwrap();
    assert_eq!((h.v(8, 40), h.v(9, 40), h.v(10, 40)), (0, 0, 0));
    assert_eq!((h.v(8, 41), h.v(10, 41)), (0x7777_7777, 0x7777_7777));
    assert_eq!(h.v(10, 0), 0x7777_7777);
    // 2addr b64 at 1004 + 8 and 1004 + 16: the first element fits, the second ends 4 bytes past
    // the LDS, so the whole instruction returns zeros for the lane (RDNA3 ISA guide, Wave State); lane 0 at 992
    // reads both elements.
    h.set_v(1, |l| if l == 0 { 992 } else { 1004 });
    h.run(&DS_LOAD_2ADDR_B64).unwrap();
    assert_eq!(
        (h.v(8, 63), h.v(9, 63), h.v(10, 63), h.v(11, 63)),
        (0, 0, 0, 0)
    );
    assert_eq!((h.v(8, 0), h.v(11, 0)), (0x7777_7777, 0x7777_7777));
    // A destination past the wave's VGPRs nullifies the load: ds_load_b64 v[20:21] with 21 VGPRs.
    let mut w = Wave::new(true, 21);
    w.set_exec(u64::MAX);
    h.wave = w;
    h.run(&[0xd9d80000, 0x14000001]).unwrap(); // ds_load_b64 v[20:21], v1
    assert!((0..64).all(|l| h.v(20, l) == 0));
}

/// ds_load_2addr in the masking alignment modes (the fast path): every lane's address is
/// computed, but only EXEC lanes are written; a lane whose second element is out of range reads
/// zeros for both; DWORD clears the low two bits of each element's address, UNALIGNED does not.
#[test]
fn load_2addr_b32_masking_modes_with_partial_exec() {
    const DS_LOAD_2ADDR_B32: [u32; 2] = [0xd8dc0501, 0x06000001]; // ds_load_2addr_b32 v[6:7], v1 offset0:1 offset1:5
                                                                  // Little-endian dword of the byte pattern b[i] = i mod 256 at byte address a.
    let pat = |a: u32| u32::from_le_bytes([a as u8, (a + 1) as u8, (a + 2) as u8, (a + 3) as u8]);
    for w64 in [false, true] {
        for mode in [align_mode::DWORD, align_mode::UNALIGNED] {
            let mut h = Harness::new(w64);
            h.cfg.alignment_mode = mode;
            h.lds = (0..1024).map(|i| i as u8).collect();
            // Lane 3: element 1 at 1006 + 20 = 1026 (1024 in DWORD mode) is past the end.
            h.set_v(1, |l| if l == 3 { 1006 } else { 8 * l as u32 + 2 });
            h.set_v(6, |_| 0xdead);
            h.set_v(7, |_| 0xbeef);
            let exec = 0x5555_5555_5555_555d & if w64 { u64::MAX } else { 0xffff_ffff };
            h.wave.set_exec(exec);
            h.run(&DS_LOAD_2ADDR_B32).unwrap();
            for l in 0..n(w64) {
                let base = 8 * l as u32 + 2;
                let (e0, e1) = if l == 3 {
                    (0, 0)
                } else if mode == align_mode::DWORD {
                    (pat((base + 4) & !3), pat((base + 20) & !3))
                } else {
                    (pat(base + 4), pat(base + 20))
                };
                let want = if exec >> l & 1 != 0 {
                    (e0, e1)
                } else {
                    (0xdead, 0xbeef)
                };
                assert_eq!(
                    (h.v(6, l), h.v(7, l)),
                    want,
                    "w64 {w64} mode {mode} lane {l}"
                );
            }
        }
    }
}
