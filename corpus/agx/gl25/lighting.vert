#version 450
// Lambert and Blinn-Phong terms per vertex (normalize, dot, pow via exp2/log2).
layout(location = 0) in vec3 pos;
layout(location = 1) in vec3 nrm;
layout(location = 0) out vec3 colour;
void main() {
    vec3 n = normalize(nrm + vec3(0.0, 0.0, 1.0));
    vec3 l = normalize(vec3(0.3, 0.5, 0.8));
    vec3 v = normalize(vec3(0.0, 0.0, 2.0) - pos);
    float d = max(dot(n, l), 0.0);
    float sp = pow(max(dot(n, normalize(l + v)), 0.0), 8.0);
    gl_Position = vec4(pos, 1.0);
    colour = vec3(0.1) + d * vec3(0.7, 0.6, 0.5) + sp * 0.3;
}
