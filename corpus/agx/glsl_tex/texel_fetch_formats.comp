#version 450
// texelFetch from textures of several formats (R32UI, RG16I, RGBA16F, RGBA32F, RG32F, R16UI):
// each texel's components as raw bits.
// groups: 1
// buffer: 0 ssbo zero 1024
// texture: 1 2d r32ui 4 4 1 randu
// texture: 2 2d rg16i 4 4 1 randu
// texture: 3 2d rgba16f 4 4 1 randh -1000 1000
// texture: 4 2d rgba32f 4 4 1 randf -1e6 1e6
// texture: 5 2d rg32f 4 4 1 randf -2 2
// texture: 6 2d r16ui 4 4 1 randu
layout(local_size_x = 4, local_size_y = 4) in;
layout(binding = 0, std430) buffer Out { uint o[]; };
layout(binding = 1) uniform usampler2D a;
layout(binding = 2) uniform isampler2D b;
layout(binding = 3) uniform sampler2D c;
layout(binding = 4) uniform sampler2D d;
layout(binding = 5) uniform sampler2D e;
layout(binding = 6) uniform usampler2D f;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = uint(p.y * 4 + p.x) * 16u;
    uvec4 va = texelFetch(a, p, 0);
    ivec4 vb = texelFetch(b, p, 0);
    vec4 vc = texelFetch(c, p, 0);
    vec4 vd = texelFetch(d, p, 0);
    vec4 ve = texelFetch(e, p, 0);
    uvec4 vf = texelFetch(f, p, 0);
    o[i + 0u] = va.x; o[i + 1u] = va.w;
    o[i + 2u] = uint(vb.x); o[i + 3u] = uint(vb.y); o[i + 4u] = uint(vb.z);
    o[i + 5u] = floatBitsToUint(vc.x); o[i + 6u] = floatBitsToUint(vc.y);
    o[i + 7u] = floatBitsToUint(vc.z); o[i + 8u] = floatBitsToUint(vc.w);
    o[i + 9u] = floatBitsToUint(vd.x); o[i + 10u] = floatBitsToUint(vd.w);
    o[i + 11u] = floatBitsToUint(ve.x); o[i + 12u] = floatBitsToUint(ve.y);
    o[i + 13u] = floatBitsToUint(ve.w);
    o[i + 14u] = vf.x; o[i + 15u] = vf.w;
}
