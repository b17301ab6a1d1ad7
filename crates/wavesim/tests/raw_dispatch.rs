//! The raw dispatch ABI (`wavesim::dispatch_raw`, C `wavesim_dispatch_raw`) fed the register
//! values tinygrad's mock GPU has when a PM4 DISPATCH_DIRECT arrives (docs/TINYGRAD.md):
//! real clang-19 and llc-19 kernels (tests/data/raw/build.sh) loaded as tinygrad's AMDProgram
//! loads them, RSRC1/2/3 as its AMDComputeQueue.exec programs them (RSRC1 | PRIV on gfx11,
//! RSRC2 | LDS_SIZE), COMPUTE_USER_DATA as it fills them (dispatch packet pointer, kernarg
//! pointer), the wave size from the descriptor's wave32 bit (DISPATCH_INITIATOR.CS_W32_EN), and
//! the mock's mapped ranges. Expected values come from the kernels' source and the ISA rules.

use std::path::PathBuf;
use wavesim::raw::{self, rsrc1_fields, rsrc2_fields, rsrc3_fields, ComputeResources, Field};
use wavesim::{CodeObject, Kernel, RawDispatch, RawError};

fn data(name: &str) -> Vec<u8> {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/raw")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// Host memory standing in for GPU memory (8-byte aligned, as GPU buffers are).
struct Buf(Vec<u64>);

impl Buf {
    fn zeroed(bytes: usize) -> Buf {
        Buf(vec![0; bytes.div_ceil(8)])
    }
    fn addr(&self) -> u64 {
        self.0.as_ptr() as u64
    }
    fn size(&self) -> u64 {
        (self.0.len() * 8) as u64
    }
    fn bytes(&self) -> &[u8] {
        // SAFETY: a u64 slice viewed as its bytes.
        unsafe { std::slice::from_raw_parts(self.0.as_ptr() as *const u8, self.0.len() * 8) }
    }
    fn bytes_mut(&mut self) -> &mut [u8] {
        // SAFETY: a u64 slice viewed as its bytes.
        unsafe { std::slice::from_raw_parts_mut(self.0.as_mut_ptr() as *mut u8, self.0.len() * 8) }
    }
    fn put(&mut self, off: usize, b: &[u8]) {
        self.bytes_mut()[off..off + b.len()].copy_from_slice(b);
    }
    fn u32s(&self, n: usize) -> Vec<u32> {
        self.bytes()[..4 * n]
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    }
}

/// A code object in "GPU" memory the way tinygrad's AMDProgram puts it there: the whole image
/// copied into one buffer (rounded up to 4 KiB); the code handed to the emulator runs from the
/// kernel's entry to the end of that mapped buffer (the mock's `prg_sz`), so descriptors, notes
/// and padding follow the code.
struct Program {
    lib: Buf,
    kernel: Kernel,
}

impl Program {
    fn load(file: &str, kernel: &str) -> Program {
        let co = CodeObject::parse(&data(file)).unwrap();
        assert!(co.relocs.is_empty(), "these kernels need no relocation");
        let mut lib = Buf::zeroed(co.image.len().next_multiple_of(0x1000));
        lib.put(0, &co.image);
        let kernel = co
            .kernels
            .iter()
            .find(|k| k.name == kernel)
            .unwrap()
            .clone();
        Program { lib, kernel }
    }

    fn code(&self) -> &[u8] {
        &self.lib.bytes()[self.kernel.entry as usize..]
    }

    /// RSRC1/2/3 as tinygrad programs them for gfx11 (ops_amd.py AMDProgram): RSRC1 with PRIV
    /// (bit 20) set, RSRC2 with LDS_SIZE = ceil(group_segment_fixed_size / 512) in bits 23:15.
    fn rsrc(&self) -> (u32, u32, u32) {
        let d = &self.kernel.descriptor;
        let lds = d.group_segment_fixed_size.div_ceil(512);
        (
            d.compute_pgm_rsrc1 | 1 << 20,
            d.compute_pgm_rsrc2 | lds << 15,
            d.compute_pgm_rsrc3,
        )
    }

    fn wave64(&self) -> bool {
        self.kernel.descriptor.kernel_code_properties & 0x400 == 0
    }

    /// The mock's mapped ranges: the image, the argument buffer and `buffers`.
    fn ranges(&self, args: &Args, buffers: &[&Buf]) -> Vec<(u64, u64)> {
        let mut r = vec![
            (self.lib.addr(), self.lib.size()),
            (args.buf.addr(), args.buf.size()),
        ];
        r.extend(buffers.iter().map(|b| (b.addr(), b.size())));
        r
    }

    /// The COMPUTE_USER_DATA values tinygrad writes (dispatch packet pointer when the kernel
    /// enables it, then the kernarg pointer), read back by the mock for USER_SGPR_COUNT
    /// registers (0 where nothing was written).
    fn user_data(&self, dispatch_packet: u64, kernarg: u64) -> Vec<u32> {
        let kcp = self.kernel.descriptor.kernel_code_properties;
        let mut regs = Vec::new();
        if kcp & 2 != 0 {
            regs.extend([dispatch_packet as u32, (dispatch_packet >> 32) as u32]);
        }
        regs.extend([kernarg as u32, (kernarg >> 32) as u32]);
        let count = (self.kernel.descriptor.compute_pgm_rsrc2 >> 1) & 0x1f;
        regs.resize(count as usize, 0);
        regs
    }
}

/// The argument buffer tinygrad fills: the kernarg segment, then (for kernels with a dispatch
/// pointer) an hsa_kernel_dispatch_packet_t with the workgroup size, grid size and kernarg
/// address (HSA Runtime Programmer's Reference Manual, "Kernel Dispatch Packet": workgroup_size_x
/// at byte 4, grid_size_x at byte 12, kernarg_address at byte 40).
struct Args {
    buf: Buf,
    packet_offset: usize,
}

impl Args {
    fn new(kernargs: &[u8], local: [u32; 3], groups: [u32; 3]) -> Args {
        let packet_offset = kernargs.len().next_multiple_of(64);
        let mut buf = Buf::zeroed(packet_offset + 64);
        buf.put(0, kernargs);
        let p = packet_offset;
        for i in 0..3 {
            buf.put(p + 4 + 2 * i, &(local[i] as u16).to_le_bytes());
            buf.put(p + 12 + 4 * i, &(local[i] * groups[i]).to_le_bytes());
        }
        let kernarg_addr = buf.addr();
        buf.put(p + 40, &kernarg_addr.to_le_bytes());
        Args { buf, packet_offset }
    }
    fn kernarg(&self) -> u64 {
        self.buf.addr()
    }
    fn packet(&self) -> u64 {
        self.buf.addr() + self.packet_offset as u64
    }
}

/// A dispatch as the mock makes it, with the mock's mapped ranges.
fn mock_dispatch<'a>(
    prg: &'a Program,
    user: &'a [u32],
    groups: [u32; 3],
    local: [u32; 3],
    ranges: Option<&'a [(u64, u64)]>,
) -> RawDispatch<'a> {
    let (rsrc1, rsrc2, rsrc3) = prg.rsrc();
    RawDispatch {
        code: prg.code(),
        groups,
        local,
        user_sgprs: user,
        rsrc1,
        rsrc2,
        rsrc3,
        wave64: prg.wave64(),
        scratch_lane_bytes: prg.kernel.descriptor.private_segment_fixed_size,
        target: raw::target_from("110000").unwrap(),
        host_ranges: ranges,
        max_wave_insts: 1_000_000,
    }
}

#[test]
fn clang_kernel_reads_the_dispatch_packet_through_s0_s1_and_kernargs_through_s2_s3() {
    let prg = Program::load("dispatch_ptr.hsaco", "dispatch_dims");
    let kcp = prg.kernel.descriptor.kernel_code_properties;
    assert_eq!(
        kcp & 0xa,
        0xa,
        "dispatch pointer and kernarg pointer enabled"
    );
    // The values docs/TINYGRAD.md lists.
    assert_eq!(prg.rsrc(), (0x60bf_0080, 0x9e, 0));
    let (groups, local) = ([3, 1, 1], [64, 1, 1]);
    let n = 192;
    let out = Buf::zeroed(4 * n);
    let args = Args::new(&out.addr().to_le_bytes(), local, groups);
    let user = prg.user_data(args.packet(), args.kernarg());
    let (dp, ka) = (args.packet(), args.kernarg());
    assert_eq!(user.len(), 15);
    assert_eq!(
        user[..4],
        [dp as u32, (dp >> 32) as u32, ka as u32, (ka >> 32) as u32]
    );
    let ranges = prg.ranges(&args, &[&out]);
    let d = mock_dispatch(&prg, &user, groups, local, Some(&ranges));
    // SAFETY: every range is live host memory of this test.
    unsafe { wavesim::dispatch_raw(&d) }.unwrap();
    // dispatch_ptr.cl: grid_size_x * 65536 + workgroup_size_x * 256 + (i & 255).
    let want: Vec<u32> = (0..n as u32)
        .map(|i| 192 * 65536 + 64 * 256 + (i & 255))
        .collect();
    assert_eq!(out.u32s(n), want);
}

#[test]
fn llc_kernel_runs_in_wave64() {
    let prg = Program::load("ballot_w64.hsaco", "ballot_w64");
    assert!(prg.wave64(), "compiled with +wavefrontsize64");
    assert_eq!(
        prg.rsrc(),
        (0x60bf_0041, 0x138c, 0),
        "as docs/TINYGRAD.md lists"
    );
    let (groups, local) = ([2, 1, 1], [128, 1, 1]);
    let n = 256;
    let out = Buf::zeroed(4 * n);
    let args = Args::new(&out.addr().to_le_bytes(), local, groups);
    let user = prg.user_data(args.packet(), args.kernarg());
    assert_eq!(
        user.len(),
        6,
        "dispatch pointer, kernarg pointer, dispatch id"
    );
    let ranges = prg.ranges(&args, &[&out]);
    let d = mock_dispatch(&prg, &user, groups, local, Some(&ranges));
    // SAFETY: every range is live host memory of this test.
    unsafe { wavesim::dispatch_raw(&d) }.unwrap();
    // ballot_w64.ll: popcount(ballot(gid odd)) + 1000 * lane. A wave64 holds 64 consecutive
    // global ids, 32 of them odd, and lanes 0..63.
    let want: Vec<u32> = (0..n as u32).map(|g| 32 + 1000 * (g % 64)).collect();
    assert_eq!(out.u32s(n), want);
}

/// Flush-to-zero of a denormal keeps the sign (RDNA3 ISA, "Denormals": FP_DENORM 0 flushes
/// input and output denormals).
fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

#[test]
fn rsrc1_float_denorm_mode_32_decides_the_result() {
    let prg = Program::load("denorm_flush.hsaco", "scale");
    let rsrc1 = prg.kernel.descriptor.compute_pgm_rsrc1;
    assert_eq!(
        (rsrc1 >> 16) & 3,
        0,
        "-cl-denorms-are-zero: f32 denormals flushed"
    );
    assert_eq!(
        prg.rsrc(),
        (0x60bc_0080, 0x9e, 0),
        "as docs/TINYGRAD.md lists"
    );
    let tiny = f32::MIN_POSITIVE;
    let inputs: Vec<f32> = (0..64)
        .map(|i| match i % 4 {
            0 => tiny * (1.0 + i as f32 / 64.0), // normal in, denormal out
            1 => -tiny / (2.0 + i as f32),       // denormal in
            2 => 1.5 + i as f32,                 // normal in and out
            _ => f32::from_bits(1 + i as u32 * 977), // tiny denormal in
        })
        .collect();
    let scale = 0.5f32;
    let run = |rsrc1: u32| -> Vec<f32> {
        let mut input = Buf::zeroed(4 * 64);
        for (i, x) in inputs.iter().enumerate() {
            input.put(4 * i, &x.to_le_bytes());
        }
        let out = Buf::zeroed(4 * 64);
        let mut ka = Vec::new();
        ka.extend(input.addr().to_le_bytes());
        ka.extend(out.addr().to_le_bytes());
        ka.extend(scale.to_le_bytes());
        let args = Args::new(&ka, [64, 1, 1], [1, 1, 1]);
        let user = prg.user_data(args.packet(), args.kernarg());
        assert_eq!(user.len(), 15);
        assert_eq!(user[2..], [0; 13], "only the kernarg pointer is written");
        let ranges = prg.ranges(&args, &[&input, &out]);
        let mut d = mock_dispatch(&prg, &user, [1, 1, 1], [64, 1, 1], Some(&ranges));
        d.rsrc1 = rsrc1 | 1 << 20;
        // SAFETY: every range is live host memory of this test.
        unsafe { wavesim::dispatch_raw(&d) }.unwrap();
        out.u32s(64).into_iter().map(f32::from_bits).collect()
    };
    let flushed = run(rsrc1);
    let kept = run(rsrc1 | 3 << 16);
    for (i, x) in inputs.iter().enumerate() {
        let want_flushed = flush(flush(*x) * scale);
        let want_kept = x * scale;
        assert_eq!(
            flushed[i].to_bits(),
            want_flushed.to_bits(),
            "lane {i}, flushed, {x:e}"
        );
        assert_eq!(
            kept[i].to_bits(),
            want_kept.to_bits(),
            "lane {i}, kept, {x:e}"
        );
    }
    assert_ne!(flushed, kept, "the mode must matter for these inputs");
}

#[test]
fn an_access_outside_the_mapped_ranges_names_lane_and_address() {
    let prg = Program::load("dispatch_ptr.hsaco", "dispatch_dims");
    let (groups, local) = ([1, 1, 1], [32, 1, 1]);
    let out = Buf::zeroed(4 * 32);
    let args = Args::new(&out.addr().to_le_bytes(), local, groups);
    let user = prg.user_data(args.packet(), args.kernarg());
    // The output is mapped only for its first 10 work-items: lane 10 is the first outside.
    let ranges = [
        (prg.lib.addr(), prg.lib.size()),
        (args.buf.addr(), args.buf.size()),
        (out.addr(), 40),
    ];
    let d = mock_dispatch(&prg, &user, groups, local, Some(&ranges));
    // SAFETY: every range is live host memory of this test.
    let e = unsafe { raw::run(&d) }.unwrap_err();
    assert_eq!(e.outside_lane_addr(), Some((10, out.addr() + 40)), "{e}");
    let msg = e.to_string();
    assert!(
        msg.contains("lane 10") && msg.contains(&format!("{:#x}", out.addr() + 40)),
        "{msg}"
    );
    assert!(msg.contains("global_store_b32"), "{msg}");
    assert!(msg.contains("outside the host address ranges"), "{msg}");
    // The faulting store had no effect in any lane (wavesim checks every lane of a memory
    // instruction before performing it), so nothing was written, inside the ranges or out.
    assert_eq!(out.u32s(32), [0; 32]);

    // A scalar load of an unmapped kernarg segment (s_load of the output pointer).
    let ranges = [(prg.lib.addr(), prg.lib.size()), (args.packet(), 64)];
    let d = mock_dispatch(&prg, &user, groups, local, Some(&ranges));
    // SAFETY: every range is live host memory of this test.
    let e = unsafe { raw::run(&d) }.unwrap_err();
    assert_eq!(e.outside_lane_addr(), Some((0, args.kernarg())), "{e}");
}

#[test]
fn bytes_after_the_code_are_tolerated() {
    let prg = Program::load("dispatch_ptr.hsaco", "dispatch_dims");
    // The kernel's code, then the first dword of a VOP3 instruction (8 bytes) and 3 stray
    // bytes: the last instruction is truncated and the length is no multiple of 4.
    let end = prg
        .code()
        .chunks(4)
        .position(|c| c == [0x00, 0x00, 0xb0, 0xbf])
        .unwrap()
        * 4
        + 4;
    let mut code = prg.code()[..end].to_vec();
    code.extend([0x00, 0x00, 0x00, 0xd6, 0x11, 0x22, 0x33]);
    let out = Buf::zeroed(4 * 32);
    let args = Args::new(&out.addr().to_le_bytes(), [32, 1, 1], [1, 1, 1]);
    let user = prg.user_data(args.packet(), args.kernarg());
    let ranges = [(args.buf.addr(), args.buf.size()), (out.addr(), out.size())];
    let mut d = mock_dispatch(&prg, &user, [1, 1, 1], [32, 1, 1], Some(&ranges));
    d.code = &code;
    // SAFETY: every range is live host memory of this test.
    unsafe { wavesim::dispatch_raw(&d) }.unwrap();
    assert_eq!(out.u32s(32)[31], 32 * 65536 + 32 * 256 + 31);
}

/// RDNA3 ISA guide, "MODE" and "STATUS" registers: MODE.FP_ROUND [3:0] (f32 [1:0], f16/f64
/// [3:2]), FP_DENORM [7:4] (f32 [5:4], f16/f64 [7:6]), DX10_CLAMP [8], IEEE [9], EXCP_EN
/// [18:12], FP16_OVFL [23]; STATUS.SPI_PRIO [2:1], PRIV [5]. Work-group info SGPR: first wave
/// [31], waves in the group [5:0] (AMDGPUUsage, "Initial Kernel Execution State").
#[test]
fn registers_place_user_sgprs_system_sgprs_mode_and_status() {
    let code = Buf::zeroed(4096);
    let mut code = code;
    code.put(0, &data("state.bin"));
    let groups = [2u32, 3, 4];
    let out = Buf::zeroed(64 * 24);
    let user = [
        out.addr() as u32,
        (out.addr() >> 32) as u32,
        0xdead_0002,
        0xbeef_0003,
    ];
    let rsrc1 = 1 << 12 | 2 << 14 | 3 << 18 | 1 << 21 | 1 << 26 | 1 << 20 | 2 << 10;
    let rsrc2 = 4 << 1 | 1 << 7 | 1 << 8 | 1 << 9 | 1 << 10 | 1 << 26;
    let ranges = [(code.addr(), code.size()), (out.addr(), out.size())];
    let d = RawDispatch {
        code: &code.bytes()[..data("state.bin").len()],
        groups,
        local: [1, 1, 1],
        user_sgprs: &user,
        rsrc1,
        rsrc2,
        rsrc3: 0,
        wave64: false,
        scratch_lane_bytes: 0,
        target: raw::target_from("gfx1100").unwrap(),
        host_ranges: Some(&ranges),
        max_wave_insts: 1000,
    };
    // SAFETY: every range is live host memory of this test.
    unsafe { wavesim::dispatch_raw(&d) }.unwrap();
    let all = out.u32s(16 * 24);
    let mode = 1 | 2 << 2 | 3 << 6 | 1 << 8 | 1 << 14 | 1 << 23;
    for z in 0..4 {
        for y in 0..3 {
            for x in 0..2 {
                let r = &all[16 * (x + 2 * (y + 3 * z)) as usize..][..11];
                assert_eq!(r[..4], user, "user SGPRs");
                assert_eq!(r[4..7], [x, y, z], "workgroup ids after USER_SGPR_COUNT");
                assert_eq!(r[7], 1 << 31 | 1, "workgroup info: first wave, 1 wave");
                assert_eq!(r[8], mode, "MODE from RSRC1 and RSRC2.EXCP_EN");
                assert_eq!(r[9] >> 1 & 3, 2, "STATUS.SPI_PRIO = RSRC1.PRIORITY");
                assert_ne!(r[9] & 1 << 5, 0, "STATUS.PRIV = RSRC1.PRIV");
                assert_eq!(r[10], 0, "v0 = packed work-item id 0");
            }
        }
    }
    // Without PRIV and PRIORITY, STATUS has neither.
    let d = RawDispatch {
        rsrc1: rsrc1 & !(1 << 20 | 3 << 10),
        groups: [1, 1, 1],
        ..d
    };
    // SAFETY: as above.
    unsafe { wavesim::dispatch_raw(&d) }.unwrap();
    assert_eq!(out.u32s(10)[9] & (1 << 5 | 3 << 1), 0);
}

/// The fields of AMDGPUUsage's tables "compute_pgm_rsrc1 for GFX6-GFX12", "compute_pgm_rsrc2
/// for GFX6-GFX12" and "compute_pgm_rsrc3 for GFX10-GFX11" (register, bits, width), and what
/// `ComputeResources::decode` must read there. Setting only one field to all ones must show
/// that field at its maximum and nothing else.
#[test]
fn every_rsrc_field_decodes_from_its_amdgpuusage_bits() {
    type Get = fn(&ComputeResources) -> u32;
    let table: &[(u32, u32, u32, Field, Get)] = &[
        (1, 0, 6, rsrc1_fields::GRANULATED_WORKITEM_VGPR_COUNT, |r| {
            r.vgpr_granules
        }),
        (1, 6, 4, rsrc1_fields::SGPRS, |r| r.sgpr_granules),
        (1, 10, 2, rsrc1_fields::PRIORITY, |r| r.priority),
        (1, 12, 2, rsrc1_fields::FLOAT_ROUND_MODE_32, |r| {
            r.float_round_32
        }),
        (1, 14, 2, rsrc1_fields::FLOAT_ROUND_MODE_16_64, |r| {
            r.float_round_16_64
        }),
        (1, 16, 2, rsrc1_fields::FLOAT_DENORM_MODE_32, |r| {
            r.float_denorm_32
        }),
        (1, 18, 2, rsrc1_fields::FLOAT_DENORM_MODE_16_64, |r| {
            r.float_denorm_16_64
        }),
        (1, 20, 1, rsrc1_fields::PRIV, |r| r.privileged as u32),
        (1, 21, 1, rsrc1_fields::DX10_CLAMP, |r| r.dx10_clamp as u32),
        (1, 22, 1, rsrc1_fields::DEBUG_MODE, |r| r.debug_mode as u32),
        (1, 23, 1, rsrc1_fields::IEEE_MODE, |r| r.ieee_mode as u32),
        (1, 24, 1, rsrc1_fields::BULKY, |r| r.bulky as u32),
        (1, 25, 1, rsrc1_fields::CDBG_USER, |r| r.cdbg_user as u32),
        (1, 26, 1, rsrc1_fields::FP16_OVFL, |r| r.fp16_ovfl as u32),
        (1, 27, 2, rsrc1_fields::RESERVED_27_28, |r| r.rsrc1_reserved),
        (1, 29, 1, rsrc1_fields::WGP_MODE, |r| r.wgp_mode as u32),
        (1, 30, 1, rsrc1_fields::MEM_ORDERED, |r| {
            r.mem_ordered as u32
        }),
        (1, 31, 1, rsrc1_fields::FWD_PROGRESS, |r| {
            r.fwd_progress as u32
        }),
        (2, 0, 1, rsrc2_fields::SCRATCH_EN, |r| r.scratch_en as u32),
        (2, 1, 5, rsrc2_fields::USER_SGPR, |r| r.user_sgpr_count),
        (2, 6, 1, rsrc2_fields::TRAP_PRESENT, |r| {
            r.trap_present as u32
        }),
        (2, 7, 1, rsrc2_fields::TGID_X_EN, |r| {
            r.workgroup_id[0] as u32
        }),
        (2, 8, 1, rsrc2_fields::TGID_Y_EN, |r| {
            r.workgroup_id[1] as u32
        }),
        (2, 9, 1, rsrc2_fields::TGID_Z_EN, |r| {
            r.workgroup_id[2] as u32
        }),
        (2, 10, 1, rsrc2_fields::TG_SIZE_EN, |r| r.tg_size_en as u32),
        (2, 11, 2, rsrc2_fields::TIDIG_COMP_CNT, |r| {
            r.workitem_id_components
        }),
        (2, 13, 1, rsrc2_fields::EXCP_EN_ADDRESS_WATCH, |r| {
            r.excp_address_watch as u32
        }),
        (2, 14, 1, rsrc2_fields::EXCP_EN_MEMORY, |r| {
            r.excp_memory as u32
        }),
        (2, 15, 9, rsrc2_fields::LDS_SIZE, |r| r.lds_granules),
        (2, 24, 7, rsrc2_fields::EXCP_EN, |r| r.excp_en),
        (2, 31, 1, rsrc2_fields::RESERVED_31, |r| r.rsrc2_reserved),
        (3, 0, 4, rsrc3_fields::SHARED_VGPR_COUNT, |r| {
            r.shared_vgpr_count
        }),
        (3, 4, 6, rsrc3_fields::INST_PREF_SIZE, |r| r.inst_pref_size),
        (3, 10, 1, rsrc3_fields::TRAP_ON_START, |r| {
            r.trap_on_start as u32
        }),
        (3, 11, 1, rsrc3_fields::TRAP_ON_END, |r| {
            r.trap_on_end as u32
        }),
        (3, 12, 19, rsrc3_fields::RESERVED_12_30, |r| {
            r.rsrc3_reserved
        }),
        (3, 31, 1, rsrc3_fields::IMAGE_OP, |r| r.image_op as u32),
    ];
    // The fields of each register cover it exactly once.
    for reg in 1..=3 {
        let mut covered = 0u64;
        for &(r, shift, width, _, _) in table.iter().filter(|t| t.0 == reg) {
            let mask = ((1u64 << width) - 1) << shift;
            assert_eq!(covered & mask, 0, "RSRC{r} bits {shift}+{width} overlap");
            covered |= mask;
        }
        assert_eq!(covered, 0xffff_ffff, "RSRC{reg} fully described");
    }
    for &(reg, shift, width, field, get) in table {
        assert_eq!((field.shift, field.width), (shift, width), "{}", field.name);
        let ones = (((1u64 << width) - 1) << shift) as u32;
        let regs = [
            (reg == 1) as u32 * ones,
            (reg == 2) as u32 * ones,
            (reg == 3) as u32 * ones,
        ];
        let r = ComputeResources::decode(regs[0], regs[1], regs[2]);
        assert_eq!(
            get(&r),
            ((1u64 << width) - 1) as u32,
            "{} at {shift}",
            field.name
        );
        for &(_, _, _, other, get_other) in table {
            if other != field {
                assert_eq!(get_other(&r), 0, "{} set {} too", field.name, other.name);
            }
        }
    }
}

#[test]
fn fields_wavesim_cannot_honour_are_errors_naming_them() {
    let code = [0x00, 0x00, 0xb0, 0xbf]; // s_endpgm
    let cases: &[(u32, u32, u32, &str)] = &[
        (1 << 22, 0, 0, "RSRC1.DEBUG_MODE"),
        (1 << 25, 0, 0, "RSRC1.CDBG_USER"),
        (1 << 27, 0, 0, "RSRC1[28:27] (reserved)"),
        (0, 1 << 6, 0, "RSRC2.TRAP_PRESENT"),
        (0, 1 << 13, 0, "ENABLE_EXCEPTION_ADDRESS_WATCH"),
        (0, 1 << 14, 0, "ENABLE_EXCEPTION_MEMORY"),
        (0, 1 << 31, 0, "RSRC2[31] (reserved)"),
        (0, 17 << 1, 0, "RSRC2.USER_SGPR_COUNT = 17"),
        (0, 0, 1, "RSRC3.SHARED_VGPR_COUNT"),
        (0, 0, 1 << 10, "RSRC3.TRAP_ON_START"),
        (0, 0, 1 << 11, "RSRC3.TRAP_ON_END"),
        (0, 0, 1 << 20, "RSRC3[30:12] (reserved)"),
    ];
    for &(rsrc1, rsrc2, rsrc3, name) in cases {
        let d = RawDispatch {
            code: &code,
            groups: [1; 3],
            local: [1; 3],
            user_sgprs: &[],
            rsrc1,
            rsrc2,
            rsrc3,
            wave64: false,
            scratch_lane_bytes: 0,
            target: Default::default(),
            host_ranges: Some(&[]),
            max_wave_insts: 10,
        };
        // SAFETY: no memory is mapped, none can be touched.
        let e = unsafe { raw::run(&d) }.unwrap_err();
        assert!(
            matches!(e, RawError::Unsupported { .. } | RawError::Reserved { .. }),
            "{name}: {e:?}"
        );
        assert!(e.to_string().contains(name), "{name}: {e}");
    }
    // Fields the hardware ignores or wavesim honours by construction are accepted: SGPRS,
    // BULKY, MEM_ORDERED, FWD_PROGRESS, WGP_MODE, INST_PREF_SIZE, IMAGE_OP.
    let d = RawDispatch {
        code: &code,
        groups: [1; 3],
        local: [1; 3],
        user_sgprs: &[],
        rsrc1: 0xf << 6 | 1 << 24 | 1 << 29 | 1 << 30 | 1 << 31,
        rsrc2: 0,
        rsrc3: 0x3f << 4 | 1 << 31,
        wave64: true,
        scratch_lane_bytes: 0,
        target: Default::default(),
        host_ranges: Some(&[]),
        max_wave_insts: 10,
    };
    // SAFETY: no memory is mapped, none can be touched.
    unsafe { raw::run(&d) }.unwrap();
    // Too few user SGPR values for USER_SGPR_COUNT.
    let d = RawDispatch {
        rsrc2: 4 << 1,
        user_sgprs: &[1, 2, 3],
        ..d
    };
    // SAFETY: as above.
    let e = unsafe { raw::run(&d) }.unwrap_err();
    assert!(
        matches!(e, RawError::UserSgprs { count: 4, given: 3 }),
        "{e:?}"
    );
}

#[test]
fn targets_by_name_and_number() {
    use wavesim::raw::target_from;
    use wavesim::raw::Target;
    for (s, t) in [
        ("gfx1100", Target::Gfx1100),
        ("gfx1101", Target::Gfx1100),
        ("gfx1102", Target::Gfx1100),
        ("GFX1103", Target::Gfx1100),
        ("gfx1150", Target::Gfx1150),
        ("gfx1151", Target::Gfx1150),
        ("1100", Target::Gfx1100),
        ("1151", Target::Gfx1150),
        ("110000", Target::Gfx1100),
        ("110003", Target::Gfx1100),
        ("110500", Target::Gfx1150),
        ("110501", Target::Gfx1150),
    ] {
        assert_eq!(target_from(s).unwrap(), t, "{s}");
    }
    for s in ["gfx1200", "120000", "90500", "gfx90a", ""] {
        assert!(matches!(target_from(s), Err(RawError::Target(_))), "{s}");
    }
}

#[test]
fn c_abi_runs_a_mock_dispatch_and_reports_errors_by_code() {
    use std::ffi::CStr;
    use wavesim::capi::{
        wavesim_dispatch_raw, wavesim_last_error, WavesimHostRange, WavesimRawDispatch,
        WAVESIM_ERR_INVALID, WAVESIM_ERR_MEMORY, WAVESIM_OK,
    };
    let prg = Program::load("ballot_w64.hsaco", "ballot_w64");
    let out = Buf::zeroed(4 * 128);
    let args = Args::new(&out.addr().to_le_bytes(), [128, 1, 1], [1, 1, 1]);
    let user = prg.user_data(args.packet(), args.kernarg());
    let ranges = [
        WavesimHostRange {
            start: prg.lib.addr(),
            size: prg.lib.size(),
        },
        WavesimHostRange {
            start: args.buf.addr(),
            size: args.buf.size(),
        },
        WavesimHostRange {
            start: out.addr(),
            size: out.size(),
        },
    ];
    let (rsrc1, rsrc2, rsrc3) = prg.rsrc();
    let target = c"gfx1100";
    let mut d = WavesimRawDispatch {
        code: prg.code().as_ptr().cast(),
        code_size: prg.code().len() as u64,
        user_data: user.as_ptr(),
        user_data_count: user.len() as u32,
        rsrc1,
        rsrc2,
        rsrc3,
        groups: [1, 1, 1],
        local: [128, 1, 1],
        wave_size: 64,
        scratch_size: 0,
        target: target.as_ptr(),
        ranges: ranges.as_ptr(),
        range_count: 3,
        max_wave_instructions: 0,
    };
    let last = || {
        unsafe { CStr::from_ptr(wavesim_last_error()) }
            .to_string_lossy()
            .into_owned()
    };
    // SAFETY: every pointer in `d` is live for the call.
    assert_eq!(
        unsafe { wavesim_dispatch_raw(&d) },
        WAVESIM_OK,
        "{}",
        last()
    );
    assert_eq!(out.u32s(128)[127], 32 + 1000 * 63);

    // The output is no longer mapped. Byte-exact ranges: in whole pages (the default) the heap
    // page the kernarg buffer shares with the output would map it.
    d.range_count = 2;
    wavesim::capi::wavesim_set_raw_exact_ranges(1);
    // SAFETY: as above.
    let rc = unsafe { wavesim_dispatch_raw(&d) };
    wavesim::capi::wavesim_set_raw_exact_ranges(0);
    assert_eq!(rc, WAVESIM_ERR_MEMORY);
    assert!(
        last().contains(&format!("address {:#x}", out.addr())),
        "{}",
        last()
    );

    d.range_count = 3;
    d.wave_size = 48;
    // SAFETY: as above.
    assert_eq!(unsafe { wavesim_dispatch_raw(&d) }, WAVESIM_ERR_INVALID);
    assert!(last().contains("wave size 48"), "{}", last());

    d.wave_size = 64;
    d.rsrc1 |= 1 << 22;
    // SAFETY: as above.
    assert_eq!(unsafe { wavesim_dispatch_raw(&d) }, WAVESIM_ERR_INVALID);
    assert!(last().contains("DEBUG_MODE"), "{}", last());
    // SAFETY: NULL is refused.
    assert_eq!(
        unsafe { wavesim_dispatch_raw(std::ptr::null()) },
        WAVESIM_ERR_INVALID
    );
}

#[test]
fn without_ranges_addresses_are_host_addresses() {
    // No ranges: host-pointer mode, as run_asm (the kernel touches only this test's buffers).
    let prg = Program::load("dispatch_ptr.hsaco", "dispatch_dims");
    let out = Buf::zeroed(4 * 32);
    let args = Args::new(&out.addr().to_le_bytes(), [32, 1, 1], [1, 1, 1]);
    let user = prg.user_data(args.packet(), args.kernarg());
    let d = mock_dispatch(&prg, &user, [1, 1, 1], [32, 1, 1], None);
    // SAFETY: the kernel touches only the live buffers of this test.
    unsafe { raw::run(&d) }.unwrap();
    assert_eq!(out.u32s(32)[5], 32 * 65536 + 32 * 256 + 5);
}

#[test]
fn a_scratch_overrun_is_not_blamed_on_the_host_ranges() {
    // llvm-mc-19 -mcpu=gfx1100: scratch_load_b32 v1, off, off offset:64; s_waitcnt vmcnt(0);
    // s_endpgm. With SCRATCH_EN and 4 private bytes per work-item, offset 64 is beyond the
    // lane's private segment: a fault in the private aperture, not outside the host ranges.
    let code = [
        0x40, 0x00, 0x51, 0xdc, 0x00, 0x00, 0x7c, 0x01, 0xf7, 0x03, 0x89, 0xbf, 0x00, 0x00, 0xb0,
        0xbf,
    ];
    let d = RawDispatch {
        code: &code,
        groups: [1; 3],
        local: [32, 1, 1],
        user_sgprs: &[],
        rsrc1: 0,
        rsrc2: 1, // SCRATCH_EN
        rsrc3: 0,
        wave64: false,
        scratch_lane_bytes: 4,
        target: Default::default(),
        host_ranges: Some(&[]),
        max_wave_insts: 10,
    };
    // SAFETY: no memory is mapped; scratch is wavesim's own.
    let e = unsafe { raw::run(&d) }.unwrap_err();
    assert!(matches!(e, RawError::Dispatch(_)), "{e:?}");
    assert!(e.to_string().contains("scratch_load_b32"), "{e}");
    // In bounds it runs (the scratch range is added to the caller's ranges).
    let ok = [
        0x00, 0x00, 0x51, 0xdc, 0x00, 0x00, 0x7c, 0x01, 0xf7, 0x03, 0x89, 0xbf, 0x00, 0x00, 0xb0,
        0xbf,
    ];
    let d = RawDispatch { code: &ok, ..d };
    // SAFETY: as above.
    unsafe { raw::run(&d) }.unwrap();
}

/// Raw dispatches run workgroups on every core by default and in order on one thread when
/// `wavesim_set_default_threads(1)` (or WAVESIM_THREADS=1) asks. Each one-lane workgroup takes a
/// ticket from a global counter and stores it at its workgroup id (llvm-mc-19, gfx1100):
///   v_mov_b32 v1, 1; v_mov_b32 v0, 0
///   global_atomic_add_u32 v2, v0, v1, s[2:3] glc     ; ticket = counter++
///   s_waitcnt vmcnt(0); s_lshl_b32 s5, s4, 2; v_mov_b32 v3, s5
///   global_store_b32 v3, v2, s[0:1]                  ; out[workgroup id X (s4)] = ticket
///   s_endpgm
/// In order the tickets are the workgroup ids; on several threads they are some permutation of
/// them (every ticket taken once), whatever the interleaving.
/// Held by the tests that change the process-wide default thread count.
static DEFAULT_THREADS: std::sync::Mutex<()> = std::sync::Mutex::new(());

#[test]
fn raw_dispatches_run_on_every_core_unless_one_ordered_thread_is_asked_for() {
    let _one_at_a_time = DEFAULT_THREADS.lock().unwrap_or_else(|e| e.into_inner());
    let words: [u32; 10] = [
        0x7e02_0281,
        0x7e00_0280,
        0xdcd6_4000,
        0x0202_0100,
        0xbf89_03f7,
        0x8405_8204,
        0x7e06_0205,
        0xdc6a_0000,
        0x0000_0203,
        0xbfb0_0000,
    ];
    let code: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let n = 512usize;
    let run = |threads: u32| -> Vec<u32> {
        let out = Buf::zeroed(4 * n);
        let counter = Buf::zeroed(4);
        let user = [
            out.addr() as u32,
            (out.addr() >> 32) as u32,
            counter.addr() as u32,
            (counter.addr() >> 32) as u32,
        ];
        let ranges = [(out.addr(), out.size()), (counter.addr(), counter.size())];
        let d = RawDispatch {
            code: &code,
            groups: [n as u32, 1, 1],
            local: [1, 1, 1],
            user_sgprs: &user,
            rsrc1: 0,
            // USER_SGPR_COUNT = 4, workgroup id X enabled (s4).
            rsrc2: 4 << 1 | 1 << 7,
            rsrc3: 0,
            wave64: false,
            scratch_lane_bytes: 0,
            target: raw::target_from("gfx1100").unwrap(),
            host_ranges: Some(&ranges),
            max_wave_insts: 1000,
        };
        assert_eq!(wavesim::capi::wavesim_set_default_threads(threads), 0);
        // SAFETY: every range is live host memory of this test.
        let r = unsafe { wavesim::dispatch_raw(&d) };
        assert_eq!(wavesim::capi::wavesim_set_default_threads(0), 0);
        r.unwrap();
        out.u32s(n)
    };
    let ordered: Vec<u32> = (0..n as u32).collect();
    assert_eq!(run(1), ordered, "one thread: workgroups in order");
    for threads in [0, 2, 4] {
        let mut tickets = run(threads);
        tickets.sort_unstable();
        assert_eq!(tickets, ordered, "{threads} threads: every ticket once");
    }
}

/// Workgroups of a raw dispatch really run at the same time on several threads: workgroup 0
/// spins until workgroup 1 has stored a flag, which finishes only if workgroup 1 runs while
/// workgroup 0 spins (on one ordered thread workgroup 0 spins until the watchdog stops it).
/// llvm-mc-19, gfx1100 (s4: workgroup id X; s[0:1]: the flag's address):
///   s_cmp_eq_u32 s4, 0; s_cbranch_scc0 .Lsetter; v_mov_b32 v0, 0
///   .Lspin: global_load_b32 v1, v0, s[0:1] glc; s_waitcnt vmcnt(0)
///           v_cmp_eq_u32 vcc_lo, 0, v1; s_cbranch_vccnz .Lspin; s_endpgm
///   .Lsetter: v_mov_b32 v0, 0; v_mov_b32 v1, 1; global_store_b32 v0, v1, s[0:1]; s_endpgm
/// (branch targets: PC_next + simm16 * 4, so +7 dwords to .Lsetter, -5 back to .Lspin.)
const SPIN_UNTIL_FLAGGED: [u32; 14] = [
    0xbf06_8004,
    0xbfa1_0007,
    0x7e00_0280,
    0xdc52_4000,
    0x0100_0000,
    0xbf89_03f7,
    0x7c94_0280,
    0xbfa4_fffb,
    0xbfb0_0000,
    0x7e00_0280,
    0x7e02_0281,
    0xdc6a_0000,
    0x0000_0100,
    0xbfb0_0000,
];

#[test]
fn workgroups_of_raw_dispatches_and_run_asm_run_concurrently_on_several_threads() {
    let _one_at_a_time = DEFAULT_THREADS.lock().unwrap_or_else(|e| e.into_inner());
    let code: Vec<u8> = SPIN_UNTIL_FLAGGED
        .iter()
        .flat_map(|w| w.to_le_bytes())
        .collect();
    let dispatch = |threads: u32, max_wave_insts: u64| {
        let flag = Buf::zeroed(4);
        let user = [flag.addr() as u32, (flag.addr() >> 32) as u32, 0, 0];
        let ranges = [(flag.addr(), flag.size())];
        let d = RawDispatch {
            code: &code,
            groups: [2, 1, 1],
            local: [1, 1, 1],
            user_sgprs: &user,
            rsrc1: 0,
            // USER_SGPR_COUNT = 4, workgroup id X enabled (s4).
            rsrc2: 4 << 1 | 1 << 7,
            rsrc3: 0,
            wave64: false,
            scratch_lane_bytes: 0,
            target: raw::target_from("gfx1100").unwrap(),
            host_ranges: Some(&ranges),
            max_wave_insts,
        };
        assert_eq!(wavesim::capi::wavesim_set_default_threads(threads), 0);
        // SAFETY: the kernel touches only the flag, live host memory of this test.
        let r = unsafe { wavesim::dispatch_raw(&d) };
        assert_eq!(wavesim::capi::wavesim_set_default_threads(0), 0);
        (r.map(|_| ()), flag.u32s(1)[0])
    };
    // Two threads: workgroup 1 sets the flag while workgroup 0 waits for it (the limit only
    // bounds a hang).
    let (r, flag) = dispatch(2, 500_000_000);
    assert!(r.is_ok(), "two threads: {r:?}");
    assert_eq!(flag, 1);
    // One ordered thread: workgroup 0 first, spinning until its instruction limit.
    let (r, _) = dispatch(1, 100_000);
    assert!(
        r.is_err(),
        "one thread cannot finish: workgroup 1 runs after workgroup 0"
    );
    // run_asm: s[0:1] = its kernarg pointer, here the flag; on two threads it finishes too.
    let flag = Buf::zeroed(4);
    assert_eq!(wavesim::capi::wavesim_set_default_threads(2), 0);
    // SAFETY: `code` holds the bytes; the kernel touches only the flag.
    let r = unsafe {
        wavesim::capi::run_asm(
            code.as_ptr().cast(),
            code.len() as u32,
            2,
            1,
            1,
            1,
            1,
            1,
            flag.addr() as *const std::ffi::c_void,
            4 << 1 | 1 << 7,
            0,
        )
    };
    assert_eq!(wavesim::capi::wavesim_set_default_threads(0), 0);
    assert_eq!(r, 0, "run_asm on two threads");
    assert_eq!(flag.u32s(1)[0], 1);
}
