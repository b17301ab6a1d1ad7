#version 450
// A weighted sum over a uniform array in a loop (uniform loads in the preamble or main part).
// ubo: 0 f32 0.1 0 0 0 0.2 0 0 0 0.3 0 0 0 0.15 0 0 0 0.25 0 0 0
layout(std140, binding = 0) uniform U { float w[5]; };
layout(location = 0) in vec4 t;
layout(location = 0) out vec4 o;
void main() {
    float s = 0.0;
    for (int i = 0; i < 5; i++)
        s += w[i] * t[i & 3];
    o = vec4(s * 2.0, t.y, t.z * s, 1.0);
}
