// piglit tests/spec/glsl-4.50/execution/glsl-mul-const.shader_test, rewritten by tools/agx/piglit_compute.py
#version 450
// groups: 1 1 1
// buffer: 0 ssbo words 0xa 0xa 0xa 0xa 0xa
// buffer: 1 ssbo zero 5
// probe: 1 0 0x0
// probe: 1 1 0x0
// probe: 1 2 0x0
// probe: 1 3 0x0
// probe: 1 4 0x0

layout(local_size_x = 1) in;

layout(binding = 0, std430) buffer SSBO0 {
	int val[5];
};

layout(binding = 1, std430) buffer SSBO1 {
	int fail[5];
};

void main() {
	/* All vals are the same, but we don't reuse it to avoid
	 * compiler trying to reuse part of the result.
	 */
	if (val[0] *      0 !=       0) fail[0] = 1;
	if (val[1] *      1 !=      10) fail[1] = 1;
	if (val[2] *     -1 !=     -10) fail[2] = 1;
	if (val[3] *  65000 !=  650000) fail[3] = 1;
	if (val[4] * -65000 != -650000) fail[4] = 1;
}
