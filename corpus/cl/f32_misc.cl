// Exercises exact f32 library functions: frexp, ldexp, ilogb, logb, nextafter, fract, modf, fmod, remainder, and classification (isnan/isinf/isnormal/signbit).
__kernel void f32_misc(__global const float *a, __global const float *b, __global float *out, __global int *iout, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    float x = a[i], y = b[i];
    __global float *o = out + i * 10u;
    __global int *p = iout + i * 4u;
    p[0] = isnan(x) | (isinf(x) << 1) | (isfinite(x) << 2) | (isnormal(x) << 3) | (signbit(x) << 4) | (isless(x, y) << 5);
    if (!isfinite(x) || x == 0.0f) {
        for (int k = 0; k < 10; k++)
            o[k] = 0.0f;
        p[1] = p[2] = p[3] = 0;
        return;
    }
    int e;
    float ip, ip2;
    o[0] = frexp(x, &e);
    p[1] = e;
    o[1] = ldexp(x, (int)(y * 4.0f));
    p[2] = ilogb(x);
    o[2] = nextafter(x, y);
    o[3] = fract(x, &ip);
    o[4] = ip;
    o[5] = modf(x, &ip2);
    o[6] = ip2;
    o[7] = fmod(x, y);
    o[8] = remainder(x, y);
    o[9] = logb(x);
    p[3] = as_int(nextafter(x, 0.0f));
}
