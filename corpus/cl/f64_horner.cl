// Exercises f64 polynomial evaluation (Horner with fma) using a program-scope __constant coefficient table and a loop.
#pragma OPENCL FP_CONTRACT OFF
__constant double coef[13] = {
    1.0, -0.5, 0.25, -0.125, 0.0625, 3.0e-2, -1.5e-2, 7.5e-3, -3.75e-3, 1.875e-3, 9.0e-4, -4.5e-4, 2.25e-4
};

__kernel void f64_horner(__global const double *x, __global double *out, uint n)
{
    uint i = get_global_id(0);
    if (i >= n)
        return;
    double t = x[i];
    double r = coef[12];
    for (int k = 11; k >= 0; k--)
        r = fma(r, t, coef[k]);
    double s = 0.0;
    double p = 1.0;
    for (int k = 0; k < 13; k++) {
        s = s + coef[k] * p;
        p = p * t;
    }
    out[2u * i] = r;
    out[2u * i + 1u] = s;
}
