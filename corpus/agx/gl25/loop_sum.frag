#version 450
// A loop with a uniform trip count accumulating a polynomial of a varying.
// ubo: 0 words 7 0 0 0
layout(location = 0) in vec2 t;
layout(std140, binding = 0) uniform U { int n; };
layout(location = 0) out vec4 o;
void main() {
    float s = 0.0, p = 1.0;
    for (int i = 0; i < n; i++) {
        s += p / float(i + 1);
        p *= t.x;
    }
    o = vec4(s / 2.0, t.y, p, 1.0);
}
