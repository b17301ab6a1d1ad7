//! Memory: device loads and stores with their formats, threadgroup memory, device and threadgroup
//! atomics.

use super::{active, int_src, missing, require_fields, sign_extend, Fault, Ops, WaveState};
use crate::fp;
use crate::operand::{Operand, Reg, RegFile};
use crate::srgb_table::SRGB_TO_LINEAR;
use wavesim_core::memory::{DeviceMemory, MemError};
use wavesim_core::observe::AccessKind;

/// The operation of an atomic's `op` field (Mesa's `agx_opcodes.py` `atomic_opc`, applegpu's names)
/// and whether it takes a register pair. `cmpxchg` (3) reads its source as a pair in Mesa's order
/// (`agx_emit_atomic`: `agx_vec2(new value, comparand)`): the first register is the value stored when
/// memory equals the second.
fn atomic_op(o: &Ops<'_>) -> Result<wavesim_core::memory::AtomicOp, Fault> {
    use wavesim_core::memory::AtomicOp;
    Ok(match o.field("op") {
        0 => AtomicOp::Add,
        1 => AtomicOp::Sub,
        2 => AtomicOp::Xchg,
        3 => AtomicOp::CmpSwap,
        4 => AtomicOp::MinU,
        5 => AtomicOp::MinI,
        6 => AtomicOp::MaxU,
        7 => AtomicOp::MaxI,
        8 => AtomicOp::And,
        9 => AtomicOp::Or,
        10 => AtomicOp::Xor,
        other => {
            return Err(Fault::UnsupportedForm {
                what: format!("atomic operation {other}"),
            })
        }
    })
}

/// The (value, comparand) of thread `lane`'s atomic source `S` (a pair for `cmpxchg`).
fn atomic_source(w: &WaveState, o: &Ops<'_>, lane: usize) -> Result<(u32, u32), Fault> {
    let v = int_src(w, o.op("S")?, lane)? as u64;
    Ok((v as u32, (v >> 32) as u32))
}

/// `atomic`: per active thread in thread order, a read-modify-write of the 32-bit word at
/// `A + O * 4` (O signed or unsigned by `Ou`; Mesa's compiler passes the full address in A and O = 0,
/// so the index scaling is wavesim's assumption, matching the 32-bit element of `device_load`), with
/// the operation of the `op` field ([`atomic_op`]); the old value goes to R when present.
pub(super) fn atomic(w: &mut WaveState, o: &Ops<'_>, dev: &DeviceMemory) -> Result<(), Fault> {
    let op = atomic_op(o)?;
    let dest = match o.op("R")? {
        Operand::Reg(r, _) => Some(*r),
        _ => None,
    };
    for lane in active(w) {
        let base = match o.op("A")? {
            Operand::Reg(r, _) => w.read(*r, lane)? as i128,
            _ => return Err(missing("A")),
        };
        let index = match o.op("O")? {
            Operand::Imm(v) => *v as i128,
            Operand::Reg(r, _) => {
                let v = w.read(*r, lane)?;
                if o.field("Ou") != 0 {
                    v as i128
                } else {
                    sign_extend(v, 32)
                }
            }
            _ => return Err(missing("O")),
        };
        let addr = mem_addr(lane, base + index * 4, 4)?;
        let (value, cmp) = atomic_source(w, o, lane)?;
        let old = dev
            .atomic32(addr, op, value, cmp)
            .map_err(|e| Fault::Memory { lane, source: e })?;
        w.record(AccessKind::Atomic, "device", lane, addr, 4, old as u64);
        if let Some(r) = dest {
            w.write(r, lane, old as u128)?;
        }
    }
    Ok(())
}

/// `threadgroup_atomic` (Mesa's `local_atomic`, packed by `agx_pack.c` as 10 bytes with the source
/// register in the last two): per active thread in thread order, a read-modify-write of the 32-bit
/// word at byte `A + O * 4` of threadgroup memory (Mesa passes the byte address in A and O = 0; the
/// scaling mirrors the device form), the old value to R when `Ra` is set. Operations as
/// [`atomic`]'s, `cmpxchg` with the same register pair.
pub(super) fn threadgroup_atomic(
    w: &mut WaveState,
    o: &Ops<'_>,
    tg: &mut [u8],
) -> Result<(), Fault> {
    let op = atomic_op(o)?;
    let dest = match o.op("R")? {
        Operand::Tuple(r, _) => match r.as_slice() {
            [reg] if reg.file == RegFile::R32 => Some(*reg),
            _ => {
                return Err(Fault::UnsupportedForm {
                    what: "threadgroup atomic into a 16-bit register".into(),
                })
            }
        },
        _ => None,
    };
    // Mesa's `local_atomic` encoding sets bits 36 and 47 (u3 = 2, u4 = 0x80) and leaves u1 and u5
    // (the source's high byte) 0; other values have no public meaning.
    let fields = [("u1", 0), ("u3", 2), ("u4", 0x80), ("u5", 0)];
    require_fields(o, "threadgroup atomic", &fields)?;
    for lane in active(w) {
        let (base, index) = threadgroup_base_index(w, o, lane)?;
        let addr = base + index * 4;
        if addr < 0 || addr as usize + 4 > tg.len() {
            return Err(Fault::ThreadgroupOutOfRange {
                lane,
                addr,
                size: 4,
                len: tg.len(),
            });
        }
        let a = addr as usize;
        let mut word = [0u8; 4];
        word.copy_from_slice(&tg[a..a + 4]);
        let old = u32::from_le_bytes(word);
        let (value, cmp) = atomic_source(w, o, lane)?;
        let new = wavesim_core::memory::apply32(op, old, value, cmp);
        tg[a..a + 4].copy_from_slice(&new.to_le_bytes());
        w.record(
            AccessKind::Atomic,
            "threadgroup",
            lane,
            a as u64,
            4,
            old as u64,
        );
        if let Some(r) = dest {
            w.write(r, lane, old as u128)?;
        }
    }
    Ok(())
}

/// Effective address inputs shared by device loads and stores.
pub(super) struct DeviceAccess {
    format: u64,
    item_size: u64,
    mask: u64,
    bit_packed: bool,
    reg32: bool,
    reg: usize,
}

pub(super) fn device_access(o: &Ops<'_>) -> DeviceAccess {
    let format = o.field("F");
    let bit_packed = matches!(format, 8 | 12 | 13);
    let item_size = match format {
        1 | 3 | 6 | 7 => 2,
        2 => 4,
        _ => 1,
    };
    let reg32 = o.field("Rt") == 1;
    let reg = if reg32 {
        o.field("R") >> 1
    } else {
        o.field("R")
    } as usize;
    let mask = if bit_packed { 0xF } else { o.field("mask") };
    DeviceAccess {
        format,
        item_size,
        mask,
        bit_packed,
        reg32,
        reg,
    }
}

/// Byte address of element 0 for thread `lane`: base + (offset << shift), aligned down.
pub(super) fn device_address(
    w: &WaveState,
    o: &Ops<'_>,
    acc: &DeviceAccess,
    lane: usize,
) -> Result<i128, Fault> {
    let base = match o.op("A")? {
        Operand::Reg(r, _) => w.read(*r, lane)? as i128,
        _ => return Err(missing("A")),
    };
    let mut offset = match o.op("O")? {
        Operand::Imm(v) => *v as i128,
        Operand::Reg(r, _) => {
            let v = w.read(*r, lane)?;
            if o.field("Ou") != 0 {
                v as i128
            } else {
                sign_extend(v, 32)
            }
        }
        _ => return Err(missing("O")),
    };
    let mut shift = o.field("s").min(2);
    if acc.bit_packed {
        shift = 2;
    }
    offset <<= shift;
    let mut address = base & !(acc.item_size as i128 - 1);
    if acc.bit_packed {
        address &= !3;
    }
    Ok(address + offset * acc.item_size as i128)
}

pub(super) fn mem_addr(lane: usize, a: i128, size: u64) -> Result<u64, Fault> {
    u64::try_from(a).map_err(|_| Fault::Memory {
        lane,
        source: MemError::OutOfBounds {
            addr: a as u64,
            size,
        },
    })
}

/// applegpu's `device_load.TODO` row is `device_load` with the bits its exact pattern fixes left
/// open: u1 (26), u3 (28-29), u4 (44-46), u5 (50-51). Mesa 25.0's `agx_pack.c` packs u1 = 1, u3 =
/// 0, u5 = 0 and u4 = 4, or 7 for a coherent load (`I->coherent`: a `volatile` or coherent
/// access), which is this row. Device memory here is one coherent store, so such a load reads
/// what `device_load` reads; other values are forms with no public meaning.
pub(super) fn check_coherent_load(o: &Ops<'_>) -> Result<(), Fault> {
    let (u1, u3, u4, u5) = (o.field("u1"), o.field("u3"), o.field("u4"), o.field("u5"));
    if (u1, u3, u4, u5) == (1, 0, 7, 0) {
        Ok(())
    } else {
        Err(Fault::UnsupportedForm {
            what: format!(
                "device_load with u1 = {u1}, u3 = {u3}, u4 = {u4}, u5 = {u5} (Mesa's coherent load \
                 is 1, 0, 7, 0)"
            ),
        })
    }
}

pub(super) fn device_load(w: &mut WaveState, o: &Ops<'_>, dev: &DeviceMemory) -> Result<(), Fault> {
    let acc = device_access(o);
    if !acc.reg32 && acc.format == 2 {
        return Err(Fault::UnsupportedForm {
            what: "32-bit format into 16-bit registers".into(),
        });
    }
    if matches!(acc.format, 9 | 11 | 14 | 15) {
        return Err(Fault::UnsupportedForm {
            what: format!("device_load format {}", acc.format),
        });
    }
    for lane in active(w) {
        let address = device_address(w, o, &acc, lane)?;
        let mut values = vec![];
        for i in 0..4u64 {
            if acc.mask >> i & 1 == 1 {
                let a = mem_addr(
                    lane,
                    address + i as i128 * acc.item_size as i128,
                    acc.item_size,
                )?;
                let mem = |e| Fault::Memory { lane, source: e };
                let v = match acc.item_size {
                    1 => {
                        let mut b = [0u8];
                        dev.read(a, &mut b).map_err(mem)?;
                        b[0] as u64
                    }
                    2 => {
                        let mut b = [0u8; 2];
                        dev.read(a, &mut b).map_err(mem)?;
                        u16::from_le_bytes(b) as u64
                    }
                    _ => dev.read_u32(a).map_err(mem)? as u64,
                };
                w.record(AccessKind::Load, "device", lane, a, acc.item_size, v);
                values.push((i, v));
            }
        }
        let packed: u64 = values.iter().map(|&(i, v)| v << (8 * i)).sum();
        let mut reg = acc.reg;
        for &(n, value) in &values {
            let real: Option<f64> = match acc.format {
                0..=3 => None,
                4 => Some(value as f64 / 255.0),
                5 => Some((sign_extend(value, 8) as f64).max(-127.0) / 127.0),
                6 => Some(value as f64 / 65535.0),
                7 => Some((sign_extend(value, 16) as f64).max(-32767.0) / 32767.0),
                8 => Some(match n {
                    0 => (packed & 1023) as f64 / 1023.0,
                    1 => ((packed >> 10) & 1023) as f64 / 1023.0,
                    2 => ((packed >> 20) & 1023) as f64 / 1023.0,
                    _ => ((packed >> 30) & 3) as f64 / 3.0,
                }),
                10 => Some(if n == 3 {
                    value as f64 / 255.0
                } else {
                    f64::from_bits(SRGB_TO_LINEAR[value as usize & 255])
                }),
                12 => match n {
                    0 => Some(small_float(packed & 0x7FF, 6)),
                    1 => Some(small_float((packed >> 11) & 0x7FF, 6)),
                    2 => Some(small_float((packed >> 22) & 0x3FF, 5)),
                    _ => None,
                },
                _ => match n {
                    // rgb9e5: shared exponent in the top 5 bits.
                    0..=2 => {
                        let f = (packed >> (9 * n)) & 0x1FF;
                        let e = (packed >> 27) as i32 - 15;
                        Some(2f64.powi(e) * f as f64 / 512.0)
                    }
                    _ => None,
                },
            };
            let skip = matches!(acc.format, 12 | 13) && n == 3;
            if skip {
                continue;
            }
            let bits = match real {
                None => value,
                Some(r) => {
                    let r = if r.is_nan() {
                        fp::F64_CANONICAL_NAN
                    } else {
                        r.to_bits()
                    };
                    if acc.reg32 {
                        fp::f64_to_f32(r, false)
                    } else {
                        fp::f64_to_f16(r)
                    }
                }
            };
            let file = if acc.reg32 {
                RegFile::R32
            } else {
                RegFile::R16
            };
            let r = Reg {
                file,
                n: reg as u16,
            };
            if reg >= if acc.reg32 { 128 } else { 256 } {
                return Err(Fault::RegisterOutOfRange {
                    reg: format!("{file:?} {reg}"),
                    count: w.nr_gprs(),
                });
            }
            w.write(r, lane, bits as u128)?;
            reg += 1;
        }
    }
    Ok(())
}

/// Packed small float (11- or 10-bit, 5-bit exponent, bias 15, no sign) to f64.
pub(super) fn small_float(n: u64, mant_bits: u32) -> f64 {
    let e = ((n >> mant_bits) & 0x1F) as i32;
    let m = n & ((1 << mant_bits) - 1);
    if e == 0x1F {
        return if m != 0 { f64::NAN } else { f64::INFINITY };
    }
    let (implicit, e) = if e == 0 {
        (0, 1)
    } else {
        (1u64 << mant_bits, e)
    };
    (implicit | m) as f64 / (1u64 << mant_bits) as f64 * 2f64.powi(e - 15)
}

pub(super) fn device_store(
    w: &mut WaveState,
    o: &Ops<'_>,
    dev: &DeviceMemory,
) -> Result<(), Fault> {
    let acc = device_access(o);
    if acc.format > 3 {
        return Err(Fault::UnsupportedForm {
            what: format!("device_store format {}", acc.format),
        });
    }
    for lane in active(w) {
        let address = device_address(w, o, &acc, lane)?;
        let mut reg = acc.reg;
        for i in 0..4u64 {
            if acc.mask >> i & 1 == 0 {
                continue;
            }
            let file = if acc.reg32 {
                RegFile::R32
            } else {
                RegFile::R16
            };
            let v = w.read(
                Reg {
                    file,
                    n: reg as u16,
                },
                lane,
            )?;
            reg += 1;
            let a = mem_addr(
                lane,
                address + i as i128 * acc.item_size as i128,
                acc.item_size,
            )?;
            let bytes = v.to_le_bytes();
            dev.write(a, &bytes[..acc.item_size as usize])
                .map_err(|e| Fault::Memory { lane, source: e })?;
            let mut stored = [0u8; 8];
            stored[..acc.item_size as usize].copy_from_slice(&bytes[..acc.item_size as usize]);
            let stored = u64::from_le_bytes(stored);
            w.record(AccessKind::Store, "device", lane, a, acc.item_size, stored);
        }
    }
    Ok(())
}

/// Thread `lane`'s threadgroup base `A` and index `O` (registers or immediates).
fn threadgroup_base_index(w: &WaveState, o: &Ops<'_>, lane: usize) -> Result<(i64, i64), Fault> {
    let value = |name: &str| -> Result<i64, Fault> {
        match o.op(name)? {
            Operand::Reg(r, _) => Ok(w.read(*r, lane)? as i64),
            Operand::Imm(v) => Ok(*v),
            _ => Err(missing(name)),
        }
    };
    Ok((value("A")?, value("O")?))
}

pub(super) fn threadgroup_access(
    w: &mut WaveState,
    o: &Ops<'_>,
    tg: &mut [u8],
    load: bool,
) -> Result<(), Fault> {
    let format = o.field("F");
    let item_size: usize = match format {
        0 => 1,
        1 | 3 => 2,
        2 => 4,
        _ => {
            return Err(Fault::UnsupportedForm {
                what: format!("threadgroup memory format {format}"),
            })
        }
    };
    let regs = match o.op("R")? {
        Operand::Tuple(r, _) => r.clone(),
        _ => return Err(missing("R")),
    };
    let mask = o.field("mask");
    for lane in active(w) {
        let (base, index) = threadgroup_base_index(w, o, lane)?;
        let mut ri = 0;
        for i in 0..4i64 {
            if mask >> i & 1 == 0 {
                continue;
            }
            let reg = *regs.get(ri).ok_or_else(|| missing("R"))?;
            ri += 1;
            let addr = base + (index + i) * item_size as i64;
            if addr < 0 || addr as usize + item_size > tg.len() {
                return Err(Fault::ThreadgroupOutOfRange {
                    lane,
                    addr,
                    size: item_size,
                    len: tg.len(),
                });
            }
            let a = addr as usize;
            if load {
                let mut v = 0u128;
                for (k, b) in tg[a..a + item_size].iter().enumerate() {
                    v |= (*b as u128) << (8 * k);
                }
                w.write(reg, lane, v)?;
                let size = item_size as u64;
                w.record(
                    AccessKind::Load,
                    "threadgroup",
                    lane,
                    a as u64,
                    size,
                    v as u64,
                );
            } else {
                let v = w.read(reg, lane)?;
                tg[a..a + item_size].copy_from_slice(&v.to_le_bytes()[..item_size]);
                let stored = v & (u64::MAX >> (64 - 8 * item_size));
                let size = item_size as u64;
                w.record(
                    AccessKind::Store,
                    "threadgroup",
                    lane,
                    a as u64,
                    size,
                    stored,
                );
            }
        }
    }
    Ok(())
}

/// `st_var` / `st_var_final`: the 32-bit register `r` of each active thread goes to vertex output slot
/// `I` (an immediate or a 16-bit register). Operands from applegpu's rows; the role (store a value to
/// an output index) is Mesa's `st_vary` (`agx_opcodes.py`: sources index and value). The outputs are
/// collected in `WaveState::varyings` for the vertex runner.
pub(super) fn store_varying(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    let value = match o.op("r")? {
        Operand::Reg(r, _) => *r,
        _ => return Err(missing("r")),
    };
    if w.no_varyings {
        return Err(Fault::UnsupportedForm {
            what: "st_var after no_var (the shader declared that it writes no varyings)".into(),
        });
    }
    for lane in active(w) {
        let slot = match o.op("I")? {
            Operand::Imm(v) => *v as u32,
            Operand::Reg(r, _) => w.read(*r, lane)? as u32,
            _ => return Err(missing("I")),
        };
        let v = w.read(value, lane)? as u32;
        w.varyings.push((lane, slot, v));
    }
    Ok(())
}
