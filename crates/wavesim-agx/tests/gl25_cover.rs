//! corpus/agx/gl25cover: GLSL fragment shaders drawn over a triangle that does not cover the
//! framebuffer (`// triangle:` in each source), compiled and linked by Mesa 25.0.7's asahi
//! compiler as for corpus/agx/gl25 and gl25msaa (tools/agx/gl25_corpus.py), at 1, 2 and 4
//! samples. The jobs give the triangle (`[fragment] triangle`, `fill_rule`), so wavesim's
//! rasteriser (`wavesim_agx::raster`) decides which quads run, what sr124 reads and which samples
//! the epilog's `st_tile` writes.
//!
//! What is compared, per sample: the tile buffer (`pixel X Y [sample S]:` lines) and the image the
//! end-of-tile program stored against llvmpipe drawing the same GLSL and triangle (NAME.ref, read
//! back per sample through texelFetch at 2 and 4 samples), colour bytes within 1; covered samples
//! by value, uncovered ones must hold the clear colour on both sides; where the program writes
//! gl_FragDepth, each covered sample's `zs_emit` depth within 2^-20 relative of llvmpipe's and no
//! depth for uncovered samples (llvmpipe: the cleared 1.0). llvmpipe's 2-sample positions are not
//! Mesa's (GL leaves them to the implementation), so at 2 samples a sample is compared only where
//! the triangle covers it under both position sets, or under neither.

#[path = "common/linked_output.rs"]
#[allow(dead_code)]
mod linked_output;

use linked_output::image;
use std::collections::BTreeMap;
use std::path::Path;
use wavesim_agx::exec::default_sample_positions;
use wavesim_agx::raster::{FillRule, Triangle};
use wavesim_agx::runner::{run_in_dir, RunConfig};

/// Jobs in corpus/agx/gl25cover.
const SHADERS: usize = 81;

/// Jobs that stop on a typed error, with the error's text: none. gl25msaa's sample-shaded
/// discard, which breaks Mesa's own sample_mask rules across the passes of the sample loop, runs
/// under the approximation opt-in (`approximate = true`, as tests/gl25_msaa.rs runs it).
const KNOWN_ERRORS: &[(&str, &str)] = &[];

/// Jobs whose llvmpipe reference is not GL's answer, run but not compared: llvmpipe's
/// gl_SampleMaskIn in a 2-sample framebuffer has bits of samples it does not have (see
/// tests/gl25_msaa.rs, `KNOWN_DIFFERENT`).
const KNOWN_DIFFERENT: &[&str] = &["gl25msaa_piglit_samplemaskin_indirect"];

/// Byte offset of sample `s` of pixel (x, y) in the jobs' 16x16 twiddled N-sample image: one
/// 16x16 tile, the pixel's Morton index (x in the even bits), its samples together (libagx's
/// `libagx_image_texel_address`; tests/gl25_msaa.rs derives it); linear RGBA8 at 1 sample.
fn image_offset(x: u32, y: u32, s: u32, samples: u32) -> usize {
    if samples == 1 {
        return 4 * (y * 16 + x) as usize;
    }
    let morton: u32 = (0..4)
        .map(|b| (x >> b & 1) << (2 * b) | (y >> b & 1) << (2 * b + 1))
        .sum();
    4 * ((morton * samples + s) as usize)
}

#[test]
fn image_offset_follows_libagx() {
    // pixel (3, 1) at 4 samples: x = 0b11 -> bits 0 and 2, y = 0b01 -> bit 1: Morton 7, sample 2
    // at (7 * 4 + 2) * 4 = 120; at 1 sample the linear (1 * 16 + 3) * 4 = 76
    assert_eq!(image_offset(3, 1, 2, 4), 120);
    assert_eq!(image_offset(3, 1, 0, 1), 76);
}

/// `pixel X Y: ...` or `pixel X Y sample S: ...` records and `depth ...: BITS` lines, keyed by
/// (x, y, sample).
fn per_sample(text: &str, prefix: &str) -> BTreeMap<(u32, u32, u32), String> {
    let mut out = BTreeMap::new();
    for line in text.lines().filter_map(|l| l.strip_prefix(prefix)) {
        let (head, rest) = line.split_once(':').unwrap();
        let h: Vec<u32> = head
            .split_whitespace()
            .filter_map(|v| v.parse().ok())
            .collect();
        out.insert(
            (h[0], h[1], h.get(2).copied().unwrap_or(0)),
            rest.trim().into(),
        );
    }
    out
}

#[test]
fn mesa25_programs_over_a_triangle_match_llvmpipe() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/agx/gl25cover");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter_map(|n| n.strip_suffix(".job.toml").map(str::to_string))
        .collect();
    names.sort();
    let mut failures = vec![];
    let (mut covered, mut uncovered, mut skipped, mut inexact, mut errors, mut depths) =
        (0, 0, 0, 0, 0, 0);
    // compared samples lying exactly on an edge (decided by the top-left opt-in)
    let mut ties = 0;
    let mut by_samples = BTreeMap::new();
    for name in &names {
        let job = std::fs::read_to_string(dir.join(format!("{name}.job.toml"))).unwrap();
        let cfg = RunConfig::from_toml(&job).unwrap();
        let f = cfg.fragment.as_ref().unwrap();
        let samples = f.samples;
        let rule = match f.fill_rule.as_deref() {
            Some("top-left") => FillRule::TopLeft,
            _ => FillRule::Exact,
        };
        let triangle =
            Triangle::new(f.triangle.expect("every job names its triangle"), rule).unwrap();
        // the tile's starting record (zero without a clear), render targets 0 and 1
        let clear = cfg
            .end_of_tile
            .as_ref()
            .and_then(|e| e.clear)
            .unwrap_or_default();
        let known = KNOWN_ERRORS.iter().find(|(n, _)| n == name);
        let text = match (run_in_dir(&cfg, &dir, None), known) {
            (Ok(_), None) if KNOWN_DIFFERENT.contains(&name.as_str()) => continue,
            (Ok(r), None) => r.text,
            (Err(e), Some((_, want))) if e.to_string().contains(want) => {
                errors += 1;
                continue;
            }
            (r, _) => {
                failures.push(format!("{name}: {:?}", r.map(|r| r.text.len())));
                continue;
            }
        };
        *by_samples.entry(samples).or_insert(0) += 1;
        let (rt, rt1) = (image(&text, "rt"), image(&text, "rt1"));
        let tile = per_sample(&text, "pixel ");
        let depth = per_sample(&text, "depth ");
        depths += depth.len();
        let refs = std::fs::read_to_string(dir.join(format!("{name}.ref"))).unwrap();
        // llvmpipe's sample positions (GL_SAMPLE_POSITION), the centre at 1 sample
        let mut ref_positions = vec![(0.5f32, 0.5f32)];
        if let Some(p) = refs.lines().find_map(|l| l.strip_prefix("positions")) {
            let v: Vec<f32> = p.split_whitespace().map(|v| v.parse().unwrap()).collect();
            ref_positions = v.chunks(2).map(|c| (c[0], c[1])).collect();
        }
        let mesa_positions = default_sample_positions(samples).unwrap();
        let exact = Triangle::new(f.triangle.unwrap(), FillRule::Exact).unwrap();
        for line in refs.lines().filter(|l| !l.starts_with("positions")) {
            let f: Vec<&str> = line.split_whitespace().collect();
            let (head, colour) = f.split_at(if samples == 1 { 2 } else { 3 });
            let v: Vec<u32> = head.iter().map(|c| c.parse().unwrap()).collect();
            let (x, y, s) = (v[0], v[1], v.get(2).copied().unwrap_or(0));
            let want: Vec<u8> = colour[..4].iter().map(|c| c.parse().unwrap()).collect();
            let want_depth = f32::from_bits(u32::from_str_radix(colour[4], 16).unwrap());
            // render target 1 (`// rts: 2`): llvmpipe's attachment 1 after the depth, wavesim's
            // tile bytes 4-7 and image rt1
            let want1: Vec<u8> = colour[5..].iter().map(|c| c.parse().unwrap()).collect();
            let ours = triangle.pixel_coverage(x, y, &mesa_positions).unwrap() >> s & 1 == 1;
            let theirs = triangle.pixel_coverage(x, y, &ref_positions).unwrap() >> s & 1 == 1;
            if ours != theirs {
                skipped += 1;
                continue;
            }
            ties += usize::from(
                exact
                    .pixel_coverage(x, y, &mesa_positions[s as usize..=s as usize])
                    .is_err(),
            );
            let at = image_offset(x, y, s, samples);
            let got = rt.get(at..at + 4).unwrap_or_default();
            let record: Vec<u8> = tile
                .get(&(x, y, s))
                .map(|t| t.split_whitespace().map(|v| v.parse().unwrap()).collect())
                .unwrap_or_default();
            let mut targets = vec![(got, &want[..], 0)];
            if !want1.is_empty() {
                targets.push((rt1.get(at..at + 4).unwrap_or_default(), &want1[..], 4));
            }
            for &(got, want, at) in &targets {
                if record.get(at..at + 4) != Some(got) {
                    failures.push(format!(
                        "{name}: {x} {y} sample {s}: the image is not the tile"
                    ));
                }
                let close =
                    got.len() == 4 && got.iter().zip(want).all(|(g, w)| g.abs_diff(*w) <= 1);
                if !close {
                    failures.push(format!(
                        "{name}: {x} {y} sample {s} ({}covered, target at byte {at}): {got:?}, \
                         llvmpipe {want:?}",
                        if ours { "" } else { "not " }
                    ));
                }
                inexact += usize::from(close && got != want);
                // uncovered: the clear colour on both sides
                if !ours && (want != &clear[at..at + 4] || got != &clear[at..at + 4]) {
                    failures.push(format!(
                        "{name}: uncovered {x} {y} sample {s}: {got:?}, llvmpipe {want:?}, clear \
                         {:?}",
                        &clear[at..at + 4]
                    ));
                }
            }
            let got_depth = depth
                .get(&(x, y, s))
                .map(|b| f32::from_bits(u32::from_str_radix(b, 16).unwrap()));
            if ours {
                covered += 1;
                if !depth.is_empty() {
                    // where the program writes depth, a covered sample's zs_emit value (None:
                    // the program discarded it, llvmpipe then keeps the cleared 1.0)
                    let ok = match got_depth {
                        Some(g) => (g - want_depth).abs() <= want_depth.abs() / (1 << 20) as f32,
                        None => want_depth == 1.0,
                    };
                    if !ok {
                        failures.push(format!(
                            "{name}: depth {x} {y} sample {s}: {got_depth:?}, llvmpipe {want_depth}"
                        ));
                    }
                }
            } else {
                uncovered += 1;
                // uncovered: no depth test (the colour was checked above)
                if got_depth.is_some() {
                    failures.push(format!("{name}: uncovered {x} {y} sample {s}: depth"));
                }
                if !depth.is_empty() && want_depth != 1.0 {
                    failures.push(format!(
                        "{name}: uncovered {x} {y} sample {s}: llvmpipe depth"
                    ));
                }
            }
        }
    }
    println!(
        "gl25cover: {} jobs ({by_samples:?} compared, by sample count; {} known to differ), {covered} covered and {uncovered} \
         uncovered samples compared ({ties} on an edge, {inexact} within 1 but not equal), \
         {skipped} samples whose coverage differs under llvmpipe's positions, {errors} known typed errors, {depths} depths",
        names.len(),
        KNOWN_DIFFERENT.len()
    );
    failures.truncate(40);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(names.len(), SHADERS, "corpus/agx/gl25cover jobs");
    assert_eq!(errors, KNOWN_ERRORS.len(), "known typed errors");
    // the corpus exercises both sides of the edges
    assert!(
        covered > 1000 && uncovered > 1000,
        "{covered} / {uncovered}"
    );
}

#[test]
fn centroid_under_the_opt_in_matches_a_host_model_with_steep_planes() {
    // cover_centroid_4x (Mesa's code: `iterproj r4_r5_r6, cf1, cf0, centroid`, then `st_tile` of
    // r4..r6 and 1.0 as u8norm) runs under the opt-in against llvmpipe in the test above, but its
    // planes change by at most 1.5 bytes across a pixel, so that comparison can hardly tell the
    // centroid from the centre. Here the same job gets steep planes (cf0 = 1/W = 1; v = (x/16,
    // y/16, (x + y)/32) at the framebuffer position, 16x16 pixels in one tile) and a host model
    // of the shader: o = (v.xyz, 1) at exec::centroid_offset's point (the centre of a fully
    // covered pixel, else the lowest-numbered covered sample), each channel round(255 v), every
    // covered sample compared within 1 (the unorm rounding of f32 values). A sample offset is up
    // to 0.375 pixels from the centre, 6 bytes in v.x or v.y, so the model at the centre must
    // differ (by 2 or more) at some compared samples: the check can tell the two apart.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/agx/gl25cover");
    let job = std::fs::read_to_string(dir.join("cover_centroid_4x.job.toml")).unwrap();
    let mut cfg = RunConfig::from_toml(&job).unwrap();
    assert!(cfg.approximate, "the job opts in");
    let f = cfg.fragment.as_mut().unwrap();
    f.coefficients = vec![
        [0.0, 0.0, 1.0],
        [1.0 / 16.0, 0.0, 0.0],
        [0.0, 1.0 / 16.0, 0.0],
        [1.0 / 32.0, 1.0 / 32.0, 0.0],
    ];
    let triangle = Triangle::new(f.triangle.unwrap(), FillRule::Exact).unwrap();
    let positions = default_sample_positions(4).unwrap();
    let run = run_in_dir(&cfg, &dir, None).unwrap();
    assert!(
        run.text.contains("centroid at a partially covered pixel"),
        "the output names the approximation"
    );
    let tile = per_sample(&run.text, "pixel ");
    let model = |(px, py): (f64, f64)| -> Vec<u8> {
        [px / 16.0, py / 16.0, (px + py) / 32.0, 1.0]
            .iter()
            .map(|v| (v * 255.0).round() as u8)
            .collect()
    };
    let (mut compared, mut partial, mut centre_differs) = (0, 0, 0);
    for y in 0..16 {
        for x in 0..16 {
            let m = u32::from(triangle.pixel_coverage(x, y, &positions).unwrap());
            if m == 0 {
                continue;
            }
            let (dx, dy) = if m == 0b1111 {
                (0.5, 0.5)
            } else {
                partial += 1;
                wavesim_agx::exec::centroid_offset(m, &positions)
            };
            let want = model((x as f64 + dx as f64, y as f64 + dy as f64));
            let centre = model((x as f64 + 0.5, y as f64 + 0.5));
            for s in (0..4).filter(|s| m >> s & 1 == 1) {
                let got: Vec<u8> = tile[&(x, y, s)]
                    .split_whitespace()
                    .take(4)
                    .map(|v| v.parse().unwrap())
                    .collect();
                let near = |w: &[u8]| got.iter().zip(w).all(|(g, w)| g.abs_diff(*w) <= 1);
                assert!(
                    near(&want),
                    "({x}, {y}) sample {s}: {got:?}, model {want:?}"
                );
                compared += 1;
                centre_differs += usize::from(!near(&centre));
            }
        }
    }
    println!(
        "cover_centroid_4x with steep planes: {compared} covered samples equal to the host model \
         within 1, {partial} partially covered pixels, {centre_differs} samples where the centre \
         would differ"
    );
    assert!(
        partial > 10 && centre_differs > 10,
        "{partial} / {centre_differs}"
    );
}
