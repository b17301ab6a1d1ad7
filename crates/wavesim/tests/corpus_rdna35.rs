//! The RDNA3.5 corpus (corpus/runs_rdna35.toml): clang-19 -mcpu=gfx1150 and -mcpu=gfx1151 code
//! objects (corpus/gfx1150-w32, gfx1150-w64, gfx1151-w32, gfx1151-w64) whose kernels compute
//! uniform float values with the SALU float instructions, run through the Rust API and compared
//! byte for byte with their references (PoCL running the same OpenCL source, or a model where
//! PoCL lacks half; see corpus/README.md). Every run must pass on all four objects.

use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::PathBuf;
use wavesim::{parse_spec, run_specs, ArgSpec, Device, Geometry};

#[derive(Deserialize)]
struct RunFile {
    run: Vec<Run>,
}

#[derive(Deserialize)]
struct Run {
    name: String,
    object: String,
    kernel: String,
    global: Vec<u32>,
    local: Vec<u32>,
    args: Vec<String>,
    expect: BTreeMap<String, String>,
}

fn corpus() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../corpus")
}

fn run_one(r: &Run, dir: &str) -> Result<(), String> {
    let data = corpus().join("data");
    let specs: Vec<ArgSpec> = r
        .args
        .iter()
        .map(|a| parse_spec(a).map(|s| s.relative_to(&data)))
        .collect::<Result<_, _>>()?;
    let mut dev = Device::new();
    dev.max_wave_instructions = 2_000_000;
    let path = corpus().join(dir).join(format!("{}.hsaco", r.object));
    let bytes = std::fs::read(&path).map_err(|e| format!("{}: {e}", path.display()))?;
    let module = dev.load(&bytes).map_err(|e| e.to_string())?;
    let geo = Geometry::new(&r.global, &r.local).map_err(|e| e.to_string())?;
    let out = run_specs(&mut dev, &module, &r.kernel, &geo, &specs).map_err(|e| e.to_string())?;
    for (k, file) in &r.expect {
        let i: usize = k.parse().map_err(|_| format!("expect key {k}"))?;
        let want = std::fs::read(data.join(file)).map_err(|e| format!("{file}: {e}"))?;
        let got = out
            .buffers
            .get(i)
            .and_then(|b| b.as_ref())
            .ok_or("not a buffer")?;
        if let Some(p) = got.iter().zip(&want).position(|(a, b)| a != b) {
            return Err(format!(
                "argument {i}: byte {p}: got {:#04x} want {:#04x}",
                got[p], want[p]
            ));
        }
        if got.len() != want.len() {
            return Err(format!(
                "argument {i}: length {} != {}",
                got.len(),
                want.len()
            ));
        }
    }
    Ok(())
}

#[test]
fn rdna35_corpus_matches_references() {
    let text =
        std::fs::read_to_string(corpus().join("runs_rdna35.toml")).expect("runs_rdna35.toml");
    let runs = toml::from_str::<RunFile>(&text).expect("parses").run;
    assert!(runs.len() >= 4, "{} runs", runs.len());
    let mut fails = Vec::new();
    let mut n = 0;
    for r in &runs {
        for dir in ["gfx1150-w32", "gfx1150-w64", "gfx1151-w32", "gfx1151-w64"] {
            n += 1;
            match run_one(r, dir) {
                Ok(()) => println!("{:<14} {dir}: ok", r.name),
                Err(e) => fails.push(format!("{} {dir}: {e}", r.name)),
            }
        }
    }
    assert!(
        fails.is_empty(),
        "{} of {n} failed:\n{}",
        fails.len(),
        fails.join("\n")
    );
}

/// The same gfx1150 object's SALU float words are not RDNA3 instructions: loading it as gfx1100
/// code is not what the ELF machine says, and wavesim must not do it. (Checks that the target
/// really comes from e_flags: with the gfx1100 decoder the dispatch would stop on s_fmamk_f32.)
#[test]
fn gfx1150_objects_decode_as_gfx1150() {
    let bytes = std::fs::read(corpus().join("gfx1150-w32/salu_float.hsaco")).unwrap();
    let text = wavesim::disassemble(&bytes).unwrap();
    assert!(text.contains("s_fmamk_f32"), "{text}");
}
