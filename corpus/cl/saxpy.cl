// Exercises the classic saxpy (y = a*x + y, contracted to an FMA) and daxpy with bounds checks, run on grids with a partial last work-group.
__kernel void saxpy(uint n, float a, __global const float *x, __global float *y)
{
    uint i = get_global_id(0);
    if (i < n)
        y[i] = a * x[i] + y[i];
}

__kernel void daxpy(uint n, double a, __global const double *x, __global double *y)
{
    uint i = get_global_id(0);
    if (i < n)
        y[i] = fma(a, x[i], y[i]);
}
