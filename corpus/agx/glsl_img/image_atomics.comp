#version 450
// Image atomics on R32UI and R32I images (the driver lowers them to memory atomics at the
// texel's address, read from the descriptor): every operation on a texel of its own with the
// returned old value kept, and a contended add whose final value is order-independent.
// groups: 1
// buffer: 0 ssbo zero 640
// image: 1 2d r32ui 8 8 1 randu
// image: 2 2d r32i 8 8 1 randu
// image: 3 2d r32ui 4 4 1 zero
layout(local_size_x = 64) in;
layout(binding = 0, std430) buffer Out { uint o[]; };
layout(binding = 1, r32ui) uniform uimage2D u;
layout(binding = 2, r32i) uniform iimage2D s;
layout(binding = 3, r32ui) uniform uimage2D c;
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec2 p = ivec2(i & 7u, i >> 3);
    uint k = i * 0x9E3779B9u;
    switch (i % 8u) {
    case 0u: o[i] = imageAtomicAdd(u, p, k); break;
    case 1u: o[i] = imageAtomicMin(u, p, k); break;
    case 2u: o[i] = imageAtomicMax(u, p, k); break;
    case 3u: o[i] = imageAtomicAnd(u, p, k); break;
    case 4u: o[i] = imageAtomicOr(u, p, k); break;
    case 5u: o[i] = imageAtomicXor(u, p, k); break;
    case 6u: o[i] = imageAtomicExchange(u, p, k); break;
    default: o[i] = imageAtomicCompSwap(u, p, imageLoad(u, p).x, k); break;
    }
    int ks = int(k);
    switch (i % 4u) {
    case 0u: o[64u + i] = uint(imageAtomicMin(s, p, ks)); break;
    case 1u: o[64u + i] = uint(imageAtomicMax(s, p, ks)); break;
    case 2u: o[64u + i] = uint(imageAtomicAdd(s, p, -ks)); break;
    default: o[64u + i] = uint(imageAtomicCompSwap(s, p, 0, ks)); break;
    }
    imageAtomicAdd(c, ivec2(i & 3u, 0), i + 1u);
    imageAtomicMax(c, ivec2(i & 3u, 1), k);
}
