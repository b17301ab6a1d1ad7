#version 450
// A per-thread array indexed by data (a sieve, then a permutation walk): too large and too
// dynamically indexed for registers, so Mesa lowers it to scratch, and its entry opens a stack
// frame with stack_adjust for the stack_load/stack_store that access it.
// groups: 2
// buffer: 0 ssbo randu 128 0xffff
// buffer: 1 ssbo zero 256
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; };
layout(std430, binding = 1) buffer Out { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint seed = v[i];
    uint a[96];
    for (uint k = 0u; k < 96u; k++)
        a[k] = (seed * (k + 1u) + k * k) % 96u;
    uint at = seed % 96u, sum = 0u;
    for (uint k = 0u; k < 40u; k++) {
        sum += a[at] * (k + 1u);
        a[at] = (a[at] + sum) % 96u;
        at = a[(at + k) % 96u];
    }
    o[2u * i] = sum;
    o[2u * i + 1u] = a[seed % 95u] + 100u * a[(seed >> 3) % 96u];
}
