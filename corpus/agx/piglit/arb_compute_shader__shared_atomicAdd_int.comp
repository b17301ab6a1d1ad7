// piglit tests/spec/arb_compute_shader/execution/shared-atomicAdd-int.shader_test, rewritten by tools/agx/piglit_compute.py
#version 450
// groups: 2 3 4
// buffer: 15 ssbo zero 2
// probe: 15 0 0x18
// probe: 15 1 0x0
layout(std430, binding = 15) buffer wavesim_atomic_counters { uint wavesim_ac[2]; };
#define atomicCounterIncrement(c) atomicAdd(c, 1u)
#define atomicCounterDecrement(c) (atomicAdd(c, 0xffffffffu) - 1u)
#define atomicCounter(c) atomicAdd(c, 0u)
#define memoryBarrierAtomicCounter() memoryBarrierBuffer()
#define pass wavesim_ac[0]
#define fail wavesim_ac[1]

layout(local_size_x = 32) in;

shared int value;
shared uint mask;




void main()
{
	if (gl_LocalInvocationIndex == 0u) {
		value = 0;
		mask = 0u;
	}

	barrier();

	/* Each local invocation should see a unique value.  Each value
	 * observed is tracked in "mask."  The test automatically fails if a
	 * duplicate value is observed.  The test passes once all 32 possible
	 * values have been observed.
	 */
	int f = atomicAdd(value, 4);
	uint i = uint(f) / 4u;
	uint bit = i % 32u;
	uint m = 1u << bit;

	if (i < 32u) {
		/* If the bit was already set, the test fails. */
		uint r = atomicOr(mask, m);
		if ((r & m) != 0u)
			atomicCounterIncrement(fail);

		/* Once all 32 bits are set, the test passes. */
		if ((r | m) == 0xffffffffu)
			atomicCounterIncrement(pass);
	} else {
		atomicCounterIncrement(fail);
	}
}
