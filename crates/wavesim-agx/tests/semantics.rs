//! Hand-written checks of the semantics applegpu does not emulate; each expected value follows from the
//! rule cited in the executor (exec/*.rs) for that instruction, not from what the code prints.

use wavesim_agx::asm::assemble;
use wavesim_agx::exec::{run, Memories, Program, Stop, WaveState, SIMD_WIDTH};
use wavesim_core::memory::DeviceMemory;

/// Run `src` (ending in `stop`) on one group whose r1..r3 hold `init(lane)`; exec from `exec`.
fn run_src(src: &str, exec: u32, init: impl Fn(usize) -> [u32; 3]) -> WaveState {
    let program = Program::new(assemble(src).unwrap());
    let mut w = WaveState::new(16);
    for lane in 0..SIMD_WIDTH {
        let v = init(lane);
        for (i, x) in v.iter().enumerate() {
            w.set_reg32(1 + i, lane, *x);
        }
    }
    w.exec = exec;
    let dev = DeviceMemory::new();
    let mut tg = vec![];
    let mut mem = Memories {
        device: &dev,
        threadgroup: &mut tg,
    };
    assert_eq!(run(&mut w, &program, &mut mem, 10_000).unwrap(), Stop::End);
    w
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

#[test]
fn convert_rounds_by_mode_and_saturates() {
    // int -> f32: 16777217 and 16777219 are not representable; rte picks the even neighbour, rtz truncates.
    let w = run_src(
        "convert u32_to_f, r4, r1, rte\nconvert u32_to_f, r5, r1, rtz\nconvert u32_to_f, r6, r2, rte\nconvert u32_to_f, r7, r2, rtz\nconvert s32_to_f, r8, r3, rte\nstop",
        1,
        |_| [16_777_217, 16_777_219, (-5i32) as u32],
    );
    assert_eq!(w.reg32(4, 0), f(16_777_216.0));
    assert_eq!(w.reg32(5, 0), f(16_777_216.0));
    assert_eq!(w.reg32(6, 0), f(16_777_220.0));
    assert_eq!(w.reg32(7, 0), f(16_777_218.0));
    assert_eq!(w.reg32(8, 0), f(-5.0));
    // float -> int: rte / rtz rounding, saturation to the range, NaN -> 0.
    let w = run_src(
        "convert f_to_s32, r4, r1, rte\nconvert f_to_s32, r5, r1, rtz\nconvert f_to_s32, r6, r2, rtz\nconvert f_to_u32, r7, r3, rtz\nconvert f_to_u32, r8, r1, rtz\nstop",
        1,
        |_| [f(-2.5), f(3e9), f32::NAN.to_bits()],
    );
    assert_eq!(
        w.reg32(4, 0),
        (-2i32) as u32,
        "rte: -2.5 -> -2 (ties to even)"
    );
    assert_eq!(w.reg32(5, 0), (-2i32) as u32, "rtz: -2.5 -> -2");
    assert_eq!(w.reg32(6, 0), i32::MAX as u32, "saturates");
    assert_eq!(w.reg32(7, 0), 0, "NaN -> 0");
    assert_eq!(w.reg32(8, 0), 0, "negative to unsigned saturates at 0");
    // 16-bit destination: f16 (65535 is above f16's largest finite value 65504: rte -> inf, rtz -> 65504)
    let w = run_src(
        "convert u32_to_f, r4l, r1, rte\nconvert u32_to_f, r4h, r1, rtz\nstop",
        1,
        |_| [65535, 0, 0],
    );
    assert_eq!(w.half(8, 0), 0x7C00);
    assert_eq!(w.half(9, 0), 0x7BFF);
}

#[test]
fn nan_losing_float_selects_implement_fmin_fmax() {
    // fcmpsel ltn A, B, X=A, Y=B: true when A < B, or when only B is NaN -> the non-NaN operand.
    let src = "fcmpsel ltn, r4, r1, r2, r1, r2\nfcmpsel gtn, r5, r1, r2, r1, r2\nstop";
    let nan = f32::NAN.to_bits();
    let w = run_src(src, 0b111, |lane| match lane {
        0 => [f(1.0), f(2.0), 0],
        1 => [f(3.0), nan, 0],
        _ => [nan, f(4.0), 0],
    });
    assert_eq!([w.reg32(4, 0), w.reg32(5, 0)], [f(1.0), f(2.0)]);
    assert_eq!([w.reg32(4, 1), w.reg32(5, 1)], [f(3.0), f(3.0)]);
    assert_eq!([w.reg32(4, 2), w.reg32(5, 2)], [f(4.0), f(4.0)]);
}

#[test]
fn unary_float_ops_round_to_the_destination() {
    let w = run_src("floor r4, r1\nceil r5, r1\ntrunc r6, r2\nrint r7, r3\nrcp r8, r3\nrsqrt r9, r3\nlog2 r10, r3\nexp2 r11, r2\nstop", 1, |_| {
        [f(-1.5), f(-2.75), f(2.5)]
    });
    assert_eq!(w.reg32(4, 0), f(-2.0));
    assert_eq!(w.reg32(5, 0), f(-1.0));
    assert_eq!(w.reg32(6, 0), f(-2.0));
    assert_eq!(w.reg32(7, 0), f(2.0), "rint: ties to even");
    assert_eq!(w.reg32(8, 0), f(0.4), "1/2.5 correctly rounded");
    assert_eq!(w.reg32(9, 0), ((1.0f64 / 2.5f64.sqrt()) as f32).to_bits());
    assert_eq!(w.reg32(10, 0), (2.5f64.log2() as f32).to_bits());
    assert_eq!(w.reg32(11, 0), ((-2.75f64).exp2() as f32).to_bits());
}

#[test]
fn reductions_cover_active_threads_and_prefixes_are_exclusive() {
    let exec = 0xF0F0_F0F5u32;
    let w = run_src(
        "simd_iadd r4, r1\nsimd_prefix_iadd r5, r1\nquad_iadd r6, r1\nsimd_max.s r7, r2\nsimd_min.u r8, r2\nstop",
        exec,
        |lane| [lane as u32 + 1, (lane as i32 - 16) as u32, 0],
    );
    let active: Vec<usize> = (0..32).filter(|l| exec >> l & 1 == 1).collect();
    let total: u32 = active.iter().map(|&l| l as u32 + 1).sum();
    let max_s = active.iter().map(|&l| l as i32 - 16).max().unwrap() as u32;
    let min_u = active
        .iter()
        .map(|&l| (l as i32 - 16) as u32)
        .min()
        .unwrap();
    for &l in &active {
        assert_eq!(w.reg32(4, l), total);
        let before: u32 = active
            .iter()
            .filter(|&&k| k < l)
            .map(|&k| k as u32 + 1)
            .sum();
        assert_eq!(w.reg32(5, l), before, "exclusive prefix at {l}");
        let quad: u32 = active
            .iter()
            .filter(|&&k| k / 4 == l / 4)
            .map(|&k| k as u32 + 1)
            .sum();
        assert_eq!(w.reg32(6, l), quad);
        assert_eq!(w.reg32(7, l), max_s);
        assert_eq!(w.reg32(8, l), min_u);
    }
    // inactive threads keep their registers
    assert_eq!(w.reg32(4, 1), 0);
}

#[test]
fn interleave_call_return_and_exec_branches() {
    // intl: bit i of A to bit 2i, bit i of B to bit 2i+1
    let w = run_src("intl r4, r1, r2\nstop", 1, |_| [0b1011, 0b0110, 0]);
    assert_eq!(w.reg32(4, 0), 0b01_10_11_01);
    // call writes r1 = return address in active threads and branches; ret goes back.
    let src = "call pc+14\nmov_imm r6, 7\nstop\nmov_imm r5, 9\nret r1";
    let w = run_src(src, 0b11, |_| [0, 0, 0]);
    assert_eq!((w.reg32(1, 0), w.reg32(5, 0), w.reg32(6, 0)), (6, 9, 7));
    // jmp_exec_none: taken when no thread is active (after if_icmp fails everywhere)
    let src = "mov_imm r0l, 0\nif_icmp r0l, ugt, r1, 5, 1\njmp_exec_none pc+12\nmov_imm r7, 1\npop_exec r0l, 1\nmov_imm r8, 2\nstop";
    let w = run_src(src, u32::MAX, |_| [3, 0, 0]);
    assert_eq!(
        (w.reg32(7, 0), w.reg32(8, 0)),
        (0, 2),
        "the body was skipped, the exit ran"
    );
}

/// An operand in a reserved source encoding: applegpu's disassembler prints a `TODO: 1100` line and
/// `None` for it (the text is kept); executing the instruction is a typed error whenever the operand
/// would be read, and otherwise follows the rule of the form (here `else_icmp`: enabled threads
/// become disabled at level n = 3 without evaluating the comparison, applegpu's pseudocode).
#[test]
fn reserved_operand_encoding_prints_as_applegpu_and_never_executes_silently() {
    use wavesim_agx::decode;
    use wavesim_agx::exec::Fault;
    let code = vec![0xd2, 0x5a, 0x05, 0xb3, 0x24, 0x00];
    let d = decode(&code).unwrap();
    assert_eq!(d.text(0), "else_icmp        r0l.cache, ugt, None, r5, 3");
    assert_eq!(d.notes, vec!["TODO: 1100".to_string()]);
    let listing = wavesim_agx::disassemble_raw(&code, 0).unwrap();
    assert!(listing.starts_with("TODO: 1100\n"), "{listing}");

    let program = Program::new(code.clone());
    let dev = DeviceMemory::new();
    // Threads disabled at the innermost level (r0l = 1) evaluate the comparison: typed error.
    let mut w = WaveState::new(8);
    for lane in 0..SIMD_WIDTH {
        w.set_half(0, lane, 1);
    }
    w.exec = 0;
    let mut tg = vec![];
    let mut mem = Memories {
        device: &dev,
        threadgroup: &mut tg,
    };
    let err = run(&mut w, &program, &mut mem, 1).unwrap_err();
    assert!(
        matches!(&err.fault, Fault::UnsupportedForm { what } if what.contains("reserved encoding")),
        "{err}"
    );
    // All threads enabled: none evaluates it; each becomes disabled at level 3.
    let mut w = WaveState::new(8);
    let r = run(&mut w, &program, &mut mem, 1).unwrap();
    assert_eq!(r, Stop::Quantum);
    assert_eq!(w.exec, 0);
    assert!((0..SIMD_WIDTH).all(|l| w.half(0, l) == 3));
}

/// `uniform_store` (applegpu: R to uniform halves from offset O, in 16-bit units; Mesa emits only
/// i16, unk = 2, b = 0): a value common to the active threads lands in the uniforms; differing values
/// and other formats are typed errors; with no active thread nothing is stored.
#[test]
fn uniform_store_writes_uniform_halves() {
    use wavesim_agx::exec::Fault;
    let dev = DeviceMemory::new();
    let mut tg = vec![];
    let mut mem = Memories {
        device: &dev,
        threadgroup: &mut tg,
    };
    let code = assemble("uniform_store 2, i16, xy, 0, r2l_r2h, 12").unwrap();
    let program = Program::new(code.clone());
    assert_eq!(
        wavesim_agx::decode(&code).unwrap().text(0),
        "uniform_store    2, i16, xy, 0, r2l_r2h, 12"
    );
    let mut w = WaveState::new(8);
    for lane in 0..SIMD_WIDTH {
        w.set_reg32(2, lane, 0xCAFE_F00D);
    }
    run(&mut w, &program, &mut mem, 1).unwrap();
    assert_eq!(&w.uniforms[12..14], &[0xF00D, 0xCAFE]);
    assert_eq!(w.uniform32(6), 0xCAFE_F00D);

    w.set_reg32(2, 5, 1);
    w.pc = 0;
    let err = run(&mut w, &program, &mut mem, 1).unwrap_err();
    assert!(matches!(err.fault, Fault::UnsupportedForm { .. }), "{err}");
    w.exec = 0;
    w.pc = 0;
    w.uniforms[12] = 7;
    run(&mut w, &program, &mut mem, 1).unwrap();
    assert_eq!(w.uniforms[12], 7);

    let code = assemble("uniform_store 2, i32, x, 0, r2l, 12").unwrap();
    let mut w = WaveState::new(8);
    let err = run(&mut w, &Program::new(code), &mut mem, 1).unwrap_err();
    assert!(
        matches!(&err.fault, Fault::UnsupportedForm { what } if what.contains("F = 2")),
        "{err}"
    );
}
