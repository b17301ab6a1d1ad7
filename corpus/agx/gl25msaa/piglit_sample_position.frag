#version 450
// samples: 4
// ubo: 0 f32 4 0 0 0 0.375 0.125 0 0 0.875 0.375 0 0 0.125 0.625 0 0 0.625 0.875 0 0
// piglit tests/spec/arb_sample_shading/execution/builtin-gl-sample-position.cpp's shader in
// GLSL 4.50: green where gl_SamplePosition is the expected position of gl_SampleID (here the
// standard 4-sample positions, llvmpipe's and Mesa's agx_default_sample_positions alike; vec4
// elements for std140)
layout(binding = 0) uniform B { int samples; vec4 expected_pos[4]; };
layout(location = 0) out vec4 o;
void main() {
    if ((expected_pos[gl_SampleID].xy == gl_SamplePosition) ||
        (samples == 0 && gl_SamplePosition == vec2(0.5, 0.5)))
        o = vec4(0.0, 1.0, 0.0, 1.0);
    else
        o = vec4(1.0, 0.0, 0.0, 1.0);
}
