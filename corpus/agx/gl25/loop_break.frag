#version 450
// A data-dependent loop with break: iterations until a value crosses a threshold.
layout(location = 0) in vec2 t;
layout(location = 0) out vec4 o;
void main() {
    float v = t.x;
    int i = 0;
    for (; i < 32; i++) {
        v = v * 1.25 + 0.01;
        if (v > 1.0)
            break;
    }
    o = vec4(float(i) / 32.0, v - 1.0, t.y, 1.0);
}
