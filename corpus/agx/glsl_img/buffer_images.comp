#version 450
// Buffer textures and images (the driver binds them as linear 2D textures 16384 texels wide with
// the texel count in a software field, reached through the bindless table): texelFetch from an
// R32F samplerBuffer and an RGBA8UI one, imageLoad from an R32UI imageBuffer, imageStore to an
// RGBA32F imageBuffer and imageAtomicAdd on an R32UI imageBuffer.
// groups: 2
// buffer: 0 ssbo zero 512
// texture: 1 buffer r32f 100 1 1 randf -10 10
// texture: 2 buffer rgba8ui 70 1 1 randu
// image: 1 buffer r32ui 128 1 1 randu
// image: 2 buffer rgba32f 128 1 1 zero
// image: 3 buffer r32ui 16 1 1 zero
layout(local_size_x = 64) in;
layout(binding = 0, std430) buffer Out { uint o[]; };
layout(binding = 1) uniform samplerBuffer tf;
layout(binding = 2) uniform usamplerBuffer tu;
layout(binding = 1, r32ui) uniform readonly uimageBuffer ia;
layout(binding = 2, rgba32f) uniform writeonly imageBuffer ib;
layout(binding = 3, r32ui) uniform uimageBuffer ic;
void main() {
    int i = int(gl_GlobalInvocationID.x);
    o[i] = floatBitsToUint(texelFetch(tf, i % 100).r);
    uvec4 u = texelFetch(tu, (i * 7) % 70);
    o[128 + i] = u.x | u.y << 8 | u.z << 16 | u.w << 24;
    o[256 + i] = imageLoad(ia, 127 - i).x;
    // -0.5 * float(i + 1), not -0.5 * float(i): AGX's fmul is fma(a, b, +0.0) (applegpu), so
    // -0.5 * 0 is +0 there and -0 in llvmpipe
    imageStore(ib, i, vec4(float(i), -0.5 * float(i + 1), 3.0, float(i & 7)));
    o[384 + i] = imageAtomicAdd(ic, i & 15, uint(i)) & 0u;
}
