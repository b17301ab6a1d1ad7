#version 450
// Nested if/else on two varyings (the r0l exec-mask stack).
layout(location = 0) in vec2 t;
layout(location = 0) out vec4 o;
void main() {
    vec4 c = vec4(0.0);
    if (t.x < 0.5) {
        if (t.y < 0.5)
            c = vec4(1.0, 0.0, 0.0, 1.0);
        else
            c = vec4(0.0, 1.0, 0.0, 1.0);
    } else if (t.y < 0.4) {
        c = vec4(0.0, 0.0, 1.0, 1.0);
    } else {
        c = vec4(t, t.x * t.y, 1.0);
    }
    o = c;
}
