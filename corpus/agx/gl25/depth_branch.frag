#version 450
// A depth chosen per pixel in divergent control flow.
layout(location = 0) in vec2 t;
layout(location = 0) out vec4 o;
void main() {
    float d;
    if (t.x > 0.4) {
        d = t.x * t.y;
        o = vec4(1.0, t.y, 0.0, 1.0);
    } else {
        d = 1.0 - t.y;
        o = vec4(0.0, t.x, 1.0, 1.0);
    }
    gl_FragDepth = d;
}
