//! GLSL compute shaders with image stores, image atomics, size queries and array layers
//! (`corpus/agx/glsl_img`), compiled by Mesa 25.0.7's asahi compiler as its gallium driver binds
//! them (tools/agx/glsl_compute.c): stores take PBE descriptors, and what the driver reads
//! through its bindless texture table (atomics, size queries, array layers) takes the table, a
//! buffer holding the whole texture state array whose address is the kernel's `table` argument.
//! A grid-kernel job file's texture list patches TEXTURE address fields (bit 66) only, so each
//! job's state is in `NAME.bind.toml` and this test binds it: every descriptor's address field
//! (TEXTURE bit 66, PBE bit 64, cmdbuf.xml) set to its buffer's address, the table filled with
//! the patched array. Then every buffer and every image (llvmpipe's images laid out by ail as
//! the AGX images are, `imageN:` in `NAME.ref`) must equal llvmpipe's, words of buffers named
//! by `// compare: B f32` within 2^-16 relative (as tests/glsl_compute.rs), of buffers named by
//! `// compare: B abs EPS` within EPS (an ASTC texture llvmpipe reads as RGBA8). A shader with
//! `// expect error: TEXT` (and no reference) must stop on a typed error holding TEXT. A job
//! without `NAME.bind.toml` binds its own texture list; it is here because its preamble samples
//! a texture (Mesa hoists uniform samples there), and the CLI runner runs the preamble before
//! it binds the state (`GridKernel::prepare` then `AgxCompute::binding`), which this test does
//! with `GridKernel::prepare_bound`.

use std::collections::BTreeMap;
use std::path::Path;
use wavesim_agx::kernel::{BoundState, GridKernel, KernelArg};
use wavesim_agx::runner::RunConfig;
use wavesim_core::memory::DeviceMemory;
use wavesim_core::NoObserver;

#[path = "common/agree.rs"]
mod agree;
use agree::agree_within;

/// A descriptor's words with its address field (36 bits of address >> 4 from bit `shift`) set.
fn patched(words: &[u32], addr: u64, shift: u32) -> [u8; 24] {
    let mut b = [0u8; 24];
    for (i, w) in words.iter().enumerate() {
        b[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
    let mut lo = u128::from_le_bytes(b[..16].try_into().unwrap());
    let field = ((1u128 << 36) - 1) << shift;
    lo = (lo & !field) | u128::from(addr >> 4) << shift;
    b[..16].copy_from_slice(&lo.to_le_bytes());
    b
}

/// Runs one job with its bound state; every buffer's words after the dispatch, by name.
fn run_bound(dir: &Path, name: &str) -> Result<BTreeMap<String, Vec<u32>>, String> {
    let job = std::fs::read_to_string(dir.join(format!("{name}.job.toml"))).unwrap();
    let cfg = RunConfig::from_toml(&job).map_err(|e| e.to_string())?;
    let mut dev = DeviceMemory::new();
    let mut addrs = BTreeMap::new();
    let mut sizes = BTreeMap::new();
    for b in &cfg.buffer {
        // the runner's rule: the u32 contents, zero-filled up to `size`
        let mut bytes: Vec<u8> = b
            .u32
            .iter()
            .flatten()
            .flat_map(|w| w.to_le_bytes())
            .collect();
        if let Some(n) = b.size {
            bytes.resize(bytes.len().max(n as usize), 0);
        }
        // page-aligned: the images' layers are (ail, writeable images)
        let a = dev
            .alloc(bytes.len().max(16) as u64, 0x4000)
            .map_err(|e| e.to_string())?;
        dev.write(a, &bytes).map_err(|e| e.to_string())?;
        addrs.insert(b.name.clone(), a);
        sizes.insert(b.name.clone(), bytes.len());
    }
    let g = cfg.grid_kernel.as_ref().ok_or("no [grid_kernel]")?;
    // the state of NAME.bind.toml, or (a job that needs only TEXTURE descriptors) the job's own
    // texture list
    let mut textures = vec![];
    if let Ok(text) = std::fs::read_to_string(dir.join(format!("{name}.bind.toml"))) {
        let bind: toml::Value = text.parse().map_err(|e: toml::de::Error| e.to_string())?;
        let states = bind["state"].as_array().ok_or("no [[state]]")?;
        let count = states
            .iter()
            .map(|s| s["index"].as_integer().unwrap() as usize + 1)
            .max()
            .unwrap_or(0);
        textures = vec![[0u8; 24]; count];
        for s in states {
            let words: Vec<u32> = s["descriptor"]
                .as_array()
                .unwrap()
                .iter()
                .map(|w| w.as_integer().unwrap() as u32)
                .collect();
            let addr = addrs[s["buffer"].as_str().unwrap()];
            let shift = if s["kind"].as_str() == Some("pbe") {
                64
            } else {
                66
            };
            textures[s["index"].as_integer().unwrap() as usize] = patched(&words, addr, shift);
        }
        if let Some(table) = bind.get("table").and_then(|t| t.as_str()) {
            dev.write(addrs[table], &textures.concat())
                .map_err(|e| e.to_string())?;
        }
    } else {
        for t in &g.texture {
            textures.push(patched(&t.descriptor, addrs[&t.buffer] + t.offset, 66));
        }
    }
    let samplers = g
        .sampler
        .iter()
        .map(|s| {
            let mut b = [0u8; 8];
            b[..4].copy_from_slice(&s[0].to_le_bytes());
            b[4..].copy_from_slice(&s[1].to_le_bytes());
            b
        })
        .collect();
    let args: Vec<KernelArg> = cfg
        .arg
        .iter()
        .map(|a| KernelArg::U64(addrs[a.buffer.as_ref().unwrap()] + a.offset))
        .collect();
    let code = std::fs::read(dir.join(cfg.code.as_ref().unwrap())).unwrap();
    let report = std::fs::read_to_string(dir.join(&g.report)).unwrap();
    let kernel = GridKernel::new(code, &report).map_err(|e| e.to_string())?;
    let borders = g
        .border
        .iter()
        .map(|b| {
            let mut out = [0u8; 16];
            for (i, w) in b.iter().enumerate() {
                out[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
            }
            out
        })
        .collect();
    // the preamble sees the state too (Mesa hoists uniform texture samples into it)
    let state = BoundState {
        textures,
        samplers,
        borders,
    };
    let b = kernel
        .prepare_bound(&args, &g.grid, &dev, 1, state)
        .map_err(|e| e.to_string())?;
    let b = if cfg.approximate {
        b.approximating()
    } else {
        b
    };
    wavesim_core::engine::run(&b, &dev, &mut NoObserver).map_err(|e| e.to_string())?;
    let mut out = BTreeMap::new();
    for (n, &a) in &addrs {
        let mut bytes = vec![0u8; sizes[n]];
        dev.read(a, &mut bytes).map_err(|e| e.to_string())?;
        let words = bytes
            .chunks(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect();
        out.insert(n.clone(), words);
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
        // a shader whose run must stop on a typed error (no rule, so no reference)
        if let Some(want) = source
            .lines()
            .find_map(|l| l.strip_prefix("// expect error: "))
        {
            match run_bound(&dir, name) {
                Err(e) if e.contains(want) => expected_errors += 1,
                other => failures.push(format!("{name}: expected `{want}`, got {other:?}")),
            }
            continue;
        }
        let got = match run_bound(&dir, name) {
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
         {probes} piglit probes, {expected_errors} stopping on their typed error as expected",
        names.len()
    );
    failures.truncate(40);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(names.len(), 12, "corpus/agx/glsl_img shaders");
    assert_eq!(expected_errors, 1);
}
