// piglit tests/spec/arb_compute_shader/execution/shared-atomicMax-uint.shader_test, rewritten by tools/agx/piglit_compute.py
#version 450
// groups: 2 3 4
// buffer: 0 ssbo words 0x0 0x4 0x8 0xc 0x10 0x14 0x18 0x1c 0x20 0x24 0x28 0x2c 0x30 0x34 0x38 0x3c 0x40 0x44 0x48 0x4c 0x50 0x54 0x58 0x5c 0x60 0x64 0x68 0x6c 0x70 0x74 0x78 0x7c 0x80 0x84 0x88 0x8c 0x90 0x94 0x98 0x9c 0xa0 0xa4 0xa8 0xac 0xb0 0xb4 0xb8 0xbc 0xc0 0xc4 0xc8 0xcc 0xd0 0xd4 0xd8 0xdc 0xe0 0xe4 0xe8 0xec 0xf0 0xf4 0xf8 0xfc 0x7fffffff
// buffer: 15 ssbo zero 1
// probe: 15 0 0x0
layout(std430, binding = 15) buffer wavesim_atomic_counters { uint wavesim_ac[1]; };
#define atomicCounterIncrement(c) atomicAdd(c, 1u)
#define atomicCounterDecrement(c) (atomicAdd(c, 0xffffffffu) - 1u)
#define atomicCounter(c) atomicAdd(c, 0u)
#define memoryBarrierAtomicCounter() memoryBarrierBuffer()
#define fail wavesim_ac[0]

layout(local_size_x = 64) in;

layout(binding = 0, std430) buffer bufblock {
	uint source_array[64];
	uint source_value;
};

shared uint array[source_array.length()];
shared uint value;



void main()
{
	if (gl_LocalInvocationIndex == 0u) {
		array = source_array;
		value = source_value;
	}

	barrier();

	uint local_index = gl_LocalInvocationIndex;
	uint v;

	/* For value, every instance should get 2147483647. */
	v = atomicMax(value, local_index);
	if (v != 2147483647u)
		atomicCounterIncrement(fail);

	if (value != 2147483647u)
		atomicCounterIncrement(fail);

	uint first_expected = local_index * 4u;
	uint second_expected = (local_index + 1u) * 4u;

	/* The per-instance value should give the old value on the first step.
	 * This is expected to be the byte offset of the current array
	 * element.
	 */
	v = atomicMax(array[local_index], second_expected);
	if (v != first_expected)
		atomicCounterIncrement(fail);

	/* The per-instance value should give the new value on the second
	 * step.  This is expected to be the byte offset of the next array
	 * element.
	 */
	v = atomicExchange(array[local_index], first_expected);
	if (v != second_expected)
		atomicCounterIncrement(fail);
}
