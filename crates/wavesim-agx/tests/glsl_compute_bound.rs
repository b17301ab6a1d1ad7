//! GLSL compute shaders with image stores, image atomics, size queries and array layers
//! (`corpus/agx/glsl_img`), compiled by Mesa 25.0.7's asahi compiler as its gallium driver binds
//! them (tools/agx/glsl_compute.c): stores take PBE descriptors, and what the driver reads
//! through its bindless texture table (atomics, size queries, array layers) takes the table, a
//! buffer holding the whole texture state array whose address is the kernel's `table` argument.
//! Each job names its texture state in `[[grid_kernel.state]]` (TEXTURE and PBE descriptors by
//! index) and the table in `[grid_kernel] table`, and this test runs it as `wavesim run` does
//! (`runner::run_in_dir`), every buffer printed. Then every buffer and every image (llvmpipe's
//! images laid out by ail as the AGX images are, `imageN:` in `NAME.ref`) must equal llvmpipe's, words of buffers named
//! by `// compare: B f32` within 2^-16 relative (as tests/glsl_compute.rs), of buffers named by
//! `// compare: B abs EPS` within EPS (an ASTC texture llvmpipe reads as RGBA8). A shader with
//! `// expect error: TEXT` (and no reference) must stop on a typed error holding TEXT; one with
//! `// expect error without the opt-in: TEXT` runs under its `approximate = true` and is compared,
//! and must stop on TEXT with the opt-in off (store_lod_amd: image_write at a nonzero LOD). A job
//! with a plain texture list is here because its preamble samples a texture (Mesa hoists uniform
//! samples there): the runner runs the preamble with the state bound (`GridKernel::prepare_bound`).

use std::collections::BTreeMap;
use std::path::Path;
use wavesim_agx::runner::{run_in_dir, OutputCfg, RunConfig};

#[path = "common/agree.rs"]
mod agree;
use agree::agree_within;

/// Runs one job as `wavesim run` does (`runner::run_in_dir`), printing every buffer whole; every
/// buffer's words after the dispatch, by name. `exact` turns the job's approximation opt-in off.
fn run_bound(dir: &Path, name: &str, exact: bool) -> Result<BTreeMap<String, Vec<u32>>, String> {
    let job =
        std::fs::read_to_string(dir.join(format!("{name}.job.toml"))).map_err(|e| e.to_string())?;
    let mut cfg = RunConfig::from_toml(&job).map_err(|e| e.to_string())?;
    cfg.approximate &= !exact;
    // the runner's rule: the u32 contents, zero-filled up to `size`
    cfg.output = cfg
        .buffer
        .iter()
        .map(|b| OutputCfg {
            buffer: b.name.clone(),
            format: "u32".into(),
            count: (4 * b.u32.as_ref().map_or(0, Vec::len)).max(b.size.unwrap_or(0) as usize) / 4,
        })
        .collect();
    let text = run_in_dir(&cfg, dir, None).map_err(|e| e.to_string())?.text;
    // a job under the opt-in names what it approximated (store_lod_amd: the nonzero LOD)
    if cfg.approximate && !text.lines().any(|l| l.starts_with("# approximated")) {
        return Err("no `# approximated` line under approximate = true".into());
    }
    let mut out = BTreeMap::new();
    for line in text.lines() {
        let Some((buffer, words)) = line.split_once(':') else {
            continue;
        };
        if !cfg.buffer.iter().any(|b| b.name == buffer) {
            continue; // the dispatch's statistics
        }
        let words = words
            .split_whitespace()
            .map(|w| w.parse::<u32>().map_err(|e| format!("{buffer}: {w}: {e}")))
            .collect::<Result<Vec<_>, _>>()?;
        out.insert(buffer.to_string(), words);
    }
    Ok(out)
}

#[test]
fn mesa_compiled_image_store_atomic_and_bindless_shaders_match_llvmpipe() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../corpus/agx/glsl_img");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().to_string())
        .filter_map(|n| n.strip_suffix(".comp").map(str::to_string))
        .collect();
    names.sort();
    let (mut failures, mut words, mut inexact, mut probes) = (vec![], 0, 0, 0);
    let mut expected_errors = 0;
    for name in &names {
        let source = std::fs::read_to_string(dir.join(format!("{name}.comp"))).unwrap();
        // `// compare: B f32` (2^-16 relative) or `// compare: B abs EPS` (f32 within EPS)
        let floats: BTreeMap<String, Option<f32>> = source
            .lines()
            .filter_map(|l| l.strip_prefix("// compare: "))
            .map(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                let eps = (f.get(1) == Some(&"abs")).then(|| f[2].parse().unwrap());
                (format!("b{}", f[0]), eps)
            })
            .collect();
        // a shader whose run must stop on a typed error (no rule, so no reference), or one run
        // under the approximation opt-in (`// approximate`) that stops without it
        let stops = [
            ("// expect error: ", true),
            ("// expect error without the opt-in: ", false),
        ]
        .into_iter()
        .find_map(|(h, only)| {
            source
                .lines()
                .find_map(|l| l.strip_prefix(h))
                .zip(Some(only))
        });
        if let Some((want, only)) = stops {
            match run_bound(&dir, name, true) {
                Err(e) if e.contains(want) => expected_errors += 1,
                other => failures.push(format!("{name}: expected `{want}`, got {other:?}")),
            }
            if only {
                continue;
            }
        }
        let got = match run_bound(&dir, name, false) {
            Ok(g) => g,
            Err(e) => {
                failures.push(format!("{name}: {e}"));
                continue;
            }
        };
        // piglit's `probe all rgba` of a converted test: the first COUNT words of the image
        // (its texels: one tile, every texel the same) equal WORD
        for probe in source
            .lines()
            .filter_map(|l| l.strip_prefix("// probe image: "))
        {
            let f: Vec<u32> = probe
                .split_whitespace()
                .map(|v| {
                    v.strip_prefix("0x")
                        .map_or_else(|| v.parse(), |h| u32::from_str_radix(h, 16))
                        .unwrap()
                })
                .collect();
            probes += 1;
            let image = got.get(&format!("image{}", f[0]));
            let texels = image.map(|w| &w[..(f[1] as usize).min(w.len())]);
            if texels.is_none_or(|t| t.len() != f[1] as usize || t.iter().any(|&w| w != f[2])) {
                failures.push(format!(
                    "{name}: piglit probe: image {} texels == {:#x}",
                    f[0], f[2]
                ));
            }
        }
        // piglit's probes of a buffer word (`// probe: BINDING WORD VALUE`)
        for probe in source.lines().filter_map(|l| l.strip_prefix("// probe: ")) {
            let f: Vec<u32> = probe
                .split_whitespace()
                .map(|v| {
                    v.strip_prefix("0x")
                        .map_or_else(|| v.parse(), |h| u32::from_str_radix(h, 16))
                        .unwrap()
                })
                .collect();
            probes += 1;
            let word = got
                .get(&format!("b{}", f[0]))
                .and_then(|b| b.get(f[1] as usize));
            if word != Some(&f[2]) {
                failures.push(format!(
                    "{name}: piglit probes binding {} word {} == {:#x}, got {word:?}",
                    f[0], f[1], f[2]
                ));
            }
        }
        let refs = std::fs::read_to_string(dir.join(format!("{name}.ref"))).unwrap();
        for line in refs.lines() {
            let (label, rest) = line.split_once(':').unwrap();
            let buffer = if label.starts_with("image") {
                label.to_string()
            } else {
                format!("b{label}")
            };
            let want: Vec<u32> = rest
                .split_whitespace()
                .map(|v| u32::from_str_radix(v, 16).unwrap())
                .collect();
            let Some(g) = got.get(&buffer) else {
                failures.push(format!("{name}: no buffer {buffer}"));
                continue;
            };
            // an image's reference leaves out its trailing zeros (the layout's padding)
            let image = buffer.starts_with("image");
            if g.len() < want.len() || (!image && g.len() != want.len()) {
                failures.push(format!(
                    "{name}: {buffer}: {} words, llvmpipe {}",
                    g.len(),
                    want.len()
                ));
            }
            let tolerance = floats.get(&buffer);
            for (i, &g) in g.iter().enumerate() {
                let w = want.get(i).copied().unwrap_or(0);
                words += 1;
                let ok = match tolerance {
                    Some(Some(eps)) => (f32::from_bits(g) - f32::from_bits(w)).abs() <= *eps,
                    Some(None) => agree_within(g, w, 1.0 / 65536.0),
                    None => g == w,
                };
                inexact += usize::from(ok && g != w);
                if !ok {
                    failures.push(format!(
                        "{name}: {buffer} word {i}: {g:#010x}, llvmpipe {w:#010x}"
                    ));
                }
            }
        }
    }
    println!(
        "glsl_img: {} shaders, {words} words, {inexact} equal only within the tolerance, \
         {probes} piglit probes, {expected_errors} stopping on their typed error as expected \
         (without the approximation opt-in)",
        names.len()
    );
    failures.truncate(40);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(names.len(), 14, "corpus/agx/glsl_img shaders");
    assert_eq!(expected_errors, 1);
}
