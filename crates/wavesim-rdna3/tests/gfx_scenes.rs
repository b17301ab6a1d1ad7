//! The example scenes of corpus/gfx/draw (what the README's `wavesim draw` example renders):
//! each draws, and its PNG equals the committed one (regenerate with WAVESIM_BLESS=1 after a
//! deliberate change; the pixel-exact check against an independent rasteriser is gfx_draw.rs).

use std::path::PathBuf;
use wavesim_rdna3::gfx::scene::draw_scene_file;

#[test]
fn example_scenes_render_their_committed_pngs() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/gfx/draw");
    for name in ["gradient", "depth", "pipeline"] {
        let (r, pngs) = draw_scene_file(&dir.join(format!("{name}.toml"))).unwrap();
        assert!(r.stats.ps_waves > 0);
        let png_path = dir.join(format!("{name}.png"));
        if std::env::var_os("WAVESIM_BLESS").is_some() {
            std::fs::write(&png_path, &pngs[0]).unwrap();
        }
        let want = std::fs::read(&png_path).unwrap();
        assert!(want == pngs[0], "{name}.png differs from the rendering");
    }
}
