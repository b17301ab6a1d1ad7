#version 450
// piglit tests/spec/arb_compute_shader/execution/basic-uniform-access.shader_test, its first
// dispatch, converted by hand: the default-block uniform `color` is a std140 uniform block at
// binding 14 (as tools/agx/piglit_compute.py does; the GL state tracker's
// nir_lower_uniforms_to_ubo), the image (unit 0, GL_RGBA8) is image unit 1 with its format
// written. Piglit's probe: every texel (1, 0, 0, 0).
// groups: 1
// buffer: 14 ubo f32 1.0 0.0 0.0 0.0
// image: 1 2d rgba8 16 16 1 rgbw 16
// probe image: 1 256 0x000000ff
layout(binding = 14, std140) uniform Uniforms { vec4 color; };
layout(binding = 1, rgba8) writeonly uniform image2D tex;
layout(local_size_x = 16, local_size_y = 16) in;
void main()
{
    ivec2 coord = ivec2(gl_GlobalInvocationID.xy);
    imageStore(tex, coord, color);
}
