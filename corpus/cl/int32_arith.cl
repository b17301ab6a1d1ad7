// Exercises 32-bit integer ALU: add/sub/mul, shifts, bit ops, mul_hi, mul24/mad24, abs/sat/hadd, min/max/clamp, compares, division by constants.
__kernel void int32_arith(__global const uint *a, __global const uint *b, __global uint *out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    uint x = a[i], y = b[i];
    int sx = (int)x, sy = (int)y;
    uint s = y & 31u;
    __global uint *o = out + i * 32u;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = x << s;
    o[4] = x >> s;
    o[5] = (uint)(sx >> s);
    o[6] = x & y;
    o[7] = x | y;
    o[8] = x ^ y;
    o[9] = ~x;
    o[10] = mul_hi(x, y);
    o[11] = (uint)mul_hi(sx, sy);
    o[12] = mul24(x & 0xffffffu, y & 0xffffffu);
    o[13] = (uint)mad24((int)(x << 8) >> 8, (int)(y << 8) >> 8, sx);
    o[14] = (uint)abs(sx);
    o[15] = abs_diff(sx, sy);
    o[16] = add_sat(x, y);
    o[17] = (uint)add_sat(sx, sy);
    o[18] = sub_sat(x, y);
    o[19] = (uint)sub_sat(sx, sy);
    o[20] = hadd(x, y);
    o[21] = rhadd(x, y);
    o[22] = min(x, y);
    o[23] = (uint)max(sx, sy);
    o[24] = (uint)clamp(sx, -100000, 100000);
    o[25] = (uint)(sx < sy) | ((uint)(x < y) << 1) | ((uint)(x == y) << 2) | ((uint)(sx >= sy) << 3) | ((uint)(x != y) << 4);
    o[26] = x * 0x9E3779B9u + 12345u;
    o[27] = x / 10u;
    o[28] = x % 1000u;
    o[29] = (uint)(sx / -7);
    o[30] = (uint)(sx % 13);
    o[31] = (uint)(sx / 16) + (x >> 3) * 5u - (x << 30);
}
