#version 450
// groups: 4
// buffer: 0 ssbo randf 200 -8 8
// buffer: 1 ssbo randf 256 -8 8
// buffer: 2 ubo f32 2.5 0 0 0
// buffer: 3 ubo words 200 0 0 0
// compare: 1 f32
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer X { float x[]; };
layout(std430, binding = 1) buffer Y { float y[]; };
layout(std140, binding = 2) uniform A { float a; };
layout(std140, binding = 3) uniform N { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
