//! Helpers shared by the pixel-shader tests that build parameter LDS images by hand
//! (gfx_interp_f16, gfx_aco).
#![allow(dead_code)] // each test binary uses a subset

/// An LDS image with one primitive: `words[attr][chan]` = the P0, P10, P20 dwords, at dword
/// attr * 12 + vertex * 4 + chan (RDNA3 ISA 12.2.1 "LDS Parameter Loads": P0.xyzw, P10.xyzw,
/// P20.xyzw per attribute and primitive; lds_param_offset 0).
pub fn lds(words: &[[[u32; 3]; 4]]) -> Vec<u8> {
    let mut b = vec![0u8; 65536];
    for (a, chans) in words.iter().enumerate() {
        for (c, ps) in chans.iter().enumerate() {
            for (v, w) in ps.iter().enumerate() {
                let at = (a * 12 + v * 4 + c) * 4;
                b[at..at + 4].copy_from_slice(&w.to_le_bytes());
            }
        }
    }
    b
}

/// A full wave and a partial EXEC (whole quads off and quads with one to three lanes on).
pub fn execs(w64: bool) -> [u64; 2] {
    let full = if w64 { u64::MAX } else { 0xffff_ffff };
    [full, 0x7f3a_0000_e1c5_fff6 & full]
}

/// Per lane barycentrics I and J with full f32 mantissas.
pub fn bary(l: usize) -> (f32, f32) {
    let i = (l as f32 * 0.0371 + 0.0137) / 3.0;
    let j = 1.0 - i - (l as f32 * 0.0113 + 0.071) / 7.0;
    (i, j)
}
