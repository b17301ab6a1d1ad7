#version 450
// A 2D-array image: imageStore to each layer, and imageLoad of a second array image (array
// loads read the descriptor through the driver's bindless table: the layer is clamped to the
// layer count).
// groups: 1
// buffer: 0 ssbo zero 192
// image: 1 2darray r32ui 4 4 3 zero
// image: 2 2darray rgba32f 4 4 3 randf -50 50
layout(local_size_x = 4, local_size_y = 4, local_size_z = 3) in;
layout(binding = 0, std430) buffer Out { vec4 o[]; };
layout(binding = 1, r32ui) uniform writeonly uimage2DArray a;
layout(binding = 2, rgba32f) uniform readonly image2DArray b;
void main() {
    ivec3 p = ivec3(gl_GlobalInvocationID);
    uint i = uint(p.z * 16 + p.y * 4 + p.x);
    imageStore(a, p, uvec4(i * 0x01010101u + uint(p.z) * 7u));
    o[i] = imageLoad(b, ivec3(p.y, p.x, 2 - p.z));
}
