// piglit tests/spec/arb_compute_shader/execution/simple-barrier-atomics.shader_test, rewritten by tools/agx/piglit_compute.py
#version 450
// groups: 1 1 1
// buffer: 15 ssbo zero 2
// probe: 15 0 0x400
// probe: 15 1 0x400
layout(std430, binding = 15) buffer wavesim_atomic_counters { uint wavesim_ac[2]; };
#define atomicCounterIncrement(c) atomicAdd(c, 1u)
#define atomicCounterDecrement(c) (atomicAdd(c, 0xffffffffu) - 1u)
#define atomicCounter(c) atomicAdd(c, 0u)
#define memoryBarrierAtomicCounter() memoryBarrierBuffer()
#define a0 wavesim_ac[0]
#define a1 wavesim_ac[1]




layout(local_size_x = 64, local_size_y = 16) in;

void main()
{
        atomicCounterIncrement(a0);

	memoryBarrierAtomicCounter();
	barrier();

        if (atomicCounter(a0) == 1024u) {
	        atomicCounterIncrement(a1);
	}
}
