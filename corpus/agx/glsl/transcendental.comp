#version 450
// exp2, log2, pow, exp, log, inversesqrt, sin, cos, atan, tanh: Mesa's asahi back end has
// exp2/log2/rsqrt instructions and sin/cos through sin_pt_1/sin_pt_2 (run under the opt-in).
// groups: 1
// buffer: 0 ssbo randf 64 0.05 6
// buffer: 1 ssbo zero 640
// compare: 1 f32
// approximate
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { float v[]; };
layout(std430, binding = 1) buffer Out { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = v[i];
    o[10u * i] = exp2(x);
    o[10u * i + 1u] = log2(x);
    o[10u * i + 2u] = pow(x, 1.7);
    o[10u * i + 3u] = exp(-x);
    o[10u * i + 4u] = log(x);
    o[10u * i + 5u] = inversesqrt(x);
    o[10u * i + 6u] = sin(x);
    o[10u * i + 7u] = cos(x);
    o[10u * i + 8u] = atan(x, 1.0 - x);
    o[10u * i + 9u] = tanh(x - 3.0);
}
