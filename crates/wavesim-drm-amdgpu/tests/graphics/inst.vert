#version 450
// Four instances of one triangle, placed by gl_InstanceIndex.
layout(location = 0) out vec3 color;
void main() {
    vec2 p[3] = vec2[](vec2(-0.3, 0.3), vec2(0.3, 0.3), vec2(0.0, -0.3));
    vec2 off = vec2(gl_InstanceIndex % 2, gl_InstanceIndex / 2) * 0.9 - 0.45;
    gl_Position = vec4(p[gl_VertexIndex] + off, 0.0, 1.0);
    color = vec3(float(gl_VertexIndex == 0), float(gl_InstanceIndex) / 3.0, float(gl_VertexIndex == 2));
}
