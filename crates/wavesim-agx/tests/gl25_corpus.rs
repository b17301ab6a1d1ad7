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
use agree::agree_within;

/// Fragment shaders in corpus/agx/gl25.
const SHADERS: usize = 30;
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
        let mut got = BTreeMap::new();
        for line in text.lines().filter_map(|l| l.strip_prefix("vertex ")) {
            let (head, rest) = line.split_once(':').unwrap();
            let v: u32 = head.split_whitespace().next().unwrap().parse().unwrap();
            for item in rest
                .split_whitespace()
                .filter_map(|i| i.strip_prefix("out"))
            {
                let (slot, value) = item.split_once('=').unwrap();
                let value = u32::from_str_radix(value.trim_start_matches("0x"), 16).unwrap();
                got.insert((v, slot.parse::<u32>().unwrap()), value);
            }
        }
        let refs = std::fs::read_to_string(dir.join(format!("{name}.vs.ref"))).unwrap();
        for line in refs.lines() {
            let (v, rest) = line.split_once(':').unwrap();
            let v: u32 = v.parse().unwrap();
            for item in rest.split_whitespace() {
                let (slot, want) = item.split_once('=').unwrap();
                let slot: u32 = slot.parse().unwrap();
                let want = u32::from_str_radix(want, 16).unwrap();
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
        let image: Vec<u8> = text
            .lines()
            .find_map(|l| l.strip_prefix("rt:"))
            .unwrap_or_default()
            .split_whitespace()
            .map(|v| v.parse().unwrap())
            .collect();
        let mut tile = BTreeMap::new();
        let mut depth = BTreeMap::new();
        for line in text.lines() {
            let (head, rest) = line.split_once(':').unwrap_or((line, ""));
            let f: Vec<&str> = head.split_whitespace().collect();
            if f.len() != 3 {
                continue;
            }
            let xy: (u32, u32) = (f[1].parse().unwrap(), f[2].parse().unwrap());
            match f[0] {
                "pixel" => {
                    let b: Vec<u8> = rest
                        .split_whitespace()
                        .map(|v| v.parse().unwrap())
                        .collect();
                    tile.insert(xy, b[..4].to_vec());
                }
                "depth" => {
                    depth.insert(xy, u32::from_str_radix(rest.trim(), 16).unwrap());
                }
                _ => {}
            }
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
            if tile.get(&(x, y)).map(Vec::as_slice) != Some(got) {
                failures.push(format!(
                    "{name}: pixel {x} {y}: the image is not the tile buffer"
                ));
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
}
