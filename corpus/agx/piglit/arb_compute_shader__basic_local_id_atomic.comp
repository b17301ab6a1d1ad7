// piglit tests/spec/arb_compute_shader/execution/basic-local-id-atomic.shader_test, rewritten by tools/agx/piglit_compute.py
#version 450
// groups: 1 1 1
// buffer: 15 ssbo zero 8
// probe: 15 0 0x157
// probe: 15 1 0x157
// probe: 15 2 0x8
// probe: 15 3 0x150
// probe: 15 4 0x31
// probe: 15 5 0x31
// probe: 15 6 0x40
// probe: 15 7 0x1c0
layout(std430, binding = 15) buffer wavesim_atomic_counters { uint wavesim_ac[8]; };
#define atomicCounterIncrement(c) atomicAdd(c, 1u)
#define atomicCounterDecrement(c) (atomicAdd(c, 0xffffffffu) - 1u)
#define atomicCounter(c) atomicAdd(c, 0u)
#define memoryBarrierAtomicCounter() memoryBarrierBuffer()
#define a0 wavesim_ac[0]
#define a1 wavesim_ac[1]
#define a2 wavesim_ac[2]
#define a3 wavesim_ac[3]
#define a4 wavesim_ac[4]
#define a5 wavesim_ac[5]
#define a6 wavesim_ac[6]
#define a7 wavesim_ac[7]










layout(local_size_x = 8, local_size_y = 8, local_size_z = 8) in;

void main()
{
    uint x = gl_LocalInvocationID.x;
    uint y = gl_LocalInvocationID.y;
    uint z = gl_LocalInvocationID.z;

    if (((x & y) & z) == 0u)
        atomicCounterIncrement(a0);
    if (((x | y) | z) == 7u)
        atomicCounterIncrement(a1);
    if (x == y && y == z)
        atomicCounterIncrement(a2);
    if (x != y && y != z && x != z)
        atomicCounterIncrement(a3);
    if (((x & y) & z) == 2u)
        atomicCounterIncrement(a4);
    if (((x | y) | z) == 5u)
        atomicCounterIncrement(a5);
    if (x < 4u && y < 4u && z < 4u)
        atomicCounterIncrement(a6);
    if (x >= 4u || y >= 4u || z >= 4u)
        atomicCounterIncrement(a7);
}
