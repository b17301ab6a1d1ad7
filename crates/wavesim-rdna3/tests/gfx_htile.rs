//! HTILE addresses (`exec::image::htile`) against addrlib's own for gfx1100: the golden file
//! tests/golden/addrlib_htile_gfx11.txt, written by tools/radv/addrlib_goldens.sh from Mesa
//! 22.3.6's addrlib (tools/radv/addrlib_htile.cpp): per surface its HTILE bytes, and the byte
//! offset of sampled 8x8 tiles' words.

use wavesim_rdna3::exec::image::htile::HtileLayout;

#[test]
fn htile_addresses_match_addrlib() {
    let text = include_str!("golden/addrlib_htile_gfx11.txt");
    let (mut surfaces, mut tiles) = (0, 0);
    let mut cur: Option<(HtileLayout, String)> = None;
    for line in text.lines() {
        let f: Vec<u64> = line
            .split_whitespace()
            .skip(1)
            .map(|v| v.parse().expect("a number"))
            .collect();
        if line.starts_with("htile ") {
            let l = HtileLayout::new(f[0] as u32, f[1] as u32, f[2] as u32, f[3] as u32)
                .unwrap_or_else(|e| panic!("{line}: {e}"));
            assert_eq!(l.bytes(), f[4], "{line}: HTILE bytes");
            cur = Some((l, line.to_string()));
            surfaces += 1;
        } else if line.starts_with("tile ") {
            let (l, s) = cur.as_ref().expect("a tile before any surface");
            let got = l.offset(f[1] as u32, f[2] as u32, f[0] as u32);
            assert_eq!(got, f[3], "{s}: {line}");
            tiles += 1;
        }
    }
    assert_eq!(surfaces, 14);
    assert!(tiles > 1500, "{tiles} tiles");
}

/// A mode without HTILE is refused by name.
#[test]
fn htile_of_a_non_z_mode_is_refused() {
    let e = HtileLayout::new(26, 64, 64, 1).unwrap_err();
    assert!(e.contains("64KB_Z_X"), "{e}");
}
