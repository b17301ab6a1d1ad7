#version 450
// Data-dependent loops and branches: Collatz step counts (divergent trip counts), a search with
// break and continue.
// groups: 2
// buffer: 0 ssbo iota 128 1 7
// buffer: 1 ssbo zero 256
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; };
layout(std430, binding = 1) buffer Out { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = v[i], steps = 0u;
    while (n != 1u && steps < 1000u) {
        n = (n & 1u) != 0u ? 3u * n + 1u : n / 2u;
        steps++;
    }
    uint found = 0u;
    for (uint k = 0u; k < 64u; k++) {
        if ((k * v[i]) % 5u == 3u) continue;
        if (((v[i] + k * k) & 63u) == 17u) { found = k + 1u; break; }
        found += 100u;
    }
    o[2u * i] = steps;
    o[2u * i + 1u] = found;
}
