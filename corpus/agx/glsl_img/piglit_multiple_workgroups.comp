#version 450
// piglit tests/spec/arb_compute_shader/execution/multiple-workgroups.shader_test, its second
// dispatch (2 x 2 groups), converted by hand as piglit_basic_uniform_access.comp. Piglit
// probes every texel == (0, 0, 1, 0).
// groups: 2 2 1
// buffer: 14 ubo f32 0.0 0.0 1.0 0.0
// image: 1 2d rgba8 16 16 1 rgbw 16
// probe image: 1 256 0x00ff0000
layout(binding = 14, std140) uniform Uniforms { vec4 color; };
layout(binding = 1, rgba8) writeonly uniform image2D tex;
layout(local_size_x = 8, local_size_y = 8) in;
void main()
{
    ivec2 coord = ivec2(gl_GlobalInvocationID.xy);
    imageStore(tex, coord, color);
}
