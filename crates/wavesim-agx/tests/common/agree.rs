//! The float agreement rule of the corpus tests that compare with llvmpipe (mesa_corpus.rs,
//! glsl_compute.rs; each file's module comment says why words may differ).

/// `got` and `want` equal, both NaN, or finite f32 values within `tol` relative to the larger
/// magnitude (absolute below 1).
pub fn agree_within(got: u32, want: u32, tol: f32) -> bool {
    if got == want {
        return true;
    }
    let (g, w) = (f32::from_bits(got), f32::from_bits(want));
    if g.is_nan() && w.is_nan() {
        // GLSL gives a NaN result no sign or payload (GLSL 4.60, 4.7.1: "NaNs are not required
        // to be generated"; their bits are not specified), and the two back ends' NaNs differ.
        return true;
    }
    if !g.is_finite() || !w.is_finite() {
        return false;
    }
    (g - w).abs() <= tol * g.abs().max(w.abs()).max(1.0)
}
