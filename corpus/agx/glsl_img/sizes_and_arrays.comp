#version 450
// Size queries (imageSize, textureSize) and a 2D-array texture (texelFetch and textureLod with
// layers clamped to the layer count): all read the descriptor through the bindless table.
// groups: 1
// buffer: 0 ssbo zero 320
// texture: 1 2darray rgba32f 4 4 3 randf -9 9
// texture: 2 2d r32f 8 4 1 randf 0 1
// image: 1 2darray r32ui 4 4 5 zero
// image: 2 2d rgba8 8 2 1 zero
layout(local_size_x = 16) in;
layout(binding = 0, std430) buffer Out { vec4 o[]; };
layout(binding = 1) uniform sampler2DArray t;
layout(binding = 2) uniform sampler2D t2;
layout(binding = 1, r32ui) uniform readonly uimage2DArray ia;
layout(binding = 2, rgba8) uniform readonly image2D ib;
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec2 p = ivec2(i & 3u, i >> 2);
    o[i] = texelFetch(t, ivec3(p, int(i % 3u)), 0);
    o[16u + i] = textureLod(t, vec3((vec2(p) + 0.5) / 4.0, float(i) * 0.5 - 2.0), 0.0);
    if (i == 0u) {
        o[32] = vec4(textureSize(t, 0), textureSize(t2, 0).xyy);
        o[33] = vec4(imageSize(ia), imageSize(ib).x);
        o[34] = vec4(imageSize(ib), textureSize(t2, 0));
    }
}
