#version 450
// samples: 4
// piglit tests/spec/arb_sample_shading/execution/builtin-gl-sample-mask-simple.cpp, its drawing
// shader (frag_0) in GLSL 4.50
layout(location = 0) out vec4 o;
void main() {
    gl_SampleMask[0] = int(gl_FragCoord.x);
    o = vec4(1.0, 0.0, 0.0, 0.0);
}
