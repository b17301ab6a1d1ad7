#version 450
// Integer work on gl_FragCoord and gl_FrontFacing only: every channel is k / 255 exactly.
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 outColor;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    uint h = uint(p.x * 73856093) ^ uint(p.y * 19349663);
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    outColor = vec4(float(h & 255u) / 255.0, float((h >> 8) & 255u) / 255.0,
                    gl_FrontFacing ? 1.0 : 0.0, 1.0);
}
