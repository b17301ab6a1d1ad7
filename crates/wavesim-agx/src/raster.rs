//! Triangle coverage for the linked-program fragment runner: which samples of a pixel a triangle
//! covers, as the rasteriser hands them to the fragment program (`get_sr` sr124, the samples
//! `st_tile` may write).
//!
//! Rule sources:
//! - Vertices are window coordinates in pixels (wavesim's pixel (x, y) spans [x, x + 1) x [y, y +
//!   1); its rows are GL's window rows, see `gallium`), snapped to 1/256 pixel: Mesa's asahi
//!   Vulkan driver reports `subPixelPrecisionBits = 8` (`hk_physical_device.c`). A vertex off that
//!   grid would be rounded by a rule that is not public, so it is a typed error; on the grid every
//!   edge function below is exact integer arithmetic.
//! - Sample s of pixel (x, y) is at (x, y) + the driver's standard position
//!   (`exec::default_sample_positions`, Mesa's `agx_default_sample_positions`, in 1/16 pixel, so
//!   on the grid; Vulkan's standard locations, which Mesa's asahi Vulkan driver claims with
//!   `standardSampleLocations = true`). A sample is covered when it lies strictly inside the triangle (GL 4.6, 14.6.1
//!   and 14.3.1: point sampling at each sample position).
//! - A sample exactly on an edge: GL leaves the choice to the implementation as long as shared
//!   edges are covered once, and no public source gives the G13's tie rule (cmdbuf.xml has no
//!   fill-convention field). So by default it is a typed error ([`RasterError::OnEdge`]);
//!   [`FillRule::TopLeft`] opts in to Direct3D's top-left rule (Microsoft's
//!   "Rasterization Rules" for Direct3D 11: a left edge, or a horizontal edge above the
//!   interior, owns its samples), which is also the rule llvmpipe
//!   applies to a GL framebuffer object (Mesa's `st_atom_rasterizer.c` leaves
//!   `bottom_edge_rule` 0 for a bottom-origin framebuffer; `lp_setup_tri.c`). "Top" is the
//!   smaller y, the hardware's memory rows, which are GL's window rows here.
//! - A triangle of zero area covers nothing (GL 4.6, 14.6.1: its area is 0, so it produces no
//!   fragments).

/// Vertex and sample positions are held in units of 1/SUBPIXEL pixel.
pub const SUBPIXEL: i64 = 256;

/// Largest |coordinate| of a vertex, in pixels: far beyond any framebuffer (4096), small enough
/// that edge functions fit an i64 exactly. Clipping and the guard band are not modelled.
pub const MAX_COORD: f64 = 32768.0;

/// How a sample exactly on an edge is decided.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum FillRule {
    /// The G13's tie rule is not public: a sample on an edge is [`RasterError::OnEdge`].
    #[default]
    Exact,
    /// Direct3D's top-left rule (opt-in; see the module comment).
    TopLeft,
}

/// Why a triangle could not be rasterised.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum RasterError {
    #[error(
        "triangle vertex {vertex} ({x}, {y}): not a multiple of 1/{SUBPIXEL} pixel within \
         +-{MAX_COORD} (the hardware's snapping of other positions is not public)"
    )]
    OffGrid { vertex: usize, x: f64, y: f64 },
    #[error(
        "pixel ({x}, {y}) sample {sample} lies exactly on edge {edge} of the triangle: the \
         G13's tie-breaking rule is not public (`fill_rule = \"top-left\"` opts in to \
         Direct3D's)"
    )]
    OnEdge {
        x: u32,
        y: u32,
        sample: usize,
        edge: usize,
    },
    #[error("sample position ({0}, {1}) is not a multiple of 1/{SUBPIXEL} pixel")]
    SamplePosition(f32, f32),
}

/// A triangle in window coordinates, snapped to the subpixel grid.
#[derive(Debug, Clone, PartialEq)]
pub struct Triangle {
    /// Vertices in 1/SUBPIXEL pixel.
    v: [[i64; 2]; 3],
    /// +1 when the vertices run with positive signed area (x right, y up: counter-clockwise in
    /// GL's window coordinates), -1 when negative, 0 for a degenerate triangle.
    orientation: i64,
    pub fill_rule: FillRule,
}

fn snap(v: f64) -> Option<i64> {
    let s = v * SUBPIXEL as f64;
    (v.is_finite() && v.abs() <= MAX_COORD && s.fract() == 0.0).then_some(s as i64)
}

impl Triangle {
    /// The triangle through `vertices` (window pixels, in drawing order).
    pub fn new(vertices: [[f64; 2]; 3], fill_rule: FillRule) -> Result<Triangle, RasterError> {
        let mut v = [[0i64; 2]; 3];
        for (i, [x, y]) in vertices.into_iter().enumerate() {
            match (snap(x), snap(y)) {
                (Some(sx), Some(sy)) => v[i] = [sx, sy],
                _ => return Err(RasterError::OffGrid { vertex: i, x, y }),
            }
        }
        let mut t = Triangle {
            v,
            orientation: 0,
            fill_rule,
        };
        t.orientation = t.edge(0, v[2]).signum();
        Ok(t)
    }

    /// Twice the signed area in (1/SUBPIXEL)^2: positive when counter-clockwise with y up.
    pub fn doubled_area(&self) -> i64 {
        self.edge(0, self.v[2])
    }

    /// Edge function of edge `i` (vertex i to vertex i + 1) at `p`: the cross product (b - a) x
    /// (p - a), positive on the left of the edge when y points up.
    fn edge(&self, i: usize, p: [i64; 2]) -> i64 {
        let (a, b) = (self.v[i], self.v[(i + 1) % 3]);
        (b[0] - a[0]) * (p[1] - a[1]) - (b[1] - a[1]) * (p[0] - a[0])
    }

    /// Whether edge `i` owns the samples on it under the top-left rule: the interior's side,
    /// the gradient of the oriented edge function (-(b.y - a.y), b.x - a.x) times the
    /// orientation, points right (a left edge) or, for a horizontal edge, towards larger y (an
    /// edge at the top, the smaller y).
    fn top_left(&self, i: usize) -> bool {
        let (a, b) = (self.v[i], self.v[(i + 1) % 3]);
        let nx = -(b[1] - a[1]) * self.orientation;
        let ny = (b[0] - a[0]) * self.orientation;
        nx > 0 || (nx == 0 && ny > 0)
    }

    /// The samples of pixel (x, y) the triangle covers (bit s: sample s at `positions[s]`,
    /// relative to the pixel's corner).
    pub fn pixel_coverage(
        &self,
        x: u32,
        y: u32,
        positions: &[(f32, f32)],
    ) -> Result<u8, RasterError> {
        if self.orientation == 0 {
            return Ok(0);
        }
        let mut mask = 0u8;
        for (s, &(px, py)) in positions.iter().enumerate().take(8) {
            let (Some(dx), Some(dy)) = (snap(px.into()), snap(py.into())) else {
                return Err(RasterError::SamplePosition(px, py));
            };
            let p = [i64::from(x) * SUBPIXEL + dx, i64::from(y) * SUBPIXEL + dy];
            let e = [0, 1, 2].map(|i| self.edge(i, p) * self.orientation);
            // outside any edge's line: not covered, whatever the others say
            if e.iter().any(|&e| e < 0) {
                continue;
            }
            let mut inside = true;
            for i in (0..3).filter(|&i| e[i] == 0) {
                match self.fill_rule {
                    FillRule::Exact => {
                        return Err(RasterError::OnEdge {
                            x,
                            y,
                            sample: s,
                            edge: i,
                        })
                    }
                    FillRule::TopLeft => inside &= self.top_left(i),
                }
            }
            if inside {
                mask |= 1 << s;
            }
        }
        Ok(mask)
    }
}
