#version 450
// Reads every level of a mip-mapped texture: rows of 10 pixels per level (the last level
// below), the left half by texelFetch (image_load_mip), the right half by textureLod at the
// texel centres with LOD level + 0.3 (a nearest-mipmap sampler picks the level itself).
layout(set = 0, binding = 0) uniform sampler2D tex;
layout(location = 0) out vec4 outColor;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int last = textureQueryLevels(tex) - 1;
    int lod = min(p.y / 10, last);
    ivec2 size = textureSize(tex, lod);
    ivec2 t = ivec2(p.x % 32, p.y % 10) % size;
    if (p.x < 32) {
        outColor = texelFetch(tex, t, lod);
    } else {
        outColor = textureLod(tex, (vec2(t) + 0.5) / vec2(size), float(lod) + 0.3);
    }
}
