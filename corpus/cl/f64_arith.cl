// Exercises f64 arithmetic: add/sub/mul/div (correctly rounded), sqrt, fma, min/max, rounding, compares, f64<->f32 and f64<->i64/i32 conversions.
#pragma OPENCL FP_CONTRACT OFF
__kernel void f64_arith(__global const double *a, __global const double *b, __global const double *c,
                        __global double *out, __global float *of, __global long *ol, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    double x = a[i], y = b[i], z = c[i];
    __global double *o = out + i * 14u;
    o[0] = x + y;
    o[1] = x - y;
    o[2] = x * y;
    o[3] = x / y;
    o[4] = sqrt(fabs(x));
    o[5] = fma(x, y, z);
    o[6] = fmin(x, y);
    o[7] = fmax(x, z);
    o[8] = floor(x);
    o[9] = ceil(y);
    o[10] = rint(x * 10.0);
    o[11] = trunc(z);
    o[12] = (x < y) ? z : -x;
    o[13] = convert_double(convert_float(x)) + (double)(int)z + (double)(uint)fabs(y);
    of[2u * i] = convert_float(x);
    of[2u * i + 1u] = convert_float_rtz(y);
    ol[2u * i] = convert_long(x * 1.0e6);
    ol[2u * i + 1u] = (long)(int)rint(z) + (long)convert_double((long)(y * 1.0e15));
}
