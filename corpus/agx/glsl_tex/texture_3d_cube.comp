#version 450
// A 3D texture (texelFetch and textureLod) and a cube map (textureLod along directions that pick
// each face and a texel inside it), NEAREST.
// groups: 1
// compare: 0 f32
// buffer: 0 ssbo zero 768
// texture: 1 3d rgba8 4 4 4 randu
// texture: 2 cube r32f 4 4 6 randf -10 10
layout(local_size_x = 64) in;
layout(binding = 0, std430) buffer Out { vec4 o[]; };
layout(binding = 1) uniform sampler3D vol;
layout(binding = 2) uniform samplerCube cube;
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec3 p = ivec3(i & 3u, (i >> 2) & 3u, i >> 4);
    o[i] = texelFetch(vol, p, 0);
    o[64u + i] = textureLod(vol, (vec3(p.zxy) + 0.5) / 4.0, 0.0);
    // face f = i % 6 (GL's +X -X +Y -Y +Z -Z), (s, t) in the face from i / 6
    uint f = i % 6u;
    float s = (float((i / 6u) & 3u) + 0.5) / 2.0 - 1.0;
    float t = (float((i / 24u) & 1u) * 2.0 + 0.5) / 2.0 - 1.0;
    float m = (f & 1u) == 0u ? 1.0 : -1.0;
    vec3 dir = f < 2u ? vec3(m, t, s) : f < 4u ? vec3(s, m, t) : vec3(s, t, m);
    o[128u + i] = vec4(textureLod(cube, dir, 0.0).r, dir);
}
