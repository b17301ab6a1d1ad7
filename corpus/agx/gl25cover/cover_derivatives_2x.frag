#version 450
// samples: 2
// triangle: 0.5 7.25 15.75 8.5 8.25 9.0
// fill_rule: top-left
// clear: 0.2 0.4 0.6 1.0
// fine derivatives at the edges of a thin triangle at 2 samples
layout(location = 0) in vec2 t;
layout(location = 0) out vec4 o;
void main() {
    float q = t.y * t.y * 4.0 + t.x;
    o = vec4(dFdxFine(q) * 8.0 + 0.5, dFdyFine(q) * 8.0 + 0.5, fwidthFine(t.y) * 16.0, 1.0);
}
