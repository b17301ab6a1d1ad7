#version 450
// Shared-memory atomics per workgroup, then one store per group: count of odd values, max, and
// an atomicCompSwap election of the lowest thread whose value is a multiple of 3.
// groups: 2
// buffer: 0 ssbo randu 256 0xfff
// buffer: 1 ssbo zero 8
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; };
layout(std430, binding = 1) buffer Out { uvec4 r[]; };
shared uint odd, mx, first;
void main() {
    uint l = gl_LocalInvocationID.x;
    if (l == 0u) { odd = 0u; mx = 0u; first = 0xffffffffu; }
    barrier();
    uint x = v[gl_GlobalInvocationID.x];
    if ((x & 1u) != 0u) atomicAdd(odd, 1u);
    atomicMax(mx, x);
    if (x % 3u == 0u) atomicMin(first, l);
    uint old = atomicCompSwap(first, 0xfffffffeu, 0u);
    barrier();
    if (l == 0u) r[gl_WorkGroupID.x] = uvec4(odd, mx, first, old == 0xfffffffeu ? 1u : 0u);
}
