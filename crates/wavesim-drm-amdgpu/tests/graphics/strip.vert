#version 450
// A zig-zag of 24 vertices for triangle strips and fans (and a line strip).
layout(location = 0) out vec3 color;
void main() {
    int i = gl_VertexIndex;
    float x = -0.9 + 1.8 * float(i / 2) / 11.0;
    float y = (i % 2 == 0) ? -0.6 + 0.1 * sin(float(i)) : 0.6;
    gl_Position = vec4(x, y, 0.5, 1.0);
    color = vec3(float(i % 3) * 0.5, float(i) / 23.0, 1.0 - float(i % 2));
}
