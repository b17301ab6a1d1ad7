#version 450
// texelFetch from an 8x8 RGBA8 texture: every texel's four channels as floats.
// groups: 1
// compare: 0 f32
// buffer: 0 ssbo zero 256
// texture: 1 2d rgba8 8 8 1 randu
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, std430) buffer Out { vec4 o[]; };
layout(binding = 1) uniform sampler2D tex;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    o[p.y * 8 + p.x] = texelFetch(tex, p, 0);
}
