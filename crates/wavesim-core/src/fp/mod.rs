//! Floating point shared by the back ends: an exact software float core for the rounding,
//! denormal and NaN rules host FPUs do not have (`soft`), and fused multiply-add over lane arrays
//! through the host's FMA instruction when the CPU has one (`hostfma`).

pub mod hostfma;
pub mod soft;
