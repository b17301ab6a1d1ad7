// piglit tests/spec/arb_compute_shader/execution/atomic-counter.shader_test, rewritten by tools/agx/piglit_compute.py
#version 450
// groups: 1 1 1
// buffer: 15 ssbo zero 2
// probe: 15 0 0x200
// probe: 15 1 0xfffffe00
layout(std430, binding = 15) buffer wavesim_atomic_counters { uint wavesim_ac[2]; };
#define atomicCounterIncrement(c) atomicAdd(c, 1u)
#define atomicCounterDecrement(c) (atomicAdd(c, 0xffffffffu) - 1u)
#define atomicCounter(c) atomicAdd(c, 0u)
#define memoryBarrierAtomicCounter() memoryBarrierBuffer()
#define inc wavesim_ac[0]
#define dec wavesim_ac[1]




layout(local_size_x = 8, local_size_y = 8, local_size_z = 8) in;

void main()
{
	atomicCounterIncrement(inc);
	atomicCounterDecrement(dec);
}
