//! the asahi compiler README's fragment ABI (Mesa `src/asahi/compiler/README.md`, "Fragment"; register positions from
//! `lib/agx_abi.h`): the per-sample loop with r0l = 0 and r0h the sample being shaded, the epilog reading
//! r2 (depth), r3l (stencil), r3h (sample mask), colours at r(4(i+1)) and the dual-source colour at
//! r8-r11, the u0_u1 / u2..u5 / u6_u7 uniform roles, and PNG output. Also Mesa's hand-encoded per-sample
//! loop (`agx_linker.c`, `agx_fast_link`) run as machine code at 1, 2, 4 and 8 samples.

use wavesim_agx::abi::{
    run_fragment, AbiError, AbiVersion, Blend, ColourRegs, FragmentConfig, FragmentResult,
};
use wavesim_agx::asm::assemble;
use wavesim_agx::exec::{run, Memories, Program, Stop, WaveState};
use wavesim_core::memory::DeviceMemory;

const W: u32 = 9;
const H: u32 = 5;
const CLEAR: [f32; 4] = [0.5, 0.25, 0.125, 1.0];
const TEMP: usize = 36;

#[derive(Clone, Copy)]
struct Case {
    samples: u32,
    sample_shading: bool,
    rts: usize,
    f16: bool,
    dual: bool,
    depth: bool,
    stencil: bool,
    sample_mask: bool,
}

fn f16_bits(v: f32) -> u16 {
    half::f16::from_f32(v).to_bits()
}

/// The main shader: colour of render target i = (x/8, y/8, r0h/16, (i+1)/8), dual-source colour 0.25,
/// depth x + y, stencil x + y, sample mask 0b0101.
fn shader(c: &Case) -> String {
    let t = TEMP;
    let mut s = format!(
        "get_sr r{t}, sr80\nget_sr r{}, sr81\nconvert u32_to_f, r{}, r{t}, rte\nconvert u32_to_f, r{}, r{}, rte\n",
        t + 1,
        t + 2,
        t + 3,
        t + 1
    );
    if c.sample_shading {
        s += &format!(
            "iadd r{}, r0h, 0\nconvert u32_to_f, r{}, r{}, rte\n",
            t + 4,
            t + 4,
            t + 4
        );
    } else {
        s += &format!("mov_imm r{}, 0\n", t + 4);
    }
    for i in 0..c.rts {
        let r = 4 * (i + 1);
        let w = (i as f32 + 1.0) / 8.0;
        if c.f16 {
            s += &format!(
                "fmul32 r{r}l, r{}, 0.125\nfmul32 r{r}h, r{}, 0.125\n",
                t + 2,
                t + 3
            );
            s += &format!(
                "fmul32 r{}l, r{}, 0.0625\nmov_imm r{}h, {}\n",
                r + 1,
                t + 4,
                r + 1,
                f16_bits(w)
            );
        } else {
            s += &format!(
                "fmul32 r{r}, r{}, 0.125\nfmul32 r{}, r{}, 0.125\n",
                t + 2,
                r + 1,
                t + 3
            );
            s += &format!(
                "fmul32 r{}, r{}, 0.0625\nmov_imm r{}, {}\n",
                r + 2,
                t + 4,
                r + 3,
                w.to_bits()
            );
        }
    }
    if c.dual {
        // the second colour is render target 1's slot: r8-r11 (f32) or r8l, r8h, r9l, r9h (f16)
        if c.f16 {
            for h in ["r8l", "r8h", "r9l", "r9h"] {
                s += &format!("mov_imm {h}, {}\n", f16_bits(0.25));
            }
        } else {
            for r in 8..12 {
                s += &format!("mov_imm r{r}, {}\n", 0.25f32.to_bits());
            }
        }
    }
    if c.depth {
        s += &format!("fadd32 r2, r{}, r{}\n", t + 2, t + 3);
    }
    if c.stencil {
        s += &format!("iadd r3l, r{t}l, r{}l\n", t + 1);
    }
    if c.sample_mask {
        s += "mov_imm r3h, 5\n";
    }
    s += "stop\n";
    s
}

fn config(c: &Case) -> FragmentConfig {
    FragmentConfig {
        main: assemble(&shader(c)).unwrap(),
        nr_gprs: TEMP + 5,
        prolog: None,
        width: W,
        height: H,
        samples: c.samples,
        sample_shading: c.sample_shading,
        render_targets: vec![
            if c.f16 {
                ColourRegs::F16
            } else {
                ColourRegs::F32
            };
            c.rts
        ],
        dual_source: c.dual,
        blend: if c.dual {
            Blend::DualSourceOneMinusSrc1
        } else {
            Blend::Replace
        },
        blend_constant: [0.0; 4],
        writes_depth: c.depth,
        writes_stencil: c.stencil,
        writes_sample_mask: c.sample_mask,
        clear_colour: CLEAR,
        abi: Default::default(),
        coefficients: vec![],
        back_facing: None,
        approximate: false,
    }
}

/// Expected framebuffer from the README's rules.
fn check(c: &Case, r: &FragmentResult) {
    let s = c.samples as usize;
    assert_eq!(
        r.invocations,
        (W * H) as u64,
        "u6_u7 root descriptor: one invocation per pixel"
    );
    for y in 0..H {
        for x in 0..W {
            let pixel = (y * W + x) as usize;
            for k in 0..s {
                let idx = pixel * s + k;
                // Sample k is written when it is shaded (every covered sample without sample shading;
                // with it, in the iteration whose r0h = 1 << k) and, with an emitted sample mask, when
                // r3h has its bit.
                let written = !c.sample_mask || (5 >> k) & 1 == 1;
                let blue = if c.sample_shading {
                    (1u32 << k) as f32 / 16.0
                } else {
                    0.0
                };
                for rt in 0..c.rts {
                    let src = [
                        x as f32 / 8.0,
                        y as f32 / 8.0,
                        blue,
                        (rt as f32 + 1.0) / 8.0,
                    ];
                    let want = if !written {
                        CLEAR
                    } else if c.dual {
                        std::array::from_fn(|i| src[i] + (1.0 - 0.25) * CLEAR[i])
                    } else {
                        src
                    };
                    assert_eq!(
                        r.colour[rt][idx], want,
                        "rt {rt} pixel ({x},{y}) sample {k}"
                    );
                }
                if c.depth {
                    assert_eq!(r.depth[idx], if written { (x + y) as f32 } else { 0.0 });
                }
                if c.stencil {
                    assert_eq!(r.stencil[idx], if written { (x + y) as u8 } else { 0 });
                }
            }
        }
    }
    // The PNG holds the sample-resolved RGBA8 image.
    for rt in 0..c.rts {
        let png_bytes = r.png(rt).unwrap();
        let decoder = png::Decoder::new(std::io::Cursor::new(png_bytes));
        let mut reader = decoder.read_info().unwrap();
        let mut buf = vec![0; reader.output_buffer_size()];
        let info = reader.next_frame(&mut buf).unwrap();
        assert_eq!((info.width, info.height), (W, H));
        assert_eq!(&buf[..info.buffer_size()], &r.resolve_rgba8(rt)[..]);
    }
}

fn run_case(c: Case) {
    let mut dev = DeviceMemory::new();
    let r = run_fragment(&config(&c), &mut dev).unwrap();
    check(&c, &r);
}

const BASE: Case = Case {
    samples: 1,
    sample_shading: true,
    rts: 1,
    f16: false,
    dual: false,
    depth: false,
    stencil: false,
    sample_mask: false,
};

#[test]
fn fragment_sample_shading_1_2_4_8_samples() {
    for samples in [1, 2, 4, 8] {
        run_case(Case { samples, ..BASE });
    }
}

#[test]
fn fragment_without_sample_shading_broadcasts_to_all_samples() {
    for samples in [1, 4] {
        run_case(Case {
            samples,
            sample_shading: false,
            ..BASE
        });
    }
}

#[test]
fn fragment_1_to_8_render_targets() {
    for rts in 1..=8 {
        run_case(Case {
            rts,
            samples: if rts % 2 == 0 { 2 } else { 1 },
            ..BASE
        });
    }
    run_case(Case {
        rts: 3,
        f16: true,
        samples: 4,
        ..BASE
    });
}

#[test]
fn fragment_dual_source_blending() {
    run_case(Case {
        dual: true,
        samples: 2,
        ..BASE
    });
    run_case(Case {
        dual: true,
        f16: true,
        ..BASE
    });
}

#[test]
fn fragment_depth_stencil_and_sample_mask() {
    run_case(Case {
        depth: true,
        stencil: true,
        samples: 4,
        ..BASE
    });
    run_case(Case {
        sample_mask: true,
        samples: 4,
        ..BASE
    });
    run_case(Case {
        depth: true,
        stencil: true,
        sample_mask: true,
        samples: 8,
        rts: 2,
        ..BASE
    });
    run_case(Case {
        sample_mask: true,
        samples: 4,
        sample_shading: false,
        ..BASE
    });
}

/// The blend constant is read from u2..u5 and the render targets through the u0_u1 heap.
#[test]
fn fragment_blend_constant_from_u2_u5() {
    let c = BASE;
    let mut cfg = config(&c);
    cfg.blend = Blend::Constant;
    cfg.blend_constant = [0.5, 0.25, 1.0, 0.0];
    let mut dev = DeviceMemory::new();
    let r = run_fragment(&cfg, &mut dev).unwrap();
    let (x, y) = (3u32, 2u32);
    let src = [x as f32 / 8.0, y as f32 / 8.0, 1.0 / 16.0, 1.0 / 8.0];
    let want: [f32; 4] = std::array::from_fn(|i| {
        src[i] * cfg.blend_constant[i] + (1.0 - cfg.blend_constant[i]) * CLEAR[i]
    });
    assert_eq!(r.colour[0][(y * W + x) as usize], want);
    // the heap entry points at the render target storage
    assert_eq!(
        dev.read_u64(dev.regions()[1].base()).unwrap(),
        r.rt_addresses[0]
    );
}

/// The main shader must leave r0l = 0 and r0h as it found them when sample shading.
#[test]
fn fragment_abi_violations_are_errors() {
    let mut cfg = config(&BASE);
    cfg.samples = 2;
    cfg.main = assemble("iadd r0h, r0h, 1\nstop").unwrap();
    let mut dev = DeviceMemory::new();
    assert!(matches!(
        run_fragment(&cfg, &mut dev),
        Err(AbiError::AbiViolation { .. })
    ));
    cfg.main = assemble("mov_imm r0l, 1\nstop").unwrap();
    let mut dev = DeviceMemory::new();
    assert!(matches!(
        run_fragment(&cfg, &mut dev),
        Err(AbiError::AbiViolation { .. })
    ));
}

/// Mesa's `agx_fast_link` (agx_linker.c): the linked program's register count is the largest of its
/// parts' (`nr_gprs = MAX2(nr_gprs, part->info.nr_gprs)` over prolog, main and epilog), so a prolog
/// using registers above the main shader's count (41 here) links and runs, once per pixel before the
/// sample loop, and the linked count is the prolog's top register + 1.
#[test]
fn fragment_prolog_sizes_the_linked_program_as_mesa_links_it() {
    let mut cfg = config(&BASE);
    assert_eq!(cfg.nr_gprs, 41);
    // r60/r61 exist only in the linked program: the prolog writes r60 and reads it back into r61.
    cfg.prolog = Some(assemble("mov_imm r60, 1\niadd r61, r60, 1\nmov_imm r41, 1\nstop").unwrap());
    let mut dev = DeviceMemory::new();
    let r = run_fragment(&cfg, &mut dev).unwrap();
    assert_eq!(r.linked_gprs, 62);
    check(&BASE, &r);
    // A prolog within the main shader's registers leaves the count at the main shader's.
    cfg.prolog = Some(assemble("mov_imm r40, 1\nmov_imm r39l, 2\nstop").unwrap());
    let mut dev = DeviceMemory::new();
    let r = run_fragment(&cfg, &mut dev).unwrap();
    assert_eq!(r.linked_gprs, 41);
    check(&BASE, &r);
    // Without a prolog too.
    cfg.prolog = None;
    let r = run_fragment(&cfg, &mut DeviceMemory::new()).unwrap();
    assert_eq!(r.linked_gprs, 41);
}

// ------------------------------------------------------------ Mesa's hand-encoded sample loop

/// `sample_loop_header` of Mesa's agx_linker.c: mov_imm r0, 0x10000.
const HEADER: [u8; 6] = [0x62, 0x01, 0x00, 0x00, 0x01, 0x00];
/// `stop` followed by eight `trap`s.
const STOP: [u8; 18] = [
    0x88, 0x00, 0x08, 0x00, 0x08, 0x00, 0x08, 0x00, 0x08, 0x00, 0x08, 0x00, 0x08, 0x00, 0x08, 0x00,
    0x08, 0x00,
];
/// `sample_loop_footer`: iadd r0h, 0, r0h, lsl 1; while_icmp r0l, ult, r0h, <end>, 1; jmp_exec_any
/// <loop>; pop_exec r0l, 1; STOP.
fn footer() -> Vec<u8> {
    let mut f = vec![
        0x0e, 0x02, 0x00, 0x10, 0x84, 0x00, 0x00, 0x00, 0x52, 0x2c, 0x41, 0x00, 0x00, 0x00, 0x00,
        0xc0, 0x00, 0x00, 0x00, 0x00, 0x52, 0x0e, 0x00, 0x00, 0x00, 0x00,
    ];
    f.extend_from_slice(&STOP);
    f
}

/// `agx_fast_link`'s layout for `nr_samples_shaded`, with the two patches it applies: the sample end
/// `(1 << n) - 1` stored as a `uint8_t` and shifted left by 4 into footer byte 11 (again a `uint8_t`),
/// and the jmp_exec_any offset `-(14 + loop size)` at footer byte 16.
fn mesa_link(main: &[u8], nr_samples_shaded: u32) -> Vec<u8> {
    let mut code = HEADER.to_vec();
    let loop_begin = code.len();
    code.extend_from_slice(main);
    if nr_samples_shaded > 1 {
        let mut f = footer();
        let end = ((1u32 << nr_samples_shaded) - 1) as u8;
        f[11] = ((end as u32) << 4) as u8;
        let loop_size = (code.len() - loop_begin) as i32;
        f[16..20].copy_from_slice(&(-(14 + loop_size)).to_le_bytes());
        code.extend_from_slice(&f);
    } else {
        code.extend_from_slice(&STOP);
    }
    code
}

/// Run the linked loop: the main part accumulates r0h into r10 and counts iterations in r11.
fn run_mesa_loop(samples: u32) -> (u32, u32, u32) {
    let main = assemble("iadd r10, r10, r0h\niadd r11, r11, 1").unwrap();
    run_linked(mesa_link(&main, samples))
}

/// Run linked code on one SIMD group to its end: (r10, r11, exec mask) of thread 0.
fn run_linked(code: Vec<u8>) -> (u32, u32, u32) {
    let program = Program::new(code);
    let mut w = WaveState::new(16);
    let dev = DeviceMemory::new();
    let mut tg = vec![];
    let mut mem = Memories {
        device: &dev,
        threadgroup: &mut tg,
    };
    assert_eq!(run(&mut w, &program, &mut mem, 10_000).unwrap(), Stop::End);
    (w.reg32(10, 0), w.reg32(11, 0), w.exec)
}

#[test]
fn mesa_linker_sample_loop_1_2_4_8() {
    // README: r0l = 0 and r0h = 1 << sample for each shaded sample; after the loop every thread is
    // active again (pop_exec). For 1, 2 and 4 samples the loop shades every sample.
    assert_eq!(run_mesa_loop(1), (0b1, 1, u32::MAX));
    assert_eq!(run_mesa_loop(2), (0b11, 2, u32::MAX));
    assert_eq!(run_mesa_loop(4), (0b1111, 4, u32::MAX));
    // For 8 samples Mesa's patch truncates: `end << 4` of 0xFF stored in a byte is 0xF0, so the
    // while_icmp immediate is 15 and the loop ends once r0h reaches 16: samples 0-3 only (G13 has at
    // most 4 samples, so Mesa never links 8). wavesim's own loop (`run_fragment`) shades all 8.
    let linked = mesa_link(&[], 8);
    let text = wavesim_agx::disassemble_raw(&linked, 0).unwrap();
    assert!(
        text.contains("while_icmp       r0l, ult, r0h, 15, 1"),
        "{text}"
    );
    assert_eq!(run_mesa_loop(8), (0b1111, 4, u32::MAX));
}

/// README "Fragment": no register inputs are defined besides r0l/r0h under sample shading, so reading
/// another register before writing it fails, and so does an epilog input the shader never wrote.
#[test]
fn fragment_undefined_registers_fail_visibly() {
    use wavesim_agx::exec::Fault;
    let expect_undefined = |cfg: &FragmentConfig, reg: &str| {
        let mut dev = DeviceMemory::new();
        match run_fragment(cfg, &mut dev) {
            Err(AbiError::Exec { source, .. }) => match source.fault {
                Fault::UndefinedRead { reg: r, .. } => assert_eq!(r, reg),
                other => panic!("{other}"),
            },
            other => panic!("{other:?}"),
        }
    };
    let mut cfg = config(&BASE);
    cfg.main = assemble("iadd r4, r20, 0\nstop").unwrap();
    expect_undefined(&cfg, "r20");
    cfg.sample_shading = false;
    cfg.main = assemble("iadd r4, r0h, 0\nstop").unwrap();
    expect_undefined(&cfg, "r0h");
    // colour r4-r7 expected, r7 never written
    cfg.main = assemble("mov_imm r4, 0\nmov_imm r5, 0\nmov_imm r6, 0\nstop").unwrap();
    let mut dev = DeviceMemory::new();
    match run_fragment(&cfg, &mut dev) {
        Err(AbiError::AbiViolation { what, .. }) => assert!(what.contains("r7l"), "{what}"),
        other => panic!("{other:?}"),
    }
}

/// r8 = x, r9 = y of the thread's pixel as f32.
const PIXEL_XY: &str = "get_sr r8, sr80
    get_sr r9, sr81
    convert u32_to_f, r8, r8, rte
    convert u32_to_f, r9, r9, rte";

/// Derivatives across 2x2 quads (fine: per row for dfdx, per column for dfdy), including helper
/// threads outside a framebuffer whose size is not a multiple of the quad.
#[test]
fn fragment_derivatives_over_quads() {
    let src = PIXEL_XY.to_owned()
        + "
        fmul32 r10, r8, r8            # x * x
        fmul32 r11, r9, 3.0           # 3y
        fmadd32 r12, r8, r9, r10      # x*y + x*x
        dfdx r4, r10                  # 2 * left + 1
        dfdy r5, r11                  # 3
        dfdx r6, r12                  # y + 2 * left + 1
        dfdy r7, r12                  # x
        stop";
    let mut cfg = config(&BASE);
    cfg.main = assemble(&src).unwrap();
    cfg.width = 7;
    cfg.height = 5;
    let mut dev = DeviceMemory::new();
    let r = run_fragment(&cfg, &mut dev).unwrap();
    assert_eq!(r.invocations, 35, "helpers are not counted");
    for y in 0..5u32 {
        for x in 0..7u32 {
            let left = (x & !1) as f32;
            let c = r.colour[0][(y * 7 + x) as usize];
            assert_eq!(
                c,
                [2.0 * left + 1.0, 3.0, y as f32 + 2.0 * left + 1.0, x as f32],
                "pixel ({x},{y})"
            );
        }
    }
}

/// A derivative whose destination is its source (Mesa 22.3 emits `dfdy r6, r6` in
/// shader-db's tesseract_488): every thread reads its neighbour's value from before the
/// instruction. Rule: (left + 1)^2 - left^2 = 2 left + 1 at both pixels of a quad's row, and the
/// same down a column; had the left thread's result been written first, the right thread would
/// compute (left + 1)^2 - (2 left + 1) = left^2 instead.
#[test]
fn fragment_derivative_in_place_reads_the_old_neighbour() {
    let src = PIXEL_XY.to_owned()
        + "
        fmul32 r4, r8, r8
        dfdx r4, r4                   # 2 * left + 1
        fmul32 r5, r9, r9
        dfdy r5, r5                   # 2 * top + 1
        fmul32 r6, r8, 1.0
        fmul32 r7, r9, 1.0
        stop";
    let mut cfg = config(&BASE);
    cfg.main = assemble(&src).unwrap();
    cfg.width = 6;
    cfg.height = 4;
    let mut dev = DeviceMemory::new();
    let r = run_fragment(&cfg, &mut dev).unwrap();
    for y in 0..4u32 {
        for x in 0..6u32 {
            let (left, top) = ((x & !1) as f32, (y & !1) as f32);
            assert_eq!(
                r.colour[0][(y * 6 + x) as usize],
                [2.0 * left + 1.0, 2.0 * top + 1.0, x as f32, y as f32],
                "pixel ({x},{y})"
            );
        }
    }
}

// ------------------------------------------------------------ current Mesa's ABI (agx_abi.h)

/// Current Mesa (`agx_abi.h`: `AGX_ABI_FIN_SAMPLE_MASK` = half 2; its README: "`r1l` is the mask of
/// samples currently being shaded", preserved at the end): the same shader reading r1l instead of r0h
/// shades every sample as the old layout's does with r0h, at 1, 2 and 4 samples.
#[test]
fn mesa_current_abi_sample_mask_in_r1l() {
    for samples in [1, 2, 4] {
        let c = Case { samples, ..BASE };
        let mut cfg = config(&c);
        cfg.abi = AbiVersion::MesaCurrent;
        cfg.main = assemble(&shader(&c).replace("r0h", "r1l")).unwrap();
        let r = run_fragment(&cfg, &mut DeviceMemory::new()).unwrap();
        check(&c, &r);
    }
    // Under the current layout r0h is not an input: reading it is an undefined read...
    let mut cfg = config(&Case { samples: 2, ..BASE });
    cfg.abi = AbiVersion::MesaCurrent;
    match run_fragment(&cfg, &mut DeviceMemory::new()) {
        Err(AbiError::Exec { source, .. }) => match source.fault {
            wavesim_agx::exec::Fault::UndefinedRead { reg, .. } => assert_eq!(reg, "r0h"),
            other => panic!("{other}"),
        },
        other => panic!("{other:?}"),
    }
    // ...and clobbering r1l breaks the preserved mask (under the 2023 layout r1l is a temporary).
    let mut src = shader(&Case { samples: 2, ..BASE });
    src = src.replace("stop\n", "mov_imm r1l, 0\nstop\n");
    let mut cfg = config(&Case { samples: 2, ..BASE });
    cfg.main = assemble(&src).unwrap();
    check(
        &Case { samples: 2, ..BASE },
        &run_fragment(&cfg, &mut DeviceMemory::new()).unwrap(),
    );
    cfg.abi = AbiVersion::MesaCurrent;
    cfg.main = assemble(&src.replace("r0h", "r1l")).unwrap();
    match run_fragment(&cfg, &mut DeviceMemory::new()) {
        Err(AbiError::AbiViolation { what, .. }) => {
            assert!(what.starts_with("r1l = 0x0 at the end"), "{what}")
        }
        other => panic!("{other:?}"),
    }
}

/// Current Mesa's `agx_linker.c` sample loop counts in r1l: `sample_loop_header` is `mov_imm r0l, 0;
/// mov_imm r1l, 1` and the footer `iadd r1l, 0, r1l, lsl 1; while_icmp r0l, ult, r1l, <end>, 1;
/// jmp_exec_any; pop_exec r0l, 1` with the same two patches (byte 11: end << 4; byte 16: the branch).
fn mesa_current_link(main: &[u8], nr_samples_shaded: u32) -> Vec<u8> {
    let mut code = vec![0x62, 0x00, 0x00, 0x00, 0x62, 0x04, 0x01, 0x00];
    let loop_begin = code.len();
    code.extend_from_slice(main);
    let mut f = vec![
        0x0e, 0x04, 0x00, 0x20, 0x84, 0x00, 0x00, 0x00, 0x52, 0x2c, 0x42, 0x00, 0x00, 0x00, 0x00,
        0xc0, 0x00, 0x00, 0x00, 0x00, 0x52, 0x0e, 0x00, 0x00, 0x00, 0x00,
    ];
    f.extend_from_slice(&STOP);
    let end = ((1u32 << nr_samples_shaded) - 1) as u8;
    f[11] = ((end as u32) << 4) as u8;
    let loop_size = (code.len() - loop_begin) as i32;
    f[16..20].copy_from_slice(&(-(14 + loop_size)).to_le_bytes());
    code.extend_from_slice(&f);
    code
}

#[test]
fn mesa_current_linker_sample_loop_counts_in_r1l() {
    let text = wavesim_agx::disassemble_raw(&mesa_current_link(&[], 4), 0).unwrap();
    assert!(text.contains("mov_imm          r1l, 1"), "{text}");
    assert!(
        text.contains("while_icmp       r0l, ult, r1l, 15, 1"),
        "{text}"
    );
    let main = assemble("iadd r10, r10, r1l\niadd r11, r11, 1").unwrap();
    // r10 = sum of the masks 1 << s over the shaded samples, r11 = iterations
    for (samples, want) in [(2, (0b11, 2)), (4, (0b1111, 4))] {
        let got = run_linked(mesa_current_link(&main, samples));
        assert_eq!(got, (want.0, want.1, u32::MAX));
    }
}

/// gl_FrontFacing: Mesa compiles it as `not(load_back_face_agx)` (`agx_lower_front_face`), which is
/// `get_sr sr62` (AGX_SR_BACKFACING): 1 for a back-facing primitive, 0 for a front-facing one. The
/// shader copies sr62's bits into the red channel, so the render target holds f32 bits 1 (back) or
/// 0 (front) at every pixel; without a facing the read is a typed error naming sr62.
#[test]
fn facing_is_sr62_when_given() {
    let main =
        assemble("get_sr r4, sr62\nmov_imm r5, 0\nmov_imm r6, 0\nmov_imm r7, 0\nstop").unwrap();
    for (back, want) in [(Some(false), 0u32), (Some(true), 1)] {
        let cfg = FragmentConfig {
            back_facing: back,
            ..FragmentConfig::new(main.clone(), 8, W, H)
        };
        let r = run_fragment(&cfg, &mut DeviceMemory::new()).unwrap();
        for px in &r.colour[0] {
            assert_eq!(px[0].to_bits(), want, "back_facing {back:?}");
        }
    }
    let cfg = FragmentConfig::new(main, 8, W, H);
    let e = run_fragment(&cfg, &mut DeviceMemory::new()).unwrap_err();
    assert!(e.to_string().contains("sr62"), "{e}");
}
