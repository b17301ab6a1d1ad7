//! `wavesim draw`: the shipped scenes render to the PNGs committed next to them (which the
//! graphics tests of wavesim-rdna3 check pixel for pixel against an independent rasteriser).

use std::path::PathBuf;
use std::process::Command;

#[test]
fn shipped_scenes_render_their_committed_pngs() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/gfx/draw");
    for scene in ["gradient", "depth"] {
        let out =
            std::env::temp_dir().join(format!("wavesim-draw-{scene}-{}.png", std::process::id()));
        let o = Command::new(env!("CARGO_BIN_EXE_wavesim"))
            .args([
                "draw",
                &dir.join(format!("{scene}.toml")).display().to_string(),
                "-o",
            ])
            .arg(&out)
            .output()
            .unwrap();
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        let ours = std::fs::read(&out).unwrap();
        let _ = std::fs::remove_file(&out);
        let want = std::fs::read(dir.join(format!("{scene}.png"))).unwrap();
        assert!(
            ours == want,
            "{scene}: the PNG differs from the committed one"
        );
    }
    let o = Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .args(["draw", "no-such-scene.toml", "-o", "/dev/null"])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(
        !o.status.success() && err.contains("no-such-scene.toml"),
        "{err}"
    );
    assert_ne!(o.status.code(), Some(101));
}
