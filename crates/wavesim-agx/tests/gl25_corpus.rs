//! corpus/agx/gl25: GLSL fragment shaders compiled and linked by Mesa 25.0.7's asahi compiler as
//! its gallium driver links a fragment program (prolog, main part, FS epilog; the main part's
//! preamble) with the end-of-tile program (tools/agx/glsl_graphics.c, tools/agx/gl25_corpus.py),
//! run as `abi = "mesa-25.0-linked"` jobs: the epilog's `zs_emit` gives the depth, its `st_tile`
//! fills the tile buffer, and the end-of-tile program's `image_write_block` stores each tile to
//! the render target, whose bytes are compared with llvmpipe's drawing of the same GLSL.
//!
//! Agreement: colour bytes within 1 (llvmpipe and Mesa's AGX code round differently: fused
//! multiply-adds, f16 outputs); the tile buffer equals the stored image exactly (the block store
//! copies it); depth, where the shader writes it, within 2^-20 relative (fused multiply-adds).

use std::collections::BTreeMap;
use std::path::Path;
use wavesim_agx::runner::{run_in_dir, RunConfig};

#[path = "common/agree.rs"]
mod agree;
#[path = "common/linked_output.rs"]
mod linked_output;
use agree::agree_within;

/// Fragment shaders in corpus/agx/gl25.
const SHADERS: usize = 34;
/// Vertex shaders in corpus/agx/gl25.
const VERTEX_SHADERS: usize = 7;

/// Vertex shaders (NAME.vs.toml, `abi = "mesa-current"`: wavesim's runner does the prolog's
/// attribute fetch into r(8 + 4a + c)) against llvmpipe's transform feedback: every output word
/// bit-equal or within 2^-16 relative (fused multiply-adds).
#[test]
fn mesa25_vertex_shaders_match_llvmpipe() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/agx/gl25");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter_map(|n| n.strip_suffix(".vert").map(str::to_string))
        .collect();
    names.sort();
    let mut failures = vec![];
    let (mut words, mut inexact) = (0, 0);
    for name in &names {
        let job = std::fs::read_to_string(dir.join(format!("{name}.vs.toml"))).unwrap();
        let cfg = RunConfig::from_toml(&job).unwrap();
        let text = match run_in_dir(&cfg, &dir, None) {
            Ok(r) => r.text,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let got = linked_output::vertex_outputs(&text);
        let refs = std::fs::read_to_string(dir.join(format!("{name}.vs.ref"))).unwrap();
        for (v, slot, want) in linked_output::vertex_reference(&refs) {
            words += 1;
            match got.get(&(v, slot)) {
                Some(&g) if agree_within(g, want, 1.0 / 65536.0) => {
                    inexact += usize::from(g != want)
                }
                other => failures.push(format!(
                    "{name}: vertex {v} slot {slot}: {other:08x?}, llvmpipe {want:08x}"
                )),
            }
        }
    }
    println!(
        "gl25 vertex: {} shaders, {words} words ({inexact} within 2^-16 but not equal)",
        names.len()
    );
    failures.truncate(40);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(
        names.len(),
        VERTEX_SHADERS,
        "corpus/agx/gl25 vertex shaders"
    );
}

#[test]
fn mesa25_linked_fragment_programs_match_llvmpipe() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/agx/gl25");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter_map(|n| n.strip_suffix(".frag").map(str::to_string))
        .collect();
    names.sort();
    let mut failures = vec![];
    let (mut pixels, mut inexact, mut depths, mut with_depth, mut discarded) = (0, 0, 0, 0, 0);
    let mut two_targets = 0;
    for name in &names {
        let job = std::fs::read_to_string(dir.join(format!("{name}.job.toml"))).unwrap();
        let cfg = RunConfig::from_toml(&job).unwrap();
        let text = match run_in_dir(&cfg, &dir, None) {
            Ok(r) => r.text,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        let image = linked_output::image(&text, "rt");
        // the second render target's image, when the job has one
        let image1 = linked_output::image(&text, "rt1");
        let tile = linked_output::tile_records(&text);
        let mut depth = BTreeMap::new();
        for line in text.lines().filter_map(|l| l.strip_prefix("depth ")) {
            let (xy, bits) = line.split_once(':').unwrap();
            let mut xy = xy.split_whitespace().map(|v| v.parse::<u32>().unwrap());
            let xy = (xy.next().unwrap(), xy.next().unwrap());
            depth.insert(xy, u32::from_str_radix(bits.trim(), 16).unwrap());
        }
        with_depth += usize::from(!depth.is_empty());
        let refs = std::fs::read_to_string(dir.join(format!("{name}.ref"))).unwrap();
        for line in refs.lines() {
            let v: Vec<&str> = line.split_whitespace().collect();
            let (x, y): (u32, u32) = (v[0].parse().unwrap(), v[1].parse().unwrap());
            let want: Vec<u8> = v[2..6].iter().map(|c| c.parse().unwrap()).collect();
            let at = 4 * (y * 16 + x) as usize;
            let got = image.get(at..at + 4).unwrap_or_default();
            pixels += 1;
            let close = got.len() == 4 && got.iter().zip(&want).all(|(g, w)| g.abs_diff(*w) <= 1);
            if !close {
                failures.push(format!("{name}: pixel {x} {y}: {got:?}, llvmpipe {want:?}"));
            }
            inexact += usize::from(close && got != want.as_slice());
            if tile.get(&(x, y)).map(|t| &t[..4]) != Some(got) {
                failures.push(format!(
                    "{name}: pixel {x} {y}: the image is not the tile buffer"
                ));
            }
            // render target 1 (`// rts: 2`): its image within 1 of llvmpipe's attachment 1,
            // and equal to the tile record's bytes 4-7 (agx_build_tilebuffer_layout packs the
            // second RGBA8 target after the first)
            if v.len() > 7 {
                two_targets += usize::from(x == 0 && y == 0);
                let want: Vec<u8> = v[7..11].iter().map(|c| c.parse().unwrap()).collect();
                let got = image1.get(at..at + 4).unwrap_or_default();
                let close =
                    got.len() == 4 && got.iter().zip(&want).all(|(g, w)| g.abs_diff(*w) <= 1);
                if !close {
                    failures.push(format!(
                        "{name}: rt1 pixel {x} {y}: {got:?}, llvmpipe {want:?}"
                    ));
                }
                if tile.get(&(x, y)).map(|t| &t[4..8]) != Some(got) {
                    failures.push(format!("{name}: rt1 pixel {x} {y}: not the tile buffer"));
                }
            }
            if !depth.is_empty() {
                let want = u32::from_str_radix(v[6], 16).unwrap();
                let got = depth.get(&(x, y)).copied();
                depths += 1;
                // a discarded pixel emits no depth; llvmpipe's buffer keeps the clear value 1.0
                let close = match got {
                    None => want == 1f32.to_bits(),
                    Some(g) => {
                        let (g, w) = (f32::from_bits(g), f32::from_bits(want));
                        (g - w).abs() <= w.abs().max(g.abs()) / (1 << 20) as f32
                    }
                };
                discarded += usize::from(got.is_none());
                if !close {
                    failures.push(format!(
                        "{name}: depth {x} {y}: {got:08x?}, llvmpipe {want:08x}"
                    ));
                }
            }
        }
    }
    println!(
        "gl25: {} shaders, {pixels} pixels ({inexact} within 1 but not equal), {with_depth} \
         writing depth ({depths} depths, {discarded} of discarded pixels)",
        names.len()
    );
    failures.truncate(40);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(names.len(), SHADERS, "corpus/agx/gl25 shaders");
    assert!(with_depth > 0, "no shader reached zs_emit's depth");
    assert_eq!(two_targets, 2, "shaders with two render targets");
}
