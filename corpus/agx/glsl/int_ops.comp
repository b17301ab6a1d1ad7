#version 450
// Integer arithmetic: division and modulo (signed and unsigned), shifts, bitfield operations,
// bit counts and multiplications with high halves.
// groups: 2
// buffer: 0 ssbo randu 128
// buffer: 1 ssbo randu 128
// buffer: 2 ssbo zero 1024
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer A { uint a[]; };
layout(std430, binding = 1) readonly buffer B { uint b[]; };
layout(std430, binding = 2) buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i], y = b[i] | 1u;
    int sx = int(x), sy = int(y >> (i & 15u)) | 1;
    uint hi, lo;
    umulExtended(x, y, hi, lo);
    int shi, slo;
    imulExtended(sx, sy, shi, slo);
    o[8u * i + 0u] = x / (y >> (i & 31u) | 1u);
    o[8u * i + 1u] = x % (y >> 20);
    // GLSL 4.50, 5.9: % of negative operands is undefined, so its operands are made non-negative
    o[8u * i + 2u] = uint(sx / sy) ^ uint((sx & 0x7fffffff) % (sy & 0x7fffffff));
    o[8u * i + 3u] = bitfieldExtract(x, int(i & 15u), 9) + uint(bitfieldExtract(sx, 3, int(i & 7u) + 1));
    o[8u * i + 4u] = bitfieldInsert(x, y, int(i & 7u), 13) ^ bitfieldReverse(y);
    o[8u * i + 5u] = uint(bitCount(x)) | uint(findMSB(y)) << 8 | uint(findLSB(x)) << 16 | uint(findMSB(sx) & 0xff) << 24;
    o[8u * i + 6u] = hi + lo * 3u + (x >> (i & 31u)) + uint(sx >> (i & 31u));
    o[8u * i + 7u] = uint(shi) ^ uint(slo) ^ (x << (i & 31u)) ^ uint(max(sx, sy)) ^ min(x, y);
}
