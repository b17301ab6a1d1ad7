#version 450
// blend: add
// clear: 0.2 0.0 0.4 1.0
// Additive blending (ONE, ONE) in the FS epilog, saturating at 1 in the unorm target.
layout(location = 0) in vec4 a;
layout(location = 1) in vec2 b;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(a.r * 0.5, b.x * b.y, a.b, a.a * 0.25);
}
