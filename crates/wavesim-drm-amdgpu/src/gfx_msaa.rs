//! Multisampling as RADV programs it on gfx11: the scan converter's sample count, locations,
//! sample mask and centroid order, the DB's EQAA settings, and the multisampled colour targets'
//! layout, read from the registers into `wavesim_rdna3::gfx::pipeline::MultisampleState` (whose
//! rules are `gfx::msaa`'s). Fields are from Mesa's `src/amd/registers/gfx11.json`; the values
//! RADV writes are those of Mesa 22.3's `radv_pipeline_init_multisample_state`,
//! `radv_emit_default_sample_locations` and `radv_initialise_color_surface`.
//!
//! Executed: 1, 2, 4 and 8 samples with one fragment per sample (Vulkan has no EQAA), the PS
//! run once per pixel or, with full-rate sample shading, once per sample. Refused by name:
//! sample shading at a fraction of the rate (DB_EQAA.PS_ITER_SAMPLES), a sample mask
//! that differs between the pixels of a quad, sample locations that differ between them,
//! alpha to coverage (DB_ALPHA_TO_MASK.ALPHA_TO_MASK_ENABLE; DB_SHADER_CONTROL's
//! COVERAGE_TO_MASK), and the PA_SC_AA_CONFIG modes
//! RADV does not use for plain Vulkan pipelines.

use wavesim_rdna3::exec::image::msaa::MsaaTiling;
use wavesim_rdna3::gfx::msaa::{locations_from_register, priority_from_registers};
use wavesim_rdna3::gfx::pipeline::MultisampleState;
use wavesim_rdna3::gfx::targets::{texel_bytes, ColorFormat};

use crate::gfx_depth::{only, refuse, RegFn};
use crate::memory::{GpuMemory, MemoryError};

/// The draw's multisample state from PA_SC_AA_CONFIG, PA_SC_MODE_CNTL_0/1, DB_EQAA,
/// PA_SC_AA_MASK_*, PA_SC_AA_SAMPLE_LOCS_PIXEL_* and PA_SC_CENTROID_PRIORITY_*.
pub fn multisample_state(reg: RegFn) -> Result<MultisampleState, String> {
    let or = |n: &str, d: u32| -> Result<u32, String> { Ok(reg(n)?.unwrap_or(d)) };
    let get = |n: &str| -> Result<u32, String> {
        reg(n)?.ok_or_else(|| format!("{n} was not written (its clear-state default is unknown)"))
    };
    // PA_SC_AA_CONFIG: MSAA_NUM_SAMPLES [2:0] (log2), AA_MASK_CENTROID_DTMN [4], MAX_SAMPLE_DIST
    // [16:13] (the farthest sample from the centre: bounds the walk, no effect on coverage),
    // MSAA_EXPOSED_SAMPLES [22:20], DETAIL_TO_EXPOSED_MODE [25:24], COVERAGE_TO_SHADER_SELECT
    // [27:26] (0: SAMPLE_COVERAGE is the raster coverage), SAMPLE_COVERAGE_ENCODING [28],
    // COVERED_CENTROID_IS_CENTER [29].
    let aa = or("PA_SC_AA_CONFIG", 0)?;
    only(
        "PA_SC_AA_CONFIG",
        aa,
        7 | 1 << 4 | 0xf << 13 | 7 << 20 | 1 << 29,
    )?;
    let log = aa & 7;
    // DB_EQAA: MAX_ANCHOR_SAMPLES [2:0], PS_ITER_SAMPLES [6:4], MASK_EXPORT_NUM_SAMPLES [10:8],
    // ALPHA_TO_MASK_NUM_SAMPLES [14:12] (both used only with mask export / alpha to mask, which
    // are refused), HIGH_QUALITY_INTERSECTIONS [16], INCOHERENT_EQAA_READS [17],
    // STATIC_ANCHOR_ASSOCIATIONS [20] (EQAA's, no effect with one fragment per sample),
    // INTERPOLATE_COMP_Z [18] (RADV sets it before gfx11 only).
    let eqaa = or("DB_EQAA", 0)?;
    only(
        "DB_EQAA",
        eqaa,
        7 | 7 << 4 | 7 << 8 | 7 << 12 | 1 << 16 | 1 << 17 | 1 << 20,
    )?;
    // DB_EQAA.PS_ITER_SAMPLES: the PS runs once per 2^n samples; RADV gives log2(samples)
    // for minSampleShading 1 or a shader reading SampleId/SamplePosition (full-rate sample
    // shading, executed), less for a fractional minSampleShading (refused).
    let iter = eqaa >> 4 & 7;
    if iter != 0 && iter != log {
        return refuse(format!(
            "multisampled rasterisation ({} samples, {} shaded per pixel): sample shading \
             at a fraction of the sample rate (DB_EQAA.PS_ITER_SAMPLES) is not executed",
            1 << log,
            1 << iter
        ));
    }
    // DB_SHADER_CONTROL.MASK_EXPORT_ENABLE [8]: the PS exports a sample mask in MRTZ; where
    // depends on SPI_SHADER_Z_FORMAT (ACO's `export_fs_mrt_z` on gfx11): UINT16_ABGR (7, no
    // depth export) puts it in Y[15:0], 32_ABGR (9) in Z. COVERAGE_TO_MASK_ENABLE [7] is
    // refused. (gfx_depth reads the rest of the register when there is a depth buffer.)
    let shader_control = or("DB_SHADER_CONTROL", 0)?;
    if shader_control >> 7 & 1 != 0 {
        return refuse("DB_SHADER_CONTROL.COVERAGE_TO_MASK_ENABLE is not executed");
    }
    let mask_export = if shader_control >> 8 & 1 != 0 {
        match get("SPI_SHADER_Z_FORMAT")? & 0xf {
            7 => Some(1),
            9 => Some(2),
            f => {
                return refuse(format!(
                    "a sample mask export with SPI_SHADER_Z_FORMAT {f} is not executed"
                ))
            }
        }
    } else {
        None
    };
    // PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE [16]: with PS_ITER_SAMPLES 0 the PS still runs once per
    // pixel (RADV sets the bit for shaders reading SampleMaskIn to keep VRS off).
    if log == 0 {
        return Ok(MultisampleState {
            mask_export,
            ..MultisampleState::default()
        });
    }
    let shading = iter == log;
    if shading && get("PA_SC_MODE_CNTL_1")? >> 16 & 1 == 0 {
        return refuse("DB_EQAA.PS_ITER_SAMPLES without PA_SC_MODE_CNTL_1.PS_ITER_SAMPLE");
    }
    // SPI_BARYC_CNTL.POS_FLOAT_LOCATION [17:16]: where POS_X/Y/Z/W_FLOAT are evaluated: 0 the
    // pixel centre, 2 the sample (RADV's value with sample shading); the rasteriser gives the
    // centre when shading per pixel and the sample when shading per sample.
    let loc = or("SPI_BARYC_CNTL", 0)? >> 16 & 3;
    if loc != if shading { 2 } else { 0 } {
        return refuse(format!(
            "SPI_BARYC_CNTL.POS_FLOAT_LOCATION {loc} with sample shading {shading} is not executed"
        ));
    }
    if log > 3 {
        return refuse(format!(
            "PA_SC_AA_CONFIG.MSAA_NUM_SAMPLES {log}: {} samples (1, 2, 4 and 8 are executed)",
            1 << log
        ));
    }
    let n = 1u32 << log;
    if aa >> 20 & 7 != log || eqaa & 7 != log {
        return refuse(format!(
            "PA_SC_AA_CONFIG {aa:#x} / DB_EQAA {eqaa:#x}: exposed or depth samples other than the \
             {n} rasterised (EQAA) are not executed"
        ));
    }
    if aa >> 29 & 1 == 0 {
        return refuse(
            "PA_SC_AA_CONFIG.COVERED_CENTROID_IS_CENTER 0: a fully covered pixel's centroid at a sample is not executed",
        );
    }
    if get("PA_SC_MODE_CNTL_0")? & 1 == 0 {
        return refuse("PA_SC_MODE_CNTL_0.MSAA_ENABLE 0 with several samples is not executed");
    }
    if or("DB_ALPHA_TO_MASK", 0)? & 1 != 0 {
        return refuse("alpha to coverage (DB_ALPHA_TO_MASK.ALPHA_TO_MASK_ENABLE) is not executed");
    }
    // PA_SC_AA_MASK_X0Y0_X1Y0 / _X0Y1_X1Y1: a 16-bit sample mask per pixel of the 2x2 quad
    // (RADV writes pSampleMask to all four).
    let (m0, m1) = (
        or("PA_SC_AA_MASK_X0Y0_X1Y0", !0)?,
        or("PA_SC_AA_MASK_X0Y1_X1Y1", !0)?,
    );
    let mask = m0 & 0xffff;
    if [m0 >> 16, m1 & 0xffff, m1 >> 16].iter().any(|&m| m != mask) {
        return refuse(format!(
            "PA_SC_AA_MASK {m0:#x} {m1:#x}: sample masks that differ between a quad's pixels are not executed"
        ));
    }
    let full = (1u32 << n) - 1;
    // AA_MASK_CENTROID_DTMN 0 (RADV's value): the centroid is chosen from the coverage before
    // the sample mask; the rasteriser chooses it after (D3D's rule). That differs only for a
    // PS reading a centroid term (SPI_PS_INPUT_ENA PERSP_CENTROID [2], LINEAR_CENTROID [6])
    // under a partial mask, which is refused.
    let centroid_terms = or("SPI_PS_INPUT_ENA", 0)? & (1 << 2 | 1 << 6) != 0;
    if mask & full != full && aa >> 4 & 1 == 0 && centroid_terms {
        return refuse(
            "centroid interpolation under a partial sample mask with PA_SC_AA_CONFIG.AA_MASK_CENTROID_DTMN 0 (centroid chosen before the mask) is not executed",
        );
    }
    // PA_SC_AA_SAMPLE_LOCS_PIXEL_<quad pixel>_<k>: samples 4k..4k+3 of that pixel of the quad.
    let mut locations = Vec::with_capacity(n as usize);
    for k in 0..n.div_ceil(4) {
        let words = ["X0Y0", "X1Y0", "X0Y1", "X1Y1"]
            .map(|p| get(&format!("PA_SC_AA_SAMPLE_LOCS_PIXEL_{p}_{k}")));
        let w0 = words[0].clone()?;
        for w in &words[1..] {
            if *w != Ok(w0) {
                return refuse(format!(
                    "PA_SC_AA_SAMPLE_LOCS_PIXEL_*_{k}: sample locations that differ between a quad's pixels are not executed"
                ));
            }
        }
        for (x, y) in locations_from_register(w0)
            .into_iter()
            .take((n - 4 * k).min(4) as usize)
        {
            // Offsets of -8..7 from the centre are 0..15 from the corner.
            locations.push((x as u8, y as u8));
        }
    }
    let p0 = get("PA_SC_CENTROID_PRIORITY_0")?;
    Ok(MultisampleState {
        samples: n,
        sample_mask: mask,
        locations: Some(locations),
        centroid_priority: Some(priority_from_registers(p0, n)),
        sample_shading: shading,
        mask_export,
    })
}

/// CB_COLORn_ATTRIB.NUM_FRAGMENTS [1:0] (log2; gfx11 stores every sample as a fragment) must be
/// the draw's sample count; FORCE_DST_ALPHA_1 [2] is refused.
pub fn check_color_attrib(t: u32, attrib: u32, samples: u32) -> Result<(), String> {
    if attrib & !3 != 0 || 1 << (attrib & 3) != samples {
        return refuse(format!(
            "colour target {t}: CB_COLOR{t}_ATTRIB {attrib:#x} (fragments or forced alpha) with \
             {samples} samples is not executed"
        ));
    }
    Ok(())
}

/// A multisampled colour target's `width` x `height` pixels, every sample, in the order
/// `gfx::targets::Image` holds them (the samples of a pixel together, pixels row-major).
pub fn read_samples(
    mem: &dyn GpuMemory,
    (va, m): (u64, &MsaaTiling),
    (width, height): (u32, u32),
    format: ColorFormat,
) -> Result<Vec<u8>, String> {
    let tb = texel_bytes(format);
    let n = m.samples;
    let mut bytes = vec![0u8; width as usize * height as usize * n as usize * tb];
    let fail = |e: MemoryError| format!("multisampled colour target at {va:#x}: {e}");
    for (i, texel) in bytes.chunks_mut(tb).enumerate() {
        let (p, s) = (i as u32 / n, i as u32 % n);
        let (x, y) = (p % width, p / width);
        mem.read(m.texel_addr(va, 0, x, y, s), texel)
            .map_err(fail)?;
    }
    Ok(bytes)
}

/// Writes back what [`read_samples`] read.
pub fn write_samples(
    mem: &dyn GpuMemory,
    (va, m): (u64, &MsaaTiling),
    (width, _height): (u32, u32),
    format: ColorFormat,
    bytes: &[u8],
) -> Result<(), String> {
    let tb = texel_bytes(format);
    let n = m.samples;
    let fail = |e: MemoryError| format!("multisampled colour target at {va:#x}: {e}");
    for (i, texel) in bytes.chunks(tb).enumerate() {
        let (p, s) = (i as u32 / n, i as u32 % n);
        let (x, y) = (p % width, p / width);
        mem.write(m.texel_addr(va, 0, x, y, s), texel)
            .map_err(fail)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn regs(over: &[(&str, u32)]) -> HashMap<String, u32> {
        // RADV 22.3's 4x state (radv_pipeline_init_multisample_state for 4 samples, the 4x
        // sample locations 0x622ae6ae in all four quad pixels, centroid order 0x32103210).
        let mut m: HashMap<String, u32> = [
            ("PA_SC_AA_CONFIG", 2 | 6 << 13 | 2 << 20 | 1 << 29),
            (
                "DB_EQAA",
                2 | 2 << 8 | 2 << 12 | 1 << 16 | 1 << 17 | 1 << 20,
            ),
            ("PA_SC_MODE_CNTL_0", 3),
            ("PA_SC_AA_MASK_X0Y0_X1Y0", 0xffff_ffff),
            ("PA_SC_AA_MASK_X0Y1_X1Y1", 0xffff_ffff),
            ("PA_SC_CENTROID_PRIORITY_0", 0x3210_3210),
        ]
        .iter()
        .map(|&(k, v)| (k.to_string(), v))
        .collect();
        for p in ["X0Y0", "X1Y0", "X0Y1", "X1Y1"] {
            m.insert(format!("PA_SC_AA_SAMPLE_LOCS_PIXEL_{p}_0"), 0x622a_e6ae);
        }
        for &(k, v) in over {
            m.insert(k.to_string(), v);
        }
        m
    }

    fn state(over: &[(&str, u32)]) -> Result<MultisampleState, String> {
        let m = regs(over);
        multisample_state(&|n: &str| Ok(m.get(n).copied()))
    }

    #[test]
    fn radvs_4x_registers_give_the_standard_state() {
        let s = state(&[]).unwrap();
        assert_eq!(s.samples, 4);
        assert_eq!(s.sample_mask, 0xffff);
        assert_eq!(
            s.locations.unwrap(),
            vec![(6, 2), (14, 6), (2, 10), (10, 14)]
        );
        assert_eq!(s.centroid_priority.unwrap(), vec![0, 1, 2, 3]);
    }

    #[test]
    fn what_is_not_executed_is_refused_by_name() {
        let e = state(&[("DB_EQAA", 2 | 1 << 4)]).unwrap_err();
        assert!(e.contains("sample shading at a fraction"), "{e}");
        // Full-rate sample shading: PS_ITER_SAMPLE and POS_FLOAT_LOCATION 2 as RADV sets them.
        let e = state(&[("DB_EQAA", 2 | 2 << 4), ("PA_SC_MODE_CNTL_1", 0)]).unwrap_err();
        assert!(e.contains("PS_ITER_SAMPLE"), "{e}");
        let full = [
            ("DB_EQAA", 2 | 2 << 4),
            ("PA_SC_MODE_CNTL_1", 1 << 16),
            ("SPI_BARYC_CNTL", 2 << 16),
        ];
        assert!(state(&full).unwrap().sample_shading);
        // A sample mask export: Y[15:0] with UINT16_ABGR (7), Z with 32_ABGR (9), at any count.
        let mask = |f: u32, aa: u32| {
            state(&[
                ("DB_SHADER_CONTROL", 1 << 8),
                ("SPI_SHADER_Z_FORMAT", f),
                ("PA_SC_AA_CONFIG", aa),
            ])
        };
        assert_eq!(mask(7, 2 | 2 << 20 | 1 << 29).unwrap().mask_export, Some(1));
        assert_eq!(mask(9, 0).unwrap().mask_export, Some(2));
        assert!(mask(1, 0).unwrap_err().contains("SPI_SHADER_Z_FORMAT 1"));
        let e = state(&[("DB_SHADER_CONTROL", 1 << 7)]).unwrap_err();
        assert!(e.contains("COVERAGE_TO_MASK"), "{e}");
        let e = state(&[("DB_ALPHA_TO_MASK", 1)]).unwrap_err();
        assert!(e.contains("alpha to coverage"), "{e}");
        let e = state(&[("PA_SC_AA_MASK_X0Y1_X1Y1", 0xffff_0001)]).unwrap_err();
        assert!(e.contains("differ"), "{e}");
        let e = state(&[("PA_SC_AA_SAMPLE_LOCS_PIXEL_X1Y1_0", 0)]).unwrap_err();
        assert!(e.contains("sample locations"), "{e}");
        assert_eq!(state(&[("PA_SC_AA_CONFIG", 0)]).unwrap().samples, 1);
        assert!(check_color_attrib(0, 2, 4).is_ok());
        assert!(check_color_attrib(0, 1, 4).is_err());
        assert!(check_color_attrib(0, 4 | 2, 4).is_err());
    }
}
