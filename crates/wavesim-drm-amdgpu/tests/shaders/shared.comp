#version 450
// Shared memory and barriers: each workgroup of 128 reverses its slice through LDS, then adds
// its neighbour's value after a second barrier.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
shared uint tile[128];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint g = gl_GlobalInvocationID.x;
    tile[l] = a[g];
    barrier();
    uint rev = tile[127u - l];
    barrier();
    tile[l] = rev * 2u;
    barrier();
    b[g] = rev + tile[(l + 1u) & 127u] + gl_WorkGroupID.x;
}
