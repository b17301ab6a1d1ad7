#version 450
// A flat input and uniform array indexed by an integer computed from it.
// ubo: 0 f32 1.0 0.0 0.0 1.0 0.0 1.0 0.0 1.0 0.0 0.0 1.0 1.0 0.5 0.5 0.5 1.0
layout(location = 0) flat in float k;
layout(location = 1) in vec2 t;
layout(std140, binding = 0) uniform U { vec4 palette[4]; };
layout(location = 0) out vec4 o;
void main() {
    int i = int(k * 8.0) & 3;
    o = palette[i] * vec4(t, 1.0, 1.0);
}
