#version 450
// piglit tests/spec/arb_compute_shader/execution/basic-texelFetch.shader_test, converted by hand
// as tools/agx/piglit_compute.py converts the others: the atomic counters r, g, b, w (binding 0,
// offsets 0-12) are words 0-3 of the storage buffer at binding 15 (nir_lower_atomics_to_ssbo),
// the sampler's unit 0 is binding 1 (set 0's bindings are one namespace in SPIR-V), and piglit's
// `texture rgbw 0 (64, 64)` is the rgbw kind. Piglit's probes: every counter 1024.
// groups: 1
// buffer: 15 ssbo zero 4
// texture: 1 2d rgba8 64 64 1 rgbw 64
// probe: 15 0 1024
// probe: 15 1 1024
// probe: 15 2 1024
// probe: 15 3 1024
#define SIZE 64u
#define HALF_SIZE (SIZE / 2u)
#define RED vec3(1, 0, 0)
#define GREEN vec3(0, 1, 0)
#define BLUE vec3(0, 0, 1)
#define WHITE vec3(1, 1, 1)
layout(binding = 15, std430) buffer Counters { uint counters[4]; };
layout(binding = 1) uniform sampler2D tex;
layout(local_size_x = 1, local_size_y = 1) in;
void main()
{
    for (uint y = 0u; y < SIZE; y++) {
        for (uint x = 0u; x < SIZE; x++) {
            ivec2 coord = ivec2(x, y);
            vec3 color = texelFetch(tex, coord, 0).rgb;
            if (color == RED && x < HALF_SIZE && y < HALF_SIZE) {
                atomicAdd(counters[0], 1u);
            } else if (color == GREEN && x >= HALF_SIZE && y < HALF_SIZE) {
                atomicAdd(counters[1], 1u);
            } else if (color == BLUE && x < HALF_SIZE && y >= HALF_SIZE) {
                atomicAdd(counters[2], 1u);
            } else if (color == WHITE && x >= HALF_SIZE && y >= HALF_SIZE) {
                atomicAdd(counters[3], 1u);
            }
        }
    }
}
