// Exercises real (non-inlined) function calls: the AMDGPU call ABI (s_swappc/s_setpc), stack arguments beyond the register limit, a by-reference out-parameter and a struct return.
typedef struct { uint lo; uint hi; float f; } Pair;

__attribute__((noinline)) uint mix3(uint a, uint b, uint c)
{
    a -= c; a ^= rotate(c, 4u); c += b;
    b -= a; b ^= rotate(a, 6u); a += c;
    return a ^ b ^ c;
}

__attribute__((noinline)) Pair make_pair(uint x, float y, __private uint *count)
{
    Pair p;
    p.lo = x & 0xffffu;
    p.hi = x >> 16;
    p.f = y * 2.0f;
    *count += 1u;
    return p;
}

__attribute__((noinline)) uint many_args(uint a0, uint a1, uint a2, uint a3, uint a4, uint a5, uint a6, uint a7,
                                         uint a8, uint a9, uint a10, uint a11, uint a12, uint a13, uint a14, uint a15,
                                         uint a16, uint a17, uint a18, uint a19, uint a20, uint a21, uint a22, uint a23,
                                         uint a24, uint a25, uint a26, uint a27, uint a28, uint a29, uint a30, uint a31,
                                         uint a32, uint a33, uint a34, uint a35)
{
    return a0 + 3u * a1 + 5u * a2 + 7u * a3 + (a4 ^ a5) + (a6 | a7) + a8 * a9 + a10 - a11 + (a12 & a13) + a14 + a15 +
           a16 + a17 * 2u + a18 + a19 + a20 + a21 + a22 + a23 + a24 * a25 + a26 + a27 + a28 + a29 + a30 + (a31 << 1) +
           a32 * 11u + a33 * 13u + a34 * 17u + a35 * 19u;
}

__kernel void calls(__global const uint *in, __global uint *out, __global float *fout, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uint x = in[i];
    uint count = 0u;
    uint m = mix3(x, x * 3u, i);
    Pair p = make_pair(m, (float)(x & 1023u), &count);
    Pair q = make_pair(x, 0.5f, &count);
    uint s = many_args(x, x + 1u, x + 2u, x + 3u, x + 4u, x + 5u, x + 6u, x + 7u, x + 8u, x + 9u, x + 10u, x + 11u,
                       x + 12u, x + 13u, x + 14u, x + 15u, x + 16u, x + 17u, x + 18u, x + 19u, x + 20u, x + 21u, x + 22u,
                       x + 23u, x + 24u, x + 25u, x + 26u, x + 27u, x + 28u, x + 29u, x + 30u, x + 31u, x + 32u, x + 33u,
                       x + 34u, m);
    out[4u * i] = m;
    out[4u * i + 1u] = p.lo + (p.hi << 16) + q.hi;
    out[4u * i + 2u] = s;
    out[4u * i + 3u] = count;
    fout[i] = p.f + q.f;
}
