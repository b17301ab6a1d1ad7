//! SMEM: s_load addressing, s_buffer_load range checks, destination alignment and region rules,
//! faults, cache ops.

use wavesim_rdna3::exec::ExecError;
use wavesim_rdna3::testing::Harness;

fn setup(w64: bool) -> (Harness, u64) {
    let mut h = Harness::new(w64);
    let buf = h.mem.alloc(256, 256).unwrap();
    for i in 0..64u64 {
        h.mem.write_u32(buf + 4 * i, 0x100 + i as u32).unwrap();
    }
    h.wave.sgpr[2] = buf as u32;
    h.wave.sgpr[3] = (buf >> 32) as u32;
    (h, buf)
}

#[test]
fn s_load_addressing() {
    for w64 in [false, true] {
        let (mut h, _) = setup(w64);
        h.run(&[0xf4000281, 0xf8000008]).unwrap(); // s_load_b32 s10, s[2:3], 0x8
        assert_eq!(h.s(10), 0x102);
        // Signed immediate: base - 4 is outside the buffer.
        assert!(matches!(
            h.run(&[0xf4040281, 0xf81ffffc]), // s_load_b64 s[10:11], s[2:3], -0x4
            Err(ExecError::MemoryFault { .. })
        ));
        h.wave.sgpr[2] += 8;
        h.run(&[0xf4040281, 0xf81ffffc]).unwrap();
        assert_eq!((h.s(10), h.s(11)), (0x101, 0x102));
        // soffset SGPR + imm: 8 + 4 + 16 bytes = dword 7.
        h.wave.sgpr[20] = 4;
        h.run(&[0xf4080301, 0x28000010]).unwrap(); // s_load_b128 s[12:15], s[2:3], s20 offset:0x10
        assert_eq!((h.s(12), h.s(15)), (0x107, 0x10a));
        // s_load_b512 s[16:31], s[2:3], null
        h.run(&[0xf4100401, 0xf8000000]).unwrap();
        assert_eq!((h.s(16), h.s(31)), (0x102, 0x111));
        // Low two address bits are ignored.
        h.run(&[0xf4000281, 0xf8000003]).unwrap(); // s_load_b32 s10, s[2:3], 0x3
        assert_eq!(h.s(10), 0x102);
    }
}

#[test]
fn s_load_faults_name_the_address() {
    let (mut h, buf) = setup(false);
    h.wave.sgpr[2] = (buf + 252) as u32;
    match h.run(&[0xf4040281, 0xf8000000]) {
        // s_load_b64 s[10:11], s[2:3], 0x0: straddles the end.
        Err(ExecError::MemoryFault { addr, size, .. }) => assert_eq!((addr, size), (buf + 252, 8)),
        r => panic!("{r:?}"),
    }
}

/// Executes the SMEM instruction `words` with its destination replaced by `sdata`: the decoder
/// (like LLVM's) refuses encodings whose destination crosses a register region, but hardware
/// executes them with the RDNA3 ISA guide's out-of-range rule, which the executor implements.
fn run_with_sdata(h: &mut Harness, words: [u32; 2], sdata: u16) {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut inst = wavesim_rdna3::decode::decode(&bytes, 0).unwrap();
    inst.dst[0] = sdata;
    let mut ctx = wavesim_rdna3::exec::Ctx {
        mem: &h.mem,
        lds: &mut h.lds,
        alignment_mode: h.cfg.alignment_mode,
        host: None,
    };
    wavesim_rdna3::exec::execute(&mut h.wave, &inst, &mut ctx).unwrap();
}

#[test]
fn destination_region_rules() {
    for w64 in [false, true] {
        let (mut h, _) = setup(w64);
        // s_load_b128 s[104:107]: s104, s105 and VCC are written; nothing spills into the TTMPs,
        // even in the trap handler (RDNA3 ISA guide, Wave State: data from SGPRs/VCC into the TTMPs is out of range).
        h.wave.hw.status |= 1 << 5;
        h.wave.sgpr[108] = 0x55;
        run_with_sdata(&mut h, [0xf4081901, 0xf8000000], 104); // s_load_b128 s[100:103], s[2:3], 0x0
        assert_eq!(
            (h.s(104), h.s(105), h.s(106), h.s(107)),
            (0x100, 0x101, 0x102, 0x103)
        );
        assert_eq!(h.s(108), 0x55);
        // s_load_b256 from ttmp12: ttmp12..15 are written, nothing past the TTMPs (NULL, M0,
        // EXEC keep their values).
        h.wave.sgpr[125] = 0x99;
        let exec = h.wave.sgpr[126];
        run_with_sdata(&mut h, [0xf40c1d01, 0xf8000000], 120); // s_load_b256 ttmp[8:15], s[2:3], 0x0
        assert_eq!((h.s(120), h.s(123)), (0x100, 0x103));
        assert_eq!((h.s(125), h.s(126)), (0x99, exec));
        // A legal TTMP destination in the trap handler: s_load_b64 ttmp[14:15].
        h.run(&[0xf4041e81, 0xf8000000]).unwrap();
        assert_eq!((h.s(122), h.s(123)), (0x100, 0x101));
        h.wave.hw.status &= !(1 << 5);
        // s_load_b64 with an odd destination (s11) is forced to s[10:11].
        h.wave.sgpr[12] = 0x77;
        h.run(&[0xf40402c1, 0xf8000000]).unwrap();
        assert_eq!((h.s(10), h.s(11), h.s(12)), (0x100, 0x101, 0x77));
        // M0 cannot be loaded.
        h.run(&[0xf4001f41, 0xf8000000]).unwrap();
        assert_eq!(h.s(125), 0x99);
        // TTMPs are not written outside the trap handler.
        h.run(&[0xf4001b01, 0xf8000000]).unwrap(); // s_load_b32 ttmp0
        assert_eq!(h.s(108), 0x55);
    }
}

#[test]
fn s_buffer_load_range_checks_each_dword() {
    let (mut h, buf) = setup(true);
    // V# in s[4:7]: base = buf + 16, stride 0, num_records = 24 bytes.
    h.wave.sgpr[4] = (buf + 16) as u32;
    h.wave.sgpr[5] = ((buf + 16) >> 32) as u32 & 0xffff;
    h.wave.sgpr[6] = 24;
    h.wave.sgpr[7] = 0;
    h.run(&[0xf4200282, 0xf8000004]).unwrap(); // s_buffer_load_b32 s10, s[4:7], 0x4
    assert_eq!(h.s(10), 0x105);
    // s_buffer_load_b128 s[12:15], s[4:7], s20 with s20 = 12: dwords at 12, 16, 20 in range,
    // 24 out of range -> 0.
    h.wave.sgpr[20] = 12;
    h.set_v(0, |_| 0);
    h.run(&[0xf4280302, 0x28000000]).unwrap();
    assert_eq!(
        (h.s(12), h.s(13), h.s(14), h.s(15)),
        (0x107, 0x108, 0x109, 0)
    );
    // Stride scales num_records: stride 8 * 3 records = 24 bytes again; base's high bits above
    // 47 (the stride field) are not part of the address.
    h.wave.sgpr[5] |= 8 << 16;
    h.wave.sgpr[6] = 3;
    h.run(&[0xf4280302, 0x28000000]).unwrap();
    assert_eq!((h.s(12), h.s(15)), (0x107, 0));
    // An all-zero V# returns zeros without faulting.
    h.wave.sgpr[4..8].fill(0);
    h.run(&[0xf4280302, 0x28000000]).unwrap();
    assert_eq!((h.s(12), h.s(13)), (0, 0));
}

#[test]
fn cache_ops_execute() {
    let mut h = Harness::new(false);
    h.run(&[0xf4840000, 0x00000000, 0xf4800000, 0x00000000])
        .unwrap(); // s_dcache_inv; s_gl1_inv
}

/// The real word of s_load_b128 s[104:107], s[2:3], 0x0 (F4081A01 F8000000; LLVM prints it as
/// `.long`): the decoder keeps it executable, and the seed-000 region rule applies (s104, s105,
/// VCC written, nothing spills into the TTMPs, even in the trap handler).
#[test]
fn destination_region_rules_real_word() {
    for w64 in [false, true] {
        let (mut h, _) = setup(w64);
        h.wave.hw.status |= 1 << 5;
        h.wave.sgpr[108] = 0x55;
        h.run(&[0xf4081a01, 0xf8000000]).unwrap();
        assert_eq!(
            (h.s(104), h.s(105), h.s(106), h.s(107)),
            (0x100, 0x101, 0x102, 0x103)
        );
        assert_eq!(h.s(108), 0x55);
    }
}
