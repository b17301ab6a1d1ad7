#version 450
// piglit tests/spec/arb_compute_shader/execution/multiple-texture-reading.shader_test, its
// last dispatch (select_textures 3), converted by hand: `select_textures` is a std140 uniform
// block at binding 14, src0/src1/dst (units 0-2, GL_RGBA8) image units 1-3, src0 and src1
// cleared to (1, 0, 1, 0) and (0, 1, 0, 1) and dst to 0.5 (0x80) as piglit's `clear`s leave them.
// Piglit's probe: every texel of dst (1, 1, 1, 1).
// groups: 1
// buffer: 14 ubo words 3 0 0 0
// image: 1 2d rgba8 16 16 1 fill 0x00ff00ff
// image: 2 2d rgba8 16 16 1 fill 0xff00ff00
// image: 3 2d rgba8 16 16 1 fill 0x80808080
// probe image: 3 256 0xffffffff
layout(binding = 14, std140) uniform Uniforms { int select_textures; };
layout(binding = 1, rgba8) readonly uniform image2D src0;
layout(binding = 2, rgba8) readonly uniform image2D src1;
layout(binding = 3, rgba8) writeonly uniform image2D dst;
layout(local_size_x = 16, local_size_y = 16) in;
void main()
{
    ivec2 coord = ivec2(gl_GlobalInvocationID.xy);
    vec4 color = vec4(0, 0, 0, 0);
    if ((select_textures & 1) == 1) {
        color += imageLoad(src0, coord);
    }
    if ((select_textures & 2) == 2) {
        color += imageLoad(src1, coord);
    }
    imageStore(dst, coord, color);
}
