#version 450
// samples: 4
// gl_SampleMask written per pixel: samples outside the mask keep the clear colour
// clear: 0.2 0.4 0.6 0.8
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    ivec2 p = ivec2(gl_FragCoord.xy);
    gl_SampleMask[0] = (p.x + 3 * p.y) & 15;
    o = vec4(v.xyz, 1.0);
}
