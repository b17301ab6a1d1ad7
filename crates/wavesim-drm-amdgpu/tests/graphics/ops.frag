#version 450
// Control flow and bit operations on the pixel's integer coordinates (a value quantised from
// an interpolated input would make a one-ulp interpolation difference between drivers flip
// the loop count), and data-dependent branches on the interpolated colour.
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 outColor;
void main() {
    uint v = uint(gl_FragCoord.x) * 37u + uint(gl_FragCoord.y) * 1000u;
    float acc = 0.0;
    for (int i = 0; i < int(v % 7u) + 1; i++) {
        acc += (bitCount(v >> i) % 2 == 0) ? 0.125 : 0.0625;
    }
    vec3 c = color;
    if (c.b > 0.5) {
        c = c.zyx;
    } else {
        c = vec3(max(c.r, c.g), min(c.g, c.b), clamp(c.b * 2.0, 0.0, 1.0));
    }
    outColor = vec4(c.xy, acc, float(findMSB(v + 1u)) / 16.0);
}
