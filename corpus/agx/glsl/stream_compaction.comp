#version 450
// Stream compaction's counting half: each even value takes a slot from the value atomicAdd
// returns. Which thread gets which slot depends on the scheduling, so only order-independent
// results are stored: the count, the sum and XOR of the taken values, the largest slot (count - 1)
// and each thread's flag.
// groups: 4
// buffer: 0 ssbo randu 256 0xffff
// buffer: 1 ssbo zero 256
// buffer: 2 ssbo zero 4
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uint v[]; };
layout(std430, binding = 1) buffer Flags { uint flag[]; };
layout(std430, binding = 2) buffer Count { uint count; uint sum; uint xr; uint maxslot; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = v[i];
    flag[i] = 0u;
    if ((x & 1u) == 0u) {
        uint slot = atomicAdd(count, 1u);
        atomicAdd(sum, x);
        atomicXor(xr, x);
        atomicMax(maxslot, slot);
        flag[i] = 1u;
    }
}
