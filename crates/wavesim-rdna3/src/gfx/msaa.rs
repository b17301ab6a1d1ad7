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
//!   `raster::Setup::covered_at`), bit k of the coverage mask.

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
}
