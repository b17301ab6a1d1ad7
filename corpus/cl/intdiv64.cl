// Exercises 64-bit integer division and remainder, signed and unsigned, including 64/32-bit mixed operands and constant divisors.
__kernel void intdiv64(__global const ulong *a, __global const ulong *b, __global ulong *out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    ulong x = a[i], y = b[i];
    long sx = (long)x, sy = (long)y;
    __global ulong *o = out + i * 8u;
    o[0] = x / y;
    o[1] = x % y;
    o[2] = (ulong)(sx / sy);
    o[3] = (ulong)(sx % sy);
    o[4] = x / (ulong)(uint)(y | 1ul);
    o[5] = x / 1000000007ul;
    o[6] = (ulong)(sx % -12345l);
    o[7] = (ulong)(sx / ((sy >> 40) | 1l));
}
