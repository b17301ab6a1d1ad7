// piglit tests/spec/arb_compute_shader/execution/shared-atomicMax-int.shader_test, rewritten by tools/agx/piglit_compute.py
#version 450
// groups: 2 3 4
// buffer: 0 ssbo words 0xfffffffc 0xfffffff8 0xfffffff4 0xfffffff0 0xffffffec 0xffffffe8 0xffffffe4 0xffffffe0 0xffffffdc 0xffffffd8 0xffffffd4 0xffffffd0 0xffffffcc 0xffffffc8 0xffffffc4 0xffffffc0 0xffffffbc 0xffffffb8 0xffffffb4 0xffffffb0 0xffffffac 0xffffffa8 0xffffffa4 0xffffffa0 0xffffff9c 0xffffff98 0xffffff94 0xffffff90 0xffffff8c 0xffffff88 0xffffff84 0xffffff80 0xffffff7c 0xffffff78 0xffffff74 0xffffff70 0xffffff6c 0xffffff68 0xffffff64 0xffffff60 0xffffff5c 0xffffff58 0xffffff54 0xffffff50 0xffffff4c 0xffffff48 0xffffff44 0xffffff40 0xffffff3c 0xffffff38 0xffffff34 0xffffff30 0xffffff2c 0xffffff28 0xffffff24 0xffffff20 0xffffff1c 0xffffff18 0xffffff14 0xffffff10 0xffffff0c 0xffffff08 0xffffff04 0xffffff00 0x7fffffff
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
	int source_array[64];
	int source_value;
};

shared int array[source_array.length()];
shared int value;



void main()
{
	if (gl_LocalInvocationIndex == 0u) {
		array = source_array;
		value = source_value;
	}

	barrier();

	int local_index = int(gl_LocalInvocationIndex);
	int v;

	/* For value, every instance should get 2147483647. */
	v = atomicMax(value, local_index);
	if (v != 2147483647)
		atomicCounterIncrement(fail);

	if (value != 2147483647)
		atomicCounterIncrement(fail);

	int first_expected = (local_index + 1) * -4;
	int second_expected = local_index * 4;

	/* The per-instance value should give the old value on the first step.
	 * This is expected to be the negative byte offset of the next array
	 * element.
	 */
	v = atomicMax(array[local_index], second_expected);
	if (v != first_expected)
		atomicCounterIncrement(fail);

	/* The per-instance value should give the new value on the second
	 * step.  This is expected to be the byte offset of the current array
	 * element.
	 */
	v = atomicExchange(array[local_index], first_expected);
	if (v != second_expected)
		atomicCounterIncrement(fail);
}
