#version 450
// samples: 4
// piglit tests/spec/arb_sample_shading/execution/builtin-gl-sample-id.cpp, its drawing shader
// (frag_0) in GLSL 4.50; piglit's integer target ivec4(0, gl_SampleID, 0, 1) becomes the RGBA8
// unorm bytes (0, gl_SampleID, 0, 255) here
layout(location = 0) out vec4 o;
void main() {
    o = vec4(0.0, float(gl_SampleID) / 255.0, 0.0, 1.0);
}
