#version 450
// Float attributes through integer conversions, shifts and bit operations.
layout(location = 0) in vec4 a;
layout(location = 0) out vec4 o;
void main() {
    ivec4 i = ivec4(a * 64.0);
    int m = (i.x ^ i.y) + (i.z << 2) - (i.w >> 1);
    uint u = uint(i.x + 64) * 2654435761u;
    gl_Position = vec4(a.xyz, 1.0);
    o = vec4(float(m), float(u >> 24), float(bitCount(u)), float(i.x & 7));
}
