//! CF export instructions: pixel, position and parameter exports and memory writes (CF_ALLOC_EXPORT).

use super::*;

pub(super) fn do_export(
    ctx: &Ctx,
    w: &mut Wave,
    c: &CfInst,
    r: &crate::isa::ExportRow,
) -> Result<(), ExecError> {
    use crate::decode::bits;
    let base = bits(c.w0, 0, 13);
    let ty = bits(c.w0, 13, 2);
    let mut gpr = bits(c.w0, 15, 7);
    // RW_REL (CF_ALLOC_EXPORT_WORD0 bit 22): 1 = RW_GPR is relative to the loop index aL (R700 ISA
    // reference, CF_ALLOC_EXPORT_WORD0).
    if bits(c.w0, 22, 1) != 0 {
        let al = w.al.ok_or_else(|| {
            fault(
                cf_loc(ctx, c),
                "RW_REL export outside a loop that sets aL (no loop index to add)",
            )
        })?;
        let e = gpr as i64 + al as i64;
        if !(0..128).contains(&e) {
            return Err(fault(
                cf_loc(ctx, c),
                format!("export GPR T{gpr} + aL ({al}) = {e} is outside the GPRs"),
            ));
        }
        gpr = e as u32;
    }
    let burst = bits(c.w1, 17, 4) + 1;
    let vpm = c.valid_pixel_mode();
    let temp_base = 128 - ctx.drv.clause_temp_gprs;
    for b in 0..burst {
        let g = gpr + b;
        if g >= temp_base
            || g as usize >= MAX_GPR
            || (ctx.drv.num_gprs != 0 && g >= ctx.drv.num_gprs)
        {
            return Err(fault(
                cf_loc(ctx, c),
                format!("export reads T{g}, outside the program's GPRs (or a clause temporary)"),
            ));
        }
        for l in 0..w.lanes {
            let on = if vpm { w.valid(l) } else { w.active(l) };
            if !on {
                continue;
            }
            let read = |ch: usize| w.gpr[g as usize][ch][l];
            let (target, value) = match r.kind {
                ExportKind::Swizzle => {
                    let mut v = [None; 4];
                    for (k, item) in v.iter_mut().enumerate() {
                        *item = match bits(c.w1, 3 * k as u32, 3) {
                            s @ 0..=3 => Some(read(s as usize)),
                            4 => Some(0),
                            5 => Some(ONE_F),
                            7 => None,
                            s => {
                                return Err(fault(
                                    cf_loc(ctx, c),
                                    format!("export swizzle select {s} is reserved"),
                                ));
                            }
                        };
                    }
                    let t = match ty {
                        0 => ExportTarget::Pixel(base + b),
                        // Position exports use array bases 60..63 (R700 ISA reference, EXPORT).
                        1 if base >= 60 => ExportTarget::Position(base - 60 + b),
                        1 => {
                            return Err(fault(
                                cf_loc(ctx, c),
                                format!("position export with array base {base} (60..63 expected)"),
                            ));
                        }
                        2 => ExportTarget::Parameter(base + b),
                        _ => ExportTarget::Other(ty, base + b),
                    };
                    (t, v)
                }
                ExportKind::Buffer => {
                    if ty & 1 != 0 {
                        return Err(ExecError::NotModelled {
                            loc: cf_loc(ctx, c),
                            what: "indexed memory export".into(),
                            why: "WRITE_IND/READ_IND memory exports are not modelled".into(),
                        });
                    }
                    let mask = bits(c.w1, 12, 4);
                    let mut v = [None; 4];
                    for (k, item) in v.iter_mut().enumerate() {
                        if mask >> k & 1 != 0 {
                            *item = Some(read(k));
                        }
                    }
                    let t = match r.stream {
                        Some(s) => ExportTarget::Stream(s as u32, base + b),
                        None => ExportTarget::Other(r.opcode as u32, base + b),
                    };
                    (t, v)
                }
            };
            if w.accesses.is_some() {
                record_export(w, l, target, &value);
            }
            w.exports[l].push(Export { target, value });
        }
    }
    Ok(())
}

/// An export as stores for observers, one per written component: pixel, position and parameter
/// exports as spaces `pixel`, `pos`, `param` (byte address 16 * target index + 4 * component), a
/// memory stream or other memory export as `stream<s>` / `mem` (16 * (array base + burst element)
/// + 4 * component).
fn record_export(w: &mut Wave, lane: usize, target: ExportTarget, value: &[Option<u32>; 4]) {
    let (space, n) = match target {
        ExportTarget::Pixel(n) => ("pixel", n),
        ExportTarget::Position(n) => ("pos", n),
        ExportTarget::Parameter(n) => ("param", n),
        ExportTarget::Stream(s, n) => (numbered_space("stream", s), n),
        ExportTarget::Other(_, n) => ("mem", n),
    };
    for (k, v) in value.iter().enumerate() {
        if let Some(v) = v {
            w.record(
                AccessKind::Store,
                space,
                lane,
                16 * n as u64 + 4 * k as u64,
                *v,
            );
        }
    }
}
