#version 450
// samples: 4
// blend: add
// clear: 0.2 0.4 0.6 0.8
// blending ONE/ONE over a cleared 4-sample tile: the epilog loads and stores each sample
// (ld_tile and st_tile of one sample each)
layout(location = 0) in vec4 v;
layout(location = 0) out vec4 o;
void main() {
    o = vec4(v.x * 0.5, v.y * 0.25, 0.125, v.w * 0.1);
}
