#version 450
// piglit tests/spec/arb_compute_shader/execution/border-color.shader_test, converted by hand as
// piglit_basic_texelfetch.comp: the counter r is word 0 of the storage buffer at binding 15, the
// sampler's unit 0 is binding 1 with piglit's rgbw texture, wrap modes clamp to border with the
// border colour (0.1, 0.2, 0.3, 0.4). Piglit's filters (GL's defaults) are NEAREST here: at (2, 2)
// every texel of any footprint is the border. Piglit's probe: the counter 1.
// groups: 1
// buffer: 15 ssbo zero 4
// texture: 1 2d rgba8 64 64 1 rgbw 64
// sampler: 1 border 0.1 0.2 0.3 0.4
// probe: 15 0 1
layout(binding = 15, std430) buffer Counters { uint counters[4]; };
layout(binding = 1) uniform sampler2D tex;
layout(local_size_x = 1, local_size_y = 1) in;
void main()
{
    vec4 diff = abs(texture(tex, vec2(2, 2)) - vec4(0.1, 0.2, 0.3, 0.4));
    if (all(lessThan(diff, vec4(1 / 255.0))))
        atomicAdd(counters[0], 1u);
}
