// Exercises f32 arithmetic without contraction: add/sub/mul, explicit fma, fmin/fmax, fabs/neg/copysign, rounding functions, compare + select.
#pragma OPENCL FP_CONTRACT OFF
__kernel void f32_arith(__global const float *a, __global const float *b, __global const float *c,
                        __global float *out, __global int *flags, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float x = a[i], y = b[i], z = c[i];
    __global float *o = out + i * 20u;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = fma(x, y, z);
    o[4] = x * y + z;
    o[5] = fmin(x, y);
    o[6] = fmax(x, z);
    o[7] = fabs(x);
    o[8] = -y;
    o[9] = copysign(x, y);
    o[10] = floor(x);
    o[11] = ceil(x);
    o[12] = trunc(x);
    o[13] = rint(x);
    o[14] = round(x);
    o[15] = (x < y) ? z : x;
    o[16] = (x >= z) ? x - z : z - x;
    o[17] = fma(-x, 0.5f, y * 3.0f);
    o[18] = x * 0.25f + 1.0f;
    o[19] = fdim(x, y);
    flags[i] = (int)(x < y) | ((int)(x <= y) << 1) | ((int)(x == y) << 2) | ((int)(x != z) << 3) |
               ((int)isgreater(x, z) << 4) | ((int)(fabs(x) > 1.0f) << 5) | (signbit(x) << 6);
}
