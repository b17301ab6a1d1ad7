#version 450
// A checkerboard from integer pixel coordinates (bit operations on gl_FragCoord).
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    int c = (p.x ^ p.y) & 1;
    int d = (p.x >> 2) + (p.y >> 2) * 4;
    o = vec4(float(c), float(d) / 15.0, float(p.x & 3) / 3.0, 1.0);
}
