//! Rasterisation: the viewport transform, snapping, triangle setup and coverage, and points and
//! lines as rectangles (Vulkan 1.3 "Controlling the Viewport", "Rasterization").
//!
//! Rules (all stated here once; docs/GRAPHICS.md repeats them):
//! - Viewport: xf = ox + (px / 2) xd, yf = oy + (py / 2) yd, zf = pz zd + oz with ox = x + width / 2,
//!   px = width, oy = y + height / 2, py = height, oz = minDepth, pz = maxDepth - minDepth, from
//!   NDC (xd, yd, zd) = (x, y, z) / w; in f64.
//! - Snapping: xf and yf are rounded to 1/256 pixel (8 subpixel bits, as RADV reports
//!   subPixelPrecisionBits), ties away from zero.
//! - Triangles: a pixel is covered when its centre (px + 0.5, py + 0.5) has every edge function of
//!   the snapped vertices (exact integers) > 0, or = 0 on a top or left edge (a top edge is
//!   horizontal with the interior below it, y pointing down; a left edge has the interior on its
//!   right). Zero-area triangles cover nothing.
//! - Facing: Vulkan's a = -1/2 sum(xf_i yf_i+1 - xf_i+1 yf_i) over the snapped vertices of the
//!   (clipped) polygon; a > 0 is counter-clockwise.
//! - Fragments are limited to the region: framebuffer, scissor, and the viewport rectangle (the
//!   pixel centre inside [x, x + width) x [y, y + height), either sign of height), which is what
//!   a guard band needs (see `clip`).
//! - Points: the square of side `size` centred on (xf, yf); its corners are snapped and the
//!   square is rasterised as two triangles, so the top-left rule decides its edges (centres on the
//!   top and left edge are in, right and bottom out). Every attribute is the vertex's.
//! - Lines: Vulkan's rectangular lines ("strictLines"): the rectangle of width `lineWidth` along
//!   the segment, from endpoint to endpoint, corners snapped, rasterised as two triangles (top-left
//!   rule). The corners at each end carry that endpoint's values, so attributes interpolate with
//!   t = ((p - pa) . (pb - pa)) / |pb - pa|^2, perspective-corrected, as the spec's line formula
//!   does. RADV reports strictLines = false (Vulkan then allows either this rectangle or a
//!   parallelogram); the rectangle is the rule here. Bresenham (diamond-exit) lines are not
//!   modelled.

use crate::gfx::pipeline::{Rect, Viewport};
use crate::gfx::ps::PS_INPUT_VGPRS;

/// Subpixel precision of the snapped vertices (1/256 pixel).
pub const SUBPIXEL: f64 = 256.0;

/// A vertex in framebuffer coordinates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScreenVertex {
    pub x: f64,
    pub y: f64,
    /// zf (after the viewport's depth range).
    pub z: f64,
    pub inv_w: f64,
}

/// Clip coordinates (w > 0) to framebuffer coordinates.
pub fn to_screen(vp: &Viewport, c: [f64; 4]) -> ScreenVertex {
    let [x, y, z, w] = c;
    let (xd, yd, zd) = (x / w, y / w, z / w);
    let (px, py) = (vp.width as f64, vp.height as f64);
    let (ox, oy) = (vp.x as f64 + px / 2.0, vp.y as f64 + py / 2.0);
    let (oz, pz) = (
        vp.min_depth as f64,
        vp.max_depth as f64 - vp.min_depth as f64,
    );
    ScreenVertex {
        x: ox + px / 2.0 * xd,
        y: oy + py / 2.0 * yd,
        z: pz * zd + oz,
        inv_w: 1.0 / w,
    }
}

/// The pixels fragments may land on: [x0, x1) x [y0, y1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Region {
    pub x0: i64,
    pub y0: i64,
    pub x1: i64,
    pub y1: i64,
}

impl Region {
    pub fn new(width: u32, height: u32, vp: &Viewport, scissor: Option<Rect>) -> Region {
        let mut r = Region {
            x0: 0,
            y0: 0,
            x1: width as i64,
            y1: height as i64,
        };
        if let Some(s) = scissor {
            r.x0 = r.x0.max(s.x as i64);
            r.y0 = r.y0.max(s.y as i64);
            r.x1 = r.x1.min(s.x as i64 + s.width as i64);
            r.y1 = r.y1.min(s.y as i64 + s.height as i64);
        }
        // Pixel centres c in [lo, hi): px + 0.5 >= lo <=> px >= ceil(lo - 0.5), and
        // px + 0.5 < hi <=> px < ceil(hi - 0.5).
        let span = |a: f32, len: f32| {
            let (lo, hi) = if len < 0.0 {
                (a as f64 + len as f64, a as f64)
            } else {
                (a as f64, a as f64 + len as f64)
            };
            (
                (lo - 0.5).ceil().clamp(-1e12, 1e12) as i64,
                (hi - 0.5).ceil().clamp(-1e12, 1e12) as i64,
            )
        };
        let (vx0, vx1) = span(vp.x, vp.width);
        let (vy0, vy1) = span(vp.y, vp.height);
        r.x0 = r.x0.max(vx0);
        r.x1 = r.x1.min(vx1);
        r.y0 = r.y0.max(vy0);
        r.y1 = r.y1.min(vy1);
        r
    }

    pub fn contains(&self, px: i64, py: i64) -> bool {
        px >= self.x0 && px < self.x1 && py >= self.y0 && py < self.y1
    }

    fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }
}

fn snap(x: f64) -> i64 {
    (x * SUBPIXEL).round() as i64
}

/// Twice the signed area of the snapped triangle, in (1/256 pixel)^2 (framebuffer coordinates,
/// y down): Vulkan's a is -area / 2.
pub fn snapped_area(v: [&ScreenVertex; 3]) -> i64 {
    let fx = v.map(|p| snap(p.x));
    let fy = v.map(|p| snap(p.y));
    (fx[1] - fx[0]) * (fy[2] - fy[0]) - (fx[2] - fx[0]) * (fy[1] - fy[0])
}

/// A triangle after setup: snapped screen vertices and the values barycentrics need.
pub struct Setup {
    fx: [i64; 3],
    fy: [i64; 3],
    /// Twice the signed area in (1/256 pixel)^2 units.
    area: i64,
    z: [f64; 3],
    inv_w: [f64; 3],
    /// The primitive's facing (FRONT_FACE input, stencil face).
    pub front: bool,
    /// Quads to visit: x0, y0 (even), x1, y1 inclusive, within the region.
    pub bbox: [i64; 4],
    region: Region,
}

/// Sets up a triangle; None when it covers nothing (zero area or outside the region).
/// Coordinates are within the guard band (the clipper sees to it).
pub fn setup(v: [&ScreenVertex; 3], region: Region, front: bool) -> Option<Setup> {
    let fx = v.map(|p| snap(p.x));
    let fy = v.map(|p| snap(p.y));
    let area = (fx[1] - fx[0]) * (fy[2] - fy[0]) - (fx[2] - fx[0]) * (fy[1] - fy[0]);
    if area == 0 || region.is_empty() {
        return None;
    }
    let s = SUBPIXEL as i64;
    let lo = |f: &[i64; 3]| f.iter().min().copied().unwrap_or(0).div_euclid(s) - 1;
    let hi = |f: &[i64; 3]| f.iter().max().copied().unwrap_or(0).div_euclid(s) + 1;
    let minx = lo(&fx).max(region.x0);
    let miny = lo(&fy).max(region.y0);
    let maxx = hi(&fx).min(region.x1 - 1);
    let maxy = hi(&fy).min(region.y1 - 1);
    if minx > maxx || miny > maxy {
        return None;
    }
    Some(Setup {
        fx,
        fy,
        area,
        z: v.map(|p| p.z),
        inv_w: v.map(|p| p.inv_w),
        front,
        bbox: [minx & !1, miny & !1, maxx, maxy],
        region,
    })
}

impl Setup {
    /// The snapped triangle's depth plane: (dzf/dxf, dzf/dyf) per pixel and the vertices' zf
    /// (for depth bias, `depth_stencil::bias_offset`).
    pub fn depth_plane(&self) -> ((f64, f64), [f64; 3]) {
        let s = SUBPIXEL;
        let (dx1, dx2) = (
            (self.fx[1] - self.fx[0]) as f64 / s,
            (self.fx[2] - self.fx[0]) as f64 / s,
        );
        let (dy1, dy2) = (
            (self.fy[1] - self.fy[0]) as f64 / s,
            (self.fy[2] - self.fy[0]) as f64 / s,
        );
        let (dz1, dz2) = (self.z[1] - self.z[0], self.z[2] - self.z[0]);
        let a = dx1 * dy2 - dx2 * dy1;
        (
            ((dz1 * dy2 - dz2 * dy1) / a, (dx1 * dz2 - dx2 * dz1) / a),
            self.z,
        )
    }

    /// The edge functions at the point `(dx, dy)` (1/256 pixel) from pixel (px, py)'s corner:
    /// E_k for the edge opposite vertex k, signed so that they sum to `area`.
    fn edges_at(&self, px: i64, py: i64, (dx, dy): (i64, i64)) -> [i64; 3] {
        let s = SUBPIXEL as i64;
        let (cx, cy) = (px * s + dx, py * s + dy);
        let e = |a: usize, b: usize| {
            (self.fx[b] - self.fx[a]) * (cy - self.fy[a])
                - (self.fy[b] - self.fy[a]) * (cx - self.fx[a])
        };
        [e(1, 2), e(2, 0), e(0, 1)]
    }

    /// Top-left rule for the edge opposite vertex k, in the orientation where the interior is
    /// positive.
    fn top_left(&self, k: usize) -> bool {
        let (a, b) = [(1, 2), (2, 0), (0, 1)][k];
        let sign = if self.area > 0 { 1 } else { -1 };
        let (dx, dy) = (
            sign * (self.fx[b] - self.fx[a]),
            sign * (self.fy[b] - self.fy[a]),
        );
        (dy == 0 && dx > 0) || dy < 0
    }

    pub fn covered(&self, px: i64, py: i64) -> bool {
        let s = SUBPIXEL as i64;
        self.covered_at(px, py, (s / 2, s / 2))
    }

    /// Whether the point `(dx, dy)` (1/256 pixel, 0..256) inside pixel (px, py) is covered: the
    /// centre's rule (edge functions > 0, or = 0 on a top or left edge) at a sample position
    /// (gfx::msaa). The region test is the pixel's.
    pub fn covered_at(&self, px: i64, py: i64, d: (i64, i64)) -> bool {
        if !self.region.contains(px, py) {
            return false;
        }
        let e = self.edges_at(px, py, d);
        (0..3).all(|k| {
            let v = if self.area > 0 { e[k] } else { -e[k] };
            v > 0 || (v == 0 && self.top_left(k))
        })
    }

    /// The interpolation terms at the point `d` (1/256 pixel) of pixel (px, py): barycentrics
    /// b_k = E_k / area (f64); linear (I, J) = (b1, b2); perspective b'_k = (b_k / w_k) /
    /// sum_j(b_j / w_j), (I, J) = (b'1, b'2); z = sum b_k zf_k; sum_j(b_j / w_j); b1 / w1, b2 / w2.
    fn terms_at(&self, px: i64, py: i64, d: (i64, i64)) -> Terms {
        let e = self.edges_at(px, py, d);
        let b = e.map(|x| x as f64 / self.area as f64);
        let q = [0, 1, 2].map(|k| b[k] * self.inv_w[k]);
        let sum: f64 = q.iter().sum();
        Terms {
            persp: ((q[1] / sum) as f32, (q[2] / sum) as f32),
            linear: (b[1] as f32, b[2] as f32),
            z: (0..3).map(|k| b[k] * self.z[k]).sum(),
            sum,
            q: (q[1], q[2]),
        }
    }

    /// The depth zf = sum b_k zf_k at the point `d` (1/256 pixel) of pixel (px, py), rounded
    /// once to f32: at the centre it is POS_Z_FLOAT, at a sample location the sample's depth.
    pub fn z_at(&self, px: i64, py: i64, d: (i64, i64)) -> f32 {
        self.terms_at(px, py, d).z as f32
    }

    /// The 24 PS input values of pixel (px, py) in the all-terms layout (see `ps`), each term
    /// ([`Setup::terms_at`]) at the pixel centre, rounded once to f32. Sample and centroid terms
    /// equal the centre terms (one sample). POS_Z, POS_W = sum b_k / w_k, PULL_MODEL =
    /// (POS_W, b1 / w1, b2 / w2), SAMPLE_COVERAGE = 1, ANCILLARY = 0, POS_FIXED_PT = px | py << 16.
    pub fn inputs(&self, px: i64, py: i64) -> [u32; PS_INPUT_VGPRS] {
        let s = SUBPIXEL as i64;
        let t = self.terms_at(px, py, (s / 2, s / 2));
        let (pi, pj) = t.persp;
        let (li, lj) = t.linear;
        let mut v = [0u32; PS_INPUT_VGPRS];
        let bits = |x: f32| x.to_bits();
        for base in [0, 2, 4] {
            v[base] = bits(pi);
            v[base + 1] = bits(pj);
        }
        v[6] = bits(t.sum as f32);
        v[7] = bits(t.q.0 as f32);
        v[8] = bits(t.q.1 as f32);
        for base in [9, 11, 13] {
            v[base] = bits(li);
            v[base + 1] = bits(lj);
        }
        v[15] = 0;
        v[16] = bits(px as f32 + 0.5);
        v[17] = bits(py as f32 + 0.5);
        v[18] = bits(t.z as f32);
        v[19] = bits(t.sum as f32);
        v[20] = u32::from(self.front);
        v[21] = 0;
        v[22] = 1;
        v[23] = (px as u32 & 0xffff) | (py as u32) << 16;
        v
    }

    /// [`Setup::inputs`] of a pixel of a multisampled draw shaded once per pixel: the centroid
    /// terms (PERSP_CENTROID, LINEAR_CENTROID) at `centroid` (1/256 pixel from the corner,
    /// `msaa::Samples::centroid`) and SAMPLE_COVERAGE = `coverage`; everything else at the
    /// centre as for one sample.
    pub fn inputs_multisampled(
        &self,
        px: i64,
        py: i64,
        centroid: (i64, i64),
        coverage: u32,
    ) -> [u32; PS_INPUT_VGPRS] {
        let mut v = self.inputs(px, py);
        let t = self.terms_at(px, py, centroid);
        v[4] = t.persp.0.to_bits();
        v[5] = t.persp.1.to_bits();
        v[13] = t.linear.0.to_bits();
        v[14] = t.linear.1.to_bits();
        v[22] = coverage;
        v
    }

    /// [`Setup::inputs`] of sample `sample` of pixel (px, py) in a draw shaded per sample:
    /// PERSP_SAMPLE, LINEAR_SAMPLE and POS_X/Y/Z/W_FLOAT at the sample's location `at` (1/256
    /// pixel from the corner; the position as SPI_BARYC_CNTL.POS_FLOAT_LOCATION = 2 asks, which
    /// RADV sets with sample shading), ANCILLARY.SAMPLE_ID [11:8] = `sample`, SAMPLE_COVERAGE =
    /// the pixel's whole `coverage` (RADV's shaders AND it with 1 << SampleId themselves: Mesa
    /// 22.3's `radv_lower_fs_intrinsics`); the centre terms stay at the centre.
    pub fn inputs_per_sample(
        &self,
        px: i64,
        py: i64,
        (at, sample): ((i64, i64), u32),
        coverage: u32,
    ) -> [u32; PS_INPUT_VGPRS] {
        let mut v = self.inputs(px, py);
        let t = self.terms_at(px, py, at);
        let s = SUBPIXEL;
        v[0] = t.persp.0.to_bits();
        v[1] = t.persp.1.to_bits();
        v[9] = t.linear.0.to_bits();
        v[10] = t.linear.1.to_bits();
        v[16] = ((px as f64 + at.0 as f64 / s) as f32).to_bits();
        v[17] = ((py as f64 + at.1 as f64 / s) as f32).to_bits();
        v[18] = (t.z as f32).to_bits();
        v[19] = (t.sum as f32).to_bits();
        v[21] = (sample & 0xf) << 8;
        v[22] = coverage;
        v
    }
}

/// The interpolation terms at one point (see [`Setup::terms_at`]).
struct Terms {
    persp: (f32, f32),
    linear: (f32, f32),
    z: f64,
    sum: f64,
    q: (f64, f64),
}

/// The corners of a point's square, in the order (left, top), (right, top), (right, bottom),
/// (left, bottom) of framebuffer coordinates; rasterised as triangles (0, 1, 2) and (0, 2, 3).
pub fn point_square(c: &ScreenVertex, size: f64) -> [ScreenVertex; 4] {
    let h = size / 2.0;
    let at = |dx: f64, dy: f64| ScreenVertex {
        x: c.x + dx,
        y: c.y + dy,
        ..*c
    };
    [at(-h, -h), at(h, -h), at(h, h), at(-h, h)]
}

/// The corners of a line's rectangle: a + n, b + n, b - n, a - n with n the normal of length
/// width / 2; None for a zero-length line. Triangles (0, 1, 2) and (0, 2, 3); corners 0 and 3
/// carry a's values, 1 and 2 b's.
pub fn line_rectangle(a: &ScreenVertex, b: &ScreenVertex, width: f64) -> Option<[ScreenVertex; 4]> {
    let (dx, dy) = (b.x - a.x, b.y - a.y);
    let len = (dx * dx + dy * dy).sqrt();
    if len == 0.0 || !len.is_finite() {
        return None;
    }
    let (nx, ny) = (-dy / len * width / 2.0, dx / len * width / 2.0);
    let at = |p: &ScreenVertex, s: f64| ScreenVertex {
        x: p.x + s * nx,
        y: p.y + s * ny,
        ..*p
    };
    Some([at(a, 1.0), at(b, 1.0), at(b, -1.0), at(a, -1.0)])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sv(x: f64, y: f64) -> ScreenVertex {
        ScreenVertex {
            x,
            y,
            z: 0.0,
            inv_w: 1.0,
        }
    }

    fn region() -> Region {
        Region::new(16, 16, &Viewport::full_y_up(16, 16), None)
    }

    fn covered_set(tris: &[[ScreenVertex; 3]]) -> Vec<(i64, i64)> {
        let mut out = Vec::new();
        for t in tris {
            let s = setup([&t[0], &t[1], &t[2]], region(), true).unwrap();
            for y in 0..16 {
                for x in 0..16 {
                    if s.covered(x, y) {
                        out.push((x, y));
                    }
                }
            }
        }
        out.sort();
        out
    }

    #[test]
    fn a_point_square_covers_its_top_left_closed_area() {
        // Size 2 at (4, 4): the square [3, 5) x [3, 5) holds the centres 3.5 and 4.5 in x and y:
        // pixels (3..=4, 3..=4), each once.
        let q = point_square(&sv(4.0, 4.0), 2.0);
        let got = covered_set(&[[q[0], q[1], q[2]], [q[0], q[2], q[3]]]);
        assert_eq!(got, [(3, 3), (3, 4), (4, 3), (4, 4)]);
        // Size 1 at (4.5, 4.5): the square [4, 5)^2 holds centre (4.5, 4.5) only.
        let q = point_square(&sv(4.5, 4.5), 1.0);
        let got = covered_set(&[[q[0], q[1], q[2]], [q[0], q[2], q[3]]]);
        assert_eq!(got, [(4, 4)]);
        // Size 1 at (4, 4): the centres 3.5 and 4.5 lie on the square's edges x = 3.5 (left, in)
        // and x = 4.5 (right, out), likewise in y: pixel (3, 3) only.
        let q = point_square(&sv(4.0, 4.0), 1.0);
        let got = covered_set(&[[q[0], q[1], q[2]], [q[0], q[2], q[3]]]);
        assert_eq!(got, [(3, 3)]);
    }

    #[test]
    fn a_horizontal_line_is_a_rectangle_of_its_width() {
        // From (2, 5) to (9, 5), width 1: the rectangle [2, 9) x [4.5, 5.5). Centres y = 4.5 lies
        // on the top edge (in), 5.5 on the bottom (out): row 4; x centres 2.5 .. 8.5: pixels 2..=8.
        let r = line_rectangle(&sv(2.0, 5.0), &sv(9.0, 5.0), 1.0).unwrap();
        let got = covered_set(&[[r[0], r[1], r[2]], [r[0], r[2], r[3]]]);
        assert_eq!(got, (2..=8).map(|x| (x, 4)).collect::<Vec<_>>());
        // Width 2 at y = 5.5: [4.5, 6.5) holds the centres 4.5 (on the top edge: in) and 5.5;
        // 6.5 is on the bottom edge (out): rows 4 and 5; x in [2, 4): pixels 2 and 3.
        let r = line_rectangle(&sv(2.0, 5.5), &sv(4.0, 5.5), 2.0).unwrap();
        let got = covered_set(&[[r[0], r[1], r[2]], [r[0], r[2], r[3]]]);
        assert_eq!(got, [(2, 4), (2, 5), (3, 4), (3, 5)]);
        assert!(line_rectangle(&sv(1.0, 1.0), &sv(1.0, 1.0), 1.0).is_none());
    }

    #[test]
    fn the_region_is_framebuffer_scissor_and_viewport() {
        let vp = Viewport {
            x: 2.0,
            y: 3.0,
            width: 8.0,
            height: 4.0,
            min_depth: 0.0,
            max_depth: 1.0,
        };
        let s = Rect {
            x: 4,
            y: 0,
            width: 100,
            height: 5,
        };
        // Viewport centres in [2, 10) x [3, 7): pixels 2..10, 3..7; scissor 4..104, 0..5;
        // framebuffer 16 x 16.
        let r = Region::new(16, 16, &vp, Some(s));
        assert_eq!((r.x0, r.y0, r.x1, r.y1), (4, 3, 10, 5));
        // A negative height spans [y + height, y).
        let r = Region::new(16, 16, &Viewport::full_y_up(16, 8), None);
        assert_eq!((r.x0, r.y0, r.x1, r.y1), (0, 0, 16, 8));
    }

    #[test]
    fn the_viewport_maps_ndc_as_vulkan_says() {
        let vp = Viewport {
            x: 10.0,
            y: 20.0,
            width: 100.0,
            height: 50.0,
            min_depth: 0.25,
            max_depth: 0.75,
        };
        // xd = 0.5: xf = (10 + 50) + 50 * 0.5 = 85; yd = -1: yf = (20 + 25) + 25 * -1 = 20;
        // zd = 0.5: zf = 0.5 * 0.5 + 0.25 = 0.5; from clip (1, -2, 1, 2).
        let s = to_screen(&vp, [1.0, -2.0, 1.0, 2.0]);
        assert_eq!((s.x, s.y, s.z, s.inv_w), (85.0, 20.0, 0.5, 0.5));
    }
}
