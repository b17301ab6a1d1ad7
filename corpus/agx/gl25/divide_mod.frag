#version 450
// Float division, mod, integer division and remainder of non-negative values.
layout(location = 0) in vec2 t;
layout(location = 0) out vec4 o;
void main() {
    int a = int(t.x * 100.0), b = int(t.y * 7.0) + 1;
    o = vec4(t.x / (t.y + 0.5), mod(t.x * 5.0, 0.7), float(a / b) / 100.0, float(a % b) / 8.0);
}
