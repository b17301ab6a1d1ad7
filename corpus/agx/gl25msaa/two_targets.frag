#version 450
// samples: 4
// rts: 2
// two RGBA8 render targets at 4 samples under sample shading: the epilog's st_tile of each
// target's sample, the end-of-tile program's two multisampled block stores
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o0;
layout(location = 1) out vec4 o1;
void main() {
    float s = float(gl_SampleID);
    o0 = vec4(v.x, s / 4.0, v.y, 1.0);
    o1 = vec4(1.0 - v.x, v.z, s / 8.0, 0.5);
}
