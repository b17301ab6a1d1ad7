// piglit tests/spec/arb_compute_shader/execution/shared-atomics.shader_test, rewritten by tools/agx/piglit_compute.py
#version 450
// groups: 2 3 4
// buffer: 15 ssbo zero 1
// probe: 15 0 0x18
layout(std430, binding = 15) buffer wavesim_atomic_counters { uint wavesim_ac[1]; };
#define atomicCounterIncrement(c) atomicAdd(c, 1u)
#define atomicCounterDecrement(c) (atomicAdd(c, 0xffffffffu) - 1u)
#define atomicCounter(c) atomicAdd(c, 0u)
#define memoryBarrierAtomicCounter() memoryBarrierBuffer()
#define pass wavesim_ac[0]

layout(local_size_x = 2, local_size_y = 3) in;

shared uint value;

const uint size = gl_WorkGroupSize.x * gl_WorkGroupSize.y * gl_WorkGroupSize.z;

void main()
{
   if (gl_LocalInvocationIndex == 0u)
      value = 0u;
   barrier();
   atomicAdd(value, gl_LocalInvocationIndex);
   barrier();
   if (gl_LocalInvocationIndex == 0u) {
      if (value == size * (size - 1u) / 2u)
         atomicCounterIncrement(pass);
   }
}
