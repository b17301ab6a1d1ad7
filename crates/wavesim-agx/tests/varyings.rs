//! Fragment varying reads (`iter`, `iterproj`, `ldcf`) and `no_var`, encoded as Mesa's `agx_pack.c`
//! packs them. Expected values follow the coefficient-register rule of Mesa's
//! `agx_nir_lower_interpolation.c`: a register holds a plane <A, B, C> dotted with <x, y, 1>, x and y
//! relative to the 32x32 tile, pixel centres at +0.5; perspective divides by the 1/W plane. The
//! planes use dyadic values so every product and sum is exact in f32 and the expected value is the
//! formula itself, computed here independently (only the perspective quotient rounds, once).

use wavesim_agx::abi::{run_fragment, ColourRegs, FragmentConfig};
use wavesim_agx::asm::assemble;
use wavesim_agx::exec::{
    default_sample_positions, run, Fault, Memories, Program, Stop, WaveState, SIMD_WIDTH,
};
use wavesim_agx::runner::{run as run_job, RunConfig};
use wavesim_core::memory::DeviceMemory;

#[derive(Clone, Copy, PartialEq)]
enum Op {
    Iter,
    IterProj,
    Ldcf,
}

/// Mesa's `agx_pack.c` (case AGX_OPCODE_ITER/ITERPROJ/LDCF), 8-byte form: D is the ALU destination
/// (register in 16-bit halves << 2, bit 1 = 32-bit), `channels & 3` at bit 30.
fn pack(
    op: Op,
    dst_half: u64,
    wide: bool,
    cf_i: u64,
    cf_j: u64,
    channels: u64,
    interp: u64,
) -> Vec<u8> {
    let d = dst_half << 2 | (wide as u64) << 1;
    let raw: u64 = 0x21
        | if op == Op::Ldcf { 1 << 7 } else { 0 }
        | if op == Op::IterProj { 1 << 6 } else { 0 }
        | (d & 0xFF) << 7
        | 1 << 15
        | (cf_i & 63) << 16
        | (cf_j & 63) << 24
        | (channels & 3) << 30
        | interp << 48
        | (d >> 8) << 56
        | (cf_i >> 6) << 58
        | (cf_j >> 6) << 60;
    raw.to_le_bytes().to_vec()
}

const STOP: [u8; 2] = [0x88, 0x00];

/// One group whose threads sit at pixels (x0 + lane % 8, y0 + lane / 8).
fn group(coefficients: Vec<[f32; 3]>, x0: u32, y0: u32) -> WaveState {
    let mut w = WaveState::new(16);
    w.special
        .insert(80, std::array::from_fn(|l| x0 + l as u32 % 8));
    w.special
        .insert(81, std::array::from_fn(|l| y0 + l as u32 / 8));
    w.coefficients = coefficients;
    w
}

fn exec(w: &mut WaveState, code: Vec<u8>) -> Result<Stop, Fault> {
    let dev = DeviceMemory::new();
    let mut tg = vec![];
    let mut mem = Memories {
        device: &dev,
        threadgroup: &mut tg,
    };
    run(w, &Program::new(code), &mut mem, 1000).map_err(|e| e.fault)
}

/// A(x + 0.5) + B(y + 0.5) + C with tile-relative x, y: exact for the dyadic planes used here.
fn plane(p: [f32; 3], x: u32, y: u32) -> f64 {
    let (x, y) = (f64::from(x % 32) + 0.5, f64::from(y % 32) + 0.5);
    f64::from(p[0]) * x + f64::from(p[1]) * y + f64::from(p[2])
}

const PLANES: [[f32; 3]; 5] = [
    [0.125, 0.25, 1.0],
    [-0.5, 0.0625, 3.0],
    [0.0, 0.0, -2.5],
    [1.5, -0.75, 8.0],
    // 1/W: positive over the tile
    [0.03125, 0.015625, 0.5],
];

#[test]
fn iter_evaluates_consecutive_planes_at_pixel_centres() {
    // iter r4_r5_r6, cf0 (3 channels, centre), 32-bit
    let mut code = pack(Op::Iter, 8, true, 0, 0, 3, 0);
    code.extend(STOP);
    for (x0, y0) in [(0, 0), (8, 12), (24, 28)] {
        let mut w = group(PLANES.to_vec(), x0, y0);
        assert_eq!(exec(&mut w, code.clone()).unwrap(), Stop::End);
        for lane in 0..SIMD_WIDTH {
            let (x, y) = (x0 + lane as u32 % 8, y0 + lane as u32 / 8);
            for (c, p) in PLANES.iter().take(3).enumerate() {
                let got = f32::from_bits(w.reg32(4 + c, lane));
                assert_eq!(f64::from(got), plane(*p, x, y), "cf{c} at ({x},{y})");
            }
        }
    }
    // `count` = 0 means four channels; centroid is the centre for fully covered pixels.
    let mut code = pack(Op::Iter, 8, true, 1, 0, 4, 2);
    code.extend(STOP);
    let mut w = group(PLANES.to_vec(), 16, 4);
    exec(&mut w, code).unwrap();
    for c in 0..4 {
        let (x, y) = (16 + 3, 4 + 2);
        let lane = 2 * 8 + 3;
        assert_eq!(
            f64::from(f32::from_bits(w.reg32(4 + c, lane))),
            plane(PLANES[1 + c], x, y)
        );
    }
}

#[test]
fn iter_into_16_bit_registers_rounds_to_half() {
    // iter r10l_r10h, cf1 (2 channels), 16-bit: f16 of the plane value (exact here: small dyadics)
    let mut code = pack(Op::Iter, 20, false, 1, 0, 2, 0);
    code.extend(STOP);
    let mut w = group(PLANES.to_vec(), 0, 0);
    exec(&mut w, code).unwrap();
    for lane in 0..SIMD_WIDTH {
        let (x, y) = (lane as u32 % 8, lane as u32 / 8);
        for c in 0..2 {
            let got = half::f16::from_bits(w.half(20 + c, lane)).to_f64();
            assert_eq!(got, plane(PLANES[1 + c], x, y));
        }
    }
}

#[test]
fn iterproj_divides_by_the_w_plane() {
    // iterproj r7, cf3, cf4
    let mut code = pack(Op::IterProj, 14, true, 3, 4, 1, 0);
    code.extend(STOP);
    let mut w = group(PLANES.to_vec(), 8, 0);
    exec(&mut w, code).unwrap();
    for lane in 0..SIMD_WIDTH {
        let (x, y) = (8 + lane as u32 % 8, lane as u32 / 8);
        // numerator and denominator are exact in f32; the quotient is rounded once
        let want = plane(PLANES[3], x, y) as f32 / plane(PLANES[4], x, y) as f32;
        assert_eq!(f32::from_bits(w.reg32(7, lane)), want, "({x},{y})");
    }
}

#[test]
fn ldcf_loads_the_plane_and_flat_shading_takes_c() {
    // ldcf r8_r9_r10, cf2
    let mut code = pack(Op::Ldcf, 16, true, 2, 0, 1, 0);
    code.extend(STOP);
    let mut w = group(PLANES.to_vec(), 0, 0);
    exec(&mut w, code).unwrap();
    for lane in 0..SIMD_WIDTH {
        let got: Vec<f32> = (8..11).map(|r| f32::from_bits(w.reg32(r, lane))).collect();
        assert_eq!(got, PLANES[2].to_vec());
    }
}

#[test]
fn varying_reads_refuse_what_has_no_rule() {
    let bad = |code: Vec<u8>, coefficients: Vec<[f32; 3]>, needle: &str| {
        let mut code = code;
        code.extend(STOP);
        let mut w = group(coefficients, 0, 0);
        match exec(&mut w, code) {
            Err(Fault::UnsupportedForm { what }) => assert!(what.contains(needle), "{what}"),
            other => panic!("{other:?}"),
        }
    };
    // a sample with no position (group() provides none)
    bad(
        pack(Op::Iter, 8, true, 0, 0, 1, 1),
        PLANES.to_vec(),
        "sample 0 of 0",
    );
    // a coefficient register the job does not give
    bad(
        pack(Op::Iter, 8, true, 4, 0, 2, 0),
        PLANES.to_vec(),
        "cf5 is not provided",
    );
    bad(
        pack(Op::Iter, 8, true, 0, 0, 1, 0),
        vec![],
        "cf0 is not provided",
    );
    // ldcf into 16-bit registers
    bad(
        pack(Op::Ldcf, 16, false, 0, 0, 1, 0),
        PLANES.to_vec(),
        "ldcf of 3 16-bit",
    );
    // the kill bit (52), which Mesa never sets
    let mut k = pack(Op::Iter, 8, true, 0, 0, 1, 0);
    k[6] |= 1 << 4;
    bad(k, PLANES.to_vec(), "kill = 1");
}

#[test]
fn no_var_is_mesas_word_only_and_forbids_st_var() {
    let mut w = WaveState::new(8);
    let mut code = 0x8000_0051u32.to_le_bytes().to_vec();
    code.extend(STOP);
    exec(&mut w, code.clone()).unwrap();
    assert!(w.no_varyings);
    // st_var after it
    let mut w = WaveState::new(8);
    let mut with_store = 0x8000_0051u32.to_le_bytes().to_vec();
    with_store.extend(assemble("st_var r1, 0\nstop").unwrap());
    match exec(&mut w, with_store) {
        Err(Fault::UnsupportedForm { what }) => assert!(what.contains("no_var"), "{what}"),
        other => panic!("{other:?}"),
    }
    // the same row with u = 0 has no public meaning
    let mut w = WaveState::new(8);
    let mut other = 0x0000_0051u32.to_le_bytes().to_vec();
    other.extend(STOP);
    assert!(matches!(
        exec(&mut w, other),
        Err(Fault::UnsupportedForm { .. })
    ));
}

/// The fragment runner moves C to each 32x32 tile's corner, so `iter` gives A(x+0.5)+B(y+0.5)+C in
/// framebuffer pixels across tiles (a 40x6 framebuffer spans two tiles), and `ldcf` gives the tile's
/// C. Render target 0 = iter of cf0..cf2 plus iterproj cf3/cf4; render target 1 = ldcf cf1 and 1.0.
#[test]
fn fragment_runner_coefficients_across_tiles() {
    let mut main = pack(Op::Iter, 8, true, 0, 0, 3, 0);
    main.extend(pack(Op::IterProj, 14, true, 3, 4, 1, 0));
    main.extend(pack(Op::Ldcf, 16, true, 1, 0, 1, 0));
    main.extend(assemble(&format!("mov_imm r11, {}\nstop", 1.0f32.to_bits())).unwrap());
    let (width, height) = (40, 6);
    let cfg = FragmentConfig {
        render_targets: vec![ColourRegs::F32, ColourRegs::F32],
        coefficients: PLANES.to_vec(),
        ..FragmentConfig::new(main, 12, width, height)
    };
    let r = run_fragment(&cfg, &mut DeviceMemory::new()).unwrap();
    // framebuffer-pixel plane (no tile wrap)
    let fb = |p: [f32; 3], x: u32, y: u32| {
        f64::from(p[0]) * (f64::from(x) + 0.5)
            + f64::from(p[1]) * (f64::from(y) + 0.5)
            + f64::from(p[2])
    };
    for y in 0..height {
        for x in 0..width {
            let px = r.colour[0][(y * width + x) as usize];
            for c in 0..3 {
                assert_eq!(f64::from(px[c]), fb(PLANES[c], x, y), "cf{c} ({x},{y})");
            }
            // iterproj evaluates tile-relative with C moved, which for these planes is exact too
            let want = fb(PLANES[3], x, y) as f32 / fb(PLANES[4], x, y) as f32;
            assert_eq!(px[3], want, "iterproj ({x},{y})");
            let tile_c = PLANES[1][2] + PLANES[1][0] * (x / 32 * 32) as f32;
            assert_eq!(
                r.colour[1][(y * width + x) as usize],
                [PLANES[1][0], PLANES[1][1], tile_c, 1.0],
                "ldcf ({x},{y})"
            );
        }
    }
}

/// `[fragment] coefficients` in a job file.
#[test]
fn job_file_coefficients() {
    let mut main = pack(Op::Iter, 8, true, 0, 0, 4, 0);
    main.extend(STOP);
    let toml = "kind = \"fragment\"\nnr_gprs = 8\n[fragment]\nwidth = 2\nheight = 2\nrender_targets = [\"f32\"]\ncoefficients = [[0.5, 0.0, 0.0], [0.0, 0.5, 0.0], [0.0, 0.0, 0.25], [0.0, 0.0, 1.0]]\n";
    let r = run_job(&RunConfig::from_toml(toml).unwrap(), Some(&main)).unwrap();
    // pixel (0, 0): (0.5 * 0.5, 0.5 * 0.5, 0.25, 1)
    assert!(
        r.text.contains("rt0 pixel(0,0) = 0.25 0.25 0.25 1"),
        "{}",
        r.text
    );
}

/// Sample interpolation (Mesa's `agx_pack.c`: interpolation 1 with the sample index immediate in
/// bits 32-39, 3 with it in a 16-bit register) at the driver's standard positions
/// (`agx_default_sample_positions`: 4 samples 0xeaa26e26, x in the low nibble of byte n, y in the
/// high one, in 1/16 pixel).
#[test]
fn sample_interpolation_at_the_standard_positions() {
    let four = default_sample_positions(4).unwrap();
    assert_eq!(
        four,
        vec![
            (0.375, 0.125),
            (0.875, 0.375),
            (0.125, 0.625),
            (0.625, 0.875)
        ]
    );
    assert_eq!(default_sample_positions(1).unwrap(), vec![(0.5, 0.5)]);
    assert_eq!(
        default_sample_positions(2).unwrap(),
        vec![(0.75, 0.75), (0.25, 0.25)]
    );
    assert_eq!(default_sample_positions(8), None);
    let value = |p: [f32; 3], x: u32, y: u32, (dx, dy): (f32, f32)| {
        f64::from(p[0]) * (f64::from(x % 32) + f64::from(dx))
            + f64::from(p[1]) * (f64::from(y % 32) + f64::from(dy))
            + f64::from(p[2])
    };
    // immediate sample 2: iter r4, cf0, sample 2
    let mut code = pack(Op::Iter, 8, true, 0, 0, 1, 1);
    code[4] = 2;
    code.extend(STOP);
    let mut w = group(PLANES.to_vec(), 8, 4);
    w.sample_positions = four.clone();
    exec(&mut w, code).unwrap();
    for lane in 0..SIMD_WIDTH {
        let (x, y) = (8 + lane as u32 % 8, 4 + lane as u32 / 8);
        let got = f64::from(f32::from_bits(w.reg32(4, lane)));
        assert_eq!(got, value(PLANES[0], x, y, four[2]), "({x},{y})");
    }
    // the index in r6l (half 12), thread t shading sample t % 4
    let mut code = pack(Op::Iter, 8, true, 1, 0, 1, 3);
    code[4] = 12;
    code.extend(STOP);
    let mut w = group(PLANES.to_vec(), 0, 0);
    w.sample_positions = four.clone();
    for lane in 0..SIMD_WIDTH {
        w.set_half(12, lane, (lane % 4) as u16);
    }
    exec(&mut w, code.clone()).unwrap();
    for lane in 0..SIMD_WIDTH {
        let (x, y) = (lane as u32 % 8, lane as u32 / 8);
        let got = f64::from(f32::from_bits(w.reg32(4, lane)));
        assert_eq!(got, value(PLANES[1], x, y, four[lane % 4]), "thread {lane}");
    }
    // with 2 samples, index 2 has no position
    let mut w = group(PLANES.to_vec(), 0, 0);
    w.sample_positions = default_sample_positions(2).unwrap();
    for lane in 0..SIMD_WIDTH {
        w.set_half(12, lane, (lane % 4) as u16);
    }
    match exec(&mut w, code) {
        Err(Fault::UnsupportedForm { what }) => assert!(what.contains("sample 2 of 2"), "{what}"),
        other => panic!("{other:?}"),
    }
}
