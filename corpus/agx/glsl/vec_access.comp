#version 450
// Vector loads and stores at strides and with dynamic component indices; uvec2/uvec3/vec4 in
// std430 arrays; a uniform block with an array of vec4 read with a computed index.
// groups: 1
// buffer: 0 ssbo randu 512
// buffer: 1 ubo f32 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
// buffer: 2 ssbo zero 640
layout(local_size_x = 64) in;
layout(std430, binding = 0) readonly buffer In { uvec4 q[]; };
layout(std140, binding = 1) uniform U { vec4 table[4]; };
layout(std430, binding = 2) buffer Out { uvec2 p[64]; uvec3 t[64]; uvec4 w[64]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 a = q[i], b = q[127u - i];
    p[i] = a.yx + b.zw;
    t[i] = uvec3(a[i & 3u], b[(i >> 2) & 3u], a.w ^ b.x);
    vec4 f = table[i & 3u] * float(i);
    w[i] = uvec4(f) + a;
}
