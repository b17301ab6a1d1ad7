#version 450
// rts: 2
// Two render targets: the epilog stores both tile records, the end-of-tile program both images.
layout(location = 0) in vec4 a;
layout(location = 1) in vec3 b;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
void main() {
    o0 = vec4(a.rgb * b, 1.0);
    o1 = vec4(b.zyx, a.a * a.r);
}
