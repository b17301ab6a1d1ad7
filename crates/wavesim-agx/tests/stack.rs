//! Per-thread stack loads and stores (register spills), encoded as Mesa's `agx_pack.c` packs
//! `stack_load`/`stack_store`: O is a byte offset (`agx_lower_spill.c`), component i of the mask at
//! O + i * element size, each thread's stack private.

use wavesim_agx::exec::{run, Fault, Memories, Program, WaveState, SIMD_WIDTH};
use wavesim_core::memory::DeviceMemory;

/// `agx_pack.c`, case AGX_OPCODE_STACK_LOAD/STORE (8-byte form, immediate byte offset):
/// R in 16-bit halves, Rt = 32-bit registers, i1 = 1, i2 = 0, i5 = 4.
fn pack(load: bool, format: u64, reg_half: u64, wide: bool, offset: u64, mask: u64) -> Vec<u8> {
    let exact: u64 = if load { 0x35 } else { 0xb5 };
    let raw = exact
        | (format & 3) << 8
        | (reg_half & 63) << 10
        | (offset & 15) << 20
        | 1 << 24
        | 1 << 26
        | ((offset >> 4) & 15) << 32
        | ((reg_half >> 6) & 3) << 40
        | 4 << 44
        | 1 << 47
        | (wide as u64) << 49
        | (format >> 2) << 50
        | mask << 52
        | (offset >> 8) << 56;
    raw.to_le_bytes().to_vec()
}

fn exec(w: &mut WaveState, parts: &[Vec<u8>]) -> Result<(), Fault> {
    let mut code: Vec<u8> = parts.concat();
    code.extend([0x88, 0x00]);
    let dev = DeviceMemory::new();
    let mut tg = vec![];
    let mut mem = Memories {
        device: &dev,
        threadgroup: &mut tg,
    };
    w.pc = 0;
    run(w, &Program::new(code), &mut mem, 100)
        .map(|_| ())
        .map_err(|e| e.fault)
}

#[test]
fn spill_and_fill_32_and_16_bit_vectors() {
    let mut w = WaveState::new(16);
    for l in 0..SIMD_WIDTH {
        for r in 0..4 {
            w.set_reg32(4 + r, l, (l as u32) << 8 | r as u32);
        }
        w.set_half(20, l, 0x1000 + l as u16); // r10l
        w.set_half(21, l, 0x2000 + l as u16); // r10h
    }
    // spill r4..r7 (i32, xyzw) at byte 36 and r10l/r10h (i16, xy) at byte 22, then clobber them
    // and fill r12..r15 and r11l/r11h back: every thread gets its own values
    let spill = pack(false, 2, 8, true, 36, 0xF);
    let spill16 = pack(false, 1, 20, false, 22, 0x3);
    exec(&mut w, &[spill, spill16]).unwrap();
    for l in 0..SIMD_WIDTH {
        for r in 4..8 {
            w.set_reg32(r, l, 0);
        }
    }
    let fill = pack(true, 2, 24, true, 36, 0xF);
    let fill16 = pack(true, 1, 22, false, 22, 0x3);
    exec(&mut w, &[fill, fill16]).unwrap();
    for l in 0..SIMD_WIDTH {
        for r in 0..4 {
            assert_eq!(
                w.reg32(12 + r, l),
                (l as u32) << 8 | r as u32,
                "thread {l} r{}",
                12 + r
            );
        }
        assert_eq!(w.half(22, l), 0x1000 + l as u16);
        assert_eq!(w.half(23, l), 0x2000 + l as u16);
    }
    // byte layout: component i at 36 + 4i, little endian; r10h at 24
    let t = 5;
    let byte = |a: u32| w.stack[t][&a];
    assert_eq!((byte(36), byte(37), byte(40)), (0, t as u8, 1));
    assert_eq!((byte(24), byte(25)), (t as u8, 0x20));
    // a partial fill: y only (mask 0b0010) reads the second component at 36 + 4
    let mut w2 = w.clone();
    exec(&mut w2, &[pack(true, 2, 2, true, 36, 0x2)]).unwrap();
    assert_eq!(w2.reg32(1, t), (t as u32) << 8 | 1);
}

#[test]
fn stack_refusals() {
    let mut w = WaveState::new(16);
    // a slot nobody stored
    match exec(&mut w, &[pack(true, 2, 8, true, 100, 0x1)]) {
        Err(Fault::UnsupportedForm { what }) => assert!(what.contains("never stored"), "{what}"),
        other => panic!("{other:?}"),
    }
    // i32 with 16-bit registers
    match exec(&mut w, &[pack(false, 2, 8, false, 0, 0x1)]) {
        Err(Fault::UnsupportedForm { what }) => assert!(what.contains("stack format 2"), "{what}"),
        other => panic!("{other:?}"),
    }
    // i5 other than Mesa's 4
    let mut odd = pack(false, 2, 8, true, 0, 0x1);
    odd[5] &= !(0x7 << 4);
    match exec(&mut w, &[odd]) {
        Err(Fault::UnsupportedForm { what }) => assert!(what.contains("i5 = 0"), "{what}"),
        other => panic!("{other:?}"),
    }
}

/// With an observer's access list on, a spill and a fill are stack stores and loads: thread t's
/// component i of the i32 spill at byte 36 is the 4 bytes at 36 + 4i holding t << 8 | i.
#[test]
fn stack_accesses_are_reported() {
    use wavesim_core::observe::AccessKind;
    let mut w = WaveState::new(16);
    for l in 0..SIMD_WIDTH {
        for r in 0..4 {
            w.set_reg32(4 + r, l, (l as u32) << 8 | r as u32);
        }
    }
    w.accesses = Some(Vec::new());
    exec(&mut w, &[pack(false, 2, 8, true, 36, 0xF)]).unwrap();
    exec(&mut w, &[pack(true, 2, 24, true, 40, 0x1)]).unwrap();
    let a = w.accesses.take().unwrap();
    assert_eq!(a.len(), 4 * SIMD_WIDTH + SIMD_WIDTH);
    let store = a
        .iter()
        .find(|x| x.kind == AccessKind::Store && x.lane == 5 && x.addr == 44)
        .unwrap();
    assert_eq!(
        (store.space, store.size, store.value),
        ("stack", 4, 5 << 8 | 2)
    );
    let load = a.iter().rev().find(|x| x.lane == 5).unwrap();
    assert_eq!(
        (load.kind, load.addr, load.value),
        (AccessKind::Load, 40, 5 << 8 | 1)
    );
}

/// `agx_pack.c`, case AGX_OPCODE_STACK_ADJUST: the exact bits 0x10100b5, i1 = 1 (bit 26), i2 = 2
/// (bits 36-38), the 16-bit size split over bits 20-23, 32-35 and 56-63, and bit 47 (the 8-byte form).
fn adjust(v: i16) -> Vec<u8> {
    let v = u64::from(v as u16);
    let raw = 0x10100b5u64
        | 1 << 26
        | 2 << 36
        | (v & 0xF) << 20
        | ((v >> 4) & 0xF) << 32
        | 1 << 47
        | (v >> 8) << 56;
    raw.to_le_bytes().to_vec()
}

/// Mesa 25.0 (`agx_compile.c`) opens a frame of ALIGN(ceil(scratch / 4) + 10, 4) 4-byte words at the
/// entry: for 8 bytes of scratch that is ALIGN(2 + 10, 4) = 12 words = 48 bytes. An i32 xyzw spill
/// at byte 32 covers bytes 32..48, inside; at byte 36 it covers 36..52, past the frame (a typed
/// error). Releasing with -12 ends the frame and its contents: a fill afterwards reads bytes never
/// stored (a typed error), and the stack is addressed without a frame again.
#[test]
fn stack_adjust_opens_and_releases_one_frame() {
    let mut w = WaveState::new(16);
    for l in 0..SIMD_WIDTH {
        for r in 4..8 {
            w.set_reg32(r, l, l as u32 * 16 + r as u32);
        }
    }
    exec(&mut w, &[adjust(12), pack(false, 2, 8, true, 32, 0xF)]).unwrap();
    assert_eq!(w.stack_frame, 48);
    exec(&mut w, &[pack(true, 2, 24, true, 32, 0xF)]).unwrap();
    for l in 0..SIMD_WIDTH {
        for r in 0..4 {
            assert_eq!(w.reg32(12 + r, l), l as u32 * 16 + 4 + r as u32);
        }
    }
    let e = exec(&mut w, &[pack(false, 2, 8, true, 36, 0xF)]).unwrap_err();
    assert!(e.to_string().contains("48-byte frame"), "{e}");
    exec(&mut w, &[adjust(-12)]).unwrap();
    assert_eq!(w.stack_frame, 0);
    let e = exec(&mut w, &[pack(true, 2, 24, true, 32, 0xF)]).unwrap_err();
    assert!(e.to_string().contains("never stored"), "{e}");
}

/// One frame at a time, released with its own size; fields other than Mesa's are typed errors.
#[test]
fn stack_adjust_refuses_what_mesa_never_emits() {
    let mut w = WaveState::new(8);
    let e = exec(&mut w, &[adjust(-4)]).unwrap_err();
    assert!(e.to_string().contains("stack_adjust -4"), "{e}");
    exec(&mut w, &[adjust(8)]).unwrap();
    let e = exec(&mut w, &[adjust(8)]).unwrap_err();
    assert!(e.to_string().contains("32-byte frame open"), "{e}");
    let e = exec(&mut w, &[adjust(-12)]).unwrap_err();
    assert!(e.to_string().contains("stack_adjust -12"), "{e}");
    // another bit than Mesa's (bit 36: i2 = 3) is no stack_adjust: a stack_store of nothing with
    // fields Mesa never packs, a typed error
    let mut other = adjust(8);
    other[4] ^= 0x10;
    let mut w = WaveState::new(8);
    let e = exec(&mut w, &[other]).unwrap_err();
    assert!(e.to_string().contains("i2 = 3"), "{e}");
}

/// applegpu matches `stack_store` (low byte 0xb5) before `TODO.stack_adjust`, so Mesa's word
/// disassembles as a stack_store of nothing (mask 0) at O = the size.
#[test]
fn stack_adjust_decodes_as_applegpu_does() {
    let d = wavesim_agx::decode(&adjust(12)).unwrap();
    assert_eq!(d.encoding().name, "stack_store");
    assert_eq!(d.fields.get_or_zero("mask"), 0);
    assert_eq!(d.fields.get_or_zero("O"), 12);
}
