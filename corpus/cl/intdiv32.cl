// Exercises 32-bit integer division and remainder, signed and unsigned, by variables and by constants.
__kernel void intdiv32(__global const uint *a, __global const uint *b, __global uint *out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uint x = a[i], y = b[i];
    int sx = (int)x, sy = (int)y;
    __global uint *o = out + i * 8u;
    o[0] = x / y;
    o[1] = x % y;
    o[2] = (uint)(sx / sy);
    o[3] = (uint)(sx % sy);
    o[4] = x / 7u;
    o[5] = (uint)(sx % -9);
    o[6] = x / (y >> 8 | 1u);
    o[7] = (uint)(sx / (sy | 3));
}
