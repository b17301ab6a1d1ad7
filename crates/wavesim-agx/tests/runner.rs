//! The shipped TOML examples (corpus/agx/examples) run through `runner::run` and give the values their
//! sources define.

use wavesim_agx::runner::{run, RunConfig, RunError};

fn example(name: &str) -> (RunConfig, Option<Vec<u8>>) {
    let dir = format!("{}/../../corpus/agx/examples", env!("CARGO_MANIFEST_DIR"));
    let cfg =
        RunConfig::from_toml(&std::fs::read_to_string(format!("{dir}/{name}")).unwrap()).unwrap();
    let code = cfg
        .code
        .as_ref()
        .map(|f| std::fs::read(format!("{dir}/{f}")).unwrap());
    (cfg, code)
}

#[test]
fn collatz_kernel_example() {
    let (cfg, code) = example("collatz_kernel.toml");
    let r = run(&cfg, code.as_deref()).unwrap();
    let steps = |mut x: u64| {
        let mut n = 0;
        while x != 1 {
            x = if x % 2 == 1 { 3 * x + 1 } else { x / 2 };
            n += 1;
        }
        n
    };
    let want: Vec<String> = [1u64, 2, 3, 6, 7, 9, 27, 97, 871, 6171, 77031, 837799]
        .iter()
        .map(|&s| steps(s).to_string())
        .collect();
    assert!(
        r.text.contains(&format!("steps: {}\n", want.join(" "))),
        "{}",
        r.text
    );
}

#[test]
fn gradient_fragment_example() {
    let (cfg, code) = example("gradient_fragment.toml");
    let r = run(&cfg, code.as_deref()).unwrap();
    assert_eq!(r.pngs.len(), 1);
    let decoder = png::Decoder::new(std::io::Cursor::new(&r.pngs[0]));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size()];
    reader.next_frame(&mut buf).unwrap();
    // Sample s is shaded with r0h = 1 << s: blue averages (1 + 2 + 4 + 8) / 16 / 4.
    let blue = ((15.0f32 / 16.0 / 4.0) * 255.0).round() as u8;
    for (x, y) in [(0u32, 0u32), (63, 0), (10, 40), (63, 63)] {
        let p = ((y * 64 + x) * 4) as usize;
        let px = &buf[p..p + 4];
        let want = [
            ((x as f32 / 64.0) * 255.0).round() as u8,
            ((y as f32 / 64.0) * 255.0).round() as u8,
            blue,
            255,
        ];
        assert_eq!(px, want, "pixel ({x},{y})");
    }
}

#[test]
fn attributes_vertex_example() {
    let (cfg, code) = example("attributes_vertex.toml");
    let r = run(&cfg, code.as_deref()).unwrap();
    // attribute 0 = (x, y) of vertex i, defaults z = 0, w = 1; the shader doubles x
    let pos = [(0.5f32, 1.0f32), (1.5, 2.0), (2.5, 3.0)];
    for (i, (x, y)) in pos.iter().enumerate() {
        let line = format!(
            "vertex {i} instance 0: r5={:#x} r8={:#x} r9={:#x} r10=0x0 r11={:#x}",
            i,
            (2.0 * x).to_bits(),
            y.to_bits(),
            1.0f32.to_bits()
        );
        assert!(r.text.contains(&line), "{}\nwant {line}", r.text);
    }
}

#[test]
fn bad_configs_are_errors() {
    assert!(matches!(
        RunConfig::from_toml("kind = \"compute\"\nbogus = 1"),
        Err(RunError::Config(_))
    ));
    let cfg = RunConfig::from_toml("kind = \"compute\"\nasm = \"stop\"").unwrap();
    assert!(matches!(run(&cfg, None), Err(RunError::Config(_))));
    let cfg = RunConfig::from_toml("kind = \"fragment\"\nasm = \"stop\"\n[fragment]\nwidth = 2\nheight = 2\nrender_targets = [\"rgb\"]").unwrap();
    assert!(matches!(run(&cfg, None), Err(RunError::Config(_))));
}
