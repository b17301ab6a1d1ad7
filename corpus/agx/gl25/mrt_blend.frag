#version 450
// rts: 2
// blend: alpha
// clear: 0.4 0.2 0.0 0.6
// Two render targets, each alpha-blended over the cleared tile.
layout(location = 0) in vec4 a;
layout(location = 1) in vec4 b;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
void main() {
    o0 = a;
    o1 = vec4(b.rgb, 1.0 - a.a);
}
