#version 450
// Workgroup sum in shared memory with barriers (a tree reduction), one result per group.
// groups: 4
// buffer: 0 ssbo randu 512 0xffff
// buffer: 1 ssbo zero 4
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; };
layout(std430, binding = 1) buffer Out { uint sums[]; };
shared uint part[128];
void main() {
    uint l = gl_LocalInvocationID.x;
    part[l] = v[gl_GlobalInvocationID.x];
    barrier();
    for (uint s = 64u; s > 0u; s >>= 1) {
        if (l < s) part[l] += part[l + s];
        barrier();
    }
    if (l == 0u) sums[gl_WorkGroupID.x] = part[0];
}
