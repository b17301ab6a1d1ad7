#version 450
// textureLod / texture at LOD 0 with NEAREST filters on a 16x16 R32F texture: coordinates that
// fall inside texels, outside [0, 1] (clamp to edge) and on a scaled grid.
// groups: 1
// buffer: 0 ssbo zero 256
// texture: 2 2d r32f 16 16 1 randf -100 100
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, std430) buffer Out { float o[]; };
layout(binding = 2) uniform sampler2D tex;
void main() {
    vec2 g = vec2(gl_GlobalInvocationID.xy);
    uint i = gl_GlobalInvocationID.y * 8u + gl_GlobalInvocationID.x;
    o[i] = textureLod(tex, (g * 2.0 + 0.5) / 16.0, 0.0).r;
    o[64u + i] = textureLod(tex, g * 0.25 - 0.5, 0.0).r;
    o[128u + i] = texture(tex, (g * 0.75 + 0.125) / 16.0).r;
    o[192u + i] = textureLod(tex, vec2(1.5 - g.x * 0.0625, g.y * 0.125 + 0.03125), 0.0).r;
}
