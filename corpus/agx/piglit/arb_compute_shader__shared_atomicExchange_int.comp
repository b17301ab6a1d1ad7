// piglit tests/spec/arb_compute_shader/execution/shared-atomicExchange-int.shader_test, rewritten by tools/agx/piglit_compute.py
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
		/* Bootstrapping this with zero is unavoidable, bit it
		 * also causes problems later.  Namely it means that
		 * bit 0 will get set twice and invocation 0 can see a
		 * zero value.  Note the explicit checks for bit != 0
		 * and gl_LocalInvocationIndex != 0 below.
		 */
		value = 0;
		mask = 0u;
	}

	barrier();

	int f = atomicExchange(value, 2 * int(gl_LocalInvocationIndex));
	uint i = uint(f) / 2u;
	uint bit = i % 32u;
	uint m = 1u << bit;

	if (i < 32u) {
		/* If the bit was already set, the test fails. */
		uint r = atomicOr(mask, m);
		if (bit != 0u && (r & m) != 0u)
			atomicCounterIncrement(fail);

		/* Invocation index 0 can read it's own index (due to
		 * bootstrapping with zero), but no other invocation should.
		 */
		if (gl_LocalInvocationIndex != 0u &&
		    bit == gl_LocalInvocationIndex)
			atomicCounterIncrement(fail);
	} else {
		atomicCounterIncrement(fail);
	}

	barrier();

	if (gl_LocalInvocationIndex == 0u) {
		uint i = uint(value / 2);
		uint bit = i % 32u;
		uint m = 1u << bit;

		uint final = m | mask;

		/* If all 32 bits are set, the test passes. */
		if (final == 0xffffffffu)
			atomicCounterIncrement(pass);
	}
}
