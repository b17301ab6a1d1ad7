//! corpus/agx/gl25msaa: GLSL fragment shaders drawn to a multisampled framebuffer (`// samples:
//! N`), compiled and linked by Mesa 25.0.7's asahi compiler as its gallium driver does for N
//! samples (tools/agx/glsl_graphics.c with GLSL_GRAPHICS_SAMPLES, tools/agx/gl25_corpus.py):
//! the epilog for N samples, `agx_fast_link`'s sample loop around the main part and epilog when
//! the shader shades samples (gl_SampleID, gl_SamplePosition, `sample in`, interpolateAtSample,
//! gl_SampleMaskIn), and the end-of-tile program's multisampled `image_write_block`.
//!
//! What is compared, per sample: the job's tile buffer (`pixel X Y sample S:` lines) and its
//! multisampled image (the end-of-tile store) against llvmpipe's N-sample texture read back
//! sample by sample through `texelFetch(sampler2DMS, ..., s)` (NAME.ref: `X Y S R G B A DEPTH`),
//! colour bytes within 1; the image must equal the tile buffer exactly; where the program writes
//! gl_FragDepth, each sample's `zs_emit` depth within 2^-20 relative of llvmpipe's depth sample.

use std::path::Path;
use wavesim_agx::runner::{run_in_dir, RunConfig};

/// Jobs in corpus/agx/gl25msaa.
const SHADERS: usize = 24;

/// Jobs under the approximation opt-in (`// approximate`), with the approximation their output
/// must name. Mesa's sample-shaded discard: each pass of the sample loop kills its own sample and
/// then tests every sample not killed (`sample_mask` TARGET 0xffff: the gallium driver runs
/// `agx_nir_lower_to_per_sample` before `agx_nir_lower_sample_mask`), so the second pass kills or
/// re-tests samples the first tested, which Mesa's sample_mask rules 2 and 4 forbid and no public
/// source defines; by default that is a typed error (checked here too), under the opt-in GL's
/// per-sample discard (exec/coverage.rs).
const APPROXIMATED: &[(&str, &str, &str)] = &[(
    "sample_discard",
    wavesim_agx::exec::TESTED_SAMPLE_RULES,
    "already tested (Mesa's sample_mask rules 2 and 4)",
)];

/// Jobs whose llvmpipe reference is not GL's answer, run and checked against their tile buffer
/// only. llvmpipe's gl_SampleMaskIn without sample shading is 15 in a 2-sample framebuffer
/// (measured: `float(gl_SampleMaskIn[0]) / 255.0` reads back 15 at most pixels, 3 on row 0,
/// where llvmpipe runs two invocations per pixel), bits of samples the framebuffer does not
/// have, where GLSL 4.60, 7.1 (built-in language variables), sets bit B exactly when sample B is
/// covered; wavesim gives 3 (both samples: the draw covers the framebuffer), so this job is
/// green where llvmpipe's is red.
const KNOWN_DIFFERENT: &[&str] = &["piglit_samplemaskin_indirect"];

/// Byte offset of sample `s` of pixel (x, y) in the jobs' 16x16 twiddled RGBA8 image of `samples`
/// samples. The jobs' PBE (gl25_corpus.py `ms_pbe_words`) gives a 16x16 software tile over an
/// aligned width of 16, so the whole image is one tile: the pixel's index is the Morton code of
/// (x, y) with x in the even bits (NIR's `interleave_agx`), and libagx's
/// `libagx_image_texel_address` puts the pixel's samples together: index << log2(samples) + s.
/// E.g. pixel (3, 1) at 4 samples: x = 0b11 -> bits 0 and 2, y = 0b01 -> bit 1: Morton 0b111 = 7,
/// sample 2 at (7 * 4 + 2) * 4 = 120.
fn ms_offset(x: u32, y: u32, s: u32, samples: u32) -> usize {
    let mut morton = 0u32;
    for bit in 0..4 {
        morton |= (x >> bit & 1) << (2 * bit) | (y >> bit & 1) << (2 * bit + 1);
    }
    4 * ((morton * samples + s) as usize)
}

#[test]
fn ms_offset_follows_libagx() {
    // the worked example above
    assert_eq!(ms_offset(3, 1, 2, 4), 120);
    // pixel (0, 1): Morton 0b10 = 2; at 2 samples sample 1 is index 5, byte 20
    assert_eq!(ms_offset(0, 1, 1, 2), 20);
}

#[test]
fn mesa25_multisampled_programs_match_llvmpipe() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/agx/gl25msaa");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter_map(|n| n.strip_suffix(".job.toml").map(str::to_string))
        .collect();
    names.sort();
    let mut failures = vec![];
    let (mut compared, mut inexact, mut errors, mut depths) = (0, 0, 0, 0);
    for name in &names {
        let job = std::fs::read_to_string(dir.join(format!("{name}.job.toml"))).unwrap();
        let cfg = RunConfig::from_toml(&job).unwrap();
        let samples = cfg.fragment.as_ref().unwrap().samples;
        let approximated = APPROXIMATED.iter().find(|(n, _, _)| n == name);
        if cfg.approximate != approximated.is_some() {
            failures.push(format!("{name}: approximate = {}", cfg.approximate));
            continue;
        }
        if let Some((_, _, error)) = approximated {
            // without the opt-in: the typed error
            let mut exact = cfg.clone();
            exact.approximate = false;
            match run_in_dir(&exact, &dir, None) {
                Err(e) if e.to_string().contains(error) => errors += 1,
                r => failures.push(format!("{name} without the opt-in: {:?}", r.map(|_| ()))),
            }
        }
        let text = match run_in_dir(&cfg, &dir, None) {
            Ok(r) => r.text,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        if let Some((_, what, _)) = approximated {
            // the output names the approximation and its count
            if !text
                .lines()
                .any(|l| l.starts_with("# approximated") && l.contains(what))
            {
                failures.push(format!("{name}: no `# approximated` line naming {what}"));
            }
        }
        // render target 0's and (`// rts: 2`) render target 1's multisampled images
        let output = |prefix: &str| -> Vec<u8> {
            text.lines()
                .find_map(|l| l.strip_prefix(prefix))
                .unwrap_or_default()
                .split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect()
        };
        let (image, image1) = (output("rt:"), output("rt1:"));
        // the tile buffer, per sample
        let mut tile = std::collections::BTreeMap::new();
        for line in text.lines().filter_map(|l| l.strip_prefix("pixel ")) {
            let (head, rest) = line.split_once(':').unwrap();
            let h: Vec<&str> = head.split_whitespace().collect();
            let key = (
                h[0].parse::<u32>().unwrap(),
                h[1].parse::<u32>().unwrap(),
                h[3].parse::<u32>().unwrap(),
            );
            let bytes: Vec<u8> = rest
                .split_whitespace()
                .map(|v| v.parse().unwrap())
                .collect();
            tile.insert(key, bytes);
        }
        // zs_emit's depth per sample (`depth X Y sample S: BITS`), when the program writes it
        let mut depth = std::collections::BTreeMap::new();
        for line in text.lines().filter_map(|l| l.strip_prefix("depth ")) {
            let (head, bits) = line.split_once(':').unwrap();
            let h: Vec<u32> = head
                .split_whitespace()
                .filter_map(|v| v.parse().ok())
                .collect();
            depth.insert(
                (h[0], h[1], h[2]),
                u32::from_str_radix(bits.trim(), 16).unwrap(),
            );
        }
        depths += depth.len();
        let refs = std::fs::read_to_string(dir.join(format!("{name}.ref"))).unwrap();
        for line in refs.lines().filter(|l| !l.starts_with("positions")) {
            let f: Vec<&str> = line.split_whitespace().collect();
            let v: Vec<u32> = f[..7].iter().map(|c| c.parse().unwrap()).collect();
            let (x, y, s) = (v[0], v[1], v[2]);
            let want: Vec<u8> = v[3..7].iter().map(|&c| c as u8).collect();
            // depth within 2^-20 relative (fused multiply-adds), as tests/gl25_corpus.rs
            if !depth.is_empty() {
                let want = f32::from_bits(u32::from_str_radix(f[7], 16).unwrap());
                match depth.get(&(x, y, s)).map(|&b| f32::from_bits(b)) {
                    Some(g) if (g - want).abs() <= want.abs().max(g.abs()) / (1 << 20) as f32 => {}
                    other => failures.push(format!(
                        "{name}: depth {x} {y} sample {s}: {other:?}, llvmpipe {want}"
                    )),
                }
            }
            let at = ms_offset(x, y, s, samples);
            let got = image.get(at..at + 4).unwrap_or_default();
            if KNOWN_DIFFERENT.contains(&name.as_str()) {
                if tile.get(&(x, y, s)).map(|t| &t[..4]) != Some(got) {
                    failures.push(format!("{name}: pixel {x} {y} sample {s}: not the tile"));
                }
                continue;
            }
            compared += 1;
            let close = got.len() == 4 && got.iter().zip(&want).all(|(g, w)| g.abs_diff(*w) <= 1);
            if !close {
                failures.push(format!(
                    "{name}: pixel {x} {y} sample {s}: {got:?}, llvmpipe {want:?}"
                ));
            }
            inexact += usize::from(close && got != want.as_slice());
            if tile.get(&(x, y, s)).map(|t| &t[..4]) != Some(got) {
                failures.push(format!(
                    "{name}: pixel {x} {y} sample {s}: the image is not the tile buffer"
                ));
            }
            // render target 1: llvmpipe's attachment 1 after the depth; its tile bytes 4-7
            // (agx_build_tilebuffer_layout packs it after render target 0 in each sample)
            if f.len() > 8 {
                let want: Vec<u8> = f[8..12].iter().map(|c| c.parse().unwrap()).collect();
                let got = image1.get(at..at + 4).unwrap_or_default();
                compared += 1;
                let close =
                    got.len() == 4 && got.iter().zip(&want).all(|(g, w)| g.abs_diff(*w) <= 1);
                if !close || tile.get(&(x, y, s)).map(|t| &t[4..8]) != Some(got) {
                    failures.push(format!(
                        "{name}: rt1 pixel {x} {y} sample {s}: {got:?}, llvmpipe {want:?}"
                    ));
                }
                inexact += usize::from(close && got != want.as_slice());
            }
        }
    }
    println!(
        "gl25msaa: {} jobs, {compared} samples compared ({inexact} within 1 but not equal), {errors} \
         under the opt-in (typed errors without it), {} known to differ, {depths} depths",
        names.len(),
        KNOWN_DIFFERENT.len()
    );
    failures.truncate(40);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(names.len(), SHADERS, "corpus/agx/gl25msaa jobs");
}
