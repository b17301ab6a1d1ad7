//! IMAGE_SAMPLE, _L, _B, _LZ and _D, their _O (offset) and _C (depth compare) forms, and
//! IMAGE_GATHER4_LZ, on 1D, 2D, 3D and cube images and 1D/2D arrays (RDNA3 ISA 10.3, 10.6; 16.18).
//!
//! - Addresses (10.3/10.4), in ACO's order (`visit_tex`, aco_instruction_selection.cpp):
//!   [offsets (_O)] [bias (_B)] [reference (_C)] [derivatives (_D): ds/dx, dt/dx, [dr/dx],
//!   ds/dy, dt/dy, [dr/dy], the order of LLVM's `llvm.amdgcn.image.sample.d` (dsdh, dtdh, dsdv,
//!   dtdv); 1D: ds/dx, ds/dy; a cube's are the face's s and t] s [t] [r | slice | face]
//!   [lod (_L)], f32. Coordinates are normalized unless the instruction's UNORM bit or the S#'s
//!   force_unnormalized is set; the array slice is rounded to nearest even and clamped to the
//!   view. Offsets: one VGPR of signed 6-bit x (bits 5:0), y (13:8) and z (21:16) texel offsets
//!   (ACO's packing), added to the integer texel coordinates.
//! - Cubes: the shader selects the face (v_cubeid/v_cubesc/v_cubetc/v_cubema, Mesa's
//!   `prepare_cube_coords`) and passes the face's coordinates as sc / (2 |ma|) + 1.5, in [1, 2],
//!   and 8 * cube + face; the face's texel coordinates are (s - 1) * size. Texels beyond a face's
//!   edge clamp to it (Vulkan's cube rule for nearest filtering: "Cube Map Edge Handling"); a
//!   bilinear footprint that crosses an edge needs the neighbouring face (seamless filtering),
//!   which is refused by name.
//! - Depth compare (_C): each texel's first component (after dst_sel) is compared with the
//!   reference by the S#'s DEPTH_COMPARE_FUNC (1.0 pass, 0.0 fail) before filtering, as the
//!   Vulkan specification's "Depth Compare Operation" orders it; a UNORM format clamps the
//!   reference to [0, 1] first, a float format does not (same section). The result is that one
//!   value: a DMASK other than 0x1 is refused.
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
use super::{addr_vgpr, dims, dmask, other, refuse_unsupported, resource, swizzle, write_result};
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
    /// A cube's face: texels clamp to the face (see the module documentation).
    cube: bool,
    /// The depth compare's reference (_C forms).
    reference: Option<f32>,
}

impl Ctx2<'_> {
    /// Texel (x, y) of `slice`, or of depth z for a 3D image (`z`: Some).
    fn fetch(
        &self,
        level: u32,
        slice: u32,
        (x, y, z): (i64, i64, Option<i64>),
        lane: usize,
    ) -> Result<[f32; 4], ExecError> {
        let (w, h) = self.r.mip_dims(level);
        let mode = |axis: usize| if self.cube { 2 } else { self.s.clamp[axis] };
        let wx = wrap(mode(0), x, w as i64).map_err(ExecError::Other)?;
        let wy = wrap(mode(1), y, h as i64).map_err(ExecError::Other)?;
        let wz = match z {
            Some(z) => wrap(self.s.clamp[2], z, self.r.slices as i64).map_err(ExecError::Other)?,
            None => Some(slice as i64),
        };
        let texel = match (wx, wy, wz) {
            (Some(x), Some(y), Some(z)) => {
                let a = self
                    .r
                    .texel_addr(level, z as u32, x as u32, y as u32, self.f.bytes);
                let mut b = [0u8; 16];
                let b = &mut b[..self.f.bytes as usize];
                let xyz = (x as u32, y as u32, z as u32);
                super::htile::read_texel(self.mem, self.r.htile.as_ref(), xyz, a, b, |addr, n| {
                    ExecError::MemoryFault {
                        lane: lane as u32,
                        addr,
                        size: n as u32,
                        kind: "image_sample",
                    }
                })?;
                swizzle(self.r, &self.f, self.f.decode(b)).map(f32::from_bits)
            }
            _ => self.border,
        };
        Ok(match self.reference {
            Some(reference) => {
                let c = self.s.compare(reference, texel[0]);
                [c, c, c, c]
            }
            None => texel,
        })
    }

    /// The filtered texel at texel-space (u, v[, w]) plus the integer offsets.
    fn filter(
        &self,
        level: u32,
        slice: u32,
        (u, v, w): (f32, f32, Option<f32>),
        offset: (i64, i64, i64),
        bilinear: bool,
        lane: usize,
    ) -> Result<[f32; 4], ExecError> {
        let at = |i: f32, o: i64| (i.floor() as i64).saturating_add(o);
        if !bilinear {
            let z = w.map(|w| at(w, offset.2));
            return self.fetch(level, slice, (at(u, offset.0), at(v, offset.1), z), lane);
        }
        let (uu, vv) = (u - 0.5, v - 0.5);
        let (a, b) = (uu - uu.floor(), vv - vv.floor());
        let (x0, y0) = (at(uu, offset.0), at(vv, offset.1));
        if self.cube {
            let (fw, fh) = self.r.mip_dims(level);
            if x0 < 0 || y0 < 0 || x0 + 1 >= fw as i64 || y0 + 1 >= fh as i64 {
                return Err(ExecError::Other(
                    "bilinear cube sampling across a face edge (seamless cube filtering) is not \
                     emulated"
                        .into(),
                ));
            }
        }
        // 3D: the two depth slices around w - 0.5, weighted by its fraction.
        let (zs, c) = match w {
            Some(w) => {
                let ww = w - 0.5;
                let z0 = at(ww, offset.2);
                ([Some(z0), Some(z0.saturating_add(1))], ww - ww.floor())
            }
            None => ([None, None], 0.0),
        };
        let mut planes = [[0f32; 4]; 2];
        for (k, z) in zs.into_iter().enumerate() {
            if k == 1 && w.is_none() {
                break;
            }
            let (x1, y1) = (x0.saturating_add(1), y0.saturating_add(1));
            let t00 = self.fetch(level, slice, (x0, y0, z), lane)?;
            let t10 = self.fetch(level, slice, (x1, y0, z), lane)?;
            let t01 = self.fetch(level, slice, (x0, y1, z), lane)?;
            let t11 = self.fetch(level, slice, (x1, y1, z), lane)?;
            for ch in 0..4 {
                let top = t00[ch] * (1.0 - a) + t10[ch] * a;
                let bot = t01[ch] * (1.0 - a) + t11[ch] * a;
                planes[k][ch] = top * (1.0 - b) + bot * b;
            }
        }
        Ok(if w.is_some() {
            std::array::from_fn(|ch| planes[0][ch] * (1.0 - c) + planes[1][ch] * c)
        } else {
            planes[0]
        })
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

/// The packed 6-bit texel offsets of an _O form's offsets VGPR: x bits 5:0, y 13:8, z 21:16.
fn offsets(o: u32) -> (i64, i64, i64) {
    let six = |x: u32| (((x & 0x3f) << 26) as i32 >> 26) as i64;
    (six(o), six(o >> 8), six(o >> 16))
}

pub fn sample(w: &mut Wave, inst: &Inst, ctx: &mut Ctx) -> Result<Flow, ExecError> {
    refuse_unsupported(inst)?;
    if inst.flags & iflags::D16 != 0 {
        return Err(other(inst, "d16 sampling is not emulated"));
    }
    // The form's parts from its name (IMAGE_SAMPLE[_C][_D|_L|_B|_LZ][_O], the ISA table's
    // spelling): _O offsets, _C compare, _B bias, _D derivatives, _L LOD, _LZ LOD zero.
    let name = inst.op.name().to_ascii_uppercase();
    let parts: Vec<&str> = name
        .strip_prefix("IMAGE_SAMPLE")
        .unwrap_or("")
        .split('_')
        .filter(|p| !p.is_empty())
        .collect();
    let has = |p: &str| parts.contains(&p);
    let (has_offset, has_bias, compare) = (has("O"), has("B"), has("C"));
    let (grad, explicit_lod, zero_lod) = (has("D"), has("L"), has("LZ"));
    if compare && dmask(inst) != 0x1 {
        return Err(other(
            inst,
            &format!(
                "DMASK {:#x} on a depth compare: the compare result is one value (DMASK 0x1)",
                dmask(inst)
            ),
        ));
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
    if r.msaa.is_some() {
        return Err(other(inst, "sampling a multisampled image (MSAA T#)"));
    }
    let (s, border) = sampler_and_border(w, inst)?;
    let d = dims(inst)?;
    let n = d.n;
    // Address components before the coordinates; a cube's derivatives are the face's (s, t).
    let (i_offset, i_bias, i_ref) = (
        0,
        has_offset as usize,
        has_offset as usize + has_bias as usize,
    );
    let i_grad = i_ref + compare as usize;
    let first = i_grad + if grad { 2 * n } else { 0 };
    let unnorm = inst.flags & iflags::UNORM != 0 || s.force_unnormalized;
    if d.cube && unnorm {
        return Err(other(inst, "unnormalized cube coordinates"));
    }
    let arg = |w: &Wave, k: usize, l: usize| f32::from_bits(w.vgpr_get(addr_vgpr(inst, k), l));
    let coord = |w: &Wave, k: usize, l: usize| arg(w, first + k, l);
    // A cube's face coordinates are in [1, 2] across the face: texel scale 1 / size (module
    // documentation).
    let face_origin = if d.cube { 1.0 } else { 0.0 };
    let (bw, bh) = r.mip_dims(r.base_level);
    let bd = if n == 3 { r.slices } else { 1 };
    for l in 0..w.lanes() {
        if exec >> l & 1 == 0 {
            continue;
        }
        let mut c2 = Ctx2 {
            r: &r,
            f,
            s,
            border,
            mem: ctx.mem,
            cube: d.cube,
            reference: None,
        };
        if compare {
            let reference = arg(w, i_ref, l);
            // Vulkan, "Depth Compare Operation": a UNORM depth format clamps the reference.
            c2.reference = Some(if f.is_unorm() {
                reference.clamp(0.0, 1.0)
            } else {
                reference
            });
        }
        let su = coord(w, 0, l) - face_origin;
        let tv = if n >= 2 {
            coord(w, 1, l) - face_origin
        } else {
            0.0
        };
        let rw = if n == 3 { Some(coord(w, 2, l)) } else { None };
        let slice = if d.cube {
            // 8 * cube + face (ACO's prepare_cube_coords): slice 6 * cube + face.
            let fc = coord(w, n, l).round_ties_even().max(0.0) as u32;
            let face = fc % 8;
            if face > 5 {
                return Err(other(inst, &format!("lane {l}: cube face id {face}")));
            }
            let cube = (fc / 8).min((r.slices / 6).saturating_sub(1));
            cube * 6 + face + r.base_array
        } else if d.layer {
            let sl = coord(w, n, l).round_ties_even();
            (sl.max(0.0) as u32).min(r.slices.saturating_sub(1)) + r.base_array
        } else {
            0
        };
        let off = if has_offset {
            offsets(w.vgpr_get(addr_vgpr(inst, i_offset), l))
        } else {
            (0, 0, 0)
        };
        let lod = if zero_lod {
            0.0
        } else if explicit_lod {
            coord(w, n + d.layer as usize, l)
        } else {
            let q = l & !3;
            // The derivatives of the coordinates along x (k = 1) or y (k = 2): the given ones
            // (_D) or the quad's differences.
            let derivs = |k: usize| -> [f32; 3] {
                std::array::from_fn(|c| {
                    if c >= n {
                        0.0
                    } else if grad {
                        arg(w, i_grad + (k - 1) * n + c, l)
                    } else {
                        coord(w, c, q + k) - coord(w, c, q)
                    }
                })
            };
            let len = |k: usize| {
                let g = derivs(k);
                let scale =
                    |c: usize, size: u32| g[c] as f64 * if unnorm { 1.0 } else { size as f64 };
                let (du, dv, dw) = (scale(0, bw), scale(1, bh), scale(2, bd));
                (du * du + dv * dv + dw * dw).sqrt()
            };
            let rho = len(1).max(len(2));
            let mut lod = rho.log2() as f32;
            if has_bias {
                lod += arg(w, i_bias, l);
            }
            lod + c2.s.lod_bias
        };
        let lod = lod.clamp(c2.s.min_lod, c2.s.max_lod.max(c2.s.min_lod));
        let filter = if lod <= 0.0 {
            c2.s.mag_filter
        } else {
            c2.s.min_filter
        };
        if filter > 1 {
            return Err(other(inst, "anisotropic filtering is not emulated"));
        }
        let bilinear = filter == 1;
        let max_level = r.last_level.min(r.max_mip);
        let at = |level: u32| -> Result<[f32; 4], ExecError> {
            let (mw, mh) = r.mip_dims(level);
            let md = if n == 3 { r.slices } else { 1 };
            let (u, v, z) = if unnorm {
                (su, tv, rw)
            } else {
                (su * mw as f32, tv * mh as f32, rw.map(|z| z * md as f32))
            };
            c2.filter(level, slice, (u, v, z), off, bilinear, l)
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
        if r.msaa.is_some() {
            return Err(other(inst, "gathering a multisampled image (MSAA T#)"));
        }
        let (s, border) = sampler_and_border(w, inst)?;
        let d = dims(inst)?;
        if d.n != 2 || d.cube {
            return Err(other(
                inst,
                "a gather from a 1D, 3D or cube image is not emulated",
            ));
        }
        let array = d.layer;
        let unnorm = inst.flags & iflags::UNORM != 0 || s.force_unnormalized;
        let c2 = Ctx2 {
            r: &r,
            f,
            s,
            border,
            mem: ctx.mem,
            cube: false,
            reference: None,
        };
        // GATHER4_LZ_O: the offsets VGPR comes first.
        let with_offsets = inst.op == Op::IMAGE_GATHER4_LZ_O;
        let first = with_offsets as usize;
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
            let (ox, oy) = if with_offsets {
                let (x, y, _) = offsets(w.vgpr_get(addr_vgpr(inst, 0), l));
                (x, y)
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
                out[l][k] = flush(c2.fetch(level, slice, (x, y, None), l)?[comp]).to_bits();
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
