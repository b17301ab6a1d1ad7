#version 450
// texelFetch from an ASTC 4x4 texture (16x12 texels: 4x3 blocks, the first 12 blocks ARM's
// astcenc encoded in corpus/agx/astc/astcenc_golden.txt at 4x4, linear LDR): the texture unit
// returns each texel's UNORM16 result converted to FP16 (exec/astc). llvmpipe has no ASTC: Mesa's
// GL state tracker decodes the blocks to RGBA8 for it (its own decoder), so the comparison holds
// within 1/255 + 2^-11 (8-bit against 16-bit results, and FP16 truncation); the exact values are
// checked against astcenc by exec::astc's tests.
// groups: 1
// compare: 0 abs 0.0044
// buffer: 0 ssbo zero 768
// texture: 1 2d astc4x4 16 12 1 words 0x90139042 0x12a52f6a 0x17365955 0x27272727 0x1bc18452 0xb0a1a8e0 0x2f7ed1bf 0xa1802974 0xa3c38452 0x9f612dcd 0x9b086654 0x61b117a8 0x35cd0042 0xe4cd6666 0x00000001 0xc0f0fcff 0x72548452 0x3099c8cf 0xb8a5da04 0xa4f986bf 0x6be58851 0x01be064a 0xa3979e10 0x4603b284 0x90139042 0x12a52f6a 0x17365955 0x27272727 0x1bc18452 0xb0a1a8e0 0x2f7ed1bf 0xa1802974 0xe54b8452 0x4819e275 0x0205ea47 0xcc7caf96 0x35cd0042 0xe4cd6666 0x00000001 0xc0f0fcff 0x76548452 0x3099c8cf 0xb8a5da04 0xa4f986bf 0x6be58851 0x0540064a 0x63979e10 0x4603f944
layout(local_size_x = 16, local_size_y = 12) in;
layout(binding = 0, std430) buffer Out { vec4 o[]; };
layout(binding = 1) uniform sampler2D tex;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    o[p.y * 16 + p.x] = texelFetch(tex, p, 0);
}
