#version 450
// blend: alpha
// clear: 0.2 0.4 0.6 0.8
// Alpha blending in the FS epilog over a cleared tile: o.rgb * o.a + clear.rgb * (1 - o.a).
layout(location = 0) in vec4 a;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(a.rgb, clamp(a.a * 1.5 - 0.3, 0.0, 1.0));
}
