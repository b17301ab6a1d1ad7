#version 450
// A 32x32 tile transposed through shared memory (one thread per column, loops over rows), then a
// matrix-vector product from the transposed tile.
// groups: 2
// buffer: 0 ssbo randu 2048 0xffff
// buffer: 1 ssbo zero 2048
// buffer: 2 ssbo zero 64
layout(local_size_x = 32) in;
layout(std430, binding = 0) readonly buffer In { uint m[]; };
layout(std430, binding = 1) buffer T { uint t[]; };
layout(std430, binding = 2) buffer V { uint r[]; };
shared uint tile[32][33];
void main() {
    uint c = gl_LocalInvocationID.x, base = gl_WorkGroupID.x * 1024u;
    for (uint row = 0u; row < 32u; row++) tile[row][c] = m[base + row * 32u + c];
    barrier();
    uint acc = 0u;
    for (uint row = 0u; row < 32u; row++) {
        t[base + row * 32u + c] = tile[c][row];
        acc += tile[c][row] * (row + 1u);
    }
    r[gl_GlobalInvocationID.x] = acc;
}
