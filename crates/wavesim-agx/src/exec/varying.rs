//! Fragment varying reads from coefficient registers: `iter`, `iterproj`, `ldcf`, and the vertex
//! side's `no_var` (Mesa's `no_varyings`).
//!
//! Rule sources:
//! - A coefficient register holds one varying component as a plane <A, B, C> that is dotted with
//!   <x, y, 1>, x and y being the sample position relative to the tile (Mesa's
//!   `agx_nir_lower_interpolation.c`: "A and B are the screen-space partial derivatives of the input,
//!   and C is the value at the corner of the tile"; its lowering takes the pixel coordinate mod 32
//!   and adds 0.5 for the pixel centre). [`WaveState::coefficients`] holds the registers as the
//!   group's tile sees them (the fragment runner moves C to the tile's corner).
//! - `iter` evaluates `count` consecutive coefficient registers from `I`; `iterproj` divides each
//!   by the plane in `J` (the 1/W register): Mesa's `agx_pack.c` packs both (perspective = bit 6),
//!   and its lowering of perspective interpolation divides the linear value by the noperspective
//!   value of `gl_Position.w`'s coefficient register. The evaluation order is the lowering's
//!   (`fma(x, A, fma(y, B, C))`, f32, then an f32 division); the iterator hardware's internal
//!   precision is not public, so that is what "the rule" decides here.
//! - `ldcf` (applegpu's `TODO.ldcf`; Mesa's `ldcf`, flat = bit 7) writes A, B, C of one coefficient
//!   register to three 32-bit registers (Mesa's register allocator: `ldcf` writes 6 halves; Mesa
//!   emits it with one channel and takes C for flat shading).
//! - Interpolation: centre (0); centroid (2) is the centre where every sample of the pixel is
//!   covered (GL and Vulkan: a fully covered pixel's centroid is its centre; the
//!   coverage is `get_sr` sr124, which the fragment runners without a rasteriser leave unset,
//!   covering everything). At a partially covered pixel or a helper thread (sr124 0) GL only asks
//!   for some point of the pixel inside the primitive; which one the G13 picks has no public
//!   source (Mesa leaves it to the hardware's `iter`; cmdbuf.xml has no centroid field), so that
//!   is a typed error unless the run opts in ([`WaveState::approximate`], counted as
//!   [`PARTIAL_CENTROID`]); then [`centroid_offset`] decides. Sample (1:
//!   index immediate, 3: index in a register, Mesa's `agx_pack.c`) at the sample's position, the
//!   driver's standard positions ([`default_sample_positions`]); an index without a position is a
//!   typed error (Mesa: "results are undefined when ... the sample ID is out-of-bounds").
//! - Fields Mesa never sets (`forwarding`, `kill`, `unk1`..`unk5`) and a register-indirect
//!   coefficient index are typed errors, not ignored; `elide` (bit 46), which Mesa 22.3 sets on
//!   every interpolated read, reads the same value (see `iter`).

use super::{active, missing, require_fields, Fault, Ops, WaveState};
use crate::fp;
use crate::operand::{Operand, Reg, RegFile};
use wavesim_core::observe::AccessKind;

/// Tile size the coefficient registers are relative to (Mesa's lowering: `umod(pixel, 32)`).
pub const TILE: u32 = 32;

/// The approximation opt-in's name for centroid interpolation at a partially covered pixel or a
/// helper thread ([`centroid_offset`]).
pub const PARTIAL_CENTROID: &str = "centroid at a partially covered pixel";

/// The in-pixel offset centroid interpolation uses where `covered` (sr124's bits of the pixel's
/// samples, positions `positions`) is not every sample: the documented intent, not the G13's
/// rule, which is not public. GLSL 4.60 4.5 ("centroid": a location that lies in both the pixel
/// and the primitive) and Vulkan's "Interpolation Decorations" (Centroid: within the primitive)
/// only ask for a covered point. The rule chosen is the lowest-numbered covered sample's
/// position: a covered sample lies inside the primitive by definition, the rule is a definite
/// function of the coverage alone, and it is llvmpipe's (`lp_bld_interp.c`,
/// `calc_centroid_offsets`), the reference the corpus is checked against. "The covered sample
/// nearest the centre" would not decide: the 4 standard 4-sample positions are all at the same
/// distance (sqrt(0.125^2 + 0.375^2)) from it. A helper thread covers no sample, so no point
/// lies in both; it takes the centre (llvmpipe too), which keeps its derivatives those of the
/// plane.
pub fn centroid_offset(covered: u32, positions: &[(f32, f32)]) -> (f32, f32) {
    positions
        .iter()
        .enumerate()
        .find(|&(s, _)| s < 32 && covered >> s & 1 == 1)
        .map_or((0.5, 0.5), |(_, p)| *p)
}

/// The coefficient register index of operand `name` (an immediate `cfN`; register-indirect is refused).
fn cf_index(o: &Ops<'_>, name: &str) -> Result<usize, Fault> {
    match o.op(name)? {
        Operand::Text(_) => Ok(o.field(name) as usize),
        Operand::Reg(..) => Err(Fault::UnsupportedForm {
            what: format!("coefficient register {name} taken from a register"),
        }),
        _ => Err(missing(name)),
    }
}

fn plane(w: &WaveState, cf: usize) -> Result<[f32; 3], Fault> {
    w.coefficients
        .get(cf)
        .copied()
        .ok_or_else(|| Fault::UnsupportedForm {
            what: format!(
                "coefficient register cf{cf} is not provided ({} given: `[fragment] coefficients`)",
                w.coefficients.len()
            ),
        })
}

/// The destination registers of a varying read: the tuple and whether it is 32-bit.
fn dest(o: &Ops<'_>) -> Result<(Vec<Reg>, bool), Fault> {
    match o.op("D")? {
        Operand::Tuple(regs, _) => {
            let wide = regs.first().is_some_and(|r| r.file == RegFile::R32);
            Ok((regs.clone(), wide))
        }
        _ => Err(missing("D")),
    }
}

/// Where in the pixel a varying read evaluates.
#[derive(Clone, Copy)]
enum Where<'a> {
    Centre,
    /// The centre of a fully covered pixel (see the module comment).
    Centroid,
    /// Sample `S` (an immediate, interpolation 1) or the sample index in register `S`
    /// (interpolation 3), at the position the driver programs (`sample_positions`).
    Sample(&'a Operand),
}

/// The standard sample positions Mesa's asahi driver programs (`agx_default_sample_positions`:
/// sample n in byte n of the PPP_MULTISAMPLECTL word, x in the low nibble, y in the high one, in
/// 1/16 pixel) for 1, 2 and 4 samples; G13 has no more.
pub fn default_sample_positions(samples: u32) -> Option<Vec<(f32, f32)>> {
    let packed: u32 = match samples {
        1 => 0x88,
        2 => 0x44cc,
        4 => 0xeaa2_6e26,
        _ => return None,
    };
    Some(
        (0..samples)
            .map(|n| {
                let byte = packed >> (8 * n);
                ((byte & 0xF) as f32 / 16.0, (byte >> 4 & 0xF) as f32 / 16.0)
            })
            .collect(),
    )
}

/// The tile-relative position thread `lane` evaluates at, and whether it is the opt-in's
/// [`PARTIAL_CENTROID`].
fn position(w: &WaveState, lane: usize, at: Where<'_>) -> Result<((f32, f32), bool), Fault> {
    let mut approximated = false;
    let (dx, dy) = match at {
        Where::Centre => (0.5, 0.5),
        Where::Centroid => {
            let all = (1u32 << w.sample_positions.len().min(8)) - 1;
            match w.special.get(&124).map(|m| m[lane]) {
                Some(m) if m & all != all && !w.approximate => {
                    return Err(Fault::UnsupportedForm {
                        what: format!(
                            "centroid interpolation at a pixel with samples {m:#x} of {all:#x} \
                             covered (thread {lane}): the G13's centroid position for a \
                             partially covered pixel or a helper thread is not public (the \
                             opt-in `approximate = true` takes the first covered sample)"
                        ),
                    });
                }
                Some(m) if m & all != all => {
                    approximated = true;
                    centroid_offset(m & all, &w.sample_positions)
                }
                _ => (0.5, 0.5),
            }
        }
        Where::Sample(op) => {
            let s = match op {
                Operand::Imm(v) => *v,
                Operand::Reg(r, _) => w.read(*r, lane)? as i64,
                _ => return Err(missing("S")),
            };
            *usize::try_from(s)
                .ok()
                .and_then(|s| w.sample_positions.get(s))
                .ok_or_else(|| Fault::UnsupportedForm {
                    what: format!(
                        "sample {s} of {} (thread {lane}): no sample position",
                        w.sample_positions.len()
                    ),
                })?
        }
    };
    let coord = |sr: u64, d: f32| -> Result<f32, Fault> {
        let v = w.special.get(&sr).ok_or(Fault::SpecialRegister(sr))?[lane];
        Ok((v % TILE) as f32 + d)
    };
    Ok(((coord(80, dx)?, coord(81, dy)?), approximated))
}

/// Records thread `lane`'s read of coefficient register `cf` for observers: space
/// `coefficients`, A, B, C as the words at byte 12 * cf + 0, 4, 8.
fn record_plane(w: &mut WaveState, lane: usize, cf: usize, p: [f32; 3]) {
    if w.accesses.is_some() {
        for (k, v) in p.iter().enumerate() {
            let addr = (12 * cf + 4 * k) as u64;
            w.record(
                AccessKind::Load,
                "coefficients",
                lane,
                addr,
                4,
                v.to_bits().into(),
            );
        }
    }
}

fn eval(p: [f32; 3], x: f32, y: f32) -> f32 {
    x.mul_add(p[0], y.mul_add(p[1], p[2]))
}

/// `iter` (`perspective` false) and `iterproj`.
pub(super) fn iter(w: &mut WaveState, o: &Ops<'_>, perspective: bool) -> Result<(), Fault> {
    // Bit 46 (applegpu's `elide`): Mesa 22.3's `agx_pack.c` sets it on every `iter`/`iterproj`
    // ("(!flat ? (1ull << 46) : 0) | /* XXX */"), and the interpolation its shaders get on the
    // hardware is the ordinary one, so set or clear it reads the same value (a later Mesa leaves
    // it clear for the same reads).
    let unmodelled = ["forwarding", "kill", "unk1", "unk2", "unk3", "unk4", "unk5"];
    require_fields(o, "varying read", &unmodelled.map(|f| (f, 0)))?;
    let at = match o.field("interpolation") {
        0 => Where::Centre,
        2 => Where::Centroid,
        _ => Where::Sample(o.op("S")?),
    };

    let (regs, wide) = dest(o)?;
    let first = cf_index(o, "I")?;
    let planes = (0..regs.len())
        .map(|c| plane(w, first + c))
        .collect::<Result<Vec<_>, _>>()?;
    let w_plane = if perspective {
        Some(plane(w, cf_index(o, "J")?)?)
    } else {
        None
    };
    let mut approximated = false;
    for lane in active(w).collect::<Vec<_>>() {
        let ((x, y), approx) = position(w, lane, at)?;
        approximated |= approx;
        for (c, p) in planes.iter().enumerate() {
            record_plane(w, lane, first + c, *p);
        }
        if let Some(q) = w_plane {
            record_plane(w, lane, cf_index(o, "J")?, q);
        }
        for (reg, p) in regs.iter().zip(&planes) {
            let mut v = eval(*p, x, y);
            if let Some(q) = w_plane {
                v /= eval(q, x, y);
            }
            let bits = if wide {
                v.to_bits() as u128
            } else {
                fp::f64_to_f16((v as f64).to_bits()) as u128
            };
            w.write(*reg, lane, bits)?;
        }
    }
    if approximated {
        *w.approximated.entry(PARTIAL_CENTROID).or_insert(0) += 1;
    }
    Ok(())
}

/// `ldcf`: A, B, C of one coefficient register into three 32-bit registers.
pub(super) fn ldcf(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    let (regs, wide) = dest(o)?;
    if !wide || regs.len() != 3 {
        return Err(Fault::UnsupportedForm {
            what: format!(
                "ldcf of {} {}-bit registers (Mesa emits one channel into three 32-bit registers)",
                regs.len(),
                if wide { 32 } else { 16 }
            ),
        });
    }
    let cf = cf_index(o, "I")?;
    let p = plane(w, cf)?;
    for lane in active(w).collect::<Vec<_>>() {
        record_plane(w, lane, cf, p);
        for (reg, v) in regs.iter().zip(p) {
            w.write(*reg, lane, v.to_bits() as u128)?;
        }
    }
    Ok(())
}

/// `no_var` (Mesa's `no_varyings`, exactly 0x80000051): the vertex shader declares that it writes no
/// varyings. Recorded in the state; an `st_var` after it is an error there. Other field values have no
/// public meaning and are refused.
pub(super) fn no_varyings(w: &mut WaveState, o: &Ops<'_>) -> Result<(), Fault> {
    let (u, r, i) = (o.field("u"), o.field("r"), o.field("I"));
    if (u, r, i, o.field("It")) != (1, 0, 0, 0) {
        return Err(Fault::UnsupportedForm {
            what: format!("no_var with u = {u}, r = {r}, I = {i} (Mesa emits only 0x80000051)"),
        });
    }
    w.no_varyings = true;
    Ok(())
}
