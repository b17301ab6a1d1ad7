#version 450
#extension GL_AMD_shader_image_load_store_lod : require
// imageStoreLodAMD (SPV_AMD_shader_image_load_store_lod): Mesa 25.0.7's asahi compiler compiles
// it into image_write with the LOD in a register (legalize_image_lod narrows it to 16 bits),
// though no asahi driver exposes the extension. How the hardware combines a nonzero LOD with
// the PBE's Level has no public source: without the opt-in wavesim stops on it; under it, the
// extension's intent (the LOD relative to the view's level): the image is bound at level 1 of
// its 5 (16x16 .. 1x1), so LOD 1 writes level 2 (4x4), and every other level keeps its words.
// llvmpipe lacks the extension: its reference is store_lod_amd.ref.glsl, imageStore to the same
// image bound at level 2.
// groups: 1
// approximate
// expect error without the opt-in: image_write at LOD 1
// reference: store_lod_amd.ref.glsl
// image: 1 2d r32ui 16 16 1 levels=5,1,2 iota 4096
layout(local_size_x = 4, local_size_y = 4) in;
layout(binding = 1, r32ui) uniform writeonly uimage2D img;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStoreLodAMD(img, p, 1, uvec4(uint(p.x + 4 * p.y)));
}
