#version 450
// Packing and unpacking: 8- and 16-bit fields, half floats, unorm/snorm packing. unpackUnorm's
// x / 255 is rounded differently by the two compilers (a product with 1/255 or a division), so
// the one float sum is compared within the tolerance.
// groups: 1
// buffer: 0 ssbo randu 64
// buffer: 1 ssbo randf 64 -1.5 1.5
// buffer: 2 ssbo zero 384
// buffer: 3 ssbo zero 64
// compare: 3 f32
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { uint a[]; };
layout(std430, binding = 1) readonly buffer B { float b[]; };
layout(std430, binding = 2) buffer O { uint o[]; };
layout(std430, binding = 3) buffer F { float fo[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    float f = b[i];
    vec4 u = unpackUnorm4x8(x);
    vec2 h = unpackHalf2x16(x & 0x7bff7bffu);
    o[6u * i] = packUnorm4x8(u.wzyx * vec4(f));
    o[6u * i + 1u] = packSnorm4x8(vec4(f, -f, f * 0.5, u.x));
    o[6u * i + 2u] = packHalf2x16(vec2(f, h.x * f));
    o[6u * i + 3u] = packHalf2x16(h.yx);
    fo[i] = h.y + u.y;
    o[6u * i + 4u] = packUnorm2x16(vec2(f, u.z)) ^ packSnorm2x16(vec2(-f, h.x));
    o[6u * i + 5u] = ((x >> 8) & 0xffu) * ((x >> 16) & 0xffffu) + (x & 0xffu);
}
