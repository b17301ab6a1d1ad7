#version 450
#extension GL_ARB_gpu_shader_int64 : require
// 64-bit integers: products, shifts across the halves, comparisons, division by a constant.
// groups: 1
// buffer: 0 ssbo randu 128
// buffer: 1 ssbo zero 512
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint64_t v[]; };
layout(std430, binding = 1) buffer Out { uint64_t o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint64_t x = v[i], y = v[(i + 17u) & 63u];
    int64_t s = int64_t(x);
    o[4u * i] = x * y + (x >> (i & 63u));
    o[4u * i + 1u] = (y << (i & 31u)) ^ uint64_t(s >> 13);
    o[4u * i + 2u] = x < y ? x - y : y / 1000003ul;
    o[4u * i + 3u] = uint64_t(s < int64_t(y) ? 1 : 0) | (x % 97ul) << 8;
}
