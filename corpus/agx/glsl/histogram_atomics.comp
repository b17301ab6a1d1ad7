#version 450
// Buffer atomics: a 16-bin histogram, atomicMax/atomicMin, and atomicExchange-free counters.
// groups: 3
// buffer: 0 ssbo randu 192
// buffer: 1 ssbo zero 16
// buffer: 2 ssbo words 0 0xffffffff 0 0
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; };
layout(std430, binding = 1) buffer Hist { uint bins[16]; };
layout(std430, binding = 2) buffer Stats { uint mx; uint mn; uint xr; uint orr; };
void main() {
    uint x = v[gl_GlobalInvocationID.x];
    atomicAdd(bins[x >> 28], 1u);
    atomicMax(mx, x);
    atomicMin(mn, x);
    atomicXor(xr, x);
    atomicOr(orr, x & 0x00ff00ffu);
}
