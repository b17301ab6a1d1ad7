//! Multisampling's fixed-function rules: where a pixel's samples lie and which of them a
//! primitive covers.
//!
//! - Sample locations: Vulkan's standard sample locations (Vulkan 1.3, "Multisampling",
//!   table "Standard sample locations", used when `standardSampleLocations` is true, as RADV
//!   reports), in 1/16 pixel from the pixel's top-left corner; all lie on the 1/256-pixel
//!   grid the rasteriser snaps to, so coverage is exact.
//! - The hardware takes its locations from PA_SC_AA_SAMPLE_LOCS_PIXEL_*: per sample a signed
//!   4-bit x and y offset in 1/16 pixel from the pixel centre (Mesa's `sid.h` S0_X [3:0],
//!   S0_Y [7:4], S1_X [11:8] ...; RADV writes its `sample_locs_4x` etc. there);
//!   [`locations_from_register`] turns a register into locations to compare with the standard
//!   ones.
//! - Coverage: sample k of pixel (px, py) is covered when its location passes the rasteriser's
//!   rule (edge functions of the snapped vertices > 0, or = 0 on a top or left edge,
//!   `raster::Setup::covered_at`), bit k of the coverage mask; the sample mask (pSampleMask,
//!   PA_SC_AA_MASK_*) is ANDed in before shading.
//! - Centroid: a fully covered pixel's centroid is its centre (gfx10.3+ hardware with
//!   PA_SC_AA_CONFIG.COVERED_CENTROID_IS_CENTER, which RADV sets: Mesa 22.3's
//!   `radv_pipeline_init_multisample_state`); otherwise the first covered sample in the order
//!   PA_SC_CENTROID_PRIORITY_* gives. RADV's order (`radv_compute_centroid_priority`) is by
//!   squared distance from the centre, the lower index first among equals.

use crate::gfx::pipeline::MultisampleState;
use crate::gfx::raster::{Setup, SUBPIXEL};

/// Vulkan's standard sample locations (x, y) in 1/16 pixel, sample 0 first, for 1, 2, 4, 8 and
/// 16 samples; None for other counts.
pub fn standard_locations(samples: u32) -> Option<&'static [(u8, u8)]> {
    const L1: [(u8, u8); 1] = [(8, 8)];
    const L2: [(u8, u8); 2] = [(12, 12), (4, 4)];
    const L4: [(u8, u8); 4] = [(6, 2), (14, 6), (2, 10), (10, 14)];
    const L8: [(u8, u8); 8] = [
        (9, 5),
        (7, 11),
        (13, 9),
        (5, 3),
        (3, 13),
        (1, 7),
        (11, 15),
        (15, 1),
    ];
    const L16: [(u8, u8); 16] = [
        (9, 9),
        (7, 5),
        (5, 10),
        (12, 7),
        (3, 6),
        (10, 13),
        (13, 11),
        (11, 3),
        (6, 14),
        (8, 1),
        (4, 2),
        (2, 12),
        (0, 8),
        (15, 4),
        (14, 15),
        (1, 0),
    ];
    Some(match samples {
        1 => &L1,
        2 => &L2,
        4 => &L4,
        8 => &L8,
        16 => &L16,
        _ => return None,
    })
}

/// The four locations (1/16 pixel from the top-left corner) one PA_SC_AA_SAMPLE_LOCS register
/// gives: per sample a signed 4-bit x [4k+3:4k] ... offset from the centre (8, 8).
pub fn locations_from_register(reg: u32) -> [(i32, i32); 4] {
    let nib = |i: u32| ((reg >> (4 * i) & 0xf) as i32 ^ 8) - 8;
    [0, 1, 2, 3].map(|k| (8 + nib(2 * k), 8 + nib(2 * k + 1)))
}

/// The coverage mask of pixel (px, py): bit k set when location k (1/16 pixel) is covered.
pub fn coverage(setup: &Setup, px: i64, py: i64, locations: &[(u8, u8)]) -> u32 {
    let unit = SUBPIXEL as i64 / 16;
    locations
        .iter()
        .enumerate()
        .filter(|(_, &(x, y))| setup.covered_at(px, py, (x as i64 * unit, y as i64 * unit)))
        .fold(0, |m, (k, _)| m | 1 << k)
}

/// RADV's centroid order: the samples by squared distance of their location from the pixel
/// centre, nearest first, the lower index first among equals.
pub fn centroid_priority(locations: &[(u8, u8)]) -> Vec<u8> {
    let d = |&(x, y): &(u8, u8)| (x as i32 - 8).pow(2) + (y as i32 - 8).pow(2);
    let mut order: Vec<u8> = (0..locations.len() as u8).collect();
    order.sort_by_key(|&k| d(&locations[k as usize]));
    order
}

/// The PA_SC_CENTROID_PRIORITY_0/1 pair as a sample order: DISTANCE_i [4i+3:4i] is the
/// sample of priority i (i = 0..7 over the two registers); RADV repeats the order of
/// `samples` samples to fill the eight fields, so the first `samples` are the order.
pub fn priority_from_registers(p0: u32, samples: u32) -> Vec<u8> {
    (0..samples).map(|i| (p0 >> (4 * i) & 0xf) as u8).collect()
}

/// A draw's multisampling, resolved: the sample count, locations and centroid order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Samples {
    pub count: u32,
    /// pSampleMask restricted to the samples that exist.
    pub mask: u32,
    pub locations: Vec<(u8, u8)>,
    pub priority: Vec<u8>,
    /// The PS runs once per covered sample.
    pub shading: bool,
    /// The MRTZ channel of the exported sample mask.
    pub mask_export: Option<usize>,
}

impl Samples {
    /// The state's samples; Err: why they cannot be rasterised.
    pub fn new(ms: &MultisampleState) -> Result<Samples, String> {
        let n = ms.samples;
        let standard = match n {
            1 | 2 | 4 | 8 => standard_locations(n).unwrap_or(&[]),
            _ => {
                return Err(format!(
                    "{n} samples per pixel: 1, 2, 4 or 8 (RADV's framebufferColorSampleCounts)"
                ))
            }
        };
        let locations = ms.locations.clone().unwrap_or_else(|| standard.to_vec());
        if locations.len() != n as usize || locations.iter().any(|&(x, y)| x > 15 || y > 15) {
            return Err(format!(
                "{} sample locations for {n} samples (each x, y in 0..=15 sixteenths)",
                locations.len()
            ));
        }
        let priority = ms
            .centroid_priority
            .clone()
            .unwrap_or_else(|| centroid_priority(&locations));
        if ms.mask_export.is_some_and(|c| c > 3) {
            return Err(format!(
                "the sample mask export's MRTZ channel {:?} (0-3)",
                ms.mask_export
            ));
        }
        let mut seen = 0u32;
        for &k in &priority {
            seen |= 1 << (k as u32 & 31);
        }
        if priority.len() != n as usize || seen != (1u32 << n) - 1 {
            return Err(format!(
                "centroid priority {priority:?} is not an order of the {n} samples"
            ));
        }
        Ok(Samples {
            count: n,
            mask: ms.sample_mask & ((1u32 << n) - 1),
            locations,
            priority,
            shading: ms.sample_shading,
            mask_export: ms.mask_export,
        })
    }

    /// The pixel's coverage with the sample mask applied.
    pub fn coverage(&self, setup: &Setup, px: i64, py: i64) -> u32 {
        coverage(setup, px, py, &self.locations) & self.mask
    }

    /// Where the centroid terms of a pixel with coverage `mask` (non-zero) are evaluated, in
    /// 1/256 pixel from its corner.
    pub fn centroid(&self, mask: u32) -> (i64, i64) {
        let unit = SUBPIXEL as i64 / 16;
        let half = SUBPIXEL as i64 / 2;
        if mask == (1u32 << self.count) - 1 {
            return (half, half);
        }
        match self.priority.iter().find(|&&k| mask >> k & 1 != 0) {
            Some(&k) => {
                let (x, y) = self.locations[k as usize];
                (x as i64 * unit, y as i64 * unit)
            }
            None => (half, half),
        }
    }

    /// Sample k's location in 1/256 pixel from the pixel's corner.
    pub fn at(&self, k: usize) -> (i64, i64) {
        let unit = SUBPIXEL as i64 / 16;
        let (x, y) = self.locations[k];
        (x as i64 * unit, y as i64 * unit)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gfx::pipeline::Viewport;
    use crate::gfx::raster::{setup, Region, ScreenVertex};

    fn sv(x: f64, y: f64) -> ScreenVertex {
        ScreenVertex {
            x,
            y,
            z: 0.0,
            inv_w: 1.0,
        }
    }

    /// The standard 4x locations (0.375, 0.125), (0.875, 0.375), (0.125, 0.625),
    /// (0.625, 0.875) are what Mesa's `sample_locs_4x` register (offsets (-2, -6), (6, -2),
    /// (-6, 2), (2, 6) from the centre, nibbles 0xe, 0xa, 0x6, 0xe, 0xa, 0x2, 0x2, 0x6 =
    /// 0x622a_e6ae) encodes.
    #[test]
    fn radvs_4x_register_encodes_the_standard_locations() {
        let want: Vec<(i32, i32)> = standard_locations(4)
            .unwrap()
            .iter()
            .map(|&(x, y)| (x as i32, y as i32))
            .collect();
        assert_eq!(locations_from_register(0x622a_e6ae).to_vec(), want);
        assert_eq!(standard_locations(3), None);
        for n in [1, 2, 4, 8, 16] {
            assert_eq!(standard_locations(n).unwrap().len(), n as usize);
        }
    }

    /// A triangle whose vertical left edge is x = 4.5 (y down, interior to the right) over pixel
    /// (4, 4): the 4x samples at x = 4 + 6/16, 4 + 14/16, 4 + 2/16, 4 + 10/16 are covered when
    /// x > 4.5 or on the edge (a left edge is included): samples 1 (x = 4.875) and 3 (4.625),
    /// mask 0b1010. At x = 4.375 exactly (sample 0's x) the edge includes sample 0 (left edge)
    /// and samples 1, 3: mask 0b1011. The centre (4.5) lies on the x = 4.5 edge: covered.
    #[test]
    fn four_samples_are_covered_by_the_top_left_rule() {
        let vp = Viewport::full_y_up(16, 16);
        let region = Region::new(16, 16, &vp, None);
        let locs = standard_locations(4).unwrap();
        for (edge, want) in [(4.5, 0b1010), (4.375, 0b1011)] {
            // Counter-clockwise in y-down framebuffer space: (edge, 0), (edge, 16), (16, 0).
            let (a, b, c) = (sv(edge, 0.0), sv(edge, 16.0), sv(16.0, 0.0));
            let s = setup([&a, &b, &c], region, true).expect("a triangle");
            assert_eq!(coverage(&s, 4, 4, locs), want, "edge x = {edge}");
        }
        let (a, b, c) = (sv(4.5, 0.0), sv(4.5, 16.0), sv(16.0, 0.0));
        let s = setup([&a, &b, &c], region, true).expect("a triangle");
        assert!(s.covered(4, 4));
        assert_eq!(coverage(&s, 5, 4, locs), 0b1111);
        assert_eq!(coverage(&s, 3, 4, locs), 0);
    }

    /// RADV's centroid order: squared distances from the centre (8, 8). 2x: (4,4)^2 = 32 both:
    /// 0, 1. 4x: 2^2 + 6^2 = 40 for all four: 0, 1, 2, 3. 8x: 10, 10, 26, 34, 50, 50, 58, 98:
    /// 0..7 in order. The register form repeats the order over eight nibbles (RADV's 4x value
    /// 0x3210_3210).
    #[test]
    fn radvs_centroid_order_and_its_register() {
        for n in [2, 4, 8] {
            let want: Vec<u8> = (0..n as u8).collect();
            assert_eq!(centroid_priority(standard_locations(n).unwrap()), want);
        }
        assert_eq!(centroid_priority(&[(8, 1), (8, 8)]), vec![1, 0]);
        assert_eq!(priority_from_registers(0x3210_3210, 4), vec![0, 1, 2, 3]);
        assert_eq!(priority_from_registers(0x1010_1010, 2), vec![0, 1]);
    }

    /// The centroid: the centre (128, 128) when every sample is covered; else the first covered
    /// sample in priority order (4x, mask 0b1100: sample 2 at (2, 10) sixteenths = (32, 160)).
    #[test]
    fn the_centroid_is_the_centre_or_the_first_covered_sample() {
        let s = Samples::new(&MultisampleState {
            samples: 4,
            ..Default::default()
        })
        .unwrap();
        assert_eq!(s.centroid(0b1111), (128, 128));
        assert_eq!(s.centroid(0b1100), (32, 160));
        assert_eq!(s.centroid(0b1000), (160, 224));
        assert_eq!(s.mask, 0b1111);
        let bad = Samples::new(&MultisampleState {
            samples: 4,
            centroid_priority: Some(vec![0, 0, 1, 2]),
            ..Default::default()
        });
        assert!(bad.is_err());
    }
}
