// piglit tests/spec/arb_shader_group_vote/cs-any.shader_test, rewritten by tools/agx/piglit_compute.py
#version 450
#extension GL_ARB_shader_group_vote: require
// groups: 2 1 1
// buffer: 15 ssbo zero 1
// probe: 15 0 0x8
layout(std430, binding = 15) buffer wavesim_atomic_counters { uint wavesim_ac[1]; };
#define atomicCounterIncrement(c) atomicAdd(c, 1u)
#define atomicCounterDecrement(c) (atomicAdd(c, 0xffffffffu) - 1u)
#define atomicCounter(c) atomicAdd(c, 0u)
#define memoryBarrierAtomicCounter() memoryBarrierBuffer()
#define inc wavesim_ac[0]



layout(local_size_x = 8) in;

void main()
{
  if (anyInvocationARB(bool(gl_WorkGroupID.x)))
    atomicCounterIncrement(inc);
}
