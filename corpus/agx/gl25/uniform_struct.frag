#version 450
// A struct with a vec3, a float and an int in a std140 block.
// ubo: 0 f32 0.25 0.5 0.75 0.5 0.1 0.2 0.3 0.4
// ubo: 1 words 3 0 0 0
layout(std140, binding = 0) uniform A { vec3 base; float gain; vec4 bias; };
layout(std140, binding = 1) uniform B { int mode; };
layout(location = 0) in vec3 t;
layout(location = 0) out vec4 o;
void main() {
    vec3 c = base + t * gain;
    if (mode == 3)
        c = c.zyx;
    o = vec4(c, 1.0) * 0.8 + bias * 0.2;
}
