// Exercises correctly rounded f32 division and sqrt (built with -cl-fp32-correctly-rounded-divide-sqrt): div_scale/div_fmas/div_fixup and the exact sqrt sequence.
// build-flags: -cl-fp32-correctly-rounded-divide-sqrt
__kernel void f32_divsqrt_cr(__global const float *a, __global const float *b, __global float *out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    out[3u * i] = x / y;
    out[3u * i + 1u] = sqrt(x);
    out[3u * i + 2u] = 1.0f / y;
}
