#version 450
// texelFetch from 2D multisampled array textures (Mesa's txf_ms on an array: texture_load of kind
// tex_2d_ms_array, the sample in the low and the layer in the high half of one 32-bit
// coordinate; Mesa's txf robustness lowering reads the descriptor through the bindless table
// for the layer count): every sample of every layer of a 4x4 R32UI texture of 4 samples and 3
// layers, a sample and layer chosen per thread, and every sample of a 2-layer RGBA8 texture of
// 2 samples. llvmpipe's textures get the same words through a fill pass of imageStore
// (tools/agx/gl_compute_ref.c: GL cannot upload multisampled data).
// groups: 1
// texture: 0 2dmsarray r32ui 4 4 3 samples=4 randu
// texture: 1 2dmsarray rgba8 4 4 2 samples=2 randu
// buffer: 0 ssbo zero 192
// buffer: 1 ssbo zero 16
// buffer: 2 ssbo zero 256
// compare: 2 f32
layout(local_size_x = 4, local_size_y = 4) in;
layout(binding = 0) uniform usampler2DMSArray ms4;
layout(binding = 1) uniform sampler2DMSArray ms2;
layout(std430, binding = 0) buffer All { uint all_samples[]; };
layout(std430, binding = 1) buffer Chosen { uint chosen[]; };
layout(std430, binding = 2) buffer Small { vec4 small[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = uint(p.y * 4 + p.x);
    for (int z = 0; z < 3; ++z)
        for (int s = 0; s < 4; ++s)
            all_samples[(uint(z) * 16u + i) * 4u + uint(s)] = texelFetch(ms4, ivec3(p, z), s).x;
    chosen[i] = texelFetch(ms4, ivec3(p, (p.x + p.y) % 3), (p.x + 2 * p.y) & 3).x;
    for (int z = 0; z < 2; ++z)
        for (int s = 0; s < 2; ++s)
            small[(uint(z) * 16u + i) * 2u + uint(s)] = texelFetch(ms2, ivec3(p, z), s);
}
