//! `wavesim draw`: the shipped scenes render to the PNGs committed next to them (which the
//! graphics tests of wavesim-rdna3 check pixel for pixel against an independent rasteriser).

use std::path::PathBuf;
use std::process::Command;

#[test]
fn shipped_scenes_render_their_committed_pngs() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/gfx/draw");
    for scene in ["gradient", "depth", "pipeline"] {
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

/// `--raw DIR` writes the stored values: pipeline.toml's target as a (96, 128, 4) u1 array and its
/// depth as (96, 128) f4: 1.0 (the clear) at pixel (0, 0), and 0.3 inside the red quad (NDC x in
/// [-0.8, 0.4], y in [-0.2, 0.6], z = 0.3), e.g. at pixel (20, 24) = NDC (-0.68, 0.49), which no
/// other primitive covers (the green triangle lies right of its edge x = y).
#[test]
fn raw_output_holds_the_target_and_depth_values() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus/gfx/draw");
    let out = std::env::temp_dir().join(format!("wavesim-draw-raw-{}", std::process::id()));
    std::fs::create_dir_all(&out).unwrap();
    let o = Command::new(env!("CARGO_BIN_EXE_wavesim"))
        .args([
            "draw",
            &dir.join("pipeline.toml").display().to_string(),
            "-o",
        ])
        .arg(out.join("t.png"))
        .arg("--raw")
        .arg(&out)
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let npy = |name: &str| {
        let b = std::fs::read(out.join(name)).unwrap();
        assert_eq!(&b[..6], b"\x93NUMPY");
        let hl = u16::from_le_bytes([b[8], b[9]]) as usize;
        (
            String::from_utf8_lossy(&b[10..10 + hl]).to_string(),
            b[10 + hl..].to_vec(),
        )
    };
    let (h, data) = npy("target0.npy");
    assert!(h.contains("'|u1'") && h.contains("(96, 128, 4)"), "{h}");
    assert_eq!(data.len(), 96 * 128 * 4);
    let (h, data) = npy("depth.npy");
    assert!(h.contains("'<f4'") && h.contains("(96, 128)"), "{h}");
    let z = |x: usize, y: usize| {
        let i = (y * 128 + x) * 4;
        f32::from_le_bytes([data[i], data[i + 1], data[i + 2], data[i + 3]])
    };
    assert_eq!((z(0, 0), z(20, 24)), (1.0, 0.3));
    assert!(!out.join("stencil.npy").exists());
    let _ = std::fs::remove_dir_all(&out);
}
