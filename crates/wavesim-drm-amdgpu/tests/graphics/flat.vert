#version 450
// Flat integer and noperspective varyings, and a clip distance.
layout(location = 0) flat out uint id;
layout(location = 1) noperspective out vec2 uv;
layout(location = 2) out vec3 color;
out float gl_ClipDistance[1];
void main() {
    vec2 p[3] = vec2[](vec2(-0.75, 0.75), vec2(0.75, 0.75), vec2(0.0, -0.75));
    gl_Position = vec4(p[gl_VertexIndex], 0.0, 1.0);
    gl_ClipDistance[0] = p[gl_VertexIndex].x + 0.5;
    id = uint(gl_VertexIndex) * 7u + 1u;
    uv = p[gl_VertexIndex] * 0.5 + 0.5;
    color = vec3(uv, 0.5);
}
