#version 450
// A constant rotation-scale matrix applied to a position, a normal transformed and normalized.
layout(location = 0) in vec3 pos;
layout(location = 1) in vec3 nrm;
layout(location = 0) out vec3 n;
layout(location = 1) out vec2 uv;
void main() {
    mat3 m = mat3(0.8, 0.6, 0.0, -0.6, 0.8, 0.0, 0.0, 0.0, 1.0);
    vec3 p = m * pos * 1.5;
    gl_Position = vec4(p, 1.0 + pos.z * 0.25);
    n = normalize(m * nrm + vec3(0.0, 0.0, 0.75));
    uv = p.xy * 0.5 + 0.5;
}
