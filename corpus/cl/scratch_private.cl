// Exercises private arrays indexed dynamically (scratch memory): a 64-entry table filled and permuted with data-dependent indices, and an insertion sort of a private array.
__kernel void scratch_private(__global const uint *in, __global uint *out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uint seed = in[i];
    uint t[64];
    uint k[16];
    #pragma unroll 1
    for (uint j = 0; j < 64u; j++)
        t[j] = seed * (j + 1u) ^ (j << 20);
    uint x = seed;
    #pragma unroll 1
    for (uint r = 0; r < 32u; r++) {
        x = x * 1664525u + 1013904223u;
        uint a = x >> 26, b = (x >> 20) & 63u;
        uint tmp = t[a];
        t[a] = t[b] + r;
        t[b] = tmp;
    }
    for (uint j = 0; j < 16u; j++)
        k[j] = t[(seed + j * 7u) & 63u] >> 8;
    for (int j = 1; j < 16; j++) {
        uint key = k[j];
        int m = j - 1;
        while (m >= 0 && k[m] > key) {
            k[m + 1] = k[m];
            m--;
        }
        k[m + 1] = key;
    }
    uint h = 0u;
    #pragma unroll 1
    for (uint j = 0; j < 64u; j++)
        h = h * 31u + t[j];
    __global uint *o = out + i * 18u;
    o[0] = h;
    o[1] = t[seed & 63u];
    for (uint j = 0; j < 16u; j++)
        o[2u + j] = k[j];
}
