// Exercises f32 <-> integer conversions with all rounding modes and saturation (convert_*_rt?, convert_*_sat), plus 64-bit int <-> float.
__kernel void f32_to_int(__global const float *a, __global int *oi, __global uint *ou, __global long *ol, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float x = a[i];
    __global int *p = oi + i * 8u;
    p[0] = convert_int(x);
    p[1] = convert_int_rte(x);
    p[2] = convert_int_rtn(x);
    p[3] = convert_int_rtp(x);
    p[4] = convert_int_sat(x * 1000.0f);
    p[5] = (int)convert_char_sat(x);
    p[6] = (int)convert_short_sat_rte(x * 100.0f);
    p[7] = (int)convert_uchar_sat_rtz(x);
    __global uint *q = ou + i * 2u;
    q[0] = convert_uint_sat(x * 1.0e8f);
    q[1] = convert_uint_sat_rte(x * 3.0f);
    __global long *r = ol + i * 2u;
    r[0] = convert_long(x * 1.0e9f);
    r[1] = (long)convert_ulong_sat(x * 1.0e12f);
}

__kernel void int_to_f32(__global const int *a, __global const long *b, __global float *out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    int x = a[i];
    long y = b[i];
    __global float *o = out + i * 8u;
    o[0] = convert_float(x);
    o[1] = convert_float_rtz(x);
    o[2] = convert_float_rtn(x);
    o[3] = convert_float((uint)x);
    o[4] = convert_float_rtp((uint)x);
    o[5] = convert_float(y);
    o[6] = convert_float((ulong)y);
    o[7] = convert_float_rtz(y);
}
