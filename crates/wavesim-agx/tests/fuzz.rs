//! Fuzz: random words (raw, and of every encoding) through decode, disassembly, assembly of the
//! disassembly, and execution on random states with device and threadgroup memory; nothing may panic.
//! Also: every table row has a semantic or the explicit `Unsupported` reason, which executes as a typed
//! error naming the instruction.

use std::panic::{catch_unwind, AssertUnwindSafe};
use wavesim_agx::asm::assemble_instruction;
use wavesim_agx::decode::decode;
use wavesim_agx::exec::{run, Fault, Memories, Program, WaveState, SIMD_WIDTH};
use wavesim_agx::table::ENCODINGS;
use wavesim_agx::table_types::Sem;
use wavesim_agx::{disassemble_raw, listing};
use wavesim_core::memory::DeviceMemory;

struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E3779B97F4A7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58476D1CE4E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D049BB133111EB);
        z ^ (z >> 31)
    }
    /// True with probability 1/n.
    fn one_in(&mut self, n: u64) -> bool {
        self.next() % n < 1
    }
    fn word(&mut self) -> u128 {
        (self.next() as u128) << 64 | self.next() as u128
    }
}

fn bytes_of(w: u128, n: usize) -> Vec<u8> {
    (0..n).map(|k| (w >> (8 * k)) as u8).collect()
}

/// A random word of row `i` (its exact bits over random others).
fn word_of(rng: &mut Rng, i: usize) -> Vec<u8> {
    let e = &ENCODINGS[i];
    let mut w = rng.word() & rng.word().rotate_left(7);
    if rng.next() & 1 == 0 {
        w &= 0xFFFF_FFFF_0000_0000_0000_0000_FFFF_FFFF; // small register fields more often
    }
    w = (w & !e.mask) | e.bits;
    bytes_of(w, 12)
}

#[test]
fn fuzz_decode_disassemble_assemble_execute() {
    let mut rng = Rng(0xA6);
    let result = catch_unwind(AssertUnwindSafe(|| {
        let mut dev = DeviceMemory::new();
        let base = dev.alloc(4096, 64).unwrap();
        for round in 0..15000 {
            let code = if round % 3 == 0 {
                bytes_of(rng.word(), 12)
            } else {
                let row = (rng.next() % ENCODINGS.len() as u64) as usize;
                word_of(&mut rng, row)
            };
            let _ = listing(&code, rng.next() & 0xFFFF);
            if let Ok(d) = decode(&code) {
                let text = d.text(0);
                let _ = assemble_instruction(&text, 0);
            }
            // Execute a short stream: the word twice and a stop, on a random 16-register state.
            let mut stream = vec![];
            if let Ok(d) = decode(&code) {
                stream.extend_from_slice(&code[..d.size]);
                stream.extend_from_slice(&code[..d.size]);
            }
            stream.extend_from_slice(&[0x88, 0x00]);
            let program = Program::new(stream);
            let mut w = WaveState::new(16);
            for r in 0..16 {
                for lane in 0..SIMD_WIDTH {
                    let v = match rng.next() % 4 {
                        0 => base as u32 + (rng.next() % 64) as u32 * 4,
                        1 => (rng.next() % 8) as u32,
                        _ => rng.next() as u32,
                    };
                    w.set_reg32(r, lane, v);
                }
            }
            for u in 0..64 {
                w.uniforms[u] = rng.next() as u16;
            }
            w.set_uniform64(0, base);
            w.exec = rng.next() as u32;
            let mut tg = vec![0u8; 256];
            let mut mem = Memories {
                device: &dev,
                threadgroup: &mut tg,
            };
            let _ = run(&mut w, &program, &mut mem, 64);
        }
        // Garbage programs: listing of random byte strings.
        for _ in 0..300 {
            let n = (rng.next() % 64) as usize;
            let code: Vec<u8> = (0..n).map(|_| rng.next() as u8).collect();
            let _ = disassemble_raw(&code, 0);
        }
    }));
    assert!(result.is_ok(), "a fuzz input panicked");
}

#[test]
fn every_row_has_semantics_or_a_typed_reason() {
    let mut rng = Rng(7);
    let unsupported: Vec<&str> = ENCODINGS
        .iter()
        .filter(|e| e.sem == Sem::Unsupported)
        .map(|e| e.name)
        .collect();
    assert!(
        ENCODINGS.len() - unsupported.len() >= 60,
        "rows with semantics"
    );
    // An Unsupported row executes as Fault::Unsupported naming it.
    for (i, e) in ENCODINGS
        .iter()
        .enumerate()
        .filter(|(_, e)| e.sem == Sem::Unsupported)
    {
        for _ in 0..50 {
            let code = word_of(&mut rng, i);
            let Ok(d) = decode(&code) else { continue };
            if d.index != i {
                continue;
            }
            let program = Program::new(code[..d.size].to_vec());
            let mut w = WaveState::new(128);
            let dev = DeviceMemory::new();
            let mut tg = vec![];
            let mut mem = Memories {
                device: &dev,
                threadgroup: &mut tg,
            };
            let err = run(&mut w, &program, &mut mem, 1).unwrap_err();
            assert_eq!(err.fault, Fault::Unsupported { name: e.name }, "{}", err);
            assert_eq!(err.pc, 0);
            assert_eq!(err.text, d.text(0));
            break;
        }
    }
}

/// The ABI runners on random programs and configurations: errors, never panics.
#[test]
fn fuzz_abi_runners() {
    use wavesim_agx::abi::{
        run_fragment, run_vertex, AttribFormat, Blend, ColourRegs, FragmentConfig, VertexAttribute,
        VertexConfig, VertexDraw,
    };
    let mut rng = Rng(0xAB1);
    let result = catch_unwind(AssertUnwindSafe(|| {
        for round in 0..300 {
            let mut code = vec![];
            for _ in 0..(rng.next() % 6) {
                let row = (rng.next() % ENCODINGS.len() as u64) as usize;
                let w = word_of(&mut rng, row);
                if let Ok(d) = decode(&w) {
                    code.extend_from_slice(&w[..d.size]);
                }
            }
            code.extend_from_slice(&[0x88, 0x00]);
            let nr_gprs = (rng.next() % 140) as usize;
            let mut dev = DeviceMemory::new();
            let buf = dev.alloc(256, 16).unwrap();
            if round % 2 == 0 {
                let n = (rng.next() % 33) as usize;
                let attributes = (0..n)
                    .map(|_| VertexAttribute {
                        base: if rng.one_in(4) { rng.next() } else { buf },
                        stride: (rng.next() % 64) as u32,
                        format: match rng.next() % 3 {
                            0 => AttribFormat::F32((rng.next() % 6) as u8),
                            1 => AttribFormat::U32((rng.next() % 6) as u8),
                            _ => AttribFormat::Unorm8((rng.next() % 6) as u8),
                        },
                        instanced: if rng.one_in(2) {
                            None
                        } else {
                            Some((rng.next() % 3) as u32)
                        },
                        clamp: (rng.next() % 8) as u32,
                        components_read: rng.next() as u8,
                    })
                    .collect();
                let cfg = VertexConfig {
                    main: code,
                    nr_gprs,
                    attributes,
                    uniforms: vec![((rng.next() % 600) as usize, 1)],
                    abi: Default::default(),
                    approximate: false,
                };
                let draw = VertexDraw {
                    vertex_count: (rng.next() % 40) as u32,
                    instance_count: (rng.next() % 3) as u32,
                    first_vertex: rng.next() as u32,
                    base_instance: rng.next() as u32,
                    draw_id: 0,
                    index_buffer: None,
                    hardware_compute: None,
                };
                let _ = run_vertex(&cfg, &draw, &dev);
            } else {
                let cfg = FragmentConfig {
                    main: code,
                    nr_gprs,
                    prolog: None,
                    width: (rng.next() % 9) as u32,
                    height: (rng.next() % 5) as u32,
                    samples: 1 << (rng.next() % 5),
                    sample_shading: rng.one_in(2),
                    render_targets: vec![ColourRegs::F32; (rng.next() % 10) as usize],
                    dual_source: false,
                    blend: Blend::Replace,
                    blend_constant: [0.0; 4],
                    writes_depth: true,
                    writes_stencil: true,
                    writes_sample_mask: rng.one_in(2),
                    clear_colour: [0.0; 4],
                    abi: Default::default(),
                    coefficients: vec![],
                    back_facing: None,
                    approximate: false,
                };
                let _ = run_fragment(&cfg, &mut dev);
            }
        }
    }));
    assert!(result.is_ok(), "an ABI runner panicked");
}

/// Grid kernels with random reports (numbers replaced), random argument values and widths, and
/// random grids: typed errors or results, never a panic.
#[test]
fn fuzz_grid_kernels() {
    use wavesim_agx::kernel::{GridKernel, KernelArg};
    let dir = format!("{}/../../corpus/agx/kernels", env!("CARGO_MANIFEST_DIR"));
    let mut rng = Rng(0x6B1D);
    let result = catch_unwind(AssertUnwindSafe(|| {
        for name in ["saxpy", "bits", "args_mixed", "udiv", "atomics"] {
            let code = std::fs::read(format!("{dir}/{name}.bin")).unwrap();
            let toml = std::fs::read_to_string(format!("{dir}/{name}.toml")).unwrap();
            for round in 0..40 {
                let mut report = toml.clone();
                if round % 2 == 1 {
                    // replace one number of the report by a random one
                    let digits: Vec<usize> = report
                        .char_indices()
                        .filter(|(_, c)| c.is_ascii_digit())
                        .map(|(i, _)| i)
                        .collect();
                    let at = digits[(rng.next() % digits.len() as u64) as usize];
                    let n = rng.next() % 1000;
                    report.replace_range(at..at + 1, &n.to_string());
                }
                let mut code = code.clone();
                if round % 5 == 4 {
                    let i = (rng.next() % code.len() as u64) as usize;
                    code[i] = rng.next() as u8;
                }
                let Ok(k) = GridKernel::new(code, &report) else {
                    continue;
                };
                let mut dev = DeviceMemory::new();
                let buf = dev.alloc(4096, 16).unwrap();
                let args: Vec<KernelArg> = (0..k.report.args.len() + (rng.next() % 2) as usize)
                    .map(|_| match rng.next() % 6 {
                        0 => KernelArg::U8(rng.next() as u8),
                        1 => KernelArg::U16(rng.next() as u16),
                        2 => KernelArg::U32((rng.next() % 64) as u32),
                        3 => KernelArg::F32(rng.next() as f32),
                        4 => KernelArg::U64(buf),
                        _ => KernelArg::U64(rng.next()),
                    })
                    .collect();
                let global = (rng.next() % 100) as u32;
                let _ = k.dispatch(&args, &[global], &dev, 1);
            }
        }
    }));
    assert!(result.is_ok(), "a grid kernel input panicked");
}
