#version 450
// samples: 2
// ubo: 0 words 0
// piglit tests/spec/arb_gpu_shader5/execution/samplemaskin-indirect.shader_test's fragment
// shader in GLSL 4.50 (the uniform `zero` in a block), drawn at 2 samples
layout(binding = 0) uniform B { int zero; };
layout(location = 0) out vec4 color;
void main() {
    color = vec4(1.0, 0.0, 0.0, 1.0);
    if (gl_SampleMaskIn[zero] == 3) {
        color.rg = vec2(0.0, 1.0);
    }
    if (zero == 1)
        color = vec4(0.0, 0.0, 0.0, 1.0);
}
