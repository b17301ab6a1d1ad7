#version 450
// imageStore to 2D images of three formats (RGBA8 with values k / 255, R32F, R32UI) and a
// read-modify-write of an RGBA16F image (imageLoad then imageStore of the same texel, scaled
// by factors exact in FP16, so no rounding rule of the store decides).
// groups: 1
// buffer: 0 ssbo zero 16
// image: 1 2d rgba8 8 8 1 zero
// image: 2 2d r32f 8 8 1 zero
// image: 3 2d r32ui 8 8 1 randu
// image: 4 2d rgba16f 8 8 1 randh -100 100
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, std430) buffer Out { uint o[]; };
layout(binding = 1, rgba8) uniform writeonly image2D a;
layout(binding = 2, r32f) uniform writeonly image2D b;
layout(binding = 3, r32ui) uniform uimage2D c;
layout(binding = 4, rgba16f) uniform image2D d;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = uint(p.y * 8 + p.x);
    imageStore(a, p, vec4(float(i * 3u), float(255u - i), float(i * i % 256u), 128.0) / 255.0);
    imageStore(b, p.yx, vec4(float(i) * 0.375 - 7.0));
    imageStore(c, p, uvec4(imageLoad(c, p).x * 3u + i));
    vec4 v = imageLoad(d, p);
    imageStore(d, p, v.wzyx * vec4(-1.0, 2.0, 1.0, -2.0));
    if (i == 0u)
        o[0] = 1u;
}
