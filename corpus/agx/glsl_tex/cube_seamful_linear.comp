#version 450
// LINEAR filtering of a cube map near every edge of every face, with GL's
// TEXTURE_CUBE_MAP_SEAMLESS off (its default; the sampler's seamful bit on): the footprint
// clamps to the face.
// Linear filtering runs under the approximation opt-in (the hardware's filter weights are not
// public). Directions from face coordinates by GL 4.6 Table 8.19; no footprint reaches a corner
// (GL leaves corners to the implementation).
// groups: 1
// approximate
// compare: 0 f32
// buffer: 0 ssbo zero 64
// texture: 1 cube r32f 4 4 6 randf -1 1
// sampler: 1 linear
layout(local_size_x = 64) in;
layout(binding = 0, std430) buffer Out { float o[]; };
layout(binding = 1) uniform samplerCube cube;
vec3 direction(uint f, float s, float t) {
    float sc = 2.0 * s - 1.0, tc = 2.0 * t - 1.0;
    if (f == 0u) return vec3(1.0, -tc, -sc);
    if (f == 1u) return vec3(-1.0, -tc, sc);
    if (f == 2u) return vec3(sc, 1.0, tc);
    if (f == 3u) return vec3(sc, -1.0, -tc);
    if (f == 4u) return vec3(sc, -tc, 1.0);
    return vec3(-sc, -tc, -1.0);
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint f = i % 6u, k = i / 6u, edge = k % 4u;
    float d = 0.02 + 0.04 * float((k / 4u) % 3u);
    float along = 0.4 + 0.05 * float(k % 3u);
    float s = edge == 0u ? d : edge == 1u ? 1.0 - d : along;
    float t = edge == 2u ? d : edge == 3u ? 1.0 - d : along;
    vec3 dir = direction(f, s, t);
    o[i] = textureLod(cube, dir, 0.0).r;
}
