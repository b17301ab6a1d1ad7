#version 450
// std430 structs with vec3 and matrix members, matrix products and transposes.
// groups: 1
// buffer: 0 ssbo randf 1024 -2 2
// buffer: 1 ssbo zero 1024
// compare: 1 f32
layout(local_size_x = 32) in;
struct Item { mat4 m; vec4 v; vec3 n; float s; };
layout(std430, binding = 0) readonly buffer In { Item items[]; };
layout(std430, binding = 1) buffer Out { vec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    Item it = items[i];
    vec4 p = it.m * it.v;
    vec4 q = transpose(it.m) * vec4(it.n, it.s);
    mat3 m3 = mat3(it.m);
    r[4u * i] = p;
    r[4u * i + 1u] = q;
    r[4u * i + 2u] = vec4(m3 * it.n, determinant(mat2(it.m)));
    r[4u * i + 3u] = vec4(cross(it.n, it.v.xyz), it.s * it.s);
}
