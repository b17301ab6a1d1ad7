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
//! - Interpolation: centre (0); centroid (2) is the centre because every pixel the fragment runner
//!   shades is fully covered (GL/Vulkan: centroid = centre when every sample is covered). Sample
//!   interpolation (1, 3) needs the sample positions, which wavesim does not model: a typed error.
//! - Fields Mesa never sets (`forwarding`, `elide`, `kill`, `unk1`..`unk5`) and a register-indirect
//!   coefficient index are typed errors, not ignored.

use super::{active, missing, require_fields, Fault, Ops, WaveState};
use crate::fp;
use crate::operand::{Operand, Reg, RegFile};

/// Tile size the coefficient registers are relative to (Mesa's lowering: `umod(pixel, 32)`).
pub const TILE: u32 = 32;

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

/// The tile-relative sample position of thread `lane` (pixel centre).
fn position(w: &WaveState, lane: usize) -> Result<(f32, f32), Fault> {
    let coord = |sr: u64| -> Result<f32, Fault> {
        let v = w.special.get(&sr).ok_or(Fault::SpecialRegister(sr))?[lane];
        Ok((v % TILE) as f32 + 0.5)
    };
    Ok((coord(80)?, coord(81)?))
}

fn eval(p: [f32; 3], x: f32, y: f32) -> f32 {
    x.mul_add(p[0], y.mul_add(p[1], p[2]))
}

/// `iter` (`perspective` false) and `iterproj`.
pub(super) fn iter(w: &mut WaveState, o: &Ops<'_>, perspective: bool) -> Result<(), Fault> {
    let unmodelled = [
        "forwarding",
        "elide",
        "kill",
        "unk1",
        "unk2",
        "unk3",
        "unk4",
        "unk5",
    ];
    require_fields(o, "varying read", &unmodelled.map(|f| (f, 0)))?;
    match o.field("interpolation") {
        0 | 2 => {}
        i => {
            return Err(Fault::UnsupportedForm {
                what: format!("sample interpolation ({i}): sample positions are not modelled"),
            })
        }
    }
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
    for lane in active(w).collect::<Vec<_>>() {
        let (x, y) = position(w, lane)?;
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
    let p = plane(w, cf_index(o, "I")?)?;
    for lane in active(w).collect::<Vec<_>>() {
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
