//! Texel addresses of linear images against Mesa's addrlib for gfx1100
//! (tests/golden/addrlib_gfx11.txt, written by tools/radv/addrlib_goldens.sh from
//! tools/radv/addrlib_golden.cpp): each surface's T# is packed here from the RDNA3 ISA guide's
//! Table 50 (and SQ_IMG_RSRC_WORD4's DEPTH / PITCH_MSB for a custom pitch), parsed by wavesim,
//! and every sampled texel's byte offset from the base must be addrlib's.

use wavesim_rdna3::exec::image::resource::ImageResource;

fn put(d: &mut [u32], lo: u32, width: u32, v: u64) {
    for b in 0..width {
        let bit = lo + b;
        let (wi, sh) = ((bit / 32) as usize, bit % 32);
        d[wi] = (d[wi] & !(1 << sh)) | (((v >> b) & 1) as u32) << sh;
    }
}

struct Surface {
    kind: String,
    sw_mode: u32,
    bpp: u32,
    width: u32,
    height: u32,
    slices: u32,
    levels: u32,
    pitch: u32,
}

impl Surface {
    /// The 256-bit T# (Table 50) at base 0x10000.
    fn tsharp(&self) -> [u32; 8] {
        let mut d = [0u32; 8];
        put(&mut d, 0, 40, 0x10000 >> 8);
        put(&mut d, 48, 4, (self.levels - 1) as u64);
        put(&mut d, 52, 8, 22); // R32_FLOAT: the format only names the texel size here
        put(&mut d, 62, 14, (self.width - 1) as u64);
        put(&mut d, 78, 14, (self.height - 1) as u64);
        put(&mut d, 112, 4, (self.levels - 1) as u64);
        put(&mut d, 116, 5, self.sw_mode as u64);
        let array = self.slices > 1;
        let ty = match (self.kind.as_str(), array) {
            ("1d", false) => 8,
            ("2d", false) => 9,
            ("1d", true) => 12,
            ("2d", true) => 13,
            (k, _) => panic!("surface kind {k}"),
        };
        put(&mut d, 124, 4, ty);
        if array {
            put(&mut d, 128, 13, (self.slices - 1) as u64);
        } else if self.pitch > 0 {
            put(&mut d, 128, 13, (self.pitch - 1) as u64);
            put(&mut d, 141, 1, ((self.pitch - 1) >> 13) as u64);
        }
        d
    }
}

#[test]
fn linear_texel_addresses_match_addrlib() {
    let text = include_str!("golden/addrlib_gfx11.txt");
    let mut surface: Option<(Surface, ImageResource)> = None;
    let (mut surfaces, mut texels) = (0, 0);
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let n = |i: usize| -> u64 { f[i].parse().unwrap_or_else(|_| panic!("{line}")) };
        match f.first() {
            Some(&"surface") => {
                let s = Surface {
                    kind: f[1].to_string(),
                    sw_mode: n(2) as u32,
                    bpp: n(3) as u32,
                    width: n(4) as u32,
                    height: n(5) as u32,
                    slices: n(6) as u32,
                    levels: n(7) as u32,
                    pitch: n(8) as u32,
                };
                let r = ImageResource::parse(&s.tsharp()).unwrap_or_else(|e| panic!("{line}: {e}"));
                surface = Some((s, r));
                surfaces += 1;
            }
            Some(&"texel") => {
                let (s, r) = surface.as_ref().expect("a surface line first");
                let (level, slice, x, y, want) =
                    (n(1) as u32, n(2) as u32, n(3) as u32, n(4) as u32, n(5));
                let got = r.texel_addr(level, slice, x, y, s.bpp as u64 / 8) - 0x10000;
                assert_eq!(
                    got, want,
                    "{} {}x{} {} bpp, {} slices, {} levels, pitch {}: level {level} slice {slice} ({x}, {y})",
                    s.kind, s.width, s.height, s.bpp, s.slices, s.levels, s.pitch
                );
                texels += 1;
            }
            _ => panic!("bad golden line {line:?}"),
        }
    }
    assert!(
        surfaces >= 12 && texels >= 400,
        "{surfaces} surfaces, {texels} texels"
    );
}
