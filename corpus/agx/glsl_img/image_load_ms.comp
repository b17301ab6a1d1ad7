#version 450
// imageLoad from 2D multisampled images (Mesa's image_load with a sample index: texture_load
// of kind tex_2d_ms in its image-load form, on the image's multisampled TEXTURE descriptor):
// every sample of an 8x8 R32UI image of 4 samples and of a 4x4 RGBA8 one of 2 samples, and a
// sample chosen per thread. llvmpipe's image gets the same words through a fill pass of
// imageStore (tools/agx/gl_compute_ref.c: GL cannot upload multisampled data).
// groups: 2 2
// image: 0 2dms r32ui 8 8 1 samples=4 randu
// image: 1 2dms rgba8 4 4 1 samples=2 randu
// buffer: 0 ssbo zero 256
// buffer: 1 ssbo zero 64
// buffer: 2 ssbo zero 128
// compare: 2 f32
layout(local_size_x = 4, local_size_y = 4) in;
layout(binding = 0, r32ui) uniform readonly uimage2DMS ms4;
layout(binding = 1, rgba8) uniform readonly image2DMS ms2;
layout(std430, binding = 0) buffer All { uint all_samples[]; };
layout(std430, binding = 1) buffer Chosen { uint chosen[]; };
layout(std430, binding = 2) buffer Small { vec4 small[]; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = uint(p.y * 8 + p.x);
    for (int s = 0; s < 4; ++s)
        all_samples[i * 4u + uint(s)] = imageLoad(ms4, p, s).x;
    chosen[i] = imageLoad(ms4, p, (p.x + 3 * p.y) & 3).x;
    if (p.x < 4 && p.y < 4) {
        uint j = uint(p.y * 4 + p.x);
        small[j * 2u] = imageLoad(ms2, p, 0);
        small[j * 2u + 1u] = imageLoad(ms2, p, 1);
    }
}
