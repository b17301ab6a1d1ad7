#version 450
// samples: 4
// gl_FragDepth per pixel in a 4-sample framebuffer: the epilog's zs_emit 0xff gives every
// sample the pixel's depth
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(v.xyz, 1.0);
    gl_FragDepth = v.x * 0.5 + v.y * 0.25;
}
