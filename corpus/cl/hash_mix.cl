// Exercises an integer hash loop: many rounds of xorshift32, murmur3 fmix32 and splitmix64 mixing (32/64-bit mul, shifts, xor, rotates).
__kernel void hash_mix(__global const uint *seeds, __global uint *out32, __global ulong *out64, uint rounds, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uint x = seeds[i] | 1u;
    uint h = seeds[i] ^ 0x9747b28cu;
    ulong z = ((ulong)seeds[i] << 32) | i;
    for (uint r = 0; r < rounds; r++) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        uint k = x * 0xcc9e2d51u;
        k = rotate(k, 15u) * 0x1b873593u;
        h ^= k;
        h = rotate(h, 13u) * 5u + 0xe6546b64u;
        z += 0x9E3779B97F4A7C15ul;
        ulong q = z;
        q = (q ^ (q >> 30)) * 0xBF58476D1CE4E5B9ul;
        q = (q ^ (q >> 27)) * 0x94D049BB133111EBul;
        z ^= q ^ (q >> 31);
    }
    h ^= h >> 16;
    h *= 0x85ebca6bu;
    h ^= h >> 13;
    h *= 0xc2b2ae35u;
    h ^= h >> 16;
    out32[2u * i] = x;
    out32[2u * i + 1u] = h;
    out64[i] = z;
}
