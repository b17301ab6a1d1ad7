#version 450
// llvmpipe's reference for store_lod_amd.comp (tools/agx/glsl_compute_corpus.py, `// reference:`):
// llvmpipe has no GL_AMD_shader_image_load_store_lod, so the store at LOD 1 of an image bound at
// level 1 is written as the extension defines it, a plain imageStore to the image bound at
// level 2.
layout(local_size_x = 4, local_size_y = 4) in;
layout(binding = 1, r32ui) uniform writeonly uimage2D img;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(img, p, uvec4(uint(p.x + 4 * p.y)));
}
