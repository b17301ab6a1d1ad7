//! Primitive clipping in clip coordinates (Vulkan 1.3 "Fixed-Function Vertex Post-Processing",
//! "Primitive Clipping"), with a guard band.
//!
//! The view volume is -w <= x, y <= w, 0 <= z <= w (z only without depth clamp), intersected with
//! every exported clip distance >= 0. Like hardware, the x and y planes are replaced by a guard
//! band: a triangle is cut in x/y only where it leaves [-GUARD_BAND, GUARD_BAND] framebuffer
//! pixels, and the rasteriser limits fragments to the viewport rectangle (and scissor and
//! framebuffer), which draws the same pixels as clipping at x, y = +-w would, without new
//! vertices (and their rounding) on the viewport's edges. Every guard-band plane is linear in clip
//! coordinates (xf <= G  <=>  G w - ox w - (px / 2) x >= 0 for the viewport's ox, px), so it
//! clips as the view-volume planes do. A last plane w >= W_MIN keeps 1 / w finite.
//!
//! Arithmetic: f64. A new vertex on the edge from an inside vertex A to an outside vertex B is
//! A + t (B - A), t = dA / (dA - dB), always computed from the inside end so a shared edge gives
//! the same point in both triangles; its attributes are interpolated with the same t in clip space
//! (which keeps them perspective-correct) and rounded to f32. Points are kept or dropped whole
//! (the spec: a point outside the clip volume is discarded), using the view volume itself.

use crate::gfx::pipeline::Viewport;

/// The guard band: framebuffer coordinates within +-2^20 pixels are not clipped in x and y
/// (snapped to 1/256 pixel they stay below 2^29, so the rasteriser's edge functions fit i64).
pub const GUARD_BAND: f64 = (1u64 << 20) as f64;
/// The smallest w a clipped vertex keeps.
pub const W_MIN: f64 = 1e-30;

/// A vertex as the clipper sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct ClipVertex {
    pub pos: [f64; 4],
    pub attrs: Vec<[f32; 4]>,
    /// Exported clip distances (ClipDistance[i]).
    pub dist: Vec<f64>,
}

/// The planes, as functions of a vertex that are >= 0 inside.
pub struct Planes {
    vp: Viewport,
    /// Clip against 0 <= z <= w (off with depth clamp).
    depth: bool,
    dists: usize,
}

impl Planes {
    pub fn new(vp: Viewport, depth_clamp: bool, clip_distances: usize) -> Planes {
        Planes {
            vp,
            depth: !depth_clamp,
            dists: clip_distances,
        }
    }

    fn count(&self) -> usize {
        5 + 2 * usize::from(self.depth) + self.dists
    }

    /// The signed distance of `v` to plane `k`.
    fn eval(&self, k: usize, v: &ClipVertex) -> f64 {
        let [x, y, z, w] = v.pos;
        let (ox, px) = (
            self.vp.x as f64 + self.vp.width as f64 / 2.0,
            self.vp.width as f64 / 2.0,
        );
        let (oy, py) = (
            self.vp.y as f64 + self.vp.height as f64 / 2.0,
            self.vp.height as f64 / 2.0,
        );
        match k {
            0 => w - W_MIN,
            // xf <= G and xf >= -G, with xf w = ox w + px x (w > 0).
            1 => GUARD_BAND * w - ox * w - px * x,
            2 => GUARD_BAND * w + ox * w + px * x,
            3 => GUARD_BAND * w - oy * w - py * y,
            4 => GUARD_BAND * w + oy * w + py * y,
            _ => {
                let k = k - 5;
                if self.depth && k < 2 {
                    if k == 0 {
                        z
                    } else {
                        w - z
                    }
                } else {
                    v.dist[k - 2 * usize::from(self.depth)]
                }
            }
        }
    }

    /// Whether a point survives: inside the view volume (-w <= x, y <= w, and z unless clamped)
    /// and every clip distance.
    pub fn keeps_point(&self, v: &ClipVertex) -> bool {
        let [x, y, z, w] = v.pos;
        w > 0.0
            && -w <= x
            && x <= w
            && -w <= y
            && y <= w
            && (!self.depth || (0.0 <= z && z <= w))
            && v.dist.iter().all(|&d| d >= 0.0)
    }
}

fn lerp(a: &ClipVertex, b: &ClipVertex, t: f64) -> ClipVertex {
    let f = |x: f64, y: f64| x + t * (y - x);
    ClipVertex {
        pos: [0, 1, 2, 3].map(|c| f(a.pos[c], b.pos[c])),
        attrs: a
            .attrs
            .iter()
            .zip(&b.attrs)
            .map(|(p, q)| [0, 1, 2, 3].map(|c| f(p[c] as f64, q[c] as f64) as f32))
            .collect(),
        dist: a.dist.iter().zip(&b.dist).map(|(&p, &q)| f(p, q)).collect(),
    }
}

/// The point where the edge from inside `a` (distance da >= 0) to outside `b` (db < 0) crosses.
fn cross(a: &ClipVertex, da: f64, b: &ClipVertex, db: f64) -> ClipVertex {
    lerp(a, b, da / (da - db))
}

/// Clips a convex polygon (a triangle) against every plane (Sutherland-Hodgman). The result has
/// the input's winding; fewer than 3 vertices means nothing is left. A polygon inside every
/// plane is returned unchanged.
pub fn clip_polygon(planes: &Planes, poly: Vec<ClipVertex>) -> Vec<ClipVertex> {
    let mut poly = poly;
    for k in 0..planes.count() {
        let d: Vec<f64> = poly.iter().map(|v| planes.eval(k, v)).collect();
        // NaN positions fail every plane: the primitive is dropped.
        if d.iter().all(|&x| x >= 0.0) {
            continue;
        }
        let mut out = Vec::with_capacity(poly.len() + 1);
        for i in 0..poly.len() {
            let j = (i + 1) % poly.len();
            let (di, dj) = (d[i], d[j]);
            let (ini, inj) = (di >= 0.0, dj >= 0.0);
            if ini {
                out.push(poly[i].clone());
            }
            if ini && !inj && !dj.is_nan() {
                out.push(cross(&poly[i], di, &poly[j], dj));
            } else if !ini && inj && !di.is_nan() {
                out.push(cross(&poly[j], dj, &poly[i], di));
            }
        }
        if out.len() < 3 {
            return Vec::new();
        }
        poly = out;
    }
    poly
}

/// Clips a line segment; None when nothing is left.
pub fn clip_line(planes: &Planes, a: &ClipVertex, b: &ClipVertex) -> Option<[ClipVertex; 2]> {
    let (mut a, mut b) = (a.clone(), b.clone());
    for k in 0..planes.count() {
        let (da, db) = (planes.eval(k, &a), planes.eval(k, &b));
        match (da >= 0.0, db >= 0.0) {
            (true, true) => {}
            (false, false) => return None,
            (true, false) => b = cross(&a, da, &b, db),
            (false, true) => a = cross(&b, db, &a, da),
        }
    }
    Some([a, b])
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(x: f64, y: f64, z: f64, w: f64) -> ClipVertex {
        ClipVertex {
            pos: [x, y, z, w],
            attrs: vec![[x as f32, 0.0, 0.0, 1.0]],
            dist: vec![],
        }
    }

    fn vp() -> Viewport {
        Viewport::full_y_up(64, 64)
    }

    #[test]
    fn a_triangle_inside_the_guard_band_is_not_cut() {
        let p = Planes::new(vp(), false, 0);
        // x = 1000 w is xf = 32 + 32 * 1000 = 32032 pixels: off the viewport, inside the band.
        let t = vec![
            v(-0.5, 0.0, 0.5, 1.0),
            v(1000.0, 0.0, 0.5, 1.0),
            v(0.0, 1.0, 0.5, 1.0),
        ];
        assert_eq!(clip_polygon(&p, t.clone()), t);
    }

    #[test]
    fn near_plane_cut_interpolates_in_clip_space() {
        let p = Planes::new(vp(), false, 0);
        // Vertex 1 has z = -1 (behind the near plane z = 0). Edge 0 -> 1: z goes 1 -> -1, so
        // t = 1 / (1 - (-1)) = 0.5: the new vertex is the midpoint (x = 0.25, attr 0.25).
        // Edge 1 -> 2: z -1 -> 1, the crossing from the inside end 2: t = 0.5, x = 0.25 too.
        let t = vec![
            v(-0.5, 0.0, 1.0, 2.0),
            v(1.0, 0.0, -1.0, 2.0),
            v(-0.5, 1.0, 1.0, 2.0),
        ];
        let c = clip_polygon(&p, t);
        assert_eq!(c.len(), 4);
        assert_eq!(c[1].pos, [0.25, 0.0, 0.0, 2.0]);
        assert_eq!(c[1].attrs[0][0], 0.25);
        assert_eq!(c[2].pos, [0.25, 0.5, 0.0, 2.0]);
    }

    #[test]
    fn a_vertex_near_w_zero_is_cut_at_the_guard_band() {
        let p = Planes::new(vp(), false, 0);
        // w = 2e-5: xf = 32 + 32 * 0.5 / 2e-5 = 800032 < 2^20: inside the band, so no cut in x.
        // y: yf = 32 - 32 * 0.5 / 2e-5 = -799968: inside too. A smaller w is cut.
        let t = vec![
            v(-0.5, -0.5, 0.0, 1.0),
            v(0.5, 0.5, 0.0, 2e-5),
            v(0.5, -0.5, 0.0, 1.0),
        ];
        assert_eq!(clip_polygon(&p, t.clone()).len(), 3);
        let t = vec![
            v(-0.5, -0.5, 0.0, 1.0),
            v(0.5, 0.5, 0.0, 2e-8),
            v(0.5, -0.5, 0.0, 1.0),
        ];
        let c = clip_polygon(&p, t);
        assert!(c.len() >= 3);
        for x in &c {
            let xf = 32.0 + 32.0 * x.pos[0] / x.pos[3];
            assert!(xf.abs() <= GUARD_BAND * (1.0 + 1e-9), "{xf}");
        }
    }

    #[test]
    fn clip_distances_cut_and_points_are_kept_whole() {
        let p = Planes::new(vp(), false, 1);
        let mut a = v(-1.0, 0.0, 0.5, 1.0);
        let mut b = v(1.0, 0.0, 0.5, 1.0);
        a.dist = vec![-1.0];
        b.dist = vec![3.0];
        // d goes -1 -> 3: t from b = 3 / (3 + 1) = 0.75 towards a: x = 1 - 0.75 * 2 = -0.5.
        let [c, d] = clip_line(&p, &a, &b).unwrap();
        assert_eq!((c.pos[0], d.pos[0]), (-0.5, 1.0));
        assert!(!p.keeps_point(&a) && p.keeps_point(&b));
        assert!(!p.keeps_point(&v(1.5, 0.0, 0.5, 1.0)));
    }
}
