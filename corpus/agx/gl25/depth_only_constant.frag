#version 450
// A constant colour and gl_FragDepth from a uniform: zs_emit with a depth uniform across pixels.
// ubo: 0 f32 0.3 0.6 0.9 1.0 0.125
layout(std140, binding = 0) uniform U { vec4 colour; float z; };
layout(location = 0) out vec4 o;
void main() {
    o = colour;
    gl_FragDepth = z;
}
