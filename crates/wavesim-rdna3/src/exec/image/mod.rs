//! MIMG: image loads, stores, atomics, resinfo and sampling with T# and S# descriptors (RDNA3 ISA
//! chapter 10 "Vector Memory Image Instructions").
//!
//! - Address VGPRs (10.2/10.3 tables): loads/stores/atomics take unsigned integer coordinates
//!   (s, t / s, slice / s, t, slice) and the *_MIP forms a mip index after them; sampling takes
//!   float coordinates, after the bias (SAMPLE_B) and before the LOD (SAMPLE_L). NSA encodings
//!   name the address VGPRs one by one; 3D images take (s, t, r), cubes (s, t, face). A16, G16,
//!   TFE/LWE, MSAA and gathers other than GATHER4_LZ(_O) are refused with an error naming them.
//! - Data (10.4): loads return the components DMASK selects (after the T#'s dst_sel) to
//!   consecutive VGPRs (D16: two per VGPR, low half first); stores take the DMASK-enabled
//!   components from consecutive VGPRs, missing ones are zero. Atomics act on 32-bit formats
//!   (DMASK 0x1, cmpswap 0x3: data then compare value) and return the pre-op value with GLC.
//! - Out of range: a coordinate or mip outside the view reads zeros and is not written (the
//!   texture unit's bounds check); an unbound T# (all zeros) reads zeros and writes nothing
//!   (Table 50). A texel outside device memory is a memory fault naming lane and address.
//! - Every image load/sample/returning atomic counts in VM_CNT, stores and other atomics in
//!   VS_CNT.

#![allow(clippy::needless_range_loop)] // lane loops index several per-lane arrays

pub mod formats;
pub mod host;
pub mod htile;
pub mod mip_tail;
pub mod msaa;
pub mod resource;
pub mod sample;
pub mod sampler;
pub mod swizzle;

use crate::decode::{iflags, opnd, Inst};
use crate::exec::operand::vdst_in_range;
use crate::exec::{op_name, Ctx, ExecError, Flow, Handler};
use crate::isa::Op;
use crate::wave::{Wave, LANES};
use formats::{Format, Kind};
use resource::{ty, ImageResource};

pub fn handler(op: Op) -> Option<Handler> {
    use Op::*;
    Some(match op {
        IMAGE_LOAD | IMAGE_LOAD_MIP => load,
        IMAGE_STORE | IMAGE_STORE_MIP => store,
        IMAGE_GET_RESINFO => resinfo,
        IMAGE_ATOMIC_SWAP | IMAGE_ATOMIC_CMPSWAP | IMAGE_ATOMIC_ADD | IMAGE_ATOMIC_SUB
        | IMAGE_ATOMIC_SMIN | IMAGE_ATOMIC_UMIN | IMAGE_ATOMIC_SMAX | IMAGE_ATOMIC_UMAX
        | IMAGE_ATOMIC_AND | IMAGE_ATOMIC_OR | IMAGE_ATOMIC_XOR | IMAGE_ATOMIC_INC
        | IMAGE_ATOMIC_DEC => atomic,
        IMAGE_SAMPLE | IMAGE_SAMPLE_L | IMAGE_SAMPLE_B | IMAGE_SAMPLE_LZ | IMAGE_SAMPLE_D
        | IMAGE_SAMPLE_O | IMAGE_SAMPLE_L_O | IMAGE_SAMPLE_B_O | IMAGE_SAMPLE_LZ_O
        | IMAGE_SAMPLE_D_O | IMAGE_SAMPLE_C | IMAGE_SAMPLE_C_L | IMAGE_SAMPLE_C_B
        | IMAGE_SAMPLE_C_LZ | IMAGE_SAMPLE_C_D | IMAGE_SAMPLE_C_O | IMAGE_SAMPLE_C_L_O
        | IMAGE_SAMPLE_C_B_O | IMAGE_SAMPLE_C_LZ_O | IMAGE_SAMPLE_C_D_O => sample::sample,
        IMAGE_GATHER4_LZ | IMAGE_GATHER4_LZ_O => sample::gather4_lz,
        _ => return None,
    })
}

pub(crate) fn other(inst: &Inst, what: &str) -> ExecError {
    ExecError::Other(format!("{}: {what}", op_name(inst)))
}

/// Fields wavesim does not emulate, refused by name.
pub(crate) fn refuse_unsupported(inst: &Inst) -> Result<(), ExecError> {
    for (flag, name) in [
        (iflags::A16, "a16 (16-bit addresses)"),
        (iflags::TFE, "tfe (texture fault status)"),
        (iflags::LDS, "lwe (LOD warning status)"),
    ] {
        if inst.flags & flag != 0 {
            return Err(other(inst, &format!("{name} is not emulated")));
        }
    }
    Ok(())
}

/// The VGPR holding address component `k`.
pub(crate) fn addr_vgpr(inst: &Inst, k: usize) -> usize {
    let v0 = (inst.src[0] - opnd::VGPR0) as usize;
    if inst.flags & iflags::NSA == 0 {
        return v0 + k;
    }
    match k {
        0 => v0,
        1..=3 => (inst.lit >> (8 * (k - 1)) & 0xff) as usize,
        _ => (inst.lit >> 24) as usize + (k - 4),
    }
}

pub(crate) fn dim(inst: &Inst) -> u32 {
    inst.imm2 >> 4 & 7
}

pub(crate) fn dmask(inst: &Inst) -> u32 {
    inst.imm2 & 0xf
}

/// The T# (128 or 256 bits per R128).
pub(crate) fn resource(w: &Wave, inst: &Inst) -> Result<ImageResource, ExecError> {
    let n = if inst.flags & iflags::R128 != 0 { 4 } else { 8 };
    let s = inst.src[1] as usize;
    let d: Vec<u32> = (0..n)
        .map(|k| w.sgpr.get(s + k).copied().unwrap_or(0))
        .collect();
    ImageResource::parse(&d)
}

/// The address components an instruction's DIM names (RDNA3 ISA 10.3, MIMG DIM: 0 1D, 1 2D,
/// 2 3D, 3 cube, 4 1D array, 5 2D array; 6 and 7 MSAA are refused).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Dims {
    /// Spatial coordinates: 1 (s), 2 (s, t) or 3 (s, t, r).
    pub n: usize,
    /// A slice coordinate follows: the array slice, or a cube's face (8 * cube + face).
    pub layer: bool,
    pub cube: bool,
}

pub(crate) fn dims(inst: &Inst) -> Result<Dims, ExecError> {
    let d = |n, layer, cube| Dims { n, layer, cube };
    Ok(match dim(inst) {
        0 => d(1, false, false),
        1 => d(2, false, false),
        2 => d(3, false, false),
        3 => d(2, true, true),
        4 => d(1, true, false),
        5 => d(2, true, false),
        d => return Err(other(inst, &format!("dim {d} (MSAA) is not emulated"))),
    })
}

/// A lane's integer texel coordinates: x, y, slice, and the mip (relative to the base level)
/// or, for the MSAA dims (6: 2D MSAA, 7: 2D MSAA array; RDNA3 ISA 10.3), the fragment (sample)
/// index, which follows the slice. An MSAA dim needs a multisampled T# and the other dims a
/// single-sampled one (exec::image::msaa).
fn int_coords(
    w: &Wave,
    inst: &Inst,
    l: usize,
    mip: bool,
    r: &ImageResource,
) -> Result<[u32; 4], ExecError> {
    // A 3D image's z and a cube's face address the resource's slices (the face of a cube is
    // its 2D-array slice: 6 per cube).
    let msaa = matches!(dim(inst), 6 | 7);
    let d = if msaa {
        Dims {
            n: 2,
            layer: dim(inst) == 7,
            cube: false,
        }
    } else {
        dims(inst)?
    };
    if !r.unbound && msaa != r.msaa.is_some() {
        return Err(other(
            inst,
            &format!(
                "dim {} with a T# of type {} (MSAA dims address multisampled images only)",
                dim(inst),
                r.ty
            ),
        ));
    }
    if msaa && mip {
        return Err(other(inst, "a mip level of a multisampled image"));
    }
    let mut k = 0;
    let mut next = || {
        let v = w.vgpr_get(addr_vgpr(inst, k), l);
        k += 1;
        v
    };
    let x = next();
    let y = if d.n >= 2 { next() } else { 0 };
    let slice = if d.n == 3 || d.layer { next() } else { 0 };
    let m = if mip || msaa { next() } else { 0 };
    Ok([x, y, slice, m])
}

/// The byte address of a texel, or None when outside the view.
fn texel(r: &ImageResource, c: [u32; 4], bpp: u64) -> Option<u64> {
    if let Some(m) = &r.msaa {
        let slice = r.base_array.checked_add(c[2])?;
        if c[0] >= r.width || c[1] >= r.height || slice >= r.slices || c[3] >= m.samples {
            return None;
        }
        return Some(m.texel_addr(r.base, slice, c[0], c[1], c[3]));
    }
    let level = r.base_level.checked_add(c[3])?;
    if level > r.last_level || level > r.max_mip {
        return None;
    }
    let (w, h) = r.mip_dims(level);
    let slice = r.base_array.checked_add(c[2])?;
    if c[0] >= w || c[1] >= h || slice >= r.slices {
        return None;
    }
    Some(r.texel_addr(level, slice, c[0], c[1], bpp))
}

/// Writes to an image with TC-compatible HTILE would have to update its HTILE: RADV never
/// gives storage images HTILE (`radv_use_tc_compat_htile_for_image`), so they are refused.
fn refuse_htile_write(inst: &Inst, r: &ImageResource) -> Result<(), ExecError> {
    if r.htile.is_some() {
        return Err(other(
            inst,
            "a write to an image with TC-compatible HTILE (COMPRESSION_EN): not emulated",
        ));
    }
    Ok(())
}

fn fault(l: usize, addr: u64, size: u64, kind: &'static str) -> ExecError {
    ExecError::MemoryFault {
        lane: l as u32,
        addr,
        size: size as u32,
        kind,
    }
}

/// Applies dst_sel to a decoded texel (0 -> 0, 1 -> one, 4-7 -> R, G, B, A).
pub(crate) fn swizzle(r: &ImageResource, f: &Format, c: [u32; 4]) -> [u32; 4] {
    let one = if f.kind == Kind::Float {
        1f32.to_bits()
    } else {
        1
    };
    r.dst_sel.map(|s| match s {
        1 => one,
        4..=7 => c[(s - 4) as usize],
        _ => 0,
    })
}

/// Writes the DMASK-selected components of each lane's RGBA to the destination VGPRs.
pub(crate) fn write_result(
    w: &mut Wave,
    inst: &Inst,
    out: &[[u32; 4]; LANES],
    exec: u64,
    float: bool,
) {
    let d16 = inst.flags & iflags::D16 != 0;
    let dm = dmask(inst);
    let base = (inst.dst[0] - opnd::VGPR0) as usize;
    let comps: Vec<usize> = (0..4).filter(|c| dm >> c & 1 != 0).collect();
    for l in 0..w.lanes() {
        if exec >> l & 1 == 0 {
            continue;
        }
        if d16 {
            for (j, pair) in comps.chunks(2).enumerate() {
                let h = |c: usize| {
                    if float {
                        half::f16::from_f32(f32::from_bits(out[l][c])).to_bits() as u32
                    } else {
                        out[l][c] & 0xffff
                    }
                };
                let lo = h(pair[0]);
                let hi = pair.get(1).map_or(0, |&c| h(c));
                w.vgpr_set(base + j, l, lo | hi << 16);
            }
        } else {
            for (j, &c) in comps.iter().enumerate() {
                w.vgpr_set(base + j, l, out[l][c]);
            }
        }
    }
}

fn data_dwords(inst: &Inst) -> usize {
    (inst.imm2 >> 8 & 0xf) as usize
}

fn load(w: &mut Wave, inst: &Inst, ctx: &mut Ctx) -> Result<Flow, ExecError> {
    refuse_unsupported(inst)?;
    w.cnt.vm_issue();
    let r = resource(w, inst)?;
    let exec = w.exec();
    if !vdst_in_range(w, inst.dst[0], data_dwords(inst)) {
        return Ok(Flow::Next);
    }
    let mip = inst.op == Op::IMAGE_LOAD_MIP;
    let mut out = [[0u32; 4]; LANES];
    let f = if r.unbound {
        None
    } else {
        Some(Format::of(r.format)?)
    };
    for l in 0..w.lanes() {
        if exec >> l & 1 == 0 {
            continue;
        }
        let c = int_coords(w, inst, l, mip, &r)?;
        let Some(f) = f else { continue };
        if let Some(a) = texel(&r, c, f.bytes) {
            let mut b = [0u8; 16];
            let b = &mut b[..f.bytes as usize];
            let xyz = (c[0], c[1], r.base_array + c[2]);
            htile::read_texel(ctx.mem, r.htile.as_ref(), xyz, a, b, |a, n| {
                fault(l, a, n, "image_load")
            })?;
            out[l] = swizzle(&r, &f, f.decode(b));
        }
    }
    let float = f.is_none_or(|f| f.kind == Kind::Float);
    write_result(w, inst, &out, exec, float);
    Ok(Flow::Next)
}

fn store(w: &mut Wave, inst: &Inst, ctx: &mut Ctx) -> Result<Flow, ExecError> {
    refuse_unsupported(inst)?;
    w.cnt.vs_issue();
    let r = resource(w, inst)?;
    if r.unbound {
        return Ok(Flow::Next);
    }
    refuse_htile_write(inst, &r)?;
    let f = Format::of(r.format)?;
    let exec = w.exec();
    let mip = inst.op == Op::IMAGE_STORE_MIP;
    let d16 = inst.flags & iflags::D16 != 0;
    let dm = dmask(inst);
    let base = (inst.dst[0] - opnd::VGPR0) as usize;
    // All lanes are checked before any is written.
    let mut plan = Vec::new();
    for l in 0..w.lanes() {
        if exec >> l & 1 == 0 {
            continue;
        }
        let c = int_coords(w, inst, l, mip, &r)?;
        let Some(a) = texel(&r, c, f.bytes) else {
            continue;
        };
        if ctx.mem.find(a, f.bytes).is_err() {
            return Err(fault(l, a, f.bytes, "image_store"));
        }
        let mut rgba = [0u32; 4];
        let mut j = 0;
        for (c, x) in rgba.iter_mut().enumerate() {
            if dm >> c & 1 == 0 {
                continue;
            }
            *x = if d16 {
                let v = w.vgpr_get(base + j / 2, l) >> (16 * (j % 2)) & 0xffff;
                // D16 integer data is zero- or sign-extended per the format (as buffer
                // stores: exec::buffer::formats::store_val).
                match f.kind {
                    Kind::Float => half::f16::from_bits(v as u16).to_f32().to_bits(),
                    Kind::Sint => v as u16 as i16 as i32 as u32,
                    Kind::Uint => v,
                }
            } else {
                w.vgpr_get(base + j, l)
            };
            j += 1;
        }
        plan.push((a, f.encode(rgba)));
    }
    for (a, bytes) in plan {
        ctx.mem
            .write(a, &bytes)
            .map_err(|_| fault(0, a, f.bytes, "image_store"))?;
    }
    Ok(Flow::Next)
}

fn resinfo(w: &mut Wave, inst: &Inst, _: &mut Ctx) -> Result<Flow, ExecError> {
    // RDNA3 ISA 16.18 IMAGE_GET_RESINFO: width, height, depth (slices) and mip count of the
    // mip level in the address VGPR, for the resource view.
    refuse_unsupported(inst)?;
    w.cnt.vm_issue();
    let r = resource(w, inst)?;
    let exec = w.exec();
    if !vdst_in_range(w, inst.dst[0], data_dwords(inst)) {
        return Ok(Flow::Next);
    }
    let mut out = [[0u32; 4]; LANES];
    for l in 0..w.lanes() {
        if exec >> l & 1 == 0 || r.unbound {
            continue;
        }
        let mip = w.vgpr_get(addr_vgpr(inst, 0), l);
        let level = r.base_level.saturating_add(mip);
        let (mw, mh) = r.mip_dims(level.min(31));
        // A cube reports its cube count (slices / 6), a 3D image its depth.
        let depth = match r.ty {
            ty::D1_ARRAY | ty::D2_ARRAY | ty::D3 => r.slices,
            ty::CUBE => r.slices / 6,
            _ => 1,
        };
        out[l] = if level > r.last_level {
            [0, 0, 0, r.view_levels()]
        } else {
            let h = if matches!(r.ty, ty::D1_ARRAY) {
                r.slices
            } else {
                mh
            };
            [mw, h, depth, r.view_levels()]
        };
    }
    write_result(w, inst, &out, exec, false);
    Ok(Flow::Next)
}

fn atomic(w: &mut Wave, inst: &Inst, ctx: &mut Ctx) -> Result<Flow, ExecError> {
    refuse_unsupported(inst)?;
    let glc = inst.flags & iflags::GLC != 0;
    if glc {
        w.cnt.vm_issue();
    } else {
        w.cnt.vs_issue();
    }
    let r = resource(w, inst)?;
    let cmpswap = inst.op.facts().mimg.map(|m| m.kind) == Some(crate::isa::MimgKind::AtomicCmpswap);
    let want_dmask = if cmpswap { 0x3 } else { 0x1 };
    if dmask(inst) != want_dmask {
        return Err(other(
            inst,
            "DMASK must be 0x1 (0x3 for cmpswap) for 32-bit atomics (ISA 10.4)",
        ));
    }
    if r.unbound {
        return Ok(Flow::Next);
    }
    refuse_htile_write(inst, &r)?;
    let f = Format::of(r.format)?;
    if f.bytes != 4 || f.comps != 1 {
        return Err(other(
            inst,
            "image atomics need a 32-bit single-component format",
        ));
    }
    // The table's `atom` fact (every image atomic row has one; RDNA3 ISA "Image Instructions").
    let Some(op) = inst.op.facts().atomic else {
        return Err(other(inst, "no atomic operation in the instruction table"));
    };
    let exec = w.exec();
    let base = (inst.dst[0] - opnd::VGPR0) as usize;
    let mut plan = Vec::new();
    for l in 0..w.lanes() {
        if exec >> l & 1 == 0 {
            continue;
        }
        let c = int_coords(w, inst, l, false, &r)?;
        let Some(a) = texel(&r, c, 4) else { continue };
        if ctx.mem.find(a, 4).is_err() {
            return Err(fault(l, a, 4, op_name(inst)));
        }
        plan.push((l, a));
    }
    let returns = glc && vdst_in_range(w, inst.dst[0], 1);
    for (l, a) in plan {
        let src = w.vgpr_get(base, l);
        let cmp = if cmpswap { w.vgpr_get(base + 1, l) } else { 0 };
        // The hardware's cmpswap takes the data then the compare value (ISA 10.4: DMASK 0x3).
        let old = ctx
            .mem
            .atomic32(a, op, src, cmp)
            .map_err(|_| fault(l, a, 4, op_name(inst)))?;
        if returns {
            w.vgpr_set(base, l, old);
        }
    }
    Ok(Flow::Next)
}
