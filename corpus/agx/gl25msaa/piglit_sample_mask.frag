#version 450
// samples: 4
// piglit tests/spec/arb_sample_shading/execution/builtin-gl-sample-mask.cpp, its drawing
// shader (frag_0) in GLSL 4.50: gl_SampleMask from the window position
layout(location = 0) out vec4 o;
void main() {
    gl_SampleMask[0] = (int(gl_FragCoord.x) * 0x10204081) ^ (int(gl_FragCoord.y) * 0x01010101);
    o = vec4(0.0, 1.0, 0.0, 1.0);
}
