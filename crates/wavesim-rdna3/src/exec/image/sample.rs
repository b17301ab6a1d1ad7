//! IMAGE_SAMPLE, _L, _B, _LZ and _D, and IMAGE_GATHER4_LZ, on 1D/2D (array) images (RDNA3 ISA
//! 10.3, 10.6; 16.18).
//!
//! - Addresses (10.3/10.4): [bias (SAMPLE_B)] [derivatives (SAMPLE_D): ds/dx, dt/dx, ds/dy,
//!   dt/dy, the order of LLVM's `llvm.amdgcn.image.sample.d` (dsdh, dtdh, dsdv, dtdv); 1D: ds/dx,
//!   ds/dy] s [t] [slice] [lod (SAMPLE_L)], f32. Coordinates
//!   are normalized unless the instruction's UNORM bit or the S#'s force_unnormalized is set; the
//!   array slice is rounded to nearest even and clamped to the view.
//! - LOD: SAMPLE_LZ 0, SAMPLE_L the given LOD, SAMPLE and SAMPLE_B the implicit LOD from the
//!   quad (lanes 4q..4q+3 hold a 2x2 pixel quad: lane 1 - lane 0 is d/dx, lane 2 - lane 0 is
//!   d/dy), SAMPLE_D the same from the given derivatives: log2(max(|(du/dx, dv/dx)|,
//!   |(du/dy, dv/dy)|)) in texels of the base level, plus the SAMPLE_B bias and the S#'s LOD
//!   bias, clamped to [min_lod, max_lod].
//! - GATHER4_LZ (level: the base level) returns, of the one component DMASK names, the four
//!   texels bilinear filtering would weigh, in four VGPRs: (i0, j1), (i1, j1), (i1, j0),
//!   (i0, j0), where (i0, j0) is the texel left above (u - 0.5, v - 0.5) in texel space and
//!   i1 = i0 + 1, j1 = j0 + 1, each wrapped by the S#'s addressing mode. The guide names the
//!   gather but not the order; this is Vulkan's (specification, "Texel Gathering") and ACO
//!   passes the hardware's four values to textureGather unreordered. DMASK selects after
//!   dst_sel is applied only in the identity case: a T# with another dst_sel is refused, as is
//!   a DMASK naming other than one component. GATHER4_LZ_O takes texel offsets before the
//!   coordinates, in one VGPR: signed 6-bit x in bits 5:0 and y in bits 13:8 (the packing of
//!   ACO's `visit_tex`, aco_instruction_selection.cpp), added to i0 and j0. The quad's coordinate
//!   VGPRs are read whatever EXEC says (shaders run sampling in whole-quad mode).
//! - Filters: LOD <= 0 uses the magnification filter, else the minification filter (point or
//!   bilinear). Mip filter none uses the base level, point the nearest level
//!   (floor(lod + 0.5)), linear blends the two nearest levels. Bilinear: texel space u - 0.5,
//!   the four neighbours weighted by the fractions, computed in f32 in the order
//!   ((t00 (1-a) + t10 a)(1-b) + (t01 (1-a) + t11 a) b). The guide does not give the hardware's
//!   weight precision; wavesim's is f32.
//! - Addressing modes (S# clamp_x/y): Wrap, Mirror, ClampLastTexel, MirrorOnceLastTexel and
//!   ClampBorder (border: transparent black, opaque black or opaque white); the half-border and
//!   mirror-once-border modes and border colours from the pointer are refused by name.
//! - The result is f32 per component, dst_sel applied, denormals flushed ("Sample ops flush
//!   denormals", 10.4).

#![allow(clippy::needless_range_loop)] // lane loops index several per-lane arrays

use super::formats::{Format, Kind};
use super::resource::ImageResource;
use super::sampler::Sampler;
use super::{
    addr_vgpr, coord_count, dmask, other, refuse_unsupported, resource, swizzle, write_result,
};
use crate::decode::{iflags, opnd, Inst};
use crate::exec::operand::vdst_in_range;
use crate::exec::{Ctx, ExecError, Flow};
use crate::isa::Op;
use crate::wave::{Wave, LANES};

fn wrap(mode: u32, i: i64, n: i64) -> Result<Option<i64>, String> {
    Ok(match mode {
        0 => Some(i.rem_euclid(n)),
        1 => {
            let m = i.rem_euclid(2 * n);
            Some(if m >= n { 2 * n - 1 - m } else { m })
        }
        2 => Some(i.clamp(0, n - 1)),
        3 => Some((if i < 0 { -1 - i } else { i }).clamp(0, n - 1)),
        6 => (0..n).contains(&i).then_some(i),
        m => return Err(format!("S# clamp mode {m} is not emulated (0-3 and 6 are)")),
    })
}

struct Ctx2<'a> {
    r: &'a ImageResource,
    f: Format,
    s: Sampler,
    border: [f32; 4],
    mem: &'a wavesim_core::memory::DeviceMemory,
}

impl Ctx2<'_> {
    fn fetch(
        &self,
        level: u32,
        slice: u32,
        x: i64,
        y: i64,
        lane: usize,
    ) -> Result<[f32; 4], ExecError> {
        let (w, h) = self.r.mip_dims(level);
        let wx = wrap(self.s.clamp[0], x, w as i64).map_err(ExecError::Other)?;
        let wy = wrap(self.s.clamp[1], y, h as i64).map_err(ExecError::Other)?;
        let (Some(x), Some(y)) = (wx, wy) else {
            return Ok(self.border);
        };
        let a = self
            .r
            .texel_addr(level, slice, x as u32, y as u32, self.f.bytes);
        let mut b = [0u8; 16];
        let b = &mut b[..self.f.bytes as usize];
        self.mem.read(a, b).map_err(|_| ExecError::MemoryFault {
            lane: lane as u32,
            addr: a,
            size: self.f.bytes as u32,
            kind: "image_sample",
        })?;
        Ok(swizzle(self.r, &self.f, self.f.decode(b)).map(f32::from_bits))
    }

    fn filter(
        &self,
        level: u32,
        slice: u32,
        u: f32,
        v: f32,
        bilinear: bool,
        lane: usize,
    ) -> Result<[f32; 4], ExecError> {
        if !bilinear {
            return self.fetch(level, slice, u.floor() as i64, v.floor() as i64, lane);
        }
        let (uu, vv) = (u - 0.5, v - 0.5);
        let (x0, y0) = (uu.floor(), vv.floor());
        let (a, b) = (uu - x0, vv - y0);
        let (x0, y0) = (x0 as i64, y0 as i64);
        let t00 = self.fetch(level, slice, x0, y0, lane)?;
        let t10 = self.fetch(level, slice, x0.saturating_add(1), y0, lane)?;
        let t01 = self.fetch(level, slice, x0, y0.saturating_add(1), lane)?;
        let t11 = self.fetch(
            level,
            slice,
            x0.saturating_add(1),
            y0.saturating_add(1),
            lane,
        )?;
        let mut o = [0f32; 4];
        for c in 0..4 {
            let top = t00[c] * (1.0 - a) + t10[c] * a;
            let bot = t01[c] * (1.0 - a) + t11[c] * a;
            o[c] = top * (1.0 - b) + bot * b;
        }
        Ok(o)
    }
}

fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        0.0f32.copysign(x)
    } else {
        x
    }
}

/// The instruction's S# and its border colour (transparent black, opaque black or opaque
/// white; colours from the border colour pointer are refused).
fn sampler_and_border(w: &Wave, inst: &Inst) -> Result<(Sampler, [f32; 4]), ExecError> {
    let sreg = inst.src[2] as usize;
    let sd: [u32; 4] = std::array::from_fn(|k| w.sgpr.get(sreg + k).copied().unwrap_or(0));
    let s = Sampler::parse(&sd);
    let border = match s.border_color_type {
        0 => [0.0; 4],
        1 => [0.0, 0.0, 0.0, 1.0],
        2 => [1.0; 4],
        _ => {
            return Err(other(
                inst,
                "border colours from the border colour pointer are not emulated",
            ))
        }
    };
    Ok((s, border))
}

pub fn sample(w: &mut Wave, inst: &Inst, ctx: &mut Ctx) -> Result<Flow, ExecError> {
    refuse_unsupported(inst)?;
    if inst.flags & iflags::D16 != 0 {
        return Err(other(inst, "d16 sampling is not emulated"));
    }
    w.cnt.vm_issue();
    let r = resource(w, inst)?;
    let exec = w.exec();
    let ndata = dmask(inst).count_ones().max(1) as usize;
    if !vdst_in_range(w, inst.dst[0], ndata) {
        return Ok(Flow::Next);
    }
    let mut out = [[0u32; 4]; LANES];
    if r.unbound {
        write_result(w, inst, &out, exec, true);
        return Ok(Flow::Next);
    }
    let f = Format::of(r.format)?;
    if f.kind != Kind::Float {
        return Err(other(inst, "sampling an integer format"));
    }
    let (s, border) = sampler_and_border(w, inst)?;
    let (n, array) = coord_count(inst)?;
    let has_bias = inst.op == Op::IMAGE_SAMPLE_B;
    let grad = inst.op == Op::IMAGE_SAMPLE_D;
    // The derivatives come before the coordinates: two per coordinate (d/dx, then d/dy).
    let first = if grad { 2 * n } else { has_bias as usize };
    let unnorm = inst.flags & iflags::UNORM != 0 || s.force_unnormalized;
    let c2 = Ctx2 {
        r: &r,
        f,
        s,
        border,
        mem: ctx.mem,
    };
    let coord =
        |w: &Wave, k: usize, l: usize| f32::from_bits(w.vgpr_get(addr_vgpr(inst, first + k), l));
    let (bw, bh) = r.mip_dims(r.base_level);
    for l in 0..w.lanes() {
        if exec >> l & 1 == 0 {
            continue;
        }
        let su = coord(w, 0, l);
        let tv = if n == 2 { coord(w, 1, l) } else { 0.0 };
        let slice = if array {
            let sl = coord(w, n, l).round_ties_even();
            (sl.max(0.0) as u32).min(r.slices.saturating_sub(1)) + r.base_array
        } else {
            0
        };
        let lod = match inst.op {
            Op::IMAGE_SAMPLE_LZ => 0.0,
            Op::IMAGE_SAMPLE_L => coord(w, n + array as usize, l),
            _ => {
                let q = l & !3;
                let (s0, t0) = (coord(w, 0, q), if n == 2 { coord(w, 1, q) } else { 0.0 });
                // The derivatives of s and t along x (k = 1) or y (k = 2): the given ones
                // (SAMPLE_D) or the quad's differences.
                let derivs = |k: usize| -> (f32, f32) {
                    if grad {
                        let g = |j: usize| f32::from_bits(w.vgpr_get(addr_vgpr(inst, j), l));
                        let base = (k - 1) * n;
                        (g(base), if n == 2 { g(base + 1) } else { 0.0 })
                    } else {
                        (
                            coord(w, 0, q + k) - s0,
                            if n == 2 { coord(w, 1, q + k) - t0 } else { 0.0 },
                        )
                    }
                };
                let d = |k: usize| {
                    let (ds, dt) = derivs(k);
                    let du = ds as f64 * if unnorm { 1.0 } else { bw as f64 };
                    let dv = dt as f64 * if unnorm { 1.0 } else { bh as f64 };
                    (du * du + dv * dv).sqrt()
                };
                let rho = d(1).max(d(2));
                let mut lod = rho.log2() as f32;
                if has_bias {
                    lod += f32::from_bits(w.vgpr_get(addr_vgpr(inst, 0), l));
                }
                lod + c2.s.lod_bias
            }
        };
        let lod = lod.clamp(c2.s.min_lod, c2.s.max_lod.max(c2.s.min_lod));
        let bilinear = if lod <= 0.0 {
            c2.s.mag_filter
        } else {
            c2.s.min_filter
        } == 1;
        if (if lod <= 0.0 {
            c2.s.mag_filter
        } else {
            c2.s.min_filter
        }) > 1
        {
            return Err(other(inst, "anisotropic filtering is not emulated"));
        }
        let max_level = r.last_level.min(r.max_mip);
        let at = |level: u32| -> Result<[f32; 4], ExecError> {
            let (mw, mh) = r.mip_dims(level);
            let (u, v) = if unnorm {
                (su, tv)
            } else {
                (su * mw as f32, tv * mh as f32)
            };
            c2.filter(level, slice, u, v, bilinear, l)
        };
        let lodp = lod.max(0.0);
        let rgba = match c2.s.mip_filter {
            0 => at(r.base_level)?,
            1 => at((r.base_level + (lodp + 0.5).floor() as u32).min(max_level))?,
            _ => {
                let l0 = (r.base_level + lodp.floor() as u32).min(max_level);
                let l1 = (l0 + 1).min(max_level);
                let fr = lodp - lodp.floor();
                let (a, b) = (at(l0)?, at(l1)?);
                std::array::from_fn(|c| a[c] * (1.0 - fr) + b[c] * fr)
            }
        };
        out[l] = rgba.map(|x| flush(x).to_bits());
    }
    write_result(w, inst, &out, exec, true);
    let _ = opnd::VGPR0;
    Ok(Flow::Next)
}

/// IMAGE_GATHER4_LZ: see the module documentation.
pub fn gather4_lz(w: &mut Wave, inst: &Inst, ctx: &mut Ctx) -> Result<Flow, ExecError> {
    refuse_unsupported(inst)?;
    if inst.flags & iflags::D16 != 0 {
        return Err(other(inst, "d16 gathers are not emulated"));
    }
    let dm = dmask(inst);
    if dm.count_ones() != 1 {
        return Err(other(
            inst,
            &format!("DMASK {dm:#x}: a gather takes one component"),
        ));
    }
    let comp = dm.trailing_zeros() as usize;
    w.cnt.vm_issue();
    let r = resource(w, inst)?;
    let exec = w.exec();
    let base_vgpr = (inst.dst[0] - opnd::VGPR0) as usize;
    if !vdst_in_range(w, inst.dst[0], 4) {
        return Ok(Flow::Next);
    }
    let mut out = [[0u32; 4]; LANES];
    if !r.unbound {
        if r.dst_sel != [4, 5, 6, 7] {
            return Err(other(
                inst,
                &format!(
                    "a gather from a T# with dst_sel {:?} (only the identity is emulated)",
                    r.dst_sel
                ),
            ));
        }
        let f = Format::of(r.format)?;
        if f.kind != Kind::Float {
            return Err(other(inst, "gathering an integer format"));
        }
        let (s, border) = sampler_and_border(w, inst)?;
        let (n, array) = coord_count(inst)?;
        if n != 2 {
            return Err(other(inst, "a gather from a 1D image is not emulated"));
        }
        let unnorm = inst.flags & iflags::UNORM != 0 || s.force_unnormalized;
        let c2 = Ctx2 {
            r: &r,
            f,
            s,
            border,
            mem: ctx.mem,
        };
        // GATHER4_LZ_O: the offsets VGPR comes first.
        let offsets = inst.op == Op::IMAGE_GATHER4_LZ_O;
        let first = offsets as usize;
        let coord = |k: usize, l: usize| f32::from_bits(w.vgpr_get(addr_vgpr(inst, first + k), l));
        let level = r.base_level;
        let (mw, mh) = r.mip_dims(level);
        for l in 0..w.lanes() {
            if exec >> l & 1 == 0 {
                continue;
            }
            let (su, tv) = (coord(0, l), coord(1, l));
            let slice = if array {
                let sl = coord(2, l).round_ties_even();
                (sl.max(0.0) as u32).min(r.slices.saturating_sub(1)) + r.base_array
            } else {
                0
            };
            let (u, v) = if unnorm {
                (su, tv)
            } else {
                (su * mw as f32, tv * mh as f32)
            };
            let (ox, oy) = if offsets {
                let o = w.vgpr_get(addr_vgpr(inst, 0), l);
                // Sign-extend the 6-bit fields.
                let six = |x: u32| (((x & 0x3f) << 26) as i32 >> 26) as i64;
                (six(o), six(o >> 8))
            } else {
                (0, 0)
            };
            let i0 = ((u - 0.5).floor() as i64).saturating_add(ox);
            let j0 = ((v - 0.5).floor() as i64).saturating_add(oy);
            let (i1, j1) = (i0.saturating_add(1), j0.saturating_add(1));
            for (k, (x, y)) in [(i0, j1), (i1, j1), (i1, j0), (i0, j0)]
                .into_iter()
                .enumerate()
            {
                out[l][k] = flush(c2.fetch(level, slice, x, y, l)?[comp]).to_bits();
            }
        }
    }
    for l in 0..w.lanes() {
        if exec >> l & 1 != 0 {
            for k in 0..4 {
                w.vgpr_set(base_vgpr + k, l, out[l][k]);
            }
        }
    }
    Ok(Flow::Next)
}
