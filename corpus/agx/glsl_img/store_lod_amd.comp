#version 450
#extension GL_AMD_shader_image_load_store_lod : require
// imageStoreLodAMD (SPV_AMD_shader_image_load_store_lod): Mesa 25.0.7's asahi compiler compiles
// it into image_write with the LOD in a register (legalize_image_lod narrows it to 16 bits),
// though no asahi driver exposes the extension. How the hardware combines a nonzero LOD with
// the PBE's Level has no public source, so wavesim stops on it; llvmpipe lacks the extension.
// groups: 1
// reference: none
// expect error: image_write at LOD 1
// image: 1 2d r32ui 8 8 1 zero
layout(local_size_x = 4, local_size_y = 4) in;
layout(binding = 1, r32ui) uniform writeonly uimage2D img;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStoreLodAMD(img, p, 1, uvec4(uint(p.x + 4 * p.y)));
}
