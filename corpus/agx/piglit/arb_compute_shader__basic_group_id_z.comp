// piglit tests/spec/arb_compute_shader/execution/basic-group-id-z.shader_test, rewritten by tools/agx/piglit_compute.py
#version 450
// groups: 1 1 8
// buffer: 15 ssbo zero 8
// probe: 15 0 0x1
// probe: 15 1 0x1
// probe: 15 2 0x1
// probe: 15 3 0x1
// probe: 15 4 0x1
// probe: 15 5 0x1
// probe: 15 6 0x1
// probe: 15 7 0x1
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










layout(local_size_x = 1) in;

void main()
{
    int n = int(gl_WorkGroupID.z);

    if (n == 0)
        atomicCounterIncrement(a0);
    if (n == 1)
        atomicCounterIncrement(a1);
    if (n == 2)
        atomicCounterIncrement(a2);
    if (n == 3)
        atomicCounterIncrement(a3);
    if (n == 4)
        atomicCounterIncrement(a4);
    if (n == 5)
        atomicCounterIncrement(a5);
    if (n == 6)
        atomicCounterIncrement(a6);
    if (n == 7)
        atomicCounterIncrement(a7);
}
