#version 450
// A triangle from gl_VertexIndex alone (no vertex buffers), with a per-vertex colour.
layout(location = 0) out vec3 color;
void main() {
    vec2 p[3] = vec2[](vec2(-0.75, 0.75), vec2(0.75, 0.75), vec2(0.0, -0.75));
    vec3 c[3] = vec3[](vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0), vec3(0.0, 0.0, 1.0));
    gl_Position = vec4(p[gl_VertexIndex], 0.0, 1.0);
    color = c[gl_VertexIndex];
}
