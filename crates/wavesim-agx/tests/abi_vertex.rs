//! the asahi compiler README's vertex ABI (Mesa `src/asahi/compiler/README.md`, "Vertex"): attribute fetch through the
//! 6n+5 (hardware vertex) or 6n+12 (hardware compute) uniform layout, r5/r6 preload, poisoned r0-r4/r7,
//! and the load-time register check. Shaders are assembled with wavesim's assembler; expected values
//! follow the README's rules and Mesa's `lower_vbo` (element = vertex id, or instance / divisor + base
//! instance; above the clamp, element 0).

use wavesim_agx::abi::{
    run_vertex, AbiError, AbiVersion, AttribFormat, HardwareCompute, IndexBuffer, VertexAttribute,
    VertexConfig, VertexDraw, POISON_VALUE,
};
use wavesim_agx::asm::assemble;
use wavesim_agx::exec::Fault;
use wavesim_core::memory::DeviceMemory;

/// Element `e`, component `c` of attribute `a` in the test buffers.
fn datum(a: usize, e: u32, c: usize) -> u32 {
    ((a as u32) << 20) | (e << 4) | c as u32
}

const ELEMENTS: u32 = 64;

fn attributes(dev: &mut DeviceMemory, n: usize) -> Vec<VertexAttribute> {
    (0..n)
        .map(|a| {
            let base = dev.alloc(ELEMENTS as u64 * 16, 16).unwrap();
            for e in 0..ELEMENTS {
                for c in 0..4 {
                    dev.write_u32(base + e as u64 * 16 + 4 * c as u64, datum(a, e, c))
                        .unwrap();
                }
            }
            // a % 3: 0 per-vertex; 1 per-instance; 2 every second instance. Component counts vary so
            // the (0, 0, 0, 1) defaults are exercised; one attribute has a tight clamp.
            let instanced = match a % 3 {
                0 => None,
                1 => Some(1),
                _ => Some(2),
            };
            VertexAttribute {
                base,
                stride: 16,
                format: AttribFormat::U32(1 + (a % 4) as u8),
                instanced,
                clamp: if a == 0 { 20 } else { ELEMENTS - 1 },
                components_read: 0xF,
            }
        })
        .collect()
}

/// Expected r(8 + 4a + c) for one invocation (README "Vertex" + `lower_vbo`).
fn expected(
    attr: &VertexAttribute,
    a: usize,
    vertex_id: u32,
    instance: u32,
    base_instance: u32,
    c: usize,
) -> u32 {
    let mut el = match attr.instanced {
        None => vertex_id,
        Some(0) => base_instance,
        Some(d) => instance / d + base_instance,
    };
    if el > attr.clamp {
        el = 0;
    }
    let comps = match attr.format {
        AttribFormat::U32(k) => k as usize,
        _ => unreachable!(),
    };
    if c < comps {
        datum(a, el, c)
    } else if c == 3 {
        1
    } else {
        0
    }
}

/// A main shader that adds the vertex id to component x of every attribute, copies the prolog's
/// uniforms it can see (first vertex, base instance) into spare registers when there are any, and stops.
fn main_shader(n: usize, spare: Option<usize>) -> Vec<u8> {
    let mut src = String::new();
    for a in 0..n {
        src += &format!("iadd r{0}, r{0}, r5\n", 8 + 4 * a);
    }
    if let Some(r) = spare {
        // slot 6n = first vertex, slot 6n+2 = base instance (32-bit uniforms u(3n), u(3n+1))
        src += &format!("iadd r{}, u{}, 0\n", r, 3 * n);
        src += &format!("iadd r{}, u{}, 0\n", r + 1, 3 * n + 1);
        src += &format!("iadd r{}, r6, 0\n", r + 2);
    }
    src += "stop\n";
    assemble(&src).unwrap()
}

fn check_draw(n: usize, hardware_compute: bool) {
    let mut dev = DeviceMemory::new();
    let attrs = attributes(&mut dev, n);
    let spare = if 8 + 4 * n + 3 <= 128 {
        Some(8 + 4 * n)
    } else {
        None
    };
    let nr_gprs = spare.map(|r| r + 3).unwrap_or(128);
    let (vertex_count, instance_count, first_vertex, base_instance) = (37u32, 3u32, 5u32, 2u32);
    // Hardware compute: an index buffer read through the input-assembly state (range 30: the last
    // seven threads read element 0).
    let indices: Vec<u16> = (0..vertex_count).map(|i| ((i * 7) % 50) as u16).collect();
    let ib = dev.alloc(2 * vertex_count as u64, 16).unwrap();
    for (i, v) in indices.iter().enumerate() {
        dev.write(ib + 2 * i as u64, &v.to_le_bytes()).unwrap();
    }
    let ia = dev.alloc(16, 16).unwrap();
    dev.write_u64(ia, ib).unwrap();
    dev.write_u32(ia + 8, 30).unwrap();
    dev.write_u32(ia + 12, vertex_count).unwrap();
    let draw = VertexDraw {
        vertex_count,
        instance_count,
        first_vertex,
        base_instance,
        draw_id: 9,
        index_buffer: None,
        hardware_compute: hardware_compute.then_some(HardwareCompute {
            ia_state: ia,
            index_size: 2,
        }),
    };
    let cfg = VertexConfig {
        main: main_shader(n, spare),
        nr_gprs,
        attributes: attrs.clone(),
        uniforms: vec![],
        abi: Default::default(),
        approximate: false,
    };
    let out = run_vertex(&cfg, &draw, &dev).unwrap();
    assert_eq!(out.len(), (vertex_count * instance_count) as usize);
    for (k, inv) in out.iter().enumerate() {
        let x = k as u32 % vertex_count;
        let instance = k as u32 / vertex_count;
        let vertex_id = if hardware_compute {
            let id = if x >= 30 { 0 } else { x };
            indices[id as usize] as u32 + first_vertex
        } else {
            first_vertex + x
        };
        assert_eq!((inv.vertex_id, inv.instance_id), (vertex_id, instance));
        assert_eq!(inv.regs[5], vertex_id, "r5 = vertex id");
        for (a, attr) in attrs.iter().enumerate() {
            for c in 0..4 {
                let mut want = expected(attr, a, vertex_id, instance, base_instance, c);
                if c == 0 {
                    want = want.wrapping_add(vertex_id);
                }
                assert_eq!(
                    inv.regs[8 + 4 * a + c],
                    want,
                    "n={n} invocation {k} attribute {a} component {c}"
                );
            }
        }
        if let Some(r) = spare {
            assert_eq!(
                inv.regs[r], first_vertex,
                "uniform slot 6n is the first vertex"
            );
            assert_eq!(
                inv.regs[r + 1],
                base_instance,
                "uniform slot 6n+2 is the base instance"
            );
            assert_eq!(inv.regs[r + 2], instance, "r6 = instance id");
        }
        for r in [0, 1, 2, 3, 4, 7] {
            assert_eq!(inv.regs[r], POISON_VALUE, "r{r} stays poisoned");
        }
    }
}

#[test]
fn vertex_1_attribute() {
    check_draw(1, false);
}

#[test]
fn vertex_5_attributes() {
    check_draw(5, false);
}

#[test]
fn vertex_16_attributes() {
    check_draw(16, false);
}

#[test]
fn vertex_30_attributes() {
    check_draw(30, false);
}

#[test]
fn vertex_hardware_compute_6n_plus_12() {
    check_draw(5, true);
    check_draw(1, true);
}

/// The main shader sees the 6n+12 layout's input-assembly pointer at slot 6n+8 and the draw id at 6n+4.
#[test]
fn vertex_hardware_compute_uniform_layout() {
    let n = 3;
    let mut dev = DeviceMemory::new();
    let attrs = attributes(&mut dev, n);
    let ia = dev.alloc(16, 16).unwrap();
    dev.write_u32(ia + 12, 4).unwrap();
    let r = 8 + 4 * n;
    let src = format!(
        "iadd r{r}, u{}, 0\niadd r{}, u{}, 0\niadd r{}l, u{}l, 0\nstop\n",
        (6 * n + 8) / 2,
        r + 1,
        (6 * n + 8) / 2 + 1,
        r + 2,
        (6 * n + 4) / 2
    );
    let cfg = VertexConfig {
        main: assemble(&src).unwrap(),
        nr_gprs: r + 3,
        attributes: attrs,
        uniforms: vec![(6 * n + 12, 7)],
        abi: Default::default(),
        approximate: false,
    };
    let draw = VertexDraw {
        vertex_count: 4,
        instance_count: 1,
        first_vertex: 0,
        base_instance: 0,
        draw_id: 0x1234,
        index_buffer: None,
        hardware_compute: Some(HardwareCompute {
            ia_state: ia,
            index_size: 0,
        }),
    };
    let out = run_vertex(&cfg, &draw, &dev).unwrap();
    for inv in &out {
        assert_eq!(inv.regs[r] as u64 | (inv.regs[r + 1] as u64) << 32, ia);
        assert_eq!(inv.regs[r + 2] & 0xFFFF, 0x1234);
    }
    // A main-shader uniform inside the reserved range is rejected.
    let bad = VertexConfig {
        uniforms: vec![(6 * n + 11, 1)],
        abi: Default::default(),
        approximate: false,
        ..cfg
    };
    assert!(matches!(
        run_vertex(&bad, &draw, &dev),
        Err(AbiError::Config { .. })
    ));
}

/// Indexed hardware vertex shader: the hardware fetched index plus the first vertex is r5.
#[test]
fn vertex_indexed_hardware_vertex_shader() {
    let mut dev = DeviceMemory::new();
    let attrs = attributes(&mut dev, 2);
    let ib = dev.alloc(64, 16).unwrap();
    for i in 0..8u32 {
        dev.write_u32(ib + 4 * i as u64, 9 - i).unwrap();
    }
    let draw = VertexDraw {
        vertex_count: 8,
        instance_count: 1,
        first_vertex: 1,
        base_instance: 0,
        draw_id: 0,
        index_buffer: Some(IndexBuffer {
            address: ib,
            index_size: 4,
            range_el: 8,
        }),
        hardware_compute: None,
    };
    let cfg = VertexConfig {
        main: main_shader(2, None),
        nr_gprs: 16,
        attributes: attrs.clone(),
        uniforms: vec![],
        abi: Default::default(),
        approximate: false,
    };
    let out = run_vertex(&cfg, &draw, &dev).unwrap();
    for (i, inv) in out.iter().enumerate() {
        let vid = 9 - i as u32 + 1;
        assert_eq!(inv.regs[5], vid);
        assert_eq!(
            inv.regs[8],
            expected(&attrs[0], 0, vid, 0, 0, 0).wrapping_add(vid)
        );
    }
}

/// Reading a poisoned register is an error naming it (README: r0-r4 and r7 are undefined).
#[test]
fn vertex_poisoned_registers_fail_visibly() {
    let mut dev = DeviceMemory::new();
    let attrs = attributes(&mut dev, 1);
    let draw = VertexDraw {
        vertex_count: 4,
        instance_count: 1,
        first_vertex: 0,
        base_instance: 0,
        draw_id: 0,
        index_buffer: None,
        hardware_compute: None,
    };
    for (src, reg) in [
        ("iadd r12, r0, 0\nstop", "r0"),
        ("iadd r12, r7, 1\nstop", "r7"),
        ("if_icmp r0l, ueq, r5, 0, 1\nstop", "r0l"),
    ] {
        let cfg = VertexConfig {
            main: assemble(src).unwrap(),
            nr_gprs: 16,
            attributes: attrs.clone(),
            uniforms: vec![],
            abi: Default::default(),
            approximate: false,
        };
        match run_vertex(&cfg, &draw, &dev) {
            Err(AbiError::Exec { source, .. }) => match source.fault {
                Fault::UndefinedRead { reg: r, .. } => assert_eq!(r, reg),
                other => panic!("{src}: {other}"),
            },
            other => panic!("{src}: {other:?}"),
        }
    }
    // Writing first makes them usable (the nesting counter initialised by the shader).
    let cfg = VertexConfig {
        main: assemble(
            "mov_imm r0l, 0\nif_icmp r0l, ult, r5, 2, 1\nmov_imm r12, 7\npop_exec r0l, 1\nstop",
        )
        .unwrap(),
        nr_gprs: 16,
        attributes: attrs,
        uniforms: vec![],
        abi: Default::default(),
        approximate: false,
    };
    let out = run_vertex(&cfg, &draw, &dev).unwrap();
    let r12: Vec<u32> = out.iter().map(|i| i.regs[12]).collect();
    assert_eq!(r12, vec![7, 7, 0, 0]);
}

/// Load-time check: the prolog would write r(8+4a+c) for every component the main shader reads; if
/// that is at or above the main shader's register count, the program is rejected before running.
#[test]
fn vertex_prolog_register_check() {
    let mut dev = DeviceMemory::new();
    let attrs = attributes(&mut dev, 30);
    let draw = VertexDraw {
        vertex_count: 1,
        instance_count: 1,
        first_vertex: 0,
        base_instance: 0,
        draw_id: 0,
        index_buffer: None,
        hardware_compute: None,
    };
    let cfg = VertexConfig {
        main: assemble("stop").unwrap(),
        nr_gprs: 127,
        attributes: attrs.clone(),
        uniforms: vec![],
        abi: Default::default(),
        approximate: false,
    };
    match run_vertex(&cfg, &draw, &dev) {
        Err(AbiError::PrologExceedsMain { reg, count, .. }) => assert_eq!((reg, count), (127, 127)),
        other => panic!("{other:?}"),
    }
    // Reading one component fewer of the last attribute fits.
    let mut attrs = attrs;
    attrs[29].components_read = 0x7;
    let cfg = VertexConfig {
        main: assemble("stop").unwrap(),
        nr_gprs: 127,
        attributes: attrs,
        uniforms: vec![],
        abi: Default::default(),
        approximate: false,
    };
    assert!(run_vertex(&cfg, &draw, &dev).is_ok());
}

/// The main shader's outputs: `st_var` stores registers to output slots, collected per invocation.
#[test]
fn vertex_outputs_through_st_var() {
    let mut dev = DeviceMemory::new();
    let attrs = attributes(&mut dev, 1);
    let draw = VertexDraw {
        vertex_count: 5,
        instance_count: 1,
        first_vertex: 2,
        base_instance: 0,
        draw_id: 0,
        index_buffer: None,
        hardware_compute: None,
    };
    let main = assemble(
        "mov_imm r12l, 3\nst_var 0, r8, 0\nst_var 0, r9, r12l\nst_var_final 0, r5, 1\nstop",
    )
    .unwrap();
    let cfg = VertexConfig {
        main,
        nr_gprs: 13,
        attributes: attrs.clone(),
        uniforms: vec![],
        abi: Default::default(),
        approximate: false,
    };
    for inv in run_vertex(&cfg, &draw, &dev).unwrap() {
        let v = inv.vertex_id;
        let want = vec![
            (0, expected(&attrs[0], 0, v, 0, 0, 0)),
            (3, expected(&attrs[0], 0, v, 0, 0, 1)),
            (1, v),
        ];
        assert_eq!(inv.varyings, want, "vertex {v}");
    }
}

/// Attribute formats: integers zero/sign-extended, f16 widened, normalized values by the GL/Vulkan
/// rules (unsigned c / (2^b - 1); signed max(c / (2^(b-1) - 1), -1)), defaults (0, 0, 0, 1).
#[test]
fn vertex_attribute_formats() {
    let mut dev = DeviceMemory::new();
    let buf = dev.alloc(64, 16).unwrap();
    // bytes: 0x00 0x7f 0x80 0xff ; halfwords: 0x3c00 (1.0) 0xc000 (-2.0) 0x8000 0x7fff
    dev.write(buf, &[0x00, 0x7f, 0x80, 0xff]).unwrap();
    dev.write(buf + 8, &[0x00, 0x3c, 0x00, 0xc0, 0x00, 0x80, 0xff, 0x7f])
        .unwrap();
    let formats: Vec<(AttribFormat, u64, [u32; 4])> = vec![
        (AttribFormat::U8(4), 0, [0, 0x7f, 0x80, 0xff]),
        (AttribFormat::S8(3), 0, [0, 0x7f, (-128i32) as u32, 1]),
        (
            AttribFormat::Unorm8(2),
            0,
            [
                0.0f32.to_bits(),
                (127.0f32 / 255.0).to_bits(),
                0,
                1.0f32.to_bits(),
            ],
        ),
        (
            AttribFormat::Snorm8(4),
            0,
            [
                0.0f32.to_bits(),
                1.0f32.to_bits(),
                (-1.0f32).to_bits(),
                (-1.0f32 / 127.0).to_bits(),
            ],
        ),
        (
            AttribFormat::F16(2),
            8,
            [1.0f32.to_bits(), (-2.0f32).to_bits(), 0, 1.0f32.to_bits()],
        ),
        (AttribFormat::U16(4), 8, [0x3c00, 0xc000, 0x8000, 0x7fff]),
        (
            AttribFormat::S16(4),
            8,
            [0x3c00, (-0x4000i32) as u32, (-0x8000i32) as u32, 0x7fff],
        ),
        (
            AttribFormat::Unorm16(1),
            12,
            [(32768.0f32 / 65535.0).to_bits(), 0, 0, 1.0f32.to_bits()],
        ),
        (
            AttribFormat::Snorm16(2),
            12,
            [(-1.0f32).to_bits(), 1.0f32.to_bits(), 0, 1.0f32.to_bits()],
        ),
    ];
    let attributes: Vec<VertexAttribute> = formats
        .iter()
        .map(|(format, off, _)| VertexAttribute {
            base: buf + off,
            stride: 0,
            format: *format,
            instanced: None,
            clamp: 0,
            components_read: 0xF,
        })
        .collect();
    let n = attributes.len();
    let cfg = VertexConfig {
        main: assemble("stop").unwrap(),
        nr_gprs: 8 + 4 * n,
        attributes,
        uniforms: vec![],
        abi: Default::default(),
        approximate: false,
    };
    let draw = VertexDraw {
        vertex_count: 1,
        instance_count: 1,
        first_vertex: 0,
        base_instance: 0,
        draw_id: 0,
        index_buffer: None,
        hardware_compute: None,
    };
    let out = run_vertex(&cfg, &draw, &dev).unwrap();
    for (a, (format, _, want)) in formats.iter().enumerate() {
        assert_eq!(&out[0].regs[8 + 4 * a..12 + 4 * a], want, "{format:?}");
    }
}

/// Current Mesa (`agx_abi.h`: `AGX_ABI_VIN_VERTEX_ID_ZERO_BASE` = half 8, i.e. r4; its README: "`r4` is
/// the zero-based vertex ID if the vertex shader is running as a hardware compute shader ... Undefined
/// in hardware vertex shaders"; `agx_nir_vs_prolog` exports the thread's grid x there). An indexed
/// hardware-compute draw: r4 = grid x, r5 = index[x] + first vertex. Under the 2023 README r4 is
/// undefined in both modes.
#[test]
fn vertex_r4_zero_based_id_per_abi_version() {
    let mut dev = DeviceMemory::new();
    let ib = dev.alloc(64, 16).unwrap();
    for i in 0..8u32 {
        dev.write_u32(ib + 4 * i as u64, 3 * i + 1).unwrap();
    }
    let ia = dev.alloc(16, 16).unwrap();
    dev.write_u64(ia, ib).unwrap();
    dev.write_u32(ia + 8, 8).unwrap();
    let draw = VertexDraw {
        vertex_count: 8,
        instance_count: 1,
        first_vertex: 100,
        base_instance: 0,
        draw_id: 0,
        index_buffer: None,
        hardware_compute: Some(HardwareCompute {
            ia_state: ia,
            index_size: 4,
        }),
    };
    let mut cfg = VertexConfig {
        main: assemble("iadd r8, r4, 0\niadd r9, r5, 0\nstop").unwrap(),
        nr_gprs: 10,
        attributes: vec![],
        uniforms: vec![],
        abi: AbiVersion::MesaCurrent,
        approximate: false,
    };
    let out = run_vertex(&cfg, &draw, &dev).unwrap();
    assert_eq!(out.len(), 8);
    for (x, inv) in out.iter().enumerate() {
        let x = x as u32;
        assert_eq!(inv.regs[8], x, "r4: zero-based id");
        assert_eq!(inv.regs[9], 3 * x + 1 + 100, "r5: index + first vertex");
    }
    let undefined_r4 = |cfg: &VertexConfig, draw: &VertexDraw| match run_vertex(cfg, draw, &dev) {
        Err(AbiError::Exec { source, .. }) => match source.fault {
            Fault::UndefinedRead { reg, .. } => assert_eq!(reg, "r4"),
            other => panic!("{other}"),
        },
        other => panic!("{other:?}"),
    };
    // Current Mesa, hardware vertex shader: r4 undefined.
    let hw_vs = VertexDraw {
        hardware_compute: None,
        ..draw.clone()
    };
    undefined_r4(&cfg, &hw_vs);
    // The 2023 README: r4 undefined in both modes.
    cfg.abi = AbiVersion::Readme2023;
    undefined_r4(&cfg, &draw);
    undefined_r4(&cfg, &hw_vs);
}

/// The prolog's uniforms for a hardware vertex shader: 6n + 5 slots in the 2023 README (draw id at
/// 6n + 4), 6n + 4 in current Mesa (`AGX_ABI_VUNI_COUNT_GL(n, false)` = base instance + 2), so slot
/// 6n + 4 is the main shader's own there.
#[test]
fn vertex_reserved_uniforms_per_abi_version() {
    let n = 2;
    let mut dev = DeviceMemory::new();
    let attrs = attributes(&mut dev, n);
    let draw = VertexDraw {
        vertex_count: 1,
        instance_count: 1,
        first_vertex: 0,
        base_instance: 0,
        draw_id: 5,
        index_buffer: None,
        hardware_compute: None,
    };
    let mut cfg = VertexConfig {
        main: assemble(&format!("iadd r0l, u{}l, 0\nstop", (6 * n + 4) / 2)).unwrap(),
        nr_gprs: 16,
        attributes: attrs,
        uniforms: vec![(6 * n + 4, 0x77)],
        abi: AbiVersion::Readme2023,
        approximate: false,
    };
    assert!(matches!(
        run_vertex(&cfg, &draw, &dev),
        Err(AbiError::Config { what }) if what.contains("reserved")
    ));
    cfg.abi = AbiVersion::MesaCurrent;
    let out = run_vertex(&cfg, &draw, &dev).unwrap();
    assert_eq!(out[0].regs[0] & 0xFFFF, 0x77);
    // Without the main shader's value the slot still holds the draw id (both sources place it there).
    cfg.uniforms.clear();
    let out = run_vertex(&cfg, &draw, &dev).unwrap();
    assert_eq!(out[0].regs[0] & 0xFFFF, 5);
}
