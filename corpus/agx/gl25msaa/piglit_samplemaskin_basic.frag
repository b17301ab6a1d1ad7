#version 450
// samples: 4
// piglit tests/spec/arb_gpu_shader5/execution/samplemaskin-basic.shader_test's fragment shader
// in GLSL 4.50, drawn multisampled: without sample shading gl_SampleMaskIn holds every covered
// sample (0xf), so the colour stays red
layout(location = 0) out vec4 color;
void main() {
    color = vec4(1.0, 0.0, 0.0, 1.0);
    if (gl_SampleMaskIn[0] == 1) {
        color.rg = vec2(0.0, 1.0);
    }
}
