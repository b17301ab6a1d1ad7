#version 450
// Three overlapping triangles at constant depths 0.25, 0.75 and 0.5 (drawn in that order),
// each with its own colour: under a depth test the depth buffer holds exactly one of the three
// depths or the clear value at every pixel (tests/radv_depth.rs).
layout(location = 0) out vec3 color;
void main() {
    vec2 p[9] = vec2[](
        vec2(-0.9, -0.9), vec2(0.5, -0.9), vec2(-0.9, 0.5),
        vec2(-0.5, -0.6), vec2(0.9, -0.2), vec2(0.2, 0.9),
        vec2(-0.7, 0.1), vec2(0.8, 0.8), vec2(0.3, -0.8));
    float z[3] = float[](0.25, 0.75, 0.5);
    vec3 c[3] = vec3[](vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0), vec3(0.0, 0.0, 1.0));
    int t = gl_VertexIndex / 3;
    gl_Position = vec4(p[gl_VertexIndex], z[t], 1.0);
    color = c[t];
}
