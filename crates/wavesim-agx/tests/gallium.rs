//! Mesa 22.3's gallium draw setup (`wavesim_agx::gallium`): a monolithic binary with its preamble,
//! uniforms as the push ranges load them, r5/r6 preloaded, everything else poisoned.

use wavesim_agx::abi::AbiError;
use wavesim_agx::assemble;
use wavesim_agx::gallium::{run_vertex, Shader};
use wavesim_core::memory::DeviceMemory;

fn shader(main: &str, preamble: Option<&str>, nr_gprs: usize) -> Shader {
    let mut code = assemble(main).unwrap();
    let preamble_offset = preamble.map(|p| {
        let at = code.len() as u32;
        code.extend(assemble(p).unwrap());
        at
    });
    Shader {
        code,
        main_offset: 0,
        preamble_offset,
        nr_gprs,
        nr_preamble_gprs: 4,
        uniforms: vec![0; 512],
        approximate: false,
    }
}

/// The preamble runs first and its `uniform_store` (halves 8-9 = r2) reaches the main part, which
/// adds the vertex id (r5) to it and stores it to output slot 4; r6 (the instance id) goes to
/// slot 0. Expected: out4 = 0x100 + vertex id (integer add of the preamble's 0x100), out0 = instance.
#[test]
fn preamble_uniforms_and_preloaded_ids() {
    let mut s = shader(
        "iadd r8, u4, r5\nst_var 0, r8, 4\nst_var_final 0, r6, 0\nstop",
        Some("mov_imm r2, 0x100\nuniform_store 2, i16, xy, 0, r2l_r2h, 8\nstop"),
        9,
    );
    s.uniforms[0] = 0xDEAD; // a pushed half the shader does not read
    let dev = DeviceMemory::new();
    let run = run_vertex(&s, 3, 2, &dev).unwrap();
    assert_eq!(run.invocations.len(), 6);
    for (i, inv) in run.invocations.iter().enumerate() {
        assert_eq!(
            (inv.vertex_id, inv.instance_id),
            (i as u32 % 3, i as u32 / 3)
        );
        assert_eq!(
            inv.varyings,
            vec![(4, 0x100 + inv.vertex_id), (0, inv.instance_id)]
        );
    }
}

/// r0-r4 and r7 are not inputs under this driver: reading one is a typed error naming it.
#[test]
fn registers_other_than_r5_r6_are_undefined() {
    let s = shader("iadd r8, r7, r5\nst_var_final 0, r8, 0\nstop", None, 9);
    let err = run_vertex(&s, 1, 1, &DeviceMemory::new()).unwrap_err();
    assert!(matches!(err, AbiError::Exec { .. }), "{err}");
    assert!(err.to_string().contains("r7"), "{err}");
}

/// Offsets past the code and more than 128 registers are configuration errors.
#[test]
fn bad_offsets_are_errors() {
    let mut s = shader("stop", None, 8);
    s.preamble_offset = Some(64);
    assert!(matches!(
        run_vertex(&s, 1, 1, &DeviceMemory::new()),
        Err(AbiError::Config { .. })
    ));
    let mut s = shader("stop", None, 129);
    s.nr_gprs = 129;
    assert!(matches!(
        run_vertex(&s, 1, 1, &DeviceMemory::new()),
        Err(AbiError::Config { .. })
    ));
}
