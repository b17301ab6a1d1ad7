#version 450
// Vertex input from a buffer (position and colour attributes), scaled by a push constant.
layout(location = 0) in vec2 pos;
layout(location = 1) in vec4 col;
layout(push_constant) uniform P { vec2 scale; float depth; } pc;
layout(location = 0) out vec4 color;
void main() {
    gl_Position = vec4(pos * pc.scale, pc.depth, 1.0);
    color = col;
}
