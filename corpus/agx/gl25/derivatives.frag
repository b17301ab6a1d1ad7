#version 450
// Fine derivatives of a quadratic in the pixel position (quad shuffles within 2x2 quads).
layout(location = 0) in vec2 t;
layout(location = 0) out vec4 o;
void main() {
    float q = t.x * t.x * 4.0 + t.y;
    o = vec4(dFdxFine(q) * 8.0 + 0.5, dFdyFine(q) * 8.0 + 0.5, fwidthFine(t.x) * 16.0, 1.0);
}
