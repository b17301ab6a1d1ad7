//! The PM4 executor on hand-written command streams: every expected value follows from the
//! packet's fields as the comments derive them, and every refusal names the packet, register
//! or field and its address.

use wavesim_drm_amdgpu::memory::MemoryError;
use wavesim_drm_amdgpu::pm4::{self, GpuMemory, Pm4Error, Queue, QueueState};

/// Device memory for the tests: one host buffer whose host addresses are its device
/// addresses (as the shim's VA mappings are).
struct TestMem {
    words: Vec<u64>,
}

impl TestMem {
    fn new(bytes: usize) -> TestMem {
        TestMem {
            words: vec![0; bytes / 8],
        }
    }
    fn base(&self) -> u64 {
        self.words.as_ptr() as u64
    }
    fn len(&self) -> u64 {
        self.words.len() as u64 * 8
    }
    fn check(&self, va: u64, n: u64) -> Result<(), MemoryError> {
        if va < self.base() || va + n > self.base() + self.len() {
            return Err(MemoryError::Fault { va, len: n });
        }
        Ok(())
    }
    fn put(&mut self, off: u64, data: &[u32]) {
        let bytes: Vec<u8> = data.iter().flat_map(|d| d.to_le_bytes()).collect();
        self.write(self.base() + off, &bytes).unwrap();
    }
    fn get(&self, off: u64) -> u32 {
        let mut b = [0u8; 4];
        self.read(self.base() + off, &mut b).unwrap();
        u32::from_le_bytes(b)
    }
}

impl GpuMemory for TestMem {
    fn read(&self, va: u64, out: &mut [u8]) -> Result<(), MemoryError> {
        self.check(va, out.len() as u64)?;
        // SAFETY: inside the buffer.
        unsafe { std::ptr::copy(va as *const u8, out.as_mut_ptr(), out.len()) };
        Ok(())
    }
    fn write(&self, va: u64, data: &[u8]) -> Result<(), MemoryError> {
        self.check(va, data.len() as u64)?;
        // SAFETY: inside the buffer, which the test owns (written through its address as
        // device memory is).
        unsafe { std::ptr::copy(data.as_ptr(), va as *mut u8, data.len()) };
        Ok(())
    }
    fn ranges(&self) -> Vec<(u64, u64)> {
        vec![(self.base(), self.len())]
    }
    fn host_slice(&self, va: u64) -> Result<&[u8], MemoryError> {
        self.check(va, 4)?;
        // SAFETY: inside the buffer.
        Ok(unsafe {
            std::slice::from_raw_parts(va as *const u8, (self.base() + self.len() - va) as usize)
        })
    }
}

/// A type-3 packet: header (type 3, body dwords - 1, opcode) and body.
fn pkt3(op: u32, body: &[u32]) -> Vec<u32> {
    let mut v = vec![3 << 30 | (body.len() as u32 - 1) << 16 | op << 8];
    v.extend_from_slice(body);
    v
}

const IB: u64 = 0x1000;

/// Writes the IB at offset IB and runs it on a compute queue.
fn run(mem: &mut TestMem, ib: &[u32]) -> Result<(), Pm4Error> {
    mem.put(IB, ib);
    let mut st = QueueState::new(Queue::Compute);
    pm4::execute(mem, &mut st, mem.base() + IB, ib.len() as u32 * 4)
}

fn lo(a: u64) -> u32 {
    a as u32
}
fn hi(a: u64) -> u32 {
    (a >> 32) as u32
}

#[test]
fn write_copy_and_dma_data() {
    let mut m = TestMem::new(0x4000);
    let b = m.base();
    let mut ib = Vec::new();
    // WRITE_DATA, DST_SEL 5 (memory): three dwords at +0x100.
    ib.extend(pkt3(
        pm4::op::WRITE_DATA,
        &[5 << 8, lo(b + 0x100), hi(b + 0x100), 7, 8, 9],
    ));
    // COPY_DATA: SRC_SEL 5 (immediate 0x1234), DST_SEL 5, 32-bit -> +0x200.
    ib.extend(pkt3(
        pm4::op::COPY_DATA,
        &[5 | 5 << 8, 0x1234, 0, lo(b + 0x200), hi(b + 0x200)],
    ));
    // COPY_DATA: SRC_SEL 1 (memory +0x100), DST_SEL 5, COUNT_SEL 64-bit -> +0x300: 7, 8.
    ib.extend(pkt3(
        pm4::op::COPY_DATA,
        &[
            1 | 5 << 8 | 1 << 16,
            lo(b + 0x100),
            hi(b + 0x100),
            lo(b + 0x300),
            hi(b + 0x300),
        ],
    ));
    // DMA_DATA: SRC_SEL 2 (data 0xabcd0123), DST_SEL 0, 12 bytes -> +0x400.
    ib.extend(pkt3(
        pm4::op::DMA_DATA,
        &[2 << 29, 0xabcd_0123, 0, lo(b + 0x400), hi(b + 0x400), 12],
    ));
    // DMA_DATA: SRC_SEL 3 (TC_L2 address +0x100), DST_SEL 3, 8 bytes -> +0x500: 7, 8.
    ib.extend(pkt3(
        pm4::op::DMA_DATA,
        &[
            3 << 29 | 3 << 20,
            lo(b + 0x100),
            hi(b + 0x100),
            lo(b + 0x500),
            hi(b + 0x500),
            8,
        ],
    ));
    // DMA_DATA with DST_SEL 2 (nowhere: a prefetch) changes nothing.
    ib.extend(pkt3(
        pm4::op::DMA_DATA,
        &[
            3 << 29 | 2 << 20,
            lo(b + 0x100),
            hi(b + 0x100),
            lo(b + 0x600),
            hi(b + 0x600),
            8,
        ],
    ));
    run(&mut m, &ib).unwrap();
    assert_eq!([m.get(0x100), m.get(0x104), m.get(0x108)], [7, 8, 9]);
    assert_eq!(m.get(0x200), 0x1234);
    assert_eq!([m.get(0x300), m.get(0x304)], [7, 8]);
    assert_eq!(
        [m.get(0x400), m.get(0x404), m.get(0x408), m.get(0x40c)],
        [0xabcd_0123; 3]
            .iter()
            .copied()
            .chain([0])
            .collect::<Vec<_>>()[..]
    );
    assert_eq!([m.get(0x500), m.get(0x504)], [7, 8]);
    assert_eq!(m.get(0x600), 0);
}

#[test]
fn indirect_buffers_call_and_chain() {
    let mut m = TestMem::new(0x4000);
    let b = m.base();
    // A called IB at +0x2000 writes 1 at +0x100; a chained IB at +0x2100 writes 3 at +0x108.
    let called = pkt3(
        pm4::op::WRITE_DATA,
        &[5 << 8, lo(b + 0x100), hi(b + 0x100), 1],
    );
    m.put(0x2000, &called);
    let chained = pkt3(
        pm4::op::WRITE_DATA,
        &[5 << 8, lo(b + 0x108), hi(b + 0x108), 3],
    );
    m.put(0x2100, &chained);
    let mut ib = Vec::new();
    // INDIRECT_BUFFER [2]: size in dwords, VALID [23], CHAIN [20].
    ib.extend(pkt3(
        pm4::op::INDIRECT_BUFFER,
        &[
            lo(b + 0x2000),
            hi(b + 0x2000),
            called.len() as u32 | 1 << 23,
        ],
    ));
    // After the call returns: 2 at +0x104.
    ib.extend(pkt3(
        pm4::op::WRITE_DATA,
        &[5 << 8, lo(b + 0x104), hi(b + 0x104), 2],
    ));
    ib.extend(pkt3(
        pm4::op::INDIRECT_BUFFER,
        &[
            lo(b + 0x2100),
            hi(b + 0x2100),
            chained.len() as u32 | 1 << 23 | 1 << 20,
        ],
    ));
    // Never executed: the chain left this IB.
    ib.extend(pkt3(
        pm4::op::WRITE_DATA,
        &[5 << 8, lo(b + 0x10c), hi(b + 0x10c), 4],
    ));
    run(&mut m, &ib).unwrap();
    assert_eq!(
        [m.get(0x100), m.get(0x104), m.get(0x108), m.get(0x10c)],
        [1, 2, 3, 0]
    );
}

#[test]
fn release_mem_writes_the_fence_and_waits_see_it() {
    let mut m = TestMem::new(0x4000);
    let b = m.base();
    let mut ib = Vec::new();
    // RELEASE_MEM: event 0x28 (BOTTOM_OF_PIPE_TS), DATA_SEL 1 (32 bits) of 0x55 -> +0x100.
    ib.extend(pkt3(
        pm4::op::RELEASE_MEM,
        &[
            0x28 | 5 << 8,
            1 << 29,
            lo(b + 0x100),
            hi(b + 0x100),
            0x55,
            0,
            0,
        ],
    ));
    // DATA_SEL 2 (64 bits) of 0x1_0000_0002 -> +0x108.
    ib.extend(pkt3(
        pm4::op::RELEASE_MEM,
        &[
            0x28 | 5 << 8,
            2 << 29,
            lo(b + 0x108),
            hi(b + 0x108),
            2,
            1,
            0,
        ],
    ));
    // WAIT_REG_MEM: memory (MEM_SPACE [4]), function 3 (==) 0x55 under mask 0xff: holds.
    ib.extend(pkt3(
        pm4::op::WAIT_REG_MEM,
        &[3 | 1 << 4, lo(b + 0x100), hi(b + 0x100), 0x55, 0xff, 4],
    ));
    run(&mut m, &ib).unwrap();
    assert_eq!([m.get(0x100), m.get(0x108), m.get(0x10c)], [0x55, 2, 1]);
    // A wait that cannot hold (nothing else runs) is an error, not a hang.
    let w = pkt3(
        pm4::op::WAIT_REG_MEM,
        &[3 | 1 << 4, lo(b + 0x100), hi(b + 0x100), 0x56, 0xff, 4],
    );
    let e = run(&mut m, &w).unwrap_err().to_string();
    assert!(
        e.contains("WAIT_REG_MEM") && e.contains("never satisfies"),
        "{e}"
    );
}

#[test]
fn dispatch_direct_and_indirect_run_waves() {
    let mut m = TestMem::new(0x8000);
    let b = m.base();
    // llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding of
    //   v_lshlrev_b32 v0, 2, v0 ; v_add_nc_u32 v1, s2, s3
    //   global_store_b32 v0, v1, s[0:1] ; s_endpgm
    // Each lane stores s2 (USER_DATA_2) + s3 (the workgroup id, after the 3 user SGPRs) at
    // s[0:1] + 4 * its local id (v0 = the packed id; X only here).
    let code: [u32; 7] = [
        0x3000_0082,
        0xd525_0001,
        0x0000_0602,
        0xdc6a_0000,
        0x0000_0100,
        0xbfb0_0000,
        0,
    ];
    let code_va = (b + 0x2000 + 255) & !255;
    m.put(code_va - b, &code);
    let out = b + 0x4000;
    let sh = |reg: u32, vals: &[u32]| {
        let mut body = vec![(reg - 0xb000) / 4];
        body.extend_from_slice(vals);
        pkt3(pm4::op::SET_SH_REG, &body)
    };
    let mut ib = Vec::new();
    ib.extend(sh(0xb830, &[(code_va >> 8) as u32, (code_va >> 40) as u32]));
    // RSRC1 0; RSRC2: USER_SGPR_COUNT 3 ([5:1]) | TGID_X_EN ([7]) = 0x86; RSRC3 0.
    ib.extend(sh(0xb848, &[0, 0x86]));
    ib.extend(sh(0xb8a0, &[0]));
    ib.extend(sh(0xb81c, &[64, 1, 1]));
    ib.extend(sh(0xb900, &[lo(out), hi(out), 1000]));
    // DISPATCH_DIRECT 1x1x1, initiator COMPUTE_SHADER_EN | FORCE_START_AT_000 | CS_W32_EN.
    ib.extend(pkt3(
        pm4::op::DISPATCH_DIRECT,
        &[1, 1, 1, 1 | 1 << 2 | 1 << 15],
    ));
    run(&mut m, &ib).unwrap();
    for t in 0..64 {
        assert_eq!(m.get(0x4000 + 4 * t), 1000, "lane {t}");
    }
    // DISPATCH_INDIRECT (compute ring form): dimensions 1,1,1 read from +0x3000; wave64;
    // USER_DATA_2 = 7 now.
    m.put(0x3000, &[1, 1, 1]);
    let mut ib = ib[..ib.len() - 5].to_vec();
    ib.extend(sh(0xb908, &[7]));
    ib.extend(pkt3(
        pm4::op::DISPATCH_INDIRECT,
        &[lo(b + 0x3000), hi(b + 0x3000), 1 | 1 << 2],
    ));
    run(&mut m, &ib).unwrap();
    for t in 0..64 {
        assert_eq!(m.get(0x4000 + 4 * t), 7, "lane {t}");
    }
}

/// PARTIAL_TG_EN as RADV emits it for a grid of 100 work-items in groups of 64
/// (radv_emit_dispatch_packets: NUM_THREAD_FULL 64, NUM_THREAD_PARTIAL 100 % 64 = 36,
/// DISPATCH_DIRECT ceil(100 / 64) = 2 groups).
#[test]
fn partial_thread_groups_run_only_their_work_items() {
    let mut m = TestMem::new(0x8000);
    let b = m.base();
    // llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding of
    //   v_lshl_add_u32 v1, s3, 6, v0 ; v_lshlrev_b32 v2, 2, v1
    //   global_store_b32 v2, v1, s[0:1] ; s_endpgm
    // Each work-item stores its global id (s3 = workgroup id after 3 user SGPRs, times 64,
    // plus v0 = its local id) at s[0:1] + 4 * that id.
    let code: [u32; 7] = [
        0xd646_0001,
        0x0401_0c03,
        0x3004_0282,
        0xdc6a_0000,
        0x0000_0102,
        0xbfb0_0000,
        0,
    ];
    let code_va = (b + 0x2000 + 255) & !255;
    m.put(code_va - b, &code);
    let out = b + 0x4000;
    const UNTOUCHED: u32 = 0xdead_beef;
    let sh = |reg: u32, vals: &[u32]| {
        let mut body = vec![(reg - 0xb000) / 4];
        body.extend_from_slice(vals);
        pkt3(pm4::op::SET_SH_REG, &body)
    };
    let setup = |num_thread_x: u32| {
        let mut ib = Vec::new();
        ib.extend(sh(0xb830, &[(code_va >> 8) as u32, (code_va >> 40) as u32]));
        // RSRC1 0; RSRC2: USER_SGPR_COUNT 3 ([5:1]) | TGID_X_EN ([7]) = 0x86; RSRC3 0.
        ib.extend(sh(0xb848, &[0, 0x86]));
        ib.extend(sh(0xb8a0, &[0]));
        ib.extend(sh(0xb81c, &[num_thread_x, 1, 1]));
        ib.extend(sh(0xb900, &[lo(out), hi(out), 0]));
        ib
    };
    for wave64 in [false, true] {
        m.put(0x4000, &[UNTOUCHED; 160]);
        let mut ib = setup(64 | 36 << 16);
        // COMPUTE_SHADER_EN | PARTIAL_TG_EN | FORCE_START_AT_000 (| CS_W32_EN).
        let initiator = 1 | 1 << 1 | 1 << 2 | u32::from(!wave64) << 15;
        ib.extend(pkt3(pm4::op::DISPATCH_DIRECT, &[2, 1, 1, initiator]));
        run(&mut m, &ib).unwrap();
        // Group 0 holds items 0..63, group 1 the 36 items 64..99 (wave32: a full wave and
        // one whose EXEC has 4 lanes; wave64: one wave with 36). Items 100..127 of the
        // rounded-up grid do not exist and store nothing.
        for i in 0..160u32 {
            let want = if i < 100 { i } else { UNTOUCHED };
            assert_eq!(
                m.get(0x4000 + 4 * i as u64),
                want,
                "item {i}, wave64 {wave64}"
            );
        }
    }
    // PARTIAL_TG_EN with NUM_THREAD_PARTIAL 0: no partial group in that dimension (RADV
    // itself writes the full size there for aligned dimensions), so full groups run.
    m.put(0x4000, &[UNTOUCHED; 160]);
    let mut ib = setup(64);
    ib.extend(pkt3(
        pm4::op::DISPATCH_DIRECT,
        &[2, 1, 1, 1 | 1 << 1 | 1 << 2],
    ));
    run(&mut m, &ib).unwrap();
    for i in 0..160u32 {
        let want = if i < 128 { i } else { UNTOUCHED };
        assert_eq!(m.get(0x4000 + 4 * i as u64), want, "item {i}");
    }
    // A partial count without PARTIAL_TG_EN, or larger than the full group, is refused.
    for (num_thread_x, initiator) in [(64 | 36 << 16, 5), (64 | 65 << 16, 7)] {
        let mut ib = setup(num_thread_x);
        ib.extend(pkt3(pm4::op::DISPATCH_DIRECT, &[2, 1, 1, initiator]));
        let e = run(&mut m, &ib).unwrap_err().to_string();
        assert!(e.contains("NUM_THREAD_PARTIAL"), "{e}");
    }
}

#[test]
fn unknown_packets_registers_and_fields_are_named_errors() {
    let mut m = TestMem::new(0x4000);
    let b = m.base();
    let at = b + IB;
    // Opcode 0x99 is no packet the executor knows.
    match run(&mut m, &pkt3(0x99, &[0])) {
        Err(Pm4Error::UnknownPacket { at: a }) => assert_eq!((a.va, a.opcode), (at, 0x99)),
        other => panic!("{other:?}"),
    }
    // 0xb940 follows COMPUTE_USER_DATA_15: no such register.
    let e = run(
        &mut m,
        &pkt3(pm4::op::SET_SH_REG, &[(0xb940 - 0xb000) / 4, 1]),
    )
    .unwrap_err();
    assert!(
        matches!(e, Pm4Error::UnknownRegister { addr: 0xb940, .. }),
        "{e}"
    );
    assert!(e.to_string().contains("0x0b940"), "{e}");
    // SET_SH_REG's 16-bit offset reaches context space: 0xb000 + 4 * 0x7400 = 0x28000
    // (DB_RENDER_CONTROL, a context register) is no SH register, so it is named, not stored.
    let e = run(&mut m, &pkt3(pm4::op::SET_SH_REG, &[0x7400, 1])).unwrap_err();
    assert!(
        matches!(e, Pm4Error::UnknownRegister { addr: 0x28000, .. }),
        "{e}"
    );
    // A context register gfx11 does not have (0x28700 lies between SPI_GFX_SCRATCH_BASE_HI and
    // SPI_SHADER_IDX_FORMAT in Mesa's gfx11 register table) is named.
    let e = run(&mut m, &pkt3(pm4::op::SET_CONTEXT_REG, &[0x1c0, 0])).unwrap_err();
    assert!(
        matches!(e, Pm4Error::UnknownRegister { addr: 0x28700, .. }),
        "{e}"
    );
    // A packet longer than the IB.
    let mut ib = pkt3(pm4::op::WRITE_DATA, &[5 << 8, lo(b), hi(b), 1, 2]);
    ib.truncate(3);
    assert!(matches!(run(&mut m, &ib), Err(Pm4Error::Truncated { .. })));
    // Type-0 packets (direct register writes) are refused.
    assert!(matches!(
        run(&mut m, &[0x0000_1234]),
        Err(Pm4Error::PacketType { ty: 0, .. })
    ));
    // WRITE_DATA to a register (DST_SEL 0) is refused, naming the field.
    let e = run(&mut m, &pkt3(pm4::op::WRITE_DATA, &[0, 0x1234, 0, 1]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("DST_SEL 0"), "{e}");
    // A write outside device memory is a fault naming the address.
    let e = run(&mut m, &pkt3(pm4::op::WRITE_DATA, &[5 << 8, 0x10, 0, 1]))
        .unwrap_err()
        .to_string();
    assert!(e.contains("0x10") && e.contains("not mapped"), "{e}");
    // A dispatch that asks for what raw dispatch refuses (RSRC2.TRAP_PRESENT) fails cleanly.
    // (The code address: 256-aligned inside the memory; its bytes are never decoded.)
    let code = (b + 0x2000) & !255;
    let mut ib = pkt3(pm4::op::SET_SH_REG, &[(0xb84c - 0xb000) / 4, 1 << 6]);
    ib.extend(pkt3(
        pm4::op::SET_SH_REG,
        &[
            (0xb830 - 0xb000) / 4,
            (code >> 8) as u32,
            (code >> 40) as u32,
        ],
    ));
    ib.extend(pkt3(pm4::op::DISPATCH_DIRECT, &[1, 1, 1, 5]));
    let e = run(&mut m, &ib).unwrap_err().to_string();
    assert!(e.contains("TRAP_PRESENT"), "{e}");
    // An IB that chains to itself never ends: stopped after QueueState::max_packets.
    let chain = pkt3(
        pm4::op::INDIRECT_BUFFER,
        &[lo(at), hi(at), 4 | 1 << 23 | 1 << 20],
    );
    m.put(IB, &chain);
    let mut st = QueueState::new(Queue::Compute);
    st.max_packets = 1000;
    let e = pm4::execute(&m, &mut st, at, 16).unwrap_err();
    assert!(matches!(e, Pm4Error::Endless { max: 1000, .. }), "{e}");
    // An IB larger than IB_SIZE can describe is refused before it is read.
    let e = pm4::execute(&m, &mut st, at, 1 << 30).unwrap_err();
    assert!(matches!(e, Pm4Error::IbSize { .. }), "{e}");
    // Scratch without a per-wave size (COMPUTE_TMPRING_SIZE.WAVESIZE 0) is refused by name.
    let mut ib = pkt3(pm4::op::SET_SH_REG, &[(0xb84c - 0xb000) / 4, 1]);
    ib.extend(pkt3(pm4::op::DISPATCH_DIRECT, &[1, 1, 1, 5]));
    let e = run(&mut m, &ib).unwrap_err().to_string();
    assert!(e.contains("SCRATCH_EN"), "{e}");
}

/// The graphics ring: preamble packets and register writes are recorded, a draw is captured
/// (when a capture directory is set) and refused by name, and nothing after it is performed.
#[test]
fn draws_are_captured_and_refused() {
    let mut m = TestMem::new(0x8000);
    let b = m.base();
    let at = b + IB;
    // A "pixel shader" at a 256-aligned address: s_endpgm (0xbfb00000) then ACO's s_code_end
    // padding (0xbf9f0000); a "geometry shader" of s_nop 0 (0xbf800000), s_endpgm.
    let ps = (b + 0x4000 + 255) & !255;
    let gs = ps + 0x100;
    m.put(ps - b, &[0xbfb0_0000, 0xbf9f_0000, 0xbf9f_0000]);
    m.put(gs - b, &[0xbf80_0000, 0xbfb0_0000, 0xbf9f_0000]);
    // User data PS_0 points at 16 bytes of "descriptors".
    let desc = b + 0x6000;
    m.put(0x6000, &[0x11, 0x22, 0x33, 0x44]);
    let sh = |addr: u32, v: &[u32]| {
        let mut body = vec![(addr - 0xb000) / 4];
        body.extend_from_slice(v);
        pkt3(pm4::op::SET_SH_REG, &body)
    };
    let mut ib = pkt3(pm4::op::CONTEXT_CONTROL, &[1 << 31, 1 << 31]);
    ib.extend(pkt3(pm4::op::CLEAR_STATE, &[0]));
    // SPI_SHADER_COL_FORMAT (0x28714) = 4 (32_ABGR... any value: it is only recorded).
    ib.extend(pkt3(
        pm4::op::SET_CONTEXT_REG,
        &[(0x28714 - 0x28000) / 4, 4],
    ));
    // VGT_PRIMITIVE_TYPE (0x30908) through the _INDEX form, index 1.
    ib.extend(pkt3(
        pm4::op::SET_UCONFIG_REG_INDEX,
        &[(1 << 28) | ((0x30908 - 0x30000) / 4), 4],
    ));
    // SPI_SHADER_PGM_LO/HI_PS (0xb020) and _ES (0xb320): address >> 8, address >> 40.
    ib.extend(sh(0xb020, &[(ps >> 8) as u32, (ps >> 40) as u32]));
    ib.extend(sh(0xb320, &[(gs >> 8) as u32, (gs >> 40) as u32]));
    ib.extend(sh(0xb030, &[desc as u32, (desc >> 32) as u32]));
    ib.extend(pkt3(pm4::op::NUM_INSTANCES, &[1]));
    ib.extend(pkt3(pm4::op::DRAW_INDEX_AUTO, &[3, 2]));
    // After the refused draw: a WRITE_DATA that must not be performed, and a second draw.
    ib.extend(pkt3(
        pm4::op::WRITE_DATA,
        &[5 << 8, lo(b + 0x7000), hi(b + 0x7000), 0xabcd],
    ));
    ib.extend(pkt3(pm4::op::DRAW_INDEX_AUTO, &[6, 2]));

    // Without a capture directory: executed, and refused at the first draw because the
    // stream programs no pipeline (VGT_SHADER_STAGES_EN was never written), naming it.
    m.put(IB, &ib);
    let mut st = QueueState::new(Queue::Graphics);
    st.capture = None;
    let e = pm4::execute(&m, &mut st, at, 4 * ib.len() as u32).unwrap_err();
    let draw_at = at + 4 * (ib.len() as u64 - 3 - 5 - 3);
    match &e {
        Pm4Error::Draw { at: a, .. } => assert_eq!((a.va, a.opcode), (draw_at, 0x2d)),
        other => panic!("{other:?}"),
    }
    assert!(
        e.to_string()
            .contains("the draw is not executed: VGT_SHADER_STAGES_EN was not written"),
        "{e}"
    );
    assert_eq!(m.get(0x7000), 0);

    // With one: both draws captured, the first one's error fails the submission, and the
    // WRITE_DATA between them is not performed.
    let dir = std::env::temp_dir().join(format!("wavesim-capture-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let mut st = QueueState::new(Queue::Graphics);
    st.capture = Some(dir.clone());
    let e = pm4::execute(&m, &mut st, at, 4 * ib.len() as u32).unwrap_err();
    assert!(
        matches!(e, Pm4Error::Draw { at: a, .. } if a.va == draw_at),
        "{e}"
    );
    assert!(e.to_string().contains("pipeline captured to"), "{e}");
    assert_eq!(m.get(0x7000), 0);
    let mut draws: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|d| d.unwrap().path())
        .collect();
    draws.sort();
    assert_eq!(draws.len(), 2, "{draws:?}");
    let text = std::fs::read_to_string(draws[0].join("draw.txt")).unwrap();
    assert!(text.contains("packet DRAW_INDEX_AUTO\n"), "{text}");
    assert!(text.contains("body 0x00000003 0x00000002\n"), "{text}");
    assert!(text.contains("num_instances 0x1\n"), "{text}");
    // The programs end before the first s_code_end: 4 and 8 bytes.
    assert!(
        text.contains(&format!("stage ps {ps:#x} 4 hw_ps.bin")),
        "{text}"
    );
    assert!(
        text.contains(&format!("stage gs {gs:#x} 8 hw_gs.bin")),
        "{text}"
    );
    assert!(
        text.contains(&format!("memory {desc:#x} mem-{desc:x}.bin")),
        "{text}"
    );
    assert_eq!(
        std::fs::read(draws[0].join("hw_ps.bin")).unwrap(),
        0xbfb0_0000u32.to_le_bytes()
    );
    let mem = std::fs::read(draws[0].join(format!("mem-{desc:x}.bin"))).unwrap();
    assert_eq!(&mem[..8], &[0x11, 0, 0, 0, 0x22, 0, 0, 0]);
    let regs = std::fs::read_to_string(draws[0].join("registers.txt")).unwrap();
    assert!(
        regs.contains("context 0x28714 SPI_SHADER_COL_FORMAT 0x00000004\n"),
        "{regs}"
    );
    assert!(
        regs.contains("uconfig 0x30908 VGT_PRIMITIVE_TYPE 0x00000004\n"),
        "{regs}"
    );
    assert!(
        regs.contains(&format!(
            "sh 0x0b020 SPI_SHADER_PGM_LO_PS {:#010x}\n",
            (ps >> 8) as u32
        )),
        "{regs}"
    );
    let second = std::fs::read_to_string(draws[1].join("draw.txt")).unwrap();
    assert!(second.contains("body 0x00000006 0x00000002\n"), "{second}");
    let _ = std::fs::remove_dir_all(&dir);

    // Register shadowing (CONTEXT_CONTROL load bits) is refused by name.
    let e = run(
        &mut m,
        &pkt3(pm4::op::CONTEXT_CONTROL, &[1 << 31 | 1, 1 << 31]),
    )
    .unwrap_err();
    assert!(e.to_string().contains("shadowing"), "{e}");
}

/// Random packet streams on the graphics ring (random opcodes from those the executor knows
/// and a few it does not, random bodies) end in Ok or a named error, never a panic; with a
/// capture directory too.
#[test]
fn random_graphics_streams_never_panic() {
    let mut m = TestMem::new(0x8000);
    let b = m.base();
    let ops = [
        pm4::op::NOP,
        pm4::op::SET_BASE,
        pm4::op::CLEAR_STATE,
        pm4::op::INDEX_BUFFER_SIZE,
        pm4::op::INDEX_BASE,
        pm4::op::CONTEXT_CONTROL,
        pm4::op::INDEX_TYPE,
        pm4::op::NUM_INSTANCES,
        pm4::op::DRAW_INDEX_AUTO,
        pm4::op::DRAW_INDEX_2,
        pm4::op::DRAW_INDIRECT,
        pm4::op::PFP_SYNC_ME,
        pm4::op::SET_CONTEXT_REG,
        pm4::op::SET_SH_REG,
        pm4::op::SET_SH_REG_INDEX,
        pm4::op::SET_UCONFIG_REG,
        pm4::op::SET_UCONFIG_REG_INDEX,
        pm4::op::EVENT_WRITE,
        pm4::op::WRITE_DATA,
        0x99,
    ];
    let mut x = 0x2545_f491_4f6c_dd1du64;
    let mut rnd = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let dir = std::env::temp_dir().join(format!("wavesim-capture-fuzz-{}", std::process::id()));
    let mut outcomes = [0u32; 3];
    for case in 0..2000 {
        let mut ib = Vec::new();
        for _ in 0..1 + rnd() % 4 {
            let op = ops[rnd() as usize % ops.len()];
            let n = 1 + rnd() as usize % 4;
            let body: Vec<u32> = (0..n)
                .map(|k| match (op, k, rnd() % 3) {
                    // Register offsets inside the graphics spaces half of the time.
                    (_, 0, 0) => rnd() as u32 & 0x3ff,
                    // Addresses inside the test memory.
                    (_, _, 1) => (b + (rnd() % 0x8000)) as u32,
                    _ => rnd() as u32,
                })
                .collect();
            ib.extend(pkt3(op, &body));
        }
        m.put(IB, &ib);
        let mut st = QueueState::new(Queue::Graphics);
        st.capture = (case % 50 == 0).then(|| dir.clone());
        match pm4::execute(&m, &mut st, b + IB, 4 * ib.len() as u32) {
            Ok(()) => outcomes[0] += 1,
            Err(Pm4Error::Draw { .. }) => outcomes[1] += 1,
            Err(_) => outcomes[2] += 1,
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    // The streams reach every outcome: completed, refused at a draw, refused elsewhere.
    assert!(outcomes.iter().all(|&n| n > 0), "{outcomes:?}");
}
