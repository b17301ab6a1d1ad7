#version 450
// imageLoad from 2D images of three formats (RGBA8, R32UI, R32F) on image units 2-4: RGBA8 as
// floats in buffer 0, the others' bits in buffer 1.
// groups: 1
// compare: 0 f32
// buffer: 0 ssbo zero 256
// buffer: 1 ssbo zero 128
// image: 2 2d rgba8 8 8 1 randu
// image: 3 2d r32ui 8 8 1 randu
// image: 4 2d r32f 8 8 1 randf -5 5
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, std430) buffer Out { vec4 o[]; };
layout(binding = 1, std430) buffer Bits { uint u[]; };
layout(binding = 2, rgba8) uniform readonly image2D a;
layout(binding = 3, r32ui) uniform readonly uimage2D b;
layout(binding = 4, r32f) uniform readonly image2D c;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = uint(p.y * 8 + p.x);
    o[i] = imageLoad(a, p);
    u[i] = imageLoad(b, p).x;
    u[64u + i] = floatBitsToUint(imageLoad(c, p.yx).x);
}
