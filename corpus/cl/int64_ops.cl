// Exercises 64-bit integer ops: add/sub/mul, variable shifts, compares/selects, mul_hi, popcount/clz, rotate, min/max, widening 32x32->64 multiply.
__kernel void int64_ops(__global const ulong *a, __global const ulong *b, __global ulong *out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    ulong x = a[i], y = b[i];
    long sx = (long)x, sy = (long)y;
    uint s = (uint)(y & 63ul);
    __global ulong *o = out + i * 24u;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = x << s;
    o[4] = x >> s;
    o[5] = (ulong)(sx >> s);
    o[6] = (x & y) ^ (x | ~y);
    o[7] = mul_hi(x, y);
    o[8] = (ulong)mul_hi(sx, sy);
    o[9] = (ulong)(uint)x * (ulong)(uint)y;
    o[10] = (ulong)((long)(int)x * (long)(int)y);
    o[11] = (sx < sy) ? x : y;
    o[12] = (x < y) ? x + 1ul : y - 1ul;
    o[13] = (ulong)(x == y) | ((ulong)(sx > sy) << 1) | ((ulong)(x >= y) << 2) | ((ulong)(sx <= 0l) << 3);
    o[14] = popcount(x) + (clz(x) << 8) + ((ulong)popcount(y) << 16);
    o[15] = rotate(x, (ulong)s);
    o[16] = min(x, y);
    o[17] = (ulong)max(sx, sy);
    o[18] = (ulong)abs(sx);
    o[19] = x * 0x9E3779B97F4A7C15ul + 0x1234567890ul;
    o[20] = (x >> 32) | (y << 32);
    o[21] = (ulong)(long)(int)(x >> 16);
    o[22] = add_sat(x, y);
    o[23] = (ulong)sub_sat(sx, sy);
}
