#version 450
// Transcendentals, integer and bit operations and a data-dependent loop.
layout(location = 0) in vec3 color;
layout(location = 0) out vec4 outColor;
void main() {
    uint h = uint(gl_FragCoord.x) * 2654435761u ^ uint(gl_FragCoord.y) * 40503u;
    float acc = 0.0;
    for (uint k = 0u; k < (h & 7u); k++)
        acc += sin(color.r * float(k)) * exp2(-float(k));
    uint bits = bitCount(h) + findMSB(h | 1u) + bitfieldExtract(h, 3, 5);
    outColor = vec4(fract(acc), float(bits & 255u) / 255.0, sqrt(color.g) * inversesqrt(color.b + 1.0),
                    pow(clamp(color.r, 0.0, 1.0), 2.2));
}
