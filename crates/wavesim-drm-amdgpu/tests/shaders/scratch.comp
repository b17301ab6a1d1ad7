#version 450
// A private array indexed by data (too large and dynamic for registers): ACO puts it in
// scratch memory (RSRC2.SCRATCH_EN, COMPUTE_TMPRING_SIZE, the dispatch's scratch base).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer B { uint b[]; };
void main() {
    uint g = gl_GlobalInvocationID.x;
    uint priv[96];
    for (uint k = 0u; k < 96u; k++) priv[k] = a[(g + k) & 255u] ^ k;
    uint acc = 0u;
    uint j = a[g] % 96u;
    for (uint k = 0u; k < 32u; k++) {
        acc += priv[j] * (k + 1u);
        j = (priv[j] + k) % 96u;
    }
    b[g] = acc;
}
