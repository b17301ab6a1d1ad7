#version 450
// A bitonic sort of 128 keys per workgroup in shared memory.
// groups: 2
// buffer: 0 ssbo randu 256
// buffer: 1 ssbo zero 256
layout(local_size_x = 128) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; };
layout(std430, binding = 1) buffer Out { uint o[]; };
shared uint k[128];
void main() {
    uint l = gl_LocalInvocationID.x;
    k[l] = v[gl_GlobalInvocationID.x];
    barrier();
    for (uint size = 2u; size <= 128u; size <<= 1) {
        for (uint stride = size >> 1; stride > 0u; stride >>= 1) {
            uint p = l ^ stride;
            if (p > l) {
                bool up = (l & size) == 0u;
                uint a = k[l], b = k[p];
                if ((a > b) == up) { k[l] = b; k[p] = a; }
            }
            barrier();
        }
    }
    o[gl_GlobalInvocationID.x] = k[l];
}
