//! A linked-program test shader for `wavesim_agx::gallium`'s fragment runner: the code at offset
//! 0, 16 registers, no preamble, zeroed uniforms, no textures.

use wavesim_agx::gallium::Shader;

pub fn shader(code: Vec<u8>) -> Shader {
    Shader {
        code,
        main_offset: 0,
        preamble_offset: None,
        nr_gprs: 16,
        nr_preamble_gprs: 0,
        uniforms: vec![0; 512],
        approximate: false,
        textures: vec![],
        samplers: vec![],
    }
}
