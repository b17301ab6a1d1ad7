//! Fetch clauses: texture (TEX) and vertex/memory (VTX/MEM) fetch instructions.

use super::*;
use crate::texture::TexDim;

pub(super) fn run_fetch(ctx: &mut Ctx, w: &mut Wave, f: &FetchInst) -> Result<(), ExecError> {
    use crate::decode::bits;
    let text = crate::text::fetch_text(f);
    let loc = |l: Option<usize>| ctx.loc(Some(f.addr), None, text.clone(), l);
    let exec = match f.row {
        FetchRow::Tex(r) => r.exec,
        FetchRow::Vtx(r) => r.exec,
    };
    if matches!(exec, FetchExec::LdsRead | FetchExec::LdsWrite) {
        return run_lds(ctx, w, f, exec == FetchExec::LdsWrite);
    }
    let wd = &f.w;
    // SRC_REL/DST_REL (TEX/VTX_WORD0 bit 23, WORD1 bit 7): 1 = the GPR address is relative to the
    // loop index aL (R700 ISA reference, fetch microcode fields; the same rule as the R500's
    // "RELATIVE: add aL before lookup" texture addresses).
    let rel = |g: u32, is_rel: bool, what: &str| -> Result<u32, ExecError> {
        if !is_rel {
            return Ok(g);
        }
        let al = w.al.ok_or_else(|| {
            fault(
                loc(None),
                format!("{what} is relative to aL, but no LOOP_START has set the loop index"),
            )
        })?;
        let e = g as i64 + al as i64;
        if !(0..128).contains(&e) {
            return Err(fault(
                loc(None),
                format!("{what} T{g} + aL ({al}) = {e} is outside the GPRs"),
            ));
        }
        Ok(e as u32)
    };
    let src_gpr = rel(bits(wd[0], 16, 7), bits(wd[0], 23, 1) != 0, "SRC_GPR")?;
    let dst_gpr = rel(bits(wd[1], 0, 7), bits(wd[1], 7, 1) != 0, "DST_GPR")?;
    let temp_base = 128 - ctx.drv.clause_temp_gprs;
    for g in [src_gpr, dst_gpr] {
        if g >= temp_base || (ctx.drv.num_gprs != 0 && g >= ctx.drv.num_gprs) {
            return Err(fault(
                loc(None),
                format!("fetch uses T{g}, outside the program's GPRs or a clause temporary"),
            ));
        }
    }
    let dst_sel = [
        bits(wd[1], 9, 3),
        bits(wd[1], 12, 3),
        bits(wd[1], 15, 3),
        bits(wd[1], 18, 3),
    ];
    let mut out = vec![[0u32; 4]; w.lanes];
    match exec {
        FetchExec::Sample { compare, lod } => {
            sample_texture(ctx, w, f, &loc, src_gpr, &dst_sel, compare, lod, &mut out)?
        }
        FetchExec::SetGradients { vertical } => {
            return set_gradients(w, f, &loc, src_gpr, &dst_sel, vertical)
        }
        FetchExec::GetGradients { vertical } => {
            get_gradients(ctx, w, f, &loc, src_gpr, &dst_sel, vertical, &mut out)?
        }
        FetchExec::Load => load_texels(ctx, w, f, &loc, src_gpr, &mut out)?,
        FetchExec::ResInfo => resinfo(ctx, w, f, &loc, src_gpr, &dst_sel, &mut out)?,
        FetchExec::VertexFetch => {
            let mut acc = w.accesses.take();
            let r = fetch_vertices(ctx, w, f, &loc, src_gpr, &mut out, acc.as_mut());
            w.accesses = acc;
            r?
        }
        FetchExec::LdsRead | FetchExec::LdsWrite => {
            return Err(fault(loc(None), "LDS instructions run through run_lds"))
        }
        FetchExec::NotModelled(why) => {
            let name = match f.row {
                FetchRow::Tex(r) => r.llc,
                FetchRow::Vtx(r) => r.llc,
            };
            return Err(ExecError::NotModelled {
                loc: loc(None),
                what: name.into(),
                why: why.into(),
            });
        }
    }
    write_fetch_result(w, &loc, dst_gpr, &dst_sel, &out)
}

/// TEX SAMPLE* (and SAMPLE_C*): one texel per active thread, through the bound resource and sampler.
#[allow(clippy::too_many_arguments)]
fn sample_texture(
    ctx: &Ctx,
    w: &Wave,
    f: &FetchInst,
    loc: &impl Fn(Option<usize>) -> Location,
    src_gpr: u32,
    dst_sel: &[u32; 4],
    compare: bool,
    lod: TexLod,
    out: &mut [[u32; 4]],
) -> Result<(), ExecError> {
    use crate::decode::bits;
    let wd = &f.w;
    let name = match f.row {
        FetchRow::Tex(r) => r.llc,
        FetchRow::Vtx(r) => r.llc,
    };
    if lod == TexLod::Gradients && w.grads.iter().any(|g| g.is_none()) {
        return Err(ExecError::NotModelled {
            loc: loc(None),
            what: format!("{name} before SET_GRADIENTS_H and SET_GRADIENTS_V"),
            why: "the texture unit's gradients have no initial value in the sources wavesim uses"
                .into(),
        });
    }
    if bits(wd[1], 21, 7) != 0 {
        return Err(ExecError::NotModelled {
            loc: loc(None),
            what: "TEX_WORD1 LOD_BIAS".into(),
            why: "the instruction's LOD bias encoding is not in the sources wavesim uses".into(),
        });
    }
    let sid = bits(wd[2], 15, 5) as usize;
    let tex = bound_texture(ctx, f, loc)?;
    // SAMPLE_C*: the comparison result is the fetched X (the red component the test reads; the
    // Direct3D 10 `sample_c` this hardware implements "operates exclusively on the red component");
    // the resource's DST_SEL then forms the result as for any fetch (Mesa's r600 driver sets
    // XXXX composed with the GL depth-texture mode's swizzle for depth formats,
    // `r600_translate_texformat`, so XXX1 for GL_LUMINANCE, X001 for GL_RED). What the unit puts in
    // the fetched Y/Z/W is where the sources part: Direct3D 10 replicates the scalar, decaf-emu's
    // `translateGenericSample` writes (c, 0, 0, 1) and calls it a shortcut, Cemu's Latte
    // decompiler asserts only X is defined. A result component that takes them is an error.
    if compare
        && dst_sel
            .iter()
            .any(|&d| d <= 3 && (1..=3).contains(&tex.swizzle[d as usize]))
    {
        return Err(ExecError::NotModelled {
            loc: loc(None),
            what: format!(
                "{name} result components that take the fetched Y/Z/W (resource swizzle {:?})",
                tex.swizzle
            ),
            why: "the sources disagree on the comparison result's Y/Z/W (Direct3D 10, decaf-emu, Cemu)".into(),
        });
    }
    let smp = ctx
        .drv
        .samplers
        .get(sid)
        .and_then(|t| t.as_ref())
        .ok_or_else(|| fault(loc(None), format!("sampler {sid} is not bound")))?;
    let src_sel = tex_src_sel(wd);
    // TEX_WORD1 COORD_TYPE_X..W (1 = normalized) and TEX_WORD2 OFFSET_X/Y/Z.
    let ct = [
        bits(wd[1], 28, 1),
        bits(wd[1], 29, 1),
        bits(wd[1], 30, 1),
        bits(wd[1], 31, 1),
    ];
    let offs = [bits(wd[2], 0, 5), bits(wd[2], 5, 5), bits(wd[2], 10, 5)];
    // How many coordinates address texels (the rest of X..Z is the layer, the face id or unused: Mesa
    // writes select 7 into components an instruction does not use, e.g. Y and Z of a 1-D sample).
    let axes = match tex.dim {
        TexDim::D1 | TexDim::D1Array => 1,
        TexDim::D2 | TexDim::D2Array | TexDim::Cube => 2,
        TexDim::D3 => 3,
    };
    if offs[axes..].iter().any(|&o| o != 0) {
        return Err(fault(
            loc(None),
            format!(
                "{name} offsets a coordinate the {:?} texture does not have",
                tex.dim
            ),
        ));
    }
    let arrayed = matches!(tex.dim, TexDim::D1Array | TexDim::D2Array);
    if arrayed && compare && matches!(lod, TexLod::Explicit | TexLod::Bias) {
        return Err(ExecError::NotModelled {
            loc: loc(None),
            what: format!("{name} on an array texture"),
            why: "Mesa's layout puts both the layer and the reference in Z for these forms; the unit's reading is not in the sources wavesim uses".into(),
        });
    }
    for (l, o) in out.iter_mut().enumerate() {
        if !w.active(l) {
            continue;
        }
        let comp = |s: u32| src_component(w, src_gpr, s, l, loc).map(f32::from_bits);
        // LOD source (R700 ISA TEX instructions; operand layout as Mesa's r600 emitter
        // builds it): SAMPLE_L takes the LOD from W, SAMPLE_LZ uses 0; implicit and biased
        // LODs need the quad's derivatives, which are only irrelevant when a single level can
        // be chosen (one level, or MIP_FILTER none = the base level).
        let single = tex.levels() == 1 || smp.mip_filter == MipFilter::None;
        let lod_value = match lod {
            TexLod::Zero => 0.0,
            TexLod::Explicit => comp(src_sel[3])?,
            // SAMPLE_G with one level to choose from: the gradients (checked present above) cannot
            // change the result.
            _ if single => 0.0,
            _ => return Err(ExecError::NotModelled {
                loc: loc(Some(l)),
                what: format!("{name} on a mipmapped texture"),
                why:
                    "the implicit level of detail needs the pixel quad's derivatives, not modelled"
                        .into(),
            }),
        };
        if tex.dim == TexDim::Cube {
            // A cube-map resource: X/Y are the face coordinates Mesa's driver builds from CUBE's
            // result and Z the face id (texture::sample_cube). Unnormalized coordinates, offsets and
            // depth compares on cube maps are not in the sources used.
            if ct[..2] != [1, 1] || offs != [0, 0, 0] || compare {
                return Err(ExecError::NotModelled {
                    loc: loc(Some(l)),
                    what: format!("{name} on a cube map with unnormalized coordinates, offsets or a depth compare"),
                    why: "only normalized, unoffset, uncompared cube sampling is in the sources wavesim uses".into(),
                });
            }
            *o = tex.swizzled(
                texture::sample_cube(
                    tex,
                    smp,
                    comp(src_sel[0])?,
                    comp(src_sel[1])?,
                    comp(src_sel[2])?,
                    lod_value,
                )
                .map_err(|m| fault(loc(Some(l)), m))?,
            );
            continue;
        }
        // The 2-D texture (or 1-D row) the coordinates address: an array's layer comes from Z.
        let plane = if arrayed {
            texture::array_layer(tex, comp(src_sel[2])?, ct[2] == 1)
                .map_err(|m| fault(loc(Some(l)), m))?
        } else {
            tex
        };
        let size = [tex.width as f32, tex.height as f32, tex.slices.len() as f32];
        // A 1-D texture has one row: its (unused) second coordinate is the row's centre.
        let mut c = [0.5f32; 3];
        for k in 0..axes {
            c[k] = comp(src_sel[k])?;
            // Unnormalized coordinates (CT = U) are texel units (R700 ISA reference, TEX_WORD1).
            if ct[k] == 0 {
                c[k] /= size[k];
            }
            // Offsets are signed 5-bit values in half texels (R700 ISA reference, TEX_WORD2).
            let off = ((offs[k] as i32) << 27 >> 27) as f32 * 0.5;
            if off != 0.0 {
                c[k] += off / size[k];
            }
        }
        let fetch = |u: f32, v: f32| {
            if tex.dim == TexDim::D3 {
                texture::sample_3d(tex, smp, u, v, c[2])
            } else {
                texture::sample_lod(plane, smp, u, v, lod_value)
            }
        };
        if compare {
            // SAMPLE_C*: reference in W, or in Z for the forms whose W holds the LOD or
            // bias (Mesa's r600 emitter); result = (reference OP texel.x) ? 1.0 : 0.0.
            let func = smp.compare.ok_or_else(|| {
                fault(
                    loc(Some(l)),
                    format!("{name} needs a sampler with a depth compare function"),
                )
            })?;
            // Direct3D 10's `sample_c` quantizes the reference to the texture format's precision
            // before the test; only binary32 formats, where that is the identity, are modelled.
            if tex.format == texture::TexFormat::Rgba8Unorm {
                return Err(ExecError::NotModelled {
                    loc: loc(Some(l)),
                    what: format!("{name} on an RGBA8 texture"),
                    why: "the reference is quantized to the format's precision first (Direct3D 10 sample_c); the unit's rounding is not in the sources wavesim uses".into(),
                });
            }
            if smp.filter != texture::Filter::Point
                || (smp.mip_filter == MipFilter::Linear && tex.levels() > 1)
                || tex.dim == TexDim::D3
            {
                return Err(ExecError::NotModelled {
                        loc: loc(Some(l)),
                        what: format!("{name} with linear filtering or on a 3-D texture"),
                        why: "how filtered comparison results are combined is implementation-defined; only point sampling of 1-D/2-D textures is modelled".into(),
                    });
            }
            let reference = match lod {
                TexLod::Explicit | TexLod::Bias => comp(src_sel[2])?,
                _ => comp(src_sel[3])?,
            };
            let t = fetch(c[0], c[1]).map_err(|m| fault(loc(Some(l)), m))?;
            let pass = func.test(reference, f32::from_bits(t[0]));
            // Only X is defined (checked above that no written component takes Y/Z/W).
            *o = tex.swizzled([if pass { ONE_F } else { 0 }, 0, 0, 0]);
            continue;
        }
        *o = tex.swizzled(fetch(c[0], c[1]).map_err(|m| fault(loc(Some(l)), m))?);
    }
    Ok(())
}

/// TEX_WORD2 SRC_SEL_X..W.
fn tex_src_sel(wd: &[u32; 4]) -> [u32; 4] {
    use crate::decode::bits;
    [
        bits(wd[2], 20, 3),
        bits(wd[2], 23, 3),
        bits(wd[2], 26, 3),
        bits(wd[2], 29, 3),
    ]
}

/// Thread `l`'s source component through select `s`: a channel of SRC_GPR (0..3), 0.0 (4) or 1.0 (5);
/// other selects are reserved (R700 ISA reference, TEX_WORD2 SRC_SEL_*).
fn src_component(
    w: &Wave,
    src_gpr: u32,
    s: u32,
    l: usize,
    loc: &impl Fn(Option<usize>) -> Location,
) -> Result<u32, ExecError> {
    Ok(match s {
        0..=3 => w.gpr[src_gpr as usize][s as usize][l],
        4 => 0,
        5 => ONE_F,
        _ => {
            return Err(fault(
                loc(Some(l)),
                format!("texture source select {s} is reserved"),
            ))
        }
    })
}

/// SET_GRADIENTS_H/V: stores the four selected source components of every active thread as its
/// horizontal or vertical gradients. Mesa's emitter gives these instructions no destination (all
/// DST_SEL = 7); a destination write is not in the sources used and is an error.
fn set_gradients(
    w: &mut Wave,
    f: &FetchInst,
    loc: &impl Fn(Option<usize>) -> Location,
    src_gpr: u32,
    dst_sel: &[u32; 4],
    vertical: bool,
) -> Result<(), ExecError> {
    let name = if vertical {
        "SET_GRADIENTS_V"
    } else {
        "SET_GRADIENTS_H"
    };
    if dst_sel.iter().any(|&s| s != 7) {
        return Err(ExecError::NotModelled {
            loc: loc(None),
            what: format!("{name} with a destination"),
            why: "what SET_GRADIENTS writes to its destination is not in the sources wavesim uses"
                .into(),
        });
    }
    let wd = &f.w;
    let src_sel = tex_src_sel(wd);
    let lanes = w.lanes;
    let mut g = w.grads[vertical as usize]
        .take()
        .unwrap_or_else(|| vec![[0; 4]; lanes]);
    for (l, gl) in g.iter_mut().enumerate() {
        if !w.active(l) {
            continue;
        }
        for (k, &sel) in src_sel.iter().enumerate() {
            // Select 7 marks a component the gradient does not have (Mesa's txd passes only the
            // texture's coordinates); it is not read. The stored gradients only gate SAMPLE_G, which
            // never turns them into a level (see TexLod::Gradients), so the value kept is never used.
            if sel != 7 {
                gl[k] = src_component(w, src_gpr, sel, l, loc)?;
            }
        }
    }
    w.grads[vertical as usize] = Some(g);
    Ok(())
}

/// GET_GRADIENTS_H/V: the screen-space derivative of each of the four selected source components,
/// taken across the thread's 2x2 pixel quad — horizontal: right pixel minus left, vertical: lower row
/// (the runner's next grid row) minus upper — as one binary32 subtraction with R700's denormal flush.
/// Sources: Mesa's r600 driver emits these for GLSL dFdx/dFdy (sfn_shader.cpp, `emit_tex_fdd`), whose
/// definition is the forward difference across the quad (OpenGL 4.6, 8.13.1 / GLSL 4.60, 8.14.1);
/// decaf-emu translates them to SPIR-V OpDPdx/OpDPdy. Whether R700 differences each row (fine) or one
/// row for the whole quad (coarse) is not in those sources (Mesa sets a fine bit only in Evergreen's
/// INST_MOD field), so the result is exact where both rows (columns) give the same bits and a typed
/// error otherwise. Also typed errors: runs whose threads are not laid out in quads, and a quad with an
/// inactive pixel (what it would contribute needs helper pixels, i.e. whole-quad mode). A component no
/// destination select takes is not computed: Mesa writes source select 7 into it (e.g. Z/W of a
/// two-component dFdx), and nothing reads it.
#[allow(clippy::too_many_arguments)]
fn get_gradients(
    ctx: &Ctx,
    w: &Wave,
    f: &FetchInst,
    loc: &impl Fn(Option<usize>) -> Location,
    src_gpr: u32,
    dst_sel: &[u32; 4],
    vertical: bool,
    out: &mut [[u32; 4]],
) -> Result<(), ExecError> {
    let name = if vertical {
        "GET_GRADIENTS_V"
    } else {
        "GET_GRADIENTS_H"
    };
    let nm = |l: Option<usize>, what: String, why: &str| ExecError::NotModelled {
        loc: loc(l),
        what,
        why: why.into(),
    };
    if !ctx.drv.quads {
        return Err(nm(
            None,
            format!("{name} outside a quad-ordered pixel grid"),
            "derivatives are differences across a 2x2 pixel quad; only `grid` runs with even sides lay threads out in quads",
        ));
    }
    let wd = &f.w;
    let src_sel = tex_src_sel(wd);
    let value = |q: usize, s: u32| src_component(w, src_gpr, s, q, loc);
    // a - b, rounded and flushed as every R700 float subtraction (ADD with a negated operand).
    let diff = |a: u32, b: u32| sem::add(a, b ^ 0x8000_0000);
    for (l, o) in out.iter_mut().enumerate() {
        if !w.active(l) {
            continue;
        }
        let b = l & !3;
        if let Some(q) = (b..b + 4).find(|&q| q >= w.lanes || !w.active(q)) {
            return Err(nm(
                Some(l),
                format!("{name} in a quad whose pixel (lane {q}) is inactive"),
                "an inactive pixel's registers are not defined for its neighbours (helper pixels need whole-quad mode)",
            ));
        }
        // (minuend, subtrahend) lanes for the two rows (H) or columns (V).
        let pairs = if vertical {
            [(b + 2, b), (b + 3, b + 1)]
        } else {
            [(b + 1, b), (b + 3, b + 2)]
        };
        for (k, &s) in src_sel.iter().enumerate() {
            if !dst_sel.contains(&(k as u32)) {
                continue;
            }
            let d0 = diff(value(pairs[0].0, s)?, value(pairs[0].1, s)?);
            let d1 = diff(value(pairs[1].0, s)?, value(pairs[1].1, s)?);
            if d0 != d1 {
                return Err(nm(
                    Some(l),
                    format!(
                        "{name} whose two {} differ ({:e} and {:e})",
                        if vertical { "columns" } else { "rows" },
                        f32::from_bits(d0),
                        f32::from_bits(d1)
                    ),
                    "whether R700 differences each row/column (fine) or one for the whole quad (coarse) is not in the sources wavesim uses",
                ));
            }
            o[k] = d0;
        }
    }
    Ok(())
}

/// The bound texture resource TEX_WORD0 RESOURCE_ID names.
fn bound_texture<'a>(
    ctx: &'a Ctx,
    f: &FetchInst,
    loc: &impl Fn(Option<usize>) -> Location,
) -> Result<&'a Texture, ExecError> {
    let rid = crate::decode::bits(f.w[0], 8, 8) as usize;
    ctx.drv
        .textures
        .get(rid)
        .and_then(|t| t.as_ref())
        .ok_or_else(|| fault(loc(None), format!("texture resource {rid} is not bound")))
}

/// TEX_LD (GLSL texelFetch): the texel at signed integer coordinates, without the sampler. Operand
/// layout as Mesa's r600 driver builds it (sfn_instr_tex.cpp, `TexInstr::emit_tex_txf`): X (and Y) the
/// texel coordinates as integers, the layer of an array (1-D arrays too) in Z, the level in W, offsets
/// already added into the coordinates; Cemu's Latte decompiler reads LD's coordinates as signed
/// integers too. Texel offsets in the instruction, coordinates or levels outside the texture (undefined
/// in OpenGL 4.6, 8.14.2) and cube maps (no texelFetch in GLSL) are errors.
fn load_texels(
    ctx: &Ctx,
    w: &Wave,
    f: &FetchInst,
    loc: &impl Fn(Option<usize>) -> Location,
    src_gpr: u32,
    out: &mut [[u32; 4]],
) -> Result<(), ExecError> {
    use crate::decode::bits;
    let tex = bound_texture(ctx, f, loc)?;
    if bits(f.w[2], 0, 15) != 0 {
        return Err(fault(
            loc(None),
            "TEX_LD with texel offsets (Mesa adds them to the coordinates)",
        ));
    }
    let src_sel = tex_src_sel(&f.w);
    for (l, o) in out.iter_mut().enumerate() {
        if !w.active(l) {
            continue;
        }
        let int = |k: usize| src_component(w, src_gpr, src_sel[k], l, loc).map(|v| v as i32);
        let lod = int(3)?;
        let at = |t: &Texture, x: i32, y: i32| {
            texture::load(t, x, y, lod).map_err(|m| fault(loc(Some(l)), m))
        };
        let layer = |z: i32| -> Result<&Texture, ExecError> {
            usize::try_from(z)
                .ok()
                .and_then(|z| tex.slices.get(z))
                .ok_or_else(|| {
                    fault(
                        loc(Some(l)),
                        format!(
                            "texel fetch of layer/slice {z} outside the texture's {}",
                            tex.slices.len()
                        ),
                    )
                })
        };
        // The resource swizzle (SQ_TEX_RESOURCE_WORD4 DST_SEL) applies to every fetch through it.
        *o = tex.swizzled(match tex.dim {
            TexDim::D1 => at(tex, int(0)?, 0)?,
            TexDim::D1Array => at(layer(int(2)?)?, int(0)?, 0)?,
            TexDim::D2 => at(tex, int(0)?, int(1)?)?,
            TexDim::D2Array | TexDim::D3 => at(layer(int(2)?)?, int(0)?, int(1)?)?,
            TexDim::Cube => {
                return Err(fault(
                    loc(Some(l)),
                    "TEX_LD on a cube map (GLSL has no texelFetch for cube samplers)",
                ))
            }
        });
    }
    Ok(())
}

/// GET_TEXTURE_RESINFO (GLSL textureSize / textureQueryLevels): integers per level, as Mesa's r600
/// driver reads them (sfn_instr_tex.cpp, `TexInstr::emit_tex_txs`: textureSize takes X..Z with no
/// fix-up except the layer count of cube arrays; textureQueryLevels takes W) and Cemu's Latte
/// decompiler lays them out (`_emitTEXGetTextureResInfoCode`: width, then height or the layers of a 1-D
/// array, then the layers of a 2-D array, other components 1): X = max(1, width >> lod); Y = max(1,
/// height >> lod), the layers of a 1-D array, or 1 for 1-D; Z = the layers of a 2-D array, max(1, depth >>
/// lod) of a 3-D texture (one level here), 1 for 1-D/2-D; W = the number of mip levels. The level is
/// read, as an integer, from the source components (Mesa selects the same register channel in all
/// four); selects that disagree are an error. A cube map's Z is not in these sources (Mesa overrides
/// it for cube arrays; Cemu has no cube case): an error when the destination takes it.
fn resinfo(
    ctx: &Ctx,
    w: &Wave,
    f: &FetchInst,
    loc: &impl Fn(Option<usize>) -> Location,
    src_gpr: u32,
    dst_sel: &[u32; 4],
    out: &mut [[u32; 4]],
) -> Result<(), ExecError> {
    let tex = bound_texture(ctx, f, loc)?;
    if tex.swizzle != [0, 1, 2, 3] {
        return Err(ExecError::NotModelled {
            loc: loc(None),
            what: "GET_TEXTURE_RESINFO through a resource with a DST_SEL swizzle".into(),
            why: "whether the resource's DST_SEL applies to the sizes is not in the sources wavesim uses".into(),
        });
    }
    if tex.dim == TexDim::Cube && dst_sel.contains(&2) {
        return Err(ExecError::NotModelled {
            loc: loc(None),
            what: "GET_TEXTURE_RESINFO Z of a cube map".into(),
            why: "what the unit returns in Z for a cube map is not in the sources wavesim uses"
                .into(),
        });
    }
    let src_sel = tex_src_sel(&f.w);
    for (l, o) in out.iter_mut().enumerate() {
        if !w.active(l) {
            continue;
        }
        let mut lod = None;
        for &s in src_sel.iter().filter(|&&s| s != 7) {
            let v = src_component(w, src_gpr, s, l, loc)?;
            if lod.is_some_and(|x| x != v) {
                return Err(fault(
                    loc(Some(l)),
                    "GET_TEXTURE_RESINFO source components give different levels",
                ));
            }
            lod = Some(v);
        }
        let lod = lod.ok_or_else(|| {
            fault(
                loc(Some(l)),
                "GET_TEXTURE_RESINFO selects no source component for the level",
            )
        })? as i32;
        if lod < 0 || lod as usize >= tex.levels() {
            return Err(fault(
                loc(Some(l)),
                format!(
                    "GET_TEXTURE_RESINFO level {lod} is outside the texture's {} levels",
                    tex.levels()
                ),
            ));
        }
        let at = |n: u32| (n >> lod).max(1);
        let layers = tex.slices.len() as u32;
        *o = match tex.dim {
            TexDim::D1 => [at(tex.width), 1, 1, 0],
            TexDim::D1Array => [at(tex.width), layers, 1, 0],
            TexDim::D2 | TexDim::Cube => [at(tex.width), at(tex.height), 1, 0],
            TexDim::D2Array => [at(tex.width), at(tex.height), layers, 0],
            TexDim::D3 => [at(tex.width), at(tex.height), at(layers), 0],
        };
        o[3] = tex.levels() as u32;
    }
    Ok(())
}

/// VTX FETCH: one vertex element per active thread from the bound vertex-fetch constant; each
/// component read is an access for observers (`acc`), named `cb<id>` or `vb<id>`.
fn fetch_vertices(
    ctx: &Ctx,
    w: &Wave,
    f: &FetchInst,
    loc: &impl Fn(Option<usize>) -> Location,
    src_gpr: u32,
    out: &mut [[u32; 4]],
    mut acc: Option<&mut Vec<MemAccess>>,
) -> Result<(), ExecError> {
    use crate::decode::bits;
    let wd = &f.w;
    let id = bits(wd[0], 8, 8) as usize;
    let fc = ctx
        .drv
        .fetch_constants
        .get(id)
        .and_then(|x| x.as_ref())
        .ok_or_else(|| {
            fault(
                loc(None),
                format!("vertex-fetch constant {id} is not bound"),
            )
        })?;
    let sel_x = bits(wd[0], 24, 2) as usize;
    let offset = bits(wd[2], 0, 16);
    let (dfmt, nfa, signed) = if bits(wd[1], 21, 1) != 0 {
        fc.format.ok_or_else(|| {
            fault(
                loc(None),
                "USE_CONST_FIELDS is set but the fetch constant has no format",
            )
        })?
    } else {
        (
            bits(wd[1], 22, 6),
            bits(wd[1], 28, 2),
            bits(wd[1], 30, 1) != 0,
        )
    };
    if bits(wd[2], 16, 2) != 0 {
        return Err(ExecError::NotModelled {
            loc: loc(None),
            what: "ENDIAN_SWAP".into(),
            why: "byte-swapped fetches are not modelled".into(),
        });
    }
    let (ncomp, size, float, byte) = match dfmt {
        0x0D => (1, 4, false, false),
        0x0E => (1, 4, true, false),
        0x1D => (2, 4, false, false),
        0x1E => (2, 4, true, false),
        0x2F => (3, 4, false, false),
        0x30 => (3, 4, true, false),
        0x22 => (4, 4, false, false),
        0x23 => (4, 4, true, false),
        0x1A => (4, 1, false, true),
        d => {
            return Err(ExecError::NotModelled {
                loc: loc(None),
                what: format!("vertex data format {d:#x}"),
                why: "only 32-bit x1..x4 (int/float) and 8_8_8_8 formats are modelled".into(),
            })
        }
    };
    let space = match (&acc, fc.constant_buffer) {
        (None, _) => "",
        (Some(_), true) => numbered_space("cb", id as u32),
        (Some(_), false) => numbered_space("vb", id as u32),
    };
    for (l, o) in out.iter_mut().enumerate() {
        if !w.active(l) {
            continue;
        }
        let index = w.gpr[src_gpr as usize][sel_x][l] as u64;
        // Address = base + index * stride + OFFSET (R700 ISA reference, vertex fetch).
        let addr = fc.base as u64 + index * fc.stride as u64 + offset as u64;
        let len = ncomp as u64 * size as u64;
        if addr + len > fc.data.len() as u64 {
            return Err(fault(
                    loc(Some(l)),
                    format!("vertex fetch of {len} bytes at offset {addr} (index {index}) is past the end of fetch constant {id}'s {}-byte buffer", fc.data.len()),
                ));
        }
        *o = [0, 0, 0, ONE_F];
        if !float && !byte && nfa == 1 {
            o[3] = 1; // integer formats fill a missing W with integer 1
        }
        for k in 0..ncomp {
            let a = (addr + (k * size) as u64) as usize;
            if let Some(v) = acc.as_deref_mut() {
                let raw = fc.data[a..a + size]
                    .iter()
                    .rev()
                    .fold(0u64, |x, &b| x << 8 | b as u64);
                v.push(MemAccess {
                    kind: AccessKind::Load,
                    space,
                    lane: l as u32,
                    addr: a as u64,
                    size: size as u8,
                    value: raw,
                });
            }
            o[k] = if byte {
                let b = fc.data[a];
                match (nfa, signed) {
                    (0, false) => (b as f32 / 255.0).to_bits(),
                    (0, true) => ((b as i8 as f32) / 127.0).max(-1.0).to_bits(),
                    (1, false) => b as u32,
                    (1, true) => b as i8 as i32 as u32,
                    (_, false) => (b as f32).to_bits(),
                    (_, true) => (b as i8 as f32).to_bits(),
                }
            } else {
                let v = u32::from_le_bytes([
                    fc.data[a],
                    fc.data[a + 1],
                    fc.data[a + 2],
                    fc.data[a + 3],
                ]);
                match (float, nfa, signed) {
                    (true, _, _) | (false, 1, _) => v,
                    (false, 2, false) => (v as f32).to_bits(),
                    (false, 2, true) => (v as i32 as f32).to_bits(),
                    _ => {
                        return Err(ExecError::NotModelled {
                            loc: loc(Some(l)),
                            what: "normalized 32-bit vertex format".into(),
                            why: "not modelled".into(),
                        })
                    }
                }
            };
        }
    }
    Ok(())
}

/// Writes the fetched components to DST_GPR through the DST_SEL_* swizzle (7 = keep the channel).
fn write_fetch_result(
    w: &mut Wave,
    loc: &impl Fn(Option<usize>) -> Location,
    dst_gpr: u32,
    dst_sel: &[u32; 4],
    out: &[[u32; 4]],
) -> Result<(), ExecError> {
    for (l, o) in out.iter().enumerate() {
        if !w.active(l) {
            continue;
        }
        for (k, s) in dst_sel.iter().enumerate() {
            let v = match s {
                0..=3 => o[*s as usize],
                4 => 0,
                5 => ONE_F,
                7 => continue,
                _ => {
                    return Err(fault(
                        loc(Some(l)),
                        format!("destination select {s} is reserved"),
                    ))
                }
            };
            w.gpr[dst_gpr as usize][k][l] = v;
        }
    }
    Ok(())
}
