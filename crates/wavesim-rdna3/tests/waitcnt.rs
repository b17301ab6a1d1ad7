//! s_waitcnt counters (`Wave::cnt`): memory instructions count when they issue (VM_CNT for loads
//! and returning atomics, VS_CNT for stores and other atomics, LGKM_CNT for LDS, SMEM, messages
//! and FLAT), s_waitcnt* lower each counter to the waited value, s_wait_idle clears them, and
//! every counter saturates at its field's maximum.
//!
//! Instruction words come from `llvm-mc-19 -arch=amdgcn -mcpu=gfx1100 -show-encoding`; the
//! assembly is in the comment next to each word.

use wavesim_rdna3::testing::Harness;
use wavesim_rdna3::wave::{WaitCounts, Wave};

const GLOBAL_LOAD: [u32; 2] = [0xdc520000, 0x0a7c0002]; // global_load_b32 v10, v[2:3], off
const DS_STORE: [u32; 2] = [0xd8340000, 0x00000401]; // ds_store_b32 v1, v4

fn counts(vm: u8, vs: u8, lgkm: u8, exp: u8) -> WaitCounts {
    WaitCounts { vm, vs, lgkm, exp }
}

/// A wave whose v[2:3] point at lane-private dwords of a buffer also in s[0:1] and in a V# in
/// s[4:7], v1 = an LDS address per lane, v0 = 0 (scratch offset), v4 = 1.
fn setup(w64: bool) -> Harness {
    let mut h = Harness::new(w64);
    let buf = h.mem.alloc(1024, 256).unwrap();
    let scratch = h.mem.alloc(64 * 16, 256).unwrap();
    h.wave.scratch_base = scratch;
    h.wave.scratch_lane_bytes = 16;
    h.set_v(2, |l| (buf + 4 * l as u64) as u32);
    h.set_v(3, |_| (buf >> 32) as u32);
    h.set_v(1, |l| 4 * l as u32);
    h.set_v(0, |_| 0);
    h.set_v(4, |_| 1);
    h.wave.sgpr[0] = buf as u32;
    h.wave.sgpr[1] = (buf >> 32) as u32;
    h.wave.sgpr[4] = buf as u32;
    h.wave.sgpr[5] = (buf >> 32) as u32 & 0xffff;
    h.wave.sgpr[6] = 1024;
    h
}

#[test]
fn each_memory_instruction_counts_in_its_counters() {
    for w64 in [false, true] {
        let mut h = setup(w64);
        let steps: [(&[u32], WaitCounts); 14] = [
            (&GLOBAL_LOAD, counts(1, 0, 0, 0)),
            (&[0xdc6a0000, 0x007c0402], counts(1, 1, 0, 0)), // global_store_b32 v[2:3], v4, off
            (&[0xdcd64000, 0x0a7c0402], counts(2, 1, 0, 0)), // global_atomic_add_u32 v10, v[2:3], v4, off glc
            (&[0xdcd60000, 0x007c0402], counts(2, 2, 0, 0)), // global_atomic_add_u32 v[2:3], v4, off
            (&[0xdc500000, 0x0a7c0002], counts(3, 2, 1, 0)), // flat_load_b32 v10, v[2:3]
            (&[0xdc680000, 0x007c0402], counts(3, 3, 2, 0)), // flat_store_b32 v[2:3], v4
            (&[0xdc510000, 0x0afc0000], counts(4, 3, 2, 0)), // scratch_load_b32 v10, v0, off
            (&[0xd8d80000, 0x0a000001], counts(4, 3, 3, 0)), // ds_load_b32 v10, v1
            (&DS_STORE, counts(4, 3, 4, 0)),
            (&[0xdacc0000, 0x0a000401], counts(4, 3, 5, 0)), // ds_bpermute_b32 v10, v1, v4
            (&[0xf4000280, 0xf8000000], counts(4, 3, 6, 0)), // s_load_b32 s10, s[0:1], 0x0
            (&[0xf4200282, 0xf8000000], counts(4, 3, 7, 0)), // s_buffer_load_b32 s10, s[4:7], 0x0
            (&[0xf4840000, 0x00000000], counts(4, 3, 8, 0)), // s_dcache_inv
            (&[0xbe8a4c83], counts(4, 3, 9, 0)), // s_sendmsg_rtn_b32 s10, sendmsg(MSG_RTN_GET_REALTIME)
        ];
        for (words, want) in steps {
            h.run(words).unwrap();
            assert_eq!(h.wave.cnt, want, "wave64={w64} after {words:x?}");
        }
        // The loads really happened (the counters only model their latency).
        assert_eq!(h.v(10, 3), 1, "ds_bpermute read lane 3's v4 (1)");
    }
}

#[test]
fn waits_lower_counters_to_the_waited_values() {
    for w64 in [false, true] {
        let mut h = setup(w64);
        h.wave.cnt = counts(10, 9, 12, 6);
        let steps: [(u32, WaitCounts); 9] = [
            (0xbf890c95, counts(3, 9, 9, 5)), // s_waitcnt vmcnt(3) expcnt(5) lgkmcnt(9)
            (0xbf89fc17, counts(3, 9, 1, 5)), // s_waitcnt lgkmcnt(1): vmcnt/expcnt fields at max
            (0xbc7c0002, counts(3, 2, 1, 5)), // s_waitcnt_vscnt null, 0x2
            (0xbc7cffff, counts(3, 2, 1, 5)), // s_waitcnt_vscnt null, 0xffff: waits for nothing
            (0xbcfc0001, counts(1, 2, 1, 5)), // s_waitcnt_vmcnt null, 0x1
            (0xbdfc0000, counts(1, 2, 0, 5)), // s_waitcnt_lgkmcnt null, 0x0
            (0xbd7c0000, counts(1, 2, 0, 0)), // s_waitcnt_expcnt null, 0x0
            (0xbf8903f7, counts(0, 2, 0, 0)), // s_waitcnt vmcnt(0)
            (0xbf8a0000, counts(0, 0, 0, 0)), // s_wait_idle
        ];
        for (word, want) in steps {
            h.run(&[word]).unwrap();
            assert_eq!(h.wave.cnt, want, "wave64={w64} after {word:#x}");
        }
        // A wait above the current count changes nothing.
        h.wave.cnt = counts(2, 0, 2, 1);
        h.run(&[0xbf890c95]).unwrap(); // s_waitcnt vmcnt(3) expcnt(5) lgkmcnt(9)
        assert_eq!(h.wave.cnt, counts(2, 0, 2, 1));
    }
}

#[test]
fn nullified_and_exec_zero_instructions_still_count_and_counters_saturate() {
    for w64 in [false, true] {
        let mut h = setup(w64);
        h.wave.set_exec(0);
        h.run(&GLOBAL_LOAD).unwrap();
        h.run(&DS_STORE).unwrap();
        assert_eq!(h.wave.cnt, counts(1, 0, 1, 0));
        // A load into v20 of a 16-VGPR wave is nullified (as if EXEC were 0) but issued.
        let mut small = Wave::new(w64, 16);
        small.set_exec(u64::MAX);
        h.wave = small;
        h.run(&[0xdc520000, 0x147c0002]).unwrap(); // global_load_b32 v20, v[2:3], off
        assert_eq!(h.wave.cnt, counts(1, 0, 0, 0));
        // 70 of each: VM_CNT and LGKM_CNT stop at 63 (6-bit fields).
        let mut h = setup(w64);
        let body: Vec<u32> = (0..70)
            .flat_map(|_| GLOBAL_LOAD.into_iter().chain(DS_STORE))
            .collect();
        h.run(&body).unwrap();
        assert_eq!(h.wave.cnt, counts(63, 0, 63, 0));
        h.run(&[0xbf890c95]).unwrap(); // s_waitcnt vmcnt(3) expcnt(5) lgkmcnt(9)
        assert_eq!(h.wave.cnt, counts(3, 0, 9, 0));
        // EXP_CNT saturates at 7 (nothing wavesim executes issues exports yet).
        let mut c = WaitCounts::default();
        for _ in 0..10 {
            c.exp_issue();
        }
        assert_eq!(c.exp, WaitCounts::EXP_MAX);
    }
}
