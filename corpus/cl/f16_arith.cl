// Exercises f16 (half): scalar and half2 (packed) arithmetic, fma, min/max, compares, half<->float/int conversions, vload_half/vstore_half rounding modes.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL FP_CONTRACT OFF
__kernel void f16_arith(__global const half *a, __global const half *b, __global const half *c,
                        __global half *out, __global half *out2, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    half x = a[i], y = b[i], z = c[i];
    __global half *o = out + i * 10u;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = fma(x, y, z);
    o[4] = fmin(x, y);
    o[5] = fmax(y, z);
    o[6] = fabs(x) * (half)0.5f;
    o[7] = (x < y) ? z : -z;
    o[8] = floor(x);
    o[9] = rint(y);
    out2[2u * i] = x / y;
    out2[2u * i + 1u] = sqrt(fabs(z));
}

__kernel void f16_vec(__global const half2 *a, __global const half2 *b, __global half2 *out, half k, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    half2 x = a[i], y = b[i];
    __global half2 *o = out + i * 4u;
    o[0] = x + y;
    o[1] = x * y;
    o[2] = fma(x, y, (half2)(k, -k));
    o[3] = fmax(x, y) - (half2)(k);
}

__kernel void f16_convert(__global const half *a, __global const float *f, __global float *of, __global int *oi,
                          __global half *oh, __global ushort *ob, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    half x = a[i];
    float y = f[i];
    of[i] = (float)x * 3.0f;
    oi[2u * i] = convert_int(x);
    oi[2u * i + 1u] = convert_int_rte(x * (half)8.0f);
    oh[2u * i] = convert_half(y);
    oh[2u * i + 1u] = convert_half((int)(y * 16.0f));
    vstore_half_rtz(y, 4u * i, (__global half *)ob);
    vstore_half_rtp(y, 4u * i + 1u, (__global half *)ob);
    vstore_half_rtn(y, 4u * i + 2u, (__global half *)ob);
    vstore_half(vload_half(i, a) + 1.0f, 4u * i + 3u, (__global half *)ob);
}
