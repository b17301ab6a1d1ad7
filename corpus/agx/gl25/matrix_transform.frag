#version 450
// A mat4 from a uniform block times a smooth vec4.
// ubo: 0 f32 0.5 0.1 0.0 0.0 0.2 0.6 0.1 0.0 0.0 0.2 0.7 0.0 0.1 0.0 0.1 1.0
layout(location = 0) in vec4 v;
layout(std140, binding = 0) uniform U { mat4 m; };
layout(location = 0) out vec4 o;
void main() {
    o = m * v;
}
