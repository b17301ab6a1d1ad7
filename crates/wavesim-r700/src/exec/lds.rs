//! Local data share reads and writes (MEM_DSW / MEM_DSR).

use super::*;

/// DS_LOCAL_WRITE (MEM_DSW) and DS_LOCAL_READ (MEM_DSR), R700 ISA reference 2.6.2 "Local data share"
/// and the R700 ISA reference (2.5 Program State) ("LDS: owner writes, everyone reads"; 16 KB).
///
/// Write: each active thread writes the four dwords of its source selects to bank `thread_id mod 4`
/// at `bank_offset = (thread_id >> 2) * DST_STRIDE + DST_INDEX` (ISA 2.6.2; DST_STRIDE 4..64 and
/// DST_INDEX 0..60 dwords, multiples of 4). A thread can only reach its own slots: the address comes
/// from the instruction and its own id, never from a register (the owner-writes rule). The bank is
/// thread_id mod 4 because the formula steps the offset once per four threads and 4 banks x 1024
/// dwords is the 16 KB the ISA gives (DST_STRIDE 64 x 16 quads = 1024).
/// SIMD_WAVE_REL: 0 = thread id within the wavefront, 1 = relative to the first thread of the group;
/// wavesim runs one wavefront per group, so both are the lane index.
///
/// Read: each active thread reads the aligned four-dword entry at (bank id = first address select,
/// dword bank offset = second) of its source GPR (ISA 2.6.2, DSR_MUX_NONE: "any aligned four-dword
/// entry"), writing the components whose DST_WR_* bits are set.
pub(super) fn run_lds(
    ctx: &mut Ctx,
    w: &mut Wave,
    f: &FetchInst,
    write: bool,
) -> Result<(), ExecError> {
    use crate::decode::bits;
    let text = crate::text::fetch_text(f);
    let loc = |l: Option<usize>| ctx.loc(Some(f.addr), None, text.clone(), l);
    let wd = &f.w;
    let not_modelled = |what: &str, why: &str| ExecError::NotModelled {
        loc: loc(None),
        what: what.into(),
        why: why.into(),
    };
    let src_gpr = bits(wd[0], 11, 7) as usize;
    let temp_base = 128 - ctx.drv.clause_temp_gprs;
    let check_gpr = |g: usize| -> Result<(), ExecError> {
        if g as u32 >= temp_base || (ctx.drv.num_gprs != 0 && g as u32 >= ctx.drv.num_gprs) {
            return Err(fault(
                loc(None),
                format!("LDS access uses T{g}, outside the program's GPRs or a clause temporary"),
            ));
        }
        Ok(())
    };
    check_gpr(src_gpr)?;
    if bits(wd[0], 18, 2) != 0 {
        return Err(not_modelled(
            "LDS SRC_REL_MODE",
            "relative LDS source GPRs are not modelled",
        ));
    }
    if bits(wd[2], 0, 4) != 0 {
        return Err(not_modelled(
            "LDS BURST_CNT",
            "the R700 ISA text wavesim uses does not define LDS bursts",
        ));
    }
    if write {
        lds_write(w, wd, src_gpr, &loc)
    } else {
        lds_read(w, wd, src_gpr, &loc, &check_gpr)
    }
}

/// DS_LOCAL_WRITE: each active thread writes four selected components of SRC_GPR to its own bank
/// (lane mod 4) at (lane / 4) * DST_STRIDE + DST_INDEX.
fn lds_write(
    w: &mut Wave,
    wd: &[u32],
    src_gpr: usize,
    loc: &impl Fn(Option<usize>) -> Location,
) -> Result<(), ExecError> {
    use crate::decode::bits;
    let not_modelled = |what: &str, why: &str| ExecError::NotModelled {
        loc: loc(None),
        what: what.into(),
        why: why.into(),
    };
    let index = bits(wd[1], 0, 6) as usize;
    let stride = bits(wd[1], 16, 7) as usize;
    if bits(wd[1], 6, 2) != 0 || bits(wd[1], 23, 2) != 0 {
        return Err(not_modelled(
            "DST_INDEX_EXT/DST_STRIDE_EXT",
            "the R700 ISA text gives DST_INDEX 0..60 and DST_STRIDE 4..64 only",
        ));
    }
    // Legal values (ISA 2.6.2): stride 4, 8, ..., 64; index multiples of 4 up to 60.
    if stride == 0 || stride > 64 || !stride.is_multiple_of(4) {
        return Err(fault(
            loc(None),
            format!("DST_STRIDE {stride} is not a legal LDS stride (4, 8, ..., 64 dwords)"),
        ));
    }
    if index > 60 || !index.is_multiple_of(4) {
        return Err(fault(
            loc(None),
            format!("DST_INDEX {index} is not a legal LDS index (0, 4, ..., 60 dwords)"),
        ));
    }
    let sels = [
        bits(wd[0], 20, 3),
        bits(wd[0], 23, 3),
        bits(wd[0], 26, 3),
        bits(wd[0], 29, 3),
    ];
    let lds = w.lds.get_or_insert_with(|| {
        Box::new(Lds {
            data: vec![0; LDS_BANKS * LDS_BANK_DWORDS],
            written: vec![false; LDS_BANKS * LDS_BANK_DWORDS],
        })
    });
    for l in 0..w.lanes {
        if w.state[l] != PixelState::Active {
            continue;
        }
        let bank = l % LDS_BANKS;
        let offset = (l >> 2) * stride + index;
        if offset + 4 > LDS_BANK_DWORDS {
            return Err(fault(
                loc(Some(l)),
                format!(
                    "LDS write at bank {bank} dword {offset} is past the 16 KB local data share"
                ),
            ));
        }
        for (k, s) in sels.iter().enumerate() {
            let v = match s {
                0..=3 => w.gpr[src_gpr][*s as usize][l],
                4 => 0,
                5 => ONE_F,
                _ => {
                    return Err(fault(
                        loc(Some(l)),
                        format!("LDS write source select {s} is reserved"),
                    ))
                }
            };
            let a = bank * LDS_BANK_DWORDS + offset + k;
            lds.data[a] = v;
            lds.written[a] = true;
            // Observers see byte addresses: bank b's dword d is byte 4 * (1024 b + d).
            record_access(
                &mut w.accesses,
                AccessKind::Store,
                "lds",
                l,
                4 * a as u64,
                4,
                v.into(),
            );
        }
    }
    Ok(())
}

/// DS_LOCAL_READ: each active thread reads the aligned four-dword entry its address selects name.
fn lds_read(
    w: &mut Wave,
    wd: &[u32],
    src_gpr: usize,
    loc: &impl Fn(Option<usize>) -> Location,
    check_gpr: &impl Fn(usize) -> Result<(), ExecError>,
) -> Result<(), ExecError> {
    use crate::decode::bits;
    let not_modelled = |what: &str, why: &str| ExecError::NotModelled {
        loc: loc(None),
        what: what.into(),
        why: why.into(),
    };
    let dst_gpr = bits(wd[1], 0, 7) as usize;
    check_gpr(dst_gpr)?;
    if bits(wd[1], 7, 2) != 0 {
        return Err(not_modelled(
            "LDS DST_REL_MODE",
            "relative LDS destination GPRs are not modelled",
        ));
    }
    if bits(wd[0], 26, 6) != 0 {
        return Err(not_modelled(
            "LDS RD_OFFSET",
            "the R700 ISA text wavesim uses does not say how RD_OFFSET enters the read address",
        ));
    }
    if bits(wd[1], 16, 1) != 0 {
        return Err(not_modelled(
            "LDS broadcast read",
            "the R700 ISA text wavesim uses does not give the broadcast read's address rule in full",
        ));
    }
    // WATERFALL only serialises the four threads of a pass (ISA 2.6.2): no visible effect.
    // MUX_CNTL: the ISA lists DSR_MUX_NONE, DSR_MUX_FFT_PERMUTE, DSR_MUX_WORD_SELECT; wavesim takes
    // them as 0, 1, 2 in that order (assumption: the sources used do not print the numbers).
    match bits(wd[1], 20, 3) {
        0 => {}
        1 => {
            return Err(not_modelled(
                "DSR_MUX_FFT_PERMUTE",
                "the butterfly permutation is not defined in the sources wavesim uses",
            ))
        }
        2 => {
            return Err(not_modelled(
                "DSR_MUX_WORD_SELECT",
                "which GPR component a single-dword read fills is not defined in the sources wavesim uses",
            ))
        }
        m => return Err(fault(loc(None), format!("LDS MUX_CNTL {m} is reserved"))),
    }
    let sels = [bits(wd[0], 20, 3), bits(wd[0], 23, 3)];
    let wr: Vec<usize> = (0..4)
        .filter(|k| bits(wd[1], 9 + *k as u32, 1) != 0)
        .collect();
    let mut out = Vec::new();
    for l in 0..w.lanes {
        if w.state[l] != PixelState::Active {
            continue;
        }
        let mut addr = [0u32; 2];
        for (k, s) in sels.iter().enumerate() {
            addr[k] = match s {
                0..=3 => w.gpr[src_gpr][*s as usize][l],
                _ => {
                    return Err(fault(
                        loc(Some(l)),
                        format!("LDS read address select {s} is not a GPR component"),
                    ))
                }
            };
        }
        let (bank, offset) = (addr[0] as usize, addr[1] as usize);
        if bank >= LDS_BANKS {
            return Err(fault(
                loc(Some(l)),
                format!("LDS read names bank {bank}; the local data share has banks 0..3"),
            ));
        }
        if !offset.is_multiple_of(4) || offset + 4 > LDS_BANK_DWORDS {
            return Err(fault(
                loc(Some(l)),
                format!("LDS read at bank {bank} dword {offset} is not an aligned four-dword entry inside the 16 KB local data share"),
            ));
        }
        let base = bank * LDS_BANK_DWORDS + offset;
        let lds = w.lds.as_ref();
        let mut v = [0u32; 4];
        for (k, slot) in v.iter_mut().enumerate() {
            match lds {
                Some(m) if m.written[base + k] => *slot = m.data[base + k],
                _ => {
                    return Err(fault(
                        loc(Some(l)),
                        format!(
                            "LDS read of bank {bank} dword {} that no thread has written",
                            offset + k
                        ),
                    ))
                }
            }
        }
        for (k, &x) in v.iter().enumerate() {
            w.record(AccessKind::Load, "lds", l, 4 * (base + k) as u64, x);
        }
        out.push((l, v));
    }
    for (l, v) in out {
        for k in &wr {
            w.gpr[dst_gpr][*k][l] = v[*k];
        }
    }
    Ok(())
}
