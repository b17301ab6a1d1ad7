#version 450
// Integer arithmetic: a hash of the pixel position, shifts, multiplies, unsigned conversions.
layout(location = 0) out vec4 o;
void main() {
    uvec2 p = uvec2(gl_FragCoord.xy);
    uint h = p.x * 73856093u ^ p.y * 19349663u;
    h ^= h >> 13;
    h *= 0x5bd1e995u;
    h ^= h >> 15;
    o = vec4(float(h & 255u) / 255.0, float((h >> 8) & 255u) / 255.0,
             float((h >> 16) & 255u) / 255.0, 1.0);
}
