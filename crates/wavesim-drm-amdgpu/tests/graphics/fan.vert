#version 450
// A fan of 18 vertices around the centre (vertex 0).
layout(location = 0) out vec3 color;
void main() {
    int i = gl_VertexIndex;
    float a = float(i - 1) / 16.0 * 6.2831853;
    vec2 p = i == 0 ? vec2(0.05, -0.02) : vec2(cos(a), sin(a)) * 0.85;
    gl_Position = vec4(p, 0.5, 1.0);
    color = vec3(p * 0.5 + 0.5, float(i) / 17.0);
}
