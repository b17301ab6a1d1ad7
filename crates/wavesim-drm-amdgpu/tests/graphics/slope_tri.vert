#version 450
// One triangle whose depth slopes in x and y (z 0.2, 0.8, 0.5 at its corners), for the depth
// bias tests (tests/radv_depth_bias.rs).
layout(location = 0) out vec3 color;
void main() {
    vec3 p[3] = vec3[](vec3(-0.9, -0.9, 0.2), vec3(0.9, -0.7, 0.8), vec3(-0.6, 0.9, 0.5));
    gl_Position = vec4(p[gl_VertexIndex], 1.0);
    color = vec3(1.0, 0.0, 0.0);
}
