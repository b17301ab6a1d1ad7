#version 450
// An inclusive scan of 256 values per group in shared memory (Hillis-Steele, double buffered).
// groups: 2
// buffer: 0 ssbo randu 512 0xff
// buffer: 1 ssbo zero 512
layout(local_size_x = 256) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; };
layout(std430, binding = 1) buffer Out { uint o[]; };
shared uint buf[2][256];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint cur = 0u;
    buf[0][l] = v[gl_GlobalInvocationID.x];
    barrier();
    for (uint d = 1u; d < 256u; d <<= 1) {
        uint x = buf[cur][l];
        if (l >= d) x += buf[cur][l - d];
        buf[1u - cur][l] = x;
        cur = 1u - cur;
        barrier();
    }
    o[gl_GlobalInvocationID.x] = buf[cur][l];
}
