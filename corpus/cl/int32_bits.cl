// Exercises 32-bit bit manipulation: popcount, clz, ctz, rotate, bitfield extract/insert, bitselect, byte swap, bit reverse, upsample.
__kernel void int32_bits(__global const uint *a, __global const uint *b, __global uint *out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uint x = a[i], y = b[i];
    __global uint *o = out + i * 16u;
    o[0] = popcount(x);
    o[1] = clz(x);
    o[2] = ctz(x);
    o[3] = rotate(x, y);
    o[4] = rotate(x, 13u);
    o[5] = (x >> 5) & 0x3ffu;
    o[6] = (uint)(((int)(x << 7)) >> 20);
    o[7] = (x & ~(0xffu << 8)) | ((y & 0xffu) << 8);
    o[8] = bitselect(x, y, 0x0f0f0f0fu ^ (x >> 4));
    o[9] = ((x & 0xffu) << 24) | ((x & 0xff00u) << 8) | ((x >> 8) & 0xff00u) | (x >> 24);
    o[10] = __builtin_bitreverse32(x);
    o[11] = upsample((ushort)(x & 0xffffu), (ushort)(y >> 16));
    o[12] = popcount(x & y) + clz(x | 1u) * 100u;
    o[13] = (uint)clz((int)y) + (uint)popcount((int)x) * 64u;
    o[14] = x & (x - 1u);
    o[15] = x & (0u - x);
}
